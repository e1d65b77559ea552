# Rule packs (rules/packs/NAME.tlrules, docs/packs.md): rule files for the
# vendor kernels LLM stacks call. Each file's text is embedded in libtlcost
# at build time (tools/pack_embed.awk writes engine/registry/packs_data.c in
# the build tree), so packs work from the build tree, after `make install`
# and from a `make dist` tarball alike; the files are also installed to
# $(pkgdatadir)/packs for users to read. Adding a pack is adding its file
# to PACK_FILES (the order is the load order) and its rows to
# tests/rules/packs.tsv.
PACK_FILES = rules/packs/sglang.tlrules rules/packs/aiter.tlrules rules/packs/vllm.tlrules
PACK_FILES += rules/packs/flashinfer.tlrules rules/packs/bitsandbytes.tlrules rules/packs/apex.tlrules
packsdir = $(pkgdatadir)/packs
dist_packs_DATA = $(PACK_FILES)
EXTRA_DIST += tools/pack_embed.awk

nodist_libtl_registry_la_SOURCES = engine/registry/packs_data.c
BUILT_SOURCES = engine/registry/packs_data.c
CLEANFILES += engine/registry/packs_data.c
engine/registry/packs_data.c: $(PACK_FILES:%=$(srcdir)/%) $(srcdir)/tools/pack_embed.awk \
		$(srcdir)/rules/packs/local.mk
	$(AM_V_GEN)$(MKDIR_P) engine/registry && \
	$(AWK) -f $(srcdir)/tools/pack_embed.awk $(PACK_FILES:%=$(srcdir)/%) > $@.tmp && \
	mv $@.tmp $@

# Tests: the rule table tests/rules/packs.tsv (in RULE_TABLES, rules/local.mk),
# the loader's unit test and the command line's.
# (tests/unit/registry/test_packs is in TLC_UNIT_TESTS, tests/local.mk)
TESTS += tests/cli/packs_cli.sh
EXTRA_DIST += tests/cli/packs_cli.sh tests/fixtures/packs/llm_ops.oplog.jsonl \
	tests/fixtures/packs/override.tlrules docs/packs.md
