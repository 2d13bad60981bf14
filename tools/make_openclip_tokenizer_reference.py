"""Tokenizer references for open_clip's layout (a folder with
open_clip_config.json): the ids open_clip 3.3 itself gives through
open_clip.get_tokenizer('local-dir:FOLDER'), for tests/test_tokenizer.c.

    python3 tools/make_openclip_tokenizer_reference.py   # after make_tokenizer_reference.py

Needs open_clip_torch (3.3), ftfy, transformers, sentencepiece. Writes under
tests/data/tokenizers/:

  openclip_extra.txt  strings for open_clip's basic_clean (ftfy.fix_text and
              html.unescape twice): HTML entities named, numeric and broken,
              curly quotes, ligatures, fullwidth and halfwidth forms, line
              breaks, control characters and terminal escapes, mojibake; as
              corpus.txt (byte count, ':', the bytes, '\\n').
  openclip_clip/  open_clip_config.json without hf_tokenizer_name (context 77):
              open_clip's SimpleTokenizer (OpenAI's BPE, clean 'lower'). The
              folder as open_clip's save_for_hf writes it also holds CLIP's
              tokenizer.json and tokenizer_config.json; those are clip/'s
              files (the same BPE), which the test copies beside it.
  openclip_siglip/  open_clip_config.json with hf_tokenizer_name, tokenizer_kwargs
              {"clean": "canonicalize"}, context 64: HFTokenizer over the
              folder's T5TokenizerFast (siglip_a's spiece.model, extra_ids=0,
              legacy=False, pad </s> as open_clip's SigLipTokenizer sets it),
              saved by save_pretrained (transformers 5 writes tokenizer.json and
              tokenizer_config.json; a folder on the Hub also has the
              spiece.model, siglip_a's here, which the test copies beside them).
  */expected.txt  "context C pad P", then per string of corpus.txt and then of
              openclip_extra.txt the ids before the padding (the tool checks the
              padding), or "refused" + those ids where vit.h must refuse the text
              (VIT_ERROR_UNSUPPORTED): where ftfy's mojibake heuristic fires
              (ftfy would try to re-decode the text; vit.h does not), where NFC
              meets a character newer than Unicode 9.0 with a combining class or
              a decomposition (vit.h's NFC tables are 9.0's), or an HTML entity
              '&name;' that vit.h's short table lacks, or a terminal escape
              with a non-ASCII digit (ftfy's \\d is Unicode's), or a code point
              unassigned in vit.h's Unicode (Python 3.11's 14.0, noncharacters
              aside: a newer Python's NFC and lower(), and the regex module's
              classes, may know it).
"""
import json, os, re, shutil, sys, unicodedata
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_openclip_tables as oct

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "tokenizers")


def read_corpus(path):
    d, out, i = open(path, "rb").read(), [], 0
    while i < len(d):
        j = d.index(b":", i)
        n = int(d[i:j])
        out.append(d[j + 1:j + 1 + n].decode("utf-8"))
        i = j + 1 + n + 1
    return out


