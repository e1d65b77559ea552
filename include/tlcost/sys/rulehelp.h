/*
 * Rule helpers for plugins, built only on the plugin host table.
 *
 * What the built-in rule families use (rules/util.h), for a plugin: typed
 * argument getters, exact products of dims (terms), explanations, the usual
 * bytes and a table of rules registered in one call. Everything here is a
 * static inline function over <tlcost/plugin.h> and the tlc_host pointer a
 * plugin's init and rules are given: a plugin that includes this header
 * still links nothing and exports only tlc_plugin_describe (SQLite's
 * sqlite3ext.h is the model). plugins/examples/matmul_help.c uses it and is
 * built and run by `make check` (tests/cli/rulehelp_cli.sh).
 *
 * Conventions (those of the host's helpers, docs/plugin-guide.md): arg(i,
 * name) is the positional argument i, else the keyword argument name; a
 * JSON null is absent. Getters return 0, TLC_RULE_MISSING_ARGS when the
 * value is absent or TLC_RULE_BAD_ARGS when it has the wrong kind. Nothing
 * allocates; pointers borrow from the op. The host's helpers need a host of
 * tlcost 0.2 or later: tlc_rulehelp_register_table checks it in init and
 * refuses an older host.
 */
#ifndef TLCOST_SYS_RULEHELP_H
#define TLCOST_SYS_RULEHELP_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tlcost/plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- rulehelp: tables of rules ---- */

/** One row of a plugin's rule table. */
typedef struct tlc_rulehelp_entry {
	const char *name;     /* "mylib::op" or "mylib::op.overload" */
	tlc_rule_kind kind;
	tlc_evidence evidence;
	tlc_rule_fn fn;       /* TLC_RULE_COST only; NULL otherwise */
	void *payload;        /* passed to fn */
	const char *note;     /* one line: the formula or the reason for zero */
} tlc_rulehelp_entry;

#define TLC_RULEHELP_COUNT(tab) (sizeof(tab) / sizeof((tab)[0]))

/** Registers tab[0..n) (call it from init). Returns 0, the first negative
 *  register_rule code, or -1 when the host is older than the helpers this
 *  header calls (its table ends before dtype_parse): init then fails and
 *  the host unloads the plugin. */
