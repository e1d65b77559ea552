/*
 * libtlcost one-screen overview report (tlcost report).
 *
 * Part of the libtlcost public API; <tlcost/tlcost.h> includes every module
 * header. Each header compiles on its own (tests/build/headers.sh).
 */
#ifndef TLCOST_REPORT_H
#define TLCOST_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common.h"
#include "devices.h"
#include "eval.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reports read a finished evaluation made with keep_ops set; without kept
 * rows they refuse with reports_need_ops. Objects they return own their
 * strings; free them with the matching *_free. docs/reports.md has the
 * text, JSON and CSV layouts. */

typedef struct tlc_report_options {
	uint32_t size;          /* sizeof(tlc_report_options) */
	tlc_ceilings ceilings;  /* roofline summary; none found: says so */
	size_t tree_top;        /* 0: 5 */
	size_t tree_depth;      /* 0: the least depth from 2 to 8 whose remainder rows hide at most
	                         * 10% of the phase's FLOPs (else 8) */
	int64_t cache_bytes;    /* as in tlc_roofline_options */
	const struct tlc_steps *steps; /* where the steps went (tlc_steps_build), or NULL: no
	                                * such section */
} tlc_report_options;
/** The size set, every other field its default. */
#define TLC_REPORT_OPTIONS_INIT { sizeof(tlc_report_options), TLC_CEILINGS_INIT, 0, 0, 0, NULL }

/** Headline per phase, coverage, LOWER BOUND/COMPLETE, ledger top 3, top of
 *  the tree, roofline summary, and with opts->steps the step buckets summed
 *  over the steps (80 columns). CSV is one row per op. */
int tlc_write_report(FILE *out, const tlc_eval *ev, const tlc_report_options *opts,
                     tlc_format fmt);
#define tlc_report_write tlc_write_report /* module-first spelling (docs/api.md, "Names") */

#ifdef __cplusplus
}
#endif
#endif /* TLCOST_REPORT_H */
