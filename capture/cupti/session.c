/* Session lifecycle: start, op enter/exit, stop, and CUPTI's buffer
 * callbacks. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define DEFAULT_BUFFER_SIZE ((size_t)8 << 20)
#define MIN_BUFFER_SIZE ((size_t)64 << 10)
#define RECORD_ALIGN 8 /* ACTIVITY_RECORD_ALIGNMENT of cupti_common.h */

/* CUPTI's activity API is process-wide and its buffer callbacks carry no
 * payload pointer, so the one started session is found through this
 * pointer. With its buffer size below, it is the module's only mutable
 * global state: set by start and cleared by stop, under active_mu. */
static pthread_mutex_t active_mu = PTHREAD_MUTEX_INITIALIZER;
static tlc_cupti_session *active;
/* The started session's buffer size, read without the lock: CUPTI asks for
 * buffers on the launching thread, which must not wait while another
 * thread parses a completed buffer under active_mu. */
static _Atomic size_t active_buffer_size;

static const CUpti_ActivityKind kinds[] = {
	CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION, CUPTI_ACTIVITY_KIND_RUNTIME,
	CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
	CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMSET
};
static const char *const kind_calls[] = {
	"cuptiActivityEnable(CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION)",
	"cuptiActivityEnable(CUPTI_ACTIVITY_KIND_RUNTIME)",
	"cuptiActivityEnable(CUPTI_ACTIVITY_KIND_DRIVER)",
	"cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)",
	"cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY)",
	"cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET)"
};
#define NKINDS (sizeof kinds / sizeof kinds[0])

const char *tlc_cupti_status_name(tlc_cupti_status st)
{
	static const char *const names[] = { "idle", "running", "unavailable",
		                             "empty", "partial", "complete" };

	return (unsigned)st < sizeof names / sizeof names[0] ? names[st] : "invalid";
}

static size_t buffer_size_of(const tlc_cupti_session *s)
{
	size_t n = s && s->opts.buffer_size ? s->opts.buffer_size : DEFAULT_BUFFER_SIZE;

	if (n < MIN_BUFFER_SIZE)
		n = MIN_BUFFER_SIZE;
	return (n + RECORD_ALIGN - 1) / RECORD_ALIGN * RECORD_ALIGN;
}

static void CUPTIAPI on_buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
	size_t n = active_buffer_size;

	if (n == 0)
		n = buffer_size_of(NULL);
	/* On failure CUPTI drops the records and counts them as dropped. */
	*buffer = aligned_alloc(RECORD_ALIGN, n);
	*size = *buffer ? n : 0;
	*max_records = 0;
}

static void CUPTIAPI on_buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer,
                                         size_t size, size_t valid)
{
	(void)size;
	pthread_mutex_lock(&active_mu);
	if (active) {
		size_t dropped = 0;

		if (active->fns.dropped(ctx, stream, &dropped) != CUPTI_SUCCESS)
			dropped = 0;
		if (buffer && tlc_cupti_ingest(active, buffer, valid, dropped) != 0) {
			pthread_mutex_lock(&active->mu);
			active->sum.undecodable++; /* could not keep it: records lost */
			pthread_mutex_unlock(&active->mu);
		}
	}
	pthread_mutex_unlock(&active_mu);
	free(buffer);
}

int tlc_cupti_session_new(tlc_cupti_session **out, const tlc_cupti_options *opts)
{
	tlc_cupti_session *s;

	const size_t oldest = offsetof(tlc_cupti_options, library_path) + sizeof(char *);

	*out = NULL;
	if (opts && (opts->size < oldest || opts->size > sizeof *opts))
		return TLC_EINVAL;
	s = calloc(1, sizeof *s);
	if (!s)
		return TLC_ENOMEM;
	if (opts)
		memcpy(&s->opts, opts, opts->size); /* later fields stay 0: defaults */
	s->opts.size = sizeof s->opts;
	if (s->opts.nvtx && !tlc_nvtx_started(s->opts.nvtx)) {
		free(s); /* an unstarted emitter would fail every op: refuse it here */
		return TLC_EINVAL;
	}
	if (pthread_mutex_init(&s->mu, NULL) != 0) {
		free(s);
		return TLC_ENOMEM;
	}
	if (pthread_mutex_init(&s->open_mu, NULL) != 0) {
		pthread_mutex_destroy(&s->mu);
		free(s);
		return TLC_ENOMEM;
	}
	s->status = TLC_CUPTI_IDLE;
	tlc_cupti__clear_error(s);
	*out = s;
	return 0;
}

