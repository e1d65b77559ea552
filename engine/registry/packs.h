/* Rule packs (semi-private): rule files for vendor kernels (vLLM, SGLang,
 * aiter, ...) that ship inside libtlcost, written in the rule-file
 * language (docs/rule-files.md) and registered through the same parser and
 * interpreter, as provider "pack:NAME". Their text is embedded at build
 * time from rules/packs/NAME.tlrules (tools/pack_embed.awk writes
 * packs_data.c); the same files are installed to $(pkgdatadir)/packs for
 * users to read. docs/packs.md. */
#ifndef TLC_ENGINE_PACKS_H
#define TLC_ENGINE_PACKS_H

#include <stddef.h>
#include "alloc.h"

typedef struct tlc_pack_src {
	const char *name;               /* "aiter": the file's name without .tlrules */
	const char *const *lines;       /* the file's lines, each ending in "\n"; NULL-terminated */
	const char *const *rules;       /* the names its `rule` lines declare; NULL-terminated */
} tlc_pack_src;

/* packs_data.c (generated) */
extern const tlc_pack_src tlc_packs__table[];
extern const size_t tlc_packs__count;

struct tlc_engine;

/** Loads every pack, in table order (tlc_engine_new without
 *  TLC_ENGINE_NO_PACKS). */
int tlc_packs__load_all(struct tlc_engine *eng);

/** The name of the pack with a rule for name (or name.overload), or NULL:
 *  whether or not that pack is loaded (the ledger names it in a remedy). */
const char *tlc_packs__covering(const char *name, const char *overload);

/** The pack's whole text, allocated with a (free with tlc_alloc__free),
 *  or NULL when out of memory; *len is its length. */
char *tlc_packs__text(const tlc_pack_src *p, const tlc_allocator *a, size_t *len);

#endif
