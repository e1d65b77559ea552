/* Rule-plugin loader (engine/registry/loader.c) against fixture plugins in
 * tests/plugins/ (built for `make check` into FIXTURE_DIR) and the example
 * plugin plugins/examples/fused_gelu.c (EXAMPLE_DIR).
 *
 * Every refusal is checked for its code, that the rule count and notices
 * are unchanged, that nothing the plugin registered remains, and that the
 * library was closed again (dlopen with RTLD_NOLOAD finds nothing). */
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "engine.h"

#define FIXTURE(n) FIXTURE_DIR "/" n ".so"
#define EXAMPLE(n) EXAMPLE_DIR "/" n ".so"

/* ---- helpers ---- */

/* A COST rule for aten::mm registered through the API before a plugin
 * tries to register the same name. */
static int api_mm_cost(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)op;
	(void)payload;
	return host->cost_add(out, TLC_FIELD_MACS, 1, 0, NULL);
}

static const tlc_rule_def api_mm = { sizeof(tlc_rule_def), "aten::mm", TLC_RULE_COST,
                                     TLC_EVIDENCE_FORMULA_EXACT, api_mm_cost, NULL,
                                     "api rule for aten::mm", 0 };

/* An engine without built-ins holding one API rule (aten::mm). */
static tlc_engine *engine_with_mm(void)
{
	tlc_engine_options o = { sizeof o, TLC_ENGINE_NO_BUILTINS, NULL };
	tlc_engine *eng = NULL;
	assert_int_equal(tlc_engine_new(&eng, &o), 0);
	assert_int_equal(tlc_engine_register_rule(eng, &api_mm), 0);
	assert_int_equal(tlc_engine_rule_count(eng), 1);
	return eng;
}

static const tlc_rule_info *find_rule(const tlc_engine *eng, const char *name)
{
	for (size_t i = 0; i < tlc_engine_rule_count(eng); i++) {
		const tlc_rule_info *r = tlc_engine_rule_at(eng, i);
		if (r && strcmp(r->name, name) == 0)
			return r;
	}
	return NULL;
}

static int library_is_open(const char *path)
{
	void *h = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
	if (h)
		dlclose(h);
	return h != NULL;
}

static void assert_error(int rc, int klass, const char *code)
{
	const tlc_error *e = tlc_error_last();
	if (rc != klass || strcmp(e->code, code) != 0)
		fail_msg("expected %d/%s, got %d/%s: %s", klass, code, rc, e->code, e->message);
	assert_true(e->remedy && e->remedy[0]);
}

static void assert_contains(const char *hay, const char *needle)
{
	if (!hay || !strstr(hay, needle))
		fail_msg("'%s' does not contain '%s'", hay ? hay : "(null)", needle);
}

/* A refused load leaves the engine exactly as it was. */
static void assert_refused(const char *path, int klass, const char *code)
{
	tlc_engine *eng = engine_with_mm();
	assert_error(tlc_engine_load_plugin(eng, path), klass, code);
	assert_int_equal(tlc_engine_rule_count(eng), 1);
	assert_string_equal(find_rule(eng, "aten::mm")->provider, "api");
	assert_int_equal(tlc_engine_notice_count(eng), 0);
	assert_null(eng->plugins);
	assert_false(library_is_open(path));
	tlc_engine_free(eng);
}

/* ---- a good plugin ---- */

