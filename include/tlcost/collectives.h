/*
 * libtlcost communication and many ranks: the communication cost of
 * collectives, the exact merge of flops partials, the multi-rank report and
 * the link ceilings (docs/collectives.md).
 *
 * Part of the libtlcost public API; <tlcost/tlcost.h> includes every module
 * header. Each header compiles on its own (tests/headers.sh).
 */
#ifndef TLCOST_COLLECTIVES_H
#define TLCOST_COLLECTIVES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common.h"
#include "eval.h"
#include "join.h"
#include "devices.h"
#include "writers.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- comms: communication cost of collectives (docs/collectives.md) ---- */

/** A rank's identity in a distributed job (the trace's distributedInfo). */
typedef struct tlc_dist_info {
	uint32_t size;          /* sizeof(tlc_dist_info) */
	int64_t rank;           /* -1 when not recorded */
	int64_t world_size;     /* -1 when not recorded */
	const char *backend;    /* "nccl", ... or NULL */
} tlc_dist_info;

/** Stable name of a collective kind ("allreduce", "allgather", ...). */
const char *tlc_comm_kind_name(tlc_comm_kind k);
/** Kind by name. Errors: invalid_argument. */
int tlc_comm_kind_from_name(tlc_comm_kind *out, const char *name);
/** nccl-tests' bus factor num/den of kind k for a group of n >= 1 ranks
 *  (all-reduce 2(n-1)/n; all-gather, reduce-scatter, all-to-all, gather,
 *  scatter (n-1)/n; others 1). Errors: invalid_argument. */
int tlc_comm_bus_factor(int64_t *num, int64_t *den, tlc_comm_kind k, int64_t n);
/** Collectives of kind k costed in phase p (0 before tlc_eval_finish). */
uint64_t tlc_eval_comm_calls(const tlc_eval *ev, tlc_phase p, tlc_comm_kind k);
/** Exact message bytes (decimal) and bus bytes ("N", or "P/Q" in lowest
 *  terms when not an integer) of phase p and kind k; either out may be
 *  NULL; free with tlc_free. Errors: invalid_argument, out_of_memory. */
int tlc_eval_comm_bytes(char **msg, char **bus, const tlc_eval *ev, tlc_phase p,
                        tlc_comm_kind k);
/** How the group sizes of the costed collectives were known: counts of
 *  recorded (out[0]), derived from buffer sizes (out[1]) and taken from the
 *  trace's world size (out[2]). */
void tlc_eval_comm_group_basis(uint64_t out[3], const tlc_eval *ev);
/** The op's communication when its rule gave one: returns 1 and sets the
 *  outs (any may be NULL; strings freed with tlc_free), 0 when the cost has
 *  none, negative on failure. */
int tlc_cost_comm(const tlc_cost *c, tlc_comm_kind *kind, int64_t *group_size,
                  char **msg, char **bus);
/** Sets / reads the rank identity (readers set it from distributedInfo;
 *  copied). tlc_eval_dist returns NULL when none was set. */
int tlc_eval_set_dist(tlc_eval *ev, const tlc_dist_info *d);
const tlc_dist_info *tlc_eval_dist(const tlc_eval *ev);


/* ---- merge: exact merge of flops partials (docs/collectives.md) ---- */

/** A merge of flops partials: the JSON documents of `tlcost flops
 *  --format json` (or of an earlier merge), one per input (a file, a rank).
 *  Totals, coverage counts, ledger entries, op types and communication are
 *  summed exactly; each input keeps its identity (name, rank). Merging is
 *  associative and order-independent. Memory: the distinct op names plus
 *  one identity row per input. Not thread-safe; one merge per thread. */
typedef struct tlc_merge tlc_merge;

int tlc_merge_new(tlc_merge **out);
void tlc_merge_free(tlc_merge *m);
/** Adds one partial from memory (json need not be NUL-terminated; name is
 *  its identity when it has no rank, and names it in errors). A refused
 *  document leaves the merge unchanged. Errors: merge_input_invalid (not
 *  JSON, not a flops partial), merge_schema_mismatch (another schema
 *  version), merge_incompatible (another count basis or FLOP convention),
 *  merge_duplicate_rank, merge_duplicate_input; after out_of_memory the
 *  merge holds an unspecified part of the document: free it. */
int tlc_merge_add_mem(tlc_merge *m, const void *json, size_t len, const char *name);
/** tlc_merge_add_mem on a file's contents. Errors: as above, io_error. */
int tlc_merge_add_file(tlc_merge *m, const char *path);
/** Number of inputs (identities) merged so far. */
size_t tlc_merge_count(const tlc_merge *m);
/** Notices about the inputs: an input with the same bytes as another
 *  (merge_identical_input: merged again, as given). The text output prints
 *  them; the merged JSON leaves them out (it stays the same whatever the
 *  order and bracketing of the inputs), so a caller writing JSON shows them
 *  itself. Strings valid until tlc_merge_free. Errors: invalid_argument. */
size_t tlc_merge_notice_count(const tlc_merge *m);
int tlc_merge_notice_get(const tlc_merge *m, size_t i, const char **code, const char **input,
                         const char **message);
/** Writes the merged partial (JSON: the flops schema plus `partials`, and
 *  per ledger entry `example_sources`) or a text summary. Errors:
 *  merge_empty, format_unsupported, io_error. */
int tlc_merge_write(FILE *out, const tlc_merge *m, tlc_format fmt);
/** The merged JSON in a malloc'd buffer (free with tlc_free). */
int tlc_merge_write_mem(char **out, size_t *len, const tlc_merge *m);


/* ---- ranks: one report over many ranks (docs/collectives.md) ---- */

/** Per-rank rows of a distributed job: exact FLOPs and communication bytes
 *  per phase, device kernel / idle / communication time and overlap, and
 *  the stragglers. The caller evaluates one rank at a time (memory bounded
 *  by the largest trace), adds it, and frees it. */
typedef struct tlc_ranks tlc_ranks;
typedef struct tlc_ranks_options {
	uint32_t size;               /* sizeof(tlc_ranks_options) */
	uint32_t threshold_permille; /* straggler: compute time > median x (1 + t/1000); 0 = 100 */
} tlc_ranks_options;

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


/* ---- comms: link ceilings for achieved collective bandwidth ---- */

/** A link ceiling: bytes/s per GPU and per direction, the figure nccl-tests'
 *  bus bandwidth is compared with (docs/collectives.md). */
typedef struct tlc_link_preset {
	const char *id;       /* "nvlink4" */
	const char *name;
	double bytes_per_s;
	const char *source;   /* vendor or standard figure */
	const char *date;
} tlc_link_preset;

size_t tlc_link_count(void);
const tlc_link_preset *tlc_link_at(size_t i);
/** By id. Errors: link_unknown. */
int tlc_link_find(const tlc_link_preset **out, const char *id);
/** The intra-node link of a device preset id ("h100-sxm" -> nvlink4), or NULL. */
const tlc_link_preset *tlc_link_for_device(const char *device_id);
/** Link ceiling for tlc_ranks_write's achieved-bandwidth table (NULL: from
 *  each rank's device when a preset matches it; else no ceiling). */
int tlc_ranks_set_link(tlc_ranks *r, const tlc_link_preset *link);

#ifdef __cplusplus
}
#endif
#endif /* TLCOST_COLLECTIVES_H */
