/* The module cost tree (contract section 5): one node per module call, the
 * innermost module owning its ops; self and subtree FLOPs exact; strict
 * folding of identical sibling blocks; --top and --depth remainder rows that
 * carry what they hide, so the self column always adds up to the total. */
#include <stdlib.h>
#include <string.h>
#include "reports.h"
#include "eval.h"
#include "hindex.h"
#include "join.h"
#include "overlay.h"
#include "names.h"

/* Deepest node a tree shows (root = 0). Each row carries its full module
 * path, so rows cost depth x path length: beyond this depth the tree is
 * refused (tree_too_deep) unless --depth hides the deeper calls. Nodes keep
 * only their own segment, so building stays linear in the input at any
 * depth (issue 23, finding 2). */
#define TREE_MAX_DEPTH 256

typedef struct tnode {
	const char *seg;    /* own path segment (arena) */
	size_t seglen;
	const char *type;   /* interned by the eval, or NULL */
	int64_t call;
	int64_t op_id;      /* id of the first op that opened the node */
	size_t parent;
	size_t *kids;
	size_t nkids, kcap;
	tlc_count self, sub;
	uint64_t self_ops, self_unknown, sub_unknown, sub_nodes;
	int64_t self_k, sub_k; /* costed kernel ns (a join's overlay) */
	uint64_t ops_hash;  /* order-dependent hash of the self ops' names */
	const char *sig;    /* structure+cost signature, interned: equal iff same pointer */
} tnode;

struct tlc_tree {
	const tlc_allocator *a;
	const tlc_eval *ev;
	tlc_tree_options opts;
	tlc_arena ar;
	tlc_intern *sigs;   /* signatures (children named by their interned pointer) */
	tnode *nodes;
	size_t nnodes, ncap;
	size_t *stack;
	size_t nstack, scap;
	size_t max_depth;   /* of the deepest node (root = 0) */
	size_t deepest;     /* that node */
	tlc_tree_row *rows;
	size_t nrows, rcap;
	tlc_count total, hidden;
	uint64_t hidden_calls;
	const char *total_s, *hidden_s;
	const tlc_overlay *ov;  /* the join's per-row times, or NULL */
	tlc_tree_device dev;
};

/* ---- building the node tree ---- */

static int add_node(tlc_tree *t, size_t parent, const char *seg, size_t len, int64_t call,
                    int64_t op_id, size_t *out)
{
	if (tlc_alloc__grow(t->a, (void **)&t->nodes, &t->ncap, t->nnodes + 1, sizeof *t->nodes))
		return TLC_ENOMEM;
	tnode *n = &t->nodes[t->nnodes];
	memset(n, 0, sizeof *n);
	n->seg = tlc_arena__strndup(&t->ar, seg, len);
	if (!n->seg)
		return tlc_error__oom();
	n->seglen = len;
	n->call = call;
	n->op_id = op_id;
	n->parent = parent;
	tlc_count__init(&n->self);
	tlc_count__init(&n->sub);
	*out = t->nnodes++;
	if (t->nnodes == 1)
		return 0;
	tnode *p = &t->nodes[parent];
	if (tlc_alloc__grow(t->a, (void **)&p->kids, &p->kcap, p->nkids + 1, sizeof *p->kids))
		return TLC_ENOMEM;
	p->kids[p->nkids++] = *out;
	return 0;
}

static int stack_set(tlc_tree *t, size_t d, size_t node)
{
	if (tlc_alloc__grow(t->a, (void **)&t->stack, &t->scap, d + 1, sizeof *t->stack))
		return TLC_ENOMEM;
	t->stack[d] = node;
	t->nstack = d + 1;
	return 0;
}

/* The open node at depth d continues this path when it has the same
 * segment (its ancestors are the stack below it, already matched). */
static int reusable(const tlc_tree *t, size_t d, const char *seg, size_t len, int last,
                    int64_t call)
{
	if (d >= t->nstack)
		return 0;
	const tnode *n = &t->nodes[t->stack[d]];
	if (n->seglen != len || memcmp(n->seg, seg, len) != 0)
		return 0;
	return !last || call < 0 || n->call < 0 || n->call == call;
}

/* Finds or opens the node of the row's module call, keeping the stack of
 * open module calls (rows come in call order). */
