/*
 * libtlcost application API: engine, inputs, evaluation, reports.
 *
 * Conventions: functions return 0 on success or a negative TLC_E* code; the
 * detail (stable snake_case code, message, remedy, input position) is read
 * with tlc_error_last(). Out parameters come first. The library never prints
 * to the terminal, never exits and never aborts on bad input.
 *
 * Typical use:
 *     tlc_engine *eng;  tlc_eval *ev;
 *     tlc_engine_new(&eng, NULL);                 built-in rules registered
 *     tlc_engine_load_plugin(eng, "./myrules.so"); optional
 *     tlc_eval_new(&ev, eng, NULL);
 *     tlc_input_read(ev, "model.oplog.jsonl.gz"); or tlc_eval_push_op() per op
 *     tlc_eval_finish(ev);
 *     ... tlc_eval_total_str(), tlc_eval_coverage(), tlc_eval_ledger_entry() ...
 *     tlc_eval_free(ev); tlc_engine_free(eng);
 */
#ifndef TLCOST_TLCOST_H
#define TLCOST_TLCOST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TLC_VERSION_STRING "0.1.0"

/* ------------------------------------------------------------------ */
/* Errors                                                               */
/* ------------------------------------------------------------------ */

/** Return codes (always <= 0). The stable snake_case detail code is in
 *  tlc_error_last()->code; branch on that for specific conditions. */
enum {
	TLC_OK = 0,
	TLC_ERROR = -1,       /* generic failure */
	TLC_ENOMEM = -2,      /* allocation failed */
	TLC_EIO = -3,         /* file could not be opened or read */
	TLC_EINVAL = -4,      /* invalid argument from the caller */
	TLC_EPARSE = -5,      /* input is not well-formed (JSON, rule file) */
	TLC_EINPUT = -6,      /* input well-formed but violates its format */
	TLC_EVERSION = -7,    /* unsupported format or ABI version */
	TLC_ENOTFOUND = -8,   /* named thing does not exist */
	TLC_EEXISTS = -9,     /* duplicate registration or id */
	TLC_EPLUGIN = -10,    /* plugin could not be loaded or initialised */
	TLC_EOVERFLOW = -11,  /* exact value does not fit the requested type */
	TLC_EREFUSED = -12,   /* a report refuses: the data cannot support it */
	TLC_EUNAVAILABLE = -13, /* a facility (device profiler) is unavailable */
	TLC_ESTATE = -14      /* call made in the wrong state */
};

/** Detail of the last failure on this thread; owned by the library, valid
 *  until the next failing call on this thread. Never NULL: without a
 *  failure, code is "ok". remedy is never empty for a failure. */
typedef struct tlc_error {
	int klass;           /* the TLC_E* value returned */
	const char *code;    /* stable snake_case code, e.g. "oplog_parse_error" */
	const char *message; /* cause, one sentence */
	const char *remedy;  /* what to do about it, never empty */
	const char *file;    /* input file, or NULL */
	uint64_t line;       /* 1-based; 0 = not about an input position */
	uint64_t column;     /* 1-based; 0 = unknown */
} tlc_error;

const tlc_error *tlc_error_last(void);

/** Clears this thread's error detail. */
void tlc_error_clear(void);

/** Frees memory the library returned through a char ** out parameter. */
void tlc_free(void *p);

/* ------------------------------------------------------------------ */
/* Engine: rule registry and plugins                                    */
/* ------------------------------------------------------------------ */

typedef struct tlc_engine tlc_engine;

/** Injectable allocator (tests use it to fail the n-th allocation). All
 *  three functions are required. */
typedef struct tlc_allocator {
	void *(*malloc_fn)(size_t n, void *payload);
	void *(*realloc_fn)(void *p, size_t n, void *payload);
	void (*free_fn)(void *p, void *payload);
	void *payload;
} tlc_allocator;

#define TLC_ENGINE_NO_BUILTINS (1u << 0) /* start with an empty registry */

typedef struct tlc_engine_options {
	uint32_t size;                  /* sizeof(tlc_engine_options) */
	unsigned flags;                 /* TLC_ENGINE_* */
	const tlc_allocator *allocator; /* NULL = malloc/realloc/free */
} tlc_engine_options;

/** Creates an engine with the built-in rules registered (unless
 *  TLC_ENGINE_NO_BUILTINS). opts may be NULL. Free with tlc_engine_free. */
int tlc_engine_new(tlc_engine **out, const tlc_engine_options *opts);
void tlc_engine_free(tlc_engine *eng);

/** dlopens a rule plugin and runs its init. Errors: plugin_open_failed,
 *  plugin_entry_missing, plugin_abi_unsupported (names both versions),
 *  plugin_descriptor_invalid, plugin_init_failed (nothing it registered
 *  remains), rule_duplicate. */
int tlc_engine_load_plugin(tlc_engine *eng, const char *path);

/** Loads every plugin named in TLCOST_PLUGIN_PATH (':'-separated paths of .so
 *  files or directories holding them). Nothing is loaded when unset. */
int tlc_engine_load_plugin_env(tlc_engine *eng);

/** Registers one rule from the application (same rules as a plugin's
 *  register_rule; provider shown as "api"). */
int tlc_engine_register_rule(tlc_engine *eng, const tlc_rule_def *def);

/** Loads a declarative rule file (docs/rule-files.md); its rules register
 *  as provider "rules:PATH", all or none. Errors carry file, line and
 *  column: rules_parse_error, rules_unknown_function, rules_unknown_operand,
 *  rule_duplicate (at the rule's name); rules_io_error (file only). */