def extra_strings():
    s = [
        "&amp;", "&amp;amp;", "&amp;amp;amp;", "&amp;amp;amp;amp;", "&lt;b&gt;bold&lt;/b&gt;", "a &lt; b", "<b>&amp;</b>", "x < y &amp; z",
        "a\n<b>\n&amp;", "&amp;\n<\n&amp;amp;", "Tom &amp; Jerry", "Tom & Jerry", "Tom &Jerry", "AT&T", "a&b", "&", "&&", "&;", "&#;", "&#x;",
        "&eacute;", "caf&eacute;", "caf&eacute", "&eacutex", "&EACUTE;", "P&EACUTE;REZ", "&nTILDE;", "&notit;", "&not;", "this&not that",
        "&copy; 2024", "&copy 2024", "&COPY;", "&reg;", "&nbsp;", "a&nbsp;b", "&hellip;", "&mdash;", "&ndash;", "&lsquo;x&rsquo;",
        "&ldquo;quote&rdquo;", "&apos;", "&quot;", "&QUOT;", "&trade;", "&euro;5", "&checkmark;", "&Jscr;ohn", "&foo;", "&unknownentity;",
        "&#65;", "&#x41;", "&#X41;", "&#0065;", "&#65", "&#x41", "&#65a;", "&#xZZ;", "&#59;", "&#x3b;", "&#38;", "&#38;amp;", "&#0;",
        "&#13;", "&#128;", "&#x80;", "&#150;", "&#x9f;", "&#129;", "&#55296;", "&#xD800;", "&#1114112;", "&#x110000;", "&#99999999999999999999;",
        "&#1;", "&#11;", "&#127;", "&#xFDD0;", "&#xFFFE;", "&#x1FFFF;", "&#8217;", "&#x2019;", "&#8220;hi&#8221;", "&#x1F600;", "&#233;",
        "&#xe9;", "e&#769;", "&#x301;", "&#x1E00;", "&#xFB01;", "&#xFF21;", "&#x3000;", "&#x41;&#x42;", "&#97&#98", "&amp;#65;",
        "&amp;eacute;", "&ampx", "&amp", "&lt", "&ltx", "&gtgt", "&AMP", "&AMPx", "&Aacute", "&aacutes", "&yumlx", "&#x26;lt;",
        "“curly”", "‘single’", "it’s", "‚low‛", "„low‟", "ʼokina", "don’t", "«guillemets»", "‹single›",
        "ﬁne ﬂow ﬀ ﬃ ﬄ ﬅ ﬆ", "Ĳssel ĳs", "ŉ", "Ǳ ǲ ǳ Ǆ ǅ ǆ Ǉ ǈ ǉ Ǌ ǋ ǌ",
        "ＡＢＣ ｄｅｆ １２３", "ｈｅｌｌｏ　ｗｏｒｌｄ", "ｱｲｳｴｵ ｶﾞｷﾞｸﾞ ﾊﾟﾋﾟ", "￠￡￢￣￤￥￦", "ﾠ ￂ ￚ", "＂ｑｕｏｔｅ＂ ＇ｘ＇", "（ｐａｒｅｎ）",
        "a\r\nb", "a\rb", "a\u2028b", "a\u2029b", "line one\nline two\n", "\n\n", "x\r\n\r\ny",
        "a\x00b", "a\x01\x02\x03b", "a\x0bb", "a\x0cb", "a\x7fb", "a\ufeffb", "\ufeffstart", "a\u206ab", "a\ufff9b\ufffcc", "a\u200bb", "a\u200db",
        "\x1b[31mred\x1b[0m", "\x1b[1;32mgreen", "\x1b[mx", "\x1b[12;34;56Hpos", "\x1b[", "\x1b[31", "\x1bx", "\x1b[٣m",
        "\x1b[\x00x", "\x1b[\x00\x00m", "\x00", "\x00\x00", "&am\x00p;x", "a\n\x00\x1b[\x001m",  # U+0000 stays until remove_control_chars
        "Ã©tÃ©", "cafÃ©", "The Mona Lisa doesnâ€™t have eyebrows.", "â€œmojibakeâ€\x9d", "Ã¼ber", "Ã", "Ã ", "Â ", "Â£5", "Ã\xa0 la",
        "sÃ³", "voilÃ  le travail", "Ð¿Ñ€Ð¸Ð²ÐµÑ‚", "Ã¢â‚¬â„¢", "Ãƒ", "â€”", "Ã‚Â", "\x80", "\x85", "a\x85b", "\x9d", "Ⓒ", "é", "é",
        "naïve café", "Über", "Ærøskøbing", "Œuvre", "œuf", "œ1", "½ ¼ ¾", "3×²", "°C", "Ä°", "12°", "£100", "€100", "¥", "¡Hola!", "¿Qué?",
        "ÂÃ", "×²", "√±", "≈°", "‚Äì", "вЂ", "ā€", "β€™", "ΒΓΒ", "ВЃВ", "à²", "Ø§Ù", "ØØ", "Ã¡", "x Â ", "a Ã ",
        "hello_world", "snake_case_name", "__init__", "a_b-c.d", "under_score!", "C++ & C#", "e-mail", "100%", "$5.00", "#hashtag", "@user",
        "   padded   ", "\t\ttabs\t", "a  b   c", "\u00a0nbsp\u00a0", "\u3000ideo\u3000", "\x1c\x1d\x1e\x1fsep", "\u0085next",
        "ΣΑΣ ΣΑΣ.", "ΟΔΥΣΣΕΥΣ", "İstanbul", "ǅemal", "ẞ", "ﬅ", "K Å", "Ω", "ſ", "'ſ", "it'ſ", "IT'S", "'S", "'T 'RE 'VE 'M 'LL 'D",
        "<start_of_text>", "<end_of_text>", "<START_OF_TEXT>", "<ſtart_of_text>", "a<end_of_text>b", "<|endoftext|>", "<start_of_text",
        "x\u0345y", "\u0345", "α\u0345", "ᾳ", "e\u0301", "\u1100\u1161\u11a8", "a\U0001e94ab", "\U00016ff0", "a\u0c3c", "\U0001e4ec",
        "A photo of a CAT.", "a photo of a dog!", "", " ", "x",
    ]
    return s


