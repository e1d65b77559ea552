/* Matrix-product rules: mm, addmm, bmm, baddbmm, addbmm, matmul, linear, mv,
 * addmv, dot, vdot, outer/ger, addr, _addmm_activation, linear_backward.
 * einsum lives in einsum.c-style helpers below (same family).
 *
 * Convention (docs/rules.md): a product of an [M,K] and a [K,N] matrix is
 * M*K*N MACs (the first product of each dot product is a MAC into zero), so
 * an outer product (K = 1) is M*N MACs. Complex dtypes count one MAC per
 * complex multiply-accumulate. Scaling by alpha != 1 and beta not in {0, 1}
 * costs one multiply per output element each; adding the beta-term (beta != 0)
 * one add per output element. */
#include <stdio.h>
#include <string.h>
#include "rules.h"
#include "util.h"

/* Output dtype when outputs are not recorded: the first operand's. */
static tlc_dtype dtype_of(const tlc_tensor *t) { return t ? t->dtype : TLC_DTYPE_NONE; }

/* Bytes: every input once, every output once (computed shape as fallback). */
static int gemm_bytes(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                      const int64_t *oshape, size_t on, tlc_dtype dt)
{
	int rc = host->read_inputs(out, op);
	if (rc < 0)
		return rc;
	if ((op->flags & TLC_OP_HAS_OUTPUTS) && op->noutputs > 0)
		return host->write_outputs(out, op, NULL);
	return tlc_rules__write_shape(out, host, oshape, on, dt);
}

/* other_flops for the beta*self + alpha*(product) epilogue over `elems`. */
static int scale_epilogue(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                          size_t beta_i, size_t alpha_i, const tlc_rules_term *elems)
{
	double beta = 1.0, alpha = 1.0;
	int rc = tlc_rules__real_arg_or(&beta, op, host, beta_i, "beta", 1.0);
	if (rc < 0)
		return tlc_rules__arg_fail(out, host, op, rc, "beta", "beta is not a number");
	rc = tlc_rules__real_arg_or(&alpha, op, host, alpha_i, "alpha", 1.0);
	if (rc < 0)
		return tlc_rules__arg_fail(out, host, op, rc, "alpha", "alpha is not a number");
	int64_t per = 0;
	if (beta != 0.0)
		per += 1;          /* add the beta-term */
	if (beta != 0.0 && beta != 1.0)
		per += 1;          /* beta * self */
	if (alpha != 1.0)
		per += 1;          /* alpha * product */
	return tlc_rules__term_add(out, host, TLC_FIELD_OTHER_FLOPS, per, elems);
}

static int need_tensor(tlc_cost *out, const tlc_host *host, const tlc_tensor *t,
                       size_t ndim, const char *what)
{
	if (!t)
		return tlc_rules__missing(out, host, "missing tensor %s", what);
	if (ndim && t->ndim != ndim)
		return tlc_rules__bad(out, host, "%s must be %zu-D, got %zu-D", what, ndim, t->ndim);
	return 0;
}

/* ---- general batched product, the core of every rule here ----------- */

/* a [..., M, K] x b [..., K, N] with numpy-style batch broadcasting and the
 * 1-D promotions of torch.matmul: the shape helper outside plugins get
 * through the host table (host->matmul_shape), which this family uses too. */
typedef tlc_matmul_shape gemm_shape;

static int gemm_shape_of(gemm_shape *g, const tlc_host *host, const tlc_tensor *a,
                         const tlc_tensor *b)
{
	g->size = sizeof *g;
	return host->matmul_shape(g, a, b);
}

static void gemm_elems(tlc_rules_term *t, const gemm_shape *g)
{
	tlc_rules__term_init(t);
	tlc_rules__term_mul_shape(t, g->batch, g->nbatch);
	tlc_rules__term_mul(t, g->m);
	tlc_rules__term_mul(t, g->n);
}

static int gemm_macs(tlc_cost *out, const tlc_host *host, const gemm_shape *g)
{
	tlc_rules_term t;
	gemm_elems(&t, g);
	tlc_rules__term_mul(&t, g->k);
	return tlc_rules__term_add(out, host, TLC_FIELD_MACS, 1, &t);
}

/* Product of a and b with their ranks fixed (0 = any), optional epilogue. */
typedef struct gemm_spec {
	int a, b;              /* arg index of the two operands */
	size_t adim, bdim;     /* required ranks, 0 = any (matmul semantics) */
	int beta, alpha;       /* arg index of beta/alpha, -1 = no epilogue */
	int reduce_batch;      /* addbmm: the batch is summed into one [M,N] */
} gemm_spec;

static int rule_gemm(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	const gemm_spec *s = payload;
	const tlc_tensor *a = host->tensor_arg(op, (size_t)s->a, NULL);
	const tlc_tensor *b = host->tensor_arg(op, (size_t)s->b, NULL);
	int rc = need_tensor(out, host, a, s->adim, "first operand");
	if (rc == 0)
		rc = need_tensor(out, host, b, s->bdim, "second operand");
	if (rc < 0)
		return rc;
	gemm_shape g;
	if (gemm_shape_of(&g, host, a, b) < 0)
		return tlc_rules__bad(out, host, "operand shapes do not multiply");
	if (s->adim == 3 && s->bdim == 3 && a->shape[0] != b->shape[0])
		return tlc_rules__bad(out, host, "batch sizes differ (bmm does not broadcast)");
	rc = gemm_macs(out, host, &g);
	if (rc < 0)
		return rc;
	if (s->reduce_batch) {
		/* addbmm: result [M,N]; the sum over the batch is part of the MACs */
		g.nbatch = 0;
		g.nout = 2;
		g.out[0] = g.m;
		g.out[1] = g.n;
	}
	if (s->beta >= 0) {
		tlc_rules_term e;
		gemm_elems(&e, &g);
		rc = scale_epilogue(out, op, host, (size_t)s->beta, (size_t)s->alpha, &e);
		if (rc < 0)
			return rc;
	}
	return gemm_bytes(out, op, host, g.out, g.nout, dtype_of(a));
}

