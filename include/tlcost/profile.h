/*
 * libtlcost profile tables.
 *
 * Part of the libtlcost public API; <tlcost/tlcost.h> includes every module
 * header. Each header compiles on its own (tests/build/headers.sh).
 */
#ifndef TLCOST_PROFILE_H
#define TLCOST_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common.h"
#include "eval.h"
#include "devices.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reports read a finished evaluation made with keep_ops set; without kept
 * rows they refuse with reports_need_ops. Objects they return own their
 * strings; free them with the matching *_free. docs/reports.md has the
 * text, JSON and CSV layouts. */

typedef enum tlc_profile_by {
	TLC_PROFILE_BY_OP = 0,
	TLC_PROFILE_BY_TYPE,
	TLC_PROFILE_BY_MODULE,
	TLC_PROFILE_BY_ARGS  /* op name, input shapes and dtypes (TraceLens's "unique args") */
} tlc_profile_by;

typedef enum tlc_profile_sort {
	TLC_SORT_FLOPS = 0,
	TLC_SORT_BYTES,
	TLC_SORT_INTENSITY,
	TLC_SORT_TIME,   /* instrumented host time */
	TLC_SORT_COUNT,
	TLC_SORT_HEADROOM /* recoverable time (tlc_profile_build_util only) */
} tlc_profile_sort;

struct tlc_join;

typedef struct tlc_profile_options {
	uint32_t size;  /* sizeof(tlc_profile_options) */
	tlc_profile_by by;
	tlc_profile_sort sort;
	size_t top;     /* 0 = all rows */
	int phase;      /* -1 = all phases; else a tlc_phase */
} tlc_profile_options;
/** The size set, every other field its default (as zeroed options: by op, forward phase, all rows). */
#define TLC_PROFILE_OPTIONS_INIT { sizeof(tlc_profile_options), TLC_PROFILE_BY_OP, TLC_SORT_FLOPS, 0, 0 }

/** One table row. Unknown is never zero: flops counts only counted ops and
 *  `unknown` says how many of the row's ops have no cost; bytes is NULL
 *  when some element size was unknown. */
typedef struct tlc_profile_row {
	const char *key;           /* op name, op type or module path */
	const tlc_op_row *op;      /* TLC_PROFILE_BY_OP only */
	uint64_t count, unknown;
	const char *flops;         /* exact decimal of the counted ops; NULL when every
	                              op of the row is unknown */
	const char *bytes;         /* exact decimal, or NULL when unknown */
	double intensity;          /* FLOPs / bytes; < 0 when undefined */
	int has_time;              /* time (instrumented) present */
	int64_t time_ns;
	int has_device_time;       /* from a device-time join only */
	int64_t device_time_ns, kernel_time_ns; /* launches the row's ops made themselves */
	/* Appended in 5:0:1 (issue 25 item 1). Device time on the costed row
	 * (docs/cost-contract.md, "Costed row"): the attributed launches whose
	 * costed row (the op whose rule carries the cost under the nesting
	 * policy, e.g. aten::linear for its aten::addmm's kernels) is one of
	 * this row's ops. This is the time to put beside flops and bytes. For
	 * an ambiguous group row (group >= 0), the group's time as one unit and
	 * flops/bytes summed over the group's ops' costed rows (those ops are
	 * also in their own rows: group rows repeat their cost). */
	int has_costed_time;
	int64_t costed_device_ns, costed_kernel_ns;
	int64_t group;             /* ambiguous group id (tlc_join_group), else -1 */
	/* Attributed kernel utilization (tlc_profile_build_util only; never
	 * "measured FLOPs", never MFU): the row's exact FLOPs and bytes over its
	 * costed kernel time, where the gate passed for every phase of the row.
	 * has_util 0: util_note says why not. Shares are < 0 when the device
	 * has no peak for the row's dtype (or its ops mix dtypes). */
	int has_util;
	double flops_per_s, bytes_per_s; /* bytes_per_s < 0 when bytes unknown */
	double peak_share, bw_share;     /* achieved / peak, 1.0 = 100% */
	const char *peak_dtype;          /* "bf16", ...; NULL when none */
	const char *util_note;           /* refusal, or the cause of a share above 100% */
	/* Headroom (a HYPOTHESIS, like every roofline verdict): costed kernel
	 * time minus the time at the roof with ideal traffic, max(FLOPs / peak,
	 * bytes / bandwidth); an upper bound on what a fix could save. 0 when
	 * the row is at or above its roof; < 0 when it cannot be given (no
	 * utilization, or no peak for the row's dtype). */
	double recoverable_ns;
} tlc_profile_row;

