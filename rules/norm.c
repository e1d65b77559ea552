/* Normalisation rules: layer, batch, group, instance and RMS norm and their
 * backward ops; softmax and log_softmax and their backward ops.
 *
 * All constants here are per-element conventions (docs/rule-constants.md),
 * so every rule is `estimated`, except softmax backward (4 basic ops). N is
 * the number of input elements. Per-row / per-channel scalar work (1/n, +eps,
 * rsqrt, running-statistic updates) is O(rows) and not counted.
 *
 * Registered names (other_flops; MACs are 0):
 *   native_layer_norm layer_norm                       5N + N[weight] + N[bias]
 *   native_batch_norm _native_batch_norm_legit(.no_stats)
 *   _native_batch_norm_legit_functional cudnn_batch_norm miopen_batch_norm
 *   batch_norm _batch_norm_impl_index _batch_norm_with_update
 *   _batch_norm_no_update                              training 5N, eval 2N; + affine
 *   _native_batch_norm_legit_no_training               2N + affine
 *   native_group_norm group_norm                       5N + affine
 *   instance_norm                                      5N (input stats) or 2N; + affine
 *   rms_norm _fused_rms_norm                           3N + N[weight]
 *   native_layer_norm_backward native_group_norm_backward
 *   native_batch_norm_backward cudnn_batch_norm_backward miopen_batch_norm_backward
 *   batch_norm_backward _batch_norm_impl_index_backward
 *       grad_input 9N + N[weight] (eval batch norm: N + N[weight]),
 *       grad_weight 4N, grad_bias N, each only when its output_mask bit is set
 *   _fused_rms_norm_backward                           grad_input 6N + N[weight], grad_weight 3N
 *   _softmax softmax _safe_softmax _log_softmax log_softmax   5N
 *   _softmax_backward_data                             4N (exact)
 *   _log_softmax_backward_data                         4N
 *   _weight_norm_interface                             3N (exact; per-row sqrt/divide not counted)
 *   _weight_norm_interface_backward                    5N (exact)
 */
#include <string.h>
#include "rules.h"
#include "util.h"

#define EX TLC_EVIDENCE_FORMULA_EXACT
#define ES TLC_EVIDENCE_ESTIMATED

#define K_NORM_EVAL 2       /* (x - mean) * invstd with given statistics */
#define K_RMS_NORM 3        /* square, sum, scale */
#define K_NORM_BWD_INPUT 9  /* x_hat (2), sum g (1), sum g*x_hat (2), combine (4) */
#define K_NORM_BWD_WEIGHT 4 /* x_hat (2), multiply, sum */
#define K_NORM_BWD_BIAS 1   /* sum */
#define K_RMS_BWD_INPUT 6   /* x_hat, sum g*x_hat (2), combine (3) */
#define K_RMS_BWD_WEIGHT 3  /* x_hat, multiply, sum */

/* How a forward norm is counted: per-element constant when the statistics
 * are computed from the batch, and when they are given. */
typedef struct norm_spec {
	size_t training_pos;     /* arg holding the training flag; 0 = none */
	const char *training_name;
	int training_dflt;       /* used when there is no flag */
	int stats_pos;           /* arg whose presence means given statistics; -1 none */
	const char *stats_name;
	size_t weight_pos, bias_pos; /* 0 = no such arg */
	const char *weight_name, *bias_name;
	int64_t k_stats;         /* per element with batch statistics */
} norm_spec;

/* ---- shared pieces --------------------------------------------------- */

/* Reads every input, writes every output; without recorded outputs the
 * written bytes are unknown (statistic outputs have no derivable dtype). */
static int norm_bytes(tlc_cost *out, const tlc_op *op, const tlc_host *host)
{
	int rc = tlc_rules__io_bytes(out, op, host, NULL);
	if (rc == TLC_RULE_MISSING_ARGS)
		return tlc_rules__write_shape(out, host, NULL, 0, TLC_DTYPE_NONE);
	return tlc_rules__need(out, host, rc, "tensors");
}

