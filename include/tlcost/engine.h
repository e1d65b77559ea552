/*
 * libtlcost engine: rule registry, plugins, rule files, names.
 *
 * Part of the libtlcost public API; <tlcost/tlcost.h> includes every module
 * header. Each header compiles on its own (tests/build/headers.sh).
 */
#ifndef TLCOST_ENGINE_H
#define TLCOST_ENGINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common.h"
#include "errors.h"
#include "plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tlc_engine tlc_engine;

/** Injectable allocator (tests use it to fail the n-th allocation). All
 *  three functions are required. */
typedef struct tlc_allocator {
	void *(*malloc_fn)(size_t n, void *payload);
	void *(*realloc_fn)(void *p, size_t n, void *payload);
	void (*free_fn)(void *p, void *payload);
	void *payload;
} tlc_allocator;

#define TLC_ENGINE_NO_BUILTINS (1u << 0) /* start with an empty registry */
/* GMP's allocations (exact counts beyond 64 bits) also go through the
 * engine's allocator. GMP's memory functions are process-global: the first
 * such engine installs tlcost's for the rest of the process; every block
 * remembers its allocator, new blocks come from the newest such engine
 * still alive. Read docs/api.md, "Memory", before using it. */
#define TLC_ENGINE_GMP_ALLOCATOR (1u << 1)
/* Start without the rule packs (rule files for vendor kernels that ship
 * with tlcost, docs/packs.md); load some with tlc_engine_load_pack. An
 * engine with TLC_ENGINE_NO_BUILTINS has no packs either. */
#define TLC_ENGINE_NO_PACKS (1u << 2)

typedef struct tlc_engine_options {
	uint32_t size;                  /* sizeof(tlc_engine_options) */
	unsigned flags;                 /* TLC_ENGINE_* */
	const tlc_allocator *allocator; /* NULL = malloc/realloc/free */
} tlc_engine_options;
/** The size set, every other field its default. */
#define TLC_ENGINE_OPTIONS_INIT { sizeof(tlc_engine_options), 0, NULL }

/** Creates an engine with the built-in rules and then every rule pack
 *  registered (unless TLC_ENGINE_NO_BUILTINS, or TLC_ENGINE_NO_PACKS for
 *  the packs). opts may be NULL. Free with tlc_engine_free. */
int tlc_engine_new(tlc_engine **out, const tlc_engine_options *opts);
void tlc_engine_free(tlc_engine *eng);

/** dlopens a rule plugin and runs its init. Errors: plugin_open_failed,
 *  plugin_entry_missing, plugin_abi_unsupported (names both versions),
 *  plugin_descriptor_invalid, plugin_init_failed (nothing it registered
 *  remains), rule_duplicate. */
int tlc_engine_load_plugin(tlc_engine *eng, const char *path);

/** Loads every plugin named in TLCOST_PLUGIN_PATH (':'-separated paths of .so
 *  files or directories holding them). Nothing is loaded when unset. */
int tlc_engine_load_plugin_env(tlc_engine *eng);

/** Registers one rule from the application (same rules as a plugin's
 *  register_rule; provider shown as "api"). */
int tlc_engine_register_rule(tlc_engine *eng, const tlc_rule_def *def);

/** Loads a declarative rule file (docs/rule-files.md); its rules register
 *  as provider "rules:PATH", all or none. Errors carry file, line and
 *  column: rules_parse_error, rules_unknown_function, rules_unknown_operand,
 *  rule_duplicate (at the rule's name); rules_io_error (file only). */
int tlc_engine_load_rules_file(tlc_engine *eng, const char *path);

/** Registers the rule pack NAME (docs/packs.md) as provider "pack:NAME";
 *  loading a pack already loaded does nothing. Load packs before plugins and
 *  rule files: a later rule of another provider for an op a pack covers
 *  replaces the pack's rule with a rule_override notice (never
 *  rule_duplicate). Errors: pack_unknown (the message lists the packs),
 *  invalid_argument. */
int tlc_engine_load_pack(tlc_engine *eng, const char *name);

/** The rule packs this libtlcost ships, in load order: their count and
 *  the i-th name ("aiter"); NULL when i is out of range. Static strings. */
size_t tlc_pack_count(void);
const char *tlc_pack_name(size_t i);

/** What a plugin exposes, read without registering anything. */
typedef struct tlc_plugin_info {
	uint32_t abi_version;
	const char *name;
	const char *version;
	size_t nrules;
	const tlc_rule_def *rules; /* names/notes as the plugin gave them */
} tlc_plugin_info;

/** Inspects a plugin: checks its ABI and runs its init against a scratch
 *  registry. The result is valid until tlc_plugin_info_free. */
int tlc_plugin_inspect(tlc_plugin_info **out, const char *path);
void tlc_plugin_info_free(tlc_plugin_info *info);

/** A registered rule, for listings. */
typedef struct tlc_rule_info {
	const char *name;     /* "aten::add.Tensor" */
	tlc_rule_kind kind;
	tlc_evidence evidence;
	const char *note;
	const char *provider; /* "builtin:matmul", "pack:aiter", "plugin:example", "api", "rules:FILE" */
	int overrides;        /* replaced a rule of another provider */
} tlc_rule_info;

size_t tlc_engine_rule_count(const tlc_engine *eng);
/** i-th rule in name order; NULL when out of range. Valid until the
 *  registry changes. */
const tlc_rule_info *tlc_engine_rule_at(const tlc_engine *eng, size_t i);

/** Notices (not errors) such as rule_override: "plugin:x overrides
 *  builtin rule aten::mm". */
typedef struct tlc_notice {
	const char *code;
	const char *message;
} tlc_notice;

size_t tlc_engine_notice_count(const tlc_engine *eng);
const tlc_notice *tlc_engine_notice_at(const tlc_engine *eng, size_t i);

/** Names as strings, for reports and JSON. */
const char *tlc_phase_name(tlc_phase p);
const char *tlc_evidence_name(tlc_evidence e);
const char *tlc_dtype_name(tlc_dtype d);
/** Parses a dtype name; unknown names give TLC_DTYPE_OTHER. */
tlc_dtype tlc_dtype_parse(const char *name);

/* ---- engine: writers of the rule listing and the plugin check ---- */

/** Writes the rule listing of an engine. */
int tlc_write_rules(FILE *out, const tlc_engine *eng, tlc_format fmt);
#define tlc_rules_write tlc_write_rules /* module-first spelling (docs/api.md, "Names") */

/** The verdict on the plugin at path (`tlcost plugin check`): info when
 *  it was accepted, else refusal (the error tlc_plugin_inspect set). Text
 *  (control bytes escaped) or JSON (schema tlcost.plugin_check/1). */
int tlc_write_plugin_check(FILE *out, const tlc_plugin_info *info, const char *path,
                           const tlc_error *refusal, tlc_format fmt);
#define tlc_plugin_check_write tlc_write_plugin_check /* module-first spelling (docs/api.md, "Names") */

#ifdef __cplusplus
}
#endif
#endif /* TLCOST_ENGINE_H */
