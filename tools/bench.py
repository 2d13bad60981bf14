#!/usr/bin/env python3
"""Benchmark vit.h against PyTorch (timm eager, torch.compile) on one GPU.

Everything runs in one process tree on the same weights: each timm model is
created with random weights, saved with save_for_hf, timed in PyTorch (eager
fp32 with TF32 off, eager bf16, torch.compile bf16) and then timed in vit.h by
the benchmark binary (build/vit_bench, run as a subprocess) from the saved
file. Times are medians of CUDA-event timings after warm-up, inputs resident on
the GPU for both. Also: the bf16 GEMM ceiling (torch.matmul 8192^3), vit.h's GEMM
against torch (cuBLAS) on the ViT-B/16 GEMM shapes at batch 256, and device
memory. Writes a markdown report: the part of --out above the line REPORT_END
(below) is replaced, the hand-written notes after that line are kept; the raw
results go to the .json beside it.

--families (its own device call: the ViT rows alone fill a 10-minute call)
times the real-size model families vit.h loads instead, bf16 at batch 64 and 1:
ViT-B/16 @384 (plain timm), DINOv2-S/14 reg4 @518, CLIP ViT-B/32 @224, CLIP ViT-L/14 @336, SigLIP B/16 @384,
DeiT-B distilled @224, each built random-init by tools/make_gpu_reference.py's
family_model and saved by save_family to a temporary directory; PyTorch eager bf16
and torch.compile (default mode) of that same model against vit_bench on the saved
files. Its table goes between the FAMILIES_BEGIN / FAMILIES_END lines inside the
generated part of --out (the rest of the file is kept; a run without --families
keeps the block it finds), its raw results to <out>-families.json.

usage: python3 tools/bench.py --bin build/vit_bench --out BENCHMARKS.md [--deadline 420] [--commit C]
       python3 tools/bench.py --bin build/vit_bench --families --out BENCHMARKS.md [--deadline 420]
       python3 tools/bench.py --bin build/vit_bench --max-autotune --out F.md
           (only ViT-B/16 bf16 batch 256: torch.compile max-autotune-no-cudagraphs,
           whose compile takes minutes, against eager bf16 and vit.h in the same run)
"""

import argparse
import copy
import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import torch
import torch.nn.functional as F

os.environ.setdefault("HF_HUB_OFFLINE", "1")
import timm  # noqa: E402
from timm.models._hub import save_for_hf  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_attention  # noqa: E402  (tools/bench_attention.py: the attention table)

T0 = time.time()
GEMM_NAMES = {1: "fma", 2: "mma.sync", 3: "mma.sync (scalar loads)", 4: "wgmma 128x128", 5: "wgmma 128x256",
              6: "wgmma ping-pong 128x128", 7: "wgmma 128x64", 8: "wgmma ping-pong 128x192"}


def log(*a):
    print(f"[{time.time() - T0:6.1f}s]", *a, flush=True)


def cuda_time(fn, iters, warm=3):
    for _ in range(warm):
        fn()
    torch.cuda.synchronize()
    ts = []
    for _ in range(iters):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        fn()
        e.record()
        e.synchronize()
        ts.append(s.elapsed_time(e))
    return statistics.median(ts)


RESIDUAL_BF16 = {"VIT_RESIDUAL": "bf16"}  # vit_bench: vit_options.residual_dtype = VIT_DTYPE_BF16
RESIDUAL_F32 = {"VIT_RESIDUAL": "f32"}  # VIT_DTYPE_F32: fp8's residual stream in fp32 (its default is bf16)


def vit_bench(binary, *args, env=None):
    r = subprocess.run([binary, *map(str, args)], capture_output=True, text=True, timeout=300,
                       env={**os.environ, **env} if env else None)
    line = (r.stdout.strip().splitlines() or ["{}"])[-1]
    try:
        out = json.loads(line)
    except json.JSONDecodeError:
        out = {"error": line + r.stderr[-300:]}
    if "error" in out:
        log("vit_bench", *args, "->", out["error"])
    return out


def model_flops(m, n_img=1):
    c, depth, mlp = m.embed_dim, len(m.blocks), m.blocks[0].mlp.fc1.out_features
    n = m.patch_embed.num_patches + m.num_prefix_tokens
    p = m.patch_embed.patch_size[0]
    k = m.num_classes
    per_block = 2 * n * (c * 3 * c + c * c + 2 * c * mlp) + 2 * 2 * n * n * c
    return n_img * (depth * per_block + 2 * m.patch_embed.num_patches * 3 * p * p * c + 2 * c * k)


