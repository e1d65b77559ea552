/* The host's cost accumulation on its 64-bit fast path and across the
 * overflow boundary: cost_add_bytes of tensors and lists (the path every
 * built-in rule's bytes take), read_inputs over mixed arguments, and the
 * scratch reset after a total went to GMP. Every expected value is worked
 * by hand (element size x dims, summed) and the big ones checked with
 * Python integers: 8 * 2^60 = 2^63 = 9223372036854775808,
 * 2 * (2^63 - 1) = 18446744073709551614, 2^64 = 18446744073709551616,
 * 2 * 2^64 + 3 = 36893488147419103235. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tlcost/tlcost.h"
#include "../fixture.h"
#include "cost.h"
#include "../totals_util.h"

#define tensor_v fx_tensor

static void assert_field_str(const tlc_cost *c, tlc_cost_field f, const char *want)
{
	char *s = NULL;
	assert_int_equal(tlc_cost_get_str(&s, c, f), 0);
	assert_string_equal(s, want);
	free(s);
}

/* a product that overflows int64 before any sum: 8 bytes x 2^60 = 2^63 */
static void test_product_overflow(void **state)
{
	(void)state;
	const tlc_host *h = tlc_host__table();
	tlc_cost c;
	tlc_cost__init(&c, TLC_EVIDENCE_FORMULA_EXACT);
	static const int64_t big[] = { INT64_C(1) << 60 };
	tlc_value v = tensor_v(1, big, TLC_DTYPE_FLOAT64);
	assert_int_equal(h->cost_add_bytes(&c, TLC_FIELD_BYTES_READ, &v), 0);
	assert_field_str(&c, TLC_FIELD_BYTES_READ, "9223372036854775808");
	uint64_t u = 0;
	assert_int_equal(tlc_cost_get_u64(&u, &c, TLC_FIELD_BYTES_READ), 0);
	assert_true(u == UINT64_C(9223372036854775808));
	tlc_cost__clear(&c);
}

/* sums on each side of 2^63 and of 2^64, one byte at a time at the edge */
static void test_sum_boundary(void **state)
{
	(void)state;
	const tlc_host *h = tlc_host__table();
	tlc_cost c;
	tlc_cost__init(&c, TLC_EVIDENCE_FORMULA_EXACT);
	static const int64_t max[] = { INT64_MAX }, one[] = { 1 };
	tlc_value vmax = tensor_v(1, max, TLC_DTYPE_UINT8);
	tlc_value v1 = tensor_v(1, one, TLC_DTYPE_UINT8);
	uint64_t u = 0;
	/* 2^63 - 1 still fits the fast path */
	assert_int_equal(h->cost_add_bytes(&c, TLC_FIELD_BYTES_WRITTEN, &vmax), 0);
	assert_field_str(&c, TLC_FIELD_BYTES_WRITTEN, "9223372036854775807");
	/* + 1 = 2^63: the sum overflows int64 */
	assert_int_equal(h->cost_add_bytes(&c, TLC_FIELD_BYTES_WRITTEN, &v1), 0);
	assert_field_str(&c, TLC_FIELD_BYTES_WRITTEN, "9223372036854775808");
	/* + (2^63 - 1) - 1 byte short of 2^64 ... = 2^64 - 2 + 1 */
	tlc_cost__reset(&c, TLC_EVIDENCE_FORMULA_EXACT);
	assert_int_equal(h->cost_add_bytes(&c, TLC_FIELD_BYTES_WRITTEN, &vmax), 0);
	assert_int_equal(h->cost_add_bytes(&c, TLC_FIELD_BYTES_WRITTEN, &vmax), 0);
	assert_field_str(&c, TLC_FIELD_BYTES_WRITTEN, "18446744073709551614");
	assert_int_equal(h->cost_add_bytes(&c, TLC_FIELD_BYTES_WRITTEN, &v1), 0);
	assert_int_equal(tlc_cost_get_u64(&u, &c, TLC_FIELD_BYTES_WRITTEN), 0);
	assert_true(u == UINT64_MAX);
	/* 2^64 no longer fits u64, and stays exact */
	assert_int_equal(h->cost_add_bytes(&c, TLC_FIELD_BYTES_WRITTEN, &v1), 0);
	assert_int_equal(tlc_cost_get_u64(&u, &c, TLC_FIELD_BYTES_WRITTEN), TLC_EOVERFLOW);
	assert_field_str(&c, TLC_FIELD_BYTES_WRITTEN, "18446744073709551616");
	/* cost_add on the same boundary: (2^63 - 1) * 1 twice, then 2 x 1 */
	assert_int_equal(h->cost_add(&c, TLC_FIELD_MACS, INT64_MAX, 0, NULL), 0);
	assert_int_equal(h->cost_add(&c, TLC_FIELD_MACS, 1, 1, max), 0);
	assert_int_equal(h->cost_add(&c, TLC_FIELD_MACS, 2, 1, one), 0);
	assert_field_str(&c, TLC_FIELD_MACS, "18446744073709551616");
	/* the reset after GMP totals: all zero again, the fast path resumes */
	tlc_cost__reset(&c, TLC_EVIDENCE_FORMULA_EXACT);
	for (int f = 0; f < TLC_FIELD_COUNT; f++)
		assert_field_str(&c, (tlc_cost_field)f, "0");
	assert_int_equal(h->cost_add_bytes(&c, TLC_FIELD_BYTES_WRITTEN, &v1), 0);
	assert_field_str(&c, TLC_FIELD_BYTES_WRITTEN, "1");
	tlc_cost__clear(&c);
}

