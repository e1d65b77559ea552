/* The typed dtype of an op row (tlc_op_row.dtype, issue 17 item 2): the
 * eval derives it from the tensors as it writes the shapes summary, and
 * the roofline and MFU read it instead of parsing the summary again.
 *
 * The expectation is the rule the reports applied before, kept here as a
 * separate reference: ref_scan() below is tlc_rep__row_dtype of
 * engine/report/report_util.c as it was (commit 9a3fbdf), copied verbatim,
 * reading the summary text. Two groups of checks:
 *  - every op row of every fixture, example and shared trace that reads
 *    without an error: row.dtype == ref_scan(row.shapes);
 *  - hand-made records, whose expected dtype is worked out by hand in each
 *    comment (and equals ref_scan too): no inputs, a first input without a
 *    peak, Kineto spellings, unknown names, the summary's bounds.
 * Under valgrind the shared traces are left out (148,000 rows: minutes
 * there); the project's own inputs take seconds and are all read. */
#include <ctype.h>
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>
#include "tlcost/tlcost.h"
#include "../fixture.h"

/* ---- the reference: the old scan of the summary text, verbatim ---- */

static const struct { const char *abbr; tlc_dtype d; } ref_abbr[] = {
	{ "f64", TLC_DTYPE_FLOAT64 }, { "f32", TLC_DTYPE_FLOAT32 },
	{ "f16", TLC_DTYPE_FLOAT16 }, { "bf16", TLC_DTYPE_BFLOAT16 },
	{ "fp64", TLC_DTYPE_FLOAT64 }, { "fp32", TLC_DTYPE_FLOAT32 },
	{ "fp16", TLC_DTYPE_FLOAT16 }, { "half", TLC_DTYPE_FLOAT16 },
	{ "float", TLC_DTYPE_FLOAT32 }, { "double", TLC_DTYPE_FLOAT64 },
	{ "f8e4m3", TLC_DTYPE_FLOAT8_E4M3FN }, { "f8e4m3fn", TLC_DTYPE_FLOAT8_E4M3FN },
	{ "f8e5m2", TLC_DTYPE_FLOAT8_E5M2 }, { "c64", TLC_DTYPE_COMPLEX64 },
	{ "c128", TLC_DTYPE_COMPLEX128 },
	{ "BFloat16", TLC_DTYPE_BFLOAT16 }, { "Half", TLC_DTYPE_FLOAT16 },
	{ "Float8_e4m3fn", TLC_DTYPE_FLOAT8_E4M3FN }, { "Float8_e5m2", TLC_DTYPE_FLOAT8_E5M2 },
	{ "Float8_e4m3fnuz", TLC_DTYPE_FLOAT8_E4M3FN }, { "Float8_e5m2fnuz", TLC_DTYPE_FLOAT8_E5M2 },
	{ "complex<float>", TLC_DTYPE_COMPLEX64 }, { "complex<double>", TLC_DTYPE_COMPLEX128 },
};

static tlc_dtype ref_token(const char *s, size_t n)
{
	char tok[32];
	if (n > 5 && strncmp(s, "c10::", 5) == 0) {
		s += 5;
		n -= 5;
	}
	if (n == 0 || n >= sizeof tok)
		return TLC_DTYPE_NONE;
	memcpy(tok, s, n);
	tok[n] = '\0';
	tlc_dtype d = tlc_dtype_parse(tok);
	if (d != TLC_DTYPE_OTHER && d != TLC_DTYPE_NONE)
		return d;
	for (size_t i = 0; i < sizeof ref_abbr / sizeof ref_abbr[0]; i++)
		if (strcmp(tok, ref_abbr[i].abbr) == 0)
			return ref_abbr[i].d;
	return TLC_DTYPE_NONE;
}

