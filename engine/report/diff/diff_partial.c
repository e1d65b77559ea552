/* A diff of two flops partials (`tlcost flops --format json`, schema
 * tlcost.flops/1): per-phase totals only. A partial holds totals, coverage
 * counts and per-type sums, not op rows, so it gives the totals' changes
 * (calls, unknown calls, MACs, other FLOPs, FLOPs, bytes) and nothing that
 * needs aligned calls or device time (docs/diff.md, "Partials"). */
#include <stdlib.h>
#include <string.h>
#include "diff_int.h"
#include "jtree.h"

static void count_add_dec(tlc_count *c, const char *dec)
{
	tlc_count t;
	tlc_count__init(&t);
	t.big = 1;
	mpz_init_set_str(t.z, dec, 10);
	tlc_count__add(c, &t);
	tlc_count__clear(&t);
}

static int bad(const char *name, const char *what)
{
	return tlc_error__set(TLC_EINPUT, "diff_input_partial",
	                      "give two `tlcost flops --format json` partials, or the op logs, "
	                      "traces or saved joins they were made from",
	                      "%s: %s", name, what);
}

static int uint_of(uint64_t *out, const tlc_jnode *obj, const char *key)
{
	const tlc_jnode *n = tlc_jtree__get(obj, key);
	if (!n || !tlc_jtree__is_uint(n) || strlen(n->text) > 19)
		return -1;
	*out = strtoull(n->text, NULL, 10);
	return 0;
}

/* Adds one phase's figures of a partial to side s of row r. */
static int add_phase(tlc_diff__row *r, int s, const tlc_jnode *ph, const char *name)
{
	static const char *const keys[] = { "macs", "other_flops", "bytes_read", "bytes_written" };
	for (int k = 0; k < 4; k++) {
		const tlc_jnode *n = tlc_jtree__get(ph, keys[k]);
		if (!n || !tlc_jtree__is_uint(n))
			return bad(name, "a phase lacks an exact integer macs, other_flops, bytes_read "
			                 "or bytes_written: not a tlcost.flops/1 partial");
		count_add_dec(k == 0 ? &r->s[s].macs : k == 1 ? &r->s[s].other : &r->s[s].bytes,
		              n->text);
	}
	const tlc_jnode *bc = tlc_jtree__get(ph, "bytes_complete");
	if (bc && bc->kind == TLC_J_BOOL && !bc->boolean)
		r->s[s].bytes_unknown = 1;
	return 0;
}

static int add_side(tlc_diff *d, int s, const void *buf, size_t len, const char *name)
{
	tlc_jdoc doc;
	int rc = tlc_jtree__parse(&doc, d->al, buf, len, name);
	if (rc)
		return rc;
	const tlc_jnode *root = doc.root;
	const char *schema = root ? tlc_jtree__str(root, "schema") : NULL;
	const tlc_jnode *phases = root ? tlc_jtree__get(root, "phases") : NULL;
	const tlc_jnode *cov = root ? tlc_jtree__get(root, "coverage") : NULL;
	uint64_t rows = 0, unknown = 0;
	if (!schema || strncmp(schema, "tlcost.flops/", 13) != 0)
		rc = bad(name, schema && strncmp(schema, "tlcost.join/", 12) == 0
		               ? "a join partial holds the join's kernel times, not the FLOPs the "
		                 "diff compares: diff the saved joins (`tlcost join --save`)"
		               : "not a flops partial (no \"schema\": \"tlcost.flops/N\")");
	else if (strcmp(schema, "tlcost.flops/1") != 0)
		rc = bad(name, "a flops partial of a schema version this tlcost does not read");
	else if (!phases || phases->kind != TLC_J_OBJECT || !cov ||
	         uint_of(&rows, cov, "rows") < 0 || uint_of(&unknown, cov, "unknown") < 0)
		rc = bad(name, "no phases object or no coverage rows/unknown counts");
	for (const tlc_jnode *ph = phases ? phases->first : NULL; rc == 0 && ph; ph = ph->next) {
		int p = -1;
		for (int k = 0; k < TLC_PHASE_COUNT; k++)
			if (ph->key && strcmp(ph->key, tlc_phase_name((tlc_phase)k)) == 0)
				p = k;
		if (p < 0 || ph->kind != TLC_J_OBJECT) {
			rc = bad(name, "a phase that is not forward, backward, optimizer or other");
			break;
		}
		if ((rc = add_phase(&d->tot[p], s, ph, name)) == 0)
			rc = add_phase(&d->tot[TLC_PHASE_COUNT], s, ph, name);
		d->partial_phases |= 1u << p;
	}
	if (rc == 0) {
		d->tot[TLC_PHASE_COUNT].s[s].count = rows;
		d->tot[TLC_PHASE_COUNT].s[s].unknown = unknown;
		const tlc_jnode *lb = tlc_jtree__get(root, "lower_bound");
		d->lower[s] = lb && lb->kind == TLC_J_BOOL && lb->boolean;
	}
	tlc_jtree__free(&doc);
	return rc;
}

int tlc_diff_build_partials(tlc_diff **out, const void *a, size_t alen, const char *name_a,
                            const void *b, size_t blen, const char *name_b)
{
	if (!out || !a || !b)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass two partials' JSON texts",
		                      "tlc_diff_build_partials called with NULL");
	*out = NULL;
	tlc_diff *d;
	int rc = tlc_diff_sum_new(&d);
	if (rc)
		return rc;
	d->is_partial = 1;
	for (int s = 0; s < 2; s++)
		for (int p = 0; p < TLC_PHASE_COUNT; p++)
			d->timed[s][p] = 0;
	rc = add_side(d, 0, a, alen, name_a ? name_a : "A");
	if (rc == 0)
		rc = add_side(d, 1, b, blen, name_b ? name_b : "B");
	if (rc == 0) {
		d->nsum = 1;
		rc = tlc_diff_sum_finish(d);
	}
	if (rc) {
		tlc_diff_free(d);
		return rc;
	}
	*out = d;
	return 0;
}
