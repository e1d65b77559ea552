/* Rule packs (engine/registry/packs.c, docs/packs.md): the embedded packs
 * parse with the rule-file parser to exactly the rule names the build
 * extracted, every pack rule has a row in tests/rules/packs.tsv (where its
 * counts are checked), packs are on by default and off with
 * TLC_ENGINE_NO_PACKS or TLC_ENGINE_NO_BUILTINS, tlc_engine_load_pack is
 * idempotent and refuses an unknown name with pack_unknown listing the
 * packs, a user's rule replaces a pack's rule with a rule_override notice
 * (never rule_duplicate) and a failed rule file gives the pack's rule
 * back, and an allocation failure anywhere in loading the packs leaves
 * nothing behind. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "tlcost/tlcost.h"
#include "packs.h"
#include "rulefile.h"
#include "engine.h"
#include "../failing_alloc.h"

#ifndef PACKS_TABLE
#define PACKS_TABLE "tests/rules/packs.tsv"
#endif

static tlc_engine *engine(unsigned flags)
{
	tlc_engine_options o = { sizeof o, flags, NULL };
	tlc_engine *eng = NULL;
	assert_int_equal(tlc_engine_new(&eng, &o), 0);
	return eng;
}

static const tlc_rule_info *rule_named(const tlc_engine *eng, const char *name)
{
	for (size_t i = 0; i < tlc_engine_rule_count(eng); i++)
		if (strcmp(tlc_engine_rule_at(eng, i)->name, name) == 0)
			return tlc_engine_rule_at(eng, i);
	return NULL;
}

static size_t pack_rules(const tlc_engine *eng)
{
	size_t n = 0;
	for (size_t i = 0; i < tlc_engine_rule_count(eng); i++)
		n += strncmp(tlc_engine_rule_at(eng, i)->provider, "pack:", 5) == 0;
	return n;
}

static size_t table_rules(void)
{
	size_t n = 0;
	for (size_t i = 0; i < tlc_packs__count; i++)
		for (const char *const *r = tlc_packs__table[i].rules; *r; r++)
			n++;
	return n;
}

/* The names tools/pack_embed.awk extracted are exactly, in order, what the
 * rule-file parser reads from the same text. */
static void test_extracted_names_match_parser(void **state)
{
	(void)state;
	assert_int_equal(tlc_pack_count(), tlc_packs__count);
	assert_true(tlc_packs__count >= 3);
	for (size_t i = 0; i < tlc_packs__count; i++) {
		const tlc_pack_src *p = &tlc_packs__table[i];
		assert_string_equal(tlc_pack_name(i), p->name);
		size_t len;
		char *text = tlc_packs__text(p, tlc_alloc__default(), &len);
		assert_non_null(text);
		tlc_rf_file *f = NULL;
		assert_int_equal(tlc_rf__parse(&f, tlc_alloc__default(), p->name, text, len), 0);
		size_t k = 0;
		for (; p->rules[k]; k++) {
			assert_true(k < f->nrules);
			assert_string_equal(p->rules[k], f->rules[k]->name);
		}
		assert_int_equal(k, f->nrules);
		assert_true(k > 0);
		tlc_rf__free(f, tlc_alloc__default());
		tlc_alloc__free(tlc_alloc__default(), text);
	}
	assert_null(tlc_pack_name(tlc_packs__count));
}