def make_siglip_folder(folder, tmp):
    from transformers import T5TokenizerFast
    os.makedirs(folder, exist_ok=True)
    # T5TokenizerFast from siglip_a's spiece.model (transformers 5 converts it when it loads a folder that has only that)
    src = tmp + "_src"
    os.makedirs(src, exist_ok=True)
    shutil.copy(os.path.join(OUT, "siglip_a", "spiece.model"), src)
    json.dump({"tokenizer_class": "T5Tokenizer", "extra_ids": 0, "legacy": False, "model_max_length": 64},
              open(os.path.join(src, "tokenizer_config.json"), "w"))
    tok = T5TokenizerFast.from_pretrained(src, extra_ids=0, legacy=False)
    assert len(tok) == 4000
    tok.pad_token = "</s>"  # open_clip's SigLipTokenizer: pad_token_id = 1
    tok.save_pretrained(folder)
    cfg = {"model_cfg": {"embed_dim": 16, "vision_cfg": {"image_size": 32},
                         "text_cfg": {"context_length": 64, "vocab_size": 4000, "hf_tokenizer_name": "timm/ViT-B-16-SigLIP",
                                      "tokenizer_kwargs": {"clean": "canonicalize"}, "width": 16, "heads": 1, "layers": 1}},
           "preprocess_cfg": {"mean": [0.5, 0.5, 0.5], "std": [0.5, 0.5, 0.5]}}
    json.dump(cfg, open(os.path.join(folder, "open_clip_config.json"), "w"), indent=2)
    # the folder as a user has it: those files and the spiece.model (siglip_a's, which the test copies beside them)
    os.makedirs(tmp, exist_ok=True)
    for f in os.listdir(folder):
        if f != "expected.txt":
            shutil.copy(os.path.join(folder, f), tmp)
    shutil.copy(os.path.join(OUT, "siglip_a", "spiece.model"), tmp)


def make_clip_folder(folder, tmp):
    os.makedirs(folder, exist_ok=True)
    cfg = {"model_cfg": {"embed_dim": 16, "vision_cfg": {"image_size": 32},
                         "text_cfg": {"context_length": 77, "vocab_size": 49408, "width": 16, "heads": 1, "layers": 1}},
           "preprocess_cfg": {"mean": [0.48145466, 0.4578275, 0.40821073], "std": [0.26862954, 0.26130258, 0.27577711]}}
    json.dump(cfg, open(os.path.join(folder, "open_clip_config.json"), "w"), indent=2)
    # the folder as a user has it: the config and CLIP's tokenizer files
    os.makedirs(tmp, exist_ok=True)
    shutil.copy(os.path.join(folder, "open_clip_config.json"), tmp)
    for f in ("tokenizer.json", "tokenizer_config.json"):
        shutil.copy(os.path.join(OUT, "clip", f), tmp)


# ---- which texts vit.h refuses (its rules, in Python)

NFC_NEW = None
ENT = None


def unassigned(c):
    """Unassigned in vit.h's Unicode (this Python's), noncharacters aside: the running
    Python's NFC and lower() and the regex module's classes may know it."""
    return unicodedata.category(c) == "Cn" and not (0xFDD0 <= ord(c) <= 0xFDEF or (ord(c) & 0xFFFE) == 0xFFFE)