static tlc_dtype ref_scan(const char *s)
{
	if (!s)
		return TLC_DTYPE_NONE;
	for (const char *p = strchr(s, ']'); p; p = strchr(p + 1, ']')) {
		const char *t = p + 1;
		while (*t == ' ' || *t == ':')
			t++;
		size_t n = 0;
		while (isalnum((unsigned char)t[n]) || t[n] == '_' || t[n] == ':' || t[n] == '<' ||
		       t[n] == '>')
			n++;
		tlc_dtype d = ref_token(t, n);
		tlc_peak_dtype pd;
		if (tlc_peak_dtype_of(&pd, d) == 0)
			return d;
	}
	return TLC_DTYPE_NONE;
}

/* ---- every op of the real inputs ---- */

typedef struct walk {
	tlc_engine *eng;
	int under_valgrind;
	size_t files, read, rows, typed; /* typed: rows whose dtype is not NONE */
} walk;

static int is_input(const char *name)
{
	static const char *const ext[] = { ".json", ".jsonl", ".json.gz", ".jsonl.gz" };
	size_t n = strlen(name);
	for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++) {
		size_t e = strlen(ext[i]);
		if (n > e && strcmp(name + n - e, ext[i]) == 0)
			return 1;
	}
	return 0;
}

static void check_file(walk *w, const char *path)
{
	w->files++;
	tlc_eval_options o = { sizeof o, 1, NULL, NULL };
	tlc_eval *ev = NULL;
	assert_int_equal(tlc_eval_new(&ev, w->eng, &o), 0);
	/* bad-input fixtures fail to read: nothing of theirs is compared */
	if (tlc_input_read(ev, path) == 0 && tlc_eval_finish(ev) == 0) {
		w->read++;
		for (size_t i = 0; i < tlc_eval_op_count(ev); i++) {
			tlc_op_row r = TLC_OP_ROW_INIT;
			assert_int_equal(tlc_eval_op_get(ev, i, &r), 0);
			tlc_dtype want = ref_scan(r.shapes);
			if (r.dtype != want)
				fail_msg("%s: row %zu (%s, shapes %s): dtype %s, the summary's %s", path,
				         i, r.name, r.shapes, tlc_dtype_name(r.dtype), tlc_dtype_name(want));
			w->rows++;
			w->typed += r.dtype != TLC_DTYPE_NONE;
		}
	}
	tlc_eval_free(ev);
}

static void walk_dir(walk *w, const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	/* sorted, so a failure names the same file every run */
	struct dirent **names = NULL;
	size_t n = 0, cap = 0;
	for (struct dirent *e; (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			names = realloc(names, cap * sizeof *names);
			assert_non_null(names);
		}
		names[n] = malloc(sizeof *e);
		assert_non_null(names[n]);
		memcpy(names[n++], e, sizeof *e);
	}
	closedir(d);
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (strcmp(names[j]->d_name, names[i]->d_name) < 0) {
				struct dirent *t = names[i];
				names[i] = names[j];
				names[j] = t;
			}
	for (size_t i = 0; i < n; i++) {
		char path[4096];
		struct stat st;
		snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
			walk_dir(w, path);
		else if (stat(path, &st) == 0 && is_input(names[i]->d_name))
			check_file(w, path);
		free(names[i]);
	}
	free(names);
}

static void test_every_input(void **state)
{
	(void)state;
	const char *top = getenv("top_srcdir");
	const char *wrap = getenv("TLCOST_TEST_WRAPPER");
	walk w = { NULL, wrap && strcmp(wrap, "valgrind") == 0, 0, 0, 0, 0 };
	char dir[4096];
	assert_int_equal(tlc_engine_new(&w.eng, NULL), 0);
	snprintf(dir, sizeof dir, "%s/tests/fixtures", top ? top : ".");
	walk_dir(&w, dir);
	snprintf(dir, sizeof dir, "%s/examples", top ? top : ".");
	walk_dir(&w, dir);
	size_t own = w.rows;
	const char *shared = getenv("TLCOST_SHARED_DIR");
	if (shared && !w.under_valgrind) {
		snprintf(dir, sizeof dir, "%s/traces", shared);
		walk_dir(&w, dir);
	}
	print_message("%zu files, %zu read, %zu op rows (%zu from shared traces), %zu typed\n",
	              w.files, w.read, w.rows, w.rows - own, w.typed);
	/* the project's own inputs hold ops with and without a peak dtype
	 * (tests/fixtures/reports: fp32 and bf16 logs; ops without inputs) */
	assert_true(w.read >= 20);
	assert_true(w.typed > 0 && w.typed < w.rows);
	tlc_engine_free(w.eng);
}

