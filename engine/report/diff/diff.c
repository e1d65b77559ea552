/* tlcost diff: aligns the op rows of two evaluations, most specific match
 * first, and sums each group's figures on both sides (docs/diff.md).
 *
 * Alignment is three passes over the rows still unmatched, each a hash map
 * from a key to the queue of A's rows with that key in row order; each B
 * row takes the first A row of its key's queue, so the n-th call of a key
 * in B meets the n-th unmatched call of it in A. Linear in the rows. */
#include <stdlib.h>
#include <string.h>
#include "diff_int.h"
#include "cost.h"
#include "eval.h"
#include "hindex.h"

#define NONE ((size_t)-1)

const char *tlc_diff_match_name(tlc_diff_match m)
{
	static const char *const n[] = { "same_call", "shape_change", "same_type", "only_a",
	                                 "only_b" };
	return (unsigned)m < TLC_DIFF_MATCH_COUNT ? n[m] : "?";
}

static const char *nz(const char *s) { return s ? s : ""; }

static int str_eq(const char *x, const char *y)
{
	if (!x || !y)
		return x == y;
	return x == y || strcmp(x, y) == 0;
}

static uint64_t mix(uint64_t h, const char *s)
{
	if (!s)
		return tlc_hash__fmix64(h ^ 0x9e3779b97f4a7c15ULL);
	return tlc_hash__fmix64(h ^ tlc_hash__bytes(s, strlen(s))) + 0x632be59bd9b4e019ULL;
}

/* ------------------------------------------------------------ device time */

/* THE one place that reads a row's device time. The kernel time of a row
 * is the join's roll-up to the costed row (tlc_join_counted_kernel_ns: the
 * nearest ancestor-or-self that carries a cost under the nesting policy),
 * so FLOPs and time sit on the same row; a row that no costed op encloses
 * keeps its own kernel time, a row rolled into an ancestor has none, and a
 * row that is not an op (a wrapper) has none either, so the rows' times add
 * up to the kernel time the join's gate counts as attributed. When
 * the join puts the costed-row figure on the op rows (branch `rollup`),
 * this is the function to switch. */
static int64_t row_kernel_ns(const tlc_eval *ev, const tlc_join *j, size_t i,
                             const tlc_op_row *r)
{
	int64_t counted = -1;
	if (!j || !(r->row_flags & TLC_ROW_HAS_DEVICE_TIME))
		return 0;
	if (tlc_eval__row_not_op(ev, i))
		return 0; /* time on a wrapper is not attributed (contract: "Not an op") */
	if (tlc_join_rollup(&counted, j, i) < 0)
		return 0;
	if (counted == (int64_t)i)
		return tlc_join_counted_kernel_ns(j, i);
	return counted < 0 ? r->kernel_time_ns : 0;
}

static int side_timed(const tlc_join *j, int phase)
{
	if (!j || phase < 0 || phase >= TLC_PHASE_COUNT)
		return 0;
	const tlc_join_summary *s = tlc_join_get_summary(j);
	if (!s || s->state == TLC_JOIN_UNAVAILABLE || s->state == TLC_JOIN_EMPTY)
		return 0;
	const tlc_join_phase *p = tlc_join_phase_at(j, (tlc_phase)phase);
	return p && p->passed;
}

const char *tlc_diff__untimed_why(const tlc_diff *d, int side, int phase)
{
	if (d->is_partial)
		return "a flops partial has no device time";
	if (d->is_sum) {
		int any = 0;
		for (int p = 0; p < TLC_PHASE_COUNT; p++)
			any |= d->timed[side][p];
		if (phase >= 0 ? d->timed[side][phase] : any)
			return NULL;
		return "the join's gate did not pass on every rank";
	}
	const tlc_join *j = d->j[side];
	if (!j)
		return "no device records (no join ran)";
	const tlc_join_summary *s = tlc_join_get_summary(j);
	if (s->state == TLC_JOIN_UNAVAILABLE)
		return "no device records";
	if (s->state == TLC_JOIN_EMPTY)
		return "no device activity";
	if (phase >= 0 && !side_timed(j, phase))
		return "the join's gate did not pass for this phase";
	if (phase < 0 && !s->gate_passed)
		return "the join's gate did not pass";
	return NULL;
}

/* ------------------------------------------------------------ alignment */

typedef struct akey {
	int phase;
	const char *name, *overload, *module, *shapes; /* NULL where the level ignores it */
	size_t head, tail;
} akey;

