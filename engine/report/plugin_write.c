/* The verdict of `tlcost plugin check` (tlc_write_plugin_check): text with
 * control bytes escaped, or JSON (schema tlcost.plugin_check/1). */
#include <string.h>
#include "tlcost/plugin.h"
#include "reports.h"
#include "textw.h"

#define ABI_MIN (TLC_PLUGIN_ABI_VERSION - TLC_PLUGIN_ABI_AGE)

static const char *kind_name(tlc_rule_kind k)
{
	static const char *const names[] = { "cost", "zero", "decomposed", "structural" };
	return (unsigned)k <= TLC_RULE_STRUCTURAL ? names[k] : "?";
}

static void write_text(FILE *out, const tlc_plugin_info *info, const char *path,
                       const tlc_error *refusal)
{
	if (!info) {
		fprintf(out, "file: %s\naccepted: no (%s)\n", path, refusal ? refusal->code : "?");
		return;
	}
	fprintf(out, "plugin: %s\nversion: %s\nfile: %s\n", info->name,
	        info->version && info->version[0] ? info->version : "(none)", path);
	fprintf(out, "abi version: %u (this host accepts %d to %d)\naccepted: yes\n",
	        (unsigned)info->abi_version, ABI_MIN, TLC_PLUGIN_ABI_VERSION);
	fprintf(out, "rules: %zu\n", info->nrules);
	for (size_t i = 0; i < info->nrules; i++) {
		const tlc_rule_def *r = &info->rules[i];
		fprintf(out, "  %-40s %-10s %-13s %s\n", r->name, kind_name(r->kind),
		        tlc_evidence_name(r->evidence), r->note ? r->note : "");
	}
}

static int write_json(FILE *out, const tlc_plugin_info *info, const char *path,
                      const tlc_error *refusal)
{
	yajl_gen g = tlc_jsonw__new(out);
	if (!g)
		return tlc_error__oom();
	yajl_gen_map_open(g);
	tlc_jsonw__kstr(g, "schema", "tlcost.plugin_check/1");
	tlc_jsonw__kstr(g, "file", path);
	if (info) {
		tlc_jsonw__kstr(g, "name", info->name);
		tlc_jsonw__kstr(g, "version", info->version);
		tlc_jsonw__kuint(g, "abi_version", info->abi_version);
	}
	tlc_jsonw__key(g, "host_abi");
	yajl_gen_map_open(g);
	tlc_jsonw__kint(g, "min", ABI_MIN);
	tlc_jsonw__kint(g, "max", TLC_PLUGIN_ABI_VERSION);
	yajl_gen_map_close(g);
	tlc_jsonw__kbool(g, "accepted", info != NULL);
	if (info) {
		tlc_jsonw__key(g, "rules");
		yajl_gen_array_open(g);
		for (size_t i = 0; i < info->nrules; i++) {
			const tlc_rule_def *r = &info->rules[i];
			yajl_gen_map_open(g);
			tlc_jsonw__kstr(g, "name", r->name);
			tlc_jsonw__kstr(g, "kind", kind_name(r->kind));
			tlc_jsonw__kstr(g, "evidence", tlc_evidence_name(r->evidence));
			tlc_jsonw__kstr(g, "note", r->note);
			yajl_gen_map_close(g);
		}
		yajl_gen_array_close(g);
	} else {
		tlc_jsonw__key(g, "error");
		yajl_gen_map_open(g);
		tlc_jsonw__kstr(g, "code", refusal ? refusal->code : NULL);
		tlc_jsonw__kstr(g, "message", refusal ? refusal->message : NULL);
		tlc_jsonw__kstr(g, "remedy", refusal ? refusal->remedy : NULL);
		yajl_gen_map_close(g);
	}
	yajl_gen_map_close(g);
	return tlc_jsonw__end(g, out);
}

int tlc_write_plugin_check(FILE *out, const tlc_plugin_info *info, const char *path,
                           const tlc_error *refusal, tlc_format fmt)
{
	if (!out || !path || (!info && !refusal))
		return tlc_error__set(TLC_EINVAL, "invalid_argument",
		                      "pass a stream, the plugin path and its info or refusal",
		                      "tlc_write_plugin_check: NULL argument");
	if (fmt == TLC_FORMAT_JSON)
		return write_json(out, info, path, refusal);
	FILE *t = tlc_textw__open(out);
	if (!t)
		return TLC_ENOMEM;
	write_text(t, info, path, refusal);
	return tlc_textw__close(t, out, 0);
}
