/* The one hash index (engine/base/hindex.c) and its users the id map and
 * the interner. Expectations come from the documented policy, not from a
 * run: the table starts at 16 slots and holds at most 3/4 of its slots
 * (room(16) = 12, room(32) = 24), a slot is (hash, 1 + index), and a probe
 * walks linearly from hash & (nslots - 1). Collisions are forced by giving
 * the index made-up hashes (all equal, or all with the same low bits), so
 * the probing, the backward-shift removal and the wrap-around at the end of
 * the table are exercised by construction. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tlcost/tlcost.h"
#include "alloc.h"
#include "hindex.h"
#include "idmap.h"

#include "failing_alloc.h"

/* ---- a caller's own entries: int keys with made-up hashes ---- */
typedef struct table {
	tlc_hindex ix;
	int keys[256];
	uint64_t hashes[256];
	size_t n;
} table;

static int int_eq(size_t idx, const void *key, const void *payload)
{
	return ((const table *)payload)->keys[idx] == *(const int *)key;
}

static int put(table *t, int key, uint64_t h)
{
	if (tlc_hindex__reserve(&t->ix, t->n + 1) < 0)
		return -1;
	tlc_hslot *s = tlc_hindex__probe(&t->ix, h, int_eq, &key, t);
	if (s->idx1)
		return (int)(s->idx1 - 1);
	t->keys[t->n] = key;
	t->hashes[t->n] = h;
	tlc_hindex__fill(&t->ix, s, h, t->n);
	return (int)t->n++;
}

static size_t find(const table *t, int key, uint64_t h)
{
	return tlc_hindex__find(&t->ix, h, int_eq, &key, t);
}

/* Every key with the same full hash: the eq callback alone tells them
 * apart, and every one is found at the index it was given. */
static void test_same_hash(void **state)
{
	(void)state;
	table t = { 0 };
	tlc_hindex__init(&t.ix, tlc_alloc__default());
	assert_int_equal(find(&t, 1, 7), SIZE_MAX); /* empty index: no slots yet */
	for (int k = 0; k < 12; k++)
		assert_int_equal(put(&t, 100 + k, 7), k);
	assert_int_equal(t.ix.nslots, 16); /* 12 = room(16): no growth yet */
	for (int k = 0; k < 12; k++)
		assert_int_equal(find(&t, 100 + k, 7), k);
	assert_int_equal(t.ix.count, 12);
	assert_int_equal(find(&t, 99, 7), SIZE_MAX);
	assert_int_equal(find(&t, 100, 8), SIZE_MAX); /* right key, other hash */
	assert_int_equal(put(&t, 112, 7), 12); /* the 13th grows the table */
	assert_int_equal(t.ix.nslots, 32);
	for (int k = 0; k <= 12; k++) {
		assert_int_equal(find(&t, 100 + k, 7), k);
		assert_int_equal(put(&t, 100 + k, 7), k); /* present: same index */
	}
	assert_int_equal(t.ix.count, 13);
	tlc_hindex__free(&t.ix);
}

/* Distinct hashes with equal low bits (k << 20): one cluster from slot 0;
 * growth re-places by stored hash and still finds every key. Then 200 keys
 * force 16 -> 32 -> 64 -> 128 -> 256 -> 512 (200 > room(256) = 192). */
static void test_low_bits_and_growth(void **state)
{
	(void)state;
	table t = { 0 };
	tlc_hindex__init(&t.ix, tlc_alloc__default());
	for (int k = 0; k < 200; k++)
		assert_int_equal(put(&t, k, (uint64_t)k << 20), k);
	assert_int_equal(t.ix.nslots, 512);
	assert_int_equal(t.ix.count, 200);
	for (int k = 0; k < 200; k++)
		assert_int_equal(find(&t, k, (uint64_t)k << 20), k);
	assert_int_equal(find(&t, 200, (uint64_t)200 << 20), SIZE_MAX);
	tlc_hindex__free(&t.ix);
	assert_null(t.ix.slots);
}

/* Removal in a cluster that wraps from the last slot to the first: keys
 * 0..5 all have home 15 in a 16-slot table, so they sit in slots 15, 0, 1,
 * 2, 3, 4; key 20 has home 1 and sits after them (slot 5). Removing key 1
 * (slot 0) must shift 2..5 back one slot each (their home 15 is not in
 * (hole, slot]) and 20 from slot 5 to 4 (home 1 is not in (4, 5]), so that
 * each is still found. */
