#!/bin/sh
# `tlcost profile --by op --top K` holds only the K best groups while it
# reads (engine/report/profile.c, topk_row: what tlcost html's top-ops table
# costs on a 5M-event trace). The table must be the first K rows of the full
# table, which the ordinary path sorts whole: --top 0 is the expected value.
# For every input and K in 1, 2, 3, 7, 25: the rows equal the first K rows of
# --top 0 (key, figures, order), hidden_rows is the rest's count, and the
# costed roll-up's hidden_ns is the sum of the rest's costed_kernel_ns
# (rows_ns, ambiguous, not_op and joined the same). Inputs: the examples and
# fixtures with ties in FLOPs (the first appearance wins, as in the sort),
# and the shared traces with device time when present. Skips (77) without
# python3.
set -u
. "${top_srcdir:-.}/tests/cli_lib.sh"
tlc_need python3
tlc_tmpdir topk
tmp="$tmp/t"
ran=0
for f in "$top_srcdir/examples/resnet50.oplog.jsonl.gz" \
         "$top_srcdir/tests/fixtures/devtime/kernels.oplog.jsonl" \
         "$top_srcdir/tests/fixtures/reports/tiny.oplog.jsonl" \
         "$top_srcdir/tests/fixtures/steps/two_steps.json" \
         "$shared/traces/v100-dlrm-training.json.gz" \
         "$shared/traces/real/ki_v100_resnet50_2021_06.json.gz" \
         "$shared/traces/real/tl_mi300_qwen05b.json.gz"; do
	[ -f "$f" ] || continue
	"$T" --format json profile --by op --top 0 "$f" > "$tmp.all" ||
		{ echo "FAIL: profile --top 0 $f"; fails=$((fails + 1)); continue; }
	for k in 1 2 3 7 25; do
		ran=$((ran + 1))
		"$T" --format json profile --by op --top "$k" "$f" > "$tmp.k" ||
			{ echo "FAIL: profile --top $k $f"; fails=$((fails + 1)); continue; }
		python3 - "$tmp.all" "$tmp.k" "$k" "$f" <<'PY' || fails=$((fails + 1))
import json, sys
full, got, k, name = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), int(sys.argv[3]), sys.argv[4]
bad = []
rows, rest = full["rows"][:k], full["rows"][k:]
if got["rows"] != rows:
    bad.append("rows differ from the first %d of --top 0" % k)
if got["hidden_rows"] != len(rest):
    bad.append("hidden_rows %r, want %d" % (got["hidden_rows"], len(rest)))
fr, gr = full.get("costed_rollup"), got.get("costed_rollup")
if (fr is None) != (gr is None):
    bad.append("costed_rollup present in one only")
elif fr is not None:
    want = dict(fr, hidden_ns=sum(r.get("costed_kernel_ns") or 0 for r in rest))
    if gr != want:
        bad.append("costed_rollup %r, want %r" % (gr, want))
for key in full:
    if key not in ("rows", "hidden_rows", "costed_rollup") and full[key] != got.get(key):
        bad.append("%s differs" % key)
for b in bad:
    print("FAIL: %s --top %d: %s" % (name, k, b))
sys.exit(1 if bad else 0)
PY
	done
	echo "ok: $f: --top 1 2 3 7 25 = the first rows of --top 0 ($(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["rows"]))' "$tmp.all") rows)"
done
[ "$ran" -gt 0 ] || { echo "SKIP: no input"; exit 77; }
[ "$fails" -eq 0 ]
