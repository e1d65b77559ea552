/* Cost records and the host service table rules compute through. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cost.h"
#include "engine.h"
#include "names.h"
#include "host_help.h" /* what the table's rule helpers call */

void tlc_cost__init(tlc_cost *c, tlc_evidence ev)
{
	for (int i = 0; i < TLC_FIELD_COUNT; i++)
		tlc_count__init(&c->f[i]);
	c->evidence = ev;
	c->bytes_unknown = 0;
	c->split_unknown = 0;
	c->bad_factor = 0;
	c->negative_terms = 0;
	c->note = NULL;
	c->notebuf = NULL;
	c->notecap = 0;
	c->has_comm = 0;
	c->comm_kind = TLC_COMM_ALLREDUCE;
	c->comm_group = 0;
	c->comm_flags = 0;
	tlc_count__init(&c->comm_msg);
	memset(&c->io, 0, sizeof c->io);
	c->missing = 0;
}

void tlc_cost__clear(tlc_cost *c)
{
	for (int i = 0; i < TLC_FIELD_COUNT; i++)
		tlc_count__clear(&c->f[i]);
	tlc_count__clear(&c->comm_msg);
}

void tlc_cost__reset_big(tlc_cost *c)
{
	for (int i = 0; i < TLC_FIELD_COUNT; i++)
		if (c->f[i].big)
			tlc_count__clear(&c->f[i]);
	if (c->comm_msg.big)
		tlc_count__clear(&c->comm_msg);
}

void tlc_cost__copy(tlc_cost *dst, const tlc_cost *src)
{
	for (int i = 0; i < TLC_FIELD_COUNT; i++)
		tlc_count__set(&dst->f[i], &src->f[i]);
	dst->evidence = src->evidence;
	dst->bytes_unknown = src->bytes_unknown;
	dst->split_unknown = src->split_unknown;
	dst->bad_factor = src->bad_factor;
	dst->negative_terms = src->negative_terms;
	dst->missing = src->missing;
	dst->note = src->note;
	dst->has_comm = src->has_comm;
	dst->comm_kind = src->comm_kind;
	dst->comm_group = src->comm_group;
	dst->comm_flags = src->comm_flags;
	tlc_count__set(&dst->comm_msg, &src->comm_msg);
}

void tlc_cost__add_flops(tlc_count *acc, const tlc_cost *c)
{
	tlc_count__addmul_si(acc, &c->f[TLC_FIELD_MACS], 2);
	tlc_count__add(acc, &c->f[TLC_FIELD_OTHER_FLOPS]);
}

int tlc_cost__negative(const tlc_cost *c)
{
	if (!c->negative_terms)
		return 0;
	for (int i = 0; i < TLC_FIELD_COUNT; i++)
		if (tlc_count__sign(&c->f[i]) < 0)
			return 1;
	return 0;
}

/* ---- host services ---- */

static int valid_field(tlc_cost_field f) { return (unsigned)f < TLC_FIELD_COUNT; }

/* The GMP path, out of line and last, so that the int64 path saves no
 * registers for it. */
static __attribute__((noinline, cold)) int add_big_product(tlc_count *c, int64_t coeff,
                                                           size_t n, const int64_t *factors)
{
	tlc_count__add_product(c, coeff, n, factors);
	return 0;
}

/* out->field += coeff * prod(factors), the factors already known
 * non-negative: int64 while it fits, GMP only on overflow. Returns 0. */
static inline int add_checked_product(tlc_cost *out, tlc_cost_field field, int64_t coeff,
                                      size_t n, const int64_t *factors, int64_t p,
                                      int overflow)
{
	out->negative_terms |= coeff < 0;
	tlc_count *c = &out->f[field];
	int64_t sum;
	if (!overflow && !c->big && !__builtin_add_overflow(c->small, p, &sum)) {
		c->small = sum;
		return 0;
	}
	return add_big_product(c, coeff, n, factors);
}

static int host_cost_add(tlc_cost *out, tlc_cost_field field, int64_t coeff, size_t n,
                         const int64_t *factors)
{
	if (!out || !valid_field(field) || (n && !factors))
		return TLC_RULE_BAD_ARGS;
	/* one pass: sign check and the int64 product; GMP only on overflow */
	int64_t p = coeff, neg = 0;
	int overflow = 0;
	for (size_t i = 0; i < n; i++) {
		neg |= factors[i];
		overflow |= __builtin_mul_overflow(p, factors[i], &p);
	}
	if (neg < 0) {
		out->bad_factor = 1;
		return TLC_RULE_BAD_ARGS;
	}
	return add_checked_product(out, field, coeff, n, factors, p, overflow);
}

