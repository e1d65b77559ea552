"""Every file the Python package writes follows the C command's rules
(issue 23 items 3, 4, 14, 18 and new-user point a): regular files only (a
device node or FIFO is refused with output_open_failed and left as it
was), whole or nothing (a failed save keeps the old file and raises
tlcost.FileError output_write_failed), the mode 0666 less the umask, and
typed errors on the command line (`tlcost: error: CODE: ...`, a remedy,
exit 3 for an output, exit 1 for a merge refusal) instead of tracebacks.

The expectations come from engine/output/outfile.c's rules and the exit
policy of docs/errors.md, not from the package's output: the old file's
bytes are those written before the failing save, the mode is computed from
the umask the child sets, and the duplicate rank is the one the fixture
trace names (tests/fixtures/trace/ddp_small.json: "rank": 3)."""

import os
import resource
import shutil
import signal
import stat
import subprocess
import sys
import unittest

import tlctest

SMALL_LIMIT = 2048     # RLIMIT_FSIZE of the failing saves (bytes)

SAVE_CHILD = r"""
import resource, signal, sys, torch, tlcost
torch.manual_seed(0)
m = torch.nn.Sequential(*[torch.nn.Linear(16, 16) for _ in range(8)])
rep = tlcost.capture(m, (torch.randn(2, 16),), mode="fwd_nograd_eval", timing=False)
path, limit = sys.argv[1], int(sys.argv[2])
if limit:
    # a first save flushes the recorded log (an anonymous temporary) whole,
    # so the limit below bites the output only
    rep.save(path + ".first")
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
try:
    rep.save(path)
except tlcost.Error as e:
    print("ERROR", type(e).__name__, isinstance(e, tlcost.FileError), e.code, e.file)
    sys.exit(5)
print("SAVED")
"""

FACTORY = '''
import torch

def plain():
    torch.manual_seed(0)
    return torch.nn.Sequential(*[torch.nn.Linear(16, 16) for _ in range(8)]), (torch.randn(2, 16),)
'''


def limit_fsize(limit):
    def pre():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return pre


def with_umask(mask):
    def pre():
        os.umask(mask)
    return pre


def py(*args, timeout=300, **kw):
    """Runs the interpreter; a child that does not finish (writing into a
    FIFO nobody reads blocks forever) is a failure, not a hang."""
    try:
        return subprocess.run([sys.executable] + [str(a) for a in args], capture_output=True,
                              text=True, timeout=timeout, **kw)
    except subprocess.TimeoutExpired as e:
        raise AssertionError("%s did not finish in %d s (blocked on a FIFO?)"
                             % (" ".join(map(str, args[:3])), timeout)) from e


def make_device(path):
    """A character device node like /dev/full (1, 7), made only where this
    user may (root); None otherwise. Never /dev/full itself: the unfixed
    code replaced what it was given."""
    try:
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 7))
        return path
    except (PermissionError, OSError):
        return None


class Outputs(unittest.TestCase):
    def setUp(self):
        self.tmp = tlctest.tmpdir()
        self.addCleanup(shutil.rmtree, self.tmp, True)

    def p(self, name):
        return os.path.join(self.tmp, name)

    def assert_typed(self, r, status, code):
        self.assertEqual(r.returncode, status, r.stdout + r.stderr)
        self.assertNotIn("Traceback", r.stderr)
        self.assertIn("tlcost: error: %s: " % code, r.stderr)
        self.assertRegex(r.stderr, r"\n  remedy: \S")

    def special_files(self):
        fifo = self.p("fifo")
        os.mkfifo(fifo)
        out = [(fifo, stat.S_ISFIFO)]
        dev = make_device(self.p("fakefull"))
        if dev:
            out.append((dev, stat.S_ISCHR))
        else:
            print("note: not root: the device-node case is skipped, the FIFO case runs")
        return out


class Save(Outputs):
    def setUp(self):
        tlctest.need_torch()
        super().setUp()

    def test_failed_save_keeps_the_old_file_and_raises_file_error(self):
        path = self.p("a.oplog.jsonl")
        r = py("-c", SAVE_CHILD, path, 0)
        self.assertEqual(r.stdout.strip(), "SAVED", r.stderr)
        with open(path, "rb") as f:
            good = f.read()
        self.assertGreater(len(good), SMALL_LIMIT, "the log must outgrow the limit")
        for name in ("a.oplog.jsonl", "a.oplog.jsonl.gz"):
            target = self.p(name)
            if name.endswith(".gz"):
                shutil.copyfile(path, target)
            # plain: the limit bites before the end of the log; gzip: the
            # compressed log is smaller, so the limit is below its header
            r = py("-c", SAVE_CHILD, target, SMALL_LIMIT if not name.endswith(".gz") else 8)
            self.assertEqual(r.returncode, 5, r.stdout + r.stderr)
            self.assertEqual(r.stdout.split(), ["ERROR", "FileError", "True",
                                                "output_write_failed", target])
            with open(target, "rb") as f:
                self.assertEqual(f.read(), good, "the old file was damaged")
        self.assertEqual(sorted(os.listdir(self.tmp)),
                         ["a.oplog.jsonl", "a.oplog.jsonl.first", "a.oplog.jsonl.gz",
                          "a.oplog.jsonl.gz.first"], "a temporary was left behind")

    def test_save_refuses_a_fifo_or_device(self):
        for path, is_kind in self.special_files():
            r = py("-c", SAVE_CHILD, path, 0, timeout=60)
            self.assertEqual(r.returncode, 5, r.stdout + r.stderr)
            self.assertEqual(r.stdout.split(), ["ERROR", "FileError", "True",
                                                "output_open_failed", path])
            self.assertTrue(is_kind(os.lstat(path).st_mode), "%s was replaced" % path)

    def test_save_follows_the_umask(self):
        for mask in (0o027, 0o002):
            path = self.p("m%o.jsonl" % mask)
            r = py("-c", SAVE_CHILD, path, 0, preexec_fn=with_umask(mask))
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(stat.S_IMODE(os.stat(path).st_mode), 0o666 & ~mask)


