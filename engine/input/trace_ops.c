/* Kineto cpu_op events -> op records: arguments from Input Dims / Input type
 * / Input Strides / Concrete Inputs, per-thread nesting by time containment,
 * phase classification, then tlc_eval_push_op parent-before-child. */
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
	tlc_arena__init(&t->scratch, a, 16 * 1024);
	t->varena = &t->scratch;
}

void tlc_trace__ops_free(tlc_trace_ops *t)
{
	tlc_arena__free(&t->arena);
	tlc_arena__free(&t->scratch);
	tlc_alloc__free(t->a, t->ops);
	tlc_alloc__free(t->a, t->opt);
	memset(t, 0, sizeof *t);
}

/* ---------------------------------------------------------------- */
/* arguments                                                         */
/* ---------------------------------------------------------------- */

/* Type markers of arguments that are not a single tensor. */
static int is_marker(const char *ty)
{
	if (ty[0] >= 'a' && ty[0] <= 'z')
		return 0; /* C++ element types are lower case; markers are not */
	return !ty[0] || strcmp(ty, "Scalar") == 0 || strcmp(ty, "ScalarList") == 0 ||
	       strcmp(ty, "GenericList") == 0 || strcmp(ty, "TensorList") == 0 ||
	       strcmp(ty, "None") == 0 || strcmp(ty, "Device") == 0 ||
	       strcmp(ty, "String") == 0 || strcmp(ty, "Layout") == 0;
}

static const tlc_tnode *child(const tlc_tnode *arr, size_t i)
{
	if (!arr || arr->kind != TLC_TNODE_ARRAY || i >= arr->n)
		return NULL;
	const tlc_tnode *c = arr->first;
	while (i-- && c)
		c = c->next;
	return c;
}

/* Fills an int64 vector from an array of integer numbers; -1 if not one. */
static int int_vector(int64_t **out, size_t *n, tlc_trace_ops *t, const tlc_tnode *arr,
                      int nonneg)
{
	*n = arr->n;
	*out = NULL;
	if (arr->n > TLC_TRACE_MAX_DIMS)
		return -1;
	if (arr->n == 0)
		return 0;
	int64_t *v = tlc_arena__alloc(t->varena, arr->n * sizeof *v);
	if (!v)
		return TLC_ENOMEM;
	size_t k = 0;
	for (const tlc_tnode *c = arr->first; c; c = c->next, k++) {
		if (c->kind != TLC_TNODE_NUMBER)
			return -1;
		if (c->ival_ok)
			v[k] = c->ival;
		else if (!c->text || tlc_trace__parse_i64(&v[k], c->text, c->len) < 0)
			return -1;
		if (nonneg && v[k] < 0)
			return -1;
	}
	*out = v;
	return 0;
}

static int make_tensor(tlc_value *v, tlc_trace_ops *t, const tlc_tnode *dims,
                       const tlc_tnode *strides, const char *ty)
{
	int64_t *shape, *stride = NULL;
	size_t nd, ns = 0;
	int rc = int_vector(&shape, &nd, t, dims, 1);
	if (rc)
		return rc;
	if (strides && strides->kind == TLC_TNODE_ARRAY && strides->n == nd && nd > 0) {
		rc = int_vector(&stride, &ns, t, strides, 0);
		if (rc == TLC_ENOMEM)
			return rc;
		if (rc)
			stride = NULL;
	}
	memset(v, 0, sizeof *v);
	v->kind = TLC_VALUE_TENSOR;
	v->u.tensor.ndim = nd;
	v->u.tensor.shape = shape;
	v->u.tensor.stride = stride;
	v->u.tensor.dtype = TLC_DTYPE_NONE;
	if (ty && t->last_type && strcmp(t->last_type, ty) == 0) {
		v->u.tensor.dtype = t->last_type_dtype;
	} else if (ty) {
		v->u.tensor.dtype = tlc_dtype__parse_cpp(ty);
		t->last_type = NULL; /* ty lives in a per-event arena: cache via the interned name */
	}
	v->u.tensor.dtype_name = NULL;
	if (ty && ty[0]) {
		/* most tensors of a trace share a few dtypes: reuse the last one */
		if (t->last_dtype && strcmp(t->last_dtype, ty) == 0)
			v->u.tensor.dtype_name = t->last_dtype;
		else if (t->intern)
			v->u.tensor.dtype_name = t->last_dtype = tlc_intern__get(t->intern, ty, strlen(ty));
		if (t->intern && v->u.tensor.dtype_name) {
			t->last_type = v->u.tensor.dtype_name; /* stable: interned */
			t->last_type_dtype = v->u.tensor.dtype;
		}
		else
			v->u.tensor.dtype_name = tlc_arena__strdup(t->varena, ty);
		if (!v->u.tensor.dtype_name)
			return TLC_ENOMEM;
	}
	return 0;
}

