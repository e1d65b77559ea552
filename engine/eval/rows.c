/* Compact row storage (rows.h): delta columns with an exact fallback, and
 * the repeating fields of a row as one shared tuple. */
#include <string.h>
#include "rows.h"
#include "error.h"

/* ---- delta columns ---- */

void tlc_col__init(tlc_col *c, const tlc_allocator *a)
{
	memset(c, 0, sizeof *c);
	tlc_idmap__init(&c->wide, a, sizeof(int64_t));
}

void tlc_col__free(tlc_col *c, const tlc_allocator *a)
{
	tlc_alloc__free(a, c->d);
	tlc_alloc__free(a, c->base);
	tlc_idmap__free(&c->wide);
	c->d = NULL;
	c->base = NULL;
	c->n = c->cap = c->bcap = 0;
}

int tlc_col__reserve(tlc_col *c, const tlc_allocator *a, size_t n)
{
	if (n > c->cap && tlc_alloc__grow(a, (void **)&c->d, &c->cap, n, sizeof *c->d) < 0)
		return TLC_ENOMEM;
	size_t nb = (n + TLC_COL__BLOCK - 1) / TLC_COL__BLOCK;
	if (nb > c->bcap && tlc_alloc__grow(a, (void **)&c->base, &c->bcap, nb, sizeof *c->base) < 0)
		return TLC_ENOMEM;
	return 0;
}

int tlc_col__push(tlc_col *c, int64_t v)
{
	size_t i = c->n;
	if (i % TLC_COL__BLOCK == 0)
		c->base[i / TLC_COL__BLOCK] = v; /* a block's first value is its base */
	int64_t d;
	if (!__builtin_sub_overflow(v, c->base[i / TLC_COL__BLOCK], &d) && d > INT32_MIN &&
	    d <= INT32_MAX) {
		c->d[i] = (int32_t)d;
	} else {
		int created;
		int64_t *w = tlc_idmap__put(&c->wide, (int64_t)i, &created);
		if (!w)
			return TLC_ENOMEM;
		*w = v;
		c->d[i] = TLC_COL__WIDE;
	}
	c->n = i + 1;
	return 0;
}

void tlc_col__truncate(tlc_col *c, size_t n)
{
	for (size_t i = n; i < c->n; i++)
		if (c->d[i] == TLC_COL__WIDE)
			tlc_idmap__del(&c->wide, (int64_t)i);
	if (n < c->n)
		c->n = n;
}

static size_t idmap_bytes(const tlc_idmap *m)
{
	return m->nslots * m->stride + m->index.nslots * sizeof(tlc_hslot);
}

size_t tlc_col__bytes(const tlc_col *c)
{
	return c->cap * sizeof *c->d + c->bcap * sizeof *c->base + idmap_bytes(&c->wide);
}

/* ---- 32-bit random-access columns ---- */

int tlc_tcol__init(tlc_tcol *c, const tlc_allocator *a, size_t n)
{
	tlc_idmap__init(&c->wide, a, sizeof(int64_t));
	c->n = n;
	c->v = tlc_alloc__calloc(a, n ? n : 1, sizeof *c->v);
	return c->v ? 0 : tlc_error__oom();
}

void tlc_tcol__free(tlc_tcol *c, const tlc_allocator *a)
{
	tlc_alloc__free(a, c->v);
	tlc_idmap__free(&c->wide);
	c->v = NULL;
	c->n = 0;
}

int tlc_tcol__set(tlc_tcol *c, size_t i, int64_t v)
{
	if (v >= 0 && v < (int64_t)UINT32_MAX) {
		if (c->v[i] == UINT32_MAX)
			tlc_idmap__del(&c->wide, (int64_t)i);
		c->v[i] = (uint32_t)v;
		return 0;
	}
	int created;
	int64_t *w = tlc_idmap__put(&c->wide, (int64_t)i, &created);
	if (!w)
		return TLC_ENOMEM;
	*w = v;
	c->v[i] = UINT32_MAX;
	return 0;
}

/* ---- rows ---- */

#define NCOLS 7

