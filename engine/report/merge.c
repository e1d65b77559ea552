/* Exact merge of flops partials (`tlcost merge`, docs/collectives.md
 * "Merging partials"): the JSON of `tlcost flops` (or of an earlier merge)
 * from many inputs becomes one document whose totals, coverage counts,
 * ledger and op types are what a single evaluation of all the ops gives.
 *
 * Order independence: every input has an identity (rank, name); the merge
 * works as if the inputs came in identity order (ranked inputs by rank,
 * then unranked ones by name). The ledger's examples are the first ones in
 * that order: each example keeps its (input, position) key and a merge keeps
 * the 3 smallest keys, which composes (the 3 smallest of a union are among
 * the 3 smallest of each side), so merging is associative and commutative.
 * Memory grows with the distinct op names and with one identity row per
 * input, not with the inputs' ops. */
#include <gmp.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include "tlcost/tlcost.h"
#include "error.h"
#include "eval.h"
#include "jsonw.h"
#include "jtree.h"
#include "reports.h"
#include "flops_sum.h"
#include "textw.h"
#include "write_comm.h"
#include "merge_join.h"
#include "merge_check.h"
#include "alloc.h"
#include "hindex.h"

#define NEX 3
#define NCOV 7
#define NTOT 6

static const char *const cov_keys[NCOV] = {
	"rows", "known", "zero_by_rule", "not_applicable", "unknown", "skipped_records",
	"device_records",
};
static const char *const tot_keys[NTOT] = {
	"flops", "macs", "other_flops", "flops_fma1", "bytes_read", "bytes_written",
};
static const char *const phase_keys[TLC_PHASE_COUNT] = {
	"forward", "backward", "optimizer", "other",
};
static const char *const class_keys[4] = { "known", "zero_by_rule", "not_applicable", "unknown" };

typedef struct src {
	char *name, *backend, *format, *producer, *model, *device;
	int64_t rank, world_size;
} src;

typedef struct key {
	uint32_t src, pos;
} key;

typedef struct example {
	key k;
	long long id;
} example;

typedef struct shape {
	key k;
	char *text;
} shape;

typedef struct lgroup {
	char *name, *overload, *reason, *detail, *remedy;
	/* partly known calls (tlcost.flops/1 ledger "partly_known" ...): their
	 * count, the union of the missing terms, the first source's cause and
	 * the sums of their determined terms */
	uint64_t partly;
	char *missing, *cause;
	mpz_t counted_flops, counted_bytes;
	uint32_t first_src;
	uint64_t count;
	example ex[NEX];
	size_t nex;
	shape sh[NEX];
	size_t nsh;
	mpz_t nested;
} lgroup;

typedef struct otype {
	char *name;
	uint64_t count, by_class[4];
	mpz_t flops;
} otype;

typedef struct phase_acc {
	int present, fma1_null, bytes_incomplete;
	mpz_t tot[NTOT];
} phase_acc;

typedef struct comm_acc {
	uint64_t calls;
	mpz_t msg;
	mpq_t bus;
} comm_acc;

/* One cause of device work without op rows (the flops JSON's
 * device_work.gaps): its message is "<records><rest>", rest being the
 * cause's fixed text, so a merge rewrites the count and keeps the text. */
typedef struct dgap {
	char *cause, *rest, *remedy;
	uint64_t records;
	int64_t ns;
} dgap;

typedef struct dwork {
	int present;
	uint64_t kernels, in_ops, without_op, not_compute;
	int64_t without_op_ns;
	dgap *gaps;
	size_t ngaps, gapcap;
} dwork;

enum { KIND_NONE = 0, KIND_FLOPS, KIND_JOIN };

/* What the merge knows of each document it took: its bytes' hash and
 * length (a byte-identical copy gets a notice) and, for a file, its device
 * and inode (the same file twice is refused). */
typedef struct seen {
	char *name;
	uint64_t hash;
	size_t len;
	int have_id;
	dev_t dev;
	ino_t ino;
} seen;

typedef struct mnotice {
	char *code, *input, *message;
} mnotice;

struct tlc_merge {
	int kind;                /* of the partials merged so far */
	tlc_mjoin *jm;           /* join partials' sums (merge_join.c) */
	char *schema, *count_basis, *flop_convention;
	dwork dw;
	size_t ninputs;
	src *srcs;
	size_t nsrcs, scap;
	phase_acc ph[TLC_PHASE_COUNT];
	uint64_t cov[NCOV];
	int lb_unexplained;      /* an input without device_work was a lower bound with no
	                            unknown call (device work the merge cannot see) */
	lgroup *groups;
	size_t ngroups, gcap;
	otype *types;
	size_t ntypes, tcap;
	comm_acc comm[TLC_PHASE_COUNT][TLC_COMM_COUNT];
	int any_comm;
	uint64_t basis[3];
	seen *seen;
	size_t nseen;
	mnotice *notes;
	size_t nnotes;
	const struct stat *file_id; /* of the file tlc_merge_add_file is adding */
};

/* ---- lifetime ------------------------------------------------------ */

int tlc_merge_new(tlc_merge **out)
{
	if (!out)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass an out pointer",
		                      "tlc_merge_new: NULL argument");
	tlc_merge *m = calloc(1, sizeof *m);
	if (!m)
		return tlc_error__oom();
	for (int p = 0; p < TLC_PHASE_COUNT; p++) {
		for (int f = 0; f < NTOT; f++)
			mpz_init(m->ph[p].tot[f]);
		for (int k = 0; k < TLC_COMM_COUNT; k++) {
			mpz_init(m->comm[p][k].msg);
			mpq_init(m->comm[p][k].bus);
		}
	}
	*out = m;
	return 0;
}

static void free_src(src *s)
{
	free(s->name);
	free(s->backend);
	free(s->format);
	free(s->producer);
	free(s->model);
	free(s->device);
}

void tlc_merge_free(tlc_merge *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nsrcs; i++)
		free_src(&m->srcs[i]);
	for (size_t i = 0; i < m->ngroups; i++) {
		lgroup *g = &m->groups[i];
		free(g->name), free(g->overload), free(g->reason), free(g->detail), free(g->remedy);
		free(g->missing), free(g->cause);
		for (size_t k = 0; k < g->nsh; k++)
			free(g->sh[k].text);
		mpz_clear(g->nested);
		mpz_clear(g->counted_flops);
		mpz_clear(g->counted_bytes);
	}
	for (size_t i = 0; i < m->ntypes; i++) {
		free(m->types[i].name);
		mpz_clear(m->types[i].flops);
	}
	for (int p = 0; p < TLC_PHASE_COUNT; p++) {
		for (int f = 0; f < NTOT; f++)
			mpz_clear(m->ph[p].tot[f]);
		for (int k = 0; k < TLC_COMM_COUNT; k++) {
			mpz_clear(m->comm[p][k].msg);
			mpq_clear(m->comm[p][k].bus);
		}
	}
	for (size_t i = 0; i < m->dw.ngaps; i++)
		free(m->dw.gaps[i].cause), free(m->dw.gaps[i].rest), free(m->dw.gaps[i].remedy);
	free(m->dw.gaps);
	for (size_t i = 0; i < m->nseen; i++)
		free(m->seen[i].name);
	for (size_t i = 0; i < m->nnotes; i++)
		free(m->notes[i].code), free(m->notes[i].input), free(m->notes[i].message);
	free(m->seen), free(m->notes);
	free(m->srcs), free(m->groups), free(m->types);
	free(m->schema), free(m->count_basis), free(m->flop_convention);
	tlc_mjoin__free(m->jm);
	free(m);
}

static char *dup(const char *s)
{
	return s ? strdup(s) : NULL;
}

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return 0;
	size_t c = *cap ? *cap * 2 : 16;
	while (c < need)
		c *= 2;
	void *q = realloc(*p, c * size);
	if (!q)
		return -1;
	*p = q;
	*cap = c;
	return 0;
}

/* ---- validation of one document ----------------------------------- */

typedef struct doc_ctx {
	const char *name;    /* the input's name, for errors */
	const tlc_jnode *root, *phases, *coverage, *ledger, *types, *comm, *partials;
	int lower_bound;
} doc_ctx;

