#!/usr/bin/env bash
# test_cli: the command-line tools as a user meets them -- exit codes and messages.
#
# usage: bash tests/test_cli.sh [BUILD]   (BUILD = the build directory, default build;
#                                          run from the repository root)
#
# vit-classify (BUILD/vit-classify-cpu) promises: exit 0 when every image was
# classified, 1 when the model or any image failed, 2 on bad usage; results on
# stdout, errors on stderr. vit-similar: 2 on bad usage, 1 on failure. Each
# check prints one OK / NOT OK line; the script ends with "N passed, M failed"
# and exits non-zero on any failure.
set -u

BUILD=${1:-build}
CLASSIFY=$BUILD/vit-classify-cpu
SIMILAR=$BUILD/vit-similar
MODEL=models/fashion_mnist/model.safetensors
NOHEAD=tests/data/ref/timm_noembedclass_nohead/model.safetensors
IMAGES=examples/images
GOOD1=$IMAGES/0000_ankle_boot.png
GOOD2=$IMAGES/0018_bag.png
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}

passed=0
failed=0
ok() { echo "OK $*"; passed=$((passed + 1)); }
not_ok() { echo "NOT OK $*"; failed=$((failed + 1)); }

for f in "$CLASSIFY" "$SIMILAR"; do
    if [ ! -x "$f" ]; then echo "NOT OK $f is not built (make cpu)"; echo "0 passed, 1 failed"; exit 1; fi
done

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# run PROG ARGS...: sets $rc, $out (stdout) and $err (stderr)
run() {
    "$@" >"$TMP/out" 2>"$TMP/err"
    rc=$?
    out=$(cat "$TMP/out")
    err=$(cat "$TMP/err")
}

# expect NAME WANT_RC REGEX PROG ARGS...: exit status WANT_RC and stderr matching REGEX (grep -E)
expect() {
    local name=$1 want=$2 re=$3
    shift 3
    run "$@"
    if [ "$rc" -eq "$want" ] && grep -Eq -- "$re" "$TMP/err"; then
        ok "$name: exit $rc, '$(grep -Em1 -- "$re" "$TMP/err")'"
    else
        not_ok "$name: exit $rc (want $want), stderr '$(head -c 300 "$TMP/err" | tr '\n' '|')' (want /$re/)"
    fi
}

# ---------------------------------------------------------------------------
# vit-classify: bad usage -> 2, with the problem named

expect "classify: no arguments" 2 "no model given" "$CLASSIFY"
expect "classify: model but no image" 2 "no image given" "$CLASSIFY" "$MODEL"
expect "classify: unknown option" 2 "unknown option '--bogus'" "$CLASSIFY" --bogus "$MODEL" "$GOOD1"
expect "classify: --top 0" 2 "--top wants a positive number, not '0'" "$CLASSIFY" --top 0 "$MODEL" "$GOOD1"
expect "classify: --top abc" 2 "--top wants a positive number, not 'abc'" "$CLASSIFY" --top abc "$MODEL" "$GOOD1"
expect "classify: --top 3x" 2 "--top wants a positive number, not '3x'" "$CLASSIFY" --top 3x "$MODEL" "$GOOD1"
expect "classify: --device gpu" 2 "--device wants auto, cpu or cuda, not 'gpu'" "$CLASSIFY" --device gpu "$MODEL" "$GOOD1"
expect "classify: --dtype int8" 2 "--dtype wants fp32, bf16 or fp16, not 'int8'" "$CLASSIFY" --dtype int8 "$MODEL" "$GOOD1"
expect "classify: --threads -1" 2 "--threads wants a positive number, not '-1'" "$CLASSIFY" --threads -1 "$MODEL" "$GOOD1"
expect "classify: --threads 0" 2 "--threads wants a positive number, not '0'" "$CLASSIFY" --threads 0 "$MODEL" "$GOOD1"
expect "classify: option without a value" 2 "option --top needs a value" "$CLASSIFY" --top

# ---------------------------------------------------------------------------
# vit-classify: a model that cannot be used -> 1, with a clear message

