#!/bin/sh
# The join's gate on shared real traces (issue 25: the gate counts ops, not
# wrappers), checked against tests/cli/join_gate_check.py, which derives from
# the raw trace JSON alone (python3 standard library, no tlcost code) the
# kernel time per phase attributed to ops and on rows that are not ops, the
# unattributed time and the time per wrapper row. v100-dlrm-training (18
# kernels, 0.137 ms on the fbgemm CppNode rows in backward) and
# hta_v100_trace_diff_test_r1of2 (4,650 kernels, 364.971 ms on
# CompiledFunction / CompiledFunctionBackward graph replays and CppNode rows)
# have wrapper time; tl_mi300_torch_compile_triton has none (every kernel
# lies in an aten or triton row). hta_v100 also has 48 fused-Adam launches
# (multi_tensor_apply, 12.281 ms) inside `Optimizer.step#FusedAdam.step`
# with no op between: the optimizer phase's annotated_ns, not time counted
# against every phase. Skips (77) when the traces are absent.
set -u
. "${top_srcdir:-.}/tests/cli_lib.sh"
tlc_need python3
tlc_tmpdir gate-real

gate() { # TRACE: tlcost join's gate against the script's
	python3 "$top_srcdir/tests/cli/join_gate_check.py" "$1" > "$tmp/want" ||
		{ echo "FAIL: check script on $1"; return 1; }
	"$T" join --format json "$1" > "$tmp/got" || { echo "FAIL: tlcost join $1"; return 1; }
	python3 - "$tmp/want" "$tmp/got" "$1" <<'PY'
import json, sys
want, got, name = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
bad = []
def cmp(what, w, g):
    if w != g:
        bad.append("%s: want %r, got %r" % (what, w, g))
cmp("path", want["path"], got["path"])
cmp("kernel_ns", want["kernel_ns"], got["kernel_ns"])
cmp("kernel_unattributed_ns", want["unattributed_ns"], got["kernel_unattributed_ns"])
cmp("kernel_on_wrapper_ns", want["kernel_on_wrapper_ns"], got["kernel_on_wrapper_ns"])
for ph in got["gate"]["phases"]:
    w = want["phases"][ph["phase"]]
    cmp(ph["phase"] + " attributed_ns", w["attributed_ns"], ph["attributed_ns"])
    cmp(ph["phase"] + " on_wrapper_ns", w["on_wrapper_ns"], ph["on_wrapper_ns"])
    cmp(ph["phase"] + " annotated_ns", w["annotated_ns"], ph["annotated_ns"])
    cmp(ph["phase"] + " unphased_ns", want["unphased_ns"], ph["unphased_ns"])
# wrapper rows: the script names them as the trace does, tlcost as
# name.overload; compare the multiset of (kernels, time)
gw = sorted((x["kernels"], x["time_ns"]) for x in got["wrappers"])
ww = sorted((x["kernels"], x["time_ns"]) for x in want["wrappers"].values())
cmp("wrappers (kernels, time_ns)", ww, gw)
for b in bad:
    print("FAIL: %s: %s" % (name, b))
print("%s: %s (%d kernels on wrappers, %d ns; %d ns in annotations)" % (
      name, "FAIL" if bad else "ok", sum(k for k, _ in gw), got["kernel_on_wrapper_ns"],
      sum(p["annotated_ns"] for p in got["gate"]["phases"])))
sys.exit(1 if bad else 0)
PY
}

tlc_each_shared_trace gate v100-dlrm-training.json.gz real/tl_mi300_torch_compile_triton.json.gz \
	real/hta_sampled_rank0_of128.json.gz real/hta_v100_trace_diff_test_r1of2.json.gz
tlc_done
