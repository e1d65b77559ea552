/* Compact encoding of an op's argument values, so the trace reader keeps a
 * few bytes per dimension rather than a tlc_value (56 bytes) per argument
 * while it waits for the whole trace. Layout: varint count, then per value
 * a kind byte and its payload (varints, zigzag for signed numbers; interned
 * dtype names as a pointer). */
#include <string.h>
#include "trace.h"

#define MAX_NEST 8

static void put_u(tlc_sb *sb, uint64_t v)
{
	unsigned char b[10];
	size_t n = 0;
	do {
		b[n] = (unsigned char)(v & 0x7f);
		v >>= 7;
		if (v)
			b[n] |= 0x80;
		n++;
	} while (v);
	tlc_sb__append(sb, (const char *)b, n);
}

static void put_i(tlc_sb *sb, int64_t v)
{
	put_u(sb, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

static void put_value(tlc_sb *sb, const tlc_value *v, int depth);

static void put_tensor(tlc_sb *sb, const tlc_tensor *t)
{
	tlc_sb__putc(sb, (char)t->dtype);
	tlc_sb__putc(sb, (char)((t->stride ? 1 : 0) | (t->dtype_name ? 2 : 0)));
	put_u(sb, t->ndim);
	for (size_t i = 0; i < t->ndim; i++)
		put_u(sb, (uint64_t)t->shape[i]);
	for (size_t i = 0; t->stride && i < t->ndim; i++)
		put_i(sb, t->stride[i]);
	if (t->dtype_name)
		tlc_sb__append(sb, (const char *)&t->dtype_name, sizeof t->dtype_name);
}

static void put_value(tlc_sb *sb, const tlc_value *v, int depth)
{
	tlc_sb__putc(sb, (char)v->kind);
	switch (v->kind) {
	case TLC_VALUE_BOOL: tlc_sb__putc(sb, (char)(v->u.boolean != 0)); break;
	case TLC_VALUE_INT: put_i(sb, v->u.integer); break;
	case TLC_VALUE_FLOAT: tlc_sb__append(sb, (const char *)&v->u.real, sizeof v->u.real); break;
	case TLC_VALUE_STRING:
		put_u(sb, strlen(v->u.string));
		tlc_sb__puts(sb, v->u.string);
		break;
	case TLC_VALUE_TENSOR: put_tensor(sb, &v->u.tensor); break;
	case TLC_VALUE_LIST:
		put_u(sb, depth < MAX_NEST ? v->u.list.n : 0);
		for (size_t i = 0; depth < MAX_NEST && i < v->u.list.n; i++)
			put_value(sb, &v->u.list.items[i], depth + 1);
		break;
	default: break;
	}
}

int tlc_trace__encode_args(const unsigned char **out, uint32_t *len, tlc_trace_ops *t,
                           const tlc_value *v, size_t n)
{
	tlc_sb sb;
	tlc_sb__init(&sb, t->a);
	put_u(&sb, n);
	for (size_t i = 0; i < n; i++)
		put_value(&sb, &v[i], 0);
	const char *s = tlc_sb__str(&sb);
	int rc = s && sb.len <= UINT32_MAX ? 0 : TLC_ENOMEM;
	unsigned char *p = NULL;
	if (rc == 0 && !(p = tlc_arena__alloc(&t->arena, sb.len)))
		rc = TLC_ENOMEM;
	if (rc == 0) {
		memcpy(p, s, sb.len);
		*out = p;
		*len = (uint32_t)sb.len;
	}
	tlc_sb__free(&sb);
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
