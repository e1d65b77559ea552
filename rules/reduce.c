/* Reduction rules. With n_in input elements reduced to n_out results, a
 * reduction by a binary operation costs n_in - n_out operations (exact).
 *
 * Registered names (other_flops; MACs are 0):
 *   sum (full, .dim_IntList, .IntList_out), nansum      n_in - n_out
 *   prod (full, .dim_int), cumprod                      n_in - n_out (cumprod: scan)
 *   mean (full, .dim)                                   n_in (adds + one divide per result)
 *   amax amin argmax argmin                             n_in - n_out compares
 *   max min (full, .dim)                                n_in - n_out compares;
 *   max.other min.other                                 1 per output element
 *   any all (full, .dim, .dims)                         n_in - n_out
 *   var var_mean (full, .dim, .correction)              4 n_in (two-pass, estimated)
 *   std std_mean                                        4 n_in + n_out (sqrt, estimated)
 *   norm (.Scalar .ScalarOpt_dim ...) linalg_vector_norm
 *                                p=2: 2 n_in; p=1, inf, 0: 2 n_in - n_out;
 *                                other p: 3 n_in (estimated)
 *   cumsum cumsum_                                      n_in - n_in/size(dim)
 *   logsumexp                                           4 n_in (estimated)
 *   count_nonzero                                       2 n_in - n_out
 *   aminmax                                             2 (n_in - n_out)
 *   cummax cummin                                       n_in - n_in/size(dim)
 */
#include <math.h>
#include <string.h>
#include "rules.h"
#include "util.h"

#define EX TLC_EVIDENCE_FORMULA_EXACT
#define ES TLC_EVIDENCE_ESTIMATED

/* other_flops = a * n_in + b * n_out, dims at arg dim_pos ("dim"). */
typedef struct red_spec {
	int64_t a, b;
	size_t dim_pos;
} red_spec;

/* ---- shared pieces --------------------------------------------------- */

static int has_zero_dim(const tlc_tensor *x)
{
	for (size_t i = 0; i < x->ndim; i++)
		if (x->shape[i] == 0)
			return 1;
	return 0;
}

/* kept *= the sizes of the dims of x that `dim` does not reduce. An absent
 * dim, None or [] reduces every dim. */
static int kept_dims(tlc_rules_term *kept, const tlc_tensor *x, const tlc_value *dim)
{
	int64_t dims[TLC_RULES_MAX_DIMS];
	int red[TLC_RULES_MAX_DIMS];
	size_t nd = 0;
	if (x->ndim > TLC_RULES_MAX_DIMS)
		return TLC_RULE_BAD_ARGS;
	if (dim && tlc_rules__int_list(dims, TLC_RULES_MAX_DIMS, &nd, dim) < 0)
		return TLC_RULE_BAD_ARGS;
	if (nd == 0)
		return 0; /* reduce everything: n_out = 1 */
	memset(red, 0, sizeof red);
	for (size_t i = 0; i < nd; i++) {
		int64_t d = dims[i] < 0 ? dims[i] + (int64_t)x->ndim : dims[i];
		if (x->ndim == 0 && (d == 0 || d == -1))
			continue; /* a 0-d tensor accepts dim 0 / -1 */
		if (d < 0 || d >= (int64_t)x->ndim)
			return TLC_RULE_BAD_ARGS;
		red[d] = 1;
	}
	for (size_t i = 0; i < x->ndim; i++)
		if (!red[i])
			tlc_rules__term_mul(kept, x->shape[i]);
	return 0;
}

static int is_floating(tlc_dtype d)
{
	return d == TLC_DTYPE_FLOAT64 || d == TLC_DTYPE_FLOAT32 || d == TLC_DTYPE_FLOAT16 ||
	       d == TLC_DTYPE_BFLOAT16;
}

static int name_in(const char *name, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(name, list[i]) == 0)
			return 1;
	return 0;
}

