/* Error codes of the catalogue (docs/errors.md) that no other test reached:
 * each is provoked the way an API user could, and must come back typed:
 * the negative TLC_E* class returned, the code, a message and a non-empty
 * remedy in tlc_error_last(). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "tlcost/tlcost.h"
#include "../fixture.h"
#include "../rows_util.h"

static void assert_typed(int rc, int klass, const char *code)
{
	const tlc_error *e = tlc_error_last();
	assert_int_equal(rc, klass);
	assert_int_equal(e->klass, klass);
	assert_non_null(e->code);
	assert_string_equal(e->code, code);
	assert_non_null(e->message);
	assert_true(e->message[0] != '\0');
	assert_non_null(e->remedy);
	assert_true(e->remedy[0] != '\0');
}

static const char relu_log[] =
	"{\"format\":\"tlcost-oplog\",\"version\":1}\n"
	"{\"id\":0,\"op\":\"aten::relu\",\"args\":[{\"shape\":[2,3],\"dtype\":\"float32\"}],"
	"\"outputs\":[{\"shape\":[2,3],\"dtype\":\"float32\"}]}\n";

/* eval_not_finished: results read before tlc_eval_finish; eval_finished:
 * an op pushed after it. */
static void test_eval_state(void **state)
{
	fx *f = *state;
	assert_int_equal(tlc_oplog_read_mem(f->ev, relu_log, sizeof relu_log - 1, "t.jsonl"), 0);
	char *s = NULL;
	assert_typed(tlc_eval_total_str(&s, f->ev, TLC_PHASE_FORWARD, TLC_TOTAL_FLOPS),
	             TLC_ESTATE, "eval_not_finished");
	assert_null(s);
	assert_int_equal(tlc_eval_finish(f->ev), 0);
	assert_int_equal(tlc_eval_total_str(&s, f->ev, TLC_PHASE_FORWARD, TLC_TOTAL_FLOPS), 0);
	assert_string_equal(s, "6"); /* relu over 6 elements: 1 compare each */
	tlc_free(s);

	tlc_op op;
	memset(&op, 0, sizeof op);
	op.size = sizeof op;
	op.id = 1;
	op.name = "aten::relu";
	assert_typed(tlc_eval_push_op(f->ev, &op), TLC_ESTATE, "eval_finished");
	/* the refused op changed nothing */
	tlc_coverage cov = TLC_COVERAGE_INIT;
	assert_int_equal(tlc_eval_coverage(&cov, f->ev), 0);
	assert_int_equal(cov.rows, 1);
}

/* device_record_invalid: a device record of a kind past the enum. */
static void test_device_record_kind(void **state)
{
	fx *f = *state;
	tlc_device_record rec;
	memset(&rec, 0, sizeof rec);
	rec.size = sizeof rec;
	rec.kind = (tlc_device_kind)99;
	rec.start_ns = 1;
	rec.end_ns = 2;
	assert_typed(tlc_eval_push_device(f->ev, &rec), TLC_EINPUT, "device_record_invalid");
	assert_int_equal(tlc_eval_finish(f->ev), 0);
	tlc_coverage cov = TLC_COVERAGE_INIT;
	assert_int_equal(tlc_eval_coverage(&cov, f->ev), 0);
	assert_int_equal(cov.device_records, 0);
}

/* format_unsupported: the flops, ledger and rules writers have no CSV. */
static void test_format_unsupported(void **state)
{
	fx *f = *state;
	assert_int_equal(tlc_oplog_read_mem(f->ev, relu_log, sizeof relu_log - 1, "t.jsonl"), 0);
	assert_int_equal(tlc_eval_finish(f->ev), 0);
	FILE *sink = fopen("/dev/null", "w");
	assert_non_null(sink);
	assert_typed(tlc_write_flops(sink, f->ev, TLC_FORMAT_CSV), TLC_EINVAL, "format_unsupported");
	assert_typed(tlc_write_ledger(sink, f->ev, TLC_FORMAT_CSV), TLC_EINVAL, "format_unsupported");
	assert_typed(tlc_write_rules(sink, f->eng, TLC_FORMAT_CSV), TLC_EINVAL, "format_unsupported");
	assert_typed(tlc_write_flops(sink, f->ev, (tlc_format)42), TLC_EINVAL, "format_unsupported");
	fclose(sink);
}

