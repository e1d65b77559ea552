/* Declarative rule files (engine/registry/rulefile.c, engine/registry/rulefile_eval.c).
 *
 * Tables: good files evaluated over one op record each (values derived by
 * hand in the comments), evaluation failures (unknown with missing_args or
 * bad_args), parse errors with code, line and column, registry errors
 * (rule_duplicate located at the rule), precedence against built-ins, the
 * example file over examples/custom_gelu.oplog.jsonl, and every example of
 * docs/rule-files.md (extracted and run). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "engine.h"
#include "rulefile.h"
#include "../rows_util.h"

#define HEADER "{\"format\":\"tlcost-oplog\",\"version\":1}\n"

/* ---- helpers ------------------------------------------------------------ */

static tlc_engine *engine(int builtins)
{
	tlc_engine_options o = { sizeof o, builtins ? 0u : TLC_ENGINE_NO_BUILTINS, NULL };
	tlc_engine *eng = NULL;
	assert_int_equal(tlc_engine_new(&eng, &o), 0);
	return eng;
}

static int load(tlc_engine *eng, const char *name, const char *text)
{
	return tlc_rf__load_mem(eng, name, text, strlen(text));
}

static void load_ok(tlc_engine *eng, const char *name, const char *text)
{
	if (load(eng, name, text) < 0)
		fail_msg("%s: %s: %s (line %llu col %llu)", name, tlc_error_last()->code,
		         tlc_error_last()->message, (unsigned long long)tlc_error_last()->line,
		         (unsigned long long)tlc_error_last()->column);
}

/* Evaluates an op log body (records, one per line) with keep_ops. */
static tlc_eval *run_log(tlc_engine *eng, const char *log, size_t len)
{
	tlc_eval_options o = { sizeof o, 1, NULL, NULL };
	tlc_eval *ev = NULL;
	assert_int_equal(tlc_eval_new(&ev, eng, &o), 0);
	if (tlc_oplog_read_mem(ev, log, len, "test.oplog.jsonl") < 0 || tlc_eval_finish(ev) < 0)
		fail_msg("op log: %s: %s", tlc_error_last()->code, tlc_error_last()->message);
	return ev;
}

static tlc_eval *run_record(tlc_engine *eng, const char *record)
{
	char buf[8192];
	int n = snprintf(buf, sizeof buf, HEADER "%s\n", record);
	assert_true(n > 0 && (size_t)n < sizeof buf);
	return run_log(eng, buf, (size_t)n);
}

static void check_total(const char *ctx, const tlc_eval *ev, tlc_total which,
                        const char *want)
{
	char *got = NULL;
	assert_int_equal(tlc_eval_total_str(&got, ev, TLC_PHASE_FORWARD, which), 0);
	if (strcmp(got, want) != 0) {
		char msg[256];
		snprintf(msg, sizeof msg, "%s: total %d is %s, expected %s", ctx, (int)which, got, want);
		tlc_free(got);
		fail_msg("%s", msg);
	}
	tlc_free(got);
}

static void assert_contains(const char *ctx, const char *hay, const char *needle)
{
	if (!hay || !strstr(hay, needle))
		fail_msg("%s: '%s' does not contain '%s'", ctx, hay ? hay : "(null)", needle);
}

static const tlc_rule_info *find_rule(const tlc_engine *eng, const char *name)
{
	for (size_t i = 0; i < tlc_engine_rule_count(eng); i++) {
		const tlc_rule_info *r = tlc_engine_rule_at(eng, i);
		if (r && strcmp(r->name, name) == 0)
			return r;
	}
	return NULL;
}

/* ---- good files: one op each, values derived by hand -------------------- */

typedef struct good_case {
	const char *name;
	const char *rules;
	const char *record;
	tlc_class cls;
	const char *macs, *other, *read, *write; /* forward totals */
	int bytes_incomplete;
	int evidence; /* expected tlc_evidence of the op's cost; -1 = not checked */
} good_case;

#define T32(shape) "{\"shape\":" shape ",\"dtype\":\"float32\"}"
#define T16(shape) "{\"shape\":" shape ",\"dtype\":\"float16\"}"
#define OP(args, rest) "{\"id\":0,\"op\":\"mylib::f\",\"args\":" args rest "}"

