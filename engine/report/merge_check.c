/* The arithmetic a flops partial carries, checked before a merge takes it
 * (merge_check.h): every total, count and flag that another part of the
 * document determines must agree with it (docs/json-schema.md,
 * tlcost.flops/1), or the partial was edited or damaged and is refused
 * (merge_input_inconsistent, naming the field and the file). All sums are
 * exact (GMP). */
#include <gmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "error.h"
#include "merge_check.h"

#define NCLASS 4
static const char *const class_keys[NCLASS] = { "known", "zero_by_rule", "not_applicable",
                                                "unknown" };

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int inconsistent(const char *name, const char *field, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return tlc_error__set_pos(TLC_EINPUT, "merge_input_inconsistent", name, 0, 0,
	                          "give the partial as `tlcost flops --format json` or `tlcost "
	                          "merge --format json` wrote it: its numbers contradict each "
	                          "other, so it was edited or damaged",
	                          "%s: %s", field, msg);
}

/* obj[key] as an exact integer; 0 when absent or not a number. */
static void zget(mpz_t out, const tlc_jnode *obj, const char *key)
{
	const tlc_jnode *n = tlc_jtree__get(obj, key);
	if (!tlc_jtree__is_uint(n) || mpz_set_str(out, n->text, 10) != 0)
		mpz_set_ui(out, 0);
}

/* Decimal text of z for a message (static buffer per slot). */
static const char *zs(int slot, const mpz_t z)
{
	static _Thread_local char buf[4][64]; /* two merges may run in two threads */
	if (mpz_sizeinbase(z, 10) + 2 > sizeof buf[0])
		return "(a very large number)";
	mpz_get_str(buf[slot], 10, z);
	return buf[slot];
}

/* flops = 2 macs + other_flops; flops_fma1 = macs + other_flops. */
static int check_phase(const char *name, const tlc_jnode *ph, mpz_t sum_flops)
{
	mpz_t f, m, o, want;
	mpz_inits(f, m, o, want, NULL);
	zget(f, ph, "flops");
	zget(m, ph, "macs");
	zget(o, ph, "other_flops");
	mpz_add(sum_flops, sum_flops, f);
	mpz_mul_ui(want, m, 2);
	mpz_add(want, want, o);
	char field[64];
	int rc = 0;
	if (mpz_cmp(f, want) != 0) {
		snprintf(field, sizeof field, "phases.%s.flops", ph->key);
		rc = inconsistent(name, field, "is %s, but 2 x macs + other_flops is %s (fma=2)",
		                  zs(0, f), zs(1, want));
	}
	const tlc_jnode *f1 = tlc_jtree__get(ph, "flops_fma1");
	if (rc == 0 && f1 && f1->kind == TLC_J_NUMBER) {
		zget(f, ph, "flops_fma1");
		mpz_add(want, m, o);
		snprintf(field, sizeof field, "phases.%s.flops_fma1", ph->key);
		if (mpz_cmp(f, want) != 0)
			rc = inconsistent(name, field, "is %s, but macs + other_flops is %s",
			                  zs(0, f), zs(1, want));
	}
	mpz_clears(f, m, o, want, NULL);
	return rc;
}

/* An object's four class counts add up to its total (key total). */
static int check_classes(const char *name, const char *field, const tlc_jnode *obj,
                         const char *total, mpz_t cls[NCLASS])
{
	mpz_t t, s;
	mpz_inits(t, s, NULL);
	zget(t, obj, total);
	for (int c = 0; c < NCLASS; c++) {
		mpz_t v;
		mpz_init(v);
		zget(v, obj, class_keys[c]);
		mpz_add(s, s, v);
		if (cls)
			mpz_add(cls[c], cls[c], v);
		mpz_clear(v);
	}
	int rc = mpz_cmp(t, s) == 0 ? 0
	         : inconsistent(name, field, "%s is %s, but known + zero_by_rule + not_applicable "
	                        "+ unknown is %s", total, zs(0, t), zs(1, s));
	mpz_clears(t, s, NULL);
	return rc;
}

/* Each op type's classes add up to its count; over all types they are the
 * coverage's, and the types' FLOPs are the phases'. */
