/* Held op records (engine/store/held.c, on engine/store/record.c): a record packed while it waits for
 * a later parent unpacks to exactly what was pushed (every field, every
 * value kind, NULL and "" strings kept apart, array pointers kept or NULL),
 * and takes the bytes its layout says. The expected sizes are counted by
 * hand from the layout in record.h's header comment (one byte per small
 * variable-length integer, strings as length + 1 then the bytes), not read
 * back from the code. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "tlcost/tlcost.h"
#include "held.h"

static void same_str(const char *a, const char *b)
{
	if (!a || !b)
		assert_ptr_equal(a, b);
	else
		assert_string_equal(a, b);
}

static void same_value(const tlc_value *a, const tlc_value *b);

static void same_values(const tlc_value *a, const tlc_value *b, size_t n)
{
	assert_int_equal(a == NULL, b == NULL);
	for (size_t i = 0; a && i < n; i++)
		same_value(&a[i], &b[i]);
}

static void same_ints(const int64_t *a, const int64_t *b, size_t n)
{
	assert_int_equal(a == NULL, b == NULL);
	if (a && n)
		assert_memory_equal(a, b, n * sizeof *a);
}

static void same_value(const tlc_value *a, const tlc_value *b)
{
	assert_int_equal(a->kind, b->kind);
	switch (a->kind) {
	case TLC_VALUE_BOOL: assert_int_equal(a->u.boolean, b->u.boolean); break;
	case TLC_VALUE_INT: assert_true(a->u.integer == b->u.integer); break;
	case TLC_VALUE_FLOAT: assert_memory_equal(&a->u.real, &b->u.real, sizeof a->u.real); break;
	case TLC_VALUE_STRING: same_str(a->u.string, b->u.string); break;
	case TLC_VALUE_TENSOR:
		assert_int_equal(a->u.tensor.ndim, b->u.tensor.ndim);
		assert_int_equal(a->u.tensor.dtype, b->u.tensor.dtype);
		same_ints(a->u.tensor.shape, b->u.tensor.shape, a->u.tensor.ndim);
		same_ints(a->u.tensor.stride, b->u.tensor.stride, a->u.tensor.ndim);
		same_str(a->u.tensor.dtype_name, b->u.tensor.dtype_name);
		same_str(a->u.tensor.device, b->u.tensor.device);
		break;
	case TLC_VALUE_LIST:
		assert_int_equal(a->u.list.n, b->u.list.n);
		same_values(a->u.list.items, b->u.list.items, a->u.list.n);
		break;
	default: break;
	}
}

static void same_op(const tlc_op *a, const tlc_op *b)
{
	assert_int_equal(b->size, sizeof *b);
	assert_int_equal(a->flags, b->flags);
	assert_true(a->id == b->id);
	same_str(a->name, b->name);
	same_str(a->overload, b->overload);
	assert_int_equal(a->phase, b->phase);
	same_str(a->module, b->module);
	same_str(a->module_type, b->module_type);
	const int64_t ia[] = { a->module_call, a->parent, a->host_ns, a->start_ns, a->end_ns,
		               a->thread, a->correlation };
	const int64_t ib[] = { b->module_call, b->parent, b->host_ns, b->start_ns, b->end_ns,
		               b->thread, b->correlation };
	assert_memory_equal(ia, ib, sizeof ia);
	assert_int_equal(a->nargs, b->nargs);
	same_values(a->args, b->args, a->nargs);
	assert_int_equal(a->nkwargs, b->nkwargs);
	assert_int_equal(a->kwargs == NULL, b->kwargs == NULL);
	for (size_t i = 0; a->kwargs && i < a->nkwargs; i++) {
		same_str(a->kwargs[i].name, b->kwargs[i].name);
		same_value(&a->kwargs[i].value, &b->kwargs[i].value);
	}
	if (a->flags & TLC_OP_HAS_OUTPUTS) {
		assert_int_equal(a->noutputs, b->noutputs);
		same_values(a->outputs, b->outputs, a->noutputs);
	} else {
		assert_int_equal(b->noutputs, 0);
		assert_null(b->outputs);
	}
}

static tlc_op *round_trip(const tlc_op *op, uint64_t line, tlc_arena *ar, uint32_t *size)
{
	static tlc_op back;
	tlc_held *h;
	assert_int_equal(tlc_held__pack(&h, tlc_alloc__default(), op, line), 0);
	assert_non_null(h);
	*size = h->size;
	uint64_t l;
	int64_t id;
	tlc_held__key(h, &l, &id);
	assert_true(l == line);
	assert_true(id == op->id);
	assert_int_equal(tlc_held__unpack(&back, h, ar), 0);
	tlc_alloc__free(tlc_alloc__default(), h);
	return &back;
}

static void test_every_field_round_trips(void **state)
{
	(void)state;
	static const int64_t shape[] = { 8, 1024, INT64_MAX }, stride[] = { -1, 0, INT64_MIN };
	static const int64_t empty[1] = { 0 };
	tlc_value inner[3];
	memset(inner, 0, sizeof inner);
	inner[0].kind = TLC_VALUE_NONE;
	inner[1].kind = TLC_VALUE_UNRECORDED;
	inner[2].kind = TLC_VALUE_LIST; /* an empty list with its pointer set */
	inner[2].u.list.items = &inner[0];
	tlc_value args[9];
	memset(args, 0, sizeof args);
	args[0].kind = TLC_VALUE_TENSOR;
	args[0].u.tensor = (tlc_tensor){ 3, shape, stride, TLC_DTYPE_BFLOAT16, "bfloat16", "cuda:1" };
	args[1].kind = TLC_VALUE_TENSOR; /* a name of its own: kept as written */
	args[1].u.tensor = (tlc_tensor){ 0, empty, NULL, TLC_DTYPE_OTHER, "qint4x2", NULL };
	args[2].kind = TLC_VALUE_TENSOR; /* no name, no shape pointer */
	args[2].u.tensor = (tlc_tensor){ 0, NULL, NULL, TLC_DTYPE_NONE, NULL, NULL };
	args[3].kind = TLC_VALUE_INT;
	args[3].u.integer = INT64_MIN;
	args[4].kind = TLC_VALUE_FLOAT;
	args[4].u.real = -0.0;
	args[5].kind = TLC_VALUE_STRING;
	args[5].u.string = "";
	args[6].kind = TLC_VALUE_BOOL;
	args[6].u.boolean = 1;
	args[7].kind = TLC_VALUE_LIST;
	args[7].u.list.n = 3;
	args[7].u.list.items = inner;
	args[8].kind = TLC_VALUE_LIST; /* empty, pointer NULL */
	tlc_kwarg kw[2];
	memset(kw, 0, sizeof kw);
	kw[0].name = "alpha";
	kw[0].value.kind = TLC_VALUE_FLOAT;
	kw[0].value.u.real = 0.5;
	kw[1].name = "out";
	kw[1].value = args[0];
	tlc_op op;
	memset(&op, 0, sizeof op);
	op.size = sizeof op;
	op.flags = TLC_OP_HAS_PARENT | TLC_OP_HAS_OUTPUTS | TLC_OP_HAS_MODULE_CALL | TLC_OP_HAS_HOST_NS;
	op.id = INT64_MAX;
	op.name = "aten::addmm";
	op.overload = "";     /* "" and NULL stay apart */
	op.module = NULL;
	op.module_type = "Linear";
	op.phase = TLC_PHASE_BACKWARD;
	op.module_call = -3;
	op.parent = 7;
	op.host_ns = INT64_MAX;
	op.start_ns = INT64_MIN;
	op.end_ns = 1;
	op.thread = -1;
	op.correlation = -5; /* not the id */
	op.nargs = 9;
	op.args = args;
	op.nkwargs = 2;
	op.kwargs = kw;
	op.noutputs = 1;
	op.outputs = args;
	tlc_arena ar;
	tlc_arena__init(&ar, tlc_alloc__default(), 256);
	uint32_t size;
	same_op(&op, round_trip(&op, UINT64_MAX, &ar, &size));
	tlc_arena__reset(&ar);
	/* outputs without TLC_OP_HAS_OUTPUTS are not part of the record */
	op.flags &= ~TLC_OP_HAS_OUTPUTS;
	same_op(&op, round_trip(&op, 0, &ar, &size));
	tlc_arena__free(&ar);
}

