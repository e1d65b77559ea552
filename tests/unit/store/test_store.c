/* The store's one op record encoding (engine/store/record.c): the bytes of
 * small values counted by hand from the layout in record.h's header
 * comment (not read back from the encoder), round trips under both writer
 * options, and bytes the encoder did not write (every cut, every flipped
 * byte, counts past the end, a long integer, trailing bytes, nesting too
 * deep) giving the typed errors store_record_corrupt and
 * store_record_too_deep, never a read past the end (each input is copied
 * into an allocation of exactly its size, so ASan and valgrind see one). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "tlcost/tlcost.h"
#include "held.h"
#include "record.h"

/* Decodes len bytes of p (copied to an exact allocation) as an args list. */
static int decode_values(const unsigned char *p, size_t len, tlc_arena *ar, tlc_value **v,
                         size_t *n)
{
	unsigned char *q = malloc(len ? len : 1);
	assert_non_null(q);
	memcpy(q, p, len);
	tlc_rec_r r;
	tlc_rec__r_init(&r, q, len, ar);
	*v = tlc_rec__get_values(&r, n);
	int rc = tlc_rec__r_done(&r);
	free(q);
	return rc;
}

static int decode_op(const unsigned char *p, size_t len, tlc_arena *ar, tlc_op *op)
{
	unsigned char *q = malloc(len ? len : 1);
	assert_non_null(q);
	memcpy(q, p, len);
	tlc_rec_r r;
	uint64_t line;
	tlc_rec__r_init(&r, q, len, ar);
	tlc_rec__get_op(&r, op, &line);
	int rc = tlc_rec__r_done(&r);
	free(q);
	return rc;
}

static void is_corrupt(int rc)
{
	assert_int_equal(rc, TLC_EINPUT);
	assert_string_equal(tlc_error_last()->code, "store_record_corrupt");
}

/* [INT -1, STRING "ab", BOOL true, NONE, UNRECORDED, empty list with its
 * pointer, empty list without] by hand: count 7 + 1 = 8; INT is kind 2,
 * zigzag 4, then -1 zigzag 1; STRING kind 4 -> 8, "ab" as 2 + 1 = 3 then
 * the bytes; BOOL kind 1 -> 2, true -> 2; NONE 0; UNRECORDED kind 7 -> 14;
 * LIST kind 6 -> 12, then count 0 + 1 = 1 (pointer set) or 0 (NULL). */
static void scalar_bytes_by_hand(void **state)
{
	(void)state;
	tlc_value v[7];
	memset(v, 0, sizeof v);
	v[0].kind = TLC_VALUE_INT;
	v[0].u.integer = -1;
	v[1].kind = TLC_VALUE_STRING;
	v[1].u.string = "ab";
	v[2].kind = TLC_VALUE_BOOL;
	v[2].u.boolean = 1;
	v[3].kind = TLC_VALUE_NONE;
	v[4].kind = TLC_VALUE_UNRECORDED;
	v[5].kind = TLC_VALUE_LIST;
	v[5].u.list.items = &v[0]; /* n = 0, pointer set */
	v[6].kind = TLC_VALUE_LIST;
	static const unsigned char want[] = { 0x08, 0x04, 0x01, 0x08, 0x03, 'a', 'b', 0x02, 0x02,
		                              0x00, 0x0e, 0x0c, 0x01, 0x0c, 0x00 };
	tlc_rec_w w;
	tlc_rec__w_init(&w, tlc_alloc__default(), 0);
	tlc_rec__put_values(&w, v, 7);
	assert_int_equal(w.rc, 0);
	assert_int_equal(w.n, sizeof want);
	assert_memory_equal(w.p, want, sizeof want);
	tlc_arena ar;
	tlc_arena__init(&ar, tlc_alloc__default(), 1024);
	tlc_value *back;
	size_t n;
	assert_int_equal(decode_values(w.p, w.n, &ar, &back, &n), 0);
	assert_int_equal(n, 7);
	assert_true(back[0].kind == TLC_VALUE_INT && back[0].u.integer == -1);
	assert_int_equal(back[1].kind, TLC_VALUE_STRING);
	assert_string_equal(back[1].u.string, "ab");
	assert_true(back[2].kind == TLC_VALUE_BOOL && back[2].u.boolean == 1);
	assert_int_equal(back[3].kind, TLC_VALUE_NONE);
	assert_int_equal(back[4].kind, TLC_VALUE_UNRECORDED);
	assert_int_equal(back[5].kind, TLC_VALUE_LIST);
	assert_int_equal(back[5].u.list.n, 0);
	assert_non_null(back[5].u.list.items); /* the pointer kept */
	assert_int_equal(back[6].kind, TLC_VALUE_LIST);
	assert_null(back[6].u.list.items);
	/* an empty args list: NULL is one byte 0 */
	tlc_rec__w_free(&w);
	tlc_rec__put_values(&w, NULL, 0);
	assert_int_equal(w.n, 1);
	assert_int_equal(w.p[0], 0);
	assert_int_equal(decode_values(w.p, w.n, &ar, &back, &n), 0);
	assert_null(back);
	assert_int_equal(n, 0);
	tlc_rec__w_free(&w);
	tlc_arena__free(&ar);
}

