#!/usr/bin/python3
"""Size-scaling check (issue 23): every input axis that can grow, read by
every command that reads it, must cost at most linear instructions and
peak heap in the axis' size.

    scaling.py check TLCOST WORKDIR   counted costs at sizes N, 2N, 4N; exit 1 on a FAIL
    scaling.py bench TLCOST WORKDIR   native CPU time and peak RSS at large sizes (no verdict)

How `check` counts (never by wall clock):
  instructions  valgrind --tool=callgrind, total Ir of the run
  peak heap     tests/scaling/peakheap.so (LD_PRELOAD; PEAKHEAP names it):
                the highest total of live malloc'd bytes, counted natively;
                valgrind --tool=massif (largest mem_heap_B + mem_heap_extra_B)
                when PEAKHEAP is not given
How it decides: with c1, c2, c4 the costs at N, 2N, 4N, the increments
d1 = c2 - c1 and d2 = c4 - c2 leave the fixed startup cost out; a cost
linear in N has d2/d1 = 2, n log n a little more, quadratic 4. A row fails
when d2/d1 > GROWTH_LIMIT. The heap is counted at more sizes (N .. hmax*N:
native runs cost little), and judged on the smaller ratio of the last two
doublings: a buffer whose capacity doubles can make one increment jump, a
super-linear cost makes both. A cost that does not grow (the last increment
within FLAT of c1: streamed input, a fixed buffer) passes as flat; an
increment is taken as at least FLAT * c1, so a step of a few per cent is not
read as a growth rate.

Rows whose axis is in KNOWN_SUPERLINEAR report XFAIL instead of FAIL (and
XPASS, which fails the check, once they scale: then empty the entry).
Environment: SCALING_JOBS (parallel runs, default 2), SCALING_ONLY (substrings,
comma-separated: only axes whose name holds one), SCALING_KEEP=1 (keep WORKDIR).
"""
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen  # noqa: E402

GROWTH_LIMIT = 2.6  # d2/d1: linear 2.0, quadratic 4.0
FLAT = 0.02         # an increment below 2% of c1 is no growth

# Axes known to scale super-linearly on main, each with its finding; they
# report XFAIL until the fix lands (then the entry goes, and XPASS says so).
# Keys: (axis, command, metric); command or metric None = every one.
KNOWN_SUPERLINEAR = {
    # empty: findings 1 and 2 of issue 23 and this check's own findings 3
    # (whitespace before the events' closing bracket) and 4 (whitespace
    # inside one event's args) scale linearly since the trace reader's and
    # the tree's fixes were merged
}

# (axis label, generator, N for check, N for bench, heap sizes up to hmax * N,
#  commands). Instructions are counted at N, 2N and 4N (callgrind is slow);
# heap at N, 2N, ... hmax * N (the preload runs natively), within the
# readers' limits where an axis is bounded (nesting 64, dims 64, parentheses 64).
# A command is (label, argv) with {in} the generated input and {dir} its folder.
IR_FACTORS = (1, 2, 4)


def heap_factors(hmax):
    return tuple(1 << i for i in range(hmax.bit_length()))


FLOPS = ("flops", ["flops", "{in}"])
LEDGER = ("ledger", ["ledger", "{in}"])
TREE = ("tree", ["tree", "{in}"])
REPORT = ("report", ["report", "{in}"])
# a tree shows at most 256 levels (deeper is refused, tree_too_deep: each row
# carries its full path); --depth bounds what is shown, so the module-depth
# axis measures reading and building the tree at any depth
TREE_D8 = ("tree --depth 8", ["tree", "--depth", "8", "{in}"])
PROFILE = ("profile", ["profile", "--by", "op", "--top", "0", "{in}"])
PROFILE_MOD = ("profile --by module", ["profile", "--by", "module", "--top", "0", "{in}"])
JOIN = ("join", ["join", "{in}"])
DIFF = ("diff A A", ["diff", "--top", "0", "{in}", "{in}"])  # issue 27: both read, every row aligned
RULES = ("rules loader + flops", ["--rules", "{in}", "flops", "{dir}/rule_ops.jsonl"])

