/* Writers of the device-time join: text summary, JSON, per-launch CSV. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "eval.h"
#include "rows.h"
#include "join.h"
#include "join_comm.h"
#include "jsonw.h"
#include "textw.h"
#include "write_capture.h"

/* "12.345 ms" from integer nanoseconds, without floating point. */
static void fmt_ms(char *buf, size_t cap, int64_t ns)
{
	int64_t us = ns / 1000;
	snprintf(buf, cap, "%" PRId64 ".%03" PRId64 " ms", us / 1000, us % 1000);
}

static void fmt_share(char *buf, size_t cap, uint32_t permille)
{
	snprintf(buf, cap, "%u.%u%%", permille / 10, permille % 10);
}

/* Duration of a record, saturated (the difference may not fit int64). */
static int64_t dur(const tlc_device_record *r)
{
	uint64_t d = (uint64_t)r->end_ns - (uint64_t)r->start_ns;
	return r->end_ns <= r->start_ns ? 0 : d > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)d;
}

static const char *kind_name(tlc_device_kind k)
{
	switch (k) {
	case TLC_DEVICE_KERNEL: return "kernel";
	case TLC_DEVICE_MEMCPY: return "memcpy";
	case TLC_DEVICE_MEMSET: return "memset";
	case TLC_DEVICE_RUNTIME: return "runtime";
	default: return "driver";
	}
}

static const char *launch_label(const tlc_device_record *r)
{
	return r->name ? r->name : kind_name(r->kind);
}

/* The runtime call's name of a launch, or NULL without one. */
static const char *runtime_name(const tlc_eval *ev, const tlc_join_launch *l)
{
	return l->runtime >= 0 ? tlc_eval__device(ev, (size_t)l->runtime).name : NULL;
}

/* ---------------------------------------------------------------- */
/* text                                                              */
/* ---------------------------------------------------------------- */

static void text_summary(FILE *out, const tlc_join_summary *s)
{
	char a[32], b[32], c[32], d[32];
	fprintf(out, "device-time join: %s (path: %s)\n", tlc_join_state_name(s->state),
	        tlc_join_path_name(s->path));
	fprintf(out, "  why: %s\n", s->path_reason ? s->path_reason : "");
	if (s->profiler_state != TLC_PROFILER_UNKNOWN) {
		fprintf(out, "  device profiler (%s) says: %s",
		        s->profiler_source ? s->profiler_source : "unnamed",
		        tlc_profiler_state_name(s->profiler_state));
		if (s->profiler_message)
			fprintf(out, ": %s", s->profiler_message);
		fputc('\n', out);
	}
	if (s->state == TLC_JOIN_UNAVAILABLE) {
		fprintf(out, "  device time is unavailable: %s\n",
		        s->profiler_state == TLC_PROFILER_UNAVAILABLE
		        ? "the device profiler recorded no kernel activity to time (its statement above: "
		          "one disclosure, no launch counted)"
		        : "no device profiler records in this input");
		return;
	}
	if (s->state == TLC_JOIN_EMPTY)
		fprintf(out, "  EMPTY: the device profiler ran and recorded no launch (an empty set, "
		        "not unavailable)\n");
	if (s->state == TLC_JOIN_PARTIAL)
		fprintf(out, "  PARTIAL: the source dropped records; every count below is a lower bound\n");
	fprintf(out, "  runtime calls owning launches: %" PRIu64 " (%" PRIu64 " with an external id, %"
	        PRIu64 " naming an op, %" PRIu64 " equal to their own correlation)\n",
	        s->launch_calls, s->launch_calls_with_external, s->launch_calls_external_matched,
	        s->launch_calls_external_self);
	fprintf(out, "launches: %" PRIu64 " (%" PRIu64 " kernels): attributed %" PRIu64
	        ", ambiguous %" PRIu64 " (in %" PRIu64 " groups), unattributed %" PRIu64 "\n",
	        s->launches, s->kernels, s->launches_attributed, s->launches_ambiguous,
	        s->ambiguous_groups, s->launches_unattributed);
	fprintf(out, "kernels: %" PRIu64 " of %" PRIu64 " attributed, %" PRIu64 " ambiguous, %" PRIu64
	        " unattributed\n", s->kernels_attributed, s->kernels, s->kernels_ambiguous,
	        s->kernels_unattributed);
	fmt_ms(a, sizeof a, s->kernel_ns);
	fmt_ms(b, sizeof b, s->kernel_attributed_ns);
	fmt_ms(c, sizeof c, s->kernel_ambiguous_ns);
	fmt_ms(d, sizeof d, s->kernel_unattributed_ns);
	fprintf(out, "kernel time (sum of durations): %s; attributed %s, ambiguous %s, "
	        "unattributed %s, internal %" PRId64 " ns (no profiler bookkeeping activity is "
	        "recorded on the device by this source)\n", a, b, c, d, s->kernel_internal_ns);
	fmt_ms(a, sizeof a, s->busy_ns);
	fmt_ms(b, sizeof b, s->device_ns);
	fprintf(out, "device busy (union of intervals, all devices): %s; all launches summed: %s\n",
	        a, b);
}