/* other_flops += k * numel(x). */
static int add_elems(tlc_cost *out, const tlc_host *host, int64_t k, const tlc_tensor *x)
{
	if (k == 0)
		return 0;
	int rc = host->cost_add_numel(out, TLC_FIELD_OTHER_FLOPS, k, x);
	return rc < 0 ? tlc_rules__bad(out, host, "bad input shape") : 0;
}

/* Elements of each of the two statistic outputs (mean, rstd) of a forward
 * norm, when the op's schema fixes them: 0 for single-output composites and
 * eval-mode batch norm (empty statistics); -1 when not derivable. */
static int64_t stat_elems(const tlc_op *op, const tlc_host *host, const tlc_tensor *x,
                          int training)
{
	static const char *const single[] = { "aten::layer_norm", "aten::batch_norm",
		"aten::group_norm", "aten::instance_norm", "aten::rms_norm" };
	static const char *const bn[] = { "aten::native_batch_norm",
		"aten::_native_batch_norm_legit", "aten::_native_batch_norm_legit_no_training" };
	int64_t n = 0, g = 0, rows = 0;
	for (size_t i = 0; i < sizeof single / sizeof single[0]; i++)
		if (strcmp(op->name, single[i]) == 0)
			return 0;
	for (size_t i = 0; i < sizeof bn / sizeof bn[0]; i++)
		if (strcmp(op->name, bn[i]) == 0)
			return training ? host->dim(x, 1) : 0;
	if (strcmp(op->name, "aten::native_group_norm") == 0 && x->ndim > 0 &&
	    tlc_rules__int_arg(&g, op, host, 6, "group") == 0 && g >= 0 &&
	    !__builtin_mul_overflow(x->shape[0], g, &n))
		return n;
	if (strcmp(op->name, "aten::native_layer_norm") == 0) {
		int64_t ns[TLC_RULES_MAX_DIMS];
		size_t nn = 0;
		if (tlc_rules__int_list(ns, TLC_RULES_MAX_DIMS, &nn,
		                        host->arg(op, 1, "normalized_shape")) == 0 &&
		    nn <= x->ndim && tlc_rules__numel_range(&rows, x, 0, x->ndim - nn) == 0)
			return rows;
	}
	return -1;
}

static int is_f32_or_f64(tlc_dtype d) { return d == TLC_DTYPE_FLOAT32 || d == TLC_DTYPE_FLOAT64; }

/* Forward bytes: every input once; the recorded outputs, else the result
 * (input-shaped, input dtype) plus the two statistics when their size is
 * fixed and their dtype is the input's (float32/float64 inputs: the
 * accumulation type of a half input is backend-dependent). */
static int norm_fwd_bytes(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                          const tlc_tensor *x, int training)
{
	if ((op->flags & TLC_OP_HAS_OUTPUTS) && op->noutputs > 0)
		return norm_bytes(out, op, host);
	int rc = host->read_inputs(out, op);
	if (rc < 0)
		return tlc_rules__need(out, host, rc, "tensors");
	int64_t st = stat_elems(op, host, x, training);
	if (st < 0 || (st > 0 && !is_f32_or_f64(x->dtype)))
		return tlc_rules__write_shape(out, host, NULL, 0, TLC_DTYPE_NONE);
	rc = tlc_rules__write_shape(out, host, x->shape, x->ndim, x->dtype);
	if (rc == 0 && st > 0)
		rc = host->cost_add(out, TLC_FIELD_BYTES_WRITTEN, 2 * (int64_t)tlc_dtype_size(x->dtype),
		                    1, &st);
	return tlc_rules__need(out, host, rc, "output shape");
}

