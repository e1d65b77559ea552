#!/usr/bin/env python3
"""Collective fields on NCCL/RCCL kernel events: a synthetic fixture made from
a real trace, and an independent sum over the kernels' own args.

  kernel_comms.py make IN.json.gz BOTH.json.gz KERNELS.json.gz
  kernel_comms.py sum TRACE.json.gz

make: newer Kineto (ChromeTraceLogger::appendCollectiveArgs, pytorch/kineto
libkineto/src/output_json.cpp) copies the collective metadata of the
record_param_comms op a kernel is linked to onto the kernel event, with the
kernel's "External id" set to that op's: "Collective name" and "dtype"
quoted, "In msg nelems", "Out msg nelems", "Group size" raw numbers,
"In split size" / "Out split size" quoted lists (only when both are
recorded), "Process Group Name", "Process Group Description",
"Process Group Ranks" quoted. The link here is the one the trace records:
kernel correlation -> launch call (cuda_runtime) -> its External id ->
the record_param_comms op. BOTH keeps everything else as it is (host rows
and kernels both carry the fields); KERNELS also drops every
record_param_comms row and every nccl:* annotation, so the kernels' args are
the only record of the sizes.

sum: one call per kernel event carrying "Collective name" (a zero-byte
marker such as wait or barrier moves nothing and is left out); message size
S and bus factor per nccl-tests doc/PERFORMANCE.md (as tests/cli/comms/raw_comms.py);
prints {kind: {calls, message_bytes, bus_bytes}} with bus bytes an exact
fraction string. Written from the trace format, not from tlcost's reader."""
import gzip
import json
import os
import sys
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from raw_comms import ES, FACTOR, KIND  # noqa: E402  (tables only)

FIELDS = ("Collective name", "In msg nelems", "Out msg nelems", "Group size", "dtype")
OPTIONAL = ("Process Group Name", "Process Group Description", "Process Group Ranks")


def load(path):
    return json.load(gzip.open(path) if path.endswith(".gz") else open(path))


def make(src, both, kernels_only):
    doc = load(src)
    ev = doc["traceEvents"]
    rpc = {e["args"]["External id"]: e for e in ev
           if e.get("cat") == "cpu_op" and e.get("name") == "record_param_comms"
           and "External id" in e.get("args", {})}
    launch = {e["args"]["correlation"]: e for e in ev
              if e.get("cat") == "cuda_runtime" and "correlation" in e.get("args", {})}
    n = 0
    for e in ev:
        if e.get("cat") != "kernel":
            continue
        a = e.setdefault("args", {})
        lc = launch.get(a.get("correlation"))
        op = rpc.get(lc["args"].get("External id")) if lc else None
        if op is None or not all(k in op["args"] for k in FIELDS):
            continue
        oa = op["args"]
        a["External id"] = oa["External id"]
        for k in FIELDS:
            a[k] = oa[k]
        if oa.get("In split size") and oa.get("Out split size"):
            a["In split size"] = oa["In split size"]
            a["Out split size"] = oa["Out split size"]
        for k in OPTIONAL:
            if k in oa:
                a[k] = oa[k]
        n += 1
    with gzip.open(both, "wt") as f:
        json.dump(doc, f)
    doc["traceEvents"] = [e for e in ev if not (
        (e.get("cat") == "cpu_op" and e.get("name") == "record_param_comms") or
        (e.get("cat") == "user_annotation" and str(e.get("name", "")).startswith("nccl:")))]
    with gzip.open(kernels_only, "wt") as f:
        json.dump(doc, f)
    print(n, "kernels given collective fields", file=sys.stderr)


def kernel_sum(path):
    out = {}
    for e in load(path)["traceEvents"]:
        a = e.get("args", {})
        if e.get("cat") != "kernel" or "Collective name" not in a:
            continue
        if a["Collective name"] in ("wait", "barrier"):
            continue
        kind = KIND[a["Collective name"]]
        es, n = ES[a["dtype"]], a["Group size"]
        s = (a["Out msg nelems"] if kind == "allgather" else a["In msg nelems"]) * es
        r = out.setdefault(kind, {"calls": 0, "message_bytes": 0, "bus_bytes": Fraction(0)})
        r["calls"] += 1
        r["message_bytes"] += s
        r["bus_bytes"] += s * FACTOR[kind](n)
    for r in out.values():
        r["bus_bytes"] = str(r["bus_bytes"])
    json.dump(out, sys.stdout, sort_keys=True)
    print()


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(*sys.argv[2:5])
    else:
        kernel_sum(sys.argv[2])
