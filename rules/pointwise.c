/* Pointwise (elementwise) rules: arithmetic, comparisons, activations and
 * their backward ops, dropout, fills.
 *
 * Pointwise ops have no MACs: every operation is other_flops, counted per
 * OUTPUT element (recorded output, else the in-place self or out=, else the
 * broadcast of the tensor inputs). Bytes are read-once/write-once: every
 * tensor input once (the out= tensor is not read), every output once (an
 * in-place op writes its self once). Scalars add no bytes.
 *
 * Counting basis (docs/rule-constants.md): + - * / sqrt, compare, min/max,
 * select, abs/neg/sign and rounding are 1 FLOP each (formula_exact, counted
 * branch-free: every element pays for every side of a select). Anything with
 * a transcendental (exp, log, erf, tanh, sin, ...) is a convention: the
 * transcendental counts 1 and the rule is `estimated`.
 *
 * Registered names (FLOPs per output element; E = estimated):
 *   add sub (.Tensor .Scalar .out, add_ sub_)   1, 2 when alpha != 1
 *   rsub (.Tensor .Scalar)                       1, 2 when alpha != 1
 *   mul div (+ _ / .out / .Scalar / div.Tensor_mode)  1
 *   neg abs sign sgn floor ceil round trunc frac reciprocal sqrt square (+ _)  1
 *   rsqrt (+_)                                   2 (sqrt, divide)
 *   exp exp2 expm1 log log2 log10 log1p sin cos tan tanh erf erfc (+ _)  1 E
 *   pow (.Tensor_Scalar .Tensor_Tensor .Scalar, pow_)  1 (E unless exponent 2 / 0.5 / -1)
 *   clamp (+_ .Tensor)                           number of bounds given
 *   clamp_min clamp_max (+_)                     1
 *   hardtanh hardtanh_ relu6                     2
 *   where (.self .ScalarSelf .ScalarOther .Scalar) 1 select; where(cond) 1
 *   maximum minimum fmax fmin                    1
 *   eq ne lt gt le ge (.Tensor .Scalar, + _)     1
 *   logical_and logical_or logical_xor logical_not (+ _)  1
 *   relu relu_ threshold threshold_              1
 *   leaky_relu leaky_relu_                       2 (compare, multiply)
 *   elu elu_                                     4 E
 *   gelu gelu_                                   5 E (tanh approximation 9 E)
 *   silu silu_                                   5 E
 *   sigmoid sigmoid_                             4 E
 *   hardswish hardswish_                         5
 *   hardsigmoid hardsigmoid_                     4
 *   mish mish_                                   5 E
 *   softplus                                     5 E
 *   threshold_backward                           2
 *   gelu_backward                                11 E (tanh approximation 18 E)
 *   silu_backward                                9 E
 *   hardswish_backward                           6
 *   hardsigmoid_backward                         3
 *   sigmoid_backward tanh_backward               3
 *   leaky_relu_backward                          2
 *   elu_backward                                 5 E
 *   hardtanh_backward                            3
 *   softplus_backward                            6 E
 *   mish_backward                                11 E
 *   addcmul addcdiv (+ _)                        2, 3 when value != 1
 *   lerp (.Scalar .Tensor, + _)                  3
 *   dropout dropout_ native_dropout              2 E when training, else 0
 *   native_dropout_backward                      2
 *   bernoulli bernoulli_                         1 E
 *   fill_ (.Scalar .Tensor) zero_                0 (bytes: the tensor written)
 *   fmod remainder floor_divide bitwise_and/or/xor/not isnan isinf isfinite
 *   signbit copysign                             1
 *   nan_to_num (+_)                              3 (three selects)
 *   atan2 sinh cosh asin acos atan erfinv        1 E
 *   logit xlogy                                  3 E
 *   selu celu (+_)                               5 E
 *   softshrink 3; hardshrink softshrink_backward hardshrink_backward  2
 *   glu                                          5 E per output element
 *   glu_backward                                 4 E per grad_input element
 *   prelu _prelu_kernel                          2 per self element
 *   _prelu_kernel_backward                       5 per self element
 *   log_sigmoid_forward 5 E; log_sigmoid_backward 4 E
 *   feature_dropout (+_) 2 E when training; alpha_dropout feature_alpha_dropout 3 E
 *   tril triu (+_)                               0 (index mask)
 *   _fused_dropout 2 E; _masked_scale 2
 * Aliases, same counts: divide(_) true_divide_ multiply(_) subtract(_)
 *   greater(_) greater_equal(_) less(_) less_equal(_) not_equal(_)
 *   absolute(_) negative(_) clip(_) fix trunc_ arcsin arccos arctan special_expit
 * Number overloads (.int .float .bool .int_float .float_int .Scalar_Scalar
 * .complex, as TorchScript records them) of any registered name count one
 * operation and no bytes.
 */
#include <stdio.h>
#include <string.h>
#include "rules.h"
#include "util.h"

#define EX TLC_EVIDENCE_FORMULA_EXACT
#define ES TLC_EVIDENCE_ESTIMATED

static const int64_t KRANGE = -1; /* random_: 2 with a range, else 0 */
static const int64_t K0 = 0, K1 = 1, K2 = 2, K3 = 3, K4 = 4, K5 = 5, K6 = 6, K9 = 9,
                     K11 = 11;
static const int64_t K_RELU = TLC_RULES_K_RELU; /* shared with fused matmul/attention rules */

/* ---- shared pieces --------------------------------------------------- */

/* The tensor whose elements are the op's outputs: recorded output 0, else
 * self of an in-place op, else out=. NULL when none of these is known. */
static const tlc_tensor *result_tensor(const tlc_op *op, const tlc_host *host)
{
	const tlc_tensor *t = tlc_rules__tensor_out(op, 0);
	if (t)
		return t;
	size_t len = op->name ? strlen(op->name) : 0;
	if (len > 0 && op->name[len - 1] == '_')
		return host->tensor_arg(op, 0, "self");
	return tlc_rules__tensor(host->op_kwarg(op, "out"));
}

/* Overloads of number (not tensor) arithmetic, as TorchScript records them. */
static int scalar_overload(const tlc_op *op)
{
	static const char *const names[] = { "int", "float", "bool", "int_float", "float_int",
		                             "Scalar_Scalar", "complex" };
	if (!op->overload)
		return 0;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(op->overload, names[i]) == 0)
			return 1;
	return 0;
}