/* Bytes written per result element when the outputs were not recorded:
 * the value dtype (dtype= when given; the input's for min/max-like ops; the
 * input's floating dtype, or int64 for integer sums, otherwise) plus int64
 * indices or a second value where the op returns them. 0 when unknown. */
static int64_t result_elem_bytes(const tlc_op *op, const tlc_host *host, const tlc_tensor *x)
{
	static const char *const idx[] = { "aten::argmax", "aten::argmin", "aten::count_nonzero" };
	static const char *const keep[] = { "aten::max", "aten::min", "aten::amax", "aten::amin",
		"aten::aminmax", "aten::cummax", "aten::cummin" };
	static const char *const sums[] = { "aten::sum", "aten::nansum", "aten::prod",
		"aten::cumsum", "aten::cumsum_", "aten::cumprod" };
	static const char *const pairs[] = { "aten::aminmax", "aten::var_mean", "aten::std_mean" };
	const tlc_value *dt = host->op_kwarg(op, "dtype");
	tlc_dtype d = x->dtype;
	/* a trace lists dtype positionally: the last argument of the sums and
	 * mean, as a c10::ScalarType code */
	if (tlc_rules__observed(op) && op->nargs >= 2 &&
	    (name_in(op->name, sums, 6) || !strcmp(op->name, "aten::mean")))
		dt = &op->args[op->nargs - 1];
	int explicit_dt = 1;
	if (dt && dt->kind == TLC_VALUE_INT && tlc_rules__observed(op))
		d = tlc_rules__dtype_code(dt->u.integer);
	else if (dt && dt->kind == TLC_VALUE_STRING)
		d = host->dtype_parse(dt->u.string);
	else if (dt && dt->kind != TLC_VALUE_NONE)
		return 0;
	else
		explicit_dt = 0;
	int64_t es = tlc_dtype_size(d);
	if (name_in(op->name, idx, 3))
		return 8;
	if (!strcmp(op->name, "aten::any") || !strcmp(op->name, "aten::all"))
		return d == TLC_DTYPE_UINT8 ? 1 : tlc_dtype_size(TLC_DTYPE_BOOL);
	int64_t v = 0;
	if (es && (is_floating(d) || name_in(op->name, keep, 7) || explicit_dt))
		v = es;
	else if (es && name_in(op->name, sums, 6))
		v = 8; /* integer and bool sums accumulate in int64 */
	if (v == 0)
		return 0;
	if (name_in(op->name, pairs, 3))
		return 2 * v;
	int with_indices = !strcmp(op->name, "aten::cummax") || !strcmp(op->name, "aten::cummin") ||
	                   ((!strcmp(op->name, "aten::max") || !strcmp(op->name, "aten::min")) &&
	                    op->overload && !strncmp(op->overload, "dim", 3));
	return v + (with_indices ? 8 : 0);
}

/* Reads the input, writes the recorded outputs; without them, `results`
 * elements of the inferred result dtype(s), else the bytes are unknown. */
static int red_bytes(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                     const tlc_tensor *x, const tlc_rules_term *results)
{
	int rc = host->read_inputs(out, op);
	if (rc < 0)
		return tlc_rules__need(out, host, rc, "tensors");
	if ((op->flags & TLC_OP_HAS_OUTPUTS) && op->noutputs > 0)
		return tlc_rules__need(out, host, host->write_outputs(out, op, NULL),
		                       "outputs");
	int64_t eb = results ? result_elem_bytes(op, host, x) : 0;
	if (eb == 0)
		return tlc_rules__write_shape(out, host, NULL, 0, TLC_DTYPE_NONE);
	rc = tlc_rules__term_add(out, host, TLC_FIELD_BYTES_WRITTEN, eb, results);
	return tlc_rules__need(out, host, rc, "result shape");
}

/* The dim argument at pos, unless that slot holds something that is not a
 * dim (a bool flag or dtype string of a full-reduction overload). */
static int full_arity(const tlc_op *op);

