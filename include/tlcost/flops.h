/*
 * libtlcost flops: the reports of an evaluation's totals: the flops report
 * (`tlcost flops`) and the unknown-cost ledger (`tlcost ledger`).
 *
 * Part of the libtlcost public API; <tlcost/tlcost.h> includes every module
 * header. Each header compiles on its own (tests/build/headers.sh).
 */
#ifndef TLCOST_FLOPS_H
#define TLCOST_FLOPS_H

#include <stdio.h>

#include "common.h"
#include "eval.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- flops: the flops report and the unknown ledger ---- */

/** Writes the flops report (headline per phase, coverage, lower-bound or
 *  complete line, ledger summary, op types) to out. */
int tlc_write_flops(FILE *out, const tlc_eval *ev, tlc_format fmt);
#define tlc_flops_write tlc_write_flops /* module-first spelling (docs/api.md, "Names") */
/** Writes the full unknown ledger with remedies. */
int tlc_write_ledger(FILE *out, const tlc_eval *ev, tlc_format fmt);
#define tlc_ledger_write tlc_write_ledger /* module-first spelling (docs/api.md, "Names") */

#ifdef __cplusplus
}
#endif
#endif /* TLCOST_FLOPS_H */