static int node_for(tlc_tree *t, const tlc_op_row *r, size_t *out)
{
	const char *path = r->module ? r->module : "";
	size_t cur = 0, d = 0;
	int64_t call = r->module_call;
	for (const char *p = path; *path; d++) {
		const char *dot = strchr(p, '.');
		size_t len = dot ? (size_t)(dot - p) : strlen(p);
		int last = dot == NULL;
		if (reusable(t, d, p, len, last, call)) {
			cur = t->stack[d];
		} else {
			int rc = add_node(t, cur, p, len, last ? call : -1, r->id, &cur);
			if (rc || stack_set(t, d, cur))
				return rc ? rc : TLC_ENOMEM;
		}
		if (last && call >= 0)
			t->nodes[cur].call = call;
		if (!dot)
			break;
		p = dot + 1;
	}
	t->nstack = d + (*path ? 1 : 0);
	if (t->nstack > t->max_depth) {
		t->max_depth = t->nstack;
		t->deepest = cur;
	}
	if (r->module_type && *r->module_type)
		t->nodes[cur].type = r->module_type;
	*out = cur;
	return 0;
}

static int add_rows(tlc_tree *t)
{
	size_t root;
	int rc = add_node(t, 0, "", 0, -1, -1, &root);
	for (size_t i = 0; rc == 0 && i < tlc_eval_op_count(t->ev); i++) {
		tlc_op_row r_ = tlc_eval__row(t->ev, i);
		const tlc_op_row *r = &r_;
		size_t n;
		if (r->phase != t->opts.phase)
			continue;
		int64_t k = tlc_overlay__costed_kernel_ns(t->ov, i);
		if (r->cls == TLC_CLASS_NOT_APPLICABLE) { /* a wrapper, or a counted op's child */
			t->dev.not_op_ns += k;
			continue;
		}
		rc = node_for(t, r, &n);
		if (rc)
			break;
		t->nodes[n].self_ops++;
		t->nodes[n].ops_hash = t->nodes[n].ops_hash * 1099511628211u +
		                       tlc_hash__bytes(r->name, strlen(r->name));
		if (r->cls == TLC_CLASS_UNKNOWN)
			t->nodes[n].self_unknown++;
		tlc_rep__add_flops(&t->nodes[n].self, r);
		t->nodes[n].self_k += k;
	}
	return rc;
}

/* Children are always created after their parent: a reverse sweep sums
 * subtrees and builds signatures bottom-up. */
static int sign_node(tlc_tree *t, tnode *n)
{
	tlc_sb sb;
	tlc_sb__init(&sb, t->a);
	char *self = tlc_count__to_str(&n->self);
	tlc_sb__printf(&sb, "%s|%s|%llu|%llu|%llx{", n->type ? n->type : "", self ? self : "",
	               (unsigned long long)n->self_ops, (unsigned long long)n->self_unknown,
	               (unsigned long long)n->ops_hash);
	free(self);
	/* a child is named by its segment and its interned signature's address:
	 * equal signatures are one pointer, so the text stays as short as the
	 * node's own data however deep the subtree */
	for (size_t k = 0; k < n->nkids; k++) {
		const tnode *c = &t->nodes[n->kids[k]];
		tlc_sb__printf(&sb, "%.*s:%p;", (int)tlc_name__counter_stem(c->seg, c->seglen), c->seg,
		               (const void *)c->sig);
	}
	tlc_sb__putc(&sb, '}');
	const char *s = tlc_sb__str(&sb);
	n->sig = s ? tlc_intern__get(t->sigs, s, strlen(s)) : NULL;
	tlc_sb__free(&sb);
	return n->sig ? 0 : tlc_error__oom();
}

static int sum_up(tlc_tree *t)
{
	for (size_t i = t->nnodes; i-- > 0;) {
		tnode *n = &t->nodes[i];
		tlc_count__add(&n->sub, &n->self);
		n->sub_k += n->self_k;
		n->sub_unknown += n->self_unknown;
		n->sub_nodes += 1;
		int rc = t->opts.no_fold ? 0 : sign_node(t, n);
		if (rc)
			return rc;
		if (i == 0)
			break;
		tnode *p = &t->nodes[n->parent];
		tlc_count__add(&p->sub, &n->sub);
		p->sub_k += n->sub_k;
		p->sub_unknown += n->sub_unknown;
		p->sub_nodes += n->sub_nodes;
	}
	return 0;
}

/* ---- rows ---- */

typedef struct group {
	size_t first, n;   /* index into kids, run length */
} group;

