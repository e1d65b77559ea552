/* Cost tree: structure, strict folding, --top/--depth remainder rows and
 * exact conservation of totals (contract section 5). Expected numbers are
 * derived by hand from the fixture rules (tests/unit/report_fixture.h). */
#include "../report_fixture.h"

/* Forward FLOPs (fma=2, flops = 2*macs + other):
 *   enc.{0,1,2}.fc gemm 2x3x4: macs 24 -> 48 each; enc.{0,1,2}.act pw 2x4 -> 8
 *   enc.3.fc gemm 2x3x5: macs 30 -> 60;            enc.3.act pw 2x5 -> 10
 *   head: t::mystery (unknown); root: pw 1x1 -> 1
 * total = 3*(48+8) + 60 + 10 + 1 = 239; backward gemm 2x4x3 -> 48 (own phase) */
static const fx_op tiny[] = {
	{ 0, "t::gemm", TLC_PHASE_FORWARD, "enc.0.fc", "Linear", 0, 2, 3, 4, 0, 0, 0, NULL },
	{ 1, "t::pw", TLC_PHASE_FORWARD, "enc.0.act", "ReLU", 0, 2, 4, 0, 0, 0, 0, NULL },
	{ 2, "t::gemm", TLC_PHASE_FORWARD, "enc.1.fc", "Linear", 0, 2, 3, 4, 0, 0, 0, NULL },
	{ 3, "t::pw", TLC_PHASE_FORWARD, "enc.1.act", "ReLU", 0, 2, 4, 0, 0, 0, 0, NULL },
	{ 4, "t::gemm", TLC_PHASE_FORWARD, "enc.2.fc", "Linear", 0, 2, 3, 4, 0, 0, 0, NULL },
	{ 5, "t::pw", TLC_PHASE_FORWARD, "enc.2.act", "ReLU", 0, 2, 4, 0, 0, 0, 0, NULL },
	{ 6, "t::gemm", TLC_PHASE_FORWARD, "enc.3.fc", "Linear", 0, 2, 3, 5, 0, 0, 0, NULL },
	{ 7, "t::pw", TLC_PHASE_FORWARD, "enc.3.act", "ReLU", 0, 2, 5, 0, 0, 0, 0, NULL },
	{ 8, "t::mystery", TLC_PHASE_FORWARD, "head", "Head", 0, 2, 2, 0, 0, 0, 0, NULL },
	{ 9, "t::pw", TLC_PHASE_FORWARD, "", NULL, -1, 1, 1, 0, 0, 0, 0, NULL },
	{ 10, "t::gemm", TLC_PHASE_BACKWARD, "enc.0.fc", "Linear", 0, 2, 4, 3, 0, 0, 0, NULL },
};

static int setup_tiny(void **state)
{
	*state = fx_env_new(NULL, tiny, sizeof tiny / sizeof tiny[0]);
	return 0;
}

static tlc_tree *build(const tlc_eval *ev, tlc_phase ph, size_t top, size_t depth, int nofold)
{
	tlc_tree_options o;
	memset(&o, 0, sizeof o);
	o.size = sizeof o;
	o.phase = ph;
	o.top = top;
	o.depth = depth;
	o.no_fold = nofold;
	tlc_tree *t = NULL;
	assert_int_equal(tlc_tree_build(&t, ev, &o), 0);
	return t;
}

typedef struct want_row {
	tlc_tree_row_kind kind;
	size_t depth;
	const char *label;
	const char *self, *sub;
	uint64_t repeat, unknown;
} want_row;

static void check_rows(const tlc_tree *t, const want_row *w, size_t n)
{
	assert_int_equal(tlc_tree_row_count(t), n);
	for (size_t i = 0; i < n; i++) {
		const tlc_tree_row *r = tlc_tree_row_at(t, i);
		assert_int_equal(r->kind, w[i].kind);
		assert_int_equal(r->depth, w[i].depth);
		assert_string_equal(r->label, w[i].label);
		assert_string_equal(r->self_flops, w[i].self);
		assert_string_equal(r->subtree_flops, w[i].sub);
		assert_int_equal(r->repeat, w[i].repeat);
		assert_int_equal(r->subtree_unknown, w[i].unknown);
	}
}

