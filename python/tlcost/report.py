"""Report: the results of one evaluation, read from libtlcost."""

import gzip
import json
import os
from typing import Any, Dict, List, NamedTuple, Optional

import _tlcost

from .engine import PHASES, Engine, default_engine
from .errors import StateError, usage
from .outfile import atomic

_FORMATS = {"text": 0, "json": 1, "csv": 2}
_TOTALS = {"macs": 0, "other_flops": 1, "bytes_read": 2, "bytes_written": 3,
           "flops": 4, "flops_fma1": 5}
_PROFILE_BY = {"op": 0, "type": 1, "module": 2}
_PROFILE_SORT = {"flops": 0, "bytes": 1, "intensity": 2, "time": 3,
                 "count": 4}
_BASIS = {"advertised": 0, "measured_achievable": 1}
_DENOMINATORS = {"step_seconds": 0, "kernel_union_seconds": 1,
                 "device_busy_seconds": 2, "instrumented_host_seconds": 3,
                 "other_seconds": 4}


def _pick(table: Dict[str, int], value: str, what: str) -> int:
    try:
        return table[value]
    except KeyError:
        raise usage("invalid_argument", "unknown %s %r" % (what, value),
                    "use one of: %s" % ", ".join(table)) from None


def _fmt(name: str) -> int:
    return _pick(_FORMATS, name, "format")


def _phase(name: Optional[str]) -> int:
    if name is None:
        return -1
    return _pick({p: i for i, p in enumerate(PHASES)}, name, "phase")


class LedgerEntry(NamedTuple):
    """One unknown-ledger group (contract section 3)."""
    name: str
    overload: str
    count: int
    example_ids: list
    example_shapes: list
    nested_flops: int
    reason: str
    detail: Optional[str]
    remedy: str


class View:
    """One report as the tlcost command shows it: ``str(view)`` is the
    text, ``view.to_dict()`` the JSON document, ``view.csv()`` the CSV
    (where the report has one). Every value comes from libtlcost."""

    def __init__(self, report: "Report", kind: str, **options: Any):
        self._rep = report
        self._kind = kind
        self._opts = options
        self._dict = None
        self.to_dict()  # a refusal raises here, where the report is asked for

    def _write(self, fmt: str) -> str:
        return self._rep._ev.write(self._kind, fmt=_fmt(fmt), **self._opts)

    def __str__(self) -> str:
        return self._write("text")

    def to_dict(self) -> Dict[str, Any]:
        if self._dict is None:
            self._dict = json.loads(self._write("json"))
        return self._dict

    def csv(self) -> str:
        return self._write("csv")

    def __getitem__(self, key: str) -> Any:
        return self.to_dict()[key]

    def __repr__(self) -> str:
        return "<tlcost %s report>" % self._kind

    def _repr_html_(self) -> str:
        """The notebook view: the command's text, escaped, as it prints."""
        import html
        return "<pre>%s</pre>" % html.escape(str(self))


def _ceilings(device=None, peak_flops=None, peak_bw=None, basis="advertised",
              dtype=None, devices_file=None) -> Dict[str, Any]:
    c = {"basis": _pick(_BASIS, basis, "basis")}
    if device is not None:
        c["device"] = device
    if peak_flops is not None:
        c["peak_flops"] = float(peak_flops)
    if peak_bw is not None:
        c["peak_bw"] = float(peak_bw)
    if dtype is not None:
        c["dtype"] = dtype
    if devices_file is not None:
        c["devices_file"] = os.fspath(devices_file)
    return c


def _cache(cache_bytes: Optional[int]) -> int:
    """None: the default 4 MiB; 0: exclude nothing (as --cache-bytes 0)."""
    if cache_bytes is None:
        return 0
    return -1 if cache_bytes == 0 else int(cache_bytes)


