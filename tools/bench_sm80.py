#!/usr/bin/env python3
"""vit.h's Ampere-class kernels (the sm_80 build: mma.sync, ldmatrix, cp.async)
against peers of the same instruction class, on a Hopper GPU, in one run.
tools/bench_sm80.sh builds the binaries and runs this.

  GEMMs      build/bench_cutlass_sm80 (tools/bench_cutlass_sm80.cu): vit.h's
             vit__linear_cuda against CUTLASS's sm80 bf16 tensor-op GEMM (best
             of its tile configurations), ViT-S/B/L linears at batch 1, 8, 64, 256.
  attention  `vit_bench attn` of the sm_80 build against PyTorch SDPA with the
             flash backend forced (FlashAttention-2, mma.sync), head size 64,
             N = 197, 577, 1370; q, k, v uniform in [-2, 2] on both sides.
  models     `vit_bench model` of the sm_80 build against timm/HF eager bf16 and
             torch.compile (Hopper's cuBLAS and Triton: a harder peer): ViT-B/16
             at batch 1, 8, 64, 256, DINOv2-S/14 reg4 @518 and CLIP ViT-L/14 @336
             at batch 64. The sm_90a build's figure beside it, for reference.

The models are built and torch.compile'd first, while the binaries build (no
timing then); every timing runs after the builds, with the CPU otherwise idle.

  python3 tools/bench_sm80.py --bin80 build/sm80/vit_bench80 [--bin90 build/sm80/vit_bench90a] \
      --gemm-bin build/sm80/bench_cutlass_sm80 --wait build/sm80 --out DIR [--parts gemm,attention,models]
"""
import argparse
import datetime
import json
import os
import subprocess
import sys
import time

import torch

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import timm  # noqa: E402
from timm.models._hub import save_for_hf  # noqa: E402
import bench_attention  # noqa: E402
from bench import cuda_time, vit_bench, model_flops, family_flops, iters_for, _Embeds  # noqa: E402

T0 = time.time()
ATTN = [  # (B, N, H, D, what)
    (1, 197, 12, 64, "ViT-B/16 @224, batch 1"),
    (64, 197, 12, 64, "ViT-B/16 @224, batch 64"),
    (256, 197, 12, 64, "ViT-B/16 @224, batch 256"),
    (64, 577, 12, 64, "ViT-B/16 @384, batch 64"),
    (64, 577, 16, 64, "CLIP ViT-L/14 @336, batch 64"),
    (64, 1370, 6, 64, "DINOv2-S/14 @518, batch 64"),
]
ATT_KERNELS = {11: "mma.sync stream", 12: "mma.sync full", 13: "mma.sync split keys", 14: "wgmma", 15: "mma.sync stream, 32 rows/warp", 16: "mma.sync full, 32 rows/warp"}  # vit_kernels.cuh VIT__K_ATT_*


def log(*a):
    print(f"[{time.time() - T0:6.1f}s]", *a, flush=True)


def fmt(v, spec=".3f"):
    return "-" if v is None or v < 0 else format(v, spec)


def build_models(tmp):
    """[(label, dir, fwd, size, flops/img, batches)]: random-init bf16 models on the GPU, saved for vit.h."""
    from make_gpu_reference import family_model, save_family
    out = []
    torch.manual_seed(0)
    m = timm.create_model("vit_base_patch16_224", pretrained=False).eval()
    d = os.path.join(tmp, "vit_base_patch16_224")
    save_for_hf(m, d, safe_serialization=True)
    out.append(("ViT-B/16 @224", d, m.cuda().bfloat16(), 224, model_flops(m), [1, 8, 64, 256]))
    for label, key, kw in (("DINOv2-S/14 reg4 @518", "dinov2_s14_reg4", dict(num_classes=1000)), ("CLIP ViT-L/14 @336", "clip_l14", {})):
        m = family_model(key, **kw)
        d = os.path.join(tmp, key)
        save_family(m, key, d)
        size = m.patch_embed.img_size[0] if m.vit_lib == "timm" else m.config.image_size
        fl = family_flops(m)
        mb = m.cuda().bfloat16()
        out.append((label, d, mb if m.vit_lib == "timm" else _Embeds(mb), size, fl, [64]))
    return out


