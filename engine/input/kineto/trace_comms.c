/* Collectives in Kineto traces: record_param_comms fields, nccl:*
 * annotations and distributedInfo (engine/input/kineto/trace_comms.h,
 * docs/collectives.md "What is read"). */
#include <stdlib.h>
#include <string.h>
#include "eval.h"
#include "trace.h"

void tlc_trace_comms__init(tlc_trace_comms *c, const tlc_allocator *a)
{
	memset(c, 0, sizeof *c);
	c->a = a;
	c->key = -1;
	c->rank = c->world_size = -1;
}

void tlc_trace_comms__free(tlc_trace_comms *c)
{
	tlc_alloc__free(c->a, c->rows);
	tlc_alloc__free(c->a, c->annots);
	tlc_alloc__free(c->a, c->kernels);
	memset(c, 0, sizeof *c);
}

void tlc_trace_comms__begin(tlc_trace_comms *c)
{
	if (c->cur_written) { /* (most events hold no comm field: cur is still clear) */
		memset(&c->cur, 0, sizeof c->cur);
		c->cur_written = 0;
	}
	c->key = -1;
}

/* ---- record_param_comms fields ------------------------------------- */

enum {
	K_NAME = 0, K_IN, K_OUT, K_GROUP, K_DTYPE, K_RANKS, K_PG, K_INSPL, K_OUTSPL, K_COUNT
};

#define CK(lit) { lit, sizeof(lit) - 1 }
static const struct { const char *name; size_t len; } comm_keys[K_COUNT] = {
	CK("Collective name"), CK("In msg nelems"), CK("Out msg nelems"), CK("Group size"),
	CK("dtype"), CK("Process Group Ranks"), CK("Process Group Name"), CK("In split size"),
	CK("Out split size"),
};
#undef CK

int tlc_trace_comms__key(tlc_trace_comms *c, const unsigned char *s, size_t n)
{
	c->key = -1;
	for (int k = 0; k < K_COUNT; k++) /* (lengths and first bytes: most keys differ there) */
		if (comm_keys[k].len == n && comm_keys[k].name[0] == s[0] &&
		    memcmp(comm_keys[k].name, s, n) == 0) {
			c->key = k;
			return 1;
		}
	return 0;
}

