#!/usr/bin/env python3
"""Independent check of the device-time roll-up to the costed row (issue 25
item 1) on a raw Kineto trace: reads the trace JSON itself (python3 standard
library; the trace-reading rules are those of tests/cli/join_gate_check.py,
which derives them from docs/join.md and docs/cost-contract.md, through the
walk both share, tests/cli/trace_walk.py) and prints
one JSON object:

- kernel_ns: all kernel time;
- attributed_ns: the kernel time whose launching runtime call leads to an op
  row (correlation path: the call's External id names exactly one cpu_op;
  containment: the innermost cpu_op on the call's thread holding the call's
  start), wrappers included: what `tlcost join` calls kernel_attributed_ns
  (plus kernel_ambiguous_ns, none on the traces this is used on);
- under_ns[NAME]: for each NAME given after the trace, the kernel time whose
  launching op is NAME or has an ancestor named NAME. Under the nesting
  policy (docs/cost-contract.md, "Costed row") an op with a known cost owns
  its descendants' kernels, so for an op type with a rule that is not itself
  nested in a counted op (aten::linear in an eager model), this is exactly
  the costed kernel time of its profile row.

- linear_groups: the aten::linear ops grouped by their raw `Input Dims`
  and `Input type` (TraceLens's unique args), each with its call count, its
  FLOPs from docs/rules.md (`linear`: prod(input[:-1]) * in * out MACs, 2
  FLOPs each, plus one add per output element with a bias) and the kernel
  time launched under its ops: the numerator and denominator of its
  attributed kernel utilization (flops / kernel_ns / 1000 = TFLOP/s), and its
  ideal bytes (docs/cost-contract.md: every input read once, the output
  written once, at the dtype's element size).

Usage: rollup_check.py TRACE [NAME...]
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from trace_walk import us_to_ns, walk  # noqa: E402


def main():
    names = sys.argv[2:]
    tw = walk(sys.argv[1], lambda args: {"dims": args.get("Input Dims"),
                                         "types": args.get("Input type"), "lin_ns": 0})

    kernel_ns = attributed_ns = 0
    under = {n: 0 for n in names}
    for k in tw.kernels:
        d = us_to_ns(k["dur"])
        kernel_ns += d
        cl = tw.kernel_calls(k)
        o = tw.owner(cl[0]) if cl else None
        if o is None:
            continue
        attributed_ns += d
        seen, cur = set(), o
        while cur is not None:
            if cur["name"] in under and cur["name"] not in seen:
                under[cur["name"]] += d
                seen.add(cur["name"])
            if cur["name"] == "aten::linear":
                cur["lin_ns"] += d
            cur = cur["parent"]
    groups = {}
    for o in tw.ops:
        if o["name"] != "aten::linear" or not o["dims"]:
            continue
        x, w = o["dims"][0], o["dims"][1]
        m = 1
        for v in x[:-1]:
            m *= v
        k, n = x[-1], w[0]
        bias = len(o["dims"]) > 2 and bool(o["dims"][2])
        key = json.dumps([o["dims"], o["types"]])
        g = groups.setdefault(key, {"dims": o["dims"], "types": o["types"], "count": 0,
                                    "flops": 0, "kernel_ns": 0})
        g["count"] += 1
        g["flops"] += 2 * m * k * n + (m * n if bias else 0)
        # ideal traffic: every input read once, the output ([..., out], the
        # input's dtype) written once
        size = {"c10::BFloat16": 2, "c10::Half": 2, "float": 4, "double": 8}
        nbytes = 0
        for d, t in zip(o["dims"], o["types"]):
            if d:
                e = 1
                for v in d:
                    e *= v
                nbytes += e * size.get(t, 0)
        g["bytes"] = g.get("bytes", 0) + nbytes + m * n * size.get(o["types"][0], 0)
        g["kernel_ns"] += o["lin_ns"]
    json.dump({"path": "correlation" if tw.correlation else "containment", "kernel_ns": kernel_ns,
               "attributed_ns": attributed_ns, "under_ns": under,
               "linear_groups": sorted(groups.values(), key=lambda g: -g["flops"])},
              sys.stdout, indent=1,
              sort_keys=True)
    print()


if __name__ == "__main__":
    main()