def wait_builds(d, names, limit):
    """rc of each build (files d/NAME.rc written when it ends), waiting up to limit seconds."""
    t = time.time()
    while time.time() - t < limit:
        if all(os.path.exists(os.path.join(d, n + ".rc")) for n in names):
            break
        time.sleep(2)
    rc = {}
    for n in names:
        p = os.path.join(d, n + ".rc")
        rc[n] = int(open(p).read().strip() or 1) if os.path.exists(p) else None
    return rc


def sdpa_flash_kernels(B, N, H, D):
    """Names of the CUDA kernels SDPA runs with the flash backend forced (profiler)."""
    from torch.nn.attention import sdpa_kernel, SDPBackend
    import torch.nn.functional as F
    q = torch.randn(B, H, N, D, device="cuda", dtype=torch.bfloat16)
    with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
        F.scaled_dot_product_attention(q, q, q)
        torch.cuda.synchronize()
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as p:
            F.scaled_dot_product_attention(q, q, q)
            torch.cuda.synchronize()
    names = sorted({e.name for e in p.events() if e.device_type == torch.autograd.DeviceType.CUDA})
    return [n[:160] for n in names]


def run_attention(a):
    from torch.nn.attention import sdpa_kernel, SDPBackend
    rows = []
    try:
        kern = sdpa_flash_kernels(64, 197, 12, 64)
    except Exception as e:  # noqa: BLE001
        kern = [f"profiler failed: {str(e)[:100]}"]
    log("SDPA flash kernels:", kern)
    for B, N, H, D, what in ATTN:
        r = {"shape": what, "B": B, "N": N, "H": H, "D": D}
        try:
            with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
                r["flash_ms"] = bench_attention.sdpa_ms(B, N, H, D)
            r["sdpa_default_ms"] = bench_attention.sdpa_ms(B, N, H, D)
        except Exception as e:  # noqa: BLE001
            r["sdpa_error"] = str(e)[:200]
        env = {"VIT_ATTN_DATA": "2"}
        r["vit80"] = bench_attention.ours(a.bin80, B, N, H, D, env)
        # the other row count, forced: streamed (N > 256) with 16 query rows per warp, beside the policy's
        # 32; whole K/V (N <= 256) with 4 warps of 32 rows, beside the policy's 16
        other = {"VIT_ATTN_ROWS": "16"} if N > 256 else {"VIT_ATTN_FULL": "2", "VIT_ATTN_ROWS": "32"}
        r["vit80_other"] = bench_attention.ours(a.bin80, B, N, H, D, dict(env, **other))
        r["vit90"] = bench_attention.ours(a.bin90, B, N, H, D, env) if a.bin90 else {}
        rows.append(r)
        log("attention", json.dumps(r))
    return rows, kern


def run_gemm(a, out):
    rows, head = [], {}
    try:
        p = subprocess.run([a.gemm_bin, str(a.gemm_ms)], capture_output=True, text=True, timeout=a.gemm_timeout)
        text, err = p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        text, err = (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or ""), "timeout"
    with open(os.path.join(out, "gemm.jsonl"), "w") as f:
        f.write(text + ("\n# stderr: " + err[-2000:] if err else ""))
    for line in text.splitlines():
        try:
            j = json.loads(line)
        except ValueError:
            continue
        if "shape" in j:
            rows.append(j)
        elif "device" in j:
            head = j
        elif "failures" in j:
            head["failures"] = j["failures"]
    log(f"gemm: {len(rows)} shapes, header {head}, stderr {err[-300:]!r}")
    return rows, head