/* Adds k*N + N per affine tensor present, then the bytes. */
static int norm_finish(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                       const tlc_tensor *x, int64_t k, int weight, int bias, int training)
{
	int rc = add_elems(out, host, k + (weight != 0) + (bias != 0), x);
	if (rc < 0)
		return rc;
	return norm_fwd_bytes(out, op, host, x, training);
}

/* ---- forward norms ---------------------------------------------------- */

static int norm_fwd(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	const norm_spec *s = payload;
	const tlc_tensor *x = host->tensor_arg(op, 0, "input");
	if (!x)
		return tlc_rules__missing(out, host, "missing input tensor");
	int training = s->training_dflt;
	if (s->training_pos) {
		int rc = tlc_rules__bool_arg_or(&training, op, host, s->training_pos,
		                                s->training_name, s->training_dflt);
		if (rc == TLC_RULE_MISSING_ARGS)
			return tlc_rules__missing_arg(out, host, op, s->training_name);
		if (rc < 0)
			return tlc_rules__bad(out, host, "bad %s flag", s->training_name);
	}
	/* running stats are Tensor?: a trace's empty entry there is None */
	if (s->stats_pos >= 0)
		training = host->tensor_arg(op, (size_t)s->stats_pos, s->stats_name) == NULL;
	int w = s->weight_pos && host->tensor_arg(op, s->weight_pos, s->weight_name);
	int b = s->bias_pos && host->tensor_arg(op, s->bias_pos, s->bias_name);
	return norm_finish(out, op, host, x, training ? s->k_stats : K_NORM_EVAL, w, b, training);
}

/* batch_norm family (input, weight, bias, running_mean, running_var, training, ...) */
static const norm_spec bn_train_flag = { 5, "training", 1, -1, NULL, 1, 2, "weight", "bias",
                                         TLC_RULES_K_LAYER_NORM };
/* _native_batch_norm_legit.no_stats(input, weight, bias, training, ...) */
static const norm_spec bn_no_stats = { 3, "training", 1, -1, NULL, 1, 2, "weight", "bias",
                                       TLC_RULES_K_LAYER_NORM };
/* _native_batch_norm_legit_no_training: always given statistics */
static const norm_spec bn_eval = { 0, NULL, 0, -1, NULL, 1, 2, "weight", "bias",
                                   TLC_RULES_K_LAYER_NORM };
/* _batch_norm_with_update: always batch statistics */
static const norm_spec bn_update = { 0, NULL, 1, -1, NULL, 1, 2, "weight", "bias",
                                     TLC_RULES_K_LAYER_NORM };
/* _batch_norm_no_update: batch statistics exactly when running_mean is absent */
static const norm_spec bn_no_update = { 0, NULL, 1, 3, "running_mean", 1, 2, "weight", "bias",
                                        TLC_RULES_K_LAYER_NORM };
/* instance_norm(input, weight, bias, rm, rv, use_input_stats, ...) */
static const norm_spec in_spec = { 5, "use_input_stats", 1, -1, NULL, 1, 2, "weight", "bias",
                                   TLC_RULES_K_LAYER_NORM };
/* native_layer_norm(input, normalized_shape, weight, bias, eps) */
static const norm_spec ln_spec = { 0, NULL, 1, -1, NULL, 2, 3, "weight", "bias",
                                   TLC_RULES_K_LAYER_NORM };
/* native_group_norm(input, weight, bias, N, C, HxW, group, eps) */
static const norm_spec gn_native = { 0, NULL, 1, -1, NULL, 1, 2, "weight", "bias",
                                     TLC_RULES_K_LAYER_NORM };
/* group_norm(input, num_groups, weight, bias, eps, cudnn_enabled) */
static const norm_spec gn_spec = { 0, NULL, 1, -1, NULL, 2, 3, "weight", "bias",
                                   TLC_RULES_K_LAYER_NORM };
/* rms_norm / _fused_rms_norm(input, normalized_shape, weight, eps) */
static const norm_spec rms_spec = { 0, NULL, 1, -1, NULL, 2, 0, "weight", NULL, K_RMS_NORM };

