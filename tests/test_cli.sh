#!/usr/bin/env bash
# test_cli: the command-line tools as a user meets them -- exit codes and messages.
#
# usage: bash tests/test_cli.sh [BUILD]   (BUILD = the build directory, default build;
#                                          run from the repository root)
# VIT_WINDOWS=1: the programs are Windows builds (make test-windows runs them under
# Wine): file names Windows cannot hold and the terminal check are replaced or skipped.
#
# vit-classify (BUILD/vit-classify-cpu) promises: exit 0 when every image was
# classified, 1 when the model or any image failed, 2 on bad usage; results on
# stdout, errors on stderr. vit-similar: 2 on bad usage, 1 on failure. Each
# check prints one OK / NOT OK line; the script ends with "N passed, M failed"
# and exits non-zero on any failure.
set -u

BUILD=${1:-build}
CLASSIFY=${CLASSIFY:-$BUILD/vit-classify-cpu}  # CLASSIFY=build/asan_vit-classify: the same checks on another build
CHECK=${CHECK:-$BUILD/cli_check}    # built as CLASSIFY is: its comparisons are bit-exact
SIMILAR=$BUILD/vit-similar
DENSE=$BUILD/vit-dense
MODEL=models/fashion_mnist/model.safetensors
NOHEAD=tests/data/ref/timm_noembedclass_nohead/model.safetensors
IMAGES=examples/images
GOOD1=$IMAGES/0000_ankle_boot.png
GOOD2=$IMAGES/0018_bag.png
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}

