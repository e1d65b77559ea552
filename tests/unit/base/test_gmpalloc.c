/* TLC_ENGINE_GMP_ALLOCATOR: GMP's blocks go through the engine's allocator,
 * every block is freed by the allocator that made it (two engines with
 * different allocators), and a failing allocator falls back to malloc
 * instead of crashing. The op forces GMP: aten::mm of [2^31, 2^31] x
 * [2^31, 2^31] is 2^93 multiply-adds, beyond int64; its fma=2 FLOPs are
 * 2^94 = 19807040628566084398385987584 (worked by hand: 2^10 = 1024,
 * 2^94 = 2^64 * 2^30 = 18446744073709551616 * 1073741824). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tlcost/tlcost.h"
#include "engine.h"
#include "gmpalloc.h"

typedef struct counting {
	long live, total;
	int fail; /* nonzero: every allocation fails */
} counting;

static void *c_malloc(size_t n, void *p)
{
	counting *c = p;
	if (c->fail)
		return NULL;
	void *r = malloc(n);
	if (r) {
		c->live++;
		c->total++;
	}
	return r;
}

static void *c_realloc(void *q, size_t n, void *p)
{
	counting *c = p;
	if (c->fail)
		return NULL;
	void *r = realloc(q, n);
	if (r && !q) {
		c->live++;
		c->total++;
	}
	return r;
}

static void c_free(void *q, void *p)
{
	counting *c = p;
	if (q)
		c->live--;
	free(q);
}

static tlc_engine *engine_with(counting *c, tlc_allocator *a)
{
	a->malloc_fn = c_malloc;
	a->realloc_fn = c_realloc;
	a->free_fn = c_free;
	a->payload = c;
	tlc_engine_options o;
	memset(&o, 0, sizeof o);
	o.size = sizeof o;
	o.flags = TLC_ENGINE_GMP_ALLOCATOR;
	o.allocator = a;
	tlc_engine *eng = NULL;
	assert_int_equal(tlc_engine_new(&eng, &o), 0);
	return eng;
}

static const int64_t BIG[] = { INT64_C(1) << 31, INT64_C(1) << 31 };

static tlc_eval *eval_big(tlc_engine *eng)
{
	tlc_eval *ev = NULL;
	assert_int_equal(tlc_eval_new(&ev, eng, NULL), 0);
	tlc_value args[2];
	memset(args, 0, sizeof args);
	for (int i = 0; i < 2; i++) {
		args[i].kind = TLC_VALUE_TENSOR;
		args[i].u.tensor.ndim = 2;
		args[i].u.tensor.shape = BIG;
		args[i].u.tensor.dtype = TLC_DTYPE_FLOAT32;
	}
	tlc_op op;
	memset(&op, 0, sizeof op);
	op.size = sizeof op;
	op.name = "aten::mm";
	op.module = "";
	op.nargs = 2;
	op.args = args;
	assert_int_equal(tlc_eval_push_op(ev, &op), 0);
	assert_int_equal(tlc_eval_finish(ev), 0);
	return ev;
}

static void check_total(tlc_eval *ev)
{
	char *s = NULL;
	assert_int_equal(tlc_eval_total_str(&s, ev, TLC_PHASE_FORWARD, TLC_TOTAL_FLOPS), 0);
	assert_string_equal(s, "19807040628566084398385987584");
	tlc_free(s);
}

static void test_gmp_through_allocator(void **state)
{
	(void)state;
	counting c = { 0, 0, 0 };
	tlc_allocator a;
	tlc_engine *eng = engine_with(&c, &a);
	assert_non_null(eng->gmp);
	tlc_eval *ev = eval_big(eng);
	assert_true(tlc_gmp__live_blocks(eng->gmp) > 0); /* the big total is GMP's */
	check_total(ev);
	tlc_eval_free(ev);
	assert_int_equal(tlc_gmp__live_blocks(eng->gmp), 0);
	tlc_engine_free(eng);
	assert_int_equal(c.live, 0);
}

static void test_two_engines(void **state)
{
	(void)state;
	counting c1 = { 0, 0, 0 }, c2 = { 0, 0, 0 };
	tlc_allocator a1, a2;
	tlc_engine *e1 = engine_with(&c1, &a1);
	tlc_eval *v1 = eval_big(e1);
	tlc_engine *e2 = engine_with(&c2, &a2);
	tlc_eval *v2 = eval_big(e2);
	check_total(v1);
	check_total(v2);
	/* free in the other order: each block still goes back where it came from */
	tlc_eval_free(v1);
	tlc_engine_free(e1);
	tlc_eval_free(v2);
	tlc_engine_free(e2);
	assert_int_equal(c1.live, 0);
	assert_int_equal(c2.live, 0);
}

static void test_failing_allocator_falls_back(void **state)
{
	(void)state;
	counting c = { 0, 0, 0 };
	tlc_allocator a;
	tlc_engine *eng = engine_with(&c, &a);
	tlc_eval *ev = eval_big(eng);
	c.fail = 1; /* from here every allocation fails: GMP gets malloc's */
	check_total(ev); /* converting to a string allocates through GMP */
	c.fail = 0;
	tlc_eval_free(ev);
	tlc_engine_free(eng);
	assert_int_equal(c.live, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gmp_through_allocator),
		cmocka_unit_test(test_two_engines),
		cmocka_unit_test(test_failing_allocator_falls_back),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
