/* User device files (docs/devices.md): INI-like sections
 *
 *     [device my-gpu]
 *     name = My GPU
 *     match = mygpu|my gpu
 *     mem_bw = 1.5e12
 *     bf16 = 300e12
 *     basis = measured_achievable
 *     source = our microbenchmark
 *     date = 2026-03
 *
 * and the device listing writer. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "reports.h"
#include "textw.h"

typedef struct dev_parse {
	tlc_devices *devs;
	const char *path;
	uint64_t line, section_line;
	int open;
	tlc_device_preset cur;
} dev_parse;

static int bad(const dev_parse *p, uint64_t col, const char *what)
{
	return tlc_error__set_pos(TLC_EPARSE, "devices_file_invalid", p->path, p->line, col,
	                          "fix the line; the format is in docs/devices.md "
	                          "([device ID] sections of key = value lines)",
	                          "%s", what);
}

static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

/* Adds or replaces the finished section. */
static int close_section(dev_parse *p)
{
	if (!p->open)
		return 0;
	p->open = 0;
	int any = 0;
	for (int d = 0; d < TLC_PEAK_COUNT; d++)
		any = any || p->cur.peak_flops[d] > 0;
	if (!(p->cur.mem_bw > 0) || !any)
		return tlc_error__set_pos(TLC_EINPUT, "devices_file_invalid", p->path,
		                          p->section_line, 1,
		                          "give mem_bw (bytes/s) and at least one peak "
		                          "(fp64, fp32, tf32, fp16, bf16, fp8 in FLOP/s)",
		                          "device '%s' lacks mem_bw or every peak", p->cur.id);
	tlc_devices *d = p->devs;
	for (size_t i = 0; i < d->n; i++)
		if (strcmp(d->items[i].id, p->cur.id) == 0) {
			d->items[i] = p->cur;
			return 0;
		}
	if (tlc_alloc__grow(d->a, (void **)&d->items, &d->cap, d->n + 1, sizeof *d->items))
		return TLC_ENOMEM;
	d->items[d->n++] = p->cur;
	return 0;
}

static int open_section(dev_parse *p, char *s)
{
	int rc = close_section(p);
	if (rc)
		return rc;
	char *end = strchr(s, ']');
	if (strncmp(s, "[device ", 8) != 0 || !end || *trim(end + 1))
		return bad(p, 1, "expected a section header '[device ID]'");
	*end = '\0';
	char *id = trim(s + 8);
	if (!*id || strspn(id, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	                       "0123456789_.-") != strlen(id))
		return bad(p, 9, "a device id is letters, digits, '_', '.' or '-'");
	const char *cid = tlc_arena__strdup(&p->devs->ar, id);
	const char *src = tlc_arena__strdup(&p->devs->ar, p->path);
	if (!cid || !src)
		return tlc_error__oom();
	memset(&p->cur, 0, sizeof p->cur);
	p->cur.id = p->cur.name = p->cur.match = cid;
	p->cur.source = p->cur.origin = src;
	p->cur.date = "";
	p->cur.basis = TLC_BASIS_ADVERTISED;
	p->open = 1;
	p->section_line = p->line;
	return 0;
}

static int set_number(dev_parse *p, double *dst, const char *v, uint64_t col)
{
	char *end;
	errno = 0;
	double x = strtod(v, &end);
	if (end == v || *end || errno || !isfinite(x) || x <= 0)
		return bad(p, col, "expected a positive finite number (e.g. 1.5e12)");
	*dst = x;
	return 0;
}

static int set_key(dev_parse *p, const char *k, const char *v, uint64_t vcol)
{
	tlc_peak_dtype d;
	if (strcmp(k, "mem_bw") == 0)
		return set_number(p, &p->cur.mem_bw, v, vcol);
	for (int i = 0; i < TLC_PEAK_COUNT; i++)
		if (strcmp(k, tlc_peak_dtype_name((tlc_peak_dtype)i)) == 0) {
			d = (tlc_peak_dtype)i;
			return set_number(p, &p->cur.peak_flops[d], v, vcol);
		}
	if (strcmp(k, "basis") == 0)
		return tlc_basis_parse(&p->cur.basis, v) ? bad(p, vcol,
		       "basis is advertised or measured_achievable") : 0;
	const char **dst = strcmp(k, "name") == 0 ? &p->cur.name
	                 : strcmp(k, "match") == 0 ? &p->cur.match
	                 : strcmp(k, "source") == 0 ? &p->cur.source
	                 : strcmp(k, "date") == 0 ? &p->cur.date : NULL;
	if (!dst)
		return bad(p, 1, "unknown key (name, match, mem_bw, fp64, fp32, tf32, fp16, "
		                 "bf16, fp8, basis, source, date)");
	*dst = tlc_arena__strdup(&p->devs->ar, v);
	return *dst ? 0 : tlc_error__oom();
}

static int parse_line(dev_parse *p, char *raw)
{
	char *s = trim(raw);
	if (!*s || *s == '#')
		return 0;
	if (*s == '[')
		return open_section(p, s);
	if (!p->open)
		return bad(p, 1, "key outside a '[device ID]' section");
	char *eq = strchr(s, '=');
	if (!eq)
		return bad(p, 1, "expected 'key = value'");
	*eq = '\0';
	char *k = trim(s), *v = trim(eq + 1);
	if (!*v)
		return bad(p, (uint64_t)(eq - raw) + 2, "empty value");
	return set_key(p, k, v, (uint64_t)(v - raw) + 1);
}