head -c 1000 "$MODEL" >"$TMP/truncated.safetensors"
printf 'this is not a safetensors file\n' >"$TMP/text.safetensors"
cp "$GOOD1" "$TMP/image.safetensors"
expect "classify: missing model file" 1 "cannot load '$TMP/missing.safetensors': i/o error: cannot open" \
    "$CLASSIFY" "$TMP/missing.safetensors" "$GOOD1"
expect "classify: a directory as the model" 1 "cannot load '$TMP': i/o error: cannot read .*not a regular file" \
    "$CLASSIFY" "$TMP" "$GOOD1"
expect "classify: model truncated to 1000 bytes" 1 "cannot load '$TMP/truncated.safetensors': bad format: .*1000-byte file" \
    "$CLASSIFY" "$TMP/truncated.safetensors" "$GOOD1"
expect "classify: a text file as the model" 1 "cannot load '$TMP/text.safetensors': bad format" \
    "$CLASSIFY" "$TMP/text.safetensors" "$GOOD1"
expect "classify: a PNG as the model" 1 "cannot load '$TMP/image.safetensors': bad format" \
    "$CLASSIFY" "$TMP/image.safetensors" "$GOOD1"
run "$CLASSIFY" "$NOHEAD" "$GOOD1"
if [ "$rc" -eq 0 ] && echo "$out" | grep -Eq "embedding: 32 values, L2 norm [0-9.]+: [-0-9.]+"; then ok "classify: a model with no head prints its embedding"; else not_ok "classify: a model with no head: exit $rc, '$out' '$err'"; fi
CLIPP=tests/data/ref/hf_clip_vision_proj/model.safetensors
run "$CLASSIFY" "$CLIPP" "$GOOD1"
if [ "$rc" -eq 0 ] && echo "$out" | grep -Eq "embedding: 16 values" && grep -q "projection to 16" "$TMP/err"; then ok "classify: a CLIP projection head prints the image embedding"; else not_ok "classify: CLIP projection: exit $rc, '$out' '$err'"; fi
run "$CLASSIFY" --size 24x40 "$CLIPP" "$GOOD1"
if [ "$rc" -eq 0 ] && grep -q "24x40 input" "$TMP/err"; then ok "classify: --size 24x40 runs the model at 24 x 40"; else not_ok "classify: --size 24x40: exit $rc, '$err'"; fi
expect "classify: --size not a multiple of the patch" 1 "not a multiple of the patch size" "$CLASSIFY" --size 30 "$CLIPP" "$GOOD1"
expect "classify: --size garbage" 2 "--size wants" "$CLASSIFY" --size 3x "$CLIPP" "$GOOD1"
[ -z "$(cat "$TMP/out")" ] && ok "classify: nothing on stdout when the model fails" || not_ok "classify: stdout when the model fails: '$out'"

# ---------------------------------------------------------------------------
# vit-classify: bad images among good ones -> the good ones classified, the bad reported, exit 1

head -c 200 "$GOOD2" >"$TMP/truncated.png"
printf 'not an image\n' >"$TMP/text.png"
: >"$TMP/empty.png"
run "$CLASSIFY" --top 2 "$MODEL" "$TMP/missing.png" "$GOOD1" "$TMP/text.png" "$TMP/truncated.png" "$GOOD2" "$TMP/empty.png"
[ "$rc" -eq 1 ] && ok "classify: bad images among good: exit 1" || not_ok "classify: bad images among good: exit $rc (want 1)"
heads=$(grep -v '^ ' "$TMP/out" | tr '\n' ' ')
[ "$heads" = "$GOOD1 $GOOD2 " ] && ok "classify: bad images among good: the two good ones on stdout, in order" ||
    not_ok "classify: bad images among good: stdout names '$heads' (want '$GOOD1 $GOOD2 ')"
grep -A1 -x "$GOOD1" "$TMP/out" | grep -q "Ankle boot (9)" && grep -A1 -x "$GOOD2" "$TMP/out" | grep -q "Bag (8)" &&
    ok "classify: bad images among good: the good ones classified right" || not_ok "classify: bad images among good: wrong classes: $(tr '\n' '|' <"$TMP/out")"
