"""Live capture: every ATen call of one step goes into libtlcost as it runs.

A TorchDispatchMode turns each call into a tlc_op (schema-ordered
arguments with defaults filled, results, module path, phase) and pushes it
into a live evaluation; nothing per op stays in Python. The records are the
op log v1 records tools/capture_oplog.py always wrote (docs/capture.md).
"""

import math
import operator
import statistics
import threading
import time
from typing import Any, Callable, Dict, NamedTuple, Optional, Sequence

import torch
from torch.utils._python_dispatch import TorchDispatchMode

import _tlcost

from .engine import PHASES, Engine, Tensor, default_engine
from .errors import UnavailableError, _make, usage
from .report import Report

MODES = ("fwd_grad", "fwd_nograd_eval", "train")
TOOL = "tlcost-capture 0.2"
_PHASE = {p: i for i, p in enumerate(PHASES)}

# Enum defaults in schemas come back from torch._C as plain ints; these are
# c10's enum orders (c10/core/MemoryFormat.h, Layout.h, ScalarType.h).
_ENUMS = {
    "MemoryFormat": ("contiguous_format", "preserve_format", "channels_last",
                     "channels_last_3d"),
    "Layout": ("strided", "sparse_coo", "sparse_csr", "mkldnn", "sparse_csc",
               "sparse_bsr", "sparse_bsc"),
    "ScalarType": ("uint8", "int8", "int16", "int32", "int64", "float16",
                   "float32", "float64", "complex32", "complex64",
                   "complex128", "bool", "qint8", "quint8", "qint32",
                   "bfloat16"),
}


def _strip_torch(text: str) -> str:
    return text[len("torch."):] if text.startswith("torch.") else text


def encode_other(v: Any) -> Any:
    """Values the C binding does not know itself, as op log v1 writes them."""
    if isinstance(v, (torch.dtype, torch.layout, torch.memory_format)):
        return _strip_torch(str(v))
    if isinstance(v, torch.device):
        return str(v)
    if isinstance(v, torch.Generator):
        return "Generator"
    if isinstance(v, complex):
        return str(v)
    sym = getattr(torch, "SymInt", None)
    if sym is not None and isinstance(v, sym):
        return int(v)
    return str(v)


def _configure() -> None:
    dtypes = {}
    for name in dir(torch):
        obj = getattr(torch, name, None)
        if isinstance(obj, torch.dtype):
            dtypes[obj] = _strip_torch(str(obj))
    _tlcost.configure(error_factory=_make, tensor_type=torch.Tensor,
                      encode_other=encode_other, dtype_names=dtypes,
                      strided=torch.strided, tensor_view=Tensor)


_configure()


def _enum_default(type_text: str, value: Any) -> Any:
    table = _ENUMS.get(type_text.rstrip("?"))
    if table is not None and isinstance(value, int) \
            and not isinstance(value, bool) and 0 <= value < len(table):
        return table[value]
    if isinstance(value, float) and not math.isfinite(value):
        return value
    return value


class _Binder:
    """Places one op's args/kwargs in schema order with defaults filled
    (made once per distinct op overload)."""

    __slots__ = ("name", "overload", "params")

    def __init__(self, func):
        schema = func._schema
        self.name = schema.name
        self.overload = func._overloadname or "default"
        self.params = []
        for a in schema.arguments:
            has = a.has_default_value()
            default = _enum_default(str(a.type), a.default_value) if has else None
            self.params.append((a.name, a.kwarg_only, has, default))

    def bind(self, args, kwargs):
        pos, kw = [], None
        i, n = 0, len(args)
        for name, kwarg_only, has, default in self.params:
            if not kwarg_only and i < n:
                value = args[i]
                i += 1
            elif name in kwargs:
                value = kwargs[name]
            elif has:
                value = default
            elif kwarg_only:
                continue
            else:
                value = None
            if kwarg_only:
                if kw is None:
                    kw = {}
                kw[name] = value
            else:
                pos.append(value)
        return pos, kw


