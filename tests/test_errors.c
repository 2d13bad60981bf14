// test_errors: bad input never crashes and always gets the right vit_status.
//
// usage: test_errors DIR   (DIR holds a valid model.safetensors + config.json;
//                           its sibling timm_noembedclass_nohead is used too)
//
// Every check asserts the exact status, that *out is NULL after a failed load,
// and that vit_last_error() is a non-empty message naming the culprit. Bad
// files are either assembled in memory (header JSON + data) or made by editing
// the real file's header; every buffer handed to vit_load_memory is a malloc of
// exactly its size, so ASan catches any read past the end.
//
// The VIT_MAX_* limits are set small here so that their boundaries can be hit
// with tiny synthetic models. They must still admit every reference model:
// the largest has a 4224-byte header, 2 blocks, width 72, mlp 288, 50 tokens.
#define VIT_MAX_HEADER_BYTES 8192u
#define VIT_MAX_DIM 512
#define VIT_MAX_DEPTH 4
#define VIT_MAX_TOKENS 50
#define VIT_MAX_BATCH 16
#define VIT_MAX_SHARDS 4
#define VIT_IMPLEMENTATION
#include "../vit.h"
#define TEST_UTIL_QUIET_OK // OK lines carry no detail
#include "test_util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
#include <stdint.h>
#include <limits.h>
#include <math.h>

// ---------------------------------------------------------------------------
// reporting

// Like check, but silent when ok: for preconditions of a check printed later.
TEST_PRINTF(3, 4) static int require(int ok, const char *name, const char *fmt, ...) {
    if (!ok) {
        char detail[1024];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(detail, sizeof(detail), fmt, ap);
        va_end(ap);
        check(0, name, "%s", detail);
    }
    return ok;
}

static int named_status(vit_status st) { return st <= 0 && st > -VIT_STATUS_COUNT; }

// *out is set to this before each load, so a load that forgets to write it shows.
static char g_sentinel;
#define SENTINEL ((vit_model *)(void *)&g_sentinel)

// Leaves a known message in vit_last_error(NULL), so a check cannot pass on a
// stale message from an earlier load. No needle below is a substring of it.
static void reset_load_error(void) {
    vit_load_memory(NULL, 0, NULL, NULL); // "vit_load_memory: out is NULL"
}

// Runs one image of zeros through m (and embed), which must not crash and,
// with finite set, must give finite logits. Returns 0 with a reason in why.
static int smoke_forward(vit_model *m, int finite, char *why, size_t cap) {
    const vit_config *c = vit_model_config(m);
    size_t pixels = (size_t)c->in_chans * c->image_height * c->image_width;
    float *img = (float *)calloc(pixels, sizeof(float));
    float *out = (float *)malloc(((size_t)c->num_classes + (size_t)c->dim) * sizeof(float));
    int ok = img && out;
    vit_status st;
    if (ok && c->num_classes > 0 && (st = vit_forward(m, img, 1, out)) != VIT_OK) {
        snprintf(why, cap, "vit_forward: %s: %s", vit_status_string(st), vit_last_error(m));
        ok = 0;
    }
    for (int i = 0; ok && finite && i < c->num_classes; i++)
        if (!isfinite(out[i])) { snprintf(why, cap, "logit %d is %g", i, out[i]); ok = 0; }
    if (ok && (st = vit_embed(m, img, 1, out)) != VIT_OK) {
        snprintf(why, cap, "vit_embed: %s: %s", vit_status_string(st), vit_last_error(m));
        ok = 0;
    }
    free(img);
    free(out);
    return ok;
}

// Checks the result of a load: status, *out, message.
static void finish_load(const char *name, vit_status st, vit_model *m, vit_status want, const char *needle) {
    const char *e = vit_last_error(NULL);
    char why[600];
    if (m == SENTINEL) {
        check(0, name, "*out was not written (status %s)", vit_status_string(st));
        return;
    }
    if (st != want) {
        check(0, name, "got %s (%d), want %s: '%s'", vit_status_string(st), (int)st, vit_status_string(want), st == VIT_OK ? "" : e);
    } else if (want != VIT_OK && m != NULL) {
        check(0, name, "failed with %s but *out is not NULL", vit_status_string(st));
    } else if (want != VIT_OK && (!e || !e[0] || (needle && !strstr(e, needle)))) {
        check(0, name, "message '%s' does not mention '%s'", e ? e : "(null)", needle ? needle : "");
    } else if (want == VIT_OK && !smoke_forward(m, 1, why, sizeof(why))) {
        check(0, name, "loaded, but %s", why);
    } else {
        check(1, name, "%s", "");
    }
    vit_free(m);
}

// vit_load_memory on a private exact-size copy of buf.
static void t_mem(const char *name, const void *buf, size_t size, const vit_options *o, vit_status want, const char *needle) {
    unsigned char *copy = exact_copy(buf, size);
    vit_model *m = SENTINEL;
    reset_load_error();
    vit_status st = vit_load_memory(copy, size, o, &m);
    free(copy); // vit_load_memory must not keep pointers into the caller's bytes
    finish_load(name, st, m, want, needle);
}

static void t_file(const char *name, const char *path, const vit_options *o, vit_status want, const char *needle) {
    vit_model *m = SENTINEL;
    reset_load_error();
    vit_status st = vit_load(path, o, &m);
    finish_load(name, st, m, want, needle);
}

// ---------------------------------------------------------------------------
// byte buffers, files

typedef struct sbuf {
    char *p;
    size_t n, cap;
} sbuf;

static void sb_put(sbuf *b, const void *s, size_t n) {
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + n + 1) cap *= 2;
        char *p = (char *)realloc(b->p, cap);
        if (!p) { printf("NOT OK test harness: out of memory\n"); exit(2); }
        b->p = p;
        b->cap = cap;
    }
    if (n) memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}

TEST_PRINTF(2, 3) static void sb_printf(sbuf *b, const char *fmt, ...) {
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof(tmp)) { printf("NOT OK test harness: sb_printf overflow\n"); exit(2); }
    sb_put(b, tmp, (size_t)n);
}

static void put_u64(unsigned char *p, uint64_t v) {
    for (int i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i));
}

// A safetensors file: 8-byte length, header, body. body NULL = zero bytes.
static unsigned char *st_file(const char *hdr, size_t hlen, const void *body, size_t body_n, size_t *size) {
    *size = 8 + hlen + body_n;
    unsigned char *f = (unsigned char *)calloc(*size, 1);
    if (!f) { printf("NOT OK test harness: out of memory\n"); exit(2); }
    put_u64(f, hlen);
    memcpy(f + 8, hdr, hlen);
    if (body && body_n) memcpy(f + 8 + hlen, body, body_n);
    return f;
}

// Loads a file assembled from a header string and body_n zero bytes.
static void t_raw(const char *name, const char *hdr, size_t body_n, vit_status want, const char *needle) {
    size_t size;
    unsigned char *f = st_file(hdr, strlen(hdr), NULL, body_n, &size);
    t_mem(name, f, size, NULL, want, needle);
    free(f);
}

// Replaces occurrence number `which` (0 = first, -1 = all) of old in s; returns
// a new string and the number of replacements in *count.
static char *replace(const char *s, const char *old, const char *new_, int which, int *count) {
    sbuf b = {NULL, 0, 0};
    size_t ol = strlen(old);
    int seen = 0;
    *count = 0;
    for (const char *p = s;;) {
        const char *q = strstr(p, old);
        if (!q) { sb_put(&b, p, strlen(p)); break; }
        sb_put(&b, p, (size_t)(q - p));
        if (which < 0 || seen == which) { sb_put(&b, new_, strlen(new_)); (*count)++; }
        else sb_put(&b, old, ol);
        seen++;
        p = q + ol;
    }
    return b.p;
}

// ---------------------------------------------------------------------------
// the real model, with its header editable as a string

typedef struct realfile {
    unsigned char *bytes;
    size_t size;
    char *header;       // NUL-terminated copy of the JSON header (with its padding)
    size_t hlen;
    const unsigned char *body;
    size_t body_n;
    char *config;       // config.json text
} realfile;

static realfile g_real;
// config_json = the real config.json, as vit_load would read it. One thread:
// hundreds of tiny forward passes run fastest so, and OpenMP's spinning
// barriers are slow on a loaded machine; test_determinism covers threads.
static vit_options g_real_opts;

// The real file with its header text replaced by hdr (same data section).
static unsigned char *real_with_header(const char *hdr, size_t *size) {
    return st_file(hdr, strlen(hdr), g_real.body, g_real.body_n, size);
}

// Loads the real file with `old` replaced by `new_` in its header.
static void t_real_edit(const char *name, const char *old, const char *new_, vit_status want, const char *needle) {
    int n;
    char *hdr = replace(g_real.header, old, new_, 0, &n);
    if (n != 1) {
        check(0, name, "test bug: '%s' not found in the real header", old);
    } else {
        size_t size;
        unsigned char *f = real_with_header(hdr, &size);
        t_mem(name, f, size, &g_real_opts, want, needle);
        free(f);
    }
    free(hdr);
}

// Loads the real file with config.json text given in memory.
static void t_config(const char *name, const char *config, size_t config_size, vit_status want, const char *needle) {
    vit_options o = g_real_opts;
    o.config_json = config;
    o.config_json_size = config_size;
    t_mem(name, g_real.bytes, g_real.size, &o, want, needle);
}

// Loads the real file with `old` replaced (all occurrences) in its config.json.
static void t_config_edit(const char *name, const char *old, const char *new_, vit_status want, const char *needle) {
    int n;
    char *cfg = replace(g_real.config, old, new_, -1, &n);
    if (n < 1) check(0, name, "test bug: '%s' not found in the real config.json", old);
    else t_config(name, cfg, 0, want, needle);
    free(cfg);
}

// ---------------------------------------------------------------------------
// synthetic models: a list of tensors serialised with deterministic data

static uint64_t g_rng = 0x9E3779B97F4A7C15ull;

static uint64_t rng_next(void) { // xorshift64*
    g_rng ^= g_rng >> 12;
    g_rng ^= g_rng << 25;
    g_rng ^= g_rng >> 27;
    return g_rng * 0x2545F4914F6CDD1Dull;
}

static float rng_float(void) { return (float)((rng_next() >> 40) * (1.0 / 16777216.0)) * 2.0f - 1.0f; } // [-1, 1)

#define MAX_TENSORS 128

typedef struct tensor_desc {
    char name[160];
    char dtype[16];
    int ndim;
    uint64_t shape[10];
} tensor_desc;

typedef struct tlist {
    tensor_desc t[MAX_TENSORS];
    int n;
} tlist;

static size_t dtype_bytes(const char *d) {
    if (!strcmp(d, "F32") || !strcmp(d, "I32") || !strcmp(d, "U32")) return 4;
    if (!strcmp(d, "F16") || !strcmp(d, "BF16") || !strcmp(d, "I16") || !strcmp(d, "U16")) return 2;
    if (!strcmp(d, "F64") || !strcmp(d, "I64") || !strcmp(d, "U64")) return 8;
    return 1;
}

static tensor_desc *tl_add(tlist *l, const char *name, int ndim, ...) {
    if (l->n == MAX_TENSORS) { printf("NOT OK test harness: too many tensors\n"); exit(2); }
    tensor_desc *t = &l->t[l->n++];
    memset(t, 0, sizeof(*t));
    snprintf(t->name, sizeof(t->name), "%s", name);
    strcpy(t->dtype, "F32");
    t->ndim = ndim;
    va_list ap;
    va_start(ap, ndim);
    for (int i = 0; i < ndim; i++) t->shape[i] = (uint64_t)va_arg(ap, int);
    va_end(ap);
    return t;
}

static tensor_desc *tl_find(tlist *l, const char *name) {
    for (int i = 0; i < l->n; i++)
        if (!strcmp(l->t[i].name, name)) return &l->t[i];
    printf("NOT OK test harness: no tensor '%s' in the synthetic model\n", name);
    exit(2);
}

static void tl_remove(tlist *l, const char *name) {
    tensor_desc *t = tl_find(l, name);
    int i = (int)(t - l->t);
    memmove(&l->t[i], &l->t[i + 1], (size_t)(l->n - i - 1) * sizeof(l->t[0]));
    l->n--;
}

static void tl_shape(tlist *l, const char *name, int ndim, ...) {
    tensor_desc *t = tl_find(l, name);
    t->ndim = ndim;
    va_list ap;
    va_start(ap, ndim);
    for (int i = 0; i < ndim; i++) t->shape[i] = (uint64_t)va_arg(ap, int);
    va_end(ap);
}

// Serialises l: header padded with spaces to pad_to bytes (0: no padding).
static unsigned char *tl_build(const tlist *l, size_t pad_to, size_t *size) {
    sbuf h = {NULL, 0, 0}, body = {NULL, 0, 0};
    sb_put(&h, "{", 1);
    for (int i = 0; i < l->n; i++) {
        const tensor_desc *t = &l->t[i];
        size_t numel = 1, esize = dtype_bytes(t->dtype);
        sb_printf(&h, "%s\"%s\":{\"dtype\":\"%s\",\"shape\":[", i ? "," : "", t->name, t->dtype);
        for (int d = 0; d < t->ndim; d++) {
            sb_printf(&h, d ? ",%llu" : "%llu", (unsigned long long)t->shape[d]);
            numel *= (size_t)t->shape[d];
        }
        sb_printf(&h, "],\"data_offsets\":[%zu,%zu]}", body.n, body.n + numel * esize);
        for (size_t e = 0; e < numel; e++) {
            unsigned char b[8] = {0};
            float v = 0.3f * rng_float();
            uint32_t bits;
            memcpy(&bits, &v, 4);
            if (!strcmp(t->dtype, "F32")) { for (int k = 0; k < 4; k++) b[k] = (unsigned char)(bits >> (8 * k)); }
            else if (!strcmp(t->dtype, "BF16")) { b[0] = (unsigned char)(bits >> 16); b[1] = (unsigned char)(bits >> 24); }
            else if (!strcmp(t->dtype, "F16")) { // sign, exponent 2^-6..2^-2, random mantissa
                uint32_t r = (uint32_t)rng_next();
                uint16_t hbits = (uint16_t)((r & 0x8000u) | ((9u + (r >> 16) % 5u) << 10) | ((r >> 4) & 0x3ffu));
                b[0] = (unsigned char)hbits; b[1] = (unsigned char)(hbits >> 8);
            }
            sb_put(&body, b, esize);
        }
    }
    sb_put(&h, "}", 1);
    while (h.n < pad_to) sb_put(&h, " ", 1);
    unsigned char *f = st_file(h.p, h.n, body.p, body.n, size);
    free(h.p);
    free(body.p);
    return f;
}

typedef struct mspec {
    int C, depth, M, P, chans, grid, cls, K;
} mspec;

static const mspec SMALL = {8, 2, 16, 4, 3, 2, 1, 3}; // 2 heads via opts.num_heads

// A timm-named ViT of shape s.
static void synth(tlist *l, mspec s) {
    char n[160];
    l->n = 0;
    tl_add(l, "patch_embed.proj.weight", 4, s.C, s.chans, s.P, s.P);
    tl_add(l, "patch_embed.proj.bias", 1, s.C);
    if (s.cls) tl_add(l, "cls_token", 3, 1, 1, s.C);
    tl_add(l, "pos_embed", 3, 1, s.grid * s.grid + s.cls, s.C);
    for (int b = 0; b < s.depth; b++) {
#define BLK(suffix, ...) (snprintf(n, sizeof(n), "blocks.%d." suffix, b), tl_add(l, n, __VA_ARGS__))
        BLK("norm1.weight", 1, s.C);
        BLK("norm1.bias", 1, s.C);
        BLK("attn.qkv.weight", 2, 3 * s.C, s.C);
        BLK("attn.qkv.bias", 1, 3 * s.C);
        BLK("attn.proj.weight", 2, s.C, s.C);
        BLK("attn.proj.bias", 1, s.C);
        BLK("norm2.weight", 1, s.C);
        BLK("norm2.bias", 1, s.C);
        BLK("mlp.fc1.weight", 2, s.M, s.C);
        BLK("mlp.fc1.bias", 1, s.M);
        BLK("mlp.fc2.weight", 2, s.C, s.M);
        BLK("mlp.fc2.bias", 1, s.C);
#undef BLK
    }
    tl_add(l, "norm.weight", 1, s.C);
    tl_add(l, "norm.bias", 1, s.C);
    if (s.K) {
        tl_add(l, "head.weight", 2, s.K, s.C);
        tl_add(l, "head.bias", 1, s.K);
    }
}

static void t_synth(const char *name, const tlist *l, vit_status want, const char *needle) {
    size_t size;
    unsigned char *f = tl_build(l, 0, &size);
    vit_options o;
    memset(&o, 0, sizeof(o));
    o.num_heads = 2;
    o.num_threads = 1; // see g_real_opts
    t_mem(name, f, size, &o, want, needle);
    free(f);
}

static tlist g_tl; // big: keep off the stack

// ---------------------------------------------------------------------------
// 1. the safetensors container and its JSON

