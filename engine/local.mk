# libtlcost (engine/). All library code is built once into the convenience
# library libtlcore.la (tests link it to reach semi-private helpers);
# libtlcost.la is that code with exports limited to the public tlc_ API
# (names with a double underscore stay hidden). Feature areas add their
# sources to libtlcore_la_SOURCES from am/*.am.
noinst_LTLIBRARIES += libtlcore.la
libtlcore_la_SOURCES = \
	engine/error.c engine/error.h \
	engine/alloc.c engine/alloc.h \
	engine/count.c engine/count.h \
	engine/cost.c engine/cost.h \
	engine/registry.c engine/registry.h \
	engine/engine.c engine/engine.h \
	engine/idmap.c engine/idmap.h \
	engine/opcopy.c engine/opcopy.h \
	engine/eval.c engine/eval.h \
	engine/names.c engine/jsonw.c engine/jsonw.h \
	engine/rulefile.c \
	engine/write_flops.c
libtlcore_la_CFLAGS = $(AM_CFLAGS) $(YAJL_CFLAGS) $(ZLIB_CFLAGS)
libtlcore_la_LIBADD = $(GMP_LIBS) $(YAJL_LIBS) $(ZLIB_LIBS) $(LIBM)

lib_LTLIBRARIES += libtlcost.la
libtlcost_la_SOURCES =
nodist_EXTRA_libtlcost_la_SOURCES = dummy.c
libtlcost_la_LIBADD = libtlcore.la
libtlcost_la_LDFLAGS = -version-info $(TLC_LT_VERSION) \
	-export-symbols-regex '^tlc_[a-z0-9]+(_[a-z0-9]+)*$$'
