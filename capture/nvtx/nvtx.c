/* NVTX range emitter (include/tlcost/nvtx.h): call-identity ranges around
 * captured ops and the capture's own work, through the header-only NVTX3
 * API. Built without the NVTX3 headers (TLC_HAVE_NVTX3 undefined) it still
 * exists, so a caller links it unconditionally, and start refuses. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tlcost/nvtx.h"

#ifdef TLC_HAVE_NVTX3
#define NVTX_AS_SYSTEM_HEADER
#include <nvtx3/nvToolsExt.h>
#if NVTX_VERSION < 3
#error "libtlcost-nvtx needs the NVTX3 headers (nvtx3/nvToolsExt.h, NVTX_VERSION 3)"
#endif
#endif

#define NAME_PREFIX "tlcost::"
#define INTERNAL_PREFIX "tlcost::internal::"
#define NAME_INLINE 256 /* most names fit: longer ones are allocated */

/* One range pushed and not yet popped. NVTX nests ranges per thread, so
 * exits are checked against the innermost open range of their thread. */
typedef struct open_range {
	pthread_t thread;
	const char *what;        /* internal range: its word; NULL for an op */
	int64_t call_id;         /* op range: its call id */
} open_range;

struct tlc_nvtx {
	int started;
	pthread_mutex_t mu;      /* guards open/nopen/capopen */
	open_range *open;
	size_t nopen, capopen;
	tlc_nvtx_error err;
	char err_message[512];
};