static void test_good_registers_every_rule(void **state)
{
	(void)state;
	tlc_engine *eng = engine_with_mm();
	assert_int_equal(tlc_engine_load_plugin(eng, FIXTURE("good")), 0);
	/* good.c registers 4 rules, one of each kind */
	assert_int_equal(tlc_engine_rule_count(eng), 1 + 4);
	static const struct {
		const char *name;
		tlc_rule_kind kind;
		const char *note;
	} want[] = {
		{ "fixture::scaled", TLC_RULE_COST, "3 MACs per element of argument 0" },
		{ "fixture::view", TLC_RULE_ZERO, "a view: no arithmetic, no copy" },
		{ "fixture::wrapper", TLC_RULE_STRUCTURAL, "a marker that owns no compute" },
		{ "fixture::composite", TLC_RULE_DECOMPOSED, "exactly the sum of its children" },
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		const tlc_rule_info *r = find_rule(eng, want[i].name);
		assert_non_null(r);
		assert_int_equal(r->kind, want[i].kind);
		assert_int_equal(r->evidence, TLC_EVIDENCE_FORMULA_EXACT);
		assert_string_equal(r->note, want[i].note);
		assert_string_equal(r->provider, "plugin:good");
		assert_false(r->overrides);
	}
	assert_int_equal(tlc_engine_notice_count(eng), 0);
	assert_non_null(eng->plugins);
	assert_string_equal(eng->plugins->path, FIXTURE("good"));
	assert_true(library_is_open(FIXTURE("good")));
	tlc_engine_free(eng);
	assert_false(library_is_open(FIXTURE("good")));
}

static void test_good_with_builtins(void **state)
{
	(void)state;
	tlc_engine *eng = NULL;
	assert_int_equal(tlc_engine_new(&eng, NULL), 0);
	size_t before = tlc_engine_rule_count(eng);
	assert_int_equal(tlc_engine_load_plugin(eng, FIXTURE("good")), 0);
	assert_int_equal(tlc_engine_rule_count(eng), before + 4);
	tlc_engine_free(eng);
}

/* One op through a loaded rule: fixture::scaled on a [2,3] tensor is
 * 3 MACs x 6 elements = 18 MACs, 36 FLOPs at fma=2. */
static void test_good_rule_evaluates(void **state)
{
	(void)state;
	tlc_engine *eng = engine_with_mm();
	assert_int_equal(tlc_engine_load_plugin(eng, FIXTURE("good")), 0);
	tlc_eval *ev = NULL;
	assert_int_equal(tlc_eval_new(&ev, eng, NULL), 0);
	static const int64_t shape[] = { 2, 3 };
	tlc_value arg = { .kind = TLC_VALUE_TENSOR };
	arg.u.tensor.ndim = 2;
	arg.u.tensor.shape = shape;
	arg.u.tensor.dtype = TLC_DTYPE_FLOAT32;
	tlc_op op = { .size = sizeof op, .id = 0, .name = "fixture::scaled",
	              .phase = TLC_PHASE_FORWARD, .nargs = 1, .args = &arg };
	assert_int_equal(tlc_eval_push_op(ev, &op), 0);
	assert_int_equal(tlc_eval_finish(ev), 0);
	uint64_t macs = 0, flops = 0;
	assert_int_equal(tlc_eval_total_u64(&macs, ev, TLC_PHASE_FORWARD, TLC_TOTAL_MACS), 0);
	assert_int_equal(tlc_eval_total_u64(&flops, ev, TLC_PHASE_FORWARD, TLC_TOTAL_FLOPS), 0);
	assert_int_equal(macs, 18);
	assert_int_equal(flops, 36);
	assert_false(tlc_eval_is_lower_bound(ev));
	tlc_eval_free(ev);
	tlc_engine_free(eng);
}

static void test_same_plugin_twice_refused(void **state)
{
	(void)state;
	tlc_engine *eng = engine_with_mm();
	assert_int_equal(tlc_engine_load_plugin(eng, FIXTURE("good")), 0);
	assert_error(tlc_engine_load_plugin(eng, FIXTURE("good")), TLC_EEXISTS,
	             "plugin_already_loaded");
	assert_int_equal(tlc_engine_rule_count(eng), 1 + 4);
	assert_null(eng->plugins->next);
	assert_true(library_is_open(FIXTURE("good"))); /* the first load keeps it */
	tlc_engine_free(eng);
	assert_false(library_is_open(FIXTURE("good")));
}

/* ---- ABI versions: accepted range is [VERSION-AGE, VERSION] ---- */

