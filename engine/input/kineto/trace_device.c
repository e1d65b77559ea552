/* Device work that no op row accounts for (docs/cost-contract.md, "Device
 * work"): after a trace is read, every kernel record is traced back to the
 * runtime call that launched it (by correlation id) and that call to the op
 * whose host interval contains it on the same thread. A kernel replayed from
 * a CUDA/HIP graph, launched by a call outside every op, or with no runtime
 * call in the trace did work that no op row describes, so the FLOP totals
 * are a lower bound; each such cause becomes one line with a remedy.
 * Containment, not External ids, decides ownership: External ids coincide
 * with op ids by accident in some traces (docs/join.md), and a call inside
 * an op's interval on its thread is that op's (or a descendant's) launch
 * whatever ids it carries. memcpy/memset records move data and carry no
 * FLOPs: they are counted as not compute. */
#include <stdlib.h>
#include <string.h>
#include "eval.h"
#include "trace.h"

typedef struct ival {
	int64_t tid, start, end;
} ival;

typedef struct corr_ix {
	int64_t corr;
	size_t i;
} corr_ix;

static int cmp_i64(int64_t a, int64_t b) { return (a > b) - (a < b); }

static int cmp_ival(const void *pa, const void *pb)
{
	const ival *a = pa, *b = pb;
	int c = cmp_i64(a->tid, b->tid);
	if (!c) c = cmp_i64(a->start, b->start);
	if (!c) c = cmp_i64(b->end, a->end); /* the longer first: it encloses */
	return c;
}

static int cmp_corr(const void *pa, const void *pb)
{
	const corr_ix *a = pa, *b = pb;
	int c = cmp_i64(a->corr, b->corr);
	return c ? c : (a->i > b->i) - (a->i < b->i);
}

/* Top-level op intervals per thread, sorted: an interval inside the previous
 * one adds nothing to "is this call inside some op". The ops' last use:
 * the intervals are written over their array (an interval is smaller than
 * an op, so interval i never reaches op i + 1), which then shrinks to
 * them, so the two never coexist. *out: the array (the caller frees it),
 * NULL with none. */
static size_t top_intervals(ival **out, tlc_trace_ops *t)
{
	_Static_assert(sizeof(ival) <= sizeof(tlc_trace_op), "intervals are written over the ops");
	size_t nops = t->nops;
	ival *v = (ival *)(void *)t->ops;
	for (size_t i = 0; i < nops; i++) {
		int64_t tid = t->ops[i].tid, s = t->ops[i].start_ns, e = t->ops[i].end_ns;
		v[i] = (ival){ tid, s, e };
	}
	t->ops = NULL;
	t->nops = t->cap = 0;
	ival *shrunk = nops ? tlc_alloc__realloc(t->a, v, nops * sizeof *v) : NULL;
	if (shrunk)
		v = shrunk;
	*out = v;
	int sorted = 1; /* ops mostly come in (thread, start) order: no sort, no copy */
	for (size_t i = 1; i < nops && sorted; i++)
		sorted = cmp_ival(&v[i - 1], &v[i]) <= 0;
	if (!sorted)
		qsort(v, nops, sizeof *v, cmp_ival);
	size_t n = 0;
	for (size_t i = 0; i < nops; i++) {
		if (n && v[n - 1].tid == v[i].tid && v[i].end <= v[n - 1].end)
			continue;
		v[n++] = v[i];
	}
	return n;
}

/* Is [s, e] on thread tid inside one of the top-level intervals? The last
 * interval starting at or before s is the only candidate. */
static int inside_op(const ival *v, size_t n, int64_t tid, int64_t s, int64_t e)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid].tid < tid || (v[mid].tid == tid && v[mid].start <= s))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && v[lo - 1].tid == tid && v[lo - 1].end >= e;
}

/* The host call with correlation corr into *out (records are stored
 * compactly: filled, not pointed at); 0 when there is none. */
static int host_of(tlc_device_record *out, const tlc_eval *ev, const corr_ix *c, size_t n,
                   int64_t corr)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (c[mid].corr < corr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo >= n || c[lo].corr != corr)
		return 0;
	*out = tlc_eval__device(ev, c[lo].i);
	return 1;
}

static int is_graph_launch(const char *name)
{
	return name && strstr(name, "GraphLaunch") != NULL; /* cudaGraphLaunch, hipGraphLaunch, cuGraphLaunch */
}

enum { GAP_GRAPH, GAP_OUTSIDE, GAP_NO_HOST, GAP_COUNT };

typedef struct tally {
	uint64_t n[GAP_COUNT];
	int64_t ns[GAP_COUNT];
	tlc_device_work w;
} tally;

/* Duration, 0 for a reversed interval, saturated (hostile times may differ
 * by more than INT64_MAX). */
static int64_t dur_of(const tlc_device_record *r)
{
	if (r->end_ns <= r->start_ns)
		return 0;
	uint64_t d = (uint64_t)r->end_ns - (uint64_t)r->start_ns;
	return d > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)d;
}

static void add_ns(int64_t *acc, int64_t v)
{
	*acc = v > INT64_MAX - *acc ? INT64_MAX : *acc + v;
}

/* The cause of one launch with correlation corr, or -1 when an op row
 * accounts for it. */
static int cause_of(const tlc_eval *ev, const ival *iv, size_t niv, const corr_ix *hc,
                    size_t nhc, int has_corr, int64_t corr)
{
	tlc_device_record hr;
	const tlc_device_record *h = has_corr && host_of(&hr, ev, hc, nhc, corr) ? &hr : NULL;
	return !h ? GAP_NO_HOST
	     : is_graph_launch(h->name) ? GAP_GRAPH
	     : inside_op(iv, niv, h->thread, h->start_ns, h->end_ns) ? -1 : GAP_OUTSIDE;
}

