/* Convolution rules: every aten convolution entry point of any spatial rank,
 * with groups, stride, padding, dilation, transposed, and
 * convolution_backward honouring its output_mask.
 *
 * Weight [Cout, Cin/groups, k...] (transposed: [Cin, Cout/groups, k...]).
 *   forward macs    = N * prod(out spatial) * numel(weight)
 *   transposed macs = N * prod(in spatial)  * numel(weight)
 *   (= N * Cin * prod(in) * Cout/groups * prod(k))
 *   bias other      = N * Cout * prod(out spatial) (one add per output element)
 *   backward        : grad_input and grad_weight each cost the forward MACs
 *                     (mask[0], mask[1]); grad_bias one add per grad_output
 *                     element (mask[2]).
 * Output spatial sizes come from the recorded output, else from the usual
 * formula. */
#include <string.h>
#include "rules.h"
#include "util.h"

#define NO (-1)

/* Where each parameter sits in an op's schema (NO = not in the schema). */
typedef struct conv_spec {
	int input, weight, bias;
	int stride, padding, dilation;
	int transposed;        /* index of the bool, or NO: use fixed_transposed */
	int fixed_transposed;
	int output_padding;
	int groups;
	int required;          /* stride/padding/dilation/groups have no defaults */
	int epilogue;          /* extra FLOPs per output element (fused relu, ...) */
} conv_spec;

/* Everything a count needs, resolved from the op. */
typedef struct conv_geom {
	size_t r;                         /* spatial rank */
	int batched;
	int64_t n, cin, cout, groups;
	int transposed;
	const int64_t *in_sp;             /* r entries */
	int64_t out_sp[TLC_RULES_MAX_DIMS]; /* computed output spatial sizes */
	const int64_t *osp;               /* the output's spatial sizes (r entries): out_sp,
	                                     in_sp ("same") or a recorded tensor's */
	const tlc_tensor *input, *weight;
	int out_from_shape;               /* osp points into a recorded tensor */
	const char *derived;              /* a parameter pinned by the shapes, or NULL */
} conv_geom;

/* Says which unrecorded parameters the shapes pinned (evidence of a known
 * count whose trace lacks them); nothing when all were recorded. */
static void conv_explain(tlc_cost *out, const tlc_host *host, const tlc_op *op,
                         const conv_spec *s, const conv_geom *g)
{
	int unrec = 0;
	const int pos[] = { s->stride, s->padding, s->dilation };
	for (size_t i = 0; i < 3; i++)
		if (pos[i] != NO && (size_t)pos[i] < op->nargs)
			unrec |= tlc_rules__unrecorded(&op->args[pos[i]]);
	if (unrec && g->out_from_shape)
		host->cost_explain(out, g->derived ?
			"stride/padding/dilation not recorded: output spatial sizes taken from the "
			"recorded output/grad_output shape; groups = Cin/weight[1] from the shapes" :
			"stride/padding/dilation not recorded: output spatial sizes taken from the "
			"recorded output/grad_output shape");
	else if (g->derived)
		host->cost_explain(out, "groups not recorded: groups = Cin/weight[1] from the shapes");
}

/* Int list parameter at index i (or kwarg name); NO gives the default. */
static int conv_param(tlc_cost *out, int64_t *v, size_t r, const tlc_op *op,
                      const tlc_host *host, int i, const char *name, int64_t dflt,
                      int required)
{
	if (i == NO) {
		for (size_t k = 0; k < r; k++)
			v[k] = dflt;
		return 0;
	}
	if (required && !host->arg(op, (size_t)i, name))
		return tlc_rules__missing_arg(out, host, op, name);
	int rc = host->int_list_arg(v, r, op, (size_t)i, name, dflt);
	return tlc_rules__arg_fail(out, host, op, rc, name, name[0] == 's' ? "bad stride" :
	                           name[0] == 'p' ? "bad padding" : name[0] == 'd' ?
	                           "bad dilation" : "bad output_padding");
}

