# Tests (tests/README.md says what goes where):
#   tests/unit/<layer>/test_<module>.c   cmocka, one program per module, by the layer it tests
#   tests/cli/*.sh                       the tlcost command end to end (tests/cli_lib.sh)
#   tests/build/*.sh                     the build and the tree: headers, ABI, layering, catalogue, install
# fuzz/, scaling/, bench/, plugins/, python/, cupti/, nvtx/, gpu/ keep their own fragments.

# ---- Unit tests: the one list of test programs ----
# Each program is built from its one source, tests/unit/LAYER/test_NAME.c,
# with the defaults below (the include paths of every layer, libtlcore and
# cmocka). Only the genuine exceptions after the list set flags of their own.
TLC_UNIT_TESTS = \
	tests/unit/base/test_sb tests/unit/base/test_hindex tests/unit/base/test_densemap \
	tests/unit/base/test_gmpalloc \
	tests/unit/registry/test_engine tests/unit/registry/test_host \
	tests/unit/registry/test_loader tests/unit/registry/test_rulefile \
	tests/unit/registry/test_packs tests/unit/registry/test_cost_fast \
	tests/unit/registry/test_cost_io \
	tests/unit/registry/test_cost_share \
	tests/unit/store/test_store tests/unit/store/test_held \
	tests/unit/eval/test_rows tests/unit/eval/test_row_dtype \
	tests/unit/eval/test_rowmem \
	tests/unit/input/test_oplog tests/unit/input/test_trace tests/unit/input/test_json_fast \
	tests/unit/input/test_jsontext tests/unit/input/test_capture_pair \
	tests/unit/join/test_join \
	tests/unit/report/test_tree tests/unit/report/test_roofline tests/unit/report/test_mfu \
	tests/unit/report/test_profile tests/unit/report/test_diff tests/unit/report/test_merge \
	tests/unit/report/test_annotate tests/unit/report/test_steps \
	tests/unit/rules/test_rules tests/unit/rules/test_collective \
	tests/unit/api/test_abi tests/unit/api/test_errors tests/unit/api/test_extremes
if HAVE_CUPTI
TLC_UNIT_TESTS += tests/unit/capture/test_cupti tests/unit/capture/test_errors_cupti
endif
# built for check, run by a script rather than by the harness (tests/nvtx/ranges.sh)
TLC_UNIT_DRIVEN = tests/unit/capture/test_nvtx
check_PROGRAMS += $(TLC_UNIT_TESTS) $(TLC_UNIT_DRIVEN)
TESTS += $(TLC_UNIT_TESTS)
# the shared fixture headers, and the capture tests' sources where CUPTI is absent
EXTRA_DIST += tests/unit/fixture.h tests/unit/report_fixture.h tests/unit/rows_util.h \
	tests/unit/failing_alloc.h tests/unit/totals_util.h tests/nvtx/inject.h \
	tests/unit/capture/test_cupti.c tests/unit/capture/test_errors_cupti.c

# The defaults: every program of this build declared without its own
# _LDADD is a unit test (the others set theirs), and the default include
# paths (AM_CPPFLAGS, Makefile.am) are already the tests'.
LDADD = libtlcore.la $(CMOCKA_LIBS)
AM_CPPFLAGS += $(CMOCKA_CFLAGS)

# The exceptions.
# (libtlcore.la brings -lgmp -lz -lm, which some tests call directly.)
# Tests that include <zlib.h>, and the SIMD fast path's own switch.
tests_unit_input_test_oplog_CPPFLAGS = $(AM_CPPFLAGS) $(ZLIB_CFLAGS)
tests_unit_input_test_trace_CPPFLAGS = $(AM_CPPFLAGS) $(ZLIB_CFLAGS)
tests_unit_input_test_json_fast_CPPFLAGS = $(AM_CPPFLAGS) $(SIMDJSON_CFLAGS)
# Threads (four evaluations on one engine).
tests_unit_api_test_abi_CFLAGS = $(AM_CFLAGS) -pthread
tests_unit_api_test_abi_LDFLAGS = -pthread
# Where the fixtures, documents and examples the tests read live.
tests_unit_registry_test_rulefile_CPPFLAGS = $(AM_CPPFLAGS) \
	-DRULES_FIXTURE_DIR='"$(abs_top_srcdir)/tests/fixtures/rules"' \
	-DRULES_DOCS='"$(abs_top_srcdir)/docs/rule-files.md"' \
	-DRULES_EXAMPLES_DIR='"$(abs_top_srcdir)/examples"'
