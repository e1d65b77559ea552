#!/bin/sh
# tlcost annotate (issue 28 item 3, docs/annotate.md): the trace copied with
# each op's cost in its args and cumulative counter tracks.
#  - tests/cli/annotate_check.py (Python standard library only) checks that the
#    output is the input's bytes plus tlcost.* insertions only, that every
#    original event is unchanged apart from them, that counters never go
#    back, and that an unknown cost is never written as a number;
#  - the fixture's costs are derived by hand (below, next to each figure);
#  - `tlcost flops` prints the same report on the input and on the output;
#  - gzip in and out, a pipe input (buffered, with a note), a refused bad
#    input (typed, exit 1), an op log (annotate_not_trace), an output in a
#    missing directory (output_open_failed, exit 3), an output over a file
#    size limit (output_write_failed, exit 3, the old file kept);
#  - every shared trace (skipped when ../shared/traces is absent).
set -u
. "${top_srcdir:-.}/tests/cli_lib.sh"
FIX="$top_srcdir/tests/fixtures/annotate/mixed.json"
CHECK="$top_srcdir/tests/cli/annotate_check.py"
SHARED="$shared/traces"
tlc_tmpdir annotate
unset TLCOST_PLUGIN_PATH
tlc_need python3

# same_flops IN OUT: tlcost flops (text and JSON) identical on both
same_flops() {
	for f in text json; do
		"$T" --format "$f" flops "$1" > "$tmp/f1" 2>&1
		"$T" --format "$f" flops "$2" > "$tmp/f2" 2>&1
		# (the JSON names its input file; nothing else may differ)
		sed "s|$1|FILE|g" "$tmp/f1" > "$tmp/f1s"
		sed "s|$2|FILE|g" "$tmp/f2" > "$tmp/f2s"
		cmp -s "$tmp/f1s" "$tmp/f2s" || { fail "flops ($f) differs on $2"; diff "$tmp/f1s" "$tmp/f2s" | head; }
	done
}

# ---- 1. the fixture: every kind of op event ----
run 0 annotate "$FIX" -o "$tmp/a.json"
check "summary" "10 events copied; 7 op events annotated"
python3 "$CHECK" "$FIX" "$tmp/a.json" > "$out" 2>&1 || { fail "check of the fixture"; cat "$out"; }
check "checker" "OK"
# aten::mm [8,16] x [16,4] f32: 8*16*4 = 512 MACs, 2*512 = 1024 FLOPs; bytes:
# read (8*16 + 16*4) * 4 = 768, written 8*4*4 = 128: 896
check "mm" "ANNOT aten::mm known flops=1024 bytes=896 macs=512 unknown=-"
# no rule for mylib::fused_gelu: unknown, no figure
check "no rule" "ANNOT mylib::fused_gelu unknown flops=- bytes=- macs=- unknown=no_rule"
# aten::linear [4,8] x [16,8]^T + bias [16]: 4*8*16 = 512 MACs, bias add 4*16 = 64:
# 2*512 + 64 = 1088 FLOPs; bytes read (32 + 128 + 16) * 4 = 704, written 64*4 = 256: 960
check "linear" "ANNOT aten::linear known flops=1088 bytes=960 macs=512 unknown=-"
# its aten::addmm child is counted in the parent: no cost of its own
check "nested" "ANNOT aten::addmm not_applicable flops=- bytes=- macs=- unknown=-"
# relu with an empty args: the shapes are missing
check "empty args" "ANNOT aten::relu unknown flops=- bytes=- macs=- unknown=missing_args"
# pid 2: aten::mm [2,3] x [3,5]: 30 MACs, 60 FLOPs; bytes (6 + 15 + 10) * 4 = 124
check "escaped args key" "ANNOT aten::mm known flops=60 bytes=124 macs=30 unknown=-"
# counters: pid 1 = 1024 + 1088 (+ 0 for a zero-by-rule view) FLOPs,
# 896 + 960 (+ the view's) bytes; pid 2 = 60 FLOPs, 124 bytes
check "counter pid 1" "COUNTER pid=1 flops=2112 bytes=1856"
check "counter pid 2" "COUNTER pid=2 flops=60 bytes=124"
# an op event without args gets one
grep -q '"name": "aten::view", "pid": 1, "tid": 1, "ts": 180, "dur": 5,"args":{"tlcost.class":' "$tmp/a.json" ||
	fail "view: no args object added"
same_flops "$FIX" "$tmp/a.json"

# ---- 1b. partly known ops: the determined terms, the missing ones absent ----
PK="$top_srcdir/tests/fixtures/partly_known/moe_gelu.trace.json"
run 0 annotate "$PK" -o "$tmp/pk.json"
python3 "$CHECK" "$PK" "$tmp/pk.json" > "$out" 2>&1 || { fail "check of partly known"; cat "$out"; }
# gelu on [4,16] bf16: 0 MACs, its other FLOPs not determined (no flops);
# bytes read 64*2 + written 64*2 = 256
check "partly known gelu" "ANNOT aten::gelu unknown flops=- bytes=256 macs=0 unknown=partly_known"
# _grouped_mm: MACs not determined (no macs, no flops); bytes read [64,16] bf16
# 2048 + [4,16,32] bf16 4096 + [4] int32 16, written [64,32] bf16 4096: 10256
check "partly known grouped mm" "ANNOT aten::_grouped_mm unknown flops=- bytes=10256 macs=- unknown=partly_known"
# the counter sums the determined terms, as the totals do: 256 + 10256 + 256
check "partly known counter" "COUNTER pid=1 flops=0 bytes=10768"
grep -q '"tlcost.missing":"macs"' "$tmp/pk.json" || fail "partly known: no tlcost.missing"
same_flops "$PK" "$tmp/pk.json"

