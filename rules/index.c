/* Indexing rules: gathers, scatters, masked ops, nonzero, sort/topk, repeat.
 *
 * Gathers (index.Tensor, index_select, gather, take) do no arithmetic (a
 * known 0) and read the indices plus the gathered elements only (one per
 * output element, in self's dtype), not the whole source. Everything else
 * reads every input once and writes its result once (in-place: self once).
 *
 * Registered names (other_flops):
 *   index (.Tensor) index_select gather take                 0
 *   scatter scatter_ (.src .value)                         0; with reduce: numel(index)
 *   scatter_add scatter_add_                               numel(index)
 *   scatter_reduce scatter_reduce_ (.two)                  numel(index) (+ numel(self) for mean)
 *   index_add index_add_                                   numel(source) (x2 when alpha != 1)
 *   index_put index_put_ _index_put_impl_                  0; accumulate: indexed elements
 *   index_copy index_copy_                                 0
 *   masked_fill masked_fill_ masked_scatter masked_scatter_ numel(out) selects
 *   masked_select                                          numel(broadcast(self, mask)) compares
 *   nonzero                                                numel(self) compares
 *   sort argsort (.stable) msort                           n*ceil(log2 n) per slice (estimated)
 *   topk                                                   n*ceil(log2(k+1)) per slice (estimated)
 *   repeat repeat_interleave (.self_int .self_Tensor .Tensor)   0
 *   index_fill index_fill_                                 0
 *   index_reduce index_reduce_                             numel(source) (+ numel(self) for mean)
 *   put put_                                               0; accumulate: numel(index)
 *   argwhere                                               numel(self) compares
 *   searchsorted bucketize                                 ceil(log2(n+1)) per value (estimated)
 */
#include <string.h>
#include "rules.h"
#include "util.h"

#define EX TLC_EVIDENCE_FORMULA_EXACT
#define ES TLC_EVIDENCE_ESTIMATED

/* ---- shared pieces --------------------------------------------------- */

static int unknown_bytes(tlc_cost *out, const tlc_host *host)
{
	return tlc_rules__write_shape(out, host, NULL, 0, TLC_DTYPE_NONE);
}

/* Reads every input; writes the outputs, else `fallback` (e.g. self: the
 * result has self's shape and dtype), else marks the bytes unknown. */
static int io_bytes(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                    const tlc_value *fallback)
{
	int rc = tlc_rules__io_bytes(out, op, host, fallback);
	if (rc == TLC_RULE_MISSING_ARGS)
		return unknown_bytes(out, host);
	return tlc_rules__need(out, host, rc, "tensors");
}

/* The tensor named name at pos, with out->note set when absent. */
static const tlc_tensor *need_tensor(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                                     size_t pos, const char *name)
{
	const tlc_tensor *t = host->tensor_arg(op, pos, name);
	if (!t)
		tlc_rules__missing(out, host, "missing %s tensor", name);
	return t;
}

/* other_flops += k * numel(t). */
static int add_numel(tlc_cost *out, const tlc_host *host, int64_t k, const tlc_tensor *t)
{
	if (k == 0)
		return 0;
	return host->cost_add_numel(out, TLC_FIELD_OTHER_FLOPS, k, t) < 0
	       ? tlc_rules__bad(out, host, "bad shape") : 0;
}

/* ---- gathers ---------------------------------------------------------- */

/* bytes_read += the index tensors of `idx` (tensor or list) + `gathered`
 * elements of self's dtype; write the gathered result. */
static int gather_bytes(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                        const tlc_value *idx, const tlc_tensor *self,
                        const int64_t *shape, size_t n)
{
	tlc_value g;
	memset(&g, 0, sizeof g);
	g.kind = TLC_VALUE_TENSOR;
	g.u.tensor.ndim = n;
	g.u.tensor.shape = shape;
	g.u.tensor.dtype = self->dtype;
	int rc = tlc_rules__read_value(out, host, idx);
	if (rc == 0)
		rc = host->cost_add_bytes(out, TLC_FIELD_BYTES_READ, &g);
	if (rc == 0 && (op->flags & TLC_OP_HAS_OUTPUTS) && op->noutputs > 0)
		rc = host->write_outputs(out, op, NULL);
	else if (rc == 0)
		rc = host->cost_add_bytes(out, TLC_FIELD_BYTES_WRITTEN, &g);
	return tlc_rules__need(out, host, rc, "tensors");
}

