/* Collective communication ops (c10d::*, _c10d_functional::*, the
 * profiler's record_param_comms rows): a communication cost per call, as
 * nccl-tests defines it (doc/PERFORMANCE.md, docs/collectives.md).
 *
 * The message size S of each kind (bytes, element size es):
 *   all-reduce, broadcast, reduce, send, recv  S = nelems x es (the buffer)
 *   all-gather, gather                         S = out nelems x es (the gathered total)
 *   reduce-scatter, scatter                    S = in nelems x es (the total before scattering)
 *   all-to-all                                 S = in nelems x es (what one rank sends)
 * and bus bytes = S x the kind's factor for a group of n ranks (the host
 * computes it exactly through cost_add_comm). FLOPs are 0 (the reduction
 * arithmetic of all-reduce is not counted as compute: docs/collectives.md);
 * ideal traffic is the local input buffer read once and the output buffer
 * written once.
 *
 * What a rule reads, in order: keyword arguments attached by the trace
 * reader (engine/input/trace_comms.c) or written in an op log
 * (`collective`, `in_nelems`, `out_nelems`, `dtype`, `group_size`,
 * `group_size_basis`, `world_size`, `in_split`, `out_split`), then the op's
 * own tensor arguments. */
#include <stddef.h>
#include <string.h>
#include "rules.h"
#include "util.h"

/* Where a c10d op's own tensor arguments put the input and output. */
typedef enum layout {
	L_NONE = 0,   /* no tensor layout known: kwargs only */
	L_LIST0,      /* arg0: tensor list, in = out (allreduce_, broadcast_, reduce_, send, recv_) */
	L_OUT0_IN1,   /* arg0 output, arg1 input (_allgather_base_, _reduce_scatter_base_, alltoall_base_) */
	L_OUTS0_INS1, /* arg0 list of output lists, arg1 input list (allgather_, reduce_scatter_) */
	L_IN0         /* arg0 input tensor (_c10d_functional::*) */
} layout;

typedef struct coll_def {
	tlc_comm_kind kind;
	layout lay;
	int group_arg;   /* positional index of an int group size, or -1 */
} coll_def;

typedef struct comm_args {
	tlc_comm_kind kind;
	int64_t in, out;   /* nelems, -1 unknown */
	int64_t es;        /* element size, 0 unknown */
	int64_t n;         /* group size, 0 unknown */
	unsigned basis;
} comm_args;

/* ---- names ---------------------------------------------------------- */

/* Recorded collective names (record_param_comms "Collective name", nccl:*
 * annotation suffixes, c10d op stems) to kinds. -1: a zero-byte marker. */
static int kind_of_name(const char *s, tlc_comm_kind *k)
{
	static const struct { const char *name; int kind; } map[] = {
		{ "allreduce", TLC_COMM_ALLREDUCE }, { "all_reduce", TLC_COMM_ALLREDUCE },
		{ "allreduce_coalesced", TLC_COMM_ALLREDUCE },
		{ "allgather", TLC_COMM_ALLGATHER }, { "all_gather", TLC_COMM_ALLGATHER },
		{ "_allgather_base", TLC_COMM_ALLGATHER }, { "_all_gather_base", TLC_COMM_ALLGATHER },
		{ "all_gather_into_tensor", TLC_COMM_ALLGATHER },
		{ "allgather_into_tensor_coalesced", TLC_COMM_ALLGATHER },
		{ "allgather_coalesced", TLC_COMM_ALLGATHER },
		{ "reduce_scatter", TLC_COMM_REDUCE_SCATTER },
		{ "_reduce_scatter_base", TLC_COMM_REDUCE_SCATTER },
		{ "reduce_scatter_tensor", TLC_COMM_REDUCE_SCATTER },
		{ "reduce_scatter_tensor_coalesced", TLC_COMM_REDUCE_SCATTER },
		{ "alltoall", TLC_COMM_ALLTOALL }, { "all_to_all", TLC_COMM_ALLTOALL },
		{ "alltoall_base", TLC_COMM_ALLTOALL }, { "all_to_all_single", TLC_COMM_ALLTOALL },
		{ "broadcast", TLC_COMM_BROADCAST }, { "reduce", TLC_COMM_REDUCE },
		{ "send", TLC_COMM_SEND }, { "recv", TLC_COMM_RECV },
		{ "recvAnySource", TLC_COMM_RECV }, { "recv_any_source", TLC_COMM_RECV },
		{ "gather", TLC_COMM_GATHER }, { "scatter", TLC_COMM_SCATTER },
		{ "wait", -1 }, { "barrier", -1 }, { "monitored_barrier", -1 },
	};
	if (!s)
		return 0;
	if (strncmp(s, "nccl:", 5) == 0)
		s += 5;
	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (strcmp(map[i].name, s) == 0) {
			if (map[i].kind < 0)
				return -1;
			*k = (tlc_comm_kind)map[i].kind;
			return 1;
		}
	return 0;
}

