/* Core engine tests: exact counters, registry precedence, classification,
 * the nesting policy in both record orders, the ledger, phases, the fma=1
 * refusal, and allocation failure at every point of a representative run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tlcost/tlcost.h"
#include "count.h"
#include "engine.h"
#include "../rows_util.h"

/* ---- helpers ---- */

/* Test rule: macs = product of arg0's shape; other = numel of arg0 when the
 * payload is non-NULL; reads arg0 bytes. Missing arg0 -> missing_args. */
static int prod_rule(tlc_cost *out, const tlc_op *op, const tlc_host *h, void *payload)
{
	if (op->nargs < 1 || op->args[0].kind != TLC_VALUE_TENSOR) {
		h->cost_explain(out, "arg 0 (a tensor) is missing");
		return TLC_RULE_MISSING_ARGS;
	}
	const tlc_tensor *t = &op->args[0].u.tensor;
	h->cost_add(out, TLC_FIELD_MACS, 1, t->ndim, t->shape);
	if (payload)
		h->cost_add_numel(out, TLC_FIELD_OTHER_FLOPS, 1, t);
	h->cost_add_bytes(out, TLC_FIELD_BYTES_READ, &op->args[0]);
	return TLC_RULE_OK;
}

static int split_unknown_rule(tlc_cost *out, const tlc_op *op, const tlc_host *h, void *p)
{
	(void)p;
	int64_t one = 1;
	h->cost_add(out, TLC_FIELD_OTHER_FLOPS, 10, 1, &one);
	h->cost_set_split_unknown(out);
	(void)op;
	return TLC_RULE_OK;
}

static void reg(tlc_engine *eng, const char *name, tlc_rule_kind kind, tlc_rule_fn fn,
                void *payload)
{
	tlc_rule_def d = { sizeof d, name, kind, TLC_EVIDENCE_FORMULA_EXACT, fn, payload, "test", 0 };
	assert_int_equal(tlc_engine_register_rule(eng, &d), 0);
}

static tlc_engine *test_engine(void)
{
	tlc_engine_options o = { sizeof o, TLC_ENGINE_NO_BUILTINS, NULL };
	tlc_engine *eng;
	assert_int_equal(tlc_engine_new(&eng, &o), 0);
	reg(eng, "t::prod", TLC_RULE_COST, prod_rule, NULL);
	reg(eng, "t::prod_other", TLC_RULE_COST, prod_rule, (void *)1);
	reg(eng, "t::view", TLC_RULE_ZERO, NULL, NULL);
	reg(eng, "t::annot", TLC_RULE_STRUCTURAL, NULL, NULL);
	reg(eng, "t::decomp", TLC_RULE_DECOMPOSED, NULL, NULL);
	reg(eng, "t::split", TLC_RULE_COST, split_unknown_rule, NULL);
	return eng;
}

typedef struct opb {
	tlc_op op;
	tlc_value arg;
	int64_t shape[8];
} opb;

/* An op with one float32 tensor argument of the given shape (ndim < 0: no args). */
static void mkop(opb *b, int64_t id, const char *name, int64_t parent, int ndim, ...)
{
	memset(b, 0, sizeof *b);
	b->op.size = sizeof b->op;
	b->op.id = id;
	b->op.name = name;
	b->op.correlation = id;
	if (parent >= 0) {
		b->op.flags |= TLC_OP_HAS_PARENT;
		b->op.parent = parent;
	}
	if (ndim < 0)
		return;
	va_list ap;
	va_start(ap, ndim);
	for (int i = 0; i < ndim; i++)
		b->shape[i] = va_arg(ap, int64_t);
	va_end(ap);
	b->arg.kind = TLC_VALUE_TENSOR;
	b->arg.u.tensor.ndim = (size_t)ndim;
	b->arg.u.tensor.shape = b->shape;
	b->arg.u.tensor.dtype = TLC_DTYPE_FLOAT32;
	b->arg.u.tensor.dtype_name = "float32";
	b->op.nargs = 1;
	b->op.args = &b->arg;
}

static void push(tlc_eval *ev, opb *b) { assert_int_equal(tlc_eval_push_op(ev, &b->op), 0); }

static uint64_t tot(tlc_eval *ev, tlc_phase p, tlc_total w)
{
	uint64_t v = 0;
	assert_int_equal(tlc_eval_total_u64(&v, ev, p, w), 0);
	return v;
}

