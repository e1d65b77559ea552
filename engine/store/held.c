/* Held op records (see held.h): a header, then one op record of the
 * store's encoding (record.h), written and read by its one encoder and
 * decoder. */
#include <stddef.h>
#include <string.h>
#include "error.h"
#include "held.h"
#include "record.h"

int tlc_held__pack(tlc_held **out, const tlc_allocator *a, const tlc_op *op, uint64_t line)
{
	*out = NULL;
	tlc_rec_w w;
	tlc_rec__w_init(&w, a, 0);
	tlc_rec__put_op(&w, op, line);
	size_t total = offsetof(tlc_held, data) + w.n;
	int rc = w.rc;
	if (rc == 0 && total > UINT32_MAX)
		rc = TLC_ENOMEM;
	tlc_held *h = rc == 0 ? tlc_alloc__malloc(a, total) : NULL;
	if (rc == 0 && !h)
		rc = TLC_ENOMEM;
	if (h) {
		h->next = NULL;
		h->size = (uint32_t)total;
		memcpy(h->data, w.p, w.n);
		*out = h;
	}
	tlc_rec__w_free(&w);
	return rc == TLC_ENOMEM ? tlc_error__oom() : rc;
}

int tlc_held__unpack(tlc_op *out, const tlc_held *h, tlc_arena *ar)
{
	tlc_rec_r r;
	uint64_t line;
	tlc_rec__r_init(&r, h->data, h->size - offsetof(tlc_held, data), ar);
	tlc_rec__get_op(&r, out, &line);
	return tlc_rec__r_done(&r);
}

void tlc_held__key(const tlc_held *h, uint64_t *line, int64_t *id)
{
	tlc_rec__op_key(h->data, h->size - offsetof(tlc_held, data), line, id);
}
