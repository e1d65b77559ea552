/* Profile tables and the one-screen report through the C API: grouping,
 * sorting, top-K, unknown never shown as zero, `time (instrumented)`, and
 * device-time columns only when a join filled them. Expected numbers are
 * derived by hand from the fixture rules (tests/unit/report_fixture.h). */
#include "../report_fixture.h"
#include "eval.h" /* tlc_eval__attach_overlay: the test plays the join */
#include "rows.h"
#include "overlay.h"
#include "../rows_util.h"

/*   0 gemm 2x3x4 fwd  "a": 48 FLOPs; bytes (6 + 12) * 4 + 8 * 4 = 104; 100 ns
 *   1 pw 2x4 fwd      "a": 8 FLOPs; 32 + 32 = 64 bytes;              50 ns
 *   2 gemm 2x3x4 fwd  "b": 48 FLOPs; 104 bytes;                      300 ns
 *   3 t::mystery fwd  "b": unknown;                                   10 ns
 *   4 pw 1x1 bwd      "a": 1 FLOP; 8 bytes;                            5 ns */
static const fx_op ops[] = {
	{ 0, "t::gemm", TLC_PHASE_FORWARD, "a", "A", 0, 2, 3, 4, 0, 0, 100, NULL },
	{ 1, "t::pw", TLC_PHASE_FORWARD, "a", "A", 0, 2, 4, 0, 0, 0, 50, NULL },
	{ 2, "t::gemm", TLC_PHASE_FORWARD, "b", "B", 0, 2, 3, 4, 0, 0, 300, NULL },
	{ 3, "t::mystery", TLC_PHASE_FORWARD, "b", "B", 0, 2, 2, 0, 0, 0, 10, NULL },
	{ 4, "t::pw", TLC_PHASE_BACKWARD, "a", "A", 0, 1, 1, 0, 0, 0, 5, NULL },
};

static int setup(void **state)
{
	*state = fx_env_new("NVIDIA L4", ops, sizeof ops / sizeof ops[0]);
	return 0;
}

static tlc_profile *build(const tlc_eval *ev, tlc_profile_by by, tlc_profile_sort sort,
                          size_t top, int phase)
{
	tlc_profile_options o;
	memset(&o, 0, sizeof o);
	o.size = sizeof o;
	o.by = by;
	o.sort = sort;
	o.top = top;
	o.phase = phase;
	tlc_profile *p = NULL;
	assert_int_equal(tlc_profile_build(&p, ev, &o), 0);
	return p;
}

static void test_by_type(void **state)
{
	fx_env *e = *state;
	tlc_profile *p = build(e->ev, TLC_PROFILE_BY_TYPE, TLC_SORT_FLOPS, 0, -1);
	assert_int_equal(tlc_profile_row_count(p), 3);
	const tlc_profile_row *g = tlc_profile_row_at(p, 0), *w = tlc_profile_row_at(p, 1),
	                      *u = tlc_profile_row_at(p, 2);
	assert_string_equal(g->key, "t::gemm");
	assert_string_equal(g->flops, "96");
	assert_string_equal(g->bytes, "208");
	assert_int_equal(g->count, 2);
	assert_int_equal(g->time_ns, 400);
	assert_true(g->has_time);
	assert_string_equal(w->key, "t::pw");
	assert_string_equal(w->flops, "9");
	assert_string_equal(w->bytes, "72");
	assert_string_equal(u->key, "t::mystery");
	assert_null(u->flops); /* unknown is never zero */
	assert_null(u->bytes);
	assert_int_equal(u->unknown, 1);
	assert_true(u->intensity < 0);
	tlc_profile_free(p);
}