static void test_container(void) {
    // size and header length
    static const unsigned char zeros[8] = {0};
    t_mem("empty buffer", zeros, 0, NULL, VIT_ERROR_BAD_FORMAT, "too short");
    t_mem("7-byte buffer", zeros, 7, NULL, VIT_ERROR_BAD_FORMAT, "too short");
    t_mem("8 zero bytes (header length 0)", zeros, 8, NULL, VIT_ERROR_BAD_FORMAT, "not a safetensors file");
    {
        vit_model *m = SENTINEL;
        reset_load_error();
        vit_status st = vit_load_memory(NULL, 100, NULL, &m);
        finish_load("NULL data", st, m, VIT_ERROR_INVALID_ARGUMENT, "data is NULL");
        reset_load_error();
        st = vit_load_memory(g_real.bytes, g_real.size, NULL, NULL);
        check(st == VIT_ERROR_INVALID_ARGUMENT && strstr(vit_last_error(NULL), "out is NULL"), "NULL out (memory)",
              "got %s: '%s'", vit_status_string(st), vit_last_error(NULL));
    }
    {   // other kinds of files passed as the model: said so, not a header length
        static const unsigned char jpeg[24] = {0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 'J', 'F', 'I', 'F', 0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 0xFF, 0xDB, 0, 0x43};
        static const unsigned char png[16] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R'};
        static const unsigned char zip[16] = {'P', 'K', 3, 4, 20, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0};
        t_mem("a JPEG as the model", jpeg, sizeof(jpeg), NULL, VIT_ERROR_BAD_FORMAT, "not a safetensors file (it looks like a JPEG image)");
        t_mem("a PNG as the model", png, sizeof(png), NULL, VIT_ERROR_BAD_FORMAT, "not a safetensors file (it looks like a PNG image)");
        t_mem("a zip (torch.save) as the model", zip, sizeof(zip), NULL, VIT_ERROR_BAD_FORMAT, "not a safetensors file (it looks like a zip archive");
        t_mem("config.json as the model", g_real.config, strlen(g_real.config), NULL, VIT_ERROR_BAD_FORMAT, "not a safetensors file (it looks like JSON text");
        t_mem("text as the model", "hello, this is not a model\n", 27, NULL, VIT_ERROR_BAD_FORMAT, "not a safetensors file");
        vit_model *m = SENTINEL;
        reset_load_error();
        vit_status st = vit_load_memory(jpeg, sizeof(jpeg), NULL, &m);
        finish_load("a JPEG: no header length in the message", st, m, VIT_ERROR_BAD_FORMAT, "JPEG");
        check(!strstr(vit_last_error(NULL), "header length"), "a JPEG: the message does not speak of a header length", "'%s'", vit_last_error(NULL));
    }
    size_t size;
    unsigned char *f = (unsigned char *)malloc(g_real.size);
    memcpy(f, g_real.bytes, g_real.size);
    put_u64(f, (uint64_t)g_real.hlen + 1);
    t_mem("header length one past the end", f, 8 + g_real.hlen, NULL, VIT_ERROR_BAD_FORMAT, "past the end");
    put_u64(f, UINT64_MAX);
    t_mem("header length 2^64-1", f, g_real.size, NULL, VIT_ERROR_BAD_FORMAT, "VIT_MAX_HEADER_BYTES");
    put_u64(f, (uint64_t)VIT_MAX_HEADER_BYTES + 1);
    t_mem("header length > VIT_MAX_HEADER_BYTES, past the end", f, 8 + VIT_MAX_HEADER_BYTES, NULL, VIT_ERROR_BAD_FORMAT, "VIT_MAX_HEADER_BYTES");
    t_mem("header length > VIT_MAX_HEADER_BYTES, inside the file", f, g_real.size, NULL, VIT_ERROR_LIMIT, "VIT_MAX_HEADER_BYTES");
    put_u64(f, 1);
    t_mem("header length 1", f, g_real.size, NULL, VIT_ERROR_BAD_FORMAT, "JSON object");
    free(f);

    // the header limit, exactly: a valid model whose header is padded to the limit
    synth(&g_tl, SMALL);
    vit_options o;
    memset(&o, 0, sizeof(o));
    o.num_heads = 2;
    f = tl_build(&g_tl, VIT_MAX_HEADER_BYTES, &size);
    t_mem("header of exactly VIT_MAX_HEADER_BYTES loads", f, size, &o, VIT_OK, NULL);
    free(f);
    f = tl_build(&g_tl, VIT_MAX_HEADER_BYTES + 1, &size);
    t_mem("header of VIT_MAX_HEADER_BYTES + 1", f, size, &o, VIT_ERROR_LIMIT, "VIT_MAX_HEADER_BYTES");
    free(f);

    // not an object
    t_raw("header is a JSON array", "[]", 0, VIT_ERROR_BAD_FORMAT, "not a safetensors file");
    t_raw("header is a string", "\"abc\"", 0, VIT_ERROR_BAD_FORMAT, "not a safetensors file");
    t_raw("header starts with a space", " {}", 0, VIT_ERROR_BAD_FORMAT, "not a safetensors file");
    t_raw("header is all spaces", "        ", 0, VIT_ERROR_BAD_FORMAT, "not a safetensors file");

    // malformed JSON
    static const char *const T = "{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}"; // + "}" = valid
    static const struct { const char *name, *json, *needle; } bad[] = {
        {"JSON trailing comma in object", "%s,}", "JSON"},
        {"JSON trailing comma in array", "{\"a\":{\"dtype\":\"F32\",\"shape\":[2,],\"data_offsets\":[0,8]}}", "JSON"},
        {"JSON unterminated string", "{\"a\":{\"dtype\":\"F32}}", "unterminated string"},
        {"JSON unterminated string at the end", "{\"abc", "unterminated string"},
        {"JSON backslash at the end", "{\"abc\\", "JSON"},
        {"JSON bad escape \\x", "{\"a\\x\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}", "bad escape"},
        {"JSON bad escape \\u12G4", "{\"a\\u12G4\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}", "escape"},
        {"JSON short \\u escape at the end", "{\"a\\u12", "JSON"},
        {"JSON control character in string", "{\"a\x01\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}", "control character"},
        {"JSON tab in string", "{\"a\t\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}", "control character"},
        {"JSON number 01", "{\"a\":{\"dtype\":\"F32\",\"shape\":[02],\"data_offsets\":[0,8]}}", "JSON"},
        {"JSON number 1.", "{\"a\":{\"dtype\":\"F32\",\"shape\":[2.],\"data_offsets\":[0,8]}}", "bad fraction"},
        {"JSON number 1e", "{\"a\":{\"dtype\":\"F32\",\"shape\":[2e],\"data_offsets\":[0,8]}}", "bad exponent"},
        {"JSON number -", "{\"a\":{\"dtype\":\"F32\",\"shape\":[-],\"data_offsets\":[0,8]}}", "bad number"},
        {"JSON number +2", "{\"a\":{\"dtype\":\"F32\",\"shape\":[+2],\"data_offsets\":[0,8]}}", "JSON"},
        {"JSON number .5", "{\"a\":{\"dtype\":\"F32\",\"shape\":[.5],\"data_offsets\":[0,8]}}", "JSON"},
        {"JSON hex number", "{\"a\":{\"dtype\":\"F32\",\"shape\":[0x2],\"data_offsets\":[0,8]}}", "JSON"},
        {"JSON NaN", "{\"a\":{\"dtype\":\"F32\",\"shape\":[NaN],\"data_offsets\":[0,8]}}", "JSON"},
        {"JSON bare word", "{\"a\":nul}", "unexpected character"},
        {"JSON single quotes", "{'a':1}", "expected a key"},
        {"JSON missing colon", "{\"a\" 1}", "expected ':'"},
        {"JSON missing comma", "{\"a\":1 \"b\":2}", "expected ','"},
        {"JSON unclosed object", "{\"a\":{\"dtype\":\"F32\"", "unexpected end"},
        {"JSON unclosed array", "{\"a\":[1,2", "unexpected end"},
        {"JSON trailing garbage", "%s}x", "trailing characters"},
        {"JSON two objects", "%s}{}", "trailing characters"},
        {"JSON trailing NUL", "%s}\\0", "trailing characters"},
        {"JSON mismatched brackets", "{\"a\":[1,2}}", "expected ','"},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        sbuf b = {NULL, 0, 0};
        const char *p = bad[i].json;
        if (!strncmp(p, "%s", 2)) { sb_put(&b, T, strlen(T)); p += 2; }
        size_t n = strlen(p);
        if (n >= 3 && !strcmp(p + n - 2, "\\0")) { sb_put(&b, p, n - 2); sb_put(&b, "", 1); }
        else sb_put(&b, p, n);
        size_t fsize;
        f = st_file(b.p, b.n, NULL, 8, &fsize);
        t_mem(bad[i].name, f, fsize, NULL, VIT_ERROR_BAD_FORMAT, bad[i].needle);
        free(f);
        free(b.p);
    }
    {   // 1000 levels of nesting: must be refused, not overflow the stack
        sbuf b = {NULL, 0, 0};
        sb_put(&b, "{\"a\":", 5);
        for (int i = 0; i < 1000; i++) sb_put(&b, "[", 1);
        for (int i = 0; i < 1000; i++) sb_put(&b, "]", 1);
        sb_put(&b, "}", 1);
        t_raw("JSON nested 1000 levels", b.p, 0, VIT_ERROR_BAD_FORMAT, "nested too deeply");
        b.n = 0;
        sb_put(&b, "{\"a\":", 5);
        for (int i = 0; i < 1000; i++) sb_put(&b, "{\"a\":", 5);
        sb_put(&b, "1", 1);
        for (int i = 0; i < 1001; i++) sb_put(&b, "}", 1);
        t_raw("JSON objects nested 1000 levels", b.p, 0, VIT_ERROR_BAD_FORMAT, "nested too deeply");
        free(b.p);
    }

    // tensor entries
    t_raw("empty header object", "{}", 0, VIT_ERROR_MISSING_TENSOR, "patch embedding");
    t_raw("only __metadata__", "{\"__metadata__\":{\"format\":\"pt\"}}", 0, VIT_ERROR_MISSING_TENSOR, "patch embedding");
    t_raw("__metadata__ not an object", "{\"__metadata__\":\"pt\"}", 0, VIT_ERROR_BAD_FORMAT, "__metadata__");
    t_raw("tensor entry not an object", "{\"tens_a\":[1]}", 0, VIT_ERROR_BAD_FORMAT, "tens_a");
    t_raw("duplicate tensor name", "{\"tens_a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
          "\"tens_a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[8,16]}}", 16, VIT_ERROR_BAD_FORMAT, "tens_a' appears twice");
    t_raw("missing dtype", "{\"tens_a\":{\"shape\":[2],\"data_offsets\":[0,8]}}", 8, VIT_ERROR_BAD_FORMAT, "tens_a");
    t_raw("missing shape", "{\"tens_a\":{\"dtype\":\"F32\",\"data_offsets\":[0,8]}}", 8, VIT_ERROR_BAD_FORMAT, "tens_a");
    t_raw("missing data_offsets", "{\"tens_a\":{\"dtype\":\"F32\",\"shape\":[2]}}", 8, VIT_ERROR_BAD_FORMAT, "tens_a");
    t_raw("extra key in entry", "{\"tens_a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8],\"x\":1}}", 8, VIT_ERROR_BAD_FORMAT, "tens_a");
    t_raw("dtype not a string", "{\"tens_a\":{\"dtype\":4,\"shape\":[2],\"data_offsets\":[0,8]}}", 8, VIT_ERROR_BAD_FORMAT, "tens_a");
    t_raw("shape not an array", "{\"tens_a\":{\"dtype\":\"F32\",\"shape\":2,\"data_offsets\":[0,8]}}", 8, VIT_ERROR_BAD_FORMAT, "tens_a");
    t_raw("data_offsets with 3 entries", "{\"tens_a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8,8]}}", 8, VIT_ERROR_BAD_FORMAT, "tens_a");
    t_raw("data_offsets with 1 entry", "{\"tens_a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[8]}}", 8, VIT_ERROR_BAD_FORMAT, "tens_a");
    t_raw("data_offsets as strings", "{\"tens_a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[\"0\",\"8\"]}}", 8, VIT_ERROR_BAD_FORMAT, "tens_a");
    t_raw("negative data_offset", "{\"tens_a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[-8,0]}}", 8, VIT_ERROR_BAD_FORMAT, "tens_a");
    t_raw("data_offset 2^64", "{\"tens_a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,18446744073709551616]}}", 8, VIT_ERROR_BAD_FORMAT, "tens_a");
    t_raw("data_offsets reversed", "{\"tens_a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[8,0]}}", 8, VIT_ERROR_BAD_FORMAT, "tens_a");
    t_raw("data_offsets past the end", "{\"tens_a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[4,12]}}", 8, VIT_ERROR_BAD_FORMAT, "outside");
    t_raw("data_offsets end 2^64-1", "{\"tens_a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,18446744073709551615]}}", 8, VIT_ERROR_BAD_FORMAT, "outside");
    t_raw("data_offsets overlapping", "{\"tens_a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
          "\"tens_b\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[4,12]}}", 12, VIT_ERROR_BAD_FORMAT, "tens_b' overlaps");
    t_raw("data_offsets identical", "{\"tens_a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
          "\"tens_b\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}", 8, VIT_ERROR_BAD_FORMAT, "overlaps");
    t_raw("data_offsets with a hole", "{\"tens_a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
          "\"tens_b\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[12,20]}}", 20, VIT_ERROR_BAD_FORMAT, "hole");
    t_raw("data_offsets with a hole at the start", "{\"tens_a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[4,12]}}", 12, VIT_ERROR_BAD_FORMAT, "hole");
    t_raw("data section longer than the tensors", "{\"tens_a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}", 9, VIT_ERROR_BAD_FORMAT, "data section");
    t_raw("data section without tensors", "{}", 4, VIT_ERROR_BAD_FORMAT, "data section");
    t_raw("byte count below shape x dtype", "{\"tens_a\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,8]}}", 8, VIT_ERROR_BAD_FORMAT, "tens_a");
    t_raw("byte count above shape x dtype", "{\"tens_a\":{\"dtype\":\"F16\",\"shape\":[2],\"data_offsets\":[0,8]}}", 8, VIT_ERROR_BAD_FORMAT, "tens_a");
    t_raw("shape product overflows size_t", "{\"tens_a\":{\"dtype\":\"F32\",\"shape\":[4294967296,4294967296,16],\"data_offsets\":[0,8]}}", 8, VIT_ERROR_BAD_FORMAT, "overflow");
    t_raw("shape x dtype overflows size_t", "{\"tens_a\":{\"dtype\":\"F32\",\"shape\":[4611686018427387904],\"data_offsets\":[0,8]}}", 8, VIT_ERROR_BAD_FORMAT, "tens_a");
    t_raw("shape dim 2^64", "{\"tens_a\":{\"dtype\":\"F32\",\"shape\":[18446744073709551616],\"data_offsets\":[0,8]}}", 8, VIT_ERROR_BAD_FORMAT, "tens_a");
    t_raw("negative shape", "{\"tens_a\":{\"dtype\":\"F32\",\"shape\":[-2],\"data_offsets\":[0,8]}}", 8, VIT_ERROR_BAD_FORMAT, "tens_a");
    t_raw("fractional shape", "{\"tens_a\":{\"dtype\":\"F32\",\"shape\":[2.0],\"data_offsets\":[0,8]}}", 8, VIT_ERROR_BAD_FORMAT, "tens_a");
    t_raw("shape with 9 dims", "{\"tens_a\":{\"dtype\":\"F32\",\"shape\":[1,1,1,1,1,1,1,1,2],\"data_offsets\":[0,8]}}", 8, VIT_ERROR_UNSUPPORTED, "tens_a");
    t_raw("unknown dtype Q4", "{\"tens_a\":{\"dtype\":\"Q4\",\"shape\":[2],\"data_offsets\":[0,1]}}", 1, VIT_ERROR_UNSUPPORTED, "Q4");
    t_raw("dtype in lower case", "{\"tens_a\":{\"dtype\":\"f32\",\"shape\":[2],\"data_offsets\":[0,8]}}", 8, VIT_ERROR_UNSUPPORTED, "f32");
    t_raw("empty dtype", "{\"tens_a\":{\"dtype\":\"\",\"shape\":[2],\"data_offsets\":[0,8]}}", 8, VIT_ERROR_UNSUPPORTED, "tens_a");
    {   // a 300-byte tensor name: kept truncated in messages, never matched
        sbuf b = {NULL, 0, 0};
        sb_put(&b, "{\"", 2);
        for (int i = 0; i < 300; i++) sb_put(&b, "n", 1);
        sb_put(&b, "\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,9]}}", strlen("\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,9]}}"));
        t_raw("300-byte tensor name, bad byte count", b.p, 9, VIT_ERROR_BAD_FORMAT, "nnnnnnnn");
        free(b.p);
    }

    // the same errors made by editing the real header (same data section)
    t_real_edit("real: data_offsets reversed", "\"data_offsets\":[0,288]", "\"data_offsets\":[288,0]", VIT_ERROR_BAD_FORMAT, "blocks.0.attn.proj.bias");
    t_real_edit("real: data_offsets past the end", "\"data_offsets\":[564520,572008]", "\"data_offsets\":[564520,572012]", VIT_ERROR_BAD_FORMAT, "pos_embed");
    t_real_edit("real: data_offsets overlapping", "\"data_offsets\":[288,21024]", "\"data_offsets\":[284,21020]", VIT_ERROR_BAD_FORMAT, "overlaps");
    t_real_edit("real: byte count not shape x dtype", "\"shape\":[1,26,72]", "\"shape\":[1,25,72]", VIT_ERROR_BAD_FORMAT, "pos_embed");
    t_real_edit("real: duplicate tensor name", "\"blocks.0.norm1.bias\"", "\"blocks.0.norm2.bias\"", VIT_ERROR_BAD_FORMAT, "blocks.0.norm2.bias");
    t_real_edit("real: unknown dtype Q4", "\"dtype\":\"F32\",\"shape\":[72],\"data_offsets\":[0,288]",
                "\"dtype\":\"Q4\",\"shape\":[288],\"data_offsets\":[0,288]", VIT_ERROR_UNSUPPORTED, "Q4");
    t_real_edit("real: needed tensor in I64", "\"dtype\":\"F32\",\"shape\":[72],\"data_offsets\":[0,288]",
                "\"dtype\":\"I64\",\"shape\":[36],\"data_offsets\":[0,288]", VIT_ERROR_UNSUPPORTED, "blocks.0.attn.proj.bias");
    t_real_edit("real: needed tensor in F64", "\"dtype\":\"F32\",\"shape\":[72],\"data_offsets\":[508648,508936]",
                "\"dtype\":\"F64\",\"shape\":[36],\"data_offsets\":[508648,508936]", VIT_ERROR_UNSUPPORTED, "norm.weight");
    t_real_edit("real: patch embedding in I32", "\"dtype\":\"F32\",\"shape\":[72,3,8,8]",
                "\"dtype\":\"I32\",\"shape\":[72,3,8,8]", VIT_ERROR_UNSUPPORTED, "patch_embed.proj.weight");
    t_real_edit("real: missing tensor (renamed)", "\"blocks.1.mlp.fc2.weight\"", "\"blocks.1.mlp.fc2.weighz\"",
                VIT_ERROR_MISSING_TENSOR, "blocks.1.mlp.fc2.weight");
    t_real_edit("real: missing pos_embed", "\"pos_embed\"", "\"pos_embex\"", VIT_ERROR_MISSING_TENSOR, "pos_embed");
    t_real_edit("real: qkv weight transposed", "\"shape\":[216,72]", "\"shape\":[72,216]", VIT_ERROR_SHAPE_MISMATCH, "blocks.0.attn.qkv.weight");
    t_real_edit("real: mlp weight transposed", "\"shape\":[72,288],\"data_offsets\":[421056", "\"shape\":[288,72],\"data_offsets\":[421056",
                VIT_ERROR_SHAPE_MISMATCH, "blocks.1.mlp.fc2.weight");
    t_real_edit("real: __metadata__ entry", "{\"blocks.0.attn.proj.bias\"", "{\"__metadata__\":{\"format\":\"pt\"},\"blocks.0.attn.proj.bias\"", VIT_OK, NULL);
    t_real_edit("real: an extra tensor the model does not read is refused", "{\"blocks.0.attn.proj.bias\"", "{\"step\":{\"dtype\":\"I64\",\"shape\":[0],\"data_offsets\":[0,0]},\"blocks.0.attn.proj.bias\"", VIT_ERROR_UNSUPPORTED, "'step' is not used");
    t_real_edit("real: escaped tensor name", "\"blocks.0.attn.proj.bias\"", "\"blocks.0.attn.proj\\u002ebias\"", VIT_OK, NULL);
}