/* index.Tensor(self, indices): the gathered shape is the recorded output's. */
static int ix_index(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)payload;
	const tlc_tensor *self = need_tensor(out, op, host, 0, "self");
	const tlc_value *idx = host->arg(op, 1, "indices");
	if (!self)
		return TLC_RULE_MISSING_ARGS;
	host->cost_explain(out, "gather: no arithmetic");
	const tlc_tensor *r = tlc_rules__tensor_out(op, 0);
	if (!r) { /* shape depends on masks and broadcasting: bytes unknown */
		int rc = tlc_rules__read_value(out, host, idx);
		return rc < 0 ? tlc_rules__need(out, host, rc, "indices") : unknown_bytes(out, host);
	}
	return gather_bytes(out, op, host, idx, self, r->shape, r->ndim);
}

/* index_select(self, dim, index): self's shape with dim resized to numel(index). */
static int ix_select(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)payload;
	const tlc_tensor *self = need_tensor(out, op, host, 0, "self");
	const tlc_value *iv = host->arg(op, 2, "index");
	const tlc_tensor *idx = tlc_rules__tensor(iv);
	int64_t dim = 0, n = 0, shape[TLC_RULES_MAX_DIMS];
	if (!self || !idx)
		return tlc_rules__missing(out, host, "missing self or index tensor");
	int rc = tlc_rules__int_arg(&dim, op, host, 1, "dim");
	if (rc < 0)
		return tlc_rules__arg_fail(out, host, op, rc, "dim", "bad dim or index");
	if (self->ndim > TLC_RULES_MAX_DIMS || tlc_rules__numel_range(&n, idx, 0, idx->ndim) < 0)
		return tlc_rules__bad(out, host, "bad dim or index");
	size_t nd = self->ndim;
	memcpy(shape, self->shape, nd * sizeof shape[0]);
	if (nd > 0) {
		if (host->dim(self, dim) < 0)
			return tlc_rules__bad(out, host, "dim out of range");
		shape[dim < 0 ? dim + (int64_t)nd : dim] = n;
	} else {
		shape[0] = n;
		nd = n == 1 ? 0 : 1;
	}
	host->cost_explain(out, "gather: no arithmetic");
	return gather_bytes(out, op, host, iv, self, shape, nd);
}

/* gather(self, dim, index) / take(self, index): the result has index's shape. */
static int ix_gather(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	size_t pos = *(const size_t *)payload;
	const tlc_tensor *self = need_tensor(out, op, host, 0, "self");
	const tlc_value *iv = host->arg(op, pos, "index");
	const tlc_tensor *idx = tlc_rules__tensor(iv);
	if (!self || !idx)
		return tlc_rules__missing(out, host, "missing self or index tensor");
	host->cost_explain(out, "gather: no arithmetic");
	return gather_bytes(out, op, host, iv, self, idx->shape, idx->ndim);
}

/* ---- scatters --------------------------------------------------------- */

/* Whether a reduce string (arg pos) is one that does arithmetic; *mean set
 * for "mean". A missing reduce is a plain overwrite. */
static int reduce_kind(int *arith, int *mean, const tlc_op *op, const tlc_host *host,
                       size_t pos)
{
	const char *r = NULL;
	*arith = 0;
	*mean = 0;
	if (pos >= op->nargs && tlc_rules__observed(op) && !host->op_kwarg(op, "reduce"))
		return 0; /* an overload without reduce (scatter.src): a trace lists every argument */
	int rc = tlc_rules__string_arg(&r, op, host, pos, "reduce", NULL);
	if (rc < 0)
		return rc;
	if (!r)
		return 0;
	if (!strcmp(r, "add") || !strcmp(r, "sum") || !strcmp(r, "multiply") ||
	    !strcmp(r, "prod") || !strcmp(r, "amax") || !strcmp(r, "amin"))
		*arith = 1;
	else if (!strcmp(r, "mean"))
		*arith = *mean = 1;
	else
		return TLC_RULE_BAD_ARGS;
	return 0;
}

/* scatter(self, dim, index, src|value[, reduce]), scatter_add(self, dim, index, src),
 * scatter_reduce(self, dim, index, src, reduce, include_self). payload: 1 when
 * the op always reduces (scatter_add), 0 when a reduce arg decides. */
