/* Kineto cpu_op events -> op records: per-thread nesting by time
 * containment, phase classification, then tlc_eval_push_op
 * parent-before-child (arguments are built by engine/input/kineto/trace_args.c). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "eval.h"
#include "trace.h"
#include "names.h"

void tlc_trace__ops_init(tlc_trace_ops *t, const tlc_allocator *a)
{
	memset(t, 0, sizeof *t);
	t->a = a;
	tlc_arena__init(&t->arena, a, 256 * 1024);
	tlc_idmap__init(&t->args_index, a, sizeof(tlc_trace_args_ref));
	tlc_arena__init(&t->scratch, a, 16 * 1024);
	t->varena = &t->scratch;
	tlc_trace_comms__init(&t->comms, a);
}

void tlc_trace__ops_free(tlc_trace_ops *t)
{
	tlc_trace__release_args(t);
	tlc_arena__free(&t->scratch);
	tlc_alloc__free(t->a, t->ops);
	tlc_alloc__free(t->a, t->opt);
	tlc_alloc__free(t->a, t->ranges);
	tlc_alloc__free(t->a, t->mods);
	tlc_alloc__free(t->a, t->evno);
	tlc_trace_comms__free(&t->comms);
	memset(t, 0, sizeof *t);
}

void tlc_trace__release_args(tlc_trace_ops *t)
{
	tlc_arena__free(&t->arena);
	tlc_idmap__free(&t->args_index);
	for (size_t i = 0; i < t->nops; i++) {
		t->ops[i].args = NULL;
		t->ops[i].args_len = 0;
	}
}

/* ---------------------------------------------------------------- */
/* nesting, phases, push                                             */
/* ---------------------------------------------------------------- */

static int cmp_i64(int64_t a, int64_t b) { return (a > b) - (a < b); }

/* (pid, tid, start asc, duration desc, file order): a parent sorts before
 * its children even at equal start times, and zero-length ops after the
 * longer ops that begin at the same instant. */
static int cmp_op(const void *pa, const void *pb, void *ctx)
{
	const tlc_trace_op *ops = ctx;
	const tlc_trace_op *a = &ops[*(const uint32_t *)pa], *b = &ops[*(const uint32_t *)pb];
	int c = cmp_i64(a->pid, b->pid);
	if (!c) c = cmp_i64(a->tid, b->tid);
	if (!c) c = cmp_i64(a->start_ns, b->start_ns);
	if (!c) c = cmp_i64(b->end_ns - b->start_ns, a->end_ns - a->start_ns);
	if (!c) c = (a > b) - (a < b); /* file order: position in the array */
	return c;
}

static int cmp_span(const void *pa, const void *pb)
{
	const tlc_trace_span *a = pa, *b = pb;
	int c = cmp_i64(a->tid, b->tid);
	return c ? c : cmp_i64(a->start_ns, b->start_ns);
}

/* Merge sort of indices (qsort has no context argument in C11). */
static void sort_idx(uint32_t *v, uint32_t *tmp, size_t n, const tlc_trace_op *ops)
{
	if (n < 2)
		return;
	size_t h = n / 2;
	sort_idx(v, tmp, h, ops);
	sort_idx(v + h, tmp, n - h, ops);
	if (cmp_op(&v[h], &v[h - 1], (void *)ops) >= 0)
		return; /* in order already (a trace's ops mostly are): the merge would copy */
	size_t i = 0, j = h, k = 0;
	while (i < h && j < n)
		tmp[k++] = cmp_op(&v[j], &v[i], (void *)ops) < 0 ? v[j++] : v[i++];
	while (i < h)
		tmp[k++] = v[i++];
	while (j < n)
		tmp[k++] = v[j++];
	memcpy(v, tmp, n * sizeof *v);
}

static int cmp_i64p(const void *a, const void *b)
{
	return cmp_i64(*(const int64_t *)a, *(const int64_t *)b);
}

