/* libtlcost-cupti internals shared by its source files (not installed). */
#ifndef TLC_CUPTI_INTERNAL_H
#define TLC_CUPTI_INTERNAL_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include <cupti.h>

#include "tlcost/cupti.h"

/* Every libcupti entry this module uses, resolved with dlsym. */
typedef struct tlc_cupti_fns {
	void *handle;
	CUptiResult (*get_version)(uint32_t *version);
	CUptiResult (*result_string)(CUptiResult result, const char **str);
	CUptiResult (*callback_name)(CUpti_CallbackDomain domain, uint32_t cbid,
	                             const char **name);
	CUptiResult (*enable)(CUpti_ActivityKind kind);
	CUptiResult (*disable)(CUpti_ActivityKind kind);
	CUptiResult (*register_callbacks)(CUpti_BuffersCallbackRequestFunc req,
	                                  CUpti_BuffersCallbackCompleteFunc done);
	CUptiResult (*flush_all)(uint32_t flag);
	CUptiResult (*next_record)(uint8_t *buffer, size_t valid, CUpti_Activity **record);
	CUptiResult (*dropped)(CUcontext ctx, uint32_t stream, size_t *dropped);
	CUptiResult (*push_external)(CUpti_ExternalCorrelationKind kind, uint64_t id);
	CUptiResult (*pop_external)(CUpti_ExternalCorrelationKind kind, uint64_t *last);
	CUptiResult (*get_timestamp)(uint64_t *timestamp);
	CUptiResult (*set_thread_id_type)(CUpti_ActivityThreadIdType type);
	/* the callback API, for graph nodes (graph.c): resolved apart, so a
	 * libcupti without them only costs the graph node records */
	CUptiResult (*subscribe)(CUpti_SubscriberHandle *sub, CUpti_CallbackFunc fn,
	                         void *userdata);
	CUptiResult (*unsubscribe)(CUpti_SubscriberHandle sub);
	CUptiResult (*enable_callback)(uint32_t enable, CUpti_SubscriberHandle sub,
	                               CUpti_CallbackDomain domain, CUpti_CallbackId cbid);
	CUptiResult (*enable_domain)(uint32_t enable, CUpti_SubscriberHandle sub,
	                             CUpti_CallbackDomain domain);
	CUptiResult (*graph_node_id)(CUgraphNode node, uint64_t *id);
	CUptiResult (*graph_id)(CUgraph graph, uint32_t *id);
	const char *graph_missing; /* the first of those libcupti lacks, or NULL */
} tlc_cupti_fns;

/* One kept record as CUPTI gave it (before pairing). */
typedef struct tlc_cupti_raw {
	tlc_device_kind kind;
	uint32_t cbid;          /* runtime/driver function id */
	uint32_t device;        /* device id, or process id for API calls */
	uint32_t stream;
	uint32_t thread;
	uint32_t correlation;
	uint32_t rt_correlation; /* memcpy: runtime correlation id (0 = none) */
	uint32_t graph_id;      /* kernel/memcpy/memset: CUPTI graphId (0 = none) */
	uint64_t graph_node;    /* ... graphNodeId: 0 when not run by a graph launch */
	uint64_t start, end, bytes;
	const char *name;       /* kernel name, interned; NULL otherwise */
} tlc_cupti_raw;

/* One external-correlation record of kind CUSTOM0. */
typedef struct tlc_cupti_ext {
	uint32_t correlation;
	uint64_t external;
} tlc_cupti_ext;

/* An op whose correlation id is on CUPTI's stack of its thread. */
typedef struct tlc_cupti_open {
	pthread_t thread;
	int64_t correlation;
	int named;              /* entered by name: it also holds an NVTX range */
} tlc_cupti_open;

/* String interner: kernel and API names repeat millions of times. */
typedef struct tlc_cupti_intern {
	char **slots;
	size_t cap, count;
} tlc_cupti_intern;

struct tlc_cupti_session {
	tlc_cupti_options opts;
	tlc_cupti_status status;
	tlc_cupti_fns fns;
	int loaded;
	unsigned enabled_mask;     /* which entries of the kind list are on */
	int paused;                /* between tlc_cupti_pause and resume */
	pthread_mutex_t mu;        /* guards everything ingest touches */

	tlc_cupti_raw *raw;
	size_t nraw, capraw;
	tlc_cupti_ext *ext;
	size_t next, capext;
	tlc_cupti_intern names;

	/* ops entered and not exited, so stop can close what an op that
	 * raised past its exit left on CUPTI's per-thread stacks */
	pthread_mutex_t open_mu;
	tlc_cupti_open *open;
	size_t nopen, capopen;
	uint64_t left_open;        /* counted by stop */

	/* CUDA graph nodes (graph.c): noted by the resource callback */
	tlc_graph_node *gnodes;
	size_t ngnodes, capgnodes;
	CUpti_SubscriberHandle subscriber;
	int subscribed;
	uint64_t graph_epoch;      /* tells this session's per-thread call state */
	char graph_unavailable[256]; /* why no graph nodes are recorded, or "" */

	tlc_device_record *out;    /* built by stop */
	size_t nout;
	tlc_cupti_summary sum;     /* counters grow during ingest */

	char failed_call[96];
	char message[512];
	tlc_cupti_error err;
	char err_message[512];
};

/* lib.c */
int tlc_cupti__load(tlc_cupti_session *s);
void tlc_cupti__unload(tlc_cupti_session *s);
const char *tlc_cupti__result_text(const tlc_cupti_session *s, CUptiResult r);
void tlc_cupti__set_unavailable(tlc_cupti_session *s, const char *call, int result,
                                const char *text);

/* error.c */
int tlc_cupti__fail(tlc_cupti_session *s, int klass, const char *code,
                    const char *remedy, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void tlc_cupti__clear_error(tlc_cupti_session *s);

/* intern.c */
const char *tlc_cupti__intern(tlc_cupti_intern *in, const char *str, size_t len);
void tlc_cupti__intern_free(tlc_cupti_intern *in);

/* parse.c: caller holds s->mu */
int tlc_cupti__ingest_locked(tlc_cupti_session *s, uint8_t *buffer, size_t valid);

/* graph.c: graph node records (CUPTI's callback API). Note adds one node
 * under s->mu: created by the call whose correlation id is correlation
 * (original -1), or cloned from node original (correlation -1); both -1
 * counts a node whose origin is unknown (graph_nodes_lost). graph_id -1:
 * unknown. Valid while idle or running. Errors: TLC_EINVAL
 * cupti_graph_node_invalid, TLC_ESTATE cupti_session_state, TLC_ENOMEM. */
int tlc_cupti__note_graph_node(tlc_cupti_session *s, int64_t graph_id, int64_t node,
                               int64_t correlation, int64_t original);
/* Subscribes and enables the callbacks (start, once activity is on); on any
 * failure the session goes on without graph nodes and says why. */
void tlc_cupti__graph_start(tlc_cupti_session *s);
/* Unsubscribes (stop, free). */
void tlc_cupti__graph_stop(tlc_cupti_session *s);

/* build.c: pairs external ids with API calls and fills s->out */
int tlc_cupti__build(tlc_cupti_session *s);

#endif
