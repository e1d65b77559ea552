/* Capture pairing (docs/cost-contract.md, "Capture pairing"; docs/join.md):
 * a graph replay's launches attributed through the trace of the graphs'
 * capture. Each replay graph launch's launch sequence (kernel names,
 * memcpy, memset, by device start) must equal exactly one captured graph's
 * launch sequence (the runtime launches between a StreamBeginCapture and
 * its StreamEndCapture on one thread, named by the kernel the runtime
 * recorded at capture, args.kernel). Then that capture window's ops are
 * added to the replay's evaluation, once per matched launch with fresh ids,
 * and the eval carries, per replayed launch, the added op that launched it
 * during capture (tlc_eval__set_pairing); the join reads it. A verified
 * sequence match, never a name match of single kernels. On CUDA, whose
 * runtime records no kernel name at capture, a capture written by a CUPTI
 * collector names each launch by the graph node it made (graph_node
 * records), and a replayed record by the node its graph node was cloned
 * from: tokens are then node ids, compared in node order (node_order).
 *
 * Cost: every capture trace is read twice (its ops and device records by
 * the trace reader, once to find the windows and once to hand their ops to
 * the replay), plus one scan of its runtime events' kernel names; the rest
 * is sorting and binary search: O(n log n) in the records. Matching
 * compares each replay graph launch with each captured graph by (count,
 * hash) first: launches x graphs, not events x events. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yajl/yajl_parse.h>
#include <yajl/yajl_tree.h>
#include "eval.h"
#include "rows.h"
#include "idmap.h"
#include "instream.h"

/* Ids of the added ops: base + instance * stride + capture op id. */
#define PAIR_ID_BASE ((int64_t)1 << 44)

static const char TOK_MEMCPY[] = "<memcpy>";
static const char TOK_MEMSET[] = "<memset>";

typedef struct kname {
	int64_t corr;
	char *name;
} kname;

typedef struct token {
	const char *name; /* kernel name (a capture file's knames, or TOK_*) */
	int64_t op_id;    /* capture op that launched it, -1 when none */
	int64_t node;     /* CUDA graph node it made, -1 when none */
} token;

typedef struct graph {
	size_t file;
	int64_t thread, lo, hi; /* the window: BeginCapture's end .. EndCapture's start */
	size_t tok0, ntok;
	uint64_t hash;
	size_t ninst, inst0;    /* replay launches matched to it, their first instance */
} graph;

typedef struct capfile {
	char *path;
	kname *kn;
	size_t nkn, kncap;
	size_t g0, ng;          /* its graphs in the graph array (sorted by thread, lo) */
	tlc_idmap launcher;     /* capture op id named by a token -> graph index + 1 */
	tlc_idmap created;      /* CUDA: call correlation -> graph node it created */
} capfile;

typedef struct pctx {
	tlc_eval *ev;
	const tlc_allocator *a;
	const tlc_input_limits *lim;
	capfile *files;
	size_t nfiles, filecap;
	graph *graphs;
	size_t ngraphs, graphcap;
	token *toks;
	size_t ntoks, tokcap;
	int64_t stride;
	size_t ninst;
	tlc_capture_pair_summary sum;
	/* injection */
	size_t cur_file;
	tlc_idmap added;        /* capture op id -> 1 (this file) */
	int err;                /* first error of the on_op callback */
	/* CUDA graph nodes (docs/join.md, "Capture pairing", CUDA) */
	tlc_idmap origin;       /* cloned node -> the node it was cloned from */
	tlc_idmap node_tok;     /* node -> its token string "graph node N" */
	char **strs;            /* the token strings, owned */
	size_t nstrs, strcap;
	int used_nodes;         /* a token named a node */
} pctx;

static int oom(void) { return tlc_error__oom(); }

static int grow(pctx *c, void **v, size_t *cap, size_t need, size_t sz)
{
	return tlc_alloc__grow(c->a, v, cap, need, sz) < 0 ? oom() : 0;
}

/* ---------------------------------------------------------------- */
/* execution_details.json                                            */
/* ---------------------------------------------------------------- */

static int is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static char *join_path(const tlc_allocator *a, const char *dir, const char *name)
{
	size_t nd = strlen(dir), nn = strlen(name);
	char *s = tlc_alloc__malloc(a, nd + nn + 2);
	if (!s)
		return NULL;
	memcpy(s, dir, nd);
	size_t k = nd;
	if (k && s[k - 1] != '/')
		s[k++] = '/';
	memcpy(s + k, name, nn + 1);
	return s;
}

static int add_file(pctx *c, char *path)
{
	if (!path)
		return oom();
	if (grow(c, (void **)&c->files, &c->filecap, c->nfiles + 1, sizeof *c->files) < 0) {
		tlc_alloc__free(c->a, path);
		return TLC_ENOMEM;
	}
	capfile *f = &c->files[c->nfiles++];
	memset(f, 0, sizeof *f);
	f->path = path;
	tlc_idmap__init(&f->launcher, c->a, sizeof(size_t));
	tlc_idmap__init(&f->created, c->a, sizeof(int64_t));
	return 0;
}

/* Reads a whole (small) file into a NUL-terminated buffer. */
static int slurp(pctx *c, const char *path, char **out, size_t *len)
{
	tlc_instream *in;
	int rc = tlc_instream__open_file(&in, c->a, path);
	if (rc < 0)
		return rc;
	tlc_instream__set_limits(in, c->lim);
	char *buf = NULL;
	size_t n = 0, cap = 0;
	const unsigned char *p;
	size_t k;
	while ((rc = tlc_instream__read(in, &p, &k)) == 0 && k > 0) {
		if (grow(c, (void **)&buf, &cap, n + k + 1, 1) < 0) {
			rc = TLC_ENOMEM;
			break;
		}
		memcpy(buf + n, p, k);
		n += k;
	}
	tlc_instream__close(in);
	if (rc < 0) {
		tlc_alloc__free(c->a, buf);
		return rc;
	}
	if (!buf && !(buf = tlc_alloc__malloc(c->a, 1)))
		return oom();
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}

