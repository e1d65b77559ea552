#!/usr/bin/env python3
"""`make bench-map`: the Dask map's speed-up and scheduling overhead.

Writes one synthetic rank trace (tests/bench/gen_trace, BENCH_MAP_EVENTS
events, about 290 bytes an event) and N copies of it as rank files, maps
them on local:1 and on local:2, and prints, side by side in one run:
- the time to evaluate one file in this process (the binding, no Dask);
- wall time of each map, and the speed-up local:1 -> local:2;
- scheduling overhead per file: (map wall time x workers - sum of the
  evaluation seconds the workers report) / N, as a share of the time to
  evaluate one file (goal: under 5% for a 100 MB trace).
Environment: GEN_TRACE, BENCH_DIR; BENCH_MAP_FILES (default 8),
BENCH_MAP_EVENTS (default 350000, about 100 MB).
"""
import os
import shutil
import subprocess
import sys
import time

import tlcost
import tlcost.distributed as dist


def main():
    n = int(os.environ.get("BENCH_MAP_FILES", "8"))
    events = int(os.environ.get("BENCH_MAP_EVENTS", "350000"))
    work = os.path.join(os.environ.get("BENCH_DIR", "tests/bench"), "map-ranks")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    first = os.path.join(work, "rank0.json")
    with open(first, "w") as f:
        subprocess.run([os.environ["GEN_TRACE"], str(events)], stdout=f, check=True)
    for i in range(1, n):
        os.link(first, os.path.join(work, f"rank{i}.json"))
    size = os.path.getsize(first)
    t0 = time.monotonic()
    tlcost.read(first).to_json()
    one = time.monotonic() - t0
    print(f"bench-map: {n} files of {size / 1e6:.0f} MB; one file in-process: {one:.2f} s")
    from distributed import Client, LocalCluster
    walls = {}
    for workers in (1, 2):
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                          host="127.0.0.1", dashboard_address=None, silence_logs=40) as c, \
                Client(c) as client:
            client.run(lambda: __import__("tlcost"))   # warm imports out of the timing
            t0 = time.monotonic()
            res = dist.map([work], client)
            wall = time.monotonic() - t0
        busy = sum(f.seconds or 0 for f in res.files)
        over = (wall * workers - busy) / n
        walls[workers] = wall
        print(f"bench-map: local:{workers}: {wall:.2f} s wall, {busy:.2f} s evaluating, "
              f"overhead {over:.3f} s/file = {100 * over / one:.1f}% of one file "
              f"(goal < 5%)" + ("" if res.document["failed"] == 0 else "  FAILED FILES"))
    print(f"bench-map: speed-up local:1 -> local:2: {walls[1] / walls[2]:.2f}x "
          f"(2 cores shared with the rest of the machine)")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