/* term *= number of output elements; broadcasts the inputs when the
 * result tensor is not known. */
static int output_elems(tlc_rules_term *term, tlc_cost *out, const tlc_op *op,
                        const tlc_host *host)
{
	const tlc_tensor *r = result_tensor(op, host);
	if (r) {
		tlc_rules__term_mul_numel(term, r);
		return 0;
	}
	const tlc_value *vals[TLC_RULES_MAX_DIMS];
	size_t n = 0;
	for (size_t i = 0; i < op->nargs && n < TLC_RULES_MAX_DIMS; i++)
		if (op->args[i].kind == TLC_VALUE_TENSOR)
			vals[n++] = &op->args[i];
	for (size_t i = 0; i < op->nkwargs && n < TLC_RULES_MAX_DIMS; i++)
		if (op->kwargs[i].value.kind == TLC_VALUE_TENSOR)
			vals[n++] = &op->kwargs[i].value;
	if (n == 0 && scalar_overload(op))
		return 0; /* TorchScript number arithmetic (add.int, ...): one operation */
	if (n == 0)
		return tlc_rules__missing(out, host, "no tensor argument or output to count");
	int64_t shape[TLC_RULES_MAX_DIMS];
	size_t nd = 0;
	int rc = tlc_rules__broadcast_values(shape, &nd, host, vals, n);
	if (rc < 0)
		return tlc_rules__bad(out, host, "input shapes do not broadcast");
	tlc_rules__term_mul_shape(term, shape, nd);
	return 0;
}

static int is_floating(tlc_dtype d)
{
	return d == TLC_DTYPE_FLOAT64 || d == TLC_DTYPE_FLOAT32 || d == TLC_DTYPE_FLOAT16 ||
	       d == TLC_DTYPE_BFLOAT16;
}

/* Ops whose result is bool whatever their inputs. */
static int bool_result(const char *name)
{
	static const char *const names[] = { "aten::eq", "aten::ne", "aten::lt", "aten::gt",
		"aten::le", "aten::ge", "aten::logical_and", "aten::logical_or",
		"aten::logical_xor", "aten::logical_not", "aten::isnan", "aten::isinf",
		"aten::isfinite", "aten::signbit", "aten::greater", "aten::greater_equal",
		"aten::less", "aten::less_equal", "aten::not_equal" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(name, names[i]) == 0)
			return 1;
	return 0;
}

/* dtype of an out-of-place result that was not recorded: bool for
 * comparisons; otherwise the one floating dtype shared by the non-bool
 * tensor inputs that have dims (0-d tensors and bool masks do not change a
 * floating result's dtype, and number scalars never do). NONE when type
 * promotion could go elsewhere (integer inputs, mixed dtypes, dtype=). */
static tlc_dtype inferred_dtype(const tlc_op *op, const tlc_host *host)
{
	if (bool_result(op->name))
		return TLC_DTYPE_BOOL;
	if (host->op_kwarg(op, "dtype"))
		return TLC_DTYPE_NONE;
	tlc_dtype d = TLC_DTYPE_NONE;
	for (int pass = 0; pass < 2 && d == TLC_DTYPE_NONE; pass++) {
		for (size_t i = 0; i < op->nargs + op->nkwargs; i++) {
			const tlc_value *v = i < op->nargs ? &op->args[i] : &op->kwargs[i - op->nargs].value;
			const tlc_tensor *t = tlc_rules__tensor(v);
			if (!t || t->dtype == TLC_DTYPE_BOOL || (pass == 0 && t->ndim == 0))
				continue;
			if (!is_floating(t->dtype) || (d != TLC_DTYPE_NONE && d != t->dtype))
				return TLC_DTYPE_NONE;
			d = t->dtype;
		}
	}
	return d;
}

/* Read every input once; write the outputs (or the in-place/out= tensor,
 * or the broadcast result when its dtype follows from the inputs). When
 * nothing tells the result's dtype the bytes are marked unknown. */
static int pw_bytes(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                    const tlc_rules_term *elems)
{
	int rc = host->read_inputs(out, op);
	if (rc < 0)
		return tlc_rules__need(out, host, rc, "input tensors");
	const tlc_tensor *r = result_tensor(op, host);
	tlc_dtype d = TLC_DTYPE_NONE;
	if ((op->flags & TLC_OP_HAS_OUTPUTS) && op->noutputs > 0)
		rc = host->write_outputs(out, op, NULL);
	else if (r)
		rc = tlc_rules__write_shape(out, host, r->shape, r->ndim, r->dtype);
	else if (scalar_overload(op))
		rc = 0; /* a number result: no tensor traffic */
	else if (elems && (d = inferred_dtype(op, host)) != TLC_DTYPE_NONE)
		/* native_dropout also writes its bool mask, one byte per element */
		rc = tlc_rules__term_add(out, host, TLC_FIELD_BYTES_WRITTEN,
		                         (int64_t)tlc_dtype_size(d) +
		                                 (strcmp(op->name, "aten::native_dropout") == 0),
		                         elems);
	else
		rc = tlc_rules__write_shape(out, host, NULL, 0, TLC_DTYPE_NONE);
	return tlc_rules__need(out, host, rc, "output tensors");
}

/* other_flops += k * output elements, plus the bytes. */
static int pw_count(tlc_cost *out, const tlc_op *op, const tlc_host *host, int64_t k)
{
	tlc_rules_term term;
	tlc_rules__term_init(&term);
	int rc = output_elems(&term, out, op, host);
	if (rc < 0)
		return rc;
	rc = tlc_rules__term_add(out, host, TLC_FIELD_OTHER_FLOPS, k, &term);
	if (rc < 0)
		return tlc_rules__bad(out, host, "bad shape");
	return pw_bytes(out, op, host, &term);
}

/* Nonzero when the scalar arg (i, name) is present and differs from 1. */
static int scalar_not_one(int *out, const tlc_op *op, const tlc_host *host, size_t i,
                          const char *name)
{
	double v = 1.0;
	const tlc_value *a = host->arg(op, i, name);
	if (tlc_rules__unrecorded(a))
		return TLC_RULE_MISSING_ARGS;
	if (a && (a->kind == TLC_VALUE_TENSOR || a->kind == TLC_VALUE_STRING)) {
		*out = 1; /* a tensor scale, or "inf"/"-inf"/"nan": a multiply per element */
		return 0;
	}
	int rc = tlc_rules__real_arg_or(&v, op, host, i, name, 1.0);
	*out = v != 1.0;
	return rc;
}

