/* Device-time join (engine/join/join.c): one small synthetic trace per join rule,
 * the gate, utilization refusals, op logs with device records, and the two
 * real traces of ../shared/traces (skipped when TLCOST_SHARED_DIR is unset).
 * Times in the traces are microseconds; the join reports nanoseconds. */
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

/* ---- trace building blocks (pid 1 = host process, pid 0 = device 0) ---- */
#define OPX(name, tid, ts, dur, ext, extra) \
	"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"" name "\",\"pid\":1,\"tid\":" #tid \
	",\"ts\":" #ts ",\"dur\":" #dur ",\"args\":{\"External id\":" #ext extra "}},"
#define OP(name, tid, ts, dur, ext) OPX(name, tid, ts, dur, ext, "")
#define RT(tid, ts, corr, ext) \
	"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":" \
	#tid ",\"ts\":" #ts ",\"dur\":1,\"args\":{\"External id\":" #ext ",\"correlation\":" #corr "}},"
#define KDEV(name, dev, stream, ts, dur, corr) \
	"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"" name "\",\"pid\":" #dev ",\"tid\":" #stream \
	",\"ts\":" #ts ",\"dur\":" #dur ",\"args\":{\"device\":" #dev ",\"stream\":" #stream \
	",\"correlation\":" #corr "}},"
#define K(name, ts, dur, corr) KDEV(name, 0, 7, ts, dur, corr)
#define TRACE(events) "{\"traceEvents\":[" events "{\"ph\":\"M\",\"name\":\"end\",\"pid\":1,\"tid\":0}]}"
#define MM_ARGS ",\"Input Dims\":[[4,8],[8,16]],\"Input type\":[\"float\",\"float\"]"

static void join(fx *f, const char *json, unsigned flags)
{
	fx_read_trace(f, json, 1);
	tlc_join_options o = { sizeof o, flags, 0 };
	fx_ok(tlc_join_run(&f->j, f->ev, &o), "tlc_join_run");
}

/* Row index of the op whose name is given (first match). */
static size_t row_named(const fx *f, const char *name)
{
	for (size_t i = 0; i < tlc_eval_op_count(f->ev); i++)
		if (strcmp(test_op_name(f->ev, i), name) == 0)
			return i;
	fail_msg("no row %s", name);
	return 0;
}

static const tlc_op_row *row(const fx *f, const char *name)
{
	return test_op_at(f->ev, row_named(f, name));
}

/* ---------------------------------------------------------------- */

/* The launch belongs to the innermost op (addmm), and rolls up to the
 * counted outer op (linear, which has a rule and its shapes). */
static void nested_ops(void **state)
{
	fx *f = *state;
	join(f, TRACE(OPX("aten::linear", 1, 0, 100, 1,
	                  ",\"Input Dims\":[[4,8],[16,8],[16]],\"Input type\":[\"float\",\"float\",\"float\"]")
	              OP("aten::addmm", 1, 10, 50, 2) RT(1, 20, 500, 2) K("gemm", 1000, 30, 500)), 0);
	const tlc_join_summary *s = tlc_join_get_summary(f->j);
	assert_int_equal(s->path, TLC_JOIN_PATH_CORRELATION);
	assert_int_equal(s->state, TLC_JOIN_JOINED);
	assert_int_equal(s->kernels_attributed, 1);
	const tlc_op_row *in = row(f, "aten::addmm"), *out = row(f, "aten::linear");
	assert_true(in->row_flags & TLC_ROW_HAS_DEVICE_TIME);
	assert_int_equal(in->attribution, TLC_ATTR_ATTRIBUTED);
	assert_int_equal(in->device_time_ns, 30000);
	assert_int_equal(in->kernel_time_ns, 30000);
	/* the outer op launched nothing itself: a known zero, not absent */
	assert_true(out->row_flags & TLC_ROW_HAS_DEVICE_TIME);
	assert_int_equal(out->device_time_ns, 0);
	assert_int_equal(out->attribution, TLC_ATTR_UNATTRIBUTED);
	assert_int_equal(out->cls, TLC_CLASS_KNOWN);
	int64_t counted;
	assert_int_equal(tlc_join_rollup(&counted, f->j, row_named(f, "aten::addmm")), 0);
	assert_int_equal(counted, (int64_t)row_named(f, "aten::linear"));
	assert_int_equal(tlc_join_counted_kernel_ns(f->j, (size_t)counted), 30000);
}

/* The join is an overlay (issue 24 item 1): the evaluation's rows carry a
 * join's device time only while that join is attached. Two joins of one
 * eval: rows read the newest; freeing the older leaves the newest's; freeing
 * the newest leaves none (TLC_ATTR_NONE, no flag). The profile given the
 * join puts the addmm's 30 us kernel (30,000 ns, from the trace) on the
 * costed row aten::linear, and the roll-up adds up: 30,000 ns in the rows +
 * 0 not on a costed op = 30,000 attributed. */
static void overlay_attach_detach(void **state)
{
	fx *f = *state;
	join(f, TRACE(OPX("aten::linear", 1, 0, 100, 1,
	                  ",\"Input Dims\":[[4,8],[16,8],[16]],\"Input type\":[\"float\",\"float\",\"float\"]")
	              OP("aten::addmm", 1, 10, 50, 2) RT(1, 20, 500, 2) K("gemm", 1000, 30, 500)), 0);
	size_t in = row_named(f, "aten::addmm"), out = row_named(f, "aten::linear");
	tlc_profile_options po = { sizeof po, TLC_PROFILE_BY_TYPE, TLC_SORT_FLOPS, 0, -1 };
	tlc_profile *p;
	assert_int_equal(tlc_profile_build_joined(&p, f->ev, f->j, &po), 0);
	assert_int_equal(tlc_profile_row_count(p), 1); /* addmm is nested: not a row */
	const tlc_profile_row *r = tlc_profile_row_at(p, 0);
	assert_string_equal(r->key, "aten::linear");
	assert_int_equal(r->kernel_time_ns, 0);
	assert_int_equal(r->costed_kernel_ns, 30000);
	tlc_profile_rollup ro = TLC_PROFILE_ROLLUP_INIT;
	assert_int_equal(tlc_profile_rollup_get(p, &ro), 0);
	assert_int_equal(ro.rows_ns, 30000);
	assert_int_equal(ro.not_op_ns, 0);
	assert_int_equal(ro.joined_ns, 30000);
	tlc_profile_free(p);
	tlc_join *j2;
	assert_int_equal(tlc_join_run(&j2, f->ev, NULL), 0);
	tlc_join_free(f->j); /* the older: the newest stays attached */
	f->j = NULL;
	tlc_op_row g = TLC_OP_ROW_INIT;
	assert_int_equal(tlc_eval_op_get(f->ev, in, &g), 0);
	assert_int_equal(g.attribution, TLC_ATTR_ATTRIBUTED);
	assert_int_equal(g.kernel_time_ns, 30000);
	assert_int_equal(tlc_eval_op_get(f->ev, out, &g), 0);
	assert_int_equal(g.attribution, TLC_ATTR_UNATTRIBUTED);
	tlc_join_free(j2);
	tlc_op_row h = TLC_OP_ROW_INIT;
	assert_int_equal(tlc_eval_op_get(f->ev, in, &h), 0);
	assert_int_equal(h.attribution, TLC_ATTR_NONE);
	assert_int_equal(h.row_flags, 0);
	assert_int_equal(h.kernel_time_ns, 0);
}

