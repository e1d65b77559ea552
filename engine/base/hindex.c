/* The one hash index (see hindex.h) and the library's hash function. */
#include <string.h>
#include "hindex.h"
#include "error.h"

/* Why this hash: names are hashed on every op record, so the absorb step
 * takes eight bytes per multiply (FNV-1a, the other usual choice, costs a
 * multiply per byte); wyhash proper needs a 128-bit product, which C11 does
 * not have. The finalizer is MurmurHash3's fmix64, whose every output bit
 * depends on every input bit, so the low bits a power-of-two table uses
 * are as good as the high ones. The length seeds the state, so "a" and
 * "a\0" differ. */
uint64_t tlc_hash__bytes(const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t h = 0x9E3779B97F4A7C15ULL ^ (n * 0xff51afd7ed558ccdULL);
	while (n >= 8) {
		uint64_t w;
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
		h ^= h >> 29;
		s += 8;
		n -= 8;
	}
	uint64_t w = 0;
	memcpy(&w, s, n);
	return tlc_hash__u64(h ^ w);
}

void tlc_hindex__init(tlc_hindex *ix, const tlc_allocator *a)
{
	memset(ix, 0, sizeof *ix);
	ix->a = a;
}

void tlc_hindex__free(tlc_hindex *ix)
{
	tlc_alloc__free(ix->a, ix->slots);
	ix->slots = NULL;
	ix->nslots = ix->count = 0;
}

void tlc_hindex__clear(tlc_hindex *ix)
{
	if (ix->slots)
		memset(ix->slots, 0, ix->nslots * sizeof *ix->slots);
	ix->count = 0;
}

/* at most 3/4 full (as tlc_hindex__reserve tests): with the full hash in
 * the slot a probe compares keys only on equal hashes, so longer clusters
 * cost little */
static size_t room(size_t nslots) { return nslots / 4 * 3; }

int tlc_hindex__grow(tlc_hindex *ix, size_t n)
{
	if (ix->nslots && n <= room(ix->nslots))
		return 0;
	size_t ns = ix->nslots ? ix->nslots : 16;
	while (n > room(ns)) {
		if (ns > SIZE_MAX / 2 / sizeof(tlc_hslot))
			return tlc_error__oom();
		ns *= 2;
	}
	tlc_hslot *s = tlc_alloc__calloc(ix->a, ns, sizeof *s);
	if (!s)
		return tlc_error__oom();
	for (size_t i = 0; i < ix->nslots; i++) {
		const tlc_hslot *o = &ix->slots[i];
		if (!o->idx1)
			continue;
		size_t j = (size_t)o->h & (ns - 1);
		while (s[j].idx1)
			j = (j + 1) & (ns - 1);
		s[j] = *o;
	}
	tlc_alloc__free(ix->a, ix->slots);
	ix->slots = s;
	ix->nslots = ns;
	return 0;
}

void tlc_hindex__fill(tlc_hindex *ix, tlc_hslot *s, uint64_t h, size_t idx)
{
	s->h = h;
	s->idx1 = idx + 1;
	ix->count++;
}

void tlc_hindex__remove(tlc_hindex *ix, tlc_hslot *s)
{
	size_t mask = ix->nslots - 1, i = (size_t)(s - ix->slots);
	s->idx1 = 0;
	ix->count--;
	/* backward shift: a later slot of the cluster whose home is not in
	 * (i, j] moves into the hole, so lookups never meet an early gap */
	for (size_t j = (i + 1) & mask; ix->slots[j].idx1; j = (j + 1) & mask) {
		size_t home = (size_t)ix->slots[j].h & mask;
		int between = i <= j ? (home > i && home <= j) : (home > i || home <= j);
		if (between)
			continue;
		ix->slots[i] = ix->slots[j];
		ix->slots[j].idx1 = 0;
		i = j;
	}
}

void tlc_hindex__renumber(tlc_hindex *ix, uint64_t h, size_t idx, size_t new_idx)
{
	size_t mask = ix->nslots - 1;
	for (size_t j = (size_t)h & mask; ix->slots[j].idx1; j = (j + 1) & mask) {
		if (ix->slots[j].idx1 == idx + 1) {
			ix->slots[j].idx1 = new_idx + 1;
			return;
		}
	}
}
