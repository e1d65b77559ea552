#!/bin/sh
# An argument passed but not recorded (TLC_VALUE_UNRECORDED) survives
# `join --save` (issue 11 follow-up): the saved op log writes it null, as
# plain op log v1 readers have always read it, and lists its position under
# "unrecorded" (the extension of docs/oplog-v1.md), so tlcost reads it back
# as not recorded: aten::sum's dim stays unknown (missing_args) instead of
# None, which would mean "sum everything" (5 FLOPs for a [2,3] input:
# 6 - 1 additions). Expectations by hand: in the trace below, arg 1
# ("GenericList") and arg 2 ("Scalar") have no Concrete Inputs, so the trace
# records only their types (docs/kineto.md): positions [1, 2]. Both JSON
# paths (simdjson and yajl, TLCOST_JSON_FAST=0) read the marker the same.
# The second marker, "args_observed", is checked at the end.
set -u
. "${top_srcdir:-.}/tests/cli_lib.sh"
tlc_need python3
tlc_tmpdir unrec
exec python3 - "$T" "$tmp" <<'PY'
import json, os, subprocess, sys
T, tmp = sys.argv[1:3]
fails = []
def run(args, fast=True):
    env = dict(os.environ)
    if not fast:
        env["TLCOST_JSON_FAST"] = "0"
    return subprocess.run([T] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
def ledger(path, fast=True):
    p = run(["--format", "json", "ledger", path], fast)
    if p.returncode != 0:
        fails.append("ledger %s: exit %d: %s" % (path, p.returncode, p.stderr[:300]))
        return []
    return [(e["name"], e["reason"]) for e in json.loads(p.stdout)["ledger"]]
trace = os.path.join(tmp, "t.json")
with open(trace, "w") as f:
    json.dump({"schemaVersion": 1, "traceEvents": [
        {"ph": "X", "cat": "cpu_op", "name": "aten::sum", "pid": 1, "tid": 1, "ts": 10,
         "dur": 100, "args": {"External id": 1, "Input Dims": [[2, 3], [], []],
                              "Input type": ["float", "GenericList", "Scalar"]}},
        {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
         "ts": 30, "dur": 5, "args": {"External id": 1, "correlation": 100}},
        {"ph": "X", "cat": "kernel", "name": "reduce_kernel", "pid": 0, "tid": 7, "ts": 1000,
         "dur": 95, "args": {"device": 0, "stream": 7, "correlation": 100}}]}, f)
want = [("aten::sum", "missing_args")]
if ledger(trace) != want:
    fails.append("the trace itself: %s" % ledger(trace))
saved = os.path.join(tmp, "saved.jsonl")
p = run(["join", "--save", saved, trace])
if p.returncode != 0:
    fails.append("join --save: exit %d: %s" % (p.returncode, p.stderr[:300]))
else:
    ops = [json.loads(l) for l in open(saved) if '"op"' in l and '"kind"' not in l]
    if len(ops) != 1 or ops[0].get("unrecorded") != [1, 2] or ops[0]["args"][1:] != [None, None]:
        fails.append("saved record: %s" % ops)
    for fast in (True, False):
        if ledger(saved, fast) != want:
            fails.append("saved join read back (fast %s): %s" % (fast, ledger(saved, fast)))

HDR = '{"format":"tlcost-oplog","version":1}\n'
def log(name, rec):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(HDR + json.dumps(rec) + "\n")
    return path
T23 = {"shape": [2, 3], "dtype": "float32"}
# plain v1: null is None, dim=None sums everything: known, 5 FLOPs
plain = log("plain.jsonl", {"id": 0, "op": "aten::sum", "overload": "dim_IntList",
                            "args": [T23, None]})
p = run(["--format", "json", "flops", plain])
fw = json.loads(p.stdout or b"{}").get("phases", {}).get("forward", {}) if p.returncode == 0 else {}
if ledger(plain) != [] or fw.get("flops") != 5:
    fails.append("plain null: %s %s" % (ledger(plain), p.stdout[:400]))
marked = log("marked.jsonl", {"id": 0, "op": "aten::sum", "overload": "dim_IntList",
                              "args": [T23, None], "unrecorded": [1]})
for fast in (True, False):
    if ledger(marked, fast) != [("aten::sum", "missing_args")]:
        fails.append("marked (fast %s): %s" % (fast, ledger(marked, fast)))
# the marker names a null argument by position, or it is refused at line 2
for name, unrec in (("beyond", [2]), ("negative", [-1]), ("tensor", [0])):
    bad = log(name + ".jsonl", {"id": 0, "op": "aten::sum", "args": [T23, None],
                                "unrecorded": unrec})
    for fast in (True, False):
        q = run(["flops", bad], fast)
        err = q.stderr.decode()
        if q.returncode != 1 or "oplog_field_invalid" not in err or "unrecorded" not in err \
                or (":2:") not in err:
            fails.append("unrecorded %s (fast %s): exit %d %s" % (unrec, fast, q.returncode, err[:300]))

# An argument the trace did not list at all (aten::add's alpha: Kineto gave
# two inputs of the three-argument schema) is not recorded either, because
# a profiler lists every argument (TLC_OP_ARGS_OBSERVED): add's FLOPs depend
# on alpha (x + alpha*y), so the op is missing_args in the trace. The saved
# join marks the record "args_observed": true (docs/oplog-v1.md), so it reads
# back missing_args too; without the marker the absent alpha would take the
# schema default 1 and the op would read known (6 FLOPs for [2,3]).
obs = os.path.join(tmp, "obs.json")
with open(obs, "w") as f:
    json.dump({"schemaVersion": 1, "traceEvents": [
        {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, "ts": 10,
         "dur": 100, "args": {"External id": 1, "Input Dims": [[2, 3], [2, 3]],
                              "Input type": ["float", "float"]}}]}, f)
want_add = [("aten::add", "missing_args")]
if ledger(obs) != want_add:
    fails.append("observed trace itself: %s" % ledger(obs))
saved_obs = os.path.join(tmp, "saved_obs.jsonl")
p = run(["join", "--save", saved_obs, obs])
if p.returncode != 0:
    fails.append("join --save (observed): exit %d: %s" % (p.returncode, p.stderr[:300]))
else:
    ops = [json.loads(l) for l in open(saved_obs) if '"op"' in l and '"kind"' not in l]
    if len(ops) != 1 or ops[0].get("args_observed") is not True or "unrecorded" in ops[0]:
        fails.append("saved observed record: %s" % ops)
    for fast in (True, False):
        if ledger(saved_obs, fast) != want_add:
            fails.append("saved observed read back (fast %s): %s" % (fast, ledger(saved_obs, fast)))
# the same record without the marker: alpha defaults to 1, known
plain_add = log("plain_add.jsonl", {"id": 0, "op": "aten::add", "overload": "Tensor",
                                    "args": [T23, T23]})
if ledger(plain_add) != []:
    fails.append("plain add: %s" % ledger(plain_add))
# the marker is a boolean, or it is refused at line 2
bad = log("obs_bad.jsonl", {"id": 0, "op": "aten::add", "args": [T23, T23],
                            "args_observed": 1})
for fast in (True, False):
    q = run(["flops", bad], fast)
    err = q.stderr.decode()
    if q.returncode != 1 or "oplog_field_invalid" not in err or "args_observed" not in err \
            or ":2:" not in err:
        fails.append("args_observed 1 (fast %s): exit %d %s" % (fast, q.returncode, err[:300]))

for f in fails:
    print("FAIL: " + f)
print("unrecorded_cli: %s" % ("%d failed" % len(fails) if fails else "all passed"))
sys.exit(1 if fails else 0)
PY