int tlc_engine_load_rules_file(tlc_engine *eng, const char *path);

/** What a plugin exposes, read without registering anything. */
typedef struct tlc_plugin_info {
	uint32_t abi_version;
	const char *name;
	const char *version;
	size_t nrules;
	const tlc_rule_def *rules; /* names/notes as the plugin gave them */
} tlc_plugin_info;

/** Inspects a plugin: checks its ABI and runs its init against a scratch
 *  registry. The result is valid until tlc_plugin_info_free. */
int tlc_plugin_inspect(tlc_plugin_info **out, const char *path);
void tlc_plugin_info_free(tlc_plugin_info *info);

/** A registered rule, for listings. */
typedef struct tlc_rule_info {
	const char *name;     /* "aten::add.Tensor" */
	tlc_rule_kind kind;
	tlc_evidence evidence;
	const char *note;
	const char *provider; /* "builtin:matmul", "plugin:example", "api", "rules:FILE" */
	int overrides;        /* replaced a rule of another provider */
} tlc_rule_info;

size_t tlc_engine_rule_count(const tlc_engine *eng);
/** i-th rule in name order; NULL when out of range. Valid until the
 *  registry changes. */
const tlc_rule_info *tlc_engine_rule_at(const tlc_engine *eng, size_t i);

/** Notices (not errors) such as rule_override: "plugin:x overrides
 *  builtin rule aten::mm". */
typedef struct tlc_notice {
	const char *code;
	const char *message;
} tlc_notice;

size_t tlc_engine_notice_count(const tlc_engine *eng);
const tlc_notice *tlc_engine_notice_at(const tlc_engine *eng, size_t i);

/** Names as strings, for reports and JSON. */
const char *tlc_phase_name(tlc_phase p);
const char *tlc_evidence_name(tlc_evidence e);
const char *tlc_dtype_name(tlc_dtype d);
/** Parses a dtype name; unknown names give TLC_DTYPE_OTHER. */
tlc_dtype tlc_dtype_parse(const char *name);

/* ------------------------------------------------------------------ */
/* Cost records                                                         */
/* ------------------------------------------------------------------ */

/** Reads a field of a finished cost exactly. TLC_EOVERFLOW when it does not
 *  fit 64 bits (use tlc_cost_get_str). */
int tlc_cost_get_u64(uint64_t *out, const tlc_cost *c, tlc_cost_field f);
/** Decimal string of a field; free with tlc_free. */
int tlc_cost_get_str(char **out, const tlc_cost *c, tlc_cost_field f);
/** Nearest double, for ratios only (never for totals). */
double tlc_cost_get_double(const tlc_cost *c, tlc_cost_field f);
/** fma=2 FLOPs (2*macs + other) as a nearest double, for ratios only. */
double tlc_cost_flops_double(const tlc_cost *c);
/** Nonzero when the element size of some tensor was unknown. */
int tlc_cost_bytes_unknown(const tlc_cost *c);
int tlc_cost_split_unknown(const tlc_cost *c);
tlc_evidence tlc_cost_evidence(const tlc_cost *c);
/** The rule's explanation (why 0, or what was missing), or NULL. */
const char *tlc_cost_note(const tlc_cost *c);

/* ------------------------------------------------------------------ */
/* Evaluation: feed ops, read totals, coverage, ledger                  */
/* ------------------------------------------------------------------ */

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

/** One evaluated op, kept when tlc_eval_options.keep_ops is set. Strings
 *  are interned in the eval and valid until tlc_eval_free. */
typedef struct tlc_op_row {
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
} tlc_op_row;

/** Called once for every op record when its class is final (records whose
 *  parent comes later in the file are held until it arrives). */
typedef void (*tlc_op_cb)(const tlc_op *op, const tlc_op_row *row, void *payload);

typedef struct tlc_eval_options {
	uint32_t size;      /* sizeof(tlc_eval_options) */
	int keep_ops;       /* keep one tlc_op_row per op (tree/profile/join need it) */
	tlc_op_cb on_op;    /* optional */
	void *payload;
} tlc_eval_options;

/** Creates an evaluation bound to eng (which must outlive it). opts may be
 *  NULL. Free with tlc_eval_free. */
int tlc_eval_new(tlc_eval **out, tlc_engine *eng, const tlc_eval_options *opts);
void tlc_eval_free(tlc_eval *ev);

/** Header facts of the input (op log header or trace metadata). */
typedef struct tlc_input_info {
	const char *format;   /* "tlcost-oplog", "kineto-trace", "api" */
	const char *producer; /* NULL when absent */
	const char *model;
	const char *device;
	int64_t params;       /* -1 when absent */
	int64_t tokens;       /* -1 when absent */
	const char *meta_json; /* the header's meta object as JSON text, or NULL */
} tlc_input_info;

/** Sets header facts (copied). Readers call it; API users may. */
int tlc_eval_set_info(tlc_eval *ev, const tlc_input_info *info);
const tlc_input_info *tlc_eval_info(const tlc_eval *ev);

/** Evaluates one op. The record is copied as needed. Errors:
 *  oplog_duplicate_id, oplog_parent_unknown, oplog_field_invalid
 *  (negative shape, missing name; there is no op_invalid code). */
int tlc_eval_push_op(tlc_eval *ev, const tlc_op *op);

/** Counts a record that was skipped on purpose (an unknown record kind);
 *  reports state how many. */
void tlc_eval_count_skipped(tlc_eval *ev, const char *kind);

