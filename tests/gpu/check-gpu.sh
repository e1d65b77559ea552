#!/bin/sh
# make check-gpu: builds tests/gpu/e2e.cu with nvcc against the freshly built
# libtlcost-cupti and libtlcost, runs it (it records ops with CUPTI, writes
# an op log, reads it back and joins it), then runs `tlcost join` on that
# log. The last line says PASS, SKIP (with why) or FAIL; the exit status is
# 0 for PASS and SKIP, 1 for FAIL.
set -u
b=${top_builddir:-.}
s=${top_srcdir:-.}
abs_b=$(cd "$b" && pwd)
log="$abs_b/tests/gpu/e2e.oplog.jsonl"

skip() { echo "check-gpu: SKIP: $*"; exit 0; }
fail() { echo "check-gpu: FAIL: $*"; exit 1; }

[ -f "$b/libtlcost-cupti.la" ] || skip "the CUPTI module was not built (configure found no cupti.h; use --with-cupti=DIR)"
[ -n "${NVCC:-}" ] || skip "nvcc not found by configure (put the CUDA toolkit's bin on PATH and re-run configure)"
mkdir -p "$b/tests/gpu"
echo "check-gpu: building tests/gpu/e2e with $NVCC"
"$NVCC" -std=c++17 -O2 -I"$s/include" -I"$b/include" -o "$b/tests/gpu/e2e" "$s/tests/gpu/e2e.cu" \
	-L"$abs_b/.libs" -ltlcost-cupti -ltlcost -Xlinker -rpath -Xlinker "$abs_b/.libs" \
	|| fail "nvcc could not build tests/gpu/e2e"
"$b/tests/gpu/e2e" "$log"
rc=$?
[ $rc -eq 77 ] && skip "no GPU on this machine"
[ $rc -eq 0 ] || fail "tests/gpu/e2e exited $rc (see the FAIL lines above)"
echo "check-gpu: tlcost join $log"
"$b/tlcost" join "$log" || fail "tlcost join exited $?"
# every kernel on its op, read back through the CLI: the plan of e2e.cu
csv="$abs_b/tests/gpu/e2e.join.csv"
"$b/tlcost" join --format csv "$log" > "$csv" || fail "tlcost join --format csv exited $?"
per_op=$(awk -F, 'NR > 1 && $2 == "kernel" { if ($10 == "attributed") n[$11]++; else bad++ }
	END { for (i = 0; i < 5; i++) printf "%d:%d ", i, n[i]; printf "bad:%d", bad }' "$csv")
echo "check-gpu: kernels per op from tlcost join: $per_op (want 0:1 1:2 2:3 3:2 4:4 bad:0)"
[ "$per_op" = "0:1 1:2 2:3 3:2 4:4 bad:0" ] || fail "tlcost join attributed kernels differently"
echo "check-gpu: PASS"