static void disable_enabled(tlc_cupti_session *s)
{
	for (size_t i = 0; i < NKINDS; i++)
		if (s->enabled_mask & (1u << i))
			s->fns.disable(kinds[i]);
	s->enabled_mask = 0;
}

/* Enables every kind; on failure *failed is the kind's index. */
static CUptiResult enable_all(tlc_cupti_session *s, size_t *failed)
{
	for (size_t i = 0; i < NKINDS; i++) {
		CUptiResult r = s->fns.enable(kinds[i]);

		if (r != CUPTI_SUCCESS) {
			*failed = i;
			return r;
		}
		s->enabled_mask |= 1u << i;
	}
	return CUPTI_SUCCESS;
}

static void set_active(tlc_cupti_session *s)
{
	pthread_mutex_lock(&active_mu);
	active = s;
	pthread_mutex_unlock(&active_mu);
}

static int unavailable_from(tlc_cupti_session *s, const char *call, CUptiResult r)
{
	disable_enabled(s);
	set_active(NULL);
	tlc_cupti__set_unavailable(s, call, (int)r, tlc_cupti__result_text(s, r));
	return tlc_cupti__fail(s, TLC_EUNAVAILABLE, "cupti_unavailable",
	                       "run on a machine with an NVIDIA GPU and driver; if the text says "
	                       "INSUFFICIENT_PRIVILEGES, allow profiling for non-admin users "
	                       "(NVreg_RestrictProfilingToAdminUsers=0) or run with admin rights",
	                       "CUPTI cannot record: %s returned %s", call, s->message);
}

static int claim_active(tlc_cupti_session *s)
{
	int busy;

	pthread_mutex_lock(&active_mu);
	busy = active != NULL;
	if (!busy) {
		active = s;
		active_buffer_size = buffer_size_of(s);
	}
	pthread_mutex_unlock(&active_mu);
	return busy ? -1 : 0;
}

int tlc_cupti_start(tlc_cupti_session *s)
{
	size_t failed = 0;
	CUptiResult r;
	int rc;

	if (s->status != TLC_CUPTI_IDLE)
		return tlc_cupti__fail(s, TLC_ESTATE, "cupti_session_state",
		                       "create a new session for each capture",
		                       "session is %s, start needs an idle session",
		                       tlc_cupti_status_name(s->status));
	pthread_mutex_lock(&s->mu);
	rc = tlc_cupti__load(s);
	pthread_mutex_unlock(&s->mu);
	if (rc != 0)
		return rc;
	if (claim_active(s) != 0)
		return tlc_cupti__fail(s, TLC_ESTATE, "cupti_session_busy",
		                       "stop the other session of this process first",
		                       "another CUPTI session of this process is running");
	/* gettid() thread ids, which capture libraries write as an op's thread;
	 * where unsupported CUPTI keeps pthread_self() ids (containment only) */
	s->fns.set_thread_id_type(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM);
	r = s->fns.register_callbacks(on_buffer_requested, on_buffer_completed);
	if (r != CUPTI_SUCCESS)
		return unavailable_from(s, "cuptiActivityRegisterCallbacks", r);
	r = enable_all(s, &failed);
	if (r != CUPTI_SUCCESS)
		return unavailable_from(s, kind_calls[failed], r);
	s->status = TLC_CUPTI_RUNNING; /* before the callbacks can note a node */
	/* graph nodes (graph.c): a refusal costs only them, never the session */
	tlc_cupti__graph_start(s);
	return 0;
}

int tlc_cupti_pause(tlc_cupti_session *s)
{
	if (s->status == TLC_CUPTI_UNAVAILABLE)
		return 0;
	if (s->status != TLC_CUPTI_RUNNING || s->paused)
		return tlc_cupti__fail(s, TLC_ESTATE, "cupti_session_state",
		                       "pause a running, unpaused session",
		                       "pause on a %s%s session", s->paused ? "paused " : "",
		                       tlc_cupti_status_name(s->status));
	disable_enabled(s);
	s->paused = 1;
	s->sum.paused_regions++;
	return 0;
}

int tlc_cupti_resume(tlc_cupti_session *s)
{
	size_t failed = 0;
	CUptiResult r;

	if (s->status == TLC_CUPTI_UNAVAILABLE)
		return 0;
	if (s->status != TLC_CUPTI_RUNNING || !s->paused)
		return tlc_cupti__fail(s, TLC_ESTATE, "cupti_session_state",
		                       "resume a paused session", "resume on a %s session that is "
		                       "not paused", tlc_cupti_status_name(s->status));
	r = enable_all(s, &failed);
	if (r != CUPTI_SUCCESS) {
		disable_enabled(s); /* stays paused: the region goes on */
		return tlc_cupti__fail(s, TLC_ERROR, "cupti_call_failed",
		                       "stop the session; what it recorded so far is kept",
		                       "%s returned %s", kind_calls[failed],
		                       tlc_cupti__result_text(s, r));
	}
	s->paused = 0;
	return 0;
}

