/* Rule-table test: every row of the tables in tests/rules/{*}.tsv is one op
 * record evaluated by the built-in rules and compared exactly.
 *
 * Row (tab-separated):
 *   op[.overload]  record-fragment  macs  other_flops  bytes_read  bytes_written  # derivation
 * The fragment is the op log record's `"args":[...],"outputs":[...],"kwargs":{...}`
 * part. Expected values: exact decimal integers; `unknown` in macs/other
 * means class unknown (missing or bad args); `unknown` in a bytes column
 * means the cost's bytes are unknown (an element size was not recorded);
 * `?` in any column means a partly known op (contract: "Partly known ops"):
 * class unknown, reason partly_known, exactly the `?` fields missing and
 * the other columns the determined terms counted;
 * `zero` means class zero_by_rule (all four columns); `n/a` means class
 * not_applicable (a decomposed op with no children). Lines starting with '#'
 * and blank lines are comments.
 *
 * A fragment that starts with `"Input ` or `"Concrete Inputs"` is the `args`
 * object of a Kineto cpu_op event instead (`"Input Dims":[...],"Input
 * type":[...]`, optionally `"Concrete Inputs":[...]`): the row is read as a
 * one-event profiler trace, so it tests what a rule does with arguments a
 * trace did not record (the op name's overload, if any, is dropped: Kineto
 * records none).
 *
 * The tables come from TLC_RULE_TABLES (set by rules/local.mk from
 * RULE_TABLES), relative to $top_srcdir; command-line arguments replace the
 * list. Every tests/rules/{*}.tsv must be listed, so no table is skipped. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "tlcost/tlcost.h"
#include "cost.h"
#include "../rules/util.h"
#include "host_help.h"
#include "../rows_util.h"

#ifndef TLC_RULE_TABLES
#define TLC_RULE_TABLES ""
#endif

#define MIN_TOTAL_ROWS 200

static int g_argc;
static char **g_argv;

typedef struct table_stats {
	size_t rows, failures;
} table_stats;

static const char *top_srcdir(void)
{
	const char *top = getenv("top_srcdir");
	return top && *top ? top : ".";
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *p = NULL;
	size_t n = 0, cap = 0;
	for (;;) {
		if (n + 1 >= cap) {
			cap = cap ? cap * 2 : 8192;
			char *q = realloc(p, cap);
			assert_non_null(q);
			p = q;
		}
		size_t got = fread(p + n, 1, cap - n - 1, f);
		if (got == 0)
			break;
		n += got;
	}
	fclose(f);
	p[n] = '\0';
	*len = n;
	return p;
}

/* ---- one row ------------------------------------------------------------ */

enum { COL_OP = 0, COL_FRAG, COL_MACS, COL_OTHER, COL_READ, COL_WRITTEN, NCOLS };

typedef struct row_ctx {
	const char *file;
	size_t line;
	char *col[NCOLS];
	tlc_engine *eng;
} row_ctx;

