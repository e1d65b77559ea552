#!/bin/sh
# `make bench-tokens` (part of `make bench`): one op log record whose op
# name is a 64 MB token, then one of 128 MB, read with the token limit
# lifted (--max-token-bytes none). Target: the 128 MB read takes at most
# 2.5x the CPU time of the 64 MB read (linear: 2x; a parser that re-lexes a
# token spanning read chunks grows with its square: 4x). A third read with
# the default limit must end early with token_too_long.
# Environment: TLCOST TIMEIT BENCH_DIR.
set -eu
dir=${BENCH_DIR:-tests/bench}
res=$dir/timeit.out
gen() { # MB FILE
	{ printf '{"format":"tlcost-oplog","version":1}\n{"id":0,"op":"mylib::'
	  head -c $(($1 * 1048576)) /dev/zero | tr '\0' n
	  printf '","phase":"forward","args":[]}\n'; } > "$2"
}
cpu() { # FILE
	"$TIMEIT" -r "$res" "$TLCOST" --max-token-bytes none flops "$1" > /dev/null
	read -r w c m st < "$res"
	[ "$st" = 0 ] || { echo "bench-tokens: tlcost failed on $1 (exit $st)" >&2; exit 1; }
	echo "$c"
}
gen 64 "$dir/token-64.jsonl"
gen 128 "$dir/token-128.jsonl"
a=$(cpu "$dir/token-64.jsonl")
b=$(cpu "$dir/token-128.jsonl")
if "$TLCOST" flops "$dir/token-128.jsonl" > /dev/null 2> "$dir/token.err"; then
	echo "bench-tokens: FAIL: a 128 MB token passed the default limit"; exit 1
fi
grep -q token_too_long "$dir/token.err" || { echo "bench-tokens: FAIL: no token_too_long"; exit 1; }
rm -f "$dir/token-64.jsonl" "$dir/token-128.jsonl" "$dir/token.err"
echo "$a $b" | awk '{ r = $2 / ($1 > 0 ? $1 : 1e-9);
	printf "bench-tokens: 64 MB token %.2f s CPU, 128 MB token %.2f s CPU: ratio %.2f (target <= 2.5) %s\n",
	       $1, $2, r, r <= 2.5 ? "PASS" : "FAIL"; exit r <= 2.5 ? 0 : 1 }'
