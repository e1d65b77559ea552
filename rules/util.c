/* Helpers shared by the built-in rule families: argument access, shapes,
 * exact products and read-once/write-once bytes. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "tlcost/sys/rulehelp.h"
#include "util.h"

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

/* the external definitions of the inline accessors (util.h) */
extern const tlc_tensor *tlc_rules__tensor(const tlc_value *v);
extern const tlc_tensor *tlc_rules__tensor_out(const tlc_op *op, size_t i);
extern int tlc_rules__observed(const tlc_op *op);
extern int tlc_rules__unrecorded(const tlc_value *v);

/* Whether an absent argument takes its default: when the caller may have
 * omitted it (op logs), not when a profiler observed the op's arguments
 * (then it was not recorded); a recorded None is the value None, whose
 * meaning the default spells. The host decides it, once for every getter:
 * its int_arg_or of an absent argument returns exactly that answer. */
static int given_or_default(const tlc_op *op, const tlc_host *host, size_t i,
                            const char *name)
{
	int64_t ignored;
	if (!op)
		return 0;
	return host->int_arg_or(&ignored, op, i, name, 0);
}

int tlc_rules__given(int *out, const tlc_op *op, const tlc_host *host, size_t i,
                     const char *name)
{
	const tlc_value *v = host->arg(op, i, name);
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
	const tlc_value *v = host->arg(op, i, name);
	if (!v)
		return TLC_RULE_MISSING_ARGS;
	return value_int(out, v);
}

int tlc_rules__bool_arg_or(int *out, const tlc_op *op, const tlc_host *host, size_t i,
                           const char *name, int dflt)
{
	const tlc_value *v = host->arg(op, i, name);
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
	const tlc_value *v = host->arg(op, i, name);
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
	const tlc_value *v = host->arg(op, i, name);
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
	return tlc_rulehelp_int_list(out, cap, n, v);
}

int tlc_rules__bool_list_arg(int *out, size_t cap, size_t *n, const tlc_op *op,
                             const tlc_host *host, size_t i, const char *name)
{
	const tlc_value *v = host->arg(op, i, name);
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

int tlc_rules__numel_range(int64_t *out, const tlc_tensor *t, size_t from, size_t to)
{
	return tlc_rulehelp_numel_range(out, t, from, to);
}

int tlc_rules__broadcast_values(int64_t *out, size_t *nout, const tlc_host *host,
                                const tlc_value *const *vals, size_t n)
{
	int64_t acc[TLC_RULES_MAX_DIMS];
	size_t nacc = 0;
	for (size_t i = 0; i < n; i++) {
		const tlc_tensor *t = tlc_rules__tensor(vals[i]);
		if (!t)
			continue;
		int rc = host->broadcast(out, nout, acc, nacc, t->shape, t->ndim);
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
