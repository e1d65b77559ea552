/* Helpers shared by the built-in rule families: argument access, shapes,
 * exact products and read-once/write-once bytes. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "util.h"
#include "helpers.h"

/* ---- registration ---------------------------------------------------- */

int tlc_rules__register_table(tlc_plugin_ctx *ctx, const tlc_host *host,
                              const tlc_rules_entry *tab, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		tlc_rule_def def;
		memset(&def, 0, sizeof def);
		def.size = sizeof def;
		def.name = tab[i].name;
		def.kind = tab[i].kind;
		def.evidence = tab[i].evidence;
		def.fn = tab[i].fn;
		/* the plugin ABI's payload is void *; rules only read through it */
		def.payload = (void *)(uintptr_t)tab[i].payload;
		def.note = tab[i].note;
		int rc = host->register_rule(ctx, &def);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* ---- argument access ------------------------------------------------- */

/* the external definitions of the inline accessors (util.h, helpers.h) */
extern const tlc_value *tlc_rules__arg(const tlc_op *op, const tlc_host *host, size_t i,
                                       const char *name);
extern const tlc_value *tlc_rules__out(const tlc_op *op, size_t i);
extern const tlc_tensor *tlc_rules__tensor(const tlc_value *v);
extern const tlc_tensor *tlc_rules__tensor_arg(const tlc_op *op, const tlc_host *host,
                                               size_t i, const char *name);
extern const tlc_tensor *tlc_rules__tensor_out(const tlc_op *op, size_t i);
extern int tlc_rules__observed(const tlc_op *op);
extern int tlc_rules__unrecorded(const tlc_value *v);

/* An argument the caller could have omitted (op logs) takes its schema
 * default; in an op whose arguments a profiler observed nothing was omitted,
 * so an absent one was not recorded. */
static int absent_or_default(const tlc_op *op)
{
	return op && (op->flags & TLC_OP_ARGS_OBSERVED) ? TLC_RULE_MISSING_ARGS : 0;
}

/* The default applies to an absent argument (i past the positional ones and
 * no kwarg) only when the caller may have omitted it; a None that was
 * recorded is the value None, whose meaning the default spells. */
static int given_or_default(const tlc_op *op, const tlc_host *host, size_t i,
                            const char *name)
{
	if (op && i < op->nargs && op->args)
		return 0; /* recorded as None */
	if (i == (size_t)-1)
		return 0; /* keyword-only and not in the op's positional schema */
	if (name && host && host->op_kwarg(op, name))
		return 0;
	return absent_or_default(op);
}

int tlc_rules__given(int *out, const tlc_op *op, const tlc_host *host, size_t i,
                     const char *name)
{
	const tlc_value *v = tlc_rules__arg(op, host, i, name);
	*out = v != NULL;
	if (v && v->kind == TLC_VALUE_UNRECORDED)
		return TLC_RULE_MISSING_ARGS;
	return v ? 0 : given_or_default(op, host, i, name);
}

static int value_int(int64_t *out, const tlc_value *v)
{
	if (v->kind == TLC_VALUE_UNRECORDED)
		return TLC_RULE_MISSING_ARGS;
	if (v->kind == TLC_VALUE_INT) {
		*out = v->u.integer;
		return 0;
	}
	if (v->kind == TLC_VALUE_LIST && v->u.list.n == 1 &&
	    v->u.list.items[0].kind == TLC_VALUE_INT) {
		*out = v->u.list.items[0].u.integer;
		return 0;
	}
	return TLC_RULE_BAD_ARGS;
}

int tlc_rules__int_arg(int64_t *out, const tlc_op *op, const tlc_host *host, size_t i,
                       const char *name)
{
	const tlc_value *v = tlc_rules__arg(op, host, i, name);
	if (!v)
		return TLC_RULE_MISSING_ARGS;
	return value_int(out, v);
}

int tlc_rules__int_arg_or(int64_t *out, const tlc_op *op, const tlc_host *host,
                          size_t i, const char *name, int64_t dflt)
{
	const tlc_value *v = tlc_rules__arg(op, host, i, name);
	if (!v) {
		*out = dflt;
		return given_or_default(op, host, i, name);
	}
	return value_int(out, v);
}

int tlc_rules__bool_arg_or(int *out, const tlc_op *op, const tlc_host *host, size_t i,
                           const char *name, int dflt)
{
	const tlc_value *v = tlc_rules__arg(op, host, i, name);
	if (!v) {
		*out = dflt;
		return given_or_default(op, host, i, name);
	}
	if (v->kind == TLC_VALUE_UNRECORDED)
		return TLC_RULE_MISSING_ARGS;
	if (v->kind == TLC_VALUE_BOOL) {
		*out = v->u.boolean != 0;
		return 0;
	}
	if (v->kind == TLC_VALUE_INT && (v->u.integer == 0 || v->u.integer == 1)) {
		*out = (int)v->u.integer;
		return 0;
	}
	return TLC_RULE_BAD_ARGS;
}

int tlc_rules__real_arg_or(double *out, const tlc_op *op, const tlc_host *host,
                           size_t i, const char *name, double dflt)
{
	const tlc_value *v = tlc_rules__arg(op, host, i, name);
	if (!v) {
		*out = dflt;
		return given_or_default(op, host, i, name);
	}
	switch (v->kind) {
	case TLC_VALUE_UNRECORDED: return TLC_RULE_MISSING_ARGS;
	case TLC_VALUE_INT: *out = (double)v->u.integer; return 0;
	case TLC_VALUE_FLOAT: *out = v->u.real; return 0;
	case TLC_VALUE_BOOL: *out = v->u.boolean ? 1.0 : 0.0; return 0;
	case TLC_VALUE_STRING:
		/* non-finite floats are written as strings; only their nonzeroness matters */
		if (strcmp(v->u.string, "inf") == 0 || strcmp(v->u.string, "-inf") == 0 ||
		    strcmp(v->u.string, "nan") == 0) {
			*out = 1.0;
			return 0;
		}
		return TLC_RULE_BAD_ARGS;
	default: return TLC_RULE_BAD_ARGS;
	}
}

const char *tlc_rules__string_arg_or(const tlc_op *op, const tlc_host *host, size_t i,
                                     const char *name, const char *dflt)
{
	const char *s = NULL;
	return tlc_rules__string_arg(&s, op, host, i, name, dflt) == 0 ? s : NULL;
}

int tlc_rules__string_arg(const char **out, const tlc_op *op, const tlc_host *host,
                          size_t i, const char *name, const char *dflt)
{
	const tlc_value *v = tlc_rules__arg(op, host, i, name);
	*out = NULL;
	/* no trace records a string: an observed None may be one */
	if (tlc_rules__observed(op) && (!v || v->kind == TLC_VALUE_UNRECORDED))
		return TLC_RULE_MISSING_ARGS;
	if (!v) {
		*out = dflt;
		return 0;
	}
	if (v->kind == TLC_VALUE_UNRECORDED)
		return TLC_RULE_MISSING_ARGS;
	if (v->kind != TLC_VALUE_STRING)
		return TLC_RULE_BAD_ARGS;
	*out = v->u.string;
	return 0;
}

int tlc_rules__int_list(int64_t *out, size_t cap, size_t *n, const tlc_value *v)
{
	*n = 0;
	if (!v || v->kind == TLC_VALUE_UNRECORDED)
		return TLC_RULE_MISSING_ARGS;
	if (v->kind == TLC_VALUE_INT) {
		if (cap < 1)
			return TLC_RULE_BAD_ARGS;
		out[0] = v->u.integer;
		*n = 1;
		return 0;
	}
	if (v->kind != TLC_VALUE_LIST || v->u.list.n > cap)
		return TLC_RULE_BAD_ARGS;
	for (size_t i = 0; i < v->u.list.n; i++) {
		if (v->u.list.items[i].kind != TLC_VALUE_INT)
			return TLC_RULE_BAD_ARGS;
		out[i] = v->u.list.items[i].u.integer;
	}
	*n = v->u.list.n;
	return 0;
}

int tlc_rules__int_list_arg(int64_t *out, size_t want, const tlc_op *op,
                            const tlc_host *host, size_t i, const char *name,
                            int64_t dflt)
{
	int64_t tmp[TLC_RULES_MAX_DIMS];
	size_t n = 0;
	const tlc_value *v = tlc_rules__arg(op, host, i, name);
	if (want == 0 || want > TLC_RULES_MAX_DIMS)
		return TLC_RULE_BAD_ARGS;
	if (!v) {
		for (size_t k = 0; k < want; k++)
			out[k] = dflt;
		return given_or_default(op, host, i, name);
	}
	int rc = tlc_rules__int_list(tmp, TLC_RULES_MAX_DIMS, &n, v);
	if (rc < 0)
		return rc;
	if (n != 1 && n != want)
		return TLC_RULE_BAD_ARGS;
	for (size_t k = 0; k < want; k++)
		out[k] = tmp[n == 1 ? 0 : k];
	return 0;
}

int tlc_rules__bool_list_arg(int *out, size_t cap, size_t *n, const tlc_op *op,
                             const tlc_host *host, size_t i, const char *name)
{
	const tlc_value *v = tlc_rules__arg(op, host, i, name);
	*n = 0;
	if (!v || v->kind == TLC_VALUE_UNRECORDED)
		return TLC_RULE_MISSING_ARGS;
	if (v->kind != TLC_VALUE_LIST || v->u.list.n > cap)
		return TLC_RULE_BAD_ARGS;
	for (size_t k = 0; k < v->u.list.n; k++) {
		const tlc_value *e = &v->u.list.items[k];
		if (e->kind == TLC_VALUE_BOOL)
			out[k] = e->u.boolean != 0;
		else if (e->kind == TLC_VALUE_INT && (e->u.integer == 0 || e->u.integer == 1))
			out[k] = (int)e->u.integer;
		else
			return TLC_RULE_BAD_ARGS;
	}
	*n = v->u.list.n;
	return 0;
}

/* ---- shapes ---------------------------------------------------------- */

int64_t tlc_rules__dim(const tlc_tensor *t, int64_t d)
{
	if (!t)
		return -1;
	int64_t nd = (int64_t)t->ndim;
	if (d < 0)
		d += nd;
	if (d < 0 || d >= nd)
		return -1;
	return t->shape[d];
}

int tlc_rules__numel_range(int64_t *out, const tlc_tensor *t, size_t from, size_t to)
{
	int64_t p = 1;
	if (to > t->ndim)
		to = t->ndim;
	for (size_t i = from; i < to; i++) {
		if (t->shape[i] < 0)
			return TLC_RULE_BAD_ARGS;
		if (t->shape[i] != 0 && p > INT64_MAX / t->shape[i])
			return TLC_RULE_BAD_ARGS;
		p *= t->shape[i];
	}
	*out = p;
	return 0;
}

int tlc_rules__broadcast(int64_t *out, size_t *nout, const int64_t *a, size_t na,
                         const int64_t *b, size_t nb)
{
	size_t n = na > nb ? na : nb;
	if (n > TLC_RULES_MAX_DIMS)
		return TLC_RULE_BAD_ARGS;
	for (size_t k = 0; k < n; k++) {
		/* align from the right */
		int64_t x = k < n - na ? 1 : a[k - (n - na)];
		int64_t y = k < n - nb ? 1 : b[k - (n - nb)];
		if (x == y || y == 1)
			out[k] = x;
		else if (x == 1)
			out[k] = y;
		else
			return TLC_RULE_BAD_ARGS;
	}
	*nout = n;
	return 0;
}

int tlc_rules__broadcast_values(int64_t *out, size_t *nout, const tlc_value *const *vals,
                                size_t n)
{
	int64_t acc[TLC_RULES_MAX_DIMS];
	size_t nacc = 0;
	for (size_t i = 0; i < n; i++) {
		const tlc_tensor *t = tlc_rules__tensor(vals[i]);
		if (!t)
			continue;
		int rc = tlc_rules__broadcast(out, nout, acc, nacc, t->shape, t->ndim);
		if (rc < 0)
			return rc;
		memcpy(acc, out, *nout * sizeof acc[0]);
		nacc = *nout;
	}
	memcpy(out, acc, nacc * sizeof acc[0]);
	*nout = nacc;
	return 0;
}

/* ---- exact products -------------------------------------------------- */

/* the external definitions of the inline term helpers in util.h */
extern void tlc_rules__term_init(tlc_rules_term *t);
extern void tlc_rules__term_mul(tlc_rules_term *t, int64_t x);
extern void tlc_rules__term_mul_dims(tlc_rules_term *t, const tlc_tensor *x, size_t from,
                                     size_t to);
extern void tlc_rules__term_mul_numel(tlc_rules_term *t, const tlc_tensor *x);
extern void tlc_rules__term_mul_shape(tlc_rules_term *t, const int64_t *shape, size_t n);
extern int tlc_rules__term_add(tlc_cost *out, const tlc_host *host, tlc_cost_field field,
                               int64_t coeff, const tlc_rules_term *t);

/* ---- bytes ------------------------------------------------------------ */

int tlc_rules__is_inplace(const tlc_op *op)
{
	size_t len = op->name ? strlen(op->name) : 0;
	if (len > 0 && op->name[len - 1] == '_')
		return 1;
	if (!op->overload)
		return 0;
	/* "out", "Tensor_out", "IntList_out", ...: but not "output_mask" */
	size_t ol = strlen(op->overload);
	return strcmp(op->overload, "out") == 0 ||
	       (ol > 4 && strcmp(op->overload + ol - 4, "_out") == 0);
}

int tlc_rules__read_value(tlc_cost *out, const tlc_host *host, const tlc_value *v)
{
	return host->cost_add_bytes(out, TLC_FIELD_BYTES_READ, v);
}

int tlc_rules__read_inputs(tlc_cost *out, const tlc_op *op, const tlc_host *host)
{
	for (size_t i = 0; i < op->nargs; i++) {
		/* the host counts tensors (and lists of them) only: scalars,
		 * strings and None need no call */
		if (op->args[i].kind != TLC_VALUE_TENSOR && op->args[i].kind != TLC_VALUE_LIST)
			continue;
		int rc = host->cost_add_bytes(out, TLC_FIELD_BYTES_READ, &op->args[i]);
		if (rc < 0)
			return rc;
	}
	for (size_t i = 0; i < op->nkwargs; i++) {
		if (op->kwargs[i].name && strcmp(op->kwargs[i].name, "out") == 0)
			continue;
		int rc = host->cost_add_bytes(out, TLC_FIELD_BYTES_READ, &op->kwargs[i].value);
		if (rc < 0)
			return rc;
	}
	return 0;
}

int tlc_rules__write_outputs(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                             const tlc_value *fallback)
{
	if ((op->flags & TLC_OP_HAS_OUTPUTS) && op->noutputs > 0) {
		for (size_t i = 0; i < op->noutputs; i++) {
			int rc = host->cost_add_bytes(out, TLC_FIELD_BYTES_WRITTEN, &op->outputs[i]);
			if (rc < 0)
				return rc;
		}
		return 0;
	}
	if (!fallback)
		return TLC_RULE_MISSING_ARGS;
	return host->cost_add_bytes(out, TLC_FIELD_BYTES_WRITTEN, fallback);
}

int tlc_rules__write_shape(tlc_cost *out, const tlc_host *host, const int64_t *shape,
                           size_t n, tlc_dtype dtype)
{
	tlc_value v;
	memset(&v, 0, sizeof v);
	v.kind = TLC_VALUE_TENSOR;
	v.u.tensor.ndim = n;
	v.u.tensor.shape = shape;
	v.u.tensor.dtype = dtype;
	return host->cost_add_bytes(out, TLC_FIELD_BYTES_WRITTEN, &v);
}

int tlc_rules__arg_fail(tlc_cost *out, const tlc_host *host, const tlc_op *op, int rc,
                        const char *what, const char *bad_msg)
{
	if (rc >= 0)
		return rc;
	if (rc == TLC_RULE_MISSING_ARGS)
		return tlc_rules__missing_arg(out, host, op, what);
	return tlc_rules__bad(out, host, "%s", bad_msg);
}

int tlc_rules__bytes_unknown(tlc_cost *out, const tlc_host *host, tlc_cost_field field)
{
	/* the host marks bytes unknown for a tensor whose element size is unknown */
	static const int64_t one[1] = { 1 };
	tlc_value v;
	memset(&v, 0, sizeof v);
	v.kind = TLC_VALUE_TENSOR;
	v.u.tensor.ndim = 1;
	v.u.tensor.shape = one;
	v.u.tensor.dtype = TLC_DTYPE_NONE;
	return host->cost_add_bytes(out, field, &v);
}

int tlc_rules__io_bytes(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                        const tlc_value *fallback)
{
	/* through the table: the host adds the sums it made while checking
	 * the record instead of walking its values again */
	int rc = host->read_inputs(out, op);
	if (rc < 0)
		return rc;
	return host->write_outputs(out, op, fallback);
}

/* ---- explanations ---------------------------------------------------- */

int tlc_rules__missing_arg(tlc_cost *out, const tlc_host *host, const tlc_op *op,
                           const char *what)
{
	if (tlc_rules__observed(op))
		return tlc_rules__missing(out, host, "%s not recorded by the trace (a schema "
		                          "default is never assumed)", what);
	return tlc_rules__missing(out, host, "missing %s", what);
}

static void explain_v(tlc_cost *out, const tlc_host *host, const char *fmt, va_list ap)
{
	char buf[320];
	vsnprintf(buf, sizeof buf, fmt, ap);
	host->cost_explain(out, buf);
}

int tlc_rules__missing(tlc_cost *out, const tlc_host *host, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	explain_v(out, host, fmt, ap);
	va_end(ap);
	return TLC_RULE_MISSING_ARGS;
}

int tlc_rules__bad(tlc_cost *out, const tlc_host *host, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	explain_v(out, host, fmt, ap);
	va_end(ap);
	return TLC_RULE_BAD_ARGS;
}

int tlc_rules__need(tlc_cost *out, const tlc_host *host, int rc, const char *what)
{
	if (rc >= 0)
		return 0;
	if (rc == TLC_RULE_MISSING_ARGS)
		return tlc_rules__missing(out, host, "missing %s", what);
	return tlc_rules__bad(out, host, "bad %s", what);
}

/* ---- element types ---------------------------------------------------- */

tlc_dtype tlc_rules__dtype_code(int64_t code)
{
	/* c10/core/ScalarType.h, AT_FORALL_SCALAR_TYPES_WITH_COMPLEX_AND_QINTS order */
	static const tlc_dtype codes[] = {
		TLC_DTYPE_UINT8, TLC_DTYPE_INT8, TLC_DTYPE_INT16, TLC_DTYPE_INT32,
		TLC_DTYPE_INT64, TLC_DTYPE_FLOAT16, TLC_DTYPE_FLOAT32, TLC_DTYPE_FLOAT64,
		TLC_DTYPE_OTHER /* ComplexHalf */, TLC_DTYPE_COMPLEX64, TLC_DTYPE_COMPLEX128,
		TLC_DTYPE_BOOL, TLC_DTYPE_OTHER, TLC_DTYPE_OTHER, TLC_DTYPE_OTHER /* qint8..qint32 */,
		TLC_DTYPE_BFLOAT16, TLC_DTYPE_OTHER, TLC_DTYPE_OTHER, TLC_DTYPE_OTHER, TLC_DTYPE_OTHER,
		TLC_DTYPE_OTHER, TLC_DTYPE_OTHER, TLC_DTYPE_OTHER, /* quint4x2 .. bits16 */
		TLC_DTYPE_FLOAT8_E5M2, TLC_DTYPE_FLOAT8_E4M3FN,
	};
	if (code < 0 || (uint64_t)code >= sizeof codes / sizeof codes[0])
		return TLC_DTYPE_OTHER;
	return codes[code];
}

/* ---- shape helpers shared with outside plugins ------------------------- */

int tlc_rules__matmul_shape(tlc_matmul_shape *g, const tlc_tensor *a, const tlc_tensor *b)
{
	if (!g || !a || !b || a->ndim < 1 || b->ndim < 1)
		return TLC_RULE_BAD_ARGS;
	size_t an = a->ndim >= 2 ? a->ndim - 2 : 0, bn = b->ndim >= 2 ? b->ndim - 2 : 0;
	g->m = a->ndim >= 2 ? a->shape[a->ndim - 2] : 1;
	g->k = a->shape[a->ndim - 1];
	int64_t kb = b->ndim >= 2 ? b->shape[b->ndim - 2] : b->shape[0];
	g->n = b->ndim >= 2 ? b->shape[b->ndim - 1] : 1;
	if (kb != g->k)
		return TLC_RULE_BAD_ARGS;
	int rc = tlc_rules__broadcast(g->batch, &g->nbatch, a->shape, an, b->shape, bn);
	if (rc < 0 || g->nbatch + 2 > TLC_HOST_MAX_DIMS)
		return TLC_RULE_BAD_ARGS;
	memcpy(g->out, g->batch, g->nbatch * sizeof g->batch[0]);
	g->nout = g->nbatch;
	if (a->ndim >= 2)
		g->out[g->nout++] = g->m;
	if (b->ndim >= 2)
		g->out[g->nout++] = g->n;
	return 0;
}

int tlc_rules__conv_out_size(int64_t *o, int64_t in, int64_t k, int64_t s, int64_t p,
                             int64_t d, int64_t op, int transposed)
{
	int64_t span, twop, t;
	if (s < 1 || k < 1 || __builtin_mul_overflow(d, k - 1, &span) ||
	    __builtin_mul_overflow(p, 2, &twop))
		return TLC_RULE_BAD_ARGS;
	if (transposed) {
		if (in < 1 || __builtin_mul_overflow(in - 1, s, &t) ||
		    __builtin_sub_overflow(t, twop, &t) || __builtin_add_overflow(t, span, &t) ||
		    __builtin_add_overflow(t, op, &t) || __builtin_add_overflow(t, 1, &t) || t < 0)
			return TLC_RULE_BAD_ARGS;
		*o = t;
		return 0;
	}
	if (__builtin_add_overflow(in, twop, &t) || t - 1 < span)
		return TLC_RULE_BAD_ARGS;
	*o = (t - span - 1) / s + 1;
	return 0;
}