static const tlc_op_row *row_of(tlc_eval *ev, int64_t id)
{
	for (size_t i = 0; i < tlc_eval_op_count(ev); i++)
		if (test_op_id(ev, i) == id)
			return test_op_at(ev, i);
	fail_msg("no row for id %lld", (long long)id);
	return NULL;
}

static tlc_eval *new_eval(tlc_engine *eng)
{
	tlc_eval_options o = { sizeof o, 1, NULL, NULL };
	tlc_eval *ev;
	assert_int_equal(tlc_eval_new(&ev, eng, &o), 0);
	return ev;
}

/* ---- counters ---- */

static void test_count_big(void **state)
{
	(void)state;
	tlc_count c;
	tlc_count__init(&c);
	int64_t f[4] = { INT64_C(1) << 40, INT64_C(1) << 40, INT64_C(1) << 40, INT64_C(1) << 40 };
	tlc_count__add_product(&c, 1, 4, f);
	char *s = tlc_count__to_str(&c);
	/* 2^160, from any table of powers of two */
	assert_string_equal(s, "1461501637330902918203684832716283019655932542976");
	free(s);
	uint64_t u;
	assert_int_equal(tlc_count__get_u64(&u, &c), TLC_EOVERFLOW);
	tlc_count__add_product(&c, -1, 4, f);
	assert_true(tlc_count__is_zero(&c));
	/* INT64_MAX + INT64_MAX = 18446744073709551614 fits u64 but not i64 */
	tlc_count__add_i64(&c, INT64_MAX);
	tlc_count__add_i64(&c, INT64_MAX);
	assert_int_equal(tlc_count__get_u64(&u, &c), 0);
	assert_true(u == UINT64_C(18446744073709551614));
	s = tlc_count__to_str_grouped(&c);
	assert_string_equal(s, "18,446,744,073,709,551,614");
	free(s);
	tlc_count__clear(&c);

	/* regression: an add that overflows int64 must not leave the wrapped
	 * sum behind. Three times 2^62 + 9 = 13835058055282163739. */
	tlc_count__init(&c);
	for (int i = 0; i < 3; i++)
		tlc_count__add_i64(&c, (INT64_C(1) << 62) + 9);
	s = tlc_count__to_str(&c);
	assert_string_equal(s, "13835058055282163739");
	free(s);
	tlc_count__clear(&c);
	tlc_count__init(&c);
	int64_t g = (INT64_C(1) << 62) + 9;
	for (int i = 0; i < 3; i++)
		tlc_count__add_product(&c, 1, 1, &g);
	s = tlc_count__to_str(&c);
	assert_string_equal(s, "13835058055282163739");
	free(s);
	tlc_count__clear(&c);
	tlc_count__init(&c);
	tlc_count v;
	tlc_count__init(&v);
	tlc_count__add_i64(&v, g);
	for (int i = 0; i < 3; i++)
		tlc_count__addmul_si(&c, &v, 1);
	s = tlc_count__to_str(&c);
	assert_string_equal(s, "13835058055282163739");
	free(s);
	tlc_count__clear(&c);
	tlc_count__clear(&v);
}

/* ---- registry ---- */

static void test_registry_precedence(void **state)
{
	(void)state;
	tlc_engine *eng = test_engine();
	reg(eng, "t::prod.special", TLC_RULE_ZERO, NULL, NULL);
	tlc_eval *ev = new_eval(eng);
	opb a, b;
	mkop(&a, 0, "t::prod", -1, 2, INT64_C(3), INT64_C(4));
	a.op.overload = "special";
	mkop(&b, 1, "t::prod", -1, 2, INT64_C(3), INT64_C(4));
	b.op.overload = "other";
	push(ev, &a);
	push(ev, &b);
	assert_int_equal(tlc_eval_finish(ev), 0);
	assert_int_equal(row_of(ev, 0)->cls, TLC_CLASS_ZERO_BY_RULE); /* overload rule wins */
	assert_int_equal(row_of(ev, 1)->cls, TLC_CLASS_KNOWN);        /* falls back to plain */
	assert_int_equal(tot(ev, TLC_PHASE_FORWARD, TLC_TOTAL_MACS), 12);
	tlc_eval_free(ev);

	tlc_rule_def d = { sizeof d, "t::prod", TLC_RULE_ZERO, TLC_EVIDENCE_ESTIMATED, NULL, NULL, "", 0 };
	assert_int_equal(tlc_engine_register_rule(eng, &d), TLC_EEXISTS);
	assert_string_equal(tlc_error_last()->code, "rule_duplicate");
	assert_true(tlc_error_last()->remedy[0] != '\0');
	d.flags = TLC_RULE_OVERRIDE;
	assert_int_equal(tlc_engine_register_rule(eng, &d), 0);
	assert_int_equal(tlc_engine_notice_count(eng), 1);
	assert_string_equal(tlc_engine_notice_at(eng, 0)->code, "rule_override");
	d.name = "no_namespace";
	assert_int_equal(tlc_engine_register_rule(eng, &d), TLC_EINVAL);
	assert_string_equal(tlc_error_last()->code, "rule_invalid");
	tlc_engine_free(eng);
}

