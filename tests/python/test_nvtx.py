"""tlcost.capture(..., emit_nvtx=True) (issue 16): every captured op gets
exactly one NVTX range tlcost::<op>#<call_id>, recorded here by the test
injection library tests/nvtx/inject.c (NVTX_INJECTION64_PATH, dumped at
exit with TLC_TEST_NVTX_DUMP). The expected ranges come from the op log the
same capture saved, read as plain JSON (name and id of every record), not
from the recorder; without the option nothing is emitted; without CUDA
(checked first) or without a tool the option refuses typed, saying which.
The tool cases run on any host: the child stands in a CUDA check that says
yes (TLC_TEST_CUDA=fake), as the option's ranges reach the tool either way."""
import gzip
import json
import os
import subprocess
import sys
import unittest

import tlctest

INJECT = os.path.join(tlctest.BUILD, "tests", "nvtx", ".libs", "inject.so")

CHILD = r"""
import os, sys, torch, tlcost
if os.environ.get("TLC_TEST_CUDA") == "fake":
    # a CUDA host as far as the capture's check can tell (torch is asked
    # nothing else: the model and inputs are on the CPU)
    torch.cuda.is_available = lambda: True
torch.manual_seed(0)
m = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 4))
x = torch.randn(2, 8)
emit = sys.argv[2] == "on"
try:
    rep = tlcost.capture(m, (x,), mode="fwd_nograd_eval", emit_nvtx=emit)
except tlcost.Error as e:
    print("ERROR", type(e).__name__, e.code)
    print(e.message)
    sys.exit(3)
rep.save(sys.argv[1])
"""


def run_child(log, mode, env_extra, cuda="fake"):
    env = dict(os.environ)
    env.pop("NVTX_INJECTION64_PATH", None)
    env["TLC_TEST_CUDA"] = cuda
    if cuda == "none":
        env["CUDA_VISIBLE_DEVICES"] = ""   # no device even on a GPU host
    env.update(env_extra)
    return subprocess.run([sys.executable, "-c", CHILD, log, mode], env=env,
                          capture_output=True, text=True)


def log_ops(path):
    with gzip.open(path, "rt") if path.endswith(".gz") else open(path) as f:
        lines = [json.loads(l) for l in f if l.strip()]
    return [(r["op"], r["id"]) for r in lines[1:] if r.get("kind", "op") == "op"]


class EmitNvtx(unittest.TestCase):
    def setUp(self):
        tlctest.need_torch()
        if not os.path.exists(INJECT):
            self.skipTest("the recording NVTX injection library was not built "
                          "(no NVTX3 headers)")
        self.tmp = tlctest.tmpdir()

    def test_one_range_per_op_with_its_call_identity(self):
        log, dump = os.path.join(self.tmp, "a.jsonl"), os.path.join(self.tmp, "a.nvtx")
        r = run_child(log, "on", {"NVTX_INJECTION64_PATH": INJECT, "TLC_TEST_NVTX_DUMP": dump})
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        ops = log_ops(log)
        self.assertGreater(len(ops), 3)
        want = []
        for name, oid in ops:
            want += [f"push 0 tlcost::{name}#{oid}", "pop 0"]
        with open(dump) as f:
            got = [l.rstrip("\n") for l in f]
        self.assertEqual(got, want)

    def test_nothing_emitted_when_off(self):
        log, dump = os.path.join(self.tmp, "b.jsonl"), os.path.join(self.tmp, "b.nvtx")
        r = run_child(log, "off", {"NVTX_INJECTION64_PATH": INJECT, "TLC_TEST_NVTX_DUMP": dump})
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        text = ""
        if os.path.exists(dump):
            with open(dump) as f:
                text = f.read()
        self.assertEqual(text, "")

    def test_refused_without_a_tool(self):
        r = run_child(os.path.join(self.tmp, "c.jsonl"), "on", {})
        self.assertEqual(r.returncode, 3, r.stdout + r.stderr)
        lines = r.stdout.splitlines()
        self.assertEqual(lines[0].split(), ["ERROR", "UnavailableError", "emit_nvtx_unavailable"])
        self.assertIn("no NVTX tool is attached", lines[1])

    def test_refused_without_cuda_first_even_with_a_tool(self):
        # the seed's refusal: no CUDA, nothing runs under the ranges; it is
        # checked before the tool and the message says it
        for extra in ({}, {"NVTX_INJECTION64_PATH": INJECT}):
            with self.subTest(tool=bool(extra)):
                log = os.path.join(self.tmp, "d.jsonl")
                r = run_child(log, "on", extra, cuda="none")
                self.assertEqual(r.returncode, 3, r.stdout + r.stderr)
                lines = r.stdout.splitlines()
                self.assertEqual(lines[0].split(),
                                 ["ERROR", "UnavailableError", "emit_nvtx_unavailable"])
                self.assertIn("no CUDA device", lines[1])
                self.assertNotIn("NVTX tool", lines[1])
                self.assertFalse(os.path.exists(log))


if __name__ == "__main__":
    tlctest.main()
