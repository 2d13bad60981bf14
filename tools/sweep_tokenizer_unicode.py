"""Every code point through vit.h's tokenizers and the reference libraries: which
code points give other ids (or a refusal) than the reference, per tokenizer path.

    cc -O2 -std=c99 -fopenmp -I. tools/tokenize_texts.c -o build/tokenize_texts -lm
    /tmp/tfenv/bin/python3 tools/sweep_tokenizer_unicode.py [PATH ...]

PATH: clip (transformers' CLIPTokenizer over tokenizers), oc_clip (open_clip's
SimpleTokenizer), siglip (SiglipTokenizer over spiece.model), t5_json
(T5TokenizerFast over tokenizer.json), oc_siglip (open_clip's HFTokenizer over
T5TokenizerFast); default all. The folders are assembled from
tests/data/tokenizers/ under /tmp/vit_sweep/. Each code point U+0080..U+31FFF and
U+E0000..U+E0FFF (surrogates left out) goes in the contexts CONTEXTS; a code point
differs when one of its texts gives other ids. vit.h's refusal (VIT_ERROR_UNSUPPORTED)
counts as agreement when the code point is unassigned in vit.h's Unicode version
(the refusal this sweep is about) or, on the open_clip paths, when
make_openclip_tokenizer_reference.refused() says so (ftfy steps vit.h refuses).
Prints per path the counts and the differing code points, as ranges with their
categories in Python's unicodedata and in the reference's Unicode.
"""
import os, shutil, subprocess, sys, unicodedata
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
DATA = os.path.join(ROOT, "tests", "data", "tokenizers")
TMP = "/tmp/vit_sweep"
CONTEXTS = ["a%sb", "%s", "A%s", "A%s\u03a3"]
FILES = {
    "clip": ["clip/tokenizer.json", "clip/tokenizer_config.json"],
    "oc_clip": ["openclip_clip/open_clip_config.json", "clip/tokenizer.json", "clip/tokenizer_config.json"],
    "siglip": ["siglip_a/spiece.model", "siglip_a/tokenizer_config.json"],
    "t5_json": ["openclip_siglip/tokenizer.json", "openclip_siglip/tokenizer_config.json"],
    "oc_siglip": ["openclip_siglip/open_clip_config.json", "openclip_siglip/tokenizer.json",
                  "openclip_siglip/tokenizer_config.json", "siglip_a/spiece.model"],
}


def code_points():
    return [c for c in list(range(0x80, 0x32000)) + list(range(0xE0000, 0xE1000)) if not 0xD800 <= c < 0xE000]


def folder(path):
    d = os.path.join(TMP, path)
    os.makedirs(d, exist_ok=True)
    for f in FILES[path]:
        shutil.copy(os.path.join(DATA, f), d)
    return d


def reference(path, d, texts):
    """Per text the reference's ids before the padding."""
    out = []
    if path.startswith("oc_"):
        import open_clip
        tok = open_clip.get_tokenizer("local-dir:" + d)
        pad = 0 if path == "oc_clip" else tok.tokenizer.pad_token_id
        for i in range(0, len(texts), 4096):
            for row in tok(texts[i:i + 4096]).tolist():
                n = len(row)
                while n and row[n - 1] == pad:
                    n -= 1
                if pad == 1:  # </s> pads and ends the text
                    n = min(n + 1, len(row))
                out.append(row[:n])
        return out
    from transformers import AutoTokenizer
    tok = AutoTokenizer.from_pretrained(d)
    ctx = 77 if path == "clip" else 64
    for i in range(0, len(texts), 4096):
        out += tok(texts[i:i + 4096], truncation=True, max_length=ctx)["input_ids"]
    return out


def vit(d, texts):
    exe = os.path.join(ROOT, "build", "tokenize_texts")
    data = b"".join(b"%d:" % len(b) + b + b"\n" for b in (t.encode("utf-8") for t in texts))
    res = subprocess.run([exe, d], input=data, capture_output=True, check=True).stdout.decode().split("\n")
    return [None if l == "refused" else l if l.startswith("error") else [int(x) for x in l.split()] for l in res[:len(texts)]]


def ranges(cps):
    out = []
    for c in cps:
        if out and out[-1][1] == c - 1:
            out[-1][1] = c
        else:
            out.append([c, c])
    return out


def main():
    import regex
    from make_openclip_tokenizer_reference import refused
    paths = sys.argv[1:] or list(FILES)
    cps = code_points()
    texts = [ctx % chr(c) for c in cps for ctx in CONTEXTS]
    k = len(CONTEXTS)
    cn = lambda c: unicodedata.category(chr(c)) == "Cn"
    for path in paths:
        d = folder(path)
        ref, got = reference(path, d, texts), vit(d, texts)
        diff, refused_new, refused_other, refused_ok = [], [], [], []
        for i, c in enumerate(cps):
            kinds = set()
            for j in range(k):
                r, g = ref[i * k + j], got[i * k + j]
                if g is None:
                    if cn(c):
                        kinds.add("new")
                    elif path.startswith("oc_") and refused(texts[i * k + j]):
                        kinds.add("ok")
                    else:
                        kinds.add("other")
                elif g != r:
                    kinds.add("diff")
            if "diff" in kinds:
                diff.append(c)
            if "other" in kinds:
                refused_other.append(c)
            if "new" in kinds:
                refused_new.append(c)
        print("%s: %d code points, %d give other ids, %d refused as unassigned in Unicode %s, %d refused otherwise (not by the reference's cleaning)"
              % (path, len(cps), len(diff), len(refused_new), unicodedata.unidata_version, len(refused_other)))
        for name, lst in (("differ", diff), ("refused otherwise", refused_other)):
            for a, b in ranges(lst)[:40]:
                cats = sorted(set(unicodedata.category(chr(c)) for c in range(a, b + 1)))
                rl = "L" if regex.match(r"\p{L}", chr(a)) else "N" if regex.match(r"\p{N}", chr(a)) else "-"
                print("  %s U+%04X..U+%04X (%d) py:%s regex(U+%04X):%s" % (name, a, b, b - a + 1, ",".join(cats), a, rl))
            if len(ranges(lst)) > 40:
                print("  ... %d ranges" % len(ranges(lst)))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
