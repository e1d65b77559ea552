/* Pairing external correlation ids with API calls and building the
 * tlc_device_record list a join consumes.
 *
 * CUPTI writes one EXTERNAL_CORRELATION record per API call made while an
 * external id was pushed, naming the call's correlationId and the innermost
 * id of our kind; it usually comes right before the call's API record, but
 * buffers from several threads interleave, so pairing is by correlationId,
 * never by position. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static int cmp_ext(const void *a, const void *b)
{
	const tlc_cupti_ext *x = a, *y = b;

	if (x->correlation != y->correlation)
		return x->correlation < y->correlation ? -1 : 1;
	if (x->external != y->external)
		return x->external < y->external ? -1 : 1;
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Index of the first external record for correlation, or -1. */
static ptrdiff_t find_ext(const tlc_cupti_session *s, uint32_t correlation)
{
	size_t lo = 0, hi = s->next;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->ext[mid].correlation < correlation)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->next && s->ext[lo].correlation == correlation ? (ptrdiff_t)lo : -1;
}

static int in_set(const uint32_t *set, size_t n, uint32_t v)
{
	return n && bsearch(&v, set, n, sizeof *set, cmp_u32) != NULL;
}

/* Sorted correlation ids of API calls of one kind (or of both). */
static uint32_t *api_ids(const tlc_cupti_session *s, int want_runtime, int want_driver,
                         size_t *n)
{
	uint32_t *ids = malloc((s->nraw ? s->nraw : 1) * sizeof *ids);

	*n = 0;
	if (!ids)
		return NULL;
	for (size_t i = 0; i < s->nraw; i++) {
		tlc_device_kind k = s->raw[i].kind;

		if ((k == TLC_DEVICE_RUNTIME && want_runtime) || (k == TLC_DEVICE_DRIVER && want_driver))
			ids[(*n)++] = s->raw[i].correlation;
	}
	qsort(ids, *n, sizeof *ids, cmp_u32);
	return ids;
}

/* Counts external records naming no API call, and API calls named by two
 * different external ids (CUPTI gives one per call; two cannot be split,
 * so such a call keeps no external id and the join sees it unattributed). */
static void count_ext(tlc_cupti_session *s, const uint32_t *all, size_t nall)
{
	size_t i = 0;

	while (i < s->next) {
		size_t j = i + 1;
		int conflict = 0;

		for (; j < s->next && s->ext[j].correlation == s->ext[i].correlation; j++)
			conflict |= s->ext[j].external != s->ext[i].external;
		s->sum.external_conflicts += (uint64_t)conflict;
		if (!in_set(all, nall, s->ext[i].correlation))
			s->sum.orphan_external++;
		i = j;
	}
}

/* The single external id of a call, 0 = found, -1 = none or conflicting. */
static int external_of(const tlc_cupti_session *s, uint32_t correlation, uint64_t *out)
{
	ptrdiff_t i = find_ext(s, correlation);
	size_t j;

	if (i < 0)
		return -1;
	for (j = (size_t)i + 1; j < s->next && s->ext[j].correlation == correlation; j++)
		if (s->ext[j].external != s->ext[i].external)
			return -1;
	*out = s->ext[i].external;
	return 0;
}

/* "cudaLaunchKernel_v7000" -> "cudaLaunchKernel", the name profilers show. */
static size_t unversioned_len(const char *name)
{
	const char *v = strrchr(name, '_');

	if (v && v[1] == 'v' && v[2] >= '0' && v[2] <= '9' &&
	    strspn(v + 2, "0123456789") == strlen(v + 2))
		return (size_t)(v - name);
	return strlen(name);
}

static const char *api_name(tlc_cupti_session *s, const tlc_cupti_raw *r)
{
	CUpti_CallbackDomain dom = r->kind == TLC_DEVICE_RUNTIME ? CUPTI_CB_DOMAIN_RUNTIME_API
	                                                         : CUPTI_CB_DOMAIN_DRIVER_API;
	const char *name = NULL;
	char fallback[48];
	size_t len;

	if (!s->fns.callback_name || s->fns.callback_name(dom, r->cbid, &name) != CUPTI_SUCCESS ||
	    !name) {
		snprintf(fallback, sizeof fallback, "%s_cbid_%u",
		         r->kind == TLC_DEVICE_RUNTIME ? "runtime" : "driver", (unsigned)r->cbid);
		return tlc_cupti__intern(&s->names, fallback, strlen(fallback));
	}
	len = unversioned_len(name);
	return tlc_cupti__intern(&s->names, name, len);
}

