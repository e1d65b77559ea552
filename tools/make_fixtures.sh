#!/bin/sh
# Regenerate the committed op-log fixtures in tests/fixtures/models/ and the
# quick-start example.  Needs Debian's python3-torch 1.13 / torchvision 0.14
# (/usr/bin/python3).  Timings (host_ns, start_ns, thread) differ run to run;
# shapes, ops and order do not (seed 0, random weights, batch 1).
set -eu
PY=${PYTHON:-/usr/bin/python3}
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/tests/fixtures/models
mkdir -p "$out"
cap() { # model mode
	"$PY" "$top/tools/capture_oplog.py" --model "$1" --mode "$2" --seed 0 \
		--batch 1 --out "$out/$1.$2.oplog.jsonl.gz"
}
for m in resnet50 vit_b_16 mobilenet_v2 transformer_encoder; do
	for mode in fwd_grad fwd_nograd_eval train; do
		cap "$m" "$mode"
	done
done
cap resnet18 train
cp "$out/resnet50.fwd_grad.oplog.jsonl.gz" "$top/examples/resnet50.oplog.jsonl.gz"
