"""`make install` puts the package into the prefix's site directory: stage
an install with DESTDIR under $TMPDIR and import tlcost from there alone
(the build tree off the path), then read a bundled log with it."""

import os
import re
import subprocess
import sys

import tlctest


def find(root, name):
    for d, _dirs, files in os.walk(root):
        if name in files:
            return os.path.join(d, name)
    return None


class Install(tlctest.unittest.TestCase):
    def test_staged_install_imports(self):
        stage = tlctest.tmpdir()
        env = {k: v for k, v in os.environ.items()
               if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "PYTHONPATH",
                            "LD_LIBRARY_PATH")}
        r = subprocess.run(["make", "-s", "-C", tlctest.BUILD, "DESTDIR=" + stage,
                            "install-libLTLIBRARIES", "install-pyexecLTLIBRARIES",
                            "install-tlcostpyPYTHON"],
                           env=env, capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        init = find(stage, "__init__.py")
        ext = find(stage, "_tlcost.so")
        lib = find(stage, "libtlcost.so")
        self.assertTrue(init and ext and lib, (init, ext, lib))
        self.assertTrue(init.endswith(os.path.join("site-packages", "tlcost", "__init__.py")),
                        init)
        # installed, the binding finds libtlcost in $(libdir) by its RUNPATH
        # (the staged copy below needs LD_LIBRARY_PATH only because of DESTDIR)
        libdir = os.path.dirname(lib)[len(stage):]
        # (libtool leaves it out for a directory the loader searches anyway)
        with open(os.path.join(tlctest.BUILD, "libtool")) as f:
            spec = [l for l in f if l.startswith("sys_lib_dlsearch_path_spec=")]
        searched = spec[0].split("=", 1)[1].strip().strip('"').split() if spec else []
        dyn = subprocess.run(["readelf", "-d", ext], capture_output=True, text=True).stdout
        self.assertTrue(libdir in searched or
                        any(libdir in line for line in dyn.splitlines()
                            if "RUNPATH" in line or "RPATH" in line), (libdir, dyn))
        site = os.path.dirname(os.path.dirname(init))
        env["PYTHONPATH"] = os.pathsep.join([site, os.path.dirname(ext)])
        # the staged library stands where $(libdir) will be
        env["LD_LIBRARY_PATH"] = os.path.dirname(lib)
        code = ("import tlcost, sys; r = tlcost.read(sys.argv[1]); "
                "assert tlcost.__file__.startswith(sys.argv[2]), tlcost.__file__; "
                "print(r.macs('forward'))")
        r = subprocess.run([sys.executable, "-c", code,
                            tlctest.fixture("resnet50.fwd_grad.oplog.jsonl.gz"), stage],
                           env=env, capture_output=True, text=True, cwd=stage)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.strip(), "4089184256")

    def test_readme_build_tree_import(self):
        """README.md's line for importing the package from the build tree,
        run as printed from the repository root (issue 28 item 5: the README
        did not say how to make the package importable after `make`); the
        interpreter it names is the one configure built for (the README's
        next paragraph: `_tlcost.build_python` names it)."""
        with open(os.path.join(tlctest.SRC, "README.md"), encoding="utf-8") as f:
            text = " ".join(f.read().split())
        m = re.search(r"`(PYTHONPATH=python:\.libs (\S+) -c 'import tlcost')`", text)
        self.assertTrue(m, "README.md has no `PYTHONPATH=python:.libs PYTHON -c 'import "
                           "tlcost'` line for the build tree")
        if os.path.realpath(tlctest.SRC) != os.path.realpath(tlctest.BUILD):
            self.skipTest("build tree outside the source tree: the README's line is for "
                          "a build in the repository root")
        env = {k: v for k, v in os.environ.items()
               if k not in ("PYTHONPATH", "LD_LIBRARY_PATH")}
        code = "import tlcost, _tlcost, sys; print(_tlcost.build_python, tlcost.__file__)"
        r = subprocess.run([m.group(2), "-c", code], env=dict(env, PYTHONPATH="python:.libs"),
                           capture_output=True, text=True, cwd=tlctest.SRC)
        self.assertEqual(r.returncode, 0, r.stderr)
        built_for, init = r.stdout.split()
        self.assertEqual(os.path.realpath(built_for), os.path.realpath(m.group(2)))
        self.assertEqual(os.path.realpath(init),
                         os.path.realpath(os.path.join(tlctest.SRC, "python", "tlcost",
                                                       "__init__.py")))
        r = subprocess.run(["sh", "-c", m.group(1)], env=env, capture_output=True, text=True,
                           cwd=tlctest.SRC)
        self.assertEqual(r.returncode, 0, r.stderr)


if __name__ == "__main__":
    tlctest.main()