/* ---- rule functions -------------------------------------------------- */

/* k FLOPs per output element, k from the payload. */
static int pw_const(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	return pw_count(out, op, host, *(const int64_t *)payload);
}

/* a + alpha*b: 1 FLOP, 2 when alpha (arg 2) is given and != 1. */
static int pw_alpha(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)payload;
	int scaled = 0;
	int rc = scalar_not_one(&scaled, op, host, 2, "alpha");
	if (rc < 0)
		return tlc_rules__arg_fail(out, host, op, rc, "alpha", "bad alpha");
	return pw_count(out, op, host, 1 + scaled);
}

/* self + value * t1 (op) t2: 2 FLOPs, 3 when value (arg 3) != 1. */
static int pw_addc(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)payload;
	int scaled = 0;
	int rc = scalar_not_one(&scaled, op, host, 3, "value");
	if (rc < 0)
		return tlc_rules__arg_fail(out, host, op, rc, "value", "bad value");
	return pw_count(out, op, host, 2 + scaled);
}

/* clamp(self, min, max): one compare per bound given. */
static int pw_clamp(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)payload;
	int lo = 0, hi = 0;
	int rc = tlc_rules__given(&lo, op, host, 1, "min");
	if (rc == 0)
		rc = tlc_rules__given(&hi, op, host, 2, "max");
	if (rc < 0)
		return tlc_rules__arg_fail(out, host, op, rc, "min/max", "bad min/max");
	return pw_count(out, op, host, lo + hi);
}

/* pow: exponent 2 (x*x), 0.5 (sqrt) and -1 (1/x) are one exact op; any other
 * exponent is one FLOP by convention (estimated). */
static int pw_pow(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)payload;
	const tlc_value *e = host->arg(op, 1, "exponent");
	if (e && (e->kind == TLC_VALUE_INT || e->kind == TLC_VALUE_FLOAT) &&
	    host->tensor_arg(op, 0, "self")) {
		double x = e->kind == TLC_VALUE_INT ? (double)e->u.integer : e->u.real;
		if (x == 2.0 || x == 0.5 || x == -1.0)
			host->cost_set_evidence(out, EX);
	}
	return pw_count(out, op, host, 1);
}

/* gelu_backward per element (docs/rule-constants.md) */
#define GELU_BW_ERF 11
#define GELU_BW_TANH 18

/* Whether arg (i, name) names the tanh approximation of gelu. */
static int gelu_tanh(int *out, const tlc_op *op, const tlc_host *host, size_t i)
{
	const char *s = NULL;
	int rc = tlc_rules__string_arg(&s, op, host, i, "approximate", "none");
	if (rc < 0)
		return rc;
	if (strcmp(s, "none") != 0 && strcmp(s, "tanh") != 0)
		return TLC_RULE_BAD_ARGS;
	*out = strcmp(s, "tanh") == 0;
	return 0;
}

/* gelu or gelu_backward whose `approximate` the input did not record (a
 * trace records no string): partly known. The bytes and the 0 MACs are
 * determined; other_flops is erf_k or tanh_k per element, which only the
 * selector decides, so it is missing (contract: "Partly known ops"). */
static int gelu_partial(tlc_cost *out, const tlc_op *op, const tlc_host *host, int erf_k,
                        int tanh_k)
{
	if (!TLC_HOST_HAS(host, cost_set_missing))
		return tlc_rules__missing_arg(out, host, op, "approximate ('none' or 'tanh')");
	int rc = pw_count(out, op, host, 0);
	if (rc < 0)
		return rc;
	char why[200];
	snprintf(why, sizeof why,
	         "approximate not recorded (no trace records a string): other_flops is %d per "
	         "output element (erf form, 'none') or %d ('tanh'), so %d*numel(out) <= "
	         "other_flops <= %d*numel(out)", erf_k, tanh_k, erf_k, tanh_k);
	host->cost_explain(out, why);
	host->cost_set_missing(out, TLC_FIELD_OTHER_FLOPS);
	return TLC_RULE_OK;
}

static int pw_gelu(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)payload;
	int approx = 0;
	int rc = gelu_tanh(&approx, op, host, 1);
	if (rc == TLC_RULE_MISSING_ARGS)
		return gelu_partial(out, op, host, TLC_RULES_K_GELU, TLC_RULES_K_GELU_TANH);
	if (rc < 0)
		return tlc_rules__arg_fail(out, host, op, rc, "approximate ('none' or 'tanh')",
		                           "approximate must be 'none' or 'tanh'");
	return pw_count(out, op, host, approx ? TLC_RULES_K_GELU_TANH : TLC_RULES_K_GELU);
}

static int pw_gelu_bw(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                      void *payload)
{
	(void)payload;
	int approx = 0;
	int rc = gelu_tanh(&approx, op, host, 2);
	if (rc == TLC_RULE_MISSING_ARGS)
		return gelu_partial(out, op, host, GELU_BW_ERF, GELU_BW_TANH);
	if (rc < 0)
		return tlc_rules__arg_fail(out, host, op, rc, "approximate ('none' or 'tanh')",
		                           "approximate must be 'none' or 'tanh'");
	return pw_count(out, op, host, approx ? GELU_BW_TANH : GELU_BW_ERF);
}

/* where(cond, a, b): one select per element; where(cond) alone is
 * nonzero(cond): one compare per condition element. */
static int pw_where(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)payload;
	const tlc_tensor *cond = host->tensor_arg(op, 0, "condition");
	int single = op->nargs <= 1 && !host->arg(op, 1, "self");
	if (!single)
		return pw_count(out, op, host, 1);
	if (!cond)
		return tlc_rules__missing(out, host, "missing condition tensor");
	int rc = host->cost_add_numel(out, TLC_FIELD_OTHER_FLOPS, 1, cond);
	if (rc < 0)
		return tlc_rules__bad(out, host, "bad condition shape");
	rc = tlc_rules__io_bytes(out, op, host, NULL);
	if (rc == TLC_RULE_MISSING_ARGS)
		return tlc_rules__write_shape(out, host, NULL, 0, TLC_DTYPE_NONE) < 0 ? rc : 0;
	return tlc_rules__need(out, host, rc, "tensors");
}

