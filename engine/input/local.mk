# engine/input: byte streams (plain/gzip), format sniffing through the table
# of readers (reader.h, input.c), and one folder per input format:
#   oplog/   the op log v1 reader
#   kineto/  the Kineto / Chrome-trace reader
#   json/    the JSON boundary both readers parse through: text helpers and
#            the SIMD fast parser (json_fast.h)
libtl_input_la_SOURCES += \
	engine/input/instream.c engine/input/instream.h \
	engine/input/input.c engine/input/reader.h \
	engine/input/json/jsontext.c engine/input/json/jsontext.h \
	engine/input/oplog/oplog.c engine/input/oplog/oplog.h \
	engine/input/oplog/oplog_reader.c \
	engine/input/kineto/trace.c engine/input/kineto/trace.h \
	engine/input/kineto/trace_ops.c engine/input/kineto/trace_args.c \
	engine/input/kineto/trace_comms.c engine/input/kineto/trace_comms.h \
	engine/input/kineto/trace_device.c engine/input/kineto/kineto_reader.c
libtl_input_la_SOURCES += engine/input/capture_pair.c

# The SIMD JSON fast path (engine/input/json/json_fast.h, the parser's
# boundary): one C++ translation unit with a C interface, built where
# configure found simdjson. The layer library links with libtool's C tag, so
# that -lstdc++ stays among its dependency libraries (the C++ tag would drop
# it as one of the compiler's own): everything linking libtlcore.la keeps
# linking as C.
EXTRA_DIST += engine/input/json/json_fast.h
libtl_input_la_CFLAGS += $(SIMDJSON_CFLAGS)
libtl_input_la_LINK = $(LIBTOOL) $(AM_V_lt) --tag=CC $(AM_LIBTOOLFLAGS) $(LIBTOOLFLAGS) \
	--mode=link $(CCLD) $(libtl_input_la_CFLAGS) $(CFLAGS) $(libtl_input_la_LDFLAGS) \
	$(LDFLAGS) -o $@
if HAVE_SIMDJSON
libtl_input_la_SOURCES += engine/input/json/json_fast.cpp
libtl_input_la_CXXFLAGS = -std=c++17 $(WARN_CXXFLAGS) $(SIMDJSON_CFLAGS)
libtl_input_la_LIBADD = $(SIMDJSON_LIBS) -lstdc++
else
EXTRA_DIST += engine/input/json/json_fast.cpp
endif