static uint32_t permille_of(int64_t part, int64_t whole)
{
	__extension__ typedef unsigned __int128 u128;
	return whole > 0 ? (uint32_t)((u128)(uint64_t)part * 1000u / (uint64_t)whole) : 0;
}

/* The headline beside the gate: how much kernel time FLOPs and bytes can be
 * put beside (its costed row has a known cost), and how much landed on rows
 * that are not ops. */
static void text_costed(FILE *out, const tlc_join *j)
{
	char a[32], b[32], sh[16];
	const tlc_join_detail *d = &j->detail;
	fmt_ms(a, sizeof a, d->kernel_known_cost_ns);
	fmt_ms(b, sizeof b, j->sum.kernel_ns);
	fmt_share(sh, sizeof sh, permille_of(d->kernel_known_cost_ns, j->sum.kernel_ns));
	fprintf(out, "kernel time with a known cost: %s of %s = %s (the launching op's costed row, "
	        "itself or the evaluated op that owns it, has a known cost)\n", a, b, sh);
	if (!d->kernels_on_wrapper)
		return;
	fmt_ms(a, sizeof a, d->kernel_on_wrapper_ns);
	fprintf(out, "kernel time on rows that are not ops: %" PRIu64 " kernels, %s (launched under "
	        "wrappers only, no op between: not attributed for the gate; by row below)\n",
	        d->kernels_on_wrapper, a);
}

static void text_devices(FILE *out, const tlc_join *j)
{
	char a[32], b[32], c[32], d[32];
	for (size_t i = 0; i < j->ndevices; i++) {
		const tlc_join_device *v = &j->devices[i];
		fmt_ms(a, sizeof a, v->busy_ns);
		fmt_ms(b, sizeof b, v->attributed_ns);
		fmt_ms(c, sizeof c, v->ambiguous_ns);
		fmt_ms(d, sizeof d, v->unattributed_ns);
		fprintf(out, "  device %" PRId64 ": %" PRIu64 " launches, busy %s; attributed %s, "
		        "ambiguous %s, unattributed %s, internal %" PRId64 " ns\n", v->device,
		        v->launches, a, b, c, d, v->internal_ns);
	}
}

/* The phase's kernel time that is not attributed, by cause: every phase
 * states all the kernel time that ran in it. */
static void text_phase_rest(FILE *out, const tlc_join *j, const tlc_join_phase *p)
{
	const struct { int64_t ns; const char *what; } part[] = {
		{ j->detail.phase_on_wrapper_ns[p->phase], "on rows that are not ops (wrappers)" },
		{ j->detail.phase_annotated_ns[p->phase],
		  "unattributed, its runtime call inside the phase's annotation" },
		{ p->ambiguous_ns, "ambiguous within the phase" },
		{ p->unphased_ns, "unattributed or ambiguous across phases (counted against every phase)" },
	};
	const char *sep = "";
	for (size_t k = 0; k < sizeof part / sizeof part[0]; k++) {
		char a[32];
		if (part[k].ns <= 0)
			continue;
		fmt_ms(a, sizeof a, part[k].ns);
		fprintf(out, "%s%s %s", *sep ? sep : "            not attributed: ", a, part[k].what);
		sep = "; ";
	}
	if (*sep)
		fputc('\n', out);
}

