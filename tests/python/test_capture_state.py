"""tlcost.capture measures and leaves the caller's model as it found it,
checks its arguments before the model runs, and refuses typed where it
cannot work (issue 23 item 8, item 13, new-user points c and d).

Expectations are the model's own state taken before the call (weights,
.grad, buffers, the training flag of every submodule, the tensors'
identity), the op log v1 rules of docs/oplog-v1.md (tokens a non-negative
64-bit integer, strings without NUL), and for the missing-module case the
interpreter configure chose, as make check passes it (PYTHON)."""

import os
import subprocess
import sys

import tlctest

tlctest.need_torch()

import torch  # noqa: E402

import tlcost  # noqa: E402

MODES = ("fwd_grad", "fwd_nograd_eval", "train")


class Counted(torch.nn.Module):
    """Counts its forward calls: an argument refused before the model runs
    leaves the count at 0."""

    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 2)
        self.calls = 0

    def forward(self, x):
        self.calls += 1
        return self.lin(x)


def model_with_state():
    """Linear, BatchNorm (running stats), Dropout, Linear, with mixed
    training flags and existing gradients (one parameter without one)."""
    torch.manual_seed(0)
    m = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.BatchNorm1d(8),
                            torch.nn.Dropout(0.5), torch.nn.Linear(8, 4))
    m.train()
    m(torch.randn(16, 8)).sum().backward()   # grads and moved running stats
    m[3].bias.grad = None
    m.eval()
    m[1].train()                                # flags differ per module
    return m


def state_of(m):
    return {"params": {k: (p, p.detach().clone(), p.grad,
                           None if p.grad is None else p.grad.clone())
                       for k, p in m.named_parameters()},
            "buffers": {k: (b, b.clone()) for k, b in m.named_buffers()},
            "flags": {k: mod.training for k, mod in m.named_modules()}}


class LeavesTheModel(tlctest.unittest.TestCase):
    def assert_unchanged(self, m, before):
        for k, p in m.named_parameters():
            obj, value, grad_obj, grad = before["params"][k]
            self.assertIs(p, obj, k + " was replaced")
            self.assertTrue(torch.equal(p.detach(), value), k + " changed")
            if grad is None:
                self.assertIsNone(p.grad, k + ".grad appeared")
            else:
                self.assertIs(p.grad, grad_obj, k + ".grad was dropped or replaced")
                self.assertTrue(torch.equal(p.grad, grad), k + ".grad changed")
        for k, b in m.named_buffers():
            obj, value = before["buffers"][k]
            self.assertIs(b, obj)
            self.assertTrue(torch.equal(b, value), k + " changed")
        self.assertEqual({k: mod.training for k, mod in m.named_modules()}, before["flags"])

    def test_every_mode_leaves_weights_grads_buffers_and_flags(self):
        for mode in MODES:
            with self.subTest(mode=mode):
                m = model_with_state()
                before = state_of(m)
                x = torch.randn(4, 8)
                kw = {"target": torch.tensor([0, 1, 2, 3])} if mode == "train" else {}
                rep = tlcost.capture(m, (x,), mode=mode, **kw)
                self.assertGreater(rep.macs("forward"), 0)
                if mode == "train":
                    self.assertEqual(rep.phases, ["forward", "backward", "optimizer"])
                self.assert_unchanged(m, before)

    def test_issue_repro_linear_train(self):
        m = torch.nn.Linear(8, 4)
        w0 = m.weight.detach().clone()
        tlcost.capture(m, (torch.randn(2, 8),), mode="train")
        self.assertTrue(torch.equal(w0, m.weight.detach()))
        self.assertIsNone(m.weight.grad)
        self.assertTrue(m.training)

    def test_a_failing_step_still_restores(self):
        m = model_with_state()
        before = state_of(m)

        def bad_loss(out):
            raise RuntimeError("loss failed")
        with self.assertRaises(RuntimeError):
            tlcost.capture(m, (torch.randn(4, 8),), mode="train", loss_fn=bad_loss)
        self.assert_unchanged(m, before)

    def test_measure_clean_step_leaves_the_model(self):
        m = model_with_state()
        before = state_of(m)
        tlcost.measure_clean_step(m, (torch.randn(4, 8),), steps=2, warmup=1, mode="train",
                                  target=torch.tensor([0, 1, 2, 3]))
        self.assert_unchanged(m, before)