static void count_launch(tally *y, int gap, int64_t ns)
{
	if (gap < 0) {
		y->w.kernels_in_ops++;
		return;
	}
	y->n[gap]++;
	add_ns(&y->ns[gap], ns);
	y->w.without_op++;
	add_ns(&y->w.without_op_ns, ns);
}

static void classify(tally *y, const tlc_eval *ev, const ival *iv, size_t niv,
                     const corr_ix *hc, size_t nhc, const tlc_trace_ops *t)
{

	for (size_t i = 0; i < tlc_eval__device_count(ev); i++) {
		tlc_device_record r_ = tlc_eval__device(ev, i);
		const tlc_device_record *r = &r_;
		if (r->kind == TLC_DEVICE_MEMCPY || r->kind == TLC_DEVICE_MEMSET) {
			y->w.not_compute++;
			continue;
		}
		if (r->kind != TLC_DEVICE_KERNEL)
			continue;
		y->w.kernels++;
		count_launch(y, cause_of(ev, iv, niv, hc, nhc, (r->flags & TLC_DEV_HAS_CORRELATION) != 0,
		                         r->correlation), dur_of(r));
	}
	/* range-profiler records stand for the profiled kernels (one each, no
	 * device time) when the trace holds no kernel activity record */
	for (size_t i = 0; y->w.kernels == 0 && i < t->nranges; i++) {
		count_launch(y, cause_of(ev, iv, niv, hc, nhc, t->ranges[i] >= 0, t->ranges[i]), 0);
	}
	if (y->w.kernels == 0)
		y->w.kernels = y->w.kernels_in_ops + y->w.without_op;
}

static int report(tlc_eval *ev, const tally *y, const tlc_trace_ops *t)
{
	static const struct { const char *cause, *what, *remedy; } g[GAP_COUNT] = {
		{ "graph_replay", "kernels from graph replay (cudaGraphLaunch/hipGraphLaunch) have no "
		  "op rows",
		  "the graph's ops were captured before the profiling window and are not in the "
		  "trace: profile a step with graphs disabled (eager, or torch.compile without "
		  "cudagraphs; SGLang --disable-cuda-graph) or capture the graph's ops as an op log" },
		{ "launch_outside_op", "kernels launched by runtime calls outside any op have no op rows",
		  "the launching code is not recorded as an op (a C++ extension or direct runtime "
		  "call): wrap it in torch.profiler.record_function and register a rule for that "
		  "name, or capture an op log" },
		{ "no_host_side", "kernels have no runtime call in the trace (launched before the "
		  "profiling window, or the host records were dropped) and no op rows",
		  "start the profiler earlier (schedule(wait=1, warmup=1, active=N)) so that each "
		  "kernel's launching op is inside the window" },
	};
	char msg[256];
	for (int k = 0; k < GAP_COUNT; k++) {
		if (!y->n[k])
			continue;
		snprintf(msg, sizeof msg, "%llu %s", (unsigned long long)y->n[k], g[k].what);
		int rc = tlc_eval__add_device_gap(ev, g[k].cause, y->n[k], y->ns[k], msg, g[k].remedy);
		if (rc < 0)
			return rc;
	}
	if (t->unread_device) {
		snprintf(msg, sizeof msg, "%llu device events of kind '%s' (an accelerator whose "
		         "device records tlcost does not read) have no op rows",
		         (unsigned long long)t->unread_device, t->unread_kind);
		int rc = tlc_eval__add_device_gap(ev, "device_events_unread", t->unread_device, 0, msg,
		                                  "tlcost joins CUDA and ROCm kernel records only: "
		                                  "this device's work is not counted; capture an op "
		                                  "log of the model, or profile it on a CUDA/ROCm GPU");
		if (rc < 0)
			return rc;
	}
	tlc_eval__set_device_work(ev, &y->w);
	return 0;
}

static int is_host_call(tlc_device_record r)
{
	return (r.kind == TLC_DEVICE_RUNTIME || r.kind == TLC_DEVICE_DRIVER) &&
	       (r.flags & TLC_DEV_HAS_CORRELATION);
}

int tlc_trace__account_device(tlc_trace_ops *t, tlc_eval *ev)
{
	size_t ndev = tlc_eval__device_count(ev);
	if (ndev == 0 && !t->unread_device && !t->nranges)
		return 0;
	const tlc_allocator *a = t->a;
	size_t ncalls = 0;
	for (size_t i = 0; i < ndev; i++)
		ncalls += (size_t)is_host_call(tlc_eval__device(ev, i));
	ival *iv = NULL;
	size_t niv = top_intervals(&iv, t), nhc = 0; /* frees the ops first */
	corr_ix *hc = tlc_alloc__malloc(a, (ncalls ? ncalls : 1) * sizeof *hc);
	int rc = hc ? 0 : tlc_error__oom();
	if (rc == 0) {
		for (size_t i = 0; i < ndev; i++)
			if (is_host_call(tlc_eval__device(ev, i)))
				hc[nhc++] = (corr_ix){ tlc_eval__device(ev, i).correlation, i };
		int sorted = 1; /* calls mostly come in correlation order: then no sort (and
		                   no temporary copy of the array) is needed */
		for (size_t i = 1; i < nhc && sorted; i++)
			sorted = cmp_corr(&hc[i - 1], &hc[i]) < 0;
		if (!sorted)
			qsort(hc, nhc, sizeof *hc, cmp_corr);
		tally y;
		memset(&y, 0, sizeof y);
		y.w.size = sizeof y.w;
		classify(&y, ev, iv, niv, hc, nhc, t);
		rc = report(ev, &y, t);
	}
	tlc_alloc__free(a, iv);
	tlc_alloc__free(a, hc);
	return rc;
}