static void text_phase(FILE *out, const tlc_join *j, const tlc_join_phase *p)
{
	char a[32], b[32], sh[16], g[16];
	const char *name = tlc_phase_name(p->phase);
	if (!p->present) {
		fprintf(out, "  %-9s no kernel time%s\n", name, p->gated ? " (gate not applicable)" : "");
		return;
	}
	fmt_ms(a, sizeof a, p->attributed_ns);
	fmt_ms(b, sizeof b, p->total_ns);
	fmt_share(sh, sizeof sh, p->share_permille);
	fprintf(out, "  %-9s attributed %s of %s = %s", name, a, b, sh);
	if (!p->gated) {
		fprintf(out, " (not gated)\n");
	} else if (p->passed) {
		fprintf(out, "  PASS\n");
	} else {
		fmt_share(g, sizeof g, j->sum.gate_permille - p->share_permille);
		fprintf(out, "  FAIL (%s short)\n", g);
	}
	text_phase_rest(out, j, p);
}

static void text_remainder(FILE *out, const tlc_join *j)
{
	char a[32];
	if (j->nremainder == 0) {
		fprintf(out, "remainder: none (every launch is attributed or in an ambiguous group)\n");
		return;
	}
	fprintf(out, "remainder (unattributed launches, by time):\n");
	for (size_t i = 0; i < j->nremainder; i++) {
		fmt_ms(a, sizeof a, j->remainder[i].time_ns);
		fprintf(out, "  %" PRIu64 " x %s  %s\n", j->remainder[i].count, j->remainder[i].name, a);
	}
}

static void text_wrappers(FILE *out, const tlc_join *j)
{
	if (j->nwrappers == 0)
		return;
	fprintf(out, "on rows that are not ops (kernel time launched under wrappers only: not "
	        "attributed for the gate, no cost; by time):\n");
	for (size_t i = 0; i < j->nwrappers; i++) {
		const tlc_join_wrapper *w = &j->wrappers[i];
		char a[32];
		fmt_ms(a, sizeof a, w->time_ns);
		fprintf(out, "  %" PRIu64 " x %s (%s)  %s", w->kernels, w->name, tlc_phase_name(w->phase), a);
		if (w->graph_replays)
			fprintf(out, "; %" PRIu64 " replayed from a graph launch", w->graph_replays);
		fputc('\n', out);
	}
}

/* Why launches stayed unattributed, in words (the JSON has the same per
 * launch): one line per cause, with the launch count and their time. The
 * causes are the join's static strings, so a few pointers tell them apart. */
static void text_why(FILE *out, const tlc_join *j)
{
	enum { MAXW = 8 };
	const char *why[MAXW];
	uint64_t n[MAXW];
	int64_t ns[MAXW];
	size_t k = 0;
	for (size_t i = 0; i < j->nlaunches; i++) {
		tlc_join_launch l_ = tlc_join__launch(j, i);
		const tlc_join_launch *l = &l_;
		if (l->status != TLC_ATTR_UNATTRIBUTED || !l->why)
			continue;
		size_t w = 0;
		while (w < k && why[w] != l->why)
			w++;
		if (w == k) {
			if (k == MAXW)
				continue;
			why[k] = l->why, n[k] = 0, ns[k] = 0, k++;
		}
		n[w]++;
		tlc_device_record r;
		tlc_devs__get(j->devs, l->rec, &r);
		int64_t d = dur(&r);
		ns[w] = d > INT64_MAX - ns[w] ? INT64_MAX : ns[w] + d;
	}
	if (k)
		fprintf(out, "unattributed launches by cause:\n");
	for (size_t w = 0; w < k; w++) {
		char a[32];
		fmt_ms(a, sizeof a, ns[w]);
		fprintf(out, "  %" PRIu64 " x %s  %s\n", n[w], why[w], a);
	}
}

