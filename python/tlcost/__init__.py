"""tlcost: exact analytic FLOPs and bytes of PyTorch models, from libtlcost.

    import tlcost
    rep = tlcost.capture(model, (x,), mode="fwd_grad")
    rep.complete, rep.macs("forward"), rep.ledger
    print(rep)                       # the text of `tlcost flops`
    rep.save("model.oplog.jsonl.gz")
    rep2 = tlcost.read("trace.json.gz")

Every number comes from the C library (exact GMP counts as Python ints);
this package only carries ops to it and results back. docs/python.md.
"""

import _tlcost

from .engine import Cost, Engine, MissingArgs, Op, Tensor, default_engine
from .errors import (Error, ExistsError, FileError, InputError,
                     InvalidArgumentError, NotFoundError, OutOfMemoryError,
                     ParseError, PluginError, RefusedError, StateError,
                     UnavailableError, ValueOverflowError, VersionError, _make)
from .report import LedgerEntry, Report, View, read
from .diff import Diff, diff

__version__ = _tlcost.version


def library_version() -> str:
    """The version of the libtlcost this package loaded (tlc_version())."""
    return _tlcost.library_version()


def merge_partials(partials, names=None) -> str:
    """The exact merge of ``tlcost flops --format json`` partials (JSON
    texts), as ``tlcost merge`` does it: totals, coverage, ledger and
    communication summed exactly; each partial keeps its identity (``names``,
    default "partial-<i>", unless it carries a rank). Raises tlcost.Error
    (merge_schema_mismatch, merge_duplicate_rank, ...)."""
    partials = list(partials)
    names = list(names) if names is not None else ["partial-%d" % i for i in range(len(partials))]
    if len(names) != len(partials):
        raise ValueError("merge_partials: one name per partial")
    return _tlcost.merge(list(zip(names, partials)))
_tlcost.configure(error_factory=_make, tensor_view=Tensor)

__all__ = ["capture", "read", "diff", "Diff", "measure_clean_step", "register_rule", "Report", "View",
           "LedgerEntry", "Engine", "Cost", "Op", "Tensor", "MissingArgs",
           "default_engine", "library_version", "merge_partials", "Error", "OutOfMemoryError", "FileError",
           "InvalidArgumentError", "ParseError", "InputError", "VersionError",
           "NotFoundError", "ExistsError", "PluginError", "ValueOverflowError",
           "RefusedError", "UnavailableError", "StateError"]

# issue 28 item 4: counting() (torch, imported lazily below), from_profiler()
from .profiler import from_profiler  # noqa: E402
__all__ += ["counting", "from_profiler"]


def register_rule(name, fn=None, **kw):
    """Register a rule on the default engine (the one capture and read use
    when given none): ``tlcost.register_rule("mylib::op", fn)``; also a
    decorator when fn is omitted. See Engine.register_rule."""
    if fn is None:
        return default_engine().rule(name, **kw)
    default_engine().register_rule(name, fn, **kw)
    return fn


def __getattr__(name):
    # torch is imported only when a capture function is first used, so
    # tlcost.read works where torch is not installed; where it is not, using
    # one raises tlcost.UnavailableError (python_module_unavailable)
    if name in ("capture", "measure_clean_step", "StepTime", "MODES", "counting"):
        try:
            from . import live as _cap
            if name == "counting":
                from . import counter as _cap
        except ImportError as e:   # an interpreter without torch (not the one built for)
            from .errors import module_unavailable
            raise module_unavailable(e, "tlcost.%s" % name) from None
        return getattr(_cap, name)
    raise AttributeError("module 'tlcost' has no attribute %r" % name)
