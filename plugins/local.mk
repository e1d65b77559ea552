# Example rule plugins (plugins/examples/): built by `make` as libtool
# modules (plugins/examples/.libs/NAME.so), never installed. They include
# only tlcost/plugin.h and link nothing. docs/plugin-guide.md walks through
# fused_gelu.c.
noinst_LTLIBRARIES += plugins/examples/fused_gelu.la
plugins_examples_fused_gelu_la_SOURCES = plugins/examples/fused_gelu.c
plugins_examples_fused_gelu_la_CPPFLAGS = $(TLC_I_PUBLIC)
plugins_examples_fused_gelu_la_LDFLAGS = $(PLUGIN_LDFLAGS)
EXTRA_DIST += docs/plugin-guide.md
# the same kind of plugin written with <tlcost/sys/rulehelp.h> (issue 24):
# the helpers the built-in families use, built only on the host table
noinst_LTLIBRARIES += plugins/examples/matmul_help.la
plugins_examples_matmul_help_la_SOURCES = plugins/examples/matmul_help.c
plugins_examples_matmul_help_la_CPPFLAGS = $(TLC_I_PUBLIC)
plugins_examples_matmul_help_la_LDFLAGS = $(PLUGIN_LDFLAGS)
