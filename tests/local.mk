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
EXTRA_DIST += tests/cli_lib.sh tests/rulefile_cli.sh tests/fixtures/rules docs/rule-files.md \
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
TESTS += tests/test_trace tests/test_join tests/join_cli.sh tests/join_gate_real.sh
EXTRA_DIST += tests/join_gate_real.sh tests/join_gate_check.py
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
EXTRA_DIST += docs/api.md

# ABI hygiene: the runtime version query, size-versioned structs, and the
# example in <tlcost/tlcost.h> compiling and running as printed.
check_PROGRAMS += tests/test_abi
TESTS += tests/test_abi tests/header_example.sh
tests_test_abi_SOURCES = tests/test_abi.c
tests_test_abi_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS) -pthread
tests_test_abi_LDFLAGS = -pthread
tests_test_abi_LDADD = libtlcore.la $(CMOCKA_LIBS)
EXTRA_DIST += tests/header_example.sh

# Issue 10 item 1: no guessed schema default on real traces (independent
# checker of conv/matmul FLOPs from the raw JSON; skips without the traces).
TESTS += tests/rule_args_real.sh
EXTRA_DIST += tests/rule_args_real.sh tests/rule_args_check.py
TESTS += tests/trace_args_cli.sh
EXTRA_DIST += tests/trace_args_cli.sh tests/fixtures/trace_args

# The SIMD JSON fast path changes no output (fast on and off compared on
# every input; TLCOST_BEFORE=old-tlcost compares two builds).
TESTS += tests/json_fast_same.sh
EXTRA_DIST += tests/json_fast_same.sh

# Real traces (issue 10): independent checker of phases, device work, verdicts, joins
TESTS += tests/real_traces.sh tests/real_traces_args.sh tests/legacy_trace.sh tests/trace_generations.sh
XFAIL_TESTS =
EXTRA_DIST += tests/real_traces.sh tests/real_traces_args.sh tests/legacy_trace.sh tests/trace_generations.sh \
	tests/real_traces_check.py

# Collectives: communication cost (rules/collective.c, docs/collectives.md).
check_PROGRAMS += tests/test_collective
TESTS += tests/test_collective
tests_test_collective_SOURCES = tests/test_collective.c
tests_test_collective_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_collective_LDADD = libtlcore.la $(CMOCKA_LIBS)
TESTS += tests/comms_cli.sh
EXTRA_DIST += tests/comms_cli.sh tests/comms/raw_comms.py \
	docs/collectives.md

# Merging flops partials (engine/report/merge.c, tlcost merge).
check_PROGRAMS += tests/test_merge
TESTS += tests/test_merge
tests_test_merge_SOURCES = tests/test_merge.c
tests_test_merge_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_merge_LDADD = libtlcore.la $(CMOCKA_LIBS)
TESTS += tests/merge_cli.sh
EXTRA_DIST += tests/merge_cli.sh tests/comms/merge_check.py
TESTS += tests/ranks_cli.sh
EXTRA_DIST += tests/ranks_cli.sh tests/comms/make_ranks.py
EXTRA_DIST += tests/comms/achieved_bw.py
EXTRA_DIST += tests/comms/kernel_comms.py
# The ABI checker itself (tools/abi-check.sh) on toy libraries.
TESTS += tests/abi_check.sh
EXTRA_DIST += tests/abi_check.sh

# The plugin host table's helpers, called as an outside plugin calls them.
check_PROGRAMS += tests/test_host
TESTS += tests/test_host
tests_test_host_SOURCES = tests/test_host.c
tests_test_host_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_host_LDADD = libtlcore.la $(CMOCKA_LIBS)

# The README's Install section (a staged install here; the whole sequence,
# with a changed prefix, under TLCOST_INSTALL_TEST=full in .ci/run).
TESTS += tests/install.sh
EXTRA_DIST += tests/install.sh examples/api_flops.c

# GMP's allocations through the engine's allocator (TLC_ENGINE_GMP_ALLOCATOR).
check_PROGRAMS += tests/test_gmpalloc
TESTS += tests/test_gmpalloc
tests_test_gmpalloc_SOURCES = tests/test_gmpalloc.c
tests_test_gmpalloc_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_gmpalloc_LDADD = libtlcore.la $(CMOCKA_LIBS)
EXTRA_DIST += docs/architecture.md


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

