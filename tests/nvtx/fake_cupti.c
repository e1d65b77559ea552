/* A stand-in libcupti for tests without a GPU (tlc_cupti_options.
 * library_path names it): every call libtlcost-cupti resolves, with
 * per-thread external-correlation stacks that behave as CUPTI documents
 * (push, pop returning the innermost id, CUPTI_ERROR_QUEUE_EMPTY on an
 * empty stack), activity kinds that enable, and no activity records at
 * all. It lets tests drive a RUNNING session (named ops, nesting errors,
 * ops left open at stop, the busy check) where the real libcupti refuses
 * to record. tlc_test_fake_cupti_depth() tells how many ids the calling
 * thread still has pushed.
 *
 * The callback API as CUPTI documents it for one process: one subscriber
 * at a time (a second cuptiSubscribe gets
 * CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED), callbacks that are
 * delivered only once enabled (cuptiEnableCallback, cuptiEnableDomain),
 * and graph and node handles whose ids (cuptiGetGraphId,
 * cuptiGetGraphNodeId) are their pointer values. A test makes CUDA's
 * calls happen with tlc_test_fake_cupti_api (a runtime or driver call's
 * enter or exit, with its correlation id) and tlc_test_fake_cupti_graph_node
 * (a node created or cloned, on the calling thread);
 * tlc_test_fake_cupti_subscribed() tells whether a subscriber is left. */
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <cupti.h>

#define DEPTH 256

static _Thread_local uint64_t stack[DEPTH];
static _Thread_local size_t depth;

size_t tlc_test_fake_cupti_depth(void);
int tlc_test_fake_cupti_subscribed(void);
int tlc_test_fake_cupti_api(int domain, int site, uint32_t correlation);
int tlc_test_fake_cupti_graph_node(uint32_t cbid, uint32_t graph, uint64_t node,
                                   uint64_t original);

/* the one subscriber, under sub_mu */
static pthread_mutex_t sub_mu = PTHREAD_MUTEX_INITIALIZER;
static struct CUpti_Subscriber_st {
	CUpti_CallbackFunc fn;
	void *userdata;
} sub;
static int subscribed;
static int domain_on[CUPTI_CB_DOMAIN_SIZE];
static int node_created_on, node_cloned_on;

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
	*str = result == CUPTI_ERROR_QUEUE_EMPTY ? "CUPTI_ERROR_QUEUE_EMPTY (fake)"
	     : result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED
	             ? "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED (fake)"
	             : "fake";
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

CUptiResult CUPTIAPI cuptiSubscribe(CUpti_SubscriberHandle *subscriber, CUpti_CallbackFunc callback,
                                    void *userdata)
{
	CUptiResult r = CUPTI_SUCCESS;

	if (!subscriber)
		return CUPTI_ERROR_INVALID_PARAMETER;
	pthread_mutex_lock(&sub_mu);
	if (subscribed) {
		r = CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
	} else {
		subscribed = 1;
		sub.fn = callback;
		sub.userdata = userdata;
		memset(domain_on, 0, sizeof domain_on);
		node_created_on = node_cloned_on = 0;
		*subscriber = &sub;
	}
	pthread_mutex_unlock(&sub_mu);
	return r;
}

CUptiResult CUPTIAPI cuptiUnsubscribe(CUpti_SubscriberHandle subscriber)
{
	CUptiResult r = CUPTI_SUCCESS;

	pthread_mutex_lock(&sub_mu);
	if (!subscribed || subscriber != &sub)
		r = CUPTI_ERROR_INVALID_PARAMETER;
	else
		subscribed = 0;
	pthread_mutex_unlock(&sub_mu);
	return r;
}

CUptiResult CUPTIAPI cuptiEnableCallback(uint32_t enable, CUpti_SubscriberHandle subscriber,
                                         CUpti_CallbackDomain domain, CUpti_CallbackId cbid)
{
	CUptiResult r = CUPTI_SUCCESS;

	pthread_mutex_lock(&sub_mu);
	if (!subscribed || subscriber != &sub || domain != CUPTI_CB_DOMAIN_RESOURCE)
		r = CUPTI_ERROR_INVALID_PARAMETER; /* this fake knows the graph node ones only */
	else if (cbid == CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED)
		node_created_on = enable != 0;
	else if (cbid == CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED)
		node_cloned_on = enable != 0;
	else
		r = CUPTI_ERROR_INVALID_PARAMETER;
	pthread_mutex_unlock(&sub_mu);
	return r;
}