def run_models(a, models, compiled):
    rows = []
    with torch.no_grad():
        for label, d, fwd, size, fl, batches in models:
            for bs in batches:
                if time.time() - T0 > a.deadline:
                    log("deadline: skipping", label, bs)
                    continue
                x, cm, mode, cs = compiled.get((label, bs), (None, None, None, None))
                if x is None:
                    x = torch.randn(bs, 3, size, size, device="cuda").bfloat16()
                guess = fl * bs / 300e12 * 1e3
                r = {"model": label, "batch": bs, "gflop_per_img": fl / 1e9, "compile_mode": mode, "compile_s": cs}
                try:
                    r["eager_ms"] = cuda_time(lambda: fwd(x), iters_for(guess))
                except Exception as e:  # noqa: BLE001
                    r["eager_error"] = str(e)[:200]
                if cm is not None:
                    try:
                        r["compile_ms"] = cuda_time(lambda: cm(x), iters_for(guess))
                    except Exception as e:  # noqa: BLE001
                        r["compile_error"] = str(e)[:200]
                o = vit_bench(a.bin80, "model", d, "bf16", bs, iters_for(guess / 2))
                r["vit80_ms"], r["vit80_error"] = o.get("ms"), o.get("error")
                if a.bin90:
                    o = vit_bench(a.bin90, "model", d, "bf16", bs, iters_for(guess / 2))
                    r["vit90_ms"] = o.get("ms")
                rows.append(r)
                log("model", json.dumps(r))
    return rows


def compile_models(a, models):
    """torch.compile every (model, batch) row ahead of the timing: {(label, bs): (x, cm, mode, seconds)}."""
    out = {}
    with torch.no_grad():
        for label, d, fwd, size, fl, batches in models:
            for bs in batches:
                x = torch.randn(bs, 3, size, size, device="cuda").bfloat16()
                mode = "reduce-overhead" if bs == 1 else "default"
                t = time.time()
                try:
                    cm = torch.compile(fwd, mode=mode, dynamic=False)
                    cm(x)
                    cm(x)
                    torch.cuda.synchronize()
                    out[(label, bs)] = (x, cm, mode, time.time() - t)
                    log(f"compiled {label} bs {bs} ({mode}) in {time.time() - t:.1f} s")
                except Exception as e:  # noqa: BLE001
                    out[(label, bs)] = (x, None, mode, None)
                    log(f"torch.compile {label} bs {bs}: {str(e)[:200]}")
    return out


