"""tlcost.diff(a, b): what changed between two runs, as ``tlcost diff A B``
computes it (docs/diff.md). Every number comes from libtlcost; this module
only parses its tlcost.diff/1 document into Python objects (exact ints)."""
import json
import os
import tempfile
from typing import Any, Dict, List, Optional, Sequence, Tuple

import _tlcost

from .engine import Engine, default_engine

_BY = {"group": 0, "type": 1, "module": 2}


class Diff:
    """The diff model: ``totals`` (phase name or "all" -> row dict),
    ``rows`` (group, type or module rows, sorted as the command sorts them),
    ``has_time``, ``conditions`` ([(expr, holds, explanation)]) and the JSON
    document itself (``doc``, schema tlcost.diff/1). A row dict has "a" and
    "b" (count, unknown, macs, other_flops, flops, bytes, kernel_ns) and
    "change" (B - A; kernel_ns, work_ns, rate_ns, unsplit_ns where both
    sides' joins passed the gate). Exact figures are Python ints; bytes is
    None where some element size was unknown."""

    def __init__(self, text: str, conditions: List[Tuple[str, bool, str]]):
        self._text = text
        self.doc: Dict[str, Any] = json.loads(text)
        self.totals: Dict[str, Dict[str, Any]] = {t["phase"]: t for t in self.doc["totals"]}
        self.rows: List[Dict[str, Any]] = self.doc["rows"]
        self.has_time: bool = self.doc["has_time"]
        self.conditions = conditions

    @property
    def failed(self) -> bool:
        """True when a fail_if condition holds (the command exits 4)."""
        return any(h for _, h, _ in self.conditions)

    def to_json(self) -> str:
        """The tlcost.diff/1 document, as ``tlcost diff --format json``."""
        return self._text

    def __repr__(self) -> str:
        t = self.totals["all"]
        return "<tlcost.Diff flops %s -> %s (%+d), %d rows>" % (
            t["a"]["flops"], t["b"]["flops"], t["change"]["flops"], len(self.rows))


def _path(x, tmps: list) -> str:
    if isinstance(x, (str, bytes, os.PathLike)):
        return os.fsdecode(x)
    save = getattr(x, "save", None)
    if save is None:
        raise TypeError("diff: give a path or a tlcost.Report, not %r" % type(x).__name__)
    fd, p = tempfile.mkstemp(prefix="tlcost-diff-", suffix=".jsonl")
    os.close(fd)
    tmps.append(p)
    save(p)  # raises StateError capture_not_recorded for a Report read from a file
    return p


def diff(a, b, *, by: str = "group", top: int = 0, fail_if: Sequence[str] = (),
         engine: Optional[Engine] = None) -> Diff:
    """``tlcost diff A B``: a and b are op logs, traces or saved joins (paths),
    or Reports captured with record=True. ``by``: "group" (default), "type" or
    "module"; ``top``: rows kept (0 = all); ``fail_if``: conditions such as
    "forward.flops>+1%" evaluated on the totals (``Diff.failed``). Raises
    tlcost.Error (diff_condition_invalid, diff_figure_unavailable, any input
    error)."""
    if by not in _BY:
        raise ValueError("diff: by must be group, type or module")
    eng = engine or default_engine()
    tmps: list = []
    try:
        pa, pb = _path(a, tmps), _path(b, tmps)
        text, conds = _tlcost.diff(eng._c, pa, pb, _BY[by], int(top), list(fail_if))
    finally:
        for p in tmps:
            os.unlink(p)
    return Diff(text, [tuple(c) for c in conds])