/* A TensorList: Input Dims holds one shape per tensor (dtypes unrecorded). */
static int make_tensor_list(tlc_value *v, tlc_trace_ops *t, const tlc_tnode *dims,
                            const tlc_tnode *strides)
{
	memset(v, 0, sizeof *v);
	v->kind = TLC_VALUE_LIST;
	if (dims->n > TLC_TRACE_MAX_ARGS)
		return -1;
	tlc_value *items = dims->n ? tlc_arena__alloc(t->varena, dims->n * sizeof *items) : NULL;
	if (dims->n && !items)
		return TLC_ENOMEM;
	size_t k = 0;
	for (const tlc_tnode *c = dims->first; c; c = c->next, k++) {
		if (c->kind != TLC_TNODE_ARRAY)
			return -1;
		int rc = make_tensor(&items[k], t, c, child(strides, k), NULL);
		if (rc)
			return rc;
	}
	v->u.list.n = dims->n;
	v->u.list.items = items;
	return 0;
}

static int is_float_text(const char *s)
{
	return strpbrk(s, ".eE") != NULL || strcmp(s, "inf") == 0 || strcmp(s, "-inf") == 0 ||
	       strcmp(s, "nan") == 0;
}

/* One scalar of Concrete Inputs text: int, float, bool or string. */
static void parse_scalar(tlc_value *v, tlc_trace_ops *t, const char *s, size_t n)
{
	memset(v, 0, sizeof *v);
	int64_t i;
	char *end;
	char buf[64];
	if (tlc_trace__parse_i64(&i, s, n) == 0) {
		v->kind = TLC_VALUE_INT;
		v->u.integer = i;
		return;
	}
	if ((n == 4 && memcmp(s, "True", 4) == 0) || (n == 5 && memcmp(s, "False", 5) == 0)) {
		v->kind = TLC_VALUE_BOOL;
		v->u.boolean = n == 4;
		return;
	}
	if (n < sizeof buf) {
		memcpy(buf, s, n);
		buf[n] = '\0';
		double d = strtod(buf, &end);
		if (n > 0 && *end == '\0' && is_float_text(buf)) {
			v->kind = TLC_VALUE_FLOAT;
			v->u.real = d;
			return;
		}
	}
	v->kind = TLC_VALUE_STRING;
	v->u.string = tlc_arena__strndup(t->varena, s, n);
}

/* Concrete Inputs text: "[1, 1]" is a list, anything else one scalar. */
static int parse_concrete(tlc_value *v, tlc_trace_ops *t, const char *s, size_t n)
{
	if (n >= 2 && s[0] == '[' && s[n - 1] == ']') {
		size_t cnt = 0;
		const char *p = s + 1, *e = s + n - 1;
		int empty = 1;
		for (const char *q = p; q < e; q++) {
			if (*q == ',')
				cnt++;
			else if (*q != ' ')
				empty = 0;
		}
		cnt = empty ? 0 : cnt + 1;
		if (cnt > TLC_TRACE_MAX_ARGS)
			return -1;
		tlc_value *items = cnt ? tlc_arena__alloc(t->varena, cnt * sizeof *items) : NULL;
		if (cnt && !items)
			return TLC_ENOMEM;
		for (size_t k = 0; k < cnt; k++) {
			while (p < e && *p == ' ')
				p++;
			const char *q = p;
			while (q < e && *q != ',')
				q++;
			const char *r = q;
			while (r > p && r[-1] == ' ')
				r--;
			parse_scalar(&items[k], t, p, (size_t)(r - p));
			p = q + 1;
		}
		memset(v, 0, sizeof *v);
		v->kind = TLC_VALUE_LIST;
		v->u.list.n = cnt;
		v->u.list.items = items;
		return 0;
	}
	parse_scalar(v, t, s, n);
	return 0;
}