/* Computed output spatial sizes (no output recorded). */
static int conv_out_formula(tlc_cost *out, conv_geom *g, const conv_spec *s,
                            const tlc_op *op, const tlc_host *host)
{
	int64_t st[TLC_RULES_MAX_DIMS], pad[TLC_RULES_MAX_DIMS], dil[TLC_RULES_MAX_DIMS];
	int64_t opad[TLC_RULES_MAX_DIMS];
	size_t r = g->r;
	const int64_t *k = g->weight->shape + 2;
	int rc = conv_param(out, st, r, op, host, s->stride, "stride", 1, s->required);
	if (rc == 0)
		rc = conv_param(out, dil, r, op, host, s->dilation, "dilation", 1, s->required);
	if (rc < 0)
		return rc;
	const char *mode = NULL;
	/* padding is an int list or (the .padding overloads) "same"/"valid" */
	if (s->padding != NO &&
	    tlc_rules__string_arg(&mode, op, host, (size_t)s->padding, "padding", NULL) ==
	            TLC_RULE_MISSING_ARGS)
		return tlc_rules__missing_arg(out, host, op, "padding");
	if (mode && strcmp(mode, "same") == 0) {
		g->osp = g->in_sp;
		return 0;
	}
	if (mode && strcmp(mode, "valid") == 0) {
		for (size_t d = 0; d < r; d++)
			pad[d] = 0;
	} else if ((rc = conv_param(out, pad, r, op, host, s->padding, "padding", 0,
	                            s->required)) < 0) {
		return rc;
	}
	/* output_padding shapes only a transposed convolution's output */
	if ((rc = conv_param(out, opad, r, op, host, g->transposed ? s->output_padding : NO,
	                     "output_padding", 0, s->required && g->transposed)) < 0)
		return rc;
	g->osp = g->out_sp;
	for (size_t d = 0; d < r; d++) {
		if (st[d] < 1 || dil[d] < 1 || pad[d] < 0 || opad[d] < 0)
			return tlc_rules__bad(out, host, "stride/dilation < 1 or negative padding");
		/* the host's helper, with overflow checks (sizes come from the input) */
		if (host->conv_out_size(&g->out_sp[d], g->in_sp[d], k[d], st[d], pad[d], dil[d],
		                        opad[d], g->transposed) < 0)
			return tlc_rules__bad(out, host, "kernel larger than padded input, or sizes overflow");
	}
	return 0;
}

/* Resolves shapes, groups and channels; `outt` is the tensor whose spatial
 * sizes are the output's (forward output or grad_output), or NULL. */
