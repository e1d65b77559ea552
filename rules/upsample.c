/* Upsample / interpolate rules, forward and backward.
 *
 * Nearest modes gather: no arithmetic (the source index arithmetic is
 * integer bookkeeping and not counted), formula_exact with cost 0.
 * Interpolating modes blend T taps per output element with precomputed
 * weights: T multiplies + (T - 1) adds = 2T - 1 per output element
 * (estimated: per-row/column weight computation is not counted).
 * T = 2 (linear), 4 (bilinear), 8 (trilinear), 16 (bicubic).
 * Backward: nearest adds each grad_output element once into grad_input
 * (1 per grad_output element, exact); interpolating modes scatter T
 * weighted contributions (2T per grad_output element, estimated).
 *
 * Registered names (each with its .vec overload where ATen has one, which
 * the plain-name rule covers):
 *   upsample_nearest1d upsample_nearest2d upsample_nearest3d
 *   _upsample_nearest_exact1d _upsample_nearest_exact2d _upsample_nearest_exact3d
 *   upsample_linear1d upsample_bilinear2d upsample_bicubic2d upsample_trilinear3d
 *   and every one of them with _backward
 *   grid_sampler_2d grid_sampler_2d_backward (estimated; see gs_* below)
 */
#include <math.h>
#include <string.h>
#include "rules.h"
#include "util.h"

#define EX TLC_EVIDENCE_FORMULA_EXACT
#define ES TLC_EVIDENCE_ESTIMATED

typedef struct up_spec {
	size_t nd;       /* spatial dims */
	int64_t taps;    /* 0 = nearest */
	size_t vec_scale_pos; /* scale_factors position in the .vec overload */
} up_spec;

/* Output shape of a forward upsample: recorded output, else leading dims of
 * the input + output_size (arg 1), else floor(in * scale_factors). */
static int fwd_shape(int64_t *shape, const tlc_op *op, const tlc_host *host,
                     const tlc_tensor *x, const up_spec *s)
{
	const tlc_tensor *r = tlc_rules__tensor_out(op, 0);
	size_t lead = x->ndim - s->nd;
	if (r) {
		if (r->ndim != x->ndim)
			return TLC_RULE_BAD_ARGS;
		memcpy(shape, r->shape, r->ndim * sizeof shape[0]);
		return 0;
	}
	memcpy(shape, x->shape, lead * sizeof shape[0]);
	if (host->arg(op, 1, "output_size"))
		return host->int_list_arg(shape + lead, s->nd, op, 1, "output_size", 0);
	const tlc_value *sf = host->arg(op, s->vec_scale_pos, "scale_factors");
	if (!sf)
		return TLC_RULE_MISSING_ARGS;
	if (sf->kind != TLC_VALUE_LIST || (sf->u.list.n != s->nd && sf->u.list.n != 1))
		return TLC_RULE_BAD_ARGS;
	for (size_t i = 0; i < s->nd; i++) {
		const tlc_value *e = &sf->u.list.items[sf->u.list.n == 1 ? 0 : i];
		double f = e->kind == TLC_VALUE_FLOAT ? e->u.real
		         : e->kind == TLC_VALUE_INT ? (double)e->u.integer : -1.0;
		double v = floor((double)x->shape[lead + i] * f);
		if (!(f > 0.0) || !(v < 9.0e18))
			return TLC_RULE_BAD_ARGS;
		shape[lead + i] = (int64_t)v;
	}
	return 0;
}