/* A [8, 1024] bfloat16 tensor by hand: kind 5 -> 10, dtype BFLOAT16 (4) ->
 * 8, flags SHAPE | NAME_OWN = 9, ndim 2, 8, then 1024 = 0x400 as two 7-bit
 * groups: 0x00 | 0x80, 0x08. Under the trace reader's options the name is
 * an interned pointer (flags 1 | 32 = 33, then its 8 bytes) and a 0-d
 * tensor's NULL shape is written as set (flags 1) and read back set. */
static void tensor_bytes_by_hand(void **state)
{
	(void)state;
	static const int64_t shape[] = { 8, 1024 };
	tlc_value v;
	memset(&v, 0, sizeof v);
	v.kind = TLC_VALUE_TENSOR;
	v.u.tensor = (tlc_tensor){ 2, shape, NULL, TLC_DTYPE_BFLOAT16, "bfloat16", NULL };
	static const unsigned char want[] = { 0x0a, 0x08, 0x09, 0x02, 0x08, 0x80, 0x08 };
	tlc_rec_w w;
	tlc_rec__w_init(&w, tlc_alloc__default(), 0);
	tlc_rec__put_value(&w, &v);
	assert_int_equal(w.n, sizeof want);
	assert_memory_equal(w.p, want, sizeof want);
	tlc_rec__w_free(&w);

	static const char interned[] = "c10::BFloat16";
	v.u.tensor.dtype_name = interned;
	tlc_rec__w_init(&w, tlc_alloc__default(), TLC_REC_NAMES_INTERNED | TLC_REC_SHAPES_RECORDED);
	tlc_rec__put_value(&w, &v);
	assert_int_equal(w.n, 7 + sizeof(const char *));
	assert_int_equal(w.p[2], 0x21);
	const char *ptr = interned;
	assert_memory_equal(w.p + 7, &ptr, sizeof ptr);
	tlc_arena ar;
	tlc_arena__init(&ar, tlc_alloc__default(), 1024);
	tlc_rec_r r;
	tlc_rec__r_init(&r, w.p, w.n, &ar);
	tlc_value back;
	tlc_rec__get_value(&r, &back);
	assert_int_equal(tlc_rec__r_done(&r), 0);
	assert_ptr_equal(back.u.tensor.dtype_name, interned); /* the same pointer */
	assert_int_equal(back.u.tensor.shape[1], 1024);
	tlc_rec__w_free(&w);

	tlc_value scalar;
	memset(&scalar, 0, sizeof scalar);
	scalar.kind = TLC_VALUE_TENSOR; /* 0-d, NULL shape, no name */
	tlc_rec__put_value(&w, &scalar);
	static const unsigned char want0[] = { 0x0a, 0x00, 0x01, 0x00 };
	assert_int_equal(w.n, sizeof want0);
	assert_memory_equal(w.p, want0, sizeof want0);
	tlc_rec__r_init(&r, w.p, w.n, &ar);
	tlc_rec__get_value(&r, &back);
	assert_int_equal(tlc_rec__r_done(&r), 0);
	assert_non_null(back.u.tensor.shape);
	assert_int_equal(back.u.tensor.ndim, 0);
	tlc_rec__w_free(&w);
	tlc_arena__free(&ar);
}

/* An op with every kind of value, for the cut and flip tests. */
static void rich_op(tlc_op *op, tlc_value *args, tlc_kwarg *kw)
{
	static const int64_t shape[] = { 8, 1024, INT64_MAX }, stride[] = { -1, 0, INT64_MIN };
	memset(args, 0, 6 * sizeof *args);
	args[0].kind = TLC_VALUE_TENSOR;
	args[0].u.tensor = (tlc_tensor){ 3, shape, stride, TLC_DTYPE_BFLOAT16, "bfloat16", "cuda:1" };
	args[1].kind = TLC_VALUE_TENSOR;
	args[1].u.tensor = (tlc_tensor){ 2, shape, NULL, TLC_DTYPE_OTHER, "qint4x2", NULL };
	args[2].kind = TLC_VALUE_FLOAT;
	args[2].u.real = 0.25;
	args[3].kind = TLC_VALUE_LIST;
	args[3].u.list.n = 2;
	args[3].u.list.items = &args[1];
	args[4].kind = TLC_VALUE_STRING;
	args[4].u.string = "mean";
	args[5].kind = TLC_VALUE_INT;
	args[5].u.integer = INT64_MIN;
	memset(kw, 0, sizeof *kw);
	kw->name = "alpha";
	kw->value = args[2];
	memset(op, 0, sizeof *op);
	op->size = sizeof *op;
	op->flags = TLC_OP_HAS_PARENT | TLC_OP_HAS_OUTPUTS;
	op->id = 77;
	op->parent = 3;
	op->correlation = 1000;
	op->name = "aten::addmm";
	op->overload = "";
	op->module = "model.layers.0";
	op->nargs = 6;
	op->args = args;
	op->nkwargs = 1;
	op->kwargs = kw;
	op->noutputs = 1;
	op->outputs = args;
}

