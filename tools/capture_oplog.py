#!/usr/bin/env python3
"""Retired: use `python3 -m tlcost capture` (docs/capture.md, docs/python.md).

This path keeps working as a thin wrapper: the command line is passed to
`python3 -m tlcost capture` unchanged, and the old module functions
(capture, header, write_log) remain for scripts that import them, e.g.
examples/custom_gelu_model.py. Run from a build tree, it finds the
package in python/ and the binding in .libs/ of the build directory given
by TLCOST_BUILDDIR (default: the source tree itself).
"""

import ctypes
import gzip
import io
import json
import os
import sys
import tempfile

_HERE = os.path.dirname(os.path.abspath(__file__))


def _import_tlcost():
    try:
        import tlcost  # installed, or already on PYTHONPATH
        return tlcost
    except ImportError:
        pass
    src = os.path.dirname(_HERE)
    libs = os.path.join(os.environ.get("TLCOST_BUILDDIR", src), ".libs")
    # the uninstalled binding finds its libraries by soname (libtlcost.so.N,
    # libtlcost-nvtx.so.N): preload the build tree's ones
    import glob
    for stem in ("libtlcost-nvtx.so.", "libtlcost.so."):
        found = sorted(glob.glob(os.path.join(libs, stem + "[0-9]")) +
                       glob.glob(os.path.join(libs, stem + "[0-9][0-9]")))
        if found:
            ctypes.CDLL(found[-1], mode=ctypes.RTLD_GLOBAL)
    sys.path[:0] = [libs, os.path.join(src, "python")]
    import tlcost
    return tlcost


tlcost = _import_tlcost()
MODES = ("fwd_grad", "fwd_nograd_eval", "train")


def capture(model, inputs, mode="fwd_grad", target=None, optimizer="sgd",
            timing=True):
    """Compatibility: one step as a list of op log v1 record dicts (the
    records tlcost.capture writes). New code: tlcost.capture(...) returns
    a Report and keeps no per-op Python objects."""
    rep = tlcost.capture(model, inputs, mode, target=target, optimizer=optimizer,
                         timing=timing)
    fd, path = tempfile.mkstemp(suffix=".oplog.jsonl")
    os.close(fd)
    try:
        rep.save(path)
        with open(path) as f:
            return [json.loads(line) for line in f][1:]
    finally:
        os.unlink(path)


def header(model_name, model, tokens, meta=None):
    """Compatibility: the op log v1 header of a capture."""
    from tlcost.live import header as _header
    return _header(model_name, model, tokens, meta)


def write_log(path, head, records):
    """Compatibility: header + records; gzip (mtime 0, level 9) for .gz."""
    dumps = lambda x: json.dumps(x, separators=(",", ":"), allow_nan=False)  # noqa: E731
    text = "".join(dumps(x) + "\n" for x in [head] + list(records)).encode("utf-8")
    if path == "-":
        sys.stdout.buffer.write(text)
        return
    if path.endswith(".gz"):
        buf = io.BytesIO()
        with gzip.GzipFile(filename="", mode="wb", compresslevel=9, fileobj=buf,
                           mtime=0) as gz:
            gz.write(text)
        text = buf.getvalue()
    from tlcost.outfile import atomic  # whole or nothing, as every tlcost output
    with atomic(path) as f:
        f.write(text)


def main(argv=None):
    from tlcost.cli import main as tlcost_main
    return tlcost_main(["capture"] + list(sys.argv[1:] if argv is None else argv))


if __name__ == "__main__":
    sys.exit(main())