static const good_case GOOD[] = {
	/* erf GELU on [2,64] float32: 128 elements * 5 = 640 other; read and
	 * write 128 * 4 = 512 bytes each; evidence estimated by default */
	{ "gelu", "rule mylib::f\n  macs = 0\n  other = 5 * numel(in0)\n"
	          "  read = bytes(in0)\n  write = bytes(out0)\nend\n",
	  OP("[" T32("[2,64]") "]", ",\"outputs\":[" T32("[2,64]") "]"),
	  TLC_CLASS_KNOWN, "0", "640", "512", "512", 0, TLC_EVIDENCE_ESTIMATED },
	/* linear without bias, x [4,8], w [16,8], float16: numel(x)/8 = 4 rows,
	 * 4 * 16 * 8 = 512 MACs; default read = 32*2 + 128*2 = 320; write
	 * [4,16] = 64 * 2 = 128 */
	{ "linear", "rule mylib::f evidence=formula_exact\n"
	            "  macs = numel(in0) / dim(in0, -1) * dim(in1, 0) * dim(in1, 1)\nend\n",
	  OP("[" T16("[4,8]") "," T16("[16,8]") "]", ",\"outputs\":[" T16("[4,16]") "]"),
	  TLC_CLASS_KNOWN, "512", "0", "320", "128", 0, TLC_EVIDENCE_FORMULA_EXACT },
	/* dim -1 of [3,5,7] is 7, dim -3 is 3: 21; read 105*4 = 420; outputs not
	 * recorded: written bytes unknown (incomplete), not 0 */
	{ "negative_dims", "rule mylib::f\n  macs = dim(in0, -1) * dim(in0, -3)\nend\n",
	  OP("[" T32("[3,5,7]") "]", ""), TLC_CLASS_KNOWN, "21", "0", "420", "0", 1, -1 },
	/* ndim 3 * 10 = 30, groups 4 * 3 = 12, flag true = 1, arg1 = -2:
	 * 30 + 12 + 1 - 2 = 41; read [3,5,7] bfloat16 = 105 * 2 = 210; write 2 */
	{ "ints", "rule mylib::f\n"
	          "  other = ndim(in0) * 10 + int(kw.groups) * 3 + int(kw.flag) + int(arg1)\nend\n",
	  OP("[{\"shape\":[3,5,7],\"dtype\":\"bfloat16\"},-2]",
	     ",\"kwargs\":{\"groups\":4,\"flag\":true},"
	     "\"outputs\":[{\"shape\":[1],\"dtype\":\"bfloat16\"}]"),
	  TLC_CLASS_KNOWN, "0", "41", "210", "2", 0, -1 },
	/* arg0 = [2,3,4]: prod 24 + sum 9 + len 3; arg1 = 5 is a list of one:
	 * prod 5 * 100 + len 1 * 1000: 24 + 9 + 3 + 500 + 1000 = 1536 */
	{ "lists", "rule mylib::f\n  other = prod(arg0) + sum(arg0) + len(arg0) + "
	           "prod(arg1) * 100 + len(arg1) * 1000\nend\n",
	  OP("[[2,3,4],5]", ",\"outputs\":[]"), TLC_CLASS_KNOWN, "0", "1536", "0", "0", 0, -1 },
	/* max(4,7)=7, min(3,2)=2, floordiv(7,2)=3, ceildiv(7,2)=4,
	 * floordiv(-7,2)=-4, ceildiv(-7,2)=-3, 12/4*3 = (12/4)*3 = 9:
	 * 7+2+3+4-4-3+9 = 18. macs: 2 + 12 - 4 - (-1) = 11. read 4*4 = 16 */
	{ "arith", "rule mylib::f\n  macs = 2 + 3 * 4 - (1 + 1) * 2 - -1\n"
	           "  other = max(numel(in0), 7) + min(3, 2) + floordiv(7, 2) + ceildiv(7, 2)"
	           " + floordiv(-7, 2) + ceildiv(-7, 2) + 12 / 4 * 3\nend\n",
	  OP("[" T32("[2,2]") "]", ",\"outputs\":[]"), TLC_CLASS_KNOWN, "11", "18", "16", "0", 0,
	  -1 },
	/* bytes of tensor lists: [2] f32 + [3] f64 = 8 + 24 = 32; [2] f16 and
	 * None = 4; read 36; len 2 + 2 = 4 */
	{ "tensor_lists", "rule mylib::f\n  other = len(arg0) + len(arg1)\n"
	                  "  read = bytes(arg0) + bytes(in1)\n  write = 0\nend\n",
	  OP("[[" T32("[2]") ",{\"shape\":[3],\"dtype\":\"float64\"}],[" T16("[2]") ",null]]", ""),
	  TLC_CLASS_KNOWN, "0", "4", "36", "0", 0, -1 },
	/* default bytes: args and kwargs read except kwarg out: 16 + 8 = 24;
	 * output [4] f32 written: 16; numel(kw.w) = 2 */
	{ "default_bytes", "rule mylib::f\n  other = numel(kw.w)\nend\n",
	  OP("[" T32("[4]") "]", ",\"kwargs\":{\"w\":" T32("[2]") ",\"out\":" T32("[4]") "},"
	     "\"outputs\":[" T32("[4]") "]"),
	  TLC_CLASS_KNOWN, "0", "2", "24", "16", 0, -1 },
	/* numel = 2^32 * 2^32 = 2^64 (past int64). macs = 2^128 =
	 * 340282366920938463463374607431768211456; other = 2^128 / 2^64 / 2^32
	 * = 2^32 = 4294967296; read = 4 * 2^64 = 2^66 = 73786976294838206464 */
	{ "gmp", "rule mylib::f\n  macs = numel(in0) * numel(in0)\n"
	         "  other = numel(in0) * numel(in0) / numel(in0) / 4294967296\n"
	         "  read = bytes(in0)\n  write = 0\nend\n",
	  OP("[" T32("[4294967296,4294967296]") "]", ""), TLC_CLASS_KNOWN,
	  "340282366920938463463374607431768211456", "4294967296", "73786976294838206464", "0", 0,
	  -1 },
	/* 3 * 2^64 - 2 * 2^64 - (2^64 - 1) = 1 through big intermediates;
	 * -(-2^64) / 2 = 2^63 = 9223372036854775808, one past INT64_MAX */
	{ "gmp_back_to_small", "rule mylib::f\n"
	  "  macs = 3 * numel(in0) - 2 * numel(in0) - (9223372036854775807 * 2 + 1)\n"
	  "  other = -(-numel(in0)) / 2\n  read = 0\n  write = 0\nend\n",
	  OP("[" T32("[4294967296,4294967296]") "]", ""), TLC_CLASS_KNOWN, "1",
	  "9223372036854775808", "0", "0", 0, -1 },
	/* CRLF line ends, comments, tabs, other_flops alias: 3 * 4 = 12 */
	{ "crlf", "# comment\r\nrule mylib::f   # trailing\r\n\tother_flops = 3*numel(in0)\r\n"
	          "end\r\n",
	  OP("[" T32("[4]") "]", ",\"outputs\":[]"), TLC_CLASS_KNOWN, "0", "12", "16", "0", 0, -1 },
	/* a UTF-8 note (e.g. a multiplication sign and a Greek letter) is kept */
	{ "utf8_note", "rule mylib::f\n  other = 2\n  note = \"2 \xc3\x97 \xce\xb1, \\\"q\\\"\"\nend\n",
	  OP("[]", ",\"outputs\":[]"), TLC_CLASS_KNOWN, "0", "2", "0", "0", 0, -1 },
	/* optional bias: x [2,3], w [4,3], out [2,4] f32; macs 8 * 3 = 24.
	 * bias None: has() 0, bytes(None) 0: read 24 + 48 = 72, other 0 */
	{ "bias_none", "rule mylib::f\n  macs = numel(out0) * dim(in0, -1)\n"
	  "  other = has(in2) * numel(out0) + has(kw.scale) * 1000 + has(in5) * 7\n"
	  "  read = bytes(in0) + bytes(in1) + bytes(in2)\nend\n",
	  OP("[" T32("[2,3]") "," T32("[4,3]") ",null]", ",\"outputs\":[" T32("[2,4]") "]"),
	  TLC_CLASS_KNOWN, "24", "0", "72", "32", 0, -1 },
	/* bias [4] and kwarg scale present: other 8 + 1000 = 1008; read
	 * 24 + 48 + 16 = 88 */
	{ "bias_present", "rule mylib::f\n  macs = numel(out0) * dim(in0, -1)\n"
	  "  other = has(in2) * numel(out0) + has(kw.scale) * 1000 + has(in5) * 7\n"
	  "  read = bytes(in0) + bytes(in1) + bytes(in2)\nend\n",
	  OP("[" T32("[2,3]") "," T32("[4,3]") "," T32("[4]") "]",
	     ",\"kwargs\":{\"scale\":2},\"outputs\":[" T32("[2,4]") "]"),
	  TLC_CLASS_KNOWN, "24", "1008", "88", "32", 0, -1 },
	/* has(out0) without recorded outputs is 0; with them 1: 0 + 1 */
	{ "has_outputs", "rule mylib::f\n  other = has(out0) + has(in0)\n  write = 0\nend\n",
	  OP("[" T32("[1]") "]", ""), TLC_CLASS_KNOWN, "0", "1", "4", "0", 0, -1 },
	/* kind=zero / structural / decomposed take no formula */
	{ "zero", "rule mylib::f kind=zero\n  note = \"a view: no data moves\"\nend\n",
	  OP("[" T32("[4]") "]", ""), TLC_CLASS_ZERO_BY_RULE, "0", "0", "0", "0", 0, -1 },
	{ "structural", "rule mylib::f kind=structural\nend\n", OP("[]", ""),
	  TLC_CLASS_NOT_APPLICABLE, "0", "0", "0", "0", 0, -1 },
	{ "decomposed", "rule mylib::f kind=decomposed evidence=formula_exact\nend\n",
	  OP("[]", ""), TLC_CLASS_NOT_APPLICABLE, "0", "0", "0", "0", 0, -1 },
	/* overload rule beats the plain name: .bar gives 2 */
	{ "overload", "rule mylib::f\n  other = 1\nend\nrule mylib::f.bar\n  other = 2\nend\n",
	  "{\"id\":0,\"op\":\"mylib::f\",\"overload\":\"bar\",\"args\":[],\"outputs\":[]}",
	  TLC_CLASS_KNOWN, "0", "2", "0", "0", 0, -1 },
	{ "overload_other", "rule mylib::f\n  other = 1\nend\nrule mylib::f.bar\n  other = 2\nend\n",
	  "{\"id\":0,\"op\":\"mylib::f\",\"overload\":\"baz\",\"args\":[],\"outputs\":[]}",
	  TLC_CLASS_KNOWN, "0", "1", "0", "0", 0, -1 },
	/* unknown element size in a bytes field: bytes incomplete, FLOPs still
	 * known: numel [2,2] = 4 */
	{ "bytes_dtype_unknown", "rule mylib::f\n  other = numel(in0)\n  read = bytes(in0)\nend\n",
	  OP("[{\"shape\":[2,2],\"dtype\":\"float4_weird\"}]", ",\"outputs\":[]"),
	  TLC_CLASS_KNOWN, "0", "4", "0", "0", 1, -1 },
};

