/* The helpers of the plugin host table (include/tlcost/plugin.h), called
 * exactly as an outside plugin calls them. Expected values are worked by
 * hand from the definitions in plugin.h (torch.matmul and conv output-size
 * formulas, numpy broadcasting). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tlcost/tlcost.h"
#include "cost.h"

static const tlc_host *H;

static tlc_tensor tensor(size_t ndim, const int64_t *shape)
{
	tlc_tensor t;
	memset(&t, 0, sizeof t);
	t.ndim = ndim;
	t.shape = shape;
	t.dtype = TLC_DTYPE_FLOAT32;
	return t;
}

static void test_present(void **state)
{
	(void)state;
	H = tlc_host__table();
	assert_true(TLC_HOST_HAS(H, op_kwarg));
	assert_true(TLC_HOST_HAS(H, dtype_parse));
	assert_int_equal(H->size, sizeof(tlc_host));
}

static void test_args(void **state)
{
	(void)state;
	static const int64_t xs[] = { 2, 3 };
	tlc_value args[2];
	memset(args, 0, sizeof args);
	args[0].kind = TLC_VALUE_TENSOR;
	args[0].u.tensor = tensor(2, xs);
	args[1].kind = TLC_VALUE_INT;
	args[1].u.integer = 7;
	tlc_kwarg kw[2];
	memset(kw, 0, sizeof kw);
	kw[0].name = "stride";
	kw[0].value.kind = TLC_VALUE_INT;
	kw[0].value.u.integer = 2;
	kw[1].name = "gone";
	kw[1].value.kind = TLC_VALUE_NONE;
	tlc_op op;
	memset(&op, 0, sizeof op);
	op.size = sizeof op;
	op.name = "t::op";
	op.nargs = 2;
	op.args = args;
	op.nkwargs = 2;
	op.kwargs = kw;

	assert_ptr_equal(H->arg(&op, 0, "x"), &args[0]);          /* by position */
	assert_ptr_equal(H->arg(&op, 5, "stride"), &kw[0].value);  /* by name */
	assert_null(H->arg(&op, 5, "gone"));                       /* null = absent */
	assert_null(H->arg(&op, 5, NULL));
	assert_ptr_equal(H->tensor_arg(&op, 0, NULL), &args[0].u.tensor);
	assert_null(H->tensor_arg(&op, 1, NULL));                  /* an int */
	assert_null(H->output(&op, 0));                            /* none recorded */

	int64_t v = -1;
	assert_int_equal(H->int_arg_or(&v, &op, 1, "n", 0), 0);
	assert_int_equal(v, 7);
	assert_int_equal(H->int_arg_or(&v, &op, 9, "absent", 42), 0);
	assert_int_equal(v, 42);
	int64_t l[2] = { 0, 0 };
	assert_int_equal(H->int_list_arg(l, 2, &op, 9, "stride", 1), 0); /* 2 means [2,2] */
	assert_int_equal(l[0], 2);
	assert_int_equal(l[1], 2);
	assert_int_equal(H->int_list_arg(l, 2, &op, 9, "padding", 0), 0);
	assert_int_equal(l[0], 0);
	assert_int_equal(l[1], 0);
}