static void test_by_module_phase_and_top(void **state)
{
	fx_env *e = *state;
	tlc_profile *p = build(e->ev, TLC_PROFILE_BY_MODULE, TLC_SORT_COUNT, 0, -1);
	assert_int_equal(tlc_profile_row_count(p), 2);
	assert_string_equal(tlc_profile_row_at(p, 0)->key, "a"); /* 3 ops */
	assert_string_equal(tlc_profile_row_at(p, 0)->flops, "57"); /* 48 + 8 + 1 */
	assert_string_equal(tlc_profile_row_at(p, 1)->flops, "48"); /* a lower bound */
	assert_int_equal(tlc_profile_row_at(p, 1)->unknown, 1);
	assert_null(tlc_profile_row_at(p, 1)->bytes);
	tlc_profile_free(p);
	p = build(e->ev, TLC_PROFILE_BY_MODULE, TLC_SORT_FLOPS, 0, TLC_PHASE_BACKWARD);
	assert_int_equal(tlc_profile_row_count(p), 1);
	assert_string_equal(tlc_profile_row_at(p, 0)->flops, "1");
	tlc_profile_free(p);
	p = build(e->ev, TLC_PROFILE_BY_OP, TLC_SORT_TIME, 2, -1);
	assert_int_equal(tlc_profile_row_count(p), 2);
	assert_int_equal(tlc_profile_hidden_rows(p), 3);
	assert_int_equal(tlc_profile_row_at(p, 0)->op->id, 2); /* 300 ns */
	assert_int_equal(tlc_profile_row_at(p, 1)->op->id, 0); /* 100 ns */
	tlc_profile_free(p);
	p = build(e->ev, TLC_PROFILE_BY_OP, TLC_SORT_INTENSITY, 0, -1);
	/* intensities: gemm 48/104 = 0.4615, pw 8/64 = 0.125, pw 1/8 = 0.125 */
	assert_int_equal(tlc_profile_row_at(p, 0)->op->id, 0);
	assert_int_equal(tlc_profile_row_at(p, 1)->op->id, 2);
	tlc_profile_free(p);
}

static void test_time_label_and_device_columns(void **state)
{
	fx_env *e = *state;
	tlc_profile *p = build(e->ev, TLC_PROFILE_BY_OP, TLC_SORT_FLOPS, 0, -1);
	char *txt = NULL, *csv = NULL;
	FX_CAPTURE(txt, tlc_write_profile(out, p, TLC_FORMAT_TEXT));
	FX_CAPTURE(csv, tlc_write_profile(out, p, TLC_FORMAT_CSV));
	assert_non_null(strstr(txt, "time (instrumented)"));
	assert_null(strstr(txt, "device ms")); /* no join: no device columns */
	assert_null(strstr(csv, "device_time_ns"));
	assert_non_null(strstr(txt, "unknown")); /* the mystery op's FLOPs */
	free(txt);
	free(csv);
	tlc_profile_free(p);
	/* a join fills op 0 only: columns appear, others show absent, never 0 */
	size_t row0 = SIZE_MAX;
	for (size_t i = 0; i < tlc_eval_op_count(e->ev); i++)
		if (test_op_id(e->ev, i) == 0)
			row0 = i;
	assert_true(row0 != SIZE_MAX);
	tlc_overlay ov; /* no device time, then op 0's */
	assert_int_equal(tlc_overlay__init(&ov, tlc_eval__allocator(e->ev), tlc_eval_op_count(e->ev), 0), 0);
	assert_int_equal(tlc_overlay__add(&ov, row0, 1000, 900), 0);
	tlc_eval__attach_overlay(e->ev, &ov);
	p = build(e->ev, TLC_PROFILE_BY_OP, TLC_SORT_FLOPS, 0, -1);
	char *json = NULL;
	FX_CAPTURE(txt, tlc_write_profile(out, p, TLC_FORMAT_TEXT));
	FX_CAPTURE_JSON(json, tlc_write_profile(out, p, TLC_FORMAT_JSON));
	assert_non_null(strstr(txt, "device ms"));
	assert_non_null(strstr(txt, "absent"));
	assert_non_null(strstr(json, "\"device_time_ns\":1000,\"kernel_time_ns\":900"));
	assert_non_null(strstr(json, "\"attribution_status\":\"attributed\""));
	assert_null(strstr(strstr(json, "device_time_ns") + 1, "device_time_ns")); /* only op 0 */
	free(txt);
	free(json);
	tlc_profile_free(p);
	tlc_eval__attach_overlay(e->ev, NULL);
	tlc_overlay__free(&ov);
}

