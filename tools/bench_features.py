#!/usr/bin/env python3
"""Benchmark vit.h's dense features (vit_features) against PyTorch on the same weights, in one run.

GPU (default): DINOv2-S/14 reg4 @518 (timm vit_small_patch14_reg4_dinov2) and CLIP ViT-L/14 @336 (HF
CLIPVisionModelWithProjection), random-init by tools/make_gpu_reference.py's family_model and saved by
save_family to a temporary directory; bf16, batch 64, block -2 (the one before the last), patch tokens
only, no final norm, bf16 output. vit.h: `vit_bench features` (vit_features_async from device images into a
device buffer, and vit_embed_async of the same model and batch interleaved with it in the same process:
the ratio features / embed). PyTorch, eager and torch.compile (mode 'default', as bench.py --families), on
the bf16 model from a bf16 input on the GPU, CUDA-event medians as bench.py's cuda_time:

  DINOv2  timm model.forward_intermediates(x, indices=[depth-2], return_prefix_tokens=False,
          output_fmt='NLC', intermediates_only=True)[0]: runs every block (timm's stop_early=False);
          'truncated': the same with stop_early=True (timm's own way to stop after block depth-2).
  CLIP    transformers model.vision_model(pixel_values=x, output_hidden_states=True)
          .hidden_states[depth-1][:, 1:]: runs every block (and the post-layernorm of the class token);
          'truncated': vision_model.encoder.layers cut to the first depth-1, last_hidden_state[:, 1:].

torch.compile runs the first form of each only: the unused last block is dead code in its graph, so
compiled, both forms run the same blocks. Peak memory: torch.cuda.max_memory_allocated() over the timed
calls (weights, activations, output and PyTorch's bf16 input); vit.h: what the model holds on the device
after the first features call (cudaMemGetInfo: weights, activation arena, graph, kernel code) plus the
output buffer (its fp32 input not counted).

--cpu: the same two models at batch 1 in fp32 on the CPU: vit.h's vit_features (build/bench_cpu
--features) against PyTorch eager (both forms above), all threads, --rounds interleaved rounds of
--reps timed calls each (each vit.h round a fresh process: load and one warm-up call untimed), medians.

--dry-run: the GPU script's PyTorch side on the CPU with 2-block stand-ins (full widths) at batch 2 in
fp32, torch.compile included, vit_bench only if --bin runs: a check that the GPU run does not fail on a typo.

Writes a markdown table to stdout and to --out (default bench-features.md; --cpu: bench-features-cpu.md),
the raw results to the .json beside it. Items are skipped once --deadline seconds have passed.

usage: python3 tools/bench_features.py --bin build/vit_bench [--out bench-features.md] [--deadline 330]
       python3 tools/bench_features.py --cpu [--bin build/bench_cpu] [--rounds 5] [--reps 2] [--deadline 1500]
       python3 tools/bench_features.py --dry-run
"""

import argparse
import datetime
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

import torch

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import timm  # noqa: E402
import transformers  # noqa: E402
from bench import cuda_time, fmt, iters_for, late, log, mib, vit_bench  # noqa: E402
from bench import paired_args, write_text_report as write_report  # noqa: E402
from make_gpu_reference import family_model, save_family  # noqa: E402

COMPILE_MODE = "default"  # as bench.py's FAMILY_COMPILE_MODE
BLOCK = -2                # the block asked for (Python-style)

# (label, family in tools/make_gpu_reference.py, what PyTorch runs)
PLAN = [
    ("DINOv2-S/14 reg4 @518", "dinov2_s14_reg4",
     "timm forward_intermediates(indices=[depth-2], return_prefix_tokens=False, output_fmt='NLC', intermediates_only=True)"),
    ("CLIP ViT-L/14 @336", "clip_l14",
     "transformers vision_model(output_hidden_states=True).hidden_states[depth-1][:, 1:]"),
]
FORMS = {  # how the 'full' and 'truncated' forms are run, per library
    "timm": ("forward_intermediates, stop_early=False (timm's default): every block runs",
             "forward_intermediates, stop_early=True: blocks 0..depth-2"),
    "hf_clip": ("output_hidden_states=True: every block runs (transformers has no early stop)",
                "encoder.layers cut to depth-1, last_hidden_state"),
}


def depth_of(model):
    return len(model.blocks) if model.vit_lib == "timm" else model.config.num_hidden_layers


def image_size(model):
    return model.patch_embed.img_size[0] if model.vit_lib == "timm" else model.config.image_size


