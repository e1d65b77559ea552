"""tlcost.from_profiler(prof): a finished profiler session gives the
Report tlcost.read gives on the session's export_chrome_trace output.

Expected values: tlcost.read of the same exported file, figure for
figure (the JSON documents of flops, join and ledger byte for byte); on
a torch without Kineto (Debian's 1.13: torch.autograd.kineto_available()
is False) the export is the legacy format and both refuse it with the
same typed error. Sessions standing in for a Kineto build export the
repository's Kineto fixtures (tests/fixtures/trace/: small.json with two
kernels, modules.json CPU-only) and a shared real trace when present;
their totals are checked against tlcost.read on the fixture itself.
"""

import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile

import tlctest

tlctest.need_torch()

import torch  # noqa: E402
from torch.profiler import ProfilerActivity, profile  # noqa: E402

import tlcost  # noqa: E402

TRACES = os.path.join(tlctest.SRC, "tests", "fixtures", "trace")
SHARED = os.path.join(tlctest.SRC, "..", "shared", "traces", "real",
                      "edge_param_2080ti_linear.json.gz")


class Exported:
    """A finished session as from_profiler sees one: export_chrome_trace
    writes a Kineto trace (what torch.profiler writes on a Kineto build)."""

    def __init__(self, source):
        self.source = source
        self.paths = []

    def export_chrome_trace(self, path):
        self.paths.append(path)
        opener = gzip.open if self.source.endswith(".gz") else open
        with opener(self.source, "rb") as src, open(path, "wb") as dst:
            shutil.copyfileobj(src, dst)


def same(test, a, b):
    test.assertEqual(a.to_json(), b.to_json())
    test.assertEqual(a.ledger, b.ledger)
    test.assertEqual(a.join().to_dict(), b.join().to_dict())
    test.assertEqual(str(a.join()), str(b.join()))