class ModuleTracker:
    """The stack of module calls whose forward is running (pre-hooks push
    (path, class, call index), forward hooks pop)."""

    def __init__(self, model: torch.nn.Module):
        self.stack = []
        self.calls = {}
        self.handles = []
        for name, mod in model.named_modules():
            self.handles.append(mod.register_forward_pre_hook(self._pre(name)))
            self.handles.append(mod.register_forward_hook(self._post(name)))

    def _pre(self, name):
        def hook(mod, _inputs):
            n = self.calls.get(name, 0)
            self.calls[name] = n + 1
            self.stack.append((name, type(mod).__name__, n))
        return hook

    def _post(self, name):
        def hook(_mod, _inputs, _output):
            while self.stack:  # pop back to this module (a child may have raised)
                if self.stack.pop()[0] == name:
                    break
        return hook

    def current(self):
        return self.stack[-1] if self.stack else None

    def remove(self) -> None:
        for h in self.handles:
            h.remove()
        self.handles = []


# Higher-order operators (torch >= 2.5: flex_attention and its backward,
# cond, ...) reach a TorchDispatchMode as the operator object itself, not
# as ATen calls: torch/_ops.py HigherOrderOperator.dispatch hands one to a
# mode that sets supports_higher_order_operators (torch >= 2.6), or to a
# handler registered for the mode's class (py_impl), and raises
# NotImplementedError otherwise. Torch 1.13 has none.
_HOP_TYPES = tuple(t for t in (getattr(torch._ops, "HigherOrderOperator", None),)
                   if t is not None)


def _dense_kernel(hop):
    """The operator's eager kernel (py_kernels at CompositeExplicitAutograd:
    flex_attention's sdpa_dense, the math_attention fallback eager mode
    runs), or None."""
    key = getattr(torch._C.DispatchKey, "CompositeExplicitAutograd", None)
    kernels = getattr(hop, "py_kernels", None) or {}
    return kernels.get(key) if key is not None else None


def _plain(v: Any) -> Any:
    """A higher-order operator's argument as an op record can hold it:
    tensors, numbers, strings and None; lists and tuples of those; anything
    else (a score_mod graph, a BlockMask) as None, never its repr."""
    if v is None or isinstance(v, (torch.Tensor, bool, int, float, str)):
        return v
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return None


class LiveRecorder(TorchDispatchMode):
    """Pushes every dispatched op into a _tlcost.Eval as it returns."""

    # torch >= 2.6: higher-order operators come to __torch_dispatch__
    supports_higher_order_operators = True

    def __init__(self, ev, tracker: Optional[ModuleTracker] = None,
                 timing: bool = True, nvtx=None):
        super().__init__()
        self.ev = ev
        self.nvtx = nvtx
        self.tracker = tracker
        self.timing = timing
        self.phase = "other"
        self.count = 0
        self._binders: Dict[Any, _Binder] = {}

    def run_hop(self, hop, args, kwargs):
        """A higher-order operator, called with this mode popped (as torch
        calls a mode's handler). With an eager kernel (flex_attention's
        dense fallback) the kernel runs under this mode, so the ATen ops
        it runs (matmul, softmax, ...) are recorded and costed as eager
        mode executes them. Without one the operator runs unrecorded
        inside and is recorded as one op, higher_order::<name>, which no
        rule covers: the ledger lists it and the totals say lower bound,
        never a silent gap."""
        dense = _dense_kernel(hop)
        if dense is not None:
            with self:
                return dense(*args, **kwargs)
        name = "higher_order::" + str(getattr(hop, "_name", None) or type(hop).__name__)
        start = time.perf_counter_ns()
        result = hop(*args, **kwargs)
        end = time.perf_counter_ns()
        outs = list(result) if isinstance(result, (tuple, list)) else [result]
        outs = [o if isinstance(o, torch.Tensor) else None for o in outs]
        phase = self.phase
        where = self.tracker.current() if self.tracker and phase == "forward" else None
        mod, mtype, mcall = where if where is not None else (None, None, None)
        t = (end - start, start, threading.get_native_id()) if self.timing else (None, None, None)
        self.ev.push(self.count, name, "", _PHASE[phase], mod, mtype, mcall,
                     [_plain(a) for a in args], {k: _plain(v) for k, v in kwargs.items()},
                     outs, t[0], t[1], t[2])
        self.count += 1
        return result

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if _HOP_TYPES and isinstance(func, _HOP_TYPES):
            return self.run_hop(func, args, kwargs)
        b = self._binders.get(func)
        if b is None:
            b = self._binders[func] = _Binder(func)
        nv = self.nvtx
        if nv is not None:
            # tlcost::<op>#<call_id>: the call id is the op's log id
            nv.op_enter(b.name, self.count)
            try:
                start = time.perf_counter_ns()
                result = func(*args, **kwargs)
                end = time.perf_counter_ns()
            finally:
                nv.op_exit(self.count)
        else:
            start = time.perf_counter_ns()
            result = func(*args, **kwargs)
            end = time.perf_counter_ns()
        pos, kw = b.bind(args, kwargs)
        outs = list(result) if isinstance(result, (tuple, list)) else [result]
        phase = self.phase
        where = self.tracker.current() if self.tracker and phase == "forward" else None
        mod, mtype, mcall = where if where is not None else (None, None, None)
        if self.timing:
            t = (end - start, start, threading.get_native_id())
        else:
            t = (None, None, None)
        self.ev.push(self.count, b.name, b.overload, _PHASE[phase], mod, mtype,
                     mcall, pos, kw, outs, t[0], t[1], t[2])
        self.count += 1
        return result


