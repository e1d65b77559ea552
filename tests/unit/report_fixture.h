/* Test fixture for the report tests: an engine with a few tiny rules of
 * known arithmetic (no built-ins, so the expected numbers below depend only
 * on these rules) and helpers to push ops.
 *
 *   t::gemm  args A[M,K], B[K,N] -> out [M,N]: macs = M*K*N; bytes = A + B
 *            read, out written (element size of the dtype)
 *   t::pw    args X[M,K] -> out [M,K]: other_flops = M*K; same bytes rule
 *   t::view  zero_by_rule (no traffic)
 *   anything else: unknown (no rule); t::pw with no args: missing_args */
#ifndef TLC_TESTS_REPORT_FIXTURE_H
#define TLC_TESTS_REPORT_FIXTURE_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <gmp.h>
#include "tlcost/tlcost.h"

static inline int fx_bytes(tlc_cost *out, const tlc_op *op, const tlc_host *h)
{
	for (size_t i = 0; i < op->nargs; i++)
		h->cost_add_bytes(out, TLC_FIELD_BYTES_READ, &op->args[i]);
	for (size_t i = 0; i < op->noutputs; i++)
		h->cost_add_bytes(out, TLC_FIELD_BYTES_WRITTEN, &op->outputs[i]);
	return 0;
}

static inline int fx_gemm(tlc_cost *out, const tlc_op *op, const tlc_host *h, void *p)
{
	(void)p;
	if (op->nargs < 2) {
		h->cost_explain(out, "needs A and B");
		return TLC_RULE_MISSING_ARGS;
	}
	const tlc_tensor *a = &op->args[0].u.tensor, *b = &op->args[1].u.tensor;
	int64_t f[3] = { a->shape[0], a->shape[1], b->shape[1] };
	h->cost_add(out, TLC_FIELD_MACS, 1, 3, f);
	return fx_bytes(out, op, h);
}

static inline int fx_pw(tlc_cost *out, const tlc_op *op, const tlc_host *h, void *p)
{
	(void)p;
	if (op->nargs < 1) {
		h->cost_explain(out, "needs X");
		return TLC_RULE_MISSING_ARGS;
	}
	h->cost_add_numel(out, TLC_FIELD_OTHER_FLOPS, 1, &op->args[0].u.tensor);
	return fx_bytes(out, op, h);
}

static inline tlc_engine *fx_engine(void)
{
	tlc_engine_options eo;
	memset(&eo, 0, sizeof eo);
	eo.size = sizeof eo;
	eo.flags = TLC_ENGINE_NO_BUILTINS;
	tlc_engine *eng = NULL;
	assert_int_equal(tlc_engine_new(&eng, &eo), 0);
	tlc_rule_def d;
	memset(&d, 0, sizeof d);
	d.size = sizeof d;
	d.kind = TLC_RULE_COST;
	d.name = "t::gemm";
	d.fn = fx_gemm;
	d.note = "M*K*N";
	assert_int_equal(tlc_engine_register_rule(eng, &d), 0);
	d.name = "t::pw";
	d.fn = fx_pw;
	d.note = "M*K";
	assert_int_equal(tlc_engine_register_rule(eng, &d), 0);
	d.name = "t::view";
	d.kind = TLC_RULE_ZERO;
	d.fn = NULL;
	d.note = "layout only";
	assert_int_equal(tlc_engine_register_rule(eng, &d), 0);
	return eng;
}

static inline tlc_eval *fx_eval(tlc_engine *eng, const char *device)
{
	tlc_eval_options o;
	memset(&o, 0, sizeof o);
	o.size = sizeof o;
	o.keep_ops = 1;
	tlc_eval *ev = NULL;
	assert_int_equal(tlc_eval_new(&ev, eng, &o), 0);
	tlc_input_info info = TLC_INPUT_INFO_INIT;
	info.format = "api";
	info.model = "fixture";
	info.device = device;
	info.params = -1;
	info.tokens = -1;
	assert_int_equal(tlc_eval_set_info(ev, &info), 0);
	return ev;
}

/* One op: name, phase, module, module type, module call (-1: none), and
 * for t::gemm A[m,k] B[k,n] (out [m,n]); for others X[m,k] (out [m,k]).
 * nargs_override < 0: natural; 0: no args at all. */
typedef struct fx_op {
	int64_t id;
	const char *name;
	tlc_phase phase;
	const char *module, *type;
	int64_t call;
	int64_t m, k, n;
	tlc_dtype dt;
	int no_args;
	int64_t host_ns;
	const char *dtype_name; /* as a reader would record it; NULL: the op log name */
} fx_op;

