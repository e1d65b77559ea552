#!/usr/bin/env python3
"""Independent check of `tlcost steps` on a raw Kineto trace (issue 25 item 6).

Reads the trace JSON itself (no tlcost code) and recomputes, per step window
and device, the interval arithmetic the buckets are defined by in
docs/reports.md ("tlcost steps"):

- windows: the `ProfilerStep#N` spans (cpu_op / Operator / user_annotation
  events, ph X; a marker written twice with the same interval counts once);
  without any, each device's span (first kernel/memcpy/memset start to last
  end);
- device work: ph X events of cat kernel/Kernel (kernels), gpu_memcpy/Memcpy/
  gpu_memset/Memset (copies), on device args.device (else pid); a kernel
  whose name contains nccl or rccl (any case) is communication, every other
  kernel is compute;
- a pending launch: from the start of the first cuda_runtime/Runtime/
  cuda_driver event (file order) with the work's correlation id to the
  work's start;
- times in ns as tlcost reads them: microsecond decimals truncated to 3
  fractional digits (exact, via Decimal).

Per (window, device) it derives by hand-written unions, clipped to the
window: compute = |U compute|, comm = |U comm|, overlap = |U comm ^ U compute|,
kernel = |U kernels|, busy = |U kernels+copies|, held = |U kernels+copies+
pending| and checks tlcost's JSON: wall_ns = window length, residual_ns = 0,
the buckets add up to wall_ns, the seven compute families add up to compute,
exposed_communication = comm - overlap, exposed_memcpy_memset = busy - kernel,
idle_queued = held - busy, idle_host_bound = wall - held. The split between
compute families depends on the join's attribution and is not rechecked here.

Usage: steps_check.py TRACE STEPS_JSON  -> prints a summary, exit 1 on a mismatch.
"""
import gzip
import json
import sys
from decimal import Decimal, ROUND_DOWN

KERNEL = {"kernel", "Kernel"}
COPY = {"gpu_memcpy", "Memcpy", "gpu_memset", "Memset"}
RUNTIME = {"cuda_runtime", "Runtime", "cuda_driver"}
STEP_CATS = {"cpu_op", "Operator", "user_annotation"}
FAMILIES = ["gemm", "attention", "convolution", "normalisation", "elementwise", "reduction",
            "other_compute"]


def ns(v):
    return int((Decimal(v) * 1000).to_integral_value(rounding=ROUND_DOWN))


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        data = json.load(f, parse_float=Decimal)
    return data["traceEvents"] if isinstance(data, dict) else data


def union(iv, lo, hi):
    """Merged intervals of iv clipped to [lo, hi)."""
    out = []
    for s, e in sorted((max(s, lo), min(e, hi)) for s, e in iv):
        if e < s:
            continue
        if out and s <= out[-1][1]:
            if e > out[-1][1]:
                out[-1][1] = e
        else:
            out.append([s, e])
    return out


def length(m):
    return sum(e - s for s, e in m)


def intersect(a, b):
    i = j = t = 0
    while i < len(a) and j < len(b):
        lo, hi = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if hi > lo:
            t += hi - lo
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return t


def main():
    trace, steps_json = sys.argv[1], sys.argv[2]
    ev = load(trace)
    first_call = {}
    work = {}  # device -> list of (start, end, kind, corr); kind: comm/compute/copy
    steps = set()
    for e in ev:
        if not isinstance(e, dict) or e.get("ph") != "X" or "ts" not in e or "dur" not in e:
            continue
        cat, name, args = e.get("cat"), e.get("name") or "", e.get("args") or {}
        if cat in RUNTIME:
            c = args.get("correlation")
            if c is not None and c not in first_call:
                first_call[c] = ns(e["ts"])
        elif cat in KERNEL or cat in COPY:
            s = ns(e["ts"])
            end = s + ns(e["dur"])
            if end < s:
                continue
            dev = args.get("device", e.get("pid"))
            low = name.lower()
            kind = "copy" if cat in COPY else ("comm" if "nccl" in low or "rccl" in low else "compute")
            work.setdefault(dev, []).append((s, end, kind, args.get("correlation")))
        elif cat in STEP_CATS and name.startswith("ProfilerStep#"):
            s = ns(e["ts"])
            steps.add((s, s + ns(e["dur"])))
    with open(steps_json) as f:
        doc = json.load(f)
    assert doc["schema"] == "tlcost.steps/1", doc["schema"]
    rows = doc["steps"]
    marked = bool(steps)
    assert doc["windows"] == ("profiler_steps" if marked else "device_span"), doc["windows"]
    expect_rows = len(steps) * len(work) if marked else len(work)
    bad = 0
    if len(rows) != expect_rows:
        print(f"rows: tlcost {len(rows)}, expected {expect_rows}")
        bad += 1
    per_dev = {}
    for dev, w in work.items():
        pend = [(first_call[c], s) for s, _, _, c in w
                if c is not None and c in first_call and first_call[c] < s]
        per_dev[dev] = (w, pend)
    totals = {"wall": 0, "busy": 0}
    for r in rows:
        dev = r["device"]
        w, pend = per_dev[dev]
        if marked:
            lo, hi = r["start_ns"], r["end_ns"]
            if (lo, hi) not in steps:
                print(f"step window [{lo}, {hi}) is no ProfilerStep# span of the trace")
                bad += 1
        else:
            lo, hi = min(s for s, *_ in w), max(e for _, e, *_ in w)
        wall = hi - lo
        comp = union([(s, e) for s, e, k, _ in w if k == "compute"], lo, hi)
        comm = union([(s, e) for s, e, k, _ in w if k == "comm"], lo, hi)
        kern = length(union([(s, e) for s, e, k, _ in w if k != "copy"], lo, hi))
        busy = length(union([(s, e) for s, e, *_ in w], lo, hi))
        held = length(union([(s, e) for s, e, *_ in w] + pend, lo, hi))
        b = r["buckets"]
        want = {
            "wall_ns": wall, "residual_ns": 0, "sum of buckets": wall,
            "sum of compute families": length(comp),
            "exposed_communication": length(comm) - intersect(comm, comp),
            "exposed_memcpy_memset": busy - kern,
            "idle_queued": held - busy, "idle_host_bound": wall - held,
        }
        got = {
            "wall_ns": r["wall_ns"], "residual_ns": r["residual_ns"],
            "sum of buckets": sum(b.values()),
            "sum of compute families": sum(b[f] for f in FAMILIES),
            "exposed_communication": b["exposed_communication"],
            "exposed_memcpy_memset": b["exposed_memcpy_memset"],
            "idle_queued": b["idle_queued"], "idle_host_bound": b["idle_host_bound"],
        }
        for k in want:
            if want[k] != got[k]:
                print(f"step {r['step']} device {dev}: {k}: tlcost {got[k]}, recomputed {want[k]}")
                bad += 1
        totals["wall"] += wall
        totals["busy"] += busy
    print(f"{trace}: {len(rows)} step rows ({'ProfilerStep#' if marked else 'device span'}), "
          f"{len(work)} device(s), wall {totals['wall']} ns, busy {totals['busy']} ns, "
          f"{'OK' if not bad else str(bad) + ' MISMATCHES'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