static void line_col(const char *s, size_t off, uint64_t *line, uint64_t *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < off && s[i]; i++) {
		if (s[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

#define DETAILS_REMEDY \
	"write execution_details.json as TraceLens does: a JSON list of objects, each " \
	"{\"file\": CAPTURE_TRACE, \"batch_size\": INTEGER, \"mode\": \"FULL\" or \"PIECEWISE\"}, " \
	"the files beside it; or pass the capture traces themselves to --capture"

static int details_bad(const char *path, const char *text, size_t off, size_t entry,
                       const char *what)
{
	uint64_t line = 0, col = 0;
	if (text)
		line_col(text, off, &line, &col);
	if (entry == (size_t)-1)
		return tlc_error__set_pos(TLC_EINPUT, "capture_details_invalid", path, line, col,
		                          DETAILS_REMEDY, "execution_details.json: %s", what);
	return tlc_error__set_pos(TLC_EINPUT, "capture_details_invalid", path, line, col,
	                          DETAILS_REMEDY, "execution_details.json: entry %zu: %s",
	                          entry + 1, what);
}

static int mode_ok(const char *m)
{
	return m && (strcmp(m, "FULL") == 0 || strcmp(m, "PIECEWISE") == 0);
}

static int read_details(pctx *c, const char *dir, const char *path)
{
	char *text = NULL;
	size_t len = 0;
	int rc = slurp(c, path, &text, &len);
	if (rc < 0)
		return rc;
	char err[256];
	yajl_val root = yajl_tree_parse(text, err, sizeof err);
	if (!root) {
		/* the syntax error's position: a streaming parse stops there */
		size_t off = 0;
		yajl_handle h = yajl_alloc(NULL, NULL, NULL);
		if (h) {
			if (yajl_parse(h, (const unsigned char *)text, len) != yajl_status_ok ||
			    yajl_complete_parse(h) != yajl_status_ok)
				off = yajl_get_bytes_consumed(h);
			yajl_free(h);
		}
		char msg[320];
		size_t el = strcspn(err, "\n");
		snprintf(msg, sizeof msg, "not valid JSON (%.*s)", (int)(el < 200 ? el : 200), err);
		rc = details_bad(path, text, off, (size_t)-1, msg);
		tlc_alloc__free(c->a, text);
		return rc;
	}
	if (!YAJL_IS_ARRAY(root) || root->u.array.len == 0) {
		rc = details_bad(path, NULL, 0, (size_t)-1,
		                 YAJL_IS_ARRAY(root) ? "the list is empty: no capture trace is named"
		                                     : "the document is not a list of capture entries");
		goto out;
	}
	for (size_t i = 0; i < root->u.array.len && rc == 0; i++) {
		yajl_val e = root->u.array.values[i];
		if (!YAJL_IS_OBJECT(e)) {
			rc = details_bad(path, NULL, 0, i, "not an object");
			break;
		}
		const char *kf[] = { "file", NULL }, *kb[] = { "batch_size", NULL },
		           *km[] = { "mode", NULL };
		yajl_val f = yajl_tree_get(e, kf, yajl_t_string);
		yajl_val b = yajl_tree_get(e, kb, yajl_t_any);
		yajl_val m = yajl_tree_get(e, km, yajl_t_string);
		if (!f || !*YAJL_GET_STRING(f))
			rc = details_bad(path, NULL, 0, i, "\"file\" is missing, not a string or empty");
		else if (!b || !YAJL_IS_INTEGER(b) || YAJL_GET_INTEGER(b) <= 0)
			rc = details_bad(path, NULL, 0, i, "\"batch_size\" is missing or not a positive integer");
		else if (!m || !mode_ok(YAJL_GET_STRING(m)))
			rc = details_bad(path, NULL, 0, i, "\"mode\" is missing or neither \"FULL\" nor \"PIECEWISE\"");
		else
			rc = add_file(c, join_path(c->a, dir, YAJL_GET_STRING(f)));
	}
out:
	yajl_tree_free(root);
	tlc_alloc__free(c->a, text);
	return rc;
}

/* A capture trace, or a directory with execution_details.json (in it or in
 * its capture_traces/). */
static int expand(pctx *c, const char *path)
{
	if (!is_dir(path))
		return add_file(c, tlc_alloc__strdup(c->a, path));
	char *d = join_path(c->a, path, "execution_details.json");
	char *sub = join_path(c->a, path, "capture_traces");
	char *d2 = sub ? join_path(c->a, sub, "execution_details.json") : NULL;
	int rc;
	if (!d || !sub || !d2)
		rc = oom();
	else if (is_file(d))
		rc = read_details(c, path, d);
	else if (is_file(d2))
		rc = read_details(c, sub, d2);
	else
		rc = tlc_error__set_pos(TLC_EINPUT, "capture_details_missing", path, 0, 0,
		                        "pass the capture traces themselves to --capture, or a directory "
		                        "holding execution_details.json (or capture_traces/ with it) as "
		                        "TraceLens lays them out",
		                        "directory %s holds no execution_details.json, nor "
		                        "capture_traces/execution_details.json", path);
	tlc_alloc__free(c->a, d);
	tlc_alloc__free(c->a, sub);
	tlc_alloc__free(c->a, d2);
	return rc;
}

/* ---------------------------------------------------------------- */
/* kernel names recorded at capture: args.kernel of runtime events   */
/* ---------------------------------------------------------------- */

typedef struct kscan {
	pctx *c;
	capfile *f;
	int depth, events_depth, want_events;
	int ekey_args, in_args, akey; /* akey: 1 kernel, 2 correlation */
	char *kernel;
	int64_t corr;
	int have_corr, failed;
} kscan;

static int ks_start_map(void *ctx)
{
	kscan *k = ctx;
	k->depth++;
	if (k->events_depth && k->depth == k->events_depth + 1) {
		k->kernel = NULL;
		k->have_corr = 0;
		k->in_args = 0;
	} else if (k->events_depth && k->depth == k->events_depth + 2 && k->ekey_args) {
		k->in_args = 1;
	}
	return 1;
}

static int ks_end_map(void *ctx)
{
	kscan *k = ctx;
	if (k->events_depth && k->depth == k->events_depth + 2)
		k->in_args = 0;
	if (k->events_depth && k->depth == k->events_depth + 1) {
		if (k->kernel && k->have_corr) {
			capfile *f = k->f;
			if (grow(k->c, (void **)&f->kn, &f->kncap, f->nkn + 1, sizeof *f->kn) < 0) {
				k->failed = 1;
				return 0;
			}
			f->kn[f->nkn++] = (kname){ k->corr, k->kernel };
		} else {
			tlc_alloc__free(k->c->a, k->kernel);
		}
		k->kernel = NULL;
	}
	k->depth--;
	return 1;
}

static int ks_start_array(void *ctx)
{
	kscan *k = ctx;
	k->depth++;
	if (k->want_events && k->depth == 2 && !k->events_depth)
		k->events_depth = 2;
	k->want_events = 0;
	return 1;
}

static int ks_end_array(void *ctx)
{
	kscan *k = ctx;
	if (k->events_depth == k->depth)
		k->events_depth = 0;
	k->depth--;
	return 1;
}

static int key_is(const unsigned char *s, size_t n, const char *lit)
{
	return n == strlen(lit) && memcmp(s, lit, n) == 0;
}

static int ks_key(void *ctx, const unsigned char *s, size_t n)
{
	kscan *k = ctx;
	if (k->depth == 1)
		k->want_events = key_is(s, n, "traceEvents");
	else if (k->events_depth && k->depth == k->events_depth + 1)
		k->ekey_args = key_is(s, n, "args");
	else if (k->in_args && k->depth == k->events_depth + 2)
		k->akey = key_is(s, n, "kernel") ? 1 : key_is(s, n, "correlation") ? 2 : 0;
	return 1;
}

static int in_args_value(const kscan *k)
{
	return k->in_args && k->depth == k->events_depth + 2;
}

static int ks_string(void *ctx, const unsigned char *s, size_t n)
{
	kscan *k = ctx;
	if (in_args_value(k) && k->akey == 1 && !k->kernel) {
		k->kernel = tlc_alloc__malloc(k->c->a, n + 1);
		if (!k->kernel) {
			k->failed = 1;
			return 0;
		}
		memcpy(k->kernel, s, n);
		k->kernel[n] = '\0';
	}
	if (k->depth == 1)
		k->want_events = 0;
	return 1;
}

static int ks_number(void *ctx, const char *s, size_t n)
{
	kscan *k = ctx;
	if (in_args_value(k) && k->akey == 2) {
		char buf[32];
		if (n < sizeof buf) {
			memcpy(buf, s, n);
			buf[n] = '\0';
			char *end;
			long long v = strtoll(buf, &end, 10);
			if (*end == '\0') {
				k->corr = v;
				k->have_corr = 1;
			}
		}
	}
	if (k->depth == 1)
		k->want_events = 0;
	return 1;
}

static int ks_scalar(void *ctx)
{
	kscan *k = ctx;
	if (k->depth == 1)
		k->want_events = 0;
	return 1;
}

static int ks_bool(void *ctx, int b)
{
	(void)b;
	return ks_scalar(ctx);
}

static int cmp_kname(const void *pa, const void *pb)
{
	const kname *a = pa, *b = pb;
	return (a->corr > b->corr) - (a->corr < b->corr);
}

static int scan_names(pctx *c, capfile *f)
{
	static const yajl_callbacks cb = { ks_scalar, ks_bool, NULL, NULL, ks_number, ks_string,
		                           ks_start_map, ks_key, ks_end_map, ks_start_array,
		                           ks_end_array };
	kscan k;
	memset(&k, 0, sizeof k);
	k.c = c;
	k.f = f;
	yajl_handle h = yajl_alloc(&cb, NULL, &k);
	if (!h)
		return oom();
	/* an op log capture (the CUPTI module's) is one JSON value per line */
	yajl_config(h, yajl_allow_multiple_values, 1);
	tlc_instream *in;
	int rc = tlc_instream__open_file(&in, c->a, f->path);
	if (rc < 0) {
		yajl_free(h);
		return rc;
	}
	tlc_instream__set_limits(in, c->lim);
	const unsigned char *p;
	size_t n;
	yajl_status st = yajl_status_ok;
	while ((rc = tlc_instream__read(in, &p, &n)) == 0 && n > 0)
		if ((st = yajl_parse(h, p, n)) != yajl_status_ok)
			break;
	if (rc == 0 && st == yajl_status_ok)
		st = yajl_complete_parse(h);
	tlc_instream__close(in);
	tlc_alloc__free(c->a, k.kernel);
	yajl_free(h);
	if (rc < 0)
		return rc;
	if (k.failed)
		return TLC_ENOMEM;
	if (st != yajl_status_ok)
		return tlc_error__set_pos(TLC_EINPUT, "trace_parse_error", f->path, 0, 0,
		                          "pass the capture trace as the PyTorch profiler wrote it (one "
		                          "JSON document, traceEvents a list)",
		                          "the capture trace's runtime events could not be scanned for "
		                          "the kernel names recorded at capture");
	if (f->nkn > 1)
		qsort(f->kn, f->nkn, sizeof *f->kn, cmp_kname);
	return 0;
}

static const char *kernel_of(const capfile *f, int64_t corr)
{
	size_t lo = 0, hi = f->nkn;
	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;
		if (f->kn[m].corr < corr)
			lo = m + 1;
		else
			hi = m;
	}
	return lo < f->nkn && f->kn[lo].corr == corr ? f->kn[lo].name : NULL;
}

/* ---------------------------------------------------------------- */
/* captured graphs                                                    */
/* ---------------------------------------------------------------- */

typedef struct rkey {
	int64_t k1, k2;
	size_t i;
} rkey;

static int cmp_rkey(const void *pa, const void *pb)
{
	const rkey *a = pa, *b = pb;
	if (a->k1 != b->k1)
		return a->k1 < b->k1 ? -1 : 1;
	if (a->k2 != b->k2)
		return a->k2 < b->k2 ? -1 : 1;
	return (a->i > b->i) - (a->i < b->i);
}

static int is_host_kind(tlc_device_kind k)
{
	return k == TLC_DEVICE_RUNTIME || k == TLC_DEVICE_DRIVER;
}

static int is_launch_kind(tlc_device_kind k)
{
	return k == TLC_DEVICE_KERNEL || k == TLC_DEVICE_MEMCPY || k == TLC_DEVICE_MEMSET;
}

static int has(const char *name, const char *part)
{
	return name && strstr(name, part) != NULL;
}

/* 0 not a launch in a graph, 1 kernel launch, 2 memcpy, 3 memset */
static int capture_launch_kind(const char *name)
{
	if (has(name, "GraphLaunch") || has(name, "GraphInstantiate") || has(name, "HostFunc"))
		return 0; /* a host function node runs no kernel */
	if (has(name, "Memcpy"))
		return 2;
	if (has(name, "Memset"))
		return 3;
	return has(name, "Launch") ? 1 : 0;
}

static uint64_t hash_str(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return (h ^ 0xffu) * 1099511628211ull;
}

/* The op ids of the capture's rows by correlation: (correlation, id). */
static int row_corr_index(pctx *c, tlc_eval *cap, rkey **out, size_t *nout)
{
	const tlc_rows *rows = tlc_eval__rows(cap);
	size_t n = rows ? rows->n : 0, m = 0;
	rkey *v = tlc_alloc__malloc(c->a, (n ? n : 1) * sizeof *v);
	if (!v)
		return oom();
	for (size_t i = 0; i < n; i++) {
		int64_t k = tlc_rows__correlation(rows, i), id = tlc_rows__id(rows, i);
		if (id >= c->stride)
			c->stride = id + 1;
		if (k >= 0)
			v[m++] = (rkey){ k, id, i };
	}
	if (m > 1)
		qsort(v, m, sizeof *v, cmp_rkey);
	*out = v;
	*nout = m;
	return 0;
}

static int64_t op_of_corr(const rkey *v, size_t n, int64_t corr)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;
		if (v[m].k1 < corr)
			lo = m + 1;
		else
			hi = m;
	}
	return lo < n && v[lo].k1 == corr ? v[lo].k2 : -1;
}

