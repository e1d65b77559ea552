#!/usr/bin/python3
"""Inputs for the size-scaling check (tests/scaling/scaling.py), written on
the fly: one function per axis, each taking the size N along that axis and
a folder, writing the input there and returning the path the commands read
(a file, or a folder for `tlcost ranks`). Everything else in the input is
fixed, so the cost of a run is fixed startup + fixed base + the axis' part.

    gen.py AXIS N OUTDIR     writes one input and prints its path

Standard library only. Sizes stay within the readers' documented limits
(docs/kineto.md, docs/oplog-v1.md, docs/rule-files.md): a trace nests at
most 64 JSON levels, holds at most 4096 arguments of at most 64 dims, and
strings up to 1 MiB; an op log record nests at most 64 levels; a rule-file
expression has at most 64 parentheses and 256 operators in depth."""
import json
import os
import sys

# ---------------------------------------------------------------- traces

TRACE_HEAD = ('{"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "Synthetic GPU"}],\n'
              '"distributedInfo": {"backend": "nccl", "rank": %d, "world_size": %d},\n'
              '"traceEvents": [')


def mm_event(i, name="aten::mm", args_extra="", concrete=("", ""), ts=None):
    """A cpu_op with a known cost (aten::mm of [64,32] x [32,16]) and External id i + 1."""
    return ('{"ph": "X", "cat": "cpu_op", "name": %s, "pid": 1, "tid": 1, "ts": %d, "dur": 8, '
            '"args": {"External id": %d, "Input Dims": [[64, 32], [32, 16]], '
            '"Input type": ["float", "float"], "Concrete Inputs": %s%s}}'
            % (json.dumps(name), 10 * i if ts is None else ts, i + 1, json.dumps(list(concrete)),
               args_extra))


def launch_events(i):
    """The runtime call and kernel that op i launched (correlation i + 1)."""
    return [
        '{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, '
        '"ts": %d, "dur": 2, "args": {"External id": %d, "correlation": %d}}' % (10 * i + 1, i + 1, i + 1),
        '{"ph": "X", "cat": "kernel", "name": "gemm_kernel", "pid": 0, "tid": 7, "ts": %d, '
        '"dur": 5, "args": {"device": 0, "stream": 7, "correlation": %d}}' % (10 * i + 3, i + 1),
    ]


def op_with_launch(i, **kw):
    return [mm_event(i, **kw)] + launch_events(i)


def trace_text(events, seps=None, tail="", rank=0, world=1):
    """The document around events; seps[k] (default ", ") goes between event k and k + 1."""
    parts = [TRACE_HEAD % (rank, world)]
    for k, e in enumerate(events):
        if k:
            parts.append(seps.get(k - 1, ",\n") if seps else ",\n")
        parts.append(e)
    parts.append(tail + "]}\n")
    return "".join(parts)