static void copy_text(char *dst, size_t cap, const char *s, size_t n)
{
	if (n >= cap)
		n = cap - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/* "[1, 2, 3]" -> count and sum of its integers; -1 when malformed. */
static int int_list_text(int64_t *count, int64_t *sum, const char *s, size_t n)
{
	size_t i = 0;
	*count = *sum = 0;
	while (i < n && s[i] == ' ')
		i++;
	if (i >= n || s[i++] != '[')
		return -1;
	for (;;) {
		while (i < n && (s[i] == ' ' || s[i] == ','))
			i++;
		if (i < n && s[i] == ']')
			return *count <= TLC_COMM_MAX_SPLITS * 1024 ? 0 : -1;
		size_t j = i;
		while (j < n && s[j] >= '0' && s[j] <= '9')
			j++;
		int64_t v;
		if (j == i || tlc_trace__parse_i64(&v, s + i, j - i) < 0 ||
		    __builtin_add_overflow(*sum, v, sum))
			return -1;
		(*count)++;
		i = j;
	}
}

static int set_count(tlc_comm_info *x, int64_t *dst, unsigned bit, int is_string,
                     const char *s, size_t n, const char **why)
{
	int64_t v;
	if (is_string || tlc_trace__parse_i64(&v, s, n) < 0 || v < 0) {
		*why = "a record_param_comms size ('In msg nelems', 'Out msg nelems', "
		       "'Group size') is not a non-negative integer";
		return -1;
	}
	*dst = v;
	x->have |= bit;
	return 0;
}

static int set_list(tlc_comm_info *x, int key, const char *s, size_t n, const char **why)
{
	int64_t cnt, sum;
	if (int_list_text(&cnt, &sum, s, n) < 0) {
		*why = "a record_param_comms list ('Process Group Ranks', split sizes) is not "
		       "a list of non-negative integers";
		return -1;
	}
	if (key == K_RANKS) {
		x->nranks = cnt;
		x->have |= cnt ? TCI_RANKS : 0;
	} else if (cnt) {
		*(key == K_INSPL ? &x->in_split : &x->out_split) = sum;
		x->have |= key == K_INSPL ? TCI_INSPL : TCI_OUTSPL;
	}
	return 0;
}

int tlc_trace_comms__value(tlc_trace_comms *c, int is_string, const char *s, size_t n,
                           const char **why)
{
	tlc_comm_info *x = &c->cur;
	int key = c->key;
	c->key = -1;
	c->cur_written = 1;
	switch (key) {
	case K_NAME: copy_text(x->name, sizeof x->name, s, n); x->have |= TCI_NAME; return 0;
	case K_DTYPE: copy_text(x->dtype, sizeof x->dtype, s, n); x->have |= TCI_DTYPE; return 0;
	case K_PG: copy_text(x->pg, sizeof x->pg, s, n); x->have |= TCI_PG; return 0;
	case K_IN: return set_count(x, &x->in, TCI_IN, is_string, s, n, why);
	case K_OUT: return set_count(x, &x->out, TCI_OUT, is_string, s, n, why);
	case K_GROUP: return set_count(x, &x->group, TCI_GROUP, is_string, s, n, why);
	case K_RANKS: case K_INSPL: case K_OUTSPL:
		if (!is_string)
			return 0; /* a number where a list belongs says nothing: ignored */
		return set_list(x, key, s, n, why);
	default: return 0;
	}
}

/* ---- rows and annotations ------------------------------------------- */

int tlc_trace_comms__is_row(const tlc_trace_comms *c, const char *name)
{
	return c->cur.have || strcmp(name, "record_param_comms") == 0 ||
	       strncmp(name, "c10d::", 6) == 0 || strncmp(name, "_c10d_functional::", 18) == 0 ||
	       strncmp(name, "c10d_functional::", 17) == 0;
}

int tlc_trace_comms__keep_row(uint32_t *out, tlc_trace_comms *c)
{
	*out = 0;
	if (c->nrows >= UINT32_MAX - 1 ||
	    tlc_alloc__grow(c->a, (void **)&c->rows, &c->rcap, c->nrows + 1, sizeof *c->rows) < 0)
		return TLC_ENOMEM;
	c->rows[c->nrows++] = c->cur;
	*out = (uint32_t)c->nrows;
	return 0;
}

/* nelems of the first tensor of Input Dims; -1 when there is none. */
static int64_t first_numel(const tlc_tnode *dims)
{
	if (!dims || dims->kind != TLC_TNODE_ARRAY || !dims->first ||
	    dims->first->kind != TLC_TNODE_ARRAY)
		return -1;
	int64_t n = 1;
	for (const tlc_tnode *d = dims->first->first; d; d = d->next) {
		int64_t v;
		if (d->kind != TLC_TNODE_NUMBER)
			return -1;
		if (d->ival_ok)
			v = d->ival;
		else if (!d->text || tlc_trace__parse_i64(&v, d->text, d->len) < 0)
			return -1;
		if (v < 0 || __builtin_mul_overflow(n, v, &n))
			return -1;
	}
	return n;
}

int tlc_trace_comms__keep_annot(tlc_trace_comms *c, const char *name, int64_t start_ns,
                                int64_t end_ns, int64_t pid, int64_t tid,
                                const tlc_tnode *dims, const tlc_tnode *types)
{
	if (tlc_alloc__grow(c->a, (void **)&c->annots, &c->acap, c->nannots + 1,
	                    sizeof *c->annots) < 0)
		return TLC_ENOMEM;
	tlc_comm_annot *an = &c->annots[c->nannots++];
	memset(an, 0, sizeof *an);
	an->start_ns = start_ns;
	an->end_ns = end_ns;
	an->pid = pid;
	an->tid = tid;
	tlc_comm_info *x = &an->info;
	copy_text(x->name, sizeof x->name, name + 5, strlen(name + 5));
	x->have = TCI_NAME | TCI_ANNOT;
	/* the annotation's tensor is the collective's input (ProcessGroupNCCL
	 * records the input tensors) */
	int64_t n = first_numel(dims);
	if (n >= 0) {
		x->in = n;
		x->have |= TCI_IN;
	}
	if (types && types->kind == TLC_TNODE_ARRAY && types->first &&
	    types->first->kind == TLC_TNODE_STRING && types->first->text) {
		copy_text(x->dtype, sizeof x->dtype, types->first->text, types->first->len);
		x->have |= TCI_DTYPE;
	}
	return 0;
}

int tlc_trace_comms__keep_kernel(tlc_trace_comms *c, int64_t ext, int64_t corr)
{
	if (tlc_alloc__grow(c->a, (void **)&c->kernels, &c->kcap, c->nkernels + 1,
	                    sizeof *c->kernels) < 0)
		return TLC_ENOMEM;
	c->kernels[c->nkernels++] = (tlc_comm_kernel){ ext, corr, c->cur };
	return 0;
}

int tlc_trace_comms__keep_launch(tlc_trace_comms *c, tlc_eval *ev)
{
	if (tlc_eval__mark_last_device(ev, TLC_EVAL__MARK_COMM_LAUNCH) < 0)
		return TLC_ENOMEM;
	c->nlaunches++;
	return 0;
}

/* The kept launch calls as (corr, start, end, pid, tid), from their device
 * records, in the order they were kept; NULL (error set) when out of memory. */
static tlc_comm_launch *launches_of(const tlc_trace_comms *c, const tlc_eval *ev)
{
	tlc_comm_launch *l = tlc_alloc__malloc(c->a, (c->nlaunches ? c->nlaunches : 1) * sizeof *l);
	if (!l) {
		tlc_error__oom();
		return NULL;
	}
	size_t k = 0;
	for (size_t i = 0; i < tlc_eval__device_count(ev) && k < c->nlaunches; i++) {
		if (!(tlc_eval__device_marks(ev, i) & TLC_EVAL__MARK_COMM_LAUNCH))
			continue;
		tlc_device_record r = tlc_eval__device(ev, i);
		l[k++] = (tlc_comm_launch){ r.correlation, r.start_ns, r.end_ns, r.device, r.thread };
	}
	return l;
}

/* ---- folding nested facts into the collective rows ------------------ */

typedef struct entry {
	int64_t start, end, pid, tid;
	tlc_comm_info *info;
	int is_row;
} entry;

static int cmp_entry(const void *pa, const void *pb)
{
	const entry *a = pa, *b = pb;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	int64_t da = a->end - a->start, db = b->end - b->start;
	if (da != db)
		return da > db ? -1 : 1;
	return b->is_row - a->is_row; /* a row holds an annotation of the same span */
}

/* Fills what dst lacks from src (the recorded row's own facts win). */
static void fill(tlc_comm_info *dst, const tlc_comm_info *src)
{
	if (!(dst->have & TCI_NAME) && (src->have & TCI_NAME))
		memcpy(dst->name, src->name, sizeof dst->name);
	if (!(dst->have & TCI_DTYPE) && (src->have & TCI_DTYPE))
		memcpy(dst->dtype, src->dtype, sizeof dst->dtype);
	if (!(dst->have & TCI_PG) && (src->have & TCI_PG))
		memcpy(dst->pg, src->pg, sizeof dst->pg);
	if (!(dst->have & TCI_IN) && (src->have & TCI_IN))
		dst->in = src->in;
	if (!(dst->have & TCI_OUT) && (src->have & TCI_OUT))
		dst->out = src->out;
	if (!(dst->have & TCI_GROUP) && (src->have & TCI_GROUP))
		dst->group = src->group;
	if (!(dst->have & TCI_RANKS) && (src->have & TCI_RANKS))
		dst->nranks = src->nranks;
	if (!(dst->have & TCI_INSPL) && (src->have & TCI_INSPL))
		dst->in_split = src->in_split;
	if (!(dst->have & TCI_OUTSPL) && (src->have & TCI_OUTSPL))
		dst->out_split = src->out_split;
	dst->have |= src->have;
}

static int contains(const entry *p, const entry *c)
{
	return p->pid == c->pid && p->tid == c->tid && p->start <= c->start && c->end <= p->end;
}

static int cmp_ext(const void *pa, const void *pb)
{
	const entry *a = pa, *b = pb;
	return a->start < b->start ? -1 : a->start > b->start;
}

static int cmp_launch(const void *pa, const void *pb)
{
	const tlc_comm_launch *a = pa, *b = pb;
	return a->corr < b->corr ? -1 : a->corr > b->corr;
}

/* The collective row whose External id is ext, or NULL: byext holds one
 * (ext, row) pair per row with an External id (ext in .start, the row's
 * index in .end). A stale id shared by two rows names neither. */
static const entry *row_of_ext(const entry *rows, const entry *byext, size_t n, int64_t ext)
{
	if (ext < 0 || n == 0)
		return NULL;
	entry key = { .start = ext };
	const entry *e = bsearch(&key, byext, n, sizeof *byext, cmp_ext);
	if (!e || (e > byext && e[-1].start == ext) || (e + 1 < byext + n && e[1].start == ext))
		return NULL;
	return &rows[e->end];
}

/* Places each collective kernel's facts: at the row its External id names
 * (Kineto copies them from that record_param_comms op), else at its launch
 * call. Appends the placed ones to v (from v[k]); returns the new count. */
static size_t place_kernels(tlc_trace_comms *c, entry *v, size_t k, entry *byext, size_t nx,
                            const tlc_comm_launch *launches)
{
	/* (qsort and bsearch take no NULL base, even for no elements) */
	if (nx)
		qsort(byext, nx, sizeof *byext, cmp_ext);
	for (size_t i = 0; i < c->nkernels; i++) {
		const tlc_comm_kernel *kn = &c->kernels[i];
		const entry *row = row_of_ext(v, byext, nx, kn->ext);
		if (row) {
			v[k++] = (entry){ row->start, row->end, row->pid, row->tid,
			                  &c->kernels[i].info, 0 };
			continue;
		}
		tlc_comm_launch key = { .corr = kn->corr };
		const tlc_comm_launch *l = kn->corr < 0 || !c->nlaunches ? NULL :
			bsearch(&key, launches, c->nlaunches, sizeof key, cmp_launch);
		if (!l)
			continue; /* no row and no launch: no op to cost (docs/collectives.md) */
		v[k++] = (entry){ l->start_ns, l->end_ns, l->pid, l->tid, &c->kernels[i].info, 0 };
	}
	return k;
}

int tlc_trace_comms__fold(tlc_trace_comms *c, const struct tlc_trace_op *ops, size_t nops,
                          const tlc_eval *ev)
{
	size_t n = c->nannots + c->nkernels, nrows = 0;
	for (size_t i = 0; i < nops; i++)
		nrows += ops[i].comm != 0;
	n += nrows;
	if (n == 0)
		return 0;
	entry *v = tlc_alloc__malloc(c->a, n * sizeof *v);
	entry **stack = tlc_alloc__malloc(c->a, n * sizeof *stack);
	entry *byext = tlc_alloc__malloc(c->a, (nrows ? nrows : 1) * sizeof *byext);
	if (!v || !stack || !byext) {
		tlc_alloc__free(c->a, v);
		tlc_alloc__free(c->a, stack);
		tlc_alloc__free(c->a, byext);
		return tlc_error__oom();
	}
	size_t k = 0, nx = 0;
	for (size_t i = 0; i < nops; i++) {
		if (!ops[i].comm)
			continue;
		if (ops[i].flags & TLC_TOP_HAS_EXT)
			byext[nx++] = (entry){ .start = ops[i].ext, .end = (int64_t)k };
		v[k++] = (entry){ ops[i].start_ns, ops[i].end_ns, ops[i].pid, ops[i].tid,
		                  &c->rows[ops[i].comm - 1], 1 };
	}
	if (c->nkernels) {
		tlc_comm_launch *launches = launches_of(c, ev);
		if (!launches) {
			tlc_alloc__free(c->a, v);
			tlc_alloc__free(c->a, stack);
			tlc_alloc__free(c->a, byext);
			return TLC_ENOMEM;
		}
		if (c->nlaunches)
			qsort(launches, c->nlaunches, sizeof *launches, cmp_launch);
		k = place_kernels(c, v, k, byext, nx, launches);
		tlc_alloc__free(c->a, launches);
	}
	for (size_t i = 0; i < c->nannots; i++)
		v[k++] = (entry){ c->annots[i].start_ns, c->annots[i].end_ns, c->annots[i].pid,
		                  c->annots[i].tid, &c->annots[i].info, 0 };
	n = k;
	qsort(v, n, sizeof *v, cmp_entry);
	size_t depth = 0;
	for (size_t i = 0; i < n; i++) {
		while (depth && !contains(stack[depth - 1], &v[i]))
			depth--;
		for (size_t d = 0; d < depth; d++)
			fill(stack[d]->info, v[i].info);
		if (v[i].is_row)
			stack[depth++] = &v[i];
	}
	tlc_alloc__free(c->a, v);
	tlc_alloc__free(c->a, stack);
	tlc_alloc__free(c->a, byext);
	return 0;
}

/* ---- keyword arguments for the rules -------------------------------- */

static int64_t group_of(const tlc_trace_comms *c, const tlc_comm_info *x)
{
	if ((x->have & TCI_GROUP) && x->group >= 1)
		return x->group;
	if (x->have & TCI_RANKS)
		return x->nranks;
	for (size_t i = 0; (x->have & TCI_PG) && i < c->npgs; i++)
		if (strcmp(c->pgs[i].name, x->pg) == 0 && c->pgs[i].size >= 1)
			return c->pgs[i].size;
	return -1;
}

static void kw_int(tlc_kwarg *kw, size_t *n, const char *name, int64_t v)
{
	kw[*n].name = name;
	kw[*n].value.kind = TLC_VALUE_INT;
	kw[*n].value.u.integer = v;
	(*n)++;
}

static void kw_str(tlc_kwarg *kw, size_t *n, const char *name, const char *s)
{
	kw[*n].name = name;
	kw[*n].value.kind = TLC_VALUE_STRING;
	kw[*n].value.u.string = s;
	(*n)++;
}

/* The overload a record_param_comms row is evaluated under: its collective
 * name, or "marker" when nothing was recorded and no NCCL call lies inside
 * (older PyTorch records waits that way). */
static const char *param_comms_overload(const tlc_comm_info *x)
{
	if (x->have & TCI_NAME)
		return x->name;
	if (!(x->have & (TCI_IN | TCI_OUT | TCI_INSPL | TCI_OUTSPL | TCI_ANNOT)))
		return "marker";
	return "";
}

int tlc_trace_comms__apply(tlc_op *op, tlc_arena *ar, const tlc_trace_comms *c,
                           const struct tlc_trace_op *o)
{
	if (!o->comm && !c->has_dist)
		return 0;
	if (o->comm && strcmp(op->name, "kineto::record_param_comms") == 0)
		op->overload = param_comms_overload(&c->rows[o->comm - 1]);
	if (!o->comm)
		return 0;
	const tlc_comm_info *x = &c->rows[o->comm - 1];
	tlc_kwarg *kw = tlc_arena__alloc(ar, 8 * sizeof *kw);
	if (!kw)
		return TLC_ENOMEM;
	memset(kw, 0, 8 * sizeof *kw);
	size_t n = 0;
	if (x->have & TCI_NAME)
		kw_str(kw, &n, "collective", x->name);
	if (x->have & (TCI_IN | TCI_INSPL))
		kw_int(kw, &n, "in_nelems", (x->have & TCI_IN) ? x->in : x->in_split);
	if (x->have & (TCI_OUT | TCI_OUTSPL))
		kw_int(kw, &n, "out_nelems", (x->have & TCI_OUT) ? x->out : x->out_split);
	if (x->have & TCI_DTYPE)
		kw_str(kw, &n, "dtype", x->dtype);
	int64_t g = group_of(c, x);
	if (g >= 1)
		kw_int(kw, &n, "group_size", g);
	if (c->has_dist && c->world_size >= 1)
		kw_int(kw, &n, "world_size", c->world_size);
	op->kwargs = kw;
	op->nkwargs = n;
	return 0;
}

/* ---- distributedInfo ------------------------------------------------ */

enum { D_OTHER = 0, D_RANK, D_WORLD, D_BACKEND, D_PGCONF, D_PGNAME, D_PGSIZE };

void tlc_trace_comms__dist_open(tlc_trace_comms *c)
{
	c->dist_depth++;
	if (c->dist_depth == 1)
		c->has_dist = 1;
	if (c->dist_depth == 3) /* one pg_config entry */
		memset(&c->pg_cur, 0, sizeof c->pg_cur);
	c->dist_key = D_OTHER;
}

void tlc_trace_comms__dist_close(tlc_trace_comms *c)
{
	if (c->dist_depth == 3 && c->pg_cur.name[0] && c->npgs < 64)
		c->pgs[c->npgs++] = c->pg_cur;
	c->dist_depth--;
	c->dist_key = D_OTHER;
}

void tlc_trace_comms__dist_key(tlc_trace_comms *c, const unsigned char *s, size_t n)
{
#define IS(lit) (n == sizeof(lit) - 1 && memcmp(s, lit, n) == 0)
	c->dist_key = D_OTHER;
	if (c->dist_depth == 1)
		c->dist_key = IS("rank") ? D_RANK : IS("world_size") ? D_WORLD
		            : IS("backend") ? D_BACKEND : IS("pg_config") ? D_PGCONF : D_OTHER;
	else if (c->dist_depth == 3)
		c->dist_key = IS("pg_name") ? D_PGNAME : IS("pg_size") ? D_PGSIZE : D_OTHER;
#undef IS
}

void tlc_trace_comms__dist_scalar(tlc_trace_comms *c, int is_string, const char *s, size_t n)
{
	int64_t v = -1;
	int num = !is_string && tlc_trace__parse_i64(&v, s, n) == 0;
	switch (c->dist_key) {
	case D_RANK: if (num && v >= 0) c->rank = v; break;
	case D_WORLD: if (num && v >= 1) c->world_size = v; break;
	case D_BACKEND: if (is_string) copy_text(c->backend, sizeof c->backend, s, n); break;
	case D_PGNAME: if (is_string) copy_text(c->pg_cur.name, sizeof c->pg_cur.name, s, n); break;
	case D_PGSIZE: if (num && v >= 1) c->pg_cur.size = v; break;
	default: break;
	}
	c->dist_key = D_OTHER;
}

int tlc_trace_comms__publish(tlc_trace_comms *c, tlc_eval *ev)
{
	if (!c->has_dist)
		return 0;
	tlc_dist_info d = { sizeof d, c->rank, c->world_size, c->backend[0] ? c->backend : NULL };
	return tlc_eval_set_dist(ev, &d);
}