/* 1 when the argument was built, 0 when its value was not recorded. */
static int build_one(tlc_value *v, tlc_trace_ops *t, const tlc_tnode *dims,
                     const char *ty, const tlc_tnode *strides, const tlc_tnode *conc,
                     int have_concrete, const char **why)
{
	int rc;
	int dims_list = dims && dims->kind == TLC_TNODE_ARRAY && dims->first &&
	                dims->first->kind == TLC_TNODE_ARRAY;
	if (strcmp(ty, "TensorList") == 0 || dims_list) {
		if (!dims || dims->kind != TLC_TNODE_ARRAY) {
			*why = "'Input Dims' entry of a TensorList is not an array";
			return -1;
		}
		rc = make_tensor_list(v, t, dims, strides);
	} else if (!is_marker(ty)) {
		if (!dims || dims->kind != TLC_TNODE_ARRAY) {
			*why = "'Input Dims' entry of a tensor is not an array";
			return -1;
		}
		rc = make_tensor(v, t, dims, strides, ty);
	} else if (conc && conc->kind == TLC_TNODE_STRING && conc->len > 0) {
		rc = parse_concrete(v, t, conc->text, conc->len);
	} else if (have_concrete && !ty[0]) {
		memset(v, 0, sizeof *v); /* recorded as nothing: None */
		return 1;
	} else {
		return 0;
	}
	if (rc == TLC_ENOMEM)
		return rc;
	if (rc) {
		*why = "'Input Dims' holds a negative, non-integer or oversized entry";
		return -1;
	}
	return 1;
}

