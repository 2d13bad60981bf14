#!/usr/bin/env bash
# In one device call: vit.h's Ampere-class kernels (the sm_80 build:
# compute_80 code, mma.sync) against same-class peers on the lent Hopper GPU.
# Builds vit_bench and bench_cutlass_sm80 for compute_80 code in the background (with
# BENCH_SM80_REF=1 also vit_bench for sm_90a, whose figures then stand beside them) while
# tools/bench_sm80.py builds and torch.compiles the models, then times: the GEMMs
# against CUTLASS sm80, the attention against SDPA flash, the models against
# eager and torch.compile. Logs and tables under $OUT (default /tmp/out).
#
#   usage: bash tools/bench_sm80.sh     (one device call of about 7 minutes: the builds,
#          about 2-3 minutes, run beside the models' torch.compile; then the timing)
#   env:   BENCH_SM80_ARGS="--parts gemm,attention"  only those tables (also: models)
#          BENCH_SM80_REF=1      also vit_bench for sm_90a: its figures beside the sm_80 build's
#          BENCH_SM80_PTX=1      the sm_80 build as PTX alone, JIT-compiled by the driver
#          BENCH_SM80_PREBUILT=DIR  vit_bench80 and bench_cutlass_sm80 built elsewhere (as below)
#          BENCH_SM80_BUILD_ONLY=DIR  only build those two into DIR (no GPU needed)
#          COMMIT=C              the commit the report names (default: git here)
#   needs: CUTLASS's headers: the nvidia-cutlass wheel (PyPI) at $CUTLASS_WHL
#          (default: the one wheel in .whl/cutlass/), of which only
#          cutlass_library/source/include is unpacked; or CUTLASS_INCLUDE=DIR.
#          stb_image.h: carry a copy in .stb/stb/stb_image.h (as tools/device_check.sh).
#
# "compute_80 code": -gencode=arch=compute_80,code=sm_90 assembles the code the
# Makefile's test_ops_sm80 ships as PTX (code=compute_80, JIT-compiled by the driver)
# ahead of time for the H100 in hand: __CUDA_ARCH__ = 800, so no wgmma and no PDL,
# and no JIT at the first launch. Both vit.h and CUTLASS are built so.
set -uo pipefail
export PYTHONUNBUFFERED=1
[ -d .stb ] && export CPATH=$PWD/.stb${CPATH:+:$CPATH}
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
B=build/sm80; mkdir -p "$B"; rm -f "$B"/*.rc
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv | tee "$OUT/device.txt"
nvcc --version | tail -1 | tee -a "$OUT/device.txt"
commit=${COMMIT:-}
if [ -z "$commit" ]; then
    commit=$(git rev-parse --short=7 HEAD 2>/dev/null || echo unknown)
    git diff --quiet HEAD -- vit.h vit_kernels.cuh tools/vit_bench.cu 2>/dev/null || commit="$commit-dirty"
fi
echo "commit $commit" | tee -a "$OUT/device.txt"

inc=${CUTLASS_INCLUDE:-}
if [ -z "$inc" ] && [ -z "${BENCH_SM80_PREBUILT:-}" ]; then
    whl=${CUTLASS_WHL:-$(ls .whl/cutlass/nvidia_cutlass-*.whl 2>/dev/null | head -1)}
    [ -f "$whl" ] || { echo "no nvidia-cutlass wheel (CUTLASS_WHL)"; exit 1; }
    rm -rf /tmp/cutlass_whl && mkdir -p /tmp/cutlass_whl
    # (python's zipfile: the GPU machines have no unzip)
    python3 - "$whl" <<'PY' || { echo "unpacking $whl failed"; exit 1; }
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
z.extractall("/tmp/cutlass_whl", [n for n in z.namelist() if n.startswith("cutlass_library/source/include/")])
PY
    inc=/tmp/cutlass_whl/cutlass_library/source/include
    echo "cutlass: $(basename "$whl")" | tee -a "$OUT/device.txt"
fi

# BENCH_SM80_PTX=1: compute_80 PTX alone (code=compute_80, as the Makefile's test_ops_sm80),
# which the driver JIT-compiles at the first launch of each program (cached on disk)
sm80='-gencode=arch=compute_80,code=sm_90'
[ "${BENCH_SM80_PTX:-0}" = 1 ] && sm80='-gencode=arch=compute_80,code=compute_80'
export CUDA_CACHE_MAXSIZE=4294967296
sm90a='-gencode=arch=compute_90a,code=sm_90a'
few='-DVIT_CUDA_NO_F32 -DVIT_CUDA_NO_F16 -DVIT_CUDA_NO_FP8' # bf16 is all that is timed: a shorter build
flags='-O3 -std=c++17 -Xcompiler -fopenmp'
build() { # NAME ARGS...: nvcc in the background, its rc in $B/NAME.rc when it ends
    local name=$1; shift
    ( start=$(date +%s); nvcc $flags "$@" -o "$B/$name" > "$OUT/build_$name.log" 2>&1; rc=$?
      echo "build $name rc=$rc in $(( $(date +%s) - start )) s" >> "$OUT/build_$name.log"; echo $rc > "$B/$name.rc" ) &
}
bin90=
pre=${BENCH_SM80_PREBUILT:-} # a folder holding vit_bench80 and bench_cutlass_sm80 built as below: no builds here
if [ -n "$pre" ]; then
    mkdir -p "$B"; cp "$pre"/vit_bench80 "$pre"/bench_cutlass_sm80 "$B"/ && echo 0 > "$B/vit_bench80.rc" && echo 0 > "$B/bench_cutlass_sm80.rc"
    echo "prebuilt: $pre" > "$OUT/build_prebuilt.log"
    # the driver's JIT of the sm_80 build, in the background while the GEMM bench JITs its own
    ( "$B/vit_bench80" attn 1 197 12 64 1 >> "$OUT/build_prebuilt.log" 2>&1 ) &
else
build vit_bench80 $sm80 $few tools/vit_bench.cu
if [ "${BENCH_SM80_REF:-0}" = 1 ]; then # the sm_90a build's figures beside them, for reference (a longer build)
    build vit_bench90a $sm90a $few tools/vit_bench.cu
    bin90=$B/vit_bench90a
fi
build bench_cutlass_sm80 $sm80 --expt-relaxed-constexpr -I"$inc" tools/bench_cutlass_sm80.cu
fi
if [ -n "${BENCH_SM80_BUILD_ONLY:-}" ]; then # the two builds into that folder, nothing timed (tools/sm80_prebuilt.sh)
    wait
    mkdir -p "$BENCH_SM80_BUILD_ONLY"; cat "$OUT"/build_*.log > "$BENCH_SM80_BUILD_ONLY/builds.log"
    [ "$(cat "$B"/vit_bench80.rc "$B"/bench_cutlass_sm80.rc)" = "$(printf '0\n0')" ] || { echo "build failed: $BENCH_SM80_BUILD_ONLY/builds.log"; exit 1; }
    cp "$B"/vit_bench80 "$B"/bench_cutlass_sm80 "$BENCH_SM80_BUILD_ONLY"/; exit 0
fi

python3 tools/bench_sm80.py --bin80 "$B/vit_bench80" --bin90 "$bin90" --gemm-bin "$B/bench_cutlass_sm80" \
    --wait "$B" --out "$OUT" --commit "$commit" ${BENCH_SM80_ARGS:-} 2>&1 | tee "$OUT/bench_sm80.log"
status=${PIPESTATUS[0]}
wait
cat "$OUT"/build_*.log > "$OUT/builds.log"; rm -f "$OUT"/build_*.log # (fewer files come back)
grep '^build ' "$OUT/builds.log"
exit $status
