#!/usr/bin/env python3
"""Generate the image-preprocessing references under tests/data/preprocess/.

tests/test_preprocess.c checks vit_preprocess_file against them: real photos
from the scikit-image wheel's data folder (PNG, JPEG, GIF, plus BMP/TGA/PPM
crops written by PIL), tiny random-weight models whose config files carry the
preprocessing settings, and for every (model, image) pair the pixels that timm's
or Hugging Face's own eval transform produces.

Output (all deterministic for fixed library versions):

    images/                 the test images and LICENSES.txt
    <config>/config.json    tiny model saved by timm save_for_hf or transformers
    <config>/model.safetensors
    <config>/preprocessor_config.json   (Hugging Face config only)
    <config>/<stem>.u8      reference: uint8 (C, S, S) planar, the image after
                            Resize + CenterCrop (timm) or resize (HF), before
                            ToTensor/Normalize; the float input of the model
                            is exactly (u8 / 255 - mean) / std (float32), which
                            this script asserts against the real transform
    manifest.txt            one line per config and per reference (see below)

    geometry.txt            resize sizes and crop offsets from timm's, torchvision's
                            and transformers' own functions for random image and
                            input sizes (tests vit__preprocess_geometry alone)

manifest.txt:
    config <name> <C> <S> <mean x C> <std x C> <interpolation> <crop_pct> <crop_mode> [<H> <W> <resize_shorter>]
    ref <config> <image file> <reference file> <producer>
S is the checkpoint's (square) size; H x W, when given, the input size the
model runs at (the test sets vit_config.image_height/width to it), and
resize_shorter the Hugging Face resize (shortest edge, or DeiT's square size)
at the processor's own size. crop_mode: center, squash (timm; squash is also
Hugging Face's plain resize), hf-shortest (CLIP/Bit: shortest edge + crop),
hf-crop (DeiT: fixed size + crop). <reference> is uint8 (C, H, W).

timm references: cfg = timm.data.resolve_data_config({}, model=model);
t = timm.data.create_transform(**cfg); x = t(Image.open(p).convert('RGB'))
(.convert('L') for the 1-channel model: timm's transform has no channel
conversion, so a 1-channel model needs an 'L' image, and its 1-element mean/std
then normalise the single channel).
Hugging Face references: ViTImageProcessor (transformers 5: the torchvision
backend, resize of a uint8 tensor with antialias) gives <stem>.u8, and
ViTImageProcessorPil (PIL's Image.resize, what ViTImageProcessor did in
transformers 4) gives <stem>.pil.u8. The other Hugging Face configs
(HF_CONFIGS) use the PIL backend only (CLIP/Bit/Siglip/DeiTImageProcessorPil),
on Image.open(p).convert('RGB') as for hf32; at an input size other than the
processor's own, the processor configured as vit.h's rule says (hf_at).
timm configs run at a non-square size (TIMM_RUNS) use resolve_data_config(
{'input_size': (C, H, W)}, model=model), timm's --input-size override.

Usage: python3 tools/make_preprocess_reference.py --out tests/data/preprocess
The scikit-image wheel is read (not installed) from --wheel, default
/tmp/skw/scikit_image-0.26.0-*.whl, fetched there with
`pip download --no-deps scikit-image==0.26.0 -d /tmp/skw` when absent.
"""

import argparse
import glob
import io
import math
import os
import random
import shutil
import subprocess
import sys
import zipfile

import numpy as np
import torch
from PIL import Image

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")

import timm  # noqa: E402
import timm.data  # noqa: E402
import torchvision  # noqa: E402
import transformers  # noqa: E402
from timm.models._hub import save_for_hf  # noqa: E402
from torchvision import transforms  # noqa: E402
from transformers import ViTConfig, ViTForImageClassification, ViTImageProcessor  # noqa: E402
from transformers import image_transforms  # noqa: E402
from transformers.models.bit.image_processing_pil_bit import BitImageProcessorPil  # noqa: E402
from transformers.models.clip.image_processing_pil_clip import CLIPImageProcessorPil  # noqa: E402
from transformers.models.deit.image_processing_pil_deit import DeiTImageProcessorPil  # noqa: E402
from transformers.models.siglip.image_processing_pil_siglip import SiglipImageProcessorPil  # noqa: E402
from transformers.models.vit.image_processing_pil_vit import ViTImageProcessorPil  # noqa: E402

