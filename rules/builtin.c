/* The list of built-in rule families, registered in this order, each as its
 * own provider "builtin:FAMILY". Adding a family: one file plus one entry in
 * TLC_RULE_FAMILIES (rules/rules.h). This file sees only plugin.h: the
 * engine (engine/registry/engine.c) runs each init exactly as it runs an
 * outside plugin's. */
#include "rules.h"

#define TLC_FAMILY_ENTRY(f) { #f, tlc_rules__##f##_init },
static const tlc_builtin_family families[] = {
	TLC_RULE_FAMILIES(TLC_FAMILY_ENTRY)
};
#undef TLC_FAMILY_ENTRY

const tlc_builtin_family *tlc_rules__families(size_t *n)
{
	*n = sizeof families / sizeof families[0];
	return families;
}