def _register_hops() -> None:
    """torch 2.5 (no supports_higher_order_operators): flex_attention and
    its backward look for a handler registered for the mode's class."""
    try:
        from torch._higher_order_ops import flex_attention as fa
    except Exception:  # torch < 2.5: no such operators
        return
    for name in ("flex_attention", "flex_attention_backward"):
        hop = getattr(fa, name, None)
        table = getattr(hop, "python_key_table", None)
        if hop is None or table is None or LiveRecorder in table:
            continue
        hop.py_impl(LiveRecorder)(
            lambda mode, *a, _hop=hop, **k: mode.run_hop(_hop, a, k))


_register_hops()


# ---------------------------------------------------------------- the step

def _leaves(out: Any):
    """Floating tensors of a model output: a tensor, a (named)tuple, a
    list or a dict (GoogLeNet/Inception aux heads, segmentation dicts,
    detection lists), depth first."""
    if isinstance(out, torch.Tensor):
        if out.is_floating_point() or out.is_complex():
            yield out
    elif isinstance(out, dict):
        for v in out.values():
            yield from _leaves(v)
    elif isinstance(out, (list, tuple)):
        for v in out:
            yield from _leaves(v)


def default_loss(output: Any, target: Optional[torch.Tensor] = None) -> torch.Tensor:
    """Every floating tensor of the output contributes: cross entropy
    against ``target`` for [N, C] logits with N == len(target), ``.sum()``
    otherwise."""
    loss = None
    for t in _leaves(output):
        if target is not None and t.dim() == 2 and t.shape[0] == target.shape[0]:
            term = torch.nn.functional.cross_entropy(t, target)
        else:
            term = t.sum()
        loss = term if loss is None else loss + term
    if loss is None:
        raise usage("capture_loss_unavailable",
                    "the model output holds no floating tensor to take a loss of",
                    "pass loss_fn=lambda output: ... to tlcost.capture")
    return loss


def _optimizer(model: torch.nn.Module, name: str):
    if name == "adam":
        return torch.optim.Adam(model.parameters(), lr=1e-3)
    if name == "sgd":
        return torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    raise usage("invalid_argument", "unknown optimizer %r" % name,
                "use optimizer='sgd' or 'adam'")


def _loss_of(out, target, loss_fn):
    return loss_fn(out) if loss_fn is not None else default_loss(out, target)


def run_step(model, inputs, mode, rec=None, target=None, loss_fn=None,
             optimizer="sgd", opt=None):
    """One step of ``mode``; ``rec`` (a LiveRecorder) sees it when given."""
    import contextlib
    ctx = rec if rec is not None else contextlib.nullcontext()

    def phase(p):
        if rec is not None:
            rec.phase = p

    if mode == "fwd_nograd_eval":
        model.eval()
        with torch.no_grad(), ctx:
            phase("forward")
            model(*inputs)
            phase("other")
        return
    model.train()
    if mode == "train" and opt is None:
        opt = _optimizer(model, optimizer)
    with ctx:
        phase("forward")
        out = model(*inputs)
        if mode == "train":
            # the loss belongs to the forward phase, as in every op log so far
            loss = _loss_of(out, target, loss_fn)
            phase("backward")
            loss.backward()
            phase("optimizer")
            opt.step()
        phase("other")
    if opt is not None:
        opt.zero_grad(set_to_none=True)  # outside the capture: dispatches nothing