/* Element sizes of the dtype spellings collectives are recorded with:
 * record_param_comms ("BFloat16", "Float", "Long"), nccl:* annotations and
 * Kineto input types (C++: "float", "long int", "c10::BFloat16") and op
 * logs ("bfloat16", "torch.float32"). 0 when unknown. */
static int64_t elem_size(const tlc_host *host, const char *s)
{
	static const struct { const char *name; int64_t es; } map[] = {
		{ "Double", 8 }, { "Float", 4 }, { "Half", 2 }, { "BFloat16", 2 },
		{ "Long", 8 }, { "Int", 4 }, { "Short", 2 }, { "Char", 1 }, { "Byte", 1 },
		{ "Bool", 1 }, { "ComplexFloat", 8 }, { "ComplexDouble", 16 },
		{ "Float8_e4m3fn", 1 }, { "Float8_e5m2", 1 },
		{ "double", 8 }, { "float", 4 }, { "c10::Half", 2 }, { "c10::BFloat16", 2 },
		{ "long int", 8 }, { "long", 8 }, { "int64_t", 8 }, { "int", 4 },
		{ "short int", 2 }, { "short", 2 }, { "signed char", 1 }, { "unsigned char", 1 },
		{ "char", 1 }, { "bool", 1 }, { "c10::Float8_e4m3fn", 1 }, { "c10::Float8_e5m2", 1 },
	};
	if (!s)
		return 0;
	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (strcmp(map[i].name, s) == 0)
			return map[i].es;
	return tlc_dtype_size(host->dtype_parse(s));
}

static const char *kind_label(tlc_comm_kind k)
{
	static const char *const names[TLC_COMM_COUNT] = {
		"allreduce", "allgather", "reduce_scatter", "alltoall", "broadcast",
		"reduce", "send", "recv", "gather", "scatter",
	};
	return (unsigned)k < TLC_COMM_COUNT ? names[k] : "collective";
}

/* ---- reading the arguments ------------------------------------------ */

static int64_t kw_int(const tlc_op *op, const tlc_host *host, const char *name)
{
	const tlc_value *v = host->op_kwarg(op, name);
	return v && v->kind == TLC_VALUE_INT && v->u.integer >= 0 ? v->u.integer : -1;
}

static const char *kw_str(const tlc_op *op, const tlc_host *host, const char *name)
{
	const tlc_value *v = host->op_kwarg(op, name);
	return v && v->kind == TLC_VALUE_STRING ? v->u.string : NULL;
}

/* Sum of a split-size list (all-to-all v), -1 when absent or empty. */
static int64_t kw_split_sum(const tlc_op *op, const tlc_host *host, const char *name)
{
	const tlc_value *v = host->op_kwarg(op, name);
	if (!v || v->kind != TLC_VALUE_LIST || v->u.list.n == 0)
		return -1;
	int64_t s = 0;
	for (size_t i = 0; i < v->u.list.n; i++) {
		const tlc_value *x = &v->u.list.items[i];
		if (x->kind != TLC_VALUE_INT || x->u.integer < 0 ||
		    __builtin_add_overflow(s, x->u.integer, &s))
			return -1;
	}
	return s;
}

/* numel of a tensor or the summed numel of a (nested) tensor list, -1 when
 * not a tensor; *es gets the element size of the first tensor with one. */