/* ---- hand-made records ---- */

static const int64_t dims2[2] = { 8, 16 };

static tlc_value tensor(tlc_dtype d, const char *name)
{
	tlc_value v;
	memset(&v, 0, sizeof v);
	v.kind = TLC_VALUE_TENSOR;
	v.u.tensor.ndim = 2;
	v.u.tensor.shape = dims2;
	v.u.tensor.dtype = d;
	v.u.tensor.dtype_name = name;
	return v;
}

static tlc_value list(const tlc_value *items, size_t n)
{
	return fx_list(n, items);
}

/* Pushes op id with args, then reads its row back after finishing: the
 * row's dtype, checked against the reference on its summary too. */
static tlc_dtype dtype_of(fx *f, const tlc_value *args, size_t n)
{
	static int64_t next_id;
	tlc_op op;
	memset(&op, 0, sizeof op);
	op.size = sizeof op;
	op.id = next_id++;
	op.name = "aten::add";
	op.overload = "Tensor";
	op.module = "";
	op.nargs = n;
	op.args = args;
	op.correlation = op.id;
	assert_int_equal(tlc_eval_push_op(f->ev, &op), 0);
	assert_int_equal(tlc_eval_finish(f->ev), 0);
	size_t last = tlc_eval_op_count(f->ev) - 1;
	tlc_op_row r = TLC_OP_ROW_INIT;
	assert_int_equal(tlc_eval_op_get(f->ev, last, &r), 0);
	assert_int_equal(r.dtype, ref_scan(r.shapes));
	/* a fresh eval for the next record (finish is final) */
	tlc_eval_free(f->ev);
	tlc_eval_options o = { sizeof o, 1, NULL, NULL };
	assert_int_equal(tlc_eval_new(&f->ev, f->eng, &o), 0);
	return r.dtype;
}

/* No inputs: a summary of nothing, no dtype. A scalar argument is not a
 * tensor either. */
static void test_no_inputs(void **state)
{
	fx *f = *state;
	assert_int_equal(dtype_of(f, NULL, 0), TLC_DTYPE_NONE);
	tlc_value s;
	memset(&s, 0, sizeof s);
	s.kind = TLC_VALUE_INT;
	s.u.integer = 3;
	assert_int_equal(dtype_of(f, &s, 1), TLC_DTYPE_NONE);
}

/* int64 has no peak (tlc_peak_dtype_of: floating and complex types only),
 * so the second input, bfloat16, is the op's; int64 alone gives none. */
static void test_first_without_peak(void **state)
{
	fx *f = *state;
	tlc_value a[2] = { tensor(TLC_DTYPE_INT64, "int64"), tensor(TLC_DTYPE_BFLOAT16, "bfloat16") };
	assert_int_equal(dtype_of(f, a, 2), TLC_DTYPE_BFLOAT16);
	assert_int_equal(dtype_of(f, a, 1), TLC_DTYPE_NONE);
	/* the first with a peak wins, later ones do not matter */
	tlc_value b[3] = { tensor(TLC_DTYPE_BOOL, "bool"), tensor(TLC_DTYPE_FLOAT16, "float16"),
		           tensor(TLC_DTYPE_FLOAT32, "float32") };
	assert_int_equal(dtype_of(f, b, 3), TLC_DTYPE_FLOAT16);
}

/* Kineto's "Input type" names: c10:: is stripped and BFloat16, Half,
 * Float8_e4m3fn are in the spelling table; fnuz maps to the same fp8 peak;
 * "float"/"double" are C++'s float32/float64; "long int" reads the token
 * "long", which spells nothing. */
