#!/bin/sh
# The trace reader's streaming window costs linear time on long runs of
# bytes (issue 23, item 1): whitespace before the first event, between two
# events (before and after the comma), before the closing ']', whitespace
# and long arrays inside an event's args, a long string. Before the fix the
# window kept and rescanned pending whitespace on every chunk (quadratic:
# 40 MB of spaces took 21 s; a 4 MB gzip ran for hours) and rescanned an
# event that was not yet whole once per 64 KiB chunk.
#
# Work is counted, not timed: callgrind's instruction count (Ir) of
# `tlcost flops` at sizes N and 2N. Linear work at most doubles (the fixed
# start-up cost only lowers the ratio); the bound 2.3 leaves slack and
# fails quadratic work (main before the fix: 3.07 for 1 MB of leading
# spaces, 2.61 for 256 KiB of spaces inside args). Each padded trace must
# also still count its one aten::mm ([2,3] x [3,4]: 2*3*4 = 24 MACs, 48
# FLOPs).
#
# Skipped under TLCOST_TEST_WRAPPER=valgrind (memcheck already runs every
# call; callgrind inside it is not possible) and where callgrind cannot run
# the binary (an ASan build, no valgrind).
set -u
. "${top_srcdir:-.}/tests/cli_lib.sh"
LT="$top_builddir/libtool"
[ "${TLCOST_TEST_WRAPPER:-}" = valgrind ] && { echo "trace_linear: under valgrind: skipped"; exit 77; }
command -v valgrind > /dev/null 2>&1 || { echo "trace_linear: no valgrind: skipped"; exit 77; }
tlc_need python3
tlc_tmpdir linear

ir() { # FILE: callgrind's instruction count of `tlcost flops FILE`, or empty
	"$LT" --mode=execute valgrind --tool=callgrind --callgrind-out-file=/dev/null \
		"$T" flops --format json "$1" 2> "$tmp/cg.err" > "$tmp/cg.out" || return 0
	sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$tmp/cg.err"
}

echo '[]' > "$tmp/probe.json"
[ -n "$(ir "$tmp/probe.json")" ] || { echo "trace_linear: callgrind cannot run tlcost (ASan build?): skipped"; exit 77; }

gen() { # SHAPE N OUT
	python3 - "$1" "$2" > "$3" <<'PY'
import sys
kind, n = sys.argv[1], int(sys.argv[2])
ev = ('{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":10,"dur":2,'
      '"args":{"External id":7,"Input Dims":[[2,3],[3,4]],"Input type":["float","float"]}}')
head, W = ev[:-2], " " * n
shapes = {
    "lead": '{"traceEvents":[' + W + ev + ']}',
    "after_comma": '[' + ev + ',' + W + ev.replace('"tid":1', '"tid":2') + ']',
    "before_comma": '[' + ev + W + ',' + ev.replace('"tid":1', '"tid":2') + ']',
    "before_close": '{"traceEvents":[' + ev + W + ']}',
    "in_args": '{"traceEvents":[' + head + ',"x":{' + W + '}}}]}',
    "in_array": '{"traceEvents":[' + head + ',"x":[' + ",".join(["1"] * (n // 2)) + ']}}]}',
    "long_string": '{"traceEvents":[' + head + ',"x":"' + "a" * n + '"}}]}',
}
sys.stdout.write(shapes[kind])
PY
}

check() { # SHAPE N FLOPS
	shape=$1 n=$2 want=$3
	gen "$shape" "$n" "$tmp/a.json"
	gen "$shape" $((2 * n)) "$tmp/b.json"
	a=$(ir "$tmp/a.json")
	flops=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["phases"]["forward"]["flops"])' "$tmp/cg.out" 2>/dev/null)
	b=$(ir "$tmp/b.json")
	if [ -z "$a" ] || [ -z "$b" ]; then
		echo "FAIL: $shape: tlcost failed: $(head -c 300 "$tmp/cg.out")"
		fails=$((fails + 1))
		return
	fi
	[ "$flops" = "$want" ] || { echo "FAIL: $shape: $flops FLOPs, expected $want"; fails=$((fails + 1)); }
	if python3 -c 'import sys; sys.exit(0 if int(sys.argv[2]) <= 2.3 * int(sys.argv[1]) else 1)' "$a" "$b"; then
		echo "ok: $shape: $n bytes $a Ir, $((2 * n)) bytes $b Ir"
	else
		echo "FAIL: $shape: $n bytes $a Ir, $((2 * n)) bytes $b Ir: more than 2.3 times (not linear)"
		fails=$((fails + 1))
	fi
}

# (two ops of 48 FLOPs where the shape has two events)
check lead 1000000 48
check after_comma 1000000 96
check before_comma 1000000 96
check before_close 1000000 48
check in_args 262144 48
check in_array 262144 48
check long_string 262144 48
[ $fails -eq 0 ]
