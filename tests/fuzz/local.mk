# Fuzzing (tests/fuzz/): libFuzzer targets built with clang straight from the
# library sources (not through libtool), with ASan+UBSan. `make fuzz` builds
# them; `make fuzz-run` runs each for FUZZ_SECONDS over a corpus seeded from
# the fixtures, with the format's dictionary. Inputs that once crashed live
# in tests/fuzz/regress/ (op logs, Kineto traces) and are replayed by
# `make check` (tests/fuzz/replay.sh).
#   fuzz_oplog  op log v1 reader (engine/input/oplog/) and the engine behind it
#   fuzz_trace  Kineto trace reader (engine/input/kineto/) and the engine
#   fuzz_rules  rule-file parser (engine/registry/rulefile.c) and its interpreter
#   fuzz_desc   plugin descriptor validation (engine/registry/loader.c)
#   fuzz_devices  device files (engine/report/devices_file.c), lookup and writer
#   fuzz_rulefile  rule files (engine/registry/rulefile.c) loaded into an engine
#               without built-ins, then interpreted over a fixed op log of
#               hostile shapes (engine/registry/rulefile_eval.c)
#   fuzz_savedjoin  the saved-join reader and verifier (engine/join/save_join.c):
#               what verifies is saved again and must read back and verify
# `make fuzz-long` runs every target for FUZZ_LONG_SECONDS (default 240) with
# a random seed (a campaign by hand, not CI's fixed-seed run).
FUZZ_CC = clang
FUZZ_SECONDS = 60
# A fixed seed makes the bounded CI run walk the same input sequence every
# time: a crash appears because the code changed, not by the luck of a run.
# Set FUZZ_SEED=0 for a random seed when fuzzing by hand.
FUZZ_SEED = 1
FUZZ_SAN = address,undefined
FUZZ_CFLAGS = -g -O1 -fno-sanitize-recover=all \
	-std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
	$(TLC_I_ALL) $(YAJL_CFLAGS) $(ZLIB_CFLAGS) $(SIMDJSON_CFLAGS)
FUZZ_LIBS = $(GMP_LIBS) $(YAJL_LIBS) $(ZLIB_LIBS) $(LIBS) $(LIBM)
# The SIMD JSON fast path (engine/input/json/json_fast.cpp), where built: the
# op log and trace targets fuzz it, and fuzz_oplog compares it with yajl.
# (The targets link as C: UBSan's C++-only checks need a C++ runtime.)
FUZZ_CXX = clang++
FUZZ_CXXFLAGS = -g -O1 -fno-sanitize-recover=all -fno-sanitize=vptr,function -std=c++17 \
	$(TLC_I_ALL) $(SIMDJSON_CFLAGS)