static int64_t value_numel(const tlc_host *host, const tlc_value *v, int64_t *es, int depth)
{
	if (!v || depth > 2)
		return -1;
	if (v->kind == TLC_VALUE_TENSOR) {
		int64_t n = 1;
		for (size_t i = 0; i < v->u.tensor.ndim; i++)
			if (__builtin_mul_overflow(n, v->u.tensor.shape[i], &n))
				return -1;
		if (*es == 0)
			*es = tlc_dtype_size(v->u.tensor.dtype);
		if (*es == 0 && v->u.tensor.dtype_name)
			*es = elem_size(host, v->u.tensor.dtype_name);
		return n;
	}
	if (v->kind != TLC_VALUE_LIST || v->u.list.n == 0)
		return -1;
	int64_t s = 0;
	for (size_t i = 0; i < v->u.list.n; i++) {
		int64_t n = value_numel(host, &v->u.list.items[i], es, depth + 1);
		if (n < 0 || __builtin_add_overflow(s, n, &s))
			return -1;
	}
	return s;
}

static void from_tensors(comm_args *a, const tlc_op *op, const tlc_host *host,
                         const coll_def *d)
{
	int64_t es = 0, x, y;
	const tlc_value *a0 = op->nargs > 0 ? &op->args[0] : NULL;
	const tlc_value *a1 = op->nargs > 1 ? &op->args[1] : NULL;
	switch (d->lay) {
	case L_LIST0: case L_IN0:
		x = value_numel(host, a0, &es, 0);
		if (a->in < 0)
			a->in = x;
		if (a->out < 0 && d->lay == L_LIST0)
			a->out = x;
		break;
	case L_OUT0_IN1: case L_OUTS0_INS1:
		y = value_numel(host, a0, &es, 0);
		x = value_numel(host, a1, &es, 0);
		if (a->in < 0)
			a->in = x;
		if (a->out < 0)
			a->out = y;
		break;
	default: break;
	}
	if (a->es == 0)
		a->es = es;
	if (a->n == 0 && d->group_arg >= 0 && (size_t)d->group_arg < op->nargs &&
	    op->args[d->group_arg].kind == TLC_VALUE_INT && op->args[d->group_arg].u.integer >= 1) {
		a->n = op->args[d->group_arg].u.integer;
		a->basis = TLC_COMM_GROUP_RECORDED;
	}
}

/* Group size: recorded, else derived from the buffers (gather/scatter
 * kinds: out/in), else the trace's world size. */
static void group_of(comm_args *a, const tlc_op *op, const tlc_host *host)
{
	if (a->n)
		return;
	int64_t g = kw_int(op, host, "group_size");
	const char *basis = kw_str(op, host, "group_size_basis");
	if (g >= 1) {
		a->n = g;
		a->basis = basis && strcmp(basis, "world_size") == 0 ? TLC_COMM_GROUP_WORLD
		         : basis && strcmp(basis, "derived") == 0 ? TLC_COMM_GROUP_DERIVED
		         : TLC_COMM_GROUP_RECORDED;
		return;
	}
	int gathers = a->kind == TLC_COMM_ALLGATHER || a->kind == TLC_COMM_GATHER;
	int scatters = a->kind == TLC_COMM_REDUCE_SCATTER || a->kind == TLC_COMM_SCATTER;
	int64_t big = gathers ? a->out : a->in, small = gathers ? a->in : a->out;
	if ((gathers || scatters) && big > 0 && small > 0 && big % small == 0) {
		a->n = big / small;
		a->basis = TLC_COMM_GROUP_DERIVED;
		return;
	}
	int64_t w = kw_int(op, host, "world_size");
	if (w >= 1) {
		a->n = w;
		a->basis = TLC_COMM_GROUP_WORLD;
	}
}

/* ---- the cost -------------------------------------------------------- */

/* S in elements for the kind (nccl-tests' size), -1 when not known. */
static int64_t message_nelems(const comm_args *a)
{
	int64_t s = -1;
	switch (a->kind) {
	case TLC_COMM_ALLGATHER: case TLC_COMM_GATHER:
		if (a->out >= 0)
			return a->out;
		return a->in >= 0 && !__builtin_mul_overflow(a->in, a->n, &s) ? s : -1;
	case TLC_COMM_REDUCE_SCATTER: case TLC_COMM_SCATTER:
		if (a->in >= 0)
			return a->in;
		return a->out >= 0 && !__builtin_mul_overflow(a->out, a->n, &s) ? s : -1;
	case TLC_COMM_RECV:
		return a->out >= 0 ? a->out : a->in;
	default:
		return a->in >= 0 ? a->in : a->out;
	}
}

