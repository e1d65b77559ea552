/* Compact row storage (engine/eval/rows.c, issue 17 item 3): delta columns
 * read back every int64 exactly (extremes, values just inside and just
 * outside a 32-bit delta, block boundaries), 32-bit time columns fall back
 * exactly past UINT32_MAX - 1, rows round-trip every field (absent parent,
 * strings with unusual bytes, shared tuples), and a failing allocation at
 * any point leaves the store as it was and leaks nothing. Expected values
 * are the pushed values themselves; the exception counts are worked out by
 * hand in the comments from the encoding (value = block base + int32 delta,
 * the block base being the block's first value, INT32_MIN reserved). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "rows.h"
#include "overlay.h"

#include "../failing_alloc.h"

static void push_all(tlc_col *c, const tlc_allocator *a, const int64_t *v, size_t n)
{
	assert_int_equal(tlc_col__reserve(c, a, c->n + n), 0);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(tlc_col__push(c, v[i]), 0);
}

/* Block base INT64_MAX (the first value): INT64_MAX - 1 and INT64_MAX -
 * 2^31 + 1 are deltas -1 and -(2^31 - 1), inside; INT64_MAX - 2^31 is delta
 * INT32_MIN (reserved) and INT64_MIN overflows the subtraction: 2 wide.
 * Then 0 (delta -INT64_MAX, wide), -1 (wide): 4 wide in all. */
static void test_col_extremes(void **state)
{
	(void)state;
	failing f = { 0, 0, -1 };
	tlc_allocator a = alloc_of(&f);
	tlc_col c;
	tlc_col__init(&c, &a);
	const int64_t v[] = { INT64_MAX, INT64_MAX - 1, INT64_MAX - 2147483647LL,
	                      INT64_MAX - 2147483648LL, INT64_MIN, 0, -1 };
	push_all(&c, &a, v, 7);
	assert_int_equal(c.n, 7);
	for (size_t i = 0; i < 7; i++)
		assert_true(tlc_col__get(&c, i) == v[i]);
	assert_int_equal(c.wide.count, 4);
	tlc_col__free(&c, &a);
	assert_int_equal(f.live, 0);
}

/* A second block starts at index 256 with its own base: 256 values
 * 10^18 + i (base 10^18, deltas 0..255), then 256 values -5 - i (base -5,
 * deltas 0..-255): nothing wide although the two blocks lie 10^18 apart.
 * Value 512 (index 512 starts block 3, base 7) is 7 and 513 is 7 + 2^31 - 1
 * (inside), 514 is 7 - 2^31 (delta INT32_MIN: wide): 1 wide. */
static void test_col_blocks(void **state)
{
	(void)state;
	failing f = { 0, 0, -1 };
	tlc_allocator a = alloc_of(&f);
	tlc_col c;
	tlc_col__init(&c, &a);
	int64_t v[515];
	for (int i = 0; i < 256; i++) {
		v[i] = 1000000000000000000LL + i;
		v[256 + i] = -5 - i;
	}
	v[512] = 7;
	v[513] = 7 + 2147483647LL;
	v[514] = 7 - 2147483648LL;
	push_all(&c, &a, v, 515);
	for (size_t i = 0; i < 515; i++)
		assert_true(tlc_col__get(&c, i) == v[i]);
	assert_int_equal(c.wide.count, 1);
	/* truncating drops the wide value too, and pushes go on from there */
	tlc_col__truncate(&c, 514);
	assert_int_equal(c.n, 514);
	assert_int_equal(c.wide.count, 0);
	assert_int_equal(tlc_col__push(&c, INT64_MIN), 0);
	assert_true(tlc_col__get(&c, 514) == INT64_MIN);
	tlc_col__free(&c, &a);
	assert_int_equal(f.live, 0);
}

/* Time columns: 0 .. UINT32_MAX - 1 narrow; UINT32_MAX (the marker), any
 * negative and INT64_MAX wide; setting a wide slot narrow again drops its
 * exception. */
