/* GMP's allocations through an engine's allocator.
 *
 * GMP's memory functions are process-global and take no payload, while
 * tlcost's allocator belongs to an engine, and several engines with
 * different allocators may live at once. So every block GMP gets from here
 * starts with a header naming the allocator it came from (a node, which
 * outlives its engine while blocks of it remain): a block is always
 * reallocated and freed by the allocator that made it, whatever engine
 * exists by then. New blocks come from the most recently attached allocator
 * still attached, else malloc.
 *
 * GMP cannot report an allocation failure (its functions must not return
 * NULL). When the engine's allocator fails, the block comes from malloc;
 * when malloc fails too, the process aborts, as GMP's own functions do: the
 * one exception to "never aborts" (docs/api.md, "Memory"). */
#include <gmp.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "gmpalloc.h"

typedef struct node {
	tlc_allocator a;
	size_t attached;      /* engines holding it */
	size_t blocks;        /* live GMP blocks made by it */
	struct node *next;    /* attached nodes, newest first */
} node;

/* header in front of every block; keeps GMP's limbs max-aligned */
typedef union hdr {
	node *from; /* NULL: malloc */
	max_align_t align;
} hdr;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static node *attached;    /* newest first */
static int installed;

static void node_release(node *n)
{
	/* caller holds mu; the node goes when no engine and no block needs it */
	if (n->attached == 0 && n->blocks == 0)
		free(n);
}

static void *block_new(size_t size, node **from)
{
	hdr *h = NULL;
	pthread_mutex_lock(&mu);
	node *n = attached;
	if (n)
		n->blocks++;
	pthread_mutex_unlock(&mu);
	if (n && size <= SIZE_MAX - sizeof *h)
		h = n->a.malloc_fn(sizeof *h + size, n->a.payload);
	if (!h && n) {
		pthread_mutex_lock(&mu);
		n->blocks--;
		node_release(n);
		pthread_mutex_unlock(&mu);
		n = NULL;
	}
	if (!h && size <= SIZE_MAX - sizeof *h)
		h = malloc(sizeof *h + size);
	if (!h)
		abort(); /* GMP has no way to fail: see the top of this file */
	h->from = n;
	*from = n;
	return h + 1;
}

static void *gmp_alloc(size_t size)
{
	node *n;
	return block_new(size, &n);
}

static void gmp_free(void *p, size_t size)
{
	(void)size;
	if (!p)
		return;
	hdr *h = (hdr *)p - 1;
	node *n = h->from;
	if (!n) {
		free(h);
		return;
	}
	n->a.free_fn(h, n->a.payload);
	pthread_mutex_lock(&mu);
	n->blocks--;
	node_release(n);
	pthread_mutex_unlock(&mu);
}

static void *gmp_realloc(void *p, size_t old, size_t size)
{
	if (!p)
		return gmp_alloc(size);
	hdr *h = (hdr *)p - 1, *q = NULL;
	node *n = h->from;
	if (size <= SIZE_MAX - sizeof *h)
		q = n ? n->a.realloc_fn(h, sizeof *h + size, n->a.payload)
		      : realloc(h, sizeof *h + size);
	if (q)
		return q + 1;
	/* the allocator failed: move the block to a new one (malloc at worst) */
	node *to;
	void *r = block_new(size, &to);
	memcpy(r, p, old < size ? old : size);
	gmp_free(p, old);
	return r;
}

void *tlc_gmp__attach(const tlc_allocator *a)
{
	node *n = malloc(sizeof *n);
	if (!n) {
		tlc_error__oom();
		return NULL;
	}
	n->a = *a;
	n->attached = 1;
	n->blocks = 0;
	pthread_mutex_lock(&mu);
	if (!installed) {
		mp_set_memory_functions(gmp_alloc, gmp_realloc, gmp_free);
		installed = 1;
	}
	n->next = attached;
	attached = n;
	pthread_mutex_unlock(&mu);
	return n;
}

void tlc_gmp__detach(void *handle)
{
	node *n = handle;
	if (!n)
		return;
	pthread_mutex_lock(&mu);
	for (node **pp = &attached; *pp; pp = &(*pp)->next)
		if (*pp == n) {
			*pp = n->next;
			break;
		}
	n->attached = 0;
	node_release(n);
	pthread_mutex_unlock(&mu);
}

size_t tlc_gmp__live_blocks(const void *handle)
{
	pthread_mutex_lock(&mu);
	size_t b = handle ? ((const node *)handle)->blocks : 0;
	pthread_mutex_unlock(&mu);
	return b;
}