static int up_fwd(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	const up_spec *s = payload;
	const tlc_tensor *x = host->tensor_arg(op, 0, "input");
	int64_t shape[5];
	if (!x)
		return tlc_rules__missing(out, host, "missing input tensor");
	if (x->ndim != s->nd + 2 && x->ndim != s->nd + 1)
		return tlc_rules__bad(out, host, "input must have %zu or %zu dims", s->nd + 1,
		                      s->nd + 2);
	int rc = fwd_shape(shape, op, host, x, s);
	if (rc < 0)
		return tlc_rules__need(out, host, rc, "output_size or scale_factors");
	if (s->taps == 0)
		host->cost_explain(out, "nearest: a gather, no arithmetic");
	else if (host->cost_add(out, TLC_FIELD_OTHER_FLOPS, 2 * s->taps - 1, x->ndim, shape) < 0)
		return tlc_rules__bad(out, host, "bad output shape");
	rc = host->read_inputs(out, op);
	if (rc == 0 && (op->flags & TLC_OP_HAS_OUTPUTS) && op->noutputs > 0)
		rc = host->write_outputs(out, op, NULL);
	else if (rc == 0)
		rc = tlc_rules__write_shape(out, host, shape, x->ndim, x->dtype);
	return tlc_rules__need(out, host, rc, "tensors");
}

/* backward(grad_output, output_size, input_size, ...): grad_input has
 * input_size (arg 2) in grad_output's dtype. */
static int up_bwd(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	const up_spec *s = payload;
	const tlc_tensor *go = host->tensor_arg(op, 0, "grad_output");
	if (!go)
		return tlc_rules__missing(out, host, "missing grad_output tensor");
	int64_t k = s->taps == 0 ? 1 : 2 * s->taps;
	if (host->cost_add_numel(out, TLC_FIELD_OTHER_FLOPS, k, go) < 0)
		return tlc_rules__bad(out, host, "bad grad_output shape");
	int rc = host->read_inputs(out, op);
	if (rc < 0)
		return tlc_rules__need(out, host, rc, "tensors");
	if ((op->flags & TLC_OP_HAS_OUTPUTS) && op->noutputs > 0)
		return tlc_rules__need(out, host, host->write_outputs(out, op, NULL),
		                       "outputs");
	int64_t in[5];
	size_t n = 0;
	rc = tlc_rules__int_list(in, 5, &n, host->arg(op, 2, "input_size"));
	if (rc < 0 || n != go->ndim)
		return tlc_rules__write_shape(out, host, NULL, 0, TLC_DTYPE_NONE);
	return tlc_rules__need(out, host, tlc_rules__write_shape(out, host, in, n, go->dtype),
	                       "input_size");
}

/* ---- grid_sampler_2d ---------------------------------------------------- */

/* Per sampled location (N*Hg*Wg): unnormalize 2 coords (4), padding-mode
 * clamp/reflect (4 when padding_mode != zeros), then the mode's own work:
 * bilinear floor, frac, 1-frac and 4 weight products (10), nearest rounding
 * (2), bicubic floor, frac and 2x4 cubic coefficients (4 + 48). Taps per
 * channel: bilinear 4, nearest 0 (a gather), bicubic 16. All estimated. */
static const int64_t gs_taps[3] = { 4, 0, 16 };
static const int64_t gs_loc[3] = { 10, 2, 52 };

/* Reads mode, padding mode; fills taps and per-location cost. */
static int gs_mode(int64_t *taps, int64_t *loc, const tlc_op *op, const tlc_host *host)
{
	int64_t mode = 0, pad = 0;
	int rc = host->int_arg_or(&mode, op, 2, "interpolation_mode", 0);
	if (rc == 0)
		rc = host->int_arg_or(&pad, op, 3, "padding_mode", 0);
	if (rc < 0)
		return rc;
	if (mode < 0 || mode > 2 || pad < 0 || pad > 2)
		return TLC_RULE_BAD_ARGS;
	*taps = gs_taps[mode];
	*loc = 4 + (pad != 0 ? 4 : 0) + gs_loc[mode];
	return 0;
}

/* Shapes: input [N, C, H, W], grid [N, Hg, Wg, 2]; term_loc = N*Hg*Wg. */
static int gs_shapes(tlc_rules_term *loc, int64_t *channels, const tlc_tensor *x,
                     const tlc_tensor *grid)
{
	if (!x || !grid || x->ndim != 4 || grid->ndim != 4 || grid->shape[3] != 2 ||
	    grid->shape[0] != x->shape[0])
		return TLC_RULE_BAD_ARGS;
	tlc_rules__term_mul_dims(loc, grid, 0, 3);
	*channels = x->shape[1];
	return 0;
}

