/*
 * tlcost rule-plugin ABI.
 *
 * This is the only header a rule plugin needs. A plugin is a shared object
 * that exports one symbol, tlc_plugin_describe(), returning a descriptor with
 * no side effects. The host checks the descriptor's ABI version, then calls
 * its init() with a table of host services; all registration happens inside
 * init() through that table, so a plugin never links libtlcost.
 *
 * Compatibility: the host accepts plugins whose abi_version v satisfies
 * TLC_PLUGIN_ABI_VERSION - TLC_PLUGIN_ABI_AGE <= v <= TLC_PLUGIN_ABI_VERSION.
 * The structs passed by pointer across the boundary start with a size (and
 * where noted a version) field and only grow at their end: tlc_op,
 * tlc_rule_def, tlc_host, tlc_plugin_desc. The host table is append-only
 * (check host->size before calling an entry added after the version you
 * built against). tlc_value, tlc_tensor and tlc_kwarg are values without a
 * size field: their layout is fixed for a TLC_PLUGIN_ABI_VERSION and changes
 * only with a new ABI version. tlc_cost and tlc_plugin_ctx are opaque.
 *
 * Built-in rules use exactly this ABI.
 */
#ifndef TLCOST_PLUGIN_H
#define TLCOST_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Current plugin ABI version and how many older versions the host accepts. */
#define TLC_PLUGIN_ABI_VERSION 1
#define TLC_PLUGIN_ABI_AGE 0

/** Name of the one symbol a plugin exports. */
#define TLC_PLUGIN_ENTRY "tlc_plugin_describe"

/* ------------------------------------------------------------------ */
/* Values: what an op's arguments and outputs look like to a rule       */
/* ------------------------------------------------------------------ */

/** Element types from op log v1. TLC_DTYPE_OTHER: a name with unknown size. */
typedef enum tlc_dtype {
	TLC_DTYPE_NONE = 0, /* no dtype recorded */
	TLC_DTYPE_FLOAT64,
	TLC_DTYPE_FLOAT32,
	TLC_DTYPE_FLOAT16,
	TLC_DTYPE_BFLOAT16,
	TLC_DTYPE_FLOAT8_E4M3FN,
	TLC_DTYPE_FLOAT8_E5M2,
	TLC_DTYPE_COMPLEX64,
	TLC_DTYPE_COMPLEX128,
	TLC_DTYPE_INT64,
	TLC_DTYPE_INT32,
	TLC_DTYPE_INT16,
	TLC_DTYPE_INT8,
	TLC_DTYPE_UINT8,
	TLC_DTYPE_BOOL,
	TLC_DTYPE_OTHER
} tlc_dtype;

/** Bytes per element of a dtype; 0 when unknown (NONE, OTHER). */
static inline unsigned tlc_dtype_size(tlc_dtype d)
{
	switch (d) {
	case TLC_DTYPE_FLOAT64: case TLC_DTYPE_COMPLEX64: case TLC_DTYPE_INT64: return 8;
	case TLC_DTYPE_FLOAT32: case TLC_DTYPE_INT32: return 4;
	case TLC_DTYPE_FLOAT16: case TLC_DTYPE_BFLOAT16: case TLC_DTYPE_INT16: return 2;
	case TLC_DTYPE_FLOAT8_E4M3FN: case TLC_DTYPE_FLOAT8_E5M2:
	case TLC_DTYPE_INT8: case TLC_DTYPE_UINT8: case TLC_DTYPE_BOOL: return 1;
	case TLC_DTYPE_COMPLEX128: return 16;
	default: return 0;
	}
}

/** The one dtype name table of tlcost: the op log v1 name of d, and in
 *  *cpp_names (when not NULL) the C++ scalar type names the PyTorch
 *  profiler writes for it, '|'-separated. NULL for NONE and OTHER. The op
 *  log reader, the trace reader, the rules and the writers all use it. */