static int host_cost_add_numel(tlc_cost *out, tlc_cost_field field, int64_t coeff,
                               const tlc_tensor *t)
{
	if (!t || (t->ndim && !t->shape))
		return TLC_RULE_BAD_ARGS;
	return host_cost_add(out, field, coeff, t->ndim, t->shape);
}

/* Bytes of one tensor: the same checks, in the same order, as
 * cost_add_numel(out, field, element size, t), without the calls (every
 * rule's bytes come through here). The element size is positive. */
static inline int add_tensor_bytes(tlc_cost *out, tlc_cost_field field, const tlc_tensor *t)
{
	unsigned es = tlc_dtype_size(t->dtype);
	if (es == 0) {
		out->bytes_unknown = 1;
		return 0;
	}
	size_t n = t->ndim;
	const int64_t *sh = t->shape;
	if (!out || !valid_field(field) || (n && !sh))
		return TLC_RULE_BAD_ARGS;
	int64_t p = (int64_t)es, neg = 0;
	int overflow = 0;
	for (size_t i = 0; i < n; i++) {
		neg |= sh[i];
		overflow |= __builtin_mul_overflow(p, sh[i], &p);
	}
	if (neg < 0) {
		out->bad_factor = 1;
		return TLC_RULE_BAD_ARGS;
	}
	return add_checked_product(out, field, (int64_t)es, n, sh, p, overflow);
}

static int host_cost_add_bytes(tlc_cost *out, tlc_cost_field field, const tlc_value *v);

/* A list's tensors in order; only a nested list recurses (int lists, the
 * usual case, cost a kind test per item). Apart so that the tensor case,
 * the most frequent call, is a leaf without a frame to save. */
