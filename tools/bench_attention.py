#!/usr/bin/env python3
"""vit.h's attention kernels beside PyTorch's SDPA, bf16, in one run on one GPU.

For each shape (B images, N tokens, H heads of size D): torch's
scaled_dot_product_attention on q, k, v viewed out of packed qkv as timm runs
it, and `vit_bench attn` several ways: the default policy, the mma.sync kernels
only (VIT_ATTN_WGMMA=1) and the sm_90a wgmma kernel only with 2 and 3 consumer
warpgroups (VIT_ATTN_WGMMA=3, 4), with 2 also without taking turns. make
bench puts the same table in BENCHMARKS.md.
TFLOP/s = 4 B H N^2 D / time (CUDA-event medians of 20 runs).

  python3 tools/bench_attention.py --bin build/vit_bench [--out FILE.md] [--scale S] [--quick]

--scale S: q, k and v uniform in [-S, S] on both sides (default 2, as
vit_bench's own default; SDPA's time depends on the data, vit.h's does not:
BENCHMARKS.md); a small S gives the near-uniform softmax of a randomly
initialised model. --quick: the default kernel only.
"""
import argparse, json, os, subprocess
import torch
import torch.nn.functional as F

SHAPES = [  # (B, N, H, D, what)
    (256, 197, 12, 64, "ViT-B/16 @224"),
    (64, 577, 12, 64, "ViT-B/16 @384"),
    (64, 577, 16, 64, "CLIP ViT-L/14 @336"),
    (64, 1370, 6, 64, "ViT-S/14 @518 (DINOv2)"),
    (8, 4096, 12, 64, "N = 4096"),
    (1, 197, 12, 64, "ViT-B/16 @224, batch 1"),
    (32, 1024, 8, 128, "head size 128"),
]
KERNELS = {20: "fma", 21: "mma.sync stream", 22: "mma.sync full", 23: "mma.sync split keys", 24: "wgmma"}


def sdpa_ms(B, N, H, D, iters=20, scale=2.0):
    qkv = ((torch.rand(B, N, 3, H, D, device="cuda") * 2 - 1) * scale).bfloat16()
    q, k, v = qkv.permute(2, 0, 3, 1, 4).unbind(0)
    for _ in range(3):
        F.scaled_dot_product_attention(q, k, v)
    e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    ts = []
    for _ in range(iters):
        e0.record()
        F.scaled_dot_product_attention(q, k, v)
        e1.record()
        torch.cuda.synchronize()
        ts.append(e0.elapsed_time(e1))
    return sorted(ts)[len(ts) // 2]


def ours(binary, B, N, H, D, env):
    r = subprocess.run([binary, "attn", str(B), str(N), str(H), str(D), "20"], capture_output=True, text=True, env={**os.environ, **env})
    try:
        return json.loads(r.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return {"error": (r.stdout + r.stderr)[-300:]}


def measure(binary, B, N, H, D, what, scale=2.0, quick=False):
    """One shape: SDPA and vit_bench attn (the default kernel, then each one forced), on the same data."""
    row = {"shape": what, "B": B, "N": N, "H": H, "D": D, "scale": scale, "sdpa_ms": sdpa_ms(B, N, H, D, scale=scale)}
    data = {"VIT_ATTN_DATA": str(scale)}
    for name, env in (("default", {}), ("mma", {"VIT_ATTN_WGMMA": "1"}), ("wgmma", {"VIT_ATTN_WGMMA": "3"}), ("wgmma3", {"VIT_ATTN_WGMMA": "4"}),
                      ("wgmma_noping", {"VIT_ATTN_WGMMA": "3", "VIT_ATTN_PING": "1"})):
        if (name == "wgmma3" and D != 64) or (quick and name != "default"):
            row[name] = {}  # not run: three consumer warpgroups take head size 64 only; --quick runs the default
            continue
        row[name] = ours(binary, B, N, H, D, {**env, **data})
    return row


def table(rows):
    """Markdown lines: one row per shape."""
    scale = rows[0].get("scale", 2.0) if rows else 2.0
    L = [f"TFLOP/s = 4 B H N^2 D / time; q, k, v uniform in [-{scale:g}, {scale:g}] on both sides. vit.h default: the kernel the forward pass picks for that shape; the last columns force "
         "one kernel (VIT_ATTN_WGMMA=1: mma.sync; 3, 4: the sm_90a wgmma kernel with 2 or 3 consumer warpgroups of 64 query rows; "
         "VIT_ATTN_PING=1 its 2 warpgroups not taking turns).", "",
         "| shape | B | N | H | D | SDPA ms | SDPA TFLOP/s | vit.h ms | vit.h TFLOP/s | kernel | vit.h / SDPA | mma.sync only | wgmma, 2 warpgroups | "
         "wgmma, 3 warpgroups | wgmma, 2, no turns |",
         "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    tf = lambda j: f"{j['tflops']:.0f}" if "tflops" in j else "-"
    for r in rows:
        fl = 4.0 * r["B"] * r["H"] * r["N"] ** 2 * r["D"]
        d = r["default"]
        ratio = f"{r['sdpa_ms'] / d['ms']:.2f}x" if "ms" in d else "-"
        L.append(f"| {r['shape']} | {r['B']} | {r['N']} | {r['H']} | {r['D']} | {r['sdpa_ms']:.3f} | {fl / r['sdpa_ms'] / 1e9:.0f} | "
                 f"{d.get('ms', '-')} | {tf(d)} | {KERNELS.get(d.get('kernel'), d.get('kernel', '-'))} | {ratio} | {tf(r.get('mma', {}))} | {tf(r.get('wgmma', {}))} | "
                 f"{tf(r.get('wgmma3', {}))} | {tf(r.get('wgmma_noping', {}))} |")
    return L


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="build/vit_bench")
    ap.add_argument("--out")
    ap.add_argument("--scale", type=float, default=2.0, help="q, k, v uniform in [-S, S] on both sides")
    ap.add_argument("--quick", action="store_true", help="the default kernel only")
    args = ap.parse_args()
    rows = []
    for B, N, H, D, what in SHAPES:
        rows.append(measure(args.bin, B, N, H, D, what, args.scale, args.quick))
        print(json.dumps(rows[-1]), flush=True)
    data = f" Data: q, k, v uniform in [-{args.scale:g}, {args.scale:g}] on both sides."
    text = "\n".join([f"Device: {torch.cuda.get_device_name()}. torch {torch.__version__}. Command: `python3 tools/bench_attention.py`.{data}", ""] + table(rows))
    print(text)
    if args.out:
        open(args.out, "w").write(text + "\n")


if __name__ == "__main__":
    main()
