#!/bin/sh
# Each public header compiles standalone with -Wall -Wextra -Werror -pedantic.
set -e
srcdir=${top_srcdir:-.}
cc=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
for h in tlcost/tlcost.h tlcost/plugin.h; do
	printf '#include <%s>\n#include <%s>\nint main(void) { return 0; }\n' "$h" "$h" > "$tmp/t.c"
	for std in c99 c11 c17; do
		$cc -std=$std -Wall -Wextra -Werror -pedantic -I"$srcdir/include" -c "$tmp/t.c" -o "$tmp/t.o"
	done
	n=$((n + 1))
done
echo "1..$n standalone headers ok"
