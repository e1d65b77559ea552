#!/bin/sh
# <tlcost/nvtx.h> compiles standalone (no CUDA or NVTX headers needed) with
# -Wall -Wextra -Werror -pedantic, as C and as C++.
set -e
srcdir=${top_srcdir:-.}
builddir=${top_builddir:-.}
cc=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '#include <tlcost/nvtx.h>\n#include <tlcost/nvtx.h>\nint main(void) { return 0; }\n' > "$tmp/t.c"
for std in c99 c11 c17; do
	$cc -std=$std -Wall -Wextra -Werror -pedantic -I"$srcdir/include" -I"$builddir/include" -c "$tmp/t.c" -o "$tmp/t.o"
done
if command -v c++ >/dev/null 2>&1; then
	cp "$tmp/t.c" "$tmp/t.cc"
	c++ -Wall -Wextra -Werror -pedantic -I"$srcdir/include" -I"$builddir/include" -c "$tmp/t.cc" -o "$tmp/t.o"
fi
echo "nvtx.h compiles standalone"