/* mm(self, mat2), addmm(self, mat1, mat2, *, beta, alpha), ... */
static const gemm_spec spec_mm = { 0, 1, 2, 2, -1, -1, 0 };
static const gemm_spec spec_addmm = { 1, 2, 2, 2, 3, 4, 0 };
static const gemm_spec spec_bmm = { 0, 1, 3, 3, -1, -1, 0 };
static const gemm_spec spec_baddbmm = { 1, 2, 3, 3, 3, 4, 0 };
static const gemm_spec spec_addbmm = { 1, 2, 3, 3, 3, 4, 1 };
static const gemm_spec spec_matmul = { 0, 1, 0, 0, -1, -1, 0 };
static const gemm_spec spec_mv = { 0, 1, 2, 1, -1, -1, 0 };
static const gemm_spec spec_addmv = { 1, 2, 2, 1, 3, 4, 0 };
static const gemm_spec spec_dot = { 0, 1, 1, 1, -1, -1, 0 };

/* outer(self [M], vec2 [N]) = [M,1] x [1,N]; addr(self, vec1, vec2, beta, alpha). */
typedef struct outer_spec {
	int a, beta, alpha;
} outer_spec;

static int rule_outer(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	const outer_spec *s = payload;
	const tlc_tensor *a = host->tensor_arg(op, (size_t)s->a, NULL);
	const tlc_tensor *b = host->tensor_arg(op, (size_t)s->a + 1, NULL);
	int rc = need_tensor(out, host, a, 1, "first vector");
	if (rc == 0)
		rc = need_tensor(out, host, b, 1, "second vector");
	if (rc < 0)
		return rc;
	tlc_rules_term e;
	tlc_rules__term_init(&e);
	tlc_rules__term_mul(&e, a->shape[0]);
	tlc_rules__term_mul(&e, b->shape[0]);
	rc = tlc_rules__term_add(out, host, TLC_FIELD_MACS, 1, &e);
	if (rc == 0 && s->beta >= 0)
		rc = scale_epilogue(out, op, host, (size_t)s->beta, (size_t)s->alpha, &e);
	if (rc < 0)
		return rc;
	int64_t oshape[2] = { a->shape[0], b->shape[0] };
	return gemm_bytes(out, op, host, oshape, 2, a->dtype);
}

static const outer_spec spec_outer = { 0, -1, -1 };
static const outer_spec spec_addr = { 1, 3, 4 };

/* linear(input [..., in], weight [out, in] or [in], bias?) */
static int rule_linear(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)payload;
	const tlc_tensor *x = host->tensor_arg(op, 0, "input");
	const tlc_tensor *w = host->tensor_arg(op, 1, "weight");
	const tlc_tensor *bias = host->tensor_arg(op, 2, "bias");
	int rc = need_tensor(out, host, x, 0, "input");
	if (rc == 0)
		rc = need_tensor(out, host, w, 0, "weight");
	if (rc < 0)
		return rc;
	if (x->ndim < 1 || w->ndim < 1 || w->ndim > 2 ||
	    w->shape[w->ndim - 1] != x->shape[x->ndim - 1] || x->ndim + 1 > TLC_RULES_MAX_DIMS)
		return tlc_rules__bad(out, host, "linear: input [..., in] and weight [out, in] differ in in");
	/* output [..., out] = x's leading dims and weight[0]; the terms are
	 * built from the shapes directly (copies of a few dims cost a libc call) */
	tlc_rules_term e, m;
	tlc_rules__term_init(&e);
	tlc_rules__term_mul_dims(&e, x, 0, x->ndim - 1);
	if (w->ndim == 2)
		tlc_rules__term_mul(&e, w->shape[0]);
	tlc_rules__term_init(&m);
	tlc_rules__term_mul_dims(&m, x, 0, x->ndim);
	if (w->ndim == 2)
		tlc_rules__term_mul(&m, w->shape[0]);
	rc = tlc_rules__term_add(out, host, TLC_FIELD_MACS, 1, &m);
	if (rc == 0 && bias)
		rc = tlc_rules__term_add(out, host, TLC_FIELD_OTHER_FLOPS, 1, &e);
	if (rc < 0)
		return rc;
	if ((op->flags & TLC_OP_HAS_OUTPUTS) && op->noutputs > 0)
		return gemm_bytes(out, op, host, NULL, 0, x->dtype); /* writes the outputs */
	int64_t oshape[TLC_RULES_MAX_DIMS];
	size_t on = x->ndim - 1;
	memcpy(oshape, x->shape, on * sizeof oshape[0]);
	if (w->ndim == 2)
		oshape[on++] = w->shape[0];
	return gemm_bytes(out, op, host, oshape, on, x->dtype);
}

/* _addmm_activation(self, mat1, mat2, *, beta=1, alpha=1, use_gelu=False):
 * addmm plus relu (1 per element) or gelu (tanh form, convention). */
