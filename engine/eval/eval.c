/* Evaluation: classifies every op record (contract section 2), applies the
 * nesting policy, accumulates exact per-phase totals, the unknown ledger and
 * per-op-type counts. Memory grows with distinct names and with what nesting
 * must remember, not with the number of ops (unless keep_ops is set). */
#include <stdlib.h>
#include <string.h>
#include "eval.h"
#include "cost.h"
#include "engine.h"
#include "packs.h"
#include "hindex.h"
#include "idmap.h"
#include "held.h"
#include "comm.h"
#include "rows.h"
#include "overlay.h"
#include "names.h"

/* public arrays have a fixed capacity so the layout stays when the enum grows */
_Static_assert(TLC_CLASS_COUNT <= TLC_CLASS_SLOTS, "TLC_CLASS_SLOTS too small for TLC_CLASS_COUNT");

#define LEDGER_EXAMPLES 3
#define TLC_EVAL_MAX_GAPS 8 /* one per cause (tlc_device_gap.cause) */

typedef struct optype optype;
struct optype {
	const char *name;      /* interned */
	const char *overload;  /* interned, "" when unspecified */
	const tlc_rule *rule;  /* cached lookup */
	int64_t group;         /* ledger group index, -1 before the first unknown */
	tlc_count flops;
	tlc_optype_row pub;
};

typedef struct ledger_group {
	const char *name, *overload;
	tlc_count nested;
	tlc_count pflops, pbytes; /* determined terms of its partly known calls */
	tlc_ledger_entry pub;
} ledger_group;

/* Per 64 ids: which were seen, resolved (class final), covered (an
 * evaluated rule at or above them). */
typedef struct id_bits {
	uint64_t seen, resolved, covered;
} id_bits;

/* Ops whose descendants are still evaluated, in resolution order (parents
 * before children): FLOPs of counted children accumulate in `nested`, and
 * tlc_eval_finish folds them up the tree once, so crediting every unknown
 * ancestor costs O(1) per op however deep the nesting. */
typedef struct uncovered {
	int64_t parent; /* index of the parent's entry, -1 at top level */
	int64_t group;  /* ledger group index, -1 when not unknown */
	tlc_count nested;
} uncovered;

/* Row lookup by id: a sorted array instead of a hash map (about 64 bytes a
 * row at its load factor); ids are unique. Built at finish as (id, row)
 * pairs, kept as the 32-bit row indices (the ids are in the rows), and not
 * at all when the rows are already in id order (see index_rows). */
typedef struct tlc_row_key {
	int64_t id, row;
} tlc_row_key;

/* The type last found for a caller's (name, overload) pointers. */
typedef struct recent_type {
	const char *name, *overload; /* as the caller passed them (overload may be NULL) */
	size_t type1;                /* 1 + type index; 0: empty */
} recent_type;

/* The records held for one parent, packed (held.h), in input order. */
typedef struct pending_list {
	tlc_held *head, *tail;
} pending_list;

struct tlc_eval {
	tlc_engine *eng;
	tlc_eval__paired *paired;  /* capture pairing (tlc_eval__set_pairing) */
	size_t npaired;
	int64_t *pair_ids;
	size_t npair_ids;
	int has_pairing;
	tlc_capture_pair_summary pairing;
	const tlc_allocator *a;
	tlc_eval__annotation *annots; /* phase annotations (tlc_eval__add_annotation) */
	size_t nannots, annotcap;
	tlc_eval__step *steps;        /* profiler steps (tlc_eval__add_step) */
	size_t nsteps, stepcap;
	tlc_eval_options opts;
	tlc_intern *intern;
	tlc_input_info info;
	int finished;
	/* the device-time overlay of the latest join (owned by the join; the
	 * eval's results are never written after they are final) */
	const tlc_overlay *overlay;

	tlc_densemap bits;   /* id>>6 -> id_bits (ids mostly ascend: an array) */
	id_bits *last_bits;  /* cache of the last block looked up */
	int64_t last_bits_key;
	uint64_t last_bits_epoch;
	tlc_idmap uncov_index; /* id -> index into uncov */
	uncovered *uncov;
	size_t nuncov, ucap;
	int folded;
	tlc_idmap pending;   /* parent id -> pending_list */
	size_t npending;
	uint64_t held_bytes; /* the packed records' allocations (pending's table aside) */
	tlc_arena held_arena; /* one held record unpacked while it is resolved */

	tlc_count tot[TLC_PHASE_COUNT][TLC_FIELD_COUNT];
	int split_unknown[TLC_PHASE_COUNT];
	int bytes_unknown[TLC_PHASE_COUNT];
	int present[TLC_PHASE_COUNT];
	tlc_coverage cov;

	optype *types;
	size_t ntypes, tcap;
	tlc_hindex type_index;   /* hash of (name, overload) -> types (see type_of) */
	recent_type recent[256]; /* the type last found, by the op's name pointer (see type_of) */
	int stable_names;        /* tlc_eval_set_stable_names */
	const optype **types_sorted;

	ledger_group *groups;
	size_t ngroups, gcap;
	const ledger_group **groups_sorted;

	tlc_rows rows;           /* kept rows, compact (rows.h) */
	size_t nrows;
	tlc_arena cost_arena;    /* row costs */
	tlc_idmap cost_index;    /* content hash -> a shared row cost (see share_cost) */
	tlc_cost **costs;        /* every row cost, each once (freed with the eval) */
	size_t ncosts, costcap;
	uint32_t *row_index;     /* row indices by id, or NULL when rows are in id order */
	int rows_indexed;        /* tlc_eval__row_of_id may look */

	tlc_devs dev;            /* device records, compact (rows.h) */
	tlc_graph_node *gnodes;  /* graph node records (few: one per captured launch) */
	size_t ngnodes, gnodecap;
	tlc_profiler_status profiler;
	tlc_device_gap gaps[TLC_EVAL_MAX_GAPS]; /* device work without op rows */
	size_t ngaps;
	tlc_device_work work;
	const char *src_name;  /* input of the records being pushed (interned) */
	uint64_t src_line;

	tlc_cost scratch;
	tlc_comm_acc *comm;      /* communication totals (engine/eval/comm.c) */
	char notebuf[256];
	tlc_sb sb;
	/* the last few distinct tensor dtype names and the peak dtype each
	 * spells (peak_dtype_of): a run repeats a handful of names */
	struct dtype_memo { char name[24]; tlc_dtype d; } dtmemo[4];
	unsigned dtmemo_next;
	/* where each op's record lies in its input (tlc_eval__want_source_keys) */
	int want_src_keys;
	tlc_eval__source_key *src_keys;
	size_t nsrc_keys, src_key_cap;
};

/* ------------------------------------------------------------------ */

static int oom(void) { return tlc_error__oom(); }

static const char *intern(tlc_eval *ev, const char *s)
{
	if (!s)
		return NULL;
	return tlc_intern__get(ev->intern, s, strlen(s));
}

int tlc_eval_new(tlc_eval **out, tlc_engine *eng, const tlc_eval_options *opts)
{
	if (!out || !eng)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass an engine",
		                      "tlc_eval_new: NULL argument");
	tlc_eval *ev = tlc_alloc__calloc(eng->a, 1, sizeof *ev);
	if (!ev)
		return oom();
	ev->eng = eng;
	ev->a = eng->a;
	if (opts)
		memcpy(&ev->opts, opts, opts->size < sizeof ev->opts ? opts->size : sizeof ev->opts);
	tlc_densemap__init(&ev->bits, ev->a, sizeof(id_bits));
	tlc_idmap__init(&ev->uncov_index, ev->a, sizeof(int64_t));
	tlc_idmap__init(&ev->pending, ev->a, sizeof(pending_list));
	tlc_idmap__init(&ev->cost_index, ev->a, sizeof(tlc_cost *));
	tlc_hindex__init(&ev->type_index, ev->a);
	tlc_rows__init(&ev->rows, ev->a);
	tlc_devs__init(&ev->dev, ev->a);
	tlc_arena__init(&ev->cost_arena, ev->a, 64 * 1024);
	tlc_arena__init(&ev->held_arena, ev->a, 16 * 1024);
	for (int p = 0; p < TLC_PHASE_COUNT; p++)
		for (int f = 0; f < TLC_FIELD_COUNT; f++)
			tlc_count__init(&ev->tot[p][f]);
	tlc_cost__init(&ev->scratch, TLC_EVIDENCE_FORMULA_EXACT);
	ev->scratch.notebuf = ev->notebuf;
	ev->scratch.notecap = sizeof ev->notebuf;
	tlc_sb__init(&ev->sb, ev->a);
	ev->info.size = sizeof ev->info;
	ev->info.params = ev->info.tokens = -1;
	ev->profiler.size = sizeof ev->profiler;
	ev->info.format = "api";
	int rc = tlc_intern__new(&ev->intern, ev->a);
	if (rc == 0)
		rc = tlc_comm__new(&ev->comm, ev->a);
	if (rc < 0) {
		tlc_eval_free(ev);
		return rc;
	}
	*out = ev;
	return 0;
}

static void free_pending(tlc_eval *ev)
{
	for (size_t i = 0; i < ev->pending.nslots; i++) {
		pending_list *pl = tlc_idmap__slot(&ev->pending, i, NULL);
		for (tlc_held *h = pl ? pl->head : NULL, *next; h; h = next) {
			next = h->next;
			tlc_alloc__free(ev->a, h);
		}
	}
	tlc_idmap__free(&ev->pending);
	tlc_arena__free(&ev->held_arena);
}

