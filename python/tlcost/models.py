"""Models for `python3 -m tlcost capture --model NAME`: torchvision names
(random weights, nothing downloaded), transformer_encoder, and user
factories ``package.module:function`` / ``path/file.py:function``."""

import importlib
import importlib.util
import inspect
import os
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Tuple

import torch

from .errors import NotFoundError, usage


class Built(NamedTuple):
    model: torch.nn.Module
    inputs: tuple
    target: Optional[torch.Tensor]
    tokens: Optional[int]      # None: not known, left out of the header
    loss_fn: Optional[Callable[[Any], torch.Tensor]]
    meta: Dict[str, Any]


def inapplicable(option: str, why: str, remedy: str):
    return usage("capture_option_inapplicable",
                 "%s does not apply: %s" % (option, why), remedy)


def _transformer_encoder(batch: int, seq: int) -> Built:
    layer = torch.nn.TransformerEncoderLayer(d_model=512, nhead=8,
                                             dim_feedforward=2048,
                                             batch_first=True)
    model = torch.nn.TransformerEncoder(layer, num_layers=6)
    x = torch.randn(batch, seq, 512)
    return Built(model, (x,), None, batch * seq, None,
                 {"batch": batch, "seq": seq})


def _load_factory(spec: str) -> Callable:
    where, _, fn = spec.rpartition(":")
    if where.endswith(".py") or os.sep in where:
        if not os.path.exists(where):
            raise NotFoundError("capture_model_unknown", "no such file %s" % where,
                                "give path/file.py:function of an existing file")
        modspec = importlib.util.spec_from_file_location("tlcost_user_model", where)
        mod = importlib.util.module_from_spec(modspec)
        modspec.loader.exec_module(mod)
    else:
        mod = importlib.import_module(where)
    if not hasattr(mod, fn):
        raise NotFoundError("capture_model_unknown",
                            "%s has no function %s" % (where, fn),
                            "give module:function naming a function that exists")
    return getattr(mod, fn)


def _factory(spec: str, batch, seq, shapes) -> Built:
    """A factory returns a module (fed a random batch of --input-shape), a
    tuple (module, inputs[, info]) or a dict {model, inputs[, tokens,
    target, loss_fn]}; info/dict keys say the tokens (never guessed)."""
    made = _load_factory(spec)()
    info: Dict[str, Any] = {}
    if isinstance(made, torch.nn.Module):
        b = batch or 1
        shapes = shapes or [(3, 224, 224)]
        if seq is not None:
            raise inapplicable("--seq", "it sets transformer_encoder's length",
                               "drop --seq")
        inputs = tuple(torch.randn(b, *s) for s in shapes)
        return Built(made, inputs, None, b, None, {"batch": b})
    if isinstance(made, dict):
        info = dict(made)
        model, inputs = info.pop("model", None), info.pop("inputs", None)
    elif isinstance(made, tuple) and len(made) in (2, 3):
        model, inputs = made[0], made[1]
        info = dict(made[2]) if len(made) == 3 else {}
    else:
        raise usage("capture_factory_invalid",
                    "%s returned %s" % (spec, type(made).__name__),
                    "return a module, (module, inputs), (module, inputs, "
                    "{'tokens': N}) or {'model':..., 'inputs':...}")
    for opt, val in (("--batch", batch), ("--seq", seq), ("--input-shape", shapes)):
        if val:
            raise inapplicable(opt, "%s makes its own inputs" % spec,
                               "size the inputs inside the factory")
    if not isinstance(model, torch.nn.Module):
        raise usage("capture_factory_invalid", "%s gave no nn.Module" % spec,
                    "return the model first")
    if isinstance(inputs, torch.Tensor):
        inputs = (inputs,)
    tokens = info.get("tokens")
    meta = {"tokens_from": "factory"} if tokens is not None else {}
    return Built(model, tuple(inputs), info.get("target"), tokens,
                 info.get("loss_fn"), meta)


def _builder(name: str):
    import torchvision
    try:
        return torchvision.models.get_model_builder(name)
    except ValueError:
        raise NotFoundError("capture_model_unknown",
                            "torchvision has no model %r" % name,
                            "use a name from torchvision.models.list_models(), "
                            "transformer_encoder, or module:factory") from None


_DEFAULT_SHAPES = {
    "video": [(3, 16, 112, 112)],
    "optical_flow": [(3, 224, 224), (3, 224, 224)],
}


def _family(builder) -> str:
    mod = builder.__module__
    for fam in ("detection", "segmentation", "video", "optical_flow", "quantization"):
        if ".%s." % fam in mod + ".":
            return fam
    return "classification"


def _torchvision(name: str, mode: str, batch, seq, shapes) -> Built:
    if seq is not None:
        raise inapplicable("--seq", "it sets transformer_encoder's length", "drop --seq")
    builder = _builder(name)
    params = inspect.signature(builder).parameters
    kw = {"weights": None}
    if "weights_backbone" in params:
        kw["weights_backbone"] = None  # a backbone's weights would be downloaded
    fam = _family(builder)
    if fam == "detection" and mode != "fwd_nograd_eval":
        raise inapplicable("--mode %s" % mode,
                           "detection models compute losses only from targets",
                           "use --mode fwd_nograd_eval, or tlcost.capture(model, "
                           "(images, targets), mode=...) from Python")
    model = builder(**kw)
    b = batch or 1
    shapes = shapes or _DEFAULT_SHAPES.get(fam, [(3, 224, 224)])
    if fam == "detection":
        if len(shapes) != 1:
            raise inapplicable("several --input-shape", "a detection model takes one "
                               "list of images", "give one --input-shape C,H,W")
        inputs: Tuple = ([torch.rand(*shapes[0]) for _ in range(b)],)
    else:
        inputs = tuple(torch.randn(b, *s) for s in shapes)
    target = None
    if fam in ("classification", "quantization"):
        classes = getattr(model, "num_classes", None) or 1000
        target = torch.randint(0, classes, (b,))
    return Built(model, inputs, target, b, None, {"batch": b})


def build(name: str, mode: str, batch: Optional[int] = None,
          seq: Optional[int] = None,
          shapes: Optional[List[Tuple[int, ...]]] = None) -> Built:
    """The model, inputs, target and tokens for a --model value."""
    if batch is not None and batch < 1:
        raise usage("invalid_argument", "--batch must be >= 1", "pass --batch 1 or more")
    if name == "transformer_encoder":
        if shapes:
            raise inapplicable("--input-shape", "transformer_encoder takes "
                               "[batch, seq, 512]", "use --batch and --seq")
        return _transformer_encoder(batch or 1, seq if seq is not None else 128)
    if ":" in name:
        return _factory(name, batch, seq, shapes)
    return _torchvision(name, mode, batch, seq, shapes)


def log_name(model: str) -> str:
    """Header `model`: the name, or file/module:function for a factory."""
    if ":" not in model:
        return model
    where, _, fn = model.rpartition(":")
    where = os.path.basename(where)
    return "%s:%s" % (where[:-3] if where.endswith(".py") else where, fn)
