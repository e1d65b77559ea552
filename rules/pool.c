/* Pooling rules: max, average and adaptive pooling of 1 to 3 spatial dims,
 * with indices, and their backward ops.
 *
 * Windows are counted exactly: for every output position only the window
 * elements that lie inside the input count (padding, dilation and ceil_mode
 * honoured). Windows are separable, so the sum over all outputs of the
 * window size c is the product over spatial dims of the per-dim sums S_d,
 * times the batch (all leading dims). With O = number of outputs per batch
 * item and E = outputs whose window holds at least one element:
 *
 *   max pool (and adaptive max)          compares  S - E   (c - 1 per window)
 *   avg pool (and adaptive avg)          adds+div  S + (O - E)  (c - 1 adds, 1 divide)
 *   max pool backward (all forms)        adds      numel(grad_output)
 *   avg pool backward (and adaptive)     numel(grad_output) divides + S adds
 *
 * Registered names:
 *   max_pool1d max_pool2d max_pool3d max_pool1d_with_indices max_pool2d_with_indices
 *   max_pool2d_backward
 *   max_pool3d_with_indices max_pool2d_with_indices_backward
 *   max_pool3d_with_indices_backward avg_pool1d avg_pool2d avg_pool3d
 *   avg_pool2d_backward avg_pool3d_backward adaptive_avg_pool1d
 *   adaptive_avg_pool2d adaptive_avg_pool3d _adaptive_avg_pool2d
 *   _adaptive_avg_pool3d _adaptive_avg_pool2d_backward
 *   _adaptive_avg_pool3d_backward adaptive_max_pool1d adaptive_max_pool2d
 *   adaptive_max_pool3d adaptive_max_pool2d_backward adaptive_max_pool3d_backward
 */
#include <string.h>
#include "rules.h"
#include "util.h"

#define EX TLC_EVIDENCE_FORMULA_EXACT

/* Largest spatial size or window parameter handled exactly; per-dim sums
 * loop over output positions. */
#define POOL_MAX_SIZE ((int64_t)1 << 31)
#define POOL_MAX_OUT ((int64_t)1 << 24)

typedef enum pool_kind {
	POOL_MAX,          /* max_poolNd(self, kernel, stride, padding, dilation, ceil) */
	POOL_AVG,          /* avg_poolNd(self, kernel, stride, padding, ceil, cip, div) */
	POOL_ADAPT_AVG,    /* adaptive_avg_poolNd(self, output_size) */
	POOL_ADAPT_MAX,    /* adaptive_max_poolNd(self, output_size) */
	POOL_MAX_BWD,      /* (grad, self, kernel, stride, padding, dilation, ceil, indices) */
	POOL_AVG_BWD,      /* (grad, self, kernel, stride, padding, ceil, cip, div) */
	POOL_ADAPT_AVG_BWD, /* (grad, self) */
	POOL_ADAPT_MAX_BWD  /* (grad, self, indices) */
} pool_kind;

typedef struct pool_spec {
	size_t nd;      /* spatial dims */
	pool_kind kind;
	int indices;    /* forward also writes int64 indices */
} pool_spec;

typedef struct pool_geom {
	size_t nd;
	int64_t in[3], out[3], ker[3], str[3], pad[3], dil[3];
	int ceil;
} pool_geom;

/* ---- geometry --------------------------------------------------------- */

static int in_range(int64_t v, int64_t lo) { return v >= lo && v <= POOL_MAX_SIZE; }

/* Output size of one dim (PyTorch's pooling_output_shape). */
static int out_size(int64_t *o, int64_t in, int64_t k, int64_t s, int64_t p, int64_t d,
                    int ceil)
{
	int64_t num = in + 2 * p - d * (k - 1) - 1;
	if (num < 0)
		return TLC_RULE_BAD_ARGS;
	int64_t n = (ceil ? num + s - 1 : num) / s + 1;
	if (ceil && (n - 1) * s >= in + p)
		n--;
	*o = n;
	return n > POOL_MAX_OUT ? TLC_RULE_BAD_ARGS : 0;
}

