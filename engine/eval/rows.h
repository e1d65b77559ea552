/* Compact storage of kept op rows and device records (semi-private).
 *
 * A trace keeps one row per op and one record per kernel and runtime call;
 * stored as the public structs (168 and 88 bytes) they were most of a
 * joined trace's memory. Here every int64 field is a column of 32-bit
 * deltas from a per-block base (exact: a value whose delta does not fit is
 * kept whole in an exception map), and the fields that repeat from row to
 * row (strings, cost, class, phase, flags, thread, dtype; a record's kind, name,
 * device, stream, thread, bytes) are one 32-bit id of a shared tuple. The public structs
 * are filled on demand (tlc_rows__get, tlc_devs__get); the join reads the
 * columns it needs directly through the inline getters.
 *
 * Device time of rows is not here: a join produces its own overlay
 * (overlay.h) that reports receive beside the evaluation. */
#ifndef TLC_ENGINE_ROWS_H
#define TLC_ENGINE_ROWS_H

#include <stddef.h>
#include <stdint.h>
#include "tlcost/tlcost.h"
#include "alloc.h"
#include "hindex.h"
#include "idmap.h"

#define TLC_COL__BLOCK 256 /* values per base */
#define TLC_COL__WIDE INT32_MIN /* delta marker: the value is in the exception map */

/* A column of int64 values: value i = base[i / BLOCK] + d[i], or, where d[i]
 * is TLC_COL__WIDE, the exception map's entry for i. */
typedef struct tlc_col {
	int32_t *d;
	int64_t *base;
	size_t n, cap, bcap;
	tlc_idmap wide; /* index -> int64 for values whose delta does not fit */
} tlc_col;

void tlc_col__init(tlc_col *c, const tlc_allocator *a);
void tlc_col__free(tlc_col *c, const tlc_allocator *a);
/** Room for n values in all (0 or TLC_ENOMEM with the error set). */
int tlc_col__reserve(tlc_col *c, const tlc_allocator *a, size_t n);
/** Appends v after a reserve; fails (TLC_ENOMEM) only when v needs the
 *  exception map and it cannot grow, leaving the column unchanged. */
int tlc_col__push(tlc_col *c, int64_t v);
/** Drops the values from n on (undoes pushes of a failed multi-column add). */
void tlc_col__truncate(tlc_col *c, size_t n);
/** Bytes the column holds (its arrays and exception map). */
size_t tlc_col__bytes(const tlc_col *c);

static inline int64_t tlc_col__get(const tlc_col *c, size_t i)
{
	int32_t d = c->d[i];
	if (d != TLC_COL__WIDE)
		return (int64_t)((uint64_t)c->base[i / TLC_COL__BLOCK] + (uint64_t)(int64_t)d);
	return *(const int64_t *)tlc_idmap__get(&c->wide, (int64_t)i);
}

/* A random-access column of int64 values, 32 bits each when they fit in
 * [0, UINT32_MAX), else the exception map's (sums of durations: the join's
 * per-row times). Zero when created. */
typedef struct tlc_tcol {
	uint32_t *v;
	size_t n;
	tlc_idmap wide;
} tlc_tcol;

int tlc_tcol__init(tlc_tcol *c, const tlc_allocator *a, size_t n);
void tlc_tcol__free(tlc_tcol *c, const tlc_allocator *a);
/** Sets value i (0, or TLC_ENOMEM when the exception map cannot grow). */
int tlc_tcol__set(tlc_tcol *c, size_t i, int64_t v);

static inline int64_t tlc_tcol__get(const tlc_tcol *c, size_t i)
{
	uint32_t v = c->v[i];
	return v != UINT32_MAX ? (int64_t)v : *(const int64_t *)tlc_idmap__get(&c->wide, (int64_t)i);
}

/* The fields of a row that repeat from row to row. */
typedef struct tlc_rowkind {
	const char *name, *overload, *module, *module_type, *reason, *shapes;
	const tlc_cost *cost;
	int64_t thread;         /* few distinct values: a tuple field, not a column */
	unsigned op_flags;
	tlc_phase phase;
	tlc_class cls;
	tlc_dtype dtype;        /* follows from shapes: no more kinds, and the padding's room */
} tlc_rowkind;

/* Most rows a store keeps (row indices are 32 bits in the join). */
#define TLC_ROWS__MAX ((size_t)UINT32_MAX - 1)

