/* Rule registry (semi-private): name -> rule, with providers so a failed
 * plugin init can remove everything it added. */
#ifndef TLC_ENGINE_REGISTRY_H
#define TLC_ENGINE_REGISTRY_H

#include "tlcost/tlcost.h"
#include "alloc.h"

typedef struct tlc_rule {
	tlc_rule_info info;    /* name/note/provider owned by the registry */
	tlc_rule_fn fn;
	void *payload;
	unsigned provider_id;  /* who registered it */
	struct tlc_rule *shadowed; /* rule this one overrides (restored on removal) */
} tlc_rule;

typedef struct tlc_registry tlc_registry;

int tlc_registry__new(tlc_registry **out, const tlc_allocator *a);
void tlc_registry__free(tlc_registry *reg);

/** New provider id for a label like "plugin:example" (copied). */
int tlc_registry__provider(unsigned *out, tlc_registry *reg, const char *label);
/** Adds a rule. Duplicate names are refused (rule_duplicate) unless
 *  def->flags has TLC_RULE_OVERRIDE, which is recorded as a notice. */
int tlc_registry__add(tlc_registry *reg, unsigned provider_id, const tlc_rule_def *def);
/** Removes every rule of a provider (restoring what it overrode) and its
 *  notices. */
void tlc_registry__remove_provider(tlc_registry *reg, unsigned provider_id);
/** 1 when a rule of the provider labelled label is registered, active or
 *  overridden (packs.c: whether a pack is loaded), else 0. */
int tlc_registry__provider_has_rules(const tlc_registry *reg, const char *label);

/** Lookup: "ns::op.overload" first, then "ns::op". NULL when none. */
const tlc_rule *tlc_registry__find(const tlc_registry *reg, const char *name,
                                   const char *overload);

size_t tlc_registry__count(const tlc_registry *reg);
const tlc_rule_info *tlc_registry__at(const tlc_registry *reg, size_t i);
size_t tlc_registry__notice_count(const tlc_registry *reg);
const tlc_notice *tlc_registry__notice_at(const tlc_registry *reg, size_t i);

#endif