/* ---- backward norms --------------------------------------------------- */

/* Where a backward op keeps its tensors and flags. */
typedef struct norm_bwd_spec {
	size_t input_pos;        /* the forward input (sets N) */
	size_t weight_pos;
	int train_pos;           /* -1: training; -2: training iff save_mean non-empty */
	size_t save_mean_pos;
	int mask_pos;            /* -1: all gradients requested */
	int64_t k_input, k_weight, k_bias; /* k_bias 0 = no bias gradient */
} norm_bwd_spec;

static int train_from_save_mean(const tlc_op *op, const tlc_host *host, size_t pos)
{
	const tlc_tensor *m = host->tensor_arg(op, pos, "save_mean");
	if (!m)
		return 0;
	for (size_t i = 0; i < m->ndim; i++)
		if (m->shape[i] == 0)
			return 0;
	return 1;
}

/* Which gradients are requested: output_mask (arg pos) when recorded, else
 * the recorded outputs that are defined, else all (said in the note: a
 * profiler trace may drop the mask). */
static int grad_mask(int *mask, tlc_cost *out, const tlc_op *op, const tlc_host *host,
                     int pos)
{
	size_t n = 0;
	if (pos < 0)
		return 0;
	if (host->arg(op, (size_t)pos, "output_mask") || tlc_rules__observed(op))
		return tlc_rules__bool_list_arg(mask, 3, &n, op, host, (size_t)pos, "output_mask");
	if ((op->flags & TLC_OP_HAS_OUTPUTS) && op->noutputs > 0) {
		for (size_t i = 0; i < 3; i++)
			mask[i] = tlc_rules__tensor_out(op, i) != NULL;
		return 0;
	}
	host->cost_explain(out, "output_mask not recorded: every gradient counted");
	return 0;
}

/* Backward bytes: inputs once; the recorded outputs, else grad_input
 * (input-shaped, input dtype) and weight-shaped grad_weight/grad_bias in the
 * weight's dtype for the requested gradients; unknown when a requested
 * parameter gradient has no weight to take its shape from. */
static int norm_bwd_bytes(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                          const tlc_tensor *x, const tlc_tensor *w, const int *mask,
                          int has_bias)
{
	if ((op->flags & TLC_OP_HAS_OUTPUTS) && op->noutputs > 0)
		return norm_bytes(out, op, host);
	int rc = host->read_inputs(out, op);
	if (rc < 0)
		return tlc_rules__need(out, host, rc, "tensors");
	int params = (mask[1] ? 1 : 0) + (mask[2] && has_bias ? 1 : 0);
	if (params && !w)
		return tlc_rules__write_shape(out, host, NULL, 0, TLC_DTYPE_NONE);
	if (mask[0])
		rc = tlc_rules__write_shape(out, host, x->shape, x->ndim, x->dtype);
	for (int i = 0; rc == 0 && i < params; i++)
		rc = tlc_rules__write_shape(out, host, w->shape, w->ndim, w->dtype);
	return tlc_rules__need(out, host, rc, "output shape");
}

static int norm_bwd(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	const norm_bwd_spec *s = payload;
	const tlc_tensor *x = host->tensor_arg(op, s->input_pos, "input");
	if (!x)
		return tlc_rules__missing(out, host, "missing input tensor");
	int mask[3] = { 1, 1, 1 };
	int rc = grad_mask(mask, out, op, host, s->mask_pos);
	if (rc < 0)
		return tlc_rules__arg_fail(out, host, op, rc, "output_mask", "bad output_mask");
	int train = 1;
	rc = s->train_pos < 0 ? 0 :
		tlc_rules__bool_arg_or(&train, op, host, (size_t)s->train_pos, "train", 1);
	if (rc < 0)
		return tlc_rules__arg_fail(out, host, op, rc, "train flag", "bad train flag");
	if (s->train_pos == -2)
		train = train_from_save_mean(op, host, s->save_mean_pos);
	int w = host->tensor_arg(op, s->weight_pos, "weight") != NULL;
	int64_t k = 0;
	if (mask[0])
		k += (train ? s->k_input : 1) + w;
	if (mask[1] && w)
		k += s->k_weight;
	if (mask[2] && s->k_bias)
		k += s->k_bias;
	rc = add_elems(out, host, k, x);
	if (rc < 0)
		return rc;
	return norm_bwd_bytes(out, op, host, x,
	                      host->tensor_arg(op, s->weight_pos, "weight"), mask,
	                      s->k_bias != 0);
}

