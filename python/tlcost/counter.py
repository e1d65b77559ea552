"""``with tlcost.counting() as c:``: count the ATen calls of any code.

The block pushes the same dispatch mode ``tlcost.capture`` runs its step
under (live.LiveRecorder: each call becomes a tlc_op pushed into a live
evaluation), so a counted step and a captured step are the same op log.
What capture knows because it runs the step itself (which call is the
backward, which is the optimizer step), a block learns from torch:

- backward: the calls made inside ``torch.autograd.backward`` and
  ``torch.autograd.grad`` (``Tensor.backward`` calls the first; the
  seed gradient they make is backward, as in capture's
  ``loss.backward()``) and while the autograd engine runs
  (``Variable._execution_engine.run_backward``, for a caller holding
  its own reference to backward/grad); the block wraps those while open;
- optimizer: the calls made inside ``Optimizer.step`` and
  ``Optimizer.zero_grad`` (torch wraps both in a
  ``torch.autograd.profiler.record_function`` named ``Optimizer.step#...``
  / ``Optimizer.zero_grad#...``; the block marks those ranges, so an
  optimizer whose ``step`` an LR scheduler wrapped is seen too);
- forward: every other call (capture puts the loss in forward too).

Both wrappers are installed while some block is open in the process and
act only for the blocks open on the calling thread. docs/python.md says
what nesting and threads do.
"""

import threading
from typing import Any, Dict, Optional

import torch
from torch.autograd import profiler as _profiler
from torch.autograd.variable import Variable as _Variable

from .engine import Engine, default_engine
from .errors import StateError
from .live import (ModuleTracker, LiveRecorder, _bad_arg, _check_meta, _check_str,
                   _check_tokens, _device_name, header, live_eval)
from .report import Report

_tls = threading.local()        # .open: this thread's open blocks, innermost last
_lock = threading.Lock()
_users = 0                      # open blocks in the process (all threads)
_saved: Dict[str, Any] = {}

_OPTIMIZER_RANGES = ("Optimizer.step#", "Optimizer.zero_grad#")


def _open_blocks():
    return getattr(_tls, "open", ())


class _Phase:
    """Puts every block open on this thread in ``phase`` and back."""

    __slots__ = ("phase", "saved")

    def __init__(self, phase: str):
        self.phase = phase
        self.saved = None

    def __enter__(self):
        blocks = _open_blocks()
        self.saved = [(b._rec, b._rec.phase) for b in blocks]
        for b in blocks:
            b._rec.phase = self.phase
        return self

    def __exit__(self, *exc):
        for rec, phase in self.saved or ():
            rec.phase = phase
        return False


class _BackwardEngine:
    """Stands for Variable._execution_engine while a block is open:
    run_backward runs in the backward phase, everything else is the
    engine's."""

    def __init__(self, engine):
        self._engine = engine

    def run_backward(self, *args, **kwargs):
        if not _open_blocks():
            return self._engine.run_backward(*args, **kwargs)
        with _Phase("backward"):
            return self._engine.run_backward(*args, **kwargs)

    def __getattr__(self, name):
        return getattr(self._engine, name)


def _in_backward(fn):
    """torch.autograd.backward/grad in the backward phase from their first
    call (the seed gradient's ones_like, as capture counts it in
    loss.backward())."""
    def wrapper(*args, **kwargs):
        if not _open_blocks():
            return fn(*args, **kwargs)
        with _Phase("backward"):
            return fn(*args, **kwargs)
    wrapper.__wrapped__ = fn
    wrapper.__doc__ = fn.__doc__
    wrapper.__name__ = fn.__name__
    return wrapper


def _rf_init(self, name, *args, **kwargs):
    # before the original __init__: it dispatches the range's handle
    # (aten::zeros), which capture counts in the optimizer phase
    if _open_blocks() and isinstance(name, str) and name.startswith(_OPTIMIZER_RANGES):
        self._tlcost_phase = _Phase("optimizer").__enter__()
    _saved["rf_init"](self, name, *args, **kwargs)


def _rf_exit(self, *exc):
    try:
        return _saved["rf_exit"](self, *exc)
    finally:
        ph = self.__dict__.pop("_tlcost_phase", None)
        if ph is not None:
            ph.__exit__()


def _install() -> None:
    global _users
    with _lock:
        if _users == 0:
            rf = _profiler.record_function
            _saved["engine"] = _Variable._execution_engine
            _saved["rf_init"] = rf.__init__
            _saved["rf_exit"] = rf.__exit__
            _Variable._execution_engine = _BackwardEngine(_saved["engine"])
            for name in ("backward", "grad"):
                _saved[name] = getattr(torch.autograd, name)
                setattr(torch.autograd, name, _in_backward(_saved[name]))
            rf.__init__ = _rf_init
            rf.__exit__ = _rf_exit
        _users += 1


