#!/usr/bin/env python3
"""`make bench` (bench-python): the Python capture library's costs.

  capture overhead per op   tlcost.capture (live into libtlcost, with and
                            without the recorded log and kept rows) against
                            the uninstrumented step, a dispatch mode that
                            does nothing (the floor any such capture pays),
                            and the old
                            way: dicts per op + json.dumps into a JSON Lines
                            file (tools/capture_oplog.py before issue 13)
  engine through binding    _tlcost.Eval.push ops/s with the conversion of
                            real tensors, without torch dispatch around it

The op-heavy model runs N tiny pointwise ops ([4] float32), so each op's
cost is the dispatch and the capture, not the arithmetic. Best of RUNS by
process CPU time. Environment: BENCH_PY_OPS (default 20000), BENCH_RUNS (3).
"""

import json
import os
import sys
import tempfile
import time

import torch
from torch.utils._python_dispatch import TorchDispatchMode

import _tlcost
import tlcost
from tlcost.live import _Binder

N = int(os.environ.get("BENCH_PY_OPS", "20000"))
RUNS = int(os.environ.get("BENCH_RUNS", "3"))


class Chain(torch.nn.Module):
    def __init__(self, n):
        super().__init__()
        self.n = n

    def forward(self, x):
        for _ in range(self.n // 2):
            x = x * 1.0001
            x = x + 1.0
        return x


def best(fn):
    out = None
    for _ in range(RUNS):
        c0, w0 = time.process_time(), time.perf_counter()
        fn()
        c, w = time.process_time() - c0, time.perf_counter() - w0
        if out is None or c < out[0]:
            out = (c, w)
    return out


# ---- the baseline: what writing the JSON Lines log from Python costs ----

def _enc(v):
    if isinstance(v, torch.Tensor):
        return {"shape": list(v.shape), "dtype": str(v.dtype)[6:],
                "stride": list(v.stride()), "device": str(v.device)}
    if isinstance(v, (list, tuple)):
        return [_enc(x) for x in v]
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    return str(v)


class JsonlRecorder(TorchDispatchMode):
    def __init__(self, f):
        super().__init__()
        self.f, self.n, self.binders = f, 0, {}

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        t0 = time.perf_counter_ns()
        r = func(*args, **kwargs)
        t1 = time.perf_counter_ns()
        b = self.binders.get(func) or self.binders.setdefault(func, _Binder(func))
        pos, kw = b.bind(args, kwargs)
        rec = {"id": self.n, "op": b.name, "overload": b.overload, "phase": "forward",
               "args": _enc(pos), "outputs": _enc(r if isinstance(r, (list, tuple)) else [r]),
               "host_ns": t1 - t0, "start_ns": t0}
        if kw:
            rec["kwargs"] = _enc(kw)
        self.f.write(json.dumps(rec, separators=(",", ":")) + "\n")
        self.n += 1
        return r


def main():
    model, x = Chain(N), torch.zeros(4)
    rows = []
    with torch.no_grad():
        plain = best(lambda: model(x))
    rows.append(("uninstrumented step", plain, None))

    class Nothing(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            return func(*args, **(kwargs or {}))

    def floor():
        with torch.no_grad(), Nothing():
            model(x)

    # what any TorchDispatchMode costs before it does anything
    rows.append(("TorchDispatchMode doing nothing", best(floor), None))

    def live(**kw):
        rep = tlcost.capture(model, (x,), mode="fwd_nograd_eval", **kw)
        assert rep.ops == N, rep.ops

    rows.append(("tlcost.capture (totals only)",
                 best(lambda: live(record=False, keep_ops=False)), "live"))
    rows.append(("tlcost.capture (default: rows + log)", best(lambda: live()), "live"))

    d = tempfile.mkdtemp(prefix="tlcost-bench.")
    path = os.path.join(d, "chain.oplog.jsonl")

    def jsonl():
        model.eval()
        with open(path, "w") as f, torch.no_grad(), JsonlRecorder(f):
            model(x)

    rows.append(("dicts + json.dumps to .jsonl", best(jsonl), "file"))

    def counted():
        model.eval()
        with torch.no_grad(), tlcost.counting() as c:
            model(x)
        assert c.report().ops == N, c.report().ops

    # the same recorder under a with block (issue 28): the ratio shows what
    # the block's phase wrappers add per op (nothing is expected)
    rows.append(("with tlcost.counting() (default)", best(counted), "live"))

    print("bench-python: %d ops of [4] float32 pointwise, best of %d runs by CPU time" % (N, RUNS))
    print("%-38s %8s %8s %12s" % ("", "wall s", "cpu s", "us/op (cpu)"))
    for name, (c, w), _ in rows:
        extra = "" if name.startswith("uninstr") else "  (+%.2f us/op over the step)" % (
            (c - plain[0]) / N * 1e6)
        print("%-38s %8.3f %8.3f %12.2f%s" % (name, w, c, c / N * 1e6, extra))
    live_c, file_c = rows[3][1][0], rows[4][1][0]
    print("%-38s %7.2fx" % ("  live default / JSON Lines writer", live_c / file_c))
    print("%-38s %7.2fx" % ("  counting() / capture (default)", rows[5][1][0] / live_c))
    try:
        import pandas  # noqa: F401
        rep = tlcost.capture(model, (x,), mode="fwd_nograd_eval")
        c, w = best(lambda: rep.to_pandas("rows"))
        print("%-38s %8.3f %8.3f %12.2f  (%.2fx the capture)" % (
            "Report.to_pandas('rows')", w, c, c / N * 1e6, c / live_c))
    except ImportError:
        print("Report.to_pandas('rows'): skipped (pandas is not installed)")

    # engine ops/s through the binding: push an aten::mm with two tensors
    eng = tlcost.Engine(load_env=False)
    a, b = torch.zeros(8, 16), torch.zeros(16, 4)
    out = [torch.zeros(8, 4)]
    m = 200000

    def push(keep, record):
        ev = _tlcost.Eval(eng._c, keep_ops=keep, record=record)
        p = ev.push
        for i in range(m):
            p(i, "aten::mm", "default", 0, None, None, None, [a, b], None, out,
              None, None, None)
        ev.finish()
        assert ev.total(0, 0) == m * 8 * 16 * 4

    for keep, record, label in ((False, False, "totals only"), (True, False, "kept rows"),
                                (True, True, "kept rows + log")):
        c, w = best(lambda: push(keep, record))
        print("%-38s %8.3f %8.3f %9.2fM ops/s (cpu)" % ("engine via binding (%s)" % label,
                                                     w, c, m / c / 1e6))


if __name__ == "__main__":
    sys.exit(main())
