/* Helpers shared by the built-in rule families (semi-private). Owned by the
 * matmul/conv/attention/layout author; others add helpers additively at the
 * end (never change a declaration below: every family file relies on them).
 *
 * Conventions used by every helper:
 *  - Argument lookup "arg(i, name)": the positional argument i when the op has
 *    more than i positional args, else the keyword argument `name` (name may
 *    be NULL). A value that is JSON null counts as absent.
 *  - Getters that can fail return 0 on success, TLC_RULE_MISSING_ARGS when
 *    the value is absent, TLC_RULE_BAD_ARGS when it has the wrong kind.
 *    The *_or getters return the default when the value is absent because
 *    the caller omitted it (op logs), or is a recorded None; never when the
 *    input did not record it (see "recorded vs defaulted" at the end).
 *  - Nothing here allocates; every pointer returned is borrowed from the op
 *    and valid only during the rule call.
 */
#ifndef TLC_RULES_UTIL_H
#define TLC_RULES_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include "tlcost/plugin.h"

/** Most factors one tlc_rules_term holds (dims of several tensors). */
#define TLC_RULES_MAX_FACTORS 64
/** Most dims a shape helper (broadcast, int lists) handles. */
#define TLC_RULES_MAX_DIMS 32

#if defined(__GNUC__)
#define TLC_RULES_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define TLC_RULES_PRINTF(a, b)
#endif

/* ---- registration ---------------------------------------------------- */

/** One row of a family's rule table. payload is passed to fn (never
 *  written through). */
typedef struct tlc_rules_entry {
	const char *name;     /* "aten::mm" or "aten::add.Tensor" */
	tlc_rule_kind kind;
	tlc_evidence evidence;
	tlc_rule_fn fn;       /* COST only; NULL otherwise */
	const void *payload;
	const char *note;     /* one line: the formula or the reason for zero */
} tlc_rules_entry;

/** Registers n rows; returns 0 or the first negative register_rule code. */
int tlc_rules__register_table(tlc_plugin_ctx *ctx, const tlc_host *host,
                              const tlc_rules_entry *tab, size_t n);

#define TLC_RULES_COUNT(tab) (sizeof(tab) / sizeof((tab)[0]))

/* ---- argument access ------------------------------------------------- */

/* The lookups themselves are the host's (plugin.h), reached as a plugin
 * reaches them: host->arg, host->tensor_arg, host->output,
 * host->int_arg_or, host->int_list_arg; so are host->dim, host->numel,
 * host->broadcast, host->read_inputs, host->write_outputs,
 * host->matmul_shape, host->conv_out_size and host->dtype_parse. Their
 * implementations are the engine's (engine/registry/host_help.c), which
 * nothing in rules/ can see; the getters below call them through the host
 * pointer too. */

/* The small accessors below run several times per op: C99 inline
 * definitions, with the external ones in rules/util.c. */

/** The tensor of a value, or NULL when v is NULL or not a tensor. */
inline const tlc_tensor *tlc_rules__tensor(const tlc_value *v)
{
	return v && v->kind == TLC_VALUE_TENSOR ? &v->u.tensor : NULL;
}

/** Tensor of output i, or NULL (outputs not recorded, out of range, None). */
inline const tlc_tensor *tlc_rules__tensor_out(const tlc_op *op, size_t i)
{
	if (!op || !(op->flags & TLC_OP_HAS_OUTPUTS) || !op->outputs || i >= op->noutputs)
		return NULL;
	return tlc_rules__tensor(&op->outputs[i]);
}

/** Integer of arg(i, name). A bool is not an int; a one-element int list
 *  is. (host->int_arg_or is the variant with a default.) */
int tlc_rules__int_arg(int64_t *out, const tlc_op *op, const tlc_host *host, size_t i,
                       const char *name);
/** Bool of arg(i, name); ints 0/1 are accepted as bools. */
int tlc_rules__bool_arg_or(int *out, const tlc_op *op, const tlc_host *host, size_t i,
                           const char *name, int dflt);
/** Number (int or float) of arg(i, name) as a double; for tests such as
 *  beta != 0 only, never for counting. Strings "inf"/"-inf"/"nan" accepted. */
int tlc_rules__real_arg_or(double *out, const tlc_op *op, const tlc_host *host,
                           size_t i, const char *name, double dflt);
/** String of arg(i, name), or dflt when absent; NULL when not a string. */
const char *tlc_rules__string_arg_or(const tlc_op *op, const tlc_host *host, size_t i,
                                     const char *name, const char *dflt);

/** An int list value into out[cap]. A single int is a list of one. An empty
 *  list gives *n = 0. BAD_ARGS for non-ints or more than cap entries. */
