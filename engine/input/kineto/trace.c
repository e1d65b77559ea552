/* Streaming reader for PyTorch profiler (Kineto) Chrome-trace JSON.
 *
 * yajl delivers tokens; a small state machine keeps only what the join and
 * the FLOP rules need: device and runtime records are pushed to the eval as
 * soon as their event closes, cpu_op events are kept as compact records
 * (engine/input/kineto/trace.h) and pushed once the whole trace is read, because nesting
 * and phases need every op of a thread. The JSON text itself is never kept.
 * Both `{"traceEvents":[...]}` and bare-array files are read. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>
#include "eval.h"
#include "instream.h"
#include "json_fast.h"
#include "jsontext.h"
#include "trace.h"

typedef enum ekey {
	EK_OTHER = 0, EK_PH, EK_CAT, EK_NAME, EK_PID, EK_TID, EK_TS, EK_DUR, EK_ARGS
} ekey;

typedef enum akey {
	AK_OTHER = 0, AK_EXT, AK_CORR, AK_BYTES, AK_DEVICE, AK_STREAM,
	AK_DIMS, AK_TYPES, AK_STRIDES, AK_CONCRETE, AK_COMM
} akey;

typedef enum ecat {
	EC_UNKNOWN = 0, EC_CPU_OP, EC_KERNEL, EC_MEMCPY, EC_MEMSET, EC_RUNTIME,
	EC_DRIVER, EC_USER_ANNOTATION, EC_STRUCTURAL,
	EC_ACCEL_DEVICE, /* device events of an accelerator whose records are not read */
	EC_RANGE         /* CUPTI range-profiler counter ranges: no kernel activity */
} ecat;

/* Presence bits of the current event. */
#define EV_PID    (1u << 0)
#define EV_TID    (1u << 1)
#define EV_TS     (1u << 2)
#define EV_DUR    (1u << 3)
#define EV_EXT    (1u << 4)
#define EV_CORR   (1u << 5)
#define EV_BYTES  (1u << 6)
#define EV_DEVICE (1u << 7)
#define EV_STREAM (1u << 8)
#define EV_NAME   (1u << 9)
#define EV_CAT    (1u << 10)
#define EV_MODULE (1u << 11) /* a python_function frame named "nn.Module: ..." */

typedef struct event {
	unsigned have;
	char ph;
	ecat cat;
	char cat_name[32];
	const char *name;
	size_t name_len;
	int64_t pid, tid, ts, dur, ext, corr, bytes, device, stream;
	tlc_tnode *dims, *types, *strides, *concrete;
} event;

typedef struct skip_count {
	char kind[40];
	uint64_t n;
} skip_count;

typedef struct reader {
	tlc_eval *ev;
	const tlc_allocator *a;
	const char *file;
	yajl_handle h;
	int depth;
	int root_map;          /* root is an object */
	int events_depth;      /* depth of the events array once open, else -1 */
	int ev_depth;          /* depth inside the current event map, else -1 */
	int args_depth;        /* depth inside its args map, else -1 */
	int devprops_depth;    /* depth of the deviceProperties array, else -1 */
	ekey ev_key;
	akey args_key;
	int root_key;          /* 1 traceEvents, 2 deviceProperties, 3 distributedInfo, 0 other */
	unsigned root_seen;    /* bit per root_key seen: each may come once */
	int devname_key;
	char device[128];
	/* capture of a small value (Input Dims ...) */
	tlc_tnode **cap_slot;
	tlc_tnode *cap_cur;    /* open array */
	int cap_base;          /* depth before the capture's root array opened */
	int cap_skip;          /* maps open inside a capture */
	size_t cap_nodes;
	tlc_arena scratch;     /* per-event strings and captured nodes */
	tlc_tnode *node_next;  /* captured nodes are taken from runs of NODE_RUN */
	size_t node_left;      /* ... in scratch: what is left of the current one */
	event cur;
	uint64_t nevents;
	uint64_t n_cat, n_x_nocat; /* events with a category; complete events without */
	tlc_trace_ops ops;
	skip_count skips[16];
	size_t nskips, last_skip;
	/* error raised in a callback */
	int err;
	const tlc_input_limits *lim; /* held-record bounds (0 fields: none) */
	uint64_t held_bytes;         /* what the kept cpu_ops take */
	const char *err_code;
	char err_msg[200];
	/* position of the current chunk */
	uint64_t line, col;
	tlc_jsontext text; /* the strings of what yajl is handed (jsontext.h) */
} reader;

/* ---------------------------------------------------------------- */
/* errors                                                            */
/* ---------------------------------------------------------------- */

static int fail(reader *r, int klass, const char *code, const char *msg)
{
	if (!r->err) {
		r->err = klass;
		r->err_code = code;
		snprintf(r->err_msg, sizeof r->err_msg, "%s", msg);
	}
	return 0; /* cancels the parse */
}

static int fail_field(reader *r, const char *what)
{
	char msg[200];
	snprintf(msg, sizeof msg, "trace event %llu: %s",
	         (unsigned long long)r->nevents + 1, what);
	return fail(r, TLC_EINPUT, "trace_field_invalid", msg);
}

static const char *remedy_for(const char *code)
{
	if (strcmp(code, "trace_truncated") == 0)
		return "the file ends early: re-export the trace (torch.profiler "
		       "export_chrome_trace) and check the copy is complete";
	if (strcmp(code, "trace_not_kineto") == 0)
		return "this export has no event categories, so ops, kernels and runtime calls "
		       "cannot be told apart: profile with torch.profiler.profile(activities=[CPU, "
		       "CUDA], record_shapes=True) and export_chrome_trace, or capture an op log "
		       "(`python3 -m tlcost capture --model MODEL --out FILE`, docs/capture.md)";
	if (strcmp(code, "held_records_exceeded") == 0 || strcmp(code, "held_bytes_exceeded") == 0)
		return "if the trace is genuine, raise the limit with the option named (or "
		       "tlc_input_limits); otherwise the trace is hostile: it holds more ops "
		       "than a real capture";
	if (strcmp(code, "trace_string_nul") == 0)
		return "remove the \\u0000 from the string: a name that holds a NUL cannot be "
		       "carried whole (it would be cut at the NUL); fix the writer of the trace";
	if (strcmp(code, "trace_utf8_invalid") == 0)
		return "write the trace as UTF-8 (RFC 8259), and a \\u escape of a surrogate only "
		       "as a pair (\\ud83d\\ude00): fix the writer of the trace; tlcost does not "
		       "replace what it cannot read, since a replaced name is another op";
	if (strcmp(code, "trace_duplicate_key") == 0)
		return "keep one of the two (a trace holds one traceEvents array, one "
		       "deviceProperties, one distributedInfo): the file was probably joined "
		       "or edited; re-export it with torch.profiler (prof.export_chrome_trace), "
		       "or merge the events into one traceEvents array";
	if (strcmp(code, "trace_field_invalid") == 0)
		return "the event does not follow the Chrome-trace format the PyTorch "
		       "profiler writes; fix or remove that event and retry";
	return "the file is not Chrome-trace JSON: export it with "
	       "torch.profiler (prof.export_chrome_trace) and retry";
}

/* Advances line/column over bytes that were parsed. */
static void advance_pos(reader *r, const unsigned char *p, size_t n)
{
	const unsigned char *end = p + n, *nl;
	while ((nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		r->line++;
		r->col = 1;
		p = nl + 1;
	}
	r->col += (uint64_t)(end - p);
}

static int raise_at(reader *r, const unsigned char *chunk, size_t consumed)
{
	advance_pos(r, chunk, consumed);
	int klass = r->err ? r->err : TLC_EPARSE;
	const char *code = r->err ? r->err_code : "trace_parse_error";
	return tlc_error__set_pos(klass, code, r->file, r->line, r->col,
	                          remedy_for(code), "%s", r->err_msg);
}

/* ---------------------------------------------------------------- */
/* numbers                                                           */
/* ---------------------------------------------------------------- */

/* Splits "[-]digits[.digits][e[+-]digits]" into mantissa digits and a
 * decimal exponent. */
static int split_decimal(const char *s, size_t n, int *neg, const char **dig,
                         size_t *ndig, const char **frac, size_t *nfrac, long *exp10)
{
	size_t i = 0;
	*neg = 0;
	if (i < n && s[i] == '-')
		*neg = 1, i++;
	*dig = s + i;
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	*ndig = (size_t)(s + i - *dig);
	*frac = s + i;
	*nfrac = 0;
	if (i < n && s[i] == '.') {
		*frac = s + ++i;
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
		*nfrac = (size_t)(s + i - *frac);
	}
	*exp10 = 0;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		int64_t e;
		if (++i >= n || tlc_trace__parse_i64(&e, s + i, n - i) < 0 || e > 1000 || e < -1000)
			return -1;
		*exp10 = (long)e;
		i = n;
	}
	return (i == n && *ndig + *nfrac > 0) ? 0 : -1;
}

