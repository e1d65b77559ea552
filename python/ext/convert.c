/* Values between Python and libtlcost: dispatcher arguments (Python
 * objects, torch tensors) to tlc_value trees in a per-call arena, and the
 * library's values and exact decimals back to Python objects. */
#include "ext.h"
#include <string.h>

/* ---- arena: one push converts into it, the next reuses it ---- */

struct tlpy_arena_block {
	tlpy_arena_block *next;
	size_t used, cap;
	max_align_t data[];
};

#define ARENA_BLOCK (16u * 1024u)

void *tlpy_arena_alloc(tlpy_arena *a, size_t n)
{
	n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
	tlpy_arena_block *b = a->head;
	if (!b || b->cap - b->used < n) {
		size_t cap = n > ARENA_BLOCK ? n : ARENA_BLOCK;
		if (!b && a->spare && a->spare->cap >= n) {
			b = a->spare;
			a->spare = NULL;
			b->used = 0;
			b->next = NULL;
		} else {
			b = PyMem_RawMalloc(sizeof *b + cap);
			if (!b) {
				PyErr_NoMemory();
				return NULL;
			}
			b->cap = cap;
			b->used = 0;
			b->next = a->head;
		}
		a->head = b;
	}
	void *p = (char *)b->data + b->used;
	b->used += n;
	return p;
}

/* Keeps the oldest block for the next call, frees the rest: a push of a
 * huge op does not pin its memory for the rest of the capture. */
void tlpy_arena_reset(tlpy_arena *a)
{
	tlpy_arena_block *b = a->head;
	while (b) {
		tlpy_arena_block *next = b->next;
		if (!next && !a->spare && b->cap == ARENA_BLOCK) {
			b->used = 0;
			a->spare = b;
		} else {
			PyMem_RawFree(b);
		}
		b = next;
	}
	a->head = NULL;
}

void tlpy_arena_free(tlpy_arena *a)
{
	tlpy_arena_reset(a);
	PyMem_RawFree(a->spare);
	a->spare = NULL;
}

static const char *arena_str(tlpy_arena *a, PyObject *s)
{
	Py_ssize_t n;
	const char *u = PyUnicode_AsUTF8AndSize(s, &n);
	if (!u)
		return NULL;
	char *p = tlpy_arena_alloc(a, (size_t)n + 1);
	if (p)
		memcpy(p, u, (size_t)n + 1);
	return p;
}

/* ---- Python -> tlc_value ---- */

/* Attribute names as interned strings: a capture looks them up on every
 * tensor of every op. */
enum { S_SHAPE, S_DTYPE, S_DEVICE, S_LAYOUT, S_STRIDE, S_COUNT };
static PyObject *names_g[S_COUNT];

static PyObject *attr(PyObject *v, int which)
{
	static const char *text[S_COUNT] = { "shape", "dtype", "device", "layout", "stride" };
	if (!names_g[which] && !(names_g[which] = PyUnicode_InternFromString(text[which])))
		return NULL;
	return PyObject_GetAttr(v, names_g[which]);
}

static int int64_of(int64_t *out, PyObject *v)
{
	int overflow = 0;
	long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
	if (overflow) {
		tlpy_raise(TLC_EINPUT, "capture_value_out_of_range",
		           "op log v1 integers are 64-bit: pass a smaller value",
		           "an integer argument does not fit 64 bits");
		return -1;
	}
	if (x == -1 && PyErr_Occurred())
		return -1;
	*out = (int64_t)x;
	return 0;
}

/* shape or stride: a tuple (torch.Size) of ints */
static int dims_of(const int64_t **out, size_t *n, PyObject *tuple, tlpy_arena *a)
{
	PyObject *seq = PySequence_Fast(tuple, "tensor dimensions must be a sequence");
	if (!seq)
		return -1;
	Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
	int64_t *d = tlpy_arena_alloc(a, (size_t)(len ? len : 1) * sizeof *d);
	int rc = d ? 0 : -1;
	for (Py_ssize_t i = 0; rc == 0 && i < len; i++)
		rc = int64_of(&d[i], PySequence_Fast_GET_ITEM(seq, i));
	Py_DECREF(seq);
	*out = d;
	*n = (size_t)len;
	return rc;
}

