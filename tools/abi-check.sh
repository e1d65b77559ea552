#!/bin/sh
# ABI check of the shared libraries against the baselines in abi/ (docs/ABI.md).
#
#   tools/abi-check.sh check  [BUILDDIR]   compare the built libraries with abi/
#   tools/abi-check.sh update [BUILDDIR]   regenerate abi/ from the built libraries
#   tools/abi-check.sh compare OLD.abi NEW.so|NEW.abi OLD_VERSION NEW_VERSION
#
# For each library the baseline is abi/LIB.abi (abidw of the public types,
# --headers-dir include/tlcost) and abi/LIB.version-info (the libtool
# -version-info it was taken at). check fails when
#   - the libtool -version-info in configure.ac differs from the one the
#     baseline was taken at: the baseline and the version change together,
#     in one commit (run `make abi-baseline`);
#   - abidiff finds a removed or changed function or variable (including a
#     change of a type they reach), whatever the version: the baseline must
#     be regenerated with the change;
# it passes with a notice when the only changes are additions (new
# functions): a compatible change, recorded by the next `make abi-baseline`
# with the -version-info bumped (current+1, revision 0, age+1).
# Exit: 0 ok, 1 ABI failure, 2 usage or tool error, 77 abidw missing.
set -u
srcdir=$(cd "$(dirname "$0")/.." && pwd)
abidir=${ABI_DIR:-$srcdir/abi}

need_tools() {
	command -v abidw >/dev/null 2>&1 && command -v abidiff >/dev/null 2>&1 && return 0
	echo "abi-check: abidw/abidiff not found (install the Debian package abigail-tools)" >&2
	exit 77
}

# libtool -version-info of a library, read from configure.ac
version_info() {
	case $1 in
	libtlcost) var=TLC_LT_VERSION ;;
	libtlcost-cupti) var=TLC_CUPTI_LT_VERSION ;;
	*) echo "abi-check: unknown library $1" >&2; exit 2 ;;
	esac
	v=$(sed -n "s/^AC_SUBST(\[$var\], \[\([0-9:]*\)\])/\1/p" "$srcdir/configure.ac")
	[ -n "$v" ] || { echo "abi-check: $var not found in configure.ac" >&2; exit 2; }
	echo "$v"
}

dump() { # SO OUT
	abidw --headers-dir "$srcdir/include/tlcost" --drop-private-types --no-corpus-path --no-comp-dir-path --no-show-locs \
		--out-file "$2" "$1"
}

# compare OLD NEW OLDVER NEWVER -> 0 ok / 1 failure
compare() {
	old=$1 new=$2 oldver=$3 newver=$4
	out=$(abidiff "$old" "$new" 2>&1)
	rc=$?
	if [ $((rc & 3)) -ne 0 ]; then
		echo "$out" >&2
		echo "abi-check: abidiff failed (exit $rc)" >&2
		exit 2
	fi
	if [ "$oldver" != "$newver" ]; then
		echo "abi-check: $(basename "$old" .abi): -version-info is $newver but the baseline was taken at $oldver:" >&2
		echo "  the baseline and the version change together; run 'make abi-baseline' and commit abi/ with configure.ac" >&2
		return 1
	fi
	# abidiff exits 12 for removed symbols and 4 for any other change; a
	# change is compatible only when every entry is an addition ([A]).
	changed=$(echo "$out" | grep -c '^ *\[[CD]\] ' || true)
	if [ $((rc & 8)) -ne 0 ] || [ "$changed" -ne 0 ]; then
		echo "$out"
		echo "abi-check: $(basename "$old" .abi): ABI changed at -version-info $newver ($changed removed or changed symbols)." >&2
		echo "  Undo it, or make it on purpose in one commit that says so (docs/ABI.md): bump -version-info in" >&2
		echo "  configure.ac (incompatible: current+1, revision 0, age 0; a struct grown at its end behind a size" >&2
		echo "  field: current+1, revision 0, age+1) and run 'make abi-baseline'." >&2
		return 1
	fi
	added=$(echo "$out" | grep -c '^ *\[A\] ' || true)
	if [ "$added" -ne 0 ]; then
		echo "abi-check: $(basename "$old" .abi): compatible: $added added symbols; record them with a -version-info bump (current+1, revision 0, age+1) and 'make abi-baseline'"
	fi
	return 0
}

libs() { # BUILDDIR -> "name path" lines of the libraries that were built
	for l in libtlcost libtlcost-cupti; do
		[ -e "$1/.libs/$l.so" ] && echo "$l $1/.libs/$l.so"
	done
}

cmd=${1:-check}
case $cmd in
compare)
	[ $# -eq 5 ] || { echo "usage: $0 compare OLD NEW OLDVER NEWVER" >&2; exit 2; }
	need_tools
	compare "$2" "$3" "$4" "$5"
	exit $?
	;;
check|update)
	need_tools
	builddir=$(cd "${2:-.}" && pwd)
	found=$(libs "$builddir")
	[ -n "$found" ] || { echo "abi-check: no built libraries in $builddir/.libs (run make)" >&2; exit 2; }
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	fail=0
	echo "$found" | while read -r name so; do
		ver=$(version_info "$name")
		if [ "$cmd" = update ]; then
			dump "$so" "$abidir/$name.abi" || exit 2
			echo "$ver" > "$abidir/$name.version-info"
			echo "abi-check: wrote $abidir/$name.abi at -version-info $ver"
			continue
		fi
		if [ ! -f "$abidir/$name.abi" ]; then
			echo "abi-check: no baseline $abidir/$name.abi (run 'make abi-baseline')" >&2
			exit 1
		fi
		dump "$so" "$tmp/$name.abi" || exit 2
		compare "$abidir/$name.abi" "$tmp/$name.abi" "$(cat "$abidir/$name.version-info")" "$ver" || exit 1
		echo "abi-check: $name: ABI compatible with the baseline (-version-info $ver)"
	done || fail=1
	exit $fail
	;;
*)
	echo "usage: $0 check|update [BUILDDIR] | compare OLD NEW OLDVER NEWVER" >&2
	exit 2
	;;
esac
