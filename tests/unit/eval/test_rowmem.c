/* Compact held records (issue 17 item 3): rows with equal costs share one
 * kept cost without losing exactness, row lookup by id works whatever the
 * id order, and per-device join totals are the same whether or not the
 * launches come in start order (the join's no-sort path and its sort path).
 * Expected values are worked out by hand in the comments; times in the
 * traces are microseconds, the join reports nanoseconds. */
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
#include "../rows_util.h"

#define MM(ts, ext, dims, type) \
	"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":1,\"tid\":1,\"ts\":" #ts \
	",\"dur\":5,\"args\":{\"External id\":" #ext ",\"Input Dims\":" dims \
	",\"Input type\":[\"" type "\",\"" type "\"]}},"
#define OP(name, ts, dur, ext) \
	"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"" name "\",\"pid\":1,\"tid\":1,\"ts\":" #ts \
	",\"dur\":" #dur ",\"args\":{\"External id\":" #ext "}},"
#define RT(ts, corr, ext) \
	"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1," \
	"\"ts\":" #ts ",\"dur\":1,\"args\":{\"External id\":" #ext ",\"correlation\":" #corr "}},"
#define K(dev, ts, dur, corr) \
	"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":" #dev ",\"tid\":7,\"ts\":" #ts \
	",\"dur\":" #dur ",\"args\":{\"device\":" #dev ",\"stream\":7,\"correlation\":" #corr "}},"
#define TRACE(events) "{\"traceEvents\":[" events "{\"ph\":\"M\",\"name\":\"end\",\"pid\":1,\"tid\":0}]}"

static void load(fx *f, const char *json, int with_join)
{
	fx_read_trace(f, json, 1);
	if (with_join)
		fx_ok(tlc_join_run(&f->j, f->ev, NULL), "tlc_join_run");
}

/* The row whose op carried External id ext (rows of a trace take it as id). */
static const tlc_op_row *row_of(const fx *f, int64_t ext, size_t *at)
{
	for (size_t i = 0; i < tlc_eval_op_count(f->ev); i++)
		if (test_op_id(f->ev, i) == ext) {
			if (at)
				*at = i;
			return test_op_at(f->ev, i);
		}
	fail_msg("no row with id %lld", (long long)ext);
	return NULL;
}

static void expect_field(const tlc_cost *c, tlc_cost_field fld, const char *want)
{
	char *s = NULL;
	assert_int_equal(tlc_cost_get_str(&s, c, fld), 0);
	assert_string_equal(s, want);
	tlc_free(s);
}

/* aten::mm of [m,k] x [k,n]: m*k*n MACs; reads (m*k + k*n) elements and
 * writes m*n, 4 bytes each for float, 8 for double.
 *   ids 1, 3: [4,8]x[8,16] float -> 512 MACs, 640 bytes read, 256 written
 *   id 2:     [3,5]x[5,7] float  -> 105 MACs, 200 read, 84 written
 *   id 4:     [4,8]x[8,16] double -> 512 MACs, 1280 read, 512 written
 *   id 5:     [2^32,2^32]x[2^32,2^32] float -> 2^96 MACs
 *             = 79228162514264337593543950336 (a value past 64 bits)
 *   id 6:     the same as id 5 */
static void equal_costs_shared_exactly(void **state)
{
	fx *f = *state;
	load(f, TRACE(MM(0, 1, "[[4,8],[8,16]]", "float") MM(10, 2, "[[3,5],[5,7]]", "float")
	              MM(20, 3, "[[4,8],[8,16]]", "float") MM(30, 4, "[[4,8],[8,16]]", "double")
	              MM(40, 5, "[[4294967296,4294967296],[4294967296,4294967296]]", "float")
	              MM(50, 6, "[[4294967296,4294967296],[4294967296,4294967296]]", "float")), 0);
	assert_int_equal(tlc_eval_op_count(f->ev), 6);
	const tlc_op_row *r1 = row_of(f, 1, NULL), *r2 = row_of(f, 2, NULL), *r3 = row_of(f, 3, NULL),
	                 *r4 = row_of(f, 4, NULL), *r5 = row_of(f, 5, NULL), *r6 = row_of(f, 6, NULL);
	for (int64_t id = 1; id <= 6; id++)
		assert_non_null(row_of(f, id, NULL)->cost);
	/* equal costs are kept once; unequal ones are not merged */
	assert_ptr_equal(r1->cost, r3->cost);
	assert_ptr_equal(r5->cost, r6->cost);
	assert_ptr_not_equal(r1->cost, r2->cost);
	assert_ptr_not_equal(r1->cost, r4->cost);
	expect_field(r1->cost, TLC_FIELD_MACS, "512");
	expect_field(r1->cost, TLC_FIELD_BYTES_READ, "640");
	expect_field(r1->cost, TLC_FIELD_BYTES_WRITTEN, "256");
	expect_field(r2->cost, TLC_FIELD_MACS, "105");
	expect_field(r2->cost, TLC_FIELD_BYTES_READ, "200");
	expect_field(r2->cost, TLC_FIELD_BYTES_WRITTEN, "84");
	expect_field(r4->cost, TLC_FIELD_MACS, "512");
	expect_field(r4->cost, TLC_FIELD_BYTES_READ, "1280");
	expect_field(r4->cost, TLC_FIELD_BYTES_WRITTEN, "512");
	expect_field(r5->cost, TLC_FIELD_MACS, "79228162514264337593543950336");
	/* total MACs (all forward): 3 * 512 + 105 + 2 * 2^96 = 158456325028528675187087902313
	 * (summed by hand, checked with Python integers) */
	char *tot = NULL;
	assert_int_equal(tlc_eval_total_str(&tot, f->ev, TLC_PHASE_FORWARD, TLC_TOTAL_MACS), 0);
	assert_string_equal(tot, "158456325028528675187087902313");
	tlc_free(tot);
}