static void every_cut_is_refused(void **state)
{
	(void)state;
	tlc_value args[6];
	tlc_kwarg kw;
	tlc_op op;
	rich_op(&op, args, &kw);
	tlc_rec_w w;
	tlc_rec__w_init(&w, tlc_alloc__default(), 0);
	tlc_rec__put_op(&w, &op, 12);
	assert_int_equal(w.rc, 0);
	tlc_arena ar;
	tlc_arena__init(&ar, tlc_alloc__default(), 1024);
	tlc_op back;
	assert_int_equal(decode_op(w.p, w.n, &ar, &back), 0);
	assert_true(back.id == 77 && back.parent == 3 && back.correlation == 1000);
	assert_string_equal(back.args[0].u.tensor.device, "cuda:1");
	assert_true(back.args[0].u.tensor.stride[2] == INT64_MIN);
	assert_true(back.args[0].u.tensor.shape[2] == INT64_MAX);
	assert_string_equal(back.args[3].u.list.items[0].u.tensor.dtype_name, "qint4x2");
	assert_true(back.args[5].u.integer == INT64_MIN);
	assert_string_equal(back.kwargs[0].name, "alpha");
	for (size_t cut = 0; cut < w.n; cut++) {
		tlc_arena__reset(&ar);
		is_corrupt(decode_op(w.p, cut, &ar, &back));
		/* the message names the byte where the bytes ran out */
		assert_non_null(strstr(tlc_error_last()->message, "byte"));
	}
	/* one byte more than the record */
	unsigned char *longer = malloc(w.n + 1);
	assert_non_null(longer);
	memcpy(longer, w.p, w.n);
	longer[w.n] = 0;
	tlc_arena__reset(&ar);
	is_corrupt(decode_op(longer, w.n + 1, &ar, &back));
	assert_non_null(strstr(tlc_error_last()->message, "after the record's end"));
	free(longer);
	tlc_rec__w_free(&w);
	tlc_arena__free(&ar);
}

/* Every byte flipped three ways reads back or is refused, typed. */
static void every_flip_is_typed(void **state)
{
	(void)state;
	tlc_value args[6];
	tlc_kwarg kw;
	tlc_op op;
	rich_op(&op, args, &kw);
	tlc_rec_w w;
	tlc_rec__w_init(&w, tlc_alloc__default(), 0);
	tlc_rec__put_op(&w, &op, 12);
	tlc_arena ar;
	tlc_arena__init(&ar, tlc_alloc__default(), 1024);
	static const unsigned char masks[] = { 0x01, 0x80, 0xff };
	size_t refused = 0;
	for (size_t i = 0; i < w.n; i++)
		for (size_t m = 0; m < sizeof masks; m++) {
			w.p[i] ^= masks[m];
			tlc_op back;
			tlc_arena__reset(&ar);
			int rc = decode_op(w.p, w.n, &ar, &back);
			if (rc) {
				is_corrupt(rc);
				refused++;
			}
			w.p[i] ^= masks[m];
		}
	assert_true(refused > 0);
	tlc_rec__w_free(&w);
	tlc_arena__free(&ar);
}

