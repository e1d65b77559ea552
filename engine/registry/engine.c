/* Engine: allocator, rule registry, registration windows for built-in
 * families, plugins and API callers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine.h"
#include "gmpalloc.h"
#include "cost.h"
#include "rules.h"
#include "packs.h"

static int pick_allocator(const tlc_allocator **out, const tlc_engine_options *opts)
{
	*out = tlc_alloc__default();
	if (!opts || opts->size < offsetof(tlc_engine_options, allocator) + sizeof opts->allocator ||
	    !opts->allocator)
		return 0;
	const tlc_allocator *a = opts->allocator;
	if (!a->malloc_fn || !a->realloc_fn || !a->free_fn)
		return tlc_error__set(TLC_EINVAL, "invalid_argument",
		                      "set malloc_fn, realloc_fn and free_fn",
		                      "custom allocator is missing a function");
	*out = a;
	return 0;
}

/* Every built-in rule family (rules/), each as its own provider
 * "builtin:FAMILY", through the same registration path as a plugin. */
static int register_builtins(tlc_engine *eng)
{
	char label[64];
	size_t n;
	const tlc_builtin_family *fam = tlc_rules__families(&n);
	for (size_t i = 0; i < n; i++) {
		snprintf(label, sizeof label, "%s%s", "builtin:", fam[i].name);
		int rc = tlc_engine__run_init(eng, label, fam[i].init, NULL);
		if (rc < 0)
			return rc;
	}
	return 0;
}

int tlc_engine_new(tlc_engine **out, const tlc_engine_options *opts)
{
	if (!out)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass a tlc_engine **",
		                      "tlc_engine_new: out is NULL");
	*out = NULL;
	const tlc_allocator *a;
	int rc = pick_allocator(&a, opts);
	if (rc < 0)
		return rc;
	tlc_engine *eng = tlc_alloc__calloc(a, 1, sizeof *eng);
	if (!eng)
		return tlc_error__oom();
	eng->a_copy = *a;
	eng->a = &eng->a_copy;
	rc = tlc_registry__new(&eng->reg, eng->a);
	if (rc == 0 && opts && opts->size >= offsetof(tlc_engine_options, flags) + sizeof opts->flags &&
	    (opts->flags & TLC_ENGINE_GMP_ALLOCATOR) && !(eng->gmp = tlc_gmp__attach(eng->a)))
		rc = TLC_ENOMEM;
	if (rc == 0 && !(opts && (opts->flags & TLC_ENGINE_NO_BUILTINS)))
		rc = register_builtins(eng);
	/* packs are data, on by default like the built-ins; an empty registry
	 * (NO_BUILTINS) stays empty (docs/packs.md) */
	if (rc == 0 && !(opts && (opts->flags & (TLC_ENGINE_NO_BUILTINS | TLC_ENGINE_NO_PACKS))))
		rc = tlc_packs__load_all(eng);
	if (rc < 0) {
		tlc_engine_free(eng);
		return rc;
	}
	*out = eng;
	return 0;
}

void tlc_engine_free(tlc_engine *eng)
{
	if (!eng)
		return;
	/* rules may point into plugin code: drop them before closing plugins */
	tlc_registry__free(eng->reg);
	eng->reg = NULL;
	tlc_engine__free_owned(eng); /* rule-file payloads the rules pointed into */
	tlc_loader__close_all(eng);
	for (size_t i = 0; i < eng->nctx; i++)
		tlc_alloc__free(eng->a, eng->ctxs[i]);
	tlc_alloc__free(eng->a, eng->ctxs);
	tlc_gmp__detach(eng->gmp);
	tlc_allocator a = eng->a_copy; /* eng itself was allocated with it */
	tlc_alloc__free(&a, eng);
}

