/* Allocation through an injectable allocator; arena, string builder and
 * interner built on it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "alloc.h"
#include "hindex.h"

static void *std_malloc(size_t n, void *p) { (void)p; return malloc(n); }
static void *std_realloc(void *q, size_t n, void *p) { (void)p; return realloc(q, n); }
static void std_free(void *q, void *p) { (void)p; free(q); }

static const tlc_allocator std_alloc = { std_malloc, std_realloc, std_free, NULL };

const tlc_allocator *tlc_alloc__default(void) { return &std_alloc; }

void *tlc_alloc__malloc(const tlc_allocator *a, size_t n)
{
	return a->malloc_fn(n ? n : 1, a->payload);
}

void *tlc_alloc__calloc(const tlc_allocator *a, size_t count, size_t n)
{
	if (n && count > SIZE_MAX / n)
		return NULL;
	size_t total = count * n;
	void *p = tlc_alloc__malloc(a, total);
	if (p)
		memset(p, 0, total > 0 ? total : 1);
	return p;
}

void *tlc_alloc__realloc(const tlc_allocator *a, void *p, size_t n)
{
	return a->realloc_fn(p, n ? n : 1, a->payload);
}

void tlc_alloc__free(const tlc_allocator *a, void *p)
{
	if (p)
		a->free_fn(p, a->payload);
}

char *tlc_alloc__strdup(const tlc_allocator *a, const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = tlc_alloc__malloc(a, n);
	if (d)
		memcpy(d, s, n);
	return d;
}

int tlc_alloc__grow(const tlc_allocator *a, void **items, size_t *cap, size_t need,
                    size_t elem)
{
	if (need <= *cap)
		return 0;
	size_t ncap = *cap ? *cap : 8;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2 / elem)
			return tlc_error__oom();
		ncap *= 2;
	}
	void *p = tlc_alloc__realloc(a, *items, ncap * elem);
	if (!p)
		return tlc_error__oom();
	*items = p;
	*cap = ncap;
	return 0;
}

/* ---- arena ---- */
struct tlc_arena_block {
	tlc_arena_block *next;
	size_t cap, used;
	_Alignas(16) unsigned char data[];
};

void tlc_arena__init(tlc_arena *ar, const tlc_allocator *a, size_t block_size)
{
	ar->a = a;
	ar->head = NULL;
	ar->block_size = block_size ? block_size : 16384;
}

void *tlc_arena__alloc(tlc_arena *ar, size_t n)
{
	n = (n + 15) & ~(size_t)15;
	if (n == 0)
		n = 16;
	tlc_arena_block *b = ar->head;
	if (!b || b->cap - b->used < n) {
		size_t cap = n > ar->block_size ? n : ar->block_size;
		if (cap > SIZE_MAX - sizeof *b)
			return NULL;
		b = tlc_alloc__malloc(ar->a, sizeof *b + cap);
		if (!b)
			return NULL;
		b->cap = cap;
		b->used = 0;
		b->next = ar->head;
		ar->head = b;
	}
	void *p = b->data + b->used;
	b->used += n;
	return p;
}