static int conv_geom_of(tlc_cost *out, conv_geom *g, const conv_spec *s, const tlc_op *op,
                        const tlc_host *host, const tlc_tensor *outt)
{
	/* every other field is set below before a successful return reads it
	 * (zeroing out_sp's TLC_RULES_MAX_DIMS entries per call is waste) */
	g->out_from_shape = 0;
	g->derived = NULL;
	g->input = host->tensor_arg(op, (size_t)s->input, "input");
	g->weight = host->tensor_arg(op, (size_t)s->weight, "weight");
	if (!g->input || !g->weight)
		return tlc_rules__missing(out, host, "missing input or weight shape");
	const tlc_tensor *x = g->input, *w = g->weight;
	if (w->ndim < 3 || w->ndim - 2 > TLC_RULES_MAX_DIMS)
		return tlc_rules__bad(out, host, "weight must be [Cout, Cin/groups, k...]");
	g->r = w->ndim - 2;
	if (x->ndim != g->r + 2 && x->ndim != g->r + 1)
		return tlc_rules__bad(out, host, "input rank %zu does not fit a %zu-D kernel", x->ndim, g->r);
	g->batched = x->ndim == g->r + 2;
	g->n = g->batched ? x->shape[0] : 1;
	g->cin = x->shape[g->batched ? 1 : 0];
	g->in_sp = x->shape + (g->batched ? 2 : 1);
	g->transposed = s->fixed_transposed;
	int rc = s->transposed == NO ? 0 :
		tlc_rules__bool_arg_or(&g->transposed, op, host, (size_t)s->transposed,
		                       "transposed", s->fixed_transposed);
	if (rc < 0)
		return tlc_rules__arg_fail(out, host, op, rc, "transposed", "transposed is not a bool");
	int64_t groups = 1;
	rc = s->groups == NO ? 0 :
		host->int_arg_or(&groups, op, (size_t)s->groups, "groups", 1);
	if (rc == TLC_RULE_MISSING_ARGS && !g->transposed && w->shape[1] > 0 &&
	    g->cin % w->shape[1] == 0) {
		/* weight is [Cout, Cin/groups, k...]: the shapes pin groups exactly */
		groups = g->cin / w->shape[1];
		rc = 0;
		g->derived = "groups = Cin/weight[1] from the shapes";
	}
	if (rc < 0)
		return tlc_rules__arg_fail(out, host, op, rc, "groups", "groups is not a positive int");
	if (groups < 1)
		return tlc_rules__bad(out, host, "groups is not a positive int");
	g->groups = groups;
	int64_t wg;
	if (__builtin_mul_overflow(w->shape[1], groups, &wg))
		return tlc_rules__bad(out, host, "weight[1]*groups overflows");
	if (g->transposed) {
		g->cout = wg;
		if (w->shape[0] != g->cin || g->cin % groups)
			return tlc_rules__bad(out, host, "transposed: weight[0] must be Cin, divisible by groups");
	} else {
		g->cout = w->shape[0];
		if (wg != g->cin || g->cout % groups)
			return tlc_rules__bad(out, host, "weight[1]*groups must be Cin and Cout divisible by groups");
	}
	if (outt && outt->ndim == x->ndim) {
		/* the output's spatial sizes are the count's: stride, padding and
		 * dilation are not needed (nor read) */
		g->osp = outt->shape + (g->batched ? 2 : 1);
		g->out_from_shape = 1;
		return 0;
	}
	return conv_out_formula(out, g, s, op, host);
}

/* N * prod(spatial) * numel(weight), with the output or input spatial dims. */
static void conv_macs_term(tlc_rules_term *t, const conv_geom *g)
{
	tlc_rules__term_init(t);
	tlc_rules__term_mul(t, g->n);
	tlc_rules__term_mul_shape(t, g->transposed ? g->in_sp : g->osp, g->r);
	tlc_rules__term_mul_numel(t, g->weight);
}

/* N * Cout * prod(out spatial): elements of the output. */
static void conv_out_term(tlc_rules_term *t, const conv_geom *g)
{
	tlc_rules__term_init(t);
	tlc_rules__term_mul(t, g->n);
	tlc_rules__term_mul(t, g->cout);
	tlc_rules__term_mul_shape(t, g->osp, g->r);
}

static void conv_out_shape(int64_t *shape, size_t *n, const conv_geom *g)
{
	*n = 0;
	if (g->batched)
		shape[(*n)++] = g->n;
	shape[(*n)++] = g->cout;
	memcpy(shape + *n, g->osp, g->r * sizeof shape[0]);
	*n += g->r;
}

static int rule_conv(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	const conv_spec *s = payload;
	conv_geom g;
	int rc = conv_geom_of(out, &g, s, op, host, tlc_rules__tensor_out(op, 0));
	if (rc < 0)
		return rc;
	conv_explain(out, host, op, s, &g);
	tlc_rules_term t;
	conv_macs_term(&t, &g);
	if ((rc = tlc_rules__term_add(out, host, TLC_FIELD_MACS, 1, &t)) < 0)
		return rc;
	int has_bias = s->bias != NO && host->tensor_arg(op, (size_t)s->bias, "bias");
	int64_t per = (has_bias ? 1 : 0) + s->epilogue;
	conv_out_term(&t, &g);
	if ((rc = tlc_rules__term_add(out, host, TLC_FIELD_OTHER_FLOPS, per, &t)) < 0)
		return rc;
	if ((rc = host->read_inputs(out, op)) < 0)
		return rc;
	if ((op->flags & TLC_OP_HAS_OUTPUTS) && op->noutputs > 0)
		return host->write_outputs(out, op, NULL);
	int64_t shape[TLC_RULES_MAX_DIMS + 2];
	size_t n;
	conv_out_shape(shape, &n, &g);
	return tlc_rules__write_shape(out, host, shape, n, g.input->dtype);
}