// ---------------------------------------------------------------------------
// 2. architecture checks and VIT_MAX_* boundaries on synthetic models

static void test_synthetic(void) {
    char name[160];
    synth(&g_tl, SMALL);
    t_synth("synthetic: small valid model loads", &g_tl, VIT_OK, NULL);
    synth(&g_tl, SMALL);
    for (int i = 0; i < g_tl.n; i++) strcpy(g_tl.t[i].dtype, i % 3 == 0 ? "F16" : i % 3 == 1 ? "BF16" : "F32");
    t_synth("synthetic: mixed F16/BF16/F32 loads", &g_tl, VIT_OK, NULL);

    synth(&g_tl, SMALL);
    tl_remove(&g_tl, "blocks.1.mlp.fc2.weight");
    t_synth("synthetic: missing blocks.1.mlp.fc2.weight", &g_tl, VIT_ERROR_MISSING_TENSOR, "blocks.1.mlp.fc2.weight");
    synth(&g_tl, SMALL);
    tl_remove(&g_tl, "norm.bias");
    t_synth("synthetic: missing norm.bias", &g_tl, VIT_ERROR_MISSING_TENSOR, "norm.bias");
    synth(&g_tl, SMALL);
    tl_remove(&g_tl, "blocks.0.mlp.fc1.weight");
    t_synth("synthetic: missing blocks.0.mlp.fc1.weight", &g_tl, VIT_ERROR_MISSING_TENSOR, "blocks.0.mlp.fc1.weight");
    synth(&g_tl, SMALL);
    tl_remove(&g_tl, "patch_embed.proj.weight");
    t_synth("synthetic: missing patch embedding", &g_tl, VIT_ERROR_MISSING_TENSOR, "patch_embed.proj.weight");
    synth(&g_tl, SMALL);
    tl_remove(&g_tl, "pos_embed");
    t_synth("synthetic: missing pos_embed", &g_tl, VIT_ERROR_MISSING_TENSOR, "pos_embed");
    synth(&g_tl, SMALL);
    tl_remove(&g_tl, "blocks.0.norm1.weight");
    t_synth("synthetic: no blocks", &g_tl, VIT_ERROR_MISSING_TENSOR, "blocks");
    synth(&g_tl, SMALL);
    tl_remove(&g_tl, "head.bias"); // optional: zero bias
    t_synth("synthetic: no head.bias loads", &g_tl, VIT_OK, NULL);

    synth(&g_tl, SMALL);
    tl_shape(&g_tl, "blocks.0.attn.qkv.weight", 2, 3 * SMALL.C - 1, SMALL.C);
    t_synth("synthetic: qkv weight with a wrong row count", &g_tl, VIT_ERROR_SHAPE_MISMATCH, "blocks.0.attn.qkv.weight");
    synth(&g_tl, SMALL);
    tl_shape(&g_tl, "blocks.1.attn.qkv.bias", 1, 3 * SMALL.C + 1);
    t_synth("synthetic: qkv bias too long", &g_tl, VIT_ERROR_SHAPE_MISMATCH, "blocks.1.attn.qkv.bias");
    synth(&g_tl, SMALL);
    tl_shape(&g_tl, "blocks.1.mlp.fc1.weight", 2, SMALL.M + 1, SMALL.C);
    t_synth("synthetic: block 1 mlp width differs from block 0", &g_tl, VIT_ERROR_SHAPE_MISMATCH, "blocks.1.mlp.fc1.weight");
    synth(&g_tl, SMALL);
    tl_shape(&g_tl, "norm.weight", 2, 1, SMALL.C);
    t_synth("synthetic: norm.weight 2-D", &g_tl, VIT_ERROR_SHAPE_MISMATCH, "norm.weight");
    synth(&g_tl, SMALL);
    tl_shape(&g_tl, "cls_token", 3, 1, 2, SMALL.C);
    t_synth("synthetic: cls_token (1, 2, C)", &g_tl, VIT_ERROR_SHAPE_MISMATCH, "cls_token");
    synth(&g_tl, SMALL);
    tl_shape(&g_tl, "pos_embed", 3, 1, 6, SMALL.C);
    t_synth("synthetic: pos_embed not a square grid", &g_tl, VIT_ERROR_SHAPE_MISMATCH, "pos_embed");
    synth(&g_tl, SMALL);
    tl_shape(&g_tl, "pos_embed", 3, 1, 5, SMALL.C + 1);
    t_synth("synthetic: pos_embed width differs", &g_tl, VIT_ERROR_SHAPE_MISMATCH, "pos_embed");
    synth(&g_tl, SMALL);
    tl_shape(&g_tl, "patch_embed.proj.weight", 4, SMALL.C, SMALL.chans, SMALL.P, SMALL.P + 1);
    t_synth("synthetic: non-square patch", &g_tl, VIT_ERROR_UNSUPPORTED, "non-square");
    synth(&g_tl, SMALL);
    tl_shape(&g_tl, "patch_embed.proj.weight", 4, 0, SMALL.chans, SMALL.P, SMALL.P);
    t_synth("synthetic: zero-width patch embedding", &g_tl, VIT_ERROR_SHAPE_MISMATCH, "patch_embed.proj.weight");
    synth(&g_tl, SMALL);
    tl_shape(&g_tl, "head.weight", 2, SMALL.K, SMALL.C + 1);
    t_synth("synthetic: head.weight wrong width", &g_tl, VIT_ERROR_SHAPE_MISMATCH, "head.weight");
    synth(&g_tl, SMALL);
    tl_shape(&g_tl, "head.bias", 1, SMALL.K + 1);
    t_synth("synthetic: head.bias wrong length", &g_tl, VIT_ERROR_SHAPE_MISMATCH, "head.bias");
    synth(&g_tl, SMALL);
    strcpy(tl_find(&g_tl, "blocks.1.norm2.weight")->dtype, "I32");
    t_synth("synthetic: needed tensor in I32", &g_tl, VIT_ERROR_UNSUPPORTED, "blocks.1.norm2.weight");
    synth(&g_tl, SMALL);
    strcpy(tl_find(&g_tl, "head.weight")->dtype, "F64");
    t_synth("synthetic: head.weight in F64", &g_tl, VIT_ERROR_UNSUPPORTED, "head.weight");
    synth(&g_tl, SMALL);
    strcpy(tl_add(&g_tl, "blocks.0.attn.q_norm.weight", 1, 4)->dtype, "F32");
    t_synth("synthetic: q_norm weight without its bias", &g_tl, VIT_ERROR_MISSING_TENSOR, "q_norm.bias");
    synth(&g_tl, SMALL);
    tl_add(&g_tl, "reg_token", 3, 1, 4, SMALL.C);
    t_synth("synthetic: register tokens, pos_embed without their rows", &g_tl, VIT_ERROR_SHAPE_MISMATCH, "pos_embed");
    {
        mspec s = SMALL;
        s.chans = 4;
        synth(&g_tl, s);
        t_synth("synthetic: 4 input channels", &g_tl, VIT_ERROR_UNSUPPORTED, "channels");
        s.chans = 5;
        synth(&g_tl, s);
        t_synth("synthetic: 5 input channels", &g_tl, VIT_ERROR_LIMIT, "patch embedding");
    }
    {   // heads: width 8 has no default (not a multiple of 64), and must divide
        size_t size;
        synth(&g_tl, SMALL);
        unsigned char *f = tl_build(&g_tl, 0, &size);
        t_mem("synthetic: width 8 without num_heads", f, size, NULL, VIT_ERROR_UNSUPPORTED, "num_heads");
        vit_options o;
        memset(&o, 0, sizeof(o));
        o.num_heads = 3;
        t_mem("synthetic: 3 heads do not divide width 8", f, size, &o, VIT_ERROR_SHAPE_MISMATCH, "heads");
        o.num_heads = 8;
        t_mem("synthetic: 8 heads of size 1", f, size, &o, VIT_OK, NULL);
        free(f);
    }

    // VIT_MAX_DEPTH = 4
    {
        mspec s = SMALL;
        s.depth = VIT_MAX_DEPTH;
        synth(&g_tl, s);
        snprintf(name, sizeof(name), "limit: depth %d (VIT_MAX_DEPTH) loads", s.depth);
        t_synth(name, &g_tl, VIT_OK, NULL);
        s.depth = VIT_MAX_DEPTH + 1;
        synth(&g_tl, s);
        snprintf(name, sizeof(name), "limit: depth %d", s.depth);
        t_synth(name, &g_tl, VIT_ERROR_LIMIT, "VIT_MAX_DEPTH");
    }
    // VIT_MAX_TOKENS = 50 = 7 x 7 + class token
    {
        mspec s = SMALL;
        s.grid = 7;
        synth(&g_tl, s);
        t_synth("limit: 50 tokens (VIT_MAX_TOKENS) load", &g_tl, VIT_OK, NULL);
        tl_shape(&g_tl, "pos_embed", 3, 1, VIT_MAX_TOKENS + 1, s.C);
        t_synth("limit: pos_embed with VIT_MAX_TOKENS + 1 tokens", &g_tl, VIT_ERROR_LIMIT, "pos_embed");
        s.grid = 8;
        s.cls = 0;
        synth(&g_tl, s);
        t_synth("limit: 64 patch tokens, no class token", &g_tl, VIT_ERROR_LIMIT, "VIT_MAX_TOKENS");
    }
    // VIT_MAX_DIM = 512: width, mlp width, classes, image size
    {
        mspec s = SMALL;
        s.M = VIT_MAX_DIM;
        synth(&g_tl, s);
        t_synth("limit: mlp width VIT_MAX_DIM loads", &g_tl, VIT_OK, NULL);
        s.M = VIT_MAX_DIM + 1;
        synth(&g_tl, s);
        t_synth("limit: mlp width VIT_MAX_DIM + 1", &g_tl, VIT_ERROR_LIMIT, "blocks.0.mlp.fc1.weight");
        s = SMALL;
        s.K = VIT_MAX_DIM;
        synth(&g_tl, s);
        t_synth("limit: VIT_MAX_DIM classes load", &g_tl, VIT_OK, NULL);
        s.K = VIT_MAX_DIM + 1;
        synth(&g_tl, s);
        t_synth("limit: VIT_MAX_DIM + 1 classes", &g_tl, VIT_ERROR_LIMIT, "head.weight");
        s = SMALL;
        s.C = VIT_MAX_DIM;
        s.depth = 1;
        s.grid = 1;
        s.P = 1;
        synth(&g_tl, s);
        t_synth("limit: width VIT_MAX_DIM loads", &g_tl, VIT_OK, NULL);
        s.C = VIT_MAX_DIM + 1;
        synth(&g_tl, s);
        t_synth("limit: width VIT_MAX_DIM + 1", &g_tl, VIT_ERROR_LIMIT, "patch embedding");
        s = SMALL;
        s.chans = 1;
        s.grid = 2;
        s.P = VIT_MAX_DIM / 2;
        s.depth = 1;
        synth(&g_tl, s);
        t_synth("limit: image size VIT_MAX_DIM loads", &g_tl, VIT_OK, NULL);
        s.grid = 3;
        s.P = VIT_MAX_DIM / 3 + 1;
        synth(&g_tl, s);
        t_synth("limit: image size over VIT_MAX_DIM", &g_tl, VIT_ERROR_LIMIT, "image size");
    }
}

// ---------------------------------------------------------------------------
// 3. config.json

static void test_config(void) {
    t_config("config: the real one loads", g_real.config, 0, VIT_OK, NULL);
    t_config("config: empty text", "", 0, VIT_ERROR_BAD_FORMAT, "config.json");
    t_config("config: spaces only", "  \n ", 0, VIT_ERROR_BAD_FORMAT, "config.json");
    t_config("config: empty object (shapes only; 72 wide needs num_heads)", "{}", 0, VIT_ERROR_UNSUPPORTED, "num_heads");
    t_config("config: only num_heads loads", "{\"model_args\": {\"num_heads\": 3}}", 0, VIT_OK, NULL);
    t_config("config: trailing comma", "{\"num_classes\": 10,}", 0, VIT_ERROR_BAD_FORMAT, "config.json");
    t_config("config: trailing garbage", "{\"num_classes\": 10} x", 0, VIT_ERROR_BAD_FORMAT, "config.json");
    t_config("config: unterminated string", "{\"num_classes", 0, VIT_ERROR_BAD_FORMAT, "config.json");
    t_config("config: not an object", "[10]", 0, VIT_ERROR_BAD_FORMAT, "config.json");
    t_config("config: number", "10", 0, VIT_ERROR_BAD_FORMAT, "config.json");
    t_config("config: cut by config_json_size", g_real.config, strlen(g_real.config) / 2, VIT_ERROR_BAD_FORMAT, "config.json");
    {
        // NUL inside the stated size: not JSON
        char buf[32] = "{\"num_classes\": 10}";
        size_t n = strlen(buf);
        buf[n] = 0;
        buf[n + 1] = ' ';
        t_config("config: NUL inside config_json_size", buf, n + 2, VIT_ERROR_BAD_FORMAT, "config.json");
    }
    t_config_edit("config: embed_dim disagrees", "\"embed_dim\": 72", "\"embed_dim\": 64", VIT_ERROR_SHAPE_MISMATCH, "width 64");
    t_config_edit("config: depth 3 (file has 2)", "\"depth\": 2", "\"depth\": 3", VIT_ERROR_MISSING_TENSOR, "depth 3");
    t_config_edit("config: depth 1 (file has 2)", "\"depth\": 2", "\"depth\": 1", VIT_ERROR_SHAPE_MISMATCH, "depth 1");
    t_config_edit("config: depth over VIT_MAX_DEPTH", "\"depth\": 2", "\"depth\": 5", VIT_ERROR_BAD_FORMAT, "depth");
    t_config_edit("config: depth 0", "\"depth\": 2", "\"depth\": 0", VIT_ERROR_BAD_FORMAT, "depth");
    t_config_edit("config: num_classes 11 (head has 10)", "\"num_classes\": 10", "\"num_classes\": 11", VIT_ERROR_SHAPE_MISMATCH, "11 classes");
    t_config_edit("config: num_classes 0 (head has 10)", "\"num_classes\": 10", "\"num_classes\": 0", VIT_ERROR_SHAPE_MISMATCH, "0 classes");
    t_config_edit("config: num_classes -1", "\"num_classes\": 10", "\"num_classes\": -1", VIT_ERROR_BAD_FORMAT, "num_classes");
    t_config_edit("config: num_classes a string", "\"num_classes\": 10", "\"num_classes\": \"10\"", VIT_ERROR_BAD_FORMAT, "num_classes");
    t_config_edit("config: num_classes 1e999", "\"num_classes\": 10", "\"num_classes\": 1e999", VIT_ERROR_BAD_FORMAT, "num_classes");
    t_config_edit("config: num_classes 0e999", "\"num_classes\": 10", "\"num_classes\": 0e999", VIT_ERROR_SHAPE_MISMATCH, "0 classes");
    t_config_edit("config: embed_dim 72.5", "\"embed_dim\": 72", "\"embed_dim\": 72.5", VIT_ERROR_BAD_FORMAT, "embed_dim");
    t_config_edit("config: embed_dim 72.0 loads", "\"embed_dim\": 72", "\"embed_dim\": 72.0", VIT_OK, NULL);
    t_config_edit("config: patch_size disagrees", "\"patch_size\": 8", "\"patch_size\": 16", VIT_ERROR_SHAPE_MISMATCH, "patch");
    t_config_edit("config: in_chans disagrees", "\"in_chans\": 3", "\"in_chans\": 1", VIT_ERROR_SHAPE_MISMATCH, "channels");
    t_config_edit("config: num_heads does not divide", "\"num_heads\": 3", "\"num_heads\": 5", VIT_ERROR_SHAPE_MISMATCH, "heads");
    t_config_edit("config: mlp_ratio disagrees", "\"mlp_ratio\": 4.0", "\"mlp_ratio\": 2.0", VIT_ERROR_SHAPE_MISMATCH, "mlp_ratio");
    t_config_edit("config: img_size disagrees", "\"img_size\": [\n      40,\n      40\n    ]", "\"img_size\": 48", VIT_ERROR_SHAPE_MISMATCH, "image size");
    t_config_edit("config: img_size [40, 48], pos_embed square", "\"img_size\": [\n      40,\n      40\n    ]", "\"img_size\": [40, 48]", VIT_ERROR_SHAPE_MISMATCH, "image size 40 x 48");
    t_config_edit("config: img_size 3 entries", "\"img_size\": [\n      40,\n      40\n    ]", "\"img_size\": [40, 40, 40]", VIT_ERROR_BAD_FORMAT, "img_size");
    t_config_edit("config: img_size over VIT_MAX_DIM", "\"img_size\": [\n      40,\n      40\n    ]", "\"img_size\": 513", VIT_ERROR_BAD_FORMAT, "img_size");
    t_config_edit("config: global_pool 'map' without attn_pool", "\"global_pool\": \"token\"", "\"global_pool\": \"map\"", VIT_ERROR_MISSING_TENSOR, "attention pooling");
    t_config_edit("config: architecture not a ViT", "\"vit_tiny_patch16_224\"", "\"resnet50\"", VIT_ERROR_UNSUPPORTED, "resnet50");
    t_config_edit("config: distilled architecture, no dist_token", "\"vit_tiny_patch16_224\"", "\"deit_tiny_distilled_patch16_224\"", VIT_ERROR_MISSING_TENSOR, "distillation");
    t_config_edit("config: class_token false, cls_token present", "\"global_pool\": \"token\"\n  },",
                  "\"global_pool\": \"token\", \"class_token\": false\n  },", VIT_ERROR_SHAPE_MISMATCH, "class_token");
    t_config_edit("config: reg_tokens 4", "\"depth\": 2,", "\"depth\": 2, \"reg_tokens\": 4,", VIT_ERROR_MISSING_TENSOR, "register");
    t_config_edit("config: qk_norm true", "\"depth\": 2,", "\"depth\": 2, \"qk_norm\": true,", VIT_ERROR_MISSING_TENSOR, "qk_norm");
    t_config_edit("config: fc_norm true, no fc_norm tensor", "\"depth\": 2,", "\"depth\": 2, \"fc_norm\": true,", VIT_ERROR_MISSING_TENSOR, "fc_norm");
    t_config_edit("config: model_args not an object", "\"model_args\": {", "\"model_args\": 1, \"x\": {", VIT_ERROR_BAD_FORMAT, "model_args");
    t_config_edit("config: crop_pct 0", "\"crop_pct\": 0.9", "\"crop_pct\": 0", VIT_ERROR_BAD_FORMAT, "crop_pct");
    t_config_edit("config: mean of 4 numbers", "\"mean\": [", "\"mean\": [0.5, ", VIT_ERROR_BAD_FORMAT, "mean");
    t_config_edit("config: mean holds a string", "\"mean\": [", "\"mean\": [\"a\", ", VIT_ERROR_BAD_FORMAT, "mean");
    t_config_edit("config: std a scalar loads", "\"std\": [\n      0.5,\n      0.5,\n      0.5\n    ]", "\"std\": 0.25", VIT_OK, NULL);
    t_config_edit("config: HF model_type not vit", "\"num_classes\": 10,\n  \"num_features\"",
                  "\"num_classes\": 10, \"hidden_size\": 72, \"model_type\": \"deit\",\n  \"num_features\"", VIT_ERROR_UNSUPPORTED, "deit");
}