static inline const char *tlc_dtype_names(tlc_dtype d, const char **cpp_names)
{
	const char *n = NULL, *c = NULL;
	switch (d) {
	case TLC_DTYPE_FLOAT64: n = "float64"; c = "double"; break;
	case TLC_DTYPE_FLOAT32: n = "float32"; c = "float"; break;
	case TLC_DTYPE_FLOAT16: n = "float16"; c = "c10::Half"; break;
	case TLC_DTYPE_BFLOAT16: n = "bfloat16"; c = "c10::BFloat16"; break;
	case TLC_DTYPE_FLOAT8_E4M3FN: n = "float8_e4m3fn"; c = "c10::Float8_e4m3fn"; break;
	case TLC_DTYPE_FLOAT8_E5M2: n = "float8_e5m2"; c = "c10::Float8_e5m2"; break;
	case TLC_DTYPE_COMPLEX64: n = "complex64"; c = "c10::complex<float>"; break;
	case TLC_DTYPE_COMPLEX128: n = "complex128"; c = "c10::complex<double>"; break;
	case TLC_DTYPE_INT64: n = "int64"; c = "long int|long|int64_t"; break;
	case TLC_DTYPE_INT32: n = "int32"; c = "int"; break;
	case TLC_DTYPE_INT16: n = "int16"; c = "short int|short"; break;
	case TLC_DTYPE_INT8: n = "int8"; c = "signed char"; break;
	case TLC_DTYPE_UINT8: n = "uint8"; c = "unsigned char"; break;
	case TLC_DTYPE_BOOL: n = "bool"; c = "bool"; break;
	default: break;
	}
	if (cpp_names)
		*cpp_names = c;
	return n;
}

typedef enum tlc_value_kind {
	TLC_VALUE_NONE = 0, /* JSON null / Python None */
	TLC_VALUE_BOOL,
	TLC_VALUE_INT,
	TLC_VALUE_FLOAT,
	TLC_VALUE_STRING,
	TLC_VALUE_TENSOR,
	TLC_VALUE_LIST,
	/* The call passed this argument but the input did not record its value
	 * (a trace without Concrete Inputs; a string, which no trace records).
	 * Never a default: a rule that needs it reports MISSING_ARGS. */
	TLC_VALUE_UNRECORDED
} tlc_value_kind;

/** A tensor as observed: shape always, strides/dtype/device when recorded. */
typedef struct tlc_tensor {
	size_t ndim;
	const int64_t *shape;   /* ndim entries, each >= 0 */
	const int64_t *stride;  /* ndim entries, or NULL when not recorded */
	tlc_dtype dtype;
	const char *dtype_name; /* as written, or NULL */
	const char *device;     /* e.g. "cuda:0", or NULL */
} tlc_tensor;

typedef struct tlc_value tlc_value;

/** One argument, output or list element. Memory is owned by the host and
 *  valid only during the call that received it. */
struct tlc_value {
	tlc_value_kind kind;
	union {
		int boolean;
		int64_t integer;
		double real;
		const char *string;
		tlc_tensor tensor;
		struct {
			size_t n;
			const tlc_value *items;
		} list;
	} u;
};

typedef struct tlc_kwarg {
	const char *name;
	tlc_value value;
} tlc_kwarg;

typedef enum tlc_phase {
	TLC_PHASE_FORWARD = 0,
	TLC_PHASE_BACKWARD,
	TLC_PHASE_OPTIMIZER,
	TLC_PHASE_OTHER,
	TLC_PHASE_COUNT
} tlc_phase;

/* Presence bits for the optional numeric fields of tlc_op. */
#define TLC_OP_HAS_HOST_NS     (1u << 0)
#define TLC_OP_HAS_START_NS    (1u << 1)
#define TLC_OP_HAS_THREAD      (1u << 2)
#define TLC_OP_HAS_MODULE_CALL (1u << 3)
#define TLC_OP_HAS_PARENT      (1u << 4)
#define TLC_OP_HAS_OUTPUTS     (1u << 5)
#define TLC_OP_HAS_END_NS      (1u << 6) /* traces: host end time known */
/* The arguments are every schema argument as a profiler observed them
 * (traces): nothing was omitted by the caller, so an argument past nargs, or
 * a None where the input cannot tell None from an unrecorded string, is not
 * recorded, never a schema default. Op logs leave it clear: an omitted
 * argument there means the schema default. */