/* A correlation join whose owners do not hold their launching calls. */
static void text_outside(FILE *out, const tlc_join *j)
{
	if (j->sum.path != TLC_JOIN_PATH_CORRELATION || !j->corr_outside)
		return;
	fprintf(out, "WARNING: %" PRIu64 " of %" PRIu64 " launches attributed by correlation name an op "
	        "whose host interval does not hold the launching runtime call on its thread: the "
	        "External ids coincide with op ids by accident; compare with --force-containment\n",
	        j->corr_outside, j->corr_checked);
}

/* Communication (docs/collectives.md, "Achieved bandwidth"): per collective
 * kind the device time and achieved bandwidth, and per phase the overlap,
 * only under a passed gate (contract section 7). */
static const char *const REFUSED_WHY = "the device-time join did not pass the gate: a "
	"collective's device time is not known well enough to divide its bytes by";

static void text_comm(FILE *out, const tlc_join *j, const tlc_join__comm *c,
                      const tlc_link_preset *link)
{
	if (!tlc_join__comm_any(c))
		return;
	if (!j->sum.gate_passed) {
		fprintf(out, "communication: achieved bandwidth and overlap refused: %s\n", REFUSED_WHY);
		return;
	}
	fprintf(out, "communication (bytes analytic: nccl-tests S and bus factor; device time of "
	             "each collective from this join; achieved, under the passed gate):\n");
	for (int k = 0; k < TLC_COMM_COUNT; k++) {
		if (!c->bw_calls[k])
			continue;
		fprintf(out, "  %-14s ", tlc_comm_kind_name((tlc_comm_kind)k));
		tlc_join__comm_kind_text(out, c, k, link);
	}
	if (!link)
		fprintf(out, "  (no link ceiling: the input names no device with a link preset)\n");
	fprintf(out, "  overlap (share of NCCL/RCCL kernel time during which a compute kernel runs "
	             "on another stream):\n");
	for (int p = 0; p < TLC_PHASE_COUNT; p++) {
		if (!c->ph_comm[p])
			continue;
		char a[32], b[32];
		fmt_ms(a, sizeof a, c->ph_overlap[p]);
		fmt_ms(b, sizeof b, c->ph_comm[p]);
		fprintf(out, "    %-9s %s of %s = %.1f%%\n", tlc_phase_name((tlc_phase)p), a, b,
		        100.0 * (double)c->ph_overlap[p] / (double)c->ph_comm[p]);
	}
	char a[32], b[32];
	fmt_ms(a, sizeof a, c->overlap_ns);
	fmt_ms(b, sizeof b, c->comm_ns);
	fprintf(out, "    %-9s %s of %s = %.1f%%\n", "all", a, b,
	        c->comm_ns ? 100.0 * (double)c->overlap_ns / (double)c->comm_ns : 0.0);
}

static int write_text(FILE *out, const tlc_join *j, const tlc_eval *ev, const tlc_join__comm *c,
                      const tlc_link_preset *link)
{
	char g[16];
	text_summary(out, &j->sum);
	if (j->sum.state == TLC_JOIN_UNAVAILABLE)
		return ferror(out) ? TLC_EIO : 0;
	text_costed(out, j);
	tlc_join__text_capture(out, j, ev);
	text_outside(out, j);
	text_why(out, j);
	fprintf(out, "devices:\n");
	text_devices(out, j);
	fmt_share(g, sizeof g, j->sum.gate_permille);
	fprintf(out, "phases (kernel time attributed to ops; time on rows that are not ops is not "
	        "attributed; unattributed time outside every phase's annotation counts against "
	        "every phase):\n");
	for (int p = 0; p < TLC_PHASE_COUNT; p++)
		text_phase(out, j, &j->phases[p]);
	fprintf(out, "gate (>= %s of kernel time attributed, forward and backward separately): %s\n",
	        g, j->sum.gate_passed ? "PASSED" :
	        j->sum.state == TLC_JOIN_PARTIAL ? "FAILED (partial input cannot prove it)" :
	        !j->phases[0].present && !j->phases[1].present ? "FAILED (no attributed kernel time)" :
	        "FAILED");
	if (!j->sum.gate_passed)
		fprintf(out, "  attributed kernel utilization stays refused "
		        "(kernel_utilization_requires_device_join)\n");
	text_comm(out, j, c, link);
	text_remainder(out, j);
	text_wrappers(out, j);
	return ferror(out) ? TLC_EIO : 0;
}

