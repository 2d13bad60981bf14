#!/usr/bin/env python3
"""A/B timing of two vit_bench binaries (say, before and after a change) on the
rows of `make bench`, in one run on one GPU: the same random-init timm models
(saved with save_for_hf), each row timed by both binaries in alternating order,
ROUNDS times; prints the median per binary and new / old (> 1: new is slower).

usage: python3 tools/ab_bench.py OLD_BIN NEW_BIN [--rounds 3] [--json OUT.json] [--families] [--epilogues]
  --families   also the model families at batch 64 as tools/bench.py --families runs
               them (DINOv2-S/14 reg4 @518, CLIP B/32 and L/14 @336, SigLIP B/16 @384,
               DeiT-B distilled), from tools/make_gpu_reference.py's family models
  --epilogues  also GEMMs with each epilogue on the shapes where it runs: GELU,
               QuickGELU (CLIP), tanh GELU (HF SigLIP; timm's uses erf), the fp32 residual, DINOv2's K 384
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

os.environ.setdefault("HF_HUB_OFFLINE", "1")
import timm  # noqa: E402
import torch  # noqa: E402
from timm.models._hub import save_for_hf  # noqa: E402

# (model, dtype, batch, iterations): the rows of tools/bench.py's table
ROWS = [("vit_base_patch16_224", "bf16", 1, 200), ("vit_base_patch16_224", "bf16", 8, 100), ("vit_base_patch16_224", "bf16", 64, 30),
        ("vit_base_patch16_224", "bf16", 256, 10), ("vit_base_patch16_224", "f32", 1, 100), ("vit_base_patch16_224", "f32", 256, 5),
        ("vit_tiny_patch16_224", "bf16", 256, 20), ("vit_small_patch16_224", "bf16", 256, 20), ("vit_large_patch16_224", "bf16", 256, 5)]
GEMMS = [(256 * 197, 2304, 768), (256 * 197, 768, 768), (256 * 197, 3072, 768), (256 * 197, 768, 3072)]
# --families: (family key of make_gpu_reference.py, family_model keyword arguments, batch, iterations), as tools/bench.py
FAMILY_ROWS = [("dinov2_s14_reg4", dict(num_classes=1000), 64, 20), ("clip_b32", {}, 64, 30), ("clip_l14", {}, 64, 5),
               ("siglip_b16", dict(lib="timm", num_classes=1000), 64, 20), ("deit_b16_dist", {}, 64, 30)]
# --epilogues: (label, M, N, K, VIT_EP, VIT_ACT or None); VIT_EP 1: bias + activation, 2: added into fp32 (vit__act numbers)
EPILOGUE_GEMMS = [("ViT-B fc1 GELU", 256 * 197, 3072, 768, 1, None), ("ViT-B fc2 residual", 256 * 197, 768, 3072, 2, None),
                  ("ViT-B proj residual", 256 * 197, 768, 768, 2, None),
                  ("CLIP L/14 fc1 QuickGELU", 64 * 577, 4096, 1024, 1, 3), ("HF SigLIP fc1 tanh GELU", 64 * 576, 3072, 768, 1, 2),
                  ("DINOv2 qkv", 64 * 1374, 1152, 384, 0, None), ("DINOv2 fc1 GELU", 64 * 1374, 1536, 384, 1, None),
                  ("DINOv2 fc2 residual", 64 * 1374, 384, 1536, 2, None)]


def run(binary, *args, env=None):
    r = subprocess.run([binary, *map(str, args)], capture_output=True, text=True, timeout=300, env=env)
    line = (r.stdout.strip().splitlines() or ["{}"])[-1]
    try:
        out = json.loads(line)
    except json.JSONDecodeError:
        out = {"error": line + r.stderr[-300:]}
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--json", default=None)
    ap.add_argument("--families", action="store_true")
    ap.add_argument("--epilogues", action="store_true")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="vit_ab_")
    dirs = {}
    for arch in sorted({r[0] for r in ROWS}):
        torch.manual_seed(0)
        d = os.path.join(tmp, arch)
        save_for_hf(timm.create_model(arch, pretrained=False).eval(), d, safe_serialization=True)
        dirs[arch] = d
    jobs = [("model", r) for r in ROWS] + [("gemm", g) for g in GEMMS] + [("gemm_f32", g) for g in GEMMS[:2]]
    if a.families:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from make_gpu_reference import family_model, save_family
        for key, kw, bs, it in FAMILY_ROWS:
            d = os.path.join(tmp, key)
            save_family(family_model(key, **kw), key, d)
            dirs[key] = d
            jobs.append(("model", (key, "bf16", bs, it)))
    if a.epilogues:
        jobs += [("gemm_ep", e) for e in EPILOGUE_GEMMS]
    results = []
    for kind, spec in jobs:
        t = {"old": [], "new": []}
        for rnd in range(a.rounds):
            order = ["old", "new"] if rnd % 2 == 0 else ["new", "old"]
            for which in order:
                b = a.old if which == "old" else a.new
                if kind == "model":
                    arch, dt, bs, it = spec
                    out = run(b, "model", dirs[arch], dt, bs, it)
                elif kind == "gemm_ep":
                    _, M, N, K, ep, act = spec
                    env = dict(os.environ, VIT_EP=str(ep), **({"VIT_ACT": str(act)} if act is not None else {}))
                    out = run(b, "gemm", M, N, K, 20, env=env)
                else:
                    env = dict(os.environ, VIT_DTYPE="f32") if kind == "gemm_f32" else None
                    out = run(b, "gemm", *spec, 20 if kind == "gemm" else 5, env=env)
                if "error" in out:
                    print(kind, spec, which, "error:", out["error"], flush=True)
                    continue
                t[which].append(out["ms"])
        row = {"kind": kind, "spec": spec, "old_ms": statistics.median(t["old"]) if t["old"] else None,
               "new_ms": statistics.median(t["new"]) if t["new"] else None}
        if row["old_ms"] and row["new_ms"]:
            row["new_over_old"] = row["new_ms"] / row["old_ms"]
        results.append(row)
        print(json.dumps(row), flush=True)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)
    print("\n| row | old ms | new ms | new / old |\n|---|---|---|---|")
    worst = 0.0
    for r in results:
        spec = r["spec"]
        if r["kind"] == "model":
            name = f"{spec[0]} {spec[1]} bs {spec[2]}"
        elif r["kind"] == "gemm_ep":
            name = f"gemm {spec[0]} ({spec[1]}x{spec[2]}x{spec[3]})"
        else:
            name = f"{r['kind']} {spec[0]}x{spec[1]}x{spec[2]}"
        ratio = r.get("new_over_old")
        worst = max(worst, ratio or 0)
        print(f"| {name} | {r['old_ms'] or float('nan'):.4f} | {r['new_ms'] or float('nan'):.4f} | {ratio or float('nan'):.3f} |")
    print(f"\nworst new / old: {worst:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