static int rule_addmm_activation(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                                 void *payload)
{
	(void)payload;
	int use_gelu = 0;
	int rc = tlc_rules__bool_arg_or(&use_gelu, op, host, 5, "use_gelu", 0);
	if (rc < 0)
		return tlc_rules__arg_fail(out, host, op, rc, "use_gelu", "use_gelu is not a bool");
	rc = rule_gemm(out, op, host, (void *)(uintptr_t)&spec_addmm);
	if (rc < 0)
		return rc;
	const tlc_tensor *a = host->tensor_arg(op, 1, NULL);
	const tlc_tensor *b = host->tensor_arg(op, 2, NULL);
	tlc_rules_term e;
	tlc_rules__term_init(&e);
	tlc_rules__term_mul(&e, a->shape[0]);
	tlc_rules__term_mul(&e, b->shape[1]);
	if (use_gelu)
		host->cost_set_evidence(out, TLC_EVIDENCE_ESTIMATED);
	/* the fused epilogue uses the tanh approximation of gelu */
	return tlc_rules__term_add(out, host, TLC_FIELD_OTHER_FLOPS,
	                           use_gelu ? TLC_RULES_K_GELU_TANH : TLC_RULES_K_RELU, &e);
}

/* linear_backward(self [..., in], grad_output [..., out], weight [out, in],
 * output_mask[3]): grad_input and grad_weight are products of the forward's
 * size; grad_bias sums grad_output (one add per element). */
static int rule_linear_backward(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                                void *payload)
{
	(void)payload;
	const tlc_tensor *x = host->tensor_arg(op, 0, "self");
	const tlc_tensor *go = host->tensor_arg(op, 1, "grad_output");
	const tlc_tensor *w = host->tensor_arg(op, 2, "weight");
	int mask[3];
	size_t nm = 0;
	int rc = need_tensor(out, host, x, 0, "self");
	if (rc == 0)
		rc = need_tensor(out, host, go, 0, "grad_output");
	if (rc == 0)
		rc = need_tensor(out, host, w, 2, "weight");
	if (rc == 0)
		rc = tlc_rules__arg_fail(out, host, op,
		                         tlc_rules__bool_list_arg(mask, 3, &nm, op, host, 3, "output_mask"),
		                         "output_mask", "bad output_mask");
	if (rc < 0)
		return rc;
	if (nm != 3 || x->ndim < 1 || go->ndim != x->ndim)
		return tlc_rules__bad(out, host, "linear_backward: bad shapes or output_mask");
	tlc_rules_term e;
	tlc_rules__term_init(&e);
	tlc_rules__term_mul_numel(&e, go);
	tlc_rules_term m;
	tlc_rules__term_copy(&m, &e);
	tlc_rules__term_mul(&m, w->shape[1]);
	int64_t k = (int64_t)mask[0] + mask[1];
	rc = tlc_rules__term_add(out, host, TLC_FIELD_MACS, k, &m);
	if (rc == 0 && mask[2])
		rc = tlc_rules__term_add(out, host, TLC_FIELD_OTHER_FLOPS, 1, &e);
	if (rc < 0)
		return rc;
	rc = host->read_inputs(out, op);
	if (rc < 0)
		return rc;
	if ((op->flags & TLC_OP_HAS_OUTPUTS) && op->noutputs > 0)
		return host->write_outputs(out, op, NULL);
	const tlc_value *xv = host->arg(op, 0, "self");
	const tlc_value *wv = host->arg(op, 2, "weight");
	if (mask[0] && (rc = host->cost_add_bytes(out, TLC_FIELD_BYTES_WRITTEN, xv)) < 0)
		return rc;
	if (mask[1] && (rc = host->cost_add_bytes(out, TLC_FIELD_BYTES_WRITTEN, wv)) < 0)
		return rc;
	if (mask[2])
		return tlc_rules__write_shape(out, host, &w->shape[0], 1, go->dtype);
	return 0;
}

/* ---- einsum ---------------------------------------------------------- */

/* Labels: 'A'-'Z' = 0-25, 'a'-'z' = 26-51, ellipsis dims 52-63 (right-aligned
 * across operands, at most 12). A label set is a 64-bit mask. */
#define ES_ELL0 52
#define ES_MAXELL 12
#define ES_MAXOPS 64

typedef struct es_state {
	int64_t size[64];            /* broadcast size of every label */
	uint64_t ops[ES_MAXOPS];     /* label set of each remaining operand */
	uint64_t ones[ES_MAXOPS];    /* labels an input operand has with size 1 */
	size_t nops;
	uint64_t output;
	size_t nell;                 /* ellipsis dims in the widest operand */
} es_state;

static int es_label(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return 26 + (c - 'a');
	return -1;
}

/* Counts explicit labels of term [p, end) and whether it has "...". */
static int es_scan(const char *p, const char *end, size_t *nlabels, int *ell)
{
	*nlabels = 0;
	*ell = 0;
	while (p < end) {
		if (*p == '.') {
			if (end - p < 3 || p[1] != '.' || p[2] != '.' || *ell)
				return -1;
			*ell = 1;
			p += 3;
			continue;
		}
		if (*p != ' ' && es_label(*p) < 0)
			return -1;
		if (*p != ' ')
			(*nlabels)++;
		p++;
	}
	return 0;
}

static int es_set_size(es_state *st, int l, int64_t n)
{
	if (st->size[l] < 0 || st->size[l] == 1)
		st->size[l] = n;
	else if (n != 1 && n != st->size[l])
		return -1;
	return 0;
}