static void check_good(const good_case *g)
{
	tlc_engine *eng = engine(0);
	load_ok(eng, g->name, g->rules);
	tlc_eval *ev = run_record(eng, g->record);
	assert_int_equal(tlc_eval_op_count(ev), 1);
	const tlc_op_row *row = test_op_at(ev, 0);
	if (row->cls != g->cls)
		fail_msg("%s: class %s (%s), expected %s", g->name, tlc_class_name(row->cls),
		         row->reason ? row->reason : "", tlc_class_name(g->cls));
	check_total(g->name, ev, TLC_TOTAL_MACS, g->macs);
	check_total(g->name, ev, TLC_TOTAL_OTHER_FLOPS, g->other);
	check_total(g->name, ev, TLC_TOTAL_BYTES_READ, g->read);
	check_total(g->name, ev, TLC_TOTAL_BYTES_WRITTEN, g->write);
	if (!!tlc_eval_bytes_incomplete(ev, TLC_PHASE_FORWARD) != g->bytes_incomplete)
		fail_msg("%s: bytes_incomplete is %d", g->name,
		         tlc_eval_bytes_incomplete(ev, TLC_PHASE_FORWARD));
	assert_false(tlc_eval_is_lower_bound(ev));
	if (g->evidence >= 0) {
		assert_non_null(row->cost);
		assert_int_equal(tlc_cost_evidence(row->cost), g->evidence);
	}
	tlc_eval_free(ev);
	tlc_engine_free(eng);
}

static void test_good_files(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof GOOD / sizeof GOOD[0]; i++)
		check_good(&GOOD[i]);
}

/* Notes keep their text: escapes resolved, UTF-8 kept, shown by listings. */
static void test_note_text(void **state)
{
	(void)state;
	tlc_engine *eng = engine(0);
	load_ok(eng, "note", "rule mylib::f\n  other = 2 # a comment\n"
	                     "  note = \"2 \xc3\x97 \xce\xb1, \\\"q\\\" \\\\ # not a comment\"\nend\n"
	                     "rule mylib::g\n  other = 1\nend\n");
	assert_string_equal(find_rule(eng, "mylib::f")->note,
	                    "2 \xc3\x97 \xce\xb1, \"q\" \\ # not a comment");
	assert_string_equal(find_rule(eng, "mylib::g")->note, "");
	assert_int_equal(find_rule(eng, "mylib::g")->evidence, TLC_EVIDENCE_ESTIMATED);
	assert_int_equal(find_rule(eng, "mylib::g")->kind, TLC_RULE_COST);
	tlc_engine_free(eng);
}

/* ---- evaluation failures: unknown, with the reason in the ledger -------- */

typedef struct unknown_case {
	const char *name;
	const char *formula;  /* body lines of `rule mylib::f` */
	const char *record;
	const char *reason;   /* missing_args / bad_args */
	const char *detail;   /* substring of the explanation */
} unknown_case;

static const unknown_case UNKNOWN[] = {
	{ "arg_absent", "  other = numel(in1)\n", OP("[" T32("[2]") "]", ""), "missing_args",
	  "in1 is absent (1 positional arguments recorded)" },
	{ "out_absent", "  other = 1\n  write = bytes(out0)\n", OP("[" T32("[2]") "]", ""),
	  "missing_args", "out0 is not recorded" },
	{ "kwarg_absent", "  other = int(kw.alpha)\n", OP("[]", ""), "missing_args",
	  "keyword argument alpha is absent" },
	{ "arg_none", "  other = numel(in0)\n", OP("[null]", ""), "missing_args", "in0 is None" },
	{ "dtype_unknown_in_flops", "  other = bytes(in0)\n",
	  OP("[{\"shape\":[2],\"dtype\":\"float4_weird\"}]", ""), "missing_args",
	  "other: element size of in0 unknown (dtype float4_weird)" },
	{ "numel_of_int", "  other = numel(in0)\n", OP("[3]", ""), "bad_args",
	  "numel(in0): in0 is an int, not a tensor" },
	{ "div_zero", "  other = numel(in0) / (dim(in0, 0) - 2)\n", OP("[" T32("[2]") "]", ""),
	  "bad_args", "division by zero" },
	{ "floordiv_zero", "  other = floordiv(1, 0)\n", OP("[]", ""), "bad_args",
	  "division by zero" },
	{ "inexact", "  other = numel(in0) / 3\n", OP("[" T32("[2,2]") "]", ""), "bad_args",
	  "exact division" },
	{ "dim_range", "  other = dim(in0, 2)\n", OP("[" T32("[2,2]") "]", ""), "bad_args",
	  "out of range for a tensor with 2 dims" },
	{ "dim_range_neg", "  other = dim(in0, -3)\n", OP("[" T32("[2,2]") "]", ""), "bad_args",
	  "out of range" },
	{ "negative", "  other = 1 - numel(in0)\n", OP("[" T32("[2,2]") "]", ""), "bad_args",
	  "the other formula gave a negative value" },
	{ "int_of_tensor", "  macs = int(in0)\n", OP("[" T32("[2]") "]", ""), "bad_args",
	  "int(in0): in0 is a tensor, not an int" },
	{ "prod_of_tensors", "  other = prod(arg0)\n", OP("[[" T32("[2]") "]]", ""), "bad_args",
	  "prod(arg0): element 0 is a tensor, not an int" },
	{ "len_of_string", "  other = len(arg0)\n", OP("[\"tanh\"]", ""), "bad_args",
	  "len(arg0): arg0 is a string, not a list" },
	/* bytes(None) is 0, but an operand that was not recorded is missing */
	{ "bytes_absent", "  other = 1\n  read = bytes(in1)\n", OP("[null]", ""), "missing_args",
	  "in1 is absent" },
	{ "kwarg_none", "  other = numel(kw.w)\n",
	  OP("[]", ",\"kwargs\":{\"w\":null}"), "missing_args", "keyword argument w is None" },
	/* 62 factors of 2^64 = 2^3968: 3969 bits, past the documented limit */
	{ "too_large",
	  "  macs = numel(in0)*numel(in0)*numel(in0)*numel(in0)*numel(in0)*numel(in0)*"
	  "numel(in0)*numel(in0)*numel(in0)*numel(in0)*numel(in0)*numel(in0)*numel(in0)*"
	  "numel(in0)*numel(in0)*numel(in0)*numel(in0)*numel(in0)*numel(in0)*numel(in0)*"
	  "numel(in0)*numel(in0)*numel(in0)*numel(in0)*numel(in0)*numel(in0)*numel(in0)*"
	  "numel(in0)*numel(in0)*numel(in0)*numel(in0)*numel(in0)*numel(in0)*numel(in0)*"
	  "numel(in0)*numel(in0)*numel(in0)*numel(in0)*numel(in0)*numel(in0)*numel(in0)*"
	  "numel(in0)*numel(in0)*numel(in0)*numel(in0)*numel(in0)*numel(in0)*numel(in0)*"
	  "numel(in0)*numel(in0)*numel(in0)*numel(in0)*numel(in0)*numel(in0)*numel(in0)*"
	  "numel(in0)*numel(in0)*numel(in0)*numel(in0)*numel(in0)*numel(in0)*numel(in0)\n",
	  OP("[" T32("[4294967296,4294967296]") "]", ""), "bad_args", "macs is larger than 2^3968" },
};