/* A cached name for an interned torch object (dtype, device). */
static PyObject *name_of(PyObject *cache, PyObject *obj)
{
	PyObject *name = cache ? PyDict_GetItemWithError(cache, obj) : NULL;
	if (name) {
		Py_INCREF(name);
		return name;
	}
	if (PyErr_Occurred())
		return NULL;
	name = tlpy_hooks_g.encode_other ? PyObject_CallOneArg(tlpy_hooks_g.encode_other, obj)
	                                 : PyObject_Str(obj);
	if (name && cache && PyUnicode_Check(name) && PyDict_SetItem(cache, obj, name) < 0)
		Py_CLEAR(name);
	return name;
}

static int tensor_dtype(tlc_tensor *t, PyObject *v, tlpy_arena *a)
{
	PyObject *dt = attr(v, S_DTYPE);
	if (!dt)
		return -1;
	PyObject *name = name_of(tlpy_hooks_g.dtype_names, dt);
	Py_DECREF(dt);
	if (!name)
		return -1;
	int rc = -1;
	if (PyUnicode_Check(name) && (t->dtype_name = arena_str(a, name))) {
		t->dtype = tlc_dtype_parse(t->dtype_name);
		rc = 0;
	}
	Py_DECREF(name);
	return rc;
}

static int tensor_device(tlc_tensor *t, PyObject *v, tlpy_arena *a)
{
	PyObject *dev = attr(v, S_DEVICE);
	if (!dev)
		return -1;
	PyObject *name = name_of(tlpy_hooks_g.device_names, dev);
	Py_DECREF(dev);
	if (!name)
		return -1;
	int rc = PyUnicode_Check(name) && (t->device = arena_str(a, name)) ? 0 : -1;
	Py_DECREF(name);
	return rc;
}

/* Strides of a strided tensor; none for other layouts, or when torch
 * refuses (nested tensors), exactly as the op log writer leaves them out. */
static int tensor_stride(tlc_tensor *t, PyObject *v, tlpy_arena *a)
{
	PyObject *layout = attr(v, S_LAYOUT);
	if (!layout)
		return -1;
	int strided = layout == tlpy_hooks_g.strided;
	Py_DECREF(layout);
	if (!strided)
		return 0;
	PyObject *meth = attr(v, S_STRIDE);
	PyObject *st = meth ? PyObject_CallNoArgs(meth) : NULL;
	Py_XDECREF(meth);
	if (!st) {
		if (!PyErr_ExceptionMatches(PyExc_RuntimeError))
			return -1;
		PyErr_Clear();
		return 0;
	}
	size_t n = 0;
	int rc = dims_of(&t->stride, &n, st, a);
	Py_DECREF(st);
	if (rc == 0 && n != t->ndim)
		t->stride = NULL;
	return rc;
}

static int tensor_from_py(tlc_value *out, PyObject *v, tlpy_arena *a)
{
	tlc_tensor *t = &out->u.tensor;
	memset(t, 0, sizeof *t);
	out->kind = TLC_VALUE_TENSOR;
	PyObject *shape = attr(v, S_SHAPE);
	if (!shape)
		return -1;
	int rc = dims_of(&t->shape, &t->ndim, shape, a);
	Py_DECREF(shape);
	if (rc == 0)
		rc = tensor_dtype(t, v, a);
	if (rc == 0)
		rc = tensor_stride(t, v, a);
	if (rc == 0)
		rc = tensor_device(t, v, a);
	return rc;
}

