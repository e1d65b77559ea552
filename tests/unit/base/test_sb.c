/* The string builder's decimal integers (engine/base/alloc.c
 * tlc_sb__put_i64), which the shapes summary of every op row uses instead
 * of printf: each value must read exactly as libc's snprintf("%lld")
 * spells it (the independent reference here), the int64 ends included,
 * and appends must follow earlier text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "tlcost/tlcost.h"
#include "alloc.h"

static void check_one(int64_t v)
{
	char want[32];
	snprintf(want, sizeof want, "x%lld", (long long)v);
	tlc_sb sb;
	tlc_sb__init(&sb, tlc_alloc__default());
	tlc_sb__putc(&sb, 'x');
	tlc_sb__put_i64(&sb, v);
	assert_false(sb.failed);
	assert_string_equal(tlc_sb__str(&sb), want);
	tlc_sb__free(&sb);
}

static void test_put_i64(void **state)
{
	(void)state;
	static const int64_t fixed[] = { 0, 1, -1, 9, 10, -10, 99, 100, 4096, 65536,
		                         INT32_MAX, (int64_t)INT32_MAX + 1, INT32_MIN,
		                         999999999999999999, 1000000000000000000,
		                         INT64_MAX, INT64_MAX - 1, INT64_MIN, INT64_MIN + 1 };
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		check_one(fixed[i]);
	/* every power of ten and its neighbours, both signs */
	for (int64_t p = 1; ; p *= 10) {
		check_one(p - 1), check_one(p), check_one(p + 1);
		check_one(-p + 1), check_one(-p), check_one(-p - 1);
		if (p > INT64_MAX / 10)
			break;
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_put_i64),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
