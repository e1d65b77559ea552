# Fixture plugins of the rule-plugin loader (engine/registry/loader.c) and its unit test.

# Fixture plugins: libtool modules built for `make check` only; -rpath (in
# PLUGIN_LDFLAGS) makes libtool produce tests/plugins/.libs/NAME.so. They
# include only tlcost/plugin.h and link nothing, like a real plugin.
LOADER_FIXTURE_CPPFLAGS = -I$(top_srcdir)/include -I$(top_builddir)/include
check_LTLIBRARIES += \
	tests/plugins/good.la \
	tests/plugins/abi_too_new.la tests/plugins/abi_too_old.la \
	tests/plugins/missing_entry.la \
	tests/plugins/failing_init.la tests/plugins/override_then_fail.la \
	tests/plugins/duplicate_op.la tests/plugins/override_op.la \
	tests/plugins/null_name.la tests/plugins/long_name.la \
	tests/plugins/bad_name_chars.la tests/plugins/empty_name.la \
	tests/plugins/null_init.la tests/plugins/small_desc.la \
	tests/plugins/describe_null.la \
	tests/plugins/null_fn.la tests/plugins/null_def.la \
	tests/plugins/small_def.la tests/plugins/bad_rule_name.la \
	tests/plugins/bad_kind.la tests/plugins/null_rule_name.la \
	tests/plugins/register_outside_init.la \
	tests/plugins/crashing_init.la

tests_plugins_good_la_SOURCES = tests/plugins/good.c
tests_plugins_good_la_CPPFLAGS = $(LOADER_FIXTURE_CPPFLAGS)
tests_plugins_good_la_LDFLAGS = $(PLUGIN_LDFLAGS)

# ABI range [VERSION-AGE, VERSION]: one above and one below it
tests_plugins_abi_too_new_la_SOURCES = tests/plugins/abi.c
tests_plugins_abi_too_new_la_CPPFLAGS = $(LOADER_FIXTURE_CPPFLAGS) \
	-DFIXTURE_ABI='(TLC_PLUGIN_ABI_VERSION + 1)'
tests_plugins_abi_too_new_la_LDFLAGS = $(PLUGIN_LDFLAGS)
tests_plugins_abi_too_old_la_SOURCES = tests/plugins/abi.c
tests_plugins_abi_too_old_la_CPPFLAGS = $(LOADER_FIXTURE_CPPFLAGS) \
	-DFIXTURE_ABI='(TLC_PLUGIN_ABI_VERSION - TLC_PLUGIN_ABI_AGE - 1)'
tests_plugins_abi_too_old_la_LDFLAGS = $(PLUGIN_LDFLAGS)

tests_plugins_missing_entry_la_SOURCES = tests/plugins/missing_entry.c
tests_plugins_missing_entry_la_CPPFLAGS = $(LOADER_FIXTURE_CPPFLAGS)
tests_plugins_missing_entry_la_LDFLAGS = $(PLUGIN_LDFLAGS)

# init dies of SIGSEGV: `tlcost plugin check` reports plugin_crashed
tests_plugins_crashing_init_la_SOURCES = tests/plugins/crashing_init.c
tests_plugins_crashing_init_la_CPPFLAGS = $(LOADER_FIXTURE_CPPFLAGS)
tests_plugins_crashing_init_la_LDFLAGS = $(PLUGIN_LDFLAGS)

tests_plugins_failing_init_la_SOURCES = tests/plugins/failing_init.c
tests_plugins_failing_init_la_CPPFLAGS = $(LOADER_FIXTURE_CPPFLAGS)
tests_plugins_failing_init_la_LDFLAGS = $(PLUGIN_LDFLAGS)
tests_plugins_override_then_fail_la_SOURCES = tests/plugins/failing_init.c
tests_plugins_override_then_fail_la_CPPFLAGS = $(LOADER_FIXTURE_CPPFLAGS) -DFIXTURE_OVERRIDE
tests_plugins_override_then_fail_la_LDFLAGS = $(PLUGIN_LDFLAGS)

tests_plugins_duplicate_op_la_SOURCES = tests/plugins/duplicate_op.c
tests_plugins_duplicate_op_la_CPPFLAGS = $(LOADER_FIXTURE_CPPFLAGS)
tests_plugins_duplicate_op_la_LDFLAGS = $(PLUGIN_LDFLAGS)
tests_plugins_override_op_la_SOURCES = tests/plugins/duplicate_op.c
tests_plugins_override_op_la_CPPFLAGS = $(LOADER_FIXTURE_CPPFLAGS) -DFIXTURE_OVERRIDE
tests_plugins_override_op_la_LDFLAGS = $(PLUGIN_LDFLAGS)

