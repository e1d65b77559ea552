"""The per-file map on Dask distributed: evaluate many traces or op logs on
a cluster and merge their exact partials.

tlcost has no scheduler of its own.  Each input file is one Dask task that
evaluates the file in a worker through libtlcost (the same binding
``tlcost.read`` uses) and returns its exact partial (the JSON document of
``tlcost flops --format json``).  The partials are merged by libtlcost's
exact merge (the one behind ``tlcost merge``) in a binary tree of Dask
tasks whose shape depends only on the sorted input paths, so the merged
document is byte-identical whatever the worker count and the completion
order.

Nothing is lost and nothing is invented:

* a typed tlcost error is deterministic (the same bytes give the same
  error), so it is recorded at once, with its code, message, remedy and
  position, and not retried;
* any other failure (an OSError on shared storage, a worker that died,
  a time-out) is retried as Dask retries tasks (``retries``; a worker
  that dies is rescheduled by the scheduler up to its
  ``allowed-failures``) and, if it still fails, recorded with its error;
* when any file failed, the merged totals cover only the files that
  succeeded and the result says so: ``complete`` is false and
  ``lower_bound_reason`` names the count of failed files.

Per-file provenance (worker host, seconds, bytes read) changes from run to
run, so it is kept apart from the merged document (``MapResult.provenance``,
written by ``python3 -m tlcost map --provenance FILE``) and never breaks its
byte-identity.
"""
from __future__ import annotations

import json
import os
import socket
import sys
import time
from dataclasses import dataclass, field
from typing import Callable, Iterable, List, Optional, Sequence

from .errors import Error, module_unavailable

#: file name endings the map picks up when it is given a directory
INPUT_SUFFIXES = (".json", ".json.gz", ".jsonl", ".jsonl.gz")

#: the document the map writes (the merge document plus the file list)
SCHEMA = "tlcost.map"
SCHEMA_VERSION = 1


class MapError(Error):
    """A map that cannot run at all (no inputs, a version mismatch): a
    tlcost.Error like the library's own."""

    def __init__(self, code: str, message: str, remedy: str, file=None, line=0, column=0):
        super().__init__(code, message, remedy, file, line, column)

    def __reduce__(self):
        return (MapError, (self.code, self.message, self.remedy))


@dataclass
class FileOutcome:
    """What became of one input file."""
    path: str
    ok: bool
    bytes: int = 0
    partial: Optional[str] = None        # the exact partial (JSON text)
    error: Optional[dict] = None         # code, message, remedy, position
    host: Optional[str] = None
    seconds: Optional[float] = None
    attempts: int = 1

    def listing(self) -> dict:
        """The deterministic part, listed in the merged document."""
        d = {"path": self.path, "bytes": self.bytes,
             "status": "ok" if self.ok else "failed"}
        if self.error is not None:
            d["error"] = self.error
        return d


@dataclass
class MapResult:
    """The merged document and what became of every file."""
    document: dict
    files: List[FileOutcome] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return bool(self.document.get("complete"))

    @property
    def failed(self) -> List[FileOutcome]:
        return [f for f in self.files if not f.ok]

    def to_json(self) -> str:
        """The merged document as written by ``-o``: stable key order and
        no run-dependent field, so two runs give the same bytes."""
        return json.dumps(self.document, indent=2, sort_keys=False) + "\n"

    @property
    def provenance(self) -> dict:
        return {"schema": SCHEMA + ".provenance", "version": SCHEMA_VERSION,
                "files": [{"path": f.path, "host": f.host, "seconds": f.seconds,
                           "bytes_read": f.bytes, "attempts": f.attempts,
                           "status": "ok" if f.ok else "failed"} for f in self.files]}


def expand_inputs(paths: Iterable[str]) -> List[str]:
    """Files as given and, for a directory, every file under it whose name
    ends in one of INPUT_SUFFIXES; sorted, duplicates removed."""
    out = set()
    for p in paths:
        if os.path.isdir(p):
            for root, _dirs, names in os.walk(p):
                for n in names:
                    if n.endswith(INPUT_SUFFIXES):
                        out.add(os.path.abspath(os.path.join(root, n)))
        elif os.path.exists(p):
            out.add(os.path.abspath(p))
        else:
            raise MapError("map_input_missing", f"{p} does not exist",
                           "name existing files or directories")
    if not out:
        raise MapError("map_no_inputs", "no input files were found",
                       "name trace or op log files, or directories holding "
                       "files ending in " + ", ".join(INPUT_SUFFIXES))
    return sorted(out)


# --- what runs on a worker -------------------------------------------------

