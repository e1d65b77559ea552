/* Optimizer rules: _foreach_* list ops and the fused Adam/AdamW/SGD steps.
 *
 * A _foreach op applies one pointwise op to every tensor of its first list
 * (self): FLOPs = k * (sum of numel over self). Bytes: every input tensor
 * (all lists) read once; outputs written once, or self's list for the
 * in-place forms. Scalars add no bytes. Single-tensor optimizer ops
 * (add_, mul_, addcdiv_, addcmul_, lerp_, sqrt, ...) are pointwise rules
 * (rules/pointwise.c).
 *
 * Registered names (k per element; each with its in-place `_` form; all
 * overloads .Scalar .List .ScalarList .Tensor through the plain name):
 *   _foreach_add _foreach_sub                 1, 2 when alpha != 1
 *   _foreach_mul _foreach_div                 1
 *   _foreach_addcmul _foreach_addcdiv         2, 3 when value != 1 (ScalarList/Tensor: 3)
 *   _foreach_lerp                             3
 *   _foreach_sqrt _foreach_neg _foreach_abs _foreach_reciprocal _foreach_sign
 *   _foreach_maximum _foreach_minimum _foreach_clamp_min _foreach_clamp_max  1
 *   _foreach_exp _foreach_log                 1 (estimated)
 *   _foreach_zero_ _foreach_copy_             0 (write self; copy reads src)
 *   _foreach_norm                             ord 2: 2n; ord 1/inf: 2n - T; else 3n (E)
 *   _fused_adam_ _fused_adam _fused_adamw_ _fused_adamw   13 per element
 *       + 2 weight_decay (AdamW: 1) + 1 amsgrad + 1 maximize + 1 grad_scale (E)
 *   _fused_sgd_ _fused_sgd                    2 + 2 weight_decay + 3 momentum
 *       (0 on the first step) + 2 nesterov + 1 maximize + 1 grad_scale (E)
 *   _fused_adagrad_ _fused_adagrad            7 + 2 weight_decay + 1 maximize + 1 grad_scale (E)
 *   _amp_foreach_non_finite_check_and_unscale_   2 (finiteness test, multiply)
 *   _amp_update_scale_                        5 in total (O(1) bookkeeping, E)
 *   _foreach_pow (+_)                         1 (E)
 */
#include <math.h>
#include <string.h>
#include "rules.h"
#include "util.h"

#define EX TLC_EVIDENCE_FORMULA_EXACT
#define ES TLC_EVIDENCE_ESTIMATED

#define K_ADAM 13 /* m lerp (3), v update (4), denom sqrt/scale/+eps (3), step (3) */
#define K_ADAGRAD 7 /* sum += g*g (2), sqrt + eps (2), p -= clr * g / std (3) */
#define K_AMP_UPDATE 5 /* O(1): found_inf test, backoff, increment, compare, growth */

/* ---- shared pieces --------------------------------------------------- */

/* other_flops += k * sum of numel over the tensors of list v; *ntensors set. */
static int add_list(tlc_cost *out, const tlc_host *host, int64_t k, const tlc_value *v,
                    int64_t *ntensors)
{
	*ntensors = 0;
	if (!v || v->kind != TLC_VALUE_LIST)
		return TLC_RULE_MISSING_ARGS;
	for (size_t i = 0; i < v->u.list.n; i++) {
		const tlc_tensor *t = tlc_rules__tensor(&v->u.list.items[i]);
		if (!t)
			return TLC_RULE_MISSING_ARGS;
		if (k != 0 && host->cost_add_numel(out, TLC_FIELD_OTHER_FLOPS, k, t) < 0)
			return TLC_RULE_BAD_ARGS;
		(*ntensors)++;
	}
	return 0;
}

/* Whether every tensor of list v has a floating dtype (results of a
 * _foreach op then keep self's dtypes). */
static int all_floating(const tlc_value *v)
{
	if (!v || v->kind != TLC_VALUE_LIST)
		return 0;
	for (size_t i = 0; i < v->u.list.n; i++) {
		const tlc_tensor *t = tlc_rules__tensor(&v->u.list.items[i]);
		if (!t || (t->dtype != TLC_DTYPE_FLOAT32 && t->dtype != TLC_DTYPE_FLOAT64 &&
		           t->dtype != TLC_DTYPE_FLOAT16 && t->dtype != TLC_DTYPE_BFLOAT16))
			return 0;
	}
	return 1;
}

