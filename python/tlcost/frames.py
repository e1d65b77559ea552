"""Report.to_pandas() and the notebook view (_repr_html_) of a Report.

Every value comes from the library's models, as the JSON documents carry
them: the kept op rows (tlc_eval_op_get), the profile report's groups,
the ledger report; nothing is recomputed here. Exact integers stay
exact: an integer column is int64 only where every value fits an int64
and none is unknown; otherwise it is an object column of Python ints,
with None where the value is unknown (never 0, never NaN).
"""

import html
from typing import Any, Dict, List, Optional

from .errors import module_unavailable, usage

TABLES = ("rows", "groups", "ledger")
_INT64 = (-(2 ** 63), 2 ** 63 - 1)


def _pandas(what: str):
    try:
        import pandas
    except ImportError as e:
        raise module_unavailable(e, what) from None
    return pandas


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _series(pd, values: List[Any]):
    present = [v for v in values if v is not None]
    if present and all(_is_int(v) for v in present):
        if len(present) == len(values) and all(_INT64[0] <= v <= _INT64[1] for v in present):
            return pd.Series(values, dtype="int64")
        return pd.Series(values, dtype=object)     # exact Python ints, None = unknown
    if present and any(isinstance(v, float) for v in present) and \
            all(isinstance(v, float) or _is_int(v) for v in present):
        # a ratio column (intensity): floats, None where undefined (NaN)
        return pd.Series([float("nan") if v is None else float(v) for v in values],
                         dtype="float64")
    if present and all(isinstance(v, bool) for v in present) and len(present) == len(values):
        return pd.Series(values, dtype=bool)
    return pd.Series(values, dtype=object)


def _frame(pd, columns: Dict[str, List[Any]]):
    return pd.DataFrame({k: _series(pd, v) for k, v in columns.items()})


def _columns(records: List[Dict[str, Any]], first: Optional[List[str]] = None) -> Dict[str, list]:
    names = list(first or [])
    for r in records:
        for k in r:
            if k not in names:
                names.append(k)
    return {k: [r.get(k) for r in records] for k in names}


def to_pandas(report, table: str = "rows", by: str = "type", phase: Optional[str] = None):
    """The DataFrame of one table of ``report`` (see Report.to_pandas)."""
    if table not in TABLES:
        raise usage("invalid_argument", "unknown table %r" % (table,),
                    "use one of: %s" % ", ".join(TABLES))
    pd = _pandas("tlcost.Report.to_pandas")
    if table == "rows":
        cols = report._ev.op_rows()
        if phase is not None:
            from .report import _phase
            _phase(phase)   # an unknown name is refused as profile() refuses it
            keep = [i for i, p in enumerate(cols["phase"]) if p == phase]
            cols = {k: [v[i] for i in keep] for k, v in cols.items()}
        return _frame(pd, cols)
    if table == "groups":
        doc = report.profile(by=by, top=0, phase=phase).to_dict()
        return _frame(pd, _columns(doc["rows"], ["key"]))
    doc = report.ledger_report().to_dict()
    return _frame(pd, _columns(doc["ledger"], ["name", "overload", "count"]))


def _num(v: Any) -> str:
    return "unknown" if v is None else "{:,}".format(v)


def repr_html(report) -> str:
    """A small self-contained table: the headline, the totals per phase
    and the ledger (names and remedies escaped)."""
    e = html.escape
    info = report.info
    state = ("COMPLETE" if report.complete else
             "LOWER BOUND: %d unknown op(s), see the ledger" % report.coverage["unknown"])
    out = ['<div class="tlcost-report">',
           "<p><b>tlcost</b> %s &middot; %s ops &middot; <b>%s</b></p>"
           % (e(str(info.get("model") or info.get("format") or "report")),
              _num(report.ops), e(state)),
           '<table><thead><tr><th style="text-align:left">phase</th>%s</tr></thead><tbody>'
           % "".join('<th style="text-align:right;padding:0 0 0 1.2em">%s</th>' % h
                     for h in ("MACs", "other FLOPs", "FLOPs (fma=2)", "bytes read",
                               "bytes written"))]
    for p in report.phases:
        # bytes where some element size was unknown: a lower bound, marked
        ge = "" if report.bytes_complete(p) else "&ge; "
        vals = (_num(report.macs(p)), _num(report.other_flops(p)), _num(report.flops(p)),
                ge + _num(report.bytes_read(p)), ge + _num(report.bytes_written(p)))
        out.append("<tr><td>%s</td>%s</tr>" % (e(p), "".join(
            '<td style="text-align:right;padding:0 0 0 1.2em">%s</td>' % v for v in vals)))
    out.append("</tbody></table>")
    ledger = report.ledger
    if ledger:
        out.append("<p>Unknown ops (every total above is a lower bound):</p>"
                   '<table><thead><tr style="text-align:left"><th>op</th>'
                   '<th style="text-align:right">calls</th><th>reason</th>'
                   "<th>remedy</th></tr></thead><tbody>")
        for x in ledger:
            name = x.name + ("." + x.overload if x.overload else "")
            out.append('<tr style="vertical-align:top"><td><code>%s</code></td>'
                       '<td style="text-align:right;padding:0 0.8em">%s</td>'
                       '<td style="padding-right:0.8em">%s</td><td>%s</td></tr>'
                       % (e(name), _num(x.count), e(x.reason), e(x.remedy)))
        out.append("</tbody></table>")
    out.append("</div>")
    return "\n".join(out)