static int row_fail(const row_ctx *r, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s:%zu: %s: ", r->file, r->line, r->col[COL_OP]);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

static int row_is_trace(const row_ctx *r)
{
	const char *f = r->col[COL_FRAG];
	return strncmp(f, "\"Input ", 7) == 0 || strncmp(f, "\"Concrete Inputs\"", 17) == 0;
}

/* Wraps a Kineto args fragment into a one-event trace. */
static char *row_trace(const row_ctx *r)
{
	const char *name = r->col[COL_OP];
	const char *ns = strstr(name, "::");
	const char *dot = ns ? strchr(ns + 2, '.') : NULL;
	size_t nlen = dot ? (size_t)(dot - name) : strlen(name);
	const char *frag = r->col[COL_FRAG];
	size_t cap = strlen(name) + strlen(frag) + 200;
	char *buf = malloc(cap);
	assert_non_null(buf);
	snprintf(buf, cap,
	         "{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"%.*s\","
	         "\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":1,\"args\":{%s}}]}",
	         (int)nlen, name, frag);
	return buf;
}

/* Wraps the fragment into a two-line op log. */
static char *row_log(const row_ctx *r)
{
	const char *name = r->col[COL_OP];
	const char *ns = strstr(name, "::");
	const char *dot = ns ? strchr(ns + 2, '.') : NULL;
	size_t nlen = dot ? (size_t)(dot - name) : strlen(name);
	const char *frag = r->col[COL_FRAG];
	size_t cap = strlen(name) + strlen(frag) + 200;
	char *buf = malloc(cap);
	assert_non_null(buf);
	snprintf(buf, cap,
	         "{\"format\":\"tlcost-oplog\",\"version\":1,\"producer\":\"test_rules\"}\n"
	         "{\"id\":0,\"op\":\"%.*s\",\"overload\":\"%s\"%s%s}\n",
	         (int)nlen, name, dot ? dot + 1 : "", *frag ? "," : "", frag);
	return buf;
}

/* The `?` columns as a missing-field mask (0: none). */
static unsigned expect_missing(const row_ctx *r)
{
	static const int cols[TLC_FIELD_COUNT] = { COL_MACS, COL_OTHER, COL_READ, COL_WRITTEN };
	unsigned m = 0;
	for (int f = 0; f < TLC_FIELD_COUNT; f++)
		if (strcmp(r->col[cols[f]], "?") == 0)
			m |= 1u << f;
	return m;
}

static int expect_class(const row_ctx *r, tlc_class *want)
{
	const char *m = r->col[COL_MACS];
	*want = TLC_CLASS_KNOWN;
	if (expect_missing(r)) {
		*want = TLC_CLASS_UNKNOWN;
		return 0;
	}
	if (strcmp(m, "unknown") == 0)
		*want = TLC_CLASS_UNKNOWN;
	else if (strcmp(m, "zero") == 0)
		*want = TLC_CLASS_ZERO_BY_RULE;
	else if (strcmp(m, "n/a") == 0)
		*want = TLC_CLASS_NOT_APPLICABLE;
	else
		return 0;
	/* the other flop column must say the same */
	return strcmp(r->col[COL_OTHER], m) == 0 ? 0 : row_fail(r, "macs and other_flops disagree on the class");
}

static int is_number(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

static int check_field(const row_ctx *r, const tlc_cost *c, tlc_cost_field f, int col,
                       const char *label)
{
	const char *want = r->col[col];
	int is_bytes = f == TLC_FIELD_BYTES_READ || f == TLC_FIELD_BYTES_WRITTEN;
	if (is_bytes && strcmp(want, "unknown") == 0)
		return tlc_cost_bytes_unknown(c) ? 0 : row_fail(r, "%s expected unknown, bytes are known", label);
	if (!is_number(want))
		return row_fail(r, "%s: expected value '%s' is not a decimal integer", label, want);
	if (is_bytes && tlc_cost_bytes_unknown(c))
		return row_fail(r, "%s expected %s, but bytes are marked unknown", label, want);
	char *got = NULL;
	assert_int_equal(tlc_cost_get_str(&got, c, f), 0);
	int bad = strcmp(got, want) != 0;
	if (bad)
		row_fail(r, "%s expected %s, got %s", label, want, got);
	tlc_free(got);
	return bad;
}

static int check_row(row_ctx *r)
{
	tlc_class want;
	if (expect_class(r, &want))
		return 1;
	size_t len_ = 0;
	int trace = row_is_trace(r);
	char *log = trace ? row_trace(r) : row_log(r);
	len_ = strlen(log);
	tlc_eval *ev = NULL;
	tlc_eval_options o = { sizeof o, 1, NULL, NULL };
	assert_int_equal(tlc_eval_new(&ev, r->eng, &o), 0);
	int fails = 0;
	int rc = trace ? tlc_trace_read_mem(ev, log, len_, r->file)
	               : tlc_oplog_read_mem(ev, log, len_, r->file);
	if (rc < 0 || tlc_eval_finish(ev) < 0) {
		fails = row_fail(r, "record rejected: %s: %s", tlc_error_last()->code,
		                 tlc_error_last()->message);
	} else if (tlc_eval_op_count(ev) != 1) {
		fails = row_fail(r, "expected 1 evaluated op, got %zu", tlc_eval_op_count(ev));
	} else {
		const tlc_op_row *row = test_op_at(ev, 0);
		unsigned missing = expect_missing(r);
		if (row->cls != want) {
			fails = row_fail(r, "class expected %s, got %s (%s)", tlc_class_name(want),
			                 tlc_class_name(row->cls), row->reason ? row->reason : "");
		} else if (missing && (!row->cost || tlc_cost_missing(row->cost) != missing ||
		                       strcmp(row->reason, "partly_known") != 0)) {
			fails = row_fail(r, "expected partly known with missing mask %u, got %s mask %u",
			                 missing, row->reason ? row->reason : "",
			                 row->cost ? tlc_cost_missing(row->cost) : 0u);
		} else if (want == TLC_CLASS_KNOWN || missing) {
			static const struct { tlc_cost_field f; int col; const char *label; } fields[] = {
				{ TLC_FIELD_MACS, COL_MACS, "macs" },
				{ TLC_FIELD_OTHER_FLOPS, COL_OTHER, "other_flops" },
				{ TLC_FIELD_BYTES_READ, COL_READ, "bytes_read" },
				{ TLC_FIELD_BYTES_WRITTEN, COL_WRITTEN, "bytes_written" },
			};
			for (size_t i = 0; i < 4; i++)
				if (!(missing & (1u << fields[i].f)))
					fails |= check_field(r, row->cost, fields[i].f, fields[i].col,
					                     fields[i].label);
		}
	}
	tlc_eval_free(ev);
	free(log);
	return fails;
}

/* Splits a line into columns in place; the derivation comment is required. */
static int split_row(row_ctx *r, char *line)
{
	size_t n = 0;
	char *p = line;
	while (n < NCOLS) {
		r->col[n++] = p;
		char *tab = strchr(p, '\t');
		if (!tab)
			break;
		*tab = '\0';
		p = tab + 1;
	}
	if (n < NCOLS || strncmp(p, "#", 1) != 0 || p == r->col[NCOLS - 1])
		return row_fail(r, "row needs 6 tab-separated columns and a '# derivation' comment");
	return 0;
}

static void run_table(const char *rel, tlc_engine *eng, table_stats *st)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", top_srcdir(), rel);
	size_t len;
	char *text = slurp(path, &len);
	if (!text) {
		fprintf(stderr, "%s: cannot read\n", path);
		st->failures++;
		return;
	}
	row_ctx r = { .file = rel, .line = 0, .eng = eng };
	char *save = NULL;
	for (char *line = text; line; line = save) {
		char *nl = strchr(line, '\n');
		save = nl ? nl + 1 : NULL;
		if (nl)
			*nl = '\0';
		if (nl && nl > line && nl[-1] == '\r')
			nl[-1] = '\0';
		r.line++;
		if (line[0] == '\0' || line[0] == '#')
			continue;
		r.col[COL_OP] = line;
		st->rows++;
		if (split_row(&r, line) || check_row(&r))
			st->failures++;
	}
	free(text);
}

/* ---- the list of tables -------------------------------------------------- */

static size_t table_list(char ***out)
{
	static char buf[8192];
	char **v = calloc(256, sizeof *v);
	size_t n = 0;
	assert_non_null(v);
	if (g_argc > 1) {
		for (int i = 1; i < g_argc && n < 256; i++)
			v[n++] = g_argv[i];
	} else {
		snprintf(buf, sizeof buf, "%s", TLC_RULE_TABLES);
		for (char *t = strtok(buf, " \t"); t && n < 256; t = strtok(NULL, " \t"))
			v[n++] = t;
	}
	*out = v;
	return n;
}

static void test_rule_tables(void **state)
{
	(void)state;
	tlc_engine *eng = NULL;
	assert_int_equal(tlc_engine_new(&eng, NULL), 0);
	char **tables;
	size_t n = table_list(&tables);
	assert_true(n > 0);
	table_stats total = { 0, 0 };
	for (size_t i = 0; i < n; i++) {
		table_stats st = { 0, 0 };
		run_table(tables[i], eng, &st);
		printf("# %s: %zu rows, %zu failing\n", tables[i], st.rows, st.failures);
		if (st.rows == 0) {
			fprintf(stderr, "%s: no rows\n", tables[i]);
			st.failures++;
		}
		total.rows += st.rows;
		total.failures += st.failures;
	}
	printf("# total: %zu rows, %zu failing\n", total.rows, total.failures);
	free(tables);
	tlc_engine_free(eng);
	assert_int_equal(total.failures, 0);
	if (g_argc <= 1)
		assert_true(total.rows >= MIN_TOTAL_ROWS);
}

/* Every tests/rules/{*}.tsv on disk is in the list (nothing silently skipped). */
static void test_every_table_listed(void **state)
{
	(void)state;
	char dir[4096];
	snprintf(dir, sizeof dir, "%s/tests/rules", top_srcdir());
	DIR *d = opendir(dir);
	assert_non_null(d);
	char **tables;
	size_t n = table_list(&tables);
	struct dirent *e;
	int missing = 0;
	while ((e = readdir(d)) != NULL) {
		size_t l = strlen(e->d_name);
		if (l < 5 || strcmp(e->d_name + l - 4, ".tsv") != 0)
			continue;
		char rel[512];
		snprintf(rel, sizeof rel, "tests/rules/%s", e->d_name);
		int found = 0;
		for (size_t i = 0; i < n; i++)
			found |= strcmp(tables[i], rel) == 0;
		if (!found && g_argc <= 1) {
			fprintf(stderr, "%s is not listed in RULE_TABLES (rules/local.mk)\n", rel);
			missing++;
		}
	}
	closedir(d);
	free(tables);
	assert_int_equal(missing, 0);
}

/* Names (without overload) of every row's op in the listed tables. */
static size_t table_ops(char ***out)
{
	char **tables, **ops = NULL;
	size_t n = table_list(&tables), nops = 0, cap = 0;
	for (size_t i = 0; i < n; i++) {
		char path[4096];
		size_t len;
		snprintf(path, sizeof path, "%s/%s", top_srcdir(), tables[i]);
		char *text = slurp(path, &len);
		assert_non_null(text);
		for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
			if (line[0] == '#')
				continue;
			char *tab = strchr(line, '\t');
			const char *ns = strstr(line, "::");
			if (!tab || !ns)
				continue;
			char *dot = memchr(ns, '.', (size_t)(tab - ns));
			*(dot ? dot : tab) = '\0';
			if (nops == cap) {
				cap = cap ? 2 * cap : 256;
				ops = realloc(ops, cap * sizeof *ops);
				assert_non_null(ops);
			}
			ops[nops] = strdup(line);
			assert_non_null(ops[nops++]);
		}
		free(text);
	}
	free(tables);
	*out = ops;
	return nops;
}