# invalid descriptors (values of FIXTURE_BAD in tests/plugins/bad_desc.c)
tests_plugins_null_name_la_SOURCES = tests/plugins/bad_desc.c
tests_plugins_null_name_la_CPPFLAGS = $(LOADER_FIXTURE_CPPFLAGS) -DFIXTURE_BAD=1
tests_plugins_null_name_la_LDFLAGS = $(PLUGIN_LDFLAGS)
tests_plugins_long_name_la_SOURCES = tests/plugins/bad_desc.c
tests_plugins_long_name_la_CPPFLAGS = $(LOADER_FIXTURE_CPPFLAGS) -DFIXTURE_BAD=2
tests_plugins_long_name_la_LDFLAGS = $(PLUGIN_LDFLAGS)
tests_plugins_bad_name_chars_la_SOURCES = tests/plugins/bad_desc.c
tests_plugins_bad_name_chars_la_CPPFLAGS = $(LOADER_FIXTURE_CPPFLAGS) -DFIXTURE_BAD=3
tests_plugins_bad_name_chars_la_LDFLAGS = $(PLUGIN_LDFLAGS)
tests_plugins_empty_name_la_SOURCES = tests/plugins/bad_desc.c
tests_plugins_empty_name_la_CPPFLAGS = $(LOADER_FIXTURE_CPPFLAGS) -DFIXTURE_BAD=4
tests_plugins_empty_name_la_LDFLAGS = $(PLUGIN_LDFLAGS)
tests_plugins_null_init_la_SOURCES = tests/plugins/bad_desc.c
tests_plugins_null_init_la_CPPFLAGS = $(LOADER_FIXTURE_CPPFLAGS) -DFIXTURE_BAD=5
tests_plugins_null_init_la_LDFLAGS = $(PLUGIN_LDFLAGS)
tests_plugins_small_desc_la_SOURCES = tests/plugins/bad_desc.c
tests_plugins_small_desc_la_CPPFLAGS = $(LOADER_FIXTURE_CPPFLAGS) -DFIXTURE_BAD=6
tests_plugins_small_desc_la_LDFLAGS = $(PLUGIN_LDFLAGS)
tests_plugins_describe_null_la_SOURCES = tests/plugins/bad_desc.c
tests_plugins_describe_null_la_CPPFLAGS = $(LOADER_FIXTURE_CPPFLAGS) -DFIXTURE_BAD=7
tests_plugins_describe_null_la_LDFLAGS = $(PLUGIN_LDFLAGS)

# hostile registrations (values of FIXTURE_BAD in tests/plugins/bad_rule.c)
tests_plugins_null_fn_la_SOURCES = tests/plugins/bad_rule.c
tests_plugins_null_fn_la_CPPFLAGS = $(LOADER_FIXTURE_CPPFLAGS) -DFIXTURE_BAD=1
tests_plugins_null_fn_la_LDFLAGS = $(PLUGIN_LDFLAGS)
tests_plugins_null_def_la_SOURCES = tests/plugins/bad_rule.c
tests_plugins_null_def_la_CPPFLAGS = $(LOADER_FIXTURE_CPPFLAGS) -DFIXTURE_BAD=2
tests_plugins_null_def_la_LDFLAGS = $(PLUGIN_LDFLAGS)
tests_plugins_small_def_la_SOURCES = tests/plugins/bad_rule.c
tests_plugins_small_def_la_CPPFLAGS = $(LOADER_FIXTURE_CPPFLAGS) -DFIXTURE_BAD=3
tests_plugins_small_def_la_LDFLAGS = $(PLUGIN_LDFLAGS)
tests_plugins_bad_rule_name_la_SOURCES = tests/plugins/bad_rule.c
tests_plugins_bad_rule_name_la_CPPFLAGS = $(LOADER_FIXTURE_CPPFLAGS) -DFIXTURE_BAD=4
tests_plugins_bad_rule_name_la_LDFLAGS = $(PLUGIN_LDFLAGS)
tests_plugins_bad_kind_la_SOURCES = tests/plugins/bad_rule.c
tests_plugins_bad_kind_la_CPPFLAGS = $(LOADER_FIXTURE_CPPFLAGS) -DFIXTURE_BAD=5
tests_plugins_bad_kind_la_LDFLAGS = $(PLUGIN_LDFLAGS)
tests_plugins_null_rule_name_la_SOURCES = tests/plugins/bad_rule.c
tests_plugins_null_rule_name_la_CPPFLAGS = $(LOADER_FIXTURE_CPPFLAGS) -DFIXTURE_BAD=6
tests_plugins_null_rule_name_la_LDFLAGS = $(PLUGIN_LDFLAGS)

tests_plugins_register_outside_init_la_SOURCES = tests/plugins/register_outside_init.c
tests_plugins_register_outside_init_la_CPPFLAGS = $(LOADER_FIXTURE_CPPFLAGS)
tests_plugins_register_outside_init_la_LDFLAGS = $(PLUGIN_LDFLAGS)

# Unit test: finds the fixtures and the example plugin by absolute path.
# (tests/unit/registry/test_loader is in TLC_UNIT_TESTS, tests/local.mk;
# its FIXTURE_DIR is tests/plugins/.libs)

# CLI golden test for --plugin, TLCOST_PLUGIN_PATH and `tlcost plugin check`.
TESTS += tests/cli/plugin_cli.sh
EXTRA_DIST += tests/cli/plugin_cli.sh tests/fixtures/oplog/custom_gelu.oplog.jsonl