/* Inputs once; the outputs, else self's list: written in place, or the
 * out-of-place results, which have self's shapes and dtypes (`like_self`). */
static int list_bytes(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                      const tlc_value *self, int like_self)
{
	int use_self = tlc_rules__is_inplace(op) || (like_self && all_floating(self));
	int rc = tlc_rules__io_bytes(out, op, host, use_self ? self : NULL);
	if (rc == TLC_RULE_MISSING_ARGS)
		return tlc_rules__write_shape(out, host, NULL, 0, TLC_DTYPE_NONE);
	return tlc_rules__need(out, host, rc, "tensors");
}

/* Nonzero when scalar arg (pos, name) is a tensor, a list with an entry
 * != 1, or a number != 1. */
static int not_one(const tlc_value *v)
{
	if (!v)
		return 0;
	switch (v->kind) {
	case TLC_VALUE_INT: return v->u.integer != 1;
	case TLC_VALUE_FLOAT: return v->u.real != 1.0;
	case TLC_VALUE_LIST:
		for (size_t i = 0; i < v->u.list.n; i++)
			if (not_one(&v->u.list.items[i]))
				return 1;
		return 0;
	default: return 1; /* a tensor of scalars: a multiply per element */
	}
}

/* ---- _foreach --------------------------------------------------------- */

typedef struct fe_spec {
	int64_t k;
	size_t scale_pos;       /* arg whose != 1 adds a multiply; 0 = none */
	const char *scale_name;
} fe_spec;

static int fe_rule(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	const fe_spec *s = payload;
	const tlc_value *self = host->arg(op, 0, "self");
	int64_t k = s->k, nt = 0;
	if (s->scale_pos) {
		const tlc_value *sc = host->arg(op, s->scale_pos, s->scale_name);
		int given = 0;
		if (tlc_rules__given(&given, op, host, s->scale_pos, s->scale_name) < 0)
			return tlc_rules__missing_arg(out, host, op, s->scale_name);
		if (not_one(sc))
			k += 1;
	}
	int rc = add_list(out, host, k, self, &nt);
	if (rc < 0)
		return tlc_rules__need(out, host, rc, "self tensor list");
	return list_bytes(out, op, host, self, 1);
}

/* _foreach_zero_(self) / _foreach_copy_(self, src): self is overwritten,
 * so only src is read. */
static int fe_fill(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)payload;
	const tlc_value *self = host->arg(op, 0, "self");
	int64_t nt = 0;
	int rc = add_list(out, host, 0, self, &nt);
	if (rc < 0)
		return tlc_rules__need(out, host, rc, "self tensor list");
	host->cost_explain(out, "no arithmetic: self overwritten");
	rc = tlc_rules__read_value(out, host, host->arg(op, 1, "src"));
	if (rc == 0)
		rc = host->cost_add_bytes(out, TLC_FIELD_BYTES_WRITTEN, self);
	return tlc_rules__need(out, host, rc, "tensors");
}

/* _foreach_norm(self, ord=2, dtype). */
static int fe_norm(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)payload;
	const tlc_value *self = host->arg(op, 0, "self");
	const tlc_value *ord = host->arg(op, 1, "ord");
	double p = 2.0;
	int prc = 0;
	if (ord && ord->kind == TLC_VALUE_STRING)
		p = INFINITY; /* "inf" / "-inf" */
	else if ((prc = tlc_rules__real_arg_or(&p, op, host, 1, "ord", 2.0)) < 0)
		return tlc_rules__arg_fail(out, host, op, prc, "ord", "bad ord");
	int kind = p == 2.0 ? 2 : (p == 1.0 || isinf(p)) ? 1 : 0;
	int64_t nt = 0;
	int rc = add_list(out, host, kind == 0 ? 3 : 2, self, &nt);
	if (rc == 0 && kind == 1)
		rc = host->cost_add(out, TLC_FIELD_OTHER_FLOPS, -nt, 0, NULL);
	if (rc < 0)
		return tlc_rules__need(out, host, rc, "self tensor list");
	if (kind == 0)
		host->cost_set_evidence(out, ES);
	return list_bytes(out, op, host, self, 0); /* results are 0-d: unknown unless recorded */
}