def write(outdir, name, text):
    path = os.path.join(outdir, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def ws(n):
    """n bytes of JSON whitespace, all four kinds."""
    unit = " \n\t \r\n  "
    return (unit * (n // len(unit) + 1))[:n]


BASE_OPS = 20  # ops of a trace or op log whose size grows along another axis


def base_trace_events(n=BASE_OPS):
    evs = []
    for i in range(n):
        evs += op_with_launch(i)
    return evs


def t_events(n, d):
    """n ops (cpu_op + runtime call + kernel each)."""
    return write(d, "events.json", trace_text(base_trace_events(n)))


def t_ws_between(n, d):
    """one run of n whitespace bytes between two events in the middle."""
    evs = base_trace_events()
    mid = len(evs) // 2
    return write(d, "ws_between.json", trace_text(evs, seps={mid: "," + ws(n)}))


def t_ws_gaps(n, d):
    """n whitespace bytes spread evenly over every gap between events (of
    two ops: five gaps, so that from the check's sizes on every gap is
    longer than the trace reader's 64 KiB window; with many short gaps the
    cost per byte steps from the fast path's to yajl's as the gaps outgrow
    the window, between 1 and 4 MiB over 59 gaps: a step between two
    linear regimes that the three sizes of the check would read as a trend)."""
    evs = base_trace_events(2)
    per = n // (len(evs) - 1)
    return write(d, "ws_gaps.json", trace_text(evs, seps={k: "," + ws(per) for k in range(len(evs) - 1)}))


def t_ws_args(n, d):
    """one run of n whitespace bytes inside the args object of one event."""
    evs = base_trace_events()
    evs[0] = mm_event(0, args_extra="," + ws(n) + '"note": 1')
    return write(d, "ws_args.json", trace_text(evs))


def t_ws_end(n, d):
    """n whitespace bytes before the events array's closing bracket."""
    return write(d, "ws_end.json", trace_text(base_trace_events(), tail=ws(n)))


def t_name_len(n, d):
    """op names of n bytes (unknown ops: each a ledger entry and a profile row)."""
    evs = base_trace_events()
    for k in range(4):
        evs.append(mm_event(BASE_OPS + k, name="mylib::op%d_" % k + "n" * n))
    return write(d, "name_len.json", trace_text(evs))


def t_arg_str(n, d):
    """a string argument (Concrete Inputs) of n bytes on each of 4 ops."""
    evs = base_trace_events()
    for k in range(4):
        evs[3 * k] = mm_event(k, concrete=("c" * n, ""))
    return write(d, "arg_str.json", trace_text(evs))


def nested(depth, leaf=1):
    """JSON text nested depth levels (arrays and objects alternating)."""
    text = json.dumps(leaf)
    for k in range(depth):
        text = ('{"k": %s}' if k % 2 else "[%s, 0]") % text
    return text


# An ignored value nested deeper than the fast path's quiet walk
# (QUIET_DEPTH, 16 levels, engine/input/json/json_fast.cpp) sends its event to
# yajl: a step in cost, not a trend. The nesting axes therefore stay on one
# side of it: depth n (up to 12), or NEST_DEEP + n (from 27 up to 57, the
# reader's bound of 64 levels less the 4 around an args value).
NEST_DEEP = 17


def t_nest(n, d, base=0):
    """every one of 200 ops carries an ignored args value nested base + n levels."""
    evs = []
    for i in range(200):
        evs.append(mm_event(i, args_extra=', "deep": ' + nested(base + n)))
    return write(d, "nest.json", trace_text(evs))


def t_nest_deep(n, d):
    """as t_nest, NEST_DEEP + n levels (past the fast path's quiet walk)."""
    return t_nest(n, d, NEST_DEEP)


def t_args(n, d):
    """20 ops of n tensor arguments each (mylib::wide: unknown, so ledgered)."""
    evs = []
    for i in range(20):
        evs.append('{"ph": "X", "cat": "cpu_op", "name": "mylib::wide", "pid": 1, "tid": 1, '
                   '"ts": %d, "dur": 8, "args": {"External id": %d, "Input Dims": %s, '
                   '"Input type": %s}}' % (10 * i, i + 1, json.dumps([[2, 3]] * n),
                                           json.dumps(["float"] * n)))
    return write(d, "args.json", trace_text(evs))


def t_dims(n, d):
    """200 aten::add ops of two tensors of n dims each (all 1 but the first)."""
    evs = []
    shape = [4] + [1] * (n - 1)
    for i in range(200):
        evs.append('{"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, '
                   '"ts": %d, "dur": 8, "args": {"External id": %d, "Input Dims": %s, '
                   '"Input type": ["float", "float", "Scalar"], "Concrete Inputs": ["", "", "1"]}}'
                   % (10 * i, i + 1, json.dumps([shape, shape, []])))
    return write(d, "dims.json", trace_text(evs))


def t_module_depth(n, d):
    """nn.Module frames nested n deep around 20 ops (each op's module path has n parts)."""
    evs = []
    span = 10 * BASE_OPS + 10
    for k in range(n):  # frame k encloses frame k + 1
        evs.append('{"ph": "X", "cat": "python_function", "name": "nn.Module: Block_%d", "pid": 1, '
                   '"tid": 1, "ts": %d, "dur": %d}' % (k, k, span + 2 * (n - k)))
    for i in range(BASE_OPS):
        evs.append(mm_event(i, ts=n + 10 * i + 1))
    return write(d, "module_depth.json", trace_text(evs))


def t_ranks(n, d):
    """a folder of n rank traces (20 ops each), for `tlcost ranks DIR`."""
    sub = os.path.join(d, "ranks")
    os.makedirs(sub, exist_ok=True)
    for r in range(n):
        write(sub, "rank%05d.json" % r, trace_text(base_trace_events(), rank=r, world=n))
    return sub


# ---------------------------------------------------------------- op logs

OPLOG_HEAD = json.dumps({"format": "tlcost-oplog", "version": 1, "producer": "tests/scaling"}) + "\n"


def mm_record(i, op="aten::mm", module="", extra=None, args=None):
    r = {"id": i, "op": op, "phase": "forward", "module": module,
         "args": args if args is not None else
         [{"shape": [64, 32], "dtype": "float32"}, {"shape": [32, 16], "dtype": "float32"}],
         "outputs": [{"shape": [64, 16], "dtype": "float32"}]}
    if extra:
        r.update(extra)
    return json.dumps(r)


def kernel_records(i):
    return [json.dumps({"kind": "runtime", "name": "cudaLaunchKernel", "thread": 1,
                        "start_ns": 1000 * i + 100, "end_ns": 1000 * i + 200,
                        "correlation": i + 1, "external_id": i}),
            json.dumps({"kind": "kernel", "name": "gemm_kernel", "device": 0, "stream": 7,
                        "start_ns": 1000 * i + 300, "end_ns": 1000 * i + 800,
                        "correlation": i + 1})]


def oplog(lines):
    return OPLOG_HEAD + "".join(l + "\n" for l in lines)


def base_records(n=BASE_OPS, **kw):
    return [mm_record(i, extra={"start_ns": 1000 * i, "thread": 1}, **kw) for i in range(n)]


def o_ops(n, d):
    """n ops, each with its runtime call and kernel (so `join` has work)."""
    lines = []
    for i in range(n):
        lines.append(mm_record(i, module="layer%d" % (i % 8),
                               extra={"start_ns": 1000 * i, "thread": 1}))
        lines += kernel_records(i)
    return write(d, "ops.jsonl", oplog(lines))


def o_ws_lines(n, d):
    """one run of n bytes of blank (whitespace-only) lines between two records."""
    lines = base_records()
    unit = "   \t \r\n\n"
    blank = (unit * (n // len(unit) + 1))[:n].rstrip("\n") + "\n"
    lines.insert(BASE_OPS // 2, blank.rstrip("\n"))
    return write(d, "ws_lines.jsonl", oplog(lines))


def o_ws_inline(n, d):
    """one run of n spaces and tabs between two tokens inside one record."""
    lines = base_records()
    pad = (" \t" * (n // 2 + 1))[:n]
    lines[0] = lines[0].replace('"op":', '"op":' + pad, 1)
    return write(d, "ws_inline.jsonl", oplog(lines))


def o_name_len(n, d):
    """4 unknown ops whose names are n bytes long, among 20 known ones."""
    lines = base_records()
    for k in range(4):
        lines.append(mm_record(BASE_OPS + k, op="mylib::op%d_" % k + "n" * n))
    return write(d, "name_len.jsonl", oplog(lines))


def o_arg_str(n, d):
    """a string keyword argument of n bytes on 4 ops."""
    lines = base_records()
    for k in range(4):
        lines[k] = mm_record(k, extra={"kwargs": {"note": "s" * n}})
    return write(d, "arg_str.jsonl", oplog(lines))


def o_nest(n, d, base=0):
    """200 ops, each with an unknown field nested base + n levels (skipped by the reader)."""
    lines = []
    for i in range(200):
        lines.append(mm_record(i)[:-1] + ', "unknown_field": ' + nested(base + n) + "}")
    return write(d, "nest.jsonl", oplog(lines))


def o_nest_deep(n, d):
    """as o_nest, NEST_DEEP + n levels (an op log record nests at most 64)."""
    return o_nest(n, d, NEST_DEEP)


def o_module_depth(n, d):
    """20 ops in a module path n deep (m0.m1...), alternating between two leaves."""
    path = ".".join("m%d" % k for k in range(n - 1))
    lines = []
    for i in range(BASE_OPS):
        leaf = (path + "." if path else "") + "leaf%d" % (i % 2)
        lines.append(mm_record(i, module=leaf, extra={"module_type": "Linear"}))
    return write(d, "module_depth.jsonl", oplog(lines))


def o_args(n, d):
    """5 unknown ops of n tensor arguments each (the check starts at 2048
    arguments, lines of about 80 KB: below about 1000 the cost per argument
    steps up as the lines outgrow the op-log reader's batch window, a step
    between two linear regimes, not a trend)."""
    args = [{"shape": [2, 3], "dtype": "float32"}] * n
    lines = [mm_record(i, op="mylib::wide", args=args) for i in range(5)]
    return write(d, "args.jsonl", oplog(lines))


def o_dims(n, d):
    """200 aten::add ops of two tensors of n dims each."""
    shape = [4] + [1] * (n - 1)
    t = {"shape": shape, "dtype": "float32"}
    lines = [mm_record(i, op="aten::add", args=[t, t, 1]) for i in range(200)]
    return write(d, "dims.jsonl", oplog(lines))


def m_partials(n, d):
    """n flops partials (JSON of `tlcost flops --format json`), ranks 0..n-1.
    Needs one partial written by tlcost: PARTIAL_TEMPLATE (set by the runner)."""
    sub = os.path.join(d, "partials")
    os.makedirs(sub, exist_ok=True)
    with open(os.environ["PARTIAL_TEMPLATE"]) as f:
        doc = json.load(f)
    paths = []
    for r in range(n):
        doc["distributed"] = {"backend": "nccl", "rank": r, "world_size": n}
        paths.append(write(sub, "p%05d.json" % r, json.dumps(doc)))
    return sub


# ---------------------------------------------------------------- rule files

RULE_OPS = oplog([mm_record(i, op="scal::r%d" % (i % 4)) for i in range(8)])


def rulefile(rules, d, name):
    write(d, "rule_ops.jsonl", RULE_OPS)
    return write(d, name, "".join(rules))


def rule(k, expr):
    return "rule scal::r%d\n  macs = %s\n  other = 0\nend\n" % (k, expr)


def balanced(n):
    """an expression of n leaves, a balanced tree of + and - (depth log2 n)."""
    if n == 1:
        return "numel(in0)"
    h = n // 2
    op = " - " if n % 3 == 0 else " + "
    return "(" + balanced(h) + op + balanced(n - h) + ")"


def r_expr_len(n, d):
    """4 rules whose macs expressions have n leaves each."""
    return rulefile([rule(k, balanced(n)) for k in range(4)], d, "expr_len.tlrules")


def r_expr_nest(n, d):
    """200 rules, each an expression in n nested parentheses (at most 64)."""
    expr = "(" * n + "numel(in0) + 1" + ")" * n
    rules = [rule(k, expr) for k in range(200)]
    return rulefile(rules, d, "expr_nest.tlrules")


def r_rules(n, d):
    """n rules (4 of them called by the op log)."""
    rules = [rule(k, "numel(in0) * dim(in1, 0) + %d" % k) for k in range(n)]
    return rulefile(rules, d, "rules.tlrules")


AXES = {name: fn for name, fn in globals().items()
        if callable(fn) and name[:2] in ("t_", "o_", "r_", "m_")}


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in AXES:
        sys.exit("usage: gen.py AXIS N OUTDIR (AXIS: %s)" % " ".join(sorted(AXES)))
    os.makedirs(sys.argv[3], exist_ok=True)
    print(AXES[sys.argv[1]](int(sys.argv[2]), sys.argv[3]))
