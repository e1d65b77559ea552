"""tlcost.read on the bundled op logs and traces: the same numbers and the
same bytes as the tlcost command, exact ints beyond 64 bits, typed errors.
Needs no torch.

Expected MACs are the figures torchvision publishes (resnet50 4.09 GMAC =
4,089,184,256, vit_b_16 17,563,828,224, mobilenet_v2 300,774,272; see
tests/cli/models.sh) and the resnet18 backward count derived by hand there
(2 x conv forward 1,813,561,344 - first conv's input grad 118,013,952 + fc
2 x 512,000 = 3,510,132,736)."""

import gzip
import json
import os

import tlctest
from tlctest import cli, fixture

import tlcost

PUBLISHED = {"resnet50": 4089184256, "vit_b_16": 17563828224,
             "mobilenet_v2": 300774272}


class ReadFixtures(tlctest.unittest.TestCase):
    def test_published_forward_macs(self):
        for model, macs in PUBLISHED.items():
            for mode in ("fwd_grad", "fwd_nograd_eval", "train"):
                path = fixture("%s.%s.oplog.jsonl.gz" % (model, mode))
                rep = tlcost.read(path)
                self.assertTrue(rep.complete, path)
                self.assertEqual(rep.macs("forward"), macs, path)
                doc = json.loads(cli("flops", "--format", "json", path))
                self.assertEqual(rep.macs("forward"),
                                 doc["phases"]["forward"]["macs"])

    def test_resnet18_backward(self):
        rep = tlcost.read(fixture("resnet18.train.oplog.jsonl.gz"))
        self.assertEqual(rep.macs("backward"), 3510132736)
        self.assertEqual(rep.macs("forward"), 1814073344)
        self.assertEqual(rep.phases, ["forward", "backward", "optimizer"])
        # phase=None: the library's per-phase totals added
        self.assertEqual(rep.macs(), sum(rep.macs(p) for p in rep.phases))
        self.assertEqual(rep.flops("backward"),
                         2 * rep.macs("backward") + rep.other_flops("backward"))

    def test_json_and_text_byte_identical_to_cli(self):
        for name in sorted(os.listdir(tlctest.FIXTURES)):
            path = fixture(name)
            rep = tlcost.read(path)
            self.assertEqual(rep.to_json(), cli("flops", "--format", "json", path), name)
            self.assertEqual(str(rep), cli("flops", path), name)
            self.assertEqual(rep.to_dict(), json.loads(rep.to_json()))

    def test_kineto_trace(self):
        path = os.path.join(tlctest.SRC, "tests", "fixtures", "trace", "small.json")
        rep = tlcost.read(path)
        self.assertEqual(rep.info["format"], "kineto-trace")
        self.assertEqual(rep.to_json(), cli("flops", "--format", "json", path))