class Features(torch.nn.Module):
    """x -> the patch tokens of block depth+BLOCK, [n, T, C], as the library computes them.
    truncated: stopping after that block (timm stop_early; HF: the encoder's layers cut)."""

    def __init__(self, model, truncated=False):
        super().__init__()
        self.m, self.truncated = model, truncated
        self.lib, self.depth = model.vit_lib, depth_of(model)
        self.k = self.depth + BLOCK
        if self.lib != "timm" and truncated:
            layers = model.vision_model.encoder.layers
            self.cut = torch.nn.ModuleList(list(layers)[:self.k + 1])

    def forward(self, x):
        if self.lib == "timm":
            return self.m.forward_intermediates(x, indices=[self.k], return_prefix_tokens=False, norm=False,
                                                stop_early=self.truncated, output_fmt="NLC", intermediates_only=True)[0]
        vm = self.m.vision_model
        if not self.truncated:  # hidden_states[k + 1] is block k's output
            return vm(pixel_values=x, output_hidden_states=True).hidden_states[self.k + 1][:, 1:]
        enc = vm.encoder
        full, enc.layers = enc.layers, self.cut
        try:
            return vm(pixel_values=x).last_hidden_state[:, 1:]
        finally:
            enc.layers = full


def flops(model, n_img=1, upto=None):
    """Matmul FLOPs (multiply-adds x 2) of the patch embedding and the first `upto` blocks."""
    if model.vit_lib == "timm":
        c, mlp = model.embed_dim, model.blocks[0].mlp.fc1.out_features
        p, npatch = model.patch_embed.patch_size[0], model.patch_embed.num_patches
        n = npatch + model.num_prefix_tokens
    else:
        cfg = model.config
        c, mlp, p = cfg.hidden_size, cfg.intermediate_size, cfg.patch_size
        npatch = (cfg.image_size // p) ** 2
        n = npatch + 1
    upto = depth_of(model) if upto is None else upto
    per_block = 2 * n * (4 * c * c + 2 * c * mlp) + 2 * 2 * n * n * c
    return n_img * (upto * per_block + 2 * npatch * 3 * p * p * c)


def build(key, tiny, tmp):
    t = time.time()
    model = family_model(key, tiny=tiny)
    d = os.path.join(tmp, key)
    save_family(model, key, d)
    log(f"{key}: built and saved in {time.time() - t:.1f} s (depth {depth_of(model)}, {image_size(model)} px)")
    return model, d


def max_diff(a, b):
    return (a.float() - b.float()).abs().max().item()


# ---- GPU (and --dry-run on the CPU)

def gpu_run(args):
    dev = "cuda" if not args.dry_run else "cpu"
    dtype = torch.bfloat16 if not args.dry_run else torch.float32
    bs = args.batch if not args.dry_run else 2
    if dev == "cuda":
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
        name = torch.cuda.get_device_name()
    else:
        name = "CPU (dry run: 2-block stand-ins, fp32, batch 2)"
    log("device", name, "torch", torch.__version__, "timm", timm.__version__, "transformers", transformers.__version__)
    r = {"device": name, "torch": torch.__version__, "timm": timm.__version__, "transformers": transformers.__version__,
         "date": datetime.date.today().isoformat(), "commit": args.commit, "command": args.command, "dry_run": args.dry_run,
         "block": BLOCK, "compile_mode": COMPILE_MODE, "rows": []}
    tmp = tempfile.mkdtemp(prefix="vit_bench_features_")
    for label, key, what in PLAN:
        if late(args, label):
            continue
        model, d = build(key, args.dry_run, tmp)
        depth, size = depth_of(model), image_size(model)
        m = model.to(dev).to(dtype)
        m.vit_lib = model.vit_lib
        row = {"model": label, "family": key, "what": what, "batch": bs, "image": size, "depth": depth,
               "block": depth + BLOCK, "dtype": "bf16" if dtype == torch.bfloat16 else "f32",
               "full_form": FORMS[m.vit_lib][0], "truncated_form": FORMS[m.vit_lib][1],
               "gflop_features": flops(m, 1, depth + BLOCK + 1) / 1e9, "gflop_embed": flops(m) / 1e9}
        if m.vit_lib != "timm":
            row["attn_implementation"] = getattr(m.config, "_attn_implementation", None)
        guess = flops(m, bs) / 300e12 * 1e3 if dev == "cuda" else 1.0
        iters = iters_for(guess) if dev == "cuda" else 2
        full, trunc = Features(m), Features(m, truncated=True)
        x = torch.randn(bs, 3, size, size, device=dev).to(dtype)
        row["input_bytes"] = x.numel() * x.element_size()

        # vit.h first (its figures are the point of the run), with PyTorch's memory handed back
        if dev == "cuda":
            torch.cuda.empty_cache()
        if os.access(args.bin, os.X_OK):
            ours = vit_bench(args.bin, "features", d, "bf16", bs, iters, BLOCK, 0, 1, "bf16")
        else:
            ours = {"error": f"no {args.bin} (make build/vit_bench)"}
        for k in ("ms", "min_ms", "embed_ms", "ratio", "mem_bytes", "mem_after_embed_bytes", "weights_bytes",
                  "arena_bytes", "out_bytes", "out_shape"):
            row["ours_" + k] = ours.get(k)
        if "error" in ours:
            row["ours_error"] = str(ours["error"])[:300]
        log(label, "vit.h:", json.dumps(ours))

        with torch.no_grad():
            # the two forms agree (the same blocks, the same ops)
            a, b = full(x), trunc(x)
            row["out_shape_torch"] = list(a.shape)
            row["forms_max_diff"] = max_diff(a, b)
            del a, b
            for form, fn in (("eager", full), ("eager_trunc", trunc)):
                if late(args, f"{label} {form}"):
                    continue
                try:
                    row[form + "_ms"], row[form + "_mem"] = timed(fn, x, iters, dev)
                except Exception as e:  # noqa: BLE001
                    row[form + "_error"] = str(e)[:300]
                    log(label, form, ":", row[form + "_error"])
            if not late(args, f"{label} torch.compile"):
                try:
                    t = time.time()
                    cm = torch.compile(full, mode=COMPILE_MODE, dynamic=False)
                    y = cm(x)
                    cm(x)
                    if dev == "cuda":
                        torch.cuda.synchronize()
                    row["compile_s"] = time.time() - t
                    row["compile_max_diff"] = max_diff(y, trunc(x))
                    del y
                    row["compile_ms"], row["compile_mem"] = timed(cm, x, iters, dev)
                    del cm
                except Exception as e:  # noqa: BLE001
                    row["compile_error"] = str(e)[:300]
                    log(label, "torch.compile:", row["compile_error"])
                torch._dynamo.reset()
        r["rows"].append(row)
        log(json.dumps(row))
        write_report(r, args, gpu_text(r), quiet=True)  # a cut-off run still leaves a report
        del m, model, full, trunc, x
        if dev == "cuda":
            torch.cuda.empty_cache()
    done = {row["family"] for row in r["rows"]}
    r["skipped"] = [label for label, key, _ in PLAN if key not in done]
    write_report(r, args, gpu_text(r))
    log("done")
    return 0 if r["rows"] else 1


def timed(fn, x, iters, dev):
    """(median ms, peak bytes allocated over the timed calls or None on the CPU)."""
    if dev != "cuda":
        fn(x)
        ts = []
        for _ in range(iters):
            t = time.perf_counter()
            fn(x)
            ts.append((time.perf_counter() - t) * 1e3)
        return statistics.median(ts), None
    fn(x)
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    ms = cuda_time(lambda: fn(x), iters)
    return ms, torch.cuda.max_memory_allocated()


def gpu_text(r):
    L = ["## Dense features: vit.h vs PyTorch\n"]
    L.append(f"Date: {r['date']}. Device: {r['device']}. Commit: {r['commit']}. torch {r['torch']}, timm {r['timm']}, "
             f"transformers {r['transformers']}. Command: `{r['command']}`.\n")
    L.append(f"Block {r['block']} (the one before the last), patch tokens only (no prefix tokens), no final norm, "
             f"{'bf16 output, bf16 weights and activations' if not r['dry_run'] else 'fp32 (dry run: wall-clock on the CPU)'}; "
             "ms per batch, medians of CUDA-event timings, inputs resident on the device. vit.h features = vit_features_async into a "
             "device buffer; vit.h embed = vit_embed_async (the whole forward pass, pooled) of the same model and batch, "
             "timed interleaved with it in the same process (the bound: features / embed <= 1.05). PyTorch 'full' runs every block: "
             + "; ".join(f"{label}: {what}" for label, _, what in PLAN)
             + ". 'truncated' stops after the block asked for (timm: stop_early=True; transformers has no such option: "
             "encoder.layers cut to depth-1). torch.compile (mode '" + r["compile_mode"] + "') of the full form: the unused "
             "last block is dead code in its graph, so compiled, it runs the truncated form's blocks.\n")
    L.append("| model | batch | vit.h features ms | vit.h embed ms | features / embed | PyTorch eager ms, full | "
             "PyTorch eager ms, truncated | torch.compile ms | vit.h vs eager full | vit.h vs eager truncated | "
             "vit.h vs torch.compile | peak MiB: vit.h / eager full / eager truncated / torch.compile |")
    L.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for m in r["rows"]:
        ours = m.get("ours_ms")

        def vs(key):
            return f"{m[key] / ours:.2f}x" if ours and m.get(key) else "-"
        omem = m["ours_mem_bytes"] + m["ours_out_bytes"] if m.get("ours_mem_bytes") is not None and m.get("ours_out_bytes") else None
        L.append(f"| {m['model']} | {m['batch']} | {fmt(ours, '.3f')} | {fmt(m.get('ours_embed_ms'), '.3f')} | "
                 f"{fmt(m.get('ours_ratio'), '.3f')} | {fmt(m.get('eager_ms'), '.3f')} | {fmt(m.get('eager_trunc_ms'), '.3f')} | "
                 f"{fmt(m.get('compile_ms'), '.3f')} | {vs('eager_ms')} | {vs('eager_trunc_ms')} | {vs('compile_ms')} | "
                 f"{mib(omem)} / {mib(m.get('eager_mem'))} / {mib(m.get('eager_trunc_mem'))} / {mib(m.get('compile_mem'))} |")
    L.append("")
    L.append("Peak memory: vit.h = the device memory the model holds after its first features call (cudaMemGetInfo "
             "against before the load: weights, activation arena for max_batch = batch, graph, kernel code) + the output "
             "buffer; the fp32 input is not counted. PyTorch = torch.cuda.max_memory_allocated() over the timed calls "
             "(weights, activations, the output, and its bf16 input). Per model: " + "; ".join(
                 f"{m['model']}: vit.h weights {mib(m.get('ours_weights_bytes'))} MiB, arena {mib(m.get('ours_arena_bytes'))} MiB, "
                 f"output {mib(m.get('ours_out_bytes'))} MiB, after an embed call too {mib(m.get('ours_mem_after_embed_bytes'))} MiB "
                 f"(+ output); PyTorch's input {mib(m.get('input_bytes'))} MiB" for m in r["rows"]) + ".\n")
    L.append("Checks: " + "; ".join(
        f"{m['model']}: output {m.get('ours_out_shape')} (vit.h) / {m.get('out_shape_torch')} (PyTorch), full vs truncated "
        f"max |diff| {fmt(m.get('forms_max_diff'), '.3g')}, torch.compile vs truncated {fmt(m.get('compile_max_diff'), '.3g')}"
        + (f", compiled in {m['compile_s']:.0f} s" if m.get("compile_s") else "") for m in r["rows"]) + ".\n")
    names = {"ours_error": "vit.h", "eager_error": "eager full", "eager_trunc_error": "eager truncated", "compile_error": "torch.compile"}
    errs = [f"{m['model']} {what}: {m[k]}" for m in r["rows"] for k, what in names.items() if m.get(k)]
    if errs:
        L.append("Failed: " + "; ".join(errs) + ".\n")
    if r.get("skipped"):
        L.append("Not reached before the deadline: " + ", ".join(r["skipped"]) + ".\n")
    return "\n".join(L)


# ---- CPU (--cpu)

def cpu_features_ms(binary, path, batch, reps, threads):
    env = dict(os.environ, OMP_WAIT_POLICY="active", OMP_NUM_THREADS=str(threads))
    out = subprocess.run([binary, "--features", path, str(batch), str(reps), str(BLOCK), "0", "1"],
                         capture_output=True, text=True, check=True, env=env).stdout
    return float(re.search(r"median ([0-9.]+) ms", out).group(1))


def cpu_run(args):
    import bench_cpu  # the CPU's name and vector ISA, as bench_cpu.py prints them
    torch.set_num_threads(args.threads)
    bs = 1
    r = {"device": f"{bench_cpu.cpu_name()} ({bench_cpu.cpu_isa()}), {args.threads} threads", "torch": torch.__version__,
         "timm": timm.__version__, "transformers": transformers.__version__, "date": datetime.date.today().isoformat(),
         "commit": args.commit, "command": args.command, "rounds": args.rounds, "reps": args.reps, "rows": []}
    log("device", r["device"], "torch", torch.__version__)
    tmp = tempfile.mkdtemp(prefix="vit_bench_features_cpu_")
    for label, key, what in PLAN:
        if late(args, label):
            continue
        model, d = build(key, False, tmp)
        size, depth = image_size(model), depth_of(model)
        full, trunc = Features(model), Features(model, truncated=True)
        x = torch.randn(bs, 3, size, size)
        st = os.path.join(d, "model.safetensors")
        res = {"vit.h": [], "eager": [], "eager_trunc": []}
        with torch.inference_mode():
            full(x)  # warm-up (vit.h's is in each of its runs)
            trunc(x)
            for rnd in range(args.rounds):
                if rnd and late(args, f"{label} round {rnd + 1}"):
                    break
                res["vit.h"].append(cpu_features_ms(args.bin, st, bs, args.reps, args.threads))
                for form, fn in (("eager", full), ("eager_trunc", trunc)):
                    ts = []
                    for _ in range(args.reps):
                        t = time.perf_counter()
                        fn(x)
                        ts.append((time.perf_counter() - t) * 1e3)
                    res[form].append(statistics.median(ts))
                log(label, "round", rnd + 1, {k: round(v[-1], 1) for k, v in res.items()})
        row = {"model": label, "family": key, "what": what, "batch": bs, "image": size, "depth": depth, "block": depth + BLOCK,
               "rounds": res, **{k + "_ms": statistics.median(v) for k, v in res.items() if v}}
        row["ours_ms"] = row.pop("vit.h_ms", None)
        r["rows"].append(row)
        write_report(r, args, cpu_text(r), quiet=True)
        del model, full, trunc
    write_report(r, args, cpu_text(r))
    log("done")
    return 0 if r["rows"] else 1


def cpu_text(r):
    L = ["## Dense features on the CPU: vit.h vs PyTorch eager\n"]
    L.append(f"Date: {r['date']}. CPU: {r['device']}. Commit: {r['commit']}. torch {r['torch']}, timm {r['timm']}, "
             f"transformers {r['transformers']}. Command: `{r['command']}`.\n")
    L.append(f"fp32, batch 1, block {BLOCK} (the one before the last), patch tokens only, no final norm; ms per image, "
             f"the median over {r['rounds']} interleaved rounds of each engine's median of {r['reps']} timed calls "
             "(a machine shared with other jobs: the rounds are in the .json). vit.h: vit_features (bench_cpu --features). "
             "PyTorch full: " + "; ".join(f"{label}: {what}" for label, _, what in PLAN)
             + " (every block runs); truncated: stopping after the block asked for (timm stop_early=True; transformers: "
             "encoder.layers cut to depth-1).\n")
    L.append("| model | batch | vit.h features ms | PyTorch eager ms, full | PyTorch eager ms, truncated | vit.h vs full | "
             "vit.h vs truncated | per round: vit.h vs full | per round: vit.h vs truncated |")
    L.append("|---|---|---|---|---|---|---|---|---|")
    for m in r["rows"]:
        ours = m.get("ours_ms")

        def vs(key):
            return f"{m[key] / ours:.2f}x" if ours and m.get(key) else "-"

        def paired(form):  # the median of the rounds' ratios: each round's pair ran side by side
            rs = [t / v for v, t in zip(m["rounds"]["vit.h"], m["rounds"][form]) if v]
            return f"{statistics.median(rs):.2f}x ({min(rs):.2f}-{max(rs):.2f})" if rs else "-"
        L.append(f"| {m['model']} | {m['batch']} | {fmt(ours, '.1f')} | {fmt(m.get('eager_ms'), '.1f')} | "
                 f"{fmt(m.get('eager_trunc_ms'), '.1f')} | {vs('eager_ms')} | {vs('eager_trunc_ms')} | {paired('eager')} | "
                 f"{paired('eager_trunc')} |")
    L.append("")
    L.append("vit.h vs X = X's time / vit.h's (the medians); per round: the median (range) of each round's ratio.")
    return "\n".join(L) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--batch", type=int, default=64, help="GPU batch")
    ap.add_argument("--cpu", action="store_true", help="the CPU comparison at batch 1 (see usage)")
    args = paired_args(ap, "features", (330, 1500), reps=2)
    return cpu_run(args) if args.cpu else gpu_run(args)


if __name__ == "__main__":
    sys.exit(main())