int tlc_rules__int_list(int64_t *out, size_t cap, size_t *n, const tlc_value *v);
/** Bool list (output_mask) of arg(i, name) into out[cap]; ints 0/1 accepted. */
int tlc_rules__bool_list_arg(int *out, size_t cap, size_t *n, const tlc_op *op,
                             const tlc_host *host, size_t i, const char *name);

/* ---- shapes ---------------------------------------------------------- */

/** Product of dims [from, to) of t into *out; BAD_ARGS on int64 overflow
 *  (use a term for counting; this is for sizes such as a batch count). */
int tlc_rules__numel_range(int64_t *out, const tlc_tensor *t, size_t from, size_t to);
/** numpy/PyTorch broadcast (host->broadcast) of the shapes of the tensors
 *  among vals[0..n) (NULL and non-tensors skipped) into
 *  out[TLC_RULES_MAX_DIMS]; BAD_ARGS when they do not broadcast. */
int tlc_rules__broadcast_values(int64_t *out, size_t *nout, const tlc_host *host,
                                const tlc_value *const *vals, size_t n);

/* ---- exact products (terms) ------------------------------------------ */

/** A product of non-negative int64 factors, added to a cost exactly. */
typedef struct tlc_rules_term {
	size_t n;
	int64_t f[TLC_RULES_MAX_FACTORS];
	int bad; /* too many factors or a negative one */
} tlc_rules_term;

/* The term helpers run for every factor of every count: they are C99
 * inline definitions, inlined in the rules; rules/util.c emits the
 * external definitions, so the exported symbols stay as they were. */
inline void tlc_rules__term_init(tlc_rules_term *t)
{
	t->n = 0;
	t->bad = 0;
}

/** Multiplies the term by x (x >= 0). */
inline void tlc_rules__term_mul(tlc_rules_term *t, int64_t x)
{
	if (x < 0 || t->n >= TLC_RULES_MAX_FACTORS) {
		t->bad = 1;
		return;
	}
	if (x == 1)
		return;
	t->f[t->n++] = x;
}

/** Multiplies by dims [from, to) of a tensor (to clamped to ndim). */
inline void tlc_rules__term_mul_dims(tlc_rules_term *t, const tlc_tensor *x, size_t from,
                                     size_t to)
{
	if (!x) {
		t->bad = 1;
		return;
	}
	if (to > x->ndim)
		to = x->ndim;
	for (size_t i = from; i < to; i++)
		tlc_rules__term_mul(t, x->shape[i]);
}

/** Multiplies by numel(x). */
inline void tlc_rules__term_mul_numel(tlc_rules_term *t, const tlc_tensor *x)
{
	tlc_rules__term_mul_dims(t, x, 0, x ? x->ndim : 0);
}

/** Multiplies by the product of shape[0..n). */
inline void tlc_rules__term_mul_shape(tlc_rules_term *t, const int64_t *shape, size_t n)
{
	for (size_t i = 0; i < n; i++)
		tlc_rules__term_mul(t, shape[i]);
}

/** out->field += coeff * term. Returns 0 or TLC_RULE_BAD_ARGS (bad term). */
inline int tlc_rules__term_add(tlc_cost *out, const tlc_host *host, tlc_cost_field field,
                               int64_t coeff, const tlc_rules_term *t)
{
	if (t->bad)
		return TLC_RULE_BAD_ARGS;
	return host->cost_add(out, field, coeff, t->n, t->f);
}

/** *dst = *src, copying only the factors in use (a term is ~0.5 KiB). */
static inline void tlc_rules__term_copy(tlc_rules_term *dst, const tlc_rules_term *src)
{
	dst->n = src->n;
	dst->bad = src->bad;
	for (size_t i = 0; i < src->n; i++)
		dst->f[i] = src->f[i];
}

/* ---- bytes ------------------------------------------------------------ */

/** Nonzero for in-place and out= variants: the name ends with '_', or the
 *  overload is "out" or ends with "_out" ("Tensor_out"); "output_mask" is not. */
int tlc_rules__is_inplace(const tlc_op *op);
/** bytes_read += one value (tensor or list; None adds nothing). */
int tlc_rules__read_value(tlc_cost *out, const tlc_host *host, const tlc_value *v);
/** bytes_written += prod(shape) * size(dtype); unknown dtype marks the bytes
 *  unknown (never adds 0 silently). */
int tlc_rules__write_shape(tlc_cost *out, const tlc_host *host, const int64_t *shape,
                           size_t n, tlc_dtype dtype);
/** The usual pair: read_inputs + write_outputs(fallback). */
int tlc_rules__io_bytes(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                        const tlc_value *fallback);

/* ---- explanations ---------------------------------------------------- */

