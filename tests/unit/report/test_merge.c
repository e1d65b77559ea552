/* The merge API (engine/report/merge.c) on documents in memory: exact sums
 * past 64 bits, exact rational bus bytes, order independence, and every
 * refusal with its typed code, leaving the merge unchanged.
 *
 * The partials are built here from two small op logs evaluated by the
 * library (so they are real `tlcost flops` JSON), and edited by hand where a
 * refusal is tested. Expected values are worked by hand in the comments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "tlcost/tlcost.h"

/* Op log A: aten::mm [4,8]x[8,16] float (512 MACs = 1,024 FLOPs) and an
 * all-reduce of 10 Float over 3 ranks (S = 40 B, bus = 40*4/3 = 160/3 B).
 * Op log B: the same all-reduce, an unknown mylib::x, and an mm
 * [65536,65536] x [65536,1]: 2^32 MACs = 8,589,934,592 FLOPs. */
static const char log_a[] =
	"{\"format\":\"tlcost-oplog\",\"version\":1}\n"
	"{\"id\":0,\"op\":\"aten::mm\",\"args\":[{\"shape\":[4,8],\"dtype\":\"float32\"},"
	"{\"shape\":[8,16],\"dtype\":\"float32\"}]}\n"
	"{\"id\":1,\"op\":\"c10d::allreduce_\",\"phase\":\"backward\",\"args\":[],\"kwargs\":"
	"{\"collective\":\"allreduce\",\"in_nelems\":10,\"dtype\":\"Float\",\"group_size\":3}}\n";
static const char log_b[] =
	"{\"format\":\"tlcost-oplog\",\"version\":1}\n"
	"{\"id\":0,\"op\":\"c10d::allreduce_\",\"phase\":\"backward\",\"args\":[],\"kwargs\":"
	"{\"collective\":\"allreduce\",\"in_nelems\":10,\"dtype\":\"Float\",\"group_size\":3}}\n"
	"{\"id\":1,\"op\":\"mylib::x\",\"args\":[{\"shape\":[3],\"dtype\":\"float32\"}]}\n"
	"{\"id\":2,\"op\":\"aten::mm\",\"args\":[{\"shape\":[65536,65536],\"dtype\":\"float32\"},"
	"{\"shape\":[65536,1],\"dtype\":\"float32\"}]}\n";

static char *flops_json(const char *log, size_t len)
{
	tlc_engine *eng = NULL;
	assert_int_equal(tlc_engine_new(&eng, NULL), 0);
	tlc_eval *ev = NULL;
	assert_int_equal(tlc_eval_new(&ev, eng, NULL), 0);
	assert_int_equal(tlc_oplog_read_mem(ev, log, len, "log"), 0);
	assert_int_equal(tlc_eval_finish(ev), 0);
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	assert_non_null(f);
	assert_int_equal(tlc_write_flops(f, ev, TLC_FORMAT_JSON), 0);
	fclose(f);
	tlc_eval_free(ev);
	tlc_engine_free(eng);
	return buf;
}

static char *merged(const char *const *docs, const char *const *names, size_t n)
{
	tlc_merge *m = NULL;
	assert_int_equal(tlc_merge_new(&m), 0);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(tlc_merge_add_mem(m, docs[i], strlen(docs[i]), names[i]), 0);
	char *out = NULL;
	size_t len = 0;
	assert_int_equal(tlc_merge_write_mem(&out, &len, m), 0);
	assert_int_equal(strlen(out), len);
	tlc_merge_free(m);
	return out;
}

/* Replaces the first occurrence of from by to (malloc'd copy). */
static char *edit(const char *s, const char *from, const char *to)
{
	const char *p = strstr(s, from);
	assert_non_null(p);
	size_t n = strlen(s) - strlen(from) + strlen(to) + 1;
	char *r = malloc(n);
	assert_non_null(r);
	snprintf(r, n, "%.*s%s%s", (int)(p - s), s, to, p + strlen(from));
	return r;
}

/* Replaces every occurrence of from by to (malloc'd copy; frees s). */
static char *edit_all(char *s, const char *from, const char *to)
{
	while (strstr(s, from)) {
		char *r = edit(s, from, to);
		free(s);
		s = r;
	}
	return s;
}