/* External ids serve as op ids only when every op has one and none repeats. */
/* 1 or 0; -1 out of memory. A sorted copy of the ids is made only when they
 * do not rise in file order (they mostly do): no array per op otherwise. */
static int ids_unique(const tlc_trace_ops *t)
{
	for (size_t i = 0; i < t->nops; i++)
		if (!(t->ops[i].flags & TLC_TOP_HAS_EXT) || t->ops[i].ext < 0)
			return 0;
	size_t up = 1;
	while (up < t->nops && t->ops[up].ext > t->ops[up - 1].ext)
		up++;
	if (up >= t->nops)
		return 1;
	int64_t *scratch = tlc_alloc__malloc(t->a, t->nops * sizeof *scratch);
	if (!scratch)
		return -1;
	for (size_t i = 0; i < t->nops; i++)
		scratch[i] = t->ops[i].ext;
	qsort(scratch, t->nops, sizeof *scratch, cmp_i64p);
	int unique = 1;
	for (size_t i = 1; i < t->nops && unique; i++)
		if (scratch[i] == scratch[i - 1])
			unique = 0;
	tlc_alloc__free(t->a, scratch);
	return unique;
}

typedef struct nest_state {
	uint32_t *stack;
	size_t depth;
	const tlc_trace_module *mods; /* sorted by (tid, start, longer first) */
	size_t nmods, mp;
	size_t *mstack;               /* open module frames of the thread */
	size_t mdepth;
	int autograd_thread;
	const tlc_trace_span *spans;
	size_t nspans, sp;
	int64_t span_end;
	int span_valid;
} nest_state;

static int contains(const tlc_trace_op *p, const tlc_trace_op *c)
{
	return p->start_ns <= c->start_ns && c->end_ns <= p->end_ns;
}

/* The autograd thread: most of its top-level ops are
 * autograd::engine::evaluate_function wrappers. (A main thread may run a
 * few autograd functions itself, e.g. AccumulateGrad; that alone does not
 * make its forward ops backward.) At least half, so a lone wrapper with
 * one stray op still marks its thread. */
static int thread_is_autograd(const tlc_trace_ops *t, const uint32_t *idx, size_t from,
                              size_t to)
{
	size_t top = 0, wrappers = 0, nodes = 0;
	int64_t top_end = INT64_MIN;
	for (size_t i = from; i < to; i++) {
		const tlc_trace_op *o = &t->ops[idx[i]];
		if (top > 0 && o->end_ns <= top_end)
			continue; /* nested in the current top-level op */
		top++;
		top_end = o->end_ns;
		wrappers += (o->flags & TLC_TOP_AUTOGRAD_FN) != 0;
		nodes += (o->flags & (TLC_TOP_AUTOGRAD_NODE | TLC_TOP_ACCUMULATE)) != 0;
	}
	/* The 2021 profiler wrote no evaluate_function wrappers: its autograd
	 * thread's top-level rows are the nodes themselves ("CudnnConvolution
	 * Backward", AccumulateGrad). */
	if (wrappers == 0)
		wrappers = nodes;
	return wrappers > 0 && wrappers * 2 >= top;
}

