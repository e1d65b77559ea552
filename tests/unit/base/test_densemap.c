/* The dense id map (engine/base/idmap.c, tlc_densemap). Expectations come
 * from the documented policy, worked by hand, not from a run: the first
 * key that is not negative is the base and the array's first room is 64
 * keys; a key k past the array (base <= k) doubles it when k - base < 2 *
 * dcap and at least dcap / 2 keys are in it; every other key (negative,
 * below the base, too far ahead, or the array too empty) goes to the
 * sparse id map, and moves into the array when a growth covers it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tlcost/tlcost.h"
#include "alloc.h"
#include "idmap.h"

#include "../failing_alloc.h"

static int64_t *put(tlc_densemap *m, int64_t key, int64_t value, int want_created)
{
	int created = -1;
	int64_t *v = tlc_densemap__put(m, key, &created);
	assert_non_null(v);
	assert_int_equal(created, want_created);
	if (want_created)
		assert_int_equal(*v, 0); /* zero-filled */
	*v = value;
	return v;
}

static void expect(const tlc_densemap *m, int64_t key, int64_t value)
{
	const int64_t *v = tlc_densemap__get(m, key);
	assert_non_null(v);
	assert_int_equal(*v, value);
}

/* Keys 0..9999 in order: all in the array, which doubles from 64 to the
 * first 64 * 2^j >= 10000, i.e. 16384 (each growth finds the array full,
 * so the half-used test always passes). Then a map of zero-size values. */
static void test_ascending(void **state)
{
	(void)state;
	tlc_densemap m;
	tlc_densemap__init(&m, tlc_alloc__default(), sizeof(int64_t));
	assert_null(tlc_densemap__get(&m, 0)); /* empty: nothing allocated yet */
	assert_null(tlc_densemap__get(&m, -3));
	for (int64_t k = 0; k < 10000; k++)
		put(&m, k, k * 5 + 1, 1);
	assert_int_equal(m.base, 0);
	assert_int_equal(m.dcap, 16384);
	assert_int_equal(m.dcount, 10000);
	assert_int_equal(m.sparse.count, 0);
	for (int64_t k = 0; k < 10000; k++)
		expect(&m, k, k * 5 + 1);
	assert_null(tlc_densemap__get(&m, 10000)); /* in the room, never put */
	assert_null(tlc_densemap__get(&m, 16384)); /* past the room */
	put(&m, 7, 70, 0);                          /* present: not created again */
	expect(&m, 7, 70);
	assert_int_equal(tlc_densemap__count(&m), 10000);
	tlc_densemap__free(&m);

	/* values of no size: a set (the presence bits alone) */
	tlc_densemap__init(&m, tlc_alloc__default(), 0);
	for (int64_t k = 0; k < 100; k++)
		assert_non_null(tlc_densemap__put(&m, k, NULL));
	assert_non_null(tlc_densemap__get(&m, 99));
	assert_null(tlc_densemap__get(&m, 100));
	assert_int_equal(tlc_densemap__count(&m), 100);
	tlc_densemap__free(&m);
}

/* Gaps: every second key keeps the array half used, so it keeps growing
 * (keys 0, 2, ..., 62 are 32 = 64 / 2 keys when key 64 comes); every third
 * key leaves 22 keys (0, 3, ..., 63) in the first 64, fewer than 32, so
 * every key from 66 on goes to the sparse map. */
static void test_gaps(void **state)
{
	(void)state;
	tlc_densemap m;
	tlc_densemap__init(&m, tlc_alloc__default(), sizeof(int64_t));
	for (int64_t k = 0; k < 3000; k += 2)
		put(&m, k, -k, 1);
	assert_int_equal(m.dcap, 4096); /* first 64 * 2^j > 2998 */
	assert_int_equal(m.sparse.count, 0);
	for (int64_t k = 0; k < 3000; k++) {
		if (k % 2)
			assert_null(tlc_densemap__get(&m, k));
		else
			expect(&m, k, -k);
	}
	tlc_densemap__free(&m);

	tlc_densemap__init(&m, tlc_alloc__default(), sizeof(int64_t));
	for (int64_t k = 0; k < 3000; k += 3)
		put(&m, k, k + 1, 1);
	assert_int_equal(m.dcap, 64);
	assert_int_equal(m.dcount, 22);
	assert_int_equal(m.sparse.count, 1000 - 22); /* 0..2997 step 3: 1000 keys */
	for (int64_t k = 0; k < 3000; k++) {
		if (k % 3)
			assert_null(tlc_densemap__get(&m, k));
		else
			expect(&m, k, k + 1);
	}
	tlc_densemap__free(&m);
}

/* Descending from 999: the base is 999, so only 999 is in the array and
 * the 999 keys below it are all sparse; each is found. */