/* Wrapper rows are structural (not_applicable) but stay op rows: a kernel
 * launched by the evaluate_function wrapper itself (between its children)
 * is the wrapper's, one launched inside aten::mm is mm's, and one launched
 * by record_param_comms is its own; nothing is re-homed by class. */
static void wrappers_own_launches(void **state)
{
	fx *f = *state;
	join(f, TRACE(OP("autograd::engine::evaluate_function: MmBackward0", 2, 0, 100, 1)
	              OP("MmBackward0", 2, 1, 50, 2)
	              OPX("aten::mm", 2, 2, 40, 3, MM_ARGS) RT(2, 3, 500, 3) K("gemm", 1000, 30, 500)
	              RT(2, 60, 501, 1) K("wrapper_kernel", 1100, 5, 501)
	              OP("record_param_comms", 1, 200, 20, 4) RT(1, 201, 502, 4)
	              K("comms_kernel", 1200, 7, 502)), 0);
	const tlc_join_summary *s = tlc_join_get_summary(f->j);
	assert_int_equal(s->path, TLC_JOIN_PATH_CORRELATION);
	assert_int_equal(s->kernels, 3);
	assert_int_equal(s->kernels_attributed, 3);
	const tlc_op_row *w = row(f, "autograd::engine::evaluate_function");
	assert_string_equal(w->overload, "MmBackward0");
	assert_int_equal(w->cls, TLC_CLASS_NOT_APPLICABLE);
	assert_int_equal(w->attribution, TLC_ATTR_ATTRIBUTED);
	assert_int_equal(w->kernel_time_ns, 5000);
	assert_int_equal(row(f, "autograd::node")->cls, TLC_CLASS_NOT_APPLICABLE);
	assert_int_equal(row(f, "autograd::node")->kernel_time_ns, 0);
	assert_int_equal(row(f, "aten::mm")->cls, TLC_CLASS_KNOWN);
	assert_int_equal(row(f, "aten::mm")->kernel_time_ns, 30000);
	const tlc_op_row *c = row(f, "kineto::record_param_comms");
	assert_int_equal(c->cls, TLC_CLASS_NOT_APPLICABLE);
	assert_int_equal(c->kernel_time_ns, 7000);
	/* the launch table names the wrapper with its original text */
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	assert_int_equal(tlc_write_join(m, f->j, f->ev, TLC_FORMAT_CSV), 0);
	fclose(m);
	assert_non_null(strstr(buf, "\"wrapper_kernel\""));
	assert_non_null(strstr(buf, ",\"autograd::engine::evaluate_function.MmBackward0\",\n"));
	free(buf);
}

/* The gate counts ops, not wrappers (issue 25; contract "Not an op"). The
 * trace of wrappers_own_launches, by hand: wrapper_kernel (5 us) is launched
 * by the evaluate_function wrapper itself, top level on the autograd thread
 * (backward); comms_kernel (7 us) by record_param_comms, top level on tid 1
 * (forward): both stay attributed to their rows but are time on rows that
 * are not ops. gemm (30 us) in aten::mm (known, [4,8]x[8,16]) is the only
 * attributed and known-cost time. Backward: 30 of 35 us = 857 permille;
 * forward: 0 of 7 us: the gate fails (before issue 25 both were 100%). */
static void gate_counts_ops(void **state)
{
	fx *f = *state;
	join(f, TRACE(OP("autograd::engine::evaluate_function: MmBackward0", 2, 0, 100, 1)
	              OP("MmBackward0", 2, 1, 50, 2)
	              OPX("aten::mm", 2, 2, 40, 3, MM_ARGS) RT(2, 3, 500, 3) K("gemm", 1000, 30, 500)
	              RT(2, 60, 501, 1) K("wrapper_kernel", 1100, 5, 501)
	              OP("record_param_comms", 1, 200, 20, 4) RT(1, 201, 502, 4)
	              K("comms_kernel", 1200, 7, 502)), 0);
	const tlc_join_summary *s = tlc_join_get_summary(f->j);
	assert_int_equal(s->kernels_attributed, 3);
	tlc_join_detail d = TLC_JOIN_DETAIL_INIT;
	assert_int_equal(tlc_join_detail_get(f->j, &d), 0);
	assert_int_equal(d.size, sizeof d);
	assert_int_equal(d.kernels_on_wrapper, 2);
	assert_int_equal(d.kernel_on_wrapper_ns, 12000);
	assert_int_equal(d.kernel_known_cost_ns, 30000);
	assert_int_equal(d.phase_on_wrapper_ns[TLC_PHASE_BACKWARD], 5000);
	assert_int_equal(d.phase_on_wrapper_ns[TLC_PHASE_FORWARD], 7000);
	const tlc_join_phase *bw = tlc_join_phase_at(f->j, TLC_PHASE_BACKWARD);
	const tlc_join_phase *fw = tlc_join_phase_at(f->j, TLC_PHASE_FORWARD);
	assert_int_equal(bw->attributed_ns, 30000);
	assert_int_equal(bw->total_ns, 35000);
	assert_int_equal(bw->share_permille, 857);
	assert_true(fw->present);
	assert_int_equal(fw->attributed_ns, 0);
	assert_int_equal(fw->total_ns, 7000);
	assert_false(fw->passed);
	assert_false(s->gate_passed);
	assert_int_equal(tlc_join_wrapper_count(f->j), 2);
	const tlc_join_wrapper *w0 = tlc_join_wrapper_at(f->j, 0), *w1 = tlc_join_wrapper_at(f->j, 1);
	assert_string_equal(w0->name, "kineto::record_param_comms.marker"); /* the reader's overload for a row without a collective name */
	assert_int_equal(w0->phase, TLC_PHASE_FORWARD);
	assert_int_equal(w0->kernels, 1);
	assert_int_equal(w0->graph_replays, 0);
	assert_int_equal(w0->time_ns, 7000);
	assert_string_equal(w1->name, "autograd::engine::evaluate_function.MmBackward0");
	assert_int_equal(w1->phase, TLC_PHASE_BACKWARD);
	assert_int_equal(w1->time_ns, 5000);
	assert_null(tlc_join_wrapper_at(f->j, 2));
	/* a caller's struct smaller than the first layout is refused */
	tlc_join_detail small = TLC_JOIN_DETAIL_INIT;
	small.size = 8;
	assert_int_equal(tlc_join_detail_get(f->j, &small), TLC_EINVAL);
	assert_int_equal(tlc_join_detail_get(NULL, &d), TLC_EINVAL);
}