static void test_tcol(void **state)
{
	(void)state;
	failing f = { 0, 0, -1 };
	tlc_allocator a = alloc_of(&f);
	tlc_tcol c;
	assert_int_equal(tlc_tcol__init(&c, &a, 6), 0);
	const int64_t v[] = { 0, (int64_t)UINT32_MAX - 1, (int64_t)UINT32_MAX, -1, INT64_MAX, INT64_MIN };
	for (size_t i = 0; i < 6; i++)
		assert_int_equal(tlc_tcol__set(&c, i, v[i]), 0);
	for (size_t i = 0; i < 6; i++)
		assert_true(tlc_tcol__get(&c, i) == v[i]);
	assert_int_equal(c.wide.count, 4);
	assert_int_equal(tlc_tcol__set(&c, 2, 42), 0);
	assert_int_equal(tlc_tcol__get(&c, 2), 42);
	assert_int_equal(c.wide.count, 3);
	tlc_tcol__free(&c, &a);
	assert_int_equal(f.live, 0);
}

static tlc_op_row row_n(int i, const char *const *strs)
{
	tlc_op_row r = TLC_OP_ROW_INIT;
	r.id = i == 2 ? INT64_MAX : (int64_t)i * 3;
	r.parent = i % 2 ? (int64_t)i * 3 - 3 : -1;
	r.name = strs[i % 3];
	r.overload = "";
	r.phase = (tlc_phase)(i % 2);
	r.module = strs[(i + 1) % 3];
	r.module_type = i % 2 ? NULL : strs[2];
	r.module_call = i % 2 ? -1 : INT64_MIN;
	r.cls = i % 2 ? TLC_CLASS_KNOWN : TLC_CLASS_UNKNOWN;
	r.reason = "no_rule";
	r.shapes = "[8,16]f32";
	r.op_flags = TLC_OP_HAS_START_NS | (i % 2 ? TLC_OP_HAS_PARENT : 0);
	r.host_ns = i == 3 ? INT64_MAX : 15;
	r.start_ns = 1700000000000000000LL + i * 20000;
	r.end_ns = i == 1 ? INT64_MIN : r.start_ns + 15;
	r.thread = i == 4 ? -1 : 123456789012345LL;
	r.correlation = -1;
	return r;
}

static void expect_row(const tlc_op_row *got, const tlc_op_row *want)
{
	assert_int_equal(got->size, sizeof *got);
	assert_true(got->id == want->id);
	assert_true(got->parent == want->parent);
	assert_ptr_equal(got->name, want->name);
	assert_ptr_equal(got->overload, want->overload);
	assert_int_equal(got->phase, want->phase);
	assert_ptr_equal(got->module, want->module);
	assert_ptr_equal(got->module_type, want->module_type);
	assert_true(got->module_call == want->module_call);
	assert_int_equal(got->cls, want->cls);
	assert_ptr_equal(got->reason, want->reason);
	assert_ptr_equal(got->shapes, want->shapes);
	assert_ptr_equal(got->cost, want->cost);
	assert_int_equal(got->op_flags, want->op_flags);
	assert_true(got->host_ns == want->host_ns);
	assert_true(got->start_ns == want->start_ns);
	assert_true(got->end_ns == want->end_ns);
	assert_true(got->thread == want->thread);
	assert_true(got->correlation == want->correlation);
}

/* Strings with NUL-free unusual bytes are kept as the pointers given (the
 * eval's interned ones). Six rows alternate between two tuples of
 * repeating fields per parity, but names and modules cycle with period 3:
 * the tuple of row i is fixed by (i % 2, i % 3), i.e. by i % 6: 6 kinds. */
static void test_rows_roundtrip(void **state)
{
	(void)state;
	static const char *const strs[] = { "aten::\xff\xfe\x01", "m\xc3\xa9tal.\x7f", "\t\r\n \x1b[0m" };
	failing f = { 0, 0, -1 };
	tlc_allocator a = alloc_of(&f);
	tlc_rows r;
	tlc_rows__init(&r, &a);
	for (int i = 0; i < 6; i++) {
		tlc_op_row in = row_n(i, strs);
		assert_int_equal(tlc_rows__push(&r, &in), 0);
	}
	assert_int_equal(r.n, 6);
	assert_int_equal(r.nkinds, 6);
	for (int i = 0; i < 6; i++) {
		tlc_op_row want = row_n(i, strs), got;
		tlc_rows__get(&r, (size_t)i, &got);
		expect_row(&got, &want);
		assert_int_equal(got.row_flags, 0); /* no join: no device time */
		assert_int_equal(got.attribution, TLC_ATTR_NONE);
	}
	/* 12 more rows repeat rows 0..5: no new kind */
	for (int i = 0; i < 12; i++) {
		tlc_op_row in = row_n(i % 6, strs);
		assert_int_equal(tlc_rows__push(&r, &in), 0);
	}
	assert_int_equal(r.nkinds, 6);
	tlc_rows__free(&r);
	assert_int_equal(f.live, 0);
}

