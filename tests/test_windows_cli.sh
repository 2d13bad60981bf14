#!/usr/bin/env bash
# test_windows_cli: vit-classify built for Windows gives the Linux build's answers.
#
# usage: bash tests/test_windows_cli.sh LINUX_CLASSIFY WINDOWS_CLASSIFY [CHECK]
#   (run from the repository root; WINDOWS_CLASSIFY runs the .exe, e.g. under Wine
#   through build/win/bin/vit-classify; CHECK: the Linux cli_check, default
#   build/cli_check)
#
# Each case runs both builds on the same arguments: the same exit status, and
# `cli_check same` on their outputs: the labels and file names exact, the
# probabilities and embeddings within 1e-6 (stdout's text line for line; --json
# object by object, beyond the printed precision; --embed and --features files:
# max |diff| / max(1, max |value|)). The two are not bit-identical: their libm
# (expf, erff, tanhf: glibc's, and msvcrt's, Wine's own under Wine) differ in
# the last bits, which CLIP's logit scale (100) lifts to ~1e-6 in a probability. The cases: the
# demo, --json on a folder (a classifier, a model without a head), --embed,
# --features, --labels (CLIP, SigLIP, open_clip), and paths with non-ASCII names
# (日本/кот.png, a model folder модель/), which must also reach the output intact.
# Prints one OK / NOT OK line per check, then "N passed, M failed".
set -u
LIN=${1:?usage: test_windows_cli.sh LINUX_CLASSIFY WINDOWS_CLASSIFY [CHECK]}
WIN=${2:?usage: test_windows_cli.sh LINUX_CLASSIFY WINDOWS_CLASSIFY [CHECK]}
CHECK=${3:-build/cli_check}
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
MODEL=models/fashion_mnist/model.safetensors
NOHEAD=tests/data/ref/timm_noembedclass_nohead/model.safetensors
DINO=tests/data/ref/hf_dinov2
ZCLIP=tests/data/text/clip_tokenizer
ZSIG=tests/data/text/siglip_tokenizer
IMAGES=examples/images

passed=0
failed=0
ok() { echo "OK $*"; passed=$((passed + 1)); }
not_ok() { echo "NOT OK $*"; failed=$((failed + 1)); }

for f in "$LIN" "$WIN" "$CHECK"; do
    [ -x "$f" ] || { echo "NOT OK $f is not built"; echo "0 passed, 1 failed"; exit 1; }
done
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# same NAME [--file OUT] ARGS...: both builds on ARGS (OUT: a file ARGS name,
# written by each build in turn and compared too); their stdout compared
same() {
    local name=$1 out_file=""
    shift
    if [ "$1" = --file ]; then out_file=$2; shift 2; fi
    local args=("$@") rc_l rc_w
    "$LIN" "${args[@]}" >"$TMP/lin.out" 2>"$TMP/lin.err"
    rc_l=$?
    [ -n "$out_file" ] && { mv "$out_file" "$TMP/lin.file" 2>/dev/null || : >"$TMP/lin.file"; }
    "$WIN" "${args[@]}" >"$TMP/win.out" 2>"$TMP/win.err"
    rc_w=$?
    [ -n "$out_file" ] && { mv "$out_file" "$TMP/win.file" 2>/dev/null || : >"$TMP/win.file"; }
    if [ "$rc_l" -ne "$rc_w" ]; then
        not_ok "$name: exit $rc_w on Windows, $rc_l on Linux: $(head -c 300 "$TMP/win.err" | tr '\n' '|')"
        return 1
    fi
    if ! "$CHECK" same "$TMP/win.out" "$TMP/lin.out" >"$TMP/same" 2>&1 || [ ! -s "$TMP/lin.out" -a -z "$out_file" ]; then
        not_ok "$name: stdout differs: $(cat "$TMP/same") $(diff "$TMP/lin.out" "$TMP/win.out" | head -6 | tr '\n' '|')"
        return 1
    fi
    local what
    what=$(cat "$TMP/same")
    if [ -n "$out_file" ]; then
        if [ ! -s "$TMP/lin.file" ] || ! "$CHECK" same "$TMP/win.file" "$TMP/lin.file" >"$TMP/same" 2>&1; then
            not_ok "$name: $out_file differs: $(cat "$TMP/same")"
            return 1
        fi
        what="$what; $(cat "$TMP/same")"
    fi
    ok "$name (exit $rc_l; $what)"
}