/* Training flag of dropout(input, p, train) / native_dropout(input, p, train?):
 * absent (None) means training for native_dropout. */
static int dropout_train(int *out, const tlc_op *op, const tlc_host *host)
{
	return tlc_rules__bool_arg_or(out, op, host, 2, "train", 1);
}

/* dropout when training: a compare of the random draw against p and the
 * 1/(1-p) scale multiply per element (estimated: the draw is not counted). */
static int pw_dropout(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                      void *payload)
{
	(void)payload;
	int train = 1;
	int rc = dropout_train(&train, op, host);
	if (rc < 0)
		return tlc_rules__arg_fail(out, host, op, rc, "train flag", "bad train flag");
	if (train)
		return pw_count(out, op, host, 2);
	host->cost_set_evidence(out, EX);
	if (strcmp(op->name, "aten::native_dropout") == 0) {
		host->cost_explain(out, "eval mode: output is a copy of the input, no arithmetic");
		return pw_count(out, op, host, 0);
	}
	/* aten::dropout(train=False) returns its input itself: no work, no traffic */
	host->cost_explain(out, "eval mode: dropout returns its input (no arithmetic, no traffic)");
	return TLC_RULE_OK;
}

/* fill_/zero_: no arithmetic; the tensor is written once (a Tensor value is read). */
static int pw_fill(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)payload;
	const tlc_value *self = host->arg(op, 0, "self");
	if (!tlc_rules__tensor(self))
		return tlc_rules__missing(out, host, "missing self tensor");
	int rc = tlc_rules__read_value(out, host, host->arg(op, 1, "value"));
	if (rc < 0)
		return tlc_rules__need(out, host, rc, "value");
	host->cost_explain(out, "fill: no arithmetic, the tensor is written once");
	rc = host->cost_add_bytes(out, TLC_FIELD_BYTES_WRITTEN, self);
	return tlc_rules__need(out, host, rc, "self tensor");
}

/* bernoulli_(self, p) / bernoulli(self, p?): one compare of a random draw
 * against p per element (estimated: the draw itself is not counted). The
 * in-place form reads only p (self is overwritten, its values unused). */
static int pw_bernoulli(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                        void *payload)
{
	(void)payload;
	if (!tlc_rules__is_inplace(op))
		return pw_count(out, op, host, 1);
	const tlc_value *self = host->arg(op, 0, "self");
	const tlc_tensor *t = tlc_rules__tensor(self);
	if (!t)
		return tlc_rules__missing(out, host, "missing self tensor");
	int rc = host->cost_add_numel(out, TLC_FIELD_OTHER_FLOPS, 1, t);
	if (rc < 0)
		return tlc_rules__bad(out, host, "bad self shape");
	rc = tlc_rules__read_value(out, host, host->arg(op, 1, "p"));
	if (rc < 0)
		return tlc_rules__need(out, host, rc, "p");
	rc = host->cost_add_bytes(out, TLC_FIELD_BYTES_WRITTEN, self);
	return tlc_rules__need(out, host, rc, "self tensor");
}

/* Random draws (docs/rule-constants.md): drawing a number is integer/bit
 * work in the generator, not floating-point arithmetic on data, so a draw
 * counts 0, as in dropout/bernoulli (which count only their compare). What
 * is done to a draw counts: normal_/uniform_ scale and shift it (2 per
 * element), random_ with a range takes a modulo and adds the start (2 per
 * element). All estimated (the kernels differ: Box-Muller, Philox).
 * In-place forms overwrite self without reading it. */
static int pw_rng_inplace(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                          void *payload)
{
	int64_t k = *(const int64_t *)payload;
	const tlc_value *self = host->arg(op, 0, "self");
	const tlc_tensor *t = tlc_rules__tensor(self);
	if (!t)
		return tlc_rules__missing(out, host, "missing self tensor");
	if (k < 0) {
		/* random_(self, [from,] to, generator): a range when from/to are
		 * given: op logs by value, traces by the argument count (random_ 2,
		 * random_.to 3, random_.from 4) */
		k = 0;
		if (tlc_rules__observed(op))
			k = op->nargs >= 3 ? 2 : 0;
		else
			for (size_t i = 1; i < op->nargs && i < 3; i++)
				if (op->args[i].kind == TLC_VALUE_INT)
					k = 2;
		if (!tlc_rules__observed(op) && (host->op_kwarg(op, "to") || host->op_kwarg(op, "from")))
			k = 2;
	}
	int rc = host->cost_add_numel(out, TLC_FIELD_OTHER_FLOPS, k, t);
	if (rc < 0)
		return tlc_rules__bad(out, host, "bad self shape");
	if (k == 0)
		host->cost_explain(out, "random draws: 0 FLOPs by convention (the tensor is written once)");
	rc = host->cost_add_bytes(out, TLC_FIELD_BYTES_WRITTEN, self);
	return tlc_rules__need(out, host, rc, "self tensor");
}

/* randn/rand(size, ...): draws only, 0 FLOPs; writes prod(size) elements of
 * the dtype (a trace's positional ScalarType code, an op log's dtype=, or
 * the recorded output); the default dtype is not assumed (bytes unknown). */
static int pw_rng_new(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)payload;
	host->cost_explain(out, "random draws: 0 FLOPs by convention (the result is written once)");
	if ((op->flags & TLC_OP_HAS_OUTPUTS) && op->noutputs > 0)
		return tlc_rules__need(out, host, host->write_outputs(out, op, NULL),
		                       "outputs");
	int64_t shape[TLC_RULES_MAX_DIMS];
	size_t n = 0;
	int rc = tlc_rules__int_list(shape, TLC_RULES_MAX_DIMS, &n, host->arg(op, 0, "size"));
	if (rc < 0)
		return tlc_rules__arg_fail(out, host, op, rc, "size", "bad size");
	tlc_dtype dt = TLC_DTYPE_NONE;
	const tlc_value *d = tlc_rules__observed(op) ?
		host->arg(op, op->nargs >= 6 ? 2 : 1, NULL) : host->op_kwarg(op, "dtype");
	if (d && d->kind == TLC_VALUE_INT)
		dt = tlc_rules__dtype_code(d->u.integer);
	else if (d && d->kind == TLC_VALUE_STRING)
		dt = host->dtype_parse(d->u.string);
	return tlc_rules__write_shape(out, host, shape, n, dt);
}

/* randn_like/rand_like(self, dtype, ...): draws only; writes a self-shaped
 * tensor in dtype (None: self's), without reading self's values. */