/* Backward: the spec's input/weight plus grad_output (index 0) and mask. */
typedef struct conv_bwd_spec {
	conv_spec fwd;
	int grad_output, mask;
	int legacy_mask; /* output_mask has 2 entries (grad_input, grad_weight): no bias */
} conv_bwd_spec;

static int conv_bwd_write(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                          const conv_bwd_spec *s, const int *mask, const conv_geom *g,
                          const tlc_tensor *go)
{
	if ((op->flags & TLC_OP_HAS_OUTPUTS) && op->noutputs > 0)
		return host->write_outputs(out, op, NULL);
	const tlc_value *iv = host->arg(op, (size_t)s->fwd.input, "input");
	const tlc_value *wv = host->arg(op, (size_t)s->fwd.weight, "weight");
	int rc = 0;
	if (mask[0] && (rc = host->cost_add_bytes(out, TLC_FIELD_BYTES_WRITTEN, iv)) < 0)
		return rc;
	if (mask[1] && (rc = host->cost_add_bytes(out, TLC_FIELD_BYTES_WRITTEN, wv)) < 0)
		return rc;
	if (mask[2])
		rc = tlc_rules__write_shape(out, host, &g->cout, 1, go->dtype);
	return rc;
}

static int rule_conv_backward(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                              void *payload)
{
	const conv_bwd_spec *s = payload;
	const tlc_tensor *go = host->tensor_arg(op, (size_t)s->grad_output, "grad_output");
	int mask[3] = { 0, 0, 0 };
	size_t nm = 0, want = s->legacy_mask ? 2 : 3;
	if (!go)
		return tlc_rules__missing(out, host, "missing grad_output shape");
	int rc = tlc_rules__bool_list_arg(mask, 3, &nm, op, host, (size_t)s->mask, "output_mask");
	if ((rc = tlc_rules__arg_fail(out, host, op, rc, "output_mask", "bad output_mask")) < 0)
		return rc;
	if (nm != want)
		return tlc_rules__bad(out, host, s->legacy_mask ? "output_mask must have 2 entries" :
		                      "output_mask must have 3 entries");
	if (s->legacy_mask)
		mask[2] = 0;
	conv_geom g;
	if ((rc = conv_geom_of(out, &g, &s->fwd, op, host, go)) < 0)
		return rc;
	conv_explain(out, host, op, &s->fwd, &g);
	if (go->ndim != g.input->ndim)
		return tlc_rules__bad(out, host, "grad_output rank differs from input rank");
	tlc_rules_term t;
	conv_macs_term(&t, &g);
	if ((rc = tlc_rules__term_add(out, host, TLC_FIELD_MACS, mask[0] + mask[1], &t)) < 0)
		return rc;
	if (mask[2]) {
		tlc_rules__term_init(&t);
		tlc_rules__term_mul_numel(&t, go);
		if ((rc = tlc_rules__term_add(out, host, TLC_FIELD_OTHER_FLOPS, 1, &t)) < 0)
			return rc;
	}
	if ((rc = host->read_inputs(out, op)) < 0)
		return rc;
	return conv_bwd_write(out, op, host, s, mask, &g, go);
}

