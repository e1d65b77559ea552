/* CUDA graph node records through CUPTI's callback API.
 *
 * A graph replay's kernels carry the id of the graph node they ran as
 * (graphNodeId), and that node is a clone, made when the graph was
 * instantiated, of the node that a runtime or driver call created while the
 * stream was captured (or the graph was built). With one record per node
 * made (created by call C, or cloned from node N) a join can follow a
 * replayed kernel back to the call that created its node, and so to the op
 * whose external id that call carries.
 *
 * The resource callback (CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED and _CLONED)
 * fires on the thread of the call that makes the node, inside that call.
 * Which call: the runtime and driver API domains are enabled too, and each
 * thread keeps the correlation id of its outermost runtime call in progress
 * (and of its outermost driver call). A created node belongs to the
 * outermost runtime call in progress on its thread, else to the outermost
 * driver call: a runtime call makes driver calls inside it, and the runtime
 * call's correlation id is the one its launch's records use (the module
 * folds a driver call that shares it; one that does not is the runtime's
 * internal work, so the runtime call's id is the right one either way).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Per-thread: the outermost runtime ([0]) and driver ([1]) call in
 * progress. epoch tells the session whose callbacks set it: a call whose
 * exit a session did not see (it stopped in between) is forgotten by the
 * next session rather than taken for a call in progress. */
typedef struct api_calls {
	uint64_t epoch;
	uint32_t depth[2];
	uint32_t outer[2];
} api_calls;

static _Thread_local api_calls calls;
static _Atomic uint64_t epochs;

static api_calls *calls_of(const tlc_cupti_session *s)
{
	if (calls.epoch != s->graph_epoch) {
		memset(&calls, 0, sizeof calls);
		calls.epoch = s->graph_epoch;
	}
	return &calls;
}

static void on_api(const tlc_cupti_session *s, CUpti_CallbackDomain domain,
                   const CUpti_CallbackData *d)
{
	api_calls *c = calls_of(s);
	int k = domain == CUPTI_CB_DOMAIN_RUNTIME_API ? 0 : 1;

	if (!d)
		return;
	if (d->callbackSite == CUPTI_API_ENTER) {
		if (c->depth[k]++ == 0)
			c->outer[k] = d->correlationId;
	} else if (c->depth[k] > 0) {
		c->depth[k]--;
	}
}

/* The correlation id of the call that is making a node on this thread, or
 * -1 when no runtime or driver call is in progress here. */
static int64_t creating_call(const tlc_cupti_session *s)
{
	const api_calls *c = calls_of(s);

	if (c->depth[0])
		return c->outer[0];
	if (c->depth[1])
		return c->outer[1];
	return -1;
}

static int note_locked(tlc_cupti_session *s, int64_t graph_id, int64_t node,
                       int64_t correlation, int64_t original);

static int64_t node_id(const tlc_cupti_session *s, CUgraphNode node)
{
	uint64_t id = 0;

	if (!node || s->fns.graph_node_id(node, &id) != CUPTI_SUCCESS || id > (uint64_t)INT64_MAX)
		return -1;
	return (int64_t)id;
}

static int64_t graph_id(const tlc_cupti_session *s, CUgraph graph)
{
	uint32_t id = 0;

	if (!graph || s->fns.graph_id(graph, &id) != CUPTI_SUCCESS)
		return -1;
	return id;
}

static void on_graph_node(tlc_cupti_session *s, CUpti_CallbackId cbid,
                          const CUpti_ResourceData *r)
{
	const CUpti_GraphData *g = r ? r->resourceDescriptor : NULL;
	int64_t node = g ? node_id(s, g->node) : -1;
	int64_t from = -1, call = -1;

	if (g && cbid == CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED)
		from = node_id(s, g->originalNode);
	else if (g)
		call = creating_call(s);
	/* A node without id, call or original is counted as lost. The
	 * session's error detail is the application's threads' to read: the
	 * callback, on whichever thread made the node, only counts. */
	pthread_mutex_lock(&s->mu);
	note_locked(s, g ? graph_id(s, g->graph) : -1, node < 0 ? 0 : node, node < 0 ? -1 : call,
	            node < 0 ? -1 : from);
	pthread_mutex_unlock(&s->mu);
}

static void CUPTIAPI on_callback(void *userdata, CUpti_CallbackDomain domain,
                                 CUpti_CallbackId cbid, const void *cbdata)
{
	tlc_cupti_session *s = userdata;

	if (!s)
		return;
	if (domain == CUPTI_CB_DOMAIN_RUNTIME_API || domain == CUPTI_CB_DOMAIN_DRIVER_API)
		on_api(s, domain, cbdata);
	else if (domain == CUPTI_CB_DOMAIN_RESOURCE &&
	         (cbid == CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED ||
	          cbid == CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED))
		on_graph_node(s, cbid, cbdata);
}

/* Adds one node record (s->mu held). Returns 0, or which error: 1 state,
 * 2 arguments, 3 memory; the caller words it. */
