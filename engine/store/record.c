/* The one compact op record encoding: its encoder and its decoder (the
 * layout is in record.h). */
#include <string.h>
#include "error.h"
#include "record.h"

void tlc_rec__w_init(tlc_rec_w *w, const tlc_allocator *a, unsigned opts)
{
	w->p = w->stack;
	w->n = 0;
	w->cap = sizeof w->stack;
	w->rc = 0;
	w->opts = opts;
	w->a = a;
}

void tlc_rec__w_free(tlc_rec_w *w)
{
	if (w->p != w->stack)
		tlc_alloc__free(w->a, w->p);
	w->p = w->stack;
	w->n = 0;
	w->cap = sizeof w->stack;
}

int tlc_rec__w_grow(tlc_rec_w *w, size_t k)
{
	if (w->rc)
		return 0;
	size_t cap = w->cap;
	while (cap - w->n < k) {
		if (cap > SIZE_MAX / 2) {
			w->rc = TLC_ENOMEM;
			return 0;
		}
		cap *= 2;
	}
	unsigned char *q = w->p == w->stack ? tlc_alloc__malloc(w->a, cap)
	                                    : tlc_alloc__realloc(w->a, w->p, cap);
	if (!q) {
		w->rc = TLC_ENOMEM;
		return 0;
	}
	if (w->p == w->stack)
		memcpy(q, w->stack, w->n);
	w->p = q;
	w->cap = cap;
	return 1;
}

void tlc_rec__put_str(tlc_rec_w *w, const char *s)
{
	size_t n = s ? strlen(s) : 0;
	tlc_rec__put_u(w, s ? (uint64_t)n + 1 : 0);
	tlc_rec__put_bytes(w, s, n);
}

static void put_value(tlc_rec_w *w, const tlc_value *v, int depth);

static void put_list(tlc_rec_w *w, const tlc_value *items, size_t n, int depth)
{
	if (depth > TLC_REC_MAX_DEPTH) {
		if (!w->rc)
			w->rc = tlc_error__set(TLC_EINPUT, "store_record_too_deep",
			                       "flatten the value: no op argument needs that much nesting",
			                       "an op argument nests lists more than %d deep",
			                       TLC_REC_MAX_DEPTH);
		return;
	}
	tlc_rec__put_count(w, items ? n : 0, items != NULL);
	for (size_t i = 0; items && i < n; i++)
		put_value(w, &items[i], depth);
}

static void put_tensor_value(tlc_rec_w *w, const tlc_tensor *t)
{
	unsigned fl = 0;
	if (t->shape || ((w->opts & TLC_REC_SHAPES_RECORDED) && t->ndim == 0))
		fl |= TLC_REC_T_SHAPE;
	if (t->stride)
		fl |= TLC_REC_T_STRIDE;
	if (t->device)
		fl |= TLC_REC_T_DEVICE;
	if (t->dtype_name) {
		const char *own;
		if (w->opts & TLC_REC_NAMES_INTERNED)
			fl |= TLC_REC_T_NAME_PTR;
		else if ((own = tlc_dtype_name(t->dtype)) && strcmp(t->dtype_name, own) == 0)
			fl |= TLC_REC_T_NAME_OWN;
		else
			fl |= TLC_REC_T_NAME_BYTES;
	}
	tlc_rec__put_tensor(w, t->dtype, fl, t->ndim, t->shape, t->stride, t->dtype_name,
	                    t->device);
}

