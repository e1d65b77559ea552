/* Where the step went (`tlcost steps`, include/tlcost/steps.h): per
 * profiler step and device, buckets that add up exactly to the step's wall
 * time. Every bucket is a difference of interval unions computed by the one
 * implementation `tlcost join` and `tlcost ranks` use
 * (engine/join/join_comm.c: tlc_join__spans, tlc_join__times_in,
 * tlc_join__union_in), so compute, communication, overlap and idle mean
 * what they mean there:
 *
 *   compute families   U(compute kernels of family <= f) - U(family < f)
 *   exposed comm       comm - overlap                   (tlc_join__times_in)
 *   exposed memcpy     U(kernels + copies) - U(kernels)
 *   idle, queued       U(kernels + copies + pending launches) - U(kernels + copies)
 *   idle, host-bound   wall - U(kernels + copies + pending launches)
 *
 * all clipped to the step's window. The families add up to the compute
 * union, compute + comm - overlap is the kernel union, so the buckets add
 * up to the wall time; the residual is computed, not assumed. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "tlcost/tlcost.h"
#include "error.h"
#include "eval.h"
#include "join_comm.h"
#include "reports.h"
#include "steps_impl.h"

static const char *const bucket_names[TLC_STEPS_BUCKET_COUNT] = {
	"gemm", "attention", "convolution", "normalisation", "elementwise", "reduction",
	"other_compute", "exposed_communication", "exposed_memcpy_memset", "idle_queued",
	"idle_host_bound",
};

const char *tlc_steps_bucket_name(tlc_steps_bucket b)
{
	return (unsigned)b < TLC_STEPS_BUCKET_COUNT ? bucket_names[b] : NULL;
}

/* ---- families ---------------------------------------------------------- */

static int has_ci(const char *s, const char *w)
{
	size_t n = strlen(w);
	for (; *s; s++) {
		size_t k = 0;
		while (k < n && s[k] && tolower((unsigned char)s[k]) == w[k])
			k++;
		if (k == n)
			return 1;
	}
	return 0;
}

static int has_any_ci(const char *s, const char *const *words)
{
	for (; *words; words++)
		if (has_ci(s, *words))
			return 1;
	return 0;
}

/* A kernel's family from its name (docs/reports.md lists the words). The
 * order matters: a cuDNN convolution kernel may say "gemm", a flash
 * attention kernel may say "gemm". */
int tlc_steps__kernel_family(const char *name)
{
	static const char *const attn[] = { "flash", "fmha", "attention", "attn", NULL };
	static const char *const conv[] = { "conv", "fprop", "dgrad", "wgrad", NULL };
	static const char *const gemm[] = { "gemm", "cutlass", "cublas", "nvjet", "wgmma",
	                                    "matmul", "cijk_", "_mm_", "xmma", NULL };
	static const char *const norm[] = { "norm", NULL };
	static const char *const red[] = { "reduce", "softmax", "triton_red", "triton_per",
	                                   "argmax", "argmin", "topk", "cumsum", "scan", NULL };
	static const char *const elem[] = { "elementwise", "pointwise", "triton_poi",
	                                    "vectorized", "unrolled", "act_and_mul", "silu",
	                                    "gelu", "relu", "copy", "fill", NULL };
	if (!name)
		return TLC_STEPS_OTHER_COMPUTE;
	if (has_any_ci(name, attn))
		return TLC_STEPS_ATTENTION;
	if (has_any_ci(name, conv))
		return TLC_STEPS_CONVOLUTION;
	if (has_any_ci(name, gemm))
		return TLC_STEPS_GEMM;
	if (has_any_ci(name, norm))
		return TLC_STEPS_NORMALISATION;
	if (has_any_ci(name, red))
		return TLC_STEPS_REDUCTION;
	if (has_any_ci(name, elem))
		return TLC_STEPS_ELEMENTWISE;
	return TLC_STEPS_OTHER_COMPUTE;
}

/* An attributed kernel's family: its costed op's (the op whose rule carries
 * the cost), by the op families of the roofline legend; an op outside
 * GEMM/attention/convolution/normalisation/reduction (pointwise, index,
 * pool, ...) leaves the kernel's name to decide. */