tests_unit_registry_test_loader_CPPFLAGS = $(AM_CPPFLAGS) \
	-DFIXTURE_DIR='"$(abs_top_builddir)/tests/plugins/.libs"' \
	-DEXAMPLE_DIR='"$(abs_top_builddir)/plugins/examples/.libs"' \
	-DOPLOG_DIR='"$(abs_top_srcdir)/tests/fixtures/oplog"'
# The rule tables (RULE_TABLES, rules/local.mk) are compiled in: rebuild
# when that fragment changes.
tests_unit_rules_test_rules_CPPFLAGS = $(AM_CPPFLAGS) -DTLC_RULE_TABLES='"$(RULE_TABLES)"'
$(tests_unit_rules_test_rules_OBJECTS): $(top_srcdir)/rules/local.mk
# The capture libraries (capture/*/local.mk), not libtlcore.
# test_cupti links the module's objects (libtlcost-cupti-core, capture/cupti/local.mk)
# to reach its internals, and drives running sessions on the stand-in libcupti
tests_unit_capture_test_cupti_CPPFLAGS = $(AM_CPPFLAGS) $(CUPTI_CFLAGS) \
	-I$(top_srcdir)/capture/cupti -DTLC_CUPTI_LIBDIR='"$(CUPTI_LIBDIR)"' \
	-DTLC_TEST_FAKE_CUPTI='"$(abs_top_builddir)/tests/nvtx/.libs/fake_cupti.so"'
tests_unit_capture_test_cupti_LDADD = libtlcost-cupti-core.la libtlcost-nvtx.la libtlcost.la \
	$(CMOCKA_LIBS) -lpthread
tests_unit_capture_test_errors_cupti_CPPFLAGS = $(AM_CPPFLAGS) $(CUPTI_CFLAGS)
tests_unit_capture_test_errors_cupti_LDADD = libtlcost-cupti.la libtlcost.la $(CMOCKA_LIBS)
tests_unit_capture_test_nvtx_CPPFLAGS = $(AM_CPPFLAGS) $(NVTX_CPPFLAGS)
tests_unit_capture_test_nvtx_LDADD = libtlcost-nvtx.la $(CMOCKA_LIBS) -lpthread
if HAVE_CUPTI
# the CUPTI session's ranges: named op enter/exit and its internal work
tests_unit_capture_test_nvtx_CPPFLAGS += $(CUPTI_CFLAGS) -DTLC_HAVE_CUPTI
tests_unit_capture_test_nvtx_LDADD += libtlcost-cupti.la libtlcost.la
endif

# ---- Script tests: each is run by `make check` and distributed ----
# tests/cli: the tlcost command end to end; every one sources tests/cli_lib.sh.
# The tests on ../shared/traces skip (77) without them.
TLC_CLI_TESTS = \
	tests/cli/models.sh tests/cli/devtime_cli.sh tests/cli/json_schema.sh \
	tests/cli/contract_exit.sh \
	tests/cli/rulefile_cli.sh tests/cli/rulehelp_cli.sh tests/cli/inductor_cli.sh \
	tests/cli/reports_cli.sh tests/cli/svg_render.sh tests/cli/html_browser.sh \
	tests/cli/steps_cli.sh tests/cli/tracelens_cli.sh tests/cli/diff_cli.sh \
	tests/cli/join_cli.sh tests/cli/capture_pair_cli.sh tests/cli/capture_remedy.sh \
	tests/cli/annotate_cli.sh tests/cli/annotate_util.sh tests/cli/profile_topk.sh \
	tests/cli/trace_args_cli.sh tests/cli/trace_generations.sh tests/cli/legacy_trace.sh \
	tests/cli/trace_linear.sh tests/cli/trace_dupkey_cli.sh tests/cli/sniff_cli.sh \
	tests/cli/utf8_cli.sh tests/cli/json_fast_same.sh tests/cli/json_fast_batch.sh \
	tests/cli/trace_fast_same.sh \
	tests/cli/comms_cli.sh tests/cli/merge_cli.sh tests/cli/ranks_cli.sh \
	tests/cli/held_cli.sh tests/cli/unrecorded_cli.sh tests/cli/partly_known_cli.sh \
	tests/cli/output_cli.sh tests/cli/huge_totals.sh tests/cli/hostile_cli.sh \
	tests/cli/limits_cli.sh tests/cli/save_stale_temp.sh \
	tests/cli/numeric_options_cli.sh tests/cli/inputs_cli.sh \
	tests/cli/real_traces.sh tests/cli/real_traces_args.sh tests/cli/rule_args_real.sh \
	tests/cli/join_gate_real.sh tests/cli/rollup_real.sh tests/cli/rollup_util.sh
