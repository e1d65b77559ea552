/* The one compact op record encoding (semi-private; engine/store/).
 *
 * What the readers keep of an op while it waits (the Kineto reader's
 * argument lists, the evaluator's held records) is bytes in this one
 * encoding, written by one encoder and read back by one decoder:
 *
 *   integer   variable-length, 7 bits a byte, low bits first; a signed one
 *             zigzagged first (0, -1, 1, -2 -> 0, 1, 2, 3)
 *   string    length + 1, then the bytes; 0 is NULL ("" and NULL apart)
 *   list      count + 1, then the items; 0 is a NULL array (an empty list
 *             may carry either pointer)
 *   value     kind (signed), then its payload: BOOL and INT a signed
 *             integer, FLOAT the 8 bytes of the double, STRING a string,
 *             TENSOR a tensor, LIST a list of values, NONE and UNRECORDED
 *             nothing; a kind of a later build the bytes of the union as is
 *   tensor    dtype (signed), a flags byte (TLC_REC_T_*), ndim, the shape
 *             (each dimension as the unsigned integer of its 64 bits), the
 *             stride (signed), the dtype name (none when it is the dtype's
 *             own name or absent; the 8 bytes of an interned pointer; or a
 *             string), the device (a string)
 *   args      a list of values (what the Kineto reader keeps per op)
 *   op        line, id (unsigned), flags, phase, module_call, parent,
 *             host_ns, start_ns, end_ns, thread, correlation - id (signed);
 *             the name, overload, module and module_type strings; args;
 *             kwargs as a list of (name string, value); outputs (a NULL
 *             list unless TLC_OP_HAS_OUTPUTS). A held record is one op.
 *
 * Decoding bytes the encoder did not write (cut, or corrupted) is a typed
 * error (store_record_corrupt) naming the byte, never a read past the end;
 * values nested deeper than TLC_REC_MAX_DEPTH are refused by both sides
 * (store_record_too_deep). */
#ifndef TLC_ENGINE_RECORD_H
#define TLC_ENGINE_RECORD_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "tlcost/plugin.h"
#include "alloc.h"

#define TLC_REC_MAX_DEPTH 256 /* list nesting of one value */

/* tensor flags */
enum {
	TLC_REC_T_SHAPE = 1,      /* the shape pointer is set */
	TLC_REC_T_STRIDE = 2,     /* the stride pointer is set */
	TLC_REC_T_DEVICE = 4,     /* a device string follows */
	TLC_REC_T_NAME_OWN = 8,   /* dtype name is tlc_dtype_name(dtype) */
	TLC_REC_T_NAME_BYTES = 16, /* dtype name follows as a string */
	TLC_REC_T_NAME_PTR = 32   /* dtype name follows as an interned pointer */
};

/* writer options */
enum {
	/* dtype names outlive the bytes (interned): kept as pointers */
	TLC_REC_NAMES_INTERNED = 1,
	/* every tensor's shape was recorded (a 0-d tensor's NULL shape is
	 * written as set): a profiler lists the shape of every tensor */
	TLC_REC_SHAPES_RECORDED = 2
};

/* The bytes being encoded: on the stack while they fit (an op takes a few
 * dozen bytes), on the heap beyond. Writes are unchecked once room says the
 * bytes are there; a failure sets rc (TLC_ENOMEM, or TLC_EINPUT with the
 * error set) and every later write is dropped. */
typedef struct tlc_rec_w {
	unsigned char *p;
	size_t n, cap;
	int rc;
	unsigned opts;
	const tlc_allocator *a;
	unsigned char stack[512];
} tlc_rec_w;

void tlc_rec__w_init(tlc_rec_w *w, const tlc_allocator *a, unsigned opts);
void tlc_rec__w_free(tlc_rec_w *w);
/** Makes room for k more bytes (1), or sets rc (0). */
int tlc_rec__w_grow(tlc_rec_w *w, size_t k);

static inline int tlc_rec__room(tlc_rec_w *w, size_t k)
{
	return w->cap - w->n >= k || tlc_rec__w_grow(w, k);
}

