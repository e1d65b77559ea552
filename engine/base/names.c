/* Stable names of enums, as used in reports and JSON. */
#include <string.h>
#include "tlcost/tlcost.h"

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

static const struct {
	const char *name;
	tlc_dtype dtype;
} dtypes[] = {
	{ "float64", TLC_DTYPE_FLOAT64 },   { "float32", TLC_DTYPE_FLOAT32 },
	{ "float16", TLC_DTYPE_FLOAT16 },   { "bfloat16", TLC_DTYPE_BFLOAT16 },
	{ "float8_e4m3fn", TLC_DTYPE_FLOAT8_E4M3FN }, { "float8_e5m2", TLC_DTYPE_FLOAT8_E5M2 },
	{ "complex64", TLC_DTYPE_COMPLEX64 }, { "complex128", TLC_DTYPE_COMPLEX128 },
	{ "int64", TLC_DTYPE_INT64 },       { "int32", TLC_DTYPE_INT32 },
	{ "int16", TLC_DTYPE_INT16 },       { "int8", TLC_DTYPE_INT8 },
	{ "uint8", TLC_DTYPE_UINT8 },       { "bool", TLC_DTYPE_BOOL },
};

const char *tlc_dtype_name(tlc_dtype d)
{
	for (size_t i = 0; i < sizeof dtypes / sizeof dtypes[0]; i++)
		if (dtypes[i].dtype == d)
			return dtypes[i].name;
	return d == TLC_DTYPE_NONE ? "none" : "other";
}

tlc_dtype tlc_dtype_parse(const char *name)
{
	if (!name)
		return TLC_DTYPE_NONE;
	for (size_t i = 0; i < sizeof dtypes / sizeof dtypes[0]; i++)
		if (strcmp(dtypes[i].name, name) == 0)
			return dtypes[i].dtype;
	return TLC_DTYPE_OTHER;
}

const char *tlc_profiler_state_name(tlc_profiler_state s)
{
	static const char *const names[] = { "unknown", "unavailable", "empty", "partial",
		                             "complete" };
	return (unsigned)s <= TLC_PROFILER_COMPLETE ? names[s] : "unknown";
}
