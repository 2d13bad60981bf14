#!/usr/bin/env python3
"""Benchmark vit.h's text towers and zero-shot classification against transformers, in one run.

GPU (default): two real-size random-init two-tower models, built here from hand-written configs (no hub):
CLIP ViT-B/32 (openai/clip-vit-base-patch32: vision B/32 @224; text 512 wide, 8 heads, 12 blocks, context 77,
vocabulary 49408, quick_gelu, text_config eos_token_id 2 as openai's config (pooled at argmax of the ids);
projection 512) and SigLIP B/16 @224 (google/siglip-base-patch16-224: vision B/16 @224 with the MAP head; text 768
wide, 12 heads, 12 blocks, context 64, vocabulary 32000, gelu_pytorch_tanh). Each is transformers'
CLIPModel / SiglipModel(config) after torch.manual_seed(0) (transformers' own init), logit_scale (and SigLIP's
logit_bias) then set to a trained model's values (exp(logit_scale) 100 / 117.33, logit_bias -12.93), written by
save_pretrained (safetensors) to a temporary folder.

Prompts: "a photo of a {label}." for 1,000 generated labels (an adjective and a noun, or a noun), through
transformers' own tokenizer for the model (AutoTokenizer.from_pretrained), padded to the context:
  CLIP    tests/data/tokenizers/clip: CLIP's BPE (OpenAI's 49,408 tokens, from open_clip's merges), as
          tools/make_tokenizer_reference.py wrote it.
  SigLIP  tests/data/tokenizers/siglip_a: a SentencePiece Unigram model of about 4,000 pieces trained by
          tools/make_tokenizer_reference.py (SigLIP's own has 32,000); its ids are a subset of the
          model's 32,000. For timing; no trained SigLIP vocabulary is needed for that.
If a tokenizer cannot be loaded (e.g. no sentencepiece), ids are drawn at random instead (stated in the report).

Timed (GPU, wall clock, medians; every call host in, host out, synchronous):
  text      vit.h: vit_encode_ids of the 1,000 texts (vit_bench text: max_batch = the texts per call).
            transformers: get_text_features (+ normalisation, fp32 out) of the same ids, eager and
            torch.compile (mode 'default', the text tower only), all 1,000 in one call; and eager / vit.h in
            batches of 64 (vit.h: max_batch 64; no compile: the last batch of 40 would compile again).
  zero-shot 64 random images against the 1,000 label embeddings (computed once, as a user would):
            vit.h: vit_image_embeds (host images) + vit_zero_shot (logits and probs, on the host), and from
            device-resident images (vit_forward_async / vit_embed_async, embeddings copied back);
            transformers eager: get_image_features, normalised, logits = scale * cos (+ bias), softmax
            (CLIP) / sigmoid (SigLIP), from host images (copied in) and from device images.
  tokenize  vit_tokenize of the 1,000 prompts (its ids checked against transformers') beside the
            transformers tokenizer's batch call (padding="max_length"); vit_encode_texts (the prompts' text to
            embeddings in one call) beside that tokenizer call + eager get_text_features.
bf16 (weights and activations) for the timing; fp32 (TF32 off) for the accuracy check and an fp32 timing.
Accuracy: vit.h's text embeddings (and the 64 image embeddings, and the 64 x 1,000 logits) against transformers
fp32 on the GPU: per row |a - b| / |b| (max over rows), 1 - cosine (max), max |diff|; bounds fp32 1e-4,
bf16 2e-2 (max relative error). transformers bf16 against its own fp32 beside it.
Peak memory: vit.h: the device memory the model holds after its first round of calls (cudaMemGetInfo: both towers'
weights, activation arenas for max_batch, graphs, kernel code); transformers: torch.cuda.max_memory_allocated()
over the timed calls (the bf16 model's weights, activations, inputs, outputs).

--cpu: the same models in fp32 on the CPU at a smaller count (--cpu-texts prompts, default 64; --cpu-images
images, default 4, against the 1,000 labels: the encoded prompts repeated), vit.h (build/bench_cpu --text, a fresh
process each round: load and a warm-up round untimed) against transformers eager, --rounds interleaved rounds
of --reps timed calls each, medians; and the same accuracy check against transformers fp32 on the CPU.

--dry-run: the GPU script's PyTorch side on the CPU with 2-block stand-ins (full widths) of both towers, 64
prompts and 4 images in fp32, torch.compile included; vit_bench only if CUDA is there.

Writes a markdown table to stdout and to --out (default bench-text.md; --cpu: bench-text-cpu.md), the raw
results to the .json beside it. Items are skipped once --deadline seconds have passed.

usage: python3 tools/bench_text.py --bin build/vit_bench [--out bench-text.md] [--deadline 300]
       python3 tools/bench_text.py --cpu [--bin build/bench_cpu] [--rounds 5] [--reps 1] [--deadline 900]
       python3 tools/bench_text.py --dry-run
"""

import argparse
import datetime
import json
import math
import os
import random
import re
import statistics
import struct
import subprocess
import sys
import tempfile
import time