static int list_from_py(tlc_value *out, PyObject *v, tlpy_arena *a, int depth)
{
	Py_ssize_t n = PySequence_Fast_GET_SIZE(v);
	tlc_value *items = tlpy_arena_alloc(a, (size_t)(n ? n : 1) * sizeof *items);
	if (!items)
		return -1;
	for (Py_ssize_t i = 0; i < n; i++)
		if (tlpy_value_from_py(&items[i], PySequence_Fast_GET_ITEM(v, i), a, depth + 1) < 0)
			return -1;
	out->kind = TLC_VALUE_LIST;
	out->u.list.n = (size_t)n;
	out->u.list.items = items;
	return 0;
}

/* Anything else goes through tlcost.capture's encoder (dtypes, layouts,
 * memory formats, devices, generators -> their op log strings). */
static int other_from_py(tlc_value *out, PyObject *v, tlpy_arena *a, int depth)
{
	PyObject *enc = tlpy_hooks_g.encode_other ? PyObject_CallOneArg(tlpy_hooks_g.encode_other, v)
	                                          : PyObject_Str(v);
	if (!enc)
		return -1;
	int rc;
	if (PyUnicode_Check(enc)) {
		out->kind = TLC_VALUE_STRING;
		rc = (out->u.string = arena_str(a, enc)) ? 0 : -1;
	} else if (enc == v || PyObject_TypeCheck(enc, Py_TYPE(v))) {
		rc = -1;
		PyErr_Format(PyExc_TypeError, "tlcost cannot encode a %s argument", Py_TYPE(v)->tp_name);
	} else {
		rc = tlpy_value_from_py(out, enc, a, depth + 1);
	}
	Py_DECREF(enc);
	return rc;
}

int tlpy_value_from_py(tlc_value *out, PyObject *v, tlpy_arena *a, int depth)
{
	memset(out, 0, sizeof *out);
	if (depth > 64) {
		tlpy_raise(TLC_EINPUT, "capture_value_out_of_range", "flatten the argument",
		           "an argument nests lists more than 64 deep");
		return -1;
	}
	if (v == Py_None) {
		out->kind = TLC_VALUE_NONE;
		return 0;
	}
	if (PyBool_Check(v)) {
		out->kind = TLC_VALUE_BOOL;
		out->u.boolean = v == Py_True;
		return 0;
	}
	if (PyLong_Check(v)) {
		out->kind = TLC_VALUE_INT;
		return int64_of(&out->u.integer, v);
	}
	if (PyFloat_Check(v)) {
		out->kind = TLC_VALUE_FLOAT;
		out->u.real = PyFloat_AS_DOUBLE(v);
		return 0;
	}
	if (PyUnicode_Check(v)) {
		out->kind = TLC_VALUE_STRING;
		return (out->u.string = arena_str(a, v)) ? 0 : -1;
	}
	if (tlpy_hooks_g.tensor_type && PyObject_TypeCheck(v, (PyTypeObject *)tlpy_hooks_g.tensor_type))
		return tensor_from_py(out, v, a);
	if (PyList_Check(v) || PyTuple_Check(v))
		return list_from_py(out, v, a, depth);
	return other_from_py(out, v, a, depth);
}

int tlpy_values_from_seq(const tlc_value **out, size_t *n, PyObject *seq, tlpy_arena *a)
{
	*out = NULL;
	*n = 0;
	if (seq == Py_None)
		return 0;
	if (!PyList_Check(seq) && !PyTuple_Check(seq)) {
		PyErr_SetString(PyExc_TypeError, "args and outputs must be lists or tuples");
		return -1;
	}
	tlc_value v;
	if (list_from_py(&v, seq, a, 0) < 0)
		return -1;
	*out = v.u.list.items;
	*n = v.u.list.n;
	return 0;
}

