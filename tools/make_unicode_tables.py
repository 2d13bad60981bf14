"""The Unicode tables of vit.h's tokenizers (its >>tokenize section), from
Python's unicodedata: written into vit.h between the lines
'// ---- Unicode tables: begin' and '// ---- Unicode tables: end'.

    python3 tools/make_unicode_tables.py           # rewrites that part of vit.h
    python3 tools/make_unicode_tables.py --check   # exit 1 if vit.h differs

Standard library, and Perl's Unicode::UCD (Debian's perl-modules) for the Age
of each character. What each table holds:

  vit__uni_props   the general categories CLIP's split pattern asks about
                   (\\p{L}, \\p{N}), the two properties of Python's final-sigma
                   rule in str.lower() (Cased, Case_Ignorable), and whether the
                   code point is unassigned in this Unicode version (category Cn,
                   the 66 noncharacters aside: they stay unassigned in every
                   version), as sorted range starts: entry = start << 5 | bits, a
                   range runs to the next start. The tokenizers vit.h reproduces
                   know later versions, in which such a code point may be a
                   letter, a number or cased: vit.h refuses it (>>tokenize).
  vit__uni_ccc_ranges  canonical combining classes, entry = start << 8 | class; of
                   the characters of Unicode 9.0 only (NFC_VERSION below), as
                   tokenizers' NFC knows them.
  vit__uni_lower_runs  lower-case mappings of one character, as runs
                   {first, count, step, delta}: first + k step -> itself + delta.
                   (The one mapping to two characters, U+0130 -> U+0069 U+0307, is
                   in the code.) Python's str.lower() and Rust's char::to_lowercase
                   agree on every character assigned in this Unicode version.
  vit__uni_decomp  canonical decompositions {cp | composes << 31, first, second
                   (0: a singleton)}, sorted by cp; 'composes' marks the primary
                   composites (pairs that NFC puts back together). Unicode 9.0's too.
  vit__uni_compose indices into vit__uni_decomp of the composing pairs, sorted by
                   (first, second).

The categories and case properties are taken from Python itself: Cased and
Case_Ignorable as str.lower() sees them (probed through its final-sigma rule), so
that the tables reproduce this Python exactly.
"""
import bisect, os, subprocess, sys, unicodedata

# tokenizers' NFC (the unicode-normalization-alignments crate) has Unicode 9.0's tables: a
# combining mark or a decomposition that came later is an ordinary character there
NFC_VERSION = "9.0"
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tables  # noqa: E402  (tools/tables.py: where each table is, and the splice)

VIT_H = tables.VIT_H
BEGIN, END = tables.TABLES["unicode"][:2]
MAX = 0x110000


def chars():
    return (c for c in range(MAX) if not 0xD800 <= c < 0xE000)


def boundaries(value, shift):
    """[(start << shift | v)] at every change of value(cp), from 0."""
    out, prev = [], None
    for c in range(MAX):
        v = 0 if 0xD800 <= c < 0xE000 else value(c)
        if v != prev:
            out.append(c << shift | v)
            prev = v
    return out


def sigma_final_after(prefix):
    return (prefix + "\u03a3").lower()[-1] == "\u03c2"


def noncharacter(c):
    return 0xFDD0 <= c <= 0xFDEF or (c & 0xFFFE) == 0xFFFE


def props(c):
    ch = chr(c)
    cat = unicodedata.category(ch)
    v = 1 if cat[0] == "L" else 2 if cat[0] == "N" else 0
    if cat == "Cn" and not noncharacter(c):
        return 16
    # Python's final-sigma rule skips case-ignorable characters before the sigma, then asks
    # whether the one it stops at is cased. "A" c Sigma is final when c is ignorable (skipped to
    # the cased A) or cased; c Sigma is final only when c is cased and not ignorable.
    cased = sigma_final_after(ch)
    ignorable = sigma_final_after("A" + ch) and not cased
    return v | (4 if cased else 0) | (8 if ignorable else 0)


def lower_runs():
    pairs = []
    for c in chars():
        lo = chr(c).lower()
        if lo == chr(c):
            continue
        if len(lo) != 1:
            assert c == 0x130 and lo == "i\u0307", hex(c)
            continue
        pairs.append((c, ord(lo) - c))
    runs, i = [], 0
    while i < len(pairs):
        c, d = pairs[i]
        j, step = i + 1, 0
        while j < len(pairs) and pairs[j][1] == d and pairs[j][0] - pairs[j - 1][0] in ((step,) if step else (1, 2)):
            step = pairs[j][0] - pairs[j - 1][0]
            j += 1
        runs.append((c, j - i, step or 1, d))
        i = j
    return runs