static void test_sums_and_order(void **state)
{
	(void)state;
	char *a = flops_json(log_a, sizeof log_a - 1), *b = flops_json(log_b, sizeof log_b - 1);
	const char *ab[] = { a, b }, *ba[] = { b, a };
	const char *nab[] = { "a.json", "b.json" }, *nba[] = { "b.json", "a.json" };
	char *m1 = merged(ab, nab, 2), *m2 = merged(ba, nba, 2);
	assert_string_equal(m1, m2); /* order-independent, byte for byte */
	/* forward FLOPs: 1,024 + 2 * 65536*65536*1 = 1,024 + 8,589,934,592 */
	assert_non_null(strstr(m1, "\"flops\": 8589935616"));
	/* two all-reduces: 80 B of messages, 2 * 160/3 = 320/3 bus bytes */
	assert_non_null(strstr(m1, "\"message_bytes\": 80"));
	assert_non_null(strstr(m1, "\"bus_bytes\": \"320/3\""));
	assert_non_null(strstr(m1, "\"lower_bound\": true")); /* mylib::x from b */
	assert_non_null(strstr(m1, "\"name\": \"mylib::x\""));
	/* a merge merges again: (a+b) with nothing new is itself */
	const char *again[] = { m1 };
	const char *nm[] = { "m.json" };
	char *m3 = merged(again, nm, 1);
	assert_string_equal(m1, m3);
	/* sums past 64 bits: two partials with 2^64 MACs each give 2^65, their
	 * 2^65 FLOPs 2^66; edited consistently (flops = 2 macs, flops_fma1 =
	 * macs, the op type's FLOPs the phase's), as a merge now checks */
	char *x = edit_all(strdup(a), "\"macs\": 512", "\"macs\": 18446744073709551616");
	x = edit_all(x, "\"flops\": 1024", "\"flops\": 36893488147419103232");
	x = edit_all(x, "\"flops_fma1\": 512", "\"flops_fma1\": 18446744073709551616");
	char *y = edit_all(strdup(b), "\"macs\": 4294967296", "\"macs\": 18446744073709551616");
	y = edit_all(y, "\"flops\": 8589934592", "\"flops\": 36893488147419103232");
	y = edit_all(y, "\"flops_fma1\": 4294967296", "\"flops_fma1\": 18446744073709551616");
	const char *xy[] = { x, y };
	char *m4 = merged(xy, nab, 2);
	assert_non_null(strstr(m4, "\"macs\": 36893488147419103232"));
	assert_non_null(strstr(m4, "\"flops\": 73786976294838206464"));
	free(m1), free(m2), free(m3), free(m4), free(a), free(b), free(x), free(y);
}

static void expect_refusal(tlc_merge *m, const char *doc, const char *name, const char *code)
{
	assert_true(tlc_merge_add_mem(m, doc, strlen(doc), name) < 0);
	assert_string_equal(tlc_error_last()->code, code);
	assert_true(tlc_error_last()->remedy && *tlc_error_last()->remedy);
}

static void test_refusals(void **state)
{
	(void)state;
	char *a = flops_json(log_a, sizeof log_a - 1);
	tlc_merge *m = NULL;
	assert_int_equal(tlc_merge_new(&m), 0);
	char *out = NULL;
	size_t len;
	assert_true(tlc_merge_write_mem(&out, &len, m) < 0);
	assert_string_equal(tlc_error_last()->code, "merge_empty");
	assert_int_equal(tlc_merge_add_mem(m, a, strlen(a), "a.json"), 0);
	expect_refusal(m, "{\"schema\": ", "cut.json", "merge_input_invalid");
	expect_refusal(m, "[1, 2]", "array.json", "merge_input_invalid");
	expect_refusal(m, "{\"schema\": \"tlcost.flops/1\"}", "bare.json", "merge_input_invalid");
	char *v2 = edit(a, "tlcost.flops/1", "tlcost.flops/2");
	expect_refusal(m, v2, "v2.json", "merge_schema_mismatch");
	char *fma1 = edit(a, "\"fma=2\"", "\"fma=1\"");
	expect_refusal(m, fma1, "fma1.json", "merge_incompatible");
	char *neg = edit(a, "\"macs\": 512", "\"macs\": -512");
	expect_refusal(m, neg, "neg.json", "merge_input_invalid");
	char *badbus = edit(a, "\"bus_bytes\": \"160/3\"", "\"bus_bytes\": \"1/0\"");
	expect_refusal(m, badbus, "badbus.json", "merge_input_invalid");
	expect_refusal(m, a, "a.json", "merge_duplicate_input");
	/* ranks: the same rank twice is refused whatever the file names */
	char *r0 = edit(a, "\"coverage\"", "\"distributed\": {\"rank\": 0, \"world_size\": 2, "
	                                  "\"backend\": \"nccl\"}, \"coverage\"");
	assert_int_equal(tlc_merge_add_mem(m, r0, strlen(r0), "r0.json"), 0);
	expect_refusal(m, r0, "r0-again.json", "merge_duplicate_rank");
	assert_int_equal(tlc_merge_count(m), 2);
	/* the refused documents left nothing behind: two all-reduces only */
	assert_int_equal(tlc_merge_write_mem(&out, &len, m), 0);
	assert_non_null(strstr(out, "\"bus_bytes\": \"320/3\""));
	assert_non_null(strstr(out, "\"rank\": 0"));
	tlc_free(out);
	assert_true(tlc_merge_write(stdout, m, TLC_FORMAT_CSV) < 0);
	assert_string_equal(tlc_error_last()->code, "format_unsupported");
	assert_true(tlc_merge_add_file(m, "/nonexistent/partial.json") < 0);
	assert_string_equal(tlc_error_last()->code, "io_error");
	assert_true(tlc_merge_add_mem(NULL, a, 1, "x") < 0);
	assert_string_equal(tlc_error_last()->code, "invalid_argument");
	tlc_merge_free(m);
	free(a), free(v2), free(fma1), free(neg), free(badbus), free(r0);
}

