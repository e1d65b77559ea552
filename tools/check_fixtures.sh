#!/bin/sh
# make check: the committed op-log fixtures follow op log v1 and their forward
# conv/linear MACs equal torchvision's published figures (tools/check_macs.py
# derives them from the logged shapes alone).  Skips (77) without python3.
set -u
srcdir=${top_srcdir:-$(dirname "$0")/..}
PY=${PYTHON3:-python3}
command -v "$PY" >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
fix=$srcdir/tests/fixtures/models
ex=$srcdir/examples
fail=0

"$PY" "$srcdir/tools/validate_oplog.py" "$fix"/*.oplog.jsonl.gz \
	"$ex/custom_gelu.oplog.jsonl" "$ex/resnet50.oplog.jsonl.gz" || fail=1
"$PY" "$srcdir/tools/check_macs.py" "$fix"/*.oplog.jsonl.gz || fail=1
cmp "$fix/resnet50.fwd_grad.oplog.jsonl.gz" "$ex/resnet50.oplog.jsonl.gz" \
	|| { echo "FAIL: examples/resnet50.oplog.jsonl.gz differs from fixture"; fail=1; }

# The checkers must be able to fail: drop resnet50's fc (addmm) record and
# the MACs no longer match; break a line and validation fails.
tmp=${TMPDIR:-/tmp}/tlc_capture_$$
mkdir -p "$tmp" && trap 'rm -rf "$tmp"' EXIT
gzip -dc "$fix/resnet50.fwd_grad.oplog.jsonl.gz" | grep -v '"op":"aten::addmm"' \
	>"$tmp/resnet50.jsonl"
if "$PY" "$srcdir/tools/check_macs.py" "$tmp/resnet50.jsonl" >/dev/null; then
	echo "FAIL: check_macs accepted a log without the fc layer"; fail=1
fi
sed '3s/"args":\[/"args":{/' "$ex/custom_gelu.oplog.jsonl" >"$tmp/broken.jsonl"
if "$PY" "$srcdir/tools/validate_oplog.py" "$tmp/broken.jsonl" >/dev/null; then
	echo "FAIL: validate_oplog accepted a broken line"; fail=1
fi
exit $fail