/* Local traffic: the input buffer read once, the output written once. */
static int local_traffic(tlc_cost *out, const tlc_host *host, const comm_args *a, int64_t s)
{
	int64_t rd = a->in >= 0 ? a->in : s, wr = a->out >= 0 ? a->out : s;
	if (a->kind == TLC_COMM_SEND)
		wr = 0;
	if (a->kind == TLC_COMM_RECV)
		rd = 0;
	int64_t f[2] = { rd, a->es };
	int rc = host->cost_add(out, TLC_FIELD_BYTES_READ, 1, 2, f);
	f[0] = wr;
	return rc < 0 ? rc : host->cost_add(out, TLC_FIELD_BYTES_WRITTEN, 1, 2, f);
}

static int comm_cost(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                     const coll_def *d)
{
	if (host->size < offsetof(tlc_host, cost_add_comm) + sizeof host->cost_add_comm)
		return tlc_rules__missing(out, host, "host without communication costs (host->size has no cost_add_comm)");
	comm_args a = { d->kind, -1, -1, 0, 0, 0 };
	const char *name = kw_str(op, host, "collective");
	int known = kind_of_name(name, &a.kind);
	if (known < 0)
		return tlc_rules__bad(out, host, "collective '%s' is a zero-byte marker", name);
	if (a.kind == TLC_COMM_COUNT)
		return tlc_rules__missing(out, host, name ? "collective name '%s' not known"
		                                          : "no collective name recorded%s",
		                          name ? name : "");
	a.in = kw_int(op, host, "in_nelems");
	a.out = kw_int(op, host, "out_nelems");
	if (a.in < 0)
		a.in = kw_split_sum(op, host, "in_split");
	if (a.out < 0)
		a.out = kw_split_sum(op, host, "out_split");
	a.es = elem_size(host, kw_str(op, host, "dtype"));
	from_tensors(&a, op, host, d);
	group_of(&a, op, host);
	int64_t s = message_nelems(&a);
	if (s < 0)
		return tlc_rules__missing(out, host, "%s: message size not recorded (In/Out msg "
		                          "nelems or the tensors)", kind_label(a.kind));
	if (a.es == 0)
		return tlc_rules__missing(out, host, "%s: element type not recorded (dtype)",
		                          kind_label(a.kind));
	if (a.n == 0)
		return tlc_rules__missing(out, host, "%s: group size not recorded (Group size, "
		                          "Process Group Ranks or distributedInfo world_size)",
		                          kind_label(a.kind));
	int64_t f[2] = { s, a.es };
	tlc_comm c = { sizeof c, a.kind, a.n, 2, f, a.basis };
	int rc = host->cost_add_comm(out, &c);
	return rc < 0 ? rc : local_traffic(out, host, &a, s);
}

#define COLL(fn, kind, lay, garg)                                                       \
	static int fn(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *p)    \
	{                                                                                \
		(void)p;                                                                 \
		static const coll_def d = { kind, lay, garg };                           \
		return comm_cost(out, op, host, &d);                                     \
	}

COLL(allreduce, TLC_COMM_ALLREDUCE, L_LIST0, -1)
COLL(broadcast, TLC_COMM_BROADCAST, L_LIST0, -1)
COLL(reduce, TLC_COMM_REDUCE, L_LIST0, -1)
COLL(send, TLC_COMM_SEND, L_LIST0, -1)
COLL(recv, TLC_COMM_RECV, L_LIST0, -1)
COLL(allgather_base, TLC_COMM_ALLGATHER, L_OUT0_IN1, -1)
COLL(allgather, TLC_COMM_ALLGATHER, L_OUTS0_INS1, -1)
COLL(reduce_scatter_base, TLC_COMM_REDUCE_SCATTER, L_OUT0_IN1, -1)
COLL(reduce_scatter, TLC_COMM_REDUCE_SCATTER, L_OUTS0_INS1, -1)
COLL(alltoall_base, TLC_COMM_ALLTOALL, L_OUT0_IN1, -1)
COLL(alltoall, TLC_COMM_ALLTOALL, L_OUTS0_INS1, -1)
COLL(gather, TLC_COMM_GATHER, L_OUTS0_INS1, -1)
COLL(scatter, TLC_COMM_SCATTER, L_OUTS0_INS1, -1)
COLL(f_allreduce, TLC_COMM_ALLREDUCE, L_IN0, -1)
COLL(f_allgather, TLC_COMM_ALLGATHER, L_IN0, 1)
COLL(f_reduce_scatter, TLC_COMM_REDUCE_SCATTER, L_IN0, 2)
COLL(f_alltoall, TLC_COMM_ALLTOALL, L_IN0, -1)
/* record_param_comms: the kind comes from its "collective" keyword */
COLL(param_comms, TLC_COMM_COUNT, L_NONE, -1)

