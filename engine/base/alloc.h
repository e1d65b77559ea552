/* Allocation through the engine's injectable allocator, plus an arena,
 * a string builder and an interner (semi-private). Every allocation of the
 * library goes through a tlc_allocator so tests can fail the n-th one. */
#ifndef TLC_ENGINE_ALLOC_H
#define TLC_ENGINE_ALLOC_H

#include <stdarg.h>
#include <stddef.h>
#include "tlcost/tlcost.h"
#include "error.h"

/** The default allocator (malloc/realloc/free). */
const tlc_allocator *tlc_alloc__default(void);

/* NULL on failure; they do not set the error (callers use tlc_error__oom). */
void *tlc_alloc__malloc(const tlc_allocator *a, size_t n);
void *tlc_alloc__calloc(const tlc_allocator *a, size_t count, size_t n);
void *tlc_alloc__realloc(const tlc_allocator *a, void *p, size_t n);
void tlc_alloc__free(const tlc_allocator *a, void *p);
char *tlc_alloc__strdup(const tlc_allocator *a, const char *s);

/** Grows *items to hold at least need elements of size elem (doubling).
 *  Returns 0 or TLC_ENOMEM (error set). */
int tlc_alloc__grow(const tlc_allocator *a, void **items, size_t *cap, size_t need,
                    size_t elem);

/* ---- arena: bump allocation, freed all at once ---- */
typedef struct tlc_arena_block tlc_arena_block;
typedef struct tlc_arena {
	const tlc_allocator *a;
	tlc_arena_block *head;
	size_t block_size;
} tlc_arena;

void tlc_arena__init(tlc_arena *ar, const tlc_allocator *a, size_t block_size);
/** 16-byte aligned; NULL on failure (error not set). */
void *tlc_arena__alloc(tlc_arena *ar, size_t n);
char *tlc_arena__strdup(tlc_arena *ar, const char *s);
char *tlc_arena__strndup(tlc_arena *ar, const char *s, size_t n);
/** Keeps the first block, drops the rest: cheap per-record reuse. */
void tlc_arena__reset(tlc_arena *ar);
void tlc_arena__free(tlc_arena *ar);

/* ---- string builder ---- */
typedef struct tlc_sb {
	const tlc_allocator *a;
	char *ptr;
	size_t len, cap;
	int failed; /* an append ran out of memory: contents incomplete */
} tlc_sb;

void tlc_sb__init(tlc_sb *sb, const tlc_allocator *a);
void tlc_sb__append(tlc_sb *sb, const char *s, size_t n);
void tlc_sb__puts(tlc_sb *sb, const char *s);
void tlc_sb__printf(tlc_sb *sb, const char *fmt, ...) TLC_PRINTF(2, 3);
void tlc_sb__putc(tlc_sb *sb, char c);
/** Appends v in decimal, as printf's %lld spells it (the hot summaries). */
void tlc_sb__put_i64(tlc_sb *sb, int64_t v);
/** Returns ptr ("" when empty) or NULL after a failed append. */
const char *tlc_sb__str(tlc_sb *sb);
void tlc_sb__reset(tlc_sb *sb);
void tlc_sb__free(tlc_sb *sb);

/* ---- interner: one stable copy of each distinct string ---- */
typedef struct tlc_intern tlc_intern;
int tlc_intern__new(tlc_intern **out, const tlc_allocator *a);
void tlc_intern__free(tlc_intern *in);
/** Returns the stable copy of s (n bytes), or NULL on allocation failure. */
const char *tlc_intern__get(tlc_intern *in, const char *s, size_t n);
size_t tlc_intern__count(const tlc_intern *in);


#endif
