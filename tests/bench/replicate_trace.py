#!/usr/bin/env python3
"""Replicate a real Kineto trace to a large one (`make bench`, issue 24).

    replicate_trace.py SOURCE.json[.gz] NEVENTS OUT.json

Writes OUT.json: the source's top-level keys once (deviceProperties,
distributedInfo, ...) and its traceEvents copied K = ceil(NEVENTS / events)
times.  Copy k is the source shifted so that every copy is a distinct valid
step after the one before it:

  ts                            + k * TSPAN microseconds (TSPAN: the source's
                                  span from its first ts to its last end,
                                  rounded up to a whole second, plus a second)
  args "External id", "correlation", "Python id", "Python parent id",
  "Record function id", flow event "id"
                                + k * (the largest such value in the source + 1),
                                  one stride per field kind (External id and
                                  Record function id share one, as do
                                  correlation and flow id, and the two
                                  Python ids: the values that must keep
                                  matching each other keep matching)
  "ProfilerStep#N" in a name    N + k * (largest N + 1)

Everything else (names, argument lists, pid/tid, kernel fields) is copied
byte for byte as the source wrote it (numbers as their source text: the
fractional part of ts is kept, never passed through a float).  The copies
are written as one template with %-slots, filled once per copy, so writing
a few GB takes seconds per copy batch, not a JSON encoder per event.
"""
import gzip
import json
import re
import sys
from decimal import Decimal

SHIFTED = {  # args key -> stride class
    "External id": "ext",
    "Record function id": "ext",
    "correlation": "corr",
    "Python id": "py",
    "Python parent id": "py",
}


class Slot:
    """A number written per copy: base + k * stride[kind]."""
    __slots__ = ("kind", "base", "frac")

    def __init__(self, kind, base, frac=""):
        self.kind, self.base, self.frac = kind, base, frac


def number_text(v):
    # Decimal from the source's own text: str() gives it back exactly
    # (no exponent for the values Kineto writes; JSON accepts either)
    return str(v)


def main():
    src, nev, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    op = gzip.open if src.endswith(".gz") else open
    with op(src, "rt", encoding="utf-8") as f:
        doc = json.load(f, parse_float=Decimal)
    events = doc.pop("traceEvents")
    n = len(events)
    copies = max(1, -(-nev // n))

    # strides: largest value of each class, + 1
    top = {"ext": 0, "corr": 0, "py": 0, "step": 0}
    t0, t1 = None, None
    step_re = re.compile(r"^ProfilerStep#(\d+)$")
    for e in events:
        a = e.get("args") or {}
        for k, cls in SHIFTED.items():
            if isinstance(a.get(k), int):
                top[cls] = max(top[cls], a[k])
        if e.get("ph") in ("s", "f", "t") and isinstance(e.get("id"), int):
            top["corr"] = max(top["corr"], e["id"])
        m = step_re.match(str(e.get("name", "")))
        if m:
            top["step"] = max(top["step"], int(m.group(1)))
        if "ts" in e:
            ts = Decimal(e["ts"])
            end = ts + Decimal(e.get("dur", 0))
            t0 = ts if t0 is None or ts < t0 else t0
            t1 = end if t1 is None or end > t1 else t1
    stride = {k: v + 1 for k, v in top.items()}
    stride["ts"] = int((t1 - t0) // 1000000 + 2) * 1000000 if t0 is not None else 0

    # the template: literal text (with % doubled) and %d slots
    parts, slots = [], []

    def lit(s):
        parts.append(s.replace("%", "%%"))

    def slot(kind, base, frac=""):
        parts.append("%d" + frac.replace("%", "%%"))
        slots.append((kind, base))

    def value(v, key=None, in_args=False):
        if in_args and key in SHIFTED and isinstance(v, int) and not isinstance(v, bool):
            slot(SHIFTED[key], v)
        elif isinstance(v, dict):
            lit("{")
            for i, (k, x) in enumerate(v.items()):
                lit((", " if i else "") + json.dumps(k) + ": ")
                value(x, k, in_args)
            lit("}")
        elif isinstance(v, list):
            lit("[")
            for i, x in enumerate(v):
                if i:
                    lit(", ")
                value(x)
            lit("]")
        elif isinstance(v, Decimal):
            lit(number_text(v))
        else:
            lit(json.dumps(v))

    for idx, e in enumerate(events):
        lit("\n" if idx == 0 else ",\n")
        lit("{")
        for i, (k, x) in enumerate(e.items()):
            lit((", " if i else "") + json.dumps(k) + ": ")
            if k == "ts" and isinstance(x, (int, Decimal)):
                t = str(x)
                whole, dot, frac = t.partition(".")
                if "e" in t.lower() or whole.startswith("-"):
                    raise SystemExit(f"replicate_trace: ts {t} not a plain positive number")
                slot("ts", int(whole), dot + frac)
            elif k == "id" and e.get("ph") in ("s", "f", "t") and isinstance(x, int):
                slot("corr", x)
            elif k == "name" and isinstance(x, str) and step_re.match(x):
                lit('"ProfilerStep#')
                slot("step", int(step_re.match(x).group(1)), '"')
            elif k == "args" and isinstance(x, dict):
                value(x, None, True)
            else:
                value(x)
        lit("}")
    template = "".join(parts)
    kinds = [k for k, _ in slots]
    bases = [b for _, b in slots]

    with open(out, "w", encoding="utf-8") as f:
        f.write("{")
        for k, v in doc.items():
            f.write(json.dumps(k) + ": ")
            def flush_value(x):
                if isinstance(x, Decimal):
                    return number_text(x)
                if isinstance(x, dict):
                    return "{" + ", ".join(json.dumps(a) + ": " + flush_value(b) for a, b in x.items()) + "}"
                if isinstance(x, list):
                    return "[" + ", ".join(flush_value(b) for b in x) + "]"
                return json.dumps(x)
            f.write(flush_value(v) + ",\n")
        f.write('"traceEvents": [')
        for c in range(copies):
            off = {k: c * s for k, s in stride.items()}
            if c:
                f.write(",")
            f.write(template % tuple([b + off[k] for k, b in zip(kinds, bases)]))
        f.write("\n]}\n")
    print(f"{n} events x {copies} copies = {n * copies} events; "
          f"ts stride {stride['ts']} us", file=sys.stderr)


if __name__ == "__main__":
    main()
