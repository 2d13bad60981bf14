#!/usr/bin/env bash
# The sm_80 build's binaries made on this machine (2 cores, no GPU: about 6 minutes),
# then tested and timed in one short device call, so that no device time goes to nvcc.
#
#   bash tools/sm80_prebuilt.sh build DIR   here: vit_bench80, bench_cutlass_sm80,
#        test_ops80, test_gpu_model80 (compute_80 code assembled for sm_90, as
#        tools/bench_sm80.sh builds them) and test_gpu_model (sm_90a, for --persistent)
#        into DIR (under .data/, which git ignores). CUTLASS's headers: as bench_sm80.sh
#        finds them (the wheel in .whl/cutlass/, or CUTLASS_INCLUDE=DIR).
#   bash tools/sm80_prebuilt.sh run DIR     on the device (carry [DIR, ".stb"]; about 4
#        minutes): the tests (test_ops80 --small and --smem 99, the reference models on
#        the sm_80 build, the persistent kernel's), then make bench-sm80's GEMM, attention
#        and model tables from DIR. Each part's result lands under $OUT as it ends (summary.txt,
#        gemm.md, attention.md, models.md, logs.tgz), so a call cut short still reports the
#        parts done. For a short call: SM80_PARTS="attention gemm" (the parts, in order),
#        SM80_DEADLINE=S (each part's bench_sm80.py --deadline; 150), SM80_NO_PK=1 (no
#        persistent kernel test).
set -uo pipefail
mode=${1:-}; D=${2:-}
[ -n "$D" ] && { [ "$mode" = build ] || [ "$mode" = run ]; } || { echo "usage: bash tools/sm80_prebuilt.sh build|run DIR" >&2; exit 2; }
if [ "$mode" = build ]; then
    mkdir -p "$D"
    f='-O3 -std=c++17 --threads 0 -Xcompiler -fopenmp,-Wall,-Wextra -Werror all-warnings -DVIT_CUDA_F16'
    s80='-gencode=arch=compute_80,code=sm_90' s90='-gencode=arch=compute_90a,code=sm_90a'
    nv() { local out=$1; shift; nvcc "$@" -o "$D/$out" > "$D/$out.log" 2>&1; echo "$out: rc=$?"; }
    # the benchmarks as tools/bench_sm80.sh builds them (its flags, CUTLASS from its wheel)
    OUT=/tmp/sm80_build BENCH_SM80_BUILD_ONLY=$D bash tools/bench_sm80.sh > /dev/null 2>&1; echo "vit_bench80, bench_cutlass_sm80: rc=$? ($D/builds.log)"
    nv test_ops80 $f $s80 tests/test_ops.cu &
    nv test_gpu_model80 $f $s80 tests/test_gpu_model.cu
    wait
    nv test_gpu_model $f $s90 tests/test_gpu_model.cu
    echo "commit $(git rev-parse --short=7 HEAD)$(git diff --quiet HEAD -- vit.h vit_kernels.cuh || echo -dirty)" > "$D/COMMIT"
    exit 0
fi
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"; L=/tmp/sm80_logs; rm -rf "$L"; mkdir -p "$L"
[ -d .stb ] && export CPATH=$PWD/.stb${CPATH:+:$CPATH}
t0=$(date +%s)
say() { echo "[$(( $(date +%s) - t0 )) s] $*" | tee -a "$OUT/summary.txt"; }
say "$(cat "$D/COMMIT" 2>/dev/null); $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
check() { # NAME SECONDS COMMAND...
    local name=$1 secs=$2; shift 2
    timeout "$secs" "$@" > "$L/$name.log" 2>&1; say "$name rc=$?: $(tail -1 "$L/$name.log")"
    grep -h "NOT OK\|FAIL" "$L/$name.log" | head -5 | tee -a "$OUT/summary.txt"
}
check test_ops80_small 60 "$D/test_ops80" --small
check test_gpu_model80 60 "$D/test_gpu_model80" tests/data/ref/*/
[ -n "${SM80_NO_PK:-}" ] || check test_gpu_model_persistent 60 "$D/test_gpu_model" --persistent tests/data/ref/*/
parts=${SM80_PARTS:-gemm attention models}
for part in $parts; do
    OUT=/tmp/sm80_$part BENCH_SM80_PREBUILT=$D COMMIT="$(sed 's/^commit //' "$D/COMMIT" 2>/dev/null)" \
        BENCH_SM80_ARGS="--parts $part --gemm-ms 20 --deadline ${SM80_DEADLINE:-150}" bash tools/bench_sm80.sh > "$L/bench_$part.log" 2>&1
    cp /tmp/sm80_$part/sm80.md "$OUT/$part.md" 2>/dev/null; say "bench $part done"
done
check test_ops80_smem99 120 "$D/test_ops80" --smem 99
tar czf "$OUT/logs.tgz" -C /tmp sm80_logs $(printf 'sm80_%s ' $parts) 2>/dev/null