static int check_types(const char *name, const tlc_jnode *cov, const tlc_jnode *types,
                       const mpz_t sum_flops)
{
	mpz_t cls[NCLASS], count, flops, v;
	for (int c = 0; c < NCLASS; c++)
		mpz_init(cls[c]);
	mpz_inits(count, flops, v, NULL);
	int rc = 0;
	for (const tlc_jnode *t = types->first; t && rc == 0; t = t->next) {
		char field[160];
		snprintf(field, sizeof field, "op_types[name=%.100s]", tlc_jtree__str(t, "name"));
		rc = check_classes(name, field, t, "count", cls);
		zget(v, t, "count");
		mpz_add(count, count, v);
		zget(v, t, "flops");
		mpz_add(flops, flops, v);
	}
	for (int c = 0; c < NCLASS && rc == 0; c++) {
		zget(v, cov, class_keys[c]);
		if (mpz_cmp(v, cls[c]) != 0)
			rc = inconsistent(name, "op_types", "their %s calls add up to %s, but coverage.%s "
			                  "is %s", class_keys[c], zs(0, cls[c]), class_keys[c], zs(1, v));
	}
	zget(v, cov, "rows");
	if (rc == 0 && mpz_cmp(v, count) != 0)
		rc = inconsistent(name, "op_types", "their counts add up to %s, but coverage.rows is %s",
		                  zs(0, count), zs(1, v));
	if (rc == 0 && mpz_cmp(flops, sum_flops) != 0)
		rc = inconsistent(name, "op_types", "their flops add up to %s, but the phases' flops "
		                  "add up to %s", zs(0, flops), zs(1, sum_flops));
	for (int c = 0; c < NCLASS; c++)
		mpz_clear(cls[c]);
	mpz_clears(count, flops, v, NULL);
	return rc;
}

/* Every ledger entry is at least one call with no more examples than
 * calls; the entries are exactly the unknown calls. */
static int check_ledger(const char *name, const tlc_jnode *cov, const tlc_jnode *ledger)
{
	mpz_t sum, v;
	mpz_inits(sum, v, NULL);
	int rc = 0;
	for (const tlc_jnode *e = ledger->first; e && rc == 0; e = e->next) {
		char field[160];
		snprintf(field, sizeof field, "ledger[name=%.100s]", tlc_jtree__str(e, "name"));
		zget(v, e, "count");
		mpz_add(sum, sum, v);
		const tlc_jnode *ids = tlc_jtree__get(e, "example_ids");
		const tlc_jnode *sh = tlc_jtree__get(e, "example_shapes");
		if (mpz_sgn(v) == 0)
			rc = inconsistent(name, field, "count is 0: an entry stands for unknown calls");
		else if (mpz_cmp_ui(v, ids->n) < 0 || mpz_cmp_ui(v, sh->n) < 0)
			rc = inconsistent(name, field, "count is %s, but it lists more examples than that",
			                  zs(0, v));
	}
	zget(v, cov, "unknown");
	if (rc == 0 && mpz_cmp(v, sum) != 0)
		rc = inconsistent(name, "ledger", "its counts add up to %s, but coverage.unknown is %s",
		                  zs(0, sum), zs(1, v));
	mpz_clears(sum, v, NULL);
	return rc;
}

/* A gap counted in without_op: every cause but these two. */
static int counts_without_op(const char *cause)
{
	return strcmp(cause, "device_events_unread") != 0 && strcmp(cause, "no_op_records") != 0;
}

/* kernels = kernels_in_ops + without_op; without_op and without_op_ns are
 * the gaps' records and device time; no_op_records iff there are no rows. */
static int check_device_work(const char *name, const tlc_jnode *cov, const tlc_jnode *w)
{
	mpz_t k, in, out, ns, rec, gns, v, rows;
	mpz_inits(k, in, out, ns, rec, gns, v, rows, NULL);
	zget(k, w, "kernels");
	zget(in, w, "kernels_in_ops");
	zget(out, w, "without_op");
	zget(ns, w, "without_op_ns");
	zget(rows, cov, "rows");
	int no_op = 0;
	for (const tlc_jnode *g = tlc_jtree__get(w, "gaps")->first; g; g = g->next) {
		const char *cause = tlc_jtree__str(g, "cause");
		no_op |= strcmp(cause, "no_op_records") == 0;
		if (!counts_without_op(cause))
			continue;
		zget(v, g, "records");
		mpz_add(rec, rec, v);
		zget(v, g, "device_ns");
		mpz_add(gns, gns, v);
	}
	mpz_add(v, in, out);
	int rc = 0;
	if (mpz_cmp(k, v) != 0)
		rc = inconsistent(name, "device_work.kernels", "is %s, but kernels_in_ops + without_op "
		                  "is %s", zs(0, k), zs(1, v));
	else if (mpz_cmp(out, rec) != 0)
		rc = inconsistent(name, "device_work.without_op", "is %s, but the gaps hold %s records",
		                  zs(0, out), zs(1, rec));
	else if (mpz_cmp(ns, gns) != 0)
		rc = inconsistent(name, "device_work.without_op_ns", "is %s, but the gaps hold %s ns",
		                  zs(0, ns), zs(1, gns));
	else if (no_op != (mpz_sgn(rows) == 0))
		rc = inconsistent(name, "device_work.gaps", "%s a no_op_records gap with %s op rows",
		                  no_op ? "has" : "lacks", zs(0, rows));
	mpz_clears(k, in, out, ns, rec, gns, v, rows, NULL);
	return rc;
}

