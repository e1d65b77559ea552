"""The per-file map on Dask (issue 15), on a real LocalCluster of worker
processes on loopback.

Expectations are not taken from the map itself: the merged document must
equal (a) a merge of per-file partials computed in this process through the
binding, and (b) field by field, `tlcost merge` (the C command) over the
partials `tlcost flops --format json` wrote for each file. A worker is
killed mid-run and the result must not change; a corrupt file must be
listed with its typed error and turn the totals into a lower bound.
"""
import glob
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import unittest

import tlcost
import tlcost.distributed as dist

SRC = os.environ.get("top_srcdir", os.path.join(os.path.dirname(__file__), "..", ".."))
BUILD = os.environ.get("top_builddir", SRC)
SHARED = os.environ.get("TLCOST_SHARED_DIR", os.path.join(SRC, "..", "shared"))
CLI = os.path.join(BUILD, "tlcost")


def inputs(tmp):
    """50+ inputs: the bundled op logs and the shared single-process traces,
    each copied several times under distinct names, plus every shared trace
    once (rank traces must not appear twice: the merge refuses a rank seen
    twice)."""
    logs = sorted(glob.glob(os.path.join(SRC, "tests/fixtures/models/*.oplog.jsonl.gz")))
    logs.append(os.path.join(SRC, "examples/resnet50.oplog.jsonl.gz"))
    traces = sorted(glob.glob(os.path.join(SHARED, "traces", "*.json.gz")) +
                    glob.glob(os.path.join(SHARED, "traces", "real", "*.json.gz")))
    ranked, single = [], []
    for p in traces:   # the merge refuses two partials of the same rank
        (ranked if json.loads(tlcost.read(p).to_json()).get("distributed") else single).append(p)
    traces = single + ranked[:1]
    out = []
    for i in range(4):
        for p in logs:
            dst = os.path.join(tmp, f"copy{i}-{os.path.basename(p)}")
            shutil.copyfile(p, dst)
            out.append(dst)
    for p in traces:
        dst = os.path.join(tmp, os.path.basename(p))
        shutil.copyfile(p, dst)
        out.append(dst)
    return sorted(out)


def cli_merge(paths, tmp):
    parts = []
    for p in paths:
        part = os.path.join(tmp, "partials", os.path.basename(p) + ".json")
        os.makedirs(os.path.dirname(part), exist_ok=True)
        with open(part, "w") as f:
            subprocess.run([CLI, "flops", "--format", "json", p], stdout=f, check=True)
        parts.append(part)
    r = subprocess.run([CLI, "--format", "json", "merge"] + parts, stdout=subprocess.PIPE,
                       check=True)
    return json.loads(r.stdout)


def without_names(doc):
    """The merge keeps each partial's identity by name: the map names a
    partial by its input path, `tlcost merge` by the partial file's path.
    Everything else must be equal."""
    d = dict(doc)
    d["partials"] = sorted((json.dumps({k: v for k, v in p.items() if k != "name"},
                                       sort_keys=True) for p in d.get("partials", [])))
    return d


