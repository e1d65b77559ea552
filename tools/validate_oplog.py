#!/usr/bin/env python3
"""Check that files follow op log v1 (shared/spec/oplog-v1.md) strictly.

Standard library only.  Prints one line per problem ("PATH:LINE: message")
and exits 1 if any file has one; this is a writer-side check of what
tools/capture_oplog.py produces, stricter than a reader needs to be (it also
insists on the fields the capture script promises: phase, outputs, ...).

    python3 tools/validate_oplog.py LOG [LOG...]
"""

import gzip
import json
import sys

PHASES = ("forward", "backward", "optimizer", "other")
DTYPES = ("float64 float32 float16 bfloat16 float8_e4m3fn float8_e5m2 "
          "complex64 complex128 int64 int32 int16 int8 uint8 bool").split()
NONFINITE = ("inf", "-inf", "nan")


def _reject_constant(name):
    raise ValueError("non-standard JSON constant %s" % name)


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def check_tensor(v, where, errs):
    shape = v.get("shape")
    if not isinstance(shape, list) or \
            not all(is_int(d) and d >= 0 for d in shape):
        errs.append("%s: bad shape %r" % (where, shape))
    if not isinstance(v.get("dtype"), str):
        errs.append("%s: dtype missing" % where)
    elif v["dtype"] not in DTYPES:
        errs.append("%s: dtype %r not in the spec's list" % (where, v["dtype"]))
    stride = v.get("stride")
    if stride is not None and (not isinstance(stride, list)
                               or len(stride) != len(shape or [])):
        errs.append("%s: stride %r does not match shape" % (where, stride))


def check_value(v, where, errs):
    if isinstance(v, dict):
        check_tensor(v, where, errs)
    elif isinstance(v, list):
        for i, x in enumerate(v):
            check_value(x, "%s[%d]" % (where, i), errs)
    elif isinstance(v, float) and v != v:
        errs.append("%s: NaN literal" % where)


def check_record(r, ids, errs):
    if not is_int(r.get("id")) or r["id"] < 0:
        errs.append("id missing or negative")
    elif r["id"] in ids:
        errs.append("duplicate id %d" % r["id"])
    else:
        ids.add(r["id"])
    op = r.get("op")
    if not isinstance(op, str) or "::" not in op:
        errs.append("op %r is not namespace::name" % (op,))
    if r.get("phase") not in PHASES:
        errs.append("phase %r" % (r.get("phase"),))
    if not isinstance(r.get("args"), list):
        errs.append("args is not an array")
    if not isinstance(r.get("kwargs", {}), dict):
        errs.append("kwargs is not an object")
    if not isinstance(r.get("outputs"), list):
        errs.append("outputs is not an array")
    if "module" in r and (not isinstance(r["module"], str)
                          or not is_int(r.get("module_call"))):
        errs.append("module without string path / integer module_call")
    if r.get("phase") == "backward" and "module" in r:
        errs.append("backward op claims a module")
    for key in ("host_ns", "start_ns", "thread"):
        if key in r and not is_int(r[key]):
            errs.append("%s is not an integer" % key)
    check_value(r.get("args", []), "args", errs)
    check_value(list(r.get("kwargs", {}).values()), "kwargs", errs)
    check_value(r.get("outputs", []), "outputs", errs)


def check_header(h, errs):
    if h.get("format") != "tlcost-oplog" or h.get("version") != 1:
        errs.append("header format/version")
    for key in ("params", "tokens"):
        if key in h and not is_int(h[key]):
            errs.append("header %s is not an integer" % key)


def validate(path):
    with open(path, "rb") as f:
        raw = f.read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    problems, ids = [], set()
    text = raw.decode("utf-8")
    if not text.endswith("\n"):
        problems.append("%s: file does not end with a newline" % path)
    for n, line in enumerate(text.split("\n")[:-1], 1):
        errs = []
        try:
            obj = json.loads(line, parse_constant=_reject_constant)
        except ValueError as e:
            problems.append("%s:%d: %s" % (path, n, e))
            continue
        if not isinstance(obj, dict):
            errs.append("not an object")
        elif n == 1:
            check_header(obj, errs)
        else:
            check_record(obj, ids, errs)
        problems += ["%s:%d: %s" % (path, n, e) for e in errs]
    if not ids:
        problems.append("%s: no records" % path)
    return problems


def main(paths):
    bad = 0
    for p in paths:
        problems = validate(p)
        for line in problems:
            print(line)
        bad += bool(problems)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
