// test_tokenizer: vit.h's tokenizers give transformers' input ids, and fail by name.
//
// usage: test_tokenizer DIR   (DIR: tests/data/tokenizers, made by
//                              tools/make_tokenizer_reference.py)
//
// Every string of DIR/corpus.txt through each tokenizer folder of DIR (CLIP's
// tokenizer.json, two SentencePiece models as SigLIP's) must give exactly the
// ids of that folder's expected.txt (what transformers gives), padded to the
// context: every string is counted and the first mismatches are printed. Then
// the failures: NULL arguments, small id buffers, text that is not UTF-8 or
// too long, missing, truncated and damaged tokenizer files (edited copies of
// the real ones and small SentencePiece models written here), unsupported
// tokenizers, and every allocation of a load and of a call failing in turn.
// open_clip's layout (tools/make_openclip_tokenizer_reference.py): corpus.txt and
// openclip_extra.txt through a SimpleTokenizer folder and a SigLIP HFTokenizer
// folder must give open_clip 3.3's ids, or be refused (VIT_ERROR_UNSUPPORTED)
// exactly where expected.txt says "refused"; its config settings vit.h refuses.
//
// VIT_MAX_TEXT_BYTES and VIT_MAX_VOCAB are set small enough here that their
// boundaries can be hit in memory (CLIP's 49408 tokens still fit).
#define VIT_MAX_TEXT_BYTES 200000u
#define VIT_MAX_VOCAB 65536
#define VIT_IMPLEMENTATION
#include "../vit.h"
#define TEST_UTIL_QUIET_OK // OK lines carry no detail
#include "test_util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char g_dir[1024];

static void path_of(char *buf, size_t size, const char *name) { fmt(buf, size, "%s/%s", g_dir, name); }


// ---------------------------------------------------------------------------
// the corpus against transformers' ids

typedef struct corpus {
    size_t n;
    char **text;
    size_t *len;
    unsigned char *data, *extra;
} corpus;

// corpus.txt: per string its byte count, ':', its bytes, '\n'
static int read_corpus(corpus *c) {
    char path[1200];
    size_t size;
    path_of(path, sizeof(path), "corpus.txt");
    memset(c, 0, sizeof(*c));
    if (!(c->data = read_all(path, &size))) return 0;
    size_t cap = 0;
    for (size_t at = 0; at < size;) {
        char *end;
        unsigned long long len = strtoull((const char *)c->data + at, &end, 10);
        size_t start = (size_t)(end - (const char *)c->data) + 1;
        if (*end != ':' || start + len >= size + 1 || c->data[start + len] != '\n') return 0;
        if (c->n == cap) {
            cap = cap ? 2 * cap : 1024;
            c->text = (char **)realloc(c->text, cap * sizeof(char *));
            c->len = (size_t *)realloc(c->len, cap * sizeof(size_t));
        }
        c->text[c->n] = (char *)c->data + start;
        c->len[c->n++] = (size_t)len;
        at = start + (size_t)len + 1;
    }
    return 1;
}

// A printable excerpt of a string (escapes for what is not printable ASCII).
static const char *show(const char *s, size_t n) {
    static char buf[160];
    size_t w = 0;
    for (size_t i = 0; i < n && w + 8 < sizeof(buf); i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7F && c != '\\') buf[w++] = (char)c;
        else w += (size_t)snprintf(buf + w, sizeof(buf) - w, "\\x%02x", c);
    }
    if (w + 8 >= sizeof(buf)) { memcpy(buf + w, "...", 3); w += 3; }
    buf[w] = 0;
    return buf;
}

static const char *show_ids(const int *ids, int n) {
    static char buf[600];
    size_t w = 0;
    for (int i = 0; i < n && w + 16 < sizeof(buf); i++) w += (size_t)snprintf(buf + w, sizeof(buf) - w, "%s%d", i ? " " : "", ids[i]);
    return buf;
}

// expected.txt: "context C pad P", then per string its ids before the padding
static const char *g_load; // test_folder loads this folder instead of name's (its expected.txt stays name's)

// An expected.txt line's ids (up to context + 1) into want, the rest of the context padded; returns how many.
static int parse_ids(char *p, int *want, int context, int pad) {
    int nw = 0;
    while (nw <= context) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p) break;
        want[nw++] = (int)v;
        p = end;
    }
    for (int i = nw; i < context; i++) want[i] = pad;
    return nw;
}

// Texts with a code point unassigned in vit.h's Unicode (14.0) but a letter or a
// number in later ones: refused (VIT_ERROR_UNSUPPORTED, naming it and the version)
// where `refuse` says (the tokenizer's newer Unicode would change the ids), else
// tokenized; noncharacters and private use are tokenized everywhere.
static void test_unassigned(vit_tokenizer *t, const char *name, int refuse) {
    static const struct { const char *text, *cp; int oc; } cases[] = {
        {"a\xE1\xB2\x89z", "U+1C89", 0},            // CYRILLIC CAPITAL LETTER TJE (16.0), lower case U+1C8A
        {"\xEA\x9F\x8B", "U+A7CB", 0},              // LATIN CAPITAL LETTER RAMS HORN (16.0)
        {"x \xF0\xB1\x8D\x90 y", "U+31350", 0},    // CJK Extension H (15.0)
        {"\xF0\xAE\xAF\xB0", "U+2EBF0", 0},         // CJK Extension I (15.1)
        {"1\xF0\x9E\x93\xB0", "U+1E4F0", 0},        // NAG MUNDARI DIGIT ZERO (15.0)
        {"\xF0\x96\xB5\xB0 2", "U+16D70", 0},       // KIRAT RAI DIGIT ZERO (16.0)
        {"A\xF0\x91\xBD\x90\xCE\xA3", "U+11F50", 0}, // KAWI DIGIT ZERO (15.0) before a sigma
        {"a &#x1C89; b", "U+1C89", 1},                 // open_clip: from ftfy's unescaping
        {"a &amp;#x1E4F0; b", "U+1E4F0", 1},           // open_clip: from html.unescape's second round
    };
    static const char *const kept[] = {"a\xEF\xB7\x90z", "\xF4\x8F\xBF\xBF", "\xEE\x80\x80x"}; // U+FDD0, U+10FFFF, U+E000
    int ids[128], n, oc = vit_tokenizer_get_config(t)->open_clip;
    char label[160];
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        if (cases[k].oc && !oc) continue;
        vit_status st = vit_tokenize(t, cases[k].text, strlen(cases[k].text), ids, 128, &n);
        const char *msg = vit_tokenizer_last_error(t);
        fmt(label, sizeof(label), "%s: unassigned in Unicode 14: %s %s", name, cases[k].cp, refuse ? "refused" : "tokenized");
        if (refuse) check(st == VIT_ERROR_UNSUPPORTED && strstr(msg, cases[k].cp) && strstr(msg, "Unicode 14.0.0"), label, "%s: %s", vit_status_string(st), msg);
        else check(st == VIT_OK, label, "%s: %s", vit_status_string(st), msg);
    }
    for (size_t k = 0; k < sizeof(kept) / sizeof(kept[0]); k++) {
        vit_status st = vit_tokenize(t, kept[k], strlen(kept[k]), ids, 128, &n);
        fmt(label, sizeof(label), "%s: noncharacters and private use tokenized ('%s')", name, show(kept[k], strlen(kept[k])));
        check(st == VIT_OK, label, "%s: %s", vit_status_string(st), vit_tokenizer_last_error(t));
    }
}

static void test_folder(const corpus *c, const char *name, vit_tokenizer_type type, int bos, int eos) {
    char path[1200], label[128];
    fmt(path, sizeof(path), "%s/%s", g_dir, name);
    if (g_load) fmt(path, sizeof(path), "%s", g_load);
    vit_tokenizer *t = NULL;
    vit_status st = vit_tokenizer_load(path, NULL, &t);
    fmt(label, sizeof(label), "%s: vit_tokenizer_load", name);
    if (!check(st == VIT_OK, label, "%s: %s", vit_status_string(st), vit_tokenizer_last_error(NULL))) return;
    const vit_tokenizer_config *cfg = vit_tokenizer_get_config(t);
    fmt(path, sizeof(path), "%s/%s/expected.txt", g_dir, name);
    FILE *f = fopen(path, "rb");
    int context = 0, pad = -1;
    fmt(label, sizeof(label), "%s: expected.txt", name);
    char head[128];
    if (!check(f && fgets(head, sizeof(head), f) && sscanf(head, "context %d pad %d", &context, &pad) == 2, label, "cannot read %s", path)) {
        if (f) fclose(f);
        vit_tokenizer_free(t);
        return;
    }
    fmt(label, sizeof(label), "%s: config", name);
    check(cfg->type == type && cfg->context == context && cfg->pad_id == pad && cfg->bos_id == bos && cfg->eos_id == eos && cfg->vocab_size > 0, label,
          "type %d context %d pad %d bos %d eos %d (expected %d %d %d %d %d), vocab %d, from %s", cfg->type, cfg->context, cfg->pad_id, cfg->bos_id,
          cfg->eos_id, type, context, pad, bos, eos, cfg->vocab_size, cfg->source);
    int *ids = (int *)malloc((size_t)(context + 1) * sizeof(int)), *want = (int *)malloc((size_t)(context + 1) * sizeof(int));
    size_t same = 0, shown = 0;
    for (size_t k = 0; k < c->n; k++) {
        int nw = 0;
        char line[8192];
        if (!fgets(line, sizeof(line), f)) break;
        nw = parse_ids(line, want, context, pad);
        ids[context] = 0x5EED; // a guard past the context
        int n = -1;
        st = vit_tokenize(t, c->text[k], c->len[k], ids, context, &n);
        int ok = st == VIT_OK && n == nw && !memcmp(ids, want, (size_t)context * sizeof(int)) && ids[context] == 0x5EED;
        for (int i = 0; ok && i < context; i++) ok = ids[i] >= 0 && ids[i] < cfg->vocab_size;
        if (ok) { same++; continue; }
        if (shown++ < 8) {
            printf("  %s string %zu '%s': %s\n", name, k, show(c->text[k], c->len[k]), st == VIT_OK ? "" : vit_tokenizer_last_error(t));
            printf("    vit.h        (%d) %s\n", n, show_ids(ids, n > 0 && n <= context ? n : 0));
            printf("    transformers (%d) %s\n", nw, show_ids(want, nw));
        }
    }
    fclose(f);
    fmt(label, sizeof(label), "%s: transformers' ids", name);
    check(same == c->n, label, "%zu of %zu strings", same, c->n);
    printf("%s: %zu of %zu strings give transformers' ids (%s)\n", name, same, c->n, cfg->source);
    test_unassigned(t, name, type == VIT_TOKENIZER_CLIP_BPE || cfg->lower_case);
    free(ids);
    free(want);
    vit_tokenizer_free(t);
}