/* native_layer_norm_backward(grad_out, input, normalized_shape, mean, rstd, weight, bias, mask) */
static const norm_bwd_spec ln_bwd = { 1, 5, -1, 0, 7, K_NORM_BWD_INPUT, K_NORM_BWD_WEIGHT,
                                      K_NORM_BWD_BIAS };
/* native_group_norm_backward(grad_out, input, mean, rstd, weight, N, C, HxW, group, mask) */
static const norm_bwd_spec gn_bwd = { 1, 4, -1, 0, 9, K_NORM_BWD_INPUT, K_NORM_BWD_WEIGHT,
                                      K_NORM_BWD_BIAS };
/* native_batch_norm_backward(grad_out, input, weight, rm, rv, save_mean, save_invstd,
 *                            train, eps, mask) */
static const norm_bwd_spec bn_bwd = { 1, 2, 7, 5, 9, K_NORM_BWD_INPUT, K_NORM_BWD_WEIGHT,
                                      K_NORM_BWD_BIAS };
/* cudnn_batch_norm_backward(input, grad_output, weight, rm, rv, save_mean, save_var,
 *                           epsilon, reserve): training, all three gradients */
static const norm_bwd_spec cudnn_bn_bwd = { 0, 2, -1, 5, -1, K_NORM_BWD_INPUT,
                                            K_NORM_BWD_WEIGHT, K_NORM_BWD_BIAS };
/* batch_norm_backward(grad_out, input, weight, rm, rv, save_mean, save_var, update, eps,
 *                     mask, reserve): training iff save_mean is non-empty */
static const norm_bwd_spec bn_bwd2 = { 1, 2, -2, 5, 9, K_NORM_BWD_INPUT, K_NORM_BWD_WEIGHT,
                                       K_NORM_BWD_BIAS };
/* _batch_norm_impl_index_backward(impl_index, input, grad_output, weight, rm, rv,
 *                                 save_mean, save_var_transform, train, eps, mask, reserve) */
static const norm_bwd_spec bn_impl_bwd = { 1, 3, 8, 6, 10, K_NORM_BWD_INPUT,
                                           K_NORM_BWD_WEIGHT, K_NORM_BWD_BIAS };
/* _fused_rms_norm_backward(grad_out, input, normalized_shape, rstd, weight, mask) */
static const norm_bwd_spec rms_bwd = { 1, 4, -1, 0, 5, K_RMS_BWD_INPUT, K_RMS_BWD_WEIGHT, 0 };

/* ---- softmax ---------------------------------------------------------- */

/* Result dtype of a softmax-like op: dtype= (arg 2 as a string), float32
 * for half_to_float (arg 2 true), the backward's input_dtype (arg 3), else
 * the input's. */
static tlc_dtype softmax_dtype(const tlc_op *op, const tlc_host *host, const tlc_tensor *x)
{
	const tlc_value *a2 = host->arg(op, 2, "dtype");
	const tlc_value *a3 = host->arg(op, 3, "input_dtype");
	if (a2 && a2->kind == TLC_VALUE_STRING)
		return host->dtype_parse(a2->u.string);
	if (a2 && a2->kind == TLC_VALUE_BOOL && a2->u.boolean)
		return TLC_DTYPE_FLOAT32;
	if (a3 && a3->kind == TLC_VALUE_STRING)
		return host->dtype_parse(a3->u.string);
	return x->dtype;
}

