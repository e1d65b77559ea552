#!/usr/bin/env python3
"""Independent check of convolution and matrix-product FLOPs on a real trace.

Reads the raw Chrome-trace JSON (never tlcost's parsing) and recomputes, for
every conv / mm / bmm / addmm / linear / legacy cudnn backward-input row,
the FLOPs (fma=2) from its own recorded arguments, by the textbook formulas:

  conv (not transposed): out = (in + 2p - d(k-1) - 1) // s + 1 per spatial
    dim; MACs = N * prod(out) * numel(weight) (= N*Cout*prod(out)*Cin/g*prod(k));
    + N*Cout*prod(out) bias adds when a bias tensor is passed
  cudnn_convolution_backward_input(self_size, grad_output, weight, ...):
    MACs = N * prod(grad_output spatial) * numel(weight)
  mm [M,K]x[K,N]: MKN MACs; bmm: B*M*K*N
  addmm(self, m1, m2, beta, alpha): MKN MACs + M*N*([beta!=0] + [beta not in
    {0,1}] + [alpha != 1])
  linear(input, weight, bias): prod(input[:-1])*K*N MACs (+ prod(input[:-1])*N)

An argument counts as recorded only when the trace wrote its value (Concrete
Inputs, torch >= 2.0). Then it runs `tlcost profile --by op` and checks:
  - every op tlcost calls `known` whose formula above could be evaluated has
    exactly the FLOPs computed here;
  - no op whose formula needs an argument the trace did not record is
    `known` (a schema default was guessed);
  - with --lower-bound, `tlcost flops` says the totals are a lower bound.
Prints one summary line per trace; exit status 1 on any failure.

usage: rule_args_check.py TLCOST TRACE [--min-checked N] [--lower-bound]
"""
import gzip
import json
import subprocess
import sys

TENSOR_LEAD = tuple("abcdefghijklmnopqrstuvwxyz")


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        d = json.load(f)
    return d["traceEvents"] if isinstance(d, dict) else d


class Args:
    def __init__(self, a):
        self.dims = a.get("Input Dims", a.get("Input dims")) or []
        self.types = a.get("Input type") or []
        self.conc = a.get("Concrete Inputs")

    def tensor(self, i):
        if i < len(self.types) and self.types[i][:1] in TENSOR_LEAD and i < len(self.dims):
            d = self.dims[i]
            if isinstance(d, list) and all(isinstance(x, int) for x in d):
                return d
        return None

    def value(self, i):
        """The recorded scalar/list value, or None when not recorded."""
        if not self.conc or i >= len(self.conc) or self.conc[i] == "":
            return None
        s = self.conc[i]
        if s.startswith("["):
            body = s[1:-1].strip()
            return [int(x) for x in body.split(",")] if body else []
        if s in ("True", "False"):
            return s == "True"
        try:
            return int(s)
        except ValueError:
            return float(s)


def prod(xs):
    p = 1
    for x in xs:
        p *= x
    return p


NEEDS = object()  # the formula needs an argument the trace did not record