// ---------------------------------------------------------------------------
// failures

// A failure with the named status, a message holding `needle`, and no tokenizer.
static void expect_load(vit_status st, vit_tokenizer *t, vit_status want, const char *needle, const char *name) {
    const char *msg = vit_tokenizer_last_error(NULL);
    check(st == want && t == NULL && msg[0] && (!needle || strstr(msg, needle)), name, "%s (expected %s with '%s'): %s", vit_status_string(st),
          vit_status_string(want), needle ? needle : "", msg);
    vit_tokenizer_free(t);
}

// Loads from memory (exact-size copies: ASan sees a read past either end).
static vit_status load_mem(const void *data, size_t size, const char *config, vit_tokenizer **t) {
    unsigned char *d = exact_copy(data, size);
    char *c = config ? (char *)exact_copy(config, strlen(config)) : NULL;
    *t = (vit_tokenizer *)(void *)&g_dir; // a load must write *out
    vit_status st = vit_tokenizer_load_memory(d, size, c, config ? strlen(config) : 0, NULL, t);
    free(d);
    free(c);
    return st;
}

static unsigned char *read_file(const char *name, size_t *size) {
    char path[1200];
    path_of(path, sizeof(path), name);
    return read_all(path, size);
}

// text with the first `from` replaced by `to` (malloc'd), or NULL if `from` is not in it
static char *replace(const char *text, size_t n, const char *from, const char *to, size_t *out_n) {
    const char *at = NULL;
    size_t fl = strlen(from), tl = strlen(to);
    for (size_t i = 0; i + fl <= n && !at; i++)
        if (!memcmp(text + i, from, fl)) at = text + i;
    if (!at) return NULL;
    char *r = (char *)malloc(n - fl + tl + 1);
    size_t head = (size_t)(at - text);
    memcpy(r, text, head);
    memcpy(r + head, to, tl);
    memcpy(r + head + tl, at + fl, n - head - fl);
    *out_n = n - fl + tl;
    r[*out_n] = 0;
    return r;
}

static void test_arguments(void) {
    char path[1200];
    vit_tokenizer *clip = NULL, *sig = NULL;
    path_of(path, sizeof(path), "clip");
    vit_status s1 = vit_tokenizer_load(path, NULL, &clip);
    path_of(path, sizeof(path), "siglip_a");
    vit_status s2 = vit_tokenizer_load(path, NULL, &sig);
    if (!check(s1 == VIT_OK && s2 == VIT_OK, "arguments: load", "%s", vit_tokenizer_last_error(NULL))) { vit_tokenizer_free(clip); vit_tokenizer_free(sig); return; }
    int ids[80], n = -7;
    vit_status st = vit_tokenize(NULL, "a", 1, ids, 80, &n);
    check(st == VIT_ERROR_INVALID_ARGUMENT, "arguments: NULL tokenizer", "%s", vit_status_string(st));
    st = vit_tokenize(clip, "a", 1, NULL, 80, &n);
    check(st == VIT_ERROR_INVALID_ARGUMENT && strstr(vit_tokenizer_last_error(clip), "ids is NULL"), "arguments: NULL ids", "%s", vit_tokenizer_last_error(clip));
    st = vit_tokenize(clip, NULL, 3, ids, 80, &n);
    check(st == VIT_ERROR_INVALID_ARGUMENT && strstr(vit_tokenizer_last_error(clip), "text is NULL"), "arguments: NULL text, len 3", "%s", vit_tokenizer_last_error(clip));
    int e1[80], e2[80], n1 = 0, n2 = 0;
    st = vit_tokenize(clip, NULL, 0, e1, 80, &n1);
    vit_status st2 = vit_tokenize(clip, "", 0, e2, 80, &n2);
    check(st == VIT_OK && st2 == VIT_OK && n1 == 2 && n2 == 2 && !memcmp(e1, e2, 77 * sizeof(int)) && e1[0] == 49406 && e1[1] == 49407 && e1[76] == 49407,
          "arguments: NULL text of length 0 is the empty text", "%s, %d ids", vit_status_string(st), n1);
    st = vit_tokenize(sig, "", 0, e1, 64, NULL);
    check(st == VIT_OK && e1[0] == 1 && e1[63] == 1, "arguments: n_tokens may be NULL", "%s", vit_status_string(st));
    for (int i = 0; i < 80; i++) ids[i] = -5;
    st = vit_tokenize(clip, "a photo", 7, ids, 76, &n);
    int untouched = 1;
    for (int i = 0; i < 80; i++) untouched &= ids[i] == -5;
    check(st == VIT_ERROR_INVALID_ARGUMENT && untouched && strstr(vit_tokenizer_last_error(clip), "max_ids 76"), "arguments: 76 ids for a context of 77",
          "%s: %s", vit_status_string(st), vit_tokenizer_last_error(clip));
    st = vit_tokenize(sig, "a photo", 7, ids, 63, &n);
    check(st == VIT_ERROR_INVALID_ARGUMENT, "arguments: 63 ids for a context of 64", "%s", vit_status_string(st));
    // text that is not UTF-8: the offset of the first bad byte
    static const struct { const char *s; size_t n, at; } bad[] = {
        {"a\xff", 2, 1}, {"ab\xc0\x80", 4, 2}, {"\xed\xa0\x80", 3, 0}, {"xyz\xe2\x82", 5, 3}, {"\xf4\x90\x80\x80", 4, 0},
        {"caf\xc3", 4, 3}, {"\x80", 1, 0}, {"ok\xf8\x88\x80\x80\x80", 7, 2}, {"\xe0\x80\xaf", 3, 0},
    };
    for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
        char name[96], needle[64];
        for (int which = 0; which < 2; which++) {
            vit_tokenizer *t = which ? sig : clip;
            fmt(needle, sizeof(needle), "not valid UTF-8 at byte %zu", bad[k].at);
            fmt(name, sizeof(name), "arguments: %s, invalid UTF-8 '%s'", which ? "siglip" : "clip", show(bad[k].s, bad[k].n));
            char *copy = (char *)exact_copy(bad[k].s, bad[k].n);
            st = vit_tokenize(t, copy, bad[k].n, ids, 80, &n);
            free(copy);
            check(st == VIT_ERROR_INVALID_ARGUMENT && strstr(vit_tokenizer_last_error(t), needle), name, "%s: %s", vit_status_string(st), vit_tokenizer_last_error(t));
        }
    }
    // the longest text, and one byte more
    char *big = (char *)malloc(VIT_MAX_TEXT_BYTES + 1);
    for (size_t i = 0; i <= VIT_MAX_TEXT_BYTES; i++) big[i] = "a photo of a cat "[i % 17];
    for (int which = 0; which < 2; which++) {
        vit_tokenizer *t = which ? sig : clip;
        int ctx = vit_tokenizer_get_config(t)->context;
        st = vit_tokenize(t, big, VIT_MAX_TEXT_BYTES, ids, 80, &n);
        check(st == VIT_OK && n == ctx, which ? "arguments: siglip, VIT_MAX_TEXT_BYTES of text" : "arguments: clip, VIT_MAX_TEXT_BYTES of text", "%s, %d ids",
              vit_status_string(st), n);
        st = vit_tokenize(t, big, VIT_MAX_TEXT_BYTES + 1, ids, 80, &n);
        check(st == VIT_ERROR_LIMIT && strstr(vit_tokenizer_last_error(t), "VIT_MAX_TEXT_BYTES"), which ? "arguments: siglip, one byte more" : "arguments: clip, one byte more",
              "%s: %s", vit_status_string(st), vit_tokenizer_last_error(t));
    }
    free(big);
    check(vit_tokenizer_get_config(NULL) == NULL && vit_tokenizer_last_error(clip)[0], "arguments: config of NULL, last error", "%s", "");
    vit_tokenizer_free(NULL);
    vit_tokenizer_free(clip);
    vit_tokenizer_free(sig);
    // loads
    vit_tokenizer *t = (vit_tokenizer *)(void *)&g_dir;
    st = vit_tokenizer_load(NULL, NULL, &t);
    expect_load(st, t, VIT_ERROR_INVALID_ARGUMENT, "path is NULL", "arguments: load(NULL path)");
    st = vit_tokenizer_load(path, NULL, NULL);
    check(st == VIT_ERROR_INVALID_ARGUMENT, "arguments: load(out NULL)", "%s", vit_status_string(st));
    t = (vit_tokenizer *)(void *)&g_dir;
    st = vit_tokenizer_load_memory(NULL, 5, NULL, 0, NULL, &t);
    expect_load(st, t, VIT_ERROR_INVALID_ARGUMENT, "data is NULL", "arguments: load_memory(NULL data)");
    vit_options o;
    memset(&o, 0, sizeof(o));
    o.allocator.alloc = count_alloc;
    t = (vit_tokenizer *)(void *)&g_dir;
    st = vit_tokenizer_load(path, &o, &t);
    expect_load(st, t, VIT_ERROR_INVALID_ARGUMENT, "allocator", "arguments: an allocator without free");
}

// a folder of these files (name, bytes, size), removed by rm_folder
static int make_folder(char *dir, size_t cap, const char *const *names, const void *const *data, const size_t *sizes, int n) {
    if (!test_mkdtemp(dir, cap, "vit_tok")) return 0;
    for (int k = 0; k < n; k++) {
        char p[1200];
        fmt(p, sizeof(p), "%s/%s", dir, names[k]);
        FILE *f = test_fopen(p, "wb");
        if (!f) return 0;
        fwrite(data[k], 1, sizes[k], f);
        fclose(f);
    }
    return 1;
}

static void rm_folder(const char *dir, const char *const *names, int n) {
    for (int k = 0; k < n; k++) {
        char p[1200];
        fmt(p, sizeof(p), "%s/%s", dir, names[k]);
        test_remove(p);
    }
    test_rmdir(dir);
}

// ---------------------------------------------------------------------------
// open_clip's layout (open_clip_config.json) against open_clip's own ids

