/*
 * libtlcost MFU report (contract section 7).
 *
 * Part of the libtlcost public API; <tlcost/tlcost.h> includes every module
 * header. Each header compiles on its own (tests/build/headers.sh).
 */
#ifndef TLCOST_MFU_H
#define TLCOST_MFU_H

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

/** Denominators a caller may offer. Only TLC_MFU_STEP_SECONDS (the
 *  uninstrumented end-to-end step wall time) is lawful; any other is
 *  refused mfu_denominator_invalid. */
typedef enum tlc_mfu_denominator {
	TLC_MFU_STEP_SECONDS = 0,
	TLC_MFU_KERNEL_UNION_SECONDS,
	TLC_MFU_DEVICE_BUSY_SECONDS,
	TLC_MFU_INSTRUMENTED_HOST_SECONDS,
	TLC_MFU_OTHER_SECONDS
} tlc_mfu_denominator;

typedef struct tlc_mfu_options {
	uint32_t size;           /* sizeof(tlc_mfu_options) */
	tlc_ceilings ceilings;
	tlc_mfu_denominator denominator;
	double seconds;          /* the denominator's value */
	int64_t params, tokens;  /* <= 0: from the input's info */
} tlc_mfu_options;
/** The size set, every other field its default. */
#define TLC_MFU_OPTIONS_INIT { sizeof(tlc_mfu_options), TLC_CEILINGS_INIT, TLC_MFU_STEP_SECONDS, 0, 0, 0 }

/** Fixed capacity of arrays indexed by tlc_phase in public structs, so the
 *  layout does not change when a phase is added (TLC_PHASE_COUNT <= it). */
#define TLC_PHASE_SLOTS 8

typedef struct tlc_mfu_phase {
	int present;             /* the phase has counted FLOPs */
	const char *flops;       /* exact decimal */
	tlc_peak_dtype dtype;
	double peak_flops;       /* FLOP/s of the ceiling for dtype */
	double ideal_seconds;    /* flops / peak */
} tlc_mfu_phase;

typedef struct tlc_mfu_summary {
	double mfu;              /* sum of ideal_seconds / step seconds */
	double step_seconds;
	int exceeds_one;         /* warning mfu_exceeds_one */
	int lower_bound;         /* FLOPs are a lower bound: so is MFU */
	const tlc_device_preset *device;
	const char *device_from;
	tlc_mfu_phase phase[TLC_PHASE_SLOTS]; /* indexed by tlc_phase */
	int has_6nd;             /* params and tokens known */
	int64_t params, tokens;
	const char *six_nd;      /* exact 6*N*D */
	const char *counted_fwd_bwd; /* exact forward + backward FLOPs */
	double ratio_6nd;        /* counted / 6ND */
} tlc_mfu_summary;

typedef struct tlc_mfu tlc_mfu;
/** Errors: mfu_denominator_invalid, mfu_step_seconds_invalid (<= 0, NaN,
 *  infinite or missing), mfu_mode_peak_missing (a phase has FLOPs and the
 *  ceilings have no peak for its dtype), roofline_device_missing,
 *  device_unknown, reports_need_ops. */
int tlc_mfu_compute(tlc_mfu **out, const tlc_eval *ev, const tlc_mfu_options *opts);
void tlc_mfu_free(tlc_mfu *m);
const tlc_mfu_summary *tlc_mfu_get_summary(const tlc_mfu *m);
/* Deprecated spellings of 0.1.0, kept so older sources compile. */
#define tlc_mfu_get_result tlc_mfu_get_summary
typedef tlc_mfu_summary tlc_mfu_result;
int tlc_write_mfu(FILE *out, const tlc_mfu *m, tlc_format fmt);
#define tlc_mfu_write tlc_write_mfu /* module-first spelling (docs/api.md, "Names") */

#ifdef __cplusplus
}
#endif
#endif /* TLCOST_MFU_H */
