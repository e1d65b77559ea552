#!/bin/sh
# tlcost on the real profiler traces of ../shared/traces/real/ (and the two in
# ../shared/traces/), issue 10: per trace the op rows, the phases, the device
# work (kernels in op rows, and those of graph replays, of launches outside any
# op, without a runtime call), the COMPLETE / LOWER BOUND verdict and the
# join's path and counts. Every expectation is derived independently from the
# raw JSON by tests/cli/real_traces_check.py (python3 standard library only; it
# never asks tlcost for an expected value) or from the hand facts it lists
# (what SOURCES.md says each trace is). Skips (77) when the folder is absent.
# Under valgrind (TLCOST_TEST_WRAPPER=valgrind) only the traces under 200 KB
# run: the large ones take minutes each there and use the same code paths.
set -u
. "${top_srcdir:-.}/tests/cli_lib.sh"
tlc_need python3
tlc_need_shared traces/real
set --
for f in "$shared"/traces/real/*.json.gz "$shared"/traces/*.json.gz; do
	[ -f "$f" ] || continue
	if [ "${TLCOST_TEST_WRAPPER:-}" = valgrind ] && [ "$(wc -c < "$f")" -gt 200000 ]; then
		continue
	fi
	set -- "$@" "$f"
done
[ "$#" -gt 0 ] || { echo "SKIP: no trace in $shared/traces"; exit 77; }
exec python3 "$top_srcdir/tests/cli/real_traces_check.py" "$top_builddir/tlcost" "$@"
