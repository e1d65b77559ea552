/* Capture pairing through the API (include/tlcost/capture_pair.h): the
 * hand-made pair of tests/fixtures/capture (see tests/cli/capture_pair_cli.sh
 * for the hand derivation), the added ops' costs, and misuse. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "tlcost/tlcost.h"
#include "../fixture.h"

#define fixture(name) fx_fixture("capture", name)

/* Graph 1 = [k_gemm, k_relu], graph 2 = [k_gemm, k_sigmoid]; the replay's
 * three launches match graph 1, graph 2 and none. */
static void pair_fixture(void **state)
{
	fx *f = *state;
	const char *cap[] = { fixture("capture_two_graphs.json") };
	assert_int_equal(tlc_input_read(f->ev, fixture("replay_three_launches.json")), 0);
	assert_int_equal(tlc_capture_pair(f->ev, cap, 1, NULL), 0);
	assert_int_equal(tlc_eval_finish(f->ev), 0);
	tlc_capture_pair_summary s = TLC_CAPTURE_PAIR_SUMMARY_INIT;
	assert_int_equal(tlc_capture_pair_summary_get(f->ev, &s), 1);
	assert_int_equal(s.captures, 1);
	assert_int_equal(s.graphs, 2);
	assert_int_equal(s.graph_launches, 3);
	assert_int_equal(s.matched, 2);
	assert_int_equal(s.ambiguous, 0);
	assert_int_equal(s.unmatched, 1);
	assert_int_equal(s.ops_added, 4);
	assert_int_equal(tlc_join_run(&f->j, f->ev, NULL), 0);
	int64_t ns = 0;
	assert_int_equal(tlc_join_capture_paired(f->j, &ns), 4);
	assert_int_equal(ns, 27000); /* 10 + 5 + 8 + 4 us */
	/* launch 1 (k_gemm of the first graph launch) is on the added aten::mm
	 * [4,8]x[8,16]: 4*8*16 = 512 MACs */
	tlc_join_launch l = TLC_JOIN_LAUNCH_INIT;
	assert_int_equal(tlc_join_launch_get(f->j, 1, &l), 0);
	assert_int_equal(l.status, TLC_ATTR_ATTRIBUTED);
	tlc_op_row r = TLC_OP_ROW_INIT;
	assert_int_equal(tlc_eval_op_get(f->ev, (size_t)l.op_row, &r), 0);
	assert_true(r.id >= (int64_t)1 << 44); /* an added op's id */
	assert_string_equal(r.name, "aten::mm");
	assert_int_equal(r.cls, TLC_CLASS_KNOWN);
	uint64_t macs = 0;
	assert_int_equal(tlc_cost_get_u64(&macs, r.cost, TLC_FIELD_MACS), 0);
	assert_int_equal(macs, 512);
	assert_int_equal(r.kernel_time_ns, 10000);
	/* the unmatched launch keeps its cause */
	assert_int_equal(tlc_join_launch_get(f->j, 5, &l), 0);
	assert_int_equal(l.status, TLC_ATTR_UNATTRIBUTED);
	assert_non_null(strstr(l.why, "matches no captured graph"));
}

static void misuse(void **state)
{
	fx *f = *state;
	const char *cap[] = { fixture("capture_two_graphs.json") };
	assert_int_equal(tlc_capture_pair(NULL, cap, 1, NULL), TLC_EINVAL);
	assert_int_equal(tlc_capture_pair(f->ev, NULL, 1, NULL), TLC_EINVAL);
	assert_int_equal(tlc_input_read(f->ev, fixture("replay_three_launches.json")), 0);
	assert_int_equal(tlc_eval_finish(f->ev), 0);
	assert_int_equal(tlc_capture_pair(f->ev, cap, 1, NULL), TLC_ESTATE);
	assert_string_equal(tlc_error_last()->code, "eval_finished");
	/* not paired: 0, zeroed */
	tlc_capture_pair_summary s = TLC_CAPTURE_PAIR_SUMMARY_INIT;
	s.matched = 7;
	assert_int_equal(tlc_capture_pair_summary_get(f->ev, &s), 0);
	assert_int_equal(s.matched, 0);
	assert_int_equal(s.size, sizeof s);
	s.size = 2;
	assert_int_equal(tlc_capture_pair_summary_get(f->ev, &s), TLC_EINVAL);
	assert_int_equal(tlc_join_capture_paired(NULL, NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(pair_fixture, fx_setup_eval, fx_teardown),
		cmocka_unit_test_setup_teardown(misuse, fx_setup_eval, fx_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
