#!/usr/bin/env python3
"""Generate the open_clip reference cases tests/data/text/openclip_*/ for vit.h.

Each case is a tiny random-weight open_clip model saved by open_clip's own
push_to_hf_hub.save_for_hf (safe_serialization=True): open_clip_model.safetensors,
open_clip_config.json ({"model_cfg", "preprocess_cfg"}) and, where the case
has a tokenizer, the tokenizer's save_pretrained files. Beside them:

  text.bin        images, token ids and what the open_clip model computes from
                  them in float64 (encode_image / encode_text with
                  normalize=True, logits, probabilities); the layout of
                  tools/make_text_reference.py (tests/data/text/README.md)
  texts.txt       the tokenizer cases: a template line, then the texts whose
                  ids text.bin holds (tokenized by open_clip's own tokenizer)
  preprocess.bin  open_clip's eval transform (create_model_and_transforms'
                  preprocess_val, the case's preprocess_cfg) of a few of
                  tests/data/preprocess/images, float32 CHW:

      int32   header[5] = {0x50455250 ("PREP"), n, c, h, w}
      float32 mean[3], std[3]                   preprocess_cfg's
      char    resize_mode[16], interpolation[16] preprocess_cfg's, NUL-padded
      n times:
        char    path[64]                        the image, relative to the case folder, NUL-padded
        float32 pixels[c][h][w]                 preprocess_val(Image.open(path).convert("RGB"))

Usage: python3 tools/make_openclip_reference.py --out tests/data/text [--cases NAME ...]
"""

import argparse
import contextlib
import gzip
import json
import math
import os
import shutil
import struct
import sys
import tempfile

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_reference import LS, inputs, redraw_  # noqa: E402
from make_text_reference import clip_tokenizer, write_text_bin  # noqa: E402

import open_clip  # noqa: E402
import safetensors.torch  # noqa: E402
import timm  # noqa: E402
import transformers as T  # noqa: E402
from open_clip.push_to_hf_hub import save_for_hf  # noqa: E402
from open_clip.tokenizer import HFTokenizer, SimpleTokenizer, default_bpe  # noqa: E402
from open_clip.transform import image_transform  # noqa: E402
from open_clip.transformer import LayerScale, QuickGELU  # noqa: E402
from PIL import Image  # noqa: E402

PREP_MAGIC = 0x50455250  # b"PREP" read as a little-endian int32
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IMAGES = os.path.join(REPO, "tests", "data", "preprocess", "images")
# a landscape JPEG, a portrait JPEG (4:2:0, progressive), a landscape PNG, and a PNG whose
# 'shortest' resize to 28 is 35 x 28: torchvision's centre crop offset round(7 / 2) = 4
# (Python rounds half to even), where a floored offset (Hugging Face's) is 3
PREP_IMAGES = ["rocket.jpg", "rocket_portrait.jpg", "coffee.png", "coffee_300x240.png"]
SIGLIP_SPIECE = os.path.join(REPO, "tests", "data", "text", "siglip_tokenizer", "spiece.model")
OPENAI_MEAN = [0.48145466, 0.4578275, 0.40821073]
OPENAI_STD = [0.26862954, 0.26130258, 0.27577711]


@contextlib.contextmanager
def shrunk_timm(overrides):
    """timm.create_model with these keyword overrides (img_size, patch_size,
    embed_dim, depth, num_heads, mlp_ratio): open_clip's TimmModel builds the
    named architecture (here vit_base_patch16_siglip*_224) at a tiny size.
    Needed again to reload such a folder in open_clip."""
    if not overrides:
        yield
        return
    orig = timm.create_model

    def create(name, **kw):
        return orig(name, **dict(kw, **overrides))
    timm.create_model = create
    try:
        yield
    finally:
        timm.create_model = orig


class NoTokenizer:
    """save_for_hf always calls tokenizer.save_pretrained; the cases without a
    tokenizer write no tokenizer files."""

    def save_pretrained(self, dest):
        pass


