#!/usr/bin/env python3
"""The host API against the async one on the GPU (docs/bench-host.md's figures).

Makes timm ViT-B/16 (random init, saved as timm's save_for_hf does) and runs
`vit_bench transfer` for each batch and frame size: vit_forward from pageable
host floats and vit_forward_rgb8 from pageable host RGB frames, and from page-locked ones
(cudaHostAlloc: read in place), each against vit_forward_async on device
memory (wall-clock medians of the six interleaved, same process); also the
staging's host copy and DMA rates, and the frames' plan (first chunk / blocks
per chunk pass) with its passes timed on device floats (split ms).
Targets (ViT-B/16 bf16, bs 256): host floats <= 1.15x async, host frames <= 1.05x.

usage: python3 tools/bench_transfer.py [--bin build/vit_bench] [--sweep]
  --sweep: also the host path's chunk knobs (VIT_STAGE_FIRST / VIT_STAGE_GROW / VIT_STAGE_BLOCKS) at bs 256
"""
import argparse, json, os, subprocess, sys, tempfile


def run(binary, d, batch, fw, fh, iters, env=None):
    e = dict(os.environ, **(env or {}))
    out = subprocess.run([binary, "transfer", d, "bf16", str(batch), str(iters), str(fw), str(fh)], capture_output=True, text=True, env=e)
    for line in out.stdout.splitlines()[::-1]:
        if line.startswith("{"):
            return json.loads(line)
    return {"error": (out.stdout + out.stderr)[-400:]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default="build/vit_bench")
    ap.add_argument("--sweep", action="store_true")
    args = ap.parse_args()
    import torch, timm
    from timm.models._hub import save_for_hf
    d = os.path.join(tempfile.mkdtemp(prefix="vit_transfer_"), "vit_base_patch16_224")
    torch.manual_seed(0)
    save_for_hf(timm.create_model("vit_base_patch16_224", pretrained=False).eval(), d, safe_serialization=True)
    rows = []
    for batch, iters in [(1, 50), (8, 30), (64, 15), (256, 15)]:
        for fw, fh in [(224, 224), (640, 480)]:
            r = run(args.bin, d, batch, fw, fh, iters)
            rows.append(r)
            print(json.dumps(r), flush=True)
    if args.sweep:
        # bs 256, 224x224 frames: the policy's plan (first chunk n / 8, its blocks by vit__plan_stage_blocks) against
        # fixed ones (first chunk, grow 64: two chunks, blocks per chunk pass; 12: whole passes), two rounds
        # interleaved; then 640x480 frames, the policy against whole passes
        plans = [None, (32, 64, 6), (32, 64, 3), (16, 64, 12)]
        for rnd in range(2):
            for plan in plans:
                env = {} if plan is None else {"VIT_STAGE_FIRST": str(plan[0]), "VIT_STAGE_GROW": str(plan[1]), "VIT_STAGE_BLOCKS": str(plan[2])}
                r = run(args.bin, d, 256, 224, 224, 15, env)
                rows.append(r)
                print(json.dumps(r), flush=True)
        for plan in [None, (32, 4, 12)]:
            env = {} if plan is None else {"VIT_STAGE_FIRST": str(plan[0]), "VIT_STAGE_GROW": str(plan[1]), "VIT_STAGE_BLOCKS": str(plan[2])}
            r = run(args.bin, d, 256, 640, 480, 15, env)
            rows.append(r)
            print(json.dumps(r), flush=True)
    print(f"\n{'batch':>5} {'frame':>8} {'first':>5} {'grow':>4} {'blk':>3} {'async ms':>9} {'host ms':>9} {'ratio':>6} {'rgb8 ms':>9} {'ratio':>6} {'rgb8 async':>10} "
          f"{'prep ms':>8} {'pinned ms':>9} {'ratio':>6} {'copy GB/s':>9} {'DMA GB/s':>8} {'plan':>7} {'split ms':>8}")
    for r in rows:
        if "error" in r:
            print("error:", r["error"])
            continue
        print(f"{r['batch']:>5} {r['frame']:>8} {r['stage_first']:>5} {r['stage_grow']:>4} {r.get('stage_blocks', 0):>3} {r['async_ms']:>9.3f} {r['host_ms']:>9.3f} {r['host_ratio']:>6.3f} "
              f"{r['rgb8_host_ms']:>9.3f} {r['rgb8_ratio']:>6.3f} {r['rgb8_async_ms']:>10.3f} {r.get('prep_ms', 0):>8.3f} "
              f"{r['rgb8_pinned_ms']:>9.3f} {r['pinned_ratio']:>6.3f} {r['copy_gbs']:>9.1f} {r['dma_gbs']:>8.1f} "
              f"{str(r.get('plan_first')) + '/' + str(r.get('plan_blocks')):>7} {r.get('split_async_ms', 0):>8.3f}")


if __name__ == "__main__":
    sys.exit(main())