static __attribute__((noinline)) int list_bytes(tlc_cost *out, tlc_cost_field field,
                                                const tlc_value *v)
{
	for (size_t i = 0; i < v->u.list.n; i++) {
		const tlc_value *it = &v->u.list.items[i];
		int rc = it->kind == TLC_VALUE_TENSOR ? add_tensor_bytes(out, field, &it->u.tensor) :
		         it->kind == TLC_VALUE_LIST ? host_cost_add_bytes(out, field, it) : 0;
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int host_cost_add_bytes(tlc_cost *out, tlc_cost_field field, const tlc_value *v)
{
	if (!v)
		return 0;
	if (v->kind == TLC_VALUE_TENSOR)
		return add_tensor_bytes(out, field, &v->u.tensor);
	return v->kind == TLC_VALUE_LIST ? list_bytes(out, field, v) : 0;
}

/* ---- the record's byte sums, made as its values are checked ---- */

typedef struct io_acc {
	int64_t sum;
	int overflow, unknown;
} io_acc;

/* One tensor: its shape given and non-negative (else -1), and its bytes
 * added as add_tensor_bytes adds them (an unknown element size adds 0 and
 * marks the bytes unknown). */
static inline int io_tensor(io_acc *a, const tlc_tensor *t)
{
	size_t n = t->ndim, i = 0;
	const int64_t *sh = t->shape;
	if (n && !sh)
		return -1;
	unsigned es = tlc_dtype_size(t->dtype);
	int64_t p = (int64_t)es, any = 0; /* a negative entry sets any's sign bit */
	for (; i < n; i++) {
		any |= sh[i];
		if (__builtin_mul_overflow(p, sh[i], &p))
			goto wide;
	}
	if (any < 0)
		return -1;
	a->unknown |= es == 0;
	a->overflow |= __builtin_add_overflow(a->sum, p, &a->sum);
	return 0;
wide: /* past int64: the helpers will count it exactly; the rest is checked */
	for (; i < n; i++)
		any |= sh[i];
	a->overflow = 1;
	return any < 0 ? -1 : 0;
}

/* a += b (the sum of a list's tensors) */
static inline void io_merge(io_acc *a, const io_acc *b)
{
	a->overflow |= b->overflow | __builtin_add_overflow(a->sum, b->sum, &a->sum);
	a->unknown |= b->unknown;
}

/* A list's tensors, nested lists at most 64 deep (list_bytes' order). */
static int io_list(io_acc *a, const tlc_value *v, int depth)
{
	if (depth > 64 || (v->u.list.n && !v->u.list.items))
		return -1;
	for (size_t i = 0; i < v->u.list.n; i++) {
		const tlc_value *it = &v->u.list.items[i];
		int rc = it->kind == TLC_VALUE_TENSOR ? io_tensor(a, &it->u.tensor) :
		         it->kind == TLC_VALUE_LIST ? io_list(a, it, depth + 1) : 0;
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* Scalars need no check; tensors (most values) are checked inline. A
 * list sums into an accumulator of its own, so that a (the caller's)
 * stays in registers. */
static inline int io_value(io_acc *a, const tlc_value *v)
{
	if (v->kind == TLC_VALUE_TENSOR)
		return io_tensor(a, &v->u.tensor);
	if (v->kind != TLC_VALUE_LIST)
		return 0;
	/* most lists hold ints (strides, sizes): a kind test per item */
	size_t n = v->u.list.n;
	const tlc_value *it = v->u.list.items;
	if (n && !it)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (it[i].kind == TLC_VALUE_TENSOR || it[i].kind == TLC_VALUE_LIST)
			goto deep;
	return 0;
deep:;
	io_acc l = { 0, 0, 0 };
	if (io_list(&l, v, 0) < 0)
		return -1;
	io_merge(a, &l);
	return 0;
}

/* The kwargs, apart: few records have any. */
static __attribute__((noinline)) int io_kwargs(io_acc *r, const tlc_op *op)
{
	io_acc skip = { 0, 0, 0 };
	for (size_t i = 0; i < op->nkwargs; i++) {
		const tlc_kwarg *k = &op->kwargs[i];
		/* read_inputs reads every kwarg but "out" (written, not read) */
		if (!k->name || io_value(strcmp(k->name, "out") == 0 ? &skip : r, &k->value) < 0)
			return -1;
	}
	return 0;
}

const char *tlc_cost__io_check(tlc_cost_io *io, const tlc_op *op)
{
	io_acc r = { 0, 0, 0 }, w = { 0, 0, 0 };
	for (size_t i = 0; i < op->nargs; i++)
		if (io_value(&r, &op->args[i]) < 0)
			return "args (negative shape entry or nesting deeper than 64)";
	if (op->nkwargs) {
		io_acc k = { 0, 0, 0 };
		if (io_kwargs(&k, op) < 0)
			return "kwargs (unnamed, negative shape entry or too deep)";
		io_merge(&r, &k);
	}
	int outs = (op->flags & TLC_OP_HAS_OUTPUTS) != 0;
	for (size_t i = 0; outs && i < op->noutputs; i++)
		if (io_value(&w, &op->outputs[i]) < 0)
			return "outputs (negative shape entry or nesting deeper than 64)";
	io->op = op;
	io->read = r.sum;
	io->written = w.sum;
	io->read_ok = !r.overflow;
	io->written_ok = outs && op->noutputs > 0 && !w.overflow;
	io->read_unknown = (unsigned char)r.unknown;
	io->written_unknown = (unsigned char)w.unknown;
	return NULL;
}

static void host_set_evidence(tlc_cost *out, tlc_evidence ev)
{
	if (out && (ev == TLC_EVIDENCE_FORMULA_EXACT || ev == TLC_EVIDENCE_ESTIMATED))
		out->evidence = ev;
}

static void host_explain(tlc_cost *out, const char *text)
{
	if (out && out->notebuf && out->notecap) {
		snprintf(out->notebuf, out->notecap, "%s", text ? text : "");
		out->note = out->notebuf;
	}
}

static void host_split_unknown(tlc_cost *out)
{
	if (out)
		out->split_unknown = 1;
}

/* The field's value is dropped when the cost is counted (tlc_cost__drop_missing). */
static void host_set_missing(tlc_cost *out, tlc_cost_field field)
{
	if (out && valid_field(field))
		out->missing |= 1u << field;
}

static const tlc_value *host_op_kwarg(const tlc_op *op, const char *name)
{
	if (!op || !name)
		return NULL;
	for (size_t i = 0; i < op->nkwargs; i++)
		if (op->kwargs[i].name && strcmp(op->kwargs[i].name, name) == 0)
			return &op->kwargs[i].value;
	return NULL;
}

static int host_cost_add_comm(tlc_cost *out, const tlc_comm *c)
{
	if (!out || !c || c->size < sizeof(tlc_comm) || (unsigned)c->kind >= TLC_COMM_COUNT ||
	    c->group_size < 1 || out->has_comm || (c->nfactors && !c->factors))
		return TLC_RULE_BAD_ARGS;
	for (size_t i = 0; i < c->nfactors; i++)
		if (c->factors[i] < 0)
			return TLC_RULE_BAD_ARGS;
	tlc_count__add_product(&out->comm_msg, 1, c->nfactors, c->factors);
	out->has_comm = 1;
	out->comm_kind = c->kind;
	out->comm_group = c->group_size;
	out->comm_flags = c->flags;
	return 0;
}

/* ---- helpers of the built-in families, for every plugin ---- */

static const tlc_host host_table;

static const tlc_value *host_arg(const tlc_op *op, size_t i, const char *name)
{
	return op ? tlc_host__arg(op, &host_table, i, name) : NULL;
}

static const tlc_tensor *host_tensor_arg(const tlc_op *op, size_t i, const char *name)
{
	return op ? tlc_host__tensor_arg(op, &host_table, i, name) : NULL;
}

static const tlc_value *host_output(const tlc_op *op, size_t i)
{
	return op ? tlc_host__out(op, i) : NULL;
}

static int host_int_arg_or(int64_t *out, const tlc_op *op, size_t i, const char *name,
                           int64_t dflt)
{
	if (!out || !op)
		return TLC_RULE_BAD_ARGS;
	return tlc_host__int_arg_or(out, op, &host_table, i, name, dflt);
}

static int host_int_list_arg(int64_t *out, size_t want, const tlc_op *op, size_t i,
                             const char *name, int64_t dflt)
{
	if (!out || !op)
		return TLC_RULE_BAD_ARGS;
	return tlc_host__int_list_arg(out, want, op, &host_table, i, name, dflt);
}

static int64_t host_dim(const tlc_tensor *t, int64_t d) { return t ? tlc_host__dim(t, d) : -1; }

static int host_numel(int64_t *out, const tlc_tensor *t)
{
	if (!out || !t)
		return TLC_RULE_BAD_ARGS;
	return tlc_host__numel(out, t);
}

static int host_broadcast(int64_t *out, size_t *nout, const int64_t *a, size_t na,
                          const int64_t *b, size_t nb)
{
	if (!out || !nout || (na && !a) || (nb && !b))
		return TLC_RULE_BAD_ARGS;
	return tlc_host__broadcast(out, nout, a, na, b, nb);
}

/* out->field += a byte sum of the record's summary (exact past int64). */
static int add_io_sum(tlc_cost *out, tlc_cost_field field, int64_t v, int unknown)
{
	out->bytes_unknown |= unknown;
	tlc_count *c = &out->f[field];
	int64_t sum;
	if (!c->big && !__builtin_add_overflow(c->small, v, &sum))
		c->small = sum;
	else
		tlc_count__add_i64(c, v);
	return 0;
}

/* bytes_read of every tensor among the positional args and kwargs (lists
 * included), except the kwarg "out" (written, not read), with the table's
 * own byte helpers called directly. */
static int read_inputs_walk(tlc_cost *out, const tlc_op *op)
{
	for (size_t i = 0; i < op->nargs; i++) {
		const tlc_value *v = &op->args[i];
		int rc = v->kind == TLC_VALUE_TENSOR ? add_tensor_bytes(out, TLC_FIELD_BYTES_READ,
		                                                        &v->u.tensor) :
		         v->kind == TLC_VALUE_LIST ? list_bytes(out, TLC_FIELD_BYTES_READ, v) : 0;
		if (rc < 0)
			return rc;
	}
	for (size_t i = 0; i < op->nkwargs; i++) {
		if (op->kwargs[i].name && strcmp(op->kwargs[i].name, "out") == 0)
			continue;
		int rc = host_cost_add_bytes(out, TLC_FIELD_BYTES_READ, &op->kwargs[i].value);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int host_read_inputs(tlc_cost *out, const tlc_op *op)
{
	if (!out || !op)
		return TLC_RULE_BAD_ARGS;
	if (out->io.op == op && out->io.read_ok)
		return add_io_sum(out, TLC_FIELD_BYTES_READ, out->io.read, out->io.read_unknown);
	return read_inputs_walk(out, op);
}

static int host_write_outputs(tlc_cost *out, const tlc_op *op, const tlc_value *fallback)
{
	if (!out || !op)
		return TLC_RULE_BAD_ARGS;
	if (out->io.op == op && out->io.written_ok && (op->flags & TLC_OP_HAS_OUTPUTS) &&
	    op->noutputs > 0)
		return add_io_sum(out, TLC_FIELD_BYTES_WRITTEN, out->io.written,
		                  out->io.written_unknown);
	return tlc_host__write_outputs(out, op, &host_table, fallback);
}

static int host_matmul_shape(tlc_matmul_shape *g, const tlc_tensor *a, const tlc_tensor *b)
{
	/* a plugin built against an older, shorter struct cannot be filled */
	if (!g || g->size < sizeof *g)
		return TLC_RULE_BAD_ARGS;
	return tlc_host__matmul_shape(g, a, b);
}

static int host_conv_out_size(int64_t *out, int64_t in, int64_t k, int64_t s, int64_t p,
                              int64_t d, int64_t op, int transposed)
{
	if (!out)
		return TLC_RULE_BAD_ARGS;
	return tlc_host__conv_out_size(out, in, k, s, p, d, op, transposed);
}

static const tlc_host host_table = {
	TLC_PLUGIN_ABI_VERSION,
	sizeof(tlc_host),
	tlc_engine__register_cb,
	host_cost_add,
	host_cost_add_numel,
	host_cost_add_bytes,
	host_set_evidence,
	host_explain,
	host_split_unknown,
	host_op_kwarg,
	host_cost_add_comm,
	host_arg,
	host_tensor_arg,
	host_output,
	host_int_arg_or,
	host_int_list_arg,
	host_dim,
	host_numel,
	host_broadcast,
	host_read_inputs,
	host_write_outputs,
	host_matmul_shape,
	host_conv_out_size,
	tlc_dtype__parse_torch,
	host_set_missing,
};

const tlc_host *tlc_host__table(void) { return &host_table; }

/* ---- public accessors ---- */

int tlc_cost_get_u64(uint64_t *out, const tlc_cost *c, tlc_cost_field f)
{
	if (!out || !c || !valid_field(f))
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass a cost and a field",
		                      "tlc_cost_get_u64: bad argument");
	if (tlc_count__get_u64(out, &c->f[f]) < 0)
		return tlc_error__set(TLC_EOVERFLOW, "value_exceeds_u64",
		                      "read the value with tlc_cost_get_str",
		                      "the exact value does not fit in 64 bits");
	return 0;
}

int tlc_cost_get_str(char **out, const tlc_cost *c, tlc_cost_field f)
{
	if (!out || !c || !valid_field(f))
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass a cost and a field",
		                      "tlc_cost_get_str: bad argument");
	*out = tlc_count__to_str(&c->f[f]);
	return *out ? 0 : tlc_error__oom();
}

double tlc_cost_get_double(const tlc_cost *c, tlc_cost_field f)
{
	return c && valid_field(f) ? tlc_count__to_double(&c->f[f]) : 0.0;
}

double tlc_cost_flops_double(const tlc_cost *c)
{
	if (!c)
		return 0.0;
	return 2.0 * tlc_count__to_double(&c->f[TLC_FIELD_MACS]) +
	       tlc_count__to_double(&c->f[TLC_FIELD_OTHER_FLOPS]);
}

int tlc_cost_bytes_unknown(const tlc_cost *c) { return c && c->bytes_unknown; }
int tlc_cost_split_unknown(const tlc_cost *c) { return c && c->split_unknown; }
tlc_evidence tlc_cost_evidence(const tlc_cost *c) { return c ? c->evidence : TLC_EVIDENCE_ESTIMATED; }
const char *tlc_cost_note(const tlc_cost *c) { return c && c->note && *c->note ? c->note : NULL; }
unsigned tlc_cost_missing(const tlc_cost *c) { return c ? c->missing : 0; }

void tlc_cost__drop_missing(tlc_cost *c)
{
	for (int i = 0; i < TLC_FIELD_COUNT; i++)
		if (c->missing & (1u << i))
			tlc_count__clear(&c->f[i]);
}
