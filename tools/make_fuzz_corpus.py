"""Seed corpus for tests/fuzz: tiny models written by timm and transformers
themselves (so the seeds carry real headers), in the fuzz_load input layout
(see tests/fuzz/fuzz_load.c), plus a few small images for fuzz_preprocess.

    python3 tools/make_fuzz_corpus.py   # writes tests/fuzz/corpus_*/
"""
import io, os, struct, tempfile
import torch, timm
from timm.models._hub import save_for_hf
from PIL import Image
import numpy as np

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "fuzz")


def seed(name, st, cfg):
    data = (bytes([1]) + struct.pack("<H", len(cfg)) + cfg + st) if cfg is not None else (bytes([0]) + st)
    with open(os.path.join(OUT, "corpus_load", name), "wb") as f:
        f.write(data)


def main():
    torch.manual_seed(0)
    os.makedirs(os.path.join(OUT, "corpus_load"), exist_ok=True)
    os.makedirs(os.path.join(OUT, "corpus_preprocess"), exist_ok=True)
    variants = {
        "timm_token": dict(),
        "timm_avg_noclass": dict(class_token=False, global_pool="avg"),
        "timm_ls_nobias": dict(init_values=0.1, qkv_bias=False),
        "timm_noembedclass": dict(no_embed_class=True),
    }
    for name, kw in variants.items():
        m = timm.create_model("vit_tiny_patch16_224", pretrained=False, img_size=8, patch_size=4, embed_dim=8,
                              depth=1, num_heads=2, mlp_ratio=2.0, num_classes=3, **kw)
        for dtype in ([torch.float32, torch.float16, torch.bfloat16] if name == "timm_token" else [torch.float32]):
            with tempfile.TemporaryDirectory() as d:
                save_for_hf(m.to(dtype), d, safe_serialization=True)
                st = open(os.path.join(d, "model.safetensors"), "rb").read()
                cfg = open(os.path.join(d, "config.json"), "rb").read()
            tag = {torch.float32: "f32", torch.float16: "f16", torch.bfloat16: "bf16"}[dtype]
            seed(f"{name}_{tag}", st, cfg)
            if name == "timm_token" and dtype == torch.float32:
                seed(f"{name}_noconfig", st, None)
    from transformers import ViTConfig, ViTForImageClassification
    hf = ViTForImageClassification(ViTConfig(hidden_size=8, num_hidden_layers=1, num_attention_heads=2,
                                             intermediate_size=16, image_size=8, patch_size=4, num_labels=3))
    with tempfile.TemporaryDirectory() as d:
        hf.save_pretrained(d, safe_serialization=True)
        seed("hf_vit", open(os.path.join(d, "model.safetensors"), "rb").read(), open(os.path.join(d, "config.json"), "rb").read())
    rng = np.random.default_rng(0)
    img = Image.fromarray(rng.integers(0, 255, (23, 31, 3), dtype=np.uint8))
    for fmt, mode in [("PNG", "RGB"), ("PNG", "RGBA"), ("PNG", "L"), ("JPEG", "RGB"), ("BMP", "RGB"), ("GIF", "P"), ("TGA", "RGB"), ("PPM", "RGB")]:
        buf = io.BytesIO()
        img.convert(mode).save(buf, format=fmt)
        with open(os.path.join(OUT, "corpus_preprocess", f"{fmt.lower()}_{mode.lower()}"), "wb") as f:
            f.write(buf.getvalue())


if __name__ == "__main__":
    main()
