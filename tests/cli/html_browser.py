"""Checks tlcost html pages in headless Chromium (tests/cli/html_browser.sh).

argv: TLCOST CHROMIUM TOP_SRCDIR SHARED_DIR. Expected figures come from
`tlcost flops|report|join --format json` of the same input, parsed here
with json (integers exact); the page's DOM is what Chromium's --dump-dom
prints after the page ran (and, with ?selftest, clicked its own controls).
TLCOST_HTML_SHOTS=DIR keeps a 1280x800 screenshot of every page there.
"""
import html.parser
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

TLCOST, CHROMIUM, SRC, SHARED = sys.argv[1:5]
fails = []


def fail(msg):
    fails.append(msg)
    print("FAIL: " + msg)


class Dom(html.parser.HTMLParser):
    """Elements by id, attributes and text (text of every descendant)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.els = [], []

    def handle_starttag(self, tag, attrs):
        e = {"tag": tag, "attrs": dict(attrs), "text": []}
        self.els.append(e)
        if tag not in ("meta", "input", "br", "img", "link"):
            self.stack.append(e)

    def handle_endtag(self, tag):
        while self.stack:
            e = self.stack.pop()
            if e["tag"] == tag:
                break

    def handle_data(self, data):
        for e in self.stack:
            e["text"].append(data)

    def find(self, **attrs):
        return [e for e in self.els if all(e["attrs"].get(k) == v for k, v in attrs.items())]

    def by_id(self, i):
        r = self.find(id=i)
        return r[0] if r else None


def text(e):
    return "".join(e["text"]).strip() if e else None


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, timeout=300, **kw)


def chromium(tmp, *args):
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
           "--user-data-dir=" + os.path.join(tmp, "profile"), "--enable-logging=stderr",
           "--v=0", "--hide-scrollbars"] + list(args)
    return run(cmd)


def doc(cmd, path):
    p = run([TLCOST, "--format", "json"] + cmd + [path])
    return json.loads(p.stdout) if p.returncode == 0 else None


def check_page(tmp, name, inputs, extra=()):
    out = os.path.join(tmp, re.sub(r"\W", "_", name) + ".html")
    p = run([TLCOST, "html", "-o", out] + list(extra) + inputs)
    if p.returncode != 0:
        fail("%s: tlcost html exit %d: %s" % (name, p.returncode, p.stderr.strip()))
        return None
    raw = open(out, encoding="utf-8").read()
    # self-contained: nothing is fetched (the SVG namespace is a name, not a fetch)
    for pat in (r"<link\b", r"\bsrc\s*=", r"@import", r"url\((?!#)", r"href=\"(?!#)"):
        if re.search(pat, raw.replace('xmlns="http://www.w3.org/2000/svg"', ""), re.I):
            fail("%s: the page references an outside resource (%s)" % (name, pat))
    got = chromium(tmp, "--dump-dom", "file://" + out + "?selftest")
    if got.returncode != 0:
        fail("%s: chromium exit %d" % (name, got.returncode))
        return None
    console = [l for l in got.stderr.splitlines() if ":CONSOLE" in l or "Uncaught" in l]
    if console:
        fail("%s: console messages: %s" % (name, console[:3]))
    dom = Dom()
    dom.feed(got.stdout)
    meta = dom.find(name="tlc-errors")
    if not meta or meta[0]["attrs"].get("content") != "0":
        fail("%s: script errors recorded by the page: %s" % (name, meta and meta[0]["attrs"]))
    shots = os.environ.get("TLCOST_HTML_SHOTS")
    if shots:
        os.makedirs(shots, exist_ok=True)
        chromium(tmp, "--screenshot=" + os.path.join(shots, os.path.basename(out)[:-5] + ".png"),
                 "--window-size=1280,800", "file://" + out)
    return dom, raw


def check_totals(name, dom, n, path):
    flops, report = doc(["flops"], path), doc(["report"], path)
    if flops is None or report is None:
        fail("%s: tlcost flops/report --format json failed" % name)
        return
    v = dom.by_id("tlc-verdict-%d" % n)
    want = "LOWER BOUND" if flops["lower_bound"] else "COMPLETE"
    if text(v) != want or report["lower_bound"] != flops["lower_bound"]:
        fail("%s: headline %r, the JSON says %s" % (name, text(v), want))
    for phase, tot in flops["phases"].items():
        row = dom.by_id("tlc-phase-%d-%s" % (n, phase))
        if not row:
            fail("%s: no %s row in the headline" % (name, phase))
            continue
        for key in ("flops", "macs", "other_flops", "bytes_read", "bytes_written"):
            cells = [e for e in dom.els if e["attrs"].get("data-key") == key and e["tag"] == "td"
                     and e in dom.els[dom.els.index(row):dom.els.index(row) + 9]]
            shown = text(cells[0]).replace(",", "") if cells else None
            if shown != str(tot[key]) or cells[0]["attrs"].get("data-value") != str(tot[key]):
                fail("%s: %s %s shows %r, the JSON says %d" % (name, phase, key, shown, tot[key]))
    for key, val in flops["coverage"].items():
        c = dom.by_id("tlc-coverage-%d-%s" % (n, key))
        if not c or text(c).replace(",", "") != str(val):
            fail("%s: coverage %s shows %r, the JSON says %s" % (name, key, text(c), val))
    j = doc(["join"], path)
    gate = dom.by_id("tlc-gate-%d" % n)
    if j is not None and j.get("state") == "joined":
        if text(gate) != ("PASSED" if j["gate"]["passed"] else "NOT PASSED"):
            fail("%s: gate %r, the JSON says passed=%s" % (name, text(gate), j["gate"]["passed"]))
        c = dom.by_id("tlc-join-%d-kernel_ns" % n)
        if not c or text(c) != "{:,} ns".format(j["kernel_ns"]):
            fail("%s: kernel time %r, the JSON says %d" % (name, text(c), j["kernel_ns"]))
    elif gate is not None:
        fail("%s: a gate is shown for an input without a join" % name)


def check_selftest(name, dom, path):
    # the collapse test needs a module with children in the tree the page
    # shows (tlcost tree's own JSON, at the page's depth and width)
    t = doc(["tree", "--depth", "8", "--top", "12"], path)
    want_tree = t is not None and any(r["depth"] > 0 for r in t["rows"])
    st = dom.by_id("tlc-selftest")
    if not st:
        fail("%s: no self-test result in the DOM" % name)
        return
    r = json.loads(text(st))
    s = r.get("sort")
    if not s or not all(s[k] for k in ("count_desc", "flops_desc", "flops_asc", "name_desc")):
        fail("%s: sorting: %s" % (name, s))
    f = r.get("filter")
    if not f or not f["all_match"] or f["shown"] < 1 or f["cleared"] != s["rows"]:
        fail("%s: filtering: %s" % (name, f))
    c = r.get("collapse")
    if want_tree and (not c or c["shown_before"] < 1 or c["shown_collapsed"] != 0
                      or c["shown_expanded"] != c["shown_before"]):
        fail("%s: collapsing: %s" % (name, c))
    if r.get("errors"):
        fail("%s: errors: %s" % (name, r["errors"]))
    print("ok %s: sort %d rows, filter %r -> %d, collapse %s" % (
        name, s["rows"], f["query"], f["shown"], c and (c["descendants"], c["shown_before"])))


def row_cells(dom, tr_id):
    """data-key -> (text, data-value or data-number) of the cells of one row."""
    tr = dom.by_id(tr_id)
    if not tr:
        return None
    i, out = dom.els.index(tr) + 1, {}
    while i < len(dom.els) and dom.els[i]["tag"] != "tr":
        e = dom.els[i]
        if e["tag"] == "td":
            a = e["attrs"]
            out[a.get("data-key")] = (text(e), a.get("data-value", a.get("data-number")))
        i += 1
    return out


def check_models(name, dom, n, path, want_steps=None, want_unique=None):
    """The step buckets and the unique-args rows in the DOM equal the
    documents of `tlcost steps --format json` and `tlcost profile --by args
    --utilization --top 100 --format json` of the same input (the page's
    defaults); where a command refuses, the section says why. want_steps /
    want_unique: figures derived by hand, checked against the same cells.
    Returns (steps rows, unique rows) compared."""
    st = doc(["steps"], path)
    sec = text(dom.by_id("tlc-%d-steps" % n)) or ""
    nst = 0
    if st is None:
        if "Not shown:" not in sec:
            fail("%s: steps refused by tlcost steps, the page shows %r" % (name, sec[:120]))
    else:
        for r in st["steps"]:
            rid = "tlc-step-%d-%s-%d" % (n, "span" if r["step"] is None else r["step"], r["device"])
            cells = row_cells(dom, rid)
            if cells is None:
                fail("%s: no row %s" % (name, rid))
                continue
            want = dict(r["buckets"], wall_ns=r["wall_ns"], residual_ns=r["residual_ns"])
            for k, v in want.items():
                if k not in cells or cells[k][1] != str(v) or cells[k][0].replace(",", "") != str(v):
                    fail("%s: %s %s shows %r, the JSON says %d" % (name, rid, k, cells.get(k), v))
            nst += 1
    for rid, want in (want_steps or {}).items():
        cells = row_cells(dom, "tlc-step-%d-%s" % (n, rid)) or {}
        for k, v in want.items():
            if cells.get(k, (None, None))[1] != str(v):
                fail("%s: step %s %s shows %r, by hand %d" % (name, rid, k, cells.get(k), v))
    ua = doc(["profile", "--by", "args", "--utilization", "--top", "100"], path)
    sec = text(dom.by_id("tlc-%d-unique" % n)) or ""
    nua = 0
    if ua is None:
        if "Not shown:" not in sec or "kernel_utilization_requires_device_join" not in sec and \
                "roofline" not in sec:
            fail("%s: unique args refused by tlcost profile, the page shows %r" % (name, sec[:200]))
    else:
        t = dom.by_id("tlc-unique-%d" % n)
        if not t:
            fail("%s: no unique-args table" % name)
            return nst, 0
        trs = [e for e in dom.els[dom.els.index(t):] if e["tag"] == "tr"][1:1 + len(ua["rows"])]
        for i, r in enumerate(ua["rows"]):
            cells = {}
            j = dom.els.index(trs[i]) + 1 if i < len(trs) else len(dom.els)
            while j < len(dom.els) and dom.els[j]["tag"] != "tr":
                e = dom.els[j]
                if e["tag"] == "td":
                    cells[e["attrs"].get("data-key")] = (text(e), e["attrs"].get(
                        "data-value", e["attrs"].get("data-number")))
                j += 1
            u = r.get("attributed_kernel_utilization") or {}
            bad = [k for k, v in (("key", r["key"]),) if cells.get(k, (None,))[0] != v]
            bad += [k for k in ("count", "flops", "bytes", "costed_kernel_ns")
                    if r.get(k) is not None and cells.get(k, (0, None))[1] != str(r[k])]
            for k in ("flop_per_s", "peak_share", "byte_per_s", "bandwidth_share"):
                got = cells.get(k, (None, None))[1]
                if u.get(k) is None:
                    if cells.get(k, ("",))[0] != "unknown":
                        bad.append(k)
                elif got is None or float(got) != u[k]:
                    bad.append(k)
            if bad:
                fail("%s: unique-args row %d (%s): %s differ from the JSON" % (name, i, r["key"], bad))
            nua += 1
        for key, want in (want_unique or {}).items():
            r = [x for x in ua["rows"] if x["key"] == key]
            if not r:
                fail("%s: no unique-args group %r" % (name, key))
                continue
            u = r[0]["attributed_kernel_utilization"]
            for k, v in want.items():
                got = r[0][k] if k in r[0] else u.get(k)
                if not (got == v if isinstance(v, int) else abs(got - v) <= 1e-5 * abs(v)):
                    fail("%s: %s %s is %r, by hand %r" % (name, key, k, got, v))
    print("ok %s: %d step rows, %d unique-args rows equal the JSON" % (name, nst, nua))
    return nst, nua


def embedded(raw, n, docname):
    """The JSON document the page embeds for input n (parsed from the page
    as written, not from the DOM), or None."""
    m = re.search(r'<script class="tlc-doc" type="application/json" data-input="%d" '
                  r'data-doc="%s">(.*?)</script>' % (n, docname), raw, re.S)
    return json.loads(m.group(1)) if m else None


def check_profiles(name, got, n, path, want_ops=None):
    """The top-ops, per-type and per-module tables are the documents of
    `tlcost profile --by op|type|module --top K --format json` (K = 100, all
    types; the joined build: costed kernel time, the costed-row roll-up and
    the ambiguous group rows of the input's join): the embedded document
    equals the command's, and every row's cells in the DOM equal its row
    (compared as a multiset: the self-test sorts the tables). want_ops:
    figures derived by hand for op rows, by key. Returns rows compared."""
    dom, raw = got
    rows = 0
    for by, docname, top in (("op", "ops", "100"), ("type", "types", "0"),
                             ("module", "modules", "100")):
        want = doc(["profile", "--by", by, "--top", top], path)
        page = embedded(raw, n, docname)
        if want is None or page != want:
            fail("%s: the page's %s document is not `tlcost profile --by %s --top %s`'s"
                 % (name, docname, by, top))
            continue
        t = dom.by_id("tlc-%s-%d" % (docname, n))
        if not t:
            fail("%s: no %s table" % (name, docname))
            continue
        i = dom.els.index(t)
        cells, cur = [], None
        for e in dom.els[i + 1:]:
            if e["tag"] == "table":
                break
            if e["tag"] == "tr":
                cur = {}
                cells.append(cur)
            elif e["tag"] == "td" and cur is not None:
                a = e["attrs"]
                cur[a.get("data-key")] = a.get("data-value", a.get("data-number", text(e)))
        cells = [c for c in cells if c]
        keys = ("key", "count", "flops", "costed_kernel_ns")
        shown = sorted(tuple(str(c.get(k)) for k in keys) for c in cells)
        wanted = sorted(tuple("unknown" if r.get(k) is None else str(r[k]) for k in keys)
                        for r in want["rows"])  # null is shown as "unknown"
        if shown != wanted:
            fail("%s: the %s table's rows differ from the JSON: %s vs %s"
                 % (name, docname, shown[:3], wanted[:3]))
        rows += len(cells)
        for key, fig in (want_ops or {}).items() if by == "op" else ():
            r = [x for x in want["rows"] if x["key"] == key]
            if not r or any(r[0].get(k) != v for k, v in fig.items()):
                fail("%s: op %s: %r, by hand %r" % (name, key, r and r[0], fig))
    print("ok %s: %d profile rows equal `tlcost profile`'s documents" % (name, rows))
    return rows


def check_diff(tmp):
    """tlcost html --diff A B: the diff section's totals and group rows equal
    `tlcost diff --format json A B`; the all-phase FLOPs are also derived
    by hand (tests/fixtures/diff/mlp_b*: Linear(16,32), ReLU, Linear(32,4)
    at batch 1 and 8; addmm = 2*M*K*N + M*N for the bias):
    A = (2*1*16*32 + 32) + (2*1*32*4 + 4) + 32 = 1,348,
    B = (2*8*16*32 + 256) + (2*8*32*4 + 32) + 256 = 10,784.
    Without --diff the section says how to get it; --diff with one input is
    a usage error (exit 2)."""
    d = os.path.join(SRC, "tests", "fixtures", "diff")
    a, b = os.path.join(d, "mlp_b1.oplog.jsonl"), os.path.join(d, "mlp_b8.oplog.jsonl")
    got = check_page(tmp, "diff", [a, b], ["--diff"])
    want = doc(["diff", a], b)
    if got and want:
        dom = got[0]
        hand = {"a_flops": 1348, "b_flops": 10784, "change_flops": 10784 - 1348}
        for t in want["totals"]:
            cells = row_cells(dom, "tlc-diff-total-" + t["phase"]) or {}
            for k in ("flops", "bytes"):
                for sd in ("a", "b", "change"):
                    v = t[sd][k]
                    if cells.get(sd + "_" + k, (None, None))[1] != str(v):
                        fail("diff: total %s %s_%s shows %r, the JSON says %s" % (
                            t["phase"], sd, k, cells.get(sd + "_" + k), v))
            if t["phase"] == "all":
                for k, v in hand.items():
                    if cells.get(k, (None, None))[1] != str(v):
                        fail("diff: all %s shows %r, by hand %d" % (k, cells.get(k), v))
        tb = dom.by_id("tlc-diff-rows")
        tds = [e for e in dom.els[dom.els.index(tb):] if e["tag"] == "td"] if tb else []
        keys = [text(e) for e in tds if e["attrs"].get("data-key") == "key"]
        ch = [e["attrs"].get("data-value") for e in tds if e["attrs"].get("data-key") == "change_flops"]
        if keys != [r["key"] for r in want["rows"]] or ch != [str(r["change"]["flops"]) for r in want["rows"]]:
            fail("diff: group rows %r / %r, the JSON says %r" % (keys, ch, [r["key"] for r in want["rows"]]))
        else:
            print("ok diff: %d totals, %d groups equal the JSON" % (len(want["totals"]), len(keys)))
    got = check_page(tmp, "no diff", [a, b])
    if got and "--diff" not in (text(got[0].by_id("tlc-diff")) or ""):
        fail("no diff: the section does not say how to get one: %r" % text(got[0].by_id("tlc-diff")))
    p = run([TLCOST, "html", "--diff", "-o", os.path.join(tmp, "x.html"), a])
    if p.returncode != 2 or "exactly two inputs" not in p.stderr:
        fail("diff: one input: exit %d (want 2), %r" % (p.returncode, p.stderr))


HOSTILE = '</script><script>document.title="pwned"</script><!--x&amp;"\'<b>'


N = 2 ** 18 + 1  # aten::mm N x N x N: 2 N^3 FLOPs = 2 x odd > 2^54, not a double


def hostile_log(tmp):
    """An op log whose unknown op and module carry text that would end the
    inline blocks, open a comment or inject markup if not escaped; its
    aten::mm has a FLOP count no double holds, which the page must show
    exactly."""
    p = os.path.join(tmp, "hostile.oplog.jsonl")
    head = {"format": "tlcost-oplog", "version": 1, "producer": "test", "model": HOSTILE,
            "device": "cpu"}
    t = lambda s: {"shape": s, "dtype": "float32", "device": "cpu"}
    ops = [{"id": 0, "op": "aten::mm", "overload": "default", "phase": "forward",
            "module": "m", "args": [t([N, N]), t([N, N])], "outputs": [t([N, N])]},
           {"id": 1, "op": "x::" + HOSTILE, "overload": "", "phase": "forward",
            "module": "m", "args": [t([2, 4])], "outputs": [t([2, 4])]}]
    with open(p, "w") as f:
        for r in [head] + ops:
            f.write(json.dumps(r) + "\n")
    return p


def check_cli(tmp, example):
    """Exit statuses of docs/errors.md; a refused input keeps the old page."""
    out = os.path.join(tmp, "keep.html")
    p = run([TLCOST, "html", example])
    if p.returncode != 2 or "-o OUT" not in p.stderr:
        fail("cli: no -o: exit %d (want 2), %r" % (p.returncode, p.stderr))
    with open(out, "w") as f:
        f.write("old page")
    bad = os.path.join(tmp, "bad.json")
    with open(bad, "w") as f:
        f.write('{"traceEvents": [')
    p = run([TLCOST, "html", "-o", out, example, bad])
    if p.returncode != 1 or open(out).read() != "old page":
        fail("cli: refused second input: exit %d (want 1), page replaced: %s" % (
            p.returncode, open(out).read() != "old page"))
    p = run([TLCOST, "html", "-o", os.path.join(tmp, "no", "such", "dir.html"), example])
    if p.returncode != 3 or "output_open_failed" not in p.stderr:
        fail("cli: unwritable output: exit %d (want 3), %r" % (p.returncode, p.stderr))


def check_chart(tmp, path, dev):
    """The chart is embedded up to --chart-points points; above, the section
    says how many (the covered rows of `tlcost roofline --format json`)."""
    rl = doc(["roofline"] + dev, path)
    if rl is None:
        return False
    covered = sum(r["reason"] == "covered" for r in rl["rows"])
    got = check_page(tmp, "chart " + os.path.basename(path), [path], dev)
    if got and not [e for e in got[0].els if e["tag"] == "svg"]:
        fail("chart: no SVG in the page of %s" % path)
    if covered < 2:
        return True
    got = check_page(tmp, "chart cut " + os.path.basename(path), [path],
                     ["--chart-points", str(covered - 1)] + dev)
    if got:
        sec = got[0].by_id("tlc-0-roofline")
        want = "the chart has %d points" % covered
        if [e for e in got[0].els if e["tag"] == "svg"] or want not in (text(sec) or ""):
            fail("chart: --chart-points %d: %r does not say %r" % (covered - 1, text(sec), want))
        else:
            print("ok chart: %d points embedded, cut at --chart-points %d" % (covered, covered - 1))
    return True


def main():
    tmp = tempfile.mkdtemp(prefix="tlc-html.")
    try:
        ex = [os.path.join(SRC, "examples", f) for f in
              ("resnet50.oplog.jsonl.gz", "custom_gelu.oplog.jsonl")]
        traces = [os.path.join(SHARED, "traces", f) for f in
                  ("b200-eager-inference.json.gz", "v100-dlrm-training.json.gz")]
        traces += [os.path.join(SHARED, "traces", "real", f) for f in
                   ("tl_mi300_qwen05b.json.gz", "ki_v100_resnet50_2021_06.json.gz")]
        check_cli(tmp, ex[1])
        if os.environ.get("TLCOST_TEST_WRAPPER") == "valgrind":
            # every tlcost call runs under memcheck there: the examples, two
            # inputs and the hostile log cover the page's code; the traces
            # only add time
            print("note: under valgrind: shared traces left out")
            traces = []
        for path in ex + [t for t in traces if os.path.exists(t)]:
            name = os.path.basename(path)
            got = check_page(tmp, name, [path])
            if got:
                check_totals(name, got[0], 0, path)
                check_selftest(name, got[0], path)
        # step buckets and unique-args rows: the shared trace with
        # ProfilerStep markers, device time and a passed gate, then the
        # fixtures whose figures were derived by hand
        ki = traces[3] if len(traces) > 3 else ""
        if os.path.exists(ki):
            got = check_page(tmp, "models " + os.path.basename(ki), [ki])
            if got and check_models("models ki_v100", got[0], 0, ki) < (6, 100):
                fail("models ki_v100: want 6 step rows (ProfilerStep#5..10) and 100 unique-args rows")
            if got:
                check_profiles("models ki_v100", got, 0, ki)
        fx = os.path.join(SRC, "tests", "fixtures", "steps", "two_steps.json")
        got = check_page(tmp, "models two_steps", [fx])
        if got:
            # by hand in tests/cli/steps_cli.sh (the fixture's timeline, us x 1000)
            check_models("models two_steps", got[0], 0, fx, want_steps={
                "1-0": {"wall_ns": 100000, "gemm": 30000, "elementwise": 10000, "reduction": 5000,
                        "exposed_communication": 20000, "exposed_memcpy_memset": 7000,
                        "idle_queued": 16000, "idle_host_bound": 12000, "residual_ns": 0},
                "2-0": {"wall_ns": 50000, "normalisation": 2000, "reduction": 10000,
                        "other_compute": 10000, "idle_queued": 10000, "idle_host_bound": 18000}})
            if "kernel_utilization_requires_device_join" not in (text(got[0].by_id("tlc-0-unique")) or ""):
                fail("models two_steps: the unique-args section does not say the gate failed")
            check_profiles("models two_steps", got, 0, fx)
        fx = os.path.join(SRC, "tests", "fixtures", "devtime", "kernels.oplog.jsonl")
        got = check_page(tmp, "models kernels", [fx])
        if got:
            # by hand: aten::mm [64,128]x[128,256] fp32, one 4000 ns kernel,
            # H100 SXM (the log's device) fp32 peak 67 TFLOP/s, 3.35 TB/s:
            # 2*64*128*256 = 4,194,304 FLOPs; (64*128 + 128*256 + 64*256) * 4
            # = 229,376 bytes; 4194304 / 4000 ns = 1.048576e12 FLOP/s =
            # 1.56504% of peak; 229376 / 4000 ns = 5.7344e10 B/s = 1.71176%
            # of bandwidth. relu [64,256]: 16,384 FLOPs over 200 ns.
            # Steps: no markers, the device span is one row (span-0).
            n = check_models("models kernels", got[0], 0, fx, want_unique={
                "aten::mm.default [64,128]float32, [128,256]float32": {
                    "flops": 4194304, "bytes": 229376, "costed_kernel_ns": 4000,
                    "flop_per_s": 1.048576e12, "peak_share": 1.048576e12 / 67e12,
                    "byte_per_s": 5.7344e10, "bandwidth_share": 5.7344e10 / 3.35e12},
                "aten::relu.default [64,256]float32": {
                    "flops": 16384, "costed_kernel_ns": 200, "flop_per_s": 16384 / 200e-9}})
            if n != (1, 2):
                fail("models kernels: %s rows, want 1 step row and 2 unique-args rows" % (n,))
            # the same kernel times on the top-ops rows (the joined build):
            # aten::mm's one kernel, 4000 ns; relu's, 200 ns
            check_profiles("models kernels", got, 0, fx, want_ops={
                "aten::mm.default": {"flops": 4194304, "costed_kernel_ns": 4000},
                "aten::relu.default": {"flops": 16384, "costed_kernel_ns": 200}})
        check_diff(tmp)
        if not check_chart(tmp, ex[0], ["--device", "h100-sxm"]):
            fail("chart: no roofline for %s on h100-sxm" % ex[0])
        if not any(os.path.exists(t) for t in traces):
            print("note: shared traces absent (%s): examples only" % SHARED)
        # two inputs: both pages' totals, and the per-rank table's section
        two = ex[1:] + ex[:1]
        got = check_page(tmp, "two inputs", two)
        if got:
            for n, path in enumerate(two):
                check_totals("two inputs [%d]" % n, got[0], n, path)
            dom = got[0]
            t = dom.by_id("tlc-ranks-table")
            tds = [e for e in dom.els[dom.els.index(t):] if e["tag"] == "td"] if t else []
            for path in two:
                want = doc(["flops"], path)["phases"]["forward"]["flops"]
                row = [i for i, e in enumerate(tds) if text(e) == path]
                cell = [e for e in tds[row[0]:] if e["attrs"].get("data-key") == "forward_flops"][:1] if row else []
                if not cell or cell[0]["attrs"].get("data-value") != str(want):
                    fail("two inputs: per-rank forward FLOPs of %s: %r, the JSON says %d" % (
                        path, cell and text(cell[0]), want))
        # the same rank twice (two runs compared): both pages, and the
        # per-rank section says why there is no table (ranks_duplicate_rank)
        if os.path.exists(traces[0]) if traces else False:
            got = check_page(tmp, "same rank twice", [traces[0], traces[0]])
            if got:
                for n in (0, 1):
                    check_totals("same rank twice [%d]" % n, got[0], n, traces[0])
                if "ranks_duplicate_rank" not in (text(got[0].by_id("tlc-ranks")) or ""):
                    fail("same rank twice: %r" % text(got[0].by_id("tlc-ranks")))
        # hostile names stay text: the model and the op name round-trip
        # through the DOM, no injected element exists, the title is intact
        h = hostile_log(tmp)
        got = check_page(tmp, "hostile", [h], ["--title", "t<&>"])
        if got:
            dom, raw = got
            title = [e for e in dom.els if e["tag"] == "title"]
            if not title or text(title[0]) != "t<&>":
                fail("hostile: the page title was changed: %r" % (title and text(title[0])))
            if "<b>" in raw or "</script><script>document" in raw:
                fail("hostile: raw markup from the input reached the page")
            cells = [e for e in dom.els if e["tag"] == "td" and text(e) == "x::" + HOSTILE]
            if not cells:
                fail("hostile: the op name does not round-trip as text")
            if [e for e in dom.els if e["tag"] == "b"]:
                fail("hostile: an element from the input was created")
            check_totals("hostile", dom, 0, h)
            want = 2 * N ** 3  # by hand: fma=2, M = K = N = 2^18 + 1
            if float(want) == want or doc(["flops"], h)["phases"]["forward"]["flops"] != want:
                fail("hostile: the exactness case is not what it should be")
            row = dom.by_id("tlc-phase-0-forward")
            cell = [e for e in dom.els[dom.els.index(row):] if e["attrs"].get("data-key") == "flops"][:1]
            if not cell or text(cell[0]) != "{:,}".format(want):
                fail("hostile: forward FLOPs shown %r, exactly %s" % (cell and text(cell[0]), "{:,}".format(want)))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if fails:
        print("%d failure(s)" % len(fails))
        return 1
    print("all html pages passed")
    return 0


sys.exit(main())