/** Ends the input: resolves held records. Errors: oplog_parent_unknown (a
 *  parent that names no op, or a cycle). After it, reports may be read. */
int tlc_eval_finish(tlc_eval *ev);

typedef struct tlc_coverage {
	uint64_t rows;                    /* op records evaluated */
	uint64_t by_class[TLC_CLASS_COUNT];
	uint64_t skipped;                 /* records of unknown kinds, skipped and counted */
	uint64_t device_records;          /* kernel/memcpy/memset/runtime records */
} tlc_coverage;

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
	const char *reason;      /* "no_rule", "missing_args", "bad_args" */
	const char *detail;      /* first rule explanation, or NULL */
	const char *remedy;      /* runnable instruction */
} tlc_ledger_entry;

size_t tlc_eval_ledger_count(const tlc_eval *ev);
/** Entries sorted by count (descending), then name. NULL when out of range. */
const tlc_ledger_entry *tlc_eval_ledger_at(const tlc_eval *ev, size_t i);

/** Per op-type summary (grows with distinct names only). */
typedef struct tlc_optype_row {
	const char *name;  /* "aten::addmm" (with ".overload" when given) */
	uint64_t count;
	uint64_t by_class[TLC_CLASS_COUNT];
	const char *flops; /* decimal fma=2 FLOPs over all phases of this type's counted ops */
	double flops_approx; /* for sorting only */
} tlc_optype_row;

size_t tlc_eval_optype_count(const tlc_eval *ev);
/** Rows sorted by FLOPs descending, then name. */
const tlc_optype_row *tlc_eval_optype_at(const tlc_eval *ev, size_t i);

/** Kept op rows (keep_ops), in the order their class became final. */
size_t tlc_eval_op_count(const tlc_eval *ev);
const tlc_op_row *tlc_eval_op_at(const tlc_eval *ev, size_t i);
tlc_op_row *tlc_eval_op_at_mut(tlc_eval *ev, size_t i);

/* ------------------------------------------------------------------ */
/* Inputs                                                               */
/* ------------------------------------------------------------------ */

/** Reads an op log v1 file (plain or gzip, detected by magic bytes) into ev,
 *  streaming. Errors carry file, line and column: oplog_parse_error,
 *  oplog_header_invalid, oplog_version_unsupported, oplog_field_invalid,
 *  oplog_duplicate_id, oplog_parent_unknown, oplog_truncated, io_error. Does
 *  not call tlc_eval_finish. path "-" reads standard input. */
int tlc_oplog_read(tlc_eval *ev, const char *path);

/** Same over a memory buffer; name is used in error positions. */
int tlc_oplog_read_mem(tlc_eval *ev, const void *data, size_t len, const char *name);

/** Reads a PyTorch profiler (Kineto) Chrome-trace JSON file into ev. */
int tlc_trace_read(tlc_eval *ev, const char *path);
int tlc_trace_read_mem(tlc_eval *ev, const void *data, size_t len, const char *name);

/** Detects the format from content (op log or Kineto trace) and reads it. */
int tlc_input_read(tlc_eval *ev, const char *path);

/** Output formats of the writers (tlc_write_*). */
typedef enum tlc_format {
	TLC_FORMAT_TEXT = 0,
	TLC_FORMAT_JSON,
	TLC_FORMAT_CSV
} tlc_format;

/* ------------------------------------------------------------------ */
/* Device records (kernels, copies, runtime calls) for the join         */
/* ------------------------------------------------------------------ */

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
} tlc_device_record;

/** Adds a device record to the evaluation for a later join. */
int tlc_eval_push_device(tlc_eval *ev, const tlc_device_record *rec);

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

/** Records the profiler's statement (strings copied; the last call wins). */
int tlc_eval_set_profiler_status(tlc_eval *ev, const tlc_profiler_status *st);
/** The recorded statement; state TLC_PROFILER_UNKNOWN when none was made. */
const tlc_profiler_status *tlc_eval_profiler_status(const tlc_eval *ev);
const char *tlc_profiler_state_name(tlc_profiler_state s);

/* ---- device-time join (contract section 8) : see tlcost/join section ---- */
/* TLC-JOIN-API-BEGIN */
/* Attributes device activity (kernels, copies, sets) to the op rows of a
 * finished evaluation made with keep_ops (contract section 8). Correlation
 * path: launch -> runtime call with the same correlation -> op whose
 * correlation equals the call's external id. When the external ids are
 * unusable (they match no op), the fallback is containment: the innermost op
 * on the runtime call's host thread whose [start_ns, end_ns] holds the call's
 * start. Never by name. See docs/join.md. */

typedef struct tlc_join tlc_join;

typedef enum tlc_join_path {
	TLC_JOIN_PATH_NONE = 0,    /* nothing could be joined (see path_reason) */
	TLC_JOIN_PATH_CORRELATION,
	TLC_JOIN_PATH_CONTAINMENT
} tlc_join_path;

typedef enum tlc_join_state {
	TLC_JOIN_UNAVAILABLE = 0, /* no device records at all: no profiler ran */
	TLC_JOIN_EMPTY,           /* runtime calls but no device activity */
	TLC_JOIN_PARTIAL,         /* the source dropped records: counts are lower bounds */
	TLC_JOIN_JOINED
} tlc_join_state;

const char *tlc_join_path_name(tlc_join_path p);
const char *tlc_join_state_name(tlc_join_state s);

