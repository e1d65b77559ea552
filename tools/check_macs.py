#!/usr/bin/env python3
"""Independent check of captured op logs against torchvision's GFLOPS.

torchvision publishes per-model "GFLOPS" in its weight metadata
(torchvision/models/*.py, `_ops`); they count multiply-accumulates of
convolutions and linear layers, biases excluded:
    resnet50      4.09 GFLOPS  -> 4,089,184,256 MACs
    vit_b_16     17.56 GFLOPS  -> 17,563,828,224 MACs
    mobilenet_v2  0.30 GFLOPS  -> 300,774,272 MACs
They are per sample: the expected figure is scaled by the log's batch
(header `meta.batch`).  This script recomputes those MACs from nothing but the shapes in a log's
forward records, so it checks the capture (shapes, argument order), not the
tlcost rules.  Standard library only; any python3 runs it.

    python3 tools/check_macs.py [--counts] LOG [LOG...]

Exit status 1 when a log whose model has an expected figure disagrees.
"""

import gzip
import json
import sys
from collections import Counter

# Per sample (batch 1), from torchvision's weight metadata:
PER_SAMPLE = {
    "resnet50": 4089184256,
    "vit_b_16": 17563828224,
    "mobilenet_v2": 300774272,
}


def transformer_encoder_macs(batch, seq):
    """Not published; derived by hand for nn.TransformerEncoder(d_model=512,
    nhead=8, dim_feedforward=2048, 6 layers), batch x seq tokens:
      per layer, linears: seq * (4*512*512 [q,k,v,out] + 2*512*2048 [ffn])
                        = seq * 3,145,728
      per layer, attention: 2 [q@k^T, attn@v] * 8 heads * seq * seq * 64
    At 1 x 128: 6 * (402,653,184 + 16,777,216) = 2,516,582,400."""
    per_layer = seq * 3145728 + 2 * 8 * seq * seq * 64
    return batch * 6 * per_layer


def expected_macs(head):
    """The expected forward MACs of a log's model at the log's batch (and
    sequence length), or None where no figure exists. The header's
    meta.batch (written by `python3 -m tlcost capture`) scales the
    per-sample figures; a log without it is taken as batch 1."""
    meta = head.get("meta") or {}
    batch = meta.get("batch", 1)
    model = head.get("model")
    if model == "transformer_encoder":
        return transformer_encoder_macs(batch, meta.get("seq", 128))
    per = PER_SAMPLE.get(model)
    return None if per is None else batch * per


def prod(xs):
    p = 1
    for x in xs:
        p *= x
    return p


def read_log(path):
    with open(path, "rb") as f:
        raw = f.read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    lines = [json.loads(l) for l in raw.decode("utf-8").splitlines() if l.strip()]
    return lines[0], lines[1:]


def shape(v):
    return v["shape"]


def conv_macs(r):
    # out numel * (Cin/groups) * prod(kernel); weight is [Cout, Cin/g, k...]
    # (for transposed conv weight is [Cin, Cout/g, k...]: use input channels)
    x, w, out = r["args"][0], r["args"][1], r["outputs"][0]
    transposed = r["args"][6]
    if transposed:
        groups = r["args"][8]
        return prod(shape(x)) * (shape(w)[1]) * prod(shape(w)[2:]) \
            if groups else None
    return prod(shape(out)) * shape(w)[1] * prod(shape(w)[2:])


def mm_macs(a, b):
    # [.., M, K] x [.., K, N] -> (batch * M * K) * N
    sa, sb = shape(a), shape(b)
    return prod(sa) * sb[-1]


def mha_macs(q_len, kv_len, batch, embed, heads, proj_in=True):
    d = embed // heads
    m = 0
    if proj_in:
        m += batch * q_len * embed * 3 * embed      # packed q,k,v projection
    m += batch * heads * q_len * kv_len * d         # q @ k^T
    m += batch * heads * q_len * kv_len * d         # attn @ v
    m += batch * q_len * embed * embed              # out projection
    return m


def native_mha_macs(r):
    # (query, key, value, embed_dim, num_head, qkv_w, qkv_b, proj_w, proj_b, ...)
    q, k = shape(r["args"][0]), shape(r["args"][1])
    embed, heads = r["args"][3], r["args"][4]
    return mha_macs(q[-2], k[-2], prod(q[:-2]), embed, heads)


def encoder_layer_macs(r):
    # (src, embed_dim, num_heads, qkv_w, qkv_b, proj_w, proj_b, use_gelu,
    #  norm_first, eps, n1w, n1b, n2w, n2b, ffn_w1, ffn_b1, ffn_w2, ffn_b2, ..)
    src = shape(r["args"][0])
    embed, heads = r["args"][1], r["args"][2]
    tokens = prod(src[:-1])
    ffn = shape(r["args"][14])[0]
    attn = mha_macs(src[-2], src[-2], prod(src[:-2]), embed, heads)
    return attn + 2 * tokens * embed * ffn


def op_macs(r):
    """MACs of one record, or None when the op has no multiply-accumulates."""
    op, a = r["op"], r["args"]
    if op == "aten::convolution":
        return conv_macs(r)
    if op in ("aten::mm", "aten::bmm", "aten::matmul"):
        return mm_macs(a[0], a[1])
    if op in ("aten::addmm", "aten::baddbmm", "aten::addbmm"):
        return mm_macs(a[1], a[2])
    if op == "aten::_native_multi_head_attention":
        return native_mha_macs(r)
    if op == "aten::_transformer_encoder_layer_fwd":
        return encoder_layer_macs(r)
    return None


def forward_macs(records):
    total, per_op = 0, Counter()
    for r in records:
        if r.get("phase", "forward") != "forward":
            continue
        m = op_macs(r)
        if m is not None:
            total += m
            per_op[r["op"]] += m
    return total, per_op


def main(argv):
    counts = "--counts" in argv
    paths = [a for a in argv if a != "--counts"]
    bad = 0
    for path in paths:
        head, records = read_log(path)
        total, per_op = forward_macs(records)
        model = head.get("model", "?")
        want = expected_macs(head)
        verdict = "" if want is None else \
            ("OK" if total == want else "MISMATCH (want %d, diff %+d)"
             % (want, total - want))
        print("%s: model=%s forward MACs=%d %s" % (path, model, total, verdict))
        for op, m in sorted(per_op.items()):
            print("    %-40s %d" % (op, m))
        if counts:
            c = Counter((r.get("phase", "forward"),
                         r["op"] + "." + (r.get("overload") or "default"))
                        for r in records)
            for (phase, op), n in sorted(c.items()):
                print("    %-10s %-50s %d" % (phase, op, n))
        if want is not None and total != want:
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