/* A wrapper row with an op above it is not "only" a wrapper: the kernel is
 * attributed for the gate. Under an unknown op (mylib::outer, no rule) its
 * cost is not known; under a known op (aten::linear with its shapes) the
 * wrapper is nested, and the known linear is the costed row. By hand:
 * k_unknown 10 us attributed, not known; k_known 20 us attributed, known. */
static void wrapper_under_op(void **state)
{
	fx *f = *state;
	join(f, TRACE(OP("mylib::outer", 1, 0, 100, 1)
	              OP("record_param_comms", 1, 10, 50, 2) RT(1, 20, 500, 2)
	              K("k_unknown", 1000, 10, 500)
	              OPX("aten::linear", 1, 200, 100, 3,
	                  ",\"Input Dims\":[[4,8],[16,8],[16]],\"Input type\":[\"float\",\"float\",\"float\"]")
	              OP("record_param_comms", 1, 210, 50, 4) RT(1, 220, 501, 4)
	              K("k_known", 1100, 20, 501)), 0);
	tlc_join_detail d = TLC_JOIN_DETAIL_INIT;
	assert_int_equal(tlc_join_detail_get(f->j, &d), 0);
	assert_int_equal(d.kernels_on_wrapper, 0);
	assert_int_equal(d.kernel_on_wrapper_ns, 0);
	assert_int_equal(d.kernel_known_cost_ns, 20000);
	assert_int_equal(tlc_join_wrapper_count(f->j), 0);
	const tlc_join_phase *fw = tlc_join_phase_at(f->j, TLC_PHASE_FORWARD);
	assert_int_equal(fw->attributed_ns, 30000);
	assert_int_equal(fw->total_ns, 30000);
	assert_true(tlc_join_get_summary(f->j)->gate_passed);
}

/* One op, three launches: all three are its own, times add (1+2+3 us). */
static void one_op_many_kernels(void **state)
{
	fx *f = *state;
	join(f, TRACE(OP("aten::mm", 1, 0, 100, 1)
	              RT(1, 10, 10, 1) RT(1, 20, 11, 1) RT(1, 30, 12, 1)
	              K("k1", 500, 1, 10) K("k2", 510, 2, 11) K("k3", 520, 3, 12)), 0);
	const tlc_join_summary *s = tlc_join_get_summary(f->j);
	assert_int_equal(s->launches_attributed, 3);
	assert_int_equal(row(f, "aten::mm")->device_time_ns, 6000);
	assert_int_equal(tlc_join_launch_count(f->j), 3);
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(test_launch_at(f->j, i)->op_row, (int64_t)row_named(f, "aten::mm"));
}

/* Two ops share external id 7 (so the runtime calls name both): each launch
 * is related to both ops and becomes one ambiguous group, never split. */
static void one_launch_several_ops(void **state)
{
	fx *f = *state;
	join(f, TRACE(OP("aten::a", 1, 0, 10, 7) OP("aten::b", 1, 20, 10, 7)
	              RT(1, 5, 100, 7) RT(1, 25, 101, 7) K("fused", 500, 4, 100) K("fused", 600, 6, 101)), 0);
	const tlc_join_summary *s = tlc_join_get_summary(f->j);
	assert_int_equal(s->launches_ambiguous, 2);
	assert_int_equal(s->ambiguous_groups, 1);
	assert_int_equal(s->kernel_ambiguous_ns, 10000);
	const tlc_join_group *g = tlc_join_group_at(f->j, 0);
	assert_int_equal(g->nrows, 2);
	assert_int_equal(g->launches, 2);
	assert_int_equal(g->time_ns, 10000);
	assert_int_equal(row(f, "aten::a")->attribution, TLC_ATTR_AMBIGUOUS);
	assert_int_equal(row(f, "aten::a")->device_time_ns, 0);
	assert_int_equal(row(f, "aten::b")->device_time_ns, 0);
	/* ambiguous time is not attributed: forward share 0, the gate fails */
	assert_false(s->gate_passed);
	assert_int_equal(tlc_join_phase_at(f->j, TLC_PHASE_FORWARD)->ambiguous_ns, 10000);
}

/* A kernel whose correlation has no runtime call (launched before the
 * window): unattributed, named in the remainder. 90 of 100 us attributed:
 * share 900 permille, 5.0 points short of the 95% gate. */
static void kernel_before_window(void **state)
{
	fx *f = *state;
	join(f, TRACE(OP("aten::mm", 1, 0, 100, 1) RT(1, 10, 10, 1)
	              K("early_kernel", 100, 10, 999) K("k", 200, 90, 10)), 0);
	const tlc_join_summary *s = tlc_join_get_summary(f->j);
	assert_int_equal(s->kernels_unattributed, 1);
	assert_int_equal(tlc_join_remainder_count(f->j), 1);
	const tlc_join_remainder *r = tlc_join_remainder_at(f->j, 0);
	assert_string_equal(r->name, "early_kernel");
	assert_int_equal(r->count, 1);
	assert_int_equal(r->time_ns, 10000);
	const tlc_join_launch *l = test_launch_at(f->j, 0);
	assert_int_equal(l->status, TLC_ATTR_UNATTRIBUTED);
	assert_int_equal(l->runtime, -1);
	assert_non_null(l->why);
	const tlc_join_phase *p = tlc_join_phase_at(f->j, TLC_PHASE_FORWARD);
	assert_int_equal(p->share_permille, 900);
	assert_false(p->passed);
	assert_false(s->gate_passed);
}

/* A zero-duration kernel is a launch with 0 ns, attributed like any other. */
static void zero_duration_kernel(void **state)
{
	fx *f = *state;
	join(f, TRACE(OP("aten::mm", 1, 0, 100, 1) RT(1, 10, 10, 1) RT(1, 20, 11, 1)
	              K("empty", 100, 0, 10) K("k", 200, 5, 11)), 0);
	const tlc_join_summary *s = tlc_join_get_summary(f->j);
	assert_int_equal(s->kernels, 2);
	assert_int_equal(s->kernels_attributed, 2);
	assert_int_equal(s->kernel_ns, 5000);
	assert_int_equal(test_launch_at(f->j, 0)->status, TLC_ATTR_ATTRIBUTED);
}

/* Device 0: streams 7 [0,10] and 8 [5,15] us overlap: busy (union) 15 us,
 * summed 20 us. Device 1: [100,110]: busy 10 us. */
