#!/usr/bin/env bash
# One device run on a CUDA machine (the GPU test suite, the GPU fault tests and
# vit-classify against timm on real photos), logs under $OUT (default /tmp/out).
# The GPU machines here have no stb headers: carry a copy in .stb/stb/stb_image.h.
#   usage: bash tools/device_check.sh [bench]
set -uo pipefail
export PYTHONUNBUFFERED=1
[ -d .stb ] && export CPATH=$PWD/.stb${CPATH:+:$CPATH}
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
arch='-gencode=arch=compute_90a,code=sm_90a'
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/device.txt"
status=0
run() { echo "=== $*"; "$@" 2>&1 | tee -a "$OUT/check.log"; local rc=${PIPESTATUS[0]}; [ $rc -eq 0 ] || status=1; echo "=== rc=$rc"; }
run make -j8 build/test_ops build/test_gpu_model build/test_gpu_faults build/vit-classify CUDA_ARCH="$arch"
run make test-gpu CUDA_ARCH="$arch"
run python3 tools/check_classify_timm.py --bin build/vit-classify --args "--device cuda --dtype fp32"
if [ "${1:-}" = bench ]; then run make bench CUDA_ARCH="$arch"; cp BENCHMARKS.md "$OUT/"; fi
grep -E "passed, |^=== rc|NOT OK" "$OUT/check.log" | tail -30
exit $status
