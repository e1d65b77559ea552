/* libtlcost-cupti without a GPU: activity buffers are built by hand from the
 * installed CUPTI headers' record structs and walked by the real
 * cuptiActivityGetNextRecord of libcupti.so; then the unavailable path of
 * this GPU-less machine. Every expected value below is read off the records
 * the test itself wrote, never off the module's output. */
#include <dlfcn.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <cupti.h>

#include "tlcost/cupti.h"
#include "internal.h" /* tlc_cupti__note_graph_node: this test links the module's objects */
#include "../rows_util.h"

#ifndef TLC_CUPTI_LIBDIR
#define TLC_CUPTI_LIBDIR ""
#endif
#ifndef TLC_TEST_FAKE_CUPTI /* the stand-in libcupti, tests/nvtx/fake_cupti.c */
#define TLC_TEST_FAKE_CUPTI ""
#endif

/* ------------------------------------------------------------------ */
/* Hand-built activity buffers                                          */
/* ------------------------------------------------------------------ */

typedef struct buf {
	_Alignas(8) uint8_t data[16384];
	size_t len;
} buf;

static void put(buf *b, const void *rec, size_t n)
{
	assert_true(b->len + n <= sizeof b->data);
	memcpy(b->data + b->len, rec, n);
	b->len += n;
}

static void add_ext(buf *b, uint32_t corr, uint64_t external, CUpti_ExternalCorrelationKind k)
{
	CUpti_ActivityExternalCorrelation e;

	memset(&e, 0, sizeof e);
	e.kind = CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION;
	e.externalKind = k;
	e.externalId = external;
	e.correlationId = corr;
	put(b, &e, sizeof e);
}

static void add_api(buf *b, CUpti_ActivityKind kind, uint32_t cbid, uint64_t start, uint64_t end,
                    uint32_t tid, uint32_t corr)
{
	CUpti_ActivityAPI a;

	memset(&a, 0, sizeof a);
	a.kind = kind;
	a.cbid = cbid;
	a.start = start;
	a.end = end;
	a.processId = 4242;
	a.threadId = tid;
	a.correlationId = corr;
	put(b, &a, sizeof a);
}

static void add_runtime(buf *b, uint64_t start, uint64_t end, uint32_t corr)
{
	add_api(b, CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
	        start, end, 77, corr);
}

static void add_kernel(buf *b, const char *name, uint32_t dev, uint32_t stream, uint64_t start,
                       uint64_t end, uint32_t corr)
{
	CUpti_ActivityKernel10 k;

	memset(&k, 0, sizeof k);
	k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
	k.name = name;
	k.deviceId = dev;
	k.streamId = stream;
	k.start = start;
	k.end = end;
	k.correlationId = corr;
	put(b, &k, sizeof k);
}

static void add_memcpy(buf *b, uint64_t bytes, uint64_t start, uint64_t end, uint32_t corr,
                       uint32_t rt_corr)
{
	CUpti_ActivityMemcpy6 m;

	memset(&m, 0, sizeof m);
	m.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
	m.bytes = bytes;
	m.start = start;
	m.end = end;
	m.deviceId = 0;
	m.streamId = 7;
	m.correlationId = corr;
	m.runtimeCorrelationId = rt_corr;
	put(b, &m, sizeof m);
}

static void add_memset(buf *b, uint64_t bytes, uint64_t start, uint64_t end, uint32_t corr)
{
	CUpti_ActivityMemset4 m;

	memset(&m, 0, sizeof m);
	m.kind = CUPTI_ACTIVITY_KIND_MEMSET;
	m.bytes = bytes;
	m.start = start;
	m.end = end;
	m.deviceId = 0;
	m.streamId = 7;
	m.correlationId = corr;
	put(b, &m, sizeof m);
}

/* A record of a kind CUPTI knows but this module does not use. */
static void add_overhead(buf *b)
{
	CUpti_ActivityOverhead3 o;

	memset(&o, 0, sizeof o);
	o.kind = CUPTI_ACTIVITY_KIND_OVERHEAD;
	o.start = 1;
	o.end = 2;
	put(b, &o, sizeof o);
}

/* A record of a kind no CUPTI release defines: CUPTI cannot walk past it. */
static void add_unknown(buf *b)
{
	uint32_t junk[6] = { 9999, 0, 0, 0, 0, 0 };

	put(b, junk, sizeof junk);
}

/* ------------------------------------------------------------------ */
/* Session helpers                                                      */
/* ------------------------------------------------------------------ */

static tlc_cupti_session *replay(buf *const *bufs, size_t n, uint64_t dropped)
{
	tlc_cupti_session *s = NULL;

	assert_int_equal(tlc_cupti_session_new(&s, NULL), 0);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(tlc_cupti_ingest(s, bufs[i]->data, bufs[i]->len,
		                                  i == 0 ? dropped : 0), 0);
	assert_int_equal(tlc_cupti_stop(s), 0);
	return s;
}

static tlc_cupti_session *replay1(buf *b)
{
	return replay(&b, 1, 0);
}

static tlc_cupti_summary summary(const tlc_cupti_session *s)
{
	tlc_cupti_summary m = TLC_CUPTI_SUMMARY_INIT;

	assert_int_equal(tlc_cupti_get_summary(&m, s), 0);
	return m;
}

/* The output record of kind k with correlation c; fails when absent. */
static const tlc_device_record *find(const tlc_cupti_session *s, tlc_device_kind k, int64_t c)
{
	for (size_t i = 0; i < tlc_cupti_record_count(s); i++) {
		const tlc_device_record *d = tlc_cupti_record_at(s, i);

		if (d->kind == k && d->correlation == c)
			return d;
	}
	fail_msg("no record of kind %d with correlation %lld", (int)k, (long long)c);
	return NULL;
}

static size_t count_kind(const tlc_cupti_session *s, tlc_device_kind k)
{
	size_t n = 0;

	for (size_t i = 0; i < tlc_cupti_record_count(s); i++)
		n += tlc_cupti_record_at(s, i)->kind == k;
	return n;
}

static void assert_external(const tlc_device_record *d, int64_t ext)
{
	assert_true(d->flags & TLC_DEV_HAS_EXTERNAL_ID);
	assert_int_equal(d->external_id, ext);
}

/* ------------------------------------------------------------------ */
/* Parsing                                                              */
/* ------------------------------------------------------------------ */

static void test_every_kind(void **state)
{
	static buf b;
	tlc_cupti_session *s;
	const tlc_device_record *d;
	tlc_cupti_summary m = TLC_CUPTI_SUMMARY_INIT;

	(void)state;
	b.len = 0;
	add_ext(&b, 10, 42, CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0);
	add_runtime(&b, 900, 950, 10);
	add_kernel(&b, "volta_sgemm_128x64_nn", 0, 7, 1000, 5200, 10);
	add_memcpy(&b, 4096, 6000, 6400, 11, 0);
	add_memset(&b, 256, 6500, 6510, 12);
	add_api(&b, CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, 300, 350,
	        78, 13);
	add_api(&b, CUPTI_ACTIVITY_KIND_RUNTIME, 99999, 400, 410, 78, 14); /* no such cbid */
	s = replay1(&b);

	assert_int_equal(tlc_cupti_record_count(s), 6);
	/* a function CUPTI cannot name keeps its id */
	assert_string_equal(find(s, TLC_DEVICE_RUNTIME, 14)->name, "runtime_cbid_99999");
	d = find(s, TLC_DEVICE_KERNEL, 10);
	assert_string_equal(d->name, "volta_sgemm_128x64_nn");
	assert_int_equal(d->device, 0);
	assert_int_equal(d->stream, 7);
	assert_int_equal(d->start_ns, 1000);
	assert_int_equal(d->end_ns, 5200);
	assert_false(d->flags & TLC_DEV_HAS_BYTES);

	d = find(s, TLC_DEVICE_RUNTIME, 10);
	/* CUPTI's own name for cbid 211 is "cudaLaunchKernel_v7000"; the
	 * version suffix is dropped */
	assert_string_equal(d->name, "cudaLaunchKernel");
	assert_int_equal(d->thread, 77);
	assert_int_equal(d->device, 4242); /* host kinds: process id */
	assert_int_equal(d->start_ns, 900);
	assert_int_equal(d->end_ns, 950);
	assert_true(d->flags & TLC_DEV_HAS_THREAD);
	assert_external(d, 42);

	d = find(s, TLC_DEVICE_MEMCPY, 11);
	assert_null(d->name);
	assert_true(d->flags & TLC_DEV_HAS_BYTES);
	assert_int_equal(d->bytes, 4096);
	assert_int_equal(d->end_ns - d->start_ns, 400);

	d = find(s, TLC_DEVICE_MEMSET, 12);
	assert_int_equal(d->bytes, 256);
	assert_int_equal(d->end_ns - d->start_ns, 10);

	d = find(s, TLC_DEVICE_DRIVER, 13);
	assert_string_equal(d->name, "cuLaunchKernel");
	assert_false(d->flags & TLC_DEV_HAS_EXTERNAL_ID);

	m = summary(s);
	assert_int_equal(m.status, TLC_CUPTI_COMPLETE);
	assert_false(m.lower_bound);
	assert_int_equal(m.kernels, 1);
	assert_int_equal(m.memcpys, 1);
	assert_int_equal(m.memsets, 1);
	assert_int_equal(m.runtime_calls, 2);
	assert_int_equal(m.driver_calls, 1);
	assert_int_equal(m.external_ids, 1);
	assert_int_equal(m.dropped + m.undecodable + m.untimed + m.skipped, 0);
	assert_null(m.failed_call);
	assert_int_equal(tlc_cupti_join_flags(s), 0);
	tlc_cupti_session_free(s);
}