static tlc_tree_row *new_row(tlc_tree *t)
{
	if (tlc_alloc__grow(t->a, (void **)&t->rows, &t->rcap, t->nrows + 1, sizeof *t->rows))
		return NULL;
	tlc_tree_row *r = &t->rows[t->nrows++];
	memset(r, 0, sizeof *r);
	r->call = -1;
	r->repeat = 1;
	r->module_type = "";
	return r;
}

static double pct(const tlc_tree *t, const tlc_count *c)
{
	double tot = tlc_count__to_double(&t->total);
	return tot > 0 ? 100.0 * tlc_count__to_double(c) / tot : 0.0;
}

/* Fills the FLOP columns of r with self*mult and sub*mult. */
static int row_values(tlc_tree *t, tlc_tree_row *r, const tlc_count *self,
                      const tlc_count *sub, int64_t mult)
{
	tlc_count s, u;
	tlc_count__init(&s);
	tlc_count__init(&u);
	tlc_count__addmul_si(&s, self, mult);
	tlc_count__addmul_si(&u, sub, mult);
	r->self_flops = tlc_rep__count_dup(&t->ar, &s);
	r->subtree_flops = tlc_rep__count_dup(&t->ar, &u);
	r->self_pct = pct(t, &s);
	r->subtree_pct = pct(t, &u);
	tlc_count__clear(&s);
	tlc_count__clear(&u);
	return r->self_flops && r->subtree_flops ? 0 : tlc_error__oom();
}

/* The node's full path: its parent's, a dot, its segment (arena). Rows are
 * at most TREE_MAX_DEPTH deep, so paths cost at most that many times the
 * longest module path. */
static const char *node_path(tlc_tree *t, const char *ppath, const tnode *n)
{
	if (!*ppath)
		return tlc_arena__strndup(&t->ar, n->seg, n->seglen);
	size_t plen = strlen(ppath);
	char *p = tlc_arena__alloc(&t->ar, plen + n->seglen + 2);
	if (!p)
		return NULL;
	memcpy(p, ppath, plen);
	p[plen] = '.';
	memcpy(p + plen + 1, n->seg, n->seglen);
	p[plen + 1 + n->seglen] = '\0';
	return p;
}

/* Two segments that are instances of one class: the same name before an
 * instance counter, which both end in. */
static int same_stem(const tnode *a, const tnode *b)
{
	size_t d = tlc_name__counter_stem(a->seg, a->seglen);
	return d < a->seglen && d == tlc_name__counter_stem(b->seg, b->seglen) &&
	       memcmp(a->seg, b->seg, d) == 0;
}

static int node_row(tlc_tree *t, const tnode *n, const tnode *last, const char *ppath,
                    size_t depth, int64_t mult, uint64_t repeat, const size_t *cov)
{
	tlc_tree_row *r = new_row(t);
	if (!r)
		return TLC_ENOMEM;
	r->has_device_time = t->dev.present;
	for (int64_t c = 0; c < mult; c++) { /* exact: every block's own time */
		r->self_kernel_ns += t->nodes[cov[c]].self_k;
		r->subtree_kernel_ns += t->nodes[cov[c]].sub_k;
	}
	r->kind = TLC_TREE_NODE;
	r->depth = depth;
	r->path = depth ? node_path(t, ppath, n) : "";
	r->last_path = last == n ? r->path : node_path(t, ppath, last);
	if (!r->path || !r->last_path)
		return tlc_error__oom();
	r->module_type = n->type ? n->type : "";
	r->call = n->call;
	r->repeat = repeat;
	r->self_ops = n->self_ops * (uint64_t)mult;
	r->self_unknown = n->self_unknown * (uint64_t)mult;
	r->subtree_unknown = n->sub_unknown * (uint64_t)mult;
	char buf[512];
	if (depth == 0)
		snprintf(buf, sizeof buf, "(root)");
	else if (repeat > 1 && n->seglen == last->seglen && memcmp(n->seg, last->seg, n->seglen) == 0)
		/* one module called again and again: Owlv2ForObjectDetection_0 (x5) */
		snprintf(buf, sizeof buf, "%s (x%llu)", n->seg, (unsigned long long)repeat);
	else if (repeat > 1 && same_stem(n, last))
		/* instances of one class: TransformerBlock_1..35 (x35) */
		snprintf(buf, sizeof buf, "%s..%s (x%llu)", n->seg,
		         last->seg + tlc_name__counter_stem(last->seg, last->seglen),
		         (unsigned long long)repeat);
	else if (repeat > 1)
		snprintf(buf, sizeof buf, "%s..%s (x%llu)", n->seg, last->seg,
		         (unsigned long long)repeat);
	else if (n->call > 0)
		snprintf(buf, sizeof buf, "%s#%lld", n->seg, (long long)n->call);
	else
		snprintf(buf, sizeof buf, "%s", n->seg);
	if (depth > 0 && repeat == 1 && mult > 1) /* inside a folded block: values cover all */
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), " (x%lld)", (long long)mult);
	r->label = tlc_arena__strdup(&t->ar, buf);
	if (!r->label)
		return tlc_error__oom();
	return row_values(t, r, &n->self, &n->sub, mult);
}