#define TLC_OP_ARGS_OBSERVED   (1u << 7)

/** One operator call (an op log v1 record). Strings are NUL-terminated;
 *  everything is owned by whoever built the record and only borrowed by the
 *  callee. size = sizeof(tlc_op) of the writer's build. */
typedef struct tlc_op {
	uint32_t size;
	unsigned flags;          /* TLC_OP_HAS_* */
	int64_t id;              /* >= 0, unique within one evaluation */
	const char *name;        /* "aten::addmm" */
	const char *overload;    /* "default", "Tensor", ... or NULL/"" */
	tlc_phase phase;
	const char *module;      /* dotted path of innermost module, "" root, NULL unknown */
	const char *module_type; /* class name, or NULL */
	int64_t module_call;     /* valid with TLC_OP_HAS_MODULE_CALL */
	int64_t parent;          /* valid with TLC_OP_HAS_PARENT */
	size_t nargs;
	const tlc_value *args;
	size_t nkwargs;
	const tlc_kwarg *kwargs;
	size_t noutputs;
	const tlc_value *outputs; /* valid with TLC_OP_HAS_OUTPUTS */
	int64_t host_ns;         /* instrumented host duration */
	int64_t start_ns;        /* host start, monotonic */
	int64_t end_ns;          /* host end (traces) */
	int64_t thread;
	int64_t correlation;     /* external correlation id; equals id when not recorded */
} tlc_op;
/** The size set, every other field its default (module NULL: unknown; set correlation to the id when none was recorded). */
#define TLC_OP_INIT { sizeof(tlc_op), 0, 0, NULL, NULL, TLC_PHASE_FORWARD, NULL, NULL, 0, 0, \
	0, NULL, 0, NULL, 0, NULL, 0, 0, 0, 0, 0 }

/* ------------------------------------------------------------------ */
/* Rules                                                                */
/* ------------------------------------------------------------------ */

/** Opaque cost record under construction, owned by the host. Fields are
 *  exact integers of any size; a rule adds to them through the host table. */
typedef struct tlc_cost tlc_cost;

typedef enum tlc_cost_field {
	TLC_FIELD_MACS = 0,
	TLC_FIELD_OTHER_FLOPS,
	TLC_FIELD_BYTES_READ,
	TLC_FIELD_BYTES_WRITTEN,
	TLC_FIELD_COUNT
} tlc_cost_field;

typedef enum tlc_evidence {
	TLC_EVIDENCE_FORMULA_EXACT = 0, /* the formula is the op's arithmetic */
	TLC_EVIDENCE_ESTIMATED          /* a per-element convention or a model */
} tlc_evidence;

typedef enum tlc_rule_kind {
	TLC_RULE_COST = 0,   /* fn computes a cost (which may be 0 for a stated reason) */
	TLC_RULE_ZERO,       /* zero_by_rule: layout/view ops, free copies; note says why */
	TLC_RULE_DECOMPOSED, /* cost is exactly the sum of the op's children */
	TLC_RULE_STRUCTURAL  /* owns no compute: annotations, wrappers, markers */
} tlc_rule_kind;

/* Return codes of a rule function (0 = cost computed). */
#define TLC_RULE_OK 0
#define TLC_RULE_MISSING_ARGS (-100) /* shapes/args the formula needs are absent */
#define TLC_RULE_BAD_ARGS (-101)     /* args present but inconsistent with the schema */

typedef struct tlc_host tlc_host;
typedef struct tlc_plugin_ctx tlc_plugin_ctx;

/** Most dims the host's shape helpers handle (broadcast, matmul shapes). */
#define TLC_HOST_MAX_DIMS 32

/** The shapes of a torch.matmul-style product a [..., M, K] x b [..., K, N]
 *  (batch dims broadcast, 1-D operands promoted as torch.matmul does),
 *  filled by host->matmul_shape. The plugin allocates it and sets size. */