CASES = [
    ("trace: events", gen.t_events, 400, 25000, 64, [FLOPS, LEDGER, TREE, REPORT, PROFILE, JOIN, DIFF]),
    ("trace: whitespace between events (one run)", gen.t_ws_between, 1 << 18, 8 << 20, 16,
     [FLOPS, JOIN]),
    ("trace: whitespace in every gap", gen.t_ws_gaps, 1 << 19, 32 << 20, 16, [FLOPS]),
    ("trace: whitespace inside args", gen.t_ws_args, 1 << 18, 8 << 20, 16, [FLOPS]),
    ("trace: whitespace before ]", gen.t_ws_end, 1 << 18, 8 << 20, 16, [FLOPS]),
    ("trace: op name length", gen.t_name_len, 1 << 15, 1 << 17, 16, [FLOPS, LEDGER, PROFILE]),
    ("trace: arg string length", gen.t_arg_str, 1 << 15, 1 << 17, 16, [FLOPS]),
    ("trace: JSON nesting in args (fast path)", gen.t_nest, 3, 3, 4, [FLOPS]),
    ("trace: JSON nesting in args (17 + N levels)", gen.t_nest_deep, 10, 10, 4, [FLOPS]),
    ("trace: arguments per op", gen.t_args, 128, 1024, 16, [FLOPS, LEDGER]),
    ("trace: dims per tensor", gen.t_dims, 8, 16, 8, [FLOPS]),
    ("trace: module depth", gen.t_module_depth, 64, 1024, 16, [TREE, REPORT]),
    ("trace: ranks (tlcost ranks DIR)", gen.t_ranks, 4, 64, 16, [("ranks", ["ranks", "{in}"])]),
    ("oplog: ops", gen.o_ops, 400, 25000, 64, [FLOPS, LEDGER, TREE, REPORT, PROFILE, JOIN, DIFF]),
    ("oplog: blank lines (one run)", gen.o_ws_lines, 1 << 18, 8 << 20, 16, [FLOPS]),
    ("oplog: whitespace inside a record", gen.o_ws_inline, 1 << 18, 8 << 20, 16, [FLOPS]),
    ("oplog: op name length", gen.o_name_len, 1 << 15, 1 << 20, 16, [FLOPS, LEDGER, PROFILE]),
    ("oplog: arg string length", gen.o_arg_str, 1 << 15, 1 << 20, 16, [FLOPS]),
    ("oplog: JSON nesting in an unknown field", gen.o_nest, 3, 3, 4, [FLOPS]),
    ("oplog: JSON nesting, 17 + N levels", gen.o_nest_deep, 10, 10, 4, [FLOPS]),
    ("oplog: module path depth", gen.o_module_depth, 64, 1024, 16, [TREE_D8, REPORT, PROFILE_MOD]),
    ("oplog: arguments per op", gen.o_args, 2048, 65536, 16, [FLOPS, LEDGER]),
    ("oplog: dims per tensor", gen.o_dims, 8, 16, 8, [FLOPS]),
    ("merge: partials", gen.m_partials, 16, 1024, 16,
     [("merge", ["merge", "--format", "json", "{in}/*"])]),
    ("rules: expression length", gen.r_expr_len, 64, 16384, 16, [RULES]),
    ("rules: expression nesting", gen.r_expr_nest, 8, 16, 8, [RULES]),
    ("rules: number of rules", gen.r_rules, 200, 50000, 16, [RULES]),
]


def known(axis, cmd, metric):
    for (a, c, m), why in KNOWN_SUPERLINEAR.items():
        if a == axis and c in (None, cmd) and m in (None, metric):
            return why
    return None


