/* The string checker the readers run before yajl (engine/input/json/jsontext.h):
 * every case is a JSON text with one string, judged against RFC 3629's
 * table of well-formed UTF-8 byte sequences (section 4) and RFC 8259's rule
 * that a surrogate escape comes as a high-low pair (section 7); each is
 * scanned whole and cut in two at every offset (the state carries across
 * calls), and must stop at the same byte with the same back distance. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "jsontext.h"

typedef struct jcase {
	const char *text;
	long stop;     /* offset of the byte the scan stops at; -1: well-formed */
	size_t back;   /* ... and how far before it the bad sequence starts */
	const char *why; /* a word the description must hold */
} jcase;

static const jcase cases[] = {
	{ "{\"a\":\"plain\"}", -1, 0, NULL },
	{ "{\"a\":\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf\"}", -1, 0, NULL },
	{ "{\"a\":\"\\ud83d\\ude00 \\uDBFF\\uDFFF \\u00e9 \\\" \\\\\"}", -1, 0, NULL },
	{ "[\xc0\xaf]", -1, 0, NULL },           /* outside strings: yajl's to refuse */
	{ "{\"a\":\"x\xc0\xaf\"}", 7, 0, "overlong" },
	{ "{\"a\":\"\xc1\xbf\"}", 6, 0, "overlong" },
	{ "{\"a\":\"\xe0\x80\xaf\"}", 7, 1, "overlong" },
	{ "{\"a\":\"\xf0\x8f\xbf\xbf\"}", 7, 1, "overlong" },
	{ "{\"a\":\"\xed\xa0\x80\"}", 7, 1, "surrogate" },
	{ "{\"a\":\"\xed\xbf\xbf\"}", 7, 1, "surrogate" },
	{ "{\"a\":\"\xf4\x90\x80\x80\"}", 7, 1, "10FFFF" },
	{ "{\"a\":\"\xf5\x80\x80\x80\"}", 6, 0, "10FFFF" },
	{ "{\"a\":\"\xf8\"}", 6, 0, "never" },
	{ "{\"a\":\"\xff\"}", 6, 0, "never" },
	{ "{\"a\":\"\x80\"}", 6, 0, "lead" },
	{ "{\"a\":\"\xe2\x82\"}", 8, 2, "truncated" },
	{ "{\"a\":\"\xf0\x9f\x98x\"}", 9, 3, "truncated" },
	{ "{\"a\":\"\xc3\xc3\xa9\"}", 7, 1, "truncated" },
	{ "{\"\xc0\xaf\":1}", 2, 0, "overlong" },  /* keys too */
	{ "{\"a\":\"\\ud800\"}", 12, 6, "high surrogate" },
	{ "{\"a\":\"\\ud800x\"}", 12, 6, "high surrogate" },
	{ "{\"a\":\"\\ud800\\n\"}", 13, 7, "high surrogate" },
	{ "{\"a\":\"\\udbff\\u0041\"}", 17, 11, "high surrogate" },
	{ "{\"a\":\"\\ud800\\ud800\"}", 17, 11, "high surrogate" },
	{ "{\"a\":\"ab\\udc00\"}", 13, 5, "low surrogate" },
	{ "{\"a\":\"\\uDFFF\"}", 11, 5, "low surrogate" },
};

/* Scans text in two calls, cut at cut; the offset where it stopped, or -1. */
static long scan_cut(const jcase *c, size_t cut, tlc_jsontext *t)
{
	const unsigned char *p = (const unsigned char *)c->text;
	size_t n = strlen(c->text);
	memset(t, 0, sizeof *t);
	size_t a = tlc_jsontext__scan(t, p, cut);
	if (a < cut)
		return (long)a;
	size_t b = tlc_jsontext__scan(t, p + cut, n - cut);
	return b < n - cut ? (long)(cut + b) : -1;
}

static void test_cases(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const jcase *c = &cases[i];
		for (size_t cut = 0; cut <= strlen(c->text); cut++) {
			tlc_jsontext t;
			long stop = scan_cut(c, cut, &t);
			if (stop != c->stop)
				fail_msg("case %zu cut %zu: stopped at %ld, want %ld", i, cut, stop, c->stop);
			if (c->stop < 0)
				continue;
			assert_int_equal(tlc_jsontext__back(&t), c->back);
			char why[200];
			tlc_jsontext__describe(&t, why, sizeof why);
			if (!strstr(why, c->why))
				fail_msg("case %zu: '%s' does not say '%s'", i, why, c->why);
			/* failed stays failed */
			assert_int_equal(tlc_jsontext__scan(&t, (const unsigned char *)"\"x\"", 3), 0);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_cases) };
	return cmocka_run_group_tests(tests, NULL, NULL);
}
