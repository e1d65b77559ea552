/* Walking an activity buffer with libcupti's own cuptiActivityGetNextRecord
 * and keeping the records the join needs. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static int push_raw(tlc_cupti_session *s, const tlc_cupti_raw *r)
{
	if (s->nraw == s->capraw) {
		size_t cap = s->capraw ? s->capraw * 2 : 256;
		tlc_cupti_raw *p = realloc(s->raw, cap * sizeof *p);

		if (!p)
			return -1;
		s->raw = p;
		s->capraw = cap;
	}
	s->raw[s->nraw++] = *r;
	return 0;
}

static int push_ext(tlc_cupti_session *s, uint32_t correlation, uint64_t external)
{
	if (s->next == s->capext) {
		size_t cap = s->capext ? s->capext * 2 : 256;
		tlc_cupti_ext *p = realloc(s->ext, cap * sizeof *p);

		if (!p)
			return -1;
		s->ext = p;
		s->capext = cap;
	}
	s->ext[s->next].correlation = correlation;
	s->ext[s->next].external = external;
	s->next++;
	return 0;
}

/* A record without timestamps (CUPTI writes 0 and 0 when it could not time
 * it), or with times that do not form an interval, has no known duration:
 * it is counted and left out, never handed on as zero time. */
static int timed(uint64_t start, uint64_t end)
{
	if (start == 0 && end == 0)
		return 0;
	return end >= start && end <= (uint64_t)INT64_MAX;
}

static int keep_kernel(tlc_cupti_session *s, const CUpti_ActivityKernel10 *k)
{
	tlc_cupti_raw r;
	const char *name = k->name ? k->name : "";

	memset(&r, 0, sizeof r);
	r.kind = TLC_DEVICE_KERNEL;
	r.device = k->deviceId;
	r.stream = k->streamId;
	r.correlation = k->correlationId;
	r.graph_id = k->graphId;
	r.graph_node = k->graphNodeId;
	r.start = k->start;
	r.end = k->end;
	r.name = tlc_cupti__intern(&s->names, name, strlen(name));
	if (!r.name)
		return -1;
	s->sum.kernels++;
	return push_raw(s, &r);
}

static int keep_memcpy(tlc_cupti_session *s, const CUpti_ActivityMemcpy6 *m)
{
	tlc_cupti_raw r;

	memset(&r, 0, sizeof r);
	r.kind = TLC_DEVICE_MEMCPY;
	r.device = m->deviceId;
	r.stream = m->streamId;
	r.correlation = m->correlationId;
	r.rt_correlation = m->runtimeCorrelationId;
	r.graph_id = m->graphId;
	r.graph_node = m->graphNodeId;
	r.start = m->start;
	r.end = m->end;
	r.bytes = m->bytes;
	s->sum.memcpys++;
	return push_raw(s, &r);
}

static int keep_memset(tlc_cupti_session *s, const CUpti_ActivityMemset4 *m)
{
	tlc_cupti_raw r;

	memset(&r, 0, sizeof r);
	r.kind = TLC_DEVICE_MEMSET;
	r.device = m->deviceId;
	r.stream = m->streamId;
	r.correlation = m->correlationId;
	r.graph_id = m->graphId;
	r.graph_node = m->graphNodeId;
	r.start = m->start;
	r.end = m->end;
	r.bytes = m->bytes;
	s->sum.memsets++;
	return push_raw(s, &r);
}

static int keep_api(tlc_cupti_session *s, const CUpti_ActivityAPI *a)
{
	tlc_cupti_raw r;

	memset(&r, 0, sizeof r);
	r.kind = a->kind == CUPTI_ACTIVITY_KIND_RUNTIME ? TLC_DEVICE_RUNTIME : TLC_DEVICE_DRIVER;
	r.cbid = a->cbid;
	r.device = a->processId;
	r.thread = a->threadId;
	r.correlation = a->correlationId;
	r.start = a->start;
	r.end = a->end;
	return push_raw(s, &r);
}

static int keep_external(tlc_cupti_session *s, const CUpti_ActivityExternalCorrelation *e)
{
	/* Other external kinds belong to other tools (NVTX, OpenACC, ...). */
	if (e->externalKind != CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0) {
		s->sum.skipped++;
		return 0;
	}
	s->sum.external_ids++;
	return push_ext(s, e->correlationId, e->externalId);
}

static uint64_t start_of(const CUpti_Activity *rec)
{
	switch (rec->kind) {
	case CUPTI_ACTIVITY_KIND_KERNEL:
	case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
		return ((const CUpti_ActivityKernel10 *)(const void *)rec)->start;
	case CUPTI_ACTIVITY_KIND_MEMCPY:
		return ((const CUpti_ActivityMemcpy6 *)(const void *)rec)->start;
	case CUPTI_ACTIVITY_KIND_MEMSET:
		return ((const CUpti_ActivityMemset4 *)(const void *)rec)->start;
	default:
		return ((const CUpti_ActivityAPI *)(const void *)rec)->start;
	}
}