void tlc_eval_free(tlc_eval *ev)
{
	if (!ev)
		return;
	free_pending(ev);
	tlc_alloc__free(ev->a, ev->paired);
	tlc_alloc__free(ev->a, ev->gnodes);
	tlc_alloc__free(ev->a, ev->pair_ids);
	tlc_alloc__free(ev->a, ev->src_keys);
	for (size_t i = 0; i < ev->ncosts; i++)
		tlc_cost__clear(ev->costs[i]);
	tlc_alloc__free(ev->a, ev->costs);
	tlc_idmap__free(&ev->cost_index);
	for (size_t i = 0; i < ev->ntypes; i++)
		tlc_count__clear(&ev->types[i].flops);
	for (size_t i = 0; i < ev->ngroups; i++) {
		tlc_count__clear(&ev->groups[i].nested);
		tlc_count__clear(&ev->groups[i].pflops);
		tlc_count__clear(&ev->groups[i].pbytes);
	}
	for (int p = 0; p < TLC_PHASE_COUNT; p++)
		for (int f = 0; f < TLC_FIELD_COUNT; f++)
			tlc_count__clear(&ev->tot[p][f]);
	tlc_cost__clear(&ev->scratch);
	tlc_comm__free(ev->comm, ev->a);
	tlc_densemap__free(&ev->bits);
	tlc_idmap__free(&ev->uncov_index);
	for (size_t i = 0; i < ev->nuncov; i++)
		tlc_count__clear(&ev->uncov[i].nested);
	tlc_alloc__free(ev->a, ev->uncov);
	tlc_hindex__free(&ev->type_index);
	tlc_alloc__free(ev->a, ev->row_index);
	tlc_alloc__free(ev->a, ev->annots);
	tlc_alloc__free(ev->a, ev->steps);
	tlc_arena__free(&ev->cost_arena);
	tlc_alloc__free(ev->a, ev->types);
	tlc_alloc__free(ev->a, (void *)ev->types_sorted);
	tlc_alloc__free(ev->a, ev->groups);
	tlc_alloc__free(ev->a, (void *)ev->groups_sorted);
	tlc_rows__free(&ev->rows);
	tlc_devs__free(&ev->dev);
	tlc_sb__free(&ev->sb);
	tlc_intern__free(ev->intern);
	tlc_alloc__free(ev->a, ev);
}

/* ---- header info ---- */

int tlc_eval_set_info(tlc_eval *ev, const tlc_input_info *info)
{
	if (!ev || !info)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass an info struct",
		                      "tlc_eval_set_info: NULL argument");
	/* an older caller's struct is shorter: fields past its size keep their
	 * defaults (params/tokens -1) */
	if (info->size < offsetof(tlc_input_info, meta_json) + sizeof info->meta_json)
		return tlc_error__set(TLC_EINVAL, "invalid_argument",
		                      "set info->size = sizeof(tlc_input_info) (TLC_INPUT_INFO_INIT)",
		                      "tlc_eval_set_info: info->size %u is smaller than the first "
		                      "tlc_input_info layout", (unsigned)info->size);
	tlc_input_info n = TLC_INPUT_INFO_INIT;
	memcpy(&n, info, info->size < sizeof n ? info->size : sizeof n);
	n.size = sizeof n;
	const char **fields[] = { &n.format, &n.producer, &n.model, &n.device, &n.meta_json };
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
		if (*fields[i] && !(*fields[i] = intern(ev, *fields[i])))
			return oom();
	}
	if (!n.format)
		n.format = "api";
	ev->info = n;
	return 0;
}

const tlc_input_info *tlc_eval_info(const tlc_eval *ev) { return ev ? &ev->info : NULL; }

int tlc_eval_set_stable_names(tlc_eval *ev, int stable)
{
	if (!ev)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass an eval",
		                      "tlc_eval_set_stable_names: NULL argument");
	/* pointers remembered before the promise may have been a reused
	 * buffer's: forget them (the types themselves stay) */
	memset(ev->recent, 0, sizeof ev->recent);
	ev->stable_names = stable != 0;
	return 0;
}

/* ---- id bookkeeping ---- */

/* The map lookup behind bits_of, apart: bits_of's cache hit (63 ids in
 * 64 when they ascend) stays a few inline instructions. */
static __attribute__((noinline)) id_bits *bits_find(tlc_eval *ev, int64_t key, int create)
{
	id_bits *b = create ? tlc_densemap__put(&ev->bits, key, NULL)
	                    : tlc_densemap__get(&ev->bits, key);
	if (b) {
		ev->last_bits = b;
		ev->last_bits_key = key;
		ev->last_bits_epoch = tlc_densemap__epoch(&ev->bits);
	}
	return b;
}

static inline id_bits *bits_of(tlc_eval *ev, int64_t id, int create)
{
	int64_t key = id >> 6;
	/* ids mostly ascend: the previous block is the likely one (valid until
	 * the map's values move, which changes its epoch) */
	if (ev->last_bits && ev->last_bits_key == key &&
	    ev->last_bits_epoch == tlc_densemap__epoch(&ev->bits))
		return ev->last_bits;
	return bits_find(ev, key, create);
}

static int test_bit(tlc_eval *ev, int64_t id, size_t which)
{
	id_bits *b = bits_of(ev, id, 0);
	if (!b)
		return 0;
	uint64_t w = which == 0 ? b->seen : which == 1 ? b->resolved : b->covered;
	return (int)((w >> (id & 63)) & 1);
}

static void set_bit(id_bits *b, int64_t id, size_t which)
{
	uint64_t m = 1ULL << (id & 63);
	if (which == 0)
		b->seen |= m;
	else if (which == 1)
		b->resolved |= m;
	else
		b->covered |= m;
}

/* ---- op types and ledger groups ---- */

static uint64_t type_hash(const char *name, size_t nlen, const char *ovl, size_t olen)
{
	return tlc_hash__bytes(name, nlen) * 31 + tlc_hash__bytes(ovl, olen);
}

/* The rule of a name family, for a name without a rule of its own. A name
 * that ends in a counter, "ns::stem_<digits>", first takes the rule
 * "ns::stem_*" (SGLang's kernel_shape_profiler registers each wrapped
 * launcher as the custom op sglang_profiler::<module>_<function>_<counter>,
 * the counter set per process, so one rule covers every counter); then any
 * name takes the rule of its whole namespace, "ns::*". */
static const tlc_rule *namespace_rule(const tlc_eval *ev, const char *name)
{
	const char *sep = strstr(name, "::");
	char buf[256];
	size_t len = strlen(name), n = sep ? (size_t)(sep - name) : 0;
	if (!sep || n == 0 || len + 2 > sizeof buf)
		return NULL;
	size_t d = tlc_name__counter_stem(name, len);
	if (d < len && d > n + 3) {
		memcpy(buf, name, d);
		memcpy(buf + d, "*", 2);
		const tlc_rule *r = tlc_engine__find_rule(ev->eng, buf, NULL);
		if (r)
			return r;
	}
	memcpy(buf, name, n);
	memcpy(buf + n, "::*", 4);
	return tlc_engine__find_rule(ev->eng, buf, NULL);
}

/* A new type for the raw name and overload, in the empty slot of the
 * index where it belongs. */
static optype *new_type(tlc_eval *ev, tlc_hslot *slot, uint64_t h, const char *raw_name,
                        size_t nlen, const char *raw_ovl, size_t olen)
{
	const char *name = tlc_intern__get(ev->intern, raw_name, nlen);
	const char *ovl = tlc_intern__get(ev->intern, raw_ovl, olen);
	if (!name || !ovl || tlc_alloc__grow(ev->a, (void **)&ev->types, &ev->tcap,
	                                     ev->ntypes + 1, sizeof *ev->types) < 0)
		return NULL;
	optype *t = &ev->types[ev->ntypes];
	memset(t, 0, sizeof *t);
	t->name = name;
	t->overload = ovl;
	t->rule = tlc_engine__find_rule(ev->eng, name, ovl);
	if (!t->rule)
		t->rule = namespace_rule(ev, name);
	t->group = -1;
	tlc_count__init(&t->flops);
	tlc_hindex__fill(&ev->type_index, slot, h, ev->ntypes++);
	return t;
}

static optype *find_type(tlc_eval *ev, const char *name, const char *ovl);

/* The op type of a record, in one lookup: the hash of the name and
 * overload bytes, then a probe that compares strings only on an equal
 * hash. A new (name, overload) is interned once, when its type is made.
 * Callers of the C API pass the same string pointers again and again: the
 * type last found for the pointers is tried first, which saves hashing the
 * bytes. strcmp decides, unless the caller promised stable names
 * (tlc_eval_set_stable_names): then the same pointers are the same
 * name, and a hit compares no bytes. */
static optype *type_of(tlc_eval *ev, const tlc_op *op)
{
	uint64_t key = (uint64_t)(uintptr_t)op->name * 0x9E3779B97F4A7C15ULL +
	               (uint64_t)(uintptr_t)op->overload;
	recent_type *r = &ev->recent[(key * 0x9E3779B97F4A7C15ULL) >> 56];
	const char *ovl = op->overload ? op->overload : "";
	if (r->type1) {
		optype *t = &ev->types[r->type1 - 1];
		if (r->name == op->name && r->overload == op->overload && ev->stable_names)
			return t;
		/* a caller that passes the interned strings back skips strcmp */
		if ((t->name == op->name || strcmp(t->name, op->name) == 0) &&
		    (t->overload == ovl || strcmp(t->overload, ovl) == 0))
			return t;
	}
	optype *t = find_type(ev, op->name, ovl);
	if (t)
		*r = (recent_type){ op->name, op->overload, (size_t)(t - ev->types) + 1 };
	return t;
}

typedef struct type_key {
	const char *name, *ovl;
} type_key;

static int type_eq(size_t idx, const void *key, const void *payload)
{
	const type_key *k = key;
	const optype *t = &((const tlc_eval *)payload)->types[idx];
	return strcmp(t->name, k->name) == 0 && strcmp(t->overload, k->ovl) == 0;
}

static optype *find_type(tlc_eval *ev, const char *name, const char *ovl)
{
	size_t nlen = strlen(name), olen = strlen(ovl);
	uint64_t h = type_hash(name, nlen, ovl, olen);
	if (tlc_hindex__reserve(&ev->type_index, ev->ntypes + 1) < 0)
		return NULL;
	type_key k = { name, ovl };
	tlc_hslot *s = tlc_hindex__probe(&ev->type_index, h, type_eq, &k, ev);
	if (!s->idx1)
		return new_type(ev, s, h, name, nlen, ovl, olen);
	return &ev->types[s->idx1 - 1];
}

static ledger_group *find_group(tlc_eval *ev, optype *t)
{
	if (t->group >= 0)
		return &ev->groups[t->group];
	if (tlc_alloc__grow(ev->a, (void **)&ev->groups, &ev->gcap, ev->ngroups + 1,
	                    sizeof *ev->groups) < 0)
		return NULL;
	ledger_group *g = &ev->groups[ev->ngroups];
	memset(g, 0, sizeof *g);
	g->name = t->name;
	g->overload = t->overload;
	tlc_count__init(&g->nested);
	tlc_count__init(&g->pflops);
	tlc_count__init(&g->pbytes);
	t->group = (int64_t)ev->ngroups++;
	return g;
}

/* ---- shapes summary: "[8,16]float32, [16]float32" of tensor args ---- */

/* tlc_dtype__peak_of_name(name), remembered for short names (zeroed slots
 * hold "", whose answer NONE is right). */