/* ---------------------------------------------------------------- */
/* CUDA graph nodes: a launch's token is the node it made or ran as   */
/* ---------------------------------------------------------------- */

/* The token of graph node `node`: one string per node, so that equal
 * tokens are equal nodes. NULL on allocation failure (error set). */
static const char *node_token(pctx *c, int64_t node)
{
	char **have = tlc_idmap__get(&c->node_tok, node);
	if (have)
		return *have;
	char buf[48];
	int n = snprintf(buf, sizeof buf, "graph node %lld", (long long)node);
	char *t = tlc_alloc__malloc(c->a, (size_t)n + 1);
	if (!t) {
		oom();
		return NULL;
	}
	memcpy(t, buf, (size_t)n + 1);
	char **slot;
	if (grow(c, (void **)&c->strs, &c->strcap, c->nstrs + 1, sizeof *c->strs) < 0 ||
	    !(slot = tlc_idmap__put(&c->node_tok, node, NULL))) {
		tlc_alloc__free(c->a, t);
		return NULL;
	}
	c->strs[c->nstrs++] = t;
	*slot = t;
	c->used_nodes = 1;
	return t;
}

/* Graph node records of ev: clones into c->origin, nodes created by a call
 * into created (correlation -> node) when created is not NULL. */
static int take_nodes(pctx *c, const tlc_eval *ev, tlc_idmap *created)
{
	size_t n = tlc_eval_graph_node_count(ev);
	for (size_t i = 0; i < n; i++) {
		tlc_graph_node g = TLC_GRAPH_NODE_INIT;
		if (tlc_eval_graph_node_get(ev, i, &g) < 0)
			return TLC_EINVAL;
		tlc_idmap *m = g.original >= 0 ? &c->origin : created;
		if (!m)
			continue;
		int64_t *v = tlc_idmap__put(m, g.original >= 0 ? g.node : g.correlation, NULL);
		if (!v)
			return TLC_ENOMEM;
		*v = g.original >= 0 ? g.original : g.node;
	}
	return 0;
}