static void assert_abi_refused(const char *path, unsigned plugin_abi)
{
	assert_refused(path, TLC_EVERSION, "plugin_abi_unsupported");
	/* the message must name the plugin's version and the host's range */
	char part[64];
	snprintf(part, sizeof part, "plugin ABI version %u", plugin_abi);
	assert_contains(tlc_error_last()->message, part);
	snprintf(part, sizeof part, "accepts versions %d to %d",
	         TLC_PLUGIN_ABI_VERSION - TLC_PLUGIN_ABI_AGE, TLC_PLUGIN_ABI_VERSION);
	assert_contains(tlc_error_last()->message, part);
}

static void test_abi_too_new(void **state)
{
	(void)state;
	assert_abi_refused(FIXTURE("abi_too_new"), TLC_PLUGIN_ABI_VERSION + 1);
}

static void test_abi_too_old(void **state)
{
	(void)state;
	assert_abi_refused(FIXTURE("abi_too_old"),
	                   TLC_PLUGIN_ABI_VERSION - TLC_PLUGIN_ABI_AGE - 1);
}

/* ---- opening and the entry point ---- */

static void test_missing_entry(void **state)
{
	(void)state;
	assert_refused(FIXTURE("missing_entry"), TLC_EPLUGIN, "plugin_entry_missing");
	assert_contains(tlc_error_last()->message, TLC_PLUGIN_ENTRY);
}

static void test_open_failed_missing_file(void **state)
{
	(void)state;
	assert_refused(FIXTURE_DIR "/no_such_plugin.so", TLC_EPLUGIN, "plugin_open_failed");
	/* the dlerror text is part of the message */
	assert_contains(tlc_error_last()->message, "No such file");
}

static void test_open_failed_not_elf(void **state)
{
	(void)state;
	/* a text file is not a shared object */
	const char *path = OPLOG_DIR "/custom_gelu.oplog.jsonl";
	assert_refused(path, TLC_EPLUGIN, "plugin_open_failed");
	assert_contains(tlc_error_last()->message, path);
}

static void test_bad_arguments(void **state)
{
	(void)state;
	assert_error(tlc_engine_load_plugin(NULL, FIXTURE("good")), TLC_EINVAL,
	             "invalid_argument");
	tlc_engine *eng = engine_with_mm();
	assert_error(tlc_engine_load_plugin(eng, NULL), TLC_EINVAL, "invalid_argument");
	assert_error(tlc_engine_load_plugin(eng, ""), TLC_EINVAL, "invalid_argument");
	assert_error(tlc_plugin_inspect(NULL, FIXTURE("good")), TLC_EINVAL, "invalid_argument");
	tlc_plugin_info *info = (tlc_plugin_info *)&info;
	assert_error(tlc_plugin_inspect(&info, NULL), TLC_EINVAL, "invalid_argument");
	assert_null(info);
	assert_error(tlc_engine_load_plugin_env(NULL), TLC_EINVAL, "invalid_argument");
	tlc_plugin_info_free(NULL);
	tlc_engine_free(eng);
}

/* ---- invalid descriptors (tests/plugins/bad_desc.c) ---- */

