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
srcdir=${top_srcdir:-.}
tlcost="${top_builddir:-.}/tlcost"
shared=${TLCOST_SHARED_DIR:-$srcdir/../shared}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
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
		run "$tmp/b" "$tlcost" "TLCOST_JSON_FAST=1" "$f"
	else
		run "$tmp/a" "$tlcost" "TLCOST_JSON_FAST=0" "$f"
		run "$tmp/b" "$tlcost" "TLCOST_JSON_FAST=1" "$f"
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

for f in "$srcdir"/examples/*.oplog.jsonl* "$srcdir"/tests/fixtures/oplog/*.jsonl* \
         "$srcdir"/tests/fixtures/oplog/bad/* "$srcdir"/tests/fixtures/oplog/fast/*.jsonl \
         "$srcdir"/tests/fixtures/models/* "$srcdir"/tests/fixtures/devtime/* \
         "$srcdir"/tests/fixtures/reports/*.jsonl "$srcdir"/tests/fixtures/trace/*.json* \
         "$srcdir"/tests/fuzz/regress/*; do
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
