#!/bin/sh
# The legacy torch.autograd.profiler export (a bare array of "ph": "X" events
# without "cat"; tests/fixtures/trace/legacy_autograd_profiler.json, written by
# Debian's torch 1.13 with gen_legacy_autograd_profiler.py next to it) is not a
# Kineto trace: every command that reads it refuses it typed
# (trace_not_kineto, exit 1: refused input, docs/errors.md), never "COMPLETE with 0 op rows".
set -u
. "${top_srcdir:-.}/tests/cli_lib.sh"
T="$TLCOST_RUN $T"
F="$top_srcdir/tests/fixtures/trace/legacy_autograd_profiler.json"
tlc_tmpdir legacy
err="$tmp/err"
for cmd in flops ledger join; do
	$T $cmd "$F" > /dev/null 2> "$err"
	rc=$?
	if [ "$rc" -ne 1 ] || ! grep -q "error: trace_not_kineto: 53 complete events and none has a 'cat'" "$err"; then
		echo "FAIL: $cmd: exit $rc"; cat "$err"; fails=$((fails + 1))
	fi
	grep -q "remedy: .*torch.profiler.profile" "$err" || { echo "FAIL: $cmd: no remedy"; fails=$((fails + 1)); }
done
# the 53 events: counted independently of tlcost
n=$(python3 -c "import json,sys; print(sum(1 for e in json.load(open(sys.argv[1])) if e.get('ph') == 'X' and 'cat' not in e))" "$F" 2>/dev/null)
[ -z "$n" ] || [ "$n" -eq 53 ] || { echo "FAIL: fixture has $n complete events, not 53"; fails=$((fails + 1)); }
[ "$fails" -eq 0 ] && echo "ok: legacy export refused (trace_not_kineto)"
[ "$fails" -eq 0 ]
