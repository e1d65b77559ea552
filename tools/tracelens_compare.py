#!/usr/bin/env python3
"""Compare tlcost with TraceLens's own published outputs (issue 25, "Check
against the world"; docs/reports.md, "Compared with TraceLens").

TraceLens (github.com/AMD-AGI/TraceLens) ships, next to the traces it tests
(tests/traces/inference/<case>/), the CSVs it computed from them
(perf_csvs/GEMM.csv, perf_csvs/gpu_timeline.csv). Given a git directory of
that repository (a mirror; nothing of it is copied into tlcost), this script
extracts each case's traces to a temporary folder and compares:

(a) per GEMM: TraceLens's GFLOPS_first of each GEMM.csv row (name + input
    dims) with the FLOPs tlcost counts for the op with the same name and
    input dims (`tlcost report --format csv`: one row per op, exact), in the
    case's traces (the profile trace and, for graph replays, the capture
    traces whose ops the replay ran). An op tlcost counts on its enclosing op
    (class not_applicable, reason nested: e.g. aten::mm inside
    aiter::gemm_a16w16) is compared through that parent's count;
(b) the GPU timeline: gpu_timeline.csv's computation, exposed comm, exposed
    memcpy, busy, idle and total times with `tlcost steps`'s buckets summed
    over the windows (computation = the seven compute families, busy =
    computation + exposed communication + exposed memcpy/memset, idle =
    idle_queued + idle_host_bound, total = wall).

Usage: tracelens_compare.py MIRROR_GIT_DIR [TLCOST]  (TLCOST default ./tlcost)
Prints one block per case; exit status 0.
"""
import ast
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

CASES_DIR = "tests/traces/inference"


def git(mirror, *args, binary=False):
    r = subprocess.run(["git", "-C", mirror] + list(args), capture_output=True, check=True)
    return r.stdout if binary else r.stdout.decode()


def cases(mirror):
    files = git(mirror, "ls-tree", "-r", "--name-only", "HEAD", CASES_DIR).split()
    by = {}
    for f in files:
        parts = f[len(CASES_DIR) + 1:].split("/")
        by.setdefault(parts[0], []).append(f)
    return by


def dims_of_tlcost(shapes):
    return tuple(tuple(int(x) for x in m.split(",") if x) for m in re.findall(r"\[([\d,]*)\]", shapes or ""))


def dims_of_tracelens(text):
    try:
        v = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return None
    return tuple(tuple(d) for d in v if isinstance(d, list) and d)


def tlcost_ops(tlcost, trace):
    r = subprocess.run([tlcost, "report", "--format", "csv", trace], capture_output=True, text=True)
    if r.returncode != 0:
        return []
    return list(csv.DictReader(r.stdout.splitlines()))


def compare_gemm(tlcost, traces, gemm_csv):
    index = {}
    for t in traces:  # op ids are per trace: a parent is looked up in its own trace
        rows = tlcost_ops(tlcost, t)
        by_id = {r["id"]: r for r in rows}
        for r in rows:
            r["_parent"] = by_id.get(r["parent"])
            index.setdefault((r["name"], dims_of_tlcost(r["shapes"])), []).append(r)
    out = []
    for g in csv.DictReader(gemm_csv.splitlines()):
        dims = dims_of_tracelens(g.get("Input Dims_first", ""))
        tl = float(g["GFLOPS_first"]) * 1e9
        cand = index.get((g["name"], dims), [])
        vals = set()
        via = ""
        for r in cand:
            if r["class"] == "not_applicable" and r["reason"] == "nested" and r["_parent"]:
                p = r["_parent"]  # the enclosing op that carries the cost (nesting policy)
                while p["_parent"] and not p["flops"]:
                    p = p["_parent"]
                if p["flops"]:
                    vals.add(int(p["flops"]))
                    via = " (counted on its parent " + p["name"] + ")"
            elif r["flops"]:
                vals.add(int(r["flops"]))
        shape = "x".join(g.get(k, "") for k in ("param: B", "param: M", "param: N", "param: K"))
        if not cand:
            verdict = "no op with this name and dims in tlcost's rows"
        elif not vals:
            verdict = "tlcost has no count (" + cand[0]["class"] + ", " + cand[0]["reason"][:60] + ")"
        elif len(vals) == 1:
            v = vals.pop()
            verdict = ("EQUAL" if abs(v - tl) <= 0.5 + 1e-12 * tl else
                       "DIFFERENT: tlcost %d, difference %+d" % (v, v - round(tl))) + via
        else:
            verdict = "tlcost counts differ between calls: %s" % sorted(vals)
        out.append((g["name"], shape, round(tl), verdict))
    return out


