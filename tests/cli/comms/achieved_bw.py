#!/usr/bin/env python3
"""Independent achieved bandwidth of each collective kind in a Kineto trace.

For every c10d::* collective op: its kernel time is the duration of the
kernels launched (kernel.correlation == runtime call.correlation) by runtime
calls that either carry the External id of the op or of a cpu_op nested in
it, or (traces whose runtime calls carry their own correlation as External
id) start inside the op's interval on its host thread: the device-time
join's two paths, rolled up to the op (docs/join.md). Message and bus bytes per call come from
raw_comms.py's definitions (nccl-tests). Prints {kind: {algbw, busbw}} in
bytes/s over the calls' summed kernel time.

  achieved_bw.py overlap TRACE  prints the communication/computation overlap
  instead: communication kernels are the kernels whose name holds "nccl" or
  "rccl"; compute kernels are the others; comm_ns is the union of the
  communication kernels' intervals, overlap_ns its intersection with the
  union of the compute kernels' (HTA's definition), in exact integer ns
  (ts/dur read as decimals, truncated to the ns as the trace format says),
  for all communication kernels ("all") and for those of each collective
  kind's ops ("by_kind"), the kernels matched to ops as above."""
import gzip
import json
import sys
from fractions import Fraction

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from raw_comms import ES, FACTOR, KIND, numel  # noqa: E402


def main(path):
    doc = json.load(gzip.open(path))
    world = doc["distributedInfo"]["world_size"]
    ev = [e for e in doc["traceEvents"] if e.get("ph") == "X"]
    cpu = [e for e in ev if e.get("cat") == "cpu_op"]
    ann = [e for e in ev if e.get("cat") == "user_annotation" and e["name"].startswith("nccl:")]
    rt, calls = {}, []
    for e in ev:
        if e.get("cat") == "cuda_runtime" and "correlation" in e.get("args", {}):
            calls.append(e)
            if "External id" in e["args"]:
                rt.setdefault(e["args"]["External id"], []).append(e["args"]["correlation"])
    cpu_ext = {e["args"].get("External id") for e in cpu}
    by_ext = any(c["args"].get("External id") in cpu_ext and
                 c["args"].get("External id") != c["args"]["correlation"] for c in calls)
    kdur = {}
    for e in ev:
        if e.get("cat") == "kernel":
            kdur[e["args"]["correlation"]] = kdur.get(e["args"]["correlation"], 0) + e["dur"]

    def inside(p, c):
        return p["tid"] == c["tid"] and p["ts"] <= c["ts"] and c["ts"] + c["dur"] <= p["ts"] + p["dur"]

    out = {}
    for op in (e for e in cpu if e["name"].startswith("c10d::")):
        if by_ext:
            exts = {op["args"]["External id"]} | {c["args"]["External id"] for c in cpu
                                                   if c is not op and inside(op, c)}
            corrs = [corr for x in exts for corr in rt.get(x, [])]
        else:
            corrs = [c["args"]["correlation"] for c in calls
                     if c["tid"] == op["tid"] and op["ts"] <= c["ts"] <= op["ts"] + op["dur"]]
        t = sum(kdur.get(corr, 0) for corr in corrs) * 1e-6
        a = [x for x in ann if inside(op, x)][0]
        kind = KIND[a["name"][5:]]
        x = numel(a["args"]["Input Dims"][0]) * ES[a["args"]["Input type"][0]]
        n = world
        if kind == "allgather":
            outn = numel(op["args"]["Input Dims"][0]) * ES[a["args"]["Input type"][0]]
            n, x = outn // x, outn
        r = out.setdefault(kind, [0, Fraction(0), 0.0])
        r[0] += x
        r[1] += x * FACTOR[kind](n)
        r[2] += t
    json.dump({k: {"algbw": s / t, "busbw": float(b) / t} for k, (s, b, t) in out.items()},
              sys.stdout, sort_keys=True)
    print()


def union(iv):
    out = []
    for a, b in sorted(iv):
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return out


def inter(u, v):
    t, i, j = 0, 0, 0
    while i < len(u) and j < len(v):
        lo, hi = max(u[i][0], v[j][0]), min(u[i][1], v[j][1])
        t += max(0, hi - lo)
        if u[i][1] < v[j][1]:
            i += 1
        else:
            j += 1
    return t


def overlap(path):
    from decimal import Decimal
    doc = json.load(gzip.open(path), parse_float=Decimal)
    ev = [e for e in doc["traceEvents"] if e.get("ph") == "X"]

    def ns(e):
        a = int(Decimal(e["ts"]) * 1000)
        return a, a + int(Decimal(e["dur"]) * 1000)
    kern = [e for e in ev if e.get("cat") == "kernel"]
    is_comm = [("nccl" in e["name"].lower() or "rccl" in e["name"].lower()) for e in kern]
    comp = union([ns(e) for e, c in zip(kern, is_comm) if not c])
    comm = [e for e, c in zip(kern, is_comm) if c]
    # kernels of each kind: launched (containment, as main()) inside a c10d op
    cpu = [e for e in ev if e.get("cat") == "cpu_op"]
    ann = [e for e in ev if e.get("cat") == "user_annotation" and e["name"].startswith("nccl:")]
    calls = {e["args"]["correlation"]: e for e in ev
             if e.get("cat") == "cuda_runtime" and "correlation" in e.get("args", {})}

    def inside(p, c):
        return p["tid"] == c["tid"] and p["ts"] <= c["ts"] and c["ts"] + c["dur"] <= p["ts"] + p["dur"]
    kind_of = {}
    for op in (e for e in cpu if e["name"].startswith("c10d::")):
        a = [x for x in ann if inside(op, x)][0]
        for corr, c in calls.items():
            if c["tid"] == op["tid"] and op["ts"] <= c["ts"] <= op["ts"] + op["dur"]:
                kind_of[corr] = KIND[a["name"][5:]]
    out = {"all": {}, "by_kind": {}}
    u = union([ns(e) for e in comm])
    out["all"] = {"comm_ns": sum(b - a for a, b in u), "overlap_ns": inter(u, comp)}
    for kind in sorted(set(kind_of.values())):
        u = union([ns(e) for e in comm if kind_of.get(e["args"]["correlation"]) == kind])
        out["by_kind"][kind] = {"comm_ns": sum(b - a for a, b in u), "overlap_ns": inter(u, comp)}
    json.dump(out, sys.stdout, sort_keys=True)
    print()


if __name__ == "__main__":
    if sys.argv[1] == "overlap":
        overlap(sys.argv[2])
    else:
        main(sys.argv[1])