static inline void tlc_rec__put_u(tlc_rec_w *w, uint64_t v)
{
	if (!tlc_rec__room(w, 10))
		return;
	unsigned char *b = w->p + w->n;
	while (v >= 0x80) {
		*b++ = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	*b++ = (unsigned char)v;
	w->n = (size_t)(b - w->p);
}

static inline void tlc_rec__put_i(tlc_rec_w *w, int64_t v)
{
	tlc_rec__put_u(w, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

static inline void tlc_rec__put_byte(tlc_rec_w *w, unsigned char c)
{
	if (tlc_rec__room(w, 1))
		w->p[w->n++] = c;
}

static inline void tlc_rec__put_bytes(tlc_rec_w *w, const void *s, size_t n)
{
	if (n && tlc_rec__room(w, n)) {
		memcpy(w->p + w->n, s, n);
		w->n += n;
	}
}

/** A list's count (see the layout): count + 1, or 0 for a NULL array. */
static inline void tlc_rec__put_count(tlc_rec_w *w, size_t n, int has_items)
{
	tlc_rec__put_u(w, has_items ? (uint64_t)n + 1 : 0);
}

void tlc_rec__put_str(tlc_rec_w *w, const char *s);

/** A tensor value (kind included) from its parts: the one tensor layout,
 *  which tlc_rec__put_value uses too. fl says which of the pointers are
 *  set and how the name is kept (TLC_REC_T_*); name is the pointer for
 *  NAME_PTR, the string for NAME_BYTES, unused otherwise. */
static inline void tlc_rec__put_tensor(tlc_rec_w *w, tlc_dtype dtype, unsigned fl, size_t ndim,
                                       const int64_t *shape, const int64_t *stride,
                                       const char *name, const char *device)
{
	tlc_rec__put_i(w, (int64_t)TLC_VALUE_TENSOR);
	tlc_rec__put_i(w, (int64_t)dtype);
	tlc_rec__put_byte(w, (unsigned char)fl);
	tlc_rec__put_u(w, ndim);
	for (size_t i = 0; (fl & TLC_REC_T_SHAPE) && i < ndim; i++)
		tlc_rec__put_u(w, (uint64_t)shape[i]);
	for (size_t i = 0; (fl & TLC_REC_T_STRIDE) && i < ndim; i++)
		tlc_rec__put_i(w, stride[i]);
	if (fl & TLC_REC_T_NAME_PTR)
		tlc_rec__put_bytes(w, &name, sizeof name);
	else if (fl & TLC_REC_T_NAME_BYTES)
		tlc_rec__put_str(w, name);
	if (fl & TLC_REC_T_DEVICE)
		tlc_rec__put_str(w, device);
}

/** One value (recursively; deeper than TLC_REC_MAX_DEPTH sets rc). */
void tlc_rec__put_value(tlc_rec_w *w, const tlc_value *v);
/** A list of values: the args of an op. */
void tlc_rec__put_values(tlc_rec_w *w, const tlc_value *items, size_t n);
/** One op record with the input line it came from. A caller's tlc_op may be
 *  of another build's size: only op->size bytes of it are read. */
void tlc_rec__put_op(tlc_rec_w *w, const tlc_op *op, uint64_t line);

/* ---------------------------------------------------------------- */

/* Reading bytes back; every get checks the end. rc: 0, or the first
 * failure (TLC_EINPUT, TLC_ENOMEM), with the error set; every later get
 * then gives zeros. Strings, values and arrays are allocated in ar. */
typedef struct tlc_rec_r {
	const unsigned char *p, *start, *end;
	tlc_arena *ar;
	int rc;
} tlc_rec_r;

void tlc_rec__r_init(tlc_rec_r *r, const unsigned char *p, size_t len, tlc_arena *ar);
uint64_t tlc_rec__get_u_slow(tlc_rec_r *r);
/** An unsigned integer (the one-byte case inline: most of them). */
static inline uint64_t tlc_rec__get_u(tlc_rec_r *r)
{
	if (!r->rc && r->p < r->end && *r->p < 0x80)
		return *r->p++;
	return tlc_rec__get_u_slow(r);
}
/** A signed (zigzagged) integer. */
static inline int64_t tlc_rec__get_i(tlc_rec_r *r)
{
	uint64_t u = tlc_rec__get_u(r);
	return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}
const char *tlc_rec__get_str(tlc_rec_r *r);
void tlc_rec__get_value(tlc_rec_r *r, tlc_value *v);
/** A list of values (NULL when its array was). */
tlc_value *tlc_rec__get_values(tlc_rec_r *r, size_t *n);
/** An op record into *out (size set, every field written); *line its line. */
void tlc_rec__get_op(tlc_rec_r *r, tlc_op *out, uint64_t *line);
/** The line and id of an op record, without reading the rest (the record
 *  must be one the encoder wrote: no error is set). */
void tlc_rec__op_key(const unsigned char *p, size_t len, uint64_t *line, int64_t *id);
/** 0 when r ended exactly at the end of its bytes (else TLC_EINPUT, error
 *  set: trailing bytes), or r's earlier failure. */
int tlc_rec__r_done(tlc_rec_r *r);

#endif