static void test_report_api(void **state)
{
	fx_env *e = *state;
	char *txt = NULL, *json = NULL, *csv = NULL;
	FX_CAPTURE(txt, tlc_write_report(out, e->ev, NULL, TLC_FORMAT_TEXT));
	FX_CAPTURE_JSON(json, tlc_write_report(out, e->ev, NULL, TLC_FORMAT_JSON));
	FX_CAPTURE(csv, tlc_write_report(out, e->ev, NULL, TLC_FORMAT_CSV));
	/* forward 48 + 8 + 48 = 104 (>=: one unknown op); backward 1 */
	assert_non_null(strstr(txt, "forward   >= 104 FLOPs"));
	assert_non_null(strstr(txt, "backward  >= 1 FLOPs"));
	assert_non_null(strstr(txt, "totals are a LOWER BOUND: 1 unknown-cost call of 1 op type"));
	assert_non_null(strstr(txt, "NVIDIA L4 [l4]"));
	assert_non_null(strstr(json, "\"schema\":\"tlcost.report/2\""));
	assert_non_null(strstr(json, "\"flops\":104"));
	assert_non_null(strstr(json, "\"roofline\":{\"hypothesis\":true"));
	size_t lines = 0;
	for (const char *c = csv; *c; c++)
		lines += *c == '\n';
	assert_int_equal(lines, 1 + 5); /* header + one row per op */
	for (const char *l = txt; *l;) { /* 80 columns */
		size_t n = strcspn(l, "\n");
		assert_true(n <= 80);
		l += n + (l[n] == '\n');
	}
	free(txt);
	free(json);
	free(csv);
	/* without ceilings the report still prints and says why there is no roofline */
	tlc_report_options ro;
	memset(&ro, 0, sizeof ro);
	ro.size = sizeof ro;
	ro.ceilings.device = "no-such-gpu";
	FX_CAPTURE(txt, tlc_write_report(out, e->ev, &ro, TLC_FORMAT_TEXT));
	assert_non_null(strstr(txt, "not drawn: device_unknown"));
	free(txt);
}

/* ---- allocation failures: every report fails cleanly (TLC_ENOMEM, nothing
 * leaked: run under valgrind) at each allocation it makes ---- */

typedef struct failing {
	long countdown; /* allocations left before failing; < 0: never fail */
} failing;

static void *f_malloc(size_t n, void *p)
{
	failing *f = p;
	if (f->countdown == 0)
		return NULL;
	if (f->countdown > 0)
		f->countdown--;
	return malloc(n);
}

static void *f_realloc(void *q, size_t n, void *p)
{
	failing *f = p;
	if (f->countdown == 0)
		return NULL;
	if (f->countdown > 0)
		f->countdown--;
	return realloc(q, n);
}

static void f_free(void *q, void *p)
{
	(void)p;
	free(q);
}

typedef int (*report_fn)(const tlc_eval *ev, FILE *sink);

static int run_tree(const tlc_eval *ev, FILE *sink)
{
	tlc_tree_options o = { sizeof o, TLC_PHASE_FORWARD, 1, 2, 0 };
	tlc_tree *t;
	int rc = tlc_tree_build(&t, ev, &o);
	if (rc == 0) {
		rc = tlc_write_tree(sink, t, TLC_FORMAT_TEXT);
		tlc_tree_free(t);
	}
	return rc;
}

