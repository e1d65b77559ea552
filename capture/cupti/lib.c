/* Loading libcupti with dlopen: no link-time dependency on CUDA. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#ifndef TLC_CUPTI_LIBDIR
#define TLC_CUPTI_LIBDIR ""
#endif

/* The record structs this module reads are those of the headers it was
 * compiled with; a libcupti of another major release lays them out
 * differently, so it is refused rather than misread. */
#define TLC_CUPTI_MAJOR(v) ((v) / 10000u)

void tlc_cupti__set_unavailable(tlc_cupti_session *s, const char *call, int result,
                                const char *text)
{
	snprintf(s->failed_call, sizeof s->failed_call, "%s", call);
	snprintf(s->message, sizeof s->message, "%s", text && *text ? text : "(no text)");
	s->status = TLC_CUPTI_UNAVAILABLE;
	s->sum.status = TLC_CUPTI_UNAVAILABLE;
	s->sum.failed_call = s->failed_call;
	s->sum.cupti_result = result;
	s->sum.message = s->message;
}

const char *tlc_cupti__result_text(const tlc_cupti_session *s, CUptiResult r)
{
	const char *text = NULL;

	if (!s->fns.result_string || s->fns.result_string(r, &text) != CUPTI_SUCCESS || !text)
		return "CUPTI gave no text for this result";
	return text;
}

/* dlsym returns an object pointer; copying it into a function pointer of
 * the same size is how POSIX intends it to be used. */
static int resolve(void *handle, const char *name, void *fnptr, size_t size)
{
	void *sym = dlsym(handle, name);

	if (!sym || size != sizeof sym)
		return -1;
	memcpy(fnptr, &sym, sizeof sym);
	return 0;
}

#define RESOLVE(s, field, name) \
	resolve((s)->fns.handle, name, &(s)->fns.field, sizeof (s)->fns.field)

static int resolve_all(tlc_cupti_session *s, const char **missing)
{
	static const char *const names[] = {
		"cuptiGetVersion", "cuptiGetResultString", "cuptiGetCallbackName",
		"cuptiActivityEnable", "cuptiActivityDisable",
		"cuptiActivityRegisterCallbacks", "cuptiActivityFlushAll",
		"cuptiActivityGetNextRecord", "cuptiActivityGetNumDroppedRecords",
		"cuptiActivityPushExternalCorrelationId",
		"cuptiActivityPopExternalCorrelationId", "cuptiGetTimestamp",
		"cuptiSetThreadIdType"
	};
	int bad[13];

	bad[0] = RESOLVE(s, get_version, names[0]);
	bad[1] = RESOLVE(s, result_string, names[1]);
	bad[2] = RESOLVE(s, callback_name, names[2]);
	bad[3] = RESOLVE(s, enable, names[3]);
	bad[4] = RESOLVE(s, disable, names[4]);
	bad[5] = RESOLVE(s, register_callbacks, names[5]);
	bad[6] = RESOLVE(s, flush_all, names[6]);
	bad[7] = RESOLVE(s, next_record, names[7]);
	bad[8] = RESOLVE(s, dropped, names[8]);
	bad[9] = RESOLVE(s, push_external, names[9]);
	bad[10] = RESOLVE(s, pop_external, names[10]);
	bad[11] = RESOLVE(s, get_timestamp, names[11]);
	bad[12] = RESOLVE(s, set_thread_id_type, names[12]);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		if (bad[i]) {
			*missing = names[i];
			return -1;
		}
	}
	return 0;
}

/* The callback API for graph node records: a libcupti without it keeps
 * the session (graph nodes are then unavailable, with the missing name). */
