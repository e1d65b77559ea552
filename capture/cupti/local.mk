# capture/cupti: libtlcost-cupti, the CUPTI collector a capture library links
# (it uses libtlcost through its public API only).
# Built only when configure found cupti.h (HAVE_CUPTI). libcupti is dlopened
# at run time; CUPTI_CFLAGS is only for the activity record structs.
EXTRA_DIST += tests/cupti/skip.sh tests/cupti/header.sh tests/cupti/example.sh \
	tests/cupti/join_cli.sh tests/cupti/graph_join.sh \
	tests/gpu/e2e.cu \
	tests/gpu/check-gpu.sh tests/gpu/graph_per_op.awk tests/gpu/run-device-check.sh docs/cupti.md

if HAVE_CUPTI
lib_LTLIBRARIES += libtlcost-cupti.la
pkginclude_HEADERS += include/tlcost/cupti.h
# Its objects, as a convenience library: libtlcost-cupti exports only the
# public tlc_cupti_* API, and tests/unit/capture/test_cupti links these
# objects directly to reach internals (tlc_cupti__note_graph_node).
noinst_LTLIBRARIES += libtlcost-cupti-core.la
libtlcost_cupti_core_la_SOURCES = \
	capture/cupti/internal.h \
	capture/cupti/error.c \
	capture/cupti/intern.c \
	capture/cupti/lib.c \
	capture/cupti/parse.c \
	capture/cupti/build.c \
	capture/cupti/session.c \
	capture/cupti/graph.c \
	capture/cupti/output.c
libtlcost_cupti_core_la_CPPFLAGS = $(TLC_I_PUBLIC) $(CUPTI_CFLAGS) \
	-DTLC_CUPTI_LIBDIR='"$(CUPTI_LIBDIR)"'
libtlcost_cupti_la_SOURCES =
libtlcost_cupti_la_LIBADD = libtlcost-cupti-core.la libtlcost-nvtx.la libtlcost.la -lpthread
libtlcost_cupti_la_LDFLAGS = -version-info $(TLC_CUPTI_LT_VERSION) -export-symbols-regex '^tlc_cupti_[a-z0-9]+(_[a-z0-9]+)*$$'

# The documented example (docs/cupti.md), compiled so it cannot rot.
noinst_PROGRAMS += capture/cupti/example
capture_cupti_example_SOURCES = capture/cupti/example.c
capture_cupti_example_LDADD = libtlcost-cupti.la libtlcost-nvtx.la libtlcost.la

# (the unit test tests/unit/capture/test_cupti is in TLC_UNIT_TESTS, tests/local.mk)
TESTS += tests/cupti/header.sh tests/cupti/example.sh tests/cupti/join_cli.sh \
	tests/cupti/graph_join.sh
else
TESTS += tests/cupti/skip.sh
endif

# Every CUDA source (git ls-files '*.cu') is compiled by make check with
# nvcc where configure found it (BUILD_CUDA), warnings as errors under
# --enable-werror, so it cannot rot on machines without a GPU: X.cu becomes
# the object X_cu.o, which tests/gpu/cuda_build.sh looks for, one per .cu
# file in the tree. A new .cu file needs its object rule here.
EXTRA_DIST += tests/gpu/cuda_build.sh
TESTS += tests/gpu/cuda_build.sh
if BUILD_CUDA
NVCC_BUILD = $(NVCC) -std=c++17 -O2 $(NVCC_WARNFLAGS) -I$(srcdir)/include -Iinclude -I$(srcdir)/tests
check_PROGRAMS += tests/gpu/e2e
tests_gpu_e2e_SOURCES =
tests_gpu_e2e_LDFLAGS = -no-install -L$(CUDA_LIBDIR)
tests_gpu_e2e_LDADD = tests/gpu/e2e_cu.$(OBJEXT) libtlcost-cupti.la libtlcost-nvtx.la libtlcost.la \
	-lcudart_static -lstdc++ -lm -ldl -lrt -lpthread
tests/gpu/e2e_cu.$(OBJEXT): tests/gpu/e2e.cu $(srcdir)/include/tlcost/*.h include/tlcost/version.h
	$(AM_V_GEN)$(MKDIR_P) tests/gpu && $(NVCC_BUILD) -c -o $@ $(srcdir)/tests/gpu/e2e.cu
CLEANFILES += tests/gpu/e2e_cu.$(OBJEXT)
endif

# make check-gpu: runs the GPU end-to-end test (tests/gpu/e2e, built by
# make check above), under the recording NVTX injection library (a check
# library). Not part of make check; says SKIP where no GPU exists.
check-gpu: all $(check_LTLIBRARIES) $(check_PROGRAMS)
	@top_builddir='$(top_builddir)' top_srcdir='$(top_srcdir)' NVCC='$(NVCC)' \
	CUPTI_CFLAGS='$(CUPTI_CFLAGS)' CUPTI_LIBDIR='$(CUPTI_LIBDIR)' \
	$(SHELL) $(srcdir)/tests/gpu/check-gpu.sh
.PHONY: check-gpu
CLEANFILES += tests/gpu/e2e.build.log tests/gpu/e2e.out tests/gpu/e2e.ops.jsonl \
	tests/gpu/e2e.flops.out tests/gpu/e2e.oplog.jsonl tests/gpu/e2e.live.csv tests/gpu/e2e.join.csv \
	tests/gpu/e2e.join.err tests/gpu/nsys.out tests/gpu/nsys.csv \
	tests/gpu/e2e.graph-capture.oplog.jsonl tests/gpu/e2e.graph-replay.oplog.jsonl \
	tests/gpu/e2e.graph.out tests/gpu/e2e.graph.csv tests/gpu/e2e.graph.err