/* The node a replayed record's graph node was cloned from, through every
 * clone (instantiation clones the captured graph's nodes; a graph may be
 * cloned again): the node the capture made. A cycle (not made by CUDA)
 * stops at the node where it closes. */
static int64_t root_node(const pctx *c, int64_t node)
{
	for (size_t k = 0; k <= c->origin.count; k++) {
		const int64_t *o = tlc_idmap__get(&c->origin, node);
		if (!o || *o == node)
			return node;
		node = *o;
	}
	return node;
}

static int needs_ids(const capfile *f, uint64_t unnamed, uint64_t launches)
{
	return tlc_error__set_pos(
		TLC_EINPUT, "capture_pairing_needs_graph_ids", f->path, 0, 0,
		"pair ROCm traces, whose runtime events record the kernel name at capture; on CUDA, "
		"record each launch's graph and node ids: the CUPTI collector must record at capture "
		"the graph node each launch creates (CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED: graph id, "
		"node id, correlation) and at replay each kernel record's graphId and graphNodeId "
		"(CUpti_ActivityKernel), which the PyTorch profiler does not write; tlcost's CUPTI "
		"module (docs/cupti.md) writes both as graph_node lines and graph_node fields",
		"%llu of %llu kernel launches inside the capture carry no kernel name (args.kernel) "
		"and made no graph node the capture recorded: CUDA runtime events do not record a "
		"name at capture, so a replay's kernel sequence cannot be matched to the captured "
		"launches",
		(unsigned long long)unnamed, (unsigned long long)launches);
}

static int cmp_token_node(const void *pa, const void *pb)
{
	const token *a = pa, *b = pb;
	return (a->node > b->node) - (a->node < b->node);
}

/* A graph whose every launch made a node: its tokens in node order, so
 * that a replay's records, put in the same order, match whatever order the
 * device ran them in (a graph on several streams). Node ids name the node
 * exactly, so this is no realignment by guess; a graph with any launch
 * named otherwise keeps the order of its calls. */
static void node_order(pctx *c, graph *g)
{
	if (g->ntok == 0)
		return; /* no token yet: c->toks may still be NULL */
	token *t = c->toks + g->tok0;
	for (size_t k = 0; k < g->ntok; k++)
		if (t[k].node < 0)
			return;
	if (g->ntok > 1)
		qsort(t, g->ntok, sizeof *t, cmp_token_node);
	g->hash = 1469598103934665603ull;
	for (size_t k = 0; k < g->ntok; k++)
		g->hash = hash_str(g->hash, t[k].name);
}

/* Reads capture f: kernel names, then ops and device records; finds its
 * windows and their launch sequences. */
