"""vit-classify against timm on real photos: a timm ViT with random-init weights
(saved by timm itself), the committed images of tests/data/preprocess/images,
top-5 of timm's eval transform + model vs the top-5 that vit-classify prints.
Exits non-zero when any top-5 list differs.

    make build/vit-classify && python3 tools/check_classify_timm.py [--model vit_small_patch16_224] [--bin build/vit-classify]
"""
import argparse, glob, os, re, subprocess, sys, tempfile
import torch, timm
from timm.models._hub import save_for_hf
from PIL import Image


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="vit_small_patch16_224")
    ap.add_argument("--bin", default="build/vit-classify")
    ap.add_argument("--images", default="tests/data/preprocess/images")
    ap.add_argument("--args", default="", help="extra vit-classify options, e.g. '--device cuda --dtype fp32'")
    args = ap.parse_args()
    torch.manual_seed(0)
    model = timm.create_model(args.model, pretrained=False).eval()
    with torch.no_grad():  # random init, but with decisive logits: widen the head
        model.head.weight.mul_(20.0)
    cfg = timm.data.resolve_data_config({}, model=model)
    transform = timm.data.create_transform(**cfg)
    images = sorted(p for p in glob.glob(os.path.join(args.images, "*")) if not p.endswith(".txt"))
    failed = 0
    with tempfile.TemporaryDirectory() as d:
        save_for_hf(model, d, safe_serialization=True)
        out = subprocess.run([args.bin, "--top", "5", *args.args.split(), os.path.join(d, "model.safetensors"), *images],
                             capture_output=True, text=True)
        if out.returncode != 0:
            print(out.stderr)
            sys.exit(1)
        ours, current = {}, None
        for line in out.stdout.splitlines():
            if not line.startswith(" "):
                current = line.strip()
                ours[current] = []
            else:
                ours[current].append(int(re.search(r"\((\d+)\)\s*$", line).group(1)))
        for path in images:
            x = transform(Image.open(path).convert("RGB")).unsqueeze(0)
            with torch.no_grad():
                theirs = model(x).softmax(-1)[0].topk(5).indices.tolist()
            same = ours.get(path) == theirs
            failed += not same
            print(f"{'OK' if same else 'NOT OK'} {os.path.basename(path)}: timm {theirs} vit-classify {ours.get(path)}")
    print(f"{len(images) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
