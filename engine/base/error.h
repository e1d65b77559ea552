/* Thread-local error detail (semi-private; see tlc_error_last). */
#ifndef TLC_ENGINE_ERROR_H
#define TLC_ENGINE_ERROR_H

#include <stdarg.h>
#include <stdint.h>
#include "tlcost/tlcost.h"

#if defined(__GNUC__)
#define TLC_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define TLC_PRINTF(a, b)
#endif

/** Records an error with no input position. remedy must be non-empty.
 *  Returns klass so callers can `return tlc_error__set(...)`. */
int tlc_error__set(int klass, const char *code, const char *remedy,
                   const char *fmt, ...) TLC_PRINTF(4, 5);

/** Records an input error at file:line:column (line/column 1-based, 0 if
 *  unknown). */
int tlc_error__set_pos(int klass, const char *code, const char *file, uint64_t line,
                       uint64_t column, const char *remedy, const char *fmt, ...)
	TLC_PRINTF(7, 8);

/** Records allocation failure (no allocation is made doing so). */
int tlc_error__oom(void);

/** Adds file/line/column to the current error when it has none. */
void tlc_error__locate(const char *file, uint64_t line, uint64_t column);

#endif
