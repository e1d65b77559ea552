/* Declarative rule files: not written yet. */
#include "engine.h"

int tlc_engine_load_rules_file(tlc_engine *eng, const char *path)
{
	(void)eng;
	return tlc_error__set(TLC_EUNAVAILABLE, "rules_file_unsupported",
	                      "write the rule as a plugin (docs/plugin-guide.md)",
	                      "%s: rule files are not supported by this build", path);
}
