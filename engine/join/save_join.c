/* Saved joins that cannot be forged: `tlcost join --save` writes the ops,
 * every device/runtime record and the attribution as an op log v1. The
 * attribution and gate live in the header's meta as one canonical object;
 * reading the file back re-runs the join on its records and compares the
 * re-derived object byte for byte, so a stored verdict that disagrees with
 * the file's own records (or any field added, removed or edited) is refused. */
#include <inttypes.h>
#include <math.h>
#include <string.h>
#include <yajl/yajl_gen.h>
#include "eval.h"
#include "rows.h"
#include "join.h"
#include "textw.h"

#define SAVED_KEY "tlcost_saved_join"

struct tlc_op_recorder {
	const tlc_allocator *a;
	tlc_sb lines;   /* one op log line per op */
	uint64_t nops;
	int failed;     /* an op could not be recorded */
};

int tlc_op_recorder_new(tlc_op_recorder **out)
{
	const tlc_allocator *a = tlc_alloc__default();
	tlc_op_recorder *r = tlc_alloc__calloc(a, 1, sizeof *r);
	if (!r)
		return tlc_error__oom();
	r->a = a;
	tlc_sb__init(&r->lines, a);
	*out = r;
	return 0;
}

void tlc_op_recorder_free(tlc_op_recorder *rec)
{
	if (!rec)
		return;
	tlc_sb__free(&rec->lines);
	tlc_alloc__free(rec->a, rec);
}

/* ---------------------------------------------------------------- */
/* op records as JSON                                                */
/* ---------------------------------------------------------------- */

static void sb_print(void *ctx, const char *s, size_t n) { tlc_sb__append(ctx, s, n); }

static void gstr(yajl_gen g, const char *s)
{
	yajl_gen_string(g, (const unsigned char *)s, strlen(s));
}

static void gkint(yajl_gen g, const char *k, int64_t v)
{
	gstr(g, k);
	yajl_gen_integer(g, (long long)v);
}

static void gkstr(yajl_gen g, const char *k, const char *v)
{
	gstr(g, k);
	gstr(g, v);
}

static void gen_value(yajl_gen g, const tlc_value *v, int depth);

static void gen_tensor(yajl_gen g, const tlc_tensor *t)
{
	yajl_gen_map_open(g);
	gstr(g, "shape");
	yajl_gen_array_open(g);
	for (size_t i = 0; i < t->ndim; i++)
		yajl_gen_integer(g, (long long)t->shape[i]);
	yajl_gen_array_close(g);
	if (t->dtype == TLC_DTYPE_OTHER && t->dtype_name)
		gkstr(g, "dtype", t->dtype_name);
	else if (t->dtype != TLC_DTYPE_NONE && t->dtype != TLC_DTYPE_OTHER)
		gkstr(g, "dtype", tlc_dtype_name(t->dtype));
	if (t->stride) {
		gstr(g, "stride");
		yajl_gen_array_open(g);
		for (size_t i = 0; i < t->ndim; i++)
			yajl_gen_integer(g, (long long)t->stride[i]);
		yajl_gen_array_close(g);
	}
	if (t->device)
		gkstr(g, "device", t->device);
	yajl_gen_map_close(g);
}

static void gen_value(yajl_gen g, const tlc_value *v, int depth)
{
	switch (v->kind) {
	case TLC_VALUE_BOOL: yajl_gen_bool(g, v->u.boolean); break;
	case TLC_VALUE_INT: yajl_gen_integer(g, (long long)v->u.integer); break;
	case TLC_VALUE_FLOAT:
		if (isnan(v->u.real))
			gstr(g, "nan");
		else if (isinf(v->u.real))
			gstr(g, v->u.real > 0 ? "inf" : "-inf");
		else
			yajl_gen_double(g, v->u.real);
		break;
	case TLC_VALUE_STRING: gstr(g, v->u.string ? v->u.string : ""); break;
	case TLC_VALUE_TENSOR: gen_tensor(g, &v->u.tensor); break;
	case TLC_VALUE_LIST:
		yajl_gen_array_open(g);
		for (size_t i = 0; depth < 64 && i < v->u.list.n; i++)
			gen_value(g, &v->u.list.items[i], depth + 1);
		yajl_gen_array_close(g);
		break;
	default: yajl_gen_null(g); break;
	}
}