static int ix_scatter(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	int always = *(const int *)payload;
	const tlc_value *self = host->arg(op, 0, "self");
	const tlc_tensor *idx = need_tensor(out, op, host, 2, "index");
	int arith = always, mean = 0;
	if (!tlc_rules__tensor(self) || !idx)
		return tlc_rules__missing(out, host, "missing self or index tensor");
	int rc = always ? 0 : reduce_kind(&arith, &mean, op, host, 4);
	if (rc < 0)
		return tlc_rules__arg_fail(out, host, op, rc, "reduce", "unknown reduce");
	rc = add_numel(out, host, arith, idx);
	if (rc == 0)
		rc = add_numel(out, host, mean, tlc_rules__tensor(self));
	if (rc < 0)
		return rc;
	if (!arith)
		host->cost_explain(out, "scatter without reduce: no arithmetic");
	return io_bytes(out, op, host, self);
}

/* index_add(self, dim, index, source, alpha): one add per source element, a
 * multiply more when alpha != 1. */
static int ix_index_add(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                        void *payload)
{
	(void)payload;
	const tlc_value *self = host->arg(op, 0, "self");
	const tlc_tensor *src = need_tensor(out, op, host, 3, "source");
	double alpha = 1.0;
	if (!tlc_rules__tensor(self) || !src)
		return tlc_rules__missing(out, host, "missing self or source tensor");
	const tlc_value *a = host->arg(op, 4, "alpha");
	int rc = 0;
	if (a && a->kind == TLC_VALUE_STRING)
		alpha = 2.0; /* "inf"/"-inf"/"nan": not 1, a multiply per element */
	else if ((rc = tlc_rules__real_arg_or(&alpha, op, host, 4, "alpha", 1.0)) < 0)
		return tlc_rules__arg_fail(out, host, op, rc, "alpha", "bad alpha");
	rc = add_numel(out, host, alpha != 1.0 ? 2 : 1, src);
	return rc < 0 ? rc : io_bytes(out, op, host, self);
}

/* Elements addressed by index_put's indices: exact when the indices are
 * integer tensors over the leading dims (no None, no bool mask): numel of
 * their broadcast times the untouched trailing dims. Returns 1 when exact. */
static int indexed_elems(tlc_rules_term *t, const tlc_host *host, const tlc_value *idx,
                         const tlc_tensor *self)
{
	const tlc_value *vals[TLC_RULES_MAX_DIMS];
	int64_t shape[TLC_RULES_MAX_DIMS];
	size_t n = 0, nd = 0;
	if (!idx || idx->kind != TLC_VALUE_LIST || idx->u.list.n == 0 ||
	    idx->u.list.n > self->ndim || idx->u.list.n > TLC_RULES_MAX_DIMS)
		return 0;
	for (size_t i = 0; i < idx->u.list.n; i++) {
		const tlc_tensor *x = tlc_rules__tensor(&idx->u.list.items[i]);
		if (!x || x->dtype == TLC_DTYPE_BOOL || x->dtype == TLC_DTYPE_UINT8)
			return 0;
		vals[n++] = &idx->u.list.items[i];
	}
	if (tlc_rules__broadcast_values(shape, &nd, host, vals, n) < 0)
		return 0;
	tlc_rules__term_mul_shape(t, shape, nd);
	tlc_rules__term_mul_dims(t, self, n, self->ndim);
	return 1;
}

/* index_put(self, indices, values, accumulate[, unsafe]): accumulate adds
 * one per indexed element; otherwise an overwrite. */
static int ix_index_put(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                        void *payload)
{
	(void)payload;
	const tlc_value *self = host->arg(op, 0, "self");
	const tlc_tensor *st = tlc_rules__tensor(self);
	const tlc_tensor *vals = host->tensor_arg(op, 2, "values");
	int acc = 0;
	if (!st || !vals)
		return tlc_rules__missing(out, host, "missing self or values tensor");
	int rc = tlc_rules__bool_arg_or(&acc, op, host, 3, "accumulate", 0);
	if (rc < 0)
		return tlc_rules__arg_fail(out, host, op, rc, "accumulate", "bad accumulate flag");
	if (!acc) {
		host->cost_explain(out, "index_put without accumulate: no arithmetic");
		return io_bytes(out, op, host, self);
	}
	tlc_rules_term t;
	tlc_rules__term_init(&t);
	if (!indexed_elems(&t, host, host->arg(op, 1, "indices"), st)) {
		host->cost_set_evidence(out, ES); /* masks: one add per value element */
		tlc_rules__term_init(&t);
		tlc_rules__term_mul_numel(&t, vals);
	}
	if (tlc_rules__term_add(out, host, TLC_FIELD_OTHER_FLOPS, 1, &t) < 0)
		return tlc_rules__bad(out, host, "bad shape");
	return io_bytes(out, op, host, self);
}

