# Example rule plugins (plugins/examples/): built by `make` as libtool
# modules (plugins/examples/.libs/NAME.so), never installed. They include
# only tlcost/plugin.h and link nothing. docs/plugin-guide.md walks through
# fused_gelu.c.
noinst_LTLIBRARIES += plugins/examples/fused_gelu.la
plugins_examples_fused_gelu_la_SOURCES = plugins/examples/fused_gelu.c
plugins_examples_fused_gelu_la_CPPFLAGS = $(TLC_I_PUBLIC)
plugins_examples_fused_gelu_la_LDFLAGS = $(PLUGIN_LDFLAGS)
EXTRA_DIST += docs/plugin-guide.md
