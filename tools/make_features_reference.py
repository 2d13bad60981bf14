#!/usr/bin/env python3
"""Dense-features references (vit_features) for the cases under tests/data/ref/.

For every case directory, rebuild the float64 model from the committed files
with the real library (tools/make_reference.py's timm_reference /
hf_reference, the way io.bin's outputs were made), run io.bin's input through
it and write features.bin: the tokens of chosen blocks, as timm's
forward_intermediates(x, indices=[k], norm=..., output_fmt='NLC'|'NCHW',
return_prefix_tokens=..., intermediates_only=True) gives them (timm cases), or
transformers' output_hidden_states=True -> hidden_states[k + 1] (transformers
cases; norm = the family's final norm module applied to each block's tokens).

    little-endian
    int32 header[4] = {0x41454656 ('VFEA'), R (records), depth, num_prefix}
    then R records, each:
      int32 rec[8] = {k, norm (0/1), keep_prefix (0/1), layout (0 tokens, 1 grid), n, d1, d2, d3}
        tokens: d1 = T (tokens kept), d2 = C, d3 = 0; data float32 [n][T][C]
        grid:   d1 = C, d2 = h, d3 = w; data float32 [n][C][h][w],
                then, if keep_prefix, float32 [n][num_prefix][C]

Records per case (RECORDS below): every block raw with the prefix tokens
(tokens layout); the last block and block 0 normed, with the prefix tokens;
the last block raw as a grid without them; the last block normed as a grid
with them.

Usage: python3 tools/make_features_reference.py --ref tests/data/ref [--cases NAME ...]
"""

import argparse
import json
import os
import struct
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_reference as mr  # noqa: E402  (sets HF_HUB_OFFLINE; imports timm, transformers)
import timm  # noqa: E402
import transformers  # noqa: E402

MAGIC = 0x41454656  # b"VFEA" read as a little-endian int32
TOKENS, GRID = 0, 1


def records(depth):
    """(k, norm, keep_prefix, layout) of one case, in file order."""
    last = depth - 1
    recs = [(k, 0, 1, TOKENS) for k in range(depth)]
    recs += [(last, 1, 1, TOKENS), (0, 1, 1, TOKENS)]
    recs += [(last, 0, 0, GRID), (last, 1, 1, GRID)]
    return recs


def read_io(d):
    with open(os.path.join(d, "io.bin"), "rb") as f:
        hdr = struct.unpack("<8i", f.read(32))
        assert hdr[0] == mr.MAGIC, d
        n, c, h, w, k, dd = hdr[1:7]
        x = np.frombuffer(f.read(4 * n * c * h * w), "<f4").reshape(n, c, h, w)
        f.read(4 * n * k)
        feats = np.frombuffer(f.read(4 * n * dd), "<f4").reshape(n, dd)
    return torch.from_numpy(x.copy()), torch.from_numpy(feats.copy())


def read_json(path):
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def f32_equal(a, b):
    return torch.equal(a.to(torch.float32), b.to(torch.float32))


# ---------------------------------------------------------------------------
# timm