/* Zero-arithmetic movers whose result is self-shaped (index_copy). */
static int ix_copy(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)payload;
	const tlc_value *self = host->arg(op, 0, "self");
	if (!tlc_rules__tensor(self))
		return tlc_rules__missing(out, host, "missing self tensor");
	host->cost_explain(out, "data movement: no arithmetic");
	return io_bytes(out, op, host, self);
}

/* ---- masked ops ------------------------------------------------------- */

/* k per element of the result: recorded output, else self broadcast with mask. */
static int ix_masked(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)payload;
	const tlc_value *self = host->arg(op, 0, "self");
	const tlc_value *mask = host->arg(op, 1, "mask");
	const tlc_tensor *r = tlc_rules__tensor_out(op, 0);
	if (!tlc_rules__tensor(self) || !tlc_rules__tensor(mask))
		return tlc_rules__missing(out, host, "missing self or mask tensor");
	int is_select = strstr(op->name, "masked_select") != NULL;
	int64_t shape[TLC_RULES_MAX_DIMS];
	size_t nd = 0;
	const tlc_value *vals[2] = { self, mask };
	if (r && !is_select) {
		if (host->cost_add_numel(out, TLC_FIELD_OTHER_FLOPS, 1, r) < 0)
			return tlc_rules__bad(out, host, "bad output shape");
	} else if (tlc_rules__broadcast_values(shape, &nd, host, vals, 2) < 0 ||
	           host->cost_add(out, TLC_FIELD_OTHER_FLOPS, 1, nd, shape) < 0) {
		return tlc_rules__bad(out, host, "self and mask do not broadcast");
	}
	/* masked_fill/scatter results are self-shaped; masked_select's is data */
	return io_bytes(out, op, host, is_select ? NULL : self);
}

/* nonzero(self): one compare against zero per element. */
static int ix_nonzero(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)payload;
	const tlc_tensor *self = need_tensor(out, op, host, 0, "self");
	if (!self)
		return TLC_RULE_MISSING_ARGS;
	int rc = add_numel(out, host, 1, self);
	return rc < 0 ? rc : io_bytes(out, op, host, NULL);
}

/* ---- sort / topk -------------------------------------------------------- */

static int64_t ceil_log2(int64_t n)
{
	int64_t r = 0;
	while (r < 63 && ((int64_t)1 << r) < n)
		r++;
	return r;
}

/* Slices along dim and the slice length n of self. */
static int slices(tlc_rules_term *others, int64_t *n, const tlc_host *host, const tlc_tensor *x,
                  int64_t dim)
{
	if (x->ndim == 0) {
		*n = 1;
		return 0;
	}
	*n = host->dim(x, dim);
	if (*n < 0)
		return TLC_RULE_BAD_ARGS;
	size_t d = (size_t)(dim < 0 ? dim + (int64_t)x->ndim : dim);
	tlc_rules__term_mul_dims(others, x, 0, d);
	tlc_rules__term_mul_dims(others, x, d + 1, x->ndim);
	return 0;
}

/* sort/argsort: n*ceil(log2 n) compares per slice (comparison-sort bound). */
static int ix_sort(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)payload;
	const tlc_tensor *x = need_tensor(out, op, host, 0, "self");
	int64_t dim = -1, n = 0;
	if (!x)
		return TLC_RULE_MISSING_ARGS;
	/* sort(self, dim, descending) vs sort.stable(self, *, stable, dim, descending) */
	const tlc_value *d1 = host->arg(op, 1, "dim");
	size_t pos = d1 && d1->kind == TLC_VALUE_INT ? 1 : 2;
	int rc = 0;
	if (strstr(op->name, "msort"))
		dim = 0;
	else if ((rc = host->int_arg_or(&dim, op, pos, "dim", -1)) < 0)
		return tlc_rules__arg_fail(out, host, op, rc, "dim", "bad dim");
	tlc_rules_term t;
	tlc_rules__term_init(&t);
	if (slices(&t, &n, host, x, dim) < 0)
		return tlc_rules__bad(out, host, "dim out of range");
	tlc_rules__term_mul(&t, n);
	tlc_rules__term_mul(&t, ceil_log2(n));
	if (tlc_rules__term_add(out, host, TLC_FIELD_OTHER_FLOPS, 1, &t) < 0)
		return tlc_rules__bad(out, host, "bad shape");
	return io_bytes(out, op, host, NULL);
}