int tlc_trace__build_args(tlc_value **out, size_t *nout, tlc_trace_ops *t,
                          const tlc_tnode *dims, const tlc_tnode *types,
                          const tlc_tnode *strides, const tlc_tnode *concrete,
                          const char **why)
{
	*out = NULL;
	*nout = 0;
	size_t n = 0;
	if (dims && dims->n > n) n = dims->n;
	if (types && types->n > n) n = types->n;
	if (!dims && !types)
		return 0; /* shapes not recorded: rules report missing_args */
	if (n > TLC_TRACE_MAX_ARGS) {
		*why = "more than 4096 entries in 'Input Dims'";
		return TLC_EINPUT;
	}
	tlc_value *v = n ? tlc_arena__alloc(t->varena, n * sizeof *v) : NULL;
	if (n && !v)
		return TLC_ENOMEM;
	size_t k = 0;
	for (; k < n; k++) {
		const tlc_tnode *ty = child(types, k);
		const char *tys = ty && ty->kind == TLC_TNODE_STRING ? ty->text : "";
		int rc = build_one(&v[k], t, child(dims, k), tys, child(strides, k),
		                   child(concrete, k), concrete != NULL, why);
		if (rc == TLC_ENOMEM)
			return rc;
		if (rc < 0)
			return TLC_EINPUT;
		if (rc == 0)
			break; /* an unrecorded value: later args are not guessed */
	}
	*out = v;
	*nout = k;
	return 0;
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
static int ids_unique(const tlc_trace_ops *t, int64_t *scratch)
{
	for (size_t i = 0; i < t->nops; i++) {
		if (!(t->ops[i].flags & TLC_TOP_HAS_EXT) || t->ops[i].ext < 0)
			return 0;
		scratch[i] = t->ops[i].ext;
	}
	qsort(scratch, t->nops, sizeof *scratch, cmp_i64p);
	for (size_t i = 1; i < t->nops; i++)
		if (scratch[i] == scratch[i - 1])
			return 0;
	return 1;
}

typedef struct nest_state {
	uint32_t *stack;
	size_t depth;
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
	size_t top = 0, wrappers = 0;
	int64_t top_end = INT64_MIN;
	for (size_t i = from; i < to; i++) {
		const tlc_trace_op *o = &t->ops[idx[i]];
		if (top > 0 && o->end_ns <= top_end)
			continue; /* nested in the current top-level op */
		top++;
		top_end = o->end_ns;
		wrappers += (o->flags & TLC_TOP_AUTOGRAD_FN) != 0;
	}
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
 * ("AddmmBackward0", "SqueezeBackward1"). */
static int is_node_name(const char *s)
{
	size_t n = strlen(s), d = n;
	while (d > 0 && s[d - 1] >= '0' && s[d - 1] <= '9')
		d--;
	return d < n && d >= 8 && memcmp(s + d - 8, "Backward", 8) == 0;
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
static int canonical_name(tlc_op *op, tlc_trace_ops *t, const tlc_trace_op *o,
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
	if ((parent && (parent->flags & TLC_TOP_AUTOGRAD_FN)) || is_node_name(s)) {
		op->name = "autograd::node";
		op->overload = s;
		return 0;
	}
	char *k = tlc_arena__alloc(&t->scratch, n + sizeof "kineto::");
	if (!k)
		return TLC_ENOMEM;
	memcpy(k, "kineto::", 8);
	memcpy(k + 8, s, n + 1);
	op->name = k;
	return 0;
}

static int push_one(tlc_trace_ops *t, tlc_eval *ev, const tlc_trace_op *o, int64_t id,
                    const tlc_trace_op *po, int64_t parent, tlc_phase phase)
{
	tlc_op op;
	memset(&op, 0, sizeof op);
	tlc_value *args;
	tlc_arena__reset(&t->scratch);
	if (tlc_trace__decode_args(&args, &op.nargs, &t->scratch, o->args, o->args_len) < 0)
		return tlc_error__oom(); /* the bytes are ours: only allocation can fail */
	op.args = args;
	op.size = sizeof op;
	op.flags = TLC_OP_HAS_START_NS | TLC_OP_HAS_END_NS | TLC_OP_HAS_THREAD | TLC_OP_HAS_HOST_NS;
	if (po) {
		op.flags |= TLC_OP_HAS_PARENT;
		op.parent = parent;
	}
	op.id = id;
	if (canonical_name(&op, t, o, po) < 0)
		return tlc_error__oom();
	op.phase = phase;
	op.host_ns = o->end_ns - o->start_ns;
	op.start_ns = o->start_ns;
	op.end_ns = o->end_ns;
	op.thread = o->tid;
	op.correlation = (o->flags & TLC_TOP_HAS_EXT) ? o->ext : -1;
	return tlc_eval_push_op(ev, &op);
}

/* Walks one thread's ops (sorted) with a containment stack. */
static int push_thread(tlc_trace_ops *t, tlc_eval *ev, const uint32_t *idx, size_t from,
                       size_t to, nest_state *s, const int64_t *ids, uint8_t *bwd)
{
	s->depth = 0;
	s->span_valid = 0;
	s->sp = spans_of(s->spans, s->nspans, t->ops[idx[from]].tid);
	s->autograd_thread = thread_is_autograd(t, idx, from, to);
	for (size_t i = from; i < to; i++) {
		uint32_t k = idx[i];
		const tlc_trace_op *o = &t->ops[k];
		while (s->depth && !contains(&t->ops[s->stack[s->depth - 1]], o))
			s->depth--;
		int has_parent = s->depth > 0;
		uint32_t p = has_parent ? s->stack[s->depth - 1] : 0;
		bwd[k] = s->autograd_thread || (o->flags & TLC_TOP_AUTOGRAD_FN) || (has_parent && bwd[p]);
		tlc_phase ph = in_optimizer(s, o) ? TLC_PHASE_OPTIMIZER
		             : bwd[k] ? TLC_PHASE_BACKWARD : TLC_PHASE_FORWARD;
		int rc = push_one(t, ev, o, ids[k], has_parent ? &t->ops[p] : NULL,
		                  has_parent ? ids[p] : 0, ph);
		if (rc < 0)
			return rc;
		s->stack[s->depth++] = k;
	}
	return 0;
}

static int push_sorted(tlc_trace_ops *t, tlc_eval *ev, uint32_t *idx, int64_t *ids,
                       uint32_t *stack, uint8_t *bwd)
{
	nest_state s;
	memset(&s, 0, sizeof s);
	s.stack = stack;
	s.spans = t->opt;
	s.nspans = t->nopt;
	size_t from = 0;
	while (from < t->nops) {
		const tlc_trace_op *f = &t->ops[idx[from]];
		size_t to = from + 1;
		while (to < t->nops && t->ops[idx[to]].pid == f->pid && t->ops[idx[to]].tid == f->tid)
			to++;
		int rc = push_thread(t, ev, idx, from, to, &s, ids, bwd);
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
	int64_t *ids = tlc_alloc__malloc(a, n * sizeof *ids);
	uint8_t *bwd = tlc_alloc__calloc(a, n, 1);
	int rc = (idx && tmp && ids && bwd) ? 0 : tlc_error__oom();
	if (rc == 0) {
		for (size_t i = 0; i < n; i++)
			idx[i] = (uint32_t)i;
		sort_idx(idx, tmp, n, t->ops);
		if (t->nopt)
			qsort(t->opt, t->nopt, sizeof *t->opt, cmp_span);
		int use_ext = ids_unique(t, ids);
		for (size_t i = 0; i < n; i++)
			ids[i] = use_ext ? t->ops[i].ext : (int64_t)i;
		rc = push_sorted(t, ev, idx, ids, tmp, bwd);
	}
	tlc_alloc__free(a, idx);
	tlc_alloc__free(a, tmp);
	tlc_alloc__free(a, ids);
	tlc_alloc__free(a, bwd);
	return rc;
}
