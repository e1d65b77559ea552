#!/usr/bin/env python3
"""Independent checker of tlcost on real profiler traces (issue 10).

Every expectation is derived here from the RAW trace JSON (json + gzip, no
tlcost code, no number copied from tlcost's output), or from the hand facts
in HAND below (what SOURCES.md says each trace is), then compared with
`tlcost flops|ledger|join --format json`:

  * op rows: the cpu_op/Operator complete events, minus the record-function
    annotations the 2021 profiler wrote as Operator rows (docs/kineto.md);
  * phases: forward / backward / optimizer, derived from the raw events by the
    rules docs/kineto.md states (evaluate_function wrappers, autograd node rows,
    the autograd thread, Optimizer.step# intervals) AND equal to the hand facts
    (a training trace has backward and optimizer phases, inference only forward);
  * device work: every kernel traced to its runtime call (correlation) and that
    call to an op interval on its thread; kernels of graph replays, of calls
    outside any op, and without a runtime call are counted with their exact
    device time (decimal microseconds -> integer ns, never through a float);
    memcpy/memset are not compute;
  * the verdict: LOWER BOUND iff some op is unknown or some device-work cause
    exists; a file without op rows is never COMPLETE;
  * the join: path (correlation when at least half of the launching runtime
    calls that carry an external id name an op), the evidence counts, and the
    kernels attributed / unattributed by cause;
  * no `known` op used an argument the trace did not record (ARGS below):
    checked only with --args (tests/cli/real_traces_args.sh).

Usage: real_traces_check.py [--args] TLCOST TRACE...   (exit 1 on a mismatch)
"""
import collections
import decimal
import gzip
import json
import os
import re
import subprocess
import sys

# What each trace is, from SOURCES.md (hand facts, not derived from tlcost).
TRAIN = {"forward", "backward", "optimizer"}
INFER = {"forward"}
HAND = {
    "tl_h100_owlv2_large": INFER,            # HF OWLv2 detection inference
    "tl_mi300_qwen05b": INFER,               # HF Qwen1.5-0.5B inference
    "tl_mi300_resnet_actckpt_ddp": TRAIN,    # ResNet training, DDP
    "tl_mi300_torch_compile_triton": INFER,  # compiled transformer block inference
    "tl_mi300_sglang_qwen3_decode": INFER,   # SGLang decode step
    "hta_v100_trace_diff_test_r1of2": TRAIN, # DDP training
    "hta_sampled_rank0_of128": TRAIN,        # recsys training, Shampoo optimizer
    "ki_v100_resnet50_2021_06": TRAIN,       # ResNet50 training (2021 format)
    "edge_hta_mtia_inference": INFER,        # MTIA inference
    "edge_param_2080ti_linear": TRAIN,       # linear-model training
    "b200-eager-inference": INFER,
    "v100-dlrm-training": TRAIN,
}

OP_CATS = ("cpu_op", "Operator")
HOST_CATS = ("cuda_runtime", "Runtime", "cuda_driver")
KERNEL_CATS = ("kernel", "Kernel")
COPY_CATS = ("gpu_memcpy", "Memcpy", "gpu_memset", "Memset")
ANNOTATION_ROWS = ("ProfilerStep#", "Optimizer.step#", "Optimizer.zero_grad#",
                   "enumerate(DataLoader)#")
ACCEL_DEVICE_CATS = ("mtia_ccp_events",)
NODE = re.compile(r"^[^:]*Backward[0-9]*$")

# Convolution/pooling ops whose formula needs stride/padding/...: positions of
# those arguments (schema order). A `known` op of these needs every one of them
# recorded as a Concrete Input (or a shape that pins them, when the rules
# derive them from an output shape: none of these traces records one).
ARGS = {
    "aten::conv1d": range(3, 7), "aten::conv2d": range(3, 7), "aten::conv3d": range(3, 7),
    "aten::convolution": range(3, 9), "aten::_convolution": range(3, 9),
    "aten::cudnn_convolution": range(3, 6),
    "aten::max_pool2d": range(1, 6), "aten::max_pool2d_with_indices": range(1, 6),
    "aten::avg_pool2d": range(1, 7),
}