static void test_full_tree(void **state)
{
	fx_env *e = *state;
	tlc_tree *t = build(e->ev, TLC_PHASE_FORWARD, 0, 0, 0);
	/* enc.0..2 are identical (same structure, same costs): one (x3) row whose
	 * values cover all three; enc.3 differs in cost and is not folded. */
	static const want_row w[] = {
		{ TLC_TREE_NODE, 0, "(root)", "1", "239", 1, 1 },
		{ TLC_TREE_NODE, 1, "enc", "0", "238", 1, 0 },
		{ TLC_TREE_NODE, 2, "0..2 (x3)", "0", "168", 3, 0 },
		{ TLC_TREE_NODE, 3, "fc (x3)", "144", "144", 1, 0 },
		{ TLC_TREE_NODE, 3, "act (x3)", "24", "24", 1, 0 },
		{ TLC_TREE_NODE, 2, "3", "0", "70", 1, 0 },
		{ TLC_TREE_NODE, 3, "fc", "60", "60", 1, 0 },
		{ TLC_TREE_NODE, 3, "act", "10", "10", 1, 0 },
		{ TLC_TREE_NODE, 1, "head", "0", "0", 1, 1 },
	};
	check_rows(t, w, sizeof w / sizeof w[0]);
	assert_string_equal(tlc_tree_row_at(t, 8)->module_type, "Head");
	assert_string_equal(tlc_tree_row_at(t, 2)->path, "enc.0");
	assert_string_equal(tlc_tree_row_at(t, 2)->last_path, "enc.2");
	assert_string_equal(tlc_tree_total_flops(t), "239");
	assert_string_equal(tlc_tree_hidden_flops(t), "0");
	tlc_tree_free(t);
}

static void test_top_and_depth_rows(void **state)
{
	fx_env *e = *state;
	/* top 1: root keeps enc (238 > head 0); enc keeps 0..2 (168 > 70); the
	 * folded block keeps fc (144 > 24, the 24 covers three act calls). */
	tlc_tree *t = build(e->ev, TLC_PHASE_FORWARD, 1, 0, 0);
	static const want_row w[] = {
		{ TLC_TREE_NODE, 0, "(root)", "1", "239", 1, 1 },
		{ TLC_TREE_NODE, 1, "enc", "0", "238", 1, 0 },
		{ TLC_TREE_NODE, 2, "0..2 (x3)", "0", "168", 3, 0 },
		{ TLC_TREE_NODE, 3, "fc (x3)", "144", "144", 1, 0 },
		{ TLC_TREE_MORE, 3, "(+ 3 more calls)", "24", "24", 1, 0 },
		{ TLC_TREE_MORE, 2, "(+ 1 more call)", "70", "70", 1, 0 },
		{ TLC_TREE_MORE, 1, "(+ 1 more call)", "0", "0", 1, 1 },
	};
	check_rows(t, w, sizeof w / sizeof w[0]);
	assert_string_equal(tlc_tree_hidden_flops(t), "94");
	assert_int_equal(tlc_tree_hidden_calls(t), 5);
	tlc_tree_free(t);
	/* depth 1: enc's 238 hide below it in 12 calls (0..3 and their fc/act) */
	t = build(e->ev, TLC_PHASE_FORWARD, 0, 1, 0);
	static const want_row d[] = {
		{ TLC_TREE_NODE, 0, "(root)", "1", "239", 1, 1 },
		{ TLC_TREE_NODE, 1, "enc", "0", "238", 1, 0 },
		{ TLC_TREE_BELOW, 2, "(+ 12 calls below depth 1)", "238", "238", 1, 0 },
		{ TLC_TREE_NODE, 1, "head", "0", "0", 1, 1 },
	};
	check_rows(t, d, sizeof d / sizeof d[0]);
	tlc_tree_free(t);
}

/* Sum of the self column with GMP, independent of the library's counters. */
static void assert_self_sum(const tlc_tree *t, const char *want)
{
	mpz_t sum, v;
	mpz_init(sum);
	mpz_init(v);
	for (size_t i = 0; i < tlc_tree_row_count(t); i++) {
		assert_int_equal(mpz_set_str(v, tlc_tree_row_at(t, i)->self_flops, 10), 0);
		mpz_add(sum, sum, v);
	}
	char *s = mpz_get_str(NULL, 10, sum);
	assert_string_equal(s, want);
	free(s);
	mpz_clear(sum);
	mpz_clear(v);
}