// A corpus file appended to c (openclip_extra.txt); its strings after corpus.txt's.
static int read_more(corpus *c, const char *name) {
    char path[1200];
    size_t size, cap = c->n;
    path_of(path, sizeof(path), name);
    unsigned char *d = read_all(path, &size);
    if (!d) return 0;
    for (size_t at = 0; at < size;) {
        char *end;
        unsigned long long len = strtoull((const char *)d + at, &end, 10);
        size_t start = (size_t)(end - (const char *)d) + 1;
        if (*end != ':' || start + len >= size + 1 || d[start + len] != '\n') return 0;
        if (c->n == cap) {
            cap = 2 * cap + 16;
            c->text = (char **)realloc(c->text, cap * sizeof(char *));
            c->len = (size_t *)realloc(c->len, cap * sizeof(size_t));
        }
        c->text[c->n] = (char *)d + start;
        c->len[c->n++] = (size_t)len;
        at = start + (size_t)len + 1;
    }
    c->extra = d;
    return 1;
}

// The folder `name` (its files but expected.txt) with `more` (files of other folders, as "dir/file")
// copied beside them, as open_clip's save_for_hf writes it; every string of the corpus must give
// expected.txt's ids, or be refused (VIT_ERROR_UNSUPPORTED) where it says "refused".
static void test_openclip(const corpus *c, const char *name, const char *const *files, int nf, const char *const *more, int nm, vit_tokenizer_type type,
                          int pad_want) {
    const char *names[8];
    const void *data[8];
    size_t sizes[8];
    char label[160], dir[256], path[1200];
    int n = 0, ok = 1;
    for (int k = 0; k < nf + nm && k < 8; k++) {
        char rel[256];
        if (k < nf) fmt(rel, sizeof(rel), "%s/%s", name, files[k]);
        else fmt(rel, sizeof(rel), "%s", more[k - nf]);
        data[n] = read_file(rel, &sizes[n]);
        const char *base = k < nf ? files[k] : more[k - nf];
        names[n] = strrchr(base, '/') ? strrchr(base, '/') + 1 : base;
        ok &= data[n] != NULL;
        n++;
    }
    fmt(label, sizeof(label), "%s: the folder", name);
    if (!check(ok && make_folder(dir, sizeof(dir), names, data, sizes, n), label, "cannot read or write the files")) {
        for (int k = 0; k < n; k++) free((void *)data[k]);
        return;
    }
    vit_tokenizer *t = NULL;
    vit_status st = vit_tokenizer_load(dir, NULL, &t);
    fmt(label, sizeof(label), "%s: vit_tokenizer_load", name);
    if (check(st == VIT_OK, label, "%s: %s", vit_status_string(st), vit_tokenizer_last_error(NULL))) {
        const vit_tokenizer_config *cfg = vit_tokenizer_get_config(t);
        fmt(path, sizeof(path), "%s/%s/expected.txt", g_dir, name);
        FILE *f = fopen(path, "rb");
        char head[128];
        int context = 0, pad = -1;
        fmt(label, sizeof(label), "%s: expected.txt", name);
        if (check(f && fgets(head, sizeof(head), f) && sscanf(head, "context %d pad %d", &context, &pad) == 2, label, "cannot read %s", path)) {
            fmt(label, sizeof(label), "%s: config", name);
            check(cfg->type == type && cfg->context == context && cfg->pad_id == pad && pad == pad_want && strstr(cfg->source, "open_clip_config.json"), label,
                  "type %d context %d pad %d (expected %d %d %d), from %s", cfg->type, cfg->context, cfg->pad_id, type, context, pad, cfg->source);
            int *ids = (int *)malloc((size_t)(context + 1) * sizeof(int)), *want = (int *)malloc((size_t)(context + 1) * sizeof(int));
            size_t same = 0, refused = 0, shown = 0, lines = 0;
            static char line[16384];
            for (size_t k = 0; k < c->n && fgets(line, sizeof(line), f); k++) {
                lines++;
                int nw = 0, refuse = !strncmp(line, "refused", 7);
                char *p = refuse ? strchr(line, ':') + 1 : line;
                nw = parse_ids(p, want, context, pad);
                ids[context] = 0x5EED;
                int got = -1;
                st = vit_tokenize(t, c->text[k], c->len[k], ids, context, &got);
                int good = refuse ? st == VIT_ERROR_UNSUPPORTED && vit_tokenizer_last_error(t)[0]
                                  : st == VIT_OK && got == nw && !memcmp(ids, want, (size_t)context * sizeof(int)) && ids[context] == 0x5EED;
                if (good) { same += !refuse; refused += refuse; continue; }
                if (shown++ < 8) {
                    printf("  %s string %zu '%s': %s%s\n", name, k, show(c->text[k], c->len[k]), refuse ? "(to be refused) " : "", st == VIT_OK ? "" : vit_tokenizer_last_error(t));
                    printf("    vit.h     (%d) %s\n", got, show_ids(ids, got > 0 && got <= context ? got : 0));
                    printf("    open_clip (%d) %s\n", nw, show_ids(want, nw));
                }
            }
            fmt(label, sizeof(label), "%s: open_clip's ids, or refused where expected.txt says", name);
            check(same + refused == c->n && lines == c->n, label, "%zu + %zu of %zu strings", same, refused, c->n);
            printf("%s: of %zu strings %zu give open_clip's ids, %zu are refused as expected (%s)\n", name, c->n, same, refused, cfg->source);
            test_unassigned(t, name, 1);
            free(ids);
            free(want);
        }
        if (f) fclose(f);
        vit_tokenizer_free(t);
    }
    rm_folder(dir, names, n);
    for (int k = 0; k < n; k++) free((void *)data[k]);
}


// the ids of a few strings agree between two tokenizers
static int same_ids(vit_tokenizer *a, vit_tokenizer *b) {
    static const char *const texts[] = {"", "A photo of a CAT.", "東京 😀 naïve </s> <|endoftext|> it's", "ΣΟΦΙΑΣ 1,000,000"};
    for (int k = 0; k < 4; k++) {
        int x[80], y[80], nx = 0, ny = 0;
        if (vit_tokenize(a, texts[k], strlen(texts[k]), x, 80, &nx) || vit_tokenize(b, texts[k], strlen(texts[k]), y, 80, &ny)) return 0;
        if (nx != ny || memcmp(x, y, (size_t)vit_tokenizer_get_config(a)->context * sizeof(int))) return 0;
    }
    return 1;
}

static int ids_are(vit_tokenizer *t, const char *text, const int *want, int n_want);

static void test_files(void) {
    char path[1200], dir[256];
    vit_tokenizer *t = (vit_tokenizer *)(void *)&g_dir, *ref = NULL;
    fmt(path, sizeof(path), "%s/no such folder", g_dir);
    vit_status st = vit_tokenizer_load(path, NULL, &t);
    expect_load(st, t, VIT_ERROR_IO, "no such folder", "files: a missing path");
    if (!check(make_folder(dir, sizeof(dir), NULL, NULL, NULL, 0), "files: a temporary folder", "%s", "")) return;
    t = (vit_tokenizer *)(void *)&g_dir;
    st = vit_tokenizer_load(dir, NULL, &t);
    expect_load(st, t, VIT_ERROR_IO, "has no spiece.model (and no tokenizer_config.json)", "files: an empty folder");
    test_rmdir(dir);
    size_t sz_json, sz_cfg, sz_sp, sz_spcfg;
    unsigned char *json = read_file("clip/tokenizer.json", &sz_json), *cfg = read_file("clip/tokenizer_config.json", &sz_cfg);
    unsigned char *sp = read_file("siglip_a/spiece.model", &sz_sp), *spcfg = read_file("siglip_a/tokenizer_config.json", &sz_spcfg);
    if (!check(json && cfg && sp && spcfg, "files: read the references", "%s", "")) { free(json); free(cfg); free(sp); free(spcfg); return; }
    // the class decides which file is read
    const char *names[2] = {"tokenizer_config.json", "tokenizer.json"};
    const void *data[2] = {spcfg, json};
    size_t sizes[2] = {sz_spcfg, sz_json};
    if (make_folder(dir, sizeof(dir), names, data, sizes, 2)) {
        t = (vit_tokenizer *)(void *)&g_dir;
        st = vit_tokenizer_load(dir, NULL, &t);
        expect_load(st, t, VIT_ERROR_IO, "has no spiece.model", "files: SiglipTokenizer's config beside a tokenizer.json");
        rm_folder(dir, names, 2);
    }
    size_t n;
    char *t5 = replace((const char *)spcfg, sz_spcfg, "SiglipTokenizer", "T5Tokenizer", &n);
    const char *names2[2] = {"tokenizer_config.json", "spiece.model"};
    const void *data2[2] = {t5, sp};
    size_t sizes2[2] = {n, sz_sp};
    if (t5 && make_folder(dir, sizeof(dir), names2, data2, sizes2, 2)) {
        t = (vit_tokenizer *)(void *)&g_dir;
        st = vit_tokenizer_load(dir, NULL, &t);
        expect_load(st, t, VIT_ERROR_UNSUPPORTED, "T5Tokenizer", "files: a T5Tokenizer's spiece.model");
        rm_folder(dir, names2, 2);
    }
    free(t5);
    // a file given itself, and memory, give the folder's ids
    path_of(path, sizeof(path), "clip");
    st = vit_tokenizer_load(path, NULL, &ref);
    if (check(st == VIT_OK, "files: clip folder", "%s", vit_tokenizer_last_error(NULL))) {
        path_of(path, sizeof(path), "clip/tokenizer.json");
        st = vit_tokenizer_load(path, NULL, &t);
        check(st == VIT_OK && same_ids(t, ref) && strstr(vit_tokenizer_get_config(t)->source, "tokenizer_config.json"), "files: clip/tokenizer.json given itself",
              "%s", vit_tokenizer_last_error(NULL));
        vit_tokenizer_free(t);
        char *c0 = (char *)exact_copy(cfg, sz_cfg);
        st = load_mem(json, sz_json, NULL, &t);
        vit_tokenizer_free(t);
        t = NULL;
        free(c0);
        st = vit_tokenizer_load_memory(json, sz_json, (const char *)cfg, sz_cfg, NULL, &t);
        check(st == VIT_OK && same_ids(t, ref) && !strcmp(vit_tokenizer_get_config(t)->source, "memory"), "files: clip from memory", "%s", vit_tokenizer_last_error(NULL));
        vit_tokenizer_free(t);
        vit_tokenizer_free(ref);
    }
    path_of(path, sizeof(path), "siglip_a");
    ref = NULL;
    st = vit_tokenizer_load(path, NULL, &ref);
    if (check(st == VIT_OK, "files: siglip_a folder", "%s", vit_tokenizer_last_error(NULL))) {
        path_of(path, sizeof(path), "siglip_a/spiece.model");
        t = NULL;
        st = vit_tokenizer_load(path, NULL, &t);
        check(st == VIT_OK && same_ids(t, ref), "files: siglip_a/spiece.model given itself", "%s", vit_tokenizer_last_error(NULL));
        vit_tokenizer_free(t);
        t = NULL;
        st = vit_tokenizer_load_memory(sp, sz_sp, NULL, 0, NULL, &t); // SiglipTokenizer's defaults are siglip_a's config
        check(st == VIT_OK && same_ids(t, ref) && vit_tokenizer_get_config(t)->context == 64, "files: siglip_a from memory, no config", "%s",
              vit_tokenizer_last_error(NULL));
        vit_tokenizer_free(t);
        vit_tokenizer_free(ref);
    }
    // extra special tokens: an object of named ones (transformers 4.x), a list (5.x); "<pad>" made
    // special (ids from transformers: the "▁" before a special token at the start is dropped)
    vit_tokenizer *base = NULL;
    char *named = replace((const char *)spcfg, sz_spcfg, "\"extra_special_tokens\": []", "\"extra_special_tokens\": {}", &n);
    st = vit_tokenizer_load_memory(sp, sz_sp, (const char *)spcfg, sz_spcfg, NULL, &base);
    vit_status st2 = named ? load_mem(sp, sz_sp, named, &t) : VIT_ERROR_IO;
    check(st == VIT_OK && st2 == VIT_OK && same_ids(t, base), "files: siglip_a, extra_special_tokens {}", "%s", vit_tokenizer_last_error(NULL));
    if (st2 == VIT_OK) vit_tokenizer_free(t);
    vit_tokenizer_free(base);
    free(named);
    char *pad = replace((const char *)spcfg, sz_spcfg, "\"extra_special_tokens\": []", "\"extra_special_tokens\": [\"<pad>\"]", &n);
    if (pad && load_mem(sp, sz_sp, pad, &t) == VIT_OK) {
        static const int want1[] = {5, 0, 440, 1}, want2[] = {0, 1}, want3[] = {4, 544, 0, 1};
        check(ids_are(t, "a <pad> b", want1, 4) && ids_are(t, "<pad>", want2, 2) && ids_are(t, "x<pad>", want3, 4), "files: siglip_a, <pad> an extra special token",
              "%s", "");
        vit_tokenizer_free(t);
    } else {
        check(0, "files: siglip_a, <pad> an extra special token", "%s", vit_tokenizer_last_error(NULL));
    }
    free(pad);
    free(json); free(cfg); free(sp); free(spcfg);
}

