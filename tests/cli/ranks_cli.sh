#!/bin/sh
# `tlcost ranks` on a realistic synthetic 8-rank set made from the real DDP
# trace tl_mi300_resnet_actckpt_ddp (tests/cli/comms/make_ranks.py): rank r's
# clock is shifted by r s + r*37.5 us; rank 5 is slowed 1.25x (every event
# stretched around the trace start); the other ranks' NCCL/RCCL kernels end
# when rank 5's do (they wait). Expected, from that construction and from the
# raw trace (computed below in python, not by tlcost):
#  - stragglers: exactly rank 5 (compute time 1.25x the median > 10%); none
#    with --threshold 30;
#  - clock offsets r*1e9 + r*37,500 ns (to 2 ns of rounding);
#  - rank 5 arrives last at every collective; the worst wait is the last
#    communication kernel, skew = 0.25 * (its start - the trace start);
#  - per rank FLOPs and communication bytes are the real rank's; communication
#    bytes equal the raw record_param_comms sum (tests/cli/comms/raw_comms.py);
#    the merged totals are 8x;
#  - without the waiting (--no-wait, 2 ranks) the ends disagree and the report
#    says the clocks do not allow the start-skew attribution.
# Skipped (77) when the shared trace is absent.
set -u
. "${top_srcdir:-.}/tests/cli_lib.sh"
C="$top_srcdir/tests/cli/comms"
tlc_need_shared traces/real/tl_mi300_resnet_actckpt_ddp.json.gz
src="$shared/traces/real/tl_mi300_resnet_actckpt_ddp.json.gz"
tlc_tmpdir ranks

mkdir "$tmp/set" "$tmp/nowait"
python3 "$C/make_ranks.py" "$src" "$tmp/set" 8 5 1.25 || { echo "FAIL: make_ranks"; exit 1; }
"$T" ranks "$tmp/set" >"$tmp/out.txt" || fail "ranks text exit $?"
"$T" ranks --format json "$tmp/set" >"$tmp/out.json" || fail "ranks json exit $?"
"$T" ranks --format csv "$tmp/set" >"$tmp/out.csv" || fail "ranks csv exit $?"
"$T" ranks --format json --threshold 30 "$tmp/set" >"$tmp/t30.json" || fail "threshold exit $?"
"$T" flops --format json "$src" >"$tmp/one.json" || fail "flops"
python3 "$C/raw_comms.py" "$src" >"$tmp/raw.json" || fail "raw sum"

grep -q "stragglers: compute kernel time above the median" "$tmp/out.txt" || fail "text: stragglers line"
grep -q "rank 5 arrived last at 17 of 17 collectives" "$tmp/out.txt" || fail "text: skew line"
grep -q "merged totals over 8 ranks (exact):" "$tmp/out.txt" || fail "text: totals"
[ "$(grep -c '^[0-7],' "$tmp/out.csv")" -eq 24 ] || fail "csv: 8 ranks x 3 phases"

python3 - "$src" "$tmp/out.json" "$tmp/t30.json" "$tmp/one.json" "$tmp/raw.json" <<'PY' || fail "json content"
import gzip, json, sys
from fractions import Fraction
src, out, t30, one, raw = sys.argv[1:]
d, d30, f1, raw = json.load(open(out)), json.load(open(t30)), json.load(open(one)), json.load(open(raw))
assert d["stragglers"]["ranks"] == [5], d["stragglers"]
assert d30["stragglers"]["ranks"] == [], d30["stragglers"]
assert d["clocks"]["aligned"] is True, d["clocks"]
ranks = {r["rank"]: r for r in d["ranks"]}
assert sorted(ranks) == list(range(8))
for r, row in ranks.items():
    want = r * 10**9 + r * 37500
    assert abs(row["clock_offset_ns"] - want) <= 2, (r, row["clock_offset_ns"], want)
    assert row["straggler"] == (r == 5)
# the raw trace: comm kernels in start order, the trace start
ev = [e for e in json.load(gzip.open(src))["traceEvents"] if e.get("ph") == "X" and "ts" in e]
t0 = min(float(e["ts"]) for e in ev)
comm = sorted(float(e["ts"]) for e in ev if e.get("cat") == "kernel" and "ccl" in e["name"].lower())
slow = ranks[5]
assert slow["arrived_last"] == len(comm) == 17, slow
w = slow["worst_wait"]
assert w["collective"] == len(comm) and w["kind"] == "allreduce", w
want = 0.25 * (comm[-1] - t0) * 1000
assert abs(w["skew_ns"] - want) <= 3, (w["skew_ns"], want)
med = d["stragglers"]["median_ns"]
assert abs(slow["compute_ns"] / med - 1.25) < 1e-3, (slow["compute_ns"], med)
# analytic per rank = the single trace; comm bytes = the raw sum
bus = sum(Fraction(v["bus_bytes"]) for v in raw.values())
msg = sum(v["message_bytes"] for v in raw.values())
for r, row in ranks.items():
    for p, ph in row["phases"].items():
        assert ph["flops"] == f1["phases"][p]["flops"], (r, p)
    assert sum(ph["comm_message_bytes"] for ph in row["phases"].values()) == msg
    assert sum(Fraction(ph["comm_bus_bytes"]) for ph in row["phases"].values()) == bus
PY
grep -q "forward   FLOPs >= $(python3 -c "import json;print(8*json.load(open('$tmp/one.json'))['phases']['forward']['flops'])")," "$tmp/out.txt" ||
	fail "merged forward FLOPs are not 8x one rank"

python3 "$C/make_ranks.py" "$src" "$tmp/nowait" 2 1 1.25 --no-wait || fail "make_ranks --no-wait"
"$T" ranks "$tmp/nowait" >"$tmp/nowait.txt" || fail "ranks nowait exit $?"
grep -q "collective start skew: the clocks do not allow it" "$tmp/nowait.txt" ||
	{ fail "no-wait: clocks statement"; cat "$tmp/nowait.txt"; }
cp "$tmp/set/rank0.json.gz" "$tmp/copy0.json.gz" # a copy: the same rank (the same
"$T" ranks "$tmp/set/rank0.json.gz" "$tmp/copy0.json.gz" >/dev/null 2>"$tmp/dup.err" &&
	fail "same rank twice accepted"  # file twice is ranks_duplicate_input: inputs_cli.sh)
grep -q ranks_duplicate_rank "$tmp/dup.err" || fail "duplicate: $(cat "$tmp/dup.err")"
"$T" ranks --threshold 0 "$tmp/set" >/dev/null 2>&1 && fail "--threshold 0 accepted"
"$T" ranks --help | grep -q "usage: tlcost ranks" || fail "--help"
[ "$fails" -eq 0 ]
