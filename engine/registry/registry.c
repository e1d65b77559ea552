/* Rule registry: the active rules, found by "ns::op[.overload]" through
 * the hash index; overridden rules are kept so removing a provider
 * restores them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "registry.h"
#include "hindex.h"

typedef struct notice_entry {
	tlc_notice pub;
	unsigned provider_id;
} notice_entry;

struct tlc_registry {
	const tlc_allocator *a;
	tlc_rule **rules;          /* active rules, unordered */
	size_t nrules, cap;
	tlc_hindex index;          /* hash of the name -> rules index */
	char **providers;          /* provider labels by id */
	size_t nproviders, pcap;
	notice_entry *notices;
	size_t nnotices, ncap;
	const tlc_rule_info **sorted; /* name-ordered view, rebuilt lazily */
	size_t nsorted;
};

int tlc_registry__new(tlc_registry **out, const tlc_allocator *a)
{
	tlc_registry *r = tlc_alloc__calloc(a, 1, sizeof *r);
	if (!r)
		return tlc_error__oom();
	r->a = a;
	tlc_hindex__init(&r->index, a);
	*out = r;
	return 0;
}

static void rule_free(const tlc_allocator *a, tlc_rule *rule)
{
	while (rule) {
		tlc_rule *next = rule->shadowed;
		tlc_alloc__free(a, (void *)rule->info.name);
		tlc_alloc__free(a, (void *)rule->info.note);
		tlc_alloc__free(a, rule);
		rule = next;
	}
}

static void invalidate_sorted(tlc_registry *r)
{
	tlc_alloc__free(r->a, (void *)r->sorted);
	r->sorted = NULL;
	r->nsorted = 0;
}

void tlc_registry__free(tlc_registry *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nrules; i++)
		rule_free(r->a, r->rules[i]);
	for (size_t i = 0; i < r->nproviders; i++)
		tlc_alloc__free(r->a, r->providers[i]);
	for (size_t i = 0; i < r->nnotices; i++)
		tlc_alloc__free(r->a, (void *)r->notices[i].pub.message);
	invalidate_sorted(r);
	tlc_alloc__free(r->a, r->rules);
	tlc_hindex__free(&r->index);
	tlc_alloc__free(r->a, r->providers);
	tlc_alloc__free(r->a, r->notices);
	tlc_alloc__free(r->a, r);
}

int tlc_registry__provider(unsigned *out, tlc_registry *r, const char *label)
{
	if (tlc_alloc__grow(r->a, (void **)&r->providers, &r->pcap, r->nproviders + 1,
	                    sizeof *r->providers) < 0)
		return TLC_ENOMEM;
	char *copy = tlc_alloc__strdup(r->a, label);
	if (!copy)
		return tlc_error__oom();
	r->providers[r->nproviders] = copy;
	*out = (unsigned)r->nproviders++;
	return 0;
}

/* hash of name, or of name + "." + overload when overload is non-empty
 * (the same bytes as the stored key "ns::op.overload") */
static uint64_t key_hash(const char *name, const char *overload)
{
	if (!overload || !*overload)
		return tlc_hash__bytes(name, strlen(name));
	char small[512];
	size_t n = strlen(name), m = strlen(overload);
	char *buf = n + m + 2 <= sizeof small ? small : NULL;
	if (!buf) /* longer than any valid rule name: cannot match a stored key */
		return 0;
	memcpy(buf, name, n);
	buf[n] = '.';
	memcpy(buf + n + 1, overload, m);
	return tlc_hash__bytes(buf, n + 1 + m);
}

static int key_equal(const char *key, const char *name, const char *overload)
{
	size_t n = strlen(name);
	if (strncmp(key, name, n) != 0)
		return 0;
	if (!overload || !*overload)
		return key[n] == '\0';
	return key[n] == '.' && strcmp(key + n + 1, overload) == 0;
}

typedef struct rule_key {
	const char *name, *overload;
} rule_key;

