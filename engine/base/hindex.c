/* The one hash index (see hindex.h) and the library's hash function. */
#include <string.h>
#include "hindex.h"
#include "error.h"

/* Why this hash: names come from input files, which anyone can write. The
 * earlier unkeyed hash (h = g(h ^ w) per word) let a file make every name
 * collide whatever its seed, so that each lookup walked every name before
 * it (quadratic time). SipHash is a keyed pseudorandom function: without
 * the key, which the file's author never sees, colliding names cannot be
 * chosen. SipHash-1-3 (one compression round per word, three to finish),
 * as Python, Ruby and Rust use for their hash tables: a lookup needs
 * collision resistance under an unknown key, not a MAC's margin. Written
 * here rather than taken from libsodium (whose crypto_shorthash is
 * SipHash-2-4, about twice the rounds): thirty lines, checked against the
 * published vectors in tests/unit/base/test_hindex.c, with no library to add.
 *
 * The key is the process's, drawn once (getrandom) before main runs (a
 * constructor), so every table of the process, made at any time, uses the
 * same key and the hash needs no lock or test. Nothing printed depends on
 * it: tables keep their entries in their own arrays in insertion order,
 * and every listing walks those arrays, never the slots. The id hash
 * (tlc_hash__u64, hindex.h) is keyed at the same time. */
#if defined(__linux__)
#include <sys/random.h>
#endif
#include <time.h>
#include <unistd.h>

static uint64_t hash_key[2];
uint64_t tlc_hash__id_key[2];

static inline uint64_t rotl(uint64_t x, int b) { return (x << b) | (x >> (64 - b)); }

#define SIPROUND(v0, v1, v2, v3)                                                           \
	do {                                                                               \
		v0 += v1;                                                                  \
		v1 = rotl(v1, 13);                                                         \
		v1 ^= v0;                                                                  \
		v0 = rotl(v0, 32);                                                         \
		v2 += v3;                                                                  \
		v3 = rotl(v3, 16);                                                         \
		v3 ^= v2;                                                                  \
		v0 += v3;                                                                  \
		v3 = rotl(v3, 21);                                                         \
		v3 ^= v0;                                                                  \
		v2 += v1;                                                                  \
		v1 = rotl(v1, 17);                                                         \
		v1 ^= v2;                                                                  \
		v2 = rotl(v2, 32);                                                         \
	} while (0)

/* Words are read little-endian, as the reference reads them. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define LE64(w) __builtin_bswap64(w)
#else
#define LE64(w) (w)
#endif

/* SipHash-c-d (Aumasson and Bernstein, 2012) of n bytes under k; c and d
 * are constants at each call, so the rounds unroll. */
static inline uint64_t siphash(const uint64_t k[2], const void *p, size_t n, int c, int d)
{
	const unsigned char *s = p;
	uint64_t v0 = k[0] ^ 0x736f6d6570736575ULL, v1 = k[1] ^ 0x646f72616e646f6dULL;
	uint64_t v2 = k[0] ^ 0x6c7967656e657261ULL, v3 = k[1] ^ 0x7465646279746573ULL;
	uint64_t b = (uint64_t)n << 56;
	for (; n >= 8; s += 8, n -= 8) {
		uint64_t m;
		memcpy(&m, s, 8);
		m = LE64(m);
		v3 ^= m;
		for (int i = 0; i < c; i++)
			SIPROUND(v0, v1, v2, v3);
		v0 ^= m;
	}
	uint64_t t = 0;
	memcpy(&t, s, n); /* the first n bytes of t in memory: its low ones once LE64 */
	b |= LE64(t);
	v3 ^= b;
	for (int i = 0; i < c; i++)
		SIPROUND(v0, v1, v2, v3);
	v0 ^= b;
	v2 ^= 0xff;
	for (int i = 0; i < d; i++)
		SIPROUND(v0, v1, v2, v3);
	return v0 ^ v1 ^ v2 ^ v3;
}

uint64_t tlc_hash__sip13(const uint64_t k[2], const void *p, size_t n)
{
	return siphash(k, p, n, 1, 3);
}

uint64_t tlc_hash__sip24(const uint64_t k[2], const void *p, size_t n)
{
	return siphash(k, p, n, 2, 4);
}

uint64_t tlc_hash__bytes(const void *p, size_t n) { return siphash(hash_key, p, n, 1, 3); }