static inline void fx_push(tlc_eval *ev, const fx_op *f)
{
	int gemm = strcmp(f->name, "t::gemm") == 0;
	int64_t sa[2] = { f->m, f->k }, sb[2] = { f->k, f->n };
	int64_t so[2] = { f->m, gemm ? f->n : f->k };
	tlc_value args[2], outs[1];
	memset(args, 0, sizeof args);
	memset(outs, 0, sizeof outs);
	tlc_tensor *ts[3] = { &args[0].u.tensor, &args[1].u.tensor, &outs[0].u.tensor };
	const int64_t *shp[3] = { sa, sb, so };
	for (int i = 0; i < 3; i++) {
		ts[i]->ndim = 2;
		ts[i]->shape = shp[i];
		ts[i]->dtype = f->dt ? f->dt : TLC_DTYPE_FLOAT32;
		ts[i]->dtype_name = f->dtype_name ? f->dtype_name
		                  : f->dt == TLC_DTYPE_OTHER ? "weird" : tlc_dtype_name(ts[i]->dtype);
	}
	args[0].kind = args[1].kind = outs[0].kind = TLC_VALUE_TENSOR;
	tlc_op op;
	memset(&op, 0, sizeof op);
	op.size = sizeof op;
	op.id = f->id;
	op.name = f->name;
	op.phase = f->phase;
	op.module = f->module;
	op.module_type = f->type;
	op.flags = TLC_OP_HAS_OUTPUTS;
	if (f->call >= 0) {
		op.flags |= TLC_OP_HAS_MODULE_CALL;
		op.module_call = f->call;
	}
	if (f->host_ns > 0) {
		op.flags |= TLC_OP_HAS_HOST_NS;
		op.host_ns = f->host_ns;
	}
	op.nargs = f->no_args ? 0 : gemm ? 2 : 1;
	op.args = args;
	op.noutputs = 1;
	op.outputs = outs;
	op.correlation = f->id;
	assert_int_equal(tlc_eval_push_op(ev, &op), 0);
}

static inline void fx_push_all(tlc_eval *ev, const fx_op *ops, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fx_push(ev, &ops[i]);
	assert_int_equal(tlc_eval_finish(ev), 0);
}

/* Exact total of a phase as a decimal string (caller frees with tlc_free). */
static inline char *fx_total(const tlc_eval *ev, tlc_phase p)
{
	char *s = NULL;
	assert_int_equal(tlc_eval_total_str(&s, ev, p, TLC_TOTAL_FLOPS), 0);
	return s;
}

/* Runs a writer into a memory string (free with free()). */
#define FX_CAPTURE(buf, call)                                                       \
	do {                                                                            \
		size_t fx_len_ = 0;                                                         \
		FILE *out = open_memstream(&(buf), &fx_len_);                               \
		assert_non_null(out);                                                       \
		assert_int_equal((call), 0);                                                \
		fclose(out);                                                                \
	} while (0)

/* Removes the layout whitespace of a JSON text in place (outside strings),
 * so checks can look for "key":value whatever the indentation. */
static inline char *fx_compact(char *json)
{
	char *w = json;
	int in_str = 0, esc = 0;
	for (const char *p = json; *p; p++) {
		if (in_str) {
			in_str = esc || *p != '"';
			esc = !esc && *p == '\\';
		} else if (*p == '"') {
			in_str = 1;
		} else if (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r') {
			continue;
		}
		*w++ = *p;
	}
	*w = '\0';
	return json;
}

/* Runs a JSON writer into a memory string with layout removed. */
#define FX_CAPTURE_JSON(buf, call)                                                  \
	do {                                                                            \
		FX_CAPTURE(buf, call);                                                      \
		fx_compact(buf);                                                            \
	} while (0)

/* One engine and one evaluation holding ops, as cmocka state. */
typedef struct fx_env {
	tlc_engine *eng;
	tlc_eval *ev;
} fx_env;

static inline fx_env *fx_env_new(const char *device, const fx_op *ops, size_t n)
{
	fx_env *e = calloc(1, sizeof *e);
	assert_non_null(e);
	e->eng = fx_engine();
	e->ev = fx_eval(e->eng, device);
	fx_push_all(e->ev, ops, n);
	return e;
}

static inline int fx_env_teardown(void **state)
{
	fx_env *e = *state;
	tlc_eval_free(e->ev);
	tlc_engine_free(e->eng);
	free(e);
	return 0;
}

#endif