static tlc_col *col_at(tlc_rows *r, int k)
{
	tlc_col *cols[NCOLS] = { &r->id, &r->parent, &r->module_call, &r->host_ns,
	                         &r->start_ns, &r->end_ns, &r->correlation };
	return cols[k];
}

void tlc_rows__init(tlc_rows *r, const tlc_allocator *a)
{
	memset(r, 0, sizeof *r);
	r->a = a;
	tlc_hindex__init(&r->kind_index, a);
	for (int k = 0; k < NCOLS; k++)
		tlc_col__init(col_at(r, k), a);
}

void tlc_rows__free(tlc_rows *r)
{
	for (int k = 0; k < NCOLS; k++)
		tlc_col__free(col_at(r, k), r->a);
	tlc_alloc__free(r->a, r->kind);
	tlc_alloc__free(r->a, r->kinds);
	tlc_hindex__free(&r->kind_index);
	r->n = r->kcap = r->nkinds = r->kindcap = 0;
	r->kind = NULL;
	r->kinds = NULL;
}

/* a row's tuple is 80 bytes on LP64: the dtype took room the padding had */
_Static_assert(sizeof(void *) != 8 || sizeof(tlc_rowkind) <= 80, "tlc_rowkind grew");

static void kind_of_row(tlc_rowkind *k, const tlc_op_row *row)
{
	memset(k, 0, sizeof *k); /* padding too: kinds are hashed and compared as bytes */
	k->name = row->name;
	k->overload = row->overload;
	k->module = row->module;
	k->module_type = row->module_type;
	k->reason = row->reason;
	k->shapes = row->shapes;
	k->cost = row->cost;
	k->thread = row->thread;
	k->op_flags = row->op_flags;
	k->phase = row->phase;
	k->cls = row->cls;
	k->dtype = row->dtype;
}

static int kind_eq(size_t idx, const void *key, const void *payload)
{
	const tlc_rows *r = payload;
	return memcmp(&r->kinds[idx], key, sizeof(tlc_rowkind)) == 0;
}

/* Index of the kind equal to *k, added when new (the strings are the
 * eval's interned ones, so equal pointers are equal strings). */
static int kind_index(tlc_rows *r, const tlc_rowkind *k, uint32_t *out)
{
	uint64_t h = tlc_hash__bytes(k, sizeof *k);
	if (tlc_hindex__reserve(&r->kind_index, r->nkinds + 1) < 0)
		return TLC_ENOMEM;
	tlc_hslot *s = tlc_hindex__probe(&r->kind_index, h, kind_eq, k, r);
	if (s->idx1) {
		*out = (uint32_t)(s->idx1 - 1);
		return 0;
	}
	if (r->nkinds >= UINT32_MAX ||
	    tlc_alloc__grow(r->a, (void **)&r->kinds, &r->kindcap, r->nkinds + 1, sizeof *r->kinds) < 0)
		return tlc_error__oom();
	r->kinds[r->nkinds] = *k;
	tlc_hindex__fill(&r->kind_index, s, h, r->nkinds);
	*out = (uint32_t)r->nkinds++;
	return 0;
}

int tlc_rows__push(tlc_rows *r, const tlc_op_row *row)
{
	if (r->n >= TLC_ROWS__MAX)
		return tlc_error__set(TLC_ENOMEM, "out_of_memory", "split the input",
		                      "more than %zu op rows kept", (size_t)TLC_ROWS__MAX);
	size_t n = r->n;
	if (tlc_alloc__grow(r->a, (void **)&r->kind, &r->kcap, n + 1, sizeof *r->kind) < 0)
		return TLC_ENOMEM;
	for (int k = 0; k < NCOLS; k++)
		if (tlc_col__reserve(col_at(r, k), r->a, n + 1) < 0)
			return TLC_ENOMEM;
	tlc_rowkind kd;
	kind_of_row(&kd, row);
	uint32_t ki = 0;
	if (kind_index(r, &kd, &ki) < 0)
		return TLC_ENOMEM;
	int64_t v[NCOLS] = { row->id, (row->op_flags & TLC_OP_HAS_PARENT) ? row->parent : row->id,
	                     row->module_call, row->host_ns, row->start_ns, row->end_ns,
	                     row->correlation };
	for (int k = 0; k < NCOLS; k++)
		if (tlc_col__push(col_at(r, k), v[k]) < 0) {
			for (int q = 0; q < k; q++)
				tlc_col__truncate(col_at(r, q), n);
			return tlc_error__oom();
		}
	r->kind[n] = ki;
	r->n = n + 1;
	return 0;
}