static int invalid(const doc_ctx *d, const char *what)
{
	return tlc_error__set_pos(TLC_EINPUT, "merge_input_invalid", d->name, 0, 0,
	                          "give the JSON of `tlcost flops --format json` or of "
	                          "`tlcost merge --format json`, unedited",
	                          "not a flops partial: %s", what);
}

static int is_uint(const tlc_jnode *n) { return tlc_jtree__is_uint(n); }

static int is_str(const tlc_jnode *n) { return n && n->kind == TLC_J_STRING; }
static int is_str_or_null(const tlc_jnode *n) { return n && (n->kind == TLC_J_STRING || n->kind == TLC_J_NULL); }

static int check_phase(const doc_ctx *d, const tlc_jnode *ph)
{
	if (ph->kind != TLC_J_OBJECT)
		return invalid(d, "a phase is not an object");
	int known = 0;
	for (int p = 0; p < TLC_PHASE_COUNT; p++)
		known |= strcmp(ph->key, phase_keys[p]) == 0;
	if (!known)
		return invalid(d, "unknown phase name");
	for (int f = 0; f < NTOT; f++) {
		const tlc_jnode *v = tlc_jtree__get(ph, tot_keys[f]);
		if (!is_uint(v) && !(f == 3 && v && v->kind == TLC_J_NULL))
			return invalid(d, "a phase total is not a non-negative integer");
	}
	const tlc_jnode *bc = tlc_jtree__get(ph, "bytes_complete");
	return bc && bc->kind == TLC_J_BOOL ? 0 : invalid(d, "bytes_complete is not a boolean");
}

static int check_ledger_entry(const doc_ctx *d, const tlc_jnode *e)
{
	const tlc_jnode *ids = tlc_jtree__get(e, "example_ids");
	const tlc_jnode *sh = tlc_jtree__get(e, "example_shapes");
	const tlc_jnode *srcs = tlc_jtree__get(e, "example_sources");
	if (e->kind != TLC_J_OBJECT || !is_str(tlc_jtree__get(e, "name")) ||
	    !is_str(tlc_jtree__get(e, "overload")) || !is_uint(tlc_jtree__get(e, "count")) ||
	    !is_uint(tlc_jtree__get(e, "nested_flops")) || !ids || ids->kind != TLC_J_ARRAY ||
	    !sh || sh->kind != TLC_J_ARRAY || !is_str_or_null(tlc_jtree__get(e, "reason")) ||
	    !is_str_or_null(tlc_jtree__get(e, "detail")) ||
	    !is_str_or_null(tlc_jtree__get(e, "remedy")))
		return invalid(d, "a ledger entry lacks name, overload, count, example_ids, "
		                  "example_shapes or nested_flops");
	const tlc_jnode *pk = tlc_jtree__get(e, "partly_known");
	if (pk && (!is_uint(pk) || !is_str(tlc_jtree__get(e, "missing")) ||
	           !is_str(tlc_jtree__get(e, "cause")) ||
	           !is_uint(tlc_jtree__get(e, "counted_flops")) ||
	           !is_uint(tlc_jtree__get(e, "counted_bytes"))))
		return invalid(d, "a ledger entry with partly_known lacks missing, cause, "
		                  "counted_flops or counted_bytes");
	for (const tlc_jnode *x = ids->first; x; x = x->next)
		if (x->kind != TLC_J_NUMBER)
			return invalid(d, "an example id is not a number");
	for (const tlc_jnode *x = sh->first; x; x = x->next)
		if (!is_str(x))
			return invalid(d, "an example shape is not a string");
	if (d->partials && (!srcs || srcs->kind != TLC_J_ARRAY || srcs->n != ids->n))
		return invalid(d, "a merged ledger entry lacks example_sources for its example_ids");
	const tlc_jnode *ss = tlc_jtree__get(e, "example_shape_sources");
	if (d->partials && (!ss || ss->kind != TLC_J_ARRAY || ss->n != sh->n))
		return invalid(d, "a merged ledger entry lacks example_shape_sources");
	if (!d->partials && (srcs || ss))
		return invalid(d, "example sources in a document without partials");
	for (int pass = 0; pass < 2; pass++)
		for (const tlc_jnode *x = pass ? (ss ? ss->first : NULL) : (srcs ? srcs->first : NULL);
		     x; x = x->next)
			if (!is_uint(x) || strtoull(x->text, NULL, 10) >= d->partials->n)
				return invalid(d, "an example source is not an index into partials");
	return 0;
}

static int check_type(const doc_ctx *d, const tlc_jnode *t)
{
	if (t->kind != TLC_J_OBJECT || !is_str(tlc_jtree__get(t, "name")) ||
	    !is_uint(tlc_jtree__get(t, "count")) || !is_uint(tlc_jtree__get(t, "flops")))
		return invalid(d, "an op type lacks name, count or flops");
	for (int c = 0; c < 4; c++)
		if (!is_uint(tlc_jtree__get(t, class_keys[c])))
			return invalid(d, "an op type lacks its per-class counts");
	return 0;
}

static int check_comm(const doc_ctx *d)
{
	if (!d->comm)
		return 0;
	const tlc_jnode *ph = tlc_jtree__get(d->comm, "phases");
	const tlc_jnode *basis = tlc_jtree__get(d->comm, "group_size_basis");
	if (!ph || ph->kind != TLC_J_OBJECT || !basis || basis->kind != TLC_J_OBJECT)
		return invalid(d, "communication lacks phases or group_size_basis");
	for (const tlc_jnode *p = ph->first; p; p = p->next) {
		if (p->kind != TLC_J_OBJECT)
			return invalid(d, "a communication phase is not an object");
		for (const tlc_jnode *k = p->first; k; k = k->next) {
			const tlc_jnode *bus = tlc_jtree__get(k, "bus_bytes");
			mpq_t q;
			mpq_init(q);
			int ok = is_str(bus) && mpq_set_str(q, bus->text, 10) == 0 &&
			         mpz_sgn(mpq_denref(q)) > 0 && mpq_sgn(q) >= 0;
			mpq_clear(q);
			if (!ok || tlc_comm_kind_from_name(NULL, k->key) < 0 ||
			    !is_uint(tlc_jtree__get(k, "calls")) ||
			    !is_uint(tlc_jtree__get(k, "message_bytes")))
				return invalid(d, "a communication entry lacks a known kind, calls, "
				                  "message_bytes or an exact bus_bytes");
		}
	}
	return 0;
}

/* device_work's fields (checked before anything is folded). */
static int check_device_work(const doc_ctx *d)
{
	const tlc_jnode *w = tlc_jtree__get(d->root, "device_work");
	if (!w || w->kind != TLC_J_OBJECT)
		return w ? invalid(d, "device_work is not an object") : 0;
	static const char *const need[] = { "kernels", "kernels_in_ops", "without_op",
	                                    "without_op_ns", "not_compute" };
	for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
		if (!is_uint(tlc_jtree__get(w, need[i])))
			return invalid(d, "a device_work count is missing or not an integer");
	const tlc_jnode *gl = tlc_jtree__get(w, "gaps");
	if (!gl || gl->kind != TLC_J_ARRAY)
		return invalid(d, "device_work.gaps is missing or not an array");
	for (const tlc_jnode *e = gl->first; e; e = e->next)
		if (!tlc_jtree__str(e, "cause") || !tlc_jtree__str(e, "message") ||
		    !is_uint(tlc_jtree__get(e, "records")) || !is_uint(tlc_jtree__get(e, "device_ns")))
			return invalid(d, "a device_work gap lacks cause, message, records or device_ns");
	return 0;
}

