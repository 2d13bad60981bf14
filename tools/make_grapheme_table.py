"""Grapheme cluster break classes for vit.h's tokenizers Precompiled normaliser
(tokenizers splits text into extended grapheme clusters, unicode-segmentation's
UAX #29, before it applies a SentencePiece charsmap). Rewrites the block between
'// ---- grapheme table: begin' and '// ---- grapheme table: end' in vit.h (the
array, in >>tables grapheme), its enum and declaration between
'// ---- grapheme table: declarations' and its end (>>tokenize t5 json).

    python3 tools/make_grapheme_table.py [--check]

From the Python regex module's \\p{Grapheme_Cluster_Break=...} and
\\p{Extended_Pictographic} (its Unicode version is printed in the block).
"""
import os, re, regex, sys, unicodedata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tables  # noqa: E402  (tools/tables.py: where each table is, and the splice)

BEGIN, END = tables.TABLES["grapheme"][:2]

NAMES = ["CR", "LF", "Control", "Extend", "ZWJ", "Regional_Indicator", "Prepend", "SpacingMark", "L", "V", "T", "LV", "LVT"]


def runs():
    pats = [regex.compile(r"\p{Grapheme_Cluster_Break=%s}" % n) for n in NAMES]
    ep = regex.compile(r"\p{Extended_Pictographic}")
    out, prev = [], None
    for c in range(0x110000):
        ch = chr(c)
        v = 0
        for i, p in enumerate(pats):
            if p.match(ch):
                v = i + 1
                break
        if ep.match(ch):
            v |= 16
        if v != prev:
            out.append((c, v))
            prev = v
    return out


def main():
    r = runs()
    lines = [BEGIN + " (tools/make_grapheme_table.py; do not edit)",
             "// Python regex %s's Grapheme_Cluster_Break and Extended_Pictographic" % regex.__version__,
             "enum { VIT__GCB_OTHER, VIT__GCB_CR, VIT__GCB_LF, VIT__GCB_CONTROL, VIT__GCB_EXTEND, VIT__GCB_ZWJ, VIT__GCB_RI,",
             "       VIT__GCB_PREPEND, VIT__GCB_SPACINGMARK, VIT__GCB_L, VIT__GCB_V, VIT__GCB_T, VIT__GCB_LV, VIT__GCB_LVT, VIT__GCB_PICT = 16 };",
             "static const uint32_t vit__gcb_runs[%d] = { // start << 5 | class" % len(r)]
    vals = ["0x%x" % (c << 5 | v) for c, v in r]
    for i in range(0, len(vals), 10):
        lines.append("    " + ", ".join(vals[i:i + 10]) + ",")
    lines.append("};")
    lines.append(END)
    tables.splice("grapheme", lines, "grapheme table (%d runs)" % len(r))


if __name__ == "__main__":
    main()