class FromProfiler(tlctest.unittest.TestCase):
    def setUp(self):
        # a private temporary directory: what from_profiler leaves there is checked
        self.tmp = tlctest.tmpdir()
        self.saved_tmp, tempfile.tempdir = tempfile.tempdir, self.tmp

    def tearDown(self):
        tempfile.tempdir = self.saved_tmp

    def left(self):
        return [n for n in os.listdir(self.tmp) if n.startswith("tlcost-profiler.")]

    def test_kineto_sessions_equal_read(self):
        sources = [os.path.join(TRACES, "small.json"), os.path.join(TRACES, "modules.json")]
        if os.path.exists(SHARED):
            sources.append(SHARED)
        else:
            print("note: %s absent: the shared real trace is skipped" % SHARED)
        for src in sources:
            with self.subTest(trace=os.path.basename(src)):
                sess = Exported(src)
                rep = tlcost.from_profiler(sess)
                same(self, rep, tlcost.read(src))
                self.assertEqual(rep.info["format"], "kineto-trace")
                self.assertEqual(len(sess.paths), 1)
                self.assertFalse(os.path.exists(sess.paths[0]))   # the temporary is gone
                self.assertEqual(self.left(), [])

    def test_shared_kineto_traces_equal_the_commands(self):
        """Real Kineto traces through a stand-in session (this torch has no
        Kineto, so a real session cannot export one here): the totals equal
        `tlcost --format json flops FILE` and the join's figures `tlcost
        --format json join FILE`, each run as a separate command on the
        shared file; the kernel time per phase also equals
        tests/cli/join_gate_check.py's, which reads the raw trace JSON itself
        (no tlcost code) and derives the attribution from docs/join.md."""
        shared = os.path.join(tlctest.SRC, "..", "shared", "traces")
        # the traces tests/cli/join_gate_real.sh checks the script against
        names = ["v100-dlrm-training.json.gz",
                 os.path.join("real", "tl_mi300_torch_compile_triton.json.gz"),
                 os.path.join("real", "hta_sampled_rank0_of128.json.gz")]
        srcs = [os.path.join(shared, n) for n in names if os.path.exists(os.path.join(shared, n))]
        if not srcs:
            self.skipTest("shared traces absent (%s)" % shared)
        gate_check = os.path.join(tlctest.SRC, "tests", "cli", "join_gate_check.py")
        for src in srcs:
            with self.subTest(trace=os.path.basename(src)):
                sess = Exported(src)
                rep = tlcost.from_profiler(sess)
                self.assertEqual(rep.info["format"], "kineto-trace")
                flops = json.loads(tlctest.cli("--format", "json", "flops", src))
                self.assertEqual(sorted(rep.phases), sorted(flops["phases"]))
                for ph, want in flops["phases"].items():
                    got = {"flops": rep.flops(ph), "macs": rep.macs(ph),
                           "other_flops": rep.other_flops(ph),
                           "flops_fma1": rep.flops_fma1(ph),
                           "bytes_read": rep.bytes_read(ph),
                           "bytes_written": rep.bytes_written(ph),
                           "bytes_complete": rep.bytes_complete(ph)}
                    self.assertEqual(got, {k: want[k] for k in got}, ph)
                self.assertEqual(rep.lower_bound, flops["lower_bound"])
                self.assertEqual(rep.coverage, {k: v for k, v in flops["coverage"].items()
                                                if k in rep.coverage})
                join = json.loads(tlctest.cli("--format", "json", "join", src))
                got = rep.join().to_dict()
                for k in ("state", "path", "kernels", "kernel_ns", "kernel_attributed_ns",
                          "kernel_unattributed_ns", "kernel_ambiguous_ns", "launches_attributed",
                          "gate"):
                    self.assertEqual(got[k], join[k], k)
                r = subprocess.run([sys.executable, gate_check, src], capture_output=True,
                                   text=True, check=True)
                raw = json.loads(r.stdout)
                self.assertEqual(got["kernel_ns"], raw["kernel_ns"])
                self.assertEqual(got["kernel_unattributed_ns"], raw["unattributed_ns"])
                for g in got["gate"]["phases"]:
                    want = raw["phases"][g["phase"]]
                    self.assertEqual((g["attributed_ns"], g["on_wrapper_ns"], g["annotated_ns"]),
                                     (want["attributed_ns"], want["on_wrapper_ns"],
                                      want["annotated_ns"]), g["phase"])
                self.assertEqual(self.left(), [])

    def test_cpu_only_join_says_so(self):
        rep = tlcost.from_profiler(Exported(os.path.join(TRACES, "modules.json")))
        doc = rep.join().to_dict()
        ref = tlcost.read(os.path.join(TRACES, "modules.json")).join().to_dict()
        self.assertEqual(doc, ref)
        self.assertEqual(rep.coverage["device_records"], 0)
        # a CPU-only session: the join says device time is unavailable, and why
        self.assertEqual((doc["state"], doc["path"]), ("unavailable", "none"))
        self.assertIn("no device records", doc["path_reason"])
        # the fixture by hand: mm [4,8]x[8,16] 512 MACs + mm [4,16]x[16,2] 128 = 640;
        # relu on [4,16] and mul of two [4,16]: 64 other FLOPs each = 128
        self.assertEqual((rep.macs(), rep.other_flops()), (640, 128))

    def test_real_session_equals_its_export(self):
        m = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 4))
        with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
            m(torch.randn(2, 8)).sum().backward()
            with self.assertRaises(tlcost.StateError) as e:
                tlcost.from_profiler(prof)                  # inside the block: not finished
            self.assertEqual(e.exception.code, "profiler_not_finished")
        path = os.path.join(tlctest.tmpdir(), "session.json")
        prof.export_chrome_trace(path)
        try:
            ref = tlcost.read(path)
        except tlcost.Error as err:
            ref = err
        try:
            rep = tlcost.from_profiler(prof)
        except tlcost.Error as err:
            rep = err
        if isinstance(ref, tlcost.Error):
            # no Kineto in this torch: the legacy export, refused the same way
            print("note: torch.autograd.kineto_available() is %s: the session exports the "
                  "legacy format, refused by both (%s)" % (torch.autograd.kineto_available(),
                                                          ref.code))
            self.assertIsInstance(rep, type(ref))
            self.assertEqual((rep.code, rep.message, rep.remedy, rep.line, rep.column),
                             (ref.code, ref.message, ref.remedy, ref.line, ref.column))
            self.assertEqual(rep.file, tlcost.profiler.SESSION)
        else:
            same(self, rep, ref)
        self.assertEqual(self.left(), [])

    def test_refusals(self):
        with self.assertRaises(tlcost.InvalidArgumentError) as e:
            tlcost.from_profiler("trace.json")
        self.assertEqual(e.exception.code, "profiler_session_invalid")
        with self.assertRaises(tlcost.StateError) as e:
            tlcost.from_profiler(profile())                # never started
        self.assertEqual(e.exception.code, "profiler_not_finished")
        with self.assertRaises(tlcost.InputError) as e:
            tlcost.from_profiler(Exported(os.path.join(TRACES, "wrong_type.json")))
        self.assertEqual(e.exception.file, tlcost.profiler.SESSION)
        self.assertEqual(self.left(), [])


if __name__ == "__main__":
    tlctest.main()