/* A table op exercises a rule: the same name, or, for a family rule
 * "ns::stem_*", a name "ns::stem_<digits>" (what eval.c gives it). */
static int row_exercises(const char *op, const char *rule)
{
	size_t n = strlen(rule);
	if (n < 2 || rule[n - 1] != '*' || rule[n - 2] != '_')
		return strcmp(op, rule) == 0;
	if (strncmp(op, rule, n - 1) != 0 || !op[n - 1])
		return 0;
	for (const char *d = op + n - 1; *d; d++)
		if (*d < '0' || *d > '9')
			return 0;
	return 1;
}

/* Every rule of the matmul, conv, attention and layout families is exercised
 * by at least one row. */
static void test_every_rule_has_a_row(void **state)
{
	(void)state;
	static const char *families[] = { "builtin:matmul", "builtin:conv", "builtin:attention",
	                                  "builtin:layout" };
	tlc_engine *eng = NULL;
	assert_int_equal(tlc_engine_new(&eng, NULL), 0);
	char **ops;
	size_t nops = table_ops(&ops), missing = 0, checked = 0;
	for (size_t i = 0; i < tlc_engine_rule_count(eng); i++) {
		const tlc_rule_info *ri = tlc_engine_rule_at(eng, i);
		int ours = 0;
		for (size_t f = 0; f < 4; f++)
			ours |= strcmp(ri->provider, families[f]) == 0;
		if (!ours)
			continue;
		checked++;
		int found = 0;
		for (size_t k = 0; k < nops && !found; k++)
			found = row_exercises(ops[k], ri->name);
		if (!found && ++missing)
			fprintf(stderr, "%s (%s) has no rule-table row\n", ri->name, ri->provider);
	}
	for (size_t k = 0; k < nops; k++)
		free(ops[k]);
	free(ops);
	tlc_engine_free(eng);
	assert_true(checked > 200);
	assert_int_equal(missing, 0);
}

