# Shared helpers of the CLI tests (sourced, not run): each test sets T (the
# tlcost command), out (a scratch file) and fails=0 before sourcing it.

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
