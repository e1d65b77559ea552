#!/bin/sh
# `make bench-trace`: Kineto trace reading against its targets.
#   tlcost flops on an N-event trace  <= 1.5x the CPU time of `json_verify -q` (yajl parse only)
#   peak RSS of tlcost flops           <= 1/4 of the uncompressed trace size
# Environment (set by am/trace.am): TLCOST GEN_TRACE TIMEIT JSON_VERIFY BENCH_DIR;
# optional BENCH_EVENTS (default 5000000), BENCH_RUNS (3).
set -eu
N=${BENCH_EVENTS:-5000000}
RUNS=${BENCH_RUNS:-3}
dir=${BENCH_DIR:-tests/bench}
file=$dir/trace-$N.json
res=$dir/timeit-trace.out

if [ ! -s "$file" ]; then
	echo "bench-trace: writing $file ($N events)"
	"$GEN_TRACE" "$N" > "$file.tmp"
	mv "$file.tmp" "$file"
fi

# least CPU time of RUNS runs, as "wall cpu rss_kib"
best() {
	b=""
	i=0
	while [ "$i" -lt "$RUNS" ]; do
		"$TIMEIT" -r "$res" "$@"
		read -r w c m st < "$res"
		if [ "$st" != 0 ]; then
			echo "bench-trace: '$*' failed (exit $st)" >&2
			exit 1
		fi
		b=$(echo "$w $c $m $b" | awk 'NF == 3 || $2 < $5 { print $1, $2, $3; next } { print $4, $5, $6 }')
		i=$((i + 1))
	done
	echo "$b"
}

size=$(wc -c < "$file")
set -- $(best "$TLCOST" flops "$file")
t_cpu=$2
t_rss=$3
if [ -n "${JSON_VERIFY:-}" ] && command -v "$JSON_VERIFY" > /dev/null 2>&1; then
	set -- $(best -i "$file" "$JSON_VERIFY" -q)
	y_cpu=$2
else
	y_cpu=""
fi
echo "trace: $file, $size bytes"
echo "$t_cpu $t_rss $size $y_cpu" | awk '{
	printf "tlcost flops: %.2f s CPU, peak RSS %.0f MiB = %.3f of the file (target <= 0.25) %s\n",
	       $1, $2 / 1024, $2 * 1024 / $3, ($2 * 1024 <= $3 / 4 ? "ok" : "MISSED")
	if ($4 != "")
		printf "yajl parse only (json_verify -q): %.2f s CPU; ratio %.2f (target <= 1.5) %s\n",
		       $4, $1 / $4, ($1 <= 1.5 * $4 ? "ok" : "MISSED")
	else
		print "json_verify not found: time ratio not measured"
}'
