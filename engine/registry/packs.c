/* Rule packs: rule files for vendor kernels embedded in libtlcost (see
 * packs.h), registered through the rule-file parser and interpreter as
 * provider "pack:NAME". A pack is data, not code, so it is on by default
 * like the built-in rules (docs/cost-contract.md, "Packs"); a user's rule
 * for an op a pack covers replaces the pack's rule with a notice
 * (registry.c). */
#include <stdio.h>
#include <string.h>
#include "engine.h"
#include "packs.h"
#include "rulefile.h"

char *tlc_packs__text(const tlc_pack_src *p, const tlc_allocator *a, size_t *len)
{
	tlc_sb sb;
	tlc_sb__init(&sb, a);
	for (const char *const *l = p->lines; *l; l++)
		tlc_sb__puts(&sb, *l);
	if (!tlc_sb__str(&sb)) {
		tlc_sb__free(&sb);
		return NULL;
	}
	*len = sb.len;
	return sb.ptr;
}

/* A pack registers all its rules or none (and has at least one,
 * tests/unit/registry/test_packs.c), so it is loaded when a rule of its provider is
 * registered, active or overridden by a user's rule. */
static int load_one(tlc_engine *eng, size_t i)
{
	const tlc_pack_src *p = &tlc_packs__table[i];
	char file[96], label[96];
	snprintf(file, sizeof file, "packs/%s.tlrules", p->name);
	snprintf(label, sizeof label, "pack:%s", p->name);
	if (tlc_registry__provider_has_rules(eng->reg, label))
		return 0;
	size_t len = 0;
	char *text = tlc_packs__text(p, eng->a, &len);
	if (!text)
		return tlc_error__oom();
	int rc = tlc_rf__load_mem_as(eng, file, label, text, len);
	tlc_alloc__free(eng->a, text);
	return rc;
}

int tlc_packs__load_all(tlc_engine *eng)
{
	for (size_t i = 0; i < tlc_packs__count; i++) {
		int rc = load_one(eng, i);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* "aiter, sglang, vllm" */
static void known_list(char *buf, size_t cap)
{
	size_t w = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < tlc_packs__count && w < cap; i++) {
		int n = snprintf(buf + w, cap - w, "%s%s", i ? ", " : "", tlc_packs__table[i].name);
		if (n < 0)
			break;
		w += (size_t)n;
	}
}

int tlc_engine_load_pack(tlc_engine *eng, const char *name)
{
	if (!eng || !name)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass an engine and a pack name",
		                      "tlc_engine_load_pack: engine or name is NULL");
	for (size_t i = 0; i < tlc_packs__count; i++)
		if (strcmp(tlc_packs__table[i].name, name) == 0)
			return load_one(eng, i);
	char known[512], remedy[640];
	known_list(known, sizeof known);
	snprintf(remedy, sizeof remedy,
	         "name one of the packs tlcost ships: %s (docs/packs.md; `tlcost rules` lists "
	         "their rules with provider pack:NAME)", known);
	return tlc_error__set(TLC_ENOTFOUND, "pack_unknown", remedy,
	                      "no rule pack named '%.80s' (the packs are: %s)", name, known);
}

size_t tlc_pack_count(void) { return tlc_packs__count; }

const char *tlc_pack_name(size_t i)
{
	return i < tlc_packs__count ? tlc_packs__table[i].name : NULL;
}

/* name matches a pack's rule "ns::op" or, with an overload, "ns::op.overload" */
static int declares(const char *rule, const char *name, const char *overload)
{
	size_t n = strlen(name);
	if (strncmp(rule, name, n) != 0)
		return 0;
	if (rule[n] == '\0')
		return 1;
	return rule[n] == '.' && overload && strcmp(rule + n + 1, overload) == 0;
}

const char *tlc_packs__covering(const char *name, const char *overload)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < tlc_packs__count; i++)
		for (const char *const *r = tlc_packs__table[i].rules; *r; r++)
			if (declares(*r, name, overload))
				return tlc_packs__table[i].name;
	return NULL;
}