/* Sum over output positions of window elements inside [0, in), and the
 * number of non-empty windows. */
static void window_sums(int64_t *sum, int64_t *nonempty, int64_t in, int64_t out,
                        int64_t k, int64_t s, int64_t p, int64_t d)
{
	*sum = 0;
	*nonempty = 0;
	for (int64_t o = 0; o < out; o++) {
		int64_t start = o * s - p;
		int64_t lo = start >= 0 ? 0 : (-start + d - 1) / d;
		int64_t hi = start > in - 1 ? -1 : (in - 1 - start) / d;
		if (hi > k - 1)
			hi = k - 1;
		if (hi >= lo) {
			*sum += hi - lo + 1;
			(*nonempty)++;
		}
	}
}

/* Adaptive windows: [floor(o*in/out), ceil((o+1)*in/out)). */
static void adaptive_sums(int64_t *sum, int64_t in, int64_t out)
{
	*sum = 0;
	for (int64_t o = 0; o < out; o++) {
		int64_t a = (o * in) / out;
		int64_t b = ((o + 1) * in + out - 1) / out;
		*sum += b - a;
	}
}

/* An int list arg of exactly nd entries; an empty list or absent gives dflt
 * (dflt NULL: required). */
static int geom_list(int64_t *out, size_t nd, const tlc_op *op, const tlc_host *host,
                     size_t pos, const char *name, const int64_t *dflt, int64_t fill)
{
	const tlc_value *v = host->arg(op, pos, name);
	int given = 0;
	if (!v && tlc_rules__given(&given, op, host, pos, name) < 0)
		return TLC_RULE_MISSING_ARGS; /* a trace that lists fewer arguments */
	if (!v || (v->kind == TLC_VALUE_LIST && v->u.list.n == 0)) {
		if (!dflt && fill < 0)
			return TLC_RULE_MISSING_ARGS;
		for (size_t i = 0; i < nd; i++)
			out[i] = dflt ? dflt[i] : fill;
		return 0;
	}
	return host->int_list_arg(out, nd, op, pos, name, 0);
}

/* Window parameters starting at arg `at` (kernel, stride, padding, then
 * dilation for max pools, then ceil_mode). */
static int geom_window(pool_geom *g, const tlc_op *op, const tlc_host *host, size_t at,
                       int has_dilation)
{
	int rc = geom_list(g->ker, g->nd, op, host, at, "kernel_size", NULL, -1);
	if (rc == 0)
		rc = geom_list(g->str, g->nd, op, host, at + 1, "stride", g->ker, -1);
	if (rc == 0)
		rc = geom_list(g->pad, g->nd, op, host, at + 2, "padding", NULL, 0);
	if (rc == 0 && has_dilation)
		rc = geom_list(g->dil, g->nd, op, host, at + 3, "dilation", NULL, 1);
	else
		for (size_t i = 0; i < g->nd; i++)
			g->dil[i] = 1;
	if (rc == 0)
		rc = tlc_rules__bool_arg_or(&g->ceil, op, host, at + 3 + (has_dilation != 0),
		                            "ceil_mode", 0);
	if (rc < 0)
		return rc;
	for (size_t i = 0; i < g->nd; i++)
		if (!in_range(g->ker[i], 1) || !in_range(g->str[i], 1) || !in_range(g->pad[i], 0) ||
		    !in_range(g->dil[i], 1))
			return TLC_RULE_BAD_ARGS;
	return 0;
}

/* Spatial input sizes from x (its last nd dims); batch term from the rest. */
static int geom_input(pool_geom *g, tlc_rules_term *batch, const tlc_tensor *x)
{
	if (x->ndim < g->nd + 1 || x->ndim > g->nd + 2)
		return TLC_RULE_BAD_ARGS;
	size_t lead = x->ndim - g->nd;
	tlc_rules__term_mul_dims(batch, x, 0, lead);
	for (size_t i = 0; i < g->nd; i++) {
		g->in[i] = x->shape[lead + i];
		if (!in_range(g->in[i], 0))
			return TLC_RULE_BAD_ARGS;
	}
	return 0;
}