/* The harness itself must fail on a wrong expectation (it cannot pass
 * vacuously): a row with a deliberately wrong value is reported. */
static void test_harness_detects_mismatch(void **state)
{
	(void)state;
	tlc_engine *eng = NULL;
	assert_int_equal(tlc_engine_new(&eng, NULL), 0);
	char line[] = "aten::mm\t\"args\":[{\"shape\":[2,3],\"dtype\":\"float32\"},"
	              "{\"shape\":[3,4],\"dtype\":\"float32\"}]\t25\t0\t56\t32\t# wrong on purpose: 24";
	row_ctx r = { .file = "(self-test)", .line = 1, .eng = eng };
	r.col[COL_OP] = line;
	assert_int_equal(split_row(&r, line), 0);
	fprintf(stderr, "(the next mismatch line is expected)\n");
	assert_int_equal(check_row(&r), 1);
	char good[] = "aten::mm\t\"args\":[{\"shape\":[2,3],\"dtype\":\"float32\"},"
	              "{\"shape\":[3,4],\"dtype\":\"float32\"}]\t24\t0\t72\t32\t# 2*3*4 macs; read (6+12)*4; write 8*4";
	r.col[COL_OP] = good;
	assert_int_equal(split_row(&r, good), 0);
	assert_int_equal(check_row(&r), 0);
	tlc_engine_free(eng);
}

