"""The rule registry: built-in rules, plugins, rule files and Python rules."""

import os
from typing import Any, Callable, Dict, Iterable, List, NamedTuple, Optional

import _tlcost

from .errors import usage

PHASES = ("forward", "backward", "optimizer", "other")


class Tensor(NamedTuple):
    """A tensor as a rule sees it: observed shape, dtype name, strides
    (None when not recorded) and device (None when not recorded)."""
    shape: tuple
    dtype: Optional[str]
    stride: Optional[tuple]
    device: Optional[str]

    @property
    def numel(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n


class Op(NamedTuple):
    """One op call as a Python rule sees it."""
    name: str
    overload: str
    phase: str
    args: list
    kwargs: dict
    outputs: Optional[list]


class Cost(NamedTuple):
    """What a Python cost rule returns. Every count is an exact Python int
    (a float is refused). ``bytes_read``/``bytes_written`` left as None
    mean ideal traffic: every tensor argument read once, every recorded
    output written once, sized by the library. ``estimated`` overrides the
    rule's evidence for this op; ``note`` says why a cost is 0 or what was
    assumed; ``split_unknown`` declares macs/other_flops not a true split."""
    macs: int = 0
    other_flops: int = 0
    bytes_read: Optional[int] = None
    bytes_written: Optional[int] = None
    estimated: Optional[bool] = None
    note: Optional[str] = None
    split_unknown: bool = False


class MissingArgs(Exception):
    """Raise from a Python rule when the shapes it needs are absent: the
    op becomes unknown (missing_args) with your message in the ledger."""


_LIMB_BITS = 62
_LIMB_MASK = (1 << _LIMB_BITS) - 1


def _limbs(name: str, value: Any) -> tuple:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("%s must be an exact int, not %s"
                        % (name, type(value).__name__))
    if value < 0:
        raise ValueError("%s is negative (%d)" % (name, value))
    out = []
    while value:
        out.append(value & _LIMB_MASK)
        value >>= _LIMB_BITS
    return tuple(out)


def _normalize(result: Any) -> tuple:
    if isinstance(result, dict):
        unknown = set(result) - set(Cost._fields)
        if unknown:
            raise TypeError("unknown cost keys: %s" % ", ".join(sorted(unknown)))
        result = Cost(**result)
    if not isinstance(result, Cost):
        raise TypeError("a Python rule returns tlcost.Cost or a dict, not %s"
                        % type(result).__name__)
    opt = lambda n, v: None if v is None else _limbs(n, v)  # noqa: E731
    ev = -1 if result.estimated is None else int(bool(result.estimated))
    return ("ok", _limbs("macs", result.macs),
            _limbs("other_flops", result.other_flops),
            opt("bytes_read", result.bytes_read),
            opt("bytes_written", result.bytes_written), ev,
            result.note, bool(result.split_unknown))


def _wrap(fn: Callable[[Op], Any], name: str) -> Callable:
    """The callable the C trampoline calls: it never raises (a failing
    rule makes its op unknown, with the reason in the ledger)."""
    def wrapper(opname, overload, phase, args, kwargs, outputs):
        op = Op(opname, overload, phase, args, kwargs, outputs)
        try:
            return _normalize(fn(op))
        except MissingArgs as e:
            return ("missing", "python rule %s: %s" % (name, e))
        except Exception as e:  # the op becomes unknown, never a crash
            return ("bad", "python rule %s raised %s: %s"
                    % (name, type(e).__name__, e))
    return wrapper


class Engine:
    """A rule registry: the built-in rules plus what you load.

    >>> eng = tlcost.Engine(plugins=["./myrules.so"], rules=["my.tlrules"])
    >>> @eng.rule("mylib::fused_gelu", estimated=True, note="5 per element")
    ... def fused_gelu(op):
    ...     return tlcost.Cost(other_flops=5 * op.args[0].numel)

    ``load_env`` loads TLCOST_PLUGIN_PATH as the tlcost command does.
    ``packs`` chooses the rule packs for vendor kernels (docs/packs.md):
    None (the default) loads every pack, as the tlcost command does; a
    list of names (or one comma-separated string) loads only those, and
    ``[]`` none (``tlcost --no-packs``). An unknown name raises the
    library's pack_unknown error. Your rules replace a pack's rule for the
    same op without ``override``.
    """

    def __init__(self, plugins: Iterable[str] = (), rules: Iterable[str] = (),
                 builtins: bool = True, load_env: bool = True,
                 packs: Optional[Iterable[str]] = None):
        if isinstance(packs, str):
            packs = [p for p in packs.split(",")]
        self._c = _tlcost.Engine(builtins=builtins, load_env=load_env,
                                 packs=None if packs is None else list(packs))
        for p in plugins:
            self.load_plugin(p)
        for r in rules:
            self.load_rules(r)

    def load_plugin(self, path: str) -> None:
        """dlopen a rule plugin (.so); errors are tlcost.PluginError."""
        self._c.load_plugin(os.fspath(path))

    def load_rules(self, path: str) -> None:
        """Load a declarative rule file (docs/rule-files.md)."""
        self._c.load_rules(os.fspath(path))

    def register_rule(self, name: str, fn: Optional[Callable[[Op], Any]] = None,
                      kind: str = "cost", estimated: bool = False,
                      note: Optional[str] = None, override: bool = False) -> None:
        """Register a rule for op ``name`` ("ns::op" or "ns::op.overload").
        kind "cost" calls ``fn(op) -> Cost``; "zero", "decomposed" and
        "structural" take no function (note says why)."""
        if kind == "cost" and not callable(fn):
            raise usage("invalid_argument", "a cost rule needs a function",
                        "pass fn, or use kind='zero'/'decomposed'/'structural'")
        wrapper = _wrap(fn, name) if kind == "cost" else None
        self._c.register_rule(name, wrapper, kind=kind, estimated=estimated,
                              note=note, override=override)

    def rule(self, name: str, **kw) -> Callable:
        """Decorator form of register_rule."""
        def deco(fn):
            self.register_rule(name, fn, **kw)
            return fn
        return deco

    def rules(self) -> List[Dict[str, Any]]:
        """Every registered rule: name, kind, evidence, note, provider."""
        return self._c.rules()

    def notices(self) -> List[tuple]:
        """(code, message) notices, e.g. rule_override."""
        return self._c.notices()

    def rules_text(self, format: str = "text") -> str:
        """The listing `tlcost rules` prints."""
        from .report import _fmt
        return self._c.write_rules(_fmt(format))


_default: Optional[Engine] = None


def default_engine() -> Engine:
    """The engine used when none is given: built-ins + TLCOST_PLUGIN_PATH."""
    global _default
    if _default is None:
        _default = Engine()
    return _default
