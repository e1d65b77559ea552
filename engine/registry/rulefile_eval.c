/* The rule-file interpreter: evaluates a rule's compiled formulas over one
 * op, exactly (int64 with overflow checks, GMP past that), and adds the
 * results to the cost through the host table like any plugin. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <gmp.h>
#include "rulefile.h"

_Static_assert(sizeof(long) == sizeof(int64_t), "mpz_*_si needs a 64-bit long");

/* ---- exact numbers: small, big, or unknown (an element size not known) -- */

typedef enum num_kind { N_SMALL = 0, N_BIG, N_UNKNOWN } num_kind;

typedef struct num {
	num_kind kind;
	int64_t s;
	mpz_t z; /* initialised only while kind == N_BIG */
} num;

static void num_small(num *n, int64_t v)
{
	n->kind = N_SMALL;
	n->s = v;
}

static void num_clear(num *n)
{
	if (n->kind == N_BIG)
		mpz_clear(n->z);
	num_small(n, 0);
}

static void num_unknown(num *n)
{
	num_clear(n);
	n->kind = N_UNKNOWN;
}

/* z (initialised) into n, which takes ownership; small when it fits */
static void num_take(num *n, mpz_t z)
{
	if (mpz_fits_slong_p(z)) {
		num_small(n, (int64_t)mpz_get_si(z));
		mpz_clear(z);
		return;
	}
	n->kind = N_BIG;
	mpz_init(n->z);
	mpz_swap(n->z, z);
	mpz_clear(z);
}

static void num_get(mpz_t out, const num *n)
{
	if (n->kind == N_BIG)
		mpz_init_set(out, n->z);
	else
		mpz_init_set_si(out, (long)n->s);
}

static int num_sign(const num *n)
{
	if (n->kind == N_BIG)
		return mpz_sgn(n->z);
	return (n->s > 0) - (n->s < 0);
}

static int num_cmp(const num *a, const num *b)
{
	if (a->kind == N_SMALL && b->kind == N_SMALL)
		return (a->s > b->s) - (a->s < b->s);
	mpz_t x, y;
	num_get(x, a);
	num_get(y, b);
	int c = mpz_cmp(x, y);
	mpz_clear(x);
	mpz_clear(y);
	return c;
}

typedef enum arith { A_ADD, A_SUB, A_MUL } arith;

/* a = a OP b, exactly */
static void num_arith(num *a, const num *b, arith op)
{
	if (a->kind == N_SMALL && b->kind == N_SMALL) {
		int64_t r;
		int ovf = op == A_ADD ? __builtin_add_overflow(a->s, b->s, &r)
		        : op == A_SUB ? __builtin_sub_overflow(a->s, b->s, &r)
		                      : __builtin_mul_overflow(a->s, b->s, &r);
		if (!ovf) {
			a->s = r;
			return;
		}
	}
	mpz_t x, y;
	num_get(x, a);
	num_get(y, b);
	if (op == A_ADD)
		mpz_add(x, x, y);
	else if (op == A_SUB)
		mpz_sub(x, x, y);
	else
		mpz_mul(x, x, y);
	mpz_clear(y);
	num_clear(a);
	num_take(a, x);
}

static void num_mul_i64(num *a, int64_t v)
{
	num b;
	num_small(&b, v);
	num_arith(a, &b, A_MUL);
}

typedef enum divkind { D_EXACT, D_FLOOR, D_CEIL } divkind;

/* a = a / b (b != 0). Returns nonzero when D_EXACT and b does not divide a. */
static int num_div(num *a, const num *b, divkind k)
{
	mpz_t x, y;
	num_get(x, a);
	num_get(y, b);
	int inexact = 0;
	if (k == D_EXACT) {
		inexact = !mpz_divisible_p(x, y);
		if (!inexact)
			mpz_divexact(x, x, y);
	} else if (k == D_FLOOR) {
		mpz_fdiv_q(x, x, y);
	} else {
		mpz_cdiv_q(x, x, y);
	}
	mpz_clear(y);
	num_clear(a);
	num_take(a, x);
	return inexact;
}

/* ---- evaluation context ------------------------------------------------ */

typedef struct rf_ctx {
	const tlc_op *op;
	const tlc_host *host;
	tlc_cost *out;
	const tlc_rf_rule *rule;
	char unknown_why[160]; /* first element size that was not known */
} rf_ctx;

static int explain(const rf_ctx *c, int rc, const char *fmt, ...) TLC_PRINTF(3, 4);