/* value_exceeds_u64: a relu over [2^32, 2^32] float32 has 2^64 elements,
 * one past UINT64_MAX: the 64-bit readers refuse, the string readers give
 * 18446744073709551616 (2^64) FLOPs and 4 * 2^64 = 73786976294838206464
 * bytes read. */
static void test_value_exceeds_u64(void **state)
{
	fx *f = *state;
	static const char log[] =
		"{\"format\":\"tlcost-oplog\",\"version\":1}\n"
		"{\"id\":0,\"op\":\"aten::relu\",\"args\":[{\"shape\":[4294967296,4294967296],"
		"\"dtype\":\"float32\"}],\"outputs\":[{\"shape\":[4294967296,4294967296],"
		"\"dtype\":\"float32\"}]}\n";
	assert_int_equal(tlc_oplog_read_mem(f->ev, log, sizeof log - 1, "big.jsonl"), 0);
	assert_int_equal(tlc_eval_finish(f->ev), 0);
	uint64_t u = 7;
	assert_typed(tlc_eval_total_u64(&u, f->ev, TLC_PHASE_FORWARD, TLC_TOTAL_FLOPS),
	             TLC_EOVERFLOW, "value_exceeds_u64");
	char *s = NULL;
	assert_int_equal(tlc_eval_total_str(&s, f->ev, TLC_PHASE_FORWARD, TLC_TOTAL_FLOPS), 0);
	assert_string_equal(s, "18446744073709551616");
	tlc_free(s);

	assert_int_equal(tlc_eval_op_count(f->ev), 1);
	const tlc_cost *c = test_op_at(f->ev, 0)->cost;
	assert_non_null(c);
	assert_typed(tlc_cost_get_u64(&u, c, TLC_FIELD_BYTES_READ), TLC_EOVERFLOW,
	             "value_exceeds_u64");
	assert_int_equal(tlc_cost_get_str(&s, c, TLC_FIELD_BYTES_READ), 0);
	assert_string_equal(s, "73786976294838206464");
	tlc_free(s);
	/* a value that fits is still read */
	assert_int_equal(tlc_cost_get_u64(&u, c, TLC_FIELD_MACS), 0);
	assert_int_equal(u, 0);
}

/* saved_join_incomplete: a join saved with a recorder that never saw the
 * evaluation's ops (it was not the eval's on_op) would lose them: refused,
 * nothing written. */
static void test_saved_join_incomplete(void **state)
{
	fx *f = *state;
	assert_int_equal(tlc_oplog_read_mem(f->ev, relu_log, sizeof relu_log - 1, "t.jsonl"), 0);
	assert_int_equal(tlc_eval_finish(f->ev), 0);
	tlc_join *j = NULL;
	assert_int_equal(tlc_join_run(&j, f->ev, NULL), 0);
	tlc_op_recorder *rec = NULL;
	assert_int_equal(tlc_op_recorder_new(&rec), 0);
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	assert_non_null(out);
	assert_typed(tlc_join_save(out, j, f->ev, rec), TLC_ESTATE, "saved_join_incomplete");
	fclose(out);
	assert_int_equal(len, 0);
	free(text);
	tlc_op_recorder_free(rec);
	tlc_join_free(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_eval_state, fx_setup_eval, fx_teardown),
		cmocka_unit_test_setup_teardown(test_device_record_kind, fx_setup_eval, fx_teardown),
		cmocka_unit_test_setup_teardown(test_format_unsupported, fx_setup_eval, fx_teardown),
		cmocka_unit_test_setup_teardown(test_value_exceeds_u64, fx_setup_eval, fx_teardown),
		cmocka_unit_test_setup_teardown(test_saved_join_incomplete, fx_setup_eval, fx_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