static int check_op(tlc_cupti_session *s, int64_t correlation)
{
	if (s->status != TLC_CUPTI_RUNNING && s->status != TLC_CUPTI_UNAVAILABLE)
		return tlc_cupti__fail(s, TLC_ESTATE, "cupti_session_state",
		                       "call tlc_cupti_start before the first op",
		                       "op enter/exit on a %s session",
		                       tlc_cupti_status_name(s->status));
	if (correlation < 0)
		return tlc_cupti__fail(s, TLC_EINVAL, "cupti_op_invalid",
		                       "pass the op's correlation id (its op log id by default)",
		                       "op correlation %lld is negative", (long long)correlation);
	return 0;
}

/* Room for one more open op, taken before CUPTI's push so that a push is
 * never left untracked. */
static int reserve_open(tlc_cupti_session *s)
{
	int ok = 1;

	pthread_mutex_lock(&s->open_mu);
	if (s->nopen == s->capopen) {
		size_t cap = s->capopen ? 2 * s->capopen : 16;
		tlc_cupti_open *o = realloc(s->open, cap * sizeof *o);

		ok = o != NULL;
		if (ok) {
			s->open = o;
			s->capopen = cap;
		}
	}
	pthread_mutex_unlock(&s->open_mu);
	return ok ? 0 : tlc_cupti__fail(s, TLC_ENOMEM, "out_of_memory", "free memory",
	                                "no memory to track an open op");
}

static void track_open(tlc_cupti_session *s, int64_t correlation, int named)
{
	pthread_mutex_lock(&s->open_mu);
	s->open[s->nopen++] = (tlc_cupti_open){ pthread_self(), correlation, named };
	pthread_mutex_unlock(&s->open_mu);
}

/* Index of the calling thread's innermost open op, or -1 (open_mu held). */
static long innermost_open(const tlc_cupti_session *s)
{
	pthread_t self = pthread_self();

	for (size_t i = s->nopen; i-- > 0;)
		if (pthread_equal(s->open[i].thread, self))
			return (long)i;
	return -1;
}

static void drop_open(tlc_cupti_session *s, long i)
{
	memmove(&s->open[i], &s->open[i + 1], (s->nopen - (size_t)i - 1) * sizeof *s->open);
	s->nopen--;
}

static void untrack_open(tlc_cupti_session *s)
{
	long i;

	pthread_mutex_lock(&s->open_mu);
	if ((i = innermost_open(s)) >= 0)
		drop_open(s, i);
	pthread_mutex_unlock(&s->open_mu);
}

/* At stop (or free): an op that raised past its exit left its id on its
 * thread's CUPTI stack, where it would tag the calls of a later session.
 * Those of the calling thread are popped (and their NVTX ranges ended),
 * innermost first; other threads' stacks cannot be reached from here. All
 * are counted. */
static void close_left_open(tlc_cupti_session *s)
{
	uint64_t last;
	long i;

	pthread_mutex_lock(&s->open_mu);
	s->left_open += s->nopen;
	while ((i = innermost_open(s)) >= 0) {
		s->fns.pop_external(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, &last);
		if (s->open[i].named)
			tlc_nvtx_op_exit(s->opts.nvtx, s->open[i].correlation);
		drop_open(s, i);
	}
	s->nopen = 0;
	pthread_mutex_unlock(&s->open_mu);
}

uint64_t tlc_cupti_ops_left_open(const tlc_cupti_session *s)
{
	return s->left_open;
}

static int enter_as(tlc_cupti_session *s, int64_t correlation, int named)
{
	CUptiResult r;
	int rc = check_op(s, correlation);

	if (rc != 0 || s->status == TLC_CUPTI_UNAVAILABLE)
		return rc;
	if ((rc = reserve_open(s)) != 0)
		return rc;
	r = s->fns.push_external(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, (uint64_t)correlation);
	if (r != CUPTI_SUCCESS)
		return tlc_cupti__fail(s, TLC_ERROR, "cupti_call_failed",
		                       "check that no other tool drives CUPTI in this process",
		                       "cuptiActivityPushExternalCorrelationId returned %s",
		                       tlc_cupti__result_text(s, r));
	track_open(s, correlation, named);
	return 0;
}