static void streams_and_devices(void **state)
{
	fx *f = *state;
	join(f, TRACE(OP("aten::mm", 1, 0, 100, 1) RT(1, 10, 10, 1) RT(1, 11, 11, 1) RT(1, 12, 12, 1)
	              KDEV("a", 0, 7, 0, 10, 10) KDEV("b", 0, 8, 5, 10, 11) KDEV("c", 1, 3, 100, 10, 12)), 0);
	assert_int_equal(tlc_join_device_count(f->j), 2);
	const tlc_join_device *d0 = tlc_join_device_at(f->j, 0), *d1 = tlc_join_device_at(f->j, 1);
	assert_int_equal(d0->device, 0);
	assert_int_equal(d0->busy_ns, 15000);
	assert_int_equal(d0->device_ns, 20000);
	assert_int_equal(d0->launches, 2);
	assert_int_equal(d1->device, 1);
	assert_int_equal(d1->busy_ns, 10000);
	assert_int_equal(tlc_join_get_summary(f->j)->busy_ns, 25000);
	assert_int_equal(test_dev_at(f->ev, test_launch_at(f->j, 1)->rec)->stream, 8);
}

/* Copies and sets are device time, not kernel time. */
static void memcpy_memset(void **state)
{
	fx *f = *state;
	join(f, TRACE(OP("aten::copy_", 1, 0, 100, 1) RT(1, 10, 10, 1) RT(1, 20, 11, 1) RT(1, 30, 12, 1)
	              "{\"ph\":\"X\",\"cat\":\"gpu_memcpy\",\"name\":\"Memcpy HtoD\",\"pid\":0,\"tid\":7,"
	              "\"ts\":100,\"dur\":3,\"args\":{\"correlation\":10,\"bytes\":4096}},"
	              "{\"ph\":\"X\",\"cat\":\"gpu_memset\",\"name\":\"Memset\",\"pid\":0,\"tid\":7,"
	              "\"ts\":110,\"dur\":2,\"args\":{\"correlation\":11,\"bytes\":256}},"
	              K("k", 120, 5, 12)), 0);
	const tlc_op_row *r = row(f, "aten::copy_");
	assert_int_equal(r->device_time_ns, 10000);
	assert_int_equal(r->kernel_time_ns, 5000);
	const tlc_join_summary *s = tlc_join_get_summary(f->j);
	assert_int_equal(s->launches, 3);
	assert_int_equal(s->kernels, 1);
	assert_int_equal(test_dev_at(f->ev, test_launch_at(f->j, 0)->rec)->kind, TLC_DEVICE_MEMCPY);
	assert_int_equal(test_dev_at(f->ev, test_launch_at(f->j, 0)->rec)->bytes, 4096);
}

/* Equal start times: the longer op encloses; at equal intervals the earlier
 * in the file encloses; a zero-length op at the parent's start is its child.
 * A runtime call at t=10 belongs to the zero-length op D that starts there
 * (innermost: latest start). Containment is forced to exercise it. */
static void equal_timestamps(void **state)
{
	fx *f = *state;
	join(f, TRACE(OP("aten::A", 1, 0, 10, 1) OP("aten::B", 1, 0, 10, 2) OP("aten::C", 1, 0, 0, 3)
	              OP("aten::D", 1, 10, 0, 4) OP("aten::E", 1, 0, 20, 5)
	              RT(1, 10, 50, 0) K("k", 100, 7, 50)), TLC_JOIN_FORCE_CONTAINMENT);
	assert_int_equal(row(f, "aten::E")->parent, -1);
	assert_int_equal(row(f, "aten::A")->parent, 5);
	assert_int_equal(row(f, "aten::B")->parent, 1);
	assert_int_equal(row(f, "aten::C")->parent, 2);
	assert_int_equal(row(f, "aten::D")->parent, 2);
	assert_int_equal(tlc_join_get_summary(f->j)->path, TLC_JOIN_PATH_CONTAINMENT);
	assert_int_equal(row(f, "aten::D")->device_time_ns, 7000);
}

/* External ids equal to the runtime call's own correlation name no op:
 * the path falls back to containment and says why. */
static void containment_fallback(void **state)
{
	fx *f = *state;
	join(f, TRACE(OP("aten::x", 1, 0, 100, 5) OP("aten::y", 2, 0, 100, 6)
	              RT(1, 50, 300, 300) RT(2, 50, 301, 301) K("k", 500, 4, 300) K("k2", 600, 6, 301)), 0);
	const tlc_join_summary *s = tlc_join_get_summary(f->j);
	assert_int_equal(s->path, TLC_JOIN_PATH_CONTAINMENT);
	assert_int_equal(s->launch_calls_external_self, 2);
	assert_int_equal(s->launch_calls_external_matched, 0);
	assert_non_null(strstr(s->path_reason, "own correlation"));
	assert_int_equal(row(f, "aten::x")->device_time_ns, 4000);
	assert_int_equal(row(f, "aten::y")->device_time_ns, 6000); /* thread 2's op */
}

/* Partially overlapping ops on one thread both hold the call: ambiguous. */
static void containment_overlap_ambiguous(void **state)
{
	fx *f = *state;
	join(f, TRACE(OP("aten::p", 1, 0, 50, 5) OP("aten::q", 1, 40, 60, 6)
	              RT(1, 45, 300, 300) K("k", 500, 4, 300)), 0);
	const tlc_join_summary *s = tlc_join_get_summary(f->j);
	assert_int_equal(s->path, TLC_JOIN_PATH_CONTAINMENT);
	assert_int_equal(s->launches_ambiguous, 1);
	assert_int_equal(tlc_join_group_at(f->j, 0)->nrows, 2);
}

/* Forward: 1000 us attributed; backward (the autograd thread): 100 us
 * attributed; 10 us unattributed count against both. Forward share
 * floor(1000*1000/1010) = 990 passes, backward floor(1000*100/110) = 909
 * fails: the gate fails on backward alone. */
static void gate_separate_phases(void **state)
{
	fx *f = *state;
	join(f, TRACE(OP("aten::mm", 1, 0, 100, 1) RT(1, 10, 10, 1)
	              OP("autograd::engine::evaluate_function: MmBackward0", 2, 200, 100, 2)
	              OP("aten::mm", 2, 210, 50, 3) RT(2, 220, 11, 3)
	              K("fwd", 1000, 1000, 10) K("bwd", 3000, 100, 11) K("stray", 4000, 10, 77)), 0);
	const tlc_join_phase *fw = tlc_join_phase_at(f->j, TLC_PHASE_FORWARD);
	const tlc_join_phase *bw = tlc_join_phase_at(f->j, TLC_PHASE_BACKWARD);
	assert_true(fw->present && bw->present);
	assert_int_equal(fw->attributed_ns, 1000000);
	assert_int_equal(bw->attributed_ns, 100000);
	assert_int_equal(fw->share_permille, 990);
	assert_int_equal(bw->share_permille, 909);
	assert_true(fw->passed);
	assert_false(bw->passed);
	assert_false(tlc_join_get_summary(f->j)->gate_passed);
	double u;
	assert_int_equal(tlc_join_kernel_utilization(&u, f->j, f->ev, 1e12), TLC_EREFUSED);
	assert_string_equal(tlc_error_last()->code, "kernel_utilization_requires_device_join");
	assert_true(tlc_error_last()->remedy[0] != '\0');
}

