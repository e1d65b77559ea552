# engine/store: the one compact op record encoding (one encoder, one
# decoder) and the records kept in it: held op records.
libtl_store_la_SOURCES += engine/store/record.c engine/store/record.h \
	engine/store/held.c engine/store/held.h
