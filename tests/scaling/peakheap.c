/* Peak heap bytes of a process, counted (not sampled): an LD_PRELOAD
 * library for tests/scaling/scaling.py. Every malloc-family call goes to
 * glibc's own allocator (__libc_*) and adds or takes away the block's
 * usable size; the highest total is written at exit to the file named by
 * TLC_PEAKHEAP_OUT, as "peak_bytes allocations\n". The count follows the
 * program's allocations only, so it is the same on every run of the same
 * input, whatever else the machine is doing (massif's heap figure, without
 * its cost: the program runs natively). glibc only; the scaling check
 * builds it with the compiler that built tlcost and measures memory under
 * massif instead when it cannot. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static size_t cur, peak;
static unsigned long long nalloc;

static void grow(void *p)
{
	if (!p)
		return;
	size_t now = __atomic_add_fetch(&cur, malloc_usable_size(p), __ATOMIC_RELAXED);
	size_t old = __atomic_load_n(&peak, __ATOMIC_RELAXED);
	while (now > old && !__atomic_compare_exchange_n(&peak, &old, now, 0, __ATOMIC_RELAXED,
	                                                 __ATOMIC_RELAXED))
		;
	__atomic_add_fetch(&nalloc, 1, __ATOMIC_RELAXED);
}

static void shrink(void *p)
{
	if (p)
		__atomic_sub_fetch(&cur, malloc_usable_size(p), __ATOMIC_RELAXED);
}

void *malloc(size_t n)
{
	void *p = __libc_malloc(n);
	grow(p);
	return p;
}

void *calloc(size_t n, size_t m)
{
	void *p = __libc_calloc(n, m);
	grow(p);
	return p;
}

void *realloc(void *q, size_t n)
{
	size_t had = q ? malloc_usable_size(q) : 0;
	void *p = __libc_realloc(q, n);
	if (p || n == 0) { /* the old block is gone (a failed realloc keeps it) */
		__atomic_sub_fetch(&cur, had, __ATOMIC_RELAXED);
		grow(p);
	}
	return p;
}

void free(void *p)
{
	shrink(p);
	__libc_free(p);
}

void *memalign(size_t a, size_t n)
{
	void *p = __libc_memalign(a, n);
	grow(p);
	return p;
}

void *aligned_alloc(size_t a, size_t n)
{
	return memalign(a, n);
}

int posix_memalign(void **out, size_t a, size_t n)
{
	if (a < sizeof(void *) || (a & (a - 1)))
		return EINVAL;
	void *p = memalign(a, n);
	if (!p)
		return ENOMEM;
	*out = p;
	return 0;
}

__attribute__((destructor)) static void report(void)
{
	const char *path = getenv("TLC_PEAKHEAP_OUT");
	if (!path)
		return;
	char line[64];
	int len = snprintf(line, sizeof line, "%zu %llu\n", peak, nalloc);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return;
	if (write(fd, line, (size_t)len) < 0)
		len = 0;
	close(fd);
}
