"""tlcost.counting(): a with block around any code counts what capture
counts on the same step.

Expected values: the tiny MLP's MACs by hand (2*M*N*K... here M*N*K MACs
per matmul: Linear(8,16) on 2 rows = 2*8*16 = 256, Linear(16,4) = 2*16*4 =
128, forward 384; backward: the last Linear's grad input and grad weight
2*4*16 = 128 each, the first Linear's grad weight 2*8*16 = 256 (x needs no
gradient), backward 512; SGD has no MAC); resnet18's 1,814,073,344
forward and 3,510,132,736 backward MACs and resnet50's published
4,089,184,256 as tests/python/test_capture.py and tests/cli/models.sh derive
them; and capture's own report on the same step, figure for figure (the
op log JSON byte for byte where the headers are made equal).
"""

import threading

import tlctest

tlctest.need_torch()

import torch  # noqa: E402
import torchvision  # noqa: E402
from torch.autograd import grad as early_grad  # noqa: E402  (a reference taken before any block)

import tlcost  # noqa: E402

def _pandas():
    try:
        import pandas  # noqa: F401
        return True
    except ImportError:
        return False


FIGURES = ("macs", "other_flops", "flops", "bytes_read", "bytes_written")


def figures(rep):
    return {p: tuple(getattr(rep, f)(p) for f in FIGURES) for p in rep.phases}


def mlp():
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 4))


X = torch.randn(2, 8)
T = torch.tensor([1, 3])