def iters_for(ms_guess):
    return max(5, min(50, int(1500 / max(ms_guess, 0.05))))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default="build/vit_bench")
    ap.add_argument("--out", default="BENCHMARKS.md")
    ap.add_argument("--deadline", type=float, default=420.0, help="seconds; optional items are skipped after it")
    ap.add_argument("--command", default=None, help="the command named in the report (default: the make target)")
    ap.add_argument("--commit", default=None, help="commit vit_bench was built from (default: HEAD here, -dirty if its sources differ)")
    ap.add_argument("--max-autotune", action="store_true", help="only the max-autotune comparison (see usage)")
    ap.add_argument("--families", action="store_true", help="only the real-size model families (see usage)")
    args = ap.parse_args()
    if args.command is None:
        args.command = ("make bench-max-autotune" if args.max_autotune else
                        "make bench BENCH_ARGS=--families" if args.families else "make bench")
    if args.max_autotune:
        return max_autotune_only(args)
    args.date = datetime.date.today().isoformat()
    if args.commit is None:
        args.commit = git_commit()
    if args.families:
        return families_only(args)
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    dev = torch.cuda.get_device_name()
    log("device", dev, "torch", torch.__version__, "timm", timm.__version__)
    results = {"device": dev, "torch": torch.__version__, "timm": timm.__version__, "gemm": [], "models": []}

    # ---- bf16 GEMM ceiling
    a = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    ms = cuda_time(lambda: torch.matmul(a, b), 10)
    ceiling = 2 * 8192 ** 3 / (ms * 1e-3) / 1e12
    results["ceiling_tflops"] = ceiling
    results["max_autotune"] = {"error": "not reached"}
    log(f"bf16 matmul 8192^3: {ms:.3f} ms, {ceiling:.0f} TFLOP/s")
    del a, b

    # ---- GEMMs of ViT-B/16 at batch 256
    M = 256 * 197
    for k, n in [(768, 2304), (768, 768), (768, 3072), (3072, 768)]:
        x = torch.randn(M, k, device="cuda", dtype=torch.bfloat16)
        w = torch.randn(n, k, device="cuda", dtype=torch.bfloat16) * 0.05
        bias = torch.zeros(n, device="cuda", dtype=torch.bfloat16)
        tms = cuda_time(lambda: F.linear(x, w, bias), 20)
        ours = vit_bench(args.bin, "gemm", M, n, k, 20)
        row = {"M": M, "N": n, "K": k, "torch_ms": tms, "torch_tflops": 2 * M * n * k / (tms * 1e-3) / 1e12,
               "ours_ms": ours.get("ms"), "ours_tflops": ours.get("tflops"), "kernel": GEMM_NAMES.get(ours.get("kernel"), "?")}
        # e4m3: torch._scaled_mm with row-wise scales (per token, per output channel), bf16 out, as VIT_DTYPE_FP8's GEMMs
        try:
            x8, w8 = x.to(torch.float8_e4m3fn), w.to(torch.float8_e4m3fn)
            sa = torch.ones(M, 1, device="cuda", dtype=torch.float32)
            sb = torch.ones(1, n, device="cuda", dtype=torch.float32)
            t8 = cuda_time(lambda: torch._scaled_mm(x8, w8.t(), scale_a=sa, scale_b=sb, out_dtype=torch.bfloat16), 20)
            row["torch_fp8_ms"] = t8
            del x8, w8, sa, sb
        except Exception as e:  # noqa: BLE001
            log("torch._scaled_mm:", str(e)[:200])
        row["ours_fp8_ms"] = vit_bench(args.bin, "gemm", M, n, k, 20, env={"VIT_DTYPE": "fp8"}).get("ms")
        # the variants VIT_DTYPE_FP8's forward pass runs: fc1 rounds its (bias, GELU) outputs to
        # e4m3 in its epilogue; fc2 adds into the residual (fp32 here; its input scaled per row)
        variant = {(768, 3072): dict(VIT_E4M3="out", VIT_EP="1"), (3072, 768): dict(VIT_EP="2")}.get((k, n))
        if variant:
            row["ours_fp8_fwd_ms"] = vit_bench(args.bin, "gemm", M, n, k, 20, env=dict(variant, VIT_DTYPE="fp8")).get("ms")
        results["gemm"].append(row)
        log("gemm", row)
        del x, w, bias

    # ---- attention alone: vit.h's kernels beside SDPA (tools/bench_attention.py)
    results["attention"] = []
    for B, N, H, D, what in bench_attention.SHAPES:
        row = bench_attention.measure(args.bin, B, N, H, D, what)
        results["attention"].append(row)
        log("attention", row)

    # ---- models
    # most important first: rows are skipped once the deadline has passed
    plan = [("vit_base_patch16_224", [256, 1]), ("vit_tiny_patch16_224", [256]), ("vit_small_patch16_224", [256]),
            ("vit_large_patch16_224", [256]), ("vit_base_patch16_224", [8, 64])]
    tmp = tempfile.mkdtemp(prefix="vit_bench_")
    for arch, batches in plan:
        if time.time() - T0 > args.deadline:
            log("deadline: skipping", arch)
            continue
        torch.manual_seed(0)
        model = timm.create_model(arch, pretrained=False).eval()
        d = os.path.join(tmp, arch)
        if not os.path.isdir(d):
            save_for_hf(model, d, safe_serialization=True)
        flops = model_flops(model)
        m32 = model.cuda()
        mbf = copy.deepcopy(m32).bfloat16()
        for bs in batches:
            if time.time() - T0 > args.deadline:
                log("deadline: skipping", arch, bs)
                continue
            row = {"model": arch, "batch": bs, "gflop_per_img": flops / 1e9}
            x32 = torch.randn(bs, 3, 224, 224, device="cuda")
            xbf = x32.bfloat16()
            with torch.no_grad():
                guess = flops * bs / 40e12 * 1e3
                row["eager_f32_ms"] = cuda_time(lambda: m32(x32), iters_for(guess))
                torch.cuda.reset_peak_memory_stats()
                row["eager_bf16_ms"] = cuda_time(lambda: mbf(xbf), iters_for(guess / 6))
                row["eager_bf16_mem"] = torch.cuda.max_memory_allocated()
                mode = "reduce-overhead" if bs == 1 else "default"
                t = time.time()
                cm = torch.compile(mbf, mode=mode, dynamic=False)
                cm(xbf)
                cm(xbf)
                torch.cuda.synchronize()
                row["compile_s"] = time.time() - t
                torch.cuda.reset_peak_memory_stats()
                row["compile_bf16_ms"] = cuda_time(lambda: cm(xbf), iters_for(guess / 8))
                row["compile_bf16_mem"] = torch.cuda.max_memory_allocated()
                row["compile_mode"] = mode
                del cm
            torch._dynamo.reset()
            ours = vit_bench(args.bin, "model", d, "bf16", bs, iters_for(guess / 8))
            row["ours_bf16_ms"] = ours.get("ms")
            row["ours_bf16_mem"] = ours.get("mem_bytes")
            row["ours_host_api_ms"] = ours.get("host_api_ms")
            ours32 = vit_bench(args.bin, "model", d, "f32", bs, iters_for(guess))
            row["ours_f32_ms"] = ours32.get("ms")
            row["ours_fp8_ms"] = vit_bench(args.bin, "model", d, "fp8", bs, iters_for(guess / 12)).get("ms")
            if bs >= 64:  # the other residual stream, large batches: bf16 for bf16 (as PyTorch's bf16 models keep it), fp32 for fp8
                row["ours_bf16r_ms"] = vit_bench(args.bin, "model", d, "bf16", bs, iters_for(guess / 8), env=RESIDUAL_BF16).get("ms")
                row["ours_fp8_f32r_ms"] = vit_bench(args.bin, "model", d, "fp8", bs, iters_for(guess / 12), env=RESIDUAL_F32).get("ms")
            results["models"].append(row)
            log(json.dumps(row))
            write_report(results, args, quiet=True)  # a cut-off run still leaves a report
            del x32, xbf
        del m32, mbf, model
        torch.cuda.empty_cache()

    # ---- optional: max-autotune for ViT-B/16 at batch 256, if time is left
    if time.time() - T0 < args.deadline - 60:
        try:
            torch.manual_seed(0)
            model = timm.create_model("vit_base_patch16_224", pretrained=False).eval().cuda().bfloat16()
            xbf = torch.randn(256, 3, 224, 224, device="cuda").bfloat16()
            t = time.time()
            with torch.no_grad():
                cm = torch.compile(model, mode="max-autotune-no-cudagraphs", dynamic=False)
                cm(xbf)
                torch.cuda.synchronize()
                cs = time.time() - t
                ms = cuda_time(lambda: cm(xbf), 20)
            results["max_autotune"] = {"ms": ms, "compile_s": cs}
            log("max-autotune-no-cudagraphs ViT-B/16 bs 256:", ms, "ms, compile", cs, "s")
        except Exception as e:  # noqa: BLE001
            results["max_autotune"] = {"error": str(e)[:200]}
    else:
        results["max_autotune"] = {"error": "skipped: not enough time left in the 10-minute call"}

    with open(os.path.splitext(args.out)[0] + ".json", "w") as f:
        json.dump(results, f, indent=1)
    write_report(results, args)
    log("done")