typedef struct aligner {
	tlc_diff *d;
	size_t n[2];
	int64_t *mate[2];       /* the other side's row, or -1 */
	uint8_t *level;         /* A rows: tlc_diff_match of the pair */
	size_t *next;           /* A rows: the next row of the same key */
	akey *k;
	size_t nk, capk;
	tlc_hindex ix;
} aligner;

static akey key_of(const tlc_op_row *r, int level)
{
	akey k = { (int)r->phase, nz(r->name), nz(r->overload), NULL, NULL, NONE, NONE };
	if (level <= TLC_DIFF_SHAPE_CHANGE)
		k.module = nz(r->module);
	if (level == TLC_DIFF_SAME_CALL)
		k.shapes = nz(r->shapes);
	return k;
}

static uint64_t key_hash(const akey *k)
{
	uint64_t h = tlc_hash__fmix64((uint64_t)k->phase + 1);
	return mix(mix(mix(mix(h, k->name), k->overload), k->module), k->shapes);
}

static int key_eq(size_t idx, const void *key, const void *payload)
{
	const akey *x = &((const aligner *)payload)->k[idx], *y = key;
	return x->phase == y->phase && str_eq(x->name, y->name) &&
	       str_eq(x->overload, y->overload) && str_eq(x->module, y->module) &&
	       str_eq(x->shapes, y->shapes);
}

/* Queues A's unmatched rows under their key of this level. */
static int queue_a(aligner *al, int level)
{
	const tlc_eval *ev = al->d->ev[0];
	for (size_t i = 0; i < al->n[0]; i++) {
		if (al->mate[0][i] >= 0)
			continue;
		tlc_op_row r = tlc_eval__row(ev, i);
		akey k = key_of(&r, level);
		uint64_t h = key_hash(&k);
		if (tlc_hindex__reserve(&al->ix, al->nk + 1) < 0)
			return TLC_ENOMEM;
		tlc_hslot *s = tlc_hindex__probe(&al->ix, h, key_eq, &k, al);
		if (!s->idx1) {
			if (tlc_alloc__grow(al->d->al, (void **)&al->k, &al->capk, al->nk + 1,
			                    sizeof *al->k))
				return TLC_ENOMEM;
			al->k[al->nk] = k;
			tlc_hindex__fill(&al->ix, s, h, al->nk++);
		}
		akey *q = &al->k[s->idx1 - 1];
		al->next[i] = NONE;
		if (q->tail == NONE)
			q->head = i;
		else
			al->next[q->tail] = i;
		q->tail = i;
	}
	return 0;
}

/* Each unmatched B row takes the first queued A row of its key. */
static void match_b(aligner *al, int level)
{
	const tlc_eval *ev = al->d->ev[1];
	for (size_t j = 0; j < al->n[1]; j++) {
		if (al->mate[1][j] >= 0)
			continue;
		tlc_op_row r = tlc_eval__row(ev, j);
		akey k = key_of(&r, level);
		size_t ki = tlc_hindex__find(&al->ix, key_hash(&k), key_eq, &k, al);
		if (ki == NONE)
			continue;
		akey *q = &al->k[ki];
		size_t i = q->head;
		if (i == NONE)
			continue;
		q->head = al->next[i];
		if (q->head == NONE)
			q->tail = NONE;
		al->mate[0][i] = (int64_t)j;
		al->mate[1][j] = (int64_t)i;
		al->level[i] = (uint8_t)level;
	}
}

static int align_level(aligner *al, int level)
{
	tlc_hindex__clear(&al->ix);
	al->nk = 0;
	int rc = queue_a(al, level);
	if (rc == 0)
		match_b(al, level);
	return rc;
}

/* ------------------------------------------------------------ groups */

typedef struct gkey {
	int match, phase;
	const char *name, *overload, *mod[2], *shp[2];
} gkey;

typedef struct grouper {
	tlc_diff *d;
	tlc_hindex ix;
	gkey *k;
	size_t capk;
} grouper;

static uint64_t gkey_hash(const gkey *k)
{
	uint64_t h = tlc_hash__fmix64((uint64_t)(k->match * 8 + k->phase) + 1);
	h = mix(mix(h, k->name), k->overload);
	return mix(mix(mix(mix(h, k->mod[0]), k->mod[1]), k->shp[0]), k->shp[1]);
}

static int gkey_eq(size_t idx, const void *key, const void *payload)
{
	const gkey *x = &((const grouper *)payload)->k[idx], *y = key;
	return x->match == y->match && x->phase == y->phase && str_eq(x->name, y->name) &&
	       str_eq(x->overload, y->overload) && str_eq(x->mod[0], y->mod[0]) &&
	       str_eq(x->mod[1], y->mod[1]) && str_eq(x->shp[0], y->shp[0]) &&
	       str_eq(x->shp[1], y->shp[1]);
}

