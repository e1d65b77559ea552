#!/bin/sh
# A trace's document object holds each key the reader reads once
# (issue 23, item 11): a second "traceEvents" array was read as well (its
# events counted twice), a second "deviceProperties" or "distributedInfo"
# half read. Each is refused with trace_duplicate_key at the second key
# (the column just past its closing quote, where yajl stands when it
# delivers the key), on the simdjson path and on yajl's alike. Keys the
# reader ignores may repeat. Expectations come from the text written here:
# line and column from the offset of the second key; the mm's 48 FLOPs are
# 2*3*4 MACs, counted once.
set -u
. "${top_srcdir:-.}/tests/cli_lib.sh"
tlc_need python3
tlc_tmpdir dupkey

python3 - "$T" "$tmp" <<'PY'
import json, os, subprocess, sys
T, tmp = sys.argv[1:3]
fails = []
EV = ('{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":1,"dur":2,'
      '"args":{"External id":1,"Input Dims":[[2,3],[3,4]],"Input type":["float","float"]}}')
ARR = '[' + EV + ']'
DEV = '[{"name":"NVIDIA H100"}]'
DIST = '{"backend":"nccl","rank":0,"world_size":1}'
cases = [  # (text, the duplicated key or None)
    ('{"traceEvents":' + ARR + ',\n  "traceEvents":' + ARR + '}', "traceEvents"),
    ('{"traceEvents":{},\n"traceEvents":' + ARR + '}', "traceEvents"),
    ('{"deviceProperties":' + DEV + ',"traceEvents":' + ARR + ',\n "deviceProperties":' + DEV + '}',
     "deviceProperties"),
    ('{"distributedInfo":' + DIST + ',\n"distributedInfo":' + DIST + ',"traceEvents":' + ARR + '}',
     "distributedInfo"),
    ('{"schemaVersion":1,"schemaVersion":1,"traceEvents":' + ARR + '}', None),
    ('{"traceEvents":' + ARR + ',"x":{"traceEvents":[]}}', None),
]
for text, key in cases:
    path = os.path.join(tmp, "t.json")
    open(path, "w").write(text)
    for fast in ("1", "0"):
        env = dict(os.environ, TLCOST_JSON_FAST=fast)
        p = subprocess.run([T, "flops", "--format", "json", path], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, env=env)
        err = p.stderr.decode()
        label = "%s fast=%s" % (text[:60], fast)
        if key is None:
            if p.returncode != 0:
                fails.append("%s: exit %d %s" % (label, p.returncode, err[:200]))
            elif json.loads(p.stdout)["phases"]["forward"]["flops"] != 48:
                fails.append("%s: not 48 FLOPs" % label)
            continue
        at = text.index('"%s"' % key, text.index('"%s"' % key) + 1) + len(key) + 2
        line = text.count("\n", 0, at) + 1
        col = at - (text.rfind("\n", 0, at) + 1) + 1
        if p.returncode != 1 or "error: trace_duplicate_key:" not in err or "'%s'" % key not in err:
            fails.append("%s: exit %d %s" % (label, p.returncode, err[:200]))
        elif "%s:%d:%d" % (path, line, col) not in err or "remedy:" not in err:
            fails.append("%s: want %s:%d:%d: %s" % (label, path, line, col, err[:300]))
for f in fails:
    print("FAIL: " + f)
print("%d inputs, %d failed" % (len(cases), len(fails)))
sys.exit(1 if fails else 0)
PY