class Reports(tlctest.unittest.TestCase):
    path = fixture("resnet50.train.oplog.jsonl.gz")

    @classmethod
    def setUpClass(cls):
        cls.rep = tlcost.read(cls.path)

    def same(self, view, *args):
        self.assertEqual(str(view), cli(*(list(args) + [self.path])))
        self.assertEqual(view.to_dict(),
                         json.loads(cli(*(list(args) + ["--format", "json", self.path]))))

    def test_tree(self):
        self.same(self.rep.tree(), "tree")
        self.same(self.rep.tree(phase="backward", top=3, depth=2),
                  "tree", "--phase", "backward", "--top", "3", "--depth", "2")

    def test_profile(self):
        self.same(self.rep.profile(), "profile")
        self.same(self.rep.profile(by="module", sort="bytes", top=5, phase="forward"),
                  "profile", "--by", "module", "--sort", "bytes", "--top", "5",
                  "--phase", "forward")
        self.assertEqual(self.rep.profile(by="op", top=0).csv(),
                         cli("profile", "--by", "op", "--top", "0", "--format", "csv",
                             self.path))

    def test_roofline_and_mfu(self):
        self.same(self.rep.roofline(device="a100-sxm-80gb"),
                  "roofline", "--device", "a100-sxm-80gb")
        self.same(self.rep.mfu(0.25, device="a100-sxm-80gb"),
                  "mfu", "--step-seconds", "0.25", "--device", "a100-sxm-80gb")
        self.assertTrue(self.rep.roofline_svg(device="a100-sxm-80gb").startswith("<"))

    def test_overview_and_ledger(self):
        self.same(self.rep.overview(device="a100-sxm-80gb"), "report",
                  "--device", "a100-sxm-80gb")
        self.assertEqual(str(self.rep.ledger_report()), cli("ledger", self.path))

    def test_mfu_refusals(self):
        with self.assertRaises(tlcost.RefusedError) as c:
            self.rep.mfu(0.25, device="a100-sxm-80gb", denominator="kernel_union_seconds")
        self.assertEqual(c.exception.code, "mfu_denominator_invalid")
        self.assertTrue(c.exception.remedy)
        with self.assertRaises(tlcost.Error) as c:
            self.rep.mfu(0.0, device="a100-sxm-80gb")
        self.assertEqual(c.exception.code, "mfu_step_seconds_invalid")

    def test_join_unavailable(self):
        # a CPU capture has no device records: the join says unavailable
        doc = self.rep.join().to_dict()
        self.assertEqual(doc, json.loads(cli("join", "--format", "json", self.path)))


class Ledger(tlctest.unittest.TestCase):
    def test_custom_op_unknown(self):
        path = os.path.join(tlctest.SRC, "examples", "custom_gelu.oplog.jsonl")
        # the expected count, read from the raw file independently
        with open(path) as f:
            lines = [json.loads(x) for x in f if x.strip()][1:]
        want = sum(1 for r in lines if r["op"] == "mylib::fused_gelu")
        rep = tlcost.read(path)
        self.assertFalse(rep.complete)
        self.assertTrue(rep.lower_bound)
        e = rep.ledger[0]
        self.assertEqual((e.name, e.count, e.reason), ("mylib::fused_gelu", want, "no_rule"))
        self.assertIn("plugin", e.remedy)
        self.assertIn("LOWER BOUND", str(rep))
        self.assertEqual(rep.coverage["unknown"], want)


    def test_python_rule_on_a_file(self):
        # a Python rule sees tensors as tlcost.Tensor without torch imported
        path = os.path.join(tlctest.SRC, "examples", "custom_gelu.oplog.jsonl")
        eng = tlcost.Engine()
        eng.register_rule("mylib::fused_gelu",
                          lambda op: tlcost.Cost(other_flops=5 * op.args[0].numel))
        rep = tlcost.read(path, engine=eng)
        self.assertTrue(rep.complete, rep.ledger)
        # the same totals as the rule file that states the same formula
        ref = tlcost.read(path, engine=tlcost.Engine(rules=[tlctest.RULES]))
        self.assertEqual(json.loads(rep.to_json())["phases"],
                         json.loads(ref.to_json())["phases"])


class Exact(tlctest.unittest.TestCase):
    def test_beyond_64_bits(self):
        # aten::mm [2^31, 2^31] x [2^31, 2^31]: m*k*n = 2^93 MACs, which no
        # 64-bit or double path carries exactly (2^93 + 2^31*... is not needed:
        # the product itself must come back as the Python int 2**93)
        d = tlctest.tmpdir()
        path = os.path.join(d, "big.oplog.jsonl")
        n = 1 << 31
        t = {"shape": [n, n], "dtype": "float32"}
        with open(path, "w") as f:
            f.write('{"format":"tlcost-oplog","version":1}\n')
            f.write(json.dumps({"id": 0, "op": "aten::mm", "args": [t, t],
                                "outputs": [t]}) + "\n")
        rep = tlcost.read(path)
        self.assertEqual(rep.macs(), 2 ** 93)
        self.assertEqual(rep.flops(), 2 ** 94)
        self.assertEqual(rep.bytes_read(), 2 * n * n * 4)
        self.assertIsInstance(rep.macs(), int)