static int rule_eq(size_t idx, const void *key, const void *payload)
{
	const rule_key *k = key;
	return key_equal(((const tlc_registry *)payload)->rules[idx]->info.name, k->name,
	                 k->overload);
}

/* The slot of the active rule for name (+ overload), or the empty slot
 * where it belongs; the index must have slots. */
static tlc_hslot *slot_of(const tlc_registry *r, const char *name, const char *overload)
{
	rule_key k = { name, overload };
	return tlc_hindex__probe(&r->index, key_hash(name, overload), rule_eq, &k, r);
}

static tlc_rule *active(const tlc_registry *r, const char *name, const char *overload)
{
	const tlc_hslot *s = slot_of(r, name, overload);
	return s->idx1 ? r->rules[s->idx1 - 1] : NULL;
}

const tlc_rule *tlc_registry__find(const tlc_registry *r, const char *name,
                                   const char *overload)
{
	if (!r->index.nslots || !name)
		return NULL;
	if (overload && *overload) {
		const tlc_rule *hit = active(r, name, overload);
		if (hit)
			return hit;
	}
	return active(r, name, NULL);
}

static int valid_name(const char *name)
{
	const char *sep = name ? strstr(name, "::") : NULL;
	if (!sep || sep == name || !sep[2] || strlen(name) > 256)
		return 0;
	for (const char *p = name; *p; p++)
		if (*p <= ' ' || *p == '"' || *p == '\\' || (unsigned char)*p >= 0x7f)
			return 0;
	return 1;
}

static int check_def(const tlc_rule_def *def)
{
	if (!def || def->size < offsetof(tlc_rule_def, flags) + sizeof def->flags)
		return tlc_error__set(TLC_EINVAL, "rule_invalid",
		                      "fill a tlc_rule_def with .size = sizeof(tlc_rule_def)",
		                      "rule definition is NULL or its size field is too small");
	if (!valid_name(def->name))
		return tlc_error__set(TLC_EINVAL, "rule_invalid",
		                      "name rules as namespace::op or namespace::op.overload "
		                      "(printable ASCII, at most 256 characters)",
		                      "rule name '%.80s' is not of the form namespace::op",
		                      def->name ? def->name : "(null)");
	if ((unsigned)def->kind > TLC_RULE_STRUCTURAL ||
	    (unsigned)def->evidence > TLC_EVIDENCE_ESTIMATED)
		return tlc_error__set(TLC_EINVAL, "rule_invalid",
		                      "use a TLC_RULE_* kind and a TLC_EVIDENCE_* value",
		                      "rule %s has an unknown kind or evidence", def->name);
	if (def->kind == TLC_RULE_COST && !def->fn)
		return tlc_error__set(TLC_EINVAL, "rule_invalid",
		                      "give a cost rule a function (.fn), or make it TLC_RULE_ZERO",
		                      "cost rule %s has no function", def->name);
	return 0;
}

static int add_notice(tlc_registry *r, unsigned provider, const char *fmt_name,
                      const char *old_provider)
{
	if (tlc_alloc__grow(r->a, (void **)&r->notices, &r->ncap, r->nnotices + 1,
	                    sizeof *r->notices) < 0)
		return TLC_ENOMEM;
	char buf[512];
	snprintf(buf, sizeof buf, "%s overrides the %s rule for %s", r->providers[provider],
	         old_provider, fmt_name);
	char *msg = tlc_alloc__strdup(r->a, buf);
	if (!msg)
		return tlc_error__oom();
	notice_entry *n = &r->notices[r->nnotices++];
	n->pub.code = "rule_override";
	n->pub.message = msg;
	n->provider_id = provider;
	return 0;
}