def _versions() -> dict:
    import tlcost
    return {"package": tlcost.__version__, "library": tlcost.library_version()}


def _check_version(expected: dict) -> None:
    got = _versions()
    if got != expected:
        raise MapError("map_version_mismatch",
                       f"worker {socket.gethostname()} runs tlcost {got}, "
                       f"the client {expected}",
                       "install the same tlcost build on every worker")


def evaluate_file(path: str, plugins: Sequence[str], rules: Sequence[str],
                  expected: dict) -> FileOutcome:
    """One task: evaluate one file in this worker and return its partial.
    A typed tlcost error is returned as a failed outcome (deterministic);
    anything else raises, so Dask retries the task."""
    import tlcost
    _check_version(expected)
    t0 = time.monotonic()
    size = os.path.getsize(path)
    try:
        eng = tlcost.Engine(plugins=list(plugins), rules=list(rules))
        partial = tlcost.read(path, engine=eng).to_json()
        return FileOutcome(path, True, size, partial=partial,
                           host=socket.gethostname(),
                           seconds=round(time.monotonic() - t0, 6))
    except tlcost.Error as e:
        return FileOutcome(path, False, size, error=_typed(e),
                           host=socket.gethostname(),
                           seconds=round(time.monotonic() - t0, 6))


def _typed(e) -> dict:
    d = {"code": e.code, "message": e.message, "remedy": e.remedy}
    pos = getattr(e, "position", None)
    if pos:
        d["position"] = pos
    return d


def merge_texts(items: Sequence) -> str:
    """The exact merge of partials, as ``tlcost merge`` does it. items are
    (name, partial JSON) pairs; a merged document may itself be merged
    again (its partials keep their identities)."""
    import tlcost
    items = list(items)
    return tlcost.merge_partials([t for _n, t in items], [n for n, _t in items])


# --- the client side -------------------------------------------------------

def map(paths: Iterable[str], client, *, plugins: Sequence[str] = (),
        rules: Sequence[str] = (), retries: int = 2,
        timeout: Optional[float] = None,
        progress: Optional[Callable[[int, int, int, int], None]] = None) -> MapResult:
    """Evaluates every input file on the cluster behind ``client`` (a
    ``distributed.Client``) and merges the exact partials.

    plugins and rules are paths that every worker can read (shared storage,
    or the same install everywhere); each task loads them into its engine.
    retries is Dask's retry count for a task that raised; timeout (seconds)
    bounds the wait for each file from the moment the map starts; progress,
    when given, is called as progress(done, total, bytes_done, errors)."""
    from distributed import as_completed

    files = expand_inputs(paths)
    expected = _versions()
    _check_workers(client, expected)
    plugins = [os.path.abspath(p) for p in plugins]
    rules = [os.path.abspath(r) for r in rules]
    futures = {}
    for p in files:
        f = client.submit(evaluate_file, p, plugins, rules, expected,
                          key=f"tlcost-eval-{_key(p)}", retries=retries, pure=False)
        futures[f] = p
    outcomes, bytes_done, errors = {}, 0, 0
    deadline = None if timeout is None else time.monotonic() + timeout
    pending = as_completed(list(futures), with_results=False)
    while len(outcomes) < len(files):
        try:
            fut = next(_next_before(pending, deadline))
        except TimeoutError:
            for f, p in futures.items():
                if p not in outcomes:
                    f.cancel()
                    outcomes[p] = FileOutcome(p, False, _size(p), error={
                        "code": "map_timeout",
                        "message": f"not evaluated within {timeout} s",
                        "remedy": "raise --timeout or add workers"})
                    errors += 1
            break
        p = futures[fut]
        outcomes[p] = _outcome(fut, p)
        bytes_done += outcomes[p].bytes
        errors += 0 if outcomes[p].ok else 1
        if progress:
            progress(len(outcomes), len(files), bytes_done, errors)
    ordered = [outcomes[p] for p in files]
    return MapResult(_document(client, ordered), ordered)


def _outcome(fut, path: str) -> FileOutcome:
    """The file's outcome. result() waits: a finished key that was lost with
    its worker is recomputed by the scheduler before it is handed back."""
    try:
        return fut.result()
    except Exception as exc:  # the task raised after its retries, or kept killing workers
        code = "map_worker_lost" if type(exc).__name__ == "KilledWorker" else "map_task_failed"
        if isinstance(exc, MapError):
            code = exc.code
        return FileOutcome(path, False, _size(path), error={
            "code": code, "message": f"{type(exc).__name__}: {exc}",
            "remedy": "see the worker logs; the file was retried and still failed"})


