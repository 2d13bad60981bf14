#!/usr/bin/env python3
"""Generate the GEMM-epilogue activation references under tests/data/act/.

tests/test_act.c checks vit__epi_apply(act, 0, v) against them. The inputs are
float32; each reference is computed by PyTorch's own functions in float64 from
those float32 values:

    gelu.bin        F.gelu(x)                        exact erf GELU
    gelu_tanh.bin   F.gelu(x, approximate='tanh')    tanh approximation
    quick_gelu.bin  x * torch.sigmoid(1.702 * x)     QuickGELU
    swiglu.bin      F.silu(gate) * up                SwiGLU, one (gate, up) pair

Where each definition comes from (read in the installed sources: torch 2.15.0,
timm 1.0.31, transformers 5.23.0; and in openai/CLIP and open_clip on GitHub):

- erf GELU: timm's 'gelu' (timm/layers/activations.py gelu/GELU) is F.gelu(x);
  transformers' ACT2FN['gelu'] (GELUActivation) is nn.functional.gelu.
- tanh GELU: timm's 'gelu_tanh' (gelu_tanh/GELUTanh) is
  F.gelu(x, approximate='tanh'); transformers' ACT2FN['gelu_pytorch_tanh']
  (GELUTanh) is functools.partial(nn.functional.gelu, approximate="tanh").
- QuickGELU: timm's quick_gelu/QuickGELU, transformers' QuickGELUActivation,
  openai/CLIP clip/model.py QuickGELU and open_clip src/open_clip/transformer.py
  QuickGELU all return x * torch.sigmoid(1.702 * x) (1.702 a Python float, so
  a double in float64).
- SwiGLU, which half is the gate: timm's SwiGLUPacked is
  partial(GluMlp, act_layer=nn.SiLU, gate_last=False), and GluMlp.forward does
  x1, x2 = fc1(x).chunk(2, dim=-1); x = act(x1) * x2 when gate_last is False
  (x1 * act(x2) when True, GluMlp's own default). So the gate is the FIRST
  half of fc1's output rows and the up projection the second half.
  Hugging Face Dinov2: checkpoints store one packed mlp.weights_in (2*hidden, C)
  (and mlp.weights_out). transformers 4.x's Dinov2SwiGLUFFN did
  x1, x2 = weights_in(x).chunk(2, dim=-1); silu(x1) * x2 (read in copies of
  its modeling_dinov2.py, not installed here). transformers 5.x
  splits the module into gate_proj/up_proj/down_proj and its loader
  (conversion_mapping.py, "Dinov2Model": WeightConverter weights_in ->
  [gate_proj, up_proj] with Chunk(dim=0)) gives gate_proj the FIRST half of
  weights_in; forward is down_proj(silu(gate_proj(x)) * up_proj(x)). Its
  hidden size is (int(C * mlp_ratio * 2 / 3) + 7) // 8 * 8. Both facts are
  checked by running the modules below when timm and transformers import
  (save_pretrained writes weights_in back, first half == gate_proj).
  vit__epi_apply takes one (gate, up) column pair, so a loader that keeps the
  packed layout has to pair row j with row j + hidden of fc1.

Inputs:
- unary activations: every 1/64 on [-12, 12] (exact in float32), plus edge
  values ±0, ±1e-40 (subnormal), ±1e-30, ±1e-6, ±5.5, ±8, ±20, ±40, ±88,
  ±1e4, ±3e38, +inf (torch gives +inf) and NaN (torch gives NaN). -inf is left
  out: torch gives NaN there (-inf * 0 inside every one of these formulas),
  an artefact rather than a definition.
- SwiGLU: gate on 401 values in [-12, 12] (step 0.06, rounded to float32)
  times up in {-7, -2.5, -1, -0.125, 0, 0.5, 1, 3}; the edge gates above times
  the same ups; and edge ups (±1e-30, ±1e4, ±1e30, +inf) times gates
  {-20, -3, -1, 0, 0.5, 1, 2, 20}. Pairs whose float64 result is NaN (inf * 0)
  or finite but beyond float32's range are dropped; +inf results are kept (an
  implementation must give exactly +inf there), NaN inputs give NaN.

File layout (little-endian):
    char     magic[4]   "VACT"
    uint32   version    1
    uint32   arity      1 (x) or 2 ((gate, up) pairs)
    uint32   count      n
    float32  in[n * arity]
    float64  ref[n]

Usage: python3 tools/make_act_reference.py --out tests/data/act
"""

import argparse
import math
import os
import struct
import sys

import torch
import torch.nn.functional as F

EDGES = [0.0, 1e-40, 1e-30, 1e-6, 5.5, 8.0, 20.0, 40.0, 88.0, 1e4, 3e38]
UPS = [-7.0, -2.5, -1.0, -0.125, 0.0, 0.5, 1.0, 3.0]
EDGE_UPS = [1e-30, -1e-30, 1e4, -1e4, 1e30, -1e30, math.inf]
EDGE_UP_GATES = [-20.0, -3.0, -1.0, 0.0, 0.5, 1.0, 2.0, 20.0]
FLT_MAX = 3.4028234663852886e38


def quick_gelu(x):
    return x * torch.sigmoid(1.702 * x)


UNARY = {
    "gelu": lambda x: F.gelu(x),
    "gelu_tanh": lambda x: F.gelu(x, approximate="tanh"),
    "quick_gelu": quick_gelu,
}