static tlc_rule *rule_new(tlc_registry *r, unsigned provider, const tlc_rule_def *def)
{
	tlc_rule *rule = tlc_alloc__calloc(r->a, 1, sizeof *rule);
	if (!rule)
		return NULL;
	rule->info.name = tlc_alloc__strdup(r->a, def->name);
	rule->info.note = tlc_alloc__strdup(r->a, def->note ? def->note : "");
	if (!rule->info.name || !rule->info.note) {
		rule_free(r->a, rule);
		return NULL;
	}
	rule->info.kind = def->kind;
	rule->info.evidence = def->evidence;
	rule->info.provider = r->providers[provider];
	rule->fn = def->fn;
	rule->payload = def->payload;
	rule->provider_id = provider;
	return rule;
}

/* rule takes the place of the active rule at i (same name, same place in
 * rules, so the index stands) and shadows it. */
static void replace_active(tlc_registry *r, size_t i, tlc_rule *rule)
{
	rule->shadowed = r->rules[i];
	rule->info.overrides = 1;
	r->rules[i] = rule;
}

/* rule_duplicate naming the provider being loaded and the one that came
 * first, with the remedy of the kind of provider that is loading: a rule
 * file says `override`, C says TLC_RULE_OVERRIDE. */
static int duplicate(const char *mine, const char *first, const char *name)
{
	int file = strncmp(mine, "rules:", 6) == 0 || strncmp(mine, "pack:", 5) == 0;
	if (mine == first && file)
		return tlc_error__set(TLC_EEXISTS, "rule_duplicate",
		                      "keep one rule per name in the rule file: delete or rename "
		                      "one of the two",
		                      "%s: a rule for %s is registered twice by the same rule file",
		                      mine, name);
	if (mine == first)
		return tlc_error__set(TLC_EEXISTS, "rule_duplicate",
		                      "register each name once in the plugin's init(): delete or "
		                      "rename one of the two registrations",
		                      "%s: a rule for %s is registered twice by the same plugin",
		                      mine, name);
	if (file)
		return tlc_error__set(TLC_EEXISTS, "rule_duplicate",
		                      "to replace it, add `override` to the rule line (`rule NAME "
		                      "override ...`, docs/rule-files.md); else rename the rule",
		                      "%s cannot register %s: %s registered it first", mine, name,
		                      first);
	return tlc_error__set(TLC_EEXISTS, "rule_duplicate",
	                      "to replace it, set .flags = TLC_RULE_OVERRIDE in the tlc_rule_def "
	                      "(docs/plugin-guide.md); else rename the rule",
	                      "%s cannot register %s: %s registered it first", mine, name, first);
}

/* An override replaces another provider's rule, never the provider's own: a
 * second rule of one name in one rule file or one plugin init() is a
 * mistake. The API's provider ("api") is the caller's open session, where
 * replacing an earlier registration of its own is how a rule is changed. */
static int self_override(const tlc_registry *r, const tlc_rule *old, unsigned provider)
{
	return old->provider_id == provider && strcmp(r->providers[provider], "api") != 0;
}

/* A pack's rule gives way to a later rule of a plugin, rule file or the
 * API without `override`: packs are on by default, so a user's rule for
 * an op a pack covers must not become an error (docs/packs.md); the
 * replacement is still a rule_override notice. */
static int yields_to(const tlc_rule *old, const char *mine)
{
	return strncmp(old->info.provider, "pack:", 5) == 0 && strncmp(mine, "pack:", 5) != 0 &&
	       strncmp(mine, "builtin:", 8) != 0;
}

int tlc_registry__add(tlc_registry *r, unsigned provider, const tlc_rule_def *def)
{
	int rc = check_def(def);
	if (rc < 0)
		return rc;
	if (tlc_hindex__reserve(&r->index, r->nrules + 1) < 0)
		return TLC_ENOMEM;
	tlc_hslot *slot = slot_of(r, def->name, NULL); /* valid: nothing below grows the index */
	tlc_rule *old = slot->idx1 ? r->rules[slot->idx1 - 1] : NULL;
	if (old && (self_override(r, old, provider) ||
	            (!(def->flags & TLC_RULE_OVERRIDE) && !yields_to(old, r->providers[provider]))))
		return duplicate(r->providers[provider], old->info.provider, def->name);
	if (tlc_alloc__grow(r->a, (void **)&r->rules, &r->cap, r->nrules + 1, sizeof *r->rules) < 0)
		return TLC_ENOMEM;
	tlc_rule *rule = rule_new(r, provider, def);
	if (!rule)
		return tlc_error__oom();
	if (old) {
		if (add_notice(r, provider, def->name, old->info.provider) < 0) {
			rule_free(r->a, rule);
			return TLC_ENOMEM;
		}
		replace_active(r, slot->idx1 - 1, rule);
	} else {
		r->rules[r->nrules] = rule;
		tlc_hindex__fill(&r->index, slot, key_hash(def->name, NULL), r->nrules++);
	}
	invalidate_sorted(r);
	return 0;
}