/* ---- the rule helpers (host table: registry/host_help.c; rules/util.c) --- */

static tlc_value v_int(int64_t x)
{
	tlc_value v;
	memset(&v, 0, sizeof v);
	v.kind = TLC_VALUE_INT;
	v.u.integer = x;
	return v;
}

static tlc_value v_list(const tlc_value *items, size_t n)
{
	tlc_value v;
	memset(&v, 0, sizeof v);
	v.kind = TLC_VALUE_LIST;
	v.u.list.items = items;
	v.u.list.n = n;
	return v;
}

static void test_util_broadcast(void **state)
{
	(void)state;
	int64_t out[TLC_RULES_MAX_DIMS];
	size_t n = 0;
	const int64_t a[] = { 4, 1, 8 }, b[] = { 3, 1 }, c[] = { 1, 8 };
	assert_int_equal(tlc_host__broadcast(out, &n, a, 3, b, 2), 0);
	assert_int_equal(n, 3);
	assert_true(out[0] == 4 && out[1] == 3 && out[2] == 8);
	assert_int_equal(tlc_host__broadcast(out, &n, a, 3, NULL, 0), 0); /* 0-d */
	assert_int_equal(n, 3);
	assert_int_equal(tlc_host__broadcast(out, &n, b, 2, c, 2), 0);
	assert_true(n == 2 && out[0] == 3 && out[1] == 8);
	const int64_t d[] = { 3, 2 };
	assert_int_equal(tlc_host__broadcast(out, &n, c, 2, d, 2), TLC_RULE_BAD_ARGS);
}

static void test_util_int_lists(void **state)
{
	(void)state;
	int64_t out[4];
	size_t n = 0;
	tlc_value one[1] = { v_int(2) }, two[2] = { v_int(3), v_int(5) };
	tlc_value three[3] = { v_int(1), v_int(2), v_int(3) };
	tlc_value args[3] = { v_list(one, 1), v_list(two, 2), v_list(three, 3) };
	tlc_op op;
	memset(&op, 0, sizeof op);
	op.size = sizeof op;
	op.name = "aten::x";
	op.nargs = 3;
	op.args = args;
	const tlc_host *host = tlc_host__table();
	/* a list of one repeats (stride=[2] for conv2d is [2,2]) */
	assert_int_equal(tlc_host__int_list_arg(out, 2, &op, host, 0, "a", 9), 0);
	assert_true(out[0] == 2 && out[1] == 2);
	assert_int_equal(tlc_host__int_list_arg(out, 2, &op, host, 1, "b", 9), 0);
	assert_true(out[0] == 3 && out[1] == 5);
	/* wrong length is refused, absent gives the default */
	assert_int_equal(tlc_host__int_list_arg(out, 2, &op, host, 2, "c", 9), TLC_RULE_BAD_ARGS);
	assert_int_equal(tlc_host__int_list_arg(out, 2, &op, host, 7, "d", 9), 0);
	assert_true(out[0] == 9 && out[1] == 9);
	/* a plain int is a list of one; more than cap is refused */
	tlc_value x = v_int(7);
	assert_int_equal(tlc_rules__int_list(out, 4, &n, &x), 0);
	assert_true(n == 1 && out[0] == 7);
	assert_int_equal(tlc_rules__int_list(out, 2, &n, &args[2]), TLC_RULE_BAD_ARGS);
	int64_t i = 0;
	assert_int_equal(tlc_rules__int_arg(&i, &op, host, 0, "a"), 0); /* [2] reads as 2 */
	assert_int_equal(i, 2);
	assert_int_equal(tlc_rules__int_arg(&i, &op, host, 9, "zz"), TLC_RULE_MISSING_ARGS);
}

