/*
 * libtlcost ranks: one report over many ranks' traces (per rank, merged
 * totals, stragglers, achieved collective bandwidth; docs/collectives.md).
 *
 * Part of the libtlcost public API; <tlcost/tlcost.h> includes every module
 * header. Each header compiles on its own (tests/build/headers.sh).
 */
#ifndef TLCOST_RANKS_H
#define TLCOST_RANKS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common.h"
#include "eval.h"
#include "join.h"
#include "comm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- ranks: one report over many ranks ---- */

/** Per-rank rows of a distributed job: exact FLOPs and communication bytes
 *  per phase, device kernel / idle / communication time and overlap, and
 *  the stragglers. The caller evaluates one rank at a time (memory bounded
 *  by the largest trace), adds it, and frees it. */
typedef struct tlc_ranks tlc_ranks;
typedef struct tlc_ranks_options {
	uint32_t size;               /* sizeof(tlc_ranks_options) */
	uint32_t threshold_permille; /* straggler: compute time > median x (1 + t/1000); 0 = 100 */
} tlc_ranks_options;
/** The size set, every other field its default (straggler threshold 10%). */
#define TLC_RANKS_OPTIONS_INIT { sizeof(tlc_ranks_options), 0 }

int tlc_ranks_new(tlc_ranks **out, const tlc_ranks_options *opts);
void tlc_ranks_free(tlc_ranks *r);
/** Adds one rank from a finished eval (keep_ops) and its join (NULL: no
 *  device times). Copies what it keeps. Errors: ranks_duplicate_rank. */
int tlc_ranks_add(tlc_ranks *r, const tlc_eval *ev, const tlc_join *j, const char *name);
size_t tlc_ranks_count(const tlc_ranks *r);
/** Records a notice about the inputs (copied), printed by tlc_ranks_write
 *  in text (a "notice: CODE: INPUT: MESSAGE" line) and JSON ("notices":
 *  [{code, input, message}]): an entry of a directory that was skipped, an
 *  input with the same bytes as another. Errors: invalid_argument,
 *  out_of_memory. */
int tlc_ranks_add_notice(tlc_ranks *r, const char *code, const char *input,
                         const char *message);
/** Writes the table, merged totals and stragglers (text, json, csv).
 *  Errors: ranks_empty, io_error. */
int tlc_ranks_write(FILE *out, const tlc_ranks *r, tlc_format fmt);

/** Link ceiling for tlc_ranks_write's achieved-bandwidth table (NULL: from
 *  each rank's device when a preset matches it; else no ceiling). */
int tlc_ranks_set_link(tlc_ranks *r, const tlc_link_preset *link);

#ifdef __cplusplus
}
#endif
#endif /* TLCOST_RANKS_H */
