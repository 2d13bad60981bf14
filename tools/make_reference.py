#!/usr/bin/env python3
"""Generate the reference cases under tests/data/ref/ for vit.h.

Each case directory gets the files that the real tools write (timm's
save_for_hf, or transformers' save_pretrained) plus io.bin, the inputs and
the outputs that torch computes in float64:

    int32 header[8] = {0x46455256 ('VREF'), n, c, h, w, k, d, 0}
    float32 input[n][c][h][w]     already normalised (torch.randn)
    float32 logits[n][k]          absent when k == 0 (no head)
    float32 features[n][d]        pre-logits features (after pooling and fc_norm)

All little-endian. A case may also have options.json ({"image_height": H,
"image_width": W}): the model is saved at its native size and the reference
is run at H x W (position embeddings resampled the way the tool does it), so
io.bin's input is n x c x H x W.

Usage: python3 tools/make_reference.py --out tests/data/ref [--cases NAME ...]
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
KEEP = {"model.safetensors", "config.json", "preprocessor_config.json", "options.json"}


# ---------------------------------------------------------------------------
# weights: re-draw everything so that no bias, norm or embedding is trivial

def redraw_(model, seed, layerscale=None):
    """Give every parameter a small non-trivial random value.

    Matrices and conv kernels get std 1/sqrt(fan_in) so activations stay
    O(1) and attention is not uniform; biases, LayerNorm biases and
    LayerNorm weights - 1 get std 0.1; cls/pos embeddings and the other
    learned tokens (dist/reg/register tokens, MAP latent/probe, CLIP
    class_embedding, mask token) get std 0.5; LayerScale gammas (timm
    gamma, HF lambda1) get layerscale * (1 + 0.2 * randn).
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
            elif leaf in ("gamma", "lambda1"):
                v = layerscale * (1.0 + 0.2 * r)
            elif "cls_token" in leaf or "pos_embed" in leaf or "position_embeddings" in leaf \
                    or "reg_token" in leaf or leaf in TOKEN_LEAVES \
                    or name.endswith("position_embedding.weight"):
                v = 0.5 * r
            elif p.dim() >= 2:
                fan_in = p[0].numel()
                v = r / math.sqrt(fan_in)
            else:
                v = 0.1 * r
            p.copy_(v.to(p.dtype))


# learned tokens drawn like cls_token (names that the first ten cases do not have)
TOKEN_LEAVES = {"dist_token", "distillation_token", "register_tokens", "mask_token", "latent",
                "probe", "class_embedding"}

# LayerScale value for the cases after the first ten (gamma / lambda1 = LS * (1 + 0.2 randn)):
# large enough that the blocks, not the shared class token, make the features differ
LS = 0.5


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
# resampling position grids: an independent float64 statement of what torch's
# F.interpolate(mode="bicubic", align_corners=False) does, so that the README's
# description of the two variants is checked by every resolution case

def _cubic(x, a):
    x = abs(x)
    if x < 1.0:
        return ((a + 2.0) * x - (a + 3.0)) * x * x + 1.0
    if x < 2.0:
        return (((x - 5.0) * x + 8.0) * x - 4.0) * a
    return 0.0


def resize_matrix(n_in, n_out, antialias):
    """(n_out, n_in) weights of a 1-D bicubic resize, align_corners=False.

    antialias=False: Keys cubic a = -0.75 on the 4 nearest inputs of the
    source position (i + 0.5) * n_in / n_out - 0.5, indices clamped to the
    edge. antialias=True (PIL style): a = -0.5, the kernel stretched by
    s = max(n_in / n_out, 1) (support 2s), taps truncated at the edges and
    the weights divided by their sum.
    """
    scale = n_in / n_out
    m = np.zeros((n_out, n_in))
    for i in range(n_out):
        center = (i + 0.5) * scale
        if antialias:
            s = max(scale, 1.0)
            lo = max(int(center - 2.0 * s + 0.5), 0)
            hi = min(int(center + 2.0 * s + 0.5), n_in)
            w = np.array([_cubic((j - center + 0.5) / s, -0.5) for j in range(lo, hi)])
            m[i, lo:hi] = w / w.sum()
        else:
            src = center - 0.5
            f = math.floor(src)
            t = src - f
            for k in range(-1, 3):
                m[i, min(max(f + k, 0), n_in - 1)] += _cubic(k - t, -0.75)
    return m


def check_resampled(new, old, old_hw, new_hw, antialias, tol, what):
    """new/old: (tokens, D) patch position rows (no prefix rows)."""
    d = old.shape[-1]
    g = old.reshape(old_hw[0], old_hw[1], d).double().numpy()
    want = np.einsum("ah,hwd,bw->abd", resize_matrix(old_hw[0], new_hw[0], antialias), g,
                     resize_matrix(old_hw[1], new_hw[1], antialias)).reshape(-1, d)
    err = np.abs(new.double().numpy() - want).max()
    assert err < tol, (what, err)
    print(f"   {what}: pos grid {old_hw[0]}x{old_hw[1]} -> {new_hw[0]}x{new_hw[1]}, bicubic "
          f"antialias={antialias}, max |torch - formula| = {err:.1e}")


def write_options(d, hw=None, preprocess=None):
    opts = {} if hw is None else {"image_height": hw[0], "image_width": hw[1]}
    opts.update(preprocess or {})
    with open(os.path.join(d, "options.json"), "w") as f:
        json.dump(opts, f)
        f.write("\n")


