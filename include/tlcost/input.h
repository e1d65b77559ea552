/*
 * libtlcost inputs: op logs, Kineto traces, device records, profiler status.
 *
 * Part of the libtlcost public API; <tlcost/tlcost.h> includes every module
 * header. Each header compiles on its own (tests/build/headers.sh).
 */
#ifndef TLCOST_INPUT_H
#define TLCOST_INPUT_H

#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

#include "eval.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Reads an op log v1 file (plain or gzip, detected by magic bytes) into ev,
 *  streaming. Errors carry file, line and column: oplog_parse_error,
 *  oplog_header_invalid, oplog_version_unsupported, oplog_field_invalid,
 *  oplog_duplicate_id, oplog_parent_unknown, oplog_truncated, io_error;
 *  input_truncated when the input ends inside a first line that had not yet
 *  said "format":"tlcost-oplog" (a cut trace looks the same). Does
 *  not call tlc_eval_finish. path "-" reads standard input. */
int tlc_oplog_read(tlc_eval *ev, const char *path);

/** Same over a memory buffer; name is used in error positions. */
int tlc_oplog_read_mem(tlc_eval *ev, const void *data, size_t len, const char *name);

/** Reads a PyTorch profiler (Kineto) Chrome-trace JSON file into ev. */
int tlc_trace_read(tlc_eval *ev, const char *path);
int tlc_trace_read_mem(tlc_eval *ev, const void *data, size_t len, const char *name);

/** Detects the format from content (op log or Kineto trace) and reads it. */
int tlc_input_read(tlc_eval *ev, const char *path);

/** Writes one op as an op log v1 record line (docs/oplog-v1.md), ending in
 *  '\n', to out; the caller writes the header line first. Reading the
 *  lines back gives the same op (correlation is always written). Errors:
 *  invalid_argument, out_of_memory, io_error. (The Python capture library
 *  streams its log through it.) */
int tlc_oplog_write_op(FILE *out, const tlc_op *op);

/* Device records (kernels, copies, runtime calls) for the join */

typedef enum tlc_device_kind {
	TLC_DEVICE_KERNEL = 0,
	TLC_DEVICE_MEMCPY,
	TLC_DEVICE_MEMSET,
	TLC_DEVICE_RUNTIME, /* host-side runtime API call (cudaLaunchKernel, ...) */
	TLC_DEVICE_DRIVER   /* host-side driver API call (cuLaunchKernel, ...) */
} tlc_device_kind;

#define TLC_DEV_HAS_EXTERNAL_ID (1u << 0)
#define TLC_DEV_HAS_THREAD      (1u << 1)
#define TLC_DEV_HAS_BYTES       (1u << 2)
#define TLC_DEV_HAS_CORRELATION (1u << 3)
#define TLC_DEV_HAS_GRAPH_NODE  (1u << 4) /* graph_id and graph_node (since 4.3) */

/** One device-side activity or host runtime call. Strings are copied. */
typedef struct tlc_device_record {
	uint32_t size;       /* sizeof(tlc_device_record) */
	tlc_device_kind kind;
	unsigned flags;      /* TLC_DEV_HAS_* */
	const char *name;    /* kernel or API name; NULL for copies/sets */
	int64_t device;      /* device index (device kinds) or process id (host kinds) */
	int64_t stream;
	int64_t thread;      /* host thread (runtime/driver) */
	int64_t start_ns;
	int64_t end_ns;
	int64_t correlation; /* runtime correlation id */
	int64_t external_id; /* runtime/driver: op correlation innermost at the call */
	int64_t bytes;
	/* Since 4.3 (a caller's size that ends before them reads and writes
	 * them as absent): a kernel, copy or set launched by a CUDA graph
	 * launch, the graph (CUPTI graphId) and the graph node it ran as
	 * (CUPTI graphNodeId), with TLC_DEV_HAS_GRAPH_NODE. */
	int64_t graph_id;
	int64_t graph_node;
} tlc_device_record;
/** The size set, every other field its default (no TLC_DEV_HAS_* flag: set the fields and their flags). */
#define TLC_DEVICE_RECORD_INIT { sizeof(tlc_device_record), TLC_DEVICE_KERNEL, 0, NULL, \
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0 }

/** Adds a device record to the evaluation for a later join. */
int tlc_eval_push_device(tlc_eval *ev, const tlc_device_record *rec);
/** Device records pushed so far, in push order. */
size_t tlc_eval_device_count(const tlc_eval *ev);
/** Fills *out with record i (name interned, valid until tlc_eval_free):
 *  the fields that out->size covers, out->size left as it was. The eval
 *  stores records compactly, not as this struct (docs/ABI.md). TLC_EINVAL
 *  (invalid_argument) when ev or out is NULL, out->size is smaller than the
 *  first layout, or i >= tlc_eval_device_count. */
int tlc_eval_device_get(const tlc_eval *ev, size_t i, tlc_device_record *out);

/** A CUDA graph node the device profiler saw made (since 4.3): created by
 *  a runtime or driver call while a stream was captured or a graph was
 *  built (correlation: that call's correlation id, original -1), or cloned
 *  from another node when a graph was instantiated or cloned (original:
 *  that node, correlation -1). Capture pairing follows a replayed kernel's
 *  graph_node through its clones to the call that created it
 *  (docs/join.md, "Capture pairing on CUDA"). */