/* The external record of a call may come after it, or in a later buffer
 * (buffers of several threads interleave); kernels may come before the
 * call that launched them. Pairing is by correlation id. */
static void test_out_of_order(void **state)
{
	static buf b1, b2;
	buf *bufs[2] = { &b1, &b2 };
	tlc_cupti_session *s;

	(void)state;
	b1.len = b2.len = 0;
	add_kernel(&b1, "k_late_api", 0, 1, 2000, 2100, 21);
	add_runtime(&b1, 100, 110, 20);
	add_ext(&b1, 20, 5, CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0);
	add_runtime(&b1, 120, 130, 21);
	add_ext(&b2, 21, 6, CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0);
	add_kernel(&b2, "k_first", 0, 1, 1000, 1100, 20);
	s = replay(bufs, 2, 0);

	assert_external(find(s, TLC_DEVICE_RUNTIME, 20), 5);
	assert_external(find(s, TLC_DEVICE_RUNTIME, 21), 6);
	assert_string_equal(find(s, TLC_DEVICE_KERNEL, 20)->name, "k_first");
	assert_string_equal(find(s, TLC_DEVICE_KERNEL, 21)->name, "k_late_api");
	/* delivery order is kept: b1's records first */
	assert_int_equal(tlc_cupti_record_at(s, 0)->kind, TLC_DEVICE_KERNEL);
	assert_int_equal(tlc_cupti_record_at(s, 0)->correlation, 21);
	assert_int_equal(summary(s).orphan_external, 0);
	tlc_cupti_session_free(s);
}

/* Op 1 enters, launches (corr 30); op 2 enters inside it, launches twice
 * (31, 32); op 2 exits; op 1 launches again (33). CUPTI names the innermost
 * pushed id for each call. */
static void test_nested_pushes(void **state)
{
	static buf b;
	tlc_cupti_session *s;
	const int64_t want[4] = { 1, 2, 2, 1 };

	(void)state;
	b.len = 0;
	for (uint32_t i = 0; i < 4; i++) {
		add_ext(&b, 30 + i, (uint64_t)want[i], CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0);
		add_runtime(&b, 100 + 10 * i, 105 + 10 * i, 30 + i);
		add_kernel(&b, "k", 0, 1, 1000 + 100 * i, 1050 + 100 * i, 30 + i);
	}
	s = replay1(&b);
	for (uint32_t i = 0; i < 4; i++)
		assert_external(find(s, TLC_DEVICE_RUNTIME, 30 + i), want[i]);
	assert_int_equal(count_kind(s, TLC_DEVICE_KERNEL), 4);
	tlc_cupti_session_free(s);
}

/* An external id naming no call, a kernel whose call was never seen, and a
 * call made outside any op are all kept as they are: the join decides. */
static void test_orphans(void **state)
{
	static buf b;
	tlc_cupti_session *s;
	tlc_cupti_summary m = TLC_CUPTI_SUMMARY_INIT;

	(void)state;
	b.len = 0;
	add_ext(&b, 99, 7, CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0); /* no call 99 */
	add_kernel(&b, "orphan_kernel", 0, 1, 1000, 1300, 98);       /* no call 98 */
	add_runtime(&b, 10, 20, 97);                                  /* no op */
	s = replay1(&b);
	m = summary(s);
	assert_int_equal(m.orphan_external, 1);
	assert_int_equal(m.external_ids, 1);
	assert_int_equal(tlc_cupti_record_count(s), 2);
	assert_int_equal(find(s, TLC_DEVICE_KERNEL, 98)->end_ns, 1300);
	assert_false(find(s, TLC_DEVICE_RUNTIME, 97)->flags & TLC_DEV_HAS_EXTERNAL_ID);
	assert_int_equal(m.status, TLC_CUPTI_COMPLETE);
	tlc_cupti_session_free(s);
}

/* Two different op ids for one call cannot be split: the call keeps none.
 * The same id twice is no conflict. External ids of other kinds (NVTX,
 * OpenACC, another tool's CUSTOM1) are not ours and are skipped. */
static void test_external_conflicts_and_kinds(void **state)
{
	static buf b;
	tlc_cupti_session *s;
	tlc_cupti_summary m = TLC_CUPTI_SUMMARY_INIT;

	(void)state;
	b.len = 0;
	add_ext(&b, 40, 1, CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0);
	add_ext(&b, 40, 2, CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0);
	add_runtime(&b, 10, 20, 40);
	add_ext(&b, 41, 3, CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0);
	add_ext(&b, 41, 3, CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0);
	add_ext(&b, 41, 900, CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM1);
	add_runtime(&b, 30, 40, 41);
	s = replay1(&b);
	m = summary(s);
	assert_false(find(s, TLC_DEVICE_RUNTIME, 40)->flags & TLC_DEV_HAS_EXTERNAL_ID);
	assert_external(find(s, TLC_DEVICE_RUNTIME, 41), 3);
	assert_int_equal(m.external_conflicts, 1);
	assert_int_equal(m.external_ids, 4);
	assert_int_equal(m.skipped, 1);
	tlc_cupti_session_free(s);
}

/* A driver call made by a runtime call shares its correlation id and is the
 * same launch: it is folded. A driver call of its own is handed on. A
 * memcpy names its runtime call through runtimeCorrelationId. */
static void test_driver_fold_and_memcpy_runtime_id(void **state)
{
	static buf b;
	tlc_cupti_session *s;
	const tlc_device_record *d;

	(void)state;
	b.len = 0;
	add_ext(&b, 50, 8, CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0);
	add_runtime(&b, 10, 40, 50);
	add_api(&b, CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, 15, 35, 77,
	        50);
	add_ext(&b, 51, 9, CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0);
	add_api(&b, CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, 50, 60, 77,
	        51);
	add_ext(&b, 53, 8, CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0);
	add_api(&b, CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020, 70, 90,
	        77, 53);
	add_memcpy(&b, 1024, 3000, 3200, 52, 53);  /* driver id 52 never seen */
	add_memcpy(&b, 2048, 4000, 4200, 54, 0);   /* no runtime id: driver id */
	s = replay1(&b);

	assert_int_equal(count_kind(s, TLC_DEVICE_RUNTIME), 2);
	assert_int_equal(count_kind(s, TLC_DEVICE_DRIVER), 1);
	assert_external(find(s, TLC_DEVICE_DRIVER, 51), 9);
	assert_string_equal(find(s, TLC_DEVICE_RUNTIME, 53)->name, "cudaMemcpy");
	d = find(s, TLC_DEVICE_MEMCPY, 53);
	assert_int_equal(d->bytes, 1024);
	assert_int_equal(find(s, TLC_DEVICE_MEMCPY, 54)->bytes, 2048);
	assert_int_equal(summary(s).driver_calls, 1);
	tlc_cupti_session_free(s);
}

/* ------------------------------------------------------------------ */
/* Kinds, empty buffers, lost records                                   */
/* ------------------------------------------------------------------ */

static void test_known_unused_kind_skipped(void **state)
{
	static buf b;
	tlc_cupti_session *s;
	tlc_cupti_summary m = TLC_CUPTI_SUMMARY_INIT;

	(void)state;
	b.len = 0;
	add_kernel(&b, "before", 0, 1, 100, 200, 60);
	add_overhead(&b);
	add_kernel(&b, "after", 0, 1, 300, 400, 61);
	s = replay1(&b);
	m = summary(s);
	assert_int_equal(m.skipped, 1);
	assert_int_equal(m.kernels, 2);
	assert_int_equal(m.status, TLC_CUPTI_COMPLETE);
	assert_string_equal(find(s, TLC_DEVICE_KERNEL, 61)->name, "after");
	tlc_cupti_session_free(s);
}

/* CUPTI cannot walk past a kind it does not know: what follows is lost and
 * the result is partial, every count a lower bound. */
static void test_unknown_kind_makes_partial(void **state)
{
	static buf b;
	tlc_cupti_session *s;
	tlc_cupti_summary m = TLC_CUPTI_SUMMARY_INIT;

	(void)state;
	b.len = 0;
	add_kernel(&b, "before", 0, 1, 100, 200, 62);
	add_unknown(&b);
	add_kernel(&b, "lost", 0, 1, 300, 400, 63);
	s = replay1(&b);
	m = summary(s);
	assert_int_equal(m.undecodable, 1);
	assert_int_equal(m.kernels, 1);
	assert_int_equal(m.status, TLC_CUPTI_PARTIAL);
	assert_true(m.lower_bound);
	assert_int_equal(tlc_cupti_record_count(s), 1);
	tlc_cupti_session_free(s);
}

/* A buffer whose valid size ends inside a record: CUPTI reports the
 * incomplete record, the records before it are kept. */
static void test_truncated_buffer(void **state)
{
	static buf b;
	tlc_cupti_session *s = NULL;
	tlc_cupti_summary m = TLC_CUPTI_SUMMARY_INIT;

	(void)state;
	b.len = 0;
	add_kernel(&b, "whole", 0, 1, 100, 200, 64);
	add_kernel(&b, "cut", 0, 1, 300, 400, 65);
	assert_int_equal(tlc_cupti_session_new(&s, NULL), 0);
	assert_int_equal(tlc_cupti_ingest(s, b.data, b.len - 8, 0), 0);
	assert_int_equal(tlc_cupti_stop(s), 0);
	m = summary(s);
	assert_int_equal(m.kernels, 1);
	assert_int_equal(m.undecodable, 1);
	assert_int_equal(m.status, TLC_CUPTI_PARTIAL);
	tlc_cupti_session_free(s);
}

