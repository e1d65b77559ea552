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

/* ---- the dense id map ---- */

#define DENSE_FIRST 64 /* the array's first room, in keys */

void tlc_densemap__init(tlc_densemap *m, const tlc_allocator *a, size_t vsize)
{
	memset(m, 0, sizeof *m);
	tlc_idmap__init(&m->sparse, a, vsize);
	m->vsize = vsize;
	m->vstride = vsize ? (vsize + 7) & ~(size_t)7 : 8; /* 8-byte aligned, never 0 */
}

void tlc_densemap__free(tlc_densemap *m)
{
	tlc_alloc__free(m->sparse.index.a, m->vals);
	tlc_alloc__free(m->sparse.index.a, m->present);
	tlc_idmap__free(&m->sparse);
	m->vals = NULL;
	m->present = NULL;
	m->dcap = m->dcount = 0;
}

/* Offset of key in the array, or SIZE_MAX when the array does not hold it
 * (unsigned: a key below base wraps past dcap). */
static size_t dense_at(const tlc_densemap *m, int64_t key)
{
	uint64_t off = (uint64_t)key - (uint64_t)m->base;
	return key >= 0 && off < m->dcap ? (size_t)off : SIZE_MAX;
}

static int has_bit(const uint64_t *w, size_t i) { return (int)((w[i >> 6] >> (i & 63)) & 1); }

void *tlc_densemap__get(const tlc_densemap *m, int64_t key)
{
	size_t i = dense_at(m, key);
	if (i != SIZE_MAX)
		return has_bit(m->present, i) ? m->vals + i * m->vstride : NULL;
	return tlc_idmap__get(&m->sparse, key); /* a key is in one place only */
}

/* Room for keys base .. base + cap - 1 (cap a multiple of 64); the new
 * room zero-filled, absent. Both arrays or neither. */
static int dense_resize(tlc_densemap *m, size_t cap)
{
	const tlc_allocator *a = m->sparse.index.a;
	if (cap > SIZE_MAX / m->vstride)
		return tlc_error__oom();
	unsigned char *v = tlc_alloc__realloc(a, m->vals, cap * m->vstride);
	if (!v)
		return tlc_error__oom();
	if (v != m->vals)
		m->moves++; /* even should the next step fail: cached pointers are stale */
	m->vals = v;
	uint64_t *p = tlc_alloc__realloc(a, m->present, cap / 64 * sizeof *p);
	if (!p)
		return tlc_error__oom(); /* vals is only larger: dcap still says what is valid */
	m->present = p;
	memset(v + m->dcap * m->vstride, 0, (cap - m->dcap) * m->vstride);
	memset(p + m->dcap / 64, 0, (cap - m->dcap) / 64 * sizeof *p);
	m->dcap = cap;
	m->moves++; /* take_sparse may move the id map's values too */
	return 0;
}

/* The id map's keys that the array's new room [from, dcap) takes over move
 * into it (from the end, as a delete moves the last entry forward). */
static void take_sparse(tlc_densemap *m, size_t from)
{
	for (size_t i = m->sparse.count; i-- > 0;) {
		int64_t key = -1;
		void *v = tlc_idmap__slot(&m->sparse, i, &key);
		size_t at = v ? dense_at(m, key) : SIZE_MAX;
		if (at == SIZE_MAX || at < from)
			continue;
		memcpy(m->vals + at * m->vstride, v, m->vsize);
		m->present[at >> 6] |= 1ULL << (at & 63);
		m->dcount++;
		tlc_idmap__del(&m->sparse, key);
	}
}

/* Whether the array should grow to take key (not in it): the first key
 * that is not negative starts it; later, a key at most dcap past the end
 * doubles it, while at least half of it is used. */
static int dense_wants(const tlc_densemap *m, int64_t key)
{
	if (key < 0)
		return 0;
	if (!m->dcap)
		return 1;
	if (key < m->base)
		return 0;
	uint64_t off = (uint64_t)key - (uint64_t)m->base;
	return off < 2 * (uint64_t)m->dcap && m->dcount >= m->dcap / 2 &&
	       m->dcap <= SIZE_MAX / 4;
}

void *tlc_densemap__put(tlc_densemap *m, int64_t key, int *created)
{
	if (created)
		*created = 0;
	size_t i = dense_at(m, key);
	if (i == SIZE_MAX && dense_wants(m, key)) {
		size_t old = m->dcap;
		if (!old)
			m->base = key;
		if (dense_resize(m, old ? 2 * old : DENSE_FIRST) < 0)
			return NULL;
		if (old && m->sparse.count)
			take_sparse(m, old);
		i = dense_at(m, key);
	}
	if (i == SIZE_MAX)
		return tlc_idmap__put(&m->sparse, key, created);
	unsigned char *v = m->vals + i * m->vstride;
	if (!has_bit(m->present, i)) {
		m->present[i >> 6] |= 1ULL << (i & 63);
		m->dcount++;
		if (created)
			*created = 1;
	}
	return v;
}
