"""Seed corpus for tests/fuzz/fuzz_tokenizer.c: small tokenizers in its input
layout (u16 little-endian text length, the text; u16 tokenizer_config.json
length, its text; then the tokenizer file: a tokenizer.json or a spiece.model).

    /tmp/tfenv/bin/python tools/make_fuzz_tokenizer_corpus.py   # writes tests/fuzz/corpus_tokenizer/

Needs tokenizers and sentencepiece. The seeds stay small (libFuzzer's -max_len
16384): a CLIP-style BPE of the 512 byte characters and 300 merges (compact JSON),
SentencePiece models of about 100 pieces with no charsmap, with a charsmap of a
few rules of their own (normalization_rule_tsv), with byte fallback and
user-defined pieces; and a few broken files.
"""
import json, os, random, struct, tempfile

FUZZ = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fuzz", "corpus_tokenizer")
TEXTS = ["A photo of a cat.", "It's 2024 <|endoftext|> naïve CAFÉ 東京 😀", "ΣΟΦΙΑΣ \t\n a</s>b <unk> ▁x", "e\u0301\u0323 ﬁ １２３", ""]


def u16(b):
    assert len(b) < 65536
    return struct.pack("<H", len(b)) + b


def seed(name, text, cfg, tok):
    with open(os.path.join(FUZZ, name), "wb") as f:
        f.write(u16(text.encode()) + u16(cfg.encode() if cfg else b"") + tok)


def bytes_to_unicode():
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    cs, n = bs[:], 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return [chr(c) for _, c in sorted(zip(bs, cs))]


def clip_json(rng, merges_n=300):
    """A tokenizer.json as CLIPTokenizer writes it, with a small vocabulary."""
    from tokenizers import Regex, Tokenizer, decoders, normalizers, pre_tokenizers, processors
    from tokenizers.models import BPE
    chars = bytes_to_unicode()
    vocab = chars + [c + "</w>" for c in chars]
    words = "the a an of photo picture cat dog on in with red blue car street city tree its it's".split()
    merges, have = [], set(vocab)
    for w in words * 3:  # merges that build these words, left to right
        parts = list(w[:-1]) + [w[-1] + "</w>"]
        while len(parts) > 1 and len(merges) < merges_n:
            a, b = parts[0], parts[1]
            if a + b not in have:
                merges.append((a, b))
                vocab.append(a + b)
                have.add(a + b)
            parts = [a + b] + parts[2:]
    vocab += ["<|startoftext|>", "<|endoftext|>"]
    v = {t: i for i, t in enumerate(vocab)}
    tok = Tokenizer(BPE(vocab=v, merges=merges, dropout=None, continuing_subword_prefix="", end_of_word_suffix="</w>",
                        fuse_unk=False, unk_token="<|endoftext|>"))
    tok.normalizer = normalizers.Sequence([normalizers.NFC(), normalizers.Replace(Regex(r"\s+"), " "), normalizers.Lowercase()])
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(r"""<\|startoftext\|>|<\|endoftext\|>|'s|'t|'re|'ve|'m|'ll|'d|[\p{L}]+|[\p{N}]|[^\s\p{L}\p{N}]+"""),
                             behavior="removed", invert=True),
        pre_tokenizers.ByteLevel(add_prefix_space=False)])
    tok.decoder = decoders.ByteLevel()
    tok.add_special_tokens(["<|startoftext|>", "<|endoftext|>"])
    tok.post_processor = processors.RobertaProcessing(("<|endoftext|>", v["<|endoftext|>"]), ("<|startoftext|>", v["<|startoftext|>"]),
                                                      trim_offsets=False, add_prefix_space=False)
    return json.dumps(json.loads(tok.to_str()), ensure_ascii=False, separators=(",", ":")).encode()


