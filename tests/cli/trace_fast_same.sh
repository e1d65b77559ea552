#!/bin/sh
# The trace fast path (engine/input/json/json_fast.h, trace section: simdjson
# On-Demand over the events of traceEvents, yajl for the rest) changes
# nothing a user sees. For every trace the project has (fixtures, the fuzz
# regressions, among them the On-Demand traps tests/fuzz/regress/trace-fast-*,
# the shared real traces) and a few generated here, `tlcost flops --format
# json` and `tlcost join --format json` must give byte-identical stdout,
# stderr and exit status with yajl alone (TLCOST_JSON_FAST=0: the
# reference), with the fast path, and with the fast path over small
# windows (TLCOST_TRACE_WINDOW: windows that cut events, tokens and
# separators anywhere, and events longer than the window); errors included,
# with their codes and line/column. The reference is yajl's own reading, so
# no expected output is written down here.
#
# Before/after a change: TLCOST_BEFORE=/path/to/old/tlcost compares that
# binary's output (its defaults) with this build's too.
. "${top_srcdir:-.}/tests/cli_lib.sh"
tlc_tmpdir trace-fast-same
n=0
fail=0

run() { # OUTPREFIX BINARY SUBCOMMAND FILE [env assignments]
	out=$1 bin=$2 sub=$3 f=$4
	shift 4
	env "$@" "$bin" "$sub" --format json "$f" > "$out.out" 2> "$out.err"
	echo $? > "$out.rc"
}

differs() { # A B: 0 when they differ
	for k in rc out err; do
		if ! cmp -s "$1.$k" "$2.$k"; then
			diff "$1.$k" "$2.$k" | head -6
			return 0
		fi
	done
	return 1
}

# compare FILE WINDOWS...: yajl against the fast path, whole and windowed
compare() {
	f=$1
	shift
	for sub in flops join; do
		n=$((n + 1))
		run "$tmp/ref" "$T" $sub "$f" TLCOST_JSON_FAST=0
		for wnd in "" "$@"; do
			run "$tmp/fast" "$T" $sub "$f" TLCOST_JSON_FAST=1 "TLCOST_TRACE_WINDOW=$wnd"
			if differs "$tmp/ref" "$tmp/fast"; then
				echo "FAIL: $sub $f: the fast path (window '${wnd:-default}') differs from yajl"
				fail=$((fail + 1))
				break
			fi
		done
		if [ -n "${TLCOST_BEFORE:-}" ]; then
			run "$tmp/old" "$TLCOST_BEFORE" $sub "$f"
			if differs "$tmp/old" "$tmp/ref"; then
				echo "FAIL: $sub $f: $TLCOST_BEFORE differs from this build"
				fail=$((fail + 1))
			fi
		fi
	done
}

# Under valgrind (TLCOST_TEST_WRAPPER=valgrind, tests/run-test.sh) every
# tlcost call costs about a second: there each file is read with yajl, the
# fast path and one small window (which still cuts events and tokens), and
# the shared traces, megabytes each, are left to the plain run (fuzz_trace
# and the ASan run compare the readings under their own checks).
if [ "${TLCOST_TEST_WRAPPER:-}" = valgrind ]; then
	small="13" gen="7 4096" quick=1
else
	small="1 2 5 13 64 300" gen="1 7 64 256 1000 4096" quick=
fi
for f in "$top_srcdir"/tests/fixtures/trace/*.json* "$top_srcdir"/tests/fixtures/trace_args/*.json* \
         "$top_srcdir"/tests/fixtures/reports/*.json "$top_srcdir"/tests/fuzz/regress/trace*; do
	[ -f "$f" ] && compare "$f" $small
done

# Generated: events split across windows, and events longer than the
# window (read by yajl, which then hands the events after them back).
python3 - "$tmp" <<'PY'
import sys
d = sys.argv[1]
ev = []
for i in range(400):
    ev.append('{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, '
              '"ts": %d.%03d, "dur": 2.5, "args": {"External id": %d, '
              '"Input Dims": [[%d, 3], [3, 4]], "Input type": ["float", "float"]}}'
              % (1000 + 10 * i, i, i + 1, i % 7 + 1))
    ev.append('{"ph": "X", "cat": "kernel", "name": "gemm_%d", "pid": 0, "tid": 7, '
              '"ts": %d, "dur": 1, "args": {"External id": %d, "correlation": %d, '
              '"device": 0, "stream": 7}}' % (i, 1001 + 10 * i, i + 1, i + 1))
    if i % 50 == 7: # an event far longer than a small window
        ev.append('{"ph": "X", "cat": "python_function", "name": "f", "pid": 1, "tid": 1, '
                  '"ts": 1, "dur": 1, "args": {%s}}'
                  % ', '.join('"k%d": [%d, "v\\u00e9"]' % (j, j) for j in range(300)))
open(d + '/gen.json', 'w').write('{"schemaVersion": 1, "traceEvents": [\n' + ',\n'.join(ev) + '\n]}\n')
# the same with an error near the end (a dur that is a string)
ev[-3] = ev[-3].replace('"dur": 2.5', '"dur": "2.5"')
open(d + '/gen-bad.json', 'w').write('[' + ', '.join(ev) + ']')
PY
for f in "$tmp/gen.json" "$tmp/gen-bad.json"; do
	compare "$f" $gen
done

if [ -n "$quick" ]; then
	echo "note: under valgrind the shared traces are compared by the plain run only"
elif [ -d "$shared/traces" ]; then
	for f in $(find "$shared/traces" \( -name '*.json' -o -name '*.json.gz' \) -type f | sort); do
		compare "$f" 4096
	done
else
	echo "note: $shared/traces not found: the shared traces were not compared"
fi
echo "$((n - fail)) of $n trace readings identical"
[ $fail -eq 0 ]