class _Snapshot:
    """What a step changes in the caller's model, taken before it and put
    back after it (tlcost.capture and measure_clean_step measure, they do
    not train): the train/eval flag of every submodule; in the modes that
    run the model in train() the buffers (BatchNorm running statistics and
    batch counts); in train mode also every parameter's value and .grad
    (backward accumulates into it, the optimizer step moves the weights).
    Parameters, buffers and gradients keep their identity (values are
    copied back in place), so the caller's optimizer and references still
    hold the same tensors."""

    def __init__(self, model: torch.nn.Module, mode: str):
        self.flags = [(m, m.training) for m in model.modules()]
        self.buffers = []
        self.params = []
        if mode != "fwd_nograd_eval":
            self.buffers = [(b, b.detach().clone()) for b in model.buffers()]
        if mode == "train":
            self.params = [(p, p.detach().clone(), p.grad,
                            None if p.grad is None else p.grad.detach().clone())
                           for p in model.parameters()]

    def restore(self) -> None:
        with torch.no_grad():
            for b, v in self.buffers:
                b.copy_(v)
            for p, v, grad, g in self.params:
                p.copy_(v)
                if grad is not None:
                    grad.copy_(g)   # backward accumulated into it in place
                p.grad = grad
        for m, training in self.flags:
            m.training = training


def _check_mode(mode: str) -> None:
    if mode not in MODES:
        raise usage("capture_mode_unknown", "unknown mode %r" % (mode,),
                    "use one of: %s" % ", ".join(MODES))


_INT64_MAX = 2 ** 63 - 1


def _bad_arg(name: str, value: Any, want: str):
    text = repr(value)
    text = text if len(text) <= 60 else text[:57] + "..."
    return usage("capture_argument_invalid",
                 "%s=%s: %s" % (name, text, want),
                 "pass %s as %s (docs/python.md, tlcost.capture)" % (name, want))


def _check_str(name: str, value: Any) -> None:
    if value is not None and (not isinstance(value, str) or "\0" in value):
        raise _bad_arg(name, value, "None or a str without NUL characters")


def _check_args(model, mode, engine, target, loss_fn, optimizer, flags,
                model_name, tokens, meta, device) -> None:
    """Every argument of capture, checked before the model runs, so that
    what is written is a log tlcost's reader takes (op log v1: tokens a
    non-negative 64-bit integer, strings without NUL, meta a JSON object)."""
    _check_step_args(model, mode, engine, target, loss_fn, optimizer, flags)
    _check_str("model_name", model_name)
    _check_str("device", device)
    _check_tokens(tokens)
    _check_meta(meta)


def _check_step_args(model, mode, engine, target, loss_fn, optimizer, flags) -> None:
    _check_mode(mode)
    if not isinstance(model, torch.nn.Module):
        raise _bad_arg("model", model, "a torch.nn.Module")
    if engine is not None and not isinstance(engine, Engine):
        raise _bad_arg("engine", engine, "None or a tlcost.Engine")
    if target is not None and not isinstance(target, torch.Tensor):
        raise _bad_arg("target", target, "None or a torch.Tensor")
    if loss_fn is not None and not callable(loss_fn):
        raise _bad_arg("loss_fn", loss_fn, "None or a callable taking the model output")
    if optimizer not in ("sgd", "adam"):
        raise _bad_arg("optimizer", optimizer, "'sgd' or 'adam'")
    for name, value in flags.items():
        if not isinstance(value, bool):
            raise _bad_arg(name, value, "True or False")


def _check_tokens(tokens: Any) -> None:
    if tokens is None:
        return
    try:
        n = None if isinstance(tokens, bool) else operator.index(tokens)
    except TypeError:
        n = None
    if n is None or not 0 <= n <= _INT64_MAX:
        raise _bad_arg("tokens", tokens, "None or an int from 0 to 2**63-1")