typedef struct tlc_graph_node {
	uint32_t size;       /* sizeof(tlc_graph_node) */
	int64_t graph_id;    /* the graph it belongs to (CUPTI graph id), -1 when unknown */
	int64_t node;        /* its id (cuptiGetGraphNodeId), >= 0 */
	int64_t correlation; /* the creating call's correlation id, or -1 */
	int64_t original;    /* the node it was cloned from, or -1 */
} tlc_graph_node;
/** The size set, graph and origin unknown (set node, and correlation or original). */
#define TLC_GRAPH_NODE_INIT { sizeof(tlc_graph_node), -1, 0, -1, -1 }

/** Adds a graph node record. TLC_EINVAL (invalid_argument) when ev or n is
 *  NULL, n->size is too small, node is negative, or not exactly one of
 *  correlation and original is >= 0. */
int tlc_eval_push_graph_node(tlc_eval *ev, const tlc_graph_node *n);
/** Graph node records pushed so far. */
size_t tlc_eval_graph_node_count(const tlc_eval *ev);
/** Fills *out with record i (the fields out->size covers). TLC_EINVAL when
 *  ev or out is NULL, out->size is too small, or i is out of range. */
int tlc_eval_graph_node_get(const tlc_eval *ev, size_t i, tlc_graph_node *out);

/** What the device profiler said about its own session: the op log's
 *  "device_profiler" record (written by the CUPTI module), or an API call. */
typedef enum tlc_profiler_state {
	TLC_PROFILER_UNKNOWN = 0,  /* the source said nothing */
	TLC_PROFILER_UNAVAILABLE,  /* activity could not be enabled: no facts at all */
	TLC_PROFILER_EMPTY,        /* it ran and saw no device activity */
	TLC_PROFILER_PARTIAL,      /* records were dropped or a region paused: lower bounds */
	TLC_PROFILER_COMPLETE      /* it ran and reports nothing lost */
} tlc_profiler_state;

typedef struct tlc_profiler_status {
	uint32_t size;            /* sizeof(tlc_profiler_status) */
	tlc_profiler_state state;
	const char *source;       /* e.g. "cupti", or NULL */
	const char *message;      /* the profiler's own error text (unavailable), or NULL */
} tlc_profiler_status;
/** The size set, every other field its default. */
#define TLC_PROFILER_STATUS_INIT { sizeof(tlc_profiler_status), TLC_PROFILER_UNKNOWN, NULL, NULL }

/** Records the profiler's statement (strings copied; the last call wins). */
int tlc_eval_set_profiler_status(tlc_eval *ev, const tlc_profiler_status *st);
/** The recorded statement; state TLC_PROFILER_UNKNOWN when none was made. */
const tlc_profiler_status *tlc_eval_profiler_status(const tlc_eval *ev);
const char *tlc_profiler_state_name(tlc_profiler_state s);

/** Bounds on what one input may cost (each exceeded bound ends the read
 *  with a typed error naming the bound and the tlcost option that raises
 *  it). A field of 0 takes its default; UINT64_MAX means no bound.
 *    max_input_bytes   decompressed bytes of the input (input_too_large,
 *                      --max-input-bytes; default 64 GiB)
 *    max_token_bytes   one JSON string or number, quotes included
 *                      (token_too_long, --max-token-bytes; default 8 MiB:
 *                      room for a 1 MiB string written with escapes)
 *    max_held_records  records a reader must hold before it can evaluate
 *                      them: every cpu_op of a trace (held to the end of
 *                      the file), op log records whose parent has not come
 *                      yet (held_records_exceeded, --max-held-records;
 *                      default 4,000,000)
 *    max_held_bytes    bytes those held records take: a trace's cpu_ops,
 *                      an op log's records packed while they wait
 *                      (held_bytes_exceeded, --max-held-bytes; default
 *                      1 GiB) */
typedef struct tlc_input_limits {
	uint32_t size; /* sizeof(tlc_input_limits) */
	uint64_t max_input_bytes;
	uint64_t max_token_bytes;
	uint64_t max_held_records;
	uint64_t max_held_bytes;
} tlc_input_limits;
/** The size set, every other field its default (every limit its default). */
#define TLC_INPUT_LIMITS_INIT { sizeof(tlc_input_limits), 0, 0, 0, 0 }

#define TLC_INPUT_DEFAULT_MAX_INPUT_BYTES ((uint64_t)64 << 30)
#define TLC_INPUT_DEFAULT_MAX_TOKEN_BYTES ((uint64_t)8 << 20)
#define TLC_INPUT_DEFAULT_MAX_HELD_RECORDS ((uint64_t)4000000)
#define TLC_INPUT_DEFAULT_MAX_HELD_BYTES ((uint64_t)1 << 30)

/** tlc_input_read under the given limits (NULL: the defaults, which
 *  tlc_input_read also applies). */
int tlc_input_read_limited(tlc_eval *ev, const char *path, const tlc_input_limits *lim);

#ifdef __cplusplus
}
#endif
#endif /* TLCOST_INPUT_H */