def tables(r):
    L = []
    g = r.get("gemm", [])
    L.append("### GEMM: vit.h mma.sync vs CUTLASS sm80 (bf16 in, fp32 accumulate, bf16 out, bias in the epilogue)\n")
    L.append("| shape | M | N | K | vit.h µs | vit.h TFLOP/s | vit.h kernel (split) | CUTLASS best µs | CUTLASS TFLOP/s | CUTLASS config | "
             "vit.h / CUTLASS | vit.h 128x128 forced µs | vit.h 64x64 forced µs |")
    L.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for j in g:
        v, v1, v2 = j.get("vit", {}), j.get("vit_mma128", {}), j.get("vit_mma64", {})
        us = lambda x: fmt(x * 1e3 if x and x > 0 else None, ".1f")  # noqa: E731
        L.append(f"| {j['shape']} | {j['M']} | {j['N']} | {j['K']} | {us(v.get('ms'))} | {fmt(v.get('tflops'), '.0f')} | {v.get('kernel')} ({v.get('split')}) | "
                 f"{us(j.get('cutlass_ms'))} | {fmt(j.get('cutlass_tflops'), '.0f')} | {j.get('best')} | {fmt(j.get('ratio'), '.2f')}x | "
                 f"{us(v1.get('ms'))} | {us(v2.get('ms'))} |")
    L.append("")
    L.append("### Attention: vit.h mma.sync vs SDPA flash (FlashAttention-2), bf16, head size 64\n")
    L.append("| shape | B | N | H | SDPA flash ms | SDPA flash TFLOP/s | vit.h sm_80 ms | vit.h sm_80 TFLOP/s | vit.h kernel | vit.h / SDPA flash | "
             "SDPA default ms | vit.h sm_90a ms (ref) | vit.h sm_80, the other rows/warp forced: ms (kernel) |")
    L.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for x in r.get("attention", []):
        fl = 4.0 * x["B"] * x["H"] * x["N"] ** 2 * x["D"]
        v, v9, f = x.get("vit80", {}), x.get("vit90", {}), x.get("flash_ms")
        L.append(f"| {x['shape']} | {x['B']} | {x['N']} | {x['H']} | {fmt(f)} | {fmt(fl / f / 1e9 if f else None, '.0f')} | {fmt(v.get('ms'), '.4f')} | "
                 f"{fmt(v.get('tflops'), '.0f')} | {ATT_KERNELS.get(v.get('kernel'), v.get('kernel', '-'))} | "
                 f"{fmt(f / v['ms'] if f and v.get('ms') else None, '.2f')}x | {fmt(x.get('sdpa_default_ms'))} | {fmt(v9.get('ms'), '.4f')} | "
                 f"{fmt(x.get('vit80_other', {}).get('ms'), '.4f')} ({ATT_KERNELS.get(x.get('vit80_other', {}).get('kernel'), '-')}) |")
    L.append("")
    L.append("### Whole models: the sm_80 build vs PyTorch (Hopper's cuBLAS, Triton) on the same GPU, bf16\n")
    L.append("| model | batch | eager bf16 | torch.compile bf16 | vit.h sm_80 build | vs eager | vs torch.compile | vit.h sm_90a build (ref) |")
    L.append("|---|---|---|---|---|---|---|---|")
    for m in r.get("models", []):
        bs = m["batch"]
        cell = lambda ms: "-" if not ms else f"{bs / (ms * 1e-3):,.0f} img/s ({ms:.3f} ms)"  # noqa: E731
        v = m.get("vit80_ms")
        ratio = lambda p: "-" if not p or not v else f"{p / v:.2f}x"  # noqa: E731
        L.append(f"| {m['model']} | {bs} | {cell(m.get('eager_ms'))} | {cell(m.get('compile_ms'))} [{m.get('compile_mode')}] | {cell(v)} | "
                 f"{ratio(m.get('eager_ms'))} | {ratio(m.get('compile_ms'))} | {cell(m.get('vit90_ms'))} |")
    return "\n".join(L) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin80", default="build/vit_bench80")
    ap.add_argument("--bin90", default="", help="the sm_90a build, for reference figures (none: not run)")
    ap.add_argument("--gemm-bin", default="build/bench_cutlass_sm80")
    ap.add_argument("--gemm-ms", type=float, default=40.0, help="ms of timed replays per GEMM variant")
    ap.add_argument("--gemm-timeout", type=float, default=200.0)
    ap.add_argument("--wait", default=None, help="folder of the builds' NAME.rc files to wait for")
    ap.add_argument("--deadline", type=float, default=540.0, help="seconds; model rows after it are skipped")
    ap.add_argument("--out", default=os.environ.get("OUT", "/tmp/out"))
    ap.add_argument("--commit", default="unknown")
    ap.add_argument("--parts", default="gemm,attention,models", help="which tables to time (comma-separated)")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    dev = torch.cuda.get_device_name()
    r = {"date": datetime.date.today().isoformat(), "device": dev, "torch": torch.__version__, "timm": timm.__version__, "commit": a.commit}
    log("device", dev, "torch", torch.__version__)
    models, compiled = [], {}
    parts = a.parts.split(",")
    if "models" in parts:
        import tempfile
        tmp = tempfile.mkdtemp(prefix="vit_sm80_")
        t = time.time()
        models = build_models(tmp)
        log(f"models built and saved in {time.time() - t:.1f} s")
        compiled = compile_models(a, models)
    if a.wait:  # the sm_80 binaries first: the GEMMs may time while the sm_90a reference still builds
        r["builds"] = wait_builds(a.wait, ["vit_bench80", "bench_cutlass_sm80"], 420)
        log("builds:", r["builds"])
    try:
        if "gemm" in parts:
            r["gemm"], r["gemm_head"] = run_gemm(a, a.out)
    except Exception as e:  # noqa: BLE001
        log("gemm failed:", e)
    if a.wait and a.bin90:
        r["builds"].update(wait_builds(a.wait, ["vit_bench90a"], 150))
        log("builds:", r["builds"])
        if r["builds"].get("vit_bench90a") != 0:
            a.bin90 = None
    try:
        if "attention" in parts:
            r["attention"], r["sdpa_flash_kernels"] = run_attention(a)
    except Exception as e:  # noqa: BLE001
        log("attention failed:", e)
    with open(os.path.join(a.out, "sm80.json"), "w") as f:
        json.dump(r, f, indent=1)
    if models:
        r["models"] = run_models(a, models, compiled)
    with open(os.path.join(a.out, "sm80.json"), "w") as f:
        json.dump(r, f, indent=1)
    text = tables(r)
    with open(os.path.join(a.out, "sm80.md"), "w") as f:
        f.write(text)
    print(text)
    log("done")


if __name__ == "__main__":
    main()