static void gen_values(yajl_gen g, const char *key, const tlc_value *v, size_t n)
{
	gstr(g, key);
	yajl_gen_array_open(g);
	for (size_t i = 0; i < n; i++)
		gen_value(g, &v[i], 0);
	yajl_gen_array_close(g);
}

/* An argument passed but not recorded is written null (what a reader of
 * plain op log v1 has always read) and its position listed under
 * "unrecorded" (the extension of docs/oplog-v1.md), so tlcost reads it
 * back as not recorded, never as None or a schema default. */
static void gen_unrecorded(yajl_gen g, const tlc_op *op)
{
	int any = 0;
	for (size_t i = 0; i < op->nargs; i++) {
		if (op->args[i].kind != TLC_VALUE_UNRECORDED)
			continue;
		if (!any++) {
			gstr(g, "unrecorded");
			yajl_gen_array_open(g);
		}
		yajl_gen_integer(g, (long long)i);
	}
	if (any)
		yajl_gen_array_close(g);
}

static void gen_optional(yajl_gen g, const tlc_op *op)
{
	static const struct { unsigned flag; const char *key; size_t off; } f[] = {
		{ TLC_OP_HAS_MODULE_CALL, "module_call", offsetof(tlc_op, module_call) },
		{ TLC_OP_HAS_PARENT, "parent", offsetof(tlc_op, parent) },
		{ TLC_OP_HAS_HOST_NS, "host_ns", offsetof(tlc_op, host_ns) },
		{ TLC_OP_HAS_START_NS, "start_ns", offsetof(tlc_op, start_ns) },
		{ TLC_OP_HAS_THREAD, "thread", offsetof(tlc_op, thread) },
	};
	for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
		if (op->flags & f[i].flag)
			gkint(g, f[i].key, *(const int64_t *)(const void *)((const char *)op + f[i].off));
	gkint(g, "correlation", op->correlation);
}

static void gen_op(yajl_gen g, const tlc_op *op)
{
	yajl_gen_map_open(g);
	gkint(g, "id", op->id);
	gkstr(g, "op", op->name);
	if (op->overload && op->overload[0])
		gkstr(g, "overload", op->overload);
	gkstr(g, "phase", tlc_phase_name(op->phase));
	if (op->module)
		gkstr(g, "module", op->module);
	if (op->module_type)
		gkstr(g, "module_type", op->module_type);
	gen_values(g, "args", op->args, op->nargs);
	gen_unrecorded(g, op);
	/* a profiler listed every argument: one absent from args was not
	 * recorded (never a schema default) when the log is read back */
	if (op->flags & TLC_OP_ARGS_OBSERVED) {
		gstr(g, "args_observed");
		yajl_gen_bool(g, 1);
	}
	if (op->nkwargs) {
		gstr(g, "kwargs");
		yajl_gen_map_open(g);
		for (size_t i = 0; i < op->nkwargs; i++) {
			gstr(g, op->kwargs[i].name);
			gen_value(g, &op->kwargs[i].value, 0);
		}
		yajl_gen_map_close(g);
	}
	if (op->flags & TLC_OP_HAS_OUTPUTS)
		gen_values(g, "outputs", op->outputs, op->noutputs);
	gen_optional(g, op);
	yajl_gen_map_close(g);
}

static yajl_gen gen_new(tlc_sb *sb)
{
	yajl_gen g = yajl_gen_alloc(NULL);
	if (g)
		yajl_gen_config(g, yajl_gen_print_callback, sb_print, (void *)sb);
	return g;
}

void tlc_op_recorder_on_op(const tlc_op *op, const tlc_op_row *row, void *payload)
{
	(void)row;
	tlc_op_recorder *r = payload;
	if (!r || r->failed)
		return;
	yajl_gen g = gen_new(&r->lines);
	if (!g) {
		r->failed = 1;
		return;
	}
	gen_op(g, op);
	yajl_gen_free(g);
	tlc_sb__putc(&r->lines, '\n');
	r->failed |= r->lines.failed;
	r->nops++;
}

/* One op as an op log v1 line, for writers that stream (the Python capture
 * library writes its log while the ops run, so nothing grows with them). */
