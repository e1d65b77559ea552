/* The arithmetic of a flops partial, checked before a merge takes it
 * (engine/report/merge_check.c; semi-private). */
#ifndef TLC_ENGINE_MERGE_CHECK_H
#define TLC_ENGINE_MERGE_CHECK_H

#include "jtree.h"

/** root is a flops partial whose fields have the right types (merge.c
 *  check_doc). 0, or TLC_EINPUT merge_input_inconsistent naming the field
 *  whose value another part of the document contradicts, and the input. */
int tlc_merge__check_arith(const char *name, const tlc_jnode *root);

#endif
