# engine/output: the JSON emitter over yajl_gen.
libtl_output_la_SOURCES += engine/output/jsonw.c engine/output/jsonw.h