def max_autotune_only(args):
    dev = torch.cuda.get_device_name()
    log("device", dev, "torch", torch.__version__, "timm", timm.__version__)
    torch.manual_seed(0)
    model = timm.create_model("vit_base_patch16_224", pretrained=False).eval()
    d = os.path.join(tempfile.mkdtemp(prefix="vit_bench_"), "vit_base_patch16_224")
    save_for_hf(model, d, safe_serialization=True)
    model = model.cuda().bfloat16()
    xbf = torch.randn(256, 3, 224, 224, device="cuda").bfloat16()
    r = {"device": dev, "torch": torch.__version__}
    with torch.no_grad():
        r["eager_ms"] = cuda_time(lambda: model(xbf), 20)
        t = time.time()
        cm = torch.compile(model, mode="max-autotune-no-cudagraphs", dynamic=False)
        cm(xbf)
        torch.cuda.synchronize()
        r["compile_s"] = time.time() - t
        r["max_autotune_ms"] = cuda_time(lambda: cm(xbf), 20)
    del cm
    torch.cuda.empty_cache()
    r["ours_ms"] = vit_bench(args.bin, "model", d, "bf16", 256, 20).get("ms")
    r["ours_r_ms"] = vit_bench(args.bin, "model", d, "bf16", 256, 20, env=RESIDUAL_BF16).get("ms")
    # the fp8 target is against this same max-autotune bf16 figure
    r["ours_fp8_ms"] = vit_bench(args.bin, "model", d, "fp8", 256, 20).get("ms")
    r["ours_fp8_f32r_ms"] = vit_bench(args.bin, "model", d, "fp8", 256, 20, env=RESIDUAL_F32).get("ms")
    log(json.dumps(r))
    ips = lambda ms: 256 / (ms * 1e-3)  # noqa: E731
    txt = (f"ViT-B/16 bf16 batch 256, {dev}, torch {r['torch']}, same run (`{args.command}`): "
           f"timm eager bf16 {ips(r['eager_ms']):,.0f} img/s ({r['eager_ms']:.2f} ms); "
           f"torch.compile max-autotune-no-cudagraphs {ips(r['max_autotune_ms']):,.0f} img/s ({r['max_autotune_ms']:.2f} ms, "
           f"compiled in {r['compile_s']:.0f} s); vit.h {ips(r['ours_ms']):,.0f} img/s ({r['ours_ms']:.2f} ms); "
           f"vit.h / max-autotune = {r['max_autotune_ms'] / r['ours_ms']:.2f}x; with the residual stream in bf16 "
           f"{ips(r['ours_r_ms']):,.0f} img/s ({r['ours_r_ms']:.2f} ms), {r['max_autotune_ms'] / r['ours_r_ms']:.2f}x. "
           f"vit.h fp8 (VIT_DTYPE_FP8, its residual stream in bf16) {ips(r['ours_fp8_ms']):,.0f} img/s ({r['ours_fp8_ms']:.2f} ms), "
           f"{r['max_autotune_ms'] / r['ours_fp8_ms']:.2f}x the bf16 max-autotune; with the residual stream in fp32 "
           f"{ips(r['ours_fp8_f32r_ms']):,.0f} img/s ({r['ours_fp8_f32r_ms']:.2f} ms), {r['max_autotune_ms'] / r['ours_fp8_f32r_ms']:.2f}x.\n")
    with open(args.out, "w") as f:
        f.write(txt)
    print(txt)