/*                                  in w  bias stride pad dil  tr fixtr opad grp req epi */
static const conv_spec spec_convolution = { 0, 1, 2, 3, 4, 5, 6, 0, 7, 8, 1, 0 };
static const conv_spec spec_convnd = { 0, 1, 2, 3, 4, 5, NO, 0, NO, 6, 0, 0 };
static const conv_spec spec_conv_tnd = { 0, 1, 2, 3, 4, 7, NO, 1, 5, 6, 0, 0 };
static const conv_spec spec_cudnn = { 0, 1, NO, 3, 2, 4, NO, 0, NO, 5, 1, 0 };
static const conv_spec spec_cudnn_t = { 0, 1, NO, 4, 2, 5, NO, 1, 3, 6, 1, 0 };
static const conv_spec spec_cudnn_relu = { 0, 1, 2, 3, 4, 5, NO, 0, NO, 6, 1, 1 };
static const conv_spec spec_mkldnn = { 0, 1, 2, 4, 3, 5, NO, 0, NO, 6, 1, 0 };
static const conv_spec spec_miopen_t = { 0, 1, 2, 5, 3, 6, NO, 1, 4, 7, 1, 0 };
static const conv_spec spec_slow = { 0, 1, 3, 4, 5, NO, NO, 0, NO, NO, 1, 0 };
static const conv_spec spec_slow_dil = { 0, 1, 3, 4, 5, 6, NO, 0, NO, NO, 1, 0 };
static const conv_spec spec_slow_t = { 0, 1, 3, 4, 5, 7, NO, 1, 6, NO, 1, 0 };
static const conv_spec spec_nnpack = { 0, 1, 2, 4, 3, NO, NO, 0, NO, NO, 0, 0 };

/* convolution_backward(grad_output, input, weight, bias_sizes, stride, padding,
 * dilation, transposed, output_padding, groups, output_mask) */
static const conv_bwd_spec spec_conv_bwd = { { 1, 2, NO, 4, 5, 6, 7, 0, 8, 9, 1, 0 }, 0, 10, 0 };
/* convolution_backward_overrideable: the same without bias_sizes */
static const conv_bwd_spec spec_conv_bwd_ovr = { { 1, 2, NO, 3, 4, 5, 6, 0, 7, 8, 1, 0 }, 0, 9, 0 };
/* _slow_conv2d_backward.output_mask(grad_output, self, weight, kernel_size,
 * stride, padding, output_mask) */
static const conv_bwd_spec spec_slow_bwd = { { 1, 2, NO, 4, 5, NO, NO, 0, NO, NO, 1, 0 }, 0, 6, 0 };

/* Legacy cuDNN backward (torch <= 1.10; 2021 traces): cudnn_convolution_backward(
 * self, grad_output, weight, padding, stride, dilation, groups, benchmark,
 * deterministic, allow_tf32, output_mask[2]) */
static const conv_bwd_spec spec_cudnn_bwd = { { 0, 2, NO, 4, 3, 5, NO, 0, NO, 6, 1, 0 }, 1, 10, 1 };

/* Shape of an int[] size argument (self_size / weight_size), or 0 entries
 * when it was not recorded. */
static int size_arg(int64_t *v, size_t *n, const tlc_op *op, const tlc_host *host, size_t i,
                    const char *name)
{
	*n = 0;
	const tlc_value *a = host->arg(op, i, name);
	if (!a || tlc_rules__unrecorded(a))
		return TLC_RULE_MISSING_ARGS;
	int rc = tlc_rules__int_list(v, TLC_RULES_MAX_DIMS, n, a);
	for (size_t k = 0; rc == 0 && k < *n; k++)
		if (v[k] < 0)
			rc = TLC_RULE_BAD_ARGS;
	return rc;
}

/* cudnn_convolution_backward_input(self_size, grad_output, weight, padding,
 * stride, dilation, groups, ...): the grad_input of a conv, whose MACs are the
 * forward's: N * prod(grad_output spatial) * numel(weight). grad_output pins
 * the output sizes, so stride/padding/dilation are not needed; the result is
 * self_size-shaped (bytes unknown when self_size was not recorded). */