static void test_conservation(void **state)
{
	fx_env *e = *state;
	for (int ph = 0; ph < 2; ph++) {
		char *total = fx_total(e->ev, (tlc_phase)ph);
		for (size_t top = 0; top <= 3; top++)
			for (size_t depth = 0; depth <= 4; depth++)
				for (int nofold = 0; nofold <= 1; nofold++) {
					tlc_tree *t = build(e->ev, (tlc_phase)ph, top, depth, nofold);
					assert_string_equal(tlc_tree_total_flops(t), total);
					assert_string_equal(tlc_tree_row_at(t, 0)->subtree_flops, total);
					assert_self_sum(t, total);
					tlc_tree_free(t);
				}
		tlc_free(total);
	}
}

static void test_no_fold_and_backward(void **state)
{
	fx_env *e = *state;
	tlc_tree *t = build(e->ev, TLC_PHASE_FORWARD, 0, 0, 1);
	assert_int_equal(tlc_tree_row_count(t), 15); /* root, enc, 4 x (block, fc, act), head */
	tlc_tree_free(t);
	t = build(e->ev, TLC_PHASE_BACKWARD, 0, 0, 0);
	/* backward gemm 2x4x3: macs 24 -> 48 FLOPs in enc.0.fc */
	static const want_row w[] = {
		{ TLC_TREE_NODE, 0, "(root)", "0", "48", 1, 0 },
		{ TLC_TREE_NODE, 1, "enc", "0", "48", 1, 0 },
		{ TLC_TREE_NODE, 2, "0", "0", "48", 1, 0 },
		{ TLC_TREE_NODE, 3, "fc", "48", "48", 1, 0 },
	};
	check_rows(t, w, sizeof w / sizeof w[0]);
	tlc_tree_free(t);
}

/* Repeated calls of one module (module_call 0 and 1) are separate nodes;
 * a differing cost keeps them apart, equal costs fold them. */
static void test_module_calls(void **state)
{
	(void)state;
	static const fx_op ops[] = {
		{ 0, "t::pw", TLC_PHASE_FORWARD, "blk", "Blk", 0, 1, 3, 0, 0, 0, 0, NULL },
		{ 1, "t::pw", TLC_PHASE_FORWARD, "blk", "Blk", 1, 1, 3, 0, 0, 0, 0, NULL },
		{ 2, "t::pw", TLC_PHASE_FORWARD, "blk", "Blk", 2, 1, 4, 0, 0, 0, 0, NULL },
	};
	tlc_engine *eng = fx_engine();
	tlc_eval *ev = fx_eval(eng, NULL);
	fx_push_all(ev, ops, 3);
	tlc_tree *t = build(ev, TLC_PHASE_FORWARD, 0, 0, 1);
	static const want_row nf[] = {
		{ TLC_TREE_NODE, 0, "(root)", "0", "10", 1, 0 },
		{ TLC_TREE_NODE, 1, "blk", "3", "3", 1, 0 },
		{ TLC_TREE_NODE, 1, "blk#1", "3", "3", 1, 0 },
		{ TLC_TREE_NODE, 1, "blk#2", "4", "4", 1, 0 },
	};
	check_rows(t, nf, 4);
	assert_int_equal(tlc_tree_row_at(t, 2)->call, 1);
	tlc_tree_free(t);
	t = build(ev, TLC_PHASE_FORWARD, 0, 0, 0);
	static const want_row f[] = {
		{ TLC_TREE_NODE, 0, "(root)", "0", "10", 1, 0 },
		{ TLC_TREE_NODE, 1, "blk (x2)", "6", "6", 2, 0 },
		{ TLC_TREE_NODE, 1, "blk#2", "4", "4", 1, 0 },
	};
	check_rows(t, f, 3);
	tlc_tree_free(t);
	tlc_eval_free(ev);
	tlc_engine_free(eng);
}

/* Folding needs the same ops, not only the same FLOPs: every block has 3
 * FLOPs. blk.0 runs one t::pw 1x3; blk.1 runs t::gemm 1x1x1 (2) then t::pw
 * 1x1 (1); blk.2 runs the same two ops in the other order, so its op
 * sequence differs and it does not fold with blk.1 (it would if only FLOPs
 * and op counts were compared); blk.3 repeats blk.1 but is not adjacent to
 * it, and runs fold only when consecutive. Nothing folds. */