/* topk(self, k, dim, largest, sorted): n*ceil(log2(k+1)) per slice (a heap of k). */
static int ix_topk(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)payload;
	const tlc_tensor *x = need_tensor(out, op, host, 0, "self");
	int64_t k = 0, dim = -1, n = 0;
	if (!x)
		return TLC_RULE_MISSING_ARGS;
	int rc = tlc_rules__int_arg(&k, op, host, 1, "k");
	if (rc == 0)
		rc = host->int_arg_or(&dim, op, 2, "dim", -1);
	if (rc < 0 || k < 0)
		return tlc_rules__arg_fail(out, host, op, rc < 0 ? rc : TLC_RULE_BAD_ARGS, "k or dim",
		                           "bad k or dim");
	tlc_rules_term t;
	tlc_rules__term_init(&t);
	if (slices(&t, &n, host, x, dim) < 0 || k > n)
		return tlc_rules__bad(out, host, "dim out of range or k > size");
	tlc_rules__term_mul(&t, n);
	tlc_rules__term_mul(&t, k == 0 ? 0 : k == INT64_MAX ? 63 : ceil_log2(k + 1));
	if (tlc_rules__term_add(out, host, TLC_FIELD_OTHER_FLOPS, 1, &t) < 0)
		return tlc_rules__bad(out, host, "bad shape");
	return io_bytes(out, op, host, NULL);
}

/* ---- repeat ------------------------------------------------------------- */

/* repeat(self, repeats): a copy; the result is self padded to len(repeats)
 * dims, times repeats. */
static int ix_repeat(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)payload;
	const tlc_tensor *x = need_tensor(out, op, host, 0, "self");
	int64_t rep[TLC_RULES_MAX_DIMS], shape[TLC_RULES_MAX_DIMS];
	size_t n = 0;
	if (!x)
		return TLC_RULE_MISSING_ARGS;
	int rc = tlc_rules__int_list(rep, TLC_RULES_MAX_DIMS, &n,
	                             host->arg(op, 1, "repeats"));
	if (rc < 0 || n < x->ndim)
		return tlc_rules__arg_fail(out, host, op, rc < 0 ? rc : TLC_RULE_BAD_ARGS, "repeats",
		                           "repeats must have at least self's dims");
	for (size_t i = 0; i < n; i++) {
		int64_t s = i < n - x->ndim ? 1 : x->shape[i - (n - x->ndim)];
		if (rep[i] < 0)
			return tlc_rules__bad(out, host, "negative repeat");
		if (__builtin_mul_overflow(s, rep[i], &shape[i]))
			return tlc_rules__bad(out, host, "repeated size overflows");
	}
	host->cost_explain(out, "copy: no arithmetic");
	rc = host->read_inputs(out, op);
	if (rc == 0 && (op->flags & TLC_OP_HAS_OUTPUTS) && op->noutputs > 0)
		rc = host->write_outputs(out, op, NULL);
	else if (rc == 0)
		rc = tlc_rules__write_shape(out, host, shape, n, x->dtype);
	return tlc_rules__need(out, host, rc, "tensors");
}

/* repeat_interleave: a copy; the result size is data unless recorded or the
 * repeat count is one int (self_int): numel(self) * repeats. */
