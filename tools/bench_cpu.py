"""CPU benchmark: vit.h (tools/bench_cpu.c) against timm eager fp32 on the same
weights, same machine, same thread count, in one run. A benchmark, not a test.

    make build/bench_cpu && python3 tools/bench_cpu.py [--models vit_small_patch16_224,vit_base_patch16_224] [--batches 1,8]
"""
import argparse, os, re, statistics, subprocess, tempfile, time
import torch, timm
from timm.models._hub import save_for_hf


def torch_ms(model, batch, reps):
    x = torch.randn(batch, 3, 224, 224)
    with torch.inference_mode():
        model(x)
        times = []
        for _ in range(reps):
            t = time.perf_counter()
            model(x)
            times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e3


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--models", default="vit_small_patch16_224,vit_base_patch16_224")
    ap.add_argument("--batches", default="1,8")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--bin", default="build/bench_cpu")
    args = ap.parse_args()
    threads = os.cpu_count()
    torch.set_num_threads(threads)
    rows = []
    for name in args.models.split(","):
        torch.manual_seed(0)
        model = timm.create_model(name, pretrained=False).eval()
        with tempfile.TemporaryDirectory() as d:
            save_for_hf(model, d, safe_serialization=True)
            for b in map(int, args.batches.split(",")):
                # vit.h's OpenMP threads spin between ops (as torch's do inside an op);
                # torch's pool in this process is idle while the child runs
                env = dict(os.environ, OMP_WAIT_POLICY="active")
                out = subprocess.run([args.bin, os.path.join(d, "model.safetensors"), str(b), str(args.reps)],
                                     capture_output=True, text=True, check=True, env=env).stdout
                ours = float(re.search(r"median ([0-9.]+) ms", out).group(1))
                theirs = torch_ms(model, b, args.reps)
                rows.append((name, b, ours, b / ours * 1e3, theirs, b / theirs * 1e3, theirs / ours))
    print(f"CPU: {threads} threads, torch {torch.__version__}, timm {timm.__version__}")
    print("| model | batch | vit.h ms | vit.h img/s | timm eager ms | timm img/s | vit.h speed-up |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        print(f"| {r[0]} | {r[1]} | {r[2]:.1f} | {r[3]:.2f} | {r[4]:.1f} | {r[5]:.2f} | {r[6]:.2f}x |")


if __name__ == "__main__":
    main()
