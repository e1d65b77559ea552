#!/usr/bin/env python3
"""Independent check of an annotated trace (tlcost annotate, docs/annotate.md).

usage: annotate_check.py INPUT OUTPUT

Reads both files (plain or gzip) with the Python standard library only and
checks, without using anything tlcost computed but what it wrote:

 1. bytes: the output is the input's bytes with insertions only, and every
    insertion is made of JSON object members whose keys start with
    "tlcost." (spliced into an existing args object), or of one "args"
    member holding only such members (an op event that had no args), or of
    counter events ({"ph":"C","cat":"tlcost",...}) before the event array's
    closing bracket;
 2. events: parsed (object order and duplicate keys kept), the output's
    events are the input's events, in order, each equal to its original once
    the tlcost.* keys (and an args object that holds only them) are removed,
    followed by counter events only;
 3. counters: per process and counter name, ts never goes back and the
    value never decreases (cumulative sums);
 4. unknown is never 0: an event with tlcost.unknown has no tlcost.flops
    unless it says which terms are missing (a partly known op), and no
    tlcost.* value is null.

Prints one line per annotated event: "ANNOT name class flops=F bytes=B
macs=M unknown=U" (- where absent), and per process "COUNTER pid flops=F
bytes=B" (the last cumulative values), then "OK" or the problems, exit 1.
"""
import gzip
import json
import sys


def load_bytes(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return data.decode("utf-8")


def pairs(items):
    return items  # keep order and duplicates: a list of (key, value)


def parse(text):
    return json.loads(text, object_pairs_hook=pairs)


def get(obj, key):
    for k, v in obj:
        if k == key:
            return v
    return None


DEC = json.JSONDecoder()


def members_end(out, j):
    """Parses '"tlcost.K": V' members (comma separated) from out[j]; returns
    the index after the last, or -1 when out[j] does not start one."""
    first = True
    while True:
        k = j
        if not first:
            if out[k] != ",":
                return j
            k += 1
        if not out.startswith('"tlcost.', k):
            return j if not first else -1
        key, k = DEC.raw_decode(out, k)
        if out[k] != ":":
            return -1
        _, k = DEC.raw_decode(out, k + 1)
        j = k
        first = False


def insertion_end(out, j):
    """Where an insertion starting at out[j] ends, or -1 if none starts."""
    k = j + 1 if out[j] == "," else j
    if out.startswith('"tlcost.', k):
        e = members_end(out, k)
        return e
    if out.startswith('"args":{"tlcost.', k):
        e = members_end(out, k + len('"args":{'))
        return e + 1 if e > 0 and out[e] == "}" else -1
    # counter events: ",\n{...}" or "\n{...}" repeated, then "\n"
    e = j
    found = False
    while True:
        k = e
        if out.startswith(",\n", k):
            k += 2
        elif out.startswith("\n", k):
            k += 1
        else:
            break
        if not out.startswith('{"ph":"C","cat":"tlcost"', k):
            break
        _, k = DEC.raw_decode(out, k)
        e = k
        found = True
    if found and out.startswith("\n", e):
        e += 1
    return e if found else -1


def check_bytes(inp, out, problems):
    i = j = 0
    n_ins = 0
    while i < len(inp) or j < len(out):
        # copy the common run quickly
        if i < len(inp) and j < len(out) and inp[i] == out[j]:
            # find the next mismatch in a block
            step = 4096
            while (i + step <= len(inp) and j + step <= len(out) and
                   inp[i:i + step] == out[j:j + step]):
                i += step
                j += step
            while i < len(inp) and j < len(out) and inp[i] == out[j]:
                i += 1
                j += 1
            continue
        if j >= len(out):
            problems.append("output ends before the input at input offset %d" % i)
            return n_ins
        e = insertion_end(out, j)
        if e <= j:
            problems.append("output differs from the input at output offset %d: %r vs %r"
                            % (j, out[j:j + 60], inp[i:i + 60]))
            return n_ins
        if i < len(inp) and inp[i] not in "}]":
            problems.append("insertion at output offset %d is not before a closing bracket" % j)
        n_ins += 1
        j = e
    return n_ins


def strip(ev, orig):
    """The event without tlcost.* keys (and without an args that only held
    them, when the original event had no args)."""
    res = []
    had_args = any(k == "args" for k, _ in orig)
    for k, v in ev:
        if k == "args" and isinstance(v, list):
            kept = [(a, b) for a, b in v if not a.startswith("tlcost.")]
            if not kept and v and not had_args:
                continue  # an args object tlcost added whole
            res.append((k, kept))
        else:
            res.append((k, v))
    return res


def events_of(doc):
    if isinstance(doc, list) and (not doc or isinstance(doc[0], tuple)):
        v = get(doc, "traceEvents")
        return v
    return doc


def main():
    inp_text, out_text = load_bytes(sys.argv[1]), load_bytes(sys.argv[2])
    problems = []
    n_ins = check_bytes(inp_text, out_text, problems)
    a = events_of(parse(inp_text))
    b = events_of(parse(out_text))
    if len(b) < len(a):
        problems.append("output has %d events, input %d" % (len(b), len(a)))
    for idx, (x, y) in enumerate(zip(a, b)):
        if strip(y, x) != x:
            problems.append("event %d changed: %r -> %r" % (idx, x, y))
            break
        args = get(y, "args") or []
        t = {k: v for k, v in args if isinstance(k, str) and k.startswith("tlcost.")}
        if t:
            for k, v in t.items():
                if v is None:
                    problems.append("event %d: %s is null" % (idx, k))
            if "tlcost.unknown" in t and "tlcost.flops" in t and "tlcost.missing" not in t:
                problems.append("event %d: unknown cost with flops" % idx)
            f = lambda k: str(t[k]) if k in t else "-"
            print("ANNOT %s %s flops=%s bytes=%s macs=%s unknown=%s" %
                  (get(y, "name"), t.get("tlcost.class"), f("tlcost.flops"),
                   f("tlcost.bytes"), f("tlcost.macs"), f("tlcost.unknown")))
    last = {}
    for y in b[len(a):]:
        if get(y, "ph") != "C" or get(y, "cat") != "tlcost":
            problems.append("a non-counter event was added: %r" % (y,))
            continue
        key = (get(y, "pid"), get(y, "name"))
        args = get(y, "args")
        (name, val), = args
        ts = float(get(y, "ts"))
        if key in last and (ts < last[key][0] or val < last[key][1]):
            problems.append("counter %r goes back at ts %s" % (key, ts))
        last[key] = (ts, val, name)
    per_pid = {}
    for (pid, _), (_, val, name) in last.items():
        per_pid.setdefault(pid, {})[name] = val
    for pid in sorted(per_pid, key=str):
        print("COUNTER pid=%s flops=%s bytes=%s" % (pid, per_pid[pid].get("flops"),
                                                     per_pid[pid].get("bytes")))
    print("INSERTIONS %d EVENTS %d ADDED %d" % (n_ins, len(a), len(b) - len(a)))
    if problems:
        for p in problems[:20]:
            print("PROBLEM:", p)
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