static void test_kineto_spellings(void **state)
{
	fx *f = *state;
	static const struct { const char *name; tlc_dtype want; } c[] = {
		{ "c10::BFloat16", TLC_DTYPE_BFLOAT16 }, { "c10::Half", TLC_DTYPE_FLOAT16 },
		{ "Half", TLC_DTYPE_FLOAT16 }, { "c10::Float8_e4m3fn", TLC_DTYPE_FLOAT8_E4M3FN },
		{ "c10::Float8_e5m2", TLC_DTYPE_FLOAT8_E5M2 },
		{ "c10::Float8_e4m3fnuz", TLC_DTYPE_FLOAT8_E4M3FN },
		{ "c10::complex<float>", TLC_DTYPE_COMPLEX64 }, { "float", TLC_DTYPE_FLOAT32 },
		{ "double", TLC_DTYPE_FLOAT64 }, { "long int", TLC_DTYPE_NONE },
		{ "f32", TLC_DTYPE_FLOAT32 }, { "bf16", TLC_DTYPE_BFLOAT16 },
	};
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		/* the tensor's own tlc_dtype is not what is read: OTHER here */
		tlc_value a = tensor(TLC_DTYPE_OTHER, c[i].name);
		assert_int_equal(dtype_of(f, &a, 1), c[i].want);
	}
}

/* Unknown names spell nothing: "mystery", "torch.float32" (the token stops
 * at '.': "torch"), a token of 32 characters or more, and a tensor with
 * neither a name nor a typed dtype. After an unknown name a known one is
 * the op's. */
static void test_unknown(void **state)
{
	fx *f = *state;
	char long_name[40];
	memset(long_name, 'f', sizeof long_name - 1);
	long_name[sizeof long_name - 1] = '\0';
	const char *none[] = { "mystery", "torch.float32", long_name, "", " :" };
	for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) {
		tlc_value a = tensor(TLC_DTYPE_OTHER, none[i]);
		assert_int_equal(dtype_of(f, &a, 1), TLC_DTYPE_NONE);
	}
	/* no name and no typed dtype: nothing to read */
	tlc_value bare = tensor(TLC_DTYPE_OTHER, NULL);
	assert_int_equal(dtype_of(f, &bare, 1), TLC_DTYPE_NONE);
	bare = tensor(TLC_DTYPE_NONE, NULL);
	assert_int_equal(dtype_of(f, &bare, 1), TLC_DTYPE_NONE);
	tlc_value a[2] = { tensor(TLC_DTYPE_OTHER, "mystery"), tensor(TLC_DTYPE_FLOAT64, "float64") };
	assert_int_equal(dtype_of(f, a, 2), TLC_DTYPE_FLOAT64);
	/* spaces and colons before the token are skipped, as after a ']' */
	tlc_value sp = tensor(TLC_DTYPE_OTHER, " ::float16");
	assert_int_equal(dtype_of(f, &sp, 1), TLC_DTYPE_FLOAT16);
	/* a ']' inside a name starts another token: "x]bf16" reads "x", then "bf16" */
	tlc_value br = tensor(TLC_DTYPE_OTHER, "x]bf16");
	assert_int_equal(dtype_of(f, &br, 1), TLC_DTYPE_BFLOAT16);
}


/* A C API caller may set only the typed dtype (tlc_tensor.dtype, no
 * dtype_name), as the example in tlcost.h does: the summary spells it by
 * tlc_dtype_name ("bfloat16", "float32": the canonical names of plugin.h's
 * table) and the row reads it, instead of showing a dtype-less tensor. A
 * name as written still wins over the typed dtype. */