static void test_fold_needs_same_ops(void **state)
{
	(void)state;
	static const fx_op ops[] = {
		{ 0, "t::pw", TLC_PHASE_FORWARD, "blk.0", "B", 0, 1, 3, 0, 0, 0, 0, NULL },
		{ 1, "t::gemm", TLC_PHASE_FORWARD, "blk.1", "B", 0, 1, 1, 1, 0, 0, 0, NULL },
		{ 2, "t::pw", TLC_PHASE_FORWARD, "blk.1", "B", 0, 1, 1, 0, 0, 0, 0, NULL },
		{ 3, "t::pw", TLC_PHASE_FORWARD, "blk.2", "B", 0, 1, 1, 0, 0, 0, 0, NULL },
		{ 4, "t::gemm", TLC_PHASE_FORWARD, "blk.2", "B", 0, 1, 1, 1, 0, 0, 0, NULL },
		{ 5, "t::gemm", TLC_PHASE_FORWARD, "blk.3", "B", 0, 1, 1, 1, 0, 0, 0, NULL },
		{ 6, "t::pw", TLC_PHASE_FORWARD, "blk.3", "B", 0, 1, 1, 0, 0, 0, 0, NULL },
	};
	tlc_engine *eng = fx_engine();
	tlc_eval *ev = fx_eval(eng, NULL);
	fx_push_all(ev, ops, sizeof ops / sizeof ops[0]);
	tlc_tree *t = build(ev, TLC_PHASE_FORWARD, 0, 0, 0);
	static const want_row w[] = {
		{ TLC_TREE_NODE, 0, "(root)", "0", "12", 1, 0 },
		{ TLC_TREE_NODE, 1, "blk", "0", "12", 1, 0 },
		{ TLC_TREE_NODE, 2, "0", "3", "3", 1, 0 },
		{ TLC_TREE_NODE, 2, "1", "3", "3", 1, 0 },
		{ TLC_TREE_NODE, 2, "2", "3", "3", 1, 0 },
		{ TLC_TREE_NODE, 2, "3", "3", "3", 1, 0 },
	};
	check_rows(t, w, sizeof w / sizeof w[0]);
	tlc_tree_free(t);
	tlc_eval_free(ev);
	tlc_engine_free(eng);
}

/* Totals past 2^64 stay exact: gemm 2^22 x 2^22 x 2^22 has 2^66 MACs, 2^67
 * FLOPs; two of them 2^68 = 295147905179352825856. */
static void test_exact_beyond_64_bits(void **state)
{
	(void)state;
	const int64_t s = INT64_C(1) << 22;
	const fx_op ops[] = {
		{ 0, "t::gemm", TLC_PHASE_FORWARD, "a", "A", 0, s, s, s, 0, 0, 0, NULL },
		{ 1, "t::gemm", TLC_PHASE_FORWARD, "b", "B", 0, s, s, s, 0, 0, 0, NULL },
	};
	tlc_engine *eng = fx_engine();
	tlc_eval *ev = fx_eval(eng, NULL);
	fx_push_all(ev, ops, 2);
	tlc_tree *t = build(ev, TLC_PHASE_FORWARD, 1, 0, 1);
	assert_string_equal(tlc_tree_total_flops(t), "295147905179352825856");
	assert_string_equal(tlc_tree_row_at(t, 1)->subtree_flops, "147573952589676412928");
	assert_string_equal(tlc_tree_hidden_flops(t), "147573952589676412928");
	char *total = fx_total(ev, TLC_PHASE_FORWARD);
	assert_string_equal(total, "295147905179352825856");
	assert_self_sum(t, total);
	tlc_free(total);
	tlc_tree_free(t);
	tlc_eval_free(ev);
	tlc_engine_free(eng);
}

static void test_needs_kept_ops(void **state)
{
	(void)state;
	tlc_engine *eng = fx_engine();
	tlc_eval *ev = NULL;
	assert_int_equal(tlc_eval_new(&ev, eng, NULL), 0);
	fx_push_all(ev, tiny, 2);
	tlc_tree *t = NULL;
	assert_int_equal(tlc_tree_build(&t, ev, NULL), TLC_ESTATE);
	assert_string_equal(tlc_error_last()->code, "reports_need_ops");
	assert_true(strlen(tlc_error_last()->remedy) > 0);
	tlc_eval_free(ev);
	tlc_engine_free(eng);
}

