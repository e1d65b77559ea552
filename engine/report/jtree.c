/* JSON document tree on yajl callbacks (engine/report/jtree.h). */
#include <string.h>
#include <yajl/yajl_parse.h>
#include "jtree.h"
#include "error.h"

#define MAX_DEPTH 64

typedef struct builder {
	tlc_jdoc *doc;
	tlc_jnode *cur;      /* open container */
	const char *key;     /* pending member name */
	int depth, oom, deep;
} builder;

static tlc_jnode *add(builder *b, tlc_jkind kind, const char *s, size_t n)
{
	tlc_jnode *x = tlc_arena__alloc(&b->doc->arena, sizeof *x);
	if (!x) {
		b->oom = 1;
		return NULL;
	}
	memset(x, 0, sizeof *x);
	x->kind = kind;
	if (s && !(x->text = tlc_arena__strndup(&b->doc->arena, s, n))) {
		b->oom = 1;
		return NULL;
	}
	x->key = b->key;
	b->key = NULL;
	x->up = b->cur;
	if (!b->cur) {
		b->doc->root = x;
	} else {
		if (b->cur->last)
			b->cur->last->next = x;
		else
			b->cur->first = x;
		b->cur->last = x;
		b->cur->n++;
	}
	return x;
}

static int cb_null(void *ctx) { return add(ctx, TLC_J_NULL, NULL, 0) != NULL; }
static int cb_bool(void *ctx, int v)
{
	tlc_jnode *x = add(ctx, TLC_J_BOOL, NULL, 0);
	if (x)
		x->boolean = v;
	return x != NULL;
}
static int cb_number(void *ctx, const char *s, size_t n) { return add(ctx, TLC_J_NUMBER, s, n) != NULL; }
static int cb_string(void *ctx, const unsigned char *s, size_t n)
{
	return add(ctx, TLC_J_STRING, (const char *)s, n) != NULL;
}
static int cb_key(void *ctx, const unsigned char *s, size_t n)
{
	builder *b = ctx;
	b->key = tlc_arena__strndup(&b->doc->arena, (const char *)s, n);
	if (!b->key)
		b->oom = 1;
	return b->key != NULL;
}
static int open_c(builder *b, tlc_jkind kind)
{
	if (++b->depth > MAX_DEPTH) {
		b->deep = 1;
		return 0;
	}
	tlc_jnode *x = add(b, kind, NULL, 0);
	if (!x)
		return 0;
	b->cur = x;
	return 1;
}
static int close_c(builder *b)
{
	b->depth--;
	b->cur = b->cur ? b->cur->up : NULL;
	return 1;
}
static int cb_start_map(void *ctx) { return open_c(ctx, TLC_J_OBJECT); }
static int cb_end_map(void *ctx) { return close_c(ctx); }
static int cb_start_array(void *ctx) { return open_c(ctx, TLC_J_ARRAY); }
static int cb_end_array(void *ctx) { return close_c(ctx); }

static const yajl_callbacks callbacks = {
	cb_null, cb_bool, NULL, NULL, cb_number, cb_string,
	cb_start_map, cb_key, cb_end_map, cb_start_array, cb_end_array
};

static void *y_malloc(void *ctx, size_t n) { return tlc_alloc__malloc(ctx, n); }
static void *y_realloc(void *ctx, void *p, size_t n) { return tlc_alloc__realloc(ctx, p, n); }
static void y_free(void *ctx, void *p) { tlc_alloc__free(ctx, p); }

static uint64_t line_of(const unsigned char *p, size_t upto)
{
	uint64_t line = 1;
	for (size_t i = 0; i < upto; i++)
		line += p[i] == '\n';
	return line;
}

int tlc_jtree__parse(tlc_jdoc *doc, const tlc_allocator *a, const void *buf, size_t len,
                     const char *name)
{
	memset(doc, 0, sizeof *doc);
	tlc_arena__init(&doc->arena, a, 16 * 1024);
	builder b = { doc, NULL, NULL, 0, 0, 0 };
	yajl_alloc_funcs af = { y_malloc, y_realloc, y_free, (void *)a };
	yajl_handle h = yajl_alloc(&callbacks, &af, &b);
	if (!h)
		return tlc_error__oom();
	yajl_status st = yajl_parse(h, buf, len);
	if (st == yajl_status_ok)
		st = yajl_complete_parse(h);
	int rc = 0;
	if (b.oom) {
		rc = tlc_error__oom();
	} else if (st != yajl_status_ok || !doc->root) {
		size_t used = yajl_get_bytes_consumed(h);
		unsigned char *m = yajl_get_error(h, 0, buf, len);
		char msg[200];
		snprintf(msg, sizeof msg, "%s", b.deep ? "JSON nested deeper than 64 levels"
		                               : m ? (const char *)m : "no JSON document");
		for (size_t k = strlen(msg); k > 0 && (msg[k - 1] == '\n' || msg[k - 1] == ' '); k--)
			msg[k - 1] = '\0';
		if (m)
			yajl_free_error(h, m);
		rc = tlc_error__set_pos(TLC_EPARSE, "merge_input_invalid", name,
		                        line_of(buf, used > len ? len : used), 0,
		                        "give the JSON of `tlcost flops --format json` or of "
		                        "`tlcost merge`", "not a JSON document: %s", msg);
	}
	yajl_free(h);
	return rc;
}

void tlc_jtree__free(tlc_jdoc *doc)
{
	tlc_arena__free(&doc->arena);
	doc->root = NULL;
}

const tlc_jnode *tlc_jtree__get(const tlc_jnode *obj, const char *key)
{
	if (!obj || obj->kind != TLC_J_OBJECT)
		return NULL;
	for (const tlc_jnode *c = obj->first; c; c = c->next)
		if (c->key && strcmp(c->key, key) == 0)
			return c;
	return NULL;
}

int tlc_jtree__is_uint(const tlc_jnode *n)
{
	if (!n || n->kind != TLC_J_NUMBER || !n->text[0])
		return 0;
	for (const char *p = n->text; *p; p++)
		if (*p < '0' || *p > '9')
			return 0;
	return 1;
}

const char *tlc_jtree__str(const tlc_jnode *obj, const char *key)
{
	const tlc_jnode *n = tlc_jtree__get(obj, key);
	return n && n->kind == TLC_J_STRING ? n->text : NULL;
}