/* Gate passes: utilization = FLOPs / (kernel seconds x peak).
 * aten::mm [4,8]x[8,16]: 4*8*16 = 512 MACs = 1024 FLOPs (fma=2); kernel
 * 1 us; peak 1e12 FLOP/s -> 1024 / (1e-6 * 1e12) = 1.024e-3. */
static void utilization_after_gate(void **state)
{
	fx *f = *state;
	join(f, TRACE(OPX("aten::mm", 1, 0, 100, 1, MM_ARGS) RT(1, 10, 10, 1) K("k", 100, 1, 10)), 0);
	assert_true(tlc_join_get_summary(f->j)->gate_passed);
	double u = 0;
	assert_int_equal(tlc_join_kernel_utilization(&u, f->j, f->ev, 1e12), 0);
	assert_true(u > 1.024e-3 * (1 - 1e-12) && u < 1.024e-3 * (1 + 1e-12));
	assert_int_equal(tlc_join_require_device_time(f->j), 0);
}

/* No device records: unavailable; rows carry no device time at all. */
static void unavailable(void **state)
{
	fx *f = *state;
	join(f, TRACE(OP("aten::mm", 1, 0, 100, 1)), 0);
	const tlc_join_summary *s = tlc_join_get_summary(f->j);
	assert_int_equal(s->state, TLC_JOIN_UNAVAILABLE);
	const tlc_op_row *r = row(f, "aten::mm");
	assert_false(r->row_flags & TLC_ROW_HAS_DEVICE_TIME);
	assert_int_equal(r->attribution, TLC_ATTR_UNAVAILABLE);
	assert_int_equal(tlc_join_require_device_time(f->j), TLC_EREFUSED);
	assert_string_equal(tlc_error_last()->code, "device_time_unavailable");
	assert_int_equal(tlc_join_require_device_time(NULL), TLC_EREFUSED);
	assert_int_equal(tlc_join_launch_count(f->j), 0);
	double u;
	assert_int_equal(tlc_join_kernel_utilization(&u, NULL, f->ev, 1e12), TLC_EREFUSED);
}

/* Runtime calls but no device activity: empty, not unavailable. */
static void empty(void **state)
{
	fx *f = *state;
	join(f, TRACE(OP("aten::mm", 1, 0, 100, 1) RT(1, 10, 10, 1)), 0);
	assert_int_equal(tlc_join_get_summary(f->j)->state, TLC_JOIN_EMPTY);
	assert_false(tlc_join_get_summary(f->j)->gate_passed);
}

static void requires_finished(void **state)
{
	fx *f = *state;
	tlc_eval_options o = { sizeof o, 1, NULL, NULL };
	assert_int_equal(tlc_eval_new(&f->ev, f->eng, &o), 0);
	assert_int_equal(tlc_join_run(&f->j, f->ev, NULL), TLC_ESTATE);
	assert_string_equal(tlc_error_last()->code, "eval_not_finished");
	assert_int_equal(tlc_join_run(&f->j, NULL, NULL), TLC_EINVAL);
}

static void requires_rows(void **state)
{
	fx *f = *state;
	fx_read_trace(f, TRACE(OP("aten::mm", 1, 0, 100, 1)), 0);
	assert_int_equal(tlc_join_run(&f->j, f->ev, NULL), TLC_ESTATE);
	assert_string_equal(tlc_error_last()->code, "join_requires_op_rows");
	assert_null(f->j);
}

/* Op log v1 with kernel and runtime records ("Other record kinds"): the
 * runtime's external_id names op 42 (its correlation defaults to its id). */
static void oplog_records(void **state)
{
	fx *f = *state;
	static const char log[] =
		"{\"format\":\"tlcost-oplog\",\"version\":1}\n"
		"{\"id\":42,\"op\":\"aten::mm\",\"args\":[{\"shape\":[4,8],\"dtype\":\"float32\"},"
		"{\"shape\":[8,16],\"dtype\":\"float32\"}]}\n"
		"{\"kind\":\"runtime\",\"name\":\"cudaLaunchKernel\",\"thread\":12,\"start_ns\":900,"
		"\"end_ns\":950,\"correlation\":311,\"external_id\":42}\n"
		"{\"kind\":\"kernel\",\"name\":\"volta_sgemm\",\"device\":0,\"stream\":7,"
		"\"start_ns\":1000,\"end_ns\":5200,\"correlation\":311}\n"
		"{\"kind\":\"memcpy\",\"device\":0,\"stream\":7,\"start_ns\":6000,\"end_ns\":6400,"
		"\"correlation\":312,\"bytes\":4096}\n";
	tlc_eval_options o = { sizeof o, 1, NULL, NULL };
	assert_int_equal(tlc_eval_new(&f->ev, f->eng, &o), 0);
	if (tlc_oplog_read_mem(f->ev, log, strlen(log), "j.oplog") < 0)
		fail_msg("%s: %s", tlc_error_last()->code, tlc_error_last()->message);
	assert_int_equal(tlc_eval_finish(f->ev), 0);
	assert_int_equal(tlc_join_run(&f->j, f->ev, NULL), 0);
	const tlc_join_summary *s = tlc_join_get_summary(f->j);
	assert_int_equal(s->path, TLC_JOIN_PATH_CORRELATION);
	assert_int_equal(s->kernels_attributed, 1);
	assert_int_equal(s->launches_unattributed, 1); /* the memcpy has no runtime call */
	assert_int_equal(row(f, "aten::mm")->kernel_time_ns, 4200);
	assert_string_equal(tlc_join_remainder_at(f->j, 0)->name, "(memcpy)");
}

/* Hostile durations: two kernels of 9e18 ns each. Sums saturate at
 * INT64_MAX instead of wrapping (no undefined behaviour). */
static void absurd_times(void **state)
{
	fx *f = *state;
	join(f, TRACE(OP("aten::mm", 1, 0, 100, 1) RT(1, 10, 10, 1) RT(1, 20, 11, 1)
	              K("a", 0, 9000000000000000, 10) K("b", 0, 9000000000000000, 11)), 0);
	const tlc_join_summary *s = tlc_join_get_summary(f->j);
	assert_int_equal(s->kernel_ns, INT64_MAX);
	assert_int_equal(row(f, "aten::mm")->kernel_time_ns, INT64_MAX);
	assert_int_equal(s->busy_ns, 9000000000000000000);
	tlc_join_free(f->j);
	tlc_eval_free(f->ev);
	f->j = NULL;
	/* a negative start with a near-maximal duration (found by fuzzing):
	 * busy time is the exact interval, no overflow on the way */
	join(f, TRACE(OP("aten::mm", 1, 0, 100, 1) RT(1, 10, 10, 1)
	              K("a", -900, 9223372036854775, 10)), 0);
	assert_int_equal(tlc_join_get_summary(f->j)->busy_ns, 9223372036854775000);
}