SKIMAGE_VERSION = "0.26.0"
IMAGENET_MEAN = (0.485, 0.456, 0.406)
IMAGENET_STD = (0.229, 0.224, 0.225)
CLIP_MEAN = (0.48145466, 0.4578275, 0.40821073)
CLIP_STD = (0.26862954, 0.26130258, 0.27577711)

# ---------------------------------------------------------------------------
# images: (file written, source file in skimage/data, how it is derived)

CC0_CHELSEA = "chelsea.png: Chelsea the cat, photo by Stefan van der Walt, CC0"
CC0_COFFEE = "coffee.png: coffee cup, photo by Rachel Michetti, courtesy of Pikolo Espresso Bar, CC0"
PD_ROCKET = ("rocket.jpg: launch of DSCOVR on Falcon 9, photo by SpaceX, released into the public domain "
             "(https://www.flickr.com/photos/spacexphotos/16511594820/)")
PD_ASTRONAUT = ("astronaut.png: astronaut Eileen Collins, NASA Great Images database "
                "(https://flic.kr/p/r9qvLn), public domain")
CC0_CAMERA = "camera.png: man with a camera, photo by Lav Varshney, CC0"
CC0_HORSE = ("horse.png: horse silhouette by Andreas Preuss (marauder), openclipart "
             "(http://openclipart.org/detail/158377/horse-by-marauder), CC0")
GIF_NOTE = ("no_time_for_that_tiny.gif: 24-frame animation shipped as test data in scikit-image's data folder; "
            "the wheel states no separate licence for it (scikit-image is BSD-3-Clause)")