/* Parses one input term against tensor t: label set into *mask, sizes into st. */
static int es_operand(es_state *st, uint64_t *mask, uint64_t *ones, const char *p,
                      const char *end, const tlc_tensor *t)
{
	size_t nl;
	int ell;
	if (es_scan(p, end, &nl, &ell) < 0 || nl > t->ndim || (!ell && nl != t->ndim))
		return -1;
	size_t ne = t->ndim - nl, d = 0;
	if (ne > ES_MAXELL)
		return -1;
	if (ne > st->nell)
		st->nell = ne;
	*mask = 0;
	*ones = 0;
	for (; p < end; p++) {
		if (*p == ' ')
			continue;
		if (*p == '.') {
			for (size_t k = 0; k < ne; k++, d++) {
				int l = ES_ELL0 + ES_MAXELL - (int)ne + (int)k;
				if (es_set_size(st, l, t->shape[d]) < 0)
					return -1;
				if (t->shape[d] == 1)
					*ones |= (uint64_t)1 << l;
				*mask |= (uint64_t)1 << l;
			}
			p += 2;
			continue;
		}
		int l = es_label(*p);
		if (es_set_size(st, l, t->shape[d]) < 0)
			return -1;
		if (t->shape[d++] == 1)
			*ones |= (uint64_t)1 << l;
		*mask |= (uint64_t)1 << l;
	}
	return 0;
}

static uint64_t es_ell_mask(void)
{
	return (((uint64_t)1 << ES_MAXELL) - 1) << ES_ELL0;
}

/* Implicit output: labels that occur exactly once, plus every ellipsis dim. */
static uint64_t es_implicit_output(const char *lhs, const char *end)
{
	int count[52] = { 0 };
	for (const char *p = lhs; p < end; p++) {
		int l = es_label(*p);
		if (l >= 0)
			count[l]++;
	}
	uint64_t m = es_ell_mask();
	for (int l = 0; l < 52; l++)
		if (count[l] == 1)
			m |= (uint64_t)1 << l;
	return m;
}

static int es_explicit_output(uint64_t *out, const char *p)
{
	*out = 0;
	for (; *p; p++) {
		if (*p == ' ')
			continue;
		if (*p == '.') {
			if (p[1] != '.' || p[2] != '.')
				return -1;
			*out |= es_ell_mask();
			p += 2;
			continue;
		}
		int l = es_label(*p);
		if (l < 0 || (*out & ((uint64_t)1 << l)))
			return -1;
		*out |= (uint64_t)1 << l;
	}
	return 0;
}

static void es_term(tlc_rules_term *t, const es_state *st, uint64_t labels)
{
	tlc_rules__term_init(t);
	for (int l = 0; l < 64; l++)
		if (labels & ((uint64_t)1 << l))
			tlc_rules__term_mul(t, st->size[l]);
}

/* other += numel(labels) - numel(labels without drop): summing `drop` out.
 * Labels in `ones` have size 1 in this operand (broadcast). */
static int es_sum_out(tlc_cost *out, const tlc_host *host, const es_state *st,
                      uint64_t labels, uint64_t drop, uint64_t ones)
{
	if (!drop)
		return 0;
	tlc_rules_term a, b;
	es_term(&a, st, labels & ~ones);
	es_term(&b, st, labels & ~drop & ~ones);
	int rc = tlc_rules__term_add(out, host, TLC_FIELD_OTHER_FLOPS, 1, &a);
	return rc < 0 ? rc : tlc_rules__term_add(out, host, TLC_FIELD_OTHER_FLOPS, -1, &b);
}

/* Labels needed after operands x and y are gone: the output and the rest. */
static uint64_t es_needed(const es_state *st, size_t x, size_t y)
{
	uint64_t m = st->output;
	for (size_t i = 0; i < st->nops; i++)
		if (i != x && i != y)
			m |= st->ops[i];
	return m;
}

/* Contracts operands x < y: labels of one side only that nothing needs are
 * summed first (torch's sumproduct_pair), then the pair costs
 * prod(sizes of all its labels) MACs. The result replaces x (left to right)
 * or is appended (explicit path). */
static int es_contract(tlc_cost *out, const tlc_host *host, es_state *st, size_t x,
                       size_t y, int append)
{
	uint64_t need = es_needed(st, x, y);
	uint64_t ux = st->ops[x] & ~st->ops[y] & ~need, uy = st->ops[y] & ~st->ops[x] & ~need;
	int rc = es_sum_out(out, host, st, st->ops[x], ux, 0);
	if (rc == 0)
		rc = es_sum_out(out, host, st, st->ops[y], uy, 0);
	if (rc < 0)
		return rc;
	uint64_t all = (st->ops[x] & ~ux) | (st->ops[y] & ~uy);
	tlc_rules_term t;
	es_term(&t, st, all);
	rc = tlc_rules__term_add(out, host, TLC_FIELD_MACS, 1, &t);
	if (rc < 0)
		return rc;
	uint64_t res = all & need;
	memmove(&st->ops[y], &st->ops[y + 1], (st->nops - y - 1) * sizeof st->ops[0]);
	st->nops--;
	if (!append) {
		st->ops[x] = res;
		return 0;
	}
	memmove(&st->ops[x], &st->ops[x + 1], (st->nops - x - 1) * sizeof st->ops[0]);
	st->ops[st->nops - 1] = res;
	return 0;
}

static int es_parse(es_state *st, const char *eq, const tlc_value *list)
{
	const char *arrow = strstr(eq, "->");
	const char *lhs_end = arrow ? arrow : eq + strlen(eq);
	const char *p = eq;
	st->nops = 0;
	st->nell = 0;
	for (int l = 0; l < 64; l++)
		st->size[l] = -1;
	for (;;) {
		const char *comma = memchr(p, ',', (size_t)(lhs_end - p));
		const char *end = comma ? comma : lhs_end;
		if (st->nops >= list->u.list.n || st->nops >= ES_MAXOPS)
			return -1;
		const tlc_tensor *t = tlc_rules__tensor(&list->u.list.items[st->nops]);
		if (!t)
			return TLC_RULE_MISSING_ARGS;
		if (es_operand(st, &st->ops[st->nops], &st->ones[st->nops], p, end, t) < 0)
			return -1;
		st->nops++;
		if (!comma)
			break;
		p = comma + 1;
	}
	if (st->nops != list->u.list.n)
		return -1;
	if (!arrow)
		st->output = es_implicit_output(eq, lhs_end);
	else if (es_explicit_output(&st->output, arrow + 2) < 0)
		return -1;
	uint64_t present = 0;
	for (size_t i = 0; i < st->nops; i++)
		present |= st->ops[i];
	if (st->output & ~present & ~es_ell_mask())
		return -1; /* an output label no operand has */
	st->output &= present;
	return 0;
}