int tlc_devices_load(tlc_devices *devs, const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return tlc_error__set_pos(TLC_EIO, "io_error", path, 0, 0,
		                          "check that the devices file exists and is readable",
		                          "cannot open devices file '%s'", path);
	dev_parse p;
	memset(&p, 0, sizeof p);
	p.devs = devs;
	p.path = path;
	char *buf = NULL;
	size_t cap = 0;
	int rc = 0;
	while (rc == 0 && getline(&buf, &cap, f) >= 0) {
		p.line++;
		rc = parse_line(&p, buf);
	}
	free(buf);
	fclose(f);
	if (rc == 0)
		rc = close_section(&p);
	return rc;
}

/* ---- listing ---- */

static void write_devices_text(FILE *out, const tlc_devices *devs)
{
	fputs("device presets: dense peak FLOP/s per dtype (no sparsity), memory bandwidth\n",
	      out);
	fprintf(out, "%-14s %6s %6s %6s %6s %6s %6s %7s  %s\n", "id", "fp64", "fp32", "tf32",
	        "fp16", "bf16", "fp8", "TB/s", "basis");
	for (size_t i = 0; i < devs->n; i++) {
		const tlc_device_preset *d = &devs->items[i];
		fprintf(out, "%-14s", d->id);
		for (int k = 0; k < TLC_PEAK_COUNT; k++) {
			if (d->peak_flops[k] > 0)
				fprintf(out, " %6.1f", d->peak_flops[k] / 1e12);
			else
				fprintf(out, " %6s", "-");
		}
		fprintf(out, " %7.3f  %s\n", d->mem_bw / 1e12, tlc_basis_name(d->basis));
		fprintf(out, "  %s; source: %s%s%s\n", d->name, d->source, *d->date ? ", " : "",
		        d->date);
	}
	fputs("peaks in TFLOP/s; '-' = not offered by the source. Rooflines built on these\n"
	      "are hypotheses: traffic is the read-once/write-once ideal.\n", out);
}

void tlc_rep__device_json(yajl_gen g, const tlc_device_preset *d)
{
	yajl_gen_map_open(g);
	tlc_jsonw__kstr(g, "id", d->id);
	tlc_jsonw__kstr(g, "name", d->name);
	tlc_jsonw__kstr(g, "match", d->match);
	tlc_jsonw__key(g, "peak_flops_per_s");
	yajl_gen_map_open(g);
	for (int k = 0; k < TLC_PEAK_COUNT; k++)
		if (d->peak_flops[k] > 0)
			tlc_jsonw__kreal(g, tlc_peak_dtype_name((tlc_peak_dtype)k), d->peak_flops[k]);
	yajl_gen_map_close(g);
	tlc_jsonw__kreal(g, "mem_bw_bytes_per_s", d->mem_bw);
	tlc_jsonw__kstr(g, "basis", tlc_basis_name(d->basis));
	tlc_jsonw__kstr(g, "source", d->source);
	tlc_jsonw__kstr(g, "date", d->date);
	tlc_jsonw__kstr(g, "origin", d->origin);
	yajl_gen_map_close(g);
}

static void write_devices_csv(FILE *out, const tlc_devices *devs)
{
	fputs("id,name,fp64,fp32,tf32,fp16,bf16,fp8,mem_bw,basis,source,date,origin\n", out);
	for (size_t i = 0; i < devs->n; i++) {
		const tlc_device_preset *d = &devs->items[i];
		tlc_textw__csv(out, d->id, 0);
		fputc(',', out);
		tlc_textw__csv(out, d->name, 0);
		for (int k = 0; k < TLC_PEAK_COUNT; k++) {
			fputc(',', out);
			if (d->peak_flops[k] > 0)
				fprintf(out, "%.6g", d->peak_flops[k]);
		}
		fprintf(out, ",%.6g,%s,", d->mem_bw, tlc_basis_name(d->basis));
		tlc_textw__csv(out, d->source, 0);
		fputc(',', out);
		tlc_textw__csv(out, d->date, 0);
		fputc(',', out);
		tlc_textw__csv(out, d->origin, 0);
		fputc('\n', out);
	}
}

int tlc_write_devices(FILE *out, const tlc_devices *devs, tlc_format fmt)
{
	if (!out || !devs)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass a stream and a table",
		                      "tlc_write_devices called with NULL");
	if (fmt == TLC_FORMAT_JSON) {
		yajl_gen g = tlc_jsonw__new(out);
		if (!g)
			return tlc_error__oom();
		yajl_gen_map_open(g);
		tlc_jsonw__kstr(g, "schema", "tlcost.devices/1");
		tlc_jsonw__key(g, "devices");
		yajl_gen_array_open(g);
		for (size_t i = 0; i < devs->n; i++)
			tlc_rep__device_json(g, &devs->items[i]);
		yajl_gen_array_close(g);
		yajl_gen_map_close(g);
		return tlc_jsonw__end(g, out);
	}
	FILE *t = tlc_textw__open(out);
	if (!t)
		return TLC_ENOMEM;
	if (fmt == TLC_FORMAT_CSV)
		write_devices_csv(t, devs);
	else
		write_devices_text(t, devs);
	return tlc_textw__close(t, out, 0);
}
