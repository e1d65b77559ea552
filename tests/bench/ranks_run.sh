#!/bin/sh
# `make bench-ranks` (not part of `make check`): many ranks.
#   tlcost merge of 1,024 synthetic rank partials: time per rank, peak RSS
#   tlcost ranks over 8 and 64 synthetic rank traces: time per rank, and peak
#   RSS, which must not grow with the number of ranks beyond the per-rank rows
#   (target: RSS(64) <= 1.25 x RSS(8))
# The partials are one `tlcost flops --format json` of a synthetic trace,
# copied with distributedInfo ranks 0..1023; the traces are one gen_trace
# trace of BENCH_RANK_EVENTS (default 200000) events with a distributedInfo
# rank spliced in per copy. Environment (set by tests/bench/local.mk):
# TLCOST GEN_TRACE TIMEIT BENCH_DIR. Needs python3.
set -eu
dir=${BENCH_DIR:-tests/bench}/ranks
N=${BENCH_RANK_EVENTS:-200000}
res=$dir/timeit.out
mkdir -p "$dir/partials" "$dir/traces8" "$dir/traces64"

if [ ! -s "$dir/base.json" ]; then
	"$GEN_TRACE" "$N" > "$dir/base.json"
fi
python3 - "$dir" <<'PY'
import json, os, sys
d = sys.argv[1]
text = open(f"{d}/base.json").read()
body = text[text.index("{") + 1:]
for n in (8, 64):
    for r in range(n):
        p = f"{d}/traces{n}/rank{r:04d}.json"
        if not os.path.exists(p):
            with open(p, "w") as f:
                f.write('{"distributedInfo": {"backend": "nccl", "rank": %d, "world_size": %d}, ' % (r, n) + body)
PY
if [ ! -s "$dir/partials/rank1023.json" ]; then
	"$TLCOST" flops --format json "$dir/traces8/rank0000.json" > "$dir/one.json"
	python3 - "$dir" <<'PY'
import json, sys
d = sys.argv[1]
doc = json.load(open(f"{d}/one.json"))
for r in range(1024):
    doc["distributed"] = {"rank": r, "world_size": 1024, "backend": "nccl"}
    json.dump(doc, open(f"{d}/partials/rank{r:04d}.json", "w"))
PY
fi

run() { # label nranks CMD...
	label=$1 n=$2
	shift 2
	"$TIMEIT" -r "$res" "$@"
	read -r w c m st < "$res"
	[ "$st" = 0 ] || { echo "bench-ranks: $label failed (exit $st)" >&2; exit 1; }
	echo "$label: $n ranks, wall ${w}s, cpu ${c}s, $(echo "$c $n" | awk '{ printf "%.3f ms", 1000 * $1 / $2 }') cpu per rank, peak RSS ${m} KiB"
	rss=$m
}
run "merge" 1024 "$TLCOST" merge --format json "$dir"/partials/rank*.json
run "ranks" 8 "$TLCOST" ranks --format json "$dir/traces8"
r8=$rss
run "ranks" 64 "$TLCOST" ranks --format json "$dir/traces64"
r64=$rss
echo "$r8 $r64" | awk '{ printf "ranks peak RSS 64 vs 8 ranks: %.2fx (target <= 1.25x): %s\n", $2 / $1, $2 <= 1.25 * $1 ? "PASS" : "FAIL" }'
