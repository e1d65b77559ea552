"""Report.to_pandas() and Report._repr_html_.

Expected values: resnet18's forward and backward MACs (1,814,073,344 and
3,510,132,736, derived by hand in tests/cli/models.sh) as the sums of the
rows table's macs column per phase; a Python rule's MACs of 2**64 + 5
(past int64) kept exact in the rows and doubled exactly (fma=2: 2**65 +
10) in the groups table; an op without a rule unknown (None, never 0 or
NaN) in rows and named with its call count (2, by construction) in the
ledger table.
"""

import html
import html.parser
import os
import sys

import tlctest
from tlctest import fixture

tlctest.need_torch()

import torch  # noqa: E402

import tlcost  # noqa: E402

try:
    import pandas  # noqa: F401
    HAVE_PANDAS = True
except ImportError:
    HAVE_PANDAS = False
    print("note: pandas is not importable by %s (python3-pandas): the DataFrame "
          "checks are skipped, the refusal without it is checked" % sys.executable)

BIG = 2 ** 64 + 5

lib = torch.library.Library("tlcframes", "DEF")
lib.define("big(Tensor x) -> Tensor")
lib.define("opaque(Tensor x) -> Tensor")
lib.impl("big", lambda t: t * 2, "CPU")
lib.impl("opaque", lambda t: t + 1, "CPU")


def report(rule=True):
    eng = tlcost.Engine()
    if rule:
        eng.register_rule("tlcframes::big", lambda op: tlcost.Cost(macs=BIG))
    with tlcost.counting(engine=eng, model_name="<b>x & y</b>") as c:
        x = torch.ones(3)
        torch.ops.tlcframes.big(x)
        torch.ops.tlcframes.opaque(x)
        torch.ops.tlcframes.opaque(x)
    return c.report()


