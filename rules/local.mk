# Built-in rule families (rules/), compiled into libtlcost. They see
# include/ only (tlcost/plugin.h), exactly as an outside plugin does.
noinst_LTLIBRARIES += libtl_rules.la
libtl_rules_la_CPPFLAGS = $(TLC_I_PUBLIC)
libtl_rules_la_CFLAGS = $(AM_CFLAGS)
libtl_rules_la_SOURCES = rules/rules.h rules/builtin.c rules/util.h rules/util.c \
	rules/matmul.c rules/conv.c rules/attention.c rules/layout.c \
	rules/pointwise.c rules/norm.c rules/reduce.c rules/pool.c rules/upsample.c \
	rules/embedding.c rules/index.c rules/loss.c rules/optimizer.c rules/structural.c
libtl_rules_la_SOURCES += rules/collective.c
libtl_rules_la_SOURCES += rules/inductor.c rules/quant.c

# Rule-table test (tests/unit/rules/test_rules.c): every table listed in RULE_TABLES is
# read; a tests/rules/*.tsv that is not listed fails the test. Rules authors
# add their table with `RULE_TABLES += tests/rules/NAME.tsv`.
RULE_TABLES = tests/rules/matmul.tsv tests/rules/conv.tsv tests/rules/attention.tsv \
	tests/rules/layout.tsv
RULE_TABLES += tests/rules/pointwise.tsv tests/rules/norm.tsv tests/rules/reduce.tsv
RULE_TABLES += tests/rules/pool.tsv tests/rules/upsample.tsv tests/rules/embedding.tsv
RULE_TABLES += tests/rules/index.tsv tests/rules/loss.tsv tests/rules/optimizer.tsv
RULE_TABLES += tests/rules/structural.tsv
RULE_TABLES += tests/rules/collective.tsv
RULE_TABLES += tests/rules/packs.tsv
RULE_TABLES += tests/rules/inductor.tsv tests/rules/quant.tsv
EXTRA_DIST += docs/rule-constants.md $(RULE_TABLES)
# (the program tests/unit/rules/test_rules is in TLC_UNIT_TESTS, tests/local.mk)
EXTRA_DIST += docs/rules.md

# the families reach the rule helpers through the host table only
TESTS += tests/build/rules_host.sh
EXTRA_DIST += tests/build/rules_host.sh