def conv_flops(a, pos):
    """pos: (stride, padding, dilation, groups, bias or None, transposed or None)."""
    x, w = a.tensor(0), a.tensor(1)
    if x is None or w is None or len(w) < 3:
        return None
    ps, pp, pd, pg, pb, pt = pos
    if pt is not None:
        t = a.value(pt)
        if t is None:
            return NEEDS
        if t:
            return None  # transposed: not checked here
    r = len(w) - 2
    s, p, d = a.value(ps), a.value(pp), a.value(pd)
    if s is None or p is None or d is None or not isinstance(p, list):
        return NEEDS
    s, p, d = [v * r if len(v) == 1 else v for v in (s, p, d)]
    batched = len(x) == r + 2
    n = x[0] if batched else 1
    sp = x[2:] if batched else x[1:]
    out = [(sp[i] + 2 * p[i] - d[i] * (w[2 + i] - 1) - 1) // s[i] + 1 for i in range(r)]
    macs = n * prod(out) * prod(w)
    bias = a.tensor(pb) if pb is not None else None
    return 2 * macs + (n * w[0] * prod(out) if bias is not None and len(bias) == 1 else 0)


def expected(name, a):
    if name == "aten::conv2d" or name == "aten::conv1d" or name == "aten::conv3d":
        return conv_flops(a, (3, 4, 5, 6, 2, None))
    if name in ("aten::convolution", "aten::_convolution"):
        return conv_flops(a, (3, 4, 5, 8, 2, 6))
    if name == "aten::cudnn_convolution":
        return conv_flops(a, (3, 2, 4, 5, None, None))
    if name == "aten::cudnn_convolution_backward_input":
        go, w = a.tensor(1), a.tensor(2)
        if go is None or w is None:
            return None
        return 2 * go[0] * prod(go[2:]) * prod(w)
    if name == "aten::mm":
        m1, m2 = a.tensor(0), a.tensor(1)
        if m1 is None or m2 is None or len(m1) != 2 or len(m2) != 2:
            return None
        return 2 * m1[0] * m1[1] * m2[1]
    if name == "aten::bmm":
        b1, b2 = a.tensor(0), a.tensor(1)
        if b1 is None or b2 is None or len(b1) != 3 or len(b2) != 3:
            return None
        return 2 * b1[0] * b1[1] * b1[2] * b2[2]
    if name == "aten::addmm":
        m1, m2 = a.tensor(1), a.tensor(2)
        if m1 is None or m2 is None or len(m1) != 2 or len(m2) != 2:
            return None
        beta, alpha = a.value(3), a.value(4)
        if beta is None or alpha is None:
            return NEEDS
        mn = m1[0] * m2[1]
        per = (beta != 0) + (beta not in (0, 1)) + (alpha != 1)
        return 2 * m1[0] * m1[1] * m2[1] + mn * per
    if name == "aten::linear":
        x, w = a.tensor(0), a.tensor(1)
        if x is None or w is None or len(w) != 2 or not x:
            return None
        rows = prod(x[:-1])
        bias = a.tensor(2)
        return 2 * rows * x[-1] * w[0] + (rows * w[0] if bias is not None else 0)
    return None


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    tlcost, trace = argv[1], argv[2]
    min_checked = 0
    lower_bound = "--lower-bound" in argv
    if "--min-checked" in argv:
        min_checked = int(argv[argv.index("--min-checked") + 1])
    want = {}
    for e in load(trace):
        if e.get("ph") != "X" or e.get("cat") not in ("cpu_op", "Operator"):
            continue
        a = e.get("args") or {}
        ext = a.get("External id", a.get("external id"))
        exp = expected(e["name"], Args(a))
        if exp is not None and ext is not None:
            want[int(ext)] = (e["name"], exp)
    prof = json.loads(subprocess.run([tlcost, "profile", "--by", "op", "--top", "0",
                                      "--format", "json", trace], check=True,
                                     capture_output=True, text=True).stdout)
    checked = guessed = bad = needs = 0
    for row in prof["rows"]:
        if row["id"] not in want:
            continue
        name, exp = want[row["id"]]
        if exp is NEEDS:
            needs += 1
            if row["class"] == "known":
                guessed += 1
                print(f"  GUESSED {name} id {row['id']}: known ({row['flops']}) although an "
                      f"argument its formula needs was not recorded")
            continue
        if row["class"] != "known":
            continue
        checked += 1
        if int(row["flops"]) != exp:
            bad += 1
            print(f"  MISMATCH {name} id {row['id']}: tlcost {row['flops']}, independent {exp}")
    ok = bad == 0 and guessed == 0 and checked >= min_checked
    lb = None
    if lower_bound:
        flops = json.loads(subprocess.run([tlcost, "flops", "--format", "json", trace],
                                          check=True, capture_output=True, text=True).stdout)
        lb = flops.get("lower_bound")
        if lb is None and isinstance(flops.get("files"), list):
            lb = flops["files"][0].get("lower_bound")
        ok = ok and lb is True
    print(f"{trace.rsplit('/', 1)[-1]}: {checked} known conv/matmul ops match the independent "
          f"count, {bad} mismatch; {needs} need an unrecorded argument, {guessed} of them "
          f"known (guessed)" + (f"; lower_bound={lb}" if lower_bound else "") +
          ("" if checked >= min_checked else f"; fewer than {min_checked} checked"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