static int remainder_row(tlc_tree *t, tlc_tree_row_kind kind, size_t depth, uint64_t calls,
                         const tlc_count *flops, uint64_t unknown, size_t below, int64_t kern)
{
	tlc_tree_row *r = new_row(t);
	if (!r)
		return TLC_ENOMEM;
	r->has_device_time = t->dev.present;
	r->self_kernel_ns = r->subtree_kernel_ns = kern;
	t->dev.hidden_ns += kern;
	char buf[96];
	if (kind == TLC_TREE_MORE)
		snprintf(buf, sizeof buf, "(+ %llu more call%s)", (unsigned long long)calls,
		         calls == 1 ? "" : "s");
	else
		snprintf(buf, sizeof buf, "(+ %llu call%s below depth %zu)", (unsigned long long)calls,
		         calls == 1 ? "" : "s", below);
	r->kind = kind;
	r->depth = depth;
	r->path = r->last_path = "";
	r->hidden_calls = calls;
	r->self_unknown = r->subtree_unknown = unknown;
	r->label = tlc_arena__strdup(&t->ar, buf);
	tlc_count__add(&t->hidden, flops);
	t->hidden_calls += calls;
	if (!r->label)
		return tlc_error__oom();
	return row_values(t, r, flops, flops, 1);
}

static int same_block(const tlc_tree *t, size_t a, size_t b)
{
	const tnode *x = &t->nodes[a], *y = &t->nodes[b];
	return x->sig && x->sig == y->sig;
}

static size_t make_groups(const tlc_tree *t, const tnode *n, group *g)
{
	size_t ng = 0;
	for (size_t k = 0; k < n->nkids; k++) {
		if (ng && !t->opts.no_fold &&
		    same_block(t, n->kids[g[ng - 1].first], n->kids[k])) {
			g[ng - 1].n++;
			continue;
		}
		g[ng].first = k;
		g[ng].n = 1;
		ng++;
	}
	return ng;
}

/* Marks the top-K groups by subtree FLOPs (ties: earlier first). */
static void pick_top(const tlc_tree *t, const tnode *n, const group *g, size_t ng,
                     unsigned char *keep)
{
	size_t k = t->opts.top;
	for (size_t i = 0; i < ng; i++)
		keep[i] = k == 0 || ng <= k;
	if (k == 0 || ng <= k)
		return;
	for (size_t picked = 0; picked < k; picked++) {
		size_t best = ng;
		tlc_count vb, vi;
		tlc_count__init(&vb);
		for (size_t i = 0; i < ng; i++) {
			if (keep[i])
				continue;
			tlc_count__init(&vi);
			tlc_count__addmul_si(&vi, &t->nodes[n->kids[g[i].first]].sub, (int64_t)g[i].n);
			if (best == ng || tlc_count__cmp(&vi, &vb) > 0) {
				best = i;
				tlc_count__set(&vb, &vi);
			}
			tlc_count__clear(&vi);
		}
		tlc_count__clear(&vb);
		keep[best] = 1;
	}
}

static int emit(tlc_tree *t, const size_t *cov, size_t last, const char *ppath, size_t depth,
                int64_t mult, uint64_t repeat);

/* cov: the mult nodes a row covers (the first block's node, then its
 * twins in the other folded blocks: identical signatures, so identical
 * shapes and their kids correspond by position). */