typedef struct tlc_matmul_shape {
	uint32_t size;                      /* sizeof(tlc_matmul_shape) */
	size_t nbatch;
	int64_t batch[TLC_HOST_MAX_DIMS];   /* broadcast batch dims */
	int64_t m, k, n;
	size_t nout;
	int64_t out[TLC_HOST_MAX_DIMS];     /* the product's shape */
} tlc_matmul_shape;
/** The size set, every other field its default. */
#define TLC_MATMUL_SHAPE_INIT { sizeof(tlc_matmul_shape), 0, { 0 }, 0, 0, 0, 0, { 0 } }

/** Computes the cost of one op into out. Returns TLC_RULE_OK or one of the
 *  TLC_RULE_* codes (call host->cost_explain first to say what was missing). */
typedef int (*tlc_rule_fn)(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                           void *payload);

/* tlc_rule_def.flags */
#define TLC_RULE_OVERRIDE (1u << 0) /* replace an already registered rule (reported) */

/** A rule registration. name is "ns::op" or "ns::op.overload"; the
 *  overload-specific rule beats the plain name. Strings are copied. */
typedef struct tlc_rule_def {
	uint32_t size;        /* sizeof(tlc_rule_def) */
	const char *name;
	tlc_rule_kind kind;
	tlc_evidence evidence;
	tlc_rule_fn fn;       /* required for TLC_RULE_COST, ignored otherwise */
	void *payload;        /* passed to fn; owned by the plugin */
	const char *note;     /* one line: the formula or the reason for zero */
	unsigned flags;       /* TLC_RULE_OVERRIDE */
} tlc_rule_def;
/** The size set, every other field its default. */
#define TLC_RULE_DEF_INIT { sizeof(tlc_rule_def), NULL, TLC_RULE_COST, TLC_EVIDENCE_FORMULA_EXACT, \
	NULL, NULL, NULL, 0 }

/** Collective kinds of a communication cost (host entry cost_add_comm). The bus factor of each
 *  is nccl-tests' (doc/PERFORMANCE.md): all-reduce 2(n-1)/n; all-gather,
 *  reduce-scatter, all-to-all, gather, scatter (n-1)/n; broadcast, reduce,
 *  send, recv 1. New kinds are appended before TLC_COMM_COUNT. */
typedef enum tlc_comm_kind {
	TLC_COMM_ALLREDUCE = 0,
	TLC_COMM_ALLGATHER,
	TLC_COMM_REDUCE_SCATTER,
	TLC_COMM_ALLTOALL,
	TLC_COMM_BROADCAST,
	TLC_COMM_REDUCE,
	TLC_COMM_SEND,
	TLC_COMM_RECV,
	TLC_COMM_GATHER,
	TLC_COMM_SCATTER,
	TLC_COMM_COUNT
} tlc_comm_kind;

/* tlc_comm.flags: where the group size n came from */
#define TLC_COMM_GROUP_RECORDED (1u << 0) /* recorded with the call (Group size) */
#define TLC_COMM_GROUP_DERIVED  (1u << 1) /* derived from the buffers (out/in) */
#define TLC_COMM_GROUP_WORLD    (1u << 2) /* the trace's world size: no group recorded */

/** One collective's communication, given to host->cost_add_comm.
 *  The message size S (nccl-tests' definition for the kind) is the exact
 *  product of factors[0..n-1] (bytes). size = sizeof(tlc_comm). */
typedef struct tlc_comm {
	uint32_t size;
	tlc_comm_kind kind;
	int64_t group_size;     /* ranks in the collective's group, >= 1 */
	size_t nfactors;
	const int64_t *factors; /* each >= 0 */
	unsigned flags;         /* TLC_COMM_GROUP_* */
} tlc_comm;
/** The size set, every other field its default (group of 1, no factors). */
#define TLC_COMM_INIT { sizeof(tlc_comm), TLC_COMM_ALLREDUCE, 1, 0, NULL, 0 }