static void resolve_graph(tlc_cupti_session *s)
{
	static const char *const names[] = {
		"cuptiSubscribe", "cuptiUnsubscribe", "cuptiEnableCallback", "cuptiEnableDomain",
		"cuptiGetGraphNodeId", "cuptiGetGraphId"
	};
	int bad[6];

	bad[0] = RESOLVE(s, subscribe, names[0]);
	bad[1] = RESOLVE(s, unsubscribe, names[1]);
	bad[2] = RESOLVE(s, enable_callback, names[2]);
	bad[3] = RESOLVE(s, enable_domain, names[3]);
	bad[4] = RESOLVE(s, graph_node_id, names[4]);
	bad[5] = RESOLVE(s, graph_id, names[5]);
	s->fns.graph_missing = NULL;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0] && !s->fns.graph_missing; i++)
		if (bad[i])
			s->fns.graph_missing = names[i];
}

/* Opens the first candidate library; an explicit path is the only one. */
static void *open_library(tlc_cupti_session *s, char *why, size_t whylen)
{
	const char *env = getenv("TLCOST_CUPTI_LIBRARY");
	const char *explicit_path = s->opts.library_path ? s->opts.library_path
	                            : (env && *env ? env : NULL);
	char configured[512];
	const char *cands[3];
	size_t n = 0;
	void *h = NULL;

	if (explicit_path) {
		cands[n++] = explicit_path;
	} else {
		if (TLC_CUPTI_LIBDIR[0]) {
			snprintf(configured, sizeof configured, "%s/libcupti.so", TLC_CUPTI_LIBDIR);
			cands[n++] = configured;
		}
		cands[n++] = "libcupti.so";
	}
	for (size_t i = 0; i < n && !h; i++) {
		h = dlopen(cands[i], RTLD_NOW | RTLD_LOCAL);
		if (!h) {
			const char *e = dlerror();
			snprintf(why, whylen, "%s", e ? e : cands[i]);
		}
	}
	return h;
}

static int check_version(tlc_cupti_session *s)
{
	uint32_t v = 0;
	CUptiResult r = s->fns.get_version(&v);
	char text[200];

	if (r != CUPTI_SUCCESS) {
		tlc_cupti__set_unavailable(s, "cuptiGetVersion", (int)r,
		                           tlc_cupti__result_text(s, r));
		return -1;
	}
	if (TLC_CUPTI_MAJOR(v) != TLC_CUPTI_MAJOR((uint32_t)CUPTI_API_VERSION)) {
		snprintf(text, sizeof text,
		         "libcupti API version %u is not of the release this module was built for (%u)",
		         (unsigned)v, (unsigned)CUPTI_API_VERSION);
		tlc_cupti__set_unavailable(s, "cuptiGetVersion", (int)r, text);
		return -1;
	}
	return 0;
}

/* Loads libcupti once per session. On failure the session is UNAVAILABLE
 * and TLC_EUNAVAILABLE is returned with the loader's or CUPTI's text. */
int tlc_cupti__load(tlc_cupti_session *s)
{
	char why[512] = "";
	const char *missing = NULL;

	if (s->loaded)
		return 0;
	s->fns.handle = open_library(s, why, sizeof why);
	if (!s->fns.handle) {
		tlc_cupti__set_unavailable(s, "dlopen", -1, why);
	} else if (resolve_all(s, &missing) != 0) {
		snprintf(why, sizeof why, "libcupti lacks %s", missing);
		tlc_cupti__set_unavailable(s, "dlsym", -1, why);
	} else if (check_version(s) == 0) {
		resolve_graph(s);
		s->loaded = 1;
		return 0;
	}
	tlc_cupti__unload(s);
	return tlc_cupti__fail(s, TLC_EUNAVAILABLE, "cupti_unavailable",
	                       "install the CUDA toolkit's CUPTI (libcupti.so) and point "
	                       "TLCOST_CUPTI_LIBRARY at it",
	                       "CUPTI is unavailable: %s failed: %s", s->failed_call, s->message);
}

/* libcupti is never dlclosed: once its callbacks are registered it runs
 * threads that call into this module, and each fresh load of it leaks what
 * its constructor allocates. A later dlopen of the same path only bumps the
 * loader's reference count. */
void tlc_cupti__unload(tlc_cupti_session *s)
{
	memset(&s->fns, 0, sizeof s->fns);
	s->loaded = 0;
}