static int nvtx_fail(tlc_nvtx *n, int klass, const char *code, const char *remedy,
                const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static int nvtx_fail(tlc_nvtx *n, int klass, const char *code, const char *remedy,
                const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(n->err_message, sizeof n->err_message, fmt, ap);
	va_end(ap);
	n->err.klass = klass;
	n->err.code = code;
	n->err.message = n->err_message;
	n->err.remedy = remedy;
	return klass;
}

#ifdef TLC_HAVE_NVTX3
/* Nothing takes our ranges: one code, one remedy, the cause varies. */
static int no_tool(tlc_nvtx *n, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int no_tool(tlc_nvtx *n, const char *fmt, ...)
{
	char cause[448];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cause, sizeof cause, fmt, ap);
	va_end(ap);
	return nvtx_fail(n, TLC_EUNAVAILABLE, "emit_nvtx_unavailable",
	                 "run the capture under a profiler that injects NVTX (nsys profile "
	                 "--trace=cuda,nvtx, or ncu --nvtx), or set NVTX_INJECTION64_PATH to an "
	                 "NVTX injection library before the process makes its first NVTX call; or "
	                 "capture without NVTX ranges (emit_nvtx off)", "%s", cause);
}
#endif

static void clear_error(tlc_nvtx *n)
{
	n->err_message[0] = '\0';
	n->err.klass = 0;
	n->err.code = "ok";
	n->err.message = n->err_message;
	n->err.remedy = "";
}

int tlc_nvtx_new(tlc_nvtx **out)
{
	tlc_nvtx *n = calloc(1, sizeof *n);

	*out = NULL;
	if (!n)
		return TLC_ENOMEM;
	if (pthread_mutex_init(&n->mu, NULL) != 0) {
		free(n);
		return TLC_ENOMEM;
	}
	clear_error(n);
	*out = n;
	return 0;
}

const tlc_nvtx_error *tlc_nvtx_error_get(const tlc_nvtx *n)
{
	return &n->err;
}

int tlc_nvtx_started(const tlc_nvtx *n)
{
	return n && n->started;
}

/* ------------------------------------------------------------------ */
/* Is anything listening?                                               */
/* ------------------------------------------------------------------ */

#ifdef TLC_HAVE_NVTX3
/* The NVTX3 loader (nvtxDetail/nvtxInit.h) runs once per process on the
 * first NVTX call: it dlopens $NVTX_INJECTION64_PATH and calls its
 * InitializeInjectionNvtx2, which fills the slots of the calls the tool
 * takes; every slot left unfilled is set to NULL and that call becomes a
 * no-op. nvtxInitialize forces that search now; the two slots below being
 * filled is exactly "a tool receives our ranges". */
static int tool_takes_ranges(void)
{
	nvtxInitialize(NULL);
	return NVTX_VERSIONED_IDENTIFIER(nvtxGlobals).nvtxRangePushA_impl_fnptr != NULL &&
	       NVTX_VERSIONED_IDENTIFIER(nvtxGlobals).nvtxRangePop_impl_fnptr != NULL;
}

/* Whether the library the variable names is mapped in this process: NVTX
 * unloads it again when its entry is missing or its init returns 0. */
static int injection_loaded(const char *path)
{
	void *h = dlopen(path, RTLD_LAZY | RTLD_NOLOAD);

	if (!h)
		return 0;
	dlclose(h);
	return 1;
}

static int refuse_no_tool(tlc_nvtx *n)
{
	const char *path = getenv("NVTX_INJECTION64_PATH");

	if (!path || !*path)
		return no_tool(n, "no NVTX tool is attached: NVTX_INJECTION64_PATH is not set, so no "
		            "profiler (nsys, ncu) injected one and NVTX ranges would go nowhere");
	if (!injection_loaded(path))
		return no_tool(n, "no NVTX tool is attached: NVTX_INJECTION64_PATH names '%s', which is "
		            "not loaded (it could not be opened, has no InitializeInjectionNvtx2, "
		            "its init returned 0, or the variable was set after this process's "
		            "first NVTX call)", path);
	return no_tool(n, "the NVTX tool '%s' is attached but does not take nvtxRangePushA and "
	            "nvtxRangePop, so op ranges would go nowhere", path);
}
#endif

int tlc_nvtx_start(tlc_nvtx *n)
{
	if (n->started)
		return nvtx_fail(n, TLC_ESTATE, "nvtx_state", "start an emitter once",
		            "the NVTX emitter is already started");
#ifdef TLC_HAVE_NVTX3
	if (!tool_takes_ranges())
		return refuse_no_tool(n);
	n->started = 1;
	return 0;
#else
	return nvtx_fail(n, TLC_EUNAVAILABLE, "emit_nvtx_unavailable",
	            "install the CUDA toolkit (or the NVTX3 headers) and re-run configure, "
	            "with --with-nvtx=DIR if they are not in a standard prefix; or capture "
	            "without NVTX ranges (emit_nvtx off)",
	            "libtlcost-nvtx was built without the NVTX3 headers (configure found no "
	            "nvtx3/nvToolsExt.h), so it cannot emit NVTX ranges");
#endif
}

/* ------------------------------------------------------------------ */
/* Ranges                                                               */
/* ------------------------------------------------------------------ */

static void push_named(const char *name)
{
#ifdef TLC_HAVE_NVTX3
	nvtxRangePushA(name);
#else
	(void)name;
#endif
}

static void pop_one(void)
{
#ifdef TLC_HAVE_NVTX3
	nvtxRangePop();
#endif
}

static int check_started(tlc_nvtx *n)
{
	if (!n->started)
		return nvtx_fail(n, TLC_ESTATE, "nvtx_state", "call tlc_nvtx_start before the first range",
		            "NVTX range on an emitter that is not started");
	return 0;
}

static int remember(tlc_nvtx *n, const char *what, int64_t call_id)
{
	int rc = 0;

	pthread_mutex_lock(&n->mu);
	if (n->nopen == n->capopen) {
		size_t cap = n->capopen ? 2 * n->capopen : 16;
		open_range *o = realloc(n->open, cap * sizeof *o);

		if (o) {
			n->open = o;
			n->capopen = cap;
		} else {
			rc = TLC_ENOMEM;
		}
	}
	if (rc == 0)
		n->open[n->nopen++] = (open_range){ pthread_self(), what, call_id };
	pthread_mutex_unlock(&n->mu);
	return rc == 0 ? 0 : nvtx_fail(n, TLC_ENOMEM, "out_of_memory", "free memory",
	                          "no memory to track an open NVTX range");
}

/* Pushes prefix + body [+ "#" + call_id]; long names are allocated. */
static int push_range(tlc_nvtx *n, const char *prefix, const char *body, int64_t call_id,
                      int with_id)
{
	char inline_name[NAME_INLINE];
	char *name = inline_name;
	int len = with_id ? snprintf(name, sizeof inline_name, "%s%s#%lld", prefix, body,
	                             (long long)call_id)
	                  : snprintf(name, sizeof inline_name, "%s%s", prefix, body);

	if (len >= (int)sizeof inline_name) {
		name = malloc((size_t)len + 1);
		if (!name)
			return nvtx_fail(n, TLC_ENOMEM, "out_of_memory", "free memory",
			            "no memory for an NVTX range name of %d bytes", len);
		if (with_id)
			snprintf(name, (size_t)len + 1, "%s%s#%lld", prefix, body, (long long)call_id);
		else
			snprintf(name, (size_t)len + 1, "%s%s", prefix, body);
	}
	push_named(name);
	if (name != inline_name)
		free(name);
	return 0;
}

static int enter(tlc_nvtx *n, const char *what, const char *op, int64_t call_id)
{
	int rc = remember(n, what, call_id);

	if (rc != 0)
		return rc;
	rc = what ? push_range(n, INTERNAL_PREFIX, what, 0, 0)
	          : push_range(n, NAME_PREFIX, op, call_id, 1);
	if (rc != 0) {
		pthread_mutex_lock(&n->mu);
		n->nopen--; /* this thread's entry is the last one it added */
		pthread_mutex_unlock(&n->mu);
	}
	return rc;
}

/* Index of the calling thread's innermost open range, or -1. */
static long innermost(const tlc_nvtx *n)
{
	pthread_t self = pthread_self();

	for (size_t i = n->nopen; i-- > 0;)
		if (pthread_equal(n->open[i].thread, self))
			return (long)i;
	return -1;
}

static void describe(char *buf, size_t size, const open_range *o)
{
	if (!o)
		snprintf(buf, size, "nothing");
	else if (o->what)
		snprintf(buf, size, INTERNAL_PREFIX "%s", o->what);
	else
		snprintf(buf, size, "op call %lld", (long long)o->call_id);
}

/* Removes the thread's innermost range when it is the one named, then pops. */
static int leave(tlc_nvtx *n, const char *what, int64_t call_id)
{
	char open_desc[96], want_desc[96];
	open_range want = { pthread_self(), what, call_id };
	int match;
	long i;

	pthread_mutex_lock(&n->mu);
	i = innermost(n);
	match = i >= 0 && (what ? n->open[i].what && !strcmp(n->open[i].what, what)
	                        : !n->open[i].what && n->open[i].call_id == call_id);
	describe(open_desc, sizeof open_desc, i >= 0 ? &n->open[i] : NULL);
	if (match) {
		memmove(&n->open[i], &n->open[i + 1], (n->nopen - (size_t)i - 1) * sizeof *n->open);
		n->nopen--;
	}
	pthread_mutex_unlock(&n->mu);
	if (!match) {
		describe(want_desc, sizeof want_desc, &want);
		return nvtx_fail(n, TLC_EINVAL, "nvtx_op_mismatch",
		            "exit ranges on the thread that entered them, in the reverse order",
		            "NVTX exit of %s, but the innermost range open on this thread is %s",
		            want_desc, open_desc);
	}
	pop_one();
	return 0;
}

int tlc_nvtx_op_enter(tlc_nvtx *n, const char *op, int64_t call_id)
{
	int rc;

	if (!n)
		return 0;
	if ((rc = check_started(n)) != 0)
		return rc;
	if (!op || !*op || call_id < 0)
		return nvtx_fail(n, TLC_EINVAL, "nvtx_op_invalid",
		            "pass the op's name and its call id (its op log id, >= 0)",
		            "NVTX op range with %s and call id %lld",
		            !op ? "no op name" : !*op ? "an empty op name" : "an op name",
		            (long long)call_id);
	return enter(n, NULL, op, call_id);
}

int tlc_nvtx_op_exit(tlc_nvtx *n, int64_t call_id)
{
	int rc;

	if (!n)
		return 0;
	if ((rc = check_started(n)) != 0)
		return rc;
	return leave(n, NULL, call_id);
}

int tlc_nvtx_internal_enter(tlc_nvtx *n, const char *what)
{
	int rc;

	if (!n)
		return 0;
	if ((rc = check_started(n)) != 0)
		return rc;
	if (!what || !*what)
		return nvtx_fail(n, TLC_EINVAL, "nvtx_op_invalid",
		            "name the internal work (a short word such as cupti_flush)",
		            "NVTX internal range without a name");
	return enter(n, what, NULL, 0);
}

int tlc_nvtx_internal_exit(tlc_nvtx *n, const char *what)
{
	int rc;

	if (!n)
		return 0;
	if ((rc = check_started(n)) != 0)
		return rc;
	if (!what || !*what)
		return nvtx_fail(n, TLC_EINVAL, "nvtx_op_invalid",
		            "name the internal work the exit ends", "NVTX internal exit without a name");
	return leave(n, what, 0);
}

void tlc_nvtx_free(tlc_nvtx *n)
{
	if (!n)
		return;
	/* an op that raised never exited: end its ranges rather than leave
	 * them open on the profiler's timeline until the thread ends */
	pthread_mutex_lock(&n->mu);
	for (long i; (i = innermost(n)) >= 0;) {
		memmove(&n->open[i], &n->open[i + 1], (n->nopen - (size_t)i - 1) * sizeof *n->open);
		n->nopen--;
		pop_one();
	}
	pthread_mutex_unlock(&n->mu);
	pthread_mutex_destroy(&n->mu);
	free(n->open);
	free(n);
}