/** Host services, append-only. All pointers are non-NULL for
 *  entries within host->size. */
struct tlc_host {
	uint32_t abi_version; /* the host's TLC_PLUGIN_ABI_VERSION */
	uint32_t size;        /* sizeof(tlc_host) of the host */

	/* Registration; valid only during the plugin's init(). Returns 0 or a
	 * negative TLC_E* code (the host keeps the detail). */
	int (*register_rule)(tlc_plugin_ctx *ctx, const tlc_rule_def *def);

	/* out->field += coeff * factors[0] * ... * factors[n-1], exactly.
	 * Factors must be >= 0; coeff may be negative (a field must end >= 0).
	 * Returns 0, or TLC_RULE_BAD_ARGS for a negative factor. */
	int (*cost_add)(tlc_cost *out, tlc_cost_field field, int64_t coeff, size_t n,
	                const int64_t *factors);
	/* out->field += coeff * numel(t). */
	int (*cost_add_numel)(tlc_cost *out, tlc_cost_field field, int64_t coeff,
	                      const tlc_tensor *t);
	/* out->field += bytes of v read or written once: a tensor, or every
	 * tensor in a list (None and scalars add nothing). An unknown element size
	 * marks the cost's bytes unknown instead of adding 0. */
	int (*cost_add_bytes)(tlc_cost *out, tlc_cost_field field, const tlc_value *v);
	/* Override the rule's evidence for this op. */
	void (*cost_set_evidence)(tlc_cost *out, tlc_evidence ev);
	/* Say why the rule failed or why a known cost is 0 (copied). */
	void (*cost_explain)(tlc_cost *out, const char *text);
	/* Declare that macs/other_flops are not a true split for this op (only
	 * their fma=2 sum is meaningful): the fma=1 view is then refused. */
	void (*cost_set_split_unknown)(tlc_cost *out);
	/* Look up a keyword argument by name; NULL when absent. */
	const tlc_value *(*op_kwarg)(const tlc_op *op, const char *name);

	/* ---- appended after the first release: a plugin calls these only when
	 * host->size covers them (docs/plugin-guide.md section 2) ---- */
	/* Sets the op's communication cost: message bytes S = product of
	 * c->factors and bus bytes S x the kind's factor, both exact. One
	 * collective per op. Returns 0, or TLC_RULE_BAD_ARGS for a negative
	 * factor, a group size < 1, an unknown kind or a second collective. */
	int (*cost_add_comm)(tlc_cost *out, const tlc_comm *c);
	/* ---- helpers the built-in rules use (tlcost 0.2; check
	 * TLC_HOST_HAS(host, arg) before calling them). Getters that can fail
	 * return 0, TLC_RULE_MISSING_ARGS when the value is absent or
	 * TLC_RULE_BAD_ARGS when it has the wrong kind. Nothing allocates;
	 * pointers returned borrow from the op. ---- */

