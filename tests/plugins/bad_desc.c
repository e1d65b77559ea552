/* Fixture plugins with an invalid descriptor, one per FIXTURE_BAD value
 * (set by tests/local.mk). Each init would register a rule, so the test can
 * tell that init never ran. */
#include "tlcost/plugin.h"

#define BAD_NULL_NAME 1
#define BAD_LONG_NAME 2
#define BAD_NAME_CHARS 3
#define BAD_EMPTY_NAME 4
#define BAD_NULL_INIT 5
#define BAD_SMALL_SIZE 6
#define BAD_DESC_NULL 7

#ifndef FIXTURE_BAD
#error "define FIXTURE_BAD"
#endif

static int init(tlc_plugin_ctx *ctx, const tlc_host *host)
{
	static const tlc_rule_def def = { sizeof(tlc_rule_def), "fixture::bad_desc",
	                                  TLC_RULE_ZERO, TLC_EVIDENCE_FORMULA_EXACT, NULL,
	                                  NULL, "must never be registered", 0 };
	return host->register_rule(ctx, &def);
}

/* 300 characters, all of them legal: only the length is wrong */
#define X10 "xxxxxxxxxx"
#define X100 X10 X10 X10 X10 X10 X10 X10 X10 X10 X10
#define LONG_NAME X100 X100 X100

#if FIXTURE_BAD == BAD_NULL_NAME
#define NAME NULL
#elif FIXTURE_BAD == BAD_LONG_NAME
#define NAME LONG_NAME
#elif FIXTURE_BAD == BAD_NAME_CHARS
#define NAME "bad name/with spaces"
#elif FIXTURE_BAD == BAD_EMPTY_NAME
#define NAME ""
#else
#define NAME "bad_desc"
#endif

#if FIXTURE_BAD == BAD_NULL_INIT
#define INIT NULL
#else
#define INIT init
#endif

#if FIXTURE_BAD == BAD_SMALL_SIZE
#define SIZE 8 /* abi_version and size only */
#else
#define SIZE sizeof(tlc_plugin_desc)
#endif

static const tlc_plugin_desc desc = { TLC_PLUGIN_ABI_VERSION, SIZE, NAME, "0", INIT };

const tlc_plugin_desc *tlc_plugin_describe(void);
const tlc_plugin_desc *tlc_plugin_describe(void)
{
	(void)init; /* unused when INIT is NULL */
#if FIXTURE_BAD == BAD_DESC_NULL
	(void)desc;
	return NULL;
#else
	return &desc;
#endif
}