/* The keys: 32 bytes from the kernel. Should getrandom fail (a kernel
 * without it), the time, the process id and an address (ASLR) keyed
 * through SipHash are far weaker but still unknown to a file's author. */
__attribute__((constructor)) static void hash_key_init(void)
{
	uint64_t k[4] = { 0, 0, 0, 0 };
#if defined(__linux__)
	if (getrandom(k, sizeof k, GRND_NONBLOCK) == (ssize_t)sizeof k)
		goto done;
#endif
	struct timespec ts = { 0, 0 };
	clock_gettime(CLOCK_REALTIME, &ts);
	uint64_t mix[4] = { (uint64_t)ts.tv_sec, (uint64_t)ts.tv_nsec, (uint64_t)getpid(),
		            (uint64_t)(uintptr_t)&ts };
	for (size_t i = 0; i < 4; i++) {
		mix[3] += i;
		k[i] = tlc_hash__sip24(k, mix, sizeof mix);
	}
#if defined(__linux__)
done:
#endif
	hash_key[0] = k[0];
	hash_key[1] = k[1];
	tlc_hash__id_key[0] = k[2];
	tlc_hash__id_key[1] = k[3];
}

void tlc_hindex__init(tlc_hindex *ix, const tlc_allocator *a)
{
	memset(ix, 0, sizeof *ix);
	ix->a = a;
}

void tlc_hindex__free(tlc_hindex *ix)
{
	tlc_alloc__free(ix->a, ix->slots);
	ix->slots = NULL;
	ix->nslots = ix->count = 0;
}

void tlc_hindex__clear(tlc_hindex *ix)
{
	if (ix->slots)
		memset(ix->slots, 0, ix->nslots * sizeof *ix->slots);
	ix->count = 0;
}

/* at most 3/4 full (as tlc_hindex__reserve tests): with the full hash in
 * the slot a probe compares keys only on equal hashes, so longer clusters
 * cost little */
static size_t room(size_t nslots) { return nslots / 4 * 3; }

int tlc_hindex__grow(tlc_hindex *ix, size_t n)
{
	if (ix->nslots && n <= room(ix->nslots))
		return 0;
	size_t ns = ix->nslots ? ix->nslots : 16;
	while (n > room(ns)) {
		if (ns > SIZE_MAX / 2 / sizeof(tlc_hslot))
			return tlc_error__oom();
		ns *= 2;
	}
	tlc_hslot *s = tlc_alloc__calloc(ix->a, ns, sizeof *s);
	if (!s)
		return tlc_error__oom();
	for (size_t i = 0; i < ix->nslots; i++) {
		const tlc_hslot *o = &ix->slots[i];
		if (!o->idx1)
			continue;
		size_t j = (size_t)o->h & (ns - 1);
		while (s[j].idx1)
			j = (j + 1) & (ns - 1);
		s[j] = *o;
	}
	tlc_alloc__free(ix->a, ix->slots);
	ix->slots = s;
	ix->nslots = ns;
	return 0;
}

void tlc_hindex__fill(tlc_hindex *ix, tlc_hslot *s, uint64_t h, size_t idx)
{
	s->h = h;
	s->idx1 = idx + 1;
	ix->count++;
}

void tlc_hindex__remove(tlc_hindex *ix, tlc_hslot *s)
{
	size_t mask = ix->nslots - 1, i = (size_t)(s - ix->slots);
	s->idx1 = 0;
	ix->count--;
	/* backward shift: a later slot of the cluster whose home is not in
	 * (i, j] moves into the hole, so lookups never meet an early gap */
	for (size_t j = (i + 1) & mask; ix->slots[j].idx1; j = (j + 1) & mask) {
		size_t home = (size_t)ix->slots[j].h & mask;
		int between = i <= j ? (home > i && home <= j) : (home > i || home <= j);
		if (between)
			continue;
		ix->slots[i] = ix->slots[j];
		ix->slots[j].idx1 = 0;
		i = j;
	}
}

void tlc_hindex__renumber(tlc_hindex *ix, uint64_t h, size_t idx, size_t new_idx)
{
	size_t mask = ix->nslots - 1;
	for (size_t j = (size_t)h & mask; ix->slots[j].idx1; j = (j + 1) & mask) {
		if (ix->slots[j].idx1 == idx + 1) {
			ix->slots[j].idx1 = new_idx + 1;
			return;
		}
	}
}
