#!/usr/bin/env bash
# One device run on a CUDA machine (the GPU test suite, the GPU fault tests and
# vit-classify against timm on real photos), logs under $OUT (default /tmp/out).
# The GPU machines here have no stb headers: carry a copy in .stb/stb/stb_image.h.
#   usage: bash tools/device_check.sh [bench]
#          bash tools/device_check.sh multi   (a host with 2+ GPUs:
#          test_gpu_model's one-model-per-GPU cases, vit-classify --devices all,
#          vit_bench multi, the folder pipeline and the host transfers)
#          bash tools/device_check.sh fp8     (VIT_DTYPE_FP8's GPU tests and its vit_bench
#          figures beside bf16's; carry build/fashion-mnist for its Fashion-MNIST gate)
set -uo pipefail
export PYTHONUNBUFFERED=1
[ -d .stb ] && export CPATH=$PWD/.stb${CPATH:+:$CPATH}
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
arch='-gencode=arch=compute_90a,code=sm_90a'
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/device.txt"
status=0
if [ "${1:-}" = fp8 ]; then # VIT_DTYPE_FP8 on the GPU: its tests, then vit_bench fp8 against bf16 in the same run
    run() { echo "=== $*"; "$@" 2>&1 | tee -a "$OUT/fp8.log"; local rc=${PIPESTATUS[0]}; [ $rc -eq 0 ] || status=1; echo "=== rc=$rc"; }
    run make -j4 build/test_ops build/test_gpu_model build/gpu_test_fashion_mnist build/vit_bench CUDA_ARCH="$arch"
    run build/test_ops
    run build/test_gpu_model tests/data/ref/*/
    run build/gpu_test_fashion_mnist models/fashion_mnist build/fashion-mnist
    for name in vit_base_patch16_224 vit_large_patch16_224 vit_small_patch16_224; do
        d=/tmp/models/$name
        python3 -c "import sys, torch, timm; from timm.models._hub import save_for_hf; torch.manual_seed(0); save_for_hf(timm.create_model(sys.argv[2]).eval(), sys.argv[1], safe_serialization=True)" "$d" "$name"
        for b in 256 8 1; do for dt in bf16 fp8; do
            [ $name != vit_base_patch16_224 ] && [ $b != 256 ] && continue
            echo "$name bs $b $dt $(build/vit_bench model "$d" $dt $b 20 | tail -1)" | tee -a "$OUT/fp8_bench.txt"
        done; done
    done
    for s in "50432 2304 768" "50432 768 768" "50432 3072 768" "50432 768 3072"; do for dt in bf16 fp8; do
        echo "gemm $s $dt $(VIT_DTYPE=$dt build/vit_bench gemm $s 20 | tail -1)" | tee -a "$OUT/fp8_bench.txt"
    done; done
    grep -E "passed, |^=== rc|NOT OK" "$OUT/fp8.log" | tail -30
    cat "$OUT/fp8_bench.txt"
    exit $status
fi
if [ "${1:-}" = multi ]; then
    run() { echo "=== $*"; "$@" 2>&1 | tee -a "$OUT/multi.log"; local rc=${PIPESTATUS[0]}; [ $rc -eq 0 ] || status=1; echo "=== rc=$rc"; }
    run make -j3 build/test_gpu_model build/vit-classify build/vit_bench CUDA_ARCH="$arch"
    run build/test_gpu_model tests/data/ref/*/
    run bash tests/test_multi_gpu.sh build/vit-classify
    d=$(mktemp -d)/vit_base_patch16_224
    python3 -c "import sys, torch, timm; from timm.models._hub import save_for_hf; torch.manual_seed(0); save_for_hf(timm.create_model('vit_base_patch16_224').eval(), sys.argv[1], safe_serialization=True)" "$d"
    run build/vit_bench multi "$d" bf16 256 48 224 224
    run build/vit_bench multi "$d" bf16 64 96 640 480
    run python3 tools/bench_cli.py --dir /tmp/jpegs --threads "$(nproc)" --batch 64 --devices all --out "$OUT/cli_all.md"
    run python3 tools/bench_cli.py --dir /tmp/jpegs --threads "$(nproc)" --batch 64 --skip-torch --out "$OUT/cli_one.md"
    run python3 tools/bench_transfer.py --bin build/vit_bench
    grep -E "passed, |^=== rc|NOT OK|img_s" "$OUT/multi.log" | tail -30
    exit $status
fi
run() { echo "=== $*"; "$@" 2>&1 | tee -a "$OUT/check.log"; local rc=${PIPESTATUS[0]}; [ $rc -eq 0 ] || status=1; echo "=== rc=$rc"; }
run make -j8 build/test_ops build/test_gpu_model build/test_gpu_faults build/vit-classify CUDA_ARCH="$arch"
run make test-gpu CUDA_ARCH="$arch"
run python3 tools/check_classify_timm.py --bin build/vit-classify --args "--device cuda --dtype fp32"
if [ "${1:-}" = bench ]; then run make bench CUDA_ARCH="$arch"; cp BENCHMARKS.md "$OUT/"; fi
grep -E "passed, |^=== rc|NOT OK" "$OUT/check.log" | tail -30
exit $status