/* A plugin (any provider but the API's) cannot override its own rule:
 * one name twice in one init() is refused even with TLC_RULE_OVERRIDE
 * (issue 23, finding 15); the API may replace its own registration. */
static void test_registry_no_self_override(void **state)
{
	(void)state;
	tlc_engine_options o = { sizeof o, TLC_ENGINE_NO_BUILTINS, NULL };
	tlc_engine *eng;
	assert_int_equal(tlc_engine_new(&eng, &o), 0);
	unsigned p1;
	assert_int_equal(tlc_registry__provider(&p1, eng->reg, "plugin:one"), 0);
	tlc_rule_def d = { sizeof d, "x::a", TLC_RULE_ZERO, TLC_EVIDENCE_ESTIMATED, NULL, NULL, "",
	                   TLC_RULE_OVERRIDE };
	assert_int_equal(tlc_registry__add(eng->reg, p1, &d), 0);
	assert_int_equal(tlc_registry__add(eng->reg, p1, &d), TLC_EEXISTS);
	assert_string_equal(tlc_error_last()->code, "rule_duplicate");
	assert_non_null(strstr(tlc_error_last()->message, "registered twice by the same plugin"));
	assert_int_equal(tlc_registry__count(eng->reg), 1);
	d.name = "x::b";
	assert_int_equal(tlc_engine_register_rule(eng, &d), 0);
	assert_int_equal(tlc_engine_register_rule(eng, &d), 0);
	tlc_engine_free(eng);
}

static void test_registry_remove_restores(void **state)
{
	(void)state;
	tlc_engine_options o = { sizeof o, TLC_ENGINE_NO_BUILTINS, NULL };
	tlc_engine *eng;
	assert_int_equal(tlc_engine_new(&eng, &o), 0);
	unsigned p1, p2;
	assert_int_equal(tlc_registry__provider(&p1, eng->reg, "one"), 0);
	assert_int_equal(tlc_registry__provider(&p2, eng->reg, "two"), 0);
	tlc_rule_def d = { sizeof d, "x::a", TLC_RULE_ZERO, TLC_EVIDENCE_FORMULA_EXACT, NULL, NULL, "", 0 };
	assert_int_equal(tlc_registry__add(eng->reg, p1, &d), 0);
	d.flags = TLC_RULE_OVERRIDE;
	d.evidence = TLC_EVIDENCE_ESTIMATED;
	assert_int_equal(tlc_registry__add(eng->reg, p2, &d), 0);
	d.name = "x::b";
	assert_int_equal(tlc_registry__add(eng->reg, p2, &d), 0);
	assert_int_equal(tlc_registry__count(eng->reg), 2);
	assert_int_equal(tlc_registry__find(eng->reg, "x::a", "")->info.evidence, TLC_EVIDENCE_ESTIMATED);
	tlc_registry__remove_provider(eng->reg, p2);
	assert_int_equal(tlc_registry__count(eng->reg), 1);
	assert_null(tlc_registry__find(eng->reg, "x::b", NULL));
	const tlc_rule *r = tlc_registry__find(eng->reg, "x::a", NULL);
	assert_non_null(r);
	assert_int_equal(r->info.evidence, TLC_EVIDENCE_FORMULA_EXACT);
	assert_int_equal(r->info.overrides, 0);
	assert_int_equal(tlc_registry__notice_count(eng->reg), 0);
	tlc_engine_free(eng);
}

