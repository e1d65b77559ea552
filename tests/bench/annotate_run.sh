#!/bin/sh
# `make bench-annotate`: tlcost annotate on the BENCH_EVENTS-event (default 5
# million) synthetic trace of `make bench` (tests/bench/gen_trace.c), side by
# side with `json_verify -s` (yajl, parse only) on the same file: the
# uncompressed output (target: at most 2x json_verify's CPU time) and, stated
# separately, the gzip output (zlib level 1; compression alone costs more).
# Runs alternate, so all see the same machine; each figure is the median of
# BENCH_RUNS (3) runs, CPU seconds (user + system). Environment: TLCOST
# GEN_TRACE TIMEIT JSON_VERIFY BENCH_DIR (set by tests/bench/local.mk).
set -eu
NE=${BENCH_EVENTS:-5000000}
RUNS=${BENCH_RUNS:-3}
dir=${BENCH_DIR:-tests/bench}
res=$dir/timeit-annotate.out
tr=$dir/trace-$NE.json
out=$dir/annotated-$NE.json
if [ ! -s "$tr" ]; then
	echo "bench-annotate: writing $tr ($NE events)"
	"$GEN_TRACE" "$NE" > "$tr.tmp"
	mv "$tr.tmp" "$tr"
fi
command -v "${JSON_VERIFY:-json_verify}" > /dev/null 2>&1 ||
	{ echo "bench-annotate: json_verify not found (Debian package yajl-tools): not measured"; exit 0; }
for t in plain gzip jv; do rm -f "$dir/ann-$t.runs"; done
once() { # TAG CMD...: appends "cpu rss_kib" of one run to $dir/ann-TAG.runs
	tag=$1
	shift
	"$TIMEIT" -r "$res" "$@"
	read -r w c m st < "$res"
	[ "$st" = 0 ] || { echo "bench-annotate: '$*' failed (exit $st)" >&2; exit 1; }
	echo "$c $m" >> "$dir/ann-$tag.runs"
}
i=0
while [ "$i" -lt "$RUNS" ]; do
	once plain "$TLCOST" annotate "$tr" -o "$out"
	once jv -i "$tr" "$JSON_VERIFY" -s
	once gzip "$TLCOST" annotate "$tr" -o "$out.gz"
	i=$((i + 1))
done
median() { sort -n "$dir/ann-$1.runs" | awk '{ c[NR] = $1; m[NR] = $2 } END { k = int((NR + 1) / 2); print c[k], m[k] }'; }
set -- $(median plain) $(median jv) $(median gzip)
in_b=$(wc -c < "$tr")
out_b=$(wc -c < "$out")
gz_b=$(wc -c < "$out.gz")
awk -v p="$1" -v pm="$2" -v j="$3" -v g="$5" -v gm="$6" -v ib="$in_b" -v ob="$out_b" -v gb="$gz_b" -v ne="$NE" 'BEGIN {
	printf "annotate, %s-event trace, %.0f MB -> %.0f MB: %.2fs CPU vs json_verify -s %.2fs: %.2fx (<= 2x: %s), peak RSS %.0f MiB\n",
	       ne, ib / 1e6, ob / 1e6, p, j, p / j, (p / j <= 2 ? "ok" : "MISSED"), pm / 1024
	printf "annotate to .gz (zlib level 1), %.0f MB: %.2fs CPU: %.2fx json_verify -s, peak RSS %.0f MiB\n",
	       gb / 1e6, g, g / j, gm / 1024
}'
rm -f "$out" "$out.gz"