import numpy as np
import torch

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import transformers as T  # noqa: E402
from bench import fmt, iters_for, late, log, mib, vit_bench  # noqa: E402
from bench import paired_args, write_text_report as write_report  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
COMPILE_MODE = "default"  # as bench.py's FAMILY_COMPILE_MODE
N_LABELS = 1000
N_IMAGES = 64
SMALL_BATCH = 64
BOUND = {"f32": 1e-4, "bf16": 2e-2}  # max relative error of vit.h's text embeddings against transformers fp32

PLAN = [  # (label, key, tokenizer folder under the repository)
    ("CLIP ViT-B/32", "clip_b32", "tests/data/tokenizers/clip"),
    ("SigLIP B/16 @224", "siglip_b16", "tests/data/tokenizers/siglip_a"),
]


# ---- the models, prompts, ids and images

def model_config(key, tiny):
    blocks = 2 if tiny else 12
    if key == "clip_b32":  # openai/clip-vit-base-patch32's config.json
        return T.CLIPConfig(
            text_config=dict(vocab_size=49408, hidden_size=512, intermediate_size=2048, num_hidden_layers=blocks,
                             num_attention_heads=8, max_position_embeddings=77, hidden_act="quick_gelu",
                             layer_norm_eps=1e-5, bos_token_id=0, eos_token_id=2, pad_token_id=1, projection_dim=512),
            vision_config=dict(hidden_size=768, intermediate_size=3072, num_hidden_layers=blocks, num_attention_heads=12,
                               image_size=224, patch_size=32, hidden_act="quick_gelu", layer_norm_eps=1e-5,
                               projection_dim=512),
            projection_dim=512, logit_scale_init_value=2.6592)
    # google/siglip-base-patch16-224's config.json (its text_config leaves the rest at SiglipTextConfig's defaults)
    return T.SiglipConfig(
        text_config=dict(vocab_size=32000, hidden_size=768, intermediate_size=3072, num_hidden_layers=blocks,
                         num_attention_heads=12, max_position_embeddings=64, hidden_act="gelu_pytorch_tanh",
                         layer_norm_eps=1e-6, pad_token_id=1, eos_token_id=1),
        vision_config=dict(hidden_size=768, intermediate_size=3072, num_hidden_layers=blocks, num_attention_heads=12,
                           image_size=224, patch_size=16, hidden_act="gelu_pytorch_tanh", layer_norm_eps=1e-6,
                           vision_use_head=True))


def build(key, tiny, tmp):
    """The random-init model (fp32, eval, CPU) saved to tmp/key; (model, folder)."""
    t = time.time()
    T.utils.logging.disable_progress_bar()
    clip = key == "clip_b32"
    torch.manual_seed(0)
    model = (T.CLIPModel if clip else T.SiglipModel)(model_config(key, tiny)).eval().float()
    with torch.no_grad():  # a trained model's temperature (and bias), not the init's
        model.logit_scale.fill_(math.log(100.0 if clip else 117.33))
        if not clip:
            model.logit_bias.fill_(-12.93)
    d = os.path.join(tmp, key)
    os.makedirs(d, exist_ok=True)
    model.save_pretrained(d, safe_serialization=True)
    proc = (T.CLIPImageProcessor(size={"shortest_edge": 224}, crop_size={"height": 224, "width": 224}) if clip
            else T.SiglipImageProcessor(size={"height": 224, "width": 224}))
    proc.save_pretrained(d)
    n = sum(p.numel() for p in model.parameters())
    log(f"{key}: built and saved in {time.time() - t:.1f} s ({n / 1e6:.1f} M parameters)")
    return model, d


ADJECTIVES = ("red blue green yellow black white small large old young wooden metal glass plastic striped spotted "
              "wild tiny giant shiny rusty broken ancient modern frozen wet dry hairy fluffy golden silver dark "
              "bright painted sleeping flying running floating").split()
NOUNS = ("cat dog horse cow sheep bird fish frog turtle rabbit bear lion tiger zebra giraffe elephant monkey car "
         "truck bus bicycle train plane boat ship tractor house tree flower mountain river lake beach bridge castle "
         "tower chair table lamp clock phone computer guitar piano violin drum book cup bottle plate bowl pizza "
         "sandwich banana apple orange cake umbrella hat shoe backpack kite balloon robot rocket").split()


def labels(n):
    """n label words: every noun, then adjective-noun pairs drawn without repeats (seed 52)."""
    pairs = [f"{a} {b}" for a in ADJECTIVES for b in NOUNS]
    random.Random(52).shuffle(pairs)
    return (NOUNS + pairs)[:n]


def tokenize(tok_dir, prompts, L, vocab):
    """(ids k x L int32, tokenizer class name or None, ms of one batch call): transformers' tokenizer of the
    folder, padding="max_length"; without one, random ids (a start, the text, an end, padding)."""
    try:
        tok = T.AutoTokenizer.from_pretrained(os.path.join(ROOT, tok_dir))
        call = lambda: tok(prompts, padding="max_length", truncation=True, max_length=L)["input_ids"]  # noqa: E731
        ids = call()
        ts = []
        for _ in range(5):
            t = time.perf_counter()
            call()
            ts.append((time.perf_counter() - t) * 1e3)
        ids = np.array(ids, dtype=np.int32)
        assert ids.shape == (len(prompts), L) and ids.max() < vocab, (ids.shape, ids.max())
        return ids, type(tok).__name__, statistics.median(ts)
    except Exception as e:  # noqa: BLE001
        log(f"tokenizer {tok_dir}: {str(e)[:200]}; random ids instead")
        g = np.random.default_rng(52)
        ids = np.full((len(prompts), L), 1, dtype=np.int32)
        for i, p in enumerate(prompts):
            n = min(L, len(p.split()) + 3)
            ids[i, :n] = g.integers(3, vocab - 3, n)
            ids[i, n - 1] = vocab - 1  # the largest id: CLIP's legacy rule pools at it
        return ids, None, None