failures = []


def fail(trace, what, want, got):
    failures.append("%s: %s: expected %r, tlcost says %r" % (trace, what, want, got))


def ns(x):
    """Exact integer ns from a decimal microsecond number (digits below 1 ns dropped)."""
    return int(decimal.Decimal(x) * 1000) if not isinstance(x, int) else x * 1000


def tid_of(x):
    if isinstance(x, int):
        return x
    m = re.search(r"([0-9]+)$", str(x))
    return int(m.group(1)) if m else None


def load(path):
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "rt") as f:
        d = json.load(f, parse_float=decimal.Decimal)
    return d["traceEvents"] if isinstance(d, dict) else d


def args(e):
    return e.get("args") or {}


def ext_of(e):
    a = args(e)
    return a.get("External id", a.get("external id"))


class Trace:
    def __init__(self, events):
        self.x = [e for e in events if e.get("ph") == "X"]
        self.has_cat = any("cat" in e for e in events)
        ops, self.spans = [], []
        for e in self.x:
            cat, name = e.get("cat"), e.get("name", "")
            if cat in OP_CATS and not name.startswith(ANNOTATION_ROWS):
                ops.append(e)
            if cat in OP_CATS + ("user_annotation",) and name.startswith("Optimizer.step#"):
                self.spans.append((tid_of(e["tid"]), ns(e["ts"]), ns(e["ts"]) + ns(e["dur"])))
        self.ops = ops
        for i, o in enumerate(ops):
            o["_i"] = i
            o["_s"], o["_e"] = ns(o["ts"]), ns(o["ts"]) + ns(o["dur"])
            o["_t"] = tid_of(o["tid"])
        self.threads = collections.defaultdict(list)
        for o in ops:
            self.threads[o["_t"]].append(o)
        for v in self.threads.values():
            v.sort(key=lambda o: (o["_s"], -(o["_e"] - o["_s"]), o["_i"]))

    # ---- phases (docs/kineto.md "phase") ----
    def phases(self):
        found = set()
        for t, v in self.threads.items():
            top, wrappers, nodes, end = 0, 0, 0, None
            for o in v:
                if end is not None and o["_e"] <= end:
                    continue
                top += 1
                end = o["_e"]
                n = o["name"]
                wrappers += n.startswith("autograd::engine::evaluate_function:")
                nodes += bool(NODE.match(n)) or n == "torch::autograd::AccumulateGrad"
            w = wrappers or nodes
            autograd_thread = w > 0 and 2 * w >= top
            stack = []
            for o in v:
                while stack and not (stack[-1][0]["_s"] <= o["_s"] and o["_e"] <= stack[-1][0]["_e"]):
                    stack.pop()
                n = o["name"]
                bwd = bool(autograd_thread or n.startswith("autograd::engine::evaluate_function:")
                           or NODE.match(n) or (stack and stack[-1][1]))
                opt = any(st == t and s <= o["_s"] and o["_e"] <= e for st, s, e in self.spans)
                found.add("optimizer" if opt else "backward" if bwd else "forward")
                stack.append((o, bwd))
        return found

    # ---- device work (docs/cost-contract.md "Device work") ----
    def device_work(self):
        hosts = {}
        for e in self.x:
            if e.get("cat") in HOST_CATS and "correlation" in args(e):
                hosts.setdefault(args(e)["correlation"], e)
        top = {}
        for t, v in self.threads.items():
            out = []
            for o in v:
                if out and o["_e"] <= out[-1][1]:
                    continue
                out.append((o["_s"], o["_e"]))
            top[t] = out

        def inside(h):
            s, e = ns(h["ts"]), ns(h["ts"]) + ns(h["dur"])
            return any(a <= s and e <= b for a, b in top.get(tid_of(h["tid"]), []))

        w = {"kernels": 0, "kernels_in_ops": 0, "without_op": 0, "without_op_ns": 0,
             "not_compute": 0}
        gaps = collections.defaultdict(lambda: [0, 0])
        # a CUPTI range-profiler trace: one counter range per profiled kernel,
        # no kernel activity record and no device time
        kernel_cats = KERNEL_CATS
        if not any(e.get("cat") in KERNEL_CATS for e in self.x):
            kernel_cats = ("cuda_profiler_range",)
        for k in self.x:
            cat = k.get("cat")
            if cat in COPY_CATS:
                w["not_compute"] += 1
                continue
            if cat in ACCEL_DEVICE_CATS:
                gaps["device_events_unread"][0] += 1
                continue
            if cat not in kernel_cats:
                continue
            w["kernels"] += 1
            h = hosts.get(args(k).get("correlation"))
            cause = ("no_host_side" if h is None else
                     "graph_replay" if "GraphLaunch" in h["name"] else
                     None if inside(h) else "launch_outside_op")
            if cause is None:
                w["kernels_in_ops"] += 1
                continue
            d = ns(k["dur"]) if kernel_cats is KERNEL_CATS else 0
            gaps[cause][0] += 1
            gaps[cause][1] += d
            w["without_op"] += 1
            w["without_op_ns"] += d
        if not self.ops:
            gaps["no_op_records"] = [0, 0]
        return w, {c: tuple(v) for c, v in gaps.items()}

    # ---- the join's evidence and attribution (docs/join.md) ----
    def join(self, force_correlation=False):
        launches = [e for e in self.x if e.get("cat") in KERNEL_CATS + COPY_CATS]
        hosts = {}
        for e in self.x:
            if e.get("cat") in HOST_CATS and "correlation" in args(e):
                hosts.setdefault(args(e)["correlation"], e)
        op_ext = collections.Counter(ext_of(o) for o in self.ops if ext_of(o) is not None)
        named = {args(k).get("correlation") for k in launches} & set(hosts)
        calls = [hosts[c] for c in named]
        with_ext = [h for h in calls if ext_of(h) is not None]
        matched = sum(1 for h in with_ext if ext_of(h) in op_ext)
        self_corr = sum(1 for h in with_ext if ext_of(h) == args(h)["correlation"])
        path = ("correlation" if force_correlation or (with_ext and 2 * matched >= len(with_ext))
                else "containment" if self.ops else "none")  # trace ops always carry intervals
        by_ext = {}
        for o in self.ops:
            if op_ext[ext_of(o)] == 1:
                by_ext[ext_of(o)] = o
        outside = checked = 0
        why = collections.Counter()
        attributed = 0
        for k in launches:
            if k.get("cat") not in KERNEL_CATS:
                continue
            c = args(k).get("correlation")
            if c is None:
                why["no_correlation"] += 1
            elif c not in hosts:
                why["no_runtime"] += 1
            elif path == "none":
                why["no_path"] += 1
            elif path == "correlation":
                if ext_of(hosts[c]) in op_ext:
                    attributed += 1
                else:
                    why["graph" if "GraphLaunch" in hosts[c]["name"] else "no_op"] += 1
            else:
                h = hosts[c]
                s = ns(h["ts"])
                if any(o["_s"] <= s <= o["_e"] for o in self.threads.get(tid_of(h["tid"]), [])):
                    attributed += 1
                else:
                    why["graph" if "GraphLaunch" in h["name"] else "no_op"] += 1
        # launches (kernels, memcpys, memsets) attributed by correlation whose op
        # does not hold the launching call on its thread
        for k in launches:
            h = hosts.get(args(k).get("correlation"))
            if path != "correlation" or h is None or ext_of(h) not in by_ext:
                continue
            o = by_ext[ext_of(h)]
            checked += 1
            s = ns(h["ts"])
            outside += not (o["_t"] == tid_of(h["tid"]) and o["_s"] <= s <= o["_e"])
        return {"path": path, "launch_calls": len(calls),
                "launch_calls_with_external": len(with_ext),
                "launch_calls_external_matched": matched,
                "launch_calls_external_self": self_corr,
                "kernels_attributed_or_ambiguous": attributed,
                "correlation_checked": checked,
                "correlation_outside_host_interval": outside}, why

    # ---- arguments a known op needs (ARGS) ----
    def args_recorded(self):
        """name -> (events, events whose needed positions all have a Concrete Input)."""
        out = collections.defaultdict(lambda: [0, 0])
        for o in self.ops:
            pos = ARGS.get(o["name"])
            if pos is None:
                continue
            conc = args(o).get("Concrete Inputs")
            ok = isinstance(conc, list) and all(i < len(conc) and conc[i] not in ("", None)
                                                for i in pos)
            out[o["name"]][0] += 1
            out[o["name"]][1] += ok
        return out


