#!/usr/bin/env python3
"""The share of kernel time with a known cost (issue 26, "Measure"), per
trace, before and after capture pairing, with what remains under 99%.

For each trace: `tlcost join --format json` (before: the replay alone;
after: with --capture when the trace has a capture) gives kernel_ns and
kernel_known_cost_ns (kernel time whose costed row has a known cost,
docs/join.md). Kernels whose launch the trace never recorded (cause "no
runtime call with this correlation": launched before the profiling window)
are unattributable by any tool and are left out of the denominator only,
as the issue asks; their time is shown. Under 99%, the rest of the kernel
time is listed: unattributed by cause, on rows that are not ops (by
wrapper), and on ops without a known cost (by op type, from `tlcost
profile --by type`, whose unknown-cost rows carry kernel time).

Usage: known_cost_share.py [--tlcost PATH] [--markdown] NAME=REPLAY[,CAPTURE...] ...
Only the Python standard library is used.
"""
import argparse
import json
import subprocess
import sys

PRE_WINDOW = "no runtime call with this correlation"


def run_json(tlcost, args):
    p = subprocess.run([tlcost] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    if p.returncode != 0:
        raise SystemExit("tlcost %s failed: %s" % (" ".join(args), p.stderr.strip()))
    return json.loads(p.stdout)


def figures(tlcost, replay, captures):
    cap = []
    for c in captures:
        cap += ["--capture", c]
    j = run_json(tlcost, ["join", "--format", "json"] + cap + [replay])
    kernels = [l for l in j["launches"] if l["kind"] == "kernel"]
    pre = sum(l["duration_ns"] for l in kernels
              if l["status"] == "unattributed" and l.get("why", "").startswith(PRE_WINDOW))
    total = j["kernel_ns"] - pre
    known = j["kernel_known_cost_ns"]
    causes = {}
    for l in kernels:
        if l["status"] == "unattributed" and not l.get("why", "").startswith(PRE_WINDOW):
            causes[l.get("why", "")] = causes.get(l.get("why", ""), 0) + l["duration_ns"]
    wrappers = [(w["name"], w["time_ns"]) for w in j.get("wrappers", [])]
    # kernel_known_cost_ns counts ambiguous groups whose every op has a known
    # cost: the rest of the time on ops (attributed or in a group) is unknown
    on_ops_unknown = (j["kernel_attributed_ns"] + j["kernel_ambiguous_ns"]
                      - j["kernel_on_wrapper_ns"] - known)
    prof = run_json(tlcost, ["profile", "--format", "json", "--top", "0"] + cap + [replay])
    unknown_types = sorted(((r["key"], r["kernel_time_ns"]) for r in prof["rows"]
                            if r.get("unknown", 0) and r.get("kernel_time_ns")),
                           key=lambda x: -x[1])
    return {
        "kernel_ns": j["kernel_ns"], "pre_window_ns": pre, "denominator_ns": total,
        "known_ns": known, "share": known / total if total else None,
        "pairing": j.get("capture_pairing"), "causes": causes, "wrappers": wrappers,
        "on_ops_unknown_ns": on_ops_unknown, "unknown_types": unknown_types,
    }


def pct(x, total):
    return "%.1f%%" % (100.0 * x / total) if total else "-"


def ms(ns):
    return "%.3f ms" % (ns / 1e6)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tlcost", default="./tlcost")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("traces", nargs="+", help="NAME=REPLAY[,CAPTURE...]")
    a = ap.parse_args()
    rows = []
    for spec in a.traces:
        name, _, paths = spec.partition("=")
        parts = paths.split(",")
        before = figures(a.tlcost, parts[0], [])
        after = figures(a.tlcost, parts[0], parts[1:]) if len(parts) > 1 else before
        rows.append((name, before, after, len(parts) > 1))
    if not a.markdown:
        json.dump([{"trace": n, "before": b, "after": f} for n, b, f, _ in rows], sys.stdout,
                  indent=1)
        print()
        return
    print("| trace | kernel time | left out (launched before the window) | known-cost share before | "
          "after (capture pairing) |")
    print("|---|---:|---:|---:|---:|")
    for n, b, f, paired in rows:
        print("| `%s` | %s | %s | %s | %s |" % (
            n, ms(b["kernel_ns"]), ms(b["pre_window_ns"]), pct(b["known_ns"], b["denominator_ns"]),
            pct(f["known_ns"], f["denominator_ns"]) if paired else "(no capture)"))
    for n, b, f, paired in rows:
        if f["denominator_ns"] and f["known_ns"] * 100 >= 99 * f["denominator_ns"]:
            continue
        t = f["denominator_ns"]
        print("\n**`%s`** (%s): what remains, by share of kernel time (%s):\n" % (
            n, "after capture pairing" if paired else "no capture", ms(t)))
        for why, ns in sorted(f["causes"].items(), key=lambda x: -x[1]):
            print("- unattributed, %s: %s (%s)" % (why, ms(ns), pct(ns, t)))
        for w, ns in f["wrappers"]:
            print("- on `%s`, not an op: %s (%s)" % (w, ms(ns), pct(ns, t)))
        if f["on_ops_unknown_ns"] > 0:
            print("- on ops (or ambiguous groups) without a known cost: %s (%s); by op type "
                  "(attributed time only): %s" % (
                ms(f["on_ops_unknown_ns"]), pct(f["on_ops_unknown_ns"], t),
                ", ".join("`%s` %s" % (k, pct(v, t)) for k, v in f["unknown_types"][:8])))


if __name__ == "__main__":
    main()
