#!/usr/bin/env python3
"""Generates docs/errors.md, the bad-input catalogue, from the C sources.

Every typed error of tlcost is raised through engine/base/error.c
(tlc_error__set(KLASS, "code", "remedy", "fmt", ...) and
tlc_error__set_pos(KLASS, "code", file, line, col, "remedy", "fmt", ...)),
directly or through a file's local wrapper (oplog.c fail/field_fail,
trace.c fail/fail_field, rulefile.c fail_at/syntax, instream.c
set_gzip_error, loader.c bad_desc, tlc_error__oom, capture/cupti
tlc_cupti__fail, ...). Wrappers are found, not listed: a function whose
body hands one of its own parameters (or a constant) to a raising function
in the code position is itself a raising function; readers that park the
code in their state (`r->err_code = code`) and raise it later count too, with
the remedy their remedy_for(code) table gives. The search runs to a fixed
point, so wrappers of wrappers are found.

For each code: the C file(s) raising it, the TLC_E* class(es), what triggers
it (the message format string(s), arguments shown as printf conversions),
the remedy the user sees, and the test files whose text names the code.

Usage: error_catalogue.py [--srcdir DIR] [--output FILE] [--check]
  --check  exit 1 when a code has no test (and is not exempted below).
Only the Python standard library is used.
"""
import argparse
import os
import re
import sys

SCAN_DIRS = ["engine", "rules", "cli", "plugins", "capture"]
TEST_GLOBS = ("tests",)
CODE_RE = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)+$")
IDENT_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "do", "else", "case",
            "_Alignof", "defined", "__attribute__", "offsetof", "va_arg"}

# Codes that cannot be produced by any input a test can build here, with why.
# A code without a test that is not listed fails --check, and so does a
# listed code that has gained a test (the exemption is stale). The CUPTI
# codes once exempted as GPU-only (cupti_session_busy, cupti_op_mismatch,
# cupti_call_failed) are provoked on a RUNNING session over the stand-in
# libcupti, tests/nvtx/fake_cupti.c (tests/unit/capture/test_nvtx.c).
EXEMPT = {
    "plugin_check_failed": "fork() or waitpid() failing in `tlcost plugin check` needs a "
                           "process or memory limit that a test run as root cannot impose",
}

# Codes raised at dozens of sites for one reason: one summary row each, so
# the page does not change with every new API function.
GENERIC = {
    "invalid_argument": ("every public API function",
                         "a NULL pointer, a struct whose size field is too small, or an "
                         "out-of-range enum or index passed to an API function; the message "
                         "names the function",
                         "pass what the function's comment in its tlcost/ header asks for (the "
                         "remedy names it)"),
    "out_of_memory": ("every allocating function",
                      "an allocation failed (the allocator given in tlc_engine_options, or "
                      "malloc); nothing half-built is kept",
                      "free memory or process a smaller input"),
}

BASE_SINKS = {
    "tlc_error__set": {"klass": ("param", 0), "code": ("param", 1), "remedy": ("param", 2),
                       "fmt": ("fmtv", 3)},
    # the tlcost command's own errors (cli/common.c): the class is the exit status
    "cli_error": {"klass": ("param", 1), "code": ("param", 2), "remedy": ("param", 3),
                  "fmt": ("fmtv", 4)},
    "tlc_error__set_pos": {"klass": ("param", 0), "code": ("param", 1),
                           "remedy": ("param", 5), "fmt": ("fmtv", 6)},
}


# ---------------------------------------------------------------- lexing


