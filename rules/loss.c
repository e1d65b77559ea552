/* Loss rules, forward and backward.
 *
 * n = elements of the loss input (self). Reduction (ATen enum): none (0)
 * adds nothing, sum (2) adds n - 1, mean (1) adds n - 1 adds + 1 divide = n.
 * Backward with reduction mean multiplies by 1/n: + n.
 *
 * Registered names (other_flops; MACs are 0; E = estimated):
 *   mse_loss                       2n + red          mse_loss_backward        3n
 *   l1_loss                        2n + red
 *   smooth_l1_loss                 6n + red          smooth_l1_loss_backward  6n (+n mean)
 *   huber_loss                     7n + red          huber_loss_backward      7n (+n mean)
 *   binary_cross_entropy           10n + n[w] + red (E)
 *   binary_cross_entropy_backward  6n + n[w] (+n mean)
 *   binary_cross_entropy_with_logits 10n + n[w] + 4n[pos_weight] + red (E)
 *   kl_div                         3n + red (E)
 *   nll_loss_forward nll_loss2d_forward nll_loss nll_loss_nd nll_loss2d
 *       t = numel(target): t(1 + [w]) + sum: t - 1; mean: t + [w](t - 1)
 *   nll_loss_backward nll_loss2d_backward    t(1 + [w] + [mean])
 *   cross_entropy_loss   log_softmax 5 numel(self) + nll over class targets;
 *       probability targets: 5N + 2N + N[w] + red(rows); label smoothing adds
 *       N + N[w] + 3t + red(t) (class targets) or 2N (probability targets) (E)
 * Targets equal to ignore_index are data: every target is counted.
 */
#include <string.h>
#include "rules.h"
#include "util.h"

#define EX TLC_EVIDENCE_FORMULA_EXACT
#define ES TLC_EVIDENCE_ESTIMATED

enum { RED_NONE = 0, RED_MEAN = 1, RED_SUM = 2 };

/* ---- shared pieces --------------------------------------------------- */

static int reduction_arg(int64_t *red, const tlc_op *op, const tlc_host *host, size_t pos)
{
	int rc = host->int_arg_or(red, op, pos, "reduction", RED_MEAN);
	if (rc < 0)
		return rc;
	return *red < 0 || *red > 2 ? TLC_RULE_BAD_ARGS : 0;
}

/* other_flops += the reduction of n = prod(shape) values: sum n - 1, mean n. */
static int add_reduction(tlc_cost *out, const tlc_host *host, int64_t red,
                         const int64_t *shape, size_t nd)
{
	for (size_t i = 0; i < nd; i++)
		if (shape[i] == 0)
			return 0;
	if (red == RED_NONE)
		return 0;
	int rc = host->cost_add(out, TLC_FIELD_OTHER_FLOPS, 1, nd, shape);
	if (rc == 0 && red == RED_SUM)
		rc = host->cost_add(out, TLC_FIELD_OTHER_FLOPS, -1, 0, NULL);
	return rc;
}

/* Inputs once; the recorded outputs, else `shape` (n dims; NULL = a 0-d
 * loss) in dtype d, plus `extra_scalars` 0-d values of d (nll's
 * total_weight). */
static int loss_bytes(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                      const int64_t *shape, size_t n, tlc_dtype d, int extra_scalars)
{
	int rc = host->read_inputs(out, op);
	if (rc < 0)
		return tlc_rules__need(out, host, rc, "tensors");
	if ((op->flags & TLC_OP_HAS_OUTPUTS) && op->noutputs > 0)
		return tlc_rules__need(out, host, host->write_outputs(out, op, NULL),
		                       "outputs");
	rc = tlc_rules__write_shape(out, host, shape, shape ? n : 0, d);
	for (int i = 0; rc == 0 && i < extra_scalars; i++)
		rc = tlc_rules__write_shape(out, host, NULL, 0, d);
	return tlc_rules__need(out, host, rc, "output shape");
}

