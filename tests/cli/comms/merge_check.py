#!/usr/bin/env python3
"""Helpers of tests/cli/merge_cli.sh (standard library only).

  oplog-parts SRC OUTDIR N   augment an op log with unknown ops and collectives,
                             write OUTDIR/whole.jsonl and OUTDIR/partK.jsonl
                             (K = 1..N, consecutive slices, each with the header)
  trace-rank SRC OUT RANK    a copy of a Kineto trace as another rank of the same
                             job: distributedInfo.rank = RANK, External ids and
                             correlations + RANK*10^8, pid and tid + RANK*10^6,
                             so that two ranks can be concatenated into one trace
  trace-concat OUT A B...    one trace holding every event of A, B, ... (A's header)
  compare X Y                X and Y agree field by field, except what only a merge
                             has (input, partials, distributed, example_sources,
                             example_shape_sources); exit 1 with the first difference
  compare-join X Y           the same for join documents (tlcost join --format json),
                             except also what a merge does not carry or cannot add:
                             launches and ambiguous_groups (each input's own launches
                             and ops), path_reason (its counts are per input), and the
                             unions of intervals on one device clock (busy_ns, the
                             communication overlap): a trace holding two copies of a
                             rank's events on the same device ids and timestamps
                             unites them, a merge sums its inputs' (distinct devices);
                             and a refusal's wording (the merge names its own reason)
"""
import gzip
import json
import sys


def load(path):
    return json.load(gzip.open(path) if path.endswith(".gz") else open(path))


def oplog_parts(src, outdir, n):
    op = gzip.open(src, "rt") if src.endswith(".gz") else open(src)
    lines = op.read().splitlines()
    header, recs = lines[0], [json.loads(x) for x in lines[1:] if x.strip()]
    out, nid = [], 10 ** 7
    # unknown ops (no rule) with distinct shapes spread over the log, and
    # collectives (group of 4, Float): the ledger and communication merge too
    for i, r in enumerate(recs):
        out.append(r)
        if i % 97 == 5:
            out.append({"id": nid, "op": "mylib::fused_gelu", "phase": r.get("phase", "forward"),
                        "args": [{"shape": [2, (i % 5) + 1], "dtype": "float32"}]})
            nid += 1
        if i % 151 == 7:
            out.append({"id": nid, "op": "c10d::allreduce_", "phase": "backward", "args": [],
                        "kwargs": {"collective": "allreduce", "in_nelems": 1000 + i,
                                   "dtype": "Float", "group_size": 3}})
            nid += 1
    with open(f"{outdir}/whole.jsonl", "w") as f:
        f.write(header + "\n" + "".join(json.dumps(r) + "\n" for r in out))
    size = (len(out) + n - 1) // n
    for k in range(n):
        with open(f"{outdir}/part{k + 1}.jsonl", "w") as f:
            f.write(header + "\n")
            f.write("".join(json.dumps(r) + "\n" for r in out[k * size:(k + 1) * size]))


def trace_rank(src, out, rank):
    d = load(src)
    d.setdefault("distributedInfo", {})["rank"] = rank
    off, poff = rank * 10 ** 8, rank * 10 ** 6
    for e in d["traceEvents"]:
        a = e.get("args")
        if isinstance(a, dict):
            for k in ("External id", "correlation"):
                if isinstance(a.get(k), int):
                    a[k] += off
        for k in ("pid", "tid"):
            if isinstance(e.get(k), int):
                e[k] += poff
    json.dump(d, open(out, "w"))


def trace_concat(out, srcs):
    docs = [load(s) for s in srcs]
    d = docs[0]
    for o in docs[1:]:
        d["traceEvents"].extend(o["traceEvents"])
    json.dump(d, open(out, "w"))


def strip(d):
    d = dict(d)
    for k in ("input", "partials", "distributed"):
        d.pop(k, None)
    d["ledger"] = [{k: v for k, v in e.items()
                    if k not in ("example_sources", "example_shape_sources")} for e in d["ledger"]]
    return d


def compare(x, y):
    a, b = strip(load(x)), strip(load(y))
    if a == b:
        return 0
    for k in sorted(set(a) | set(b)):
        if a.get(k) != b.get(k):
            print(f"{x} vs {y}: field {k} differs:\n  {json.dumps(a.get(k))[:800]}\n  "
                  f"{json.dumps(b.get(k))[:800]}")
            break
    return 1


def strip_join(d):
    d = dict(d)
    for k in ("input", "partials", "distributed", "launches", "ambiguous_groups",
              "path_reason", "busy_ns"):
        d.pop(k, None)
    d["devices"] = [{k: v for k, v in x.items() if k != "busy_ns"} for x in d["devices"]]
    if d.get("communication"):  # the refusal's wording names the merge's own reason
        d["communication"] = {k: v for k, v in d["communication"].items()
                              if k not in ("overlap", "refused")}
    return d


def compare_join(x, y):
    a, b = strip_join(load(x)), strip_join(load(y))
    if a == b:
        return 0
    for k in sorted(set(a) | set(b)):
        if a.get(k) != b.get(k):
            print(f"{x} vs {y}: field {k} differs:\n  {json.dumps(a.get(k))[:800]}\n  "
                  f"{json.dumps(b.get(k))[:800]}")
            break
    return 1


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "oplog-parts":
        oplog_parts(args[0], args[1], int(args[2]))
    elif cmd == "trace-rank":
        trace_rank(args[0], args[1], int(args[2]))
    elif cmd == "trace-concat":
        trace_concat(args[0], args[1:])
    elif cmd == "compare":
        sys.exit(compare(args[0], args[1]))
    elif cmd == "compare-join":
        sys.exit(compare_join(args[0], args[1]))
    else:
        sys.exit(f"unknown command {cmd}")
