/*
 * libtlcost evaluation: feed ops, read totals, coverage, ledger, op rows.
 *
 * Part of the libtlcost public API; <tlcost/tlcost.h> includes every module
 * header. Each header compiles on its own (tests/build/headers.sh).
 */
#ifndef TLCOST_EVAL_H
#define TLCOST_EVAL_H

#include <stddef.h>
#include <stdint.h>

#include "plugin.h"
#include "engine.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tlc_eval tlc_eval;

typedef enum tlc_class {
	TLC_CLASS_KNOWN = 0,
	TLC_CLASS_ZERO_BY_RULE,
	TLC_CLASS_NOT_APPLICABLE,
	TLC_CLASS_UNKNOWN,
	TLC_CLASS_COUNT
} tlc_class;

const char *tlc_class_name(tlc_class c);

/** Device-time attribution of one op row (contract section 8). */
typedef enum tlc_attribution {
	TLC_ATTR_NONE = 0,       /* no join ran: device time absent */
	TLC_ATTR_ATTRIBUTED,
	TLC_ATTR_AMBIGUOUS,
	TLC_ATTR_UNATTRIBUTED,
	TLC_ATTR_UNAVAILABLE
} tlc_attribution;

const char *tlc_attribution_name(tlc_attribution a);

/* tlc_op_row.row_flags */
#define TLC_ROW_HAS_DEVICE_TIME (1u << 0) /* device_time_ns/kernel_time_ns valid */

/** One evaluated op, kept when tlc_eval_options.keep_ops is set, as
 *  tlc_eval_op_get fills it (the eval stores rows compactly, not as this
 *  struct). Strings and cost are the eval's and valid until tlc_eval_free. */
typedef struct tlc_op_row {
	uint32_t size;         /* sizeof(tlc_op_row) of the caller's build (TLC_OP_ROW_INIT) */
	int64_t id;
	int64_t parent;        /* -1 when top level */
	const char *name;
	const char *overload;  /* "" when unspecified */
	tlc_phase phase;
	const char *module;    /* "" = root */
	const char *module_type;
	int64_t module_call;   /* -1 when not recorded */
	tlc_class cls;
	const char *reason;    /* class reason: rule note, "no_rule", "missing_args", "nested", ... */
	const tlc_cost *cost;  /* for KNOWN and ZERO_BY_RULE; NULL otherwise */
	const char *shapes;    /* input shapes summary, e.g. "[8,16]f32,[16,4]f32" */
	unsigned op_flags;     /* TLC_OP_HAS_* of the source record */
	int64_t host_ns, start_ns, end_ns, thread, correlation;
	/* filled by a device-time join */
	unsigned row_flags;    /* TLC_ROW_* */
	tlc_attribution attribution;
	int64_t device_time_ns; /* kernels + memcpy + memset attributed to the op */
	int64_t kernel_time_ns; /* kernels only */
	/* the op's compute dtype: the first input tensor, in the shapes
	 * summary's order, whose dtype name spells a dtype with a device peak
	 * (tlc_peak_dtype_of); TLC_DTYPE_NONE when none (or without keep_ops).
	 * Absent (not filled) for a caller whose size ends before it. */
	tlc_dtype dtype;
} tlc_op_row;

#define TLC_OP_ROW_INIT { sizeof(tlc_op_row), 0, 0, NULL, NULL, TLC_PHASE_FORWARD, NULL, NULL, \
                          0, TLC_CLASS_KNOWN, NULL, NULL, NULL, 0, 0, 0, 0, 0, 0, 0, \
                          TLC_ATTR_NONE, 0, 0, TLC_DTYPE_NONE }

/** Called once for every op record when its class is final (records whose
 *  parent comes later in the file are held until it arrives). */
typedef void (*tlc_op_cb)(const tlc_op *op, const tlc_op_row *row, void *payload);

typedef struct tlc_eval_options {
	uint32_t size;      /* sizeof(tlc_eval_options) */
	int keep_ops;       /* keep one tlc_op_row per op (tree/profile/join need it) */
	tlc_op_cb on_op;    /* optional */
	void *payload;
} tlc_eval_options;
/** The size set, every other field its default. */
#define TLC_EVAL_OPTIONS_INIT { sizeof(tlc_eval_options), 0, NULL, NULL }

/** Creates an evaluation bound to eng (which must outlive it). opts may be
 *  NULL. Free with tlc_eval_free. */
int tlc_eval_new(tlc_eval **out, tlc_engine *eng, const tlc_eval_options *opts);
void tlc_eval_free(tlc_eval *ev);

/** Header facts of the input (op log header or trace metadata). */
typedef struct tlc_input_info {
	uint32_t size;        /* sizeof(tlc_input_info) of the caller's build */
	const char *format;   /* "tlcost-oplog", "kineto-trace", "api" */
	const char *producer; /* NULL when absent */
	const char *model;
	const char *device;
	int64_t params;       /* -1 when absent */
	int64_t tokens;       /* -1 when absent */
	const char *meta_json; /* the header's meta object as JSON text, or NULL */
} tlc_input_info;