static int check_doc(doc_ctx *d)
{
	const tlc_jnode *r = d->root;
	if (r->kind != TLC_J_OBJECT)
		return invalid(d, "the document is not an object");
	const tlc_jnode *schema = tlc_jtree__get(r, "schema");
	const tlc_jnode *lb = tlc_jtree__get(r, "lower_bound");
	d->phases = tlc_jtree__get(r, "phases");
	d->coverage = tlc_jtree__get(r, "coverage");
	d->ledger = tlc_jtree__get(r, "ledger");
	d->types = tlc_jtree__get(r, "op_types");
	d->comm = tlc_jtree__get(r, "communication");
	d->partials = tlc_jtree__get(r, "partials");
	if (!is_str(schema) || !lb || lb->kind != TLC_J_BOOL || !d->phases ||
	    d->phases->kind != TLC_J_OBJECT || !d->coverage || d->coverage->kind != TLC_J_OBJECT ||
	    !d->ledger || d->ledger->kind != TLC_J_ARRAY || !d->types ||
	    d->types->kind != TLC_J_ARRAY)
		return invalid(d, "schema, phases, coverage, lower_bound, ledger or op_types missing");
	if (strncmp(schema->text, "tlcost.flops/", 13) != 0)
		return invalid(d, "the schema is not tlcost.flops");
	if (d->partials && (d->partials->kind != TLC_J_ARRAY || d->partials->n == 0))
		return invalid(d, "partials is not a non-empty array");
	d->lower_bound = lb->boolean;
	for (int c = 0; c < NCOV; c++)
		if (!is_uint(tlc_jtree__get(d->coverage, cov_keys[c])))
			return invalid(d, "a coverage count is missing or not an integer");
	int rc = 0;
	for (const tlc_jnode *p = d->phases->first; p && rc == 0; p = p->next)
		rc = check_phase(d, p);
	for (const tlc_jnode *e = d->ledger->first; e && rc == 0; e = e->next)
		rc = check_ledger_entry(d, e);
	for (const tlc_jnode *t = d->types->first; t && rc == 0; t = t->next)
		rc = check_type(d, t);
	if (rc == 0)
		rc = check_comm(d);
	if (rc == 0)
		rc = check_device_work(d);
	return rc ? rc : tlc_merge__check_arith(d->name, d->root);
}

/* ---- identities ---------------------------------------------------- */

static const char *jstr(const tlc_jnode *obj, const char *k) { return tlc_jtree__str(obj, k); }

static int64_t jint(const tlc_jnode *obj, const char *k)
{
	const tlc_jnode *n = tlc_jtree__get(obj, k);
	return is_uint(n) ? strtoll(n->text, NULL, 10) : -1;
}

/* The identities a document brings: itself, or its partials. */
static int doc_sources(src **out, size_t *n, const doc_ctx *d)
{
	size_t cnt = d->partials ? d->partials->n : 1;
	src *v = calloc(cnt, sizeof *v);
	if (!v)
		return tlc_error__oom();
	const tlc_jnode *p = d->partials ? d->partials->first : NULL;
	for (size_t i = 0; i < cnt; i++, p = p ? p->next : NULL) {
		const tlc_jnode *id = p ? p : tlc_jtree__get(d->root, "distributed");
		const tlc_jnode *in = tlc_jtree__get(p ? p : d->root, "input");
		if (p && (p->kind != TLC_J_OBJECT || !jstr(p, "name"))) {
			free(v);
			return invalid(d, "a partial lacks its name");
		}
		v[i].name = dup(p ? jstr(p, "name") : d->name);
		v[i].rank = id ? jint(id, "rank") : -1;
		v[i].world_size = id ? jint(id, "world_size") : -1;
		v[i].backend = dup(id ? jstr(id, "backend") : NULL);
		v[i].format = dup(jstr(in, "format"));
		v[i].producer = dup(jstr(in, "producer"));
		v[i].model = dup(jstr(in, "model"));
		v[i].device = dup(jstr(in, "device"));
	}
	*out = v;
	*n = cnt;
	return 0;
}

static int src_cmp(const src *a, const src *b)
{
	if ((a->rank < 0) != (b->rank < 0))
		return a->rank < 0 ? 1 : -1;
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	return strcmp(a->name ? a->name : "", b->name ? b->name : "");
}

static int refuse_duplicate(const src *have, size_t nhave, const src *s, const char *name)
{
	for (size_t i = 0; i < nhave; i++) {
		const src *o = &have[i];
		if (s->rank >= 0 && o->rank == s->rank)
			return tlc_error__set_pos(TLC_EEXISTS, "merge_duplicate_rank", name, 0, 0,
			                          "merge each rank's partial once (check the inputs' "
			                          "distributedInfo rank)",
			                          "rank %lld is already merged (from %s)",
			                          (long long)s->rank, o->name ? o->name : "?");
		if (s->rank < 0 && o->rank < 0 && strcmp(o->name, s->name) == 0)
			return tlc_error__set_pos(TLC_EEXISTS, "merge_duplicate_input", name, 0, 0,
			                          "merge each input once; give distinct file names",
			                          "input '%s' is already merged", s->name);
	}
	return 0;
}

static int check_compat(const tlc_merge *m, const doc_ctx *d)
{
	const char *schema = jstr(d->root, "schema");
	const char *cb = jstr(d->root, "count_basis"), *fc = jstr(d->root, "flop_convention");
	if (m->schema && strcmp(m->schema, schema) != 0)
		return tlc_error__set_pos(TLC_EVERSION, "merge_schema_mismatch", d->name, 0, 0,
		                          "produce every partial with the same tlcost version",
		                          "schema %s cannot merge with %s", schema, m->schema);
	if (m->schema && ((cb && m->count_basis && strcmp(cb, m->count_basis)) ||
	                  (fc && m->flop_convention && strcmp(fc, m->flop_convention))))
		return tlc_error__set_pos(TLC_EINPUT, "merge_incompatible", d->name, 0, 0,
		                          "merge partials counted the same way (count_basis, "
		                          "flop_convention)",
		                          "count basis or FLOP convention differs from the inputs "
		                          "merged so far");
	return 0;
}

/* ---- folding ------------------------------------------------------- */

static void add_text(mpz_t acc, const char *text) { tlc_rep__mpz_add_digits(acc, text); }

static void fold_phases(tlc_merge *m, const doc_ctx *d)
{
	for (const tlc_jnode *ph = d->phases->first; ph; ph = ph->next) {
		int p = 0;
		while (strcmp(ph->key, phase_keys[p]) != 0)
			p++;
		phase_acc *a = &m->ph[p];
		a->present = 1;
		for (int f = 0; f < NTOT; f++) {
			const tlc_jnode *v = tlc_jtree__get(ph, tot_keys[f]);
			if (v->kind == TLC_J_NULL)
				a->fma1_null = 1;
			else
				add_text(a->tot[f], v->text);
		}
		a->bytes_incomplete |= !tlc_jtree__get(ph, "bytes_complete")->boolean;
	}
}

static void fold_coverage(tlc_merge *m, const doc_ctx *d)
{
	for (int c = 0; c < NCOV; c++)
		m->cov[c] += strtoull(tlc_jtree__get(d->coverage, cov_keys[c])->text, NULL, 10);
	const tlc_jnode *w = tlc_jtree__get(d->root, "device_work");
	const tlc_jnode *u = tlc_jtree__get(d->coverage, "unknown");
	m->lb_unexplained |= !w && d->lower_bound && strcmp(u->text, "0") == 0;
}

static int key_cmp(const tlc_merge *m, key a, key b)
{
	int c = a.src == b.src ? 0 : src_cmp(&m->srcs[a.src], &m->srcs[b.src]);
	return c ? c : (a.pos > b.pos) - (a.pos < b.pos);
}

/* Keeps the NEX smallest examples by key. */
static void add_example(const tlc_merge *m, lgroup *g, example e)
{
	size_t i = g->nex;
	if (i == NEX && key_cmp(m, e.k, g->ex[NEX - 1].k) >= 0)
		return;
	if (i == NEX)
		i--;
	while (i > 0 && key_cmp(m, e.k, g->ex[i - 1].k) < 0) {
		g->ex[i] = g->ex[i - 1];
		i--;
	}
	g->ex[i] = e;
	if (g->nex < NEX)
		g->nex++;
}

