/* Evaluation internals needed by readers and reports (semi-private). */
#ifndef TLC_ENGINE_EVAL_H
#define TLC_ENGINE_EVAL_H

#include "tlcost/tlcost.h"
#include "alloc.h"

const tlc_allocator *tlc_eval__allocator(const tlc_eval *ev);
/** Op records held until their parent arrives (readers bound this). */
size_t tlc_eval__held_count(const tlc_eval *ev);
tlc_engine *tlc_eval__engine(const tlc_eval *ev);
/** The eval's interner: stable strings that live as long as the eval. */
tlc_intern *tlc_eval__intern(tlc_eval *ev);

/** Device records pushed so far (for the join). */
size_t tlc_eval__device_count(const tlc_eval *ev);
const tlc_device_record *tlc_eval__device_at(const tlc_eval *ev, size_t i);

/** Nonzero once tlc_eval_finish succeeded. */
int tlc_eval__finished(const tlc_eval *ev);

/** Where the next pushed record comes from (readers call it per record):
 *  a record held for a later parent keeps its position, so an unresolved
 *  parent at tlc_eval_finish is reported at the record's file:line. name
 *  must outlive the eval's reading (it is interned). */
int tlc_eval__set_position(tlc_eval *ev, const char *name, uint64_t line);

/** Row index of op id (keep_ops), or -1. */
int64_t tlc_eval__row_of_id(const tlc_eval *ev, int64_t id);

#endif
