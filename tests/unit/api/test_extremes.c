/* Extremes (issue 7, item 4): shapes whose products overflow 64 bits give
 * exact totals, checked against a schoolbook decimal big-integer computation
 * written here (independent of GMP); zero-size and rank-0 tensors; a
 * million distinct op names; 100,000-deep parent chains in call order and
 * in reverse order; a single record line of several megabytes. Every input
 * goes through the op log reader (tlc_oplog_read_mem), as a user's would.
 *
 * Under valgrind (TLCOST_TEST_WRAPPER=valgrind) the op counts and chain
 * depths are scaled down by 10x and the wall-clock bound is not checked: valgrind runs code
 * 20-50x slower, and what it checks (memory errors, leaks) does not depend
 * on the count. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>
#include "tlcost/tlcost.h"
#include "../rows_util.h"

/* ---- independent decimal big integers (non-negative, no leading zeros) ---- */

/* a * b, schoolbook over decimal digits. Caller frees. */
static char *dec_mul(const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b);
	unsigned *acc = calloc(na + nb, sizeof *acc);
	assert_non_null(acc);
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++)
			acc[i + j + 1] += (unsigned)(a[i] - '0') * (unsigned)(b[j] - '0');
	for (size_t k = na + nb - 1; k > 0; k--) { /* carry towards the front */
		acc[k - 1] += acc[k] / 10;
		acc[k] %= 10;
	}
	char *out = malloc(na + nb + 1);
	assert_non_null(out);
	size_t k = 0, o = 0;
	while (k + 1 < na + nb && acc[k] == 0)
		k++;
	for (; k < na + nb; k++)
		out[o++] = (char)('0' + acc[k]);
	out[o] = '\0';
	free(acc);
	return out;
}

/* a + b. Caller frees. */
static char *dec_add(const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b), n = (na > nb ? na : nb) + 1;
	char *out = malloc(n + 1);
	assert_non_null(out);
	out[n] = '\0';
	unsigned carry = 0;
	for (size_t k = 0; k < n; k++) {
		unsigned d = carry;
		if (k < na)
			d += (unsigned)(a[na - 1 - k] - '0');
		if (k < nb)
			d += (unsigned)(b[nb - 1 - k] - '0');
		out[n - 1 - k] = (char)('0' + d % 10);
		carry = d / 10;
	}
	if (out[0] == '0' && n > 1)
		memmove(out, out + 1, n);
	return out;
}

/* Product of three decimal strings, then times a small factor. */
static char *dec_mul3(const char *a, const char *b, const char *c)
{
	char *ab = dec_mul(a, b);
	char *abc = dec_mul(ab, c);
	free(ab);
	return abc;
}

static void test_decimal_helpers(void **state)
{
	(void)state;
	/* the helpers themselves, on values checkable by hand */
	char *p = dec_mul("99", "99");
	assert_string_equal(p, "9801");
	free(p);
	p = dec_mul("0", "12345");
	assert_string_equal(p, "0");
	free(p);
	/* (2^64 - 1)^2 = 2^128 - 2^65 + 1 = 340282366920938463426481119284349108225 */
	p = dec_mul("18446744073709551615", "18446744073709551615");
	assert_string_equal(p, "340282366920938463426481119284349108225");
	free(p);
	p = dec_add("999", "1");
	assert_string_equal(p, "1000");
	free(p);
	p = dec_add("0", "0");
	assert_string_equal(p, "0");
	free(p);
}

/* ---- running an op log held in memory ---- */

