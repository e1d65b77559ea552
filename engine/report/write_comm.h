/* The communication block of the flops report as text (semi-private; its
 * JSON is the flops summary's, flops_sum.c): per phase
 * and collective kind, calls, exact message bytes and exact bus bytes
 * (docs/collectives.md), and the rank identity of the input. */
#ifndef TLC_ENGINE_WRITE_COMM_H
#define TLC_ENGINE_WRITE_COMM_H

#include <stdio.h>
#include <yajl/yajl_gen.h>
#include "tlcost/tlcost.h"

/** Nonzero when the eval costed any collective. */
int tlc_rep__comm_any(const tlc_eval *ev);
/** Text lines; nothing when no collective was costed. */
int tlc_rep__comm_text(FILE *out, const tlc_eval *ev);
/** "message 1,234 B, bus 2,159/2 B (~1079.50 B)": exact decimals, integers
 *  grouped by the one grouping (tlc_textw__group), a rational bus count as
 *  P/Q with its rounded value; the flops and merge reports share it. */
void tlc_rep__comm_bytes_text(FILE *out, const char *msg, const char *bus);

#endif