static int load_capture(pctx *c, size_t fi)
{
	capfile *f = &c->files[fi];
	tlc_eval *cap = NULL;
	rkey *corr = NULL, *marks = NULL, *launch = NULL;
	size_t ncorr = 0;
	tlc_eval_options o = { sizeof o, 1, NULL, NULL };
	int rc = tlc_eval_new(&cap, tlc_eval__engine(c->ev), &o);
	if (rc < 0)
		return rc;
	if ((rc = tlc_input_read_limited(cap, f->path, c->lim)) < 0 ||
	    (rc = tlc_eval_finish(cap)) < 0 || (rc = scan_names(c, f)) < 0 ||
	    (rc = row_corr_index(c, cap, &corr, &ncorr)) < 0 ||
	    (rc = take_nodes(c, cap, &f->created)) < 0)
		goto out;
	size_t nd = tlc_eval__device_count(cap), nm = 0, nl = 0;
	marks = tlc_alloc__malloc(c->a, (nd ? nd : 1) * sizeof *marks);
	launch = tlc_alloc__malloc(c->a, (nd ? nd : 1) * sizeof *launch);
	if (!marks || !launch) {
		rc = oom();
		goto out;
	}
	for (size_t i = 0; i < nd; i++) {
		tlc_device_record d = tlc_eval__device(cap, i);
		if (!is_host_kind(d.kind) || !(d.flags & TLC_DEV_HAS_THREAD))
			continue;
		if (has(d.name, "BeginCapture") || has(d.name, "EndCapture"))
			marks[nm++] = (rkey){ d.thread, d.start_ns, i };
		else if (capture_launch_kind(d.name))
			launch[nl++] = (rkey){ d.thread, d.start_ns, i };
	}
	if (nm > 1)
		qsort(marks, nm, sizeof *marks, cmp_rkey);
	if (nl > 1)
		qsort(launch, nl, sizeof *launch, cmp_rkey);
	f->g0 = c->ngraphs;
	size_t li = 0;
	uint64_t unnamed = 0, kernels = 0;
	for (size_t m = 0; m + 1 < nm; m++) {
		tlc_device_record b = tlc_eval__device(cap, marks[m].i);
		tlc_device_record e = tlc_eval__device(cap, marks[m + 1].i);
		if (!has(b.name, "BeginCapture") || !has(e.name, "EndCapture") || b.thread != e.thread)
			continue;
		if (grow(c, (void **)&c->graphs, &c->graphcap, c->ngraphs + 1, sizeof *c->graphs) < 0) {
			rc = TLC_ENOMEM;
			goto out;
		}
		graph *g = &c->graphs[c->ngraphs];
		memset(g, 0, sizeof *g);
		g->file = fi;
		g->thread = b.thread;
		g->lo = b.end_ns;
		g->hi = e.start_ns;
		g->tok0 = c->ntoks;
		g->hash = 1469598103934665603ull;
		while (li < nl && (launch[li].k1 < g->thread ||
		                   (launch[li].k1 == g->thread && launch[li].k2 < g->lo)))
			li++;
		for (; li < nl && launch[li].k1 == g->thread && launch[li].k2 <= g->hi; li++) {
			tlc_device_record d = tlc_eval__device(cap, launch[li].i);
			int kind = capture_launch_kind(d.name);
			const int64_t *made = (d.flags & TLC_DEV_HAS_CORRELATION)
			                              ? tlc_idmap__get(&f->created, d.correlation) : NULL;
			const char *name = made ? node_token(c, *made) : kind == 2 ? TOK_MEMCPY :
			                   kind == 3 ? TOK_MEMSET :
			                   (d.flags & TLC_DEV_HAS_CORRELATION) ? kernel_of(f, d.correlation) : NULL;
			if (made && !name) {
				rc = TLC_ENOMEM;
				goto out;
			}
			if (kind == 1) {
				kernels++;
				if (!name) {
					unnamed++;
					continue;
				}
			}
			if (grow(c, (void **)&c->toks, &c->tokcap, c->ntoks + 1, sizeof *c->toks) < 0) {
				rc = TLC_ENOMEM;
				goto out;
			}
			int64_t op = (d.flags & TLC_DEV_HAS_EXTERNAL_ID) ? op_of_corr(corr, ncorr, d.external_id) : -1;
			c->toks[c->ntoks++] = (token){ name, op, made ? *made : -1 };
			g->hash = hash_str(g->hash, name);
			g->ntok++;
			if (op >= 0) {
				size_t *slot = tlc_idmap__put(&f->launcher, op, NULL);
				if (!slot) {
					rc = oom();
					goto out;
				}
				*slot = c->ngraphs + 1;
			}
		}
		node_order(c, g);
		c->ngraphs++;
		m++; /* the End is used */
	}
	f->ng = c->ngraphs - f->g0;
	c->sum.graphs += f->ng;
	if (unnamed)
		rc = needs_ids(f, unnamed, kernels);
	else if (f->ng == 0)
		rc = tlc_error__set_pos(TLC_EINPUT, "capture_pairing_no_capture", f->path, 0, 0,
		                        "pass the trace of the graphs' capture (profiled around "
		                        "torch.cuda.graph / the serving engine's graph capture), which "
		                        "records StreamBeginCapture and StreamEndCapture runtime calls",
		                        "the capture trace holds no StreamBeginCapture/StreamEndCapture "
		                        "pair on one thread: no captured graph to pair a replay with");
out:
	tlc_alloc__free(c->a, corr);
	tlc_alloc__free(c->a, marks);
	tlc_alloc__free(c->a, launch);
	tlc_eval_free(cap);
	return rc;
}

/* ---------------------------------------------------------------- */
/* the replay's graph launches                                        */
/* ---------------------------------------------------------------- */

static int seq_equal(const pctx *c, const graph *g, const tlc_device_record *recs, size_t n)
{
	if (g->ntok != n)
		return 0;
	for (size_t k = 0; k < n; k++)
		if (strcmp(c->toks[g->tok0 + k].name, recs[k].name) != 0)
			return 0;
	return 1;
}

static const char *replay_token(pctx *c, const tlc_device_record *d)
{
	if ((d->flags & TLC_DEV_HAS_GRAPH_NODE) && c->used_nodes)
		return node_token(c, root_node(c, d->graph_node));
	if (d->kind == TLC_DEVICE_MEMCPY)
		return TOK_MEMCPY;
	if (d->kind == TLC_DEVICE_MEMSET)
		return TOK_MEMSET;
	return d->name ? d->name : "";
}

typedef struct match {
	size_t g;       /* graph index, or SIZE_MAX */
	uint32_t why;   /* TLC_EVAL__PAIR_* when g is SIZE_MAX */
	size_t inst;    /* instance of graph g */
	size_t rep;     /* ambiguous: the first of the equal captured graphs */
} match;