def write_inputs(d, ids, prompts, images):
    """ids.bin (int32 k, L, ids), images.bin (int32 n, c, h, w, float32 images), prompts.txt in d."""
    paths = [os.path.join(d, f) for f in ("ids.bin", "images.bin", "prompts.txt")]
    with open(paths[0], "wb") as f:
        f.write(struct.pack("<2i", *ids.shape))
        f.write(ids.astype("<i4").tobytes())
    with open(paths[1], "wb") as f:
        f.write(struct.pack("<4i", *images.shape))
        f.write(images.numpy().astype("<f4").tobytes())
    with open(paths[2], "w", encoding="utf-8") as f:
        f.write("".join(p + "\n" for p in prompts))
    return paths


def read_out(path, K=None):
    """vit_bench text's / bench_cpu --text's OUT.bin: (text k x E, image n x E, logits n x K) as float64."""
    b = open(path, "rb").read()
    k, n, E = struct.unpack("<3i", b[:12])
    a = np.frombuffer(b[12:], dtype="<f4").astype(np.float64)
    K = K or k
    assert a.size == k * E + n * E + n * K, (a.size, k, n, E, K)
    return a[:k * E].reshape(k, E), a[k * E:(k + n) * E].reshape(n, E), a[(k + n) * E:].reshape(n, K)


def compare(a, b):
    """a against the reference b (rows): max relative L2 error, max 1 - cosine, max |diff|."""
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    rel = np.linalg.norm(a - b, axis=1) / np.linalg.norm(b, axis=1)
    cos = (a * b).sum(1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))
    return {"max_rel": float(rel.max()), "max_1mcos": float((1 - cos).max()), "max_abs": float(np.abs(a - b).max())}


def logits_check(a, b):
    """vit.h's logits a against the reference b: max |diff| and the top-1 labels that agree."""
    return {"max_abs": float(np.abs(a - b).max()), "top1_agree": float((a.argmax(1) == b.argmax(1)).mean())}


# ---- transformers' side

def features(out):
    return out if torch.is_tensor(out) else out.pooler_output  # (transformers 5 returns an output object)


class TextEmbeds(torch.nn.Module):
    """ids -> L2-normalised text embeddings in fp32 (transformers' text_embeds)."""

    def __init__(self, model):
        super().__init__()
        self.m = model

    def forward(self, ids):
        f = features(self.m.get_text_features(input_ids=ids)).float()
        return f / f.norm(dim=-1, keepdim=True)


class ZeroShot(torch.nn.Module):
    """(images, label embeddings) -> (image embeddings, logits, probs) as CLIPModel / SiglipModel score them."""

    def __init__(self, model):
        super().__init__()
        self.m, self.clip = model, isinstance(model, T.CLIPModel)

    def forward(self, x, label_embeds):
        f = features(self.m.get_image_features(pixel_values=x)).float()
        f = f / f.norm(dim=-1, keepdim=True)
        logits = f @ label_embeds.T * self.m.logit_scale.float().exp()
        if not self.clip:
            logits = logits + self.m.logit_bias.float()
        return f, logits, logits.softmax(dim=1) if self.clip else torch.sigmoid(logits)


def wall_ms(fn, iters, warm=2):
    """Median wall-clock ms of fn() (which ends in a copy to the host: synchronous)."""
    for _ in range(warm):
        fn()
    ts = []
    for _ in range(iters):
        t = time.perf_counter()
        fn()
        ts.append((time.perf_counter() - t) * 1e3)
    return statistics.median(ts)


def timed(fn, iters, dev):
    """(median ms, peak bytes allocated over the timed calls, or None on the CPU)."""
    if dev != "cuda":
        return wall_ms(fn, iters, warm=1), None
    fn()
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    ms = wall_ms(fn, iters, warm=1)
    return ms, torch.cuda.max_memory_allocated()


def text_flops(model):
    """Matmul FLOPs of one text through the text tower (multiply-adds x 2)."""
    tc = model.config.text_config
    L, C, M, D = tc.max_position_embeddings, tc.hidden_size, tc.intermediate_size, tc.num_hidden_layers
    return D * (2 * L * (4 * C * C + 2 * C * M) + 4 * L * L * C)


def encode_in_batches(fn, ids, bs):
    return torch.cat([fn(ids[i:i + bs]) for i in range(0, len(ids), bs)])


# ---- GPU (and --dry-run on the CPU)

