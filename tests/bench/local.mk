# tests/bench: `make bench` (not part of `make check`). Builds a synthetic op
# log generator, a trace generator, an engine-only throughput program and a
# timing wrapper, then prints every measured figure side by side next to its
# target, in one run (tests/bench/run.sh). `make bench-oplog` and
# `make bench-trace` run one part each.
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
BENCH_ENV = TLCOST='$(abs_top_builddir)/tlcost' GEN='$(abs_top_builddir)/tests/bench/gen_oplog' \
	GEN_TRACE='$(abs_top_builddir)/tests/bench/gen_trace' \
	ENGINE='$(abs_top_builddir)/tests/bench/bench_engine' \
	TIMEIT='$(abs_top_builddir)/tests/bench/timeit' JSON_VERIFY='$(JSON_VERIFY)' \
	LTEXEC='$(abs_top_builddir)/libtool --mode=execute' \
	BENCH_DIR='$(abs_top_builddir)/tests/bench' \
	REPLICATE='$(abs_top_srcdir)/tests/bench/replicate_trace.py' \
	SHARED="$${TLCOST_SHARED_DIR:-$(abs_top_srcdir)/../shared}"

# `make bench`: op log, trace, engine, Python binding and instruction counts
bench: $(BENCH_DEPS) tests/bench/gen_trace$(EXEEXT)
	@$(BENCH_ENV) $(SHELL) $(top_srcdir)/tests/bench/run.sh
	@$(MAKE) $(AM_MAKEFLAGS) bench-python
	@$(MAKE) $(AM_MAKEFLAGS) bench-tokens
	@$(MAKE) $(AM_MAKEFLAGS) bench-map
	@$(MAKE) $(AM_MAKEFLAGS) bench-scaling
	@$(MAKE) $(AM_MAKEFLAGS) bench-annotate
bench-oplog: $(BENCH_DEPS)
	@$(BENCH_ENV) BENCH_PARTS='oplog engine' $(SHELL) $(top_srcdir)/tests/bench/run.sh
# `make bench-real`: the shared B200 trace replicated to BENCH_EVENTS events
# beside the synthetic trace (the real part of `make bench`, issue 24)
EXTRA_DIST += tests/bench/replicate_trace.py docs/performance.md
.PHONY: bench-real
bench-real: $(BENCH_DEPS) tests/bench/gen_trace$(EXEEXT)
	@$(BENCH_ENV) BENCH_PARTS='real' $(SHELL) $(top_srcdir)/tests/bench/run.sh

# the generated logs are large (about 340 MB per million ops)
bench-clean:
	rm -f tests/bench/oplog-*.jsonl tests/bench/oplog-*.jsonl.tmp tests/bench/timeit.out \
	      tests/bench/trace-*.json tests/bench/trace-*.json.tmp tests/bench/trace-*.json.info tests/bench/callgrind.*.out \
	      tests/bench/*.runs tests/bench/bench-rows.out
	rm -rf tests/bench/ranks tests/bench/scaling

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

# `make bench-ranks` (not part of `make check`): merge of 1,024 rank partials,
# `tlcost ranks` over 8 and 64 synthetic rank traces (time per rank, peak RSS).
EXTRA_DIST += tests/bench/ranks_run.sh
.PHONY: bench-ranks
bench-ranks: tlcost$(EXEEXT) tests/bench/gen_trace$(EXEEXT) tests/bench/timeit$(EXEEXT)
	@TLCOST='$(abs_top_builddir)/tlcost' GEN_TRACE='$(abs_top_builddir)/tests/bench/gen_trace' \
	TIMEIT='$(abs_top_builddir)/tests/bench/timeit' BENCH_DIR='$(abs_top_builddir)/tests/bench' \
	$(SHELL) $(top_srcdir)/tests/bench/ranks_run.sh

# long tokens cost linear time (issue 11): tests/bench/token_run.sh
.PHONY: bench-tokens
bench-tokens: tlcost$(EXEEXT) tests/bench/timeit$(EXEEXT)
	@TLCOST='$(abs_top_builddir)/tlcost' TIMEIT='$(abs_top_builddir)/tests/bench/timeit' \
	BENCH_DIR='$(abs_top_builddir)/tests/bench' $(SHELL) $(top_srcdir)/tests/bench/token_run.sh

# engine3: an op log whose names all collide under the byte hash used
# before SipHash (tests/bench/gen_collide.c; not part of `make check`).
EXTRA_PROGRAMS += tests/bench/gen_collide
tests_bench_gen_collide_SOURCES = tests/bench/gen_collide.c
CLEANFILES += tests/bench/gen_collide$(EXEEXT)

# `make bench-scaling` (also run by `make bench`): every axis of the
# size-scaling check (tests/scaling/scaling.py) at large sizes (tens of MB),
# natively: CPU time and peak RSS at N, 2N, 4N and their ratios (figures, no
# verdict; the counted verdicts are `make check`'s tests/scaling/scaling.sh).
# SCALING_ONLY=SUBSTRING runs the axes whose name holds it.
.PHONY: bench-scaling
bench-scaling: tlcost$(EXEEXT)
	@python3 $(top_srcdir)/tests/scaling/scaling.py bench \
		'$(abs_top_builddir)/tlcost' '$(abs_top_builddir)/tests/bench/scaling'
# `make bench-diff`: tlcost diff of two BENCH_EVENTS-event traces against one
# tlcost join (issue 27), the diff part of `make bench`.
.PHONY: bench-diff
bench-diff: $(BENCH_DEPS) tests/bench/gen_trace$(EXEEXT)
	@$(BENCH_ENV) BENCH_PARTS='diff' $(SHELL) $(top_srcdir)/tests/bench/run.sh

# `make bench-annotate`: tlcost annotate vs json_verify -s on the bench trace
EXTRA_DIST += tests/bench/annotate_run.sh
.PHONY: bench-annotate
bench-annotate: tlcost$(EXEEXT) tests/bench/gen_trace$(EXEEXT) tests/bench/timeit$(EXEEXT)
	@TLCOST='$(abs_top_builddir)/tlcost' GEN_TRACE='$(abs_top_builddir)/tests/bench/gen_trace' \
	TIMEIT='$(abs_top_builddir)/tests/bench/timeit' JSON_VERIFY='$(JSON_VERIFY)' \
	BENCH_DIR='$(abs_top_builddir)/tests/bench' $(SHELL) $(top_srcdir)/tests/bench/annotate_run.sh
CLEANFILES += tests/bench/timeit-annotate.out tests/bench/ann-plain.runs tests/bench/ann-jv.runs \
	tests/bench/ann-gzip.runs