static void acc_init(tlc_diff__acc *s)
{
	memset(s, 0, sizeof *s);
	tlc_count__init(&s->macs);
	tlc_count__init(&s->other);
	tlc_count__init(&s->bytes);
}

static void acc_clear(tlc_diff__acc *s)
{
	tlc_count__clear(&s->macs);
	tlc_count__clear(&s->other);
	tlc_count__clear(&s->bytes);
}

static void acc_add(tlc_diff__acc *to, const tlc_diff__acc *s)
{
	to->count += s->count;
	to->unknown += s->unknown;
	to->untimed += s->untimed;
	tlc_count__add(&to->macs, &s->macs);
	tlc_count__add(&to->other, &s->other);
	tlc_count__add(&to->bytes, &s->bytes);
	to->bytes_unknown |= s->bytes_unknown;
	to->kns += s->kns;
}

static void row_init(tlc_diff__row *g, size_t order)
{
	memset(g, 0, sizeof *g);
	acc_init(&g->s[0]);
	acc_init(&g->s[1]);
	g->order = order;
	g->pub.phase = -1;
}

static void row_clear(tlc_diff__row *g)
{
	acc_clear(&g->s[0]);
	acc_clear(&g->s[1]);
}

/* Cost terms of a row as every total counts them: rows with a cost,
 * including the determined terms of a partly known (unknown) op. */
static void acc_row(tlc_diff__acc *s, const tlc_op_row *r, int64_t kns, int timed)
{
	s->count++;
	if (r->cls == TLC_CLASS_UNKNOWN)
		s->unknown++;
	if (r->cost) {
		tlc_count__add(&s->macs, &r->cost->f[TLC_FIELD_MACS]);
		tlc_count__add(&s->other, &r->cost->f[TLC_FIELD_OTHER_FLOPS]);
	}
	if (tlc_rep__add_bytes(&s->bytes, r) && r->cost) /* no cost: counted as unknown */
		s->bytes_unknown = 1;
	if (timed)
		s->kns += kns;
	else
		s->untimed++;
}

static int group_of(grouper *gr, const gkey *k, size_t *out)
{
	tlc_diff *d = gr->d;
	uint64_t h = gkey_hash(k);
	if (tlc_hindex__reserve(&gr->ix, d->ng + 1) < 0)
		return TLC_ENOMEM;
	tlc_hslot *s = tlc_hindex__probe(&gr->ix, h, gkey_eq, k, gr);
	if (s->idx1) {
		*out = s->idx1 - 1;
		return 0;
	}
	if (tlc_alloc__grow(d->al, (void **)&d->g, &d->capg, d->ng + 1, sizeof *d->g) ||
	    tlc_alloc__grow(d->al, (void **)&gr->k, &gr->capk, d->ng + 1, sizeof *gr->k))
		return TLC_ENOMEM;
	tlc_diff__row *g = &d->g[d->ng];
	row_init(g, d->ng);
	gr->k[d->ng] = *k;
	g->pub.match = (tlc_diff_match)k->match;
	g->pub.phase = k->phase;
	g->pub.name = k->name;
	g->pub.overload = k->overload;
	g->pub.module_a = k->mod[0];
	g->pub.module_b = k->mod[1];
	g->pub.shapes_a = k->shp[0];
	g->pub.shapes_b = k->shp[1];
	g->has_time = d->timed[0][k->phase] && d->timed[1][k->phase];
	tlc_hindex__fill(&gr->ix, s, h, d->ng);
	*out = d->ng++;
	return 0;
}

static int add_to_group(grouper *gr, int match, const tlc_op_row *ra, size_t ia,
                        const tlc_op_row *rb, size_t ib)
{
	tlc_diff *d = gr->d;
	const tlc_op_row *r = ra ? ra : rb;
	gkey k = { match, (int)r->phase, nz(r->name), nz(r->overload),
	           { ra ? nz(ra->module) : NULL, rb ? nz(rb->module) : NULL },
	           { ra ? nz(ra->shapes) : NULL, rb ? nz(rb->shapes) : NULL } };
	size_t gi;
	int rc = group_of(gr, &k, &gi);
	if (rc)
		return rc;
	tlc_diff__row *g = &d->g[gi];
	if (ra) {
		acc_row(&g->s[0], ra, row_kernel_ns(d->ev[0], d->j[0], ia, ra), g->has_time);
		d->match_rows[match][0]++;
	}
	if (rb) {
		acc_row(&g->s[1], rb, row_kernel_ns(d->ev[1], d->j[1], ib, rb), g->has_time);
		d->match_rows[match][1]++;
	}
	if (ra && rb && (ra->cls != rb->cls || !str_eq(nz(ra->reason), nz(rb->reason))))
		g->class_changed++;
	return 0;
}