def clip_merges_gz(path, n_merges):
    """open_clip's bundled bpe_simple_vocab_16e6.txt.gz cut to its header line and
    first n_merges merges: SimpleTokenizer(bpe_path=path) then has 512 + n_merges + 2
    tokens (<start_of_text>, <end_of_text> the last two), as clip_tokenizer's."""
    lines = gzip.open(default_bpe()).read().decode("utf-8").split("\n")
    with gzip.open(path, "wb") as f:
        f.write("\n".join(lines[:1 + n_merges]).encode("utf-8"))  # (no trailing newline: no empty merge)


def t5_tokenizer(folder, context):
    """The SentencePiece Unigram of tests/data/text/siglip_tokenizer (trained by
    tools/make_text_reference.py) as open_clip's SigLipTokenizer makes it:
    T5TokenizerFast(spiece.model, extra_ids=0, legacy=False), pad = eos = </s> (1).
    (transformers 5 builds a T5 tokenizer from a spiece.model only through
    from_pretrained of a folder holding it.)"""
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(SIGLIP_SPIECE, os.path.join(tmp, "spiece.model"))
        tok = T.T5TokenizerFast.from_pretrained(tmp, extra_ids=0, legacy=False, model_max_length=context)
    tok.pad_token_id = 1
    tok.eos_token_id = 1
    tok.save_pretrained(folder)


def derived_images():
    """coffee_300x240.png: columns 30..329 of coffee.png (PIL, PNG), made here if absent."""
    p = os.path.join(IMAGES, "coffee_300x240.png")
    if not os.path.exists(p):
        Image.open(os.path.join(IMAGES, "coffee.png")).convert("RGB").crop((30, 0, 330, 240)).save(p)


def write_prep_bin(path, case_dir, pp, entries):
    """entries: [(image path, float32 tensor (c, h, w))]."""
    c, h, w = entries[0][1].shape
    with open(path, "wb") as f:
        f.write(struct.pack("<5i", PREP_MAGIC, len(entries), c, h, w))
        f.write(struct.pack("<6f", *pp["mean"], *pp["std"]))
        for s in (pp["resize_mode"], pp["interpolation"]):
            f.write(s.encode().ljust(16, b"\0"))
        for p, t in entries:
            rel = os.path.relpath(p, case_dir).replace(os.sep, "/").encode()
            assert len(rel) < 64 and t.shape == (c, h, w) and t.dtype == torch.float32
            f.write(rel.ljust(64, b"\0"))
            f.write(t.numpy().astype("<f4").tobytes())


def pil_transform(img, size, resize_mode, interpolation, mean, std):
    """What open_clip's eval transform does, stated with PIL and numpy: squash:
    resize to (h, w); shortest: square targets the shorter side to S, the other
    int(S * long / short) (torchvision), others ResizeKeepRatio's round(side / ratio)
    (bicubic whatever the interpolation); a centre crop at round((H - S) / 2); then
    u8 / 255 and (x - mean) / std in float32."""
    h, w = size
    resample = Image.BICUBIC if interpolation == "bicubic" else Image.BILINEAR
    if resize_mode == "squash":
        img = img.resize((w, h), resample)
    else:
        assert resize_mode == "shortest"
        iw, ih = img.size
        if h == w:
            short, long = min(iw, ih), max(iw, ih)
            new_long = int(h * long / short)
            nw, nh = (h, new_long) if iw <= ih else (new_long, h)
        else:  # ResizeKeepRatio(size): both sides by the smaller ratio, rounded; always bicubic
            ratio = min(ih / h, iw / w)
            nh, nw = round(ih / ratio), round(iw / ratio)
            resample = Image.BICUBIC
        img = img.resize((nw, nh), resample)
        top, left = int(round((nh - h) / 2.0)), int(round((nw - w) / 2.0))
        img = img.crop((left, top, left + w, top + h))
    x = torch.from_numpy(np.asarray(img, dtype=np.uint8).copy()).permute(2, 0, 1).float().div(255)
    return (x - torch.tensor(mean).view(3, 1, 1)) / torch.tensor(std).view(3, 1, 1)


