#!/usr/bin/env python3
"""A realistic synthetic set of rank traces from one real rank's trace.

usage: make_ranks.py SRC OUTDIR NRANKS SLOW_RANK SLOWDOWN [--no-wait]

Rank r is the real trace with: distributedInfo.rank = r; its clock shifted
by r seconds + r*37.5 us (separate hosts: clocks disagree); for the slowed
rank, every event stretched in time by SLOWDOWN around the trace start (its
kernels run that much longer, so it reaches each collective late). The
other ranks wait for it: each of their NCCL/RCCL kernels ends when the
slowed rank's matching kernel ends (a collective completes on every rank
together); with --no-wait they do not (then the collectives' ends disagree
across ranks and no clock alignment can hold). Standard library only."""
import gzip
import json
import sys


def main(src, outdir, nranks, slow, factor, wait=True):
    text = gzip.open(src, "rt").read()
    base = json.loads(text)
    xs = [e for e in base["traceEvents"] if e.get("ph") == "X" and "ts" in e]
    t0 = min(float(e["ts"]) for e in xs)
    comm = sorted((e for e in xs if e.get("cat") == "kernel" and "ccl" in e["name"].lower()),
                  key=lambda e: float(e["ts"]))
    slow_end = [t0 + (float(e["ts"]) + float(e["dur"]) - t0) * factor for e in comm]
    for r in range(nranks):
        d = json.loads(text)
        d["distributedInfo"]["rank"] = r
        evs = [e for e in d["traceEvents"] if e.get("ph") == "X" and "ts" in e]
        if r == slow:
            for e in d["traceEvents"]:
                if "ts" in e:
                    e["ts"] = round(t0 + (float(e["ts"]) - t0) * factor, 3)
                if "dur" in e:
                    e["dur"] = round(float(e["dur"]) * factor, 3)
        elif wait:
            mine = sorted((e for e in evs if e.get("cat") == "kernel" and "ccl" in e["name"].lower()),
                          key=lambda e: float(e["ts"]))
            for e, end in zip(mine, slow_end):
                e["dur"] = round(max(float(e["dur"]), end - float(e["ts"])), 3)
        shift = r * 1e6 + r * 37.5
        for e in d["traceEvents"]:
            if "ts" in e:
                e["ts"] = round(float(e["ts"]) + shift, 3)
        with gzip.open(f"{outdir}/rank{r}.json.gz", "wt", compresslevel=1) as f:
            json.dump(d, f)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]),
         "--no-wait" not in sys.argv[6:])