/* ---- fused optimizers ------------------------------------------------- */

/* Writes the lists at positions pos[0..n) (the state a fused step updates
 * in place), or the outputs of the functional form. */
static int fused_bytes(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                       const size_t *pos, size_t n)
{
	int rc = host->read_inputs(out, op);
	if (rc < 0)
		return tlc_rules__need(out, host, rc, "tensors");
	if ((op->flags & TLC_OP_HAS_OUTPUTS) && op->noutputs > 0 && !tlc_rules__is_inplace(op))
		return tlc_rules__need(out, host, host->write_outputs(out, op, NULL),
		                       "outputs");
	for (size_t i = 0; i < n; i++) {
		rc = host->cost_add_bytes(out, TLC_FIELD_BYTES_WRITTEN,
		                          host->arg(op, pos[i], NULL));
		if (rc < 0)
			return tlc_rules__need(out, host, rc, "state lists");
	}
	return 0;
}

/* A keyword-only flag, looked up by name (or at its schema position when
 * the capture recorded it positionally). */
static int flag(const tlc_op *op, const tlc_host *host, size_t pos, const char *name,
                int *miss)
{
	int v = 0;
	int rc = tlc_rules__bool_arg_or(&v, op, host, pos, name, 0);
	if (rc == TLC_RULE_MISSING_ARGS)
		*miss = 1; /* a trace that did not record the flag */
	return rc == 0 && v;
}

/* Whether a number (or tensor) argument is present and nonzero. */
static int nonzero(const tlc_op *op, const tlc_host *host, size_t pos, const char *name,
                   int *miss)
{
	const tlc_value *v = host->arg(op, pos, name);
	int given = 0;
	if (tlc_rules__given(&given, op, host, pos, name) < 0) {
		*miss = 1;
		return 0;
	}
	if (!v)
		return 0;
	if (v->kind == TLC_VALUE_INT)
		return v->u.integer != 0;
	if (v->kind == TLC_VALUE_FLOAT)
		return v->u.real != 0.0;
	return 1;
}

/* _fused_adam(w)_(self, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs,
 * state_steps, *, lr, beta1, beta2, weight_decay, eps, amsgrad, maximize,
 * grad_scale, found_inf); payload: 1 for AdamW. */
static int fused_adam(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	int adamw = *(const int *)payload;
	const tlc_value *self = host->arg(op, 0, "self");
	int miss = 0;
	int ams = flag(op, host, 11, "amsgrad", &miss);
	int64_t k = K_ADAM + ams + flag(op, host, 12, "maximize", &miss) +
	            (host->tensor_arg(op, 13, "grad_scale") != NULL);
	if (nonzero(op, host, 9, "weight_decay", &miss))
		k += adamw ? 1 : 2;
	if (miss)
		return tlc_rules__missing_arg(out, host, op, "an option flag or weight_decay/momentum");
	int64_t nt = 0;
	int rc = add_list(out, host, k, self, &nt);
	if (rc < 0)
		return tlc_rules__need(out, host, rc, "self tensor list");
	const size_t pos[4] = { 0, 2, 3, 4 };
	return fused_bytes(out, op, host, pos, ams ? 4 : 3);
}

/* _fused_sgd_(self, grads, momentum_buffer_list, *, weight_decay, momentum, lr,
 * dampening, nesterov, maximize, is_first_step, grad_scale, found_inf) */
static int fused_sgd(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)payload;
	const tlc_value *self = host->arg(op, 0, "self");
	int miss = 0;
	int mom = nonzero(op, host, 4, "momentum", &miss);
	int64_t k = 2 + flag(op, host, 8, "maximize", &miss) +
	            (host->tensor_arg(op, 10, "grad_scale") != NULL);
	if (nonzero(op, host, 3, "weight_decay", &miss))
		k += 2;
	if (mom && !flag(op, host, 9, "is_first_step", &miss))
		k += 3;
	if (mom && flag(op, host, 7, "nesterov", &miss))
		k += 2;
	if (miss)
		return tlc_rules__missing_arg(out, host, op, "an option flag or weight_decay/momentum");
	int64_t nt = 0;
	int rc = add_list(out, host, k, self, &nt);
	if (rc < 0)
		return tlc_rules__need(out, host, rc, "self tensor list");
	const size_t pos[2] = { 0, 2 };
	return fused_bytes(out, op, host, pos, mom ? 2 : 1);
}