def visual_by_hand(v, x):
    """open_clip's VisionTransformer, its steps written out: patch conv (no bias),
    the class embedding first, + positional_embedding, ln_pre (Identity with
    no_ln_pre), the blocks, ln_post on every token, then 'tok': token 0 /
    'avg': the mean of the patch tokens (class token excluded), then @ proj."""
    t = v.conv1(x).flatten(2).transpose(1, 2)
    t = torch.cat([v.class_embedding.view(1, 1, -1).expand(t.shape[0], 1, -1), t], dim=1) + v.positional_embedding
    t = v.ln_post(v.transformer(v.ln_pre(t)))
    pooled = t[:, 0] if v.pool_type == "tok" else t[:, 1:].mean(dim=1)
    return pooled @ v.proj


def timm_by_hand(v, x):
    """open_clip's TimmModel over a timm SigLIP ViT (no class token): the trunk's
    forward_features (final norm included), then map: trunk.attn_pool / avg: the
    mean over the tokens (no fc_norm), then head.proj where timm_proj is 'linear'."""
    ff = v.trunk.forward_features(x)
    if v.trunk.global_pool == "map":
        pooled = v.trunk.attn_pool(ff)
    else:
        assert v.trunk.global_pool == "avg" and isinstance(v.trunk.fc_norm, torch.nn.Identity)
        pooled = ff.mean(dim=1)
    return v.head.proj(pooled) if hasattr(v.head, "proj") else pooled


def text_tower(model):
    """(token_embedding, positional_embedding, transformer, attn_mask, ln_final,
    text_projection, pool_type) of a CLIP (text at the root) or CustomTextCLIP (model.text)."""
    t = model.text if hasattr(model, "text") else model
    return (t.token_embedding, t.positional_embedding, t.transformer, t.attn_mask, t.ln_final, t.text_projection,
            model.text.pool_type if hasattr(model, "text") else model.text_pool_type)


def pool_positions(ids, pool_type):
    """The token each text pools at, stated independently: argmax: the first
    largest id (open_clip's eot is the largest id); last: position L - 1."""
    if pool_type == "argmax":
        return [max(range(len(r)), key=lambda i: (r[i], -i)) for r in ids]
    assert pool_type == "last"
    return [len(r) - 1 for r in ids]


def text_by_hand(model, ids_t, pos):
    emb, pe, tr, mask, ln, proj, _ = text_tower(model)
    x = ln(tr(emb(ids_t) + pe, attn_mask=mask))
    pooled = x[torch.arange(len(pos)), pos]
    return proj(pooled) if isinstance(proj, torch.nn.Linear) else pooled @ proj