void tlc_rows__get(const tlc_rows *r, size_t i, tlc_op_row *out)
{
	const tlc_rowkind *k = tlc_rows__kind(r, i);
	memset(out, 0, sizeof *out);
	out->size = sizeof *out;
	out->id = tlc_col__get(&r->id, i);
	out->parent = tlc_rows__parent(r, i);
	out->name = k->name;
	out->overload = k->overload;
	out->phase = k->phase;
	out->module = k->module;
	out->module_type = k->module_type;
	out->module_call = tlc_col__get(&r->module_call, i);
	out->cls = k->cls;
	out->reason = k->reason;
	out->cost = k->cost;
	out->shapes = k->shapes;
	out->dtype = k->dtype;
	out->op_flags = k->op_flags;
	out->host_ns = tlc_col__get(&r->host_ns, i);
	out->start_ns = tlc_col__get(&r->start_ns, i);
	out->end_ns = tlc_col__get(&r->end_ns, i);
	out->thread = k->thread;
	out->correlation = tlc_col__get(&r->correlation, i);
}

size_t tlc_rows__bytes(const tlc_rows *r)
{
	size_t b = r->kcap * sizeof *r->kind + r->kindcap * sizeof *r->kinds +
	           r->kind_index.nslots * sizeof(tlc_hslot);
	for (int k = 0; k < NCOLS; k++)
		b += tlc_col__bytes(col_at((tlc_rows *)r, k));
	return b;
}

/* ---- device records ---- */

#define NDCOLS 4

static tlc_col *dcol_at(tlc_devs *d, int k)
{
	tlc_col *cols[NDCOLS] = { &d->start_ns, &d->end_ns, &d->correlation, &d->external_id };
	return cols[k];
}

void tlc_devs__init(tlc_devs *d, const tlc_allocator *a)
{
	memset(d, 0, sizeof *d);
	d->a = a;
	tlc_hindex__init(&d->kind_index, a);
	for (int k = 0; k < NDCOLS; k++)
		tlc_col__init(dcol_at(d, k), a);
	tlc_idmap__init(&d->graph_node, a, sizeof(int64_t));
}

void tlc_devs__free(tlc_devs *d)
{
	for (int k = 0; k < NDCOLS; k++)
		tlc_col__free(dcol_at(d, k), d->a);
	tlc_idmap__free(&d->graph_node);
	tlc_alloc__free(d->a, d->kind);
	tlc_alloc__free(d->a, d->kinds);
	tlc_hindex__free(&d->kind_index);
	d->kind = NULL;
	d->kinds = NULL;
	d->n = d->kcap = d->nkinds = d->kindcap = 0;
}

static int devkind_eq(size_t idx, const void *key, const void *payload)
{
	const tlc_devs *d = payload;
	return memcmp(&d->kinds[idx], key, sizeof(tlc_devkind)) == 0;
}

static int devkind_index(tlc_devs *d, const tlc_devkind *k, uint32_t *out)
{
	uint64_t h = tlc_hash__bytes(k, sizeof *k);
	if (tlc_hindex__reserve(&d->kind_index, d->nkinds + 1) < 0)
		return TLC_ENOMEM;
	tlc_hslot *s = tlc_hindex__probe(&d->kind_index, h, devkind_eq, k, d);
	if (s->idx1) {
		*out = (uint32_t)(s->idx1 - 1);
		return 0;
	}
	if (d->nkinds >= UINT32_MAX ||
	    tlc_alloc__grow(d->a, (void **)&d->kinds, &d->kindcap, d->nkinds + 1, sizeof *d->kinds) < 0)
		return tlc_error__oom();
	d->kinds[d->nkinds] = *k;
	tlc_hindex__fill(&d->kind_index, s, h, d->nkinds);
	*out = (uint32_t)d->nkinds++;
	return 0;
}