static inline int tlc_rulehelp_register_table(tlc_plugin_ctx *ctx, const tlc_host *host,
                                              const tlc_rulehelp_entry *tab, size_t n)
{
	if (!TLC_HOST_HAS(host, dtype_parse))
		return -1;
	for (size_t i = 0; i < n; i++) {
		tlc_rule_def d = TLC_RULE_DEF_INIT;
		d.name = tab[i].name;
		d.kind = tab[i].kind;
		d.evidence = tab[i].evidence;
		d.fn = tab[i].fn;
		d.payload = tab[i].payload;
		d.note = tab[i].note;
		int rc = host->register_rule(ctx, &d);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* ---- rulehelp: values and shapes (no host call) ---- */

/** The ints of v into out[0..*n): a plain int is a list of one. Absent (v
 *  NULL) or unrecorded is MISSING_ARGS; not an int or a list of ints, or a
 *  list longer than cap, is BAD_ARGS. The host's int_list_arg reads
 *  lists with it; so do the built-in families. */
static inline int tlc_rulehelp_int_list(int64_t *out, size_t cap, size_t *n,
                                        const tlc_value *v)
{
	*n = 0;
	if (!v || v->kind == TLC_VALUE_UNRECORDED)
		return TLC_RULE_MISSING_ARGS;
	if (v->kind == TLC_VALUE_INT) {
		if (cap < 1)
			return TLC_RULE_BAD_ARGS;
		out[0] = v->u.integer;
		*n = 1;
		return 0;
	}
	if (v->kind != TLC_VALUE_LIST || v->u.list.n > cap)
		return TLC_RULE_BAD_ARGS;
	for (size_t i = 0; i < v->u.list.n; i++) {
		if (v->u.list.items[i].kind != TLC_VALUE_INT)
			return TLC_RULE_BAD_ARGS;
		out[i] = v->u.list.items[i].u.integer;
	}
	*n = v->u.list.n;
	return 0;
}

/** The product of t's dims [from, to) (to past ndim means ndim) into *out;
 *  BAD_ARGS for a negative dim or past int64 (a size: count with
 *  cost_add_numel or a term, which are exact). The host's numel is this
 *  over every dim. */
static inline int tlc_rulehelp_numel_range(int64_t *out, const tlc_tensor *t, size_t from,
                                           size_t to)
{
	int64_t p = 1;
	if (to > t->ndim)
		to = t->ndim;
	for (size_t i = from; i < to; i++) {
		if (t->shape[i] < 0)
			return TLC_RULE_BAD_ARGS;
		if (t->shape[i] != 0 && p > INT64_MAX / t->shape[i])
			return TLC_RULE_BAD_ARGS;
		p *= t->shape[i];
	}
	*out = p;
	return 0;
}

/* ---- rulehelp: typed argument getters ---- */

/** Integer of arg(i, name): MISSING_ARGS when absent (no default). A bool
 *  is not an int; a one-element int list is. */
static inline int tlc_rulehelp_int_arg(int64_t *out, const tlc_op *op, const tlc_host *host,
                                       size_t i, const char *name)
{
	const tlc_value *v = host->arg(op, i, name);
	if (!v || v->kind == TLC_VALUE_UNRECORDED)
		return TLC_RULE_MISSING_ARGS;
	return host->int_arg_or(out, op, i, name, 0);
}

/** Tensor of arg(i, name): MISSING_ARGS when absent, BAD_ARGS when not a
 *  tensor. */
static inline int tlc_rulehelp_tensor_arg(const tlc_tensor **out, const tlc_op *op,
                                          const tlc_host *host, size_t i, const char *name)
{
	const tlc_value *v = host->arg(op, i, name);
	*out = NULL;
	if (!v || v->kind == TLC_VALUE_UNRECORDED)
		return TLC_RULE_MISSING_ARGS;
	if (v->kind != TLC_VALUE_TENSOR)
		return TLC_RULE_BAD_ARGS;
	*out = &v->u.tensor;
	return 0;
}

/** Bool of arg(i, name), dflt when absent; ints 0/1 are bools. */
static inline int tlc_rulehelp_bool_arg_or(int *out, const tlc_op *op, const tlc_host *host,
                                           size_t i, const char *name, int dflt)
{
	const tlc_value *v = host->arg(op, i, name);
	if (!v) {
		*out = dflt;
		return 0;
	}
	if (v->kind == TLC_VALUE_BOOL) {
		*out = v->u.boolean != 0;
		return 0;
	}
	if (v->kind == TLC_VALUE_INT && (v->u.integer == 0 || v->u.integer == 1)) {
		*out = (int)v->u.integer;
		return 0;
	}
	return v->kind == TLC_VALUE_UNRECORDED ? TLC_RULE_MISSING_ARGS : TLC_RULE_BAD_ARGS;
}

/** String of arg(i, name), dflt when absent; NULL when not a string. */
static inline const char *tlc_rulehelp_string_arg_or(const tlc_op *op, const tlc_host *host,
                                                     size_t i, const char *name,
                                                     const char *dflt)
{
	const tlc_value *v = host->arg(op, i, name);
	if (!v)
		return dflt;
	return v->kind == TLC_VALUE_STRING ? v->u.string : NULL;
}

/* ---- rulehelp: exact products (terms) ---- */

/** Most factors one term holds. */
#define TLC_RULEHELP_MAX_FACTORS 64

/** A product of non-negative int64 factors, added to a cost exactly
 *  (host->cost_add multiplies in GMP: no overflow). */
typedef struct tlc_rulehelp_term {
	size_t n;
	int64_t f[TLC_RULEHELP_MAX_FACTORS];
	int bad; /* too many factors, a negative one, or a missing tensor */
} tlc_rulehelp_term;

static inline void tlc_rulehelp_term_init(tlc_rulehelp_term *t)
{
	t->n = 0;
	t->bad = 0;
}

/** Multiplies the term by x (x >= 0). */
static inline void tlc_rulehelp_term_mul(tlc_rulehelp_term *t, int64_t x)
{
	if (x < 0 || t->n >= TLC_RULEHELP_MAX_FACTORS) {
		t->bad = 1;
		return;
	}
	if (x != 1)
		t->f[t->n++] = x;
}

/** Multiplies by dims [from, to) of x (to clamped to its rank). */
static inline void tlc_rulehelp_term_mul_dims(tlc_rulehelp_term *t, const tlc_tensor *x,
                                              size_t from, size_t to)
{
	if (!x) {
		t->bad = 1;
		return;
	}
	if (to > x->ndim)
		to = x->ndim;
	for (size_t i = from; i < to; i++)
		tlc_rulehelp_term_mul(t, x->shape[i]);
}

/** Multiplies by numel(x). */
static inline void tlc_rulehelp_term_mul_numel(tlc_rulehelp_term *t, const tlc_tensor *x)
{
	tlc_rulehelp_term_mul_dims(t, x, 0, x ? x->ndim : 0);
}

/** out->field += coeff * term, exactly. 0 or TLC_RULE_BAD_ARGS (bad term). */
static inline int tlc_rulehelp_term_add(tlc_cost *out, const tlc_host *host,
                                        tlc_cost_field field, int64_t coeff,
                                        const tlc_rulehelp_term *t)
{
	if (t->bad)
		return TLC_RULE_BAD_ARGS;
	return host->cost_add(out, field, coeff, t->n, t->f);
}

/* ---- rulehelp: bytes and explanations ---- */

/** The usual bytes: every input read once (host->read_inputs), every
 *  recorded output written once, else fallback (host->write_outputs). */
static inline int tlc_rulehelp_io_bytes(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                                        const tlc_value *fallback)
{
	int rc = host->read_inputs(out, op);
	return rc < 0 ? rc : host->write_outputs(out, op, fallback);
}

/** Explains (printf format, at most 255 bytes kept) and returns rc. */
static inline int tlc_rulehelp_explain_rc(tlc_cost *out, const tlc_host *host, int rc,
                                          const char *fmt, va_list ap)
{
	char buf[256];
	vsnprintf(buf, sizeof buf, fmt, ap);
	host->cost_explain(out, buf);
	return rc;
}

/** Explains why an argument is missing and returns TLC_RULE_MISSING_ARGS. */
static inline int tlc_rulehelp_missing(tlc_cost *out, const tlc_host *host, const char *fmt,
                                       ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = tlc_rulehelp_explain_rc(out, host, TLC_RULE_MISSING_ARGS, fmt, ap);
	va_end(ap);
	return rc;
}

/** Explains why the arguments are wrong and returns TLC_RULE_BAD_ARGS. */
static inline int tlc_rulehelp_bad(tlc_cost *out, const tlc_host *host, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = tlc_rulehelp_explain_rc(out, host, TLC_RULE_BAD_ARGS, fmt, ap);
	va_end(ap);
	return rc;
}

#ifdef __cplusplus
}
#endif
#endif /* TLCOST_SYS_RULEHELP_H */