def gpu_run(args):
    dev = "cuda" if not args.dry_run else "cpu"
    if dev == "cuda":
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
        name = torch.cuda.get_device_name()
    else:
        name = "CPU (dry run: 2-block stand-ins of both towers, fp32)"
    k, n = (N_LABELS, N_IMAGES) if not args.dry_run else (64, 4)
    cdtype = torch.bfloat16 if not args.dry_run else torch.float32
    run_bin = os.access(args.bin, os.X_OK) and torch.cuda.is_available()
    log("device", name, "torch", torch.__version__, "transformers", T.__version__)
    r = {"device": name, "torch": torch.__version__, "transformers": T.__version__, "date": datetime.date.today().isoformat(),
         "commit": args.commit, "command": args.command, "dry_run": args.dry_run, "compile_mode": COMPILE_MODE,
         "texts": k, "images": n, "small_batch": SMALL_BATCH, "rows": []}
    tmp = tempfile.mkdtemp(prefix="vit_bench_text_")
    prompts = [f"a photo of a {w}." for w in labels(k)]
    for label, key, tok_dir in PLAN:
        if late(args, label):
            continue
        model, d = build(key, args.dry_run, tmp)
        tc = model.config.text_config
        L, V = tc.max_position_embeddings, tc.vocab_size
        ids, tok_name, tok_ms = tokenize(tok_dir, prompts, L, V)
        g = torch.Generator().manual_seed(7)
        size = model.config.vision_config.image_size
        images = torch.randn(n, 3, size, size, generator=g)
        ids_bin, img_bin, prompts_txt = write_inputs(d, ids, prompts, images)
        row = {"model": label, "family": key, "texts": k, "images": n, "context": L, "vocab": V,
               "text_width": tc.hidden_size, "text_blocks": tc.num_hidden_layers, "tokenizer": tok_name or "random ids",
               "tokenizer_dir": tok_dir, "hf_tokenize_ms": tok_ms, "gflop_per_text": text_flops(model) / 1e9,
               "attn_implementation": getattr(model.config, "_attn_implementation", None)}
        log(label, f"ids {ids.shape} from {row['tokenizer']}; first: {prompts[0]!r} -> {ids[0][:12].tolist()}")

        # ---- vit.h first (with no PyTorch model on the device): bf16 all at once, bf16 in batches of 64, fp32
        guess = k * text_flops(model) / 200e12 * 1e3
        it = max(5, min(20, iters_for(guess)))
        tok_args = [os.path.join(ROOT, tok_dir), prompts_txt] if tok_name else []
        ours = {}
        for tag, dt, bs in (("bf16", "bf16", k), ("bf16_b64", "bf16", SMALL_BATCH), ("f32", "f32", k)):
            if late(args, f"{label} vit.h {tag}"):
                continue
            if not run_bin:
                ours[tag] = {"error": f"not run ({args.bin} not executable or no CUDA)"}
                continue
            out = os.path.join(d, f"out_{tag}.bin")
            o = vit_bench(args.bin, "text", d, dt, bs, it if dt == "bf16" else max(5, it // 3), ids_bin, img_bin, out, *tok_args)
            if "error" not in o:
                o["out"] = out
            ours[tag] = o
            log(label, f"vit.h {tag}:", json.dumps(o))
        row["ours"] = {t: {kk: v for kk, v in o.items() if kk != "out"} for t, o in ours.items()}

        ids_t = torch.from_numpy(ids.astype(np.int64))
        x_host = images.clone()
        with torch.no_grad():  # (as bench_features.py: torch.compile under no_grad)
            # ---- transformers fp32 (TF32 off): the reference, and an fp32 timing
            m32 = model.to(dev)
            te32 = TextEmbeds(m32)
            zs32 = ZeroShot(m32)
            ref_text = encode_in_batches(lambda x: te32(x.to(dev)).cpu(), ids_t, 250).double().numpy()
            ref_img, ref_logits, _ = (t.cpu().double().numpy() for t in zs32(x_host.to(dev), torch.from_numpy(ref_text).float().to(dev)))
            iters32 = 3 if args.dry_run else max(5, min(15, iters_for(guess * 8)))
            if not late(args, f"{label} fp32 eager"):
                row["eager_f32_ms"] = wall_ms(lambda: te32(ids_t.to(dev)).cpu(), iters32)
            del te32, zs32
            model = m32.cpu()
            del m32
            if dev == "cuda":
                torch.cuda.empty_cache()

            # ---- transformers bf16: eager, batches of 64, torch.compile; zero-shot
            mb = model.to(dev).to(cdtype)
            te = TextEmbeds(mb)
            zs = ZeroShot(mb)
            iters = 3 if args.dry_run else iters_for(guess)
            hf_text = te(ids_t.to(dev)).cpu().double().numpy()
            row["eager_ms"], row["eager_mem"] = timed(lambda: te(ids_t.to(dev)).cpu(), iters, dev)
            row["eager_b64_ms"], row["eager_b64_mem"] = timed(
                lambda: encode_in_batches(lambda x: te(x.to(dev)), ids_t, SMALL_BATCH).cpu(), iters, dev)
            lab = torch.from_numpy(hf_text).float().to(dev)
            x_dev = x_host.to(dev).to(cdtype)
            zs_iters = 3 if args.dry_run else 20
            zs_host = lambda: tuple(t.cpu() for t in zs(x_host.to(dev).to(cdtype), lab))  # noqa: E731
            zs_dev = lambda: tuple(t.cpu() for t in zs(x_dev, lab))  # noqa: E731
            img_only = lambda: features(mb.get_image_features(pixel_values=x_host.to(dev).to(cdtype))).float().cpu()  # noqa: E731
            row["zs_host_ms"], row["zs_mem"] = timed(zs_host, zs_iters, dev)
            row["zs_dev_ms"], _ = timed(zs_dev, zs_iters, dev)
            row["image_host_ms"], _ = timed(img_only, zs_iters, dev)
            hf_img, hf_logits, _ = (t.double().numpy() for t in zs_host())
            if not late(args, f"{label} torch.compile"):
                try:
                    t = time.time()
                    cm = torch.compile(te, mode=COMPILE_MODE, dynamic=False)
                    y = cm(ids_t.to(dev)).cpu()
                    cm(ids_t.to(dev)).cpu()
                    row["compile_s"] = time.time() - t
                    row["compile_max_diff"] = float((y.double() - torch.from_numpy(hf_text)).abs().max())
                    row["compile_ms"], row["compile_mem"] = timed(lambda: cm(ids_t.to(dev)).cpu(), iters, dev)
                    del cm, y
                except Exception as e:  # noqa: BLE001
                    row["compile_error"] = str(e)[:300]
                    log(label, "torch.compile:", row["compile_error"])
                torch._dynamo.reset()
            del te, zs, mb, lab, x_dev
            if dev == "cuda":
                torch.cuda.empty_cache()

        # ---- accuracy: against transformers fp32
        acc = {"hf_" + ("bf16" if cdtype == torch.bfloat16 else "f32"): {
            "text": compare(hf_text, ref_text), "image": compare(hf_img, ref_img), "logits": logits_check(hf_logits, ref_logits)}}
        for tag, o in ours.items():
            if "out" in o:
                t_, i_, l_ = read_out(o["out"])
                acc["ours_" + tag] = {"text": compare(t_, ref_text), "image": compare(i_, ref_img), "logits": logits_check(l_, ref_logits)}
        row["accuracy"] = acc
        for tag, bound in (("ours_f32", BOUND["f32"]), ("ours_bf16", BOUND["bf16"])):
            if tag in acc:
                row[tag + "_ok"] = acc[tag]["text"]["max_rel"] <= bound
        r["rows"].append(row)
        log(json.dumps(row))
        write_report(r, args, gpu_text(r), quiet=True)  # a cut-off run still leaves a report
        del model
    done = {row["family"] for row in r["rows"]}
    r["skipped"] = [label for label, key, _ in PLAN if key not in done]
    write_report(r, args, gpu_text(r))
    log("done")
    ok = all(row.get("ours_f32_ok") is not False and row.get("ours_bf16_ok") is not False for row in r["rows"])
    ran = args.dry_run or all("error" not in o for row in r["rows"] for o in row["ours"].values())
    return 0 if r["rows"] and ok and ran else 1


def vs(a, b):
    """a's time over b's (b: vit.h), or '-'."""
    return f"{a / b:.2f}x" if a and b else "-"


def g(o, key, spec=".2f"):
    return fmt(o.get(key) if o else None, spec)


def gpu_text(r):
    k, n = r["texts"], r["images"]
    L = [f"## Text towers and zero-shot: vit.h vs transformers\n"]
    L.append(f"Date: {r['date']}. Device: {r['device']}. Commit: {r['commit']}. torch {r['torch']}, transformers "
             f"{r['transformers']}. Command: `{r['command']}`.\n")
    L.append(f"Random-init real-size CLIP ViT-B/32 and SigLIP B/16 @224 (transformers' init after torch.manual_seed(0), "
             f"hand-written configs of openai/clip-vit-base-patch32 and google/siglip-base-patch16-224), "
             f"{'bf16' if not r['dry_run'] else 'fp32 (dry run)'}; {k} prompts \"a photo of a {{label}}.\" through "
             "transformers' tokenizer, padded to the context. ms, medians of wall-clock timings, host ids in and host "
             "fp32 embeddings out on both sides (every call synchronous). vit.h: vit_encode_ids (vit_bench text, max_batch = "
             "the texts per call); transformers: get_text_features + normalisation, eager and torch.compile (mode '"
             f"{r['compile_mode']}', the text tower alone).\n")
    L.append(f"| model | vit.h, {k} at once | eager, {k} at once | torch.compile, {k} at once | vs eager | vs torch.compile | "
             f"vit.h texts/s | vit.h, batches of {r['small_batch']} | eager, batches of {r['small_batch']} | vs eager | "
             "vit.h fp32 | eager fp32 | peak MiB: vit.h / vit.h b64 / eager / torch.compile |")
    L.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for m in r["rows"]:
        o, o64, o32 = (m["ours"].get(t, {}) for t in ("bf16", "bf16_b64", "f32"))
        ours, ours64 = o.get("encode_ms"), o64.get("encode_ms")
        L.append(f"| {m['model']} | {fmt(ours, '.2f')} | {fmt(m.get('eager_ms'), '.2f')} | {fmt(m.get('compile_ms'), '.2f')} | "
                 f"{vs(m.get('eager_ms'), ours)} | {vs(m.get('compile_ms'), ours)} | {g(o, 'texts_s', ',.0f')} | "
                 f"{fmt(ours64, '.2f')} | {fmt(m.get('eager_b64_ms'), '.2f')} | {vs(m.get('eager_b64_ms'), ours64)} | "
                 f"{g(o32, 'encode_ms')} | {fmt(m.get('eager_f32_ms'), '.2f')} | "
                 f"{mib(o.get('mem_bytes'))} / {mib(o64.get('mem_bytes'))} / {mib(m.get('eager_mem'))} / {mib(m.get('compile_mem'))} |")
    L.append("")
    L.append(f"Zero-shot: {n} random images against the {k} label embeddings (computed once). vit.h: vit_image_embeds "
             f"(host images) + vit_zero_shot (logits and probs, {n} x {k}, on the host); 'device images': "
             "vit_forward_async / vit_embed_async from device-resident images, the embeddings copied back and normalised, "
             "+ vit_zero_shot. transformers eager: get_image_features, normalisation, logit_scale * cos (+ logit_bias), "
             "softmax (CLIP) / sigmoid (SigLIP), all to the host; host images copied in, or device-resident ones. "
             "vit.h bf16 (max_batch = the texts, as above).\n")
    L.append("| model | vit.h image_embeds | vit.h image, device images | vit.h vit_zero_shot | vit_zero_shot, logits only | "
             "vit.h total | vit.h total, device images | eager image features | eager total | eager total, device images | "
             "vs eager total | peak MiB eager |")
    L.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for m in r["rows"]:
        o = m["ours"].get("bf16", {})
        L.append(f"| {m['model']} | {g(o, 'image_ms')} | {g(o, 'image_dev_ms')} | {g(o, 'zero_shot_ms')} | "
                 f"{g(o, 'zero_shot_logits_ms')} | {g(o, 'total_ms')} | {g(o, 'total_dev_ms')} | {fmt(m.get('image_host_ms'), '.2f')} | "
                 f"{fmt(m.get('zs_host_ms'), '.2f')} | {fmt(m.get('zs_dev_ms'), '.2f')} | "
                 f"{vs(m.get('zs_host_ms'), o.get('total_ms'))} | "
                 f"{mib(m.get('zs_mem'))} |")
    L.append("")
    L.append(f"Tokenizing the {k} prompts (ms): vit_tokenize one prompt at a time (vit_bench) against the transformers "
             "tokenizer's batch call, and the texts whose ids differ: " + "; ".join(
                 f"{m['model']} ({m['tokenizer']}, {m['tokenizer_dir']}): vit.h {g(m['ours'].get('bf16'), 'tokenize_ms')}, "
                 f"transformers {fmt(m.get('hf_tokenize_ms'), '.2f')}, {m['ours'].get('bf16', {}).get('tokenize_mismatch', '-')} differ"
                 for m in r["rows"]) + f". From the prompts' text to their embeddings ({k} at once): vit_encode_texts "
             "(vit_tokenize + vit_encode_ids in one call; its embeddings against vit_encode_ids', max |diff|) against the "
             "transformers tokenizer + eager get_text_features (the sum of the two medians): " + "; ".join(
                 f"{m['model']}: vit.h {g(m['ours'].get('bf16'), 'encode_texts_ms')} "
                 f"({g(m['ours'].get('bf16'), 'encode_texts_max_diff', '.3g')}), transformers "
                 f"{fmt(m['hf_tokenize_ms'] + m['eager_ms'] if m.get('hf_tokenize_ms') and m.get('eager_ms') else None, '.2f')}"
                 for m in r["rows"]) + ".\n")
    L.append("Accuracy against transformers fp32 on the same device (TF32 off): per text |a - b| / |b| (max over the texts), "
             "1 - cosine (max), and the logits' max |diff| and top-1 agreement over the images; bounds on vit.h's text "
             f"embeddings: fp32 {BOUND['f32']:g}, bf16 {BOUND['bf16']:g}.\n")
    L.append("| model | engine | text max rel err | text max 1 - cos | image max rel err | logits max abs diff | top-1 agree | within bound |")
    L.append("|---|---|---|---|---|---|---|---|")
    names = {"ours_f32": "vit.h fp32", "ours_bf16": "vit.h bf16", "ours_bf16_b64": "vit.h bf16, max_batch 64",
             "hf_bf16": "transformers bf16", "hf_f32": "transformers fp32 (dry run)"}
    for m in r["rows"]:
        for tag, a in m.get("accuracy", {}).items():
            ok = m.get(tag + "_ok")
            L.append(f"| {m['model']} | {names.get(tag, tag)} | {a['text']['max_rel']:.2e} | {a['text']['max_1mcos']:.2e} | "
                     f"{a['image']['max_rel']:.2e} | {a['logits']['max_abs']:.3g} | {a['logits']['top1_agree']:.3f} | "
                     f"{'-' if ok is None else 'yes' if ok else 'NO'} |")
    L.append("")
    L.append("Peak memory: vit.h = the device memory the model holds after its first round of calls (cudaMemGetInfo against "
             "before the load: both towers' weights, activation arenas for max_batch, graphs, kernel code); per model: " + "; ".join(
                 f"{m['model']}: image tower weights {mib(m['ours'].get('bf16', {}).get('weights_bytes'))} MiB, arena "
                 f"{mib(m['ours'].get('bf16', {}).get('arena_bytes'))} MiB (max_batch {k}) / "
                 f"{mib(m['ours'].get('bf16_b64', {}).get('arena_bytes'))} MiB (64), text tower weights "
                 f"{mib(m['ours'].get('bf16', {}).get('text_weights_bytes'))} MiB, arena "
                 f"{mib(m['ours'].get('bf16', {}).get('text_arena_bytes'))} / {mib(m['ours'].get('bf16_b64', {}).get('text_arena_bytes'))} MiB"
                 for m in r["rows"]) + ". transformers = torch.cuda.max_memory_allocated() over the timed calls (the bf16 "
             "model, both towers, its activations, inputs and outputs).\n")
    L.append("Checks: " + "; ".join(
        f"{m['model']}: torch.compile vs eager max |diff| {fmt(m.get('compile_max_diff'), '.3g')}"
        + (f", compiled in {m['compile_s']:.0f} s" if m.get("compile_s") else "")
        + f", vit.h device vs host images max |diff| {g(m['ours'].get('bf16'), 'image_dev_max_diff', '.3g')}" for m in r["rows"]) + ".\n")
    errs = [f"{m['model']} vit.h {t}: {o['error']}" for m in r["rows"] for t, o in m["ours"].items() if o.get("error")]
    errs += [f"{m['model']} torch.compile: {m['compile_error']}" for m in r["rows"] if m.get("compile_error")]
    if errs:
        L.append("Failed: " + "; ".join(errs) + ".\n")
    if r.get("skipped"):
        L.append("Not reached before the deadline: " + ", ".join(r["skipped"]) + ".\n")
    return "\n".join(L)


# ---- CPU (--cpu)

def cpu_text_ms(binary, d, ids_bin, img_bin, K, reps, out, threads):
    env = dict(os.environ, OMP_WAIT_POLICY="active", OMP_NUM_THREADS=str(threads))
    line = subprocess.run([binary, "--text", d, ids_bin, img_bin, str(K), str(reps), out],
                          capture_output=True, text=True, check=True, env=env).stdout
    f = lambda what: float(re.search(what + r" median ([0-9.]+) ms", line).group(1))  # noqa: E731
    return f("encode"), f("image"), f("zero_shot")


def cpu_run(args):
    import bench_cpu  # the CPU's name and vector ISA, as bench_cpu.py prints them
    torch.set_num_threads(args.threads)
    k, n, K = args.cpu_texts, args.cpu_images, N_LABELS
    r = {"device": f"{bench_cpu.cpu_name()} ({bench_cpu.cpu_isa()}), {args.threads} threads", "torch": torch.__version__,
         "transformers": T.__version__, "date": datetime.date.today().isoformat(), "commit": args.commit,
         "command": args.command, "rounds": args.rounds, "reps": args.reps, "texts": k, "images": n, "labels": K, "rows": []}
    log("device", r["device"], "torch", torch.__version__, "transformers", T.__version__)
    tmp = tempfile.mkdtemp(prefix="vit_bench_text_cpu_")
    prompts = [f"a photo of a {w}." for w in labels(K)][:k]
    for label, key, tok_dir in PLAN:
        if late(args, label):
            continue
        model, d = build(key, False, tmp)
        tc = model.config.text_config
        ids, tok_name, _ = tokenize(tok_dir, prompts, tc.max_position_embeddings, tc.vocab_size)
        size = model.config.vision_config.image_size
        images = torch.randn(n, 3, size, size, generator=torch.Generator().manual_seed(7))
        ids_bin, img_bin, _ = write_inputs(d, ids, prompts, images)
        out = os.path.join(d, "out.bin")
        ids_t = torch.from_numpy(ids.astype(np.int64))
        te, zs = TextEmbeds(model), ZeroShot(model)
        res = {"vit.h": {"encode": [], "image": [], "zero_shot": []}, "eager": {"encode": [], "image": [], "zero_shot": []}}
        with torch.inference_mode():
            ref_text = te(ids_t)  # the warm-up (vit.h's is in each of its runs), and the reference
            lab = ref_text[torch.arange(K) % k]  # the k embeddings repeated to K labels, as bench_cpu --text does
            ref_img, ref_logits, _ = zs(images, lab)
            for rnd in range(args.rounds):
                if rnd and late(args, f"{label} round {rnd + 1}"):
                    break
                for part, v in zip(("encode", "image", "zero_shot"), cpu_text_ms(args.bin, d, ids_bin, img_bin, K, args.reps, out, args.threads)):
                    res["vit.h"][part].append(v)
                ts = {"encode": [], "image": [], "zero_shot": []}
                for _ in range(args.reps):
                    t0 = time.perf_counter()
                    te(ids_t)
                    t1 = time.perf_counter()
                    f = features(model.get_image_features(pixel_values=images)).float()
                    f = f / f.norm(dim=-1, keepdim=True)
                    t2 = time.perf_counter()
                    logits = f @ lab.T * model.logit_scale.exp()
                    if key != "clip_b32":
                        logits = logits + model.logit_bias
                    (logits.softmax(dim=1) if key == "clip_b32" else torch.sigmoid(logits))
                    t3 = time.perf_counter()
                    for part, dt in zip(ts, (t1 - t0, t2 - t1, t3 - t2)):
                        ts[part].append(dt * 1e3)
                for part, v in ts.items():
                    res["eager"][part].append(statistics.median(v))
                log(label, "round", rnd + 1, {e: {p: round(v[-1], 1) for p, v in x.items()} for e, x in res.items()})
        t_, i_, l_ = read_out(out, K)
        acc = {"text": compare(t_, ref_text.double().numpy()), "image": compare(i_, ref_img.double().numpy()),
               "logits": logits_check(l_, ref_logits.double().numpy())}
        row = {"model": label, "family": key, "tokenizer": tok_name or "random ids", "rounds": res, "accuracy": acc,
               "ok": acc["text"]["max_rel"] <= BOUND["f32"],
               **{f"{e}_{p}_ms": statistics.median(v) for e, x in res.items() for p, v in x.items() if v}}
        r["rows"].append(row)
        log(json.dumps({kk: v for kk, v in row.items() if kk != "rounds"}))
        write_report(r, args, cpu_text(r), quiet=True)
        del model, te, zs
    write_report(r, args, cpu_text(r))
    log("done")
    return 0 if r["rows"] and all(row["ok"] for row in r["rows"]) else 1


def cpu_text(r):
    k, n, K = r["texts"], r["images"], r["labels"]
    L = ["## Text towers and zero-shot on the CPU: vit.h vs transformers eager\n"]
    L.append(f"Date: {r['date']}. CPU: {r['device']}. Commit: {r['commit']}. torch {r['torch']}, transformers "
             f"{r['transformers']}. Command: `{r['command']}`.\n")
    L.append(f"fp32; {k} prompts (not 1,000: a CPU of a few cores takes tens of ms per text) encoded in one call; "
             f"zero-shot of {n} images against {K} labels (the {k} text embeddings repeated); ms, the median over "
             f"{r['rounds']} interleaved rounds of each engine's median of {r['reps']} timed calls (a machine shared "
             "with other jobs: the rounds are in the .json). vit.h: bench_cpu --text (vit_encode_ids, vit_image_embeds, "
             "vit_zero_shot with logits and probs), a fresh process each round. transformers eager: get_text_features "
             "+ normalisation; get_image_features + normalisation; logits and softmax / sigmoid.\n")
    L.append(f"| model | vit.h encode {k} | eager encode {k} | vs eager | vit.h image_embeds {n} | eager image {n} | "
             f"vs eager | vit.h vit_zero_shot {n} x {K} | eager logits + probs | per round: encode vs eager |")
    L.append("|---|---|---|---|---|---|---|---|---|---|")
    for m in r["rows"]:
        def ratio(p):
            a, b = m.get(f"eager_{p}_ms"), m.get(f"vit.h_{p}_ms")
            return f"{a / b:.2f}x" if a and b else "-"
        rs = [t / v for v, t in zip(m["rounds"]["vit.h"]["encode"], m["rounds"]["eager"]["encode"]) if v]
        paired = f"{statistics.median(rs):.2f}x ({min(rs):.2f}-{max(rs):.2f})" if rs else "-"
        L.append(f"| {m['model']} | {fmt(m.get('vit.h_encode_ms'), ',.0f')} | {fmt(m.get('eager_encode_ms'), ',.0f')} | {ratio('encode')} | "
                 f"{fmt(m.get('vit.h_image_ms'), ',.0f')} | {fmt(m.get('eager_image_ms'), ',.0f')} | {ratio('image')} | "
                 f"{fmt(m.get('vit.h_zero_shot_ms'), '.2f')} | {fmt(m.get('eager_zero_shot_ms'), '.2f')} | {paired} |")
    L.append("")
    L.append("vit.h vs eager = eager's time / vit.h's (the medians); per round: the median (range) of each round's ratio.\n")
    L.append(f"Accuracy of vit.h fp32 against transformers fp32 on the CPU (bound on the text embeddings' max relative error: "
             f"{BOUND['f32']:g}): " + "; ".join(
                 f"{m['model']} ({m['tokenizer']}): text max rel err {m['accuracy']['text']['max_rel']:.2e}, max 1 - cos "
                 f"{m['accuracy']['text']['max_1mcos']:.2e}; image max rel err {m['accuracy']['image']['max_rel']:.2e}; logits max "
                 f"|diff| {m['accuracy']['logits']['max_abs']:.3g}, top-1 agree {m['accuracy']['logits']['top1_agree']:.2f}"
                 f"{'' if m['ok'] else ' (OUT OF BOUND)'}" for m in r["rows"]) + ".\n")
    return "\n".join(L)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cpu", action="store_true", help="the CPU comparison at a smaller count (see usage)")
    ap.add_argument("--cpu-texts", type=int, default=64, help="--cpu: prompts encoded per call")
    ap.add_argument("--cpu-images", type=int, default=4, help="--cpu: images classified per call")
    args = paired_args(ap, "text", (300, 900), reps=1)
    return cpu_run(args) if args.cpu else gpu_run(args)


if __name__ == "__main__":
    sys.exit(main())