static void put_value(tlc_rec_w *w, const tlc_value *v, int depth)
{
	if (v->kind == TLC_VALUE_TENSOR) {
		put_tensor_value(w, &v->u.tensor);
		return;
	}
	tlc_rec__put_i(w, (int64_t)v->kind);
	switch (v->kind) {
	case TLC_VALUE_NONE: case TLC_VALUE_UNRECORDED: break;
	case TLC_VALUE_BOOL: tlc_rec__put_i(w, v->u.boolean); break;
	case TLC_VALUE_INT: tlc_rec__put_i(w, v->u.integer); break;
	case TLC_VALUE_FLOAT: tlc_rec__put_bytes(w, &v->u.real, sizeof v->u.real); break;
	case TLC_VALUE_STRING: tlc_rec__put_str(w, v->u.string); break;
	case TLC_VALUE_LIST: put_list(w, v->u.list.items, v->u.list.n, depth + 1); break;
	default: tlc_rec__put_bytes(w, &v->u, sizeof v->u); break; /* a later build's kind */
	}
}

void tlc_rec__put_value(tlc_rec_w *w, const tlc_value *v)
{
	put_value(w, v, 0);
}

void tlc_rec__put_values(tlc_rec_w *w, const tlc_value *items, size_t n)
{
	put_list(w, items, n, 0);
}

void tlc_rec__put_op(tlc_rec_w *w, const tlc_op *op, uint64_t line)
{
	tlc_op o;
	memset(&o, 0, sizeof o);
	memcpy(&o, op, op->size < sizeof o ? op->size : sizeof o);
	tlc_rec__put_u(w, line);
	tlc_rec__put_u(w, (uint64_t)o.id);
	tlc_rec__put_u(w, o.flags);
	tlc_rec__put_i(w, (int64_t)o.phase);
	const int64_t ints[] = { o.module_call, o.parent, o.host_ns, o.start_ns, o.end_ns,
		                 o.thread, (int64_t)((uint64_t)o.correlation - (uint64_t)o.id) };
	for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
		tlc_rec__put_i(w, ints[i]);
	tlc_rec__put_str(w, o.name);
	tlc_rec__put_str(w, o.overload);
	tlc_rec__put_str(w, o.module);
	tlc_rec__put_str(w, o.module_type);
	tlc_rec__put_values(w, o.args, o.nargs);
	tlc_rec__put_count(w, o.kwargs ? o.nkwargs : 0, o.kwargs != NULL);
	for (size_t i = 0; o.kwargs && i < o.nkwargs; i++) {
		tlc_rec__put_str(w, o.kwargs[i].name);
		put_value(w, &o.kwargs[i].value, 0);
	}
	int has_out = (o.flags & TLC_OP_HAS_OUTPUTS) != 0;
	tlc_rec__put_values(w, has_out ? o.outputs : NULL, has_out ? o.noutputs : 0);
}

/* ---------------------------------------------------------------- */

void tlc_rec__r_init(tlc_rec_r *r, const unsigned char *p, size_t len, tlc_arena *ar)
{
	r->p = r->start = p;
	r->end = p + len;
	r->ar = ar;
	r->rc = 0;
}

/* Bytes that are not a record: the first failure is kept. */
static void corrupt(tlc_rec_r *r, const char *what)
{
	if (r->rc)
		return;
	r->rc = tlc_error__set(TLC_EINPUT, "store_record_corrupt",
	                       "a bug in tlcost (a record it wrote did not read back): report it "
	                       "with the input that produced it",
	                       "an op record of %zu bytes is not one the encoder writes: %s at "
	                       "byte %zu", (size_t)(r->end - r->start), what,
	                       (size_t)(r->p - r->start));
}

static void *get_mem(tlc_rec_r *r, size_t n)
{
	if (r->rc)
		return NULL;
	void *m = tlc_arena__alloc(r->ar, n ? n : 1);
	if (!m)
		r->rc = tlc_error__oom();
	return m;
}

uint64_t tlc_rec__get_u_slow(tlc_rec_r *r)
{
	if (r->rc)
		return 0;
	uint64_t v = 0;
	const unsigned char *p = r->p;
	for (int s = 0; s < 64 && p < r->end; s += 7) {
		unsigned char b = *p++;
		v |= (uint64_t)(b & 0x7f) << s;
		if (!(b & 0x80)) {
			r->p = p;
			return v;
		}
	}
	corrupt(r, p < r->end ? "an integer longer than 10 bytes" : "the bytes end inside an integer");
	return 0;
}