int tlc_engine__register_cb(tlc_plugin_ctx *ctx, const tlc_rule_def *def)
{
	if (!ctx)
		return tlc_error__set(TLC_EINVAL, "invalid_argument",
		                      "pass the ctx your init() received",
		                      "register_rule called with a NULL context");
	if (!ctx->open) {
		ctx->failed = 1;
		return tlc_error__set(TLC_ESTATE, "plugin_registration_closed",
		                      "register rules only from inside your plugin's init()",
		                      "a rule registration arrived after the plugin's init returned");
	}
	int rc = tlc_registry__add(ctx->reg, ctx->provider_id, def);
	if (rc < 0)
		ctx->failed = 1;
	return rc;
}

static int new_ctx(tlc_plugin_ctx **out, tlc_engine *eng, unsigned provider,
                   const void *payload)
{
	if (tlc_alloc__grow(eng->a, (void **)&eng->ctxs, &eng->ctxcap, eng->nctx + 1,
	                    sizeof *eng->ctxs) < 0)
		return TLC_ENOMEM;
	tlc_plugin_ctx *ctx = tlc_alloc__calloc(eng->a, 1, sizeof *ctx);
	if (!ctx)
		return tlc_error__oom();
	ctx->reg = eng->reg;
	ctx->provider_id = provider;
	ctx->a = eng->a;
	ctx->init_payload = payload;
	eng->ctxs[eng->nctx++] = ctx;
	*out = ctx;
	return 0;
}

int tlc_engine__run_init(tlc_engine *eng, const char *label,
                         int (*init)(tlc_plugin_ctx *, const tlc_host *),
                         unsigned *provider_out)
{
	return tlc_engine__run_init_payload(eng, label, init, NULL, provider_out);
}

const tlc_rule *tlc_engine__find_rule(const tlc_engine *eng, const char *name,
                                      const char *overload)
{
	return tlc_registry__find(eng->reg, name, overload);
}

int tlc_engine__run_init_payload(tlc_engine *eng, const char *label,
                                 int (*init)(tlc_plugin_ctx *, const tlc_host *),
                                 const void *payload, unsigned *provider_out)
{
	unsigned provider;
	tlc_plugin_ctx *ctx = NULL;
	int rc = tlc_registry__provider(&provider, eng->reg, label);
	if (rc == 0)
		rc = new_ctx(&ctx, eng, provider, payload);
	if (rc < 0)
		return rc;
	tlc_error_clear();
	ctx->open = 1;
	int irc = init(ctx, tlc_host__table());
	ctx->open = 0; /* stays allocated: a late call is refused, not a crash */
	if (irc < 0 || ctx->failed) {
		int keep = ctx->failed && tlc_error_last()->klass < 0;
		tlc_registry__remove_provider(eng->reg, provider);
		if (keep)
			return tlc_error_last()->klass;
		return tlc_error__set(TLC_EPLUGIN, "plugin_init_failed",
		                      "fix the plugin's init() (it returned an error); "
		                      "nothing it registered was kept",
		                      "%s: init returned %d; its rules were removed", label, irc);
	}
	if (provider_out)
		*provider_out = provider;
	return 0;
}

int tlc_engine_register_rule(tlc_engine *eng, const tlc_rule_def *def)
{
	if (!eng)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass an engine",
		                      "tlc_engine_register_rule: engine is NULL");
	if (!eng->api_provider_set) {
		int rc = tlc_registry__provider(&eng->api_provider, eng->reg, "api");
		if (rc < 0)
			return rc;
		eng->api_provider_set = 1;
	}
	return tlc_registry__add(eng->reg, eng->api_provider, def);
}

size_t tlc_engine_rule_count(const tlc_engine *eng)
{
	return eng ? tlc_registry__count(eng->reg) : 0;
}

const tlc_rule_info *tlc_engine_rule_at(const tlc_engine *eng, size_t i)
{
	return eng ? tlc_registry__at(eng->reg, i) : NULL;
}

size_t tlc_engine_notice_count(const tlc_engine *eng)
{
	return eng ? tlc_registry__notice_count(eng->reg) : 0;
}

const tlc_notice *tlc_engine_notice_at(const tlc_engine *eng, size_t i)
{
	return eng ? tlc_registry__notice_at(eng->reg, i) : NULL;
}

void tlc_free(void *p) { free(p); }