/* First span of thread tid (spans sorted by tid, start). */
static size_t spans_of(const tlc_trace_span *sp, size_t n, int64_t tid)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (sp[mid].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Ops arrive in start order per thread: every span that began at or before
 * the op is passed, and the op is inside one when one of them outlasts it. */
static int in_optimizer(nest_state *s, const tlc_trace_op *o)
{
	while (s->sp < s->nspans && s->spans[s->sp].tid == o->tid &&
	       s->spans[s->sp].start_ns <= o->start_ns) {
		if (!s->span_valid || s->spans[s->sp].end_ns > s->span_end)
			s->span_end = s->spans[s->sp].end_ns;
		s->span_valid = 1;
		s->sp++;
	}
	return s->span_valid && s->span_end >= o->end_ns;
}

/* ---------------------------------------------------------------- */
/* canonical names of wrapper rows (docs/kineto.md, "Op names")      */
/* ---------------------------------------------------------------- */

#define EVAL_FN "autograd::engine::evaluate_function:"
#define CPP_NODE "torch::autograd::CppNode<"

/* autograd's Node naming: no namespace, "Backward" then digits
 * ("AddmmBackward0", "SqueezeBackward1"), or no digits in the 2021 profiler
 * ("CudnnConvolutionBackward", "AddmmBackward"). */
int tlc_trace__is_node_name(const char *s)
{
	if (strstr(s, "::"))
		return 0;
	size_t n = strlen(s), d = n;
	while (d > 0 && s[d - 1] >= '0' && s[d - 1] <= '9')
		d--;
	return d > 8 && memcmp(s + d - 8, "Backward", 8) == 0;
}

/* Sets op->name and op->overload so that a rule registered for the wrapper
 * kind matches (the registry tries "ns::op.overload", then "ns::op"), the
 * original text staying visible as the overload or after "kineto::":
 *   autograd::engine::evaluate_function: X -> autograd::engine::evaluate_function . X
 *   torch::autograd::CppNode<T>            -> torch::autograd::CppNode . T
 *   a node row (no "::", direct child of an evaluate_function wrapper, or
 *   named *Backward<digits>)               -> autograd::node . <name>
 *   any other name without a namespace     -> kineto::<name>
 * Strings built here live in t->scratch (the eval copies them). */
static int canonical_name_raw(tlc_op *op, tlc_trace_ops *t, const tlc_trace_op *o,
                              const tlc_trace_op *parent)
{
	const char *s = o->name;
	size_t n = strlen(s);
	op->name = s;
	op->overload = "";
	if (o->flags & TLC_TOP_AUTOGRAD_FN) {
		const char *x = s + strlen(EVAL_FN);
		while (*x == ' ')
			x++;
		op->name = "autograd::engine::evaluate_function";
		op->overload = x;
		return 0;
	}
	if (n > strlen(CPP_NODE) && strncmp(s, CPP_NODE, strlen(CPP_NODE)) == 0 && s[n - 1] == '>') {
		char *ovl = tlc_arena__strndup(&t->scratch, s + strlen(CPP_NODE),
		                               n - strlen(CPP_NODE) - 1);
		if (!ovl)
			return TLC_ENOMEM;
		op->name = "torch::autograd::CppNode";
		op->overload = ovl;
		return 0;
	}
	if (n == 0 || strstr(s, "::"))
		return 0;
	if ((parent && (parent->flags & TLC_TOP_AUTOGRAD_FN)) || (o->flags & TLC_TOP_AUTOGRAD_NODE)) {
		op->name = "autograd::node";
		op->overload = s;
		return 0;
	}
	/* rows whose name carries an id (a frame, a graph hash, a generated
	 * kernel): one name per kind, the id as the overload */
	static const struct { const char *prefix, *name; int whole; } id_rows[] = {
		{ "Torch-Compiled Region: ", "kineto::Torch-Compiled_Region", 0 },
		{ "## Call CompiledFxGraph ", "kineto::##_Call_CompiledFxGraph", 0 },
		{ "triton_", "kineto::triton", 1 }, /* the kernel's whole name */
	};
	for (size_t i = 0; i < sizeof id_rows / sizeof id_rows[0]; i++) {
		size_t pl = strlen(id_rows[i].prefix);
		if (n > pl && strncmp(s, id_rows[i].prefix, pl) == 0) {
			op->name = id_rows[i].name;
			op->overload = id_rows[i].whole ? s : s + pl;
			return 0;
		}
	}
	char *k = tlc_arena__alloc(&t->scratch, n + sizeof "kineto::");
	if (!k)
		return TLC_ENOMEM;
	memcpy(k, "kineto::", 8);
	memcpy(k + 8, s, n + 1);
	op->name = k;
	return 0;
}

/* A rule name holds no space (the registry refuses one), so a space in the
 * canonical name becomes '_': "TorchDynamo Cache Lookup" is
 * kineto::TorchDynamo_Cache_Lookup, registrable like any other row. */
static int canonical_name(tlc_op *op, tlc_trace_ops *t, const tlc_trace_op *o,
                          const tlc_trace_op *parent)
{
	int rc = canonical_name_raw(op, t, o, parent);
	if (rc < 0 || !strchr(op->name, ' '))
		return rc;
	char *k = tlc_arena__strdup(&t->scratch, op->name);
	if (!k)
		return TLC_ENOMEM;
	for (char *p = k; *p; p++)
		if (*p == ' ')
			*p = '_';
	op->name = k;
	return 0;
}

/* ---------------------------------------------------------------- */
/* modules (nn.Module python_function frames)                        */
/* ---------------------------------------------------------------- */

static int cmp_mod(const void *pa, const void *pb)
{
	const tlc_trace_module *a = pa, *b = pb;
	int c = cmp_i64(a->tid, b->tid);
	if (!c) c = cmp_i64(a->start_ns, b->start_ns);
	if (!c) c = cmp_i64(b->end_ns - b->start_ns, a->end_ns - a->start_ns);
	if (!c) c = (a->name > b->name) - (a->name < b->name);
	return c;
}

static int mod_contains(const tlc_trace_module *m, int64_t s, int64_t e)
{
	return m->start_ns <= s && e <= m->end_ns;
}

/* Sorts the frames and gives each its dotted path from the frames that
 * enclose it on its thread ("Owlv2Model_0.Owlv2VisionTransformer_0"). */
static int module_paths(tlc_trace_ops *t, size_t *stack)
{
	if (!t->nmods)
		return 0;
	qsort(t->mods, t->nmods, sizeof *t->mods, cmp_mod);
	size_t d = 0;
	tlc_sb sb;
	tlc_sb__init(&sb, t->a);
	int rc = 0;
	for (size_t i = 0; i < t->nmods && rc == 0; i++) {
		tlc_trace_module *m = &t->mods[i];
		while (d && (t->mods[stack[d - 1]].tid != m->tid ||
		             !mod_contains(&t->mods[stack[d - 1]], m->start_ns, m->end_ns)))
			d--;
		sb.len = 0;
		if (d >= TLC_TRACE_MAX_DEPTH) {
			/* hostile nesting: deeper frames share their ancestor's path, so
			 * path text stays linear in the input */
			m->path = t->mods[stack[d - 1]].path;
			continue;
		}
		if (d) {
			tlc_sb__append(&sb, t->mods[stack[d - 1]].path, strlen(t->mods[stack[d - 1]].path));
			tlc_sb__putc(&sb, '.');
		}
		tlc_sb__append(&sb, m->name, strlen(m->name));
		m->path = sb.failed ? NULL : tlc_intern__get(t->intern, sb.ptr, sb.len);
		if (!m->path)
			rc = tlc_error__oom();
		stack[d++] = i;
	}
	tlc_sb__free(&sb);
	return rc;
}

/* The innermost module frame holding op o (ops arrive per thread in start
 * order), or NULL. */
static const tlc_trace_module *module_of(nest_state *s, const tlc_trace_op *o)
{
	while (s->mp < s->nmods && s->mods[s->mp].tid < o->tid)
		s->mp++;
	while (s->mp < s->nmods && s->mods[s->mp].tid == o->tid &&
	       s->mods[s->mp].start_ns <= o->start_ns) {
		while (s->mdepth && !mod_contains(&s->mods[s->mstack[s->mdepth - 1]],
		                                  s->mods[s->mp].start_ns, s->mods[s->mp].end_ns))
			s->mdepth--;
		s->mstack[s->mdepth++] = s->mp++;
	}
	while (s->mdepth && !mod_contains(&s->mods[s->mstack[s->mdepth - 1]], o->start_ns, o->end_ns))
		s->mdepth--;
	return s->mdepth ? &s->mods[s->mstack[s->mdepth - 1]] : NULL;
}

/* "Conv2d_3" -> "Conv2d" (the profiler numbers instances of a class). */
static const char *module_type(tlc_trace_ops *t, const char *name)
{
	size_t n = strlen(name), d = n;
	while (d > 0 && name[d - 1] >= '0' && name[d - 1] <= '9')
		d--;
	if (d < n && d > 1 && name[d - 1] == '_')
		n = d - 1;
	return tlc_intern__get(t->intern, name, n);
}

static int push_one(tlc_trace_ops *t, tlc_eval *ev, const tlc_trace_op *o, int64_t id,
                    const tlc_trace_op *po, int64_t parent, tlc_phase phase,
                    const tlc_trace_module *mod)
{
	tlc_op op;
	memset(&op, 0, sizeof op);
	tlc_value *args;
	tlc_arena__reset(&t->scratch);
	int rc = tlc_trace__decode_args(&args, &op.nargs, &t->scratch, o->args, o->args_len);
	if (rc < 0)
		return rc; /* (the bytes are ours: only allocation can fail) */
	op.args = args;
	op.size = sizeof op;
	op.flags = TLC_OP_HAS_START_NS | TLC_OP_HAS_END_NS | TLC_OP_HAS_THREAD | TLC_OP_HAS_HOST_NS |
	           TLC_OP_ARGS_OBSERVED; /* a profiler lists every argument: none omitted */
	if (po) {
		op.flags |= TLC_OP_HAS_PARENT;
		op.parent = parent;
	}
	op.id = id;
	if (canonical_name(&op, t, o, po) < 0 ||
	    tlc_trace_comms__apply(&op, &t->scratch, &t->comms, o) < 0)
		return tlc_error__oom();
	op.phase = phase;
	op.host_ns = o->end_ns - o->start_ns;
	op.start_ns = o->start_ns;
	op.end_ns = o->end_ns;
	op.thread = o->tid;
	op.correlation = (o->flags & TLC_TOP_HAS_EXT) ? o->ext : -1;
	if (mod) {
		/* the frame's position among the sorted frames tells its calls apart */
		op.module = mod->path;
		op.module_type = module_type(t, mod->name);
		if (!op.module_type)
			return tlc_error__oom();
		op.module_call = (int64_t)(mod - t->mods);
		op.flags |= TLC_OP_HAS_MODULE_CALL;
	} else if (t->nmods) {
		op.module = ""; /* the trace records modules: this op is at the root */
	}
	return tlc_eval_push_op(ev, &op);
}

/* Walks one thread's ops (sorted) with a containment stack. */
/* An op's id: its External id when those are usable (ids_unique), else its
 * index in file order; computed where it is needed, not kept per op. */
static int64_t op_id(const tlc_trace_ops *t, int use_ext, size_t i)
{
	return use_ext ? t->ops[i].ext : (int64_t)i;
}

static int push_thread(tlc_trace_ops *t, tlc_eval *ev, const uint32_t *idx, size_t from,
                       size_t to, nest_state *s, int use_ext, uint8_t *bwd)
{
	s->depth = 0;
	s->span_valid = 0;
	s->sp = spans_of(s->spans, s->nspans, t->ops[idx[from]].tid);
	s->autograd_thread = thread_is_autograd(t, idx, from, to);
	s->mdepth = 0;
	s->mp = 0; /* the thread's first frame: threads come in (pid, tid) order */
	for (size_t lo = 0, hi = s->nmods; lo < hi;) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->mods[mid].tid < t->ops[idx[from]].tid)
			lo = s->mp = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = from; i < to; i++) {
		uint32_t k = idx[i];
		const tlc_trace_op *o = &t->ops[k];
		while (s->depth && !contains(&t->ops[s->stack[s->depth - 1]], o))
			s->depth--;
		int has_parent = s->depth > 0;
		uint32_t p = has_parent ? s->stack[s->depth - 1] : 0;
		bwd[k] = s->autograd_thread || (o->flags & (TLC_TOP_AUTOGRAD_FN | TLC_TOP_AUTOGRAD_NODE)) ||
		         (has_parent && bwd[p]);
		tlc_phase ph = in_optimizer(s, o) ? TLC_PHASE_OPTIMIZER
		             : bwd[k] ? TLC_PHASE_BACKWARD : TLC_PHASE_FORWARD;
		int rc = push_one(t, ev, o, op_id(t, use_ext, k), has_parent ? &t->ops[p] : NULL,
		                  has_parent ? op_id(t, use_ext, p) : 0, ph,
		                  s->nmods ? module_of(s, o) : NULL);
		if (rc < 0)
			return rc;
		s->stack[s->depth++] = k;
	}
	return 0;
}