// open_clip_config.json's settings vit.h refuses, a folder whose tokenizer.json is not OpenAI's BPE,
// open_clip's config from memory, and a few cleaned texts checked by hand.
static void test_openclip_config(void) {
    size_t sz_json, sz_cfg, sz_oc;
    unsigned char *json = read_file("clip/tokenizer.json", &sz_json), *cfg = read_file("clip/tokenizer_config.json", &sz_cfg);
    unsigned char *occ = read_file("openclip_clip/open_clip_config.json", &sz_oc);
    if (!check(json && cfg && occ, "open_clip: read the references", "%s", "")) { free(json); free(cfg); free(occ); return; }
    static const struct { const char *from, *to; vit_status want; const char *needle, *name; } edits[] = {
        {"\"context_length\": 77", "\"context_length\": 77, \"hf_tokenizer_name\": \"x\", \"tokenizer_mode\": \"clips\"", VIT_ERROR_UNSUPPORTED, "tokenizer_mode 'clips'", "tokenizer_mode clips"},
        {"\"context_length\": 77", "\"context_length\": 77, \"hf_tokenizer_name\": \"x\", \"tokenizer_kwargs\": {\"strip_sep_token\": true}", VIT_ERROR_UNSUPPORTED, "strip_sep_token", "strip_sep_token"},
        {"\"context_length\": 77", "\"context_length\": 77, \"tokenizer_kwargs\": {\"reduction_mask\": \"simple\"}", VIT_ERROR_UNSUPPORTED, "reduction_mask", "reduction_mask"},
        {"\"context_length\": 77", "\"context_length\": 77, \"tokenizer_kwargs\": {\"clean\": \"nfkc\"}", VIT_ERROR_UNSUPPORTED, "clean", "an unknown clean"},
        {"\"context_length\": 77", "\"context_length\": 77, \"hf_tokenizer_name\": 5", VIT_ERROR_UNSUPPORTED, "hf_tokenizer_name", "a hf_tokenizer_name number"},
        {"\"context_length\": 77", "\"context_length\": 1", VIT_ERROR_UNSUPPORTED, "context_length", "a context of 1"},
        {"\"context_length\": 77", "\"context_length\": 77, \"hf_tokenizer_name\": \"x\"", VIT_ERROR_UNSUPPORTED, "from memory", "HFTokenizer from memory"},
        {"\"model_cfg\"", "\"model_cfg\": 3, \"x\"", VIT_ERROR_BAD_FORMAT, "no model_cfg object", "model_cfg not an object"},
        {"\"text_cfg\": {", "\"text_cfg\": [{", VIT_ERROR_BAD_FORMAT, "JSON", "broken JSON"},
    };
    vit_tokenizer *t = NULL, *ref = NULL;
    size_t n;
    for (size_t k = 0; k < sizeof(edits) / sizeof(edits[0]); k++) {
        char name[128];
        fmt(name, sizeof(name), "open_clip: %s", edits[k].name);
        char *e = replace((const char *)occ, sz_oc, edits[k].from, edits[k].to, &n);
        if (!check(e != NULL, name, "'%s' is not in open_clip_config.json", edits[k].from)) continue;
        vit_status st = load_mem(json, sz_json, e, &t);
        expect_load(st, st == VIT_OK ? t : NULL, edits[k].want, edits[k].needle, name);
        free(e);
    }
    // from memory: SimpleTokenizer, the ids of the folder
    char *oc0 = (char *)exact_copy(occ, sz_oc);
    vit_status st = vit_tokenizer_load_memory(json, sz_json, oc0, sz_oc, NULL, &ref);
    free(oc0);
    if (check(st == VIT_OK && vit_tokenizer_get_config(ref)->pad_id == 0 && strstr(vit_tokenizer_get_config(ref)->source, "open_clip_config.json"),
              "open_clip: SimpleTokenizer from memory", "%s", vit_tokenizer_last_error(NULL))) {
        static const struct { const char *text; int n; int ids[6]; } cases[] = {
            {"caf&eacute; &amp;amp;", 4, {49406, 15304, 261, 49407}},                 // café & (entities decoded three times over; ids from open_clip 3.3)
            {"<start_of_text>x", 4, {49406, 49406, 343, 49407}},                     // open_clip's own special token, as text
            {"\xe2\x80\x9cHi\xe2\x80\x9d \xef\xac\x81", 6, {49406, 257, 1883, 257, 3589, 49407}}, // "hi" fi
        };
        for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
            int ids[77], got = 0;
            char name[128];
            st = vit_tokenize(ref, cases[k].text, strlen(cases[k].text), ids, 77, &got);
            int ok = st == VIT_OK && got == cases[k].n && !memcmp(ids, cases[k].ids, (size_t)got * sizeof(int)) && ids[76] == 0;
            fmt(name, sizeof(name), "open_clip: '%s'", show(cases[k].text, strlen(cases[k].text)));
            check(ok, name, "%s (%d ids: %s)", vit_tokenizer_last_error(ref), got, show_ids(ids, got > 0 && got <= 77 ? got : 0));
        }
        static const char *const refused[] = {"&unknownentity;", "Ã©tÃ©", "a\xe0\xb0\xbc"}; // an HTML5 name vit.h lacks, mojibake, U+0C3C (a combining mark of Unicode 14)
        static const char *const why[] = {"HTML entity", "mojibake", "NFC"};
        for (int k = 0; k < 3; k++) {
            int ids[77];
            char name[128];
            st = vit_tokenize(ref, refused[k], strlen(refused[k]), ids, 77, NULL);
            fmt(name, sizeof(name), "open_clip: refuses '%s'", show(refused[k], strlen(refused[k])));
            check(st == VIT_ERROR_UNSUPPORTED && strstr(vit_tokenizer_last_error(ref), why[k]), name, "%s: %s", vit_status_string(st), vit_tokenizer_last_error(ref));
        }
        // ftfy's worst case near VIT_MAX_TEXT_BYTES (this build's): runs of accented letters, each followed by an
        // entity nested 70 deep (one level decoded per round: refused after 64 rounds), and the
        // same text on one line per run (many short segments). Run, not timed; it must be linear.
        for (int lines = 0; lines < 2; lines++) {
            size_t cap = VIT_MAX_TEXT_BYTES, w = 0;
            char *big = (char *)malloc(cap), name[128];
            int ids[77];
            while (w + 6300 < cap) {
                for (int q = 0; q < 3000; q++) { big[w++] = (char)0xC3; big[w++] = (char)0xA9; } // é
                big[w++] = '&';
                for (int q = 0; q < 70; q++) { memcpy(big + w, "amp;", 4); w += 4; }
                if (lines) big[w++] = '\n';
            }
            st = vit_tokenize(ref, big, w, ids, 77, NULL);
            fmt(name, sizeof(name), "open_clip: %zu bytes of deep entities%s, refused after 64 rounds", w, lines ? " on many lines" : "");
            check(st == VIT_ERROR_UNSUPPORTED && strstr(vit_tokenizer_last_error(ref), "64 rounds"), name, "%s: %s", vit_status_string(st), vit_tokenizer_last_error(ref));
            free(big);
        }
        vit_tokenizer_free(ref);
    }
    // another BPE than OpenAI's: a merge less
    char *e = replace((const char *)json, sz_json, "\"merges\": [", "\"merges\": [[\"a\", \"b\"], ", &n);
    if (e) {
        char *e2 = (char *)exact_copy(occ, sz_oc);
        st = vit_tokenizer_load_memory(e, n, e2, sz_oc, NULL, &t);
        expect_load(st, st == VIT_OK ? t : NULL, VIT_ERROR_UNSUPPORTED, "not that vocabulary", "open_clip: SimpleTokenizer over another BPE");
        st = vit_tokenizer_load_memory(e, n, (const char *)cfg, sz_cfg, NULL, &t); // and without open_clip, transformers' CLIP over it
        check(st == VIT_OK, "open_clip: ... which transformers' CLIPTokenizer loads", "%s", vit_tokenizer_last_error(NULL));
        vit_tokenizer_free(st == VIT_OK ? t : NULL);
        free(e2);
        free(e);
    }
    free(json); free(cfg); free(occ);
}