static tlc_dtype peak_dtype_of(tlc_eval *ev, const char *name)
{
	if (!name)
		return TLC_DTYPE_NONE;
	for (size_t i = 0; i < sizeof ev->dtmemo / sizeof ev->dtmemo[0]; i++)
		if (strcmp(ev->dtmemo[i].name, name) == 0)
			return ev->dtmemo[i].d;
	tlc_dtype d = tlc_dtype__peak_of_name(name);
	size_t n = strlen(name);
	if (n < sizeof ev->dtmemo[0].name) {
		size_t slots = sizeof ev->dtmemo / sizeof ev->dtmemo[0];
		struct dtype_memo *m = &ev->dtmemo[ev->dtmemo_next++ % slots];
		memcpy(m->name, name, n + 1);
		m->d = d;
	}
	return d;
}

/* The op's dtype (tlc_op_row.dtype) is read from the tensors the summary
 * shows, in its order: the first whose dtype name spells a dtype with a
 * peak. It is the rule the reports once applied to the summary text, so
 * it reads the names as written, not the tensors' tlc_dtype (an op log's
 * "f32" is OTHER there); only a tensor without a name is read by its
 * tlc_dtype (tensor_dtype_name). */
typedef struct shape_walk {
	tlc_eval *ev;
	tlc_dtype dtype; /* NONE until a shown tensor's name has a peak */
	int want_dtype;
} shape_walk;

/* The dtype as the summary spells it: the name as written, else the
 * canonical name of a typed dtype (a C API caller may set only tlc_dtype;
 * its bf16 tensor must not read as dtype-less), else none. */
static const char *tensor_dtype_name(const tlc_tensor *t)
{
	if (t->dtype_name)
		return t->dtype_name;
	if (t->dtype == TLC_DTYPE_NONE || t->dtype == TLC_DTYPE_OTHER)
		return NULL;
	return tlc_dtype_name(t->dtype);
}

static void put_value_shape(tlc_sb *sb, const tlc_value *v, int depth, shape_walk *w)
{
	if (v->kind == TLC_VALUE_TENSOR) {
		/* a summary, not a dump: at most 16 dimensions are spelled out */
		size_t nd = v->u.tensor.ndim, shown = nd > 16 ? 16 : nd;
		tlc_sb__putc(sb, '[');
		for (size_t i = 0; i < shown; i++) {
			if (i)
				tlc_sb__putc(sb, ',');
			tlc_sb__put_i64(sb, v->u.tensor.shape[i]);
		}
		if (shown < nd)
			tlc_sb__printf(sb, ",... (%zu dims)", nd);
		tlc_sb__putc(sb, ']');
		const char *dn = tensor_dtype_name(&v->u.tensor);
		if (dn)
			tlc_sb__puts(sb, dn);
		if (w->want_dtype && w->dtype == TLC_DTYPE_NONE)
			w->dtype = peak_dtype_of(w->ev, dn);
	} else if (v->kind == TLC_VALUE_LIST && depth < 2) {
		int any = 0;
		for (size_t i = 0; i < v->u.list.n; i++)
			any |= v->u.list.items[i].kind == TLC_VALUE_TENSOR;
		if (!any)
			return;
		tlc_sb__putc(sb, '(');
		for (size_t i = 0; i < v->u.list.n && i < 8; i++) {
			if (i)
				tlc_sb__putc(sb, ' ');
			put_value_shape(sb, &v->u.list.items[i], depth + 1, w);
		}
		tlc_sb__puts(sb, v->u.list.n > 8 ? " ...)" : ")");
	}
}

/* The interned summary, or NULL (out of memory); *dtype (when not NULL)
 * is the op's dtype. */
static const char *shapes_of(tlc_eval *ev, const tlc_op *op, tlc_dtype *dtype)
{
	shape_walk w = { ev, TLC_DTYPE_NONE, dtype != NULL };
	tlc_sb__reset(&ev->sb);
	size_t written = 0;
	for (size_t i = 0; i < op->nargs; i++) {
		const tlc_value *v = &op->args[i];
		if (v->kind != TLC_VALUE_TENSOR && v->kind != TLC_VALUE_LIST)
			continue;
		if (ev->sb.len > 512) { /* bounded, whatever the record */
			tlc_sb__puts(&ev->sb, ", ...");
			break;
		}
		size_t before = ev->sb.len;
		if (written)
			tlc_sb__puts(&ev->sb, ", ");
		size_t mark = ev->sb.len;
		put_value_shape(&ev->sb, v, 0, &w);
		if (ev->sb.len == mark) {
			ev->sb.len = before; /* a list without tensors: drop the separator */
			if (ev->sb.ptr)
				ev->sb.ptr[before] = '\0';
			continue;
		}
		written++;
	}
	if (dtype)
		*dtype = w.dtype;
	const char *s = tlc_sb__str(&ev->sb);
	return s ? intern(ev, s) : NULL;
}

/* ---- classification ---- */

typedef struct verdict {
	tlc_class cls;
	const char *reason;  /* interned or static */
	int counted;         /* scratch cost holds a known/zero cost */
	int covers;          /* descendants are covered */
	int64_t group;       /* ledger group when unknown */
} verdict;

static const char *remedy_for(tlc_eval *ev, const char *name, const char *overload,
                              const char *reason)
{
	char full[320];
	snprintf(full, sizeof full, "%s%s%s", name, *overload ? "." : "", overload);
	tlc_sb__reset(&ev->sb);
	const char *pack = strcmp(reason, "no_rule") == 0 ? tlc_packs__covering(name, overload) : NULL;
	if (strcmp(reason, "partly_known") == 0)
		tlc_sb__printf(&ev->sb,
		               "the rule for %s counted the terms the record determines; the missing "
		               "term (see missing and cause) needs a value the input did not record: "
		               "capture an op log, which records every argument "
		               "(`python3 -m tlcost capture --model MODEL --out FILE`, docs/capture.md), "
		               "or, where the value is a tensor's contents, override the rule with "
		               "TLC_RULE_OVERRIDE in a plugin or a rule file (docs/rule-files.md) that "
		               "knows it",
		               full);
	else if (pack) /* a rule ships with tlcost but its pack was switched off */
		tlc_sb__printf(&ev->sb,
		               "covered by pack:%s, which is not loaded: drop --no-packs, or add %s "
		               "to --packs LIST (from C, tlc_engine_load_pack(eng, \"%s\"); from "
		               "Python, leave tlcost.Engine's packs unset or name %s) (docs/packs.md)",
		               pack, pack, pack, pack);
	else if (strcmp(reason, "no_rule") == 0)
		tlc_sb__printf(&ev->sb,
		               "register a rule for %s in a plugin: in its init() call "
		               "host->register_rule(ctx, &(tlc_rule_def){ .size = sizeof(tlc_rule_def), "
		               ".name = \"%s\", .kind = TLC_RULE_COST, .fn = my_cost_fn }) (the name "
		               "without an overload matches every overload); build with "
		               "`cc -shared -fPIC $(pkg-config --cflags tlcost) -o myrules.so myrules.c` "
		               "and run "
		               "`tlcost --plugin ./myrules.so flops FILE` (docs/plugin-guide.md); "
		               "if its cost is exactly its children's, register it with "
		               ".kind = TLC_RULE_DECOMPOSED instead; or, without C, write a rule file "
		               "(`rule %s` / `other = ...` / `end`) and run "
		               "`tlcost --rules my.tlrules flops FILE` (docs/rule-files.md); "
		               "or, from Python, `@tlcost.register_rule(\"%s\")` on a function "
		               "returning tlcost.Cost, before tlcost.capture or tlcost.read "
		               "(docs/python.md)",
		               full, name, name, name);
	else
		tlc_sb__printf(&ev->sb,
		               "the rule for %s could not evaluate this record (%s): record the "
		               "op's arguments in schema order with shapes and dtypes (capture an op "
		               "log with `python3 -m tlcost capture --model MODEL --out FILE`, "
		               "docs/capture.md; or torch.profiler record_shapes=True; a "
		               "trace holds scalar and list arguments only in 'Concrete Inputs', "
		               "written by torch >= 2.0), or "
		               "override the rule with TLC_RULE_OVERRIDE in a plugin",
		               full, reason);
	if (strcmp(reason, "no_rule") == 0 && !pack) {
		/* a name that ends in a counter: one rule covers every counter */
		size_t len = strlen(name), d = tlc_name__counter_stem(name, len);
		if (d < len && strstr(name, "::"))
			tlc_sb__printf(&ev->sb,
			               "; the name ends in a counter (as SGLang's wrapped launchers' "
			               "do): a rule named %.*s* covers every counter (docs/rules.md)",
			               (int)d, name);
	}
	const char *s = tlc_sb__str(&ev->sb);
	return s ? intern(ev, s) : NULL;
}

static int ledger_add(tlc_eval *ev, const tlc_op *op, optype *t, const char *reason,
                      int64_t *group_out)
{
	ledger_group *g = find_group(ev, t);
	if (!g)
		return oom();
	*group_out = t->group;
	tlc_ledger_entry *e = &g->pub;
	if (e->count == 0) {
		e->reason = reason;
		const char *note = ev->scratch.note;
		e->detail = note ? intern(ev, note) : NULL;
		/* e->remedy (some 700 bytes) is written when the entry is first
		 * read (tlc_eval_ledger_at): most groups are never shown */
	}
	e->count++;
	if (e->nexample_ids < LEDGER_EXAMPLES)
		e->example_ids[e->nexample_ids++] = op->id;
	/* distinct shapes are looked for among the first calls only */
	if (e->nexample_shapes < LEDGER_EXAMPLES && e->count <= 64) {
		const char *sh = shapes_of(ev, op, NULL);
		if (!sh)
			return oom();
		size_t k = 0;
		while (k < e->nexample_shapes && e->example_shapes[k] != sh)
			k++;
		if (k == e->nexample_shapes)
			e->example_shapes[e->nexample_shapes++] = sh;
	}
	return 0;
}

static inline void count_add(tlc_count *c, const tlc_count *v);
static inline void add_flops(tlc_count *acc, const tlc_cost *c);

/* "macs", "other_flops,bytes_read", ...: the fields of a missing mask. */
static const char *missing_names(tlc_eval *ev, unsigned mask)
{
	static const char *const names[TLC_FIELD_COUNT] = { "macs", "other_flops", "bytes_read",
	                                                    "bytes_written" };
	tlc_sb__reset(&ev->sb);
	for (int f = 0; f < TLC_FIELD_COUNT; f++)
		if (mask & (1u << f))
			tlc_sb__printf(&ev->sb, "%s%s", ev->sb.len ? "," : "", names[f]);
	const char *s = tlc_sb__str(&ev->sb);
	return s ? intern(ev, s) : NULL;
}