/* ---- elementwise losses ---------------------------------------------- */

typedef struct ew_spec {
	int backward;        /* args start with grad_output */
	int64_t k;           /* per element */
	int weight_pos;      /* -1: none */
	int pos_weight_pos;  /* -1: none */
	size_t red_pos;
	int mean_scale;      /* backward: + n for the 1/n of reduction mean */
} ew_spec;

#define K_POS_WEIGHT 4 /* (pw - 1) * y + 1, times the log term */

static int ew_loss(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	const ew_spec *s = payload;
	size_t self_pos = s->backward ? 1 : 0;
	const tlc_tensor *x = host->tensor_arg(op, self_pos, "self");
	int64_t red = RED_MEAN;
	if (!x)
		return tlc_rules__missing(out, host, "missing self tensor");
	int rrc = reduction_arg(&red, op, host, s->red_pos);
	if (rrc < 0)
		return tlc_rules__arg_fail(out, host, op, rrc, "reduction", "bad reduction");
	int64_t k = s->k;
	if (s->weight_pos >= 0 && host->tensor_arg(op, (size_t)s->weight_pos, "weight"))
		k += 1;
	if (s->pos_weight_pos >= 0 &&
	    host->tensor_arg(op, (size_t)s->pos_weight_pos, "pos_weight"))
		k += K_POS_WEIGHT;
	if (s->backward && red == RED_MEAN && s->mean_scale)
		k += 1; /* times 1/n */
	int rc = host->cost_add_numel(out, TLC_FIELD_OTHER_FLOPS, k, x);
	if (rc == 0 && !s->backward)
		rc = add_reduction(out, host, red, x->shape, x->ndim);
	if (rc < 0)
		return tlc_rules__bad(out, host, "bad shape");
	int full = s->backward || red == RED_NONE;
	return loss_bytes(out, op, host, full ? x->shape : NULL, x->ndim, x->dtype, 0);
}

/* ---- nll / cross entropy ----------------------------------------------- */

/* nll over t targets with optional weight: see the header. */
static int add_nll(tlc_cost *out, const tlc_host *host, const tlc_tensor *target, int w,
                   int64_t red)
{
	int rc = host->cost_add_numel(out, TLC_FIELD_OTHER_FLOPS, 1 + w, target);
	if (rc < 0)
		return rc;
	for (size_t i = 0; i < target->ndim; i++)
		if (target->shape[i] == 0)
			return 0;
	if (red == RED_NONE)
		return 0;
	rc = add_reduction(out, host, red == RED_SUM ? RED_SUM : RED_MEAN, target->shape,
	                   target->ndim);
	if (rc == 0 && red == RED_MEAN && w) /* total weight: t - 1 adds */
		rc = add_reduction(out, host, RED_SUM, target->shape, target->ndim);
	return rc;
}

/* nll_loss_forward(self, target, weight, reduction, ignore_index) and the
 * composite nll_loss / nll_loss_nd / nll_loss2d with the same arguments. */
static int nll_fwd(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)payload;
	const tlc_tensor *t = host->tensor_arg(op, 1, "target");
	int64_t red = RED_MEAN;
	if (!host->tensor_arg(op, 0, "self") || !t)
		return tlc_rules__missing(out, host, "missing self or target tensor");
	int rrc = reduction_arg(&red, op, host, 3);
	if (rrc < 0)
		return tlc_rules__arg_fail(out, host, op, rrc, "reduction", "bad reduction");
	int w = host->tensor_arg(op, 2, "weight") != NULL;
	if (add_nll(out, host, t, w, red) < 0)
		return tlc_rules__bad(out, host, "bad target shape");
	const tlc_tensor *x = host->tensor_arg(op, 0, "self");
	/* (output, total_weight): output target-shaped for 'none', else 0-d */
	int total = strstr(op->name, "_forward") != NULL;
	return loss_bytes(out, op, host, red == RED_NONE ? t->shape : NULL, t->ndim, x->dtype,
	                  total);
}