static int rule_cudnn_bwd_input(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                                void *payload)
{
	(void)payload;
	const tlc_tensor *go = host->tensor_arg(op, 1, "grad_output");
	const tlc_tensor *w = host->tensor_arg(op, 2, "weight");
	if (!go || !w)
		return tlc_rules__missing(out, host, "missing grad_output or weight shape");
	if (w->ndim < 3 || go->ndim != w->ndim || go->shape[1] != w->shape[0])
		return tlc_rules__bad(out, host, "grad_output must be [N, Cout, out...] for weight [Cout, Cin/groups, k...]");
	tlc_rules_term t;
	tlc_rules__term_init(&t);
	tlc_rules__term_mul(&t, go->shape[0]);
	tlc_rules__term_mul_dims(&t, go, 2, go->ndim);
	tlc_rules__term_mul_numel(&t, w);
	int rc = tlc_rules__term_add(out, host, TLC_FIELD_MACS, 1, &t);
	if (rc == 0)
		rc = host->read_inputs(out, op);
	if (rc < 0)
		return rc;
	if ((op->flags & TLC_OP_HAS_OUTPUTS) && op->noutputs > 0)
		return host->write_outputs(out, op, NULL);
	int64_t sz[TLC_RULES_MAX_DIMS];
	size_t n;
	rc = size_arg(sz, &n, op, host, 0, "self_size");
	if (rc == TLC_RULE_MISSING_ARGS) {
		host->cost_explain(out, "MACs from grad_output and weight; self_size not recorded: "
		                   "bytes written unknown");
		return tlc_rules__bytes_unknown(out, host, TLC_FIELD_BYTES_WRITTEN);
	}
	if (rc < 0)
		return tlc_rules__bad(out, host, "bad self_size");
	return tlc_rules__write_shape(out, host, sz, n, go->dtype);
}

/* cudnn_convolution_backward_weight(weight_size, grad_output, self, padding,
 * stride, dilation, groups, ...): grad_weight, the forward's MACs
 * N * prod(grad_output spatial) * prod(weight_size). Without weight_size the
 * kernel size is not known: missing_args. */
static int rule_cudnn_bwd_weight(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                                 void *payload)
{
	(void)payload;
	const tlc_tensor *go = host->tensor_arg(op, 1, "grad_output");
	const tlc_tensor *x = host->tensor_arg(op, 2, "self");
	if (!go || !x)
		return tlc_rules__missing(out, host, "missing grad_output or self shape");
	int64_t sz[TLC_RULES_MAX_DIMS];
	size_t n;
	int rc = size_arg(sz, &n, op, host, 0, "weight_size");
	if (rc < 0)
		return tlc_rules__arg_fail(out, host, op, rc, "weight_size (the kernel size)",
		                           "bad weight_size");
	if (n < 3 || go->ndim != n || x->ndim != n || go->shape[1] != sz[0])
		return tlc_rules__bad(out, host, "weight_size must be [Cout, Cin/groups, k...] of grad_output's rank");
	tlc_rules_term t;
	tlc_rules__term_init(&t);
	tlc_rules__term_mul(&t, go->shape[0]);
	tlc_rules__term_mul_dims(&t, go, 2, go->ndim);
	tlc_rules__term_mul_shape(&t, sz, n);
	rc = tlc_rules__term_add(out, host, TLC_FIELD_MACS, 1, &t);
	if (rc == 0)
		rc = host->read_inputs(out, op);
	if (rc < 0)
		return rc;
	if ((op->flags & TLC_OP_HAS_OUTPUTS) && op->noutputs > 0)
		return host->write_outputs(out, op, NULL);
	return tlc_rules__write_shape(out, host, sz, n, go->dtype);
}