def _next_before(ac, deadline):
    """as_completed with an overall deadline (TimeoutError when passed)."""
    if deadline is None:
        yield next(ac)
        return
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        batch = ac.next_batch(block=False)
        if batch:
            for f in batch[1:]:
                ac.add(f)   # put back all but the first, handled next call
            yield batch[0]
            return
        time.sleep(min(0.05, left))


def _document(client, ordered: List[FileOutcome]) -> dict:
    ok = [f for f in ordered if f.ok]
    merged = json.loads(_tree_merge(client, [(f.path, f.partial) for f in ok])) if ok else None
    failed = len(ordered) - len(ok)
    doc = {"schema": SCHEMA, "version": SCHEMA_VERSION,
           "inputs": len(ordered), "succeeded": len(ok), "failed": failed,
           "complete": bool(merged) and not merged.get("lower_bound", True) and failed == 0}
    if failed:
        doc["lower_bound_reason"] = (
            f"{failed} of {len(ordered)} input files failed: the totals cover "
            f"only the {len(ok)} files that succeeded")
    doc["merged"] = merged
    doc["files"] = [f.listing() for f in ordered]
    return doc


def _tree_merge(client, texts: List[tuple]) -> str:
    """Pairwise merges as Dask tasks, in a fixed binary tree over the
    sorted inputs (so the bytes do not depend on completion order). A
    single partial goes through the same merge, so its document has the
    same shape as a merge of many. A merge the partials cannot support
    (merge_duplicate_rank, ...) raises its tlcost.Error here."""
    level: list = list(texts)
    if len(level) == 1:
        top = client.submit(_merge_node, level, None, pure=False).result()
    else:
        while len(level) > 1:
            nxt = []
            for i in range(0, len(level), 2):
                pair = level[i:i + 2]
                nxt.append(client.submit(_merge_node, pair, "merge-%d" % i, pure=False)
                           if len(pair) == 2 else pair[0])
            level = nxt
        top = level[0]
        top = top.result() if hasattr(top, "result") else top
    if isinstance(top, Error):
        raise top
    return top[1] if isinstance(top, tuple) else top


def _merge_node(pair, name):
    """One node of the merge tree: (name, json) pairs in, a pair out (the
    merged document, named by its tree position: a merged document is
    identified by the partials inside it, not by this name), or the bare
    text at the root of a single partial. A refusal is returned, not
    raised (the worker does not log it as a failed task) and passed up."""
    items = [p.result() if hasattr(p, "result") else p for p in pair]
    for it in items:
        if isinstance(it, Error):
            return it
    try:
        text = merge_texts(items)
    except Error as e:
        return e
    return text if name is None else (name, text)


def _check_workers(client, expected: dict) -> None:
    got = client.run(_versions)
    bad = {w: v for w, v in got.items() if v != expected}
    if bad:
        w, v = next(iter(sorted(bad.items())))
        raise MapError("map_version_mismatch",
                       f"{len(bad)} worker(s) run another tlcost (e.g. {w}: {v}; "
                       f"the client runs {expected})",
                       "install the same tlcost build on every worker")


def _key(path: str) -> str:
    import hashlib
    return hashlib.sha1(path.encode()).hexdigest()[:16]


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def terminal_progress(stream=None):
    """A progress callback that rewrites one line on a terminal and says
    nothing when the stream is not a terminal."""
    stream = stream or sys.stderr
    if not stream.isatty():
        return None

    def show(done, total, nbytes, errors):
        stream.write(f"\rtlcost map: {done}/{total} files, {nbytes / 1e6:.1f} MB, "
                     f"{errors} error{'s' if errors != 1 else ''}")
        if done == total:
            stream.write("\n")
        stream.flush()
    return show


def connect(scheduler: str):
    """A distributed.Client for ``ADDRESS`` or ``local:N`` (a LocalCluster
    of N single-threaded worker processes on loopback). Returns (client,
    cluster-or-None); close both when done."""
    try:
        from distributed import Client, LocalCluster
    except ImportError as e:   # an interpreter without Dask (not the one built for)
        raise module_unavailable(e, "python3 -m tlcost map") from None
    if scheduler.startswith("local:"):
        try:
            n = int(scheduler[6:])
        except ValueError:
            n = 0
        if n < 1:
            raise MapError("usage_error", f"--scheduler {scheduler}: N must be a positive integer",
                           "write local:N, for example local:2")
        cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                               host="127.0.0.1", dashboard_address=None)
        return Client(cluster), cluster
    return Client(scheduler), None