def timm_case(d, cfg, opts, x, io_feats):
    """(depth, num_prefix, (h, w), {(k, norm, keep, layout): tensor}) from forward_intermediates;
    io_feats: io.bin's features, which the rebuilt model must reproduce."""
    if cfg is None:
        arch, kwargs = mr.NOCONFIG
        print(f"   no config.json: {arch} {kwargs} (make_reference.NOCONFIG)")
    else:
        arch, kwargs = cfg["architecture"], dict(cfg["model_args"])
        s = kwargs.get("img_size")
        if isinstance(s, (list, tuple)):
            assert s[0] == s[1], s     # make_reference's timm cases are square at their native size
            kwargs["img_size"] = s[0]
    run_hw = (opts["image_height"], opts["image_width"]) if opts and "image_height" in opts else None
    ref, _ = mr.timm_reference(d, arch, kwargs, 0, run_hw)
    xd = x.double()
    depth, npre = len(ref.blocks), ref.num_prefix_tokens
    with torch.no_grad():
        # the rebuilt model is the one io.bin's features came from
        seen = {}
        hook = ref.norm.register_forward_pre_hook(lambda mod, args: seen.__setitem__("pre_norm", args[0]))
        tokens = ref.forward_features(xd)
        hook.remove()
        feats = ref.forward_head(tokens, pre_logits=True)
        assert f32_equal(feats, io_feats), f"{d}: the rebuilt model does not give io.bin's features"
        out = {}
        for (k, norm, keep, layout) in records(depth):
            got = ref.forward_intermediates(xd, indices=[k], norm=bool(norm), output_fmt="NLC" if layout == TOKENS else "NCHW",
                                            return_prefix_tokens=bool(keep), intermediates_only=True)
            assert len(got) == 1
            y = got[0]
            if keep and npre:
                patches, prefix = y
                assert prefix.shape[1] == npre
                y = torch.cat([prefix, patches], 1) if layout == TOKENS else (patches, prefix)
            out[(k, norm, keep, layout)] = y
        last = depth - 1
        raw = out[(last, 0, 1, TOKENS)]
        # the last block raw = the tokens entering the final norm; normed = forward_features
        assert torch.equal(raw, seen["pre_norm"]), f"{d}: raw last block != forward_features before norm"
        assert torch.equal(out[(last, 1, 1, TOKENS)], tokens), f"{d}: normed last block != forward_features"
        if isinstance(ref.norm, torch.nn.Identity):
            print(f"   norm is Identity ({type(ref.fc_norm).__name__} fc_norm, global_pool {ref.global_pool!r}): "
                  f"norm=1 gives the raw tokens")
            assert torch.equal(out[(last, 1, 1, TOKENS)], raw)
        h, w = ref.patch_embed.dynamic_feat_size(tuple(x.shape[2:]))
    return depth, npre, (h, w), out


# ---------------------------------------------------------------------------
# transformers

# the vision tower inside each architecture, and its final norm module
TOWER = {"CLIPModel": "vision_model", "SiglipModel": "vision_model",
         "CLIPVisionModelWithProjection": "vision_model", "ViTForImageClassification": "vit",
         "DeiTForImageClassification": "deit", "DeiTForImageClassificationWithTeacher": "deit"}


def hf_case(d, cfg, opts, x, io_feats):
    """As timm_case, from hidden_states[k + 1] and the family's final norm."""
    arch = cfg["architectures"][0]
    ref = mr.hf_reference(d, getattr(transformers, arch))
    tower = getattr(ref, TOWER[arch]) if arch in TOWER else ref
    norm_name = "layernorm" if hasattr(tower, "layernorm") else "post_layernorm"
    norm = getattr(tower, norm_name)
    clip = type(tower).__name__.startswith("CLIP")
    run_hw = (opts["image_height"], opts["image_width"]) if opts and "image_height" in opts else None
    # CLIP resamples its position grid only when asked (make_reference's clip_proj_out); DINOv2 by itself
    kw = mr.kw_res(run_hw) if clip else {}
    xd = x.double()
    with torch.no_grad():
        o = tower(pixel_values=xd, output_hidden_states=True, **kw)
        hs = o.hidden_states
        depth = len(hs) - 1
        lhs = o.last_hidden_state
        # the rebuilt model is the one io.bin's features came from (make_reference's per-family features)
        if clip:
            feats = o.pooler_output
            assert torch.equal(feats, norm(lhs[:, 0]))
        elif arch.startswith("Siglip"):
            feats = o.pooler_output
        elif arch == "DeiTForImageClassificationWithTeacher":
            feats = (lhs[:, 0] + lhs[:, 1]) / 2
        else:                    # Dinov2 (pooler_output), DeiT, ViT: the normed class token
            feats = lhs[:, 0]
        assert f32_equal(feats, io_feats), f"{d}: the rebuilt model does not give io.bin's features"
        # hidden_states[k + 1] is block k's raw output; last_hidden_state is the last one normed, but
        # CLIP's is not normed (its post_layernorm normalises only the pooled class token)
        if clip:
            assert torch.equal(hs[-1], lhs), f"{d}: CLIP hidden_states[-1] != last_hidden_state"
            print(f"   {arch}: last_hidden_state = hidden_states[-1], raw (post_layernorm only on the pooled token)")
        else:
            assert torch.equal(norm(hs[-1]), lhs), f"{d}: {norm_name}(hidden_states[-1]) != last_hidden_state"
            print(f"   {arch}: last_hidden_state = {norm_name}(hidden_states[-1])")
        ph, pw = tower.config.patch_size, tower.config.patch_size
        h, w = x.shape[2] // ph, x.shape[3] // pw
        npre = hs[1].shape[1] - h * w
        out = {}
        for (k, nm, keep, layout) in records(depth):
            y = hs[k + 1]
            if nm:
                y = norm(y)
            if layout == TOKENS:
                out[(k, nm, keep, layout)] = y if keep else y[:, npre:]
            else:
                # timm's NCHW: reshape(B, H, W, C).permute(0, 3, 1, 2)
                g = y[:, npre:].reshape(y.shape[0], h, w, -1).permute(0, 3, 1, 2).contiguous()
                out[(k, nm, keep, layout)] = (g, y[:, :npre]) if keep and npre else g
    print(f"   norm = {type(tower).__name__}.{norm_name}")
    return depth, npre, (h, w), out