class ChecksArguments(tlctest.unittest.TestCase):
    def refused(self, mode="fwd_grad", **kw):
        m = Counted()
        with self.assertRaises(tlcost.InvalidArgumentError) as cm:
            tlcost.capture(m, (torch.randn(2, 4),), mode=mode, **kw)
        self.assertEqual(cm.exception.code, "capture_argument_invalid")
        self.assertTrue(cm.exception.remedy)
        self.assertEqual(m.calls, 0, "the model ran before the refusal")
        return cm.exception

    def test_bad_arguments_are_refused_before_the_model_runs(self):
        e = self.refused(tokens=-1)
        self.assertIn("tokens=-1", e.message)
        for tokens in (2 ** 63, True, 1.5, "3"):
            self.refused(tokens=tokens)
        self.refused(model_name="a\0b")
        self.refused(model_name=7)
        self.refused(device="cpu\0")
        self.refused(meta={"x": float("nan")})
        self.refused(meta={"x": object()})
        self.refused(meta={"x": ["a\0"]})
        self.refused(meta=[1])
        self.refused(meta={1: "a"})
        self.refused(optimizer="rmsprop")
        self.refused(timing="yes")
        self.refused(record=None)
        self.refused(emit_nvtx=1)
        self.refused(mode="train", loss_fn=3)
        self.refused(mode="train", target=[1, 0])
        self.refused(engine="default")
        with self.assertRaises(tlcost.InvalidArgumentError) as cm:
            tlcost.capture(lambda x: x, (torch.randn(2, 4),))
        self.assertEqual(cm.exception.code, "capture_argument_invalid")

    def test_boundary_tokens_are_written_and_read_back(self):
        tmp = tlctest.tmpdir()
        for tokens in (0, 2 ** 63 - 1):
            rep = tlcost.capture(Counted(), (torch.randn(2, 4),), tokens=tokens)
            path = os.path.join(tmp, "t%d.jsonl" % tokens)
            rep.save(path)
            self.assertEqual(tlcost.read(path).info["tokens"], tokens)


NO_MODULE = r"""
import sys
sys.modules[sys.argv[1]] = None       # this interpreter "has no" that module
import _tlcost, tlcost
try:
    if sys.argv[2] == "api":
        tlcost.capture
    else:
        from tlcost.cli import main
        sys.exit(main(sys.argv[2:]))
except tlcost.UnavailableError as e:
    print(e.code)
    print(e.message)
    print(e.remedy)
    sys.exit(9)
"""


class MissingModule(tlctest.unittest.TestCase):
    def run_without(self, module, *args):
        return subprocess.run([sys.executable, "-c", NO_MODULE, module, *args],
                              capture_output=True, text=True, timeout=300)

    def test_built_for_is_the_interpreter_configure_chose(self):
        import _tlcost
        self.assertEqual(_tlcost.build_python, os.environ["PYTHON"])

    def assert_names_the_interpreters(self, text):
        self.assertIn(sys.executable, text)
        self.assertIn(os.environ["PYTHON"], text)
        self.assertIn("PYTHON=", text)

    def test_capture_without_torch(self):
        r = self.run_without("torch", "api")
        self.assertEqual(r.returncode, 9, r.stdout + r.stderr)
        lines = r.stdout.splitlines()
        self.assertEqual(lines[0], "python_module_unavailable")
        self.assertIn("'torch'", lines[1])
        self.assert_names_the_interpreters(r.stdout)

    def test_capture_command_without_torch(self):
        r = self.run_without("torch", "capture", "--model", "resnet18", "--out",
                             os.path.join(tlctest.tmpdir(), "x.jsonl"))
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertNotIn("Traceback", r.stderr)
        self.assertIn("tlcost: error: python_module_unavailable: ", r.stderr)
        self.assert_names_the_interpreters(r.stderr)

    def test_map_command_without_distributed(self):
        out = os.path.join(tlctest.tmpdir(), "merged.json")
        r = self.run_without("distributed", "map",
                             os.path.join(tlctest.SRC, "examples", "custom_gelu.oplog.jsonl"),
                             "--scheduler", "local:1", "-o", out)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertNotIn("Traceback", r.stderr)
        self.assertIn("tlcost: error: python_module_unavailable: ", r.stderr)
        self.assertIn("'distributed'", r.stderr)
        self.assert_names_the_interpreters(r.stderr)
        self.assertEqual(os.listdir(os.path.dirname(out)), [], "an output or temporary was left")


if __name__ == "__main__":
    tlctest.main()
