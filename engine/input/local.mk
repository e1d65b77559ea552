# engine/input: byte streams (plain/gzip), format sniffing, the op log v1
# reader and the Kineto / Chrome-trace reader.
libtl_input_la_SOURCES += \
	engine/input/instream.c engine/input/instream.h \
	engine/input/input.c \
	engine/input/oplog.c engine/input/oplog.h \
	engine/input/trace.c engine/input/trace.h \
	engine/input/trace_ops.c engine/input/trace_args.c \
	engine/input/trace_comms.c engine/input/trace_comms.h