class Report:
    """Exact FLOPs and bytes of the ops one evaluation saw.

    ``complete`` is False when any op had no rule: every total is then a
    LOWER BOUND and ``ledger`` says which ops and how to add their rules.
    Totals are Python ints read from the library's exact (GMP) counts.
    """

    def __init__(self, ev: "_tlcost.Eval", engine: Engine,
                 header: Optional[Dict[str, Any]] = None):
        self._ev = ev
        self.engine = engine
        self._header = header

    # ---- totals ----
    def _total(self, which: str, phase: Optional[str]) -> int:
        if phase is not None:
            return self._ev.total(_phase(phase), _TOTALS[which])
        return sum(self._ev.total(i, _TOTALS[which])
                   for i in range(len(PHASES)))

    def macs(self, phase: Optional[str] = None) -> int:
        """True multiply-accumulates of ``phase`` (None: all phases)."""
        return self._total("macs", phase)

    def other_flops(self, phase: Optional[str] = None) -> int:
        """FLOPs that are not part of a MAC (bias adds, activations...)."""
        return self._total("other_flops", phase)

    def flops(self, phase: Optional[str] = None) -> int:
        """fma=2 FLOPs: 2 * macs + other_flops."""
        return self._total("flops", phase)

    def flops_fma1(self, phase: Optional[str] = None) -> int:
        """macs + other_flops; refused (flop_convention_unavailable) when
        some counted op has no known MAC/other split."""
        return self._total("flops_fma1", phase)

    def bytes_read(self, phase: Optional[str] = None) -> int:
        """Ideal bytes read (every input once); see bytes_complete()."""
        return self._total("bytes_read", phase)

    def bytes_written(self, phase: Optional[str] = None) -> int:
        return self._total("bytes_written", phase)

    def bytes_complete(self, phase: Optional[str] = None) -> bool:
        """False when some element size was unknown (bytes then a lower bound)."""
        idx = range(len(PHASES)) if phase is None else [_phase(phase)]
        return not any(self._ev.phase_flags(i)[1] for i in idx)

    @property
    def phases(self) -> List[str]:
        """Phases in which some op was evaluated."""
        return [p for i, p in enumerate(PHASES) if self._ev.phase_flags(i)[0]]

    # ---- coverage ----
    @property
    def complete(self) -> bool:
        """True when no op is unknown (totals are not a lower bound)."""
        return not self._ev.lower_bound()

    @property
    def lower_bound(self) -> bool:
        return self._ev.lower_bound()

    @property
    def coverage(self) -> Dict[str, int]:
        """Rows and the four coverage classes (contract section 2)."""
        return self._ev.coverage()

    @property
    def ledger(self) -> List[LedgerEntry]:
        """Unknown ops grouped by name, most frequent first, with remedies."""
        return [LedgerEntry(**e) for e in self._ev.ledger()]

    @property
    def info(self) -> Dict[str, Any]:
        """Header facts: format, producer, model, device, params, tokens."""
        return self._ev.info()

    @property
    def ops(self) -> int:
        """Number of op records evaluated."""
        return self.coverage["rows"]

    # ---- the CLI's outputs ----
    def __str__(self) -> str:
        """The text of `tlcost flops` on the same ops."""
        return self._ev.write("flops", fmt=0)

    def __repr__(self) -> str:
        state = "complete" if self.complete else "LOWER BOUND"
        return "<tlcost.Report %s: %d ops, %s>" % (
            self.info.get("model") or "?", self.ops, state)

    def to_dict(self) -> Dict[str, Any]:
        """The `tlcost flops --format json` document (docs/json-schema.md)."""
        return json.loads(self.to_json())

    def to_json(self) -> str:
        """`tlcost flops --format json`, byte for byte."""
        return self._ev.write("flops", fmt=1)

    def ledger_report(self) -> View:
        """`tlcost ledger`."""
        return View(self, "ledger")

    def tree(self, phase: str = "forward", top: int = 0, depth: int = 0,
             fold: bool = True) -> View:
        """`tlcost tree`: the cost tree by module call (contract section 5)."""
        return View(self, "tree", phase=_phase(phase), top=top, depth=depth,
                    no_fold=not fold)

    def profile(self, by: str = "type", sort: str = "flops", top: int = 25,
                phase: Optional[str] = None) -> View:
        """`tlcost profile`: per op, op type or module (top=0: all rows;
        phase=None: all phases)."""
        return View(self, "profile", by=_pick(_PROFILE_BY, by, "profile key"),
                    sort=_pick(_PROFILE_SORT, sort, "sort"), top=top,
                    phase=_phase(phase))

    def roofline(self, device: Optional[str] = None, top: int = 20,
                 phase: Optional[str] = None, cache_bytes: Optional[int] = None,
                 **ceilings: Any) -> View:
        """`tlcost roofline`: memory/compute-bound hypotheses per op.
        Ceilings: device=, peak_flops=, peak_bw=, basis=, dtype=, devices_file=."""
        return View(self, "roofline", top=top, phase=_phase(phase),
                    cache_bytes=_cache(cache_bytes),
                    **_ceilings(device=device, **ceilings))

    def roofline_svg(self, device: Optional[str] = None,
                     phase: Optional[str] = None, **ceilings: Any) -> str:
        """The roofline chart as a standalone SVG document."""
        return self._ev.write("roofline_svg", phase=_phase(phase),
                              **_ceilings(device=device, **ceilings))

    def mfu(self, step_seconds: Any, device: Optional[str] = None,
            denominator: str = "step_seconds", params: Optional[int] = None,
            tokens: Optional[int] = None, **ceilings: Any) -> View:
        """`tlcost mfu`: FLOPs / peak / the uninstrumented step time (from
        tlcost.measure_clean_step). Any other denominator is refused."""
        seconds = getattr(step_seconds, "seconds", step_seconds)
        return View(self, "mfu", seconds=float(seconds),
                    denominator=_pick(_DENOMINATORS, denominator, "denominator"),
                    params=params or 0, tokens=tokens or 0,
                    **_ceilings(device=device, **ceilings))

    def join(self) -> View:
        """`tlcost join`: device time attributed to ops (contract section 8)."""
        return View(self, "join")

    def overview(self, device: Optional[str] = None, tree_top: int = 0,
                 tree_depth: int = 0, cache_bytes: Optional[int] = None,
                 **ceilings: Any) -> View:
        """`tlcost report`: the one-screen overview (tree_top/tree_depth 0:
        the command's 5 and 2)."""
        return View(self, "report", tree_top=tree_top, tree_depth=tree_depth,
                    cache_bytes=_cache(cache_bytes),
                    **_ceilings(device=device, **ceilings))

    # ---- notebooks (python/tlcost/frames.py) ----
    def to_pandas(self, table: str = "rows", by: str = "type",
                  phase: Optional[str] = None):
        """A pandas DataFrame of one table: "rows" (one per kept op row:
        the library's exact cost fields, None where unknown), "groups"
        (the rows of ``profile(by=by, top=0, phase=phase)``: by "type",
        "op" or "module") or "ledger" (the ``tlcost ledger`` entries).
        Integer columns are int64 where every value fits and is known,
        else object columns of exact Python ints. Without pandas:
        UnavailableError python_module_unavailable."""
        from .frames import to_pandas
        return to_pandas(self, table, by, phase)

    def _repr_html_(self) -> str:
        """The notebook view: headline, totals per phase, ledger."""
        from .frames import repr_html
        return repr_html(self)

    # ---- the op log ----
    def save(self, path: str) -> None:
        """Write the op log v1 of a capture; gzip (level 9, mtime 0, no
        name) when path ends in .gz. Reports read from a file have no log
        to save (capture_not_recorded). The file is written whole or not
        at all, as the C command writes (a temporary beside it, renamed
        over it; regular files only): tlcost.FileError output_open_failed
        or output_write_failed, and the old file stays as it was."""
        path = os.fspath(path)
        self._check_recorded()
        with atomic(path) as raw:
            self.write_log(raw, gz=path.endswith(".gz"))

    def write_log(self, stream, gz: bool = False) -> None:
        """Writes the op log v1 of a capture to a binary stream (anything
        with write(bytes)); gzip (level 9, mtime 0, no name) when gz.
        save() is this into a whole-or-nothing file."""
        self._check_recorded()
        head = (json.dumps(self._header, separators=(",", ":"),
                           allow_nan=False) + "\n").encode("utf-8")
        if gz:
            with gzip.GzipFile(filename="", mode="wb", compresslevel=9,
                               fileobj=stream, mtime=0) as z:
                z.write(head)
                self._ev.write_log(z.write)
        else:
            stream.write(head)
            self._ev.write_log(stream.write)

    def _check_recorded(self) -> None:
        if self._header is None:
            raise StateError("capture_not_recorded",
                             "this report has no recorded op log (it was read "
                             "from a file, or captured with record=False)",
                             "save the original file instead, or capture "
                             "with record=True")


def read(path: str, engine: Optional[Engine] = None,
         keep_ops: bool = True) -> Report:
    """Read an op log (plain or gzip) or a PyTorch profiler (Kineto) trace
    into a Report, exactly as the tlcost command reads it."""
    eng = engine or default_engine()
    ev = _tlcost.Eval(eng._c, keep_ops=keep_ops)
    ev.read(os.fspath(path))
    ev.finish()
    return Report(ev, eng)