static void test_util_terms_and_names(void **state)
{
	(void)state;
	tlc_rules_term t;
	tlc_rules__term_init(&t);
	for (int k = 0; k < TLC_RULES_MAX_FACTORS + 1; k++)
		tlc_rules__term_mul(&t, 2);
	assert_true(t.bad); /* too many factors is an error, never a truncated product */
	tlc_rules__term_init(&t);
	tlc_rules__term_mul(&t, -1);
	assert_true(t.bad);
	tlc_op op;
	memset(&op, 0, sizeof op);
	op.name = "aten::add_";
	assert_true(tlc_rules__is_inplace(&op));
	op.name = "aten::add";
	op.overload = "out";
	assert_true(tlc_rules__is_inplace(&op));
	op.overload = "Tensor";
	assert_false(tlc_rules__is_inplace(&op));
	op.overload = "Tensor_out";
	assert_true(tlc_rules__is_inplace(&op));
	op.name = "aten::_slow_conv2d_backward";
	op.overload = "output_mask"; /* not an out= variant */
	assert_false(tlc_rules__is_inplace(&op));
	assert_int_equal(tlc_host__table()->dtype_parse("bfloat16"), TLC_DTYPE_BFLOAT16);
	assert_int_equal(tlc_host__table()->dtype_parse("torch.float16"), TLC_DTYPE_FLOAT16);
	assert_int_equal(tlc_host__table()->dtype_parse("int4x2"), TLC_DTYPE_OTHER);
	assert_int_equal(tlc_host__table()->dtype_parse(NULL), TLC_DTYPE_NONE);
}

/* Recorded vs defaulted: the same absent argument is the schema default in
 * an op log and missing in an observed (trace) op; an unrecorded value is
 * missing in both; a recorded None takes the default's meaning. ScalarType
 * codes are c10/core/ScalarType.h's. */
static void test_util_observed_args(void **state)
{
	(void)state;
	tlc_value args[3];
	memset(args, 0, sizeof args);
	args[0].kind = TLC_VALUE_INT;
	args[0].u.integer = 7;
	args[1].kind = TLC_VALUE_UNRECORDED;
	args[2].kind = TLC_VALUE_NONE;
	tlc_op op;
	memset(&op, 0, sizeof op);
	op.size = sizeof op;
	op.name = "aten::x";
	op.nargs = 3;
	op.args = args;
	int64_t v = 0;
	int b = 0, given = 0;
	const char *s = NULL;
	const tlc_host *host = tlc_host__table();
	for (int observed = 0; observed < 2; observed++) {
		op.flags = observed ? TLC_OP_ARGS_OBSERVED : 0;
		assert_int_equal(tlc_host__int_arg_or(&v, &op, NULL, 0, NULL, 1), 0);
		assert_int_equal(v, 7);
		assert_int_equal(tlc_host__int_arg_or(&v, &op, NULL, 1, NULL, 1), TLC_RULE_MISSING_ARGS);
		assert_int_equal(tlc_rules__bool_arg_or(&b, &op, host, 1, NULL, 1), TLC_RULE_MISSING_ARGS);
		assert_int_equal(tlc_rules__given(&given, &op, host, 1, NULL), TLC_RULE_MISSING_ARGS);
		/* recorded None: the default's meaning */
		assert_int_equal(tlc_host__int_arg_or(&v, &op, NULL, 2, NULL, 5), 0);
		assert_int_equal(v, 5);
		assert_int_equal(tlc_rules__given(&given, &op, host, 2, NULL), 0);
		assert_int_equal(given, 0);
		/* absent (past the recorded arguments): default only in an op log */
		int want = observed ? TLC_RULE_MISSING_ARGS : 0;
		assert_int_equal(tlc_host__int_arg_or(&v, &op, NULL, 3, NULL, 1), want);
		assert_int_equal(tlc_rules__given(&given, &op, host, 3, NULL), want);
		/* a None string: the default in an op log, not recorded in a trace */
		assert_int_equal(tlc_rules__string_arg(&s, &op, host, 2, NULL, "none"), want);
		if (!observed)
			assert_string_equal(s, "none");
	}
	assert_int_equal(tlc_rules__dtype_code(6), TLC_DTYPE_FLOAT32);
	assert_int_equal(tlc_rules__dtype_code(15), TLC_DTYPE_BFLOAT16);
	assert_int_equal(tlc_rules__dtype_code(4), TLC_DTYPE_INT64);
	assert_int_equal(tlc_rules__dtype_code(11), TLC_DTYPE_BOOL);
	assert_int_equal(tlc_rules__dtype_code(23), TLC_DTYPE_FLOAT8_E5M2);
	assert_int_equal(tlc_rules__dtype_code(24), TLC_DTYPE_FLOAT8_E4M3FN);
	assert_int_equal(tlc_rules__dtype_code(8), TLC_DTYPE_OTHER);
	assert_int_equal(tlc_rules__dtype_code(25), TLC_DTYPE_OTHER);
	assert_int_equal(tlc_rules__dtype_code(-1), TLC_DTYPE_OTHER);
}

