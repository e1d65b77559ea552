#!/usr/bin/env python3
"""Checks the library's layering from the sources (issue 12).

Every quoted #include in engine/, rules/, cli/, capture/ and plugins/ must
resolve to the including file's own folder or to a folder its layer may
see; and the include graph between files and between folders has no cycle.
The build enforces the same rule by giving each layer only those include
paths (engine/local.mk); this test names the offending line instead of
failing in the compiler, and also catches a back edge that happens to be
reachable through a wider path (tests, for instance).
"""
import os
import re
import sys

SRC = os.environ.get("top_srcdir", os.path.join(os.path.dirname(__file__), "..", ".."))

# folder -> folders whose headers it may include (besides its own and include/)
ALLOWED = {
    "engine/base": [],
    "engine/output": ["engine/base"],
    # the one op record encoding and the records kept in it (held records)
    "engine/store": ["engine/base"],
    "engine/registry": ["engine/base", "rules"],
    "engine/eval": ["engine/store", "engine/registry", "engine/base", "rules"],
    "engine/input": ["engine/eval", "engine/store", "engine/registry", "engine/base", "rules"],
    # one folder per input format, and the JSON boundary they parse through
    "engine/input/json": ["engine/base"],
    "engine/input/oplog": ["engine/input", "engine/input/json", "engine/eval", "engine/store",
                           "engine/registry", "engine/base", "rules"],
    "engine/input/kineto": ["engine/input", "engine/input/json", "engine/eval", "engine/store",
                            "engine/registry", "engine/base", "rules"],
    "engine/join": ["engine/eval", "engine/store", "engine/registry", "engine/base", "engine/output", "rules"],
    # report sees input for one thing: `tlcost annotate` (engine/report/annotate.c)
    # reads the trace it rewrites through the public tlc_input_read_limited
    "engine/report": ["engine/join", "engine/input", "engine/eval", "engine/registry",
                      "engine/store", "engine/base", "engine/output", "rules"],
    "rules": [],
    "cli": [],
    "capture/cupti": [],
    "capture/nvtx": [],
    "plugins/examples": [],
}
INC = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def headers_of(folder):
    d = os.path.join(SRC, folder)
    return {n for n in os.listdir(d) if n.endswith(".h")} if os.path.isdir(d) else set()


def main():
    problems = []
    edges = {}          # file -> set of files
    for folder, allowed in ALLOWED.items():
        d = os.path.join(SRC, folder)
        if not os.path.isdir(d):
            continue
        for name in sorted(os.listdir(d)):
            if not name.endswith((".c", ".h", ".cpp")):
                continue
            path = f"{folder}/{name}"
            text = open(os.path.join(SRC, path), encoding="utf-8").read()
            for m in INC.finditer(text):
                inc = m.group(1)
                line = text.count("\n", 0, m.start()) + 1
                if inc.startswith("tlcost/") and os.path.exists(os.path.join(SRC, "include", inc)):
                    continue
                if inc == "config.h":
                    continue
                if "/" in inc:
                    problems.append(f"{path}:{line}: includes \"{inc}\" by a relative path: "
                                    "name the header, and let the layer's include paths find it")
                    continue
                home = next((f for f in [folder] + allowed if inc in headers_of(f)), None)
                if home is None:
                    owner = [f for f in ALLOWED if inc in headers_of(f)]
                    why = (f"it lives in {owner[0]}/, a layer {folder}/ may not see"
                           if owner else "no such header in its layer or below")
                    problems.append(f"{path}:{line}: includes \"{inc}\": {why}")
                    continue
                edges.setdefault(path, set()).add(f"{home}/{inc}")
    problems += cycles(edges, "file")
    folder_edges = {}
    for a, bs in edges.items():
        for b in bs:
            fa, fb = os.path.dirname(a), os.path.dirname(b)
            if fa != fb:
                folder_edges.setdefault(fa, set()).add(fb)
    problems += cycles(folder_edges, "folder")
    for p in problems:
        print("layers:", p)
    if problems:
        return 1
    print(f"layers: {len(edges)} files, {sum(len(v) for v in edges.values())} include edges, "
          "no upward include, no cycle")
    return 0


def cycles(graph, what):
    """Depth-first search; returns one message per cycle found."""
    state, out = {}, []

    def visit(n, stack):
        state[n] = 1
        for m in sorted(graph.get(n, ())):
            if state.get(m) == 1:
                loop = stack[stack.index(m):] + [m] if m in stack else [n, m]
                out.append(f"{what} cycle: " + " -> ".join(loop))
            elif m not in state:
                visit(m, stack + [m])
        state[n] = 2

    for n in sorted(graph):
        if n not in state:
            visit(n, [n])
    return out


if __name__ == "__main__":
    sys.exit(main())