// Which layout a path means (open_clip's or transformers'), as vit_load reads it (a folder of
// text/openclip_clip's and text/clip_tokenizer's files, as LAION's Hub repos hold both); open_clip's
// HFTokenizer over a class vit.h does not run; a "model_cfg" that is not open_clip_config.json's.
static void test_layouts(void) {
    const char *src[5] = {"../text/openclip_clip/open_clip_config.json", "../text/openclip_clip/open_clip_model.safetensors",
                          "../text/openclip_clip/tokenizer.json", "../text/clip_tokenizer/config.json", "../text/clip_tokenizer/model.safetensors"};
    const char *names[6] = {"open_clip_config.json", "open_clip_model.safetensors", "tokenizer.json", "config.json", "model.safetensors", "tokenizer_config.json"};
    void *data[6] = {NULL, NULL, NULL, NULL, NULL, NULL};
    size_t sizes[6] = {0, 0, 0, 0, 0, 0};
    int ok = 1;
    for (int k = 0; k < 5; k++) ok &= (data[k] = read_file(src[k], &sizes[k])) != NULL;
    ok &= (data[5] = read_file("../text/openclip_clip/tokenizer_config.json", &sizes[5])) != NULL;
    char dir[1024];
    if (check(ok && make_folder(dir, sizeof(dir), names, (const void *const *)data, sizes, 6), "layouts: a folder with both (transformers' and open_clip's)", "%s", "")) {
        // vit_load's precedence: model.safetensors first; a path to a model file picks its layout
        static const struct { const char *path; int open_clip; } want[] = {
            {"", 0}, {"/model.safetensors", 0}, {"/open_clip_model.safetensors", 1}, {"/open_clip_config.json", 1}, {"/tokenizer.json", 0}};
        vit_model *m_hf = NULL, *m_oc = NULL;
        char p[1200];
        vit_options o;
        memset(&o, 0, sizeof(o));
        o.device = VIT_DEVICE_CPU;
        fmt(p, sizeof(p), "%s/model.safetensors", dir);
        vit_status st = vit_load(p, &o, &m_hf);
        fmt(p, sizeof(p), "%s/open_clip_model.safetensors", dir);
        if (st == VIT_OK) st = vit_load(p, &o, &m_oc);
        check(st == VIT_OK && vit_model_config(m_hf)->source != VIT_SOURCE_OPEN_CLIP && vit_model_config(m_oc)->source == VIT_SOURCE_OPEN_CLIP,
              "layouts: vit_load of both models", "%s", vit_last_error(NULL));
        for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
            vit_tokenizer *t = NULL;
            char name[1300];
            fmt(p, sizeof(p), "%s%s", dir, want[k].path);
            st = vit_tokenizer_load(p, NULL, &t);
            fmt(name, sizeof(name), "layouts: vit_tokenizer_load('DIR%s') is %s's", want[k].path, want[k].open_clip ? "open_clip" : "transformers");
            if (check(st == VIT_OK && vit_tokenizer_get_config(t)->open_clip == want[k].open_clip &&
                          (strstr(vit_tokenizer_get_config(t)->source, "open_clip_config.json") != NULL) == want[k].open_clip,
                      name, "%s: %s", vit_status_string(st), st == VIT_OK ? vit_tokenizer_get_config(t)->source : vit_tokenizer_last_error(NULL)) &&
                m_hf && m_oc) {
                // vit_encode_texts: the model of the same layout, and the other one refused
                const char *texts[1] = {"a photo of a cat"};
                float e[4096];
                vit_model *same = want[k].open_clip ? m_oc : m_hf, *other = want[k].open_clip ? m_hf : m_oc;
                int dim = vit_model_config(same)->embed_dim;
                st = dim <= 4096 ? vit_encode_texts(same, t, texts, 1, NULL, e) : VIT_ERROR_LIMIT;
                fmt(name, sizeof(name), "layouts: DIR%s: vit_encode_texts with the model of its layout", want[k].path);
                check(st == VIT_OK, name, "%s: %s", vit_status_string(st), vit_last_error(same));
                st = vit_encode_texts(other, t, texts, 1, NULL, e);
                fmt(name, sizeof(name), "layouts: DIR%s: vit_encode_texts with the other model refused", want[k].path);
                check(st == VIT_ERROR_INVALID_ARGUMENT && strstr(vit_last_error(other), "the same way as the model"), name, "%s: %s", vit_status_string(st),
                      vit_last_error(other));
            }
            vit_tokenizer_free(t);
        }
        vit_free(m_hf);
        vit_free(m_oc);
        // without model.safetensors the folder is open_clip's; a path to model.safetensors stays transformers'
        fmt(p, sizeof(p), "%s/model.safetensors", dir);
        test_remove(p);
        vit_tokenizer *t = NULL;
        st = vit_tokenizer_load(dir, NULL, &t);
        check(st == VIT_OK && vit_tokenizer_get_config(t)->open_clip == 1, "layouts: the folder without model.safetensors is open_clip's", "%s",
              vit_tokenizer_last_error(NULL));
        vit_tokenizer_free(t);
        rm_folder(dir, names, 6);
    }
    for (int k = 0; k < 6; k++) free(data[k]);

    // open_clip's HFTokenizer over a SiglipTokenizer folder: refused, naming the class
    const char *snames[3] = {"open_clip_config.json", "spiece.model", "tokenizer_config.json"};
    const char *ssrc[3] = {"openclip_siglip/open_clip_config.json", "siglip_a/spiece.model", "siglip_a/tokenizer_config.json"};
    void *sdata[3];
    size_t ssizes[3];
    ok = 1;
    for (int k = 0; k < 3; k++) ok &= (sdata[k] = read_file(ssrc[k], &ssizes[k])) != NULL;
    if (check(ok && make_folder(dir, sizeof(dir), snames, (const void *const *)sdata, ssizes, 3), "layouts: open_clip HFTokenizer over SiglipTokenizer", "%s", "")) {
        vit_tokenizer *t = NULL;
        vit_status st = vit_tokenizer_load(dir, NULL, &t);
        expect_load(st, st == VIT_OK ? t : NULL, VIT_ERROR_UNSUPPORTED, "tokenizer_class SiglipTokenizer", "layouts: open_clip HFTokenizer over SiglipTokenizer refused");
        rm_folder(dir, snames, 3);
    }
    for (int k = 0; k < 3; k++) free(sdata[k]);

    // from memory: "model_cfg" below the top level, or as a string, is no open_clip_config.json
    size_t sz_json, sz_cfg, n;
    unsigned char *json = read_file("clip/tokenizer.json", &sz_json), *cfg = read_file("clip/tokenizer_config.json", &sz_cfg);
    char *e = json && cfg ? replace((const char *)cfg, sz_cfg, "\"tokenizer_class\"", "\"x\": {\"model_cfg\": {}}, \"y\": \"\\\"model_cfg\\\"\", \"tokenizer_class\"", &n) : NULL;
    if (check(e != NULL, "layouts: a tokenizer_config.json that mentions \"model_cfg\"", "%s", "")) {
        vit_tokenizer *t = NULL;
        vit_status st = load_mem(json, sz_json, e, &t);
        check(st == VIT_OK && !vit_tokenizer_get_config(t)->open_clip && vit_tokenizer_get_config(t)->pad_id == 49407,
              "layouts: ... is transformers' tokenizer_config.json", "%s: %s", vit_status_string(st), vit_tokenizer_last_error(NULL));
        vit_tokenizer_free(t);
    }
    free(e); free(json); free(cfg);
}

