// test_util.h: helpers shared by the tests in tests/ (C99; compiles as C++ too).
//
// Everything here is static and marked unused, so a test includes the header
// and uses what it needs without -Wunused-function warnings. It does not
// include vit.h and may come before or after it: a test that defines
// VIT_MALLOC/VIT_FREE through count_alloc/count_free includes it first.
//
// Define TEST_UTIL_QUIET_OK before including it to have check() print OK lines
// without their detail and NOT OK lines always with ": detail" (test_errors).
#ifndef TEST_UTIL_H_INCLUDED
#define TEST_UTIL_H_INCLUDED

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
#define TEST_UNUSED __attribute__((unused))
#define TEST_PRINTF(fmt_index, first_arg) __attribute__((format(printf, fmt_index, first_arg)))
#else
#define TEST_UNUSED
#define TEST_PRINTF(fmt_index, first_arg)
#endif

// ---------------------------------------------------------------------------
// reporting

static int g_passed, g_failed; // checks passed and failed so far

#ifdef TEST_UTIL_QUIET_OK
#define TEST_QUIET_OK 1
#else
#define TEST_QUIET_OK 0
#endif

// Prints "OK name: detail" or "NOT OK name: detail" (no ": " when detail is empty), counts it, returns ok.
TEST_PRINTF(3, 4) TEST_UNUSED static int check(int ok, const char *name, const char *f, ...) {
    char detail[1024] = "";
    if (!ok || !TEST_QUIET_OK) {
        va_list ap;
        va_start(ap, f);
        vsnprintf(detail, sizeof(detail), f, ap);
        va_end(ap);
    }
    const char *sep = detail[0] || (TEST_QUIET_OK && !ok) ? ": " : "";
    printf("%s %s%s%s\n", ok ? "OK" : "NOT OK", name, sep, detail);
    fflush(stdout);
    if (ok) g_passed++; else g_failed++;
    return ok;
}

// Prints the final "N passed, M failed" line; returns the exit status (1 if any check failed).
TEST_UNUSED static int check_summary(void) {
    printf("%d passed, %d failed\n", g_passed, g_failed);
    return g_failed ? 1 : 0;
}

// snprintf that may truncate (names, paths and details are short; a cut one is harmless).
TEST_PRINTF(3, 4) TEST_UNUSED static void fmt(char *buf, size_t size, const char *f, ...) {
    va_list ap;
    va_start(ap, f);
    vsnprintf(buf, size, f, ap);
    va_end(ap);
}

// x's first row (K wide) = 5 times the column of w (K, N) with the largest
// norm as an e4m3 GEMM sees it (its e4m3 values in wq times its scale sw):
// where Cauchy-Schwarz, so fp8's bound on a linear's outputs
// (vit__e4m3_bound_scale), is tight. Returns that norm (summed in double).
TEST_UNUSED static double tight_row(float *x, const float *w, const float *wq, const float *sw, int K, int N) {
    int jmax = 0;
    double best = -1.0;
    for (int n = 0; n < N; n++) {
        double ss = 0.0;
        for (int k = 0; k < K; k++) ss += (double)wq[(size_t)k * N + n] * wq[(size_t)k * N + n];
        if (sqrt(ss) * sw[n] > best) { best = sqrt(ss) * sw[n]; jmax = n; }
    }
    for (int k = 0; k < K; k++) x[k] = 5.0f * w[(size_t)k * N + jmax];
    return best;
}

// ---------------------------------------------------------------------------
// files and buffers

// The whole file in a malloc, with a NUL after its *size bytes; NULL if it cannot be read.
TEST_UNUSED static unsigned char *read_all(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    unsigned char *buf = NULL;
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0) n = ftell(f);
    if (n >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        buf = (unsigned char *)malloc((size_t)n + 1);
        if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) { free(buf); buf = NULL; }
    }
    fclose(f);
    if (buf) { buf[n] = 0; *size = (size_t)n; }
    return buf;
}

// A malloc of exactly n bytes holding src[0..n): ASan catches any read past it.
TEST_UNUSED static unsigned char *exact_copy(const void *src, size_t n) {
    unsigned char *p = (unsigned char *)malloc(n ? n : 1);
    if (p && n) memcpy(p, src, n);
    return p;
}

