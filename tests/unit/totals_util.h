/* Exact per-phase totals for the cmocka tests (include after <cmocka.h>):
 * the forward phase's total `which` must read `want`, digit for digit. */
#ifndef TLC_TESTS_TOTALS_UTIL_H
#define TLC_TESTS_TOTALS_UTIL_H

#include <tlcost/tlcost.h>

static inline void assert_total(const tlc_eval *ev, tlc_total which, const char *want)
{
	char *s = NULL;
	assert_int_equal(tlc_eval_total_str(&s, ev, TLC_PHASE_FORWARD, which), 0);
	assert_string_equal(s, want);
	tlc_free(s);
}

#endif
