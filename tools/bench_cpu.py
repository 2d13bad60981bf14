"""CPU benchmark: vit.h (tools/bench_cpu.c) against PyTorch eager and ONNX Runtime
on the same weights, same machine, same thread count, in one run. A benchmark,
not a test.

    make build/bench_cpu && python3 tools/bench_cpu.py [--models vit_small_patch16_224,vit_base_patch16_224]
                                                       [--batches 1,8] [--rounds 3] [--reps 5] [--no-int8]

Each round runs every engine in turn (interleaved, so a busy neighbour hurts all
alike); an engine's figure in a round is the median of --reps timed batches after
a warm-up; the table gives the median over rounds. ONNX Runtime: the timm model
exported by torch.onnx.export, ORT_ENABLE_ALL, intra-op threads = the thread
count, one inter-op thread; int8 rows: vit.h's VIT_DTYPE_INT8 beside ORT's own
quantize_dynamic (per-channel int8 weights, uint8 activations) of the same model.
"""
import argparse, os, platform, re, statistics, subprocess, tempfile, time
import torch, timm
from timm.models._hub import save_for_hf


def cpu_name():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def cpu_isa():
    try:
        flags = next(l for l in open("/proc/cpuinfo") if l.startswith("flags")).split()
    except (OSError, StopIteration):
        return "?"
    return ", ".join(f for f in ("avx2", "fma", "avx512f", "avx512_vnni", "avx_vnni", "avx512_bf16", "amx_int8") if f in flags)


def timed(fn, reps):
    fn()
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e3


def vith(binary, args, threads):
    env = dict(os.environ, OMP_WAIT_POLICY="active", OMP_NUM_THREADS=str(threads))
    return subprocess.run([binary] + args, capture_output=True, text=True, check=True, env=env).stdout


def vith_ms(binary, path, batch, reps, dtype, threads):
    out = vith(binary, [path, str(batch), str(reps), dtype], threads)
    gflops[(path, batch, dtype)] = float(re.search(r"([0-9.]+) GFLOP/s", out).group(1))
    return float(re.search(r"median ([0-9.]+) ms", out).group(1))


gflops = {}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--models", default="vit_small_patch16_224,vit_base_patch16_224")
    ap.add_argument("--batches", default="1,8")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--bin", default="build/bench_cpu")
    ap.add_argument("--no-int8", action="store_true")
    ap.add_argument("--no-ort", action="store_true")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    ort = None
    if not args.no_ort:
        import onnxruntime as ort
        from onnxruntime.quantization import quantize_dynamic, QuantType
    rows = []
    peak = vith(args.bin, ["--peak"], args.threads).strip()
    gemms = vith(args.bin, ["--gemm"], args.threads).strip()
    for name in args.models.split(","):
        torch.manual_seed(0)
        model = timm.create_model(name, pretrained=False).eval()
        with tempfile.TemporaryDirectory() as d:
            save_for_hf(model, d, safe_serialization=True)
            st = os.path.join(d, "model.safetensors")
            sessions = {}
            if ort:
                onnx_path, q_path = os.path.join(d, "model.onnx"), os.path.join(d, "model_int8.onnx")
                x = torch.randn(1, 3, 224, 224)
                torch.onnx.export(model, (x,), onnx_path, input_names=["x"], output_names=["y"],
                                  dynamic_axes={"x": {0: "b"}, "y": {0: "b"}}, dynamo=False)
                so = ort.SessionOptions()
                so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
                so.intra_op_num_threads = args.threads
                so.inter_op_num_threads = 1
                sessions["f32"] = ort.InferenceSession(onnx_path, so, providers=["CPUExecutionProvider"])
                if not args.no_int8:
                    quantize_dynamic(onnx_path, q_path, weight_type=QuantType.QInt8, per_channel=True)
                    sessions["int8"] = ort.InferenceSession(q_path, so, providers=["CPUExecutionProvider"])
            for b in map(int, args.batches.split(",")):
                x = torch.randn(b, 3, 224, 224)
                xn = x.numpy()
                res = {}
                for _ in range(args.rounds):
                    res.setdefault("vit.h", []).append(vith_ms(args.bin, st, b, args.reps, "f32", args.threads))
                    with torch.inference_mode():
                        res.setdefault("torch", []).append(timed(lambda: model(x), args.reps))
                    if "f32" in sessions:
                        res.setdefault("ort", []).append(timed(lambda: sessions["f32"].run(None, {"x": xn}), args.reps))
                    if not args.no_int8:
                        res.setdefault("vit.h int8", []).append(vith_ms(args.bin, st, b, args.reps, "int8", args.threads))
                        if "int8" in sessions:
                            res.setdefault("ort int8", []).append(timed(lambda: sessions["int8"].run(None, {"x": xn}), args.reps))
                r = {k: statistics.median(v) for k, v in res.items()}
                r["gflops"] = gflops[(st, b, "f32")] * res["vit.h"][-1] / r["vit.h"]  # the last round's, at the median time
                rows.append((name, b, r))
    print(f"CPU: {cpu_name()} ({cpu_isa()}), {args.threads} threads, torch {torch.__version__}, timm {timm.__version__}"
          + (f", onnxruntime {ort.__version__}" if ort else "") + f"; median of {args.rounds} interleaved rounds of {args.reps}")
    print(peak + "; vit.h fp32 GFLOP/s per row: " + ", ".join(f"{n} bs {b} {r['gflops']:.0f}" for n, b, r in rows))
    print("| model | batch | vit.h fp32 ms | PyTorch eager ms | ONNX Runtime ms | vit.h vs PyTorch | vit.h vs ORT |"
          + (" vit.h int8 ms | ORT int8 ms | int8 vs vit.h fp32 | vit.h int8 vs ORT int8 |" if not args.no_int8 else ""))
    print("| --- | --- | --- | --- | --- | --- | --- |" + (" --- | --- | --- | --- |" if not args.no_int8 else ""))
    for name, b, r in rows:
        v, t, o = r["vit.h"], r["torch"], r.get("ort", float("nan"))
        line = f"| {name} | {b} | {v:.1f} | {t:.1f} | {o:.1f} | {t / v:.2f}x | {o / v:.2f}x |"
        if not args.no_int8:
            vi, oi = r["vit.h int8"], r.get("ort int8", float("nan"))
            line += f" {vi:.1f} | {oi:.1f} | {v / vi:.2f}x | {oi / vi:.2f}x |"
        print(line)
    print()
    print("GEMMs of the forward pass alone (bench_cpu --gemm: batch 1, M = 197; int8 in GOP/s, 2 per multiply-add), against the peak above:")
    print(gemms)


if __name__ == "__main__":
    main()