def spm_model(rng, **kw):
    import sentencepiece as spm
    words = "the a an of photo picture cat dog on in with red blue car street city tree naïve café 東京 日本 σοφία".split()
    text = [" ".join(rng.choice(words) for _ in range(rng.randint(2, 8))) for _ in range(400)]
    with tempfile.TemporaryDirectory() as d:
        prefix = os.path.join(d, "m")
        spm.SentencePieceTrainer.train(sentence_iterator=iter(text), model_prefix=prefix, vocab_size=kw.pop("vocab_size", 90),
                                       model_type="unigram", pad_id=0, eos_id=1, unk_id=2, bos_id=-1, hard_vocab_limit=False,
                                       num_threads=1, shuffle_input_sentence=False, minloglevel=2, **kw)
        from sentencepiece import sentencepiece_model_pb2
        m = sentencepiece_model_pb2.ModelProto()
        m.ParseFromString(open(prefix + ".model", "rb").read())
        m.trainer_spec.model_prefix = "spiece"  # not the temporary folder's names
        m.normalizer_spec.normalization_rule_tsv = ""
        return m.SerializeToString()


def main():
    os.makedirs(FUZZ, exist_ok=True)
    rng = random.Random(52)
    clip_cfg = json.dumps({"model_max_length": 77, "pad_token": "<|endoftext|>", "tokenizer_class": "CLIPTokenizer"})
    sig_cfg = json.dumps({"added_tokens_decoder": {"1": {"content": "</s>", "lstrip": False, "normalized": False, "rstrip": False,
                                                         "single_word": False, "special": True},
                                                   "2": {"content": "<unk>", "lstrip": False, "normalized": False, "rstrip": False,
                                                         "single_word": False, "special": True}},
                          "do_lower_case": True, "eos_token": "</s>", "model_max_length": 64, "pad_token": "</s>",
                          "tokenizer_class": "SiglipTokenizer", "unk_token": "<unk>"})
    cj = clip_json(rng)
    seed("clip_small", TEXTS[1], clip_cfg, cj)
    seed("clip_small_noconfig", TEXTS[0], "", cj)
    with tempfile.TemporaryDirectory() as d:
        rules = os.path.join(d, "rules.tsv")
        with open(rules, "w") as f:  # source code points TAB target code points (sentencepiece's rule format)
            f.write("41\t61\n42\t62\nFB01\t66 69\n3000\t20\n2126\t3A9\n")
        sp_rules = spm_model(rng, normalization_rule_tsv=rules)
    seed("spm_identity", TEXTS[2], sig_cfg, spm_model(rng, normalization_rule_name="identity"))
    seed("spm_rules", TEXTS[3], sig_cfg, sp_rules)
    seed("spm_bytes_user", TEXTS[1], json.dumps({"do_lower_case": False, "legacy": False}),
         spm_model(rng, normalization_rule_name="identity", byte_fallback=True, user_defined_symbols=["<mask>", "Ⓥ"], vocab_size=400))
    seed("bad_json", TEXTS[0], "", b'{"model": {"type": "BPE", "vocab": {"a": 0}, "merges": [["a", "b"]]}}')
    seed("bad_unigram_json", TEXTS[0], "", b'{"model": {"type": "Unigram", "vocab": [["a", -1.0]]}}')
    seed("bad_proto", TEXTS[0], "", b"\x0a\x05\x0a\x03abc\x12\x00\x1a\x00")
    # open_clip_config.json as the config (its parser; a small BPE is not OpenAI's, so the load is refused by name)
    oc = {"model_cfg": {"text_cfg": {"context_length": 77, "tokenizer_kwargs": {"clean": "lower"}}}}
    seed("openclip_simple", "caf&eacute; &amp;amp; \u201cHi\u201d \ufb01", json.dumps(oc), cj)
    oc["model_cfg"]["text_cfg"].update(hf_tokenizer_name="x", tokenizer_mode=None, tokenizer_kwargs={"clean": "canonicalize", "strip_sep_token": False})
    seed("openclip_hf", TEXTS[1], json.dumps(oc), cj)
    for name in sorted(os.listdir(FUZZ)):
        print("%-22s %6d bytes" % (name, os.path.getsize(os.path.join(FUZZ, name))))


if __name__ == "__main__":
    main()