int tlc_cupti_op_enter(tlc_cupti_session *s, int64_t correlation)
{
	return enter_as(s, correlation, 0);
}

int tlc_cupti_op_exit(tlc_cupti_session *s, int64_t correlation)
{
	uint64_t last = 0;
	CUptiResult r;
	int rc = check_op(s, correlation);

	if (rc != 0 || s->status == TLC_CUPTI_UNAVAILABLE)
		return rc;
	r = s->fns.pop_external(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, &last);
	if (r != CUPTI_SUCCESS)
		return tlc_cupti__fail(s, TLC_ERROR, "cupti_call_failed",
		                       "call op exit once per op enter, on the same thread",
		                       "cuptiActivityPopExternalCorrelationId returned %s",
		                       tlc_cupti__result_text(s, r));
	untrack_open(s); /* CUPTI popped this thread's innermost, whichever it was */
	if (last != (uint64_t)correlation)
		return tlc_cupti__fail(s, TLC_EINVAL, "cupti_op_mismatch",
		                       "exit ops in the reverse order they were entered",
		                       "op exit %lld popped op %llu: enter/exit are not nested",
		                       (long long)correlation, (unsigned long long)last);
	return 0;
}

/* Takes over the NVTX emitter's detail of its failing call rc. */
static int nvtx_failed(tlc_cupti_session *s, int rc)
{
	const tlc_nvtx_error *e = tlc_nvtx_error_get(s->opts.nvtx);

	return tlc_cupti__fail(s, rc, e->code, e->remedy, "%s", e->message);
}

int tlc_cupti_op_enter_named(tlc_cupti_session *s, int64_t correlation, const char *op)
{
	int rc = check_op(s, correlation);

	if (rc != 0)
		return rc;
	if (!op || !*op)
		return tlc_cupti__fail(s, TLC_EINVAL, "cupti_op_invalid",
		                       "pass the op's name as the log writes it (\"aten::mm\")",
		                       "named op enter %lld with %s", (long long)correlation,
		                       op ? "an empty op name" : "no op name");
	rc = tlc_nvtx_op_enter(s->opts.nvtx, op, correlation);
	if (rc != 0)
		return nvtx_failed(s, rc);
	rc = enter_as(s, correlation, 1);
	if (rc != 0)
		tlc_nvtx_op_exit(s->opts.nvtx, correlation); /* leave neither pushed */
	return rc;
}

int tlc_cupti_op_exit_named(tlc_cupti_session *s, int64_t correlation)
{
	int rc = tlc_cupti_op_exit(s, correlation);
	/* popped even when the CUPTI side failed, so the timeline stays nested */
	int nrc = tlc_nvtx_op_exit(s->opts.nvtx, correlation);

	return rc == 0 && nrc != 0 ? nvtx_failed(s, nrc) : rc;
}

int tlc_cupti_timestamp(int64_t *out, tlc_cupti_session *s)
{
	uint64_t t = 0;
	CUptiResult r;
	int rc;

	*out = -1;
	if (s->status == TLC_CUPTI_UNAVAILABLE)
		return tlc_cupti__fail(s, TLC_EUNAVAILABLE, "cupti_unavailable",
		                       "stamp ops with your own clock; device time is unavailable",
		                       "CUPTI is unavailable (%s: %s)", s->failed_call, s->message);
	pthread_mutex_lock(&s->mu);
	rc = tlc_cupti__load(s);
	pthread_mutex_unlock(&s->mu);
	if (rc != 0)
		return rc;
	r = s->fns.get_timestamp(&t);
	if (r != CUPTI_SUCCESS || t > (uint64_t)INT64_MAX)
		return tlc_cupti__fail(s, TLC_ERROR, "cupti_call_failed",
		                       "stamp ops with your own clock",
		                       "cuptiGetTimestamp returned %s", tlc_cupti__result_text(s, r));
	*out = (int64_t)t;
	return 0;
}

