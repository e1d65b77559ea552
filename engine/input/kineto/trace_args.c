/* An op's argument values from a Kineto event's Input Dims / Input type /
 * Input Strides / Concrete Inputs (every trace generation since 2021), and
 * what the reader keeps of them per op while it waits for the whole trace:
 * the args list of the store's op record encoding (engine/store/record.h:
 * a few bytes per dimension rather than a tlc_value, 56 bytes, per
 * argument; dtype names interned, so kept as pointers), equal lists kept
 * once. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "names.h"
#include "record.h"
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

static int ints_of(int64_t *v, size_t *n, const tlc_tnode *arr, int nonneg);

/* Fills an int64 vector (in t->varena; NULL when empty) from an array of
 * integer numbers; -1 if not one. */
static int int_vector(int64_t **out, size_t *n, tlc_trace_ops *t, const tlc_tnode *arr,
                      int nonneg)
{
	int64_t v[TLC_TRACE_MAX_DIMS];
	*out = NULL;
	if (ints_of(v, n, arr, nonneg) < 0)
		return -1;
	if (*n == 0)
		return 0;
	*out = tlc_arena__alloc(t->varena, *n * sizeof *v);
	if (!*out)
		return TLC_ENOMEM;
	memcpy(*out, v, *n * sizeof *v);
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

/* How many arguments an op has (the longer of Input Dims and Input type;
 * more than TLC_TRACE_MAX_ARGS is TLC_EINPUT with *why) and how its record
 * spells values it did not record: what build_args and build_encoded both
 * start from. */
static int args_head(size_t *n, arg_style *st, const tlc_tnode *dims, const tlc_tnode *types,
                     const tlc_tnode *concrete, const char **why)
{
	*n = 0;
	if (dims && dims->n > *n) *n = dims->n;
	if (types && types->n > *n) *n = types->n;
	if (*n > TLC_TRACE_MAX_ARGS) {
		*why = "more than 4096 entries in 'Input Dims'";
		return TLC_EINPUT;
	}
	st->concrete = concrete != NULL;
	st->tagged = 0;
	for (const tlc_tnode *ty = first_child(types); !st->tagged && ty; ty = ty->next)
		st->tagged = ty->kind == TLC_TNODE_STRING && is_tag_kind(ty->text);
	return 0;
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
	size_t n;
	arg_style st;
	int rc = args_head(&n, &st, dims, types, concrete, why);
	if (rc || n == 0)
		return rc; /* (no dims nor types: shapes not recorded, rules report missing_args) */
	tlc_value *v = tlc_arena__alloc(t->varena, n * sizeof *v);
	if (!v)
		return TLC_ENOMEM;
	const tlc_tnode *cd = first_child(dims), *ct = first_child(types);
	const tlc_tnode *cs = first_child(strides), *cc = first_child(concrete);
	for (size_t k = 0; k < n; k++) {
		rc = build_one(&v[k], t, cd, ct, cs, cc, st, why);
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
/* what the reader keeps: the store's args encoding                 */
/* ---------------------------------------------------------------- */

/* The writer of one op's args: interned dtype names kept as pointers, and
 * every tensor's shape recorded (a profiler lists the shape of every
 * tensor, [] for a 0-d one). */
static void writer_init(tlc_rec_w *w, const tlc_trace_ops *t)
{
	tlc_rec__w_init(w, t->a, TLC_REC_NAMES_INTERNED | TLC_REC_SHAPES_RECORDED);
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

/* The end of an encoding: rc (0, TLC_ENOMEM, TLC_EINPUT) or the writer's
 * failure; on success the bytes are kept (keep_args). The writer is freed. */
static int writer_keep(const unsigned char **out, uint32_t *len, tlc_trace_ops *t,
                       tlc_rec_w *w, int rc)
{
	if (rc == 0 && w->rc)
		rc = w->rc == TLC_ENOMEM ? TLC_ENOMEM : TLC_EINPUT;
	if (rc == 0 && w->n > UINT32_MAX)
		rc = TLC_ENOMEM;
	if (rc == 0)
		rc = keep_args(out, len, t, w->p, (uint32_t)w->n);
	tlc_rec__w_free(w);
	return rc;
}

int tlc_trace__encode_args(const unsigned char **out, uint32_t *len, tlc_trace_ops *t,
                           const tlc_value *v, size_t n)
{
	tlc_rec_w w;
	writer_init(&w, t);
	tlc_rec__put_values(&w, v, n);
	return writer_keep(out, len, t, &w, 0);
}

int tlc_trace__decode_args(tlc_value **out, size_t *n, tlc_arena *ar,
                           const unsigned char *p, uint32_t len)
{
	tlc_rec_r r;
	tlc_rec__r_init(&r, p, len, ar);
	*out = tlc_rec__get_values(&r, n);
	int rc = tlc_rec__r_done(&r);
	if (rc < 0) {
		*out = NULL;
		*n = 0;
	}
	return rc;
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

/* The integers of arr into v (at most TLC_TRACE_MAX_DIMS); -1 if arr is not
 * an array of integers (of nonnegative ones with nonneg). */
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

/* make_tensor, then the tensor's value bytes (tlc_rec__put_tensor: the
 * layout tlc_rec__put_value writes for the value make_tensor builds). */
static int enc_tensor(tlc_rec_w *w, tlc_trace_ops *t, const tlc_tnode *dims,
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
	tlc_rec__put_tensor(w, dtype, TLC_REC_T_SHAPE | (has_stride ? TLC_REC_T_STRIDE : 0) |
	                              (name ? TLC_REC_T_NAME_PTR : 0),
	                    nd, shape, stride, name, NULL);
	return 0;
}

/* make_tensor_list, then the list's value bytes. */
static int enc_tensor_list(tlc_rec_w *w, tlc_trace_ops *t, const tlc_tnode *dims,
                           const tlc_tnode *strides)
{
	if (dims->n > TLC_TRACE_MAX_ARGS)
		return -1;
	tlc_rec__put_i(w, (int64_t)TLC_VALUE_LIST);
	tlc_rec__put_count(w, dims->n, dims->n != 0); /* (make_tensor_list: NULL when empty) */
	const tlc_tnode *sc = first_child(strides);
	for (const tlc_tnode *c = dims->first; c; c = c->next, sc = next_child(sc)) {
		if (c->kind != TLC_TNODE_ARRAY)
			return -1;
		int rc = enc_tensor(w, t, c, sc, NULL);
		if (rc)
			return rc;
	}
	return 0;
}

/* build_one, then tlc_rec__put_value. */
static int enc_one(tlc_rec_w *w, tlc_trace_ops *t, const tlc_tnode *dims, const tlc_tnode *tyn,
                   const tlc_tnode *strides, const tlc_tnode *conc, arg_style st,
                   const char **why)
{
	const char *ty;
	int rc;
	switch (classify_arg(dims, tyn, &ty, why)) {
	case ARG_BAD:
		return -1;
	case ARG_TENSOR_LIST:
		rc = enc_tensor_list(w, t, dims, strides);
		break;
	case ARG_TENSOR:
		rc = enc_tensor(w, t, dims, strides, ty);
		break;
	case ARG_SHAPE:
		rc = enc_tensor(w, t, dims, strides, NULL);
		break;
	default: {
		tlc_value v;
		rc = set_scalar(&v, t, ty, conc, st);
		if (rc == 0 && v.kind == TLC_VALUE_STRING && !v.u.string)
			rc = TLC_ENOMEM;
		if (rc == 0)
			tlc_rec__put_value(w, &v);
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
	size_t n;
	arg_style st;
	int rc = args_head(&n, &st, dims, types, concrete, why);
	if (rc)
		return rc;
	tlc_rec_w w;
	writer_init(&w, t);
	tlc_rec__put_count(&w, n, n != 0); /* (build_args: NULL when none) */
	const tlc_tnode *cd = first_child(dims), *ct = first_child(types);
	const tlc_tnode *cs = first_child(strides), *cc = first_child(concrete);
	for (size_t k = 0; rc == 0 && k < n; k++) {
		rc = enc_one(&w, t, cd, ct, cs, cc, st, why);
		cd = next_child(cd), ct = next_child(ct), cs = next_child(cs), cc = next_child(cc);
	}
	if (rc < 0 && rc != TLC_ENOMEM)
		rc = TLC_EINPUT;
	return writer_keep(out, len, t, &w, rc);
}
