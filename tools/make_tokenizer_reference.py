"""Tokenizer references for tests/test_tokenizer.c: the tokenizer files of a CLIP
and two SigLIP-style text towers, a corpus of test strings, and the input ids
transformers gives for each string (what vit_tokenize must give).

    /tmp/tfenv/bin/python tools/make_tokenizer_reference.py   # writes tests/data/tokenizers/

Needs transformers, tokenizers, sentencepiece and open_clip_torch (for CLIP's
BPE vocabulary, open_clip/bpe_simple_vocab_16e6.txt.gz, the one OpenAI's CLIP
ships). Deterministic: a fixed seed, and sentencepiece trained on one thread.

  clip/       CLIP's byte-level BPE (49408 tokens) as transformers' CLIPTokenizer
              builds it from open_clip's merges, saved by save_pretrained
              (tokenizer.json + tokenizer_config.json, model_max_length 77).
  siglip_a/   a SentencePiece Unigram model (about 4000 pieces, nmt_nfkc, no byte
              fallback, <pad>=0 </s>=1 <unk>=2 as SigLIP's), trained here on generated
              multilingual text, saved by SiglipTokenizer.save_pretrained
              (spiece.model + tokenizer_config.json, model_max_length 64).
  siglip_b/   a smaller one (about 1000 pieces) with nmt_nfkc_cf (case folding in
              the charsmap), byte fallback, two user-defined pieces, do_lower_case
              false and legacy false in its tokenizer_config.json.
  corpus.txt  the test strings: ASCII captions and punctuation runs, accents
              (composed, decomposed, out of canonical order), Greek final sigma,
              CJK and compatibility ideographs, Hangul syllables and jamo, emoji
              sequences, whitespace and control characters, the special tokens'
              own text, random characters of every plane, and long strings that
              are cut to the context. One record per string: its byte count,
              ':', the UTF-8 bytes, '\\n'.
  */expected.txt  a header line "context C pad P", then one line per corpus
              string: the ids before the padding (tokenizer(text, truncation=True,
              max_length=C)), which the test pads with P to C ids; the tool checks
              that transformers' padding="max_length" output is exactly that.

open_clip's layout (open_clip_config.json) has its own references, made by
tools/make_openclip_tokenizer_reference.py from this corpus and these folders.

The references come from the folders as saved (from_pretrained on them), as a
user loads them. Characters are drawn from those assigned in Python's
unicodedata (14.0.0): vit.h's tables are that version, while the Rust
libraries behind transformers know later ones (see vit.h's >>tokenize notes).
"""
import gzip, os, random, sys, unicodedata

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "tokenizers")
N_STRINGS = 3000


# ---- text generation ----------------------------------------------------------

def script_chars():
    """Alphabets the generated text draws from, by script."""
    r = lambda a, b: [chr(c) for c in range(a, b + 1) if unicodedata.category(chr(c))[0] in "LM"]
    return {
        "latin": list("abcdefghijklmnopqrstuvwxyz") * 4 + list("àáâäãåæçèéêëìíîïñòóôöõøùúûüýÿßœ"),
        "greek": r(0x3B1, 0x3C9),
        "cyrillic": r(0x430, 0x44F),
        "arabic": r(0x627, 0x64A),
        "hebrew": r(0x5D0, 0x5EA),
        "devanagari": r(0x915, 0x939) + ["\u093e", "\u093f", "\u0940", "\u094d", "\u0902"],
        "thai": r(0xE01, 0xE2E),
        "hiragana": r(0x3041, 0x3096),
        "katakana": r(0x30A1, 0x30FA),
        "han": [chr(c) for c in range(0x4E00, 0x4E00 + 400)],
        "hangul": [chr(c) for c in range(0xAC00, 0xAC00 + 300)],
    }


ENGLISH = """the a an of and in on with to is are was at by for from this that it its photo picture image
cat dog man woman person people child car street city house tree water sky sun beach mountain red blue green
white black small large old young two three sitting standing running walking playing holding looking next near
table food plate bowl pizza ramen coffee cup book phone computer bike train bus plane boat bird horse cow sheep
field road building room kitchen bed window door wall floor night day snow rain park grass flower flowers group
close up view front side top background light dark wooden glass metal new york paris tokyo london painting
drawing illustration cartoon rendering art style portrait landscape astronaut riding eating drinking""".split()