// ---------------------------------------------------------------------------
// 3b. the families' new tensors and fields: reference cases (DIR's siblings)
// edited, each edit a wrong shape, dtype, name or value

static char g_ref_parent[1024];

// Loads reference case `cas` with `hold` replaced by `hnew` (once) in its
// header and `cold` by `cnew` (every time) in its config.json (NULL: no edit),
// run at img_h x img_w (0: native).
static void t_case(const char *name, const char *cas, const char *hold, const char *hnew, const char *cold, const char *cnew, int img_h, int img_w,
                   vit_status want, const char *needle) {
    char path[1400];
    size_t size, csize;
    snprintf(path, sizeof(path), "%s/%s/model.safetensors", g_ref_parent, cas);
    unsigned char *bytes = read_all(path, &size);
    snprintf(path, sizeof(path), "%s/%s/config.json", g_ref_parent, cas);
    char *cfg = (char *)read_all(path, &csize);
    if (!bytes || !cfg || size < 8) { check(0, name, "cannot read case %s", cas); free(bytes); free(cfg); return; }
    uint64_t hlen = 0;
    for (int i = 7; i >= 0; i--) hlen = (hlen << 8) | bytes[i];
    char *hdr = (char *)malloc((size_t)hlen + 1);
    memcpy(hdr, bytes + 8, (size_t)hlen);
    hdr[hlen] = 0;
    int n = 1, nc = 1;
    char *h2 = hold ? replace(hdr, hold, hnew, 0, &n) : NULL;
    char *c2 = cold ? replace(cfg, cold, cnew, -1, &nc) : NULL;
    if (n != 1 || nc < 1) {
        check(0, name, "test bug: '%s' not found in %s's %s", n != 1 ? hold : cold, cas, n != 1 ? "header" : "config.json");
    } else {
        size_t fsize;
        unsigned char *f = h2 ? st_file(h2, strlen(h2), bytes + 8 + hlen, size - 8 - (size_t)hlen, &fsize) : NULL;
        vit_options o;
        memset(&o, 0, sizeof(o));
        o.num_threads = 1;
        o.config_json = c2 ? c2 : cfg;
        o.image_height = img_h;
        o.image_width = img_w;
        t_mem(name, f ? f : bytes, f ? fsize : size, &o, want, needle);
        free(f);
    }
    free(h2); free(c2); free(hdr); free(bytes); free(cfg);
}

// An HF model runs at its processor's crop unless the options say otherwise
static int write_bytes(const char *path, const void *b, size_t n) {
    FILE *f = test_fopen(path, "wb");
    if (!f) return 0;
    int ok = fwrite(b, 1, n, f) == n;
    return fclose(f) == 0 && ok;
}

// Copies reference case cas's file name into dir.
static int copy_ref(const char *cas, const char *name, const char *dir) {
    char src[1400], dst[1400];
    size_t n;
    snprintf(src, sizeof(src), "%s/%s/%s", g_ref_parent, cas, name);
    unsigned char *b = read_all(src, &n);
    snprintf(dst, sizeof(dst), "%s/%s", dir, name);
    int ok = b && write_bytes(dst, b, n);
    free(b);
    return ok;
}

// (transformers: the processor makes the model's input): hf_dinov2 (made at
// 28 x 28) with a Bit processor cropping 20 from a shortest edge of 24.
static void test_hf_default_size(void) {
    char dir[1024], path[1400];
    if (!test_mkdtemp(dir, sizeof(dir), "vit_test_hfsize")) { check(0, "family: HF default size", "cannot make a temporary folder"); return; }
    copy_ref("hf_dinov2", "model.safetensors", dir);
    copy_ref("hf_dinov2", "config.json", dir);
    snprintf(path, sizeof(path), "%s/preprocessor_config.json", dir);
    FILE *f = test_fopen(path, "wb");
    if (f) {
        fputs("{\"image_processor_type\": \"BitImageProcessor\", \"do_resize\": true, \"size\": {\"shortest_edge\": 24}, \"do_center_crop\": true, "
              "\"crop_size\": {\"height\": 20, \"width\": 20}, \"resample\": 3, \"do_rescale\": true, \"rescale_factor\": 0.00392156862745098, "
              "\"do_normalize\": true, \"image_mean\": [0.485, 0.456, 0.406], \"image_std\": [0.229, 0.224, 0.225]}", f);
        fclose(f);
    }
    snprintf(path, sizeof(path), "%s/model.safetensors", dir);
    vit_model *m = NULL;
    vit_status st = vit_load(path, NULL, &m);
    const vit_config *c = vit_model_config(m);
    check(st == VIT_OK && c->image_height == 20 && c->image_width == 20 && c->native_height == 28, "family: HF model defaults to its processor's crop (20 of 28)",
          "%s: %d x %d", vit_status_string(st), c ? c->image_height : -1, c ? c->image_width : -1);
    vit_free(m);
    vit_options o;
    memset(&o, 0, sizeof(o));
    o.image_height = o.image_width = 28;
    st = vit_load(path, &o, &m);
    c = vit_model_config(m);
    check(st == VIT_OK && c->image_height == 28, "family: the options' size wins over the processor's crop", "%s", vit_status_string(st));
    vit_free(m);
    const char *rm[3] = {"model.safetensors", "config.json", "preprocessor_config.json"};
    for (int i = 0; i < 3; i++) { snprintf(path, sizeof(path), "%s/%s", dir, rm[i]); test_remove(path); }
    test_rmdir(dir);
}

static void test_families(void) {
    // every case loads as it is (the reference tests check its numbers)
    // (the DeiT cases' 51 position rows are over this build's VIT_MAX_TOKENS: test_model covers them)
    const char *cases[] = {"timm_reg4_dinov2", "timm_swiglu_dinov2", "timm_clip_quickgelu", "timm_siglip_map", "timm_qknorm",
                           "hf_clip_full", "hf_siglip_full", "hf_dinov2_registers", "hf_dinov2_swiglu", "hf_vitmodel_headless"};
    // (this build has VIT_MAX_TOKENS 50: the register cases' 54 tokens run at 24 x 24, which resamples them)
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char name[128];
        int small = !strcmp(cases[i], "timm_reg4_dinov2") || !strcmp(cases[i], "hf_dinov2_registers");
        snprintf(name, sizeof(name), "family: %s loads%s", cases[i], small ? " (at 24 x 24)" : "");
        t_case(name, cases[i], NULL, NULL, NULL, NULL, small ? 24 : 0, small ? 24 : 0, VIT_OK, NULL);
    }
    t_case("family: 54 tokens over VIT_MAX_TOKENS (50)", "timm_reg4_dinov2", NULL, NULL, NULL, NULL, 0, 0, VIT_ERROR_LIMIT, "VIT_MAX_TOKENS");
    // prefix tokens
    t_case("family: dist_token of 2 tokens", "timm_deit_distilled", "\"dist_token\":{\"dtype\":\"F32\",\"shape\":[1,1,24]", "\"dist_token\":{\"dtype\":\"F32\",\"shape\":[1,2,12]",
           NULL, NULL, 0, 0, VIT_ERROR_SHAPE_MISMATCH, "dist_token");
    t_case("family: dist_token in I32", "timm_deit_distilled", "\"dist_token\":{\"dtype\":\"F32\"", "\"dist_token\":{\"dtype\":\"I32\"", NULL, NULL, 0, 0,
           VIT_ERROR_UNSUPPORTED, "dist_token");
    t_case("family: dist_token renamed (distilled architecture)", "timm_deit_distilled", "\"dist_token\"", "\"dist_tokem\"", NULL, NULL, 0, 0,
           VIT_ERROR_MISSING_TENSOR, "distillation");
    t_case("family: reg_token of width 32", "timm_reg4_dinov2", "\"reg_token\":{\"dtype\":\"F32\",\"shape\":[1,4,16]", "\"reg_token\":{\"dtype\":\"F32\",\"shape\":[1,2,32]",
           NULL, NULL, 0, 0, VIT_ERROR_SHAPE_MISMATCH, "reg_token");
    t_case("family: reg_token renamed (reg4 architecture)", "timm_reg4_dinov2", "\"reg_token\"", "\"reg_tokem\"", NULL, NULL, 0, 0, VIT_ERROR_MISSING_TENSOR,
           "register");
    t_case("family: HF register_tokens, config says 3", "hf_dinov2_registers", NULL, NULL, "\"num_register_tokens\": 4", "\"num_register_tokens\": 3", 0, 0,
           VIT_ERROR_SHAPE_MISMATCH, "register");
    // activations, norms
    t_case("family: SwiGLU fc1 of odd width", "timm_swiglu_dinov2", "\"blocks.0.mlp.fc1.weight\":{\"dtype\":\"F32\",\"shape\":[64,16]",
           "\"blocks.0.mlp.fc1.weight\":{\"dtype\":\"F32\",\"shape\":[16,64]", NULL, NULL, 0, 0, VIT_ERROR_SHAPE_MISMATCH, "fc1");
    t_case("family: act_layer gelu on a SwiGLU architecture", "timm_swiglu_dinov2", NULL, NULL, "\"depth\": 2,", "\"depth\": 2, \"act_layer\": \"gelu\",", 0, 0,
           VIT_ERROR_SHAPE_MISMATCH, "fc2");
    t_case("family: act_layer relu", "timm_clip_quickgelu", NULL, NULL, "\"depth\": 2,", "\"depth\": 2, \"act_layer\": \"relu\",", 0, 0, VIT_ERROR_UNSUPPORTED,
           "act_layer 'relu'");
    t_case("family: unknown timm architecture", "timm_clip_quickgelu", NULL, NULL, "vit_base_patch32_clip_quickgelu_224", "vit_base_patch32_clip_quickgelu_999", 0, 0,
           VIT_ERROR_UNSUPPORTED, "vit_base_patch32_clip_quickgelu_999");
    t_case("family: timm architecture with RmsNorm", "timm_clip_quickgelu", NULL, NULL, "vit_base_patch32_clip_quickgelu_224", "aimv2_large_patch14_224", 0, 0,
           VIT_ERROR_UNSUPPORTED, "RmsNorm");
    t_case("family: model_args block_fn", "timm_clip_quickgelu", NULL, NULL, "\"depth\": 2,", "\"depth\": 2, \"block_fn\": \"ParallelScalingBlock\",", 0, 0,
           VIT_ERROR_UNSUPPORTED, "block_fn");
    t_case("family: model_args dynamic_img_pad", "timm_clip_quickgelu", NULL, NULL, "\"depth\": 2,", "\"depth\": 2, \"dynamic_img_pad\": true,", 0, 0,
           VIT_ERROR_UNSUPPORTED, "dynamic_img_pad");
    t_case("family: norm_pre.bias missing", "timm_clip_quickgelu", "\"norm_pre.bias\"", "\"norm_pre.biaz\"", NULL, NULL, 0, 0, VIT_ERROR_MISSING_TENSOR,
           "norm_pre.bias");
    t_case("family: q_norm of 2 x 4", "timm_qknorm", "\"blocks.0.attn.q_norm.weight\":{\"dtype\":\"F32\",\"shape\":[8]",
           "\"blocks.0.attn.q_norm.weight\":{\"dtype\":\"F32\",\"shape\":[2,4]", NULL, NULL, 0, 0, VIT_ERROR_SHAPE_MISMATCH, "q_norm");
    t_case("family: qk_norm false, q_norm present", "timm_qknorm", NULL, NULL, "\"qk_norm\": true", "\"qk_norm\": false", 0, 0, VIT_ERROR_UNSUPPORTED, "qk_norm");
    t_case("family: HF hidden_act relu", "hf_clip_vision_proj", NULL, NULL, "\"quick_gelu\"", "\"relu\"", 0, 0, VIT_ERROR_UNSUPPORTED, "hidden_act 'relu'");
    t_case("family: HF layer_norm_eps a string", "hf_clip_vision_proj", NULL, NULL, "\"layer_norm_eps\": 1e-05", "\"layer_norm_eps\": \"1e-5\"", 0, 0,
           VIT_ERROR_BAD_FORMAT, "layer_norm_eps");
    t_case("family: HF model_type bert", "hf_clip_vision_proj", NULL, NULL, "\"clip_vision_model\"", "\"bert\"", 0, 0, VIT_ERROR_UNSUPPORTED, "bert");
    t_case("family: HF use_swiglu_ffn false, weights_in present", "hf_dinov2_swiglu", NULL, NULL, "\"use_swiglu_ffn\": true", "\"use_swiglu_ffn\": false", 0, 0,
           VIT_ERROR_SHAPE_MISMATCH, "use_swiglu_ffn");
    // pooling and heads
    t_case("family: attn_pool.kv transposed", "timm_siglip_map", "\"attn_pool.kv.weight\":{\"dtype\":\"F32\",\"shape\":[32,16]",
           "\"attn_pool.kv.weight\":{\"dtype\":\"F32\",\"shape\":[16,32]", NULL, NULL, 0, 0, VIT_ERROR_SHAPE_MISMATCH, "attn_pool.kv.weight");
    t_case("family: attn_pool.latent renamed", "timm_siglip_map", "\"attn_pool.latent\"", "\"attn_pool.latenz\"", NULL, NULL, 0, 0, VIT_ERROR_MISSING_TENSOR,
           "attention pooling");
    t_case("family: global_pool avg with attn_pool tensors", "timm_siglip_map", NULL, NULL, "\"global_pool\": \"map\"", "\"global_pool\": \"avg\"", 0, 0,
           VIT_ERROR_UNSUPPORTED, "attention-pooling");
    t_case("family: global_pool avgmax", "timm_siglip_map", NULL, NULL, "\"global_pool\": \"map\"", "\"global_pool\": \"avgmax\"", 0, 0, VIT_ERROR_UNSUPPORTED,
           "global_pool");
    t_case("family: SigLIP in_proj transposed", "hf_siglip_vision", "\"head.attention.in_proj_weight\":{\"dtype\":\"F32\",\"shape\":[48,16]",
           "\"head.attention.in_proj_weight\":{\"dtype\":\"F32\",\"shape\":[16,48]", NULL, NULL, 0, 0, VIT_ERROR_SHAPE_MISMATCH, "in_proj_weight");
    t_case("family: SigLIP vision_use_head false", "hf_siglip_vision", NULL, NULL, "\"vision_use_head\": true", "\"vision_use_head\": false", 0, 0,
           VIT_ERROR_UNSUPPORTED, "vision_use_head");
    t_case("family: CLIP visual_projection transposed", "hf_clip_vision_proj", "\"visual_projection.weight\":{\"dtype\":\"F32\",\"shape\":[16,24]",
           "\"visual_projection.weight\":{\"dtype\":\"F32\",\"shape\":[24,16]", NULL, NULL, 0, 0, VIT_ERROR_SHAPE_MISMATCH, "visual_projection.weight");
    // full CLIP / SigLIP files: the text tower is loaded too, so every tensor is read
    t_case("family: CLIP file without logit_scale", "hf_clip_full", "\"logit_scale\"", "\"vision_model.extra\"", NULL, NULL, 0, 0, VIT_ERROR_MISSING_TENSOR,
           "'logit_scale' not found");
    t_case("family: CLIP text tower without token embedding: its tensors refused", "hf_clip_full", "\"text_model.embeddings.token_embedding.weight\"",
           "\"text_model.embeddings.token_embedding.weighs\"", NULL, NULL, 0, 0, VIT_ERROR_UNSUPPORTED, "is not used");
    t_case("family: CLIP text_projection transposed", "hf_clip_full", "\"text_projection.weight\":{\"dtype\":\"F32\",\"shape\":[20,16]",
           "\"text_projection.weight\":{\"dtype\":\"F32\",\"shape\":[16,20]", NULL, NULL, 0, 0, VIT_ERROR_SHAPE_MISMATCH, "text_projection.weight");
    t_case("family: CLIP text_projection missing", "hf_clip_full", "\"text_projection.weight\"", "\"text_projection.weighs\"", NULL, NULL, 0, 0,
           VIT_ERROR_MISSING_TENSOR, "'text_projection.weight' not found");
    t_case("family: CLIP logit_scale of shape [1] loads", "hf_clip_full", "\"logit_scale\":{\"dtype\":\"F32\",\"shape\":[]",
           "\"logit_scale\":{\"dtype\":\"F32\",\"shape\":[1]", NULL, NULL, 0, 0, VIT_OK, NULL);
    t_case("family: CLIP logit_scale I32", "hf_clip_full", "\"logit_scale\":{\"dtype\":\"F32\"", "\"logit_scale\":{\"dtype\":\"I32\"", NULL, NULL, 0, 0,
           VIT_ERROR_UNSUPPORTED, "dtype I32");
    t_case("family: CLIP text block renumbered", "hf_clip_full", "\"text_model.encoder.layers.0.layer_norm1.weight\"",
           "\"text_model.encoder.layers.1.layer_norm1.weight\"", NULL, NULL, 0, 0, VIT_ERROR_MISSING_TENSOR, "no text blocks");
    t_case("family: SigLIP file without logit_bias", "hf_siglip_full", "\"logit_bias\"", "\"logit_biaz\"", NULL, NULL, 0, 0, VIT_ERROR_MISSING_TENSOR,
           "'logit_bias' not found");
    t_case("family: SigLIP logit_scale of shape [2]", "hf_siglip_full", "\"logit_scale\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[4,8]",
           "\"logit_scale\":{\"dtype\":\"F16\",\"shape\":[2],\"data_offsets\":[4,8]", NULL, NULL, 0, 0, VIT_ERROR_SHAPE_MISMATCH, "expected a scalar");
    t_case("family: SigLIP text head transposed width", "hf_siglip_full", "\"text_model.head.weight\":{\"dtype\":\"F32\",\"shape\":[16,16]",
           "\"text_model.head.weight\":{\"dtype\":\"F32\",\"shape\":[8,32]", NULL, NULL, 0, 0, VIT_ERROR_SHAPE_MISMATCH, "text_model.head.weight");
    t_case("family: SigLIP text_config hidden_act", "hf_siglip_full", NULL, NULL, "\"hidden_act\": \"gelu_pytorch_tanh\",\n    \"hidden_size\": 16,\n    \"intermediate_size\": 32,\n    \"layer_norm_eps\": 1e-06,\n    \"max_position_embeddings\"",
           "\"hidden_act\": \"silu\",\n    \"hidden_size\": 16,\n    \"intermediate_size\": 32,\n    \"layer_norm_eps\": 1e-06,\n    \"max_position_embeddings\"", 0, 0,
           VIT_ERROR_UNSUPPORTED, "text_config hidden_act 'silu'");
    // resolution
    t_case("family: size 30 x 28 (not a multiple of the patch)", "hf_clip_vision_proj", NULL, NULL, NULL, NULL, 30, 28, VIT_ERROR_UNSUPPORTED, "multiple of the patch");
    t_case("family: size 16 x 32 loads", "timm_reg4_dinov2", NULL, NULL, NULL, NULL, 16, 32, VIT_OK, NULL);
    t_case("family: size over VIT_MAX_TOKENS", "timm_reg4_dinov2", NULL, NULL, NULL, NULL, 4096, 4096, VIT_ERROR_LIMIT, "VIT_MAX_TOKENS");
    t_case("family: negative image_height", "timm_reg4_dinov2", NULL, NULL, NULL, NULL, -28, 28, VIT_ERROR_INVALID_ARGUMENT, "image_height");
    t_case("family: pretrained_cfg interpolation lanczos", "timm_clip_quickgelu", NULL, NULL, "\"interpolation\": \"bicubic\"", "\"interpolation\": \"lanczos\"", 0, 0,
           VIT_ERROR_UNSUPPORTED, "interpolation");
    test_hf_default_size();
}