def unicode_ages():
    """DerivedAge from Perl's Unicode::UCD: [(first code point, "major.minor" or None)], sorted."""
    script = 'my ($l, $m) = Unicode::UCD::prop_invmap("Age"); print "$l->[$_] $m->[$_]\\n" for 0 .. $#$l;'
    text = subprocess.run(["perl", "-MUnicode::UCD", "-e", script], check=True, capture_output=True, text=True).stdout
    out = []
    for line in text.split("\n"):
        if line:
            first, age = line.split(" ", 1)
            out.append((int(first), None if age == "Unassigned" else age))
    return out


def assigned_by(version):
    """A predicate: is the code point assigned in Unicode `version` ("9.0")?"""
    ages, want = unicode_ages(), tuple(int(x) for x in version.split("."))
    starts = [a[0] for a in ages]

    def pred(c):
        age = ages[bisect.bisect_right(starts, c) - 1][1]
        return age is not None and tuple(int(x) for x in age.split(".")) <= want
    return pred


def decompositions(known):
    out = []
    for c in chars():
        if not known(c):
            continue
        d = unicodedata.decomposition(chr(c))
        if not d or d.startswith("<"):
            continue
        parts = [int(x, 16) for x in d.split()]
        assert len(parts) in (1, 2)
        composes = len(parts) == 2 and unicodedata.normalize("NFC", chr(c)) == chr(c)
        out.append((c, parts[0], parts[1] if len(parts) == 2 else 0, composes))
    return out


def full_decomposition_length(c, table):
    if c in table:
        a, b = table[c]
        return full_decomposition_length(a, table) + (full_decomposition_length(b, table) if b else 0)
    return 1


def c_array(decl, values, per_line, fmt):
    lines = [decl + " = {"]
    for i in range(0, len(values), per_line):
        lines.append("    " + ", ".join(fmt(v) for v in values[i:i + per_line]) + ",")
    lines.append("};")
    return lines


def generate():
    p = boundaries(props, 5)
    nfc_known = assigned_by(NFC_VERSION)
    ccc = boundaries(lambda c: unicodedata.combining(chr(c)) if nfc_known(c) else 0, 8)
    low = lower_runs()
    dec = decompositions(nfc_known)
    table = {c: (a, b) for c, a, b, _ in dec}
    longest = max(full_decomposition_length(c, table) for c in table)
    longest = max(longest, 3)  # a Hangul syllable: L V T
    comp = sorted((i for i, d in enumerate(dec) if d[3]), key=lambda i: (dec[i][1], dec[i][2]))
    hx = lambda v: "0x%x" % v
    out = [BEGIN + " (tools/make_unicode_tables.py; do not edit)",
           "// Python %s's unicodedata: Unicode %s" % (sys.version.split()[0], unicodedata.unidata_version),
           '#define VIT__UNICODE_VERSION "%s"' % unicodedata.unidata_version,
           '#define VIT__NFC_UNICODE_VERSION "%s" // vit__uni_ccc_ranges, _decomp, _compose: the characters of this version' % NFC_VERSION,
           "#define VIT__UNI_L 1u          // vit__uni_props: general category L*",
           "#define VIT__UNI_N 2u          // N*",
           "#define VIT__UNI_CASED 4u      // Cased (and not Case_Ignorable)",
           "#define VIT__UNI_IGNORABLE 8u  // Case_Ignorable",
           "#define VIT__UNI_UNASSIGNED 16u // Cn, noncharacters aside: a later version may make it a letter, number, ...",
           "#define VIT__UNI_MAX_DECOMP %d // longest full canonical decomposition of one character" % longest]
    out += c_array("static const uint32_t vit__uni_props[%d]" % len(p), p, 10, hx)
    out += c_array("static const uint32_t vit__uni_ccc_ranges[%d]" % len(ccc), ccc, 10, hx)
    out += c_array("static const int32_t vit__uni_lower_runs[%d][4]" % len(low), low, 6,
                   lambda r: "{0x%x, %d, %d, %d}" % r)
    out += c_array("static const uint32_t vit__uni_decomp[%d][3]" % len(dec),
                   [(c | (1 << 31 if k else 0), a, b) for c, a, b, k in dec], 5, lambda r: "{0x%x, 0x%x, 0x%x}" % r)
    out += c_array("static const uint16_t vit__uni_compose[%d]" % len(comp), comp, 14, str)
    out.append(END)
    return out


def main():
    tables.splice("unicode", generate(), "Unicode tables (Unicode %s)" % unicodedata.unidata_version)


if __name__ == "__main__":
    main()
