# The Python capture library (python/): the `tlcost` package and its C
# binding `_tlcost`, a libtool module linked with libtlcost. Built where
# configure found python3-dev (HAVE_PYTHON_DEV); installed into the prefix's
# site directory: the package into $(pythondir)/tlcost, the binding into
# $(pyexecdir). docs/python.md is the user's page.
TLCOST_PY_SOURCES = python/tlcost/__init__.py python/tlcost/__main__.py \
	python/tlcost/errors.py python/tlcost/engine.py python/tlcost/report.py \
	python/tlcost/live.py python/tlcost/models.py python/tlcost/cli.py \
	python/tlcost/distributed.py python/tlcost/mapcli.py \
	python/tlcost/outfile.py
TLCOST_PY_SOURCES += python/tlcost/diff.py
EXTRA_DIST += $(TLCOST_PY_SOURCES) python/ext/ext.h docs/python.md
if HAVE_PYTHON_DEV
tlcostpydir = $(pythondir)/tlcost
tlcostpy_PYTHON = $(TLCOST_PY_SOURCES)
pyexec_LTLIBRARIES = _tlcost.la
_tlcost_la_SOURCES = python/ext/ext.h python/ext/module.c python/ext/eval.c \
	python/ext/convert.c python/ext/pyrule.c python/ext/nvtx.c python/ext/outfile.c
_tlcost_la_SOURCES += python/ext/diff.c
# Python.h defines the feature macros itself (first include): no -D_* here;
# -isystem keeps its own warnings out of -Werror
# TLPY_BUILD_PYTHON: the interpreter configure built for (named in the
# errors of a capture or map run under another one without torch or distributed)
_tlcost_la_CPPFLAGS = $(TLC_I_PUBLIC) $(PYTHON_CPPFLAGS) -DTLPY_BUILD_PYTHON='"$(PYTHON)"'
_tlcost_la_CFLAGS = -std=c11 $(WARN_CFLAGS)
_tlcost_la_LDFLAGS = -module -avoid-version -shared -export-symbols-regex '^PyInit__tlcost$$'
_tlcost_la_LIBADD = libtlcost-nvtx.la libtlcost.la
else
EXTRA_DIST += python/ext/module.c python/ext/eval.c python/ext/convert.c python/ext/pyrule.c \
	python/ext/nvtx.c python/ext/outfile.c python/ext/diff.c
endif

# Tests (tests/python/*.py) run through tests/python/run.sh with the build
# tree's binding on the path; it prints why and skips (77) where the package
# was not built, under valgrind and in sanitizer builds.
TLCOST_PY_TESTS = tests/python/test_read.py tests/python/test_capture.py \
	tests/python/test_rules.py tests/python/test_cli.py tests/python/test_install.py \
	tests/python/test_docs.py tests/python/test_nvtx.py tests/python/test_distributed.py \
	tests/python/test_outputs.py tests/python/test_capture_state.py \
	tests/python/test_packs.py
TLCOST_PY_TESTS += tests/python/test_diff.py
TEST_EXTENSIONS = .test .py
PY_LOG_COMPILER = env PYTHON='$(PYTHON)' $(SHELL) $(top_srcdir)/tests/python/run.sh
TESTS += $(TLCOST_PY_TESTS)
EXTRA_DIST += tests/python/run.sh tests/python/tlctest.py $(TLCOST_PY_TESTS)

# `make bench` runs bench-python after the op log and trace benchmarks
# (tests/bench/python_capture.py: capture overhead per op, live against the
# JSON Lines writer, and engine ops/s through the binding).
EXTRA_DIST += tests/bench/python_capture.py
.PHONY: bench-python
if HAVE_PYTHON_DEV
bench-python: $(pyexec_LTLIBRARIES)
	@PYTHONPATH='$(abs_top_builddir)/.libs:$(abs_top_srcdir)/python' \
	LD_LIBRARY_PATH='$(abs_top_builddir)/.libs' \
	$(PYTHON) $(top_srcdir)/tests/bench/python_capture.py
else
bench-python:
	@echo "bench-python: skipped (the Python package was not built: install python3-dev)"
endif

# The per-file map on Dask (issue 15, docs/distributed.md): its recipes, and
# `make bench-map` (local:1 against local:2, scheduling overhead per file).
EXTRA_DIST += docs/distributed.md examples/distributed/local_cluster.py \
	examples/distributed/two_node.sh examples/distributed/slurm_dask.sbatch \
	examples/distributed/slurm_array.sbatch tests/bench/dask_map.py
.PHONY: bench-map
if HAVE_PYTHON_DEV
bench-map: $(pyexec_LTLIBRARIES) tests/bench/gen_trace$(EXEEXT)
	@PYTHONPATH='$(abs_top_builddir)/.libs:$(abs_top_srcdir)/python' \
	LD_LIBRARY_PATH='$(abs_top_builddir)/.libs' GEN_TRACE='$(abs_top_builddir)/tests/bench/gen_trace' \
	BENCH_DIR='$(abs_top_builddir)/tests/bench' $(PYTHON) $(top_srcdir)/tests/bench/dask_map.py
else
bench-map:
	@echo "bench-map: skipped (the Python package was not built: install python3-dev)"
endif

# Issue 28 item 4 (docs/python.md): `with tlcost.counting()`,
# Report.to_pandas()/_repr_html_, tlcost.from_profiler().
TLCOST_PY_SOURCES += python/tlcost/counter.py
TLCOST_PY_TESTS += tests/python/test_counting.py
TLCOST_PY_SOURCES += python/tlcost/frames.py
TLCOST_PY_TESTS += tests/python/test_frames.py
TLCOST_PY_SOURCES += python/tlcost/profiler.py
TLCOST_PY_TESTS += tests/python/test_profiler.py