# Without config.json a model does not say its preprocessing: the tests state
# timm's ViT defaults (vit_options mean/std/interpolation/crop_pct).
STATED_PREPROCESS = {"mean": [0.5, 0.5, 0.5], "std": [0.5, 0.5, 0.5], "interpolation": "bicubic", "crop_pct": 0.9}


# timm_noconfig's architecture and kwargs (its files do not say them)
NOCONFIG = ("vit_tiny_patch16_224", dict(img_size=32, patch_size=8, embed_dim=64, num_heads=1, depth=2,
                                         mlp_ratio=2.0, num_classes=3, global_pool="token"))


# ---------------------------------------------------------------------------
# timm

def timm_reference(d, arch, kwargs, seed, run_hw=None):
    """The float64 eval model of case directory d, rebuilt from its model.safetensors.

    run_hw=(H, W): built at H x W, the file's state dict through timm's
    checkpoint_filter_fn (resample_abs_pos_embed: bicubic, antialias), the
    resampled grid checked against the formula. Returns (model, the file's
    state dict).
    """
    torch.manual_seed(seed)
    file_sd = load_file(os.path.join(d, "model.safetensors"))
    if run_hw is None:
        ref = timm.create_model(arch, pretrained=False, **kwargs).eval().double()
        sd = {k: v.double() for k, v in file_sd.items()}
    else:
        # the same architecture built at H x W, the file's state dict through
        # timm's checkpoint_filter_fn (resample_abs_pos_embed: bicubic, antialias)
        ref = timm.create_model(arch, pretrained=False, **dict(kwargs, img_size=tuple(run_hw))).eval()
        sd = timm.models.vision_transformer.checkpoint_filter_fn(dict(file_sd), ref)
        sd = {k: v.double() for k, v in sd.items()}
        ref = ref.double()
        old, new = file_sd["pos_embed"], sd["pos_embed"]
        assert old.shape != new.shape, "checkpoint_filter_fn did not resample pos_embed"
        npre = 0 if ref.no_embed_class else ref.num_prefix_tokens
        p = kwargs["patch_size"]
        old_hw = (kwargs["img_size"] // p, kwargs["img_size"] // p)
        new_hw = tuple(ref.patch_embed.grid_size)
        assert new_hw == (run_hw[0] // p, run_hw[1] // p) and old.shape[1] - npre == old_hw[0] * old_hw[1]
        assert torch.equal(new[0, :npre], old[0, :npre].double())
        # timm interpolates in float32, hence the tolerance
        check_resampled(new[0, npre:], old[0, npre:], old_hw, new_hw, True, 2e-6,
                        "checkpoint_filter_fn")
    ref.load_state_dict(sd, strict=True)
    return ref, file_sd


def make_timm(out, name, seed, n, arch, kwargs, dtype=torch.float32, layerscale=None,
              keep_config=True, run_hw=None):
    """run_hw=(H, W): save at the native size, reference at H x W (options.json)."""
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
        write_options(d, preprocess=STATED_PREPROCESS)

    # reference: a fresh float64 model loaded from the file just written
    ref, file_sd = timm_reference(d, arch, kwargs, seed, run_hw)
    c = ref.patch_embed.proj.in_channels
    h, w = ref.patch_embed.img_size
    x = inputs(seed + 2, n, c, h, w)
    distilled = hasattr(ref, "head_dist")
    with torch.no_grad():
        xd = x.double()
        tokens = ref.forward_features(xd)
        feats = ref.forward_head(tokens, pre_logits=True)
        logits = ref(xd) if ref.num_classes > 0 else None
        if distilled:
            # eval logits: mean of the two heads on their own tokens; features (cls + dist) / 2
            assert torch.equal(feats, (tokens[:, 0] + tokens[:, 1]) / 2)
            want = (ref.head(tokens[:, 0]) + ref.head_dist(tokens[:, 1])) / 2
            assert torch.allclose(want, logits, rtol=0, atol=1e-12)
        elif logits is not None:
            assert torch.allclose(ref.head(feats), logits, rtol=0, atol=1e-12)
        if run_hw is None:
            # the reloaded model must match the one that was saved
            m64 = model.double()
            assert torch.equal(m64.forward_head(m64.forward_features(xd), pre_logits=True), feats)
            if logits is not None:
                assert torch.equal(m64(xd), logits)
        else:
            # the same file run by timm's own dynamic_img_size path must agree
            torch.manual_seed(seed)
            dyn = timm.create_model(arch, pretrained=False, dynamic_img_size=True, **kwargs).eval().double()
            dyn.load_state_dict({k: v.double() for k, v in file_sd.items()}, strict=True)
            f2 = dyn.forward_head(dyn.forward_features(xd), pre_logits=True)
            assert torch.allclose(f2, feats, rtol=0, atol=1e-12), (f2 - feats).abs().max()
            m64 = model.double()     # and the in-memory model at its native size
            xn = inputs(seed + 3, n, c, kwargs["img_size"], kwargs["img_size"]).double()
            ref_n = timm.create_model(arch, pretrained=False, **kwargs).eval().double()
            ref_n.load_state_dict({k: v.double() for k, v in file_sd.items()}, strict=True)
            assert torch.equal(m64.forward_features(xn), ref_n.forward_features(xn))
    write_io(os.path.join(d, "io.bin"), x, logits, feats)
    if run_hw is not None:
        write_options(d, run_hw)
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


def hf_reference(d, model_cls):
    """The float64 eval model_cls of case directory d (from_pretrained), asserting
    that transformers reported no missing, unexpected or mismatched keys."""
    ref, info = model_cls.from_pretrained(d, output_loading_info=True)
    assert not any(info[k] for k in ("missing_keys", "unexpected_keys", "mismatched_keys")), info
    return ref.eval().double()


def make_hf_model(out, name, seed, n, model_cls, config, processor, outputs, run_hw=None,
                  layerscale=None, check=None):
    """Any transformers image model: save_pretrained + the family's image processor.

    outputs(model, x) -> (logits or None, features), asserting how they relate
    to the model's own outputs; check(ref, dir, x) adds case-specific asserts.
    run_hw=(H, W): the reference runs at H x W (options.json), the model
    resampling its position embeddings itself (interpolate_pos_encoding).
    """
    d = os.path.join(out, name)
    if os.path.isdir(d):
        shutil.rmtree(d)
    torch.manual_seed(seed)
    model = model_cls(config).eval()
    redraw_(model, seed + 1, layerscale=layerscale)
    model.save_pretrained(d, safe_serialization=True)
    processor.save_pretrained(d)
    tidy(d)

    ref = hf_reference(d, model_cls)
    vc = getattr(config, "vision_config", config)
    h, w = run_hw if run_hw is not None else (vc.image_size, vc.image_size)
    x = inputs(seed + 2, n, vc.num_channels, h, w)
    with torch.no_grad():
        xd = x.double()
        logits, feats = outputs(ref, xd)
        # the reloaded model must match the one that was saved
        lg2, f2 = outputs(model.double(), xd)
        assert torch.equal(f2, feats) and (logits is None or torch.equal(lg2, logits))
        if check is not None:
            check(ref, d, xd)
    write_io(os.path.join(d, "io.bin"), x, logits, feats)
    if run_hw is not None:
        write_options(d, run_hw)
    return d


def kw_res(run_hw):
    return {"interpolate_pos_encoding": True} if run_hw is not None else {}


def check_pos_interp(module, n_prefix, dim, old_hw, run_hw, patch, antialias, tol, what):
    """Call the embeddings' interpolate_pos_encoding as the forward does and check the grid."""
    new_hw = (run_hw[0] // patch, run_hw[1] // patch)
    emb = torch.zeros(1, n_prefix + new_hw[0] * new_hw[1], dim, dtype=torch.float64)
    got = module.interpolate_pos_encoding(emb, run_hw[0], run_hw[1])[0]
    if hasattr(module, "position_embedding"):
        old = module.position_embedding.weight
    else:
        old = module.position_embeddings[0]
    assert got.shape[0] == n_prefix + new_hw[0] * new_hw[1]
    assert old.shape[0] == n_prefix + old_hw[0] * old_hw[1]
    assert torch.equal(got[:n_prefix], old[:n_prefix])
    check_resampled(got[n_prefix:], old[n_prefix:], old_hw, new_hw, antialias, tol, what)


def vision_keys(d):
    with safe_open(os.path.join(d, "model.safetensors"), "pt") as f:
        return set(f.keys())


def check_tower_keys(d, tower_cls, vision_config, extra_vision, allowed_other):
    """Full two-tower file: the vision tower is vision_model.* (+ extra_vision)."""
    keys = vision_keys(d)
    want = {"vision_model." + k for k in tower_cls(vision_config).state_dict().keys()}
    got = {k for k in keys if k.startswith("vision_model.")}
    assert got == want, (got ^ want)
    assert extra_vision <= keys, extra_vision - keys
    other = keys - got - extra_vision
    assert all(k.startswith("text_model.") or k in allowed_other for k in other), other
    top = sorted(k for k in other if not k.startswith("text_model."))
    print(f"   {os.path.basename(d)}: {len(got)} vision_model.* tensors + {sorted(extra_vision)}; "
          f"the rest: {len(other)} tensors (text_model.* and {top})")


def check_swiglu_hf(ref, d, x):
    """Dinov2 SwiGLU is saved packed: weights_in rows [0, h) = gate (SiLU), [h, 2h) = up."""
    mlp = ref.encoder.layer[0].mlp
    with safe_open(os.path.join(d, "model.safetensors"), "pt") as f:
        w_in = f.get_tensor("encoder.layer.0.mlp.weights_in.weight").double()
        b_in = f.get_tensor("encoder.layer.0.mlp.weights_in.bias").double()
        w_out = f.get_tensor("encoder.layer.0.mlp.weights_out.weight").double()
        b_out = f.get_tensor("encoder.layer.0.mlp.weights_out.bias").double()
    hid = w_in.shape[0] // 2
    assert w_in.shape[0] == 2 * hid and w_out.shape[1] == hid
    t = torch.randn(5, w_in.shape[1], dtype=torch.float64, generator=torch.Generator().manual_seed(0))
    y = t @ w_in.T + b_in
    manual = (torch.nn.functional.silu(y[:, :hid]) * y[:, hid:]) @ w_out.T + b_out
    assert torch.allclose(mlp(t), manual, rtol=0, atol=1e-12)
    print(f"   {os.path.basename(d)}: weights_in {list(w_in.shape)} = [gate; up], "
          f"out = weights_out(silu(gate) * up), hidden {hid}")


def hf_cases(out):
    """The transformers cases (22 ... 35)."""
    T = transformers
    from transformers.image_utils import (IMAGENET_DEFAULT_MEAN, IMAGENET_DEFAULT_STD,
                                          PILImageResampling)
    bicubic = PILImageResampling.BICUBIC

    def bit(crop):     # facebook/dinov2-*: shortest_edge 256, crop 224, scaled to crop
        return T.BitImageProcessor(size={"shortest_edge": crop * 256 // 224},
                                   crop_size={"height": crop, "width": crop}, resample=bicubic,
                                   image_mean=IMAGENET_DEFAULT_MEAN, image_std=IMAGENET_DEFAULT_STD,
                                   do_convert_rgb=True)

    def clip_proc(s):  # openai/clip-vit-*: shortest_edge = crop
        return T.CLIPImageProcessor(size={"shortest_edge": s}, crop_size={"height": s, "width": s})

    def siglip_proc(s):
        return T.SiglipImageProcessor(size={"height": s, "width": s})

    def deit_proc(crop):  # facebook/deit-*: resize 256, crop 224, ImageNet mean/std
        r = crop * 256 // 224
        return T.DeiTImageProcessor(size={"height": r, "width": r}, crop_size={"height": crop, "width": crop},
                                    resample=bicubic, image_mean=IMAGENET_DEFAULT_MEAN,
                                    image_std=IMAGENET_DEFAULT_STD)

    def dinov2_out():
        # DINOv2 models resample their position grid by themselves at other sizes
        def f(m, x):
            o = m(pixel_values=x)
            assert torch.equal(o.pooler_output, o.last_hidden_state[:, 0])
            assert torch.equal(o.last_hidden_state, m.layernorm(m.encoder(m.embeddings(x)).last_hidden_state))
            return None, o.pooler_output
        return f

    def clip_proj_out(run_hw=None):
        def f(m, x):
            o = m(pixel_values=x, **kw_res(run_hw))
            v = m.vision_model(pixel_values=x, **kw_res(run_hw))
            assert torch.equal(v.pooler_output, m.vision_model.post_layernorm(v.last_hidden_state[:, 0]))
            assert torch.allclose(o.image_embeds, m.visual_projection(v.pooler_output), rtol=0, atol=1e-12)
            return o.image_embeds, v.pooler_output
        return f

    def clip_full_out(m, x):
        v = m.vision_model(pixel_values=x)
        img = m.get_image_features(pixel_values=x).pooler_output
        assert torch.equal(v.pooler_output, m.vision_model.post_layernorm(v.last_hidden_state[:, 0]))
        assert torch.allclose(img, m.visual_projection(v.pooler_output), rtol=0, atol=1e-12)
        return img, v.pooler_output

    def clip_vision_out(m, x):
        o = m(pixel_values=x)
        assert torch.equal(o.pooler_output, m.post_layernorm(o.last_hidden_state[:, 0]))
        return None, o.pooler_output

    def siglip_vision_out(m, x):
        o = m(pixel_values=x)
        # last_hidden_state is post_layernorm'ed; the MAP head pools it
        assert torch.equal(o.pooler_output, m.head(o.last_hidden_state))
        return None, o.pooler_output

    def siglip_head_check(ref, d, x):
        """SiglipMultiheadAttentionPoolingHead by hand: in_proj rows [q; k; v]."""
        tower = getattr(ref, "vision_model", ref)
        hd = tower.head
        hs = tower(pixel_values=x).last_hidden_state
        D = hs.shape[-1]
        H = hd.attention.num_heads
        w, b = hd.attention.in_proj_weight, hd.attention.in_proj_bias
        q = (hd.probe[0] @ w[:D].T + b[:D]).reshape(-1, H, D // H).transpose(0, 1)
        k = (hs @ w[D:2 * D].T + b[D:2 * D]).reshape(hs.shape[0], -1, H, D // H).transpose(1, 2)
        v = (hs @ w[2 * D:].T + b[2 * D:]).reshape(hs.shape[0], -1, H, D // H).transpose(1, 2)
        a = torch.softmax(q @ k.transpose(-1, -2) * (D // H) ** -0.5, -1) @ v
        y = a.transpose(1, 2).reshape(hs.shape[0], -1, D) @ hd.attention.out_proj.weight.T \
            + hd.attention.out_proj.bias
        y = y + hd.mlp(hd.layernorm(y))
        assert torch.allclose(y[:, 0], hd(hs), rtol=0, atol=1e-12)
        print(f"   {os.path.basename(d)}: head = probe query, in_proj = [q; k; v], out_proj, "
              f"+ mlp(layernorm(.)) (no residual around the attention), heads {H}")

    def siglip_full_out(m, x):
        v = m.vision_model(pixel_values=x).pooler_output
        assert torch.equal(m.get_image_features(pixel_values=x).pooler_output, v)
        return None, v

    def deit_teacher_out(m, x):
        o = m(pixel_values=x)
        hs = m.deit(pixel_values=x).last_hidden_state
        # last_hidden_state is already the final layernorm's output
        raw = m.deit.embeddings(x)
        for layer in m.deit.layers:
            raw = layer(raw, None)
        assert torch.equal(hs, m.deit.layernorm(raw))
        want = (m.cls_classifier(hs[:, 0]) + m.distillation_classifier(hs[:, 1])) / 2
        assert torch.allclose(o.logits, want, rtol=0, atol=1e-12)
        assert torch.allclose(o.cls_logits, m.cls_classifier(hs[:, 0]), rtol=0, atol=1e-12)
        return o.logits, (hs[:, 0] + hs[:, 1]) / 2

    def deit_out(m, x):
        o = m(pixel_values=x)
        hs = m.deit(pixel_values=x).last_hidden_state
        assert torch.allclose(o.logits, m.classifier(hs[:, 0]), rtol=0, atol=1e-12)
        return o.logits, hs[:, 0]

    def vitmodel_out(m, x):
        o = m(pixel_values=x)
        assert m.pooler is not None and o.pooler_output is not None   # present but not used
        return None, o.last_hidden_state[:, 0]

    def dino_res_check(antialias, n_prefix, run_hw):
        def f(ref, d, x):
            c = ref.config
            g = c.image_size // c.patch_size
            check_pos_interp(ref.embeddings, n_prefix, c.hidden_size, (g, g), run_hw, c.patch_size,
                             antialias, 2e-6, f"{os.path.basename(d)} interpolate_pos_encoding")
        return f

    def clip_res_check(run_hw):
        def f(ref, d, x):
            c = ref.config
            g = c.image_size // c.patch_size
            check_pos_interp(ref.vision_model.embeddings, 1, c.hidden_size, (g, g), run_hw, c.patch_size,
                             False, 1e-12, f"{os.path.basename(d)} interpolate_pos_encoding")
        return f

    def clip_full_check(ref, d, x):
        check_tower_keys(d, T.CLIPVisionModel, ref.config.vision_config, {"visual_projection.weight"},
                         {"text_projection.weight", "logit_scale"})

    def siglip_full_check(ref, d, x):
        siglip_head_check(ref, d, x)
        check_tower_keys(d, T.SiglipVisionModel, ref.config.vision_config, set(),
                         {"logit_scale", "logit_bias"})

    cases = []

    def add(name, fn):
        cases.append((name, fn))

    # sizes as for timm (timm_cases): width 16 (2 heads) or 24 (3 heads), MLP 2x
    v = dict(hidden_size=16, num_hidden_layers=2, image_size=28, patch_size=4)
    v24 = dict(v, hidden_size=24)
    # 22. DINOv2: LayerScale (lambda1), exact GELU, eps 1e-6, pooler = normed cls
    add("hf_dinov2", lambda: make_hf_model(
        out, "hf_dinov2", 2200, 2, T.Dinov2Model,
        T.Dinov2Config(**v, num_attention_heads=2, mlp_ratio=2), bit(28), dinov2_out(), layerscale=LS))
    # 23. DINOv2 with 4 registers (no position rows for them)
    add("hf_dinov2_registers", lambda: make_hf_model(
        out, "hf_dinov2_registers", 2300, 2, T.Dinov2WithRegistersModel,
        T.Dinov2WithRegistersConfig(**v, num_attention_heads=2, mlp_ratio=2, num_register_tokens=4),
        bit(28), dinov2_out(), layerscale=LS))
    # 24. DINOv2 SwiGLU FFN (packed weights_in): hidden (int(48 * 2 / 3) + 7) // 8 * 8 = 32
    add("hf_dinov2_swiglu", lambda: make_hf_model(
        out, "hf_dinov2_swiglu", 2400, 2, T.Dinov2Model,
        T.Dinov2Config(**v, num_attention_heads=2, mlp_ratio=3, use_swiglu_ffn=True), bit(28), dinov2_out(),
        layerscale=LS, check=check_swiglu_hf))
    # 25. CLIP vision tower + visual projection (quick_gelu, pre_layrnorm, no patch bias)
    add("hf_clip_vision_proj", lambda: make_hf_model(
        out, "hf_clip_vision_proj", 2500, 2, T.CLIPVisionModelWithProjection,
        T.CLIPVisionConfig(**v24, intermediate_size=48, num_attention_heads=3, projection_dim=16),
        clip_proc(28), clip_proj_out()))
    # 26. full CLIPModel: the vision tower and visual_projection out of a two-tower file
    add("hf_clip_full", lambda: make_hf_model(
        out, "hf_clip_full", 2600, 2, T.CLIPModel,
        T.CLIPConfig(
            text_config=dict(vocab_size=32, hidden_size=16, intermediate_size=32, num_hidden_layers=1,
                             num_attention_heads=2, max_position_embeddings=8, pad_token_id=1,
                             bos_token_id=30, eos_token_id=31),
            vision_config=dict(v, intermediate_size=32, num_attention_heads=2),
            projection_dim=20), clip_proc(28), clip_full_out, check=clip_full_check))
    # 27. CLIP vision tower without projection; hidden_act gelu (as laion's hub configs)
    add("hf_clip_vision", lambda: make_hf_model(
        out, "hf_clip_vision", 2700, 2, T.CLIPVisionModel,
        T.CLIPVisionConfig(**v, intermediate_size=32, num_attention_heads=4, hidden_act="gelu"),
        clip_proc(28), clip_vision_out))
    # 28. SigLIP vision tower: no cls, MAP head (nn.MultiheadAttention), tanh GELU
    add("hf_siglip_vision", lambda: make_hf_model(
        out, "hf_siglip_vision", 2800, 2, T.SiglipVisionModel,
        T.SiglipVisionConfig(**v, intermediate_size=32, num_attention_heads=2), siglip_proc(28),
        siglip_vision_out, check=siglip_head_check))
    # 29. full SiglipModel
    add("hf_siglip_full", lambda: make_hf_model(
        out, "hf_siglip_full", 2900, 2, T.SiglipModel,
        T.SiglipConfig(
            text_config=dict(vocab_size=32, hidden_size=16, intermediate_size=32, num_hidden_layers=1,
                             num_attention_heads=2, max_position_embeddings=8, projection_size=16,
                             pad_token_id=1, bos_token_id=30, eos_token_id=31),
            vision_config=dict(v, intermediate_size=32, num_attention_heads=2)),
        siglip_proc(28), siglip_full_out, check=siglip_full_check))
    # 30. DeiT with the distillation head: logits = mean of the two heads
    add("hf_deit_teacher", lambda: make_hf_model(
        out, "hf_deit_teacher", 3000, 3, T.DeiTForImageClassificationWithTeacher,
        T.DeiTConfig(**v24, intermediate_size=48, num_attention_heads=3, num_labels=5), deit_proc(28),
        deit_teacher_out))
    # 31. DeiT classifier on the class token only (the dist token is still there)
    add("hf_deit", lambda: make_hf_model(
        out, "hf_deit", 3100, 2, T.DeiTForImageClassification,
        T.DeiTConfig(**v, intermediate_size=32, num_attention_heads=2, num_labels=4), deit_proc(28),
        deit_out))
    # 32. ViTModel: pooler.dense in the file, features = normed class token (pooler not applied)
    add("hf_vitmodel_headless", lambda: make_hf_model(
        out, "hf_vitmodel_headless", 3200, 2, T.ViTModel,
        T.ViTConfig(**v, intermediate_size=32, num_attention_heads=2),
        T.ViTImageProcessor(size={"height": 28, "width": 28}), vitmodel_out))
    # 33-35. other resolutions (options.json): one axis up, the other down
    res = (42, 21)       # patch 7: 4x4 grid -> 6x3
    add("hf_dinov2_registers_res", lambda: make_hf_model(
        out, "hf_dinov2_registers_res", 3300, 2, T.Dinov2WithRegistersModel,
        T.Dinov2WithRegistersConfig(**dict(v, patch_size=7), num_attention_heads=2, mlp_ratio=2,
                                    num_register_tokens=4),
        bit(28), dinov2_out(), run_hw=res, layerscale=LS, check=dino_res_check(True, 1, res)))
    res_clip = (24, 40)  # patch 4: 7x7 grid -> 6x10
    add("hf_clip_vision_proj_res", lambda: make_hf_model(
        out, "hf_clip_vision_proj_res", 3400, 2, T.CLIPVisionModelWithProjection,
        T.CLIPVisionConfig(**v, intermediate_size=32, num_attention_heads=2, projection_dim=12),
        clip_proc(28), clip_proj_out(res_clip), run_hw=res_clip, check=clip_res_check(res_clip)))
    res_dino = (36, 24)  # patch 4: 7x7 grid -> 9x6
    add("hf_dinov2_res", lambda: make_hf_model(
        out, "hf_dinov2_res", 3500, 2, T.Dinov2Model,
        T.Dinov2Config(**v, num_attention_heads=2, mlp_ratio=2), bit(28), dinov2_out(),
        run_hw=res_dino, layerscale=LS, check=dino_res_check(False, 1, res_dino)))
    return cases


# ---------------------------------------------------------------------------

HF_KEYS = ("architectures", "model_type", "hidden_act", "layer_norm_eps", "hidden_size",
           "num_attention_heads", "num_hidden_layers", "intermediate_size", "mlp_ratio", "image_size",
           "patch_size", "num_channels", "num_register_tokens", "use_swiglu_ffn", "layerscale_value",
           "qkv_bias", "use_mask_token", "vision_use_head", "projection_dim", "projection_size",
           "num_labels", "id2label", "pooler_act", "pooler_output_size", "logit_scale_init_value")


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
        if "pretrained_cfg" in cfg:
            pc = cfg["pretrained_cfg"]
            print("     pretrained_cfg: " + json.dumps({k: pc[k] for k in (
                "input_size", "interpolation", "crop_pct", "crop_mode", "mean", "std", "classifier")
                if k in pc}))
        for sub in (None, "vision_config", "text_config"):
            c = cfg if sub is None else cfg.get(sub)
            if c is None or "model_type" not in c and sub is None:
                continue
            if sub == "text_config":
                c = {k: c[k] for k in ("model_type", "hidden_size", "num_hidden_layers", "vocab_size",
                                       "projection_size") if k in c}
            got = {k: c[k] for k in HF_KEYS if k in c}
            print(f"     {sub or 'config'}: {json.dumps(got)}")
    else:
        print("   (no config.json)")
    for extra in ("preprocessor_config.json", "options.json"):
        ep = os.path.join(d, extra)
        if os.path.exists(ep) and (extra == "options.json" or os.path.basename(d) != "hf_vit"):
            with open(ep) as fh:
                print(f"   {extra}: {json.dumps(json.load(fh))}")
    with open(os.path.join(d, "io.bin"), "rb") as fh:
        hdr = struct.unpack("<8i", fh.read(32))
    print(f"   io.bin header: n={hdr[1]} c={hdr[2]} h={hdr[3]} w={hdr[4]} k={hdr[5]} d={hdr[6]}")
    sizes = {fn: os.path.getsize(os.path.join(d, fn)) for fn in sorted(os.listdir(d))}
    print(f"   files: {sizes}")


def check_glu_timm(d, mlp):
    """timm SwiGLUPacked (GluMlp, gate_last=False): fc1 rows [0, h) are the gate (SiLU)."""
    w1, b1, w2, b2 = mlp.fc1.weight, mlp.fc1.bias, mlp.fc2.weight, mlp.fc2.bias
    hid = w1.shape[0] // 2
    assert w1.shape[0] == 2 * hid and w2.shape[1] == hid, "fc1's output width must be even"
    t = torch.randn(5, w1.shape[1], dtype=w1.dtype, generator=torch.Generator().manual_seed(0))
    y = t @ w1.T + b1
    manual = (torch.nn.functional.silu(y[:, :hid]) * y[:, hid:]) @ w2.T + b2
    with torch.no_grad():
        assert torch.allclose(mlp(t), manual, rtol=0, atol=1e-12)
    print(f"   {os.path.basename(d)}: fc1 {list(w1.shape)} = [gate; up], out = fc2(silu(gate) * up)")


def check_map_timm(d, pool, x):
    """timm AttentionPoolLatent by hand: q = q(latent), kv rows [0, D) = k, [D, 2D) = v."""
    D, H = pool.q.weight.shape[0], pool.num_heads
    q = (pool.latent[0] @ pool.q.weight.T + pool.q.bias).reshape(-1, H, D // H).transpose(0, 1)
    kv = x @ pool.kv.weight.T + pool.kv.bias                      # (B, N, 2D)
    k = kv[..., :D].reshape(x.shape[0], -1, H, D // H).transpose(1, 2)
    v = kv[..., D:].reshape(x.shape[0], -1, H, D // H).transpose(1, 2)
    a = torch.softmax(q @ k.transpose(-1, -2) * (D // H) ** -0.5, -1) @ v
    y = a.transpose(1, 2).reshape(x.shape[0], -1, D) @ pool.proj.weight.T + pool.proj.bias
    y = y + pool.mlp(pool.norm(y))
    assert torch.allclose(y[:, 0], pool(x), rtol=0, atol=1e-12)
    print(f"   {os.path.basename(d)}: attn_pool = latent query, kv = [k; v], proj, + mlp(norm(.)) "
          f"(no residual around the attention), heads {H}")


def timm_cases(out):
    """The timm cases added after the first ten (11 ... 21)."""
    cases = []

    def add(name, fn):
        cases.append((name, fn))

    def load_ref(d, arch, kw):
        # the float64 model loaded from the saved file, for case-specific checks
        m = timm.create_model(arch, pretrained=False, **kw).eval().double()
        sd = load_file(os.path.join(d, "model.safetensors"))
        m.load_state_dict({k: v.double() for k, v in sd.items()}, strict=True)
        return m

    # Sizes: width 16 (2 heads of 8, MLP 32) or 24 (3 heads of 8, MLP 48), depth
    # 2, 28 px images, patch 4 (7x7 grid), n = 2 (3 for a few). The first ten
    # cases use widths 32-72, but at width 32 the four attention matrices of
    # two blocks alone are 32 KB a case, and these 25 cases are kept under
    # 1.5 MB in all. Widths, MLP widths and patch K (48) are multiples of 8, so
    # the vectorised GPU paths run as for real models.
    base = dict(img_size=28, patch_size=4, embed_dim=16, depth=2, num_heads=2, mlp_ratio=2.0)
    base24 = dict(base, embed_dim=24, num_heads=3)
    # 11. DeiT distilled: cls + dist tokens, head + head_dist
    add("timm_deit_distilled", lambda: make_timm(
        out, "timm_deit_distilled", 1100, 3, "deit_tiny_distilled_patch16_224", dict(
            base24, num_classes=5)))
    # 12. DINOv2 with 4 registers: no_embed_class, LayerScale
    reg4 = dict(base, num_classes=5, init_values=LS)
    add("timm_reg4_dinov2", lambda: make_timm(
        out, "timm_reg4_dinov2", 1200, 2, "vit_small_patch14_reg4_dinov2", reg4, layerscale=LS))
    # 13. DINOv2 giant's SwiGLUPacked MLP (SiLU), LayerScale; fc1 64 wide = [gate 32; up 32]
    glu = dict(base, num_classes=3, init_values=LS, mlp_ratio=4.0)

    def glu_case():
        d = make_timm(out, "timm_swiglu_dinov2", 1300, 2, "vit_giant_patch14_dinov2", glu, layerscale=LS)
        check_glu_timm(d, load_ref(d, "vit_giant_patch14_dinov2", glu).blocks[0].mlp)
        return d
    add("timm_swiglu_dinov2", glu_case)
    # 14/15. CLIP towers: norm_pre, LayerNorm eps 1e-5, no patch bias; QuickGELU / GELU
    add("timm_clip_quickgelu", lambda: make_timm(
        out, "timm_clip_quickgelu", 1400, 2, "vit_base_patch32_clip_quickgelu_224", dict(
            base, num_classes=8)))
    add("timm_clip_gelu", lambda: make_timm(
        out, "timm_clip_gelu", 1500, 2, "vit_base_patch16_clip_224", dict(
            base, num_heads=4, num_classes=6)))
    # 16/17. SigLIP: no class token, MAP pooling (AttentionPoolLatent); GELU / tanh GELU

    def map_case(name, seed, arch, kw):
        def f():
            d = make_timm(out, name, seed, 2, arch, kw)
            m = load_ref(d, arch, kw)
            x = inputs(seed + 2, 2, 3, kw["img_size"], kw["img_size"]).double()
            with torch.no_grad():
                check_map_timm(d, m.attn_pool, m.forward_features(x))
            return d
        return f
    add("timm_siglip_map", map_case("timm_siglip_map", 1600, "vit_base_patch16_siglip_224", dict(
        base, num_classes=0)))
    add("timm_siglip2_map_head", map_case("timm_siglip2_map_head", 1700, "vit_base_patch32_siglip_256", dict(
        base24, num_classes=4)))
    # 18. qk-norm: LayerNorm over each head's q and k
    add("timm_qknorm", lambda: make_timm(
        out, "timm_qknorm", 1800, 2, "vit_tiny_patch16_224", dict(
            base, num_classes=3, qk_norm=True)))
    # 19. registers + avg pooling over patch tokens + fc_norm, LayerScale
    add("timm_reg_gap", lambda: make_timm(
        out, "timm_reg_gap", 1900, 2, "vit_medium_patch16_reg4_gap_256", dict(
            base, num_classes=3), layerscale=LS))
    # 20/21. other resolutions (options.json): timm's resample_abs_pos_embed
    add("timm_resample_up", lambda: make_timm(
        out, "timm_resample_up", 2000, 2, "vit_tiny_patch16_224", dict(
            base, img_size=32, patch_size=8, num_classes=4, global_pool="token"),
        run_hw=(48, 40)))
    add("timm_resample_down", lambda: make_timm(
        out, "timm_resample_down", 2100, 2, "vit_small_patch14_reg4_dinov2", dict(
            reg4, img_size=35, patch_size=7), layerscale=LS, run_hw=(21, 28)))
    return cases


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, help="output directory, e.g. tests/data/ref")
    ap.add_argument("--cases", nargs="*", metavar="NAME",
                    help="(re)generate only these cases (default: all)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)

    out = args.out
    tiny = "vit_tiny_patch16_224"
    case1 = dict(img_size=40, patch_size=8, in_chans=3, embed_dim=72, num_heads=3, depth=2,
                 mlp_ratio=4.0, num_classes=10, global_pool="token")
    cases = []

    def add(name, fn):
        cases.append((name, fn))

    # 1. token pooling, head_dim 24 (not a power of 2)
    add("timm_token_odd_heads", lambda: make_timm(out, "timm_token_odd_heads", 100, 3, tiny, case1))
    # 2. no class token, avg pooling: norm = Identity, fc_norm = LayerNorm
    add("timm_avg_noclass", lambda: make_timm(out, "timm_avg_noclass", 200, 2, tiny, dict(
        img_size=32, patch_size=8, embed_dim=32, num_heads=4, depth=2, mlp_ratio=3.0,
        num_classes=6, class_token=False, global_pool="avg")))
    # 3. class token kept but avg pooling over patch tokens only, fc_norm
    add("timm_avg_fcnorm_cls", lambda: make_timm(out, "timm_avg_fcnorm_cls", 300, 2, tiny, dict(
        img_size=32, patch_size=8, embed_dim=32, num_heads=2, depth=2, mlp_ratio=2.0,
        num_classes=4, class_token=True, global_pool="avg", fc_norm=True)))
    # 4. one channel, 28x28, patch 4 (Fashion-MNIST shaped)
    add("timm_1ch", lambda: make_timm(out, "timm_1ch", 400, 4, tiny, dict(
        img_size=28, patch_size=4, in_chans=1, embed_dim=36, num_heads=3, depth=2,
        mlp_ratio=4.0, num_classes=10, global_pool="token")))
    # 5/6. case 1 stored in half precision; reference from the rounded weights
    add("timm_f16", lambda: make_timm(out, "timm_f16", 100, 3, tiny, case1, dtype=torch.float16))
    add("timm_bf16", lambda: make_timm(out, "timm_bf16", 100, 3, tiny, case1, dtype=torch.bfloat16))
    # 7. no config.json: everything from shapes, num_heads = embed_dim / 64
    add("timm_noconfig", lambda: make_timm(out, "timm_noconfig", 700, 2, *NOCONFIG, keep_config=False))
    # 8. Hugging Face transformers ViTForImageClassification
    add("hf_vit", lambda: make_hf(out, "hf_vit", 800, 3, dict(
        hidden_size=48, num_hidden_layers=2, num_attention_heads=4, intermediate_size=96,
        image_size=32, patch_size=8, num_channels=3, num_labels=5,
        id2label={0: "airplane", 1: "bird", 2: "cat", 3: "dog", 4: "frog"},
        label2id={"airplane": 0, "bird": 1, "cat": 2, "dog": 3, "frog": 4})))
    # 9. LayerScale (blocks.N.ls1.gamma / ls2.gamma) and qkv without bias
    add("timm_layerscale_qkvnobias", lambda: make_timm(out, "timm_layerscale_qkvnobias", 900, 2, tiny, dict(
        img_size=32, patch_size=8, embed_dim=32, num_heads=4, depth=2, mlp_ratio=4.0,
        num_classes=7, global_pool="token", init_values=0.1, qkv_bias=False),
        layerscale=0.1))
    # 10. extra: deit3-style pos_embed without the cls slot, and no head (k = 0)
    add("timm_noembedclass_nohead", lambda: make_timm(out, "timm_noembedclass_nohead", 1000, 2, tiny, dict(
        img_size=32, patch_size=8, embed_dim=32, num_heads=2, depth=2, mlp_ratio=4.0,
        num_classes=0, global_pool="token", no_embed_class=True)))
    # 11 ... the new families; every case seeds its own generators, so the
    # order (and --cases) does not change any other case's bytes
    cases += timm_cases(out)
    cases += hf_cases(out)

    names = [nm for nm, _ in cases]
    assert len(set(names)) == len(names)
    want = names if not args.cases else args.cases
    unknown = [nm for nm in want if nm not in names]
    if unknown:
        sys.exit(f"unknown case(s) {unknown}; known: {names}")
    dirs = []
    for nm, fn in cases:
        if nm in want:
            print(f"-- {nm}")
            dirs.append(fn())

    for d in dirs:
        describe(d)
    total = sum(os.path.getsize(os.path.join(dp, f)) for dp, _, fs in os.walk(out) for f in fs)
    print(f"total bytes under {out}: {total}")
    print(f"versions: python {sys.version.split()[0]} torch {torch.__version__} "
          f"timm {timm.__version__} transformers {transformers.__version__} "
          f"safetensors {safetensors.__version__} numpy {np.__version__}")


if __name__ == "__main__":
    main()
