#!/bin/sh
# tlcost annotate with a ceiling option (issue 28 item 3, docs/annotate.md,
# "Utilization"): each op event whose device-time join passed its gate gets
# its attributed kernel utilization (tlcost.util.*) from the per-row model
# of `tlcost profile --by op --utilization`.
#
# tests/fixtures/annotate/util.json, figures derived by hand:
#   aten::mm [64,128] x [128,256] float32: 2*64*128*256 = 4,194,304 FLOPs;
#     ideal bytes (64*128 + 128*256 + 64*256) * 4 = 229,376; its one kernel
#     (correlation 100) runs 4 us = 4,000 ns:
#     flops_per_s = 4194304 / 4000e-9 = 1.048576e12;
#     bytes_per_s = 229376 / 4000e-9 = 5.7344e10;
#     H100 SXM preset (`tlcost devices`): fp32 67 TFLOP/s, 3.35 TB/s:
#     peak_share = 1.048576e12 / 67e12 = 0.0156503880597...,
#     bw_share = 5.7344e10 / 3.35e12 = 0.0171176119402...;
#     recoverable (hypothesis) = 4000 - max(4194304 / 67e12, 229376 /
#     3.35e12) s = 4000 - 68.4704 = 3931.5296 ns.
#   aten::relu [64,256]: 16,384 FLOPs, 131,072 bytes over 0.2 us = 200 ns:
#     8.192e10 FLOP/s, 6.5536e11 B/s.
#   aten::view: no kernel: no tlcost.util.* keys (never 0).
# Without a ceiling option: no keys. With --device on a trace whose join
# fails its gate (tests/fixtures/steps/two_steps.json): no keys, a note.
# An unknown --device: device_unknown, exit 1 as profile and roofline. The
# annotated trace reads back to the same `tlcost flops`.
# Before this change annotate took no --device (usage error: this test
# failed on integrate2's build).
set -u
. "${top_srcdir:-.}/tests/cli_lib.sh"
FIX="$top_srcdir/tests/fixtures/annotate/util.json"
tlc_tmpdir annotate-util
tlc_need python3

run 0 annotate --device h100-sxm "$FIX" -o "$tmp/a.json"
check "summary" "3 op events annotated (3 known, 0 unknown, 0 without a cost of their own); 8 counter events; 2 with attributed kernel utilization"
python3 - "$FIX" "$tmp/a.json" <<'PY' || fails=$((fails + 1))
import json, sys
src, got = (json.load(open(p)) for p in sys.argv[1:3])
ops = {e["name"]: e["args"] for e in got["traceEvents"] if e.get("cat") == "cpu_op"}
peak, bw = 67e12, 3.35e12
want = {
    "aten::mm": {"flops_per_s": 4194304 / 4000e-9, "bytes_per_s": 229376 / 4000e-9,
                 "peak_share": 4194304 / 4000e-9 / peak, "bw_share": 229376 / 4000e-9 / bw,
                 "recoverable_ns_hypothesis": 4000 - max(4194304 / peak, 229376 / bw) * 1e9},
    "aten::relu": {"flops_per_s": 16384 / 200e-9, "bytes_per_s": 131072 / 200e-9,
                   "peak_share": 16384 / 200e-9 / peak, "bw_share": 131072 / 200e-9 / bw},
}
kernel_ns = {"aten::mm": 4000, "aten::relu": 200}
bad = []
for op, w in want.items():
    a = ops[op]
    for k, v in w.items():
        g = a.get("tlcost.util." + k)
        if g is None or abs(g - v) > 1e-12 * abs(v):
            bad.append("%s %s: %r, by hand %r" % (op, k, g, v))
    if a.get("tlcost.util.peak_dtype") != "fp32" or a.get("tlcost.util.kernel_ns") != kernel_ns[op]:
        bad.append("%s dtype/kernel_ns: %r %r" % (op, a.get("tlcost.util.peak_dtype"),
                                                   a.get("tlcost.util.kernel_ns")))
if any(k.startswith("tlcost.util.") for k in ops["aten::view"]):
    bad.append("aten::view has no kernel but has utilization keys")
# every original event is still there, unchanged apart from tlcost.* args
orig = src["traceEvents"]
mine = [e for e in got["traceEvents"] if e.get("cat") != "tlcost"]
strip = lambda e: dict(e, args={k: v for k, v in e.get("args", {}).items()
                                 if not k.startswith("tlcost.")}) if "args" in e else e
if [strip(e) for e in mine] != orig:
    bad.append("original events changed")
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY

# the same figures as the per-row model's document (6 significant digits)
run 0 profile --by op --utilization --device h100-sxm --format json "$FIX"
check "profile mm rate" '"flop_per_s": 1.04858e+12'
check "profile mm share" '"peak_share": 0.0156504'

# reads back to the same totals
run 0 flops "$FIX"
cp "$out" "$tmp/f1"
run 0 flops "$tmp/a.json"
cmp -s "$out" "$tmp/f1" || { echo "FAIL: flops of the annotated trace differ"; diff "$tmp/f1" "$out"; fails=$((fails + 1)); }

# no ceiling option: no keys
run 0 annotate "$FIX" -o "$tmp/b.json"
absent "no ceilings: summary" "with attributed kernel utilization"
grep -q 'tlcost\.util\.' "$tmp/b.json" && { echo "FAIL: utilization keys without ceilings"; fails=$((fails + 1)); }

# a join that fails its gate: no keys, a note
run 0 annotate --device h100-sxm "$top_srcdir/tests/fixtures/steps/two_steps.json" -o "$tmp/c.json"
check "gate failed: note" "no attributed kernel utilization (kernel_utilization_requires_device_join)"
grep -q 'tlcost\.util\.' "$tmp/c.json" && { echo "FAIL: utilization keys under a failed gate"; fails=$((fails + 1)); }

# an unknown preset: typed (device_unknown), the output not written
run 1 annotate --device no-such-gpu "$FIX" -o "$tmp/d.json"
check "unknown device: typed" "device_unknown"
[ -e "$tmp/d.json" ] && { echo "FAIL: output written for an unknown device"; fails=$((fails + 1)); }

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "annotate_util: ok"