/* tlc_join_options.flags */
#define TLC_JOIN_FORCE_CORRELATION (1u << 0) /* do not fall back to containment */
#define TLC_JOIN_FORCE_CONTAINMENT (1u << 1) /* skip the correlation path */
#define TLC_JOIN_INPUT_PARTIAL     (1u << 2) /* the source says records were dropped */

typedef struct tlc_join_options {
	uint32_t size;          /* sizeof(tlc_join_options) */
	unsigned flags;         /* TLC_JOIN_* */
	uint32_t gate_permille; /* gate threshold, 0 = 950 (95.0%) */
} tlc_join_options;

/** Totals of one join. Times are integer nanoseconds (sums of durations,
 *  except busy_ns which is the union of intervals per device, summed). */
typedef struct tlc_join_summary {
	tlc_join_state state;
	tlc_join_path path;
	const char *path_reason;    /* why this path, one sentence */
	uint64_t launches;          /* kernel + memcpy + memset records */
	uint64_t kernels;
	uint64_t launches_attributed, launches_ambiguous, launches_unattributed;
	uint64_t kernels_attributed, kernels_ambiguous, kernels_unattributed;
	int64_t device_ns;          /* all launches */
	int64_t busy_ns;            /* union per device, summed over devices */
	int64_t kernel_ns;
	int64_t kernel_attributed_ns, kernel_ambiguous_ns, kernel_unattributed_ns;
	int64_t kernel_internal_ns; /* the capture's own bookkeeping */
	uint64_t ambiguous_groups;
	/* evidence behind the path choice: runtime/driver calls that own launches */
	uint64_t launch_calls, launch_calls_with_external, launch_calls_external_self,
	         launch_calls_external_matched;
	uint32_t gate_permille;
	int gate_passed;            /* forward and backward shares both >= gate */
	/* the device profiler's own statement (tlc_eval_profiler_status):
	 * UNKNOWN when the input made none */
	tlc_profiler_state profiler_state;
	const char *profiler_source;  /* e.g. "cupti", or NULL */
	const char *profiler_message; /* its error text ("failed_call: message"), or NULL */
} tlc_join_summary;

/** Kernel time of one phase, for the gate. Kernels whose phase is unknown
 *  (unattributed, or ambiguous across phases) count against every phase. */
typedef struct tlc_join_phase {
	tlc_phase phase;
	int present;               /* some kernel time belongs to this phase */
	int64_t attributed_ns;
	int64_t ambiguous_ns;      /* ambiguous groups wholly inside this phase */
	int64_t unphased_ns;       /* unattributed/cross-phase kernel time */
	int64_t total_ns;          /* attributed + ambiguous + unphased */
	uint32_t share_permille;   /* floor(1000 * attributed / total) */
	int gated;                 /* forward and backward are gated */
	int passed;                /* share >= gate, or not present */
} tlc_join_phase;

typedef struct tlc_join_device {
	int64_t device;
	uint64_t launches;
	int64_t busy_ns;           /* union of intervals */
	int64_t device_ns;         /* sum of durations */
	int64_t kernel_ns;
	int64_t attributed_ns, ambiguous_ns, unattributed_ns, internal_ns; /* all launch kinds */
} tlc_join_device;

/** An unattributed launch name with how often and how long. */
typedef struct tlc_join_remainder {
	const char *name;
	uint64_t count;
	int64_t time_ns;
} tlc_join_remainder;

/** One launch (kernel, memcpy or memset). */
typedef struct tlc_join_launch {
	const tlc_device_record *rec; /* the eval's record */
	const tlc_device_record *runtime; /* the runtime/driver call, or NULL */
	tlc_attribution status;       /* ATTRIBUTED, AMBIGUOUS or UNATTRIBUTED */
	int64_t op_row;               /* row index when attributed, else -1 */
	int64_t group;                /* ambiguous group id, else -1 */
	const char *why;              /* for unattributed: the cause */
} tlc_join_launch;

typedef struct tlc_join_group {
	int64_t id;
	size_t nrows;
	const size_t *rows;           /* op row indices */
	uint64_t launches;
	int64_t time_ns;
} tlc_join_group;

/** Runs the join on a finished eval with kept ops, filling every row's
 *  device_time_ns, kernel_time_ns and attribution (row_flags gets
 *  TLC_ROW_HAS_DEVICE_TIME unless the state is unavailable). opts may be
 *  NULL. Errors: join_requires_op_rows (eval without keep_ops), eval_not_finished,
 *  invalid_argument, out_of_memory. Free with tlc_join_free. */
int tlc_join_run(tlc_join **out, tlc_eval *ev, const tlc_join_options *opts);
void tlc_join_free(tlc_join *j);

const tlc_join_summary *tlc_join_summary_get(const tlc_join *j);
/** Phases in tlc_phase order (TLC_PHASE_COUNT entries). */
const tlc_join_phase *tlc_join_phase_at(const tlc_join *j, tlc_phase p);
size_t tlc_join_device_count(const tlc_join *j);
const tlc_join_device *tlc_join_device_at(const tlc_join *j, size_t i);
/** Remainder, by time descending then name. */
size_t tlc_join_remainder_count(const tlc_join *j);
const tlc_join_remainder *tlc_join_remainder_at(const tlc_join *j, size_t i);
/** Launches in the eval's device-record order. */
size_t tlc_join_launch_count(const tlc_join *j);
const tlc_join_launch *tlc_join_launch_at(const tlc_join *j, size_t i);
size_t tlc_join_group_count(const tlc_join *j);
const tlc_join_group *tlc_join_group_at(const tlc_join *j, size_t i);