class Binding(tlctest.unittest.TestCase):
    """The binding's own refusals (the Report API never causes them)."""

    def test_states_and_ranges(self):
        import _tlcost
        ev = _tlcost.Eval(tlcost.Engine()._c)
        with self.assertRaises(tlcost.StateError) as c:
            ev.total(0, 0)
        self.assertEqual(c.exception.code, "eval_not_finished")
        with self.assertRaises(tlcost.InputError) as c:
            ev.push(0, "aten::add", "Tensor", 0, None, None, None, [2 ** 70], None, None,
                    None, None, None)
        self.assertEqual(c.exception.code, "capture_value_out_of_range")
        ev.push(1, "aten::add", "Tensor", 0, "", "M", 0, [1, 2.5, "s", [None, True]],
                {"alpha": 1}, [None], 5, 6, 7)
        with self.assertRaises(tlcost.InputError) as c:  # the library's duplicate id
            ev.push(1, "aten::add", "Tensor", 0, None, None, None, [], None, None,
                    None, None, None)
        self.assertEqual(c.exception.code, "oplog_duplicate_id")
        ev.finish()
        self.assertEqual(ev.coverage()["rows"], 1)
        with self.assertRaises(tlcost.StateError) as c:
            ev.push(2, "aten::add", "Tensor", 0, None, None, None, [], None, None,
                    None, None, None)
        self.assertEqual(c.exception.code, "eval_finished")
        with self.assertRaises(tlcost.StateError) as c:
            ev.write_log(print)
        self.assertEqual(c.exception.code, "capture_not_recorded")


class Errors(tlctest.unittest.TestCase):
    def test_parse_error_position(self):
        d = tlctest.tmpdir()
        path = os.path.join(d, "bad.oplog.jsonl.gz")
        with gzip.open(path, "wt") as f:
            f.write('{"format":"tlcost-oplog","version":1}\n{"id":0,"op":\n')
        with self.assertRaises(tlcost.Error) as c:
            tlcost.read(path)
        e = c.exception
        self.assertIsInstance(e, (tlcost.ParseError, tlcost.InputError))
        self.assertTrue(e.code.startswith("oplog_"), e.code)
        self.assertEqual(e.file, path)
        self.assertEqual(e.line, 2)
        self.assertTrue(e.remedy)
        self.assertIn("remedy", str(e))

    def test_missing_file(self):
        with self.assertRaises(tlcost.FileError) as c:
            tlcost.read("/nonexistent/x.oplog.jsonl")
        self.assertEqual(c.exception.code, "io_error")
        self.assertIsInstance(c.exception, OSError)

    def test_version(self):
        d = tlctest.tmpdir()
        path = os.path.join(d, "v2.oplog.jsonl")
        with open(path, "w") as f:
            f.write('{"format":"tlcost-oplog","version":2}\n')
        with self.assertRaises(tlcost.VersionError) as c:
            tlcost.read(path)
        self.assertEqual(c.exception.code, "oplog_version_unsupported")
        self.assertEqual(c.exception.position[:len(path)], path)

    def test_save_without_capture(self):
        rep = tlcost.read(fixture("resnet18.train.oplog.jsonl.gz"))
        with self.assertRaises(tlcost.StateError) as c:
            rep.save(os.path.join(tlctest.tmpdir(), "x.jsonl"))
        self.assertEqual(c.exception.code, "capture_not_recorded")

    def test_bad_options(self):
        rep = tlcost.read(fixture("resnet18.train.oplog.jsonl.gz"))
        with self.assertRaises(tlcost.InvalidArgumentError):
            rep.macs("sideways")
        with self.assertRaises(tlcost.InvalidArgumentError):
            rep.profile(by="colour")
        with self.assertRaises(tlcost.PluginError) as c:
            tlcost.Engine(plugins=["/nonexistent/plugin.so"])
        self.assertEqual(c.exception.code, "plugin_open_failed")


if __name__ == "__main__":
    tlctest.main()