# ---- tmem: compact held records (shared costs, row lookup by id, per-device totals) ----
check_PROGRAMS += tests/test_rowmem
TESTS += tests/test_rowmem
tests_test_rowmem_SOURCES = tests/test_rowmem.c
tests_test_rowmem_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_rowmem_LDADD = libtlcore.la $(CMOCKA_LIBS)
# The one hash index (engine/base/hindex.c), the id map and the interner on it.
check_PROGRAMS += tests/test_hindex
TESTS += tests/test_hindex
tests_test_hindex_SOURCES = tests/test_hindex.c
tests_test_hindex_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_hindex_LDADD = libtlcore.la $(CMOCKA_LIBS)
# Held op-log records (issue 11 item 10): packed small (engine/store/held.c),
# bounded in bytes (held_bytes_exceeded), released when their parent comes.
check_PROGRAMS += tests/test_held
TESTS += tests/test_held tests/held_cli.sh
tests_test_held_SOURCES = tests/test_held.c
tests_test_held_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_held_LDADD = libtlcore.la $(CMOCKA_LIBS)
EXTRA_DIST += tests/held_cli.sh
# The capture remedies name `python3 -m tlcost capture` and its real options.
TESTS += tests/capture_remedy.sh
EXTRA_DIST += tests/capture_remedy.sh
# An unrecorded argument round-trips through join --save (the "unrecorded"
# extension of docs/oplog-v1.md), on both JSON paths.
TESTS += tests/unrecorded_cli.sh
EXTRA_DIST += tests/unrecorded_cli.sh
# Partly known ops (issue 26): determined terms counted, the missing term in
# the ledger; a golden text ledger and the owlv2 trace's gelu.
TESTS += tests/partly_known_cli.sh
EXTRA_DIST += tests/partly_known_cli.sh tests/fixtures/partly_known \
	tests/golden/ledger_partly_known.txt

# ---- eng2: the host's cost accumulation fast path and its overflow boundary ----
check_PROGRAMS += tests/test_cost_fast
TESTS += tests/test_cost_fast
tests_test_cost_fast_SOURCES = tests/test_cost_fast.c
tests_test_cost_fast_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_cost_fast_LDADD = libtlcore.la $(CMOCKA_LIBS)

# ---- engine: an op's bytes summed once while its values are checked, and op types by name pointer ----
check_PROGRAMS += tests/test_cost_io
TESTS += tests/test_cost_io
tests_test_cost_io_SOURCES = tests/test_cost_io.c
tests_test_cost_io_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_cost_io_LDADD = libtlcore.la $(CMOCKA_LIBS)

# ---- odlog: the op-log boundary of the SIMD fast path (tlc_json_fast__op) ----
check_PROGRAMS += tests/test_json_fast
TESTS += tests/test_json_fast
tests_test_json_fast_SOURCES = tests/test_json_fast.c
tests_test_json_fast_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS) $(SIMDJSON_CFLAGS)
tests_test_json_fast_LDADD = libtlcore.la $(CMOCKA_LIBS)

# ---- tracefast: the trace fast path against yajl (flops and join, windows) ----
TESTS += tests/trace_fast_same.sh
EXTRA_DIST += tests/trace_fast_same.sh

# compact rows (tmem3): tests read rows through tlc_eval_op_get
EXTRA_DIST += tests/rows_util.h tests/failing_alloc.h tests/totals_util.h
# Compact row storage (engine/eval/rows.c): exact delta columns, round trip, allocation failure.
check_PROGRAMS += tests/test_rows
TESTS += tests/test_rows
tests_test_rows_SOURCES = tests/test_rows.c
tests_test_rows_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_rows_LDADD = libtlcore.la $(CMOCKA_LIBS)

# The typed dtype of op rows (tlc_op_row.dtype) against the summary scan the
# reports used before, over every input and hand-made records.
check_PROGRAMS += tests/test_row_dtype
TESTS += tests/test_row_dtype
tests_test_row_dtype_SOURCES = tests/test_row_dtype.c
tests_test_row_dtype_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_row_dtype_LDADD = libtlcore.la $(CMOCKA_LIBS)