// ---------------------------------------------------------------------------
// counting allocator: for vit_options.allocator (user_data = a counting*) or VIT_MALLOC/VIT_FREE

typedef struct counting {
    long calls, fail_at, live; // requests so far, the request to fail (0: none), allocations live
} counting;

// Allocates n bytes unless this is request number c->fail_at (then NULL); u is a counting*.
TEST_UNUSED static void *count_alloc(size_t n, void *u) {
    counting *c = (counting *)u;
    if (++c->calls == c->fail_at) return NULL;
    void *p = malloc(n);
    if (p) c->live++;
    return p;
}

// Frees p (NULL is ignored) and counts it; u is the counting* it came from.
TEST_UNUSED static void count_free(void *p, void *u) {
    counting *c = (counting *)u;
    if (p) { c->live--; free(p); }
}

// ---------------------------------------------------------------------------
// PyTorch references (io.bin, layout in tests/data/ref/README.md)

typedef struct reference {
    int n, c, h, w, k, d;                 // images, channels, height, width, classes, features
    float *input, *logits, *features;     // (n, c, h, w), (n, k), (n, d)
} reference;

// Reads an io.bin into r (arrays malloc'd, freed by the caller even on failure); returns 0 on failure.
TEST_UNUSED static int read_reference(const char *path, reference *r) {
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    int hdr[8];
    int ok = fread(hdr, sizeof(int), 8, f) == 8 && hdr[0] == 0x46455256;
    if (ok) {
        r->n = hdr[1]; r->c = hdr[2]; r->h = hdr[3]; r->w = hdr[4]; r->k = hdr[5]; r->d = hdr[6];
        size_t ni = (size_t)r->n * r->c * r->h * r->w, nl = (size_t)r->n * r->k, nf = (size_t)r->n * r->d;
        r->input = (float *)malloc(ni * 4 + 4);
        r->logits = (float *)malloc(nl * 4 + 4);
        r->features = (float *)malloc(nf * 4 + 4);
        ok = fread(r->input, 4, ni, f) == ni && fread(r->logits, 4, nl, f) == nl && fread(r->features, 4, nf, f) == nf;
    }
    fclose(f);
    return ok;
}

// Text-tower references (text.bin, layout in tests/data/text/README.md): test_text
typedef struct text_ref {
    int n, c, h, w, k, L, E;              // images, channels, height, width, texts, ids per text, embedding width
    float *images;                        // (n, c, h, w)
    int *ids;                             // (k, L)
    float *image_embeds, *text_embeds;    // (n, E), (k, E): normalised
    float *logits, *probs;                // (n, k) logits_per_image, and their softmax over k (CLIP) or sigmoids (SigLIP)
} text_ref;

TEST_UNUSED static void free_text_ref(text_ref *r) {
    free(r->images); free(r->ids); free(r->image_embeds); free(r->text_embeds); free(r->logits); free(r->probs);
    memset(r, 0, sizeof(*r));
}

// Reads a text.bin into r; returns 0 on failure (r then freed).
TEST_UNUSED static int read_text_ref(const char *path, text_ref *r) {
    memset(r, 0, sizeof(*r));
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    int hdr[8];
    int ok = fread(hdr, sizeof(int), 8, f) == 8 && hdr[0] == 0x54584554;
    for (int i = 1; ok && i < 8; i++) ok = hdr[i] > 0 && hdr[i] < 4096;
    if (ok) {
        r->n = hdr[1]; r->c = hdr[2]; r->h = hdr[3]; r->w = hdr[4]; r->k = hdr[5]; r->L = hdr[6]; r->E = hdr[7];
        size_t ni = (size_t)r->n * r->c * r->h * r->w, nid = (size_t)r->k * r->L, nie = (size_t)r->n * r->E, nte = (size_t)r->k * r->E, nl = (size_t)r->n * r->k;
        r->images = (float *)malloc(ni * 4); r->ids = (int *)malloc(nid * 4);
        r->image_embeds = (float *)malloc(nie * 4); r->text_embeds = (float *)malloc(nte * 4);
        r->logits = (float *)malloc(nl * 4); r->probs = (float *)malloc(nl * 4);
        ok = fread(r->images, 4, ni, f) == ni && fread(r->ids, 4, nid, f) == nid && fread(r->image_embeds, 4, nie, f) == nie &&
             fread(r->text_embeds, 4, nte, f) == nte && fread(r->logits, 4, nl, f) == nl && fread(r->probs, 4, nl, f) == nl && fgetc(f) == EOF;
    }
    fclose(f);
    if (!ok) free_text_ref(r);
    return ok;
}

