#!/usr/bin/env python3
"""vit.h's generated tables: where each one is, the splice that writes or checks it,
and a check of all of them (make lint-tables, part of make lint).

    python3 tools/tables.py --check    # every table: its recorded hash, then its generator's --check
    python3 tools/tables.py --record   # record the tables as they are now (after an edit that
                                       # a generator's --check has shown to be its output)

Each table lies in vit.h between a begin line and an end line (TABLES) and is written
by its generator (tools/make_*.py, through splice() below), which also records the
block's sha256 in tools/tables.sha256. So a hand edit of a table is found with the
standard library alone: --check compares each block with its recorded hash. Then it
runs each generator's --check where the generator's modules are found; the others
say SKIP and name what to install. A generator whose versions (the block's second
line) are not those that made vit.h's table cannot check it: it says so and exits 77,
which --check reports as SKIP (the hash still holds the table to what was generated).
"""
import hashlib
import importlib.util
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
VIT_H = os.path.join(HERE, "..", "vit.h")
HASHES = os.path.join(HERE, "tables.sha256")
SKIP = 77  # a generator's --check that cannot run here

# name: (begin, end, generator, Python modules it needs, other needs (a command that must succeed, what it is))
TABLES = {
    "unicode": ("// ---- Unicode tables: begin", "// ---- Unicode tables: end", "make_unicode_tables.py", [],
                (["perl", "-MUnicode::UCD", "-e", "1"], "Perl's Unicode::UCD (Debian's perl-modules)")),
    "grapheme": ("// ---- grapheme table: begin", "// ---- grapheme table: end", "make_grapheme_table.py", ["regex"], None),
    "open_clip": ("// ---- open_clip tables: begin", "// ---- open_clip tables: end", "make_openclip_tables.py",
                  ["ftfy", "open_clip"], (["perl", "-MUnicode::UCD", "-e", "1"], "Perl's Unicode::UCD (Debian's perl-modules)")),
    "timm_archs": ("// ---- timm architectures: begin", "// ---- timm architectures: end", "make_timm_archs.py", ["timm", "torch"], None),
}
# Until vit.h has the timm table's marker lines, the table is the array itself: from its
# first line to the "};" that closes it.
FALLBACK = {"timm_archs": ("static const struct vit__timm_arch {", "};")}
# Tables kept in two places (see split): their #defines, enums and array declarations
# where the tokenizer uses them, the arrays fenced in >>tables at the end of vit.h.
SPLIT = ("unicode", "grapheme", "open_clip")


def split(generated):
    """vit.h keeps each tokenizer table in two places: its #defines, enums and a
    declaration of each array where the tokenizer uses them, and the arrays
    themselves fenced in >>tables at the end of the implementation (a reader
    skips them in one jump). generated: the block as one list, its begin and end
    lines included, arrays as `static const T name[N] = {` ... `};`. Returns
    [data, declarations], each with its own begin and end lines (the data first:
    its second line names the versions that made it). The arrays are declared
    and defined through VIT__TABLE (static const in C; extern const in an
    unnamed namespace in C++, which has no tentative definitions)."""
    begin, end = generated[0], generated[-1]
    name = begin[len("// ---- "):begin.index(": begin")]
    tool = begin[begin.index("(") + 1:begin.index(";")]
    misc, notes, decls, arrays = [], [], [], []
    i = 1
    while i < len(generated) - 1:
        line = generated[i]
        if line.startswith("static const "):
            j = generated.index("};", i)
            body = line[len("static const "):]
            decls.append("VIT__TABLE " + body[:body.index(" = {")] + ";")
            arrays += ["VIT__TABLE " + body] + generated[i + 1:j + 1]
            i = j + 1
            continue
        if line.startswith("enum"):
            j = i
            while not generated[j].endswith("};"):
                j += 1
            misc += generated[i:j + 1]
            i = j + 1
            continue
        (notes if line.startswith("//") else misc).append(line)
        i += 1
    decl_block = (["// ---- %s: declarations (%s; do not edit; the arrays: >>tables)" % (name, tool)] + misc +
                  ["VIT__TABLES_BEGIN"] + decls + ["VIT__TABLES_END", "// ---- %s: declarations end" % name])
    data_block = [begin] + notes + ["VIT__TABLES_BEGIN"] + arrays + ["VIT__TABLES_END", end]
    return [data_block, decl_block]


def decl_markers(name):
    """The declarations block's begin and end line prefixes of a SPLIT table."""
    begin = TABLES[name][0]
    title = begin[:begin.index(": begin")]
    return title + ": declarations", title + ": declarations end"


def read_vit_h():
    with open(VIT_H, encoding="utf-8") as f:
        return f.read().split("\n")


def find(lines, begin, end):
    b = next((i for i, l in enumerate(lines) if l.startswith(begin)), None)
    if b is None:
        return None, None
    e = next((i for i in range(b + 1, len(lines)) if lines[i].startswith(end)), None)
    return (b, e) if e is not None else (None, None)


def locate(lines, name):
    """(first, last) line indices of the table's block (a SPLIT table's arrays), its
    begin and end lines included; (None, None) when vit.h has no such block."""
    pairs = [TABLES[name][:2]] + ([FALLBACK[name]] if name in FALLBACK else [])
    for begin, end in pairs:
        b, e = find(lines, begin, end)
        if b is not None:
            return b, e
    return None, None


def spans(lines, name):
    """The table's blocks in vit.h as (first, last) pairs: its arrays, then (SPLIT
    tables) its declarations; None when one is missing."""
    out = [locate(lines, name)]
    if name in SPLIT:
        out.append(find(lines, *decl_markers(name)))
    return None if any(b is None for b, _ in out) else out


