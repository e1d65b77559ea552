/* What a Kineto trace records about collectives (semi-private): the
 * record_param_comms fields of each event, the nccl:* annotations around
 * NCCL calls and the trace's distributedInfo. The reader (trace.c) feeds
 * them in while parsing; before the ops are pushed, the facts of nested rows
 * are folded into the outermost collective row of each call (c10d::*, else
 * record_param_comms), which push_one (trace_ops.c) hands to the rules as
 * keyword arguments (rules/collective.c). */
#ifndef TLC_ENGINE_TRACE_COMMS_H
#define TLC_ENGINE_TRACE_COMMS_H

#include <stddef.h>
#include <stdint.h>
#include "tlcost/tlcost.h"
#include "alloc.h"

#define TLC_COMM_MAX_SPLITS 1024

/* Presence bits of tlc_comm_info. */
#define TCI_NAME   (1u << 0)
#define TCI_IN     (1u << 1)
#define TCI_OUT    (1u << 2)
#define TCI_GROUP  (1u << 3)
#define TCI_DTYPE  (1u << 4)
#define TCI_RANKS  (1u << 5) /* Process Group Ranks counted */
#define TCI_PG     (1u << 6)
#define TCI_INSPL  (1u << 7)
#define TCI_OUTSPL (1u << 8)
#define TCI_ANNOT  (1u << 9) /* an nccl:* annotation lies inside */

typedef struct tlc_comm_info {
	unsigned have;
	char name[40];      /* Collective name, or the nccl:* suffix */
	char dtype[24];
	char pg[24];        /* Process Group Name */
	int64_t in, out, group, nranks;
	int64_t in_split, out_split; /* sums of the split-size lists */
} tlc_comm_info;

/* An nccl:* user annotation: where it lies and what its tensor is. */
typedef struct tlc_comm_annot {
	int64_t start_ns, end_ns, pid, tid;
	tlc_comm_info info;
} tlc_comm_annot;

/* The collective fields newer Kineto copies onto an NCCL/RCCL kernel event
 * from its record_param_comms op, and where the kernel came from: its
 * External id (that op's) and its correlation (the launching call's). */
typedef struct tlc_comm_kernel {
	int64_t ext, corr;   /* -1 when not recorded */
	tlc_comm_info info;
} tlc_comm_kernel;

/* A host launch call (runtime/driver, with a correlation): where a kernel
 * whose External id names no collective row was launched from. */
typedef struct tlc_comm_launch {
	int64_t corr, start_ns, end_ns, pid, tid;
} tlc_comm_launch;

typedef struct tlc_comm_pg {
	char name[24];
	int64_t size;
} tlc_comm_pg;

typedef struct tlc_trace_comms {
	const tlc_allocator *a;
	/* the event being parsed */
	tlc_comm_info cur;
	int cur_written;      /* cur may hold something (tlc_trace_comms__value ran) */
	int key;              /* which comm key the current args key is, -1 none */
	/* per collective row (tlc_trace_op.comm - 1) */
	tlc_comm_info *rows;
	size_t nrows, rcap;
	tlc_comm_annot *annots;
	size_t nannots, acap;
	tlc_comm_kernel *kernels; /* kernel events carrying collective fields */
	size_t nkernels, kcap;
	size_t nlaunches;     /* launch calls kept: the eval's device records marked
	                         TLC_EVAL__MARK_COMM_LAUNCH (they hold corr, times,
	                         pid, tid) */
	/* distributedInfo */
	int dist_depth;       /* depth inside distributedInfo (0: outside) */
	int dist_key;         /* current key at the level being read */
	int has_dist;
	int64_t rank, world_size;
	char backend[32];
	tlc_comm_pg pgs[64];
	size_t npgs;
	tlc_comm_pg pg_cur;
} tlc_trace_comms;

void tlc_trace_comms__init(tlc_trace_comms *c, const tlc_allocator *a);
void tlc_trace_comms__free(tlc_trace_comms *c);
/** A new event begins. */
void tlc_trace_comms__begin(tlc_trace_comms *c);
/** An args key: returns 1 (and remembers it) when it is a comm field. */
int tlc_trace_comms__key(tlc_trace_comms *c, const unsigned char *s, size_t n);
/** A scalar value of the remembered comm key (number or string). Returns
 *  0, or -1 with *why set when the value is malformed. */
int tlc_trace_comms__value(tlc_trace_comms *c, int is_string, const char *s, size_t n,
                           const char **why);
/** Whether a cpu_op of this name or with these fields is a collective row. */
int tlc_trace_comms__is_row(const tlc_trace_comms *c, const char *name);
/** Keeps the current event's fields for a collective row: *out = index+1, or
 *  0 with TLC_ENOMEM. */
int tlc_trace_comms__keep_row(uint32_t *out, tlc_trace_comms *c);
/** Keeps an nccl:* annotation (name "nccl:..."): nelems and dtype from its
 *  first tensor (Input Dims / Input type already captured). */
struct tlc_tnode;
int tlc_trace_comms__keep_annot(tlc_trace_comms *c, const char *name, int64_t start_ns,
                                int64_t end_ns, int64_t pid, int64_t tid,
                                const struct tlc_tnode *dims, const struct tlc_tnode *types);

/** Keeps the current event's fields for a kernel event (ext, corr: -1 when
 *  absent). 0 or TLC_ENOMEM. */
int tlc_trace_comms__keep_kernel(tlc_trace_comms *c, int64_t ext, int64_t corr);
/** Keeps a host launch call's position by its correlation: marks its
 *  device record, just pushed to ev, whose correlation, start, end, device
 *  (pid) and thread (tid) are the call's. 0 or TLC_ENOMEM. */
int tlc_trace_comms__keep_launch(tlc_trace_comms *c, tlc_eval *ev);

/** Before the ops are pushed: folds the facts of nested rows, nccl:*
 *  annotations and collective kernels into every enclosing collective row
 *  (same thread, time containment). A kernel is placed at the collective
 *  row its External id names, else at its launch call (by correlation);
 *  it is a source of facts, never an op, so a collective is costed once
 *  whether its host row, its kernel or both record the fields. 0 or
 *  TLC_ENOMEM. */
struct tlc_trace_op;
int tlc_trace_comms__fold(tlc_trace_comms *c, const struct tlc_trace_op *ops, size_t nops,
                          const tlc_eval *ev);
/** While an op is pushed: names a record_param_comms row by its collective
 *  (overload) and attaches the row's facts as keyword arguments (in ar). */
int tlc_trace_comms__apply(tlc_op *op, tlc_arena *ar, const tlc_trace_comms *c,
                           const struct tlc_trace_op *o);

/* distributedInfo: the reader forwards every token inside it. */
void tlc_trace_comms__dist_open(tlc_trace_comms *c);    /* a map or array opens */
void tlc_trace_comms__dist_close(tlc_trace_comms *c);   /* ... closes */
void tlc_trace_comms__dist_key(tlc_trace_comms *c, const unsigned char *s, size_t n);
void tlc_trace_comms__dist_scalar(tlc_trace_comms *c, int is_string, const char *s, size_t n);
/** Sets the eval's rank identity when distributedInfo was read. */
int tlc_trace_comms__publish(tlc_trace_comms *c, tlc_eval *ev);

#endif
