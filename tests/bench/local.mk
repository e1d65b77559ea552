# tests/bench: `make bench` (not part of `make check`). Builds a synthetic op
# log generator, an engine-only throughput program and a timing wrapper, then
# prints the measured numbers next to their targets (tests/bench/run.sh).
EXTRA_PROGRAMS += tests/bench/gen_oplog tests/bench/bench_engine tests/bench/timeit \
	tests/bench/yajl_floor
tests_bench_gen_oplog_SOURCES = tests/bench/gen_oplog.c
tests_bench_timeit_SOURCES = tests/bench/timeit.c
tests_bench_bench_engine_SOURCES = tests/bench/bench_engine.c
tests_bench_bench_engine_LDADD = libtlcore.la
tests_bench_yajl_floor_SOURCES = tests/bench/yajl_floor.c
tests_bench_yajl_floor_CFLAGS = $(AM_CFLAGS) $(YAJL_CFLAGS)
tests_bench_yajl_floor_LDADD = $(YAJL_LIBS)
EXTRA_DIST += tests/bench/run.sh tests/bench/token_run.sh
CLEANFILES += tests/bench/gen_oplog$(EXEEXT) tests/bench/bench_engine$(EXEEXT) \
	tests/bench/timeit$(EXEEXT) tests/bench/yajl_floor$(EXEEXT) tests/bench/timeit.out

BENCH_DEPS = tlcost$(EXEEXT) tests/bench/gen_oplog$(EXEEXT) \
	tests/bench/bench_engine$(EXEEXT) tests/bench/timeit$(EXEEXT) tests/bench/yajl_floor$(EXEEXT)

.PHONY: bench bench-oplog bench-clean
# `make bench`: the op log benchmark, then the trace benchmark (am/trace.am)
bench: bench-oplog
	@$(MAKE) $(AM_MAKEFLAGS) bench-trace
	@$(MAKE) $(AM_MAKEFLAGS) bench-tokens
# long tokens cost linear time (issue 11): tests/bench/token_run.sh
.PHONY: bench-tokens
bench-tokens: tlcost$(EXEEXT) tests/bench/timeit$(EXEEXT)
	@TLCOST='$(abs_top_builddir)/tlcost' TIMEIT='$(abs_top_builddir)/tests/bench/timeit' \
	BENCH_DIR='$(abs_top_builddir)/tests/bench' $(SHELL) $(top_srcdir)/tests/bench/token_run.sh
bench-oplog: $(BENCH_DEPS)
	@TLCOST='$(abs_top_builddir)/tlcost' GEN='$(abs_top_builddir)/tests/bench/gen_oplog' \
	ENGINE='$(abs_top_builddir)/tests/bench/bench_engine' \
	TIMEIT='$(abs_top_builddir)/tests/bench/timeit' JSON_VERIFY='$(JSON_VERIFY)' \
	FLOOR='$(abs_top_builddir)/tests/bench/yajl_floor' \
	BENCH_DIR='$(abs_top_builddir)/tests/bench' \
	$(SHELL) $(top_srcdir)/tests/bench/run.sh

# the generated logs are large (about 340 MB per million ops)
bench-clean:
	rm -f tests/bench/oplog-*.jsonl tests/bench/oplog-*.jsonl.tmp tests/bench/timeit.out \
	      tests/bench/trace-*.json tests/bench/trace-*.json.tmp

# `make bench-trace` (not part of `make check`): a synthetic trace of
# BENCH_EVENTS (default 5 million) events, read by `tlcost flops`, timed
# against a yajl parse-only pass and measured for peak RSS.
EXTRA_PROGRAMS += tests/bench/gen_trace
tests_bench_gen_trace_SOURCES = tests/bench/gen_trace.c
EXTRA_DIST += tests/bench/trace_run.sh
CLEANFILES += tests/bench/gen_trace$(EXEEXT) tests/bench/timeit-trace.out

.PHONY: bench-trace
bench-trace: tlcost$(EXEEXT) tests/bench/gen_trace$(EXEEXT) tests/bench/timeit$(EXEEXT)
	@TLCOST='$(abs_top_builddir)/tlcost' GEN_TRACE='$(abs_top_builddir)/tests/bench/gen_trace' \
	TIMEIT='$(abs_top_builddir)/tests/bench/timeit' JSON_VERIFY='$(JSON_VERIFY)' \
	BENCH_DIR='$(abs_top_builddir)/tests/bench' \
	$(SHELL) $(top_srcdir)/tests/bench/trace_run.sh
