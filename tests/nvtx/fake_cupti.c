/* A stand-in libcupti for tests without a GPU (tlc_cupti_options.
 * library_path names it): every call libtlcost-cupti resolves, with
 * per-thread external-correlation stacks that behave as CUPTI documents
 * (push, pop returning the innermost id, CUPTI_ERROR_QUEUE_EMPTY on an
 * empty stack), activity kinds that enable, and no activity records at
 * all. It lets tests drive a RUNNING session (named ops, nesting errors,
 * ops left open at stop, the busy check) where the real libcupti refuses
 * to record. tlc_test_fake_cupti_depth() tells how many ids the calling
 * thread still has pushed. */
#include <string.h>
#include <time.h>

#include <cupti.h>

#define DEPTH 256

static _Thread_local uint64_t stack[DEPTH];
static _Thread_local size_t depth;

size_t tlc_test_fake_cupti_depth(void);

size_t tlc_test_fake_cupti_depth(void)
{
	return depth;
}

CUptiResult CUPTIAPI cuptiGetVersion(uint32_t *version)
{
	*version = CUPTI_API_VERSION;
	return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetResultString(CUptiResult result, const char **str)
{
	*str = result == CUPTI_ERROR_QUEUE_EMPTY ? "CUPTI_ERROR_QUEUE_EMPTY (fake)" : "fake";
	return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetCallbackName(CUpti_CallbackDomain domain, uint32_t cbid,
                                          const char **name)
{
	(void)domain;
	(void)cbid;
	*name = "fakeCall";
	return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityEnable(CUpti_ActivityKind kind)
{
	(void)kind;
	return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityDisable(CUpti_ActivityKind kind)
{
	(void)kind;
	return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityRegisterCallbacks(CUpti_BuffersCallbackRequestFunc req,
                                                    CUpti_BuffersCallbackCompleteFunc done)
{
	(void)req;
	(void)done;
	return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityFlushAll(uint32_t flag)
{
	(void)flag; /* no records, so no buffer to complete */
	return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityGetNextRecord(uint8_t *buffer, size_t valid,
                                                CUpti_Activity **record)
{
	(void)buffer;
	(void)valid;
	(void)record;
	return CUPTI_ERROR_MAX_LIMIT_REACHED;
}

CUptiResult CUPTIAPI cuptiActivityGetNumDroppedRecords(CUcontext ctx, uint32_t stream,
                                                       size_t *dropped)
{
	(void)ctx;
	(void)stream;
	*dropped = 0;
	return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityPushExternalCorrelationId(CUpti_ExternalCorrelationKind kind,
                                                            uint64_t id)
{
	(void)kind;
	if (depth == DEPTH)
		return CUPTI_ERROR_MAX_LIMIT_REACHED;
	stack[depth++] = id;
	return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityPopExternalCorrelationId(CUpti_ExternalCorrelationKind kind,
                                                           uint64_t *last)
{
	(void)kind;
	if (depth == 0)
		return CUPTI_ERROR_QUEUE_EMPTY;
	*last = stack[--depth];
	return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetTimestamp(uint64_t *timestamp)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	*timestamp = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiSetThreadIdType(CUpti_ActivityThreadIdType type)
{
	(void)type;
	return CUPTI_SUCCESS;
}