static void test_shapes(void **state)
{
	(void)state;
	static const int64_t s[] = { 4, 5, 6 };
	tlc_tensor t = tensor(3, s);
	assert_int_equal(H->dim(&t, 0), 4);
	assert_int_equal(H->dim(&t, -1), 6);
	assert_int_equal(H->dim(&t, 3), -1);
	int64_t n = 0;
	assert_int_equal(H->numel(&n, &t), 0);
	assert_int_equal(n, 120);

	/* [8,1,6] with [7,1] -> [8,7,6] */
	static const int64_t a[] = { 8, 1, 6 }, b[] = { 7, 1 }, c[] = { 3 };
	int64_t out[TLC_HOST_MAX_DIMS];
	size_t nout = 0;
	assert_int_equal(H->broadcast(out, &nout, a, 3, b, 2), 0);
	assert_int_equal(nout, 3);
	assert_int_equal(out[0], 8);
	assert_int_equal(out[1], 7);
	assert_int_equal(out[2], 6);
	assert_int_equal(H->broadcast(out, &nout, a, 3, c, 1), TLC_RULE_BAD_ARGS); /* 6 vs 3 */

	/* matmul [2,1,3,4] x [5,4,7]: batch [2,5], M 3, K 4, N 7, out [2,5,3,7] */
	static const int64_t ma[] = { 2, 1, 3, 4 }, mb[] = { 5, 4, 7 }, v4[] = { 4 };
	tlc_tensor ta = tensor(4, ma), tb = tensor(3, mb), tv = tensor(1, v4);
	tlc_matmul_shape g;
	memset(&g, 0, sizeof g);
	g.size = sizeof g;
	assert_int_equal(H->matmul_shape(&g, &ta, &tb), 0);
	assert_int_equal(g.nbatch, 2);
	assert_int_equal(g.batch[0], 2);
	assert_int_equal(g.batch[1], 5);
	assert_int_equal(g.m, 3);
	assert_int_equal(g.k, 4);
	assert_int_equal(g.n, 7);
	assert_int_equal(g.nout, 4);
	assert_int_equal(g.out[3], 7);
	/* matrix x vector: [3,4] x [4] -> [3] */
	static const int64_t m34[] = { 3, 4 };
	tlc_tensor t34 = tensor(2, m34);
	assert_int_equal(H->matmul_shape(&g, &t34, &tv), 0);
	assert_int_equal(g.nout, 1);
	assert_int_equal(g.out[0], 3);
	assert_int_equal(H->matmul_shape(&g, &tb, &ta), TLC_RULE_BAD_ARGS); /* K 7 vs 3 */
	g.size = 4; /* an older, shorter struct */
	assert_int_equal(H->matmul_shape(&g, &ta, &tb), TLC_RULE_BAD_ARGS);

	/* conv: in 224, k 7, s 2, p 3, d 1 -> (224 + 6 - 6 - 1) / 2 + 1 = 112 */
	int64_t o = 0;
	assert_int_equal(H->conv_out_size(&o, 224, 7, 2, 3, 1, 0, 0), 0);
	assert_int_equal(o, 112);
	/* transposed: in 56, k 4, s 2, p 1, d 1, op 0 -> 55*2 - 2 + 3 + 0 + 1 = 112 */
	assert_int_equal(H->conv_out_size(&o, 56, 4, 2, 1, 1, 0, 1), 0);
	assert_int_equal(o, 112);
	assert_int_equal(H->conv_out_size(&o, 2, 7, 1, 0, 1, 0, 0), TLC_RULE_BAD_ARGS);
	assert_int_equal(H->conv_out_size(&o, 8, 3, 0, 0, 1, 0, 0), TLC_RULE_BAD_ARGS);
}

static void test_dtype(void **state)
{
	(void)state;
	assert_int_equal(H->dtype_parse("bfloat16"), TLC_DTYPE_BFLOAT16);
	assert_int_equal(H->dtype_parse("torch.float16"), TLC_DTYPE_FLOAT16);
	assert_int_equal(H->dtype_parse("float4"), TLC_DTYPE_OTHER);
	assert_int_equal(H->dtype_parse(NULL), TLC_DTYPE_NONE);
	/* the one table, both ways, for every dtype with a name */
	for (int d = TLC_DTYPE_NONE + 1; d < TLC_DTYPE_OTHER; d++) {
		const char *n = tlc_dtype_names((tlc_dtype)d, NULL);
		assert_non_null(n);
		assert_int_equal(tlc_dtype_parse(n), d);
		assert_string_equal(tlc_dtype_name((tlc_dtype)d), n);
	}
}

static void test_io_bytes(void **state)
{
	(void)state;
	static const int64_t xs[] = { 2, 64 };
	tlc_value x;
	memset(&x, 0, sizeof x);
	x.kind = TLC_VALUE_TENSOR;
	x.u.tensor = tensor(2, xs);
	tlc_op op;
	memset(&op, 0, sizeof op);
	op.size = sizeof op;
	op.name = "t::op";
	op.nargs = 1;
	op.args = &x;
	char notebuf[128];
	tlc_cost cost, *c = &cost;
	tlc_cost__init(c, TLC_EVIDENCE_FORMULA_EXACT);
	c->notebuf = notebuf;
	c->notecap = sizeof notebuf;
	assert_int_equal(H->read_inputs(c, &op), 0);
	assert_int_equal(H->write_outputs(c, &op, &x), 0);
	uint64_t r = 0, w = 0;
	assert_int_equal(tlc_cost_get_u64(&r, c, TLC_FIELD_BYTES_READ), 0);
	assert_int_equal(tlc_cost_get_u64(&w, c, TLC_FIELD_BYTES_WRITTEN), 0);
	assert_int_equal(r, 512); /* 128 float32 */
	assert_int_equal(w, 512);
	assert_int_equal(H->write_outputs(c, &op, NULL), TLC_RULE_MISSING_ARGS);
	tlc_cost__clear(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_present), cmocka_unit_test(test_args),
		cmocka_unit_test(test_shapes),  cmocka_unit_test(test_dtype),
		cmocka_unit_test(test_io_bytes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