# ---- the real-size model families (--families)

# (label, family in tools/make_gpu_reference.py, family_model keyword arguments, what the row times)
FAMILY_PLAN = [
    ("ViT-B/16 @384", "timm:vit_base_patch16_384", {}, "timm vit_base_patch16_384 (timm's random init, 1000 classes)"),
    ("DINOv2-S/14 reg4 @518", "dinov2_s14_reg4", dict(num_classes=1000),
     "timm vit_small_patch14_reg4_dinov2 + a 1000-class head on the class token"),
    ("CLIP ViT-B/32 @224", "clip_b32", {}, "HF CLIPVisionModelWithProjection, image_embeds (512)"),
    ("CLIP ViT-L/14 @336", "clip_l14", {}, "HF CLIPVisionModelWithProjection, image_embeds (768)"),
    ("SigLIP B/16 @384", "siglip_b16", dict(lib="timm", num_classes=1000),
     "timm vit_base_patch16_siglip_384 (MAP head) + a 1000-class head"),
    ("DeiT-B distilled @224", "deit_b16_dist", {}, "timm deit_base_distilled_patch16_224, mean of the two heads"),
]
FAMILY_BATCHES = [64, 1]
FAMILY_COMPILE_MODE = "default"
FAMILIES_BEGIN = "<!-- families: begin (tools/bench.py --families; kept by runs without it) -->"
FAMILIES_END = "<!-- families: end -->"


