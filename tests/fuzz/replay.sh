#!/bin/sh
# Replays every input that once crashed a fuzz target (tests/fuzz/regress/)
# through the CLI: each must end in success or a typed error (a code and a
# remedy on stderr), never a signal.
srcdir=${top_srcdir:-.}
tlcost="${top_builddir:-.}/tlcost"
n=0
fail=0
err=$(mktemp)
trap 'rm -f "$err"' EXIT
for f in "$srcdir"/tests/fuzz/regress/*; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	$TLCOST_RUN "$tlcost" flops "$f" >/dev/null 2>"$err"
	rc=$?
	if [ $rc -gt 2 ]; then
		echo "FAIL: $f: exit $rc"; fail=$((fail + 1))
	elif [ $rc -ne 0 ] && ! grep -q "remedy:" "$err"; then
		echo "FAIL: $f: error without a remedy"; fail=$((fail + 1))
	fi
done
echo "$((n - fail)) passed, $fail failed"
[ $fail -eq 0 ]
