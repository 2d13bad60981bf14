#!/usr/bin/env bash
# In one device call (about 6 minutes): the persistent kernel (vit_kernels.cuh >>persistent)
# against the per-kernel path and torch.compile, with its own timeline.
#   - builds tools/vit_bench (sm_90a, and with BENCH_PK_SM80=1 compute_80 code too) and
#     tests/test_gpu_model in the background while tools/make_gpu_reference.py writes timm
#     ViT-S/16 and ViT-B/16 (random weights) and torch.compile(mode="reduce-overhead") times
#     timm's ViT-B/16 bf16 at batch 1 and 8;
#   - test_gpu_model --persistent on tests/data/ref and the ViT-S and ViT-B references (forced on
#     and off, 1 and 3 CTAs, 99 KB plans, determinism, most SMs held by another kernel);
#   - vit_bench model, VIT_PERSISTENT=1 (off) and 2 (on) alternating, two rounds: ViT-B/16 bs 1 and
#     8, ViT-S/16 bs 1;
#   - one traced pass per batch (VIT_PK_TRACE): tools/pk_trace.py's table and picture; and
#     at batch 1 on 1, 16 and 66 CTAs (the items' run times without contention).
# Under $OUT (default /tmp/out; the device tool returns 8 files at most): summary.txt (printed as
# it runs), a picture per batch and tile rows, and logs.tgz (the builds' and tests' logs, the traces).
#
# BENCH_PK_ROWS="64 128 256": the GEMM tiles' rows timed (VIT_PK_ROWS; default 64 alone);
# BENCH_PK_PREBUILT=DIR: vit_bench and test_gpu_model as built there (no nvcc on the device);
# BENCH_PK_PNG=0: the traces' tables without pictures (fewer files under $OUT).
#
#   usage: bash tools/bench_persistent.sh   (stb_image.h: carry .stb/stb/, as tools/device_check.sh)
set -uo pipefail
export PYTHONUNBUFFERED=1
[ -d .stb ] && export CPATH=$PWD/.stb${CPATH:+:$CPATH}
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
B=${BENCH_PK_PREBUILT:-build/pk}; mkdir -p "$B"
ROWS=${BENCH_PK_ROWS:-64}
L=/tmp/pk_logs; rm -rf "$L"; mkdir -p "$L"
t0=$(date +%s)
el() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
few='-DVIT_CUDA_NO_F32 -DVIT_CUDA_NO_FP8'
if [ -z "${BENCH_PK_PREBUILT:-}" ]; then
nvcc -O3 -std=c++17 $few -Xcompiler -fopenmp -gencode=arch=compute_90a,code=sm_90a tools/vit_bench.cu -o $B/vit_bench > "$L/build_vit_bench.log" 2>&1 &
nvcc -O1 -std=c++17 -DVIT_CUDA_F16 -Xcompiler -fopenmp -gencode=arch=compute_90a,code=sm_90a tests/test_gpu_model.cu -o $B/test_gpu_model > "$L/build_test_gpu_model.log" 2>&1 &
fi
[ "${BENCH_PK_SM80:-0}" = 1 ] && nvcc -O3 -std=c++17 $few -Xcompiler -fopenmp -gencode=arch=compute_80,code=sm_90 tools/vit_bench.cu -o $B/vit_bench80 > "$L/build_vit_bench80.log" 2>&1 &
python3 tools/make_gpu_reference.py --out /tmp/pk_ref --n 4 --arch vit_small_patch16_224 vit_base_patch16_224 > "$L/ref.log" 2>&1
python3 - > "$L/torch_compile.txt" 2>&1 <<'PY'
import torch, timm
torch.manual_seed(0)
m = timm.create_model("vit_base_patch16_224", pretrained=False).cuda().eval().to(torch.bfloat16)
f = torch.compile(m, mode="reduce-overhead", dynamic=False)
for b in (1, 8):
    x = torch.randn(b, 3, 224, 224, device="cuda", dtype=torch.bfloat16)
    with torch.no_grad():
        for _ in range(20): f(x)
        torch.cuda.synchronize()
        t = []
        for _ in range(200):
            e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            e0.record(); f(x); e1.record(); e1.synchronize(); t.append(e0.elapsed_time(e1))
    t.sort()
    print(f"torch.compile reduce-overhead ViT-B/16 bf16 bs {b}: {t[len(t) // 2]:.4f} ms")
