"""Rule packs from Python (docs/packs.md): tlcost.Engine loads every pack
by default, as the tlcost command does; packs=[...] chooses, packs=[] is
--no-packs; an unknown name raises pack_unknown; a Python rule for an op a
pack covers replaces the pack's rule without override.

The op log tests/fixtures/packs/llm_ops.oplog.jsonl (shapes of the SGLang
Qwen3-8B trace, bf16): aiter::gemm_a16w16 [32,4096] x [6144,4096]:
32*6144*4096 = 805,306,368 MACs; aiter::rmsnorm on [32,4096]: 4 * 131,072
= 524,288 other FLOPs (docs/packs.md; tests/cli/packs_cli.sh derives the same)."""

import os
import unittest

import tlctest  # noqa: F401  (sets up the path)

import tlcost

LOG = os.path.join(tlctest.SRC, "tests", "fixtures", "packs", "llm_ops.oplog.jsonl")
MACS, OTHER = 805306368, 524288


class Packs(unittest.TestCase):
    def test_default_loads_every_pack(self):
        rep = tlcost.read(LOG, engine=tlcost.Engine())
        self.assertTrue(rep.complete)
        self.assertEqual(rep.macs(), MACS)
        self.assertEqual(rep.other_flops(), OTHER)

    def test_no_packs(self):
        rep = tlcost.read(LOG, engine=tlcost.Engine(packs=[]))
        self.assertFalse(rep.complete)
        names = sorted(e.name for e in rep.ledger)
        self.assertEqual(names, ["aiter::gemm_a16w16", "aiter::rmsnorm"])
        self.assertIn("covered by pack:aiter", rep.ledger[0].remedy)

    def test_choose(self):
        self.assertTrue(tlcost.read(LOG, engine=tlcost.Engine(packs="aiter")).complete)
        self.assertTrue(tlcost.read(LOG, engine=tlcost.Engine(packs=["vllm", "aiter"])).complete)
        self.assertFalse(tlcost.read(LOG, engine=tlcost.Engine(packs=["sglang"])).complete)

    def test_unknown_pack(self):
        with self.assertRaises(tlcost.Error) as cm:
            tlcost.Engine(packs=["aiter", "nosuch"])
        self.assertEqual(cm.exception.code, "pack_unknown")
        self.assertIn("sglang, aiter, vllm", cm.exception.message)

    def test_python_rule_replaces_pack_rule(self):
        eng = tlcost.Engine()

        @eng.rule("aiter::rmsnorm", estimated=True)
        def rmsnorm(op):
            return tlcost.Cost(other_flops=7 * op.args[1].numel)

        rep = tlcost.read(LOG, engine=eng)
        self.assertTrue(rep.complete)
        self.assertEqual(rep.other_flops(), 7 * 131072)


if __name__ == "__main__":
    unittest.main()