/* lower_bound is true exactly when some call is unknown or some device
 * work has no op row (a gap); without device_work only the first can be
 * checked. */
static int check_lower_bound(const char *name, const tlc_jnode *root, const tlc_jnode *cov,
                             const tlc_jnode *w)
{
	int lb = tlc_jtree__get(root, "lower_bound")->boolean;
	mpz_t u;
	mpz_init(u);
	zget(u, cov, "unknown");
	int unknown = mpz_sgn(u) > 0;
	int gaps = w && tlc_jtree__get(w, "gaps")->n > 0;
	int rc = 0;
	if (unknown && !lb)
		rc = inconsistent(name, "lower_bound", "is false, but coverage.unknown is %s: the "
		                  "totals lack those calls' FLOPs", zs(0, u));
	else if (lb && !unknown && w && !gaps)
		rc = inconsistent(name, "lower_bound", "is true, but no call is unknown and "
		                  "device_work has no gaps");
	else if (!lb && gaps)
		rc = inconsistent(name, "lower_bound", "is false, but device_work.gaps lists device "
		                  "work without op rows");
	mpz_clear(u);
	return rc;
}

/* group_size_basis counts every collective call once. */
static int check_comm(const char *name, const tlc_jnode *comm)
{
	if (!comm)
		return 0;
	mpz_t calls, basis, v;
	mpz_inits(calls, basis, v, NULL);
	for (const tlc_jnode *p = tlc_jtree__get(comm, "phases")->first; p; p = p->next)
		for (const tlc_jnode *k = p->first; k; k = k->next) {
			zget(v, k, "calls");
			mpz_add(calls, calls, v);
		}
	const tlc_jnode *b = tlc_jtree__get(comm, "group_size_basis");
	for (const tlc_jnode *x = b->first; x; x = x->next)
		if (tlc_jtree__is_uint(x) && mpz_set_str(v, x->text, 10) == 0)
			mpz_add(basis, basis, v);
	int rc = mpz_cmp(calls, basis) == 0 ? 0
	         : inconsistent(name, "communication.group_size_basis", "counts %s calls, but the "
	                        "phases hold %s collective calls", zs(0, basis), zs(1, calls));
	mpz_clears(calls, basis, v, NULL);
	return rc;
}

int tlc_merge__check_arith(const char *name, const tlc_jnode *root)
{
	const tlc_jnode *cov = tlc_jtree__get(root, "coverage");
	const tlc_jnode *w = tlc_jtree__get(root, "device_work");
	w = w && w->kind == TLC_J_OBJECT ? w : NULL;
	mpz_t sum_flops;
	mpz_init(sum_flops);
	int rc = check_classes(name, "coverage", cov, "rows", NULL);
	for (const tlc_jnode *ph = tlc_jtree__get(root, "phases")->first; ph && rc == 0;
	     ph = ph->next)
		rc = check_phase(name, ph, sum_flops);
	if (rc == 0)
		rc = check_types(name, cov, tlc_jtree__get(root, "op_types"), sum_flops);
	if (rc == 0)
		rc = check_ledger(name, cov, tlc_jtree__get(root, "ledger"));
	if (rc == 0 && w)
		rc = check_device_work(name, cov, w);
	if (rc == 0)
		rc = check_lower_bound(name, root, cov, w);
	if (rc == 0)
		rc = check_comm(name, tlc_jtree__get(root, "communication"));
	mpz_clear(sum_flops);
	return rc;
}
