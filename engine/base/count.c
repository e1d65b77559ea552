/* Exact counters: int64 fast path, GMP once a value leaves int64. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "count.h"

void tlc_count__init(tlc_count *c)
{
	c->small = 0;
	c->big = 0;
}

void tlc_count__clear(tlc_count *c)
{
	if (c->big)
		mpz_clear(c->z);
	c->big = 0;
	c->small = 0;
}

static void promote(tlc_count *c)
{
	if (c->big)
		return;
	mpz_init_set_si(c->z, (long)c->small);
	c->big = 1;
}

void tlc_count__set(tlc_count *dst, const tlc_count *src)
{
	if (dst == src)
		return;
	if (src->big) {
		promote(dst);
		mpz_set(dst->z, src->z);
	} else {
		tlc_count__clear(dst);
		dst->small = src->small;
	}
}

/* GMP product of coeff and factors into t (t initialised by caller). */
static void product_big(mpz_t t, int64_t coeff, size_t n, const int64_t *factors)
{
	mpz_set_si(t, (long)coeff);
	for (size_t i = 0; i < n; i++)
		mpz_mul_si(t, t, (long)factors[i]);
}

static void add_big(tlc_count *c, const mpz_t t)
{
	promote(c);
	mpz_add(c->z, c->z, t);
}

void tlc_count__add_product(tlc_count *c, int64_t coeff, size_t n, const int64_t *factors)
{
	if (coeff == 0)
		return;
	int64_t p = coeff;
	int overflow = 0;
	for (size_t i = 0; i < n && !overflow; i++)
		overflow = __builtin_mul_overflow(p, factors[i], &p);
	int64_t sum;
	/* the builtin stores the wrapped sum even on overflow: use a temporary */
	if (!overflow && !c->big && !__builtin_add_overflow(c->small, p, &sum)) {
		c->small = sum;
		return;
	}
	mpz_t t;
	mpz_init(t);
	if (overflow)
		product_big(t, coeff, n, factors);
	else
		mpz_set_si(t, (long)p);
	add_big(c, t);
	mpz_clear(t);
}

void tlc_count__add_i64(tlc_count *c, int64_t v)
{
	int64_t sum;
	if (!c->big && !__builtin_add_overflow(c->small, v, &sum)) {
		c->small = sum;
		return;
	}
	tlc_count__add_product(c, v, 0, NULL);
}

void tlc_count__add(tlc_count *c, const tlc_count *v)
{
	if (!v->big) {
		tlc_count__add_i64(c, v->small);
		return;
	}
	promote(c);
	mpz_add(c->z, c->z, v->z);
}

void tlc_count__addmul_si(tlc_count *c, const tlc_count *v, int64_t k)
{
	int64_t p, sum;
	if (!v->big && !c->big && !__builtin_mul_overflow(v->small, k, &p) &&
	    !__builtin_add_overflow(c->small, p, &sum)) {
		c->small = sum;
		return;
	}
	if (!v->big) {
		int64_t f = v->small;
		tlc_count__add_product(c, k, 1, &f);
		return;
	}
	promote(c);
	mpz_t t;
	mpz_init(t);
	mpz_mul_si(t, v->z, (long)k);
	mpz_add(c->z, c->z, t);
	mpz_clear(t);
}

int tlc_count__sign(const tlc_count *c)
{
	if (c->big)
		return mpz_sgn(c->z);
	return (c->small > 0) - (c->small < 0);
}

int tlc_count__is_zero(const tlc_count *c) { return tlc_count__sign(c) == 0; }

int tlc_count__cmp(const tlc_count *a, const tlc_count *b)
{
	if (!a->big && !b->big)
		return (a->small > b->small) - (a->small < b->small);
	mpz_t x, y;
	mpz_init_set_si(x, (long)a->small);
	mpz_init_set_si(y, (long)b->small);
	int r = mpz_cmp(a->big ? a->z : x, b->big ? b->z : y);
	mpz_clear(x);
	mpz_clear(y);
	return r;
}

int tlc_count__get_u64(uint64_t *out, const tlc_count *c)
{
	if (!c->big) {
		if (c->small < 0)
			return TLC_EOVERFLOW;
		*out = (uint64_t)c->small;
		return 0;
	}
	if (mpz_sgn(c->z) < 0 || mpz_sizeinbase(c->z, 2) > 64)
		return TLC_EOVERFLOW;
	uint64_t v = 0;
	size_t count = 0;
	mpz_export(&v, &count, -1, sizeof v, 0, 0, c->z);
	*out = count ? v : 0;
	return 0;
}

double tlc_count__to_double(const tlc_count *c)
{
	return c->big ? mpz_get_d(c->z) : (double)c->small;
}

char *tlc_count__to_str(const tlc_count *c)
{
	if (c->big) {
		size_t n = mpz_sizeinbase(c->z, 10) + 2;
		char *s = malloc(n);
		if (s)
			mpz_get_str(s, 10, c->z);
		return s;
	}
	char *s = malloc(24);
	if (s)
		snprintf(s, 24, "%lld", (long long)c->small);
	return s;
}

char *tlc_count__to_str_grouped(const tlc_count *c)
{
	char *plain = tlc_count__to_str(c);
	if (!plain)
		return NULL;
	const char *digits = plain[0] == '-' ? plain + 1 : plain;
	size_t nd = strlen(digits);
	size_t n = nd + (nd - 1) / 3 + 2;
	char *s = malloc(n);
	if (!s) {
		free(plain);
		return NULL;
	}
	char *w = s;
	if (plain[0] == '-')
		*w++ = '-';
	for (size_t i = 0; i < nd; i++) {
		if (i && (nd - i) % 3 == 0)
			*w++ = ',';
		*w++ = digits[i];
	}
	*w = '\0';
	free(plain);
	return s;
}
