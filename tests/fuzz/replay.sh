#!/bin/sh
# Replays every input that once crashed a fuzz target (tests/fuzz/regress/)
# through the CLI: each must end in success or a typed error (a code and a
# remedy on stderr), never a signal. Op logs and traces (regress/*) are read
# by `tlcost flops`; rule files (regress/rules/*) are loaded with --rules over
# a small op log.
. "${top_srcdir:-.}/tests/cli_lib.sh"
oplog="$top_srcdir/examples/custom_gelu.oplog.jsonl"
n=0
fail=0
tlc_tmpdir replay
err="$tmp/err"

check() { # FILE, then the command
	f=$1
	shift
	n=$((n + 1))
	$TLCOST_RUN "$@" >/dev/null 2>"$err"
	rc=$?
	if [ $rc -gt 2 ]; then
		echo "FAIL: $f: exit $rc"; fail=$((fail + 1))
	elif [ $rc -ne 0 ] && ! grep -q "remedy:" "$err"; then
		echo "FAIL: $f: error without a remedy"; fail=$((fail + 1))
	fi
}

for f in "$top_srcdir"/tests/fuzz/regress/*; do
	[ -f "$f" ] && check "$f" "$T" flops "$f"
done
for f in "$top_srcdir"/tests/fuzz/regress/rules/*; do
	[ -f "$f" ] && check "$f" "$T" --rules "$f" flops "$oplog"
done
echo "$((n - fail)) passed, $fail failed"
[ $fail -eq 0 ]