// tokenizer.json edited: each must fail by name
static void test_json_damage(void) {
    size_t sz, cfg_sz, n;
    unsigned char *json = read_file("clip/tokenizer.json", &sz), *cfg = read_file("clip/tokenizer_config.json", &cfg_sz);
    if (!check(json && cfg, "json: read clip", "%s", "")) { free(json); free(cfg); return; }
    vit_tokenizer *t;
    vit_status st;
    // truncated anywhere: the JSON is incomplete
    int all = 1;
    for (int k = 1; k < 40; k++) {
        size_t cut = k < 30 ? sz * (size_t)k / 30 : sz - (size_t)(40 - k);
        st = load_mem(json, cut, (const char *)cfg, &t);
        if (!(st == VIT_ERROR_BAD_FORMAT && t == NULL && strstr(vit_tokenizer_last_error(NULL), "tokenizer.json: JSON:"))) {
            check(0, "json: truncated", "at %zu of %zu: %s: %s", cut, sz, vit_status_string(st), vit_tokenizer_last_error(NULL));
            all = 0;
        }
        vit_tokenizer_free(st == VIT_OK ? t : NULL);
    }
    if (all) check(1, "json: truncated at 39 places, each refused", "%s", "");
    static const struct { const char *from, *to; vit_status want; const char *needle, *name; } edits[] = {
        {"\"type\": \"BPE\"", "\"type\": \"Unigram\"", VIT_ERROR_UNSUPPORTED, "model type 'Unigram'", "a Unigram model"},
        {"\"type\": \"BPE\"", "\"type\": 7", VIT_ERROR_UNSUPPORTED, "model type '?'", "a model type that is no string"},
        {"\"type\": \"NFC\"", "\"type\": \"NFKC\"", VIT_ERROR_UNSUPPORTED, "normalizer 'NFKC'", "an NFKC normaliser"},
        {"\"Regex\": \"\\\\s+\"", "\"Regex\": \"\\\\s\"", VIT_ERROR_UNSUPPORTED, "normalizer 'Replace'", "another whitespace pattern"},
        {"'s|'t|'re", "'S|'t|'re", VIT_ERROR_UNSUPPORTED, "split pattern", "another split pattern"},
        {"\"behavior\": \"Removed\"", "\"behavior\": \"Isolated\"", VIT_ERROR_UNSUPPORTED, "pre-tokenizer is not CLIP's", "Split's behaviour"},
        {"\"add_prefix_space\": false", "\"add_prefix_space\": true", VIT_ERROR_UNSUPPORTED, "pre-tokenizer is not CLIP's", "ByteLevel with a prefix space"},
        {"\"dropout\": null", "\"dropout\": 0.1", VIT_ERROR_UNSUPPORTED, "dropout", "BPE dropout"},
        {"\"continuing_subword_prefix\": \"\"", "\"continuing_subword_prefix\": \"##\"", VIT_ERROR_UNSUPPORTED, "continuing_subword_prefix", "a subword prefix"},
        {"\"ignore_merges\": false", "\"ignore_merges\": true", VIT_ERROR_UNSUPPORTED, "ignore_merges", "ignore_merges"},
        {"\"RobertaProcessing\"", "\"ByteLevel\"", VIT_ERROR_UNSUPPORTED, "post-processor 'ByteLevel'", "another post-processor"},
        {"\"cls\": [", "\"cls\": [\"x\", ", VIT_ERROR_BAD_FORMAT, "cls and sep", "a broken cls"},
        {"\"merges\": [", "\"merges\": [[\"zz\", \"qq\"], ", VIT_ERROR_BAD_FORMAT, "names a token the vocabulary lacks", "a merge of unknown tokens"},
        {"\"merges\": [", "\"merges\": [\"a b c\", ", VIT_ERROR_BAD_FORMAT, "is not two tokens", "a merge of three"},
        {"\"merges\": [", "\"merges\": [17, ", VIT_ERROR_BAD_FORMAT, "neither", "a merge that is a number"},
        {"\"!\": 0,", "\"!\": 0, \"!\": 1,", VIT_ERROR_BAD_FORMAT, "twice", "a token twice"},
        {"\"!\": 0,", "\"!\": -1,", VIT_ERROR_BAD_FORMAT, "no valid id", "a negative id"},
        {"\"!\": 0,", "\"!\": 99999999,", VIT_ERROR_BAD_FORMAT, "no valid id", "an id past VIT_MAX_VOCAB"},
        {"\"lstrip\": false", "\"lstrip\": true", VIT_ERROR_UNSUPPORTED, "strips spaces", "an added token that strips"},
        {"\"id\": 49406", "\"id\": 3", VIT_ERROR_BAD_FORMAT, "has id 3", "an added token's id that is not the vocabulary's"},
        {"\"unk_token\": \"<|endoftext|>\"", "\"unk_token\": \"<|nope|>\"", VIT_ERROR_BAD_FORMAT, "unk token", "an unknown unk token"},
        {"\"Lowercase\"", "\"Lowercase\xff\"", VIT_ERROR_BAD_FORMAT, "not UTF-8 at byte", "a byte that is not UTF-8"},
        {"\"model\": {", "\"model\": [{", VIT_ERROR_BAD_FORMAT, "JSON:", "broken JSON"},
        {"\"vocab\": {", "\"vocab\": [", VIT_ERROR_BAD_FORMAT, "JSON:", "a vocabulary list"},
        {"\"version\": \"1.0\",", "\"version\": \"1.0\", \"model\": 5,", VIT_ERROR_BAD_FORMAT, "no model object", "a model that is not an object"},
    };
    for (size_t k = 0; k < sizeof(edits) / sizeof(edits[0]); k++) {
        char name[128];
        fmt(name, sizeof(name), "json: %s", edits[k].name);
        char *e = replace((const char *)json, sz, edits[k].from, edits[k].to, &n);
        if (!check(e != NULL, name, "'%s' is not in tokenizer.json", edits[k].from)) continue;
        st = load_mem(e, n, (const char *)cfg, &t);
        expect_load(st, st == VIT_OK ? t : NULL, edits[k].want, edits[k].needle, name);
        free(e);
    }
    // tokenizer_config.json edited
    static const struct { const char *from, *to; vit_status want; const char *needle, *name; } cedits[] = {
        {"CLIPTokenizer", "GPT2Tokenizer", VIT_ERROR_UNSUPPORTED, "GPT2Tokenizer", "a GPT2Tokenizer"},
        {"\"pad_token\": \"<|endoftext|>\"", "\"pad_token\": \"<nope>\"", VIT_ERROR_BAD_FORMAT, "pad token '<nope>'", "an unknown pad token"},
        {"\"pad_token\": \"<|endoftext|>\"", "\"pad_token\": 3", VIT_ERROR_BAD_FORMAT, "pad_token is neither", "a pad token that is a number"},
        {"\"model_max_length\": 77", "\"model_max_length\": 2", VIT_ERROR_BAD_FORMAT, "no room for text", "a context of 2"},
        {"{", "[", VIT_ERROR_BAD_FORMAT, "tokenizer_config.json: JSON:", "broken JSON"},
    };
    for (size_t k = 0; k < sizeof(cedits) / sizeof(cedits[0]); k++) {
        char name[128];
        fmt(name, sizeof(name), "json: tokenizer_config.json: %s", cedits[k].name);
        char *e = replace((const char *)cfg, cfg_sz, cedits[k].from, cedits[k].to, &n);
        if (!check(e != NULL, name, "'%s' is not in tokenizer_config.json", cedits[k].from)) continue;
        st = load_mem(json, sz, e, &t);
        expect_load(st, st == VIT_OK ? t : NULL, cedits[k].want, cedits[k].needle, name);
        free(e);
    }
    // a context of 8: ids cut to 6, then <|startoftext|> ... <|endoftext|>
    char *e = replace((const char *)cfg, cfg_sz, "\"model_max_length\": 77", "\"model_max_length\": 8", &n);
    st = load_mem(json, sz, e, &t);
    if (check(st == VIT_OK && vit_tokenizer_get_config(t)->context == 8, "json: a context of 8", "%s", vit_tokenizer_last_error(NULL))) {
        int ids[8], nt;
        st = vit_tokenize(t, "one two three four five six seven eight", 39, ids, 8, &nt);
        check(st == VIT_OK && nt == 8 && ids[0] == 49406 && ids[7] == 49407 && ids[6] != 49407, "json: a context of 8 cuts the text", "%s: %d ids", vit_status_string(st), nt);
        vit_tokenizer_free(t);
    }
    free(e);
    // more tokens than VIT_MAX_VOCAB
    size_t cap = 32 * (VIT_MAX_VOCAB + 2) + 100, w = 0;
    char *big = (char *)malloc(cap);
    w += (size_t)snprintf(big + w, cap - w, "{\"model\": {\"type\": \"BPE\", \"merges\": [], \"vocab\": {");
    for (int k = 0; k <= VIT_MAX_VOCAB; k++) w += (size_t)snprintf(big + w, cap - w, "%s\"t%d\": %d", k ? ", " : "", k, k);
    w += (size_t)snprintf(big + w, cap - w, "}}}");
    st = load_mem(big, w, NULL, &t);
    expect_load(st, st == VIT_OK ? t : NULL, VIT_ERROR_LIMIT, "VIT_MAX_VOCAB", "json: VIT_MAX_VOCAB + 1 tokens");
    free(big);
    free(json);
    free(cfg);
}

// ---- SentencePiece models written here

typedef struct pbuf { unsigned char *p; size_t n, cap; } pbuf;

static void pb_raw(pbuf *b, const void *s, size_t n) {
    if (b->n + n > b->cap) { b->cap = 2 * (b->n + n) + 64; b->p = (unsigned char *)realloc(b->p, b->cap); }
    memcpy(b->p + b->n, s, n);
    b->n += n;
}

static void pb_varint(pbuf *b, uint64_t v) {
    do {
        unsigned char c = (unsigned char)(v & 0x7F);
        v >>= 7;
        if (v) c |= 0x80;
        pb_raw(b, &c, 1);
    } while (v);
}

static void pb_uint(pbuf *b, unsigned field, uint64_t v) { pb_varint(b, field << 3); pb_varint(b, v); }
static void pb_bytes(pbuf *b, unsigned field, const void *s, size_t n) { pb_varint(b, field << 3 | 2); pb_varint(b, n); pb_raw(b, s, n); }
static void pb_float(pbuf *b, unsigned field, float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    unsigned char le[4] = {(unsigned char)u, (unsigned char)(u >> 8), (unsigned char)(u >> 16), (unsigned char)(u >> 24)};
    pb_varint(b, field << 3 | 5);
    pb_raw(b, le, 4);
}

typedef struct sp_piece { const char *text; float score; int type; } sp_piece;

enum { SP_NORMAL = 1, SP_UNKNOWN, SP_CONTROL, SP_USER, SP_UNUSED, SP_BYTE };

// a ModelProto: pieces, trainer_spec {model_type, byte_fallback, treat_whitespace_as_suffix}, normalizer_spec {charsmap}
typedef struct sp_model {
    const sp_piece *pieces;
    int n, model_type, byte_fallback, suffix, trainer, normalizer;
    const unsigned char *charsmap;
    size_t charsmap_n;
} sp_model;

static pbuf sp_write(const sp_model *m) {
    pbuf b = {NULL, 0, 0};
    for (int k = 0; k < m->n; k++) {
        pbuf p = {NULL, 0, 0};
        pb_bytes(&p, 1, m->pieces[k].text, strlen(m->pieces[k].text));
        pb_float(&p, 2, m->pieces[k].score);
        if (m->pieces[k].type != SP_NORMAL) pb_uint(&p, 3, (uint64_t)m->pieces[k].type);
        pb_bytes(&b, 1, p.p, p.n);
        free(p.p);
    }
    if (m->trainer) {
        pbuf tr = {NULL, 0, 0};
        pb_uint(&tr, 3, (uint64_t)m->model_type);
        pb_uint(&tr, 4, 8000); // vocab_size: a field vit.h skips
        if (m->byte_fallback) pb_uint(&tr, 35, 1);
        if (m->suffix) pb_uint(&tr, 24, 1);
        pb_bytes(&b, 2, tr.p, tr.n);
        free(tr.p);
    }
    if (m->normalizer) {
        pbuf nm = {NULL, 0, 0};
        pb_bytes(&nm, 1, "test", 4);
        if (m->charsmap) pb_bytes(&nm, 2, m->charsmap, m->charsmap_n);
        pb_bytes(&b, 3, nm.p, nm.n);
        free(nm.p);
    }
    return b;
}

static const sp_piece g_pieces[] = {
    {"<pad>", 0, SP_CONTROL}, {"</s>", 0, SP_CONTROL}, {"<unk>", 0, SP_UNKNOWN}, {"\xE2\x96\x81", -1, SP_NORMAL}, {"a", -2, SP_NORMAL},
    {"b", -3, SP_NORMAL}, {"ab", -2.5f, SP_NORMAL}, {"x", -2, SP_NORMAL}, {"\xE2\x96\x81" "a", -1.5f, SP_NORMAL},
};

