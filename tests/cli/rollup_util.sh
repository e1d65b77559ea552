#!/bin/sh
# Attributed kernel utilization per unique-args group (issue 25 item 4) on
# the shared B200 trace, against tests/cli/rollup_check.py: for the four aten::linear
# groups with the most FLOPs (by raw `Input Dims`/`Input type`), the script's
# FLOPs (docs/rules.md's linear formula applied to the raw dims: e.g. 36 x
# (2*888*2880*640 + 888*640) = 117,867,294,720) and the kernel time under
# their ops (287,423 ns) must equal tlcost's CSV `flops` and
# `costed_kernel_ns` exactly; `TFLOPS/s` must be flops / ns / 1000 (410.083
# for that group) within 1e-6 relative, `TB/s` bytes / ns / 1000, and
# `pct_of_peak` 100 x TFLOP/s over the b200 preset's bf16 peak (read from
# `tlcost devices`, 2250 TFLOP/s: 18.2259%); the ideal bytes (inputs read
# once, output written once: 36 x 2 x (888*2880 + 640*2880 + 640 + 888*640)
# = 357,811,200) exactly, and the recoverable time (a hypothesis) = ns -
# max(flops / bf16 peak, bytes / 8 TB/s) within 1 ns (287,423 - 52,385.46 =
# 235,037.54 ns). On a trace whose join fails
# its gate (tl_mi300_sglang_qwen3_decode) --utilization is refused with
# kernel_utilization_requires_device_join, exit 1. Before this change
# --utilization and --by args did not exist (usage error). Skips (77) when
# the traces are absent.
set -u
. "${top_srcdir:-.}/tests/cli_lib.sh"
tlc_need python3
tlc_need_shared traces/b200-eager-inference.json.gz
f="$shared/traces/b200-eager-inference.json.gz"
tlc_tmpdir rollup-util
python3 "$top_srcdir/tests/cli/rollup_check.py" "$f" > "$tmp/t.want" || { echo "FAIL: script"; exit 1; }
"$T" profile --utilization --by args --top 0 --format csv "$f" > "$tmp/t.csv" ||
	{ echo "FAIL: tlcost profile --utilization"; exit 1; }
"$T" devices --format json > "$tmp/t.dev" || { echo "FAIL: tlcost devices"; exit 1; }
python3 - "$tmp/t" <<'PY' || fails=$((fails + 1))
import csv, json, sys
tmp = sys.argv[1]
want = json.load(open(tmp + ".want"))["linear_groups"][:4]
rows = list(csv.DictReader(open(tmp + ".csv", encoding="utf-8")))
peak = [d for d in json.load(open(tmp + ".dev"))["devices"] if d["id"] == "b200"][0]
bf16 = peak["peak_flops_per_s"]["bf16"]
bad = []
for g in want:
    # an absent optional input (bias None: dims [], type "") is not in tlcost's shapes
    dt = [(d, t) for d, t in zip(g["dims"], g["types"]) if d or t]
    dims = ";".join("(%s)" % ",".join(str(v) for v in d) for d, _ in dt)
    types = ";".join(t for _, t in dt)
    got = [r for r in rows if r["name"] == "aten::linear" and r["Input Dims"] == dims and
           r["Input type"] == types]
    if len(got) != 1:
        bad.append("group %s %s: %d rows" % (dims, types, len(got)))
        continue
    r = got[0]
    if int(r["flops"]) != g["flops"] or int(r["costed_kernel_ns"]) != g["kernel_ns"] or \
            int(r["operation_count"]) != g["count"]:
        bad.append("%s: flops/ns/count %s/%s/%s, want %d/%d/%d" % (
            dims, r["flops"], r["costed_kernel_ns"], r["operation_count"], g["flops"],
            g["kernel_ns"], g["count"]))
        continue
    rate = g["flops"] / g["kernel_ns"] / 1000.0
    if abs(float(r["TFLOPS/s"]) - rate) > 1e-6 * rate:
        bad.append("%s: TFLOPS/s %s, want %.9g" % (dims, r["TFLOPS/s"], rate))
    if int(r["bytes"]) != g["bytes"]:
        bad.append("%s: bytes %s, want %d" % (dims, r["bytes"], g["bytes"]))
    tbs = g["bytes"] / g["kernel_ns"] / 1000.0
    bw = peak["mem_bw_bytes_per_s"]
    rec = g["kernel_ns"] - max(g["flops"] / bf16, g["bytes"] / bw) * 1e9
    if abs(float(r["recoverable_ns_hypothesis"]) - max(rec, 0)) > 1:
        bad.append("%s: recoverable %s ns, want %.0f" % (dims, r["recoverable_ns_hypothesis"], rec))
    if abs(float(r["TB/s"]) - tbs) > 1e-6 * tbs:
        bad.append("%s: TB/s %s, want %.9g" % (dims, r["TB/s"], tbs))
    pct = 100 * rate * 1e12 / bf16
    if r["peak_dtype"] != "bf16" or abs(float(r["pct_of_peak"]) - pct) > 1e-4:
        bad.append("%s: %s %s%%, want bf16 %.4f%%" % (dims, r["peak_dtype"], r["pct_of_peak"], pct))
    print("%s %s x%d: %.3f TFLOP/s, %.4f%% of bf16 peak, %.0f ns recoverable" % (
          dims, types, g["count"], rate, pct, rec))
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY
q="$shared/traces/real/tl_mi300_sglang_qwen3_decode.json.gz"
if [ -f "$q" ]; then
	"$T" profile --utilization "$q" > "$tmp/t.out" 2> "$tmp/t.err"
	rc=$?
	if [ "$rc" != 1 ] || ! grep -q 'kernel_utilization_requires_device_join' "$tmp/t.err"; then
		echo "FAIL: gate refusal: exit $rc, $(cat "$tmp/t.err")"
		fails=$((fails + 1))
	fi
fi
[ "$fails" -eq 0 ]
