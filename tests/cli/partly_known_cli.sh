#!/bin/sh
# Partly known ops (docs/cost-contract.md, "Partly known ops"): an op whose
# rule determines some terms but not all stays unknown, its determined terms
# are counted, and the ledger names the missing term and its cause.
#
# Fixture tests/fixtures/partly_known/moe_gelu.trace.json: two aten::gelu
# calls on a bf16 [4,16] whose `approximate` (a string) no trace records, and
# one aten::_grouped_mm 2D x 3D (self [64,16] bf16, mat2 [4,16,32] bf16,
# offs [4] int32, out_dtype None) whose MACs depend on the offsets' values.
# Expectations by hand:
#   gelu: 0 MACs; read 4*16*2 = 128 B, write the self-shaped bf16 result
#     128 B; other_flops missing. Two calls: counted_bytes 2*(128+128) = 512,
#     counted_flops 0.
#   _grouped_mm: read 64*16*2 + 4*16*32*2 + 4*4 = 2048 + 4096 + 16 = 6160 B,
#     write [64,32] bf16 = 4096 B; counted_bytes 10256, counted_flops 0 (no
#     bias, no scaling); MACs missing, bound 64*16*32 = 32768 (as text).
#   totals: flops >= 0, bytes read >= 2*128 + 6160 = 6416, written
#     >= 2*128 + 4096 = 4352; 3 unknown calls of 2 op types: a lower bound.
# The text ledger is compared with tests/golden/ledger_partly_known.txt,
# whose numbers are these. Then the real trace tl_h100_owlv2_large (skipped
# when ../shared/traces is absent, and under valgrind: 1.9 MB): its 20
# aten::gelu calls on bf16 [1,5184,1024] record no approximate, so each
# counts 2 * 1*5184*1024*2 = 21,233,664 B: 424,673,280 B in all, other_flops
# missing, and the totals stay a lower bound.
set -u
. "${top_srcdir:-.}/tests/cli_lib.sh"
tlc_need python3
fix="$top_srcdir/tests/fixtures/partly_known/moe_gelu.trace.json"
tlc_tmpdir partly
"$T" ledger "$fix" > "$tmp/ledger.txt" || { echo "FAIL: tlcost ledger exited $?"; exit 1; }
if ! diff -u "$top_srcdir/tests/golden/ledger_partly_known.txt" "$tmp/ledger.txt"; then
	echo "FAIL: ledger text differs from tests/golden/ledger_partly_known.txt"
	exit 1
fi
real="$shared/traces/real/tl_h100_owlv2_large.json.gz"
[ "${TLCOST_TEST_WRAPPER:-}" = valgrind ] && real=
exec python3 - "$T" "$fix" "$real" <<'PY'
import json, subprocess, sys
T, fix, real = sys.argv[1:4]
fails = []
def run(*args):
    p = subprocess.run([T, "--format", "json"] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    if p.returncode != 0:
        fails.append("%s: exit %d: %s" % (args, p.returncode, p.stderr[:300]))
        return {}
    return json.loads(p.stdout)
def group(doc, name):
    g = [e for e in doc.get("ledger", []) if e["name"] == name]
    return g[0] if g else {}
def expect(what, got, want):
    if got != want:
        fails.append("%s: expected %r, got %r" % (what, want, got))

for doc in (run("ledger", fix), run("flops", fix)):
    expect("lower_bound", doc.get("lower_bound"), True)
    g = group(doc, "aten::gelu")
    expect("gelu", [g.get(k) for k in ("count", "reason", "partly_known", "missing",
                                       "counted_flops", "counted_bytes")],
           [2, "partly_known", 2, "other_flops", 0, 512])
    m = group(doc, "aten::_grouped_mm")
    expect("_grouped_mm", [m.get(k) for k in ("count", "reason", "partly_known", "missing",
                                              "counted_flops", "counted_bytes")],
           [1, "partly_known", 1, "macs", 0, 10256])
    if "32768" not in (m.get("cause") or ""):
        fails.append("_grouped_mm cause states no bound 64*16*32 = 32768: %r" % m.get("cause"))
fw = run("flops", fix).get("phases", {}).get("forward", {})
expect("forward totals", [fw.get(k) for k in ("flops", "macs", "other_flops", "bytes_read",
                                              "bytes_written")], [0, 0, 0, 6416, 4352])

# Nesting: a partly known op's rule evaluated, so its children are nested
# (not_applicable) as under any evaluated rule, and only the op's own
# determined terms count. gelu [4,16] bf16 (ts 10-60) holding an aten::mul
# [4,16] x [4,16] bf16 (ts 20-25): coverage 1 unknown + 1 not_applicable;
# other_flops 0 (the mul's 64 are not counted); read 128 B, written 128 B.
import os, tempfile
nest = os.path.join(tempfile.mkdtemp(), "nest.json")
B = "c10::BFloat16"
with open(nest, "w") as f:
    json.dump({"schemaVersion": 1, "traceEvents": [
        {"ph": "X", "cat": "cpu_op", "name": "aten::gelu", "pid": 1, "tid": 1, "ts": 10,
         "dur": 50, "args": {"External id": 1, "Input Dims": [[4, 16], []],
                             "Input type": [B, ""], "Concrete Inputs": ["", ""]}},
        {"ph": "X", "cat": "cpu_op", "name": "aten::mul", "pid": 1, "tid": 1, "ts": 20,
         "dur": 5, "args": {"External id": 2, "Input Dims": [[4, 16], [4, 16]],
                            "Input type": [B, B]}}]}, f)
doc = run("flops", nest)
cov = doc.get("coverage", {})
expect("nested coverage", [cov.get(k) for k in ("rows", "known", "not_applicable", "unknown")],
       [2, 0, 1, 1])
fw = doc.get("phases", {}).get("forward", {})
expect("nested totals", [fw.get(k) for k in ("flops", "other_flops", "bytes_read",
                                             "bytes_written")], [0, 0, 128, 128])
os.remove(nest)

if real and os.path.exists(real):
    doc = run("flops", real)
    expect("owlv2 lower_bound", doc.get("lower_bound"), True)
    g = group(doc, "aten::gelu")
    expect("owlv2 gelu", [g.get(k) for k in ("count", "reason", "partly_known", "missing",
                                             "counted_flops", "counted_bytes")],
           [20, "partly_known", 20, "other_flops", 0, 424673280])
    expect("owlv2 gelu shapes", g.get("example_shapes"), ["[1,5184,1024]c10::BFloat16"])
else:
    print("partly_known_cli: %s absent (or valgrind): real-trace check skipped" % real)
for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)
PY