/* Keeps the NEX distinct shapes with the smallest keys. */
static int add_shape(const tlc_merge *m, lgroup *g, key k, const char *text)
{
	for (size_t i = 0; i < g->nsh; i++)
		if (strcmp(g->sh[i].text, text) == 0) {
			if (key_cmp(m, k, g->sh[i].k) < 0) {
				char *t = g->sh[i].text;
				memmove(&g->sh[i], &g->sh[i + 1], (g->nsh - i - 1) * sizeof g->sh[0]);
				g->nsh--;
				free(t);
				break;
			}
			return 0;
		}
	size_t i = g->nsh;
	if (i == NEX && key_cmp(m, k, g->sh[NEX - 1].k) >= 0)
		return 0;
	char *t = strdup(text);
	if (!t)
		return -1;
	if (i == NEX) {
		free(g->sh[NEX - 1].text);
		i--;
	}
	while (i > 0 && key_cmp(m, k, g->sh[i - 1].k) < 0) {
		g->sh[i] = g->sh[i - 1];
		i--;
	}
	g->sh[i] = (shape){ k, t };
	if (g->nsh < NEX)
		g->nsh++;
	return 0;
}

static lgroup *find_group(tlc_merge *m, const char *name, const char *ovl)
{
	for (size_t i = 0; i < m->ngroups; i++)
		if (strcmp(m->groups[i].name, name) == 0 && strcmp(m->groups[i].overload, ovl) == 0)
			return &m->groups[i];
	if (grow((void **)&m->groups, &m->gcap, m->ngroups + 1, sizeof *m->groups) < 0)
		return NULL;
	lgroup *g = &m->groups[m->ngroups];
	memset(g, 0, sizeof *g);
	g->name = strdup(name);
	g->overload = strdup(ovl);
	mpz_init(g->nested);
	mpz_init(g->counted_flops);
	mpz_init(g->counted_bytes);
	g->first_src = UINT32_MAX;
	if (!g->name || !g->overload) {
		free(g->name), free(g->overload);
		mpz_clear(g->nested);
		mpz_clear(g->counted_flops);
		mpz_clear(g->counted_bytes);
		return NULL;
	}
	m->ngroups++;
	return g;
}

/* missing: the union of two comma lists of terms, a's order first */
static char *union_terms(const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b);
	char *u = malloc(na + nb + 2);
	if (!u)
		return NULL;
	memcpy(u, a, na + 1);
	for (const char *t = b; *t;) {
		size_t n = strcspn(t, ",");
		int have = 0;
		for (const char *x = u; *x && !have;) {
			size_t m = strcspn(x, ",");
			have = m == n && memcmp(x, t, n) == 0;
			x += m + (x[m] == ',');
		}
		if (!have && n > 0) {
			size_t l = strlen(u);
			if (l)
				u[l++] = ',';
			memcpy(u + l, t, n);
			u[l + n] = 0;
		}
		t += n + (t[n] == ',');
	}
	return u;
}

/* A partly known entry (validated): counts and counted terms add up, the
 * missing terms unite, the first cause stays. */
static int fold_partly(lgroup *g, const tlc_jnode *e)
{
	const char *miss = jstr(e, "missing"), *cause = jstr(e, "cause");
	char *m = g->missing ? union_terms(g->missing, miss) : dup(miss);
	if (!m)
		return -1;
	free(g->missing);
	g->missing = m;
	if (!g->cause && !(g->cause = dup(cause)))
		return -1;
	g->partly += strtoull(tlc_jtree__get(e, "partly_known")->text, NULL, 10);
	add_text(g->counted_flops, tlc_jtree__get(e, "counted_flops")->text);
	add_text(g->counted_bytes, tlc_jtree__get(e, "counted_bytes")->text);
	return 0;
}

/* src_of maps a document's source index to the merge's. */
static int fold_entry(tlc_merge *m, const tlc_jnode *e, const uint32_t *src_of)
{
	lgroup *g = find_group(m, jstr(e, "name"), jstr(e, "overload"));
	if (!g)
		return tlc_error__oom();
	g->count += strtoull(tlc_jtree__get(e, "count")->text, NULL, 10);
	add_text(g->nested, tlc_jtree__get(e, "nested_flops")->text);
	if (tlc_jtree__get(e, "partly_known") && fold_partly(g, e) < 0)
		return tlc_error__oom();
	const tlc_jnode *srcs = tlc_jtree__get(e, "example_sources");
	const tlc_jnode *s = srcs ? srcs->first : NULL;
	/* positions: the list index (monotone within each source, which is all
	 * a key needs: different sources are ordered by their identities) */
	uint32_t pos = 0, minsrc = UINT32_MAX;
	for (const tlc_jnode *x = tlc_jtree__get(e, "example_ids")->first; x;
	     x = x->next, s = s ? s->next : NULL) {
		uint32_t ds = s ? (uint32_t)strtoul(s->text, NULL, 10) : 0;
		example ex = { { src_of[ds], pos++ }, strtoll(x->text, NULL, 10) };
		add_example(m, g, ex);
		if (minsrc == UINT32_MAX || src_cmp(&m->srcs[ex.k.src], &m->srcs[minsrc]) < 0)
			minsrc = ex.k.src;
	}
	/* shapes: a merged document says where each came from */
	const tlc_jnode *ss = tlc_jtree__get(e, "example_shape_sources");
	const tlc_jnode *sx = ss && ss->kind == TLC_J_ARRAY ? ss->first : NULL;
	uint32_t k = 0;
	for (const tlc_jnode *x = tlc_jtree__get(e, "example_shapes")->first; x;
	     x = x->next, sx = sx ? sx->next : NULL) {
		uint32_t ds = sx ? (uint32_t)strtoul(sx->text, NULL, 10) : 0;
		if (add_shape(m, g, (key){ src_of[ds], k++ }, x->text) < 0)
			return tlc_error__oom();
	}
	if (minsrc == UINT32_MAX)
		minsrc = src_of[0];
	if (g->first_src == UINT32_MAX || src_cmp(&m->srcs[minsrc], &m->srcs[g->first_src]) < 0) {
		char *r = dup(jstr(e, "reason")), *d = dup(jstr(e, "detail")), *rem = dup(jstr(e, "remedy"));
		free(g->reason), free(g->detail), free(g->remedy);
		g->reason = r, g->detail = d, g->remedy = rem;
		g->first_src = minsrc;
	}
	return 0;
}

static otype *find_type(tlc_merge *m, const char *name)
{
	for (size_t i = 0; i < m->ntypes; i++)
		if (strcmp(m->types[i].name, name) == 0)
			return &m->types[i];
	if (grow((void **)&m->types, &m->tcap, m->ntypes + 1, sizeof *m->types) < 0)
		return NULL;
	otype *t = &m->types[m->ntypes];
	memset(t, 0, sizeof *t);
	if (!(t->name = strdup(name)))
		return NULL;
	mpz_init(t->flops);
	m->ntypes++;
	return t;
}

static int fold_types(tlc_merge *m, const doc_ctx *d)
{
	for (const tlc_jnode *x = d->types->first; x; x = x->next) {
		otype *t = find_type(m, jstr(x, "name"));
		if (!t)
			return tlc_error__oom();
		t->count += strtoull(tlc_jtree__get(x, "count")->text, NULL, 10);
		for (int c = 0; c < 4; c++)
			t->by_class[c] += strtoull(tlc_jtree__get(x, class_keys[c])->text, NULL, 10);
		add_text(t->flops, tlc_jtree__get(x, "flops")->text);
	}
	return 0;
}

