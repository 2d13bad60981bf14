#!/bin/sh
# Checks the SECTIONS index in the head comment of vit.h and vit_kernels.cuh
# against the file's '// >>name' markers: the same names in the same order.
# Fails on a marker missing from the index, an index entry with no marker, or
# the two in a different order. (make lint runs it; POSIX sh and awk only.)
#
#     sh tools/check_sections.sh [FILE...]      (default: vit.h vit_kernels.cuh)
#
# A marker line is '// >>name', then optionally ' -...' (a rule of dashes, or
# '-- CPU reference: ...'). An index entry is a line of the head comment's
# SECTIONS block that starts with spaces and '>>': its name runs to the first
# two spaces. The block ends at the next heading (three spaces, then capitals)
# or at the end of the comment.
[ $# -gt 0 ] || set -- vit.h vit_kernels.cuh
status=0
for f in "$@"; do
    awk -v file="$f" '
    function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
    !done_head && /\*\// { done_head = 1; in_index = 0 }
    !done_head && /^   SECTIONS[ \t]*$/ { in_index = 1; seen_index = 1; next }
    in_index && /^   [A-Z]/ { in_index = 0 }
    in_index && /^ +>>/ {
        s = $0; sub(/^ +>>/, "", s)
        i = index(s, "  "); if (i) s = substr(s, 1, i - 1)
        idx[++ni] = trim(s); idx_line[ni] = NR
        next
    }
    /^\/\/ >>/ {
        s = substr($0, 6); i = index(s, " -"); if (i) s = substr(s, 1, i - 1)
        mk[++nm] = trim(s); mk_line[nm] = NR
    }
    END {
        bad = 0
        if (!seen_index) { printf "%s: no SECTIONS list in the head comment\n", file; exit 1 }
        for (i = 1; i <= nm; i++) in_mk[mk[i]] = i
        for (i = 1; i <= ni; i++) in_idx[idx[i]] = i
        for (i = 1; i <= nm; i++) if (!(mk[i] in in_idx)) { printf "%s:%d: marker >>%s is not in SECTIONS\n", file, mk_line[i], mk[i]; bad = 1 }
        for (i = 1; i <= ni; i++) if (!(idx[i] in in_mk)) { printf "%s:%d: SECTIONS lists >>%s, which no marker has\n", file, idx_line[i], idx[i]; bad = 1 }
        if (!bad) for (i = 1; i <= nm; i++) if (idx[i] != mk[i]) {
            printf "%s:%d: marker >>%s is where SECTIONS has >>%s (line %d): out of order\n", file, mk_line[i], mk[i], idx[i], idx_line[i]; bad = 1; break
        }
        if (bad) exit 1
        printf "%s: %d sections, index and markers agree\n", file, nm
    }' "$f" || status=1
done
exit $status
