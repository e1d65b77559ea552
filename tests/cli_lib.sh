# The one shell library of the script tests (tests/cli/*.sh, tests/build/*.sh):
# sourced, never run, as each test's first line of code:
#
#     . "${top_srcdir:-.}/tests/cli_lib.sh"
#
# It sets
#   top_srcdir, top_builddir  absolute paths (make passes them; "." when run by hand
#                             from the build folder)
#   T                         the tlcost binary of this build (absolute)
#   TLCOST_RUN                the wrapper of tlcost runs ("" unless valgrind), set or not
#   shared                    the shared inputs' folder ($TLCOST_SHARED_DIR, else
#                             ../shared beside the sources): traces in $shared/traces
#   fails                     0; the compare helpers count failures in it
# and defines
#   tlc_need CMD...           skip (77) unless every CMD is on PATH
#   tlc_need_shared [REL...]  skip (77) unless $shared/traces (and each $shared/REL) exists
#   tlc_each_shared_trace FN REL...  calls FN FILE for each shared trace $shared/traces/REL
#                             that exists (under valgrind: up to 200 kB), counting a failure
#                             when FN fails; skips (77) when there was none
#   tlc_header_standalone H   fails unless <tlcost/H> compiles alone (C99/C11/C17, C++)
#   tlc_skip_sanitized        skip (77) in an ASan/UBSan build (the plain build runs the test)
#   tlc_tmpdir [NAME]         a new scratch folder in $tmp, removed at exit (KEEP=1 keeps
#                             it); $out is a scratch file in it for run/check/absent
#   run STATUS ARGS...        runs $T ARGS: stdout then stderr into $out, counts a failure
#                             unless it exits STATUS
#   fail MESSAGE              prints FAIL: MESSAGE and counts a failure
#   check WHAT TEXT           counts a failure unless the fixed string TEXT is in $out
#   absent WHAT TEXT          counts a failure if TEXT is in $out
#   tlc_done                  exits 1 (after saying how many) when fails > 0, else 0
# A test that defines a function of one of these names after sourcing uses its own.

top_srcdir=$(cd "${top_srcdir:-.}" && pwd) || exit 99
top_builddir=$(cd "${top_builddir:-.}" && pwd) || exit 99
T="$top_builddir/tlcost"
TLCOST_RUN=${TLCOST_RUN:-}
shared=${TLCOST_SHARED_DIR:-$top_srcdir/../shared}
fails=0
tmp=
out=

tlc_need() { # CMD...
	for c in "$@"; do
		command -v "$c" > /dev/null 2>&1 || { echo "SKIP: $c not found"; exit 77; }
	done
}

tlc_need_shared() { # [PATH under $shared]...
	[ -d "$shared/traces" ] || { echo "SKIP: no shared traces ($shared/traces)"; exit 77; }
	for p in "$@"; do
		[ -e "$shared/$p" ] || { echo "SKIP: $shared/$p absent"; exit 77; }
	done
}

tlc_each_shared_trace() { # FN REL...: FN FILE for each $shared/traces/REL that exists
	# (under valgrind only those up to 200 kB); a failure counted when FN
	# returns non-zero; skips (77) when it ran on none.
	fn=$1; shift
	ran=0
	for rel in "$@"; do
		f="$shared/traces/$rel"
		[ -f "$f" ] || continue
		if [ "${TLCOST_TEST_WRAPPER:-}" = valgrind ] && [ "$(wc -c < "$f")" -gt 200000 ]; then
			continue
		fi
		ran=$((ran + 1))
		"$fn" "$f" || fails=$((fails + 1))
	done
	[ "$ran" -gt 0 ] || { echo "SKIP: no shared trace"; exit 77; }
}

tlc_header_standalone() { # NAME: <tlcost/NAME> included twice compiles alone, pedantic,
	# as C99/C11/C17 and (where there is a c++) as C++
	tlc_tmpdir header
	printf '#include <tlcost/%s>\n#include <tlcost/%s>\nint main(void) { return 0; }\n' "$1" "$1" > "$tmp/t.c"
	for std in c99 c11 c17; do
		${CC:-cc} -std=$std -Wall -Wextra -Werror -pedantic -I"$top_srcdir/include" \
			-I"$top_builddir/include" -c "$tmp/t.c" -o "$tmp/t.o" || { echo "FAIL: $1 as $std"; exit 1; }
	done
	if command -v c++ > /dev/null 2>&1; then
		cp "$tmp/t.c" "$tmp/t.cc"
		c++ -Wall -Wextra -Werror -pedantic -I"$top_srcdir/include" -I"$top_builddir/include" \
			-c "$tmp/t.cc" -o "$tmp/t.o" || { echo "FAIL: $1 as C++"; exit 1; }
	fi
	echo "$1 compiles standalone"
}

tlc_skip_sanitized() {
	if nm -D "$top_builddir/.libs/libtlcost.so" 2>/dev/null | grep -q "__asan_\|__ubsan_"; then
		echo "SKIP: sanitizer build (the plain build runs this test)"
		exit 77
	fi
}

tlc_tmpdir() { # [NAME]: $tmp, removed at exit unless KEEP is set
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/tlc-${1:-test}.XXXXXX") || exit 99
	trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
	out="$tmp/out"
}

fail() { # message: a failure, counted
	echo "FAIL: $*"; fails=$((fails + 1))
}

check() { # description, fixed string expected in $out
	if grep -F -q -- "$2" "$out"; then :; else
		echo "FAIL: $1: missing '$2'"; cat "$out"; fails=$((fails + 1))
	fi
}

absent() { # description, fixed string that must not be in $out
	if grep -F -q -- "$2" "$out"; then
		echo "FAIL: $1: unexpected '$2'"; cat "$out"; fails=$((fails + 1))
	fi
}

run() { # expected exit status, args...: stdout then stderr into $out
	want=$1; shift
	$T "$@" > "$out" 2> "$out.err"
	rc=$?
	cat "$out.err" >> "$out"
	[ "$rc" -eq "$want" ] || { echo "FAIL: tlcost $* exited $rc, expected $want"; cat "$out"; fails=$((fails + 1)); }
}

tlc_done() {
	[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
	exit 0
}