# the demo: each sample's top class
same "demo: --top 1 on the samples" --top 1 "$MODEL" "$IMAGES"/*.png
same "--top 3, --threads 2 --batch 3, a folder" --top 3 --threads 2 --batch 3 "$MODEL" "$IMAGES"
# --json on a folder: a classifier, a model without a head (embeddings), a corrupt file among them
T=$TMP/tree
mkdir -p "$T/sub"
cp "$IMAGES"/0000_ankle_boot.png "$IMAGES"/0018_bag.png "$T/"
cp "$IMAGES"/0002_trouser.png "$T/sub/c.jpg"
head -c 300 "$IMAGES/0006_coat.png" >"$T/corrupt.png"
same "--json on a folder (a corrupt file among them)" --json --top 5 "$MODEL" "$T"
same "--json, a model without a head: embeddings" --json "$NOHEAD" "$T"
same "--json, a Hugging Face folder (DINOv2): embeddings" --json "$DINO" "$IMAGES"
# --embed and --features: the safetensors files
same "--embed (a classifier: a second pass)" --file "$TMP/e.safetensors" --quiet --embed "$TMP/e.safetensors" "$MODEL" "$IMAGES"
same "--features --layers 0,-1 --features-norm" --file "$TMP/f.safetensors" --quiet --features "$TMP/f.safetensors" --layers 0,-1 --features-norm "$DINO" "$IMAGES"
same "--features --frames --no-prefix" --file "$TMP/g.safetensors" --quiet --frames --features "$TMP/g.safetensors" --no-prefix "$NOHEAD" "$T/sub" "$IMAGES/0000_ankle_boot.png"
# --labels: zero-shot through the text tower and the tokenizer in the model's folder
same "--labels, CLIP, a template" --json --labels "door, person ,ball" --template "a photo of a {}." "$ZCLIP" "$IMAGES"
same "--labels, SigLIP, text output" --labels "door,a traffic light,person" "$ZSIG" "$IMAGES"
same "--labels, an open_clip folder" --json --labels "door,a traffic_light,Person!" tests/data/text/openclip_clip "$IMAGES/0000_ankle_boot.png"

# non-ASCII names: an image folder 日本 with кот.png, a model folder модель (and a CLIP one), an output file
U=$TMP/$'\xe6\x97\xa5\xe6\x9c\xac'                       # 日本
UM=$TMP/$'\xd0\xbc\xd0\xbe\xd0\xb4\xd0\xb5\xd0\xbb\xd1\x8c' # модель
UC=$TMP/$'caf\xc3\xa9-clip'                              # café-clip
CAT=$U/$'\xd0\xba\xd0\xbe\xd1\x82.png'                  # 日本/кот.png
BAG=$U/$'\xce\xb1/\xe3\x81\x8b\xe3\x81\xb0\xe3\x82\x93.png' # 日本/α/かばん.png
VEC=$U/$'\xd0\xb2\xd0\xb5\xd0\xba\xd1\x82\xd0\xbe\xd1\x80.safetensors' # 日本/вектор.safetensors
mkdir -p "$(dirname "$BAG")" "$UM" "$UC"
cp "$IMAGES/0000_ankle_boot.png" "$CAT"
cp "$IMAGES/0018_bag.png" "$BAG"
cp models/fashion_mnist/* "$UM/"
cp "$ZCLIP"/* "$UC/"
same "non-ASCII: an image named кот.png" --top 2 "$MODEL" "$CAT"
grep -qxF "$CAT" "$TMP/win.out" && ok "non-ASCII: the Windows build prints the name intact" || not_ok "non-ASCII: the name on Windows: $(head -1 "$TMP/win.out" | od -c | head -3)"
same "non-ASCII: a folder 日本 walked (--json)" --json "$MODEL" "$U"
same "non-ASCII: the model folder модель" --json --top 3 "$UM" "$IMAGES"
same "non-ASCII: модель/model.safetensors, 日本/кот.png" --top 1 "$UM/model.safetensors" "$CAT"
same "non-ASCII: --embed into 日本/вектор.safetensors" --file "$VEC" --quiet --embed "$VEC" "$NOHEAD" "$U"
same "non-ASCII: --labels with a CLIP folder café-clip (its tokenizer by a UTF-8 path)" --json --labels "door,person" "$UC" "$CAT"
printf 'door\nchat \xe2\x80\x94 кот\n' >"$U/labels.txt"
same "non-ASCII: --labels-file 日本/labels.txt (a UTF-8 label)" --json --labels-file "$U/labels.txt" "$UC" "$CAT"
same "non-ASCII: a missing 日本/нет.png reported (exit 1)" --json "$MODEL" "$U/"$'\xd0\xbd\xd0\xb5\xd1\x82.png' "$CAT"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
