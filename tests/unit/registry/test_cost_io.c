/* The once-per-op byte sums (tlc_cost__io_check: the values checked and
 * their bytes summed in one walk, then added by host->read_inputs and
 * host->write_outputs instead of a second walk) against the per-helper
 * count they replace, at the int64 boundaries; and the op-type lookup by
 * name pointer (tlc_eval_set_stable_names).
 *
 * Every expected number is worked by hand from element size x dims:
 * float32 4, float16/bfloat16 2, int64/float64 8, int32 4, uint8 1 bytes.
 * The big ones were checked with Python integers: 2^63 - 1 =
 * 9223372036854775807, 2^63 = 9223372036854775808, 2^63 + 1 =
 * 9223372036854775809, 2 * (2^63 - 1) = 18446744073709551614. Each sum is
 * also compared with the walk the host makes without a summary (the
 * per-helper count), which must agree exactly. */
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
#include "eval.h"

#define tensor_v fx_tensor
#define list_v fx_list

static tlc_op op_of(const char *name, size_t nargs, const tlc_value *args)
{
	tlc_op op;
	memset(&op, 0, sizeof op);
	op.size = sizeof op;
	op.name = name;
	op.nargs = nargs;
	op.args = args;
	return op;
}

static void with_outputs(tlc_op *op, size_t n, const tlc_value *outs)
{
	op->flags |= TLC_OP_HAS_OUTPUTS;
	op->noutputs = n;
	op->outputs = outs;
}

static void assert_field_str(const tlc_cost *c, tlc_cost_field f, const char *want)
{
	char *s = NULL;
	assert_int_equal(tlc_cost_get_str(&s, c, f), 0);
	assert_string_equal(s, want);
	free(s);
}

/* Bytes read and written of op through the host, once with the summary of
 * op (the fast path) and once without (the walk); both must be `read` and
 * `written` (NULL: write_outputs is not asked), with bytes_unknown `unk`. */
static void assert_both_ways(const tlc_op *op, const char *read, const char *written, int unk)
{
	const tlc_host *h = tlc_host__table();
	for (int fast = 0; fast < 2; fast++) {
		tlc_cost c;
		tlc_cost__init(&c, TLC_EVIDENCE_FORMULA_EXACT);
		if (fast)
			assert_null(tlc_cost__io_check(&c.io, op));
		assert_int_equal(h->read_inputs(&c, op), 0);
		assert_field_str(&c, TLC_FIELD_BYTES_READ, read);
		if (written) {
			assert_int_equal(h->write_outputs(&c, op, NULL), 0);
			assert_field_str(&c, TLC_FIELD_BYTES_WRITTEN, written);
		}
		assert_int_equal(tlc_cost_bytes_unknown(&c), unk);
		tlc_cost__clear(&c);
	}
}

/* args: float32 [2,3] = 24, an int, None, a string, a list of two ints,
 * int64 [5] = 40, a list holding bfloat16 [4] = 8, a list holding a list
 * holding uint8 [3] = 3; kwargs: scale float16 [10] = 20, out float32 [7]
 * (written, not read); read = 24 + 40 + 8 + 3 + 20 = 95. outputs: float32
 * [2,3] = 24 and a list holding int32 [2] = 8: written = 32. */
