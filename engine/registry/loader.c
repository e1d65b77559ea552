/* Rule-plugin loader: dlopen a shared object, check its descriptor and ABI
 * version, run its init with the registration window open (engine.c), and
 * keep the handle so tlc_engine_free can close it after the rules that point
 * into it are gone. Also inspection without registering, and
 * TLCOST_PLUGIN_PATH. */
#include <errno.h>
#include <dirent.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "engine.h"
#include "cost.h"

#define ABI_MIN (TLC_PLUGIN_ABI_VERSION - TLC_PLUGIN_ABI_AGE)
#define NAME_MAX_LEN 64
#define GUIDE "see docs/plugin-guide.md"

/* A plugin that passed every check up to (not including) its init. */
typedef struct opened {
	void *handle;
	const tlc_plugin_desc *desc;
} opened;

/* A path without '/' means a file in the current directory, as for any
 * other input, not a search of the system library path. */
static int open_library(void **out, const char *path)
{
	char local[4096];
	const char *name = path;
	if (!strchr(path, '/')) {
		if ((size_t)snprintf(local, sizeof local, "./%s", path) >= sizeof local)
			return tlc_error__set(TLC_EINVAL, "plugin_open_failed",
			                      "use a shorter plugin path",
			                      "plugin path is too long: %.80s...", path);
		name = local;
	}
	/* Only a regular file is opened: dlopen of a FIFO (or a device) blocks
	 * forever, or reads something that is not a library. */
	struct stat st;
	if (stat(name, &st) != 0)
		return tlc_error__set(TLC_EPLUGIN, "plugin_open_failed",
		                      "check the path (" GUIDE ")", "cannot open plugin %s: %s", path,
		                      strerror(errno));
	if (!S_ISREG(st.st_mode))
		return tlc_error__set(TLC_EPLUGIN, "plugin_open_failed",
		                      "a plugin is a regular shared-object file: remove or rename "
		                      "what is there, or take it out of TLCOST_PLUGIN_PATH",
		                      "cannot open plugin %s: not a regular file (a FIFO, device or "
		                      "directory is never opened)", path);
	dlerror(); /* clear a stale message */
	void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		const char *why = dlerror();
		return tlc_error__set(TLC_EPLUGIN, "plugin_open_failed",
		                      "check the path and that the file is a shared object built "
		                      "for this machine (" GUIDE ")",
		                      "cannot open plugin %s: %s", path,
		                      why ? why : "unknown dlopen error");
	}
	*out = h;
	return 0;
}

static int find_entry(tlc_plugin_describe_fn *out, void *h, const char *path)
{
	dlerror();
	void *sym = dlsym(h, TLC_PLUGIN_ENTRY);
	if (!sym || dlerror())
		return tlc_error__set(TLC_EPLUGIN, "plugin_entry_missing",
		                      "export `const tlc_plugin_desc *tlc_plugin_describe(void)` "
		                      "from the plugin (" GUIDE ")",
		                      "%s does not export " TLC_PLUGIN_ENTRY, path);
	/* POSIX guarantees a data pointer from dlsym converts to a function pointer */
	memcpy(out, &sym, sizeof *out);
	return 0;
}

static int check_abi(const tlc_plugin_desc *d, const char *path)
{
	if (d->abi_version >= ABI_MIN && d->abi_version <= TLC_PLUGIN_ABI_VERSION)
		return 0;
	char remedy[200];
	snprintf(remedy, sizeof remedy,
	         "rebuild the plugin against this tlcost's tlcost/plugin.h "
	         "(plugin ABI %d), or use a tlcost whose host accepts ABI %u",
	         TLC_PLUGIN_ABI_VERSION, (unsigned)d->abi_version);
	return tlc_error__set(TLC_EVERSION, "plugin_abi_unsupported", remedy,
	                      "plugin %s has plugin ABI version %u; this host accepts "
	                      "versions %d to %d",
	                      path, (unsigned)d->abi_version, ABI_MIN, TLC_PLUGIN_ABI_VERSION);
}