def make_lexicon(rng, n=3000):
    sc = script_chars()
    names = list(sc)
    weights = [8, 2, 2, 1, 1, 1, 1, 1, 1, 2, 1]
    lex = []
    for _ in range(n):
        s = rng.choices(names, weights)[0]
        k = rng.randint(1, 3) if s in ("han", "hangul") else rng.randint(2, 9)
        w = "".join(rng.choice(sc[s]) for _ in range(k))
        lex.append(w)
    return ENGLISH + lex


EMOJI = ["😀", "🐱", "🐶", "🚀", "❤️", "👍🏽", "👨‍👩‍👧", "🇫🇷", "🇯🇵", "1️⃣", "✨", "🎉", "🙂", "🤖", "☕"]
PUNCT = list(".,;:!?'\"()[]{}-_/\\@#$%^&*+=<>|~`") + ["...", "--", "!!", "?!", "«", "»", "“", "”", "—", "、", "。", "！", "？"]


def sentence(rng, lex, zipf):
    words = []
    for _ in range(rng.randint(2, 14)):
        x = rng.random()
        if x < 0.05:
            words.append(rng.choice(EMOJI))
        elif x < 0.10:
            words.append(str(rng.randint(0, 99999)))
        else:
            w = rng.choices(lex, zipf)[0]
            if rng.random() < 0.15:
                w = w.capitalize()
            if rng.random() < 0.03:
                w = w.upper()
            words.append(w)
        if rng.random() < 0.12:
            words[-1] += rng.choice(PUNCT)
    return " ".join(words)


def training_text(rng, lex, n):
    zipf = [1.0 / (i + 1) for i in range(len(lex))]
    return [sentence(rng, lex, zipf) for _ in range(n)]


# ---- the test corpus ------------------------------------------------------------

def assigned_chars():
    """Every assigned character of Python's Unicode, but surrogates, by plane block."""
    return [c for c in range(0x110000) if unicodedata.category(chr(c)) not in ("Cn", "Cs")]