static void test_empty_buffers(void **state)
{
	static buf b;
	buf *bufs[3] = { &b, &b, &b };
	tlc_cupti_session *s;
	tlc_cupti_summary m = TLC_CUPTI_SUMMARY_INIT;

	(void)state;
	b.len = 0;
	s = replay(bufs, 3, 0);
	m = summary(s);
	assert_int_equal(m.status, TLC_CUPTI_EMPTY);
	assert_string_equal(tlc_cupti_status_name(m.status), "empty");
	assert_false(m.lower_bound);
	assert_int_equal(tlc_cupti_record_count(s), 0);
	assert_null(tlc_cupti_record_at(s, 0));
	tlc_cupti_session_free(s);

	/* only external ids and unused kinds: still nothing to hand on */
	b.len = 0;
	add_ext(&b, 70, 1, CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0);
	add_overhead(&b);
	s = replay1(&b);
	assert_int_equal(summary(s).status, TLC_CUPTI_EMPTY);
	tlc_cupti_session_free(s);
}

static void test_dropped_records(void **state)
{
	static buf b;
	buf *bufs[1] = { &b };
	tlc_cupti_session *s;
	tlc_cupti_summary m = TLC_CUPTI_SUMMARY_INIT;

	(void)state;
	b.len = 0;
	add_kernel(&b, "k", 0, 1, 100, 200, 80);
	s = replay(bufs, 1, 5);
	m = summary(s);
	assert_int_equal(m.dropped, 5);
	assert_int_equal(m.status, TLC_CUPTI_PARTIAL);
	assert_true(m.lower_bound);
	assert_int_equal(tlc_cupti_record_count(s), 1);
	assert_int_equal(tlc_cupti_join_flags(s), TLC_JOIN_INPUT_PARTIAL);
	tlc_cupti_session_free(s);

	/* dropped records alone: partial, not empty */
	b.len = 0;
	s = replay(bufs, 1, 3);
	assert_int_equal(summary(s).status, TLC_CUPTI_PARTIAL);
	tlc_cupti_session_free(s);
}

/* Untimed records (CUPTI writes start = end = 0) or inverted intervals have
 * no known duration: they are counted, left out, never zero time. */
static void test_untimed_records(void **state)
{
	static buf b;
	tlc_cupti_session *s;
	tlc_cupti_summary m = TLC_CUPTI_SUMMARY_INIT;

	(void)state;
	b.len = 0;
	add_kernel(&b, "untimed", 0, 1, 0, 0, 81);
	add_kernel(&b, "inverted", 0, 1, 500, 400, 82);
	add_runtime(&b, 0, 0, 83);
	add_kernel(&b, "timed", 0, 1, 100, 200, 84);
	s = replay1(&b);
	m = summary(s);
	assert_int_equal(m.untimed, 3);
	assert_int_equal(m.kernels, 1);
	assert_int_equal(tlc_cupti_record_count(s), 1);
	assert_int_equal(m.status, TLC_CUPTI_PARTIAL);
	tlc_cupti_session_free(s);
}

/* ------------------------------------------------------------------ */
/* Op log output                                                        */
/* ------------------------------------------------------------------ */

static char *write_log(tlc_cupti_session *s)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_int_equal(tlc_cupti_write_oplog(f, s), 0);
	fclose(f);
	return text;
}

static void test_write_oplog(void **state)
{
	static buf b;
	tlc_cupti_session *s;
	char *text;
	/* Each line spelled out from the records added below, in the op log v1
	 * "Other record kinds" shapes. */
	const char *want =
		"{\"kind\":\"device_profiler\",\"source\":\"cupti\",\"status\":\"complete\","
		"\"lower_bound\":false,\"kernels\":1,\"memcpys\":1,\"memsets\":1,"
		"\"runtime_calls\":1,\"driver_calls\":0,\"dropped\":0,\"undecodable_buffers\":0,"
		"\"untimed\":0,\"skipped\":0,\"paused_regions\":0,\"graph_nodes\":0,"
		"\"graph_nodes_lost\":0}\n"
		"{\"kind\":\"runtime\",\"name\":\"cudaLaunchKernel\",\"thread\":77,\"start_ns\":900,"
		"\"end_ns\":950,\"correlation\":311,\"external_id\":42}\n"
		"{\"kind\":\"kernel\",\"name\":\"k\\\"q\\\\\",\"device\":0,\"stream\":7,"
		"\"start_ns\":1000,\"end_ns\":5200,\"correlation\":311}\n"
		"{\"kind\":\"memcpy\",\"device\":0,\"stream\":7,\"start_ns\":6000,\"end_ns\":6400,"
		"\"correlation\":312,\"bytes\":4096}\n"
		"{\"kind\":\"memset\",\"device\":0,\"stream\":7,\"start_ns\":6500,\"end_ns\":6510,"
		"\"correlation\":313,\"bytes\":256}\n";

	(void)state;
	b.len = 0;
	add_ext(&b, 311, 42, CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0);
	add_runtime(&b, 900, 950, 311);
	add_kernel(&b, "k\"q\\", 0, 7, 1000, 5200, 311);
	add_memcpy(&b, 4096, 6000, 6400, 312, 0);
	add_memset(&b, 256, 6500, 6510, 313);
	s = replay1(&b);
	text = write_log(s);
	assert_string_equal(text, want);
	free(text);
	tlc_cupti_session_free(s);
}

/* ------------------------------------------------------------------ */
/* End to end through the join (tlc_join_run)                           */
/* ------------------------------------------------------------------ */

/* The ops of tests/gpu/e2e.cu: op 4 runs nested inside op 3. */
static const char e2e_log[] =
	"{\"format\":\"tlcost-oplog\",\"version\":1}\n"
	"{\"id\":0,\"op\":\"aten::mm\",\"args\":[{\"shape\":[64,64],\"dtype\":\"float32\"},{\"shape\":[64,64],\"dtype\":\"float32\"}]}\n"
	"{\"id\":1,\"op\":\"aten::mm\",\"args\":[{\"shape\":[64,64],\"dtype\":\"float32\"},{\"shape\":[64,64],\"dtype\":\"float32\"}]}\n"
	"{\"id\":2,\"op\":\"aten::mm\",\"args\":[{\"shape\":[64,64],\"dtype\":\"float32\"},{\"shape\":[64,64],\"dtype\":\"float32\"}]}\n"
	"{\"id\":3,\"op\":\"aten::linear\",\"args\":[{\"shape\":[64,64],\"dtype\":\"float32\"},{\"shape\":[64,64],\"dtype\":\"float32\"},null]}\n"
	"{\"id\":4,\"op\":\"aten::mm\",\"parent\":3,\"args\":[{\"shape\":[64,64],\"dtype\":\"float32\"},{\"shape\":[64,64],\"dtype\":\"float32\"}]}\n";

/* Launch sequence: (op innermost at the call, kind). Op 3 launches one
 * kernel, then op 4 runs (4 kernels), then op 3 launches one more. Each op
 * also does one memcpy (40 ns) and one memset (10 ns); kernels are 100 ns. */
static const struct { int op; tlc_device_kind kind; } e2e_launches[] = {
	{ 0, TLC_DEVICE_MEMCPY }, { 0, TLC_DEVICE_MEMSET }, { 0, TLC_DEVICE_KERNEL },
	{ 1, TLC_DEVICE_MEMCPY }, { 1, TLC_DEVICE_MEMSET }, { 1, TLC_DEVICE_KERNEL },
	{ 1, TLC_DEVICE_KERNEL },
	{ 2, TLC_DEVICE_MEMCPY }, { 2, TLC_DEVICE_MEMSET }, { 2, TLC_DEVICE_KERNEL },
	{ 2, TLC_DEVICE_KERNEL }, { 2, TLC_DEVICE_KERNEL },
	{ 3, TLC_DEVICE_MEMCPY }, { 3, TLC_DEVICE_MEMSET }, { 3, TLC_DEVICE_KERNEL },
	{ 4, TLC_DEVICE_MEMCPY }, { 4, TLC_DEVICE_MEMSET }, { 4, TLC_DEVICE_KERNEL },
	{ 4, TLC_DEVICE_KERNEL }, { 4, TLC_DEVICE_KERNEL }, { 4, TLC_DEVICE_KERNEL },
	{ 3, TLC_DEVICE_KERNEL },
};
#define E2E_N (sizeof e2e_launches / sizeof e2e_launches[0])

/* API calls and external ids go to one buffer, device activity to another
 * (CUPTI keeps per-context buffers), device records first. */
static void build_e2e(buf *api, buf *dev)
{
	api->len = dev->len = 0;
	for (uint32_t i = 0; i < E2E_N; i++) {
		uint32_t corr = 500 + i;
		uint64_t t = 10000 + 1000 * (uint64_t)i;

		add_ext(api, corr, (uint64_t)e2e_launches[i].op, CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0);
		switch (e2e_launches[i].kind) {
		case TLC_DEVICE_MEMCPY:
			add_api(api, CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020,
			        t, t + 5, 77, corr);
			add_memcpy(dev, 4096, t, t + 40, corr, corr);
			break;
		case TLC_DEVICE_MEMSET:
			add_api(api, CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaMemset_v3020,
			        t, t + 5, 77, corr);
			add_memset(dev, 4096, t, t + 10, corr);
			break;
		default:
			add_runtime(api, t, t + 5, corr);
			add_kernel(dev, "scale", 0, 7, t, t + 100, corr);
		}
	}
}

static tlc_eval *eval_with_ops(tlc_engine **eng, const char *log, size_t len)
{
	tlc_eval *ev = NULL;
	tlc_eval_options eo = { sizeof eo, 1, NULL, NULL };
	/* no rules needed: attribution does not depend on an op's cost */
	tlc_engine_options no_rules = { sizeof no_rules, TLC_ENGINE_NO_BUILTINS, NULL };

	assert_int_equal(tlc_engine_new(eng, &no_rules), 0);
	assert_int_equal(tlc_eval_new(&ev, *eng, &eo), 0);
	assert_int_equal(tlc_oplog_read_mem(ev, log, len, "e2e"), 0);
	return ev;
}

