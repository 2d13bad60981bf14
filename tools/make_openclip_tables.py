"""The tables of vit.h's open_clip text cleaning (its >>tokenize section): what
open_clip's basic_clean (ftfy.fix_text, then html.unescape twice) needs, from
ftfy 6.3, Python's html module and unicodedata; written into vit.h between the
lines '// ---- open_clip tables: begin' and '// ---- open_clip tables: end' (the
arrays, in >>tables open_clip), their #defines and declarations between
'// ---- open_clip tables: declarations' and its end (>>tokenize open_clip).

    /tmp/tfenv/bin/python3 tools/make_openclip_tables.py           # rewrites that part of vit.h
    /tmp/tfenv/bin/python3 tools/make_openclip_tables.py --check   # exit 1 if vit.h differs

Needs ftfy (and Perl's Unicode::UCD, through tools/make_unicode_tables.py, for
the Age of each character). What each table holds:

  vit__oc_bad_chars  ftfy's mojibake heuristic (ftfy.badness.BADNESS_RE): each
                   character named in its classes, sorted, with a bit per class
                   it is in ({cp, bits 0..63, bits 64..127}); bits 123..127 are found at run time
                   (\\s, \\w, [^A-Za-z], '.', the C1 controls).
  vit__oc_bad_alts the regex's alternatives as sequences of class bits (0xFF
                   ends one; a first 0xFE: only at the start, '^'). The tool checks
                   this description against BADNESS_RE on random strings.
  vit__oc_width    ftfy's fix_character_width: U+3000 and U+FF01..U+FFEF to their
                   NFKC (one or two characters).
  vit__oc_ligature ftfy's fix_latin_ligatures.
  vit__oc_entities HTML entity names vit.h decodes: every one html.unescape takes
                   without a ';' (flag 1), and some common ones that need it; their
                   values (one or two characters). A name that ends in ';' and is
                   not here is refused (it may be one of html5's 2231).
  vit__oc_charrefs html.unescape's numeric references that are not their code
                   point (_invalid_charrefs), and vit__oc_noref its code points that
                   give nothing (_invalid_codepoints) as ranges.
  VIT__OC_OPENAI_BPE_HASH  vit.h's hash of the vocabulary and merges of OpenAI's CLIP
                   BPE, which open_clip's SimpleTokenizer always uses: a folder's
                   tokenizer.json must be that one.
  vit__oc_nfc_new  characters assigned after Unicode 9.0 (vit.h's NFC tables) that
                   NFC (Python's, 14.0) does something to: a combining class or a
                   canonical decomposition. open_clip text holding one is refused.
"""
import bisect, html, html.entities, os, random, re, sys, unicodedata
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_unicode_tables as mut
import tables  # (tools/tables.py: where each table is, and the splice)
import ftfy
from ftfy import badness, chardata

VIT_H = mut.VIT_H
BEGIN, END = tables.TABLES["open_clip"][:2]
RUNTIME = {"\\s": 123, "\\w": 124, "[^A-Za-z]": 125, ".": 126, "c1": 127}
CAT = badness.MOJIBAKE_CATEGORIES


def cls(*parts):
    """A class: category names and literal characters."""
    s = set()
    for p in parts:
        if p in CAT:
            for a, b in re.findall(r"(.)(?:-(.))?", CAT[p], re.S):  # "\x80-\x9f" ranges
                s.update(chr(c) for c in range(ord(a), ord(b or a) + 1))
        else:
            s.update(p)
    return frozenset(s)