/* A known count whose trace lacked an argument says what pinned it. */
static const char *trace_note(tlc_engine *eng, const char *json, tlc_class *cls)
{
	static char note[512];
	tlc_eval *ev = NULL;
	tlc_eval_options o = { sizeof o, 1, NULL, NULL };
	assert_int_equal(tlc_eval_new(&ev, eng, &o), 0);
	assert_int_equal(tlc_trace_read_mem(ev, json, strlen(json), "note"), 0);
	assert_int_equal(tlc_eval_finish(ev), 0);
	assert_int_equal(tlc_eval_op_count(ev), 1);
	const tlc_op_row *row = test_op_at(ev, 0);
	*cls = row->cls;
	const char *n = row->cost ? tlc_cost_note(row->cost) : NULL;
	snprintf(note, sizeof note, "%s", n ? n : "");
	tlc_eval_free(ev);
	return note;
}

static void test_trace_evidence_notes(void **state)
{
	(void)state;
	tlc_engine *eng = NULL;
	tlc_class cls;
	assert_int_equal(tlc_engine_new(&eng, NULL), 0);
	const char *n = trace_note(eng,
		"[{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::convolution\",\"pid\":1,"
		"\"tid\":1,\"ts\":0,\"dur\":1,\"args\":{\"Input Dims\":[[1,3,8,8],[4,3,3,3],[],[],"
		"[],[],[],[],[]],\"Input type\":[\"float\",\"float\",\"\",\"ScalarList\",\"ScalarList\","
		"\"ScalarList\",\"Scalar\",\"ScalarList\",\"Scalar\"],\"Concrete Inputs\":[\"\",\"\","
		"\"\",\"[1, 1]\",\"[0, 0]\",\"[1, 1]\",\"False\",\"\",\"\"]}}]", &cls);
	assert_int_equal(cls, TLC_CLASS_KNOWN);
	assert_non_null(strstr(n, "groups = Cin/weight[1]"));
	n = trace_note(eng,
		"[{\"ph\":\"X\",\"cat\":\"Operator\",\"name\":\"aten::cudnn_convolution_backward_input\","
		"\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":1,\"args\":{\"Input Dims\":[[],[2,4,6,6],"
		"[4,3,3,3],[],[],[],[],[],[],[]],\"Input type\":[\"GenericList\",\"float\",\"float\","
		"\"GenericList\",\"GenericList\",\"GenericList\",\"Int\",\"Bool\",\"Bool\",\"Bool\"]}}]",
		&cls);
	assert_int_equal(cls, TLC_CLASS_KNOWN);
	assert_non_null(strstr(n, "MACs from grad_output and weight"));
	tlc_engine_free(eng);
}

int main(int argc, char **argv)
{
	g_argc = argc;
	g_argv = argv;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_util_broadcast),
		cmocka_unit_test(test_util_int_lists),
		cmocka_unit_test(test_util_terms_and_names),
		cmocka_unit_test(test_harness_detects_mismatch),
		cmocka_unit_test(test_every_table_listed),
		cmocka_unit_test(test_every_rule_has_a_row),
		cmocka_unit_test(test_trace_evidence_notes),
		cmocka_unit_test(test_util_observed_args),
		cmocka_unit_test(test_rule_tables),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