static int pw_rng_like(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)payload;
	const tlc_tensor *t = host->tensor_arg(op, 0, "self");
	if (!t)
		return tlc_rules__missing(out, host, "missing self tensor");
	host->cost_explain(out, "random draws: 0 FLOPs by convention (the result is written once)");
	if ((op->flags & TLC_OP_HAS_OUTPUTS) && op->noutputs > 0)
		return tlc_rules__need(out, host, host->write_outputs(out, op, NULL),
		                       "outputs");
	tlc_dtype dt = t->dtype;
	const tlc_value *d = tlc_rules__observed(op) ? host->arg(op, 1, NULL)
	                                             : host->op_kwarg(op, "dtype");
	if (d && d->kind == TLC_VALUE_INT)
		dt = tlc_rules__dtype_code(d->u.integer);
	else if (d && d->kind == TLC_VALUE_STRING)
		dt = host->dtype_parse(d->u.string);
	else if (d && d->kind != TLC_VALUE_NONE)
		dt = TLC_DTYPE_NONE; /* passed, not recorded */
	return tlc_rules__write_shape(out, host, t->shape, t->ndim, dt);
}

/* k per element of self (arg 0), for ops whose operands do not broadcast
 * numpy-style (prelu's weight aligns with dim 1). The result, when not
 * recorded, is self-shaped in self's dtype. */
static int pw_self(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	const tlc_value *self = host->arg(op, 0, NULL);
	const tlc_tensor *t = tlc_rules__tensor(self);
	if (!t)
		return tlc_rules__missing(out, host, "missing self tensor");
	if (host->cost_add_numel(out, TLC_FIELD_OTHER_FLOPS, *(const int64_t *)payload, t) < 0)
		return tlc_rules__bad(out, host, "bad self shape");
	int rc = tlc_rules__io_bytes(out, op, host, self);
	return tlc_rules__need(out, host, rc, "tensors");
}

/* Like pw_self for ops with several outputs: bytes unknown without them. */
static int pw_self_multi(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                         void *payload)
{
	const tlc_tensor *t = host->tensor_arg(op, 0, NULL);
	if (!t)
		return tlc_rules__missing(out, host, "missing first tensor argument");
	if (host->cost_add_numel(out, TLC_FIELD_OTHER_FLOPS, *(const int64_t *)payload, t) < 0)
		return tlc_rules__bad(out, host, "bad shape");
	int rc = tlc_rules__io_bytes(out, op, host, NULL);
	if (rc == TLC_RULE_MISSING_ARGS)
		return tlc_rules__write_shape(out, host, NULL, 0, TLC_DTYPE_NONE);
	return tlc_rules__need(out, host, rc, "tensors");
}

/* glu(self, dim): a * sigmoid(b) over the two halves of dim: 5 per output
 * element (estimated: sigmoid 4 + multiply). */
static int pw_glu(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)payload;
	const tlc_tensor *x = host->tensor_arg(op, 0, "self");
	int64_t dim = -1, shape[TLC_RULES_MAX_DIMS];
	if (!x)
		return tlc_rules__missing(out, host, "missing self tensor");
	int rc = host->int_arg_or(&dim, op, 1, "dim", -1);
	if (rc < 0)
		return tlc_rules__arg_fail(out, host, op, rc, "dim", "bad dim");
	if (x->ndim == 0 ||
	    x->ndim > TLC_RULES_MAX_DIMS || host->dim(x, dim) < 0 ||
	    host->dim(x, dim) % 2 != 0)
		return tlc_rules__bad(out, host, "glu needs an even-sized dim");
	memcpy(shape, x->shape, x->ndim * sizeof shape[0]);
	shape[dim < 0 ? dim + (int64_t)x->ndim : dim] /= 2;
	if (host->cost_add(out, TLC_FIELD_OTHER_FLOPS, 5, x->ndim, shape) < 0)
		return tlc_rules__bad(out, host, "bad shape");
	rc = host->read_inputs(out, op);
	if (rc == 0 && (op->flags & TLC_OP_HAS_OUTPUTS) && op->noutputs > 0)
		rc = host->write_outputs(out, op, NULL);
	else if (rc == 0)
		rc = tlc_rules__write_shape(out, host, shape, x->ndim, x->dtype);
	return tlc_rules__need(out, host, rc, "tensors");
}

/* ---- registration ---------------------------------------------------- */

#define C(name, k, ev, note) { name, TLC_RULE_COST, ev, pw_const, &k, note }
#define F(name, fn, ev, note) { name, TLC_RULE_COST, ev, fn, NULL, note }

