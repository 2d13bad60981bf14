#!/usr/bin/env python3
"""Write timm ViT-Ti/S/B/L references for tests/test_gpu_model.cu (run on the GPU machine).

For each architecture: timm.create_model(arch, pretrained=False), every
parameter re-drawn as tools/make_reference.py does (so no bias or norm is
trivial), saved with timm's save_for_hf (model.safetensors + config.json) into
OUT/<arch>/, and io.bin (layout in tests/data/ref/README.md) holding N random
normalised inputs and the logits and pre-logits features that PyTorch computes
in float32 on the GPU with TF32 off.

usage: python3 tools/make_gpu_reference.py --out /tmp/vit_gpu_ref [--n 4] [--arch ...]
"""

import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_reference import inputs, redraw_, tidy, write_io  # noqa: E402

import timm  # noqa: E402
from timm.models._hub import save_for_hf  # noqa: E402

ARCHS = ["vit_tiny_patch16_224", "vit_small_patch16_224", "vit_base_patch16_224", "vit_large_patch16_224"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--n", type=int, default=4, help="images per model")
    ap.add_argument("--arch", nargs="*", default=ARCHS)
    args = ap.parse_args()
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    for i, arch in enumerate(args.arch):
        d = os.path.join(args.out, arch)
        os.makedirs(d, exist_ok=True)
        seed = 1000 + 10 * i
        torch.manual_seed(seed)
        model = timm.create_model(arch, pretrained=False).eval()
        redraw_(model, seed + 1)
        save_for_hf(model, d, safe_serialization=True)
        tidy(d)
        model = model.to(dev).float()
        x = inputs(seed + 2, args.n, 3, 224, 224)
        with torch.no_grad():
            feats = model.forward_head(model.forward_features(x.to(dev)), pre_logits=True)
            logits = model.head(feats)
        write_io(os.path.join(d, "io.bin"), x, logits.cpu(), feats.cpu())
        print(f"{arch}: {d} (n={args.n}, logits max |{logits.abs().max().item():.3g}|)", flush=True)


if __name__ == "__main__":
    main()