/* A partial whose own numbers contradict each other is refused, naming the
 * field and the file, and leaves the merge unchanged (issue 23, finding 6).
 * Each edit breaks one identity of docs/json-schema.md (tlcost.flops/1):
 * flops = 2 macs + other_flops, flops_fma1 = macs + other_flops, the four
 * classes add up to rows (coverage and each op type), the op types add up
 * to the coverage and to the phases' FLOPs, the ledger's counts to the
 * unknown calls, lower_bound = (an unknown call or a device-work gap),
 * kernels = kernels_in_ops + without_op, the gaps hold without_op, and
 * group_size_basis counts every collective call. Partial a: mm 512 MACs
 * (1,024 FLOPs) and one all-reduce, complete; b: one unknown mylib::x. */
static void expect_inconsistent(tlc_merge *m, char *doc, const char *field)
{
	expect_refusal(m, doc, "edited.json", "merge_input_inconsistent");
	const tlc_error *e = tlc_error_last();
	if (!strstr(e->message, field))
		fail_msg("%s: message '%s' does not name %s", "edited.json", e->message, field);
	assert_string_equal(e->file, "edited.json");
	free(doc);
}

static void test_inconsistent(void **state)
{
	(void)state;
	char *a = flops_json(log_a, sizeof log_a - 1), *b = flops_json(log_b, sizeof log_b - 1);
	tlc_merge *m = NULL;
	assert_int_equal(tlc_merge_new(&m), 0);
	/* the finding: "2 unknown" next to "COMPLETE" */
	expect_inconsistent(m, edit(b, "\"lower_bound\": true", "\"lower_bound\": false"),
	                    "lower_bound");
	expect_inconsistent(m, edit(a, "\"known\": 2", "\"known\": 100"), "coverage");
	expect_inconsistent(m, edit(a, "\"rows\": 2", "\"rows\": 3"), "coverage");
	expect_inconsistent(m, edit(a, "\"flops\": 1024", "\"flops\": 1025"),
	                    "phases.forward.flops");
	expect_inconsistent(m, edit(a, "\"macs\": 512", "\"macs\": 511"), "phases.forward.flops");
	expect_inconsistent(m, edit(a, "\"flops_fma1\": 512", "\"flops_fma1\": 1024"),
	                    "phases.forward.flops_fma1");
	/* the op type aten::mm: 1 call, known 1; its FLOPs 1,024 */
	char *t = edit(a, "\"count\": 1,\n      \"known\": 1", "\"count\": 2,\n      \"known\": 1");
	expect_inconsistent(m, t, "op_types[name=aten::mm]");
	char *tk = edit(a, "\"count\": 1,\n      \"known\": 1", "\"count\": 2,\n      \"known\": 2");
	expect_inconsistent(m, tk, "op_types");
	char *tf = strstr(a, "\"op_types\"");
	assert_non_null(tf);
	char *tail = edit(tf, "\"flops\": 1024", "\"flops\": 2048");
	char *whole = malloc(strlen(a) + strlen(tail) + 1);
	assert_non_null(whole);
	snprintf(whole, strlen(a) + strlen(tail) + 1, "%.*s%s", (int)(tf - a), a, tail);
	free(tail);
	expect_inconsistent(m, whole, "op_types");
	/* the ledger of b: mylib::x, 1 call */
	expect_inconsistent(m, edit(b, "\"count\": 1,\n      \"example_ids\"",
	                            "\"count\": 2,\n      \"example_ids\""), "ledger");
	expect_inconsistent(m, edit(b, "\"count\": 1,\n      \"example_ids\"",
	                            "\"count\": 0,\n      \"example_ids\""), "ledger[name=mylib::x]");
	expect_inconsistent(m, edit(a, "\"lower_bound\": false", "\"lower_bound\": true"),
	                    "lower_bound");
	expect_inconsistent(m, edit(a, "\"kernels\": 0", "\"kernels\": 3"), "device_work.kernels");
	expect_inconsistent(m, edit(a, "\"without_op\": 0", "\"without_op\": 1"),
	                    "device_work.kernels");
	char *wo = edit(a, "\"kernels\": 0", "\"kernels\": 1"); /* no gap holds it */
	expect_inconsistent(m, edit(wo, "\"without_op\": 0", "\"without_op\": 1"),
	                    "device_work.without_op");
	free(wo);
	expect_inconsistent(m, edit(a, "\"recorded\": 1", "\"recorded\": 2"),
	                    "communication.group_size_basis");
	assert_int_equal(tlc_merge_count(m), 0); /* nothing was taken */
	assert_int_equal(tlc_merge_add_mem(m, a, strlen(a), "a.json"), 0);
	assert_int_equal(tlc_merge_add_mem(m, b, strlen(b), "b.json"), 0);
	tlc_merge_free(m);
	free(a), free(b);
}