static void test_sums_by_hand(void **state)
{
	(void)state;
	static const int64_t s23[] = { 2, 3 }, s5[] = { 5 }, s4[] = { 4 }, s3[] = { 3 };
	static const int64_t s10[] = { 10 }, s7[] = { 7 }, s2[] = { 2 };
	tlc_value ints[2], bf[1], u8[1], inner[1], i32[1];
	memset(ints, 0, sizeof ints);
	ints[0].kind = ints[1].kind = TLC_VALUE_INT;
	bf[0] = tensor_v(1, s4, TLC_DTYPE_BFLOAT16);
	u8[0] = tensor_v(1, s3, TLC_DTYPE_UINT8);
	inner[0] = list_v(1, u8);
	i32[0] = tensor_v(1, s2, TLC_DTYPE_INT32);
	tlc_value args[8];
	memset(args, 0, sizeof args);
	args[0] = tensor_v(2, s23, TLC_DTYPE_FLOAT32);
	args[1].kind = TLC_VALUE_INT;
	args[2].kind = TLC_VALUE_NONE;
	args[3].kind = TLC_VALUE_STRING;
	args[3].u.string = "same";
	args[4] = list_v(2, ints);
	args[5] = tensor_v(1, s5, TLC_DTYPE_INT64);
	args[6] = list_v(1, bf);
	args[7] = list_v(1, inner);
	tlc_kwarg kw[2];
	memset(kw, 0, sizeof kw);
	kw[0].name = "scale";
	kw[0].value = tensor_v(1, s10, TLC_DTYPE_FLOAT16);
	kw[1].name = "out";
	kw[1].value = tensor_v(1, s7, TLC_DTYPE_FLOAT32);
	tlc_value outs[2] = { tensor_v(2, s23, TLC_DTYPE_FLOAT32), list_v(1, i32) };
	tlc_op op = op_of("t::io", 8, args);
	op.nkwargs = 2;
	op.kwargs = kw;
	with_outputs(&op, 2, outs);

	tlc_cost_io io;
	memset(&io, 0, sizeof io);
	assert_null(tlc_cost__io_check(&io, &op));
	assert_ptr_equal(io.op, &op);
	assert_true(io.read == 95 && io.read_ok && !io.read_unknown);
	assert_true(io.written == 32 && io.written_ok && !io.written_unknown);
	assert_both_ways(&op, "95", "32", 0);
}

/* An unknown element size adds nothing and marks the bytes unknown, on
 * both paths: TLC_DTYPE_OTHER [4] + float32 [1] = 4 bytes known. */
static void test_unknown_dtype(void **state)
{
	(void)state;
	static const int64_t s4[] = { 4 }, s1[] = { 1 };
	tlc_value args[2] = { tensor_v(1, s4, TLC_DTYPE_OTHER), tensor_v(1, s1, TLC_DTYPE_FLOAT32) };
	tlc_op op = op_of("t::io", 2, args);
	tlc_cost_io io;
	assert_null(tlc_cost__io_check(&io, &op));
	assert_true(io.read == 4 && io.read_ok && io.read_unknown);
	assert_both_ways(&op, "4", NULL, 1);
}

/* The int64 edges: a sum of exactly 2^63 - 1 is kept; one byte more, or a
 * product of 8 x 2^60 = 2^63, is not (the host walks and counts exactly). */
static void test_boundaries(void **state)
{
	(void)state;
	static const int64_t max[] = { INT64_MAX }, one[] = { 1 }, p60[] = { INT64_C(1) << 60 };
	tlc_cost_io io;

	tlc_value a1[1] = { tensor_v(1, max, TLC_DTYPE_UINT8) };
	tlc_op op = op_of("t::io", 1, a1);
	assert_null(tlc_cost__io_check(&io, &op));
	assert_true(io.read == INT64_MAX && io.read_ok);
	assert_both_ways(&op, "9223372036854775807", NULL, 0);

	tlc_value a2[2] = { tensor_v(1, max, TLC_DTYPE_UINT8), tensor_v(1, one, TLC_DTYPE_UINT8) };
	op = op_of("t::io", 2, a2);
	assert_null(tlc_cost__io_check(&io, &op));
	assert_false(io.read_ok);
	assert_both_ways(&op, "9223372036854775808", NULL, 0);

	tlc_value a3[1] = { tensor_v(1, p60, TLC_DTYPE_FLOAT64) };
	op = op_of("t::io", 1, a3);
	assert_null(tlc_cost__io_check(&io, &op));
	assert_false(io.read_ok);
	assert_both_ways(&op, "9223372036854775808", NULL, 0);

	/* outputs summing to 2 * (2^63 - 1): written is walked */
	tlc_value outs[2] = { tensor_v(1, max, TLC_DTYPE_UINT8), tensor_v(1, max, TLC_DTYPE_UINT8) };
	op = op_of("t::io", 1, a1);
	with_outputs(&op, 2, outs);
	assert_null(tlc_cost__io_check(&io, &op));
	assert_true(io.read_ok && !io.written_ok);
	assert_both_ways(&op, "9223372036854775807", "18446744073709551614", 0);
}

/* A kept sum added to a field already near (and past) 2^63: the add is
 * exact. 2^63 - 1 + 1 = 2^63, then + 1 = 2^63 + 1. */
