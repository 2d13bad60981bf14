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


def seed(name, st, cfg, flags=0):
    data = (bytes([1 | flags]) + struct.pack("<H", len(cfg)) + cfg + st) if cfg is not None else (bytes([flags]) + st)
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
    families(seed)
    rng = np.random.default_rng(0)
    img = Image.fromarray(rng.integers(0, 255, (23, 31, 3), dtype=np.uint8))
    for fmt, mode in [("PNG", "RGB"), ("PNG", "RGBA"), ("PNG", "L"), ("JPEG", "RGB"), ("BMP", "RGB"), ("GIF", "P"), ("TGA", "RGB"), ("PPM", "RGB")]:
        buf = io.BytesIO()
        img.convert(mode).save(buf, format=fmt)
        with open(os.path.join(OUT, "corpus_preprocess", f"{fmt.lower()}_{mode.lower()}"), "wb") as f:
            f.write(buf.getvalue())


def families(seed):
    """Tiny models of each family vit.h reads (timm and transformers), some run at another size (flag bit 1)."""
    small = dict(img_size=8, patch_size=4, embed_dim=8, depth=1, num_heads=2, mlp_ratio=2.0)
    timm_cases = {
        "timm_deit_distilled": ("deit_tiny_distilled_patch16_224", dict(num_classes=3)),
        "timm_reg4_dinov2": ("vit_small_patch14_reg4_dinov2", dict(num_classes=3, init_values=0.5)),
        "timm_swiglu_dinov2": ("vit_giant_patch14_dinov2", dict(num_classes=0, mlp_ratio=4.0)),
        "timm_clip_quickgelu": ("vit_base_patch32_clip_quickgelu_224", dict(num_classes=4)),
        "timm_siglip_map": ("vit_base_patch16_siglip_224", dict(num_classes=0)),
        "timm_qknorm": ("vit_tiny_patch16_224", dict(num_classes=3, qk_norm=True)),
    }
    for name, (arch, kw) in timm_cases.items():
        m = timm.create_model(arch, pretrained=False, **{**small, **kw})
        with tempfile.TemporaryDirectory() as d:
            save_for_hf(m, d, safe_serialization=True)
            st = open(os.path.join(d, "model.safetensors"), "rb").read()
            cfg = open(os.path.join(d, "config.json"), "rb").read()
        seed(name, st, cfg)
        if name == "timm_reg4_dinov2":
            seed(name + "_12x8", st, cfg, flags=2 | (2 << 4) | (1 << 2))
    import transformers as tf
    dims = dict(hidden_size=8, num_hidden_layers=1, num_attention_heads=2, intermediate_size=16, image_size=8, patch_size=4)
    hf_cases = {
        "hf_dinov2_registers": tf.Dinov2WithRegistersModel(tf.Dinov2WithRegistersConfig(**{k: v for k, v in dims.items() if k != "intermediate_size"}, mlp_ratio=2, num_register_tokens=2)),
        "hf_clip_vision_proj": tf.CLIPVisionModelWithProjection(tf.CLIPVisionConfig(**dims, projection_dim=4)),
        "hf_siglip_vision": tf.SiglipVisionModel(tf.SiglipVisionConfig(**dims)),
        "hf_deit_teacher": tf.DeiTForImageClassificationWithTeacher(tf.DeiTConfig(**dims, num_labels=3)),
    }
    for name, model in hf_cases.items():
        with tempfile.TemporaryDirectory() as d:
            model.save_pretrained(d, safe_serialization=True)
            seed(name, open(os.path.join(d, "model.safetensors"), "rb").read(), open(os.path.join(d, "config.json"), "rb").read())
            if name == "hf_clip_vision_proj":
                seed(name + "_4x12", open(os.path.join(d, "model.safetensors"), "rb").read(), open(os.path.join(d, "config.json"), "rb").read(), flags=2 | (0 << 4) | (2 << 2))


if __name__ == "__main__":
    main()