static void fold_comm(tlc_merge *m, const doc_ctx *d)
{
	if (!d->comm)
		return;
	m->any_comm = 1;
	for (const tlc_jnode *p = tlc_jtree__get(d->comm, "phases")->first; p; p = p->next) {
		int ph = 0;
		while (ph < TLC_PHASE_COUNT && strcmp(p->key, phase_keys[ph]) != 0)
			ph++;
		if (ph == TLC_PHASE_COUNT)
			continue;
		for (const tlc_jnode *k = p->first; k; k = k->next) {
			tlc_comm_kind kind;
			tlc_comm_kind_from_name(&kind, k->key);
			comm_acc *a = &m->comm[ph][kind];
			a->calls += strtoull(tlc_jtree__get(k, "calls")->text, NULL, 10);
			add_text(a->msg, tlc_jtree__get(k, "message_bytes")->text);
			mpq_t q;
			mpq_init(q);
			mpq_set_str(q, tlc_jtree__get(k, "bus_bytes")->text, 10);
			mpq_canonicalize(q);
			mpq_add(a->bus, a->bus, q);
			mpq_clear(q);
		}
	}
	const tlc_jnode *b = tlc_jtree__get(d->comm, "group_size_basis");
	static const char *const bk[3] = { "recorded", "derived", "world_size" };
	for (int i = 0; i < 3; i++) {
		const tlc_jnode *v = tlc_jtree__get(b, bk[i]);
		m->basis[i] += is_uint(v) ? strtoull(v->text, NULL, 10) : 0;
	}
}

static int take_sources(tlc_merge *m, src *v, size_t n, uint32_t *src_of)
{
	if (grow((void **)&m->srcs, &m->scap, m->nsrcs + n, sizeof *m->srcs) < 0)
		return tlc_error__oom();
	for (size_t i = 0; i < n; i++) {
		src_of[i] = (uint32_t)m->nsrcs;
		m->srcs[m->nsrcs++] = v[i];
	}
	return 0;
}

static uint64_t juint(const tlc_jnode *obj, const char *k)
{
	const tlc_jnode *n = tlc_jtree__get(obj, k);
	return n && n->kind == TLC_J_NUMBER ? strtoull(n->text, NULL, 10) : 0;
}

/* device_work: counts summed, gaps summed by cause. "no_op_records" is
 * not summed: it is true of the merge only when the merged rows are zero
 * (json_device_work decides). */
static int fold_device_work(tlc_merge *m, const doc_ctx *d)
{
	const tlc_jnode *w = tlc_jtree__get(d->root, "device_work");
	if (!w || w->kind != TLC_J_OBJECT)
		return 0;
	dwork *dw = &m->dw;
	dw->present = 1;
	dw->kernels += juint(w, "kernels");
	dw->in_ops += juint(w, "kernels_in_ops");
	dw->without_op += juint(w, "without_op");
	dw->without_op_ns += jint(w, "without_op_ns");
	dw->not_compute += juint(w, "not_compute");
	const tlc_jnode *gaps = tlc_jtree__get(w, "gaps");
	for (const tlc_jnode *e = gaps && gaps->kind == TLC_J_ARRAY ? gaps->first : NULL; e;
	     e = e->next) {
		const char *cause = jstr(e, "cause"), *msg = jstr(e, "message");
		if (!cause || !msg || strcmp(cause, "no_op_records") == 0)
			continue;
		size_t i = 0;
		while (i < dw->ngaps && strcmp(dw->gaps[i].cause, cause) != 0)
			i++;
		if (i == dw->ngaps) {
			if (grow((void **)&dw->gaps, &dw->gapcap, dw->ngaps + 1, sizeof *dw->gaps) < 0)
				return tlc_error__oom();
			const char *rest = strchr(msg, ' ');
			dgap *g = &dw->gaps[dw->ngaps];
			memset(g, 0, sizeof *g);
			g->cause = dup(cause);
			g->rest = dup(rest ? rest : "");
			g->remedy = dup(jstr(e, "remedy") ? jstr(e, "remedy") : "");
			if (!g->cause || !g->rest || !g->remedy) {
				free(g->cause), free(g->rest), free(g->remedy);
				return tlc_error__oom();
			}
			dw->ngaps++;
		}
		dw->gaps[i].records += juint(e, "records");
		dw->gaps[i].ns += jint(e, "device_ns");
	}
	return 0;
}

static int fold_doc(tlc_merge *m, const doc_ctx *d, src *v, size_t n)
{
	uint32_t *src_of = malloc(n * sizeof *src_of);
	if (!src_of)
		return tlc_error__oom();
	int rc = take_sources(m, v, n, src_of);
	if (rc == 0 && !m->schema) {
		m->schema = dup(jstr(d->root, "schema"));
		m->count_basis = dup(jstr(d->root, "count_basis"));
		m->flop_convention = dup(jstr(d->root, "flop_convention"));
		if (!m->schema)
			rc = tlc_error__oom();
	}
	if (rc == 0) {
		fold_phases(m, d);
		fold_coverage(m, d);
		fold_comm(m, d);
		rc = fold_device_work(m, d);
		for (const tlc_jnode *e = d->ledger->first; e && rc == 0; e = e->next)
			rc = fold_entry(m, e, src_of);
		if (rc == 0)
			rc = fold_types(m, d);
	}
	free(src_of);
	return rc;
}

/* Which kind of partial a document is; join and flops partials do not mix. */
static int doc_kind(int *out, const tlc_merge *m, const doc_ctx *d)
{
	const tlc_jnode *schema = d->root && d->root->kind == TLC_J_OBJECT ?
	                          tlc_jtree__get(d->root, "schema") : NULL;
	*out = is_str(schema) && strncmp(schema->text, "tlcost.join/", 12) == 0 ? KIND_JOIN
	                                                                         : KIND_FLOPS;
	if (!m->kind || m->kind == *out)
		return 0;
	if (*out == KIND_JOIN)
		return tlc_error__set_pos(TLC_EINPUT, "merge_incompatible", d->name, 0, 0,
		                          "merge join partials with join partials only",
		                          "a join partial cannot merge with flops partials");
	return tlc_error__set_pos(TLC_EINPUT, "merge_incompatible", d->name, 0, 0,
	                          "merge flops partials with flops partials only",
	                          "a flops partial cannot merge with join partials");
}

static int check_join(tlc_merge *m, doc_ctx *d)
{
	d->partials = tlc_jtree__get(d->root, "partials");
	if (d->partials && (d->partials->kind != TLC_J_ARRAY || d->partials->n == 0))
		return invalid(d, "partials is not a non-empty array");
	if (!m->jm && tlc_mjoin__new(&m->jm) < 0)
		return TLC_ENOMEM;
	return tlc_mjoin__check(m->jm, d->root, d->name);
}

static int fold_join(tlc_merge *m, const doc_ctx *d, src *v, size_t n)
{
	uint32_t *src_of = malloc((n + 1) * sizeof *src_of);
	if (!src_of)
		return tlc_error__oom();
	int rc = take_sources(m, v, n, src_of);
	free(src_of);
	if (rc == 0 && !m->schema && !(m->schema = dup(jstr(d->root, "schema"))))
		rc = tlc_error__oom();
	return rc ? rc : tlc_mjoin__fold(m->jm, d->root);
}

/* ---- the inputs themselves: the same file, identical bytes, notices -- */

/* The file being added (tlc_merge_add_file) was added before under
 * another name (a symbolic or hard link, "dir/../x"): its ops would count
 * twice. */
static int refuse_same_file(const tlc_merge *m, const char *name)
{
	const struct stat *st = m->file_id;
	for (size_t i = 0; st && i < m->nseen; i++)
		if (m->seen[i].have_id && m->seen[i].dev == st->st_dev &&
		    m->seen[i].ino == st->st_ino)
			return tlc_error__set_pos(TLC_EEXISTS, "merge_duplicate_input", name, 0, 0,
			                          "merge each partial once (a symbolic link to a file "
			                          "is that file)",
			                          "%s is the same file as %s (same device and inode): "
			                          "it would be counted twice", name, m->seen[i].name);
	return 0;
}

static int add_notice(tlc_merge *m, const char *code, const char *input, const char *msg)
{
	mnotice *q = realloc(m->notes, (m->nnotes + 1) * sizeof *q);
	if (!q)
		return tlc_error__oom();
	m->notes = q;
	mnotice *n = &q[m->nnotes];
	n->code = strdup(code);
	n->input = strdup(input);
	n->message = strdup(msg);
	if (!n->code || !n->input || !n->message) {
		free(n->code), free(n->input), free(n->message);
		return tlc_error__oom();
	}
	m->nnotes++;
	return 0;
}