static void test_add_to_big_field(void **state)
{
	(void)state;
	const tlc_host *h = tlc_host__table();
	static const int64_t max[] = { INT64_MAX }, one[] = { 1 };
	tlc_value vmax = tensor_v(1, max, TLC_DTYPE_UINT8);
	tlc_value a1[1] = { tensor_v(1, one, TLC_DTYPE_UINT8) };
	tlc_op op = op_of("t::io", 1, a1);
	tlc_cost c;
	tlc_cost__init(&c, TLC_EVIDENCE_FORMULA_EXACT);
	assert_int_equal(h->cost_add_bytes(&c, TLC_FIELD_BYTES_READ, &vmax), 0);
	assert_null(tlc_cost__io_check(&c.io, &op));
	assert_true(c.io.read == 1 && c.io.read_ok);
	assert_int_equal(h->read_inputs(&c, &op), 0);
	assert_field_str(&c, TLC_FIELD_BYTES_READ, "9223372036854775808");
	assert_int_equal(h->read_inputs(&c, &op), 0);
	assert_field_str(&c, TLC_FIELD_BYTES_READ, "9223372036854775809");
	tlc_cost__clear(&c);
}

/* The summary is op's only: another record is walked (float32 [2] = 8,
 * not op's 24), and without recorded outputs write_outputs writes its
 * fallback (int64 [3] = 24) whatever the summary says. */
static void test_summary_scope(void **state)
{
	(void)state;
	const tlc_host *h = tlc_host__table();
	static const int64_t s23[] = { 2, 3 }, s2[] = { 2 }, s3[] = { 3 };
	tlc_value a[1] = { tensor_v(2, s23, TLC_DTYPE_FLOAT32) };
	tlc_value b[1] = { tensor_v(1, s2, TLC_DTYPE_FLOAT32) };
	tlc_op op = op_of("t::io", 1, a), other = op_of("t::io", 1, b);
	tlc_value fb = tensor_v(1, s3, TLC_DTYPE_INT64);
	tlc_cost c;
	tlc_cost__init(&c, TLC_EVIDENCE_FORMULA_EXACT);
	assert_null(tlc_cost__io_check(&c.io, &op));
	assert_false(c.io.written_ok); /* no outputs recorded */
	assert_int_equal(h->read_inputs(&c, &other), 0);
	assert_field_str(&c, TLC_FIELD_BYTES_READ, "8");
	assert_int_equal(h->write_outputs(&c, &op, &fb), 0);
	assert_field_str(&c, TLC_FIELD_BYTES_WRITTEN, "24");
	assert_int_equal(h->write_outputs(&c, &op, NULL), TLC_RULE_MISSING_ARGS);
	tlc_cost__clear(&c);
}

/* Lists nested 65 deep (depths 0..64) pass; 66 deep fail, as do a negative
 * dim (also one after a product already past int64), dims without a shape,
 * an unnamed kwarg and a negative output dim, each naming its field. */