static const tlc_value *dim_arg(const tlc_op *op, const tlc_host *host, size_t pos)
{
	if (full_arity(op))
		return NULL; /* slot pos is a dtype code or a flag, not a dim */
	const tlc_value *d = host->arg(op, pos, "dim");
	if (d && d->kind != TLC_VALUE_INT && d->kind != TLC_VALUE_LIST)
		return NULL;
	return d;
}

/* Whether the op's schema has a dim argument without a default: then a
 * record that lacks it (profiler traces truncate arguments) did not record
 * it, rather than asking for the default full reduction. */
static int dim_required(const tlc_op *op)
{
	static const char *const ovl[] = { "dim_IntList", "dim", "dim_int", "IntList_out",
		"dim_max", "dim_min", "names_dim", "dim_IntList_out", "ScalarOpt_dim",
		"ScalarOpt_dim_dtype", "dim_DimnameList" };
	if (strcmp(op->name, "aten::logsumexp") == 0)
		return 1;
	for (size_t i = 0; op->overload && i < sizeof ovl / sizeof ovl[0]; i++)
		if (strcmp(op->overload, ovl[i]) == 0)
			return 1;
	return 0;
}

/* A trace names no overload, but its argument count does: the full-reduction
 * overloads sum/mean/prod(self, dtype), var/std(self, unbiased) and
 * norm(self, p[, dtype]) have no dim argument at all. */
static int full_arity(const tlc_op *op)
{
	static const struct { const char *name; size_t max_nargs; } full[] = {
		{ "aten::sum", 2 }, { "aten::mean", 2 }, { "aten::prod", 2 },
		{ "aten::var", 2 }, { "aten::std", 2 }, { "aten::var_mean", 2 },
		{ "aten::std_mean", 2 }, { "aten::norm", 3 },
	};
	if (!tlc_rules__observed(op))
		return 0;
	for (size_t i = 0; i < sizeof full / sizeof full[0]; i++)
		if (strcmp(op->name, full[i].name) == 0)
			return op->nargs <= full[i].max_nargs;
	return 0;
}

/* kept *= the number of results: from the dim argument at pos; when a
 * required dim was not recorded, from the recorded output, or trivially for
 * a 0-d/1-d input; MISSING_ARGS otherwise (never the full reduction). */
static int kept_for_op(tlc_rules_term *kept, const tlc_op *op, const tlc_host *host,
                       const tlc_tensor *x, size_t pos)
{
	if (!full_arity(op) && tlc_rules__unrecorded(host->arg(op, pos, "dim"))) {
		/* a trace passed a dim without its value: the output pins it */
		const tlc_tensor *r = tlc_rules__tensor_out(op, 0);
		if (r) {
			tlc_rules__term_mul_numel(kept, r);
			return 0;
		}
		return x->ndim <= 1 ? 0 : TLC_RULE_MISSING_ARGS;
	}
	const tlc_value *d = dim_arg(op, host, pos);
	int recorded = pos < op->nargs || host->op_kwarg(op, "dim") != NULL;
	if (d || recorded || !dim_required(op))
		return kept_dims(kept, x, d);
	const tlc_tensor *r = tlc_rules__tensor_out(op, 0);
	if (r) {
		tlc_rules__term_mul_numel(kept, r);
		return 0;
	}
	return x->ndim <= 1 ? 0 : TLC_RULE_MISSING_ARGS;
}

/* other_flops += a * n_in + b * n_out for self = arg 0 reduced over the dim
 * argument at dim_pos. */