static int emit_hidden(tlc_tree *t, const tnode *n, const group *g, size_t ng,
                       const unsigned char *keep, size_t depth, int64_t mult, const size_t *cov)
{
	tlc_count f;
	tlc_count__init(&f);
	uint64_t calls = 0, unk = 0;
	int64_t kern = 0;
	for (size_t i = 0; i < ng; i++) {
		if (keep[i])
			continue;
		const tnode *c = &t->nodes[n->kids[g[i].first]];
		tlc_count__addmul_si(&f, &c->sub, mult * (int64_t)g[i].n);
		calls += (uint64_t)mult * g[i].n;
		unk += c->sub_unknown * (uint64_t)mult * g[i].n;
		for (int64_t tw = 0; tw < mult; tw++)
			for (size_t s = g[i].first; s < g[i].first + g[i].n; s++)
				kern += t->nodes[t->nodes[cov[tw]].kids[s]].sub_k;
	}
	int rc = calls ? remainder_row(t, TLC_TREE_MORE, depth + 1, calls, &f, unk, 0, kern) : 0;
	tlc_count__clear(&f);
	return rc;
}

static int emit_kids(tlc_tree *t, const tnode *n, const char *path, size_t depth, int64_t mult,
                     const size_t *cov)
{
	group *g = tlc_alloc__calloc(t->a, n->nkids + 1, sizeof *g);
	unsigned char *keep = tlc_alloc__calloc(t->a, n->nkids + 1, 1);
	int rc = g && keep ? 0 : tlc_error__oom();
	size_t ng = rc ? 0 : make_groups(t, n, g);
	if (!rc)
		pick_top(t, n, g, ng, keep);
	size_t *kc = NULL;
	for (size_t i = 0; rc == 0 && i < ng; i++) {
		if (!keep[i])
			continue;
		size_t nk = (size_t)mult * g[i].n, at = 0;
		kc = tlc_alloc__malloc(t->a, nk * sizeof *kc);
		if (!kc) {
			rc = tlc_error__oom();
			break;
		}
		for (int64_t tw = 0; tw < mult; tw++)
			for (size_t s = g[i].first; s < g[i].first + g[i].n; s++)
				kc[at++] = t->nodes[cov[tw]].kids[s];
		rc = emit(t, kc, n->kids[g[i].first + g[i].n - 1], path, depth + 1,
		          mult * (int64_t)g[i].n, g[i].n);
		tlc_alloc__free(t->a, kc);
	}
	if (rc == 0)
		rc = emit_hidden(t, n, g, ng, keep, depth, mult, cov);
	tlc_alloc__free(t->a, g);
	tlc_alloc__free(t->a, keep);
	return rc;
}

/* Recursion depth is bounded by TREE_MAX_DEPTH (checked before: too_deep). */
static int emit(tlc_tree *t, const size_t *cov, size_t last, const char *ppath, size_t depth,
                int64_t mult, uint64_t repeat)
{
	const tnode *n = &t->nodes[cov[0]];
	int rc = node_row(t, n, &t->nodes[last], ppath, depth, mult, repeat, cov);
	if (rc || n->nkids == 0)
		return rc;
	const char *path = t->rows[t->nrows - 1].path;
	if (t->opts.depth && depth >= t->opts.depth) {
		tlc_count f;
		tlc_count__init(&f);
		tlc_count__addmul_si(&f, &n->sub, mult);
		tlc_count__addmul_si(&f, &n->self, -mult);
		int64_t kern = 0;
		for (int64_t tw = 0; tw < mult; tw++)
			kern += t->nodes[cov[tw]].sub_k - t->nodes[cov[tw]].self_k;
		rc = remainder_row(t, TLC_TREE_BELOW, depth + 1, (n->sub_nodes - 1) * (uint64_t)mult,
		                   &f, (n->sub_unknown - n->self_unknown) * (uint64_t)mult,
		                   t->opts.depth, kern);
		tlc_count__clear(&f);
		return rc;
	}
	return emit_kids(t, n, path, depth, mult, cov);
}

/* Rows would be deeper than a tree shows: refused before any is made. */
static int check_depth(const tlc_tree *t)
{
	size_t shown = t->opts.depth && t->opts.depth < t->max_depth ? t->opts.depth
	                                                             : t->max_depth;
	if (shown <= TREE_MAX_DEPTH)
		return 0;
	const tnode *n = &t->nodes[t->deepest];
	return tlc_error__set(TLC_EINPUT, "tree_too_deep",
	                      "pass --depth D (1 to 256; tlc_tree_options.depth) to show D "
	                      "levels, the deeper calls folded into `(+ N calls below depth D)` "
	                      "rows; a real model's module path is far shallower, so check the "
	                      "input's module paths",
	                      "the module tree is %zu levels deep (op id %lld, ending in module "
	                      "'%.64s'), more than the %d a tree shows", t->max_depth,
	                      (long long)n->op_id, n->seg, TREE_MAX_DEPTH);
}