/* Explains (what failed, then where the rule is) and returns rc. */
static int explain(const rf_ctx *c, int rc, const char *fmt, ...)
{
	char what[200], text[320];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	snprintf(text, sizeof text, "%s (rule at %s:%u)", what, c->rule->file,
	         (unsigned)c->rule->line);
	c->host->cost_explain(c->out, text);
	return rc;
}

static const char *kind_name(tlc_value_kind k)
{
	static const char *const names[] = { "None", "a bool", "an int", "a float", "a string",
		                             "a tensor", "a list", "not recorded" };
	return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "a value";
}

/* The operand's value (None included), or NULL when it was not recorded. */
static const tlc_value *lookup(const rf_ctx *c, const tlc_rf_operand *o)
{
	const tlc_op *op = c->op;
	if (o->kind == TLC_RF_ARG)
		return o->index < op->nargs ? &op->args[o->index] : NULL;
	if (o->kind == TLC_RF_OUT)
		return (op->flags & TLC_OP_HAS_OUTPUTS) && o->index < op->noutputs
			       ? &op->outputs[o->index] : NULL;
	return c->host->op_kwarg(op, o->kw);
}

/* The operand's value; absent, or None unless allow_none: MISSING_ARGS. */
static int operand_or_none(const tlc_value **out, const rf_ctx *c, const tlc_rf_operand *o,
                           int allow_none)
{
	const tlc_op *op = c->op;
	const tlc_value *v = lookup(c, o);
	if (v && v->kind == TLC_VALUE_UNRECORDED)
		return explain(c, TLC_RULE_MISSING_ARGS, "%s was passed but its value was not "
		               "recorded (a trace without Concrete Inputs)", o->text);
	if (!v || (v->kind == TLC_VALUE_NONE && !allow_none)) {
		if (o->kind == TLC_RF_ARG)
			return explain(c, TLC_RULE_MISSING_ARGS, "%s is %s (%zu positional arguments "
			               "recorded)", o->text, v ? "None" : "absent", op->nargs);
		if (o->kind == TLC_RF_OUT)
			return explain(c, TLC_RULE_MISSING_ARGS, "%s is not recorded (%zu outputs)",
			               o->text, (op->flags & TLC_OP_HAS_OUTPUTS) ? op->noutputs : 0);
		return explain(c, TLC_RULE_MISSING_ARGS, "keyword argument %s is %s", o->kw,
		               v ? "None" : "absent");
	}
	*out = v;
	return 0;
}

static int operand(const tlc_value **out, const rf_ctx *c, const tlc_rf_operand *o)
{
	return operand_or_none(out, c, o, 0);
}

static const char *fn_name(tlc_rf_fn f)
{
	static const char *const names[] = { "numel", "dim", "ndim", "bytes", "int", "prod",
		                             "sum", "len", "max", "min", "floordiv", "ceildiv",
		                             "has" };
	return (unsigned)f < sizeof names / sizeof names[0] ? names[f] : "?";
}

static int want_tensor(const tlc_tensor **out, const rf_ctx *c, const tlc_rf_node *n)
{
	const tlc_value *v;
	int rc = operand(&v, c, &n->opd);
	if (rc < 0)
		return rc;
	if (v->kind != TLC_VALUE_TENSOR)
		return explain(c, TLC_RULE_BAD_ARGS, "%s(%s): %s is %s, not a tensor",
		               fn_name(n->fn), n->opd.text, n->opd.text, kind_name(v->kind));
	*out = &v->u.tensor;
	return 0;
}

static int eval(num *out, rf_ctx *c, const tlc_rf_node *n);

static void numel_of(num *out, const tlc_tensor *t)
{
	num_small(out, 1);
	for (size_t i = 0; i < t->ndim; i++)
		num_mul_i64(out, t->shape[i]);
}

/* bytes of a tensor, or of the tensors of a list (None and scalars add 0) */
static void bytes_of(num *out, rf_ctx *c, const tlc_value *v, const char *what)
{
	if (out->kind == N_UNKNOWN)
		return;
	if (v->kind == TLC_VALUE_LIST) {
		for (size_t i = 0; i < v->u.list.n; i++)
			bytes_of(out, c, &v->u.list.items[i], what);
		return;
	}
	if (v->kind != TLC_VALUE_TENSOR)
		return;
	unsigned es = tlc_dtype_size(v->u.tensor.dtype);
	if (es == 0) {
		if (!c->unknown_why[0]) {
			const char *dn = v->u.tensor.dtype_name;
			snprintf(c->unknown_why, sizeof c->unknown_why,
			         "element size of %s unknown (dtype %s)", what, dn ? dn : "not recorded");
		}
		num_unknown(out);
		return;
	}
	num t;
	numel_of(&t, &v->u.tensor);
	num_mul_i64(&t, es);
	num_arith(out, &t, A_ADD);
	num_clear(&t);
}

