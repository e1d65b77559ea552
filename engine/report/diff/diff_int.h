/* The diff report's model, shared by its builder (diff.c), its conditions
 * (diff_cond.c) and its writer (diff_write.c): semi-private. */
#ifndef TLC_REPORT_DIFF_INT_H
#define TLC_REPORT_DIFF_INT_H

#include "reports.h"

/* One side's sums of a row. */
typedef struct tlc_diff__acc {
	uint64_t count, unknown, untimed;
	tlc_count macs, other, bytes;
	int bytes_unknown;
	int64_t kns;
} tlc_diff__acc;

/* A row of the model: a group, a view row (by type, by module) or a total. */
typedef struct tlc_diff__row {
	tlc_diff_row pub;
	tlc_diff__acc s[2];
	uint64_t class_changed;
	int has_time;
	int64_t work, rate, unsplit;
	size_t order;       /* first appearance: stable ties */
	int tier;           /* 0 first: rows with time when the diff has time */
	double sort_key;    /* |d_time| or |d_flops|, for ordering only */
} tlc_diff__row;

struct tlc_diff {
	const tlc_allocator *al;
	tlc_arena ar;
	const tlc_eval *ev[2];
	const tlc_join *j[2];
	tlc_diff_options opts;
	tlc_diff__row *g;        /* alignment groups */
	size_t ng, capg;
	tlc_diff__row *v;        /* view rows (by type / module); == g for by group */
	size_t nv, capv, shown;
	tlc_diff__row tot[TLC_PHASE_COUNT + 1]; /* per phase, then all phases */
	int any_time;
	int timed[2][TLC_PHASE_COUNT]; /* side passed the gate of the phase */
	uint64_t match_rows[TLC_DIFF_MATCH_COUNT][2];
	int is_sum;              /* a sum over ranks (tlc_diff_sum_new): totals only */
	size_t nsum;             /* diffs added */
	int lower[2];            /* a sum: some rank's side was a lower bound */
	int is_partial;          /* two flops partials (diff_partial.c): totals only,
	                            no per-phase call counts, no device time */
	unsigned partial_phases; /* bit p: phase p is in a partial */
};

/** The rows the diff shows (its view). */
const tlc_diff__row *tlc_diff__rows(const tlc_diff *d, size_t *n);
/** Why side (0 A, 1 B) has no compared device time in phase, or NULL. */
const char *tlc_diff__untimed_why(const tlc_diff *d, int side, int phase);

#endif
