# engine/input: byte streams (plain/gzip), format sniffing, the op log v1
# reader and the Kineto / Chrome-trace reader.
libtl_input_la_SOURCES += \
	engine/input/instream.c engine/input/instream.h \
	engine/input/jsontext.c engine/input/jsontext.h \
	engine/input/input.c \
	engine/input/oplog.c engine/input/oplog.h \
	engine/input/trace.c engine/input/trace.h \
	engine/input/trace_ops.c engine/input/trace_args.c \
	engine/input/trace_comms.c engine/input/trace_comms.h
libtl_input_la_SOURCES += engine/input/trace_device.c
libtl_input_la_SOURCES += engine/input/capture_pair.c

# The SIMD JSON fast path (engine/input/json_fast.h, the parser's boundary):
# one C++ translation unit with a C interface, built where configure found
# simdjson. The layer library links with libtool's C tag, so that -lstdc++
# stays among its dependency libraries (the C++ tag would drop it as one of
# the compiler's own): everything linking libtlcore.la keeps linking as C.
EXTRA_DIST += engine/input/json_fast.h
libtl_input_la_CFLAGS += $(SIMDJSON_CFLAGS)
libtl_input_la_LINK = $(LIBTOOL) $(AM_V_lt) --tag=CC $(AM_LIBTOOLFLAGS) $(LIBTOOLFLAGS) \
	--mode=link $(CCLD) $(libtl_input_la_CFLAGS) $(CFLAGS) $(libtl_input_la_LDFLAGS) \
	$(LDFLAGS) -o $@
if HAVE_SIMDJSON
libtl_input_la_SOURCES += engine/input/json_fast.cpp
libtl_input_la_CXXFLAGS = -std=c++17 $(WARN_CXXFLAGS) $(SIMDJSON_CFLAGS)
libtl_input_la_LIBADD = $(SIMDJSON_LIBS) -lstdc++
else
EXTRA_DIST += engine/input/json_fast.cpp
endif
