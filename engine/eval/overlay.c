/* The join's device-time overlay of the kept rows (overlay.h). */
#include <string.h>
#include "overlay.h"
#include "error.h"

static int64_t sat_add(int64_t acc, int64_t v)
{
	return v > INT64_MAX - acc ? INT64_MAX : acc + v;
}

static tlc_tcol *tcol_at(tlc_overlay *o, int k)
{
	tlc_tcol *cols[4] = { &o->device_ns, &o->kernel_ns, &o->costed_device_ns,
	                      &o->costed_kernel_ns };
	return cols[k];
}

int tlc_overlay__init(tlc_overlay *o, const tlc_allocator *a, size_t n, int available)
{
	memset(o, 0, sizeof *o);
	o->a = a;
	o->n = n;
	int bad = 0;
	for (int k = 0; k < 4; k++) /* each init leaves a column that free accepts */
		bad |= tlc_tcol__init(tcol_at(o, k), a, n) < 0;
	o->attribution = tlc_alloc__malloc(a, n ? n : 1);
	if (bad || !o->attribution) {
		for (int k = 0; k < 4; k++)
			tlc_tcol__free(tcol_at(o, k), a);
		tlc_alloc__free(a, o->attribution);
		o->attribution = NULL;
		return tlc_error__oom();
	}
	memset(o->attribution, available ? TLC_ATTR_UNATTRIBUTED : TLC_ATTR_UNAVAILABLE, n ? n : 1);
	o->ready = 1;
	o->available = available;
	return 0;
}

void tlc_overlay__free(tlc_overlay *o)
{
	if (!o || !o->ready)
		return;
	for (int k = 0; k < 4; k++)
		tlc_tcol__free(tcol_at(o, k), o->a);
	tlc_alloc__free(o->a, o->attribution);
	o->attribution = NULL;
	o->ready = 0;
}

static int add2(tlc_tcol *d, tlc_tcol *k, size_t i, int64_t device_ns, int64_t kernel_ns)
{
	if (tlc_tcol__set(d, i, sat_add(tlc_tcol__get(d, i), device_ns)) < 0 ||
	    tlc_tcol__set(k, i, sat_add(tlc_tcol__get(k, i), kernel_ns)) < 0)
		return tlc_error__oom();
	return 0;
}

int tlc_overlay__add(tlc_overlay *o, size_t i, int64_t device_ns, int64_t kernel_ns)
{
	int rc = add2(&o->device_ns, &o->kernel_ns, i, device_ns, kernel_ns);
	if (rc == 0)
		o->attribution[i] = TLC_ATTR_ATTRIBUTED;
	return rc;
}

int tlc_overlay__add_costed(tlc_overlay *o, size_t i, int64_t device_ns, int64_t kernel_ns)
{
	return add2(&o->costed_device_ns, &o->costed_kernel_ns, i, device_ns, kernel_ns);
}

void tlc_overlay__ambiguous(tlc_overlay *o, size_t i)
{
	if (o->attribution[i] != TLC_ATTR_ATTRIBUTED)
		o->attribution[i] = TLC_ATTR_AMBIGUOUS;
}

void tlc_overlay__fill(const tlc_overlay *o, size_t i, tlc_op_row *out)
{
	if (!o || !o->ready || i >= o->n)
		return;
	out->attribution = (tlc_attribution)o->attribution[i];
	out->row_flags = out->attribution == TLC_ATTR_ATTRIBUTED ||
	                 out->attribution == TLC_ATTR_AMBIGUOUS ||
	                 out->attribution == TLC_ATTR_UNATTRIBUTED ? TLC_ROW_HAS_DEVICE_TIME : 0;
	out->device_time_ns = tlc_tcol__get(&o->device_ns, i);
	out->kernel_time_ns = tlc_tcol__get(&o->kernel_ns, i);
}

static size_t idmap_bytes(const tlc_idmap *m)
{
	return m->nslots * m->stride + m->index.nslots * sizeof(tlc_hslot);
}

size_t tlc_overlay__bytes(const tlc_overlay *o)
{
	if (!o->ready)
		return 0;
	size_t b = o->n * (4 * sizeof(uint32_t) + 1);
	for (int k = 0; k < 4; k++)
		b += idmap_bytes(&tcol_at((tlc_overlay *)o, k)->wide);
	return b;
}