def strip_comments(text):
    """Blanks comments (keeping newlines), keeps strings and chars."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "/" and text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("".join(ch if ch == "\n" else " " for ch in text[i:j]))
            i = j
        elif c == "/" and text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def blank_preprocessor(text):
    """Blanks preprocessor lines (with continuations) so macros never look
    like calls or definitions."""
    lines = text.split("\n")
    out, cont = [], False
    for ln in lines:
        if cont or ln.lstrip().startswith("#"):
            cont = ln.endswith("\\")
            out.append("")
        else:
            out.append(ln)
    return "\n".join(out)


def match_paren(text, i):
    """Index of the ')' closing the '(' at i, skipping strings."""
    depth, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            i = j
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


def split_args(s):
    """Top-level comma split of an argument list."""
    args, depth, cur, i, n = [], 0, [], 0, len(s)
    while i < n:
        c = s[i]
        if c in "\"'":
            j = i + 1
            while j < n and s[j] != c:
                j += 2 if s[j] == "\\" else 1
            cur.append(s[i:j + 1])
            i = j + 1
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        if c == "," and depth == 0:
            args.append("".join(cur).strip())
            cur = []
        else:
            cur.append(c)
        i += 1
    last = "".join(cur).strip()
    if last or args:
        args.append(last)
    return args


STR_PIECE = re.compile(r'"((?:[^"\\]|\\.)*)"')


def literal(expr):
    """The value of a (possibly concatenated) string literal expression, or
    None. Macro pieces between literals (e.g. GUIDE) are kept by name."""
    e = expr.strip()
    if not e.startswith('"') and not re.match(r"^[A-Z_][A-Z0-9_]*\s+\"", e):
        return None
    pos, parts = 0, []
    for m in re.finditer(r'"((?:[^"\\]|\\.)*)"|([A-Z_][A-Z0-9_]*)|(\S)', e):
        if m.group(1) is not None:
            parts.append(unescape(m.group(1)))
        elif m.group(2):
            parts.append("\0" + m.group(2) + "\0")  # macro, resolved later
        else:
            return None
        pos = m.end()
    return "".join(parts) if parts else None


def ternary(e):
    """(then, else) of a top-level `cond ? a : b`, or None."""
    depth, q, i, n = 0, None, 0, len(e)
    while i < n:
        c = e[i]
        if c in "\"'":
            j = i + 1
            while j < n and e[j] != c:
                j += 2 if e[j] == "\\" else 1
            i = j + 1
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif depth == 0 and c == "?" and q is None:
            q = i
        elif depth == 0 and c == ":" and q is not None:
            return e[q + 1:i], e[i + 1:]
        i += 1
    return None


def unescape(s):
    return (s.replace('\\"', '"').replace("\\n", " ").replace("\\t", " ")
            .replace("\\\\", "\\"))


# ---------------------------------------------------------------- a C file


class Func:
    def __init__(self, name, params, body, body_start, static):
        self.name = name
        self.params = params  # names, in order ("..." for varargs)
        self.body = body
        self.body_start = body_start
        self.static = static


DEF_RE = re.compile(
    r"(?m)^(static\s+)?(?:inline\s+)?(?:const\s+)?[A-Za-z_][A-Za-z0-9_ ]*?[\s\*]+"
    r"([A-Za-z_][A-Za-z0-9_]*)\s*\(")


def parse_file(path):
    raw = open(path, encoding="utf-8", errors="replace").read()
    text = blank_preprocessor(strip_comments(raw))
    macros = dict(re.findall(r'(?m)^#define\s+([A-Z_][A-Z0-9_]*)\s+(".*")\s*$', raw))
    funcs = {}
    for m in DEF_RE.finditer(text):
        name = m.group(2)
        if name in KEYWORDS:
            continue
        op = m.end() - 1
        cp = match_paren(text, op)
        if cp < 0:
            continue
        k = cp + 1
        while k < len(text) and text[k] in " \t\n":
            k += 1
        # attributes between ) and { are not used in definitions here
        if k >= len(text) or text[k] != "{":
            continue
        end = match_paren(text, k)
        params = []
        for p in split_args(text[op + 1:cp]):
            if p == "...":
                params.append("...")
                continue
            ids = IDENT_RE.findall(p)
            params.append(ids[-1] if ids else "")
        funcs[name] = Func(name, params, text[k:end + 1], k, bool(m.group(1)))
    return text, funcs, macros


def calls_in(text, start=0):
    """(callee, args, offset) of every call expression in text."""
    for m in re.finditer(r"\b([A-Za-z_][A-Za-z0-9_]*)\s*\(", text):
        name = m.group(1)
        if name in KEYWORDS:
            continue
        op = m.end() - 1
        cp = match_paren(text, op)
        if cp < 0:
            continue
        yield name, split_args(text[op + 1:cp]), start + m.start()


# ---------------------------------------------------------------- roles

# A role value: ("param", i) | ("const", value) | ("remedy_for", code_role)
# | ("fmt", fmt_literal, [arg role values]) | None (unknown)


def role_of_expr(expr, func, env_locals):
    e = expr.strip()
    if e in func.params:
        return ("param", func.params.index(e))
    if re.match(r"^TLC_E[A-Z]+$", e):
        return ("const", e)
    lit = literal(e)
    if lit is not None:
        return ("const", lit)
    alt = ternary(e)
    if alt:
        a, b = (literal(x) for x in alt)
        if a is not None and b is not None:
            return ("const", a + "\n" + b)
    m = re.match(r"^remedy_for\s*\((.*)\)$", e, re.S)
    if m:
        return ("remedy_for", role_of_expr(m.group(1), func, env_locals))
    if e in env_locals:
        return env_locals[e]
    return None


def locals_built_by_printf(func, before=None):
    """local -> ("fmt", FMT, [arg roles]) for snprintf(local, size, FMT, ...)
    in the body (messages built before being passed on). With before (an
    offset in the body), only the snprintf calls ahead of it count, so a
    buffer written twice gives each raise the message written last before
    it, not the function's last one."""
    env = {}
    for name, args, at in calls_in(func.body):
        if before is not None and at >= before:
            break
        if name in ("snprintf", "vsnprintf") and len(args) >= 3:
            tgt = args[0].strip()
            fmt = args[2]
            if fmt.strip() == "fmt" and "fmt" in func.params:
                env[tgt] = ("param", func.params.index("fmt"))
                continue
            lit = literal(fmt)
            if lit is not None and IDENT_RE.fullmatch(tgt):
                env[tgt] = ("fmt", lit, [role_of_expr(a, func, {}) for a in args[3:]])
    return env