static int build_groups(tlc_diff *d, const aligner *al)
{
	grouper gr = { d, { 0 }, NULL, 0 };
	tlc_hindex__init(&gr.ix, d->al);
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < al->n[0]; i++) {
		tlc_op_row ra = tlc_eval__row(d->ev[0], i);
		int64_t m = al->mate[0][i];
		if (m < 0) {
			rc = add_to_group(&gr, TLC_DIFF_ONLY_A, &ra, i, NULL, 0);
		} else {
			tlc_op_row rb = tlc_eval__row(d->ev[1], (size_t)m);
			rc = add_to_group(&gr, al->level[i], &ra, i, &rb, (size_t)m);
		}
	}
	for (size_t j = 0; rc == 0 && j < al->n[1]; j++) {
		if (al->mate[1][j] >= 0)
			continue;
		tlc_op_row rb = tlc_eval__row(d->ev[1], j);
		rc = add_to_group(&gr, TLC_DIFF_ONLY_B, NULL, 0, &rb, j);
	}
	tlc_hindex__free(&gr.ix);
	tlc_alloc__free(d->al, gr.k);
	return rc;
}

static int align(tlc_diff *d)
{
	aligner al;
	memset(&al, 0, sizeof al);
	al.d = d;
	tlc_hindex__init(&al.ix, d->al);
	int rc = 0;
	for (int s = 0; s < 2; s++) {
		al.n[s] = tlc_eval_op_count(d->ev[s]);
		al.mate[s] = tlc_alloc__malloc(d->al, (al.n[s] + 1) * sizeof *al.mate[s]);
		if (!al.mate[s])
			rc = tlc_error__oom();
		for (size_t i = 0; rc == 0 && i < al.n[s]; i++)
			al.mate[s][i] = -1;
	}
	al.level = rc ? NULL : tlc_alloc__calloc(d->al, al.n[0] + 1, 1);
	al.next = rc ? NULL : tlc_alloc__malloc(d->al, (al.n[0] + 1) * sizeof *al.next);
	if (rc == 0 && (!al.level || !al.next))
		rc = tlc_error__oom();
	for (int level = TLC_DIFF_SAME_CALL; rc == 0 && level <= TLC_DIFF_SAME_TYPE; level++)
		rc = align_level(&al, level);
	tlc_hindex__free(&al.ix);
	tlc_alloc__free(d->al, al.k);
	tlc_alloc__free(d->al, al.next);
	if (rc == 0)
		rc = build_groups(d, &al);
	tlc_alloc__free(d->al, al.level);
	tlc_alloc__free(d->al, al.mate[0]);
	tlc_alloc__free(d->al, al.mate[1]);
	return rc;
}

/* ------------------------------------------------------------ time split */

/* Work of one side: FLOPs (fma=2), or bytes for a group without FLOPs on
 * either side; the basis is chosen for the group as a whole. */
static void work_of(mpz_t out, const tlc_diff__acc *s, int bytes)
{
	tlc_count w;
	tlc_count__init(&w);
	if (bytes) {
		tlc_count__add(&w, &s->bytes);
	} else {
		tlc_count__addmul_si(&w, &s->macs, 2);
		tlc_count__add(&w, &s->other);
	}
	char *dec = tlc_count__to_str(&w);
	mpz_set_str(out, dec ? dec : "0", 10);
	free(dec);
	tlc_count__clear(&w);
}

/* Splits a group's time change: d_work = round(tA * WB / WA) - tA (B's
 * work at A's rate; the one rounding of the diff: to nearest, halves up),
 * d_rate = d_time - d_work. Where the split is undefined (a side with
 * unknown cost, A without work or time, a quotient past int64) the whole
 * change is unsplit. A group only in A lost its work (d_work = -tA); a
 * group only in B gained it (d_work = +tB). */