def _check_meta(meta: Any) -> None:
    if meta is None:
        return
    if not isinstance(meta, dict) or not all(isinstance(k, str) for k in meta):
        raise _bad_arg("meta", meta, "None or a dict with str keys")
    try:
        _json(meta)
    except (TypeError, ValueError) as e:
        raise _bad_arg("meta", meta, "a dict of JSON values (no NaN or infinity): %s" % e) \
            from None
    if _has_nul(meta):
        raise _bad_arg("meta", meta, "a dict whose strings hold no NUL character")


def _has_nul(v: Any) -> bool:
    if isinstance(v, str):
        return "\0" in v
    if isinstance(v, dict):
        return any(_has_nul(k) or _has_nul(x) for k, x in v.items())
    if isinstance(v, (list, tuple)):
        return any(_has_nul(x) for x in v)
    return False


def _as_inputs(inputs: Any) -> tuple:
    if isinstance(inputs, tuple):
        return inputs
    if isinstance(inputs, list):
        return tuple(inputs)
    return (inputs,)


def header(model_name: Optional[str], model: Optional[torch.nn.Module],
           tokens: Optional[int], meta: Optional[Dict[str, Any]] = None,
           device: Optional[str] = "cpu") -> Dict[str, Any]:
    """The op log v1 header of a capture (or of a tlcost.counting() block:
    without a model no params, without a device none)."""
    h = {"format": "tlcost-oplog", "version": 1,
         "producer": "%s (torch %s)" % (TOOL, torch.__version__)}
    if model_name is not None:
        h["model"] = model_name
    if device is not None:
        h["device"] = device
    if model is not None:
        h["params"] = sum(p.numel() for p in model.parameters())
    if tokens is not None:
        h["tokens"] = int(tokens)
    if meta:
        h["meta"] = meta
    return h


def live_eval(eng: Engine, head: Dict[str, Any], keep_ops: bool, record: bool):
    """The live evaluation capture and counting() push into, with the
    header's facts set."""
    ev = _tlcost.Eval(eng._c, keep_ops=keep_ops, record=record)
    ev.set_info(format="tlcost-oplog", producer=head["producer"],
                model=head.get("model"), device=head.get("device"),
                params=head.get("params", -1), tokens=head.get("tokens", -1),
                meta_json=_json(head["meta"]) if head.get("meta") else None)
    return ev


def capture(model: torch.nn.Module, inputs: Any, mode: str = "fwd_grad", *,
            engine: Optional[Engine] = None, target: Optional[torch.Tensor] = None,
            loss_fn: Optional[Callable[[Any], torch.Tensor]] = None,
            optimizer: str = "sgd", timing: bool = True, record: bool = True,
            keep_ops: bool = True, model_name: Optional[str] = None,
            tokens: Optional[int] = None, meta: Optional[Dict[str, Any]] = None,
            device: Optional[str] = None, emit_nvtx: bool = False) -> Report:
    """Capture one step of ``model`` on ``inputs`` through libtlcost.

    mode: "fwd_grad" (train(), autograd on, one forward), "fwd_nograd_eval"
    (eval() under no_grad), "train" (forward, loss, backward, optimizer
    step; loss_fn(output) or the default loss against ``target``).
    record=True keeps the op log in an anonymous temporary file for
    Report.save; keep_ops=True keeps one C row per op for tree/profile/
    roofline/join. ``tokens`` goes to the header (absent when None: never
    guessed). Nothing is downloaded.
    emit_nvtx=True wraps every op in an NVTX range named
    ``tlcost::<op>#<call_id>`` (the call id is the op's id in the log) for
    Nsight Systems (docs/nvtx.md); without CUDA (torch.cuda.is_available()
    false), or where no NVTX tool takes ranges (not run under nsys, no
    NVTX_INJECTION64_PATH), it raises tlcost.UnavailableError with code
    emit_nvtx_unavailable before anything runs, saying which.
    Every argument is checked before the model runs
    (capture_argument_invalid). The model is left as it was found: the
    train/eval flags of its modules, its buffers and, in train mode, its
    parameters and their .grad are put back after the step (train mode
    holds a copy of the parameters and grads meanwhile).
    """
    _check_args(model, mode, engine, target, loss_fn, optimizer,
                {"timing": timing, "record": record, "keep_ops": keep_ops,
                 "emit_nvtx": emit_nvtx}, model_name, tokens, meta, device)
    if mode != "train" and (loss_fn is not None or target is not None):
        raise usage("capture_option_inapplicable",
                    "loss_fn and target apply only to mode='train'",
                    "drop them or use mode='train'")
    nvtx = _start_nvtx() if emit_nvtx else None
    inputs = _as_inputs(inputs)
    eng = engine or default_engine()
    dev = device or _device_of(model, inputs)
    meta = dict(meta or {})
    meta.setdefault("mode", mode)
    if mode == "train":
        meta.setdefault("optimizer", optimizer)
    head = header(model_name, model, tokens, meta, dev)
    ev = live_eval(eng, head, keep_ops, record)
    tracker = ModuleTracker(model)
    rec = LiveRecorder(ev, tracker, timing=timing, nvtx=nvtx)
    saved = _Snapshot(model, mode)
    try:
        run_step(model, inputs, mode, rec, target, loss_fn, optimizer)
    finally:
        tracker.remove()
        saved.restore()
    ev.finish()
    return Report(ev, eng, head if record else None)


