"""tlcost.capture: live captures through the engine give the published
forward MACs (the same figures tests/cli/models.sh checks on the bundled logs,
taken from torchvision's documentation), the hand-derived resnet18
backward MACs, the CLI's numbers on the bundled logs, and byte-identical
`tlcost flops --format json` whether the ops went through a saved file or
the live API."""

import gzip
import json
import os
import subprocess
import sys
import tracemalloc

import tlctest
from tlctest import cli, fixture

tlctest.need_torch()

import torch  # noqa: E402
import torchvision  # noqa: E402

import tlcost  # noqa: E402

PUBLISHED = {"resnet50": 4089184256, "vit_b_16": 17563828224,
             "mobilenet_v2": 300774272}


def bundled(model, mode, phase="forward"):
    doc = json.loads(cli("flops", "--format", "json",
                         fixture("%s.%s.oplog.jsonl.gz" % (model, mode))))
    return doc["phases"][phase]["macs"]


class Capture(tlctest.unittest.TestCase):
    def file_vs_live(self, rep, name):
        d = tlctest.tmpdir()
        for ext in (".oplog.jsonl", ".oplog.jsonl.gz"):
            path = os.path.join(d, name + ext)
            rep.save(path)
            self.assertEqual(cli("flops", "--format", "json", path), rep.to_json(), path)
            self.assertEqual(cli("flops", path), str(rep), path)
        subprocess.run([sys.executable, os.path.join(tlctest.SRC, "tools", "validate_oplog.py"),
                        path], check=True, capture_output=True)
        return path

    def test_forward_published(self):
        torch.manual_seed(0)
        for name, macs in PUBLISHED.items():
            model = torchvision.models.get_model(name, weights=None)
            x = torch.randn(1, 3, 224, 224)
            rep = tlcost.capture(model, (x,), mode="fwd_grad", model_name=name, tokens=1)
            self.assertTrue(rep.complete, name)
            self.assertEqual(rep.macs("forward"), macs, name)
            self.assertEqual(rep.macs("forward"), bundled(name, "fwd_grad"), name)
            self.assertEqual(rep.phases, ["forward"])
            self.file_vs_live(rep, name)

    def test_nograd_eval(self):
        model = torchvision.models.mobilenet_v2(weights=None)
        rep = tlcost.capture(model, torch.randn(1, 3, 224, 224), mode="fwd_nograd_eval")
        self.assertEqual(rep.macs("forward"), PUBLISHED["mobilenet_v2"])
        self.assertEqual(rep.info["format"], "tlcost-oplog")
        self.assertEqual(json.loads(rep.info["meta_json"])["mode"], "fwd_nograd_eval")

    def test_resnet18_train(self):
        torch.manual_seed(0)
        model = torchvision.models.resnet18(weights=None)
        x = torch.randn(1, 3, 224, 224)
        rep = tlcost.capture(model, (x,), mode="train", target=torch.randint(0, 1000, (1,)),
                             model_name="resnet18", tokens=1, timing=False)
        # tests/cli/models.sh derives 3,510,132,736 by hand; the bundled log agrees
        self.assertEqual(rep.macs("backward"), 3510132736)
        self.assertEqual(rep.macs("backward"), bundled("resnet18", "train", "backward"))
        self.assertEqual(rep.macs("forward"), 1814073344)
        self.assertEqual(rep.phases, ["forward", "backward", "optimizer"])
        path = self.file_vs_live(rep, "resnet18")
        with gzip.open(path, "rt") as f:
            head = json.loads(f.readline())
            first = json.loads(f.readline())
        self.assertEqual(head["model"], "resnet18")
        self.assertEqual(head["tokens"], 1)
        self.assertEqual(head["meta"]["mode"], "train")
        self.assertNotIn("host_ns", first)  # timing=False
        # the tree and profile of the live report equal the CLI's on its log
        self.assertEqual(str(rep.tree(phase="backward")),
                         cli("tree", "--phase", "backward", path))
        self.assertEqual(str(rep.profile(by="module")), cli("profile", "--by", "module", path))

    def test_mode_errors(self):
        model = torch.nn.Linear(4, 4)
        with self.assertRaises(tlcost.InvalidArgumentError) as c:
            tlcost.capture(model, torch.randn(2, 4), mode="inference")
        self.assertEqual(c.exception.code, "capture_mode_unknown")
        with self.assertRaises(tlcost.InvalidArgumentError) as c:
            tlcost.capture(model, torch.randn(2, 4), loss_fn=lambda o: o.sum())
        self.assertEqual(c.exception.code, "capture_option_inapplicable")

    def test_measure_clean_step(self):
        lin, x = torch.nn.Linear(8, 16), torch.randn(1, 8)
        st = tlcost.measure_clean_step(lin, (x,), steps=3, mode="train")
        self.assertEqual((len(st.samples), st.mode), (3, "train"))
        self.assertTrue(all(s > 0 for s in st.samples))
        self.assertEqual(st.seconds, sorted(st.samples)[1])  # the median
        rep = tlcost.capture(lin, (x,), mode="train")
        doc = rep.mfu(st, peak_flops=1e12, peak_bw=1e12).to_dict()
        # the report prints 9 significant digits
        # the MFU JSON writes seconds with 6 significant digits (%g)
        self.assertAlmostEqual(doc["step_seconds"], st.seconds, delta=st.seconds * 5e-6)
        with self.assertRaises(tlcost.InvalidArgumentError):
            tlcost.measure_clean_step(lin, (x,), steps=0)

    def test_linear_by_hand(self):
        # contract example: a biased Linear(8,16) on one row is 128 MACs and
        # 16 other FLOPs (the bias adds): 272 FLOPs
        rep = tlcost.capture(torch.nn.Linear(8, 16), torch.randn(1, 8))
        self.assertEqual((rep.macs(), rep.other_flops(), rep.flops()), (128, 16, 272))

    def test_higher_order_operator(self):
        # torch >= 2.5 hands higher-order operators (flex_attention and its
        # backward) to the mode as operator objects, with the mode popped
        # (torch/_ops.py HigherOrderOperator.dispatch); torch 1.13 has
        # none, so two stand-ins with the same faces (_name, py_kernels)
        # go through run_hop as torch would call it. One has an eager
        # kernel: q @ k^T, [4,8] x [8,6], by hand 4*8*6 = 192 MACs, recorded
        # as the ATen ops it runs. The other has none: it runs unrecorded
        # inside and is one op, higher_order::opaque, that no rule covers.
        from torch.utils._python_dispatch import _pop_mode_temporarily
        key = torch._C.DispatchKey.CompositeExplicitAutograd

        class Hop:
            def __init__(self, name, dense):
                self._name = name
                self.py_kernels = {key: dense} if dense else {}

            def __call__(self, q, k, block=None):
                return torch.matmul(q, k.t())

        q, k = torch.randn(4, 8), torch.randn(6, 8)
        eager = Hop("fake_attention", lambda q, k, block=None: torch.matmul(q, k.t()))
        opaque = Hop("opaque", None)
        with tlcost.counting() as c:
            with _pop_mode_temporarily() as mode:
                r1 = mode.run_hop(eager, (q, k), {})
                r2 = mode.run_hop(opaque, (q, k), {"block": (object(), 3)})
        want = torch.matmul(q, k.t())
        self.assertTrue(torch.equal(r1, want) and torch.equal(r2, want))
        rep = c.report()
        self.assertEqual(rep.macs(), 192)
        self.assertTrue(rep.lower_bound)
        self.assertEqual([(e.name, e.count, e.reason) for e in rep.ledger],
                         [("higher_order::opaque", 1, "no_rule")])

    def test_bounded_python_memory(self):
        # ops flow into the engine one at a time: Python memory kept by a
        # capture does not grow with the number of ops
        class Many(torch.nn.Module):
            def __init__(self, n):
                super().__init__()
                self.n = n

            def forward(self, x):
                for _ in range(self.n):
                    x = x + 1
                return x

        def kept(n):
            tracemalloc.start()
            before = tracemalloc.get_traced_memory()[0]
            rep = tlcost.capture(Many(n), torch.zeros(4), mode="fwd_nograd_eval")
            after = tracemalloc.get_traced_memory()[0]
            tracemalloc.stop()
            self.assertEqual(rep.ops, n)
            return after - before

        small, large = kept(1000), kept(20000)
        self.assertLess(large, small + 64 * 1024, (small, large))


if __name__ == "__main__":
    tlctest.main()