static int red_count(tlc_cost *out, const tlc_op *op, const tlc_host *host, int64_t a,
                     int64_t b, size_t dim_pos)
{
	const tlc_tensor *x = host->tensor_arg(op, 0, "self");
	if (!x)
		return tlc_rules__missing(out, host, "missing self tensor");
	tlc_rules_term kept;
	tlc_rules__term_init(&kept);
	int rc = kept_for_op(&kept, op, host, x, dim_pos);
	if (rc == TLC_RULE_MISSING_ARGS)
		return tlc_rules__missing_arg(out, host, op, "dim");
	if (rc < 0)
		return tlc_rules__bad(out, host, "bad dim for a %zu-d input", x->ndim);
	if (has_zero_dim(x)) {
		host->cost_explain(out, "empty input: nothing to reduce");
		return red_bytes(out, op, host, x, &kept);
	}
	rc = host->cost_add_numel(out, TLC_FIELD_OTHER_FLOPS, a, x);
	if (rc == 0)
		rc = tlc_rules__term_add(out, host, TLC_FIELD_OTHER_FLOPS, b, &kept);
	if (rc < 0)
		return tlc_rules__bad(out, host, "bad shape");
	return red_bytes(out, op, host, x, &kept);
}

/* ---- rule functions -------------------------------------------------- */

static int red_generic(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	const red_spec *s = payload;
	return red_count(out, op, host, s->a, s->b, s->dim_pos);
}

/* max/min: full, .dim, or the binary .other form (one compare per output). */
static int red_maxmin(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)payload;
	const tlc_tensor *other = host->tensor_arg(op, 1, "other");
	if (!other)
		return red_count(out, op, host, 1, -1, 1);
	const tlc_tensor *self = host->tensor_arg(op, 0, "self");
	const tlc_tensor *res = tlc_rules__tensor_out(op, 0);
	int64_t shape[TLC_RULES_MAX_DIMS];
	size_t nd = 0;
	if (!self)
		return tlc_rules__missing(out, host, "missing self tensor");
	if (res) {
		nd = res->ndim <= TLC_RULES_MAX_DIMS ? res->ndim : 0;
		memcpy(shape, res->shape, nd * sizeof shape[0]);
	} else if (host->broadcast(shape, &nd, self->shape, self->ndim, other->shape,
	                                other->ndim) < 0) {
		return tlc_rules__bad(out, host, "self and other do not broadcast");
	}
	if (host->cost_add(out, TLC_FIELD_OTHER_FLOPS, 1, nd, shape) < 0)
		return tlc_rules__bad(out, host, "bad shape");
	tlc_rules_term t; /* result dtype known only when both operands share it */
	tlc_rules__term_init(&t);
	tlc_rules__term_mul_shape(&t, shape, nd);
	return red_bytes(out, op, host, self, self->dtype == other->dtype ? &t : NULL);
}

/* p of norm / linalg_vector_norm (arg 1); None means 2. Sets *kind:
 * 2 for p=2, 1 for p in {1, inf, -inf, 0}, 0 for any other p. */
static int norm_kind(int *kind, const tlc_value *p)
{
	double v = 2.0;
	if (!p) {
		*kind = 2;
		return 0;
	}
	if (p->kind == TLC_VALUE_UNRECORDED)
		return TLC_RULE_MISSING_ARGS;
	if (p->kind == TLC_VALUE_INT)
		v = (double)p->u.integer;
	else if (p->kind == TLC_VALUE_FLOAT)
		v = p->u.real;
	else if (p->kind == TLC_VALUE_STRING &&
	         (!strcmp(p->u.string, "inf") || !strcmp(p->u.string, "-inf")))
		v = INFINITY;
	else if (p->kind == TLC_VALUE_STRING && !strcmp(p->u.string, "fro"))
		v = 2.0;
	else
		return TLC_RULE_BAD_ARGS;
	*kind = v == 2.0 ? 2 : (v == 1.0 || v == 0.0 || isinf(v)) ? 1 : 0;
	return 0;
}

static int red_norm(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)payload;
	int kind = 2;
	int rc = norm_kind(&kind, host->arg(op, 1, strstr(op->name, "linalg") ? "ord" : "p"));
	if (rc < 0)
		return tlc_rules__arg_fail(out, host, op, rc, "the norm order", "unsupported norm order");
	if (kind == 2) /* square, add (n_in - n_out), sqrt (n_out) */
		return red_count(out, op, host, 2, 0, 2);
	if (kind == 1) /* abs/compare, add or max */
		return red_count(out, op, host, 2, -1, 2);
	host->cost_set_evidence(out, ES); /* abs, pow, add, root: pow counts 1 */
	return red_count(out, op, host, 3, 0, 2);
}