/* Hand-made hostile bytes. */
static void hostile_bytes(void **state)
{
	(void)state;
	tlc_arena ar;
	tlc_arena__init(&ar, tlc_alloc__default(), 1024);
	tlc_value *v;
	size_t n;
	/* an integer of 11 continuation bytes */
	static const unsigned char longint[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		                                 0xff, 0xff, 0xff, 0xff, 0xff, 0x01 };
	is_corrupt(decode_values(longint, sizeof longint, &ar, &v, &n));
	assert_non_null(strstr(tlc_error_last()->message, "longer than 10 bytes"));
	/* a count of 2^62 items with no bytes after it */
	static const unsigned char huge[] = { 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
		                              0x40 };
	is_corrupt(decode_values(huge, sizeof huge, &ar, &v, &n));
	assert_non_null(strstr(tlc_error_last()->message, "count larger"));
	/* one item, a string of 100 bytes with 1 left */
	static const unsigned char str[] = { 0x02, 0x08, 0x65, 'x' };
	is_corrupt(decode_values(str, sizeof str, &ar, &v, &n));
	/* a tensor with a flag no encoder writes (64) */
	static const unsigned char flag[] = { 0x02, 0x0a, 0x00, 0x40, 0x00 };
	is_corrupt(decode_values(flag, sizeof flag, &ar, &v, &n));
	/* a tensor of 100 dimensions, shape set, 1 byte left */
	static const unsigned char dims[] = { 0x02, 0x0a, 0x00, 0x01, 0x64, 0x00 };
	is_corrupt(decode_values(dims, sizeof dims, &ar, &v, &n));
	/* lists nested deeper than TLC_REC_MAX_DEPTH: [[[...]]] */
	size_t deep = TLC_REC_MAX_DEPTH + 3;
	unsigned char *nest = malloc(2 * deep + 2);
	assert_non_null(nest);
	nest[0] = 0x02; /* one argument */
	for (size_t i = 0; i < deep; i++) {
		nest[1 + 2 * i] = 0x0c;                     /* LIST */
		nest[2 + 2 * i] = i + 1 < deep ? 0x02 : 0x01; /* one item; the last empty */
	}
	is_corrupt(decode_values(nest, 2 * deep + 1, &ar, &v, &n));
	assert_non_null(strstr(tlc_error_last()->message, "nested deeper"));
	free(nest);
	tlc_arena__free(&ar);
}

/* A value nested past TLC_REC_MAX_DEPTH is refused by the encoder too (and
 * by tlc_held__pack, typed); one at the limit round-trips. */
static void too_deep_is_refused(void **state)
{
	(void)state;
	size_t deep = TLC_REC_MAX_DEPTH + 1;
	tlc_value *chain = calloc(deep + 1, sizeof *chain);
	assert_non_null(chain);
	for (size_t i = 0; i < deep; i++) {
		chain[i].kind = TLC_VALUE_LIST;
		chain[i].u.list.n = 1;
		chain[i].u.list.items = &chain[i + 1];
	}
	chain[deep].kind = TLC_VALUE_NONE;
	/* chain[1..] nests TLC_REC_MAX_DEPTH lists: the limit */
	tlc_rec_w w;
	tlc_rec__w_init(&w, tlc_alloc__default(), 0);
	tlc_rec__put_values(&w, &chain[1], 1);
	assert_int_equal(w.rc, 0);
	tlc_arena ar;
	tlc_arena__init(&ar, tlc_alloc__default(), 4096);
	tlc_value *v;
	size_t n;
	assert_int_equal(decode_values(w.p, w.n, &ar, &v, &n), 0);
	tlc_rec__w_free(&w);
	/* one more */
	tlc_rec__w_init(&w, tlc_alloc__default(), 0);
	tlc_rec__put_values(&w, chain, 1);
	assert_int_equal(w.rc, TLC_EINPUT);
	assert_string_equal(tlc_error_last()->code, "store_record_too_deep");
	tlc_rec__w_free(&w);
	tlc_op op;
	memset(&op, 0, sizeof op);
	op.size = sizeof op;
	op.name = "aten::deep";
	op.nargs = 1;
	op.args = chain;
	tlc_held *h = NULL;
	assert_int_equal(tlc_held__pack(&h, tlc_alloc__default(), &op, 1), TLC_EINPUT);
	assert_null(h);
	assert_string_equal(tlc_error_last()->code, "store_record_too_deep");
	free(chain);
	tlc_arena__free(&ar);
}

/* A held record's bytes cut short: unpack refuses them, typed. */
static void held_corrupt(void **state)
{
	(void)state;
	tlc_value args[6];
	tlc_kwarg kw;
	tlc_op op;
	rich_op(&op, args, &kw);
	tlc_held *h;
	assert_int_equal(tlc_held__pack(&h, tlc_alloc__default(), &op, 5), 0);
	tlc_arena ar;
	tlc_arena__init(&ar, tlc_alloc__default(), 1024);
	tlc_op back;
	assert_int_equal(tlc_held__unpack(&back, h, &ar), 0);
	h->size -= 1;
	tlc_arena__reset(&ar);
	is_corrupt(tlc_held__unpack(&back, h, &ar));
	tlc_alloc__free(tlc_alloc__default(), h);
	tlc_arena__free(&ar);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(scalar_bytes_by_hand),
		cmocka_unit_test(tensor_bytes_by_hand),
		cmocka_unit_test(every_cut_is_refused),
		cmocka_unit_test(every_flip_is_typed),
		cmocka_unit_test(hostile_bytes),
		cmocka_unit_test(too_deep_is_refused),
		cmocka_unit_test(held_corrupt),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
