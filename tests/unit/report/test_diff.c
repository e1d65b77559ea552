/* tlc_diff through the C API: the alignment levels, exact deltas, the
 * totals as sums of groups, conditions decided exactly (percentages of 0,
 * the last digit), refusals, writers and sums over ranks. Expected numbers
 * are derived by hand from the fixture rules (tests/unit/report_fixture.h:
 * t::gemm MxKxN costs M*K*N MACs = 2*M*K*N FLOPs, t::pw MxK costs M*K other
 * FLOPs, t::mystery has no rule). */
#include "../report_fixture.h"

/* A                                     B
 *  0 gemm 2x3x4 fwd "a"   48 FLOPs       gemm 4x3x4 fwd "a"  96 (shape change, +48)
 *  1 pw 2x4 fwd "a"        8             pw 2x4 fwd "a"       8 (same call)
 *  2 gemm 2x3x4 fwd "b"   48             gemm 2x3x4 fwd "c"  48 (same type, b -> c)
 *  3 mystery fwd "b"       unknown       mystery fwd "b"        (same call, unknown)
 *  4 pw 1x1 bwd "a"        1             -                      (only in A, -1)
 *  -                                     pw 1x1 fwd "z"       1 (only in B, +1)
 * Totals: A 105 FLOPs (104 forward + 1 backward), B 153, change +48. */
static const fx_op ops_a[] = {
	{ 0, "t::gemm", TLC_PHASE_FORWARD, "a", "A", 0, 2, 3, 4, 0, 0, 0, NULL },
	{ 1, "t::pw", TLC_PHASE_FORWARD, "a", "A", 0, 2, 4, 0, 0, 0, 0, NULL },
	{ 2, "t::gemm", TLC_PHASE_FORWARD, "b", "B", 0, 2, 3, 4, 0, 0, 0, NULL },
	{ 3, "t::mystery", TLC_PHASE_FORWARD, "b", "B", 0, 2, 2, 0, 0, 0, 0, NULL },
	{ 4, "t::pw", TLC_PHASE_BACKWARD, "a", "A", 0, 1, 1, 0, 0, 0, 0, NULL },
};
static const fx_op ops_b[] = {
	{ 0, "t::gemm", TLC_PHASE_FORWARD, "a", "A", 0, 4, 3, 4, 0, 0, 0, NULL },
	{ 1, "t::pw", TLC_PHASE_FORWARD, "a", "A", 0, 2, 4, 0, 0, 0, 0, NULL },
	{ 2, "t::gemm", TLC_PHASE_FORWARD, "c", "C", 0, 2, 3, 4, 0, 0, 0, NULL },
	{ 3, "t::mystery", TLC_PHASE_FORWARD, "b", "B", 0, 2, 2, 0, 0, 0, 0, NULL },
	{ 4, "t::pw", TLC_PHASE_FORWARD, "z", "Z", 0, 1, 1, 0, 0, 0, 0, NULL },
};

typedef struct env {
	fx_env *a, *b;
} env;

static int setup(void **state)
{
	env *e = calloc(1, sizeof *e);
	assert_non_null(e);
	e->a = fx_env_new("NVIDIA L4", ops_a, sizeof ops_a / sizeof ops_a[0]);
	e->b = fx_env_new("NVIDIA L4", ops_b, sizeof ops_b / sizeof ops_b[0]);
	*state = e;
	return 0;
}

static int teardown(void **state)
{
	env *e = *state;
	void *s = e->a;
	fx_env_teardown(&s);
	s = e->b;
	fx_env_teardown(&s);
	free(e);
	return 0;
}

static tlc_diff *build(env *e, tlc_diff_by by)
{
	tlc_diff_options o = TLC_DIFF_OPTIONS_INIT;
	o.by = by;
	tlc_diff *d = NULL;
	assert_int_equal(tlc_diff_build(&d, e->a->ev, NULL, e->b->ev, NULL, &o), 0);
	return d;
}