def make_case(out, name, seed, model_cfg, preprocess_cfg, n, scale, bias=None, shrink=None, tokenizer=None,
              texts=None, template=None, k=None):
    """tokenizer: 'clip' or 'siglip' (texts.txt, ids from open_clip's tokenizer), or
    None (k random id sequences)."""
    d = os.path.join(out, name)
    if os.path.isdir(d):
        shutil.rmtree(d)
    tc, vc = model_cfg["text_cfg"], model_cfg["vision_cfg"]
    L = tc["context_length"]
    with tempfile.TemporaryDirectory() as tmp:
        # the model as open_clip builds it from a folder's config (model_cfg + preprocess_cfg), no weights
        stage = os.path.join(tmp, "stage")
        os.makedirs(stage)
        with open(os.path.join(stage, "open_clip_config.json"), "w") as f:
            json.dump({"model_cfg": model_cfg, "preprocess_cfg": preprocess_cfg}, f)
        torch.manual_seed(seed)
        with shrunk_timm(shrink):
            model = open_clip.create_model("local-dir:" + stage).eval()
        lshape = model.logit_scale.shape
        redraw_(model, seed + 1, layerscale=LS)
        with torch.no_grad():  # a temperature (and bias) as trained models have, not redraw_'s N(0, 0.1^2)
            model.logit_scale.copy_(torch.full(lshape, math.log(scale)))
            if bias is not None:
                model.logit_bias.fill_(bias)
            else:
                assert model.logit_bias is None
        # the tokenizer, as open_clip hands it to save_for_hf
        if tokenizer == "clip":
            tdir = os.path.join(tmp, "tok")
            vocab = clip_tokenizer(tdir, 300, L)
            assert vocab == tc["vocab_size"]
            tok_obj = HFTokenizer(tdir, context_length=L)
            gz = os.path.join(tmp, "bpe_300.txt.gz")
            clip_merges_gz(gz, 300)
        elif tokenizer == "siglip":
            tdir = os.path.join(tmp, "tok")
            t5_tokenizer(tdir, L)
            tok_obj = HFTokenizer(tdir, context_length=L, **tc.get("tokenizer_kwargs", {}))
        else:
            tok_obj = NoTokenizer()
        save_for_hf(model, tok_obj, model_cfg, d, safe_serialization=True)
        if tokenizer == "siglip":  # transformers 5 saves tokenizer.json only; the Hub's SigLIP folders
            shutil.copy(SIGLIP_SPIECE, os.path.join(d, "spiece.model"))  # (older save_pretrained) hold spiece.model too

        # the ids
        if tokenizer is not None:
            prompts = [template.format(t) if template else t for t in texts]
            if tokenizer == "clip":
                # with hf_tokenizer_name, open_clip tokenizes with the folder's own CLIPTokenizer (HFTokenizer,
                # 'whitespace' cleaning by default). (Without it open_clip runs its SimpleTokenizer over OpenAI's
                # whole BPE, which a 814-token model cannot take: tests/test_tokenizer.c checks that mode.)
                assert tc.get("hf_tokenizer_name")
                gt = open_clip.get_tokenizer("local-dir:" + d)
                assert isinstance(gt, HFTokenizer) and gt.context_length == L and gt.clean_fn.__name__ == "_clean_whitespace"
                ids_t = gt(prompts)
                # SimpleTokenizer over the same 300 merges: the same ids up to its padding (0, not <|endoftext|>)
                st = SimpleTokenizer(bpe_path=gz, context_length=L)(prompts).tolist()
                assert [[v if j <= r.index(813) else 0 for j, v in enumerate(r)] for r in ids_t.tolist()] == st
            else:
                # open_clip.get_tokenizer of the folder: HFTokenizer(folder) with the config's tokenizer_kwargs
                gt = open_clip.get_tokenizer("local-dir:" + d)
                assert isinstance(gt, HFTokenizer) and gt.context_length == L and gt.clean_fn.__name__ == "_clean_canonicalize"
                ids_t = gt(prompts)
                assert ids_t.tolist() == tok_obj(prompts).tolist()
            with open(os.path.join(d, "texts.txt"), "w", encoding="utf-8") as f:
                f.write(f"template {template or ''}\n" + "".join(t + "\n" for t in texts))
            print(f"   {name}: {type(tok_obj).__name__}; {prompts[0]!r} -> {ids_t[0].tolist()}")
        else:
            g = torch.Generator().manual_seed(seed + 3)
            ids_t = torch.randint(0, tc["vocab_size"], (k, L), generator=g)
            ids_t[1, 5:] = 1  # one text padded with a repeated id
            ids_t[2, -1] = tc["vocab_size"] - 1  # the largest id last
        ids_t = ids_t.long()
        assert ids_t.shape[1] == L and int(ids_t.min()) >= 0 and int(ids_t.max()) < tc["vocab_size"]

        # reload the folder as open_clip does (strict: load_checkpoint raises on missing/unexpected keys)
        with shrunk_timm(shrink):
            ref, _, preprocess_val = open_clip.create_model_and_transforms("local-dir:" + d)
        sd = safetensors.torch.load_file(os.path.join(d, "open_clip_model.safetensors"))
        res = ref.load_state_dict(sd, strict=True)
        assert not res.missing_keys and not res.unexpected_keys
        assert sd.keys() == ref.state_dict().keys()
        assert all(torch.equal(v, model.state_dict()[kk]) for kk, v in sd.items())
        ref = ref.eval().double()

    h, w = (vc["image_size"], vc["image_size"]) if isinstance(vc["image_size"], int) else vc["image_size"]
    x = inputs(seed + 2, n, 3, h, w)
    with torch.no_grad():
        xd = x.double()
        img = ref.encode_image(xd, normalize=True)
        txt = ref.encode_text(ids_t, normalize=True)
        s = ref.logit_scale.exp()
        logits = s * img @ txt.T
        if ref.logit_bias is not None:
            logits = logits + ref.logit_bias
            probs = torch.sigmoid(logits)
        else:
            probs = logits.softmax(dim=1)
        # the model that was saved gives the same outputs; get_logits is this
        m64 = model.double()
        assert torch.equal(m64.encode_image(xd, normalize=True), img) and torch.equal(m64.encode_text(ids_t, normalize=True), txt)
        gl = ref.get_logits(xd, ids_t)[0]
        assert torch.allclose(gl, logits, rtol=0, atol=1e-12)
        # what the towers do, stated by hand
        ii = ref.encode_image(xd)
        hand_i = timm_by_hand(ref.visual, xd) if "timm_model_name" in vc else visual_by_hand(ref.visual, xd)
        assert torch.allclose(ii, hand_i, rtol=0, atol=1e-12)
        assert torch.allclose(img, ii / ii.norm(dim=-1, keepdim=True), rtol=0, atol=1e-14)
        pool = text_tower(ref)[6]
        pos = pool_positions(ids_t.tolist(), pool)
        ti = ref.encode_text(ids_t)
        assert torch.allclose(ti, text_by_hand(ref, ids_t, pos), rtol=0, atol=1e-12)
        assert torch.allclose(txt, ti / ti.norm(dim=-1, keepdim=True), rtol=0, atol=1e-14)
        mask = text_tower(ref)[3]
        if tc.get("no_causal_mask"):
            assert mask is None
        else:
            assert torch.equal(mask, torch.full((L, L), float("-inf"), dtype=mask.dtype).triu(1))
    write_text_bin(os.path.join(d, "text.bin"), x, ids_t, img, txt, logits, probs)
    check_settings(ref, model_cfg)
    print(f"   {name}: pooled positions {pos} ({pool}), {'causal' if not tc.get('no_causal_mask') else 'no mask'}; "
          f"logit_scale exp = {float(s):.4g}" + (f", logit_bias = {float(ref.logit_bias.detach()):.4g}" if bias is not None else ""))

    # preprocessing: open_clip's eval transform with the saved preprocess_cfg
    with open(os.path.join(d, "open_clip_config.json")) as f:
        pp = json.load(f)["preprocess_cfg"]
    assert pp == preprocess_cfg, (pp, preprocess_cfg)
    size = (h, w)
    alt = image_transform(size if h != w else h, is_train=False, mean=pp["mean"], std=pp["std"],
                          resize_mode=pp["resize_mode"], interpolation=pp["interpolation"])
    entries = []
    for fn in PREP_IMAGES:
        p = os.path.join(IMAGES, fn)
        im = Image.open(p).convert("RGB")
        t = preprocess_val(im)
        assert t.shape == (3, h, w) and t.dtype == torch.float32
        assert torch.equal(t, alt(im))
        hand = pil_transform(im, size, pp["resize_mode"], pp["interpolation"], pp["mean"], pp["std"])
        assert torch.allclose(t, hand, rtol=0, atol=1e-6), float((t - hand).abs().max())
        entries.append((p, t))
    write_prep_bin(os.path.join(d, "preprocess.bin"), d, pp, entries)
    print(f"   {name}: preprocess {pp['resize_mode']} {pp['interpolation']} to {h}x{w}, {len(entries)} images")
    if h == w and not vc.get("timm_model_name"):  # other sizes: open_clip's force_image_size (resize_pos_embed at load)
        write_resized_bin(d, name, seed, [h + 8, h - 8])
    return d


