/*
 * libtlcost common definitions: version, memory returned to the caller, output formats.
 *
 * Part of the libtlcost public API; <tlcost/tlcost.h> includes every module
 * header. Each header compiles on its own (tests/build/headers.sh).
 */
#ifndef TLCOST_COMMON_H
#define TLCOST_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#include <tlcost/version.h> /* generated: TLC_VERSION_STRING, _MAJOR, _MINOR, _PATCH */

/** The version of the library running (the headers' is TLC_VERSION_*).
 *  Each out parameter may be NULL. Returns the version string, e.g.
 *  "0.1.0"; static, never NULL. */
const char *tlc_version(int *major, int *minor, int *patch);

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