/* ---- classification and nesting ---- */

/* A small tree: 0 annot(structural) > 1 unknown > {2 prod [2,3] (6 MACs), 3 prod_other > 4 prod}
 * plus 5 view (zero), 6 decomp > 7 prod [5] (5 MACs), 8 missing args. */
static void push_tree(tlc_eval *ev, int reverse)
{
	opb ops[9];
	mkop(&ops[0], 0, "t::annot", -1, -1);
	mkop(&ops[1], 1, "u::mystery", 0, 1, INT64_C(7));
	mkop(&ops[2], 2, "t::prod", 1, 2, INT64_C(2), INT64_C(3));
	mkop(&ops[3], 3, "t::prod_other", 1, 2, INT64_C(2), INT64_C(2));
	mkop(&ops[4], 4, "t::prod", 3, 2, INT64_C(100), INT64_C(100));
	mkop(&ops[5], 5, "t::view", -1, 1, INT64_C(9));
	mkop(&ops[6], 6, "t::decomp", -1, 1, INT64_C(9));
	mkop(&ops[7], 7, "t::prod", 6, 1, INT64_C(5));
	mkop(&ops[8], 8, "t::prod", -1, -1);
	for (int i = 0; i < 9; i++)
		push(ev, &ops[reverse ? 8 - i : i]);
	assert_int_equal(tlc_eval_finish(ev), 0);
}

static void check_tree(tlc_eval *ev)
{
	assert_int_equal(row_of(ev, 0)->cls, TLC_CLASS_NOT_APPLICABLE);
	assert_int_equal(row_of(ev, 1)->cls, TLC_CLASS_UNKNOWN);
	assert_int_equal(row_of(ev, 2)->cls, TLC_CLASS_KNOWN);
	assert_int_equal(row_of(ev, 3)->cls, TLC_CLASS_KNOWN);
	assert_int_equal(row_of(ev, 4)->cls, TLC_CLASS_NOT_APPLICABLE); /* covered by 3 */
	assert_string_equal(row_of(ev, 4)->reason, "nested");
	assert_int_equal(row_of(ev, 5)->cls, TLC_CLASS_ZERO_BY_RULE);
	assert_int_equal(row_of(ev, 6)->cls, TLC_CLASS_NOT_APPLICABLE);
	assert_string_equal(row_of(ev, 6)->reason, "decomposed");
	assert_int_equal(row_of(ev, 7)->cls, TLC_CLASS_KNOWN);
	assert_int_equal(row_of(ev, 8)->cls, TLC_CLASS_UNKNOWN);
	tlc_coverage c = TLC_COVERAGE_INIT;
	tlc_eval_coverage(&c, ev);
	assert_int_equal(c.rows, 9);
	assert_int_equal(c.by_class[TLC_CLASS_KNOWN] + c.by_class[TLC_CLASS_ZERO_BY_RULE] +
	                 c.by_class[TLC_CLASS_NOT_APPLICABLE] + c.by_class[TLC_CLASS_UNKNOWN], 9);
	assert_int_equal(c.by_class[TLC_CLASS_UNKNOWN], 2);
	/* MACs: 6 (op 2) + 4 (op 3) + 5 (op 7); other: 4 (op 3, numel [2,2]) */
	assert_int_equal(tot(ev, TLC_PHASE_FORWARD, TLC_TOTAL_MACS), 15);
	assert_int_equal(tot(ev, TLC_PHASE_FORWARD, TLC_TOTAL_OTHER_FLOPS), 4);
	assert_int_equal(tot(ev, TLC_PHASE_FORWARD, TLC_TOTAL_FLOPS), 34);
	assert_int_equal(tot(ev, TLC_PHASE_FORWARD, TLC_TOTAL_FLOPS_FMA1), 19);
	/* bytes read: float32 numel 6 + 4 + 5 = 15 elements * 4 */
	assert_int_equal(tot(ev, TLC_PHASE_FORWARD, TLC_TOTAL_BYTES_READ), 60);
	assert_true(tlc_eval_is_lower_bound(ev));
	assert_int_equal(tlc_eval_ledger_count(ev), 2);
	const tlc_ledger_entry *e0 = tlc_eval_ledger_at(ev, 0), *e1 = tlc_eval_ledger_at(ev, 1);
	/* equal counts sort by name: t::prod (missing args) before u::mystery */
	assert_string_equal(e0->name, "t::prod");
	assert_string_equal(e0->reason, "missing_args");
	assert_string_equal(e0->detail, "arg 0 (a tensor) is missing");
	assert_string_equal(e1->name, "u::mystery");
	assert_string_equal(e1->reason, "no_rule");
	/* nested FLOPs inside the unknown op 1: op 2 (12) + op 3 (2*4+4 = 12) */
	assert_string_equal(e1->nested_flops, "24");
	assert_int_equal(e1->example_ids[0], 1);
	assert_string_equal(e1->example_shapes[0], "[7]float32");
	assert_non_null(strstr(e1->remedy, ".name = \"u::mystery\""));
	assert_non_null(strstr(e1->remedy, "tlcost --plugin ./myrules.so"));
}