static uint64_t end_of(const CUpti_Activity *rec)
{
	switch (rec->kind) {
	case CUPTI_ACTIVITY_KIND_KERNEL:
	case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
		return ((const CUpti_ActivityKernel10 *)(const void *)rec)->end;
	case CUPTI_ACTIVITY_KIND_MEMCPY:
		return ((const CUpti_ActivityMemcpy6 *)(const void *)rec)->end;
	case CUPTI_ACTIVITY_KIND_MEMSET:
		return ((const CUpti_ActivityMemset4 *)(const void *)rec)->end;
	default:
		return ((const CUpti_ActivityAPI *)(const void *)rec)->end;
	}
}

static int timed_kind(CUpti_ActivityKind kind)
{
	return kind == CUPTI_ACTIVITY_KIND_KERNEL || kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL ||
	       kind == CUPTI_ACTIVITY_KIND_MEMCPY || kind == CUPTI_ACTIVITY_KIND_MEMSET ||
	       kind == CUPTI_ACTIVITY_KIND_RUNTIME || kind == CUPTI_ACTIVITY_KIND_DRIVER;
}

/* Records arrive as CUpti_Activity pointers into the buffer; the kind says
 * which struct of the compiled-in headers lies there. */
static int keep(tlc_cupti_session *s, const CUpti_Activity *rec)
{
	const void *p = rec;

	if (timed_kind(rec->kind) && !timed(start_of(rec), end_of(rec))) {
		s->sum.untimed++;
		return 0;
	}
	switch (rec->kind) {
	case CUPTI_ACTIVITY_KIND_KERNEL:
	case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
		return keep_kernel(s, p);
	case CUPTI_ACTIVITY_KIND_MEMCPY:
		return keep_memcpy(s, p);
	case CUPTI_ACTIVITY_KIND_MEMSET:
		return keep_memset(s, p);
	case CUPTI_ACTIVITY_KIND_RUNTIME:
	case CUPTI_ACTIVITY_KIND_DRIVER:
		return keep_api(s, p);
	case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION:
		return keep_external(s, p);
	default:
		s->sum.skipped++;
		return 0;
	}
}

/* Size of a record of a kind this module reads; 0 for other kinds. */
static size_t record_size(CUpti_ActivityKind kind)
{
	switch (kind) {
	case CUPTI_ACTIVITY_KIND_KERNEL:
	case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
		return sizeof(CUpti_ActivityKernel10);
	case CUPTI_ACTIVITY_KIND_MEMCPY:
		return sizeof(CUpti_ActivityMemcpy6);
	case CUPTI_ACTIVITY_KIND_MEMSET:
		return sizeof(CUpti_ActivityMemset4);
	case CUPTI_ACTIVITY_KIND_RUNTIME:
	case CUPTI_ACTIVITY_KIND_DRIVER:
		return sizeof(CUpti_ActivityAPI);
	case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION:
		return sizeof(CUpti_ActivityExternalCorrelation);
	default:
		return 0;
	}
}

/* cuptiActivityGetNextRecord ends a buffer whose valid size stops inside a
 * record as if the buffer were done; bytes left after the last record it
 * returned mean a record was cut off. Known only when the last record's
 * size is (a kind this module reads). */
static int tail_left(const uint8_t *buffer, size_t valid, const CUpti_Activity *last)
{
	size_t size;

	if (!last)
		return valid > 0;
	size = record_size(last->kind);
	return size && (size_t)((const uint8_t *)last - buffer) + size < valid;
}

/* Walks one buffer. A record CUPTI cannot walk past (unknown or incomplete,
 * CUPTI_ERROR_INVALID_KIND) ends the buffer: what follows is lost and the
 * result becomes partial. */
int tlc_cupti__ingest_locked(tlc_cupti_session *s, uint8_t *buffer, size_t valid)
{
	CUpti_Activity *rec = NULL;

	if (valid == 0)
		return 0;
	for (;;) {
		CUptiResult r = s->fns.next_record(buffer, valid, &rec);

		if (r == CUPTI_ERROR_MAX_LIMIT_REACHED) {
			s->sum.undecodable += (uint64_t)tail_left(buffer, valid, rec);
			return 0;
		}
		if (r != CUPTI_SUCCESS) {
			s->sum.undecodable++;
			return 0;
		}
		if (keep(s, rec) != 0)
			return tlc_cupti__fail(s, TLC_ENOMEM, "out_of_memory",
			                       "free memory or record fewer ops per session",
			                       "out of memory keeping CUPTI activity records");
	}
}
