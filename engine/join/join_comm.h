/* Communication through a device-time join (semi-private): the device
 * times of a joined input's kernels, communication/computation overlap
 * and, under a passed gate, each collective's rolled-up kernel time and the
 * achieved bandwidth that follows from it (docs/collectives.md, "Achieved
 * bandwidth"). One computation for `tlcost join` (write_join.c) and
 * `tlcost ranks` (engine/report/ranks.c).
 *
 * Kernel time is the union of kernel intervals; communication kernels are
 * the NCCL/RCCL kernels (name contains "nccl" or "rccl"); overlap is the
 * share of communication kernel time during which a compute kernel runs
 * (on another stream: one stream runs one kernel at a time), as HTA's
 * communication/computation overlap. A kernel's phase is its op's. */
#ifndef TLC_ENGINE_JOIN_COMM_H
#define TLC_ENGINE_JOIN_COMM_H

#include <gmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <yajl/yajl_gen.h>
#include "tlcost/tlcost.h"

typedef struct tlc_join__span {   /* 48 bytes: steps keeps two per launch */
	int64_t start, end;
	int64_t device;     /* the record's device index */
	int64_t queued;     /* start of the launching runtime call, INT64_MIN: none */
	uint32_t launch;    /* the join's launch index (32 bits: rows.h caps the stores) */
	int8_t phase;       /* tlc_phase, -1 unknown */
	int8_t kind;        /* tlc_comm_kind of a comm kernel's op, -1 unknown */
	uint8_t comm;       /* an NCCL/RCCL kernel */
	uint8_t what;       /* TLC_JOIN__KERNEL, __COPY (memcpy/memset) or __QUEUED */
	int8_t tag;         /* the caller's class of the span (0 unless set) */
} tlc_join__span;

enum {
	TLC_JOIN__KERNEL = 0,
	TLC_JOIN__COPY = 1,   /* a memcpy or memset */
	TLC_JOIN__QUEUED = 2  /* a pending launch: runtime call start to work start (a caller's) */
};

/** Which spans a union takes: what <= what_max, comm 0/1 (-1 both; copies
 *  and queued spans are never comm), phase (-1 any), tag <= tag_max (-1
 *  any), each clipped to [lo, hi). */
typedef struct tlc_join__sel {
	int what_max, want, phase, tag_max;
	int64_t lo, hi;
} tlc_join__sel;

/** Union length of the sorted spans sel takes. */
int64_t tlc_join__union_in(const tlc_join__span *v, size_t n, const tlc_join__sel *sel);

/** The device work of ev through its join j (j NULL: none), sorted by
 *  start: every kernel, and with copies also every memcpy and memset
 *  (what = TLC_JOIN__COPY) and each span's queued time (else INT64_MIN),
 *  each with its phase, collective kind and device. *out is
 *  malloc'ed (free). 0 or TLC_ENOMEM. One collection for `join`, `ranks`
 *  and `steps`. */
int tlc_join__spans(tlc_join__span **out, size_t *n, const tlc_eval *ev, const tlc_join *j,
                    int copies);

/** Kernel times of sorted spans clipped to [lo, hi) (copies skipped):
 *  kernel = union of all kernels, comm = union of NCCL/RCCL kernels,
 *  compute = union of the other kernels, overlap = comm time during which
 *  a compute kernel runs. The one definition of compute, communication,
 *  overlap and idle (span minus kernel) for `join`, `ranks` and `steps`. */
typedef struct tlc_join__times {
	int64_t kernel_ns, compute_ns, comm_ns, overlap_ns;
} tlc_join__times;
void tlc_join__times_in(tlc_join__times *out, const tlc_join__span *v, size_t n, int64_t lo,
                        int64_t hi);

/* One costed collective op and its rolled-up kernel time. */
typedef struct tlc_join__coll {
	int kind, phase;
	int64_t ns;                       /* 0: no kernel time attributed */
	char *msg, *bus;                  /* exact; tlc_free */
} tlc_join__coll;