/* After a document was merged: a notice when its bytes equal an earlier
 * input's (legitimate: data-parallel copies), and what identifies it. The pair is named in name order, so the notice does
 * not depend on the order of the inputs. */
static int note_input(tlc_merge *m, const void *json, size_t len, const char *name)
{
	int rc = 0;
	uint64_t h = tlc_hash__bytes(json, len);
	for (size_t i = 0; rc == 0 && i < m->nseen; i++) {
		if (m->seen[i].len != len || m->seen[i].hash != h)
			continue;
		int later = strcmp(name, m->seen[i].name) > 0;
		char msg[1200];
		snprintf(msg, sizeof msg, "has the same bytes as %.1000s: merged again, as given "
		         "(right for copies standing for several inputs, such as data-parallel "
		         "ranks; otherwise merge each partial once)", later ? m->seen[i].name : name);
		rc = add_notice(m, "merge_identical_input", later ? name : m->seen[i].name, msg);
		break;
	}
	seen *q = rc ? NULL : realloc(m->seen, (m->nseen + 1) * sizeof *q);
	if (rc || !q)
		return rc ? rc : tlc_error__oom();
	m->seen = q;
	seen *e = &q[m->nseen];
	memset(e, 0, sizeof *e);
	if (!(e->name = strdup(name)))
		return tlc_error__oom();
	e->hash = h;
	e->len = len;
	if (m->file_id) {
		e->have_id = 1;
		e->dev = m->file_id->st_dev;
		e->ino = m->file_id->st_ino;
	}
	m->nseen++;
	return 0;
}

int tlc_merge_add_mem(tlc_merge *m, const void *json, size_t len, const char *name)
{
	if (!m || (!json && len) || !name)
		return tlc_error__set(TLC_EINVAL, "invalid_argument",
		                      "pass a merge, a buffer and a name",
		                      "tlc_merge_add_mem: NULL argument");
	tlc_jdoc doc;
	int rc = tlc_jtree__parse(&doc, tlc_alloc__default(), json, len, name);
	doc_ctx d = { name, doc.root, NULL, NULL, NULL, NULL, NULL, NULL, 0 };
	int kind = KIND_FLOPS;
	if (rc == 0)
		rc = doc_kind(&kind, m, &d);
	if (rc == 0)
		rc = kind == KIND_JOIN ? check_join(m, &d) : check_doc(&d);
	if (rc == 0)
		rc = check_compat(m, &d);
	src *v = NULL;
	size_t n = 0;
	if (rc == 0)
		rc = doc_sources(&v, &n, &d);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		rc = refuse_duplicate(m->srcs, m->nsrcs, &v[i], name);
		if (rc == 0)
			rc = refuse_duplicate(v, i, &v[i], name);
	}
	if (rc == 0) /* after the ranks: a ranked file twice is the same rank twice */
		rc = refuse_same_file(m, name);
	if (rc == 0) {
		rc = kind == KIND_JOIN ? fold_join(m, &d, v, n) : fold_doc(m, &d, v, n);
		m->kind = kind;
		m->ninputs++;
		if (rc == 0)
			rc = note_input(m, json, len, name);
	} else {
		for (size_t i = 0; i < n; i++)
			free_src(&v[i]);
	}
	free(v);
	tlc_jtree__free(&doc);
	return rc;
}

size_t tlc_merge_count(const tlc_merge *m) { return m ? m->nsrcs : 0; }

size_t tlc_merge_notice_count(const tlc_merge *m) { return m ? m->nnotes : 0; }

int tlc_merge_notice_get(const tlc_merge *m, size_t i, const char **code, const char **input,
                         const char **message)
{
	if (!m || i >= m->nnotes || !code || !input || !message)
		return tlc_error__set(TLC_EINVAL, "invalid_argument",
		                      "pass a merge, an index below tlc_merge_notice_count and three "
		                      "out pointers", "tlc_merge_notice_get: bad argument");
	*code = m->notes[i].code;
	*input = m->notes[i].input;
	*message = m->notes[i].message;
	return 0;
}

/* ---- output -------------------------------------------------------- */

typedef struct order {
	const tlc_merge *m;
	uint32_t *rank_of;  /* merge source index -> position in identity order */
	uint32_t *by_rank;  /* position -> merge source index */
} order;

typedef struct src_item {
	const src *s;
	uint32_t i;
} src_item;

static int by_src(const void *a, const void *b)
{
	return src_cmp(((const src_item *)a)->s, ((const src_item *)b)->s);
}

static int by_group(const void *a, const void *b)
{
	const lgroup *x = *(const lgroup *const *)a, *y = *(const lgroup *const *)b;
	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	int c = strcmp(x->name, y->name);
	return c ? c : strcmp(x->overload, y->overload);
}

static int by_type(const void *a, const void *b)
{
	const otype *x = *(const otype *const *)a, *y = *(const otype *const *)b;
	int c = mpz_cmp(y->flops, x->flops);
	return c ? c : strcmp(x->name, y->name);
}

static int make_order(order *o, const tlc_merge *m)
{
	o->m = m;
	o->rank_of = malloc((m->nsrcs + 1) * sizeof *o->rank_of);
	o->by_rank = malloc((m->nsrcs + 1) * sizeof *o->by_rank);
	if (!o->rank_of || !o->by_rank) {
		free(o->rank_of), free(o->by_rank);
		return tlc_error__oom();
	}
	src_item *v = malloc((m->nsrcs + 1) * sizeof *v);
	if (!v) {
		free(o->rank_of), free(o->by_rank);
		return tlc_error__oom();
	}
	for (size_t i = 0; i < m->nsrcs; i++)
		v[i] = (src_item){ &m->srcs[i], (uint32_t)i };
	qsort(v, m->nsrcs, sizeof *v, by_src);
	for (size_t i = 0; i < m->nsrcs; i++) {
		o->by_rank[i] = v[i].i;
		o->rank_of[v[i].i] = (uint32_t)i;
	}
	free(v);
	return 0;
}

/* As a single evaluation of all the ops decides it: some call unknown, or
 * some device work without op rows (the gaps written, no_op_records only
 * when no input had rows). ORing the inputs' flags would keep an input's
 * "no op records" after other inputs brought rows. */
static int merged_lower_bound(const tlc_merge *m)
{
	return m->cov[4] > 0 || (m->dw.present && (m->dw.ngaps > 0 || m->cov[0] == 0)) ||
	       m->lb_unexplained;
}

/* A fact common to every input, or NULL. */
static const char *common(const tlc_merge *m, size_t off)
{
	const char *v = NULL;
	for (size_t i = 0; i < m->nsrcs; i++) {
		const char *x = *(char *const *)((const char *)&m->srcs[i] + off);
		if (!x || (v && strcmp(v, x) != 0))
			return NULL;
		v = x;
	}
	return v;
}

/* The causes in the order a single evaluation lists them (trace_device.c),
 * then any other in first-seen order. */
static int gap_rank(const char *cause)
{
	static const char *const known[] = { "graph_replay", "launch_outside_op", "no_host_side",
	                                     "device_events_unread" };
	for (int i = 0; i < 4; i++)
		if (strcmp(cause, known[i]) == 0)
			return i;
	return 4;
}

static const tlc_device_gap *merge_gap_at(const void *payload, size_t i)
{
	return &((const tlc_device_gap *)payload)[i];
}

/* An exact rational as "P/Q" (or an integer), malloc'd; NULL (error set). */
static char *mpq_str(const mpq_t q)
{
	char *buf = malloc(mpz_sizeinbase(mpq_numref(q), 10) +
	                   mpz_sizeinbase(mpq_denref(q), 10) + 3);
	if (!buf) {
		tlc_error__oom();
		return NULL;
	}
	return mpq_get_str(buf, 10, q);
}

/* What the merged summary borrows while it is written. */
typedef struct merge_out {
	order o;
	tlc_fsum_partial *parts;
	tlc_device_gap *gaps;
	char *msgs;
} merge_out;

static void merge_out_free(merge_out *mo)
{
	free(mo->o.rank_of), free(mo->o.by_rank);
	free(mo->parts), free(mo->gaps), free(mo->msgs);
}

