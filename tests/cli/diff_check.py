#!/usr/bin/env python3
"""Independent checks of `tlcost diff --format json --top 0 A B` (docs/diff.md).

Usage: diff_check.py DIFF_JSON A B [--formulas] [--same]

Always (any inputs):
  - conservation: for every figure, the rows' changes add up to the totals'
    change, and the totals' change is B - A of the totals, for all phases
    and per phase; on every row with time, work + rate + unsplit = time;
  - the op rows of each side, counted from the raw file (op log lines with
    an "op"; Kineto events of cat cpu_op / user_annotation are not compared,
    their op rows are the reader's), equal the totals' counts (op logs).
With --formulas (op logs with aten::linear, relu, mm, bmm only): the script
aligns the raw rows itself (its own dict-of-queues, most specific first),
costs them from docs/rules.md's formulas, and compares every group's
counts, MACs, other FLOPs and bytes, and each side's kernel time from the
raw kernel/runtime records (correlation -> external id -> op id).
With --cpu-op-rows (Kineto traces): each side's op rows equal the raw
trace's cpu_op events.
With --same: every change is 0.
Only the Python standard library is used.
"""
import gzip
import json
import sys
from collections import OrderedDict, defaultdict

FIG = ["count", "unknown", "macs", "other_flops", "flops", "bytes"]
TIME = ["kernel_ns", "work_ns", "rate_ns", "unsplit_ns"]
fails = []


def fail(msg):
    fails.append(msg)
    print("FAIL:", msg)


def num(v):
    return None if v is None else int(v)


def check_conservation(doc):
    rows = doc["rows"]
    if doc["hidden_rows"]:
        fail("run with --top 0: %d rows hidden" % doc["hidden_rows"])
    totals = {t["phase"]: t for t in doc["totals"]}
    for phase, t in totals.items():
        for f in FIG:
            a, b, c = num(t["a"][f]), num(t["b"][f]), num(t["change"][f])
            if a is not None and b is not None and b - a != c:
                fail("%s %s: change %s != B - A = %s" % (phase, f, c, b - a))
        if t["has_time"]:
            ch = t["change"]
            if t["b"]["kernel_ns"] - t["a"]["kernel_ns"] != ch["kernel_ns"]:
                fail("%s kernel_ns change is not B - A" % phase)
            if ch["work_ns"] + ch["rate_ns"] + ch["unsplit_ns"] != ch["kernel_ns"]:
                fail("%s: work + rate + unsplit != time" % phase)
        if not rows and ("inputs" in doc or "ranks" in doc):
            continue  # totals only (partials, a sum over ranks): no rows to add up
        sel = [r for r in rows if phase == "all" or r["phase"] == phase]
        for f in FIG:
            vals = [num(r["change"][f]) for r in sel]
            if None in vals or t["change"][f] is None:
                continue
            if sum(vals) != num(t["change"][f]):
                fail("%s %s: rows add up to %d, totals say %s" % (phase, f, sum(vals),
                                                                    t["change"][f]))
        if t["has_time"]:
            for f in TIME:
                s = sum(r["change"].get(f, 0) for r in sel if r["has_time"])
                if s != t["change"][f]:
                    fail("%s %s: rows add up to %d, totals say %d" % (phase, f, s,
                                                                        t["change"][f]))
    for r in rows:
        if r["has_time"]:
            ch = r["change"]
            if ch["work_ns"] + ch["rate_ns"] + ch["unsplit_ns"] != ch["kernel_ns"]:
                fail("row %s: work + rate + unsplit != time" % r["key"])
    return totals


def read_oplog(path):
    op = gzip.open if path.endswith(".gz") else open
    ops, kernels, runtime = [], [], {}
    with op(path, "rt") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            rec = json.loads(line)
            if "format" in rec and "op" not in rec:
                continue
            if "op" in rec:
                ops.append(rec)
            elif rec.get("kind") == "kernel":
                kernels.append(rec)
            elif rec.get("kind") == "runtime":
                runtime[rec["correlation"]] = rec
    return ops, kernels, runtime


def prod(v):
    p = 1
    for x in v:
        p *= x
    return p


def cost(rec):
    """(macs, other, bytes) from docs/rules.md; None for an op without a rule here."""
    a = [x["shape"] for x in rec["args"] if x]
    out = [x["shape"] for x in rec.get("outputs", []) if x]
    nbytes = 4 * (sum(prod(s) for s in a) + sum(prod(s) for s in out))  # float32 only
    name = rec["op"]
    if name == "aten::linear":
        x, w = a[0], a[1]
        rows_ = prod(x[:-1])
        macs = rows_ * x[-1] * w[0]
        other = rows_ * w[0] if len(a) > 2 else 0
        return macs, other, nbytes
    if name == "aten::mm":
        return a[0][0] * a[0][1] * a[1][1], 0, nbytes
    if name == "aten::bmm":
        return a[0][0] * a[0][1] * a[0][2] * a[1][2], 0, nbytes
    if name == "aten::relu":
        return 0, prod(a[0]), nbytes
    return None


def kernel_ns_by_op(kernels, runtime):
    t = defaultdict(int)
    for k in kernels:
        rt = runtime.get(k["correlation"])
        if rt is not None:
            t[rt["external_id"]] += k["end_ns"] - k["start_ns"]
    return t


