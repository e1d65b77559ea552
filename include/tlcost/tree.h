/*
 * libtlcost cost tree report (contract section 5).
 *
 * Part of the libtlcost public API; <tlcost/tlcost.h> includes every module
 * header. Each header compiles on its own (tests/build/headers.sh).
 */
#ifndef TLCOST_TREE_H
#define TLCOST_TREE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common.h"
#include "eval.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reports read a finished evaluation made with keep_ops set; without kept
 * rows they refuse with reports_need_ops. Objects they return own their
 * strings; free them with the matching *_free. docs/reports.md has the
 * text, JSON and CSV layouts. */

typedef struct tlc_tree tlc_tree;

typedef struct tlc_tree_options {
	uint32_t size;    /* sizeof(tlc_tree_options) */
	tlc_phase phase;  /* TLC_PHASE_FORWARD by default (zeroed options) */
	size_t top;       /* keep the K largest children per node; 0 = all */
	size_t depth;     /* hide nodes deeper than D (root = 0); 0 = no limit */
	int no_fold;      /* nonzero: never fold identical sibling blocks */
} tlc_tree_options;
/** The size set, every other field its default. */
#define TLC_TREE_OPTIONS_INIT { sizeof(tlc_tree_options), TLC_PHASE_FORWARD, 0, 0, 0 }

typedef enum tlc_tree_row_kind {
	TLC_TREE_NODE = 0,   /* a module call (or folded identical calls) */
	TLC_TREE_MORE,       /* "(+ N more calls)": children cut by top */
	TLC_TREE_BELOW       /* "(+ N calls below depth D)" */
} tlc_tree_row_kind;

/** One printed row. For TLC_TREE_NODE with repeat > 1, values cover all
 *  repeat blocks together. For remainder rows self == subtree == what they
 *  hide, so the self column always adds up to the total. */
typedef struct tlc_tree_row {
	tlc_tree_row_kind kind;
	size_t depth;
	const char *path;        /* module path ("" = root); for folded rows the first block */
	const char *last_path;   /* last folded block (== path when repeat == 1) */
	const char *label;       /* display label */
	const char *module_type; /* "" when unknown */
	int64_t call;            /* module_call, -1 when not recorded */
	uint64_t repeat;         /* folded identical blocks (1 = not folded) */
	uint64_t hidden_calls;   /* remainder rows: module calls hidden */
	const char *self_flops;  /* exact decimal, fma=2 */
	const char *subtree_flops;
	double self_pct, subtree_pct; /* of the phase's known total; 0 when it is 0 */
	uint64_t self_ops, self_unknown, subtree_unknown;
	/* Appended in 5:0:1 (issue 25 item 1): kernel time whose costed row
	 * (docs/cost-contract.md, "Costed row") is an op of the row's module
	 * (self) or of its subtree, exact integer ns; for a folded row the sum
	 * over every folded block (blocks fold by cost, their times differ).
	 * Only with a device-time join (has_device_time). */
	int has_device_time;
	int64_t self_kernel_ns, subtree_kernel_ns;
} tlc_tree_row;

/** The tree's device time (exact, integer ns): the rows' self_kernel_ns
 *  add up to rows_ns (remainder rows included); not_op_ns is the phase's
 *  costed kernel time on rows that are not costed ops (wrappers). */
typedef struct tlc_tree_device {
	uint32_t size;          /* sizeof(tlc_tree_device) of the caller's build */
	int present;            /* a device-time join's overlay was read */
	int64_t rows_ns;        /* costed kernel ns on the phase's op rows */
	int64_t hidden_ns;      /* of it, in remainder rows */
	int64_t not_op_ns;
} tlc_tree_device;
#define TLC_TREE_DEVICE_INIT { sizeof(tlc_tree_device), 0, 0, 0, 0 }
struct tlc_join;

/** Builds the tree of one phase. Errors: reports_need_ops, tree_phase_empty
 *  is not an error (an empty tree has only the root). */
int tlc_tree_build(tlc_tree **out, const tlc_eval *ev, const tlc_tree_options *opts);
/** Same, with the device-time join j beside the evaluation (borrowed; NULL:
 *  the evaluation's latest join, if any): rows carry costed kernel time. */
int tlc_tree_build_joined(tlc_tree **out, const tlc_eval *ev, const struct tlc_join *j,
                          const tlc_tree_options *opts);
/** Fills *out (the fields out->size covers); TLC_EINVAL when an argument
 *  is NULL or out->size is below the first layout. */
int tlc_tree_device_get(const tlc_tree *tree, tlc_tree_device *out);
void tlc_tree_free(tlc_tree *tree);
size_t tlc_tree_row_count(const tlc_tree *tree);
const tlc_tree_row *tlc_tree_row_at(const tlc_tree *tree, size_t i);
/** Exact decimal totals: all FLOPs of the phase, and the part inside
 *  remainder rows. Valid until tlc_tree_free. */
const char *tlc_tree_total_flops(const tlc_tree *tree);
const char *tlc_tree_hidden_flops(const tlc_tree *tree);
uint64_t tlc_tree_hidden_calls(const tlc_tree *tree);
int tlc_write_tree(FILE *out, const tlc_tree *tree, tlc_format fmt);
#define tlc_tree_write tlc_write_tree /* module-first spelling (docs/api.md, "Names") */

#ifdef __cplusplus
}
#endif
#endif /* TLCOST_TREE_H */
