/* An op's argument values from a Kineto event's Input Dims / Input type /
 * Input Strides / Concrete Inputs (every trace generation since 2021), and
 * their compact encoding, so the trace reader keeps a few bytes per
 * dimension rather than a tlc_value (56 bytes) per argument while it waits
 * for the whole trace. Encoding: varint count, then per value a kind byte
 * and its payload (varints, zigzag for signed numbers; interned dtype names
 * as a pointer). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "names.h"
#include "trace.h"

/* ---------------------------------------------------------------- */
/* arguments                                                         */
/* ---------------------------------------------------------------- */

/* A tensor's Input type is its C++ element type, always lower case
 * ("float", "c10::BFloat16", "long int"); every marker of a non-tensor value
 * is capitalised ("Scalar", "ScalarList", "TensorList", "GenericList", and in
 * 2021 traces "Int", "Double", "Bool") or empty. */
static int is_tensor_type(const char *ty)
{
	return ty[0] >= 'a' && ty[0] <= 'z';
}

/* The 2021 format names the IValue tag of every number and list ("Int",
 * "Double", "Bool", "GenericList", ...): there an empty type is never a
 * number or a list, only None, an undefined tensor, a string or a device. */
static int is_tag_kind(const char *ty)
{
	static const char *const tags[] = { "Int", "Double", "Bool", "GenericList",
		"IntList", "DoubleList", "BoolList", "SymInt", "ComplexDouble" };
	if (ty[0] < 'A' || ty[0] > 'Z') /* (a tensor's type, as most are: none of them) */
		return 0;
	for (size_t i = 0; i < sizeof tags / sizeof tags[0]; i++)
		if (ty[0] == tags[i][0] && strcmp(ty, tags[i]) == 0) /* ("Scalar": one compare) */
			return 1;
	return 0;
}

/* The children of an array in order: first_child, then next_child; NULL
 * past the last one (and for no array at all). */
static const tlc_tnode *first_child(const tlc_tnode *arr)
{
	return arr && arr->kind == TLC_TNODE_ARRAY ? arr->first : NULL;
}