#ifdef VIT_H_INCLUDED // (after vit.h only)
// The case's options.json, when dir has one, into o; 0 when it is unreadable.
// {"image_height": H, "image_width": W}: run the model at H x W. "mean": [3],
// "std": [3], "interpolation": "...", "crop_pct": F: the preprocessing stated
// (vit_options), for a case whose files do not state it (timm_noconfig).
TEST_UNUSED static int read_case_options(const char *dir, vit_options *o) {
    char path[1200], text[512];
    snprintf(path, sizeof(path), "%s/options.json", dir);
    FILE *f = fopen(path, "rb");
    if (!f) return 1;
    size_t n = fread(text, 1, sizeof(text) - 1, f);
    fclose(f);
    text[n] = 0;
    const char *h = strstr(text, "\"image_height\":"), *w = strstr(text, "\"image_width\":");
    if ((h || w) && !(h && w && sscanf(h + 15, "%d", &o->image_height) == 1 && sscanf(w + 14, "%d", &o->image_width) == 1)) return 0;
    const char *m = strstr(text, "\"mean\":"), *s = strstr(text, "\"std\":"), *ip = strstr(text, "\"interpolation\":"), *cp = strstr(text, "\"crop_pct\":");
    if (m && sscanf(m + 7, " [%f , %f , %f ]", &o->mean[0], &o->mean[1], &o->mean[2]) != 3) return 0;
    if (s && sscanf(s + 6, " [%f , %f , %f ]", &o->std[0], &o->std[1], &o->std[2]) != 3) return 0;
    if (cp && sscanf(cp + 11, "%f", &o->crop_pct) != 1) return 0;
    if (ip) {
        static const char *const names[] = {"bicubic", "bilinear", "nearest"};
        const char *q = strchr(ip + 16, '"');
        o->interpolation = NULL;
        for (int i = 0; q && i < 3; i++) if (!strncmp(q + 1, names[i], strlen(names[i])) && q[1 + strlen(names[i])] == '"') o->interpolation = names[i];
        if (!o->interpolation) return 0;
    }
    return 1;
}

// A vit_image_decoder.decode for the tests of the hook: the bytes "GRAY..." are a
// 2x2 gray image {0, 85, 170, 255}; anything else is not its format.
TEST_UNUSED static int gray_decode(const void *data, size_t size, vit_image *img, char *message, void *user) {
    static const unsigned char px[4] = {0, 85, 170, 255};
    (void)size; (void)message; (void)user;
    if (memcmp(data, "GRAY", 4) != 0) return 0;
    img->pixels = px;
    img->width = 2;
    img->height = 2;
    img->channels = 1;
    return 1;
}
#endif

// max |a - b| / max |b|; NaN or Inf in a fails (returns +inf).
TEST_UNUSED static double rel_err(const float *a, const float *b, size_t n) {
    double md = 0, mr = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(a[i])) return INFINITY;
        double d = fabs((double)a[i] - b[i]);
        if (d > md) md = d;
        if (fabs(b[i]) > mr) mr = fabs(b[i]);
    }
    return mr > 0 ? md / mr : md;
}

// Index of the largest of v[0..n) (the first on ties).
TEST_UNUSED static int argmax(const float *v, int n) {
    int best = 0;
    for (int i = 1; i < n; i++) if (v[i] > v[best]) best = i;
    return best;
}

// ---- activation references (tests/data/act, tools/make_act_reference.py): test_act, test_ops

typedef struct {
    size_t n;   // inputs (pairs for SwiGLU)
    int arity;  // floats per input: 1, or 2 for (gate, up)
    float *in;  // (n, arity)
    double *ref; // (n)
} act_ref;

static TEST_UNUSED uint32_t le32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

