"""The raw Kineto trace walk of the independent checkers
tests/cli/join_gate_check.py and tests/cli/rollup_check.py: python3 standard
library, no tlcost code, the rules written from docs/join.md and
docs/cost-contract.md (join_gate_check.py's docstring states them).

walk(PATH, op_fields) reads the trace (JSON, gzipped when PATH ends in .gz;
an object with traceEvents or a bare event list) and returns a Walk:

- ops: the cpu_op/Operator rows that are not annotations (ProfilerStep#,
  Optimizer.step#, ...), in file order, each a dict: name, tid, s and e
  (start and end, whole ns), ext (External id or None), i (its index),
  parent (the innermost op on its thread that holds it: latest start, then
  longest, then file order; None at the top), plus op_fields(args)'s items;
- by_tid: the ops per thread, sorted by (start, longer first, file order);
- calls: the runtime/driver calls by correlation id;
- kernels: the kernel events;
- opt_spans: (tid, start, end) of each Optimizer.step# annotation;
- nccl: (tid, start) of each nccl:* user annotation;
- correlation: whether launches are attributed by the correlation path
  (at least half of the launching calls that carry an External id name an
  op) rather than by containment;
- owner(call): the op a launching call leads to, or None (correlation path:
  the one op whose External id the call names; containment: the innermost
  op on the call's thread holding the call's start).
"""
import gzip
import json
from decimal import Decimal

ANNOTATION_PREFIXES = ("ProfilerStep#", "Optimizer.step#", "Optimizer.zero_grad#",
                       "enumerate(DataLoader)#")


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


def _span(e):
    return us_to_ns(e["ts"]), us_to_ns(e["ts"]) + us_to_ns(e["dur"])


def _key(o):
    return (o["s"], -(o["e"] - o["s"]), o["i"])


class Walk:
    def __init__(self, path, op_fields=None):
        self.ops, self.calls, self.kernels, self.opt_spans, self.nccl = [], {}, [], [], []
        for e in load(path):
            if e.get("ph") != "X":
                continue
            cat, name, args = e.get("cat"), e.get("name", ""), e.get("args") or {}
            if cat in ("cpu_op", "Operator"):
                if name.startswith(ANNOTATION_PREFIXES):
                    if name.startswith("Optimizer.step#"):
                        self.opt_spans.append((e["tid"],) + _span(e))
                    continue
                s, end = _span(e)
                o = {"name": name, "tid": e["tid"], "s": s, "e": end,
                     "ext": args.get("External id", args.get("external id")),
                     "i": len(self.ops)}
                if op_fields:
                    o.update(op_fields(args))
                self.ops.append(o)
            elif cat == "user_annotation" and name.startswith("nccl:"):
                self.nccl.append((e["tid"], us_to_ns(e["ts"])))
            elif cat == "user_annotation" and name.startswith("Optimizer.step#"):
                self.opt_spans.append((e["tid"],) + _span(e))
            elif cat in ("cuda_runtime", "Runtime", "cuda_driver"):
                c = args.get("correlation")
                if c is not None:
                    self.calls.setdefault(c, []).append(e)
            elif cat in ("kernel", "Kernel"):
                self.kernels.append(e)

        # nesting: per thread, by (start, longer first, file order)
        self.by_tid = {}
        for o in self.ops:
            self.by_tid.setdefault(o["tid"], []).append(o)
        for lst in self.by_tid.values():
            lst.sort(key=_key)
            stack = []
            for o in lst:
                while stack and not (stack[-1]["s"] <= o["s"] and o["e"] <= stack[-1]["e"]):
                    stack.pop()
                o["parent"] = stack[-1] if stack else None
                stack.append(o)

        # the join path, from the launching calls
        self.by_ext = {}
        for o in self.ops:
            if o["ext"] is not None:
                self.by_ext.setdefault(o["ext"], []).append(o)
        launching = {}
        for k in self.kernels:
            for c in self.kernel_calls(k):
                launching[id(c)] = c
        with_ext = [c for c in launching.values() if "External id" in (c.get("args") or {})]
        named = [c for c in with_ext if c["args"]["External id"] in self.by_ext]
        self.correlation = bool(with_ext) and 2 * len(named) >= len(with_ext)

    def kernel_calls(self, k):
        """The runtime calls with the kernel's correlation id."""
        return self.calls.get((k.get("args") or {}).get("correlation"), [])

    def owner(self, call):
        if self.correlation:
            cand = self.by_ext.get((call.get("args") or {}).get("External id"), [])
            return cand[0] if len(cand) == 1 else None
        t = us_to_ns(call["ts"])
        best = None
        for o in self.by_tid.get(call["tid"], []):
            if o["s"] <= t <= o["e"] and (best is None or _key(o) > _key(best)):
                best = o
        return best


def walk(path, op_fields=None):
    return Walk(path, op_fields)