for pat in "i/o error: cannot open '$TMP/missing.png'" \
           "image decode error: '$TMP/text.png': cannot decode image" \
           "image decode error: '$TMP/truncated.png': cannot decode image" \
           "image decode error: '$TMP/empty.png' is empty"; do
    grep -Eq -- "$pat" "$TMP/err" && ok "classify: bad images among good: stderr has '$pat'" ||
        not_ok "classify: bad images among good: stderr lacks /$pat/: $(tr '\n' '|' <"$TMP/err")"
done
n=$(grep -c '^vit-classify: ' "$TMP/err")
[ "$n" -eq 4 ] && ok "classify: bad images among good: one error line per bad image" || not_ok "classify: bad images among good: $n error lines (want 4)"
if grep -q "$TMP" "$TMP/out"; then not_ok "classify: a bad image named on stdout"; else ok "classify: no bad image on stdout"; fi

# ---------------------------------------------------------------------------
# vit-classify: output shape and correctness

# lines_per_image FILE: the number of result lines after each image line, space-separated
lines_per_image() { awk '/^ /{n++; next} {if (seen) printf "%d ", n; n = 0; seen = 1} END {if (seen) printf "%d ", n}' "$1"; }

run "$CLASSIFY" --top 3 "$MODEL" "$GOOD1" "$GOOD2"
got=$(lines_per_image "$TMP/out")
[ "$rc" -eq 0 ] && [ "$got" = "3 3 " ] && ok "classify: --top 3 prints 3 lines per image" || not_ok "classify: --top 3: exit $rc, lines per image '$got' (want '3 3 ')"
run "$CLASSIFY" "$MODEL" --top 3 "$GOOD1" --threads 1 "$GOOD2"
got=$(lines_per_image "$TMP/out")
[ "$rc" -eq 0 ] && [ "$got" = "3 3 " ] && ok "classify: options after the model and between images" ||
    not_ok "classify: options after the model: exit $rc, lines per image '$got' (want '3 3 ')"
cp "$GOOD1" "$TMP/--top"
run "$CLASSIFY" --top 1 -- "$MODEL" "$TMP/--top"
[ "$rc" -eq 0 ] && [ "$(head -1 "$TMP/out")" = "$TMP/--top" ] && ok "classify: after --, a file named like an option is an image" ||
    not_ok "classify: after --: exit $rc, stdout '$(head -c 200 "$TMP/out" | tr '\n' '|')'"
expect "classify: unknown option after the model" 2 "unknown option '--bogus'" "$CLASSIFY" "$MODEL" "$GOOD1" --bogus
run "$CLASSIFY" --top 50 "$MODEL" "$GOOD1"
got=$(lines_per_image "$TMP/out")
[ "$rc" -eq 0 ] && [ "$got" = "10 " ] && ok "classify: --top 50 on a 10-class model prints 10" || not_ok "classify: --top 50: exit $rc, lines '$got' (want '10 ')"
classes=$(grep '^ ' "$TMP/out" | sed 's/.*(\([0-9]*\))$/\1/' | sort -n | tr '\n' ' ')
[ "$classes" = "0 1 2 3 4 5 6 7 8 9 " ] && ok "classify: --top 50 lists each class once" || not_ok "classify: --top 50 lists classes '$classes'"
pct=$(grep '^ ' "$TMP/out" | awk '{sub("%", "", $1); s += $1} END {printf "%.0f", s}')
[ "$pct" = "100" ] && ok "classify: --top 50 probabilities sum to 100%" || not_ok "classify: --top 50 probabilities sum to $pct%"
run "$CLASSIFY" "$MODEL" "$GOOD1"
got=$(lines_per_image "$TMP/out")
[ "$rc" -eq 0 ] && [ "$got" = "5 " ] && ok "classify: default --top is 5" || not_ok "classify: default top: exit $rc, lines '$got' (want '5 ')"

