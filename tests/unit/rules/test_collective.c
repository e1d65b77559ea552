/* Communication costs of the collective rules (rules/collective.c).
 *
 * Reads tests/rules/collective.tsv (the table tests/unit/rules/test_rules.c checks for
 * class, FLOPs and traffic) and, for every row whose derivation carries a
 * tag `{comm KIND n=N msg=S bus=B}`, evaluates the row and compares the op's
 * communication exactly: kind, group size, message bytes and bus bytes (a
 * rational "P/Q" in lowest terms, or an integer). The tag values were worked
 * by hand from nccl-tests' definitions (doc/PERFORMANCE.md), as each row's
 * bracketed derivation shows. Also checks the bus factor table and the
 * accumulated per-phase totals of an evaluation with several collectives. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "tlcost/tlcost.h"
#include "../rows_util.h"

static const char *top_srcdir(void)
{
	const char *top = getenv("top_srcdir");
	return top && *top ? top : ".";
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *p = malloc((size_t)n + 1);
	if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
		free(p);
		p = NULL;
	}
	if (p)
		p[n] = '\0';
	fclose(f);
	return p;
}

/* One op log with one record: name[.overload] and the fragment. */
static tlc_eval *eval_row(tlc_engine *eng, const char *name, const char *frag)
{
	const char *ns = strstr(name, "::");
	const char *dot = ns ? strchr(ns + 2, '.') : NULL;
	size_t nlen = dot ? (size_t)(dot - name) : strlen(name);
	char buf[4096];
	snprintf(buf, sizeof buf,
	         "{\"format\":\"tlcost-oplog\",\"version\":1}\n"
	         "{\"id\":0,\"op\":\"%.*s\",\"overload\":\"%s\",%s}\n",
	         (int)nlen, name, dot ? dot + 1 : "", frag);
	tlc_eval *ev = NULL;
	tlc_eval_options o = { sizeof o, 1, NULL, NULL };
	assert_int_equal(tlc_eval_new(&ev, eng, &o), 0);
	assert_int_equal(tlc_oplog_read_mem(ev, buf, strlen(buf), "row"), 0);
	assert_int_equal(tlc_eval_finish(ev), 0);
	return ev;
}

static int check_tagged_row(tlc_engine *eng, char *line, size_t lineno)
{
	char *tag = strstr(line, "{comm ");
	if (!tag)
		return 0;
	char kind[32], msg[64], bus[64];
	long long n;
	if (sscanf(tag, "{comm %31s n=%lld msg=%63s bus=%63[^}]}", kind, &n, msg, bus) != 4) {
		fprintf(stderr, "collective.tsv:%zu: malformed comm tag\n", lineno);
		return 1;
	}
	char *tab1 = strchr(line, '\t');
	char *tab2 = tab1 ? strchr(tab1 + 1, '\t') : NULL;
	assert_non_null(tab2);
	*tab1 = *tab2 = '\0';
	tlc_eval *ev = eval_row(eng, line, tab1 + 1);
	int fails = 0;
	const tlc_op_row *row = test_op_at(ev, 0);
	tlc_comm_kind k;
	int64_t g;
	char *m = NULL, *b = NULL;
	if (!row || row->cls != TLC_CLASS_KNOWN ||
	    tlc_cost_comm(row->cost, &k, &g, &m, &b) != 1) {
		fprintf(stderr, "collective.tsv:%zu: %s: no communication cost\n", lineno, line);
		fails = 1;
	} else if (strcmp(tlc_comm_kind_name(k), kind) || g != n || strcmp(m, msg) ||
	           strcmp(b, bus)) {
		fprintf(stderr, "collective.tsv:%zu: %s: expected %s n=%lld msg=%s bus=%s, got %s "
		        "n=%lld msg=%s bus=%s\n", lineno, line, kind, n, msg, bus,
		        tlc_comm_kind_name(k), (long long)g, m, b);
		fails = 1;
	}
	tlc_free(m);
	tlc_free(b);
	tlc_eval_free(ev);
	return fails;
}

static void test_table(void **state)
{
	(void)state;
	char path[4096];
	snprintf(path, sizeof path, "%s/tests/rules/collective.tsv", top_srcdir());
	char *text = slurp(path);
	assert_non_null(text);
	tlc_engine *eng = NULL;
	assert_int_equal(tlc_engine_new(&eng, NULL), 0);
	size_t lineno = 0, tagged = 0, fails = 0;
	for (char *line = text, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		if (line[0] == '#' || !strstr(line, "{comm "))
			continue;
		tagged++;
		fails += (size_t)check_tagged_row(eng, line, lineno);
	}
	printf("# collective.tsv: %zu rows with a communication tag, %zu failing\n", tagged, fails);
	tlc_engine_free(eng);
	free(text);
	assert_true(tagged >= 15);
	assert_int_equal(fails, 0);
}

