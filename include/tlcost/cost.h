/*
 * libtlcost cost records: exact fields of a finished tlc_cost.
 *
 * Part of the libtlcost public API; <tlcost/tlcost.h> includes every module
 * header. Each header compiles on its own (tests/build/headers.sh).
 */
#ifndef TLCOST_COST_H
#define TLCOST_COST_H

#include <stdint.h>

#include "plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Reads a field of a finished cost exactly. TLC_EOVERFLOW when it does not
 *  fit 64 bits (use tlc_cost_get_str). */
int tlc_cost_get_u64(uint64_t *out, const tlc_cost *c, tlc_cost_field f);
/** Decimal string of a field; free with tlc_free. */
int tlc_cost_get_str(char **out, const tlc_cost *c, tlc_cost_field f);
/** Nearest double, for ratios only (never for totals). */
double tlc_cost_get_double(const tlc_cost *c, tlc_cost_field f);
/** fma=2 FLOPs (2*macs + other) as a nearest double, for ratios only. */
double tlc_cost_flops_double(const tlc_cost *c);
/** Nonzero when the element size of some tensor was unknown. */
int tlc_cost_bytes_unknown(const tlc_cost *c);
int tlc_cost_split_unknown(const tlc_cost *c);
tlc_evidence tlc_cost_evidence(const tlc_cost *c);
/** The rule's explanation (why 0, or what was missing), or NULL. */
const char *tlc_cost_note(const tlc_cost *c);
/** The fields the rule could not determine (host->cost_set_missing), as a
 *  mask of (1u << tlc_cost_field); 0 for a fully known cost. A cost with
 *  missing fields belongs to an unknown op whose other fields are counted
 *  (a partly known op); a missing field reads as 0. */
unsigned tlc_cost_missing(const tlc_cost *c);

#ifdef __cplusplus
}
#endif
#endif /* TLCOST_COST_H */
