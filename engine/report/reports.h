/* Shared helpers of the reports (tree, profile, roofline, svg, mfu,
 * report): semi-private. Exact sums use tlc_count; doubles only for ratios
 * and plot coordinates. */
#ifndef TLC_ENGINE_REPORTS_H
#define TLC_ENGINE_REPORTS_H

#include <stdio.h>
#include "tlcost/tlcost.h"
#include "alloc.h"
#include "count.h"
#include "jsonw.h"

/** Refuses (reports_need_ops) an evaluation without kept rows or not
 *  finished. */
int tlc_rep__check_eval(const tlc_eval *ev);

/** Nonzero when the row has a cost (known or zero_by_rule). */
int tlc_rep__counted(const tlc_op_row *r);
/** acc += fma=2 FLOPs of the row (no-op for rows without a cost). */
void tlc_rep__add_flops(tlc_count *acc, const tlc_op_row *r);
/** acc += ideal bytes (read + written). Returns nonzero when the row's
 *  bytes are unknown (missing cost or unknown element size): acc untouched. */
int tlc_rep__add_bytes(tlc_count *acc, const tlc_op_row *r);

/** Op family for legends and grouping ("matmul", "conv", ...). */
const char *tlc_rep__family(const char *name);

/** Exact decimal of c in an arena (NULL on allocation failure). */
const char *tlc_rep__count_dup(tlc_arena *ar, const tlc_count *c);
/* Grouped decimals and CSV fields: tlc_textw__group, tlc_textw__csv
 * (engine/output/textw.h). */
/** Human quantity: 1.23e12 -> "1.23 T" (3 significant digits). */
const char *tlc_rep__si(char *buf, size_t cap, double v);


/** Ceilings after resolution (device preset or user values). */
typedef struct tlc_rep_ceil {
	tlc_device_preset dev;   /* copy; strings point into devs/static data */
	const char *from;        /* "input", "option", "user_ceilings" */
	int dtype_forced;        /* -1 or tlc_peak_dtype */
} tlc_rep_ceil;

/** Resolves ceilings for ev. TLC_ENOTFOUND with roofline_device_missing or
 *  device_unknown, TLC_EINVAL with ceilings_invalid. */
int tlc_rep__resolve(tlc_rep_ceil *out, const tlc_eval *ev, const tlc_ceilings *c);

/** Peak dtype of one phase: the dtype carrying the most FLOPs among the
 *  phase's counted ops (fp32 when none has a floating dtype), or the forced
 *  one. */
tlc_peak_dtype tlc_rep__phase_dtype(const tlc_eval *ev, int phase, int forced);
/** tlc_rep__phase_dtype of every phase (out[p]), in one pass over the rows. */
void tlc_rep__phase_dtypes(tlc_peak_dtype out[TLC_PHASE_COUNT], const tlc_eval *ev, int forced);

/** The unknown count of ev, the one wording of every surface: "3
 *  unknown-cost calls of 1 op type" (calls: ops without a cost; op types:
 *  ledger groups), or "0 unknown-cost calls". Returns buf. */
const char *tlc_rep__unknown_phrase(char *buf, size_t cap, const tlc_eval *ev);
/** The LOWER BOUND / COMPLETE line of the contract (section 3). */
void tlc_rep__coverage_line(FILE *out, const tlc_eval *ev);
/** Same; narrow puts the remedy on its own line (80-column reports). */
void tlc_rep__coverage_line_w(FILE *out, const tlc_eval *ev, int narrow);

/** The evaluation and options a tree was built from (tree_write.c). */
const tlc_eval *tlc_tree__eval(const tlc_tree *tree);
const tlc_tree_options *tlc_tree__options(const tlc_tree *tree);

