#!/bin/sh
# <tlcost/cupti.h> compiles standalone (no CUDA headers needed) with
# -Wall -Wextra -Werror -pedantic, as C and as C++.
set -e
srcdir=${top_srcdir:-.}
cc=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '#include <tlcost/cupti.h>\n#include <tlcost/cupti.h>\nint main(void) { return 0; }\n' > "$tmp/t.c"
for std in c99 c11 c17; do
	$cc -std=$std -Wall -Wextra -Werror -pedantic -I"$srcdir/include" -I"${top_builddir:-.}/include" -c "$tmp/t.c" -o "$tmp/t.o"
done
if command -v c++ >/dev/null 2>&1; then
	cp "$tmp/t.c" "$tmp/t.cc"
	c++ -Wall -Wextra -Werror -pedantic -I"$srcdir/include" -I"${top_builddir:-.}/include" -c "$tmp/t.cc" -o "$tmp/t.o"
fi
echo "cupti.h compiles standalone"