static int ix_repeat_il(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                        void *payload)
{
	(void)payload;
	const tlc_tensor *x = host->tensor_arg(op, 0, NULL);
	const tlc_value *r = host->arg(op, 1, "repeats");
	if (!x)
		return tlc_rules__missing(out, host, "missing tensor argument");
	host->cost_explain(out, "copy: no arithmetic");
	int rc = host->read_inputs(out, op);
	if (rc < 0)
		return tlc_rules__need(out, host, rc, "tensors");
	if ((op->flags & TLC_OP_HAS_OUTPUTS) && op->noutputs > 0)
		return tlc_rules__need(out, host, host->write_outputs(out, op, NULL),
		                       "outputs");
	/* only self_int has a data-independent size: numel(self) * repeats */
	if (!op->overload || strcmp(op->overload, "self_int") != 0 || !r ||
	    r->kind != TLC_VALUE_INT || r->u.integer < 0)
		return unknown_bytes(out, host);
	int64_t shape[TLC_RULES_MAX_DIMS + 1];
	if (x->ndim + 1 > TLC_RULES_MAX_DIMS)
		return unknown_bytes(out, host);
	memcpy(shape, x->shape, x->ndim * sizeof shape[0]);
	shape[x->ndim] = r->u.integer;
	return tlc_rules__need(out, host,
	                       tlc_rules__write_shape(out, host, shape, x->ndim + 1, x->dtype),
	                       "shape");
}

/* index_reduce(self, dim, index, source, reduce, include_self): one op per
 * source element (+ a divide per self element for mean). */
static int ix_index_reduce(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                           void *payload)
{
	(void)payload;
	const tlc_value *self = host->arg(op, 0, "self");
	const tlc_tensor *src = host->tensor_arg(op, 3, "source");
	int arith = 0, mean = 0;
	if (!tlc_rules__tensor(self) || !src)
		return tlc_rules__missing(out, host, "missing self or source tensor");
	int rc = reduce_kind(&arith, &mean, op, host, 4);
	if (rc < 0 || !arith)
		return tlc_rules__arg_fail(out, host, op, rc < 0 ? rc : TLC_RULE_BAD_ARGS, "reduce",
		                           "index_reduce needs reduce prod/mean/amax/amin");
	rc = add_numel(out, host, 1, src);
	if (rc == 0)
		rc = add_numel(out, host, mean, tlc_rules__tensor(self));
	return rc < 0 ? rc : io_bytes(out, op, host, self);
}

/* put_(self, index, source, accumulate): one add per index when accumulating. */
static int ix_put(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)payload;
	const tlc_value *self = host->arg(op, 0, "self");
	const tlc_tensor *idx = host->tensor_arg(op, 1, "index");
	int acc = 0;
	if (!tlc_rules__tensor(self) || !idx)
		return tlc_rules__missing(out, host, "missing self or index tensor");
	int rc = tlc_rules__bool_arg_or(&acc, op, host, 3, "accumulate", 0);
	if (rc < 0)
		return tlc_rules__arg_fail(out, host, op, rc, "accumulate", "bad accumulate flag");
	rc = add_numel(out, host, acc, idx);
	if (!acc)
		host->cost_explain(out, "put without accumulate: no arithmetic");
	return rc < 0 ? rc : io_bytes(out, op, host, self);
}

/* Binary search: ceil(log2(n + 1)) compares per looked-up element, n the
 * length searched. searchsorted(sorted_sequence, self): n = last dim of
 * the sequence; bucketize(self, boundaries): n = numel(boundaries). */
static int ix_search(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	int bucketize = *(const int *)payload;
	const tlc_tensor *seq = host->tensor_arg(op, bucketize ? 1 : 0,
	                                              bucketize ? "boundaries" : "sorted_sequence");
	const tlc_value *q = host->arg(op, bucketize ? 0 : 1, "self");
	int64_t n = 0;
	if (!seq || !q)
		return tlc_rules__missing(out, host, "missing sequence or values");
	if (!bucketize)
		n = seq->ndim ? seq->shape[seq->ndim - 1] : 1;
	else if (tlc_rules__numel_range(&n, seq, 0, seq->ndim) < 0)
		return tlc_rules__bad(out, host, "bad boundaries shape");
	tlc_rules_term t;
	tlc_rules__term_init(&t);
	if (tlc_rules__tensor(q))
		tlc_rules__term_mul_numel(&t, tlc_rules__tensor(q));
	tlc_rules__term_mul(&t, n == INT64_MAX ? 63 : ceil_log2(n + 1));
	if (tlc_rules__term_add(out, host, TLC_FIELD_OTHER_FLOPS, 1, &t) < 0)
		return tlc_rules__bad(out, host, "bad shape");
	return io_bytes(out, op, host, NULL);
}

/* ---- registration ----------------------------------------------------- */