static void test_remove_wraps(void **state)
{
	(void)state;
	table t = { 0 };
	tlc_hindex__init(&t.ix, tlc_alloc__default());
	for (int k = 0; k < 6; k++)
		put(&t, k, 15 + ((uint64_t)k << 8)); /* low 4 bits 15, hashes distinct */
	put(&t, 20, 1);
	assert_int_equal(t.ix.nslots, 16);
	assert_int_equal(t.ix.slots[15].idx1, 1);
	assert_int_equal(t.ix.slots[0].idx1, 2);
	assert_int_equal(t.ix.slots[5].idx1, 7); /* key 20, index 6 */
	int key = 1;
	tlc_hslot *s = tlc_hindex__probe(&t.ix, t.hashes[1], int_eq, &key, &t);
	assert_ptr_equal(s, &t.ix.slots[0]);
	tlc_hindex__remove(&t.ix, s);
	assert_int_equal(t.ix.count, 6);
	assert_int_equal(find(&t, 1, t.hashes[1]), SIZE_MAX);
	for (int k = 0; k < 6; k++)
		if (k != 1)
			assert_int_equal(find(&t, k, t.hashes[k]), k);
	assert_int_equal(find(&t, 20, 1), 6);
	/* keys 2..5 moved back one slot (to 0..3), 20 to slot 4, slot 5 empty */
	assert_int_equal(t.ix.slots[0].idx1, 3);
	assert_int_equal(t.ix.slots[3].idx1, 6);
	assert_int_equal(t.ix.slots[4].idx1, 7);
	assert_int_equal(t.ix.slots[5].idx1, 0);
	/* renumber: the caller moved key 20 to index 1 */
	t.keys[1] = 20;
	tlc_hindex__renumber(&t.ix, 1, 6, 1);
	assert_int_equal(find(&t, 20, 1), 1);
	tlc_hindex__clear(&t.ix);
	assert_int_equal(t.ix.count, 0);
	assert_int_equal(find(&t, 0, t.hashes[0]), SIZE_MAX);
	tlc_hindex__free(&t.ix);
}

/* The id map over 10,000 keys (negative ones too), every value readable;
 * deleting the even keys leaves exactly the odd ones, found with their
 * values and visited once each by the iteration. */
static void test_idmap(void **state)
{
	(void)state;
	tlc_idmap m;
	tlc_idmap__init(&m, tlc_alloc__default(), sizeof(int64_t));
	assert_null(tlc_idmap__get(&m, 5));
	tlc_idmap__del(&m, 5); /* absent, empty map: nothing happens */
	for (int64_t k = -5000; k < 5000; k++) {
		int created = 0;
		int64_t *v = tlc_idmap__put(&m, k, &created);
		assert_non_null(v);
		assert_int_equal(created, 1);
		assert_int_equal(*v, 0); /* zero-filled */
		*v = k * 3;
	}
	int created = 1;
	assert_int_equal(*(int64_t *)tlc_idmap__put(&m, 7, &created), 21);
	assert_int_equal(created, 0);
	assert_int_equal(m.count, 10000);
	for (int64_t k = -5000; k < 5000; k += 2)
		tlc_idmap__del(&m, k);
	tlc_idmap__del(&m, 123456); /* absent: nothing happens */
	assert_int_equal(m.count, 5000);
	for (int64_t k = -5000; k < 5000; k++) {
		int64_t *v = tlc_idmap__get(&m, k);
		if (k % 2 == 0) {
			assert_null(v);
		} else {
			assert_non_null(v);
			assert_int_equal(*v, k * 3);
		}
	}
	size_t seen = 0;
	int64_t sum = 0;
	for (size_t i = 0; i < m.nslots; i++) {
		int64_t key;
		int64_t *v = tlc_idmap__slot(&m, i, &key);
		if (!v)
			continue;
		assert_true(key % 2 != 0);
		assert_int_equal(*v, key * 3);
		seen++;
		sum += key;
	}
	assert_int_equal(seen, 5000);
	/* odd keys -4999..4999 pair up to zero */
	assert_int_equal(sum, 0);
	tlc_idmap__free(&m);
}

/* Allocation failure at every allocation of filling a map with 300 keys:
 * the failing put returns NULL with out_of_memory, every key put before
 * is still there with its value, and nothing leaks. */
static void test_idmap_alloc_failure(void **state)
{
	(void)state;
	int completed = 0;
	for (long k = 0; !completed; k++) {
		failing f = { 0, 0, k };
		tlc_allocator a = alloc_of(&f);
		tlc_idmap m;
		tlc_idmap__init(&m, &a, sizeof(int64_t));
		int64_t done = 0;
		for (; done < 300; done++) {
			int64_t *v = tlc_idmap__put(&m, done * 7919, NULL);
			if (!v) {
				assert_string_equal(tlc_error_last()->code, "out_of_memory");
				break;
			}
			*v = done;
		}
		completed = done == 300;
		for (int64_t i = 0; i < done; i++) {
			int64_t *v = tlc_idmap__get(&m, i * 7919);
			assert_non_null(v);
			assert_int_equal(*v, i);
		}
		tlc_idmap__free(&m);
		assert_int_equal(f.live, 0);
	}
}

