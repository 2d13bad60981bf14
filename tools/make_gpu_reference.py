#!/usr/bin/env python3
"""Write real-size ViT references for tests/test_gpu_model.cu (run on the GPU machine).

timm ViT-Ti/S/B/L (--arch, on by default): timm.create_model(arch,
pretrained=False), every parameter re-drawn as tools/make_reference.py does (so
no bias or norm is trivial), saved with timm's save_for_hf (model.safetensors +
config.json) into OUT/<arch>/, and io.bin (layout in tests/data/ref/README.md)
holding N random normalised inputs and the logits and pre-logits features that
PyTorch computes in float32 on the GPU with TF32 off.

--families adds the real-size model families vit.h loads, random-init and
re-drawn the same way, each saved the way its library saves it, at its native
size (OUT/<name>/) and at one non-square size (OUT/<name>_<H>x<W>/: the same
model files, hard-linked, plus options.json {"image_height": H, "image_width":
W}; the reference runs at H x W, the position embedding resampled by the
library itself):

  dinov2_s14_reg4_518        timm vit_small_patch14_reg4_dinov2, 518 px, no head (k = 0),
                             features = forward_head(pre_logits=True) (normed class token)
  dinov2_s14_reg4_448x224    timm.create_model(img_size=(448, 224)) + checkpoint_filter_fn
  clip_b32_224               HF CLIPVisionModelWithProjection (openai/clip-vit-base-patch32
                             sizes, quick_gelu, eps 1e-5) + CLIPImageProcessor; logits =
                             image_embeds (k = 512), features = pooler_output
  clip_b32_320x192           forward(interpolate_pos_encoding=True)
  clip_l14_336               HF CLIPVisionModelWithProjection (openai/clip-vit-large-patch14-336
                             sizes), k = 768
  clip_l14_336x224           forward(interpolate_pos_encoding=True)
  siglip_b16_384             HF SiglipVisionModel (google/siglip-base-patch16-384 sizes,
                             gelu_pytorch_tanh, eps 1e-6, MAP head) + SiglipImageProcessor;
                             k = 0, features = pooler_output (the MAP head's output)
  siglip_b16_384x256         forward(interpolate_pos_encoding=True)
  deit_b16_dist_224          timm deit_base_distilled_patch16_224; logits = eval output (mean
                             of the two heads), features = pre_logits ((cls + dist) / 2)
  deit_b16_dist_224x320      timm.create_model(img_size=(224, 320)) + deit checkpoint_filter_fn

--tiny builds every family case with 2 blocks (widths unchanged) and runs
where CUDA is missing too: a quick check that every case runs (not for tests).
The family builders are also used by tools/bench.py (family_model, save_family).

usage: python3 tools/make_gpu_reference.py --out /tmp/vit_gpu_ref [--n 4] [--arch ...]
                                           [--families [NAME ...]] [--tiny]
"""

import argparse
import json
import os
import shutil
import sys

import torch

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_reference import inputs, redraw_, tidy, write_io  # noqa: E402

import timm  # noqa: E402
from timm.models._hub import save_for_hf  # noqa: E402

ARCHS = ["vit_tiny_patch16_224", "vit_small_patch16_224", "vit_base_patch16_224", "vit_large_patch16_224"]


# ---------------------------------------------------------------------------
# the families: name -> how to build, save and run it

def _clip_cfg(hidden, layers, heads, mlp, patch, image, proj):
    return dict(hidden_size=hidden, num_hidden_layers=layers, num_attention_heads=heads, intermediate_size=mlp,
                patch_size=patch, image_size=image, projection_dim=proj, hidden_act="quick_gelu",
                layer_norm_eps=1e-5, num_channels=3)


