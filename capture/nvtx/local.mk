# capture/nvtx: libtlcost-nvtx, NVTX call-identity ranges for Nsight
# (issue 16, docs/nvtx.md). Always built: with the NVTX3 headers
# (HAVE_NVTX, NVTX_CPPFLAGS) it emits through them; without them every
# start refuses with emit_nvtx_unavailable. It links no CUDA library.
lib_LTLIBRARIES += libtlcost-nvtx.la
pkginclude_HEADERS += include/tlcost/nvtx.h
libtlcost_nvtx_la_SOURCES = capture/nvtx/nvtx.c
libtlcost_nvtx_la_CPPFLAGS = $(TLC_I_PUBLIC) $(NVTX_CPPFLAGS)
libtlcost_nvtx_la_LIBADD = -lpthread
libtlcost_nvtx_la_LDFLAGS = -version-info 0:0:0 -export-symbols-regex '^tlc_nvtx_[a-z0-9]+(_[a-z0-9]+)*$$'
EXTRA_DIST += docs/nvtx.md tests/nvtx/ranges.sh tests/nvtx/header.sh tests/nvtx/example.sh

# The documented example (docs/nvtx.md), compiled so it cannot rot.
noinst_PROGRAMS += capture/nvtx/example
capture_nvtx_example_SOURCES = capture/nvtx/example.c
capture_nvtx_example_LDADD = libtlcost-nvtx.la

# tests/unit/capture/test_nvtx (built from TLC_UNIT_DRIVEN, tests/local.mk)
# runs once per NVTX setting (tests/nvtx/ranges.sh): under the recording
# injection library tests/nvtx/inject.la, and with no tool, a missing one,
# one whose init fails and one that takes no ranges.
TESTS += tests/nvtx/ranges.sh tests/nvtx/header.sh tests/nvtx/example.sh
if HAVE_CUPTI
# a stand-in libcupti, so that a RUNNING session can be driven without a GPU
check_LTLIBRARIES += tests/nvtx/fake_cupti.la
tests_nvtx_fake_cupti_la_SOURCES = tests/nvtx/fake_cupti.c
tests_nvtx_fake_cupti_la_CPPFLAGS = $(CUPTI_CFLAGS)
tests_nvtx_fake_cupti_la_LDFLAGS = $(PLUGIN_LDFLAGS)
endif
if HAVE_NVTX
check_LTLIBRARIES += tests/nvtx/inject.la
tests_nvtx_inject_la_SOURCES = tests/nvtx/inject.c tests/nvtx/inject.h
tests_nvtx_inject_la_CPPFLAGS = $(NVTX_CPPFLAGS)
tests_nvtx_inject_la_LIBADD = -lpthread
tests_nvtx_inject_la_LDFLAGS = $(PLUGIN_LDFLAGS)
endif