/* A partly known call (its scratch cost holds the determined terms): the
 * group counts it, sums those terms, and keeps the first call's missing
 * terms and cause. */
static int ledger_partial(tlc_eval *ev, int64_t group)
{
	ledger_group *g = &ev->groups[group];
	tlc_ledger_entry *e = &g->pub;
	if (e->partly_known++ == 0) {
		const char *note = ev->scratch.note;
		e->missing = missing_names(ev, ev->scratch.missing);
		e->cause = note ? intern(ev, note) : "the rule gave no cause";
		if (!e->missing || !e->cause)
			return oom();
	}
	add_flops(&g->pflops, &ev->scratch);
	count_add(&g->pbytes, &ev->scratch.f[TLC_FIELD_BYTES_READ]);
	count_add(&g->pbytes, &ev->scratch.f[TLC_FIELD_BYTES_WRITTEN]);
	return 0;
}

static int run_rule(tlc_eval *ev, const tlc_rule *rule, const tlc_op *op)
{
	tlc_cost__reset(&ev->scratch, rule->info.evidence);
	if (rule->info.kind == TLC_RULE_ZERO)
		return TLC_RULE_OK;
	int rc = rule->fn(&ev->scratch, op, tlc_host__table(), rule->payload);
	if (rc == TLC_RULE_OK && (ev->scratch.bad_factor ||
	                          (ev->scratch.negative_terms && tlc_cost__negative(&ev->scratch))))
		rc = TLC_RULE_BAD_ARGS;
	return rc;
}

int tlc_eval__add_annotation(tlc_eval *ev, int64_t thread, int64_t start_ns, int64_t end_ns,
                             tlc_phase phase)
{
	if ((unsigned)phase >= TLC_PHASE_COUNT || end_ns < start_ns)
		return tlc_error__set(TLC_EINVAL, "invalid_argument",
		                      "pass a phase and an interval with start <= end",
		                      "tlc_eval__add_annotation: bad annotation");
	if (tlc_alloc__grow(ev->a, (void **)&ev->annots, &ev->annotcap, ev->nannots + 1,
	                    sizeof *ev->annots) < 0)
		return tlc_error__oom();
	ev->annots[ev->nannots++] = (tlc_eval__annotation){ thread, start_ns, end_ns, phase };
	return 0;
}

size_t tlc_eval__annotation_count(const tlc_eval *ev) { return ev ? ev->nannots : 0; }

const tlc_eval__annotation *tlc_eval__annotation_at(const tlc_eval *ev, size_t i)
{
	return ev && i < ev->nannots ? &ev->annots[i] : NULL;
}

int tlc_eval__add_step(tlc_eval *ev, int64_t number, int64_t start_ns, int64_t end_ns)
{
	if (end_ns < start_ns)
		return tlc_error__set(TLC_EINVAL, "invalid_argument",
		                      "pass an interval with start <= end",
		                      "tlc_eval__add_step: bad step");
	if (tlc_alloc__grow(ev->a, (void **)&ev->steps, &ev->stepcap, ev->nsteps + 1,
	                    sizeof *ev->steps) < 0)
		return tlc_error__oom();
	ev->steps[ev->nsteps++] = (tlc_eval__step){ number, start_ns, end_ns };
	return 0;
}

size_t tlc_eval__step_count(const tlc_eval *ev) { return ev ? ev->nsteps : 0; }

const tlc_eval__step *tlc_eval__step_at(const tlc_eval *ev, size_t i)
{
	return ev && i < ev->nsteps ? &ev->steps[i] : NULL;
}

int tlc_eval__row_not_op(const tlc_eval *ev, size_t i)
{
	const tlc_rows *rows = tlc_eval__rows(ev);
	if (!rows || i >= rows->n)
		return 0;
	const tlc_rowkind *k = tlc_rows__kind(rows, i);
	return k->cls == TLC_CLASS_NOT_APPLICABLE && k->reason && strcmp(k->reason, "structural") == 0;
}

static int classify(verdict *v, tlc_eval *ev, const tlc_op *op, optype *t, int parent_covered)
{
	memset(v, 0, sizeof *v);
	v->group = -1;
	ev->scratch.note = NULL;
	if (parent_covered) {
		v->cls = TLC_CLASS_NOT_APPLICABLE;
		v->reason = "nested";
		v->covers = 1;
		return 0;
	}
	const tlc_rule *rule = t->rule;
	if (!rule) {
		v->cls = TLC_CLASS_UNKNOWN;
		v->reason = "no_rule";
	} else if (rule->info.kind == TLC_RULE_STRUCTURAL || rule->info.kind == TLC_RULE_DECOMPOSED) {
		v->cls = TLC_CLASS_NOT_APPLICABLE;
		v->reason = rule->info.kind == TLC_RULE_STRUCTURAL ? "structural" : "decomposed";
	} else {
		int rc = run_rule(ev, rule, op);
		if (rc == TLC_RULE_OK && ev->scratch.missing) {
			/* partly known: unknown, its determined terms counted, and
			 * its children nested as under any evaluated rule */
			tlc_cost__drop_missing(&ev->scratch);
			v->cls = TLC_CLASS_UNKNOWN;
			v->reason = "partly_known";
			v->counted = v->covers = 1;
			rc = ledger_add(ev, op, t, v->reason, &v->group);
			return rc < 0 ? rc : ledger_partial(ev, v->group);
		} else if (rc == TLC_RULE_OK) {
			v->cls = rule->info.kind == TLC_RULE_ZERO ? TLC_CLASS_ZERO_BY_RULE : TLC_CLASS_KNOWN;
			v->reason = rule->info.note;
			v->counted = v->covers = 1;
		} else {
			v->cls = TLC_CLASS_UNKNOWN;
			v->reason = rc == TLC_RULE_MISSING_ARGS ? "missing_args" : "bad_args";
		}
	}
	if (v->cls == TLC_CLASS_UNKNOWN)
		return ledger_add(ev, op, t, v->reason, &v->group);
	return 0;
}

/* tlc_count__add, with the common case (both counts in 64 bits, no
 * overflow) inline: every counted op adds each field of its cost. */
static inline void count_add(tlc_count *c, const tlc_count *v)
{
	int64_t sum;
	if (!c->big && !v->big && !__builtin_add_overflow(c->small, v->small, &sum))
		c->small = sum;
	else
		tlc_count__add(c, v);
}

/* tlc_cost__add_flops (acc += 2 * macs + other flops), likewise. */
static inline void add_flops(tlc_count *acc, const tlc_cost *c)
{
	const tlc_count *m = &c->f[TLC_FIELD_MACS], *o = &c->f[TLC_FIELD_OTHER_FLOPS];
	int64_t two_m, sum;
	if (!acc->big && !m->big && !o->big && !__builtin_mul_overflow(m->small, 2, &two_m) &&
	    !__builtin_add_overflow(acc->small, two_m, &sum) &&
	    !__builtin_add_overflow(sum, o->small, &sum))
		acc->small = sum;
	else
		tlc_cost__add_flops(acc, c);
}

static void add_totals(tlc_eval *ev, const tlc_op *op, optype *t)
{
	tlc_phase p = (unsigned)op->phase < TLC_PHASE_COUNT ? op->phase : TLC_PHASE_OTHER;
	/* all fields' int64 sums first, stored only when none is big or
	 * overflows (one branch, not one per field); else GMP field by field,
	 * nothing having been written yet */
	tlc_count *tot = ev->tot[p];
	const tlc_count *sc = ev->scratch.f;
	int64_t sum[TLC_FIELD_COUNT];
	int slow = 0;
	/* unrolled: a loop of four costs more in its control than in its adds */
#pragma GCC unroll 4
	for (int f = 0; f < TLC_FIELD_COUNT; f++)
		slow |= tot[f].big | sc[f].big |
		        __builtin_add_overflow(tot[f].small, sc[f].small, &sum[f]);
	if (!slow) {
#pragma GCC unroll 4
		for (int f = 0; f < TLC_FIELD_COUNT; f++)
			tot[f].small = sum[f];
	}
	else
		for (int f = 0; f < TLC_FIELD_COUNT; f++)
			count_add(&tot[f], &sc[f]);
	ev->split_unknown[p] |= ev->scratch.split_unknown;
	ev->bytes_unknown[p] |= ev->scratch.bytes_unknown;
	add_flops(&t->flops, &ev->scratch);
	if (ev->scratch.has_comm)
		tlc_comm__add(ev->comm, p, &ev->scratch);
}

static int64_t uncovered_index(const tlc_eval *ev, int64_t id)
{
	const int64_t *slot = tlc_idmap__get(&ev->uncov_index, id);
	return slot ? *slot : -1;
}

/* Credits the op's FLOPs to its parent's entry when the parent is not
 * covered (folded up to every unknown ancestor at finish). */
static void credit_parent(tlc_eval *ev, const tlc_op *op)
{
	if (!(op->flags & TLC_OP_HAS_PARENT))
		return;
	int64_t k = uncovered_index(ev, op->parent);
	if (k >= 0)
		add_flops(&ev->uncov[k].nested, &ev->scratch);
}

/* Adds an entry for an op whose descendants stay evaluated. */
static int remember_uncovered(tlc_eval *ev, const tlc_op *op, int64_t group)
{
	if (tlc_alloc__grow(ev->a, (void **)&ev->uncov, &ev->ucap, ev->nuncov + 1,
	                    sizeof *ev->uncov) < 0)
		return TLC_ENOMEM;
	int64_t *slot = tlc_idmap__put(&ev->uncov_index, op->id, NULL);
	if (!slot)
		return oom();
	uncovered *u = &ev->uncov[ev->nuncov];
	u->parent = (op->flags & TLC_OP_HAS_PARENT) ? uncovered_index(ev, op->parent) : -1;
	u->group = group;
	tlc_count__init(&u->nested);
	*slot = (int64_t)ev->nuncov++;
	return 0;
}

/* Children come after parents in uncov: a reverse pass sums subtrees. */
static void fold_nested(tlc_eval *ev)
{
	if (ev->folded)
		return;
	ev->folded = 1;
	for (size_t i = ev->nuncov; i-- > 0;) {
		uncovered *u = &ev->uncov[i];
		if (u->parent >= 0)
			tlc_count__add(&ev->uncov[u->parent].nested, &u->nested);
		if (u->group >= 0)
			tlc_count__add(&ev->groups[u->group].nested, &u->nested);
	}
}

/* Row costs are shared: rows whose costs are equal in every field (the same
 * op on the same shapes: most rows of a trace repeat a layer) point at one
 * tlc_cost, so kept costs grow with distinct costs, not with ops. Rows never
 * change their cost after it is kept. Equality is decided field by field,
 * exactly (big values included); the hash only finds the candidate, and a
 * cost whose hash slot holds a different cost is simply kept unshared. */