FAMILIES = {
    # timm DINOv2 ViT-S/14 with 4 registers (LayerScale: gammas 0.1 * (1 + 0.2 randn))
    "dinov2_s14_reg4": dict(lib="timm", arch="vit_small_patch14_reg4_dinov2", kwargs=dict(num_classes=0),
                            image=518, res=(448, 224), n=4, seed=5000, layerscale=0.1,
                            names=("dinov2_s14_reg4_518", "dinov2_s14_reg4_448x224")),
    # openai/clip-vit-base-patch32
    "clip_b32": dict(lib="hf_clip", config=_clip_cfg(768, 12, 12, 3072, 32, 224, 512),
                     image=224, res=(320, 192), n=4, seed=5100, names=("clip_b32_224", "clip_b32_320x192")),
    # openai/clip-vit-large-patch14-336
    "clip_l14": dict(lib="hf_clip", config=_clip_cfg(1024, 24, 16, 4096, 14, 336, 768),
                     image=336, res=(336, 224), n=2, seed=5200, names=("clip_l14_336", "clip_l14_336x224")),
    # google/siglip-base-patch16-384
    "siglip_b16": dict(lib="hf_siglip", config=dict(
        hidden_size=768, num_hidden_layers=12, num_attention_heads=12, intermediate_size=3072, patch_size=16,
        image_size=384, hidden_act="gelu_pytorch_tanh", layer_norm_eps=1e-6, num_channels=3, vision_use_head=True),
        image=384, res=(384, 256), n=2, seed=5300, names=("siglip_b16_384", "siglip_b16_384x256")),
    # timm DeiT-B distilled (class + distillation tokens, two heads)
    "deit_b16_dist": dict(lib="timm", arch="deit_base_distilled_patch16_224", kwargs={},
                          image=224, res=(224, 320), n=4, seed=5400,
                          names=("deit_b16_dist_224", "deit_b16_dist_224x320")),
}


def case_names(key):
    """(native directory name, non-square directory name) of a family."""
    return FAMILIES[key]["names"]


# learned tokens and position tables that tools/make_reference.py's redraw_ may
# leave at std 1/sqrt(fan_in) or 0.1 (an older copy of it knows only cls_token,
# pos_embed, position_embeddings and reg_token): drawn here with std 0.5, as
# its README says of cls/pos embeddings, from a generator of our own, so that
# the values do not depend on which copy of redraw_ is imported.
TOKENS = ("cls_token", "dist_token", "reg_token", "pos_embed", "class_embedding", "probe", "latent",
          "register_tokens", "distillation_token", "position_embeddings")


def redraw_family_(model, seed, layerscale=None):
    redraw_(model, seed, layerscale=layerscale)
    g = torch.Generator().manual_seed(seed + 777)
    with torch.no_grad():
        for name, p in model.named_parameters():
            leaf = name.rpartition(".")[2]
            if leaf in TOKENS or name.endswith("position_embedding.weight"):
                p.copy_((0.5 * torch.randn(p.shape, generator=g, dtype=torch.float32)).to(p.dtype))
        for name, p in model.named_parameters():
            # nothing left at its init constant (zeros, ones, one value everywhere)
            assert p.numel() < 2 or p.float().std().item() > 1e-3, f"{name} is still constant"


def family_model(key, tiny=False, num_classes=None, lib=None):
    """The family's random-init model (float32, eval, CPU), every parameter re-drawn.

    num_classes: timm only, overrides the family's head (tools/bench.py gives
    headless models a head: vit_bench's model mode times vit_forward_async).
    lib="timm" for siglip_b16 builds timm's vit_base_patch16_siglip_384 (the
    same tower, MAP head) instead of transformers' SiglipVisionModel.
    """
    f = FAMILIES[key]
    lib = lib or f["lib"]
    torch.manual_seed(f["seed"])
    if lib == "timm":
        arch = f["arch"] if "arch" in f else {"siglip_b16": "vit_base_patch16_siglip_384"}[key]
        kw = dict(f.get("kwargs", {}))
        if num_classes is not None:
            kw["num_classes"] = num_classes
        if tiny:
            kw["depth"] = 2
        model = timm.create_model(arch, pretrained=False, **kw)
    elif lib in ("hf_clip", "hf_siglip"):
        import transformers as T
        cfg = dict(f["config"])
        if tiny:
            cfg["num_hidden_layers"] = 2
        if lib == "hf_clip":
            model = T.CLIPVisionModelWithProjection(T.CLIPVisionConfig(**cfg))
        else:
            model = T.SiglipVisionModel(T.SiglipVisionConfig(**cfg))
    else:
        raise ValueError(lib)
    model = model.eval().float()
    model.vit_lib = lib
    redraw_family_(model, f["seed"] + 1, layerscale=f.get("layerscale"))
    return model


