#!/bin/sh
# Every public header (include/tlcost/*.h) compiles standalone, twice
# included, as C99/C11/C17 with -Wall -Wextra -Werror -pedantic and, when a
# C++ compiler is available, as C++11. Every header is also installed
# (listed in pkginclude_HEADERS) and included by the umbrella tlcost.h.
set -e
. "${top_srcdir:-.}/tests/cli_lib.sh"
cc=${CC:-cc}
cxx=${CXX:-c++}
tlc_tmpdir headers
n=0
have_cxx=0
if command -v "$cxx" >/dev/null 2>&1; then have_cxx=1; fi
incs="-I$top_srcdir/include"
[ -d "$top_builddir/include" ] && incs="$incs -I$top_builddir/include"
headers=$(ls "$top_srcdir"/include/tlcost/*.h)
# the generated version.h lives in the build tree in a VPATH build
[ -f "$top_srcdir/include/tlcost/version.h" ] || headers="$headers $top_builddir/include/tlcost/version.h"
for path in $headers; do
	h=tlcost/$(basename "$path")
	printf '#include <%s>\n#include <%s>\nint main(void) { return 0; }\n' "$h" "$h" > "$tmp/t.c"
	for std in c99 c11 c17; do
		# shellcheck disable=SC2086
		$cc -std=$std -Wall -Wextra -Werror -pedantic $incs -c "$tmp/t.c" -o "$tmp/t.o"
	done
	if [ $have_cxx = 1 ]; then
		cp "$tmp/t.c" "$tmp/t.cc"
		# shellcheck disable=SC2086
		$cxx -std=c++11 -Wall -Wextra -Werror -pedantic $incs -c "$tmp/t.cc" -o "$tmp/t.o"
	fi
	b=$(basename "$path")
	case $b in
	tlcost.h|cupti.h|nvtx.h|version.h) ;; # version.h comes through common.h; cupti.h and nvtx.h belong to their own libraries
	*) grep -q "#include \"$b\"" "$top_srcdir/include/tlcost/tlcost.h" ||
		{ echo "not in the umbrella tlcost.h: $b" >&2; exit 1; } ;;
	esac
	cat "$top_srcdir/Makefile.am" "$top_srcdir"/*/local.mk "$top_srcdir"/*/*/local.mk 2>/dev/null |
		grep -q "include/tlcost/$b" ||
		{ echo "not installed (pkginclude_HEADERS): $b" >&2; exit 1; }
	n=$((n + 1))
done
echo "1..$n standalone headers ok"