static void check_unknown(const unknown_case *u)
{
	char rules[4096];
	snprintf(rules, sizeof rules, "rule mylib::f\n%send\n", u->formula);
	tlc_engine *eng = engine(0);
	load_ok(eng, u->name, rules);
	tlc_eval *ev = run_record(eng, u->record);
	const tlc_op_row *row = test_op_at(ev, 0);
	if (row->cls != TLC_CLASS_UNKNOWN)
		fail_msg("%s: class %s, expected unknown", u->name, tlc_class_name(row->cls));
	assert_true(tlc_eval_is_lower_bound(ev));
	assert_int_equal(tlc_eval_ledger_count(ev), 1);
	const tlc_ledger_entry *e = tlc_eval_ledger_at(ev, 0);
	if (strcmp(e->reason, u->reason) != 0)
		fail_msg("%s: reason %s, expected %s", u->name, e->reason, u->reason);
	assert_contains(u->name, e->detail, u->detail);
	assert_contains(u->name, e->detail, "(rule at ");
	/* unknown is never zero: nothing was added to the totals */
	check_total(u->name, ev, TLC_TOTAL_FLOPS, "0");
	tlc_eval_free(ev);
	tlc_engine_free(eng);
}

static void test_unknown_at_eval(void **state)
{
	(void)state;
	/* the too_large formula really has 62 factors */
	const char *f = UNKNOWN[sizeof UNKNOWN / sizeof UNKNOWN[0] - 1].formula;
	size_t n = 0;
	for (const char *p = f; (p = strstr(p, "numel(")); p++)
		n++;
	assert_int_equal(n, 62);
	for (size_t i = 0; i < sizeof UNKNOWN / sizeof UNKNOWN[0]; i++)
		check_unknown(&UNKNOWN[i]);
}

/* ---- parse errors: code, line, column ----------------------------------- */

typedef struct error_case {
	const char *name;
	const char *text;
	size_t len;           /* 0: strlen(text) */
	const char *code;
	uint64_t line, column; /* column 0: any nonzero column */
	const char *message;  /* substring */
} error_case;

#define R "rule mylib::x\n"

static const error_case ERRORS[] = {
	/* "  macs = 1 +" is 12 bytes: the end of line is column 13 */
	{ "dangling_op", R "  macs = 1 +\nend\n", 0, "rules_parse_error", 2, 13, "end of line" },
	/* "  other = 8 * " is 14 bytes */
	{ "unknown_function", R "  other = 8 * numal(in0)\nend\n", 0, "rules_unknown_function",
	  2, 15, "numal" },
	/* "  other = numel(" is 16 bytes */
	{ "unknown_operand", R "  other = numel(x0)\nend\n", 0, "rules_unknown_operand", 2, 17,
	  "x0" },
	{ "unknown_name", R "  other = 2 * N\nend\n", 0, "rules_unknown_operand", 2, 15, "'N'" },
	{ "leading_zero_index", R "  other = numel(in01)\nend\n", 0, "rules_unknown_operand",
	  2, 17, "in01" },
	{ "operand_as_number", R "  other = in0 * 2\nend\n", 0, "rules_parse_error", 2, 11,
	  "not a number" },
	{ "function_no_parens", R "  other = numel\nend\n", 0, "rules_parse_error", 2, 11,
	  "without arguments" },
	{ "expression_as_operand", R "  other = numel(1)\nend\n", 0, "rules_parse_error", 2, 17,
	  "takes an operand" },
	{ "unclosed_rule", R "  other = 1\n", 0, "rules_parse_error", 1, 6, "not closed" },
	{ "unknown_field", R "  flops = 3\nend\n", 0, "rules_parse_error", 2, 3, "flops" },
	{ "repeated_field", R "  other = 1\n  other = 2\nend\n", 0, "rules_parse_error", 3, 3,
	  "repeated" },
	{ "formula_in_zero", "rule mylib::x kind=zero\n  macs = 1\nend\n", 0,
	  "rules_parse_error", 2, 3, "not kind=cost" },
	{ "zero_without_note", "rule mylib::x kind=zero\nend\n", 0, "rules_parse_error", 1, 6,
	  "no note" },
	{ "cost_without_formula", R "  note = \"n\"\nend\n", 0, "rules_parse_error", 1, 6,
	  "no macs or other" },
	{ "bare_name", "rule fused_gelu\nend\n", 0, "rules_parse_error", 1, 6,
	  "not an operator name" },
	{ "two_overloads", "rule a::b.c.d\nend\n", 0, "rules_parse_error", 1, 6,
	  "not an operator name" },
	{ "name_char", "rule a::b-c\nend\n", 0, "rules_parse_error", 1, 10, "rule name" },
	{ "no_name", "rule\n", 0, "rules_parse_error", 1, 5, "needs an operator name" },
	/* "rule a::b evidence=" is 19 bytes */
	{ "bad_evidence", "rule a::b evidence=exact\n", 0, "rules_parse_error", 1, 20,
	  "unknown evidence 'exact'" },
	{ "bad_kind", "rule a::b kind=fast\n", 0, "rules_parse_error", 1, 16,
	  "unknown kind 'fast'" },
	{ "bad_option", "rule a::b fast\n", 0, "rules_parse_error", 1, 11, "'fast'" },
	{ "repeated_option", "rule a::b override override\n", 0, "rules_parse_error", 1, 20,
	  "repeated" },
	{ "end_without_rule", "end\n", 0, "rules_parse_error", 1, 1, "without a rule" },
	{ "nested_rule", "rule a::b\n  other = 1\nrule a::c\n", 0, "rules_parse_error", 3, 1,
	  "not closed" },
	{ "end_junk", R "  other = 1\nend x\n", 0, "rules_parse_error", 3, 5, "'x'" },
	{ "literal_too_large", R "  other = 99999999999999999999\nend\n", 0, "rules_parse_error",
	  2, 11, "64 bits" },
	{ "unterminated_string", R "  note = \"abc\nend\n", 0, "rules_parse_error", 2, 10,
	  "unterminated" },
	{ "bad_escape", R "  note = \"a\\q\"\nend\n", 0, "rules_parse_error", 2, 12, "escape" },
	{ "dim_one_arg", R "  other = dim(in0)\nend\n", 0, "rules_parse_error", 2, 11,
	  "dim() takes 2 arguments" },
	{ "numel_two_args", R "  other = numel(in0, 1)\nend\n", 0, "rules_parse_error", 2, 11,
	  "numel() takes 1 argument" },
	{ "max_one_arg", R "  other = max(1)\nend\n", 0, "rules_parse_error", 2, 11,
	  "max() takes 2 arguments" },
	{ "missing_equals", R "  other 3\nend\n", 0, "rules_parse_error", 2, 9, "'='" },
	{ "missing_formula", R "  other =\nend\n", 0, "rules_parse_error", 2, 10, "a formula" },
	{ "unclosed_paren", R "  other = (1 + 2\nend\n", 0, "rules_parse_error", 2, 11,
	  "unclosed '('" },
	{ "trailing_junk", R "  macs = 1 2\nend\n", 0, "rules_parse_error", 2, 12, "'2'" },
	{ "number_then_name", R "  macs = 2x\nend\n", 0, "rules_parse_error", 2, 11, "'x'" },
	{ "stray_char", R "  macs = 1 % 2\nend\n", 0, "rules_parse_error", 2, 12, "'%'" },
	{ "non_ascii", R "  macs = 1 \xc3\xa9\nend\n", 0, "rules_parse_error", 2, 12, "0xc3" },
	/* "  other = 1" is 11 bytes, the NUL is at column 12 */
	{ "nul_byte", R "  other = 1\0\nend\n", 31, "rules_parse_error", 2, 12, "NUL" },
	{ "field_outside_rule", "other = 1\n", 0, "rules_parse_error", 1, 1, "`rule NAME`" },
	/* '  note = "ok ' is 13 bytes: the stray continuation byte is column 14 */
	{ "bad_utf8", R "  note = \"ok \x80\"\nend\n", 0, "rules_parse_error", 2, 14, "UTF-8" },
	{ "overlong_utf8", R "  note = \"\xc0\xaf\"\nend\n", 0, "rules_parse_error", 2, 11,
	  "UTF-8" },
	{ "control_char", R "  note = \"a\x01\"\nend\n", 0, "rules_parse_error", 2, 12,
	  "control character" },
};