/* Ids far apart and out of order: the parent (id 900) comes first in the
 * file and has the largest id; its child (id 5, an op without a rule) is
 * nested in it and launches the kernel; id 70 is a later top-level op.
 * The roll-up walks from the child to its parent by id. */
static void rollup_finds_parent_by_id(void **state)
{
	fx *f = *state;
	load(f, TRACE(MM(0, 900, "[[4,8],[8,16]]", "float")
	              OP("my::inner", 1, 3, 5) RT(2, 77, 5) K(0, 100, 30, 77)
	              OP("my::later", 50, 5, 70)), 1);
	size_t parent, child, later;
	row_of(f, 900, &parent);
	row_of(f, 5, &child);
	row_of(f, 70, &later);
	int64_t counted = -9;
	assert_int_equal(tlc_join_rollup(&counted, f->j, child), 0);
	assert_int_equal(counted, (int64_t)parent);
	assert_int_equal(tlc_join_counted_kernel_ns(f->j, parent), 30000);
	assert_int_equal(tlc_join_rollup(&counted, f->j, later), 0);
	assert_int_equal(counted, -1); /* no rule and no counted ancestor */
}

/* Device 0: [100,110] and [105,115] us -> busy 15 us (the union), device
 * time 20 us. Device 1: [200,210] and [250,260] -> busy 20, device 20. */
static void expect_devices(const fx *f)
{
	assert_int_equal(tlc_join_device_count(f->j), 2);
	const tlc_join_device *d0 = tlc_join_device_at(f->j, 0), *d1 = tlc_join_device_at(f->j, 1);
	assert_int_equal(d0->device, 0);
	assert_int_equal(d0->launches, 2);
	assert_int_equal(d0->busy_ns, 15000);
	assert_int_equal(d0->device_ns, 20000);
	assert_int_equal(d0->kernel_ns, 20000);
	assert_int_equal(d1->device, 1);
	assert_int_equal(d1->launches, 2);
	assert_int_equal(d1->busy_ns, 20000);
	assert_int_equal(d1->device_ns, 20000);
	assert_int_equal(tlc_join_get_summary(f->j)->busy_ns, 35000);
}

static void devices_in_start_order(void **state)
{
	fx *f = *state;
	load(f, TRACE(OP("my::op", 0, 5, 1) K(1, 200, 10, 3) K(0, 100, 10, 1) K(1, 250, 10, 4)
	              K(0, 105, 10, 2)), 1);
	expect_devices(f);
}

/* The same records, device 1's in reverse start order: the sort path. */
static void devices_out_of_order(void **state)
{
	fx *f = *state;
	load(f, TRACE(OP("my::op", 0, 5, 1) K(1, 250, 10, 4) K(0, 100, 10, 1) K(1, 200, 10, 3)
	              K(0, 105, 10, 2)), 1);
	expect_devices(f);
}

/* The public accessors fill a caller's struct from the compact stores.
 * From the trace text: the runtime call RT(2, 77, 5) is record 0 (start 2
 * us, dur 1 us -> [2000, 3000] ns, correlation 77, external id 5, pid 1 ->
 * device 1, tid 1 -> thread 1); the kernel K(0, 100, 30, 77) is record 1
 * ([100000, 130000] ns, device 0, stream 7, correlation 77, name "k"). Its
 * launch names record 1, runtime record 0, and op 5 ("my::inner"). Sizes
 * below the first layout, NULL and out-of-range indices are
 * invalid_argument; a size larger than the library's is filled up to the
 * library's layout. */