def infer_sinks(files):
    """Raising functions: global ones (any file) and file-local ones."""
    global_sinks = dict(BASE_SINKS)
    local_sinks = {path: {} for path in files}
    remedy_tables = {path: remedy_table(files[path][1]) for path in files}
    for _ in range(6):
        changed = False
        for path, (text, funcs, _m) in files.items():
            for f in funcs.values():
                if f.name in global_sinks or f.name in local_sinks[path]:
                    continue
                roles = derive_roles(f, global_sinks, local_sinks[path], remedy_tables[path])
                if roles is None:
                    continue
                (local_sinks[path] if f.static else global_sinks)[f.name] = roles
                changed = True
        if not changed:
            break
    return global_sinks, local_sinks, remedy_tables


def derive_roles(f, gsinks, lsinks, rtable):
    for name, args, at in calls_in(f.body):
        s = lsinks.get(name) or gsinks.get(name)
        if not s or name == f.name:
            continue
        env = locals_built_by_printf(f, at)
        # as in collect(): an exported function raising a fixed code raises
        # it itself; calling it does not make the caller a raising function
        if name not in lsinks and name not in BASE_SINKS and (s.get("code") or ("",))[0] == "const":
            continue
        roles = {role: substitute(spec, args, f, env) for role, spec in s.items()}
        # a wrapper that formats its own fmt into a buffer and raises "%s"
        inner = roles.get("fmt")
        bare = inner is None or inner == ("const", "%s") or (inner[0] == "fmt" and inner[1] == "%s")
        if "fmt" in f.params and bare:
            roles["fmt"] = ("param", f.params.index("fmt"))
        code = roles.get("code")
        if code and code[0] in ("param", "const"):
            return roles
    # readers that park the error in their state and raise it later
    if "code" in f.params and re.search(r"(->|\.)\s*(err_)?code\s*=\s*code\s*;", f.body):
        roles = {"code": ("param", f.params.index("code"))}
        roles["klass"] = ("param", f.params.index("klass")) if "klass" in f.params else None
        for nm in ("fmt", "msg", "message"):
            if nm in f.params:
                roles["fmt"] = ("param", f.params.index(nm))
                break
        if "remedy" in f.params:
            roles["remedy"] = ("param", f.params.index("remedy"))
        elif rtable is not None:
            roles["remedy"] = ("remedy_for", roles["code"])
        return roles
    return None


def substitute(spec, args, f, env):
    """A callee role spec in terms of the callee's params, rewritten in terms
    of the caller's (f) expressions."""
    if spec is None:
        return None
    kind = spec[0]
    if kind == "param":
        i = spec[1]
        return role_of_expr(args[i], f, env) if i < len(args) else None
    if kind == "const":
        return spec
    if kind == "remedy_for":
        return ("remedy_for", substitute(spec[1], args, f, env))
    if kind == "fmt":
        return ("fmt", spec[1], [substitute(a, args, f, env) for a in spec[2]])
    if kind == "fmtv":  # a format string at spec[1] and its arguments after it
        i = spec[1]
        if i >= len(args):
            return None
        r = role_of_expr(args[i], f, env)
        if r and r[0] == "const":
            return ("fmt", r[1], [role_of_expr(a, f, env) for a in args[i + 1:]])
        return r
    return None


