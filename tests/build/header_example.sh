#!/bin/sh
# The example in the comment of <tlcost/tlcost.h> compiles as printed
# (-std=c11 -Wall -Wextra -Werror -pedantic) against the built library and
# prints the FLOPs of its aten::mm: [8,16] x [16,4] is M*K*N = 8*16*4 = 512
# multiply-adds, 1024 FLOPs at fma=2 (worked by hand, not copied from a run).
set -e
. "${top_srcdir:-.}/tests/cli_lib.sh"
# A sanitizer build (.ci/run's ASan+UBSan stage) cannot be linked by a plain
# cc as the README does: the plain build runs this test.
tlc_skip_sanitized
tlc_tmpdir header-example
sed -n '/@example-begin/,/@example-end/p' "$top_srcdir/include/tlcost/tlcost.h" |
	sed -e '1d' -e '$d' -e 's/^ \* \{0,1\}//' > "$tmp/ex.c"
[ -s "$tmp/ex.c" ] || { echo "no example found in tlcost.h" >&2; exit 1; }
# examples/api_flops.c is the same program after its 4-line comment
tail -n +5 "$top_srcdir/examples/api_flops.c" | cmp -s - "$tmp/ex.c" ||
	{ echo "examples/api_flops.c differs from the example in tlcost.h" >&2; exit 1; }
"$top_builddir/libtool" --mode=link --tag=CC ${CC:-cc} -std=c11 -Wall -Wextra -Werror -pedantic \
	-I"$top_srcdir/include" -I"$top_builddir/include" -o "$tmp/ex" "$tmp/ex.c" "$top_builddir/libtlcost.la" >/dev/null
# TLCOST_RUN is libtool --mode=execute valgrind ... under TLCOST_TEST_WRAPPER=valgrind
if [ -n "${TLCOST_RUN:-}" ]; then
	out=$($TLCOST_RUN "$tmp/ex")
else
	out=$("$top_builddir/libtool" --mode=execute "$tmp/ex")
fi
echo "$out"
version=$(sed -n 's/^#define PACKAGE_VERSION "\(.*\)"/\1/p' "$top_builddir/config.h")
[ "$out" = "forward FLOPs: 1024 (library $version)" ] || { echo "unexpected output" >&2; exit 1; }
# the man page cannot include the generated header: it must say the same
grep -q "^\.TH TLCOST 1 \"[^\"]*\" \"tlcost $version\"" "$top_srcdir/docs/tlcost.1" ||
	{ echo "docs/tlcost.1 does not say tlcost $version (configure.ac's AC_INIT)" >&2; exit 1; }
echo "ok header example"