class MapOnLocalCluster(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        from distributed import Client, LocalCluster
        cls.tmp = tempfile.mkdtemp(prefix="tlcost-map-")
        cls.paths = inputs(cls.tmp)
        cls.cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                   host="127.0.0.1", dashboard_address=None,
                                   silence_logs=40)
        cls.client = Client(cls.cluster)
        partials = [tlcost.read(p).to_json() for p in cls.paths]
        cls.expected = json.loads(tlcost.merge_partials(partials, names=cls.paths))

    @classmethod
    def tearDownClass(cls):
        cls.client.close()
        cls.cluster.close()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_at_least_50_inputs_on_2_workers(self):
        self.assertGreaterEqual(len(self.paths), 50)
        self.assertGreaterEqual(len(self.client.scheduler_info()["workers"]), 2)

    def test_merged_equals_in_process_merge_and_cli_merge(self):
        res = dist.map(self.paths, self.client)
        self.assertEqual(res.document["failed"], 0)
        self.assertEqual(res.document["merged"], self.expected)
        self.assertEqual(without_names(res.document["merged"]),
                         without_names(cli_merge(self.paths, self.tmp)))
        self.assertEqual(res.complete, not self.expected["lower_bound"])
        self.assertEqual([f["path"] for f in res.document["files"]], self.paths)

    def test_byte_identical_across_runs_and_worker_loss(self):
        first = dist.map(self.paths, self.client).to_json()
        pids = list(self.client.run(os.getpid).values())
        killed = []

        def progress(done, total, nbytes, errors):
            if done == 3 and not killed:   # mid-run: most files still pending
                os.kill(pids[0], signal.SIGKILL)
                killed.append(pids[0])
        second = dist.map(self.paths, self.client, progress=progress)
        self.assertEqual(killed, pids[:1], "the worker was not killed mid-run")
        self.assertEqual(second.document["failed"], 0, second.failed)
        self.assertEqual(second.to_json(), first)

    def test_corrupt_input_is_listed_and_makes_a_lower_bound(self):
        bad = os.path.join(self.tmp, "zz-corrupt.json")
        with open(bad, "w") as f:
            f.write('{"traceEvents": [ {"ph": "X", "name": ')
        try:
            res = dist.map(self.paths + [bad], self.client)
        finally:
            os.unlink(bad)
        self.assertEqual(res.document["failed"], 1)
        self.assertFalse(res.complete)
        self.assertIn("1 of", res.document["lower_bound_reason"])
        row = [f for f in res.document["files"] if f["path"] == bad][0]
        self.assertEqual(row["status"], "failed")
        self.assertTrue(row["error"]["code"])
        self.assertTrue(row["error"]["remedy"])
        self.assertEqual(res.document["merged"], self.expected)

    def test_cli_map_writes_the_same_document(self):
        out = os.path.join(self.tmp, "merged.json")
        addr = self.cluster.scheduler_address
        env = dict(os.environ)
        r = subprocess.run([sys.executable, "-m", "tlcost", "map", *self.paths,
                            "--scheduler", addr, "-o", out], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.assertEqual(r.returncode, 0, r.stderr.decode())
        self.assertEqual(r.stderr, b"", "not a terminal: no progress line")
        with open(out) as f:
            self.assertEqual(f.read(), dist.map(self.paths, self.client).to_json())
        with open(out + ".provenance.json") as f:
            prov = json.load(f)
        self.assertEqual(len(prov["files"]), len(self.paths))
        self.assertTrue(all(f["host"] and f["seconds"] is not None for f in prov["files"]))


class WithoutCluster(unittest.TestCase):
    def test_version_mismatch_is_refused(self):
        p = os.path.join(SRC, "examples/resnet50.oplog.jsonl.gz")
        with self.assertRaises(dist.MapError) as cm:
            dist.evaluate_file(p, [], [], {"package": "0.0.0", "library": "0.0.0"})
        self.assertEqual(cm.exception.code, "map_version_mismatch")

    def test_no_inputs_is_refused(self):
        with tempfile.TemporaryDirectory() as d:
            with self.assertRaises(dist.MapError) as cm:
                dist.expand_inputs([d])
        self.assertEqual(cm.exception.code, "map_no_inputs")

    def test_recipes_parse_and_dry_run(self):
        ex = os.path.join(SRC, "examples", "distributed")
        subprocess.run([sys.executable, "-m", "py_compile", os.path.join(ex, "local_cluster.py")],
                       check=True)
        for sh in ("two_node.sh", "slurm_dask.sbatch", "slurm_array.sbatch"):
            subprocess.run(["bash", "-n", os.path.join(ex, sh)], check=True)
        env = dict(os.environ, DRY_RUN="1")
        r = subprocess.run(["sh", os.path.join(ex, "two_node.sh"), "map", "tcp://a:8786",
                            "/traces", "out.json"], env=env, stdout=subprocess.PIPE, check=True)
        self.assertIn(b"python3 -m tlcost map /traces --scheduler tcp://a:8786 -o out.json",
                      r.stdout)
        r = subprocess.run(["bash", os.path.join(ex, "slurm_dask.sbatch"), "/traces", "m.json"],
                           env=env, stdout=subprocess.PIPE, check=True)
        self.assertIn(b"tlcost map /traces --scheduler tcp://scheduler:8786 -o m.json", r.stdout)
        with tempfile.TemporaryDirectory() as d:
            lst = os.path.join(d, "files.txt")
            with open(lst, "w") as f:
                f.write("/traces/r0.json.gz\n")
            r = subprocess.run(["bash", os.path.join(ex, "slurm_array.sbatch"), lst, d + "/p"],
                               env=env, stdout=subprocess.PIPE, check=True)
            self.assertIn(b"tlcost flops --format json /traces/r0.json.gz", r.stdout)
        r = subprocess.run([sys.executable, os.path.join(ex, "local_cluster.py"), "--dry-run",
                            os.path.join(SRC, "examples"), "m.json"],
                           stdout=subprocess.PIPE, check=True)
        self.assertIn(b"would map", r.stdout)


if __name__ == "__main__":
    import tlctest
    tlctest.main()