def unary_inputs():
    grid = [i / 64 for i in range(-768, 769)]
    edges = []
    for e in EDGES:
        edges += [e, -e]  # -0.0 too
    edges += [math.inf, math.nan]
    return torch.tensor(grid + edges, dtype=torch.float32)


def swiglu_inputs():
    gates = [float(torch.tensor(-12 + 0.06 * i, dtype=torch.float32)) for i in range(401)]
    edge_gates = []
    for e in EDGES:
        edge_gates += [e, -e]
    edge_gates += [math.inf, math.nan]
    pairs = [(g, u) for g in gates + edge_gates for u in UPS]
    pairs += [(g, u) for u in EDGE_UPS for g in EDGE_UP_GATES]
    pairs += [(1.0, math.nan)]
    return torch.tensor(pairs, dtype=torch.float32)


def keep(ref, x):
    """Drop results that are NaN from non-NaN inputs, or finite beyond float32."""
    nan_in = torch.isnan(x) if x.dim() == 1 else torch.isnan(x).any(dim=1)
    bad_nan = torch.isnan(ref) & ~nan_in
    too_big = torch.isfinite(ref) & (ref.abs() > FLT_MAX)
    return ~(bad_nan | too_big)


def write(path, x, ref):
    arity = 1 if x.dim() == 1 else 2
    n = ref.shape[0]
    with open(path, "wb") as f:
        f.write(b"VACT" + struct.pack("<III", 1, arity, n))
        f.write(x.contiguous().numpy().astype("<f4").tobytes())
        f.write(ref.contiguous().numpy().astype("<f8").tobytes())
    return os.path.getsize(path)


def verify_sources(x64):
    """Check the formulas above against timm's and transformers' own modules (when installed)."""
    try:
        import timm.layers as tl
    except ImportError:
        print("timm not installed: its definitions not re-checked")
    else:
        for name, fn in UNARY.items():
            act = tl.get_act_layer(name)()
            assert torch.allclose(act(x64), fn(x64), equal_nan=True, rtol=0, atol=0), name
        mlp = tl.SwiGLUPacked(in_features=4, hidden_features=8, out_features=3).double().eval()
        xin = torch.randn(5, 4, dtype=torch.float64, generator=torch.Generator().manual_seed(0))
        h = mlp.fc1(xin)
        want = mlp.fc2(F.silu(h[:, :4]) * h[:, 4:])
        assert torch.allclose(mlp(xin), want, rtol=0, atol=1e-15), "timm SwiGLUPacked gate is not the first half"
        print("timm: gelu, gelu_tanh, quick_gelu and SwiGLUPacked (gate = first half of fc1) agree")
    try:
        os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        import tempfile

        import transformers
        from safetensors.torch import load_file
        from transformers.activations import ACT2FN
    except ImportError:
        print("transformers not installed: its definitions not re-checked")
        return
    for hf, name in (("gelu", "gelu"), ("gelu_pytorch_tanh", "gelu_tanh"), ("quick_gelu", "quick_gelu")):
        got, want = ACT2FN[hf](x64), UNARY[name](x64)
        assert torch.allclose(got, want, equal_nan=True, rtol=0, atol=0), hf
    cfg = transformers.Dinov2Config(hidden_size=8, num_hidden_layers=1, num_attention_heads=2, image_size=14,
                                    patch_size=14, use_swiglu_ffn=True)
    torch.manual_seed(0)
    m = transformers.Dinov2Model(cfg).eval()
    with tempfile.TemporaryDirectory() as d:
        m.save_pretrained(d)
        sd = load_file(os.path.join(d, "model.safetensors"))
        m2 = transformers.Dinov2Model.from_pretrained(d).eval()
    w = sd["encoder.layer.0.mlp.weights_in.weight"]
    b = sd["encoder.layer.0.mlp.weights_in.bias"]
    hid = w.shape[0] // 2
    mlp = m2.encoder.layer[0].mlp
    assert torch.equal(mlp.gate_proj.weight, w[:hid]) and torch.equal(mlp.up_proj.weight, w[hid:]), "HF gate/up halves"
    xin = torch.randn(5, 8)
    h = xin @ w.T + b
    want = mlp.down_proj(F.silu(h[:, :hid]) * h[:, hid:])
    assert torch.allclose(mlp(xin), want, rtol=1e-6, atol=1e-6), "HF Dinov2 SwiGLU gate is not the first half"
    print("transformers: gelu, gelu_pytorch_tanh, quick_gelu and Dinov2 SwiGLU (gate = first half of weights_in) agree")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="tests/data/act")
    ap.add_argument("--no-verify", action="store_true", help="skip the timm/transformers cross-checks")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    torch.set_num_threads(1)  # the same float64 results whatever the machine's thread count

    x = unary_inputs()
    x64 = x.double()
    if not args.no_verify:
        verify_sources(x64)
    total = 0
    for name, fn in UNARY.items():
        ref = fn(x64)
        k = keep(ref, x)
        total += write(os.path.join(args.out, name + ".bin"), x[k], ref[k])
        print(f"{name}: {int(k.sum())} inputs")

    p = swiglu_inputs()
    p64 = p.double()
    ref = F.silu(p64[:, 0]) * p64[:, 1]
    k = keep(ref, p)
    total += write(os.path.join(args.out, "swiglu.bin"), p[k], ref[k])
    print(f"swiglu: {int(k.sum())} pairs ({int((~k).sum())} dropped)")
    print(f"wrote {total} bytes to {args.out} (torch {torch.__version__})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