/* linalg_norm(self, ord=None, dim=None, keepdim, *, dtype) and .ord_str:
 * a vector norm (1-d input, one dim, or ord None: the 2-norm of every
 * element) or the Frobenius matrix norm count as the vector norms above;
 * the matrix norms 2, -2 and 'nuc' need a singular value decomposition and
 * 1, -1, inf, -inf a sum then a max: not modelled, reported unknown. */
static int red_linalg_norm(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                           void *payload)
{
	const tlc_tensor *x = host->tensor_arg(op, 0, "self");
	if (!x)
		return tlc_rules__missing(out, host, "missing self tensor");
	const tlc_value *ord = host->arg(op, 1, "ord");
	const tlc_value *dim = host->arg(op, 2, "dim");
	int given = 0;
	int rc = tlc_rules__given(&given, op, host, 1, "ord");
	if (rc == 0 && tlc_rules__unrecorded(dim))
		rc = TLC_RULE_MISSING_ARGS;
	if (rc < 0)
		return tlc_rules__missing_arg(out, host, op, "ord or dim");
	int64_t dims[TLC_RULES_MAX_DIMS];
	size_t nd = 0;
	if (dim && tlc_rules__int_list(dims, TLC_RULES_MAX_DIMS, &nd, dim) < 0)
		return tlc_rules__bad(out, host, "bad dim");
	int fro = ord && ord->kind == TLC_VALUE_STRING && strcmp(ord->u.string, "fro") == 0;
	int matrix = ord && !fro && (dim ? nd == 2 : x->ndim == 2);
	if (matrix)
		return tlc_rules__missing(out, host, "matrix norm with ord other than 'fro' (SVD, "
		                          "or a sum then a max) is not modelled");
	if (ord && !fro && !dim && x->ndim > 2)
		return tlc_rules__bad(out, host, "ord given without dim needs a 1-d or 2-d input");
	(void)payload;
	return red_norm(out, op, host, NULL);
}

/* cumsum(self, dim): a scan of size(dim) elements costs size(dim) - 1 adds. */
static int red_scan(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)payload;
	const tlc_tensor *x = host->tensor_arg(op, 0, "self");
	int64_t dim = 0;
	if (!x)
		return tlc_rules__missing(out, host, "missing self tensor");
	int rc = tlc_rules__int_arg(&dim, op, host, 1, "dim");
	if (rc == TLC_RULE_MISSING_ARGS && x->ndim <= 1)
		rc = 0; /* a 0-d/1-d input has one dim to scan (traces may not record it) */
	if (rc < 0)
		return tlc_rules__arg_fail(out, host, op, rc, "dim", "bad dim");
	if (x->ndim == 0 || has_zero_dim(x)) {
		host->cost_explain(out, "scan over at most one element: no adds");
		tlc_rules_term all;
		tlc_rules__term_init(&all);
		tlc_rules__term_mul_numel(&all, x);
		return red_bytes(out, op, host, x, &all);
	}
	int64_t n = host->dim(x, dim);
	if (n < 0)
		return tlc_rules__bad(out, host, "dim %lld out of range", (long long)dim);
	int64_t d = dim < 0 ? dim + (int64_t)x->ndim : dim;
	tlc_rules_term t;
	tlc_rules__term_init(&t);
	tlc_rules__term_mul_dims(&t, x, 0, (size_t)d);
	tlc_rules__term_mul_dims(&t, x, (size_t)d + 1, x->ndim);
	tlc_rules__term_mul(&t, n - 1);
	if (tlc_rules__term_add(out, host, TLC_FIELD_OTHER_FLOPS, 1, &t) < 0)
		return tlc_rules__bad(out, host, "bad shape");
	tlc_rules__term_init(&t); /* the scan's result has self's shape */
	tlc_rules__term_mul_numel(&t, x);
	return red_bytes(out, op, host, x, &t);
}