static int span_family(const tlc_eval *ev, const tlc_join *j, const tlc_join__span *s)
{
	tlc_join_launch l = TLC_JOIN_LAUNCH_INIT;
	if (tlc_join_launch_get(j, s->launch, &l) < 0)
		return TLC_STEPS_OTHER_COMPUTE;
	tlc_device_record r = tlc_eval__device(ev, l.rec);
	if (l.op_row >= 0) {
		int64_t counted = -1;
		size_t row = (size_t)l.op_row;
		if (tlc_join_rollup(&counted, j, row) == 0 && counted >= 0)
			row = (size_t)counted;
		tlc_op_row op = tlc_eval__row(ev, row);
		const char *f = tlc_rep__family(op.name);
		if (strcmp(f, "matmul") == 0)
			return TLC_STEPS_GEMM;
		if (strcmp(f, "attention") == 0)
			return TLC_STEPS_ATTENTION;
		if (strcmp(f, "conv") == 0)
			return TLC_STEPS_CONVOLUTION;
		if (strcmp(f, "norm") == 0)
			return TLC_STEPS_NORMALISATION;
		if (strcmp(f, "reduction") == 0)
			return TLC_STEPS_REDUCTION;
	}
	return tlc_steps__kernel_family(r.name);
}

/* ---- one device's spans ----------------------------------------------- */

typedef struct dev_spans {
	int64_t device;
	tlc_join__span *v;
	size_t n;
	int64_t first, last; /* span of the device's work (kernels, copies) */
} dev_spans;

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

static int has_queue(const tlc_join__span *s)
{
	return s->queued != INT64_MIN && s->queued < s->start;
}

static int by_start(const void *a, const void *b)
{
	const tlc_join__span *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->end > y->end) - (x->end < y->end);
}

/* The first index of the sorted boundaries b[0..nb) above t. */
static size_t first_above(const int64_t *b, size_t nb, int64_t t)
{
	size_t lo = 0, hi = nb;
	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;
		if (b[m] > t)
			hi = m;
		else
			lo = m + 1;
	}
	return lo;
}

/* Cuts d's spans at every window boundary inside them, so that each piece
 * lies in the windows it belongs to and a window reads only its own pieces
 * (a kernel running across many steps costs one piece per step it covers,
 * never a rescan of the spans before it). The union of the pieces is the
 * span: adjacent pieces merge. */
static int split_at(dev_spans *d, const int64_t *b, size_t nb)
{
	size_t extra = 0;
	for (size_t i = 0; i < d->n; i++)
		for (size_t k = first_above(b, nb, d->v[i].start); k < nb && b[k] < d->v[i].end; k++)
			extra++;
	if (!extra)
		return 0;
	tlc_join__span *q = realloc(d->v, (d->n + extra + 1) * sizeof *q);
	if (!q)
		return tlc_error__oom();
	d->v = q;
	size_t n = d->n;
	for (size_t i = 0; i < n; i++) {
		size_t k = first_above(b, nb, q[i].start);
		if (k >= nb || b[k] >= q[i].end)
			continue;
		int64_t end = q[i].end;
		q[i].end = b[k];
		for (; k < nb && b[k] < end; k++) {
			tlc_join__span p = q[i];
			p.start = b[k];
			p.end = k + 1 < nb && b[k + 1] < end ? b[k + 1] : end;
			q[d->n++] = p;
		}
	}
	return 0;
}

/* One device's work seg[0..n) and its pending launches (runtime call start
 * to work start) into d, cut at the window boundaries b[0..nb) and sorted
 * by start. With own, seg is the malloc'ed array of every span and becomes
 * d's (grown in place: the spans are not held twice). */
static int fill_device(dev_spans *d, tlc_join__span *seg, size_t n, int own, const int64_t *b,
                       size_t nb)
{
	size_t cnt = n;
	for (size_t i = 0; i < n; i++)
		cnt += has_queue(&seg[i]);
	if (own) {
		tlc_join__span *q = realloc(seg, (cnt + 1) * sizeof *q);
		if (!q) {
			free(seg);
			return tlc_error__oom();
		}
		d->v = q;
	} else {
		d->v = malloc((cnt + 1) * sizeof *d->v);
		if (d->v)
			memcpy(d->v, seg, n * sizeof *seg);
	}
	if (!d->v)
		return tlc_error__oom();
	d->device = n ? d->v[0].device : 0;
	d->first = INT64_MAX;
	d->last = INT64_MIN;
	d->n = n;
	for (size_t i = 0; i < n; i++) {
		const tlc_join__span *s = &d->v[i];
		d->first = s->start < d->first ? s->start : d->first;
		d->last = s->end > d->last ? s->end : d->last;
		if (has_queue(s)) {
			tlc_join__span q = *s;
			q.start = s->queued;
			q.end = s->start;
			q.what = TLC_JOIN__QUEUED;
			q.comm = 0;
			d->v[d->n++] = q;
		}
	}
	int rc = split_at(d, b, nb);
	if (rc == 0)
		qsort(d->v, d->n, sizeof *d->v, by_start);
	return rc;
}

