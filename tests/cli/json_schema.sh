#!/bin/sh
# The JSON examples in docs/json-schema.md are what tlcost prints: for each
# "## tlcost.X/N" section, the command in backquotes under the heading is run
# and its output must have exactly the keys of the example (recursively, the
# first element of each array), the same type at each key (numbers are
# numbers whether integral or not; null in either matches anything: so an
# exact integer written as a string fails) and the same schema name.
# {builddir} in a command is the build directory.
. "${top_srcdir:-.}/tests/cli_lib.sh"
tlc_need python3
cd "$top_srcdir" || exit 1
TLCOST_BUILDDIR="$top_builddir" TLCOST="$T" TLCOST_RUN="$TLCOST_RUN" python3 - docs/json-schema.md <<'PY'
import json, os, re, shlex, subprocess, sys
text = open(sys.argv[1]).read()
sections = re.split(r"^## ", text, flags=re.M)[1:]
def shape(v):
    if isinstance(v, dict):
        return {k: shape(x) for k, x in v.items()}
    if isinstance(v, list):
        return [shape(v[0])] if v else []
    return type(v).__name__ if v is not None else "null"
def kind(v):
    if v is None:
        return None
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, (int, float)):
        return "number"
    return type(v).__name__
def types(v, path=""):
    out = {}
    k = kind(v)
    if k:
        out[path] = k
    if isinstance(v, dict):
        for key, x in v.items():
            out.update(types(x, path + "." + key))
    elif isinstance(v, list) and v:
        out.update(types(v[0], path + "[]"))
    return out
def keys(v, path=""):
    out = set()
    if isinstance(v, dict):
        for k, x in v.items():
            out.add(path + "." + k)
            out |= keys(x, path + "." + k)
    elif isinstance(v, list) and v:
        out |= keys(v[0], path + "[]")
    return out
passed = failed = 0
for sec in sections:
    name = sec.split("\n", 1)[0].strip()
    cmd = re.search(r"^`(tlcost [^`]*)`$", sec, flags=re.M)
    block = re.search(r"```json\n(.*?)```", sec, flags=re.S)
    if not cmd or not block:
        print("FAIL: section %s lacks a command or an example" % name); failed += 1; continue
    line = cmd.group(1).replace("{builddir}", os.environ["TLCOST_BUILDDIR"])
    argv = shlex.split(os.environ["TLCOST_RUN"]) + [os.environ["TLCOST"]] + shlex.split(line)[1:]
    got = json.loads(subprocess.run(argv, check=True, capture_output=True, text=True).stdout)
    want = json.loads(block.group(1))
    if got.get("schema") != name or want.get("schema") != name:
        print("FAIL: %s: schema %r / %r" % (name, got.get("schema"), want.get("schema"))); failed += 1
    elif keys(got) != keys(want):
        print("FAIL: %s: keys differ: only in output %s, only in doc %s" %
              (name, sorted(keys(got) - keys(want)), sorted(keys(want) - keys(got)))); failed += 1
    else:
        tg, tw = types(got), types(want)
        bad = sorted(k for k in tg.keys() & tw.keys() if tg[k] != tw[k])
        if bad:
            print("FAIL: %s: types differ at %s" % (name, ", ".join(
                "%s (output %s, doc %s)" % (k, tg[k], tw[k]) for k in bad))); failed += 1
        else:
            passed += 1
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed or not passed else 0)
PY
