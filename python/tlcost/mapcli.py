"""``python3 -m tlcost map``: the per-file map on Dask (tlcost.distributed)."""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile

from . import distributed as dist

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


def write_atomic(path: str, text: str) -> None:
    """Temporary file in the same directory, fsync, rename: a failed or
    killed write leaves the old file whole."""
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".tlcost-map.", dir=d)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def main(argv=None) -> int:
    a = parser().parse_args(argv)
    if a.retries < 0:
        print("tlcost map: usage_error: --retries must be >= 0", file=sys.stderr)
        return 2
    try:
        client, cluster = dist.connect(a.scheduler)
    except dist.MapError as e:
        print(f"tlcost map: {e.code}: {e.message}\n  remedy: {e.remedy}", file=sys.stderr)
        return 2 if e.code == "usage_error" else 1
    try:
        res = dist.map(a.inputs, client, plugins=a.plugin, rules=a.rules,
                       retries=a.retries, timeout=a.timeout,
                       progress=dist.terminal_progress())
    except dist.MapError as e:
        print(f"tlcost map: {e.code}: {e.message}\n  remedy: {e.remedy}", file=sys.stderr)
        return 1
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    try:
        write_atomic(a.output, res.to_json())
        write_atomic(a.provenance or a.output + ".provenance.json",
                     json.dumps(res.provenance, indent=2) + "\n")
    except OSError as e:
        print(f"tlcost map: io_error: cannot write {a.output}: {e.strerror}\n"
              "  remedy: check the output path and free space", file=sys.stderr)
        return 1
    for f in res.failed:
        err = f.error or {}
        print(f"tlcost map: {f.path}: {err.get('code')}: {err.get('message')}", file=sys.stderr)
    if res.failed:
        print(f"tlcost map: LOWER BOUND: {len(res.failed)} of {len(res.files)} files failed; "
              "the merged totals cover the files that succeeded", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