def tlcost(exe, *argv):
    p = subprocess.run([exe] + list(argv), capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def check(exe, path, check_args):
    name = os.path.basename(path).replace(".json.gz", "").replace(".json", "")
    tr = Trace(load(path))
    if not tr.has_cat:
        rc, out, err = tlcost(exe, "flops", path)
        if rc == 0 or "trace_not_kineto" not in err:
            fail(name, "legacy export (no 'cat') refused", "trace_not_kineto", (rc, err[:200]))
        return
    rc, out, err = tlcost(exe, "flops", "--format", "json", path)
    if rc != 0:
        fail(name, "tlcost flops", "exit 0", (rc, err[:300]))
        return
    fl = json.loads(out)
    cov = fl["coverage"]
    if cov["rows"] != len(tr.ops):
        fail(name, "op rows", len(tr.ops), cov["rows"])
    # phases: derived and hand facts must agree, and tlcost must say the same
    derived = tr.phases()
    if name in HAND and derived != HAND[name]:
        failures.append("%s: checker: derived phases %s differ from the hand facts %s"
                        % (name, sorted(derived), sorted(HAND[name])))
    if set(fl["phases"]) != derived:
        fail(name, "phases", sorted(derived), sorted(fl["phases"]))
    # device work, gap by gap
    w, gaps = tr.device_work()
    dw = fl["device_work"]
    for k, v in w.items():
        if dw[k] != v:
            fail(name, "device_work." + k, v, dw[k])
    got = {g["cause"]: (g["records"], g["device_ns"]) for g in dw["gaps"]}
    if got != gaps:
        fail(name, "device-work gaps (cause: records, device ns)", gaps, got)
    for g in dw["gaps"]:
        if not g["message"] or not g["remedy"]:
            fail(name, "gap %s has a message and a remedy" % g["cause"], True, False)
    # the verdict
    want_lb = bool(gaps) or cov["unknown"] > 0
    if fl["lower_bound"] != want_lb:
        fail(name, "lower_bound", want_lb, fl["lower_bound"])
    if not tr.ops and not fl["lower_bound"]:
        fail(name, "a file without op rows is never COMPLETE", True, False)
    rc, out, err = tlcost(exe, "ledger", "--format", "json", path)
    ld = json.loads(out) if rc == 0 else {}
    if ld.get("lower_bound") != want_lb or ld.get("device_work") != dw:
        fail(name, "ledger verdict and device work equal flops'", (want_lb, dw),
             (ld.get("lower_bound"), ld.get("device_work")))
    # the join
    rc, out, err = tlcost(exe, "join", "--format", "json", path)
    if rc != 0:
        fail(name, "tlcost join", "exit 0", (rc, err[:300]))
        return
    jn = json.loads(out)
    ranges = sum(1 for e in tr.x if e.get("cat") == "cuda_profiler_range")
    if ranges and not any(e.get("cat") in KERNEL_CATS for e in tr.x):
        # the range profiler ran: device time is unavailable, with its word
        if jn.get("state") != "unavailable" or "%d cuda_profiler_range records" % ranges \
                not in (jn.get("profiler") or {}).get("message", ""):
            fail(name, "range-profiler join", "unavailable, naming the ranges",
                 (jn.get("state"), jn.get("profiler")))
    elif w["kernels"] or w["not_compute"]:
        ev, why = tr.join()
        for k in ("path", "launch_calls", "launch_calls_with_external",
                  "launch_calls_external_matched", "launch_calls_external_self",
                  "correlation_checked", "correlation_outside_host_interval"):
            if jn.get(k) != ev[k]:
                fail(name, "join " + k, ev[k], jn.get(k))
        got_att = jn["kernels_attributed"] + jn["kernels_ambiguous"]
        if got_att != ev["kernels_attributed_or_ambiguous"]:
            fail(name, "join kernels attributed + ambiguous", ev["kernels_attributed_or_ambiguous"],
                 got_att)
        if jn["kernels"] != w["kernels"]:
            fail(name, "join kernels", w["kernels"], jn["kernels"])
        got_why = collections.Counter()
        keys = {"no runtime call": "no_runtime", "no correlation": "no_correlation",
                "leads to no op": "no_op", "no join path": "no_path",
                "replayed from a CUDA/HIP graph": "graph"}
        for l in jn["launches"]:
            if l["kind"] == "kernel" and l["status"] == "unattributed":
                got_why[next((v for k, v in keys.items() if k in (l.get("why") or "")), "?")] += 1
        if got_why != why:
            fail(name, "join unattributed kernels by cause", dict(why), dict(got_why))
    # --force-correlation where the ids are unusable: the warning's count
    if jn.get("path") == "containment":
        ev, _ = tr.join(force_correlation=True)
        rc, out, err = tlcost(exe, "join", "--force-correlation", "--format", "json", path)
        fj = json.loads(out) if rc == 0 else {}
        for k in ("path", "correlation_checked", "correlation_outside_host_interval"):
            if fj.get(k) != ev[k]:
                fail(name, "forced join " + k, ev[k], fj.get(k))
        rc, out, err = tlcost(exe, "join", "--force-correlation", path)
        if ev["correlation_outside_host_interval"] and "WARNING: %d of %d launches attributed by " \
                "correlation name an op whose host interval does not hold" % (
                    ev["correlation_outside_host_interval"], ev["correlation_checked"]) not in out:
            fail(name, "forced join warns in text", True, False)
    # module trees: ops inside nn.Module frames put those modules in the tree
    frames = [(tid_of(e["tid"]), ns(e["ts"]), ns(e["ts"]) + ns(e["dur"]), e["name"][11:])
              for e in tr.x if e.get("cat") == "python_function"
              and str(e.get("name", "")).startswith("nn.Module: ")]
    fwd_in = set()
    if frames and "forward" in derived:
        by_t = collections.defaultdict(list)
        for f in frames:
            by_t[f[0]].append(f)
        for o in tr.ops:
            for t, s, e, nm in by_t.get(o["_t"], []):
                if s <= o["_s"] and o["_e"] <= e:
                    fwd_in.add(nm)
    if fwd_in:
        rc, out, err = tlcost(exe, "tree", "--format", "json", path)
        rows = json.loads(out)["rows"] if rc == 0 else []
        parts = {p for r in rows for p in r.get("path", "").split(".") if p}
        if not parts or not parts <= {f[3] for f in frames}:
            fail(name, "module tree from nn.Module frames (%d frames hold ops)" % len(fwd_in),
                 "modules named by the frames", sorted(parts)[:5])
    if check_args:
        rec = tr.args_recorded()
        types = {t["name"]: t for t in fl["op_types"]}
        for op, (n, ok) in sorted(rec.items()):
            known = types.get(op, {}).get("known", 0)
            if known > ok:
                fail(name, "%s: known ops at most those with stride/padding/... recorded "
                     "(%d of %d events record them)" % (op, ok, n), "<= %d" % ok, known)
    print("ok: %s: %d op rows, phases %s, %d kernels (%d in ops), gaps %s, lower_bound %s, "
          "join %s" % (name, len(tr.ops), "/".join(sorted(derived)), w["kernels"],
                       w["kernels_in_ops"], dict(gaps) or "none", want_lb, jn.get("path")))


def main():
    argv = sys.argv[1:]
    check_args = "--args" in argv
    argv = [a for a in argv if a != "--args"]
    if len(argv) < 2:
        print(__doc__)
        return 2
    for p in argv[1:]:
        check(argv[0], p, check_args)
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