/* A single evaluation with no op rows is a lower bound (no_op_records); a
 * merge of it with a complete partial has rows and no gap, so it is
 * complete, as one evaluation of both logs is. (ORing the inputs' flags
 * made it a LOWER BOUND, which its own check above would then refuse.) */
static void test_lower_bound_of_merge(void **state)
{
	(void)state;
	static const char empty[] = "{\"format\":\"tlcost-oplog\",\"version\":1}\n";
	char *e = flops_json(empty, sizeof empty - 1), *a = flops_json(log_a, sizeof log_a - 1);
	assert_non_null(strstr(e, "\"lower_bound\": true"));
	assert_non_null(strstr(e, "no_op_records"));
	const char *docs[] = { e, a }, *names[] = { "e.json", "a.json" };
	char *m1 = merged(docs, names, 2);
	assert_non_null(strstr(m1, "\"lower_bound\": false"));
	assert_null(strstr(m1, "no_op_records"));
	const char *again[] = { m1 }, *nm[] = { "m.json" };
	char *m2 = merged(again, nm, 1); /* and it merges again */
	assert_string_equal(m1, m2);
	free(e), free(a), free(m1), free(m2);
}

/* tlc_ranks on op logs (no device records, no rank): the rows keep the exact
 * FLOPs; an empty set is refused. */
static void test_ranks_api(void **state)
{
	(void)state;
	tlc_ranks *r = NULL;
	assert_true(tlc_ranks_new(&r, &(tlc_ranks_options){ 1, 0 }) < 0);
	assert_string_equal(tlc_error_last()->code, "invalid_argument");
	assert_int_equal(tlc_ranks_new(&r, NULL), 0);
	assert_true(tlc_ranks_write(stdout, r, TLC_FORMAT_TEXT) < 0);
	assert_string_equal(tlc_error_last()->code, "ranks_empty");
	tlc_engine *eng = NULL;
	assert_int_equal(tlc_engine_new(&eng, NULL), 0);
	for (int i = 0; i < 2; i++) {
		tlc_eval *ev = NULL;
		tlc_eval_options o = { sizeof o, 1, NULL, NULL };
		assert_int_equal(tlc_eval_new(&ev, eng, &o), 0);
		assert_int_equal(tlc_oplog_read_mem(ev, log_a, sizeof log_a - 1, "a"), 0);
		assert_int_equal(tlc_eval_finish(ev), 0);
		assert_int_equal(tlc_ranks_add(r, ev, NULL, i ? "a2" : "a1"), 0);
		tlc_eval_free(ev);
	}
	assert_int_equal(tlc_ranks_count(r), 2);
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	assert_int_equal(tlc_ranks_write(f, r, TLC_FORMAT_JSON), 0);
	fclose(f);
	/* forward FLOPs of log A: 1,024 per rank row; 40 B all-reduced in backward */
	assert_non_null(strstr(buf, "\"flops\": 1024"));
	assert_non_null(strstr(buf, "\"comm_message_bytes\": 40"));
	assert_non_null(strstr(buf, "\"comm_bus_bytes\": \"160/3\""));
	assert_non_null(strstr(buf, "\"matched_collectives\": 0"));
	free(buf);
	tlc_ranks_free(r);
	tlc_engine_free(eng);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sums_and_order),
		cmocka_unit_test(test_inconsistent),
		cmocka_unit_test(test_lower_bound_of_merge),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_ranks_api),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