class CaptureCommand(Outputs):
    def setUp(self):
        tlctest.need_torch()
        super().setUp()
        self.factory = self.p("mymodels.py")
        with open(self.factory, "w") as f:
            f.write(FACTORY)

    def capture(self, out, **kw):
        return py("-m", "tlcost", "capture", "--model", self.factory + ":plain",
                  "--no-timing", "--out", out, timeout=60, **kw)

    def test_write_failure_is_typed_exit_3_and_keeps_the_old_file(self):
        out = self.p("c.oplog.jsonl")
        r = self.capture(out)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out, "rb") as f:
            good = f.read()
        # the limit is one byte short of the log: the recording (the log's
        # records, without its header line) fits, the output does not
        r = self.capture(out, preexec_fn=limit_fsize(len(good) - 1))
        self.assert_typed(r, 3, "output_write_failed")
        with open(out, "rb") as f:
            self.assertEqual(f.read(), good)

    def test_out_dash_is_standard_output(self):
        # docs/capture.md: `--out -` writes to stdout: the same bytes as a file
        out = self.p("file.oplog.jsonl")
        r = self.capture(out)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out) as f:
            want = f.read()
        r = py("-m", "tlcost", "capture", "--model", self.factory + ":plain", "--no-timing",
               "--out", "-", cwd=self.tmp, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout, want)
        self.assertFalse(os.path.exists(self.p("-")), "a file named '-' was written")

    def test_fifo_or_device_is_refused_exit_3(self):
        for path, is_kind in self.special_files():
            r = self.capture(path)
            self.assert_typed(r, 3, "output_open_failed")
            self.assertTrue(is_kind(os.lstat(path).st_mode), "%s was replaced" % path)


class MapCommand(Outputs):
    """python3 -m tlcost map on local:1 (a LocalCluster of one process)."""

    def setUp(self):
        try:
            import distributed  # noqa: F401
        except ImportError:
            self.skipTest("Dask distributed is not importable by %s" % sys.executable)
        super().setUp()
        self.inputs = self.p("in")
        os.mkdir(self.inputs)
        shutil.copyfile(os.path.join(tlctest.SRC, "examples", "custom_gelu.oplog.jsonl"),
                        os.path.join(self.inputs, "a.jsonl"))

    def map(self, *args, **kw):
        return py("-m", "tlcost", "map", self.inputs, "--scheduler", "local:1", *args, **kw)

    def test_fifo_or_device_output_is_refused_exit_3(self):
        good = self.p("merged.json")
        for path, is_kind in self.special_files():
            for args in (["-o", path], ["-o", good, "--provenance", path]):
                r = self.map(*args)
                self.assert_typed(r, 3, "output_open_failed")
                self.assertIn(path, r.stderr)
                self.assertTrue(is_kind(os.lstat(path).st_mode), "%s was replaced" % path)
                self.assertFalse(os.path.exists(good), "a refused map wrote its document")

    def test_outputs_follow_the_umask(self):
        out = self.p("merged.json")
        r = self.map("-o", out, preexec_fn=with_umask(0o027))
        self.assertEqual(r.returncode, 0, r.stderr)
        for path in (out, out + ".provenance.json"):
            self.assertEqual(stat.S_IMODE(os.stat(path).st_mode), 0o640, path)

    def test_duplicate_rank_is_a_typed_refusal_and_writes_nothing(self):
        # two copies of one rank-3 trace: the exact merge cannot take rank 3
        # twice, as `tlcost merge` refuses it; the map writes no document
        # (an old one stays as it was) and exits 1
        shutil.rmtree(self.inputs)
        os.mkdir(self.inputs)
        src = os.path.join(tlctest.SRC, "tests", "fixtures", "trace", "ddp_small.json")
        a, b = (os.path.join(self.inputs, n) for n in ("r3a.json", "r3b.json"))
        shutil.copyfile(src, a)
        shutil.copyfile(src, b)
        out = self.p("merged.json")
        with open(out, "w") as f:
            f.write("old\n")
        r = self.map("-o", out)
        self.assert_typed(r, 1, "merge_duplicate_rank")
        self.assertNotIn("Compute Failed", r.stderr, "the refusal was logged as a failed task")
        self.assertIn("rank 3", r.stderr)
        self.assertIn(a, r.stderr)
        self.assertIn(b, r.stderr)
        with open(out) as f:
            self.assertEqual(f.read(), "old\n")
        self.assertFalse(os.path.exists(out + ".provenance.json"))


if __name__ == "__main__":
    tlctest.main()
