/* An allocator for allocation-failure sweeps in the unit tests: it fails
 * every allocation from the fail_at-th on (fail_at < 0: never) and counts
 * the blocks still live, so a sweep can check that a refused allocation
 * leaves nothing behind. */
#ifndef TLC_TESTS_FAILING_ALLOC_H
#define TLC_TESTS_FAILING_ALLOC_H

#include <stdlib.h>
#include <tlcost/tlcost.h>

typedef struct failing {
	long live, calls, fail_at; /* fail_at < 0: never fail */
} failing;

static inline int should_fail(failing *f) { return f->fail_at >= 0 && f->calls++ >= f->fail_at; }

static inline void *f_malloc(size_t n, void *p)
{
	failing *f = p;
	if (should_fail(f))
		return NULL;
	void *r = malloc(n);
	f->live += r != NULL;
	return r;
}

static inline void *f_realloc(void *q, size_t n, void *p)
{
	failing *f = p;
	if (should_fail(f))
		return NULL;
	void *r = realloc(q, n);
	f->live += r && !q;
	return r;
}

static inline void f_free(void *q, void *p)
{
	failing *f = p;
	f->live -= q != NULL;
	free(q);
}

static inline tlc_allocator alloc_of(failing *f)
{
	tlc_allocator a = { f_malloc, f_realloc, f_free, f };
	return a;
}

#endif