int tlc_devs__push(tlc_devs *d, const tlc_device_record *rec)
{
	if (d->n >= TLC_DEVS__MAX)
		return tlc_error__set(TLC_ENOMEM, "out_of_memory", "split the input",
		                      "more than %zu device records kept", (size_t)TLC_DEVS__MAX);
	size_t n = d->n;
	if (tlc_alloc__grow(d->a, (void **)&d->kind, &d->kcap, n + 1, sizeof *d->kind) < 0)
		return TLC_ENOMEM;
	for (int k = 0; k < NDCOLS; k++)
		if (tlc_col__reserve(dcol_at(d, k), d->a, n + 1) < 0)
			return TLC_ENOMEM;
	tlc_devkind kd;
	memset(&kd, 0, sizeof kd); /* padding too: kinds are hashed and compared as bytes */
	kd.name = rec->name;
	kd.device = rec->device;
	kd.stream = rec->stream;
	kd.thread = rec->thread;
	kd.bytes = rec->bytes;
	kd.kind = rec->kind;
	kd.flags = rec->flags;
	if (rec->flags & TLC_DEV_HAS_GRAPH_NODE) {
		kd.graph_id = rec->graph_id;
		int64_t *slot = tlc_idmap__put(&d->graph_node, (int64_t)n, NULL);
		if (!slot)
			return tlc_error__oom();
		*slot = rec->graph_node;
	}
	uint32_t ki = 0;
	if (devkind_index(d, &kd, &ki) < 0)
		return TLC_ENOMEM;
	int64_t v[NDCOLS] = { rec->start_ns, rec->end_ns, rec->correlation, rec->external_id };
	for (int k = 0; k < NDCOLS; k++)
		if (tlc_col__push(dcol_at(d, k), v[k]) < 0) {
			for (int q = 0; q < k; q++)
				tlc_col__truncate(dcol_at(d, q), n);
			return tlc_error__oom();
		}
	d->kind[n] = ki;
	d->n = n + 1;
	return 0;
}

void tlc_devs__get(const tlc_devs *d, size_t i, tlc_device_record *out)
{
	const tlc_devkind *k = tlc_devs__kind(d, i);
	memset(out, 0, sizeof *out);
	out->size = sizeof *out;
	out->kind = k->kind;
	out->flags = k->flags;
	out->name = k->name;
	out->device = k->device;
	out->stream = k->stream;
	out->thread = k->thread;
	out->start_ns = tlc_col__get(&d->start_ns, i);
	out->end_ns = tlc_col__get(&d->end_ns, i);
	out->correlation = tlc_col__get(&d->correlation, i);
	out->external_id = tlc_col__get(&d->external_id, i);
	out->bytes = k->bytes;
	if (k->flags & TLC_DEV_HAS_GRAPH_NODE) {
		const int64_t *g = tlc_idmap__get(&d->graph_node, (int64_t)i);
		out->graph_id = k->graph_id;
		out->graph_node = g ? *g : 0;
	}
}

int tlc_devs__mark_last(tlc_devs *d, unsigned marks)
{
	if (!d->n)
		return 0;
	tlc_devkind kd = d->kinds[d->kind[d->n - 1]]; /* a copy: the kinds may move */
	kd.marks |= marks;
	uint32_t ki = 0;
	if (devkind_index(d, &kd, &ki) < 0)
		return TLC_ENOMEM;
	d->kind[d->n - 1] = ki;
	return 0;
}

size_t tlc_devs__bytes(const tlc_devs *d)
{
	size_t b = d->kcap * sizeof *d->kind + d->kindcap * sizeof *d->kinds +
	           d->kind_index.nslots * sizeof(tlc_hslot) +
	           d->graph_node.nslots * d->graph_node.stride +
	           d->graph_node.index.nslots * sizeof(tlc_hslot);
	for (int k = 0; k < NDCOLS; k++)
		b += tlc_col__bytes(dcol_at((tlc_devs *)d, k));
	return b;
}