/** How the rows' costed kernel time adds up (exact, integer ns): every
 *  attributed or ambiguous kernel ns of the join lies in exactly one of
 *  rows_ns (shown and hidden rows, ambiguous group rows included) and
 *  not_op_ns; with phase -1 their sum is joined_ns. */
typedef struct tlc_profile_rollup {
	uint32_t size;          /* sizeof(tlc_profile_rollup) of the caller's build */
	int present;            /* a join's per-row times were read */
	int64_t rows_ns;        /* costed kernel ns of all rows */
	int64_t hidden_ns;      /* of rows_ns: rows cut by top */
	int64_t ambiguous_ns;   /* of rows_ns: ambiguous group rows */
	int64_t not_op_ns;      /* costed row is not a costed op (a wrapper, a
	                           structural row): not in any row */
	int64_t joined_ns;      /* the join's kernel_attributed_ns +
	                           kernel_ambiguous_ns; -1 when a phase is chosen
	                           or no join was given */
} tlc_profile_rollup;
#define TLC_PROFILE_ROLLUP_INIT { sizeof(tlc_profile_rollup), 0, 0, 0, 0, 0, -1 }

typedef struct tlc_profile tlc_profile;
/** Reads the device times of the evaluation's latest join, if any (the
 *  overlay attached to it), without ambiguous group rows. */
int tlc_profile_build(tlc_profile **out, const tlc_eval *ev, const tlc_profile_options *opts);
/** Same, reading the device-time join j (borrowed, may be NULL) beside the
 *  evaluation: its per-row times, the costed-row roll-up and one row per
 *  ambiguous group (issue 24 item 1, issue 25 item 1). */
int tlc_profile_build_joined(tlc_profile **out, const tlc_eval *ev, const struct tlc_join *j,
                             const tlc_profile_options *opts);
void tlc_profile_free(tlc_profile *prof);
struct tlc_ceilings;
/** tlc_profile_build_joined with attributed kernel utilization per row
 *  against the ceilings c (as the roofline resolves them: a preset, the
 *  input's device, or user peaks). Refused (TLC_EREFUSED,
 *  kernel_utilization_requires_device_join) when j is NULL or did not pass
 *  its gate; the ceilings' errors otherwise (roofline_device_missing, ...). */
int tlc_profile_build_util(tlc_profile **out, const tlc_eval *ev, const struct tlc_join *j,
                           const tlc_profile_options *opts, const struct tlc_ceilings *c);
/** Rows shown (after top); tlc_profile_hidden_rows says how many were cut. */
size_t tlc_profile_row_count(const tlc_profile *prof);
const tlc_profile_row *tlc_profile_row_at(const tlc_profile *prof, size_t i);
size_t tlc_profile_hidden_rows(const tlc_profile *prof);
/** Fills *out (the fields out->size covers). TLC_EINVAL (invalid_argument)
 *  when prof or out is NULL or out->size is below the first layout. */
int tlc_profile_rollup_get(const tlc_profile *prof, tlc_profile_rollup *out);
int tlc_write_profile(FILE *out, const tlc_profile *prof, tlc_format fmt);
#define tlc_profile_write tlc_write_profile /* module-first spelling (docs/api.md, "Names") */

#ifdef __cplusplus
}
#endif
#endif /* TLCOST_PROFILE_H */