def joined(lines, name):
    """The lines of the table's blocks, one after the other (what its hash covers)."""
    return [l for b, e in spans(lines, name) for l in lines[b:e + 1]]


def has_markers(name):
    begin = TABLES[name][0]
    return any(l.startswith(begin) for l in read_vit_h())


def digest(block):
    return hashlib.sha256("\n".join(block).encode("utf-8")).hexdigest()


def read_hashes():
    out = {}
    if os.path.exists(HASHES):
        with open(HASHES, encoding="utf-8") as f:
            for line in f:
                if line.strip() and not line.startswith("#"):
                    h, name = line.split()
                    out[name] = h
    return out


def record(name, block):
    hashes = read_hashes()
    hashes[name] = digest(block)
    with open(HASHES, "w", encoding="utf-8") as f:
        f.write("# sha256 of each generated table of vit.h, its begin and end lines included, as its\n"
                "# generator last wrote it (tools/tables.py; checked by make lint-tables)\n")
        for n in TABLES:
            if n in hashes:
                f.write("%s  %s\n" % (hashes[n], n))


def splice(name, generated, what, made=None):
    """Puts generated (lines, the begin and end lines included; a SPLIT table's in
    its two places, see split) in vit.h in place of the table name, and records its
    hash; with --check in sys.argv only compares: exit 0 when they agree, 1 when
    they differ, SKIP (77) when they differ and the versions that made them differ
    (made: (vit.h's, this run's); by default the data block's second line, which
    names them). what: the tables' name and origin."""
    lines = read_vit_h()
    where = spans(lines, name)
    if where is None:
        print("vit.h has no %s (no line starting %r or its declarations)" % (what, TABLES[name][0]))
        sys.exit(1)
    blocks = split(generated) if name in SPLIT else [generated]
    new = lines
    for (b, e), block in sorted(zip(where, blocks), key=lambda x: -x[0][0]):  # from the end: earlier indices stay
        new = new[:b] + block + new[e + 1:]
    gen = [l for block in blocks for l in block]
    if "--check" in sys.argv:
        old = joined(lines, name)
        if made is None:
            made = (old[1] if len(old) > 1 else "", gen[1] if len(gen) > 1 else "")
        if new == lines:
            print("vit.h's %s are up to date" % what)
            return
        differ = [i for i in range(max(len(old), len(gen)))
                  if i >= len(old) or i >= len(gen) or old[i] != gen[i]]
        if len(old) == len(gen) and made[0] != made[1] and differ == [1]:
            print("vit.h's %s are up to date (made with %s; checked with %s)" % (what, made[0].lstrip("/ "), made[1].lstrip("/ ")))
            return
        if made[0] != made[1]:
            print("SKIP vit.h's %s: %d lines differ from this run's, but vit.h's were made with %s and this is %s: "
                  "check with those versions" % (what, len(differ), made[0].lstrip("/ "), made[1].lstrip("/ ")))
            sys.exit(SKIP)
        print("vit.h's %s differ from the tool's (%d lines)" % (what, len(differ)))
        sys.exit(1)
    with open(VIT_H, "w", encoding="utf-8") as f:
        f.write("\n".join(new))
    record(name, gen)
    print("wrote %d lines of %s into vit.h" % (len(gen), what))


def missing(name):
    _, _, _, modules, other = TABLES[name]
    out = [m for m in modules if importlib.util.find_spec(m) is None]
    if other is not None:
        try:
            ok = subprocess.run(other[0], capture_output=True).returncode == 0
        except OSError:
            ok = False
        if not ok:
            out.append(other[1])
    return out


def check_all():
    lines = read_vit_h()
    hashes = read_hashes()
    failed = 0
    for name, (begin, _, tool, _, _) in TABLES.items():
        where = spans(lines, name)
        if where is None:
            print("NOT OK %s: vit.h has no line starting %r (or its declarations)" % (name, begin))
            failed += 1
            continue
        (b, e) = where[0]
        h = digest(joined(lines, name))
        if hashes.get(name) != h:
            print("NOT OK %s (vit.h:%d-%d): not what tools/%s last wrote (tools/tables.sha256): regenerate it, "
                  "or, if tools/%s --check passes, python3 tools/tables.py --record" % (name, b + 1, e + 1, tool, tool))
            failed += 1
        else:
            print("OK %s (vit.h:%d-%d): as tools/%s wrote it" % (name, b + 1, e + 1, tool))
        need = missing(name)
        if need:
            print("SKIP tools/%s --check: needs %s" % (tool, ", ".join(need)))
            continue
        r = subprocess.run([sys.executable, os.path.join(HERE, tool), "--check"], capture_output=True, text=True)
        out = (r.stdout + r.stderr).strip()
        if r.returncode == 0:
            print("OK tools/%s --check: %s" % (tool, out.splitlines()[-1] if out else ""))
        elif r.returncode == SKIP:
            print(out if out.startswith("SKIP") else "SKIP tools/%s --check: %s" % (tool, out))
        else:
            print("NOT OK tools/%s --check (exit %d):\n%s" % (tool, r.returncode, out))
            failed += 1
    print("tables: %s" % ("%d NOT OK" % failed if failed else "all OK"))
    return 1 if failed else 0


def record_all():
    lines = read_vit_h()
    for name in TABLES:
        where = spans(lines, name)
        if where is None:
            sys.exit("vit.h has no %s table" % name)
        (b, e) = where[0]
        record(name, joined(lines, name))
        print("recorded %s (vit.h:%d-%d)" % (name, b + 1, e + 1))


if __name__ == "__main__":
    if sys.argv[1:] == ["--check"]:
        sys.exit(check_all())
    if sys.argv[1:] == ["--record"]:
        record_all()
        sys.exit(0)
    sys.exit(__doc__)