/* ---------------------------------------------------------------- */
/* csv: one row per launch                                           */
/* ---------------------------------------------------------------- */

/* An op as reports show it: name, or name.overload (a Kineto wrapper row's
 * original text is its overload, docs/kineto.md). */
static void csv_op(FILE *out, const tlc_op_row *row)
{
	const char *ov = row->overload && *row->overload ? row->overload : NULL;
	size_t n = strlen(row->name ? row->name : "") + (ov ? strlen(ov) + 2 : 1);
	char *s = malloc(n);
	if (s)
		snprintf(s, n, "%s%s%s", row->name ? row->name : "", ov ? "." : "", ov ? ov : "");
	tlc_textw__csv(out, s ? s : row->name, 1); /* (without its overload only when out of memory) */
	free(s);
}

static int write_csv(FILE *out, const tlc_join *j, const tlc_eval *ev)
{
	fprintf(out, "launch,kind,name,device,stream,start_ns,duration_ns,correlation,"
	        "runtime_name,status,op_id,op_name,group\n");
	for (size_t i = 0; i < j->nlaunches; i++) {
		tlc_join_launch l_ = tlc_join__launch(j, i);
		const tlc_join_launch *l = &l_;
		tlc_device_record r_ = tlc_eval__device(ev, l->rec);
		const tlc_device_record *r = &r_;
		fprintf(out, "%zu,%s,", i, kind_name(r->kind));
		tlc_textw__csv(out, launch_label(r), 1);
		fprintf(out, ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",", r->device, r->stream,
		        r->start_ns, dur(r));
		if (r->flags & TLC_DEV_HAS_CORRELATION)
			fprintf(out, "%" PRId64, r->correlation);
		fputc(',', out);
		const char *rt = runtime_name(ev, l);
		tlc_textw__csv(out, l->runtime >= 0 ? rt : "", 1);
		fprintf(out, ",%s,", tlc_attribution_name(l->status));
		if (l->op_row >= 0) {
			tlc_op_row row_ = tlc_eval__row(ev, (size_t)l->op_row);
			const tlc_op_row *row = &row_;
			fprintf(out, "%" PRId64 ",", row->id);
			csv_op(out, row);
		} else {
			fputc(',', out);
		}
		fputc(',', out);
		if (l->group >= 0)
			fprintf(out, "%" PRId64, l->group);
		fputc('\n', out);
	}
	return ferror(out) ? TLC_EIO : 0;
}

/* ---------------------------------------------------------------- */
/* json                                                              */
/* ---------------------------------------------------------------- */

/* Which input and rank this is: what `tlcost merge` keeps per partial. */
static void json_identity(yajl_gen g, const tlc_eval *ev)
{
	const tlc_input_info *in = tlc_eval_info(ev);
	tlc_jsonw__key(g, "input");
	yajl_gen_map_open(g);
	tlc_jsonw__kstr(g, "format", in ? in->format : NULL);
	tlc_jsonw__kstr(g, "producer", in ? in->producer : NULL);
	tlc_jsonw__kstr(g, "model", in ? in->model : NULL);
	tlc_jsonw__kstr(g, "device", in ? in->device : NULL);
	yajl_gen_map_close(g);
	tlc_join__dist_json(g, ev);
}