#define S TLC_RULE_COST, TLC_EVIDENCE_FORMULA_EXACT
#define MARK TLC_RULE_STRUCTURAL, TLC_EVIDENCE_FORMULA_EXACT, NULL, NULL
#define AR "communication: S = buffer bytes; bus = S x 2(n-1)/n (nccl-tests); 0 FLOPs"
#define AG "communication: S = gathered output bytes; bus = S x (n-1)/n (nccl-tests); 0 FLOPs"
#define RS "communication: S = input bytes (n x output); bus = S x (n-1)/n (nccl-tests); 0 FLOPs"
#define A2A "communication: S = bytes one rank sends; bus = S x (n-1)/n (nccl-tests); 0 FLOPs"
#define ONE "communication: S = buffer bytes; bus = S (factor 1, nccl-tests); 0 FLOPs"

static const tlc_rules_entry rules[] = {
	{ "c10d::allreduce_", S, allreduce, NULL, AR },
	{ "c10d::allreduce_coalesced_", S, allreduce, NULL, AR },
	{ "c10d::broadcast_", S, broadcast, NULL, ONE },
	{ "c10d::reduce_", S, reduce, NULL, ONE },
	{ "c10d::send", S, send, NULL, ONE },
	{ "c10d::recv_", S, recv, NULL, ONE },
	{ "c10d::recv_any_source_", S, recv, NULL, ONE },
	{ "c10d::_allgather_base_", S, allgather_base, NULL, AG },
	{ "c10d::allgather_into_tensor_coalesced_", S, allgather_base, NULL, AG },
	{ "c10d::allgather_", S, allgather, NULL, AG },
	{ "c10d::allgather_coalesced_", S, allgather, NULL, AG },
	{ "c10d::_reduce_scatter_base_", S, reduce_scatter_base, NULL, RS },
	{ "c10d::reduce_scatter_tensor_coalesced_", S, reduce_scatter_base, NULL, RS },
	{ "c10d::reduce_scatter_", S, reduce_scatter, NULL, RS },
	{ "c10d::alltoall_base_", S, alltoall_base, NULL, A2A },
	{ "c10d::alltoall_", S, alltoall, NULL, A2A },
	{ "c10d::gather_", S, gather, NULL, AG },
	{ "c10d::scatter_", S, scatter, NULL, RS },
	{ "_c10d_functional::all_reduce", S, f_allreduce, NULL, AR },
	{ "_c10d_functional::all_reduce_", S, f_allreduce, NULL, AR },
	{ "_c10d_functional::all_gather_into_tensor", S, f_allgather, NULL, AG },
	{ "_c10d_functional::reduce_scatter_tensor", S, f_reduce_scatter, NULL, RS },
	{ "_c10d_functional::all_to_all_single", S, f_alltoall, NULL, A2A },
	{ "kineto::record_param_comms", S, param_comms, NULL,
	  "communication (record_param_comms): S and bus bytes of the recorded collective "
	  "(nccl-tests); 0 FLOPs" },
	/* zero-byte markers: no data moves */
	{ "c10d::barrier", MARK, "barrier: a zero-byte synchronisation marker" },
	{ "c10d::monitored_barrier_", MARK, "barrier: a zero-byte synchronisation marker" },
	{ "_c10d_functional::wait_tensor", MARK, "wait: a zero-byte completion marker" },
	{ "kineto::record_param_comms.wait", MARK, "wait: a zero-byte completion marker" },
	{ "kineto::record_param_comms.barrier", MARK, "barrier: a zero-byte synchronisation marker" },
	{ "kineto::record_param_comms.marker", MARK,
	  "record_param_comms without a collective, sizes or NCCL call inside: a wait-style marker" },
};

int tlc_rules__collective_init(tlc_plugin_ctx *ctx, const tlc_host *host)
{
	return tlc_rules__register_table(ctx, host, rules, TLC_RULES_COUNT(rules));
}