/* lists: tensors counted in order, ints skipped, a nested list recursed;
 * float32 [2,3] = 24, bfloat16 [4] = 8, total 32 */
static void test_lists(void **state)
{
	(void)state;
	const tlc_host *h = tlc_host__table();
	tlc_cost c;
	tlc_cost__init(&c, TLC_EVIDENCE_FORMULA_EXACT);
	static const int64_t s23[] = { 2, 3 }, s4[] = { 4 }, neg[] = { 2, -1 };
	tlc_value inner[2];
	memset(inner, 0, sizeof inner);
	inner[0] = tensor_v(1, s4, TLC_DTYPE_BFLOAT16);
	inner[1].kind = TLC_VALUE_INT;
	tlc_value items[3];
	memset(items, 0, sizeof items);
	items[0] = tensor_v(2, s23, TLC_DTYPE_FLOAT32);
	items[1].kind = TLC_VALUE_INT;
	items[1].u.integer = 5;
	items[2].kind = TLC_VALUE_LIST;
	items[2].u.list.n = 2;
	items[2].u.list.items = inner;
	tlc_value list;
	memset(&list, 0, sizeof list);
	list.kind = TLC_VALUE_LIST;
	list.u.list.n = 3;
	list.u.list.items = items;
	assert_int_equal(h->cost_add_bytes(&c, TLC_FIELD_BYTES_READ, &list), 0);
	assert_field_str(&c, TLC_FIELD_BYTES_READ, "32");
	assert_false(tlc_cost_bytes_unknown(&c));
	/* an unknown element size marks bytes unknown, counts nothing */
	inner[1] = tensor_v(1, s4, TLC_DTYPE_NONE);
	assert_int_equal(h->cost_add_bytes(&c, TLC_FIELD_BYTES_READ, &list), 0);
	assert_field_str(&c, TLC_FIELD_BYTES_READ, "64");
	assert_true(tlc_cost_bytes_unknown(&c));
	/* a negative dim inside a list is refused and flagged */
	inner[1] = tensor_v(2, neg, TLC_DTYPE_FLOAT32);
	assert_int_equal(h->cost_add_bytes(&c, TLC_FIELD_BYTES_READ, &list), TLC_RULE_BAD_ARGS);
	assert_true(c.bad_factor);
	/* a bad field is refused for a sized tensor; NULL and scalars add nothing */
	assert_int_equal(h->cost_add_bytes(&c, TLC_FIELD_COUNT, &items[0]), TLC_RULE_BAD_ARGS);
	assert_int_equal(h->cost_add_bytes(&c, TLC_FIELD_BYTES_READ, NULL), 0);
	assert_int_equal(h->cost_add_bytes(&c, TLC_FIELD_BYTES_READ, &items[1]), 0);
	/* a tensor with dims but no shape array is bad arguments */
	tlc_value noshape = tensor_v(2, NULL, TLC_DTYPE_FLOAT32);
	assert_int_equal(h->cost_add_bytes(&c, TLC_FIELD_BYTES_READ, &noshape), TLC_RULE_BAD_ARGS);
	tlc_cost__clear(&c);
}

/* read_inputs counts tensor arguments (and lists of them) only:
 * float32 [2,3] = 24 + int64 [5] = 40 + a list holding bfloat16 [4] = 8 */