static void split_time(tlc_diff__row *g)
{
	const tlc_diff__acc *a = &g->s[0], *b = &g->s[1];
	int64_t dt = b->kns - a->kns;
	g->work = g->rate = g->unsplit = 0;
	if (g->pub.match == TLC_DIFF_ONLY_A || g->pub.match == TLC_DIFF_ONLY_B) {
		g->work = dt;
		return;
	}
	if (a->unknown || b->unknown) {
		g->unsplit = dt;
		return;
	}
	mpz_t wa, wb, q;
	mpz_inits(wa, wb, q, NULL);
	work_of(wa, a, 0);
	work_of(wb, b, 0);
	if (!mpz_sgn(wa) && !mpz_sgn(wb) && !a->bytes_unknown && !b->bytes_unknown) {
		work_of(wa, a, 1);
		work_of(wb, b, 1);
	}
	if (!mpz_sgn(wa) && !mpz_sgn(wb)) {
		g->rate = dt; /* no work on either side: the work did not change */
	} else if (mpz_sgn(wa) <= 0 || a->kns <= 0) {
		g->unsplit = dt;
	} else {
		/* q = floor((2 * tA * WB + WA) / (2 * WA)): tA * WB / WA rounded half up */
		mpz_set_si(q, (long)a->kns);
		mpz_mul(q, q, wb);
		mpz_mul_2exp(q, q, 1);
		mpz_add(q, q, wa);
		mpz_mul_2exp(wa, wa, 1);
		mpz_fdiv_q(q, q, wa);
		if (mpz_fits_slong_p(q) && sizeof(long) == 8) {
			int64_t at_a = (int64_t)mpz_get_si(q);
			if (at_a <= INT64_MAX / 2) {
				g->work = at_a - a->kns;
				g->rate = dt - g->work;
			} else {
				g->unsplit = dt;
			}
		} else {
			g->unsplit = dt;
		}
	}
	mpz_clears(wa, wb, q, NULL);
}

/* ------------------------------------------------------------ finishing */

static const char *dup_count(tlc_diff *d, const tlc_count *c)
{
	return tlc_rep__count_dup(&d->ar, c);
}

static const char *dup_delta(tlc_diff *d, const tlc_count *b, const tlc_count *a)
{
	tlc_count t;
	tlc_count__init(&t);
	tlc_count__add(&t, b);
	tlc_count__addmul_si(&t, a, -1);
	const char *s = dup_count(d, &t);
	tlc_count__clear(&t);
	return s;
}

static const char *dup_u64_delta(tlc_diff *d, uint64_t b, uint64_t a)
{
	char buf[32];
	if (b >= a)
		snprintf(buf, sizeof buf, "%llu", (unsigned long long)(b - a));
	else
		snprintf(buf, sizeof buf, "-%llu", (unsigned long long)(a - b));
	return tlc_arena__strdup(&d->ar, buf);
}

static int finish_side(tlc_diff *d, tlc_diff_side *p, const tlc_diff__acc *s)
{
	tlc_count f;
	tlc_count__init(&f);
	tlc_count__addmul_si(&f, &s->macs, 2);
	tlc_count__add(&f, &s->other);
	p->count = s->count;
	p->unknown = s->unknown;
	p->macs = dup_count(d, &s->macs);
	p->other_flops = dup_count(d, &s->other);
	p->flops = dup_count(d, &f);
	p->bytes = s->bytes_unknown ? NULL : dup_count(d, &s->bytes);
	p->kernel_ns = s->kns;
	tlc_count__clear(&f);
	return p->macs && p->other_flops && p->flops && (p->bytes || s->bytes_unknown)
	       ? 0 : tlc_error__oom();
}

static double abs_d(double x) { return x < 0 ? -x : x; }

static int finish_row(tlc_diff *d, tlc_diff__row *g)
{
	tlc_diff_row *p = &g->pub;
	const tlc_diff__acc *a = &g->s[0], *b = &g->s[1];
	if (finish_side(d, &p->a, a) < 0 || finish_side(d, &p->b, b) < 0)
		return TLC_ENOMEM;
	tlc_count fa, fb;
	tlc_count__init(&fa);
	tlc_count__init(&fb);
	tlc_count__addmul_si(&fa, &a->macs, 2);
	tlc_count__add(&fa, &a->other);
	tlc_count__addmul_si(&fb, &b->macs, 2);
	tlc_count__add(&fb, &b->other);
	p->d_flops = dup_delta(d, &fb, &fa);
	g->sort_key = abs_d(tlc_count__to_double(&fb) - tlc_count__to_double(&fa));
	tlc_count__clear(&fa);
	tlc_count__clear(&fb);
	p->d_count = dup_u64_delta(d, b->count, a->count);
	p->d_unknown = dup_u64_delta(d, b->unknown, a->unknown);
	p->d_macs = dup_delta(d, &b->macs, &a->macs);
	p->d_other_flops = dup_delta(d, &b->other, &a->other);
	p->d_bytes = a->bytes_unknown || b->bytes_unknown ? NULL : dup_delta(d, &b->bytes, &a->bytes);
	p->class_changed = g->class_changed;
	p->has_time = g->has_time;
	p->untimed_a = a->untimed;
	p->untimed_b = b->untimed;
	if (g->has_time) {
		p->d_time_ns = b->kns - a->kns;
		p->d_work_ns = g->work;
		p->d_rate_ns = g->rate;
		p->d_unsplit_ns = g->unsplit;
		if (d->any_time)
			g->sort_key = abs_d((double)p->d_time_ns);
	}
	g->tier = d->any_time && !g->has_time; /* rows with compared time first */
	if (!p->d_flops || !p->d_count || !p->d_unknown || !p->d_macs || !p->d_other_flops ||
	    (!p->d_bytes && !a->bytes_unknown && !b->bytes_unknown))
		return tlc_error__oom();
	return 0;
}