def corpus(rng, lex):
    zipf = [1.0 / (i + 1) for i in range(len(lex))]
    out = []
    fixed = [
        "", " ", "  ", "\t", "\n", "a", "A", "hello", "Hello, world!", "a photo of a cat", "A photo of a cat.",
        "It's a dog's life, isn't it? We'll see; they've gone. I'm sure you'd agree.",
        "IT'S WE'LL THEY'VE I'M YOU'D 'S 'T 'RE 'VE 'M 'LL 'D", "'''s ''t 're'", "don't'll've",
        "<|startoftext|>", "<|endoftext|>", "<|startoftext|>hello<|endoftext|>", "a <|endoftext|> b",
        "<|ENDOFTEXT|>", "<|StartOfText|> x", "<|endoftext|><|endoftext|>", "<|endoftext", "|endoftext|>",
        "</s>", "<unk>", "<pad>", "<s>", "a</s>b", "a </s> b", " </s> ", "</s></s>", "x<unk>y", "<unk><unk>",
        "hello </s>", "</s> hello", "</s>hello</s>", "▁", "▁▁", "▁a", "a▁b", " ▁ ", "▁</s>",
        "!!!???...,,,", "!@#$%^&*()_+-=[]{}|;':\",./<>?`~", "...", "-- --- ----", "a...b", "..a..",
        "100", "3.14159", "1,000,000", "2024-01-01", "v1.2.3", "0x1F600", "①②③", "Ⅻ", "¼ ½ ¾", "٣٤٥", "१२३",
        "café", "cafe\u0301", "CAFÉ", "CAFE\u0301", "naïve", "nai\u0308ve", "Ångström", "A\u030angstro\u0308m",
        "e\u0301\u0323", "e\u0323\u0301", "a\u0301\u0300\u0302\u0303", "o\u031b\u0301", "\u0301", "\u0301a",
        "ΣΟΦΙΑ", "ΟΔΥΣΣΕΥΣ", "ΣΑΣ ΣΑΣ", "Σ", "ΑΣ", "ΑΣ.", "ΑΣ'Α", "Α.Σ", "ὈΔΥΣΣΕΎΣ", "σοφία", "İstanbul", "IĞDIR",
        "Straße", "STRASSE", "ẞ", "ﬁne ﬂow", "ﬀ", "Ǆ ǅ ǆ", "ǈ", "ᾼ ᾳ", "ΐ", "K Å Ω",
        "ＡＢＣ　ｄｅｆ", "ｱｲｳｴｵ", "ｶﾞｷﾞ", "①", "㍿", "㈱", "™", "…", "‼", "⁉",
        "日本語のテキスト", "中文文本测试", "東京タワー", "漢字かな交じり文", "한국어 텍스트", "\u1100\u1161\u11a8", "\u1100\u1161",
        "각", "\uac00\u11a8", "丽丸乁", "\uf900\uf901\ufa0e", "\U0002f800\U0002f801", "𠀀𠀁", "𪜀",
        "😀", "😀😀😀", "👍🏽", "👨‍👩‍👧‍👦", "🇫🇷🇩🇪", "1️⃣", "#️⃣", "❤️", "❤\ufe0e", "🏳️‍🌈", "a😀b", "😀 😀",
        "\u00a0", "a\u00a0b", "a\u3000b", "a\u2028b", "a\u2029b", "a\u0085b", "a\x1cb", "a\x1fb", "a\u200bb",
        "a\ufeffb", "a\u180eb", "a\u2060b", "a\u200db", "a\u00adb", "\r\n", "a\r\nb", "a\tb\tc", "  a  b  ", "\n\n\nx\n\n",
        "a\x00b", "\x00", "\x07\x08\x1b", "\x7f", "\u0080\u009f", "\ue000", "\U000f0000", "\U0010fffd",
        "مرحبا بالعالم", "שלום עולם", "नमस्ते दुनिया", "สวัสดีชาวโลก", "Привет, мир!", "Γειά σου Κόσμε",
        "ᚠᚢᚦ", "ⴰⵣⵓⵍ", "𐌰𐌱𐌲", "𝔸𝔹ℂ", "𝟙𝟚𝟛", "ℌℑ", "ﷺ", "ﷻ", "ﹰ", "ﻼ",
        "a\u1acd\u0316", "\u1dc1\u0d3b", "a\u0345\u1acd\u0301", "\u0d3b\u0301", "e\u0301\u1df9",
        "Ⓥ", "ⓋⓋ", "aⓋb", "ⓥ", "<mask>", "a <mask> b", "x<mask>y", "<MASK>", "<mask><mask>", "Ⓥ<mask>",
    ]
    out += fixed
    # captions and generated sentences
    subjects = ["a photo of", "a picture of", "an image of", "a close-up of", "a painting of", "a drawing of"]
    things = ["a cat", "a dog", "two dogs", "the Eiffel Tower", "a red car", "New York City", "a bowl of ramen",
              "an astronaut riding a horse", "Mount Fuji", "a café in Paris", "a Škoda", "the Großglockner"]
    for _ in range(300):
        s = "%s %s" % (rng.choice(subjects), rng.choice(things))
        if rng.random() < 0.5:
            s = s[0].upper() + s[1:]
        if rng.random() < 0.5:
            s += rng.choice([".", "!", "?", "...", " :)", ";", ""])
        out.append(s)
    for _ in range(900):
        out.append(sentence(rng, lex, zipf))
    # punctuation runs and whitespace oddities
    ws = [" ", "  ", "\t", "\n", "\r", "\u00a0", "\u3000", "\u2028", "\u0085", "\x1c", "\x1e", "\u200b", "\u2009", "\x0b", "\x0c"]
    for _ in range(200):
        parts = []
        for _ in range(rng.randint(1, 8)):
            x = rng.random()
            if x < 0.4:
                parts.append("".join(rng.choice(PUNCT) for _ in range(rng.randint(1, 6))))
            elif x < 0.7:
                parts.append("".join(rng.choice(ws) for _ in range(rng.randint(1, 3))))
            else:
                parts.append(rng.choice(lex))
        out.append("".join(parts))
    # accents: composed, decomposed, reordered marks, upper case
    marks = [chr(c) for c in range(0x300, 0x36F)] + ["\u0323", "\u0327", "\u0328", "\u031b", "\u0345", "\u05b0", "\u093c"]
    # every combining mark, those of Unicode 10-14 among them (unknown to tokenizers' NFC: Unicode 9.0)
    marks += [chr(c) for c in assigned_chars() if unicodedata.combining(chr(c))]
    base = list("aeiouyAEIOUYcnszCNSZαεηιοωΑΕΗΙΟΩ")
    for _ in range(250):
        w = []
        for _ in range(rng.randint(1, 6)):
            ch = rng.choice(base) + "".join(rng.choice(marks) for _ in range(rng.randint(0, 3)))
            w.append(ch)
        s = "".join(w)
        form = rng.choice(["NFC", "NFD", "NFKC", "NFKD", None])
        if form:
            s = unicodedata.normalize(form, s)
        out.append(s)
    # Greek with sigma in every position, Turkish and other casing
    greek = "ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩ"
    for _ in range(120):
        words = []
        for _ in range(rng.randint(1, 4)):
            w = "".join(rng.choice(greek) for _ in range(rng.randint(1, 6)))
            if rng.random() < 0.5:
                w += "Σ"
            if rng.random() < 0.2:
                w += rng.choice(["'", ".", "\u0301", ":", "-", "ʹ", "\u00ad"])
            words.append(w)
        out.append(rng.choice([" ", "", "-", ". "]).join(words))
    # CJK, kana, Hangul (syllables and conjoining jamo), compatibility ideographs
    cjk_ranges = [(0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0xF900, 0xFAFF), (0x2F800, 0x2FA1D),
                  (0x3040, 0x309F), (0x30A0, 0x30FF), (0xFF61, 0xFF9F), (0xAC00, 0xD7A3), (0x1100, 0x11FF),
                  (0x3130, 0x318F), (0x3000, 0x303F), (0xFF01, 0xFF5E)]
    for _ in range(250):
        s = ""
        for _ in range(rng.randint(1, 20)):
            a, b = rng.choice(cjk_ranges)
            s += chr(rng.randint(a, b))
            if rng.random() < 0.1:
                s += " "
        out.append("".join(c for c in s if unicodedata.category(c) not in ("Cn", "Cs")))
    # emoji sequences
    emo = [chr(c) for c in list(range(0x1F600, 0x1F64F)) + list(range(0x1F300, 0x1F3FF)) + list(range(0x1F900, 0x1F9FF))
           if unicodedata.category(chr(c)) != "Cn"]
    mods = ["\u200d", "\ufe0f", "\ufe0e", "\U0001f3fb", "\U0001f3ff", "\u20e3"]
    flags = [chr(0x1F1E6 + i) for i in range(26)]
    for _ in range(150):
        s = ""
        for _ in range(rng.randint(1, 8)):
            x = rng.random()
            if x < 0.6:
                s += rng.choice(emo)
            elif x < 0.8:
                s += rng.choice(mods)
            elif x < 0.9:
                s += rng.choice(flags) + rng.choice(flags)
            else:
                s += " " + rng.choice(lex) + " "
        out.append(s)
    # random characters from every plane (assigned in Python's Unicode)
    pool = assigned_chars()
    for _ in range(400):
        k = rng.randint(1, 24)
        s = "".join(chr(rng.choice(pool)) for _ in range(k))
        out.append(s)
    for _ in range(100):  # mixed with ASCII words and spaces
        s = []
        for _ in range(rng.randint(2, 10)):
            s.append(rng.choice([chr(rng.choice(pool)), rng.choice(lex), " ", rng.choice(PUNCT)]))
        out.append("".join(s))
    # long strings, cut to the context
    for n in (80, 200, 1000, 5000):
        out.append(" ".join(rng.choices(lex, zipf, k=n)))
    out.append("a" * 3000)
    out.append("ab" * 2000)
    out.append("!" * 2000)
    out.append("1" * 500)
    out.append("😀" * 300)
    out.append("日本" * 500)
    out.append(" " * 1000 + "x")
    out.append("word " * 200)
    out.append("</s> " * 100)
    out.append("<|endoftext|>" * 100)
    out.append("é" * 100 + "e\u0301" * 100)
    out.append("".join(chr(rng.choice(pool)) for _ in range(3000)))
    while len(out) < N_STRINGS:
        out.append(sentence(rng, lex, zipf))
    return out[:N_STRINGS]


