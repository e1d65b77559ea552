/* Kineto / Chrome-trace reader internals (semi-private): the compact records
 * the streaming parser keeps, and the op builder that turns them into op
 * records after the whole trace has been read (engine/input/kineto/trace_ops.c). */
#ifndef TLC_ENGINE_TRACE_H
#define TLC_ENGINE_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include "tlcost/tlcost.h"
#include "alloc.h"
#include "idmap.h"
#include "instream.h"
#include "trace_comms.h"

/* Bounds on hostile input (each exceeded bound is a typed error). */
#define TLC_TRACE_MAX_DEPTH 64       /* JSON nesting */
#define TLC_TRACE_MAX_ARGS 4096      /* entries of Input Dims / Input type */
#define TLC_TRACE_MAX_DIMS 64        /* dimensions of one tensor */
#define TLC_TRACE_MAX_STRING (1u << 20) /* one JSON string, bytes */

/* A small captured JSON value (Input Dims, Input type, ...): arrays of
 * scalars, at most a few levels deep. Lives in a per-event arena. */
typedef enum tlc_tnode_kind {
	TLC_TNODE_NULL = 0,
	TLC_TNODE_BOOL,
	TLC_TNODE_NUMBER,
	TLC_TNODE_STRING,
	TLC_TNODE_ARRAY,
	TLC_TNODE_MAP /* contents not kept */
} tlc_tnode_kind;

typedef struct tlc_tnode {
	tlc_tnode_kind kind;
	int boolean;
	const char *text; /* string text (NUL-terminated); numbers: NULL when integral */
	size_t len;
	int64_t ival;     /* numbers: the value, valid with ival_ok */
	int ival_ok;
	size_t n;         /* array: number of children */
	struct tlc_tnode *first, *last, *next;
	struct tlc_tnode *up;
} tlc_tnode;

/* tlc_trace_op.flags */
#define TLC_TOP_HAS_EXT      (1u << 0)
#define TLC_TOP_AUTOGRAD_FN  (1u << 1) /* autograd::engine::evaluate_function: */
#define TLC_TOP_OPT_STEP     (1u << 2) /* Optimizer.step# annotation */
#define TLC_TOP_AUTOGRAD_NODE (1u << 3) /* an autograd node row: "*Backward[digits]"
                                          without a namespace (2021: no wrapper) */
#define TLC_TOP_ACCUMULATE   (1u << 4) /* torch::autograd::AccumulateGrad */

/* One cpu_op event, compact: the JSON is gone, args are built values. */
typedef struct tlc_trace_op {
	int64_t start_ns, end_ns;
	int64_t pid, tid;
	int64_t ext;         /* External id, valid with TLC_TOP_HAS_EXT */
	const char *name;    /* interned in the eval */
	const unsigned char *args; /* encoded arguments (tlc_trace__encode_args) */
	uint32_t args_len;
	unsigned flags;      /* (the op's index in the array is its file order) */
	uint32_t comm;       /* collective facts: index + 1 into comms.rows, 0 none */
} tlc_trace_op;

/* Where one kept encoding of args lives (tlc_trace_ops.args_index). */
typedef struct tlc_trace_args_ref {
	const unsigned char *p;
	uint32_t len;
} tlc_trace_args_ref;

/* An annotation interval used for phase classification only. */
typedef struct tlc_trace_span {
	int64_t start_ns, end_ns;
	int64_t tid;
} tlc_trace_span;

/* An `nn.Module: <Type>_<k>` python_function frame (with_stack /
 * with_modules): the module calls that own the ops inside it. */
typedef struct tlc_trace_module {
	int64_t start_ns, end_ns;
	int64_t tid;
	const char *name;    /* "<Type>_<k>", interned in the eval */
	const char *path;    /* dotted path of enclosing modules, built at push */
} tlc_trace_module;