class Runner:
    def __init__(self, tlcost, work):
        self.work = work
        real = os.path.join(os.path.dirname(tlcost), ".libs", os.path.basename(tlcost))
        self.env = dict(os.environ)
        if os.path.exists(real):  # a libtool wrapper: run the binary itself
            self.env["LD_LIBRARY_PATH"] = (os.path.dirname(real) + ":" +
                                           self.env.get("LD_LIBRARY_PATH", "")).rstrip(":")
            tlcost = real
        self.tlcost = tlcost
        self.peakheap = os.environ.get("PEAKHEAP")

    def argv(self, argv, path):
        out = []
        for a in argv:
            a = a.replace("{in}", path).replace("{dir}", os.path.dirname(path))
            if a.endswith("/*"):
                d = a[:-2]
                out += sorted(os.path.join(d, f) for f in os.listdir(d))
            else:
                out.append(a)
        return [self.tlcost] + out

    def run(self, args, prefix=(), env=None):
        p = subprocess.run(list(prefix) + args, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, env=env or self.env)
        if p.returncode != 0:
            raise RuntimeError("%s: exit %d: %s" % (" ".join(args[:4]), p.returncode,
                                                   p.stderr.decode(errors="replace")[-400:]))

    def instructions(self, args, tag):
        out = os.path.join(self.work, tag + ".cg")
        self.run(args, ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out])
        with open(out) as f:
            for line in f:
                if line.startswith("totals:") or line.startswith("summary:"):
                    return int(line.split()[1])
        raise RuntimeError("no totals in " + out)

    def heap(self, args, tag):
        out = os.path.join(self.work, tag + ".heap")
        if self.peakheap:
            env = dict(self.env, LD_PRELOAD=self.peakheap, TLC_PEAKHEAP_OUT=out)
            self.run(args, env=env)
            with open(out) as f:
                return int(f.read().split()[0])
        self.run(args, ["valgrind", "--tool=massif", "--pages-as-heap=no",
                        "--massif-out-file=" + out])
        peak = 0
        with open(out) as f:
            snap = {}
            for line in f:
                m = re.match(r"(mem_heap_B|mem_heap_extra_B)=(\d+)", line)
                if m:
                    snap[m.group(1)] = int(m.group(2))
                    if len(snap) == 2:
                        peak = max(peak, sum(snap.values()))
                        snap = {}
        return peak

    def native(self, args):
        """CPU seconds (user + system) and peak RSS (KiB) of one native run."""
        p = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             env=self.env)
        err = p.stderr.read()
        _, status, ru = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        if p.returncode != 0:
            raise RuntimeError("%s: exit %d: %s" % (" ".join(args[:4]), p.returncode,
                                                   err.decode(errors="replace")[-400:]))
        return ru.ru_utime + ru.ru_stime, ru.ru_maxrss


def generate(runner, gen_fn, n, tag):
    d = os.path.join(runner.work, tag)
    os.makedirs(d, exist_ok=True)
    return gen_fn(n, d)


def partial_template(runner):
    """One flops partial, written by this tlcost, for the merge axis."""
    d = os.path.join(runner.work, "template")
    os.makedirs(d, exist_ok=True)
    src = gen.t_events(20, d)
    p = subprocess.run([runner.tlcost, "--format", "json", "flops", src],
                       stdout=subprocess.PIPE, env=runner.env, check=True)
    path = os.path.join(d, "partial.json")
    with open(path, "wb") as f:
        f.write(p.stdout)
    os.environ["PARTIAL_TEMPLATE"] = path


def slug(s):
    return re.sub(r"[^a-z0-9]+", "_", s.lower()).strip("_")


def verdict(c, axis, cmd, metric):
    """c: costs at N, 2N, 4N, ... Returns (growth, verdict)."""
    d = [b - a for a, b in zip(c, c[1:])]
    floor = max(FLAT * c[0], 1)
    ratios = [hi / max(lo, floor) for lo, hi in zip(d, d[1:])]
    # the last two doublings, where the trend dominates; of two, the smaller,
    # so that one step of a buffer's capacity is not read as a trend
    growth = min(ratios[-2:])
    if d[-1] <= floor:
        v = "PASS (flat)"
    elif growth <= GROWTH_LIMIT:
        v = "PASS"
    else:
        v = "FAIL"
    why = known(axis, cmd, metric)
    if why:
        v = "XFAIL (%s)" % why if v == "FAIL" else "XPASS (%s fixed? empty its entry)" % why
    return growth, v