static int note_locked(tlc_cupti_session *s, int64_t graph_id, int64_t node,
                       int64_t correlation, int64_t original)
{
	tlc_graph_node *g;

	if (s->status != TLC_CUPTI_IDLE && s->status != TLC_CUPTI_RUNNING)
		return 1;
	if (node < 0 || (correlation >= 0 && original >= 0))
		return 2;
	if (correlation < 0 && original < 0) {
		s->sum.graph_nodes_lost++; /* seen, but where it came from is unknown */
		return 0;
	}
	if (s->ngnodes == s->capgnodes) {
		size_t cap = s->capgnodes ? 2 * s->capgnodes : 64;
		tlc_graph_node *p = realloc(s->gnodes, cap * sizeof *p);

		if (!p) {
			s->sum.graph_nodes_lost++;
			return 3;
		}
		s->gnodes = p;
		s->capgnodes = cap;
	}
	g = &s->gnodes[s->ngnodes++];
	*g = (tlc_graph_node)TLC_GRAPH_NODE_INIT;
	g->graph_id = graph_id < 0 ? -1 : graph_id;
	g->node = node;
	g->correlation = correlation < 0 ? -1 : correlation;
	g->original = original < 0 ? -1 : original;
	s->sum.graph_nodes = s->ngnodes;
	return 0;
}

int tlc_cupti__note_graph_node(tlc_cupti_session *s, int64_t graph_id, int64_t node,
                               int64_t correlation, int64_t original)
{
	int why;

	pthread_mutex_lock(&s->mu);
	why = note_locked(s, graph_id, node, correlation, original);
	pthread_mutex_unlock(&s->mu);
	if (why == 1)
		return tlc_cupti__fail(s, TLC_ESTATE, "cupti_session_state",
		                       "note graph nodes before tlc_cupti_stop",
		                       "graph node noted on a %s session",
		                       tlc_cupti_status_name(s->status));
	if (why == 2)
		return tlc_cupti__fail(s, TLC_EINVAL, "cupti_graph_node_invalid",
		                       "give the node id (>= 0) and at most one of the creating "
		                       "call's correlation id and the original node",
		                       "graph node %lld with correlation %lld and original %lld",
		                       (long long)node, (long long)correlation, (long long)original);
	if (why == 3)
		return tlc_cupti__fail(s, TLC_ENOMEM, "out_of_memory",
		                       "free memory or record fewer ops per session",
		                       "out of memory keeping a CUDA graph node record");
	return 0;
}

static void graph_unavailable(tlc_cupti_session *s, const char *call, const char *text)
{
	snprintf(s->graph_unavailable, sizeof s->graph_unavailable, "%s: %s", call,
	         text && *text ? text : "(no text)");
	s->sum.graph_nodes_unavailable = s->graph_unavailable;
}

void tlc_cupti__graph_start(tlc_cupti_session *s)
{
	static const struct {
		CUpti_CallbackDomain domain;
		CUpti_CallbackId cbid; /* 0: the whole domain */
		const char *call;
	} wanted[] = {
		{ CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED,
		  "cuptiEnableCallback(CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED)" },
		{ CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED,
		  "cuptiEnableCallback(CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED)" },
		{ CUPTI_CB_DOMAIN_RUNTIME_API, 0, "cuptiEnableDomain(CUPTI_CB_DOMAIN_RUNTIME_API)" },
		{ CUPTI_CB_DOMAIN_DRIVER_API, 0, "cuptiEnableDomain(CUPTI_CB_DOMAIN_DRIVER_API)" },
	};
	CUptiResult r;

	if (s->fns.graph_missing) {
		char text[96];

		snprintf(text, sizeof text, "libcupti lacks %s", s->fns.graph_missing);
		graph_unavailable(s, "dlsym", text);
		return;
	}
	s->graph_epoch = ++epochs; /* before any callback can read it */
	r = s->fns.subscribe(&s->subscriber, on_callback, s);
	if (r != CUPTI_SUCCESS) {
		graph_unavailable(s, "cuptiSubscribe", tlc_cupti__result_text(s, r));
		return;
	}
	s->subscribed = 1;
	for (size_t i = 0; i < sizeof wanted / sizeof wanted[0]; i++) {
		r = wanted[i].cbid ? s->fns.enable_callback(1, s->subscriber, wanted[i].domain,
		                                            wanted[i].cbid)
		                   : s->fns.enable_domain(1, s->subscriber, wanted[i].domain);
		if (r != CUPTI_SUCCESS) {
			graph_unavailable(s, wanted[i].call, tlc_cupti__result_text(s, r));
			tlc_cupti__graph_stop(s);
			return;
		}
	}
}

void tlc_cupti__graph_stop(tlc_cupti_session *s)
{
	if (!s->subscribed)
		return;
	s->fns.unsubscribe(s->subscriber);
	s->subscribed = 0;
	s->subscriber = NULL;
}