def make_images(wheel, out):
    z = zipfile.ZipFile(wheel)

    def raw(name):
        return z.read("skimage/data/" + name)

    def img(name):
        return Image.open(io.BytesIO(raw(name)))

    def save(im, name, **kw):
        im.save(os.path.join(out, name), **kw)

    def copy(name):
        with open(os.path.join(out, name), "wb") as f:
            f.write(raw(name))

    chelsea, coffee, rocket = img("chelsea.png"), img("coffee.png"), img("rocket.jpg")
    made = []  # (file, what it is, source line)

    copy("chelsea.png")
    made.append(("chelsea.png", "original file: 451x300 RGB PNG (landscape)", CC0_CHELSEA))
    save(coffee.crop((120, 40, 480, 280)), "coffee.png", optimize=True)
    made.append(("coffee.png", "360x240 crop of the original, RGB PNG written by PIL", CC0_COFFEE))
    copy("rocket.jpg")
    made.append(("rocket.jpg", "original file: 640x427 baseline JPEG, 4:4:4, ICC profile", PD_ROCKET))
    save(rocket.convert("RGB").crop((200, 0, 440, 427)), "rocket_portrait.jpg", quality=85, progressive=True)
    made.append(("rocket_portrait.jpg", "240x427 crop (portrait) of rocket.jpg, progressive JPEG 4:2:0 q85 by PIL",
                 PD_ROCKET))
    save(img("astronaut.png"), "astronaut.jpg", quality=90)
    made.append(("astronaut.jpg", "astronaut.png (512x512) re-saved by PIL as baseline JPEG 4:2:0 q90", PD_ASTRONAUT))
    save(img("camera.png").crop((56, 100, 456, 400)), "camera.png", optimize=True)
    made.append(("camera.png", "400x300 crop of the original, 8-bit grayscale PNG", CC0_CAMERA))
    copy("horse.png")
    made.append(("horse.png", "original file: 400x328 RGBA PNG", CC0_HORSE))
    # RGBA photo: colour stays under alpha 0 (left quarter), then a ramp
    crop = chelsea.crop((100, 40, 340, 220))
    w, h = crop.size
    ramp = np.clip((np.arange(w) - w // 4) * 255.0 / (w - 1 - w // 4), 0, 255).astype(np.uint8)
    alpha = Image.fromarray(np.repeat(ramp[None, :], h, axis=0), "L")
    rgba = crop.copy()
    rgba.putalpha(alpha)
    save(rgba, "chelsea_rgba.png", optimize=True)
    made.append(("chelsea_rgba.png", "240x180 crop of chelsea.png with an alpha ramp (0 on the left quarter), RGBA PNG",
                 CC0_CHELSEA))
    copy("no_time_for_that_tiny.gif")
    made.append(("no_time_for_that_tiny.gif", "original file: 14x25, 24 frames; the tests use the first frame", GIF_NOTE))
    pal = chelsea.crop((60, 30, 240, 150)).quantize(colors=256, method=Image.Quantize.MEDIANCUT,
                                                     dither=Image.Dither.NONE)
    save(pal, "chelsea_palette.gif")
    made.append(("chelsea_palette.gif", "180x120 crop of chelsea.png, 256-colour palette GIF by PIL", CC0_CHELSEA))
    save(coffee.crop((140, 60, 473, 237)), "coffee_333x177.bmp")
    made.append(("coffee_333x177.bmp", "333x177 crop of coffee.png, 24-bit BMP by PIL (rows padded to 4 bytes)",
                 CC0_COFFEE))
    save(coffee.crop((320, 60, 417, 361)), "coffee_97x301.tga", compression="tga_rle")
    made.append(("coffee_97x301.tga", "97x301 crop of coffee.png, RLE TGA by PIL", CC0_COFFEE))
    save(coffee.crop((0, 230, 211, 387)), "coffee_211x157.ppm")
    made.append(("coffee_211x157.ppm", "211x157 crop of coffee.png, binary PPM (P6) by PIL", CC0_COFFEE))

    with open(os.path.join(out, "LICENSES.txt"), "w") as f:
        f.write("Test images for tests/test_preprocess.c, made by tools/make_preprocess_reference.py\n"
                "from the data folder of the scikit-image %s wheel (skimage/data/). The licences are\n"
                "those stated in that wheel's skimage/data/_fetchers.py docstrings.\n\n" % SKIMAGE_VERSION)
        for name, what, src in made:
            f.write("%s\n    %s\n    source: %s\n" % (name, what, src))
    return [m[0] for m in made]


# ---------------------------------------------------------------------------
# models

TIMM_CONFIGS = [
    # name, in_chans, S, patch, pretrained_cfg overlay, images (None = all)
    ("bicubic224", 3, 224, 16,
     dict(crop_pct=0.9, interpolation="bicubic", crop_mode="center", mean=IMAGENET_MEAN, std=IMAGENET_STD),
     ["chelsea.png", "rocket_portrait.jpg", "camera.png", "no_time_for_that_tiny.gif"]),
    ("bilinear96", 3, 96, 16,
     dict(crop_pct=0.875, interpolation="bilinear", crop_mode="center", mean=(0.5,) * 3, std=(0.5,) * 3), None),
    ("gray28", 1, 28, 4,
     dict(crop_pct=1.0, interpolation="bilinear", crop_mode="center", mean=(0.2860,), std=(0.3530,)), None),
    ("squash64", 3, 64, 16,
     dict(crop_pct=0.95, interpolation="bicubic", crop_mode="squash", mean=CLIP_MEAN, std=CLIP_STD), None),
    # crop_pct > 1: the resized image is smaller than S and CenterCrop pads it with zeros
    ("pad40", 3, 40, 8,
     dict(crop_pct=1.2, interpolation="bicubic", crop_mode="center", mean=IMAGENET_MEAN, std=IMAGENET_STD), None),
]
HF_SIZE = 32

# timm models run at a non-square input size: the checkpoint is square (S; the
# loader reads square checkpoints), the test sets image_height x image_width
# (and one at its own size, for PIL's nearest-neighbour resize).
# name, in_chans, S, patch, pretrained_cfg overlay, images (None = all), (H, W)
TIMM_RUNS = [
    ("timm24x40", 3, 40, 8,
     dict(crop_pct=0.9, interpolation="bicubic", crop_mode="center", mean=IMAGENET_MEAN, std=IMAGENET_STD), None, (24, 40)),
    ("squash40x24", 3, 40, 8,
     dict(crop_pct=0.95, interpolation="bilinear", crop_mode="squash", mean=(0.5,) * 3, std=(0.5,) * 3), None, (40, 24)),
    ("nearest48", 3, 48, 8,
     dict(crop_pct=0.875, interpolation="nearest", crop_mode="center", mean=(0.5,) * 3, std=(0.5,) * 3),
     ["chelsea.png", "coffee.png", "rocket_portrait.jpg", "horse.png", "no_time_for_that_tiny.gif",
      "coffee_97x301.tga", "coffee_211x157.ppm"], (48, 48)),
]

# Hugging Face PIL-backend processors, saved beside a tiny ViTForImageClassification.
# name, processor class, its arguments, model S, patch, images (None = all), (H, W) when not the processor's own
DINO = dict(size={"shortest_edge": 36}, crop_size={"height": 32, "width": 32}, image_mean=IMAGENET_MEAN,
            image_std=IMAGENET_STD)
DEIT = dict(size={"height": 35, "width": 35}, crop_size={"height": 32, "width": 32}, image_mean=IMAGENET_MEAN,
            image_std=IMAGENET_STD)
HF_CONFIGS = [
    ("clip40", CLIPImageProcessorPil, dict(size={"shortest_edge": 40}, crop_size={"height": 40, "width": 40}),
     40, 8, None, None),
    ("dinov2_32", BitImageProcessorPil, DINO, 32, 8, None, None),
    ("siglip32", SiglipImageProcessorPil, dict(size={"height": 32, "width": 32}), 32, 8, None, None),
    ("deit32", DeiTImageProcessorPil, DEIT, 32, 8, None, None),
    ("dinov2_24x40", BitImageProcessorPil, DINO, 32, 8, None, (24, 40)),
    ("deit_40x24", DeiTImageProcessorPil, DEIT, 32, 8, None, (40, 24)),
    ("siglip_24x40", SiglipImageProcessorPil, dict(size={"height": 32, "width": 32}), 32, 8, None, (24, 40)),
]
PIL_FILTER_NAMES = {Image.NEAREST: "nearest", Image.BILINEAR: "bilinear", Image.BICUBIC: "bicubic"}


def make_timm_model(d, seed, in_chans, size, patch, overlay):
    torch.manual_seed(seed)
    args = dict(img_size=size, patch_size=patch, in_chans=in_chans, embed_dim=16, depth=1, num_heads=1, num_classes=4)
    cfg = dict(overlay, input_size=(in_chans, size, size))
    model = timm.create_model("vit_tiny_patch16_224", pretrained=False, pretrained_cfg_overlay=cfg, **args).eval()
    save_for_hf(model, d, model_args=args, safe_serialization=True)
    return model


def save_hf_vit(d, seed, size, patch):
    torch.manual_seed(seed)
    cfg = ViTConfig(image_size=size, patch_size=patch, num_channels=3, hidden_size=16, num_hidden_layers=1,
                    num_attention_heads=1, intermediate_size=32, num_labels=4)
    ViTForImageClassification(cfg).eval().save_pretrained(d, safe_serialization=True)


def make_hf_model(d, seed):
    save_hf_vit(d, seed, HF_SIZE, 8)
    proc = ViTImageProcessor(size={"height": HF_SIZE, "width": HF_SIZE})
    proc.save_pretrained(d)
    return proc, ViTImageProcessorPil(size={"height": HF_SIZE, "width": HF_SIZE})


def hf_at(cls, kw, hw):
    """The processor that vit.h reproduces for processor cls(**kw) at input size hw = (H, W)
    (vit.h, vit__preprocess_geometry): with c0 the processor's square crop side, a shortest edge
    s becomes floor(s * max(H, W) / c0) and a fixed square size s becomes floor(s * H / c0) x
    floor(s * W / c0), then crop_size H x W; without a crop, size H x W."""
    proc = cls(**kw)
    if hw is None:
        return proc
    H, W = hw
    if not proc.do_center_crop or (proc.size.height, proc.size.width) == (proc.crop_size.height, proc.crop_size.width):
        return cls(**dict(kw, size={"height": H, "width": W}))
    c0 = proc.crop_size.height
    assert proc.crop_size.width == c0
    if proc.size.shortest_edge:
        size = {"shortest_edge": proc.size.shortest_edge * max(H, W) // c0}
    else:
        assert proc.size.height == proc.size.width
        size = {"height": proc.size.height * H // c0, "width": proc.size.width * W // c0}
    return cls(**dict(kw, size=size, crop_size={"height": H, "width": W}))


# ---------------------------------------------------------------------------
# references

def normalise(u8, mean, std):
    """(u8 / 255 - mean) / std as torchvision's ToTensor + Normalize compute it (float32)."""
    t = torch.from_numpy(np.array(u8)).float().div(255)
    m = torch.tensor(mean, dtype=torch.float32).view(-1, 1, 1)
    s = torch.tensor(std, dtype=torch.float32).view(-1, 1, 1)
    return ((t - m) / s).numpy()


def timm_reference(model, path, in_chans, hw=None):
    cfg = timm.data.resolve_data_config({} if hw is None else {"input_size": (in_chans,) + tuple(hw)}, model=model)
    t = timm.data.create_transform(**cfg)
    img = Image.open(path).convert("L" if in_chans == 1 else "RGB")
    x = t(img).numpy()
    tail = t.transforms[-2:]
    assert type(tail[0]).__name__ in ("MaybeToTensor", "ToTensor") and isinstance(tail[1], transforms.Normalize), t
    geo = transforms.Compose(t.transforms[:-2])  # Resize (or ResizeKeepRatio) + CenterCrop on the PIL image
    u8 = np.asarray(geo(img), dtype=np.uint8)
    H, W = cfg["input_size"][1:]
    u8 = np.ascontiguousarray(u8.reshape(H, W, in_chans).transpose(2, 0, 1))
    assert x.shape == u8.shape, (x.shape, u8.shape)
    err = np.abs(normalise(u8, cfg["mean"], cfg["std"]) - x).max()
    assert err <= 1e-6, (path, err)
    return u8, cfg


def hf_reference(proc, path, mean, std):
    img = Image.open(path).convert("RGB")
    x = proc(images=img, return_tensors="np")["pixel_values"][0]
    m = np.asarray(mean, np.float32).reshape(-1, 1, 1)
    s = np.asarray(std, np.float32).reshape(-1, 1, 1)
    u8 = np.clip(np.rint((x * s + m) * 255), 0, 255).astype(np.uint8)
    err = np.abs(normalise(u8, mean, std) - x).max()
    assert err <= 1e-6, (path, err)  # the processor's resize output was 8-bit
    return u8


def fmt(v):
    return " ".join(repr(float(a)) for a in v)


# ---------------------------------------------------------------------------
# geometry: resize sizes and crop offsets for random sizes, from the libraries' own functions

def first_source_pixel(cropped, rw):
    """(top, left) of a crop of an image whose pixels hold their own index + 1 (0 = padding)."""
    ys, xs = np.nonzero(cropped)
    v = int(cropped[ys[0], xs[0]]) - 1
    return v // rw - int(ys[0]), v % rw - int(xs[0])


def geometry_lines(n, seed=7):
    """n timm and n Hugging Face cases:
    geom <crop_mode> <crop_pct> <resize_shorter> <H> <W> <w> <h> <rw> <rh> <top> <left>"""
    rng = random.Random(seed)
    lines = []

    def image_size():
        if rng.random() < 0.3:  # slivers
            a, b = rng.randint(1, 8), rng.randint(1, 600)
            return (a, b) if rng.random() < 0.5 else (b, a)
        return rng.randint(1, 1200), rng.randint(1, 1200)

    def small_enough(side, w, h):  # the index image must stay small
        return side * side * max(w, h) / min(w, h) <= 2e6

    count = 0
    while count < n:  # timm: transforms_imagenet_eval's own Resize / ResizeKeepRatio and CenterCrop
        mode = rng.choice(["center", "center", "squash"])
        pct = rng.choice([0.85, 0.875, 0.9, 0.95, 0.96, 1.0, 1.15, 2.5])
        H, W = rng.randint(1, 64), rng.randint(1, 64)
        if rng.random() < 0.25:
            W = H
        w, h = image_size()
        th, tw = math.floor(H / pct), math.floor(W / pct)
        if th < 1 or tw < 1 or not small_enough(max(th, tw), w, h):
            continue
        t = timm.data.transforms_factory.transforms_imagenet_eval(img_size=(H, W), crop_pct=pct, crop_mode=mode,
                                                                  interpolation="bilinear")
        resize, crop = t.transforms[0], t.transforms[1]
        assert isinstance(crop, transforms.CenterCrop), t
        rw, rh = resize(Image.new("L", (w, h))).size
        index = torch.arange(1, rh * rw + 1, dtype=torch.float64).reshape(1, rh, rw)
        top, left = first_source_pixel(crop(index)[0].numpy(), rw)
        lines.append("geom %s %r 0 %d %d %d %d %d %d %d %d" % (mode, pct, H, W, w, h, rw, rh, top, left))
        count += 1

    count = 0
    while count < n:  # Hugging Face: PilBackend.resize and center_crop of the processor hf_at configures
        mode = rng.choice(["hf-shortest", "hf-shortest", "hf-crop", "squash"])
        c0 = rng.randint(8, 64)
        s = rng.randint(max(1, c0 // 2), 2 * c0)
        hw = None if rng.random() < 0.4 else (rng.randint(8, 64), rng.randint(8, 64))
        w, h = image_size()
        H, W = hw or (c0, c0)
        if not small_enough(2 * max(H, W), w, h):
            continue
        if mode == "hf-shortest":
            cls, kw = CLIPImageProcessorPil, dict(size={"shortest_edge": s}, crop_size={"height": c0, "width": c0})
        elif mode == "hf-crop":
            if s == c0:
                continue  # a crop of the whole resize is the plain resize (vit.h reads it as squash)
            cls, kw = DeiTImageProcessorPil, dict(size={"height": s, "width": s}, crop_size={"height": c0, "width": c0})
        else:
            cls, kw, s = SiglipImageProcessorPil, dict(size={"height": c0, "width": c0}), 0
        proc = hf_at(cls, kw, hw)
        r = proc.resize(np.zeros((1, h, w), np.uint8), size=proc.size, resample=proc.resample)
        rh, rw = r.shape[1:]
        if proc.do_center_crop:
            index = np.arange(1, rh * rw + 1, dtype=np.float64).reshape(1, rh, rw)
            top, left = first_source_pixel(proc.center_crop(index, proc.crop_size)[0], rw)
        else:
            assert (rh, rw) == (H, W)
            top = left = 0
        pct = c0 / s if s else 1.0
        lines.append("geom %s %r %d %d %d %d %d %d %d %d %d" % (mode, pct, s, H, W, w, h, rw, rh, top, left))
        count += 1
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, help="output directory, e.g. tests/data/preprocess")
    ap.add_argument("--wheel", default=None, help="scikit-image wheel (default: /tmp/skw/scikit_image-%s-*.whl)"
                    % SKIMAGE_VERSION)
    a = ap.parse_args()
    wheel = a.wheel
    if wheel is None:
        pattern = "/tmp/skw/scikit_image-%s-*.whl" % SKIMAGE_VERSION
        if not glob.glob(pattern):
            subprocess.check_call([sys.executable, "-m", "pip", "download", "--no-deps",
                                   "scikit-image==%s" % SKIMAGE_VERSION, "-d", "/tmp/skw"])
        wheel = sorted(glob.glob(pattern))[0]

    out = a.out
    img_dir = os.path.join(out, "images")
    for name in (["images", "hf32", "manifest.txt", "geometry.txt"] + [c[0] for c in TIMM_CONFIGS] +
                 [c[0] for c in TIMM_RUNS] + [c[0] for c in HF_CONFIGS]):
        p = os.path.join(out, name)
        if os.path.isdir(p):
            shutil.rmtree(p)
        elif os.path.exists(p):
            os.remove(p)
    os.makedirs(img_dir)
    images = make_images(wheel, img_dir)
    stems = [os.path.splitext(im)[0] for im in images]
    assert len(set(stems)) == len(stems), "two images share a stem: their references would collide"

    lines = ["# vit.h preprocessing references, written by tools/make_preprocess_reference.py",
             "# timm %s, torchvision %s, transformers %s, Pillow %s, torch %s" % (
                 timm.__version__, torchvision.__version__, transformers.__version__, Image.__version__,
                 torch.__version__),
             "# config <name> <C> <S> <mean x C> <std x C> <interpolation> <crop_pct> <crop_mode> [<H> <W> <resize_shorter>]",
             "# ref <config> <image> <reference (C,H,W) uint8> <producer>"]
    for seed, (name, C, S, P, overlay, subset) in enumerate(TIMM_CONFIGS):
        d = os.path.join(out, name)
        model = make_timm_model(d, seed + 1, C, S, P, overlay)
        refs = []
        for im in (subset or images):
            u8, cfg = timm_reference(model, os.path.join(img_dir, im), C)
            stem = os.path.splitext(im)[0]
            u8.tofile(os.path.join(d, stem + ".u8"))
            refs.append("ref %s %s %s/%s.u8 timm" % (name, im, name, stem))
        assert tuple(cfg["input_size"]) == (C, S, S) and cfg["crop_pct"] == overlay["crop_pct"], cfg
        assert cfg["interpolation"] == overlay["interpolation"] and cfg["crop_mode"] == overlay["crop_mode"], cfg
        lines.append("config %s %d %d %s %s %s %r %s" % (name, C, S, fmt(cfg["mean"]), fmt(cfg["std"]),
                                                          cfg["interpolation"], float(cfg["crop_pct"]),
                                                          cfg["crop_mode"]))
        lines += refs

    d = os.path.join(out, "hf32")
    proc, proc_pil = make_hf_model(d, 100)
    assert proc.backend == "torchvision" and proc.resample == Image.BILINEAR, proc
    mean, std = list(proc.image_mean), list(proc.image_std)
    lines.append("config hf32 3 %d %s %s bilinear 1.0 squash" % (HF_SIZE, fmt(mean), fmt(std)))
    for im in images:
        stem = os.path.splitext(im)[0]
        path = os.path.join(img_dir, im)
        hf_reference(proc, path, mean, std).tofile(os.path.join(d, stem + ".u8"))
        hf_reference(proc_pil, path, mean, std).tofile(os.path.join(d, stem + ".pil.u8"))
        lines.append("ref hf32 %s hf32/%s.u8 hf-torchvision" % (im, stem))
        lines.append("ref hf32 %s hf32/%s.pil.u8 hf-pil" % (im, stem))

    for seed, (name, C, S, P, overlay, subset, hw) in enumerate(TIMM_RUNS):
        d = os.path.join(out, name)
        model = make_timm_model(d, 200 + seed, C, S, P, overlay)
        refs = []
        for im in (subset or images):
            u8, cfg = timm_reference(model, os.path.join(img_dir, im), C, hw)
            stem = os.path.splitext(im)[0]
            u8.tofile(os.path.join(d, stem + ".u8"))
            refs.append("ref %s %s %s/%s.u8 timm" % (name, im, name, stem))
        assert tuple(cfg["input_size"]) == (C,) + hw and cfg["crop_pct"] == overlay["crop_pct"], cfg
        assert cfg["interpolation"] == overlay["interpolation"] and cfg["crop_mode"] == overlay["crop_mode"], cfg
        lines.append("config %s %d %d %s %s %s %r %s %d %d 0" % (name, C, S, fmt(cfg["mean"]), fmt(cfg["std"]),
                                                                cfg["interpolation"], float(cfg["crop_pct"]),
                                                                cfg["crop_mode"], hw[0], hw[1]))
        lines += refs

    for seed, (name, cls, kw, S, P, subset, hw) in enumerate(HF_CONFIGS):
        d = os.path.join(out, name)
        save_hf_vit(d, 300 + seed, S, P)
        saved = cls(**kw)
        saved.save_pretrained(d)  # the processor's own configuration, as a checkpoint ships it
        proc = hf_at(cls, kw, hw)
        assert proc.backend == "pil" and proc.resample in PIL_FILTER_NAMES, proc
        mean, std = list(proc.image_mean), list(proc.image_std)
        own = (saved.crop_size.height, saved.crop_size.width) if saved.do_center_crop else (saved.size.height,
                                                                                           saved.size.width)
        H, W = hw or own
        if saved.size.shortest_edge:
            mode, shorter = "hf-shortest", saved.size.shortest_edge
        elif saved.do_center_crop and saved.size.height != saved.crop_size.height:
            mode, shorter = "hf-crop", saved.size.height
        else:
            mode, shorter = "squash", 0
        pct = saved.crop_size.height / shorter if shorter else 1.0
        lines.append("config %s 3 %d %s %s %s %r %s %d %d %d" % (name, S, fmt(mean), fmt(std),
                                                                PIL_FILTER_NAMES[proc.resample], pct, mode, H, W,
                                                                shorter))
        for im in (subset or images):
            stem = os.path.splitext(im)[0]
            u8 = hf_reference(proc, os.path.join(img_dir, im), mean, std)
            assert u8.shape == (3, H, W), (name, u8.shape)
            u8.tofile(os.path.join(d, stem + ".u8"))
            lines.append("ref %s %s %s/%s.u8 hf-pil" % (name, im, name, stem))

    with open(os.path.join(out, "manifest.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    geom = geometry_lines(400)
    with open(os.path.join(out, "geometry.txt"), "w") as f:
        f.write("# vit__preprocess_geometry cases, written by tools/make_preprocess_reference.py from timm's\n"
                "# transforms_imagenet_eval (its Resize / ResizeKeepRatio and CenterCrop objects) and from\n"
                "# transformers' PIL-backend resize and center_crop (CLIP/DeiT/SiglipImageProcessorPil as hf_at\n"
                "# configures them): an image of w x h at input H x W is resized to rw x rh and the crop's\n"
                "# first pixel is source row top, column left (negative: zero padding)\n"
                "# geom <crop_mode> <crop_pct> <resize_shorter> <H> <W> <w> <h> <rw> <rh> <top> <left>\n")
        f.write("\n".join(geom) + "\n")

    total = 0
    for root, _, files in os.walk(out):
        total += sum(os.path.getsize(os.path.join(root, f)) for f in files)
    print("wrote %s: %d images, %d references, %.0f KB" % (
        out, len(images), sum(1 for s in lines if s.startswith("ref ")), total / 1024))


if __name__ == "__main__":
    main()
