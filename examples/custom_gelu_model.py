#!/usr/bin/env python3
"""Capture examples/custom_gelu.oplog.jsonl: a tiny MLP whose activation is a
custom operator, mylib::fused_gelu, registered with torch.library.

Run with Debian's torch 1.13 from the repository root:

    /usr/bin/python3 examples/custom_gelu_model.py examples/custom_gelu.oplog.jsonl

tlcost has no built-in rule for mylib::fused_gelu, so this log is the example
for "unknown op" reporting and for writing a rule plugin.
"""

import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "tools"))
import capture_oplog  # noqa: E402

_lib = torch.library.Library("mylib", "DEF")
_lib.define("fused_gelu(Tensor x) -> Tensor")


def _fused_gelu_cpu(x):
    return torch.nn.functional.gelu(x)


_lib.impl("fused_gelu", _fused_gelu_cpu, "CPU")


class FusedGelu(torch.nn.Module):
    def forward(self, x):
        return torch.ops.mylib.fused_gelu(x)


def build():
    return torch.nn.Sequential(
        torch.nn.Linear(16, 64), FusedGelu(),
        torch.nn.Linear(64, 64), FusedGelu(),
        torch.nn.Linear(64, 4))


def main(out):
    torch.manual_seed(0)
    model = build()
    x = torch.randn(2, 16)
    records = capture_oplog.capture(model, (x,), mode="fwd_nograd_eval")
    head = capture_oplog.header("custom_gelu_mlp", model, tokens=2,
                                meta={"mode": "fwd_nograd_eval", "batch": 2,
                                      "seed": 0, "weights": "random"})
    capture_oplog.write_log(out, head, records)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "-"))