static void fill_common(tlc_device_record *d, const tlc_cupti_raw *r)
{
	memset(d, 0, sizeof *d);
	d->size = sizeof *d;
	d->kind = r->kind;
	d->flags = TLC_DEV_HAS_CORRELATION;
	d->device = r->device;
	d->stream = r->stream;
	d->start_ns = (int64_t)r->start;
	d->end_ns = (int64_t)r->end;
	d->correlation = r->correlation;
	d->name = r->name;
}

static int build_api(tlc_cupti_session *s, tlc_device_record *d, const tlc_cupti_raw *r)
{
	uint64_t ext;

	fill_common(d, r);
	d->stream = 0;
	d->thread = r->thread;
	d->flags |= TLC_DEV_HAS_THREAD;
	d->name = api_name(s, r);
	if (!d->name)
		return -1;
	if (external_of(s, r->correlation, &ext) == 0 && ext <= (uint64_t)INT64_MAX) {
		d->external_id = (int64_t)ext;
		d->flags |= TLC_DEV_HAS_EXTERNAL_ID;
	}
	if (r->kind == TLC_DEVICE_RUNTIME)
		s->sum.runtime_calls++;
	else
		s->sum.driver_calls++;
	return 0;
}

typedef struct api_sets {
	uint32_t *runtime, *all;
	size_t nruntime, nall;
} api_sets;

/* Builds one output record; returns 1 when r is folded away. */
static int build_one(tlc_cupti_session *s, const api_sets *sets, tlc_device_record *d,
                     const tlc_cupti_raw *r)
{
	if (r->kind == TLC_DEVICE_DRIVER && in_set(sets->runtime, sets->nruntime, r->correlation))
		return 1; /* the driver call a runtime call made: same launch */
	if (r->kind == TLC_DEVICE_RUNTIME || r->kind == TLC_DEVICE_DRIVER)
		return build_api(s, d, r) == 0 ? 0 : -1;
	fill_common(d, r);
	/* run by a graph launch: the node it ran as (0 = not a graph's) */
	if (r->graph_node && r->graph_node <= (uint64_t)INT64_MAX) {
		d->graph_id = r->graph_id;
		d->graph_node = (int64_t)r->graph_node;
		d->flags |= TLC_DEV_HAS_GRAPH_NODE;
	}
	if (r->kind == TLC_DEVICE_MEMCPY && r->rt_correlation &&
	    in_set(sets->all, sets->nall, r->rt_correlation))
		d->correlation = r->rt_correlation;
	if (r->kind != TLC_DEVICE_KERNEL) {
		d->bytes = r->bytes > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)r->bytes;
		d->flags |= TLC_DEV_HAS_BYTES;
	}
	return 0;
}

int tlc_cupti__build(tlc_cupti_session *s)
{
	api_sets sets;
	int rc = 0;

	if (s->next)
		qsort(s->ext, s->next, sizeof *s->ext, cmp_ext);
	sets.runtime = api_ids(s, 1, 0, &sets.nruntime);
	sets.all = api_ids(s, 1, 1, &sets.nall);
	free(s->out);
	s->nout = 0;
	s->out = malloc((s->nraw ? s->nraw : 1) * sizeof *s->out);
	if (!sets.runtime || !sets.all || !s->out) {
		rc = -1;
		goto done;
	}
	s->sum.runtime_calls = s->sum.driver_calls = 0;
	s->sum.orphan_external = s->sum.external_conflicts = 0;
	count_ext(s, sets.all, sets.nall);
	for (size_t i = 0; i < s->nraw && rc == 0; i++) {
		int r = build_one(s, &sets, &s->out[s->nout], &s->raw[i]);

		if (r < 0)
			rc = -1;
		else if (r == 0)
			s->nout++;
	}
done:
	free(sets.runtime);
	free(sets.all);
	if (rc)
		return tlc_cupti__fail(s, TLC_ENOMEM, "out_of_memory",
		                       "free memory or record fewer ops per session",
		                       "out of memory pairing CUPTI records");
	return 0;
}
