#!/bin/sh
# `make bench`: op log reading speed and memory against their targets.
#   tlcost flops on an N-op log    <= 1.5x the time of `json_verify -s` on it
#   peak RSS of tlcost flops       <  64 MiB (memory must not grow with N)
#   engine alone (no parsing)      >  10M ops/s
# Environment (set by tests/bench/local.mk): TLCOST GEN ENGINE TIMEIT FLOOR
# JSON_VERIFY BENCH_DIR; optional BENCH_OPS (default 1000000), BENCH_RUNS (3).
set -eu
N=${BENCH_OPS:-1000000}
RUNS=${BENCH_RUNS:-3}
dir=${BENCH_DIR:-tests/bench}
file=$dir/oplog-$N.jsonl
res=$dir/timeit.out

if [ ! -s "$file" ]; then
	echo "bench: writing $file ($N ops)"
	"$GEN" "$N" > "$file.tmp"
	mv "$file.tmp" "$file"
fi

# best CMD...: of RUNS runs, the one with the least CPU time (user+system),
# as "wall cpu rss_kib". CPU time, not wall time, is compared: on a shared
# machine the wall time mostly measures the other processes.
best() {
	b=""
	i=0
	while [ "$i" -lt "$RUNS" ]; do
		"$TIMEIT" -r "$res" "$@"
		read -r w c m st < "$res"
		if [ "$st" != 0 ]; then
			echo "bench: '$*' failed (exit $st)" >&2
			exit 1
		fi
		b=$(echo "$w $c $m $b" | awk 'NF == 3 || $2 < $5 { print $1, $2, $3; next } { print $4, $5, $6 }')
		i=$((i + 1))
	done
	echo "$b"
}

mb=$(wc -c < "$file" | awk '{ printf "%.0f", $1 / 1048576 }')
echo "bench: $N ops, $mb MiB op log ($file), best of $RUNS runs by CPU time"
t=$(best "$TLCOST" flops "$file")
if [ -n "${JSON_VERIFY:-}" ]; then
	j=$(best -i "$file" "$JSON_VERIFY" -s)
else
	j=""
fi
f=$(best "$FLOOR" "$file")
e=$("$ENGINE" "$N")

echo "$t|$j|$e|$f" | awk -F'|' '
function mib(k) { return k / 1024 }
function verdict(ok) { return ok ? "ok" : "MISSED" }
{
	split($1, t, " "); split($3, e, " ")
	printf "%-28s %8s %8s %11s   %s\n", "", "wall s", "cpu s", "peak RSS", "target"
	if ($2 != "") {
		split($2, j, " ")
		printf "%-28s %8.3f %8.3f %7.1f MiB   (parse-only baseline)\n", "json_verify -s < log", j[1], j[2], mib(j[3])
	}
	split($4, f, " ")
	printf "%-28s %8.3f %8.3f %7.1f MiB   (yajl, callbacks doing nothing)\n", "yajl floor", f[1], f[2], mib(f[3])
	printf "%-28s %8.3f %8.3f %7.1f MiB\n", "tlcost flops log", t[1], t[2], mib(t[3])
	if ($2 != "") {
		r = t[2] / j[2]
		printf "%-28s %7.2fx %37s %s\n", "  cpu time / parse-only", r, "<= 1.50x", verdict(r <= 1.5)
		printf "%-28s %7.2fx\n", "  (wall time / parse-only)", t[1] / j[1]
		printf "%-28s %7.2fx   (the part of the budget yajl callbacks take by themselves)\n", "  yajl floor / parse-only", f[2] / j[2]
	} else {
		printf "%-28s %s\n", "  time / parse-only", "not measured: json_verify not found (install yajl-tools)"
	}
	printf "%-28s %26.1f MiB   < 64 MiB  %s\n", "  peak RSS", mib(t[3]), verdict(mib(t[3]) < 64)
	printf "%-28s %8.1fM ops/s %28s %s\n", "engine alone (no parsing)", e[3] / 1e6, "> 10M ops/s", verdict(e[3] > 10e6)
	printf "%-28s %8.1fM ops/s (cpu time)\n", "tlcost flops end to end", e[1] / t[2] / 1e6
}'