class Frames(tlctest.unittest.TestCase):
    @tlctest.unittest.skipUnless(HAVE_PANDAS, "pandas not installed")
    def test_rows_resnet18(self):
        rep = tlcost.read(fixture("resnet18.train.oplog.jsonl.gz"))
        df = rep.to_pandas()                                  # "rows" by default
        self.assertEqual(len(df), rep.coverage["rows"])
        known = df[df["macs"].notna()]
        sums = known.groupby("phase")["macs"].sum()
        self.assertEqual(int(sums["forward"]), 1814073344)
        self.assertEqual(int(sums["backward"]), 3510132736)
        fwd = rep.to_pandas("rows", phase="forward")
        self.assertEqual(set(fwd["phase"]), {"forward"})
        self.assertEqual(set(fwd["module"]) >= {"conv1", "layer1.0.conv1"}, True)
        with self.assertRaises(tlcost.InvalidArgumentError):
            rep.to_pandas("rows", phase="fwd")

    @tlctest.unittest.skipUnless(HAVE_PANDAS, "pandas not installed")
    def test_rows_of_a_joined_trace(self):
        # tests/fixtures/trace/small.json by hand: aten::linear [4,8]x[16,8]^T
        # with bias: 4*8*16 = 512 MACs, 4*16 = 64 other FLOPs; its child
        # aten::addmm (nested: no cost of its own) launched gemm_kernel (95 us,
        # correlation 100) and a memset (2 us, correlation 101): device time
        # 97,000 ns, kernel time 95,000 ns, on the innermost launching op
        rep = tlcost.read(os.path.join(tlctest.SRC, "tests", "fixtures", "trace",
                                               "small.json"))
        rows = rep.to_pandas().set_index("name")
        lin, mm = rows.loc["aten::linear"], rows.loc["aten::addmm"]
        self.assertEqual((lin["macs"], lin["other_flops"], lin["class"]), (512, 64, "known"))
        self.assertEqual((mm["class"], mm["macs"]), ("not_applicable", None))
        self.assertEqual((mm["device_time_ns"], mm["kernel_time_ns"], mm["attribution"]),
                         (97000, 95000, "attributed"))
        self.assertEqual(mm["parent"], lin["id"])
        # an op log without device records: no device time (None), never 0
        oplog = tlcost.read(fixture("resnet18.train.oplog.jsonl.gz")).to_pandas()
        self.assertTrue(all(v is None for v in oplog["device_time_ns"]))

    @tlctest.unittest.skipUnless(HAVE_PANDAS, "pandas not installed")
    def test_groups_and_ledger(self):
        rep = tlcost.read(fixture("resnet18.train.oplog.jsonl.gz"))
        g = rep.to_pandas("groups")                           # by op type
        doc = rep.profile(by="type", top=0).to_dict()["rows"]
        self.assertEqual(list(g["key"]), [r["key"] for r in doc])
        self.assertEqual(list(g["flops"]), [r["flops"] for r in doc])
        self.assertEqual(str(g["flops"].dtype), "int64")
        m = rep.to_pandas("groups", by="module", phase="forward")
        self.assertIn("layer1.0.conv1", set(m["key"]))
        self.assertEqual(len(rep.to_pandas("ledger")), 0)      # complete: an empty ledger

    @tlctest.unittest.skipUnless(HAVE_PANDAS, "pandas not installed")
    def test_exact_past_int64_and_unknown(self):
        rep = report()
        self.assertFalse(rep.complete)
        rows = rep.to_pandas("rows")
        self.assertEqual(str(rows["macs"].dtype), "object")
        big = rows[rows["name"] == "tlcframes::big"]
        self.assertEqual(big["macs"].iloc[0], BIG)
        self.assertIs(type(big["macs"].iloc[0]), int)
        opaque = rows[rows["name"] == "tlcframes::opaque"]
        self.assertEqual(len(opaque), 2)
        self.assertTrue(all(v is None for v in opaque["macs"]))   # unknown, not 0 or NaN
        self.assertEqual(list(opaque["class"]), ["unknown", "unknown"])
        g = rep.to_pandas("groups", by="type")
        flops = g[g["key"].str.startswith("tlcframes::big")]["flops"].iloc[0]
        self.assertEqual(flops, 2 ** 65 + 10)
        self.assertEqual(str(g["flops"].dtype), "object")
        led = rep.to_pandas("ledger")
        self.assertEqual(list(led["name"]), ["tlcframes::opaque"])
        self.assertEqual(int(led["count"].iloc[0]), 2)
        self.assertIn("register_rule", led["remedy"].iloc[0])

    def test_without_pandas_refused(self):
        rep = report()
        saved = sys.modules.get("pandas", "absent")
        sys.modules["pandas"] = None           # import pandas raises ImportError
        try:
            with self.assertRaises(tlcost.UnavailableError) as e:
                rep.to_pandas()
        finally:
            if saved == "absent":
                del sys.modules["pandas"]
            else:
                sys.modules["pandas"] = saved
        self.assertEqual(e.exception.code, "python_module_unavailable")
        self.assertIn("pandas", e.exception.message)
        self.assertIn("python3-pandas", e.exception.remedy)
        with self.assertRaises(tlcost.InvalidArgumentError) as e:
            rep.to_pandas("tables")
        self.assertEqual(e.exception.code, "invalid_argument")

    def test_repr_html(self):
        rep = report()
        page = rep._repr_html_()
        self.assertNotIn("<b>x & y</b>", page)
        self.assertIn("&lt;b&gt;x &amp; y&lt;/b&gt;", page)
        self.assertIn("LOWER BOUND", page)
        self.assertIn("{:,}".format(BIG), page)              # the exact MACs, not a float
        self.assertIn("<code>tlcframes::opaque", page)

        class Tags(html.parser.HTMLParser):
            def __init__(self):
                super().__init__()
                self.stack, self.bad = [], []

            def handle_starttag(self, tag, attrs):
                self.stack.append(tag)

            def handle_endtag(self, tag):
                if not self.stack or self.stack.pop() != tag:
                    self.bad.append(tag)
        t = Tags()
        t.feed(page)
        self.assertEqual((t.stack, t.bad), ([], []))        # well nested: escaping held
        led = rep.ledger_report()._repr_html_()          # a View: the command's text, escaped
        self.assertTrue(led.startswith("<pre>") and led.endswith("</pre>"))
        self.assertEqual(html.unescape(led[5:-6]), str(rep.ledger_report()))
        full = tlcost.read(fixture("resnet18.train.oplog.jsonl.gz"))._repr_html_()
        self.assertIn("COMPLETE", full)
        self.assertIn("3,510,132,736", full)                 # backward MACs (tests/cli/models.sh)


if __name__ == "__main__":
    tlctest.main()