#define TLC_INPUT_INFO_INIT { sizeof(tlc_input_info), NULL, NULL, NULL, NULL, -1, -1, NULL }

/** Sets header facts (copied). Readers call it; API users may. info->size
 *  must be set (TLC_INPUT_INFO_INIT); fields past it take their defaults.
 *  TLC_EINVAL (invalid_argument) when it is smaller than the first layout. */
int tlc_eval_set_info(tlc_eval *ev, const tlc_input_info *info);
const tlc_input_info *tlc_eval_info(const tlc_eval *ev);

/** Evaluates one op. The record is copied as needed (a record whose parent
 *  has not arrived yet is held until it does or tlc_eval_finish). An op
 *  without a rule is not an error: it is counted unknown, in the ledger.
 *  Returns 0 or:
 *   - TLC_EINVAL invalid_argument: ev or op is NULL;
 *   - TLC_ESTATE eval_finished: called after tlc_eval_finish;
 *   - TLC_EINPUT oplog_field_invalid: op->size smaller than the first
 *     tlc_op layout, id < 0, name NULL or empty, a negative parent with
 *     TLC_OP_HAS_PARENT, a count without its array, a negative shape entry
 *     or values nested deeper than 64, an unnamed kwarg;
 *   - TLC_EINPUT oplog_duplicate_id: the id was pushed before;
 *   - TLC_EINPUT oplog_parent_unknown: the op names itself as its parent;
 *   - TLC_ENOMEM out_of_memory.
 *  The detail (message naming the field or id) is in tlc_error_last(). */
int tlc_eval_push_op(tlc_eval *ev, const tlc_op *op);

/** Counts a record that was skipped on purpose (an unknown record kind);
 *  reports state how many. */
void tlc_eval_count_skipped(tlc_eval *ev, const char *kind);

/** Ends the input: resolves held records. Errors: oplog_parent_unknown (a
 *  parent that names no op, or a cycle). After it, reports may be read. */
int tlc_eval_finish(tlc_eval *ev);

/** Fixed capacity of arrays indexed by tlc_class in public structs, so the
 *  layout does not change when a class is added (TLC_CLASS_COUNT <= it). */
#define TLC_CLASS_SLOTS 8

/** Filled by tlc_eval_coverage; the caller sets size (TLC_COVERAGE_INIT). */
typedef struct tlc_coverage {
	uint32_t size;                    /* sizeof(tlc_coverage) of the caller's build */
	uint64_t rows;                    /* op records evaluated */
	uint64_t by_class[TLC_CLASS_SLOTS]; /* indexed by tlc_class */
	uint64_t skipped;                 /* records of unknown kinds, skipped and counted */
	uint64_t device_records;          /* kernel/memcpy/memset/runtime records */
} tlc_coverage;

#define TLC_COVERAGE_INIT { sizeof(tlc_coverage), 0, { 0 }, 0, 0 }

/** Fills the fields of *out that out->size covers. TLC_EINVAL
 *  (invalid_argument) when out->size is smaller than the first layout. */
int tlc_eval_coverage(tlc_coverage *out, const tlc_eval *ev);

/** Total kinds. FLOPS is fma=2 (2*macs + other); FLOPS_FMA1 is macs + other
 *  and is refused (flop_convention_unavailable) when some counted op has no
 *  known split. */
typedef enum tlc_total {
	TLC_TOTAL_MACS = 0,
	TLC_TOTAL_OTHER_FLOPS,
	TLC_TOTAL_BYTES_READ,
	TLC_TOTAL_BYTES_WRITTEN,
	TLC_TOTAL_FLOPS,
	TLC_TOTAL_FLOPS_FMA1,
	TLC_TOTAL_COUNT
} tlc_total;

/** Exact per-phase total as a decimal string (free with tlc_free). */
int tlc_eval_total_str(char **out, const tlc_eval *ev, tlc_phase phase, tlc_total which);
/** Same, as uint64; TLC_EOVERFLOW when it does not fit. */
int tlc_eval_total_u64(uint64_t *out, const tlc_eval *ev, tlc_phase phase, tlc_total which);
/** Nonzero when any phase had an op evaluated. */
int tlc_eval_phase_present(const tlc_eval *ev, tlc_phase phase);
/** Nonzero when some bytes were unknown (element size not known). */
int tlc_eval_bytes_incomplete(const tlc_eval *ev, tlc_phase phase);

/** Nonzero when any op is unknown: every total is then a lower bound. */
int tlc_eval_is_lower_bound(const tlc_eval *ev);

