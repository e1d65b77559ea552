#!/bin/sh
# Test driver wrapper (LOG_COMPILER): runs a cmocka test binary directly, or
# under valgrind memcheck when TLCOST_TEST_WRAPPER=valgrind (any error or
# leak fails the test). Scripts (*.sh) run with sh. Under valgrind a script
# sees top_builddir as a directory of links to the build tree in which
# `tlcost` runs the real one under valgrind, so every CLI call of every
# script is checked, whether or not it puts $TLCOST_RUN in front (which is
# then empty, so nothing runs under valgrind twice). Valgrind reports of
# those calls go to log files that fail the test when not empty, even where
# the script ignores the exit status or stderr.
test=$1
shift
VG="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect"
VG="$VG --suppressions=${top_srcdir:-.}/tests/valgrind.supp"

script_under_valgrind()
{
	real=$(cd "${top_builddir:-.}" && pwd)
	shim=$(mktemp -d "${TMPDIR:-/tmp}/tlcost-vg.XXXXXX") || exit 99
	trap 'rm -rf "$shim"' EXIT
	for f in "$real"/* "$real"/.libs "$real"/.deps; do
		[ -e "$f" ] && [ "${f##*/}" != tlcost ] && ln -s "$f" "$shim/"
	done
	logs=$(mktemp -d "${TMPDIR:-/tmp}/tlcost-vglog.XXXXXX") || exit 99
	trap 'rm -rf "$shim" "$logs"' EXIT
	cat > "$shim/tlcost" <<EOF
#!/bin/sh
exec "$real/libtool" --mode=execute $VG --log-file="$logs/%p.log" "$real/tlcost" "\$@"
EOF
	chmod +x "$shim/tlcost"
	top_builddir=$shim TLCOST_RUN= ${SHELL:-/bin/sh} "$test" "$@"
	rc=$?
	for f in "$logs"/*.log; do
		[ -s "$f" ] || continue
		echo "FAIL: valgrind reported errors in a tlcost call of $test:"
		cat "$f"
		rc=1
	done
	return $rc
}

case "$test" in
*.sh)
	if [ "${TLCOST_TEST_WRAPPER:-}" = valgrind ] && [ -x "${top_builddir:-.}/tlcost" ]; then
		script_under_valgrind "$@"
		exit $?
	fi
	exec ${SHELL:-/bin/sh} "$test" "$@" ;;
esac
if [ "${TLCOST_TEST_WRAPPER:-}" = valgrind ]; then
	exec "${top_builddir:-.}/libtool" --mode=execute $VG "$test" "$@"
fi
exec "$test" "$@"