static void test_nesting_call_order(void **state)
{
	(void)state;
	tlc_engine *eng = test_engine();
	tlc_eval *ev = new_eval(eng);
	push_tree(ev, 0);
	check_tree(ev);
	tlc_eval_free(ev);
	tlc_engine_free(eng);
}

static void test_nesting_return_order(void **state)
{
	(void)state;
	tlc_engine *eng = test_engine();
	tlc_eval *ev = new_eval(eng);
	push_tree(ev, 1); /* children before parents, as a writer logging on return */
	check_tree(ev);
	tlc_eval_free(ev);
	tlc_engine_free(eng);
}

static void test_parent_errors(void **state)
{
	(void)state;
	tlc_engine *eng = test_engine();
	tlc_eval *ev = new_eval(eng);
	opb a, b;
	mkop(&a, 0, "t::prod", 99, 1, INT64_C(2));
	push(ev, &a);
	assert_int_equal(tlc_eval_finish(ev), TLC_EINPUT);
	assert_string_equal(tlc_error_last()->code, "oplog_parent_unknown");
	assert_non_null(strstr(tlc_error_last()->message, "99"));
	tlc_eval_free(ev);

	ev = new_eval(eng);
	mkop(&a, 1, "t::prod", 2, 1, INT64_C(2));
	mkop(&b, 2, "t::prod", 1, 1, INT64_C(2));
	push(ev, &a);
	push(ev, &b);
	assert_int_equal(tlc_eval_finish(ev), TLC_EINPUT);
	assert_string_equal(tlc_error_last()->code, "oplog_parent_unknown");
	assert_non_null(strstr(tlc_error_last()->message, "cycle"));
	tlc_eval_free(ev);

	ev = new_eval(eng);
	mkop(&a, 3, "t::prod", 3, 1, INT64_C(2));
	assert_int_equal(tlc_eval_push_op(ev, &a.op), TLC_EINPUT);
	assert_string_equal(tlc_error_last()->code, "oplog_parent_unknown");
	mkop(&a, 4, "t::prod", -1, 1, INT64_C(2));
	push(ev, &a);
	assert_int_equal(tlc_eval_push_op(ev, &a.op), TLC_EINPUT);
	assert_string_equal(tlc_error_last()->code, "oplog_duplicate_id");
	mkop(&b, 5, "t::prod", -1, 1, INT64_C(-2));
	assert_int_equal(tlc_eval_push_op(ev, &b.op), TLC_EINPUT);
	assert_string_equal(tlc_error_last()->code, "oplog_field_invalid");
	tlc_eval_free(ev);
	tlc_engine_free(eng);
}

