/* Engine internals (semi-private). */
#ifndef TLC_ENGINE_ENGINE_H
#define TLC_ENGINE_ENGINE_H

#include "tlcost/tlcost.h"
#include "alloc.h"
#include "registry.h"

/* Registration context handed to a plugin's init(). */
struct tlc_plugin_ctx {
	tlc_registry *reg;
	unsigned provider_id;
	int open;        /* registration allowed only while init runs */
	int failed;      /* a registration failed */
	const tlc_allocator *a;
	const void *init_payload; /* given to tlc_engine__run_init_payload (rule files) */
};

typedef struct tlc_loaded_plugin {
	void *handle;
	char *path;
	unsigned provider_id;
	struct tlc_loaded_plugin *next;
	char *name;      /* descriptor name (loader.c: refuses a second load) */
} tlc_loaded_plugin;

struct tlc_engine {
	const tlc_allocator *a;
	tlc_allocator a_copy;
	tlc_registry *reg;
	tlc_loaded_plugin *plugins;
	tlc_plugin_ctx **ctxs;  /* every registration context, kept so a late
	                           register call is refused instead of crashing */
	size_t nctx, ctxcap;
	unsigned api_provider;  /* provider of tlc_engine_register_rule */
	int api_provider_set;
	struct tlc_owned *owned; /* freed by tlc_engine__free_owned (rule files) */
	void *gmp;              /* tlc_gmp__attach handle (TLC_ENGINE_GMP_ALLOCATOR) */
};

/** The host table's register_rule: honours ctx->open and collect mode. */
int tlc_engine__register_cb(tlc_plugin_ctx *ctx, const tlc_rule_def *def);

/** Closes every loaded plugin (engine/registry/loader.c). */
void tlc_loader__close_all(tlc_engine *eng);

/** Checks a plugin descriptor as tlc_engine_load_plugin does (ABI version
 *  first, then size, name, init) without loading anything; path names the
 *  plugin in the error. Returns 0, TLC_EVERSION or TLC_EPLUGIN. */
int tlc_loader__check_desc(const tlc_plugin_desc *d, const char *path);

/** Runs init as provider `label` with the registration window open; on
 *  failure removes everything it registered. Used for built-ins and plugins. */
int tlc_engine__run_init(tlc_engine *eng, const char *label,
                         int (*init)(tlc_plugin_ctx *, const tlc_host *),
                         unsigned *provider_out);
/** Same, with a payload the init reads from its ctx (ctx->init_payload):
 *  how a rule file hands its parsed rules to its init, without parking
 *  them in the engine. */
int tlc_engine__run_init_payload(tlc_engine *eng, const char *label,
                                 int (*init)(tlc_plugin_ctx *, const tlc_host *),
                                 const void *payload, unsigned *provider_out);
/** The active rule for name/overload (the eval's lookup), or NULL. */
const tlc_rule *tlc_engine__find_rule(const tlc_engine *eng, const char *name,
                                      const char *overload);

/* TLC-RULEFILE-BEGIN */
/* Memory the engine owns for its whole life, freed by tlc_engine_free after
 * the registry (rule-file payloads that registered rules point into). */
typedef struct tlc_owned {
	void *p;
	void (*free_fn)(void *p, const tlc_allocator *a);
	struct tlc_owned *next;
} tlc_owned;

/** Hands p to the engine: free_fn(p, eng->a) runs in tlc_engine_free.
 *  Returns 0 or TLC_ENOMEM (p is then still the caller's). */
int tlc_engine__own(tlc_engine *eng, void *p, void (*free_fn)(void *, const tlc_allocator *));
/** Frees p now if the engine owns it (a rule file whose registration failed). */
void tlc_engine__disown_free(tlc_engine *eng, void *p);
/** Frees everything handed to tlc_engine__own (engine/registry/rulefile.c). */
void tlc_engine__free_owned(tlc_engine *eng);
/* TLC-RULEFILE-END */

#endif