static int get_raw(tlc_rec_r *r, void *dst, size_t n, const char *what)
{
	if (r->rc)
		return -1;
	if ((size_t)(r->end - r->p) < n) {
		corrupt(r, what);
		return -1;
	}
	memcpy(dst, r->p, n);
	r->p += n;
	return 0;
}

const char *tlc_rec__get_str(tlc_rec_r *r)
{
	uint64_t n1 = tlc_rec__get_u(r);
	if (!n1 || r->rc)
		return NULL;
	if (n1 - 1 > (uint64_t)(r->end - r->p)) {
		corrupt(r, "a string longer than the bytes left");
		return NULL;
	}
	char *s = tlc_arena__strndup(r->ar, (const char *)r->p, (size_t)(n1 - 1));
	if (!s) {
		r->rc = tlc_error__oom();
		return NULL;
	}
	r->p += n1 - 1;
	return s;
}

/* A count that cannot be right: more items than bytes left (every item
 * takes at least one byte). */
static size_t get_count(tlc_rec_r *r, int *has_items)
{
	uint64_t c = tlc_rec__get_u(r);
	*has_items = c != 0 && !r->rc;
	if (c && c - 1 > (uint64_t)(r->end - r->p)) {
		corrupt(r, "a count larger than the bytes left");
		*has_items = 0;
		return 0;
	}
	return c ? (size_t)(c - 1) : 0;
}

static int64_t *get_ints(tlc_rec_r *r, size_t n, int zigzag)
{
	int64_t *a = get_mem(r, n * sizeof *a);
	for (size_t i = 0; a && i < n; i++)
		a[i] = zigzag ? tlc_rec__get_i(r) : (int64_t)tlc_rec__get_u(r);
	return r->rc ? NULL : a;
}

static void get_tensor(tlc_rec_r *r, tlc_tensor *t)
{
	t->dtype = (tlc_dtype)tlc_rec__get_i(r);
	unsigned char fl = 0;
	if (!r->rc && r->p < r->end)
		fl = *r->p++;
	else
		corrupt(r, "the bytes end inside a tensor");
	uint64_t nd = tlc_rec__get_u(r);
	if (r->rc)
		return;
	if ((fl & (TLC_REC_T_SHAPE | TLC_REC_T_STRIDE)) && nd > (uint64_t)(r->end - r->p)) {
		corrupt(r, "a tensor with more dimensions than the bytes left");
		return;
	}
	if (fl & ~(TLC_REC_T_SHAPE | TLC_REC_T_STRIDE | TLC_REC_T_DEVICE | TLC_REC_T_NAME_OWN |
	           TLC_REC_T_NAME_BYTES | TLC_REC_T_NAME_PTR)) {
		corrupt(r, "a tensor flag no encoder writes");
		return;
	}
	t->ndim = (size_t)nd;
	t->shape = (fl & TLC_REC_T_SHAPE) ? get_ints(r, t->ndim, 0) : NULL;
	t->stride = (fl & TLC_REC_T_STRIDE) ? get_ints(r, t->ndim, 1) : NULL;
	if (fl & TLC_REC_T_NAME_PTR)
		get_raw(r, &t->dtype_name, sizeof t->dtype_name, "the bytes end inside a tensor");
	else if (fl & TLC_REC_T_NAME_BYTES)
		t->dtype_name = tlc_rec__get_str(r);
	else if (fl & TLC_REC_T_NAME_OWN)
		t->dtype_name = tlc_dtype_name(t->dtype);
	if (fl & TLC_REC_T_DEVICE)
		t->device = tlc_rec__get_str(r);
}

static tlc_value *get_values(tlc_rec_r *r, size_t *n, int depth);