/* k * numel(arg 0) for softmax-like ops (arg 0 is the input, or grad_output
 * of the same shape for the backward ops); rows are not counted. */
static int softmax_like(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                        void *payload)
{
	const tlc_tensor *x = host->tensor_arg(op, 0, NULL);
	if (!x)
		return tlc_rules__missing(out, host, "missing input tensor");
	int rc = add_elems(out, host, *(const int64_t *)payload, x);
	if (rc < 0)
		return rc;
	if ((op->flags & TLC_OP_HAS_OUTPUTS) && op->noutputs > 0)
		return norm_bytes(out, op, host);
	rc = host->read_inputs(out, op);
	if (rc < 0)
		return tlc_rules__need(out, host, rc, "tensors");
	tlc_dtype d = softmax_dtype(op, host, x);
	return tlc_rules__need(out, host, tlc_rules__write_shape(out, host, x->shape, x->ndim, d),
	                       "output shape");
}

static const int64_t k_sm_fwd = TLC_RULES_K_SOFTMAX_FWD, k_sm_bwd = TLC_RULES_K_SOFTMAX_BWD;

/* ---- weight norm -------------------------------------------------------- */

/* k * numel(arg 0); bytes as recorded (two outputs each way: unknown
 * without them). _weight_norm_interface(v, g, dim): sum of squares (2) and
 * v * g/norm (1) per element = 3; its backward: grad_g's dot product (2)
 * and grad_v = g/norm * (grad_w - v * grad_g/norm) (3) = 5. */
static int elems_k(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	const tlc_tensor *x = host->tensor_arg(op, 0, NULL);
	if (!x)
		return tlc_rules__missing(out, host, "missing first tensor argument");
	int rc = add_elems(out, host, *(const int64_t *)payload, x);
	return rc < 0 ? rc : norm_bytes(out, op, host);
}

static const int64_t k_wn_fwd = 3, k_wn_bwd = 5;

/* ---- registration ----------------------------------------------------- */

#define N(name, fn, spec, ev, note) { name, TLC_RULE_COST, ev, fn, &spec, note }

static const tlc_rules_entry fwd[] = {
	N("aten::native_layer_norm", norm_fwd, ln_spec, ES, "5N + N[weight] + N[bias]"),
	N("aten::layer_norm", norm_fwd, ln_spec, ES, "5N + N[weight] + N[bias]"),
	N("aten::native_batch_norm", norm_fwd, bn_train_flag, ES, "training 5N, eval 2N; + affine"),
	N("aten::_native_batch_norm_legit", norm_fwd, bn_train_flag, ES,
	  "training 5N, eval 2N; + affine"),
	N("aten::_native_batch_norm_legit.no_stats", norm_fwd, bn_no_stats, ES,
	  "training 5N, eval 2N; + affine"),
	N("aten::_native_batch_norm_legit_functional", norm_fwd, bn_train_flag, ES,
	  "training 5N, eval 2N; + affine"),
	N("aten::_native_batch_norm_legit_no_training", norm_fwd, bn_eval, ES, "2N + affine"),
	N("aten::cudnn_batch_norm", norm_fwd, bn_train_flag, ES, "training 5N, eval 2N; + affine"),
	N("aten::miopen_batch_norm", norm_fwd, bn_train_flag, ES, "training 5N, eval 2N; + affine"),
	N("aten::batch_norm", norm_fwd, bn_train_flag, ES, "training 5N, eval 2N; + affine"),
	N("aten::_batch_norm_impl_index", norm_fwd, bn_train_flag, ES,
	  "training 5N, eval 2N; + affine"),
	N("aten::_batch_norm_with_update", norm_fwd, bn_update, ES, "5N + affine"),
	N("aten::_batch_norm_no_update", norm_fwd, bn_no_update, ES,
	  "2N with running stats, else 5N; + affine"),
	N("aten::native_group_norm", norm_fwd, gn_native, ES, "5N + affine"),
	N("aten::group_norm", norm_fwd, gn_spec, ES, "5N + affine"),
	N("aten::instance_norm", norm_fwd, in_spec, ES, "input stats 5N, else 2N; + affine"),
	N("aten::rms_norm", norm_fwd, rms_spec, ES, "3N + N[weight]"),
	N("aten::_fused_rms_norm", norm_fwd, rms_spec, ES, "3N + N[weight]"),
};

