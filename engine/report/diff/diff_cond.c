/* CI conditions on a diff's totals: `[PHASE.]FIGURE OP VALUE[%]`
 * (docs/diff.md, "--fail-if"). Every comparison is exact: the figure's
 * change and A's value are integers, VALUE a decimal scaled to an integer,
 * so `flops>+1%` is (B - A) * 100 * 10^k > V * A with V = value * 10^k. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "diff_int.h"

enum { OP_GT, OP_GE, OP_LT, OP_LE, OP_EQ, OP_NE };

typedef struct cond {
	int phase;          /* -1 all */
	const char *figure; /* canonical name */
	int op;
	mpz_t v;            /* value * 10^scale */
	unsigned scale;
	int percent;
} cond;

static const char *const figures[] = {
	"count", "macs", "other_flops", "flops", "bytes", "kernel_time", "work_time", "rate_time",
	"coverage.unknown", "coverage.changed", NULL
};

static int bad(const char *expr, const char *why)
{
	return tlc_error__set(TLC_EINVAL, "diff_condition_invalid",
	                      "write [PHASE.]FIGURE OP VALUE[%], e.g. forward.flops>+1% or "
	                      "kernel_time>+5% or coverage.unknown>0; FIGURE is count, macs, "
	                      "other_flops, flops, bytes, kernel_time, work_time, rate_time, "
	                      "coverage.unknown or coverage.changed; OP is > >= < <= == !=",
	                      "condition '%s': %s", expr, why);
}

static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

static int parse_figure(cond *c, const char **pp, const char *expr)
{
	const char *p = *pp;
	c->phase = -1;
	for (int ph = 0; ph < TLC_PHASE_COUNT; ph++) {
		const char *n = tlc_phase_name((tlc_phase)ph);
		size_t len = strlen(n);
		if (strncmp(p, n, len) == 0 && p[len] == '.') {
			c->phase = ph;
			p += len + 1;
			break;
		}
	}
	size_t len = 0;
	while (isalnum((unsigned char)p[len]) || p[len] == '_' || p[len] == '.')
		len++;
	for (int k = 0; figures[k]; k++)
		if (strlen(figures[k]) == len && strncmp(p, figures[k], len) == 0) {
			c->figure = figures[k];
			*pp = p + len;
			return 0;
		}
	return bad(expr, len ? "unknown figure" : "no figure");
}

static int parse_op(cond *c, const char **pp, const char *expr)
{
	static const struct { const char *s; int op; } ops[] = {
		{ ">=", OP_GE }, { "<=", OP_LE }, { "==", OP_EQ }, { "!=", OP_NE },
		{ ">", OP_GT }, { "<", OP_LT }, { NULL, 0 }
	};
	const char *p = skip_ws(*pp);
	for (int k = 0; ops[k].s; k++)
		if (strncmp(p, ops[k].s, strlen(ops[k].s)) == 0) {
			c->op = ops[k].op;
			*pp = p + strlen(ops[k].s);
			return 0;
		}
	return bad(expr, "no comparison (> >= < <= == !=) after the figure");
}

/* [+|-]DIGITS[.DIGITS][%], at most 9 fraction digits, nothing after. */
static int parse_value(cond *c, const char *p, const char *expr)
{
	p = skip_ws(p);
	int neg = 0;
	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	char digits[128];
	size_t n = 0;
	int frac = -1, any = 0;
	for (; *p && n + 1 < sizeof digits; p++) {
		if (isdigit((unsigned char)*p)) {
			digits[n++] = *p;
			any = 1;
			if (frac >= 0 && ++frac > 9)
				return bad(expr, "more than 9 digits after the decimal point");
		} else if (*p == '.' && frac < 0) {
			frac = 0;
		} else {
			break;
		}
	}
	digits[n] = '\0';
	if (!any)
		return bad(expr, "no number after the comparison");
	if (*p == '%') {
		c->percent = 1;
		p++;
	}
	p = skip_ws(p);
	if (*p)
		return bad(expr, "unexpected text after the value");
	c->scale = frac > 0 ? (unsigned)frac : 0;
	mpz_set_str(c->v, digits, 10);
	if (neg)
		mpz_neg(c->v, c->v);
	return 0;
}

static int parse(cond *c, const char *expr)
{
	const char *p = skip_ws(expr);
	int rc = parse_figure(c, &p, expr);
	if (rc == 0)
		rc = parse_op(c, &p, expr);
	if (rc == 0)
		rc = parse_value(c, p, expr);
	return rc;
}

static void set_dec(mpz_t z, const char *dec) { mpz_set_str(z, dec ? dec : "0", 10); }

