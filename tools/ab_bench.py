#!/usr/bin/env python3
"""A/B timing of two vit_bench binaries (say, before and after a change) on the
rows of `make bench`, in one run on one GPU: the same random-init timm models
(saved with save_for_hf), each row timed by both binaries in alternating order,
ROUNDS times; prints the median per binary and new / old (> 1: new is slower).

usage: python3 tools/ab_bench.py OLD_BIN NEW_BIN [--rounds 3] [--json OUT.json]
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
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="vit_ab_")
    dirs = {}
    for arch in sorted({r[0] for r in ROWS}):
        torch.manual_seed(0)
        d = os.path.join(tmp, arch)
        save_for_hf(timm.create_model(arch, pretrained=False).eval(), d, safe_serialization=True)
        dirs[arch] = d
    results = []
    jobs = [("model", r) for r in ROWS] + [("gemm", g) for g in GEMMS] + [("gemm_f32", g) for g in GEMMS[:2]]
    for kind, spec in jobs:
        t = {"old": [], "new": []}
        for rnd in range(a.rounds):
            order = ["old", "new"] if rnd % 2 == 0 else ["new", "old"]
            for which in order:
                b = a.old if which == "old" else a.new
                if kind == "model":
                    arch, dt, bs, it = spec
                    out = run(b, "model", dirs[arch], dt, bs, it)
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
        name = (f"{spec[0]} {spec[1]} bs {spec[2]}" if r["kind"] == "model" else f"{r['kind']} {spec[0]}x{spec[1]}x{spec[2]}")
        ratio = r.get("new_over_old")
        worst = max(worst, ratio or 0)
        print(f"| {name} | {r['old_ms'] or float('nan'):.4f} | {r['new_ms'] or float('nan'):.4f} | {ratio or float('nan'):.3f} |")
    print(f"\nworst new / old: {worst:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