static const size_t pos1 = 1, pos2 = 2;
/* _unique2(self, sorted, return_inverse, return_counts) / _unique(self,
 * sorted, return_inverse): sort-based (as CUDA and the CPU sort path run
 * it): a sort of the n flattened elements, n*ceil(log2 n) compares (the sort
 * convention above), then n - 1 compares of neighbours to mark the first of
 * each run. inverse and counts are index bookkeeping (integer positions,
 * not arithmetic on the data). The number of uniques depends on the data:
 * the bytes written are known only from recorded outputs. */
static int ix_unique(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	int sort = *(const int *)payload;
	const tlc_tensor *x = need_tensor(out, op, host, 0, "self");
	int64_t n = 0;
	if (!x)
		return TLC_RULE_MISSING_ARGS;
	if (!sort) {
		/* unique_consecutive(self, return_inverse, return_counts, dim) */
		int given = 0;
		int rc = tlc_rules__given(&given, op, host, 3, "dim");
		if (rc < 0)
			return tlc_rules__missing_arg(out, host, op, "dim");
		if (given)
			return tlc_rules__missing(out, host, "unique_consecutive over a dim (whole-slice "
			                          "compares) is not modelled");
	}
	if (tlc_rules__numel_range(&n, x, 0, x->ndim) < 0)
		return tlc_rules__bad(out, host, "bad shape");
	tlc_rules_term t;
	tlc_rules__term_init(&t);
	if (sort && n > 1) {
		tlc_rules__term_mul(&t, n);
		tlc_rules__term_mul(&t, ceil_log2(n));
		if (tlc_rules__term_add(out, host, TLC_FIELD_OTHER_FLOPS, 1, &t) < 0)
			return tlc_rules__bad(out, host, "bad shape");
	}
	if (n > 1 && host->cost_add(out, TLC_FIELD_OTHER_FLOPS, 1, 1, &(int64_t){ n - 1 }) < 0)
		return tlc_rules__bad(out, host, "bad shape");
	return io_bytes(out, op, host, NULL);
}

/* gather_backward(grad, self, dim, index, sparse_grad): zeros of self's
 * shape, then scatter_add of grad along index: one add per index element
 * (the dim does not change the count). sparse_grad builds a sparse tensor
 * from grad and index instead: no arithmetic. Writes a self-shaped tensor in
 * grad's dtype (dense). */
static int ix_gather_backward(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                              void *payload)
{
	(void)payload;
	const tlc_tensor *g = host->tensor_arg(op, 0, "grad");
	const tlc_tensor *self = host->tensor_arg(op, 1, "self");
	const tlc_tensor *idx = host->tensor_arg(op, 3, "index");
	int sparse = 0;
	if (!g || !self || !idx)
		return tlc_rules__missing(out, host, "missing grad, self or index tensor");
	int rc = tlc_rules__bool_arg_or(&sparse, op, host, 4, "sparse_grad", 0);
	if (rc < 0)
		return tlc_rules__arg_fail(out, host, op, rc, "sparse_grad", "bad sparse_grad");
	if (sparse)
		return tlc_rules__missing(out, host, "sparse_grad: a sparse result (nnz = numel(index)) "
		                          "is not modelled");
	if ((rc = add_numel(out, host, 1, idx)) < 0)
		return rc;
	if ((rc = host->read_inputs(out, op)) < 0)
		return tlc_rules__need(out, host, rc, "tensors");
	if ((op->flags & TLC_OP_HAS_OUTPUTS) && op->noutputs > 0)
		return tlc_rules__need(out, host, host->write_outputs(out, op, NULL),
		                       "outputs");
	return tlc_rules__write_shape(out, host, self->shape, self->ndim, g->dtype);
}

static const int unique_sorted = 1, unique_consecutive = 0;
static const int reduce_arg = 0, always_reduce = 1;
static const int search_sorted = 0, search_bucketize = 1;

#define I(name, fn, pl, ev, note) { name, TLC_RULE_COST, ev, fn, pl, note }

