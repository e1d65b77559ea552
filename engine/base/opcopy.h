/* Deep copies of op records (semi-private): one allocation per copy, so a
 * held record is freed with a single tlc_alloc__free. */
#ifndef TLC_ENGINE_OPCOPY_H
#define TLC_ENGINE_OPCOPY_H

#include "tlcost/plugin.h"
#include "alloc.h"

/** Copies op with all strings, values and shapes into one block; NULL on
 *  allocation failure (error not set). */
tlc_op *tlc_opcopy__clone(const tlc_allocator *a, const tlc_op *op);

#endif