typedef struct tlc_join__comm {
	int joined;                       /* the join attributed launches */
	int64_t first, last;              /* device span */
	int64_t kernel_ns, comm_ns, compute_ns, overlap_ns;
	int64_t ph_kernel[TLC_PHASE_COUNT], ph_comm[TLC_PHASE_COUNT], ph_overlap[TLC_PHASE_COUNT];
	tlc_join__span *colls;            /* communication kernels, start order */
	size_t ncolls;
	/* achieved bandwidth: only when the join passed its gate */
	int gate_passed;
	uint64_t bw_calls[TLC_COMM_COUNT], bw_timed[TLC_COMM_COUNT];
	int64_t bw_ns[TLC_COMM_COUNT];
	mpz_t bw_msg[TLC_COMM_COUNT];      /* of the timed calls */
	mpq_t bw_bus[TLC_COMM_COUNT];
	tlc_join__coll *bw_list;          /* each collective op, in row order */
	size_t nbw, bwcap;
} tlc_join__comm;

/** Computes c from ev and its join j (j may be NULL: no device time, no
 *  achieved figure). c is initialized here; free it with
 *  tlc_join__comm_free, also after an error. 0 or TLC_ENOMEM. */
int tlc_join__comm_compute(tlc_join__comm *c, const tlc_eval *ev, const tlc_join *j);
/** The same from the spans tlc_join__spans(ev, j, copies 1) returned
 *  (borrowed; all NULL: collected here), so a caller that also needs the
 *  copies (tlcost html: the join and the steps) collects them once. The
 *  result is the same, figure for figure. */
int tlc_join__comm_compute_spans(tlc_join__comm *c, const tlc_eval *ev, const tlc_join *j,
                                 const tlc_join__span *all, size_t nall);
void tlc_join__comm_free(tlc_join__comm *c);
/** msg += the exact integer m and bus += the exact rational b, both as
 *  tlc_eval_comm_bytes writes them (decimal; "p/q" for a fraction). */
void tlc_join__comm_add_bytes(mpz_t msg, mpq_t bus, const char *m, const char *b);
/** "distributed": {rank, world_size, backend} of the eval's input (null
 *  where not recorded); nothing when the input said nothing of ranks. One
 *  writer for the flops and the join JSON, which merge reads back. */
void tlc_join__dist_json(yajl_gen g, const tlc_eval *ev);
/** The same from the identity itself (NULL: nothing); the flops summary
 *  (report/flops_sum.c) writes it so. */
void tlc_join__dist_info_json(yajl_gen g, const tlc_dist_info *d);
/** Nonzero when the eval costed a collective or the join saw a
 *  communication kernel (the join report prints its section then). */
int tlc_join__comm_any(const tlc_join__comm *c);
/** Per collective kind (inside an open JSON map): one key per kind with
 *  calls, timed_calls, device_ns, exact message_bytes / bus_bytes and, with
 *  kernel time, the achieved algbw / busbw in bytes/s and the share of link
 *  (when link is not NULL). Only meaningful under a passed gate. */
void tlc_join__comm_kinds_json(yajl_gen g, const tlc_join__comm *c,
                               const tlc_link_preset *link);
/** The achieved part of a communication section (inside an open JSON map,
 *  under a passed gate): "link" (the preset or null), "kinds" (as above)
 *  and "overlap" (comm_ns and overlap_ns per phase with communication, and
 *  "all"). One writer for the join and for a merge of join partials. */
void tlc_join__comm_achieved_json(yajl_gen g, const tlc_join__comm *c,
                                  const tlc_link_preset *link);
/** One kind's text: "x4    (4 with kernel time): device 1.000 ms, achieved
 *  algbw ... GB/s, achieved busbw ... GB/s = 1.2% of nvlink4 (450.0 GB/s)\n". */
void tlc_join__comm_kind_text(FILE *out, const tlc_join__comm *c, int kind,
                              const tlc_link_preset *link);

#endif