/* bytes(x): None holds no bytes (as in a tensor list), absent is missing */
static int fn_bytes(num *out, rf_ctx *c, const tlc_rf_node *n)
{
	const tlc_value *v;
	int rc = operand_or_none(&v, c, &n->opd, 1);
	if (rc < 0)
		return rc;
	if (v->kind == TLC_VALUE_NONE) {
		num_small(out, 0);
		return 0;
	}
	if (v->kind != TLC_VALUE_TENSOR && v->kind != TLC_VALUE_LIST)
		return explain(c, TLC_RULE_BAD_ARGS, "bytes(%s): %s is %s, not a tensor",
		               n->opd.text, n->opd.text, kind_name(v->kind));
	num_small(out, 0);
	bytes_of(out, c, v, n->opd.text);
	return 0;
}

static int fn_dim(num *out, rf_ctx *c, const tlc_rf_node *n)
{
	const tlc_tensor *t;
	int rc = want_tensor(&t, c, n);
	if (rc < 0)
		return rc;
	num i;
	num_small(&i, 0);
	rc = eval(&i, c, n->a);
	if (rc < 0 || i.kind == N_UNKNOWN) {
		*out = i; /* unknown stays unknown */
		return rc;
	}
	int64_t nd = (int64_t)t->ndim;
	int in_range = i.kind == N_SMALL && i.s >= -nd && i.s < nd;
	int64_t d = in_range ? (i.s < 0 ? i.s + nd : i.s) : 0;
	num_clear(&i);
	if (!in_range)
		return explain(c, TLC_RULE_BAD_ARGS, "dim(%s, i): i is out of range for a tensor "
		               "with %zu dims", n->opd.text, t->ndim);
	num_small(out, t->shape[d]);
	return 0;
}

static int fn_int(num *out, const rf_ctx *c, const tlc_rf_node *n)
{
	const tlc_value *v;
	int rc = operand(&v, c, &n->opd);
	if (rc < 0)
		return rc;
	if (v->kind == TLC_VALUE_INT)
		num_small(out, v->u.integer);
	else if (v->kind == TLC_VALUE_BOOL)
		num_small(out, v->u.boolean ? 1 : 0);
	else
		return explain(c, TLC_RULE_BAD_ARGS, "int(%s): %s is %s, not an int", n->opd.text,
		               n->opd.text, kind_name(v->kind));
	return 0;
}

/* prod/sum/len over an int list (a single int counts as a list of one) */
static int fn_list(num *out, const rf_ctx *c, const tlc_rf_node *n)
{
	const tlc_value *v;
	int rc = operand(&v, c, &n->opd);
	if (rc < 0)
		return rc;
	size_t cnt = v->kind == TLC_VALUE_LIST ? v->u.list.n : 1;
	const tlc_value *items = v->kind == TLC_VALUE_LIST ? v->u.list.items : v;
	if (v->kind != TLC_VALUE_LIST && v->kind != TLC_VALUE_INT)
		return explain(c, TLC_RULE_BAD_ARGS, "%s(%s): %s is %s, not a list",
		               fn_name(n->fn), n->opd.text, n->opd.text, kind_name(v->kind));
	if (n->fn == TLC_RF_FN_LEN) {
		num_small(out, (int64_t)cnt);
		return 0;
	}
	num_small(out, n->fn == TLC_RF_FN_PROD ? 1 : 0);
	for (size_t i = 0; i < cnt; i++) {
		if (items[i].kind != TLC_VALUE_INT) {
			num_clear(out);
			return explain(c, TLC_RULE_BAD_ARGS, "%s(%s): element %zu is %s, not an int",
			               fn_name(n->fn), n->opd.text, i, kind_name(items[i].kind));
		}
		num e;
		num_small(&e, items[i].u.integer);
		num_arith(out, &e, n->fn == TLC_RF_FN_PROD ? A_MUL : A_ADD);
	}
	return 0;
}

/* Evaluates n->a and n->b into x and y; unknown when either is. */
static int eval2(num *x, num *y, rf_ctx *c, const tlc_rf_node *n)
{
	num_small(x, 0);
	num_small(y, 0);
	int rc = eval(x, c, n->a);
	if (rc == 0)
		rc = eval(y, c, n->b);
	if (rc < 0) {
		num_clear(x);
		num_clear(y);
	}
	return rc;
}

