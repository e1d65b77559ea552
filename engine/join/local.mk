# engine/join: the device-time join, its gate, its writers and saved joins.
libtl_join_la_SOURCES += \
	engine/join/join.c engine/join/join.h \
	engine/join/write_join.c engine/join/save_join.c \
	engine/join/join_comm.c engine/join/join_comm.h
libtl_join_la_SOURCES += engine/join/write_capture.c engine/join/write_capture.h