/* The input facts common to every partial and the partials in identity
 * order: both a flops and a join merge write them. */
static int fill_ident(tlc_fsum *s, merge_out *mo, const tlc_merge *m)
{
	s->schema = m->schema;
	s->format = common(m, offsetof(src, format));
	s->producer = common(m, offsetof(src, producer));
	s->model = common(m, offsetof(src, model));
	s->device = common(m, offsetof(src, device));
	mo->parts = calloc(m->nsrcs + 1, sizeof *mo->parts);
	if (!mo->parts)
		return tlc_error__oom();
	for (size_t i = 0; i < m->nsrcs; i++) {
		const src *x = &m->srcs[mo->o.by_rank[i]];
		mo->parts[i] = (tlc_fsum_partial){ x->name, x->backend, x->format, x->producer,
		                                   x->model, x->device, x->rank, x->world_size };
	}
	s->partials = mo->parts;
	s->npartials = m->nsrcs;
	return 0;
}

static int fill_phases(tlc_fsum *s, const tlc_merge *m)
{
	for (int p = 0; p < TLC_PHASE_COUNT; p++) {
		const phase_acc *a = &m->ph[p];
		tlc_fsum_phase *o = &s->ph[p];
		o->present = a->present;
		if (!a->present)
			continue;
		for (int f = 0; f < NTOT; f++)
			if (!(f == 3 && a->fma1_null) && !(o->tot[f] = tlc_fsum__mpz_str(a->tot[f])))
				return TLC_ENOMEM;
		o->bytes_complete = !a->bytes_incomplete;
	}
	return 0;
}

static int fill_comm(tlc_fsum *s, const tlc_merge *m)
{
	s->any_comm = m->any_comm;
	memcpy(s->comm_basis, m->basis, sizeof s->comm_basis);
	for (int p = 0; p < TLC_PHASE_COUNT; p++)
		for (int k = 0; k < TLC_COMM_COUNT; k++) {
			const comm_acc *a = &m->comm[p][k];
			tlc_fsum_comm *c = &s->comm[p][k];
			if (!(c->calls = a->calls))
				continue;
			if (!(c->message_bytes = tlc_fsum__mpz_str(a->msg)) ||
			    !(c->bus_bytes = mpq_str(a->bus)))
				return TLC_ENOMEM;
		}
	return 0;
}

/* The merged gaps in a single evaluation's order, through the one
 * device_work emitter. */
static int fill_device_work(tlc_fsum *s, merge_out *mo, const tlc_merge *m)
{
	const dwork *dw = &m->dw;
	if (!dw->present)
		return 0;
	size_t n = 0, cap = dw->ngaps + 1;
	tlc_device_gap *v = mo->gaps = calloc(cap, sizeof *v);
	char *msgs = mo->msgs = calloc(cap, 512);
	if (!v || !msgs)
		return tlc_error__oom();
	for (int r = 0; r <= 4; r++)
		for (size_t i = 0; i < dw->ngaps; i++) {
			const dgap *d = &dw->gaps[i];
			if (gap_rank(d->cause) != r)
				continue;
			char *msg = msgs + 512 * n;
			snprintf(msg, 512, "%llu%s", (unsigned long long)d->records, d->rest);
			v[n++] = (tlc_device_gap){ d->cause, d->records, d->ns, msg, d->remedy };
		}
	if (m->cov[0] == 0)  /* no op rows in any input: nothing was counted */
		v[n++] = (tlc_device_gap){ "no_op_records", 0, 0, TLC_EVAL__NO_OP_RECORDS_MSG,
		                           TLC_EVAL__NO_OP_RECORDS_REMEDY };
	s->has_device_work = 1;
	s->dw = (tlc_device_work){ sizeof s->dw, dw->kernels, dw->in_ops, dw->not_compute,
	                           dw->without_op, dw->without_op_ns };
	s->ngaps = n;
	s->gap_at = merge_gap_at;
	s->gap_payload = v;
	return 0;
}

static int fill_ledger(tlc_fsum *s, const tlc_merge *m, const order *o)
{
	const lgroup **v = malloc((m->ngroups + 1) * sizeof *v);
	if (!v)
		return tlc_error__oom();
	for (size_t i = 0; i < m->ngroups; i++)
		v[i] = &m->groups[i];
	qsort(v, m->ngroups, sizeof *v, by_group);
	for (size_t i = 0; i < m->ngroups; i++) {
		const lgroup *x = v[i];
		tlc_fsum_group *y = &s->groups[i];
		tlc_ledger_entry *e = &y->e;
		e->name = x->name;
		e->overload = x->overload;
		e->count = x->count;
		e->nexample_ids = x->nex;
		for (size_t k = 0; k < x->nex; k++) {
			e->example_ids[k] = x->ex[k].id;
			y->id_src[k] = o->rank_of[x->ex[k].k.src];
		}
		e->nexample_shapes = x->nsh;
		for (size_t k = 0; k < x->nsh; k++) {
			e->example_shapes[k] = x->sh[k].text;
			y->shape_src[k] = o->rank_of[x->sh[k].k.src];
		}
		e->reason = x->reason;
		e->detail = x->detail;
		e->remedy = x->remedy;
		y->has_sources = 1;
		y->own_nested = 1;
		if (!(e->nested_flops = tlc_fsum__mpz_str(x->nested))) {
			free(v);
			return TLC_ENOMEM;
		}
		if (x->partly) {
			e->partly_known = x->partly;
			e->missing = x->missing;
			e->cause = x->cause;
			y->own_counted = 1;
			e->counted_flops = tlc_fsum__mpz_str(x->counted_flops);
			e->counted_bytes = tlc_fsum__mpz_str(x->counted_bytes);
			if (!e->counted_flops || !e->counted_bytes) {
				free(v);
				return TLC_ENOMEM;
			}
		}
	}
	free(v);
	return 0;
}

static int fill_types(tlc_fsum *s, const tlc_merge *m)
{
	const otype **v = malloc((m->ntypes + 1) * sizeof *v);
	if (!v)
		return tlc_error__oom();
	for (size_t i = 0; i < m->ntypes; i++)
		v[i] = &m->types[i];
	qsort(v, m->ntypes, sizeof *v, by_type);
	for (size_t i = 0; i < m->ntypes; i++) {
		tlc_fsum_type *t = &s->types[i];
		t->name = v[i]->name;
		t->count = v[i]->count;
		memcpy(t->by_class, v[i]->by_class, sizeof t->by_class);
		if (!(t->flops = tlc_fsum__mpz_str(v[i]->flops))) {
			free(v);
			return TLC_ENOMEM;
		}
	}
	free(v);
	return 0;
}

/* The merged flops summary: what a single evaluation of all the ops would
 * fill (report/flops_sum.h), written by the same writer as `tlcost flops`. */
static int fill_flops(tlc_fsum *s, merge_out *mo, const tlc_merge *m)
{
	s->count_basis = m->count_basis;
	s->flop_convention = m->flop_convention;
	memcpy(s->cov, m->cov, sizeof s->cov);
	s->lower_bound = merged_lower_bound(m);
	int rc = fill_phases(s, m);
	if (rc == 0)
		rc = fill_comm(s, m);
	if (rc == 0)
		rc = fill_device_work(s, mo, m);
	if (rc == 0)
		rc = tlc_fsum__alloc(s, m->ngroups, m->ntypes);
	if (rc == 0)
		rc = fill_ledger(s, m, &mo->o);
	if (rc == 0)
		rc = fill_types(s, m);
	return rc;
}

/* A merge of join partials: a join document of the same schema (so it
 * merges again) with the sums and the partials' identities. */
static int write_join_json(yajl_gen g, const tlc_merge *m, const tlc_fsum *s)
{
	yajl_gen_map_open(g);
	tlc_jsonw__kstr(g, "schema", m->schema);
	tlc_jsonw__kstr(g, "report", "join");
	tlc_fsum__json_input(g, s);
	int rc = tlc_mjoin__json(g, m->jm);
	if (rc == 0)
		tlc_fsum__json_partials(g, s);
	yajl_gen_map_close(g);
	return rc;
}

