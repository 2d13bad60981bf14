#!/usr/bin/env python3
"""Generate the text-tower reference cases under tests/data/text/ for vit.h.

Each case is a small random-weight two-tower model (transformers CLIPModel or
SiglipModel, save_pretrained) with text.bin: images, token id sequences and
what transformers computes from them in float64 (layout in
tests/data/text/README.md):

    int32   header[8] = {0x54584554 ('TEXT'), n, c, h, w, k, L, E}
    float32 images[n][c][h][w]        already normalised (torch.randn)
    int32   ids[k][L]                 input_ids, L = text_config.max_position_embeddings
    float32 image_embeds[n][E]        normalised (CLIPOutput / SiglipOutput image_embeds)
    float32 text_embeds[k][E]         normalised (text_embeds)
    float32 logits_per_image[n][k]
    float32 probs[n][k]               CLIP: softmax over the k texts; SigLIP: sigmoid

Usage: python3 tools/make_text_reference.py --out tests/data/text [--cases NAME ...]
"""

import argparse
import math
import os
import shutil
import struct
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_reference import hf_reference, inputs, redraw_  # noqa: E402

import transformers as T  # noqa: E402

MAGIC = 0x54584554  # b"TEXT" read as a little-endian int32
KEEP = {"model.safetensors", "config.json", "preprocessor_config.json", "tokenizer.json", "tokenizer_config.json", "spiece.model",
        "texts.txt"}


def write_text_bin(path, x, ids, img, txt, logits, probs):
    n, c, h, w = x.shape
    k, L = ids.shape
    E = img.shape[1]
    assert txt.shape == (k, E) and logits.shape == (n, k) and probs.shape == (n, k)
    with open(path, "wb") as f:
        f.write(struct.pack("<8i", MAGIC, n, c, h, w, k, L, E))
        f.write(x.to(torch.float32).numpy().astype("<f4").tobytes())
        f.write(ids.to(torch.int32).numpy().astype("<i4").tobytes())
        for t in (img, txt, logits, probs):
            f.write(t.to(torch.float32).numpy().astype("<f4").tobytes())


def pool_position(ids, eos):
    """CLIPTextTransformer's pooled position, stated independently."""
    if eos == 2:  # the legacy rule: argmax of the ids (the first maximum)
        return max(range(len(ids)), key=lambda i: (ids[i], -i))
    return ids.index(eos)  # the first eos_token_id


def clip_tokenizer(folder, n_merges, context):
    """A CLIP byte-level BPE tokenizer as transformers' CLIPTokenizer builds it from
    open_clip's merges (OpenAI's), cut to its first n_merges: a vocabulary of
    512 + n_merges + 2 tokens (<|endoftext|> the last), model_max_length context."""
    import gzip
    from open_clip.tokenizer import bytes_to_unicode, default_bpe
    merges = gzip.open(default_bpe()).read().decode("utf-8").split("\n")
    merges = [tuple(m.split()) for m in merges[1:1 + n_merges]]
    vocab = list(bytes_to_unicode().values())
    vocab = vocab + [v + "</w>" for v in vocab]
    vocab += ["".join(m) for m in merges] + ["<|startoftext|>", "<|endoftext|>"]
    tok = T.CLIPTokenizer(vocab={t: i for i, t in enumerate(vocab)}, merges=merges, model_max_length=context)
    tok.save_pretrained(folder)
    return len(vocab)