static int graphs_equal(const pctx *c, const graph *a, const graph *b)
{
	if (a->ntok != b->ntok || a->hash != b->hash)
		return 0;
	for (size_t k = 0; k < a->ntok; k++)
		if (strcmp(c->toks[a->tok0 + k].name, c->toks[b->tok0 + k].name) != 0)
			return 0;
	return 1;
}

/* Ambiguous groups (contract "Capture pairing": several matches make one
 * ambiguous group): the n replay launches whose sequence equals that of the
 * k captured graphs S, when n == k, form per kernel position one group of
 * S's ops (each graph of S added once: the ops replayed are S's, which one
 * ran in which launch is not known). n != k: no group (the ops replayed
 * cannot be counted without a guess); the launches stay unattributed. */
typedef struct amb {
	size_t *n, *size, *mem_off, *mem;
	uint8_t *grouped;
	int64_t *pos_off;   /* per token of a grouped representative: offset into ids */
	int64_t *ids;
	size_t nids, idcap, nmem;
} amb;

static void amb_free(const pctx *c, amb *m)
{
	tlc_alloc__free(c->a, m->n);
	tlc_alloc__free(c->a, m->size);
	tlc_alloc__free(c->a, m->mem_off);
	tlc_alloc__free(c->a, m->mem);
	tlc_alloc__free(c->a, m->grouped);
	tlc_alloc__free(c->a, m->pos_off);
	tlc_alloc__free(c->a, m->ids);
}

static int amb_push(pctx *c, amb *m, int64_t v)
{
	if (grow(c, (void **)&m->ids, &m->idcap, m->nids + 1, sizeof *m->ids) < 0)
		return TLC_ENOMEM;
	m->ids[m->nids++] = v;
	return 0;
}

/* The ids offset of position k of representative rep's group (built on
 * first use); -1 when a member's launch there names no op. */
static int amb_position(pctx *c, amb *m, size_t rep, size_t k, int64_t *off)
{
	size_t t = c->graphs[rep].tok0 + k;
	if (m->pos_off[t] != -2) {
		*off = m->pos_off[t];
		return 0;
	}
	size_t first = m->mem_off[rep], cnt = m->size[rep];
	int64_t at = (int64_t)m->nids;
	if (amb_push(c, m, (int64_t)cnt) < 0)
		return TLC_ENOMEM;
	for (size_t i = 0; i < cnt; i++) {
		const graph *g = &c->graphs[m->mem[first + i]];
		int64_t op = c->toks[g->tok0 + k].op_id;
		if (op < 0) {
			m->nids = (size_t)at;
			m->pos_off[t] = *off = -1;
			return 0;
		}
		if (amb_push(c, m, PAIR_ID_BASE + (int64_t)g->inst0 * c->stride + op) < 0)
			return TLC_ENOMEM;
	}
	m->pos_off[t] = *off = at;
	return 0;
}

static int cmp_paired(const void *pa, const void *pb)
{
	const tlc_eval__paired *a = pa, *b = pb;
	return (a->rec > b->rec) - (a->rec < b->rec);
}

