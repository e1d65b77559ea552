/* Fixture plugins that hand register_rule a bad definition, one per
 * FIXTURE_BAD value (set by tests/local.mk). Each first registers a valid
 * rule, then the bad one, and then returns 0 as if nothing happened: the
 * host must still fail the load and remove the valid rule too. */
#include "tlcost/plugin.h"

#define BAD_NULL_FN 1      /* a COST rule without a function */
#define BAD_NULL_DEF 2     /* def == NULL */
#define BAD_DEF_SIZE 3     /* def->size too small */
#define BAD_RULE_NAME 4    /* no "::" */
#define BAD_KIND 5         /* kind out of range */
#define BAD_NULL_RULE_NAME 6

#ifndef FIXTURE_BAD
#error "define FIXTURE_BAD"
#endif

static const tlc_rule_def ok = { sizeof(tlc_rule_def), "fixture::ok_before", TLC_RULE_ZERO,
                                 TLC_EVIDENCE_FORMULA_EXACT, NULL, NULL,
                                 "valid, registered before the bad one", 0 };

#if FIXTURE_BAD == BAD_NULL_FN
static const tlc_rule_def bad = { sizeof(tlc_rule_def), "fixture::no_fn", TLC_RULE_COST,
                                  TLC_EVIDENCE_FORMULA_EXACT, NULL, NULL, "no fn", 0 };
#elif FIXTURE_BAD == BAD_DEF_SIZE
static const tlc_rule_def bad = { 4, "fixture::small", TLC_RULE_ZERO,
                                  TLC_EVIDENCE_FORMULA_EXACT, NULL, NULL, "size 4", 0 };
#elif FIXTURE_BAD == BAD_RULE_NAME
static const tlc_rule_def bad = { sizeof(tlc_rule_def), "no_namespace", TLC_RULE_ZERO,
                                  TLC_EVIDENCE_FORMULA_EXACT, NULL, NULL, "bad name", 0 };
#elif FIXTURE_BAD == BAD_KIND
static const tlc_rule_def bad = { sizeof(tlc_rule_def), "fixture::bad_kind",
                                  (tlc_rule_kind)77, TLC_EVIDENCE_FORMULA_EXACT, NULL,
                                  NULL, "kind 77", 0 };
#elif FIXTURE_BAD == BAD_NULL_RULE_NAME
static const tlc_rule_def bad = { sizeof(tlc_rule_def), NULL, TLC_RULE_ZERO,
                                  TLC_EVIDENCE_FORMULA_EXACT, NULL, NULL, "NULL name", 0 };
#endif

static int init(tlc_plugin_ctx *ctx, const tlc_host *host)
{
	if (host->register_rule(ctx, &ok) < 0)
		return -2;
#if FIXTURE_BAD == BAD_NULL_DEF
	(void)host->register_rule(ctx, NULL);
#else
	(void)host->register_rule(ctx, &bad);
#endif
	return 0; /* hostile: pretends the refusal did not happen */
}

static const tlc_plugin_desc desc = {
	TLC_PLUGIN_ABI_VERSION, sizeof(tlc_plugin_desc), "bad_rule", "0", init
};

const tlc_plugin_desc *tlc_plugin_describe(void);
const tlc_plugin_desc *tlc_plugin_describe(void) { return &desc; }