int tlpy_kwargs_from_dict(const tlc_kwarg **out, size_t *n, PyObject *dict, tlpy_arena *a)
{
	*out = NULL;
	*n = 0;
	if (dict == Py_None)
		return 0;
	if (!PyDict_Check(dict)) {
		PyErr_SetString(PyExc_TypeError, "kwargs must be a dict");
		return -1;
	}
	Py_ssize_t len = PyDict_Size(dict), pos = 0, i = 0;
	tlc_kwarg *kw = tlpy_arena_alloc(a, (size_t)(len ? len : 1) * sizeof *kw);
	if (!kw)
		return -1;
	PyObject *k, *v;
	while (PyDict_Next(dict, &pos, &k, &v)) {
		if (!PyUnicode_Check(k)) {
			PyErr_SetString(PyExc_TypeError, "kwargs keys must be str");
			return -1;
		}
		if (!(kw[i].name = arena_str(a, k)) || tlpy_value_from_py(&kw[i].value, v, a, 0) < 0)
			return -1;
		i++;
	}
	*out = kw;
	*n = (size_t)i;
	return 0;
}

/* ---- tlc_value -> Python (for Python rules) ---- */

static PyObject *dims_to_py(const int64_t *d, size_t n)
{
	PyObject *t = PyTuple_New((Py_ssize_t)n);
	for (size_t i = 0; t && i < n; i++) {
		PyObject *x = PyLong_FromLongLong((long long)d[i]);
		if (!x) {
			Py_CLEAR(t);
			break;
		}
		PyTuple_SET_ITEM(t, (Py_ssize_t)i, x);
	}
	return t;
}

static PyObject *str_or_none(const char *s)
{
	if (s)
		return PyUnicode_FromString(s);
	Py_RETURN_NONE;
}

static PyObject *tensor_to_py(const tlc_tensor *t)
{
	const char *dtype = t->dtype_name ? t->dtype_name
	                    : t->dtype == TLC_DTYPE_NONE ? NULL : tlc_dtype_name(t->dtype);
	PyObject *shape = dims_to_py(t->shape, t->ndim);
	PyObject *stride = t->stride ? dims_to_py(t->stride, t->ndim) : (Py_INCREF(Py_None), Py_None);
	PyObject *dt = str_or_none(dtype), *dev = str_or_none(t->device);
	PyObject *r = NULL;
	if (shape && stride && dt && dev) {
		if (tlpy_hooks_g.tensor_view)
			r = PyObject_CallFunctionObjArgs(tlpy_hooks_g.tensor_view, shape, dt, stride, dev, NULL);
		else
			r = PyTuple_Pack(4, shape, dt, stride, dev);
	}
	Py_XDECREF(shape);
	Py_XDECREF(stride);
	Py_XDECREF(dt);
	Py_XDECREF(dev);
	return r;
}

PyObject *tlpy_value_to_py(const tlc_value *v, int depth)
{
	switch (v->kind) {
	case TLC_VALUE_BOOL: return PyBool_FromLong(v->u.boolean);
	case TLC_VALUE_INT: return PyLong_FromLongLong((long long)v->u.integer);
	case TLC_VALUE_FLOAT: return PyFloat_FromDouble(v->u.real);
	case TLC_VALUE_STRING: return PyUnicode_FromString(v->u.string ? v->u.string : "");
	case TLC_VALUE_TENSOR: return tensor_to_py(&v->u.tensor);
	case TLC_VALUE_LIST: {
		PyObject *l = PyList_New((Py_ssize_t)v->u.list.n);
		for (size_t i = 0; l && i < v->u.list.n; i++) {
			PyObject *x = depth < 64 ? tlpy_value_to_py(&v->u.list.items[i], depth + 1)
			                         : (Py_INCREF(Py_None), Py_None);
			if (!x) {
				Py_CLEAR(l);
				break;
			}
			PyList_SET_ITEM(l, (Py_ssize_t)i, x);
		}
		return l;
	}
	default: Py_RETURN_NONE;
	}
}

PyObject *tlpy_int_from_dec(const char *dec)
{
	if (!dec)
		Py_RETURN_NONE;
	return PyLong_FromString(dec, NULL, 10);
}