/* nll_loss_backward(grad_output, self, target, weight, reduction, ignore_index,
 * total_weight): -grad (* w) (/ total_weight) per target. */
static int nll_bwd(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)payload;
	const tlc_tensor *t = host->tensor_arg(op, 2, "target");
	int64_t red = RED_MEAN;
	if (!t)
		return tlc_rules__missing(out, host, "missing target tensor");
	int rrc = reduction_arg(&red, op, host, 4);
	if (rrc < 0)
		return tlc_rules__arg_fail(out, host, op, rrc, "reduction", "bad reduction");
	int w = host->tensor_arg(op, 3, "weight") != NULL;
	int64_t k = 1 + w + (red == RED_MEAN);
	if (host->cost_add_numel(out, TLC_FIELD_OTHER_FLOPS, k, t) < 0)
		return tlc_rules__bad(out, host, "bad target shape");
	const tlc_tensor *x = host->tensor_arg(op, 1, "self");
	if (!x)
		return tlc_rules__missing(out, host, "missing self tensor");
	return loss_bytes(out, op, host, x->shape, x->ndim, x->dtype, 0);
}

/* cross_entropy_loss(self, target, weight, reduction, ignore_index, label_smoothing) */
static int ce_loss(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)payload;
	const tlc_tensor *x = host->tensor_arg(op, 0, "self");
	const tlc_tensor *t = host->tensor_arg(op, 1, "target");
	int64_t red = RED_MEAN;
	double ls = 0.0;
	if (!x || !t)
		return tlc_rules__missing(out, host, "missing self or target tensor");
	int rc = reduction_arg(&red, op, host, 3);
	if (rc == 0)
		rc = tlc_rules__real_arg_or(&ls, op, host, 5, "label_smoothing", 0.0);
	if (rc < 0)
		return tlc_rules__arg_fail(out, host, op, rc, "reduction or label_smoothing",
		                           "bad reduction or label_smoothing");
	int w = host->tensor_arg(op, 2, "weight") != NULL;
	int prob = t->ndim == x->ndim && t->dtype != TLC_DTYPE_INT64 && t->dtype != TLC_DTYPE_INT32;
	size_t cdim = x->ndim >= 2 ? 1 : 0;
	if (x->ndim == 0)
		return tlc_rules__bad(out, host, "self must have a class dim");
	/* rows: self without its class dim */
	int64_t rows[TLC_RULES_MAX_DIMS];
	size_t nr = 0;
	for (size_t i = 0; i < x->ndim && nr < TLC_RULES_MAX_DIMS; i++)
		if (i != cdim)
			rows[nr++] = x->shape[i];
	rc = host->cost_add_numel(out, TLC_FIELD_OTHER_FLOPS, TLC_RULES_K_SOFTMAX_FWD, x);
	if (rc == 0 && prob) { /* -sum(target * logp): multiply, add; weight multiply */
		rc = host->cost_add_numel(out, TLC_FIELD_OTHER_FLOPS, 2 + w + (ls > 0 ? 2 : 0), x);
		if (rc == 0)
			rc = add_reduction(out, host, red, rows, nr);
	} else if (rc == 0) {
		rc = add_nll(out, host, t, w, red);
		if (rc == 0 && ls > 0) { /* smooth term: sum over classes, combine, reduce */
			rc = host->cost_add_numel(out, TLC_FIELD_OTHER_FLOPS, 1 + w, x);
			if (rc == 0)
				rc = host->cost_add_numel(out, TLC_FIELD_OTHER_FLOPS, 3, t);
			if (rc == 0)
				rc = add_reduction(out, host, red, t->shape, t->ndim);
		}
	}
	if (rc < 0)
		return tlc_rules__bad(out, host, "bad shape");
	/* 'none': one loss per row (the target's shape for class targets) */
	if (red != RED_NONE)
		return loss_bytes(out, op, host, NULL, 0, x->dtype, 0);
	return prob ? loss_bytes(out, op, host, rows, nr, x->dtype, 0)
	            : loss_bytes(out, op, host, t->shape, t->ndim, x->dtype, 0);
}