/* _fused_adagrad_(self, grads, state_sums, state_steps, *, lr, lr_decay,
 * weight_decay, eps, maximize, grad_scale, found_inf): sum += g*g (2),
 * sqrt(sum) + eps (2), p -= clr * g / std (3); + options. */
static int fused_adagrad(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                         void *payload)
{
	(void)payload;
	const tlc_value *self = host->arg(op, 0, "self");
	int miss = 0;
	int64_t k = K_ADAGRAD + flag(op, host, 8, "maximize", &miss) +
	            (host->tensor_arg(op, 9, "grad_scale") != NULL);
	if (nonzero(op, host, 6, "weight_decay", &miss))
		k += 2;
	if (miss)
		return tlc_rules__missing_arg(out, host, op, "an option flag or weight_decay/momentum");
	int64_t nt = 0;
	int rc = add_list(out, host, k, self, &nt);
	if (rc < 0)
		return tlc_rules__need(out, host, rc, "self tensor list");
	const size_t pos[2] = { 0, 2 };
	return fused_bytes(out, op, host, pos, 2);
}

/* _amp_foreach_non_finite_check_and_unscale_(self, found_inf, inv_scale):
 * a finiteness test and a multiply per element; writes self and found_inf. */
static int amp_unscale(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                       void *payload)
{
	(void)payload;
	const tlc_value *self = host->arg(op, 0, "self");
	int64_t nt = 0;
	int rc = add_list(out, host, 2, self, &nt);
	if (rc < 0)
		return tlc_rules__need(out, host, rc, "self tensor list");
	const size_t pos[2] = { 0, 1 };
	return fused_bytes(out, op, host, pos, 2);
}

/* _amp_update_scale_(self, growth_tracker, found_inf, growth, backoff,
 * interval): O(1) scalar work, counted as 5 (found_inf test, backoff
 * multiply, tracker increment, interval compare, growth multiply). */
static int amp_update(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                      void *payload)
{
	(void)payload;
	if (!host->tensor_arg(op, 0, "self") ||
	    !host->tensor_arg(op, 1, "growth_tracker"))
		return tlc_rules__missing(out, host, "missing scale or growth_tracker tensor");
	if (host->cost_add(out, TLC_FIELD_OTHER_FLOPS, K_AMP_UPDATE, 0, NULL) < 0)
		return TLC_RULE_BAD_ARGS;
	const size_t pos[2] = { 0, 1 };
	return fused_bytes(out, op, host, pos, 2);
}

/* ---- registration ----------------------------------------------------- */

static const fe_spec k1 = { 1, 0, NULL }, k3 = { 3, 0, NULL };
static const fe_spec k_alpha = { 1, 2, "alpha" }, k_value = { 2, 3, "value" };
static const int adam_plain = 0, adam_w = 1;

#define FE(name, spec, ev, note) { name, TLC_RULE_COST, ev, fe_rule, &spec, note }
#define F(name, fn, pl, note) { name, TLC_RULE_COST, ES, fn, pl, note }