static tlc_join *join_session(tlc_eval *ev, tlc_cupti_session *s)
{
	tlc_join *j = NULL;
	tlc_join_options jo = { sizeof jo, tlc_cupti_join_flags(s), 0 };

	assert_int_equal(tlc_cupti_push_eval(ev, s), 0);
	assert_int_equal(tlc_eval_finish(ev), 0);
	assert_int_equal(tlc_join_run(&j, ev, &jo), 0);
	return j;
}

static const tlc_op_row *row_of(const tlc_eval *ev, int64_t id)
{
	for (size_t i = 0; i < tlc_eval_op_count(ev); i++)
		if (test_op_id(ev, i) == id)
			return test_op_at(ev, i);
	fail_msg("no row for op %lld", (long long)id);
	return NULL;
}

/* Every launch of e2e_launches lands on its op, with exact times. */
static void check_e2e_join(const tlc_join *j, const tlc_eval *ev)
{
	const tlc_join_summary *sum = tlc_join_get_summary(j);
	int got[5][3] = { { 0 } };
	/* from e2e_launches: kernels, memcpys, memsets per op */
	const int want[5][3] = { { 1, 1, 1 }, { 2, 1, 1 }, { 3, 1, 1 }, { 2, 1, 1 }, { 4, 1, 1 } };

	for (size_t i = 0; i < tlc_join_launch_count(j); i++) {
		const tlc_join_launch *l = test_launch_at(j, i);
		const tlc_op_row *row;

		assert_int_equal(l->status, TLC_ATTR_ATTRIBUTED);
		row = test_op_at(ev, (size_t)l->op_row);
		assert_true(row->id >= 0 && row->id < 5);
		got[row->id][test_dev_at(ev, l->rec)->kind == TLC_DEVICE_KERNEL ? 0
		             : test_dev_at(ev, l->rec)->kind == TLC_DEVICE_MEMCPY ? 1 : 2]++;
	}
	for (int op = 0; op < 5; op++)
		for (int k = 0; k < 3; k++)
			assert_int_equal(got[op][k], want[op][k]);
	assert_int_equal(sum->state, TLC_JOIN_JOINED);
	assert_int_equal(sum->path, TLC_JOIN_PATH_CORRELATION);
	assert_int_equal(sum->launches, E2E_N);
	assert_int_equal(sum->kernels_attributed, 12); /* 1+2+3+2+4 */
	assert_true(sum->gate_passed);
	/* op 2: 3 kernels x 100 ns; plus 40 ns copy and 10 ns set */
	assert_int_equal(row_of(ev, 2)->kernel_time_ns, 300);
	assert_int_equal(row_of(ev, 2)->device_time_ns, 350);
	/* op 3 keeps its own 2 kernels; op 4's stay with op 4 */
	assert_int_equal(row_of(ev, 3)->kernel_time_ns, 200);
	assert_int_equal(row_of(ev, 4)->kernel_time_ns, 400);
}

static void test_join_every_launch_on_its_op(void **state)
{
	static buf api, dev;
	buf *bufs[2] = { &dev, &api };
	tlc_engine *eng = NULL;
	tlc_eval *ev;
	tlc_cupti_session *s;
	tlc_join *j;

	(void)state;
	build_e2e(&api, &dev);
	s = replay(bufs, 2, 0);
	assert_int_equal(summary(s).status, TLC_CUPTI_COMPLETE);
	ev = eval_with_ops(&eng, e2e_log, strlen(e2e_log));
	j = join_session(ev, s);
	check_e2e_join(j, ev);
	tlc_join_free(j);
	tlc_eval_free(ev);
	tlc_engine_free(eng);
	tlc_cupti_session_free(s);
}

/* The same through the op log: the lines tlc_cupti_write_oplog writes are
 * read back by libtlcost's op log reader, as `tlcost join LOG` does. */