static void test_typed_without_name(void **state)
{
	fx *f = *state;
	tlc_value b = tensor(TLC_DTYPE_BFLOAT16, NULL);
	assert_int_equal(dtype_of(f, &b, 1), TLC_DTYPE_BFLOAT16);
	tlc_value a[2] = { tensor(TLC_DTYPE_INT64, NULL), tensor(TLC_DTYPE_FLOAT32, NULL) };
	assert_int_equal(dtype_of(f, a, 2), TLC_DTYPE_FLOAT32);
	tlc_value named = tensor(TLC_DTYPE_FLOAT32, "bf16");
	assert_int_equal(dtype_of(f, &named, 1), TLC_DTYPE_BFLOAT16);
	/* the summary text itself */
	tlc_op op;
	memset(&op, 0, sizeof op);
	op.size = sizeof op;
	op.id = 900001;
	op.name = "aten::mm";
	op.overload = "";
	op.module = "";
	op.nargs = 2;
	op.args = a;
	op.correlation = op.id;
	assert_int_equal(tlc_eval_push_op(f->ev, &op), 0);
	assert_int_equal(tlc_eval_finish(f->ev), 0);
	tlc_op_row r = TLC_OP_ROW_INIT;
	assert_int_equal(tlc_eval_op_get(f->ev, tlc_eval_op_count(f->ev) - 1, &r), 0);
	/* dims2 is {8,16}; shapes_of separates arguments with ", " */
	assert_string_equal(r.shapes, "[8,16]int64, [8,16]float32");
	tlc_eval_free(f->ev);
	tlc_eval_options o = { sizeof o, 1, NULL, NULL };
	assert_int_equal(tlc_eval_new(&f->ev, f->eng, &o), 0);
}
/* The summary's bounds: what it does not show has no say. Lists show 8
 * items, so a float32 9th item after 8 int64 gives none, a 2nd gives
 * float32; nested lists as below; a top-level argument after
 * more than 512 bytes of summary is cut (", ..."): the first tensor's name
 * here is 600 bytes, so the float32 after it is not shown. */
static void test_summary_bounds(void **state)
{
	fx *f = *state;
	tlc_value items[9];
	for (int i = 0; i < 8; i++)
		items[i] = tensor(TLC_DTYPE_INT64, "int64");
	items[8] = tensor(TLC_DTYPE_FLOAT32, "float32");
	tlc_value l = list(items, 9);
	assert_int_equal(dtype_of(f, &l, 1), TLC_DTYPE_NONE);
	tlc_value l2 = list(items + 7, 2);
	assert_int_equal(dtype_of(f, &l2, 1), TLC_DTYPE_FLOAT32);

	/* lists are shown to a depth of 2 (top level 0), and only those with a
	 * tensor item of their own: [i64, [i64, [f32]]] shows no f32 (depth 2),
	 * [i64, [f32]] shows it (depth 1); [[f32]] holds no tensor item of its
	 * own, so nothing of it is shown */
	tlc_value f32 = tensor(TLC_DTYPE_FLOAT32, "float32");
	tlc_value i64 = tensor(TLC_DTYPE_INT64, "int64");
	tlc_value deep = list(&f32, 1);
	tlc_value mid[2] = { i64, deep };
	tlc_value top[2] = { i64, list(mid, 2) };
	tlc_value outer = list(top, 2);
	assert_int_equal(dtype_of(f, &outer, 1), TLC_DTYPE_NONE);
	tlc_value top1[2] = { i64, deep };
	tlc_value outer1 = list(top1, 2);
	assert_int_equal(dtype_of(f, &outer1, 1), TLC_DTYPE_FLOAT32);
	tlc_value only_lists = list(&deep, 1);
	assert_int_equal(dtype_of(f, &only_lists, 1), TLC_DTYPE_NONE);
	assert_int_equal(dtype_of(f, &deep, 1), TLC_DTYPE_FLOAT32);

	char big[601];
	memset(big, 'q', 600);
	big[600] = '\0';
	tlc_value a[2] = { tensor(TLC_DTYPE_OTHER, big), tensor(TLC_DTYPE_FLOAT32, "float32") };
	assert_int_equal(dtype_of(f, a, 2), TLC_DTYPE_NONE);
	a[0].u.tensor.dtype_name = "qqq";
	assert_int_equal(dtype_of(f, a, 2), TLC_DTYPE_FLOAT32);
}