	/* arg(i, name): the positional argument i when the op has more than i
	 * positional arguments, else the keyword argument `name` (may be NULL).
	 * A JSON null counts as absent: NULL. */
	const tlc_value *(*arg)(const tlc_op *op, size_t i, const char *name);
	/* The tensor of arg(i, name), or NULL when absent or not a tensor. */
	const tlc_tensor *(*tensor_arg)(const tlc_op *op, size_t i, const char *name);
	/* The i-th recorded output, or NULL (outputs not recorded, out of range). */
	const tlc_value *(*output)(const tlc_op *op, size_t i);
	/* Integer of arg(i, name), or dflt when absent. A bool is not an int; a
	 * one-element int list is. */
	int (*int_arg_or)(int64_t *out, const tlc_op *op, size_t i, const char *name,
	                  int64_t dflt);
	/* Int list of arg(i, name) expanded to exactly want entries (a list of
	 * one is repeated: stride=2 of conv2d means [2,2]); absent gives dflt
	 * repeated; BAD_ARGS when its length is neither 1 nor want. */
	int (*int_list_arg)(int64_t *out, size_t want, const tlc_op *op, size_t i,
	                    const char *name, int64_t dflt);
	/* Size of dim d of t (negative d counts from the end); -1 out of range. */
	int64_t (*dim)(const tlc_tensor *t, int64_t d);
	/* numel(t) into *out; BAD_ARGS when it overflows int64 (count with
	 * cost_add_numel, which is exact: this is for sizes). */
	int (*numel)(int64_t *out, const tlc_tensor *t);
	/* numpy/PyTorch broadcast of two shapes into out[TLC_HOST_MAX_DIMS];
	 * BAD_ARGS when incompatible. */
	int (*broadcast)(int64_t *out, size_t *nout, const int64_t *a, size_t na,
	                 const int64_t *b, size_t nb);
	/* bytes_read += every tensor among the positional arguments and kwargs
	 * (lists included) except the kwarg "out". */
	int (*read_inputs)(tlc_cost *out, const tlc_op *op);
	/* bytes_written += every recorded output; when none are recorded,
	 * fallback (may be NULL: MISSING_ARGS) is written instead. */
	int (*write_outputs)(tlc_cost *out, const tlc_op *op, const tlc_value *fallback);
	/* The shapes of a matmul of a and b (out->size set by the caller);
	 * BAD_ARGS when the inner dims or batch dims disagree. */
	int (*matmul_shape)(tlc_matmul_shape *out, const tlc_tensor *a, const tlc_tensor *b);
	/* One convolution output size: (in + 2p - d*(k-1) - 1) / s + 1, or
	 * transposed (in-1)*s - 2p + d*(k-1) + output_padding + 1, with overflow
	 * checks; BAD_ARGS when it is not a valid size. */
	int (*conv_out_size)(int64_t *out, int64_t in, int64_t kernel, int64_t stride,
	                     int64_t padding, int64_t dilation, int64_t output_padding,
	                     int transposed);
	/* dtype of an op log dtype name ("float32", "torch.bfloat16"); NONE for
	 * NULL, OTHER for a name of unknown size. */
	tlc_dtype (*dtype_parse)(const char *name);

	/* ---- appended with partly known ops, libtlcost -version-info 5:0:1; check
	 * TLC_HOST_HAS(host, cost_set_missing) before calling it) ---- */

	/* Declares that `field` of this op cannot be determined from what the
	 * input records (it depends on a tensor's values, or on a selector the
	 * input did not record) while every other field the rule adds is
	 * exact. The rule then returns TLC_RULE_OK: the op stays unknown (every
	 * total stays a lower bound), its determined fields are counted, and
	 * the unknown ledger names the missing field with the rule's
	 * explanation (host->cost_explain, which should say why and may state
	 * an upper bound as text) as its cause. Whatever the rule added to the
	 * field is not counted. May be called for several fields. */
	void (*cost_set_missing)(tlc_cost *out, tlc_cost_field field);
};

/** Nonzero when the host table holds entry `member` (appended after the
 *  version a plugin was built against may be missing). */
#define TLC_HOST_HAS(host, member) \
	((host)->size >= offsetof(tlc_host, member) + sizeof((host)->member))

/** Plugin descriptor returned by tlc_plugin_describe(). */
typedef struct tlc_plugin_desc {
	uint32_t abi_version; /* TLC_PLUGIN_ABI_VERSION the plugin was built with */
	uint32_t size;        /* sizeof(tlc_plugin_desc) */
	const char *name;     /* short name, [A-Za-z0-9_.-], at most 64 chars */
	const char *version;  /* free-form */
	/* Registers the plugin's rules. Returns 0, or negative on failure; on
	 * failure the host removes everything it registered and closes it. */
	int (*init)(tlc_plugin_ctx *ctx, const tlc_host *host);
} tlc_plugin_desc;

/** The plugin's one exported entry: no side effects, may be called any
 *  number of times. */
typedef const tlc_plugin_desc *(*tlc_plugin_describe_fn)(void);

#ifdef __cplusplus
}
#endif
#endif /* TLCOST_PLUGIN_H */