class Counting(tlctest.unittest.TestCase):
    def test_train_step_equals_capture(self):
        m = mlp()
        cap = tlcost.capture(m, (X,), mode="train", target=T, timing=False)
        opt = torch.optim.SGD(m.parameters(), lr=0.01, momentum=0.9)  # capture's optimizer
        with tlcost.counting(m, timing=False, meta={"mode": "train", "optimizer": "sgd"}) as c:
            loss = torch.nn.functional.cross_entropy(m(X), T)
            loss.backward()
            opt.step()
        rep = c.report()
        self.assertIsInstance(rep, tlcost.Report)
        self.assertEqual(rep.phases, ["forward", "backward", "optimizer"])
        self.assertEqual((rep.macs("forward"), rep.macs("backward"), rep.macs("optimizer")),
                         (384, 512, 0))
        self.assertEqual(figures(rep), figures(cap))
        self.assertEqual(rep.coverage, cap.coverage)
        self.assertEqual(rep.to_json(), cap.to_json())
        self.assertEqual(str(rep.profile(by="module", top=0)), str(cap.profile(by="module", top=0)))
        self.assertEqual(str(rep.tree(phase="forward")), str(cap.tree(phase="forward")))
        # the op log itself: the same records (the headers were made equal)
        a, b = tlctest.tmpdir() + "/a.jsonl", tlctest.tmpdir() + "/b.jsonl"
        rep.save(a)
        cap.save(b)
        with open(a) as fa, open(b) as fb:
            self.assertEqual(fa.read(), fb.read())

    def test_models(self):
        torch.manual_seed(0)
        m = torchvision.models.resnet18(weights=None)
        x, t = torch.randn(1, 3, 224, 224), torch.randint(0, 1000, (1,))
        cap = tlcost.capture(m, (x,), mode="train", target=t, timing=False)
        opt = torch.optim.SGD(m.parameters(), lr=0.01, momentum=0.9)
        m.train()
        with tlcost.counting(m, timing=False, meta={"mode": "train", "optimizer": "sgd"}) as c:
            torch.nn.functional.cross_entropy(m(x), t).backward()
            opt.step()
        rep = c.report()
        self.assertEqual((rep.macs("forward"), rep.macs("backward")), (1814073344, 3510132736))
        self.assertEqual(rep.to_json(), cap.to_json())
        m50 = torchvision.models.resnet50(weights=None)
        m50.train()
        with tlcost.counting(m50, meta={"mode": "fwd_grad"}, timing=False) as c50:
            m50(x)
        cap50 = tlcost.capture(m50, (x,), mode="fwd_grad", timing=False)
        self.assertEqual(c50.report().macs("forward"), 4089184256)
        self.assertEqual(c50.report().to_json(), cap50.to_json())

    def test_several_steps(self):
        # plain SGD: every step dispatches the same ops, so two steps in one
        # block are every figure of one step twice
        def run(steps):
            m = mlp()
            opt = torch.optim.SGD(m.parameters(), lr=0.01)
            with tlcost.counting(m) as c:
                for _ in range(steps):
                    opt.zero_grad(set_to_none=True)
                    torch.nn.functional.cross_entropy(m(X), T).backward()
                    opt.step()
            return c.report()
        one, two = run(1), run(2)
        self.assertEqual(one.macs("forward"), 384)
        self.assertEqual(two.ops, 2 * one.ops)
        self.assertEqual(figures(two), {p: tuple(2 * v for v in f) for p, f in figures(one).items()})

    def test_zero_grad_is_optimizer(self):
        m = mlp()
        torch.nn.functional.cross_entropy(m(X), T).backward()
        opt = torch.optim.SGD(m.parameters(), lr=0.01)
        with tlcost.counting() as c:
            opt.zero_grad(set_to_none=False)   # torch 1.13's default: zero_ on every grad
        rows = c.report().profile(by="op", top=0).to_dict()["rows"]
        zero = [r for r in rows if r["key"].startswith("aten::zero_")]
        self.assertEqual(len(zero), 4)         # two weights, two biases
        self.assertEqual({r["phase"] for r in rows}, {"optimizer"})

    def test_without_model_no_module_paths(self):
        m = mlp()
        with tlcost.counting() as c:
            m(X)
        rep = c.report()
        self.assertEqual(rep.macs("forward"), 384)
        self.assertEqual(rep.info["params"], -1)        # no model: no parameter count
        rows = rep.profile(by="op", top=0).to_dict()["rows"]
        self.assertEqual({r["module"] for r in rows}, {""})

    def test_nesting_counts_once_per_block(self):
        m = mlp()
        with tlcost.counting(m) as outer:
            loss = torch.nn.functional.cross_entropy(m(X), T)
            with tlcost.counting(m) as inner:
                loss.backward()
        o, i = outer.report(), inner.report()
        self.assertEqual(i.phases, ["backward"])
        self.assertEqual(i.macs(), 512)
        self.assertEqual((o.macs("forward"), o.macs("backward")), (384, 512))
        self.assertGreater(o.ops, i.ops)
        self.assertEqual(figures(o)["backward"], figures(i)["backward"])

    def test_autocast(self):
        # AMP: autocast sits above the dispatch mode, so the block sees the
        # calls it makes: three casts to bfloat16 (weight, bias, input), the
        # bfloat16 addmm (2*8*16 = 256 MACs by hand) and, in backward, the
        # grad weight mm (256 MACs; x needs no gradient)
        m = torch.nn.Linear(8, 16)
        with tlcost.counting(m) as c:
            with torch.autocast("cpu", dtype=torch.bfloat16):
                y = m(X)
            y.float().sum().backward()
        rep = c.report()
        self.assertEqual((rep.macs("forward"), rep.macs("backward")), (256, 256))
        rows = rep.to_pandas() if _pandas() else None
        if rows is not None:
            mm = rows[rows["name"] == "aten::addmm"]
            self.assertEqual(list(mm["dtype"]), ["bfloat16"])
            casts = rows[(rows["name"] == "aten::_to_copy") & (rows["phase"] == "forward")]
            self.assertGreaterEqual(len(casts), 3)

    def test_capture_inside_a_block(self):
        # capture's step runs inside the block: both count it. The block also
        # counts what capture does around its step (copying the parameters
        # aside and back: clone/copy_, forward; its zero_grad(set_to_none=True)
        # after the step: the range's handle, optimizer), which holds no MAC
        m = mlp()
        with tlcost.counting(m) as c:
            cap = tlcost.capture(m, (X,), mode="train", target=T)
        got, want = figures(c.report()), figures(cap)
        self.assertEqual(got["backward"], want["backward"])
        for p in ("forward", "optimizer"):
            self.assertEqual(got[p][0], want[p][0])                       # MACs
            self.assertTrue(all(g >= w for g, w in zip(got[p], want[p])), (p, got[p], want[p]))
        self.assertEqual(cap.macs("backward"), 512)

    def test_grad_held_from_before(self):
        # a reference to torch.autograd.grad taken before the block still runs
        # its engine in the backward phase (run_backward); only its seed
        # gradient (ones_like of the scalar loss: 4 bytes written) is forward
        m = mlp()
        with tlcost.counting() as c:
            loss = torch.nn.functional.cross_entropy(m(X), T)
            early_grad(loss, list(m.parameters()))
        with tlcost.counting() as ref:
            loss = torch.nn.functional.cross_entropy(m(X), T)
            torch.autograd.grad(loss, list(m.parameters()))
        a, b = c.report(), ref.report()
        self.assertEqual((a.macs("forward"), a.macs("backward")), (384, 512))
        self.assertEqual(figures(b)["backward"][:3], figures(a)["backward"][:3])
        self.assertEqual(a.bytes_written("forward"), b.bytes_written("forward") + 4)
        self.assertEqual(a.bytes_written("backward") + 4, b.bytes_written("backward"))

    def test_reuse_and_early_report_refused(self):
        c = tlcost.counting()
        with self.assertRaises(tlcost.StateError) as e:
            c.report()
        self.assertEqual(e.exception.code, "counting_not_finished")
        with c:
            with self.assertRaises(tlcost.StateError) as e:
                c.report()
            self.assertEqual(e.exception.code, "counting_not_finished")
            with self.assertRaises(tlcost.StateError) as e:
                with c:
                    pass
            self.assertEqual(e.exception.code, "counting_reused")
            torch.mm(X, X.t())
        self.assertEqual(c.report().macs(), 2 * 8 * 2)
        with self.assertRaises(tlcost.StateError) as e:
            with c:
                pass
        self.assertEqual(e.exception.code, "counting_reused")
        with self.assertRaises(tlcost.InvalidArgumentError) as e:
            tlcost.counting(model="resnet")
        self.assertEqual(e.exception.code, "capture_argument_invalid")

    def test_other_threads_not_counted(self):
        # ops dispatched by another thread while the block is open are not
        # counted (torch's dispatch mode is per thread); a block open on that
        # thread counts them on its own
        results = {}

        def worker():
            with tlcost.counting() as c:
                torch.mm(torch.ones(3, 5), torch.ones(5, 7))   # 3*5*7 = 105 MACs
                started.set()
                done.wait()
            results["worker"] = c.report()

        started, done = threading.Event(), threading.Event()
        with tlcost.counting() as main:
            t = threading.Thread(target=worker)
            t.start()
            started.wait()
            torch.mm(X, X.t())                                # 2*8*2 = 32 MACs
            done.set()
            t.join()
            bare = threading.Thread(target=lambda: torch.mm(torch.ones(4, 4), torch.ones(4, 4)))
            bare.start()
            bare.join()
        self.assertEqual(main.report().macs(), 32)
        self.assertEqual(results["worker"].macs(), 105)

    def test_hooks_removed_and_exceptions(self):
        before = (torch.autograd.backward, torch.autograd.grad,
                  torch.autograd.profiler.record_function.__init__,
                  torch.autograd.variable.Variable._execution_engine)
        with self.assertRaises(RuntimeError):
            with tlcost.counting() as c:
                torch.mm(X, X.t())
                raise RuntimeError("user code fails")
        self.assertEqual(c.report().macs(), 32)   # what ran before the failure
        after = (torch.autograd.backward, torch.autograd.grad,
                 torch.autograd.profiler.record_function.__init__,
                 torch.autograd.variable.Variable._execution_engine)
        self.assertEqual(before, after)


if __name__ == "__main__":
    tlctest.main()
