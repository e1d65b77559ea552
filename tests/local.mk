# Core tests (tests/): engine unit tests and the standalone-header check.
check_PROGRAMS += tests/test_engine
TESTS += tests/test_engine
tests_test_engine_SOURCES = tests/test_engine.c
tests_test_engine_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_engine_LDADD = libtlcore.la $(CMOCKA_LIBS)

# Public headers compile on their own, pedantic, as C and as C++-free C11.
TESTS += tests/headers.sh tests/models.sh tests/devtime_cli.sh tests/json_schema.sh
EXTRA_DIST += tests/headers.sh tests/models.sh tests/devtime_cli.sh tests/fixtures/devtime tests/json_schema.sh docs/json-schema.md docs/cost-contract.md docs/oplog-v1.md

# Op log v1 reader, input byte streams (plain/gzip) and format detection.

check_PROGRAMS += tests/test_oplog
TESTS += tests/test_oplog
tests_test_oplog_SOURCES = tests/test_oplog.c
tests_test_oplog_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS) $(ZLIB_CFLAGS)
tests_test_oplog_LDADD = libtlcore.la $(CMOCKA_LIBS) $(ZLIB_LIBS)
EXTRA_DIST += tests/fixtures/oplog

# Declarative rule files (engine/registry/rulefile.c: parser and loader;
# engine/registry/rulefile_eval.c: the interpreter), their unit test and golden CLI test.

check_PROGRAMS += tests/test_rulefile
TESTS += tests/test_rulefile
tests_test_rulefile_SOURCES = tests/test_rulefile.c
tests_test_rulefile_CPPFLAGS = $(AM_CPPFLAGS) \
	-DRULES_FIXTURE_DIR='"$(abs_top_srcdir)/tests/fixtures/rules"' \
	-DRULES_DOCS='"$(abs_top_srcdir)/docs/rule-files.md"' \
	-DRULES_EXAMPLES_DIR='"$(abs_top_srcdir)/examples"'
tests_test_rulefile_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_rulefile_LDADD = libtlcore.la $(CMOCKA_LIBS)

TESTS += tests/rulefile_cli.sh
EXTRA_DIST += tests/rulefile_cli.sh tests/fixtures/rules docs/rule-files.md \
	examples/fused_gelu.tlrules

# libFuzzer target for the parser and interpreter: `make tests/fuzz/fuzz_rulefile`
# builds it through the pattern rule of tests/fuzz/local.mk.
# (in the fuzz list, tests/fuzz/local.mk, which also distributes it)

# Reports (contract sections 5-7): cost tree, profile tables, device presets,
# roofline (+ SVG chart), MFU and the one-screen `tlcost report`.
EXTRA_DIST += docs/reports.md docs/devices.md

check_PROGRAMS += tests/test_tree tests/test_roofline tests/test_mfu tests/test_profile
TESTS += tests/test_tree tests/test_roofline tests/test_mfu tests/test_profile
tests_test_tree_SOURCES = tests/test_tree.c tests/report_fixture.h
tests_test_tree_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_tree_LDADD = libtlcore.la $(CMOCKA_LIBS) $(GMP_LIBS)
tests_test_roofline_SOURCES = tests/test_roofline.c tests/report_fixture.h
tests_test_roofline_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_roofline_LDADD = libtlcore.la $(CMOCKA_LIBS) $(LIBM)
tests_test_mfu_SOURCES = tests/test_mfu.c tests/report_fixture.h
tests_test_mfu_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_mfu_LDADD = libtlcore.la $(CMOCKA_LIBS) $(LIBM)
tests_test_profile_SOURCES = tests/test_profile.c tests/report_fixture.h
tests_test_profile_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_profile_LDADD = libtlcore.la $(CMOCKA_LIBS)

TESTS += tests/reports_cli.sh tests/svg_render.sh
EXTRA_DIST += tests/reports_cli.sh tests/svg_render.sh tests/svg_check.py \
	tests/fixtures/reports tests/golden

# Kineto / Chrome-trace reader and the device-time join (contract section 8).

check_PROGRAMS += tests/test_trace tests/test_join
TESTS += tests/test_trace tests/test_join tests/join_cli.sh
tests_test_trace_SOURCES = tests/test_trace.c
tests_test_trace_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS) $(ZLIB_CFLAGS)
tests_test_trace_LDADD = libtlcore.la $(CMOCKA_LIBS) $(ZLIB_LIBS)
tests_test_join_SOURCES = tests/test_join.c
tests_test_join_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_join_LDADD = libtlcore.la $(CMOCKA_LIBS)
EXTRA_DIST += tests/fixtures/trace tests/join_cli.sh docs/join.md docs/kineto.md

# The library's layering (engine/local.mk): no upward include, no cycle.
TESTS += tests/layers.sh
EXTRA_DIST += tests/layers.sh tests/layers.py

# Outputs whole or a failure, the exit status policy (issue 11): /dev/full and
# closed pipes for every subcommand, interrupted saves, `--`.
TESTS += tests/output_cli.sh
EXTRA_DIST += tests/output_cli.sh tests/output_check.py
# Exact integers past 2^256 through every writer, against Python's own sums.
TESTS += tests/huge_totals.sh
EXTRA_DIST += tests/huge_totals.sh
# Hostile inputs (issue 11): one unknown count, control bytes, NUL, pipes,
# a FIFO in the plugin path.
TESTS += tests/hostile_cli.sh
EXTRA_DIST += tests/hostile_cli.sh
# Reader limits (issue 11): each limit's typed error, tokens across chunks.
TESTS += tests/limits_cli.sh
EXTRA_DIST += tests/limits_cli.sh