/* The figure's A and B values. TLC_EREFUSED when the inputs cannot give it. */
static int figure_values(mpz_t a, mpz_t b, const tlc_diff *d, const cond *c, const char *expr)
{
	const tlc_diff_row *t = tlc_diff_total(d, c->phase);
	const char *f = c->figure;
	if (d->is_partial && (strcmp(f, "coverage.changed") == 0 ||
	                      (c->phase >= 0 && (strcmp(f, "count") == 0 ||
	                                         strcmp(f, "coverage.unknown") == 0))))
		return tlc_error__set(TLC_EREFUSED, "diff_figure_unavailable",
		                      "ask for it over all phases, or diff the op logs, traces or "
		                      "saved joins the partials were made from",
		                      "condition '%s': a flops partial holds calls per input, not per "
		                      "phase, and no aligned calls (class changes)", expr);
	if (strcmp(f, "count") == 0) {
		mpz_set_ui(a, (unsigned long)t->a.count);
		mpz_set_ui(b, (unsigned long)t->b.count);
	} else if (strcmp(f, "macs") == 0) {
		set_dec(a, t->a.macs);
		set_dec(b, t->b.macs);
	} else if (strcmp(f, "other_flops") == 0) {
		set_dec(a, t->a.other_flops);
		set_dec(b, t->b.other_flops);
	} else if (strcmp(f, "flops") == 0) {
		set_dec(a, t->a.flops);
		set_dec(b, t->b.flops);
	} else if (strcmp(f, "bytes") == 0) {
		if (!t->a.bytes || !t->b.bytes)
			return tlc_error__set(TLC_EREFUSED, "diff_figure_unavailable",
			                      "drop the bytes condition, or give inputs whose tensors "
			                      "record dtypes so every element size is known",
			                      "condition '%s': bytes are unknown on side %s (some element "
			                      "size was not recorded)", expr, t->a.bytes ? "B" : "A");
		set_dec(a, t->a.bytes);
		set_dec(b, t->b.bytes);
	} else if (strcmp(f, "coverage.unknown") == 0) {
		mpz_set_ui(a, (unsigned long)t->a.unknown);
		mpz_set_ui(b, (unsigned long)t->b.unknown);
	} else if (strcmp(f, "coverage.changed") == 0) {
		mpz_set_ui(a, 0);
		mpz_set_ui(b, (unsigned long)t->class_changed);
	} else {
		if (!t->has_time) {
			const char *wa = tlc_diff__untimed_why(d, 0, c->phase);
			const char *wb = tlc_diff__untimed_why(d, 1, c->phase);
			return tlc_error__set(TLC_EREFUSED, "diff_figure_unavailable",
			                      "compare device time only between inputs that both carry "
			                      "kernel and runtime records whose join passes its gate "
			                      "(`tlcost join A`, `tlcost join B`), or drop the condition",
			                      "condition '%s': %s needs attributed kernel time under a "
			                      "passed gate on both sides; A: %s; B: %s", expr, f,
			                      wa ? wa : "gate passed", wb ? wb : "gate passed");
		}
		mpz_set_si(a, (long)t->a.kernel_ns);
		if (strcmp(f, "kernel_time") == 0)
			mpz_set_si(b, (long)t->b.kernel_ns);
		else /* B's value is A's plus this share of the change */
			mpz_set_si(b, (long)(t->a.kernel_ns +
			                     (strcmp(f, "work_time") == 0 ? t->d_work_ns : t->d_rate_ns)));
	}
	return 0;
}

static int compare(int op, int c)
{
	switch (op) {
	case OP_GT: return c > 0;
	case OP_GE: return c >= 0;
	case OP_LT: return c < 0;
	case OP_LE: return c <= 0;
	case OP_EQ: return c == 0;
	default: return c != 0;
	}
}

/* Exact: lhs = delta * 10^scale (* 100 for a percentage), rhs = v (* A). A
 * percentage of a change from 0 is +-infinity, or 0 for no change. */
static int holds(const cond *c, const mpz_t a, const mpz_t delta)
{
	if (c->percent && mpz_sgn(a) == 0) {
		int s = mpz_sgn(delta);
		if (s == 0)
			return compare(c->op, -mpz_sgn(c->v));
		return c->op == OP_NE || (s > 0 ? (c->op == OP_GT || c->op == OP_GE)
		                                : (c->op == OP_LT || c->op == OP_LE));
	}
	mpz_t lhs, rhs;
	mpz_inits(lhs, rhs, NULL);
	mpz_ui_pow_ui(lhs, 10, c->scale);
	mpz_mul(lhs, lhs, delta);
	mpz_set(rhs, c->v);
	if (c->percent) {
		mpz_mul_ui(lhs, lhs, 100);
		mpz_mul(rhs, rhs, a); /* A >= 0 for every figure */
	}
	int r = compare(c->op, mpz_cmp(lhs, rhs));
	mpz_clears(lhs, rhs, NULL);
	return r;
}

static char *explain(const char *expr, const mpz_t a, const mpz_t b, const mpz_t delta,
                     int ok)
{
	char *sa = mpz_get_str(NULL, 10, a), *sb = mpz_get_str(NULL, 10, b);
	char *sd = mpz_get_str(NULL, 10, delta);
	char pct[64] = "";
	if (mpz_sgn(a))
		snprintf(pct, sizeof pct, " (%+.3f%%)", 100.0 * mpz_get_d(delta) / mpz_get_d(a));
	size_t n = strlen(expr) + strlen(sa) + strlen(sb) + strlen(sd) + 96;
	char *out = malloc(n);
	if (out)
		snprintf(out, n, "%s: A %s, B %s, change %s%s%s: %s", expr, sa, sb,
		         mpz_sgn(delta) > 0 ? "+" : "", sd, pct, ok ? "holds" : "does not hold");
	void (*fr)(void *, size_t);
	mp_get_memory_functions(NULL, NULL, &fr);
	fr(sa, strlen(sa) + 1);
	fr(sb, strlen(sb) + 1);
	fr(sd, strlen(sd) + 1);
	return out;
}

int tlc_diff_condition(int *out, char **why, const tlc_diff *d, const char *expr)
{
	if (why)
		*why = NULL;
	if (!out || !d || !expr)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass a diff and a condition",
		                      "tlc_diff_condition called with NULL");
	cond c;
	memset(&c, 0, sizeof c);
	mpz_t a, b, delta;
	mpz_inits(c.v, a, b, delta, NULL);
	int rc = parse(&c, expr);
	if (rc == 0)
		rc = figure_values(a, b, d, &c, expr);
	if (rc == 0) {
		mpz_sub(delta, b, a);
		*out = holds(&c, a, delta);
		if (why && !(*why = explain(expr, a, b, delta, *out)))
			rc = tlc_error__oom();
	}
	mpz_clears(c.v, a, b, delta, NULL);
	return rc;
}