/* Device time (the join's overlay of the rows): init available -> unattributed with the flag; an add on
 * row 1 (5 + INT64_MAX saturates to INT64_MAX); ambiguous does not
 * override attributed; init unavailable -> no flag, times gone. */
static void test_rows_times(void **state)
{
	(void)state;
	static const char *const strs[] = { "a", "b", "c" };
	failing f = { 0, 0, -1 };
	tlc_allocator a = alloc_of(&f);
	tlc_rows r;
	tlc_rows__init(&r, &a);
	for (int i = 0; i < 3; i++) {
		tlc_op_row in = row_n(i, strs);
		assert_int_equal(tlc_rows__push(&r, &in), 0);
	}
	tlc_overlay ov;
	assert_int_equal(tlc_overlay__init(&ov, &a, 3, 1), 0);
	assert_int_equal(tlc_overlay__add(&ov, 1, 5, 5), 0);
	assert_int_equal(tlc_overlay__add(&ov, 1, INT64_MAX, 0), 0);
	tlc_overlay__ambiguous(&ov, 1);
	tlc_overlay__ambiguous(&ov, 2);
	tlc_op_row g;
	tlc_rows__get(&r, 0, &g);
	tlc_overlay__fill(&ov, 0, &g);
	assert_int_equal(g.attribution, TLC_ATTR_UNATTRIBUTED);
	assert_int_equal(g.row_flags, TLC_ROW_HAS_DEVICE_TIME);
	assert_int_equal(g.device_time_ns, 0);
	tlc_rows__get(&r, 1, &g);
	tlc_overlay__fill(&ov, 1, &g);
	assert_int_equal(g.attribution, TLC_ATTR_ATTRIBUTED);
	assert_true(g.device_time_ns == INT64_MAX);
	assert_int_equal(g.kernel_time_ns, 5);
	tlc_rows__get(&r, 2, &g);
	tlc_overlay__fill(&ov, 2, &g);
	assert_int_equal(g.attribution, TLC_ATTR_AMBIGUOUS);
	tlc_overlay__free(&ov);
	assert_int_equal(tlc_overlay__init(&ov, &a, 3, 0), 0);
	tlc_rows__get(&r, 1, &g);
	tlc_overlay__fill(&ov, 1, &g);
	assert_int_equal(g.attribution, TLC_ATTR_UNAVAILABLE);
	assert_int_equal(g.row_flags, 0);
	assert_int_equal(g.device_time_ns, 0);
	tlc_overlay__free(&ov);
	tlc_rows__free(&r);
	assert_int_equal(f.live, 0);
}

/* Allocation failure at every allocation of pushing 600 rows (wide values
 * included, three blocks): the failing push returns TLC_ENOMEM and leaves
 * the store with the rows pushed before it, each reading back exactly; the
 * free leaks nothing. */
static void test_rows_alloc_failure(void **state)
{
	(void)state;
	static const char *const strs[] = { "x", "y", "z" };
	for (long k = 0; k < 400; k++) {
		failing f = { 0, 0, k };
		tlc_allocator a = alloc_of(&f);
		tlc_rows r;
		tlc_rows__init(&r, &a);
		size_t ok = 0;
		for (int i = 0; i < 600; i++) {
			tlc_op_row in = row_n(i, strs);
			if (tlc_rows__push(&r, &in) < 0)
				break;
			ok++;
		}
		assert_int_equal(r.n, ok);
		for (size_t i = 0; i < ok; i++) {
			tlc_op_row want = row_n((int)i, strs), got;
			tlc_rows__get(&r, i, &got);
			expect_row(&got, &want);
		}
		f.fail_at = -1; /* the store goes on after a failure */
		tlc_op_row in = row_n((int)ok, strs), got;
		assert_int_equal(tlc_rows__push(&r, &in), 0);
		tlc_rows__get(&r, ok, &got);
		expect_row(&got, &in);
		tlc_rows__free(&r);
		assert_int_equal(f.live, 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_col_extremes),
		cmocka_unit_test(test_col_blocks),
		cmocka_unit_test(test_tcol),
		cmocka_unit_test(test_rows_roundtrip),
		cmocka_unit_test(test_rows_times),
		cmocka_unit_test(test_rows_alloc_failure),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
