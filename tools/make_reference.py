#!/usr/bin/env python3
"""Generate the reference cases under tests/data/ref/ for vit.h.

Each case directory gets the files that the real tools write (timm's
save_for_hf, or transformers' save_pretrained) plus io.bin, the inputs and
the outputs that torch computes in float64:

    int32 header[8] = {0x46455256 ('VREF'), n, c, h, w, k, d, 0}
    float32 input[n][c][h][w]     already normalised (torch.randn)
    float32 logits[n][k]          absent when k == 0 (no head)
    float32 features[n][d]        pre-logits features (after pooling and fc_norm)

All little-endian. Usage: python3 tools/make_reference.py --out tests/data/ref
"""

import argparse
import json
import math
import os
import shutil
import struct
import sys

import numpy as np
import torch

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")

import safetensors  # noqa: E402
import timm  # noqa: E402
import transformers  # noqa: E402
from safetensors import safe_open  # noqa: E402
from safetensors.torch import load_file  # noqa: E402
from timm.models._hub import save_for_hf  # noqa: E402

MAGIC = 0x46455256  # b"VREF" read as a little-endian int32
KEEP = {"model.safetensors", "config.json", "preprocessor_config.json"}


# ---------------------------------------------------------------------------
# weights: re-draw everything so that no bias, norm or embedding is trivial

def redraw_(model, seed, layerscale=None):
    """Give every parameter a small non-trivial random value.

    Matrices and conv kernels get std 1/sqrt(fan_in) so activations stay
    O(1) and attention is not uniform; biases, LayerNorm biases and
    LayerNorm weights - 1 get std 0.1; cls/pos embeddings get std 0.5;
    LayerScale gammas get layerscale * (1 + 0.2 * randn).
    """
    g = torch.Generator().manual_seed(seed)
    norm_names = set()
    for mname, m in model.named_modules():
        if isinstance(m, torch.nn.LayerNorm):
            norm_names.add(mname)
    with torch.no_grad():
        for name, p in model.named_parameters():
            mname, _, leaf = name.rpartition(".")
            r = torch.randn(p.shape, generator=g, dtype=torch.float32)
            if mname in norm_names:
                v = 1.0 + 0.1 * r if leaf == "weight" else 0.1 * r
            elif leaf == "gamma":
                v = layerscale * (1.0 + 0.2 * r)
            elif "cls_token" in leaf or "pos_embed" in leaf or "position_embeddings" in leaf \
                    or "reg_token" in leaf:
                v = 0.5 * r
            elif p.dim() >= 2:
                fan_in = p[0].numel()
                v = r / math.sqrt(fan_in)
            else:
                v = 0.1 * r
            p.copy_(v.to(p.dtype))


def write_io(path, x, logits, feats):
    n, c, h, w = x.shape
    k = 0 if logits is None else logits.shape[1]
    d = feats.shape[1]
    with open(path, "wb") as f:
        f.write(struct.pack("<8i", MAGIC, n, c, h, w, k, d, 0))
        f.write(x.to(torch.float32).numpy().astype("<f4").tobytes())
        if logits is not None:
            f.write(logits.to(torch.float32).numpy().astype("<f4").tobytes())
        f.write(feats.to(torch.float32).numpy().astype("<f4").tobytes())


def tidy(d):
    for fn in os.listdir(d):
        if fn not in KEEP:
            p = os.path.join(d, fn)
            shutil.rmtree(p) if os.path.isdir(p) else os.remove(p)


def inputs(seed, n, c, h, w):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(n, c, h, w, generator=g, dtype=torch.float32)


# ---------------------------------------------------------------------------
# timm

