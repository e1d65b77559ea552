/* gen_collide [N]: an op log of N records whose op names all share one
 * full 64-bit value of the byte hash tlcost used before SipHash
 * (h = g(h ^ w) per 8-byte word, g(x) = x * C then x ^= x >> 29, then
 * fmix64). Each name is 24 printable ASCII bytes: "aten::op", 8 letters
 * from a counter-like generator, then a third word solved through the
 * inverse of g so that the state after it is one fixed target; a name is
 * kept only when that word is printable and needs no JSON escape (about
 * one try in 3,300). Under the old hash every new name probed every name
 * before it (20,000 records: 2.1 s CPU, 40,000: 9.3 s); under a keyed hash
 * they spread like any names (0.05 s, 0.10 s). Reproduces the hostile
 * input of the hashing change; not part of `make check`. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint64_t MUL = 0xc4ceb9fe1a85ec53ULL;

/* inverse of an odd c mod 2^64: Newton's step doubles the right low bits */
static uint64_t inv_odd(uint64_t c)
{
	uint64_t y = c;
	for (int i = 0; i < 6; i++)
		y *= 2 - c * y;
	return y;
}

static uint64_t absorb(uint64_t h, uint64_t w)
{
	h = (h ^ w) * MUL;
	return h ^ (h >> 29);
}

/* h ^ w for the state y = absorb(h, w): y ^= y >> 29 undone (29, 58),
 * then the multiply */
static uint64_t unabsorb(uint64_t y, uint64_t mul_inv)
{
	y ^= (y >> 29) ^ (y >> 58);
	return y * mul_inv;
}

static int printable(uint64_t w)
{
	for (int i = 0; i < 8; i++) {
		unsigned char b = (unsigned char)(w >> (8 * i));
		if (b < 0x20 || b > 0x7e || b == '"' || b == '\\')
			return 0;
	}
	return 1;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 20000;
	uint64_t mul_inv = inv_odd(MUL), x = 88172645463325252ULL; /* xorshift64 state */
	const size_t len = 24;
	uint64_t h0 = 0x9E3779B97F4A7C15ULL ^ (len * 0xff51afd7ed558ccdULL); /* the old seed */
	uint64_t w1, target = 0x0123456789abcdefULL;
	memcpy(&w1, "aten::op", 8);
	uint64_t h1 = absorb(h0, w1);
	printf("{\"format\":\"tlcost-oplog\",\"version\":1,\"producer\":\"gen_collide\"}\n");
	for (long i = 0; i < n;) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		uint64_t w2 = 0;
		for (int b = 0; b < 8; b++)
			w2 |= (uint64_t)('a' + (x >> (5 * b)) % 26) << (8 * b);
		uint64_t h2 = absorb(h1, w2), w3 = unabsorb(target, mul_inv) ^ h2;
		if (!printable(w3))
			continue;
		if (absorb(h2, w3) != target) {
			fprintf(stderr, "gen_collide: the inverse is wrong\n");
			return 1;
		}
		char name[25];
		memcpy(name, &w1, 8);
		memcpy(name + 8, &w2, 8);
		memcpy(name + 16, &w3, 8);
		name[24] = '\0';
		printf("{\"id\":%ld,\"op\":\"%s\",\"overload\":\"default\",\"phase\":\"forward\","
		       "\"args\":[]}\n", i, name);
		i++;
	}
	return 0;
}