static void fold(tlc_diff__row *to, const tlc_diff__row *g)
{
	acc_add(&to->s[0], &g->s[0]);
	acc_add(&to->s[1], &g->s[1]);
	to->class_changed += g->class_changed;
	if (g->has_time) {
		to->has_time = 1;
		to->work += g->work;
		to->rate += g->rate;
		to->unsplit += g->unsplit;
	}
}

static const char *module_label(const char *m) { return m && *m ? m : "(root)"; }

static const char *group_key(tlc_diff *d, const tlc_diff_row *p)
{
	tlc_sb sb;
	tlc_sb__init(&sb, d->al);
	tlc_sb__puts(&sb, p->name);
	if (p->overload && *p->overload) {
		tlc_sb__puts(&sb, ".");
		tlc_sb__puts(&sb, p->overload);
	}
	tlc_sb__puts(&sb, " @");
	tlc_sb__puts(&sb, module_label(p->module_a ? p->module_a : p->module_b));
	if (p->module_a && p->module_b && strcmp(p->module_a, p->module_b) != 0) {
		tlc_sb__puts(&sb, " -> ");
		tlc_sb__puts(&sb, module_label(p->module_b));
	}
	tlc_sb__puts(&sb, " ");
	tlc_sb__puts(&sb, p->shapes_a ? p->shapes_a : p->shapes_b);
	if (p->shapes_a && p->shapes_b && strcmp(p->shapes_a, p->shapes_b) != 0) {
		tlc_sb__puts(&sb, " -> ");
		tlc_sb__puts(&sb, p->shapes_b);
	}
	const char *str = tlc_sb__str(&sb);
	const char *s = str ? tlc_arena__strdup(&d->ar, str) : NULL;
	tlc_sb__free(&sb);
	return s;
}

/* The key of a group in a view (NULL: the group is its own row). */
static const char *view_key(tlc_diff *d, const tlc_diff_row *p, char *buf, size_t cap)
{
	if (d->opts.by == TLC_DIFF_BY_TYPE) {
		if (p->overload && *p->overload)
			snprintf(buf, cap, "%s.%s", p->name, p->overload);
		else
			snprintf(buf, cap, "%s", p->name);
	} else if (p->module_a && p->module_b && strcmp(p->module_a, p->module_b) != 0) {
		snprintf(buf, cap, "%s -> %s", module_label(p->module_a), module_label(p->module_b));
	} else {
		snprintf(buf, cap, "%s", module_label(p->module_a ? p->module_a : p->module_b));
	}
	return buf;
}

typedef struct vindex {
	tlc_diff *d;
	tlc_hindex ix;
} vindex;

static int view_eq(size_t idx, const void *key, const void *payload)
{
	return strcmp(((const vindex *)payload)->d->v[idx].pub.key, key) == 0;
}

