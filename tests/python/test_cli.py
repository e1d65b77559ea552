"""`python3 -m tlcost capture`: the fixes of issue 13 item 4 (nothing is
downloaded, weights_backbone=None, several inputs, namedtuple/dict/list
outputs in train mode, factory tokens, refusing options that cannot apply)
and the thin tools/capture_oplog.py wrapper."""

import contextlib
import gzip
import io
import json
import os
import subprocess
import sys

import tlctest
from tlctest import cli

tlctest.need_torch()

HOME = tlctest.tmpdir()
os.environ["TORCH_HOME"] = HOME  # anything downloaded would land here

from tlcost.cli import main  # noqa: E402

FACTORY = '''
import torch

def with_tokens():
    # a 1 x 64-token LM-like stack: the factory says its tokens (64)
    emb = torch.nn.Embedding(100, 32)
    model = torch.nn.Sequential(emb, torch.nn.Linear(32, 100))
    return model, (torch.randint(0, 100, (1, 64)),), {"tokens": 64}

def plain():
    return torch.nn.Linear(8, 4), (torch.randn(3, 8),)

def module_only():
    return torch.nn.Conv2d(3, 4, 3)
'''


def run(*args):
    """main() in this process; returns (status, stderr)."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        rc = main(["capture"] + [str(a) for a in args])
    return rc, err.getvalue()


def head_of(path):
    with gzip.open(path, "rt") as f:
        return json.loads(f.readline())


class CaptureCommand(tlctest.unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tlctest.tmpdir()
        cls.factory = os.path.join(cls.dir, "mymodels.py")
        with open(cls.factory, "w") as f:
            f.write(FACTORY)

    def out(self, name):
        return os.path.join(self.dir, name + ".oplog.jsonl.gz")

    def capture_ok(self, name, *args):
        path = self.out(name)
        rc, err = run("--out", path, "--no-timing", *args)
        self.assertEqual(rc, 0, err)
        doc = json.loads(cli("flops", "--format", "json", path))
        return path, doc

    def test_train_namedtuple_output(self):
        # GoogLeNet in train() returns GoogLeNetOutputs(logits, aux2, aux1)
        path, doc = self.capture_ok("googlenet", "--model", "googlenet", "--mode", "train",
                                    "--input-shape", "3,64,64")
        self.assertIn("backward", doc["phases"])
        self.assertGreater(doc["phases"]["backward"]["macs"], 0)

    def test_train_dict_output_no_backbone_download(self):
        # segmentation: a dict output, and weights_backbone=None
        path, doc = self.capture_ok("lraspp", "--model", "lraspp_mobilenet_v3_large",
                                    "--mode", "train", "--input-shape", "3,64,64")
        self.assertIn("backward", doc["phases"])
        self.assertEqual(os.listdir(HOME), [], "something was downloaded")

    def test_several_inputs_list_output(self):
        # RAFT takes two images and returns a list of flow predictions
        path, doc = self.capture_ok("raft", "--model", "raft_small", "--mode", "train",
                                    "--input-shape", "3,64,64", "--input-shape", "3,64,64")
        self.assertIn("backward", doc["phases"])
        head = head_of(path)
        self.assertEqual(head["meta"]["batch"], 1)

    def test_factory_tokens(self):
        path, doc = self.capture_ok("tok", "--model", self.factory + ":with_tokens")
        head = head_of(path)
        self.assertEqual(head["tokens"], 64)
        self.assertEqual(head["model"], "mymodels:with_tokens")
        self.assertEqual(doc["input"]["tokens"], 64)
        # a factory that does not say: no tokens at all (never guessed)
        path, doc = self.capture_ok("plain", "--model", self.factory + ":plain",
                                    "--mode", "train")
        self.assertNotIn("tokens", head_of(path))
        # Linear(8,4) on 3 rows: forward 3*8*4 = 96 MACs
        self.assertEqual(doc["phases"]["forward"]["macs"], 96)

    def test_module_only_factory_takes_batch(self):
        path, doc = self.capture_ok("conv", "--model", self.factory + ":module_only",
                                    "--batch", "2", "--input-shape", "3,10,10")
        # Conv2d(3,4,3) on [2,3,10,10]: 2*4*8*8 outputs x 3*3*3 = 13824 MACs
        self.assertEqual(doc["phases"]["forward"]["macs"], 13824)
        self.assertEqual(head_of(path)["tokens"], 2)

    def refused(self, code, *args):
        rc, err = run("--out", self.out("refused"), *args)
        self.assertEqual(rc, 2, err)
        self.assertIn(code, err)
        self.assertIn("remedy:", err)

    def test_refusals(self):
        f = self.factory + ":plain"
        self.refused("capture_option_inapplicable", "--model", f, "--batch", "4")
        self.refused("capture_option_inapplicable", "--model", f, "--input-shape", "3,8,8")
        self.refused("capture_option_inapplicable", "--model", "resnet18", "--seq", "64")
        self.refused("capture_option_inapplicable", "--model", "resnet18",
                     "--optimizer", "adam")
        self.refused("capture_option_inapplicable", "--model", "transformer_encoder",
                     "--input-shape", "3,8,8")
        self.refused("capture_option_inapplicable", "--model",
                     "fasterrcnn_mobilenet_v3_large_320_fpn", "--mode", "train")
        self.refused("capture_model_unknown", "--model", "no_such_net")

    def test_module_and_wrapper(self):
        # `python3 -m tlcost capture` and the old tools/capture_oplog.py path
        env = dict(os.environ)
        for argv in ([sys.executable, "-m", "tlcost", "capture"],
                     [sys.executable, os.path.join(tlctest.SRC, "tools", "capture_oplog.py")]):
            path = self.out("sub")
            r = subprocess.run(argv + ["--model", self.factory + ":plain", "--out", path],
                               env=env, capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("ops", r.stderr)
            doc = json.loads(cli("flops", "--format", "json", path))
            self.assertEqual(doc["phases"]["forward"]["macs"], 96)
        r = subprocess.run([sys.executable, "-m", "tlcost", "capture", "--help"],
                           env=env, capture_output=True, text=True)
        self.assertEqual(r.returncode, 0)
        self.assertIn("--input-shape", r.stdout)


if __name__ == "__main__":
    tlctest.main()