static int push_sorted(tlc_trace_ops *t, tlc_eval *ev, uint32_t *idx, int use_ext,
                       uint32_t *stack, uint8_t *bwd, size_t *mstack)
{
	nest_state s;
	memset(&s, 0, sizeof s);
	s.stack = stack;
	s.spans = t->opt;
	s.nspans = t->nopt;
	s.mods = t->mods;
	s.nmods = t->nmods;
	s.mstack = mstack;
	size_t from = 0;
	while (from < t->nops) {
		const tlc_trace_op *f = &t->ops[idx[from]];
		size_t to = from + 1;
		while (to < t->nops && t->ops[idx[to]].pid == f->pid && t->ops[idx[to]].tid == f->tid)
			to++;
		int rc = push_thread(t, ev, idx, from, to, &s, use_ext, bwd);
		if (rc < 0)
			return rc;
		from = to;
	}
	return 0;
}

int tlc_trace__push_ops(tlc_trace_ops *t, tlc_eval *ev)
{
	if (t->nops == 0)
		return 0;
	if (t->nops > UINT32_MAX)
		return tlc_error__set(TLC_EINPUT, "trace_field_invalid",
		                      "split the trace", "more than 2^32 cpu_op events");
	const tlc_allocator *a = t->a;
	size_t n = t->nops;
	uint32_t *idx = tlc_alloc__malloc(a, n * sizeof *idx);
	uint32_t *tmp = tlc_alloc__malloc(a, n * sizeof *tmp);
	uint8_t *bwd = tlc_alloc__calloc(a, n, 1);
	size_t *mstack = tlc_alloc__malloc(a, (t->nmods ? t->nmods : 1) * sizeof *mstack);
	int rc = (idx && tmp && bwd && mstack) ? 0 : tlc_error__oom();
	if (rc == 0)
		rc = module_paths(t, mstack);
	if (rc == 0) {
		for (size_t i = 0; i < n; i++)
			idx[i] = (uint32_t)i;
		sort_idx(idx, tmp, n, t->ops);
		if (t->nopt)
			qsort(t->opt, t->nopt, sizeof *t->opt, cmp_span);
		rc = tlc_trace_comms__fold(&t->comms, t->ops, t->nops, ev);
		/* the optimizer annotations also place launches outside every op
		 * (a fused optimizer's own launches) in their phase: the join's */
		for (size_t i = 0; i < t->nopt && rc == 0; i++)
			if (t->opt[i].end_ns >= t->opt[i].start_ns)
				rc = tlc_eval__add_annotation(ev, t->opt[i].tid, t->opt[i].start_ns,
				                              t->opt[i].end_ns, TLC_PHASE_OPTIMIZER);
		/* op ids are computed where needed (op_id), not kept per op: the
		 * push, whose rows are the peak of memory, has 8 bytes an op less */
		int use_ext = ids_unique(t);
		if (use_ext < 0 && rc == 0)
			rc = tlc_error__oom();
		for (size_t i = 0; t->evno && i < n && rc == 0; i++)
			rc = tlc_eval__add_source_key(ev, op_id(t, use_ext, i), t->evno[i], t->ops[i].pid);
		if (rc == 0)
			rc = push_sorted(t, ev, idx, use_ext, tmp, bwd, mstack);
	}
	tlc_alloc__free(a, idx);
	tlc_alloc__free(a, tmp);
	tlc_alloc__free(a, bwd);
	tlc_alloc__free(a, mstack);
	return rc;
}