/* The explicit contraction path (flattened pairs), if any, into path[]. */
static int es_path(int64_t *path, size_t *npath, const tlc_op *op, const tlc_host *host)
{
	const tlc_value *v = host->arg(op, 2, "path");
	*npath = 0;
	if (!v)
		return 0; /* None, or an einsum without the path argument (torch < 2.0) */
	return tlc_rules__int_list(path, 2 * ES_MAXOPS, npath, v);
}

static int rule_einsum(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)payload;
	const char *eq = NULL;
	const tlc_value *list = host->arg(op, 1, "tensors");
	int rc = tlc_rules__string_arg(&eq, op, host, 0, "equation", NULL);
	if (rc == TLC_RULE_MISSING_ARGS && tlc_rules__observed(op))
		return tlc_rules__missing(out, host, "einsum equation not recorded: no trace records "
		                          "a string argument (capture an op log with python3 -m tlcost capture)");
	if (!eq || !list)
		return tlc_rules__missing(out, host, "einsum needs the equation and the tensor list");
	if (list->kind != TLC_VALUE_LIST || list->u.list.n == 0)
		return tlc_rules__bad(out, host, "einsum: tensors is not a non-empty list");
	es_state st;
	rc = es_parse(&st, eq, list);
	if (rc == TLC_RULE_MISSING_ARGS)
		return tlc_rules__missing(out, host, "einsum: an operand's shape is not recorded");
	if (rc < 0)
		return tlc_rules__bad(out, host, "einsum: equation does not match the operands");
	int64_t path[2 * ES_MAXOPS];
	size_t npath = 0;
	if (es_path(path, &npath, op, host) < 0 || (npath && npath != 2 * (st.nops - 1)))
		return tlc_rules__bad(out, host, "einsum: path is not %zu index pairs", st.nops - 1);
	/* labels unique to one operand and not in the output are summed first */
	for (size_t i = 0; i < st.nops; i++) {
		uint64_t others = st.output;
		for (size_t j = 0; j < st.nops; j++)
			if (j != i)
				others |= st.ops[j];
		uint64_t drop = st.ops[i] & ~others;
		if ((rc = es_sum_out(out, host, &st, st.ops[i], drop, st.ones[i])) < 0)
			return rc;
		st.ops[i] &= ~drop;
	}
	for (size_t step = 0; st.nops > 1; step++) {
		size_t x = 0, y = 1;
		if (npath) {
			int64_t a = path[2 * step], b = path[2 * step + 1];
			if (a < 0 || b < 0 || a == b || (size_t)a >= st.nops || (size_t)b >= st.nops)
				return tlc_rules__bad(out, host, "einsum: path pair %zu out of range", step);
			x = (size_t)(a < b ? a : b);
			y = (size_t)(a < b ? b : a);
		}
		if ((rc = es_contract(out, host, &st, x, y, npath != 0)) < 0)
			return rc;
	}
	rc = host->read_inputs(out, op);
	if (rc < 0)
		return rc;
	if ((op->flags & TLC_OP_HAS_OUTPUTS) && op->noutputs > 0)
		return host->write_outputs(out, op, NULL);
	int64_t oshape[64];
	size_t on = 0;
	for (int l = 0; l < 64; l++)
		if (st.output & ((uint64_t)1 << l))
			oshape[on++] = st.size[l];
	return tlc_rules__write_shape(out, host, oshape, on,
	                              tlc_rules__tensor(&list->u.list.items[0])->dtype);
}

/* ---- FP8 and grouped products (torch >= 2.4 / 2.8 schemas) ------------ */

/* The dtype of a `ScalarType? out_dtype` argument: an int code (traces),
 * a name (op logs), `dflt` when None or omitted from an op log; NONE (the
 * bytes written then read as unknown) when the input did not record it. */
static tlc_dtype out_dtype_arg(const tlc_op *op, const tlc_host *host, size_t i,
                               tlc_dtype dflt)
{
	const tlc_value *d = host->arg(op, i, "out_dtype");
	if (!d)
		return tlc_rules__observed(op) && i >= op->nargs ? TLC_DTYPE_NONE : dflt;
	if (d->kind == TLC_VALUE_INT)
		return tlc_rules__dtype_code(d->u.integer);
	if (d->kind == TLC_VALUE_STRING)
		return host->dtype_parse(d->u.string);
	return TLC_DTYPE_NONE;
}

/* Bytes of a scaled or grouped product: every tensor argument read once by
 * its own dtype; the result written once (the recorded output, else oshape
 * in dt). */
static int fp8_bytes(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                     const int64_t *oshape, size_t on, tlc_dtype dt)
{
	return gemm_bytes(out, op, host, oshape, on, dt);
}

static int64_t numel_of(const tlc_tensor *t)
{
	int64_t n = 1;
	for (size_t i = 0; i < t->ndim; i++)
		if (__builtin_mul_overflow(n, t->shape[i], &n))
			return -1;
	return n;
}