static void test_writers(void **state)
{
	fx_env *e = *state;
	tlc_tree *t = build(e->ev, TLC_PHASE_FORWARD, 1, 2, 0);
	char *txt = NULL, *json = NULL, *csv = NULL;
	FX_CAPTURE(txt, tlc_write_tree(out, t, TLC_FORMAT_TEXT));
	FX_CAPTURE_JSON(json, tlc_write_tree(out, t, TLC_FORMAT_JSON));
	FX_CAPTURE(csv, tlc_write_tree(out, t, TLC_FORMAT_CSV));
	assert_non_null(strstr(txt, "totals are a LOWER BOUND: 1 unknown-cost call of 1 op type"));
	assert_non_null(strstr(txt, "(+ 1 more call)"));
	assert_non_null(strstr(json, "\"total_flops\":239"));
	assert_non_null(strstr(json, "\"lower_bound\":true"));
	assert_non_null(strstr(csv, "kind,depth,path"));
	free(txt);
	free(json);
	free(csv);
	tlc_tree_free(t);
}

/* ---- deep module paths (issue 23, finding 2) ---- */

/* An allocator that keeps the bytes live and their peak (a size header
 * before each block), so memory is measured exactly and the same on every
 * run: no wall clock, no external tool. */
typedef struct meter {
	size_t live, peak;
} meter;

#define METER_HDR 16

static void *m_malloc(size_t n, void *p)
{
	meter *m = p;
	unsigned char *b = malloc(n + METER_HDR);
	if (!b)
		return NULL;
	memcpy(b, &n, sizeof n);
	m->live += n;
	if (m->live > m->peak)
		m->peak = m->live;
	return b + METER_HDR;
}

static void *m_realloc(void *q, size_t n, void *p)
{
	meter *m = p;
	if (!q)
		return m_malloc(n, p);
	unsigned char *b = (unsigned char *)q - METER_HDR;
	size_t old;
	memcpy(&old, b, sizeof old);
	unsigned char *r = realloc(b, n + METER_HDR);
	if (!r)
		return NULL;
	memcpy(r, &n, sizeof n);
	m->live = m->live - old + n;
	if (m->live > m->peak)
		m->peak = m->live;
	return r + METER_HDR;
}

static void m_free(void *q, void *p)
{
	meter *m = p;
	if (!q)
		return;
	unsigned char *b = (unsigned char *)q - METER_HDR;
	size_t old;
	memcpy(&old, b, sizeof old);
	m->live -= old;
	free(b);
}

/* "m.m.m..." with n segments (malloc'd). */
static char *deep_path(size_t n)
{
	char *s = malloc(2 * n);
	assert_non_null(s);
	for (size_t i = 0; i < n; i++) {
		s[2 * i] = 'm';
		s[2 * i + 1] = i + 1 < n ? '.' : '\0';
	}
	return s;
}

/* One gemm 2x3x4 (48 FLOPs) at a module path n segments deep, in an eval
 * whose engine allocates through m. */
static tlc_eval *deep_eval(tlc_engine **eng, tlc_allocator *a, meter *m, size_t n)
{
	*a = (tlc_allocator){ m_malloc, m_realloc, m_free, m };
	tlc_engine_options eo;
	memset(&eo, 0, sizeof eo);
	eo.size = sizeof eo;
	eo.flags = TLC_ENGINE_NO_BUILTINS;
	eo.allocator = a;
	assert_int_equal(tlc_engine_new(eng, &eo), 0);
	tlc_rule_def d;
	memset(&d, 0, sizeof d);
	d.size = sizeof d;
	d.kind = TLC_RULE_COST;
	d.name = "t::gemm";
	d.fn = fx_gemm;
	d.note = "M*K*N";
	assert_int_equal(tlc_engine_register_rule(*eng, &d), 0);
	tlc_eval *ev = fx_eval(*eng, NULL);
	char *path = deep_path(n);
	fx_op op = { 0, "t::gemm", TLC_PHASE_FORWARD, path, "L", 0, 2, 3, 4, 0, 0, 0, NULL };
	fx_push_all(ev, &op, 1);
	free(path);
	return ev;
}