/** Profile internals for its writer (profile_write.c). */
const tlc_profile_options *tlc_profile__options(const tlc_profile *prof);
const tlc_eval *tlc_profile__eval(const tlc_profile *prof);
int tlc_profile__any_time(const tlc_profile *prof);
int tlc_profile__any_device_time(const tlc_profile *prof);
int tlc_profile__util(const tlc_profile *prof);
const tlc_rep_ceil *tlc_profile__ceil(const tlc_profile *prof);
/** Builds the tables opts[0..n) over the same eval and join (j may be
 *  NULL) in one pass over the rows: out[k] is what
 *  tlc_profile_build_joined(ev, j, opts[k]) returns (tlcost html's
 *  profile-shaped tables share the pass). On error every out[k] is NULL. */
int tlc_profile__build_set(tlc_profile **out, size_t n, const tlc_eval *ev, const tlc_join *j,
                           const tlc_profile_options *const *opts);
/** tlc_profile_build_util in two steps: the refusals and ceilings it
 *  checks before reading a row, then the utilization of a table built
 *  with the same join. */
int tlc_profile__util_check(tlc_rep_ceil *out, const tlc_eval *ev, const tlc_join *j,
                            const tlc_ceilings *c);
int tlc_profile__util_apply(tlc_profile *p, const tlc_rep_ceil *ceil);

/** One device as a JSON object. */
void tlc_rep__device_json(yajl_gen g, const tlc_device_preset *d);
/** The tree document (schema tlcost.tree/2) as one JSON object. */
void tlc_rep__tree_json(yajl_gen g, const tlc_tree *t);

/** tlc_roofline_build with the summary only (the same figures; no rows
 *  kept: tlc_roofline_row_count is 0), for a page that shows the summary
 *  and leaves the per-op chart out above its point limit. */
int tlc_roofline__build_summary(tlc_roofline **out, const tlc_eval *ev,
                                const tlc_roofline_options *opts);
/** The evaluation a roofline was built from. */
const tlc_eval *tlc_roofline__eval(const tlc_roofline *rl);
/** Row i's costed kernel ns under a passed gate (its measured point), or -1. */
int64_t tlc_roofline__measured_ns(const tlc_roofline *rl, size_t i);
int tlc_roofline__any_measured(const tlc_roofline *rl);
/** Device, ceilings, reason counts, hypotheses, aggregate intensity. */
void tlc_rep__roofline_summary_text(FILE *out, const tlc_roofline *rl);

/** The JSON members hypothesis..summary of a roofline (no braces). */
void tlc_rep__roofline_json_head(yajl_gen g, const tlc_roofline *rl);
/** The tree's column header and rows as text; width > 0 leaves out the self
 * FLOPs columns and cuts labels to fit. */
void tlc_rep__tree_text_rows(FILE *out, const tlc_tree *t, size_t width);

/** A device table (devices.c, devices_file.c). */
struct tlc_devices {
	const tlc_allocator *a;
	tlc_arena ar;
	tlc_device_preset *items;
	size_t n, cap;
};

/** Built-in presets (devices.c). */
size_t tlc_devices__builtin_count(void);
const tlc_device_preset *tlc_devices__builtin_at(size_t i);

/* ---- comms2: one device_work emitter (the eval's and the merge's) ---- */
/** The i-th gap to write (payload: the emitter's caller's data). */
typedef const tlc_device_gap *(*tlc_rep_gap_at)(const void *payload, size_t i);
/** Writes the "device_work" key and object of a flops partial: the counts
 *  of w and the ngaps gaps at(payload, 0..ngaps-1) in that order. */
/** acc += the exact integer written in text (decimal digits, validated by
 *  the caller). */
void tlc_rep__mpz_add_digits(mpz_t acc, const char *text);

/** Writes key: z as an exact JSON number (any size). */
void tlc_rep__json_mpz(yajl_gen g, const char *key, const mpz_t z);

void tlc_rep__json_device_work(yajl_gen g, const tlc_device_work *w, size_t ngaps,
                               tlc_rep_gap_at at, const void *payload);

#endif
