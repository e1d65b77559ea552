#!/bin/sh
# Real-model fixtures (captured with tools/capture_oplog.py from torchvision
# models with random weights): zero unknown ops on every fixture, and the
# forward true MACs (conv + matmul, bias excluded) that torchvision
# publishes, the same with and without grad (fused fast paths included).
. "${top_srcdir:-.}/tests/cli_lib.sh"
fx="$top_srcdir/tests/fixtures/models"
tlc_need python3
pass=0
fail=0
# ok CONDITION-TEXT: python3 expression over the report `r` (JSON) evaluated per file
check() {
	file=$1; what=$2; expr=$3
	if $TLCOST_RUN "$T" flops --format json "$fx/$file" > "$out" 2>"$out.err" &&
	   python3 -c "import json,sys; r=json.load(open(sys.argv[1])); sys.exit(0 if ($expr) else 1)" "$out"; then
		pass=$((pass + 1))
	else
		echo "FAIL: $file: $what"; cat "$out.err"; fail=$((fail + 1))
	fi
}
tlc_tmpdir models

# Every fixture: complete coverage.
for f in "$fx"/*.oplog.jsonl.gz; do
	check "$(basename "$f")" "zero unknown ops" "r['coverage']['unknown'] == 0 and not r['lower_bound']"
done

# torchvision's published GFLOPS are these true MAC counts (bias excluded).
# Our forward MACs add the non-conv/matmul MACs of no op (pointwise ops have
# none), so they must be exact.
for mode in fwd_grad fwd_nograd_eval train; do
	check "resnet50.$mode.oplog.jsonl.gz" "resnet50 forward MACs" "r['phases']['forward']['macs'] == 4089184256"
	check "vit_b_16.$mode.oplog.jsonl.gz" "vit_b_16 forward MACs" "r['phases']['forward']['macs'] == 17563828224"
	check "mobilenet_v2.$mode.oplog.jsonl.gz" "mobilenet_v2 forward MACs" "r['phases']['forward']['macs'] == 300774272"
	# nn.TransformerEncoder(d_model=512, nhead=8, ffn 2048, 6 layers), seq 128:
	# per layer qkv 128*512*1536 + out 128*512*512 + QK^T and PV 2*8*128*128*64
	# + ffn 2*128*512*2048 = 100663296+33554432+16777216+268435456 = 419430400;
	# x6 = 2516582400 (tools/check_macs.py derives the same)
	check "transformer_encoder.$mode.oplog.jsonl.gz" "encoder forward MACs" "r['phases']['forward']['macs'] == 2516582400"
done

# resnet18 training step: backward from the backward ops that ran, not a
# multiplier. Conv backward MACs = 2 x forward conv MACs minus the first
# conv's input gradient (its input needs none): 64*112*112 * 3*7*7 = 118013952.
# Forward MACs 1814073344 = conv 1813561344 + fc 512000; backward adds the
# fc's two mm (2 x 512000): 2*1813561344 - 118013952 + 1024000 = 3510132736.
check "resnet18.train.oplog.jsonl.gz" "resnet18 backward MACs" \
	"r['phases']['backward']['macs'] == 3510132736 and r['phases']['forward']['macs'] == 1814073344"

# tools/check_macs.py scales torchvision's per-sample figure by the log's
# batch (header meta.batch; docs/capture.md's own example is --batch 8). A
# batch-2 log is made from the batch-1 example by writing every record
# twice (conv and linear MACs are linear in the batch): it must be OK at
# batch 2 (2 x 4,089,184,256) and a MISMATCH when its header says batch 1.
python3 - "$top_srcdir/examples/resnet50.oplog.jsonl.gz" "$out" <<'PY'
import gzip, json, sys
lines = gzip.open(sys.argv[1], "rt").read().splitlines()
head, recs = json.loads(lines[0]), [json.loads(l) for l in lines[1:] if l.strip()]
for batch, name in ((2, ".b2"), (1, ".b1")):
    head["meta"]["batch"] = batch
    with open(sys.argv[2] + name, "w") as f:
        f.write(json.dumps(head) + "\n")
        for copy in range(2):
            for r in recs:
                r2 = dict(r, id=r["id"] + copy * 10**6)
                if "parent" in r2 and r2["parent"] is not None:
                    r2["parent"] += copy * 10**6
                f.write(json.dumps(r2) + "\n")
PY
if python3 "$top_srcdir/tools/check_macs.py" "$out.b2" | grep -q "forward MACs=8178368512 OK$"; then
	pass=$((pass + 1))
else
	echo "FAIL: check_macs.py: a batch-2 resnet50 log is not OK at 2 x the per-sample MACs"; fail=$((fail + 1))
fi
if python3 "$top_srcdir/tools/check_macs.py" "$out.b1" > /dev/null; then
	echo "FAIL: check_macs.py: twice the MACs under a batch-1 header passed"; fail=$((fail + 1))
else
	pass=$((pass + 1))
fi
rm -f "$out.b1" "$out.b2"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