static const tlc_rules_entry arith[] = {
	F("aten::add", pw_alpha, EX, "numel(out) * (1 + [alpha != 1])"),
	F("aten::add_", pw_alpha, EX, "numel(self) * (1 + [alpha != 1]); in-place"),
	F("aten::sub", pw_alpha, EX, "numel(out) * (1 + [alpha != 1])"),
	F("aten::sub_", pw_alpha, EX, "numel(self) * (1 + [alpha != 1]); in-place"),
	F("aten::rsub", pw_alpha, EX, "numel(out) * (1 + [alpha != 1])"),
	C("aten::mul", K1, EX, "numel(out) multiplies"),
	C("aten::mul_", K1, EX, "numel(self) multiplies; in-place"),
	C("aten::div", K1, EX, "numel(out) divides (rounding modes included)"),
	C("aten::div_", K1, EX, "numel(self) divides; in-place"),
	C("aten::true_divide", K1, EX, "numel(out) divides"),
	C("aten::neg", K1, EX, "numel(out)"),
	C("aten::neg_", K1, EX, "numel(self)"),
	C("aten::abs", K1, EX, "numel(out)"),
	C("aten::abs_", K1, EX, "numel(self)"),
	C("aten::sign", K1, EX, "numel(out)"),
	C("aten::sign_", K1, EX, "numel(self)"),
	C("aten::sgn", K1, EX, "numel(out)"),
	C("aten::floor", K1, EX, "numel(out) roundings"),
	C("aten::floor_", K1, EX, "numel(self) roundings"),
	C("aten::ceil", K1, EX, "numel(out) roundings"),
	C("aten::ceil_", K1, EX, "numel(self) roundings"),
	C("aten::round", K1, EX, "numel(out) roundings"),
	C("aten::round_", K1, EX, "numel(self) roundings"),
	C("aten::trunc", K1, EX, "numel(out) roundings"),
	C("aten::frac", K1, EX, "numel(out)"),
	C("aten::reciprocal", K1, EX, "numel(out) divides"),
	C("aten::reciprocal_", K1, EX, "numel(self) divides"),
	C("aten::sqrt", K1, EX, "numel(out) square roots"),
	C("aten::sqrt_", K1, EX, "numel(self) square roots"),
	C("aten::square", K1, EX, "numel(out) multiplies"),
	C("aten::rsqrt", K2, EX, "2 * numel(out): sqrt and divide"),
	C("aten::rsqrt_", K2, EX, "2 * numel(self): sqrt and divide"),
	F("aten::pow", pw_pow, ES, "numel(out); exact for exponent 2, 0.5, -1"),
	F("aten::pow_", pw_pow, ES, "numel(self); exact for exponent 2, 0.5, -1"),
	C("aten::maximum", K1, EX, "numel(out) compares"),
	C("aten::minimum", K1, EX, "numel(out) compares"),
	C("aten::fmax", K1, EX, "numel(out) compares"),
	C("aten::fmin", K1, EX, "numel(out) compares"),
	F("aten::addcmul", pw_addc, EX, "numel(out) * (2 + [value != 1])"),
	F("aten::addcmul_", pw_addc, EX, "numel(self) * (2 + [value != 1])"),
	F("aten::addcdiv", pw_addc, EX, "numel(out) * (2 + [value != 1])"),
	F("aten::addcdiv_", pw_addc, EX, "numel(self) * (2 + [value != 1])"),
	C("aten::lerp", K3, EX, "3 * numel(out): self + w * (end - self)"),
	C("aten::lerp_", K3, EX, "3 * numel(self): self + w * (end - self)"),
};

static const tlc_rules_entry transc[] = {
	C("aten::exp", K1, ES, "numel(out); a transcendental counts 1"),
	C("aten::exp_", K1, ES, "numel(self); a transcendental counts 1"),
	C("aten::exp2", K1, ES, "numel(out); a transcendental counts 1"),
	C("aten::expm1", K1, ES, "numel(out); a transcendental counts 1"),
	C("aten::log", K1, ES, "numel(out); a transcendental counts 1"),
	C("aten::log_", K1, ES, "numel(self); a transcendental counts 1"),
	C("aten::log2", K1, ES, "numel(out); a transcendental counts 1"),
	C("aten::log10", K1, ES, "numel(out); a transcendental counts 1"),
	C("aten::log1p", K1, ES, "numel(out); a transcendental counts 1"),
	C("aten::sin", K1, ES, "numel(out); a transcendental counts 1"),
	C("aten::cos", K1, ES, "numel(out); a transcendental counts 1"),
	C("aten::tan", K1, ES, "numel(out); a transcendental counts 1"),
	C("aten::tanh", K1, ES, "numel(out); a transcendental counts 1"),
	C("aten::tanh_", K1, ES, "numel(self); a transcendental counts 1"),
	C("aten::erf", K1, ES, "numel(out); a transcendental counts 1"),
	C("aten::erf_", K1, ES, "numel(self); a transcendental counts 1"),
	C("aten::erfc", K1, ES, "numel(out); a transcendental counts 1"),
};

static const tlc_rules_entry compare[] = {
	F("aten::clamp", pw_clamp, EX, "numel(out) * number of bounds given"),
	F("aten::clamp_", pw_clamp, EX, "numel(self) * number of bounds given"),
	C("aten::clamp_min", K1, EX, "numel(out) compares"),
	C("aten::clamp_min_", K1, EX, "numel(self) compares"),
	C("aten::clamp_max", K1, EX, "numel(out) compares"),
	C("aten::clamp_max_", K1, EX, "numel(self) compares"),
	C("aten::hardtanh", K2, EX, "2 * numel(out) compares"),
	C("aten::hardtanh_", K2, EX, "2 * numel(self) compares"),
	C("aten::relu6", K2, EX, "2 * numel(out) compares"),
	F("aten::where", pw_where, EX, "numel(out) selects; where(cond): numel(cond) compares"),
	C("aten::eq", K1, EX, "numel(out) compares"),
	C("aten::eq_", K1, EX, "numel(self) compares"),
	C("aten::ne", K1, EX, "numel(out) compares"),
	C("aten::ne_", K1, EX, "numel(self) compares"),
	C("aten::lt", K1, EX, "numel(out) compares"),
	C("aten::lt_", K1, EX, "numel(self) compares"),
	C("aten::gt", K1, EX, "numel(out) compares"),
	C("aten::gt_", K1, EX, "numel(self) compares"),
	C("aten::le", K1, EX, "numel(out) compares"),
	C("aten::le_", K1, EX, "numel(self) compares"),
	C("aten::ge", K1, EX, "numel(out) compares"),
	C("aten::ge_", K1, EX, "numel(self) compares"),
	C("aten::logical_and", K1, EX, "numel(out)"),
	C("aten::logical_and_", K1, EX, "numel(self)"),
	C("aten::logical_or", K1, EX, "numel(out)"),
	C("aten::logical_or_", K1, EX, "numel(self)"),
	C("aten::logical_xor", K1, EX, "numel(out)"),
	C("aten::logical_not", K1, EX, "numel(out)"),
	C("aten::logical_not_", K1, EX, "numel(self)"),
};