# tests/build: the build and the tree (no tlcost run needed); the catalogue
# check regenerates docs/errors.md and wants a test naming every code.
TLC_BUILD_TESTS = \
	tests/build/headers.sh tests/build/header_example.sh tests/build/init_macros.sh \
	tests/build/layers.sh tests/build/layers_objects.sh tests/build/abi_check.sh \
	tests/build/install.sh tests/build/error_catalogue.sh tests/build/error_catalogue_self.sh
TESTS += $(TLC_CLI_TESTS) $(TLC_BUILD_TESTS)
XFAIL_TESTS =
EXTRA_DIST += tests/cli_lib.sh $(TLC_CLI_TESTS) $(TLC_BUILD_TESTS)
# their independent checkers and helpers
EXTRA_DIST += tests/cli/svg_check.py tests/cli/html_browser.py tests/cli/diff_check.py \
	tests/cli/steps_check.py tests/cli/join_gate_check.py tests/cli/capture_pair_check.py \
	tests/cli/annotate_check.py tests/cli/real_traces_check.py tests/cli/rule_args_check.py \
	tests/cli/rollup_check.py tests/cli/trace_walk.py tests/cli/output_check.py \
	tests/cli/comms/raw_comms.py tests/cli/comms/merge_check.py tests/cli/comms/make_ranks.py \
	tests/cli/comms/achieved_bw.py tests/cli/comms/kernel_comms.py \
	tests/build/layers.py tests/build/layers_objects.py tools/tracelens_compare.py \
	tools/error_catalogue.py docs/errors.md \
	tools/snapshot_outputs.sh
# Size-scaling check (issue 23): instructions (callgrind) and peak heap
# (tests/scaling/peakheap.c) at N, 2N, 4N along every axis an input can grow,
# for every command that reads it; `make bench-scaling` runs the same axes
# natively at large sizes (tests/bench/local.mk). tests/README.md: adding an axis.
TESTS += tests/scaling/scaling.sh
EXTRA_DIST += tests/scaling/scaling.sh tests/scaling/scaling.py tests/scaling/gen.py \
	tests/scaling/peakheap.c tests/README.md

# ---- Inputs, goldens and the documents the tests read ----
EXTRA_DIST += tests/fixtures/oplog tests/fixtures/trace tests/fixtures/trace_args \
	tests/fixtures/devtime tests/fixtures/rules tests/fixtures/reports tests/golden \
	tests/fixtures/partly_known tests/fixtures/capture \
	tests/fixtures/diff/a.oplog.jsonl tests/fixtures/diff/b.oplog.jsonl \
	tests/fixtures/diff/mlp_b1.oplog.jsonl tests/fixtures/diff/mlp_b8.oplog.jsonl \
	tests/fixtures/diff/mlp_b8_bf16.oplog.jsonl tests/fixtures/diff/mlp_b8_jit.oplog.jsonl \
	tests/fixtures/annotate/mixed.json tests/fixtures/annotate/util.json \
	tests/fixtures/steps/two_steps.json tests/fixtures/inductor/flex.oplog.jsonl \
	examples/fused_gelu.tlrules examples/api_flops.c
EXTRA_DIST += docs/json-schema.md docs/cost-contract.md docs/oplog-v1.md docs/rule-files.md \
	docs/reports.md docs/devices.md docs/join.md docs/kineto.md docs/api.md \
	docs/collectives.md docs/architecture.md docs/diff.md docs/html.md \
	docs/img/html-report.png docs/contributing.md docs/annotate.md

# ---- Stanzas of branches in flight: the integrator folds each into the
# lists above (a unit test: one name in TLC_UNIT_TESTS, flags only if it
# needs others; a script: one name in TLC_CLI_TESTS or TLC_BUILD_TESTS).