/* ---- counting --------------------------------------------------------- */

/* Per-dim sums S_d and non-empty counts E_d for the geometry. */
static void geom_sums(int64_t *S, int64_t *E, const pool_geom *g, int adaptive)
{
	for (size_t i = 0; i < g->nd; i++) {
		if (adaptive) {
			adaptive_sums(&S[i], g->in[i], g->out[i]);
			E[i] = g->in[i] > 0 ? g->out[i] : 0;
		} else {
			window_sums(&S[i], &E[i], g->in[i], g->out[i], g->ker[i], g->str[i],
			            g->pad[i], g->dil[i]);
		}
	}
}

/* other_flops += batch * (a*prod S + b*prod E + c*prod O). */
static int add_counts(tlc_cost *out, const tlc_host *host, const tlc_rules_term *batch,
                      const pool_geom *g, int adaptive, int64_t a, int64_t b, int64_t c)
{
	int64_t S[3], E[3];
	const int64_t *sets[3] = { S, E, g->out };
	const int64_t coef[3] = { a, b, c };
	geom_sums(S, E, g, adaptive);
	for (int k = 0; k < 3; k++) {
		if (coef[k] == 0)
			continue;
		tlc_rules_term t = *batch;
		tlc_rules__term_mul_shape(&t, sets[k], g->nd);
		if (tlc_rules__term_add(out, host, TLC_FIELD_OTHER_FLOPS, coef[k], &t) < 0)
			return TLC_RULE_BAD_ARGS;
	}
	return 0;
}

/* Bytes: inputs once; outputs as recorded, else the computed pooled tensor
 * (self's dtype) plus int64 indices when the op returns them. */
static int pool_bytes(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                      const tlc_tensor *x, const pool_geom *g, int indices)
{
	int rc = host->read_inputs(out, op);
	if (rc < 0)
		return tlc_rules__need(out, host, rc, "input tensors");
	if ((op->flags & TLC_OP_HAS_OUTPUTS) && op->noutputs > 0)
		return tlc_rules__need(out, host, host->write_outputs(out, op, NULL),
		                       "outputs");
	int64_t shape[5];
	size_t lead = x->ndim - g->nd;
	memcpy(shape, x->shape, lead * sizeof shape[0]);
	memcpy(shape + lead, g->out, g->nd * sizeof shape[0]);
	rc = tlc_rules__write_shape(out, host, shape, x->ndim, x->dtype);
	if (rc == 0 && indices)
		rc = tlc_rules__write_shape(out, host, shape, x->ndim, TLC_DTYPE_INT64);
	return tlc_rules__need(out, host, rc, "output shape");
}

/* ---- rule functions --------------------------------------------------- */

static int pool_fwd(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	const pool_spec *s = payload;
	pool_geom g;
	tlc_rules_term batch;
	memset(&g, 0, sizeof g);
	g.nd = s->nd;
	tlc_rules__term_init(&batch);
	const tlc_tensor *x = host->tensor_arg(op, 0, "self");
	if (!x)
		return tlc_rules__missing(out, host, "missing self tensor");
	if (geom_input(&g, &batch, x) < 0)
		return tlc_rules__bad(out, host, "input must have %zu or %zu dims", s->nd + 1,
		                      s->nd + 2);
	int adaptive = s->kind == POOL_ADAPT_AVG || s->kind == POOL_ADAPT_MAX;
	int rc;
	if (adaptive) {
		rc = geom_list(g.out, g.nd, op, host, 1, "output_size", NULL, -1);
		for (size_t i = 0; rc == 0 && i < g.nd; i++)
			if (g.out[i] < 0 || g.out[i] > POOL_MAX_OUT || (g.out[i] == 0 && g.in[i] > 0))
				rc = TLC_RULE_BAD_ARGS;
	} else {
		rc = geom_window(&g, op, host, 1, s->kind == POOL_MAX);
		for (size_t i = 0; rc == 0 && i < g.nd; i++)
			rc = out_size(&g.out[i], g.in[i], g.ker[i], g.str[i], g.pad[i], g.dil[i], g.ceil);
	}
	if (rc < 0)
		return tlc_rules__arg_fail(out, host, op, rc, "pooling parameters", "bad pooling parameters");
	if (s->kind == POOL_MAX || s->kind == POOL_ADAPT_MAX)
		rc = add_counts(out, host, &batch, &g, adaptive, 1, -1, 0);
	else
		rc = add_counts(out, host, &batch, &g, adaptive, 1, -1, 1);
	if (rc < 0)
		return tlc_rules__bad(out, host, "bad shape");
	return pool_bytes(out, op, host, x, &g, s->indices);
}