/** One unknown-ledger group (contract section 3). */
typedef struct tlc_ledger_entry {
	const char *name;        /* "mylib::fused_gelu" */
	const char *overload;    /* "" when unspecified */
	uint64_t count;
	size_t nexample_ids;
	int64_t example_ids[3];
	size_t nexample_shapes;
	const char *example_shapes[3];
	const char *nested_flops; /* decimal fma=2 FLOPs counted in nested children, "0" if none */
	const char *reason;      /* "no_rule", "missing_args", "bad_args", "partly_known" */
	const char *detail;      /* first rule explanation, or NULL */
	const char *remedy;      /* runnable instruction */
	/* Partly known calls (contract: "Partly known ops"; appended in
	 * -version-info 5:0:1): the rule determined some terms but not all. Their
	 * determined terms are counted in every total; the totals stay a
	 * lower bound. */
	uint64_t partly_known;   /* calls of this group that were partly known */
	const char *missing;     /* the terms not determined, e.g. "macs" or
	                            "macs,other_flops"; NULL when partly_known is 0 */
	const char *cause;       /* why (the first such call's rule explanation,
	                            any upper bound stated as text); NULL when 0 */
	const char *counted_flops; /* decimal fma=2 FLOPs of their determined terms */
	const char *counted_bytes; /* decimal bytes read + written of their determined terms */
} tlc_ledger_entry;

size_t tlc_eval_ledger_count(const tlc_eval *ev);
/** Entries sorted by count (descending), then name. NULL when out of range. */
const tlc_ledger_entry *tlc_eval_ledger_at(const tlc_eval *ev, size_t i);

/** Per op-type summary (grows with distinct names only). */
typedef struct tlc_optype_row {
	const char *name;  /* "aten::addmm" (with ".overload" when given) */
	uint64_t count;
	uint64_t by_class[TLC_CLASS_SLOTS]; /* indexed by tlc_class */
	const char *flops; /* decimal fma=2 FLOPs over all phases of this type's counted ops */
	double flops_approx; /* for sorting only */
} tlc_optype_row;

size_t tlc_eval_optype_count(const tlc_eval *ev);
/** Rows sorted by FLOPs descending, then name. */
const tlc_optype_row *tlc_eval_optype_at(const tlc_eval *ev, size_t i);

/** Kept op rows (keep_ops), in the order their class became final. */
size_t tlc_eval_op_count(const tlc_eval *ev);
/** Fills *out with kept row i: the fields that out->size covers (set it:
 *  TLC_OP_ROW_INIT); out->size is left as it was. After a device-time join
 *  (tlc_join_run) the device-time fields are the join's. Replaces 0.x's
 *  tlc_eval_op_at (rows are no longer stored as tlc_op_row; docs/ABI.md).
 *  TLC_EINVAL (invalid_argument) when ev or out is NULL, out->size is
 *  smaller than the first layout, or i >= tlc_eval_op_count. */
int tlc_eval_op_get(const tlc_eval *ev, size_t i, tlc_op_row *out);

/* ---- eval: device work that no op row accounts for ---- */
/** Device work of the input that no op row accounts for: kernels replayed
 *  from a CUDA/HIP graph, launched by a runtime call outside every op's host
 *  interval, with no host-side record at all, device events of a kind the
 *  reader does not read, or an input without op records. Each cause makes
 *  the totals a lower bound (tlc_eval_is_lower_bound) and is listed with a
 *  message and a remedy (docs/cost-contract.md, "Device work"). */
typedef struct tlc_device_gap {
	const char *cause;   /* graph_replay, launch_outside_op, no_host_side,
	                        device_events_unread, no_op_records */
	uint64_t records;    /* device records of this cause (0 for no_op_records) */
	int64_t device_ns;   /* their summed device time */
	const char *message; /* "544 kernels from graph replay have no op rows" */
	const char *remedy;
} tlc_device_gap;

/** How the input's device records were accounted for (all zero for an input
 *  without device records or for a reader that does not account). */
typedef struct tlc_device_work {
	size_t size;              /* sizeof(tlc_device_work) */
	uint64_t kernels;         /* kernel records */
	uint64_t kernels_in_ops;  /* launched inside an op row's host interval */
	uint64_t not_compute;     /* memcpy/memset records: data movement, no FLOPs */
	uint64_t without_op;      /* kernels of some gap cause */
	int64_t without_op_ns;    /* their summed device time */
} tlc_device_work;

size_t tlc_eval_device_gap_count(const tlc_eval *ev);
const tlc_device_gap *tlc_eval_device_gap_at(const tlc_eval *ev, size_t i);
int tlc_eval_device_work(tlc_device_work *out, const tlc_eval *ev);

/* ---- eval: stable op names ---- */
/** Promises (stable nonzero) that every op->name and op->overload string
 *  pushed from now on stays valid and unchanged until tlc_eval_free (string
 *  literals, or names the caller interned), so that the same pointer always
 *  means the same name: the op type of a record is then found by its
 *  pointers alone, without comparing the names' bytes. 0 (the default)
 *  takes any pointers and compares names by content. Types already found
 *  are kept either way. Returns 0, or TLC_EINVAL (invalid_argument) when ev
 *  is NULL. */
int tlc_eval_set_stable_names(tlc_eval *ev, int stable);

#ifdef __cplusplus
}
#endif
#endif /* TLCOST_EVAL_H */