/* grid_sampler_2d(input, grid, interpolation_mode, padding_mode, align_corners) */
static int gs_fwd(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)payload;
	const tlc_tensor *x = host->tensor_arg(op, 0, "input");
	const tlc_tensor *grid = host->tensor_arg(op, 1, "grid");
	int64_t taps = 0, loc = 0, c = 0;
	tlc_rules_term t;
	tlc_rules__term_init(&t);
	if (!x || !grid)
		return tlc_rules__missing(out, host, "missing input or grid tensor");
	int rc = gs_mode(&taps, &loc, op, host);
	if (rc == TLC_RULE_MISSING_ARGS)
		return tlc_rules__missing_arg(out, host, op, "interpolation/padding mode");
	if (rc < 0 || gs_shapes(&t, &c, x, grid) < 0)
		return tlc_rules__bad(out, host, "bad mode or shapes (input 4-d, grid [N,H,W,2])");
	rc = tlc_rules__term_add(out, host, TLC_FIELD_OTHER_FLOPS, loc, &t);
	tlc_rules__term_mul(&t, c);
	if (rc == 0 && taps)
		rc = tlc_rules__term_add(out, host, TLC_FIELD_OTHER_FLOPS, 2 * taps - 1, &t);
	if (rc < 0)
		return tlc_rules__bad(out, host, "bad shape");
	int64_t shape[4] = { x->shape[0], c, grid->shape[1], grid->shape[2] };
	rc = host->read_inputs(out, op);
	if (rc == 0 && (op->flags & TLC_OP_HAS_OUTPUTS) && op->noutputs > 0)
		rc = host->write_outputs(out, op, NULL);
	else if (rc == 0)
		rc = tlc_rules__write_shape(out, host, shape, 4, x->dtype);
	return tlc_rules__need(out, host, rc, "tensors");
}

/* grid_sampler_2d_backward(grad_output, input, grid, mode, padding, align_corners,
 * output_mask): grad_input 2T per grad element (T multiplies, T scatter adds);
 * grad_grid 4T per grad element (value*grad for x and y, accumulated) plus
 * the location recompute and a 4-op chain rule per location. */
static int gs_bwd(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)payload;
	const tlc_tensor *x = host->tensor_arg(op, 1, "input");
	const tlc_tensor *grid = host->tensor_arg(op, 2, "grid");
	int64_t taps = 0, loc = 0, c = 0;
	int mask[2] = { 1, 1 };
	size_t nm = 0;
	tlc_rules_term t;
	tlc_rules__term_init(&t);
	if (!x || !grid || !host->tensor_arg(op, 0, "grad_output"))
		return tlc_rules__missing(out, host, "missing grad_output, input or grid tensor");
	if (host->arg(op, 6, "output_mask") || tlc_rules__observed(op)) {
		int mrc = tlc_rules__bool_list_arg(mask, 2, &nm, op, host, 6, "output_mask");
		if (mrc < 0)
			return tlc_rules__arg_fail(out, host, op, mrc, "output_mask", "bad output_mask");
	}
	/* the mode sits one position later than in the forward op */
	int64_t mode = 0, pad = 0;
	int mrc = host->int_arg_or(&mode, op, 3, "interpolation_mode", 0);
	if (mrc == 0)
		mrc = host->int_arg_or(&pad, op, 4, "padding_mode", 0);
	if (mrc < 0)
		return tlc_rules__arg_fail(out, host, op, mrc, "interpolation/padding mode",
		                           "bad mode or shapes (input 4-d, grid [N,H,W,2])");
	if (mode < 0 ||
	    mode > 2 || pad < 0 || pad > 2 || gs_shapes(&t, &c, x, grid) < 0)
		return tlc_rules__bad(out, host, "bad mode or shapes (input 4-d, grid [N,H,W,2])");
	taps = gs_taps[mode];
	loc = 4 + (pad != 0 ? 4 : 0) + gs_loc[mode];
	int grid_grad = mask[1] && taps;
	int rc = tlc_rules__term_add(out, host, TLC_FIELD_OTHER_FLOPS,
	                             loc + (grid_grad ? 4 : 0), &t);
	tlc_rules__term_mul(&t, c);
	int64_t per = (mask[0] ? (taps ? 2 * taps : 1) : 0) + (grid_grad ? 4 * taps : 0);
	if (rc == 0 && per)
		rc = tlc_rules__term_add(out, host, TLC_FIELD_OTHER_FLOPS, per, &t);
	if (rc < 0)
		return tlc_rules__bad(out, host, "bad shape");
	rc = tlc_rules__io_bytes(out, op, host, NULL);
	if (rc == TLC_RULE_MISSING_ARGS)
		return tlc_rules__write_shape(out, host, NULL, 0, TLC_DTYPE_NONE);
	return tlc_rules__need(out, host, rc, "tensors");
}

