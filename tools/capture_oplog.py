#!/usr/bin/env python3
"""Capture a PyTorch model's ATen operator calls as a tlcost op log (v1).

The capture hooks the dispatcher with TorchDispatchMode, so it records every
operator that reaches the Python dispatch key: the top-level ATen calls after
CompositeImplicitAutograd decomposition (aten::linear shows up as aten::t +
aten::addmm, aten::conv2d as aten::convolution), in the forward pass, the
autograd backward pass and the optimizer step alike.  Nested calls made from
inside a kernel are not seen, so no record has a `parent`.

The output follows op log v1 (shared/spec/oplog-v1.md): JSON Lines, one header
line, then one record per op; a path ending in .gz is written gzip-compressed
with a zero mtime and no file name, so the container itself is reproducible.

Usage (Debian's torch 1.13 lives in /usr/bin/python3):

    /usr/bin/python3 tools/capture_oplog.py --model resnet50 --mode fwd_grad \
        --out resnet50.fwd_grad.oplog.jsonl.gz

Modes:
    fwd_grad          model.train(), autograd on, one forward pass (no loss)
    fwd_nograd_eval   model.eval() under torch.no_grad(), one forward pass
    train             model.train(); forward, loss, loss.backward(),
                      optimizer.step() (SGD momentum 0.9, or --optimizer adam)

Your own model: --model package.module:factory or --model path/file.py:factory,
where factory() returns either an nn.Module (fed a random image batch of
--input-shape) or a tuple (module, example_inputs_tuple).  From Python, call
capture(model, inputs, mode=...), then header(...) and write_log(...).
See docs/capture.md.
"""

import argparse
import gzip
import importlib
import importlib.util
import io
import json
import math
import os
import sys
import threading
import time

import torch
from torch.utils._python_dispatch import TorchDispatchMode

FORMAT = "tlcost-oplog"
VERSION = 1
TOOL = "tlcost-capture 0.1"
MODES = ("fwd_grad", "fwd_nograd_eval", "train")

# Enum defaults in schemas come back from torch._C as plain ints; these are
# c10's enum orders (c10/core/MemoryFormat.h, Layout.h, ScalarType.h).
_MEMORY_FORMATS = ("contiguous_format", "preserve_format", "channels_last",
                   "channels_last_3d")
_LAYOUTS = ("strided", "sparse_coo", "sparse_csr", "mkldnn", "sparse_csc",
            "sparse_bsr", "sparse_bsc")
_SCALAR_TYPES = ("uint8", "int8", "int16", "int32", "int64", "float16",
                 "float32", "float64", "complex32", "complex64", "complex128",
                 "bool", "qint8", "quint8", "qint32", "bfloat16")


# ---------------------------------------------------------------- encoding

def _strip_torch(text):
    return text[len("torch."):] if text.startswith("torch.") else text


def dtype_name(dtype):
    """torch.float32 -> "float32" (the spec's names are torch's own)."""
    return _strip_torch(str(dtype))


def encode_tensor(t):
    """A tensor as the spec's {"shape","dtype","stride","device"} object."""
    out = {"shape": [int(d) for d in t.shape], "dtype": dtype_name(t.dtype)}
    if t.layout == torch.strided:
        try:
            out["stride"] = [int(s) for s in t.stride()]
        except RuntimeError:  # e.g. nested tensors have no strides
            pass
    out["device"] = str(t.device)
    return out


def encode_float(x):
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def encode_value(v):
    """Any dispatcher argument or result as a JSON value per the spec."""
    if v is None:
        return None
    if isinstance(v, torch.Tensor):
        return encode_tensor(v)
    if isinstance(v, bool):
        return v
    if isinstance(v, int):
        return v
    if isinstance(v, float):
        return encode_float(v)
    if isinstance(v, complex):
        return str(v)
    if isinstance(v, str):
        return v
    if isinstance(v, (list, tuple)):
        return [encode_value(x) for x in v]
    if isinstance(v, (torch.dtype, torch.layout, torch.memory_format)):
        return _strip_torch(str(v))
    if isinstance(v, torch.device):
        return str(v)
    if isinstance(v, torch.Generator):
        return "Generator"
    if isinstance(v, (torch.SymInt if hasattr(torch, "SymInt") else ())):
        return int(v)
    return str(v)


def _enum_default(type_text, value):
    """Map an int enum default (e.g. MemoryFormat memory_format=0) to a name."""
    base = type_text.rstrip("?")
    table = {"MemoryFormat": _MEMORY_FORMATS, "Layout": _LAYOUTS,
             "ScalarType": _SCALAR_TYPES}.get(base)
    if table is not None and isinstance(value, int) \
            and not isinstance(value, bool) and 0 <= value < len(table):
        return table[value]
    return encode_value(value)


