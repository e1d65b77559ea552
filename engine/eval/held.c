/* Packed held op records (see held.h). Layout, in order: line, id, flags,
 * phase, module_call, parent, host_ns, start_ns, end_ns, thread,
 * correlation - id (variable-length integers, signed ones zigzagged); the
 * name, overload, module and module_type strings (length + 1, 0 = NULL,
 * then the bytes); then args, kwargs (name, value) and outputs, each list
 * as 2 * count + (array pointer set). A value is its kind byte and its
 * payload; a tensor's dtype name that is the dtype's own name
 * (tlc_dtype_name) is a flag bit, not bytes. Packing runs twice over the
 * same code: once to measure, once to write. */
#include <stddef.h>
#include <string.h>
#include "held.h"

typedef struct cursor {
	unsigned char *p; /* NULL while measuring */
	size_t n;
} cursor;

enum { T_SHAPE = 1, T_STRIDE = 2, T_DEVICE = 4, T_NAME_OWN = 8, T_NAME_BYTES = 16 };

static void put_raw(cursor *c, const void *s, size_t n)
{
	if (c->p && n)
		memcpy(c->p + c->n, s, n);
	c->n += n;
}

static void put_u(cursor *c, uint64_t v)
{
	unsigned char b[10];
	size_t n = 0;
	do {
		b[n] = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
		n++;
	} while (v);
	put_raw(c, b, n);
}