def remedy_table(funcs):
    """code -> remedy from a file's remedy_for(code) function, plus the
    default under key None; None when the file has no such function."""
    f = funcs.get("remedy_for")
    if not f:
        return None
    table = {}
    # `if (strcmp(code, "a") == 0 || strcmp(code, "b") == 0) return "...";`
    # gives the remedy to every code of the chain, not only the last one
    test = r'!?\s*strcmp\s*\(\s*code\s*,\s*"[a-z0-9_]+"\s*\)\s*(?:==\s*0\s*)?'
    for m in re.finditer(
            r'if\s*\(\s*((?:' + test + r'\|\|\s*)*' + test + r')\)\s*return\s+((?:"(?:[^"\\]|\\.)*"\s*)+);',
            f.body):
        for code in re.findall(r'"([a-z0-9_]+)"', m.group(1)):
            table[code] = literal(m.group(2))
    last = re.findall(r'return\s+((?:"(?:[^"\\]|\\.)*"\s*)+);\s*}\s*$', f.body)
    if last:
        table[None] = literal(last[-1])
    return table


# ---------------------------------------------------------------- sites


def resolve(spec, args, rtable, code, f, env):
    """A role value at a call site (in function f, whose printf-built locals
    are env) with the given argument expressions."""
    return evaluate(substitute(spec, args, f, env), rtable, code)


def evaluate(r, rtable, code):
    """The text of a role value whose parameters are those of the function
    holding the call: parameters are unknown there (None)."""
    if r is None or r[0] == "param":
        return None
    if r[0] == "const":
        return r[1]
    if r[0] == "remedy_for":
        if rtable is None:
            return None
        inner = r[1]
        alternatives = inner and inner[0] == "const" and "\n" in inner[1]
        key = inner[1] if inner and inner[0] == "const" and not alternatives else code
        return rtable.get(key, rtable.get(None))
    if r[0] == "fmt":
        return fill_format(r[1], [evaluate(a, rtable, code) for a in r[2]])
    return None


CONV_RE = re.compile(r"%[-+ #0]*(\*|\d+)?(\.(\*|\d+))?(hh|h|ll|l|j|z|t|L)?[diouxXeEfgGcspa%]")


def fill_format(fmt, vals):
    """Puts literal arguments into %s conversions; others stay as written."""
    out, k, pos = [], 0, 0
    for m in CONV_RE.finditer(fmt):
        out.append(fmt[pos:m.start()])
        conv = m.group(0)
        if conv == "%%":
            out.append("%%")
        else:
            stars = conv.count("*")
            k += stars
            v = vals[k] if k < len(vals) else None
            out.append(v if (v is not None and conv.endswith("s")) else conv)
            k += 1
        pos = m.end()
    out.append(fmt[pos:])
    return "".join(out)


def collect(srcdir):
    files = {}
    for d in SCAN_DIRS:
        for root, _dirs, names in os.walk(os.path.join(srcdir, d)):
            for nm in sorted(names):
                if nm.endswith(".c"):
                    p = os.path.join(root, nm)
                    files[os.path.relpath(p, srcdir)] = parse_file(p)
    gsinks, lsinks, rtables = infer_sinks(files)
    macros_all = {}
    for d in SCAN_DIRS + ["include"]:
        for root, _dirs, names in os.walk(os.path.join(srcdir, d)):
            for nm in names:
                if nm.endswith((".c", ".h")):
                    raw = open(os.path.join(root, nm), encoding="utf-8", errors="replace").read()
                    macros_all.update(re.findall(r'(?m)^#define\s+([A-Z_][A-Z0-9_]*)\s+(".*")\s*$', raw))
    codes = {}
    for path, (text, funcs, file_macros) in sorted(files.items()):
        macros = dict(macros_all)
        macros.update(file_macros)
        sinks = dict(gsinks)
        sinks.update(lsinks[path])
        rt = rtables[path]
        for f in funcs.values():
            for name, args, off in calls_in(f.body, f.body_start):
                s = sinks.get(name)
                if not s:
                    continue
                env = locals_built_by_printf(f, off - f.body_start)
                # calling an exported function that raises a fixed code (a
                # parser such as tlc_dtype_parse) passes its error on; the
                # error is raised, and listed, inside that function
                if name not in lsinks[path] and name not in BASE_SINKS and \
                        (s.get("code") or ("",))[0] == "const":
                    continue
                # a code chosen by `cond ? "a_code" : "b_code"` resolves to
                # both, one per line: each is raised here (trace.c's
                # trace_truncated was once lost that way)
                alts = resolve(s.get("code"), args, rt, None, f, env) or ""
                for code in alts.split("\n"):
                    if not CODE_RE.match(code):
                        continue
                    site = {
                        "file": path,
                        "line": text.count("\n", 0, off) + 1,
                        "klass": resolve(s.get("klass"), args, rt, code, f, env),
                        "remedy": expand(resolve(s.get("remedy"), args, rt, code, f, env), macros),
                        "fmt": expand(resolve(s.get("fmt"), args, rt, code, f, env), macros),
                    }
                    codes.setdefault(code, []).append(site)
    for sites in codes.values():
        sites.sort(key=lambda x: (x["file"], x["line"]))
    return codes