/* Reads an op log from memory, joins, verifies; returns verify's code. */
static int reread(fx *f, const char *log, size_t len, int *saved)
{
	tlc_join_free(f->j);
	tlc_eval_free(f->ev);
	f->j = NULL;
	tlc_eval_options o = { sizeof o, 1, NULL, NULL };
	assert_int_equal(tlc_eval_new(&f->ev, f->eng, &o), 0);
	if (tlc_oplog_read_mem(f->ev, log, len, "saved.oplog") < 0)
		fail_msg("%s: %s", tlc_error_last()->code, tlc_error_last()->message);
	assert_int_equal(tlc_eval_finish(f->ev), 0);
	assert_int_equal(tlc_join_run(&f->j, f->ev, NULL), 0);
	return tlc_join_verify_saved(saved, f->j, f->ev);
}

/* --save: the saved op log re-derives the same attribution (ambiguous
 * group, attributed launch, remainder) and verifies; editing the stored
 * verdict, or a record so the verdict no longer follows, is refused. */
static void saved_join_roundtrip(void **state)
{
	fx *f = *state;
	tlc_op_recorder *rec;
	assert_int_equal(tlc_op_recorder_new(&rec), 0);
	tlc_eval_options o = { sizeof o, 1, tlc_op_recorder_on_op, rec };
	assert_int_equal(tlc_eval_new(&f->ev, f->eng, &o), 0);
	const char *json = TRACE(OPX("aten::mm", 1, 0, 100, 1, MM_ARGS) RT(1, 10, 10, 1) K("k", 100, 1, 10)
	                         OP("aten::a", 1, 200, 10, 7) OP("aten::b", 1, 220, 10, 7)
	                         RT(1, 205, 100, 7) K("fused", 500, 4, 100) K("early", 50, 2, 999));
	assert_int_equal(tlc_trace_read_mem(f->ev, json, strlen(json), "t.json"), 0);
	assert_int_equal(tlc_eval_finish(f->ev), 0);
	assert_int_equal(tlc_join_run(&f->j, f->ev, NULL), 0);
	int saved = 1;
	assert_int_equal(tlc_join_verify_saved(&saved, f->j, f->ev), 0);
	assert_false(saved); /* a trace is not a saved join */
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	assert_int_equal(tlc_join_save(m, f->j, f->ev, rec), 0);
	fclose(m);
	tlc_op_recorder_free(rec);
	assert_int_equal(reread(f, buf, len, &saved), 0);
	assert_true(saved);
	const tlc_join_summary *s = tlc_join_get_summary(f->j);
	assert_int_equal(s->launches_attributed, 1);
	assert_int_equal(s->launches_ambiguous, 1);
	assert_int_equal(s->launches_unattributed, 1);
	assert_int_equal(row(f, "aten::mm")->kernel_time_ns, 1000);
	assert_int_equal(row(f, "aten::mm")->cls, TLC_CLASS_KNOWN); /* args survived */
	/* forge the verdict: claim the early kernel was attributed to op 1 */
	char *forged = strdup(buf);
	char *at = strstr(forged, "[\"unattributed\",-1]");
	assert_non_null(at);
	memcpy(at, "[\"attributed\",1]   ", 19);
	assert_int_equal(reread(f, forged, strlen(forged), &saved), TLC_EINPUT);
	assert_string_equal(tlc_error_last()->code, "saved_join_mismatch");
	assert_non_null(strstr(tlc_error_last()->message, "attribution"));
	free(forged);
	/* edit a record instead: the kernel of op 1 now names correlation 999 */
	forged = strdup(buf);
	at = strstr(forged, "\"correlation\":10}");
	assert_non_null(at);
	memcpy(at, "\"correlation\":99}", 17);
	assert_int_equal(reread(f, forged, strlen(forged), &saved), TLC_EINPUT);
	assert_string_equal(tlc_error_last()->code, "saved_join_mismatch");
	free(forged);
	free(buf);
}

/* ---- the device profiler's own statement (op log "device_profiler") ---- */

#define LOG_HEAD "{\"format\":\"tlcost-oplog\",\"version\":1}\n" \
	"{\"id\":42,\"op\":\"aten::mm\",\"args\":[{\"shape\":[4,8],\"dtype\":\"float32\"}," \
	"{\"shape\":[8,16],\"dtype\":\"float32\"}],\"start_ns\":0,\"host_ns\":1000,\"thread\":12}\n"
#define LOG_RT "{\"kind\":\"runtime\",\"name\":\"cudaLaunchKernel\",\"thread\":12,\"start_ns\":10," \
	"\"end_ns\":20,\"correlation\":311,\"external_id\":42}\n"
#define LOG_K "{\"kind\":\"kernel\",\"name\":\"sgemm\",\"device\":0,\"stream\":7," \
	"\"start_ns\":1000,\"end_ns\":5200,\"correlation\":311}\n"
#define PROF(status, more) "{\"kind\":\"device_profiler\",\"source\":\"cupti\",\"status\":\"" \
	status "\"" more "}\n"
#define UNAVAIL_MORE ",\"failed_call\":\"cuptiActivityEnable(CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION)\"," \
	"\"cupti_result\":999,\"message\":\"CUPTI_ERROR_UNKNOWN\""
#define UNAVAIL_TEXT "cuptiActivityEnable(CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION): CUPTI_ERROR_UNKNOWN"

static const tlc_join_summary *join_log(fx *f, const char *log, tlc_op_recorder *rec)
{
	tlc_join_free(f->j);
	tlc_eval_free(f->ev);
	f->j = NULL;
	tlc_eval_options o = { sizeof o, 1, rec ? tlc_op_recorder_on_op : NULL, rec };
	assert_int_equal(tlc_eval_new(&f->ev, f->eng, &o), 0);
	if (tlc_oplog_read_mem(f->ev, log, strlen(log), "p.oplog") < 0)
		fail_msg("%s: %s", tlc_error_last()->code, tlc_error_last()->message);
	assert_int_equal(tlc_eval_finish(f->ev), 0);
	assert_int_equal(tlc_join_run(&f->j, f->ev, NULL), 0);
	return tlc_join_get_summary(f->j);
}

static char *report(fx *f, int fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	assert_non_null(m);
	assert_int_equal(tlc_write_join(m, f->j, f->ev, fmt), 0);
	fclose(m);
	return buf;
}

/* unavailable: the profiler's text is carried (summary, reason, text,
 * JSON); no launch, no device time, rows unavailable. */