def bind_schema(schema, args, kwargs):
    """Place args/kwargs in schema order, filling schema defaults.

    Returns (positional_list, kwarg_only_dict).  Arguments that are neither
    given nor defaulted (only possible for malformed calls) are left out of
    the kwargs dict; a positional hole would break schema order, so it is
    encoded as null.
    """
    kwargs = kwargs or {}
    pos, kw = [], {}
    i = 0
    for arg in schema.arguments:
        if not arg.kwarg_only and i < len(args):
            value = encode_value(args[i])
            i += 1
        elif arg.name in kwargs:
            value = encode_value(kwargs[arg.name])
        elif arg.has_default_value():
            value = _enum_default(str(arg.type), arg.default_value)
        elif arg.kwarg_only:
            continue
        else:
            value = None
        if arg.kwarg_only:
            kw[arg.name] = value
        else:
            pos.append(value)
    return pos, kw


def encode_outputs(result):
    if isinstance(result, (tuple, list)):
        return [encode_value(r) for r in result]
    return [encode_value(result)]


# ------------------------------------------------------------ module stack

class ModuleTracker:
    """Keeps the stack of module calls whose forward is running.

    Pre-hooks push (path, class, call index), forward hooks pop.  Backward
    ops run after every forward hook has fired, so the stack is empty then.
    """

    def __init__(self, model):
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
            # Pop back to this module, tolerating a child that raised.
            while self.stack:
                if self.stack.pop()[0] == name:
                    break
        return hook

    def current(self):
        return self.stack[-1] if self.stack else None

    def remove(self):
        for h in self.handles:
            h.remove()
        self.handles = []


# ---------------------------------------------------------------- recorder

class OpRecorder(TorchDispatchMode):
    """Records one dict per dispatched op; `phase` is set by the driver."""

    def __init__(self, tracker=None, timing=True):
        super().__init__()
        self.tracker = tracker
        self.timing = timing
        self.phase = "other"
        self.records = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        start = time.perf_counter_ns()
        result = func(*args, **kwargs)
        end = time.perf_counter_ns()
        self.records.append(self._record(func, args, kwargs, result,
                                         start, end))
        return result

    def _record(self, func, args, kwargs, result, start, end):
        schema = func._schema
        rec = {"id": len(self.records), "op": schema.name,
               "overload": func._overloadname or "default",
               "phase": self.phase}
        where = self.tracker.current() if self.tracker else None
        if where is not None and self.phase == "forward":
            rec["module"], rec["module_type"], rec["module_call"] = where
        pos, kw = bind_schema(schema, args, kwargs)
        rec["args"] = pos
        if kw:
            rec["kwargs"] = kw
        rec["outputs"] = encode_outputs(result)
        if self.timing:
            rec["host_ns"] = end - start
            rec["start_ns"] = start
            rec["thread"] = threading.get_native_id()
        return rec


# ----------------------------------------------------------------- driving

def _loss(output, target):
    if target is None:
        return output.sum()
    return torch.nn.functional.cross_entropy(output, target)


def _make_optimizer(model, name):
    if name == "adam":
        return torch.optim.Adam(model.parameters(), lr=1e-3)
    return torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)


def run_step(model, inputs, mode, recorder, target=None, optimizer="sgd"):
    """Run one step of `mode` with `recorder` active, setting its phase."""
    if mode == "fwd_nograd_eval":
        model.eval()
        with torch.no_grad(), recorder:
            recorder.phase = "forward"
            model(*inputs)
        return
    model.train()
    opt = _make_optimizer(model, optimizer) if mode == "train" else None
    with recorder:
        recorder.phase = "forward"
        out = model(*inputs)
        if mode == "fwd_grad":
            return
        loss = _loss(out, target)
        recorder.phase = "backward"
        loss.backward()
        recorder.phase = "optimizer"
        opt.step()
    recorder.phase = "other"


def header(model_name, model, tokens, meta=None):
    h = {"format": FORMAT, "version": VERSION,
         "producer": "%s (torch %s)" % (TOOL, torch.__version__),
         "model": model_name, "device": "cpu",
         "params": sum(p.numel() for p in model.parameters()),
         "tokens": tokens}
    if meta:
        h["meta"] = meta
    return h


def capture(model, inputs, mode="fwd_grad", target=None, optimizer="sgd",
            timing=True):
    """Capture one step of `model` on `inputs` (a tuple); return records."""
    if mode not in MODES:
        raise ValueError("mode must be one of %s" % ", ".join(MODES))
    tracker = ModuleTracker(model)
    recorder = OpRecorder(tracker, timing=timing)
    try:
        run_step(model, inputs, mode, recorder, target, optimizer)
    finally:
        tracker.remove()
    return recorder.records


