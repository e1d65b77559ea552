/* Stable names of enums, as used in reports and JSON. */
#include <ctype.h>
#include <string.h>
#include "names.h"

const char *tlc_phase_name(tlc_phase p)
{
	static const char *const names[] = { "forward", "backward", "optimizer", "other" };
	return (unsigned)p < TLC_PHASE_COUNT ? names[p] : "other";
}

const char *tlc_evidence_name(tlc_evidence e)
{
	return e == TLC_EVIDENCE_FORMULA_EXACT ? "formula_exact" : "estimated";
}

const char *tlc_class_name(tlc_class c)
{
	static const char *const names[] = { "known", "zero_by_rule", "not_applicable", "unknown" };
	return (unsigned)c < TLC_CLASS_COUNT ? names[c] : "unknown";
}

const char *tlc_attribution_name(tlc_attribution a)
{
	static const char *const names[] = { "none", "attributed", "ambiguous", "unattributed",
		                             "unavailable" };
	return (unsigned)a <= TLC_ATTR_UNAVAILABLE ? names[a] : "none";
}

/* Every lookup goes through the one table, tlc_dtype_names() of plugin.h. */

const char *tlc_dtype_name(tlc_dtype d)
{
	const char *n = tlc_dtype_names(d, NULL);
	return n ? n : d == TLC_DTYPE_NONE ? "none" : "other";
}

tlc_dtype tlc_dtype_parse(const char *name)
{
	if (!name)
		return TLC_DTYPE_NONE;
	for (int d = TLC_DTYPE_NONE + 1; d < TLC_DTYPE_OTHER; d++)
		if (strcmp(tlc_dtype_names((tlc_dtype)d, NULL), name) == 0)
			return (tlc_dtype)d;
	return TLC_DTYPE_OTHER;
}

tlc_dtype tlc_dtype__parse_torch(const char *name)
{
	if (name && strncmp(name, "torch.", 6) == 0)
		name += 6;
	return tlc_dtype_parse(name);
}

/* Is s one of the '|'-separated names in list? */
static int in_list(const char *list, const char *s)
{
	size_t n = strlen(s);
	for (const char *p = list; p; p = strchr(p, '|'), p = p ? p + 1 : NULL)
		if (strncmp(p, s, n) == 0 && (p[n] == '|' || p[n] == '\0'))
			return 1;
	return 0;
}

tlc_dtype tlc_dtype__parse_cpp(const char *name)
{
	const char *cpp;
	if (!name)
		return TLC_DTYPE_OTHER;
	for (int d = TLC_DTYPE_NONE + 1; d < TLC_DTYPE_OTHER; d++)
		if (tlc_dtype_names((tlc_dtype)d, &cpp) && cpp && in_list(cpp, name))
			return (tlc_dtype)d;
	return TLC_DTYPE_OTHER;
}

int tlc_peak_dtype_of(tlc_peak_dtype *out, tlc_dtype d)
{
	switch (d) {
	case TLC_DTYPE_FLOAT64: case TLC_DTYPE_COMPLEX128: *out = TLC_PEAK_FP64; return 0;
	case TLC_DTYPE_FLOAT32: case TLC_DTYPE_COMPLEX64: *out = TLC_PEAK_FP32; return 0;
	case TLC_DTYPE_FLOAT16: *out = TLC_PEAK_FP16; return 0;
	case TLC_DTYPE_BFLOAT16: *out = TLC_PEAK_BF16; return 0;
	case TLC_DTYPE_FLOAT8_E4M3FN: case TLC_DTYPE_FLOAT8_E5M2: *out = TLC_PEAK_FP8; return 0;
	default: return TLC_ENOTFOUND;
	}
}

/* Spellings of a dtype name that the roofline's per-op peak accepts
 * besides the op log's full names: short forms, and the PyTorch profiler's
 * (Kineto) "Input type" names with c10:: stripped. Only the op row's peak
 * dtype reads them; a tensor's own dtype (its size) stays the reader's. */