/* A plain record costs its header and a byte per small field. */
static void test_sizes_by_hand(void **state)
{
	(void)state;
	tlc_op op;
	memset(&op, 0, sizeof op);
	op.size = sizeof op;
	op.flags = TLC_OP_HAS_PARENT;
	op.id = 5;
	op.parent = 9;
	op.correlation = 5;
	op.name = "a::b";
	tlc_arena ar;
	tlc_arena__init(&ar, tlc_alloc__default(), 256);
	uint32_t size;
	same_op(&op, round_trip(&op, 3, &ar, &size));
	/* line, id, flags, phase: 4; module_call..correlation-id: 7 (parent 9
	 * zigzags to 18, still one byte); name: 1 + 4; overload, module,
	 * module_type: NULL, 1 each; args, kwargs, outputs: 1 each */
	size_t hdr = offsetof(tlc_held, data);
	assert_int_equal(size, hdr + 4 + 7 + 5 + 3 + 3);
	/* one [8,1024] bfloat16 tensor argument: kind (5 zigzagged = 10), ndim,
	 * dtype, flags, 8 (16), 1024 (2048: two bytes), its dtype name is
	 * bfloat16's own: a flag, no bytes. 7 bytes */
	static const int64_t shape[] = { 8, 1024 };
	tlc_value arg;
	memset(&arg, 0, sizeof arg);
	arg.kind = TLC_VALUE_TENSOR;
	arg.u.tensor = (tlc_tensor){ 2, shape, NULL, TLC_DTYPE_BFLOAT16, "bfloat16", NULL };
	op.nargs = 1;
	op.args = &arg;
	tlc_arena__reset(&ar);
	same_op(&op, round_trip(&op, 3, &ar, &size));
	assert_int_equal(size, hdr + 4 + 7 + 5 + 3 + 3 + 7);
	tlc_arena__free(&ar);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_field_round_trips),
		cmocka_unit_test(test_sizes_by_hand),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
