#!/usr/bin/env python3
"""Independent numpy (float64) forward pass over tests/data/ref/<case>/.

Needs only numpy: it parses model.safetensors, config.json and io.bin by
hand, so it checks both the file layouts and the semantics that vit.h must
reproduce (see tests/data/ref/README.md).

Usage: python3 tools/check_reference.py [DIR]   (default tests/data/ref)
"""

import json
import math
import os
import re
import struct
import sys

import numpy as np


def load_safetensors(path):
    with open(path, "rb") as f:
        data = f.read()
    (hlen,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + hlen])
    base = 8 + hlen
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        a, b = info["data_offsets"]
        raw = data[base + a:base + b]
        dt = info["dtype"]
        if dt == "F32":
            arr = np.frombuffer(raw, "<f4")
        elif dt == "F16":
            arr = np.frombuffer(raw, "<f2")
        elif dt == "BF16":
            u = np.frombuffer(raw, "<u2").astype(np.uint32) << 16
            arr = u.view(np.float32)
        else:
            raise ValueError(f"{name}: dtype {dt}")
        out[name] = arr.astype(np.float64).reshape(info["shape"])
    return out


def load_io(path):
    with open(path, "rb") as f:
        hdr = struct.unpack("<8i", f.read(32))
        assert hdr[0] == 0x46455256 and hdr[7] == 0, hdr
        n, c, h, w, k, d = hdr[1:7]
        x = np.frombuffer(f.read(4 * n * c * h * w), "<f4").reshape(n, c, h, w)
        logits = np.frombuffer(f.read(4 * n * k), "<f4").reshape(n, k) if k else None
        feats = np.frombuffer(f.read(4 * n * d), "<f4").reshape(n, d)
        assert f.read() == b""
    return x.astype(np.float64), logits, feats


def layernorm(x, w, b, eps):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)  # biased variance
    return (x - mu) / np.sqrt(var + eps) * w + b


def gelu(x):  # exact erf form (nn.GELU(), HF "gelu")
    erf = np.vectorize(math.erf)
    return 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))


def attention(x, wq, bq, wk, bk, wv, bv, heads):
    n_tok, dim = x.shape
    hd = dim // heads
    q, k, v = x @ wq.T + bq, x @ wk.T + bk, x @ wv.T + bv
    out = np.empty_like(q)
    for h in range(heads):
        s = slice(h * hd, (h + 1) * hd)
        a = (q[:, s] @ k[:, s].T) * hd ** -0.5
        a = np.exp(a - a.max(-1, keepdims=True))
        a /= a.sum(-1, keepdims=True)
        out[:, s] = a @ v[:, s]
    return out


def patchify(img, w, b):
    # conv with stride == kernel: tokens in raster order (row, then column),
    # each patch flattened as (channel, ky, kx) to match weight (D, C, P, P)
    d, c, p, _ = w.shape
    _, hh, ww = img.shape
    gh, gw = hh // p, ww // p
    pt = img.reshape(c, gh, p, gw, p).transpose(1, 3, 0, 2, 4).reshape(gh * gw, c * p * p)
    return pt @ w.reshape(d, -1).T + b