def make_timm(out, name, seed, n, arch, kwargs, dtype=torch.float32, layerscale=None,
              keep_config=True):
    d = os.path.join(out, name)
    if os.path.isdir(d):
        shutil.rmtree(d)
    torch.manual_seed(seed)
    model = timm.create_model(arch, pretrained=False, **kwargs).eval()
    redraw_(model, seed + 1, layerscale=layerscale)
    model = model.to(dtype)
    save_for_hf(model, d, safe_serialization=True)
    tidy(d)
    if not keep_config:
        os.remove(os.path.join(d, "config.json"))

    # reference: a fresh float64 model loaded from the file just written
    torch.manual_seed(seed)
    ref = timm.create_model(arch, pretrained=False, **kwargs).eval().double()
    sd = {k: v.double() for k, v in load_file(os.path.join(d, "model.safetensors")).items()}
    ref.load_state_dict(sd, strict=True)
    c = ref.patch_embed.proj.in_channels
    h, w = ref.patch_embed.img_size
    x = inputs(seed + 2, n, c, h, w)
    with torch.no_grad():
        xd = x.double()
        feats = ref.forward_head(ref.forward_features(xd), pre_logits=True)
        logits = ref(xd) if ref.num_classes > 0 else None
        if logits is not None:
            assert torch.allclose(ref.head(feats), logits, rtol=0, atol=1e-12)
    write_io(os.path.join(d, "io.bin"), x, logits, feats)
    return d


# ---------------------------------------------------------------------------
# Hugging Face transformers

def make_hf(out, name, seed, n, cfg_kwargs):
    from transformers import ViTConfig, ViTForImageClassification, ViTImageProcessor
    d = os.path.join(out, name)
    if os.path.isdir(d):
        shutil.rmtree(d)
    torch.manual_seed(seed)
    config = ViTConfig(**cfg_kwargs)
    model = ViTForImageClassification(config).eval()
    redraw_(model, seed + 1)
    model.save_pretrained(d, safe_serialization=True)
    size = config.image_size
    ViTImageProcessor(size={"height": size, "width": size}).save_pretrained(d)
    tidy(d)

    ref = ViTForImageClassification.from_pretrained(d).eval().double()
    x = inputs(seed + 2, n, config.num_channels, size, size)
    with torch.no_grad():
        xd = x.double()
        logits = ref(pixel_values=xd).logits
        feats = ref.vit(pixel_values=xd).last_hidden_state[:, 0]
        assert torch.allclose(ref.classifier(feats), logits, rtol=0, atol=1e-12)
        # the reloaded model must match the one that was saved
        m64 = model.double()
        assert torch.equal(m64(pixel_values=xd).logits, logits)
    write_io(os.path.join(d, "io.bin"), x, logits, feats)
    return d


# ---------------------------------------------------------------------------