# engine3: the dense id map (engine/base/idmap.c tlc_densemap), the id bits' store.
check_PROGRAMS += tests/test_densemap
TESTS += tests/test_densemap
tests_test_densemap_SOURCES = tests/test_densemap.c
tests_test_densemap_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_densemap_LDADD = libtlcore.la $(CMOCKA_LIBS)

# ---- oplog3: the op-log fast path's batches of lines against yajl ----
TESTS += tests/json_fast_batch.sh
EXTRA_DIST += tests/json_fast_batch.sh

# The string builder's decimal integers (tlc_sb__put_i64) against snprintf.
check_PROGRAMS += tests/test_sb
TESTS += tests/test_sb
tests_test_sb_SOURCES = tests/test_sb.c
tests_test_sb_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_sb_LDADD = libtlcore.la $(CMOCKA_LIBS)

# Size-scaling check (issue 23): instructions (callgrind) and peak heap
# (tests/scaling/peakheap.c) at N, 2N, 4N along every axis an input can grow,
# for every command that reads it; `make bench-scaling` runs the same axes
# natively at large sizes (tests/bench/local.mk). tests/README.md: adding an axis.
TESTS += tests/scaling/scaling.sh
EXTRA_DIST += tests/scaling/scaling.sh tests/scaling/scaling.py tests/scaling/gen.py \
	tests/scaling/peakheap.c tests/README.md
# Input reliability (issue 23: linear window, UTF-8, sniffing, duplicate keys).
TESTS += tests/trace_linear.sh
EXTRA_DIST += tests/trace_linear.sh
TESTS += tests/utf8_cli.sh
EXTRA_DIST += tests/utf8_cli.sh
TESTS += tests/trace_dupkey_cli.sh
EXTRA_DIST += tests/trace_dupkey_cli.sh
TESTS += tests/sniff_cli.sh
EXTRA_DIST += tests/sniff_cli.sh
check_PROGRAMS += tests/test_jsontext
TESTS += tests/test_jsontext
tests_test_jsontext_SOURCES = tests/test_jsontext.c
tests_test_jsontext_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_jsontext_LDADD = libtlcore.la $(CMOCKA_LIBS)
# ---- hostgpu: docs/cost-contract.md's exit statuses against the CLI's ----
TESTS += tests/contract_exit.sh
EXTRA_DIST += tests/contract_exit.sh
# stale temporaries of killed --save / --svg writes (engine/output/outfile.c)
TESTS += tests/save_stale_temp.sh
EXTRA_DIST += tests/save_stale_temp.sh
# Reliability of the report and many-input commands (issue 23: numeric
# options, directory entries, inputs given twice, partials' arithmetic).
TESTS += tests/numeric_options_cli.sh tests/inputs_cli.sh
EXTRA_DIST += tests/numeric_options_cli.sh tests/inputs_cli.sh
# ---- capture: graph replays paired with their capture (issue 26 item 4) ----
TESTS += tests/capture_pair_cli.sh
check_PROGRAMS += tests/test_capture_pair
TESTS += tests/test_capture_pair
tests_test_capture_pair_SOURCES = tests/test_capture_pair.c
tests_test_capture_pair_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_capture_pair_LDADD = libtlcore.la $(CMOCKA_LIBS)
EXTRA_DIST += tests/capture_pair_cli.sh tests/capture_pair_check.py \
	tests/fixtures/capture/capture_two_graphs.json tests/fixtures/capture/capture_cuda.json \
	tests/fixtures/capture/capture_huge_ids.json \
	tests/fixtures/capture/replay_three_launches.json tests/fixtures/capture/replay_two_equal.json \
	tests/fixtures/capture/replay_overlap.json
# tlcost diff A B (issue 27): hand-derived batch-1/8 fixtures, conservation
# checked by tests/diff_check.py from the raw inputs, --fail-if, rank dirs.
TESTS += tests/diff_cli.sh
check_PROGRAMS += tests/test_diff
TESTS += tests/test_diff
tests_test_diff_SOURCES = tests/test_diff.c tests/report_fixture.h
tests_test_diff_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_diff_LDADD = libtlcore.la $(CMOCKA_LIBS)
EXTRA_DIST += docs/diff.md tests/diff_cli.sh tests/diff_check.py tests/fixtures/diff/a.oplog.jsonl \
	tests/fixtures/diff/b.oplog.jsonl tests/fixtures/diff/mlp_b1.oplog.jsonl \
	tests/fixtures/diff/mlp_b8.oplog.jsonl tests/fixtures/diff/mlp_b8_bf16.oplog.jsonl \
	tests/fixtures/diff/mlp_b8_jit.oplog.jsonl
