/* Stable names of enums, as used in reports and JSON. */
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

const char *tlc_profiler_state_name(tlc_profiler_state s)
{
	static const char *const names[] = { "unknown", "unavailable", "empty", "partial",
		                             "complete" };
	return (unsigned)s <= TLC_PROFILER_COMPLETE ? names[s] : "unknown";
}