int tlc_oplog_write_op(FILE *out, const tlc_op *op)
{
	if (!out || !op || !op->name)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass a stream and an op with a name",
		                      "tlc_oplog_write_op: NULL argument");
	tlc_sb sb;
	tlc_sb__init(&sb, tlc_alloc__default());
	yajl_gen g = gen_new(&sb);
	if (!g)
		return tlc_error__oom();
	gen_op(g, op);
	yajl_gen_free(g);
	tlc_sb__putc(&sb, '\n');
	int rc = 0;
	if (sb.failed)
		rc = tlc_error__oom();
	else if (fwrite(sb.ptr, 1, sb.len, out) != sb.len || ferror(out))
		rc = tlc_error__set(TLC_EIO, "io_error", "check the output path and free space",
		                    "writing an op log line failed");
	tlc_sb__free(&sb);
	return rc;
}

/* ---------------------------------------------------------------- */
/* the saved-join object (canonical: same bytes from the same join)  */
/* ---------------------------------------------------------------- */

static void gen_phases(yajl_gen g, const tlc_join *j)
{
	gstr(g, "phases");
	yajl_gen_array_open(g);
	for (int p = 0; p < TLC_PHASE_COUNT; p++) {
		yajl_gen_array_open(g);
		yajl_gen_integer(g, (long long)j->phases[p].attributed_ns);
		yajl_gen_integer(g, (long long)j->phases[p].ambiguous_ns);
		yajl_gen_integer(g, (long long)j->phases[p].unphased_ns);
		yajl_gen_bool(g, j->phases[p].passed);
		yajl_gen_array_close(g);
	}
	yajl_gen_array_close(g);
}

/* Per launch: [status, owner] with owner the op id (attributed), the group
 * (ambiguous) or -1. */
static void gen_attribution(yajl_gen g, const tlc_join *j, const tlc_eval *ev)
{
	gstr(g, "attribution");
	yajl_gen_array_open(g);
	for (size_t i = 0; i < j->nlaunches; i++) {
		tlc_join_launch l_ = tlc_join__launch(j, i);
		const tlc_join_launch *l = &l_;
		yajl_gen_array_open(g);
		gstr(g, tlc_attribution_name(l->status));
		yajl_gen_integer(g, l->op_row >= 0 ? (long long)tlc_rows__id(tlc_eval__rows(ev), (size_t)l->op_row)
		                                   : (long long)l->group);
		yajl_gen_array_close(g);
	}
	yajl_gen_array_close(g);
}

static void gen_saved(yajl_gen g, const tlc_join *j, const tlc_eval *ev)
{
	const tlc_join_summary *s = &j->sum;
	yajl_gen_map_open(g);
	gstr(g, SAVED_KEY);
	yajl_gen_map_open(g);
	gkint(g, "version", 1);
	gkstr(g, "state", tlc_join_state_name(s->state));
	gkstr(g, "path", tlc_join_path_name(s->path));
	gkint(g, "gate_permille", s->gate_permille);
	gstr(g, "gate_passed");
	yajl_gen_bool(g, s->gate_passed);
	gkint(g, "launches", (int64_t)s->launches);
	gkint(g, "kernels", (int64_t)s->kernels);
	gkint(g, "kernels_attributed", (int64_t)s->kernels_attributed);
	gkint(g, "kernels_ambiguous", (int64_t)s->kernels_ambiguous);
	gkint(g, "kernels_unattributed", (int64_t)s->kernels_unattributed);
	gkint(g, "kernel_ns", s->kernel_ns);
	gkint(g, "kernel_attributed_ns", s->kernel_attributed_ns);
	gkint(g, "busy_ns", s->busy_ns);
	gen_phases(g, j);
	gen_attribution(g, j, ev);
	yajl_gen_map_close(g);
	yajl_gen_map_close(g);
}

static int saved_text(tlc_sb *sb, const tlc_join *j, const tlc_eval *ev)
{
	yajl_gen g = gen_new(sb);
	if (!g)
		return tlc_error__oom();
	gen_saved(g, j, ev);
	yajl_gen_free(g);
	return sb->failed ? tlc_error__oom() : 0;
}

/* ---------------------------------------------------------------- */
/* writing                                                           */
/* ---------------------------------------------------------------- */

static const char *device_kind_name(tlc_device_kind k)
{
	static const char *names[] = { "kernel", "memcpy", "memset", "runtime", "runtime" };
	return (unsigned)k <= TLC_DEVICE_DRIVER ? names[k] : "kernel";
}

/* Runtime and driver calls are both written as op log "runtime" records:
 * the join treats the two kinds alike. */