static void put_i(cursor *c, int64_t v)
{
	put_u(c, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

static void put_str(cursor *c, const char *s)
{
	size_t n = s ? strlen(s) : 0;
	put_u(c, s ? (uint64_t)n + 1 : 0);
	put_raw(c, s, n);
}

/* A list's count and whether its array pointer was set (a 0-element list
 * may carry either). */
static void put_count(cursor *c, size_t n, const void *items)
{
	put_u(c, (uint64_t)n * 2 + (items != NULL));
}

static void put_value(cursor *c, const tlc_value *v);

static void put_tensor(cursor *c, const tlc_tensor *t)
{
	const char *own = tlc_dtype_name(t->dtype);
	int name_own = t->dtype_name && own && strcmp(t->dtype_name, own) == 0;
	unsigned char fl = (unsigned char)((t->shape ? T_SHAPE : 0) | (t->stride ? T_STRIDE : 0) |
	                                   (t->device ? T_DEVICE : 0) |
	                                   (name_own ? T_NAME_OWN : t->dtype_name ? T_NAME_BYTES : 0));
	put_u(c, t->ndim);
	put_i(c, (int64_t)t->dtype);
	put_raw(c, &fl, 1);
	for (size_t i = 0; t->shape && i < t->ndim; i++)
		put_i(c, t->shape[i]);
	for (size_t i = 0; t->stride && i < t->ndim; i++)
		put_i(c, t->stride[i]);
	if (fl & T_NAME_BYTES)
		put_str(c, t->dtype_name);
	if (t->device)
		put_str(c, t->device);
}

static void put_value(cursor *c, const tlc_value *v)
{
	put_i(c, (int64_t)v->kind);
	switch (v->kind) {
	case TLC_VALUE_NONE: case TLC_VALUE_UNRECORDED: break;
	case TLC_VALUE_BOOL: put_i(c, v->u.boolean); break;
	case TLC_VALUE_INT: put_i(c, v->u.integer); break;
	case TLC_VALUE_FLOAT: put_raw(c, &v->u.real, sizeof v->u.real); break;
	case TLC_VALUE_STRING: put_str(c, v->u.string); break;
	case TLC_VALUE_TENSOR: put_tensor(c, &v->u.tensor); break;
	case TLC_VALUE_LIST:
		put_count(c, v->u.list.n, v->u.list.items);
		for (size_t i = 0; i < v->u.list.n; i++)
			put_value(c, &v->u.list.items[i]);
		break;
	default: put_raw(c, &v->u, sizeof v->u); break; /* a kind of a later build: as is */
	}
}

static void put_op(cursor *c, const tlc_op *o, uint64_t line)
{
	put_u(c, line);
	put_u(c, (uint64_t)o->id);
	put_u(c, o->flags);
	put_i(c, (int64_t)o->phase);
	const int64_t ints[] = { o->module_call, o->parent, o->host_ns, o->start_ns, o->end_ns,
		                 o->thread, (int64_t)((uint64_t)o->correlation - (uint64_t)o->id) };
	for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
		put_i(c, ints[i]);
	put_str(c, o->name);
	put_str(c, o->overload);
	put_str(c, o->module);
	put_str(c, o->module_type);
	put_count(c, o->nargs, o->args);
	for (size_t i = 0; i < o->nargs; i++)
		put_value(c, &o->args[i]);
	put_count(c, o->nkwargs, o->kwargs);
	for (size_t i = 0; i < o->nkwargs; i++) {
		put_str(c, o->kwargs[i].name);
		put_value(c, &o->kwargs[i].value);
	}
	int has_out = (o->flags & TLC_OP_HAS_OUTPUTS) != 0;
	put_count(c, has_out ? o->noutputs : 0, has_out ? o->outputs : NULL);
	for (size_t i = 0; has_out && i < o->noutputs; i++)
		put_value(c, &o->outputs[i]);
}

tlc_held *tlc_held__pack(const tlc_allocator *a, const tlc_op *op, uint64_t line)
{
	/* a caller's tlc_op may be of another build's size: read only that */
	tlc_op o;
	memset(&o, 0, sizeof o);
	memcpy(&o, op, op->size < sizeof o ? op->size : sizeof o);
	cursor c = { NULL, 0 };
	put_op(&c, &o, line);
	size_t total = offsetof(tlc_held, data) + c.n;
	if (total > UINT32_MAX)
		return NULL;
	tlc_held *h = tlc_alloc__malloc(a, total);
	if (!h)
		return NULL;
	h->next = NULL;
	h->size = (uint32_t)total;
	c.p = h->data;
	c.n = 0;
	put_op(&c, &o, line);
	return h;
}

/* ---------------------------------------------------------------- */

typedef struct reader {
	const unsigned char *p;
	tlc_arena *ar;
	int oom;
} reader;

static uint64_t get_u(reader *r)
{
	uint64_t v = 0;
	if (r->oom) /* after a failed allocation nothing more is read */
		return 0;
	for (int s = 0; s < 64; s += 7) {
		unsigned char b = *r->p++;
		v |= (uint64_t)(b & 0x7f) << s;
		if (!(b & 0x80))
			break;
	}
	return v;
}

static int64_t get_i(reader *r)
{
	uint64_t u = get_u(r);
	return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

static void *get_mem(reader *r, size_t n)
{
	void *m = tlc_arena__alloc(r->ar, n ? n : 1);
	if (!m)
		r->oom = 1;
	return m;
}

static const char *get_str(reader *r)
{
	uint64_t n1 = get_u(r);
	if (!n1)
		return NULL;
	char *s = tlc_arena__strndup(r->ar, (const char *)r->p, (size_t)(n1 - 1));
	r->p += n1 - 1;
	if (!s)
		r->oom = 1;
	return s;
}

static tlc_value *get_values(reader *r, size_t *n);

static void get_tensor(reader *r, tlc_tensor *t)
{
	t->ndim = (size_t)get_u(r);
	t->dtype = (tlc_dtype)get_i(r);
	unsigned char fl = r->oom ? 0 : *r->p++;
	int64_t *shape = (fl & T_SHAPE) ? get_mem(r, t->ndim * sizeof *shape) : NULL;
	for (size_t i = 0; shape && i < t->ndim; i++)
		shape[i] = get_i(r);
	int64_t *stride = (fl & T_STRIDE) ? get_mem(r, t->ndim * sizeof *stride) : NULL;
	for (size_t i = 0; stride && i < t->ndim; i++)
		stride[i] = get_i(r);
	t->shape = shape;
	t->stride = stride;
	t->dtype_name = (fl & T_NAME_OWN) ? tlc_dtype_name(t->dtype)
	                : (fl & T_NAME_BYTES) ? get_str(r) : NULL;
	t->device = (fl & T_DEVICE) ? get_str(r) : NULL;
}

static void get_value(reader *r, tlc_value *v)
{
	memset(v, 0, sizeof *v);
	v->kind = (tlc_value_kind)get_i(r);
	switch (v->kind) {
	case TLC_VALUE_NONE: case TLC_VALUE_UNRECORDED: break;
	case TLC_VALUE_BOOL: v->u.boolean = (int)get_i(r); break;
	case TLC_VALUE_INT: v->u.integer = get_i(r); break;
	case TLC_VALUE_FLOAT:
		if (!r->oom) {
			memcpy(&v->u.real, r->p, sizeof v->u.real);
			r->p += sizeof v->u.real;
		}
		break;
	case TLC_VALUE_STRING: v->u.string = get_str(r); break;
	case TLC_VALUE_TENSOR: get_tensor(r, &v->u.tensor); break;
	case TLC_VALUE_LIST: v->u.list.items = get_values(r, &v->u.list.n); break;
	default:
		if (!r->oom) {
			memcpy(&v->u, r->p, sizeof v->u);
			r->p += sizeof v->u;
		}
		break;
	}
}

/* A counted list of values (see put_count); NULL when its pointer was. */
static tlc_value *get_values(reader *r, size_t *n)
{
	uint64_t c = get_u(r);
	*n = (size_t)(c / 2);
	tlc_value *items = (c & 1) ? get_mem(r, *n * sizeof *items) : NULL;
	for (size_t i = 0; items && i < *n; i++)
		get_value(r, &items[i]);
	return items;
}

static void get_head(reader *r, uint64_t *line, int64_t *id)
{
	*line = get_u(r);
	*id = (int64_t)get_u(r);
}

void tlc_held__key(const tlc_held *h, uint64_t *line, int64_t *id)
{
	reader r = { h->data, NULL, 0 };
	get_head(&r, line, id);
}

int tlc_held__unpack(tlc_op *out, const tlc_held *h, tlc_arena *ar)
{
	reader r = { h->data, ar, 0 };
	tlc_op *o = out;
	memset(o, 0, sizeof *o);
	o->size = sizeof *o;
	uint64_t line;
	get_head(&r, &line, &o->id);
	o->flags = (unsigned)get_u(&r);
	o->phase = (tlc_phase)get_i(&r);
	int64_t *ints[] = { &o->module_call, &o->parent, &o->host_ns, &o->start_ns, &o->end_ns,
		            &o->thread, &o->correlation };
	for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
		*ints[i] = get_i(&r);
	o->correlation = (int64_t)((uint64_t)o->id + (uint64_t)o->correlation);
	o->name = get_str(&r);
	o->overload = get_str(&r);
	o->module = get_str(&r);
	o->module_type = get_str(&r);
	o->args = get_values(&r, &o->nargs);
	uint64_t nk = get_u(&r);
	o->nkwargs = (size_t)(nk / 2);
	tlc_kwarg *kw = (nk & 1) ? get_mem(&r, o->nkwargs * sizeof *kw) : NULL;
	for (size_t i = 0; kw && i < o->nkwargs; i++) {
		kw[i].name = get_str(&r);
		get_value(&r, &kw[i].value);
	}
	o->kwargs = kw;
	o->outputs = get_values(&r, &o->noutputs);
	return r.oom ? TLC_ENOMEM : 0;
}