/* The common form "123.456" (no sign, no exponent) in one pass; -1 when
 * the text needs the general path. */
static int us_to_ns_fast(int64_t *out, const char *s, size_t n)
{
	uint64_t v = 0;
	size_t i = 0;
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
		if (v > UINT64_MAX / 100000) /* stay far from overflow; the slow path decides */
			return -1;
		v = v * 10 + (unsigned)(s[i] - '0');
	}
	if (i == 0)
		return -1;
	unsigned frac = 0, k = 0;
	if (i < n && s[i] == '.') {
		for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			if (k < 3)
				frac = frac * 10 + (unsigned)(s[i] - '0'), k++;
	}
	if (i != n)
		return -1;
	for (; k < 3; k++)
		frac *= 10;
	if (v > ((uint64_t)INT64_MAX - frac) / 1000)
		return -1;
	*out = (int64_t)(v * 1000 + frac);
	return 0;
}

int tlc_trace__us_to_ns(int64_t *out, const char *s, size_t n)
{
	if (us_to_ns_fast(out, s, n) == 0)
		return 0;
	int neg;
	const char *dig, *frac;
	size_t ndig, nfrac;
	long e;
	if (split_decimal(s, n, &neg, &dig, &ndig, &frac, &nfrac, &e) < 0)
		return -1;
	/* value = 0.dig frac * 10^(ndig + e) microseconds; nanoseconds shift 3 */
	long point = (long)ndig + e + 3; /* digits before the ns point */
	uint64_t v = 0;
	for (long k = 0; k < point; k++) {
		unsigned d = 0;
		if ((size_t)k < ndig)
			d = (unsigned)(dig[k] - '0');
		else if ((size_t)k - ndig < nfrac)
			d = (unsigned)(frac[k - (long)ndig] - '0');
		if (v > ((uint64_t)INT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = neg ? -(int64_t)v : (int64_t)v;
	return 0;
}

/* A pid/tid: an integer, or a string ending in one ("stream 7"). */
static int id_from_string(int64_t *out, const char *s, size_t n)
{
	size_t j = n;
	while (j > 0 && s[j - 1] >= '0' && s[j - 1] <= '9')
		j--;
	if (j == n || n - j > 18)
		return -1;
	return tlc_trace__parse_i64(out, s + j, n - j);
}

/* ---------------------------------------------------------------- */
/* event dispatch                                                    */
/* ---------------------------------------------------------------- */

static ecat cat_of(const char *s, size_t n)
{
	static const struct { const char *name; size_t len; ecat c; } map[] = {
#define C(lit, c) { lit, sizeof(lit) - 1, c }
		C("cpu_op", EC_CPU_OP), C("Operator", EC_CPU_OP),
		C("kernel", EC_KERNEL), C("Kernel", EC_KERNEL),
		C("gpu_memcpy", EC_MEMCPY), C("Memcpy", EC_MEMCPY),
		C("gpu_memset", EC_MEMSET), C("Memset", EC_MEMSET),
		C("cuda_runtime", EC_RUNTIME), C("Runtime", EC_RUNTIME),
		C("cuda_driver", EC_DRIVER),
		C("user_annotation", EC_USER_ANNOTATION),
		C("python_function", EC_STRUCTURAL), C("gpu_user_annotation", EC_STRUCTURAL),
		C("ac2g", EC_STRUCTURAL), C("Trace", EC_STRUCTURAL), C("overhead", EC_STRUCTURAL),
		C("mtia_ccp_events", EC_ACCEL_DEVICE), C("cuda_profiler_range", EC_RANGE),
#undef C
	};
	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) /* (length, first byte, then all) */
		if (map[i].len == n && map[i].name[0] == s[0] && memcmp(map[i].name, s, n) == 0)
			return map[i].c;
	return EC_UNKNOWN;
}

static void count_skip(reader *r, const char *kind)
{
	if (r->nskips && strcmp(r->skips[r->last_skip].kind, kind) == 0) {
		r->skips[r->last_skip].n++;
		return;
	}
	for (size_t i = 0; i < r->nskips; i++)
		if (strcmp(r->skips[i].kind, kind) == 0) {
			r->skips[i].n++;
			r->last_skip = i;
			return;
		}
	/* the last slot collects every kind beyond the first 15 */
	size_t i = r->nskips < 15 ? r->nskips++ : 15;
	if (i == 15) {
		r->nskips = 16;
		snprintf(r->skips[15].kind, sizeof r->skips[15].kind, "other");
	} else {
		snprintf(r->skips[i].kind, sizeof r->skips[i].kind, "%s", kind);
	}
	r->skips[i].n++;
}

static int need_timing(reader *r)
{
	event *e = &r->cur;
	if (!(e->have & EV_TS))
		return fail_field(r, "field 'ts' missing or not a number");
	if (!(e->have & EV_DUR) || e->dur < 0)
		return fail_field(r, "field 'dur' missing, not a number or negative");
	if (e->ts > INT64_MAX - e->dur)
		return fail_field(r, "'ts' + 'dur' out of range");
	if (!(e->have & EV_PID) || !(e->have & EV_TID))
		return fail_field(r, "field 'pid' or 'tid' missing or not an id");
	return 1;
}

static int emit_device(reader *r, tlc_device_kind kind)
{
	event *e = &r->cur;
	if (!need_timing(r))
		return 0;
	tlc_device_record d;
	memset(&d, 0, sizeof d);
	d.size = sizeof d;
	d.kind = kind;
	d.name = (e->have & EV_NAME) ? e->name : NULL;
	d.start_ns = e->ts;
	d.end_ns = e->ts + e->dur;
	if (kind == TLC_DEVICE_RUNTIME || kind == TLC_DEVICE_DRIVER) {
		d.device = e->pid;
		d.thread = e->tid;
		d.flags |= TLC_DEV_HAS_THREAD;
		if (e->have & EV_EXT) {
			d.external_id = e->ext;
			d.flags |= TLC_DEV_HAS_EXTERNAL_ID;
		}
	} else {
		d.device = (e->have & EV_DEVICE) ? e->device : e->pid;
		d.stream = (e->have & EV_STREAM) ? e->stream : e->tid;
	}
	if (e->have & EV_CORR) {
		d.correlation = e->corr;
		d.flags |= TLC_DEV_HAS_CORRELATION;
	}
	if (e->have & EV_BYTES) {
		d.bytes = e->bytes;
		d.flags |= TLC_DEV_HAS_BYTES;
	}
	int rc = tlc_eval_push_device(r->ev, &d);
	if (rc < 0)
		return fail(r, rc, tlc_error_last()->code, tlc_error_last()->message);
	return 1;
}

static int keep_span(reader *r)
{
	event *e = &r->cur;
	if (!need_timing(r))
		return 0;
	tlc_trace_ops *t = &r->ops;
	if (tlc_alloc__grow(r->a, (void **)&t->opt, &t->optcap, t->nopt + 1, sizeof *t->opt) < 0)
		return fail(r, TLC_ENOMEM, "out_of_memory", "memory allocation failed");
	t->opt[t->nopt++] = (tlc_trace_span){ e->ts, e->ts + e->dur, e->tid };
	return 1;
}

/* A `ProfilerStep#N` annotation: the step `tlcost steps` splits (N is
 * what follows '#', -1 when that is not a number). */
static int keep_step(reader *r)
{
	event *e = &r->cur;
	/* an untimed step marker is only counted, as before steps were read */
	if (!(e->have & EV_TS) || !(e->have & EV_DUR) || e->dur < 0 || e->ts > INT64_MAX - e->dur)
		return 1;
	char *end = NULL;
	long long n = strtoll(e->name + 13, &end, 10);
	if (!end || end == e->name + 13 || *end)
		n = -1;
	if (tlc_eval__add_step(r->ev, (int64_t)n, e->ts, e->ts + e->dur) < 0)
		return fail(r, TLC_ENOMEM, "out_of_memory", "memory allocation failed");
	return 1;
}

/* A range-profiler record stands for one profiled kernel launch (its
 * correlation names the launching call) but carries counters, not the
 * kernel's execution time: kept for the device-work accounting only. */
static int keep_range(reader *r)
{
	tlc_trace_ops *t = &r->ops;
	if (tlc_alloc__grow(r->a, (void **)&t->ranges, &t->rangecap, t->nranges + 1,
	                    sizeof *t->ranges) < 0)
		return fail(r, TLC_ENOMEM, "out_of_memory", "memory allocation failed");
	t->ranges[t->nranges++] = (r->cur.have & EV_CORR) ? r->cur.corr : -1;
	return 1;
}

/* An nn.Module frame: kept when it is timed like an op (a frame without
 * ts/dur/tid is only counted, as every python_function is). */
static int keep_module(reader *r)
{
	event *e = &r->cur;
	unsigned need = EV_TS | EV_DUR | EV_TID | EV_NAME;
	if ((e->have & need) != need || e->dur < 0 || e->ts > INT64_MAX - e->dur)
		return 1;
	tlc_trace_ops *t = &r->ops;
	if (tlc_alloc__grow(r->a, (void **)&t->mods, &t->modcap, t->nmods + 1, sizeof *t->mods) < 0)
		return fail(r, TLC_ENOMEM, "out_of_memory", "memory allocation failed");
	const char *nm = e->name + 11; /* (a frame's name may hold a NUL: it ends there) */
	const char *in = tlc_intern__get(tlc_eval__intern(r->ev), nm, strlen(nm));
	if (!in)
		return fail(r, TLC_ENOMEM, "out_of_memory", "memory allocation failed");
	t->mods[t->nmods++] = (tlc_trace_module){ e->ts, e->ts + e->dur, e->tid, in, NULL };
	return 1;
}

/* An nccl:* annotation: where a collective's NCCL call ran (trace_comms.c). */
static int keep_comm_annot(reader *r)
{
	event *e = &r->cur;
	unsigned need = EV_TS | EV_DUR | EV_PID | EV_TID | EV_NAME;
	if ((e->have & need) != need || e->dur < 0 || e->ts > INT64_MAX - e->dur)
		return 1; /* counted as a skipped user_annotation, nothing to place */
	if (tlc_trace_comms__keep_annot(&r->ops.comms, e->name, e->ts, e->ts + e->dur, e->pid,
	                                e->tid, e->dims, e->types) < 0)
		return fail(r, TLC_ENOMEM, "out_of_memory", "memory allocation failed");
	return 1;
}

/* A kernel event carrying collective fields (newer Kineto copies them from
 * the record_param_comms op that launched it): kept as facts for that
 * collective (trace_comms.c), then emitted as any kernel. */
static int device_event(reader *r, tlc_device_kind kind)
{
	event *e = &r->cur;
	tlc_trace_comms *c = &r->ops.comms;
	int rc = 0;
	int launch = 0;
	if (kind == TLC_DEVICE_KERNEL && c->cur.have)
		rc = tlc_trace_comms__keep_kernel(c, (e->have & EV_EXT) ? e->ext : -1,
		                                  (e->have & EV_CORR) ? e->corr : -1);
	else if ((kind == TLC_DEVICE_RUNTIME || kind == TLC_DEVICE_DRIVER) &&
	         (e->have & EV_CORR) && (e->have & EV_NAME) && strstr(e->name, "aunch") &&
	         (e->have & (EV_TS | EV_DUR | EV_PID | EV_TID)) == (EV_TS | EV_DUR | EV_PID | EV_TID) &&
	         e->dur >= 0 && e->ts <= INT64_MAX - e->dur)
		launch = 1; /* its record, pushed next (ts and dur are valid), is marked */
	if (rc < 0)
		return fail(r, TLC_ENOMEM, "out_of_memory", "memory allocation failed");
	rc = emit_device(r, kind);
	if (rc > 0 && launch && tlc_trace_comms__keep_launch(c, r->ev) < 0)
		return fail(r, TLC_ENOMEM, "out_of_memory", "memory allocation failed");
	return rc;
}

/* Every cpu_op is held until the end of the file (nesting and phases need
 * them all): the count and the bytes they take are bounded. 1, or 0 with
 * the error pending. */
static int held_within_limits(reader *r, const tlc_trace_op *o)
{
	char msg[200];
	r->held_bytes += sizeof *o + o->args_len;
	const tlc_input_limits *l = r->lim;
	if (l && l->max_held_records && r->ops.nops > l->max_held_records) {
		snprintf(msg, sizeof msg, "more than %llu cpu_op events to hold to the end of the "
		         "trace (limit max-held-records, --max-held-records)",
		         (unsigned long long)l->max_held_records);
		return fail(r, TLC_EINPUT, "held_records_exceeded", msg);
	}
	if (l && l->max_held_bytes && r->held_bytes > l->max_held_bytes) {
		snprintf(msg, sizeof msg, "held cpu_op events take more than %llu bytes (limit "
		         "max-held-bytes, --max-held-bytes)",
		         (unsigned long long)l->max_held_bytes);
		return fail(r, TLC_EINPUT, "held_bytes_exceeded", msg);
	}
	return 1;
}

static int keep_op(reader *r)
{
	event *e = &r->cur;
	if (!need_timing(r))
		return 0;
	if (!(e->have & EV_NAME) || !e->name[0])
		return fail_field(r, "cpu_op without a 'name'");
	tlc_trace_ops *t = &r->ops;
	if (tlc_alloc__grow(r->a, (void **)&t->ops, &t->cap, t->nops + 1, sizeof *t->ops) < 0)
		return fail(r, TLC_ENOMEM, "out_of_memory", "memory allocation failed");
	tlc_trace_op *o = &t->ops[t->nops];
	memset(o, 0, sizeof *o);
	const char *why = NULL;
	tlc_arena__reset(&t->scratch);
	int rc = tlc_trace__build_encoded(&o->args, &o->args_len, t, e->dims, e->types,
	                                  e->strides, e->concrete, &why);
	if (rc == TLC_ENOMEM)
		return fail(r, rc, "out_of_memory", "memory allocation failed");
	if (rc < 0)
		return fail_field(r, why);
	/* (a cpu_op's name holds no NUL: has_nul refused it) */
	o->name = tlc_intern__get(tlc_eval__intern(r->ev), e->name, e->name_len);
	if (!o->name)
		return fail(r, TLC_ENOMEM, "out_of_memory", "memory allocation failed");
	o->start_ns = e->ts;
	o->end_ns = e->ts + e->dur;
	o->pid = e->pid;
	o->tid = e->tid;
	if (e->have & EV_EXT) {
		o->ext = e->ext;
		o->flags |= TLC_TOP_HAS_EXT;
	}
	if (strncmp(o->name, "autograd::engine::evaluate_function:", 36) == 0)
		o->flags |= TLC_TOP_AUTOGRAD_FN;
	else if (tlc_trace__is_node_name(o->name))
		o->flags |= TLC_TOP_AUTOGRAD_NODE;
	else if (strcmp(o->name, "torch::autograd::AccumulateGrad") == 0)
		o->flags |= TLC_TOP_ACCUMULATE;
	if (tlc_trace_comms__is_row(&t->comms, o->name) &&
	    tlc_trace_comms__keep_row(&o->comm, &t->comms) < 0)
		return fail(r, TLC_ENOMEM, "out_of_memory", "memory allocation failed");
	if (tlc_eval__source_keys_wanted(r->ev)) {
		if (tlc_alloc__grow(r->a, (void **)&t->evno, &t->evcap, t->nops + 1,
		                    sizeof *t->evno) < 0)
			return fail(r, TLC_ENOMEM, "out_of_memory", "memory allocation failed");
		t->evno[t->nops] = r->nevents; /* (counted when the event closes) */
	}
	t->nops++;
	return held_within_limits(r, o);
}

/* Record-function annotations that the 2021 profiler wrote as Operator
 * rows and later versions write as user_annotation: they mark steps and
 * phases and own no compute, so they are annotations in every generation
 * (docs/kineto.md, "Trace generations"). */
static int is_annotation_row(const char *name)
{
#define P(lit) { lit, sizeof(lit) - 1 }
	static const struct { const char *s; size_t n; } prefixes[] = {
		P("ProfilerStep#"), P("Optimizer.step#"), P("Optimizer.zero_grad#"),
		P("enumerate(DataLoader)#"),
	};
#undef P
	if (name[0] != 'P' && name[0] != 'O' && name[0] != 'e') /* (most ops: aten::...) */
		return 0;
	for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
		if (strncmp(name, prefixes[i].s, prefixes[i].n) == 0)
			return 1;
	return 0;
}

static int annotation(reader *r)
{
	event *e = &r->cur;
	count_skip(r, "user_annotation");
	if ((e->have & EV_NAME) && strncmp(e->name, "Optimizer.step#", 15) == 0)
		return keep_span(r);
	if ((e->have & EV_NAME) && strncmp(e->name, "ProfilerStep#", 13) == 0)
		return keep_step(r);
	if ((e->have & EV_NAME) && strncmp(e->name, "nccl:", 5) == 0)
		return keep_comm_annot(r);
	return 1;
}

static int finish_event(reader *r)
{
	event *e = &r->cur;
	if (e->have & EV_CAT)
		r->n_cat++;
	else if (e->ph == 'X')
		r->n_x_nocat++;
	if (e->ph == 'C' && strcmp(e->cat_name, "tlcost") == 0)
		return 1; /* a counter `tlcost annotate` wrote: its own figures, nothing to read */
	if (e->ph != 'X') {
		count_skip(r, e->cat != EC_UNKNOWN || e->cat_name[0] ? e->cat_name : "untyped");
		return 1;
	}
	switch (e->cat) {
	case EC_CPU_OP:
		if ((e->have & EV_NAME) && is_annotation_row(e->name))
			return annotation(r);
		return keep_op(r);
	case EC_KERNEL: return device_event(r, TLC_DEVICE_KERNEL);
	case EC_MEMCPY: return emit_device(r, TLC_DEVICE_MEMCPY);
	case EC_MEMSET: return emit_device(r, TLC_DEVICE_MEMSET);
	case EC_RUNTIME: return device_event(r, TLC_DEVICE_RUNTIME);
	case EC_DRIVER: return device_event(r, TLC_DEVICE_DRIVER);
	case EC_USER_ANNOTATION:
		return annotation(r);
	case EC_RANGE:
		count_skip(r, "cuda_profiler_range");
		return keep_range(r);
	case EC_ACCEL_DEVICE:
		count_skip(r, e->cat_name);
		if (!r->ops.unread_device++)
			snprintf(r->ops.unread_kind, sizeof r->ops.unread_kind, "%s", e->cat_name);
		return 1;
	default:
		count_skip(r, e->cat_name[0] ? e->cat_name : "untyped");
		return (e->have & EV_MODULE) ? keep_module(r) : 1;
	}
}

static void begin_event(reader *r)
{
	tlc_arena__reset(&r->scratch);
	r->node_left = 0;
	/* every field cleared as memset would, but the bytes of cat_name past
	 * its NUL (read as a C string only): a memset of the whole event
	 * (rep stos) was most of cb_start_map's time */
	event *e = &r->cur;
	e->have = 0;
	e->ph = 0;
	e->cat = EC_UNKNOWN;
	e->cat_name[0] = '\0';
	e->name = NULL;
	e->name_len = 0;
	e->pid = e->tid = e->ts = e->dur = e->ext = e->corr = e->bytes = e->device = e->stream = 0;
	e->dims = e->types = e->strides = e->concrete = NULL;
	r->cap_nodes = 0;
	tlc_trace_comms__begin(&r->ops.comms);
}

/* ---------------------------------------------------------------- */
/* captured values                                                   */
/* ---------------------------------------------------------------- */

#define NODE_RUN 64

static tlc_tnode *new_node(reader *r, tlc_tnode_kind kind, const char *s, size_t n)
{
	if (++r->cap_nodes > 4 * TLC_TRACE_MAX_ARGS * 4) {
		fail_field(r, "argument lists too large");
		return NULL;
	}
	if (!r->node_left) { /* (one arena call per NODE_RUN nodes, not per node) */
		r->node_next = tlc_arena__alloc(&r->scratch, NODE_RUN * sizeof *r->node_next);
		if (!r->node_next) {
			fail(r, TLC_ENOMEM, "out_of_memory", "memory allocation failed");
			return NULL;
		}
		r->node_left = NODE_RUN;
	}
	tlc_tnode *x = r->node_next++;
	r->node_left--;
	*x = (tlc_tnode){ .kind = kind };
	/* integers (the bulk: shape entries) are kept as values, not text */
	if (kind == TLC_TNODE_NUMBER && tlc_trace__parse_i64(&x->ival, s, n) == 0) {
		x->ival_ok = 1;
		return x;
	}
	if (s) {
		char *c = tlc_arena__strndup(&r->scratch, s, n);
		if (!c) {
			fail(r, TLC_ENOMEM, "out_of_memory", "memory allocation failed");
			return NULL;
		}
		x->text = c;
		x->len = n;
	}
	return x;
}

static void attach(reader *r, tlc_tnode *x)
{
	tlc_tnode *p = r->cap_cur;
	x->up = p;
	if (p->last)
		p->last->next = x;
	else
		p->first = x;
	p->last = x;
	p->n++;
}

static int cap_scalar(reader *r, tlc_tnode_kind kind, int b, const char *s, size_t n)
{
	if (r->cap_skip)
		return 1;
	tlc_tnode *x = new_node(r, kind, s, n);
	if (!x)
		return 0;
	x->boolean = b;
	attach(r, x);
	return 1;
}

/* ---------------------------------------------------------------- */
/* scalar values outside captures                                    */
/* ---------------------------------------------------------------- */

static int set_int(reader *r, int64_t *dst, unsigned bit, const char *s, size_t n,
                   const char *field)
{
	if (tlc_trace__parse_i64(dst, s, n) < 0) {
		char msg[120];
		snprintf(msg, sizeof msg, "field '%s' is not an integer", field);
		return fail_field(r, msg);
	}
	r->cur.have |= bit;
	return 1;
}

static int ev_number(reader *r, const char *s, size_t n)
{
	event *e = &r->cur;
	switch (r->ev_key) {
	case EK_PID: return set_int(r, &e->pid, EV_PID, s, n, "pid");
	case EK_TID: return set_int(r, &e->tid, EV_TID, s, n, "tid");
	case EK_TS:
		if (tlc_trace__us_to_ns(&e->ts, s, n) < 0)
			return fail_field(r, "field 'ts' is not a time in microseconds");
		e->have |= EV_TS;
		return 1;
	case EK_DUR:
		if (tlc_trace__us_to_ns(&e->dur, s, n) < 0)
			return fail_field(r, "field 'dur' is not a time in microseconds");
		e->have |= EV_DUR;
		return 1;
	default: return 1;
	}
}

static int args_number(reader *r, const char *s, size_t n)
{
	event *e = &r->cur;
	switch (r->args_key) {
	case AK_EXT: return set_int(r, &e->ext, EV_EXT, s, n, "External id");
	case AK_CORR: return set_int(r, &e->corr, EV_CORR, s, n, "correlation");
	case AK_BYTES:
		if (!set_int(r, &e->bytes, EV_BYTES, s, n, "bytes"))
			return 0;
		return e->bytes >= 0 ? 1 : fail_field(r, "field 'bytes' is negative");
	case AK_DEVICE: return set_int(r, &e->device, EV_DEVICE, s, n, "device");
	case AK_STREAM: return set_int(r, &e->stream, EV_STREAM, s, n, "stream");
	default: return 1;
	}
}

static int ev_string(reader *r, const char *s, size_t n)
{
	event *e = &r->cur;
	switch (r->ev_key) {
	case EK_PH:
		e->ph = n == 1 ? s[0] : '?';
		return 1;
	case EK_CAT:
		e->cat = cat_of(s, n);
		e->have |= EV_CAT;
		memcpy(e->cat_name, s, n < 31 ? n : 31);
		e->cat_name[n < 31 ? n : 31] = '\0';
		if ((e->have & EV_NAME) && strncmp(e->name, "nn.Module: ", 11) == 0 && e->name[11] &&
		    strcmp(e->cat_name, "python_function") == 0)
			e->have |= EV_MODULE; /* the name came first */
		return 1;
	case EK_NAME:
		/* Python frames and flows need no name: skip the copy when the
		 * category came first (as Kineto writes it) */
		if ((e->have & EV_CAT) && e->cat == EC_STRUCTURAL) {
			/* except module frames: they give the cost tree its modules */
			if (!(n > 11 && memcmp(s, "nn.Module: ", 11) == 0 && n < 4096 &&
			      strcmp(e->cat_name, "python_function") == 0))
				return 1;
			e->have |= EV_MODULE;
		}
		e->name = tlc_arena__strndup(&r->scratch, s, n);
		if (!e->name)
			return fail(r, TLC_ENOMEM, "out_of_memory", "memory allocation failed");
		e->name_len = n;
		e->have |= EV_NAME;
		return 1;
	case EK_PID:
		if (id_from_string(&e->pid, s, n) == 0)
			e->have |= EV_PID;
		return 1;
	case EK_TID:
		if (id_from_string(&e->tid, s, n) == 0)
			e->have |= EV_TID;
		return 1;
	case EK_TS: case EK_DUR:
		return fail_field(r, "field 'ts' or 'dur' is a string, not a number");
	default: return 1;
	}
}

/* ---------------------------------------------------------------- */
/* yajl callbacks                                                    */
/* ---------------------------------------------------------------- */

static int on_scalar(reader *r, tlc_tnode_kind kind, int b, const char *s, size_t n)
{
	if (r->err)
		return 0;
	if (n > TLC_TRACE_MAX_STRING)
		return fail_field(r, "string longer than 1 MiB");
	if (r->cap_cur)
		return cap_scalar(r, kind, b, s, n);
	if (r->ops.comms.dist_depth > 0) {
		tlc_trace_comms__dist_scalar(&r->ops.comms, kind == TLC_TNODE_STRING, s, n);
		return 1;
	}
	if (r->args_depth >= 0 && r->depth == r->args_depth && r->args_key == AK_COMM) {
		const char *why = NULL;
		if (kind != TLC_TNODE_NUMBER && kind != TLC_TNODE_STRING)
			return 1;
		if (tlc_trace_comms__value(&r->ops.comms, kind == TLC_TNODE_STRING, s, n, &why) < 0)
			return fail_field(r, why);
		return 1;
	}
	if (r->ev_depth >= 0 && r->depth == r->ev_depth) {
		if (kind == TLC_TNODE_NUMBER)
			return ev_number(r, s, n);
		if (kind == TLC_TNODE_STRING)
			return ev_string(r, s, n);
		if (r->ev_key == EK_TS || r->ev_key == EK_DUR)
			return fail_field(r, "field 'ts' or 'dur' is not a number");
		return 1;
	}
	if (r->args_depth >= 0 && r->depth == r->args_depth && kind == TLC_TNODE_NUMBER)
		return args_number(r, s, n);
	if (r->devprops_depth >= 0 && r->depth == r->devprops_depth + 1 && r->devname_key &&
	    kind == TLC_TNODE_STRING && !r->device[0])
		snprintf(r->device, sizeof r->device, "%.*s", (int)(n < 127 ? n : 127), s);
	return 1;
}

static int cb_null(void *ctx) { return on_scalar(ctx, TLC_TNODE_NULL, 0, NULL, 0); }
static int cb_bool(void *ctx, int b) { return on_scalar(ctx, TLC_TNODE_BOOL, b, NULL, 0); }
static int cb_number(void *ctx, const char *s, size_t n)
{
	return on_scalar(ctx, TLC_TNODE_NUMBER, 0, s, n);
}
static int skipping(const reader *r);

/* A string with an embedded NUL would be cut where C strings end:
 * refused (in events the reader keeps). 1 when refused. */
static int has_nul(reader *r, const unsigned char *s, size_t n)
{
	const unsigned char *z = memchr(s, 0, n);
	if (!z || skipping(r))
		return 0;
	char msg[200];
	snprintf(msg, sizeof msg, "trace event %llu: a string holds a NUL character (\\u0000) "
	         "at character %zu of %zu", (unsigned long long)r->nevents + 1,
	         (size_t)(z - s) + 1, n);
	fail(r, TLC_EINPUT, "trace_string_nul", msg);
	return 1;
}

static int cb_string(void *ctx, const unsigned char *s, size_t n)
{
	if (has_nul(ctx, s, n))
		return 0;
	return on_scalar(ctx, TLC_TNODE_STRING, 0, (const char *)s, n);
}

/* (the fast path's strings without escapes: no NUL to look for) */
static int cb_plain_string(void *ctx, const unsigned char *s, size_t n)
{
	return on_scalar(ctx, TLC_TNODE_STRING, 0, (const char *)s, n);
}

static int key_is(const unsigned char *s, size_t n, const char *k)
{
	return strlen(k) == n && memcmp(s, k, n) == 0;
}

#define KEY(lit) (n == sizeof(lit) - 1 && memcmp(s, lit, n) == 0)

/* Keys are told apart by length first: most keys of a trace are rejected
 * without a byte compare. */
static ekey ev_key_of(const unsigned char *s, size_t n)
{
	switch (n) {
	case 2: return KEY("ph") ? EK_PH : KEY("ts") ? EK_TS : EK_OTHER;
	case 3: return KEY("cat") ? EK_CAT : KEY("pid") ? EK_PID : KEY("tid") ? EK_TID :
	               KEY("dur") ? EK_DUR : EK_OTHER;
	case 4: return KEY("name") ? EK_NAME : KEY("args") ? EK_ARGS : EK_OTHER;
	default: return EK_OTHER;
	}
}

static akey args_key_of(const unsigned char *s, size_t n)
{
	switch (n) {
	case 5: return KEY("bytes") ? AK_BYTES : AK_OTHER;
	case 6: return KEY("device") ? AK_DEVICE : KEY("stream") ? AK_STREAM : AK_OTHER;
	case 10: /* "Input dims": the spelling of some 2021 (torch 1.8) traces */
		return KEY("Input Dims") || KEY("Input dims") ? AK_DIMS :
		       KEY("Input type") ? AK_TYPES : AK_OTHER;
	case 11: return KEY("External id") || KEY("external id") /* 2021 runtime/kernel rows */
	                ? AK_EXT : KEY("correlation") ? AK_CORR : AK_OTHER;
	case 13: return KEY("Input Strides") ? AK_STRIDES : AK_OTHER;
	case 15: return KEY("Concrete Inputs") ? AK_CONCRETE : AK_OTHER;
	default: return AK_OTHER;
	}
}

#undef KEY

/* The current event is a Python frame, flow or marker whose category came
 * first: the rest of it is only counted, so its keys are not looked at. */
static int skipping(const reader *r)
{
	return (r->cur.have & EV_CAT) && r->cur.cat == EC_STRUCTURAL && !(r->cur.have & EV_MODULE);
}

/* A key of the document's object. The keys the reader reads come once: a
 * second traceEvents array would be read too (its events counted twice),
 * a second deviceProperties or distributedInfo would be half read. */
static int root_key(reader *r, const unsigned char *s, size_t n)
{
	static const char *const names[] = { "", "traceEvents", "deviceProperties",
	                                     "distributedInfo" };
	r->root_key = 0;
	for (int k = 1; k < 4; k++)
		if (key_is(s, n, names[k]))
			r->root_key = k;
	if (!r->root_key)
		return 1;
	if (r->root_seen & (1u << r->root_key)) {
		char msg[200];
		snprintf(msg, sizeof msg, "the key '%s' comes twice in the document's object (the "
		         "second one ends here): which one holds the trace is not known",
		         names[r->root_key]);
		return fail(r, TLC_EINPUT, "trace_duplicate_key", msg);
	}
	r->root_seen |= 1u << r->root_key;
	return 1;
}

static int cb_key(void *ctx, const unsigned char *s, size_t n)
{
	reader *r = ctx;
	if (r->err)
		return 0;
	if (r->cap_cur)
		return 1;
	if (r->ops.comms.dist_depth > 0) {
		tlc_trace_comms__dist_key(&r->ops.comms, s, n);
		return 1;
	}
	/* 2 (the fast path's quiet value, json_fast.h): the value of a key
	 * that is neither read nor the events' args changes nothing here but
	 * through the checks of every value (on_scalar, has_nul, the depth) */
	if (r->ev_depth >= 0 && r->depth == r->ev_depth) {
		r->ev_key = !skipping(r) ? ev_key_of(s, n)
		          : (n == 4 && memcmp(s, "name", 4) == 0 &&
		             strcmp(r->cur.cat_name, "python_function") == 0) ? EK_NAME /* nn.Module? */
		          : EK_OTHER;
		return r->ev_key == EK_OTHER ? 2 : 1;
	} else if (r->args_depth >= 0 && r->depth == r->args_depth) {
		r->args_key = skipping(r) ? AK_OTHER : args_key_of(s, n);
		if (r->args_key == AK_OTHER && !skipping(r) && tlc_trace_comms__key(&r->ops.comms, s, n))
			r->args_key = AK_COMM;
		return r->args_key == AK_OTHER ? 2 : 1;
	} else if (r->depth == 1 && r->root_map)
		return root_key(r, s, n);
	else if (r->devprops_depth >= 0 && r->depth == r->devprops_depth + 1)
		r->devname_key = key_is(s, n, "name");
	return 1;
}

static int open_container(reader *r)
{
	if (++r->depth > TLC_TRACE_MAX_DEPTH)
		return fail(r, TLC_EINPUT, "trace_field_invalid",
		            "JSON nesting deeper than 64 levels");
	return 1;
}

static int cb_start_map(void *ctx)
{
	reader *r = ctx;
	if (r->err)
		return 0;
	if (r->depth == 0)
		r->root_map = 1;
	if (r->ops.comms.dist_depth > 0 ||
	    (r->depth == 1 && r->root_map && r->root_key == 3 && r->events_depth < 0)) {
		tlc_trace_comms__dist_open(&r->ops.comms);
		r->root_key = 0;
		return open_container(r);
	}
	if (r->cap_cur) {
		if (!r->cap_skip && !cap_scalar(r, TLC_TNODE_MAP, 0, NULL, 0))
			return 0;
		r->cap_skip++;
	} else if (r->events_depth >= 0 && r->depth == r->events_depth) {
		begin_event(r);
		r->ev_depth = r->depth + 1;
		r->ev_key = EK_OTHER;
	} else if (r->ev_depth >= 0 && r->depth == r->ev_depth && r->ev_key == EK_ARGS) {
		r->args_depth = r->depth + 1;
		r->args_key = AK_OTHER;
	}
	return open_container(r);
}

static tlc_tnode **capture_slot(reader *r)
{
	switch (r->args_key) {
	case AK_DIMS: return &r->cur.dims;
	case AK_TYPES: return &r->cur.types;
	case AK_STRIDES: return &r->cur.strides;
	case AK_CONCRETE: return &r->cur.concrete;
	default: return NULL;
	}
}

static int cb_start_array(void *ctx)
{
	reader *r = ctx;
	if (r->err)
		return 0;
	if (r->ops.comms.dist_depth > 0) {
		tlc_trace_comms__dist_open(&r->ops.comms);
		return open_container(r);
	}
	if (r->cap_cur) {
		if (!r->cap_skip) {
			tlc_tnode *x = new_node(r, TLC_TNODE_ARRAY, NULL, 0);
			if (!x)
				return 0;
			attach(r, x);
			r->cap_cur = x;
		}
	} else if (r->depth == 0) {
		r->events_depth = 1;
	} else if (r->depth == 1 && r->root_map && r->root_key == 1) {
		r->events_depth = 2;
	} else if (r->depth == 1 && r->root_map && r->root_key == 2) {
		r->devprops_depth = 2;
	} else if (r->args_depth >= 0 && r->depth == r->args_depth && capture_slot(r)) {
		tlc_tnode *x = new_node(r, TLC_TNODE_ARRAY, NULL, 0);
		if (!x)
			return 0;
		*capture_slot(r) = x;
		r->cap_cur = x;
		r->cap_base = r->depth;
	}
	return open_container(r);
}

static int cb_end_map(void *ctx)
{
	reader *r = ctx;
	if (r->err)
		return 0;
	r->depth--;
	if (r->ops.comms.dist_depth > 0) {
		tlc_trace_comms__dist_close(&r->ops.comms);
		return 1;
	}
	if (r->cap_cur) {
		r->cap_skip--;
		return 1;
	}
	if (r->args_depth >= 0 && r->depth + 1 == r->args_depth) {
		r->args_depth = -1;
	} else if (r->ev_depth >= 0 && r->depth + 1 == r->ev_depth) {
		r->ev_depth = -1;
		r->args_depth = -1;
		int ok = finish_event(r);
		r->nevents++;
		return ok;
	}
	return 1;
}

static int cb_end_array(void *ctx)
{
	reader *r = ctx;
	if (r->err)
		return 0;
	r->depth--;
	if (r->ops.comms.dist_depth > 0) {
		tlc_trace_comms__dist_close(&r->ops.comms);
		return 1;
	}
	if (r->cap_cur && !r->cap_skip) {
		r->cap_cur = r->depth == r->cap_base ? NULL : r->cap_cur->up;
	} else if (r->depth + 1 == r->events_depth) {
		r->events_depth = -2; /* closed: later arrays are not events */
	} else if (r->depth + 1 == r->devprops_depth) {
		r->devprops_depth = -1;
	}
	return 1;
}

static const yajl_callbacks callbacks = {
	cb_null, cb_bool, NULL, NULL, cb_number, cb_string,
	cb_start_map, cb_key, cb_end_map, cb_start_array, cb_end_array
};

/* ---------------------------------------------------------------- */
/* allocator glue                                                    */
/* ---------------------------------------------------------------- */

static void *y_malloc(void *ctx, size_t n) { return tlc_alloc__malloc(ctx, n); }
static void *y_realloc(void *ctx, void *p, size_t n) { return tlc_alloc__realloc(ctx, p, n); }
static void y_free(void *ctx, void *p) { tlc_alloc__free(ctx, p); }

static int reader_init(reader *r, tlc_eval *ev, const char *file)
{
	memset(r, 0, sizeof *r);
	r->ev = ev;
	r->a = tlc_eval__allocator(ev);
	r->file = file;
	r->events_depth = r->ev_depth = r->args_depth = r->devprops_depth = -1;
	r->line = r->col = 1;
	tlc_arena__init(&r->scratch, r->a, 16 * 1024);
	tlc_trace__ops_init(&r->ops, r->a);
	r->ops.intern = tlc_eval__intern(ev);
	yajl_alloc_funcs af = { y_malloc, y_realloc, y_free, (void *)r->a };
	r->h = yajl_alloc(&callbacks, &af, r);
	return r->h ? 0 : tlc_error__oom();
}

static void reader_free(reader *r)
{
	if (r->h)
		yajl_free(r->h);
	tlc_arena__free(&r->scratch);
	tlc_trace__ops_free(&r->ops);
}

/* Hands one chunk to yajl; 0 or a negative code with the error set at its
 * position. */
static int feed_yajl(reader *r, const unsigned char *p, size_t n)
{
	yajl_status st = yajl_parse(r->h, p, n);
	if (st == yajl_status_ok) {
		advance_pos(r, p, n);
		return 0;
	}
	size_t used = yajl_get_bytes_consumed(r->h);
	if (!r->err) {
		unsigned char *m = yajl_get_error(r->h, 0, p, n);
		char msg[160];
		snprintf(msg, sizeof msg, "%s", m ? (const char *)m : "invalid JSON");
		for (size_t k = strlen(msg); k > 0 && (msg[k - 1] == '\n' || msg[k - 1] == ' '); k--)
			msg[k - 1] = '\0';
		fail(r, TLC_EPARSE, "trace_parse_error", msg);
		if (m)
			yajl_free_error(r->h, m);
	}
	return raise_at(r, p, used > n ? n : used);
}

/* The string bytes at p[at] are not well-formed (jsontext.h): yajl reads
 * the bytes before them (its errors there come first), then the text is
 * refused where the offending sequence or escape begins. */
static int ill_formed(reader *r, const unsigned char *p, size_t at)
{
	int rc = feed_yajl(r, p, at);
	if (rc < 0)
		return rc;
	char why[160], msg[200];
	tlc_jsontext__describe(&r->text, why, sizeof why);
	if (r->ev_depth >= 0)
		snprintf(msg, sizeof msg, "trace event %llu: %s", (unsigned long long)r->nevents + 1,
		         why);
	else
		snprintf(msg, sizeof msg, "%s", why);
	fail(r, TLC_EINPUT, "trace_utf8_invalid", msg);
	r->col -= tlc_jsontext__back(&r->text); /* (the sequence lies on this line) */
	return raise_at(r, (const unsigned char *)"", 0);
}

/* Feeds one chunk to yajl, its strings checked first. */
static int feed(reader *r, const unsigned char *p, size_t n)
{
	size_t ok = tlc_jsontext__scan(&r->text, p, n);
	return ok < n ? ill_formed(r, p, ok) : feed_yajl(r, p, n);
}

static int finish_parse(reader *r)
{
	yajl_status st = yajl_complete_parse(r->h);
	if (st != yajl_status_ok || r->depth != 0) {
		if (r->err)
			return raise_at(r, (const unsigned char *)"", 0);
		fail(r, TLC_EPARSE, r->depth > 0 || r->nevents == 0 ? "trace_truncated" : "trace_parse_error",
		     r->depth > 0 ? "the JSON ends inside an open array or object: nothing after "
		                    "this point was read" : "the file holds no JSON value");
		return raise_at(r, (const unsigned char *)"", 0);
	}
	if (r->events_depth == -1 && r->root_map) {
		fail(r, TLC_EINPUT, "trace_field_invalid",
		     "no 'traceEvents' array: not a Chrome-trace file");
		return raise_at(r, (const unsigned char *)"", 0);
	}
	if (r->n_cat == 0 && r->n_x_nocat > 0) {
		char msg[200];
		snprintf(msg, sizeof msg, "%llu complete events and none has a 'cat' (category): the "
		         "legacy torch.autograd.profiler export, not a Kineto trace",
		         (unsigned long long)r->n_x_nocat);
		fail(r, TLC_EINPUT, "trace_not_kineto", msg);
		return raise_at(r, (const unsigned char *)"", 0);
	}
	return 0;
}

/* A trace of the CUPTI range profiler holds counter ranges and no kernel
 * activity record: the device profiler ran, but in a mode that records no
 * device time, which is not "it ran and recorded no launch" (the join says
 * so, quoting this statement). */
static int range_profiler_status(reader *r)
{
	if (!r->ops.nranges)
		return 0;
	for (size_t i = 0; i < tlc_eval__device_count(r->ev); i++)
		if (tlc_eval__device(r->ev, i).kind == TLC_DEVICE_KERNEL)
			return 0; /* kernel activity was recorded too: it is joined */
	char msg[300];
	snprintf(msg, sizeof msg, "per-kernel activity records were not collected: the trace holds "
	         "%zu cuda_profiler_range records (performance-counter ranges; the range profiler "
	         "replays each kernel to read its counters, so they carry no execution time)",
	         r->ops.nranges);
	tlc_profiler_status st = { sizeof st, TLC_PROFILER_UNAVAILABLE, "CUPTI range profiler", msg };
	return tlc_eval_set_profiler_status(r->ev, &st);
}

/* After the parse: skip counts, header facts, then the ops. */
static int reader_commit(reader *r)
{
	for (size_t i = 0; i < r->nskips; i++)
		for (uint64_t k = 0; k < r->skips[i].n; k++)
			tlc_eval_count_skipped(r->ev, r->skips[i].kind);
	tlc_input_info info = TLC_INPUT_INFO_INIT;
	info.format = "kineto-trace";
	info.producer = "PyTorch profiler (Kineto)";
	info.device = r->device[0] ? r->device : NULL;
	info.params = info.tokens = -1;
	int rc = tlc_eval_set_info(r->ev, &info);
	if (rc < 0)
		return rc;
	rc = tlc_trace_comms__publish(&r->ops.comms, r->ev);
	if (rc < 0)
		return rc;
	rc = tlc_trace__push_ops(&r->ops, r->ev);
	tlc_trace__release_args(&r->ops); /* pushed: the eval has what it keeps */
	if (rc == 0)
		rc = range_profiler_status(r);
	if (rc == 0)
		rc = tlc_trace__account_device(&r->ops, r->ev);
	if (rc < 0)
		tlc_error__locate(r->file, 0, 0);
	return rc;
}

/* ---------------------------------------------------------------- */
/* sources                                                           */
/* ---------------------------------------------------------------- */

/* Pulls every chunk of the stream through the parser. */
static int read_stream(reader *r, tlc_instream *in)
{
	const unsigned char *p;
	size_t n;
	for (;;) {
		int rc = tlc_instream__read(in, &p, &n);
		if (rc < 0) {
			tlc_error__locate(r->file, r->line, r->col);
			return rc;
		}
		if (n == 0)
			return 0;
		rc = feed(r, p, n);
		if (rc < 0)
			return rc;
	}
}

/* ---------------------------------------------------------------- */
/* the fast path: whole events read by simdjson (json_fast.h)        */
/* ---------------------------------------------------------------- */

/* The stream's bytes pass through a window. yajl reads the document around
 * the traceEvents array; inside it, runs of whole events go to
 * tlc_json_trace__batch, which delivers their events to the same callbacks,
 * and yajl is handed "null" in their place (once for any number of them in
 * a row: "[null" or "..., null" is where yajl stands after them), while the
 * position advances over their real bytes. An event the fast path does not
 * read whole is read by yajl from its real bytes (with the separators
 * before it), after the callbacks' per-event state is reset: an error
 * inside it is yajl's, at yajl's position. Every byte is thus either read
 * by yajl or part of an event the fast path read whole, and yajl is only
 * ever handed "null" where it stands before an array value. */

#define WIN_FILL (64u * 1024u) /* pending bytes gathered before a run (a chunk: in cache) */
#define WIN_SLACK (1u + TLC_JSON_FAST_PADDING)
#define WIN_MORE 1                        /* step result: the window needs bytes */

typedef struct fastwin {
	tlc_json_trace *j;
	unsigned char *buf; /* the data start at buf + 1 (the run's '[' goes before) */
	size_t cap;         /* bytes at buf + 1, WIN_SLACK of them beyond the data */
	size_t lo, hi;      /* the bytes not yet read: data[lo..hi) */
	size_t pos;         /* line/column counted through data[pos] */
	int synced;         /* yajl stands in the events array, between events */
	int need_comma;     /* ... after an event (else right after its '[') */
	int null_fed;       /* yajl was handed "null" for the events before lo */
	int single;         /* one event per run (after a decline), until refilled */
	int eof;
	size_t fill;        /* bytes gathered before a step (WIN_FILL) */
	size_t slice;       /* bytes appended at a time (0: a whole chunk) */
	size_t longest;     /* an event longer than this is read by yajl */
	int in_str, esc;    /* win_yajl's scan at lo: inside a string, after a '\\' */
	int s_str, s_esc, s_bare; /* slice_cut's scan: string, escape, bare token */
} fastwin;

static unsigned char *win_data(const fastwin *w) { return w->buf + 1; }

/* Hands data[from..to) to yajl, with the position first advanced over the
 * events read before from. */
static int win_feed(reader *r, fastwin *w, size_t from, size_t to)
{
	unsigned char *d = win_data(w);
	if (w->pos < from)
		advance_pos(r, d + w->pos, from - w->pos);
	w->pos = to;
	w->null_fed = 0;
	return to > from ? feed(r, d + from, to - from) : 0;
}

/* The callbacks' state between two events, as before the event whose
 * events the fast path delivered in part (they have no side effects
 * before the event's end). */
static void reset_between(reader *r)
{
	r->depth = r->events_depth;
	r->ev_depth = r->args_depth = -1;
	r->cap_cur = NULL;
	r->cap_skip = 0;
	r->err = 0;
	r->err_code = NULL;
	r->err_msg[0] = '\0';
}

/* Outside the events array (or lost in it): yajl reads up to the next '['
 * or '}' outside a string (or the window's end, which is between tokens:
 * yajl sees every token whole, as the instream hands them out, so its
 * positions stay its own); when that byte opened the events array or closed
 * an event, yajl stands between events again. */
static int win_yajl(reader *r, fastwin *w)
{
	unsigned char *d = win_data(w);
	size_t e = w->lo;
	if (r->events_depth == -2) { /* closed: the rest is yajl's */
		e = w->hi;
	} else {
		int in_str = w->in_str, esc = w->esc;
		for (; e < w->hi; e++) {
			unsigned char c = d[e];
			if (esc)
				esc = 0;
			else if (in_str)
				esc = c == '\\', in_str = c != '"';
			else if (c == '"')
				in_str = 1;
			else if (c == '[' || c == '}') {
				e++;
				break;
			}
		}
		w->in_str = in_str;
		w->esc = esc;
	}
	int was_open = r->events_depth >= 0;
	uint64_t nev = r->nevents;
	int rc = win_feed(r, w, w->lo, e);
	w->lo = e;
	if (rc < 0)
		return rc;
	if (r->events_depth >= 0 && r->depth == r->events_depth && r->ev_depth < 0) {
		if (d[e - 1] == '[' && !was_open)
			w->synced = 1, w->need_comma = 0;
		else if (d[e - 1] == '}' && r->nevents > nev)
			w->synced = 1, w->need_comma = 1;
	}
	return 0;
}

static int json_ws(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

static const tlc_json_trace_events fast_callbacks = {
	cb_null, cb_bool, cb_number, cb_string, cb_start_map, cb_key, cb_end_map,
	cb_start_array, cb_end_array, TLC_TRACE_MAX_STRING, cb_plain_string
};

/* An event at data[s] the fast path did not read: yajl reads it, with the
 * separators before it. */
static int win_decline(reader *r, fastwin *w, size_t s)
{
	unsigned char *d = win_data(w);
	size_t ext = tlc_json_trace__extent(d + s, w->hi - s);
	if (ext > w->hi - s) { /* not whole in the window */
		if (!w->eof && w->hi - s < w->longest)
			return WIN_MORE;
		w->synced = 0; /* yajl reads on and finds the next event's end */
		return 0;
	}
	reset_between(r);
	uint64_t nev = r->nevents;
	int rc = win_feed(r, w, w->lo, s + ext);
	w->lo = s + ext;
	if (rc < 0)
		return rc;
	w->need_comma = 1;
	w->synced = r->depth == r->events_depth && r->ev_depth < 0 && r->nevents == nev + 1;
	w->single = 1;
	return 0;
}

static size_t skip_ws(const unsigned char *d, size_t s, size_t hi)
{
	while (s < hi && json_ws(d[s]))
		s++;
	return s;
}

/* The window ends in separators (whitespace, a comma): yajl takes them
 * now, so that the window neither keeps nor scans them again when more
 * bytes come (whitespace of any length costs linear time, bounded memory).
 * After the comma, yajl stands before an event, as right after the '['. */
static int win_separators(reader *r, fastwin *w, size_t s, int comma)
{
	if (w->eof)
		return w->synced = 0;
	int rc = win_feed(r, w, w->lo, s);
	w->lo = s;
	if (comma)
		w->need_comma = 0;
	return rc < 0 ? rc : WIN_MORE;
}

/* Between events: the separators, then a run of events from the '{'. */
static int win_fast(reader *r, fastwin *w)
{
	unsigned char *d = win_data(w);
	size_t s = skip_ws(d, w->lo, w->hi);
	int comma = 0;
	w->in_str = w->esc = 0; /* (lo is between events: for win_yajl, if it reads on) */
	if (w->need_comma && s < w->hi) {
		if (d[s] != ',') {
			w->synced = 0;
			return 0;
		}
		comma = 1;
		s = skip_ws(d, s + 1, w->hi);
	}
	if (s >= w->hi)
		return win_separators(r, w, s, comma);
	if (d[s] != '{') {
		w->synced = 0;
		return 0;
	}
	size_t len = w->hi - s;
	if (w->single) {
		len = tlc_json_trace__extent(d + s, w->hi - s);
		if (len > w->hi - s)
			return win_decline(r, w, s);
	}
	tlc_json_trace_run run;
	tlc_json_trace__batch(w->j, d + s, len, w->cap - s, &fast_callbacks, r, &run);
	if (run.status == TLC_JSON_TRACE_CANCELED) { /* an event's end failed: yajl */
		/* would stop right after its '}' */
		size_t end = s + run.failed_end;
		advance_pos(r, d + w->pos, end - w->pos);
		w->pos = end;
		return raise_at(r, (const unsigned char *)"", 0);
	}
	if (run.status == TLC_JSON_TRACE_STOPPED)
		reset_between(r); /* before yajl reads on */
	if (run.accepted) {
		if (!w->null_fed) {
			int rc = win_feed(r, w, w->lo, s);
			if (rc < 0)
				return rc;
			/* (yajl stands before a value here: it cannot refuse; the
			 * position counts the real bytes, not these) */
			uint64_t line = r->line, col = r->col;
			rc = feed(r, (const unsigned char *)"null", 4);
			r->line = line;
			r->col = col;
			if (rc < 0)
				return rc;
			w->null_fed = 1;
		}
		w->lo = s + run.end;
		w->need_comma = 1;
	}
	return run.accepted ? 0 : win_decline(r, w, s);
}

/* Reads the window on until it needs more bytes. */
static int win_step(reader *r, fastwin *w)
{
	while (w->lo < w->hi) {
		int rc = w->synced ? win_fast(r, w) : win_yajl(r, w);
		if (rc)
			return rc;
	}
	return 0;
}

/* Appends p[0..n) after the bytes not yet read (moved to the front). */
static int win_append(reader *r, fastwin *w, const unsigned char *p, size_t n)
{
	unsigned char *d = win_data(w);
	if (w->pos < w->lo)
		advance_pos(r, d + w->pos, w->lo - w->pos);
	memmove(d, d + w->lo, w->hi - w->lo);
	w->hi -= w->lo;
	w->lo = w->pos = 0;
	w->single = 0;
	if (w->hi + n + WIN_SLACK > w->cap) {
		size_t cap = w->cap;
		while (cap < w->hi + n + WIN_SLACK)
			cap *= 2;
		unsigned char *b = tlc_alloc__realloc(r->a, w->buf, cap + 1);
		if (!b)
			return tlc_error__oom();
		w->buf = b;
		w->cap = cap;
		d = win_data(w);
	}
	memcpy(d + w->hi, p, n);
	w->hi += n;
	memset(d + w->hi, 0, WIN_SLACK); /* what simdjson reads past a run is initialised */
	return 0;
}

/* Where a slice of p[0..n) of about w->slice bytes may end: not inside a
 * string, nor right after a byte of a number or literal (yajl's lexer
 * waits for the byte after those, and a cut there moves the position of an
 * error that follows). The scan goes on over every byte handed out. */
static size_t slice_cut(fastwin *w, const unsigned char *p, size_t n)
{
	size_t i = 0;
	for (; i < n; i++) {
		unsigned char c = p[i];
		int bare = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		           c == '-' || c == '+' || c == '.';
		if (i >= w->slice && !w->s_str && !w->s_bare)
			break;
		if (w->s_esc)
			w->s_esc = 0, bare = 0;
		else if (w->s_str)
			w->s_esc = c == '\\', w->s_str = c != '"', bare = 0;
		else if (c == '"')
			w->s_str = 1, bare = 0;
		w->s_bare = bare;
	}
	return i;
}

/* The window's bytes in slices of w->slice (0: whole chunks, which end
 * between tokens), until w->fill are pending, or twice what was pending
 * when a step needs more. */
static int read_fast(reader *r, tlc_instream *in, fastwin *w)
{
	const unsigned char *p = NULL;
	size_t n = 0, want = w->fill;
	for (;;) {
		while (!w->eof && w->hi - w->lo < want) {
			int rc = 0;
			if (n == 0 && (rc = tlc_instream__read(in, &p, &n)) < 0) {
				/* yajl reads what came before, as it would have */
				int yr = win_feed(r, w, w->lo, w->hi);
				if (yr < 0)
					return yr;
				tlc_error__locate(r->file, r->line, r->col);
				return rc;
			}
			if (n == 0) {
				w->eof = 1;
				break;
			}
			size_t take = w->slice ? slice_cut(w, p, n) : n;
			if ((rc = win_append(r, w, p, take)) < 0)
				return rc;
			p += take;
			n -= take;
		}
		int rc = win_step(r, w);
		if (rc < 0)
			return rc;
		/* an event not yet whole: twice the bytes before it is looked at
		 * again, so a long event is scanned a bounded number of times
		 * (linear), not once per slice */
		want = w->fill;
		if (rc == WIN_MORE && 2 * (w->hi - w->lo) > want)
			want = 2 * (w->hi - w->lo);
		if (w->eof) { /* an event cut by the end: yajl says so */
			rc = win_feed(r, w, w->lo, w->hi);
			w->lo = w->hi;
			return rc;
		}
	}
}

/* TLCOST_TRACE_WINDOW=N (tests): slices of N bytes, a window of N, events
 * longer than 2N read by yajl; cuts fall anywhere, also inside tokens. */
static void win_init(fastwin *w, const tlc_allocator *a)
{
	memset(w, 0, sizeof *w);
	w->fill = WIN_FILL;
	const char *env = getenv("TLCOST_TRACE_WINDOW");
	if (env && *env) {
		char *end;
		unsigned long long v = strtoull(env, &end, 10);
		if (!*end && v > 0 && v <= WIN_FILL)
			w->fill = w->slice = (size_t)v;
	}
	w->longest = w->slice ? 2 * w->fill : TLC_JSON_FAST_MAX_TEXT;
	w->j = tlc_json_trace__new();
	if (!w->j)
		return;
	w->cap = 2 * w->fill + WIN_SLACK;
	w->buf = tlc_alloc__calloc(a, 1, w->cap + 1);
	if (!w->buf) { /* memory is short: yajl alone */
		tlc_json_trace__free(w->j);
		w->j = NULL;
		w->cap = 0;
	}
}

int tlc_trace__read_stream(tlc_eval *ev, tlc_instream *in)
{
	reader r;
	if (reader_init(&r, ev, tlc_instream__name(in)) < 0)
		return TLC_ENOMEM;
	r.lim = tlc_instream__limits(in);
	tlc_instream__origin(in, &r.line, &r.col); /* (after whitespace the sniffer skipped) */
	fastwin w;
	win_init(&w, r.a);
	int rc = w.j ? read_fast(&r, in, &w) : read_stream(&r, in);
	tlc_json_trace__free(w.j);
	tlc_alloc__free(r.a, w.buf);
	if (rc == 0)
		rc = finish_parse(&r);
	if (rc == 0)
		rc = reader_commit(&r);
	reader_free(&r);
	return rc;
}

int tlc_trace_read_mem(tlc_eval *ev, const void *data, size_t len, const char *name)
{
	if (!ev || (!data && len))
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass an eval and a buffer",
		                      "tlc_trace_read_mem: NULL argument");
	tlc_instream *in;
	int rc = tlc_instream__open_mem(&in, tlc_eval__allocator(ev), data, len, name);
	if (rc < 0)
		return rc;
	tlc_instream__set_limits(in, NULL);
	rc = tlc_trace__read_stream(ev, in);
	tlc_instream__close(in);
	return rc;
}

int tlc_trace_read(tlc_eval *ev, const char *path)
{
	if (!ev || !path)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass an eval and a path",
		                      "tlc_trace_read: NULL argument");
	tlc_instream *in;
	int rc = tlc_instream__open_file(&in, tlc_eval__allocator(ev), path);
	if (rc < 0)
		return rc;
	tlc_instream__set_limits(in, NULL);
	rc = tlc_trace__read_stream(ev, in);
	tlc_instream__close(in);
	return rc;
}
