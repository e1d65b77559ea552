#!/usr/bin/env python3
"""Independent check of capture pairing (docs/join.md, "Capture pairing") on
a raw replay trace and the raw traces of its capture.

Reads the JSON itself (python3 standard library, no tlcost code) and derives
from docs/cost-contract.md ("Capture pairing", "Not an op") alone:

- captured graphs: per capture trace, each cuda_runtime StreamBeginCapture
  paired with the next StreamEndCapture on its thread; the graph's launch
  sequence is the runtime launches (names with "Launch", not GraphLaunch:
  args.kernel; "Memcpy" / "Memset" calls: <memcpy> / <memset>) on that
  thread between the Begin's end and the End's start, by start time; each
  launch's op is the cpu_op whose External id equals the call's;
- replay graph launches: each runtime call named *GraphLaunch*; its launches
  are the kernel / gpu_memcpy / gpu_memset events with its correlation, by
  start time; exactly one captured graph with the same sequence pairs it;
- a replay launch that is not a graph launch goes, by correlation, to the
  runtime call and from its External id to the replay's cpu_op;
- a row is not an op when it is a compiled-region or graph wrapper
  (WRAPPERS below; the contract's list). sglang_profiler::<launcher>_<n>
  rows are ops: SGLang's kernel_shape_profiler registers each wrapped
  kernel launcher as a torch.library custom op (docs/rules.md);
- an op's cost is unknown when it is SGLang's wrapped paged-attention
  launcher (its context lengths are kv_indptr contents, which no trace
  records); every other op that launches here has a rule.

Prints one JSON object: kernel_ns (all kernels), paired_kernels,
paired_kernel_ns, attributed_ns (kernels placed on any row, pairing or
correlation), on_wrapper_ns (of them, on a row that is not an op), on_op_ns
(the rest: on an op), on_unknown_op_ns (of those, on an op whose cost
is unknown),
unattributed_ns, graph_launches, matched.

Usage: capture_pair_check.py REPLAY CAPTURE...
"""
import json
import sys

from trace_walk import load, us_to_ns  # the one raw-trace reader of the checkers


WRAPPERS = ("Torch-Compiled Region", "## Call CompiledFxGraph", "CompiledFunction")
UNKNOWN = ("sglang_profiler::attention_paged_attention_ragged_",)

def dur_ns(e):
    s = us_to_ns(e["ts"])
    return us_to_ns(e["ts"]) + us_to_ns(e["dur"]) - s


def is_runtime(e):
    return e.get("cat") in ("cuda_runtime", "cuda_driver", "Runtime")


def captured_graphs(events):
    ops = {}
    for e in events:
        if e.get("cat") == "cpu_op" and "External id" in e.get("args", {}):
            ops[e["args"]["External id"]] = e["name"]
    marks = sorted((e for e in events if is_runtime(e) and
                    ("BeginCapture" in e["name"] or "EndCapture" in e["name"])),
                   key=lambda e: (e["tid"], us_to_ns(e["ts"])))
    graphs = []
    i = 0
    while i + 1 < len(marks):
        b, e = marks[i], marks[i + 1]
        if "BeginCapture" in b["name"] and "EndCapture" in e["name"] and b["tid"] == e["tid"]:
            lo, hi = us_to_ns(b["ts"]) + us_to_ns(b["dur"]), us_to_ns(e["ts"])
            seq = []
            for x in sorted((x for x in events if is_runtime(x) and x["tid"] == b["tid"]
                             and lo <= us_to_ns(x["ts"]) <= hi),
                            key=lambda x: us_to_ns(x["ts"])):
                n = x["name"]
                if "GraphLaunch" in n:
                    continue
                if "Memcpy" in n:
                    tok = "<memcpy>"
                elif "Memset" in n:
                    tok = "<memset>"
                elif "Launch" in n:
                    tok = x["args"]["kernel"]
                else:
                    continue
                seq.append((tok, ops.get(x["args"].get("External id"))))
            graphs.append(seq)
            i += 2
        else:
            i += 1
    return graphs


def main():
    replay = load(sys.argv[1])
    graphs = []
    for p in sys.argv[2:]:
        graphs += captured_graphs(load(p))
    ops = {e["args"]["External id"]: e["name"] for e in replay
           if e.get("cat") == "cpu_op" and "External id" in e.get("args", {})}
    calls = {e["args"]["correlation"]: e for e in replay
             if is_runtime(e) and "correlation" in e.get("args", {})}
    launches = [e for e in replay if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")]
    by_graph = {}
    for e in launches:
        c = calls.get(e["args"].get("correlation"))
        if c is not None and "GraphLaunch" in c["name"]:
            by_graph.setdefault(e["args"]["correlation"], []).append(e)
    owner = {}  # id(launch) -> op name
    matched = 0
    paired_k = paired_ns = 0
    for corr, ls in by_graph.items():
        ls.sort(key=lambda e: us_to_ns(e["ts"]))
        toks = ["<memcpy>" if e["cat"] == "gpu_memcpy" else "<memset>" if e["cat"] == "gpu_memset"
                else e["name"] for e in ls]
        hits = [g for g in graphs if [t for t, _ in g] == toks]
        if len(hits) != 1:
            continue
        matched += 1
        for e, (_, op) in zip(ls, hits[0]):
            if op is not None:
                owner[id(e)] = op
                if e["cat"] == "kernel":
                    paired_k += 1
                    paired_ns += dur_ns(e)
    for e in launches:
        c = calls.get(e["args"].get("correlation"))
        if id(e) in owner or c is None or "GraphLaunch" in c["name"]:
            continue
        op = ops.get(c.get("args", {}).get("External id"))
        if op is not None:
            owner[id(e)] = op
    kernels = [e for e in launches if e["cat"] == "kernel"]
    out = {
        "kernel_ns": sum(dur_ns(e) for e in kernels),
        "paired_kernels": paired_k,
        "paired_kernel_ns": paired_ns,
        "attributed_ns": sum(dur_ns(e) for e in kernels if id(e) in owner),
        "on_wrapper_ns": sum(dur_ns(e) for e in kernels
                             if owner.get(id(e), "").startswith(WRAPPERS)),
        "unattributed_ns": sum(dur_ns(e) for e in kernels if id(e) not in owner),
        "on_op_ns": sum(dur_ns(e) for e in kernels if id(e) in owner and
                        not owner[id(e)].startswith(WRAPPERS)),
        "on_unknown_op_ns": sum(dur_ns(e) for e in kernels
                                if owner.get(id(e), "").startswith(UNKNOWN)),
        "graph_launches": len(by_graph),
        "matched": matched,
    }
    json.dump(out, sys.stdout, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
