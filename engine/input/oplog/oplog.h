/* Op log v1 reader internals (semi-private). */
#ifndef TLC_ENGINE_OPLOG_H
#define TLC_ENGINE_OPLOG_H

#include <stdint.h>
#include "tlcost/tlcost.h"
#include "instream.h"

/** Longest record line accepted by default (a longer one is the typed
 *  error oplog_line_too_long rather than unbounded memory use). */
#define TLC_OPLOG_MAX_LINE ((uint64_t)1 << 30)

/** Deepest JSON nesting accepted in a record (oplog_field_invalid beyond). */
#define TLC_OPLOG_MAX_DEPTH 64

/** Reads an op log from an open stream (which the caller closes) into ev;
 *  max_line is the longest line accepted in bytes (0 = TLC_OPLOG_MAX_LINE).
 *  Same errors as tlc_oplog_read. Does not call tlc_eval_finish. */
int tlc_oplog__read_stream(tlc_eval *ev, tlc_instream *in, uint64_t max_line);

#endif