AZ, az = "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz"
M = ["bad", "lower_accented", "upper_accented", "box", "start_punctuation", "end_punctuation", "currency", "numeric", "law"]
# BADNESS_RE's alternatives, in its order; a class is a frozenset, or a RUNTIME name
ALTS = [
    ["c1"],
    [cls(*M), cls("bad")],
    [cls(AZ + az), cls("lower_common", "upper_common"), cls("bad")],
    [cls("bad"), cls(*M[1:])],
    [cls("lower_accented", "lower_common", "box", "end_punctuation", "currency", "numeric"), cls("upper_accented")],
    [cls("box", "end_punctuation", "currency", "numeric"), cls("lower_accented")],
    [cls("lower_accented", "box", "end_punctuation"), cls("currency")],
    ["\\s", cls("upper_accented"), cls("currency")],
    [cls("upper_accented", "box"), cls("numeric", "law")],
    [cls("lower_accented", "upper_accented", "box", "currency", "end_punctuation"), cls("start_punctuation"), cls("numeric")],
    [cls("lower_accented", "upper_accented", "currency", "numeric", "box", "law"), cls("end_punctuation"), cls("start_punctuation")],
    [cls("currency", "numeric", "box"), cls("start_punctuation")],
    [cls(az), cls("upper_accented"), cls("start_punctuation", "currency")],
    [cls("box"), cls("kaomoji")],
    [cls("lower_accented", "upper_accented", "currency", "numeric", "start_punctuation", "end_punctuation", "law"), cls("box")],
    [cls("box"), cls("end_punctuation")],
    [cls("lower_accented", "upper_accented"), cls("start_punctuation", "end_punctuation"), "\\w"],
    [cls("Œœ"), "[^A-Za-z]"],
    [cls("upper_accented"), cls("°")],
    [cls("ÂÃÎÐ"), cls("€œŠš¢£Ÿž\xa0\xad®©°·»", "start_punctuation", "end_punctuation", "–—´")],
    [cls("×"), cls("²³")],
    [cls("ØÙ"), cls("common", "currency", "bad", "numeric", "start_punctuation", "ŸŠ®°µ»")] * 2,
    [cls("à"), cls("²µ¹¼½¾")],
    [cls("√"), cls("±∂†≠®™´≤≥¥µø")],
    [cls("≈"), cls("°¢")],
    [cls("‚"), cls("Ä"), cls("ìîïòôúùû†°¢π")],
    [cls("‚"), cls("âó"), cls("àä°ê")],
    [cls("в"), cls("Ђ")],
    [cls("ВГРС"), cls("c1", "bad", "start_punctuation", "end_punctuation", "currency", "°µ"), cls("ВГРС")],
    [cls("Г"), cls("ў"), cls("В"), cls("Ђ"), cls("В"), ".", cls(AZ + az + " ")],
    [cls("Ã"), cls("\xa0¡")],
    [cls(az), cls("ÃÂ"), cls(" ")],
    [cls(az), "\\s", cls("ÃÂ"), cls(" ")],
    ["^", cls("ÃÂ"), cls(" ")],
    [cls(az + ".,?!", "end_punctuation"), cls("Â"), cls(" ", "start_punctuation", "end_punctuation")],
    [cls("β"), cls("€"), cls("™\xa0Ά\xad®°")],
    [cls("ΒΓΞΟ"), cls("c1", "bad", "start_punctuation", "end_punctuation", "currency", "°"), cls("ΒΓΞΟ")],
    [cls("ā"), cls("€")],
]


def runtime_in(name, c):
    if name == "\\s": return bool(re.match(r"\s", c))
    if name == "\\w": return bool(re.match(r"\w", c))
    if name == "[^A-Za-z]": return not ("A" <= c <= "Z" or "a" <= c <= "z")
    if name == ".": return c != "\n"
    if name == "c1": return 0x80 <= ord(c) <= 0x9F


def simulate(text, alts):
    for i in range(len(text)):
        for a in alts:
            anchored = a[0] == "^"
            seq = a[1:] if anchored else a
            if anchored and i:
                continue
            if i + len(seq) <= len(text) and all(runtime_in(k, text[i + q]) if isinstance(k, str) else text[i + q] in k for q, k in enumerate(seq)):
                return True
    return False


def badness_tables():
    classes = []
    for a in ALTS:
        for k in a:
            if not isinstance(k, str) and k not in classes:
                classes.append(k)
    assert len(classes) <= 123, len(classes)
    bit = {k: i for i, k in enumerate(classes)}
    bit.update(RUNTIME)
    chars = {}
    for k in classes:
        for c in k:
            chars[ord(c)] = chars.get(ord(c), 0) | 1 << bit[k]
    alts = []
    for a in ALTS:
        alts.append(([0xFE] if a[0] == "^" else []) + [bit[k] for k in a if k != "^"] + [0xFF])
    # \w: vit.h's L or N or '_' must be Python re's \w; \s: vit__space_py is str.isspace()
    for c in range(0x110000):
        if 0xD800 <= c < 0xE000:
            continue
        ch = chr(c)
        if unicodedata.category(ch) == "Cn":
            continue
        assert bool(re.match(r"\w", ch)) == (unicodedata.category(ch)[0] in "LN" or ch == "_"), hex(c)
        assert bool(re.match(r"\s", ch)) == ch.isspace(), hex(c)
    # the description against the regex itself
    rng = random.Random(5)
    pool = sorted(set(chr(c) for c in chars) | set(" \n\tabcxyzABCXYZ019_.,?!-é中\x85\xa0"))
    for _ in range(200000):
        s = "".join(rng.choice(pool) for _ in range(rng.randint(1, 7)))
        assert simulate(s, ALTS) == badness.is_bad(s), repr(s)
    return sorted(chars.items()), alts


