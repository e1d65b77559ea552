/* JSON writing on top of yajl_gen (semi-private): exact integers are
 * emitted as number text, never through a double. */
#ifndef TLC_ENGINE_JSONW_H
#define TLC_ENGINE_JSONW_H

#include <stdint.h>
#include <stdio.h>
#include <yajl/yajl_gen.h>

/** A beautified generator printing to out; NULL on allocation failure. */
yajl_gen tlc_jsonw__new(FILE *out);
void tlc_jsonw__key(yajl_gen g, const char *key);
void tlc_jsonw__str(yajl_gen g, const char *s); /* NULL -> null */
void tlc_jsonw__kstr(yajl_gen g, const char *key, const char *s);
void tlc_jsonw__kint(yajl_gen g, const char *key, int64_t v);
void tlc_jsonw__kuint(yajl_gen g, const char *key, uint64_t v);
/** Decimal integer text of any size as a JSON number (NULL -> null). */
void tlc_jsonw__knum(yajl_gen g, const char *key, const char *decimal);
void tlc_jsonw__kbool(yajl_gen g, const char *key, int v);
void tlc_jsonw__kdouble(yajl_gen g, const char *key, double v);
/** A ratio or rate shown to 6 significant digits (null when not finite):
 *  for derived quantities, never for exact counts. */
void tlc_jsonw__real(yajl_gen g, double v);
void tlc_jsonw__kreal(yajl_gen g, const char *key, double v);
/** A key whose value is null. */
void tlc_jsonw__knull(yajl_gen g, const char *key);
/** Finishes and frees; flushes out and returns 0, or TLC_EIO
 *  (output_write_failed) when a write failed. */
int tlc_jsonw__end(yajl_gen g, FILE *out);

#endif