static int divide(num *out, rf_ctx *c, const tlc_rf_node *n, divkind k)
{
	num x, y;
	int rc = eval2(&x, &y, c, n);
	if (rc < 0)
		return rc;
	if (y.kind != N_UNKNOWN && num_sign(&y) == 0) {
		num_clear(&x);
		num_clear(&y);
		return explain(c, TLC_RULE_BAD_ARGS, "division by zero");
	}
	if (x.kind == N_UNKNOWN || y.kind == N_UNKNOWN) {
		num_clear(&x);
		num_clear(&y);
		num_unknown(out);
		return 0;
	}
	int inexact = num_div(&x, &y, k);
	num_clear(&y);
	if (inexact) {
		num_clear(&x);
		return explain(c, TLC_RULE_BAD_ARGS, "'/' is exact division and the divisor "
		               "does not divide the dividend (use floordiv or ceildiv)");
	}
	*out = x;
	return 0;
}

static int binary(num *out, rf_ctx *c, const tlc_rf_node *n)
{
	num x, y;
	int rc = eval2(&x, &y, c, n);
	if (rc < 0)
		return rc;
	if (x.kind == N_UNKNOWN || y.kind == N_UNKNOWN) {
		num_clear(&x);
		num_clear(&y);
		num_unknown(out);
		return 0;
	}
	if (n->kind == TLC_RF_CALL) { /* max / min */
		int pick_x = (num_cmp(&x, &y) >= 0) == (n->fn == TLC_RF_FN_MAX);
		num_clear(pick_x ? &y : &x);
		*out = pick_x ? x : y;
		return 0;
	}
	num_arith(&x, &y, n->kind == TLC_RF_ADD ? A_ADD : n->kind == TLC_RF_SUB ? A_SUB : A_MUL);
	num_clear(&y);
	*out = x;
	return 0;
}

static int call(num *out, rf_ctx *c, const tlc_rf_node *n)
{
	const tlc_tensor *t;
	int rc;
	switch (n->fn) {
	case TLC_RF_FN_NUMEL:
	case TLC_RF_FN_NDIM:
		rc = want_tensor(&t, c, n);
		if (rc == 0 && n->fn == TLC_RF_FN_NUMEL)
			numel_of(out, t);
		else if (rc == 0)
			num_small(out, (int64_t)t->ndim);
		return rc;
	case TLC_RF_FN_DIM: return fn_dim(out, c, n);
	case TLC_RF_FN_BYTES: return fn_bytes(out, c, n);
	case TLC_RF_FN_INT: return fn_int(out, c, n);
	case TLC_RF_FN_PROD: case TLC_RF_FN_SUM: case TLC_RF_FN_LEN: return fn_list(out, c, n);
	case TLC_RF_FN_MAX: case TLC_RF_FN_MIN: return binary(out, c, n);
	case TLC_RF_FN_FLOORDIV: return divide(out, c, n, D_FLOOR);
	case TLC_RF_FN_CEILDIV: return divide(out, c, n, D_CEIL);
	case TLC_RF_FN_HAS: {
		const tlc_value *v = lookup(c, &n->opd);
		if (v && v->kind == TLC_VALUE_UNRECORDED)
			return explain(c, TLC_RULE_MISSING_ARGS, "has(%s): whether it was given is "
			               "not recorded (a trace without Concrete Inputs)", n->opd.text);
		num_small(out, v && v->kind != TLC_VALUE_NONE);
		return 0;
	}
	}
	return explain(c, TLC_RULE_BAD_ARGS, "internal: unknown function");
}

/* out is a cleared num on entry; on failure it is left cleared. */
static int eval(num *out, rf_ctx *c, const tlc_rf_node *n)
{
	switch (n->kind) {
	case TLC_RF_INT:
		num_small(out, n->lit);
		return 0;
	case TLC_RF_NEG: {
		num zero;
		num_small(&zero, 0);
		int rc = eval(out, c, n->a);
		if (rc == 0 && out->kind != N_UNKNOWN) {
			num_arith(&zero, out, A_SUB);
			num_clear(out);
			*out = zero;
		}
		return rc;
	}
	case TLC_RF_ADD: case TLC_RF_SUB: case TLC_RF_MUL: return binary(out, c, n);
	case TLC_RF_DIV: return divide(out, c, n, D_EXACT);
	case TLC_RF_CALL: return call(out, c, n);
	}
	return explain(c, TLC_RULE_BAD_ARGS, "internal: unknown expression");
}

