#!/usr/bin/env bash
# One device run on a CUDA machine (the GPU test suite, the GPU fault tests and
# vit-classify against timm on real photos), logs under $OUT (default /tmp/out).
# The GPU machines here have no stb headers: carry a copy in .stb/stb/stb_image.h.
#   usage: bash tools/device_check.sh [bench]
#          bash tools/device_check.sh multi   (a host with 2+ GPUs, issue 19 part 4:
#          test_gpu_model's one-model-per-GPU cases, vit-classify --devices all,
#          vit_bench multi, the folder pipeline and the host transfers)
set -uo pipefail
export PYTHONUNBUFFERED=1
[ -d .stb ] && export CPATH=$PWD/.stb${CPATH:+:$CPATH}
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
arch='-gencode=arch=compute_90a,code=sm_90a'
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/device.txt"
status=0
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
