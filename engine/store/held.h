/* Op records held for a parent that comes later (semi-private), packed.
 *
 * A held record waits, possibly to the end of the input, so what it takes
 * is what the reader must bound (--max-held-records, --max-held-bytes): it
 * is one op record of the store's encoding (record.h: variable-length
 * integers and inline string bytes, no pointers, no fixed 56-byte value
 * slots) after a small header, and is decoded into a scratch arena only for
 * the moment it is evaluated. Unpacking gives back exactly the fields,
 * values and strings that were packed. */
#ifndef TLC_ENGINE_HELD_H
#define TLC_ENGINE_HELD_H

#include <stddef.h>
#include <stdint.h>
#include "tlcost/plugin.h"
#include "alloc.h"

typedef struct tlc_held tlc_held;
struct tlc_held {
	tlc_held *next;     /* the next record held for the same parent */
	uint32_t size;      /* bytes of this allocation, header included */
	unsigned char data[];
};

/** Packs op (with the input line it came from) into one allocation *out,
 *  freed with tlc_alloc__free. Returns 0, TLC_ENOMEM (also past 4 GiB), or
 *  TLC_EINPUT (store_record_too_deep), with the error set. */
int tlc_held__pack(tlc_held **out, const tlc_allocator *a, const tlc_op *op, uint64_t line);

/** Unpacks h into *out; strings, values and shapes are allocated in ar and
 *  live until ar is reset. Returns 0, TLC_ENOMEM, or TLC_EINPUT
 *  (store_record_corrupt: bytes that are not a record), error set. */
int tlc_held__unpack(tlc_op *out, const tlc_held *h, tlc_arena *ar);

/** The line and id of h, without unpacking the rest. */
void tlc_held__key(const tlc_held *h, uint64_t *line, int64_t *id);

#endif