/* ---- results into the cost -------------------------------------------- */

static const char *const FIELD_NAMES[TLC_RF_NFIELDS] = { "macs", "other", "read", "write" };

/* A tensor of unknown element size: adding its bytes marks the cost's bytes
 * unknown through the host (never a silent 0). */
static const tlc_value UNKNOWN_BYTES = {
	.kind = TLC_VALUE_TENSOR,
	.u.tensor = { .ndim = 0, .shape = NULL, .dtype = TLC_DTYPE_OTHER },
};

/* field += v (v >= 0): a big v is added as sum of d_i * (2^62)^i. */
static int add_value(rf_ctx *c, tlc_cost_field f, const num *v)
{
	if (v->kind == N_SMALL)
		return c->host->cost_add(c->out, f, v->s, 0, NULL);
	if (mpz_sizeinbase(v->z, 2) > 62u * TLC_RF_MAX_LIMBS)
		return explain(c, TLC_RULE_BAD_ARGS, "%s is larger than 2^%u", FIELD_NAMES[f],
		               62u * TLC_RF_MAX_LIMBS);
	int64_t base[TLC_RF_MAX_LIMBS];
	mpz_t t;
	mpz_init_set(t, v->z);
	int rc = 0;
	for (size_t i = 0; rc == 0 && mpz_sgn(t) != 0; i++) {
		int64_t digit = (int64_t)mpz_fdiv_ui(t, (unsigned long)1 << 62);
		mpz_fdiv_q_2exp(t, t, 62);
		if (digit)
			rc = c->host->cost_add(c->out, f, digit, i, base);
		base[i] = (int64_t)1 << 62;
	}
	mpz_clear(t);
	return rc;
}

/* bytes_read default: every tensor among the args and kwargs (except the
 * kwarg `out`, which is written); bytes_written: every recorded output, and
 * unknown when outputs were not recorded. */
static int default_bytes(rf_ctx *c, tlc_cost_field f)
{
	const tlc_op *op = c->op;
	const tlc_host *h = c->host;
	int rc = 0;
	if (f == TLC_FIELD_BYTES_WRITTEN) {
		if (!(op->flags & TLC_OP_HAS_OUTPUTS))
			return h->cost_add_bytes(c->out, f, &UNKNOWN_BYTES);
		for (size_t i = 0; rc == 0 && i < op->noutputs; i++)
			rc = h->cost_add_bytes(c->out, f, &op->outputs[i]);
		return rc;
	}
	for (size_t i = 0; rc == 0 && i < op->nargs; i++)
		rc = h->cost_add_bytes(c->out, f, &op->args[i]);
	for (size_t i = 0; rc == 0 && i < op->nkwargs; i++)
		if (!op->kwargs[i].name || strcmp(op->kwargs[i].name, "out") != 0)
			rc = h->cost_add_bytes(c->out, f, &op->kwargs[i].value);
	return rc;
}

static int eval_field(rf_ctx *c, tlc_cost_field f)
{
	const tlc_rf_node *n = c->rule->field[f];
	int is_bytes = f == TLC_FIELD_BYTES_READ || f == TLC_FIELD_BYTES_WRITTEN;
	if (!n)
		return is_bytes ? default_bytes(c, f) : 0;
	num v;
	num_small(&v, 0);
	c->unknown_why[0] = '\0';
	int rc = eval(&v, c, n);
	if (rc < 0)
		return rc;
	if (v.kind == N_UNKNOWN) {
		if (is_bytes)
			return c->host->cost_add_bytes(c->out, f, &UNKNOWN_BYTES);
		return explain(c, TLC_RULE_MISSING_ARGS, "%s: %s", FIELD_NAMES[f], c->unknown_why);
	}
	if (num_sign(&v) < 0)
		rc = explain(c, TLC_RULE_BAD_ARGS, "the %s formula gave a negative value",
		             FIELD_NAMES[f]);
	else
		rc = add_value(c, f, &v);
	num_clear(&v);
	return rc;
}

int tlc_rf__eval(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	rf_ctx c;
	memset(&c, 0, sizeof c);
	c.op = op;
	c.host = host;
	c.out = out;
	c.rule = payload;
	int rc = 0;
	for (int f = 0; rc == 0 && f < TLC_RF_NFIELDS; f++)
		rc = eval_field(&c, (tlc_cost_field)f);
	return rc;
}