static void test_join_through_oplog(void **state)
{
	static buf api, dev;
	buf *bufs[2] = { &api, &dev };
	tlc_engine *eng = NULL;
	tlc_eval *ev;
	tlc_cupti_session *s;
	tlc_join *j = NULL;
	tlc_join_options jo = { sizeof jo, 0, 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	build_e2e(&api, &dev);
	s = replay(bufs, 2, 0);
	assert_non_null(f);
	fputs(e2e_log, f);
	assert_int_equal(tlc_cupti_write_oplog(f, s), 0);
	fclose(f);
	ev = eval_with_ops(&eng, text, len);
	assert_int_equal(tlc_eval_finish(ev), 0);
	assert_int_equal(tlc_join_run(&j, ev, &jo), 0);
	check_e2e_join(j, ev);
	tlc_join_free(j);
	tlc_eval_free(ev);
	tlc_engine_free(eng);
	tlc_cupti_session_free(s);
	free(text);
}

/* A kernel whose runtime call was never seen (launched before the session,
 * or its record lost) is unattributed, never guessed by name; 1000 ns of it
 * against 1200 ns attributed is a 54% share, under the 95% gate. Dropped
 * records make the join partial. */
static void test_join_orphan_fails_gate(void **state)
{
	static buf api, dev;
	buf *bufs[2] = { &api, &dev };
	tlc_engine *eng = NULL;
	tlc_eval *ev;
	tlc_cupti_session *s;
	tlc_join *j;
	const tlc_join_summary *sum;

	(void)state;
	build_e2e(&api, &dev);
	add_kernel(&dev, "scale", 0, 7, 90000, 91000, 999);
	s = replay(bufs, 2, 2);
	ev = eval_with_ops(&eng, e2e_log, strlen(e2e_log));
	j = join_session(ev, s);
	sum = tlc_join_get_summary(j);
	assert_int_equal(sum->kernels_unattributed, 1);
	assert_int_equal(sum->kernel_unattributed_ns, 1000);
	assert_int_equal(sum->kernels_attributed, 12);
	assert_false(sum->gate_passed);
	assert_int_equal(sum->state, TLC_JOIN_PARTIAL);
	tlc_join_free(j);
	tlc_eval_free(ev);
	tlc_engine_free(eng);
	tlc_cupti_session_free(s);
}

/* ------------------------------------------------------------------ */
/* CUDA graph nodes                                                     */
/* ------------------------------------------------------------------ */

/* Sets graphId and graphNodeId of the record of type T added at offset off. */
#define SET_GRAPH(b, T, off, g, n)                                 \
	do {                                                        \
		T rec_;                                             \
		memcpy(&rec_, (b)->data + (off), sizeof rec_);      \
		rec_.graphId = (g);                                 \
		rec_.graphNodeId = (n);                             \
		memcpy((b)->data + (off), &rec_, sizeof rec_);      \
	} while (0)

/* A kernel, copy and set run by a graph launch keep their graph and node
 * ids; records whose graphNodeId is 0 were not run by a graph and carry
 * none (a graphId without a node is not a graph node either). */
static void test_graph_ids_on_device_records(void **state)
{
	static buf b;
	tlc_cupti_session *s;
	const tlc_device_record *d;
	size_t off;

	(void)state;
	b.len = 0;
	off = b.len;
	add_kernel(&b, "k_graph", 0, 7, 1000, 1100, 400);
	SET_GRAPH(&b, CUpti_ActivityKernel10, off, 4, 40);
	off = b.len;
	add_memcpy(&b, 64, 1200, 1240, 400, 0);
	SET_GRAPH(&b, CUpti_ActivityMemcpy6, off, 4, 41);
	off = b.len;
	add_memset(&b, 32, 1300, 1310, 400);
	SET_GRAPH(&b, CUpti_ActivityMemset4, off, 4, 42);
	/* node ids above 2^32: kept whole */
	off = b.len;
	add_kernel(&b, "k_big_node", 0, 7, 1400, 1500, 401);
	SET_GRAPH(&b, CUpti_ActivityKernel10, off, 9, (uint64_t)5 << 32);
	add_kernel(&b, "k_plain", 0, 7, 2000, 2100, 402);
	off = b.len;
	add_kernel(&b, "k_graph_no_node", 0, 7, 2200, 2300, 403);
	SET_GRAPH(&b, CUpti_ActivityKernel10, off, 5, 0);
	add_memcpy(&b, 64, 2400, 2440, 404, 0);
	add_memset(&b, 32, 2500, 2510, 405);
	/* a node id no int64 holds is not a node id: the record is kept without */
	off = b.len;
	add_kernel(&b, "k_bad_node", 0, 7, 2600, 2700, 406);
	SET_GRAPH(&b, CUpti_ActivityKernel10, off, 6, UINT64_MAX);
	s = replay1(&b);
	assert_int_equal(tlc_cupti_record_count(s), 9);

	d = find(s, TLC_DEVICE_KERNEL, 400);
	assert_true(d->flags & TLC_DEV_HAS_GRAPH_NODE);
	assert_int_equal(d->graph_id, 4);
	assert_int_equal(d->graph_node, 40);
	d = find(s, TLC_DEVICE_MEMCPY, 400);
	assert_true(d->flags & TLC_DEV_HAS_GRAPH_NODE);
	assert_int_equal(d->graph_id, 4);
	assert_int_equal(d->graph_node, 41);
	d = find(s, TLC_DEVICE_MEMSET, 400);
	assert_true(d->flags & TLC_DEV_HAS_GRAPH_NODE);
	assert_int_equal(d->graph_id, 4);
	assert_int_equal(d->graph_node, 42);
	d = find(s, TLC_DEVICE_KERNEL, 401);
	assert_int_equal(d->graph_id, 9);
	assert_int_equal(d->graph_node, 21474836480); /* 5 << 32 */
	for (int64_t c = 402; c <= 406; c++) {
		for (size_t i = 0; i < tlc_cupti_record_count(s); i++) {
			d = tlc_cupti_record_at(s, i);
			if (d->correlation != c)
				continue;
			assert_false(d->flags & TLC_DEV_HAS_GRAPH_NODE);
			assert_int_equal(d->graph_id, 0);
			assert_int_equal(d->graph_node, 0);
		}
	}
	tlc_cupti_session_free(s);
}

/* A capture and its replay in one session, as the two sessions of
 * docs/cupti.md would see them: call 311 (op 42) launches a kernel during
 * stream capture, making node 17 of graph 3; instantiation clones it as
 * node 40 of graph 4; call 400 (cudaGraphLaunch, op 43) replays it. Node 18
 * of a graph CUPTI gave no id for was made by call 312; a node whose origin
 * is unknown is only counted. Every line below is spelled out by hand from
 * those records, in the order the module writes them: the disclosure, the
 * graph nodes in the order they were noted, the records as delivered. */
static void test_graph_nodes_oplog(void **state)
{
	static buf b;
	tlc_cupti_session *s = NULL;
	tlc_cupti_summary m = TLC_CUPTI_SUMMARY_INIT;
	char *text;
	size_t off;
	const char *want =
		"{\"kind\":\"device_profiler\",\"source\":\"cupti\",\"status\":\"complete\","
		"\"lower_bound\":false,\"kernels\":1,\"memcpys\":0,\"memsets\":0,"
		"\"runtime_calls\":2,\"driver_calls\":0,\"dropped\":0,\"undecodable_buffers\":0,"
		"\"untimed\":0,\"skipped\":0,\"paused_regions\":0,\"graph_nodes\":3,"
		"\"graph_nodes_lost\":1}\n"
		"{\"kind\":\"graph_node\",\"graph_id\":3,\"node\":17,\"correlation\":311}\n"
		"{\"kind\":\"graph_node\",\"graph_id\":4,\"node\":40,\"original\":17}\n"
		"{\"kind\":\"graph_node\",\"node\":18,\"correlation\":312}\n"
		"{\"kind\":\"runtime\",\"name\":\"cudaLaunchKernel\",\"thread\":77,\"start_ns\":900,"
		"\"end_ns\":950,\"correlation\":311,\"external_id\":42}\n"
		"{\"kind\":\"runtime\",\"name\":\"cudaGraphLaunch\",\"thread\":77,\"start_ns\":2000,"
		"\"end_ns\":2050,\"correlation\":400,\"external_id\":43}\n"
		"{\"kind\":\"kernel\",\"name\":\"scale\",\"device\":0,\"stream\":7,"
		"\"start_ns\":3000,\"end_ns\":3100,\"correlation\":400,\"graph_id\":4,"
		"\"graph_node\":40}\n";

	(void)state;
	b.len = 0;
	add_ext(&b, 311, 42, CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0);
	add_runtime(&b, 900, 950, 311);
	add_ext(&b, 400, 43, CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0);
	add_api(&b, CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000,
	        2000, 2050, 77, 400);
	off = b.len;
	add_kernel(&b, "scale", 0, 7, 3000, 3100, 400);
	SET_GRAPH(&b, CUpti_ActivityKernel10, off, 4, 40);

	assert_int_equal(tlc_cupti_session_new(&s, NULL), 0);
	assert_int_equal(tlc_cupti__note_graph_node(s, 3, 17, 311, -1), 0);
	assert_int_equal(tlc_cupti_ingest(s, b.data, b.len, 0), 0);
	assert_int_equal(tlc_cupti__note_graph_node(s, 4, 40, -1, 17), 0);
	assert_int_equal(tlc_cupti__note_graph_node(s, -1, 18, 312, -1), 0);
	assert_int_equal(tlc_cupti__note_graph_node(s, 3, 19, -1, -1), 0); /* origin unknown */
	/* a node is >= 0 and made by a call or cloned, never both */
	assert_int_equal(tlc_cupti__note_graph_node(s, 3, -1, 311, -1), TLC_EINVAL);
	assert_string_equal(tlc_cupti_session_error(s)->code, "cupti_graph_node_invalid");
	assert_true(tlc_cupti_session_error(s)->remedy[0] != '\0');
	assert_int_equal(tlc_cupti__note_graph_node(s, 3, 20, 311, 17), TLC_EINVAL);
	assert_string_equal(tlc_cupti_session_error(s)->code, "cupti_graph_node_invalid");
	assert_int_equal(tlc_cupti_stop(s), 0);
	/* after stop, the records are fixed */
	assert_int_equal(tlc_cupti__note_graph_node(s, 3, 21, 311, -1), TLC_ESTATE);
	assert_string_equal(tlc_cupti_session_error(s)->code, "cupti_session_state");

	m = summary(s);
	assert_int_equal(m.graph_nodes, 3);
	assert_int_equal(m.graph_nodes_lost, 1);
	assert_null(m.graph_nodes_unavailable); /* never started: nothing refused */
	text = write_log(s);
	assert_string_equal(text, want);
	free(text);
	tlc_cupti_session_free(s);
}

/* tlc_cupti_push_eval hands the graph node records and the device records'
 * graph ids to the evaluation as they were noted. */
static void test_graph_nodes_push_eval(void **state)
{
	static buf b;
	tlc_cupti_session *s = NULL;
	tlc_engine *eng = NULL;
	tlc_eval *ev;
	tlc_graph_node g = TLC_GRAPH_NODE_INIT;
	tlc_device_record d = TLC_DEVICE_RECORD_INIT;
	size_t off, k = SIZE_MAX;

	(void)state;
	b.len = 0;
	add_runtime(&b, 900, 950, 311);
	off = b.len;
	add_kernel(&b, "scale", 0, 7, 3000, 3100, 400);
	SET_GRAPH(&b, CUpti_ActivityKernel10, off, 4, 40);
	add_kernel(&b, "plain", 0, 7, 4000, 4100, 311);
	assert_int_equal(tlc_cupti_session_new(&s, NULL), 0);
	assert_int_equal(tlc_cupti_ingest(s, b.data, b.len, 0), 0);
	assert_int_equal(tlc_cupti__note_graph_node(s, 3, 17, 311, -1), 0);
	assert_int_equal(tlc_cupti__note_graph_node(s, -1, 40, -1, 17), 0);
	assert_int_equal(tlc_cupti_stop(s), 0);

	ev = eval_with_ops(&eng, e2e_log, strlen(e2e_log));
	assert_int_equal(tlc_cupti_push_eval(ev, s), 0);
	assert_int_equal(tlc_eval_graph_node_count(ev), 2);
	assert_int_equal(tlc_eval_graph_node_get(ev, 0, &g), 0);
	assert_int_equal(g.graph_id, 3);
	assert_int_equal(g.node, 17);
	assert_int_equal(g.correlation, 311);
	assert_int_equal(g.original, -1);
	assert_int_equal(tlc_eval_graph_node_get(ev, 1, &g), 0);
	assert_int_equal(g.graph_id, -1);
	assert_int_equal(g.node, 40);
	assert_int_equal(g.correlation, -1);
	assert_int_equal(g.original, 17);
	assert_int_equal(tlc_eval_device_count(ev), 3);
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(tlc_eval_device_get(ev, i, &d), 0);
		if (d.kind == TLC_DEVICE_KERNEL && d.correlation == 400)
			k = i;
		else
			assert_false(d.flags & TLC_DEV_HAS_GRAPH_NODE);
	}
	assert_true(k != SIZE_MAX);
	assert_int_equal(tlc_eval_device_get(ev, k, &d), 0);
	assert_true(d.flags & TLC_DEV_HAS_GRAPH_NODE);
	assert_int_equal(d.graph_id, 4);
	assert_int_equal(d.graph_node, 40);
	tlc_eval_free(ev);
	tlc_engine_free(eng);
	tlc_cupti_session_free(s);
}

/* The stand-in libcupti's entry points a test drives (tests/nvtx/fake_cupti.c). */
typedef struct fake_cupti {
	void *h;
	int (*subscribed)(void);
	int (*api)(int domain, int site, uint32_t correlation);
	int (*node)(uint32_t cbid, uint32_t graph, uint64_t node, uint64_t original);
	CUptiResult (*subscribe)(CUpti_SubscriberHandle *, CUpti_CallbackFunc, void *);
	CUptiResult (*unsubscribe)(CUpti_SubscriberHandle);
} fake_cupti;

static void *fake_sym(void *h, const char *name)
{
	void *p = dlsym(h, name);

	assert_non_null(p);
	return p;
}

/* Loads the stand-in (the session's dlopen of the same path shares it);
 * 0 when it was not built. */
static int fake_open(fake_cupti *f)
{
	void *p;

	memset(f, 0, sizeof *f);
	if (!TLC_TEST_FAKE_CUPTI[0] || access(TLC_TEST_FAKE_CUPTI, R_OK) != 0)
		return 0;
	f->h = dlopen(TLC_TEST_FAKE_CUPTI, RTLD_NOW | RTLD_LOCAL);
	assert_non_null(f->h);
	p = fake_sym(f->h, "tlc_test_fake_cupti_subscribed");
	memcpy(&f->subscribed, &p, sizeof p);
	p = fake_sym(f->h, "tlc_test_fake_cupti_api");
	memcpy(&f->api, &p, sizeof p);
	p = fake_sym(f->h, "tlc_test_fake_cupti_graph_node");
	memcpy(&f->node, &p, sizeof p);
	p = fake_sym(f->h, "cuptiSubscribe");
	memcpy(&f->subscribe, &p, sizeof p);
	p = fake_sym(f->h, "cuptiUnsubscribe");
	memcpy(&f->unsubscribe, &p, sizeof p);
	return 1;
}

