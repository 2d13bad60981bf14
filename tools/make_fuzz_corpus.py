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
    odd_images()


def odd_images():
    """Odd images for fuzz_preprocess: a few of tests/data/images (made by
    tools/make_image_corpus.py) and hostile headers that stb_image's integer arithmetic
    or vit.h's own decoders must survive."""
    src = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "images")
    dst = os.path.join(OUT, "corpus_preprocess")
    for name in ["plain.pbm", "plain_max1000.pgm", "plain_max7.ppm", "raw.pbm", "max65535.pgm", "max300.ppm", "rle8.bmp",
                 "rle4.bmp", "rle8_bw.bmp", "os2_pal8.bmp", "rgb565_bitfields.bmp", "rgba32_v5.bmp", "pal1.bmp",
                 "pal8_out_of_range.bmp", "pal24_with_palette.bmp", "trans.gif", "subframe_trans.gif", "local_palette.gif",
                 "gray_identity.gif", "rle_tr.tga", "pal_rle.tga", "gray16.png", "la16.png", "cmyk_adobe.jpg", "cmyk_no_adobe.jpg",
                 "tiny_4x4_420.jpg", "idat_past_end.png", "zlib_blocks.png", "bad_adler.png", "lzw_no_end.gif", "junk_before_frame.gif",
                 "empty_comment.gif", "frame_past_screen.gif", "rle_literal_across_rows.tga", "cmap_over_256.tga"]:
        with open(os.path.join(src, name), "rb") as f, open(os.path.join(dst, "odd_" + name.replace(".", "_")), "wb") as g:
            g.write(f.read())
    def bmp_header(w, h, bits, comp, colors=0, hs=40):
        return b"BM" + struct.pack("<IHHI", 0, 0, 0, 14 + hs) + struct.pack("<IiiHHIIiiII", hs, w, h, 1, bits, comp, 0, 0, 0, colors, 0) + bytes(hs - 40)
    hostile = {
        "pnm_width_int_max": b"P6 2147483647 2 255\n" + bytes(64),  # stb_image 2.27: signed overflow in its size check
        "pnm_height_huge": b"P5 3 4294967295 255\n" + bytes(64),
        "pnm_token_11": b"P5 99999999999 1 255\n" + bytes(8),
        "pnm_maxval_65536": b"P2 1 1 65536\n1\n",
        "pnm_plain_comment_eof": b"P3 1 1 255\n1 2 #",
        "bmp_width_2g": bmp_header(0x7FFFFFFF, 2, 24, 0) + bytes(64),
        "bmp_topdown_min": bmp_header(4, -0x80000000, 8, 0) + bytes(64),
        "bmp_colors_64k": bmp_header(2, 2, 8, 0, colors=65536) + bytes(64),
        "bmp_rle8_delta_past_end": bmp_header(4, 4, 8, 1, colors=2) + bytes(8) + bytes([0, 2, 255, 255, 4, 1, 0, 1]),
        "bmp_rle4_absolute_long": bmp_header(5, 1, 4, 2, colors=2) + bytes(8) + bytes([0, 255, 0x12, 0x34]),
        "bmp_os2_huge": b"BM" + struct.pack("<IHHI", 0, 0, 0, 26) + struct.pack("<IHHHH", 12, 65535, 65535, 1, 24) + bytes(16),
        "gif_frame_past_screen": b"GIF89a\x04\x00\x04\x00\x80\x00\x00" + bytes(6) + b"\x2c\x00\x00\x00\x00\xff\xff\xff\xff\x00\x02\x02\x44\x01\x00;",
        "tga_huge": bytes([0, 0, 2]) + bytes(9) + struct.pack("<HHBB", 65535, 65535, 24, 0x30) + bytes(32),
        "psd_huge": b"8BPS\x00\x01" + bytes(6) + struct.pack(">HIIHH", 3, 0x7FFFFFFF, 0x7FFFFFFF, 8, 3) + bytes(32),
        "hook_image": bytes([100, 2, 7, 5, 1]) + bytes(range(200)),
        "hook_fail": bytes([70]) + bytes(16),
        "hook_pass_bmp": bytes([10]) + b"BM" + bytes(30),
    }
    for name, data in hostile.items():
        with open(os.path.join(dst, "hostile_" + name), "wb") as f:
            f.write(data)


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



def open_clip_seeds(seed):
    """open_clip folders (open_clip_model.safetensors + open_clip_config.json, both
    towers): OpenAI CLIP's, and a CustomTextCLIP with a shrunken timm SigLIP trunk."""
    import json, math, contextlib
    import open_clip
    from safetensors.torch import save as st_save
    torch.manual_seed(0)
    text = dict(context_length=4, vocab_size=16, width=8, heads=2, layers=1, mlp_ratio=2.0)
    cfgs = {
        "openclip_clip": dict(embed_dim=4, quick_gelu=True, vision_cfg=dict(image_size=8, patch_size=4, width=8, head_width=4, layers=1, mlp_ratio=2.0),
                              text_cfg=text),
        "openclip_siglip": dict(embed_dim=16, init_logit_bias=-10, custom_text=True,
                                vision_cfg=dict(image_size=8, timm_model_name="vit_so400m_patch14_siglip_224", timm_pool="map", timm_proj="none"),
                                text_cfg=dict(text, no_causal_mask=True, proj_bias=True, pool_type="last")),
    }
    orig = timm.create_model

    def small(name, **kw):  # (so400m: 16 heads by its name, here of width 1)
        return orig(name, **dict(kw, img_size=8, patch_size=4, embed_dim=16, depth=1, num_heads=16, mlp_ratio=1.0))
    for name, mc in cfgs.items():
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "open_clip_config.json"), "w") as f:
                json.dump({"model_cfg": mc, "preprocess_cfg": {"mean": [0.5] * 3, "std": [0.5] * 3, "resize_mode": "squash"}}, f)
            open_clip.timm_model.timm.create_model = small
            try:
                model = open_clip.create_model("local-dir:" + d)
            finally:
                open_clip.timm_model.timm.create_model = orig
        with torch.no_grad():
            model.logit_scale.fill_(math.log(30.0))
        if name == "openclip_siglip":  # (bf16: under fuzz_load's -max_len)
            model = model.to(torch.bfloat16)
        st = st_save({k: v.contiguous() for k, v in model.state_dict().items()})
        cfg = json.dumps({"model_cfg": mc, "preprocess_cfg": {"mean": [0.5] * 3, "std": [0.5] * 3, "resize_mode": "squash"}}).encode()
        seed(name, st, cfg)
        if name == "openclip_clip":
            seed(name + "_12x12", st, cfg, flags=2 | (2 << 4) | (2 << 2))


if __name__ == "__main__":
    main()
    open_clip_seeds(seed)