/* The buckets of [lo, hi) on one device: lo and hi are boundaries the
 * spans were cut at (or the device's own span), so the window's pieces are
 * those starting in [lo, hi). */
static void window(tlc_steps_row *row, const dev_spans *d, int64_t lo, int64_t hi)
{
	size_t a = 0, b = d->n;
	while (a < b) {
		size_t m = a + (b - a) / 2;
		if (d->v[m].start < lo)
			a = m + 1;
		else
			b = m;
	}
	size_t e = a;
	b = d->n;
	while (e < b) {
		size_t m = e + (b - e) / 2;
		if (d->v[m].start < hi)
			e = m + 1;
		else
			b = m;
	}
	const tlc_join__span *v = d->v + a;
	size_t n = e - a;
	tlc_join__times t;
	tlc_join__times_in(&t, v, n, lo, hi);
	int64_t prev = 0;
	for (int f = 0; f <= TLC_STEPS_OTHER_COMPUTE; f++) {
		tlc_join__sel s = { TLC_JOIN__KERNEL, 0, -1, f, lo, hi };
		int64_t u = tlc_join__union_in(v, n, &s);
		row->buckets[f] = u - prev;
		prev = u;
	}
	tlc_join__sel busy_sel = { TLC_JOIN__COPY, -1, -1, -1, lo, hi };
	tlc_join__sel queued_sel = { TLC_JOIN__QUEUED, -1, -1, -1, lo, hi };
	int64_t busy = tlc_join__union_in(v, n, &busy_sel);
	int64_t held = tlc_join__union_in(v, n, &queued_sel);
	row->buckets[TLC_STEPS_EXPOSED_COMM] = t.comm_ns - t.overlap_ns;
	row->buckets[TLC_STEPS_EXPOSED_COPY] = busy - t.kernel_ns;
	row->buckets[TLC_STEPS_IDLE_QUEUED] = held - busy;
	row->buckets[TLC_STEPS_IDLE_HOST_BOUND] = (hi - lo) - held;
	row->start_ns = lo;
	row->end_ns = hi;
	row->wall_ns = hi - lo;
	int64_t sum = 0;
	for (int k = 0; k < TLC_STEPS_BUCKET_COUNT; k++)
		sum += row->buckets[k];
	row->residual_ns = row->wall_ns - sum;
	row->device = d->device;
}

/* ---- the report -------------------------------------------------------- */

static int by_step(const void *a, const void *b)
{
	const tlc_eval__step *x = a, *y = b;
	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	if (x->end_ns != y->end_ns)
		return x->end_ns < y->end_ns ? -1 : 1;
	return (x->number > y->number) - (x->number < y->number);
}

/* The input's steps by start; a marker written twice (the same number and
 * interval, as a 2021 Operator row and an annotation) counts once. */
static int collect_steps(tlc_eval__step **out, size_t *n, const tlc_eval *ev)
{
	size_t cnt = tlc_eval__step_count(ev), k = 0;
	tlc_eval__step *v = malloc((cnt + 1) * sizeof *v);
	if (!v)
		return tlc_error__oom();
	for (size_t i = 0; i < cnt; i++)
		v[i] = *tlc_eval__step_at(ev, i);
	qsort(v, cnt, sizeof *v, by_step);
	for (size_t i = 0; i < cnt; i++)
		if (k == 0 || by_step(&v[k - 1], &v[i]) != 0)
			v[k++] = v[i];
	*out = v;
	*n = k;
	return 0;
}

static int by_device(const void *a, const void *b)
{
	const tlc_join__span *x = a, *y = b;
	if (x->device != y->device)
		return x->device < y->device ? -1 : 1;
	return by_start(a, b);
}

/* The devices (ascending) and each one's spans: one device takes *all over
 * (set to NULL); several are sorted by device, then split. */
static int device_list(tlc_steps *s, tlc_join__span **all, size_t n, const int64_t *b,
                       size_t nb)
{
	tlc_join__span *v = *all;
	int one = 1;
	for (size_t i = 1; i < n && one; i++)
		one = v[i].device == v[0].device;
	if (!one)
		qsort(v, n, sizeof *v, by_device);
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		k += i == 0 || v[i].device != v[i - 1].device;
	s->devs = calloc(k + 1, sizeof *s->devs);
	if (!s->devs)
		return tlc_error__oom();
	s->ndevs = s->ndevices = k;
	if (one) {
		*all = NULL;
		return fill_device(&s->devs[0], v, n, 1, b, nb);
	}
	int rc = 0;
	for (size_t i = 0, d = 0; i < n && rc == 0; d++) {
		size_t e = i + 1;
		while (e < n && v[e].device == v[i].device)
			e++;
		rc = fill_device(&s->devs[d], v + i, e - i, 0, b, nb);
		i = e;
	}
	return rc;
}

