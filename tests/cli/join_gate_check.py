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

Usage: join_gate_check.py TRACE  -> one JSON object on stdout.
"""
import gzip
import json
from decimal import Decimal
import re
import sys

ANNOTATION_PREFIXES = ("ProfilerStep#", "Optimizer.step#", "Optimizer.zero_grad#",
                       "enumerate(DataLoader)#")
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


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        data = json.load(f)
    return data["traceEvents"] if isinstance(data, dict) else data


def us_to_ns(v):
    # Kineto writes microseconds, possibly fractional: whole ns, exactly.
    # Epoch microseconds (about 1.7e15) times 1000 exceed a double's 53 bits,
    # so float(v) * 1000 would move event ends by up to ~200 ns.
    if isinstance(v, int):
        return v * 1000
    return int((Decimal(repr(v)) * 1000).to_integral_value())


def main():
    events = [e for e in load(sys.argv[1]) if e.get("ph") == "X"]
    ops, calls, kernels, opt_spans, nccl = [], {}, [], [], []
    for e in events:
        cat, name, args = e.get("cat"), e.get("name", ""), e.get("args") or {}
        if cat in ("cpu_op", "Operator"):
            if name.startswith(ANNOTATION_PREFIXES):
                if name.startswith("Optimizer.step#"):
                    opt_spans.append((e["tid"], us_to_ns(e["ts"]),
                                      us_to_ns(e["ts"]) + us_to_ns(e["dur"])))
                continue
            ext = args.get("External id", args.get("external id"))
            ops.append({"name": name, "tid": e["tid"], "s": us_to_ns(e["ts"]),
                        "e": us_to_ns(e["ts"]) + us_to_ns(e["dur"]), "ext": ext,
                        "i": len(ops), "coll": args.get("Collective name")})
        elif cat == "user_annotation" and name.startswith("nccl:"):
            nccl.append((e["tid"], us_to_ns(e["ts"])))
        elif cat == "user_annotation" and name.startswith("Optimizer.step#"):
            opt_spans.append((e["tid"], us_to_ns(e["ts"]), us_to_ns(e["ts"]) + us_to_ns(e["dur"])))
        elif cat in ("cuda_runtime", "Runtime", "cuda_driver"):
            c = args.get("correlation")
            if c is not None:
                calls.setdefault(c, []).append(e)
        elif cat in ("kernel", "Kernel"):
            kernels.append(e)

    # nesting: per thread, by (start, longer first, file order)
    by_tid = {}
    for o in ops:
        by_tid.setdefault(o["tid"], []).append(o)
    for lst in by_tid.values():
        lst.sort(key=lambda o: (o["s"], -(o["e"] - o["s"]), o["i"]))
        stack = []
        for o in lst:
            while stack and not (stack[-1]["s"] <= o["s"] and o["e"] <= stack[-1]["e"]):
                stack.pop()
            o["parent"] = stack[-1] if stack else None
            stack.append(o)

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

    # the join path, from the launching calls
    by_ext = {}
    for o in ops:
        if o["ext"] is not None:
            by_ext.setdefault(o["ext"], []).append(o)
    launching = {}
    for k in kernels:
        for c in calls.get((k.get("args") or {}).get("correlation"), []):
            launching[id(c)] = c
    with_ext = [c for c in launching.values() if "External id" in (c.get("args") or {})]
    named = [c for c in with_ext if c["args"]["External id"] in by_ext]
    correlation = bool(with_ext) and 2 * len(named) >= len(with_ext)

    def owner(call):
        if correlation:
            cand = by_ext.get((call.get("args") or {}).get("External id"), [])
            return cand[0] if len(cand) == 1 else None
        t = us_to_ns(call["ts"])
        best = None
        for o in by_tid.get(call["tid"], []):
            if o["s"] <= t <= o["e"]:
                if best is None or (o["s"], -(o["e"] - o["s"]), o["i"]) > \
                        (best["s"], -(best["e"] - best["s"]), best["i"]):
                    best = o
        return best

    phases = {p: {"attributed_ns": 0, "on_wrapper_ns": 0, "annotated_ns": 0}
              for p in ("forward", "backward", "optimizer", "other")}
    wrappers, unattributed_ns, unphased_ns, kernel_ns = {}, 0, 0, 0
    for k in kernels:
        d = us_to_ns(k["dur"])
        kernel_ns += d
        cl = calls.get((k.get("args") or {}).get("correlation"), [])
        o = owner(cl[0]) if cl else None
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
            w = wrappers.setdefault(o["name"], {"kernels": 0, "time_ns": 0})
            w["kernels"] += 1
            w["time_ns"] += d
        else:
            phases[p]["attributed_ns"] += d
    json.dump({"path": "correlation" if correlation else "containment",
               "kernel_ns": kernel_ns, "unattributed_ns": unattributed_ns,
               "unphased_ns": unphased_ns,
               "kernel_on_wrapper_ns": sum(w["time_ns"] for w in wrappers.values()),
               "phases": phases, "wrappers": wrappers}, sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