def _uninstall() -> None:
    global _users
    with _lock:
        _users -= 1
        if _users == 0:
            rf = _profiler.record_function
            _Variable._execution_engine = _saved.pop("engine")
            for name in ("backward", "grad"):
                setattr(torch.autograd, name, _saved.pop(name))
            rf.__init__ = _saved.pop("rf_init")
            rf.__exit__ = _saved.pop("rf_exit")


class Counting:
    """One ``with tlcost.counting() as c:`` block; ``c.report()`` after
    it. Made by tlcost.counting()."""

    def __init__(self, model, engine, timing, record, keep_ops, model_name,
                 tokens, meta, device):
        self._args = (model, engine, timing, record, keep_ops, model_name,
                      tokens, meta, device)
        self._state = "new"
        self._rec = None
        self._report = None

    @property
    def ops(self) -> int:
        """Calls counted so far."""
        return self._rec.count if self._rec is not None else 0

    def __enter__(self) -> "Counting":
        if self._state != "new":
            raise StateError(
                "counting_reused",
                "this tlcost.counting() block was already %s" %
                ("entered and is still open" if self._state == "open" else "used"),
                "make a new block for each region: with tlcost.counting() as c2: ...")
        model, engine, timing, record, keep_ops, model_name, tokens, meta, device = self._args
        eng = engine or default_engine()
        dev = device
        if dev is None and model is not None:
            for p in model.parameters():
                dev = _device_name(p.device)
                break
        meta = dict(meta or {})
        meta.setdefault("mode", "counting")
        head = header(model_name, model, tokens, meta, dev)
        ev = live_eval(eng, head, keep_ops, record)
        self._eng, self._ev, self._head = eng, ev, head if record else None
        self._tracker = ModuleTracker(model) if model is not None else None
        self._rec = LiveRecorder(ev, self._tracker, timing=timing)
        self._rec.phase = "forward"
        _install()
        try:
            self._rec.__enter__()
        except BaseException:
            _uninstall()
            raise
        if not hasattr(_tls, "open"):
            _tls.open = []
        _tls.open.append(self)
        self._state = "open"
        return self

    def __exit__(self, *exc) -> bool:
        try:
            self._rec.__exit__(*exc)
        finally:
            _tls.open.remove(self)
            _uninstall()
            if self._tracker is not None:
                self._tracker.remove()
            self._state = "closed"
        self._ev.finish()
        self._report = Report(self._ev, self._eng, self._head)
        return False

    def report(self) -> Report:
        """The block's Report (the type tlcost.capture returns), once the
        block has ended."""
        if self._state != "closed":
            raise StateError(
                "counting_not_finished",
                "report() inside the tlcost.counting() block: the block is still %s"
                % ("open" if self._state == "open" else "not entered"),
                "call c.report() after the with block ends")
        return self._report

    def __repr__(self) -> str:
        return "<tlcost.counting %s: %d ops>" % (self._state, self.ops)


def counting(model: Optional[torch.nn.Module] = None, *, engine: Optional[Engine] = None,
             timing: bool = True, record: bool = True, keep_ops: bool = True,
             model_name: Optional[str] = None, tokens: Optional[int] = None,
             meta: Optional[Dict[str, Any]] = None,
             device: Optional[str] = None) -> Counting:
    """Count every ATen call the code in a ``with`` block makes::

        with tlcost.counting(model) as c:
            loss = loss_fn(model(x), y); loss.backward(); opt.step()
        rep = c.report()              # a tlcost.Report, as capture returns

    ``model`` (optional) gives forward calls their module paths, as capture
    does; without it they have none. Phases: backward while the autograd
    engine runs, optimizer inside Optimizer.step/zero_grad, forward for
    the rest. Other keywords as tlcost.capture's; ``meta`` gets
    ``"mode": "counting"`` unless it says otherwise. Arguments are
    checked here (capture_argument_invalid)."""
    if model is not None and not isinstance(model, torch.nn.Module):
        raise _bad_arg("model", model, "None or a torch.nn.Module")
    if engine is not None and not isinstance(engine, Engine):
        raise _bad_arg("engine", engine, "None or a tlcost.Engine")
    for name, value in (("timing", timing), ("record", record), ("keep_ops", keep_ops)):
        if not isinstance(value, bool):
            raise _bad_arg(name, value, "True or False")
    _check_str("model_name", model_name)
    _check_str("device", device)
    _check_tokens(tokens)
    _check_meta(meta)
    return Counting(model, engine, timing, record, keep_ops, model_name, tokens, meta, device)