DECL_PREFIX = re.compile(r"^(static\s+)?(inline\s+)?(const\s+)?[A-Za-z_]\w*[\s\*]+$")


def is_declaration(text, off):
    """A prototype or definition: the name follows a type at statement start."""
    start = max(text.rfind(ch, 0, off) for ch in ";{}\n") + 1
    prefix = text[start:off]
    if not prefix.strip():
        return False
    word = prefix.split()[0]
    return word not in ("return", "else", "case", "do", "goto") and bool(DECL_PREFIX.match(prefix.strip() + " "))


def expand(s, macros):
    if s is None:
        return None
    return re.sub(r"\0([A-Z_][A-Z0-9_]*)\0",
                  lambda m: literal(macros[m.group(1)]) if m.group(1) in macros else m.group(1),
                  s)


def tests_naming(srcdir, code, cache={}):
    if not cache:
        for root, _dirs, names in os.walk(os.path.join(srcdir, "tests")):
            rel = os.path.relpath(root, srcdir)
            if rel.startswith(os.path.join("tests", "fixtures")) or \
                    rel.startswith(os.path.join("tests", "fuzz")):
                continue
            for nm in names:
                if not nm.endswith((".c", ".sh", ".py", ".tsv")) or nm == "error_catalogue.sh":
                    continue
                p = os.path.join(root, nm)
                cache[os.path.relpath(p, srcdir)] = open(p, encoding="utf-8",
                                                          errors="replace").read()
    pat = re.compile(r"\b" + re.escape(code) + r"\b")
    return sorted(p for p, t in cache.items() if pat.search(t))


# ---------------------------------------------------------------- output


def cell(s):
    if s is None:
        return "(computed at run time)"
    s = " ".join(s.split())
    return s.replace("|", "\\|").replace("`", "'")


def drop_general(fmts):
    """Drops a wrapper's own format ("plugin %s: %s") when its callers'
    filled-in forms ("plugin %s: descriptor name is NULL") are listed."""
    keep = []
    for f in fmts:
        pieces, pos = [], 0
        for m in CONV_RE.finditer(f):
            pieces.append(re.escape(f[pos:m.start()]))
            pieces.append(".*")
            pos = m.end()
        pieces.append(re.escape(f[pos:]))
        rx = re.compile("^" + "".join(pieces) + "$", re.S)
        if not any(g != f and rx.match(g) for g in fmts):
            keep.append(f)
    return keep or fmts