CUptiResult CUPTIAPI cuptiEnableDomain(uint32_t enable, CUpti_SubscriberHandle subscriber,
                                       CUpti_CallbackDomain domain)
{
	CUptiResult r = CUPTI_SUCCESS;

	pthread_mutex_lock(&sub_mu);
	if (!subscribed || subscriber != &sub || domain <= CUPTI_CB_DOMAIN_INVALID ||
	    domain >= CUPTI_CB_DOMAIN_SIZE)
		r = CUPTI_ERROR_INVALID_PARAMETER;
	else
		domain_on[domain] = enable != 0;
	pthread_mutex_unlock(&sub_mu);
	return r;
}

CUptiResult CUPTIAPI cuptiGetGraphNodeId(CUgraphNode node, uint64_t *nodeId)
{
	if (!node || !nodeId)
		return CUPTI_ERROR_INVALID_PARAMETER;
	*nodeId = (uint64_t)(uintptr_t)node;
	return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetGraphId(CUgraph graph, uint32_t *pId)
{
	if (!graph || !pId)
		return CUPTI_ERROR_INVALID_PARAMETER;
	*pId = (uint32_t)(uintptr_t)graph;
	return CUPTI_SUCCESS;
}

int tlc_test_fake_cupti_subscribed(void)
{
	int on;

	pthread_mutex_lock(&sub_mu);
	on = subscribed;
	pthread_mutex_unlock(&sub_mu);
	return on;
}

/* The subscriber's callback when it takes (domain, cbid), else NULL. */
static CUpti_CallbackFunc taken(CUpti_CallbackDomain domain, int on, void **userdata)
{
	CUpti_CallbackFunc fn = NULL;

	pthread_mutex_lock(&sub_mu);
	if (subscribed && (on || domain_on[domain])) {
		fn = sub.fn;
		*userdata = sub.userdata;
	}
	pthread_mutex_unlock(&sub_mu);
	return fn;
}

/* A runtime or driver call's enter (site 0) or exit (1) on this thread.
 * Returns 1 when the subscriber was called. */
int tlc_test_fake_cupti_api(int domain, int site, uint32_t correlation)
{
	CUpti_CallbackData d;
	void *userdata = NULL;
	CUpti_CallbackFunc fn;

	if (domain != CUPTI_CB_DOMAIN_RUNTIME_API && domain != CUPTI_CB_DOMAIN_DRIVER_API)
		return 0;
	fn = taken((CUpti_CallbackDomain)domain, 0, &userdata);
	if (!fn)
		return 0;
	memset(&d, 0, sizeof d);
	d.callbackSite = site == 0 ? CUPTI_API_ENTER : CUPTI_API_EXIT;
	d.functionName = domain == CUPTI_CB_DOMAIN_RUNTIME_API ? "cudaLaunchKernel" : "cuLaunchKernel";
	d.correlationId = correlation;
	fn(userdata, (CUpti_CallbackDomain)domain,
	   domain == CUPTI_CB_DOMAIN_RUNTIME_API ? CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000
	                                         : CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
	   &d);
	return 1;
}

/* Node `node` of graph `graph` created (cbid GRAPHNODE_CREATED) or cloned
 * from `original` (GRAPHNODE_CLONED) on this thread; id 0 stands for a
 * NULL handle. Returns 1 when the subscriber was called. */
int tlc_test_fake_cupti_graph_node(uint32_t cbid, uint32_t graph, uint64_t node,
                                   uint64_t original)
{
	CUpti_GraphData g;
	CUpti_ResourceData r;
	void *userdata = NULL;
	CUpti_CallbackFunc fn;
	int on;

	pthread_mutex_lock(&sub_mu);
	on = cbid == CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED   ? node_created_on
	     : cbid == CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED ? node_cloned_on
	                                                     : 0;
	pthread_mutex_unlock(&sub_mu);
	if (!on || !(fn = taken(CUPTI_CB_DOMAIN_RESOURCE, 1, &userdata)))
		return 0;
	memset(&g, 0, sizeof g);
	memset(&r, 0, sizeof r);
	g.graph = (CUgraph)(uintptr_t)graph;
	g.node = (CUgraphNode)(uintptr_t)node;
	if (cbid == CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED) {
		g.originalGraph = g.graph;
		g.originalNode = (CUgraphNode)(uintptr_t)original;
	}
	r.resourceDescriptor = &g;
	fn(userdata, CUPTI_CB_DOMAIN_RESOURCE, cbid, &r);
	return 1;
}
