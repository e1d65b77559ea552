/* Map from int64 keys to fixed-size values (semi-private): the int64
 * instance of the hash index (hindex.h). Used for id sets, parent links and
 * row lookup, so memory grows with what must be remembered, not with the
 * input. */
#ifndef TLC_ENGINE_IDMAP_H
#define TLC_ENGINE_IDMAP_H

#include <stddef.h>
#include <stdint.h>
#include "alloc.h"
#include "hindex.h"

typedef struct tlc_idmap {
	tlc_hindex index;       /* tlc_hash__u64(key) -> entry */
	unsigned char *entries; /* nslots * stride bytes: key, then value */
	size_t nslots;          /* room in entries; changes whenever values move */
	size_t count, vsize, stride;
} tlc_idmap;

void tlc_idmap__init(tlc_idmap *m, const tlc_allocator *a, size_t vsize);
void tlc_idmap__free(tlc_idmap *m);
/** Value of key, or NULL. */
void *tlc_idmap__get(const tlc_idmap *m, int64_t key);
/** Value of key, inserted zero-filled when absent (*created set); NULL on
 *  allocation failure (error set). Values move (pointers to them go stale)
 *  only when nslots changes or on a delete. */
void *tlc_idmap__put(tlc_idmap *m, int64_t key, int *created);
/** Removes key if present (the last entry moves into its place). */
void tlc_idmap__del(tlc_idmap *m, int64_t key);
/** Iteration: i from 0 while < nslots; returns value or NULL for unused
 *  entries. */
void *tlc_idmap__slot(const tlc_idmap *m, size_t i, int64_t *key);

/* ---- engine3: dense id map ----
 * The same contract for keys that mostly ascend from where they start (op
 * ids, id blocks): keys in [base, base + dcap) live in a plain array, found
 * by subtraction, with a bit each saying which were put; every other key
 * (negative, far ahead, below the start) lives in the id map above. base
 * is the first key put (when not negative); the array doubles to take a
 * key at most dcap past its end, and only while at least half of it is in
 * use, so a sparse run of keys costs no more memory than the id map would
 * (at most four values' room per key put) and goes to the id map instead.
 * On growth the id map's keys in the new range move into the array, so a
 * key is in one place only. No deletion, no iteration. */
typedef struct tlc_densemap {
	unsigned char *vals; /* dcap values of vsize bytes */
	uint64_t *present;   /* bit i: key base + i was put */
	int64_t base;
	size_t dcap, dcount; /* room and keys put in the array */
	size_t vsize, vstride;
	uint64_t moves;      /* bumped whenever array values move */
	tlc_idmap sparse;    /* the other keys */
} tlc_densemap;

void tlc_densemap__init(tlc_densemap *m, const tlc_allocator *a, size_t vsize);
void tlc_densemap__free(tlc_densemap *m);
/** Value of key, or NULL. */
void *tlc_densemap__get(const tlc_densemap *m, int64_t key);
/** As tlc_idmap__put: the value, zero-filled when created (*created set);
 *  NULL on allocation failure (error set, map unchanged). */
void *tlc_densemap__put(tlc_densemap *m, int64_t key, int *created);
/** Changes whenever values may have moved (pointers to them gone stale):
 *  a cache of a value pointer is valid while this stays the same. */
static inline uint64_t tlc_densemap__epoch(const tlc_densemap *m)
{
	return m->moves + m->sparse.nslots;
}
/** Keys put, in all. */
static inline size_t tlc_densemap__count(const tlc_densemap *m)
{
	return m->dcount + m->sparse.count;
}

#endif