static void json_summary(yajl_gen g, const tlc_join_summary *s, const tlc_join_detail *d)
{
	tlc_jsonw__kstr(g, "state", tlc_join_state_name(s->state));
	tlc_jsonw__kstr(g, "path", tlc_join_path_name(s->path));
	tlc_jsonw__kstr(g, "path_reason", s->path_reason);
	tlc_jsonw__key(g, "profiler");
	yajl_gen_map_open(g);
	tlc_jsonw__kstr(g, "state", tlc_profiler_state_name(s->profiler_state));
	tlc_jsonw__kstr(g, "source", s->profiler_source);
	tlc_jsonw__kstr(g, "message", s->profiler_message);
	yajl_gen_map_close(g);
	tlc_jsonw__kuint(g, "launches", s->launches);
	tlc_jsonw__kuint(g, "kernels", s->kernels);
	tlc_jsonw__kuint(g, "launches_attributed", s->launches_attributed);
	tlc_jsonw__kuint(g, "launches_ambiguous", s->launches_ambiguous);
	tlc_jsonw__kuint(g, "launches_unattributed", s->launches_unattributed);
	tlc_jsonw__kuint(g, "kernels_attributed", s->kernels_attributed);
	tlc_jsonw__kuint(g, "kernels_ambiguous", s->kernels_ambiguous);
	tlc_jsonw__kuint(g, "kernels_unattributed", s->kernels_unattributed);
	tlc_jsonw__kint(g, "device_ns", s->device_ns);
	tlc_jsonw__kint(g, "busy_ns", s->busy_ns);
	tlc_jsonw__kint(g, "kernel_ns", s->kernel_ns);
	tlc_jsonw__kint(g, "kernel_attributed_ns", s->kernel_attributed_ns);
	tlc_jsonw__kint(g, "kernel_ambiguous_ns", s->kernel_ambiguous_ns);
	tlc_jsonw__kint(g, "kernel_unattributed_ns", s->kernel_unattributed_ns);
	tlc_jsonw__kint(g, "kernel_internal_ns", s->kernel_internal_ns);
	tlc_jsonw__kint(g, "kernel_known_cost_ns", d->kernel_known_cost_ns);
	tlc_jsonw__kuint(g, "kernels_on_wrapper", d->kernels_on_wrapper);
	tlc_jsonw__kint(g, "kernel_on_wrapper_ns", d->kernel_on_wrapper_ns);
	/* the count; "ambiguous_groups" is the list (json_groups) */
	tlc_jsonw__kuint(g, "ambiguous_group_count", s->ambiguous_groups);
	tlc_jsonw__kuint(g, "launch_calls", s->launch_calls);
	tlc_jsonw__kuint(g, "launch_calls_with_external", s->launch_calls_with_external);
	tlc_jsonw__kuint(g, "launch_calls_external_matched", s->launch_calls_external_matched);
	tlc_jsonw__kuint(g, "launch_calls_external_self", s->launch_calls_external_self);
}