/** Explains (printf format) and returns TLC_RULE_MISSING_ARGS. */
int tlc_rules__missing(tlc_cost *out, const tlc_host *host, const char *fmt, ...)
	TLC_RULES_PRINTF(3, 4);
/** Explains (printf format) and returns TLC_RULE_BAD_ARGS. */
int tlc_rules__bad(tlc_cost *out, const tlc_host *host, const char *fmt, ...)
	TLC_RULES_PRINTF(3, 4);
/** Turns a helper's return code into an explained one: rc < 0 is explained
 *  as "missing/bad <what>" and returned; rc == 0 returns 0. */
int tlc_rules__need(tlc_cost *out, const tlc_host *host, int rc, const char *what);

/* ---- element types: names are host->dtype_parse, codes below ---------- */

/* ---- shared per-element conventions ------------------------------------
 * FLOPs per element that are conventions, not arithmetic (rules using them
 * mark their cost estimated). Every rule family uses these names so the same
 * operation costs the same wherever it appears; the table with reasons is
 * docs/rule-constants.md. */
#define TLC_RULES_K_RELU 1         /* max(x, 0): one comparison */
#define TLC_RULES_K_GELU 5         /* erf form: x/sqrt2, erf, +1, *x, *0.5 */
#define TLC_RULES_K_GELU_TANH 9    /* tanh form: x^3 (2), *c, +x, *k, tanh, +1, *x, *0.5 */
#define TLC_RULES_K_SOFTMAX_FWD 5  /* max, subtract, exp, sum, divide */
#define TLC_RULES_K_SOFTMAX_BWD 4  /* dy*y, sum, subtract, *y */
#define TLC_RULES_K_LAYER_NORM 5   /* per element: mean, subtract, square, sum, scale */
#define TLC_RULES_K_LAYER_NORM_AFFINE 2 /* + weight multiply and bias add */

/* ---- helpers added by other rule authors go below (additive only) ---- */

/* ---- recorded vs defaulted arguments (issue 10) ------------------------
 * An op log may omit an argument: the schema default applies. A trace
 * (TLC_OP_ARGS_OBSERVED) lists every argument, but writes a scalar or list
 * value only in 'Concrete Inputs' and a string never: such a value is
 * TLC_VALUE_UNRECORDED, and an argument missing from the list was not
 * recorded either. Every getter above returns MISSING_ARGS for both, never
 * the default; a recorded None still means None. */

/** Nonzero when the op's arguments were observed by a profiler (traces). */
inline int tlc_rules__observed(const tlc_op *op)
{
	return op && (op->flags & TLC_OP_ARGS_OBSERVED) != 0;
}

/** Nonzero when v is an argument whose value the input did not record. */
inline int tlc_rules__unrecorded(const tlc_value *v)
{
	return v && v->kind == TLC_VALUE_UNRECORDED;
}
/** *out = 1 when arg(i, name) was given (not None), 0 when None or omitted.
 *  MISSING_ARGS when the input did not record whether it was (unrecorded
 *  value, or absent from an observed op). For optional arguments whose
 *  presence changes the count (clamp's min/max, ...). */
int tlc_rules__given(int *out, const tlc_op *op, const tlc_host *host, size_t i,
                     const char *name);
/** String of arg(i, name) into *out: dflt when omitted (op logs), MISSING_ARGS
 *  when not recorded (a trace records no string: None there may be one),
 *  BAD_ARGS when not a string. */
int tlc_rules__string_arg(const char **out, const tlc_op *op, const tlc_host *host,
                          size_t i, const char *name, const char *dflt);
/** Explains "<what> not recorded by the trace" (observed ops) or "missing
 *  <what>" and returns MISSING_ARGS. */
int tlc_rules__missing_arg(tlc_cost *out, const tlc_host *host, const tlc_op *op,
                           const char *what);
/** A getter's failure explained: MISSING_ARGS as missing_arg(what), any
 *  other negative rc as bad(bad_msg). Returns rc (0 passes through). */
int tlc_rules__arg_fail(tlc_cost *out, const tlc_host *host, const tlc_op *op, int rc,
                        const char *what, const char *bad_msg);
/** dtype of a c10::ScalarType code (how a trace's Concrete Inputs write a
 *  dtype argument: 6 float32, 15 bfloat16, 4 int64, ...); OTHER for a code
 *  of unknown size or out of range. */
tlc_dtype tlc_rules__dtype_code(int64_t code);
/** Marks the cost's bytes unknown (a tensor the formula writes has a shape
 *  the input did not record); FLOPs stay exact. */
int tlc_rules__bytes_unknown(tlc_cost *out, const tlc_host *host, tlc_cost_field field);

#endif