char *tlc_arena__strndup(tlc_arena *ar, const char *s, size_t n)
{
	char *d = tlc_arena__alloc(ar, n + 1);
	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

char *tlc_arena__strdup(tlc_arena *ar, const char *s)
{
	return tlc_arena__strndup(ar, s, strlen(s));
}

void tlc_arena__reset(tlc_arena *ar)
{
	tlc_arena_block *b = ar->head;
	if (!b)
		return;
	/* keep the oldest block (the last in the list): steady-state reuse */
	while (b->next) {
		tlc_arena_block *next = b->next;
		tlc_alloc__free(ar->a, b);
		b = next;
	}
	b->used = 0;
	ar->head = b;
}

void tlc_arena__free(tlc_arena *ar)
{
	tlc_arena_block *b = ar->head;
	while (b) {
		tlc_arena_block *next = b->next;
		tlc_alloc__free(ar->a, b);
		b = next;
	}
	ar->head = NULL;
}

/* ---- string builder ---- */
void tlc_sb__init(tlc_sb *sb, const tlc_allocator *a)
{
	memset(sb, 0, sizeof *sb);
	sb->a = a;
}

static int sb_reserve(tlc_sb *sb, size_t extra)
{
	if (sb->failed)
		return -1;
	if (sb->len + extra + 1 <= sb->cap)
		return 0;
	if (tlc_alloc__grow(sb->a, (void **)&sb->ptr, &sb->cap, sb->len + extra + 1, 1) < 0) {
		sb->failed = 1;
		return -1;
	}
	return 0;
}

void tlc_sb__append(tlc_sb *sb, const char *s, size_t n)
{
	if (sb_reserve(sb, n) < 0)
		return;
	memcpy(sb->ptr + sb->len, s, n);
	sb->len += n;
	sb->ptr[sb->len] = '\0';
}

void tlc_sb__puts(tlc_sb *sb, const char *s) { tlc_sb__append(sb, s, strlen(s)); }

void tlc_sb__putc(tlc_sb *sb, char c) { tlc_sb__append(sb, &c, 1); }

void tlc_sb__put_i64(tlc_sb *sb, int64_t v)
{
	char buf[24]; /* "-9223372036854775808" is 20 characters */
	char *p = buf + sizeof buf;
	/* the magnitude in unsigned arithmetic: -INT64_MIN does not fit int64 */
	uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	do {
		*--p = (char)('0' + m % 10);
		m /= 10;
	} while (m);
	if (v < 0)
		*--p = '-';
	tlc_sb__append(sb, p, (size_t)(buf + sizeof buf - p));
}

void tlc_sb__printf(tlc_sb *sb, const char *fmt, ...)
{
	char small[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof small) {
		tlc_sb__append(sb, small, (size_t)n);
		return;
	}
	if (sb_reserve(sb, (size_t)n) < 0)
		return;
	va_start(ap, fmt);
	vsnprintf(sb->ptr + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
}

const char *tlc_sb__str(tlc_sb *sb)
{
	if (sb->failed)
		return NULL;
	return sb->ptr ? sb->ptr : "";
}

void tlc_sb__reset(tlc_sb *sb)
{
	sb->len = 0;
	sb->failed = 0;
	if (sb->ptr)
		sb->ptr[0] = '\0';
}

void tlc_sb__free(tlc_sb *sb)
{
	tlc_alloc__free(sb->a, sb->ptr);
	sb->ptr = NULL;
	sb->len = sb->cap = 0;
}

/* ---- interner: stable arena copies, found through the hash index ---- */
struct tlc_intern {
	const tlc_allocator *a;
	tlc_arena arena;
	const char **strs; /* the copies, in order of first appearance */
	size_t count, cap;
	tlc_hindex index;  /* hash -> strs index */
};

int tlc_intern__new(tlc_intern **out, const tlc_allocator *a)
{
	tlc_intern *in = tlc_alloc__calloc(a, 1, sizeof *in);
	if (!in)
		return tlc_error__oom();
	in->a = a;
	tlc_arena__init(&in->arena, a, 8192);
	tlc_hindex__init(&in->index, a);
	*out = in;
	return 0;
}

void tlc_intern__free(tlc_intern *in)
{
	if (!in)
		return;
	tlc_arena__free(&in->arena);
	tlc_hindex__free(&in->index);
	tlc_alloc__free(in->a, (void *)in->strs);
	tlc_alloc__free(in->a, in);
}

typedef struct bytes_key {
	const char *s;
	size_t n;
} bytes_key;

static int intern_eq(size_t idx, const void *key, const void *payload)
{
	const bytes_key *k = key;
	const char *v = ((const tlc_intern *)payload)->strs[idx];
	return strncmp(v, k->s, k->n) == 0 && v[k->n] == '\0';
}

const char *tlc_intern__get(tlc_intern *in, const char *s, size_t n)
{
	bytes_key k = { s, n };
	uint64_t h = tlc_hash__bytes(s, n);
	if (tlc_hindex__reserve(&in->index, in->count + 1) < 0)
		return NULL;
	tlc_hslot *slot = tlc_hindex__probe(&in->index, h, intern_eq, &k, in);
	if (slot->idx1)
		return in->strs[slot->idx1 - 1];
	if (tlc_alloc__grow(in->a, (void **)&in->strs, &in->cap, in->count + 1,
	                    sizeof *in->strs) < 0)
		return NULL;
	char *copy = tlc_arena__strndup(&in->arena, s, n);
	if (!copy)
		return NULL;
	in->strs[in->count] = copy;
	tlc_hindex__fill(&in->index, slot, h, in->count++);
	return copy;
}

size_t tlc_intern__count(const tlc_intern *in) { return in->count; }
