#!/bin/sh
# Exact integers are never cut (issue 11, item 3): an op log whose forward
# FLOPs pass 2^258 goes through every text, CSV and JSON writer that shows
# FLOPs (flops, ledger, tree, profile, roofline, mfu, report), and each must
# show the whole number. The expected decimals are computed here, in Python,
# from the shapes written into the log (bmm [B,M,K] x [B,K,N]: B*M*N*K MACs,
# 2 FLOPs each, REPS records), not from tlcost; text must show them grouped
# with commas, CSV plain, JSON as exact integer numbers (docs/json-schema.md).
set -u
. "${top_srcdir:-.}/tests/cli_lib.sh"
tlc_need python3
exec python3 - "$T" <<'PY'
import json, os, subprocess, sys, tempfile

tlcost = sys.argv[1]
B, M, K, N = 2**63 - 1, 2**63 - 25, 2**63 - 165, 2**63 - 259
REPS = 40
macs_one = B * M * N * K
flops = 2 * macs_one * REPS
assert flops > 2**258
tmp = tempfile.mkdtemp(prefix="tlc-huge.")
log = os.path.join(tmp, "huge.oplog.jsonl")
t = lambda shape: {"shape": shape, "dtype": "float32"}
with open(log, "w") as f:
    f.write(json.dumps({"format": "tlcost-oplog", "version": 1, "model": "huge"}) + "\n")
    # an op without a rule holds every bmm: its ledger entry counts them nested
    f.write(json.dumps({"id": 0, "op": "mylib::huge", "phase": "forward", "module": "big",
                        "module_type": "Big", "module_call": 0, "args": []}) + "\n")
    for i in range(1, REPS + 1):
        f.write(json.dumps({"id": i, "op": "aten::bmm", "phase": "forward", "parent": 0,
                            "module": "big", "module_type": "Big", "module_call": 0,
                            "args": [t([B, M, K]), t([B, K, N])],
                            "outputs": [t([B, M, N])]}) + "\n")

def grouped(n):
    return "{:,}".format(n)

fails = []

def run(args):
    p = subprocess.run([tlcost] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        fails.append("%s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr.decode()[:300]))
    return p.stdout.decode()

def ints(v):
    if isinstance(v, bool):
        return
    if isinstance(v, int):
        yield v
    elif isinstance(v, dict):
        for x in v.values():
            yield from ints(x)
    elif isinstance(v, list):
        for x in v:
            yield from ints(x)

ceil = ["--device", "h100-sxm"]
cases = [
    ("flops", [], ["text", "json"], [flops]),
    ("ledger", [], ["text", "json"], [flops]),
    ("tree", [], ["text", "json", "csv"], [flops]),
    ("profile", [], ["text", "json", "csv"], [flops]),
    ("roofline", ceil, ["text", "json"], [2 * macs_one, flops]),
    ("roofline", ceil, ["csv"], [2 * macs_one]),
    ("mfu", ceil + ["--step-seconds", "1"], ["text", "json", "csv"], [flops]),
    ("report", ceil, ["text", "json"], [flops]),
    ("report", ceil, ["csv"], [2 * macs_one]),
]
for cmd, extra, fmts, wants in cases:
    for fmt in fmts:
        out = run(["--format", fmt, cmd] + extra + [log])
        for want in wants:
            if fmt == "json":
                try:
                    got = set(ints(json.loads(out)))
                except ValueError as e:
                    fails.append("%s json: not JSON: %s" % (cmd, e))
                    continue
                ok = want in got
            elif fmt == "csv":
                ok = str(want) in out
            elif cmd == "ledger":  # the nested FLOPs line is a plain decimal
                ok = str(want) in out or grouped(want) in out
            else:
                ok = grouped(want) in out
            if not ok:
                fails.append("%s %s: %s (%d digits) not shown whole" % (cmd, fmt, want,
                                                                        len(str(want))))
for f in fails:
    print("FAIL: " + f)
print("huge_totals: %d checks failed" % len(fails) if fails else "huge_totals: all passed")
sys.exit(1 if fails else 0)
PY