def save_family(model, key, d):
    """Write model.safetensors, config.json (+ preprocessor_config.json for HF) into d."""
    import transformers as T
    T.utils.logging.disable_progress_bar()
    f = FAMILIES[key]
    if os.path.isdir(d):
        shutil.rmtree(d)
    os.makedirs(d)
    if model.vit_lib == "timm":
        save_for_hf(model, d, safe_serialization=True)
    else:
        model.save_pretrained(d, safe_serialization=True)
        s = f["image"]
        if model.vit_lib == "hf_clip":   # openai/clip-vit-*: shortest edge = crop
            proc = T.CLIPImageProcessor(size={"shortest_edge": s}, crop_size={"height": s, "width": s})
        else:
            proc = T.SiglipImageProcessor(size={"height": s, "width": s})
        proc.save_pretrained(d)
    tidy(d)


def family_forward(model, x, res=False):
    """(logits or None, features) as the library computes them; res: at x's size
    through the library's own position-embedding interpolation (HF)."""
    if model.vit_lib == "timm":
        tokens = model.forward_features(x)
        feats = model.forward_head(tokens, pre_logits=True)
        logits = model.forward_head(tokens) if model.num_classes > 0 else None
        if hasattr(model, "head_dist") and logits is not None:
            # eval: the mean of the class token's and the distillation token's heads
            assert not model.distilled_training
            want = (model.head(tokens[:, 0]) + model.head_dist(tokens[:, 1])) / 2
            assert torch.allclose(want, logits, rtol=1e-5, atol=1e-5 * want.abs().max().item())
        return logits, feats
    kw = {"interpolate_pos_encoding": True} if res else {}
    if model.vit_lib == "hf_clip":
        o = model(pixel_values=x, **kw)
        v = model.vision_model(pixel_values=x, **kw)
        emb = model.visual_projection(v.pooler_output)
        assert torch.allclose(o.image_embeds, emb, rtol=0, atol=1e-5 * emb.abs().max().item())
        return o.image_embeds, v.pooler_output
    o = model(pixel_values=x, **kw)
    return None, o.pooler_output


def _res_model_from_file(key, d_native, run_hw, tiny):
    """The family's model at run_hw, loaded from the native file the way its library does it."""
    from safetensors.torch import load_file
    f = FAMILIES[key]
    if f["lib"] == "timm":
        arch = f["arch"]
        kw = dict(f.get("kwargs", {}), img_size=tuple(run_hw))
        if tiny:
            kw["depth"] = 2
        torch.manual_seed(f["seed"])
        model = timm.create_model(arch, pretrained=False, **kw).eval()
        mod = timm.models.deit if arch.startswith("deit") else timm.models.vision_transformer
        file_sd = load_file(os.path.join(d_native, "model.safetensors"))
        sd = mod.checkpoint_filter_fn(dict(file_sd), model)
        assert sd["pos_embed"].shape != file_sd["pos_embed"].shape, "checkpoint_filter_fn did not resample pos_embed"
        model.load_state_dict(sd, strict=True)
        model.vit_lib = "timm"
        return model.float()
    import transformers as T
    T.utils.logging.disable_progress_bar()
    cls = T.CLIPVisionModelWithProjection if f["lib"] == "hf_clip" else T.SiglipVisionModel
    model, info = cls.from_pretrained(d_native, output_loading_info=True)
    assert not any(info[k] for k in ("missing_keys", "unexpected_keys", "mismatched_keys")), info
    model = model.eval().float()
    model.vit_lib = f["lib"]
    return model