static const tlc_rules_entry activ[] = {
	C("aten::relu", K_RELU, EX, "numel(out) compares: max(x, 0)"),
	C("aten::relu_", K_RELU, EX, "numel(self) compares: max(x, 0)"),
	C("aten::threshold", K1, EX, "numel(out) compare-selects"),
	C("aten::threshold_", K1, EX, "numel(self) compare-selects"),
	C("aten::leaky_relu", K2, EX, "2 * numel(out): compare, multiply"),
	C("aten::leaky_relu_", K2, EX, "2 * numel(self): compare, multiply"),
	C("aten::elu", K4, ES, "4 * numel(out): compare, exp, subtract, multiply"),
	C("aten::elu_", K4, ES, "4 * numel(self): compare, exp, subtract, multiply"),
	F("aten::gelu", pw_gelu, ES, "5 * numel(out) (erf form), 9 (tanh form)"),
	F("aten::gelu_", pw_gelu, ES, "5 * numel(self) (erf form), 9 (tanh form)"),
	C("aten::silu", K5, ES, "5 * numel(out): x * sigmoid(x)"),
	C("aten::silu_", K5, ES, "5 * numel(self): x * sigmoid(x)"),
	C("aten::sigmoid", K4, ES, "4 * numel(out): 1 / (1 + exp(-x))"),
	C("aten::sigmoid_", K4, ES, "4 * numel(self): 1 / (1 + exp(-x))"),
	C("aten::hardswish", K5, EX, "5 * numel(out): x * relu6(x + 3) / 6"),
	C("aten::hardswish_", K5, EX, "5 * numel(self): x * relu6(x + 3) / 6"),
	C("aten::hardsigmoid", K4, EX, "4 * numel(out): relu6(x + 3) / 6"),
	C("aten::hardsigmoid_", K4, EX, "4 * numel(self): relu6(x + 3) / 6"),
	C("aten::mish", K5, ES, "5 * numel(out): x * tanh(log(1 + exp(x)))"),
	C("aten::mish_", K5, ES, "5 * numel(self): x * tanh(log(1 + exp(x)))"),
	C("aten::softplus", K5, ES, "5 * numel(out): log1p(exp(b*x))/b, threshold compare"),
};

static const tlc_rules_entry backward[] = {
	C("aten::threshold_backward", K2, EX, "2 * numel(out): compare, select"),
	F("aten::gelu_backward", pw_gelu_bw, ES, "11 * numel(out) (erf form), 18 (tanh form)"),
	C("aten::silu_backward", K9, ES, "9 * numel(out)"),
	C("aten::hardswish_backward", K6, EX, "6 * numel(out): 2 compares, 2x+3, /6, * grad"),
	C("aten::hardsigmoid_backward", K3, EX, "3 * numel(out): 2 compares, grad / 6"),
	C("aten::sigmoid_backward", K3, EX, "3 * numel(out): grad * y * (1 - y)"),
	C("aten::tanh_backward", K3, EX, "3 * numel(out): grad * (1 - y * y)"),
	C("aten::leaky_relu_backward", K2, EX, "2 * numel(out): compare, multiply"),
	C("aten::elu_backward", K5, ES, "5 * numel(out)"),
	C("aten::hardtanh_backward", K3, EX, "3 * numel(out): 2 compares, select"),
	C("aten::softplus_backward", K6, ES, "6 * numel(out)"),
	C("aten::mish_backward", K11, ES, "11 * numel(out)"),
	C("aten::native_dropout_backward", K2, EX, "2 * numel(out): grad * mask * scale"),
};

static const tlc_rules_entry misc[] = {
	F("aten::dropout", pw_dropout, ES, "training: 2 * numel(out) (draw compare, scale); eval: 0"),
	F("aten::dropout_", pw_dropout, ES, "training: 2 * numel(self); eval: 0"),
	F("aten::native_dropout", pw_dropout, ES, "training: 2 * numel(out); eval: 0 (copy)"),
	F("aten::bernoulli", pw_bernoulli, ES, "numel(out) compares of a draw against p"),
	F("aten::bernoulli_", pw_bernoulli, ES, "numel(self) compares of a draw against p"),
	F("aten::fill_", pw_fill, EX, "0: no arithmetic, self written once"),
	F("aten::zero_", pw_fill, EX, "0: no arithmetic, self written once"),
};

#define S(name, k, ev, note) { name, TLC_RULE_COST, ev, pw_self, &k, note }
#define SM(name, k, ev, note) { name, TLC_RULE_COST, ev, pw_self_multi, &k, note }