# ---- html: tlcost html in headless Chromium (issue 28 items 1, 2; docs/html.md) ----
TESTS += tests/html_browser.sh
EXTRA_DIST += tests/html_browser.sh tests/html_browser.py docs/html.md docs/img/html-report.png
# ---- arch (issue 24): the layering checked over the built objects, the
# init macros and verb-order spellings, the plugin rule helpers ----
TESTS += tests/layers_objects.sh
EXTRA_DIST += tests/layers_objects.sh tests/layers_objects.py
# every sized public struct has its TLC_*_INIT macro, and each compiles
TESTS += tests/init_macros.sh
EXTRA_DIST += tests/init_macros.sh
# <tlcost/sys/rulehelp.h>: an example plugin built on it alone, loaded
TESTS += tests/rulehelp_cli.sh
EXTRA_DIST += tests/rulehelp_cli.sh tests/fixtures/oplog/scaled_mm.oplog.jsonl
EXTRA_DIST += docs/contributing.md tools/snapshot_outputs.sh
# ---- annotate: the trace with each op's cost in its args (issue 28 item 3) ----
TESTS += tests/annotate_cli.sh
EXTRA_DIST += tests/annotate_cli.sh tests/annotate_check.py tests/fixtures/annotate/mixed.json \
	docs/annotate.md
check_PROGRAMS += tests/test_annotate
TESTS += tests/test_annotate
tests_test_annotate_SOURCES = tests/test_annotate.c
tests_test_annotate_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_annotate_LDADD = libtlcore.la $(CMOCKA_LIBS)
# ---- rollup: device time on the costed row, the join as an overlay (issue 25 items 1, 4, 5; issue 24 item 1) ----
TESTS += tests/rollup_real.sh tests/rollup_util.sh
EXTRA_DIST += tests/rollup_real.sh tests/rollup_util.sh tests/rollup_check.py
# tlcost steps (issue 25 item 6): hand-derived fixture buckets, independent
# recomputation on every shared trace with device records (tests/steps_check.py);
# the comparison with TraceLens's published CSVs, read from a mirror (skipped without).
TESTS += tests/steps_cli.sh tests/tracelens_cli.sh
EXTRA_DIST += tests/steps_cli.sh tests/steps_check.py tests/fixtures/steps/two_steps.json \
	tests/tracelens_cli.sh tools/tracelens_compare.py
check_PROGRAMS += tests/test_steps
TESTS += tests/test_steps
tests_test_steps_SOURCES = tests/test_steps.c
tests_test_steps_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_steps_LDADD = libtlcore.la $(CMOCKA_LIBS)
# Inductor / Triton kernels and FlexAttention's templates in the ledger
# (issue 26 item 3, rules/inductor.c)
TESTS += tests/inductor_cli.sh
EXTRA_DIST += tests/inductor_cli.sh tests/fixtures/inductor/flex.oplog.jsonl
# ---- wire: attributed kernel utilization in the annotated trace (issue 28 item 3) ----
TESTS += tests/annotate_util.sh
EXTRA_DIST += tests/annotate_util.sh tests/fixtures/annotate/util.json
# The store's one op record encoding (issue 24 item 1, engine/store/record.c):
# bytes counted by hand, round trips, every cut and flipped byte typed.
check_PROGRAMS += tests/test_store
TESTS += tests/test_store
tests_test_store_SOURCES = tests/test_store.c
tests_test_store_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_store_LDADD = libtlcore.la $(CMOCKA_LIBS)
# ---- bench: kept row costs shared across a collective (issue 24, trace-path memory) ----
check_PROGRAMS += tests/test_cost_share
TESTS += tests/test_cost_share
tests_test_cost_share_SOURCES = tests/test_cost_share.c
tests_test_cost_share_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_cost_share_LDADD = libtlcore.la $(CMOCKA_LIBS)
# ---- htmlperf: tlcost html shares the profile pass; by-op top K held while reading (issue 28 item 1) ----
TESTS += tests/profile_topk.sh
EXTRA_DIST += tests/profile_topk.sh