/** Device and kernel time of row i rolled up to the op that is counted for
 *  it (the nearest ancestor-or-self whose class is known or zero_by_rule).
 *  *counted is that row's index, or -1 when no counted op encloses it.
 *  Per-row times (tlc_op_row) stay with the innermost launching op. */
int tlc_join_rollup(int64_t *counted, const tlc_join *j, size_t row);
/** Rolled-up kernel time of a counted row (0 for rows nothing rolls into). */
int64_t tlc_join_counted_kernel_ns(const tlc_join *j, size_t row);

/** 0 when per-op device time exists; otherwise TLC_EREFUSED with code
 *  device_time_unavailable (j NULL: no join ran; or state unavailable). */
int tlc_join_require_device_time(const tlc_join *j);

/** Attributed kernel utilization: fma=2 FLOPs of counted ops that own kernel
 *  time / (their rolled-up kernel seconds x peak_flops). Refused
 *  (TLC_EREFUSED, kernel_utilization_requires_device_join) unless the join
 *  passed the gate. Never call it MFU. */
int tlc_join_kernel_utilization(double *out, const tlc_join *j, const tlc_eval *ev,
                                double peak_flops);

/* ---- saved joins (docs/join.md, "Saved joins") ---- */

/** Records every op of an evaluation as an op log v1 line while it is read:
 *  pass tlc_op_recorder_on_op as tlc_eval_options.on_op with the recorder
 *  as payload. Free with tlc_op_recorder_free. */
typedef struct tlc_op_recorder tlc_op_recorder;
int tlc_op_recorder_new(tlc_op_recorder **out);
void tlc_op_recorder_free(tlc_op_recorder *rec);
void tlc_op_recorder_on_op(const tlc_op *op, const tlc_op_row *row, void *payload);

/** Writes the joined result as an op log v1: a header whose meta holds the
 *  attribution and gate verdict ("tlcost_saved_join"), the recorded op
 *  records, then every device and runtime record of ev. Reading it back and
 *  joining re-derives everything from the records; see
 *  tlc_join_verify_saved. Errors: saved_join_incomplete (the recorder lost
 *  an op), io_error. */
int tlc_join_save(FILE *out, const tlc_join *j, const tlc_eval *ev, const tlc_op_recorder *rec);

/** For an input read from a saved join: checks that the stored attribution
 *  and gate verdict are exactly what j re-derived from the file's own
 *  records. *is_saved is 1 when ev's header carries a saved join. Returns 0
 *  (agrees, or not a saved join) or TLC_EINPUT with code saved_join_mismatch
 *  naming the first field that disagrees (any added, removed or altered
 *  field of the saved-join object counts). */
int tlc_join_verify_saved(int *is_saved, const tlc_join *j, const tlc_eval *ev);

/** Writes the join: text (summary, path and why, per-device, per-phase gate,
 *  remainder), json (all of it plus launches and groups) or csv (one row per
 *  launch). */
int tlc_write_join(FILE *out, const tlc_join *j, const tlc_eval *ev, tlc_format fmt);
/* TLC-JOIN-API-END */

/* ---- reports: tree, profile, roofline, mfu, report (contract 5-7) ---- */
/* TLC-REPORTS-API-BEGIN */
/* Reports read a finished evaluation made with keep_ops set; without kept
 * rows they refuse with reports_need_ops. Objects they return own their
 * strings; free them with the matching *_free. docs/reports.md has the
 * text, JSON and CSV layouts. */

/* ---- device presets (roofline and MFU ceilings) ---- */

/** Precisions a peak is quoted for (dense, no structured sparsity). */
typedef enum tlc_peak_dtype {
	TLC_PEAK_FP64 = 0,
	TLC_PEAK_FP32,
	TLC_PEAK_TF32,
	TLC_PEAK_FP16,
	TLC_PEAK_BF16,
	TLC_PEAK_FP8,
	TLC_PEAK_COUNT
} tlc_peak_dtype;

/** "fp64", "fp32", "tf32", "fp16", "bf16", "fp8". */
const char *tlc_peak_dtype_name(tlc_peak_dtype d);
/** Parses a peak dtype name (also accepts float32, bfloat16, ...).
 *  TLC_EINVAL (dtype_unknown) otherwise. */
int tlc_peak_dtype_parse(tlc_peak_dtype *out, const char *name);
/** The peak an op of element type d is compared with (float32 -> fp32,
 *  float8_* -> fp8, ...). TLC_ENOTFOUND for integer/bool/unknown types. */
int tlc_peak_dtype_of(tlc_peak_dtype *out, tlc_dtype d);

/** Where ceilings come from: the vendor's advertised peaks, or peaks
 *  measured as achievable (e.g. by a microbenchmark) by the user. */
typedef enum tlc_basis {
	TLC_BASIS_ADVERTISED = 0,
	TLC_BASIS_MEASURED_ACHIEVABLE
} tlc_basis;

const char *tlc_basis_name(tlc_basis b);
/** TLC_EINVAL (basis_unknown) for anything but the two names. */
int tlc_basis_parse(tlc_basis *out, const char *name);

/** One device's ceilings. peak_flops[d] is dense FLOP/s, 0 = not offered. */
typedef struct tlc_device_preset {
	const char *id;      /* "h100-sxm" */
	const char *name;    /* "NVIDIA H100 SXM5 80GB" */
	const char *match;   /* device-name patterns: '|'-separated alternatives,
	                        each a space-separated list of tokens that must
	                        all appear (case-insensitive) */
	double peak_flops[TLC_PEAK_COUNT];
	double mem_bw;       /* bytes/s */
	tlc_basis basis;
	const char *source;  /* vendor datasheet (or the user's note) */
	const char *date;    /* date of the source, YYYY-MM or YYYY */
	const char *origin;  /* "builtin" or the file it came from */
} tlc_device_preset;

