#!/bin/sh
# Recipe 2: a scheduler on one node, workers on others (docs/distributed.md).
#
#   on node A:   sh examples/distributed/two_node.sh scheduler
#   on node B:   sh examples/distributed/two_node.sh worker tcp://nodeA:8786
#   on any node: sh examples/distributed/two_node.sh map tcp://nodeA:8786 /shared/traces merged.json
#
# Every node needs the same tlcost build installed (the map refuses a worker
# whose version differs) and the traces on storage all nodes can read.
# DRY_RUN=1 prints the commands instead of running them.
set -eu
run() { if [ "${DRY_RUN:-0}" = 1 ]; then echo "+ $*"; else "$@"; fi; }
case "${1:-}" in
scheduler) run dask scheduler --port 8786 ;;
worker)    run dask worker "${2:?scheduler address}" --nworkers "${NWORKERS:-auto}" --nthreads 1 ;;
map)       run python3 -m tlcost map "${3:?trace directory}" \
               --scheduler "${2:?scheduler address}" -o "${4:?merged.json}" ;;
*)         echo "usage: $0 scheduler | worker ADDRESS | map ADDRESS DIR OUT" >&2; exit 2 ;;
esac