def _link_or_copy(src, dst):
    try:
        os.link(src, dst)
    except OSError:
        shutil.copyfile(src, dst)


def _summary(name, d, x, logits, feats):
    n, c, h, w = x.shape
    k = 0 if logits is None else logits.shape[1]
    lg = f", logits max |{logits.abs().max().item():.3g}|" if logits is not None else ""
    return (f"{name}: {d} (n={n}, {c}x{h}x{w}, k={k}, d={feats.shape[1]}{lg}, "
            f"features max |{feats.abs().max().item():.3g}|)")


def make_family(out, key, dev, tiny=False, n=None):
    """Write OUT/<native>/ and OUT/<HxW>/ for one family; returns the two directories."""
    f = FAMILIES[key]
    n = n or f["n"]
    native, resname = case_names(key)
    d = os.path.join(out, native)
    model = family_model(key, tiny=tiny)
    save_family(model, key, d)
    seed = f["seed"]
    s = f["image"]
    x = inputs(seed + 2, n, 3, s, s)
    model = model.to(dev)
    with torch.no_grad():
        logits, feats = family_forward(model, x.to(dev))
    logits = None if logits is None else logits.float().cpu()
    feats = feats.float().cpu()
    assert torch.isfinite(feats).all() and (logits is None or torch.isfinite(logits).all())
    write_io(os.path.join(d, "io.bin"), x, logits, feats)
    print(_summary(native, d, x, logits, feats), flush=True)
    del model

    # the same files at another resolution
    run_hw = f["res"]
    dr = os.path.join(out, resname)
    if os.path.isdir(dr):
        shutil.rmtree(dr)
    os.makedirs(dr)
    for fn in os.listdir(d):
        if fn != "io.bin":
            _link_or_copy(os.path.join(d, fn), os.path.join(dr, fn))
    with open(os.path.join(dr, "options.json"), "w") as fh:
        json.dump({"image_height": run_hw[0], "image_width": run_hw[1]}, fh)
        fh.write("\n")
    model = _res_model_from_file(key, d, run_hw, tiny).to(dev)
    xr = inputs(seed + 3, min(n, 2), 3, run_hw[0], run_hw[1])
    with torch.no_grad():
        lr, fr = family_forward(model, xr.to(dev), res=True)
    lr = None if lr is None else lr.float().cpu()
    fr = fr.float().cpu()
    assert torch.isfinite(fr).all() and (lr is None or torch.isfinite(lr).all())
    write_io(os.path.join(dr, "io.bin"), xr, lr, fr)
    print(_summary(resname, dr, xr, lr, fr), flush=True)
    del model
    if dev == "cuda":
        torch.cuda.empty_cache()
    return d, dr


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--n", type=int, default=4, help="images per timm ViT-Ti/S/B/L model")
    ap.add_argument("--arch", nargs="*", default=ARCHS, help="timm ViTs (none: --arch alone)")
    ap.add_argument("--families", nargs="*", default=None, metavar="FAMILY",
                    help=f"also the real-size families (all, or some of {list(FAMILIES)})")
    ap.add_argument("--tiny", action="store_true", help="families with 2 blocks, for a quick check (CPU works)")
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
        del model
    if args.families is not None:
        keys = args.families or list(FAMILIES)
        unknown = [k for k in keys if k not in FAMILIES]
        if unknown:
            sys.exit(f"unknown families {unknown}; known: {list(FAMILIES)}")
        if dev != "cuda" and not args.tiny:
            print("warning: no CUDA device: references computed on the CPU", flush=True)
        for key in keys:
            make_family(args.out, key, dev, tiny=args.tiny)


if __name__ == "__main__":
    main()