def width_map():
    out = []
    for c, s in sorted(chardata.WIDTH_MAP.items()):
        assert 1 <= len(s) <= 2
        out.append((c, ord(s[0]), ord(s[1]) if len(s) > 1 else 0))
    return out


EXTRA = ["apos;", "hellip;", "mdash;", "ndash;", "lsquo;", "rsquo;", "sbquo;", "ldquo;", "rdquo;", "bdquo;", "trade;", "euro;",
         "bull;", "dagger;", "Dagger;", "permil;", "lsaquo;", "rsaquo;", "prime;", "Prime;", "thinsp;", "ensp;", "emsp;", "zwj;", "zwnj;",
         "lrm;", "rlm;", "OElig;", "oelig;", "Scaron;", "scaron;", "Yuml;", "fnof;", "circ;", "tilde;", "larr;", "rarr;", "uarr;",
         "darr;", "harr;", "minus;", "le;", "ge;", "ne;", "infin;", "asymp;", "hearts;", "spades;", "clubs;", "diams;", "star;",
         "check;", "alpha;", "beta;", "gamma;", "delta;", "pi;", "sigma;", "omega;", "Omega;", "mu;", "lambda;", "theta;", "Tab;",
         "NewLine;", "colon;", "comma;", "period;", "excl;", "quest;", "num;", "dollar;", "percnt;", "lpar;", "rpar;", "ast;", "plus;",
         "sol;", "bsol;", "semi;", "equals;", "lsqb;", "rsqb;", "lbrack;", "rbrack;", "lcub;", "rcub;", "lbrace;", "rbrace;", "vert;",
         "verbar;", "Hat;", "lowbar;", "grave;", "commat;"]


def entities():
    h5 = html.entities.html5
    legacy = sorted(k for k in h5 if not k.endswith(";"))
    out = {}
    for k in legacy:
        assert h5[k + ";"] == h5[k]
        out[k] = (h5[k], 1)
    for k in EXTRA:
        assert k in h5, k
        out.setdefault(k[:-1], (h5[k], 0))
    rows = []
    for name, (v, flag) in sorted(out.items()):
        assert 1 <= len(v) <= 2
        # ftfy decodes '&name;' to the same value (HTML_ENTITIES holds html5's names with ';')
        assert chardata.HTML_ENTITIES["&" + name + ";"] == v
        rows.append((name, ord(v[0]), ord(v[1]) if len(v) > 1 else 0, flag))
    return rows, max(len(r[0]) for r in rows)


def charrefs():
    refs = sorted((k, ord(v)) for k, v in html._invalid_charrefs.items() if len(v) == 1)
    assert len(refs) == len(html._invalid_charrefs)
    cps = sorted(html._invalid_codepoints)
    ranges = []
    for c in cps:
        if ranges and ranges[-1][1] + 1 == c:
            ranges[-1][1] = c
        else:
            ranges.append([c, c])
    return refs, ranges


def nfc_new():
    old = mut.assigned_by(mut.NFC_VERSION)
    ranges = []
    for c in mut.chars():
        ch = chr(c)
        if old(c) or unicodedata.category(ch) == "Cn":
            continue
        d = unicodedata.decomposition(ch)
        if unicodedata.combining(ch) or (d and not d.startswith("<")):
            if ranges and ranges[-1][1] + 1 == c:
                ranges[-1][1] = c
            else:
                ranges.append([c, c])
    return ranges


def fnv(b):
    h = 0xCBF29CE484222325
    for x in b:
        h = ((h ^ x) * 0x100000001B3) & (2**64 - 1)
    return h