static void accessors_fill_callers_struct(void **state)
{
	fx *f = *state;
	load(f, TRACE(OP("my::inner", 1, 3, 5) RT(2, 77, 5) K(0, 100, 30, 77)), 1);
	assert_int_equal(tlc_eval_device_count(f->ev), 2);
	tlc_device_record r = { sizeof r, 0, 0, NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
	assert_int_equal(tlc_eval_device_get(f->ev, 0, &r), 0);
	assert_int_equal(r.kind, TLC_DEVICE_RUNTIME);
	assert_string_equal(r.name, "cudaLaunchKernel");
	assert_int_equal(r.start_ns, 2000);
	assert_int_equal(r.end_ns, 3000);
	assert_int_equal(r.correlation, 77);
	assert_int_equal(r.external_id, 5);
	assert_int_equal(r.device, 1);
	assert_int_equal(r.thread, 1);
	assert_true(r.flags & TLC_DEV_HAS_EXTERNAL_ID);
	assert_int_equal(tlc_eval_device_get(f->ev, 1, &r), 0);
	assert_int_equal(r.kind, TLC_DEVICE_KERNEL);
	assert_string_equal(r.name, "k");
	assert_int_equal(r.start_ns, 100000);
	assert_int_equal(r.end_ns, 130000);
	assert_int_equal(r.device, 0);
	assert_int_equal(r.stream, 7);
	assert_int_equal(r.correlation, 77);
	assert_int_equal(tlc_join_launch_count(f->j), 1);
	tlc_join_launch l = TLC_JOIN_LAUNCH_INIT;
	assert_int_equal(tlc_join_launch_get(f->j, 0, &l), 0);
	assert_int_equal(l.size, sizeof l);
	assert_int_equal(l.rec, 1);
	assert_int_equal(l.runtime, 0);
	assert_int_equal(l.status, TLC_ATTR_ATTRIBUTED);
	assert_int_equal(l.group, -1);
	assert_null(l.why);
	tlc_op_row row = TLC_OP_ROW_INIT;
	assert_int_equal(tlc_eval_op_get(f->ev, (size_t)l.op_row, &row), 0);
	assert_int_equal(row.id, 5);
	assert_string_equal(row.name, "my::inner");
	assert_int_equal(row.kernel_time_ns, 30000);
	assert_int_equal(row.attribution, TLC_ATTR_ATTRIBUTED);
	/* a caller built against a larger struct: filled up to ours, size kept */
	struct { tlc_op_row row; int64_t more; } big;
	memset(&big, 0x5a, sizeof big);
	big.row.size = sizeof big;
	assert_int_equal(tlc_eval_op_get(f->ev, (size_t)l.op_row, &big.row), 0);
	assert_int_equal(big.row.size, sizeof big);
	assert_int_equal(big.row.id, 5);
	/* refused arguments: a size short of the first layout (which ended
	 * at kernel_time_ns; dtype came after) */
	row.size = (uint32_t)(offsetof(tlc_op_row, kernel_time_ns) + sizeof row.kernel_time_ns - 1);
	assert_int_equal(tlc_eval_op_get(f->ev, 0, &row), TLC_EINVAL);
	assert_string_equal(tlc_error_last()->code, "invalid_argument");
	row.size = sizeof row;
	assert_int_equal(tlc_eval_op_get(f->ev, tlc_eval_op_count(f->ev), &row), TLC_EINVAL);
	assert_int_equal(tlc_eval_op_get(NULL, 0, &row), TLC_EINVAL);
	assert_int_equal(tlc_eval_op_get(f->ev, 0, NULL), TLC_EINVAL);
	r.size = 8;
	assert_int_equal(tlc_eval_device_get(f->ev, 0, &r), TLC_EINVAL);
	r.size = sizeof r;
	assert_int_equal(tlc_eval_device_get(f->ev, 2, &r), TLC_EINVAL);
	l.size = 4;
	assert_int_equal(tlc_join_launch_get(f->j, 0, &l), TLC_EINVAL);
	l.size = sizeof l;
	assert_int_equal(tlc_join_launch_get(f->j, 1, &l), TLC_EINVAL);
	assert_int_equal(tlc_join_launch_get(NULL, 0, &l), TLC_EINVAL);
}

/* Graph node fields and records (since 4.3): a record pushed with them
 * reads back with them; a caller built before them (its size ends at
 * bytes) pushes and reads without them, whatever lies past its size; a
 * node record needs exactly one of correlation and original. */
static void graph_nodes_size_versioned(void **state)
{
	fx *f = *state;
	tlc_device_record k = TLC_DEVICE_RECORD_INIT;
	k.name = "k";
	k.start_ns = 10;
	k.end_ns = 20;
	k.flags = TLC_DEV_HAS_CORRELATION | TLC_DEV_HAS_GRAPH_NODE;
	k.correlation = 40;
	k.graph_id = 3;
	k.graph_node = 301;
	assert_int_equal(tlc_eval_push_device(f->ev, &k), 0);
	/* an older caller: flag set by mistake, fields past its size garbage */
	const uint32_t old = (uint32_t)(offsetof(tlc_device_record, bytes) + sizeof k.bytes);
	k.size = old;
	k.graph_id = 77;
	k.graph_node = 78;
	assert_int_equal(tlc_eval_push_device(f->ev, &k), 0);
	tlc_device_record r = TLC_DEVICE_RECORD_INIT;
	assert_int_equal(tlc_eval_device_get(f->ev, 0, &r), 0);
	assert_true(r.flags & TLC_DEV_HAS_GRAPH_NODE);
	assert_int_equal(r.graph_id, 3);
	assert_int_equal(r.graph_node, 301);
	assert_int_equal(tlc_eval_device_get(f->ev, 1, &r), 0);
	assert_false(r.flags & TLC_DEV_HAS_GRAPH_NODE);
	assert_int_equal(r.graph_id, 0);
	assert_int_equal(r.graph_node, 0);
	/* an older reader: nothing written past its size */
	struct { tlc_device_record rec; } small;
	memset(&small, 0x5a, sizeof small);
	small.rec.size = old;
	assert_int_equal(tlc_eval_device_get(f->ev, 0, &small.rec), 0);
	assert_int_equal(small.rec.correlation, 40);
	assert_int_equal(small.rec.graph_node, 0x5a5a5a5a5a5a5a5a);
	/* a graph node on a host call is refused */
	k.size = sizeof k;
	k.kind = TLC_DEVICE_RUNTIME;
	assert_int_equal(tlc_eval_push_device(f->ev, &k), TLC_EINPUT);
	assert_string_equal(tlc_error_last()->code, "device_record_invalid");
	/* node records */
	tlc_graph_node g = TLC_GRAPH_NODE_INIT;
	g.node = 101;
	g.correlation = 11;
	assert_int_equal(tlc_eval_push_graph_node(f->ev, &g), 0);
	g.node = 301;
	g.correlation = -1;
	g.original = 101;
	g.graph_id = 3;
	assert_int_equal(tlc_eval_push_graph_node(f->ev, &g), 0);
	assert_int_equal(tlc_eval_graph_node_count(f->ev), 2);
	tlc_graph_node o = TLC_GRAPH_NODE_INIT;
	assert_int_equal(tlc_eval_graph_node_get(f->ev, 0, &o), 0);
	assert_int_equal(o.node, 101);
	assert_int_equal(o.correlation, 11);
	assert_int_equal(o.original, -1);
	assert_int_equal(o.graph_id, -1);
	assert_int_equal(tlc_eval_graph_node_get(f->ev, 1, &o), 0);
	assert_int_equal(o.node, 301);
	assert_int_equal(o.original, 101);
	assert_int_equal(o.graph_id, 3);
	assert_int_equal(tlc_eval_graph_node_get(f->ev, 2, &o), TLC_EINVAL);
	g.correlation = 5; /* both */
	assert_int_equal(tlc_eval_push_graph_node(f->ev, &g), TLC_EINVAL);
	g.correlation = g.original = -1; /* neither */
	assert_int_equal(tlc_eval_push_graph_node(f->ev, &g), TLC_EINVAL);
	g.original = 1;
	g.node = -1;
	assert_int_equal(tlc_eval_push_graph_node(f->ev, &g), TLC_EINVAL);
	g.node = 1;
	g.size = 8;
	assert_int_equal(tlc_eval_push_graph_node(f->ev, &g), TLC_EINVAL);
	assert_int_equal(tlc_eval_push_graph_node(NULL, &g), TLC_EINVAL);
	assert_int_equal(tlc_eval_graph_node_count(f->ev), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(equal_costs_shared_exactly, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(rollup_finds_parent_by_id, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(devices_in_start_order, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(devices_out_of_order, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(accessors_fill_callers_struct, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(graph_nodes_size_versioned, fx_setup_eval, fx_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