static void test_invalid(void **state)
{
	(void)state;
	static const int64_t neg[] = { 2, -1 }, p60[] = { INT64_C(1) << 60 };
	static const int64_t wide_then_neg[] = { INT64_C(1) << 60, 16, -3 }, s1[] = { 1 };
	tlc_cost_io io;
	const char *args_msg = "args (negative shape entry or nesting deeper than 64)";

	tlc_value chain[67];
	chain[66] = tensor_v(1, s1, TLC_DTYPE_UINT8);
	for (int i = 65; i >= 0; i--)
		chain[i] = list_v(1, &chain[i + 1]);
	tlc_op op = op_of("t::io", 1, &chain[1]); /* lists chain[1..65]: 65 */
	assert_null(tlc_cost__io_check(&io, &op));
	assert_int_equal(io.read, 1);
	op = op_of("t::io", 1, &chain[0]); /* 66 */
	assert_string_equal(tlc_cost__io_check(&io, &op), args_msg);

	tlc_value a[2] = { tensor_v(1, p60, TLC_DTYPE_FLOAT64), tensor_v(2, neg, TLC_DTYPE_FLOAT32) };
	op = op_of("t::io", 2, a);
	assert_string_equal(tlc_cost__io_check(&io, &op), args_msg);
	tlc_value w[1] = { tensor_v(3, wide_then_neg, TLC_DTYPE_FLOAT64) };
	op = op_of("t::io", 1, w);
	assert_string_equal(tlc_cost__io_check(&io, &op), args_msg);
	tlc_value noshape[1] = { tensor_v(2, NULL, TLC_DTYPE_FLOAT32) };
	op = op_of("t::io", 1, noshape);
	assert_string_equal(tlc_cost__io_check(&io, &op), args_msg);

	tlc_kwarg kw[1];
	memset(kw, 0, sizeof kw);
	kw[0].value = tensor_v(1, s1, TLC_DTYPE_FLOAT32);
	op = op_of("t::io", 0, NULL);
	op.nkwargs = 1;
	op.kwargs = kw;
	assert_string_equal(tlc_cost__io_check(&io, &op),
	                    "kwargs (unnamed, negative shape entry or too deep)");

	tlc_value outs[1] = { tensor_v(2, neg, TLC_DTYPE_FLOAT32) };
	op = op_of("t::io", 0, NULL);
	with_outputs(&op, 1, outs);
	assert_string_equal(tlc_cost__io_check(&io, &op),
	                    "outputs (negative shape entry or nesting deeper than 64)");

	/* the C API refuses it with the typed error, naming the field */
	tlc_engine *eng;
	tlc_eval *ev;
	assert_int_equal(tlc_engine_new(&eng, NULL), 0);
	assert_int_equal(tlc_eval_new(&ev, eng, NULL), 0);
	assert_int_equal(tlc_eval_push_op(ev, &op), TLC_EINPUT);
	assert_string_equal(tlc_error_last()->code, "oplog_field_invalid");
	assert_non_null(strstr(tlc_error_last()->message, "invalid field outputs"));
	tlc_eval_free(ev);
	tlc_engine_free(eng);
}

/* ---- through the eval ---- */

/* other = 1, then bytes read and written through the host's helpers. */
static int io_rule(tlc_cost *out, const tlc_op *op, const tlc_host *h, void *payload)
{
	(void)payload;
	h->cost_add(out, TLC_FIELD_OTHER_FLOPS, 1, 0, NULL);
	int rc = h->read_inputs(out, op);
	return rc < 0 ? rc : h->write_outputs(out, op, NULL);
}

static tlc_engine *io_engine(void)
{
	tlc_engine_options o = { sizeof o, TLC_ENGINE_NO_BUILTINS, NULL };
	tlc_engine *eng;
	assert_int_equal(tlc_engine_new(&eng, &o), 0);
	tlc_rule_def d = { sizeof d, "t::io", TLC_RULE_COST, TLC_EVIDENCE_FORMULA_EXACT, io_rule,
		           NULL, "test", 0 };
	assert_int_equal(tlc_engine_register_rule(eng, &d), 0);
	return eng;
}


/* Three records, the same through tlc_eval_push_op (summed while checked)
 * and through the reader's path (tlc_eval__push_op_checked: no summary,
 * the helpers walk): op 0 (t::io) reads uint8 [2^63 - 1] and writes uint8
 * [1]; op 2 (t::io) is pushed before its parent op 1, so it is held and
 * resolved later from its packed copy: it reads uint8 [1] and writes
 * float32 [2] = 8; op 1 (t::none, no rule: unknown, so its child is still
 * counted) adds nothing. read = 2^63 - 1 + 1 = 2^63 = 9223372036854775808;
 * written = 1 + 8 = 9; other = 2. */
static void test_eval_both_paths(void **state)
{
	(void)state;
	static const int64_t max[] = { INT64_MAX }, one[] = { 1 }, two[] = { 2 };
	tlc_value big[1] = { tensor_v(1, max, TLC_DTYPE_UINT8) };
	tlc_value b1[1] = { tensor_v(1, one, TLC_DTYPE_UINT8) };
	tlc_value f2[1] = { tensor_v(1, two, TLC_DTYPE_FLOAT32) };
	for (int checked = 0; checked < 2; checked++) {
		tlc_engine *eng = io_engine();
		tlc_eval *ev;
		assert_int_equal(tlc_eval_new(&ev, eng, NULL), 0);
		tlc_op ops[3] = { op_of("t::io", 1, big), op_of("t::io", 1, b1),
			          op_of("t::none", 1, f2) };
		with_outputs(&ops[0], 1, b1);
		with_outputs(&ops[1], 1, f2);
		with_outputs(&ops[2], 1, b1);
		ops[1].id = 2;
		ops[1].flags |= TLC_OP_HAS_PARENT;
		ops[1].parent = 1;
		ops[2].id = 1;
		for (int i = 0; i < 3; i++)
			assert_int_equal(checked ? tlc_eval__push_op_checked(ev, &ops[i]) :
			                           tlc_eval_push_op(ev, &ops[i]), 0);
		assert_int_equal(tlc_eval_finish(ev), 0);
		assert_total(ev, TLC_TOTAL_BYTES_READ, "9223372036854775808");
		assert_total(ev, TLC_TOTAL_BYTES_WRITTEN, "9");
		assert_total(ev, TLC_TOTAL_OTHER_FLOPS, "2");
		tlc_eval_free(ev);
		tlc_engine_free(eng);
	}
}