static tlc_cupti_session *fake_session(void)
{
	tlc_cupti_options o = { sizeof o, TLC_TEST_FAKE_CUPTI, 0, NULL };
	tlc_cupti_session *s = NULL;

	assert_int_equal(tlc_cupti_session_new(&s, &o), 0);
	assert_int_equal(tlc_cupti_start(s), 0);
	return s;
}

enum { RT = CUPTI_CB_DOMAIN_RUNTIME_API, DRV = CUPTI_CB_DOMAIN_DRIVER_API, ENTER = 0, EXIT = 1 };
#define CREATED CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED
#define CLONED CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED

static fake_cupti the_fake;

/* Makes node 21 of graph 3 on a thread with no call in progress. */
static void *node_elsewhere(void *arg)
{
	(void)arg;
	the_fake.node(CREATED, 3, 21, 0);
	return NULL;
}

/* A running session subscribes, follows the calls in progress on each
 * thread and notes the nodes the resource callback reports; stop
 * unsubscribes. The ids are the stand-in's handles (tests/nvtx/fake_cupti.c),
 * the lines spelled out by hand from the calls below. */
static void test_graph_nodes_from_callbacks(void **state)
{
	fake_cupti *f = &the_fake;
	tlc_cupti_session *s;
	tlc_cupti_summary m = TLC_CUPTI_SUMMARY_INIT;
	pthread_t t;
	char *text;
	const char *want =
		"{\"kind\":\"device_profiler\",\"source\":\"cupti\",\"status\":\"empty\","
		"\"lower_bound\":false,\"kernels\":0,\"memcpys\":0,\"memsets\":0,"
		"\"runtime_calls\":0,\"driver_calls\":0,\"dropped\":0,\"undecodable_buffers\":0,"
		"\"untimed\":0,\"skipped\":0,\"paused_regions\":0,\"graph_nodes\":6,"
		"\"graph_nodes_lost\":5}\n"
		"{\"kind\":\"graph_node\",\"graph_id\":3,\"node\":17,\"correlation\":311}\n"
		"{\"kind\":\"graph_node\",\"graph_id\":3,\"node\":18,\"correlation\":320}\n"
		"{\"kind\":\"graph_node\",\"graph_id\":3,\"node\":19,\"correlation\":330}\n"
		"{\"kind\":\"graph_node\",\"graph_id\":3,\"node\":22,\"correlation\":360}\n"
		"{\"kind\":\"graph_node\",\"node\":23,\"correlation\":370}\n"
		"{\"kind\":\"graph_node\",\"graph_id\":4,\"node\":40,\"original\":17}\n";

	(void)state;
	if (!fake_open(f))
		skip();
	s = fake_session();
	assert_true(f->subscribed());
	/* a runtime launch during capture makes node 17 */
	assert_true(f->api(RT, ENTER, 311));
	assert_true(f->node(CREATED, 3, 17, 0));
	f->api(RT, EXIT, 311);
	/* the driver call a runtime call makes inside it: the runtime call's */
	f->api(RT, ENTER, 320);
	f->api(DRV, ENTER, 321);
	f->node(CREATED, 3, 18, 0);
	f->api(DRV, EXIT, 321);
	f->api(RT, EXIT, 320);
	/* a driver call of its own (a driver API program) */
	f->api(DRV, ENTER, 330);
	f->node(CREATED, 3, 19, 0);
	f->api(DRV, EXIT, 330);
	/* no call in progress: where it came from is unknown, so it is lost */
	f->node(CREATED, 3, 20, 0);
	/* a call in progress on this thread is not another thread's */
	f->api(RT, ENTER, 340);
	assert_int_equal(pthread_create(&t, NULL, node_elsewhere, NULL), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	f->api(RT, EXIT, 340);
	/* a runtime call made inside a runtime call: the outermost's */
	f->api(RT, ENTER, 360);
	f->api(RT, ENTER, 361);
	f->node(CREATED, 3, 22, 0);
	f->api(RT, EXIT, 361);
	f->api(RT, EXIT, 360);
	/* a graph CUPTI gives no id for (a NULL handle here) */
	f->api(RT, ENTER, 370);
	f->node(CREATED, 0, 23, 0);
	f->api(RT, EXIT, 370);
	/* instantiation clones node 17 as node 40 of graph 4 */
	f->api(RT, ENTER, 380);
	f->node(CLONED, 4, 40, 17);
	/* handles CUPTI gives no id for (NULL here): the node, or the node it
	 * was cloned from, unknown: lost */
	f->node(CLONED, 4, 41, 0);
	f->node(CLONED, 4, 0, 17);
	f->api(RT, EXIT, 380);
	f->api(RT, ENTER, 390);
	f->node(CREATED, 3, 0, 0);
	f->api(RT, EXIT, 390);
	assert_int_equal(tlc_cupti_stop(s), 0);
	assert_false(f->subscribed());
	assert_false(f->node(CREATED, 3, 24, 0)); /* nobody listens after stop */

	m = summary(s);
	assert_int_equal(m.status, TLC_CUPTI_EMPTY);
	assert_int_equal(m.graph_nodes, 6);
	assert_int_equal(m.graph_nodes_lost, 5); /* nodes 20, 21, 41, and two without ids */
	assert_null(m.graph_nodes_unavailable);
	text = write_log(s);
	assert_string_equal(text, want);
	free(text);
	tlc_cupti_session_free(s);

	/* a call whose exit the last session never saw (it stopped in between)
	 * is not taken for a call in progress by the next one */
	s = fake_session();
	f->api(RT, ENTER, 900);
	assert_int_equal(tlc_cupti_stop(s), 0);
	tlc_cupti_session_free(s);
	s = fake_session();
	f->node(CREATED, 3, 25, 0);
	assert_int_equal(tlc_cupti_stop(s), 0);
	m = summary(s);
	assert_int_equal(m.graph_nodes, 0);
	assert_int_equal(m.graph_nodes_lost, 1);
	tlc_cupti_session_free(s); /* freed while stopped: nothing left subscribed */
	assert_false(f->subscribed());

	/* a session freed while running unsubscribes too */
	s = fake_session();
	assert_true(f->subscribed());
	tlc_cupti_session_free(s);
	assert_false(f->subscribed());
}

#define NODE_THREADS 8
#define NODES_PER_THREAD 200

/* Thread t makes nodes t * 1000 + i + 1, each inside its own runtime call
 * t * 1000 + i, so a node's creating call is its id minus 1. */
static void *make_nodes(void *arg)
{
	uint32_t t = (uint32_t)(uintptr_t)arg;

	for (uint32_t i = 0; i < NODES_PER_THREAD; i++) {
		uint32_t call = t * 1000 + i;

		the_fake.api(RT, ENTER, call);
		the_fake.node(CREATED, t + 1, (uint64_t)call + 1, 0);
		the_fake.api(RT, EXIT, call);
	}
	return NULL;
}

/* Threads making nodes at once: every node kept, each with its own
 * thread's call. */
static void test_graph_nodes_threads(void **state)
{
	fake_cupti *f = &the_fake;
	tlc_cupti_session *s;
	tlc_cupti_summary m = TLC_CUPTI_SUMMARY_INIT;
	pthread_t t[NODE_THREADS];
	tlc_engine *eng = NULL;
	tlc_eval *ev;

	(void)state;
	if (!fake_open(f))
		skip();
	s = fake_session();
	for (uintptr_t i = 0; i < NODE_THREADS; i++)
		assert_int_equal(pthread_create(&t[i], NULL, make_nodes, (void *)i), 0);
	for (size_t i = 0; i < NODE_THREADS; i++)
		assert_int_equal(pthread_join(t[i], NULL), 0);
	assert_int_equal(tlc_cupti_stop(s), 0);
	m = summary(s);
	assert_int_equal(m.graph_nodes, NODE_THREADS * NODES_PER_THREAD);
	assert_int_equal(m.graph_nodes_lost, 0);
	ev = eval_with_ops(&eng, e2e_log, strlen(e2e_log));
	assert_int_equal(tlc_cupti_push_eval(ev, s), 0);
	assert_int_equal(tlc_eval_graph_node_count(ev), NODE_THREADS * NODES_PER_THREAD);
	for (size_t i = 0; i < tlc_eval_graph_node_count(ev); i++) {
		tlc_graph_node g = TLC_GRAPH_NODE_INIT;

		assert_int_equal(tlc_eval_graph_node_get(ev, i, &g), 0);
		assert_int_equal(g.correlation, g.node - 1);
		assert_int_equal(g.graph_id, g.node / 1000 + 1);
		assert_int_equal(g.original, -1);
	}
	tlc_eval_free(ev);
	tlc_engine_free(eng);
	tlc_cupti_session_free(s);
}

static void CUPTIAPI other_client(void *userdata, CUpti_CallbackDomain domain,
                                  CUpti_CallbackId cbid, const void *cbdata)
{
	(void)userdata;
	(void)domain;
	(void)cbid;
	(void)cbdata;
}

/* CUPTI takes one subscriber per process. When another client (a profiler,
 * Nsight) holds it, the session runs on without graph nodes, says so in its
 * summary and disclosure line with CUPTI's text, and leaves the other
 * client subscribed. */
static void test_graph_nodes_unavailable_when_subscribed(void **state)
{
	fake_cupti *f = &the_fake;
	CUpti_SubscriberHandle other = NULL;
	tlc_cupti_session *s;
	tlc_cupti_summary m = TLC_CUPTI_SUMMARY_INIT;
	char *text;
	const char *want =
		"{\"kind\":\"device_profiler\",\"source\":\"cupti\",\"status\":\"empty\","
		"\"lower_bound\":false,\"kernels\":0,\"memcpys\":0,\"memsets\":0,"
		"\"runtime_calls\":0,\"driver_calls\":0,\"dropped\":0,\"undecodable_buffers\":0,"
		"\"untimed\":0,\"skipped\":0,\"paused_regions\":0,\"graph_nodes\":\"unavailable: "
		"cuptiSubscribe: CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED (fake)\"}\n";

	(void)state;
	if (!fake_open(f))
		skip();
	assert_int_equal(f->subscribe(&other, other_client, NULL), CUPTI_SUCCESS);
	s = fake_session(); /* starts: 0 */
	assert_int_equal(tlc_cupti_op_enter(s, 5), 0);
	f->api(RT, ENTER, 311); /* the other client's callback takes these */
	f->node(CREATED, 3, 17, 0);
	f->api(RT, EXIT, 311);
	assert_int_equal(tlc_cupti_op_exit(s, 5), 0);
	assert_int_equal(tlc_cupti_stop(s), 0);
	assert_true(f->subscribed()); /* not ours to unsubscribe */
	m = summary(s);
	assert_int_equal(m.status, TLC_CUPTI_EMPTY);
	assert_string_equal(m.graph_nodes_unavailable,
	                    "cuptiSubscribe: CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED (fake)");
	assert_int_equal(m.graph_nodes, 0);
	text = write_log(s);
	assert_string_equal(text, want);
	free(text);
	tlc_cupti_session_free(s);
	assert_int_equal(f->unsubscribe(other), CUPTI_SUCCESS);

	/* with the other client gone, the next session records graph nodes */
	s = fake_session();
	f->api(RT, ENTER, 311);
	f->node(CREATED, 3, 17, 0);
	f->api(RT, EXIT, 311);
	assert_int_equal(tlc_cupti_stop(s), 0);
	m = summary(s);
	assert_null(m.graph_nodes_unavailable);
	assert_int_equal(m.graph_nodes, 1);
	tlc_cupti_session_free(s);
}

/* An older caller's summary struct (up to paused_regions) is filled only
 * that far. */
static void test_summary_older_layout(void **state)
{
	struct {
		tlc_cupti_summary m;
		unsigned char guard[64];
	} old;
	tlc_cupti_session *s = NULL;
	const size_t oldsize = offsetof(tlc_cupti_summary, paused_regions) + sizeof(uint64_t);

	(void)state;
	assert_int_equal(tlc_cupti_session_new(&s, NULL), 0);
	assert_int_equal(tlc_cupti__note_graph_node(s, 3, 17, 311, -1), 0);
	assert_int_equal(tlc_cupti_stop(s), 0);
	memset(&old, 0xab, sizeof old);
	old.m.size = (uint32_t)oldsize;
	assert_int_equal(tlc_cupti_get_summary(&old.m, s), 0);
	assert_int_equal(old.m.size, oldsize);
	assert_int_equal(old.m.status, TLC_CUPTI_EMPTY);
	for (size_t i = oldsize; i < sizeof old.m; i++)
		assert_int_equal(((unsigned char *)&old.m)[i], 0xab);
	tlc_cupti_session_free(s);
}

/* ------------------------------------------------------------------ */
/* States and the unavailable path                                      */
/* ------------------------------------------------------------------ */

/* CUPTI's clock is readable without a GPU and does not run backwards. */
static void test_timestamp(void **state)
{
	tlc_cupti_session *s = NULL;
	int64_t a = -1, b = -1;
	tlc_cupti_options o = { sizeof o, "/nonexistent/tlcost/libcupti.so", 0, NULL };

	(void)state;
	assert_int_equal(tlc_cupti_session_new(&s, NULL), 0);
	assert_int_equal(tlc_cupti_timestamp(&a, s), 0);
	assert_int_equal(tlc_cupti_timestamp(&b, s), 0);
	assert_true(a > 0);
	assert_true(b >= a);
	tlc_cupti_session_free(s);

	assert_int_equal(tlc_cupti_session_new(&s, &o), 0);
	assert_int_equal(tlc_cupti_timestamp(&a, s), TLC_EUNAVAILABLE);
	assert_int_equal(a, -1);
	assert_int_equal(tlc_cupti_timestamp(&a, s), TLC_EUNAVAILABLE);
	tlc_cupti_session_free(s);
}

static void test_state_errors(void **state)
{
	tlc_cupti_session *s = NULL;
	tlc_cupti_summary m = TLC_CUPTI_SUMMARY_INIT;
	tlc_cupti_options bad = { 3, NULL, 0, NULL };
	uint8_t one = 0;

	(void)state;
	assert_int_equal(tlc_cupti_session_new(&s, &bad), TLC_EINVAL);
	assert_null(s);
	bad.size = sizeof bad + 8; /* a newer layout than this library knows */
	assert_int_equal(tlc_cupti_session_new(&s, &bad), TLC_EINVAL);
	/* the oldest layout: up to library_path */
	bad.size = offsetof(tlc_cupti_options, library_path) + sizeof(char *);
	bad.buffer_size = 12345;
	assert_int_equal(tlc_cupti_session_new(&s, &bad), 0);
	tlc_cupti_session_free(s);
	s = NULL;
	assert_int_equal(tlc_cupti_session_new(&s, NULL), 0);
	assert_string_equal(tlc_cupti_session_error(s)->code, "ok");
	assert_int_equal(tlc_cupti_op_enter(s, 1), TLC_ESTATE);
	assert_string_equal(tlc_cupti_session_error(s)->code, "cupti_session_state");
	assert_int_equal(tlc_cupti_pause(s), TLC_ESTATE);
	assert_int_equal(tlc_cupti_resume(s), TLC_ESTATE);
	assert_true(tlc_cupti_session_error(s)->remedy[0] != '\0');
	assert_int_equal(tlc_cupti_get_summary(&m, s), TLC_ESTATE);
	assert_int_equal(tlc_cupti_record_count(s), 0);
	assert_int_equal(tlc_cupti_ingest(s, NULL, 8, 0), TLC_EINVAL);
	assert_string_equal(tlc_cupti_session_error(s)->code, "cupti_buffer_invalid");
	assert_int_equal(tlc_cupti_stop(s), 0);
	assert_int_equal(tlc_cupti_stop(s), TLC_ESTATE);
	assert_int_equal(tlc_cupti_ingest(s, &one, 0, 0), TLC_ESTATE);
	assert_int_equal(tlc_cupti_start(s), TLC_ESTATE);
	tlc_cupti_session_free(s);
	tlc_cupti_session_free(NULL);
}

/* CUPTI's own text for a result, read from libcupti by the test itself. */
static const char *cupti_text(int result)
{
	static void *h;
	CUptiResult (*fn)(CUptiResult, const char **) = NULL;
	const char *text = NULL;
	void *sym;

	if (!h)
		h = dlopen(TLC_CUPTI_LIBDIR[0] ? TLC_CUPTI_LIBDIR "/libcupti.so" : "libcupti.so",
		           RTLD_NOW | RTLD_LOCAL);
	assert_non_null(h);
	sym = dlsym(h, "cuptiGetResultString");
	assert_non_null(sym);
	memcpy(&fn, &sym, sizeof sym);
	assert_int_equal(fn((CUptiResult)result, &text), CUPTI_SUCCESS);
	return text;
}

static void check_unavailable_session(tlc_cupti_session *s)
{
	tlc_cupti_summary m = TLC_CUPTI_SUMMARY_INIT;
	char *text;

	assert_int_equal(tlc_cupti_get_summary(&m, s), 0);
	assert_int_equal(m.status, TLC_CUPTI_UNAVAILABLE);
	assert_non_null(m.failed_call);
	assert_non_null(m.message);
	assert_true(m.message[0] != '\0');
	/* ops and stop go on without device time; no record, never zero times */
	assert_int_equal(tlc_cupti_op_enter(s, 3), 0);
	assert_int_equal(tlc_cupti_pause(s), 0);
	assert_int_equal(tlc_cupti_resume(s), 0);
	assert_int_equal(tlc_cupti_op_exit(s, 3), 0);
	assert_int_equal(tlc_cupti_stop(s), 0);
	assert_int_equal(tlc_cupti_record_count(s), 0);
	assert_int_equal(tlc_cupti_push_eval(NULL, s), TLC_EUNAVAILABLE);
	assert_string_equal(tlc_cupti_session_error(s)->code, "cupti_unavailable");
	assert_non_null(strstr(tlc_cupti_session_error(s)->message, m.message));
	text = write_log(s);
	/* one fact-free disclosure line: status and text, no counts */
	assert_non_null(strstr(text, "\"status\":\"unavailable\""));
	assert_non_null(strstr(text, m.message));
	assert_null(strstr(text, "\"kernels\""));
	assert_ptr_equal(strchr(text, '\n'), text + strlen(text) - 1);
	free(text);
}

/* On this GPU-less machine libcupti loads but cannot enable activity. */
static void test_unavailable_without_gpu(void **state)
{
	tlc_cupti_session *s = NULL;
	tlc_cupti_summary m = TLC_CUPTI_SUMMARY_INIT;
	int rc;

	(void)state;
	assert_int_equal(tlc_cupti_session_new(&s, NULL), 0);
	rc = tlc_cupti_start(s);
	if (rc == 0) { /* a GPU is present: this path cannot be shown here */
		tlc_cupti_session_free(s);
		skip();
	}
	assert_int_equal(rc, TLC_EUNAVAILABLE);
	assert_string_equal(tlc_cupti_session_error(s)->code, "cupti_unavailable");
	assert_true(tlc_cupti_session_error(s)->remedy[0] != '\0');
	assert_int_equal(tlc_cupti_get_summary(&m, s), 0);
	assert_true(m.cupti_result > 0);
	assert_non_null(strstr(m.failed_call, "cuptiActivity"));
	assert_string_equal(m.message, cupti_text(m.cupti_result));
	check_unavailable_session(s);
	/* a second start is refused, the session stays unavailable */
	assert_int_equal(tlc_cupti_start(s), TLC_ESTATE);
	tlc_cupti_session_free(s);

	/* the process-wide slot was released: a new session may try again */
	assert_int_equal(tlc_cupti_session_new(&s, NULL), 0);
	assert_int_equal(tlc_cupti_start(s), TLC_EUNAVAILABLE);
	assert_string_equal(tlc_cupti_session_error(s)->code, "cupti_unavailable");
	tlc_cupti_session_free(s);
}

static void test_library_not_found(void **state)
{
	tlc_cupti_options o = { sizeof o, "/nonexistent/tlcost/libcupti.so", 0, NULL };
	tlc_cupti_session *s = NULL;
	tlc_cupti_summary m = TLC_CUPTI_SUMMARY_INIT;

	(void)state;
	assert_int_equal(tlc_cupti_session_new(&s, &o), 0);
	assert_int_equal(tlc_cupti_start(s), TLC_EUNAVAILABLE);
	assert_int_equal(tlc_cupti_get_summary(&m, s), 0);
	assert_string_equal(m.failed_call, "dlopen");
	assert_int_equal(m.cupti_result, -1);
	/* the loader's own message names the path */
	assert_non_null(strstr(m.message, "/nonexistent/tlcost/libcupti.so"));
	check_unavailable_session(s);
	tlc_cupti_session_free(s);

	/* replaying needs libcupti's walker too: refused the same way */
	assert_int_equal(tlc_cupti_session_new(&s, &o), 0);
	{
		static buf b;

		b.len = 0;
		add_kernel(&b, "k", 0, 1, 1, 2, 1);
		assert_int_equal(tlc_cupti_ingest(s, b.data, b.len, 0), TLC_EUNAVAILABLE);
	}
	assert_int_equal(tlc_cupti_get_summary(&m, s), 0);
	assert_int_equal(m.status, TLC_CUPTI_UNAVAILABLE);
	tlc_cupti_session_free(s);
}

/* ------------------------------------------------------------------ */

/* tests/cupti/join_cli.sh: writes the e2e op log with the records
 * tlc_cupti_write_oplog gives for the hand-built buffers, for `tlcost join`. */
static int write_e2e_log(const char *path)
{
	static buf api, dev;
	tlc_cupti_session *s = NULL;
	FILE *f = fopen(path, "w");
	int rc = 1;

	if (!f)
		return 1;
	build_e2e(&api, &dev);
	if (tlc_cupti_session_new(&s, NULL) == 0 &&
	    tlc_cupti_ingest(s, api.data, api.len, 0) == 0 &&
	    tlc_cupti_ingest(s, dev.data, dev.len, 0) == 0 && tlc_cupti_stop(s) == 0) {
		fputs(e2e_log, f);
		rc = tlc_cupti_write_oplog(f, s) == 0 ? 0 : 1;
	}
	if (fclose(f) != 0)
		rc = 1;
	tlc_cupti_session_free(s);
	return rc;
}

/* tests/cupti/graph_join.sh: the two op logs of e2e --graph (tests/gpu/e2e.cu)
 * as the module writes them, from hand-built buffers and graph nodes noted
 * as the callbacks would note them. Capture, on thread 77: BeginCapture
 * (call 1001); op 30 launches once (1002, making node 101 of graph 1); op
 * 31 twice (1004, 1005: nodes 102, 103); EndCapture (1006); instantiation
 * (1007) clones 101-103 as 201-203 of graph 2. Replay: two graph launches
 * (2001, 2002) each run nodes 201, 202, 203; op 40 launches one kernel of
 * its own (2003). Kernels run 1000 ns each. */
static const char graph_capture_ops[] =
	"{\"format\":\"tlcost-oplog\",\"version\":1}\n"
	"{\"id\":30,\"op\":\"aten::addmm\",\"args\":[{\"shape\":[64,64],\"dtype\":\"float32\"},{\"shape\":[64,64],\"dtype\":\"float32\"}]}\n"
	"{\"id\":31,\"op\":\"aten::gelu\",\"args\":[{\"shape\":[64,64],\"dtype\":\"float32\"},{\"shape\":[64,64],\"dtype\":\"float32\"}]}\n";
static const char graph_replay_ops[] =
	"{\"format\":\"tlcost-oplog\",\"version\":1}\n"
	"{\"id\":40,\"op\":\"aten::add\",\"args\":[{\"shape\":[64,64],\"dtype\":\"float32\"},{\"shape\":[64,64],\"dtype\":\"float32\"}]}\n";

static int write_session_log(const char *path, const char *ops, tlc_cupti_session *s)
{
	FILE *f = fopen(path, "w");
	int rc;

	if (!f)
		return 1;
	fputs(ops, f);
	rc = tlc_cupti_write_oplog(f, s) == 0 ? 0 : 1;
	if (fclose(f) != 0)
		rc = 1;
	return rc;
}

static int write_graph_logs(const char *capture_path, const char *replay_path)
{
	static buf b;
	tlc_cupti_session *s = NULL;
	const uint32_t launch[3] = { 1002, 1004, 1005 }, op[3] = { 30, 31, 31 };
	int rc = 1;

	b.len = 0;
	add_api(&b, CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_v10000,
	        100, 110, 77, 1001);
	for (int i = 0; i < 3; i++) {
		add_ext(&b, launch[i], op[i], CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0);
		add_runtime(&b, 200 + 100 * (uint64_t)i, 210 + 100 * (uint64_t)i, launch[i]);
	}
	add_api(&b, CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaStreamEndCapture_v10000,
	        500, 510, 77, 1006);
	add_api(&b, CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaGraphInstantiate_v12000,
	        600, 700, 77, 1007);
	if (tlc_cupti_session_new(&s, NULL) != 0 || tlc_cupti_ingest(s, b.data, b.len, 0) != 0)
		goto out;
	for (int i = 0; i < 3; i++)
		if (tlc_cupti__note_graph_node(s, 1, 101 + i, launch[i], -1) != 0)
			goto out;
	for (int i = 0; i < 3; i++)
		if (tlc_cupti__note_graph_node(s, 2, 201 + i, -1, 101 + i) != 0)
			goto out;
	if (tlc_cupti_stop(s) != 0 || write_session_log(capture_path, graph_capture_ops, s) != 0)
		goto out;
	tlc_cupti_session_free(s);
	s = NULL;

	b.len = 0;
	for (uint32_t r = 0; r < 2; r++)
		add_api(&b, CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000,
		        1000 + 20 * (uint64_t)r, 1010 + 20 * (uint64_t)r, 77, 2001 + r);
	add_ext(&b, 2003, 40, CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0);
	add_runtime(&b, 1040, 1050, 2003);
	for (uint32_t r = 0; r < 2; r++) {
		for (uint32_t n = 0; n < 3; n++) {
			uint64_t t = 2000 + 1000 * (uint64_t)(3 * r + n);
			size_t off = b.len;

			add_kernel(&b, "_Z4workPfif", 0, 13, t, t + 1000, 2001 + r);
			SET_GRAPH(&b, CUpti_ActivityKernel10, off, 2, 201 + n);
		}
	}
	add_kernel(&b, "_Z4workPfif", 0, 13, 8000, 9000, 2003);
	if (tlc_cupti_session_new(&s, NULL) == 0 && tlc_cupti_ingest(s, b.data, b.len, 0) == 0 &&
	    tlc_cupti_stop(s) == 0)
		rc = write_session_log(replay_path, graph_replay_ops, s);
out:
	tlc_cupti_session_free(s);
	return rc;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_kind),
		cmocka_unit_test(test_out_of_order),
		cmocka_unit_test(test_nested_pushes),
		cmocka_unit_test(test_orphans),
		cmocka_unit_test(test_external_conflicts_and_kinds),
		cmocka_unit_test(test_driver_fold_and_memcpy_runtime_id),
		cmocka_unit_test(test_known_unused_kind_skipped),
		cmocka_unit_test(test_unknown_kind_makes_partial),
		cmocka_unit_test(test_truncated_buffer),
		cmocka_unit_test(test_empty_buffers),
		cmocka_unit_test(test_dropped_records),
		cmocka_unit_test(test_untimed_records),
		cmocka_unit_test(test_write_oplog),
		cmocka_unit_test(test_join_every_launch_on_its_op),
		cmocka_unit_test(test_join_through_oplog),
		cmocka_unit_test(test_join_orphan_fails_gate),
		cmocka_unit_test(test_graph_ids_on_device_records),
		cmocka_unit_test(test_graph_nodes_oplog),
		cmocka_unit_test(test_graph_nodes_push_eval),
		cmocka_unit_test(test_graph_nodes_from_callbacks),
		cmocka_unit_test(test_graph_nodes_threads),
		cmocka_unit_test(test_graph_nodes_unavailable_when_subscribed),
		cmocka_unit_test(test_summary_older_layout),
		cmocka_unit_test(test_timestamp),
		cmocka_unit_test(test_state_errors),
		cmocka_unit_test(test_unavailable_without_gpu),
		cmocka_unit_test(test_library_not_found),
	};
	tlc_cupti_session *probe = NULL;
	uint8_t none = 0;

	if (argc == 3 && !strcmp(argv[1], "--write-e2e-log"))
		return write_e2e_log(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "--write-graph-logs"))
		return write_graph_logs(argv[2], argv[3]);

	/* Without a loadable libcupti the parsing tests cannot run: skip. */
	if (tlc_cupti_session_new(&probe, NULL) != 0)
		return 1;
	if (tlc_cupti_ingest(probe, &none, 0, 0) != 0) {
		printf("SKIP: %s\n", tlc_cupti_session_error(probe)->message);
		tlc_cupti_session_free(probe);
		return 77;
	}
	tlc_cupti_session_free(probe);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