// Reads DIR/name.bin into r (arrays malloc'd, freed by the caller even on failure);
// returns 0 and says why in err on failure.
static TEST_UNUSED int read_act(const char *dir, const char *name, int arity, act_ref *r, char *err, size_t err_size) {
    char path[1024];
    fmt(path, sizeof(path), "%s/%s.bin", dir, name);
    size_t size = 0;
    unsigned char *buf = read_all(path, &size);
    if (!buf) { fmt(err, err_size, "cannot read %s", path); return 0; }
    int ok = size >= 16 && !memcmp(buf, "VACT", 4) && le32(buf + 4) == 1 && le32(buf + 8) == (uint32_t)arity;
    size_t n = ok ? le32(buf + 12) : 0;
    // n < 2^32, so the byte count cannot overflow a 64-bit size_t
    ok = ok && n > 0 && size - 16 == n * (size_t)arity * 4 + n * 8;
    if (!ok) {
        fmt(err, err_size, "%s: bad header or size (%zu bytes)", path, size);
        free(buf);
        return 0;
    }
    r->n = n;
    r->arity = arity;
    r->in = (float *)malloc(n * (size_t)arity * sizeof(float));
    r->ref = (double *)malloc(n * sizeof(double));
    ok = r->in && r->ref;
    const unsigned char *p = buf + 16;
    for (size_t i = 0; ok && i < n * (size_t)arity; i++, p += 4) {
        uint32_t u = le32(p);
        memcpy(&r->in[i], &u, 4);
    }
    for (size_t i = 0; ok && i < n; i++, p += 8) {
        uint64_t u = (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
        memcpy(&r->ref[i], &u, 8);
    }
    if (!ok) fmt(err, err_size, "out of memory");
    free(buf);
    return ok;
}

// ---- dense-features references (features.bin, tools/make_features_reference.py): test_features, test_gpu_features

typedef struct feat_record {
    int k, norm, keep_prefix, layout;  // block, final norm applied, prefix tokens kept, 0 tokens / 1 grid
    int n, d1, d2, d3;                 // images; tokens: T, C, 0; grid: C, h, w
    size_t per_image;                  // values per image: T C, or C h w (+ P C with the prefix kept)
    float *data;                       // n x per_image values, what vit_features writes for the block: tokens [n][T][C];
                                       // grid [n][C][h][w], then (prefix kept) [n][P][C] (vit.h's vit_layout)
} feat_record;

typedef struct feat_ref {
    int depth, num_prefix, count;
    feat_record *rec;                  // count records, their data in one malloc (rec[0].data)
} feat_ref;

TEST_UNUSED static void free_features(feat_ref *f) {
    if (f->rec && f->count) free(f->rec[0].data);
    free(f->rec);
    memset(f, 0, sizeof(*f));
}

// Reads a features.bin into f (layout in tests/data/ref/README.md); 0 with the
// reason in err when it is unreadable or malformed (f is then freed).
TEST_UNUSED static int read_features(const char *path, feat_ref *f, char *err, size_t err_size) {
    memset(f, 0, sizeof(*f));
    size_t size = 0;
    unsigned char *buf = read_all(path, &size);
    if (!buf) { fmt(err, err_size, "cannot read %s", path); return 0; }
    int ok = size >= 16 && le32(buf) == 0x41454656u;
    int R = ok ? (int)le32(buf + 4) : 0;
    ok = ok && R > 0 && R < 1000;
    if (ok) {
        f->depth = (int)le32(buf + 8);
        f->num_prefix = (int)le32(buf + 12);
        f->count = R;
        f->rec = (feat_record *)calloc((size_t)R, sizeof(feat_record));
        ok = f->rec != NULL;
    }
    // two passes: sizes (checked against the file), then the values into one allocation
    size_t total = 0, at = 16;
    for (int pass = 0; ok && pass < 2; pass++) {
        at = 16;
        float *dst = pass ? f->rec[0].data : NULL;
        for (int r = 0; ok && r < R; r++) {
            feat_record *e = &f->rec[r];
            ok = size - at >= 32;
            if (!ok) break;
            int v[8];
            for (int i = 0; i < 8; i++) v[i] = (int)le32(buf + at + 4 * i);
            at += 32;
            e->k = v[0]; e->norm = v[1]; e->keep_prefix = v[2]; e->layout = v[3];
            e->n = v[4]; e->d1 = v[5]; e->d2 = v[6]; e->d3 = v[7];
            ok = e->n > 0 && e->d1 > 0 && e->d2 > 0 && (e->layout == 0 ? e->d3 == 0 : e->layout == 1 && e->d3 > 0);
            if (!ok) break;
            e->per_image = e->layout == 0 ? (size_t)e->d1 * e->d2
                                          : (size_t)e->d1 * e->d2 * e->d3 + (e->keep_prefix ? (size_t)f->num_prefix * e->d1 : 0);
            size_t count = (size_t)e->n * e->per_image;
            ok = (size - at) / 4 >= count;
            if (!ok) break;
            if (pass) {
                e->data = dst;
                for (size_t i = 0; i < count; i++) {
                    uint32_t u = le32(buf + at + 4 * i);
                    memcpy(&dst[i], &u, 4);
                }
                dst += count;
            } else {
                total += count;
            }
            at += count * 4;
        }
        if (ok && !pass) {
            ok = at == size && (f->rec[0].data = (float *)malloc(total * sizeof(float))) != NULL;
        }
    }
    if (!ok) {
        fmt(err, err_size, "%s: malformed (%zu bytes)", path, size);
        free_features(f);
    }
    free(buf);
    return ok;
}

// The records of one kind (norm, keep_prefix, layout) for one call: their
// blocks in a fixed shuffled order (never the file's when there are two or
// more), every other one as a negative index (k - depth), into blocks; the
// same resolved (0..depth-1) into resolved; their values concatenated in that
// order into *want (malloc'd; NULL when there are none). Returns the number of
// records (at most 64); *first: one of them (they share a shape).
TEST_UNUSED static int feat_group(const feat_ref *f, int norm, int keep, int layout, int *blocks, int *resolved, float **want, const feat_record **first) {
    int members[64], k = 0;
    *want = NULL;
    for (int i = 0; i < f->count && k < 64; i++) {
        const feat_record *e = &f->rec[i];
        if (e->norm == norm && e->keep_prefix == keep && e->layout == layout) members[k++] = i;
    }
    if (k == 0) return 0;
    int order[64];
    for (int i = 0; i < k; i++) order[i] = i;
    unsigned seed = 12345u + (unsigned)(norm * 4 + keep * 2 + layout);
    for (int i = k - 1; i > 0; i--) { // Fisher-Yates with an LCG
        seed = seed * 1664525u + 1013904223u;
        int j = (int)((seed >> 8) % (unsigned)(i + 1)), t = order[i];
        order[i] = order[j]; order[j] = t;
    }
    int same = 1;
    for (int i = 0; i < k; i++) same &= order[i] == i;
    for (int i = 0; same && i < k / 2; i++) { int t = order[i]; order[i] = order[k - 1 - i]; order[k - 1 - i] = t; }
    *first = &f->rec[members[0]];
    size_t chunk = (size_t)(*first)->n * (*first)->per_image;
    *want = (float *)malloc((size_t)k * chunk * sizeof(float));
    for (int i = 0; i < k; i++) {
        const feat_record *e = &f->rec[members[order[i]]];
        resolved[i] = e->k;
        blocks[i] = i % 2 == 0 ? e->k - f->depth : e->k;
        if (*want) memcpy(*want + (size_t)i * chunk, e->data, chunk * sizeof(float));
    }
    return k;
}

// vit_features_shape's shape[4] for a record: tokens {T, C, 0, 0}, grid {C, h, w, kept prefix tokens}
TEST_UNUSED static void feat_record_shape(const feat_ref *f, const feat_record *e, int shape[4]) {
    shape[0] = e->d1; shape[1] = e->d2; shape[2] = e->d3;
    shape[3] = e->layout == 1 && e->keep_prefix ? f->num_prefix : 0;
}

// "raw, prefix, tokens" and the like, for a kind of record
TEST_UNUSED static const char *feat_kind_name(int norm, int keep, int layout) {
    static const char *const names[8] = {"raw, no prefix, tokens", "raw, prefix, tokens", "normed, no prefix, tokens", "normed, prefix, tokens",
                                         "raw, no prefix, grid", "raw, prefix, grid", "normed, no prefix, grid", "normed, prefix, grid"};
    return names[(layout ? 4 : 0) + (norm ? 2 : 0) + (keep ? 1 : 0)];
}

// The features tests' output poison: a quiet NaN with a payload in every float, and the
// test that a buffer (or its guard region) still holds it
TEST_UNUSED static const uint32_t TEST_POISON = 0x7fc0deadu;
TEST_UNUSED static void poison(float *p, size_t n) {
    for (size_t i = 0; i < n; i++) memcpy(&p[i], &TEST_POISON, 4);
}
TEST_UNUSED static int is_poisoned(const float *p, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (memcmp(&p[i], &TEST_POISON, 4)) return 0;
    return 1;
}

// A features case: DIR/features.bin into f and DIR/io.bin into r (1), or 0 after a SKIP
// line (no features.bin) or a failed check, with nothing left to free
TEST_UNUSED static int read_features_case(const char *dir, feat_ref *f, reference *r) {
    char path[1200], err[1400];
    fmt(path, sizeof(path), "%s/features.bin", dir);
    FILE *probe = fopen(path, "rb");
    if (!probe) { printf("SKIP %s: no features.bin\n", dir); return 0; }
    fclose(probe);
    if (!read_features(path, f, err, sizeof(err))) { check(0, dir, "%s", err); return 0; }
    memset(r, 0, sizeof(*r));
    fmt(path, sizeof(path), "%s/io.bin", dir);
    if (!read_reference(path, r)) {
        check(0, dir, "cannot read %s", path);
        free(r->input); free(r->logits); free(r->features);
        free_features(f);
        return 0;
    }
    return 1;
}

#ifdef VIT_H_INCLUDED // (after vit.h only)
// A features spec of one kind of record (norm, keep the prefix tokens, grid layout)
TEST_UNUSED static vit_features_spec feat_spec(const int *blocks, int num, int norm, int keep, int layout, vit_dtype out) {
    vit_features_spec s;
    memset(&s, 0, sizeof(s));
    s.blocks = blocks;
    s.num_blocks = num;
    s.norm = norm;
    s.drop_prefix = !keep;
    s.layout = layout ? VIT_LAYOUT_GRID : VIT_LAYOUT_TOKENS;
    s.out_dtype = out;
    return s;
}

// 3 images cycled from io.bin's (the max_batch 2 cases: a chunk of 2 and a chunk of 1)
TEST_UNUSED static float *three_images(const reference *r) {
    size_t per_image = (size_t)r->c * r->h * r->w;
    float *images = (float *)malloc(3 * per_image * sizeof(float));
    for (int i = 0; i < 3; i++) memcpy(images + i * per_image, r->input + (size_t)(i % r->n) * per_image, per_image * sizeof(float));
    return images;
}

// The same features call on 3 images by whole (one batch) into *a and by m2 (max_batch 2)
// into *b: need floats each, then guard more, poisoned first. Returns the status of m2's
// call (or of whole's, when that failed).
TEST_UNUSED static vit_status features_two_ways(vit_model *whole, vit_model *m2, const float *images, const vit_features_spec *spec, size_t guard,
                                                float **a, float **b, size_t *need) {
    size_t per = 0;
    vit_status st = vit_features_shape(whole, spec, NULL, &per, NULL);
    *need = (size_t)spec->num_blocks * 3 * per;
    *a = (float *)malloc((*need + guard) * sizeof(float));
    *b = (float *)malloc((*need + guard) * sizeof(float));
    poison(*a, *need + guard);
    poison(*b, *need + guard);
    if (st == VIT_OK) st = vit_features(whole, images, 3, spec, *a, *need);
    return st == VIT_OK ? vit_features(m2, images, 3, spec, *b, *need) : st;
}

// A case's model (DIR/model.safetensors with its options.json) on device in dtype (NULL
// after a failed check, what names the load in its message)
TEST_UNUSED static vit_model *load_case_model(const char *dir, const char *what, vit_device device, vit_dtype dtype, int max_batch) {
    char path[1200];
    vit_options o;
    memset(&o, 0, sizeof(o));
    o.device = device;
    o.dtype = dtype;
    o.max_batch = max_batch;
    if (!read_case_options(dir, &o)) { check(0, dir, "unreadable options.json"); return NULL; }
    fmt(path, sizeof(path), "%s/model.safetensors", dir);
    vit_model *m = NULL;
    vit_status st = vit_load(path, &o, &m);
    if (st != VIT_OK) check(0, dir, "%s: %s: %s", what, vit_status_string(st), vit_last_error(NULL));
    return m;
}
#endif // VIT_H_INCLUDED

#endif // TEST_UTIL_H_INCLUDED