def siglip_tokenizer(folder, vocab_size, context):
    """A SentencePiece Unigram model (nmt_nfkc, <pad>=0 </s>=1 <unk>=2 as SigLIP's)
    trained here on a few captions, saved by SiglipTokenizer (spiece.model)."""
    import sentencepiece as spm
    words = ("a photo of the an door person ball cat dog car tree house red blue green small large two "
             "bicycle street traffic light sky water bird on in with at night day picture drawing").split()
    g = torch.Generator().manual_seed(7)
    text = [" ".join(words[int(i)] for i in torch.randint(len(words), (int(torch.randint(3, 12, (1,), generator=g)),),
                                                          generator=g)) for _ in range(3000)]
    prefix = os.path.join(folder, "_sp")
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(text), model_prefix=prefix, vocab_size=vocab_size, model_type="unigram",
        character_coverage=1.0, normalization_rule_name="nmt_nfkc", pad_id=0, eos_id=1, unk_id=2, bos_id=-1,
        hard_vocab_limit=False, num_threads=1, shuffle_input_sentence=False, minloglevel=2)
    tok = T.SiglipTokenizer(prefix + ".model", model_max_length=context)
    tok.save_pretrained(folder)
    n = len(tok)
    os.remove(prefix + ".model")
    os.remove(prefix + ".vocab")
    return n


