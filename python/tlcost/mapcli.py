"""``python3 -m tlcost map``: the per-file map on Dask (tlcost.distributed)."""
from __future__ import annotations

import argparse
import json
import sys

import _tlcost

from . import distributed as dist
from .errors import Error, exit_status, print_error

USAGE = """python3 -m tlcost map FILE|DIR... --scheduler ADDRESS|local:N -o MERGED.json
                        [--plugin SO]... [--rules FILE]... [--retries N]
                        [--timeout SECONDS] [--provenance FILE]"""


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python3 -m tlcost map", usage=USAGE,
        description="Evaluate every trace or op log on a Dask cluster (one task per "
                    "file) and merge the exact partials as `tlcost merge` does.")
    p.add_argument("inputs", nargs="+", metavar="FILE|DIR")
    p.add_argument("--scheduler", required=True,
                   help="a Dask scheduler address (tcp://host:8786) or local:N for a "
                        "LocalCluster of N worker processes on this machine")
    p.add_argument("-o", "--output", required=True, help="the merged document")
    p.add_argument("--plugin", action="append", default=[],
                   help="a rule plugin every worker loads (a path all workers can read)")
    p.add_argument("--rules", action="append", default=[],
                   help="a rule file every worker loads (a path all workers can read)")
    p.add_argument("--retries", type=int, default=2,
                   help="Dask retries of a file whose task raised (default 2)")
    p.add_argument("--timeout", type=float, default=None,
                   help="seconds after which files not yet evaluated are listed as failed")
    p.add_argument("--provenance", default=None,
                   help="where per-file host, seconds and bytes go (default: "
                        "MERGED.provenance.json)")
    return p


def _open_outputs(a):
    """Both output files, opened (as temporaries beside them) before the
    map runs, so a path that cannot take them (a device node, a FIFO, a
    directory that is not writable) is refused before any work."""
    doc = _tlcost.OutFile(a.output)
    try:
        prov = _tlcost.OutFile(a.provenance or a.output + ".provenance.json")
    except BaseException:
        doc.abort()
        raise
    return doc, prov


def _commit(outs, res) -> None:
    """Writes and commits both files (the document first); on any failure
    the unwritten ones are removed and the old files stay as they were."""
    texts = (res.to_json(), json.dumps(res.provenance, indent=2) + "\n")
    try:
        for f, text in zip(outs, texts):
            f.write(text.encode("utf-8"))
        for f in outs:
            f.commit()
    finally:
        for f in outs:
            f.abort()   # a no-op once committed


def _run(a) -> int:
    if a.retries < 0:
        raise dist.MapError("usage_error", "--retries must be >= 0", "pass --retries 0 or more")
    outs = _open_outputs(a)
    try:
        client, cluster = dist.connect(a.scheduler)
        try:
            res = dist.map(a.inputs, client, plugins=a.plugin, rules=a.rules,
                           retries=a.retries, timeout=a.timeout,
                           progress=dist.terminal_progress())
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
        _commit(outs, res)
    finally:
        for f in outs:
            f.abort()
    for f in res.failed:
        err = f.error or {}
        print(f"tlcost map: {f.path}: {err.get('code')}: {err.get('message')}", file=sys.stderr)
    if res.failed:
        print(f"tlcost map: LOWER BOUND: {len(res.failed)} of {len(res.files)} files failed; "
              "the merged totals cover the files that succeeded", file=sys.stderr)
        return 1
    return 0


def main(argv=None) -> int:
    """Exit status as the C command's: 0, 1 (an input, a merge refusal or
    a failed file), 2 (usage), 3 (an output could not be written whole)."""
    a = parser().parse_args(argv)
    try:
        return _run(a)
    except Error as e:
        print_error(e)
        return exit_status(e, usage_classes=())


if __name__ == "__main__":
    sys.exit(main())
