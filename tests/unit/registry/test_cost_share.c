/* Kept row costs are shared across a collective (issue 24, memory on the
 * trace path). The eval keeps one tlc_cost per distinct cost and points
 * every equal row at it (engine/eval/eval.c share_cost). A collective's
 * comm kind, group and flags used to stay in the eval's scratch cost after
 * its op, so every op after the first collective compared unequal to the
 * kept costs and got a cost of its own: on the shared B200 trace replicated
 * 203 times that was 340 MiB of peak RSS instead of 145.
 *
 * The trace: aten::mm [4,8] x [8,16] before and after a c10d::allreduce_
 * (with its record_param_comms: allreduce of 64 floats in a group of 4).
 * Expected by hand: both mm rows have the same cost, 4 * 8 * 16 = 512 MACs
 * (1024 FLOPs), so they must share one tlc_cost (the same pointer); the
 * allreduce's cost carries its collective (tlc_cost_comm: allreduce, group
 * 4), the mm costs carry none. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tlcost/tlcost.h"

static const char trace[] =
	"{\"schemaVersion\": 1,"
	" \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 0, \"world_size\": 4},"
	" \"traceEvents\": ["
	"{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 1, \"tid\": 1,"
	" \"ts\": 10, \"dur\": 5, \"args\": {\"External id\": 1,"
	" \"Input Dims\": [[4, 8], [8, 16]], \"Input type\": [\"float\", \"float\"]}},"
	"{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"c10d::allreduce_\", \"pid\": 1, \"tid\": 1,"
	" \"ts\": 20, \"dur\": 30, \"args\": {\"External id\": 2,"
	" \"Input Dims\": [[[64]], [], [], [], []],"
	" \"Input type\": [\"TensorList\", \"\", \"\", \"\", \"Scalar\"]}},"
	"{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"record_param_comms\", \"pid\": 1, \"tid\": 1,"
	" \"ts\": 21, \"dur\": 20, \"args\": {\"External id\": 3, \"Collective name\": \"allreduce\","
	" \"dtype\": \"Float\", \"In msg nelems\": 64, \"Out msg nelems\": 64, \"Group size\": 4,"
	" \"Process Group Ranks\": \"[0, 1, 2, 3]\"}},"
	"{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 1, \"tid\": 1,"
	" \"ts\": 60, \"dur\": 5, \"args\": {\"External id\": 4,"
	" \"Input Dims\": [[4, 8], [8, 16]], \"Input type\": [\"float\", \"float\"]}}"
	"]}";

typedef struct seen {
	const tlc_cost *mm[2];
	size_t nmm;
	const tlc_cost *comm;
} seen;

static void on_op(const tlc_op *op, const tlc_op_row *row, void *payload)
{
	seen *s = payload;
	(void)op;
	if (strcmp(row->name, "aten::mm") == 0 && s->nmm < 2)
		s->mm[s->nmm++] = row->cost;
	else if (strcmp(row->name, "c10d::allreduce_") == 0 && row->cost)
		s->comm = row->cost;
}

static void mm_costs_shared_after_collective(void **state)
{
	(void)state;
	tlc_engine *eng = NULL;
	tlc_eval *ev = NULL;
	seen s;
	memset(&s, 0, sizeof s);
	assert_int_equal(tlc_engine_new(&eng, NULL), 0);
	tlc_eval_options o = { sizeof o, 1, on_op, &s };
	assert_int_equal(tlc_eval_new(&ev, eng, &o), 0);
	assert_int_equal(tlc_trace_read_mem(ev, trace, sizeof trace - 1, "t.json"), 0);
	assert_int_equal(tlc_eval_finish(ev), 0);

	assert_int_equal(s.nmm, 2);
	assert_non_null(s.mm[0]);
	assert_non_null(s.mm[1]);
	uint64_t f0 = 0, f1 = 0;
	assert_int_equal(tlc_cost_get_u64(&f0, s.mm[0], TLC_FIELD_MACS), 0);
	assert_int_equal(tlc_cost_get_u64(&f1, s.mm[1], TLC_FIELD_MACS), 0);
	assert_true(f0 == 512 && f1 == 512); /* 4 * 8 * 16 multiply-adds */
	/* the collective in between carries its comm facts ... */
	assert_non_null(s.comm);
	tlc_comm_kind k;
	int64_t group = 0;
	char *msg = NULL, *bus = NULL;
	assert_int_equal(tlc_cost_comm(s.comm, &k, &group, &msg, &bus), 1);
	assert_int_equal(k, TLC_COMM_ALLREDUCE);
	assert_int_equal(group, 4);
	tlc_free(msg);
	tlc_free(bus);
	/* ... and the mm costs none */
	assert_int_equal(tlc_cost_comm(s.mm[1], &k, &group, NULL, NULL), 0);
	/* equal costs are one kept cost, before and after the collective */
	assert_ptr_equal(s.mm[0], s.mm[1]);

	tlc_eval_free(ev);
	tlc_engine_free(eng);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mm_costs_shared_after_collective),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