static void test_phases_and_fma1(void **state)
{
	(void)state;
	tlc_engine *eng = test_engine();
	tlc_eval *ev = new_eval(eng);
	opb a, b, c;
	mkop(&a, 0, "t::prod", -1, 2, INT64_C(8), INT64_C(16));
	mkop(&b, 1, "t::prod", -1, 2, INT64_C(2), INT64_C(2));
	b.op.phase = TLC_PHASE_BACKWARD;
	mkop(&c, 2, "t::split", -1, -1);
	c.op.phase = TLC_PHASE_BACKWARD;
	push(ev, &a);
	push(ev, &b);
	push(ev, &c);
	assert_int_equal(tlc_eval_finish(ev), 0);
	assert_int_equal(tot(ev, TLC_PHASE_FORWARD, TLC_TOTAL_MACS), 128);
	assert_int_equal(tot(ev, TLC_PHASE_BACKWARD, TLC_TOTAL_MACS), 4);
	assert_int_equal(tot(ev, TLC_PHASE_BACKWARD, TLC_TOTAL_FLOPS), 18);
	assert_true(tlc_eval_phase_present(ev, TLC_PHASE_BACKWARD));
	assert_false(tlc_eval_phase_present(ev, TLC_PHASE_OPTIMIZER));
	assert_int_equal(tot(ev, TLC_PHASE_FORWARD, TLC_TOTAL_FLOPS_FMA1), 128);
	uint64_t v;
	assert_int_equal(tlc_eval_total_u64(&v, ev, TLC_PHASE_BACKWARD, TLC_TOTAL_FLOPS_FMA1),
	                 TLC_EREFUSED);
	assert_string_equal(tlc_error_last()->code, "flop_convention_unavailable");
	assert_false(tlc_eval_is_lower_bound(ev));
	tlc_eval_free(ev);
	tlc_engine_free(eng);
}

static void test_overflow_exact(void **state)
{
	(void)state;
	tlc_engine *eng = test_engine();
	tlc_eval *ev = new_eval(eng);
	opb a;
	int64_t big = INT64_C(1) << 40;
	mkop(&a, 0, "t::prod", -1, 4, big, big, big, big);
	push(ev, &a);
	mkop(&a, 1, "t::prod", -1, 4, big, big, big, big);
	push(ev, &a);
	assert_int_equal(tlc_eval_finish(ev), 0);
	char *s;
	assert_int_equal(tlc_eval_total_str(&s, ev, TLC_PHASE_FORWARD, TLC_TOTAL_MACS), 0);
	assert_string_equal(s, "2923003274661805836407369665432566039311865085952"); /* 2^161 */
	tlc_free(s);
	assert_int_equal(tlc_eval_total_str(&s, ev, TLC_PHASE_FORWARD, TLC_TOTAL_FLOPS), 0);
	assert_string_equal(s, "5846006549323611672814739330865132078623730171904"); /* 2^162 */
	tlc_free(s);
	uint64_t v;
	assert_int_equal(tlc_eval_total_u64(&v, ev, TLC_PHASE_FORWARD, TLC_TOTAL_MACS), TLC_EOVERFLOW);
	tlc_eval_free(ev);
	tlc_engine_free(eng);
}

static void test_ledger_examples(void **state)
{
	(void)state;
	tlc_engine *eng = test_engine();
	tlc_eval *ev = new_eval(eng);
	opb a;
	for (int i = 0; i < 10; i++) {
		mkop(&a, i, "my::op", -1, 1, (int64_t)(i % 4));
		push(ev, &a);
	}
	mkop(&a, 10, "my::rare", -1, -1);
	push(ev, &a);
	assert_int_equal(tlc_eval_finish(ev), 0);
	const tlc_ledger_entry *e = tlc_eval_ledger_at(ev, 0);
	assert_string_equal(e->name, "my::op");
	assert_int_equal(e->count, 10);
	assert_int_equal(e->nexample_ids, 3);
	assert_int_equal(e->nexample_shapes, 3);
	assert_string_equal(e->example_shapes[2], "[2]float32");
	assert_string_equal(tlc_eval_ledger_at(ev, 1)->name, "my::rare");
	assert_null(tlc_eval_ledger_at(ev, 2));
	tlc_eval_free(ev);
	tlc_engine_free(eng);
}

/* A rank-1000 tensor is summarised, not dumped: 16 dims, then the rank. */
static void test_shapes_summary_bounded(void **state)
{
	(void)state;
	tlc_engine *eng = test_engine();
	tlc_eval *ev = new_eval(eng);
	static int64_t shape[1000];
	for (int i = 0; i < 1000; i++)
		shape[i] = 1;
	tlc_value arg = { .kind = TLC_VALUE_TENSOR };
	arg.u.tensor.ndim = 1000;
	arg.u.tensor.shape = shape;
	tlc_op op = { .size = sizeof op, .id = 0, .name = "u::wide", .nargs = 1, .args = &arg };
	assert_int_equal(tlc_eval_push_op(ev, &op), 0);
	assert_int_equal(tlc_eval_finish(ev), 0);
	const char *sh = tlc_eval_ledger_at(ev, 0)->example_shapes[0];
	assert_string_equal(sh, "[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,... (1000 dims)]");
	tlc_eval_free(ev);
	tlc_engine_free(eng);
}