static void test_descending(void **state)
{
	(void)state;
	tlc_densemap m;
	tlc_densemap__init(&m, tlc_alloc__default(), sizeof(int64_t));
	for (int64_t k = 999; k >= 0; k--)
		put(&m, k, 2 * k, 1);
	assert_int_equal(m.base, 999);
	assert_int_equal(m.dcap, 64);
	assert_int_equal(m.dcount, 1);
	assert_int_equal(m.sparse.count, 999);
	for (int64_t k = 0; k < 1000; k++)
		expect(&m, k, 2 * k);
	assert_null(tlc_densemap__get(&m, 1000)); /* in the room (999..1062), not put */
	tlc_densemap__free(&m);
}

/* Negative keys never start or enter the array; INT64_MAX as the first
 * other key is the base (its room reaches past INT64_MAX only in unsigned
 * arithmetic, never as a key); 0 and INT64_MAX - 1 are below the base,
 * so sparse. */
static void test_huge(void **state)
{
	(void)state;
	tlc_densemap m;
	tlc_densemap__init(&m, tlc_alloc__default(), sizeof(int64_t));
	put(&m, -1, 11, 1);
	put(&m, INT64_MIN, 12, 1);
	assert_int_equal(m.dcap, 0);
	assert_int_equal(m.sparse.count, 2);
	put(&m, INT64_MAX, 13, 1);
	assert_int_equal(m.base, INT64_MAX);
	assert_int_equal(m.dcount, 1);
	put(&m, 0, 14, 1);
	put(&m, INT64_MAX - 1, 15, 1);
	assert_int_equal(m.dcount, 1);
	assert_int_equal(m.sparse.count, 4);
	expect(&m, -1, 11);
	expect(&m, INT64_MIN, 12);
	expect(&m, INT64_MAX, 13);
	expect(&m, 0, 14);
	expect(&m, INT64_MAX - 1, 15);
	assert_null(tlc_densemap__get(&m, 1));
	assert_null(tlc_densemap__get(&m, INT64_MIN + 1));
	put(&m, INT64_MAX, 16, 0);
	expect(&m, INT64_MAX, 16);
	tlc_densemap__free(&m);
}

/* A key too far ahead waits in the sparse map and moves into the array
 * when a growth covers it: keys 0..31 (dcap 64, 32 used), then 150
 * (150 >= 2 * 64: sparse) and 300, then 32..127 (key 64 grows the room to
 * 128), then 128 (128 < 2 * 128, 128 used: the room grows to 256 and
 * takes 150 from the sparse map; 300 stays there). */
static void test_exceptions_move_back(void **state)
{
	(void)state;
	tlc_densemap m;
	tlc_densemap__init(&m, tlc_alloc__default(), sizeof(int64_t));
	for (int64_t k = 0; k < 32; k++)
		put(&m, k, k, 1);
	put(&m, 150, 1500, 1);
	put(&m, 300, 3000, 1);
	assert_int_equal(m.dcap, 64);
	assert_int_equal(m.sparse.count, 2);
	for (int64_t k = 32; k < 128; k++)
		put(&m, k, k, 1);
	assert_int_equal(m.dcap, 128);
	assert_int_equal(m.sparse.count, 2);
	uint64_t epoch = tlc_densemap__epoch(&m);
	put(&m, 128, 128, 1);
	assert_int_equal(m.dcap, 256);
	assert_true(tlc_densemap__epoch(&m) != epoch); /* values moved */
	assert_int_equal(m.sparse.count, 1);
	assert_null(tlc_idmap__get(&m.sparse, 150)); /* in one place only */
	assert_int_equal(m.dcount, 130);               /* 0..128 and 150 */
	put(&m, 150, 1501, 0);                         /* found where it moved */
	expect(&m, 150, 1501);
	expect(&m, 300, 3000);
	for (int64_t k = 0; k <= 128; k++)
		expect(&m, k, k);
	assert_int_equal(tlc_densemap__count(&m), 131);
	tlc_densemap__free(&m);
}

/* Allocation failure at every allocation of putting 0..2999, then 10
 * sparse keys: the failing put returns NULL with out_of_memory, every key
 * put before keeps its value, and nothing leaks. */
static void test_alloc_failure(void **state)
{
	(void)state;
	int completed = 0;
	for (long k = 0; !completed; k++) {
		failing f = { 0, 0, k };
		tlc_allocator a = alloc_of(&f);
		tlc_densemap m;
		tlc_densemap__init(&m, &a, sizeof(int64_t));
		int64_t done = 0;
		for (; done < 3010; done++) {
			int64_t key = done < 3000 ? done : -1 - done;
			int64_t *v = tlc_densemap__put(&m, key, NULL);
			if (!v) {
				assert_string_equal(tlc_error_last()->code, "out_of_memory");
				break;
			}
			*v = done;
		}
		completed = done == 3010;
		for (int64_t i = 0; i < done; i++)
			expect(&m, i < 3000 ? i : -1 - i, i);
		if (!completed)
			assert_null(tlc_densemap__get(&m, done < 3000 ? done : -1 - done));
		tlc_densemap__free(&m);
		assert_int_equal(f.live, 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ascending),
		cmocka_unit_test(test_gaps),
		cmocka_unit_test(test_descending),
		cmocka_unit_test(test_huge),
		cmocka_unit_test(test_exceptions_move_back),
		cmocka_unit_test(test_alloc_failure),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
