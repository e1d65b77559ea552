/*
 * libtlcost writers of the flops report, the unknown ledger and the rule listing.
 *
 * Part of the libtlcost public API; <tlcost/tlcost.h> includes every module
 * header. Each header compiles on its own (tests/headers.sh).
 */
#ifndef TLCOST_WRITERS_H
#define TLCOST_WRITERS_H

#include <stdio.h>

#include "common.h"
#include "engine.h"
#include "eval.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Writes the flops report (headline per phase, coverage, lower-bound or
 *  complete line, ledger summary, op types) to out. */
int tlc_write_flops(FILE *out, const tlc_eval *ev, tlc_format fmt);
/** Writes the full unknown ledger with remedies. */
int tlc_write_ledger(FILE *out, const tlc_eval *ev, tlc_format fmt);
/** Writes the rule listing of an engine. */
int tlc_write_rules(FILE *out, const tlc_engine *eng, tlc_format fmt);

#ifdef __cplusplus
}
#endif
#endif /* TLCOST_WRITERS_H */