static int under_valgrind(void)
{
	const char *w = getenv("TLCOST_TEST_WRAPPER");
	return w && strcmp(w, "valgrind") == 0;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

typedef struct run {
	tlc_engine *eng;
	tlc_eval *ev;
} run;

static const char header[] = "{\"format\":\"tlcost-oplog\",\"version\":1}\n";

/* Reads text (an op log) and finishes; returns the first error or 0. */
static int run_log(run *r, const char *text, size_t len, int keep_ops)
{
	assert_int_equal(tlc_engine_new(&r->eng, NULL), 0);
	tlc_eval_options o = { sizeof o, keep_ops, NULL, NULL };
	assert_int_equal(tlc_eval_new(&r->ev, r->eng, &o), 0);
	int rc = tlc_oplog_read_mem(r->ev, text, len, "extremes.jsonl");
	if (rc == 0)
		rc = tlc_eval_finish(r->ev);
	return rc;
}

static void run_free(run *r)
{
	tlc_eval_free(r->ev);
	tlc_engine_free(r->eng);
}

static void assert_total(const run *r, tlc_total which, const char *expect)
{
	char *s = NULL;
	assert_int_equal(tlc_eval_total_str(&s, r->ev, TLC_PHASE_FORWARD, which), 0);
	assert_string_equal(s, expect);
	tlc_free(s);
}

/* A growable text buffer for generated logs. */
typedef struct buf {
	char *p;
	size_t n, cap;
} buf;

static void put(buf *b, const char *fmt, ...)
{
	for (;;) {
		va_list ap;
		va_start(ap, fmt);
		int k = vsnprintf(b->p ? b->p + b->n : NULL, b->p ? b->cap - b->n : 0, fmt, ap);
		va_end(ap);
		assert_true(k >= 0);
		if (b->p && (size_t)k < b->cap - b->n) {
			b->n += (size_t)k;
			return;
		}
		b->cap = b->cap ? b->cap * 2 + (size_t)k : 4096 + (size_t)k;
		b->p = realloc(b->p, b->cap);
		assert_non_null(b->p);
	}
}

/* ---- overflow past 64 bits ---- */

/* aten::mm [M,K] x [K,N] float32 (tests/rules/matmul.tsv: M*K*N MACs, reads
 * (M*K + K*N) * 4 bytes, writes M*N * 4), with M = 2^40 + 3 = 1099511627779,
 * K = 3 * 10^12 + 7 = 3000000000007, N = 2^41 - 1 = 2199023255551: every
 * product is past 2^64. The record is repeated `reps` times; totals are
 * reps times each. */
static void test_overflow_mm(void **state)
{
	(void)state;
	const char *M = "1099511627779", *K = "3000000000007", *N = "2199023255551";
	const char *reps = "1000";
	buf b = { 0 };
	put(&b, "%s", header);
	for (int i = 0; i < 1000; i++)
		put(&b,
		    "{\"id\":%d,\"op\":\"aten::mm\",\"args\":[{\"shape\":[%s,%s],\"dtype\":\"float32\"},"
		    "{\"shape\":[%s,%s],\"dtype\":\"float32\"}],"
		    "\"outputs\":[{\"shape\":[%s,%s],\"dtype\":\"float32\"}]}\n",
		    i, M, K, K, N, M, N);
	run r;
	assert_int_equal(run_log(&r, b.p, b.n, 0), 0);
	free(b.p);

	char *mkn = dec_mul3(M, K, N);
	char *macs = dec_mul(mkn, reps);
	char *flops = dec_mul(macs, "2");
	char *mk = dec_mul(M, K), *kn = dec_mul(K, N), *mn = dec_mul(M, N);
	char *in_elems = dec_add(mk, kn);
	char *read1 = dec_mul(in_elems, "4"), *read = dec_mul(read1, reps);
	char *write1 = dec_mul(mn, "4"), *written = dec_mul(write1, reps);
	/* sanity of the independent side: M*K*N is about 7.25e36 */
	assert_int_equal(strlen(mkn), 37);

	assert_total(&r, TLC_TOTAL_MACS, macs);
	assert_total(&r, TLC_TOTAL_FLOPS, flops);
	assert_total(&r, TLC_TOTAL_OTHER_FLOPS, "0");
	assert_total(&r, TLC_TOTAL_BYTES_READ, read);
	assert_total(&r, TLC_TOTAL_BYTES_WRITTEN, written);
	assert_false(tlc_eval_is_lower_bound(r.ev));

	/* the 64-bit reader refuses instead of wrapping */
	uint64_t u = 0;
	assert_int_equal(tlc_eval_total_u64(&u, r.ev, TLC_PHASE_FORWARD, TLC_TOTAL_MACS),
	                 TLC_EOVERFLOW);
	assert_non_null(tlc_error_last()->code);
	assert_true(tlc_error_last()->remedy && tlc_error_last()->remedy[0]);

	free(mkn), free(macs), free(flops), free(mk), free(kn), free(mn), free(in_elems);
	free(read1), free(read), free(write1), free(written);
	run_free(&r);
}

/* aten::relu over [INT64_MAX, INT64_MAX, 3] float64 (tests/rules/pointwise.tsv:
 * 1 compare per element, reads and writes the tensor once): numel =
 * 3 * (2^63 - 1)^2, 8 bytes an element. */
static void test_overflow_int64_max_dims(void **state)
{
	(void)state;
	const char *D = "9223372036854775807";
	char text[1024];
	snprintf(text, sizeof text,
	         "%s{\"id\":0,\"op\":\"aten::relu\",\"args\":[{\"shape\":[%s,%s,3],\"dtype\":\"float64\"}],"
	         "\"outputs\":[{\"shape\":[%s,%s,3],\"dtype\":\"float64\"}]}\n",
	         header, D, D, D, D);
	run r;
	assert_int_equal(run_log(&r, text, strlen(text), 0), 0);
	char *numel = dec_mul3(D, D, "3");
	char *bytes = dec_mul(numel, "8");
	assert_total(&r, TLC_TOTAL_OTHER_FLOPS, numel);
	assert_total(&r, TLC_TOTAL_FLOPS, numel);
	assert_total(&r, TLC_TOTAL_MACS, "0");
	assert_total(&r, TLC_TOTAL_BYTES_READ, bytes);
	assert_total(&r, TLC_TOTAL_BYTES_WRITTEN, bytes);
	free(numel), free(bytes);
	run_free(&r);
}

/* A shape entry past int64 is not a shape: typed error at its line. */
static void test_shape_entry_past_int64(void **state)
{
	(void)state;
	char text[512];
	snprintf(text, sizeof text,
	         "%s{\"id\":0,\"op\":\"aten::relu\",\"args\":[{\"shape\":[9223372036854775808],"
	         "\"dtype\":\"float32\"}]}\n",
	         header);
	run r;
	int rc = run_log(&r, text, strlen(text), 0);
	assert_int_equal(rc, TLC_EINPUT);
	assert_string_equal(tlc_error_last()->code, "oplog_field_invalid");
	assert_int_equal(tlc_error_last()->line, 2);
	run_free(&r);
}

/* ---- zero-size and rank-0 tensors ---- */

static const tlc_op_row *row_of(const run *r, int64_t id)
{
	for (size_t i = 0; i < tlc_eval_op_count(r->ev); i++)
		if (test_op_id(r->ev, i) == id)
			return test_op_at(r->ev, i);
	fail_msg("no row for id %lld", (long long)id);
	return NULL;
}

/* mm [0,5] x [5,7]: 0*5*7 = 0 MACs, known (not unknown); reads (0 + 35) * 4
 * = 140 bytes, writes [0,7]: 0. relu over [4,0,3]: 0 elements, 0 FLOPs,
 * 0 bytes. A 0 here is the rule's answer, not a missing one. */
static void test_zero_size(void **state)
{
	(void)state;
	char text[1024];
	snprintf(text, sizeof text,
	         "%s{\"id\":0,\"op\":\"aten::mm\",\"args\":[{\"shape\":[0,5],\"dtype\":\"float32\"},"
	         "{\"shape\":[5,7],\"dtype\":\"float32\"}],\"outputs\":[{\"shape\":[0,7],\"dtype\":\"float32\"}]}\n"
	         "{\"id\":1,\"op\":\"aten::relu\",\"args\":[{\"shape\":[4,0,3],\"dtype\":\"float32\"}],"
	         "\"outputs\":[{\"shape\":[4,0,3],\"dtype\":\"float32\"}]}\n",
	         header);
	run r;
	assert_int_equal(run_log(&r, text, strlen(text), 1), 0);
	assert_total(&r, TLC_TOTAL_MACS, "0");
	assert_total(&r, TLC_TOTAL_FLOPS, "0");
	assert_total(&r, TLC_TOTAL_BYTES_READ, "140");
	assert_total(&r, TLC_TOTAL_BYTES_WRITTEN, "0");
	assert_int_equal(row_of(&r, 0)->cls, TLC_CLASS_KNOWN);
	assert_int_equal(row_of(&r, 1)->cls, TLC_CLASS_KNOWN);
	assert_false(tlc_eval_is_lower_bound(r.ev));
	run_free(&r);
}

/* A 0-d tensor has one element: relu over [] float32 is 1 compare, reads 4
 * and writes 4 bytes. mm needs 2-d operands: a 0-d one is bad_args, so the
 * op is unknown (in the ledger, totals a lower bound), never 0. */
static void test_rank0(void **state)
{
	(void)state;
	char text[1024];
	snprintf(text, sizeof text,
	         "%s{\"id\":0,\"op\":\"aten::relu\",\"args\":[{\"shape\":[],\"dtype\":\"float32\"}],"
	         "\"outputs\":[{\"shape\":[],\"dtype\":\"float32\"}]}\n"
	         "{\"id\":1,\"op\":\"aten::mm\",\"args\":[{\"shape\":[],\"dtype\":\"float32\"},"
	         "{\"shape\":[],\"dtype\":\"float32\"}],\"outputs\":[{\"shape\":[],\"dtype\":\"float32\"}]}\n",
	         header);
	run r;
	assert_int_equal(run_log(&r, text, strlen(text), 1), 0);
	assert_int_equal(row_of(&r, 0)->cls, TLC_CLASS_KNOWN);
	assert_int_equal(row_of(&r, 1)->cls, TLC_CLASS_UNKNOWN);
	assert_total(&r, TLC_TOTAL_OTHER_FLOPS, "1");
	assert_total(&r, TLC_TOTAL_BYTES_READ, "4");
	assert_total(&r, TLC_TOTAL_BYTES_WRITTEN, "4");
	assert_true(tlc_eval_is_lower_bound(r.ev));
	assert_int_equal(tlc_eval_ledger_count(r.ev), 1);
	const tlc_ledger_entry *e = tlc_eval_ledger_at(r.ev, 0);
	assert_string_equal(e->name, "aten::mm");
	assert_string_equal(e->reason, "bad_args");
	run_free(&r);
}

/* ---- a million distinct op names ---- */

/* Every name is distinct and has no rule: the ledger has one group per name,
 * each of count 1, and the run is bounded in time (well under a second per
 * 100,000 names on this class of machine; 60 s is the alarm). */
static void test_million_names(void **state)
{
	(void)state;
	const int n = under_valgrind() ? 100000 : 1000000;
	buf b = { 0 };
	put(&b, "%s", header);
	for (int i = 0; i < n; i++)
		put(&b, "{\"id\":%d,\"op\":\"ext::op_%d\",\"args\":[]}\n", i, i);
	double t0 = now_s();
	run r;
	assert_int_equal(run_log(&r, b.p, b.n, 0), 0);
	free(b.p);
	assert_int_equal(tlc_eval_ledger_count(r.ev), (size_t)n);
	tlc_coverage cov = TLC_COVERAGE_INIT;
	assert_int_equal(tlc_eval_coverage(&cov, r.ev), 0);
	assert_int_equal(cov.rows, (uint64_t)n);
	assert_int_equal(cov.by_class[TLC_CLASS_UNKNOWN], (uint64_t)n);
	assert_true(tlc_eval_is_lower_bound(r.ev));
	/* sorted by count (all 1), then by name: "ext::op_0" < "ext::op_1" < "ext::op_10" */
	const tlc_ledger_entry *e0 = tlc_eval_ledger_at(r.ev, 0), *e1 = tlc_eval_ledger_at(r.ev, 1);
	assert_string_equal(e0->name, "ext::op_0");
	assert_string_equal(e1->name, "ext::op_1");
	assert_int_equal(e0->count, 1);
	assert_string_equal(e0->reason, "no_rule");
	assert_null(tlc_eval_ledger_at(r.ev, (size_t)n));
	assert_int_equal(tlc_eval_optype_count(r.ev), (size_t)n);
	/* the flops report over a million groups */
	FILE *sink = fopen("/dev/null", "w");
	assert_non_null(sink);
	assert_int_equal(tlc_write_ledger(sink, r.ev, TLC_FORMAT_JSON), 0);
	fclose(sink);
	/* the time is shown, not asserted: a timed assertion fails on a loaded
	 * machine (house rule: performance is measured in make bench) */
	print_message("a million distinct op names: %.1f s\n", now_s() - t0);
	run_free(&r);
}

/* ---- deep parent chains ---- */

/* A chain of `depth` ops, id i the parent of id i+1, written root first
 * (call order) or leaf first (each record before its parent: all held until
 * the root arrives). */
static char *chain_log(size_t *len, int depth, int reverse, const char *inner, const char *leaf)
{
	buf b = { 0 };
	put(&b, "%s", header);
	for (int k = 0; k < depth; k++) {
		int i = reverse ? depth - 1 - k : k;
		const char *op = i == depth - 1 ? leaf : inner;
		put(&b, "{\"id\":%d,\"op\":\"%s\",", i, op);
		if (i > 0)
			put(&b, "\"parent\":%d,", i - 1);
		put(&b, "\"args\":[{\"shape\":[2,3],\"dtype\":\"float32\"}],"
		        "\"outputs\":[{\"shape\":[2,3],\"dtype\":\"float32\"}]}\n");
	}
	*len = b.n;
	return b.p;
}

/* Root and every op below it are aten::relu ([2,3] f32: 6 FLOPs, 24 bytes
 * read and written). The outermost op with a rule counts (contract section
 * 2); the depth - 1 below it are not_applicable: totals are one relu's. */
static void deep_counted(int reverse)
{
	const int depth = under_valgrind() ? 10000 : 100000;
	size_t len;
	char *text = chain_log(&len, depth, reverse, "aten::relu", "aten::relu");
	run r;
	assert_int_equal(run_log(&r, text, len, 1), 0);
	free(text);
	tlc_coverage cov = TLC_COVERAGE_INIT;
	assert_int_equal(tlc_eval_coverage(&cov, r.ev), 0);
	assert_int_equal(cov.rows, (uint64_t)depth);
	assert_int_equal(cov.by_class[TLC_CLASS_KNOWN], 1);
	assert_int_equal(cov.by_class[TLC_CLASS_NOT_APPLICABLE], (uint64_t)depth - 1);
	assert_int_equal(row_of(&r, 0)->cls, TLC_CLASS_KNOWN);
	assert_int_equal(row_of(&r, depth - 1)->cls, TLC_CLASS_NOT_APPLICABLE);
	assert_total(&r, TLC_TOTAL_OTHER_FLOPS, "6");
	assert_total(&r, TLC_TOTAL_BYTES_READ, "24");
	assert_total(&r, TLC_TOTAL_BYTES_WRITTEN, "24");
	assert_false(tlc_eval_is_lower_bound(r.ev));
	run_free(&r);
}

/* depth - 1 ops without a rule above one relu: each stays unknown (an op
 * with no rule is never made known by its children), the relu at the bottom
 * is the outermost op with a rule on its path and counts: 6 FLOPs, and the
 * totals are a lower bound. */
static void deep_unknown(int reverse)
{
	const int depth = under_valgrind() ? 10000 : 100000;
	size_t len;
	char *text = chain_log(&len, depth, reverse, "ext::wrapper", "aten::relu");
	run r;
	assert_int_equal(run_log(&r, text, len, 1), 0);
	free(text);
	tlc_coverage cov = TLC_COVERAGE_INIT;
	assert_int_equal(tlc_eval_coverage(&cov, r.ev), 0);
	assert_int_equal(cov.by_class[TLC_CLASS_UNKNOWN], (uint64_t)depth - 1);
	assert_int_equal(cov.by_class[TLC_CLASS_KNOWN], 1);
	assert_int_equal(row_of(&r, depth - 1)->cls, TLC_CLASS_KNOWN);
	assert_int_equal(row_of(&r, 0)->cls, TLC_CLASS_UNKNOWN);
	assert_total(&r, TLC_TOTAL_OTHER_FLOPS, "6");
	assert_true(tlc_eval_is_lower_bound(r.ev));
	assert_int_equal(tlc_eval_ledger_count(r.ev), 1);
	const tlc_ledger_entry *e = tlc_eval_ledger_at(r.ev, 0);
	assert_string_equal(e->name, "ext::wrapper");
	assert_int_equal(e->count, (uint64_t)depth - 1);
	run_free(&r);
}

static void test_deep_call_order(void **state)
{
	(void)state;
	deep_counted(0);
	deep_unknown(0);
}

static void test_deep_reverse_order(void **state)
{
	(void)state;
	deep_counted(1);
	deep_unknown(1);
}

/* A parent chain that closes on itself far down (id 0's parent is the
 * last id) is a cycle: typed error, not a hang or a stack overflow. */
static void test_deep_cycle(void **state)
{
	(void)state;
	const int depth = under_valgrind() ? 10000 : 100000;
	buf b = { 0 };
	put(&b, "%s", header);
	for (int i = 0; i < depth; i++)
		put(&b, "{\"id\":%d,\"op\":\"aten::relu\",\"parent\":%d,\"args\":[]}\n", i,
		    i == 0 ? depth - 1 : i - 1);
	run r;
	int rc = run_log(&r, b.p, b.n, 0);
	free(b.p);
	assert_true(rc < 0);
	assert_string_equal(tlc_error_last()->code, "oplog_parent_unknown");
	assert_true(tlc_error_last()->remedy[0] != '\0');
	run_free(&r);
}

/* ---- a line of several megabytes ---- */

/* One record of ~7 MB: relu over a tensor of rank 1,000,000 whose dims are
 * all 1 except two 7s (numel 49: 49 FLOPs, 196 bytes each way), with an
 * extra positional int list of 1,000,000 entries. */
static void test_huge_line(void **state)
{
	(void)state;
	const int n = 1000000;
	buf shape = { 0 };
	for (int i = 0; i < n; i++)
		put(&shape, i == 0 ? "%d" : ",%d", i == 17 || i == n - 1 ? 7 : 1);
	buf b = { 0 };
	put(&b, "%s{\"id\":0,\"op\":\"aten::relu\",\"args\":[{\"shape\":[%s],\"dtype\":\"float32\"},[",
	    header, shape.p);
	for (int i = 0; i < n; i++)
		put(&b, i == 0 ? "%d" : ",%d", 1000000 + i);
	put(&b, "]],\"outputs\":[{\"shape\":[%s],\"dtype\":\"float32\"}]}\n", shape.p);
	free(shape.p);
	assert_true(b.n > 7 * 1000 * 1000);
	run r;
	assert_int_equal(run_log(&r, b.p, b.n, 1), 0);
	free(b.p);
	assert_int_equal(row_of(&r, 0)->cls, TLC_CLASS_KNOWN);
	assert_total(&r, TLC_TOTAL_OTHER_FLOPS, "49");
	assert_total(&r, TLC_TOTAL_BYTES_READ, "196");
	assert_total(&r, TLC_TOTAL_BYTES_WRITTEN, "196");
	run_free(&r);
}

/* The same megabyte line on an op without a rule: the ledger keeps it, and
 * the line cut short mid-record is a typed parse error naming line 2. */
static void test_huge_line_unknown_and_cut(void **state)
{
	(void)state;
	const int n = 1000000;
	buf b = { 0 };
	put(&b, "%s{\"id\":0,\"op\":\"ext::big\",\"args\":[{\"shape\":[", header);
	for (int i = 0; i < n; i++)
		put(&b, i == 0 ? "%d" : ",%d", 1);
	put(&b, "],\"dtype\":\"float32\"}]}\n");
	run r;
	assert_int_equal(run_log(&r, b.p, b.n, 0), 0);
	assert_int_equal(tlc_eval_ledger_count(r.ev), 1);
	const tlc_ledger_entry *e = tlc_eval_ledger_at(r.ev, 0);
	assert_string_equal(e->name, "ext::big");
	assert_int_equal(e->count, 1);
	assert_string_equal(e->reason, "no_rule");
	run_free(&r);

	/* cut in the middle of the shape list */
	size_t cut = strlen(header) + 4 * 1000 * 1000 / 2;
	int rc = run_log(&r, b.p, cut, 0);
	assert_true(rc < 0);
	assert_non_null(tlc_error_last()->code);
	assert_int_equal(tlc_error_last()->line, 2);
	run_free(&r);
	free(b.p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decimal_helpers),
		cmocka_unit_test(test_overflow_mm),
		cmocka_unit_test(test_overflow_int64_max_dims),
		cmocka_unit_test(test_shape_entry_past_int64),
		cmocka_unit_test(test_zero_size),
		cmocka_unit_test(test_rank0),
		cmocka_unit_test(test_million_names),
		cmocka_unit_test(test_deep_call_order),
		cmocka_unit_test(test_deep_reverse_order),
		cmocka_unit_test(test_deep_cycle),
		cmocka_unit_test(test_huge_line),
		cmocka_unit_test(test_huge_line_unknown_and_cut),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
