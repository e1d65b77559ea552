"""`python3 -m tlcost capture`: one step of a model as a tlcost op log."""

import argparse
import sys
from typing import List, Optional

from .errors import Error, FileError, exit_status, module_unavailable, print_error

MODES = ("fwd_grad", "fwd_nograd_eval", "train")


def _shape(text: str):
    try:
        dims = tuple(int(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError("C,H,W of positive integers") from None
    if not dims or any(d < 1 for d in dims):
        raise argparse.ArgumentTypeError("C,H,W of positive integers")
    return dims


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python3 -m tlcost capture",
        description="Capture one step of a PyTorch model through libtlcost and "
                    "write its op log v1 (docs/capture.md). Nothing is downloaded: "
                    "torchvision models get random weights.")
    p.add_argument("--model", required=True,
                   help="torchvision model name, transformer_encoder, or "
                        "module:factory / file.py:factory")
    p.add_argument("--mode", choices=MODES, default="fwd_grad")
    p.add_argument("--batch", type=int, default=None,
                   help="batch size (torchvision, transformer_encoder, module-only "
                        "factories; default 1)")
    p.add_argument("--seq", type=int, default=None,
                   help="sequence length of transformer_encoder (default 128)")
    p.add_argument("--input-shape", type=_shape, action="append", default=None,
                   metavar="C,H,W",
                   help="per-item input shape; repeat for models with several "
                        "inputs (RAFT: two images)")
    p.add_argument("--optimizer", choices=("sgd", "adam"), default=None,
                   help="train mode: SGD momentum 0.9 (default) or Adam")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=0,
                   help="torch.set_num_threads (0 = leave as is)")
    p.add_argument("--no-timing", action="store_true",
                   help="omit host_ns/start_ns/thread (byte-reproducible)")
    p.add_argument("--plugin", action="append", default=[],
                   help="rule plugin for the printed report (repeatable)")
    p.add_argument("--rules", action="append", default=[],
                   help="rule file for the printed report (repeatable)")
    p.add_argument("--print", dest="show", action="store_true",
                   help="print the `tlcost flops` report of the captured ops")
    p.add_argument("--out", required=True,
                   help="op log path; .gz = gzip (level 9, mtime 0)")
    return p


def capture_main(argv: List[str]) -> int:
    a = parser().parse_args(argv)
    try:
        import torch
        from . import models
    except ImportError as e:
        raise module_unavailable(e, "python3 -m tlcost capture") from None
    import tlcost
    if a.optimizer is not None and a.mode != "train":
        raise models.inapplicable("--optimizer", "only train mode has an optimizer step",
                                  "drop --optimizer or use --mode train")
    torch.manual_seed(a.seed)
    if a.threads:
        torch.set_num_threads(a.threads)
    built = models.build(a.model, a.mode, a.batch, a.seq, a.input_shape)
    meta = {"mode": a.mode}
    meta.update(built.meta)
    meta.update({"seed": a.seed, "weights": "random"})
    opt = a.optimizer or "sgd"
    eng = tlcost.Engine(plugins=a.plugin, rules=a.rules)
    rep = tlcost.capture(built.model, built.inputs, a.mode, engine=eng,
                         target=built.target if a.mode == "train" else None,
                         loss_fn=built.loss_fn if a.mode == "train" else None,
                         optimizer=opt, timing=not a.no_timing,
                         model_name=models.log_name(a.model),
                         tokens=built.tokens, meta=meta)
    if a.out == "-":
        _to_stdout(rep)
    else:
        rep.save(a.out)
    if a.show:
        print(rep)
    print("%s: %d ops" % (a.out, rep.ops), file=sys.stderr)
    return 0


def _to_stdout(rep) -> None:
    """--out -: the log on standard output; a failed write (a full disk, a
    pipe whose reader left) is output_write_failed, as in the C command."""
    try:
        rep.write_log(sys.stdout.buffer)
        sys.stdout.buffer.flush()
    except OSError as e:
        raise FileError("output_write_failed",
                        "writing the op log to standard output failed (%s)" % e.strerror,
                        "check that the output has free space and is still open (a pipe "
                        "whose reader exited, a full disk or quota)") from None


def main(argv: Optional[List[str]] = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help"):
        print("usage: python3 -m tlcost capture [options]  (capture --help for more)\n"
              "       python3 -m tlcost map FILE|DIR... --scheduler ADDRESS|local:N -o OUT"
              "  (map --help; docs/distributed.md)")
        return 0 if argv else 2
    if argv[0] == "map":
        from . import mapcli
        return mapcli.main(argv[1:])
    if argv[0] != "capture":
        print("python3 -m tlcost: error: usage_error: unknown command %r\n"
              "  remedy: use `python3 -m tlcost capture --help` or `python3 -m tlcost map --help`"
              % argv[0], file=sys.stderr)
        return 2
    try:
        return capture_main(argv[1:])
    except Error as e:
        # typed, as the C command prints it; exit 3 when --out could not be
        # written whole (the old file is kept), 2 for a wrong command line
        print_error(e)
        return exit_status(e)