static void test_read_inputs(void **state)
{
	(void)state;
	const tlc_host *h = tlc_host__table();
	tlc_cost c;
	tlc_cost__init(&c, TLC_EVIDENCE_FORMULA_EXACT);
	static const int64_t s23[] = { 2, 3 }, s5[] = { 5 }, s4[] = { 4 };
	tlc_value ints[2], tl[1];
	memset(ints, 0, sizeof ints);
	ints[0].kind = ints[1].kind = TLC_VALUE_INT;
	tl[0] = tensor_v(1, s4, TLC_DTYPE_BFLOAT16);
	tlc_value args[7];
	memset(args, 0, sizeof args);
	args[0] = tensor_v(2, s23, TLC_DTYPE_FLOAT32);
	args[1].kind = TLC_VALUE_INT;
	args[2].kind = TLC_VALUE_NONE;
	args[3].kind = TLC_VALUE_STRING;
	args[3].u.string = "same";
	args[4].kind = TLC_VALUE_LIST;
	args[4].u.list.n = 2;
	args[4].u.list.items = ints;
	args[5] = tensor_v(1, s5, TLC_DTYPE_INT64);
	args[6].kind = TLC_VALUE_LIST;
	args[6].u.list.n = 1;
	args[6].u.list.items = tl;
	tlc_op op;
	memset(&op, 0, sizeof op);
	op.size = sizeof op;
	op.name = "t::op";
	op.nargs = 7;
	op.args = args;
	assert_int_equal(h->read_inputs(&c, &op), 0);
	assert_field_str(&c, TLC_FIELD_BYTES_READ, "72");
	tlc_cost__clear(&c);
}

/* Test rule: macs += v, other += 1, bytes read += v, written += 2, with v
 * the op's int arg0 (a coefficient with no factors). */
static int coeff_rule(tlc_cost *out, const tlc_op *op, const tlc_host *h, void *payload)
{
	(void)payload;
	int64_t v = op->args[0].u.integer;
	h->cost_add(out, TLC_FIELD_MACS, v, 0, NULL);
	h->cost_add(out, TLC_FIELD_OTHER_FLOPS, 1, 0, NULL);
	h->cost_add(out, TLC_FIELD_BYTES_READ, v, 0, NULL);
	h->cost_add(out, TLC_FIELD_BYTES_WRITTEN, 2, 0, NULL);
	return TLC_RULE_OK;
}


/* eval's per-phase totals: the second op overflows macs and bytes read in
 * int64 while other FLOPs and bytes written do not (each field must still
 * be added once), the third adds to GMP totals. v = 2^63 - 1, 2^63 - 1, 2:
 * macs = bytes read = 2^64, other = 3, written = 6, FLOPs = 2 * 2^64 + 3. */
static void test_eval_totals_boundary(void **state)
{
	(void)state;
	tlc_engine_options o = { sizeof o, TLC_ENGINE_NO_BUILTINS, NULL };
	tlc_engine *eng;
	assert_int_equal(tlc_engine_new(&eng, &o), 0);
	tlc_rule_def d = { sizeof d, "t::coeff", TLC_RULE_COST, TLC_EVIDENCE_FORMULA_EXACT,
		           coeff_rule, NULL, "test", 0 };
	assert_int_equal(tlc_engine_register_rule(eng, &d), 0);
	tlc_eval *ev;
	assert_int_equal(tlc_eval_new(&ev, eng, NULL), 0);
	const int64_t vs[] = { INT64_MAX, INT64_MAX, 2 };
	for (int i = 0; i < 3; i++) {
		tlc_value arg;
		memset(&arg, 0, sizeof arg);
		arg.kind = TLC_VALUE_INT;
		arg.u.integer = vs[i];
		tlc_op op;
		memset(&op, 0, sizeof op);
		op.size = sizeof op;
		op.id = i;
		op.name = "t::coeff";
		op.phase = TLC_PHASE_FORWARD;
		op.nargs = 1;
		op.args = &arg;
		assert_int_equal(tlc_eval_push_op(ev, &op), 0);
	}
	assert_int_equal(tlc_eval_finish(ev), 0);
	assert_total(ev, TLC_TOTAL_MACS, "18446744073709551616");
	assert_total(ev, TLC_TOTAL_OTHER_FLOPS, "3");
	assert_total(ev, TLC_TOTAL_BYTES_READ, "18446744073709551616");
	assert_total(ev, TLC_TOTAL_BYTES_WRITTEN, "6");
	assert_total(ev, TLC_TOTAL_FLOPS, "36893488147419103235");
	tlc_eval_free(ev);
	tlc_engine_free(eng);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_product_overflow),
		cmocka_unit_test(test_sum_boundary),
		cmocka_unit_test(test_lists),
		cmocka_unit_test(test_read_inputs),
		cmocka_unit_test(test_eval_totals_boundary),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