static void get_value(tlc_rec_r *r, tlc_value *v, int depth)
{
	memset(v, 0, sizeof *v);
	v->kind = (tlc_value_kind)tlc_rec__get_i(r);
	switch (v->kind) {
	case TLC_VALUE_NONE: case TLC_VALUE_UNRECORDED: break;
	case TLC_VALUE_BOOL: v->u.boolean = (int)tlc_rec__get_i(r); break;
	case TLC_VALUE_INT: v->u.integer = tlc_rec__get_i(r); break;
	case TLC_VALUE_FLOAT:
		get_raw(r, &v->u.real, sizeof v->u.real, "the bytes end inside a number");
		break;
	case TLC_VALUE_STRING: v->u.string = tlc_rec__get_str(r); break;
	case TLC_VALUE_TENSOR: get_tensor(r, &v->u.tensor); break;
	case TLC_VALUE_LIST: v->u.list.items = get_values(r, &v->u.list.n, depth + 1); break;
	default: get_raw(r, &v->u, sizeof v->u, "the bytes end inside a value"); break;
	}
}

static tlc_value *get_values(tlc_rec_r *r, size_t *n, int depth)
{
	*n = 0;
	if (depth > TLC_REC_MAX_DEPTH) {
		corrupt(r, "lists nested deeper than the encoder writes");
		return NULL;
	}
	int has;
	size_t c = get_count(r, &has);
	tlc_value *items = has ? get_mem(r, c * sizeof *items) : NULL;
	for (size_t i = 0; items && i < c && !r->rc; i++)
		get_value(r, &items[i], depth);
	if (r->rc)
		return NULL;
	*n = c;
	return items;
}

void tlc_rec__get_value(tlc_rec_r *r, tlc_value *v)
{
	get_value(r, v, 0);
}

tlc_value *tlc_rec__get_values(tlc_rec_r *r, size_t *n)
{
	return get_values(r, n, 0);
}

void tlc_rec__get_op(tlc_rec_r *r, tlc_op *o, uint64_t *line)
{
	memset(o, 0, sizeof *o);
	o->size = sizeof *o;
	*line = tlc_rec__get_u(r);
	o->id = (int64_t)tlc_rec__get_u(r);
	o->flags = (unsigned)tlc_rec__get_u(r);
	o->phase = (tlc_phase)tlc_rec__get_i(r);
	int64_t *ints[] = { &o->module_call, &o->parent, &o->host_ns, &o->start_ns, &o->end_ns,
		            &o->thread, &o->correlation };
	for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
		*ints[i] = tlc_rec__get_i(r);
	o->correlation = (int64_t)((uint64_t)o->id + (uint64_t)o->correlation);
	o->name = tlc_rec__get_str(r);
	o->overload = tlc_rec__get_str(r);
	o->module = tlc_rec__get_str(r);
	o->module_type = tlc_rec__get_str(r);
	o->args = get_values(r, &o->nargs, 0);
	int has;
	size_t nk = get_count(r, &has);
	tlc_kwarg *kw = has ? get_mem(r, nk * sizeof *kw) : NULL;
	for (size_t i = 0; kw && i < nk && !r->rc; i++) {
		kw[i].name = tlc_rec__get_str(r);
		get_value(r, &kw[i].value, 0);
	}
	o->kwargs = r->rc ? NULL : kw;
	o->nkwargs = r->rc ? 0 : nk;
	o->outputs = get_values(r, &o->noutputs, 0);
}

void tlc_rec__op_key(const unsigned char *p, size_t len, uint64_t *line, int64_t *id)
{
	tlc_rec_r r;
	tlc_rec__r_init(&r, p, len, NULL);
	*line = tlc_rec__get_u(&r);
	*id = (int64_t)tlc_rec__get_u(&r);
}

int tlc_rec__r_done(tlc_rec_r *r)
{
	if (!r->rc && r->p != r->end)
		corrupt(r, "bytes after the record's end");
	return r->rc;
}