static int write_json(FILE *out, const tlc_merge *m)
{
	merge_out mo;
	memset(&mo, 0, sizeof mo);
	tlc_fsum s;
	tlc_fsum__init(&s);
	int rc = make_order(&mo.o, m);
	if (rc < 0)
		return rc;
	rc = fill_ident(&s, &mo, m);
	if (rc == 0 && m->kind != KIND_JOIN)
		rc = fill_flops(&s, &mo, m);
	yajl_gen g = rc < 0 ? NULL : tlc_jsonw__new(out);
	if (g) {
		if (m->kind == KIND_JOIN)
			rc = write_join_json(g, m, &s);
		else
			tlc_fsum__json(g, &s);
		int wrc = tlc_jsonw__end(g, out);
		rc = rc ? rc : wrc;
	} else if (rc == 0) {
		rc = tlc_error__oom();
	}
	tlc_fsum__free(&s);
	merge_out_free(&mo);
	return rc;
}

/* An exact count as text, malloc'd with GMP's allocator; gmp_free frees it. */
static void gmp_free(char *s)
{
	void (*freefn)(void *, size_t);
	mp_get_memory_functions(NULL, NULL, &freefn);
	freefn(s, strlen(s) + 1);
}

/* An exact total grouped as `tlcost flops` prints it (the one grouping). */
static void text_z(FILE *out, const char *label, const mpz_t z)
{
	char *s = mpz_get_str(NULL, 10, z);
	tlc_digits d = { 0 };
	fprintf(out, "%s%s", label, tlc_textw__group(&d, s));
	tlc_textw__digits_free(&d);
	gmp_free(s);
}

static int by_notice(const void *a, const void *b)
{
	const mnotice *x = *(const mnotice *const *)a, *y = *(const mnotice *const *)b;
	int c = strcmp(x->input, y->input);
	c = c ? c : strcmp(x->code, y->code);
	return c ? c : strcmp(x->message, y->message);
}

/* The notices in one order whatever the order of the inputs (NULL when
 * there are none, or on out of memory: then *n is 0 and rc set). */
static const mnotice **sorted_notices(const tlc_merge *m, size_t *n, int *rc)
{
	*n = 0;
	*rc = 0;
	if (!m->nnotes)
		return NULL;
	const mnotice **v = malloc(m->nnotes * sizeof *v);
	if (!v) {
		*rc = tlc_error__oom();
		return NULL;
	}
	for (size_t i = 0; i < m->nnotes; i++)
		v[i] = &m->notes[i];
	qsort(v, m->nnotes, sizeof *v, by_notice);
	*n = m->nnotes;
	return v;
}

static int text_notices(FILE *out, const tlc_merge *m)
{
	size_t n;
	int rc;
	const mnotice **v = sorted_notices(m, &n, &rc);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "notice: %s: %s: %s\n", v[i]->code, v[i]->input, v[i]->message);
	free(v);
	return rc;
}

static void write_text(FILE *out, const tlc_merge *m)
{
	size_t ranked = 0;
	for (size_t i = 0; i < m->nsrcs; i++)
		ranked += m->srcs[i].rank >= 0;
	fprintf(out, "tlcost merge: %zu %spartials (%zu with a rank)\n", m->nsrcs,
	        m->kind == KIND_JOIN ? "join " : "", ranked);
	if (m->kind == KIND_JOIN) {
		tlc_mjoin__text(out, m->jm);
		return;
	}

	int lower = merged_lower_bound(m);
	const char *lb = lower ? ">= " : "";
	for (int p = 0; p < TLC_PHASE_COUNT; p++) {
		if (!m->ph[p].present)
			continue;
		fprintf(out, "%s compute (actual-path analytic, fma=2: one MAC = 2 FLOPs): %s",
		        phase_keys[p], lb);
		text_z(out, "", m->ph[p].tot[0]);
		fprintf(out, "\n");
	}
	for (int p = 0; p < TLC_PHASE_COUNT; p++)
		for (int k = 0; k < TLC_COMM_COUNT; k++) {
			const comm_acc *a = &m->comm[p][k];
			if (!a->calls)
				continue;
			fprintf(out, "communication %s %s x%llu: ", phase_keys[p],
			        tlc_comm_kind_name((tlc_comm_kind)k), (unsigned long long)a->calls);
			char *msg = mpz_get_str(NULL, 10, a->msg), *b = mpq_get_str(NULL, 10, a->bus);
			tlc_rep__comm_bytes_text(out, msg, b);
			fprintf(out, "\n");
			gmp_free(msg);
			gmp_free(b);
		}
	fprintf(out, "coverage: %llu op rows = %llu known + %llu zero_by_rule + %llu not_applicable"
	             " + %llu unknown\n", (unsigned long long)m->cov[0],
	        (unsigned long long)m->cov[1], (unsigned long long)m->cov[2],
	        (unsigned long long)m->cov[3], (unsigned long long)m->cov[4]);
	if (lower)
		fprintf(out, "totals are a LOWER BOUND: %llu unknown-cost call%s of %zu op type%s%s; "
		        "remedy: see the merged ledger (--format json) or `tlcost ledger` on each "
		        "input\n", (unsigned long long)m->cov[4], m->cov[4] == 1 ? "" : "s",
		        m->ngroups, m->ngroups == 1 ? "" : "s",
		        m->cov[4] ? "" : ", device work without op rows");
	else
		fprintf(out, "coverage is COMPLETE, not a lower bound (0 unknown-cost calls)\n");
}

int tlc_merge_write(FILE *out, const tlc_merge *m, tlc_format fmt)
{
	if (!out || !m)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass an output and a merge",
		                      "tlc_merge_write: NULL argument");
	if (m->nsrcs == 0)
		return tlc_error__set(TLC_ESTATE, "merge_empty", "add at least one partial",
		                      "nothing was merged");
	if (fmt == TLC_FORMAT_JSON)
		return write_json(out, m);
	if (fmt != TLC_FORMAT_TEXT)
		return tlc_error__set(TLC_EINVAL, "format_unsupported", "use --format text or json",
		                      "the merge report has no such format");
	write_text(out, m);
	int rc = text_notices(out, m);
	if (rc)
		return rc;
	return ferror(out) ? tlc_error__set(TLC_EIO, "io_error", "check the output",
	                                    "writing the merge failed")
	                   : 0;
}

int tlc_merge_write_mem(char **out, size_t *len, const tlc_merge *m)
{
	if (!out || !len || !m)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass out, len and a merge",
		                      "tlc_merge_write_mem: NULL argument");
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	if (!f)
		return tlc_error__oom();
	int rc = tlc_merge_write(f, m, TLC_FORMAT_JSON);
	if (fclose(f) != 0 && rc == 0)
		rc = tlc_error__oom();
	if (rc < 0) {
		free(buf);
		return rc;
	}
	*out = buf;
	*len = n;
	return 0;
}

int tlc_merge_add_file(tlc_merge *m, const char *path)
{
	if (!m || !path)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass a merge and a path",
		                      "tlc_merge_add_file: NULL argument");
	FILE *f = fopen(path, "rb");
	if (!f)
		return tlc_error__set_pos(TLC_EIO, "io_error", path, 0, 0,
		                          "check that the file exists and is readable",
		                          "cannot open %s", path);
	char *buf = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;
	for (;;) {
		if (n + 65536 > cap) {
			char *q = realloc(buf, cap = cap ? cap * 2 : 131072);
			if (!q) {
				rc = tlc_error__oom();
				break;
			}
			buf = q;
		}
		size_t got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	if (rc == 0 && ferror(f))
		rc = tlc_error__set_pos(TLC_EIO, "io_error", path, 0, 0,
		                        "check that the file is readable", "cannot read %s", path);
	struct stat st;
	int have_id = fstat(fileno(f), &st) == 0;
	fclose(f);
	m->file_id = have_id ? &st : NULL;
	if (rc == 0)
		rc = tlc_merge_add_mem(m, buf, n, path);
	m->file_id = NULL;
	free(buf);
	return rc;
}