/* other_flops of the scaling of `elems` output elements by scale_a (one
 * factor per row) and scale_b (one per column), `rows` x `cols` per group:
 * tensor-wise (one element each): out = (sa*sb) * acc, one multiply per
 * output element and one for sa*sb; row-wise (rows and cols elements):
 * out = sa[i] * sb[j] * acc, two per output element. Any other layout
 * (block-wise recipes scale inside the K loop) leaves other_flops missing. */
static int fp8_scaling(tlc_cost *out, const tlc_host *host, const tlc_tensor *sa,
                       const tlc_tensor *sb, int64_t rows, int64_t cols,
                       const tlc_rules_term *elems)
{
	int64_t na = numel_of(sa), nb = numel_of(sb);
	static const int64_t one[1] = { 1 };
	if (na == 1 && nb == 1) {
		int rc = tlc_rules__term_add(out, host, TLC_FIELD_OTHER_FLOPS, 1, elems);
		return rc < 0 ? rc : host->cost_add(out, TLC_FIELD_OTHER_FLOPS, 1, 1, one);
	}
	if (na == rows && nb == cols)
		return tlc_rules__term_add(out, host, TLC_FIELD_OTHER_FLOPS, 2, elems);
	host->cost_explain(out, "scale_a/scale_b are neither tensor-wise (one element each) nor "
	                        "row-wise (one per row of the result, one per column): the "
	                        "scaling of a block-wise recipe happens inside the K loop and "
	                        "its arithmetic is not defined here");
	host->cost_set_missing(out, TLC_FIELD_OTHER_FLOPS);
	return 0;
}

static int need_partial(tlc_cost *out, const tlc_host *host)
{
	if (TLC_HOST_HAS(host, cost_set_missing))
		return 0;
	return tlc_rules__missing(out, host, "host without cost_set_missing (partly known ops)");
}

/* _scaled_mm(self [M,K], mat2 [K,N], scale_a, scale_b, bias=None,
 * scale_result=None, out_dtype=None, use_fast_accum=False): torch >= 2.4.
 * MACs M*K*N; the scaling as fp8_scaling; + 1 add per element for bias and
 * 1 multiply per element for scale_result; use_fast_accum changes the
 * accumulation precision, not the count. Strides (row- or column-major
 * operands) do not change the count. */
static int rule_scaled_mm(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)payload;
	const tlc_tensor *a = host->tensor_arg(op, 0, "self");
	const tlc_tensor *b = host->tensor_arg(op, 1, "mat2");
	const tlc_tensor *sa = host->tensor_arg(op, 2, "scale_a");
	const tlc_tensor *sb = host->tensor_arg(op, 3, "scale_b");
	int rc = need_tensor(out, host, a, 2, "self");
	if (rc == 0)
		rc = need_tensor(out, host, b, 2, "mat2");
	if (rc == 0)
		rc = need_tensor(out, host, sa, 0, "scale_a");
	if (rc == 0)
		rc = need_tensor(out, host, sb, 0, "scale_b");
	if (rc == 0)
		rc = need_partial(out, host);
	if (rc < 0)
		return rc;
	if (a->shape[1] != b->shape[0])
		return tlc_rules__bad(out, host, "_scaled_mm: self [M,K] and mat2 [K,N] differ in K");
	int64_t m = a->shape[0], k = a->shape[1], n = b->shape[1];
	tlc_rules_term e;
	tlc_rules__term_init(&e);
	tlc_rules__term_mul(&e, m);
	tlc_rules__term_mul(&e, n);
	tlc_rules_term macs;
	tlc_rules__term_copy(&macs, &e);
	tlc_rules__term_mul(&macs, k);
	rc = tlc_rules__term_add(out, host, TLC_FIELD_MACS, 1, &macs);
	if (rc == 0)
		rc = fp8_scaling(out, host, sa, sb, m, n, &e);
	int64_t extra = (host->tensor_arg(op, 4, "bias") != NULL) +
	                (host->tensor_arg(op, 5, "scale_result") != NULL);
	if (rc == 0)
		rc = tlc_rules__term_add(out, host, TLC_FIELD_OTHER_FLOPS, extra, &e);
	if (rc < 0)
		return rc;
	int64_t oshape[2] = { m, n };
	return fp8_bytes(out, op, host, oshape, 2, out_dtype_arg(op, host, 6, a->dtype));
}

/* Where the arguments of a grouped product sit. */
typedef struct grouped_spec {
	int scaled;                 /* _scaled_grouped_mm */
	size_t offs, bias, out_dtype; /* argument indices */
} grouped_spec;

static const grouped_spec spec_grouped = { 0, 2, 3, 4 };
static const grouped_spec spec_scaled_grouped = { 1, 4, 5, 7 };

/* The shapes of a grouped product (torch's _grouped_mm layouts). */
typedef struct grouped_shape {
	int64_t g, m, k, n;   /* groups; per-group M, K, N (the jagged one: its total) */
	int64_t out[3];
	size_t nout;
	const char *jagged;   /* NULL (3D x 3D) or the dim offs splits: "M", "K", "N" */
} grouped_shape;