# every committed sample: the printed top-1 is the label in labels.txt
files=()
while read -r file id label; do files+=("$IMAGES/$file"); done <"$IMAGES/labels.txt"
run "$CLASSIFY" --top 1 "$MODEL" "${files[@]}"
[ "$rc" -eq 0 ] && ok "classify: all ${#files[@]} samples: exit 0" || not_ok "classify: samples: exit $rc: $err"
while read -r file id label; do
    got=$(grep -A1 -x "$IMAGES/$file" "$TMP/out" | sed -n 2p | sed 's/^ *[0-9.]*% *//')
    [ "$got" = "$label ($id)" ] && ok "classify: $file -> $got" || not_ok "classify: $file -> '$got' (want '$label ($id)')"
done <"$IMAGES/labels.txt"

# devices, threads, dtypes
run "$CLASSIFY" --device cpu --top 1 "$MODEL" "$GOOD1"
[ "$rc" -eq 0 ] && grep -q "Ankle boot (9)" "$TMP/out" && grep -q "cpu fp32" "$TMP/err" && ok "classify: --device cpu works" ||
    not_ok "classify: --device cpu: exit $rc: $err"
run "$CLASSIFY" --device auto --threads 1 --dtype fp32 --top 1 -- "$MODEL" "$GOOD1"
[ "$rc" -eq 0 ] && grep -q "Ankle boot (9)" "$TMP/out" && ok "classify: --device auto --threads 1 --dtype fp32 -- works" ||
    not_ok "classify: --device auto --threads 1 --dtype fp32 --: exit $rc: $err"
expect "classify: --device cuda on a CPU-only build" 1 "cannot load '$MODEL': unsupported: .*compiled without CUDA" \
    "$CLASSIFY" --device cuda "$MODEL" "$GOOD1"
run "$CLASSIFY" --help
[ "$rc" -eq 0 ] && grep -q "^usage: vit-classify" "$TMP/err" && ok "classify: --help: usage, exit 0" || not_ok "classify: --help: exit $rc: $err"

# ---------------------------------------------------------------------------
# vit-similar

run "$SIMILAR" "$MODEL" "$GOOD1" "$GOOD1"
[ "$rc" -eq 0 ] && [ "$out" = "cosine similarity: 1.0000" ] && ok "similar: an image with itself: '$out'" ||
    not_ok "similar: an image with itself: exit $rc, '$out' $err"
run "$SIMILAR" "$MODEL" "$GOOD1" "$GOOD2"
sim=${out#cosine similarity: }
[ "$rc" -eq 0 ] && awk -v s="$sim" 'BEGIN {exit !(s + 0 < 0.999 && s + 0 >= -1)}' && ok "similar: two different images: $sim < 1" ||
    not_ok "similar: two different images: exit $rc, '$out' $err"
expect "similar: no arguments" 2 "^usage: vit-similar" "$SIMILAR"
expect "similar: one image" 2 "^usage: vit-similar" "$SIMILAR" "$MODEL" "$GOOD1"
expect "similar: three images" 2 "^usage: vit-similar" "$SIMILAR" "$MODEL" "$GOOD1" "$GOOD1" "$GOOD2"
expect "similar: missing model" 1 "cannot load '$TMP/missing.safetensors': i/o error" "$SIMILAR" "$TMP/missing.safetensors" "$GOOD1" "$GOOD2"
expect "similar: truncated model" 1 "cannot load '$TMP/truncated.safetensors': bad format" "$SIMILAR" "$TMP/truncated.safetensors" "$GOOD1" "$GOOD2"
expect "similar: missing image" 1 "i/o error: cannot open '$TMP/missing.png'" "$SIMILAR" "$MODEL" "$GOOD1" "$TMP/missing.png"
expect "similar: truncated image" 1 "image decode error: '$TMP/truncated.png'" "$SIMILAR" "$MODEL" "$TMP/truncated.png" "$GOOD1"
run "$SIMILAR" "$NOHEAD" "$GOOD1" "$GOOD1"
[ "$rc" -eq 0 ] && [ "$out" = "cosine similarity: 1.0000" ] && ok "similar: a model with no head (vit_embed needs none): '$out'" ||
    not_ok "similar: a model with no head: exit $rc, '$out' $err"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