/* ---- registration ----------------------------------------------------- */

/* mse backward folds 1/n into its 2/n factor: no extra term for mean */
static const ew_spec mse = { 0, 2, -1, -1, 2, 0 }, mse_b = { 1, 3, -1, -1, 3, 0 };
static const ew_spec l1 = { 0, 2, -1, -1, 2, 0 };
static const ew_spec sl1 = { 0, 6, -1, -1, 2, 0 }, sl1_b = { 1, 6, -1, -1, 3, 1 };
static const ew_spec hub = { 0, 7, -1, -1, 2, 0 }, hub_b = { 1, 7, -1, -1, 3, 1 };
static const ew_spec bce = { 0, 10, 2, -1, 3, 0 }, bce_b = { 1, 6, 3, -1, 4, 1 };
static const ew_spec bcel = { 0, 10, 2, 3, 4, 0 };
static const ew_spec kl = { 0, 3, -1, -1, 2, 0 };

#define L(name, fn, spec, ev, note) { name, TLC_RULE_COST, ev, fn, spec, note }

static const tlc_rules_entry rules[] = {
	L("aten::mse_loss", ew_loss, &mse, EX, "2n (subtract, square) + reduction"),
	L("aten::mse_loss_backward", ew_loss, &mse_b, EX, "3n: (x - y) * 2/n * grad"),
	L("aten::l1_loss", ew_loss, &l1, EX, "2n (subtract, abs) + reduction"),
	L("aten::smooth_l1_loss", ew_loss, &sl1, EX, "6n + reduction"),
	L("aten::smooth_l1_loss_backward", ew_loss, &sl1_b, EX, "6n (+n for mean)"),
	L("aten::huber_loss", ew_loss, &hub, EX, "7n + reduction"),
	L("aten::huber_loss_backward", ew_loss, &hub_b, EX, "7n (+n for mean)"),
	L("aten::binary_cross_entropy", ew_loss, &bce, ES, "10n + n[weight] + reduction"),
	L("aten::binary_cross_entropy_backward", ew_loss, &bce_b, EX,
	  "6n + n[weight] (+n for mean)"),
	L("aten::binary_cross_entropy_with_logits", ew_loss, &bcel, ES,
	  "10n + n[weight] + 4n[pos_weight] + reduction"),
	L("aten::kl_div", ew_loss, &kl, ES, "3n + reduction"),
	L("aten::nll_loss_forward", nll_fwd, NULL, EX, "t(1 + [w]) + reduction"),
	L("aten::nll_loss2d_forward", nll_fwd, NULL, EX, "t(1 + [w]) + reduction"),
	L("aten::nll_loss", nll_fwd, NULL, EX, "t(1 + [w]) + reduction"),
	L("aten::nll_loss_nd", nll_fwd, NULL, EX, "t(1 + [w]) + reduction"),
	L("aten::nll_loss2d", nll_fwd, NULL, EX, "t(1 + [w]) + reduction"),
	L("aten::nll_loss_backward", nll_bwd, NULL, EX, "t(1 + [w] + [mean])"),
	L("aten::nll_loss2d_backward", nll_bwd, NULL, EX, "t(1 + [w] + [mean])"),
	L("aten::cross_entropy_loss", ce_loss, NULL, ES, "log_softmax 5N + nll (+ smoothing)"),
};

#undef L

int tlc_rules__loss_init(tlc_plugin_ctx *ctx, const tlc_host *host)
{
	return tlc_rules__register_table(ctx, host, rules, TLC_RULES_COUNT(rules));
}