#define P(x) ((const void *)&(x))
#define EXACT TLC_RULE_COST, TLC_EVIDENCE_FORMULA_EXACT
#define FWD_NOTE "macs = N*prod(out sp)*numel(W) (transposed: N*prod(in sp)*numel(W)); other = N*Cout*prod(out sp) with bias"
static const tlc_rules_entry conv_rules[] = {
	{ "aten::convolution", EXACT, rule_conv, P(spec_convolution), FWD_NOTE },
	{ "aten::_convolution", EXACT, rule_conv, P(spec_convolution), FWD_NOTE },
	{ "aten::convolution_overrideable", EXACT, rule_conv, P(spec_convolution), FWD_NOTE },
	{ "aten::conv1d", EXACT, rule_conv, P(spec_convnd), FWD_NOTE },
	{ "aten::conv2d", EXACT, rule_conv, P(spec_convnd), FWD_NOTE },
	{ "aten::conv3d", EXACT, rule_conv, P(spec_convnd), FWD_NOTE },
	{ "aten::_convolution_mode", EXACT, rule_conv, P(spec_convnd), FWD_NOTE },
	{ "aten::conv_transpose1d", EXACT, rule_conv, P(spec_conv_tnd), FWD_NOTE },
	{ "aten::conv_transpose2d", EXACT, rule_conv, P(spec_conv_tnd), FWD_NOTE },
	{ "aten::conv_transpose3d", EXACT, rule_conv, P(spec_conv_tnd), FWD_NOTE },
	{ "aten::cudnn_convolution", EXACT, rule_conv, P(spec_cudnn), FWD_NOTE },
	{ "aten::cudnn_convolution_transpose", EXACT, rule_conv, P(spec_cudnn_t), FWD_NOTE },
	{ "aten::cudnn_convolution_relu", EXACT, rule_conv, P(spec_cudnn_relu),
	  FWD_NOTE "; relu: +1 per output element" },
	{ "aten::mkldnn_convolution", EXACT, rule_conv, P(spec_mkldnn), FWD_NOTE },
	{ "aten::miopen_convolution", EXACT, rule_conv, P(spec_mkldnn), FWD_NOTE },
	{ "aten::miopen_depthwise_convolution", EXACT, rule_conv, P(spec_mkldnn), FWD_NOTE },
	{ "aten::_mps_convolution", EXACT, rule_conv, P(spec_mkldnn), FWD_NOTE },
	{ "aten::miopen_convolution_transpose", EXACT, rule_conv, P(spec_miopen_t), FWD_NOTE },
	{ "aten::_slow_conv2d_forward", EXACT, rule_conv, P(spec_slow), FWD_NOTE },
	{ "aten::thnn_conv2d", EXACT, rule_conv, P(spec_slow), FWD_NOTE },
	{ "aten::slow_conv3d", EXACT, rule_conv, P(spec_slow), FWD_NOTE },
	{ "aten::slow_conv3d_forward", EXACT, rule_conv, P(spec_slow), FWD_NOTE },
	{ "aten::slow_conv_dilated2d", EXACT, rule_conv, P(spec_slow_dil), FWD_NOTE },
	{ "aten::slow_conv_dilated3d", EXACT, rule_conv, P(spec_slow_dil), FWD_NOTE },
	{ "aten::slow_conv_transpose2d", EXACT, rule_conv, P(spec_slow_t), FWD_NOTE },
	{ "aten::slow_conv_transpose3d", EXACT, rule_conv, P(spec_slow_t), FWD_NOTE },
	{ "aten::_nnpack_spatial_convolution", EXACT, rule_conv, P(spec_nnpack), FWD_NOTE },
	{ "aten::convolution_backward", EXACT, rule_conv_backward, P(spec_conv_bwd),
	  "macs = forward macs per mask[0] (grad_input) and mask[1] (grad_weight); other = numel(grad_output) per mask[2]" },
	{ "aten::convolution_backward_overrideable", EXACT, rule_conv_backward, P(spec_conv_bwd_ovr),
	  "as aten::convolution_backward" },
	{ "aten::_slow_conv2d_backward", EXACT, rule_conv_backward, P(spec_slow_bwd),
	  "as aten::convolution_backward" },
	{ "aten::cudnn_convolution_backward", EXACT, rule_conv_backward, P(spec_cudnn_bwd),
	  "legacy: macs = forward macs per output_mask[0] (grad_input) and [1] (grad_weight)" },
	{ "aten::cudnn_convolution_backward_input", EXACT, rule_cudnn_bwd_input, NULL,
	  "macs = N*prod(grad_output sp)*numel(W) (the forward's)" },
	{ "aten::cudnn_convolution_backward_weight", EXACT, rule_cudnn_bwd_weight, NULL,
	  "macs = N*prod(grad_output sp)*prod(weight_size) (the forward's)" },
};
#undef FWD_NOTE
#undef EXACT
#undef P

int tlc_rules__conv_init(tlc_plugin_ctx *ctx, const tlc_host *host)
{
	return tlc_rules__register_table(ctx, host, conv_rules, TLC_RULES_COUNT(conv_rules));
}