def align(ops_a, ops_b):
    """Most specific first, n-th unmatched call against n-th: the same rule
    as docs/diff.md, written again with dicts of queues."""
    def key(r, level):
        k = [r.get("phase", "forward"), r["op"], r.get("overload", "")]
        if level <= 1:
            k.append(r.get("module", ""))
        if level == 0:
            k.append(json.dumps([x and (x["shape"], x.get("dtype")) for x in r["args"]]))
        return tuple(k)
    mate_a, mate_b, level_of = {}, {}, {}
    for level in range(3):
        q = defaultdict(list)
        for i, r in enumerate(ops_a):
            if i not in mate_a:
                q[key(r, level)].append(i)
        pos = defaultdict(int)
        for j, r in enumerate(ops_b):
            if j in mate_b:
                continue
            k = key(r, level)
            if pos[k] < len(q.get(k, [])):
                i = q[k][pos[k]]
                pos[k] += 1
                mate_a[i], mate_b[j], level_of[i] = j, i, level
    return mate_a, mate_b, level_of


def check_formulas(doc, a_path, b_path):
    (oa, ka, ra), (ob, kb, rb) = read_oplog(a_path), read_oplog(b_path)
    ta, tb = kernel_ns_by_op(ka, ra), kernel_ns_by_op(kb, rb)
    mate_a, mate_b, level_of = align(oa, ob)
    names = ["same_call", "shape_change", "same_type"]
    groups = OrderedDict()

    def add(match, ra_, rb_):
        r = ra_ or rb_
        k = (match, r["op"], ra_ and ra_.get("module", ""), rb_ and rb_.get("module", ""),
             ra_ and json.dumps(ra_["args"]), rb_ and json.dumps(rb_["args"]))
        g = groups.setdefault(k, {"a": [0, 0, 0, 0, 0], "b": [0, 0, 0, 0, 0]})
        for side, rec, t in (("a", ra_, ta), ("b", rb_, tb)):
            if rec is None:
                continue
            c = cost(rec)
            s = g[side]
            s[0] += 1
            if c is None:
                s[1] += 1
            else:
                s[2] += c[0]
                s[3] += c[1]
                s[4] += c[2]
    for i, r in enumerate(oa):
        if i in mate_a:
            add(names[level_of[i]], r, ob[mate_a[i]])
        else:
            add("only_a", r, None)
    for j, r in enumerate(ob):
        if j not in mate_b:
            add("only_b", None, r)
    got = {}
    for r in doc["rows"]:
        k = (r["match"], r["name"], r["module_a"], r["module_b"])
        got.setdefault(k, []).append(r)
    for k, g in groups.items():
        kk = k[:4]
        cand = got.get(kk, [])
        if not cand:
            fail("group %s missing from the diff" % (kk,))
            continue
        r = cand.pop(0)
        for side in ("a", "b"):
            s = g[side]
            want = {"count": s[0], "unknown": s[1], "macs": s[2], "other_flops": s[3]}
            for f, v in want.items():
                if num(r[side][f]) != v:
                    fail("%s side %s %s: diff says %s, raw inputs give %d" %
                         (kk, side, f, r[side][f], v))
            if s[1] == 0 and num(r[side]["bytes"]) != s[4]:
                fail("%s side %s bytes: diff says %s, raw gives %d" % (kk, side,
                                                                     r[side]["bytes"], s[4]))
    t = [x for x in doc["totals"] if x["phase"] == "all"][0]
    if t["has_time"]:
        for side, tm in (("a", ta), ("b", tb)):
            if t[side]["kernel_ns"] != sum(tm.values()):
                fail("side %s kernel_ns: diff says %d, raw kernels give %d" %
                     (side, t[side]["kernel_ns"], sum(tm.values())))
    print("ok: %d groups checked against the raw inputs" % len(groups))


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    flags = [a for a in sys.argv[1:] if a.startswith("--")]
    with open(args[0]) as f:
        doc = json.load(f)
    if doc.get("schema") != "tlcost.diff/1":
        fail("schema is %r" % doc.get("schema"))
    totals = check_conservation(doc)
    a_path, b_path = args[1], args[2]
    if not a_path.endswith((".json", ".json.gz")):
        for side, p in (("a", a_path), ("b", b_path)):
            n = len(read_oplog(p)[0])
            if totals["all"][side]["count"] != n:
                fail("side %s: %d op rows in the diff, %d op records in %s" %
                     (side, totals["all"][side]["count"], n, p))
    if "--cpu-op-rows" in flags:  # a trace whose op rows are its cpu_op events
        for side, p in (("a", a_path), ("b", b_path)):
            op = gzip.open if p.endswith(".gz") else open
            with op(p, "rt") as f:
                n = sum(1 for e in json.load(f)["traceEvents"] if e.get("cat") == "cpu_op")
            if totals["all"][side]["count"] != n:
                fail("side %s: %d op rows in the diff, %d cpu_op events in %s" %
                     (side, totals["all"][side]["count"], n, p))
    if "--formulas" in flags:
        check_formulas(doc, a_path, b_path)
    if "--same" in flags:
        for r in doc["rows"] + doc["totals"]:
            for f, v in r["change"].items():
                if v is None and r["a"].get(f, 0) is None and r["b"].get(f, 0) is None:
                    continue  # unknown on both sides (bytes): not a change, not a 0
                if v not in (0, "0"):
                    fail("diff A A: %s %s = %s, not 0" % (r["key"], f, v))
    print("ok: conservation over %d rows" % len(doc["rows"]) if not fails else
          "%d failures" % len(fails))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