RESIZED_MAGIC = 0x445A5352  # b"RSZD" read as a little-endian int32


def write_resized_bin(d, name, seed, sizes):
    """resized.bin: for each size S, images at S x S and their normalised image
    embeddings from create_model_from_pretrained('local-dir:', force_image_size=S)
    in float64 (its load resamples the position embedding: resize_pos_embed)."""
    with open(os.path.join(d, "resized.bin"), "wb") as f:
        f.write(struct.pack("<2i", RESIZED_MAGIC, len(sizes)))
        for k, S in enumerate(sizes):
            model, _ = open_clip.create_model_from_pretrained("local-dir:" + d, force_image_size=S)
            model = model.double().eval()
            g = torch.Generator().manual_seed(seed + 100 + k)
            x = torch.randn(2, 3, S, S, generator=g, dtype=torch.float64)
            with torch.no_grad():
                e = model.encode_image(x, normalize=True)
            f.write(struct.pack("<3i", S, x.shape[0], e.shape[1]))
            f.write(x.to(torch.float32).numpy().astype("<f4").tobytes())
            f.write(e.to(torch.float32).numpy().astype("<f4").tobytes())
    print(f"   {name}: resized.bin at sizes {sizes}")


def check_settings(ref, cfg):
    """The settings each case is there for, read back from the reloaded model."""
    vc, tc = cfg["vision_cfg"], cfg["text_cfg"]
    mods = list(ref.modules())
    if "timm_model_name" not in vc:
        acts = [m for m in ref.visual.modules() if isinstance(m, (QuickGELU, torch.nn.GELU))]
        assert acts and all(isinstance(a, QuickGELU) == bool(cfg.get("quick_gelu")) for a in acts)
        assert isinstance(ref.visual.ln_pre, torch.nn.Identity) == bool(vc.get("no_ln_pre"))
        assert ref.visual.pool_type == vc.get("pool_type", "tok") and ref.visual.conv1.bias is None
        veps = (vc.get("norm_kwargs") or {}).get("eps", 1e-5)
        assert all(m.eps == veps for m in ref.visual.modules() if isinstance(m, torch.nn.LayerNorm))
    else:
        tr = ref.visual.trunk
        assert not tr.has_class_token and tr.global_pool == vc["timm_pool"]
        assert all(a.approximate == "none" for a in tr.modules() if isinstance(a, torch.nn.GELU))
        assert all(m.eps == 1e-6 for m in tr.modules() if isinstance(m, torch.nn.LayerNorm))
    teps = (tc.get("norm_kwargs") or {}).get("eps", 1e-5)
    text = [ref.text] if hasattr(ref, "text") else [ref.transformer, ref.ln_final]
    assert all(m.eps == teps for t in text for m in t.modules() if isinstance(m, torch.nn.LayerNorm))
    assert any(isinstance(m, LayerScale) for m in mods) == bool(tc.get("ls_init_value") or vc.get("ls_init_value"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, help="output directory, e.g. tests/data/text")
    ap.add_argument("--cases", nargs="*", metavar="NAME", help="(re)generate only these cases (default: all)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    derived_images()
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    out = args.out
    cases = []

    # ASCII only and no HTML entities (open_clip runs ftfy and html.unescape first)
    clip_texts = ["door", "person", "traffic light", "a red bicycle on the street at night, seen from above",
                  "  spaces   and\ttabs  ", "Photo of a DOG!!!", "it's the cat's toy", "route 66", ""]
    cases.append(("openclip_clip", lambda: make_case(
        out, "openclip_clip", 6100,
        {"embed_dim": 20, "quick_gelu": True,
         "vision_cfg": {"image_size": 28, "patch_size": 4, "width": 16, "head_width": 8, "layers": 2, "mlp_ratio": 2.0},
         "text_cfg": {"context_length": 16, "vocab_size": 814, "hf_tokenizer_name": "openai/clip-vit-base-patch32",
                      "width": 24, "heads": 3, "layers": 2, "mlp_ratio": 2.0}},
        {"mean": OPENAI_MEAN, "std": OPENAI_STD, "interpolation": "bicubic", "resize_mode": "shortest"},
        2, 30.0, tokenizer="clip", texts=clip_texts, template="a photo of a {}.")))
    cases.append(("openclip_clip_variant", lambda: make_case(
        out, "openclip_clip_variant", 6200,
        {"embed_dim": 12, "init_logit_bias": -10,
         "vision_cfg": {"image_size": [28, 20], "patch_size": 4, "width": 24, "head_width": 8, "layers": 2,
                        "mlp_ratio": 2.5, "ls_init_value": 1e-5, "no_ln_pre": True, "pool_type": "avg",
                        "norm_kwargs": {"eps": 1e-6}},
         "text_cfg": {"context_length": 12, "vocab_size": 64, "width": 16, "heads": 2, "layers": 2, "mlp_ratio": 3.0,
                      "ls_init_value": 1e-5, "proj_bias": True, "pool_type": "last", "norm_kwargs": {"eps": 1e-6}}},
        {"mean": [0.485, 0.456, 0.406], "std": [0.229, 0.224, 0.225], "interpolation": "bicubic", "resize_mode": "shortest"},
        3, 10.0, bias=-1.5, k=5)))
    siglip_texts = ["door", "person", "traffic_light", "a red bicycle on the street at night seen from above",
                    "  spaces   and\ttabs  ", "Photo of a DOG!!!", "two small birds, in the sky.", ""]
    cases.append(("openclip_siglip", lambda: make_case(
        out, "openclip_siglip", 6300,
        {"embed_dim": 64, "init_logit_bias": -10, "custom_text": True,
         "vision_cfg": {"image_size": 28, "timm_model_name": "vit_base_patch16_siglip_224", "timm_model_pretrained": False,
                        "timm_pool": "map", "timm_proj": "none"},
         "text_cfg": {"context_length": 16, "vocab_size": 64, "hf_tokenizer_name": "timm/ViT-B-16-SigLIP",
                      "tokenizer_kwargs": {"clean": "canonicalize"}, "width": 24, "heads": 3, "layers": 2, "mlp_ratio": 2.0,
                      "no_causal_mask": True, "proj_bias": True, "pool_type": "last", "norm_kwargs": {"eps": 1e-6}}},
        {"mean": [0.5, 0.5, 0.5], "std": [0.5, 0.5, 0.5], "interpolation": "bicubic", "resize_mode": "squash"},
        2, 10.0, bias=-1.5, shrink=dict(img_size=28, patch_size=4, embed_dim=64, depth=2, num_heads=1, mlp_ratio=2.0),
        tokenizer="siglip", texts=siglip_texts, template="a photo of {}.")))
    cases.append(("openclip_siglip_proj", lambda: make_case(
        out, "openclip_siglip_proj", 6400,
        {"embed_dim": 12, "init_logit_bias": -10, "custom_text": True,
         "vision_cfg": {"image_size": 28, "timm_model_name": "vit_base_patch16_siglip_gap_224", "timm_model_pretrained": False,
                        "timm_pool": "avg", "timm_proj": "linear", "timm_proj_bias": True},
         "text_cfg": {"context_length": 12, "vocab_size": 64, "width": 16, "heads": 2, "layers": 2, "mlp_ratio": 2.0,
                      "no_causal_mask": True, "proj_bias": True, "pool_type": "last", "norm_kwargs": {"eps": 1e-6}}},
        {"mean": [0.45, 0.5, 0.55], "std": [0.25, 0.3, 0.35], "interpolation": "bilinear", "resize_mode": "shortest"},
        3, 10.0, bias=-1.5, shrink=dict(img_size=28, patch_size=4, embed_dim=128, depth=1, num_heads=2, mlp_ratio=1.0),
        k=4)))

    names = [nm for nm, _ in cases]
    want = args.cases or names
    unknown = [nm for nm in want if nm not in names]
    if unknown:
        sys.exit(f"unknown case(s) {unknown}; known: {names}")
    for nm, fn in cases:
        if nm in want:
            print(f"-- {nm}")
            d = fn()
            with safetensors.safe_open(os.path.join(d, "open_clip_model.safetensors"), "pt") as f:
                for kk in f.keys():
                    print(f"      {kk} {list(f.get_slice(kk).get_shape())}")
            print(f"   files: " + ", ".join(f"{fn} {os.path.getsize(os.path.join(d, fn))}" for fn in sorted(os.listdir(d))))
    total = sum(os.path.getsize(os.path.join(dp, f)) for dp, _, fs in os.walk(out) for f in fs if "openclip_" in dp)
    print(f"total bytes in {out}/openclip_*: {total}")
    print(f"versions: python {sys.version.split()[0]} torch {torch.__version__} open_clip {open_clip.__version__} "
          f"timm {timm.__version__} transformers {T.__version__}")


if __name__ == "__main__":
    main()