typedef struct tlc_devices tlc_devices;

/** A device table holding the built-in presets. Free with tlc_devices_free. */
int tlc_devices_new(tlc_devices **out);
void tlc_devices_free(tlc_devices *devs);
/** Adds the devices of a user file (docs/devices.md); a device with an
 *  existing id replaces it. Errors carry line and column:
 *  devices_file_invalid; io_error. */
int tlc_devices_load(tlc_devices *devs, const char *path);
size_t tlc_devices_count(const tlc_devices *devs);
const tlc_device_preset *tlc_devices_at(const tlc_devices *devs, size_t i);
/** Finds a device by id, by name, or by matching a device string such as
 *  "NVIDIA H100 80GB HBM3" against the presets' patterns (the most
 *  specific match wins). TLC_ENOTFOUND (device_unknown) otherwise. */
int tlc_devices_find(const tlc_device_preset **out, const tlc_devices *devs,
                     const char *name);
/** Lists the devices with their peaks, bandwidth, source and date. */
int tlc_write_devices(FILE *out, const tlc_devices *devs, tlc_format fmt);

/** How a report picks its ceilings. Precedence: peak_flops/peak_bw (user
 *  ceilings), then device, then the input's device name. */
typedef struct tlc_ceilings {
	const tlc_devices *devices; /* NULL: built-in presets */
	const char *device;         /* preset id/name/device string, or NULL */
	double peak_flops;          /* > 0: user compute ceiling, every dtype */
	double peak_bw;             /* > 0: user bandwidth, bytes/s */
	tlc_basis basis;            /* basis of user ceilings */
	const char *dtype;          /* NULL: from the ops; else a peak dtype name
	                               ("bf16", "tf32", ...) used for every op */
} tlc_ceilings;

/* ---- cost tree (contract section 5) ---- */

typedef struct tlc_tree tlc_tree;

typedef struct tlc_tree_options {
	uint32_t size;    /* sizeof(tlc_tree_options) */
	tlc_phase phase;  /* TLC_PHASE_FORWARD by default (zeroed options) */
	size_t top;       /* keep the K largest children per node; 0 = all */
	size_t depth;     /* hide nodes deeper than D (root = 0); 0 = no limit */
	int no_fold;      /* nonzero: never fold identical sibling blocks */
} tlc_tree_options;

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
} tlc_tree_row;

/** Builds the tree of one phase. Errors: reports_need_ops, tree_phase_empty
 *  is not an error (an empty tree has only the root). */
int tlc_tree_build(tlc_tree **out, const tlc_eval *ev, const tlc_tree_options *opts);
void tlc_tree_free(tlc_tree *tree);
size_t tlc_tree_row_count(const tlc_tree *tree);
const tlc_tree_row *tlc_tree_row_at(const tlc_tree *tree, size_t i);
/** Exact decimal totals: all FLOPs of the phase, and the part inside
 *  remainder rows. Valid until tlc_tree_free. */
const char *tlc_tree_total_flops(const tlc_tree *tree);
const char *tlc_tree_hidden_flops(const tlc_tree *tree);
uint64_t tlc_tree_hidden_calls(const tlc_tree *tree);
int tlc_write_tree(FILE *out, const tlc_tree *tree, tlc_format fmt);

/* ---- profile tables ---- */

typedef enum tlc_profile_by {
	TLC_PROFILE_BY_OP = 0,
	TLC_PROFILE_BY_TYPE,
	TLC_PROFILE_BY_MODULE
} tlc_profile_by;

typedef enum tlc_profile_sort {
	TLC_SORT_FLOPS = 0,
	TLC_SORT_BYTES,
	TLC_SORT_INTENSITY,
	TLC_SORT_TIME,   /* instrumented host time */
	TLC_SORT_COUNT
} tlc_profile_sort;

typedef struct tlc_profile_options {
	uint32_t size;  /* sizeof(tlc_profile_options) */
	tlc_profile_by by;
	tlc_profile_sort sort;
	size_t top;     /* 0 = all rows */
	int phase;      /* -1 = all phases; else a tlc_phase */
} tlc_profile_options;

/** One table row. Unknown is never zero: flops counts only counted ops and
 *  `unknown` says how many of the row's ops have no cost; bytes is NULL
 *  when some element size was unknown. */
typedef struct tlc_profile_row {
	const char *key;           /* op name, op type or module path */
	const tlc_op_row *op;      /* TLC_PROFILE_BY_OP only */
	uint64_t count, unknown;
	const char *flops;         /* exact decimal of the counted ops; NULL when every
	                              op of the row is unknown */
	const char *bytes;         /* exact decimal, or NULL when unknown */
	double intensity;          /* FLOPs / bytes; < 0 when undefined */
	int has_time;              /* time (instrumented) present */
	int64_t time_ns;
	int has_device_time;       /* from a device-time join only */
	int64_t device_time_ns, kernel_time_ns;
} tlc_profile_row;