int tlc_tree_build(tlc_tree **out, const tlc_eval *ev, const tlc_tree_options *opts)
{
	return tlc_tree_build_joined(out, ev, NULL, opts);
}

int tlc_tree_build_joined(tlc_tree **out, const tlc_eval *ev, const tlc_join *j,
                          const tlc_tree_options *opts)
{
	int rc = tlc_rep__check_eval(ev);
	if (rc)
		return rc;
	const tlc_allocator *a = tlc_eval__allocator(ev);
	tlc_tree *t = tlc_alloc__calloc(a, 1, sizeof *t);
	if (!t)
		return tlc_error__oom();
	t->a = a;
	t->ev = ev;
	if (opts)
		memcpy(&t->opts, opts, opts->size && opts->size < sizeof t->opts ? opts->size
		                                                                 : sizeof t->opts);
	if ((unsigned)t->opts.phase >= TLC_PHASE_COUNT)
		t->opts.phase = TLC_PHASE_FORWARD;
	tlc_arena__init(&t->ar, a, 8192);
	tlc_count__init(&t->total);
	tlc_count__init(&t->hidden);
	t->dev = (tlc_tree_device)TLC_TREE_DEVICE_INIT;
	t->ov = j ? tlc_join__overlay(j) : tlc_eval__overlay(ev);
	if (t->ov && (!t->ov->ready || !t->ov->available))
		t->ov = NULL;
	t->dev.present = t->ov != NULL;
	rc = tlc_intern__new(&t->sigs, a);
	if (!rc)
		rc = add_rows(t);
	if (!rc)
		rc = check_depth(t);
	if (!rc)
		rc = sum_up(t);
	if (!rc) {
		tlc_count__set(&t->total, &t->nodes[0].sub);
		t->dev.rows_ns = t->nodes[0].sub_k;
		size_t root = 0;
		rc = emit(t, &root, 0, "", 0, 1, 1);
	}
	if (!rc) {
		t->total_s = tlc_rep__count_dup(&t->ar, &t->total);
		t->hidden_s = tlc_rep__count_dup(&t->ar, &t->hidden);
		rc = t->total_s && t->hidden_s ? 0 : tlc_error__oom();
	}
	if (rc) {
		tlc_tree_free(t);
		return rc;
	}
	*out = t;
	return 0;
}

void tlc_tree_free(tlc_tree *tree)
{
	if (!tree)
		return;
	for (size_t i = 0; i < tree->nnodes; i++) {
		tlc_count__clear(&tree->nodes[i].self);
		tlc_count__clear(&tree->nodes[i].sub);
		tlc_alloc__free(tree->a, tree->nodes[i].kids);
	}
	tlc_intern__free(tree->sigs);
	tlc_count__clear(&tree->total);
	tlc_count__clear(&tree->hidden);
	tlc_alloc__free(tree->a, tree->nodes);
	tlc_alloc__free(tree->a, tree->stack);
	tlc_alloc__free(tree->a, tree->rows);
	tlc_arena__free(&tree->ar);
	tlc_alloc__free(tree->a, tree);
}

size_t tlc_tree_row_count(const tlc_tree *tree) { return tree ? tree->nrows : 0; }

const tlc_tree_row *tlc_tree_row_at(const tlc_tree *tree, size_t i)
{
	return tree && i < tree->nrows ? &tree->rows[i] : NULL;
}

const char *tlc_tree_total_flops(const tlc_tree *tree) { return tree ? tree->total_s : NULL; }
const char *tlc_tree_hidden_flops(const tlc_tree *tree) { return tree ? tree->hidden_s : NULL; }
uint64_t tlc_tree_hidden_calls(const tlc_tree *tree) { return tree ? tree->hidden_calls : 0; }

const tlc_eval *tlc_tree__eval(const tlc_tree *tree) { return tree->ev; }

int tlc_tree_device_get(const tlc_tree *tree, tlc_tree_device *out)
{
	if (!tree || !out || out->size < sizeof(uint32_t) + sizeof(int))
		return tlc_error__set(TLC_EINVAL, "invalid_argument",
		                      "pass a tree and a tlc_tree_device with .size set "
		                      "(TLC_TREE_DEVICE_INIT)", "tlc_tree_device_get: bad argument");
	uint32_t size = out->size;
	memcpy(out, &tree->dev, size < sizeof tree->dev ? size : sizeof tree->dev);
	out->size = size;
	return 0;
}
const tlc_tree_options *tlc_tree__options(const tlc_tree *tree) { return &tree->opts; }