static int grouped_shape_of(grouped_shape *s, const tlc_tensor *a, const tlc_tensor *b,
                            const tlc_tensor *offs)
{
	int64_t ka = a->shape[a->ndim - 1], kb = b->shape[b->ndim - 2];
	if (ka != kb)
		return -1;
	s->k = ka;
	s->m = a->shape[a->ndim - 2];
	s->n = b->shape[b->ndim - 1];
	s->jagged = NULL;
	if (a->ndim == 3 && b->ndim == 3) {
		s->g = a->shape[0];
		s->nout = 3;
		s->out[0] = s->g, s->out[1] = s->m, s->out[2] = s->n;
		return a->shape[0] == b->shape[0] && !offs ? 0 : -1;
	}
	if (!offs || offs->ndim != 1)
		return -1;
	s->g = offs->shape[0];
	s->nout = 2;
	s->out[0] = s->m, s->out[1] = s->n;
	if (a->ndim == 2 && b->ndim == 3) {
		s->jagged = "M"; /* rows of self, each routed to one group */
		return b->shape[0] == s->g ? 0 : -1;
	}
	if (a->ndim == 3 && b->ndim == 2) {
		s->jagged = "N"; /* columns of mat2 */
		return a->shape[0] == s->g ? 0 : -1;
	}
	s->jagged = "K"; /* 2D x 2D: the reduction dim, one [M,N] result per group */
	s->nout = 3;
	s->out[0] = s->g, s->out[1] = s->m, s->out[2] = s->n;
	return 0;
}

/* 3D x 3D: G products [M,K] x [K,N]: G*M*K*N MACs; row-wise scales
 * ([G,M] and [G,N]) two multiplies per output element, a bias one add. */
static int grouped_exact(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                         const grouped_spec *sp, const grouped_shape *s,
                         const tlc_tensor *sa, const tlc_tensor *sb)
{
	tlc_rules_term e, macs;
	tlc_rules__term_init(&e);
	tlc_rules__term_mul(&e, s->g);
	tlc_rules__term_mul(&e, s->m);
	tlc_rules__term_mul(&e, s->n);
	tlc_rules__term_copy(&macs, &e);
	tlc_rules__term_mul(&macs, s->k);
	int rc = tlc_rules__term_add(out, host, TLC_FIELD_MACS, 1, &macs);
	if (rc == 0 && sa) {
		int64_t rows = s->m, cols = s->n;
		if (__builtin_mul_overflow(rows, s->g, &rows) || __builtin_mul_overflow(cols, s->g, &cols))
			return tlc_rules__bad(out, host, "grouped mm: shapes overflow");
		rc = fp8_scaling(out, host, sa, sb, rows, cols, &e);
	}
	int64_t extra = host->tensor_arg(op, sp->bias, "bias") != NULL;
	if (sp->scaled)
		extra += host->tensor_arg(op, 6, "scale_result") != NULL;
	if (rc == 0)
		rc = tlc_rules__term_add(out, host, TLC_FIELD_OTHER_FLOPS, extra, &e);
	return rc;
}

/* MACs of an offsets layout: offs[G-1] (where the last group ends) times
 * the two other dims; offs[G-1] is a tensor value no input records, and
 * torch ignores the elements past it, so MACs are missing with the bound
 * the shapes give. */
static int grouped_missing(tlc_cost *out, const tlc_host *host, const grouped_shape *s,
                           int other_too)
{
	char why[256];
	int64_t bound;
	int ovf = __builtin_mul_overflow(s->m, s->k, &bound) ||
	          __builtin_mul_overflow(bound, s->n, &bound);
	char num[24];
	snprintf(num, sizeof num, ovf ? ">= 2^63" : "%lld", (long long)bound);
	snprintf(why, sizeof why,
	         "MACs depend on offs[G-1] (where the last group ends along %s), a tensor value "
	         "no trace records; torch ignores what lies past it: MACs <= M*K*N = %s, equal "
	         "when the groups cover all of %s%s",
	         s->jagged, num, s->jagged, other_too ? "; the epilogue likewise" : "");
	host->cost_explain(out, why);
	host->cost_set_missing(out, TLC_FIELD_MACS);
	if (other_too)
		host->cost_set_missing(out, TLC_FIELD_OTHER_FLOPS);
	return 0;
}

/* _grouped_mm(self, mat2, offs=None, bias=None, out_dtype=None) and
 * _scaled_grouped_mm(self, mat2, scale_a, scale_b, offs=None, bias=None,
 * scale_result=None, out_dtype=None, use_fast_accum=False), torch >= 2.8:
 * 3D x 3D is a bmm (G*M*K*N MACs, exact); with offsets the MACs are
 * partly known (grouped_missing). */
static int rule_grouped_mm(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	const grouped_spec *sp = payload;
	const tlc_tensor *a = host->tensor_arg(op, 0, "self");
	const tlc_tensor *b = host->tensor_arg(op, 1, "mat2");
	const tlc_tensor *offs = host->tensor_arg(op, sp->offs, "offs");
	int rc = need_tensor(out, host, a, 0, "self");
	if (rc == 0)
		rc = need_tensor(out, host, b, 0, "mat2");
	if (rc == 0)
		rc = need_partial(out, host);
	if (rc < 0)
		return rc;
	grouped_shape s;
	if (a->ndim < 2 || a->ndim > 3 || b->ndim < 2 || b->ndim > 3 ||
	    grouped_shape_of(&s, a, b, offs) < 0)
		return tlc_rules__bad(out, host, "grouped mm: self and mat2 must be 2-D or 3-D with "
		                      "matching K and groups, offs 1-D exactly when one is 2-D");
	int epilogue = host->tensor_arg(op, sp->bias, "bias") != NULL;
	const tlc_tensor *sa = NULL, *sb = NULL;
	if (sp->scaled) {
		sa = host->tensor_arg(op, 2, "scale_a");
		sb = host->tensor_arg(op, 3, "scale_b");
		if ((rc = need_tensor(out, host, sa, 0, "scale_a")) < 0 ||
		    (rc = need_tensor(out, host, sb, 0, "scale_b")) < 0)
			return rc;
		epilogue = 1;
	}
	if (s.jagged)
		rc = grouped_missing(out, host, &s, epilogue);
	else
		rc = grouped_exact(out, op, host, sp, &s, sa, sb);
	if (rc < 0)
		return rc;
	tlc_dtype dt = out_dtype_arg(op, host, sp->out_dtype,
	                             sp->scaled ? TLC_DTYPE_BFLOAT16 : a->dtype);
	return fp8_bytes(out, op, host, s.out, s.nout, dt);
}

