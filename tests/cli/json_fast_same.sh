#!/bin/sh
# The SIMD JSON fast path (engine/input/json/json_fast.h) changes nothing a user
# sees. For every op log and trace the project has (examples, fixtures, the
# fuzz regressions, the shared real traces), `tlcost flops --format json`
# with the fast path (the default) and without it (TLCOST_JSON_FAST=0, yajl
# alone: the reference) must give byte-identical stdout, stderr and exit
# status; errors included, with their codes and line/column.
#
# Before/after a change: TLCOST_BEFORE=/path/to/old/tlcost compares that
# binary's output with this build's (both with their default settings).
. "${top_srcdir:-.}/tests/cli_lib.sh"
tlc_tmpdir json-fast-same
n=0
fail=0

run() { # OUTPREFIX BINARY [env assignment] FILE
	out=$1 bin=$2 envset=$3 f=$4
	env $envset "$bin" flops --format json "$f" > "$out.out" 2> "$out.err"
	echo $? > "$out.rc"
}

compare() {
	f=$1
	n=$((n + 1))
	if [ -n "${TLCOST_BEFORE:-}" ]; then
		run "$tmp/a" "$TLCOST_BEFORE" "TLCOST_JSON_FAST=1" "$f"
		run "$tmp/b" "$T" "TLCOST_JSON_FAST=1" "$f"
	else
		run "$tmp/a" "$T" "TLCOST_JSON_FAST=0" "$f"
		run "$tmp/b" "$T" "TLCOST_JSON_FAST=1" "$f"
	fi
	for k in rc out err; do
		if ! cmp -s "$tmp/a.$k" "$tmp/b.$k"; then
			echo "FAIL: $f: $k differs"
			diff "$tmp/a.$k" "$tmp/b.$k" | head -6
			fail=$((fail + 1))
			return
		fi
	done
}

for f in "$top_srcdir"/examples/*.oplog.jsonl* "$top_srcdir"/tests/fixtures/oplog/*.jsonl* \
         "$top_srcdir"/tests/fixtures/oplog/bad/* "$top_srcdir"/tests/fixtures/oplog/fast/*.jsonl \
         "$top_srcdir"/tests/fixtures/models/* "$top_srcdir"/tests/fixtures/devtime/* \
         "$top_srcdir"/tests/fixtures/reports/*.jsonl "$top_srcdir"/tests/fixtures/trace/*.json* \
         "$top_srcdir"/tests/fuzz/regress/*; do
	[ -f "$f" ] && compare "$f"
done
if [ -d "$shared/traces" ]; then
	for f in $(find "$shared/traces" -name '*.json*' -type f | sort); do
		compare "$f"
	done
else
	echo "note: $shared/traces not found: the shared traces were not compared"
fi
echo "$((n - fail)) of $n inputs identical"
[ $fail -eq 0 ]