static void gen_device(yajl_gen g, const tlc_device_record *d)
{
	int host = d->kind == TLC_DEVICE_RUNTIME || d->kind == TLC_DEVICE_DRIVER;
	yajl_gen_map_open(g);
	gkstr(g, "kind", device_kind_name(d->kind));
	if (d->name)
		gkstr(g, "name", d->name);
	else if (d->kind != TLC_DEVICE_MEMCPY && d->kind != TLC_DEVICE_MEMSET)
		gkstr(g, "name", "");
	if (!host) {
		gkint(g, "device", d->device);
		gkint(g, "stream", d->stream);
	}
	if (host && (d->flags & TLC_DEV_HAS_THREAD))
		gkint(g, "thread", d->thread);
	gkint(g, "start_ns", d->start_ns);
	gkint(g, "end_ns", d->end_ns);
	if (d->flags & TLC_DEV_HAS_CORRELATION)
		gkint(g, "correlation", d->correlation);
	if (d->flags & TLC_DEV_HAS_EXTERNAL_ID)
		gkint(g, "external_id", d->external_id);
	if (d->flags & TLC_DEV_HAS_BYTES)
		gkint(g, "bytes", d->bytes);
	if (d->flags & TLC_DEV_HAS_GRAPH_NODE) {
		if (d->graph_id >= 0)
			gkint(g, "graph_id", d->graph_id);
		gkint(g, "graph_node", d->graph_node);
	}
	yajl_gen_map_close(g);
}

/* A graph node record (docs/oplog-v1.md, "graph_node"): without it a
 * re-read could not pair its replays with their capture. */
static void gen_graph_node(yajl_gen g, const tlc_graph_node *n)
{
	yajl_gen_map_open(g);
	gkstr(g, "kind", "graph_node");
	if (n->graph_id >= 0)
		gkint(g, "graph_id", n->graph_id);
	gkint(g, "node", n->node);
	if (n->correlation >= 0)
		gkint(g, "correlation", n->correlation);
	else
		gkint(g, "original", n->original);
	yajl_gen_map_close(g);
}

/* The device profiler's statement, when the input made one: without it a
 * re-read would give another availability state (docs/oplog-v1.md). */
static void gen_profiler(yajl_gen g, const tlc_profiler_status *p)
{
	yajl_gen_map_open(g);
	gkstr(g, "kind", "device_profiler");
	if (p->source)
		gkstr(g, "source", p->source);
	gkstr(g, "status", tlc_profiler_state_name(p->state));
	if (p->message)
		gkstr(g, "message", p->message);
	yajl_gen_map_close(g);
}

/* A phase annotation (docs/oplog-v1.md, "annotation"): without it a re-read
 * would count the unattributed launches inside it against every phase. */
static void gen_annotation(yajl_gen g, const tlc_eval__annotation *a)
{
	yajl_gen_map_open(g);
	gkstr(g, "kind", "annotation");
	gkstr(g, "phase", tlc_phase_name(a->phase));
	gkint(g, "thread", a->thread);
	gkint(g, "start_ns", a->start_ns);
	gkint(g, "end_ns", a->end_ns);
	yajl_gen_map_close(g);
}

static int write_header(FILE *out, const tlc_join *j, const tlc_eval *ev, tlc_sb *sb)
{
	const tlc_input_info *info = tlc_eval_info(ev);
	yajl_gen g = gen_new(sb);
	if (!g)
		return tlc_error__oom();
	yajl_gen_map_open(g);
	gkstr(g, "format", "tlcost-oplog");
	gkint(g, "version", 1);
	gkstr(g, "producer", "tlcost join --save " TLC_VERSION_STRING);
	if (info && info->model)
		gkstr(g, "model", info->model);
	if (info && info->device)
		gkstr(g, "device", info->device);
	gstr(g, "meta");
	gen_saved(g, j, ev);
	yajl_gen_map_close(g);
	yajl_gen_free(g);
	if (sb->failed)
		return tlc_error__oom();
	fputs(tlc_sb__str(sb), out);
	fputc('\n', out);
	return 0;
}

