# Built-in rule families (rules/), compiled into libtlcost.
libtlcore_la_SOURCES += rules/rules.h rules/builtin.c rules/util.h rules/util.c \
	rules/matmul.c rules/conv.c rules/attention.c rules/layout.c \
	rules/pointwise.c rules/norm.c rules/reduce.c rules/pool.c rules/upsample.c \
	rules/embedding.c rules/index.c rules/loss.c rules/optimizer.c rules/structural.c