static void check_error(const error_case *c, const char *text, size_t len)
{
	tlc_engine *eng = engine(1);
	size_t before = tlc_engine_rule_count(eng);
	int rc = tlc_rf__load_mem(eng, "bad.tlrules", text, len);
	const tlc_error *e = tlc_error_last();
	if (rc != TLC_EPARSE || strcmp(e->code, c->code) != 0)
		fail_msg("%s: rc %d code %s (%s), expected %s", c->name, rc, e->code, e->message,
		         c->code);
	assert_non_null(e->file);
	assert_string_equal(e->file, "bad.tlrules");
	if (e->line != c->line || (c->column ? e->column != c->column : e->column == 0))
		fail_msg("%s: at %llu:%llu, expected %llu:%llu (%s)", c->name,
		         (unsigned long long)e->line, (unsigned long long)e->column,
		         (unsigned long long)c->line, (unsigned long long)c->column, e->message);
	assert_contains(c->name, e->message, c->message);
	assert_true(e->remedy && e->remedy[0]);
	assert_int_equal(tlc_engine_rule_count(eng), before);
	tlc_engine_free(eng);
}

static void test_parse_errors(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof ERRORS / sizeof ERRORS[0]; i++) {
		const error_case *c = &ERRORS[i];
		check_error(c, c->text, c->len ? c->len : strlen(c->text));
	}
}

/* Nesting limits: refused with a position, never a deep recursion. */
static void test_nesting_limits(void **state)
{
	(void)state;
	static char text[200000];
	const error_case deep = { "deep_parens", NULL, 0, "rules_parse_error", 2, 0, "nested" };
	const error_case chain = { "long_chain", NULL, 0, "rules_parse_error", 2, 0,
		                   "deeper than 256 operators" };
	/* 65 '(' at columns 11..75: the formula inside starts at column 76 */
	const error_case p65 = { "65_parens", NULL, 0, "rules_parse_error", 2, 76, "nested" };
	const error_case minus = { "65_minus", NULL, 0, "rules_parse_error", 2, 0, "nested" };
	/* 20000 '(' */
	size_t n = (size_t)snprintf(text, sizeof text, R "  other = ");
	for (int i = 0; i < 20000; i++)
		text[n++] = '(';
	n += (size_t)snprintf(text + n, sizeof text - n, "1\nend\n");
	check_error(&deep, text, n);
	/* 1 + 1 + ... with 20000 terms */
	n = (size_t)snprintf(text, sizeof text, R "  other = 1");
	for (int i = 0; i < 20000; i++)
		n += (size_t)snprintf(text + n, sizeof text - n, "+1");
	n += (size_t)snprintf(text + n, sizeof text - n, "\nend\n");
	check_error(&chain, text, n);
	n = (size_t)snprintf(text, sizeof text, R "  other = ");
	for (int i = 0; i < 65; i++)
		text[n++] = '(';
	n += (size_t)snprintf(text + n, sizeof text - n, "1\nend\n");
	check_error(&p65, text, n);
	n = (size_t)snprintf(text, sizeof text, R "  other = ");
	for (int i = 0; i < 65; i++)
		n += (size_t)snprintf(text + n, sizeof text - n, "- ");
	n += (size_t)snprintf(text + n, sizeof text - n, "1\nend\n");
	check_error(&minus, text, n);
	/* 64 nested parentheses are fine: 2 * 1 = 2 */
	n = (size_t)snprintf(text, sizeof text, R "  other = 2 * ");
	for (int i = 0; i < 64; i++)
		text[n++] = '(';
	text[n++] = '1';
	for (int i = 0; i < 64; i++)
		text[n++] = ')';
	n += (size_t)snprintf(text + n, sizeof text - n, "\nend\n");
	text[n] = '\0';
	tlc_engine *eng = engine(0);
	load_ok(eng, "deep_ok", text);
	tlc_eval *ev = run_record(eng, "{\"id\":0,\"op\":\"mylib::x\",\"args\":[],\"outputs\":[]}");
	check_total("deep_ok", ev, TLC_TOTAL_OTHER_FLOPS, "2");
	tlc_eval_free(ev);
	tlc_engine_free(eng);
}

/* ---- registry errors and precedence ------------------------------------- */

static void assert_rule_error(int rc, int klass, const char *code, uint64_t line,
                              uint64_t column)
{
	const tlc_error *e = tlc_error_last();
	if (rc != klass || strcmp(e->code, code) != 0 || e->line != line || e->column != column)
		fail_msg("got %d %s at %llu:%llu (%s), expected %s at %llu:%llu", rc, e->code,
		         (unsigned long long)e->line, (unsigned long long)e->column, e->message, code,
		         (unsigned long long)line, (unsigned long long)column);
	assert_true(e->remedy && e->remedy[0]);
}

/* A built-in name without `override`: rule_duplicate at the rule's name,
 * and the file's earlier rules are removed again. */
static void test_duplicate_builtin(void **state)
{
	(void)state;
	tlc_engine *eng = engine(1);
	size_t before = tlc_engine_rule_count(eng);
	int rc = load(eng, "dup.tlrules", "rule mylib::a\n  other = 1\nend\n"
	                                  "rule aten::gelu\n  other = 1\nend\n");
	assert_rule_error(rc, TLC_EEXISTS, "rule_duplicate", 4, 6);
	assert_string_equal(tlc_error_last()->file, "dup.tlrules");
	assert_int_equal(tlc_engine_rule_count(eng), before);
	assert_null(find_rule(eng, "mylib::a"));
	assert_string_equal(find_rule(eng, "aten::gelu")->provider, "builtin:pointwise");
	assert_int_equal(tlc_engine_notice_count(eng), 0);
	tlc_engine_free(eng);
}

static void test_duplicate_in_file(void **state)
{
	(void)state;
	tlc_engine *eng = engine(0);
	int rc = load(eng, "dup2.tlrules", "rule mylib::a\n  other = 1\nend\n\n"
	                                   "rule  mylib::a\n  other = 2\nend\n");
	assert_rule_error(rc, TLC_EEXISTS, "rule_duplicate", 5, 7);
	assert_int_equal(tlc_engine_rule_count(eng), 0);
	/* the same file loaded twice: its first rule is a duplicate */
	const char *one = "rule mylib::a\n  other = 1\nend\n";
	load_ok(eng, "one.tlrules", one);
	assert_rule_error(load(eng, "one.tlrules", one), TLC_EEXISTS, "rule_duplicate", 1, 6);
	assert_int_equal(tlc_engine_rule_count(eng), 1);
	tlc_engine_free(eng);
}

