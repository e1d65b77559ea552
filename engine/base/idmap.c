/* int64 -> fixed-size value map: entries in one array, found through the
 * hash index (hindex.h) by tlc_hash__u64 of the key. */
#include <string.h>
#include "idmap.h"

/* Entry layout: key at 0, value at 8, so values (which callers read as
 * int64_t or structs of them) are 8-byte aligned. */
#define VALUE_AT 8

void tlc_idmap__init(tlc_idmap *m, const tlc_allocator *a, size_t vsize)
{
	memset(m, 0, sizeof *m);
	tlc_hindex__init(&m->index, a);
	m->vsize = vsize;
	m->stride = (VALUE_AT + vsize + 7) & ~(size_t)7;
}

void tlc_idmap__free(tlc_idmap *m)
{
	tlc_alloc__free(m->index.a, m->entries);
	tlc_hindex__free(&m->index);
	m->entries = NULL;
	m->nslots = m->count = 0;
}

static unsigned char *entry_at(const tlc_idmap *m, size_t i) { return m->entries + i * m->stride; }

static int64_t entry_key(const unsigned char *e)
{
	int64_t k;
	memcpy(&k, e, sizeof k);
	return k;
}

/* tlc_hash__u64 is one-to-one, so a slot whose stored hash equals the
 * key's hash holds that very key: the probe never needs to read the entry
 * (a lookup that misses touches slots only). */
static int key_eq(size_t idx, const void *key, const void *payload)
{
	(void)idx;
	(void)key;
	(void)payload;
	return 1;
}

static uint64_t hash_of(int64_t key) { return tlc_hash__u64((uint64_t)key); }

void *tlc_idmap__get(const tlc_idmap *m, int64_t key)
{
	size_t i = tlc_hindex__find(&m->index, hash_of(key), key_eq, &key, m);
	return i == SIZE_MAX ? NULL : entry_at(m, i) + VALUE_AT;
}

/* Room for one more entry. The entries grow with the index (to its load
 * limit), so values move only when nslots changes. */
static int reserve_one(tlc_idmap *m)
{
	if (tlc_hindex__reserve(&m->index, m->count + 1) < 0)
		return -1;
	size_t want = m->index.nslots / 4 * 3;
	if (m->nslots >= want)
		return 0;
	if (want > SIZE_MAX / m->stride)
		return tlc_error__oom();
	unsigned char *e = tlc_alloc__realloc(m->index.a, m->entries, want * m->stride);
	if (!e)
		return tlc_error__oom();
	m->entries = e;
	m->nslots = want;
	return 0;
}

void *tlc_idmap__put(tlc_idmap *m, int64_t key, int *created)
{
	if (created)
		*created = 0;
	uint64_t h = hash_of(key);
	size_t i = tlc_hindex__find(&m->index, h, key_eq, &key, m);
	if (i != SIZE_MAX)
		return entry_at(m, i) + VALUE_AT;
	if (reserve_one(m) < 0)
		return NULL;
	tlc_hslot *s = tlc_hindex__probe(&m->index, h, key_eq, &key, m);
	unsigned char *e = entry_at(m, m->count);
	memcpy(e, &key, sizeof key);
	memset(e + VALUE_AT, 0, m->stride - VALUE_AT);
	tlc_hindex__fill(&m->index, s, h, m->count++);
	if (created)
		*created = 1;
	return e + VALUE_AT;
}

void tlc_idmap__del(tlc_idmap *m, int64_t key)
{
	if (!m->count)
		return;
	tlc_hslot *s = tlc_hindex__probe(&m->index, hash_of(key), key_eq, &key, m);
	if (!s->idx1)
		return;
	size_t i = s->idx1 - 1, last = m->count - 1;
	tlc_hindex__remove(&m->index, s);
	if (i != last) {
		unsigned char *e = entry_at(m, last);
		tlc_hindex__renumber(&m->index, hash_of(entry_key(e)), last, i);
		memcpy(entry_at(m, i), e, m->stride);
	}
	m->count--;
}

void *tlc_idmap__slot(const tlc_idmap *m, size_t i, int64_t *key)
{
	if (i >= m->count)
		return NULL;
	unsigned char *e = entry_at(m, i);
	if (key)
		*key = entry_key(e);
	return e + VALUE_AT;
}