PY
el "references and torch.compile done"
wait
el "builds done"
{
echo "device: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); commit ${COMMIT:-$(git rev-parse --short=7 HEAD 2>/dev/null || echo unknown)}"
timeout 60 $B/test_gpu_model --persistent tests/data/ref/*/ > "$L/pk_tests_small.log" 2>&1
echo "persistent tests, tests/data/ref: $(tail -1 "$L/pk_tests_small.log")"
timeout 150 $B/test_gpu_model --persistent --timm /tmp/pk_ref/vit_small_patch16_224/ /tmp/pk_ref/vit_base_patch16_224/ > "$L/pk_tests_vitb.log" 2>&1
echo "persistent tests, ViT-S/16 and ViT-B/16: $(tail -1 "$L/pk_tests_vitb.log")"
grep -h "NOT OK" "$L"/pk_tests_*.log | head -5
cat "$L/torch_compile.txt" | grep torch.compile
for r in 1 2; do
  for run in "vit_base_patch16_224 1" "vit_base_patch16_224 8" "vit_small_patch16_224 1"; do
    set -- $run
    for p in 1:0 $(printf '2:%s ' $ROWS); do # VIT_PERSISTENT:VIT_PK_ROWS
      ms=$(VIT_PERSISTENT=${p%%:*} VIT_PK_ROWS=${p#*:} timeout 60 $B/vit_bench model /tmp/pk_ref/$1 bf16 $2 300 2>&1 | tail -1 | python3 -c "import json,sys; d=json.loads(sys.stdin.read()); print(d['ms'], 'persistent' if d.get('persistent') else 'per-kernel', '(load %s ms, first call %s ms)' % (d.get('load_ms'), d.get('first_ms')))" 2>/dev/null)
      echo "round $r $1 bs $2: $ms$([ "${p#*:}" != 0 ] && echo ", ${p#*:}-row tiles")"
    done
  done
done
if [ -x $B/vit_bench80 ]; then
  for p in 1 2; do echo "sm_80 build ViT-B/16 bs 1, VIT_PERSISTENT=$p: $(VIT_PERSISTENT=$p timeout 60 $B/vit_bench80 model /tmp/pk_ref/vit_base_patch16_224 bf16 1 300 2>&1 | tail -1 | cut -c1-40)"; done
fi
for rows in $ROWS; do
for b in 1 8; do
  VIT_PERSISTENT=2 VIT_PK_ROWS=$rows VIT_PK_TRACE="$L/trace_bs${b}_$rows.bin" timeout 60 $B/vit_bench model /tmp/pk_ref/vit_base_patch16_224 bf16 $b 50 > /dev/null 2>&1
  echo "--- traced pass, ViT-B/16 bf16 bs $b, $rows-row tiles"
  png=(--png "$OUT/timeline_bs${b}_$rows.png"); [ "${BENCH_PK_PNG:-1}" = 0 ] && png=()
  python3 tools/pk_trace.py "$L/trace_bs${b}_$rows.bin" "${png[@]}" --title "vit.h persistent kernel: ViT-B/16 bf16 batch $b, $rows-row tiles" 2>&1 | tail -12
done
done
# The bound: an item's run time with every SM busy against few SMs (1, 16, 66 CTAs). If
# a lone CTA runs a 64x64 tile much faster, the SMs contend for L2 (shared A operands
# help: multicast); if not, the tile's own pipeline is the bound (bigger tiles, wgmma).
for c in 1 16 66; do
  VIT_PERSISTENT=2 VIT_PK_ROWS=${ROWS%% *} VIT_PK_CTAS=$c VIT_PK_TRACE="/tmp/trace_ctas$c.bin" timeout 60 $B/vit_bench model /tmp/pk_ref/vit_base_patch16_224 bf16 1 20 > /dev/null 2>&1
  echo "--- traced pass, ViT-B/16 bf16 bs 1 on $c CTAs"
  python3 tools/pk_trace.py "/tmp/trace_ctas$c.bin" 2>&1 | tail -12
done
} | tee "$OUT/summary.txt"
tar czf "$OUT/logs.tgz" -C /tmp pk_logs
el done