def render(codes, srcdir):
    out = [
        "# Error catalogue",
        "",
        "Every typed error code tlcost can raise, generated from the C sources by",
        "`tools/error_catalogue.py` (do not edit by hand: run",
        "`python3 tools/error_catalogue.py --output docs/errors.md`). `make check`",
        "regenerates it (tests/build/error_catalogue.sh) and fails when this page is stale",
        "or when a code has no test.",
        "",
        "Each error reaches the user as `tlcost: error: CODE: MESSAGE`, then",
        "`at FILE:LINE:COLUMN` for input errors, then `remedy: REMEDY`; from C, as",
        "the negative `TLC_E*` class returned and `tlc_error_last()` (see",
        "`include/tlcost/errors.h`). *Trigger* is the message format as written in",
        "the source: `%s`, `%llu` and the like are filled with the file's details.",
        "*Tests* are the test files that name the code. Codes whose class is a",
        "`CLI_EXIT_*` status are raised by the `tlcost` command itself (cli/).",
        "",
        "## Exit status",
        "",
        "Every `tlcost` subcommand exits with one of these (cli/cli.h, tlcost(1)):",
        "",
        "| status | meaning |",
        "|---|---|",
        "| 0 | success; also `--help`, and `tlcost join` whether or not its gate passes |",
        "| 1 | an input, rule file, plugin, device file or the evaluation was refused: any "
        "typed error of the library (parse, invalid field, limit, truncation, refusal, "
        "`io_error` reading, `out_of_memory`) |",
        "| 2 | the command line is wrong: `usage_error`, `unknown_command`, or an option "
        "value the library refused (`basis_unknown`, `dtype_unknown` from `--basis`, "
        "`--dtype`) |",
        "| 3 | the output could not be written whole: `output_write_failed` (standard "
        "output, `--save`, `--svg`: a full disk, a pipe whose reader exited while SIGPIPE "
        "is ignored) or `output_open_failed`; a file written with `--save` or `--svg` "
        "keeps its old content |",
        "| 4 | `tlcost diff --fail-if EXPR`: a condition holds on the diff's totals (the "
        "conditions and their figures are on standard error); a refused condition exits 2 "
        "(`diff_condition_invalid`) or 1 (`diff_figure_unavailable`) |",
        "",
        "A process killed by a signal (SIGPIPE when the reader of a pipe exits, with the "
        "default disposition) has no exit status of its own; shells report 128 + the "
        "signal number.",
        "",
        "## Codes",
        "",
        "| code | module | class | trigger (message) | remedy | tests |",
        "|---|---|---|---|---|---|",
    ]
    for code in sorted(codes):
        sites = codes[code]
        mods = sorted({s["file"] for s in sites})
        klass = sorted({s["klass"] for s in sites if s["klass"]}) or ["(from the caller)"]
        fmts = []
        for s in sites:
            for piece in (s["fmt"].split("\n") if s["fmt"] else [None]):
                f = cell(piece)
                if f not in fmts:
                    fmts.append(f)
        rems = []
        for s in sites:
            for piece in (s["remedy"].split("\n") if s["remedy"] else [None]):
                r = cell(piece)
                if r not in rems:
                    rems.append(r)
        fmts = drop_general(fmts)
        tests = tests_naming(srcdir, code)
        if code in GENERIC:
            mods = [GENERIC[code][0]]
            fmts = [cell(GENERIC[code][1])]
            rems = [cell(GENERIC[code][2])]
        if len(mods) > 4:
            mod_txt = "%d files (%s, ...)" % (len(mods), ", ".join(mods[:3]))
        else:
            mod_txt = "<br>".join(mods)
        if len(fmts) > 8:
            fmts = fmts[:8] + ["... (%d more)" % (len(fmts) - 8)]
        test_txt = "<br>".join(tests) if tests else (
            "none: " + EXEMPT[code] if code in EXEMPT else "**none**")
        out.append("| `%s` | %s | %s | %s | %s | %s |" % (
            code, mod_txt, ", ".join(klass), "<br>".join(fmts), "<br>".join(rems), test_txt))
    out.append("")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--srcdir", default=os.path.join(os.path.dirname(__file__), ".."))
    ap.add_argument("--output", default="-")
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    codes = collect(a.srcdir)
    text = render(codes, a.srcdir)
    if a.output == "-":
        sys.stdout.write(text)
    else:
        with open(a.output, "w", encoding="utf-8") as f:
            f.write(text)
    if a.check:
        missing = [c for c in sorted(codes) if not tests_naming(a.srcdir, c) and c not in EXEMPT]
        for c in missing:
            sites = ", ".join("%s:%d" % (s["file"], s["line"]) for s in codes[c][:3])
            print("error_catalogue: code %s (%s) has no test" % (c, sites), file=sys.stderr)
        stale = [c for c in sorted(EXEMPT) if tests_naming(a.srcdir, c)]
        for c in stale:
            print("error_catalogue: code %s is exempted as untestable but %s tests it: drop "
                  "the exemption" % (c, ", ".join(tests_naming(a.srcdir, c))), file=sys.stderr)
        return 1 if missing or stale else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