passed=0
failed=0
failures=""  # repeated at the end: a CI log's tail then names them
ok() { echo "OK $*"; passed=$((passed + 1)); }
not_ok() { echo "NOT OK $*"; failed=$((failed + 1)); failures="$failures
NOT OK $(echo "$*" | head -c 400)"; }

for f in "$CLASSIFY" "$SIMILAR" "$DENSE" "$CHECK"; do
    if [ ! -x "$f" ]; then echo "NOT OK $f is not built (make cpu)"; echo "0 passed, 1 failed"; exit 1; fi
done

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# cli_check, its exit status on its stderr when it fails (a crash then says so)
check() { "$CHECK" "$@"; local c=$?; [ "$c" -eq 0 ] || echo "cli_check exit $c" >&2; return "$c"; }

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
expect "classify: --dtype int4" 2 "--dtype wants fp32, bf16, fp16, int8 or fp8, not 'int4'" "$CLASSIFY" --dtype int4 "$MODEL" "$GOOD1"
expect "classify: --residual fp16" 2 "--residual wants fp32 or bf16, not 'fp16'" "$CLASSIFY" --residual fp16 "$MODEL" "$GOOD1"
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
expect "classify: a folder without a model as the model" 1 "cannot load '$TMP': i/o error: '$TMP' is a folder with none of model.safetensors, model.safetensors.index.json, open_clip_model.safetensors" \
    "$CLASSIFY" "$TMP" "$GOOD1"
expect "classify: model truncated to 1000 bytes" 1 "cannot load '$TMP/truncated.safetensors': bad format: .*1000-byte file" \
    "$CLASSIFY" "$TMP/truncated.safetensors" "$GOOD1"
expect "classify: a text file as the model" 1 "cannot load '$TMP/text.safetensors': bad format" \
    "$CLASSIFY" "$TMP/text.safetensors" "$GOOD1"
expect "classify: a PNG as the model" 1 "cannot load '$TMP/image.safetensors': bad format: not a safetensors file \\(it looks like a PNG image\\)$" \
    "$CLASSIFY" "$TMP/image.safetensors" "$GOOD1"
expect "classify: an image given as the model (swapped arguments)" 1 "cannot load '$GOOD1': bad format: not a safetensors file \\(it looks like a PNG image\\)$" \
    "$CLASSIFY" "$GOOD1" "$MODEL"
! grep -q "header length" "$TMP/err" && ok "classify: an image as the model: no header length quoted" || not_ok "classify: an image as the model: '$err'"
# a model folder: model.safetensors and config.json found in it; a sharded one (written by transformers) too
run "$CLASSIFY" --top 2 "$MODEL" "$GOOD1" "$GOOD2"
want_out=$out
run "$CLASSIFY" --top 2 "$(dirname "$MODEL")" "$GOOD1" "$GOOD2"
[ "$rc" -eq 0 ] && [ "$out" = "$want_out" ] && grep -q "Ankle boot" "$TMP/out" && ok "classify: the model's folder as the model: the same output as its file" ||
    not_ok "classify: the model's folder: exit $rc, '$out' '$err'"
run "$CLASSIFY" --json tests/data/ref/hf_dinov2/model.safetensors "$GOOD1"
want_out=$out
run "$CLASSIFY" --json tests/data/sharded/hf_dinov2_sharded "$GOOD1"
[ "$rc" -eq 0 ] && [ -n "$out" ] && [ "$out" = "$want_out" ] && ok "classify: a sharded folder (model.safetensors.index.json): the same output as the single file" ||
    not_ok "classify: a sharded folder: exit $rc, '$err'"
run "$CLASSIFY" "$NOHEAD" "$GOOD1"
if [ "$rc" -eq 0 ] && echo "$out" | grep -Eq "embedding: 32 values, L2 norm [0-9.]+: [-0-9.]+"; then ok "classify: a model with no head prints its embedding"; else not_ok "classify: a model with no head: exit $rc, '$out' '$err'"; fi
CLIPP=tests/data/ref/hf_clip_vision_proj/model.safetensors
run "$CLASSIFY" "$CLIPP" "$GOOD1"
if [ "$rc" -eq 0 ] && echo "$out" | grep -Eq "embedding: 16 values" && grep -q "projection to 16" "$TMP/err"; then ok "classify: a CLIP projection head prints the image embedding"; else not_ok "classify: CLIP projection: exit $rc, '$out' '$err'"; fi

# an embedding model (no classifier head): its name, "embedded", --top refused, --embed quiet per image
HEADLESS=tests/data/ref/hf_vitmodel_headless/model.safetensors
run "$CLASSIFY" "$NOHEAD" "$GOOD1" "$GOOD2"
[ "$rc" -eq 0 ] && grep -q "^model: timm vit_tiny_patch16_224, .*features 32" "$TMP/err" && grep -Eq "^embedded 2 of 2 images in [0-9.]+ s" "$TMP/err" &&
    ! grep -q classified "$TMP/err" && ok "embedding model: the model line names timm's architecture; 'embedded 2 of 2 images'" ||
    not_ok "embedding model: model line / summary: exit $rc, '$(tr '\n' '|' <"$TMP/err")'"
run "$CLASSIFY" "$HEADLESS" "$GOOD1"
[ "$rc" -eq 0 ] && grep -q "^model: Hugging Face ViTModel, " "$TMP/err" && grep -q "^embedded 1 of 1 images" "$TMP/err" &&
    ok "embedding model: the model line names HF's architectures[0] (ViTModel)" || not_ok "embedding model: HF name: exit $rc, '$(tr '\n' '|' <"$TMP/err")'"
run "$CLASSIFY" "$CLIPP" "$GOOD1"
grep -q "^model: Hugging Face CLIPVisionModelWithProjection, " "$TMP/err" && grep -q "^embedded 1 of 1 images" "$TMP/err" &&
    ok "embedding model: CLIPVisionModelWithProjection named, 'embedded'" || not_ok "embedding model: CLIP name: '$(tr '\n' '|' <"$TMP/err")'"
run "$CLASSIFY" tests/data/ref/timm_noconfig/model.safetensors "$GOOD1"
grep -q "^model: timm ViT (no config.json names it), " "$TMP/err" && ok "model line without a config.json says so" ||
    not_ok "model line without config.json: '$(tr '\n' '|' <"$TMP/err")'"
# the preprocessing is never guessed: a model whose files do not state it is refused, naming the file, until flags state it
mkdir -p "$TMP/hf_nopre"
cp tests/data/ref/hf_vit/config.json tests/data/ref/hf_vit/model.safetensors "$TMP/hf_nopre/"
expect "HF folder without preprocessor_config.json: refused" 1 "preprocessor_config.json not found beside the model" "$CLASSIFY" "$TMP/hf_nopre/model.safetensors" "$GOOD1"
grep -q -- "--std" "$TMP/err" && [ -z "$out" ] && ok "HF without preprocessor_config.json: the refusal names --std, nothing on stdout" ||
    not_ok "HF without preprocessor_config.json: '$(tr '\n' '|' <"$TMP/err")' / '$out'"
run "$CLASSIFY" --mean 0.5 --std 0.5,0.5,0.5 --interpolation bilinear --crop-pct 1 --top 1 "$TMP/hf_nopre/model.safetensors" "$GOOD1"
[ "$rc" -eq 0 ] && grep -q "^classified 1 of 1 images" "$TMP/err" && [ -n "$out" ] && ok "HF without preprocessor_config.json: --mean/--std/--interpolation/--crop-pct state it: classified" ||
    not_ok "HF without preprocessor_config.json with flags: exit $rc, '$(tr '\n' '|' <"$TMP/err")'"
# a DINOv2 folder without its processor: the processor's settings stated as flags give its results, to the bit
mkdir -p "$TMP/dino_nopre"
cp tests/data/ref/hf_dinov2/config.json tests/data/ref/hf_dinov2/model.safetensors "$TMP/dino_nopre/"
run "$CLASSIFY" --json tests/data/ref/hf_dinov2 "$IMAGES"
cp "$TMP/out" "$TMP/dino_pre.jsonl"
run "$CLASSIFY" --json --resize shortest_edge=32 --size 28 --interpolation bicubic --mean 0.485,0.456,0.406 --std 0.229,0.224,0.225 "$TMP/dino_nopre" "$IMAGES"
[ "$rc" -eq 0 ] && [ -s "$TMP/out" ] && cmp -s "$TMP/out" "$TMP/dino_pre.jsonl" &&
    ok "HF DINOv2 without preprocessor_config.json: --resize shortest_edge=32 --size 28 and its mean/std give the processor's embeddings, bit for bit" ||
    not_ok "HF DINOv2 stated: exit $rc, '$(tr '\n' '|' <"$TMP/err")'"
expect "--resize shortest_edge without a size" 2 "--resize wants timm, shortest_edge=N or square\[=N\], not 'shortest_edge='" "$CLASSIFY" --std 0.5 --resize shortest_edge= "$MODEL" "$GOOD1"
expect "--resize shortest_edge alone" 1 "needs resize_size" "$CLASSIFY" --std 0.5 --resize shortest_edge "$MODEL" "$GOOD1"
expect "--resize crop" 1 "resize must be" "$CLASSIFY" --std 0.5 --resize crop "$MODEL" "$GOOD1"
expect "no config.json: refused" 1 "config.json not found beside the model" "$CLASSIFY" tests/data/ref/timm_noconfig/model.safetensors "$GOOD1"
run "$CLASSIFY" --std 0.5 --mean 0.5 tests/data/ref/timm_noconfig/model.safetensors "$GOOD1"
[ "$rc" -eq 0 ] && ok "no config.json: --std/--mean state it: classified" || not_ok "no config.json with --std: exit $rc, '$(tr '\n' '|' <"$TMP/err")'"
expect "--interpolation without --std" 1 "only with std" "$CLASSIFY" --interpolation bilinear "$MODEL" "$GOOD1"
expect "--interpolation lanczos" 1 "interpolation must be" "$CLASSIFY" --std 0.5 --interpolation lanczos "$MODEL" "$GOOD1"
expect "--std 1,2" 2 "--std wants one number or three" "$CLASSIFY" --std 1,2 "$MODEL" "$GOOD1"
run "$CLASSIFY" --top 1 "$MODEL" "$GOOD1"
[ "$rc" -eq 0 ] && grep -q "^model: timm vit_tiny_patch16_224, .*classes 10" "$TMP/err" && grep -q "^classified 1 of 1 images" "$TMP/err" &&
    ok "classifier: the model line names it, 'classified 1 of 1 images'" || not_ok "classifier: model line / summary: '$(tr '\n' '|' <"$TMP/err")'"
expect "embedding model: --top refused" 2 "--top: the model has no classifier head" "$CLASSIFY" --top 3 "$NOHEAD" "$GOOD1"
[ -z "$out" ] && ok "embedding model: --top: nothing on stdout" || not_ok "embedding model: --top: stdout '$out'"
expect "projection head: --top refused" 2 "--top: the model has no classifier head \(an image projection\)" "$CLASSIFY" "$CLIPP" "$GOOD1" --top 1
run "$CLASSIFY" --embed "$TMP/nohead.safetensors" "$NOHEAD" "$GOOD1" "$GOOD2"
[ "$rc" -eq 0 ] && [ -z "$out" ] && grep -qx "wrote 2 embeddings (32 floats each) to $TMP/nohead.safetensors" "$TMP/err" &&
    check embed "$TMP/nohead.safetensors" "$NOHEAD" "$GOOD1" "$GOOD2" >/dev/null 2>"$TMP/check_err" &&
    ok "embedding model: --embed: nothing per image on stdout, 'wrote 2 embeddings (32 floats each) to FILE'" ||
    not_ok "embedding model: --embed: exit $rc, $(cat "$TMP/check_err"), stdout '$(head -c 200 "$TMP/out")', stderr '$(tr '\n' '|' <"$TMP/err")'"
run "$CLASSIFY" --json --embed "$TMP/nohead2.safetensors" "$NOHEAD" "$GOOD1" "$GOOD2"
[ "$rc" -eq 0 ] && check json "$TMP/out" "$NOHEAD" >"$TMP/parsed" 2>"$TMP/check_err" && [ "$(wc -l <"$TMP/parsed")" -eq 2 ] &&
    grep -q "^wrote 2 embeddings" "$TMP/err" && cmp -s "$TMP/nohead.safetensors" "$TMP/nohead2.safetensors" &&
    ok "embedding model: --embed --json: the JSON lines too, the same file" ||
    not_ok "embedding model: --embed --json: exit $rc, stderr '$(tr '\n' '|' <"$TMP/err")' $(cat "$TMP/check_err" "$TMP/parsed" 2>/dev/null)"
run "$CLASSIFY" --embed "$TMP/cls.safetensors" --top 1 "$MODEL" "$GOOD1"
[ "$rc" -eq 0 ] && grep -q "Ankle boot" "$TMP/out" && grep -qx "wrote 1 embedding (160 floats each) to $TMP/cls.safetensors" "$TMP/err" &&
    ok "classifier: --embed still prints the classes, and says where it wrote" || not_ok "classifier: --embed: exit $rc, '$out', '$(tr '\n' '|' <"$TMP/err")'"
run "$CLASSIFY" --quiet --embed "$TMP/q.safetensors" "$NOHEAD" "$GOOD1"
[ "$rc" -eq 0 ] && [ -z "$out" ] && [ -z "$err" ] && [ -s "$TMP/q.safetensors" ] && ok "embedding model: --quiet --embed: silent" ||
    not_ok "embedding model: --quiet --embed: exit $rc, '$out' '$err'"

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
run "$CLASSIFY" --residual bf16 --device cpu --top 1 "$MODEL" "$GOOD1"
[ "$rc" -eq 0 ] && grep -q "Ankle boot (9)" "$TMP/out" && ok "classify: --residual bf16 runs (the CPU's rounding of the residual stream)" ||
    not_ok "classify: --residual bf16: exit $rc: $err"
run "$CLASSIFY" --dtype int8 --top 1 "$MODEL" "$GOOD1"
[ "$rc" -eq 0 ] && grep -q "Ankle boot (9)" "$TMP/out" && grep -q "cpu int8" "$TMP/err" && ok "classify: --dtype int8 runs on the CPU in int8" ||
    not_ok "classify: --dtype int8: exit $rc: $err"
run "$CLASSIFY" --dtype fp8 --device cpu --top 1 "$MODEL" "$GOOD1"
[ "$rc" -eq 0 ] && grep -q "Ankle boot (9)" "$TMP/out" && grep -q "cpu fp8" "$TMP/err" && ok "classify: --dtype fp8 runs the CPU's e4m3 reference" ||
    not_ok "classify: --dtype fp8: exit $rc: $err"
expect "classify: --device cuda on a CPU-only build" 1 "cannot load '$MODEL': unsupported: .*compiled without CUDA" \
    "$CLASSIFY" --device cuda "$MODEL" "$GOOD1"
run "$CLASSIFY" --help
[ "$rc" -eq 0 ] && grep -q "^usage: vit-classify" "$TMP/err" && ok "classify: --help: usage, exit 0" || not_ok "classify: --help: exit $rc: $err"

# ---------------------------------------------------------------------------
# vit-classify on folders: recursion, image names only, sorted; corrupt files
# reported and skipped; --json parsed and --embed read back by cli_check (strict
# JSON by vit.h's parser, values recomputed by vit.h one image at a time)

T=$TMP/tree
mkdir -p "$T/sub/deeper" "$T/.hidden_dir" "$T/empty_dir"
cp "$GOOD1" "$T/b_good.png"
cp "$GOOD2" "$T/a_good.PNG"                # any case
cp "$IMAGES/0002_trouser.png" "$T/sub/c.jpg"  # named as a JPEG: vit.h decodes by content
cp "$IMAGES/0008_sandal.png" "$T/sub/deeper/d.bmp"
cp "$IMAGES/0013_dress.png" "$T/sub/b.png"
head -c 300 "$IMAGES/0006_coat.png" >"$T/corrupt.png"
printf 'notes\n' >"$T/notes.txt"
cp "$GOOD1" "$T/.hidden.png"
cp "$GOOD1" "$T/.hidden_dir/x.png"
cp "$GOOD1" "$T/no_extension"
ln -s sub "$T/link_to_sub"
ln -s b_good.png "$T/link_to_b.png"
WANT_ORDER="$T/a_good.PNG $T/b_good.png $T/corrupt.png $T/link_to_b.png $T/sub/b.png $T/sub/c.jpg $T/sub/deeper/d.bmp"
WANT_GOOD="$T/a_good.PNG $T/b_good.png $T/link_to_b.png $T/sub/b.png $T/sub/c.jpg $T/sub/deeper/d.bmp"

run "$CLASSIFY" --top 1 "$MODEL" "$T"
heads=$(grep -v '^ ' "$TMP/out" | tr '\n' ' ')
[ "$rc" -eq 1 ] && ok "folder: a corrupt file among good ones: exit 1" || not_ok "folder: exit $rc (want 1): $err"
[ "$heads" = "$WANT_GOOD " ] && ok "folder: image files only, recursively, sorted, hidden ones skipped, links to files followed" ||
    not_ok "folder: stdout names '$heads' (want '$WANT_GOOD ')"
grep -Eq "image decode error: '$T/corrupt.png': cannot decode image" "$TMP/err" && [ "$(grep -c '^vit-classify: ' "$TMP/err")" -eq 1 ] &&
    ok "folder: the corrupt file reported once, with vit.h's reason" || not_ok "folder: corrupt file report: $(tr '\n' '|' <"$TMP/err")"
grep -q "skipped 2 files in the directories: not named as images" "$TMP/err" && grep -q "skipped 1 link to a directory" "$TMP/err" &&
    ok "folder: non-image names and directory links counted on stderr" || not_ok "folder: skipped counts: $(tr '\n' '|' <"$TMP/err")"
grep -A1 -x "$T/sub/deeper/d.bmp" "$TMP/out" | grep -q "Sandal (5)" && grep -A1 -x "$T/a_good.PNG" "$TMP/out" | grep -q "Bag (8)" &&
    ok "folder: files classified right" || not_ok "folder: wrong classes: $(tr '\n' '|' <"$TMP/out")"
grep -q $'\r' "$TMP/err" && not_ok "folder: progress written to a stderr that is not a terminal" || ok "folder: no progress when stderr is not a terminal"
if [ -n "${VIT_WINDOWS:-}" ]; then
    echo "SKIP folder: progress on a terminal (a Windows build sees a console, not script(1)'s pty)"
elif command -v script >/dev/null; then
    script -qec "$CLASSIFY --top 1 --batch 2 $MODEL $T >/dev/null" /dev/null >"$TMP/tty" 2>&1
    grep -Eq $'\r''[0-9]+/7  [0-9]+ img/s  ETA [0-9]+ s' "$TMP/tty" && ok "folder: progress (count, img/s, ETA) when stderr is a terminal" ||
        not_ok "folder: no progress on a terminal: $(tr '\r\n' '||' <"$TMP/tty" | head -c 300)"
else
    not_ok "folder: script(1) (util-linux) is needed to test the progress on a terminal"
fi

# the same run in every arrangement: threads, batch sizes, the path given with a trailing slash
run "$CLASSIFY" --top 3 --threads 1 --batch 1 "$MODEL" "$T"
cp "$TMP/out" "$TMP/out_t1"
[ "$rc" -eq 1 ] && [ -s "$TMP/out_t1" ] || not_ok "folder: --threads 1 --batch 1 (the runs below compare with it): exit $rc, $(wc -l <"$TMP/out_t1") lines, $err"
same=1
for args in "--threads 4 --batch 3" "--threads 2 --batch 64" "--threads 3 --batch 2"; do
    run "$CLASSIFY" --top 3 $args "$MODEL" "$T/"
    sed "s#^$T//#$T/#" "$TMP/out" | cmp -s - "$TMP/out_t1" || { same=0; not_ok "folder: $args differs from --threads 1 --batch 1"; }
done
[ "$same" -eq 1 ] && ok "folder: identical output for --threads 1/2/3/4 and --batch 1/2/3/64"

# --frames: decode on the threads, the eval transform inside vit_forward_rgb8 per
# same-size group (the GPU path's layout, here on the CPU): the same output;
# images of other sizes (and channels) join the tree for it
cp -r "$T" "$TMP/tree_sizes"
cp tests/data/images/*.png tests/data/images/*.bmp tests/data/images/*.gif "$TMP/tree_sizes/"
run "$CLASSIFY" --top 3 --no-frames --threads 2 --batch 5 "$MODEL" "$TMP/tree_sizes"
cp "$TMP/out" "$TMP/out_noframes"
nsizes=$(grep -c '^/' "$TMP/out_noframes")
run "$CLASSIFY" --top 3 --frames --threads 3 --batch 5 "$MODEL" "$TMP/tree_sizes"
cmp -s "$TMP/out" "$TMP/out_noframes" && [ "$nsizes" -gt 10 ] && ok "folder: --frames (vit_forward_rgb8 per same-size group) = --no-frames on $nsizes images of several sizes" ||
    not_ok "folder: --frames differs from --no-frames ($nsizes images): $(diff "$TMP/out" "$TMP/out_noframes" | head -5 | tr '\n' '|')"
run "$CLASSIFY" --json --frames "$NOHEAD" "$TMP/tree_sizes/sub"
check json "$TMP/out" "$NOHEAD" >/dev/null 2>"$TMP/check_err" && [ "$rc" -eq 0 ] && ok "folder: --frames without a head: embeddings bit-exact" ||
    not_ok "folder: --frames without a head: exit $rc, $(cat "$TMP/check_err")"

# explicit files keep their command-line order and are tried whatever their name
run "$CLASSIFY" --top 1 "$MODEL" "$T/sub/c.jpg" "$T/no_extension" "$T/b_good.png"
heads=$(grep -v '^ ' "$TMP/out" | tr '\n' ' ')
[ "$rc" -eq 0 ] && [ "$heads" = "$T/sub/c.jpg $T/no_extension $T/b_good.png " ] && ok "folder: files named on the command line in their order, any name" ||
    not_ok "folder: explicit files: exit $rc, '$heads'"

# --json: one object per file, errors included, parsed strictly and recomputed
run "$CLASSIFY" --json --top 3 "$MODEL" "$T"
cp "$TMP/out" "$TMP/json"
if [ "$rc" -eq 1 ] && check json "$TMP/json" "$MODEL" >"$TMP/parsed" 2>"$TMP/check_err"; then
    ok "folder: --json: every line strict JSON, valid UTF-8, values as vit.h computes them one by one"
else
    not_ok "folder: --json: exit $rc, cli_check: $(cat "$TMP/check_err")"
fi
names=$(cut -f1 "$TMP/parsed" | tr '\n' ' ')
[ "$names" = "$WANT_ORDER " ] && ok "folder: --json: one line per file, in order" || not_ok "folder: --json files '$names' (want '$WANT_ORDER ')"
grep -q "^$T/corrupt.png	error	image decode error: '$T/corrupt.png': cannot decode image" "$TMP/parsed" &&
    ok "folder: --json: the corrupt file as {\"file\", \"error\"}" || not_ok "folder: --json: no error object: $(tr '\n' '|' <"$TMP/parsed")"
grep -q "^$T/sub/deeper/d.bmp	top	5 " "$TMP/parsed" && ok "folder: --json: top classes" || not_ok "folder: --json: top: $(tr '\n' '|' <"$TMP/parsed")"
grep -q '{"file": "'"$T"'/b_good.png", "top": \[{"index": 9, "label": "Ankle boot", "prob": 0.9' "$TMP/json" &&
    ok "folder: --json: the documented layout" || not_ok "folder: --json layout: $(head -c 300 "$TMP/json")"
check json "$TMP/out_t1" >/dev/null 2>&1 && not_ok "cli_check accepts text output as JSON" || ok "cli_check refuses what is not JSON"

# --json with a model that has no head: embeddings
run "$CLASSIFY" --json "$NOHEAD" "$T/sub"
check json "$TMP/out" "$NOHEAD" >"$TMP/parsed" 2>"$TMP/check_err" && [ "$rc" -eq 0 ] &&
    [ "$(cut -f2- "$TMP/parsed" | tr '\t\n' ': ')" = "embedding:32 embedding:32 embedding:32 " ] &&
    ok "folder: --json without a head: {\"file\", \"embedding\"}, bit-exact" || not_ok "folder: --json without a head: exit $rc, $(cat "$TMP/check_err" "$TMP/parsed")"
run "$CLASSIFY" --json "$CLIPP" "$T/sub/b.png"
check json "$TMP/out" "$CLIPP" >"$TMP/parsed" 2>"$TMP/check_err" && grep -q "	embedding	16$" "$TMP/parsed" &&
    ok "folder: --json with a projection head: the projected embedding" || not_ok "folder: --json projection: $(cat "$TMP/check_err" "$TMP/parsed")"

# file names that JSON must escape; a byte that is not UTF-8 becomes \u00XX
W=$TMP/weird
mkdir -p "$W"
if [ -n "${VIT_WINDOWS:-}" ]; then # names Windows can hold (no control characters, quotes or backslashes; UTF-16): UTF-8 as it is
cp "$GOOD1" "$W/"$'caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac'".png"
cp "$GOOD1" "$W/a'b;c.png"
run "$CLASSIFY" --json --top 1 "$MODEL" "$W"
check json "$TMP/out" >/dev/null 2>"$TMP/check_err" && [ "$(wc -l <"$TMP/out")" -eq 2 ] &&
    grep -Fq '"file": "'"$W"'/caf'$'\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac''.png"' "$TMP/out" &&
    grep -Fq '"file": "'"$W"'/a'"'"'b;c.png"' "$TMP/out" &&
    ok "folder: --json keeps UTF-8 names as they are (Windows: walked through the wide API)" ||
    not_ok "folder: --json names: $(cat "$TMP/check_err") $(cat -v "$TMP/out" | head -c 600)"
else
cp "$GOOD1" "$W/"$'q"b\\s\tt\x01'".png"
cp "$GOOD1" "$W/"$'caf\xc3\xa9 \xff'".png"
cp "$GOOD1" "$W/"$'new\nline'".png"
run "$CLASSIFY" --json --top 1 "$MODEL" "$W"
check json "$TMP/out" >/dev/null 2>"$TMP/check_err" && [ "$(wc -l <"$TMP/out")" -eq 3 ] &&
    grep -Fq '"file": "'"$W"'/caf'$'\xc3\xa9'' \u00ff.png"' "$TMP/out" &&
    grep -Fq '"file": "'"$W"'/new\nline.png"' "$TMP/out" &&
    grep -Fq '"file": "'"$W"'/q\"b\\s\tt\u0001.png"' "$TMP/out" &&
    ok "folder: --json escapes quotes, backslashes, control characters, non-UTF-8 bytes" ||
    not_ok "folder: --json escaping: $(cat "$TMP/check_err") $(cat -v "$TMP/out" | head -c 600)"
fi

# --embed: one F32 tensor of the good files' vit_embed features, and their names
GOODS=($WANT_GOOD)
run "$CLASSIFY" --quiet --embed "$TMP/emb.safetensors" "$MODEL" "$T"
if [ "$rc" -eq 1 ] && check embed "$TMP/emb.safetensors" "$MODEL" "${GOODS[@]}" >"$TMP/check_out" 2>"$TMP/check_err"; then
    ok "folder: --embed: $(cat "$TMP/check_out")"
else
    not_ok "folder: --embed: exit $rc, cli_check: $(cat "$TMP/check_err")"
fi
[ ! -e "$TMP/emb.safetensors.part" ] && ok "folder: --embed leaves no .part file" || not_ok "folder: --embed left its .part file"
run "$CLASSIFY" --quiet --batch 4 --embed "$TMP/emb2.safetensors" "$NOHEAD" "$T/sub" "$GOOD1"
check embed "$TMP/emb2.safetensors" "$NOHEAD" "$T/sub/b.png" "$T/sub/c.jpg" "$T/sub/deeper/d.bmp" "$GOOD1" >/dev/null 2>"$TMP/check_err" && [ "$rc" -eq 0 ] &&
    ok "folder: --embed with a model without a head" || not_ok "folder: --embed without a head: exit $rc $(cat "$TMP/check_err")"
if [ -n "${PYTHON_SAFETENSORS:-}" ]; then  # optional: the safetensors package reads it too
    python3 -c "import sys, json; from safetensors.numpy import load_file; from safetensors import safe_open
t = load_file(sys.argv[1])['embeddings']; m = safe_open(sys.argv[1], 'np').metadata()
assert t.shape == (4, 32) and t.dtype.name == 'float32' and len(json.loads(m['files'])) == 4" "$TMP/emb2.safetensors" &&
        ok "folder: --embed read by Python's safetensors" || not_ok "folder: --embed not read by Python's safetensors"
fi
expect "folder: --embed into a missing directory" 1 "cannot write '$TMP/nodir/e.safetensors.part'" \
    "$CLASSIFY" --embed "$TMP/nodir/e.safetensors" "$MODEL" "$GOOD1"
[ -z "$(cat "$TMP/out")" ] && ok "folder: nothing classified when --embed cannot be written" || not_ok "folder: --embed unwritable: stdout '$out'"

# --decode-only: the decode + preprocess bound, nothing on stdout
run "$CLASSIFY" --decode-only --threads 2 "$MODEL" "$T"
[ "$rc" -eq 1 ] && [ -z "$out" ] && grep -Eq "^decoded 6 of 7 images in [0-9.]+ s: [0-9.]+ img/s \(2 threads, batch 7; 1 failed\)" "$TMP/err" &&
    grep -q "corrupt.png" "$TMP/err" && ok "folder: --decode-only: '$(grep '^decoded' "$TMP/err")'" || not_ok "folder: --decode-only: exit $rc, '$out', $(tr '\n' '|' <"$TMP/err")"

# empty and unreadable directories, usage
run "$CLASSIFY" "$MODEL" "$T/empty_dir"
[ "$rc" -eq 1 ] && [ -z "$out" ] && grep -q "vit-classify: no image files in '$T/empty_dir'" "$TMP/err" && ! grep -q "img/s" "$TMP/err" &&
    ok "folder: a directory with no images: said, exit 1, no rate" || not_ok "folder: empty directory: exit $rc, $err"
run "$CLASSIFY" --top 1 "$MODEL" "$T/empty_dir" "$GOOD1"
[ "$rc" -eq 1 ] && [ "$(head -1 "$TMP/out")" = "$GOOD1" ] && ok "folder: an empty directory among images: the images classified, exit 1" ||
    not_ok "folder: empty directory among images: exit $rc, $err"
run "$CLASSIFY" "$MODEL" "$TMP/text.png" "$TMP/truncated.png"
[ "$rc" -eq 1 ] && [ -z "$out" ] && grep -q "^classified none of 2 images: all failed$" "$TMP/err" && ! grep -q "img/s" "$TMP/err" &&
    ok "classify: no image succeeded: exit 1, no img/s for work not done" || not_ok "classify: no image succeeded: exit $rc, $(tr '\n' '|' <"$TMP/err")"
run "$CLASSIFY" --decode-only "$MODEL" "$TMP/text.png"
[ "$rc" -eq 1 ] && grep -q "^decoded none of 1 images: all failed$" "$TMP/err" && ! grep -q "img/s" "$TMP/err" &&
    ok "classify: --decode-only, nothing decoded: exit 1, no img/s" || not_ok "classify: --decode-only, nothing decoded: exit $rc, $(tr '\n' '|' <"$TMP/err")"
mkdir -p "$TMP/locked"
cp "$GOOD1" "$TMP/locked/x.png"
chmod 000 "$TMP/locked"
if [ -r "$TMP/locked" ]; then
    ok "folder: unreadable directory not testable (running as root)"
else
    run "$CLASSIFY" --top 1 "$MODEL" "$TMP/locked" "$GOOD1"
    [ "$rc" -eq 1 ] && grep -q "cannot open directory '$TMP/locked'" "$TMP/err" && [ "$(head -1 "$TMP/out")" = "$GOOD1" ] &&
        ok "folder: an unreadable directory reported, the rest classified, exit 1" || not_ok "folder: unreadable directory: exit $rc, $err"
fi
chmod 755 "$TMP/locked"
expect "folder: --batch 0" 2 "--batch wants a positive number, not '0'" "$CLASSIFY" --batch 0 "$MODEL" "$T"
expect "folder: --devices garbage" 2 "--devices wants all, cpu or a list of GPU numbers like 0,1, not '0,x'" "$CLASSIFY" --devices 0,x "$MODEL" "$T"
expect "folder: --devices with --device cpu" 2 "--devices names GPUs, --device cpu the CPU" "$CLASSIFY" --devices all --device cpu "$MODEL" "$T"
expect "folder: --devices all on the CPU build" 1 "--devices all: this vit-classify was compiled without CUDA" "$CLASSIFY" --devices all "$MODEL" "$T"
run "$CLASSIFY" --devices cpu --top 1 --quiet "$MODEL" "$GOOD1"
[ "$rc" -eq 0 ] && [ -z "$err" ] && grep -q "Ankle boot (9)" "$TMP/out" && ok "folder: --devices cpu, --quiet: results, nothing on stderr" || not_ok "folder: --devices cpu --quiet: exit $rc, $err"
expect "folder: --decode-only with --embed" 2 "--decode-only computes no features for --embed" "$CLASSIFY" --decode-only --embed "$TMP/x.safetensors" "$MODEL" "$T"

# ---------------------------------------------------------------------------
# vit-similar

# --features: the tokens of blocks, one F32 tensor "block.<k>" [n, T, C] each, every image bit-exact (cli_check)
DINO=tests/data/ref/hf_dinov2
run "$CLASSIFY" --features "$TMP/f.safetensors" --layers 0,-1 "$NOHEAD" "$GOOD1" "$GOOD2"
[ "$rc" -eq 0 ] && [ -z "$out" ] && grep -qx "wrote 2 images' features of blocks 0,1 (17 tokens x 32 each) to $TMP/f.safetensors" "$TMP/err" &&
    check features "$TMP/f.safetensors" "$NOHEAD" 0,-1 0 0 "$GOOD1" "$GOOD2" >/dev/null 2>"$TMP/check_err" && ! ls "$TMP"/f.safetensors.part* >/dev/null 2>&1 &&
    ok "features: --layers 0,-1 of an embedding model: nothing per image on stdout, 'wrote 2 images' features ...', bit-exact, no part files left" ||
    not_ok "features: --layers 0,-1: exit $rc, $(cat "$TMP/check_err"), stdout '$(head -c 200 "$TMP/out")', stderr '$(tr '\n' '|' <"$TMP/err")'"
run "$CLASSIFY" --json --features "$TMP/g.safetensors" --features-norm --no-prefix --layers -2,1 "$DINO" "$GOOD1" "$IMAGES" "$GOOD2"
n_img=$(( $(ls "$IMAGES"/*.png | wc -l) + 2 ))
[ "$rc" -eq 0 ] && [ "$(wc -l <"$TMP/out")" -eq "$n_img" ] && grep -q "^wrote $n_img images' features of blocks 0,1 (49 tokens x 16 each)" "$TMP/err" &&
    check features "$TMP/g.safetensors" "$DINO" -2,1 1 1 "$GOOD1" $(ls "$IMAGES"/*.png | sort) "$GOOD2" >/dev/null 2>"$TMP/check_err" &&
    ok "features: a Hugging Face folder, a folder of images, --json, --features-norm --no-prefix, blocks -2,1 in that order" ||
    not_ok "features: folder / --json / norm / no prefix: exit $rc, $(cat "$TMP/check_err"), stderr '$(tr '\n' '|' <"$TMP/err")'"
run "$CLASSIFY" --frames --features "$TMP/h.safetensors" --features-norm --no-prefix --layers -2,1 "$DINO" "$GOOD1" "$IMAGES" "$GOOD2"
[ "$rc" -eq 0 ] && cmp -s "$TMP/g.safetensors" "$TMP/h.safetensors" && ok "features: --frames (vit_features_rgb8) writes the same file" ||
    not_ok "features: --frames: exit $rc, stderr '$(tr '\n' '|' <"$TMP/err")'"
run "$CLASSIFY" --features "$TMP/c.safetensors" --top 1 "$MODEL" "$GOOD1" "$TMP/missing.png"
[ "$rc" -eq 1 ] && grep -q "Ankle boot" "$TMP/out" && grep -q "^wrote 1 image's features of block 5 (50 tokens x 160 each)" "$TMP/err" &&
    check features "$TMP/c.safetensors" "$MODEL" -1 0 0 "$GOOD1" >/dev/null 2>"$TMP/check_err" &&
    ok "features: a classifier still prints its classes; the failed image is left out of the file (exit 1)" ||
    not_ok "features: classifier: exit $rc, $(cat "$TMP/check_err"), '$out', stderr '$(tr '\n' '|' <"$TMP/err")'"
expect "features: a block out of range" 2 "--layers: vit_features_shape: block 2 is out of range: the model has 2 blocks" "$CLASSIFY" --features "$TMP/x.safetensors" --layers 0,2 "$DINO" "$GOOD1"
[ ! -e "$TMP/x.safetensors" ] && ok "features: nothing written on a bad block" || not_ok "features: a bad block still wrote a file"
expect "features: a repeated block" 2 "block 1 is asked twice" "$CLASSIFY" --features "$TMP/x.safetensors" --layers 1,-1 "$DINO" "$GOOD1"
expect "features: --layers not numbers" 2 "--layers wants block numbers like 5,11 or -2, not '1,a'" "$CLASSIFY" --features "$TMP/x.safetensors" --layers 1,a "$DINO" "$GOOD1"
expect "features: --layers without --features" 2 "--layers, --features-norm and --no-prefix go with --features" "$CLASSIFY" --layers 1 "$DINO" "$GOOD1"
expect "features: --decode-only" 2 "--decode-only computes no features for --features" "$CLASSIFY" --decode-only --features "$TMP/x.safetensors" "$DINO" "$GOOD1"

# --labels: zero-shot classification with a full CLIP / SigLIP folder (text tower + tokenizer files);
# every image's probabilities recomputed by cli_check (vit_encode_texts + vit_zero_shot on its embedding)
ZCLIP=tests/data/text/clip_tokenizer
ZSIG=tests/data/text/siglip_tokenizer
run "$CLASSIFY" --labels "door, person ,ball" --template "a photo of a {}." "$ZCLIP" "$GOOD1" "$GOOD2"
[ "$rc" -eq 0 ] && [ "$(grep -c '%  ' "$TMP/out")" -eq 6 ] && grep -q "^zero-shot: 3 labels in the template 'a photo of a {}.', a softmax over the labels (CLIP)" "$TMP/err" &&
    grep -q "^classified 2 of 2 images" "$TMP/err" &&
    awk '/^[^ ]/ {if (n++) bad += (s < 99.98 || s > 100.02); s = 0} /%  / {s += $1} END {bad += (s < 99.98 || s > 100.02); exit bad}' "$TMP/out" &&
    ok "labels: CLIP, every label per image, the probabilities sum to 100%" || not_ok "labels: CLIP: exit $rc, '$out', stderr '$(tr '\n' '|' <"$TMP/err")'"
run "$CLASSIFY" --json --labels "door, person ,ball" --template "a photo of a {}." "$ZCLIP" "$GOOD1" "$TMP/missing.png" "$GOOD2"
[ "$rc" -eq 1 ] && check json "$TMP/out" "$ZCLIP" "a photo of a {}." door person ball >"$TMP/parsed" 2>"$TMP/check_err" &&
    [ "$(grep -c '	top	' "$TMP/parsed")" -eq 2 ] && [ "$(grep -c '	error	' "$TMP/parsed")" -eq 1 ] &&
    ok "labels: --json, each image's labels and probabilities as vit_zero_shot gives them (a failed image reported, exit 1)" ||
    not_ok "labels: CLIP --json: exit $rc, cli_check: $(cat "$TMP/check_err")"
printf 'door\r\n\n  a traffic light\nperson\n' >"$TMP/labels.txt"
expect "labels: --labels-file, a blank line" 2 "--labels-file: label 2 is empty" "$CLASSIFY" --labels-file "$TMP/labels.txt" "$ZSIG" "$GOOD1"
printf 'door\r\n  a traffic light\nperson' >"$TMP/labels.txt"
run "$CLASSIFY" --json --top 2 --batch 1 --labels-file "$TMP/labels.txt" "$ZSIG" "$GOOD1" "$GOOD2"
[ "$rc" -eq 0 ] && check json "$TMP/out" "$ZSIG" - door "a traffic light" person >"$TMP/parsed" 2>"$TMP/check_err" &&
    [ "$(grep -c '	top	' "$TMP/parsed")" -eq 2 ] && grep -q "each label's sigmoid (SigLIP)" "$TMP/err" && [ "$(grep -o '"prob"' "$TMP/out" | wc -l)" -eq 4 ] &&
    ok "labels: SigLIP from --labels-file (CRLF, no final newline), --top 2, batch 1: as vit_zero_shot gives them" ||
    not_ok "labels: SigLIP: exit $rc, '$out', cli_check: $(cat "$TMP/check_err")"
run "$CLASSIFY" --frames --labels door,person "$ZCLIP/model.safetensors" "$GOOD1"
f1=$(cat "$TMP/out")
run "$CLASSIFY" --no-frames --labels door,person "$ZCLIP/model.safetensors" "$GOOD1"
[ "$rc" -eq 0 ] && [ -n "$out" ] && [ "$out" = "$f1" ] && ok "labels: the model's file (the tokenizer beside it); --frames and --no-frames agree" ||
    not_ok "labels: frames: exit $rc, '$f1' vs '$out', $err"
# open_clip folders (open_clip_model.safetensors + open_clip_config.json + tokenizer files)
for oc in openclip_clip openclip_siglip; do
    run "$CLASSIFY" --json --labels "door,a traffic_light,Person!" --template "a photo of a {}." "tests/data/text/$oc" "$GOOD1" "$GOOD2"
    [ "$rc" -eq 0 ] && check json "$TMP/out" "tests/data/text/$oc" "a photo of a {}." door "a traffic_light" "Person!" >"$TMP/parsed" 2>"$TMP/check_err" &&
        [ "$(grep -c '	top	' "$TMP/parsed")" -eq 2 ] && grep -q "^model: open_clip " "$TMP/err" &&
        ok "labels: an open_clip folder ($oc): as vit_zero_shot gives them" || not_ok "labels: $oc: exit $rc, '$out', cli_check: $(cat "$TMP/check_err")"
done
expect "labels: a model without a text tower" 2 "--labels: the model has no text tower" "$CLASSIFY" --labels a,b "$NOHEAD" "$GOOD1"
expect "labels: an empty label" 2 "--labels: label 2 is empty" "$CLASSIFY" --labels "a, ,b" "$ZCLIP" "$GOOD1"
expect "labels: --labels and --labels-file" 2 "--labels or --labels-file, not both" "$CLASSIFY" --labels a --labels-file "$TMP/labels.txt" "$ZCLIP" "$GOOD1"
expect "labels: --template alone" 2 "--template goes with --labels or --labels-file" "$CLASSIFY" --template "a {}" "$ZCLIP" "$GOOD1"
expect "labels: --decode-only" 2 "--decode-only computes no embeddings for --labels" "$CLASSIFY" --decode-only --labels a "$ZCLIP" "$GOOD1"
expect "labels: a template without {}" 1 "prompt_template 'a photo' must hold one" "$CLASSIFY" --labels a,b --template "a photo" "$ZCLIP" "$GOOD1"
expect "labels: a missing labels file" 1 "cannot read '$TMP/none.txt'" "$CLASSIFY" --labels-file "$TMP/none.txt" "$ZCLIP" "$GOOD1"
mkdir -p "$TMP/notok" && cp "$ZCLIP/model.safetensors" "$ZCLIP/config.json" "$ZCLIP/preprocessor_config.json" "$TMP/notok/"
expect "labels: no tokenizer files beside the model" 1 "cannot load the tokenizer of '$TMP/notok'" "$CLASSIFY" --labels a,b "$TMP/notok" "$GOOD1"

# vit-dense: the last block's patch tokens, 3 principal components as a PNG of the model's input size
cp "$GOOD1" "$TMP/boot.png"
run "$DENSE" tests/data/ref/hf_dinov2 "$TMP/boot.png"
[ "$rc" -eq 0 ] && [ "$out" = "$TMP/boot.png: 7x7 patches of 16 features, 3 principal components -> $TMP/boot_pca.png" ] &&
    [ "$(head -c 24 "$TMP/boot_pca.png" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a0000000d494844520000001c0000001c" ] &&
    ok "dense: writes IMAGE_pca.png beside the image, 28x28 (the model's input)" || not_ok "dense: exit $rc, '$out' '$err'"
run "$DENSE" tests/data/ref/hf_dinov2 "$TMP/boot.png" "$TMP/again.png"
[ "$rc" -eq 0 ] && cmp -s "$TMP/boot_pca.png" "$TMP/again.png" && ok "dense: OUT named; the same picture again (deterministic)" || not_ok "dense: OUT: exit $rc, '$err'"
expect "dense: no arguments" 2 "^usage: vit-dense" "$DENSE"
expect "dense: missing image" 1 "i/o error: cannot open '$TMP/missing.png'" "$DENSE" tests/data/ref/hf_dinov2 "$TMP/missing.png"
expect "dense: unwritable output" 1 "cannot write '$TMP/no/such/dir.png'" "$DENSE" tests/data/ref/hf_dinov2 "$TMP/boot.png" "$TMP/no/such/dir.png"

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

[ "$failed" -eq 0 ] || echo "the failures again:$failures"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
