#!/usr/bin/env python3
"""The folder CLI against a PyTorch input pipeline: images/s over a
directory of JPEGs, with the same number of CPU workers on both sides.

  1. Makes --count JPEGs of --width x --height (default 10,000 of 640x480,
     quality 90; natural-ish content: a smooth random colour field, shapes, fine
     noise), in parallel, into --dir (kept and reused when it already holds
     them) or a temporary directory.
  2. Creates the timm model (--model, default vit_base_patch16_224) with random
     weights and saves it with save_for_hf (model.safetensors + config.json).
  3. Times, each over the whole directory:
     - vit-classify --json --threads T (--bin; its stdout to a file): the whole
       process (model loads included) and the pipeline rate it reports itself
       (first image to last);
     - PyTorch: a DataLoader(num_workers=T, pin_memory) of PIL decode + timm's
       eval transform (resolve_data_config + create_transform), batches of
       --batch, the model in bf16 on the GPU (fp32 on the CPU), softmax top-5
       to the host, as vit-classify --json does; the model's creation excluded;
     - vit-classify --no-frames on a GPU: the resize on the CPU threads (the
       default hands same-size batches to vit_forward_rgb8: the resize on the GPU);
     - the bounds with no model: vit-classify --decode-only --threads T (vit.h's
       decode + preprocess) and the same DataLoader alone (PIL + timm transform).
  4. Prints a markdown table (and appends it to --out when given).

Runs on the GPU machine (needs torch, timm, PIL, numpy, and build/vit-classify
built by nvcc: make build/vit-classify):
    python3 tools/bench_cli.py [--count 10000] [--threads N] [--batch 32] [--devices all]
Smoke test of the CPU-side parts (no GPU):
    python3 tools/bench_cli.py --count 50 --device cpu --model vit_tiny_patch16_224 --bin build/vit-classify-cpu
"""

import argparse
import datetime
import multiprocessing
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np
from PIL import Image, ImageDraw