static const tlc_rules_entry more[] = {
	C("aten::fmod", K1, EX, "numel(out)"),
	C("aten::remainder", K1, EX, "numel(out)"),
	C("aten::floor_divide", K1, EX, "numel(out) divides (rounded)"),
	C("aten::bitwise_and", K1, EX, "numel(out)"),
	C("aten::bitwise_and_", K1, EX, "numel(self)"),
	C("aten::bitwise_or", K1, EX, "numel(out)"),
	C("aten::bitwise_or_", K1, EX, "numel(self)"),
	C("aten::bitwise_xor", K1, EX, "numel(out)"),
	C("aten::bitwise_not", K1, EX, "numel(out)"),
	C("aten::isnan", K1, EX, "numel(out) compares"),
	C("aten::isinf", K1, EX, "numel(out) compares"),
	C("aten::isfinite", K1, EX, "numel(out) compares"),
	C("aten::signbit", K1, EX, "numel(out)"),
	C("aten::copysign", K1, EX, "numel(out)"),
	C("aten::nan_to_num", K3, EX, "3 * numel(out): nan, +inf, -inf selects"),
	C("aten::nan_to_num_", K3, EX, "3 * numel(self): nan, +inf, -inf selects"),
	C("aten::atan2", K1, ES, "numel(out); a transcendental counts 1"),
	C("aten::sinh", K1, ES, "numel(out); a transcendental counts 1"),
	C("aten::cosh", K1, ES, "numel(out); a transcendental counts 1"),
	C("aten::asin", K1, ES, "numel(out); a transcendental counts 1"),
	C("aten::acos", K1, ES, "numel(out); a transcendental counts 1"),
	C("aten::atan", K1, ES, "numel(out); a transcendental counts 1"),
	C("aten::erfinv", K1, ES, "numel(out); a transcendental counts 1"),
	C("aten::logit", K3, ES, "3 * numel(out): 1 - x, divide, log"),
	C("aten::xlogy", K3, ES, "3 * numel(out): log, multiply, zero select"),
	C("aten::selu", K5, ES, "5 * numel(out): elu (4) + scale"),
	C("aten::selu_", K5, ES, "5 * numel(self): elu (4) + scale"),
	C("aten::celu", K5, ES, "5 * numel(out): compare, x/alpha, exp, -1, *alpha"),
	C("aten::celu_", K5, ES, "5 * numel(self): compare, x/alpha, exp, -1, *alpha"),
	C("aten::softshrink", K3, EX, "3 * numel(out): 2 compares, shift"),
	C("aten::hardshrink", K2, EX, "2 * numel(out) compares"),
	C("aten::softshrink_backward", K2, EX, "2 * numel(out) compares"),
	C("aten::hardshrink_backward", K2, EX, "2 * numel(out) compares"),
	F("aten::glu", pw_glu, ES, "5 * numel(out): a * sigmoid(b)"),
	C("aten::glu_backward", K4, ES, "4 * numel(grad_input) = 8 per grad_output element"),
	S("aten::prelu", K2, EX, "2 * numel(self): compare, multiply"),
	S("aten::_prelu_kernel", K2, EX, "2 * numel(self): compare, multiply"),
	SM("aten::_prelu_kernel_backward", K5, EX,
	   "5 * numel(self): grad_input compare+multiply, grad_weight select+multiply+add"),
	SM("aten::log_sigmoid_forward", K5, ES, "5 * numel(self): -softplus(-x)"),
	C("aten::log_sigmoid_backward", K4, ES, "4 * numel(out)"),
	F("aten::feature_dropout", pw_dropout, ES, "training: 2 * numel(out); eval: 0"),
	F("aten::feature_dropout_", pw_dropout, ES, "training: 2 * numel(self); eval: 0"),
	SM("aten::_fused_dropout", K2, ES, "2 * numel(self): draw compare, scale (+ uint8 mask)"),
	C("aten::_masked_scale", K2, EX, "2 * numel(out): x * mask * scale"),
	C("aten::alpha_dropout", K3, ES, "3 * numel(out): draw compare, multiply, add"),
	C("aten::feature_alpha_dropout", K3, ES, "3 * numel(out): draw compare, multiply, add"),
	/* ATen aliases of the ops above */
	C("aten::divide", K1, EX, "numel(out) divides (alias of div)"),
	C("aten::divide_", K1, EX, "numel(self) divides (alias of div_)"),
	C("aten::true_divide_", K1, EX, "numel(self) divides"),
	C("aten::multiply", K1, EX, "numel(out) multiplies (alias of mul)"),
	C("aten::multiply_", K1, EX, "numel(self) multiplies (alias of mul_)"),
	F("aten::subtract", pw_alpha, EX, "numel(out) * (1 + [alpha != 1]) (alias of sub)"),
	F("aten::subtract_", pw_alpha, EX, "numel(self) * (1 + [alpha != 1]) (alias of sub_)"),
	C("aten::greater", K1, EX, "numel(out) compares (alias of gt)"),
	C("aten::greater_", K1, EX, "numel(self) compares"),
	C("aten::greater_equal", K1, EX, "numel(out) compares (alias of ge)"),
	C("aten::greater_equal_", K1, EX, "numel(self) compares"),
	C("aten::less", K1, EX, "numel(out) compares (alias of lt)"),
	C("aten::less_", K1, EX, "numel(self) compares"),
	C("aten::less_equal", K1, EX, "numel(out) compares (alias of le)"),
	C("aten::less_equal_", K1, EX, "numel(self) compares"),
	C("aten::not_equal", K1, EX, "numel(out) compares (alias of ne)"),
	C("aten::not_equal_", K1, EX, "numel(self) compares"),
	C("aten::absolute", K1, EX, "numel(out) (alias of abs)"),
	C("aten::absolute_", K1, EX, "numel(self) (alias of abs_)"),
	C("aten::negative", K1, EX, "numel(out) (alias of neg)"),
	C("aten::negative_", K1, EX, "numel(self) (alias of neg_)"),
	F("aten::clip", pw_clamp, EX, "numel(out) * bounds given (alias of clamp)"),
	F("aten::clip_", pw_clamp, EX, "numel(self) * bounds given (alias of clamp_)"),
	C("aten::fix", K1, EX, "numel(out) roundings (alias of trunc)"),
	C("aten::trunc_", K1, EX, "numel(self) roundings"),
	C("aten::arcsin", K1, ES, "numel(out); a transcendental counts 1"),
	C("aten::arccos", K1, ES, "numel(out); a transcendental counts 1"),
	C("aten::arctan", K1, ES, "numel(out); a transcendental counts 1"),
	C("aten::special_expit", K4, ES, "4 * numel(out) (alias of sigmoid)"),
	{ "aten::normal_", TLC_RULE_COST, ES, pw_rng_inplace, &K2,
	  "2 * numel(self): draw * std + mean (the draw counts 0)" },
	{ "aten::uniform_", TLC_RULE_COST, ES, pw_rng_inplace, &K2,
	  "2 * numel(self): draw * (to - from) + from (the draw counts 0)" },
	{ "aten::random_", TLC_RULE_COST, ES, pw_rng_inplace, &KRANGE,
	  "0 (draws); with from/to: 2 * numel(self) (modulo, add)" },
	{ "aten::randn", TLC_RULE_COST, ES, pw_rng_new, NULL, "0: draws; writes prod(size)" },
	{ "aten::rand", TLC_RULE_COST, ES, pw_rng_new, NULL, "0: draws; writes prod(size)" },
	{ "aten::randn_like", TLC_RULE_COST, ES, pw_rng_like, NULL, "0: draws; writes a self-shaped tensor" },
	{ "aten::rand_like", TLC_RULE_COST, ES, pw_rng_like, NULL, "0: draws; writes a self-shaped tensor" },
	C("torch::distributed::reducer::mul_out", K1, EX,
	  "DDP: grad * (1/world size) into the bucket: numel(grad) multiplies"),
	S("aten::tril", K0, EX, "0: a copy under an index mask (index compares not counted)"),
	S("aten::tril_", K0, EX, "0: an index mask (index compares not counted)"),
	S("aten::triu", K0, EX, "0: a copy under an index mask (index compares not counted)"),
	S("aten::triu_", K0, EX, "0: an index mask (index compares not counted)"),
};

#undef C
#undef F
#undef S
#undef SM

int tlc_rules__pointwise_init(tlc_plugin_ctx *ctx, const tlc_host *host)
{
	const struct {
		const tlc_rules_entry *tab;
		size_t n;
	} tabs[] = {
		{ arith, TLC_RULES_COUNT(arith) },     { transc, TLC_RULES_COUNT(transc) },
		{ compare, TLC_RULES_COUNT(compare) }, { activ, TLC_RULES_COUNT(activ) },
		{ backward, TLC_RULES_COUNT(backward) }, { misc, TLC_RULES_COUNT(misc) },
		{ more, TLC_RULES_COUNT(more) },
	};
	for (size_t i = 0; i < sizeof tabs / sizeof tabs[0]; i++) {
		int rc = tlc_rules__register_table(ctx, host, tabs[i].tab, tabs[i].n);
		if (rc < 0)
			return rc;
	}
	return 0;
}