def _start_nvtx():
    """NVTX ranges show which kernels ran under which op: without CUDA no
    kernel runs, so the option refuses first on that (as
    torch.autograd.profiler.emit_nvtx does), then where no NVTX tool takes
    the ranges (libtlcost-nvtx's tlc_nvtx_start)."""
    if not torch.cuda.is_available():
        raise UnavailableError(
            "emit_nvtx_unavailable",
            "no CUDA device: torch.cuda.is_available() is false on this host, so no "
            "kernel would run under the NVTX ranges",
            "capture on a machine with an NVIDIA GPU and driver (under nsys profile "
            "--trace=cuda,nvtx), or capture without NVTX ranges (emit_nvtx=False)")
    nvtx = _tlcost.Nvtx()
    nvtx.start()
    return nvtx


def _json(obj) -> str:
    import json
    return json.dumps(obj, separators=(",", ":"), allow_nan=False)


def _device_of(model, inputs) -> str:
    for p in model.parameters():
        return _device_name(p.device)
    for x in inputs:
        if isinstance(x, torch.Tensor):
            return _device_name(x.device)
    return "cpu"


def _device_name(d: torch.device) -> str:
    if d.type == "cuda":
        return torch.cuda.get_device_name(d)
    return str(d)


class StepTime(NamedTuple):
    """Uninstrumented step wall times: ``seconds`` is their median, the
    one lawful MFU denominator (contract section 7)."""
    seconds: float
    samples: tuple
    mode: str


def measure_clean_step(model: torch.nn.Module, inputs: Any, steps: int = 10,
                       mode: str = "train", warmup: int = 1,
                       target: Optional[torch.Tensor] = None,
                       loss_fn: Optional[Callable[[Any], torch.Tensor]] = None,
                       optimizer: str = "sgd") -> StepTime:
    """Time ``steps`` uninstrumented steps (no dispatch mode, no hooks)
    after ``warmup`` untimed ones; CUDA is synchronised around each step."""
    _check_mode(mode)
    if steps < 1 or warmup < 0:
        raise usage("invalid_argument", "steps must be >= 1 and warmup >= 0",
                    "pass steps=10 (the default)")
    inputs = _as_inputs(inputs)
    opt = _optimizer(model, optimizer) if mode == "train" else None
    sync = torch.cuda.synchronize if torch.cuda.is_available() else (lambda: None)
    samples = []
    saved = _Snapshot(model, mode)
    try:
        for i in range(warmup + steps):
            sync()
            t0 = time.perf_counter()
            run_step(model, inputs, mode, None, target, loss_fn, optimizer, opt)
            sync()
            if i >= warmup:
                samples.append(time.perf_counter() - t0)
    finally:
        saved.restore()
    return StepTime(statistics.median(samples), tuple(samples), mode)