/* ---- registration ----------------------------------------------------- */

static const red_spec k_sum = { 1, -1, 1 };  /* n_in - n_out */
static const red_spec k_mean = { 1, 0, 1 };  /* adds + divides */
static const red_spec k_var = { 4, 0, 1 };   /* mean, subtract, square, add, divide */
static const red_spec k_std = { 4, 1, 1 };   /* var + sqrt per result */
static const red_spec k_lse = { 4, 0, 1 };   /* max, subtract, exp, add, log, add max */
static const red_spec k_cnz = { 2, -1, 1 };  /* compare with 0, then add */
static const red_spec k_minmax = { 2, -2, 1 }; /* a min and a max reduction */

#define R(name, spec, ev, note) { name, TLC_RULE_COST, ev, red_generic, &spec, note }
#define F(name, fn, ev, note) { name, TLC_RULE_COST, ev, fn, NULL, note }

static const tlc_rules_entry rules[] = {
	R("aten::sum", k_sum, EX, "n_in - n_out adds"),
	R("aten::nansum", k_sum, EX, "n_in - n_out adds"),
	R("aten::prod", k_sum, EX, "n_in - n_out multiplies"),
	R("aten::mean", k_mean, EX, "n_in: n_in - n_out adds + n_out divides"),
	R("aten::amax", k_sum, EX, "n_in - n_out compares"),
	R("aten::amin", k_sum, EX, "n_in - n_out compares"),
	R("aten::argmax", k_sum, EX, "n_in - n_out compares"),
	R("aten::argmin", k_sum, EX, "n_in - n_out compares"),
	F("aten::max", red_maxmin, EX, "n_in - n_out compares; .other: numel(out)"),
	F("aten::min", red_maxmin, EX, "n_in - n_out compares; .other: numel(out)"),
	R("aten::any", k_sum, EX, "n_in - n_out logical ors"),
	R("aten::all", k_sum, EX, "n_in - n_out logical ands"),
	R("aten::var", k_var, ES, "4 n_in (two-pass: mean, subtract, square, add, divide)"),
	R("aten::var_mean", k_var, ES, "4 n_in (two-pass)"),
	R("aten::std", k_std, ES, "4 n_in + n_out (two-pass, sqrt per result)"),
	R("aten::std_mean", k_std, ES, "4 n_in + n_out (two-pass, sqrt per result)"),
	F("aten::norm", red_norm, EX, "p=2: 2 n_in; p=1/inf/0: 2 n_in - n_out; else 3 n_in (est.)"),
	F("aten::linalg_norm", red_linalg_norm, EX,
	  "vector or Frobenius norm: as linalg_vector_norm; matrix 2/nuc/1/inf norms unknown"),
	F("aten::linalg_vector_norm", red_norm, EX,
	  "ord=2: 2 n_in; ord=1/inf/0: 2 n_in - n_out; else 3 n_in (est.)"),
	F("aten::cumsum", red_scan, EX, "n_in - n_in/size(dim) adds"),
	F("aten::cumsum_", red_scan, EX, "n_in - n_in/size(dim) adds"),
	F("aten::cumprod", red_scan, EX, "n_in - n_in/size(dim) multiplies"),
	R("aten::logsumexp", k_lse, ES, "4 n_in: max, subtract, exp, sum, log, add"),
	R("aten::count_nonzero", k_cnz, EX, "2 n_in - n_out: compares, adds"),
	R("aten::aminmax", k_minmax, EX, "2 (n_in - n_out) compares"),
	F("aten::cummax", red_scan, EX, "n_in - n_in/size(dim) compares"),
	F("aten::cummin", red_scan, EX, "n_in - n_in/size(dim) compares"),
};

#undef R
#undef F

int tlc_rules__reduce_init(tlc_plugin_ctx *ctx, const tlc_host *host)
{
	return tlc_rules__register_table(ctx, host, rules, TLC_RULES_COUNT(rules));
}