static const tlc_rules_entry rules[] = {
	FE("aten::_foreach_add", k_alpha, EX, "sum numel(self) * (1 + [alpha != 1])"),
	FE("aten::_foreach_add_", k_alpha, EX, "sum numel(self) * (1 + [alpha != 1])"),
	FE("aten::_foreach_sub", k_alpha, EX, "sum numel(self) * (1 + [alpha != 1])"),
	FE("aten::_foreach_sub_", k_alpha, EX, "sum numel(self) * (1 + [alpha != 1])"),
	FE("aten::_foreach_mul", k1, EX, "sum numel(self)"),
	FE("aten::_foreach_mul_", k1, EX, "sum numel(self)"),
	FE("aten::_foreach_div", k1, EX, "sum numel(self)"),
	FE("aten::_foreach_div_", k1, EX, "sum numel(self)"),
	FE("aten::_foreach_addcmul", k_value, EX, "sum numel(self) * (2 + [value != 1])"),
	FE("aten::_foreach_addcmul_", k_value, EX, "sum numel(self) * (2 + [value != 1])"),
	FE("aten::_foreach_addcdiv", k_value, EX, "sum numel(self) * (2 + [value != 1])"),
	FE("aten::_foreach_addcdiv_", k_value, EX, "sum numel(self) * (2 + [value != 1])"),
	FE("aten::_foreach_lerp", k3, EX, "3 * sum numel(self)"),
	FE("aten::_foreach_lerp_", k3, EX, "3 * sum numel(self)"),
	FE("aten::_foreach_sqrt", k1, EX, "sum numel(self)"),
	FE("aten::_foreach_sqrt_", k1, EX, "sum numel(self)"),
	FE("aten::_foreach_neg", k1, EX, "sum numel(self)"),
	FE("aten::_foreach_neg_", k1, EX, "sum numel(self)"),
	FE("aten::_foreach_abs", k1, EX, "sum numel(self)"),
	FE("aten::_foreach_abs_", k1, EX, "sum numel(self)"),
	FE("aten::_foreach_reciprocal", k1, EX, "sum numel(self)"),
	FE("aten::_foreach_reciprocal_", k1, EX, "sum numel(self)"),
	FE("aten::_foreach_sign", k1, EX, "sum numel(self)"),
	FE("aten::_foreach_sign_", k1, EX, "sum numel(self)"),
	FE("aten::_foreach_maximum", k1, EX, "sum numel(self) compares"),
	FE("aten::_foreach_maximum_", k1, EX, "sum numel(self) compares"),
	FE("aten::_foreach_minimum", k1, EX, "sum numel(self) compares"),
	FE("aten::_foreach_minimum_", k1, EX, "sum numel(self) compares"),
	FE("aten::_foreach_clamp_min", k1, EX, "sum numel(self) compares"),
	FE("aten::_foreach_clamp_min_", k1, EX, "sum numel(self) compares"),
	FE("aten::_foreach_clamp_max", k1, EX, "sum numel(self) compares"),
	FE("aten::_foreach_clamp_max_", k1, EX, "sum numel(self) compares"),
	FE("aten::_foreach_exp", k1, ES, "sum numel(self); a transcendental counts 1"),
	FE("aten::_foreach_exp_", k1, ES, "sum numel(self); a transcendental counts 1"),
	FE("aten::_foreach_log", k1, ES, "sum numel(self); a transcendental counts 1"),
	FE("aten::_foreach_log_", k1, ES, "sum numel(self); a transcendental counts 1"),
	{ "aten::_foreach_zero_", TLC_RULE_COST, EX, fe_fill, NULL, "0: self written" },
	{ "aten::_foreach_copy_", TLC_RULE_COST, EX, fe_fill, NULL, "0: src read, self written" },
	{ "aten::_foreach_norm", TLC_RULE_COST, EX, fe_norm, NULL,
	  "ord 2: 2n; ord 1/inf: 2n - tensors; else 3n (est.)" },
	F("aten::_fused_adam_", fused_adam, &adam_plain, "13/elem + options (convention)"),
	F("aten::_fused_adam", fused_adam, &adam_plain, "13/elem + options (convention)"),
	F("aten::_fused_adamw_", fused_adam, &adam_w, "13/elem + options (convention)"),
	F("aten::_fused_adamw", fused_adam, &adam_w, "13/elem + options (convention)"),
	F("aten::_fused_sgd_", fused_sgd, NULL, "2/elem + options (convention)"),
	F("aten::_fused_adagrad_", fused_adagrad, NULL, "7/elem + options (convention)"),
	F("aten::_fused_adagrad", fused_adagrad, NULL, "7/elem + options (convention)"),
	{ "aten::_amp_foreach_non_finite_check_and_unscale_", TLC_RULE_COST, EX, amp_unscale, NULL,
	  "2 per element: finiteness test, multiply by inv_scale" },
	F("aten::_amp_update_scale_", amp_update, NULL, "5: O(1) scale bookkeeping"),
	FE("aten::_foreach_pow", k1, ES, "sum numel(self); pow counts 1"),
	FE("aten::_foreach_pow_", k1, ES, "sum numel(self); pow counts 1"),
	F("aten::_fused_sgd", fused_sgd, NULL, "2/elem + options (convention)"),
};

#undef FE
#undef F

int tlc_rules__optimizer_init(tlc_plugin_ctx *ctx, const tlc_host *host)
{
	return tlc_rules__register_table(ctx, host, rules, TLC_RULES_COUNT(rules));
}