static void profiler_unavailable(void **state)
{
	fx *f = *state;
	const tlc_join_summary *s = join_log(f, LOG_HEAD PROF("unavailable", UNAVAIL_MORE), NULL);
	assert_int_equal(s->state, TLC_JOIN_UNAVAILABLE);
	assert_int_equal(s->path, TLC_JOIN_PATH_NONE);
	assert_int_equal(s->launches, 0);
	assert_int_equal(s->profiler_state, TLC_PROFILER_UNAVAILABLE);
	assert_string_equal(s->profiler_source, "cupti");
	assert_string_equal(s->profiler_message, UNAVAIL_TEXT);
	assert_non_null(strstr(s->path_reason, "(cupti) was unavailable: " UNAVAIL_TEXT));
	assert_int_equal(row(f, "aten::mm")->attribution, TLC_ATTR_UNAVAILABLE);
	assert_false(row(f, "aten::mm")->row_flags & TLC_ROW_HAS_DEVICE_TIME);
	assert_int_equal(tlc_join_require_device_time(f->j), TLC_EREFUSED);
	char *t = report(f, TLC_FORMAT_TEXT);
	assert_non_null(strstr(t, "device-time join: unavailable (path: none)"));
	assert_non_null(strstr(t, "device profiler (cupti) says: unavailable: " UNAVAIL_TEXT "\n"));
	assert_null(strstr(t, "launches:")); /* a disclosure, not a launch table */
	free(t);
	t = report(f, TLC_FORMAT_JSON);
	assert_non_null(strstr(t, "\"profiler\": {\n    \"state\": \"unavailable\",\n    "
	                          "\"source\": \"cupti\",\n    \"message\": \"" UNAVAIL_TEXT "\"\n  }"));
	free(t);
	/* without a statement the same input is unavailable for want of records */
	s = join_log(f, LOG_HEAD, NULL);
	assert_int_equal(s->state, TLC_JOIN_UNAVAILABLE);
	assert_int_equal(s->profiler_state, TLC_PROFILER_UNKNOWN);
	assert_null(s->profiler_message);
	assert_non_null(strstr(s->path_reason, "without a device profiler"));
	t = report(f, TLC_FORMAT_TEXT);
	assert_null(strstr(t, "device profiler (")); /* no statement, no line */
	free(t);
	/* launch records are facts whatever the statement says */
	s = join_log(f, LOG_HEAD LOG_RT LOG_K PROF("unavailable", UNAVAIL_MORE), NULL);
	assert_int_equal(s->state, TLC_JOIN_JOINED);
	assert_int_equal(s->kernels_attributed, 1);
}

/* empty: the profiler ran and saw nothing: an empty set (rows have a known
 * device time of 0), not unavailable; the gate cannot pass on nothing. */
static void profiler_empty(void **state)
{
	fx *f = *state;
	const tlc_join_summary *s = join_log(f, LOG_HEAD PROF("empty", ",\"kernels\":0"), NULL);
	assert_int_equal(s->state, TLC_JOIN_EMPTY);
	assert_int_equal(s->path, TLC_JOIN_PATH_NONE);
	assert_non_null(strstr(s->path_reason, "(cupti) ran and saw no device activity"));
	assert_int_equal(s->launches, 0);
	assert_false(s->gate_passed);
	assert_true(row(f, "aten::mm")->row_flags & TLC_ROW_HAS_DEVICE_TIME);
	assert_int_equal(row(f, "aten::mm")->device_time_ns, 0);
	assert_int_equal(tlc_join_require_device_time(f->j), 0);
	char *t = report(f, TLC_FORMAT_TEXT);
	assert_non_null(strstr(t, "device-time join: empty"));
	assert_non_null(strstr(t, "device profiler (cupti) says: empty\n"));
	free(t);
	/* runtime calls, no launch, statement empty: empty as before */
	s = join_log(f, LOG_HEAD LOG_RT PROF("empty", ""), NULL);
	assert_int_equal(s->state, TLC_JOIN_EMPTY);
}

/* partial: counts are lower bounds and the gate cannot pass, with or
 * without records kept; complete changes nothing. */
static void profiler_partial_complete(void **state)
{
	fx *f = *state;
	const tlc_join_summary *s =
		join_log(f, LOG_HEAD PROF("partial", ",\"lower_bound\":true,\"dropped\":3") LOG_RT LOG_K, NULL);
	assert_int_equal(s->state, TLC_JOIN_PARTIAL);
	assert_int_equal(s->kernels_attributed, 1);
	assert_false(s->gate_passed);
	char *t = report(f, TLC_FORMAT_TEXT);
	assert_non_null(strstr(t, "PARTIAL: the source dropped records"));
	assert_non_null(strstr(t, "FAILED (partial input cannot prove it)"));
	free(t);
	s = join_log(f, LOG_HEAD PROF("partial", ""), NULL);
	assert_int_equal(s->state, TLC_JOIN_PARTIAL);
	assert_int_equal(s->path, TLC_JOIN_PATH_NONE);
	s = join_log(f, LOG_HEAD LOG_RT PROF("partial", ""), NULL);
	assert_int_equal(s->state, TLC_JOIN_PARTIAL); /* partial wins over empty */
	s = join_log(f, LOG_HEAD LOG_RT LOG_K PROF("complete", ",\"kernels\":1"), NULL);
	assert_int_equal(s->state, TLC_JOIN_JOINED);
	assert_true(s->gate_passed);
	assert_int_equal(s->profiler_state, TLC_PROFILER_COMPLETE);
	s = join_log(f, LOG_HEAD PROF("complete", ""), NULL);
	assert_int_equal(s->state, TLC_JOIN_UNAVAILABLE); /* as without a statement */
	/* the API statement acts like the op log's */
	tlc_join_free(f->j);
	tlc_eval_free(f->ev);
	f->j = NULL;
	join(f, TRACE(OPX("aten::mm", 1, 0, 100, 1, MM_ARGS)), 0);
	tlc_join_free(f->j);
	f->j = NULL;
	tlc_profiler_status st = { sizeof st, TLC_PROFILER_EMPTY, "mine", NULL };
	assert_int_equal(tlc_eval_set_profiler_status(f->ev, &st), 0);
	assert_int_equal(tlc_join_run(&f->j, f->ev, NULL), 0);
	assert_int_equal(tlc_join_get_summary(f->j)->state, TLC_JOIN_EMPTY);
	assert_non_null(strstr(tlc_join_get_summary(f->j)->path_reason, "(mine) ran"));
}

/* --save keeps the statement: the saved file re-derives the same state;
 * dropping its device_profiler line changes the state and is refused. */
static void profiler_saved(void **state)
{
	fx *f = *state;
	static const char *const logs[] = {
		LOG_HEAD PROF("empty", ""), LOG_HEAD PROF("unavailable", UNAVAIL_MORE),
	};
	for (size_t i = 0; i < 2; i++) {
		tlc_op_recorder *rec;
		assert_int_equal(tlc_op_recorder_new(&rec), 0);
		tlc_join_state st = join_log(f, logs[i], rec)->state;
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);
		assert_int_equal(tlc_join_save(m, f->j, f->ev, rec), 0);
		fclose(m);
		tlc_op_recorder_free(rec);
		int saved = 0;
		assert_int_equal(reread(f, buf, len, &saved), 0);
		assert_true(saved);
		assert_int_equal(tlc_join_get_summary(f->j)->state, st);
		if (i == 1)
			assert_string_equal(tlc_join_get_summary(f->j)->profiler_message, UNAVAIL_TEXT);
		char *line = strstr(buf, "{\"kind\":\"device_profiler\"");
		assert_non_null(line);
		char *end = strchr(line, '\n');
		memmove(line, end + 1, strlen(end + 1) + 1);
		if (i == 0) { /* empty -> unavailable without the statement */
			assert_int_equal(reread(f, buf, strlen(buf), &saved), TLC_EINPUT);
			assert_string_equal(tlc_error_last()->code, "saved_join_mismatch");
		}
		free(buf);
	}
}

