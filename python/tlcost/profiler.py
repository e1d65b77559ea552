"""tlcost.from_profiler(prof): a finished torch.profiler session, read
in-process as tlcost reads its exported trace.

The session is exported with its own ``export_chrome_trace`` into a
private temporary file (mode 0600, in tempfile's directory), read by the
library exactly as ``tlcost.read`` reads a trace (the device-time join
included: a CPU-only session has no device records, and the join says
so), and deleted before the function returns, whatever happened. The
Report is therefore the one ``tlcost.read(path)`` gives on
``prof.export_chrome_trace(path)``: the same totals, coverage, ledger,
join and refusals (a profiler without Kineto exports the legacy format,
which the library refuses with trace_not_kineto, here too).
"""

import os
import tempfile
from typing import Optional

import _tlcost

from .engine import Engine, default_engine
from .errors import Error, FileError, StateError, usage
from .report import Report

#: what an error's position names instead of the deleted temporary file
SESSION = "<torch.profiler session>"


def _export(prof, path: str) -> None:
    try:
        prof.export_chrome_trace(path)
    except (AssertionError, RuntimeError) as e:
        # torch: `assert self.profiler` before start, "Profiler didn't
        # finish running" inside the with block
        raise StateError(
            "profiler_not_finished",
            "the profiler session has no finished results to export (%s: %s)"
            % (type(e).__name__, e),
            "call tlcost.from_profiler(prof) after the `with torch.profiler.profile(...) as "
            "prof:` block ends (or after prof.stop())") from None
    except OSError as e:
        raise FileError(
            "profiler_export_failed",
            "the profiler session could not be exported to a temporary file (%s)" % e,
            "free space in %s or point TMPDIR at a writable directory" % tempfile.gettempdir()) \
            from None


def from_profiler(prof, engine: Optional[Engine] = None, keep_ops: bool = True) -> Report:
    """The Report of a finished ``torch.profiler.profile`` (or
    ``torch.autograd.profiler.profile``) session: what ``tlcost.read`` gives
    on its ``export_chrome_trace`` output, with no file of yours written.
    Profile with ``record_shapes=True``: without shapes ops are unknown
    (missing_args) and the totals a lower bound."""
    if not callable(getattr(prof, "export_chrome_trace", None)):
        raise usage("profiler_session_invalid",
                    "from_profiler takes a torch.profiler.profile session, not %s"
                    % type(prof).__name__,
                    "pass the object of `with torch.profiler.profile(record_shapes=True) as prof:`"
                    " (or read an exported trace with tlcost.read(path))")
    if engine is not None and not isinstance(engine, Engine):
        raise usage("capture_argument_invalid", "engine=%r: None or a tlcost.Engine" % (engine,),
                    "pass engine as None or a tlcost.Engine")
    eng = engine or default_engine()
    fd, path = tempfile.mkstemp(prefix="tlcost-profiler.", suffix=".json")
    os.close(fd)
    try:
        _export(prof, path)
        ev = _tlcost.Eval(eng._c, keep_ops=keep_ops)
        try:
            ev.read(path)
            ev.finish()
        except Error as e:
            if e.file == path:
                e.file = SESSION
            raise
    finally:
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
    return Report(ev, eng)