static int build_view(tlc_diff *d)
{
	if (d->opts.by == TLC_DIFF_BY_GROUP) {
		d->v = d->g;
		d->nv = d->ng;
		return 0;
	}
	vindex vi = { d, { 0 } };
	tlc_hindex__init(&vi.ix, d->al);
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < d->ng; i++) {
		char buf[1024];
		const char *key = view_key(d, &d->g[i].pub, buf, sizeof buf);
		uint64_t h = tlc_hash__bytes(key, strlen(key));
		if ((rc = tlc_hindex__reserve(&vi.ix, d->nv + 1)) < 0)
			break;
		tlc_hslot *s = tlc_hindex__probe(&vi.ix, h, view_eq, key, &vi);
		if (!s->idx1) {
			if ((rc = tlc_alloc__grow(d->al, (void **)&d->v, &d->capv, d->nv + 1,
			                          sizeof *d->v)) < 0)
				break;
			row_init(&d->v[d->nv], d->nv);
			d->v[d->nv].pub.key = tlc_arena__strdup(&d->ar, key);
			if (!d->v[d->nv].pub.key) {
				rc = tlc_error__oom();
				break;
			}
			d->v[d->nv].pub.phase = d->g[i].pub.phase;
			tlc_hindex__fill(&vi.ix, s, h, d->nv++);
		}
		tlc_diff__row *v = &d->v[s->idx1 - 1];
		if (v->pub.phase != d->g[i].pub.phase)
			v->pub.phase = -1;
		fold(v, &d->g[i]);
	}
	tlc_hindex__free(&vi.ix);
	return rc;
}

static int cmp_row(const void *x, const void *y)
{
	const tlc_diff__row *a = x, *b = y;
	if (a->tier != b->tier)
		return a->tier - b->tier;
	if (a->sort_key != b->sort_key)
		return a->sort_key < b->sort_key ? 1 : -1;
	int c = strcmp(a->pub.key, b->pub.key);
	return c ? c : (a->order > b->order) - (a->order < b->order);
}

static int finish(tlc_diff *d)
{
	for (int p = 0; p <= TLC_PHASE_COUNT; p++) {
		row_init(&d->tot[p], 0);
		d->tot[p].pub.phase = p < TLC_PHASE_COUNT ? p : -1;
		d->tot[p].pub.key = p < TLC_PHASE_COUNT ? tlc_phase_name((tlc_phase)p) : "all";
	}
	/* a total has time when one of its groups has (fold) */
	for (size_t i = 0; i < d->ng; i++) {
		tlc_diff__row *g = &d->g[i];
		if (g->has_time)
			split_time(g);
		fold(&d->tot[g->pub.phase], g);
		fold(&d->tot[TLC_PHASE_COUNT], g);
		if (!(g->pub.key = group_key(d, &g->pub)))
			return tlc_error__oom();
	}
	d->any_time = d->tot[TLC_PHASE_COUNT].has_time;
	int rc = build_view(d);
	for (size_t i = 0; rc == 0 && i < d->nv; i++)
		rc = finish_row(d, &d->v[i]);
	if (d->v != d->g)
		for (size_t i = 0; rc == 0 && i < d->ng; i++)
			rc = finish_row(d, &d->g[i]);
	for (int p = 0; rc == 0 && p <= TLC_PHASE_COUNT; p++)
		rc = finish_row(d, &d->tot[p]);
	if (rc)
		return rc;
	if (d->nv > 1)
		qsort(d->v, d->nv, sizeof *d->v, cmp_row);
	d->shown = d->opts.top && d->opts.top < d->nv ? d->opts.top : d->nv;
	return 0;
}

int tlc_diff_build(tlc_diff **out, const tlc_eval *a, const tlc_join *ja, const tlc_eval *b,
                   const tlc_join *jb, const tlc_diff_options *opts)
{
	if (!out || !a || !b)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass two finished evaluations",
		                      "tlc_diff_build called with NULL");
	*out = NULL;
	int rc = tlc_rep__check_eval(a);
	if (rc == 0)
		rc = tlc_rep__check_eval(b);
	if (rc)
		return rc;
	const tlc_allocator *al = tlc_eval__allocator(a);
	tlc_diff *d = tlc_alloc__calloc(al, 1, sizeof *d);
	if (!d)
		return tlc_error__oom();
	d->al = al;
	tlc_arena__init(&d->ar, al, 8192);
	d->ev[0] = a;
	d->ev[1] = b;
	d->j[0] = ja;
	d->j[1] = jb;
	d->opts.size = sizeof d->opts;
	if (opts)
		memcpy(&d->opts, opts, opts->size && opts->size < sizeof d->opts ? opts->size
		                                                                 : sizeof d->opts);
	d->opts.size = sizeof d->opts;
	for (int s = 0; s < 2; s++)
		for (int p = 0; p < TLC_PHASE_COUNT; p++)
			d->timed[s][p] = side_timed(d->j[s], p);
	rc = align(d);
	if (rc == 0)
		rc = finish(d);
	if (rc) {
		tlc_diff_free(d);
		return rc;
	}
	*out = d;
	return 0;
}

