# engine/output: the JSON emitter over yajl_gen; text and CSV output (textw).
libtl_output_la_SOURCES += engine/output/jsonw.c engine/output/jsonw.h
libtl_output_la_SOURCES += engine/output/textw.c engine/output/textw.h
libtl_output_la_SOURCES += engine/output/outfile.c