def make_image(args):
    path, seed, w, h = args
    rng = np.random.default_rng(seed)
    # low-frequency colour field: a small random image upsampled (smooth gradients, like sky or walls)
    small = Image.fromarray(rng.integers(0, 256, (rng.integers(3, 9), rng.integers(3, 9), 3), dtype=np.uint8))
    img = small.resize((w, h), Image.BICUBIC)
    d = ImageDraw.Draw(img)
    for _ in range(int(rng.integers(3, 12))):  # objects with edges
        x0, y0 = int(rng.integers(-w // 4, w)), int(rng.integers(-h // 4, h))
        x1, y1 = x0 + int(rng.integers(20, w // 2)), y0 + int(rng.integers(20, h // 2))
        colour = tuple(int(c) for c in rng.integers(0, 256, 3))
        (d.ellipse if rng.random() < 0.5 else d.rectangle)((x0, y0, x1, y1), fill=colour)
    a = np.asarray(img, dtype=np.int16) + rng.normal(0, 6, (h, w, 3)).astype(np.int16)  # sensor noise / texture
    Image.fromarray(np.clip(a, 0, 255).astype(np.uint8)).save(path, quality=90)


def make_images(directory, count, w, h, workers):
    os.makedirs(directory, exist_ok=True)
    names = [os.path.join(directory, f"{i // 1000:02d}", f"img_{i:06d}.jpg") for i in range(count)]
    for sub in sorted({os.path.dirname(n) for n in names}):
        os.makedirs(sub, exist_ok=True)
    todo = [(n, i, w, h) for i, n in enumerate(names) if not os.path.exists(n)]
    if todo:
        t = time.time()
        with multiprocessing.Pool(workers) as pool:
            pool.map(make_image, todo, chunksize=64)
        print(f"made {len(todo)} JPEGs of {w}x{h} in {time.time() - t:.1f} s", file=sys.stderr)
    return names


def run_cli(cmd, out_path):
    t = time.time()
    with open(out_path, "wb") as out:
        r = subprocess.run(cmd, stdout=out, stderr=subprocess.PIPE, text=True)
    wall = time.time() - t
    if r.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: exit {r.returncode}\n{r.stderr}")
    m = re.search(r"^(?:classified|decoded) (\d+) of (\d+) images in ([0-9.]+) s: ([0-9.]+) img/s", r.stderr, re.M)
    if not m:
        sys.exit(f"no summary line from {' '.join(cmd)}:\n{r.stderr}")
    return {"wall": wall, "n": int(m.group(2)), "pipeline_s": float(m.group(3)), "stderr": r.stderr.strip()}


class Files:
    def __init__(self, names, transform):
        self.names, self.transform = names, transform

    def __len__(self):
        return len(self.names)

    def __getitem__(self, i):
        with open(self.names[i], "rb") as f:
            return self.transform(Image.open(f).convert("RGB"))


def run_torch(model, names, transform, args, device, with_model=True):
    import torch
    loader = torch.utils.data.DataLoader(Files(names, transform), batch_size=args.batch, num_workers=args.threads,
                                         pin_memory=device == "cuda", shuffle=False, persistent_workers=False,
                                         prefetch_factor=4 if args.threads > 0 else None)
    dtype = torch.bfloat16 if device == "cuda" else torch.float32
    n = 0
    t = time.time()
    with torch.inference_mode():
        for x in loader:
            n += x.shape[0]
            if with_model:
                x = x.to(device, non_blocking=True).to(dtype)
                top = model(x).float().softmax(-1).topk(5)
                top.values.cpu(), top.indices.cpu()
    if device == "cuda":
        torch.cuda.synchronize()
    return {"n": n, "pipeline_s": time.time() - t}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=10000)
    ap.add_argument("--width", type=int, default=640)
    ap.add_argument("--height", type=int, default=480)
    ap.add_argument("--dir", help="where the JPEGs are made (kept); default: a temporary directory")
    ap.add_argument("--model", default="vit_base_patch16_224")
    ap.add_argument("--threads", type=int, default=os.cpu_count(), help="decode threads = DataLoader workers (default: all cores)")
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--device", default="cuda", choices=["cuda", "cpu"])
    ap.add_argument("--devices", help="vit-classify --devices (e.g. all); PyTorch stays on one GPU")
    ap.add_argument("--bin", default="build/vit-classify")
    ap.add_argument("--skip-torch", action="store_true", help="time vit-classify only")
    ap.add_argument("--out", help="append the table to this markdown file")
    args = ap.parse_args()

    import torch
    import timm
    from timm.models._hub import save_for_hf

    with tempfile.TemporaryDirectory() as tmp:
        names = make_images(args.dir or os.path.join(tmp, "images"), args.count, args.width, args.height, args.threads)
        root = os.path.dirname(os.path.dirname(names[0]))
        torch.manual_seed(0)
        model = timm.create_model(args.model, pretrained=False).eval()
        mdir = os.path.join(tmp, "model")
        save_for_hf(model, mdir, safe_serialization=True)
        mpath = os.path.join(mdir, "model.safetensors")

        common = [args.bin, "--threads", str(args.threads), "--batch", str(args.batch), "--device", args.device]
        if args.devices:
            common += ["--devices", args.devices]
        rows = []
        r = run_cli(common + ["--json", mpath, root], os.path.join(tmp, "out.jsonl"))
        with open(os.path.join(tmp, "out.jsonl")) as f:
            lines = sum(1 for _ in f)
        if lines != args.count or r["n"] != args.count:
            sys.exit(f"vit-classify --json: {lines} lines, {r['n']} images, want {args.count}")
        print(r["stderr"], file=sys.stderr)
        rows.append(("vit-classify --json", r["n"] / r["pipeline_s"], r["n"] / r["wall"]))
        if args.device == "cuda":  # the eval transform on the CPU threads instead of the GPU (vit_forward_rgb8)
            r2 = run_cli(common + ["--json", "--no-frames", mpath, root], os.devnull)
            rows.append(("vit-classify --json --no-frames (resize on the CPU threads)", r2["n"] / r2["pipeline_s"], r2["n"] / r2["wall"]))
        d = run_cli([a for a in common if a not in ("--devices", args.devices)] + ["--decode-only", mpath, root], os.devnull)
        rows.append(("vit-classify --decode-only (the CPU threads' work: decode, + preprocess on the CPU)", d["n"] / d["pipeline_s"], d["n"] / d["wall"]))
        d = run_cli([a for a in common if a not in ("--devices", args.devices)] + ["--decode-only", "--no-frames", mpath, root], os.devnull)
        rows.append(("vit-classify --decode-only --no-frames (decode + preprocess on the CPU)", d["n"] / d["pipeline_s"], d["n"] / d["wall"]))

        if not args.skip_torch:
            cfg = timm.data.resolve_data_config({}, model=model)
            transform = timm.data.create_transform(**cfg)
            dev = args.device
            if dev == "cuda":
                model = model.to(dev, dtype=torch.bfloat16)
            with torch.inference_mode():  # warm-up outside the timing (cuDNN/cuBLAS handles)
                model(torch.zeros(args.batch, 3, *cfg["input_size"][1:], device=dev, dtype=next(model.parameters()).dtype))
            for label, m in ((f"PyTorch DataLoader(num_workers={args.threads}) + timm transform + model {'bf16' if dev == 'cuda' else 'fp32'}", model),
                             ("PyTorch DataLoader alone (PIL decode + timm transform: its bound)", None)):
                try:
                    t = run_torch(m, names, transform, args, dev, with_model=m is not None)
                    rows.append((label, t["n"] / t["pipeline_s"], None))
                except Exception as e:  # e.g. a /dev/shm too small for the workers: the table says so
                    print(f"{label}: {e!r}", file=sys.stderr)
                    rows.append((label + f" (failed: {type(e).__name__})", float("nan"), None))

    gpu = torch.cuda.get_device_name() if args.device == "cuda" and torch.cuda.is_available() else "no GPU"
    head = (f"### vit-classify vs a PyTorch pipeline: {args.count} JPEGs {args.width}x{args.height}, {args.model}, "
            f"{args.threads} CPU threads, batch {args.batch}, {args.device}{' --devices ' + args.devices if args.devices else ''} "
            f"({gpu}, {os.cpu_count()} cores, {datetime.date.today()})\n\n"
            "| pipeline | img/s (first image to last) | img/s (whole process, loads included) |\n| --- | ---: | ---: |\n")
    table = head + "".join(f"| {name} | {a:,.0f} | {'' if b is None else f'{b:,.0f}'} |\n" for name, a, b in rows)
    print(table)
    if args.out:
        with open(args.out, "a") as f:
            f.write("\n" + table)


if __name__ == "__main__":
    main()