int tlc_cupti_ingest(tlc_cupti_session *s, uint8_t *buffer, size_t valid_size,
                     uint64_t dropped)
{
	int rc, nvtx;

	if (s->status != TLC_CUPTI_IDLE && s->status != TLC_CUPTI_RUNNING)
		return tlc_cupti__fail(s, TLC_ESTATE, "cupti_session_state",
		                       "ingest buffers before tlc_cupti_stop",
		                       "ingest on a %s session", tlc_cupti_status_name(s->status));
	if (!buffer && valid_size)
		return tlc_cupti__fail(s, TLC_EINVAL, "cupti_buffer_invalid",
		                       "pass the buffer CUPTI completed", "NULL buffer of %zu bytes",
		                       valid_size);
	nvtx = tlc_nvtx_internal_enter(s->opts.nvtx, "cupti_buffer");
	pthread_mutex_lock(&s->mu);
	rc = tlc_cupti__load(s);
	if (rc == 0) {
		s->sum.dropped += dropped;
		rc = tlc_cupti__ingest_locked(s, buffer, valid_size);
	}
	pthread_mutex_unlock(&s->mu);
	if (nvtx == 0)
		tlc_nvtx_internal_exit(s->opts.nvtx, "cupti_buffer");
	return rc;
}

/* Hands every pending buffer to on_buffer_completed and turns recording off. */
static void drain(tlc_cupti_session *s)
{
	size_t dropped = 0;
	int nvtx = tlc_nvtx_internal_enter(s->opts.nvtx, "cupti_flush");

	tlc_cupti__graph_stop(s); /* no graph node is noted after this */
	s->fns.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
	disable_enabled(s);
	s->fns.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
	/* records dropped outside any context */
	if (s->fns.dropped(NULL, 0, &dropped) == CUPTI_SUCCESS)
		s->sum.dropped += dropped;
	set_active(NULL);
	if (nvtx == 0)
		tlc_nvtx_internal_exit(s->opts.nvtx, "cupti_flush");
}

static tlc_cupti_status final_status(const tlc_cupti_summary *sum, size_t nout)
{
	if (sum->dropped || sum->undecodable || sum->untimed || sum->paused_regions)
		return TLC_CUPTI_PARTIAL;
	return nout ? TLC_CUPTI_COMPLETE : TLC_CUPTI_EMPTY;
}

int tlc_cupti_stop(tlc_cupti_session *s)
{
	int rc, nvtx;

	if (s->status == TLC_CUPTI_UNAVAILABLE)
		return 0;
	if (s->status != TLC_CUPTI_IDLE && s->status != TLC_CUPTI_RUNNING)
		return tlc_cupti__fail(s, TLC_ESTATE, "cupti_session_state",
		                       "stop a session once", "session is already stopped (%s)",
		                       tlc_cupti_status_name(s->status));
	if (s->status == TLC_CUPTI_RUNNING) {
		close_left_open(s);
		drain(s);
	}
	nvtx = tlc_nvtx_internal_enter(s->opts.nvtx, "cupti_build");
	pthread_mutex_lock(&s->mu);
	rc = tlc_cupti__build(s);
	if (rc == 0) {
		s->status = final_status(&s->sum, s->nout);
		s->sum.status = s->status;
		s->sum.lower_bound = s->status == TLC_CUPTI_PARTIAL;
	}
	pthread_mutex_unlock(&s->mu);
	if (nvtx == 0)
		tlc_nvtx_internal_exit(s->opts.nvtx, "cupti_build");
	return rc;
}

int tlc_cupti_get_summary(tlc_cupti_summary *out, const tlc_cupti_session *s)
{
	if (!out || out->size < offsetof(tlc_cupti_summary, paused_regions) + sizeof out->paused_regions)
		return TLC_EINVAL;
	if (s->status == TLC_CUPTI_IDLE || s->status == TLC_CUPTI_RUNNING)
		return TLC_ESTATE;
	/* fill only what the caller's (possibly older, shorter) struct holds */
	uint32_t size = out->size;
	memcpy(out, &s->sum, size < sizeof s->sum ? size : sizeof s->sum);
	out->size = size;
	return 0;
}

size_t tlc_cupti_record_count(const tlc_cupti_session *s)
{
	return s->status == TLC_CUPTI_IDLE || s->status == TLC_CUPTI_RUNNING ? 0 : s->nout;
}

const tlc_device_record *tlc_cupti_record_at(const tlc_cupti_session *s, size_t i)
{
	return i < tlc_cupti_record_count(s) ? &s->out[i] : NULL;
}

void tlc_cupti_session_free(tlc_cupti_session *s)
{
	if (!s)
		return;
	if (s->status == TLC_CUPTI_RUNNING) {
		close_left_open(s);
		drain(s);
	}
	tlc_cupti__unload(s);
	pthread_mutex_destroy(&s->mu);
	pthread_mutex_destroy(&s->open_mu);
	free(s->open);
	tlc_cupti__intern_free(&s->names);
	free(s->raw);
	free(s->ext);
	free(s->gnodes);
	free(s->out);
	free(s);
}
