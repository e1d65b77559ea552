#!/usr/bin/env python3
"""Checks the library's layering from the built objects (issue 24 item 6).

tests/build/layers.py checks what each layer's sources *include*; this checks what
its objects *reference*. Every libtool convenience library of a layer
(engine/<layer>/ -> libtl_<layer>.la, rules/ -> libtl_rules.la) is read with
`nm`: a symbol it references (undefined in it) must be defined in the same
layer, in a layer it may see (tests/build/layers.py's ALLOWED, the same table the
include check uses), or outside libtlcost (libc, GMP, yajl, zlib, simdjson).
A reference to a symbol defined only in a layer it may not see (above it, or
beside it) fails, naming the object, the symbol and the layer that defines
it: the umbrella header lets every layer *declare* every layer's public API,
so only this check stops base/ from calling report/.

usage: layers_objects.py [BUILDDIR]   (default: $top_builddir or .)
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from layers import ALLOWED  # noqa: E402  (the one layer table)

# convenience library -> the source folders it is built from
LIBS = {
    "libtl_base": ["engine/base"],
    "libtl_output": ["engine/output"],
    "libtl_store": ["engine/store"],
    "libtl_registry": ["engine/registry"],
    "libtl_rules": ["rules"],
    "libtl_eval": ["engine/eval"],
    "libtl_input": ["engine/input", "engine/input/json", "engine/input/oplog",
                    "engine/input/kineto"],
    "libtl_join": ["engine/join"],
    "libtl_report": ["engine/report"],
}


def nm(archive):
    """{object: (defined set, undefined set)} of a static archive."""
    out = subprocess.run(["nm", "-A", "-g", archive], check=True,
                         capture_output=True, text=True).stdout
    objs = {}
    for line in out.splitlines():
        # archive:member.o:[value] T name
        fields = line.split(":", 2)
        if len(fields) < 3:
            continue
        parts = fields[2].split()
        if len(parts) < 2:
            continue
        kind, name = parts[-2], parts[-1]
        obj = fields[1]
        d, u = objs.setdefault(obj, (set(), set()))
        (u if kind in "Uw" else d).add(name)
    return objs


def sees(lib):
    """The libraries lib's objects may reference (itself included)."""
    folders = set(LIBS[lib])
    for f in LIBS[lib]:
        folders.update(ALLOWED.get(f, []))
    return {l for l, fs in LIBS.items() if folders & set(fs)} | {lib}


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("top_builddir", ".")
    defined_in = {}          # symbol -> set of libraries defining it
    objs_of = {}
    for lib in LIBS:
        a = os.path.join(build, ".libs", lib + ".a")
        if not os.path.exists(a):
            print(f"layers_objects: {a} missing: build the library first")
            return 1
        objs_of[lib] = nm(a)
        for d, _ in objs_of[lib].values():
            for s in d:
                defined_in.setdefault(s, set()).add(lib)
    problems, refs = [], 0
    for lib, objs in objs_of.items():
        ok = sees(lib)
        for obj, (_, undef) in sorted(objs.items()):
            for s in sorted(undef):
                owners = defined_in.get(s)
                if not owners:
                    continue        # outside libtlcost
                refs += 1
                if not owners & ok:
                    problems.append(f"{lib}.la: {obj} references {s}, defined in "
                                    f"{', '.join(sorted(owners))}.la, a layer {lib} may not see "
                                    f"(it sees {', '.join(sorted(ok))})")
    for p in problems:
        print("layers_objects:", p)
    if problems:
        return 1
    print(f"layers_objects: {sum(len(o) for o in objs_of.values())} objects in {len(LIBS)} "
          f"layer libraries, {refs} references between libtlcost symbols, none upward")
    return 0


if __name__ == "__main__":
    sys.exit(main())
