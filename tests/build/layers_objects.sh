#!/bin/sh
# The layering of libtlcost checked over the built objects (issue 24 item 6,
# tests/build/layers_objects.py): no layer's objects reference a symbol defined
# only in a layer it may not see. First a copy of the layer libraries with
# one object added to base that calls into report must be refused, naming
# both, so the checker is known to see an upward call; then the real build
# must pass.
. "${top_srcdir:-.}/tests/cli_lib.sh"
tlc_need python3 nm ar
tlc_tmpdir layers-objects
mkdir -p "$tmp/.libs"
cp "$top_builddir"/.libs/libtl_*.a "$tmp/.libs/" || exit 1
# a report symbol the real report layer defines
sym=$(nm -g --defined-only "$top_builddir/.libs/libtl_report.a" | awk '$2 == "T" && $3 ~ /^tlc_/ { print $3; exit }')
[ -n "$sym" ] || { echo "layers_objects: no report symbol found"; exit 1; }
printf 'void %s(void);\nvoid tlc_upward__probe(void) { %s(); }\n' "$sym" "$sym" > "$tmp/upward.c"
${CC:-cc} -c -o "$tmp/upward.o" "$tmp/upward.c" || exit 1
ar r "$tmp/.libs/libtl_base.a" "$tmp/upward.o" 2>/dev/null || exit 1
out=$(python3 "$top_srcdir/tests/build/layers_objects.py" "$tmp") &&
	{ echo "layers_objects: the upward call was accepted: $out"; exit 1; }
echo "$out" | grep -q "libtl_base.la: upward.o references $sym, defined in libtl_report.la" ||
	{ echo "layers_objects: the upward call was not reported: $out"; exit 1; }
exec python3 "$top_srcdir/tests/build/layers_objects.py" "$top_builddir"