static const tlc_diff_row *find(const tlc_diff *d, tlc_diff_match m, const char *module_a)
{
	for (size_t i = 0; i < tlc_diff_row_count(d); i++) {
		const tlc_diff_row *r = tlc_diff_row_at(d, i);
		const char *ma = r->module_a ? r->module_a : r->module_b;
		if (r->match == m && strcmp(ma, module_a) == 0)
			return r;
	}
	fail_msg("no %s row at %s", tlc_diff_match_name(m), module_a);
	return NULL;
}

static void test_alignment(void **state)
{
	tlc_diff *d = build(*state, TLC_DIFF_BY_GROUP);
	assert_int_equal(tlc_diff_row_count(d), 6);
	const tlc_diff_row *r = tlc_diff_row_at(d, 0); /* sorted by |dFLOPs| */
	assert_int_equal(r->match, TLC_DIFF_SHAPE_CHANGE);
	assert_string_equal(r->d_flops, "48");
	assert_string_equal(r->d_macs, "24");
	assert_string_equal(r->shapes_a, "[2,3]float32, [3,4]float32");
	assert_string_equal(r->shapes_b, "[4,3]float32, [3,4]float32");
	r = find(d, TLC_DIFF_SAME_TYPE, "b");
	assert_string_equal(r->module_b, "c");
	assert_string_equal(r->d_flops, "0");
	assert_string_equal(r->a.flops, "48");
	r = find(d, TLC_DIFF_ONLY_A, "a");
	assert_int_equal(r->phase, TLC_PHASE_BACKWARD);
	assert_null(r->module_b);
	assert_string_equal(r->d_flops, "-1");
	assert_string_equal(r->d_count, "-1");
	r = find(d, TLC_DIFF_ONLY_B, "z");
	assert_string_equal(r->d_flops, "1");
	r = find(d, TLC_DIFF_SAME_CALL, "b"); /* the mystery: unknown on both sides */
	assert_int_equal(r->a.unknown, 1);
	assert_int_equal(r->b.unknown, 1);
	assert_string_equal(r->d_unknown, "0");
	const tlc_diff_row *t = tlc_diff_total(d, -1);
	assert_string_equal(t->a.flops, "105");
	assert_string_equal(t->b.flops, "153");
	assert_string_equal(t->d_flops, "48");
	assert_string_equal(tlc_diff_total(d, TLC_PHASE_BACKWARD)->d_flops, "-1");
	assert_string_equal(tlc_diff_total(d, TLC_PHASE_FORWARD)->d_flops, "49");
	assert_null(tlc_diff_total(d, TLC_PHASE_COUNT));
	assert_false(tlc_diff_has_time(d));
	assert_true(tlc_diff_lower_bound(d, 0));
	tlc_diff_free(d);
}

static void test_views_conserve(void **state)
{
	static const tlc_diff_by by[] = { TLC_DIFF_BY_TYPE, TLC_DIFF_BY_MODULE };
	for (int k = 0; k < 2; k++) {
		tlc_diff *d = build(*state, by[k]);
		long sum = 0;
		for (size_t i = 0; i < tlc_diff_row_count(d); i++)
			sum += atol(tlc_diff_row_at(d, i)->d_flops);
		assert_int_equal(sum, 48);
		if (by[k] == TLC_DIFF_BY_TYPE) {
			assert_string_equal(tlc_diff_row_at(d, 0)->key, "t::gemm");
			assert_string_equal(tlc_diff_row_at(d, 0)->d_flops, "48");
		}
		tlc_diff_free(d);
	}
}