static sp_model sp_default(void) {
    sp_model m;
    memset(&m, 0, sizeof(m));
    m.pieces = g_pieces;
    m.n = 9;
    m.model_type = 1;
    m.trainer = m.normalizer = 1;
    return m;
}

// a charsmap mapping "a" to its first string at `value` (repl: "x\0"): a double array
// whose root moves by 1, 'a' (0x61) at unit 0x60 with a leaf at 0x61
static size_t make_charsmap(unsigned char *out, uint32_t value) {
    uint32_t units[0x62];
    memset(units, 0, sizeof(units));
    units[0] = 1u << 10;
    units[0x60] = (1u << 10) | (1u << 8) | 0x61;
    units[0x61] = value;
    uint32_t size = sizeof(units);
    unsigned char *p = out;
    for (int i = 0; i < 4; i++) *p++ = (unsigned char)(size >> (8 * i));
    for (int u = 0; u < 0x62; u++)
        for (int i = 0; i < 4; i++) *p++ = (unsigned char)(units[u] >> (8 * i));
    *p++ = 'x';
    *p++ = 0;
    return (size_t)(p - out);
}

static vit_status sp_load(const sp_model *m, const char *config, vit_tokenizer **t) {
    pbuf b = sp_write(m);
    vit_status st = load_mem(b.p, b.n, config, t);
    free(b.p);
    return st;
}

static int ids_are(vit_tokenizer *t, const char *text, const int *want, int n_want) {
    int ids[64], n = 0;
    if (vit_tokenize(t, text, strlen(text), ids, 64, &n) != VIT_OK || n != n_want) return 0;
    for (int k = 0; k < 64; k++)
        if (ids[k] != (k < n_want ? want[k] : vit_tokenizer_get_config(t)->pad_id)) return 0;
    return 1;
}

