"""tlcost.diff(a, b): the same model as `tlcost diff --format json`.

Expected figures are derived by hand (tests/cli/diff_cli.sh's header gives the
fixture derivations: FLOPs 1,456 -> 10,880, kernel time +3,800 ns = work
+8,900 + rate -5,100). The captured pair (torch, CPU): an MLP Linear(16,32)
-> ReLU -> Linear(32,4) at batch 1 and 8, forward only; per sample its
FLOPs are 2 x (16*32 + 32*4) MACs + 32 + 4 bias adds + 32 relu = 1,348, so
batch 8 adds 7 x 1,348 = 9,436, every op aligned as a shape change
(same module, same op, batch 1 against 8)."""

import json
import os

import tlctest
from tlctest import cli

import tlcost

SRC = os.environ.get("top_srcdir", ".")
A = os.path.join(SRC, "tests", "fixtures", "diff", "a.oplog.jsonl")
B = os.path.join(SRC, "tests", "fixtures", "diff", "b.oplog.jsonl")


class DiffFixtures(tlctest.unittest.TestCase):
    def test_same_model_as_cli(self):
        d = tlcost.diff(A, B)
        self.assertEqual(d.doc, json.loads(cli("diff", "--format", "json", "--top", "0", A, B)))
        t = d.totals["all"]
        self.assertEqual((t["a"]["flops"], t["b"]["flops"], t["change"]["flops"]),
                         (1456, 10880, 9424))
        self.assertEqual((t["change"]["kernel_ns"], t["change"]["work_ns"],
                          t["change"]["rate_ns"]), (3800, 8900, -5100))
        self.assertTrue(d.has_time)

    def test_conditions(self):
        d = tlcost.diff(A, B, fail_if=["forward.flops>+1%", "coverage.unknown>0"])
        self.assertEqual([c[1] for c in d.conditions], [True, False])
        self.assertTrue(d.failed)
        with self.assertRaises(tlcost.Error) as e:
            tlcost.diff(A, B, fail_if=["flops>>1"])
        self.assertEqual(e.exception.code, "diff_condition_invalid")

    def test_by_type(self):
        d = tlcost.diff(A, B, by="type")
        keys = {r["key"]: r["change"]["flops"] for r in d.rows}
        self.assertEqual(keys["aten::linear"], 7392)
        self.assertEqual(keys["aten::mm"], 2048)
        self.assertEqual(sum(keys.values()), 9424)


class DiffCaptured(tlctest.unittest.TestCase):
    def test_batch_1_against_8(self):
        tlctest.need_torch()
        import torch
        torch.manual_seed(0)
        model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(),
                                    torch.nn.Linear(32, 4))
        r1 = tlcost.capture(model, torch.randn(1, 16), mode="fwd_nograd_eval")
        r8 = tlcost.capture(model, torch.randn(8, 16), mode="fwd_nograd_eval")
        d = tlcost.diff(r1, r8)
        t = d.totals["forward"]
        self.assertEqual((t["a"]["flops"], t["b"]["flops"]), (1348, 8 * 1348))
        self.assertEqual(t["change"]["flops"], 7 * 1348)
        self.assertEqual(d.doc["aligned_rows"]["only_a"], 0)
        self.assertEqual(d.doc["aligned_rows"]["only_b"], 0)
        for r in d.rows:
            if r["a"]["flops"]:
                self.assertEqual(r["match"], "shape_change", r["key"])
                self.assertEqual(r["b"]["flops"], 8 * r["a"]["flops"], r["key"])


if __name__ == "__main__":
    tlctest.main()
