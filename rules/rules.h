/* Built-in rule families. Each file rules/FAMILY.c defines one init with the
 * plugin init signature and registers its rules through host->register_rule,
 * and its rules call the host table's helpers (host->arg, ...), exactly as
 * an outside plugin does. */
#ifndef TLC_RULES_RULES_H
#define TLC_RULES_RULES_H

#include <stddef.h>
#include "tlcost/plugin.h"

#define TLC_RULE_FAMILIES(X) \
	X(matmul) X(conv) X(attention) X(layout) \
	X(pointwise) X(norm) X(reduce) X(pool) X(upsample) \
	X(embedding) X(index) X(loss) X(optimizer) X(structural) \
	X(collective) X(inductor) X(quant)

#define TLC_DECLARE_FAMILY(f) \
	int tlc_rules__##f##_init(tlc_plugin_ctx *ctx, const tlc_host *host);
TLC_RULE_FAMILIES(TLC_DECLARE_FAMILY)
#undef TLC_DECLARE_FAMILY

/** One built-in family: its name (provider "builtin:NAME") and its init,
 *  with the plugin init signature. */
typedef struct tlc_builtin_family {
	const char *name;
	int (*init)(tlc_plugin_ctx *ctx, const tlc_host *host);
} tlc_builtin_family;

/** The built-in families in registration order (rules/builtin.c); the
 *  engine registers each through the plugin ABI. *n receives the count. */
const tlc_builtin_family *tlc_rules__families(size_t *n);

#endif