static void test_spm_synthetic(void) {
    sp_model m = sp_default();
    vit_tokenizer *t;
    vit_status st = sp_load(&m, NULL, &t);
    if (check(st == VIT_OK, "spm: a model written here", "%s", vit_tokenizer_last_error(NULL))) {
        // "▁ab a": "▁" "ab" (-3.5 against "▁a" "b", -4.5), "▁a"; </s>
        static const int want[] = {3, 6, 8, 1};
        check(ids_are(t, "ab a", want, 4), "spm: Viterbi's best pieces", "%s", "");
        static const int want2[] = {3, 2, 7, 1}; // "q" unknown (min score - 10), "x"
        check(ids_are(t, "QX", want2, 4), "spm: an unknown character, lower-cased text", "%s", "");
        vit_tokenizer_free(t);
    }
    unsigned char cm[4 + 0x62 * 4 + 2];
    size_t cmn = make_charsmap(cm, 0);
    m.charsmap = cm;
    m.charsmap_n = cmn;
    st = sp_load(&m, NULL, &t);
    if (check(st == VIT_OK, "spm: a charsmap", "%s", vit_tokenizer_last_error(NULL))) {
        static const int want[] = {3, 7, 3, 7, 1}; // a -> x, "▁x" is no piece
        check(ids_are(t, "a a", want, 5), "spm: the charsmap maps a to x", "%s", "");
        vit_tokenizer_free(t);
    }
    make_charsmap(cm, 1000); // past its strings: found at tokenize time
    st = sp_load(&m, NULL, &t);
    if (check(st == VIT_OK, "spm: a charsmap that points past its strings loads", "%s", vit_tokenizer_last_error(NULL))) {
        int ids[64];
        st = vit_tokenize(t, "a", 1, ids, 64, NULL);
        check(st == VIT_ERROR_BAD_FORMAT && strstr(vit_tokenizer_last_error(t), "charsmap points outside"), "spm: ... and fails on text it maps", "%s: %s",
              vit_status_string(st), vit_tokenizer_last_error(t));
        vit_tokenizer_free(t);
    }
    cm[0] = 0xFF; // trie size past the blob
    st = sp_load(&m, NULL, &t);
    expect_load(st, st == VIT_OK ? t : NULL, VIT_ERROR_BAD_FORMAT, "trie size is wrong", "spm: a charsmap's trie size past its end");
    cm[0] = 0x87; // not a multiple of 4
    st = sp_load(&m, NULL, &t);
    expect_load(st, st == VIT_OK ? t : NULL, VIT_ERROR_BAD_FORMAT, "trie size is wrong", "spm: a charsmap's trie size that is no multiple of 4");
    m = sp_default();
    // refused models
    m.model_type = 2;
    st = sp_load(&m, NULL, &t);
    expect_load(st, st == VIT_OK ? t : NULL, VIT_ERROR_UNSUPPORTED, "model type 2 (BPE", "spm: a BPE model");
    m = sp_default();
    m.suffix = 1;
    st = sp_load(&m, NULL, &t);
    expect_load(st, st == VIT_OK ? t : NULL, VIT_ERROR_UNSUPPORTED, "treat_whitespace_as_suffix", "spm: whitespace as suffix");
    m = sp_default();
    m.normalizer = 0;
    st = sp_load(&m, NULL, &t);
    expect_load(st, st == VIT_OK ? t : NULL, VIT_ERROR_BAD_FORMAT, "no normalizer_spec", "spm: no normalizer_spec");
    m = sp_default();
    m.trainer = 0;
    st = sp_load(&m, NULL, &t);
    expect_load(st, st == VIT_OK ? t : NULL, VIT_ERROR_BAD_FORMAT, "no trainer_spec", "spm: no trainer_spec");
    static const struct { sp_piece p; int at; const char *needle, *name; vit_status want; } pieces[] = {
        {{"<unk>", 0, SP_NORMAL}, 2, "0 unknown pieces", "no unknown piece", VIT_ERROR_BAD_FORMAT},
        {{"x", 0, SP_UNKNOWN}, 7, "2 unknown pieces", "two unknown pieces", VIT_ERROR_BAD_FORMAT},
        {{"a", -1, SP_NORMAL}, 6, "defined twice", "a piece twice", VIT_ERROR_BAD_FORMAT},
        {{"</s>", -1, SP_CONTROL}, 0, "defined twice", "a control piece twice", VIT_ERROR_BAD_FORMAT},
        {{"", -1, SP_NORMAL}, 7, "is empty", "an empty piece", VIT_ERROR_BAD_FORMAT},
        {{"<0x41>", 0, SP_BYTE}, 7, "without byte_fallback", "a byte piece without byte fallback", VIT_ERROR_BAD_FORMAT},
        {{"x", 0, 9}, 7, "unknown type", "a piece type 9", VIT_ERROR_BAD_FORMAT},
        {{"<pad>", 0, SP_NORMAL}, 1, "'</s>' is not in spiece.model", "no </s>", VIT_ERROR_UNSUPPORTED},
    };
    for (size_t k = 0; k < sizeof(pieces) / sizeof(pieces[0]); k++) {
        sp_piece ps[9];
        char name[96];
        memcpy(ps, g_pieces, sizeof(ps));
        ps[pieces[k].at] = pieces[k].p;
        m = sp_default();
        m.pieces = ps;
        st = sp_load(&m, NULL, &t);
        fmt(name, sizeof(name), "spm: %s", pieces[k].name);
        expect_load(st, st == VIT_OK ? t : NULL, pieces[k].want, pieces[k].needle, name);
    }
    // byte fallback: with all 256 byte pieces, unknown characters become their bytes; with 255, refused
    sp_piece bp[9 + 256];
    char texts[256][8];
    memcpy(bp, g_pieces, sizeof(g_pieces));
    for (int b = 0; b < 256; b++) {
        snprintf(texts[b], sizeof(texts[b]), "<0x%02X>", b);
        bp[9 + b].text = texts[b];
        bp[9 + b].score = 0;
        bp[9 + b].type = SP_BYTE;
    }
    m = sp_default();
    m.pieces = bp;
    m.n = 9 + 256;
    m.byte_fallback = 1;
    st = sp_load(&m, NULL, &t);
    if (check(st == VIT_OK, "spm: byte fallback", "%s", vit_tokenizer_last_error(NULL))) {
        static const int want[] = {3, 9 + 0xC3, 9 + 0xA9, 1}; // é (not lower-cased further) as its two bytes
        check(ids_are(t, "\xC3\x89", want, 4), "spm: byte fallback gives the bytes of an unknown character", "%s", "");
        vit_tokenizer_free(t);
    }
    m.n = 9 + 255;
    st = sp_load(&m, NULL, &t);
    expect_load(st, st == VIT_OK ? t : NULL, VIT_ERROR_BAD_FORMAT, "255 of the 256", "spm: byte fallback with 255 byte pieces");
    // malformed protocol buffers
    static const struct { const char *bytes; size_t n; const char *name; } raw[] = {
        {"\x0b\x0c", 2, "a group"}, {"\x0a\x05" "ab", 4, "a field longer than the file"}, {"\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 12, "a varint of 11 bytes"},
        {"\x0a", 1, "a key without a value"}, {"\x12\x00", 2, "no pieces"}, {"", 0, "nothing"}, {"\x00\x01", 2, "field 0"},
    };
    for (size_t k = 0; k < sizeof(raw) / sizeof(raw[0]); k++) {
        char name[96];
        fmt(name, sizeof(name), "spm: %s", raw[k].name);
        st = load_mem(raw[k].bytes, raw[k].n, NULL, &t);
        expect_load(st, st == VIT_OK ? t : NULL, VIT_ERROR_BAD_FORMAT, "spiece.model", name);
    }
    // more pieces than VIT_MAX_VOCAB
    sp_piece *many = (sp_piece *)malloc((VIT_MAX_VOCAB + 1) * sizeof(sp_piece));
    char (*names)[16] = (char (*)[16])malloc((size_t)(VIT_MAX_VOCAB + 1) * 16);
    for (int k = 0; k <= VIT_MAX_VOCAB; k++) {
        snprintf(names[k], 16, "p%d", k);
        many[k].text = k < 9 ? g_pieces[k].text : names[k];
        many[k].score = -1;
        many[k].type = k < 9 ? g_pieces[k].type : SP_NORMAL;
    }
    m = sp_default();
    m.pieces = many;
    m.n = VIT_MAX_VOCAB + 1;
    st = sp_load(&m, NULL, &t);
    expect_load(st, st == VIT_OK ? t : NULL, VIT_ERROR_LIMIT, "VIT_MAX_VOCAB", "spm: VIT_MAX_VOCAB + 1 pieces");
    m.n = VIT_MAX_VOCAB;
    st = sp_load(&m, NULL, &t);
    check(st == VIT_OK && vit_tokenizer_get_config(t)->vocab_size == VIT_MAX_VOCAB, "spm: VIT_MAX_VOCAB pieces", "%s", vit_tokenizer_last_error(NULL));
    vit_tokenizer_free(st == VIT_OK ? t : NULL);
    free(many);
    free(names);
}

// spiece.model truncated and damaged
static void test_spm_damage(void) {
    size_t sz, cfg_sz;
    unsigned char *sp = read_file("siglip_a/spiece.model", &sz), *cfg = read_file("siglip_a/tokenizer_config.json", &cfg_sz);
    if (!check(sp && cfg, "spm: read siglip_a", "%s", "")) { free(sp); free(cfg); return; }
    vit_tokenizer *t;
    vit_status st;
    int all = 1;
    // cut before the end of the normalizer_spec (the file ends with an empty denormalizer_spec, 2 bytes)
    for (int k = 0; k < 48; k++) {
        size_t cut = k < 40 ? sz * (size_t)k / 40 : sz - 2 - (size_t)(48 - k);
        st = load_mem(sp, cut, (const char *)cfg, &t);
        if (!(st == VIT_ERROR_BAD_FORMAT && t == NULL && strstr(vit_tokenizer_last_error(NULL), "spiece.model"))) {
            check(0, "spm: truncated", "at %zu of %zu: %s: %s", cut, sz, vit_status_string(st), vit_tokenizer_last_error(NULL));
            all = 0;
        }
        vit_tokenizer_free(st == VIT_OK ? t : NULL);
    }
    if (all) check(1, "spm: truncated at 48 places, each refused", "%s", "");
    // bytes changed: refused by name, or loaded (a piece's text or score changed) and then every id in range
    srand(52);
    int loaded = 0, refused = 0, bad = 0;
    for (int k = 0; k < 300; k++) {
        unsigned char *d = exact_copy(sp, sz);
        for (int q = 0; q < 1 + k % 4; q++) d[(size_t)rand() % sz] = (unsigned char)rand();
        st = load_mem(d, sz, (const char *)cfg, &t);
        if (st == VIT_OK) {
            int ids[64];
            loaded++;
            if (vit_tokenize(t, "A photo of a cat, 東京 😀", 27, ids, 64, NULL) == VIT_OK)
                for (int i = 0; i < 64; i++) bad += ids[i] < 0 || ids[i] >= vit_tokenizer_get_config(t)->vocab_size;
            vit_tokenizer_free(t);
        } else {
            refused++;
            bad += !(st < 0 && st > -VIT_STATUS_COUNT && vit_tokenizer_last_error(NULL)[0] && t == NULL);
        }
        free(d);
    }
    check(bad == 0, "spm: 300 damaged copies", "%d loaded, %d refused, %d wrong", loaded, refused, bad);
    printf("spm: of 300 damaged copies of siglip_a's spiece.model %d loaded (ids in range), %d were refused by name\n", loaded, refused);
    free(sp);
    free(cfg);
}

// every allocation of a load and of a call failing in turn: VIT_ERROR_OUT_OF_MEMORY, nothing kept
static void test_out_of_memory(void) {
    static const char *const files[3][2] = {{"clip/tokenizer.json", "clip/tokenizer_config.json"}, {"siglip_b/spiece.model", "siglip_b/tokenizer_config.json"},
                                            {"clip/tokenizer.json", "openclip_clip/open_clip_config.json"}};
    static const char *const what[3] = {"clip", "siglip_b", "open_clip SimpleTokenizer"};
    static const char text[] = "A photo of a cat, ΣΟΦΙΑΣ 東京 😀 naïve it's </s> <|endoftext|> a very long text that runs on and on";
    for (int f = 0; f < 3; f++) {
        size_t sz, cfg_sz;
        unsigned char *data = read_file(files[f][0], &sz), *cfg = read_file(files[f][1], &cfg_sz);
        if (!check(data && cfg, "oom: read", "%s", files[f][0])) { free(data); free(cfg); continue; }
        counting c;
        memset(&c, 0, sizeof(c));
        vit_options o;
        memset(&o, 0, sizeof(o));
        o.allocator.alloc = count_alloc;
        o.allocator.free = count_free;
        o.allocator.user_data = &c;
        vit_tokenizer *t = NULL;
        vit_status st = vit_tokenizer_load_memory(data, sz, (const char *)cfg, cfg_sz, &o, &t);
        long loads = c.calls;
        int ids[80], want[80], n;
        if (!check(st == VIT_OK && vit_tokenize(t, text, sizeof(text) - 1, want, 80, &n) == VIT_OK, "oom: counting allocator", "%s", vit_tokenizer_last_error(NULL))) {
            free(data); free(cfg); continue;
        }
        long calls = c.calls - loads, live = c.live;
        int ok = 1;
        for (long k = 1; k <= calls && ok; k++) { // the call's allocations
            c.fail_at = c.calls + k;
            st = vit_tokenize(t, text, sizeof(text) - 1, ids, 80, &n);
            ok = st == VIT_ERROR_OUT_OF_MEMORY && c.live == live && strstr(vit_tokenizer_last_error(t), "out of memory");
            if (!ok) check(0, "oom: vit_tokenize", "%s: allocation %ld of %ld: %s, %ld live (%ld before)", files[f][0], k, calls, vit_status_string(st), c.live, live);
        }
        c.fail_at = 0;
        ok = ok && vit_tokenize(t, text, sizeof(text) - 1, ids, 80, &n) == VIT_OK && !memcmp(ids, want, sizeof(int) * (size_t)vit_tokenizer_get_config(t)->context);
        vit_tokenizer_free(t);
        ok = ok && c.live == 0;
        char label[96];
        fmt(label, sizeof(label), "oom: %s vit_tokenize, each allocation failing", what[f]);
        if (ok) check(1, label, "%ld", calls);
        int all = c.live == 0;
        for (long k = 1; k <= loads && all; k++) {
            memset(&c, 0, sizeof(c));
            c.fail_at = k;
            t = (vit_tokenizer *)(void *)&g_dir;
            st = vit_tokenizer_load_memory(data, sz, (const char *)cfg, cfg_sz, &o, &t);
            all = st == VIT_ERROR_OUT_OF_MEMORY && t == NULL && c.live == 0 && strstr(vit_tokenizer_last_error(NULL), "out of memory");
            if (!all) check(0, "oom: load", "%s: allocation %ld of %ld: %s (%s), %ld live", files[f][0], k, loads, vit_status_string(st), vit_tokenizer_last_error(NULL), c.live);
            if (st == VIT_OK) vit_tokenizer_free(t);
        }
        fmt(label, sizeof(label), "oom: %s load, each allocation failing", what[f]);
        if (all) check(1, label, "%ld", loads);
        printf("oom: %s: %ld allocations in the load, %ld in the call, each failed in turn\n", what[f], loads, calls);
        free(data);
        free(cfg);
    }
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: %s tests/data/tokenizers\n", argv[0]); return 2; }
    snprintf(g_dir, sizeof(g_dir), "%s", argv[1]);
    corpus c;
    if (!check(read_corpus(&c), "corpus.txt", "cannot read %s/corpus.txt", g_dir)) return check_summary();
    test_folder(&c, "clip", VIT_TOKENIZER_CLIP_BPE, 49406, 49407);
    test_folder(&c, "siglip_a", VIT_TOKENIZER_SIGLIP_UNIGRAM, -1, 1);
    test_folder(&c, "siglip_b", VIT_TOKENIZER_SIGLIP_UNIGRAM, -1, 1);
    { // t5_json: openclip_siglip's T5Tokenizer files without open_clip_config.json, transformers' own pipeline
        static const char *const files[2] = {"openclip_siglip/tokenizer.json", "openclip_siglip/tokenizer_config.json"};
        const char *names[2] = {"tokenizer.json", "tokenizer_config.json"};
        const void *data[2];
        size_t sizes[2];
        char dir[256];
        data[0] = read_file(files[0], &sizes[0]);
        data[1] = read_file(files[1], &sizes[1]);
        if (check(data[0] && data[1] && make_folder(dir, sizeof(dir), names, data, sizes, 2), "t5_json: the folder", "cannot read or write the files")) {
            g_load = dir;
            test_folder(&c, "t5_json", VIT_TOKENIZER_SIGLIP_UNIGRAM, -1, 1);
            g_load = NULL;
            rm_folder(dir, names, 2);
        }
        free((void *)data[0]);
        free((void *)data[1]);
    }
    if (check(read_more(&c, "openclip_extra.txt"), "openclip_extra.txt", "cannot read %s/openclip_extra.txt", g_dir)) {
        static const char *const clip_files[] = {"open_clip_config.json"}, *const clip_more[] = {"clip/tokenizer.json", "clip/tokenizer_config.json"};
        static const char *const sig_files[] = {"open_clip_config.json", "tokenizer.json", "tokenizer_config.json"}, *const sig_more[] = {"siglip_a/spiece.model"};
        test_openclip(&c, "openclip_clip", clip_files, 1, clip_more, 2, VIT_TOKENIZER_CLIP_BPE, 0);
        static const char *const sig_spm[] = {"openclip_siglip/open_clip_config.json", "openclip_siglip/tokenizer_config.json", "siglip_a/spiece.model"};
        test_openclip(&c, "openclip_siglip", sig_files, 3, sig_more, 1, VIT_TOKENIZER_SIGLIP_UNIGRAM, 1); // both: tokenizer.json, as transformers 5
        test_layouts();
        test_openclip(&c, "openclip_siglip", sig_files, 3, NULL, 0, VIT_TOKENIZER_SIGLIP_UNIGRAM, 1);     // tokenizer.json alone
        test_openclip(&c, "openclip_siglip", NULL, 0, sig_spm, 3, VIT_TOKENIZER_SIGLIP_UNIGRAM, 1);       // spiece.model alone
    }
    test_openclip_config();
    test_arguments();
    test_files();
    test_json_damage();
    test_spm_damage();
    test_spm_synthetic();
    test_out_of_memory();
    free(c.text);
    free(c.len);
    free(c.data);
    free(c.extra);
    return check_summary();
}