static const tlc_tnode *next_child(const tlc_tnode *c)
{
	return c ? c->next : NULL;
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

/* A tensor's dtype and dtype name from its Input type ty (NULL: none). */
static int tensor_dtype(tlc_dtype *dtype, const char **name, tlc_trace_ops *t, const char *ty)
{
	*dtype = TLC_DTYPE_NONE;
	if (ty && t->last_type && strcmp(t->last_type, ty) == 0) {
		*dtype = t->last_type_dtype;
	} else if (ty) {
		*dtype = tlc_dtype__parse_cpp(ty); /* the one dtype table */
		t->last_type = NULL; /* ty lives in a per-event arena: cache via the interned name */
	}
	*name = NULL;
	if (ty && ty[0]) {
		/* most tensors of a trace share a few dtypes: reuse the last one */
		if (t->last_dtype && strcmp(t->last_dtype, ty) == 0)
			*name = t->last_dtype;
		else if (t->intern)
			*name = t->last_dtype = tlc_intern__get(t->intern, ty, strlen(ty));
		if (t->intern && *name) {
			t->last_type = *name; /* stable: interned */
			t->last_type_dtype = *dtype;
		}
		else
			*name = tlc_arena__strdup(t->varena, ty);
		if (!*name)
			return TLC_ENOMEM;
	}
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
	return tensor_dtype(&v->u.tensor.dtype, &v->u.tensor.dtype_name, t, ty);
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
	const tlc_tnode *sc = first_child(strides);
	for (const tlc_tnode *c = dims->first; c; c = c->next, k++, sc = next_child(sc)) {
		if (c->kind != TLC_TNODE_ARRAY)
			return -1;
		int rc = make_tensor(&items[k], t, c, sc, NULL);
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

static void set_kind(tlc_value *v, tlc_value_kind k)
{
	memset(v, 0, sizeof *v);
	v->kind = k;
}

/* How the op's record spells values it did not record (see set_scalar). */
typedef struct arg_style {
	int concrete; /* Concrete Inputs recorded */
	int tagged;   /* 2021: numbers and lists carry their IValue tag */
} arg_style;

/* A non-tensor argument. With Concrete Inputs every number and list of
 * numbers is written, so an empty entry of empty type is None (or a value no
 * trace records: a string, a device; TLC_OP_ARGS_OBSERVED keeps rules from
 * reading a default into it). Without them a number or list is only named
 * (2021 "Int"/"GenericList", 2022 "Scalar", or an empty type in 2022): the
 * argument was passed but its value is UNRECORDED. */
static int set_scalar(tlc_value *v, tlc_trace_ops *t, const char *ty, const tlc_tnode *conc,
                      arg_style st)
{
	if (conc && conc->kind == TLC_TNODE_STRING && conc->len > 0)
		return parse_concrete(v, t, conc->text, conc->len);
	if (!ty[0] && (st.concrete || st.tagged))
		set_kind(v, TLC_VALUE_NONE);
	else
		set_kind(v, TLC_VALUE_UNRECORDED);
	return 0;
}

/* What one argument of a cpu_op is, from its 'Input Dims' and 'Input type'
 * entries: the one classification build_one and enc_one share. */
typedef enum arg_kind { ARG_BAD, ARG_TENSOR_LIST, ARG_TENSOR, ARG_SHAPE, ARG_SCALAR } arg_kind;

static arg_kind classify_arg(const tlc_tnode *dims, const tlc_tnode *tyn, const char **ty,
                             const char **why)
{
	*ty = tyn && tyn->kind == TLC_TNODE_STRING ? tyn->text : "";
	int dims_list = dims && dims->kind == TLC_TNODE_ARRAY && dims->first &&
	                dims->first->kind == TLC_TNODE_ARRAY;
	int dims_array = dims && dims->kind == TLC_TNODE_ARRAY;
	if (((*ty)[0] == 'T' && strcmp(*ty, "TensorList") == 0) || dims_list) {
		if (!dims_array)
			*why = "'Input Dims' entry of a TensorList is not an array";
		return dims_array ? ARG_TENSOR_LIST : ARG_BAD;
	}
	if (is_tensor_type(*ty)) {
		if (!dims_array)
			*why = "'Input Dims' entry of a tensor is not an array";
		return dims_array ? ARG_TENSOR : ARG_BAD;
	}
	if (!tyn && dims_array && dims->n > 0)
		return ARG_SHAPE; /* no Input type: a shape, dtype unknown */
	return ARG_SCALAR;
}

/* The end of build_one and enc_one: 0, TLC_ENOMEM, or -1 with *why for a
 * builder's refusal. */
static int arg_result(int rc, const char **why)
{
	if (rc == TLC_ENOMEM)
		return rc;
	if (rc) {
		*why = "'Input Dims' holds a negative, non-integer or oversized entry";
		return -1;
	}
	return 0;
}

/* 0 when the argument was built, -1 (with *why) when it is malformed. */
static int build_one(tlc_value *v, tlc_trace_ops *t, const tlc_tnode *dims,
                     const tlc_tnode *tyn, const tlc_tnode *strides, const tlc_tnode *conc,
                     arg_style st, const char **why)
{
	const char *ty;
	int rc;
	switch (classify_arg(dims, tyn, &ty, why)) {
	case ARG_BAD:
		return -1;
	case ARG_TENSOR_LIST:
		rc = make_tensor_list(v, t, dims, strides);
		break;
	case ARG_TENSOR:
		rc = make_tensor(v, t, dims, strides, ty);
		break;
	case ARG_SHAPE:
		rc = make_tensor(v, t, dims, strides, NULL);
		break;
	default:
		rc = set_scalar(v, t, ty, conc, st);
		break;
	}
	return arg_result(rc, why);
}

/* Every schema argument is built, in order: a value the trace did not record
 * is TLC_VALUE_UNRECORDED, so the arguments after it keep their positions
 * (the shapes of cudnn_convolution_backward_input follow an unrecorded
 * int[] in 2021 traces). */
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
	arg_style st = { concrete != NULL, 0 };
	for (const tlc_tnode *ty = first_child(types); !st.tagged && ty; ty = ty->next)
		st.tagged = ty->kind == TLC_TNODE_STRING && is_tag_kind(ty->text);
	tlc_value *v = n ? tlc_arena__alloc(t->varena, n * sizeof *v) : NULL;
	if (n && !v)
		return TLC_ENOMEM;
	const tlc_tnode *cd = first_child(dims), *ct = first_child(types);
	const tlc_tnode *cs = first_child(strides), *cc = first_child(concrete);
	for (size_t k = 0; k < n; k++) {
		int rc = build_one(&v[k], t, cd, ct, cs, cc, st, why);
		if (rc == TLC_ENOMEM)
			return rc;
		if (rc < 0)
			return TLC_EINPUT;
		cd = next_child(cd), ct = next_child(ct), cs = next_child(cs), cc = next_child(cc);
	}
	*out = v;
	*nout = n;
	return 0;
}
/* ---------------------------------------------------------------- */
/* compact encoding                                                  */
/* ---------------------------------------------------------------- */

#define MAX_NEST 8

/* The bytes being encoded: on the stack while they fit (an op's args take
 * a few dozen bytes), on the heap beyond. Writes are unchecked after
 * enc_room says the bytes are there; a failed growth sets oom and every
 * later write is dropped (the encoding is then refused whole). */
typedef struct enc {
	unsigned char *p;
	size_t n, cap;
	int oom;
	const tlc_allocator *a;
	unsigned char stack[512];
} enc;

static int enc_grow(enc *e, size_t k)
{
	if (e->oom)
		return 0;
	size_t cap = e->cap;
	while (cap - e->n < k) {
		if (cap > SIZE_MAX / 2) {
			e->oom = 1;
			return 0;
		}
		cap *= 2;
	}
	unsigned char *q = e->p == e->stack ? tlc_alloc__malloc(e->a, cap)
	                                    : tlc_alloc__realloc(e->a, e->p, cap);
	if (!q) {
		e->oom = 1;
		return 0;
	}
	if (e->p == e->stack)
		memcpy(q, e->stack, e->n);
	e->p = q;
	e->cap = cap;
	return 1;
}

static inline int enc_room(enc *e, size_t k)
{
	return e->cap - e->n >= k || enc_grow(e, k);
}

static inline void put_u(enc *e, uint64_t v)
{
	if (!enc_room(e, 10))
		return;
	unsigned char *b = e->p + e->n;
	while (v >= 0x80) {
		*b++ = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	*b++ = (unsigned char)v;
	e->n = (size_t)(b - e->p);
}

static inline void put_i(enc *e, int64_t v)
{
	put_u(e, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

static inline void put_byte(enc *e, unsigned char c)
{
	if (enc_room(e, 1))
		e->p[e->n++] = c;
}

static void put_bytes(enc *e, const void *s, size_t n)
{
	if (enc_room(e, n)) {
		memcpy(e->p + e->n, s, n);
		e->n += n;
	}
}

static void put_value(enc *e, const tlc_value *v, int depth);

static void put_tensor(enc *e, const tlc_tensor *t)
{
	put_byte(e, (unsigned char)(char)t->dtype);
	put_byte(e, (unsigned char)((t->stride ? 1 : 0) | (t->dtype_name ? 2 : 0)));
	put_u(e, t->ndim);
	for (size_t i = 0; i < t->ndim; i++)
		put_u(e, (uint64_t)t->shape[i]);
	for (size_t i = 0; t->stride && i < t->ndim; i++)
		put_i(e, t->stride[i]);
	if (t->dtype_name)
		put_bytes(e, &t->dtype_name, sizeof t->dtype_name);
}

static void put_value(enc *e, const tlc_value *v, int depth)
{
	put_byte(e, (unsigned char)(char)v->kind);
	switch (v->kind) {
	case TLC_VALUE_BOOL: put_byte(e, (unsigned char)(v->u.boolean != 0)); break;
	case TLC_VALUE_INT: put_i(e, v->u.integer); break;
	case TLC_VALUE_FLOAT: put_bytes(e, &v->u.real, sizeof v->u.real); break;
	case TLC_VALUE_STRING: {
		size_t n = strlen(v->u.string);
		put_u(e, n);
		put_bytes(e, v->u.string, n);
		break;
	}
	case TLC_VALUE_TENSOR: put_tensor(e, &v->u.tensor); break;
	case TLC_VALUE_LIST:
		put_u(e, depth < MAX_NEST ? v->u.list.n : 0);
		for (size_t i = 0; depth < MAX_NEST && i < v->u.list.n; i++)
			put_value(e, &v->u.list.items[i], depth + 1);
		break;
	default: break;
	}
}

/* FNV-1a over 8-byte words (then the tail bytes): only this index sees it,
 * and a multiply per word rather than per byte keeps it off the profile. */
static uint64_t bytes_hash(const unsigned char *p, uint32_t n)
{
	uint64_t h = 1469598103934665603ull ^ n;
	uint32_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, p + i, 8);
		h = (h ^ w) * 1099511628211ull;
		h ^= h >> 29;
	}
	for (; i < n; i++)
		h = (h ^ p[i]) * 1099511628211ull;
	return h;
}

/* Keeps the encoding s[0..n) in t->arena, once: an op on the same shapes as
 * an earlier one points at that op's bytes (the bytes are never changed). A
 * hash slot that holds other bytes keeps its first owner; the new bytes are
 * then kept unshared. */
static int keep_args(const unsigned char **out, uint32_t *len, tlc_trace_ops *t,
                     const unsigned char *s, uint32_t n)
{
	int64_t key = (int64_t)(bytes_hash(s, n) >> 1);
	tlc_trace_args_ref *ref = tlc_idmap__get(&t->args_index, key);
	if (ref && ref->len == n && memcmp(ref->p, s, n) == 0) {
		*out = ref->p;
		*len = n;
		return 0;
	}
	unsigned char *p = tlc_arena__alloc(&t->arena, n ? n : 1);
	if (!p)
		return TLC_ENOMEM;
	memcpy(p, s, n);
	if (!ref) {
		int created;
		if (!(ref = tlc_idmap__put(&t->args_index, key, &created)))
			return TLC_ENOMEM;
		ref->p = p;
		ref->len = n;
	}
	*out = p;
	*len = n;
	return 0;
}

int tlc_trace__encode_args(const unsigned char **out, uint32_t *len, tlc_trace_ops *t,
                           const tlc_value *v, size_t n)
{
	enc e;
	e.p = e.stack;
	e.n = 0;
	e.cap = sizeof e.stack;
	e.oom = 0;
	e.a = t->a;
	put_u(&e, n);
	for (size_t i = 0; i < n; i++)
		put_value(&e, &v[i], 0);
	int rc = !e.oom && e.n <= UINT32_MAX ? 0 : TLC_ENOMEM;
	if (rc == 0)
		rc = keep_args(out, len, t, e.p, (uint32_t)e.n);
	if (e.p != e.stack)
		tlc_alloc__free(t->a, e.p);
	return rc;
}

/* ---------------------------------------------------------------- */

typedef struct rd {
	const unsigned char *p, *end;
	tlc_arena *ar;
} rd;

static int get_u(rd *r, uint64_t *v)
{
	*v = 0;
	for (int s = 0; s < 64; s += 7) {
		if (r->p >= r->end)
			return -1;
		unsigned char b = *r->p++;
		*v |= (uint64_t)(b & 0x7f) << s;
		if (!(b & 0x80))
			return 0;
	}
	return -1;
}

static int get_i(rd *r, int64_t *v)
{
	uint64_t u;
	if (get_u(r, &u) < 0)
		return -1;
	*v = (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
	return 0;
}

static int get_bytes(rd *r, void *dst, size_t n)
{
	if ((size_t)(r->end - r->p) < n)
		return -1;
	memcpy(dst, r->p, n);
	r->p += n;
	return 0;
}

static int get_value(rd *r, tlc_value *v, int depth);

static int get_vec(rd *r, int64_t **out, size_t n, int zigzag)
{
	int64_t *a = tlc_arena__alloc(r->ar, (n ? n : 1) * sizeof *a);
	if (!a)
		return -1;
	for (size_t i = 0; i < n; i++) {
		uint64_t u;
		if (zigzag ? get_i(r, &a[i]) < 0 : (get_u(r, &u) < 0 || (a[i] = (int64_t)u) < 0))
			return -1;
	}
	*out = a;
	return 0;
}

static int get_tensor(rd *r, tlc_tensor *t)
{
	unsigned char dt, fl;
	uint64_t nd;
	int64_t *shape, *stride = NULL;
	if (get_bytes(r, &dt, 1) < 0 || get_bytes(r, &fl, 1) < 0 || get_u(r, &nd) < 0 ||
	    nd > TLC_TRACE_MAX_DIMS || get_vec(r, &shape, nd, 0) < 0 ||
	    ((fl & 1) && get_vec(r, &stride, nd, 1) < 0))
		return -1;
	memset(t, 0, sizeof *t);
	t->dtype = (tlc_dtype)dt;
	t->ndim = nd;
	t->shape = shape;
	t->stride = stride;
	if ((fl & 2) && get_bytes(r, &t->dtype_name, sizeof t->dtype_name) < 0)
		return -1;
	return 0;
}

static int get_list(rd *r, tlc_value *v, int depth)
{
	uint64_t n;
	if (get_u(r, &n) < 0 || n > TLC_TRACE_MAX_ARGS || depth >= MAX_NEST + 1)
		return -1;
	tlc_value *items = tlc_arena__alloc(r->ar, (n ? n : 1) * sizeof *items);
	if (!items)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (get_value(r, &items[i], depth + 1) < 0)
			return -1;
	v->u.list.n = n;
	v->u.list.items = n ? items : NULL;
	return 0;
}

static int get_value(rd *r, tlc_value *v, int depth)
{
	unsigned char k, b;
	uint64_t n;
	memset(v, 0, sizeof *v);
	if (get_bytes(r, &k, 1) < 0)
		return -1;
	v->kind = (tlc_value_kind)k;
	switch (v->kind) {
	case TLC_VALUE_NONE: return 0;
	case TLC_VALUE_BOOL:
		if (get_bytes(r, &b, 1) < 0)
			return -1;
		v->u.boolean = b;
		return 0;
	case TLC_VALUE_INT: return get_i(r, &v->u.integer);
	case TLC_VALUE_FLOAT: return get_bytes(r, &v->u.real, sizeof v->u.real);
	case TLC_VALUE_STRING: {
		if (get_u(r, &n) < 0 || n > (uint64_t)(r->end - r->p))
			return -1;
		v->u.string = tlc_arena__strndup(r->ar, (const char *)r->p, (size_t)n);
		r->p += n;
		return v->u.string ? 0 : -1;
	}
	case TLC_VALUE_TENSOR: return get_tensor(r, &v->u.tensor);
	case TLC_VALUE_LIST: return get_list(r, v, depth);
	case TLC_VALUE_UNRECORDED: return 0;
	default: return -1;
	}
}

int tlc_trace__decode_args(tlc_value **out, size_t *n, tlc_arena *ar,
                           const unsigned char *p, uint32_t len)
{
	rd r = { p, p + len, ar };
	uint64_t cnt;
	*out = NULL;
	*n = 0;
	if (get_u(&r, &cnt) < 0 || cnt > TLC_TRACE_MAX_ARGS)
		return -1;
	tlc_value *v = tlc_arena__alloc(ar, (cnt ? cnt : 1) * sizeof *v);
	if (!v)
		return -1;
	for (size_t i = 0; i < cnt; i++)
		if (get_value(&r, &v[i], 0) < 0)
			return -1;
	*out = cnt ? v : NULL;
	*n = cnt;
	return r.p == r.end ? 0 : -1;
}

/* Decimal int64 of text[0..len) (the reader and the op builder both parse
 * numbers; it lives here, below both, so trace.c and trace_ops.c do not
 * call each other). */
int tlc_trace__parse_i64(int64_t *out, const char *s, size_t n)
{
	size_t i = 0;
	int neg = 0;
	if (i < n && (s[i] == '-' || s[i] == '+'))
		neg = s[i++] == '-';
	if (i == n)
		return -1;
	uint64_t v = 0;
	if (n - i <= 18) { /* (the common case: 18 digits cannot overflow) */
		for (; i < n; i++) {
			unsigned d = (unsigned)(unsigned char)s[i] - '0';
			if (d > 9)
				return -1;
			v = v * 10 + d;
		}
		*out = neg ? -(int64_t)v : (int64_t)v;
		return 0;
	}
	for (; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		unsigned d = (unsigned)(s[i] - '0');
		if (v > ((uint64_t)INT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = neg ? -(int64_t)v : (int64_t)v;
	return 0;
}

/* ---------------------------------------------------------------- */
/* building and encoding in one pass                                 */
/* ---------------------------------------------------------------- */

/* tlc_trace__build_args then tlc_trace__encode_args, without the values in
 * between for tensors (the bulk: most arguments of most ops), so shapes go
 * from the captured nodes straight to their bytes. Every check, cache and
 * byte is theirs: make_tensor's checks (int_vector), tensor_dtype, and
 * put_value's layout; other arguments are built by set_scalar and put by
 * put_value. */

/* The integers of arr into v (at most TLC_TRACE_MAX_DIMS), as int_vector. */
static int ints_of(int64_t *v, size_t *n, const tlc_tnode *arr, int nonneg)
{
	*n = arr->n;
	if (arr->n > TLC_TRACE_MAX_DIMS)
		return -1;
	size_t k = 0;
	for (const tlc_tnode *c = arr->first; c && k < arr->n; c = c->next, k++) {
		if (c->kind != TLC_TNODE_NUMBER)
			return -1;
		if (c->ival_ok)
			v[k] = c->ival;
		else if (!c->text || tlc_trace__parse_i64(&v[k], c->text, c->len) < 0)
			return -1;
		if (nonneg && v[k] < 0)
			return -1;
	}
	return k == arr->n ? 0 : -1;
}

/* make_tensor, then put_value of the tensor. */
static int enc_tensor(enc *e, tlc_trace_ops *t, const tlc_tnode *dims,
                      const tlc_tnode *strides, const char *ty)
{
	int64_t shape[TLC_TRACE_MAX_DIMS], stride[TLC_TRACE_MAX_DIMS];
	size_t nd, ns;
	if (ints_of(shape, &nd, dims, 1) < 0)
		return -1;
	int has_stride = strides && strides->kind == TLC_TNODE_ARRAY && strides->n == nd &&
	                 nd > 0 && ints_of(stride, &ns, strides, 0) == 0;
	tlc_dtype dtype;
	const char *name;
	int rc = tensor_dtype(&dtype, &name, t, ty);
	if (rc)
		return rc;
	put_byte(e, (unsigned char)(char)TLC_VALUE_TENSOR);
	put_byte(e, (unsigned char)(char)dtype);
	put_byte(e, (unsigned char)((has_stride ? 1 : 0) | (name ? 2 : 0)));
	put_u(e, nd);
	for (size_t i = 0; i < nd; i++)
		put_u(e, (uint64_t)shape[i]);
	for (size_t i = 0; has_stride && i < nd; i++)
		put_i(e, stride[i]);
	if (name)
		put_bytes(e, &name, sizeof name);
	return 0;
}

/* make_tensor_list, then put_value of the list (an argument: depth 0). */
static int enc_tensor_list(enc *e, tlc_trace_ops *t, const tlc_tnode *dims,
                           const tlc_tnode *strides)
{
	if (dims->n > TLC_TRACE_MAX_ARGS)
		return -1;
	put_byte(e, (unsigned char)(char)TLC_VALUE_LIST);
	put_u(e, dims->n);
	const tlc_tnode *sc = first_child(strides);
	for (const tlc_tnode *c = dims->first; c; c = c->next, sc = next_child(sc)) {
		if (c->kind != TLC_TNODE_ARRAY)
			return -1;
		int rc = enc_tensor(e, t, c, sc, NULL);
		if (rc)
			return rc;
	}
	return 0;
}

/* build_one, then put_value. */
static int enc_one(enc *e, tlc_trace_ops *t, const tlc_tnode *dims, const tlc_tnode *tyn,
                   const tlc_tnode *strides, const tlc_tnode *conc, arg_style st,
                   const char **why)
{
	const char *ty;
	int rc;
	switch (classify_arg(dims, tyn, &ty, why)) {
	case ARG_BAD:
		return -1;
	case ARG_TENSOR_LIST:
		rc = enc_tensor_list(e, t, dims, strides);
		break;
	case ARG_TENSOR:
		rc = enc_tensor(e, t, dims, strides, ty);
		break;
	case ARG_SHAPE:
		rc = enc_tensor(e, t, dims, strides, NULL);
		break;
	default: {
		tlc_value v;
		rc = set_scalar(&v, t, ty, conc, st);
		if (rc == 0 && v.kind == TLC_VALUE_STRING && !v.u.string)
			rc = TLC_ENOMEM;
		if (rc == 0)
			put_value(e, &v, 0);
		break;
	}
	}
	return arg_result(rc, why);
}

int tlc_trace__build_encoded(const unsigned char **out, uint32_t *len, tlc_trace_ops *t,
                             const tlc_tnode *dims, const tlc_tnode *types,
                             const tlc_tnode *strides, const tlc_tnode *concrete,
                             const char **why)
{
	size_t n = 0;
	if (dims && dims->n > n) n = dims->n;
	if (types && types->n > n) n = types->n;
	if (n > TLC_TRACE_MAX_ARGS) {
		*why = "more than 4096 entries in 'Input Dims'";
		return TLC_EINPUT;
	}
	arg_style st = { concrete != NULL, 0 };
	for (const tlc_tnode *ty = first_child(types); !st.tagged && ty; ty = ty->next)
		st.tagged = ty->kind == TLC_TNODE_STRING && is_tag_kind(ty->text);
	enc e;
	e.p = e.stack;
	e.n = 0;
	e.cap = sizeof e.stack;
	e.oom = 0;
	e.a = t->a;
	put_u(&e, n);
	const tlc_tnode *cd = first_child(dims), *ct = first_child(types);
	const tlc_tnode *cs = first_child(strides), *cc = first_child(concrete);
	int rc = 0;
	for (size_t k = 0; rc == 0 && k < n; k++) {
		rc = enc_one(&e, t, cd, ct, cs, cc, st, why);
		cd = next_child(cd), ct = next_child(ct), cs = next_child(cs), cc = next_child(cc);
	}
	if (rc < 0 && rc != TLC_ENOMEM)
		rc = TLC_EINPUT;
	if (rc == 0 && (e.oom || e.n > UINT32_MAX))
		rc = TLC_ENOMEM;
	if (rc == 0)
		rc = keep_args(out, len, t, e.p, (uint32_t)e.n);
	if (e.p != e.stack)
		tlc_alloc__free(t->a, e.p);
	return rc;
}
