#!/usr/bin/env python3
"""Independent sum of the collectives in a Kineto trace, from the raw args.

Written from the trace format and nccl-tests' doc/PERFORMANCE.md, without
looking at tlcost's reader: prints one JSON object {kind: {calls, message_bytes,
bus_bytes}} with bus bytes as an exact fraction string ("P/Q" or "N").

One call is one record_param_comms row with a 'Collective name' other than
a zero-byte marker (wait, barrier) when the trace records those names
(PyTorch >= 2.2); otherwise one nccl:* user annotation (older traces), whose
tensor is the collective's input. Message size S per nccl-tests: all-reduce,
broadcast, reduce, send/recv: the buffer; all-gather: the gathered output
(In msg nelems x n, or the enclosing c10d op's output tensor); reduce-scatter:
the whole input; all-to-all: what one rank sends. The group size n is
'Group size' when recorded, out/in for all-gather, else distributedInfo's
world_size."""
import gzip
import json
import sys
from fractions import Fraction

ES = {"BFloat16": 2, "Half": 2, "Float": 4, "Double": 8, "Long": 8, "Int": 4, "Byte": 1,
      "Char": 1, "Bool": 1, "float": 4, "double": 8, "c10::BFloat16": 2, "c10::Half": 2,
      "long int": 8, "long": 8, "int": 4, "unsigned char": 1, "signed char": 1, "bool": 1}
KIND = {"allreduce": "allreduce", "all_reduce": "allreduce", "broadcast": "broadcast",
        "_allgather_base": "allgather", "_all_gather_base": "allgather",
        "allgather": "allgather", "all_gather": "allgather", "all_to_all": "alltoall",
        "alltoall": "alltoall", "alltoall_base": "alltoall", "reduce_scatter": "reduce_scatter",
        "_reduce_scatter_base": "reduce_scatter", "reduce": "reduce"}
FACTOR = {"allreduce": lambda n: Fraction(2 * (n - 1), n),
          "allgather": lambda n: Fraction(n - 1, n),
          "reduce_scatter": lambda n: Fraction(n - 1, n),
          "alltoall": lambda n: Fraction(n - 1, n),
          "broadcast": lambda n: Fraction(1), "reduce": lambda n: Fraction(1)}


def numel(dims):
    p = 1
    for d in dims:
        p *= d
    return p


def main(path):
    doc = json.load(gzip.open(path) if path.endswith(".gz") else open(path))
    world = doc.get("distributedInfo", {}).get("world_size")
    events = [e for e in doc["traceEvents"] if e.get("ph") == "X"]
    rpc = [e for e in events if e.get("cat") == "cpu_op" and e.get("name") == "record_param_comms"]
    named = [e for e in rpc if "Collective name" in e.get("args", {})]
    out = {}

    def add(kind, s, n):
        r = out.setdefault(kind, {"calls": 0, "message_bytes": 0, "bus_bytes": Fraction(0)})
        r["calls"] += 1
        r["message_bytes"] += s
        r["bus_bytes"] += s * FACTOR[kind](n)

    if named:
        for e in named:
            a = e["args"]
            name = a["Collective name"]
            if name in ("wait", "barrier"):
                continue
            kind = KIND[name]
            es, n = ES[a["dtype"]], a["Group size"]
            if kind == "allgather":
                s = a["Out msg nelems"] * es
            else:
                s = a["In msg nelems"] * es
            add(kind, s, n)
    else:
        c10d = [e for e in events if e.get("cat") == "cpu_op" and e["name"].startswith("c10d::")]
        for e in events:
            if e.get("cat") != "user_annotation" or not e["name"].startswith("nccl:"):
                continue
            a = e["args"]
            kind = KIND[e["name"][5:]]
            es = ES[a["Input type"][0]]
            x = numel(a["Input Dims"][0])
            n = world
            if kind == "allgather":
                # the enclosing c10d op (same thread, contains it): arg 0 is the output
                op = [c for c in c10d if c["tid"] == e["tid"] and c["ts"] <= e["ts"] and
                      e["ts"] + e["dur"] <= c["ts"] + c["dur"]][0]
                outn = numel(op["args"]["Input Dims"][0])
                n = outn // x
                s = outn * es
            else:
                s = x * es
            add(kind, s, n)
    for r in out.values():
        r["bus_bytes"] = str(r["bus_bytes"])
    json.dump(out, sys.stdout, sort_keys=True)
    print()


if __name__ == "__main__":
    main(sys.argv[1])