// ---------------------------------------------------------------------------
// 4. truncation and random corruption of the real file

static void test_truncation(void) {
    size_t header_end = 8 + g_real.hlen, tried = 0, bad = 0;
    char first[1024] = "";
    for (size_t len = 0; len < g_real.size; len++) {
        if (len > header_end + 8) { // then a few dozen spread through the data
            size_t step = (g_real.size - header_end) / 40;
            len = len + step < g_real.size ? len + step : g_real.size - 1;
        }
        unsigned char *p = (unsigned char *)malloc(len ? len : 1);
        memcpy(p, g_real.bytes, len);
        vit_model *m = SENTINEL;
        reset_load_error();
        vit_status st = vit_load_memory(p, len, NULL, &m);
        const char *e = vit_last_error(NULL);
        tried++;
        if (st != VIT_ERROR_BAD_FORMAT || m != NULL || !e[0] || strstr(e, "out is NULL")) {
            if (!bad++) snprintf(first, sizeof(first), "prefix of %zu bytes: %s, out %s, '%s'", len, vit_status_string(st), m ? "set" : "NULL", e);
            if (st == VIT_OK && m != SENTINEL) vit_free(m);
        }
        free(p);
        if (len == g_real.size - 1) break;
    }
    char name[128];
    snprintf(name, sizeof(name), "truncation sweep: %zu prefixes fail with BAD_FORMAT", tried);
    check(bad == 0, name, "%zu bad, first: %s", bad, first);
}

static void test_corruption(void) {
    size_t region = 8 + g_real.hlen, loaded = 0, bad = 0, hist[VIT_STATUS_COUNT] = {0};
    char first[1024] = "";
    unsigned char *p = (unsigned char *)malloc(g_real.size);
    memcpy(p, g_real.bytes, g_real.size);
    g_rng = 12345;
    for (int it = 0; it < 2000; it++) {
        size_t pos[4];
        int nflip = 1 + (int)(rng_next() % 4);
        for (int k = 0; k < nflip; k++) {
            pos[k] = (size_t)(rng_next() % region);
            uint64_t r = rng_next();
            // half bit flips, half bytes from a JSON-ish alphabet (more likely to parse)
            if (r & 1) p[pos[k]] ^= (unsigned char)(1u << ((r >> 1) % 8));
            else p[pos[k]] = (unsigned char)"0123456789,:[]{}\" .-eE\\u\0x"[(r >> 1) % 27];
        }
        vit_model *m = SENTINEL;
        vit_status st = vit_load_memory(p, g_real.size, &g_real_opts, &m);
        char why[600];
        if (!named_status(st) || (st != VIT_OK && (m != NULL || !vit_last_error(NULL)[0]))) {
            if (!bad++) snprintf(first, sizeof(first), "iteration %d: status %d, out %s", it, (int)st, m ? "set" : "NULL");
        } else {
            hist[-st]++;
        }
        if (st == VIT_OK && m && m != SENTINEL) {
            loaded++;
            if (!smoke_forward(m, 0, why, sizeof(why))) // corrupted weights may give non-finite logits
                if (!bad++) snprintf(first, sizeof(first), "iteration %d: loaded, but %s", it, why);
            vit_free(m);
        }
        for (int k = nflip - 1; k >= 0; k--) p[pos[k]] = g_real.bytes[pos[k]];
    }
    free(p);
    char name[512];
    int w = snprintf(name, sizeof(name), "random header corruption: 2000 runs (%zu loaded", loaded);
    for (int k = 1; k < VIT_STATUS_COUNT; k++)
        if (hist[k]) w += snprintf(name + w, sizeof(name) - (size_t)w, ", %zu %s", hist[k], vit_status_string((vit_status)-k));
    snprintf(name + w, sizeof(name) - (size_t)w, ")");
    check(bad == 0, name, "%zu bad, first: %s", bad, first);

    // the same for config.json
    size_t clen = strlen(g_real.config);
    char *c = (char *)malloc(clen);
    memcpy(c, g_real.config, clen);
    vit_options o;
    memset(&o, 0, sizeof(o));
    o.config_json = c;
    o.config_json_size = clen;
    o.num_threads = 1;
    bad = loaded = 0;
    for (int it = 0; it < 1000; it++) {
        size_t pos[4];
        int nflip = 1 + (int)(rng_next() % 4);
        for (int k = 0; k < nflip; k++) {
            pos[k] = (size_t)(rng_next() % clen);
            uint64_t r = rng_next();
            if (r & 1) c[pos[k]] ^= (char)(1u << ((r >> 1) % 8));
            else c[pos[k]] = "0123456789,:[]{}\" .-eE\\utfnl\0x"[(r >> 1) % 31];
        }
        vit_model *m = SENTINEL;
        vit_status st = vit_load_memory(g_real.bytes, g_real.size, &o, &m);
        char why[600];
        if (!named_status(st) || (st != VIT_OK && (m != NULL || !vit_last_error(NULL)[0]))) {
            if (!bad++) snprintf(first, sizeof(first), "iteration %d: status %d, out %s", it, (int)st, m ? "set" : "NULL");
        }
        if (st == VIT_OK && m && m != SENTINEL) {
            loaded++;
            if (!smoke_forward(m, 0, why, sizeof(why)))
                if (!bad++) snprintf(first, sizeof(first), "iteration %d: loaded, but %s", it, why);
            vit_free(m);
        }
        for (int k = nflip - 1; k >= 0; k--) c[pos[k]] = g_real.config[pos[k]];
    }
    free(c);
    snprintf(name, sizeof(name), "random config.json corruption: 1000 runs (%zu loaded)", loaded);
    check(bad == 0, name, "%zu bad, first: %s", bad, first);
}

// ---------------------------------------------------------------------------
// 5. vit_load, options

static void *stub_alloc(size_t n, void *u) { (void)u; return malloc(n); }
static void stub_free(void *p, void *u) { (void)u; free(p); }

static char g_dir[1024], g_model_path[1100], g_nohead_dir[1100], g_hf_dir[1100];


// ---------------------------------------------------------------------------
// model folders and sharded models (model.safetensors.index.json)


// Logits (or the embedding) of a fixed input; NULL when the load fails (status in *st).
static float *fixed_output(const char *path, vit_status *st, size_t *n_out) {
    vit_model *m = NULL;
    vit_options o;
    memset(&o, 0, sizeof(o));
    o.num_threads = 1;
    o.device = VIT_DEVICE_CPU;
    if ((*st = vit_load(path, &o, &m)) != VIT_OK) return NULL;
    const vit_config *c = vit_model_config(m);
    size_t px = (size_t)c->in_chans * c->image_height * c->image_width, k = c->num_classes ? (size_t)c->num_classes : (size_t)c->dim;
    float *img = (float *)malloc(px * sizeof(float)), *out = (float *)malloc(k * sizeof(float));
    for (size_t i = 0; i < px; i++) img[i] = (float)((i * 37) % 101) / 50.0f - 1.0f;
    *st = c->num_classes ? vit_forward(m, img, 1, out) : vit_embed(m, img, 1, out);
    free(img);
    vit_free(m);
    if (*st != VIT_OK) { free(out); return NULL; }
    *n_out = k;
    return out;
}

// The output through `path` is bit-identical to the one through `ref`.
static void t_same_output(const char *name, const char *path, const char *ref) {
    vit_status s1, s2;
    size_t n1 = 0, n2 = 0;
    float *a = fixed_output(ref, &s1, &n1), *b = fixed_output(path, &s2, &n2);
    check(a && b && n1 == n2 && !memcmp(a, b, n1 * sizeof(float)), name, "%s / %s: %s", vit_status_string(s1), vit_status_string(s2),
          a && b ? "outputs differ" : vit_last_error(NULL));
    free(a);
    free(b);
}

// The tensor table of a safetensors file, through the loader's own parser.
typedef struct st_table {
    vit__loader L;
    char err[VIT__ERR_LEN];
    vit_allocator alloc;
} st_table;

static int st_table_read(st_table *t, const unsigned char *bytes, size_t size) {
    memset(t, 0, sizeof(*t));
    t->alloc = vit_query_defaults(NULL).allocator;
    t->L.alloc = &t->alloc;
    t->L.err = t->err;
    if (vit__st_parse(&t->L, bytes, size, 0) != VIT_OK) return 0;
    // file order, as a writer lays them out
    for (int i = 1; i < t->L.count; i++)
        for (int j = i; j > 0 && t->L.tensors[j - 1].begin > t->L.tensors[j].begin; j--) {
            vit__tensor x = t->L.tensors[j]; t->L.tensors[j] = t->L.tensors[j - 1]; t->L.tensors[j - 1] = x;
        }
    return 1;
}

// Writes tensors pick[0..n) of t as one safetensors file, the way the
// safetensors library writes one: {"__metadata__":{"format":"pt"}, ...}, the
// header padded with spaces to a multiple of 8.
static int write_shard(const char *path, const st_table *t, const int *pick, int n) {
    sbuf h = {NULL, 0, 0}, body = {NULL, 0, 0};
    sb_printf(&h, "{\"__metadata__\":{\"format\":\"pt\"}");
    for (int i = 0; i < n; i++) {
        const vit__tensor *x = &t->L.tensors[pick[i]];
        sb_printf(&h, ",\"%s\":{\"dtype\":\"%s\",\"shape\":[", x->name, x->dtype_name);
        for (int d = 0; d < x->ndim; d++) sb_printf(&h, d ? ",%llu" : "%llu", (unsigned long long)x->shape[d]);
        sb_printf(&h, "],\"data_offsets\":[%zu,%zu]}", body.n, body.n + (x->end - x->begin));
        sb_put(&body, x->data, x->end - x->begin);
    }
    sb_printf(&h, "}");
    while (h.n % 8) sb_put(&h, " ", 1);
    unsigned char len[8];
    put_u64(len, (uint64_t)h.n);
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(len, 1, 8, f) == 8 && fwrite(h.p, 1, h.n, f) == h.n && (!body.n || fwrite(body.p, 1, body.n, f) == body.n);
    if (f && fclose(f) != 0) ok = 0;
    free(h.p);
    free(body.p);
    return ok;
}

static int name_cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

// Index text as transformers' save_pretrained writes it (json.dumps(indent=2,
// sort_keys=True)): metadata.total_size, then weight_map in name order.
// extra: one more "name": "file" entry (or NULL); rename: tensor i's file is rename_to.
static char *index_text(const st_table *t, const int *shard_of, int nshards, const char *extra, int rename, const char *rename_to) {
    sbuf s = {NULL, 0, 0};
    size_t total = 0;
    const char **names = (const char **)malloc((size_t)t->L.count * sizeof(char *));
    for (int i = 0; i < t->L.count; i++) { total += t->L.tensors[i].end - t->L.tensors[i].begin; names[i] = t->L.tensors[i].name; }
    qsort(names, (size_t)t->L.count, sizeof(char *), name_cmp);
    sb_printf(&s, "{\n  \"metadata\": {\n    \"total_size\": %zu\n  },\n  \"weight_map\": {\n", total);
    if (extra) sb_printf(&s, "    %s,\n", extra);
    for (int k = 0; k < t->L.count; k++) {
        int i = 0;
        while (strcmp(t->L.tensors[i].name, names[k])) i++;
        char file[256];
        if (i == rename) snprintf(file, sizeof(file), "%s", rename_to);
        else snprintf(file, sizeof(file), "model-%05d-of-%05d.safetensors", shard_of[i] + 1, nshards);
        sb_printf(&s, "    \"%s\": \"%s\"%s\n", names[k], file, k + 1 < t->L.count ? "," : "");
    }
    sb_printf(&s, "  }\n}\n");
    sb_put(&s, "", 1);
    free(names);
    return s.p;
}

static void t_index(const char *name, const char *dir, const char *text, vit_status want, const char *needle) {
    char path[1400];
    snprintf(path, sizeof(path), "%s/model.safetensors.index.json", dir);
    if (!require(write_bytes(path, text, strlen(text)), name, "cannot write %s", path)) return;
    t_file(name, dir, NULL, want, needle);
}