void tlc_diff_free(tlc_diff *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->ng; i++)
		row_clear(&d->g[i]);
	if (d->v != d->g) {
		for (size_t i = 0; i < d->nv; i++)
			row_clear(&d->v[i]);
		tlc_alloc__free(d->al, d->v);
	}
	for (int p = 0; p <= TLC_PHASE_COUNT; p++)
		row_clear(&d->tot[p]);
	tlc_alloc__free(d->al, d->g);
	tlc_arena__free(&d->ar);
	tlc_alloc__free(d->al, d);
}

size_t tlc_diff_row_count(const tlc_diff *d) { return d ? d->shown : 0; }

const tlc_diff_row *tlc_diff_row_at(const tlc_diff *d, size_t i)
{
	return d && i < d->shown ? &d->v[i].pub : NULL;
}

size_t tlc_diff_hidden_rows(const tlc_diff *d) { return d ? d->nv - d->shown : 0; }

const tlc_diff_row *tlc_diff_total(const tlc_diff *d, int phase)
{
	if (!d || phase < -1 || phase >= TLC_PHASE_COUNT)
		return NULL;
	return &d->tot[phase < 0 ? TLC_PHASE_COUNT : phase].pub;
}

int tlc_diff_lower_bound(const tlc_diff *d, int side_b)
{
	if (!d)
		return 0;
	return d->is_sum ? d->lower[side_b ? 1 : 0] : tlc_eval_is_lower_bound(d->ev[side_b ? 1 : 0]);
}

/* ------------------------------------------------------------ sums (ranks) */

int tlc_diff_sum_new(tlc_diff **out)
{
	if (!out)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass where to put the sum",
		                      "tlc_diff_sum_new called with NULL");
	const tlc_allocator *al = tlc_alloc__default();
	tlc_diff *d = tlc_alloc__calloc(al, 1, sizeof *d);
	if (!d)
		return tlc_error__oom();
	d->al = al;
	tlc_arena__init(&d->ar, al, 4096);
	d->opts.size = sizeof d->opts;
	d->is_sum = 1;
	for (int p = 0; p <= TLC_PHASE_COUNT; p++) {
		row_init(&d->tot[p], 0);
		d->tot[p].pub.phase = p < TLC_PHASE_COUNT ? p : -1;
		d->tot[p].pub.key = p < TLC_PHASE_COUNT ? tlc_phase_name((tlc_phase)p) : "all";
	}
	for (int s = 0; s < 2; s++)
		for (int p = 0; p < TLC_PHASE_COUNT; p++)
			d->timed[s][p] = 1;
	*out = d;
	return 0;
}

int tlc_diff_sum_add(tlc_diff *sum, const tlc_diff *d)
{
	if (!sum || !d || !sum->is_sum || d->is_sum)
		return tlc_error__set(TLC_EINVAL, "invalid_argument",
		                      "pass a sum from tlc_diff_sum_new and a diff from tlc_diff_build",
		                      "tlc_diff_sum_add: bad argument");
	for (int p = 0; p <= TLC_PHASE_COUNT; p++)
		fold(&sum->tot[p], &d->tot[p]);
	for (int s = 0; s < 2; s++) {
		sum->lower[s] |= tlc_diff_lower_bound(d, s);
		for (int p = 0; p < TLC_PHASE_COUNT; p++)
			sum->timed[s][p] &= d->timed[s][p];
		for (int m = 0; m < TLC_DIFF_MATCH_COUNT; m++)
			sum->match_rows[m][s] += d->match_rows[m][s];
	}
	sum->nsum++;
	return 0;
}

int tlc_diff_sum_finish(tlc_diff *sum)
{
	if (!sum || !sum->is_sum)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass a sum from tlc_diff_sum_new",
		                      "tlc_diff_sum_finish: bad argument");
	for (int p = 0; p < TLC_PHASE_COUNT; p++) {
		/* time in a phase only when every rank compared it there */
		sum->tot[p].has_time = sum->tot[p].has_time && sum->timed[0][p] && sum->timed[1][p];
		sum->any_time |= sum->tot[p].has_time;
	}
	sum->tot[TLC_PHASE_COUNT].has_time = sum->any_time;
	int rc = 0;
	for (int p = 0; rc == 0 && p <= TLC_PHASE_COUNT; p++)
		rc = finish_row(sum, &sum->tot[p]);
	return rc;
}

int tlc_diff_has_time(const tlc_diff *d) { return d ? d->any_time : 0; }

const tlc_diff__row *tlc_diff__rows(const tlc_diff *d, size_t *n)
{
	*n = d->shown;
	return d->v;
}
