#!/bin/sh
# Every public struct the caller fills that starts with a `uint32_t size`
# field has an initializer macro TLC_<NAME>_INIT (docs/api.md, "Structs that
# grow"), and every TLC_*_INIT macro compiles warning-free as C99/C11 and
# C++11 (-Wall -Wextra -Werror -pedantic: every field spelled, in order) and
# sets the size to sizeof the struct. The lists come from the headers, so a
# new struct or macro is covered without editing this test.
set -u
. "${top_srcdir:-.}/tests/cli_lib.sh"
cc=${CC:-cc}
cxx=${CXX:-c++}
tlc_tmpdir init-macros
incs="-I$top_srcdir/include"
[ -d "$top_builddir/include" ] && incs="$incs -I$top_builddir/include"
hdrs=$(ls "$top_srcdir"/include/tlcost/*.h)
# structs whose first field is `uint32_t size`
# shellcheck disable=SC2086
structs=$(awk '/^typedef struct tlc_[a-z0-9_]+ \{$/ { name = $3; getline;
	if ($1 == "uint32_t" && $2 == "size;") print name }' $hdrs | sort -u)
# shellcheck disable=SC2086
macros=$(sed -n 's/^#define \(TLC_[A-Z0-9_]*_INIT\) .*/\1/p' $hdrs | sort -u)
fail=0
for s in $structs; do
	m=$(echo "$s" | tr 'a-z' 'A-Z')_INIT
	echo "$macros" | grep -qx "$m" || { echo "init_macros: $s has no $m"; fail=1; }
done
{
	for h in $hdrs; do echo "#include <tlcost/$(basename "$h")>"; done
	echo 'int main(void)'
	echo '{'
	echo '	int bad = 0;'
	for m in $macros; do
		t=$(echo "${m%_INIT}" | tr 'A-Z' 'a-z')
		echo "	{ $t v = $m; (void)v;"
		echo "$structs" | grep -qx "$t" &&
			echo "	  if (v.size != sizeof v) bad = 1;"
		echo "	}"
	done
	echo '	return bad;'
	echo '}'
} > "$tmp/t.c"
for std in c99 c11; do
	# shellcheck disable=SC2086
	$cc -std=$std -Wall -Wextra -Werror -pedantic $incs -o "$tmp/t" "$tmp/t.c" ||
		{ echo "init_macros: the macros do not compile as $std"; fail=1; continue; }
	"$tmp/t" || { echo "init_macros: a macro's size is not sizeof its struct ($std)"; fail=1; }
done
if command -v "$cxx" >/dev/null 2>&1; then
	cp "$tmp/t.c" "$tmp/t.cc"
	# shellcheck disable=SC2086
	$cxx -std=c++11 -Wall -Wextra -Werror -pedantic $incs -o "$tmp/tx" "$tmp/t.cc" ||
		{ echo "init_macros: the macros do not compile as C++11"; fail=1; }
	[ -x "$tmp/tx" ] && { "$tmp/tx" || { echo "init_macros: size wrong (C++)"; fail=1; }; }
fi
# the module-first spellings of the writers (docs/api.md, "Names"): each
# names a declared function, and calling through it compiles
# shellcheck disable=SC2086
aliases=$(sed -n 's/^#define \(tlc_[a-z0-9_]*\) \(tlc_[a-z0-9_]*\) .*module-first.*/\1:\2/p' $hdrs)
[ -n "$aliases" ] || { echo "init_macros: no module-first spellings found"; fail=1; }
{
	for h in $hdrs; do echo "#include <tlcost/$(basename "$h")>"; done
	n=0
	for a in $aliases; do
		n=$((n + 1))
		echo "void *f$n(void); void *f$n(void) { return (void *)(size_t)&${a%%:*}; }"
	done
	echo 'int main(void) { return 0; }'
} > "$tmp/alias.c"
for a in $aliases; do
	# shellcheck disable=SC2086
	grep -q "^int ${a#*:}(" $hdrs || { echo "init_macros: ${a%%:*} names no function ${a#*:}"; fail=1; }
done
# shellcheck disable=SC2086
$cc -std=c11 -Wall -Wextra -Werror $incs -c -o "$tmp/alias.o" "$tmp/alias.c" ||
	{ echo "init_macros: a module-first spelling does not compile"; fail=1; }
[ $fail = 0 ] && echo "init_macros: $(echo "$structs" | wc -w) sized structs, $(echo "$macros" | wc -w) macros: all present, all compile"
exit $fail
