/* The one hash index of the library (semi-private), and its hash function.
 *
 * An open-addressing (linear probing) table of slots, each holding a key's
 * full 64-bit hash and 1 + the index of the entry in the caller's own array
 * (0: empty). The caller keeps its entries (names, rules, groups, ...) where
 * and how it likes; the index only finds them: it compares stored hashes, and
 * asks the caller whether the entry at an index has the key only when the
 * hashes are equal (a callback, inlined where the probe is: see
 * tlc_hindex__probe). Growth re-places slots by their stored hash, so it
 * never looks at a key.
 *
 * Users: the string interner (alloc.c), the int64 id map (idmap.c), the rule
 * index (registry.c), the op-type index (eval.c), profile groups and join
 * groups. Pointers to slots are valid until the next reserve. */
#ifndef TLC_ENGINE_HINDEX_H
#define TLC_ENGINE_HINDEX_H

#include <stddef.h>
#include <stdint.h>
#include "alloc.h"

typedef struct tlc_hslot {
	uint64_t h;  /* the key's tlc_hash__* value */
	size_t idx1; /* 1 + the entry's index in the caller's array; 0: empty */
} tlc_hslot;

typedef struct tlc_hindex {
	const tlc_allocator *a;
	tlc_hslot *slots; /* nslots (a power of two, or 0) */
	size_t nslots, count;
} tlc_hindex;

/** Nonzero when the caller's entry at idx has the key being looked for. */
typedef int (*tlc_hindex_eq_fn)(size_t idx, const void *key, const void *payload);

/** Hash of n bytes: SipHash-1-3 under the process's secret random key
 *  (see hindex.c), so input cannot choose colliding keys; the only byte
 *  hash of the library. Its values differ from run to run: never print
 *  them, order by them, or keep them past the process. */
uint64_t tlc_hash__bytes(const void *p, size_t n);
/** SipHash-1-3 and SipHash-2-4 of n bytes under the key k (k[0]: key
 *  bytes 0..7 read little-endian): the function above, and the reference
 *  variant its round function is checked with. */
uint64_t tlc_hash__sip13(const uint64_t k[2], const void *p, size_t n);
uint64_t tlc_hash__sip24(const uint64_t k[2], const void *p, size_t n);

/** MurmurHash3's fmix64 finalizer: a bijection on 64-bit values, every
 *  output bit depending on every input bit. */
static inline uint64_t tlc_hash__fmix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

/** The key of tlc_hash__u64, drawn with the byte hash's (hindex.c). */
extern uint64_t tlc_hash__id_key[2];

/** Hash of a 64-bit integer: fmix64 keyed twice (Even-Mansour fashion:
 *  key, permute, key, permute). Ids come from input files too, and fmix64
 *  alone is a public bijection anyone can invert: a file could name ids
 *  whose hashes share their low bits. Keyed, it is still a bijection, so
 *  two ids with equal hashes are equal. */
static inline uint64_t tlc_hash__u64(uint64_t x)
{
	return tlc_hash__fmix64(tlc_hash__fmix64(x ^ tlc_hash__id_key[0]) ^ tlc_hash__id_key[1]);
}

/** Empty index (no allocation until the first reserve). */
void tlc_hindex__init(tlc_hindex *ix, const tlc_allocator *a);
/** Frees the slots; the index is empty and usable again. */
void tlc_hindex__free(tlc_hindex *ix);
/** Empties every slot, keeping the table (needs no memory). */
void tlc_hindex__clear(tlc_hindex *ix);
/** Grows the table until n entries fit (see tlc_hindex__reserve). */
int tlc_hindex__grow(tlc_hindex *ix, size_t n);
/** Makes room for n entries in all (grows the table while n exceeds 3/4 of
 *  it). 0, or TLC_ENOMEM with the error set; on failure the index is
 *  unchanged. Invalidates slot pointers when it grows. Inline: it is called
 *  before every insertion and mostly has nothing to do. */
static inline int tlc_hindex__reserve(tlc_hindex *ix, size_t n)
{
	return ix->nslots && n <= ix->nslots / 4 * 3 ? 0 : tlc_hindex__grow(ix, n);
}
/** Uses the empty slot s (from tlc_hindex__probe, after a reserve for one
 *  more entry) for the entry at idx whose key hashes to h. */
void tlc_hindex__fill(tlc_hindex *ix, tlc_hslot *s, uint64_t h, size_t idx);
/** Empties slot s (a filled one), moving later slots of its cluster back
 *  so that no probe stops early. The caller's entry is left alone. */
void tlc_hindex__remove(tlc_hindex *ix, tlc_hslot *s);
/** The slot of the entry at idx, whose key hashes to h, now points at
 *  new_idx (the caller moved the entry, e.g. a swap-remove). */
void tlc_hindex__renumber(tlc_hindex *ix, uint64_t h, size_t idx, size_t new_idx);

/** The slot holding the entry whose key has hash h and for which
 *  eq(idx, key, payload) holds, else the empty slot where it belongs.
 *  The table must have slots (a reserve first). Inline so that a constant
 *  eq is inlined into the caller's loop. */
static inline tlc_hslot *tlc_hindex__probe(const tlc_hindex *ix, uint64_t h,
                                           tlc_hindex_eq_fn eq, const void *key,
                                           const void *payload)
{
	size_t mask = ix->nslots - 1;
	for (size_t j = (size_t)h & mask;; j = (j + 1) & mask) {
		tlc_hslot *s = &ix->slots[j];
		if (!s->idx1 || (s->h == h && eq(s->idx1 - 1, key, payload)))
			return s;
	}
}

/** Index of the entry with the key, or SIZE_MAX when there is none (an
 *  empty index included). */
static inline size_t tlc_hindex__find(const tlc_hindex *ix, uint64_t h, tlc_hindex_eq_fn eq,
                                      const void *key, const void *payload)
{
	if (!ix->nslots)
		return SIZE_MAX;
	const tlc_hslot *s = tlc_hindex__probe(ix, h, eq, key, payload);
	return s->idx1 ? s->idx1 - 1 : SIZE_MAX;
}

#endif