def dumps(obj):
    return json.dumps(obj, separators=(",", ":"), allow_nan=False)


def write_log(path, head, records):
    """Write header + records; gzip (mtime 0, level 9) when path ends .gz."""
    text = "".join(dumps(x) + "\n" for x in [head] + records).encode("utf-8")
    if path == "-":
        sys.stdout.buffer.write(text)
        return
    if path.endswith(".gz"):
        buf = io.BytesIO()
        with gzip.GzipFile(filename="", mode="wb", compresslevel=9,
                           fileobj=buf, mtime=0) as gz:
            gz.write(text)
        text = buf.getvalue()
    with open(path, "wb") as f:
        f.write(text)


# ------------------------------------------------------------------ models

def _transformer_encoder():
    layer = torch.nn.TransformerEncoderLayer(d_model=512, nhead=8,
                                             dim_feedforward=2048,
                                             batch_first=True)
    return torch.nn.TransformerEncoder(layer, num_layers=6)


def _load_factory(spec):
    """'pkg.mod:fn' or 'path/file.py:fn' -> the callable."""
    where, _, fn = spec.rpartition(":")
    if where.endswith(".py") or os.sep in where:
        modspec = importlib.util.spec_from_file_location("user_model", where)
        mod = importlib.util.module_from_spec(modspec)
        modspec.loader.exec_module(mod)
    else:
        mod = importlib.import_module(where)
    return getattr(mod, fn)


def build(name, batch, seq, input_shape):
    """Return (model, inputs, target, tokens) for a model name or factory."""
    if name == "transformer_encoder":
        x = torch.randn(batch, seq, 512)
        return _transformer_encoder(), (x,), None, batch * seq
    if ":" in name:
        made = _load_factory(name)()
        if isinstance(made, tuple):
            model, inputs = made
            first = inputs[0] if inputs else None
            tokens = int(first.shape[0]) if isinstance(first, torch.Tensor) \
                and first.dim() > 0 else batch
            return model, tuple(inputs), None, tokens
        return made, (torch.randn(batch, *input_shape),), None, batch
    import torchvision
    model = torchvision.models.get_model(name, weights=None)
    x = torch.randn(batch, *input_shape)
    target = torch.randint(0, 1000, (batch,))  # torchvision: 1000 classes
    return model, (x,), target, batch


def _log_name(model):
    """Header `model`: the name, or file/module:function for a factory."""
    if ":" not in model:
        return model
    where, _, fn = model.rpartition(":")
    where = os.path.basename(where)
    return "%s:%s" % (where[:-3] if where.endswith(".py") else where, fn)


def parse_args(argv):
    p = argparse.ArgumentParser(
        description="Capture a model's ATen op calls as a tlcost op log v1.")
    p.add_argument("--model", required=True,
                   help="torchvision model name, transformer_encoder, or "
                        "module:factory / file.py:factory")
    p.add_argument("--mode", choices=MODES, default="fwd_grad")
    p.add_argument("--batch", type=int, default=1)
    p.add_argument("--seq", type=int, default=128,
                   help="sequence length (transformer_encoder)")
    p.add_argument("--input-shape", default="3,224,224",
                   help="per-item input shape for image models (C,H,W)")
    p.add_argument("--optimizer", choices=("sgd", "adam"), default="sgd")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=0,
                   help="torch.set_num_threads (0 = leave as is)")
    p.add_argument("--no-timing", action="store_true",
                   help="omit host_ns/start_ns/thread (byte-reproducible)")
    p.add_argument("--out", required=True,
                   help="output path; .gz = gzip; - = stdout")
    return p.parse_args(argv)


def main(argv=None):
    a = parse_args(argv)
    torch.manual_seed(a.seed)
    if a.threads:
        torch.set_num_threads(a.threads)
    shape = tuple(int(x) for x in a.input_shape.split(","))
    model, inputs, target, tokens = build(a.model, a.batch, a.seq, shape)
    records = capture(model, inputs, a.mode, target, a.optimizer,
                      timing=not a.no_timing)
    batch = tokens if ":" in a.model else a.batch
    meta = {"mode": a.mode, "batch": batch, "seed": a.seed,
            "weights": "random"}
    if a.mode == "train":
        meta["optimizer"] = a.optimizer
    if a.model == "transformer_encoder":
        meta["seq"] = a.seq
    write_log(a.out, header(_log_name(a.model), model, tokens, meta),
              records)
    print("%s: %d ops" % (a.out, len(records)), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