def timm_forward(t, cfg, img):
    dim = t["patch_embed.proj.weight"].shape[0]
    args = (cfg or {}).get("model_args", {})
    heads = args.get("num_heads", max(1, dim // 64))
    has_cls = "cls_token" in t
    pool = (cfg or {}).get("global_pool", "token" if has_cls else "avg")
    x = patchify(img, t["patch_embed.proj.weight"], t["patch_embed.proj.bias"])
    pos = t["pos_embed"][0]
    prefix = [t["cls_token"][0]] if has_cls else []
    if pos.shape[0] == x.shape[0]:          # no_embed_class: pos covers patches only
        x = np.concatenate(prefix + [x + pos])
    else:                                   # pos covers [cls, patches]
        x = np.concatenate(prefix + [x]) + pos
    depth = 1 + max(int(k.split(".")[1]) for k in t if k.startswith("blocks."))
    for i in range(depth):
        p = f"blocks.{i}."
        wqkv = t[p + "attn.qkv.weight"]
        bqkv = t.get(p + "attn.qkv.bias", np.zeros(3 * dim))
        y = layernorm(x, t[p + "norm1.weight"], t[p + "norm1.bias"], 1e-6)
        y = attention(y, wqkv[:dim], bqkv[:dim], wqkv[dim:2 * dim], bqkv[dim:2 * dim],
                      wqkv[2 * dim:], bqkv[2 * dim:], heads)
        y = y @ t[p + "attn.proj.weight"].T + t[p + "attn.proj.bias"]
        x = x + y * t.get(p + "ls1.gamma", 1.0)
        y = layernorm(x, t[p + "norm2.weight"], t[p + "norm2.bias"], 1e-6)
        y = gelu(y @ t[p + "mlp.fc1.weight"].T + t[p + "mlp.fc1.bias"])
        y = y @ t[p + "mlp.fc2.weight"].T + t[p + "mlp.fc2.bias"]
        x = x + y * t.get(p + "ls2.gamma", 1.0)
    if "norm.weight" in t:
        x = layernorm(x, t["norm.weight"], t["norm.bias"], 1e-6)
    f = x[0] if pool == "token" else x[len(prefix):].mean(0)
    if "fc_norm.weight" in t:
        f = layernorm(f, t["fc_norm.weight"], t["fc_norm.bias"], 1e-6)
    logits = f @ t["head.weight"].T + t["head.bias"] if "head.weight" in t else None
    return logits, f


def hf_forward(t, cfg, img):
    heads, eps = cfg["num_attention_heads"], cfg["layer_norm_eps"]
    e = "vit.embeddings."
    x = patchify(img, t[e + "patch_embeddings.projection.weight"],
                 t[e + "patch_embeddings.projection.bias"])
    x = np.concatenate([t[e + "cls_token"][0], x]) + t[e + "position_embeddings"][0]
    for i in range(cfg["num_hidden_layers"]):
        p = f"vit.encoder.layer.{i}."
        a = p + "attention.attention."
        y = layernorm(x, t[p + "layernorm_before.weight"], t[p + "layernorm_before.bias"], eps)
        y = attention(y, t[a + "query.weight"], t[a + "query.bias"], t[a + "key.weight"],
                      t[a + "key.bias"], t[a + "value.weight"], t[a + "value.bias"], heads)
        x = x + y @ t[p + "attention.output.dense.weight"].T + t[p + "attention.output.dense.bias"]
        y = layernorm(x, t[p + "layernorm_after.weight"], t[p + "layernorm_after.bias"], eps)
        y = gelu(y @ t[p + "intermediate.dense.weight"].T + t[p + "intermediate.dense.bias"])
        x = x + y @ t[p + "output.dense.weight"].T + t[p + "output.dense.bias"]
    f = layernorm(x, t["vit.layernorm.weight"], t["vit.layernorm.bias"], eps)[0]
    return f @ t["classifier.weight"].T + t["classifier.bias"], f


# What this checker implements: plain timm ViTs (the arch of the first ten
# cases, exact GELU, eps 1e-6) and ViTForImageClassification. Cases of the
# other families, or run at another resolution (options.json), are skipped.
TIMM_ARCHS = {"vit_tiny_patch16_224"}
TIMM_PLAIN = re.compile(r"^(cls_token|pos_embed|patch_embed\.proj\.(weight|bias)"
                        r"|(norm|fc_norm|head)\.(weight|bias)"
                        r"|blocks\.\d+\.(norm1|norm2|attn\.qkv|attn\.proj|mlp\.fc1|mlp\.fc2)\.(weight|bias)"
                        r"|blocks\.\d+\.ls[12]\.gamma)$")


def unsupported(d, t, cfg):
    """Why this checker cannot run case d (None when it can)."""
    if os.path.exists(os.path.join(d, "options.json")):
        return "options.json (another resolution)"
    if cfg and "model_type" in cfg:
        if cfg["model_type"] != "vit" or "classifier.weight" not in t:
            return f"transformers {cfg.get('architectures', [cfg['model_type']])[0]}"
        return None
    if cfg and cfg.get("architecture") not in TIMM_ARCHS:
        return f"timm {cfg.get('architecture')}"
    other = sorted(k for k in t if not TIMM_PLAIN.match(k))
    if other:
        return f"tensors {other[:3]}{' ...' if len(other) > 3 else ''}"
    for k in t:
        if k.endswith("mlp.fc1.weight") and t[k].shape[0] != t[k.replace("fc1", "fc2")].shape[1]:
            return "gated MLP"
    return None


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "tests/data/ref"
    worst = 0.0
    for case in sorted(os.listdir(root)):
        d = os.path.join(root, case)
        if not os.path.isdir(d):
            continue
        t = load_safetensors(os.path.join(d, "model.safetensors"))
        cp = os.path.join(d, "config.json")
        cfg = json.load(open(cp)) if os.path.exists(cp) else None
        why = unsupported(d, t, cfg)
        if why:
            print(f"{case:28s} SKIP (not implemented here: {why})")
            continue
        x, logits, feats = load_io(os.path.join(d, "io.bin"))
        fwd = hf_forward if cfg and cfg.get("model_type") == "vit" else timm_forward
        errs = []
        for i in range(x.shape[0]):
            lg, f = fwd(t, cfg, x[i])
            scale = max(1.0, np.abs(feats[i]).max())
            errs.append(np.abs(f - feats[i]).max() / scale)
            if logits is not None:
                errs.append(np.abs(lg - logits[i]).max() / max(1.0, np.abs(logits[i]).max()))
        err = max(errs)
        worst = max(worst, err)
        spread = np.abs(feats - feats.mean(0)).max()
        print(f"{case:28s} max rel err {err:.2e}  (features spread across batch {spread:.3f})")
    print("OK" if worst < 1e-6 else "FAIL", f"worst {worst:.2e}")
    sys.exit(0 if worst < 1e-6 else 1)


if __name__ == "__main__":
    main()