/* nccl-tests' summary table (doc/PERFORMANCE.md, "Summary"). */
static void test_bus_factors(void **state)
{
	(void)state;
	static const struct { tlc_comm_kind k; int64_t n, num, den; } t[] = {
		{ TLC_COMM_ALLREDUCE, 8, 14, 8 }, { TLC_COMM_ALLGATHER, 8, 7, 8 },
		{ TLC_COMM_REDUCE_SCATTER, 4, 3, 4 }, { TLC_COMM_ALLTOALL, 128, 127, 128 },
		{ TLC_COMM_BROADCAST, 8, 1, 1 }, { TLC_COMM_REDUCE, 8, 1, 1 },
		{ TLC_COMM_SEND, 2, 1, 1 }, { TLC_COMM_RECV, 2, 1, 1 },
		{ TLC_COMM_ALLREDUCE, 1, 0, 1 },
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		int64_t num, den;
		assert_int_equal(tlc_comm_bus_factor(&num, &den, t[i].k, t[i].n), 0);
		assert_int_equal(num, t[i].num);
		assert_int_equal(den, t[i].den);
	}
	int64_t num, den;
	assert_true(tlc_comm_bus_factor(&num, &den, TLC_COMM_ALLREDUCE, 0) < 0);
	assert_string_equal(tlc_error_last()->code, "invalid_argument");
	tlc_comm_kind k;
	assert_int_equal(tlc_comm_kind_from_name(&k, "reduce_scatter"), 0);
	assert_int_equal(k, TLC_COMM_REDUCE_SCATTER);
	assert_true(tlc_comm_kind_from_name(&k, "allreduce_typo") < 0);
}

/* Totals add exactly across calls: two all-reduces of 40 B over 3 ranks
 * give 80 B of messages and 2 x 160/3 = 320/3 bus bytes. */
static void test_totals(void **state)
{
	(void)state;
	static const char log[] =
		"{\"format\":\"tlcost-oplog\",\"version\":1}\n"
		"{\"id\":0,\"op\":\"c10d::allreduce_\",\"phase\":\"backward\",\"args\":[],"
		"\"kwargs\":{\"collective\":\"allreduce\",\"in_nelems\":10,\"dtype\":\"float\",\"group_size\":3}}\n"
		"{\"id\":1,\"op\":\"c10d::allreduce_\",\"phase\":\"backward\",\"args\":[],"
		"\"kwargs\":{\"collective\":\"allreduce\",\"in_nelems\":10,\"dtype\":\"float\",\"group_size\":3}}\n"
		"{\"id\":2,\"op\":\"c10d::broadcast_\",\"phase\":\"forward\",\"args\":[],"
		"\"kwargs\":{\"in_nelems\":5,\"dtype\":\"Long\",\"group_size\":8}}\n";
	tlc_engine *eng = NULL;
	assert_int_equal(tlc_engine_new(&eng, NULL), 0);
	tlc_eval *ev = NULL;
	assert_int_equal(tlc_eval_new(&ev, eng, NULL), 0);
	assert_int_equal(tlc_oplog_read_mem(ev, log, sizeof log - 1, "log"), 0);
	assert_int_equal(tlc_eval_finish(ev), 0);
	assert_int_equal(tlc_eval_comm_calls(ev, TLC_PHASE_BACKWARD, TLC_COMM_ALLREDUCE), 2);
	assert_int_equal(tlc_eval_comm_calls(ev, TLC_PHASE_FORWARD, TLC_COMM_BROADCAST), 1);
	char *m, *b;
	assert_int_equal(tlc_eval_comm_bytes(&m, &b, ev, TLC_PHASE_BACKWARD, TLC_COMM_ALLREDUCE), 0);
	assert_string_equal(m, "80");
	assert_string_equal(b, "320/3");
	tlc_free(m);
	tlc_free(b);
	assert_int_equal(tlc_eval_comm_bytes(&m, &b, ev, TLC_PHASE_FORWARD, TLC_COMM_BROADCAST), 0);
	assert_string_equal(m, "40");
	assert_string_equal(b, "40");
	tlc_free(m);
	tlc_free(b);
	uint64_t basis[3];
	tlc_eval_comm_group_basis(basis, ev);
	assert_int_equal(basis[0], 3);
	assert_false(tlc_eval_is_lower_bound(ev));
	tlc_eval_free(ev);
	tlc_engine_free(eng);
}

/* Link ceilings are per direction: the vendors' bidirectional NVLink and
 * Infinity Fabric totals halved (H100 datasheet 900 GB/s -> 450; MI300X
 * 7 x 128 GB/s = 896 -> 448), PCIe 5.0 x16 32 GT/s x 16 x 128/130 / 8 = 63.0 GB/s,
 * NDR 400 Gb/s / 8 = 50 GB/s. */
static void test_links(void **state)
{
	(void)state;
	const tlc_link_preset *l = NULL;
	assert_int_equal(tlc_link_find(&l, "nvlink4"), 0);
	assert_true(l->bytes_per_s == 450e9 && l->source && *l->source);
	assert_ptr_equal(tlc_link_for_device("h100-sxm"), l);
	assert_int_equal(tlc_link_find(&l, "infinity-fabric-mi300x"), 0);
	assert_true(l->bytes_per_s == 448e9);
	assert_ptr_equal(tlc_link_for_device("mi300x"), l);
	assert_int_equal(tlc_link_find(&l, "pcie5-x16"), 0);
	assert_true(l->bytes_per_s > 63.0e9 - 0.1e9 && l->bytes_per_s < 63.0e9 + 0.1e9);
	assert_true(32e9 * 16 * 128 / 130 / 8 > 62.9e9);
	assert_int_equal(tlc_link_find(&l, "ib-ndr"), 0);
	assert_true(l->bytes_per_s == 400e9 / 8);
	assert_null(tlc_link_for_device("no-such-device"));
	assert_true(tlc_link_find(&l, "nvlink9") < 0);
	assert_string_equal(tlc_error_last()->code, "link_unknown");
	for (size_t i = 0; i < tlc_link_count(); i++)
		assert_true(tlc_link_at(i)->date && tlc_link_at(i)->name && tlc_link_at(i)->bytes_per_s > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_bus_factors),
		cmocka_unit_test(test_totals),
		cmocka_unit_test(test_links),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