static void test_folders(void) {
    char ref[1400], path[1400], dir[1024];
    // a folder is the model.safetensors in it, with the JSON files beside it
    t_same_output("folder: DIR loads as DIR/model.safetensors (identical logits)", g_dir, g_model_path);
    snprintf(path, sizeof(path), "%s/", g_dir);
    t_same_output("folder: DIR/ (trailing slash) too", path, g_model_path);
    snprintf(path, sizeof(path), "%s/hf_vit", g_ref_parent);
    snprintf(ref, sizeof(ref), "%s/hf_vit/model.safetensors", g_ref_parent);
    t_same_output("folder: an HF folder (config.json + preprocessor_config.json)", path, ref);
    {
        vit_model *m = NULL;
        vit_status st = vit_load(path, NULL, &m);
        check(st == VIT_OK && vit_model_config(m)->has_labels, "folder: config.json beside it is read (labels)", "%s", vit_status_string(st));
        vit_free(m);
    }
    // written by transformers: tools/make_sharded_reference.py (hf_dinov2, save_pretrained(max_shard_size="10KB"))
    snprintf(path, sizeof(path), "%s/../sharded/hf_dinov2_sharded", g_ref_parent);
    snprintf(ref, sizeof(ref), "%s/hf_dinov2/model.safetensors", g_ref_parent);
    t_same_output("sharded: hf_dinov2 as transformers' save_pretrained(max_shard_size) writes it, 3 shards (identical output)", path, ref);
    if (!test_mkdtemp(dir, sizeof(dir), "vit_test_shards")) { check(0, "folder: a temporary folder", "cannot make one"); return; }
    t_file("folder: empty folder", dir, NULL, VIT_ERROR_IO, "none of model.safetensors, model.safetensors.index.json, open_clip_model.safetensors");

    // a sharded copy of hf_vit, in 3 files, as transformers writes one
    snprintf(ref, sizeof(ref), "%s/hf_vit/model.safetensors", g_ref_parent);
    size_t size = 0;
    unsigned char *bytes = read_all(ref, &size);
    st_table t;
    if (!require(bytes && st_table_read(&t, bytes, size), "sharded: read hf_vit", "%s", t.err)) { free(bytes); test_rmdir(dir); return; }
    int n = t.L.count, *shard_of = (int *)malloc((size_t)n * sizeof(int)), *pick = (int *)malloc((size_t)(n + 1) * sizeof(int));
    size_t total = 0, at = 0;
    for (int i = 0; i < n; i++) total += t.L.tensors[i].end - t.L.tensors[i].begin;
    for (int i = 0; i < n; i++) { // by bytes, in file order, as max_shard_size splits
        shard_of[i] = (int)(at * 3 / total);
        at += t.L.tensors[i].end - t.L.tensors[i].begin;
    }
    int ok = 1;
    for (int s = 0; s < 3; s++) {
        int k = 0;
        for (int i = 0; i < n; i++) if (shard_of[i] == s) pick[k++] = i;
        snprintf(path, sizeof(path), "%s/model-%05d-of-00003.safetensors", dir, s + 1);
        ok = ok && k > 0 && write_shard(path, &t, pick, k);
    }
    const char *json[2] = {"config.json", "preprocessor_config.json"};
    for (int i = 0; i < 2; i++) ok = ok && copy_ref("hf_vit", json[i], dir);
    char *good = index_text(&t, shard_of, 3, NULL, -1, NULL);
    snprintf(path, sizeof(path), "%s/model.safetensors.index.json", dir);
    ok = ok && write_bytes(path, good, strlen(good));
    snprintf(ref, sizeof(ref), "%s/hf_vit/model.safetensors", g_ref_parent);
    if (require(ok, "sharded: write 3 shards", "cannot write into %s", dir)) {
        t_same_output("sharded: DIR with model.safetensors.index.json + 3 shards (identical logits)", dir, ref);
        t_same_output("sharded: the index's path given directly", path, ref);
        char *txt;
        // each wrong index: a named error
        t_index("sharded: index not JSON", dir, "weight_map: model-00001-of-00003.safetensors\n", VIT_ERROR_BAD_FORMAT, "model.safetensors.index.json");
        t_index("sharded: index a JSON list", dir, "[]", VIT_ERROR_BAD_FORMAT, "not a JSON object");
        t_index("sharded: index without weight_map", dir, "{\"metadata\": {}}", VIT_ERROR_BAD_FORMAT, "weight_map");
        t_index("sharded: empty weight_map", dir, "{\"weight_map\": {}}", VIT_ERROR_BAD_FORMAT, "weight_map");
        t_index("sharded: unknown top-level key", dir, "{\"weight_map\": {\"a\": \"x.safetensors\"}, \"shards\": 3}", VIT_ERROR_BAD_FORMAT, "'shards'");
        t_index("sharded: metadata not an object", dir, "{\"metadata\": 3, \"weight_map\": {\"a\": \"x.safetensors\"}}", VIT_ERROR_BAD_FORMAT, "metadata");
        t_index("sharded: shard name not a string", dir, "{\"weight_map\": {\"a\": 1}}", VIT_ERROR_BAD_FORMAT, "plain file name");
        txt = index_text(&t, shard_of, 3, NULL, 0, "../hf_vit/model.safetensors");
        t_index("sharded: '../' in a shard name", dir, txt, VIT_ERROR_BAD_FORMAT, "no '..'"); free(txt);
        txt = index_text(&t, shard_of, 3, NULL, 0, "/etc/passwd.safetensors");
        t_index("sharded: absolute shard path", dir, txt, VIT_ERROR_BAD_FORMAT, "plain file name"); free(txt);
        txt = index_text(&t, shard_of, 3, NULL, 0, "..safetensors");
        t_index("sharded: shard name '..safetensors'", dir, txt, VIT_ERROR_BAD_FORMAT, "plain file name"); free(txt);
        txt = index_text(&t, shard_of, 3, NULL, 0, "model-00001-of-00003.bin");
        t_index("sharded: shard not a .safetensors name", dir, txt, VIT_ERROR_BAD_FORMAT, "ending in .safetensors"); free(txt);
        txt = index_text(&t, shard_of, 3, NULL, 0, "model-00004-of-00003.safetensors");
        t_index("sharded: missing shard file", dir, txt, VIT_ERROR_IO, "model-00004-of-00003.safetensors"); free(txt);
        txt = index_text(&t, shard_of, 3, "\"ghost.weight\": \"model-00002-of-00003.safetensors\"", -1, NULL);
        t_index("sharded: tensor listed but absent", dir, txt, VIT_ERROR_MISSING_TENSOR, "'ghost.weight' in model-00002-of-00003.safetensors"); free(txt);
        txt = index_text(&t, shard_of, 3, NULL, 0, shard_of[0] == 1 ? "model-00003-of-00003.safetensors" : "model-00002-of-00003.safetensors");
        t_index("sharded: tensor listed in the wrong shard", dir, txt, VIT_ERROR_BAD_FORMAT, "puts it in"); free(txt);
        {   // a tensor in a shard the index does not mention for it: listed twice (both "keys" present) or unlisted
            char extra[300];
            snprintf(extra, sizeof(extra), "\"%s\": \"model-%05d-of-00003.safetensors\"", t.L.tensors[0].name, shard_of[0] + 1);
            txt = index_text(&t, shard_of, 3, extra, -1, NULL);
            t_index("sharded: weight_map key repeated", dir, txt, VIT_ERROR_BAD_FORMAT, "twice"); free(txt);
        }
        txt = index_text(&t, shard_of, 3, "\"a\": \"m1.safetensors\", \"b\": \"m2.safetensors\", \"c\": \"m3.safetensors\", \"d\": \"m4.safetensors\"", -1, NULL);
        t_index("sharded: more than VIT_MAX_SHARDS shards", dir, txt, VIT_ERROR_LIMIT, "VIT_MAX_SHARDS"); free(txt);
        t_index("sharded: back to the good index", dir, good, VIT_OK, NULL);
        // a tensor in two shards: shard 3 also holds shard 1's first tensor
        int k = 0;
        for (int i = 0; i < n; i++) if (shard_of[i] == 2) pick[k++] = i;
        pick[k++] = 0;
        snprintf(path, sizeof(path), "%s/model-00003-of-00003.safetensors", dir);
        if (require(write_shard(path, &t, pick, k), "sharded: write", "%s", path)) {
            char needle[200];
            snprintf(needle, sizeof(needle), "'%s' is in two shards", t.L.tensors[0].name);
            t_file("sharded: a tensor in two shards", dir, NULL, VIT_ERROR_BAD_FORMAT, needle);
            write_shard(path, &t, pick, k - 2); // shard 3 without its last tensor, which the index still lists
            t_file("sharded: a listed tensor missing from its shard", dir, NULL, VIT_ERROR_MISSING_TENSOR, "does not hold it");
        }
        // a shard that is not a safetensors file, and one that is truncated
        static const unsigned char png[16] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R'};
        write_bytes(path, png, sizeof(png));
        t_file("sharded: a shard that is a PNG", dir, NULL, VIT_ERROR_BAD_FORMAT, "model-00003-of-00003.safetensors: not a safetensors file (it looks like a PNG image)");
        // a tensor in a shard but not in the index
        k = 0;
        for (int i = 0; i < n; i++) if (shard_of[i] == 2) pick[k++] = i;
        write_shard(path, &t, pick, k);
        t_file("sharded: good again", dir, NULL, VIT_OK, NULL);
        snprintf(path, sizeof(path), "%s/model.safetensors.index.json", dir);
        char *cut = strstr(good, t.L.tensors[n - 1].name);
        if (cut) { // drop the entry of the last tensor from the index
            char *line = cut;
            while (line > good && line[-1] != '\n') line--;
            char *end = strchr(cut, '\n') + 1;
            sbuf s2 = {NULL, 0, 0};
            sb_put(&s2, good, (size_t)(line - good));
            sb_put(&s2, end, strlen(end) + 1);
            if (line[-2] == ',' && !strstr(end, "\": \"model")) s2.p[line - good - 2] = ' '; // it was the last entry: no trailing comma
            write_bytes(path, s2.p, strlen(s2.p));
            t_file("sharded: a tensor in a shard the index does not list", dir, NULL, VIT_ERROR_BAD_FORMAT, "does not list it");
            free(s2.p);
        }
        remove(path);
        for (int s = 0; s < 3; s++) { snprintf(path, sizeof(path), "%s/model-%05d-of-00003.safetensors", dir, s + 1); remove(path); }
    }
    for (int i = 0; i < 2; i++) { snprintf(path, sizeof(path), "%s/%s", dir, json[i]); remove(path); }
    test_rmdir(dir);
    free(good);
    free(shard_of);
    free(pick);
    vit__free(&t.alloc, t.L.tensors);
    free(bytes);
}

// Paths are UTF-8 (on Windows through the wide API): a model folder, its file, an
// image and a sharded index under names outside any one code page, with either
// separator on Windows and a trailing one.
static void test_utf8_paths(void) {
    char tmp[1024], sub[1200], dir[1400], path[1600], ref[1400];
    if (!test_mkdtemp(tmp, sizeof(tmp), "vit_test_utf8")) { check(0, "paths: a temporary folder", "cannot make one"); return; }
    snprintf(sub, sizeof(sub), "%s/\xe6\x97\xa5\xe6\x9c\xac", tmp);                           // 日本
    snprintf(dir, sizeof(dir), "%s/\xd0\xbc\xd0\xbe\xd0\xb4\xd0\xb5\xd0\xbb\xd1\x8c", sub); // модель
    const char *files[3] = {"model.safetensors", "config.json", "preprocessor_config.json"};
    int ok = test_mkdir(sub) == 0 && test_mkdir(dir) == 0;
    for (int i = 0; i < 3; i++) ok = ok && copy_ref("hf_vit", files[i], dir);
    snprintf(ref, sizeof(ref), "%s/hf_vit/model.safetensors", g_ref_parent);
    if (require(ok, "paths: a UTF-8 folder", "cannot write into %s", dir)) {
        t_same_output("paths: a folder named in UTF-8 (\xe6\x97\xa5\xe6\x9c\xac/\xd0\xbc\xd0\xbe\xd0\xb4\xd0\xb5\xd0\xbb\xd1\x8c): identical output", dir, ref);
        snprintf(path, sizeof(path), "%s/", dir);
        t_same_output("paths: the UTF-8 folder with a trailing /", path, ref);
        snprintf(path, sizeof(path), "%s/model.safetensors", dir);
        t_same_output("paths: its model.safetensors (config.json beside it read)", path, ref);
#ifdef _WIN32
        snprintf(path, sizeof(path), "%s\\", dir);
        t_same_output("paths: the UTF-8 folder with a trailing \\ (Windows)", path, ref);
        snprintf(path, sizeof(path), "%s\\model.safetensors", dir);
        for (char *c = path; *c; c++) if (*c == '/') *c = '\\';
        t_same_output("paths: its file with \\ separators only (Windows)", path, ref);
#endif
        // an image by a UTF-8 name: the same preprocessing as from its ASCII name
        vit_model *m = NULL;
        char img_src[1400], img_dst[1600];
        snprintf(img_src, sizeof(img_src), "%s/../../../examples/images/0000_ankle_boot.png", g_ref_parent);
        snprintf(img_dst, sizeof(img_dst), "%s/\xd0\xba\xd0\xbe\xd1\x82.png", sub); // кот.png
        size_t n = 0;
        unsigned char *png = read_all(img_src, &n);
        if (require(png && write_bytes(img_dst, png, n) && vit_load(dir, NULL, &m) == VIT_OK, "paths: a UTF-8 image name", "%s", vit_last_error(NULL))) {
            const vit_config *c = vit_model_config(m);
            size_t px = (size_t)c->in_chans * c->image_height * c->image_width;
            float *a = (float *)calloc(px, sizeof(float)), *b = (float *)calloc(px, sizeof(float));
            vit_status s1 = vit_preprocess_file(m, img_src, a), s2 = vit_preprocess_file(m, img_dst, b);
            check(a && b && s1 == VIT_OK && s2 == VIT_OK && !memcmp(a, b, px * sizeof(float)), "paths: an image named in UTF-8 (\xd0\xba\xd0\xbe\xd1\x82.png): the same input",
                  "%s / %s: %s", vit_status_string(s1), vit_status_string(s2), vit_last_error(m));
            snprintf(path, sizeof(path), "%s/\xd0\xbd\xd0\xb5\xd1\x82.png", sub); // нет.png
            s2 = vit_preprocess_file(m, path, b);
            check(s2 == VIT_ERROR_IO && strstr(vit_last_error(m), "\xd0\xbd\xd0\xb5\xd1\x82.png"), "paths: a missing UTF-8 name: i/o error, named intact",
                  "%s: %s", vit_status_string(s2), vit_last_error(m));
            free(a); free(b);
        }
        vit_free(m);
        free(png);
        test_remove(img_dst);
    }
    for (int i = 0; i < 3; i++) { snprintf(path, sizeof(path), "%s/%s", dir, files[i]); test_remove(path); }
    test_rmdir(dir);
    test_rmdir(sub);
    test_rmdir(tmp);
}

static void test_files_options(void) {
    char path[1200];
    t_file("vit_load: the real file loads", g_model_path, NULL, VIT_OK, NULL);
    snprintf(path, sizeof(path), "%s/does_not_exist.safetensors", g_dir);
    t_file("vit_load: nonexistent path", path, NULL, VIT_ERROR_IO, "does_not_exist");
    t_file("vit_load: a folder loads its model.safetensors", g_dir, NULL, VIT_OK, NULL);
    t_file("vit_load: empty path", "", NULL, VIT_ERROR_IO, "cannot open");
    {
        static char longpath[6000];
        memset(longpath, 'x', sizeof(longpath) - 1);
        longpath[0] = '/';
        t_file("vit_load: 6000-byte path", longpath, NULL, VIT_ERROR_IO, "xxxx");
    }
    t_file("vit_load: NULL path", NULL, NULL, VIT_ERROR_INVALID_ARGUMENT, "path is NULL");
    reset_load_error();
    vit_status st = vit_load(g_model_path, NULL, NULL);
    check(st == VIT_ERROR_INVALID_ARGUMENT && strstr(vit_last_error(NULL), "vit_load: out is NULL"), "vit_load: NULL out",
          "got %s: '%s'", vit_status_string(st), vit_last_error(NULL));

    vit_options o;
    memset(&o, 0, sizeof(o));
    snprintf(path, sizeof(path), "%s/missing_config.json", g_dir);
    o.config_path = path;
    t_file("vit_load: config_path to a missing file", g_model_path, &o, VIT_ERROR_IO, "missing_config.json");
    o.config_path = g_dir;
    t_file("vit_load: config_path to a directory", g_model_path, &o, VIT_ERROR_IO, g_dir);
    o.config_path = "";
    o.num_heads = 3; // 72 wide: no default head count without the config
    t_file("vit_load: config_path \"\" (no config) loads", g_model_path, &o, VIT_OK, NULL);
    snprintf(path, sizeof(path), "%s/model.safetensors", g_dir);
    o.config_path = path; // a file that is not JSON
    t_file("vit_load: config_path to the safetensors file", g_model_path, &o, VIT_ERROR_BAD_FORMAT, "config.json");

    // bad options: both loaders
    static const char *const opt_names[] = {"max_batch -1", "num_threads -1", "num_heads -1", "device_index -1", "device 7", "device -1",
                                            "dtype 9", "num_threads 1025", "allocator with only alloc", "allocator with only free",
                                            "residual_dtype 9"};
    for (int which = 0; which < 11; which++) {
        for (int file = 0; file < 2; file++) {
            memset(&o, 0, sizeof(o));
            o.config_json = g_real.config; // used by vit_load_memory only
            const char *needle = "options";
            switch (which) {
            case 0: o.max_batch = -1; break;
            case 1: o.num_threads = -1; break;
            case 2: o.num_heads = -1; break;
            case 3: o.device_index = -1; break;
            case 4: o.device = (vit_device)7; needle = "device 7"; break;
            case 5: o.device = (vit_device)-1; needle = "device -1"; break;
            case 6: o.dtype = (vit_dtype)9; needle = "dtype 9"; break;
            case 7: o.num_threads = 1025; needle = "1025"; break;
            case 8: o.allocator.alloc = stub_alloc; needle = "allocator"; break;
            case 9: o.allocator.free = stub_free; needle = "allocator"; break;
            case 10: o.residual_dtype = (vit_dtype)9; needle = "residual_dtype 9"; break;
            }
            char name[128];
            snprintf(name, sizeof(name), "%s: option %s", file ? "vit_load" : "vit_load_memory", opt_names[which]);
            if (file) t_file(name, g_model_path, &o, VIT_ERROR_INVALID_ARGUMENT, needle);
            else t_mem(name, g_real.bytes, g_real.size, &o, VIT_ERROR_INVALID_ARGUMENT, needle);
        }
    }
    // a residual stream the library does not keep (fp16, int8, fp8): refused, not rounded otherwise
    for (int d = 0; d < 3; d++) {
        o = g_real_opts;
        o.residual_dtype = d == 0 ? VIT_DTYPE_F16 : d == 1 ? VIT_DTYPE_INT8 : VIT_DTYPE_FP8;
        char name[96];
        snprintf(name, sizeof(name), "vit_load_memory: residual_dtype %d", (int)o.residual_dtype);
        t_mem(name, g_real.bytes, g_real.size, &o, VIT_ERROR_UNSUPPORTED, "residual_dtype");
    }
    o = g_real_opts;
    o.residual_dtype = VIT_DTYPE_BF16;
    o.device = VIT_DEVICE_CPU;
    t_mem("vit_load_memory: residual_dtype bf16 on the CPU loads", g_real.bytes, g_real.size, &o, VIT_OK, NULL);
    o = g_real_opts;
    o.max_batch = VIT_MAX_BATCH + 1;
    t_file("vit_load: max_batch VIT_MAX_BATCH + 1", g_model_path, &o, VIT_ERROR_LIMIT, "VIT_MAX_BATCH");
    t_mem("vit_load_memory: max_batch VIT_MAX_BATCH + 1", g_real.bytes, g_real.size, &o, VIT_ERROR_LIMIT, "VIT_MAX_BATCH");
    o.max_batch = VIT_MAX_BATCH;
    t_mem("vit_load_memory: max_batch VIT_MAX_BATCH loads", g_real.bytes, g_real.size, &o, VIT_OK, NULL);
    o = g_real_opts;
    o.device = VIT_DEVICE_CPU;
    o.num_threads = 1024;
    t_mem("vit_load_memory: num_threads 1024 loads", g_real.bytes, g_real.size, &o, VIT_OK, NULL);
#ifndef VIT__CUDA
    o = g_real_opts;
    o.device = VIT_DEVICE_CUDA;
    t_file("vit_load: device CUDA without CUDA", g_model_path, &o, VIT_ERROR_UNSUPPORTED, "CUDA");
    t_mem("vit_load_memory: device CUDA without CUDA", g_real.bytes, g_real.size, &o, VIT_ERROR_UNSUPPORTED, "CUDA");
#endif
    {
        vit_options d = vit_query_defaults(NULL);
        check(d.max_batch == 8 && d.num_threads >= 1 && d.device == VIT_DEVICE_DEFAULT && d.config_json == NULL, "vit_query_defaults(NULL)",
              "max_batch %d, num_threads %d", d.max_batch, d.num_threads);
        memset(&o, 0, sizeof(o));
        o.max_batch = 3;
        o.config_json = "{}";
        d = vit_query_defaults(&o);
        check(d.max_batch == 3 && d.config_json_size == 2, "vit_query_defaults keeps set fields", "max_batch %d, config_json_size %zu",
              d.max_batch, d.config_json_size);
    }
}

// ---------------------------------------------------------------------------
// 6. vit_forward / vit_embed arguments, the model without a head

static int t_run(const char *name, vit_status st, vit_status want, const vit_model *m, const char *needle) {
    const char *e = vit_last_error(m);
    if (st != want) return check(0, name, "got %s, want %s: '%s'", vit_status_string(st), vit_status_string(want), e);
    if (want != VIT_OK && m && (!e[0] || (needle && !strstr(e, needle))))
        return check(0, name, "message '%s' does not mention '%s'", e, needle ? needle : "");
    return check(1, name, "%s", "");
}