def describe(d):
    print(f"== {os.path.basename(d)}")
    with safe_open(os.path.join(d, "model.safetensors"), "pt") as f:
        meta = f.metadata()
        keys = list(f.keys())
        for k in keys:
            sl = f.get_slice(k)
            print(f"   {k:60s} {sl.get_dtype():5s} {sl.get_shape()}")
    print(f"   __metadata__: {meta}")
    cp = os.path.join(d, "config.json")
    if os.path.exists(cp):
        with open(cp) as fh:
            cfg = json.load(fh)
        print(f"   config.json keys: {list(cfg.keys())}")
        for k in ("architecture", "num_classes", "num_features", "global_pool", "model_args"):
            if k in cfg:
                print(f"     {k}: {json.dumps(cfg[k])}")
    else:
        print("   (no config.json)")
    with open(os.path.join(d, "io.bin"), "rb") as fh:
        hdr = struct.unpack("<8i", fh.read(32))
    print(f"   io.bin header: n={hdr[1]} c={hdr[2]} h={hdr[3]} w={hdr[4]} k={hdr[5]} d={hdr[6]}")
    sizes = {fn: os.path.getsize(os.path.join(d, fn)) for fn in sorted(os.listdir(d))}
    print(f"   files: {sizes}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, help="output directory, e.g. tests/data/ref")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)

    out = args.out
    tiny = "vit_tiny_patch16_224"
    case1 = dict(img_size=40, patch_size=8, in_chans=3, embed_dim=72, num_heads=3, depth=2,
                 mlp_ratio=4.0, num_classes=10, global_pool="token")
    dirs = []
    # 1. token pooling, head_dim 24 (not a power of 2)
    dirs.append(make_timm(out, "timm_token_odd_heads", 100, 3, tiny, case1))
    # 2. no class token, avg pooling: norm = Identity, fc_norm = LayerNorm
    dirs.append(make_timm(out, "timm_avg_noclass", 200, 2, tiny, dict(
        img_size=32, patch_size=8, embed_dim=32, num_heads=4, depth=2, mlp_ratio=3.0,
        num_classes=6, class_token=False, global_pool="avg")))
    # 3. class token kept but avg pooling over patch tokens only, fc_norm
    dirs.append(make_timm(out, "timm_avg_fcnorm_cls", 300, 2, tiny, dict(
        img_size=32, patch_size=8, embed_dim=32, num_heads=2, depth=2, mlp_ratio=2.0,
        num_classes=4, class_token=True, global_pool="avg", fc_norm=True)))
    # 4. one channel, 28x28, patch 4 (Fashion-MNIST shaped)
    dirs.append(make_timm(out, "timm_1ch", 400, 4, tiny, dict(
        img_size=28, patch_size=4, in_chans=1, embed_dim=36, num_heads=3, depth=2,
        mlp_ratio=4.0, num_classes=10, global_pool="token")))
    # 5/6. case 1 stored in half precision; reference from the rounded weights
    dirs.append(make_timm(out, "timm_f16", 100, 3, tiny, case1, dtype=torch.float16))
    dirs.append(make_timm(out, "timm_bf16", 100, 3, tiny, case1, dtype=torch.bfloat16))
    # 7. no config.json: everything from shapes, num_heads = embed_dim / 64
    dirs.append(make_timm(out, "timm_noconfig", 700, 2, tiny, dict(
        img_size=32, patch_size=8, embed_dim=64, num_heads=1, depth=2, mlp_ratio=2.0,
        num_classes=3, global_pool="token"), keep_config=False))
    # 8. Hugging Face transformers ViTForImageClassification
    dirs.append(make_hf(out, "hf_vit", 800, 3, dict(
        hidden_size=48, num_hidden_layers=2, num_attention_heads=4, intermediate_size=96,
        image_size=32, patch_size=8, num_channels=3, num_labels=5,
        id2label={0: "airplane", 1: "bird", 2: "cat", 3: "dog", 4: "frog"},
        label2id={"airplane": 0, "bird": 1, "cat": 2, "dog": 3, "frog": 4})))
    # 9. LayerScale (blocks.N.ls1.gamma / ls2.gamma) and qkv without bias
    dirs.append(make_timm(out, "timm_layerscale_qkvnobias", 900, 2, tiny, dict(
        img_size=32, patch_size=8, embed_dim=32, num_heads=4, depth=2, mlp_ratio=4.0,
        num_classes=7, global_pool="token", init_values=0.1, qkv_bias=False),
        layerscale=0.1))
    # 10. extra: deit3-style pos_embed without the class slot, and no head (k = 0)
    dirs.append(make_timm(out, "timm_noembedclass_nohead", 1000, 2, tiny, dict(
        img_size=32, patch_size=8, embed_dim=32, num_heads=2, depth=2, mlp_ratio=4.0,
        num_classes=0, global_pool="token", no_embed_class=True)))

    for d in dirs:
        describe(d)
    total = sum(os.path.getsize(os.path.join(dp, f)) for dp, _, fs in os.walk(out) for f in fs)
    print(f"total bytes under {out}: {total}")
    print(f"versions: python {sys.version.split()[0]} torch {torch.__version__} "
          f"timm {timm.__version__} transformers {transformers.__version__} "
          f"safetensors {safetensors.__version__} numpy {np.__version__}")


if __name__ == "__main__":
    main()