/* Both copies saying `override` do not make a rule override its own file
 * (issue 23, finding 15): refused at the second, naming both lines, the
 * built-in left as it was; a later file may still override it. */
static void test_override_twice_in_file(void **state)
{
	(void)state;
	tlc_engine *eng = engine(1);
	int rc = load(eng, "twice.tlrules", "rule aten::gelu override\n  other = 7\nend\n"
	                                    "# again\nrule aten::gelu override\n  other = 9\nend\n");
	assert_rule_error(rc, TLC_EEXISTS, "rule_duplicate", 5, 6);
	assert_contains("twice", tlc_error_last()->message, "at line 1 and again at line 5");
	assert_contains("twice", tlc_error_last()->remedy, "override");
	assert_string_equal(find_rule(eng, "aten::gelu")->provider, "builtin:pointwise");
	assert_int_equal(tlc_engine_notice_count(eng), 0);
	/* a rule of no other provider, overridden within its own file */
	rc = load(eng, "own.tlrules", "rule mylib::f override\n  other = 1\nend\n"
	                              "rule mylib::f override\n  other = 2\nend\n");
	assert_rule_error(rc, TLC_EEXISTS, "rule_duplicate", 4, 6);
	assert_contains("own", tlc_error_last()->message, "at line 1 and again at line 4");
	assert_null(find_rule(eng, "mylib::f"));
	/* overriding a built-in, then another file's rule, stays allowed */
	load_ok(eng, "a.tlrules", "rule aten::gelu override\n  other = 7\nend\n");
	load_ok(eng, "b.tlrules", "rule aten::gelu override\n  other = 9\nend\n");
	assert_string_equal(find_rule(eng, "aten::gelu")->provider, "rules:b.tlrules");
	assert_int_equal(tlc_engine_notice_count(eng), 2);
	tlc_engine_free(eng);
}

/* `override` replaces the built-in, reported as a notice naming both
 * providers; the new formula is what evaluation uses. */
static void test_override_builtin(void **state)
{
	(void)state;
	tlc_engine *eng = engine(1);
	size_t before = tlc_engine_rule_count(eng);
	load_ok(eng, "prec.tlrules", "rule aten::gelu override evidence=formula_exact\n"
	                             "  other = 7 * numel(in0)\n  note = \"seven\"\nend\n");
	assert_int_equal(tlc_engine_rule_count(eng), before);
	const tlc_rule_info *r = find_rule(eng, "aten::gelu");
	assert_string_equal(r->provider, "rules:prec.tlrules");
	assert_true(r->overrides);
	assert_string_equal(r->note, "seven");
	assert_int_equal(r->evidence, TLC_EVIDENCE_FORMULA_EXACT);
	assert_int_equal(tlc_engine_notice_count(eng), 1);
	const tlc_notice *n = tlc_engine_notice_at(eng, 0);
	assert_string_equal(n->code, "rule_override");
	assert_contains("notice", n->message, "rules:prec.tlrules");
	assert_contains("notice", n->message, "builtin:pointwise");
	assert_contains("notice", n->message, "aten::gelu");
	/* aten::gelu on [10] float32: 7 * 10 = 70 (the built-in would say 50) */
	tlc_eval *ev = run_record(eng, "{\"id\":0,\"op\":\"aten::gelu\",\"args\":["
	                               T32("[10]") "],\"outputs\":[" T32("[10]") "]}");
	check_total("override", ev, TLC_TOTAL_OTHER_FLOPS, "70");
	tlc_eval_free(ev);
	tlc_engine_free(eng);
}

/* A file that fails after an override takes the override back. */
static void test_failed_file_restores(void **state)
{
	(void)state;
	tlc_engine *eng = engine(1);
	int rc = load(eng, "half.tlrules", "rule aten::gelu override\n  other = 7\nend\n"
	                                   "rule aten::relu\n  other = 1\nend\n");
	assert_rule_error(rc, TLC_EEXISTS, "rule_duplicate", 4, 6);
	assert_string_equal(find_rule(eng, "aten::gelu")->provider, "builtin:pointwise");
	assert_false(find_rule(eng, "aten::gelu")->overrides);
	assert_int_equal(tlc_engine_notice_count(eng), 0);
	tlc_engine_free(eng);
}

/* Two files: a later file overrides an earlier one only with `override`. */
static void test_file_over_file(void **state)
{
	(void)state;
	tlc_engine *eng = engine(0);
	load_ok(eng, "a.tlrules", "rule mylib::f\n  other = 1\nend\n");
	assert_rule_error(load(eng, "b.tlrules", "rule mylib::f\n  other = 2\nend\n"),
	                  TLC_EEXISTS, "rule_duplicate", 1, 6);
	load_ok(eng, "c.tlrules", "rule mylib::f override\n  other = 3\nend\n");
	assert_string_equal(find_rule(eng, "mylib::f")->provider, "rules:c.tlrules");
	assert_int_equal(tlc_engine_notice_count(eng), 1);
	assert_contains("notice", tlc_engine_notice_at(eng, 0)->message, "rules:a.tlrules");
	tlc_eval *ev = run_record(eng, "{\"id\":0,\"op\":\"mylib::f\",\"args\":[],\"outputs\":[]}");
	check_total("file_over_file", ev, TLC_TOTAL_OTHER_FLOPS, "3");
	tlc_eval_free(ev);
	tlc_engine_free(eng);
}

static void test_io_error(void **state)
{
	(void)state;
	tlc_engine *eng = engine(0);
	int rc = tlc_engine_load_rules_file(eng, RULES_FIXTURE_DIR "/does-not-exist.tlrules");
	assert_int_equal(rc, TLC_EIO);
	assert_string_equal(tlc_error_last()->code, "rules_io_error");
	assert_contains("io", tlc_error_last()->file, "does-not-exist.tlrules");
	rc = tlc_engine_load_rules_file(eng, RULES_FIXTURE_DIR); /* a directory */
	assert_int_equal(rc, TLC_EIO);
	assert_string_equal(tlc_error_last()->code, "rules_io_error");
	assert_int_equal(tlc_engine_load_rules_file(NULL, "x"), TLC_EINVAL);
	tlc_engine_free(eng);
}

/* ---- fixture files on disk ---------------------------------------------- */

typedef struct fixture_case {
	const char *file;
	const char *code;     /* NULL: loads */
	uint64_t line, column;
} fixture_case;

static const fixture_case FIXTURES[] = {
	{ "good/custom_ops.tlrules", NULL, 0, 0 },
	{ "bad/syntax.tlrules", "rules_parse_error", 7, 15 },
	{ "bad/unknown_function.tlrules", "rules_unknown_function", 4, 11 },
	{ "bad/unknown_operand.tlrules", "rules_unknown_operand", 3, 17 },
	{ "bad/duplicate_builtin.tlrules", "rule_duplicate", 8, 6 },
	{ "bad/unclosed.tlrules", "rules_parse_error", 2, 6 },
};