static void json_gate(yajl_gen g, const tlc_join *j)
{
	tlc_jsonw__key(g, "gate");
	yajl_gen_map_open(g);
	tlc_jsonw__kuint(g, "threshold_permille", j->sum.gate_permille);
	tlc_jsonw__kbool(g, "passed", j->sum.gate_passed);
	tlc_jsonw__key(g, "phases");
	yajl_gen_array_open(g);
	for (int p = 0; p < TLC_PHASE_COUNT; p++) {
		const tlc_join_phase *ph = &j->phases[p];
		yajl_gen_map_open(g);
		tlc_jsonw__kstr(g, "phase", tlc_phase_name(ph->phase));
		tlc_jsonw__kbool(g, "present", ph->present);
		tlc_jsonw__kbool(g, "gated", ph->gated);
		tlc_jsonw__kint(g, "attributed_ns", ph->attributed_ns);
		tlc_jsonw__kint(g, "ambiguous_ns", ph->ambiguous_ns);
		tlc_jsonw__kint(g, "unphased_ns", ph->unphased_ns);
		tlc_jsonw__kint(g, "on_wrapper_ns", j->detail.phase_on_wrapper_ns[p]);
		tlc_jsonw__kint(g, "annotated_ns", j->detail.phase_annotated_ns[p]);
		tlc_jsonw__kint(g, "total_ns", ph->total_ns);
		tlc_jsonw__kuint(g, "share_permille", ph->share_permille);
		tlc_jsonw__kbool(g, "passed", ph->passed);
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
	yajl_gen_map_close(g);
}

static void json_devices(yajl_gen g, const tlc_join *j)
{
	tlc_jsonw__key(g, "devices");
	yajl_gen_array_open(g);
	for (size_t i = 0; i < j->ndevices; i++) {
		const tlc_join_device *d = &j->devices[i];
		yajl_gen_map_open(g);
		tlc_jsonw__kint(g, "device", d->device);
		tlc_jsonw__kuint(g, "launches", d->launches);
		tlc_jsonw__kint(g, "busy_ns", d->busy_ns);
		tlc_jsonw__kint(g, "device_ns", d->device_ns);
		tlc_jsonw__kint(g, "kernel_ns", d->kernel_ns);
		tlc_jsonw__kint(g, "attributed_ns", d->attributed_ns);
		tlc_jsonw__kint(g, "ambiguous_ns", d->ambiguous_ns);
		tlc_jsonw__kint(g, "unattributed_ns", d->unattributed_ns);
		tlc_jsonw__kint(g, "internal_ns", d->internal_ns);
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
}

static void json_remainder(yajl_gen g, const tlc_join *j)
{
	tlc_jsonw__key(g, "remainder");
	yajl_gen_array_open(g);
	for (size_t i = 0; i < j->nremainder; i++) {
		yajl_gen_map_open(g);
		tlc_jsonw__kstr(g, "name", j->remainder[i].name);
		tlc_jsonw__kuint(g, "count", j->remainder[i].count);
		tlc_jsonw__kint(g, "time_ns", j->remainder[i].time_ns);
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
}

static void json_wrappers(yajl_gen g, const tlc_join *j)
{
	tlc_jsonw__key(g, "wrappers");
	yajl_gen_array_open(g);
	for (size_t i = 0; i < j->nwrappers; i++) {
		const tlc_join_wrapper *w = &j->wrappers[i];
		yajl_gen_map_open(g);
		tlc_jsonw__kstr(g, "name", w->name);
		tlc_jsonw__kstr(g, "phase", tlc_phase_name(w->phase));
		tlc_jsonw__kuint(g, "kernels", w->kernels);
		tlc_jsonw__kuint(g, "graph_replays", w->graph_replays);
		tlc_jsonw__kint(g, "time_ns", w->time_ns);
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
}

static void json_launch(yajl_gen g, const tlc_join_launch *l, const tlc_eval *ev)
{
	tlc_device_record r_ = tlc_eval__device(ev, l->rec);
	const tlc_device_record *r = &r_;
	yajl_gen_map_open(g);
	tlc_jsonw__kstr(g, "kind", kind_name(r->kind));
	tlc_jsonw__kstr(g, "name", launch_label(r));
	tlc_jsonw__kint(g, "device", r->device);
	tlc_jsonw__kint(g, "stream", r->stream);
	tlc_jsonw__kint(g, "start_ns", r->start_ns);
	tlc_jsonw__kint(g, "duration_ns", dur(r));
	if (r->flags & TLC_DEV_HAS_CORRELATION)
		tlc_jsonw__kint(g, "correlation", r->correlation);
	if (l->runtime >= 0)
		tlc_jsonw__kstr(g, "runtime", runtime_name(ev, l));
	tlc_jsonw__kstr(g, "status", tlc_attribution_name(l->status));
	if (l->op_row >= 0)
		tlc_jsonw__kint(g, "op_id", tlc_rows__id(tlc_eval__rows(ev), (size_t)l->op_row));
	if (l->group >= 0)
		tlc_jsonw__kint(g, "group", l->group);
	if (l->why)
		tlc_jsonw__kstr(g, "why", l->why);
	yajl_gen_map_close(g);
}

static void json_groups(yajl_gen g, const tlc_join *j, const tlc_eval *ev)
{
	tlc_jsonw__key(g, "ambiguous_groups");
	yajl_gen_array_open(g);
	for (size_t i = 0; i < j->ngroups; i++) {
		const tlc_join_group *gr = &j->groups[i];
		yajl_gen_map_open(g);
		tlc_jsonw__kint(g, "group", gr->id);
		tlc_jsonw__kuint(g, "launches", gr->launches);
		tlc_jsonw__kint(g, "time_ns", gr->time_ns);
		tlc_jsonw__key(g, "op_ids");
		yajl_gen_array_open(g);
		for (size_t k = 0; k < gr->nrows; k++)
			yajl_gen_integer(g, (long long)tlc_rows__id(tlc_eval__rows(ev), gr->rows[k]));
		yajl_gen_array_close(g);
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
}

static void json_comm(yajl_gen g, const tlc_join *j, const tlc_join__comm *c,
                      const tlc_link_preset *link)
{
	tlc_jsonw__key(g, "communication");
	if (!tlc_join__comm_any(c)) {
		yajl_gen_null(g);
		return;
	}
	yajl_gen_map_open(g);
	tlc_jsonw__kbool(g, "achieved", j->sum.gate_passed);
	tlc_jsonw__kstr(g, "refused", j->sum.gate_passed ? NULL : REFUSED_WHY);
	if (!j->sum.gate_passed) {
		yajl_gen_map_close(g);
		return;
	}
	tlc_join__comm_achieved_json(g, c, link);
	yajl_gen_map_close(g);
}

static int write_json(FILE *out, const tlc_join *j, const tlc_eval *ev, const tlc_join__comm *c,
                      const tlc_link_preset *link, int with_launches)
{
	yajl_gen g = tlc_jsonw__new(out);
	if (!g)
		return tlc_error__oom();
	yajl_gen_map_open(g);
	tlc_jsonw__kstr(g, "schema", "tlcost.join/3");
	tlc_jsonw__kstr(g, "report", "join");
	json_identity(g, ev);
	json_summary(g, &j->sum, &j->detail);
	tlc_join__json_capture(g, j, ev);
	tlc_jsonw__kuint(g, "correlation_checked", j->corr_checked);
	tlc_jsonw__kuint(g, "correlation_outside_host_interval", j->corr_outside);
	json_gate(g, j);
	json_devices(g, j);
	json_remainder(g, j);
	json_wrappers(g, j);
	json_groups(g, j, ev);
	json_comm(g, j, c, link);
	if (with_launches) {
		tlc_jsonw__key(g, "launches");
		yajl_gen_array_open(g);
		for (size_t i = 0; i < j->nlaunches; i++) {
			tlc_join_launch l = tlc_join__launch(j, i);
			json_launch(g, &l, ev);
		}
		yajl_gen_array_close(g);
	}
	yajl_gen_map_close(g);
	return tlc_jsonw__end(g, out);
}

int tlc_write_join(FILE *out, const tlc_join *j, const tlc_eval *ev, tlc_format fmt)
{
	return tlc_write_join_with_link(out, j, ev, fmt, NULL);
}

int tlc_write_join_with_link(FILE *out, const tlc_join *j, const tlc_eval *ev, tlc_format fmt,
                             const tlc_link_preset *link)
{
	if (!out || !j || !ev)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass a stream, a join and its eval",
		                      "tlc_write_join: NULL argument");
	tlc_join__comm c;
	int rc = tlc_join__comm_compute(&c, ev, j);
	if (rc < 0) {
		tlc_join__comm_free(&c);
		return rc;
	}
	if (fmt == TLC_FORMAT_JSON) {
		rc = write_json(out, j, ev, &c, link, 1);
		tlc_join__comm_free(&c);
		return rc;
	}
	FILE *t = tlc_textw__open(out);
	if (!t) {
		tlc_join__comm_free(&c);
		return TLC_ENOMEM;
	}
	rc = fmt == TLC_FORMAT_CSV ? write_csv(t, j, ev) : write_text(t, j, ev, &c, link);
	tlc_join__comm_free(&c);
	return tlc_textw__close(t, out, rc < 0 && rc != TLC_EIO ? rc : 0);
}

int tlc_join__write_json_summary(FILE *out, const tlc_join *j, const tlc_eval *ev,
                                 const struct tlc_join__span *all, size_t nall)
{
	tlc_join__comm c;
	int rc = tlc_join__comm_compute_spans(&c, ev, j, all, nall);
	if (rc == 0)
		rc = write_json(out, j, ev, &c, NULL, 0);
	tlc_join__comm_free(&c);
	return rc;
}
