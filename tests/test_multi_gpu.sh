#!/usr/bin/env bash
# vit-classify --devices all on a host with two or more GPUs: one model per GPU
# taking the next ready batch must print the same --json lines, in the same
# order, as one GPU (the GPUs are of one kind here: bit-identical), in fp32,
# bf16 and fp16 (built with VIT_CUDA_F16; else fp16 is refused naming it), with an unreadable file among the images; the summary names the GPUs;
# --embed writes the same file both ways. Skips (passes) on fewer than 2 GPUs.
#   usage: bash tests/test_multi_gpu.sh [BIN] [MODEL]
set -u
BIN=${1:-build/vit-classify}
MODEL=${2:-models/fashion_mnist/model.safetensors}
n=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
if [ -n "${CUDA_VISIBLE_DEVICES+x}" ]; then v=$(echo "$CUDA_VISIBLE_DEVICES" | tr ',' '\n' | grep -c .); [ "$v" -lt "$n" ] && n=$v; fi
if [ "$n" -lt 2 ]; then echo "SKIP test_multi_gpu: $n GPU(s)"; echo "0 passed, 0 failed"; exit 0; fi
if [ "$(nvidia-smi --query-gpu=name --format=csv,noheader | sort -u | wc -l)" -ne 1 ]; then
    echo "SKIP test_multi_gpu: GPUs of different kinds (results may differ in the last bits)"; echo "0 passed, 0 failed"; exit 0
fi
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
mkdir -p "$TMP/img/a" "$TMP/img/b"
nimg=0
for i in $(seq 0 29); do
    for f in examples/images/*.png; do cp "$f" "$TMP/img/$([ $((i % 2)) = 0 ] && echo a || echo b)/${i}_$(basename "$f")"; nimg=$((nimg + 1)); done
done
printf 'not an image' > "$TMP/img/a/15_broken.png"
nfiles=$((nimg + 1))
passed=0 failed=0
ok() { echo "OK $*"; passed=$((passed + 1)); }
not_ok() { echo "NOT OK $*"; failed=$((failed + 1)); }
for dt in fp32 bf16 fp16; do
    # fp16 on a GPU is opt-in (VIT_CUDA_F16): a vit-classify built without it refuses it, naming the macro
    if [ $dt = fp16 ] && ! "$BIN" --quiet --devices 0 --dtype fp16 "$MODEL" examples/images/0000_ankle_boot.png > /dev/null 2> "$TMP/f16.err"; then
        if grep -q VIT_CUDA_F16 "$TMP/f16.err"; then ok "fp16: --devices 0 refused, naming VIT_CUDA_F16 (this vit-classify was built without it)"
        else not_ok "fp16: --devices 0 failed: $(head -2 "$TMP/f16.err")"; fi
        continue
    fi
    "$BIN" --json --batch 3 --threads 4 --devices 0 --dtype $dt "$MODEL" "$TMP/img" > "$TMP/one" 2> "$TMP/one.err"; rc1=$?
    "$BIN" --json --batch 3 --threads 4 --devices all --dtype $dt "$MODEL" "$TMP/img" > "$TMP/all" 2> "$TMP/all.err"; rc2=$?
    lines=$(wc -l < "$TMP/all")
    if [ $rc1 -eq 1 ] && [ $rc2 -eq 1 ] && [ "$lines" -eq $nfiles ] && cmp -s "$TMP/one" "$TMP/all" &&
       [ "$(grep -c '"error"' "$TMP/all")" -eq 1 ] && grep -q "$n GPUs" "$TMP/all.err"; then
        ok "$dt: --devices all ($n GPUs) prints the 1-GPU run's $lines lines byte for byte, the broken file reported, exit 1 both"
    else
        not_ok "$dt: --devices 0 exit $rc1, all exit $rc2, $lines lines (want $nfiles), $(cmp "$TMP/one" "$TMP/all" 2>&1 | head -1)"
        tail -3 "$TMP/all.err"
    fi
done
"$BIN" --quiet --batch 5 --devices 0 --embed "$TMP/one.st" "$MODEL" "$TMP/img" > /dev/null 2>&1
"$BIN" --quiet --batch 5 --devices all --embed "$TMP/all.st" "$MODEL" "$TMP/img" > /dev/null 2>&1
if [ -s "$TMP/all.st" ] && cmp -s "$TMP/one.st" "$TMP/all.st"; then ok "--embed: the same safetensors file from 1 and $n GPUs"
else not_ok "--embed: files differ or missing"; fi
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