static uint64_t cost_mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h;
}

static uint64_t count_hash(uint64_t h, const tlc_count *c)
{
	if (!c->big)
		return cost_mix(h, (uint64_t)c->small);
	h = cost_mix(h, (uint64_t)(int64_t)mpz_sgn(c->z));
	for (size_t i = 0; i < mpz_size(c->z); i++)
		h = cost_mix(h, (uint64_t)mpz_getlimbn(c->z, (mp_size_t)i));
	return h;
}

static uint64_t cost_hash(const tlc_cost *c, const char *note)
{
	uint64_t h = 0;
	for (int i = 0; i < TLC_FIELD_COUNT; i++)
		h = count_hash(h, &c->f[i]);
	h = cost_mix(h, (uint64_t)c->evidence | (uint64_t)c->bytes_unknown << 8 |
	                (uint64_t)c->split_unknown << 16 | (uint64_t)c->bad_factor << 24 |
	                (uint64_t)c->negative_terms << 32 | (uint64_t)c->has_comm << 40 |
	                (uint64_t)c->missing << 48);
	h = cost_mix(h, (uint64_t)(uintptr_t)note);
	if (c->has_comm) {
		h = cost_mix(h, (uint64_t)c->comm_kind | (uint64_t)c->comm_flags << 16);
		h = cost_mix(h, (uint64_t)c->comm_group);
		h = count_hash(h, &c->comm_msg);
	}
	return h;
}

/* a: a kept cost; b: the scratch cost, whose note interns to note */
static int cost_equal(const tlc_cost *a, const tlc_cost *b, const char *note)
{
	for (int i = 0; i < TLC_FIELD_COUNT; i++)
		if (tlc_count__cmp(&a->f[i], &b->f[i]) != 0)
			return 0;
	return a->evidence == b->evidence && a->bytes_unknown == b->bytes_unknown &&
	       a->split_unknown == b->split_unknown && a->bad_factor == b->bad_factor &&
	       a->negative_terms == b->negative_terms && a->missing == b->missing &&
	       a->note == note &&
	       a->has_comm == b->has_comm && a->comm_kind == b->comm_kind &&
	       a->comm_group == b->comm_group && a->comm_flags == b->comm_flags &&
	       tlc_count__cmp(&a->comm_msg, &b->comm_msg) == 0;
}

/* The kept cost equal to ev->scratch (a new one when none is), or NULL with
 * the error set. */
static const tlc_cost *share_cost(tlc_eval *ev)
{
	const tlc_cost *s = &ev->scratch;
	const char *note = s->note ? intern(ev, s->note) : NULL;
	if (s->note && !note)
		return NULL;
	int64_t key = (int64_t)(cost_hash(s, note) >> 1);
	tlc_cost **slot = tlc_idmap__get(&ev->cost_index, key);
	if (slot && cost_equal(*slot, s, note))
		return *slot;
	if (tlc_alloc__grow(ev->a, (void **)&ev->costs, &ev->costcap, ev->ncosts + 1,
	                    sizeof *ev->costs) < 0)
		return NULL;
	tlc_cost *c = tlc_arena__alloc(&ev->cost_arena, sizeof *c);
	if (!c) {
		oom();
		return NULL;
	}
	tlc_cost__init(c, s->evidence);
	tlc_cost__copy(c, s);
	c->note = note;
	ev->costs[ev->ncosts++] = c; /* owned from here: cleared by tlc_eval_free */
	if (!slot) {
		int created;
		slot = tlc_idmap__put(&ev->cost_index, key, &created);
		if (!slot)
			return NULL;
		*slot = c;
	}
	return c;
}

static int keep_row(tlc_eval *ev, const tlc_op *op, const optype *t, const verdict *v,
                    tlc_op_row *row)
{
	memset(row, 0, sizeof *row);
	row->size = sizeof *row;
	row->id = op->id;
	row->parent = (op->flags & TLC_OP_HAS_PARENT) ? op->parent : -1;
	row->name = t->name;
	row->overload = t->overload;
	row->phase = (unsigned)op->phase < TLC_PHASE_COUNT ? op->phase : TLC_PHASE_OTHER;
	row->module = op->module ? intern(ev, op->module) : "";
	row->module_type = op->module_type ? intern(ev, op->module_type) : NULL;
	row->module_call = (op->flags & TLC_OP_HAS_MODULE_CALL) ? op->module_call : -1;
	row->cls = v->cls;
	row->reason = v->reason;
	row->op_flags = op->flags;
	row->host_ns = op->host_ns;
	row->start_ns = op->start_ns;
	row->end_ns = op->end_ns;
	row->thread = op->thread;
	row->correlation = op->correlation;
	if (!row->module)
		return oom();
	if (!ev->opts.keep_ops)
		return 0;
	row->shapes = shapes_of(ev, op, &row->dtype);
	if (!row->shapes)
		return oom();
	if (v->counted) {
		row->cost = share_cost(ev);
		if (!row->cost)
			return oom();
	}
	return 0;
}

static int record_row(tlc_eval *ev, const tlc_op *op, const optype *t, const verdict *v)
{
	if (!ev->opts.keep_ops && !ev->opts.on_op)
		return 0;
	tlc_op_row tmp;
	int rc = keep_row(ev, op, t, v, &tmp); /* a kept cost is owned by ev->costs */
	if (rc < 0)
		return rc;
	if (!ev->opts.keep_ops) {
		if (ev->opts.on_op)
			ev->opts.on_op(op, &tmp, ev->opts.payload);
		return 0;
	}
	if (tlc_rows__push(&ev->rows, &tmp) < 0)
		return TLC_ENOMEM;
	ev->nrows++;
	if (ev->opts.on_op)
		ev->opts.on_op(op, &tmp, ev->opts.payload);
	return 0;
}

/* Final classification of one op whose parent (if any) is resolved. */
/* b: op's id bits when the caller has them (NULL: looked up). */
static int resolve(tlc_eval *ev, const tlc_op *op, int parent_covered, id_bits *b)
{
	optype *t = type_of(ev, op);
	if (!t)
		return oom();
	verdict v;
	int rc = classify(&v, ev, op, t, parent_covered);
	ev->scratch.io.op = NULL; /* the sums were op's: a held record resolved next is not */
	if (rc < 0)
		return rc;
	if (!v.covers) {
		rc = remember_uncovered(ev, op, v.group);
		if (rc < 0)
			return rc;
	}
	rc = record_row(ev, op, t, &v);
	if (rc < 0)
		return rc;
	/* commit: nothing below can fail */
	if (v.counted) {
		add_totals(ev, op, t);
		credit_parent(ev, op);
	}
	if (!b)
		b = bits_of(ev, op->id, 0); /* created by tlc_eval_push_op */
	set_bit(b, op->id, 1);
	if (v.covers)
		set_bit(b, op->id, 2);
	tlc_phase p = (unsigned)op->phase < TLC_PHASE_COUNT ? op->phase : TLC_PHASE_OTHER;
	ev->present[p] = 1;
	ev->cov.rows++;
	ev->cov.by_class[v.cls]++;
	t->pub.count++;
	t->pub.by_class[v.cls]++;
	return 0;
}

/* Resolves every held descendant of the resolved op root_id, without
 * recursion. Apart from resolve_tree: most ops have none, and their path
 * need not set up this one's frame. */
static __attribute__((noinline)) int resolve_held(tlc_eval *ev, int64_t root_id)
{
	int rc = 0;
	int64_t stack_small[64];
	int64_t *stack = stack_small;
	size_t n = 0, cap = 64;
	stack[n++] = root_id;
	while (n && rc == 0) {
		int64_t id = stack[--n];
		pending_list *pl = tlc_idmap__get(&ev->pending, id);
		if (!pl)
			continue;
		tlc_held *h = pl->head;
		tlc_idmap__del(&ev->pending, id);
		int covered = test_bit(ev, id, 2);
		for (tlc_held *next; h; h = next) {
			next = h->next;
			tlc_op op;
			if (rc == 0)
				rc = tlc_held__unpack(&op, h, &ev->held_arena);
			if (rc == 0)
				rc = resolve(ev, &op, covered, NULL);
			tlc_arena__reset(&ev->held_arena);
			if (rc == 0 && n == cap) {
				int64_t *ns = tlc_alloc__malloc(ev->a, cap * 2 * sizeof *ns);
				if (!ns) {
					rc = oom();
				} else {
					memcpy(ns, stack, n * sizeof *ns);
					if (stack != stack_small)
						tlc_alloc__free(ev->a, stack);
					stack = ns;
					cap *= 2;
				}
			}
			if (rc == 0)
				stack[n++] = op.id;
			ev->held_bytes -= h->size;
			tlc_alloc__free(ev->a, h);
			ev->npending--;
		}
	}
	if (stack != stack_small)
		tlc_alloc__free(ev->a, stack);
	return rc;
}

/* Resolves op (its id bits b, valid: nothing was added to the bits map
 * since they were found), then every held descendant. */
static inline int resolve_tree(tlc_eval *ev, const tlc_op *root, int parent_covered,
                               id_bits *b)
{
	int rc = resolve(ev, root, parent_covered, b);
	if (rc < 0 || ev->pending.count == 0) /* nothing waits for a parent */
		return rc;
	return resolve_held(ev, root->id);
}

/* Keeps op, packed, until its parent arrives (resolve_tree). */
static int hold(tlc_eval *ev, const tlc_op *op)
{
	tlc_held *h;
	int rc = tlc_held__pack(&h, ev->a, op, ev->src_line);
	if (rc < 0)
		return rc;
	pending_list *pl = tlc_idmap__put(&ev->pending, op->parent, NULL);
	if (!pl) {
		tlc_alloc__free(ev->a, h);
		return oom();
	}
	if (pl->tail)
		pl->tail->next = h;
	else
		pl->head = h;
	pl->tail = h;
	ev->held_bytes += h->size;
	ev->npending++;
	return 0;
}

/* The record's fields; its argument values too unless values_checked
 * (a reader that has already refused what they are checked for, at the
 * input position: the op log reader). The values are checked in the walk
 * that sums their bytes for the rule (tlc_cost__io_check): a record pushed
 * through the C API is walked once, not once to check and again to count. */