if HAVE_SIMDJSON
FUZZ_LIBS += $(SIMDJSON_LIBS) -lstdc++
endif
# The library sources are compiled once into tests/fuzz/obj/ (instrumented)
# and linked into every target.
FUZZ_LIBSRC = $(filter %.c,$(TLC_CORE_SRCS))
FUZZ_LIBOBJ = $(addprefix tests/fuzz/obj/,$(FUZZ_LIBSRC:.c=.o))
FUZZ_LIBOBJ += $(addprefix tests/fuzz/obj/,$(patsubst %.cpp,%.o,$(filter %.cpp,$(TLC_CORE_SRCS))))
# generated at build time in the build tree (rules/packs/local.mk: the packs'
# rule files embedded in the library), so compiled from there
FUZZ_GENSRC = $(nodist_libtl_registry_la_SOURCES) $(nodist_libtl_report_la_SOURCES)
FUZZ_LIBOBJ += $(addprefix tests/fuzz/obj/,$(FUZZ_GENSRC:.c=.o))
FUZZ_HDRS = $(wildcard $(top_srcdir)/include/tlcost/*.h $(top_srcdir)/engine/*/*.h \
	$(top_srcdir)/engine/*/*/*.h $(top_srcdir)/rules/*.h)
FUZZ_NAMES = oplog trace rules desc devices rulefile savedjoin
FUZZ_TARGETS = $(addprefix tests/fuzz/fuzz_,$(FUZZ_NAMES))

EXTRA_DIST += tests/fuzz/fuzz_common.h $(addprefix tests/fuzz/fuzz_,$(addsuffix .c,$(FUZZ_NAMES))) \
	$(addprefix tests/fuzz/,$(addsuffix .dict,$(FUZZ_NAMES))) \
	tests/fuzz/replay.sh tests/fuzz/regress tests/fuzz/seeds
CLEANFILES += $(FUZZ_TARGETS)

fuzz: $(FUZZ_TARGETS)

tests/fuzz/obj/%.o: $(top_srcdir)/%.c $(FUZZ_HDRS)
	@$(MKDIR_P) $(@D)
	$(AM_V_CC)$(FUZZ_CC) -fsanitize=fuzzer-no-link,$(FUZZ_SAN) $(FUZZ_CFLAGS) -c -o $@ $<

$(addprefix tests/fuzz/obj/,$(FUZZ_GENSRC:.c=.o)): tests/fuzz/obj/%.o: %.c $(FUZZ_HDRS)
	@$(MKDIR_P) $(@D)
	$(AM_V_CC)$(FUZZ_CC) -fsanitize=fuzzer-no-link,$(FUZZ_SAN) $(FUZZ_CFLAGS) -c -o $@ $<

tests/fuzz/obj/%.o: $(top_srcdir)/%.cpp $(FUZZ_HDRS)
	@$(MKDIR_P) $(@D)
	$(AM_V_CXX)$(FUZZ_CXX) -fsanitize=fuzzer-no-link,$(FUZZ_SAN) $(FUZZ_CXXFLAGS) -c -o $@ $<

tests/fuzz/fuzz_%: $(top_srcdir)/tests/fuzz/fuzz_%.c $(top_srcdir)/tests/fuzz/fuzz_common.h $(FUZZ_LIBOBJ)
	@$(MKDIR_P) tests/fuzz
	$(AM_V_CCLD)$(FUZZ_CC) -fsanitize=fuzzer,$(FUZZ_SAN) $(FUZZ_CFLAGS) -o $@ $< $(FUZZ_LIBOBJ) $(FUZZ_LIBS)

# (pattern-made objects are intermediate: keep them between builds)
.SECONDARY: $(FUZZ_LIBOBJ)

clean-local: clean-fuzz
clean-fuzz:
	rm -rf tests/fuzz/obj fuzz-corpus fuzz-crashes fuzz-*.log

# Seeds: every committed fixture of the reader's format, plus the
# hand-written seeds of tests/fuzz/seeds/NAME (files under 2 MB).
FUZZ_SEEDS_oplog = tests/fixtures/oplog tests/fixtures/models examples/custom_gelu.oplog.jsonl \
	examples/resnet50.oplog.jsonl.gz
FUZZ_SEEDS_trace = tests/fixtures/trace tests/fuzz/regress
FUZZ_SEEDS_rules = tests/fixtures/rules examples/fused_gelu.tlrules tests/fuzz/seeds/rules
FUZZ_SEEDS_desc = tests/fuzz/seeds/desc
FUZZ_SEEDS_devices = tests/fuzz/seeds/devices
FUZZ_SEEDS_rulefile = tests/fixtures/rules examples/fused_gelu.tlrules tests/fuzz/seeds/rules
FUZZ_SEEDS_savedjoin = tests/fuzz/seeds/savedjoin tests/fixtures/oplog

# One target: fresh corpus from its seeds, FUZZ_SECONDS of fuzzing; a crash
# fails with the input left in fuzz-crashes/NAME/.
fuzz-run-%: tests/fuzz/fuzz_%
	@set -e; t=$*; corpus=fuzz-corpus/$$t; rm -rf $$corpus fuzz-crashes/$$t; \
	$(MKDIR_P) $$corpus fuzz-crashes/$$t; \
	for s in $(FUZZ_SEEDS_$*); do \
	  [ -e $(top_srcdir)/$$s ] && find $(top_srcdir)/$$s -type f -size -2M \
	    -exec sh -c 'for f; do cp "$$f" "$$0/seed$$(echo "$$f" | tr / _)"; done' $$corpus {} + || true; \
	done; \
	echo "fuzz $$t: $(FUZZ_SECONDS)s over $$(ls $$corpus | wc -l) seeds"; \
	ASAN_OPTIONS=detect_leaks=1 ./tests/fuzz/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -seed=$(FUZZ_SEED) \
	  -rss_limit_mb=2048 -timeout=10 -max_len=1048576 -print_final_stats=1 \
	  -dict=$(top_srcdir)/tests/fuzz/$$t.dict -artifact_prefix=fuzz-crashes/$$t/ $$corpus \
	  > fuzz-$$t.log 2>&1 || { tail -60 fuzz-$$t.log; \
	    echo "fuzz $$t: FAILED (crash input in fuzz-crashes/$$t)"; exit 1; }; \
	grep -E 'stat::number_of_executed_units|Done' fuzz-$$t.log | tail -2

fuzz-run: fuzz
	@fail=0; for t in $(FUZZ_NAMES); do \
	  $(MAKE) $(AM_MAKEFLAGS) fuzz-run-$$t || fail=1; done; exit $$fail

# A random-seed campaign: every target, FUZZ_LONG_SECONDS each, seed 0
# (libFuzzer picks one and prints it, so a crash can be replayed).
FUZZ_LONG_SECONDS = 240
fuzz-long: fuzz
	@fail=0; for t in $(FUZZ_NAMES); do \
	  $(MAKE) $(AM_MAKEFLAGS) fuzz-run-$$t FUZZ_SECONDS=$(FUZZ_LONG_SECONDS) FUZZ_SEED=0 || fail=1; \
	done; exit $$fail

TESTS += tests/fuzz/replay.sh

# (fuzz-run-NAME is a pattern rule, so it cannot be .PHONY: make skips
# implicit rules for phony targets.)
.PHONY: fuzz fuzz-run fuzz-long clean-fuzz
