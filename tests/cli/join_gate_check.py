#!/usr/bin/env python3
"""Independent check of the join's gate on a raw Kineto trace (issue 25).

Reads the trace JSON itself (no tlcost code) and derives, per phase, the
kernel time attributed to ops, the kernel time on rows that are not ops
(wrappers with no op between them and the launch) and the unattributed
time, plus the wrapper rows by name, from docs/join.md and
docs/cost-contract.md ("Not an op") alone:

- a launch's runtime call is the cuda_runtime/cuda_driver event with the
  kernel's correlation; the correlation path (the call's External id names a
  cpu_op's External id) is used when at least half of the launching calls
  that carry an External id name an op, else containment (the innermost
  cpu_op on the call's thread holding the call's start: latest start, then
  shortest);
- an op row's parent is the innermost cpu_op on its thread that holds it;
- a row is not an op when its name is one of the wrappers listed below
  (written here from the docs, not taken from rules/structural.c);
  record_param_comms is an op (a costed collective) when it records a
  collective: a "Collective name" other than wait/barrier, or an `nccl:*`
  annotation inside it on its thread (docs/collectives.md); else a marker;
- a kernel is on a wrapper when its op row and every ancestor are wrappers;
- phase: optimizer inside an `Optimizer.step#` annotation on the op's
  thread; else backward inside an evaluate_function wrapper or autograd node
  row, or on the autograd thread (half or more of its top-level ops are such
  rows); else forward. An unattributed kernel whose runtime call lies inside
  an `Optimizer.step#` annotation on the call's thread is the optimizer's
  (annotated_ns); other unattributed kernels have no phase (they count
  against every phase: unphased_ns).

The trace walk (reading the trace, the op rows and their nesting, the
launch path and a launch's op) is tests/cli/trace_walk.py, shared with
tests/cli/rollup_check.py.

Usage: join_gate_check.py TRACE  -> one JSON object on stdout.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from trace_walk import us_to_ns, walk  # noqa: E402

WRAPPER_EXACT = {
    "torch::autograd::AccumulateGrad", "TorchDynamo Cache Lookup", "CompiledFunction",
    "AOTDispatcher Runtime Wrapper Prologue", "Pregraph bytecode", "<forward_op>",
    "<backward_op>", "torch::jit::(anonymous namespace)::DifferentiableGraphBackward",
    "_NoopSaveInputs", "profiler::_record_function_enter",
    "profiler::_record_function_enter_new", "profiler::_record_function_exit",
    "profiler::_call_end_callbacks_on_jit_fut", "aten::record_stream",
    "aten::_record_function_enter", "aten::_record_function_exit",
}
WRAPPER_PREFIXES = ("autograd::engine::evaluate_function", "torch::autograd::CppNode<",
                    "Torch-Compiled Region", "## Call CompiledFxGraph")
NODE_RE = re.compile(r"Backward\d*$")


def main():
    tw = walk(sys.argv[1], lambda args: {"coll": args.get("Collective name")})
    opt_spans, nccl, by_tid = tw.opt_spans, tw.nccl, tw.by_tid

    def is_node(o):
        p = o["parent"]
        return "::" not in o["name"] and (
            (p is not None and p["name"].startswith("autograd::engine::evaluate_function"))
            or NODE_RE.search(o["name"]) is not None)

    def comms_marker(o):
        if o["coll"] not in (None, ""):
            return o["coll"] in ("wait", "barrier")
        return not any(t == o["tid"] and o["s"] <= s <= o["e"] for t, s in nccl)

    def is_wrapper(o):
        n = o["name"]
        if n == "record_param_comms":
            return comms_marker(o)
        return n in WRAPPER_EXACT or n.startswith(WRAPPER_PREFIXES) or is_node(o)

    def bw_marker(o):
        return o["name"].startswith("autograd::engine::evaluate_function") or is_node(o)

    autograd_tids = set()
    for tid, lst in by_tid.items():
        top = [o for o in lst if o["parent"] is None]
        if top and 2 * sum(1 for o in top if bw_marker(o)) >= len(top):
            autograd_tids.add(tid)

    def phase(o):
        if any(t == o["tid"] and s <= o["s"] <= e for t, s, e in opt_spans):
            return "optimizer"
        cur = o
        while cur is not None:
            if bw_marker(cur):
                return "backward"
            cur = cur["parent"]
        return "backward" if o["tid"] in autograd_tids else "forward"

    phases = {p: {"attributed_ns": 0, "on_wrapper_ns": 0, "annotated_ns": 0}
              for p in ("forward", "backward", "optimizer", "other")}
    wrappers, unattributed_ns, unphased_ns, kernel_ns = {}, 0, 0, 0
    for k in tw.kernels:
        d = us_to_ns(k["dur"])
        kernel_ns += d
        cl = tw.kernel_calls(k)
        o = tw.owner(cl[0]) if cl else None
        if o is None:
            unattributed_ns += d
            if cl and any(t == cl[0]["tid"] and s <= us_to_ns(cl[0]["ts"]) <= e
                          for t, s, e in opt_spans):
                phases["optimizer"]["annotated_ns"] += d
            else:
                unphased_ns += d
            continue
        cur, only_wrappers = o, True
        while cur is not None:
            if not is_wrapper(cur):
                only_wrappers = False
                break
            cur = cur["parent"]
        p = phase(o)
        if only_wrappers:
            phases[p]["on_wrapper_ns"] += d
            row = wrappers.setdefault(o["name"], {"kernels": 0, "time_ns": 0})
            row["kernels"] += 1
            row["time_ns"] += d
        else:
            phases[p]["attributed_ns"] += d
    json.dump({"path": "correlation" if tw.correlation else "containment",
               "kernel_ns": kernel_ns, "unattributed_ns": unattributed_ns,
               "unphased_ns": unphased_ns,
               "kernel_on_wrapper_ns": sum(row["time_ns"] for row in wrappers.values()),
               "phases": phases, "wrappers": wrappers}, sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
