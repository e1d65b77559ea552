/*
 * libtlcost communication: the cost of collectives (kinds, bus factors,
 * exact message and bus bytes, the rank identity) and the link ceilings the
 * achieved bandwidth is compared with (docs/collectives.md).
 *
 * Part of the libtlcost public API; <tlcost/tlcost.h> includes every module
 * header. Each header compiles on its own (tests/build/headers.sh).
 */
#ifndef TLCOST_COMM_H
#define TLCOST_COMM_H

#include <stddef.h>
#include <stdint.h>

#include "common.h"
#include "eval.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- comm: communication cost of collectives ---- */

/** A rank's identity in a distributed job (the trace's distributedInfo). */
typedef struct tlc_dist_info {
	uint32_t size;          /* sizeof(tlc_dist_info) */
	int64_t rank;           /* -1 when not recorded */
	int64_t world_size;     /* -1 when not recorded */
	const char *backend;    /* "nccl", ... or NULL */
} tlc_dist_info;
/** The size set, every other field its default (rank and world size -1: not recorded). */
#define TLC_DIST_INFO_INIT { sizeof(tlc_dist_info), -1, -1, NULL }

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

/* ---- comm: link ceilings for achieved collective bandwidth ---- */

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

#ifdef __cplusplus
}
#endif
#endif /* TLCOST_COMM_H */