/* Writers: csv has a header and one row per launch; text states the gate. */
static void writers(void **state)
{
	fx *f = *state;
	join(f, TRACE(OP("aten::mm", 1, 0, 100, 1) RT(1, 10, 10, 1) K("k,\\\"q\\\"", 100, 1, 10)
	              K("orphan", 200, 1, 99)), 0);
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	assert_int_equal(tlc_write_join(m, f->j, f->ev, TLC_FORMAT_CSV), 0);
	fclose(m);
	size_t lines = 0;
	for (size_t i = 0; i < len; i++)
		lines += buf[i] == '\n';
	assert_int_equal(lines, 3);
	assert_non_null(strstr(buf, "\"k,\"\"q\"\"\""));
	assert_non_null(strstr(buf, ",attributed,1,\"aten::mm\","));
	free(buf);
	m = open_memstream(&buf, &len);
	assert_int_equal(tlc_write_join(m, f->j, f->ev, TLC_FORMAT_TEXT), 0);
	fclose(m);
	assert_non_null(strstr(buf, "FAILED"));
	assert_non_null(strstr(buf, "1 x orphan"));
	free(buf);
	m = open_memstream(&buf, &len);
	assert_int_equal(tlc_write_join(m, f->j, f->ev, TLC_FORMAT_JSON), 0);
	fclose(m);
	assert_non_null(strstr(buf, "\"kernels_attributed\": 1"));
	free(buf);
}

/* ---------------------------------------------------------------- */
/* real traces                                                       */
/* ---------------------------------------------------------------- */

static int real_trace(fx *f, const char *name)
{
	const char *dir = getenv("TLCOST_SHARED_DIR");
	char path[4096];
	if (!dir)
		return 0;
	snprintf(path, sizeof path, "%s/traces/%s", dir, name);
	FILE *probe = fopen(path, "rb");
	if (!probe)
		return 0;
	fclose(probe);
	tlc_eval_options o = { sizeof o, 1, NULL, NULL };
	assert_int_equal(tlc_eval_new(&f->ev, f->eng, &o), 0);
	if (tlc_trace_read(f->ev, path) < 0)
		fail_msg("%s: %s", tlc_error_last()->code, tlc_error_last()->message);
	assert_int_equal(tlc_eval_finish(f->ev), 0);
	assert_int_equal(tlc_join_run(&f->j, f->ev, NULL), 0);
	return 1;
}

/* SOURCES.md: 768 kernels, 766 reach a cpu_op by External id; the other two
 * are `_copy_page_indices_kernel` launched by cuLaunchKernelEx without an
 * External id, durations 2.72 and 2.368 us = 5088 ns (read from the trace). */
static void b200(void **state)
{
	fx *f = *state;
	if (!real_trace(f, "b200-eager-inference.json.gz"))
		skip();
	const tlc_join_summary *s = tlc_join_get_summary(f->j);
	assert_int_equal(s->path, TLC_JOIN_PATH_CORRELATION);
	assert_int_equal(s->kernels, 768);
	assert_int_equal(s->kernels_attributed, 766);
	assert_int_equal(s->kernels_unattributed, 2);
	assert_int_equal(tlc_join_remainder_count(f->j), 1);
	const tlc_join_remainder *r = tlc_join_remainder_at(f->j, 0);
	assert_string_equal(r->name, "_copy_page_indices_kernel");
	assert_int_equal(r->count, 2);
	assert_int_equal(r->time_ns, 5088);
	assert_int_equal(s->launches, 768 + 161);
	assert_true(s->gate_passed);
	assert_int_equal(tlc_eval_op_count(f->ev), 4809);
}

/* SOURCES.md: External id == correlation on every runtime call, so the
 * correlation path matches nothing; containment reaches all 245 kernels.
 * Per-phase kernel time, derived independently with a Python script over
 * the JSON (innermost cpu_op holding the runtime call's ts on its tid;
 * optimizer = inside `Optimizer.step#Adagrad.step` on tid 59811; backward =
 * tid 59976, the thread whose top-level ops are evaluate_function wrappers):
 * forward 3807 us (77 kernels), backward 2816 us (104), optimizer 209 us (64). */
static void v100(void **state)
{
	fx *f = *state;
	if (!real_trace(f, "v100-dlrm-training.json.gz"))
		skip();
	const tlc_join_summary *s = tlc_join_get_summary(f->j);
	assert_int_equal(s->path, TLC_JOIN_PATH_CONTAINMENT);
	assert_int_equal(s->launch_calls_external_matched, 0);
	assert_int_equal(s->kernels, 245);
	assert_int_equal(s->kernels_attributed, 245);
	assert_int_equal(tlc_join_phase_at(f->j, TLC_PHASE_FORWARD)->attributed_ns, 3807000);
	/* 2,816 us of backward kernel time, of which 137 us (18 kernels) are
	 * launched by the fbgemm CppNode rows themselves: time on rows that are
	 * not ops (issue 25; tests/cli/join_gate_check.py derives both from the raw
	 * JSON, and tests/cli/join_gate_real.sh compares) */
	assert_int_equal(tlc_join_phase_at(f->j, TLC_PHASE_BACKWARD)->attributed_ns, 2679000);
	assert_int_equal(tlc_join_phase_at(f->j, TLC_PHASE_BACKWARD)->total_ns, 2816000);
	assert_int_equal(tlc_join_phase_at(f->j, TLC_PHASE_OPTIMIZER)->attributed_ns, 209000);
	assert_true(s->gate_passed);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(nested_ops, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(overlay_attach_detach, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(wrappers_own_launches, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(gate_counts_ops, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(wrapper_under_op, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(one_op_many_kernels, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(one_launch_several_ops, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(kernel_before_window, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(zero_duration_kernel, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(streams_and_devices, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(memcpy_memset, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(equal_timestamps, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(containment_fallback, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(containment_overlap_ambiguous, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(gate_separate_phases, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(utilization_after_gate, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(unavailable, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(empty, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(requires_finished, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(requires_rows, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(oplog_records, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(absurd_times, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(writers, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(profiler_unavailable, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(profiler_empty, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(profiler_partial_complete, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(profiler_saved, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(saved_join_roundtrip, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(b200, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(v100, fx_setup, fx_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