static void test_descriptor_invalid(void **state)
{
	(void)state;
	static const struct {
		const char *path;
		const char *why; /* part of the message */
	} cases[] = {
		{ FIXTURE("null_name"), "name is NULL" },
		{ FIXTURE("long_name"), "1-64 characters" },
		{ FIXTURE("bad_name_chars"), "1-64 characters" },
		{ FIXTURE("empty_name"), "1-64 characters" },
		{ FIXTURE("null_init"), "init is NULL" },
		{ FIXTURE("small_desc"), "size" },
		{ FIXTURE("describe_null"), "returned NULL" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		assert_refused(cases[i].path, TLC_EPLUGIN, "plugin_descriptor_invalid");
		assert_contains(tlc_error_last()->message, cases[i].why);
		tlc_plugin_info *info = NULL;
		assert_error(tlc_plugin_inspect(&info, cases[i].path), TLC_EPLUGIN,
		             "plugin_descriptor_invalid");
		assert_null(info);
	}
}

/* ---- failing init ---- */

static void test_failing_init_removes_everything(void **state)
{
	(void)state;
	assert_refused(FIXTURE("failing_init"), TLC_EPLUGIN, "plugin_init_failed");
	assert_contains(tlc_error_last()->message, "-1");
}

static void test_failing_init_restores_overridden_rule(void **state)
{
	(void)state;
	/* assert_refused checks aten::mm is the API's again and the
	 * rule_override notice is gone */
	assert_refused(FIXTURE("override_then_fail"), TLC_EPLUGIN, "plugin_init_failed");
	tlc_engine *eng = engine_with_mm();
	assert_int_not_equal(tlc_engine_load_plugin(eng, FIXTURE("override_then_fail")), 0);
	const tlc_rule_info *r = find_rule(eng, "aten::mm");
	assert_string_equal(r->note, "api rule for aten::mm");
	assert_false(r->overrides);
	assert_null(find_rule(eng, "fixture::fail_a"));
	assert_null(find_rule(eng, "fixture::fail_b"));
	tlc_engine_free(eng);
}

/* ---- duplicates and overrides ---- */

static void test_duplicate_refused(void **state)
{
	(void)state;
	assert_refused(FIXTURE("duplicate_op"), TLC_EEXISTS, "rule_duplicate");
	assert_contains(tlc_error_last()->message, "aten::mm");
	tlc_engine *eng = engine_with_mm();
	assert_int_not_equal(tlc_engine_load_plugin(eng, FIXTURE("duplicate_op")), 0);
	assert_null(find_rule(eng, "fixture::dup_extra"));
	tlc_engine_free(eng);
}

static void test_override_accepted_with_notice(void **state)
{
	(void)state;
	tlc_engine *eng = engine_with_mm();
	assert_int_equal(tlc_engine_load_plugin(eng, FIXTURE("override_op")), 0);
	/* aten::mm replaced (count unchanged for it) + fixture::dup_extra */
	assert_int_equal(tlc_engine_rule_count(eng), 2);
	const tlc_rule_info *r = find_rule(eng, "aten::mm");
	assert_string_equal(r->provider, "plugin:override_op");
	assert_string_equal(r->note, "fixture replacement for aten::mm");
	assert_int_equal(r->evidence, TLC_EVIDENCE_ESTIMATED);
	assert_true(r->overrides);
	assert_int_equal(tlc_engine_notice_count(eng), 1);
	const tlc_notice *n = tlc_engine_notice_at(eng, 0);
	assert_string_equal(n->code, "rule_override");
	assert_contains(n->message, "plugin:override_op");
	assert_contains(n->message, "aten::mm");
	assert_contains(n->message, "api");
	assert_null(tlc_engine_notice_at(eng, 1));
	tlc_engine_free(eng);
}

/* ---- hostile registrations (tests/plugins/bad_rule.c) ---- */

static void test_bad_rule_definitions(void **state)
{
	(void)state;
	static const char *const cases[] = {
		FIXTURE("null_fn"),      FIXTURE("null_def"), FIXTURE("small_def"),
		FIXTURE("bad_rule_name"), FIXTURE("bad_kind"), FIXTURE("null_rule_name"),
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		/* each init returns 0 after the refusal: the host must still fail
		 * the load and drop fixture::ok_before */
		assert_refused(cases[i], TLC_EINVAL, "rule_invalid");
		tlc_plugin_info *info = NULL;
		assert_error(tlc_plugin_inspect(&info, cases[i]), TLC_EINVAL, "rule_invalid");
		assert_null(info);
		assert_false(library_is_open(cases[i]));
	}
}

/* ---- registration outside init ---- */

typedef int (*int_fn)(void);

static int_fn fixture_fn(void *h, const char *name)
{
	void *sym = dlsym(h, name);
	assert_non_null(sym);
	int_fn fn;
	memcpy(&fn, &sym, sizeof fn);
	return fn;
}

static void test_register_outside_init_refused(void **state)
{
	(void)state;
	const char *path = FIXTURE("register_outside_init");
	tlc_engine *eng = engine_with_mm();
	assert_int_equal(tlc_engine_load_plugin(eng, path), 0);
	assert_int_equal(tlc_engine_rule_count(eng), 2);
	void *h = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
	assert_non_null(h);

	/* from a second exported function, after init returned */
	int rc = fixture_fn(h, "fixture_register_late")();
	assert_error(rc, TLC_ESTATE, "plugin_registration_closed");
	assert_int_equal(tlc_engine_rule_count(eng), 2);
	assert_null(find_rule(eng, "fixture::late"));

	/* from inside its own rule function, during evaluation: the late
	 * registration is refused and the rule's cost (5 FLOPs) still counts */
	tlc_eval *ev = NULL;
	assert_int_equal(tlc_eval_new(&ev, eng, NULL), 0);
	tlc_op op = { .size = sizeof op, .id = 0, .name = "fixture::sneaky",
	              .phase = TLC_PHASE_FORWARD };
	assert_int_equal(fixture_fn(h, "fixture_late_rc")(), 1); /* no attempt from fn yet */
	assert_int_equal(tlc_eval_push_op(ev, &op), 0);
	assert_int_equal(tlc_eval_finish(ev), 0);
	assert_int_equal(fixture_fn(h, "fixture_late_rc")(), TLC_ESTATE);
	uint64_t flops = 0;
	assert_int_equal(tlc_eval_total_u64(&flops, ev, TLC_PHASE_FORWARD, TLC_TOTAL_FLOPS), 0);
	assert_int_equal(flops, 5);
	assert_int_equal(tlc_engine_rule_count(eng), 2);
	assert_null(find_rule(eng, "fixture::late"));
	tlc_eval_free(ev);
	dlclose(h);
	tlc_engine_free(eng);
	assert_false(library_is_open(path));
}

/* ---- inspection ---- */

static void test_inspect_good(void **state)
{
	(void)state;
	tlc_plugin_info *info = NULL;
	assert_int_equal(tlc_plugin_inspect(&info, FIXTURE("good")), 0);
	assert_int_equal(info->abi_version, TLC_PLUGIN_ABI_VERSION);
	assert_string_equal(info->name, "good");
	assert_string_equal(info->version, "1.2.3");
	assert_int_equal(info->nrules, 4);
	/* name order */
	static const struct {
		const char *name;
		tlc_rule_kind kind;
	} want[] = {
		{ "fixture::composite", TLC_RULE_DECOMPOSED },
		{ "fixture::scaled", TLC_RULE_COST },
		{ "fixture::view", TLC_RULE_ZERO },
		{ "fixture::wrapper", TLC_RULE_STRUCTURAL },
	};
	for (size_t i = 0; i < 4; i++) {
		assert_string_equal(info->rules[i].name, want[i].name);
		assert_int_equal(info->rules[i].kind, want[i].kind);
		assert_int_equal(info->rules[i].evidence, TLC_EVIDENCE_FORMULA_EXACT);
		assert_null(info->rules[i].fn); /* would dangle after dlclose */
	}
	assert_string_equal(info->rules[1].note, "3 MACs per element of argument 0");
	assert_false(library_is_open(FIXTURE("good")));
	tlc_plugin_info_free(info);
}

static void test_inspect_refusals(void **state)
{
	(void)state;
	static const struct {
		const char *path;
		int klass;
		const char *code;
	} cases[] = {
		{ FIXTURE("abi_too_new"), TLC_EVERSION, "plugin_abi_unsupported" },
		{ FIXTURE("abi_too_old"), TLC_EVERSION, "plugin_abi_unsupported" },
		{ FIXTURE("missing_entry"), TLC_EPLUGIN, "plugin_entry_missing" },
		{ FIXTURE("failing_init"), TLC_EPLUGIN, "plugin_init_failed" },
		{ FIXTURE_DIR "/no_such_plugin.so", TLC_EPLUGIN, "plugin_open_failed" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		tlc_plugin_info *info = NULL;
		assert_error(tlc_plugin_inspect(&info, cases[i].path), cases[i].klass,
		             cases[i].code);
		assert_null(info);
		assert_false(library_is_open(cases[i].path));
	}
	/* inspection runs against an empty scratch registry: an override of a
	 * rule that does not exist there is fine and reported as a rule */
	tlc_plugin_info *info = NULL;
	assert_int_equal(tlc_plugin_inspect(&info, FIXTURE("override_op")), 0);
	assert_int_equal(info->nrules, 2);
	assert_string_equal(info->rules[0].name, "aten::mm");
	tlc_plugin_info_free(info);
}

/* ---- TLCOST_PLUGIN_PATH ---- */

static void test_env_unset_loads_nothing(void **state)
{
	(void)state;
	tlc_engine *eng = engine_with_mm();
	unsetenv("TLCOST_PLUGIN_PATH");
	assert_int_equal(tlc_engine_load_plugin_env(eng), 0);
	setenv("TLCOST_PLUGIN_PATH", "", 1);
	assert_int_equal(tlc_engine_load_plugin_env(eng), 0);
	assert_int_equal(tlc_engine_rule_count(eng), 1);
	assert_null(eng->plugins);
	unsetenv("TLCOST_PLUGIN_PATH");
	tlc_engine_free(eng);
}

static void test_env_files(void **state)
{
	(void)state;
	tlc_engine *eng = engine_with_mm();
	/* empty components are skipped */
	setenv("TLCOST_PLUGIN_PATH", ":" FIXTURE("good") "::" FIXTURE("override_op") ":", 1);
	assert_int_equal(tlc_engine_load_plugin_env(eng), 0);
	unsetenv("TLCOST_PLUGIN_PATH");
	/* 1 api + 4 good + fixture::dup_extra; aten::mm replaced in place */
	assert_int_equal(tlc_engine_rule_count(eng), 6);
	assert_string_equal(find_rule(eng, "aten::mm")->provider, "plugin:override_op");
	tlc_engine_free(eng);
}

static void test_env_missing_entry_is_an_error(void **state)
{
	(void)state;
	tlc_engine *eng = engine_with_mm();
	setenv("TLCOST_PLUGIN_PATH", FIXTURE_DIR "/nothing_here", 1);
	assert_error(tlc_engine_load_plugin_env(eng), TLC_EIO, "plugin_path_invalid");
	assert_contains(tlc_error_last()->message, "nothing_here");
	setenv("TLCOST_PLUGIN_PATH", FIXTURE("abi_too_new"), 1);
	assert_error(tlc_engine_load_plugin_env(eng), TLC_EVERSION, "plugin_abi_unsupported");
	unsetenv("TLCOST_PLUGIN_PATH");
	assert_int_equal(tlc_engine_rule_count(eng), 1);
	tlc_engine_free(eng);
}

/* A scratch directory of symlinks to fixtures. */
static void make_dir(char *dir, size_t cap, const char *const *links, size_t n)
{
	snprintf(dir, cap, "%s", "/tmp/tlc_loader_XXXXXX");
	assert_non_null(mkdtemp(dir));
	for (size_t i = 0; i < n; i += 2) {
		char p[512];
		snprintf(p, sizeof p, "%s/%s", dir, links[i]);
		assert_int_equal(symlink(links[i + 1], p), 0);
	}
}

static void remove_dir(const char *dir, const char *const *links, size_t n)
{
	for (size_t i = 0; i < n; i += 2) {
		char p[512];
		snprintf(p, sizeof p, "%s/%s", dir, links[i]);
		unlink(p);
	}
	rmdir(dir);
}

static void test_env_directory(void **state)
{
	(void)state;
	/* name, target: only *.so entries are loaded */
	static const char *const links[] = {
		"z_override.so", FIXTURE("override_op"),
		"a_good.so", FIXTURE("good"),
		"notes.txt", FIXTURE("abi_too_new"),
		"broken.so.bak", FIXTURE("missing_entry"),
	};
	size_t n = sizeof links / sizeof links[0];
	char dir[64];
	make_dir(dir, sizeof dir, links, n);
	tlc_engine *eng = engine_with_mm();
	setenv("TLCOST_PLUGIN_PATH", dir, 1);
	int rc = tlc_engine_load_plugin_env(eng);
	unsetenv("TLCOST_PLUGIN_PATH");
	assert_int_equal(rc, 0);
	assert_int_equal(tlc_engine_rule_count(eng), 6);
	/* loaded in name order: the list is newest first */
	assert_non_null(eng->plugins);
	assert_contains(eng->plugins->path, "/z_override.so");
	assert_contains(eng->plugins->next->path, "/a_good.so");
	assert_null(eng->plugins->next->next);
	tlc_engine_free(eng);
	remove_dir(dir, links, n);
}

static void test_env_directory_sorted_and_stops_on_error(void **state)
{
	(void)state;
	/* created in reverse order; loading in name order means a_good.so wins
	 * and b_again.so (the same library) is the one refused */
	static const char *const links[] = {
		"c_after.so", FIXTURE("override_op"),
		"b_again.so", FIXTURE("good"),
		"a_good.so", FIXTURE("good"),
	};
	size_t n = sizeof links / sizeof links[0];
	char dir[64];
	make_dir(dir, sizeof dir, links, n);
	tlc_engine *eng = engine_with_mm();
	setenv("TLCOST_PLUGIN_PATH", dir, 1);
	int rc = tlc_engine_load_plugin_env(eng);
	unsetenv("TLCOST_PLUGIN_PATH");
	assert_error(rc, TLC_EEXISTS, "plugin_already_loaded");
	assert_contains(tlc_error_last()->message, "/b_again.so");
	assert_contains(tlc_error_last()->message, "/a_good.so");
	/* what loaded before the error stays; nothing after it was loaded */
	assert_int_equal(tlc_engine_rule_count(eng), 5);
	assert_string_equal(find_rule(eng, "aten::mm")->provider, "api");
	tlc_engine_free(eng);
	remove_dir(dir, links, n);
}

/* ---- the example plugin ---- */

/* mylib::fused_gelu(x [4,8] f32, bias [8] f32) -> y [4,8] f32:
 * 10 other FLOPs per element (derivation in plugins/examples/fused_gelu.c)
 * x 32 elements -> 320 other FLOPs, 0 MACs; bytes read 32*4 + 8*4 = 160;
 * written 32*4 = 128. */
static void test_example_fused_gelu(void **state)
{
	(void)state;
	tlc_engine *eng = engine_with_mm();
	assert_int_equal(tlc_engine_load_plugin(eng, EXAMPLE("fused_gelu")), 0);
	const tlc_rule_info *r = find_rule(eng, "mylib::fused_gelu");
	assert_non_null(r);
	assert_string_equal(r->provider, "plugin:fused_gelu");
	assert_int_equal(r->evidence, TLC_EVIDENCE_ESTIMATED);
	tlc_eval *ev = NULL;
	assert_int_equal(tlc_eval_new(&ev, eng, NULL), 0);
	/* mylib::fused_gelu(Tensor x), x [4,8] float32, no outputs recorded:
	 * 5 * 32 = 160 other FLOPs, x read (32 * 4 = 128 B), y written like x */
	static const int64_t xs[] = { 4, 8 };
	tlc_value args[1] = { { .kind = TLC_VALUE_TENSOR } };
	args[0].u.tensor.ndim = 2;
	args[0].u.tensor.shape = xs;
	args[0].u.tensor.dtype = TLC_DTYPE_FLOAT32;
	tlc_op op = { .size = sizeof op, .id = 0, .name = "mylib::fused_gelu",
	              .phase = TLC_PHASE_FORWARD, .nargs = 1, .args = args };
	assert_int_equal(tlc_eval_push_op(ev, &op), 0);
	assert_int_equal(tlc_eval_finish(ev), 0);
	static const struct {
		tlc_total which;
		uint64_t want;
	} totals[] = {
		{ TLC_TOTAL_MACS, 0 },          { TLC_TOTAL_OTHER_FLOPS, 160 },
		{ TLC_TOTAL_FLOPS, 160 },       { TLC_TOTAL_BYTES_READ, 128 },
		{ TLC_TOTAL_BYTES_WRITTEN, 128 },
	};
	for (size_t i = 0; i < sizeof totals / sizeof totals[0]; i++) {
		uint64_t v = 1234567;
		assert_int_equal(tlc_eval_total_u64(&v, ev, TLC_PHASE_FORWARD, totals[i].which), 0);
		assert_int_equal(v, totals[i].want);
	}
	assert_false(tlc_eval_is_lower_bound(ev));
	tlc_eval_free(ev);
	tlc_engine_free(eng);
}

/* ---- allocation failure at every point of a load ---- */

typedef struct fail_alloc {
	long countdown; /* fail when it reaches 0; < 0: never */
	long calls;
} fail_alloc;

static int should_fail(fail_alloc *f)
{
	f->calls++;
	return f->countdown >= 0 && f->countdown-- == 0;
}

static void *fa_malloc(size_t n, void *p) { return should_fail(p) ? NULL : malloc(n); }
static void *fa_realloc(void *q, size_t n, void *p)
{
	return should_fail(p) ? NULL : realloc(q, n);
}
static void fa_free(void *q, void *p)
{
	(void)p;
	free(q);
}

static void test_load_survives_allocation_failure(void **state)
{
	(void)state;
	fail_alloc f = { -1, 0 };
	tlc_allocator a = { fa_malloc, fa_realloc, fa_free, &f };
	tlc_engine_options o = { sizeof o, TLC_ENGINE_NO_BUILTINS, &a };
	int loaded = 0;
	for (long k = 0; k < 200 && !loaded; k++) {
		tlc_engine *eng = NULL;
		f.countdown = -1;
		assert_int_equal(tlc_engine_new(&eng, &o), 0);
		f.countdown = k; /* fail the k-th allocation of the load */
		f.calls = 0;
		int rc = tlc_engine_load_plugin(eng, FIXTURE("good"));
		f.countdown = -1;
		if (rc == 0) {
			loaded = 1;
			assert_int_equal(tlc_engine_rule_count(eng), 4);
		} else {
			assert_error(rc, TLC_ENOMEM, "out_of_memory");
			assert_int_equal(tlc_engine_rule_count(eng), 0);
			assert_null(eng->plugins);
			assert_false(library_is_open(FIXTURE("good")));
		}
		tlc_engine_free(eng);
	}
	assert_true(loaded);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_registers_every_rule),
		cmocka_unit_test(test_good_with_builtins),
		cmocka_unit_test(test_good_rule_evaluates),
		cmocka_unit_test(test_same_plugin_twice_refused),
		cmocka_unit_test(test_abi_too_new),
		cmocka_unit_test(test_abi_too_old),
		cmocka_unit_test(test_missing_entry),
		cmocka_unit_test(test_open_failed_missing_file),
		cmocka_unit_test(test_open_failed_not_elf),
		cmocka_unit_test(test_bad_arguments),
		cmocka_unit_test(test_descriptor_invalid),
		cmocka_unit_test(test_failing_init_removes_everything),
		cmocka_unit_test(test_failing_init_restores_overridden_rule),
		cmocka_unit_test(test_duplicate_refused),
		cmocka_unit_test(test_override_accepted_with_notice),
		cmocka_unit_test(test_bad_rule_definitions),
		cmocka_unit_test(test_register_outside_init_refused),
		cmocka_unit_test(test_inspect_good),
		cmocka_unit_test(test_inspect_refusals),
		cmocka_unit_test(test_env_unset_loads_nothing),
		cmocka_unit_test(test_env_files),
		cmocka_unit_test(test_env_missing_entry_is_an_error),
		cmocka_unit_test(test_env_directory),
		cmocka_unit_test(test_env_directory_sorted_and_stops_on_error),
		cmocka_unit_test(test_example_fused_gelu),
		cmocka_unit_test(test_load_survives_allocation_failure),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