/* Every pack rule has at least one row in the rule table. */
static void test_every_pack_rule_has_a_row(void **state)
{
	(void)state;
	const char *top = getenv("top_srcdir");
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", top && *top ? top : ".", PACKS_TABLE);
	FILE *fp = fopen(path, "r");
	assert_non_null(fp);
	static char buf[1 << 20];
	size_t n = fread(buf, 1, sizeof buf - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	size_t missing = 0;
	for (size_t i = 0; i < tlc_packs__count; i++)
		for (const char *const *r = tlc_packs__table[i].rules; *r; r++) {
			char key[300];
			snprintf(key, sizeof key, "\n%s\t", *r);
			if (!strstr(buf, key) && ++missing)
				fprintf(stderr, "%s (pack:%s) has no row in %s\n", *r,
				        tlc_packs__table[i].name, PACKS_TABLE);
		}
	assert_int_equal(missing, 0);
}

static void test_on_by_default(void **state)
{
	(void)state;
	tlc_engine *eng = engine(0);
	assert_int_equal(pack_rules(eng), table_rules());
	const tlc_rule_info *ri = rule_named(eng, "aiter::gemm_a16w16");
	assert_non_null(ri);
	assert_string_equal(ri->provider, "pack:aiter");
	assert_int_equal(ri->evidence, TLC_EVIDENCE_FORMULA_EXACT);
	ri = rule_named(eng, "sgl_kernel::silu_and_mul");
	assert_non_null(ri);
	assert_string_equal(ri->provider, "pack:sglang");
	assert_int_equal(tlc_engine_notice_count(eng), 0);
	tlc_engine_free(eng);

	eng = engine(TLC_ENGINE_NO_PACKS);
	assert_int_equal(pack_rules(eng), 0);
	assert_non_null(rule_named(eng, "aten::mm")); /* the built-ins stay */
	tlc_engine_free(eng);

	eng = engine(TLC_ENGINE_NO_BUILTINS); /* an empty registry stays empty */
	assert_int_equal(tlc_engine_rule_count(eng), 0);
	tlc_engine_free(eng);
}

static void test_load_pack(void **state)
{
	(void)state;
	tlc_engine *eng = engine(TLC_ENGINE_NO_PACKS);
	size_t before = tlc_engine_rule_count(eng);
	assert_int_equal(tlc_engine_load_pack(eng, "aiter"), 0);
	size_t with = tlc_engine_rule_count(eng);
	assert_true(with > before);
	assert_null(rule_named(eng, "sglang::store_cache"));
	assert_int_equal(tlc_engine_load_pack(eng, "aiter"), 0); /* idempotent */
	assert_int_equal(tlc_engine_rule_count(eng), with);
	assert_int_equal(tlc_engine_notice_count(eng), 0);

	assert_int_equal(tlc_engine_load_pack(eng, "nosuch"), TLC_ENOTFOUND);
	const tlc_error *e = tlc_error_last();
	assert_string_equal(e->code, "pack_unknown");
	assert_non_null(strstr(e->message, "'nosuch'"));
	assert_non_null(strstr(e->message, "sglang, aiter, vllm, flashinfer, bitsandbytes, apex"));
	assert_non_null(strstr(e->remedy, "docs/packs.md"));
	assert_int_equal(tlc_engine_rule_count(eng), with);
	assert_int_equal(tlc_engine_load_pack(eng, NULL), TLC_EINVAL);
	assert_int_equal(tlc_engine_load_pack(NULL, "aiter"), TLC_EINVAL);
	tlc_engine_free(eng);
}

static int one(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)op;
	(void)payload;
	int64_t f = 1;
	return host->cost_add(out, TLC_FIELD_OTHER_FLOPS, 1, 1, &f);
}

/* A user's rule without override replaces the pack's, with a notice. */
static void test_user_rule_replaces_pack(void **state)
{
	(void)state;
	tlc_engine *eng = engine(0);
	tlc_rule_def d = { .size = sizeof d, .name = "aiter::rmsnorm", .kind = TLC_RULE_COST,
	                   .fn = one, .note = "mine" };
	assert_int_equal(tlc_engine_register_rule(eng, &d), 0);
	const tlc_rule_info *ri = rule_named(eng, "aiter::rmsnorm");
	assert_string_equal(ri->provider, "api");
	assert_int_equal(ri->overrides, 1);
	assert_int_equal(tlc_engine_notice_count(eng), 1);
	const tlc_notice *n = tlc_engine_notice_at(eng, 0);
	assert_string_equal(n->code, "rule_override");
	assert_string_equal(n->message, "api overrides the pack:aiter rule for aiter::rmsnorm");
	/* a built-in is still protected: no override, rule_duplicate */
	tlc_rule_def mm = { .size = sizeof mm, .name = "aten::mm", .kind = TLC_RULE_COST, .fn = one };
	assert_int_equal(tlc_engine_register_rule(eng, &mm), TLC_EEXISTS);
	assert_string_equal(tlc_error_last()->code, "rule_duplicate");
	tlc_engine_free(eng);
}

static int fixture_init(tlc_plugin_ctx *ctx, const tlc_host *host)
{
	tlc_rule_def d = { .size = sizeof d, .name = "_C::rms_norm", .kind = TLC_RULE_COST,
	                   .fn = one };
	return host->register_rule(ctx, &d);
}

