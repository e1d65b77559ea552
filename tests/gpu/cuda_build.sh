#!/bin/sh
# Every CUDA source of the tree was compiled by this make check (nvcc,
# capture/cupti/local.mk): X.cu has its object X_cu.o in the build tree,
# and tests/gpu/e2e, linked against the libraries just built, prints op
# records that tlcost evaluates (no GPU needed). SKIP where configure found
# no nvcc, CUPTI or CUDA runtime (the objects cannot exist there).
# e2e itself runs outside the valgrind wrapper (it is a test program, and
# its GPU path is make check-gpu's); the tlcost call is checked under it.
# Without a GPU, e2e runs to its no-GPU check (CUPTI unavailable, exit 77).
set -u
s=${top_srcdir:-.}
b=${top_builddir:-.}
if ! grep -q '^NVCC_BUILD = ' "$b/Makefile" 2>/dev/null; then
	echo "CUDA sources not built: configure found no nvcc, cupti.h or libcudart_static.a"
	exit 77
fi
sources=$(cd "$s" && find . -name '*.cu' -not -path './build-gpu/*' -not -path './_build/*' \
	-not -path './tlcost-*/*' | sed 's|^\./||' | sort)
[ -n "$sources" ] || { echo "FAIL: no .cu file under $s (tests/gpu/e2e.cu is expected)"; exit 1; }
rc=0
for f in $sources; do
	o="$b/${f%.cu}_cu.o"
	if [ -f "$o" ]; then
		echo "ok: $f compiled by nvcc ($o)"
	else
		echo "FAIL: $f was not compiled by make check (no $o): add its rule to capture/cupti/local.mk"
		rc=1
	fi
done
out=$(mktemp "${TMPDIR:-/tmp}/tlcost-e2e.XXXXXX") || exit 99
trap 'rm -f "$out" "$out.log" "$out.csv" "$out.nogpu"' EXIT
if ! "$b/tests/gpu/e2e" --print-ops > "$out"; then
	echo "FAIL: tests/gpu/e2e --print-ops exited $?"; exit 1
fi
# the plan of e2e.cu: ops 0-14, each one record
n=$(grep -c '"op":' "$out")
[ "$n" -eq 15 ] || { echo "FAIL: e2e printed $n op records, want 15"; rc=1; }
${TLCOST_RUN:-} "$b/tlcost" flops "$out" > /dev/null || {
	echo "FAIL: tlcost flops refused the op records of tests/gpu/e2e"; rc=1; }
# Without a GPU the capture says so and skips, never crashes: e2e's CUPTI
# session is unavailable (typed cupti_unavailable) and it exits 77. Where
# nvidia-smi lists a GPU this is make check-gpu's run, not make check's.
if command -v nvidia-smi > /dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
	echo "a GPU is present: the no-GPU path is not checked here (make check-gpu runs e2e)"
else
	"$b/tests/gpu/e2e" "$out.log" "$out.csv" > "$out.nogpu" 2>&1
	st=$?
	if [ $st -ne 77 ] || ! grep -q '^no GPU: CUPTI session unavailable: .*(cupti_unavailable)$' "$out.nogpu"; then
		echo "FAIL: e2e without a GPU exited $st (want 77, the CUPTI session unavailable):"
		sed 's/^/  /' "$out.nogpu"
		rc=1
	else
		echo "ok: without a GPU: $(head -1 "$out.nogpu")"
	fi
	# the graph case (e2e --graph) as well
	"$b/tests/gpu/e2e" --graph "$out.log" "$out.csv" > "$out.nogpu" 2>&1
	st=$?
	if [ $st -ne 77 ] || ! grep -q '^no GPU: CUPTI session unavailable: .*(cupti_unavailable)$' "$out.nogpu"; then
		echo "FAIL: e2e --graph without a GPU exited $st (want 77, the CUPTI session unavailable):"
		sed 's/^/  /' "$out.nogpu"
		rc=1
	else
		echo "ok: e2e --graph without a GPU: $(head -1 "$out.nogpu")"
	fi
	rm -f "$out.log" "$out.csv" "$out.nogpu"
fi
exit $rc
