/* int64 -> fixed-size value hash map (linear probing, backward-shift delete). */
#include <string.h>
#include "idmap.h"

/* Slot layout: used flag at 0, key at 8, value at 16, so values (which
 * callers read as int64_t or structs of them) are 8-byte aligned. */
#define KEY_AT 8
#define VALUE_AT 16
#define USED(s) ((s)[0])

void tlc_idmap__init(tlc_idmap *m, const tlc_allocator *a, size_t vsize)
{
	memset(m, 0, sizeof *m);
	m->a = a;
	m->vsize = vsize;
	m->stride = (VALUE_AT + vsize + 7) & ~(size_t)7;
}

void tlc_idmap__free(tlc_idmap *m)
{
	tlc_alloc__free(m->a, m->slots);
	m->slots = NULL;
	m->nslots = m->count = 0;
}

static uint64_t mix(int64_t key)
{
	uint64_t x = (uint64_t)key;
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

static unsigned char *slot_at(const tlc_idmap *m, size_t i) { return m->slots + i * m->stride; }

static int64_t slot_key(const unsigned char *s)
{
	int64_t k;
	memcpy(&k, s + KEY_AT, sizeof k);
	return k;
}

static size_t find(const tlc_idmap *m, int64_t key)
{
	size_t mask = m->nslots - 1, i = mix(key) & mask;
	for (;;) {
		const unsigned char *s = slot_at(m, i);
		if (!USED(s) || slot_key(s) == key)
			return i;
		i = (i + 1) & mask;
	}
}

void *tlc_idmap__get(const tlc_idmap *m, int64_t key)
{
	if (!m->nslots)
		return NULL;
	unsigned char *s = slot_at(m, find(m, key));
	return USED(s) ? s + VALUE_AT : NULL;
}

static int rehash(tlc_idmap *m)
{
	size_t n = m->nslots ? m->nslots * 2 : 64;
	if (n > SIZE_MAX / m->stride)
		return tlc_error__oom();
	tlc_idmap nm = *m;
	nm.slots = tlc_alloc__calloc(m->a, n, m->stride);
	if (!nm.slots)
		return tlc_error__oom();
	nm.nslots = n;
	for (size_t i = 0; i < m->nslots; i++) {
		unsigned char *s = slot_at(m, i);
		if (USED(s))
			memcpy(slot_at(&nm, find(&nm, slot_key(s))), s, m->stride);
	}
	tlc_alloc__free(m->a, m->slots);
	*m = nm;
	return 0;
}

void *tlc_idmap__put(tlc_idmap *m, int64_t key, int *created)
{
	if (created)
		*created = 0;
	if ((m->count + 1) * 4 > m->nslots * 3 && rehash(m) < 0)
		return NULL;
	unsigned char *s = slot_at(m, find(m, key));
	if (!USED(s)) {
		USED(s) = 1;
		memcpy(s + KEY_AT, &key, sizeof key);
		memset(s + VALUE_AT, 0, m->vsize);
		m->count++;
		if (created)
			*created = 1;
	}
	return s + VALUE_AT;
}

void tlc_idmap__del(tlc_idmap *m, int64_t key)
{
	if (!m->nslots)
		return;
	size_t mask = m->nslots - 1, i = find(m, key);
	if (!USED(slot_at(m, i)))
		return;
	USED(slot_at(m, i)) = 0;
	m->count--;
	/* backward-shift the cluster so lookups never stop early */
	for (size_t j = (i + 1) & mask; USED(slot_at(m, j)); j = (j + 1) & mask) {
		unsigned char *s = slot_at(m, j);
		size_t home = mix(slot_key(s)) & mask;
		int between = i <= j ? (home > i && home <= j) : (home > i || home <= j);
		if (between)
			continue;
		memcpy(slot_at(m, i), s, m->stride);
		USED(s) = 0;
		i = j;
	}
}

void *tlc_idmap__slot(const tlc_idmap *m, size_t i, int64_t *key)
{
	unsigned char *s = slot_at(m, i);
	if (!USED(s))
		return NULL;
	if (key)
		*key = slot_key(s);
	return s + VALUE_AT;
}