static int check_op(tlc_eval *ev, const tlc_op *op, int values_checked)
{
	const char *bad = NULL;
	ev->scratch.io.op = NULL;
	if (op->size < offsetof(tlc_op, correlation) + sizeof op->correlation)
		bad = "size (too small: set .size = sizeof(tlc_op))";
	else if (op->id < 0)
		bad = "id (must be >= 0)";
	else if (!op->name || !*op->name)
		bad = "op (missing)";
	else if ((op->flags & TLC_OP_HAS_PARENT) && op->parent < 0)
		bad = "parent (must be >= 0)";
	else if ((op->nargs && !op->args) || (op->nkwargs && !op->kwargs) ||
	         ((op->flags & TLC_OP_HAS_OUTPUTS) && op->noutputs && !op->outputs))
		bad = "args (count given without values)";
	else if (!values_checked)
		bad = tlc_cost__io_check(&ev->scratch.io, op);
	if (bad) {
		ev->scratch.io.op = NULL;
		return tlc_error__set(TLC_EINPUT, "oplog_field_invalid",
		                      "fix the record so it follows docs/oplog-v1.md",
		                      "op record %lld: invalid field %s", (long long)op->id, bad);
	}
	return 0;
}

static int push_op(tlc_eval *ev, const tlc_op *op, int values_checked);

int tlc_eval_push_op(tlc_eval *ev, const tlc_op *op)
{
	return push_op(ev, op, 0);
}

int tlc_eval__push_op_checked(tlc_eval *ev, const tlc_op *op)
{
	return push_op(ev, op, 1);
}

static int push_op(tlc_eval *ev, const tlc_op *op, int values_checked)
{
	if (!ev || !op)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass an eval and an op",
		                      "tlc_eval_push_op: NULL argument");
	if (ev->finished)
		return tlc_error__set(TLC_ESTATE, "eval_finished",
		                      "create a new tlc_eval for more input",
		                      "tlc_eval_push_op after tlc_eval_finish");
	int rc = check_op(ev, op, values_checked);
	if (rc < 0)
		return rc;
	id_bits *b = bits_of(ev, op->id, 1);
	if (!b)
		return oom();
	if ((b->seen >> (op->id & 63)) & 1)
		return tlc_error__set(TLC_EINPUT, "oplog_duplicate_id",
		                      "give every op record a unique id within the file",
		                      "op id %lld appears more than once", (long long)op->id);
	set_bit(b, op->id, 0);
	if (!(op->flags & TLC_OP_HAS_PARENT))
		return resolve_tree(ev, op, 0, b);
	if (op->parent == op->id)
		return tlc_error__set(TLC_EINPUT, "oplog_parent_unknown",
		                      "point parent at the enclosing op's id, or drop it for a top-level op",
		                      "op %lld names itself as its parent", (long long)op->id);
	/* a lookup adds nothing to the bits map: b stays valid */
	const id_bits *pb = bits_of(ev, op->parent, 0);
	uint64_t pm = 1ULL << (op->parent & 63);
	if (pb && (pb->resolved & pm))
		return resolve_tree(ev, op, (pb->covered & pm) != 0, b);
	return hold(ev, op);
}

void tlc_eval_count_skipped(tlc_eval *ev, const char *kind)
{
	(void)kind;
	if (ev)
		ev->cov.skipped++;
}

int tlc_eval_push_device(tlc_eval *ev, const tlc_device_record *rec)
{
	if (!ev || !rec || rec->size < offsetof(tlc_device_record, bytes) + sizeof rec->bytes)
		return tlc_error__set(TLC_EINVAL, "invalid_argument",
		                      "pass a tlc_device_record with .size = sizeof(tlc_device_record)",
		                      "tlc_eval_push_device: bad argument");
	if ((unsigned)rec->kind > TLC_DEVICE_DRIVER)
		return tlc_error__set(TLC_EINPUT, "device_record_invalid",
		                      "use a TLC_DEVICE_* kind", "unknown device record kind %d",
		                      (int)rec->kind);
	/* a caller built against an older header passes a shorter record:
	 * the fields past its size are absent */
	tlc_device_record r = TLC_DEVICE_RECORD_INIT;
	memcpy(&r, rec, rec->size < sizeof r ? rec->size : sizeof r);
	r.size = sizeof r;
	if (rec->size < offsetof(tlc_device_record, graph_node) + sizeof r.graph_node) {
		r.flags &= ~(unsigned)TLC_DEV_HAS_GRAPH_NODE;
		r.graph_id = r.graph_node = 0;
	}
	if (r.flags & TLC_DEV_HAS_GRAPH_NODE) {
		if (r.graph_node < 0 || r.kind == TLC_DEVICE_RUNTIME || r.kind == TLC_DEVICE_DRIVER)
			return tlc_error__set(TLC_EINPUT, "device_record_invalid",
			                      "set TLC_DEV_HAS_GRAPH_NODE only on kernels, copies and "
			                      "sets, with the graph node id CUPTI gave (>= 0)",
			                      "graph node %lld on a %s record", (long long)r.graph_node,
			                      r.kind == TLC_DEVICE_RUNTIME || r.kind == TLC_DEVICE_DRIVER
			                              ? "host call" : "device");
	} else {
		r.graph_id = r.graph_node = 0;
	}
	if (r.name && !(r.name = intern(ev, r.name)))
		return oom();
	if (tlc_devs__push(&ev->dev, &r) < 0)
		return TLC_ENOMEM;
	ev->cov.device_records++;
	return 0;
}

int tlc_eval_push_graph_node(tlc_eval *ev, const tlc_graph_node *n)
{
	if (!ev || !n || n->size < offsetof(tlc_graph_node, original) + sizeof n->original)
		return tlc_error__set(TLC_EINVAL, "invalid_argument",
		                      "pass a tlc_graph_node with .size = sizeof(tlc_graph_node)",
		                      "tlc_eval_push_graph_node: bad argument");
	if (n->node < 0 || (n->correlation >= 0) == (n->original >= 0))
		return tlc_error__set(TLC_EINVAL, "invalid_argument",
		                      "set node (>= 0) and exactly one of correlation (the creating "
		                      "call) and original (the node it was cloned from)",
		                      "tlc_eval_push_graph_node: node %lld, correlation %lld, original %lld",
		                      (long long)n->node, (long long)n->correlation,
		                      (long long)n->original);
	if (tlc_alloc__grow(ev->a, (void **)&ev->gnodes, &ev->gnodecap, ev->ngnodes + 1,
	                    sizeof *ev->gnodes) < 0)
		return oom();
	tlc_graph_node g = *n;
	g.size = sizeof g;
	ev->gnodes[ev->ngnodes++] = g;
	return 0;
}

size_t tlc_eval_graph_node_count(const tlc_eval *ev) { return ev ? ev->ngnodes : 0; }

int tlc_eval_graph_node_get(const tlc_eval *ev, size_t i, tlc_graph_node *out)
{
	if (!ev || !out || out->size < offsetof(tlc_graph_node, original) + sizeof out->original ||
	    i >= ev->ngnodes)
		return tlc_error__set(TLC_EINVAL, "invalid_argument",
		                      "pass a record index below tlc_eval_graph_node_count and a "
		                      "tlc_graph_node with .size = sizeof(tlc_graph_node)",
		                      "tlc_eval_graph_node_get: bad argument");
	uint32_t size = out->size;
	memcpy(out, &ev->gnodes[i], size < sizeof *out ? size : sizeof *out);
	out->size = size;
	return 0;
}

int tlc_eval_set_profiler_status(tlc_eval *ev, const tlc_profiler_status *st)
{
	if (!ev || !st || st->size < offsetof(tlc_profiler_status, message) + sizeof st->message ||
	    (unsigned)st->state > TLC_PROFILER_COMPLETE)
		return tlc_error__set(TLC_EINVAL, "invalid_argument",
		                      "pass a tlc_profiler_status with .size set and a TLC_PROFILER_* state",
		                      "tlc_eval_set_profiler_status: bad argument");
	tlc_profiler_status n = { sizeof n, st->state, NULL, NULL };
	if ((st->source && !(n.source = intern(ev, st->source))) ||
	    (st->message && !(n.message = intern(ev, st->message))))
		return oom();
	ev->profiler = n;
	return 0;
}

const tlc_profiler_status *tlc_eval_profiler_status(const tlc_eval *ev)
{
	return ev ? &ev->profiler : NULL;
}

int tlc_eval__set_position(tlc_eval *ev, const char *name, uint64_t line)
{
	if (name && (!ev->src_name || strcmp(ev->src_name, name) != 0) &&
	    !(ev->src_name = intern(ev, name)))
		return oom();
	ev->src_line = line;
	return 0;
}

/* ---- finish ---- */

static int by_type_flops(const void *x, const void *y)
{
	const optype *a = *(const optype *const *)x, *b = *(const optype *const *)y;
	int c = tlc_count__cmp(&b->flops, &a->flops);
	return c ? c : strcmp(a->pub.name, b->pub.name);
}

static int by_group_count(const void *x, const void *y)
{
	const ledger_group *a = *(const ledger_group *const *)x, *b = *(const ledger_group *const *)y;
	if (a->pub.count != b->pub.count)
		return a->pub.count < b->pub.count ? 1 : -1;
	int c = strcmp(a->name, b->name);
	return c ? c : strcmp(a->overload, b->overload);
}

static int publish_types(tlc_eval *ev)
{
	ev->types_sorted = tlc_alloc__calloc(ev->a, ev->ntypes + 1, sizeof *ev->types_sorted);
	if (!ev->types_sorted)
		return oom();
	for (size_t i = 0; i < ev->ntypes; i++) {
		optype *t = &ev->types[i];
		char full[512];
		snprintf(full, sizeof full, "%s%s%s", t->name, *t->overload ? "." : "", t->overload);
		char *f = tlc_count__to_str(&t->flops);
		t->pub.name = intern(ev, full);
		t->pub.flops = f ? intern(ev, f) : NULL;
		free(f);
		if (!t->pub.name || !t->pub.flops)
			return oom();
		t->pub.flops_approx = tlc_count__to_double(&t->flops);
		ev->types_sorted[i] = t;
	}
	qsort((void *)ev->types_sorted, ev->ntypes, sizeof *ev->types_sorted, by_type_flops);
	return 0;
}

static int publish_ledger(tlc_eval *ev)
{
	ev->groups_sorted = tlc_alloc__calloc(ev->a, ev->ngroups + 1, sizeof *ev->groups_sorted);
	if (!ev->groups_sorted)
		return oom();
	for (size_t i = 0; i < ev->ngroups; i++) {
		ledger_group *g = &ev->groups[i];
		char *f = tlc_count__to_str(&g->nested);
		g->pub.name = g->name;
		g->pub.overload = g->overload;
		g->pub.nested_flops = f ? intern(ev, f) : NULL;
		free(f);
		char *pf = tlc_count__to_str(&g->pflops), *pb = tlc_count__to_str(&g->pbytes);
		g->pub.counted_flops = pf ? intern(ev, pf) : NULL;
		g->pub.counted_bytes = pb ? intern(ev, pb) : NULL;
		free(pf);
		free(pb);
		if (!g->pub.nested_flops || !g->pub.counted_flops || !g->pub.counted_bytes)
			return oom();
		ev->groups_sorted[i] = g;
	}
	qsort((void *)ev->groups_sorted, ev->ngroups, sizeof *ev->groups_sorted, by_group_count);
	return 0;
}

