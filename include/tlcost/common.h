/*
 * libtlcost common definitions: version, memory returned to the caller, output formats.
 *
 * Part of the libtlcost public API; <tlcost/tlcost.h> includes every module
 * header. Each header compiles on its own (tests/headers.sh).
 */
#ifndef TLCOST_COMMON_H
#define TLCOST_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TLC_VERSION_STRING "0.1.0"

/** Frees memory the library returned through a char ** out parameter. */
void tlc_free(void *p);

/** Output formats of the writers (tlc_write_*). */
typedef enum tlc_format {
	TLC_FORMAT_TEXT = 0,
	TLC_FORMAT_JSON,
	TLC_FORMAT_CSV
} tlc_format;

#ifdef __cplusplus
}
#endif
#endif /* TLCOST_COMMON_H */