def make_case(out, name, seed, model_cls, config, processor, ids, n, scale, bias=None, tokenizer=None, texts=None, template=None):
    """ids: the texts' input_ids; or, with tokenizer (a function writing the
    tokenizer files into the case's folder), the ids its tokenizer gives the
    texts (template.format(text) each, template None: the texts as they are),
    padded to the context as transformers pads them, the texts in texts.txt."""
    d = os.path.join(out, name)
    if os.path.isdir(d):
        shutil.rmtree(d)
    os.makedirs(d)
    if tokenizer is not None:
        tokenizer(d)
        tok = T.AutoTokenizer.from_pretrained(d)
        L = config.text_config.max_position_embeddings
        assert tok.model_max_length == L and len(tok) <= config.text_config.vocab_size
        prompts = [template.format(t) if template else t for t in texts]
        ids = tok(prompts, padding="max_length", truncation=True, max_length=L)["input_ids"]
        with open(os.path.join(d, "texts.txt"), "w", encoding="utf-8") as f:
            f.write(f"template {template or ''}\n" + "".join(t + "\n" for t in texts))
        print(f"   {name}: {type(tok).__name__}, {len(tok)} tokens; {prompts[0]!r} -> {ids[0]}")
    torch.manual_seed(seed)
    model = model_cls(config).eval()
    redraw_(model, seed + 1)
    with torch.no_grad():  # a temperature (and bias) as trained models have, not redraw_'s N(0, 0.1^2)
        model.logit_scale.fill_(math.log(scale))
        if bias is not None:
            model.logit_bias.fill_(bias)
    model.save_pretrained(d, safe_serialization=True)
    processor.save_pretrained(d)
    for fn in os.listdir(d):
        if fn not in KEEP:
            os.remove(os.path.join(d, fn))

    ref = hf_reference(d, model_cls)
    vc, tc = config.vision_config, config.text_config
    x = inputs(seed + 2, n, vc.num_channels, vc.image_size, vc.image_size)
    ids_t = torch.tensor(ids, dtype=torch.long)
    assert ids_t.shape[1] == tc.max_position_embeddings
    assert int(ids_t.min()) >= 0 and int(ids_t.max()) < tc.vocab_size
    clip = model_cls is T.CLIPModel
    with torch.no_grad():
        xd = x.double()
        o = ref(input_ids=ids_t, pixel_values=xd)
        img, txt, logits = o.image_embeds, o.text_embeds, o.logits_per_image
        probs = logits.softmax(dim=1) if clip else torch.sigmoid(logits)
        # the reloaded model must match the one that was saved
        o2 = model.double()(input_ids=ids_t, pixel_values=xd)
        assert torch.equal(o2.logits_per_image, logits) and torch.equal(o2.text_embeds, txt)
        # what the outputs are, stated by hand
        ti = ref.get_text_features(input_ids=ids_t).pooler_output
        ii = ref.get_image_features(pixel_values=xd).pooler_output
        assert torch.allclose(txt, ti / ti.norm(dim=-1, keepdim=True), rtol=0, atol=1e-14)
        assert torch.allclose(img, ii / ii.norm(dim=-1, keepdim=True), rtol=0, atol=1e-14)
        s = ref.logit_scale.exp()
        want = img @ txt.T * s + (0 if clip else ref.logit_bias)
        assert torch.allclose(logits, want, rtol=0, atol=1e-12)
        hs = ref.text_model(input_ids=ids_t).last_hidden_state  # final_layer_norm applied to every token
        if clip:
            pos = [pool_position(r, tc.eos_token_id) for r in ids]
            pooled = hs[torch.arange(len(ids)), pos]
            assert torch.allclose(ti, ref.text_projection(pooled), rtol=0, atol=1e-13)
            # the padding mask CLIPProcessor returns (1 up to the first eos) does not change the pooled token
            mask = torch.tensor([[1 if j <= p else 0 for j in range(len(r))] for r, p in zip(ids, pos)])
            tm = ref.get_text_features(input_ids=ids_t, attention_mask=mask).pooler_output
            assert torch.allclose(tm, ti, rtol=0, atol=1e-13)
            print(f"   {name}: pooled positions {pos} (eos_token_id {tc.eos_token_id}), causal, "
                  f"{tc.hidden_act}; logit_scale exp = {float(s):.4g}")
        else:
            assert torch.allclose(ti, ref.text_model.head(hs[:, -1]), rtol=0, atol=1e-13)
            print(f"   {name}: pooled the last token, no mask, {tc.hidden_act}; "
                  f"logit_scale exp = {float(s):.4g}, logit_bias = {float(ref.logit_bias):.4g}")
    write_text_bin(os.path.join(d, "text.bin"), x, ids_t, img, txt, logits, probs)
    return d


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, help="output directory, e.g. tests/data/text")
    ap.add_argument("--cases", nargs="*", metavar="NAME", help="(re)generate only these cases (default: all)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    out = args.out
    vision = dict(hidden_size=16, num_hidden_layers=2, image_size=28, patch_size=4, intermediate_size=32,
                  num_attention_heads=2)
    clip_proc = T.CLIPImageProcessor(size={"shortest_edge": 28}, crop_size={"height": 28, "width": 28})
    siglip_proc = T.SiglipImageProcessor(size={"height": 28, "width": 28})
    L = 12
    pad = lambda r, v: r + [v] * (L - len(r))  # noqa: E731
    cases = []

    # CLIP: bos 62, eos 63 (pooled at the first 63), pad 1; text 24 wide, 3 heads, 2 blocks
    clip_ids = [
        pad([62, 5, 17, 40, 63], 1),                 # a short text, padded
        [62, 3, 9, 27, 0, 44, 12, 8, 61, 33, 2, 63],  # full: eos last (ids 0 and 61 too)
        pad([62, 9, 63, 21, 33, 63], 1),             # an eos in the middle: pooled at the first (2)
        pad([62, 7, 8, 63], 63),                     # padded with eos (openai's pad token)
        pad([62, 63], 1),                            # the empty text
    ]
    cases.append(("clip", lambda: make_case(
        out, "clip", 5100, T.CLIPModel,
        T.CLIPConfig(text_config=dict(vocab_size=64, hidden_size=24, intermediate_size=48, num_hidden_layers=2,
                                      num_attention_heads=3, max_position_embeddings=L, pad_token_id=1,
                                      bos_token_id=62, eos_token_id=63),
                     vision_config=vision, projection_dim=20),
        clip_proc, clip_ids, 3, 30.0)))
    # CLIP with the legacy eos_token_id 2 (openai's configs): pooled at argmax(ids), the first maximum; gelu, eps 1e-6
    legacy_ids = [
        pad([62, 5, 17, 63], 1),                     # 63 the largest id: at 3
        pad([62, 9, 63, 21, 63], 1),                 # a tie: the first, 2
        pad([5, 40, 61, 3], 1),                      # no 63: at the 61 (2), whatever the eos
        pad([62, 3, 4, 5, 63], 63),                  # padded with 63: at 4
        [62, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 63],      # at 11
        pad([2, 2, 2], 0),                           # the config's eos 2 itself: argmax, at 0
    ]
    cases.append(("clip_legacy_eos", lambda: make_case(
        out, "clip_legacy_eos", 5200, T.CLIPModel,
        T.CLIPConfig(text_config=dict(vocab_size=64, hidden_size=16, intermediate_size=32, num_hidden_layers=2,
                                      num_attention_heads=2, max_position_embeddings=L, pad_token_id=1,
                                      bos_token_id=0, eos_token_id=2, hidden_act="gelu", layer_norm_eps=1e-6),
                     vision_config=dict(vision, hidden_act="gelu"), projection_dim=12),
        clip_proc, legacy_ids, 2, 50.0)))
    # SigLIP: no mask, the last token pooled (padding included), a head with bias; pad = eos = 1
    siglip_ids = [
        pad([5, 17, 40, 1], 1),                      # padded: pooled at a pad token
        [3, 9, 27, 0, 44, 12, 8, 61, 33, 2, 63, 1],  # full
        pad([1], 1),                                 # the empty text
        pad([63, 0, 2, 7, 1], 1),
    ]
    cases.append(("siglip", lambda: make_case(
        out, "siglip", 5300, T.SiglipModel,
        T.SiglipConfig(text_config=dict(vocab_size=64, hidden_size=24, intermediate_size=48, num_hidden_layers=2,
                                        num_attention_heads=3, max_position_embeddings=L, projection_size=16,
                                        pad_token_id=1, eos_token_id=1, bos_token_id=None),
                       vision_config=vision),
        siglip_proc, siglip_ids, 3, 10.0, bias=-1.5)))

    # with their tokenizers: the texts through transformers' own tokenizer (texts.txt, padding="max_length")
    labels = ["door", "person", "ball", "traffic light", "a red bicycle on the street at night, seen from above",
              "Ünïcödé café, naïve façade: ÆØÅ", "  spaces   and\ttabs  ", "Photo of a DOG!!!", ""]
    Lt = 16
    cases.append(("clip_tokenizer", lambda: make_case(
        out, "clip_tokenizer", 5400, T.CLIPModel,
        T.CLIPConfig(text_config=dict(vocab_size=814, hidden_size=16, intermediate_size=32, num_hidden_layers=2,
                                      num_attention_heads=2, max_position_embeddings=Lt, pad_token_id=813,
                                      bos_token_id=812, eos_token_id=813),
                     vision_config=vision, projection_dim=16),
        clip_proc, None, 2, 30.0, tokenizer=lambda d: clip_tokenizer(d, 300, Lt), texts=labels,
        template="a photo of a {}.")))
    cases.append(("siglip_tokenizer", lambda: make_case(
        out, "siglip_tokenizer", 5500, T.SiglipModel,
        T.SiglipConfig(text_config=dict(vocab_size=160, hidden_size=16, intermediate_size=32, num_hidden_layers=2,
                                        num_attention_heads=2, max_position_embeddings=Lt, projection_size=16,
                                        pad_token_id=1, eos_token_id=1, bos_token_id=None),
                       vision_config=vision),
        siglip_proc, None, 2, 10.0, bias=-1.5, tokenizer=lambda d: siglip_tokenizer(d, 160, Lt), texts=labels,
        template=None)))

    names = [nm for nm, _ in cases]
    want = args.cases or names
    unknown = [nm for nm in want if nm not in names]
    if unknown:
        sys.exit(f"unknown case(s) {unknown}; known: {names}")
    for nm, fn in cases:
        if nm in want:
            print(f"-- {nm}")
            fn()
    total = sum(os.path.getsize(os.path.join(dp, f)) for dp, _, fs in os.walk(out) for f in fs)
    print(f"total bytes under {out}: {total}")
    print(f"versions: python {sys.version.split()[0]} torch {torch.__version__} transformers {T.__version__}")


if __name__ == "__main__":
    main()