static const tlc_rules_entry rules[] = {
	I("aten::index", ix_index, NULL, EX, "0: gather; read indices + gathered"),
	I("aten::index_select", ix_select, NULL, EX, "0: gather; read index + gathered"),
	I("aten::gather", ix_gather, &pos2, EX, "0: gather; read index + gathered"),
	I("aten::take", ix_gather, &pos1, EX, "0: gather; read index + gathered"),
	I("aten::scatter", ix_scatter, &reduce_arg, EX, "0; with reduce: numel(index)"),
	I("aten::scatter_", ix_scatter, &reduce_arg, EX, "0; with reduce: numel(index)"),
	I("aten::scatter_add", ix_scatter, &always_reduce, EX, "numel(index) adds"),
	I("aten::scatter_add_", ix_scatter, &always_reduce, EX, "numel(index) adds"),
	I("aten::scatter_reduce", ix_scatter, &reduce_arg, EX,
	  "numel(index) (+ numel(self) divides for mean)"),
	I("aten::scatter_reduce_", ix_scatter, &reduce_arg, EX,
	  "numel(index) (+ numel(self) divides for mean)"),
	I("aten::index_add", ix_index_add, NULL, EX, "numel(source) * (1 + [alpha != 1])"),
	I("aten::index_add_", ix_index_add, NULL, EX, "numel(source) * (1 + [alpha != 1])"),
	I("aten::index_put", ix_index_put, NULL, EX, "0; accumulate: one add per indexed element"),
	I("aten::index_put_", ix_index_put, NULL, EX, "0; accumulate: one add per indexed element"),
	I("aten::_index_put_impl_", ix_index_put, NULL, EX,
	  "0; accumulate: one add per indexed element"),
	I("aten::index_copy", ix_copy, NULL, EX, "0: data movement"),
	I("aten::index_copy_", ix_copy, NULL, EX, "0: data movement"),
	I("aten::masked_fill", ix_masked, NULL, EX, "numel(out) selects"),
	I("aten::masked_fill_", ix_masked, NULL, EX, "numel(self) selects"),
	I("aten::masked_scatter", ix_masked, NULL, EX, "numel(out) selects"),
	I("aten::masked_scatter_", ix_masked, NULL, EX, "numel(self) selects"),
	I("aten::masked_select", ix_masked, NULL, EX, "numel(broadcast(self, mask)) compares"),
	I("aten::nonzero", ix_nonzero, NULL, EX, "numel(self) compares"),
	I("aten::sort", ix_sort, NULL, ES, "slices * n * ceil(log2 n) compares"),
	I("aten::argsort", ix_sort, NULL, ES, "slices * n * ceil(log2 n) compares"),
	I("aten::msort", ix_sort, NULL, ES, "slices * n * ceil(log2 n) compares"),
	I("aten::topk", ix_topk, NULL, ES, "slices * n * ceil(log2(k + 1)) compares"),
	I("aten::index_fill", ix_copy, NULL, EX, "0: data movement"),
	I("aten::index_fill_", ix_copy, NULL, EX, "0: data movement"),
	I("aten::index_reduce", ix_index_reduce, NULL, EX,
	  "numel(source) (+ numel(self) divides for mean)"),
	I("aten::index_reduce_", ix_index_reduce, NULL, EX,
	  "numel(source) (+ numel(self) divides for mean)"),
	I("aten::put_", ix_put, NULL, EX, "0; accumulate: numel(index) adds"),
	I("aten::put", ix_put, NULL, EX, "0; accumulate: numel(index) adds"),
	I("aten::argwhere", ix_nonzero, NULL, EX, "numel(self) compares"),
	I("aten::searchsorted", ix_search, &search_sorted, ES,
	  "numel(values) * ceil(log2(n + 1)) compares"),
	I("aten::bucketize", ix_search, &search_bucketize, ES,
	  "numel(self) * ceil(log2(numel(boundaries) + 1)) compares"),
	I("aten::repeat", ix_repeat, NULL, EX, "0: copy"),
	I("aten::_unique2", ix_unique, &unique_sorted, ES,
	  "sort-based: n*ceil(log2 n) + n - 1 compares, n = numel(self)"),
	I("aten::_unique", ix_unique, &unique_sorted, ES,
	  "sort-based: n*ceil(log2 n) + n - 1 compares, n = numel(self)"),
	I("aten::unique_consecutive", ix_unique, &unique_consecutive, EX,
	  "n - 1 neighbour compares, n = numel(self) (dim=None)"),
	I("aten::gather_backward", ix_gather_backward, NULL, EX,
	  "numel(index) adds (scatter_add into zeros of self's shape)"),
	I("aten::repeat_interleave", ix_repeat_il, NULL, EX, "0: copy"),
};

#undef I

int tlc_rules__index_init(tlc_plugin_ctx *ctx, const tlc_host *host)
{
	return tlc_rules__register_table(ctx, host, rules, TLC_RULES_COUNT(rules));
}