typedef struct tlc_profile tlc_profile;
int tlc_profile_build(tlc_profile **out, const tlc_eval *ev, const tlc_profile_options *opts);
void tlc_profile_free(tlc_profile *prof);
/** Rows shown (after top); tlc_profile_hidden_rows says how many were cut. */
size_t tlc_profile_row_count(const tlc_profile *prof);
const tlc_profile_row *tlc_profile_row_at(const tlc_profile *prof, size_t i);
size_t tlc_profile_hidden_rows(const tlc_profile *prof);
int tlc_write_profile(FILE *out, const tlc_profile *prof, tlc_format fmt);

/* ---- roofline (contract section 6): hypotheses from ideal traffic ---- */

typedef enum tlc_roof_reason {
	TLC_ROOF_COVERED = 0,
	TLC_ROOF_NO_RULE,
	TLC_ROOF_ZERO_LOGICAL_TRAFFIC,
	TLC_ROOF_MISSING_SHAPE_DTYPE,
	TLC_ROOF_REASON_COUNT
} tlc_roof_reason;

typedef enum tlc_roof_verdict {
	TLC_ROOF_NO_VERDICT = 0,
	TLC_ROOF_MEMORY_BOUND_HYPOTHESIS,
	TLC_ROOF_COMPUTE_BOUND_HYPOTHESIS
} tlc_roof_verdict;

const char *tlc_roof_reason_name(tlc_roof_reason r);
const char *tlc_roof_verdict_name(tlc_roof_verdict v);

#define TLC_ROOFLINE_DEFAULT_CACHE_BYTES (4u * 1024u * 1024u)

typedef struct tlc_roofline_options {
	uint32_t size;          /* sizeof(tlc_roofline_options) */
	tlc_ceilings ceilings;
	int phase;              /* -1 = all phases; else a tlc_phase */
	int64_t cache_bytes;    /* 0: default 4 MiB; < 0: exclude nothing */
} tlc_roofline_options;

typedef struct tlc_roofline_row {
	const tlc_op_row *op;
	tlc_roof_reason reason;
	tlc_roof_verdict verdict;    /* covered rows only */
	int cache_resident;          /* whole traffic <= cache_bytes */
	tlc_peak_dtype peak_dtype;   /* ceiling this op is compared with */
	const char *flops, *bytes;   /* exact decimals (NULL when unknown) */
	double intensity;            /* FLOPs / ideal bytes; covered rows */
	double bound_flops_per_s;    /* min(peak, bw * intensity): a ceiling, not a measurement */
	const char *family;          /* op family for the chart legend */
} tlc_roofline_row;

typedef struct tlc_roofline_summary {
	const tlc_device_preset *device; /* the ceilings used */
	const char *device_from;     /* "input", "option" or "user_ceilings" */
	uint64_t rows;               /* rows listed (not_applicable rows are not) */
	uint64_t by_reason[TLC_ROOF_REASON_COUNT];
	uint64_t memory_bound, compute_bound; /* headline, cache-resident excluded */
	uint64_t cache_resident_excluded;
	uint64_t no_peak;            /* covered rows whose dtype has no peak: no verdict */
	uint64_t cache_bytes;
	const char *covered_flops, *covered_bytes; /* exact sums over covered rows */
	double aggregate_intensity;  /* covered_flops / covered_bytes; < 0 when none */
	int lower_bound;             /* some op unknown */
} tlc_roofline_summary;

typedef struct tlc_roofline tlc_roofline;
/** Errors: reports_need_ops, roofline_device_missing (no ceilings given and
 *  the input names no known device), device_unknown, ceilings_invalid. */
int tlc_roofline_build(tlc_roofline **out, const tlc_eval *ev,
                       const tlc_roofline_options *opts);
void tlc_roofline_free(tlc_roofline *rl);
const tlc_roofline_summary *tlc_roofline_get_summary(const tlc_roofline *rl);
size_t tlc_roofline_row_count(const tlc_roofline *rl);
const tlc_roofline_row *tlc_roofline_row_at(const tlc_roofline *rl, size_t i);
/** Text shows the summary and the top `top` rows by FLOPs (0 = all);
 *  JSON and CSV always hold every row. */
int tlc_write_roofline(FILE *out, const tlc_roofline *rl, tlc_format fmt, size_t top);
/** The roofline chart as a standalone SVG document. */
int tlc_write_roofline_svg(FILE *out, const tlc_roofline *rl);

/* ---- MFU (contract section 7) ---- */

/** Denominators a caller may offer. Only TLC_MFU_STEP_SECONDS (the
 *  uninstrumented end-to-end step wall time) is lawful; any other is
 *  refused mfu_denominator_invalid. */
typedef enum tlc_mfu_denominator {
	TLC_MFU_STEP_SECONDS = 0,
	TLC_MFU_KERNEL_UNION_SECONDS,
	TLC_MFU_DEVICE_BUSY_SECONDS,
	TLC_MFU_INSTRUMENTED_HOST_SECONDS,
	TLC_MFU_OTHER_SECONDS
} tlc_mfu_denominator;

typedef struct tlc_mfu_options {
	uint32_t size;           /* sizeof(tlc_mfu_options) */
	tlc_ceilings ceilings;
	tlc_mfu_denominator denominator;
	double seconds;          /* the denominator's value */
	int64_t params, tokens;  /* <= 0: from the input's info */
} tlc_mfu_options;

typedef struct tlc_mfu_phase {
	int present;             /* the phase has counted FLOPs */
	const char *flops;       /* exact decimal */
	tlc_peak_dtype dtype;
	double peak_flops;       /* FLOP/s of the ceiling for dtype */
	double ideal_seconds;    /* flops / peak */
} tlc_mfu_phase;

