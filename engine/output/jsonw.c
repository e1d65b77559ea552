/* JSON output through yajl_gen. */
#include <string.h>
#include "jsonw.h"
#include "error.h"
#include "textw.h"

static void print_cb(void *ctx, const char *s, size_t len) { fwrite(s, 1, len, (FILE *)ctx); }

yajl_gen tlc_jsonw__new(FILE *out)
{
	yajl_gen g = yajl_gen_alloc(NULL);
	if (!g)
		return NULL;
	yajl_gen_config(g, yajl_gen_beautify, 1);
	yajl_gen_config(g, yajl_gen_indent_string, "  ");
	yajl_gen_config(g, yajl_gen_validate_utf8, 1);
	yajl_gen_config(g, yajl_gen_print_callback, print_cb, (void *)out);
	return g;
}

void tlc_jsonw__key(yajl_gen g, const char *key)
{
	yajl_gen_string(g, (const unsigned char *)key, strlen(key));
}

void tlc_jsonw__str(yajl_gen g, const char *s)
{
	if (!s) {
		yajl_gen_null(g);
		return;
	}
	if (yajl_gen_string(g, (const unsigned char *)s, strlen(s)) == yajl_gen_invalid_string)
		yajl_gen_string(g, (const unsigned char *)"(invalid utf-8)", 15);
}

void tlc_jsonw__kstr(yajl_gen g, const char *key, const char *s)
{
	tlc_jsonw__key(g, key);
	tlc_jsonw__str(g, s);
}

void tlc_jsonw__kint(yajl_gen g, const char *key, int64_t v)
{
	tlc_jsonw__key(g, key);
	yajl_gen_integer(g, (long long)v);
}

void tlc_jsonw__kuint(yajl_gen g, const char *key, uint64_t v)
{
	char buf[32];
	int n = snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
	tlc_jsonw__key(g, key);
	yajl_gen_number(g, buf, (size_t)n);
}

void tlc_jsonw__knum(yajl_gen g, const char *key, const char *decimal)
{
	tlc_jsonw__key(g, key);
	if (decimal)
		yajl_gen_number(g, decimal, strlen(decimal));
	else
		yajl_gen_null(g);
}

void tlc_jsonw__kbool(yajl_gen g, const char *key, int v)
{
	tlc_jsonw__key(g, key);
	yajl_gen_bool(g, v != 0);
}

void tlc_jsonw__kdouble(yajl_gen g, const char *key, double v)
{
	tlc_jsonw__key(g, key);
	if (v != v || v > 1e308 || v < -1e308)
		yajl_gen_null(g);
	else
		yajl_gen_double(g, v);
}

void tlc_jsonw__real(yajl_gen g, double v)
{
	char buf[40];
	if (v != v || v > 1e308 || v < -1e308) {
		yajl_gen_null(g);
		return;
	}
	int n = snprintf(buf, sizeof buf, "%.6g", v);
	yajl_gen_number(g, buf, (size_t)n);
}

void tlc_jsonw__kreal(yajl_gen g, const char *key, double v)
{
	tlc_jsonw__key(g, key);
	tlc_jsonw__real(g, v);
}

void tlc_jsonw__knull(yajl_gen g, const char *key)
{
	tlc_jsonw__key(g, key);
	yajl_gen_null(g);
}

int tlc_jsonw__end(yajl_gen g, FILE *out)
{
	yajl_gen_free(g);
	fputc('\n', out);
	return tlc_textw__finish(out, 0);
}