/* Matches every graph launch of the replay; fills the pairing entries. */
static int match_replay(pctx *c, tlc_eval__paired **out, size_t *nout, match **mout,
                        amb *am)
{
	size_t nd = tlc_eval__device_count(c->ev), ngl = 0, nl = 0;
	rkey *gl = tlc_alloc__malloc(c->a, (nd ? nd : 1) * sizeof *gl);
	rkey *ls = tlc_alloc__malloc(c->a, (nd ? nd : 1) * sizeof *ls);
	tlc_device_record *seq = tlc_alloc__malloc(c->a, (nd ? nd : 1) * sizeof *seq);
	tlc_eval__paired *pv = tlc_alloc__malloc(c->a, (nd ? nd : 1) * sizeof *pv);
	match *mv = NULL;
	size_t np = 0;
	int rc = 0;
	if (!gl || !ls || !seq || !pv) {
		rc = oom();
		goto fail;
	}
	for (size_t i = 0; i < nd; i++) {
		tlc_device_record d = tlc_eval__device(c->ev, i);
		if (is_host_kind(d.kind) && has(d.name, "GraphLaunch") && (d.flags & TLC_DEV_HAS_CORRELATION))
			gl[ngl++] = (rkey){ d.correlation, d.start_ns, i };
	}
	if (ngl > 1)
		qsort(gl, ngl, sizeof *gl, cmp_rkey);
	for (size_t i = 0; i < nd; i++) {
		tlc_device_record d = tlc_eval__device(c->ev, i);
		if (!is_launch_kind(d.kind) || !(d.flags & TLC_DEV_HAS_CORRELATION))
			continue;
		size_t lo = 0, hi = ngl;
		while (lo < hi) {
			size_t m = lo + (hi - lo) / 2;
			if (gl[m].k1 < d.correlation)
				lo = m + 1;
			else
				hi = m;
		}
		if (lo < ngl && gl[lo].k1 == d.correlation)
			ls[nl++] = (rkey){ (int64_t)lo, d.start_ns, i };
	}
	if (nl > 1)
		qsort(ls, nl, sizeof *ls, cmp_rkey);
	/* a launch whose every record ran as a graph node: in node order, as
	 * the captured graphs' tokens are (node_order) */
	for (size_t a = 0; c->used_nodes && a < nl;) {
		size_t b = a;
		int all = 1;
		for (; b < nl && ls[b].k1 == ls[a].k1; b++) {
			tlc_device_record d = tlc_eval__device(c->ev, ls[b].i);
			if (!(d.flags & TLC_DEV_HAS_GRAPH_NODE))
				all = 0;
			else
				ls[b].k2 = root_node(c, d.graph_node);
		}
		if (all && b - a > 1)
			qsort(ls + a, b - a, sizeof *ls, cmp_rkey);
		else if (!all)
			for (size_t x = a; x < b; x++)
				ls[x].k2 = tlc_eval__device(c->ev, ls[x].i).start_ns;
		a = b;
	}
	mv = tlc_alloc__calloc(c->a, ngl ? ngl : 1, sizeof *mv);
	size_t ng1 = c->ngraphs ? c->ngraphs : 1;
	am->n = tlc_alloc__calloc(c->a, ng1, sizeof *am->n);
	am->size = tlc_alloc__calloc(c->a, ng1, sizeof *am->size);
	am->mem_off = tlc_alloc__calloc(c->a, ng1, sizeof *am->mem_off);
	am->mem = tlc_alloc__calloc(c->a, ng1, sizeof *am->mem);
	am->grouped = tlc_alloc__calloc(c->a, ng1, 1);
	am->pos_off = tlc_alloc__malloc(c->a, (c->ntoks ? c->ntoks : 1) * sizeof *am->pos_off);
	if (!mv || !am->n || !am->size || !am->mem_off || !am->mem || !am->grouped || !am->pos_off) {
		rc = oom();
		goto fail;
	}
	for (size_t k = 0; k < ngl; k++)
		mv[k] = (match){ SIZE_MAX, TLC_EVAL__PAIR_NO_MATCH, 0, SIZE_MAX };
	for (size_t t = 0; t < c->ntoks; t++)
		am->pos_off[t] = -2; /* not built */
	c->sum.graph_launches = ngl;
	/* first pass: which graph each launch matches */
	for (size_t a = 0; a < nl;) {
		size_t b = a, gi = (size_t)ls[a].k1;
		uint64_t h = 1469598103934665603ull;
		for (; b < nl && ls[b].k1 == ls[a].k1; b++) {
			seq[b - a] = tlc_eval__device(c->ev, ls[b].i);
			seq[b - a].name = replay_token(c, &seq[b - a]);
			if (!seq[b - a].name) {
				rc = TLC_ENOMEM;
				goto fail;
			}
			h = hash_str(h, seq[b - a].name);
		}
		size_t found = SIZE_MAX, nfound = 0;
		for (size_t g = 0; g < c->ngraphs; g++)
			if (c->graphs[g].hash == h && seq_equal(c, &c->graphs[g], seq, b - a)) {
				if (!nfound++)
					found = g;
			}
		if (nfound == 1) {
			mv[gi].g = found;
			mv[gi].inst = c->graphs[found].ninst++;
		} else if (nfound > 1) {
			mv[gi].why = TLC_EVAL__PAIR_AMBIGUOUS;
			mv[gi].rep = found;
			am->n[found]++;
			am->size[found] = nfound;
		}
		a = b;
	}
	for (size_t g = 0; g < c->ngraphs; g++) {
		if (!am->n[g] || am->n[g] != am->size[g])
			continue;
		am->grouped[g] = 1;
		am->mem_off[g] = am->nmem;
		for (size_t h = g; h < c->ngraphs; h++)
			if (graphs_equal(c, &c->graphs[g], &c->graphs[h])) {
				am->mem[am->nmem++] = h;
				c->graphs[h].ninst = 1;
			}
	}
	size_t inst = 0;
	for (size_t g = 0; g < c->ngraphs; g++) {
		c->graphs[g].inst0 = inst;
		inst += c->graphs[g].ninst;
	}
	c->ninst = inst;
	if (c->stride < 1)
		c->stride = 1;
	if (inst && (int64_t)inst > (INT64_MAX / 2 - PAIR_ID_BASE) / c->stride) {
		rc = tlc_error__set(TLC_EINPUT, "capture_pairing_too_large",
		                    "pair fewer graph launches at a time (a shorter replay trace)",
		                    "%zu matched graph launches of captures with op ids below %lld do "
		                    "not fit the ids of the added ops", inst, (long long)c->stride);
		goto fail;
	}
	for (size_t k = 0; k < ngl; k++) {
		if (mv[k].g != SIZE_MAX)
			c->sum.matched++;
		else if (mv[k].why == TLC_EVAL__PAIR_AMBIGUOUS)
			c->sum.ambiguous++;
		else
			c->sum.unmatched++;
	}
	/* second pass: each replayed launch's op */
	for (size_t a = 0; a < nl;) {
		size_t b = a;
		while (b < nl && ls[b].k1 == ls[a].k1)
			b++;
		const match *m = &mv[(size_t)ls[a].k1];
		for (size_t x = a; x < b; x++) {
			tlc_eval__paired p = { (uint32_t)ls[x].i, m->why, -1 };
			if (m->g != SIZE_MAX) {
				const graph *g = &c->graphs[m->g];
				int64_t op = c->toks[g->tok0 + (x - a)].op_id;
				if (op >= 0) {
					p.why = 0;
					p.op_id = PAIR_ID_BASE + (int64_t)(g->inst0 + m->inst) * c->stride + op;
				} else {
					p.why = TLC_EVAL__PAIR_NO_OP;
				}
			} else if (m->rep != SIZE_MAX && am->grouped[m->rep]) {
				int64_t off;
				if ((rc = amb_position(c, am, m->rep, x - a, &off)) < 0)
					goto fail;
				p.why = off >= 0 ? TLC_EVAL__PAIR_GROUP : TLC_EVAL__PAIR_NO_OP;
				p.op_id = off;
			}
			pv[np++] = p;
		}
		a = b;
	}
	if (np > 1)
		qsort(pv, np, sizeof *pv, cmp_paired);
	uint64_t placed = 0;
	int64_t placed_ns = 0;
	for (size_t i = 0; i < np; i++) {
		tlc_device_record d = tlc_eval__device(c->ev, pv[i].rec);
		if ((pv[i].why == 0 || pv[i].why == TLC_EVAL__PAIR_GROUP) && d.kind == TLC_DEVICE_KERNEL) {
			placed++;
			int64_t t = d.end_ns > d.start_ns ? d.end_ns - d.start_ns : 0;
			placed_ns = t > INT64_MAX - placed_ns ? INT64_MAX : placed_ns + t;
		}
	}
	if ((rc = tlc_eval__paired_device_work(c->ev, placed, placed_ns)) < 0)
		goto fail;
	*out = pv;
	*nout = np;
	*mout = mv;
	tlc_alloc__free(c->a, gl);
	tlc_alloc__free(c->a, ls);
	tlc_alloc__free(c->a, seq);
	return 0;
fail:
	tlc_alloc__free(c->a, gl);
	tlc_alloc__free(c->a, ls);
	tlc_alloc__free(c->a, seq);
	tlc_alloc__free(c->a, pv);
	tlc_alloc__free(c->a, mv);
	return rc;
}

/* ---------------------------------------------------------------- */
/* the captured ops, added to the replay                              */
/* ---------------------------------------------------------------- */