# ---- 1c. strings longer than the copy's 1 MiB read: escapes cut at a read's end ----
# two op events whose args hold a 1.5 MB string of \" pairs, after prefixes
# of odd and even length, so one of the pairs is cut at the first read's end
python3 -c '
import sys
ev = ("{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":1,\"tid\":1,\"ts\":%d,"
      "\"dur\":2,\"args\":{\"pad\":\"%s\",\"Input Dims\":[[2,2],[2,2]],"
      "\"Input type\":[\"float\",\"float\"]}}")
sys.stdout.write("{\"traceEvents\":[" + ev % (1, "x" + "\\\"" * 750000) + ",\n" +
                 ev % (5, "\\\"" * 750000) + "]}")' > "$tmp/long.json"
run 0 annotate "$tmp/long.json" -o "$tmp/long-out.json"
python3 "$CHECK" "$tmp/long.json" "$tmp/long-out.json" > "$out" 2>&1 || { fail "long strings"; tail -3 "$out"; }
# two mm of [2,2] x [2,2]: 8 MACs, 16 FLOPs each
[ "$(grep -c "ANNOT aten::mm known flops=16 bytes=48 macs=8" "$out")" -eq 2 ] || fail "long strings: not both annotated"

# ---- stdout unwritable: exit 3 ----
"$T" annotate "$FIX" -o "$tmp/full.json" > /dev/full 2> "$out"
[ $? -eq 3 ] || fail "stdout /dev/full: not exit 3"
check "stdout full" "output_write_failed"

# ---- 2. gzip in and out ----
gzip -c "$FIX" > "$tmp/in.json.gz"
run 0 annotate "$tmp/in.json.gz" -o "$tmp/b.json.gz"
check "gzip summary" "; gzip"
[ "$(head -c 2 "$tmp/b.json.gz" | od -An -tx1 | tr -d ' ')" = "1f8b" ] || fail "b.json.gz is not gzip"
gzip -dc "$tmp/b.json.gz" | cmp -s - "$tmp/a.json" || fail "gzip output differs from the plain one"
same_flops "$tmp/in.json.gz" "$tmp/b.json.gz"
run 0 annotate "$FIX" -o "$tmp/c.json.gz" --no-gzip
cmp -s "$tmp/c.json.gz" "$tmp/a.json" || fail "--no-gzip: compressed anyway"

# ---- 3. a pipe: buffered, with a note; same bytes ----
cat "$FIX" | "$T" annotate - -o "$tmp/p.json" > "$out" 2>&1 || fail "pipe input refused"
check "pipe note" "standard input is not a file that can be read twice: buffered"
cmp -s "$tmp/p.json" "$tmp/a.json" || fail "pipe output differs"
gzip -c "$FIX" | "$T" annotate /dev/stdin -o "$tmp/p2.json" > "$out" 2>&1 || fail "gzip pipe refused"
check "gzip pipe note" "buffered"
cmp -s "$tmp/p2.json" "$tmp/a.json" || fail "gzip pipe output differs"

# ---- 4. refused inputs: typed, exit 1, no output ----
head -c 400 "$FIX" > "$tmp/cut.json"
run 1 annotate "$tmp/cut.json" -o "$tmp/cut-out.json"
check "cut trace" "trace_truncated"
[ -e "$tmp/cut-out.json" ] && fail "a refused input left an output"
run 1 annotate "$top_srcdir/examples/custom_gelu.oplog.jsonl" -o "$tmp/log-out.json"
check "op log" "annotate_not_trace"
run 1 annotate "$tmp/does-not-exist.json" -o "$tmp/x.json"
check "missing input" "io_error"
run 2 annotate "$FIX"
check "no -o" "usage_error"

# ---- 5. outputs that cannot be written: exit 3 ----
run 3 annotate "$FIX" -o "$tmp/no/such/dir/x.json"
check "missing directory" "output_open_failed"
echo "old content" > "$tmp/keep.json"
python3 -c '
import resource, signal, subprocess, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (1000, 1000))
sys.exit(subprocess.call(sys.argv[1:], restore_signals=False))' "$T" annotate "$FIX" -o "$tmp/keep.json" > "$out" 2>&1
rc=$?
[ "$rc" -eq 3 ] || fail "file size limit: exit $rc, expected 3"
check "write failed" "output_write_failed"
[ "$(cat "$tmp/keep.json")" = "old content" ] || fail "a failed write replaced the old file"

# ---- 6. shared traces ----
if [ -d "$SHARED" ]; then
	for tr in "$SHARED"/*.json.gz "$SHARED"/real/*.json.gz "$SHARED"/real/*/*.json.gz; do
		[ -f "$tr" ] || continue
		name=$(basename "$tr")
		if ! "$T" annotate "$tr" -o "$tmp/s.json" > "$out" 2>&1; then
			# an input tlcost refuses is refused the same way by flops
			"$T" flops "$tr" > /dev/null 2>&1 && { fail "$name: annotate refused it"; cat "$out"; }
			continue
		fi
		python3 "$CHECK" "$tr" "$tmp/s.json" > "$out" 2>&1 || { fail "$name: check"; tail -5 "$out"; }
		same_flops "$tr" "$tmp/s.json"
	done
else
	echo "annotate_cli: $SHARED absent: shared traces skipped"
fi

[ "$fails" -eq 0 ] && echo "annotate_cli: all checks passed"
exit $((fails > 0))