# ---- the tokenizers -------------------------------------------------------------

def make_clip(folder):
    from open_clip.tokenizer import bytes_to_unicode, default_bpe
    from transformers import CLIPTokenizer
    # as open_clip's SimpleTokenizer builds its vocabulary from the merges file
    merges = gzip.open(default_bpe()).read().decode("utf-8").split("\n")
    merges = [tuple(m.split()) for m in merges[1:49152 - 256 - 2 + 1]]
    vocab = list(bytes_to_unicode().values())
    vocab = vocab + [v + "</w>" for v in vocab]
    vocab += ["".join(m) for m in merges] + ["<|startoftext|>", "<|endoftext|>"]
    tok = CLIPTokenizer(vocab={t: i for i, t in enumerate(vocab)}, merges=merges, model_max_length=77)
    tok.save_pretrained(folder)


def make_siglip(folder, text, vocab_size, coverage, rule, byte_fallback, user_defined, config):
    import sentencepiece as spm
    from transformers import SiglipTokenizer
    os.makedirs(folder, exist_ok=True)
    prefix = os.path.join(folder, "_sp")
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(text), model_prefix=prefix, vocab_size=vocab_size, model_type="unigram",
        character_coverage=coverage, normalization_rule_name=rule, byte_fallback=byte_fallback, user_defined_symbols=user_defined,
        pad_id=0, eos_id=1, unk_id=2, bos_id=-1, hard_vocab_limit=False, num_threads=1, seed_sentencepiece_size=100000,
        shuffle_input_sentence=False, minloglevel=2)
    # the trainer keeps its output path in trainer_spec.model_prefix: a fixed name instead
    from sentencepiece import sentencepiece_model_pb2
    m = sentencepiece_model_pb2.ModelProto()
    m.ParseFromString(open(prefix + ".model", "rb").read())
    m.trainer_spec.model_prefix = "spiece"
    with open(prefix + ".model", "wb") as f:
        f.write(m.SerializeToString())
    tok = SiglipTokenizer(prefix + ".model", **config)
    tok.save_pretrained(folder)
    os.remove(prefix + ".model")
    os.remove(prefix + ".vocab")


