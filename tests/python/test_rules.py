"""Custom ops: without a rule the op is unknown (complete False, in the
ledger); a C plugin, a rule file and a Python rule each make it known with
the count its rule states, exactly.

The model: Linear(16,64) -> mylib::fused_gelu -> Linear(64,64) ->
mylib::fused_gelu -> Linear(64,4) on x [2,16], so fused_gelu runs twice on
[2,64] (128 elements each, 256 in all, float32). By the rules' own
formulas (plugins/examples/fused_gelu.c and examples/fused_gelu.tlrules
both count erf-GELU at 5 other FLOPs per element of x) the op adds 1280
other FLOPs, no MACs, and reads 2*128*4 = 1024 and writes 1024 bytes."""

import json
import os

import tlctest
from tlctest import cli

tlctest.need_torch()

import torch  # noqa: E402

import tlcost  # noqa: E402

_lib = torch.library.Library("mylib", "DEF")
_lib.define("fused_gelu(Tensor x) -> Tensor")
_lib.impl("fused_gelu", lambda x: torch.nn.functional.gelu(x), "CPU")

ELEMENTS, CALLS = 256, 2


class FusedGelu(torch.nn.Module):
    def forward(self, x):
        return torch.ops.mylib.fused_gelu(x)


def model():
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(16, 64), FusedGelu(),
                               torch.nn.Linear(64, 64), FusedGelu(),
                               torch.nn.Linear(64, 4))


X = torch.randn(2, 16)


def run(engine=None):
    return tlcost.capture(model(), (X,), mode="fwd_nograd_eval", engine=engine,
                          model_name="custom_gelu_mlp", tokens=2)


class CustomOp(tlctest.unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.base = run(tlcost.Engine())

    def assert_known(self, rep, other_per_element):
        self.assertTrue(rep.complete)
        self.assertEqual(rep.ledger, [])
        self.assertEqual(rep.macs(), self.base.macs())
        self.assertEqual(rep.other_flops() - self.base.other_flops(),
                         other_per_element * ELEMENTS)
        self.assertEqual(rep.bytes_read() - self.base.bytes_read(), ELEMENTS * 4)
        self.assertEqual(rep.bytes_written() - self.base.bytes_written(), ELEMENTS * 4)

    def test_unknown(self):
        rep = self.base
        self.assertFalse(rep.complete)
        self.assertEqual(len(rep.ledger), 1)
        e = rep.ledger[0]
        self.assertEqual((e.name, e.count, e.reason), ("mylib::fused_gelu", CALLS, "no_rule"))
        self.assertEqual(e.example_shapes[0][:6], "[2,64]")
        self.assertIn("tlcost --plugin", e.remedy)
        self.assertEqual(rep.coverage["unknown"], CALLS)
        self.assertIn("LOWER BOUND", str(rep))

    def test_c_plugin(self):
        rep = run(tlcost.Engine(plugins=[tlctest.PLUGIN]))
        self.assert_known(rep, 5)
        # the saved log through the CLI with the same plugin: the same bytes
        path = os.path.join(tlctest.tmpdir(), "g.oplog.jsonl")
        rep.save(path)
        self.assertEqual(cli("--plugin", tlctest.PLUGIN, "flops", "--format", "json", path),
                         rep.to_json())

    def test_rule_file(self):
        rep = run(tlcost.Engine(rules=[tlctest.RULES]))
        self.assert_known(rep, 5)
        path = os.path.join(tlctest.tmpdir(), "g.oplog.jsonl.gz")
        rep.save(path)
        self.assertEqual(cli("--rules", tlctest.RULES, "flops", "--format", "json", path),
                         rep.to_json())

    def test_python_rule(self):
        eng = tlcost.Engine()
        seen = []

        @eng.rule("mylib::fused_gelu", estimated=True,
                  note="5 other FLOPs per element (erf GELU, erf counted as 1)")
        def fused_gelu(op):
            seen.append(op)
            return tlcost.Cost(other_flops=5 * op.args[0].numel)

        rep = run(eng)
        self.assert_known(rep, 5)
        self.assertEqual(len(seen), CALLS)
        x = seen[0].args[0]
        self.assertEqual((x.shape, x.dtype, x.device), ((2, 64), "float32", "cpu"))
        self.assertEqual(seen[0].outputs[0].shape, (2, 64))
        # same totals as the rule file that states the same formula
        ref = json.loads(run(tlcost.Engine(rules=[tlctest.RULES])).to_json())
        self.assertEqual(json.loads(rep.to_json())["phases"], ref["phases"])
        provider = [r for r in eng.rules() if r["name"] == "mylib::fused_gelu"][0]
        self.assertEqual((provider["provider"], provider["evidence"]), ("api", "estimated"))

    def test_python_rule_beyond_64_bits(self):
        eng = tlcost.Engine()
        big = 2 ** 70 + 1
        eng.register_rule("mylib::fused_gelu",
                          lambda op: {"macs": big, "bytes_read": 0, "bytes_written": 3 ** 50})
        rep = run(eng)
        self.assertTrue(rep.complete)
        self.assertEqual(rep.macs() - self.base.macs(), CALLS * big)
        self.assertEqual(rep.bytes_written() - self.base.bytes_written(), CALLS * 3 ** 50)
        self.assertEqual(rep.flops() - self.base.flops(), 2 * CALLS * big)

    def test_python_rule_failures_are_unknown(self):
        cases = [
            (lambda op: tlcost.Cost(other_flops=2.5), "bad_args", "float"),
            (lambda op: tlcost.Cost(other_flops=-1), "bad_args", "negative"),
            (lambda op: 1 // 0, "bad_args", "ZeroDivisionError"),
            (lambda op: "lots", "bad_args", "tlcost.Cost"),
        ]

        def missing(op):
            raise tlcost.MissingArgs("needs the bias")
        cases.append((missing, "missing_args", "needs the bias"))
        for fn, reason, detail in cases:
            eng = tlcost.Engine()
            eng.register_rule("mylib::fused_gelu", fn)
            rep = run(eng)
            self.assertFalse(rep.complete)
            e = rep.ledger[0]
            self.assertEqual((e.name, e.count, e.reason), ("mylib::fused_gelu", CALLS, reason))
            self.assertIn(detail, e.detail)
            self.assertEqual(rep.other_flops(), self.base.other_flops())

    def test_zero_and_duplicate(self):
        eng = tlcost.Engine()
        eng.register_rule("mylib::fused_gelu", kind="zero", note="free in this test")
        rep = run(eng)
        self.assertTrue(rep.complete)
        self.assertEqual(rep.coverage["zero_by_rule"] - self.base.coverage["zero_by_rule"],
                         CALLS)
        with self.assertRaises(tlcost.ExistsError) as c:
            eng.register_rule("mylib::fused_gelu", lambda op: tlcost.Cost())
        self.assertEqual(c.exception.code, "rule_duplicate")
        eng.register_rule("mylib::fused_gelu", lambda op: tlcost.Cost(other_flops=1),
                          override=True)
        self.assertEqual(run(eng).other_flops() - self.base.other_flops(), CALLS)


if __name__ == "__main__":
    tlctest.main()
