/* Exact non-negative-or-signed integer counters: a 64-bit fast path that
 * promotes to GMP on overflow, so no total ever wraps or rounds. */
#ifndef TLC_ENGINE_COUNT_H
#define TLC_ENGINE_COUNT_H

#include <gmp.h>
#include <stdint.h>
#include "tlcost/tlcost.h"

typedef struct tlc_count {
	int64_t small;  /* value while !big */
	int big;        /* value lives in z */
	mpz_t z;        /* initialised only when big */
} tlc_count;

void tlc_count__init(tlc_count *c);
void tlc_count__clear(tlc_count *c);
void tlc_count__set(tlc_count *dst, const tlc_count *src);
/** c += coeff * prod(factors); factors >= 0 (caller checks). */
void tlc_count__add_product(tlc_count *c, int64_t coeff, size_t n, const int64_t *factors);
void tlc_count__add(tlc_count *c, const tlc_count *v);
/** c += k * v */
void tlc_count__addmul_si(tlc_count *c, const tlc_count *v, int64_t k);
void tlc_count__add_i64(tlc_count *c, int64_t v);
int tlc_count__sign(const tlc_count *c);
int tlc_count__cmp(const tlc_count *a, const tlc_count *b);
int tlc_count__is_zero(const tlc_count *c);
/** 0, or TLC_EOVERFLOW when c is negative or >= 2^64. */
int tlc_count__get_u64(uint64_t *out, const tlc_count *c);
double tlc_count__to_double(const tlc_count *c);
/** Decimal into a malloc'd string (NULL on failure). */
char *tlc_count__to_str(const tlc_count *c);
/** Decimal with thousands separators (1,234,567) into malloc'd string. */
char *tlc_count__to_str_grouped(const tlc_count *c);

#endif