static int pool_bwd(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	const pool_spec *s = payload;
	const tlc_tensor *go = host->tensor_arg(op, 0, "grad_output");
	const tlc_tensor *x = host->tensor_arg(op, 1, "self");
	if (!go || !x)
		return tlc_rules__missing(out, host, "missing grad_output or self tensor");
	int rc = host->cost_add_numel(out, TLC_FIELD_OTHER_FLOPS, 1, go);
	if (rc < 0)
		return tlc_rules__bad(out, host, "bad grad_output shape");
	if (s->kind == POOL_AVG_BWD || s->kind == POOL_ADAPT_AVG_BWD) {
		pool_geom g;
		tlc_rules_term batch;
		memset(&g, 0, sizeof g);
		g.nd = s->nd;
		tlc_rules__term_init(&batch);
		if (geom_input(&g, &batch, x) < 0 || go->ndim != x->ndim)
			return tlc_rules__bad(out, host, "grad_output and self must have %zu or %zu dims",
			                      s->nd + 1, s->nd + 2);
		for (size_t i = 0; i < g.nd; i++)
			g.out[i] = go->shape[go->ndim - g.nd + i];
		rc = s->kind == POOL_AVG_BWD ? geom_window(&g, op, host, 2, 0) : 0;
		for (size_t i = 0; rc == 0 && i < g.nd; i++)
			if (g.out[i] > POOL_MAX_OUT)
				rc = TLC_RULE_BAD_ARGS;
		if (rc < 0)
			return tlc_rules__arg_fail(out, host, op, rc, "pooling parameters", "bad pooling parameters");
		if (add_counts(out, host, &batch, &g, s->kind == POOL_ADAPT_AVG_BWD, 1, 0, 0) < 0)
			return tlc_rules__bad(out, host, "bad shape");
	}
	rc = host->read_inputs(out, op);
	if (rc < 0)
		return tlc_rules__need(out, host, rc, "input tensors");
	if ((op->flags & TLC_OP_HAS_OUTPUTS) && op->noutputs > 0)
		rc = host->write_outputs(out, op, NULL);
	else /* grad_input: self's shape in grad_output's dtype */
		rc = tlc_rules__write_shape(out, host, x->shape, x->ndim, go->dtype);
	return tlc_rules__need(out, host, rc, "outputs");
}

/* ---- registration ----------------------------------------------------- */

static const pool_spec mp1 = { 1, POOL_MAX, 0 }, mp2 = { 2, POOL_MAX, 0 },
                       mp3 = { 3, POOL_MAX, 0 };
static const pool_spec mpi1 = { 1, POOL_MAX, 1 }, mpi2 = { 2, POOL_MAX, 1 },
                       mpi3 = { 3, POOL_MAX, 1 };
static const pool_spec mpb2 = { 2, POOL_MAX_BWD, 0 }, mpb3 = { 3, POOL_MAX_BWD, 0 };
static const pool_spec ap1 = { 1, POOL_AVG, 0 }, ap2 = { 2, POOL_AVG, 0 },
                       ap3 = { 3, POOL_AVG, 0 };