/* A record whose parent comes later is held (packed, engine/eval/held.c)
 * and resolved when the parent arrives: its row has the same dtype, and
 * the parent, without inputs, none. */
static void test_held_record(void **state)
{
	fx *f = *state;
	tlc_value a = tensor(TLC_DTYPE_BFLOAT16, "bfloat16");
	tlc_op op;
	memset(&op, 0, sizeof op);
	op.size = sizeof op;
	op.flags = TLC_OP_HAS_PARENT;
	op.id = 2;
	op.parent = 1;
	op.name = "aten::add";
	op.overload = "Tensor";
	op.module = "";
	op.nargs = 1;
	op.args = &a;
	op.correlation = 2;
	assert_int_equal(tlc_eval_push_op(f->ev, &op), 0);
	op.flags = 0;
	op.id = 1;
	op.nargs = 0;
	op.args = NULL;
	op.name = "aten::linear";
	op.overload = "";
	op.correlation = 1;
	assert_int_equal(tlc_eval_push_op(f->ev, &op), 0);
	assert_int_equal(tlc_eval_finish(f->ev), 0);
	assert_int_equal(tlc_eval_op_count(f->ev), 2);
	int seen = 0;
	for (size_t i = 0; i < 2; i++) {
		tlc_op_row r = TLC_OP_ROW_INIT;
		assert_int_equal(tlc_eval_op_get(f->ev, i, &r), 0);
		assert_int_equal(r.dtype, r.id == 2 ? TLC_DTYPE_BFLOAT16 : TLC_DTYPE_NONE);
		seen |= 1 << r.id;
	}
	assert_int_equal(seen, 6);
}

/* A caller built before the field (size ending at kernel_time_ns) gets
 * the fields it knows and nothing past them. */
static void test_old_size(void **state)
{
	fx *f = *state;
	tlc_value a = tensor(TLC_DTYPE_FLOAT32, "float32");
	tlc_op op;
	memset(&op, 0, sizeof op);
	op.size = sizeof op;
	op.id = 7;
	op.name = "aten::relu";
	op.module = "";
	op.nargs = 1;
	op.args = &a;
	op.correlation = 7;
	assert_int_equal(tlc_eval_push_op(f->ev, &op), 0);
	assert_int_equal(tlc_eval_finish(f->ev), 0);
	tlc_op_row r = TLC_OP_ROW_INIT;
	r.size = (uint32_t)(offsetof(tlc_op_row, kernel_time_ns) + sizeof r.kernel_time_ns);
	r.dtype = TLC_DTYPE_OTHER; /* a sentinel: must stay */
	assert_int_equal(tlc_eval_op_get(f->ev, 0, &r), 0);
	assert_int_equal(r.id, 7);
	assert_int_equal(r.dtype, TLC_DTYPE_OTHER);
	tlc_op_row full = TLC_OP_ROW_INIT;
	assert_int_equal(tlc_eval_op_get(f->ev, 0, &full), 0);
	assert_int_equal(full.dtype, TLC_DTYPE_FLOAT32);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_input),
		cmocka_unit_test_setup_teardown(test_no_inputs, fx_setup_eval, fx_teardown),
		cmocka_unit_test_setup_teardown(test_first_without_peak, fx_setup_eval, fx_teardown),
		cmocka_unit_test_setup_teardown(test_kineto_spellings, fx_setup_eval, fx_teardown),
		cmocka_unit_test_setup_teardown(test_unknown, fx_setup_eval, fx_teardown),
		cmocka_unit_test_setup_teardown(test_typed_without_name, fx_setup_eval, fx_teardown),
		cmocka_unit_test_setup_teardown(test_summary_bounds, fx_setup_eval, fx_teardown),
		cmocka_unit_test_setup_teardown(test_held_record, fx_setup_eval, fx_teardown),
		cmocka_unit_test_setup_teardown(test_old_size, fx_setup_eval, fx_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