int tlc_join_save(FILE *out, const tlc_join *j, const tlc_eval *ev, const tlc_op_recorder *rec)
{
	if (!out || !j || !ev || !rec)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass a stream, a join, its eval and "
		                      "the recorder used while reading", "tlc_join_save: NULL argument");
	if (rec->failed || rec->nops != tlc_eval_op_count(ev))
		return tlc_error__set(TLC_ESTATE, "saved_join_incomplete",
		                      "read the input with tlc_op_recorder_on_op as the eval's on_op "
		                      "(and enough memory), then save",
		                      "the recorder holds %" PRIu64 " of %zu ops", rec->nops,
		                      tlc_eval_op_count(ev));
	tlc_sb sb;
	tlc_sb__init(&sb, tlc_eval__allocator(ev));
	int rc = write_header(out, j, ev, &sb);
	if (rc == 0)
		fwrite(rec->lines.ptr ? rec->lines.ptr : "", 1, rec->lines.len, out);
	const tlc_profiler_status *ps = tlc_eval_profiler_status(ev);
	size_t first = ps->state == TLC_PROFILER_UNKNOWN ? 1 : 0, ndev = tlc_eval__device_count(ev);
	size_t nann = tlc_eval__annotation_count(ev), ngn = tlc_eval_graph_node_count(ev);
	for (size_t i = first; rc == 0 && i < ndev + 1 + nann + ngn; i++) {
		tlc_sb__reset(&sb);
		yajl_gen g = gen_new(&sb);
		if (!g) {
			rc = tlc_error__oom();
			break;
		}
		if (i == 0)
			gen_profiler(g, ps); /* line 0: the statement, as the CUPTI module writes it */
		else if (i > ndev + nann) {
			tlc_graph_node n = TLC_GRAPH_NODE_INIT;
			tlc_eval_graph_node_get(ev, i - 1 - ndev - nann, &n);
			gen_graph_node(g, &n);
		} else if (i > ndev)
			gen_annotation(g, tlc_eval__annotation_at(ev, i - 1 - ndev));
		else {
			tlc_device_record d = tlc_eval__device(ev, i - 1);
			gen_device(g, &d);
		}
		yajl_gen_free(g);
		if (sb.failed)
			rc = tlc_error__oom();
		else
			fprintf(out, "%s\n", tlc_sb__str(&sb));
	}
	tlc_sb__free(&sb);
	return tlc_textw__finish(out, rc);
}

/* ---------------------------------------------------------------- */
/* verification                                                      */
/* ---------------------------------------------------------------- */

/* The key whose value holds byte `at` of a compact JSON text: the last
 * `"name":` before it. */
static void key_before(char *buf, size_t cap, const char *text, size_t at)
{
	snprintf(buf, cap, "(start)");
	for (size_t i = at; i > 0; i--) {
		if (text[i - 1] == ':' && i >= 2 && text[i - 2] == '"') {
			size_t e = i - 2, b = e;
			while (b > 0 && text[b - 1] != '"')
				b--;
			snprintf(buf, cap, "%.*s", (int)(e - b), text + b);
			return;
		}
	}
}

int tlc_join_verify_saved(int *is_saved, const tlc_join *j, const tlc_eval *ev)
{
	if (!is_saved || !j || !ev)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass is_saved, a join and its eval",
		                      "tlc_join_verify_saved: NULL argument");
	const tlc_input_info *info = tlc_eval_info(ev);
	const char *meta = info ? info->meta_json : NULL;
	*is_saved = meta && strstr(meta, "\"" SAVED_KEY "\"") != NULL;
	if (!*is_saved)
		return 0;
	tlc_sb want;
	tlc_sb__init(&want, tlc_eval__allocator(ev));
	int rc = saved_text(&want, j, ev);
	if (rc == 0) {
		const char *w = tlc_sb__str(&want);
		size_t k = 0;
		while (w[k] && w[k] == meta[k])
			k++;
		if (w[k] || meta[k]) {
			char key[64];
			key_before(key, sizeof key, w, k);
			rc = tlc_error__set(TLC_EINPUT, "saved_join_mismatch",
			                    "the file's stored attribution or gate verdict was altered: "
			                    "re-create it with `tlcost join --save` from the original input",
			                    "saved join: field '%s' disagrees with what its own records give "
			                    "(stored and re-derived differ at byte %zu of the meta object)",
			                    key, k);
		}
	}
	tlc_sb__free(&want);
	return rc;
}

int tlc_join_save_file(const char *path, const tlc_join *j, const tlc_eval *ev,
                       const tlc_op_recorder *rec)
{
	tlc_outfile *o;
	FILE *f;
	int rc = tlc_outfile_open(&o, &f, path);
	if (rc < 0)
		return rc;
	rc = tlc_join_save(f, j, ev, rec);
	if (rc < 0) {
		tlc_outfile_abort(o);
		return rc;
	}
	return tlc_outfile_commit(o);
}
