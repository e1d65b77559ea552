/* The rule helpers behind the host table (host_help.h). Moved here from
 * rules/util.c (issue 24 item 4) so that the built-in families and outside
 * plugins reach the same code the same way, through the table. */
#include <string.h>
#include "tlcost/sys/rulehelp.h"
#include "host_help.h"

/* the external definitions of the inline accessors */
extern const tlc_value *tlc_host__arg(const tlc_op *op, const tlc_host *host, size_t i,
                                      const char *name);
extern const tlc_value *tlc_host__out(const tlc_op *op, size_t i);
extern const tlc_tensor *tlc_host__tensor_arg(const tlc_op *op, const tlc_host *host,
                                              size_t i, const char *name);

/* The default applies to an absent argument (i past the positional ones and
 * no kwarg) only when the caller may have omitted it (op logs); in an op
 * whose arguments a profiler observed nothing was omitted, so an absent one
 * was not recorded. A None that was recorded is the value None, whose
 * meaning the default spells. */
static int given_or_default(const tlc_op *op, const tlc_host *host, size_t i,
                            const char *name)
{
	if (op && i < op->nargs && op->args)
		return 0; /* recorded as None */
	if (i == (size_t)-1)
		return 0; /* keyword-only and not in the op's positional schema */
	if (name && host && host->op_kwarg(op, name))
		return 0;
	return op && (op->flags & TLC_OP_ARGS_OBSERVED) ? TLC_RULE_MISSING_ARGS : 0;
}

int tlc_host__int_arg_or(int64_t *out, const tlc_op *op, const tlc_host *host, size_t i,
                         const char *name, int64_t dflt)
{
	const tlc_value *v = tlc_host__arg(op, host, i, name);
	if (!v) {
		*out = dflt;
		return given_or_default(op, host, i, name);
	}
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

int tlc_host__int_list_arg(int64_t *out, size_t want, const tlc_op *op, const tlc_host *host,
                           size_t i, const char *name, int64_t dflt)
{
	int64_t tmp[TLC_HOST_MAX_DIMS];
	size_t n = 0;
	const tlc_value *v = tlc_host__arg(op, host, i, name);
	if (want == 0 || want > TLC_HOST_MAX_DIMS)
		return TLC_RULE_BAD_ARGS;
	if (!v) {
		for (size_t k = 0; k < want; k++)
			out[k] = dflt;
		return given_or_default(op, host, i, name);
	}
	int rc = tlc_rulehelp_int_list(tmp, TLC_HOST_MAX_DIMS, &n, v);
	if (rc < 0)
		return rc;
	if (n != 1 && n != want)
		return TLC_RULE_BAD_ARGS;
	for (size_t k = 0; k < want; k++)
		out[k] = tmp[n == 1 ? 0 : k];
	return 0;
}

int64_t tlc_host__dim(const tlc_tensor *t, int64_t d)
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

int tlc_host__numel(int64_t *out, const tlc_tensor *t)
{
	return tlc_rulehelp_numel_range(out, t, 0, t->ndim);
}

int tlc_host__broadcast(int64_t *out, size_t *nout, const int64_t *a, size_t na,
                        const int64_t *b, size_t nb)
{
	size_t n = na > nb ? na : nb;
	if (n > TLC_HOST_MAX_DIMS)
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

int tlc_host__write_outputs(tlc_cost *out, const tlc_op *op, const tlc_host *host,
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

int tlc_host__matmul_shape(tlc_matmul_shape *g, const tlc_tensor *a, const tlc_tensor *b)
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
	int rc = tlc_host__broadcast(g->batch, &g->nbatch, a->shape, an, b->shape, bn);
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

int tlc_host__conv_out_size(int64_t *o, int64_t in, int64_t k, int64_t s, int64_t p,
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