static const pool_spec apb2 = { 2, POOL_AVG_BWD, 0 }, apb3 = { 3, POOL_AVG_BWD, 0 };
static const pool_spec aap1 = { 1, POOL_ADAPT_AVG, 0 }, aap2 = { 2, POOL_ADAPT_AVG, 0 },
                       aap3 = { 3, POOL_ADAPT_AVG, 0 };
static const pool_spec aapb2 = { 2, POOL_ADAPT_AVG_BWD, 0 },
                       aapb3 = { 3, POOL_ADAPT_AVG_BWD, 0 };
static const pool_spec amp1 = { 1, POOL_ADAPT_MAX, 1 }, amp2 = { 2, POOL_ADAPT_MAX, 1 },
                       amp3 = { 3, POOL_ADAPT_MAX, 1 };
static const pool_spec ampb2 = { 2, POOL_ADAPT_MAX_BWD, 0 },
                       ampb3 = { 3, POOL_ADAPT_MAX_BWD, 0 };

#define P(name, fn, spec, note) { name, TLC_RULE_COST, EX, fn, &spec, note }
#define MAXN "compares: sum over windows of (elements inside input - 1)"
#define AVGN "sum over windows of elements inside input (adds + 1 divide)"
#define MBWN "numel(grad_output) adds (scatter to argmax)"
#define ABWN "numel(grad_output) divides + window elements adds"

static const tlc_rules_entry rules[] = {
	P("aten::max_pool1d", pool_fwd, mp1, MAXN),
	P("aten::max_pool2d", pool_fwd, mp2, MAXN),
	P("aten::max_pool3d", pool_fwd, mp3, MAXN),
	P("aten::max_pool1d_with_indices", pool_fwd, mpi1, MAXN),
	P("aten::max_pool2d_with_indices", pool_fwd, mpi2, MAXN),
	P("aten::max_pool3d_with_indices", pool_fwd, mpi3, MAXN),
	P("aten::max_pool2d_with_indices_backward", pool_bwd, mpb2, MBWN),
	P("aten::max_pool2d_backward", pool_bwd, mpb2, MBWN),
	P("aten::max_pool3d_with_indices_backward", pool_bwd, mpb3, MBWN),
	P("aten::avg_pool1d", pool_fwd, ap1, AVGN),
	P("aten::avg_pool2d", pool_fwd, ap2, AVGN),
	P("aten::avg_pool3d", pool_fwd, ap3, AVGN),
	P("aten::avg_pool2d_backward", pool_bwd, apb2, ABWN),
	P("aten::avg_pool3d_backward", pool_bwd, apb3, ABWN),
	P("aten::adaptive_avg_pool1d", pool_fwd, aap1, AVGN),
	P("aten::adaptive_avg_pool2d", pool_fwd, aap2, AVGN),
	P("aten::adaptive_avg_pool3d", pool_fwd, aap3, AVGN),
	P("aten::_adaptive_avg_pool2d", pool_fwd, aap2, AVGN),
	P("aten::_adaptive_avg_pool3d", pool_fwd, aap3, AVGN),
	P("aten::_adaptive_avg_pool2d_backward", pool_bwd, aapb2, ABWN),
	P("aten::_adaptive_avg_pool3d_backward", pool_bwd, aapb3, ABWN),
	P("aten::adaptive_max_pool1d", pool_fwd, amp1, MAXN),
	P("aten::adaptive_max_pool2d", pool_fwd, amp2, MAXN),
	P("aten::adaptive_max_pool3d", pool_fwd, amp3, MAXN),
	P("aten::adaptive_max_pool2d_backward", pool_bwd, ampb2, MBWN),
	P("aten::adaptive_max_pool3d_backward", pool_bwd, ampb3, MBWN),
};

#undef P

int tlc_rules__pool_init(tlc_plugin_ctx *ctx, const tlc_host *host)
{
	return tlc_rules__register_table(ctx, host, rules, TLC_RULES_COUNT(rules));
}