static int valid_plugin_name(const char *name)
{
	size_t n = 0;
	for (; name[n]; n++) {
		char c = name[n];
		int ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
		         (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
		if (!ok || n >= NAME_MAX_LEN)
			return 0;
	}
	return n > 0;
}

static int bad_desc(const char *path, const char *what)
{
	return tlc_error__set(TLC_EPLUGIN, "plugin_descriptor_invalid",
	                      "return a static tlc_plugin_desc with .abi_version = "
	                      "TLC_PLUGIN_ABI_VERSION, .size = sizeof(tlc_plugin_desc), a name of "
	                      "1-64 characters [A-Za-z0-9_.-] and an init function (" GUIDE ")",
	                      "plugin %s: %s", path, what);
}

/* The ABI version is read first: a plugin of another version may lay out
 * the rest differently, so nothing past it is trusted until it matches. */
static int check_desc(const tlc_plugin_desc *d, const char *path)
{
	if (!d)
		return bad_desc(path, TLC_PLUGIN_ENTRY "() returned NULL");
	int rc = check_abi(d, path);
	if (rc < 0)
		return rc;
	if (d->size < offsetof(tlc_plugin_desc, init) + sizeof d->init)
		return bad_desc(path, "descriptor size is smaller than tlc_plugin_desc");
	if (!d->name)
		return bad_desc(path, "descriptor name is NULL");
	if (!valid_plugin_name(d->name))
		return bad_desc(path, "descriptor name is not 1-64 characters of [A-Za-z0-9_.-]");
	if (!d->init)
		return bad_desc(path, "descriptor init is NULL");
	return 0;
}

/* dlopen + entry + descriptor checks; on failure nothing stays open. */
static int plugin_open(opened *out, const char *path)
{
	if (!path || !*path)
		return tlc_error__set(TLC_EINVAL, "invalid_argument",
		                      "pass the path of a plugin shared object",
		                      "plugin path is NULL or empty");
	void *h = NULL;
	int rc = open_library(&h, path);
	if (rc < 0)
		return rc;
	tlc_plugin_describe_fn describe = NULL;
	rc = find_entry(&describe, h, path);
	const tlc_plugin_desc *d = rc < 0 ? NULL : describe();
	if (rc == 0)
		rc = check_desc(d, path);
	if (rc < 0) {
		dlclose(h);
		return rc;
	}
	out->handle = h;
	out->desc = d;
	return 0;
}

/* ---- loading into an engine ---- */

static int already_loaded(const tlc_engine *eng, const opened *p, const char *path)
{
	for (const tlc_loaded_plugin *lp = eng->plugins; lp; lp = lp->next) {
		if (lp->handle == p->handle || strcmp(lp->name, p->desc->name) == 0)
			return tlc_error__set(TLC_EEXISTS, "plugin_already_loaded",
			                      "load each plugin once (check --plugin and "
			                      "TLCOST_PLUGIN_PATH for repeats)",
			                      "plugin %s (%s) is already loaded from %s", path,
			                      p->desc->name, lp->path);
	}
	return 0;
}

static int remember(tlc_engine *eng, const opened *p, const char *path, unsigned provider)
{
	tlc_loaded_plugin *lp = tlc_alloc__calloc(eng->a, 1, sizeof *lp);
	if (!lp)
		return tlc_error__oom();
	lp->path = tlc_alloc__strdup(eng->a, path);
	lp->name = tlc_alloc__strdup(eng->a, p->desc->name);
	if (!lp->path || !lp->name) {
		tlc_alloc__free(eng->a, lp->path);
		tlc_alloc__free(eng->a, lp->name);
		tlc_alloc__free(eng->a, lp);
		return tlc_error__oom();
	}
	lp->handle = p->handle;
	lp->provider_id = provider;
	lp->next = eng->plugins;
	eng->plugins = lp;
	return 0;
}

int tlc_engine_load_plugin(tlc_engine *eng, const char *path)
{
	if (!eng)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass an engine",
		                      "tlc_engine_load_plugin: engine is NULL");
	opened p;
	int rc = plugin_open(&p, path);
	if (rc < 0)
		return rc;
	rc = already_loaded(eng, &p, path);
	char label[NAME_MAX_LEN + 8];
	snprintf(label, sizeof label, "plugin:%s", p.desc->name);
	unsigned provider = 0;
	if (rc == 0)
		rc = tlc_engine__run_init(eng, label, p.desc->init, &provider);
	if (rc == 0) {
		rc = remember(eng, &p, path, provider);
		if (rc < 0) /* its rules point into the library: drop them first */
			tlc_registry__remove_provider(eng->reg, provider);
	}
	if (rc < 0)
		dlclose(p.handle);
	return rc;
}

