/* The runtime version query: the version this library was built as, which a
 * program compares with the TLC_VERSION_* of the headers it was built with. */
#include <tlcost/common.h>

const char *tlc_version(int *major, int *minor, int *patch)
{
	if (major)
		*major = TLC_VERSION_MAJOR;
	if (minor)
		*minor = TLC_VERSION_MINOR;
	if (patch)
		*patch = TLC_VERSION_PATCH;
	return TLC_VERSION_STRING;
}