static int build_rows(tlc_steps *s, const tlc_eval__step *st, size_t nst)
{
	size_t n = s->marked ? nst * s->ndevs : s->ndevs;
	s->rows = calloc(n + 1, sizeof *s->rows);
	if (!s->rows)
		return tlc_error__oom();
	for (size_t i = 0; i < (s->marked ? nst : 1); i++)
		for (size_t d = 0; d < s->ndevs; d++) {
			tlc_steps_row *r = &s->rows[s->nrows++];
			r->size = sizeof *r;
			const dev_spans *ds = &s->devs[d];
			if (s->marked) {
				r->step = st[i].number;
				window(r, ds, st[i].start_ns, st[i].end_ns);
			} else {
				r->step = -1;
				window(r, ds, ds->first, ds->last);
			}
		}
	return 0;
}

static void free_devs(tlc_steps *s)
{
	for (size_t i = 0; s->devs && i < s->ndevs; i++) {
		free(s->devs[i].v);
	}
	free(s->devs);
	s->devs = NULL;
	s->ndevs = 0;
}

int tlc_steps_build(tlc_steps **out, const tlc_eval *ev, const tlc_join *j)
{
	if (!out || !ev)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass an out pointer and an eval",
		                      "tlc_steps_build: NULL argument");
	*out = NULL;
	int rc = tlc_rep__check_eval(ev);
	if (rc < 0)
		return rc;
	tlc_join__span *all = NULL;
	size_t n = 0;
	if (j && (rc = tlc_join__spans(&all, &n, ev, j, 1)) < 0)
		return rc;
	return tlc_steps__build_spans(out, ev, j, all, n);
}

int tlc_steps__build_spans(tlc_steps **out, const tlc_eval *ev, const tlc_join *j,
                           tlc_join__span *all, size_t n)
{
	int rc = 0;
	*out = NULL;
	if (n == 0) {
		free(all);
		return tlc_error__set(TLC_ENOTFOUND, "steps_no_device_records",
		                      "profile with device activities (ProfilerActivity.CUDA) so that "
		                      "the trace holds kernel records",
		                      "the input has no kernel, memcpy or memset record: there is no "
		                      "device time to split");
	}
	tlc_steps *s = calloc(1, sizeof *s);
	if (!s) {
		free(all);
		return tlc_error__oom();
	}
	for (size_t i = 0; i < n; i++)
		if (all[i].what == TLC_JOIN__KERNEL && !all[i].comm)
			all[i].tag = (int8_t)span_family(ev, j, &all[i]);
	tlc_eval__step *st = NULL;
	size_t nst = 0;
	rc = collect_steps(&st, &nst, ev);
	s->marked = nst > 0;
	s->nsteps = s->marked ? nst : 1;
	int64_t *bnd = NULL; /* the windows' starts and ends, sorted, once each */
	size_t nb = 0;
	if (rc == 0 && !(bnd = malloc((2 * nst + 1) * sizeof *bnd)))
		rc = tlc_error__oom();
	if (rc == 0) {
		for (size_t i = 0; i < nst; i++) {
			bnd[nb++] = st[i].start_ns;
			bnd[nb++] = st[i].end_ns;
		}
		qsort(bnd, nb, sizeof *bnd, cmp_i64);
		size_t k = 0;
		for (size_t i = 0; i < nb; i++)
			if (k == 0 || bnd[k - 1] != bnd[i])
				bnd[k++] = bnd[i];
		nb = k;
		rc = device_list(s, &all, n, bnd, nb);
	}
	free(bnd);
	free(all);
	if (rc == 0)
		rc = build_rows(s, st, nst);
	free(st);
	free_devs(s);
	if (rc < 0) {
		tlc_steps_free(s);
		return rc;
	}
	*out = s;
	return 0;
}

void tlc_steps_free(tlc_steps *s)
{
	if (!s)
		return;
	free_devs(s);
	free(s->rows);
	free(s);
}

size_t tlc_steps_count(const tlc_steps *s) { return s ? s->nrows : 0; }

int tlc_steps_marked(const tlc_steps *s) { return s ? s->marked : 0; }

int tlc_steps_get(tlc_steps_row *out, const tlc_steps *s, size_t i)
{
	if (!out || !s || out->size < sizeof *out || i >= s->nrows)
		return tlc_error__set(TLC_EINVAL, "invalid_argument",
		                      "pass the steps, a row index below tlc_steps_count and a row "
		                      "with size = sizeof(tlc_steps_row)",
		                      "tlc_steps_get: bad argument");
	uint32_t size = out->size;
	*out = s->rows[i];
	out->size = size;
	return 0;
}
