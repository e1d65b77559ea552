"""Shared helpers of the Python package tests (tests/python/)."""

import os
import subprocess
import sys
import tempfile
import unittest

SRC = os.environ.get("top_srcdir", ".")
BUILD = os.environ.get("top_builddir", ".")
TLCOST = os.path.join(BUILD, "tlcost")
FIXTURES = os.path.join(SRC, "tests", "fixtures", "models")
PLUGIN = os.path.join(BUILD, "plugins", "examples", ".libs", "fused_gelu.so")
RULES = os.path.join(SRC, "examples", "fused_gelu.tlrules")


def fixture(name):
    return os.path.join(FIXTURES, name)


def cli(*args, check=True):
    """Runs the tlcost command; returns its stdout."""
    r = subprocess.run([TLCOST] + [str(a) for a in args], capture_output=True,
                       text=True)
    if check and r.returncode != 0:
        raise AssertionError("tlcost %s failed (%d): %s"
                             % (" ".join(map(str, args)), r.returncode, r.stderr))
    return r.stdout


def have_torch():
    try:
        import torch  # noqa: F401
        import torchvision  # noqa: F401
        return True
    except ImportError:
        return False


def need_torch():
    if not have_torch():
        print("SKIP: torch/torchvision not importable by %s (install "
              "python3-torch python3-torchvision)" % sys.executable)
        sys.exit(77)


def tmpdir():
    return tempfile.mkdtemp(prefix="tlcost-py.")


def main():
    """unittest main with automake's exit codes (0 pass, 1 fail)."""
    prog = unittest.main(exit=False, verbosity=2)
    r = prog.result
    sys.exit(0 if r.wasSuccessful() else 1)
