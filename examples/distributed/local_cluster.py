#!/usr/bin/env python3
"""Recipe 1: a LocalCluster on one machine (docs/distributed.md).

    python3 examples/distributed/local_cluster.py TRACE_DIR merged.json [N]

Starts N single-threaded worker processes on loopback (default 2), maps
every trace or op log under TRACE_DIR, writes the merged document and
prints the verdict. `--dry-run` as the first argument only lists the files.
"""
import sys

import tlcost.distributed as dist
from tlcost.outfile import write_text


def main(argv):
    dry = argv[:1] == ["--dry-run"]
    args = argv[1:] if dry else argv
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    src, out = args[0], args[1]
    workers = int(args[2]) if len(args) > 2 else 2
    files = dist.expand_inputs([src])
    if dry:
        print(f"would map {len(files)} files on local:{workers} into {out}")
        return 0
    from distributed import Client, LocalCluster
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                      host="127.0.0.1", dashboard_address=None) as cluster, \
            Client(cluster) as client:
        res = dist.map(files, client, progress=dist.terminal_progress())
    write_text(out, res.to_json())   # whole or nothing, regular files only
    print(f"{res.document['succeeded']}/{res.document['inputs']} files merged;",
          "COMPLETE" if res.complete else "LOWER BOUND")
    return 0 if not res.failed else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