def compare_timeline(tlcost, trace, timeline_csv):
    r = subprocess.run([tlcost, "steps", "--format", "json", trace], capture_output=True, text=True)
    if r.returncode != 0:
        return None, r.stderr.strip()
    doc = json.loads(r.stdout)
    fam = ["gemm", "attention", "convolution", "normalisation", "elementwise", "reduction",
           "other_compute"]
    s = {k: 0 for k in doc["steps"][0]["buckets"]}
    wall = 0
    for row in doc["steps"]:
        wall += row["wall_ns"]
        for k, v in row["buckets"].items():
            s[k] += v
    comp = sum(s[f] for f in fam)
    ours = {
        "computation_time": comp,
        "exposed_comm_time": s["exposed_communication"],
        "exposed_memcpy_time": s["exposed_memcpy_memset"],
        "busy_time": comp + s["exposed_communication"] + s["exposed_memcpy_memset"],
        "idle_time": s["idle_queued"] + s["idle_host_bound"],
        "total_time": wall,
    }
    theirs = {row["type"]: float(row["time ms"]) * 1e6 for row in csv.DictReader(timeline_csv.splitlines())}
    return (doc["windows"], len(doc["steps"]), ours, theirs, s), None


def main():
    mirror = sys.argv[1]
    tlcost = sys.argv[2] if len(sys.argv) > 2 else "./tlcost"
    tmp = tempfile.mkdtemp(prefix="tlc-tracelens.")
    for case, files in sorted(cases(mirror).items()):
        timeline = [f for f in files if f.endswith("perf_csvs/gpu_timeline.csv")]
        gemm = [f for f in files if f.endswith("perf_csvs/GEMM.csv")]
        main_traces = [f for f in files if f.endswith(".json.gz") and "/capture_traces/" not in f]
        captures = [f for f in files if f.endswith(".json.gz") and "/capture_traces/" in f]
        if not timeline or not main_traces:
            continue
        local = []
        for f in main_traces + captures:
            p = os.path.join(tmp, case + "__" + os.path.basename(f))
            try:
                data = git(mirror, "show", "HEAD:" + f, binary=True)
            except subprocess.CalledProcessError:
                data = b""
            with open(p, "wb") as fh:
                fh.write(data)
            local.append(p if data else None)
        print("== %s (%s)" % (case, ", ".join(os.path.basename(f) for f in main_traces + captures)))
        if local[0] is None:
            print("  trace not stored in the mirror (a large file left out): skipped")
            continue
        res, err = compare_timeline(tlcost, local[0], git(mirror, "show", "HEAD:" + timeline[0]))
        if res is None:
            print("  tlcost steps refused:", err)
        else:
            windows, n, ours, theirs, s = res
            print("  GPU timeline (%s, %d window(s)); tlcost ns vs TraceLens ms*1e6:" % (windows, n))
            for k, v in ours.items():
                t = theirs.get(k)
                print("    %-20s tlcost %15d  TraceLens %18.3f  diff %+10.3f ns" %
                      (k, v, t if t is not None else float("nan"), v - t if t is not None else float("nan")))
            print("    tlcost split:", ", ".join("%s %d" % (k, v) for k, v in s.items() if v))
        if gemm:
            res = compare_gemm(tlcost, [p for p in local if p], git(mirror, "show", "HEAD:" + gemm[0]))
            eq = sum(1 for r in res if r[3].startswith("EQUAL"))
            print("  GEMM.csv rows: %d, equal FLOPs: %d" % (len(res), eq))
            for name, shape, tl, verdict in res:
                print("    %-32s BxMxNxK %-22s TraceLens %16d  %s" % (name, shape, tl, verdict))
    return 0


if __name__ == "__main__":
    sys.exit(main())