static const up_spec n1 = { 1, 0, 2 }, n2 = { 2, 0, 2 }, n3 = { 3, 0, 2 };
static const up_spec l1 = { 1, 2, 3 }, l2 = { 2, 4, 3 }, l3 = { 3, 8, 3 }, c2 = { 2, 16, 3 };

#define U(name, fn, spec, ev, note) { name, TLC_RULE_COST, ev, fn, &spec, note }
#define NEAR "0: nearest is a gather"
#define NEARB "numel(grad_output) adds"

static const tlc_rules_entry rules[] = {
	U("aten::upsample_nearest1d", up_fwd, n1, EX, NEAR),
	U("aten::upsample_nearest2d", up_fwd, n2, EX, NEAR),
	U("aten::upsample_nearest3d", up_fwd, n3, EX, NEAR),
	U("aten::_upsample_nearest_exact1d", up_fwd, n1, EX, NEAR),
	U("aten::_upsample_nearest_exact2d", up_fwd, n2, EX, NEAR),
	U("aten::_upsample_nearest_exact3d", up_fwd, n3, EX, NEAR),
	U("aten::upsample_linear1d", up_fwd, l1, ES, "3 * numel(out): 2 taps"),
	U("aten::upsample_bilinear2d", up_fwd, l2, ES, "7 * numel(out): 4 taps"),
	U("aten::upsample_trilinear3d", up_fwd, l3, ES, "15 * numel(out): 8 taps"),
	U("aten::upsample_bicubic2d", up_fwd, c2, ES, "31 * numel(out): 16 taps"),
	U("aten::upsample_nearest1d_backward", up_bwd, n1, EX, NEARB),
	U("aten::upsample_nearest2d_backward", up_bwd, n2, EX, NEARB),
	U("aten::upsample_nearest3d_backward", up_bwd, n3, EX, NEARB),
	U("aten::_upsample_nearest_exact1d_backward", up_bwd, n1, EX, NEARB),
	U("aten::_upsample_nearest_exact2d_backward", up_bwd, n2, EX, NEARB),
	U("aten::_upsample_nearest_exact3d_backward", up_bwd, n3, EX, NEARB),
	U("aten::upsample_linear1d_backward", up_bwd, l1, ES, "4 * numel(grad_output)"),
	U("aten::upsample_bilinear2d_backward", up_bwd, l2, ES, "8 * numel(grad_output)"),
	U("aten::upsample_trilinear3d_backward", up_bwd, l3, ES, "16 * numel(grad_output)"),
	U("aten::upsample_bicubic2d_backward", up_bwd, c2, ES, "32 * numel(grad_output)"),
	{ "aten::grid_sampler_2d", TLC_RULE_COST, ES, gs_fwd, NULL,
	  "per location coords + mode; per output element 2T-1 (T = 4, 0, 16)" },
	{ "aten::grid_sampler_2d_backward", TLC_RULE_COST, ES, gs_bwd, NULL,
	  "grad_input 2T, grad_grid 4T per grad element; per location recompute + 4" },
};

#undef U

int tlc_rules__upsample_init(tlc_plugin_ctx *ctx, const tlc_host *host)
{
	return tlc_rules__register_table(ctx, host, rules, TLC_RULES_COUNT(rules));
}
