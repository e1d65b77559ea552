/* GMP's allocations through engine allocators (semi-private): see
 * gmpalloc.c and docs/api.md, "Memory". */
#ifndef TLC_ENGINE_GMPALLOC_H
#define TLC_ENGINE_GMPALLOC_H

#include "alloc.h"

/** Makes a the allocator of GMP's new blocks while the returned handle is
 *  attached (TLC_ENGINE_GMP_ALLOCATOR). Installs tlcost's GMP memory
 *  functions on first use. NULL on allocation failure (error set). */
void *tlc_gmp__attach(const tlc_allocator *a);
/** Detaches a handle of tlc_gmp__attach (NULL is ignored). */
void tlc_gmp__detach(void *handle);
/** GMP blocks now allocated through handle's allocator (tests). */
size_t tlc_gmp__live_blocks(const void *handle);

#endif