static void test_forward_args(void) {
    vit_model *m = NULL;
    vit_status st = vit_load(g_model_path, NULL, &m);
    if (!check(st == VIT_OK, "forward args: load", "%s: %s", vit_status_string(st), vit_last_error(NULL))) return;
    const vit_config *c = vit_model_config(m);
    size_t pixels = (size_t)c->in_chans * c->image_size * c->image_size;
    float *img = (float *)calloc(4 * pixels, sizeof(float));
    float *out = (float *)calloc(4 * ((size_t)c->num_classes + c->dim), sizeof(float));
    check(vit_last_error(m) != NULL && vit_last_error(m)[0] == 0, "fresh model has an empty vit_last_error", "'%s'", vit_last_error(m));

    t_run("vit_forward: NULL model", vit_forward(NULL, img, 1, out), VIT_ERROR_INVALID_ARGUMENT, NULL, NULL);
    t_run("vit_embed: NULL model", vit_embed(NULL, img, 1, out), VIT_ERROR_INVALID_ARGUMENT, NULL, NULL);
    t_run("vit_forward_async: NULL model", vit_forward_async(NULL, img, 1, out, NULL), VIT_ERROR_INVALID_ARGUMENT, NULL, NULL);
    t_run("vit_embed_async: NULL model", vit_embed_async(NULL, img, 1, out, NULL), VIT_ERROR_INVALID_ARGUMENT, NULL, NULL);
    check(vit_last_error(NULL) != NULL, "vit_last_error(NULL) is never NULL", "%s", "NULL");
    // each message differs from the one before it (function name, n), so none passes on a stale one
    t_run("vit_forward: n = 0", vit_forward(m, img, 0, out), VIT_ERROR_INVALID_ARGUMENT, m, "vit_forward: images and output must be non-NULL and n >= 1 (n = 0)");
    t_run("vit_forward: n = -1", vit_forward(m, img, -1, out), VIT_ERROR_INVALID_ARGUMENT, m, "vit_forward: images and output must be non-NULL and n >= 1 (n = -1)");
    t_run("vit_forward: NULL images", vit_forward(m, NULL, 1, out), VIT_ERROR_INVALID_ARGUMENT, m, "vit_forward: images and output must be non-NULL and n >= 1 (n = 1)");
    t_run("vit_forward: NULL logits", vit_forward(m, img, 2, NULL), VIT_ERROR_INVALID_ARGUMENT, m, "vit_forward: images and output must be non-NULL and n >= 1 (n = 2)");
    t_run("vit_embed: n = 0", vit_embed(m, img, 0, out), VIT_ERROR_INVALID_ARGUMENT, m, "vit_embed: images and output must be non-NULL and n >= 1 (n = 0)");
    t_run("vit_embed: n = -1", vit_embed(m, img, -1, out), VIT_ERROR_INVALID_ARGUMENT, m, "vit_embed: images and output must be non-NULL and n >= 1 (n = -1)");
    t_run("vit_embed: NULL images", vit_embed(m, NULL, 3, out), VIT_ERROR_INVALID_ARGUMENT, m, "vit_embed: images and output must be non-NULL and n >= 1 (n = 3)");
    t_run("vit_embed: NULL features", vit_embed(m, img, 4, NULL), VIT_ERROR_INVALID_ARGUMENT, m, "vit_embed: images and output must be non-NULL and n >= 1 (n = 4)");
    t_run("vit_forward: n = INT_MIN", vit_forward(m, img, INT_MIN, out), VIT_ERROR_INVALID_ARGUMENT, m, "vit_forward");
    t_run("vit_forward_async: CPU model", vit_forward_async(m, img, 1, out, NULL), VIT_ERROR_UNSUPPORTED, m, "vit_forward_async: the model is not on a CUDA device");
    t_run("vit_embed_async: CPU model", vit_embed_async(m, img, 1, out, NULL), VIT_ERROR_UNSUPPORTED, m, "vit_embed_async: the model is not on a CUDA device");
    t_run("vit_forward_async: n = 0", vit_forward_async(m, img, 0, out, NULL), VIT_ERROR_INVALID_ARGUMENT, m, "vit_forward_async: pointers must be non-NULL and n >= 1 (n = 0)");
    t_run("vit_embed_async: NULL output", vit_embed_async(m, img, 1, NULL, NULL), VIT_ERROR_INVALID_ARGUMENT, m, "vit_embed_async: pointers must be non-NULL and n >= 1 (n = 1)");
    t_run("vit_forward works after the failures", vit_forward(m, img, 4, out), VIT_OK, m, NULL);

    // the frame calls: the same bits as vit_preprocess_rgb8 + vit_forward / vit_embed, and their argument checks
    {
        enum { FW = 37, FH = 23, FC = 3, FS = FW * FC + 5, NF = 3 };
        static unsigned char frames[NF * FH * FS];
        for (size_t i = 0; i < sizeof(frames); i++) frames[i] = (unsigned char)(rng_next() >> 56);
        float *pre = (float *)calloc(NF * pixels, sizeof(float)), *want = (float *)calloc(NF * ((size_t)c->num_classes + c->dim), sizeof(float));
        int same = 1;
        for (int i = 0; i < NF; i++) same &= vit_preprocess_rgb8(m, frames + (size_t)i * FH * FS, FW, FH, FS, FC, pre + i * pixels) == VIT_OK;
        same &= vit_forward(m, pre, NF, want) == VIT_OK;
        t_run("vit_forward_rgb8: 3 frames", vit_forward_rgb8(m, frames, NF, FW, FH, FS, FC, out), VIT_OK, m, NULL);
        check(same && !memcmp(out, want, NF * (size_t)c->num_classes * sizeof(float)), "vit_forward_rgb8 = vit_preprocess_rgb8 + vit_forward (bits)", "%s", "differ");
        same &= vit_embed(m, pre, NF, want) == VIT_OK;
        t_run("vit_embed_rgb8: 3 frames", vit_embed_rgb8(m, frames, NF, FW, FH, FS, FC, out), VIT_OK, m, NULL);
        check(same && !memcmp(out, want, NF * (size_t)c->dim * sizeof(float)), "vit_embed_rgb8 = vit_preprocess_rgb8 + vit_embed (bits)", "%s", "differ");
        t_run("vit_forward_rgb8: NULL model", vit_forward_rgb8(NULL, frames, 1, FW, FH, FS, FC, out), VIT_ERROR_INVALID_ARGUMENT, NULL, NULL);
        t_run("vit_forward_rgb8: n = 0", vit_forward_rgb8(m, frames, 0, FW, FH, FS, FC, out), VIT_ERROR_INVALID_ARGUMENT, m, "vit_forward_rgb8: output must be non-NULL and n >= 1 (n = 0)");
        t_run("vit_embed_rgb8: NULL features", vit_embed_rgb8(m, frames, 2, FW, FH, FS, FC, NULL), VIT_ERROR_INVALID_ARGUMENT, m, "vit_embed_rgb8: output must be non-NULL and n >= 1 (n = 2)");
        t_run("vit_forward_rgb8: NULL frames", vit_forward_rgb8(m, NULL, 1, FW, FH, FS, FC, out), VIT_ERROR_INVALID_ARGUMENT, m, "vit_forward_rgb8: bad arguments (37x23, 3 channels");
        t_run("vit_forward_rgb8: 5 channels", vit_forward_rgb8(m, frames, 1, FW, FH, 0, 5, out), VIT_ERROR_INVALID_ARGUMENT, m, "5 channels");
        t_run("vit_forward_rgb8: stride too small", vit_forward_rgb8(m, frames, 1, FW, FH, FW * FC - 1, FC, out), VIT_ERROR_INVALID_ARGUMENT, m, "stride 110");
        t_run("vit_forward_rgb8: width 0", vit_forward_rgb8(m, frames, 1, 0, FH, 0, FC, out), VIT_ERROR_INVALID_ARGUMENT, m, "(0x23");
        t_run("vit_forward_rgb8: too wide", vit_forward_rgb8(m, frames, 1, VIT_MAX_IMAGE_SIDE + 1, 1, 0, 1, out), VIT_ERROR_LIMIT, m, "VIT_MAX_IMAGE_SIDE");
        t_run("vit_forward_rgb8_async: CPU model", vit_forward_rgb8_async(m, frames, 1, FW, FH, FS, FC, out, NULL), VIT_ERROR_UNSUPPORTED, m,
              "vit_forward_rgb8_async: the model is not on a CUDA device");
        t_run("vit_embed_rgb8_async: CPU model", vit_embed_rgb8_async(m, frames, 1, FW, FH, FS, FC, out, NULL), VIT_ERROR_UNSUPPORTED, m,
              "vit_embed_rgb8_async: the model is not on a CUDA device");
        // a preprocessor clone: the same floats, no forward pass
        vit_model *pp = NULL;
        t_run("vit_clone_preprocessor: NULL model", vit_clone_preprocessor(NULL, &pp), VIT_ERROR_INVALID_ARGUMENT, NULL, NULL);
        t_run("vit_clone_preprocessor: NULL out", vit_clone_preprocessor(m, NULL), VIT_ERROR_INVALID_ARGUMENT, NULL, NULL);
        if (check(vit_clone_preprocessor(m, &pp) == VIT_OK && pp, "vit_clone_preprocessor", "%s", vit_last_error(NULL))) {
            float *mine = (float *)calloc(pixels, sizeof(float));
            vit_status ps = vit_preprocess_rgb8(pp, frames, FW, FH, FS, FC, mine);
            check(ps == VIT_OK && !memcmp(mine, pre, pixels * sizeof(float)), "preprocessor clone: vit_preprocess_rgb8 gives the model's floats", "%s", vit_last_error(pp));
            check(vit_model_config(pp)->image_height == c->image_height && vit_model_config(pp)->crop_pct == c->crop_pct, "preprocessor clone: the model's config", "%d", vit_model_config(pp)->image_height);
            t_run("preprocessor clone: vit_forward refused", vit_forward(pp, pre, 1, out), VIT_ERROR_INVALID_ARGUMENT, pp, "vit_forward: this handle only preprocesses");
            t_run("preprocessor clone: vit_embed_rgb8 refused", vit_embed_rgb8(pp, frames, 1, FW, FH, FS, FC, out), VIT_ERROR_INVALID_ARGUMENT, pp, "vit_embed_rgb8: this handle only preprocesses");
            t_run("preprocessor clone: vit_forward_async refused", vit_forward_async(pp, pre, 1, out, NULL), VIT_ERROR_INVALID_ARGUMENT, pp, "only preprocesses");
            t_run("preprocessor clone: the model still works", vit_forward(m, pre, 1, out), VIT_OK, m, NULL);
            free(mine);
            vit_free(pp);
        }
        free(pre);
        free(want);
    }
    vit_free(m);

    // the model with no classifier head: embed works, forward does not
    char path[1200];
    snprintf(path, sizeof(path), "%s/model.safetensors", g_nohead_dir);
    m = NULL;
    st = vit_load(path, NULL, &m);
    if (check(st == VIT_OK, "no head: load timm_noembedclass_nohead", "%s: %s", vit_status_string(st), vit_last_error(NULL))) {
        c = vit_model_config(m);
        check(c->num_classes == 0, "no head: num_classes is 0", "%d", c->num_classes);
        pixels = (size_t)c->in_chans * c->image_size * c->image_size;
        float *img2 = (float *)calloc(2 * pixels, sizeof(float));
        float *feat = (float *)calloc(2 * (size_t)c->dim, sizeof(float));
        t_run("no head: vit_forward", vit_forward(m, img2, 1, feat), VIT_ERROR_INVALID_ARGUMENT, m, "no classifier head");
        t_run("no head: vit_forward_async", vit_forward_async(m, img2, 1, feat, NULL), VIT_ERROR_INVALID_ARGUMENT, m, "no classifier head");
        t_run("no head: vit_embed works", vit_embed(m, img2, 2, feat), VIT_OK, m, NULL);
        unsigned char frame[4 * 4 * 3] = {0};
        t_run("no head: vit_forward_rgb8", vit_forward_rgb8(m, frame, 1, 4, 4, 0, 3, feat), VIT_ERROR_INVALID_ARGUMENT, m, "use vit_embed_rgb8");
        t_run("no head: vit_embed_rgb8 works", vit_embed_rgb8(m, frame, 1, 4, 4, 0, 3, feat), VIT_OK, m, NULL);
        check(!strcmp(vit_label(m, 0), ""), "no head: vit_label(m, 0) is \"\"", "'%s'", vit_label(m, 0));
        free(img2);
        free(feat);
        vit_free(m);
    }
    // ... and its config.json disagreeing with it
    size_t size = 0;
    unsigned char *bytes = read_all(path, &size);
    snprintf(path, sizeof(path), "%s/config.json", g_nohead_dir);
    size_t csize = 0;
    char *cfg = (char *)read_all(path, &csize);
    if (check(bytes && cfg, "no head: read files", "cannot read %s", g_nohead_dir)) {
        int n;
        char *bad = replace(cfg, "\"num_classes\": 0", "\"num_classes\": 5", -1, &n);
        vit_options o;
        memset(&o, 0, sizeof(o));
        o.config_json = bad;
        t_mem("no head: config says 5 classes", bytes, size, &o, VIT_ERROR_MISSING_TENSOR, "5 classes");
        free(bad);
        bad = replace(cfg, "\"no_embed_class\": true", "\"no_embed_class\": false", -1, &n);
        o.config_json = bad;
        t_mem("no head: config says no_embed_class false", bytes, size, &o, VIT_ERROR_SHAPE_MISMATCH, "pos_embed");
        free(bad);
    }
    free(bytes);
    free(cfg);
    free(img);
    free(out);
}

// ---------------------------------------------------------------------------
// 7. allocation failure injection

static int g_oom_dtype = VIT_DTYPE_F32; // the dtype oom_sweep loads in

static vit_status counted_load(const char *path, const unsigned char *bytes, size_t size, const char *config, counting *c, vit_model **m) {
    vit_options o;
    memset(&o, 0, sizeof(o));
    o.dtype = (vit_dtype)g_oom_dtype;
    o.allocator.alloc = count_alloc;
    o.allocator.free = count_free;
    o.allocator.user_data = c;
    o.config_json = config;
    *m = SENTINEL;
    reset_load_error();
    return path ? vit_load(path, &o, m) : vit_load_memory(bytes, size, &o, m);
}

// Fails allocation k for every k a clean load makes: each must give
// OUT_OF_MEMORY, *out NULL and nothing left allocated.
static void oom_sweep(const char *name, const char *path, const unsigned char *bytes, size_t size, const char *config) {
    counting c = {0, 0, 0};
    vit_model *m;
    vit_status st = counted_load(path, bytes, size, config, &c, &m);
    if (!require(st == VIT_OK, name, "clean load: %s: %s", vit_status_string(st), vit_last_error(NULL))) return;
    long total = c.calls;
    // vit_forward must not allocate (through the allocator at least)
    const vit_config *cfg = vit_model_config(m);
    size_t pixels = (size_t)cfg->in_chans * cfg->image_size * cfg->image_size;
    float *img = (float *)calloc(3 * pixels, sizeof(float));
    float *out = (float *)calloc(3 * ((size_t)cfg->num_classes + cfg->dim), sizeof(float));
    if (cfg->num_classes) vit_forward(m, img, 3, out);
    vit_embed(m, img, 3, out);
    long after_forward = c.calls;
    free(img);
    free(out);
    vit_free(m);
    if (!require(c.live == 0 && after_forward == total, name, "clean load: %ld allocations live after vit_free, %ld made by forward",
               c.live, after_forward - total))
        return;
    char first[1024] = "";
    long bad = 0;
    for (long k = 1; k <= total + 1; k++) {
        c.calls = 0;
        c.fail_at = k;
        c.live = 0;
        st = counted_load(path, bytes, size, config, &c, &m);
        const char *e = vit_last_error(NULL);
        if (k <= total && (st != VIT_ERROR_OUT_OF_MEMORY || m != NULL || c.live != 0 || !strstr(e, "out of memory"))) {
            if (!bad++) snprintf(first, sizeof(first), "allocation %ld of %ld failed: got %s, out %s, %ld live, '%s'", k, total,
                                 vit_status_string(st), m == NULL ? "NULL" : "set", c.live, st == VIT_OK ? "" : e);
        }
        if (k == total + 1 && st != VIT_OK) {
            if (!bad++) snprintf(first, sizeof(first), "no failure injected, but %s: %s", vit_status_string(st), e);
        }
        if (st == VIT_OK && m != SENTINEL) {
            vit_free(m);
            if (c.live != 0 && !bad++) snprintf(first, sizeof(first), "allocation %ld: %ld live after vit_free", k, c.live);
        }
    }
    char full[300];
    snprintf(full, sizeof(full), "%s: each of %ld allocations", name, total);
    check(bad == 0, full, "%ld bad, first: %s", bad, first);
}

// Live bytes through an allocator that keeps each block's size before it.
static void *bytes_alloc(size_t n, void *u) {
    size_t *p = (size_t *)malloc(n + 16);
    if (!p) return NULL;
    p[0] = n;
    *(size_t *)u += n;
    return (char *)p + 16;
}
static void bytes_free(void *q, void *u) {
    if (!q) return;
    size_t *p = (size_t *)(void *)((char *)q - 16);
    *(size_t *)u -= p[0];
    free(p);
}