/* A plugin's rule (the loader's path: its init runs as provider
 * "plugin:NAME") replaces a pack's rule without TLC_RULE_OVERRIDE. */
static void test_plugin_rule_replaces_pack(void **state)
{
	(void)state;
	tlc_engine *eng = engine(0);
	assert_int_equal(tlc_engine__run_init(eng, "plugin:fixture", fixture_init, NULL), 0);
	const tlc_rule_info *ri = rule_named(eng, "_C::rms_norm");
	assert_string_equal(ri->provider, "plugin:fixture");
	assert_int_equal(tlc_engine_notice_count(eng), 1);
	assert_string_equal(tlc_engine_notice_at(eng, 0)->message,
	                    "plugin:fixture overrides the pack:vllm rule for _C::rms_norm");
	tlc_engine_free(eng);
}

/* A rule file that replaces a pack rule and then fails registers nothing:
 * the pack's rule is active again and its notice is gone. */
static void test_failed_file_restores_pack(void **state)
{
	(void)state;
	tlc_engine *eng = engine(0);
	char path[] = "/tmp/tlc-test-packs-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *fp = fdopen(fd, "w");
	fputs("rule aiter::rmsnorm\n  other = 1\nend\nrule aten::mm\n  macs = 1\nend\n", fp);
	fclose(fp);
	assert_int_equal(tlc_engine_load_rules_file(eng, path), TLC_EEXISTS);
	assert_string_equal(tlc_error_last()->code, "rule_duplicate");
	assert_non_null(strstr(tlc_error_last()->message, "aten::mm"));
	remove(path);
	const tlc_rule_info *ri = rule_named(eng, "aiter::rmsnorm");
	assert_string_equal(ri->provider, "pack:aiter");
	assert_int_equal(ri->overrides, 0);
	assert_int_equal(tlc_engine_notice_count(eng), 0);
	tlc_engine_free(eng);
}

static void test_covering(void **state)
{
	(void)state;
	assert_string_equal(tlc_packs__covering("aiter::rmsnorm", ""), "aiter");
	assert_string_equal(tlc_packs__covering("aiter::rmsnorm", "default"), "aiter");
	assert_string_equal(tlc_packs__covering("_C::rms_norm", NULL), "vllm");
	assert_string_equal(tlc_packs__covering("sglang::store_cache", ""), "sglang");
	assert_null(tlc_packs__covering("aiter::rms", ""));     /* a prefix is not a name */
	assert_null(tlc_packs__covering("aiter::rmsnorm2", "")); /* nor a longer one */
	assert_null(tlc_packs__covering("aten::mm", ""));
	assert_null(tlc_packs__covering(NULL, ""));
}

/* Every allocation of engine creation with the packs may fail: the error
 * is out_of_memory and no block stays live. */
static void test_allocation_failures(void **state)
{
	(void)state;
	failing f = { 0, 0, 1L << 40 }; /* counts calls, never fails */
	tlc_allocator a = alloc_of(&f);
	tlc_engine_options o = { sizeof o, 0, &a };
	tlc_engine *eng = NULL;
	assert_int_equal(tlc_engine_new(&eng, &o), 0);
	long total = f.calls;
	tlc_engine_free(eng);
	assert_int_equal(f.live, 0);
	/* the packs' share: what NO_PACKS does not allocate */
	f.calls = 0;
	o.flags = TLC_ENGINE_NO_PACKS;
	assert_int_equal(tlc_engine_new(&eng, &o), 0);
	long without = f.calls;
	tlc_engine_free(eng);
	assert_true(total > without);
	o.flags = 0;
	for (long k = without; k < total; k++) {
		f.calls = 0;
		f.fail_at = k;
		eng = NULL;
		int rc = tlc_engine_new(&eng, &o);
		assert_int_equal(rc, TLC_ENOMEM);
		assert_null(eng);
		assert_int_equal(f.live, 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_extracted_names_match_parser),
		cmocka_unit_test(test_every_pack_rule_has_a_row),
		cmocka_unit_test(test_on_by_default),
		cmocka_unit_test(test_load_pack),
		cmocka_unit_test(test_user_rule_replaces_pack),
		cmocka_unit_test(test_plugin_rule_replaces_pack),
		cmocka_unit_test(test_failed_file_restores_pack),
		cmocka_unit_test(test_covering),
		cmocka_unit_test(test_allocation_failures),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