void tlc_loader__close_all(tlc_engine *eng)
{
	tlc_loaded_plugin *lp = eng->plugins;
	while (lp) { /* newest first: reverse load order */
		tlc_loaded_plugin *next = lp->next;
		dlclose(lp->handle);
		tlc_alloc__free(eng->a, lp->path);
		tlc_alloc__free(eng->a, lp->name);
		tlc_alloc__free(eng->a, lp);
		lp = next;
	}
	eng->plugins = NULL;
}

/* ---- TLCOST_PLUGIN_PATH ---- */

static int has_so_suffix(const char *name)
{
	size_t n = strlen(name);
	return n > 3 && strcmp(name + n - 3, ".so") == 0;
}

static int by_string(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

typedef struct name_list {
	const tlc_allocator *a;
	char **items;
	size_t n, cap;
} name_list;

static void names_free(name_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		tlc_alloc__free(l->a, l->items[i]);
	tlc_alloc__free(l->a, l->items);
}

static int names_add(name_list *l, const char *dir, const char *base)
{
	if (tlc_alloc__grow(l->a, (void **)&l->items, &l->cap, l->n + 1, sizeof *l->items) < 0)
		return TLC_ENOMEM;
	size_t len = strlen(dir) + 1 + strlen(base) + 1;
	char *full = tlc_alloc__malloc(l->a, len);
	if (!full)
		return tlc_error__oom();
	snprintf(full, len, "%s/%s", dir, base);
	l->items[l->n++] = full;
	return 0;
}

static int list_dir(name_list *l, const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return tlc_error__set(TLC_EIO, "plugin_path_invalid",
		                      "fix TLCOST_PLUGIN_PATH: ':'-separated plugin files or "
		                      "directories holding them",
		                      "cannot read plugin directory %s", dir);
	int rc = 0;
	for (struct dirent *e; rc == 0 && (e = readdir(d));)
		if (has_so_suffix(e->d_name))
			rc = names_add(l, dir, e->d_name);
	closedir(d);
	if (rc == 0 && l->n > 1)
		qsort(l->items, l->n, sizeof *l->items, by_string);
	return rc;
}

static int load_dir(tlc_engine *eng, const char *dir)
{
	name_list l = { eng->a, NULL, 0, 0 };
	int rc = list_dir(&l, dir);
	for (size_t i = 0; rc == 0 && i < l.n; i++)
		rc = tlc_engine_load_plugin(eng, l.items[i]);
	names_free(&l);
	return rc;
}

static int load_entry(tlc_engine *eng, const char *entry)
{
	struct stat st;
	if (stat(entry, &st) != 0)
		return tlc_error__set(TLC_EIO, "plugin_path_invalid",
		                      "fix TLCOST_PLUGIN_PATH: ':'-separated plugin files or "
		                      "directories holding them",
		                      "TLCOST_PLUGIN_PATH names %s, which does not exist", entry);
	if (S_ISDIR(st.st_mode))
		return load_dir(eng, entry);
	return tlc_engine_load_plugin(eng, entry);
}

int tlc_engine_load_plugin_env(tlc_engine *eng)
{
	if (!eng)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass an engine",
		                      "tlc_engine_load_plugin_env: engine is NULL");
	const char *env = getenv("TLCOST_PLUGIN_PATH");
	if (!env || !*env)
		return 0;
	char *copy = tlc_alloc__strdup(eng->a, env);
	if (!copy)
		return tlc_error__oom();
	int rc = 0;
	char *save = NULL;
	for (char *tok = strtok_r(copy, ":", &save); rc == 0 && tok;
	     tok = strtok_r(NULL, ":", &save))
		rc = load_entry(eng, tok);
	tlc_alloc__free(eng->a, copy);
	return rc;
}

/* ---- inspection without registering ---- */

typedef struct info_box {
	tlc_plugin_info pub;   /* first: tlc_plugin_info_free casts back */
	char *name, *version;
	tlc_rule_def *rules;
	size_t nrules;
} info_box;

/* Runs init against the scratch registry behind ctx, which checks every
 * definition exactly as a load would (names, kinds, a fn for cost rules,
 * duplicates within the plugin). */
static int run_scratch_init(tlc_plugin_ctx *ctx, const tlc_plugin_desc *d, const char *path)
{
	tlc_error_clear();
	ctx->open = 1;
	int irc = d->init(ctx, tlc_host__table());
	ctx->open = 0;
	if (ctx->failed && tlc_error_last()->klass < 0)
		return tlc_error_last()->klass;
	if (irc < 0 || ctx->failed)
		return tlc_error__set(TLC_EPLUGIN, "plugin_init_failed",
		                      "fix the plugin's init() (it returned an error); "
		                      "nothing it registered would be kept",
		                      "%s: init returned %d", path, irc);
	return 0;
}