typedef struct tlc_rows {
	const tlc_allocator *a;
	size_t n, kcap;
	uint32_t *kind;         /* per row: index into kinds */
	tlc_rowkind *kinds;
	size_t nkinds, kindcap;
	tlc_hindex kind_index;  /* hash of a kind's bytes -> kinds */
	/* parent holds the row's own id when it has none (read back as -1) */
	tlc_col id, parent, module_call, host_ns, start_ns, end_ns, correlation;
} tlc_rows;

void tlc_rows__init(tlc_rows *r, const tlc_allocator *a);
void tlc_rows__free(tlc_rows *r);
/** Appends a row (its strings and cost must outlive the store; the device
 *  time fields are not read: they are the join's overlay's). 0, or TLC_ENOMEM with the error set and the
 *  store unchanged. */
int tlc_rows__push(tlc_rows *r, const tlc_op_row *row);
/** Fills *out (every field of the current layout but the device-time ones,
 *  which stay as TLC_OP_ROW_INIT has them; out->size is set). */
void tlc_rows__get(const tlc_rows *r, size_t i, tlc_op_row *out);
/** Bytes the store holds. */
size_t tlc_rows__bytes(const tlc_rows *r);

static inline const tlc_rowkind *tlc_rows__kind(const tlc_rows *r, size_t i)
{
	return &r->kinds[r->kind[i]];
}

static inline int64_t tlc_rows__id(const tlc_rows *r, size_t i) { return tlc_col__get(&r->id, i); }
static inline int64_t tlc_rows__parent(const tlc_rows *r, size_t i)
{
	return (tlc_rows__kind(r, i)->op_flags & TLC_OP_HAS_PARENT) ? tlc_col__get(&r->parent, i) : -1;
}
static inline int64_t tlc_rows__correlation(const tlc_rows *r, size_t i)
{
	return tlc_col__get(&r->correlation, i);
}

/* ---- device records ---- */

/* The fields of a device record that repeat from record to record. */
typedef struct tlc_devkind {
	const char *name;      /* interned, or NULL */
	int64_t device, stream, thread;
	int64_t bytes;         /* copy sizes repeat (the same tensors every step) */
	int64_t graph_id;      /* TLC_DEV_HAS_GRAPH_NODE: the graph repeats too */
	tlc_device_kind kind;
	unsigned flags;        /* TLC_DEV_HAS_* */
	unsigned marks;        /* a reader's own bits (tlc_devs__mark_last), not public */
} tlc_devkind;

/* Most records a store keeps (record indices are 32 bits in the join). */
#define TLC_DEVS__MAX ((size_t)UINT32_MAX - 1)

typedef struct tlc_devs {
	const tlc_allocator *a;
	size_t n, kcap;
	uint32_t *kind;         /* per record: index into kinds */
	tlc_devkind *kinds;
	size_t nkinds, kindcap;
	tlc_hindex kind_index;
	tlc_col start_ns, end_ns, correlation, external_id;
	tlc_idmap graph_node;   /* record index -> graph node id (TLC_DEV_HAS_GRAPH_NODE only: rare) */
} tlc_devs;

void tlc_devs__init(tlc_devs *d, const tlc_allocator *a);
void tlc_devs__free(tlc_devs *d);
/** Appends a record (its name must outlive the store; size is not read).
 *  0, or TLC_ENOMEM with the error set and the store unchanged. */
int tlc_devs__push(tlc_devs *d, const tlc_device_record *rec);
/** Fills *out (every field of the current layout; out->size is set). */
void tlc_devs__get(const tlc_devs *d, size_t i, tlc_device_record *out);
size_t tlc_devs__bytes(const tlc_devs *d);
/** Adds marks to the last record (its tuple becomes the marked one): a
 *  reader remembers which records it singled out without a list of them.
 *  0, or TLC_ENOMEM (error set, record unchanged). */
int tlc_devs__mark_last(tlc_devs *d, unsigned marks);

static inline const tlc_devkind *tlc_devs__kind(const tlc_devs *d, size_t i)
{
	return &d->kinds[d->kind[i]];
}
static inline int64_t tlc_devs__start(const tlc_devs *d, size_t i)
{
	return tlc_col__get(&d->start_ns, i);
}
static inline int64_t tlc_devs__end(const tlc_devs *d, size_t i)
{
	return tlc_col__get(&d->end_ns, i);
}
static inline int64_t tlc_devs__correlation(const tlc_devs *d, size_t i)
{
	return tlc_col__get(&d->correlation, i);
}
static inline int64_t tlc_devs__external_id(const tlc_devs *d, size_t i)
{
	return tlc_col__get(&d->external_id, i);
}

#endif
