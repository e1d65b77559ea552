/*
 * libtlcost roofline report (contract section 6): hypotheses from ideal traffic.
 *
 * Part of the libtlcost public API; <tlcost/tlcost.h> includes every module
 * header. Each header compiles on its own (tests/build/headers.sh).
 */
#ifndef TLCOST_ROOFLINE_H
#define TLCOST_ROOFLINE_H

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

typedef enum tlc_roof_reason {
	TLC_ROOF_COVERED = 0,
	TLC_ROOF_NO_RULE,
	TLC_ROOF_ZERO_LOGICAL_TRAFFIC,
	TLC_ROOF_MISSING_SHAPE_DTYPE,
	TLC_ROOF_REASON_COUNT
} tlc_roof_reason;

/** Fixed capacity of by_reason (TLC_ROOF_REASON_COUNT <= it). */
#define TLC_ROOF_REASON_SLOTS 8

typedef enum tlc_roof_verdict {
	TLC_ROOF_NO_VERDICT = 0,
	TLC_ROOF_MEMORY_BOUND_HYPOTHESIS,
	TLC_ROOF_COMPUTE_BOUND_HYPOTHESIS
} tlc_roof_verdict;

const char *tlc_roof_reason_name(tlc_roof_reason r);
const char *tlc_roof_verdict_name(tlc_roof_verdict v);

#define TLC_ROOFLINE_DEFAULT_CACHE_BYTES (4u * 1024u * 1024u)

typedef struct tlc_roofline_options {
	uint32_t size;          /* sizeof(tlc_roofline_options) */
	tlc_ceilings ceilings;
	int phase;              /* -1 = all phases; else a tlc_phase */
	int64_t cache_bytes;    /* 0: default 4 MiB; < 0: exclude nothing */
} tlc_roofline_options;
/** The size set, every other field its default (as zeroed options: forward phase, 4 MiB cache threshold). */
#define TLC_ROOFLINE_OPTIONS_INIT { sizeof(tlc_roofline_options), TLC_CEILINGS_INIT, 0, 0 }

typedef struct tlc_roofline_row {
	const tlc_op_row *op;
	tlc_roof_reason reason;
	tlc_roof_verdict verdict;    /* covered rows only */
	int cache_resident;          /* whole traffic <= cache_bytes */
	tlc_peak_dtype peak_dtype;   /* ceiling this op is compared with */
	const char *flops, *bytes;   /* exact decimals (NULL when unknown) */
	double intensity;            /* FLOPs / ideal bytes; covered rows */
	double bound_flops_per_s;    /* min(peak, bw * intensity): a ceiling, not a measurement */
	const char *family;          /* op family for the chart legend */
} tlc_roofline_row;

typedef struct tlc_roofline_summary {
	const tlc_device_preset *device; /* the ceilings used */
	const char *device_from;     /* "input", "option" or "user_ceilings" */
	uint64_t rows;               /* rows listed (not_applicable rows are not) */
	uint64_t by_reason[TLC_ROOF_REASON_SLOTS]; /* indexed by tlc_roof_reason */
	uint64_t memory_bound, compute_bound; /* headline, cache-resident excluded */
	uint64_t cache_resident_excluded;
	uint64_t no_peak;            /* covered rows whose dtype has no peak: no verdict */
	uint64_t cache_bytes;
	const char *covered_flops, *covered_bytes; /* exact sums over covered rows */
	double aggregate_intensity;  /* covered_flops / covered_bytes; < 0 when none */
	int lower_bound;             /* some op unknown */
} tlc_roofline_summary;

typedef struct tlc_roofline tlc_roofline;
/** Errors: reports_need_ops, roofline_device_missing (no ceilings given and
 *  the input names no known device), device_unknown, ceilings_invalid. */
struct tlc_join;
/** tlc_roofline_build with the device-time join j beside the evaluation
 *  (borrowed, may be NULL): where j passed its gate for a row's phase, the
 *  SVG draws the row's achieved point (FLOPs over its costed kernel time,
 *  attributed kernel utilization) below its roof, labelled a hypothesis. */
int tlc_roofline_build_joined(tlc_roofline **out, const tlc_eval *ev, const struct tlc_join *j,
                              const tlc_roofline_options *opts);
int tlc_roofline_build(tlc_roofline **out, const tlc_eval *ev,
                       const tlc_roofline_options *opts);
void tlc_roofline_free(tlc_roofline *rl);
const tlc_roofline_summary *tlc_roofline_get_summary(const tlc_roofline *rl);
size_t tlc_roofline_row_count(const tlc_roofline *rl);
const tlc_roofline_row *tlc_roofline_row_at(const tlc_roofline *rl, size_t i);
/** Text shows the summary and the top `top` rows by FLOPs (0 = all);
 *  JSON and CSV always hold every row. */
int tlc_write_roofline(FILE *out, const tlc_roofline *rl, tlc_format fmt, size_t top);
#define tlc_roofline_write tlc_write_roofline /* module-first spelling (docs/api.md, "Names") */
/** The roofline chart as a standalone SVG document. */
int tlc_write_roofline_svg(FILE *out, const tlc_roofline *rl);
#define tlc_roofline_write_svg tlc_write_roofline_svg /* module-first spelling (docs/api.md, "Names") */

#ifdef __cplusplus
}
#endif
#endif /* TLCOST_ROOFLINE_H */