/* A failing reserve leaves the index as it was (same table, same keys). */
static void test_reserve_failure(void **state)
{
	(void)state;
	failing f = { 0, 0, -1 };
	tlc_allocator a = alloc_of(&f);
	table t = { 0 };
	tlc_hindex__init(&t.ix, &a);
	for (int k = 0; k < 12; k++)
		put(&t, k, (uint64_t)k * 0x9E3779B97F4A7C15ULL);
	tlc_hslot *before = t.ix.slots;
	f.fail_at = f.calls; /* the next allocation fails */
	assert_int_equal(put(&t, 12, 12), -1);
	assert_string_equal(tlc_error_last()->code, "out_of_memory");
	assert_ptr_equal(t.ix.slots, before);
	assert_int_equal(t.ix.nslots, 16);
	assert_int_equal(t.ix.count, 12);
	for (int k = 0; k < 12; k++)
		assert_int_equal(find(&t, k, (uint64_t)k * 0x9E3779B97F4A7C15ULL), k);
	tlc_hindex__free(&t.ix);
	assert_int_equal(f.live, 0);
}

/* The interner: one copy per distinct byte string (a prefix is another
 * string), input need not be NUL-terminated; failing allocations give
 * NULL and leak nothing. */
static void test_intern(void **state)
{
	(void)state;
	tlc_intern *in;
	assert_int_equal(tlc_intern__new(&in, tlc_alloc__default()), 0);
	const char *ab = tlc_intern__get(in, "abc", 2);
	assert_string_equal(ab, "ab");
	const char *abc = tlc_intern__get(in, "abc", 3);
	assert_string_equal(abc, "abc");
	assert_ptr_not_equal(ab, abc);
	assert_ptr_equal(tlc_intern__get(in, "ab", 2), ab);
	assert_ptr_equal(tlc_intern__get(in, "abcd", 3), abc);
	const char *empty = tlc_intern__get(in, "", 0);
	assert_string_equal(empty, "");
	char buf[32];
	const char *first[1000];
	for (int i = 0; i < 1000; i++) {
		int n = snprintf(buf, sizeof buf, "aten::op_%d", i);
		first[i] = tlc_intern__get(in, buf, (size_t)n);
		assert_string_equal(first[i], buf);
	}
	for (int i = 0; i < 1000; i++) {
		int n = snprintf(buf, sizeof buf, "aten::op_%d", i);
		assert_ptr_equal(tlc_intern__get(in, buf, (size_t)n), first[i]);
	}
	assert_int_equal(tlc_intern__count(in), 1003);
	tlc_intern__free(in);

	for (long k = 0;; k++) {
		failing f = { 0, 0, k };
		tlc_allocator a = alloc_of(&f);
		if (tlc_intern__new(&in, &a) < 0) {
			assert_int_equal(f.live, 0);
			continue;
		}
		int ok = 1;
		for (int i = 0; ok && i < 200; i++) {
			int n = snprintf(buf, sizeof buf, "name%d", i);
			ok = tlc_intern__get(in, buf, (size_t)n) != NULL;
		}
		tlc_intern__free(in);
		assert_int_equal(f.live, 0);
		if (ok)
			break;
	}
}

/* The hash: the length is part of it ("a" vs "a\0", runs of zero bytes of
 * every length 0..32 all differ), tlc_hash__u64(0) is 0 (every step of
 * fmix64 maps 0 to 0) and it is one-to-one on a sample; the low 12 bits of
 * 4096 names "op_0".."op_4095" spread: no bucket of 4096 gets more than 12
 * (a random function's fullest bucket is about 6 here). */
static void test_hash(void **state)
{
	(void)state;
	assert_true(tlc_hash__bytes("a", 1) != tlc_hash__bytes("a\0", 2));
	static const char zeros[32];
	uint64_t h[33];
	for (size_t n = 0; n <= 32; n++) {
		h[n] = tlc_hash__bytes(zeros, n);
		for (size_t m = 0; m < n; m++)
			assert_true(h[m] != h[n]);
	}
	assert_true(tlc_hash__u64(0) == 0);
	for (uint64_t x = 1; x < 1000; x++)
		assert_true(tlc_hash__u64(x) != tlc_hash__u64(x - 1));
	unsigned *bucket = calloc(4096, sizeof *bucket);
	assert_non_null(bucket);
	unsigned most = 0;
	for (int i = 0; i < 4096; i++) {
		char buf[16];
		int n = snprintf(buf, sizeof buf, "op_%d", i);
		unsigned *b = &bucket[tlc_hash__bytes(buf, (size_t)n) & 4095];
		if (++*b > most)
			most = *b;
	}
	free(bucket);
	assert_true(most <= 12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_hash),
		cmocka_unit_test(test_low_bits_and_growth),
		cmocka_unit_test(test_remove_wraps),
		cmocka_unit_test(test_idmap),
		cmocka_unit_test(test_idmap_alloc_failure),
		cmocka_unit_test(test_reserve_failure),
		cmocka_unit_test(test_intern),
		cmocka_unit_test(test_hash),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
