/*
 * libtlcost errors: return codes and the thread's error detail (docs/errors.md).
 *
 * Part of the libtlcost public API; <tlcost/tlcost.h> includes every module
 * header. Each header compiles on its own (tests/build/headers.sh).
 */
#ifndef TLCOST_ERRORS_H
#define TLCOST_ERRORS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Return codes (always <= 0). The stable snake_case detail code is in
 *  tlc_error_last()->code; branch on that for specific conditions. */
enum {
	TLC_OK = 0,
	TLC_ERROR = -1,       /* generic failure */
	TLC_ENOMEM = -2,      /* allocation failed */
	TLC_EIO = -3,         /* file could not be opened or read */
	TLC_EINVAL = -4,      /* invalid argument from the caller */
	TLC_EPARSE = -5,      /* input is not well-formed (JSON, rule file) */
	TLC_EINPUT = -6,      /* input well-formed but violates its format */
	TLC_EVERSION = -7,    /* unsupported format or ABI version */
	TLC_ENOTFOUND = -8,   /* named thing does not exist */
	TLC_EEXISTS = -9,     /* duplicate registration or id */
	TLC_EPLUGIN = -10,    /* plugin could not be loaded or initialised */
	TLC_EOVERFLOW = -11,  /* exact value does not fit the requested type */
	TLC_EREFUSED = -12,   /* a report refuses: the data cannot support it */
	TLC_EUNAVAILABLE = -13, /* a facility (device profiler) is unavailable */
	TLC_ESTATE = -14      /* call made in the wrong state */
};

/** Detail of the last failure on this thread; owned by the library, valid
 *  until the next failing call on this thread. Never NULL: without a
 *  failure, code is "ok". remedy is never empty for a failure. */
typedef struct tlc_error {
	int klass;           /* the TLC_E* value returned */
	const char *code;    /* stable snake_case code, e.g. "oplog_parse_error" */
	const char *message; /* cause, one sentence */
	const char *remedy;  /* what to do about it, never empty */
	const char *file;    /* input file, or NULL */
	uint64_t line;       /* 1-based; 0 = not about an input position */
	uint64_t column;     /* 1-based; 0 = unknown */
} tlc_error;

const tlc_error *tlc_error_last(void);

/** Clears this thread's error detail. */
void tlc_error_clear(void);

#ifdef __cplusplus
}
#endif
#endif /* TLCOST_ERRORS_H */
