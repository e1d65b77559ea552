# engine/base: allocation, errors, exact counts, the hash index and id map, names.
libtl_base_la_SOURCES += \
	engine/base/error.c engine/base/error.h \
	engine/base/alloc.c engine/base/alloc.h \
	engine/base/count.c engine/base/count.h \
	engine/base/hindex.c engine/base/hindex.h \
	engine/base/idmap.c engine/base/idmap.h \
	engine/base/names.c engine/base/names.h
libtl_base_la_SOURCES += engine/base/version.c
libtl_base_la_SOURCES += engine/base/gmpalloc.c engine/base/gmpalloc.h
