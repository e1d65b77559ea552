#!/bin/sh
# Strings that are not well-formed UTF-8, and \u escapes of lone surrogates,
# are refused by the op log and trace readers (issue 23, item 5), on the
# simdjson path and on yajl's (TLCOST_JSON_FAST=0) alike: code
# oplog_utf8_invalid / trace_utf8_invalid, a remedy, and the line and
# column of the offending sequence's first byte (or of the escape's
# backslash). Before the fix, yajl let overlong forms (C0 AF), encoded
# surrogates (ED A0 80) and lead bytes F5-F7 through into the JSON output
# (which Python then failed to decode), and turned a lone \ud800 into '?',
# renaming the op. Refused anywhere in the document, in fields the reader
# ignores too (the fast path's simdjson validates the whole text, so both
# paths can only agree this way).
#
# Expectations come from the inputs built here: the column is the byte
# offset of the bad sequence in its line, plus one; the sequences are
# invalid by RFC 3629 section 3 (its table of well-formed byte sequences)
# and RFC 8259 section 7 (a surrogate escape comes as a high-low pair).
# Well-formed names (U+00E9, the pair \ud83d\ude00 = U+1F600, U+10FFFF as
# \udbff\udfff) must come out of `ledger --format json` decoded exactly.
# Under TLCOST_TEST_WRAPPER=valgrind only the op-name placements run (every
# sequence still, on both paths), to keep the memcheck run short.
set -u
. "${top_srcdir:-.}/tests/cli_lib.sh"
tlc_need python3
tlc_tmpdir utf8

python3 - "$T" "$tmp" <<'PY'
import json, os, subprocess, sys
T, tmp = sys.argv[1:3]
fails = []
HDR = b'{"format":"tlcost-oplog","version":1}\n'
BAD = [  # (bytes inside a string, why it is not well-formed)
    (b"\xc0\xaf", "overlong"), (b"\xe0\x80\xaf", "overlong"), (b"\xf0\x8f\xbf\xbf", "overlong"),
    (b"\xed\xa0\x80", "encoded surrogate"), (b"\xed\xbf\xbf", "encoded surrogate"),
    (b"\xf4\x90\x80\x80", "beyond U+10FFFF"), (b"\xf5\x80\x80\x80", "beyond U+10FFFF"),
    (b"\xff", "never in UTF-8"), (b"\x80", "stray continuation"),
    (b"\xe2\x82", "truncated"), (b"\xf0\x9f\x98", "truncated"), (b"\xc3x", "truncated"),
    (rb"\ud800", "lone high"), (rb"\udbff\u0041", "high then not low"),
    (rb"\ud800\ud800", "high then high"), (rb"\ud800x", "high then text"),
    (rb"\udc00", "lone low"), (rb"\uDFFF", "lone low"),
]
GOOD = [(b"\xc3\xa9", "\u00e9"), (rb"\ud83d\ude00", "\U0001F600"),
        (rb"\uDBFF\uDFFF", "\U0010FFFF"), (b"\xf4\x8f\xbf\xbf", "\U0010FFFF"),
        (b"\xe2\x82\xac", "\u20ac")]

def run(args, fast):
    env = dict(os.environ, TLCOST_JSON_FAST=fast)
    return subprocess.run([T] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)

def oplog(seq, where):
    if where == "name":
        rec = b'{"id":0,"op":"aten::mm' + seq + b'","args":[]}'
    else:  # an unknown field the reader ignores
        rec = b'{"id":0,"op":"aten::mm","zz":{"k":"a' + seq + b'"},"args":[]}'
    return HDR + rec + b"\n", 2, rec.index(seq) + 1

EV = (b'{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":1,"dur":2,'
      b'"args":{"External id":1}}')
def trace(seq, where):
    if where == "name":
        ev = EV.replace(b'"aten::mm"', b'"aten::mm' + seq + b'"')
        text = b'{"traceEvents":[\n' + EV + b',\n' + ev + b'\n]}'
    elif where == "ignored":  # a Python frame: skipped, only counted
        ev = (b'{"ph":"X","cat":"python_function","name":"f' + seq +
              b'","pid":1,"tid":1,"ts":1,"dur":2}')
        text = b'{"traceEvents":[\n' + EV + b',\n' + ev + b'\n]}'
    else:  # outside the events, in a header field
        text = b'{"deviceProperties":[{"name":"GPU' + seq + b'"}],\n"traceEvents":[\n' + EV + b'\n]}'
    line = text.count(b"\n", 0, text.index(seq)) + 1
    col = text.index(seq) - (text.rfind(b"\n", 0, text.index(seq)) + 1) + 1
    return text, line, col

cases = 0
for seq, why in BAD:
    for kind, make, code, wheres in (("oplog", oplog, "oplog_utf8_invalid", ("name", "ignored")),
                                     ("trace", trace, "trace_utf8_invalid",
                                      ("name", "ignored", "header"))):
        for where in wheres[:1] if os.environ.get("TLCOST_TEST_WRAPPER") == "valgrind" else wheres:
            data, line, col = make(seq, where)
            path = os.path.join(tmp, "bad." + ("jsonl" if kind == "oplog" else "json"))
            open(path, "wb").write(data)
            for fast in ("1", "0"):
                cases += 1
                p = run(["flops", "--format", "json", path], fast)
                err = p.stderr.decode("utf-8", "replace")
                label = "%s %s %r (%s) fast=%s" % (kind, where, seq, why, fast)
                if p.returncode != 1 or ("error: %s:" % code) not in err:
                    fails.append("%s: exit %d, %s" % (label, p.returncode, err[:200]))
                    continue
                if ("%s:%d:%d" % (path, line, col)) not in err:
                    fails.append("%s: want %s:%d:%d in %s" % (label, path, line, col, err[:300]))
                if "remedy:" not in err or p.stdout:
                    fails.append("%s: no remedy or output written" % label)

for seq, name in GOOD:
    for kind, make in (("oplog", oplog), ("trace", trace)):
        data, _, _ = make(seq, "name")
        path = os.path.join(tmp, "good." + ("jsonl" if kind == "oplog" else "json"))
        open(path, "wb").write(data.replace(b"aten::mm" + seq, b"my::op" + seq))
        for fast in ("1", "0"):
            cases += 1
            p = run(["ledger", "--format", "json", path], fast)
            try:
                names = [e["name"] for e in json.loads(p.stdout.decode("utf-8"))["ledger"]]
            except Exception as e:
                fails.append("%s %r fast=%s: %s %s" % (kind, seq, fast, e, p.stderr[:200]))
                continue
            names = [n for n in names if n.startswith("my::")]  # (a trace's other op: aten::mm)
            if names != ["my::op" + name]:
                fails.append("%s %r fast=%s: names %r, want %r" % (kind, seq, fast, names,
                                                                   ["my::op" + name]))
for f in fails:
    print("FAIL: " + f)
print("%d cases, %d failed" % (cases, len(fails)))
sys.exit(1 if fails else 0)
PY
