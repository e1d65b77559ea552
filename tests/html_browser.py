"""Checks tlcost html pages in headless Chromium (tests/html_browser.sh).

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