/* The graph of file f whose window holds op (thread, start, end), or the
 * graph one of whose launches names it; SIZE_MAX when none. */
static size_t graph_of_op(const pctx *c, const capfile *f, const tlc_op *op)
{
	const size_t *named = tlc_idmap__get(&f->launcher, op->id);
	if (named)
		return *named - 1;
	size_t lo = f->g0, hi = f->g0 + f->ng;
	while (lo < hi) { /* graphs of a file are in (thread, lo) order */
		size_t m = lo + (hi - lo) / 2;
		const graph *g = &c->graphs[m];
		if (g->thread < op->thread || (g->thread == op->thread && g->lo <= op->start_ns))
			lo = m + 1;
		else
			hi = m;
	}
	if (lo == f->g0)
		return SIZE_MAX;
	const graph *g = &c->graphs[lo - 1];
	return g->thread == op->thread && op->start_ns >= g->lo && op->end_ns <= g->hi ? lo - 1 : SIZE_MAX;
}

static void add_op(const tlc_op *op, const tlc_op_row *row, void *payload)
{
	(void)row;
	pctx *c = payload;
	if (c->err)
		return;
	const capfile *f = &c->files[c->cur_file];
	size_t gi = graph_of_op(c, f, op);
	if (gi == SIZE_MAX || c->graphs[gi].ninst == 0)
		return;
	const graph *g = &c->graphs[gi];
	int in_parent = (op->flags & TLC_OP_HAS_PARENT) && tlc_idmap__get(&c->added, op->parent);
	if (!tlc_idmap__put(&c->added, op->id, NULL)) {
		c->err = oom();
		return;
	}
	for (size_t k = 0; k < g->ninst; k++) {
		int64_t base = PAIR_ID_BASE + (int64_t)(g->inst0 + k) * c->stride;
		tlc_op o = *op;
		o.id = base + op->id;
		o.correlation = o.id;
		/* no host thread: the capture's clock and thread ids are not the
		 * replay's, so an added op must never hold a replay runtime call on
		 * the containment path */
		o.flags &= ~(unsigned)TLC_OP_HAS_THREAD;
		if (in_parent)
			o.parent = base + op->parent;
		else
			o.flags &= ~(unsigned)TLC_OP_HAS_PARENT;
		int rc = tlc_eval_push_op(c->ev, &o);
		if (rc < 0) {
			c->err = rc;
			return;
		}
		c->sum.ops_added++;
	}
}

static int inject(pctx *c, size_t fi)
{
	capfile *f = &c->files[fi];
	size_t used = 0;
	for (size_t g = f->g0; g < f->g0 + f->ng; g++)
		used += c->graphs[g].ninst;
	if (!used)
		return 0;
	c->cur_file = fi;
	tlc_idmap__free(&c->added);
	tlc_idmap__init(&c->added, c->a, 1);
	tlc_eval *cap;
	tlc_eval_options o = { sizeof o, 0, add_op, c };
	int rc = tlc_eval_new(&cap, tlc_eval__engine(c->ev), &o);
	if (rc < 0)
		return rc;
	if ((rc = tlc_input_read_limited(cap, f->path, c->lim)) == 0)
		rc = tlc_eval_finish(cap);
	tlc_eval_free(cap);
	return rc < 0 ? rc : c->err;
}

static void ctx_free(pctx *c)
{
	for (size_t i = 0; i < c->nfiles; i++) {
		capfile *f = &c->files[i];
		for (size_t k = 0; k < f->nkn; k++)
			tlc_alloc__free(c->a, f->kn[k].name);
		tlc_alloc__free(c->a, f->kn);
		tlc_alloc__free(c->a, f->path);
		tlc_idmap__free(&f->launcher);
		tlc_idmap__free(&f->created);
	}
	for (size_t i = 0; i < c->nstrs; i++)
		tlc_alloc__free(c->a, c->strs[i]);
	tlc_alloc__free(c->a, c->strs);
	tlc_idmap__free(&c->origin);
	tlc_idmap__free(&c->node_tok);
	tlc_alloc__free(c->a, c->files);
	tlc_alloc__free(c->a, c->graphs);
	tlc_alloc__free(c->a, c->toks);
	tlc_idmap__free(&c->added);
}

int tlc_capture_pair(tlc_eval *ev, const char *const *paths, size_t npaths,
                     const tlc_input_limits *lim)
{
	if (!ev || (!paths && npaths))
		return tlc_error__set(TLC_EINVAL, "invalid_argument",
		                      "pass the replay's evaluation and the capture paths",
		                      "tlc_capture_pair: NULL argument");
	if (tlc_eval__finished(ev))
		return tlc_error__set(TLC_ESTATE, "eval_finished",
		                      "call tlc_capture_pair after reading the replay and before "
		                      "tlc_eval_finish",
		                      "tlc_capture_pair: the evaluation is finished");
	pctx c;
	memset(&c, 0, sizeof c);
	c.ev = ev;
	c.a = tlc_eval__allocator(ev);
	c.lim = lim;
	c.sum.size = sizeof c.sum;
	tlc_idmap__init(&c.added, c.a, 1);
	tlc_idmap__init(&c.origin, c.a, sizeof(int64_t));
	tlc_idmap__init(&c.node_tok, c.a, sizeof(char *));
	int rc = take_nodes(&c, ev, NULL); /* the replay's own clones */
	for (size_t i = 0; i < npaths && rc == 0; i++)
		rc = expand(&c, paths[i]);
	for (size_t i = 0; i < c.nfiles && rc == 0; i++)
		rc = load_capture(&c, i);
	c.sum.captures = c.nfiles;
	tlc_eval__paired *pv = NULL;
	size_t np = 0;
	match *mv = NULL;
	amb am;
	memset(&am, 0, sizeof am);
	if (rc == 0)
		rc = match_replay(&c, &pv, &np, &mv, &am);
	for (size_t i = 0; i < c.nfiles && rc == 0; i++)
		rc = inject(&c, i);
	if (rc == 0) {
		c.sum.by_graph_node = c.used_nodes != 0;
		tlc_eval__set_pairing(ev, pv, np, am.ids, am.nids, &c.sum);
		am.ids = NULL;
	} else {
		tlc_alloc__free(c.a, pv);
	}
	amb_free(&c, &am);
	tlc_alloc__free(c.a, mv);
	ctx_free(&c);
	return rc;
}