typedef struct tlc_trace_ops {
	const tlc_allocator *a;
	tlc_arena arena;         /* encoded args of every op */
	tlc_idmap args_index;    /* hash of encoded args -> args_ref: equal encodings
	                            (the same op on the same shapes) are kept once */
	tlc_arena scratch;       /* values of one op while built or pushed */
	tlc_arena *varena;       /* where tlc_trace__build_args puts values */
	tlc_intern *intern;      /* dtype names (the eval's), or NULL */
	const char *last_dtype;  /* last interned dtype name */
	const char *last_type;   /* last C++ type name seen, and its dtype */
	tlc_dtype last_type_dtype;
	tlc_trace_op *ops;
	size_t nops, cap;
	tlc_trace_span *opt;     /* Optimizer.step# intervals */
	size_t nopt, optcap;
	uint64_t unread_device;  /* device events of an accelerator not read (MTIA) */
	int64_t *ranges;         /* correlation of each cuda_profiler_range record, or -1 */
	tlc_trace_module *mods;  /* nn.Module frames, in file order */
	size_t nmods, modcap;
	size_t nranges, rangecap;
	char unread_kind[32];    /* their category */
	tlc_trace_comms comms;   /* collectives (engine/input/kineto/trace_comms.c) */
	uint64_t *evno;          /* ordinal of each op's event, when the eval wants
	                            source keys (tlc_eval__want_source_keys); else NULL */
	size_t evcap;
} tlc_trace_ops;

void tlc_trace__ops_init(tlc_trace_ops *t, const tlc_allocator *a);
void tlc_trace__ops_free(tlc_trace_ops *t);

/** Converts captured Input Dims / Input type / Input Strides / Concrete
 *  Inputs into positional argument values in t->varena, one per schema
 *  argument (a value not recorded is TLC_VALUE_UNRECORDED; engine/input/
 *  trace_args.c). Any of the nodes may be NULL. Returns 0, TLC_ENOMEM, or
 *  TLC_EINPUT with *why set to a static description of what is malformed. */
int tlc_trace__build_args(tlc_value **out, size_t *nout, tlc_trace_ops *t,
                          const tlc_tnode *dims, const tlc_tnode *types,
                          const tlc_tnode *strides, const tlc_tnode *concrete,
                          const char **why);

/** The args list of the store's op record encoding (engine/store/record.h:
 *  a few bytes per dimension instead of a tlc_value per argument): what the
 *  reader keeps per op, equal lists once. encode returns 0, TLC_ENOMEM or
 *  TLC_EINPUT (store_record_too_deep); *out lives in t->arena. decode
 *  builds the values in ar; it returns 0, TLC_ENOMEM, or TLC_EINPUT
 *  (store_record_corrupt) for bytes the encoder did not write, error set. */
int tlc_trace__encode_args(const unsigned char **out, uint32_t *len, tlc_trace_ops *t,
                           const tlc_value *v, size_t n);
int tlc_trace__decode_args(tlc_value **out, size_t *n, tlc_arena *ar,
                           const unsigned char *p, uint32_t len);

/** tlc_trace__build_args then tlc_trace__encode_args in one pass (the same
 *  bytes, checks, errors and *why), without building the values of
 *  tensors: what the reader keeps per op. */
int tlc_trace__build_encoded(const unsigned char **out, uint32_t *len, tlc_trace_ops *t,
                             const tlc_tnode *dims, const tlc_tnode *types,
                             const tlc_tnode *strides, const tlc_tnode *concrete,
                             const char **why);

/** Sorts the ops, nests them per thread, classifies phases and pushes them
 *  to ev parent-before-child. */
int tlc_trace__push_ops(tlc_trace_ops *t, tlc_eval *ev);

/** Frees the encoded args of every op (pushed ops need them no more). */
void tlc_trace__release_args(tlc_trace_ops *t);

/** autograd's Node naming: no namespace, "Backward", then digits or none
 *  ("AddmmBackward0"; 2021: "CudnnConvolutionBackward"). */
int tlc_trace__is_node_name(const char *name);

/** Accounts for the trace's device records (engine/input/kineto/trace_device.c):
 *  kernels without an op row become device gaps of ev (graph replay, launch
 *  outside any op, no host side, unread accelerator events). The last use
 *  of the ops: their array is freed once their intervals are taken. */
int tlc_trace__account_device(tlc_trace_ops *t, tlc_eval *ev);

/** Reads a Chrome-trace JSON stream (already opened, possibly peeked) into
 *  ev; tlc_trace_read and tlc_trace_read_mem wrap it. Does not finish ev. */
int tlc_trace__read_stream(tlc_eval *ev, tlc_instream *in);

/** Parses a decimal number of microseconds ("12.345", "1e3") into exact
 *  integer nanoseconds (digits below a nanosecond are truncated). 0 or -1
 *  when malformed or out of range. */
int tlc_trace__us_to_ns(int64_t *out, const char *text, size_t len);

/** Parses a decimal integer ("-12", "7"); 0 or -1. */
int tlc_trace__parse_i64(int64_t *out, const char *text, size_t len);

#endif