static void box_free(info_box *box, const tlc_allocator *a)
{
	for (size_t i = 0; i < box->nrules; i++) {
		tlc_alloc__free(a, (void *)box->rules[i].name);
		tlc_alloc__free(a, (void *)box->rules[i].note);
	}
	tlc_alloc__free(a, box->rules);
	tlc_alloc__free(a, box->name);
	tlc_alloc__free(a, box->version);
	tlc_alloc__free(a, box);
}

/* Copies a registered rule into a def; fn and payload stay NULL because
 * they would dangle once the library is closed. */
static int copy_rule(tlc_rule_def *d, const tlc_rule_info *r, const tlc_allocator *a)
{
	memset(d, 0, sizeof *d);
	d->size = sizeof *d;
	d->kind = r->kind;
	d->evidence = r->evidence;
	d->name = tlc_alloc__strdup(a, r->name);
	d->note = tlc_alloc__strdup(a, r->note ? r->note : "");
	return d->name && d->note ? 0 : tlc_error__oom();
}

/* Copies what must outlive the library: names, notes, version. */
static int make_info(info_box **out, const tlc_registry *reg, const tlc_plugin_desc *d)
{
	const tlc_allocator *a = tlc_alloc__default();
	info_box *box = tlc_alloc__calloc(a, 1, sizeof *box);
	if (!box)
		return tlc_error__oom();
	size_t n = tlc_registry__count(reg);
	box->name = tlc_alloc__strdup(a, d->name);
	box->version = tlc_alloc__strdup(a, d->version ? d->version : "");
	box->rules = tlc_alloc__calloc(a, n ? n : 1, sizeof *box->rules);
	int rc = box->name && box->version && box->rules ? 0 : tlc_error__oom();
	for (size_t i = 0; rc == 0 && i < n; i++) {
		const tlc_rule_info *r = tlc_registry__at(reg, i); /* name order */
		rc = r ? copy_rule(&box->rules[box->nrules++], r, a) : tlc_error__oom();
	}
	if (rc < 0) {
		box_free(box, a);
		return rc;
	}
	box->pub.abi_version = d->abi_version;
	box->pub.name = box->name;
	box->pub.version = box->version;
	box->pub.nrules = box->nrules;
	box->pub.rules = box->rules;
	*out = box;
	return 0;
}

static int inspect_opened(info_box **out, const opened *p, const char *path)
{
	const tlc_allocator *a = tlc_alloc__default();
	char label[NAME_MAX_LEN + 8];
	snprintf(label, sizeof label, "plugin:%s", p->desc->name);
	/* the ctx lives only during this call: a plugin that stashes it cannot
	 * use it once its library is closed by the caller */
	tlc_plugin_ctx ctx;
	memset(&ctx, 0, sizeof ctx);
	ctx.a = a;
	int rc = tlc_registry__new(&ctx.reg, a);
	if (rc < 0)
		return rc;
	rc = tlc_registry__provider(&ctx.provider_id, ctx.reg, label);
	if (rc == 0)
		rc = run_scratch_init(&ctx, p->desc, path);
	if (rc == 0)
		rc = make_info(out, ctx.reg, p->desc);
	tlc_registry__free(ctx.reg);
	return rc;
}

int tlc_plugin_inspect(tlc_plugin_info **out, const char *path)
{
	if (!out)
		return tlc_error__set(TLC_EINVAL, "invalid_argument",
		                      "pass a tlc_plugin_info **", "tlc_plugin_inspect: out is NULL");
	*out = NULL;
	opened p;
	int rc = plugin_open(&p, path);
	if (rc < 0)
		return rc;
	info_box *box = NULL;
	rc = inspect_opened(&box, &p, path);
	dlclose(p.handle);
	if (rc < 0)
		return rc;
	*out = &box->pub;
	return 0;
}

void tlc_plugin_info_free(tlc_plugin_info *info)
{
	if (info)
		box_free((info_box *)info, tlc_alloc__default());
}

/* ---- descriptor checks alone (tests/fuzz/fuzz_desc.c) ---- */

int tlc_loader__check_desc(const tlc_plugin_desc *d, const char *path)
{
	return check_desc(d, path ? path : "(no path)");
}