# ---------------------------------------------------------------------------

def write_features(path, depth, npre, hw, out):
    recs = records(depth)
    with open(path, "wb") as f:
        f.write(struct.pack("<4i", MAGIC, len(recs), depth, npre))
        for key in recs:
            k, norm, keep, layout = key
            y = out[key]
            if layout == TOKENS:
                n, t, c = y.shape
                assert t == hw[0] * hw[1] + (npre if keep else 0)
                f.write(struct.pack("<8i", k, norm, keep, layout, n, t, c, 0))
                f.write(y.to(torch.float32).numpy().astype("<f4").tobytes())
            else:
                g, prefix = y if isinstance(y, tuple) else (y, None)
                n, c, h, w = g.shape
                assert (h, w) == tuple(hw)
                assert (prefix is not None) == bool(keep and npre)
                f.write(struct.pack("<8i", k, norm, keep, layout, n, c, h, w))
                f.write(g.to(torch.float32).numpy().astype("<f4").tobytes())
                if prefix is not None:
                    assert prefix.shape == (n, npre, c)
                    f.write(prefix.to(torch.float32).numpy().astype("<f4").tobytes())


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ref", required=True, help="the reference cases, e.g. tests/data/ref")
    ap.add_argument("--cases", nargs="*", metavar="NAME", help="only these cases (default: all)")
    args = ap.parse_args()
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    names = sorted(nm for nm in os.listdir(args.ref) if os.path.isfile(os.path.join(args.ref, nm, "io.bin")))
    want = args.cases or names
    unknown = [nm for nm in want if nm not in names]
    if unknown:
        sys.exit(f"unknown case(s) {unknown}; known: {names}")
    total = 0
    for nm in want:
        d = os.path.join(args.ref, nm)
        print(f"-- {nm}")
        cfg = read_json(os.path.join(d, "config.json"))
        opts = read_json(os.path.join(d, "options.json"))
        x, io_feats = read_io(d)
        if cfg is None or "architecture" in cfg:
            res = timm_case(d, cfg, opts, x, io_feats)
        elif "architectures" in cfg:
            res = hf_case(d, cfg, opts, x, io_feats)
        else:
            print(f"   SKIP {nm}: config.json names neither a timm architecture nor transformers architectures")
            continue
        depth, npre, hw, out = res
        path = os.path.join(d, "features.bin")
        write_features(path, depth, npre, hw, out)
        size = os.path.getsize(path)
        total += size
        print(f"   depth {depth}, {npre} prefix tokens, grid {hw[0]}x{hw[1]}, n {x.shape[0]}: "
              f"{len(records(depth))} records, {size} bytes")
    print(f"features.bin bytes in all: {total}")
    print(f"versions: python {sys.version.split()[0]} torch {torch.__version__} timm {timm.__version__} "
          f"transformers {transformers.__version__} numpy {np.__version__}")


if __name__ == "__main__":
    main()
