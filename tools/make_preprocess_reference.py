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

manifest.txt:
    config <name> <C> <S> <mean x C> <std x C> <interpolation> <crop_pct> <crop_mode>
    ref <config> <image file> <reference file> <producer>

timm references: cfg = timm.data.resolve_data_config({}, model=model);
t = timm.data.create_transform(**cfg); x = t(Image.open(p).convert('RGB'))
(.convert('L') for the 1-channel model: timm's transform has no channel
conversion, so a 1-channel model needs an 'L' image, and its 1-element mean/std
then normalise the single channel).
Hugging Face references: ViTImageProcessor (transformers 5: the torchvision
backend, resize of a uint8 tensor with antialias) gives <stem>.u8, and
ViTImageProcessorPil (PIL's Image.resize, what ViTImageProcessor did in
transformers 4) gives <stem>.pil.u8.

Usage: python3 tools/make_preprocess_reference.py --out tests/data/preprocess
The scikit-image wheel is read (not installed) from --wheel, default
/tmp/skw/scikit_image-0.26.0-*.whl, fetched there with
`pip download --no-deps scikit-image==0.26.0 -d /tmp/skw` when absent.
"""

import argparse
import glob
import io
import os
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


def make_timm_model(d, seed, in_chans, size, patch, overlay):
    torch.manual_seed(seed)
    args = dict(img_size=size, patch_size=patch, in_chans=in_chans, embed_dim=16, depth=1, num_heads=1, num_classes=4)
    cfg = dict(overlay, input_size=(in_chans, size, size))
    model = timm.create_model("vit_tiny_patch16_224", pretrained=False, pretrained_cfg_overlay=cfg, **args).eval()
    save_for_hf(model, d, model_args=args, safe_serialization=True)
    return model


def make_hf_model(d, seed):
    torch.manual_seed(seed)
    cfg = ViTConfig(image_size=HF_SIZE, patch_size=8, num_channels=3, hidden_size=16, num_hidden_layers=1,
                    num_attention_heads=1, intermediate_size=32, num_labels=4)
    ViTForImageClassification(cfg).eval().save_pretrained(d, safe_serialization=True)
    proc = ViTImageProcessor(size={"height": HF_SIZE, "width": HF_SIZE})
    proc.save_pretrained(d)
    return proc, ViTImageProcessorPil(size={"height": HF_SIZE, "width": HF_SIZE})


# ---------------------------------------------------------------------------
# references

def normalise(u8, mean, std):
    """(u8 / 255 - mean) / std as torchvision's ToTensor + Normalize compute it (float32)."""
    t = torch.from_numpy(np.array(u8)).float().div(255)
    m = torch.tensor(mean, dtype=torch.float32).view(-1, 1, 1)
    s = torch.tensor(std, dtype=torch.float32).view(-1, 1, 1)
    return ((t - m) / s).numpy()


def timm_reference(model, path, in_chans):
    cfg = timm.data.resolve_data_config({}, model=model)
    t = timm.data.create_transform(**cfg)
    img = Image.open(path).convert("L" if in_chans == 1 else "RGB")
    x = t(img).numpy()
    tail = t.transforms[-2:]
    assert type(tail[0]).__name__ in ("MaybeToTensor", "ToTensor") and isinstance(tail[1], transforms.Normalize), t
    geo = transforms.Compose(t.transforms[:-2])  # Resize + CenterCrop on the PIL image
    u8 = np.asarray(geo(img), dtype=np.uint8)
    S = cfg["input_size"][1]
    u8 = np.ascontiguousarray(u8.reshape(S, S, in_chans).transpose(2, 0, 1))
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
    for name in ["images", "hf32", "manifest.txt"] + [c[0] for c in TIMM_CONFIGS]:
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
             "# config <name> <C> <S> <mean x C> <std x C> <interpolation> <crop_pct> <crop_mode>",
             "# ref <config> <image> <reference (C,S,S) uint8> <producer>"]
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

    with open(os.path.join(out, "manifest.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")

    total = 0
    for root, _, files in os.walk(out):
        total += sum(os.path.getsize(os.path.join(root, f)) for f in files)
    print("wrote %s: %d images, %d references, %.0f KB" % (
        out, len(images), sum(1 for s in lines if s.startswith("ref ")), total / 1024))


if __name__ == "__main__":
    main()