/* ---- allocation failure sweep ---- */

typedef struct failer {
	long countdown; /* fail when it reaches 0; negative: never */
	long live;
} failer;

static void *f_malloc(size_t n, void *p)
{
	failer *f = p;
	if (f->countdown >= 0 && f->countdown-- == 0)
		return NULL;
	void *r = malloc(n);
	f->live += r != NULL;
	return r;
}

static void *f_realloc(void *q, size_t n, void *p)
{
	failer *f = p;
	if (f->countdown >= 0 && f->countdown-- == 0)
		return NULL;
	void *r = realloc(q, n);
	f->live += (r != NULL && q == NULL);
	return r;
}

static void f_free(void *q, void *p)
{
	failer *f = p;
	f->live -= q != NULL;
	free(q);
}

/* One representative run; returns 0 or the first error. */
static int run_once(failer *f)
{
	tlc_allocator a = { f_malloc, f_realloc, f_free, f };
	tlc_engine_options o = { sizeof o, 0, &a };
	tlc_engine *eng;
	int rc = tlc_engine_new(&eng, &o);
	if (rc < 0)
		return rc;
	tlc_rule_def d = { sizeof d, "t::prod", TLC_RULE_COST, TLC_EVIDENCE_FORMULA_EXACT,
		           prod_rule, NULL, "", 0 };
	tlc_eval *ev = NULL;
	rc = tlc_engine_register_rule(eng, &d);
	if (rc == 0)
		rc = tlc_eval_new(&ev, eng, &(tlc_eval_options){ sizeof(tlc_eval_options), 1, NULL, NULL });
	opb ops[6];
	mkop(&ops[0], 0, "t::prod", 1, 2, INT64_C(3), INT64_C(3)); /* held until 1 */
	mkop(&ops[1], 1, "u::unknown", -1, 1, INT64_C(3));
	mkop(&ops[2], 2, "aten::view", -1, 1, INT64_C(3));
	mkop(&ops[3], 3, "t::prod", -1, 4, INT64_C(1) << 40, INT64_C(1) << 40, INT64_C(1) << 40,
	     INT64_C(1) << 40);
	mkop(&ops[4], 4, "aten::mm", -1, 2, INT64_C(2), INT64_C(2));
	mkop(&ops[5], 5, "u::other", 4, -1);
	for (int i = 0; rc == 0 && i < 6; i++)
		rc = tlc_eval_push_op(ev, &ops[i].op);
	if (rc == 0)
		rc = tlc_eval_finish(ev);
	char *s = NULL;
	if (rc == 0)
		rc = tlc_eval_total_str(&s, ev, TLC_PHASE_FORWARD, TLC_TOTAL_FLOPS);
	tlc_free(s);
	tlc_eval_free(ev);
	tlc_engine_free(eng);
	return rc;
}

static void test_alloc_failure_sweep(void **state)
{
	(void)state;
	failer f = { -1, 0 };
	assert_int_equal(run_once(&f), 0);
	assert_int_equal(f.live, 0);
	int failures = 0;
	for (long n = 0;; n++) {
		failer g = { n, 0 };
		int rc = run_once(&g);
		assert_int_equal(g.live, 0); /* nothing leaked, whatever failed */
		if (g.countdown >= 0) {
			assert_int_equal(rc, 0); /* the n-th allocation was never reached */
			break;
		}
		if (rc != 0) {
			assert_int_equal(rc, TLC_ENOMEM);
			assert_string_equal(tlc_error_last()->code, "out_of_memory");
			failures++;
		}
	}
	assert_true(failures > 20);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_count_big),
		cmocka_unit_test(test_registry_precedence),
		cmocka_unit_test(test_registry_no_self_override),
		cmocka_unit_test(test_registry_remove_restores),
		cmocka_unit_test(test_nesting_call_order),
		cmocka_unit_test(test_nesting_return_order),
		cmocka_unit_test(test_parent_errors),
		cmocka_unit_test(test_phases_and_fma1),
		cmocka_unit_test(test_overflow_exact),
		cmocka_unit_test(test_ledger_examples),
		cmocka_unit_test(test_shapes_summary_bounded),
		cmocka_unit_test(test_alloc_failure_sweep),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