def expected(folder, texts, context):
    from transformers import AutoTokenizer
    tok = AutoTokenizer.from_pretrained(folder)
    pad = tok.pad_token_id
    lines = ["context %d pad %d" % (context, pad)]
    for s in texts:
        ids = tok(s, truncation=True, max_length=context)["input_ids"]
        padded = tok(s, padding="max_length", truncation=True, max_length=context)["input_ids"]
        assert padded == ids + [pad] * (context - len(ids)), (folder, s)
        lines.append(" ".join(str(i) for i in ids))
    with open(os.path.join(folder, "expected.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return type(tok).__name__


def main():
    import sentencepiece, tokenizers, transformers
    rng = random.Random(52)
    os.makedirs(OUT, exist_ok=True)
    lex = make_lexicon(rng)
    train = training_text(rng, lex, 20000)
    make_clip(os.path.join(OUT, "clip"))
    make_siglip(os.path.join(OUT, "siglip_a"), train, 4000, 0.9995, "nmt_nfkc", False, [], {})
    make_siglip(os.path.join(OUT, "siglip_b"), train[:6000], 1000, 0.98, "nmt_nfkc_cf", True, ["<mask>", "Ⓥ"],
                {"do_lower_case": False, "legacy": False})
    texts = corpus(rng, lex)
    with open(os.path.join(OUT, "corpus.txt"), "wb") as f:
        for s in texts:
            b = s.encode("utf-8")
            f.write(b"%d:" % len(b) + b + b"\n")
    for name, context in (("clip", 77), ("siglip_a", 64), ("siglip_b", 64)):
        cls = expected(os.path.join(OUT, name), texts, context)
        print("%s: %d strings through %s" % (name, len(texts), cls))
    print("python %s, unicodedata %s, transformers %s, tokenizers %s, sentencepiece %s" % (
        sys.version.split()[0], unicodedata.unidata_version, transformers.__version__, tokenizers.__version__,
        sentencepiece.__version__))


if __name__ == "__main__":
    main()