static int by_row_id(const void *x, const void *y)
{
	const tlc_row_key *a = x, *b = y;
	return (a->id > b->id) - (a->id < b->id);
}

static int index_rows(tlc_eval *ev)
{
	ev->rows_indexed = 1;
	size_t n = ev->nrows;
	int sorted = 1;
	for (size_t i = 1; i < n && sorted; i++)
		sorted = tlc_rows__id(&ev->rows, i - 1) < tlc_rows__id(&ev->rows, i);
	if (sorted)
		return 0; /* row i is the i-th id: search the rows themselves */
	tlc_row_key *k = tlc_alloc__malloc(ev->a, n * sizeof *k);
	ev->row_index = tlc_alloc__malloc(ev->a, n * sizeof *ev->row_index);
	if (!k || !ev->row_index) {
		tlc_alloc__free(ev->a, k);
		ev->rows_indexed = 0;
		return oom();
	}
	for (size_t i = 0; i < n; i++)
		k[i] = (tlc_row_key){ tlc_rows__id(&ev->rows, i), (int64_t)i };
	qsort(k, n, sizeof *k, by_row_id);
	for (size_t i = 0; i < n; i++)
		ev->row_index[i] = (uint32_t)k[i].row; /* rows.h: fewer than 2^32 rows */
	tlc_alloc__free(ev->a, k);
	return 0;
}

/* The held record with the earliest input line names the problem. */
static int report_unresolved(tlc_eval *ev)
{
	int found = 0;
	int64_t best_parent = -1, best_id = -1;
	uint64_t best_line = 0;
	for (size_t i = 0; i < ev->pending.nslots; i++) {
		int64_t parent;
		const pending_list *pl = tlc_idmap__slot(&ev->pending, i, &parent);
		for (const tlc_held *h = pl ? pl->head : NULL; h; h = h->next) {
			uint64_t line;
			int64_t id;
			tlc_held__key(h, &line, &id);
			if (!found || line < best_line || (line == best_line && id < best_id)) {
				found = 1;
				best_line = line;
				best_id = id;
				best_parent = parent;
			}
		}
	}
	if (!found)
		return 0;
	int cycle = test_bit(ev, best_parent, 0);
	return tlc_error__set_pos(TLC_EINPUT, "oplog_parent_unknown", ev->src_name,
	                          best_line, 0,
	                          cycle ? "break the cycle: a parent must enclose its child, "
	                                  "never the other way round"
	                                : "point parent at an op id of the same file, or drop it "
	                                  "for a top-level op",
	                          cycle ? "op %lld has parent %lld, and their parents form a cycle "
	                                  "(%zu ops left unresolved)"
	                                : "op %lld names parent %lld, which is no op of the input "
	                                  "(%zu ops left unresolved)",
	                          (long long)best_id, (long long)best_parent,
	                          ev->npending);
}

int tlc_eval_finish(tlc_eval *ev)
{
	if (!ev)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass an eval",
		                      "tlc_eval_finish: NULL argument");
	if (ev->finished)
		return 0;
	int rc = report_unresolved(ev);
	if (rc == 0 && ev->cov.rows == 0)
		rc = tlc_eval__add_device_gap(ev, "no_op_records", 0, 0,
		                              TLC_EVAL__NO_OP_RECORDS_MSG,
		                              TLC_EVAL__NO_OP_RECORDS_REMEDY);
	if (rc == 0)
		fold_nested(ev);
	if (rc == 0)
		rc = publish_types(ev);
	if (rc == 0)
		rc = publish_ledger(ev);
	if (rc == 0)
		rc = index_rows(ev);
	if (rc == 0)
		ev->finished = 1;
	else {
		tlc_alloc__free(ev->a, (void *)ev->types_sorted);
		tlc_alloc__free(ev->a, (void *)ev->groups_sorted);
		ev->types_sorted = NULL;
		ev->groups_sorted = NULL;
	}
	return rc;
}

/* ---- readers of results ---- */

static int need_finished(const tlc_eval *ev)
{
	if (!ev)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass an eval",
		                      "NULL evaluation");
	if (!ev->finished)
		return tlc_error__set(TLC_ESTATE, "eval_not_finished",
		                      "call tlc_eval_finish before reading results",
		                      "results read before tlc_eval_finish");
	return 0;
}

int tlc_eval_coverage(tlc_coverage *out, const tlc_eval *ev)
{
	if (!out || !ev)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass out and eval",
		                      "tlc_eval_coverage: NULL argument");
	if (out->size < offsetof(tlc_coverage, device_records) + sizeof out->device_records)
		return tlc_error__set(TLC_EINVAL, "invalid_argument",
		                      "set out->size = sizeof(tlc_coverage) (TLC_COVERAGE_INIT)",
		                      "tlc_eval_coverage: out->size %u is smaller than the first "
		                      "tlc_coverage layout", (unsigned)out->size);
	/* fill only what the caller's (possibly older, shorter) struct holds */
	size_t n = out->size < sizeof ev->cov ? out->size : sizeof ev->cov;
	uint32_t size = out->size;
	memcpy(out, &ev->cov, n);
	out->size = size;
	return 0;
}

static int total_into(tlc_count *acc, const tlc_eval *ev, tlc_phase p, tlc_total which)
{
	const tlc_count *f = ev->tot[p];
	switch (which) {
	case TLC_TOTAL_MACS: case TLC_TOTAL_OTHER_FLOPS: case TLC_TOTAL_BYTES_READ:
	case TLC_TOTAL_BYTES_WRITTEN:
		tlc_count__add(acc, &f[(int)which]);
		return 0;
	case TLC_TOTAL_FLOPS:
		tlc_count__addmul_si(acc, &f[TLC_FIELD_MACS], 2);
		tlc_count__add(acc, &f[TLC_FIELD_OTHER_FLOPS]);
		return 0;
	case TLC_TOTAL_FLOPS_FMA1:
		if (ev->split_unknown[p])
			return tlc_error__set(TLC_EREFUSED, "flop_convention_unavailable",
			                      "use the fma=2 total (TLC_TOTAL_FLOPS); some rules give "
			                      "only a FLOP total without a MAC split",
			                      "the fma=1 view needs a known MAC/other split for every "
			                      "counted op, and the %s phase has ops without one",
			                      tlc_phase_name(p));
		tlc_count__add(acc, &f[TLC_FIELD_MACS]);
		tlc_count__add(acc, &f[TLC_FIELD_OTHER_FLOPS]);
		return 0;
	default:
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "use a TLC_TOTAL_* value",
		                      "unknown total kind %d", (int)which);
	}
}

static int total(tlc_count *acc, const tlc_eval *ev, tlc_phase p, tlc_total which)
{
	int rc = need_finished(ev);
	if (rc < 0)
		return rc;
	if ((unsigned)p >= TLC_PHASE_COUNT)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "use a TLC_PHASE_* value",
		                      "unknown phase %d", (int)p);
	return total_into(acc, ev, p, which);
}

int tlc_eval_total_str(char **out, const tlc_eval *ev, tlc_phase phase, tlc_total which)
{
	if (!out)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass out", "out is NULL");
	tlc_count acc;
	tlc_count__init(&acc);
	int rc = total(&acc, ev, phase, which);
	if (rc == 0) {
		*out = tlc_count__to_str(&acc);
		if (!*out)
			rc = oom();
	}
	tlc_count__clear(&acc);
	return rc;
}

int tlc_eval_total_u64(uint64_t *out, const tlc_eval *ev, tlc_phase phase, tlc_total which)
{
	if (!out)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass out", "out is NULL");
	tlc_count acc;
	tlc_count__init(&acc);
	int rc = total(&acc, ev, phase, which);
	if (rc == 0 && tlc_count__get_u64(out, &acc) < 0)
		rc = tlc_error__set(TLC_EOVERFLOW, "value_exceeds_u64",
		                    "read the total with tlc_eval_total_str",
		                    "the exact total does not fit in 64 bits");
	tlc_count__clear(&acc);
	return rc;
}

int tlc_eval_phase_present(const tlc_eval *ev, tlc_phase p)
{
	return ev && (unsigned)p < TLC_PHASE_COUNT && ev->present[p];
}

int tlc_eval_bytes_incomplete(const tlc_eval *ev, tlc_phase p)
{
	return ev && (unsigned)p < TLC_PHASE_COUNT && ev->bytes_unknown[p];
}

/* Contract section 3: unknown-cost ops, or device work that no op row
 * accounts for (docs/cost-contract.md, "Device work"). */
int tlc_eval_is_lower_bound(const tlc_eval *ev)
{
	return ev && (ev->cov.by_class[TLC_CLASS_UNKNOWN] > 0 || ev->ngaps > 0);
}

size_t tlc_eval_device_gap_count(const tlc_eval *ev) { return ev ? ev->ngaps : 0; }

const tlc_device_gap *tlc_eval_device_gap_at(const tlc_eval *ev, size_t i)
{
	return ev && i < ev->ngaps ? &ev->gaps[i] : NULL;
}

int tlc_eval_device_work(tlc_device_work *out, const tlc_eval *ev)
{
	if (!out || !ev || out->size < sizeof *out)
		return tlc_error__set(TLC_EINVAL, "invalid_argument",
		                      "pass a tlc_device_work with .size = sizeof(tlc_device_work)",
		                      "tlc_eval_device_work: bad argument");
	*out = ev->work;
	out->size = sizeof *out;
	return 0;
}

size_t tlc_eval_ledger_count(const tlc_eval *ev) { return ev && ev->finished ? ev->ngroups : 0; }

/* The remedy of a ledger entry is made on its first read, and kept (the
 * eval is the cache's owner, so the const is cast away here only). */
const tlc_ledger_entry *tlc_eval_ledger_at(const tlc_eval *ev, size_t i)
{
	if (!ev || !ev->finished || i >= ev->ngroups)
		return NULL;
	ledger_group *g = (ledger_group *)ev->groups_sorted[i];
	if (!g->pub.remedy)
		g->pub.remedy = remedy_for((tlc_eval *)ev, g->name, g->overload, g->pub.reason);
	if (!g->pub.remedy) /* out of memory: a shorter remedy, never an empty one */
		g->pub.remedy = "register a rule for this op in a plugin (docs/plugin-guide.md) or "
		                "write a rule file (docs/rule-files.md)";
	return &g->pub;
}

