/*
 * libtlcost diff: what changed between two evaluations A and B, aligned
 * call by call, split into a change of work and a change of speed
 * (docs/diff.md).
 *
 * Part of the libtlcost public API; <tlcost/tlcost.h> includes every module
 * header. Each header compiles on its own (tests/build/headers.sh).
 */
#ifndef TLCOST_DIFF_H
#define TLCOST_DIFF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common.h"
#include "eval.h"
#include "join.h"

#ifdef __cplusplus
extern "C" {
#endif

/** How a group's rows were aligned, most specific first. */
typedef enum tlc_diff_match {
	TLC_DIFF_SAME_CALL = 0, /* phase, module, op, overload, shapes+dtypes, occurrence */
	TLC_DIFF_SHAPE_CHANGE,  /* same phase, module, op, overload and occurrence; other shapes */
	TLC_DIFF_SAME_TYPE,     /* same phase, op and overload; another module */
	TLC_DIFF_ONLY_A,        /* rows of A that nothing in B matched */
	TLC_DIFF_ONLY_B,        /* rows of B that nothing in A matched */
	TLC_DIFF_MATCH_COUNT
} tlc_diff_match;

const char *tlc_diff_match_name(tlc_diff_match m);

/** What the rows of a diff are. */
typedef enum tlc_diff_by {
	TLC_DIFF_BY_GROUP = 0, /* one row per alignment group (the default) */
	TLC_DIFF_BY_TYPE,      /* per op type (name.overload) */
	TLC_DIFF_BY_MODULE     /* per module path ("A -> B" when a group moved) */
} tlc_diff_by;

typedef struct tlc_diff_options {
	uint32_t size;  /* sizeof(tlc_diff_options) */
	tlc_diff_by by;
	size_t top;     /* rows to keep after sorting; 0 = all */
} tlc_diff_options;

#define TLC_DIFF_OPTIONS_INIT { sizeof(tlc_diff_options), TLC_DIFF_BY_GROUP, 0 }

/** One side (A or B) of a diff row. Exact decimals are of the rows that
 *  have a cost (known, zero_by_rule, or the determined terms of a partly
 *  known op), as every total of tlcost; `unknown` counts the rows without
 *  one, so a figure is a lower bound when it is nonzero. */
typedef struct tlc_diff_side {
	uint64_t count;          /* op rows (every class) */
	uint64_t unknown;        /* rows of class unknown */
	const char *macs, *other_flops, *flops, *bytes; /* exact decimals; bytes NULL when
	                                                   some element size was unknown */
	int64_t kernel_ns;       /* attributed kernel time (meaningful when has_time) */
} tlc_diff_side;

/** One row of a diff: a group, an op type or a module (tlc_diff_by), or
 *  the totals (tlc_diff_total). Deltas are B - A, exact signed decimals. */
typedef struct tlc_diff_row {
	const char *key;         /* what the row is, as text */
	tlc_diff_match match;    /* TLC_DIFF_BY_GROUP rows only (else SAME_CALL) */
	int phase;               /* a tlc_phase, or -1 for rows over several phases */
	const char *name, *overload;        /* group rows: the op ("" overload) */
	const char *module_a, *module_b;    /* group rows: NULL on the absent side */
	const char *shapes_a, *shapes_b;    /* group rows: NULL on the absent side */
	tlc_diff_side a, b;
	const char *d_count, *d_unknown, *d_macs, *d_other_flops, *d_flops, *d_bytes;
	/* d_bytes NULL when either side's bytes are unknown */
	uint64_t class_changed;  /* aligned pairs whose class or rule reason differ */
	/* device time: only where both sides passed the gate for the phase */
	int has_time;
	int64_t d_time_ns;       /* b.kernel_ns - a.kernel_ns */
	int64_t d_work_ns;       /* B's work at A's rate minus A's time */
	int64_t d_rate_ns;       /* the rest */
	int64_t d_unsplit_ns;    /* time whose split is undefined (unknown cost, A without
	                            work or time); d_work + d_rate + d_unsplit = d_time */
	uint64_t untimed_a, untimed_b; /* rows left out of the time (gate not passed) */
} tlc_diff_row;

typedef struct tlc_diff tlc_diff;

/** Aligns the kept op rows of two finished evaluations (keep_ops) and
 *  sums each group's figures on both sides. ja and jb are the joins run
 *  on a and b, or NULL: device time is compared only where both passed
 *  the gate of a row's phase. The evaluations and joins must outlive the
 *  diff. Errors: reports_need_ops, invalid_argument, out_of_memory. Free
 *  with tlc_diff_free. Time and memory are linear in the rows. */
int tlc_diff_build(tlc_diff **out, const tlc_eval *a, const tlc_join *ja, const tlc_eval *b,
                   const tlc_join *jb, const tlc_diff_options *opts);
void tlc_diff_free(tlc_diff *d);

/** Rows kept, sorted by |d_time_ns| when some row has time, else by
 *  |d_flops|, then by key. */
size_t tlc_diff_row_count(const tlc_diff *d);
const tlc_diff_row *tlc_diff_row_at(const tlc_diff *d, size_t i);
/** Rows cut by opts->top. */
size_t tlc_diff_hidden_rows(const tlc_diff *d);
/** Totals over every group (hidden ones too) of one phase, or all phases
 *  (phase -1). NULL for a phase out of range. */
const tlc_diff_row *tlc_diff_total(const tlc_diff *d, int phase);
/** Nonzero when either side's totals are a lower bound. */
int tlc_diff_lower_bound(const tlc_diff *d, int side_b);
/** Nonzero when device time was compared (both joins passed the gate of
 *  some phase). */
int tlc_diff_has_time(const tlc_diff *d);

/** Evaluates one CI condition (`[PHASE.]FIGURE OP VALUE[%]`, e.g.
 *  `forward.flops>+1%`, `kernel_time>+5%`, `coverage.unknown>0`) on the
 *  totals: *holds is 1 when it holds. *explain (free with tlc_free; may be
 *  NULL) says the figure's values. Errors: diff_condition_invalid (the text
 *  does not parse; TLC_EINVAL) and diff_figure_unavailable (the inputs
 *  cannot give the figure, e.g. kernel time without a passed gate on both
 *  sides; TLC_EREFUSED). docs/diff.md lists the figures. */
int tlc_diff_condition(int *holds, char **explain, const tlc_diff *d, const char *expr);

/** The sum of diffs (ranks): tlc_diff_sum_new, tlc_diff_sum_add of each
 *  rank's diff (the rank's diff may be freed after), tlc_diff_sum_finish;
 *  then it reads as a diff with totals and no rows (tlc_diff_total,
 *  tlc_diff_condition, tlc_write_diff). Device time is compared in a phase
 *  only when every rank compared it. Free with tlc_diff_free. */
int tlc_diff_sum_new(tlc_diff **out);
int tlc_diff_sum_add(tlc_diff *sum, const tlc_diff *d);
int tlc_diff_sum_finish(tlc_diff *sum);

/** A diff of two flops partials (`tlcost flops --format json` texts, schema
 *  tlcost.flops/1; names for errors): the totals only (tlc_diff_total over
 *  all phases with calls and unknown calls; per phase without them), no rows,
 *  no device time (conditions on kernel_time, coverage.changed and per-phase
 *  counts are refused: diff_figure_unavailable). Errors: diff_input_partial
 *  (not a flops/1 partial; a join partial), the JSON parser's. */
int tlc_diff_build_partials(tlc_diff **out, const void *a, size_t alen, const char *name_a,
                            const void *b, size_t blen, const char *name_b);

/** Writes the diff as text, JSON (schema tlcost.diff/1) or CSV. */
int tlc_write_diff(FILE *out, const tlc_diff *d, tlc_format fmt);

#ifdef __cplusplus
}
#endif
#endif /* TLCOST_DIFF_H */
