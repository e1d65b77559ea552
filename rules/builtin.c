/* The list of built-in rule families, registered in this order, each as its
 * own provider "builtin:FAMILY". Adding a family: one file plus one entry in
 * TLC_RULE_FAMILIES (rules/rules.h). */
#include "engine.h"
#include "rules.h"

#define TLC_FAMILY_ENTRY(f) { #f, tlc_rules__##f##_init },
static const tlc_builtin_family families[] = {
	TLC_RULE_FAMILIES(TLC_FAMILY_ENTRY)
};
#undef TLC_FAMILY_ENTRY

int tlc_rules__register_builtins(tlc_engine *eng)
{
	char label[64];
	for (size_t i = 0; i < sizeof families / sizeof families[0]; i++) {
		snprintf(label, sizeof label, "builtin:%s", families[i].name);
		int rc = tlc_engine__run_init(eng, label, families[i].init, NULL);
		if (rc < 0)
			return rc;
	}
	return 0;
}
