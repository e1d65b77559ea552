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

#endif