static void test_conditions(void **state)
{
	tlc_diff *d = build(*state, TLC_DIFF_BY_GROUP);
	static const struct { const char *e; int holds; } c[] = {
		{ "flops>+45.714285714%", 1 },  /* 48/105 = 45.7142857142...% */
		{ "flops>45.714285715%", 0 },
		{ "flops==48", 1 },
		{ " flops >= 48 ", 1 },
		{ "backward.flops<-99%", 1 },  /* 1 -> 0: -100% */
		{ "backward.flops<=-100%", 1 },
		{ "optimizer.flops>0%", 0 },   /* 0 -> 0: 0% */
		{ "optimizer.flops>=0%", 1 },
		{ "forward.count>0", 1 },      /* 4 -> 5 */
		{ "count!=0", 0 },             /* 5 -> 5 */
		{ "coverage.unknown>0", 0 },
		{ "coverage.changed>0", 0 },
		{ "macs>+24", 0 },
	};
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		int holds = -1;
		char *why = NULL;
		assert_int_equal(tlc_diff_condition(&holds, &why, d, c[i].e), 0);
		if (holds != c[i].holds)
			fail_msg("%s: %d (%s)", c[i].e, holds, why);
		tlc_free(why);
	}
	static const char *const bad[] = { "", "flops", "flops>", "flops>>1", "speed>1",
	                                   "flops>1%%", "flops>1.0000000001", "forward.>1",
	                                   "flops>1 x" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		int holds;
		assert_int_equal(tlc_diff_condition(&holds, NULL, d, bad[i]), TLC_EINVAL);
		assert_string_equal(tlc_error_last()->code, "diff_condition_invalid");
	}
	int holds;
	assert_int_equal(tlc_diff_condition(&holds, NULL, d, "kernel_time>0"), TLC_EREFUSED);
	assert_string_equal(tlc_error_last()->code, "diff_figure_unavailable");
	tlc_diff_free(d);
}

static void test_refusals(void **state)
{
	env *e = *state;
	tlc_diff *d = NULL;
	assert_int_equal(tlc_diff_build(NULL, e->a->ev, NULL, e->b->ev, NULL, NULL), TLC_EINVAL);
	assert_int_equal(tlc_diff_build(&d, NULL, NULL, e->b->ev, NULL, NULL), TLC_EINVAL);
	tlc_eval_options o;
	memset(&o, 0, sizeof o);
	o.size = sizeof o; /* keep_ops 0: no rows to align */
	tlc_eval *bare = NULL;
	assert_int_equal(tlc_eval_new(&bare, e->a->eng, &o), 0);
	fx_push(bare, &ops_a[0]);
	assert_int_equal(tlc_eval_finish(bare), 0);
	assert_true(tlc_diff_build(&d, bare, NULL, e->b->ev, NULL, NULL) < 0);
	assert_string_equal(tlc_error_last()->code, "reports_need_ops");
	assert_null(d);
	tlc_eval_free(bare);
	assert_int_equal(tlc_write_diff(stdout, NULL, TLC_FORMAT_TEXT), TLC_EINVAL);
	assert_int_equal(tlc_diff_sum_add(NULL, NULL), TLC_EINVAL);
}

static void test_writers_and_sum(void **state)
{
	tlc_diff *d = build(*state, TLC_DIFF_BY_GROUP);
	char *buf = NULL;
	FX_CAPTURE_JSON(buf, tlc_write_diff(out, d, TLC_FORMAT_JSON));
	assert_non_null(strstr(buf, "\"schema\":\"tlcost.diff/1\""));
	assert_non_null(strstr(buf, "\"only_a\":1,\"only_b\":1"));
	free(buf);
	buf = NULL;
	FX_CAPTURE(buf, tlc_write_diff(out, d, TLC_FORMAT_CSV));
	assert_non_null(strstr(buf, "key,match,phase,"));
	free(buf);
	buf = NULL;
	FX_CAPTURE(buf, tlc_write_diff(out, d, TLC_FORMAT_TEXT));
	assert_non_null(strstr(buf, "aligned: 2 same call, 1 shape/dtype change, 1 same op type; "
	                            "1 rows only in A, 1 only in B"));
	free(buf);
	tlc_diff *sum = NULL;
	assert_int_equal(tlc_diff_sum_new(&sum), 0);
	assert_int_equal(tlc_diff_sum_add(sum, d), 0);
	assert_int_equal(tlc_diff_sum_add(sum, d), 0);
	assert_int_equal(tlc_diff_sum_add(d, sum), TLC_EINVAL); /* a sum is not a rank */
	assert_int_equal(tlc_diff_sum_finish(sum), 0);
	assert_string_equal(tlc_diff_total(sum, -1)->d_flops, "96");
	assert_string_equal(tlc_diff_total(sum, -1)->b.flops, "306");
	assert_int_equal(tlc_diff_row_count(sum), 0);
	tlc_diff_free(sum);
	tlc_diff_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alignment),
		cmocka_unit_test(test_views_conserve),
		cmocka_unit_test(test_conditions),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_writers_and_sum),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