/* Drops the provider's rules from one active chain; returns the new head
 * (NULL when nothing remains). */
static tlc_rule *strip_chain(const tlc_allocator *a, tlc_rule *head, unsigned provider)
{
	tlc_rule **link = &head;
	while (*link) {
		tlc_rule *cur = *link;
		if (cur->provider_id == provider) {
			*link = cur->shadowed;
			cur->shadowed = NULL;
			rule_free(a, cur);
		} else {
			link = &cur->shadowed;
		}
	}
	if (head)
		head->info.overrides = head->shadowed != NULL;
	return head;
}

void tlc_registry__remove_provider(tlc_registry *r, unsigned provider)
{
	size_t w = 0;
	for (size_t i = 0; i < r->nrules; i++) {
		tlc_rule *head = strip_chain(r->a, r->rules[i], provider);
		if (head)
			r->rules[w++] = head;
	}
	r->nrules = w;
	size_t nw = 0;
	for (size_t i = 0; i < r->nnotices; i++) {
		if (r->notices[i].provider_id == provider)
			tlc_alloc__free(r->a, (void *)r->notices[i].pub.message);
		else
			r->notices[nw++] = r->notices[i];
	}
	r->nnotices = nw;
	invalidate_sorted(r);
	/* rebuild in place: removal must not need memory */
	tlc_hindex__clear(&r->index);
	for (size_t i = 0; i < r->nrules; i++) {
		const char *name = r->rules[i]->info.name;
		tlc_hindex__fill(&r->index, slot_of(r, name, NULL), key_hash(name, NULL), i);
	}
}

int tlc_registry__provider_has_rules(const tlc_registry *r, const char *label)
{
	for (size_t i = 0; i < r->nrules; i++)
		for (const tlc_rule *c = r->rules[i]; c; c = c->shadowed)
			if (strcmp(r->providers[c->provider_id], label) == 0)
				return 1;
	return 0;
}

static int by_name(const void *x, const void *y)
{
	const tlc_rule_info *a = *(const tlc_rule_info *const *)x;
	const tlc_rule_info *b = *(const tlc_rule_info *const *)y;
	return strcmp(a->name, b->name);
}

size_t tlc_registry__count(const tlc_registry *r) { return r->nrules; }

const tlc_rule_info *tlc_registry__at(const tlc_registry *cr, size_t i)
{
	tlc_registry *r = (tlc_registry *)cr; /* lazily built cache */
	if (i >= r->nrules)
		return NULL;
	if (r->nsorted != r->nrules) {
		invalidate_sorted(r);
		r->sorted = tlc_alloc__calloc(r->a, r->nrules, sizeof *r->sorted);
		if (!r->sorted)
			return NULL;
		for (size_t k = 0; k < r->nrules; k++)
			r->sorted[k] = &r->rules[k]->info;
		qsort((void *)r->sorted, r->nrules, sizeof *r->sorted, by_name);
		r->nsorted = r->nrules;
	}
	return r->sorted[i];
}

size_t tlc_registry__notice_count(const tlc_registry *r) { return r->nnotices; }

const tlc_notice *tlc_registry__notice_at(const tlc_registry *r, size_t i)
{
	return i < r->nnotices ? &r->notices[i].pub : NULL;
}