def family_flops(model, n_img=1):
    """Forward FLOPs (multiply-adds x 2) of the matmuls of a timm or HF family model."""
    if getattr(model, "vit_lib", "timm") == "timm":
        f = model_flops(model, n_img)
        if getattr(model, "head_dist", None) is not None:
            f += n_img * 2 * model.embed_dim * model.num_classes
        pool = getattr(model, "attn_pool", None)
        if pool is not None:   # MAP: k/v of every token, then one query's attention and MLP
            c, n = model.embed_dim, model.patch_embed.num_patches
            f += n_img * (2 * n * c * 2 * c + 2 * 2 * n * c + 2 * (2 * c * c + 2 * c * pool.mlp.fc1.out_features))
        return f
    c = model.config
    c, depth, mlp, p, img = c.hidden_size, c.num_hidden_layers, c.intermediate_size, c.patch_size, c.image_size
    np_ = (img // p) ** 2
    n = np_ + (1 if model.vit_lib == "hf_clip" else 0)
    per_block = 2 * n * (4 * c * c + 2 * c * mlp) + 2 * 2 * n * n * c
    f = depth * per_block + 2 * np_ * 3 * p * p * c
    if model.vit_lib == "hf_clip":
        f += 2 * c * model.config.projection_dim
    else:
        f += 2 * np_ * c * 2 * c + 2 * 2 * np_ * c + 2 * (2 * c * c + 2 * c * mlp)
    return n_img * f


class _Embeds(torch.nn.Module):
    """HF CLIPVisionModelWithProjection as x -> image_embeds (what vit.h's vit_forward returns)."""

    def __init__(self, m):
        super().__init__()
        self.m = m

    def forward(self, x):
        return self.m(pixel_values=x).image_embeds


def families_only(args):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from make_gpu_reference import family_model, save_family

    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    dev = torch.cuda.get_device_name()
    import transformers
    log("device", dev, "torch", torch.__version__, "timm", timm.__version__, "transformers", transformers.__version__)
    r = {"device": dev, "torch": torch.__version__, "timm": timm.__version__, "transformers": transformers.__version__,
         "date": args.date, "commit": args.commit, "command": args.command, "models": []}
    a = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    ms = cuda_time(lambda: torch.matmul(a, b), 10)
    r["ceiling_tflops"] = 2 * 8192 ** 3 / (ms * 1e-3) / 1e12
    log(f"bf16 matmul 8192^3: {ms:.3f} ms, {r['ceiling_tflops']:.0f} TFLOP/s")
    del a, b
    tmp = tempfile.mkdtemp(prefix="vit_bench_families_")
    for label, key, kw, what in FAMILY_PLAN:
        if time.time() - T0 > args.deadline:
            log("deadline: skipping", label)
            continue
        t = time.time()
        d = os.path.join(tmp, key.replace(":", "_"))
        if key.startswith("timm:"):  # a plain timm ViT (not one of make_gpu_reference's families)
            torch.manual_seed(0)
            model = timm.create_model(key[5:], pretrained=False, **kw).eval()
            model.vit_lib = "timm"
            save_for_hf(model, d, safe_serialization=True)
        else:
            model = family_model(key, **kw)
            save_family(model, key, d)
        size = model.patch_embed.img_size[0] if model.vit_lib == "timm" else model.config.image_size
        flops = family_flops(model)
        log(f"{label}: built and saved in {time.time() - t:.1f} s ({flops / 1e9:.1f} GFLOP/img)")
        mbf = model.cuda().bfloat16()
        fwd = mbf if model.vit_lib == "timm" else _Embeds(mbf)
        for bs in FAMILY_BATCHES:
            if time.time() - T0 > args.deadline:
                log("deadline: skipping", label, bs)
                continue
            row = {"model": label, "family": key, "what": what, "batch": bs, "image": size,
                   "gflop_per_img": flops / 1e9, "eager_f32_ms": None, "ours_f32_ms": None,
                   "compile_mode": FAMILY_COMPILE_MODE}
            xbf = torch.randn(bs, 3, size, size, device="cuda").bfloat16()
            guess = flops * bs / 300e12 * 1e3
            with torch.no_grad():
                try:
                    torch.cuda.reset_peak_memory_stats()
                    row["eager_bf16_ms"] = cuda_time(lambda: fwd(xbf), iters_for(guess))
                    row["eager_bf16_mem"] = torch.cuda.max_memory_allocated()
                except Exception as e:  # noqa: BLE001
                    row["eager_error"] = str(e)[:200]
                    log(label, bs, "eager:", row["eager_error"])
                try:
                    t = time.time()
                    cm = torch.compile(fwd, mode=FAMILY_COMPILE_MODE, dynamic=False)
                    cm(xbf)
                    cm(xbf)
                    torch.cuda.synchronize()
                    row["compile_s"] = time.time() - t
                    torch.cuda.reset_peak_memory_stats()
                    row["compile_bf16_ms"] = cuda_time(lambda: cm(xbf), iters_for(guess))
                    row["compile_bf16_mem"] = torch.cuda.max_memory_allocated()
                    del cm
                except Exception as e:  # noqa: BLE001
                    row["compile_error"] = str(e)[:200]
                    log(label, bs, "torch.compile:", row["compile_error"])
            torch._dynamo.reset()
            ours = vit_bench(args.bin, "model", d, "bf16", bs, iters_for(guess))
            row["ours_bf16_ms"] = ours.get("ms")
            row["ours_bf16_mem"] = ours.get("mem_bytes")
            row["ours_host_api_ms"] = ours.get("host_api_ms")
            if "error" in ours:
                row["ours_error"] = str(ours["error"])[:200]
            if bs >= 64:
                row["ours_bf16r_ms"] = vit_bench(args.bin, "model", d, "bf16", bs, iters_for(guess), env=RESIDUAL_BF16).get("ms")
            r["models"].append(row)
            log(json.dumps(row))
            write_families_report(r, args, quiet=True)  # a cut-off run still leaves a report
            del xbf
        del mbf, fwd, model
        torch.cuda.empty_cache()
    with open(os.path.splitext(args.out)[0] + "-families.json", "w") as f:
        json.dump(r, f, indent=1)
    write_families_report(r, args)
    log("done")


def families_text(r):
    """The families block, FAMILIES_BEGIN ... FAMILIES_END."""
    ceil = r["ceiling_tflops"]
    L = [FAMILIES_BEGIN, "## vit.h vs PyTorch on the model families (real sizes, random weights)\n"]
    L.append(f"Date: {r['date']}. Device: {r['device']}. Commit: {r['commit']}. torch {r['torch']}, timm {r['timm']}, "
             f"transformers {r['transformers']}. Command: `{r['command']}` (a device call of its own).\n")
    L.append("As the table above, bf16 only (fp32 columns not run): PyTorch eager bf16 and torch.compile "
             f"(mode '{FAMILY_COMPILE_MODE}', no CUDA graphs, also at batch 1) of the model that vit.h runs from "
             "the saved file, in the same run. "
             + "; ".join(f"{label}: {what}" for label, _, _, what in FAMILY_PLAN) + ".\n")
    L += model_table("PyTorch", r["models"], ceil)
    L.append("")
    errs = [f"{m['model']} bs {m['batch']} {k[:-6]}: {m[k]}" for m in r["models"]
            for k in ("eager_error", "compile_error", "ours_error") if m.get(k)]
    if errs:
        L.append("Failed: " + "; ".join(errs) + ".\n")
    done = {m["family"] for m in r["models"]}
    skipped = [label for label, key, _, _ in FAMILY_PLAN if key not in done]
    if skipped:
        L.append("Not reached before the deadline: " + ", ".join(skipped) + ".\n")
    L.append("vit.h host API, for reference: " + ", ".join(
        f"{m['model']} bs {m['batch']}: {fmt(m.get('ours_host_api_ms'), '.3f')} ms" for m in r["models"]) + ".\n")
    L.append(FAMILIES_END)
    return "\n".join(L) + "\n"


def families_block(text):
    """The families block in text (markers included, with its newline), or ""."""
    if text is None:
        return ""
    i = text.find(FAMILIES_BEGIN)
    j = text.find(FAMILIES_END, i + 1) if i >= 0 else -1
    if i < 0 or j < 0:
        return ""
    j += len(FAMILIES_END)
    return text[i:j] + ("\n" if text[j:j + 1] == "\n" else "\n")


def with_families(report, block):
    """report (ending with REPORT_END) with block put just before REPORT_END (after a blank line)."""
    if not block:
        return report
    at = report.rfind(REPORT_END)
    return report[:at] + block + "\n" + report[at:]


def write_families_report(r, args, quiet=False):
    block = families_text(r)
    try:
        with open(args.out) as f:
            old = f.read()
    except FileNotFoundError:
        old = None
    if old is None:
        new = "# Benchmarks\n\n" + block + "\n" + REPORT_END + "\n"
    elif families_block(old):
        ob = families_block(old)
        i = old.find(ob)
        new = old[:i] + block + old[i + len(ob):]
    elif REPORT_END in old:
        at = old.find(REPORT_END)
        new = old[:at] + block + "\n" + old[at:]
    else:   # no generated part: the old contents stay below it as hand-written notes
        new = block + "\n" + REPORT_END + "\n" + old
    tmp = args.out + ".tmp"
    with open(tmp, "w") as f:
        f.write(new)
    os.replace(tmp, args.out)
    if not quiet:
        print(block)


def fmt(v, spec=".2f"):
    return "-" if v is None else format(v, spec)


def mib(v):
    return fmt(v / 2**20 if v else None, ",.0f")


def late(args, what):
    """True (and says so) once args.deadline seconds have passed since the start."""
    if time.time() - T0 > args.deadline:
        log("deadline: skipping", what)
        return True
    return False


def paired_args(ap, name, deadlines, reps):
    """The command line of bench_features.py and bench_text.py (name: "features", "text"),
    after the caller's own arguments (--cpu among them): parses it and fills the defaults
    that depend on --cpu and --dry-run. deadlines: (GPU, --cpu) seconds; reps: --cpu's default."""
    ap.add_argument("--bin", default=None, help="build/vit_bench (GPU) or build/bench_cpu (--cpu)")
    ap.add_argument("--out", default=None, help=f"markdown report (default bench-{name}.md, --cpu: bench-{name}-cpu.md)")
    ap.add_argument("--deadline", type=float, default=None,
                    help=f"seconds; items are skipped after it (default {deadlines[0]:g}, --cpu {deadlines[1]:g})")
    ap.add_argument("--rounds", type=int, default=5, help="--cpu: interleaved rounds")
    ap.add_argument("--reps", type=int, default=reps, help="--cpu: timed calls per engine and round")
    ap.add_argument("--threads", type=int, default=os.cpu_count(), help="--cpu: threads for both")
    ap.add_argument("--dry-run", action="store_true", help="the GPU script's PyTorch side on the CPU with small stand-ins")
    ap.add_argument("--command", default=None, help="the command named in the report (default: the make target)")
    ap.add_argument("--commit", default=None, help="commit the binaries were built from (default: HEAD here, -dirty if changed)")
    args = ap.parse_args()
    if args.deadline is None:
        args.deadline = float(deadlines[1] if args.cpu else deadlines[0])
    if args.bin is None:
        args.bin = "build/bench_cpu" if args.cpu else "build/vit_bench"
    if args.out is None:
        args.out = f"bench-{name}-cpu.md" if args.cpu else f"bench-{name}-dry-run.md" if args.dry_run else f"bench-{name}.md"
    if args.command is None:
        args.command = (f"make bench-{name}-cpu" if args.cpu else
                        f"python3 tools/bench_{name}.py --dry-run" if args.dry_run else f"make bench-{name}")
    if args.commit is None:
        args.commit = git_commit()
    return args


def write_text_report(r, args, text, quiet=False):
    """text to args.out and the raw results r to the .json beside it (bench_features.py,
    bench_text.py), each replaced in one step: a run cut off mid-write leaves the old file whole."""
    for path, data in ((args.out, text), (os.path.splitext(args.out)[0] + ".json", json.dumps(r, indent=1))):
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            f.write(data)
        os.replace(tmp, path)
    if not quiet:
        print(text)


# The generated report ends with this line; what follows it in --out (the
# method, per-kernel notes, CPU figures) is written by hand and kept.
REPORT_END = "<!-- end of generated report: hand-written notes below are kept by tools/bench.py -->"


def git_commit():
    """HEAD of this checkout, "-dirty" if the sources vit_bench is built from differ from it."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    try:
        r = subprocess.run(["git", "rev-parse", "--short=7", "HEAD"], capture_output=True, text=True, timeout=10, cwd=root)
        if r.returncode or not r.stdout.strip():
            return "unknown"
        d = subprocess.run(["git", "diff", "--quiet", "HEAD", "--", "vit.h", "vit_kernels.cuh", "tools/vit_bench.cu"],
                           capture_output=True, timeout=10, cwd=root)
        return r.stdout.strip() + ("-dirty" if d.returncode else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def model_table(eager, models, ceil):
    """The models table (the report's and the families'): its header, eager naming the eager columns' library,
    then a row per model row of a run (None / missing figures print "-")."""
    L = [f"| model | batch | {eager} eager fp32 | {eager} eager bf16 | torch.compile bf16 | vit.h bf16 | vit.h fp32 | vit.h fp8 | "
         "vit.h bf16, bf16 residual | vit.h fp8, fp32 residual | ratio bf16 | ratio fp8 | ratio bf16, bf16 residual | "
         "ratio fp8, fp32 residual | vit.h fp32 / eager fp32 | vit.h bf16 TFLOP/s (% of ceiling) | peak mem vit.h / torch.compile |",
         "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for m in models:
        bs = m["batch"]

        def ips(ms):
            return None if not ms else bs / (ms * 1e-3)

        def cell(ms):
            return "-" if not ms else f"{ips(ms):,.0f} img/s ({ms:.3f} ms)"
        peers = [x for x in (m.get("eager_bf16_ms"), m.get("compile_bf16_ms")) if x]
        best = min(peers) if peers else None
        ratio = best / m["ours_bf16_ms"] if best and m.get("ours_bf16_ms") else None
        r32 = m["eager_f32_ms"] / m["ours_f32_ms"] if m.get("eager_f32_ms") and m.get("ours_f32_ms") else None
        tf = m["gflop_per_img"] * 1e9 * bs / (m["ours_bf16_ms"] * 1e-3) / 1e12 if m.get("ours_bf16_ms") else None
        cmem = m.get("compile_bf16_mem")
        omem = m.get("ours_bf16_mem")
        mem = f"{fmt(omem / 2**20 if omem else None, ',.0f')} / {fmt(cmem / 2**20 if cmem else None, ',.0f')} MiB"
        def vs(key):  # best PyTorch bf16 / vit.h
            return f"{fmt(best / m[key] if best and m.get(key) else None)}x"
        L.append(f"| {m['model']} | {bs} | {cell(m.get('eager_f32_ms'))} | {cell(m.get('eager_bf16_ms'))} | "
                 f"{cell(m.get('compile_bf16_ms'))} [{m.get('compile_mode', '-')}] | {cell(m.get('ours_bf16_ms'))} | "
                 f"{cell(m.get('ours_f32_ms'))} | {cell(m.get('ours_fp8_ms'))} | {cell(m.get('ours_bf16r_ms'))} | "
                 f"{cell(m.get('ours_fp8_f32r_ms'))} | {fmt(ratio)}x | {vs('ours_fp8_ms')} | {vs('ours_bf16r_ms')} | {vs('ours_fp8_f32r_ms')} | {fmt(r32)}x | "
                 f"{fmt(tf, '.0f')} ({fmt(tf / ceil * 100 if tf else None, '.0f')}%) | {mem} |")
    return L


def report_text(r, args):
    """The generated part of the report, ending with REPORT_END."""
    ceil = r["ceiling_tflops"]
    L = []
    L.append("# Benchmarks\n")
    L.append(f"Date: {args.date}. Device: {r['device']}. Commit: {args.commit}. torch {r['torch']}, timm {r['timm']}. "
             f"Command: `{args.command}`.\n")
    L.append("This part is written by tools/bench.py from one run: every PyTorch figure comes from the same run as the "
             "vit.h figure beside it. How the numbers are taken: [Method](#method); why each kernel is as it is: "
             "[Per-kernel notes](#per-kernel-notes).\n")
    L.append("## vit.h vs timm eager and torch.compile\n")
    L.append("img/s (ms per batch). torch.compile runs in bf16 in the mode in brackets. ratio bf16 = vit.h bf16 img/s / "
             f"the best PyTorch bf16 img/s (each ratio against that same figure). bf16 GEMM ceiling (torch.matmul 8192^3): {ceil:.0f} TFLOP/s. "
             "'bf16 residual': vit_options.residual_dtype = VIT_DTYPE_BF16, the residual stream between the blocks rounded to bf16 "
             "as PyTorch's bf16 models keep it (default: fp32; fp8's default is bf16, and its 'fp32 residual' columns keep the stream "
             "in fp32: VIT_DTYPE_F32); run at batch 64 and up.\n")
    L += model_table("timm", r["models"], ceil)
    L.append("")
    ma = r.get("max_autotune", {})
    if "ms" in ma:
        L.append(f"torch.compile mode='max-autotune-no-cudagraphs', ViT-B/16 bf16 batch 256: "
                 f"{256 / (ma['ms'] * 1e-3):,.0f} img/s ({ma['ms']:.2f} ms), compiled in {ma['compile_s']:.0f} s.\n")
    else:
        L.append(f"torch.compile mode='max-autotune-no-cudagraphs': {ma.get('error', 'not run')}.\n")
    L.append("vit.h host API (vit_forward from host memory, pageable copies included), for reference: " + ", ".join(
        f"{m['model']} bs {m['batch']}: {fmt(m.get('ours_host_api_ms'), '.3f')} ms" for m in r["models"]) + ".\n")
    L.append("## GEMM: vit.h vs torch (cuBLAS), bf16, ViT-B/16 shapes at batch 256 (M = 256*197)\n")
    L.append("| M | N | K | torch ms | torch TFLOP/s | vit.h ms | vit.h TFLOP/s | vit.h / torch | vit.h kernel | "
             "torch._scaled_mm e4m3 TFLOP/s | vit.h e4m3 TFLOP/s | vit.h / _scaled_mm | vit.h e4m3 TFLOP/s, the forward's variant |")
    L.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for g in r["gemm"]:
        rel = g["torch_ms"] / g["ours_ms"] if g.get("ours_ms") else None
        fl = 2 * g["M"] * g["N"] * g["K"] / 1e12
        t8, o8 = g.get("torch_fp8_ms"), g.get("ours_fp8_ms")
        L.append(f"| {g['M']} | {g['N']} | {g['K']} | {g['torch_ms']:.3f} | {g['torch_tflops']:.0f} | {fmt(g.get('ours_ms'), '.3f')} | "
                 f"{fmt(g.get('ours_tflops'), '.0f')} | {fmt(rel)}x | {g['kernel']} | {fmt(fl / (t8 * 1e-3) if t8 else None, '.0f')} | "
                 f"{fmt(fl / (o8 * 1e-3) if o8 else None, '.0f')} | {fmt(t8 / o8 if t8 and o8 else None)}x | "
                 f"{fmt(fl / (g['ours_fp8_fwd_ms'] * 1e-3) if g.get('ours_fp8_fwd_ms') else None, '.0f')} |")
    L.append("")
    L.append("The e4m3 columns: plain GEMMs (bf16 out, no epilogue) with row-wise scales on both sides. The forward's variant "
             "(VIT_DTYPE_FP8's fc1 and fc2): fc1 = bias + GELU, its outputs rounded to e4m3 in the epilogue, each row divided by "
             "its power-of-two scale from a bound; fc2 = the residual add (fp32 here).\n")
    if r.get("attention"):
        L.append("## Attention: vit.h vs PyTorch SDPA, bf16 (self-attention over packed qkv)\n")
        L += bench_attention.table(r["attention"])
        L.append("")
    L.append("Peak memory: torch = torch.cuda.max_memory_allocated() over one timed call (weights included); "
             "vit.h = device memory the model holds after warm-up by cudaMemGetInfo (weights, activation arena "
             "for max_batch = batch, graph, module code).\n")
    L.append(REPORT_END)
    return "\n".join(L) + "\n"


def merge_report(report, old):
    """report (ending with REPORT_END) followed by what follows REPORT_END in old,
    the previous contents of the file; report alone if old is None or has no
    REPORT_END line."""
    if old is None:
        return report
    at = old.find(REPORT_END)
    if at < 0:
        return report
    tail = old[at + len(REPORT_END):]
    return report + (tail[1:] if tail.startswith("\n") else tail)


def write_report(r, args, quiet=False):
    report = report_text(r, args)
    try:
        with open(args.out) as f:
            old = f.read()
    except FileNotFoundError:
        old = None
    # the families block of an earlier --families run stays in the generated part
    if old is not None and REPORT_END in old:
        report = with_families(report, families_block(old[:old.find(REPORT_END)]))
    tmp = args.out + ".tmp"  # replaced in one step: a run cut off mid-write leaves the old file whole
    with open(tmp, "w") as f:
        f.write(merge_report(report, old))
    os.replace(tmp, args.out)
    if not quiet:
        print(report)


if __name__ == "__main__":
    sys.exit(main())