#define P(x) ((const void *)&(x))
#define EXACT TLC_RULE_COST, TLC_EVIDENCE_FORMULA_EXACT
static const tlc_rules_entry matmul_rules[] = {
	{ "aten::mm", EXACT, rule_gemm, P(spec_mm), "macs = M*K*N" },
	{ "aten::addmm", EXACT, rule_gemm, P(spec_addmm),
	  "macs = M*K*N; other = M*N per: beta-term add (beta!=0), beta*self (beta not 0/1), alpha*product (alpha!=1)" },
	{ "aten::addmm_", EXACT, rule_gemm, P(spec_addmm), "as aten::addmm, in place" },
	{ "aten::bmm", EXACT, rule_gemm, P(spec_bmm), "macs = B*M*K*N" },
	{ "aten::baddbmm", EXACT, rule_gemm, P(spec_baddbmm), "macs = B*M*K*N; epilogue over B*M*N as addmm" },
	{ "aten::baddbmm_", EXACT, rule_gemm, P(spec_baddbmm), "as aten::baddbmm, in place" },
	{ "aten::addbmm", EXACT, rule_gemm, P(spec_addbmm), "macs = B*M*K*N (batch summed in the MACs); epilogue over M*N" },
	{ "aten::addbmm_", EXACT, rule_gemm, P(spec_addbmm), "as aten::addbmm, in place" },
	{ "aten::matmul", EXACT, rule_gemm, P(spec_matmul),
	  "macs = prod(broadcast batch)*M*K*N with 1-D operands promoted (dot: K, mv: M*K, vm: K*N)" },
	{ "aten::mv", EXACT, rule_gemm, P(spec_mv), "macs = M*K" },
	{ "aten::addmv", EXACT, rule_gemm, P(spec_addmv), "macs = M*K; epilogue over M as addmm" },
	{ "aten::addmv_", EXACT, rule_gemm, P(spec_addmv), "as aten::addmv, in place" },
	{ "aten::dot", EXACT, rule_gemm, P(spec_dot), "macs = K" },
	{ "aten::vdot", EXACT, rule_gemm, P(spec_dot), "macs = K (conjugation free)" },
	{ "aten::_int_mm", EXACT, rule_gemm, P(spec_mm), "int8 mm: macs = M*K*N" },
	{ "aten::linalg_matmul", EXACT, rule_gemm, P(spec_matmul), "alias of aten::matmul" },
#define DECOMP(n) { "aten::" n, TLC_RULE_DECOMPOSED, TLC_EVIDENCE_FORMULA_EXACT, NULL, NULL, \
	"composite of matrix products (cost = children)" }
	DECOMP("inner"), DECOMP("tensordot"), DECOMP("chain_matmul"), DECOMP("linalg_multi_dot"),
	DECOMP("bilinear"), DECOMP("kron"),
#undef DECOMP
	{ "aten::outer", EXACT, rule_outer, P(spec_outer), "macs = M*N (matmul with K = 1)" },
	{ "aten::ger", EXACT, rule_outer, P(spec_outer), "macs = M*N (matmul with K = 1)" },
	{ "aten::addr", EXACT, rule_outer, P(spec_addr), "macs = M*N; epilogue over M*N as addmm" },
	{ "aten::addr_", EXACT, rule_outer, P(spec_addr), "as aten::addr, in place" },
	{ "aten::linear", EXACT, rule_linear, NULL,
	  "macs = prod(input[:-1])*in*out; other = prod(input[:-1])*out with bias" },
	{ "aten::linear_backward", EXACT, rule_linear_backward, NULL,
	  "macs = numel(grad_output)*in per mask[0], mask[1]; other = numel(grad_output) per mask[2]" },
	{ "aten::_addmm_activation", EXACT, rule_addmm_activation, NULL,
	  "addmm + relu (1/elem) or gelu tanh form (9/elem, estimated)" },
	{ "aten::_scaled_mm", EXACT, rule_scaled_mm, NULL,
	  "macs = M*K*N; other = M*N + 1 (tensor-wise scales) or 2*M*N (row-wise), + M*N per bias "
	  "and per scale_result; block-wise scales: other_flops missing (partly known)" },
	{ "aten::_grouped_mm", EXACT, rule_grouped_mm, P(spec_grouped),
	  "3D x 3D: macs = G*M*K*N, + G*M*N per bias; with offs (2D x 3D, 3D x 2D, 2D x 2D) macs "
	  "depend on offs[G-1]: partly known, macs missing (<= M*K*N)" },
	{ "aten::_scaled_grouped_mm", EXACT, rule_grouped_mm, P(spec_scaled_grouped),
	  "3D x 3D: macs = G*M*K*N; row-wise scales 2*G*M*N; with offs: macs and the scaling "
	  "missing (partly known, macs <= M*K*N)" },
	{ "aten::einsum", EXACT, rule_einsum, NULL,
	  "pairwise contraction, given path or left to right: macs = prod(sizes of all labels of the pair); "
	  "other = adds summing labels unique to one operand" },
};
#undef EXACT
#undef P

int tlc_rules__matmul_init(tlc_plugin_ctx *ctx, const tlc_host *host)
{
	return tlc_rules__register_table(ctx, host, matmul_rules, TLC_RULES_COUNT(matmul_rules));
}