def refused(text):
    """vit.h refuses a text whose basic_clean it cannot be sure of."""
    global NFC_NEW, ENT
    import html, ftfy
    from ftfy.badness import is_bad
    if NFC_NEW is None:
        NFC_NEW = set(c for a, b in oct.nfc_new() for c in range(a, b + 1))
        ENT = set(r[0] for r in oct.entities()[0])
    # ftfy's steps, line by line, with the mojibake check at each round
    cfg = ftfy.TextFixerConfig(explain=False)
    pos, out = 0, []
    unescape = True
    while pos < len(text):
        brk = text.find("\n", pos) + 1 or len(text)
        seg = text[pos:brk]
        pos = brk
        if "<" in seg:
            unescape = False
        while True:
            orig = seg
            if unescape:
                for m in re.finditer(r"&#?[0-9A-Za-z]{1,24};", seg):
                    if not m.group(0).startswith("&#") and m.group(0)[1:-1] not in ENT:
                        return "entity"
                seg = ftfy.fixes.unescape_html(seg)
            if not seg.isascii() and is_bad(seg):
                return "mojibake"
            for f in (ftfy.fixes.fix_latin_ligatures, ftfy.fixes.fix_character_width, ftfy.fixes.uncurl_quotes, ftfy.fixes.fix_line_breaks):
                seg = f(seg)
            for m in re.finditer(r"\x1b\[[0-9;]*(.)", seg):  # ftfy's \d is Unicode's: vit.h refuses a non-ASCII number there
                if ord(m.group(1)) >= 0x80 and unicodedata.category(m.group(1))[0] == "N":
                    return "escape"
            seg = ftfy.fixes.remove_control_chars(ftfy.fixes.remove_terminal_escapes(seg))
            if any(unassigned(c) for c in seg):
                return "unassigned"
            if any(ord(c) in NFC_NEW for c in seg):
                return "nfc"
            seg = unicodedata.normalize("NFC", seg)
            if seg == orig:
                break
        out.append(seg)
    t = "".join(out)
    for _ in range(2):
        for m in re.finditer(r"&([^\t\n\f <&#;]{1,32});", t):
            if m.group(1) not in ENT:
                return "entity"
        t = html.unescape(t)
    if any(unassigned(c) for c in t):
        return "unassigned"
    return None


def expected(folder, texts, context, pad, call):
    lines = ["context %d pad %d" % (context, pad)]
    n_ref = 0
    ids = call(texts)
    assert ids.shape == (len(texts), context)
    for s, row in zip(texts, ids.tolist()):
        n = len(row)
        while n and row[n - 1] == pad:
            n -= 1
        if pad == 1:  # </s> pads and also ends the text: keep it
            n = min(n + 1, context)
        why = refused(s)
        n_ref += why is not None
        lines.append(("refused %s: " % why if why else "") + " ".join(str(i) for i in row[:n]))
    with open(os.path.join(folder, "expected.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return n_ref


def main():
    import open_clip
    texts = read_corpus(os.path.join(OUT, "corpus.txt"))
    extra = extra_strings()
    with open(os.path.join(OUT, "openclip_extra.txt"), "wb") as f:
        for s in extra:
            b = s.encode("utf-8")
            f.write(b"%d:" % len(b) + b + b"\n")
    allt = texts + extra
    clip = os.path.join(OUT, "openclip_clip")
    tmp = "/tmp/vit_openclip_clip"
    make_clip_folder(clip, tmp)
    tok = open_clip.get_tokenizer("local-dir:" + tmp)
    assert type(tok).__name__ == "SimpleTokenizer"
    r = expected(clip, allt, 77, 0, tok)
    print("openclip_clip: %d strings through %s, %d to be refused" % (len(allt), type(tok).__name__, r))
    sig = os.path.join(OUT, "openclip_siglip")
    make_siglip_folder(sig, "/tmp/vit_openclip_siglip")
    tok = open_clip.get_tokenizer("local-dir:/tmp/vit_openclip_siglip")
    assert type(tok).__name__ == "HFTokenizer", type(tok)
    print("  %s, pad %s" % (type(tok.tokenizer).__name__, tok.tokenizer.pad_token_id))
    r = expected(sig, allt, 64, tok.tokenizer.pad_token_id, tok)
    print("openclip_siglip: %d strings through %s, %d to be refused" % (len(allt), type(tok.tokenizer).__name__, r))
    print("open_clip %s" % open_clip.__version__)


if __name__ == "__main__":
    main()