// An int8 model holds its blocks' linear weights once, as int8 (a quarter of
// their fp32 bytes, with a scale and a column sum per output): against the same
// model in fp32 it holds at least half of their fp32 bytes less.
static void test_int8_memory(void) {
    size_t live[2] = {0, 0};
    const vit_config *cfg = NULL;
    vit_model *m[2] = {NULL, NULL};
    for (int i = 0; i < 2; i++) {
        vit_options o;
        memset(&o, 0, sizeof(o));
        o.dtype = i ? VIT_DTYPE_INT8 : VIT_DTYPE_F32;
        o.max_batch = 1;
        o.allocator.alloc = bytes_alloc;
        o.allocator.free = bytes_free;
        o.allocator.user_data = &live[i];
        if (!require(vit_load(g_model_path, &o, &m[i]) == VIT_OK, "int8 memory: load", "%s", vit_last_error(NULL))) {
            vit_free(m[0]);
            return;
        }
        cfg = vit_model_config(m[i]);
    }
    size_t C = (size_t)cfg->dim, M = (size_t)cfg->mlp_dim, linears = (size_t)cfg->depth * (4 * C * C + 2 * C * M) * sizeof(float);
    check(live[1] + linears / 2 <= live[0], "int8 memory: the blocks' fp32 linear weights are not kept",
          "fp32 model %zu bytes, int8 %zu, linears %zu fp32 bytes", live[0], live[1], linears);
    size_t pixels = (size_t)cfg->in_chans * cfg->image_height * cfg->image_width;
    float *img = (float *)malloc(pixels * sizeof(float)), *out = (float *)malloc(2 * C * sizeof(float));
    if (require(img && out, "int8 memory: buffers", "out of memory")) {
        for (size_t k = 0; k < pixels; k++) img[k] = (float)((k * 37) % 101) / 50.0f - 1.0f;
        vit_status s0 = vit_embed(m[0], img, 1, out), s1 = vit_embed(m[1], img, 1, out + C);
        double num = 0, den = 0;
        for (size_t k = 0; k < C; k++) { num += (out[k] - out[C + k]) * (out[k] - out[C + k]); den += out[k] * out[k]; }
        check(s0 == VIT_OK && s1 == VIT_OK && num <= 0.05 * 0.05 * den, "int8 memory: the compacted model still runs (features within 5e-2 of fp32)",
              "%s / %s, rel err %.3g", vit_status_string(s0), vit_status_string(s1), den > 0 ? sqrt(num / den) : -1.0);
    }
    free(img);
    free(out);
    vit_free(m[0]);
    vit_free(m[1]);
    check(live[0] == 0 && live[1] == 0, "int8 memory: nothing live after vit_free", "%zu / %zu bytes", live[0], live[1]);
}

static void test_oom(void) {
    char path[1200];
    oom_sweep("allocation failure: vit_load_memory", NULL, g_real.bytes, g_real.size, "{\"model_args\": {\"num_heads\": 3}}");
    oom_sweep("allocation failure: vit_load_memory + config_json", NULL, g_real.bytes, g_real.size, g_real.config);
    oom_sweep("allocation failure: vit_load", g_model_path, NULL, 0, NULL);
    snprintf(path, sizeof(path), "%s/model.safetensors", g_nohead_dir);
    oom_sweep("allocation failure: vit_load no-head model", path, NULL, 0, NULL);
    snprintf(path, sizeof(path), "%s/model.safetensors", g_hf_dir);
    FILE *f = fopen(path, "rb");
    if (f) { // Hugging Face layout: config.json and preprocessor_config.json beside it
        fclose(f);
        oom_sweep("allocation failure: vit_load hf_vit", path, NULL, 0, NULL);
    }
    snprintf(path, sizeof(path), "%s/../sharded/hf_dinov2_sharded", g_ref_parent); // a folder: the index and 3 shards
    oom_sweep("allocation failure: vit_load a sharded folder", path, NULL, 0, NULL);
    static const char *const two_towers[] = {"openclip_clip", "openclip_siglip"}; // text towers; open_clip_config.json
    for (size_t i = 0; i < sizeof(two_towers) / sizeof(two_towers[0]); i++) {
        char name[200];
        snprintf(path, sizeof(path), "%s/../text/%s", g_ref_parent, two_towers[i]);
        snprintf(name, sizeof(name), "allocation failure: vit_load text/%s", two_towers[i]);
        oom_sweep(name, path, NULL, 0, NULL);
    }
    g_oom_dtype = VIT_DTYPE_INT8; // quantised at load, the fp32 block linears dropped
    oom_sweep("allocation failure: vit_load int8", g_model_path, NULL, 0, NULL);
    g_oom_dtype = VIT_DTYPE_FP8; // the e4m3 reference's scales and sums
    oom_sweep("allocation failure: vit_load fp8", g_model_path, NULL, 0, NULL);
    g_oom_dtype = VIT_DTYPE_F32;
}

// ---------------------------------------------------------------------------
// 8. determinism across threads and batch sizes

#define GUARD 16
#define GUARD_VALUE 12345.678f

static void test_determinism(void) {
    static const int cfgs[][2] = {{1, 1}, {2, 3}, {3, 16}, {2, 1}, {0, 0}}; // {num_threads, max_batch}
    const int n = 5, ncfg = (int)(sizeof(cfgs) / sizeof(cfgs[0]));
    float *ref_logits = NULL, *ref_feat = NULL, *img = NULL;
    size_t nl = 0, nf = 0;
    for (int i = 0; i < ncfg; i++) {
        vit_options o;
        memset(&o, 0, sizeof(o));
        o.num_threads = cfgs[i][0];
        o.max_batch = cfgs[i][1];
        o.device = VIT_DEVICE_CPU;
        o.config_json = g_real.config;
        vit_model *m = NULL;
        char name[128];
        snprintf(name, sizeof(name), "determinism: %d threads, max_batch %d", cfgs[i][0], cfgs[i][1]);
        vit_status st = vit_load_memory(g_real.bytes, g_real.size, &o, &m);
        if (!require(st == VIT_OK, name, "load: %s: %s", vit_status_string(st), vit_last_error(NULL))) continue;
        const vit_config *c = vit_model_config(m);
        if (!img) {
            size_t pixels = (size_t)n * c->in_chans * c->image_size * c->image_size;
            img = (float *)malloc(pixels * sizeof(float));
            g_rng = 777;
            for (size_t k = 0; k < pixels; k++) img[k] = 2.0f * rng_float();
            nl = (size_t)n * c->num_classes;
            nf = (size_t)n * c->dim;
        }
        float *logits = (float *)malloc((nl + GUARD) * sizeof(float)), *feat = (float *)malloc((nf + GUARD) * sizeof(float));
        for (int g = 0; g < GUARD; g++) logits[nl + g] = feat[nf + g] = GUARD_VALUE;
        vit_status s1 = vit_forward(m, img, n, logits), s2 = vit_embed(m, img, n, feat);
        int guard_ok = 1;
        for (int g = 0; g < GUARD; g++) guard_ok &= logits[nl + g] == GUARD_VALUE && feat[nf + g] == GUARD_VALUE;
        if (s1 != VIT_OK || s2 != VIT_OK) check(0, name, "forward %s, embed %s: %s", vit_status_string(s1), vit_status_string(s2), vit_last_error(m));
        else if (!guard_ok) check(0, name, "%s", "wrote past the end of the output");
        else if (!ref_logits) { ref_logits = logits; ref_feat = feat; logits = feat = NULL; check(1, name, "%s", ""); }
        else check(!memcmp(logits, ref_logits, nl * sizeof(float)) && !memcmp(feat, ref_feat, nf * sizeof(float)), name,
                   "logits or features differ from %d threads, max_batch %d", cfgs[0][0], cfgs[0][1]);
        free(logits);
        free(feat);
        vit_free(m);
    }
    free(ref_logits);
    free(ref_feat);
    free(img);
}

// ---------------------------------------------------------------------------
// 9. small API functions

static void test_utils(void) {
    const float nan = NAN;
    float v[6] = {1.0f, 3.0f, 2.0f, 3.0f, nan, -INFINITY};
    int idx[10];
    for (int i = 0; i < 10; i++) idx[i] = -7;
    int r = vit_topk(v, 6, 10, idx);
    check(r == 6 && idx[0] == 1 && idx[1] == 3 && idx[2] == 2 && idx[3] == 0 && idx[4] == 5 && idx[5] == 4 && idx[6] == -7,
          "vit_topk: k > n clamps, ties by index, NaN last", "returned %d: %d %d %d %d %d %d %d", r, idx[0], idx[1], idx[2], idx[3], idx[4], idx[5], idx[6]);
    for (int i = 0; i < 10; i++) idx[i] = -7;
    r = vit_topk(v, 6, 2, idx);
    check(r == 2 && idx[0] == 1 && idx[1] == 3 && idx[2] == -7, "vit_topk: top 2 of a tie", "returned %d: %d %d %d", r, idx[0], idx[1], idx[2]);
    float nans[3] = {nan, nan, nan};
    r = vit_topk(nans, 3, 2, idx);
    check(r == 2 && idx[0] == 0 && idx[1] == 1, "vit_topk: all NaN", "returned %d: %d %d", r, idx[0], idx[1]);
    float nf[3] = {nan, 1.0f, 2.0f};
    r = vit_topk(nf, 3, 1, idx);
    check(r == 1 && idx[0] == 2, "vit_topk: NaN first never ranks", "returned %d: %d", r, idx[0]);
    float infs[3] = {INFINITY, -INFINITY, INFINITY};
    r = vit_topk(infs, 3, 3, idx);
    check(r == 3 && idx[0] == 0 && idx[1] == 2 && idx[2] == 1, "vit_topk: infinities", "returned %d: %d %d %d", r, idx[0], idx[1], idx[2]);
    check(vit_topk(NULL, 6, 2, idx) == 0 && vit_topk(v, 6, 2, NULL) == 0 && vit_topk(v, 0, 2, idx) == 0 && vit_topk(v, -1, 2, idx) == 0 &&
          vit_topk(v, 6, 0, idx) == 0 && vit_topk(v, 6, -3, idx) == 0,
          "vit_topk: bad arguments return 0", "%s", "nonzero");

    float s[3] = {1.0f, 2.0f, 3.0f};
    vit_softmax(s, 3);
    check(fabsf(s[0] + s[1] + s[2] - 1.0f) < 1e-6f && s[0] < s[1] && s[1] < s[2], "vit_softmax: sums to 1", "%g %g %g", s[0], s[1], s[2]);
    float big[2] = {1000.0f, 1001.0f};
    vit_softmax(big, 2);
    check(isfinite(big[0]) && isfinite(big[1]) && fabsf(big[0] + big[1] - 1.0f) < 1e-6f, "vit_softmax: large values do not overflow", "%g %g", big[0], big[1]);
    float ninf[2] = {-INFINITY, 0.0f};
    vit_softmax(ninf, 2);
    check(ninf[0] == 0.0f && ninf[1] == 1.0f, "vit_softmax: -inf gets 0", "%g %g", ninf[0], ninf[1]);
    float one[2] = {-5.0f, 42.0f};
    vit_softmax(one, 1);
    check(one[0] == 1.0f && one[1] == 42.0f, "vit_softmax: n = 1 touches only one value", "%g %g", one[0], one[1]);
    float keep[2] = {3.0f, 4.0f};
    vit_softmax(keep, 0);
    vit_softmax(keep, -2);
    vit_softmax(NULL, 3);
    check(keep[0] == 3.0f && keep[1] == 4.0f, "vit_softmax: bad arguments are a no-op", "%g %g", keep[0], keep[1]);
    float withnan[3] = {1.0f, nan, 2.0f};
    vit_softmax(withnan, 3); // no crash; the result is NaN-tainted
    check(1, "vit_softmax: NaN input does not crash", "%s", "");

    int distinct = 1;
    for (int a = 0; a > -VIT_STATUS_COUNT; a--) {
        const char *sa = vit_status_string((vit_status)a);
        if (!sa || !sa[0] || !strcmp(sa, "unknown status")) distinct = 0;
        for (int b = a - 1; distinct && b > -VIT_STATUS_COUNT; b--)
            if (!strcmp(sa, vit_status_string((vit_status)b))) distinct = 0;
    }
    check(distinct, "vit_status_string: every status has its own name", "%s", "a status is unnamed or shares a name");
    check(!strcmp(vit_status_string((vit_status)1), "unknown status") && !strcmp(vit_status_string((vit_status)-VIT_STATUS_COUNT), "unknown status") &&
          !strcmp(vit_status_string((vit_status)INT_MIN), "unknown status") && !strcmp(vit_status_string(VIT_STATUS_COUNT), "unknown status"),
          "vit_status_string: out of range is \"unknown status\"", "%s", "got something else");

    check(vit_model_config(NULL) == NULL, "vit_model_config(NULL) is NULL", "%s", "not NULL");
    vit_free(NULL);
    check(!strcmp(vit_label(NULL, 0), ""), "vit_label(NULL, 0) is \"\"", "%s", "not empty");
    vit_model *m = NULL;
    if (vit_load_memory(g_real.bytes, g_real.size, &g_real_opts, &m) == VIT_OK) {
        int K = vit_model_config(m)->num_classes;
        check(!strcmp(vit_label(m, 0), "class_0") && !strcmp(vit_label(m, K - 1), "class_9"), "vit_label: generated names", "'%s' '%s'",
              vit_label(m, 0), vit_label(m, K - 1));
        check(!strcmp(vit_label(m, K), "") && !strcmp(vit_label(m, -1), "") && !strcmp(vit_label(m, INT_MAX), "") && !strcmp(vit_label(m, INT_MIN), ""),
              "vit_label: out of range is \"\"", "'%s' '%s'", vit_label(m, K), vit_label(m, -1));
        vit_free(m);
    }
    // labels from config.json, with junk mixed in
    static const struct { const char *insert; int i; const char *want; } lab[] = {
        {"\"label_names\": [\"zero\", 1, \"two\\u00e9\\ud83d\\ude00\", null],", 0, "zero"},
        {"\"label_names\": [\"zero\", 1, \"two\\u00e9\\ud83d\\ude00\", null],", 1, "class_1"},
        {"\"label_names\": [\"zero\", 1, \"two\\u00e9\\ud83d\\ude00\", null],", 2, "two\xc3\xa9\xf0\x9f\x98\x80"},
        {"\"label_names\": [\"zero\", 1, \"two\\u00e9\\ud83d\\ude00\", null],", 9, "class_9"},
        {"\"label_names\": [\"a\",\"b\",\"c\",\"d\",\"e\",\"f\",\"g\",\"h\",\"i\",\"j\",\"k\",\"l\"],", 9, "j"},
        {"\"label_names\": [\"\\ud800x\"],", 0, "\xef\xbf\xbdx"},
        {"\"id2label\": {\"0\": \"zero\", \"99\": \"x\", \"-1\": \"y\", \"abc\": \"z\", \"5\": 5, \"\": \"e\", \"99999999999999999999\": \"w\", \"3\": \"three\"},", 0, "zero"},
        {"\"id2label\": {\"0\": \"zero\", \"99\": \"x\", \"-1\": \"y\", \"abc\": \"z\", \"5\": 5, \"\": \"e\", \"99999999999999999999\": \"w\", \"3\": \"three\"},", 3, "three"},
        {"\"id2label\": {\"0\": \"zero\", \"99\": \"x\", \"-1\": \"y\", \"abc\": \"z\", \"5\": 5, \"\": \"e\", \"99999999999999999999\": \"w\", \"3\": \"three\"},", 5, "class_5"},
        {"\"id2label\": [\"a\"],", 0, "class_0"},
    };
    for (size_t i = 0; i < sizeof(lab) / sizeof(lab[0]); i++) {
        int n;
        char *cfg = replace(g_real.config, "\"num_classes\": 10,", "", 0, &n);
        char *cfg2 = replace(cfg, "\"num_features\"", "", 0, &n);
        free(cfg2);
        free(cfg);
        cfg = replace(g_real.config, "{", "", 0, &n); // drop the first brace, then put it back with the labels
        sbuf b = {NULL, 0, 0};
        sb_put(&b, "{", 1);
        sb_put(&b, lab[i].insert, strlen(lab[i].insert));
        sb_put(&b, cfg, strlen(cfg));
        free(cfg);
        vit_options o;
        memset(&o, 0, sizeof(o));
        o.config_json = b.p;
        m = NULL;
        vit_status st = vit_load_memory(g_real.bytes, g_real.size, &o, &m);
        char name[160];
        snprintf(name, sizeof(name), "vit_label: config labels case %zu, class %d", i, lab[i].i);
        if (require(st == VIT_OK, name, "load: %s: %s", vit_status_string(st), vit_last_error(NULL)))
            check(!strcmp(vit_label(m, lab[i].i), lab[i].want), name, "'%s', want '%s'", vit_label(m, lab[i].i), lab[i].want);
        vit_free(m);
        free(b.p);
    }
}

// ---------------------------------------------------------------------------

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s DIR   (DIR holds model.safetensors and config.json)\n", argv[0]);
        return 2;
    }
    snprintf(g_dir, sizeof(g_dir), "%s", argv[1]);
    size_t dl = strlen(g_dir);
    while (dl > 1 && g_dir[dl - 1] == '/') g_dir[--dl] = 0;
    snprintf(g_model_path, sizeof(g_model_path), "%s/model.safetensors", g_dir);
    {   // siblings of DIR
        char parent[1024];
        snprintf(parent, sizeof(parent), "%s", g_dir);
        char *slash = strrchr(parent, '/');
        if (slash) *slash = 0; else snprintf(parent, sizeof(parent), ".");
        snprintf(g_nohead_dir, sizeof(g_nohead_dir), "%s/timm_noembedclass_nohead", parent);
        snprintf(g_hf_dir, sizeof(g_hf_dir), "%s/hf_vit", parent);
        snprintf(g_ref_parent, sizeof(g_ref_parent), "%s", parent);
    }
    char path[1200];
    size_t csize;
    g_real.bytes = read_all(g_model_path, &g_real.size);
    snprintf(path, sizeof(path), "%s/config.json", g_dir);
    g_real.config = (char *)read_all(path, &csize);
    if (!g_real.bytes || !g_real.config || g_real.size < 8) {
        printf("NOT OK setup: cannot read %s and its config.json\n0 passed, 1 failed\n", g_model_path);
        return 1;
    }
    uint64_t hlen = 0;
    for (int i = 7; i >= 0; i--) hlen = (hlen << 8) | g_real.bytes[i];
    if (hlen > g_real.size - 8) {
        printf("NOT OK setup: %s has a bad header length\n0 passed, 1 failed\n", g_model_path);
        return 1;
    }
    g_real.hlen = (size_t)hlen;
    g_real.header = (char *)malloc(g_real.hlen + 1);
    memcpy(g_real.header, g_real.bytes + 8, g_real.hlen);
    g_real.header[g_real.hlen] = 0;
    g_real.body = g_real.bytes + 8 + g_real.hlen;
    g_real_opts.config_json = g_real.config;
    g_real_opts.num_threads = 1;
    g_real.body_n = g_real.size - 8 - g_real.hlen;

    test_container();
    test_synthetic();
    test_config();
    test_families();
    test_truncation();
    test_corruption();
    test_files_options();
    test_folders();
    test_utf8_paths();
    test_forward_args();
    test_oom();
    test_int8_memory();
    test_determinism();
    test_utils();

    free(g_real.bytes);
    free(g_real.config);
    free(g_real.header);
    return check_summary();
}