/* Peak bytes the tree (depth 3) holds above what the eval already held. */
static size_t tree_peak(size_t n)
{
	meter m = { 0, 0 };
	tlc_allocator a;
	tlc_engine *eng;
	tlc_eval *ev = deep_eval(&eng, &a, &m, n);
	size_t base = m.live;
	m.peak = m.live;
	tlc_tree *t = build(ev, TLC_PHASE_FORWARD, 0, 3, 0);
	size_t peak = m.peak - base;
	/* root, three levels, then one row for the n - 3 calls below */
	assert_int_equal(tlc_tree_row_count(t), 5);
	assert_string_equal(tlc_tree_row_at(t, 3)->path, "m.m.m");
	assert_int_equal(tlc_tree_row_at(t, 4)->hidden_calls, n - 3);
	assert_string_equal(tlc_tree_row_at(t, 4)->self_flops, "48");
	tlc_tree_free(t);
	tlc_eval_free(ev);
	tlc_engine_free(eng);
	return peak;
}

/* A module path n segments deep used to cost the tree n^2 bytes (every
 * node kept its whole path, every signature its whole subtree's): 40 KB of
 * op log took 2.95 GB. Memory must now grow linearly with the depth:
 * doubling it may at most about double the peak (2.3 leaves room for
 * allocation rounding; quadratic growth gives 4). */
static void test_deep_path_linear(void **state)
{
	(void)state;
	size_t p1 = tree_peak(3000), p2 = tree_peak(6000);
	print_message("tree peak bytes: depth 3000: %zu, depth 6000: %zu\n", p1, p2);
	assert_true(p2 * 10 <= p1 * 23);
}

/* Deeper than a tree shows (256 levels): refused, typed, unless --depth
 * hides the deeper calls; exactly 256 levels are shown in full. */
static void test_deep_path_limit(void **state)
{
	(void)state;
	meter m = { 0, 0 };
	tlc_allocator a;
	tlc_engine *eng;
	tlc_eval *ev = deep_eval(&eng, &a, &m, 257);
	tlc_tree_options o;
	memset(&o, 0, sizeof o);
	o.size = sizeof o;
	tlc_tree *t = NULL;
	assert_int_equal(tlc_tree_build(&t, ev, &o), TLC_EINPUT);
	assert_string_equal(tlc_error_last()->code, "tree_too_deep");
	assert_non_null(strstr(tlc_error_last()->message, "257 levels"));
	assert_non_null(strstr(tlc_error_last()->remedy, "--depth"));
	o.depth = 300; /* still more than a tree shows */
	assert_int_equal(tlc_tree_build(&t, ev, &o), TLC_EINPUT);
	o.depth = 256;
	assert_int_equal(tlc_tree_build(&t, ev, &o), 0);
	assert_int_equal(tlc_tree_row_count(t), 258); /* root, 256 levels, one below */
	tlc_tree_free(t);
	tlc_eval_free(ev);
	tlc_engine_free(eng);

	ev = deep_eval(&eng, &a, &m, 256);
	o.depth = 0;
	assert_int_equal(tlc_tree_build(&t, ev, &o), 0);
	assert_int_equal(tlc_tree_row_count(t), 257);
	char *want = deep_path(256);
	const tlc_tree_row *r = tlc_tree_row_at(t, 256);
	assert_int_equal(r->depth, 256);
	assert_string_equal(r->path, want);
	assert_string_equal(r->last_path, want);
	assert_string_equal(r->label, "m");
	assert_string_equal(r->self_flops, "48");
	assert_string_equal(tlc_tree_row_at(t, 1)->path, "m");
	assert_string_equal(tlc_tree_row_at(t, 2)->path, "m.m");
	free(want);
	tlc_tree_free(t);
	tlc_eval_free(ev);
	tlc_engine_free(eng);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_full_tree, setup_tiny, fx_env_teardown),
		cmocka_unit_test_setup_teardown(test_top_and_depth_rows, setup_tiny, fx_env_teardown),
		cmocka_unit_test_setup_teardown(test_conservation, setup_tiny, fx_env_teardown),
		cmocka_unit_test_setup_teardown(test_no_fold_and_backward, setup_tiny, fx_env_teardown),
		cmocka_unit_test_setup_teardown(test_writers, setup_tiny, fx_env_teardown),
		cmocka_unit_test(test_module_calls),
		cmocka_unit_test(test_fold_needs_same_ops),
		cmocka_unit_test(test_exact_beyond_64_bits),
		cmocka_unit_test(test_needs_kept_ops),
		cmocka_unit_test(test_deep_path_linear),
		cmocka_unit_test(test_deep_path_limit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