static const struct { const char *abbr; tlc_dtype d; } dtype_abbr[] = {
	{ "f64", TLC_DTYPE_FLOAT64 }, { "f32", TLC_DTYPE_FLOAT32 },
	{ "f16", TLC_DTYPE_FLOAT16 }, { "bf16", TLC_DTYPE_BFLOAT16 },
	{ "fp64", TLC_DTYPE_FLOAT64 }, { "fp32", TLC_DTYPE_FLOAT32 },
	{ "fp16", TLC_DTYPE_FLOAT16 }, { "half", TLC_DTYPE_FLOAT16 },
	{ "float", TLC_DTYPE_FLOAT32 }, { "double", TLC_DTYPE_FLOAT64 },
	{ "f8e4m3", TLC_DTYPE_FLOAT8_E4M3FN }, { "f8e4m3fn", TLC_DTYPE_FLOAT8_E4M3FN },
	{ "f8e5m2", TLC_DTYPE_FLOAT8_E5M2 }, { "c64", TLC_DTYPE_COMPLEX64 },
	{ "c128", TLC_DTYPE_COMPLEX128 },
	{ "BFloat16", TLC_DTYPE_BFLOAT16 }, { "Half", TLC_DTYPE_FLOAT16 },
	{ "Float8_e4m3fn", TLC_DTYPE_FLOAT8_E4M3FN }, { "Float8_e5m2", TLC_DTYPE_FLOAT8_E5M2 },
	{ "Float8_e4m3fnuz", TLC_DTYPE_FLOAT8_E4M3FN }, { "Float8_e5m2fnuz", TLC_DTYPE_FLOAT8_E5M2 },
	{ "complex<float>", TLC_DTYPE_COMPLEX64 }, { "complex<double>", TLC_DTYPE_COMPLEX128 },
};

static tlc_dtype dtype_of_token(const char *s, size_t n)
{
	char tok[32];
	if (n > 5 && strncmp(s, "c10::", 5) == 0) {
		s += 5;
		n -= 5;
	}
	if (n == 0 || n >= sizeof tok)
		return TLC_DTYPE_NONE;
	memcpy(tok, s, n);
	tok[n] = '\0';
	tlc_dtype d = tlc_dtype_parse(tok);
	if (d != TLC_DTYPE_OTHER && d != TLC_DTYPE_NONE)
		return d;
	for (size_t i = 0; i < sizeof dtype_abbr / sizeof dtype_abbr[0]; i++)
		if (strcmp(tok, dtype_abbr[i].abbr) == 0)
			return dtype_abbr[i].d;
	return TLC_DTYPE_NONE;
}

/* The dtype the token at t spells (after spaces and colons); *end is where
 * the token ends. */
static tlc_dtype token_at(const char *t, const char **end)
{
	while (*t == ' ' || *t == ':')
		t++;
	size_t n = 0;
	while (isalnum((unsigned char)t[n]) || t[n] == '_' || t[n] == ':' || t[n] == '<' ||
	       t[n] == '>')
		n++;
	*end = t + n;
	return dtype_of_token(t, n);
}

tlc_dtype tlc_dtype__peak_of_name(const char *name)
{
	if (!name)
		return TLC_DTYPE_NONE;
	/* the name's start, then what follows each ']' in it: a name is never
	 * followed by a token character in a shapes summary, so its tokens end
	 * inside it (the rule the reports applied to the summary before) */
	for (const char *p = name; p; p = strchr(p, ']')) {
		const char *end;
		if (*p == ']')
			p++;
		tlc_dtype d = token_at(p, &end);
		tlc_peak_dtype pd;
		if (tlc_peak_dtype_of(&pd, d) == 0)
			return d;
		p = end;
	}
	return TLC_DTYPE_NONE;
}

const char *tlc_profiler_state_name(tlc_profiler_state s)
{
	static const char *const names[] = { "unknown", "unavailable", "empty", "partial",
		                             "complete" };
	return (unsigned)s <= TLC_PROFILER_COMPLETE ? names[s] : "unknown";
}

size_t tlc_name__counter_stem(const char *name, size_t len)
{
	size_t d = len;
	while (d > 0 && name[d - 1] >= '0' && name[d - 1] <= '9')
		d--;
	return d < len && d > 1 && name[d - 1] == '_' ? d : len;
}