def check(runner, cases):
    jobs = int(os.environ.get("SCALING_JOBS", "2"))
    tasks = {}
    t0 = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for axis, gen_fn, n, _, hmax, cmds in cases:
            for k in heap_factors(hmax):
                tag = "%s_%d" % (slug(axis), n * k)
                path = generate(runner, gen_fn, n * k, tag)
                for label, argv in cmds:
                    args = runner.argv(argv, path)
                    t = "%s_%s" % (tag, slug(label))
                    if k in IR_FACTORS:
                        tasks[(axis, label, "Ir", k)] = pool.submit(runner.instructions, args, t)
                    tasks[(axis, label, "heap", k)] = pool.submit(runner.heap, args, t)
        res = {}
        errors = []
        for key, fut in tasks.items():
            try:
                res[key] = fut.result()
            except Exception as e:  # a command that fails is a failure of the check
                errors.append("%s / %s: %s" % (key[0], key[1], e))
    rows = []
    bad = 0
    print("%-44s %-20s %-4s %8s %11s %11s %4s %11s %5s %6s  %s" % (
        "axis", "command", "cost", "N", "cost(N)", "cost(2N)", "k", "cost(kN)", "2N/N",
        "growth", "verdict"))
    for axis, _, n, _, hmax, cmds in cases:
        for label, _ in cmds:
            for metric, ks in (("Ir", IR_FACTORS), ("heap", heap_factors(hmax))):
                c = [res.get((axis, label, metric, k)) for k in ks]
                if None in c:
                    continue
                growth, v = verdict(c, axis, label, metric)
                if v.startswith("FAIL") or v.startswith("XPASS"):
                    bad += 1
                rows.append(v)
                print("%-44s %-20s %-4s %8d %11d %11d %4d %11d %5.2f %6.2f  %s" % (
                    axis, label, metric, n, c[0], c[1], ks[-1], c[-1], c[1] / c[0], growth, v))
    for e in errors:
        print("ERROR: " + e)
    print("scaling: %d rows, %d failed, %d errors, %d xfail; %.0f s with %d jobs"
          % (len(rows), bad, len(errors), sum(r.startswith("XFAIL") for r in rows),
             time.time() - t0, jobs))
    return 1 if bad or errors else 0


def bench(runner, cases):
    print("bench-scaling: native runs; CPU seconds (user+system) and peak RSS (MiB) at N, 2N, 4N")
    print("%-44s %-20s %10s %8s %8s %8s %5s %5s %8s %8s %8s %5s %5s" % (
        "axis", "command", "N", "cpu(N)", "cpu(2N)", "cpu(4N)", "2N/N", "4N/2N",
        "rss(N)", "rss(2N)", "rss(4N)", "2N/N", "4N/2N"))
    for axis, gen_fn, _, n, _, cmds in cases:
        paths = {}
        for k in (1, 2, 4):
            tag = "bench_%s_%d" % (slug(axis), n * k)
            paths[k] = generate(runner, gen_fn, n * k, tag)
        for label, argv in cmds:
            cpu, rss = {}, {}
            try:
                for k in (1, 2, 4):
                    cpu[k], rss[k] = runner.native(runner.argv(argv, paths[k]))
            except RuntimeError as e:
                print("%-44s %-20s ERROR %s" % (axis, label, e))
                continue
            print("%-44s %-20s %10d %8.2f %8.2f %8.2f %5.2f %5.2f %8.1f %8.1f %8.1f %5.2f %5.2f" % (
                axis, label, n, cpu[1], cpu[2], cpu[4], cpu[2] / max(cpu[1], 1e-3),
                cpu[4] / max(cpu[2], 1e-3), rss[1] / 1024, rss[2] / 1024, rss[4] / 1024,
                rss[2] / rss[1], rss[4] / rss[2]))
        for k in (1, 2, 4):  # the inputs are large: one axis at a time on disk
            shutil.rmtree(os.path.dirname(paths[k]), ignore_errors=True)
    return 0


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("check", "bench"):
        sys.exit("usage: scaling.py check|bench TLCOST WORKDIR")
    mode, tlcost, work = sys.argv[1:]
    os.makedirs(work, exist_ok=True)
    runner = Runner(os.path.abspath(tlcost), os.path.abspath(work))
    only = [o for o in os.environ.get("SCALING_ONLY", "").split(",") if o]
    cases = [c for c in CASES if not only or any(o in c[0] for o in only)]
    if any(c[1] is gen.m_partials for c in cases):
        partial_template(runner)
    rc = (check if mode == "check" else bench)(runner, cases)
    if os.environ.get("SCALING_KEEP") != "1":
        shutil.rmtree(work, ignore_errors=True)
    return rc


if __name__ == "__main__":
    sys.exit(main())