/* ---- op types by name pointer ---- */

/* The count of the op type named full ("name" or "name.overload"), or -1. */
static int64_t type_count(const tlc_eval *ev, const char *full)
{
	for (size_t i = 0; i < tlc_eval_optype_count(ev); i++)
		if (strcmp(tlc_eval_optype_at(ev, i)->name, full) == 0)
			return (int64_t)tlc_eval_optype_at(ev, i)->count;
	return -1;
}

static void push_named(tlc_eval *ev, int64_t id, const char *name, const char *ovl)
{
	tlc_op op = op_of(name, 0, NULL);
	op.id = id;
	op.overload = ovl;
	assert_int_equal(tlc_eval_push_op(ev, &op), 0);
}

/* Without the promise, one buffer holding different names is read by
 * content: "t::a" twice, then "t::b" once. */
static void test_names_by_content(void **state)
{
	(void)state;
	tlc_engine *eng = io_engine();
	tlc_eval *ev;
	assert_int_equal(tlc_eval_new(&ev, eng, NULL), 0);
	char buf[16];
	strcpy(buf, "t::a");
	push_named(ev, 0, buf, NULL);
	push_named(ev, 1, buf, NULL);
	strcpy(buf, "t::b");
	push_named(ev, 2, buf, NULL);
	assert_int_equal(tlc_eval_finish(ev), 0);
	assert_int_equal(tlc_eval_optype_count(ev), 2);
	assert_int_equal(type_count(ev, "t::a"), 2);
	assert_int_equal(type_count(ev, "t::b"), 1);
	tlc_eval_free(ev);
	tlc_engine_free(eng);
}

/* With the promise: literals, one name under two overloads and none are
 * three types (t::a 2, t::a.x 1, t::b 1). A promise made after records
 * from a reused buffer forgets their pointers: the buffer, now holding
 * "t::b", is t::b (1 more, 2), not the t::a it held before. */
static void test_stable_names(void **state)
{
	(void)state;
	tlc_engine *eng = io_engine();
	tlc_eval *ev;
	assert_int_equal(tlc_eval_new(&ev, eng, NULL), 0);
	char buf[16];
	strcpy(buf, "t::a");
	push_named(ev, 0, buf, NULL);
	assert_int_equal(tlc_eval_set_stable_names(ev, 1), 0);
	strcpy(buf, "t::b");
	push_named(ev, 1, buf, NULL);
	push_named(ev, 2, "t::a", NULL);
	push_named(ev, 3, "t::a", "x");
	push_named(ev, 4, "t::b", NULL);
	assert_int_equal(tlc_eval_finish(ev), 0);
	assert_int_equal(tlc_eval_optype_count(ev), 3);
	assert_int_equal(type_count(ev, "t::a"), 2);
	assert_int_equal(type_count(ev, "t::a.x"), 1);
	assert_int_equal(type_count(ev, "t::b"), 2);
	tlc_eval_free(ev);
	tlc_engine_free(eng);
	assert_int_equal(tlc_eval_set_stable_names(NULL, 1), TLC_EINVAL);
	assert_string_equal(tlc_error_last()->code, "invalid_argument");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sums_by_hand),
		cmocka_unit_test(test_unknown_dtype),
		cmocka_unit_test(test_boundaries),
		cmocka_unit_test(test_add_to_big_field),
		cmocka_unit_test(test_summary_scope),
		cmocka_unit_test(test_invalid),
		cmocka_unit_test(test_eval_both_paths),
		cmocka_unit_test(test_names_by_content),
		cmocka_unit_test(test_stable_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