static const tlc_rules_entry bwd[] = {
	N("aten::native_layer_norm_backward", norm_bwd, ln_bwd, ES,
	  "mask: dx 9N+N[w], dw 4N, db N"),
	N("aten::native_group_norm_backward", norm_bwd, gn_bwd, ES,
	  "mask: dx 9N+N[w], dw 4N, db N"),
	N("aten::native_batch_norm_backward", norm_bwd, bn_bwd, ES,
	  "mask: dx 9N+N[w] (eval N+N[w]), dw 4N, db N"),
	N("aten::cudnn_batch_norm_backward", norm_bwd, cudnn_bn_bwd, ES,
	  "dx 9N+N[w], dw 4N, db N"),
	N("aten::miopen_batch_norm_backward", norm_bwd, cudnn_bn_bwd, ES,
	  "dx 9N+N[w], dw 4N, db N"),
	N("aten::batch_norm_backward", norm_bwd, bn_bwd2, ES,
	  "mask: dx 9N+N[w] (eval N+N[w]), dw 4N, db N"),
	N("aten::_batch_norm_impl_index_backward", norm_bwd, bn_impl_bwd, ES,
	  "mask: dx 9N+N[w] (eval N+N[w]), dw 4N, db N"),
	N("aten::_fused_rms_norm_backward", norm_bwd, rms_bwd, ES, "mask: dx 6N+N[w], dw 3N"),
};

static const tlc_rules_entry wnorm[] = {
	N("aten::_weight_norm_interface", elems_k, k_wn_fwd, EX, "3N: squares, sum, scale"),
	N("aten::_weight_norm_interface_backward", elems_k, k_wn_bwd, EX,
	  "5N: grad_g dot product (2), grad_v (3)"),
};

static const tlc_rules_entry smax[] = {
	N("aten::_softmax", softmax_like, k_sm_fwd, ES, "5N: max, subtract, exp, sum, divide"),
	N("aten::softmax", softmax_like, k_sm_fwd, ES, "5N: max, subtract, exp, sum, divide"),
	N("aten::_safe_softmax", softmax_like, k_sm_fwd, ES, "5N: max, subtract, exp, sum, divide"),
	N("aten::_log_softmax", softmax_like, k_sm_fwd, ES, "5N: max, subtract, exp, sum, subtract log"),
	N("aten::log_softmax", softmax_like, k_sm_fwd, ES, "5N: max, subtract, exp, sum, subtract log"),
	N("aten::_softmax_backward_data", softmax_like, k_sm_bwd, EX, "4N: y * (g - sum(g * y))"),
	N("aten::_log_softmax_backward_data", softmax_like, k_sm_bwd, ES,
	  "4N: g - exp(y) * sum(g)"),
};

#undef N

int tlc_rules__norm_init(tlc_plugin_ctx *ctx, const tlc_host *host)
{
	int rc = tlc_rules__register_table(ctx, host, fwd, TLC_RULES_COUNT(fwd));
	if (rc == 0)
		rc = tlc_rules__register_table(ctx, host, bwd, TLC_RULES_COUNT(bwd));
	if (rc == 0)
		rc = tlc_rules__register_table(ctx, host, smax, TLC_RULES_COUNT(smax));
	if (rc == 0)
		rc = tlc_rules__register_table(ctx, host, wnorm, TLC_RULES_COUNT(wnorm));
	return rc;
}