size_t tlc_eval_optype_count(const tlc_eval *ev) { return ev && ev->finished ? ev->ntypes : 0; }

const tlc_optype_row *tlc_eval_optype_at(const tlc_eval *ev, size_t i)
{
	if (!ev || !ev->finished || i >= ev->ntypes)
		return NULL;
	return &ev->types_sorted[i]->pub;
}

size_t tlc_eval_op_count(const tlc_eval *ev) { return ev ? ev->nrows : 0; }

int tlc_eval_op_get(const tlc_eval *ev, size_t i, tlc_op_row *out)
{
	if (!ev || !out || out->size < offsetof(tlc_op_row, kernel_time_ns) + sizeof out->kernel_time_ns ||
	    i >= ev->nrows)
		return tlc_error__set(TLC_EINVAL, "invalid_argument",
		                      "pass a row index below tlc_eval_op_count and a tlc_op_row with "
		                      ".size = sizeof(tlc_op_row) (TLC_OP_ROW_INIT)",
		                      "tlc_eval_op_get: bad argument");
	uint32_t size = out->size;
	if (size >= sizeof *out) {
		tlc_rows__get(&ev->rows, i, out);
		tlc_overlay__fill(ev->overlay, i, out);
	} else {
		tlc_op_row full;
		tlc_rows__get(&ev->rows, i, &full);
		tlc_overlay__fill(ev->overlay, i, &full);
		memcpy(out, &full, size);
	}
	out->size = size;
	return 0;
}

const tlc_rows *tlc_eval__rows(const tlc_eval *ev) { return &ev->rows; }

tlc_op_row tlc_eval__row(const tlc_eval *ev, size_t i)
{
	return tlc_eval__row_with(ev, ev->overlay, i);
}

tlc_op_row tlc_eval__row_with(const tlc_eval *ev, const tlc_overlay *ov, size_t i)
{
	tlc_op_row r;
	tlc_rows__get(&ev->rows, i, &r);
	tlc_overlay__fill(ov, i, &r);
	return r;
}

void tlc_eval__attach_overlay(tlc_eval *ev, const tlc_overlay *ov) { ev->overlay = ov; }
const tlc_overlay *tlc_eval__overlay(const tlc_eval *ev) { return ev->overlay; }

/* ---- semi-private ---- */

const tlc_allocator *tlc_eval__allocator(const tlc_eval *ev) { return ev->a; }
size_t tlc_eval__held_count(const tlc_eval *ev) { return ev->npending; }

uint64_t tlc_eval__held_bytes(const tlc_eval *ev)
{
	return ev->held_bytes + (uint64_t)ev->pending.nslots * ev->pending.stride;
}
tlc_engine *tlc_eval__engine(const tlc_eval *ev) { return ev->eng; }
tlc_intern *tlc_eval__intern(tlc_eval *ev) { return ev->intern; }
size_t tlc_eval__device_count(const tlc_eval *ev) { return ev->dev.n; }
const tlc_devs *tlc_eval__devs(const tlc_eval *ev) { return &ev->dev; }

int tlc_eval__mark_last_device(tlc_eval *ev, unsigned marks)
{
	return tlc_devs__mark_last(&ev->dev, marks);
}

unsigned tlc_eval__device_marks(const tlc_eval *ev, size_t i)
{
	return tlc_devs__kind(&ev->dev, i)->marks;
}

tlc_device_record tlc_eval__device(const tlc_eval *ev, size_t i)
{
	tlc_device_record r;
	tlc_devs__get(&ev->dev, i, &r);
	return r;
}

size_t tlc_eval_device_count(const tlc_eval *ev) { return ev ? ev->dev.n : 0; }

int tlc_eval_device_get(const tlc_eval *ev, size_t i, tlc_device_record *out)
{
	if (!ev || !out || out->size < offsetof(tlc_device_record, bytes) + sizeof out->bytes ||
	    i >= ev->dev.n)
		return tlc_error__set(TLC_EINVAL, "invalid_argument",
		                      "pass a record index below tlc_eval_device_count and a "
		                      "tlc_device_record with .size = sizeof(tlc_device_record)",
		                      "tlc_eval_device_get: bad argument");
	uint32_t size = out->size;
	tlc_device_record full;
	tlc_devs__get(&ev->dev, i, &full);
	memcpy(out, &full, size < sizeof full ? size : sizeof full);
	out->size = size;
	return 0;
}


int tlc_eval__finished(const tlc_eval *ev) { return ev->finished; }
tlc_comm_acc *tlc_eval__comm(const tlc_eval *ev) { return ev->comm; }

int tlc_eval__add_device_gap(tlc_eval *ev, const char *cause, uint64_t records,
                             int64_t device_ns, const char *message, const char *remedy)
{
	for (size_t i = 0; i < ev->ngaps; i++)
		if (strcmp(ev->gaps[i].cause, cause) == 0)
			return 0; /* one line per cause: the first reader's wins */
	if (ev->ngaps == TLC_EVAL_MAX_GAPS)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "report at most one gap per cause",
		                      "too many device-work causes");
	tlc_device_gap g = { intern(ev, cause), records, device_ns, intern(ev, message),
	                     intern(ev, remedy) };
	if (!g.cause || !g.message || !g.remedy)
		return oom();
	ev->gaps[ev->ngaps++] = g;
	return 0;
}

void tlc_eval__set_device_work(tlc_eval *ev, const tlc_device_work *w)
{
	ev->work = *w;
	ev->work.size = sizeof ev->work;
}

int64_t tlc_eval__row_of_id(const tlc_eval *ev, int64_t id)
{
	const uint32_t *ix = ev->row_index;
	size_t n = ev->rows_indexed ? ev->nrows : 0, lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (tlc_rows__id(&ev->rows, ix ? ix[mid] : mid) < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo >= n)
		return -1;
	size_t row = ix ? ix[lo] : lo;
	return tlc_rows__id(&ev->rows, row) == id ? (int64_t)row : -1;
}

void tlc_eval__set_pairing(tlc_eval *ev, tlc_eval__paired *v, size_t n, int64_t *ids,
                           size_t nids, const tlc_capture_pair_summary *sum)
{
	tlc_alloc__free(ev->a, ev->paired);
	tlc_alloc__free(ev->a, ev->pair_ids);
	ev->paired = v;
	ev->npaired = n;
	ev->pair_ids = ids;
	ev->npair_ids = nids;
	ev->pairing = *sum;
	ev->has_pairing = 1;
}

const tlc_eval__paired *tlc_eval__pairing_of(const tlc_eval *ev, size_t rec)
{
	size_t lo = 0, hi = ev ? ev->npaired : 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ev->paired[mid].rec < rec)
			lo = mid + 1;
		else
			hi = mid;
	}
	return ev && lo < ev->npaired && ev->paired[lo].rec == rec ? &ev->paired[lo] : NULL;
}

const tlc_capture_pair_summary *tlc_eval__pairing_summary(const tlc_eval *ev)
{
	return ev && ev->has_pairing ? &ev->pairing : NULL;
}

int tlc_eval__paired_device_work(tlc_eval *ev, uint64_t kernels, int64_t ns)
{
	for (size_t i = 0; kernels && i < ev->ngaps; i++) {
		tlc_device_gap *g = &ev->gaps[i];
		if (strcmp(g->cause, "graph_replay") != 0)
			continue;
		uint64_t k = kernels < g->records ? kernels : g->records;
		int64_t t = ns < g->device_ns ? ns : g->device_ns;
		g->records -= k;
		g->device_ns -= t;
		ev->work.without_op -= k <= ev->work.without_op ? k : ev->work.without_op;
		ev->work.without_op_ns -= t <= ev->work.without_op_ns ? t : ev->work.without_op_ns;
		ev->work.kernels_in_ops += k;
		if (g->records == 0) {
			memmove(g, g + 1, (ev->ngaps - i - 1) * sizeof *g);
			ev->ngaps--;
			return 0;
		}
		char msg[200];
		snprintf(msg, sizeof msg, "%llu kernels from graph replay (cudaGraphLaunch/hipGraphLaunch) "
		         "have no op rows (capture pairing placed the others)",
		         (unsigned long long)g->records);
		const char *m = intern(ev, msg);
		if (!m)
			return oom();
		g->message = m;
		return 0;
	}
	return 0;
}

const int64_t *tlc_eval__pairing_ids(const tlc_eval *ev, size_t *n)
{
	*n = ev ? ev->npair_ids : 0;
	return ev ? ev->pair_ids : NULL;
}

/* ---- eval: where each op's record lies in the input (tlcost annotate) ---- */

void tlc_eval__want_source_keys(tlc_eval *ev)
{
	ev->want_src_keys = 1;
}

int tlc_eval__source_keys_wanted(const tlc_eval *ev)
{
	return ev->want_src_keys;
}

int tlc_eval__add_source_key(tlc_eval *ev, int64_t id, uint64_t event, int64_t pid)
{
	if (tlc_alloc__grow(ev->a, (void **)&ev->src_keys, &ev->src_key_cap, ev->nsrc_keys + 1,
	                    sizeof *ev->src_keys) < 0)
		return oom();
	tlc_eval__source_key *k = &ev->src_keys[ev->nsrc_keys++];
	k->id = id;
	k->event = event;
	k->pid = pid;
	return 0;
}

const tlc_eval__source_key *tlc_eval__source_keys(const tlc_eval *ev, size_t *n)
{
	*n = ev->nsrc_keys;
	return ev->src_keys;
}

/* the public getter of the pairing summary (include/tlcost/capture_pair.h):
 * here, beside the summary it reads, so every layer above eval may call it */
int tlc_capture_pair_summary_get(const tlc_eval *ev, tlc_capture_pair_summary *out)
{
	if (!ev || !out || out->size < sizeof(uint32_t) + sizeof(uint64_t))
		return tlc_error__set(TLC_EINVAL, "invalid_argument",
		                      "pass the eval and a summary with its size set "
		                      "(TLC_CAPTURE_PAIR_SUMMARY_INIT)",
		                      "tlc_capture_pair_summary_get: NULL or short argument");
	const tlc_capture_pair_summary *s = tlc_eval__pairing_summary(ev);
	uint32_t size = out->size;
	size_t n = size < sizeof *out ? size : sizeof *out;
	tlc_capture_pair_summary z;
	memset(&z, 0, sizeof z);
	memcpy(out, s ? s : &z, n);
	out->size = size;
	return s ? 1 : 0;
}