def openai_bpe_hash():
    """vit.h's bpe_hash of OpenAI's CLIP BPE (open_clip's bpe_simple_vocab_16e6.txt.gz) as a tokenizer.json
    holds it (transformers' CLIPTokenizer: <|startoftext|>, <|endoftext|>): a sum over the tokens, FNV-1a
    over the merges' ids in rank order."""
    import gzip
    from open_clip.tokenizer import bytes_to_unicode, default_bpe
    merges = gzip.open(default_bpe()).read().decode("utf-8").split("\n")
    merges = [tuple(m.split()) for m in merges[1:49152 - 256 - 2 + 1]]
    vocab = list(bytes_to_unicode().values())
    vocab = vocab + [v + "</w>" for v in vocab]
    vocab += ["".join(m) for m in merges] + ["<|startoftext|>", "<|endoftext|>"]
    ids = {t: i for i, t in enumerate(vocab)}
    M = 2**64 - 1
    vh = 0
    for t, i in ids.items():
        vh = (vh + (fnv(t.encode("utf-8")) ^ (i * 0x9E3779B97F4A7C15 & M))) & M
    mh = 0xCBF29CE484222325
    for a, b in merges:
        mh = ((mh ^ (ids[a] << 32 | ids[b])) * 0x100000001B3) & M
    return (mh + 31 * vh) & M


def generate():
    chars, alts = badness_tables()
    hx = lambda v: "0x%x" % v
    out = [BEGIN + " (tools/make_openclip_tables.py; do not edit)",
           "// ftfy %s, Python %s (html, unicodedata %s)" % (ftfy.__version__, sys.version.split()[0], unicodedata.unidata_version),
           "#define VIT__OC_BIT_SPACE %d // vit__oc_bad_chars bits found at run time: \\s" % RUNTIME["\\s"],
           "#define VIT__OC_BIT_WORD %d  // \\w" % RUNTIME["\\w"],
           "#define VIT__OC_BIT_NOTAZ %d // [^A-Za-z]" % RUNTIME["[^A-Za-z]"],
           "#define VIT__OC_BIT_ANY %d   // . (not \\n)" % RUNTIME["."],
           "#define VIT__OC_BIT_C1 %d    // U+0080..U+009F" % RUNTIME["c1"],
           "#define VIT__OC_OPENAI_BPE_HASH 0x%xull // bpe_hash of OpenAI's CLIP BPE (open_clip's bpe_simple_vocab_16e6.txt.gz)" % openai_bpe_hash()]
    rows = [(c, m & (2**64 - 1), m >> 64) for c, m in chars]
    out += mut.c_array("static const uint64_t vit__oc_bad_chars[%d][3]" % len(rows), rows, 3, lambda r: "{0x%x, 0x%xull, 0x%xull}" % r)
    flat = [x for a in alts for x in a]
    out += mut.c_array("static const unsigned char vit__oc_bad_alts[%d]" % len(flat), flat, 20, str)
    w = width_map()
    out += mut.c_array("static const uint32_t vit__oc_width[%d][3]" % len(w), w, 6, lambda r: "{0x%x, 0x%x, 0x%x}" % r)
    lig = sorted((c, s) for c, s in chardata.LIGATURES.items())
    out += mut.c_array("static const uint32_t vit__oc_ligature[%d][4]" % len(lig),
                       [(c,) + tuple(ord(x) for x in s) + (0,) * (3 - len(s)) for c, s in lig], 6, lambda r: "{0x%x, 0x%x, 0x%x, 0x%x}" % r)
    ents, longest = entities()
    out.append("#define VIT__OC_ENTITY_MAX %d // longest name" % longest)
    out.append("typedef struct vit__oc_ent { const char *name; uint32_t v[2]; int bare; } vit__oc_ent;")
    out += mut.c_array("static const vit__oc_ent vit__oc_entities[%d]" % len(ents), ents, 3,
                       lambda r: '{"%s", {0x%x, 0x%x}, %d}' % r)
    refs, noref = charrefs()
    out += mut.c_array("static const uint32_t vit__oc_charrefs[%d][2]" % len(refs), refs, 8, lambda r: "{0x%x, 0x%x}" % r)
    out += mut.c_array("static const uint32_t vit__oc_noref[%d][2]" % len(noref), noref, 8, lambda r: "{0x%x, 0x%x}" % tuple(r))
    nn = nfc_new()
    out += mut.c_array("static const uint32_t vit__oc_nfc_new[%d][2]" % len(nn), nn, 8, lambda r: "{0x%x, 0x%x}" % tuple(r))
    out.append(END)
    return out


def main():
    tables.splice("open_clip", generate(), "open_clip tables")


if __name__ == "__main__":
    main()