static int run_profile(const tlc_eval *ev, FILE *sink)
{
	tlc_profile_options o = { sizeof o, TLC_PROFILE_BY_MODULE, TLC_SORT_FLOPS, 0, -1 };
	tlc_profile *p;
	int rc = tlc_profile_build(&p, ev, &o);
	if (rc == 0) {
		rc = tlc_write_profile(sink, p, TLC_FORMAT_JSON);
		tlc_profile_free(p);
	}
	return rc;
}

static int run_roofline(const tlc_eval *ev, FILE *sink)
{
	tlc_roofline_options o;
	memset(&o, 0, sizeof o);
	o.size = sizeof o;
	o.phase = -1;
	tlc_roofline *r;
	int rc = tlc_roofline_build(&r, ev, &o);
	if (rc == 0) {
		rc = tlc_write_roofline(sink, r, TLC_FORMAT_TEXT, 0);
		if (rc == 0)
			rc = tlc_write_roofline_svg(sink, r);
		tlc_roofline_free(r);
	}
	return rc;
}

static int run_mfu(const tlc_eval *ev, FILE *sink)
{
	tlc_mfu_options o;
	memset(&o, 0, sizeof o);
	o.size = sizeof o;
	o.seconds = 1.0;
	o.params = 10;
	o.tokens = 10;
	tlc_mfu *m;
	int rc = tlc_mfu_compute(&m, ev, &o);
	if (rc == 0) {
		rc = tlc_write_mfu(sink, m, TLC_FORMAT_TEXT);
		tlc_mfu_free(m);
	}
	return rc;
}

static int run_report(const tlc_eval *ev, FILE *sink)
{
	return tlc_write_report(sink, ev, NULL, TLC_FORMAT_JSON);
}

static void test_allocation_failures(void **state)
{
	(void)state;
	static const report_fn fns[] = { run_tree, run_profile, run_roofline, run_mfu, run_report };
	failing f = { -1 };
	tlc_allocator a = { f_malloc, f_realloc, f_free, &f };
	tlc_engine_options eo = { sizeof eo, TLC_ENGINE_NO_BUILTINS, &a };
	tlc_engine *eng = NULL;
	assert_int_equal(tlc_engine_new(&eng, &eo), 0);
	tlc_rule_def d = { sizeof d, "t::gemm", TLC_RULE_COST, TLC_EVIDENCE_FORMULA_EXACT,
	                   fx_gemm, NULL, "M*K*N", 0 };
	assert_int_equal(tlc_engine_register_rule(eng, &d), 0);
	d.name = "t::pw";
	d.fn = fx_pw;
	assert_int_equal(tlc_engine_register_rule(eng, &d), 0);
	tlc_eval *ev = fx_eval(eng, "NVIDIA L4");
	fx_push_all(ev, ops, sizeof ops / sizeof ops[0]);
	FILE *sink = fopen("/dev/null", "w");
	assert_non_null(sink);
	for (size_t k = 0; k < sizeof fns / sizeof fns[0]; k++) {
		int done = 0;
		long failures = 0;
		for (long n = 0; n < 5000 && !done; n++) {
			f.countdown = n;
			int rc = fns[k](ev, sink);
			f.countdown = -1;
			if (rc == 0) {
				done = 1;
			} else {
				assert_int_equal(rc, TLC_ENOMEM);
				assert_string_equal(tlc_error_last()->code, "out_of_memory");
				failures++;
			}
		}
		assert_true(done);
		assert_true(failures > 0); /* the report does allocate through the eval's allocator */
	}
	fclose(sink);
	tlc_eval_free(ev);
	tlc_engine_free(eng);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_by_type, setup, fx_env_teardown),
		cmocka_unit_test_setup_teardown(test_by_module_phase_and_top, setup, fx_env_teardown),
		cmocka_unit_test_setup_teardown(test_time_label_and_device_columns, setup, fx_env_teardown),
		cmocka_unit_test_setup_teardown(test_report_api, setup, fx_env_teardown),
		cmocka_unit_test(test_allocation_failures),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