static void test_fixture_files(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof FIXTURES / sizeof FIXTURES[0]; i++) {
		const fixture_case *f = &FIXTURES[i];
		char path[1024];
		snprintf(path, sizeof path, "%s/%s", RULES_FIXTURE_DIR, f->file);
		tlc_engine *eng = engine(1);
		int rc = tlc_engine_load_rules_file(eng, path);
		const tlc_error *e = tlc_error_last();
		if (!f->code) {
			if (rc < 0)
				fail_msg("%s: %s: %s at %llu:%llu", f->file, e->code, e->message,
				         (unsigned long long)e->line, (unsigned long long)e->column);
		} else if (rc >= 0 || strcmp(e->code, f->code) != 0 || e->line != f->line ||
		           e->column != f->column || !e->file || strcmp(e->file, path) != 0) {
			fail_msg("%s: rc %d %s at %llu:%llu (%s), expected %s at %llu:%llu", f->file, rc,
			         e->code, (unsigned long long)e->line, (unsigned long long)e->column,
			         e->message, f->code, (unsigned long long)f->line,
			         (unsigned long long)f->column);
		}
		tlc_engine_free(eng);
	}
}

/* ---- the good fixture over its op log ------------------------------------ */

static char *slurp(const char *path, size_t *len);

/* tests/fixtures/rules/good/custom_ops.{tlrules,oplog.jsonl}, by hand:
 *  0 fused_gelu [3,4] f32: other 5*12 = 60, read 48, write 48
 *  1 linear_nobias x [2,3,8], w [5,8] f32: rows 6, macs 6*5*8 = 240,
 *    read (48+40)*4 = 352, write [2,3,5] = 30*4 = 120
 *  2 pool.default x [1,2,6,6], kernel [3,3], out [1,2,2,2]: other 8*9 + 2*0
 *    = 72, read 72*4 = 288, write 8*4 = 32
 *  3 pool_shape [2,2] f32, [1,2,3]: max(2,3) + min(6,3) + 3 + 4 = 13,
 *    read 16, write 0
 *  4 alias: zero_by_rule; 5 wrapper: decomposed (not_applicable), its
 *  child 6 fused_gelu [2] f16: other 10, read 4, write 4; 7 marker:
 *  structural (not_applicable).
 *  macs 240; other 60+72+13+10 = 155; read 48+352+288+16+4 = 708;
 *  written 48+120+32+0+4 = 204; 5 known, 1 zero, 2 not_applicable. */
static void test_good_fixture_eval(void **state)
{
	(void)state;
	tlc_engine *eng = engine(1);
	assert_int_equal(tlc_engine_load_rules_file(eng, RULES_FIXTURE_DIR
	                                            "/good/custom_ops.tlrules"), 0);
	size_t len;
	char *log = slurp(RULES_FIXTURE_DIR "/good/custom_ops.oplog.jsonl", &len);
	tlc_eval *ev = run_log(eng, log, len);
	check_total("custom_ops", ev, TLC_TOTAL_MACS, "240");
	check_total("custom_ops", ev, TLC_TOTAL_OTHER_FLOPS, "155");
	check_total("custom_ops", ev, TLC_TOTAL_BYTES_READ, "708");
	check_total("custom_ops", ev, TLC_TOTAL_BYTES_WRITTEN, "204");
	tlc_coverage cov = TLC_COVERAGE_INIT;
	assert_int_equal(tlc_eval_coverage(&cov, ev), 0);
	assert_int_equal(cov.rows, 8);
	assert_int_equal(cov.by_class[TLC_CLASS_KNOWN], 5);
	assert_int_equal(cov.by_class[TLC_CLASS_ZERO_BY_RULE], 1);
	assert_int_equal(cov.by_class[TLC_CLASS_NOT_APPLICABLE], 2);
	assert_int_equal(cov.by_class[TLC_CLASS_UNKNOWN], 0);
	assert_false(tlc_eval_is_lower_bound(ev));
	tlc_eval_free(ev);
	tlc_engine_free(eng);
	free(log);
}

/* ---- the example: custom_gelu becomes COMPLETE -------------------------- */

static char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	if (!fp)
		fail_msg("cannot open %s", path);
	char *buf = NULL;
	size_t cap = 0, n = 0, got;
	do {
		if (n + 4096 + 1 > cap) {
			cap = (n + 4096 + 1) * 2;
			buf = realloc(buf, cap);
			assert_non_null(buf);
		}
		got = fread(buf + n, 1, 4096, fp);
		n += got;
	} while (got > 0);
	fclose(fp);
	buf[n] = '\0';
	*len = n;
	return buf;
}

static const char *optype_flops(const tlc_eval *ev, const char *name)
{
	for (size_t i = 0; i < tlc_eval_optype_count(ev); i++) {
		const tlc_optype_row *t = tlc_eval_optype_at(ev, i);
		if (strncmp(t->name, name, strlen(name)) == 0)
			return t->flops;
	}
	return NULL;
}

static void test_example_complete(void **state)
{
	(void)state;
	size_t len;
	char *log = slurp(RULES_EXAMPLES_DIR "/custom_gelu.oplog.jsonl", &len);
	tlc_engine *eng = engine(1);
	tlc_eval *before = run_log(eng, log, len);
	assert_true(tlc_eval_is_lower_bound(before));
	assert_int_equal(tlc_eval_ledger_count(before), 1);
	assert_string_equal(tlc_eval_ledger_at(before, 0)->name, "mylib::fused_gelu");
	tlc_eval_free(before);

	assert_int_equal(tlc_engine_load_rules_file(eng, RULES_EXAMPLES_DIR "/fused_gelu.tlrules"), 0);
	tlc_eval *ev = run_log(eng, log, len);
	assert_false(tlc_eval_is_lower_bound(ev));
	assert_int_equal(tlc_eval_ledger_count(ev), 0);
	tlc_coverage cov = TLC_COVERAGE_INIT;
	assert_int_equal(tlc_eval_coverage(&cov, ev), 0);
	assert_int_equal(cov.by_class[TLC_CLASS_UNKNOWN], 0);
	/* two fused_gelu calls on [2,64]: 2 * 5 * 128 = 1280 FLOPs */
	const char *fl = optype_flops(ev, "mylib::fused_gelu");
	assert_non_null(fl);
	assert_string_equal(fl, "1280");
	const tlc_rule_info *r = find_rule(eng, "mylib::fused_gelu");
	assert_int_equal(r->evidence, TLC_EVIDENCE_ESTIMATED);
	assert_contains("example", r->provider, "rules:");
	tlc_eval_free(ev);
	tlc_engine_free(eng);
	free(log);
}

/* ---- docs/rule-files.md: every example is run ---------------------------
 * ```tlrules            a rule file that must load (engine with built-ins)
 * ```tlrules error=CODE line=L column=C    must fail exactly so
 * ```oplog KEY=VALUE... an op log run with the engine of the rule block just
 *                       before it; forward totals macs=, other=, read=,
 *                       written=, and unknown= (ops) are checked. */

typedef struct doc_block {
	char info[256];
	const char *body;
	size_t len;
	unsigned line;
} doc_block;

/* Next fenced block from *pos; 0 when none is left. */
static int next_block(doc_block *b, const char *doc, const char **pos, unsigned *line)
{
	const char *p = *pos;
	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t n = eol ? (size_t)(eol - p) : strlen(p);
		(*line)++;
		if (n >= 3 && strncmp(p, "```", 3) == 0 && n > 3) {
			snprintf(b->info, sizeof b->info, "%.*s", (int)(n - 3), p + 3);
			b->line = *line;
			b->body = eol ? eol + 1 : p + n;
			const char *q = b->body;
			while (*q && strncmp(q, "```", 3) != 0) {
				const char *e2 = strchr(q, '\n');
				(*line)++;
				q = e2 ? e2 + 1 : q + strlen(q);
			}
			if (!*q)
				fail_msg("docs line %u: unclosed block", b->line);
			b->len = (size_t)(q - b->body);
			const char *e3 = strchr(q, '\n');
			(*line)++;
			*pos = e3 ? e3 + 1 : q + strlen(q);
			(void)doc;
			return 1;
		}
		p = eol ? eol + 1 : p + n;
	}
	*pos = p;
	return 0;
}

