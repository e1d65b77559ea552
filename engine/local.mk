# libtlcost (engine/): one folder per layer, each built as its own
# convenience library with only the include paths of itself and the layers
# below it, so a header included upward fails to compile (tests/build/layers.sh
# checks the same rule and the absence of include cycles from the sources):
#
#   base      allocation, errors, exact counts, hash map, names and dtypes
#   output    the JSON emitter                                 (-> base)
#   store     the one compact op record encoding, held records (-> base)
#   registry  engine, rule registry, host table, loader, rule files
#                                                    (-> base, rules/ table)
#   eval      evaluation, coverage, the unknown ledger
#                                             (-> store, registry, base)
#   input     byte streams, the table of readers; one folder per format
#             (oplog/, kineto/) and the JSON boundary (json/)
#                                                     (-> eval, store)
#   join      device records, the correlation join, saved joins
#                                                         (-> eval, output)
#   report    each report's model next to its writer   (-> join, eval, output)
#
# libtlcore.la is all of them (tests link it to reach semi-private helpers);
# libtlcost.la is that code with exports limited to the public tlc_ API
# (names with a double underscore stay hidden).
TLC_I_PUBLIC   = -I$(top_srcdir)/include -I$(top_builddir)/include -I$(top_builddir)
TLC_I_BASE     = $(TLC_I_PUBLIC) -I$(top_srcdir)/engine/base
TLC_I_OUTPUT   = $(TLC_I_BASE) -I$(top_srcdir)/engine/output
TLC_I_STORE    = $(TLC_I_BASE) -I$(top_srcdir)/engine/store
TLC_I_REGISTRY = $(TLC_I_BASE) -I$(top_srcdir)/engine/registry -I$(top_srcdir)/rules
TLC_I_EVAL     = $(TLC_I_REGISTRY) -I$(top_srcdir)/engine/store -I$(top_srcdir)/engine/eval
TLC_I_INPUT_DIRS = -I$(top_srcdir)/engine/input -I$(top_srcdir)/engine/input/json \
	-I$(top_srcdir)/engine/input/oplog -I$(top_srcdir)/engine/input/kineto
TLC_I_INPUT    = $(TLC_I_EVAL) $(TLC_I_INPUT_DIRS)
TLC_I_JOIN     = $(TLC_I_EVAL) -I$(top_srcdir)/engine/output -I$(top_srcdir)/engine/join
TLC_I_REPORT   = $(TLC_I_JOIN) -I$(top_srcdir)/engine/report
# tests reach every layer
TLC_I_ALL      = $(TLC_I_REPORT) $(TLC_I_INPUT_DIRS)
TLC_LAYER_CFLAGS = $(AM_CFLAGS) $(YAJL_CFLAGS) $(ZLIB_CFLAGS)

noinst_LTLIBRARIES += libtl_base.la libtl_output.la libtl_store.la libtl_registry.la \
	libtl_eval.la libtl_input.la libtl_join.la libtl_report.la
libtl_base_la_SOURCES =
libtl_base_la_CPPFLAGS = $(TLC_I_BASE)
libtl_base_la_CFLAGS = $(TLC_LAYER_CFLAGS)
libtl_output_la_SOURCES =
libtl_output_la_CPPFLAGS = $(TLC_I_OUTPUT)
libtl_output_la_CFLAGS = $(TLC_LAYER_CFLAGS)
libtl_store_la_SOURCES =
libtl_store_la_CPPFLAGS = $(TLC_I_STORE)
libtl_store_la_CFLAGS = $(TLC_LAYER_CFLAGS)
libtl_registry_la_SOURCES =
libtl_registry_la_CPPFLAGS = $(TLC_I_REGISTRY)
libtl_registry_la_CFLAGS = $(TLC_LAYER_CFLAGS)
libtl_eval_la_SOURCES =
libtl_eval_la_CPPFLAGS = $(TLC_I_EVAL)
libtl_eval_la_CFLAGS = $(TLC_LAYER_CFLAGS)
libtl_input_la_SOURCES =
libtl_input_la_CPPFLAGS = $(TLC_I_INPUT)
libtl_input_la_CFLAGS = $(TLC_LAYER_CFLAGS)
libtl_join_la_SOURCES =
libtl_join_la_CPPFLAGS = $(TLC_I_JOIN)
libtl_join_la_CFLAGS = $(TLC_LAYER_CFLAGS)
libtl_report_la_SOURCES =
libtl_report_la_CPPFLAGS = $(TLC_I_REPORT)
libtl_report_la_CFLAGS = $(TLC_LAYER_CFLAGS)

include engine/base/local.mk
include engine/output/local.mk
include engine/store/local.mk
include engine/registry/local.mk
include engine/eval/local.mk
include engine/input/local.mk
include engine/join/local.mk
include engine/report/local.mk

# every library source, in link order (the fuzz build compiles them itself)
TLC_CORE_SRCS = $(libtl_report_la_SOURCES) $(libtl_join_la_SOURCES) \
	$(libtl_input_la_SOURCES) $(libtl_eval_la_SOURCES) \
	$(libtl_registry_la_SOURCES) $(libtl_rules_la_SOURCES) \
	$(libtl_store_la_SOURCES) $(libtl_output_la_SOURCES) $(libtl_base_la_SOURCES)

noinst_LTLIBRARIES += libtlcore.la
libtlcore_la_SOURCES =
nodist_EXTRA_libtlcore_la_SOURCES = dummy.c
libtlcore_la_LIBADD = libtl_report.la libtl_join.la libtl_input.la \
	libtl_eval.la libtl_registry.la libtl_rules.la libtl_store.la libtl_output.la libtl_base.la \
	$(GMP_LIBS) $(YAJL_LIBS) $(ZLIB_LIBS) $(LIBM)

lib_LTLIBRARIES += libtlcost.la
libtlcost_la_SOURCES =
nodist_EXTRA_libtlcost_la_SOURCES = dummy.c
libtlcost_la_LIBADD = libtlcore.la
libtlcost_la_LDFLAGS = -version-info $(TLC_LT_VERSION) \
	-export-symbols-regex '^tlc_[a-z0-9]+(_[a-z0-9]+)*$$'
