/* Deep copy of a tlc_op into one block: measure, then copy. */
#include <string.h>
#include "opcopy.h"

typedef struct cursor {
	unsigned char *p; /* NULL while measuring */
	size_t used;
} cursor;

static void *take(cursor *c, size_t n, size_t align)
{
	c->used = (c->used + align - 1) & ~(align - 1);
	void *r = c->p ? c->p + c->used : NULL;
	c->used += n;
	return r;
}

static const char *copy_str(cursor *c, const char *s)
{
	if (!s)
		return NULL;
	size_t n = strlen(s) + 1;
	char *d = take(c, n, 1);
	if (d)
		memcpy(d, s, n);
	return d;
}

static void copy_values(cursor *c, tlc_value *dst, const tlc_value *src, size_t n);

static void copy_value(cursor *c, tlc_value *d, const tlc_value *s)
{
	if (d)
		*d = *s;
	if (s->kind == TLC_VALUE_STRING) {
		const char *str = copy_str(c, s->u.string);
		if (d)
			d->u.string = str;
	} else if (s->kind == TLC_VALUE_TENSOR) {
		const tlc_tensor *t = &s->u.tensor;
		size_t bytes = t->ndim * sizeof(int64_t);
		int64_t *shape = take(c, bytes, 8);
		int64_t *stride = t->stride ? take(c, bytes, 8) : NULL;
		const char *dn = copy_str(c, t->dtype_name);
		const char *dev = copy_str(c, t->device);
		if (d) {
			if (bytes)
				memcpy(shape, t->shape, bytes);
			if (stride && bytes)
				memcpy(stride, t->stride, bytes);
			d->u.tensor.shape = shape;
			d->u.tensor.stride = t->stride ? stride : NULL;
			d->u.tensor.dtype_name = dn;
			d->u.tensor.device = dev;
		}
	} else if (s->kind == TLC_VALUE_LIST) {
		tlc_value *items = take(c, s->u.list.n * sizeof *items, 8);
		copy_values(c, items, s->u.list.items, s->u.list.n);
		if (d)
			d->u.list.items = items;
	}
}

static void copy_values(cursor *c, tlc_value *dst, const tlc_value *src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		copy_value(c, dst ? &dst[i] : NULL, &src[i]);
}

static void copy_op(cursor *c, const tlc_op *op)
{
	tlc_op *d = take(c, sizeof *d, 16);
	if (d) {
		memset(d, 0, sizeof *d);
		memcpy(d, op, op->size < sizeof *d ? op->size : sizeof *d);
		d->size = sizeof *d;
	}
	const char *name = copy_str(c, op->name);
	const char *ovl = copy_str(c, op->overload);
	const char *mod = copy_str(c, op->module);
	const char *mt = copy_str(c, op->module_type);
	tlc_value *args = take(c, op->nargs * sizeof *args, 8);
	copy_values(c, args, op->args, op->nargs);
	tlc_kwarg *kw = take(c, op->nkwargs * sizeof *kw, 8);
	for (size_t i = 0; i < op->nkwargs; i++) {
		const char *kn = copy_str(c, op->kwargs[i].name);
		copy_value(c, kw ? &kw[i].value : NULL, &op->kwargs[i].value);
		if (kw)
			kw[i].name = kn;
	}
	size_t nout = (op->flags & TLC_OP_HAS_OUTPUTS) ? op->noutputs : 0;
	tlc_value *outs = take(c, nout * sizeof *outs, 8);
	copy_values(c, outs, op->outputs, nout);
	if (d) {
		d->name = name;
		d->overload = ovl;
		d->module = mod;
		d->module_type = mt;
		d->args = args;
		d->kwargs = kw;
		d->outputs = outs;
		d->noutputs = nout;
	}
}

tlc_op *tlc_opcopy__clone(const tlc_allocator *a, const tlc_op *op)
{
	cursor measure = { NULL, 0 };
	copy_op(&measure, op);
	cursor c = { tlc_alloc__malloc(a, measure.used), 0 };
	if (!c.p)
		return NULL;
	copy_op(&c, op);
	return (tlc_op *)c.p;
}
