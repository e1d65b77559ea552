#!/bin/sh
# Size-scaling check (issue 23): for every input axis that can grow (trace
# and op-log whitespace, string lengths, JSON nesting, module depth, events,
# arguments, dims, ranks, merged partials, rule-file expressions and rules),
# each command that reads it must take at most linear instructions
# (callgrind Ir) and peak heap (counted by tests/scaling/peakheap.c) in the
# axis' size, measured at N, 2N, 4N (tests/scaling/scaling.py: how it
# decides; KNOWN_SUPERLINEAR there: the rows that report XFAIL until their
# fix lands). Counts, never wall clock, so a loaded machine changes nothing.
# About 140 CPU seconds, most of them callgrind (141 runs, 4 G instructions
# in all); it runs 2 at a time (SCALING_JOBS): a little over a minute on two
# idle cores (7 to 8 minutes measured on 2 cores shared with about 12 other
# busy processes).
#
# Skipped (77): under TLCOST_TEST_WRAPPER=valgrind (each run is already
# under valgrind here; memcheck adds nothing but hours), in a sanitizer
# build (ASan's allocator and shadow memory are not what ships, and
# valgrind cannot run it), without valgrind or python3.
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
skip() { echo "scaling: skipped: $*"; exit 77; }

[ "${TLCOST_TEST_WRAPPER:-}" = valgrind ] &&
	skip "TLCOST_TEST_WRAPPER=valgrind (the check runs every command under callgrind itself)"
command -v valgrind > /dev/null 2>&1 || skip "valgrind absent"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=$(command -v python3) || skip "python3 absent"
bin=$top_builddir/.libs/tlcost
[ -f "$bin" ] || bin=$top_builddir/tlcost
[ -f "$bin" ] || { echo "scaling: no tlcost in $top_builddir"; exit 99; }
if grep -q -- '-fsanitize' "$top_builddir/config.status" 2> /dev/null; then
	skip "sanitizer build (-fsanitize in config.status)"
fi
for f in "$bin" "$top_builddir"/.libs/libtlcost.so; do
	[ -f "$f" ] || continue
	if nm -D "$f" 2> /dev/null | grep -q -E ' U __(a|ub|t|m)san_'; then
		skip "sanitizer build ($f uses a sanitizer runtime)"
	fi
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tlc-scaling.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT

# The peak-heap counter, built with the compiler that built tlcost; massif
# measures the heap instead where it cannot be built (slower, same verdicts).
cc=$(sed -n 's/^S\["CC"\]="\(.*\)"$/\1/p' "$top_builddir/config.status" 2> /dev/null)
if ${cc:-cc} -O2 -shared -fPIC -o "$tmp/peakheap.so" "$top_srcdir/tests/scaling/peakheap.c" 2> "$tmp/cc.err"; then
	PEAKHEAP=$tmp/peakheap.so
	export PEAKHEAP
else
	echo "scaling: peakheap.c did not build (heap by massif instead):"
	cat "$tmp/cc.err"
fi
"$PY" "$top_srcdir/tests/scaling/scaling.py" check "$top_builddir/tlcost" "$tmp/work"