typedef struct tlc_mfu_result {
	double mfu;              /* sum of ideal_seconds / step seconds */
	double step_seconds;
	int exceeds_one;         /* warning mfu_exceeds_one */
	int lower_bound;         /* FLOPs are a lower bound: so is MFU */
	const tlc_device_preset *device;
	const char *device_from;
	tlc_mfu_phase phase[TLC_PHASE_COUNT];
	int has_6nd;             /* params and tokens known */
	int64_t params, tokens;
	const char *six_nd;      /* exact 6*N*D */
	const char *counted_fwd_bwd; /* exact forward + backward FLOPs */
	double ratio_6nd;        /* counted / 6ND */
} tlc_mfu_result;

typedef struct tlc_mfu tlc_mfu;
/** Errors: mfu_denominator_invalid, mfu_step_seconds_invalid (<= 0, NaN,
 *  infinite or missing), mfu_mode_peak_missing (a phase has FLOPs and the
 *  ceilings have no peak for its dtype), roofline_device_missing,
 *  device_unknown, reports_need_ops. */
int tlc_mfu_compute(tlc_mfu **out, const tlc_eval *ev, const tlc_mfu_options *opts);
void tlc_mfu_free(tlc_mfu *m);
const tlc_mfu_result *tlc_mfu_get_result(const tlc_mfu *m);
int tlc_write_mfu(FILE *out, const tlc_mfu *m, tlc_format fmt);

/* ---- tlcost report: the one-screen overview ---- */

typedef struct tlc_report_options {
	uint32_t size;          /* sizeof(tlc_report_options) */
	tlc_ceilings ceilings;  /* roofline summary; none found: says so */
	size_t tree_top;        /* 0: 5 */
	size_t tree_depth;      /* 0: 2 */
	int64_t cache_bytes;    /* as in tlc_roofline_options */
} tlc_report_options;

/** Headline per phase, coverage, LOWER BOUND/COMPLETE, ledger top 3, top of
 *  the tree, roofline summary (80 columns). CSV is one row per op. */
int tlc_write_report(FILE *out, const tlc_eval *ev, const tlc_report_options *opts,
                     tlc_format fmt);
/* TLC-REPORTS-API-END */

/* ------------------------------------------------------------------ */
/* Writers                                                              */
/* ------------------------------------------------------------------ */


/** Writes the flops report (headline per phase, coverage, lower-bound or
 *  complete line, ledger summary, op types) to out. */
int tlc_write_flops(FILE *out, const tlc_eval *ev, tlc_format fmt);
/** Writes the full unknown ledger with remedies. */
int tlc_write_ledger(FILE *out, const tlc_eval *ev, tlc_format fmt);
/** Writes the rule listing of an engine. */
int tlc_write_rules(FILE *out, const tlc_engine *eng, tlc_format fmt);

/* ---- output (issue 11): whole-or-nothing output files, limits, exit policy ---- */

/** An output file written whole or not at all: tlc_outfile_open creates a
 *  temporary file in path's directory and gives its stream; write into it,
 *  then tlc_outfile_commit flushes, fsyncs and renames it over path, or
 *  tlc_outfile_abort removes it. Until the commit succeeds (and whenever the
 *  process is killed before it) path keeps its old content. Both free o.
 *  Errors: output_open_failed (no temporary file can be made there, or path
 *  is not a regular file), output_write_failed (writing, syncing or
 *  renaming failed: nothing replaced path). */
typedef struct tlc_outfile tlc_outfile;
int tlc_outfile_open(tlc_outfile **out, FILE **stream, const char *path);
int tlc_outfile_commit(tlc_outfile *o);
void tlc_outfile_abort(tlc_outfile *o);

/** tlc_join_save into path through a tlc_outfile: a failed or killed save
 *  leaves an existing file intact. Errors: those of tlc_join_save and
 *  tlc_outfile_open/commit. */
int tlc_join_save_file(const char *path, const tlc_join *j, const tlc_eval *ev,
                       const tlc_op_recorder *rec);

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
 *    max_held_bytes    bytes the held trace ops take (held_bytes_exceeded,
 *                      --max-held-bytes; default 1 GiB) */
typedef struct tlc_input_limits {
	uint32_t size; /* sizeof(tlc_input_limits) */
	uint64_t max_input_bytes;
	uint64_t max_token_bytes;
	uint64_t max_held_records;
	uint64_t max_held_bytes;
} tlc_input_limits;

#define TLC_INPUT_DEFAULT_MAX_INPUT_BYTES ((uint64_t)64 << 30)
#define TLC_INPUT_DEFAULT_MAX_TOKEN_BYTES ((uint64_t)8 << 20)
#define TLC_INPUT_DEFAULT_MAX_HELD_RECORDS ((uint64_t)4000000)
#define TLC_INPUT_DEFAULT_MAX_HELD_BYTES ((uint64_t)1 << 30)

/** tlc_input_read under the given limits (NULL: the defaults, which
 *  tlc_input_read also applies). */
int tlc_input_read_limited(tlc_eval *ev, const char *path, const tlc_input_limits *lim);

/** The verdict on the plugin at path (`tlcost plugin check`): info when
 *  it was accepted, else refusal (the error tlc_plugin_inspect set). Text
 *  (control bytes escaped) or JSON (schema tlcost.plugin_check/1). */
int tlc_write_plugin_check(FILE *out, const tlc_plugin_info *info, const char *path,
                           const tlc_error *refusal, tlc_format fmt);

#ifdef __cplusplus
}
#endif
#endif /* TLCOST_TLCOST_H */