static const char *info_value(const char *info, const char *key, char *buf, size_t cap)
{
	size_t k = strlen(key);
	for (const char *p = info; (p = strstr(p, key)); p++) {
		if ((p == info || p[-1] == ' ') && p[k] == '=') {
			size_t n = strcspn(p + k + 1, " ");
			snprintf(buf, cap, "%.*s", (int)n, p + k + 1);
			return buf;
		}
	}
	return NULL;
}

static void doc_check_log(const doc_block *b, tlc_engine *eng)
{
	char ctx[64], v[128];
	snprintf(ctx, sizeof ctx, "docs line %u", b->line);
	if (!eng)
		fail_msg("%s: op log block without a rule block before it", ctx);
	tlc_eval *ev = run_log(eng, b->body, b->len);
	static const struct { const char *key; tlc_total t; } keys[] = {
		{ "macs", TLC_TOTAL_MACS }, { "other", TLC_TOTAL_OTHER_FLOPS },
		{ "read", TLC_TOTAL_BYTES_READ }, { "written", TLC_TOTAL_BYTES_WRITTEN },
	};
	int checked = 0;
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		if (info_value(b->info, keys[i].key, v, sizeof v)) {
			check_total(ctx, ev, keys[i].t, v);
			checked++;
		}
	}
	if (info_value(b->info, "unknown", v, sizeof v)) {
		tlc_coverage cov = TLC_COVERAGE_INIT;
		assert_int_equal(tlc_eval_coverage(&cov, ev), 0);
		if (cov.by_class[TLC_CLASS_UNKNOWN] != strtoull(v, NULL, 10))
			fail_msg("%s: %llu unknown ops, expected %s", ctx,
			         (unsigned long long)cov.by_class[TLC_CLASS_UNKNOWN], v);
		checked++;
	}
	if (!checked)
		fail_msg("%s: op log block checks nothing", ctx);
	tlc_eval_free(ev);
}

static void doc_check_error(const doc_block *b, tlc_engine *eng)
{
	char code[64], line[32], col[32];
	if (!info_value(b->info, "error", code, sizeof code) ||
	    !info_value(b->info, "line", line, sizeof line) ||
	    !info_value(b->info, "column", col, sizeof col))
		fail_msg("docs line %u: error block needs error=, line= and column=", b->line);
	int rc = tlc_rf__load_mem(eng, "docs.tlrules", b->body, b->len);
	const tlc_error *e = tlc_error_last();
	if (rc >= 0 || strcmp(e->code, code) != 0 || e->line != strtoull(line, NULL, 10) ||
	    e->column != strtoull(col, NULL, 10))
		fail_msg("docs line %u: got rc %d %s at %llu:%llu (%s), expected %s at %s:%s",
		         b->line, rc, e->code, (unsigned long long)e->line,
		         (unsigned long long)e->column, e->message, code, line, col);
}

static void test_docs_examples(void **state)
{
	(void)state;
	size_t len;
	char *doc = slurp(RULES_DOCS, &len);
	const char *pos = doc;
	unsigned line = 0, nrules = 0, nerrors = 0, nlogs = 0;
	doc_block b;
	tlc_engine *eng = NULL;
	while (next_block(&b, doc, &pos, &line)) {
		if (strncmp(b.info, "tlrules", 7) == 0 && strstr(b.info, "error=")) {
			tlc_engine *scratch = engine(1);
			doc_check_error(&b, scratch);
			tlc_engine_free(scratch);
			nerrors++;
		} else if (strncmp(b.info, "tlrules", 7) == 0) {
			tlc_engine_free(eng);
			eng = engine(1);
			char name[64];
			snprintf(name, sizeof name, "docs line %u", b.line);
			if (tlc_rf__load_mem(eng, name, b.body, b.len) < 0)
				fail_msg("%s: %s: %s at %llu:%llu", name, tlc_error_last()->code,
				         tlc_error_last()->message,
				         (unsigned long long)tlc_error_last()->line,
				         (unsigned long long)tlc_error_last()->column);
			nrules++;
		} else if (strncmp(b.info, "oplog", 5) == 0) {
			doc_check_log(&b, eng);
			nlogs++;
		}
	}
	tlc_engine_free(eng);
	free(doc);
	/* the page keeps its examples: a silent extraction failure must not pass */
	assert_true(nrules >= 4);
	assert_true(nerrors >= 3);
	assert_true(nlogs >= 4);
}

/* ---- allocation failures: every one is an error, never a crash or leak -- */

typedef struct fail_alloc {
	long left; /* allocations before failing; < 0: never fail */
} fail_alloc;

static void *fa_malloc(size_t n, void *p)
{
	fail_alloc *f = p;
	if (f->left == 0)
		return NULL;
	if (f->left > 0)
		f->left--;
	return malloc(n);
}

static void *fa_realloc(void *q, size_t n, void *p)
{
	fail_alloc *f = p;
	if (f->left == 0)
		return NULL;
	if (f->left > 0)
		f->left--;
	return realloc(q, n);
}

static void fa_free(void *q, void *p)
{
	(void)p;
	free(q);
}

static void test_allocation_failures(void **state)
{
	(void)state;
	const char *text = "rule mylib::a override\n  other = 5 * numel(in0) + max(1, 2)\n"
	                   "  note = \"n\"\nend\nrule mylib::b kind=zero\n  note = \"z\"\nend\n";
	int ok = 0;
	for (long n = 0; n < 200 && !ok; n++) {
		fail_alloc f = { -1 };
		tlc_allocator a = { fa_malloc, fa_realloc, fa_free, &f };
		tlc_engine_options o = { sizeof o, TLC_ENGINE_NO_BUILTINS, &a };
		tlc_engine *eng = NULL;
		assert_int_equal(tlc_engine_new(&eng, &o), 0);
		f.left = n;
		int rc = load(eng, "oom.tlrules", text);
		if (rc == 0) {
			ok = 1;
			assert_int_equal(tlc_engine_rule_count(eng), 2);
		} else {
			assert_int_equal(rc, TLC_ENOMEM);
			assert_int_equal(tlc_engine_rule_count(eng), 0);
		}
		tlc_engine_free(eng);
	}
	assert_true(ok);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_files),
		cmocka_unit_test(test_note_text),
		cmocka_unit_test(test_unknown_at_eval),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_nesting_limits),
		cmocka_unit_test(test_duplicate_builtin),
		cmocka_unit_test(test_duplicate_in_file),
		cmocka_unit_test(test_override_twice_in_file),
		cmocka_unit_test(test_override_builtin),
		cmocka_unit_test(test_failed_file_restores),
		cmocka_unit_test(test_file_over_file),
		cmocka_unit_test(test_io_error),
		cmocka_unit_test(test_fixture_files),
		cmocka_unit_test(test_good_fixture_eval),
		cmocka_unit_test(test_example_complete),
		cmocka_unit_test(test_docs_examples),
		cmocka_unit_test(test_allocation_failures),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
