// test_limits: VIT_MAX_IMAGE_SIDE and VIT_MAX_IMAGE_PIXELS at their boundaries.
//
// usage: test_limits [ROOT]   (ROOT = the repository root, default ".")
//
// Built with small limits (side 300, 60000 pixels) so that images at and just
// past them are small. vit.h checks sizes in four places, each tested here at
// its boundary -- the largest size accepted, and the smallest refused:
//   1. vit_preprocess_rgb8: width, height <= VIT_MAX_IMAGE_SIDE and
//      width * height <= VIT_MAX_IMAGE_PIXELS (raw pixels);
//   2. vit_preprocess_rgb8: the resized image (shorter side to
//      floor(S / crop_pct), before the center crop) <= VIT_MAX_IMAGE_PIXELS;
//   3. vit_preprocess_memory, after stb_image read the header: the same side
//      and pixel checks as 1 (PPM: stb's PNM reader has no size limit of its
//      own in stbi_info; PNG/GIF/JPEG within the sides: the pixel count);
//   4. vit_preprocess_memory, when stb refused the header (stb's own limit
//      STBI_MAX_DIMENSIONS = VIT_MAX_IMAGE_SIDE for PNG/GIF/JPEG, or a header
//      stb cannot read): the size the PNG/GIF/JPEG header claims.
// The encoded images are made here: PPM and PNG (stored deflate blocks) with
// real pixels, which must decode to exactly what vit_preprocess_rgb8 makes of
// the same pixels; GIF and JPEG as bare headers (within the limits they fail
// to decode, VIT_ERROR_IMAGE_DECODE, but not with VIT_ERROR_LIMIT).
// Side checks use the squash64 model (squashed to 67 x 67: the resize check
// never fires); the resize check uses gray28 with crop_pct 0.93 given as
// config.json, so the shorter side goes to floor(28 / 0.93) = 30 and
// 2000 x 30 = 60000 is exactly at the limit.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

#define VIT_MAX_IMAGE_SIDE 300
#define VIT_MAX_IMAGE_PIXELS 60000
#define VIT_IMPLEMENTATION
#include "../vit.h"
#include "test_util.h"

// ---------------------------------------------------------------------------
// images made here

typedef struct bytes {
    unsigned char *p;
    size_t n, cap;
} bytes;

static void put(bytes *b, const void *src, size_t n) {
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2 + 64;
        unsigned char *q = (unsigned char *)realloc(b->p, b->cap);
        if (!q) { fprintf(stderr, "test_limits: out of memory\n"); exit(1); }
        b->p = q;
    }
    memcpy(b->p + b->n, src, n);
    b->n += n;
}
static void put8(bytes *b, unsigned v) { unsigned char c = (unsigned char)v; put(b, &c, 1); }
static void put16be(bytes *b, unsigned v) { put8(b, v >> 8); put8(b, v); }
static void put16le(bytes *b, unsigned v) { put8(b, v); put8(b, v >> 8); }
static void put32be(bytes *b, uint32_t v) { put16be(b, v >> 16); put16be(b, v & 0xFFFF); }

// w x h pixels of ch channels, packed; a pattern that survives no resampler unchanged
static unsigned char *pattern(int w, int h, int ch) {
    unsigned char *p = (unsigned char *)malloc((size_t)w * h * ch);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            for (int c = 0; c < ch; c++) p[((size_t)y * w + x) * ch + c] = (unsigned char)((x * 7 + y * 13 + c * 101 + (x * y) / 5) & 255);
    return p;
}

// binary PGM (ch 1) or PPM (ch 3)
static bytes make_pnm(int w, int h, int ch, const unsigned char *px) {
    bytes b = {NULL, 0, 0};
    char head[64];
    int n = snprintf(head, sizeof(head), "P%c\n%d %d\n255\n", ch == 1 ? '5' : '6', w, h);
    put(&b, head, (size_t)n);
    if (px) put(&b, px, (size_t)w * h * ch);
    return b;
}

static uint32_t crc32_update(uint32_t crc, const unsigned char *p, size_t n) {
    crc = ~crc;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1)));
    }
    return ~crc;
}

static void png_chunk(bytes *b, const char *type, const unsigned char *data, size_t n) {
    put32be(b, (uint32_t)n);
    size_t start = b->n;
    put(b, type, 4);
    if (n) put(b, data, n);
    put32be(b, crc32_update(0, b->p + start, 4 + n));
}

// PNG, 8-bit gray (ch 1) or RGB (ch 3), filter 0, zlib stored blocks. depth: the
// IHDR bit depth (8; anything else makes a header stb refuses). px NULL: IHDR only.
static bytes make_png(int w, int h, int ch, const unsigned char *px, int depth) {
    bytes b = {NULL, 0, 0}, ihdr = {NULL, 0, 0}, z = {NULL, 0, 0}, raw = {NULL, 0, 0};
    put(&b, "\x89PNG\r\n\x1a\n", 8);
    put32be(&ihdr, (uint32_t)w);
    put32be(&ihdr, (uint32_t)h);
    put8(&ihdr, (unsigned)depth);
    put8(&ihdr, ch == 1 ? 0 : 2);
    put8(&ihdr, 0); put8(&ihdr, 0); put8(&ihdr, 0);
    png_chunk(&b, "IHDR", ihdr.p, ihdr.n);
    if (px) {
        for (int y = 0; y < h; y++) { put8(&raw, 0); put(&raw, px + (size_t)y * w * ch, (size_t)w * ch); }
        put8(&z, 0x78); put8(&z, 0x01);
        for (size_t off = 0; off < raw.n; off += 65535) { // stored blocks of at most 65535 bytes
            size_t len = raw.n - off > 65535 ? 65535 : raw.n - off;
            put8(&z, off + len == raw.n); // BFINAL on the last, BTYPE 00
            put16le(&z, (unsigned)len);
            put16le(&z, (unsigned)(~len & 0xFFFF));
            put(&z, raw.p + off, len);
        }
        uint32_t a = 1, s = 0;
        for (size_t i = 0; i < raw.n; i++) { a = (a + raw.p[i]) % 65521; s = (s + a) % 65521; }
        put32be(&z, s << 16 | a);
        png_chunk(&b, "IDAT", z.p, z.n);
        png_chunk(&b, "IEND", NULL, 0);
    }
    free(ihdr.p); free(z.p); free(raw.p);
    return b;
}

// a GIF header and logical screen descriptor, no image data
static bytes make_gif_header(int w, int h) {
    bytes b = {NULL, 0, 0};
    put(&b, "GIF89a", 6);
    put16le(&b, (unsigned)w);
    put16le(&b, (unsigned)h);
    put8(&b, 0); put8(&b, 0); put8(&b, 0);
    return b;
}

// SOI + a baseline SOF0 for one 8-bit component, no tables or scan
static bytes make_jpeg_header(int w, int h) {
    bytes b = {NULL, 0, 0};
    put16be(&b, 0xFFD8);
    put16be(&b, 0xFFC0);
    put16be(&b, 11);
    put8(&b, 8);
    put16be(&b, (unsigned)h);
    put16be(&b, (unsigned)w);
    put8(&b, 1);
    put8(&b, 1); put8(&b, 0x11); put8(&b, 0);
    return b;
}

// ---------------------------------------------------------------------------
// checks

static float *g_out, *g_ref;
static size_t g_out_n;

// want VIT_ERROR_LIMIT: the message must carry the configured limits (needle)
static void expect_rgb8(vit_model *m, const char *what, int w, int h, int ch, vit_status want, const char *needle) {
    unsigned char *px = pattern(w, h, ch);
    vit_status st = vit_preprocess_rgb8(m, px, w, h, 0, ch, g_out);
    const char *e = st == VIT_OK ? "" : vit_last_error(m);
    char name[256];
    fmt(name, sizeof(name), "rgb8 %dx%d x%d (%s) -> %s", w, h, ch, what, vit_status_string(want));
    check(st == want && (!needle || strstr(e, needle)), name, "got %s%s%s", vit_status_string(st), e[0] ? ": " : "", e);
    free(px);
}

// decodes bytes; want VIT_OK and px: the output must equal vit_preprocess_rgb8 of px
static void expect_memory(vit_model *m, const char *what, bytes b, int w, int h, int ch, const unsigned char *px, vit_status want,
                          const char *needle) {
    vit_status st = vit_preprocess_memory(m, b.p, b.n, g_out);
    char e[VIT__ERR_LEN];
    fmt(e, sizeof(e), "%s", st == VIT_OK ? "" : vit_last_error(m));
    int same = 1;
    if (st == VIT_OK && px) {
        vit_status rs = vit_preprocess_rgb8(m, px, w, h, 0, ch, g_ref);
        same = rs == VIT_OK && !memcmp(g_out, g_ref, g_out_n * sizeof(float));
    }
    char name[256];
    fmt(name, sizeof(name), "memory: %s -> %s", what, vit_status_string(want));
    check(st == want && same && (!needle || strstr(e, needle)), name, "got %s%s%s%s", vit_status_string(st), e[0] ? ": " : "", e,
          st == VIT_OK && px ? (same ? " (identical to vit_preprocess_rgb8 of the pixels)" : " (DIFFERS from vit_preprocess_rgb8 of the pixels)") : "");
    free(b.p);
}

#define SIDE_MSG "VIT_MAX_IMAGE_SIDE (300) or VIT_MAX_IMAGE_PIXELS (60000)"
#define RESIZE_MSG "more than VIT_MAX_IMAGE_PIXELS (60000)"

static void test_sides(vit_model *m) {
    // 1. raw pixels: sides and pixel count
    expect_rgb8(m, "both sides and the pixel count exactly at the limits", 300, 200, 3, VIT_OK, NULL);
    expect_rgb8(m, "pixel count exactly at the limit", 250, 240, 3, VIT_OK, NULL);
    expect_rgb8(m, "width at the side limit", 300, 1, 3, VIT_OK, NULL);
    expect_rgb8(m, "height at the side limit", 1, 300, 1, VIT_OK, NULL);
    expect_rgb8(m, "width one over the side limit", 301, 1, 3, VIT_ERROR_LIMIT, SIDE_MSG);
    expect_rgb8(m, "height one over the side limit", 1, 301, 4, VIT_ERROR_LIMIT, SIDE_MSG);
    expect_rgb8(m, "width one over, pixels within", 301, 199, 3, VIT_ERROR_LIMIT, SIDE_MSG);
    // 219 x 274 = 60006 is the smallest product over 60000 with both sides <= 300
    expect_rgb8(m, "6 pixels over the pixel limit, sides within", 219, 274, 3, VIT_ERROR_LIMIT, SIDE_MSG);
    expect_rgb8(m, "6 pixels over the pixel limit, sides within", 274, 219, 1, VIT_ERROR_LIMIT, SIDE_MSG);

    // 3. PPM: stbi_info reads any size; vit.h's checks after it
    unsigned char *a = pattern(300, 200, 3), *g = pattern(250, 240, 1), *s = pattern(300, 1, 3), *t = pattern(1, 300, 1);
    expect_memory(m, "PPM 300x200 (at both limits)", make_pnm(300, 200, 3, a), 300, 200, 3, a, VIT_OK, NULL);
    expect_memory(m, "PGM 250x240 (at the pixel limit)", make_pnm(250, 240, 1, g), 250, 240, 1, g, VIT_OK, NULL);
    expect_memory(m, "PPM 300x1 (at the side limit)", make_pnm(300, 1, 3, s), 300, 1, 3, s, VIT_OK, NULL);
    expect_memory(m, "PGM 1x300 (at the side limit)", make_pnm(1, 300, 1, t), 1, 300, 1, t, VIT_OK, NULL);
    unsigned char *big = pattern(301, 301, 3);
    expect_memory(m, "PPM 301x1 (one over the side limit)", make_pnm(301, 1, 3, big), 301, 1, 3, NULL, VIT_ERROR_LIMIT, SIDE_MSG);
    expect_memory(m, "PGM 1x301 (one over the side limit)", make_pnm(1, 301, 1, big), 1, 301, 1, NULL, VIT_ERROR_LIMIT, SIDE_MSG);
    expect_memory(m, "PPM 219x274 (6 over the pixel limit)", make_pnm(219, 274, 3, big), 219, 274, 3, NULL, VIT_ERROR_LIMIT, SIDE_MSG);
    expect_memory(m, "PPM header 219x274, no pixels (refused before decoding)", make_pnm(219, 274, 3, NULL), 219, 274, 3, NULL,
                  VIT_ERROR_LIMIT, SIDE_MSG);
    // (within the limits a cut PNM is refused as PIL refuses it: vit.h decodes PNM itself)
    expect_memory(m, "PPM header 300x200, no pixels (within the limits: refused as truncated)", make_pnm(300, 200, 3, NULL), 300, 200, 3, NULL,
                  VIT_ERROR_IMAGE_DECODE, "truncated");

    // PNG: stb's own STBI_MAX_DIMENSIONS (= VIT_MAX_IMAGE_SIDE) refuses the header; 4. names the limit
    expect_memory(m, "PNG 300x200 RGB (at both limits)", make_png(300, 200, 3, a, 8), 300, 200, 3, a, VIT_OK, NULL);
    expect_memory(m, "PNG 250x240 gray (at the pixel limit)", make_png(250, 240, 1, g, 8), 250, 240, 1, g, VIT_OK, NULL);
    expect_memory(m, "PNG 300x1 RGB (at the side limit)", make_png(300, 1, 3, s, 8), 300, 1, 3, s, VIT_OK, NULL);
    expect_memory(m, "PNG 301x200 (one over the side limit: stb refuses, the claimed size is checked)", make_png(301, 200, 3, big, 8),
                  301, 200, 3, NULL, VIT_ERROR_LIMIT, SIDE_MSG);
    expect_memory(m, "PNG 1x301 (one over the side limit)", make_png(1, 301, 1, big, 8), 1, 301, 1, NULL, VIT_ERROR_LIMIT, SIDE_MSG);
    expect_memory(m, "PNG 219x274 (6 over the pixel limit: stb reads the header, vit.h refuses)", make_png(219, 274, 3, big, 8),
                  219, 274, 3, NULL, VIT_ERROR_LIMIT, SIDE_MSG);
    // a header stb refuses for another reason (bit depth 3): only the claimed size decides LIMIT vs decode error
    expect_memory(m, "PNG IHDR 300x200, bit depth 3 (claimed size within: a decode error)", make_png(300, 200, 3, NULL, 3),
                  300, 200, 3, NULL, VIT_ERROR_IMAGE_DECODE, "cannot decode");
    expect_memory(m, "PNG IHDR 219x274, bit depth 3 (claimed pixels over)", make_png(219, 274, 3, NULL, 3), 219, 274, 3, NULL,
                  VIT_ERROR_LIMIT, SIDE_MSG);
    expect_memory(m, "PNG IHDR 301x1, bit depth 3 (claimed side over)", make_png(301, 1, 3, NULL, 3), 301, 1, 3, NULL,
                  VIT_ERROR_LIMIT, SIDE_MSG);

    // GIF and JPEG headers: within the limits stb reads them and the decode fails for want of data
    expect_memory(m, "GIF header 300x200 (at both limits: a decode error)", make_gif_header(300, 200), 300, 200, 4, NULL,
                  VIT_ERROR_IMAGE_DECODE, "cannot decode");
    expect_memory(m, "GIF header 301x200 (one over the side limit)", make_gif_header(301, 200), 301, 200, 4, NULL, VIT_ERROR_LIMIT, SIDE_MSG);
    expect_memory(m, "GIF header 200x301 (one over the side limit)", make_gif_header(200, 301), 200, 301, 4, NULL, VIT_ERROR_LIMIT, SIDE_MSG);
    expect_memory(m, "GIF header 219x274 (6 over the pixel limit)", make_gif_header(219, 274), 219, 274, 4, NULL, VIT_ERROR_LIMIT, SIDE_MSG);
    expect_memory(m, "JPEG header 300x200 (at both limits: a decode error)", make_jpeg_header(300, 200), 300, 200, 1, NULL,
                  VIT_ERROR_IMAGE_DECODE, "cannot decode");
    expect_memory(m, "JPEG header 301x200 (one over the side limit)", make_jpeg_header(301, 200), 301, 200, 1, NULL, VIT_ERROR_LIMIT, SIDE_MSG);
    expect_memory(m, "JPEG header 200x301 (one over the side limit)", make_jpeg_header(200, 301), 200, 301, 1, NULL, VIT_ERROR_LIMIT, SIDE_MSG);
    expect_memory(m, "JPEG header 274x219 (6 over the pixel limit)", make_jpeg_header(274, 219), 274, 219, 1, NULL, VIT_ERROR_LIMIT, SIDE_MSG);
    free(a); free(g); free(s); free(t); free(big);
}

// 2. the resized image: gray28 with crop_pct 0.93, shorter side to 30
static void test_resize(vit_model *m) {
    const vit_config *c = vit_model_config(m);
    double scale = floor(c->image_size / (double)c->crop_pct);
    if (!check(c->image_size == 28 && c->resize == VIT_RESIZE_SHORTER_CROP && scale == 30.0, "resize model: shorter side to 30",
               "S %d, crop_pct %g: %.0f", c->image_size, (double)c->crop_pct, scale))
        return;
    // 200x3 -> 2000x30 = 60000 (at the limit); the next size up with sides <= 300 is 267x4 -> floor(30*267/4) = 2002: 60060
    expect_rgb8(m, "resized to 2000x30 = 60000, at the limit", 200, 3, 1, VIT_OK, NULL);
    expect_rgb8(m, "resized to 30x2000 = 60000, at the limit", 3, 200, 3, VIT_OK, NULL);
    expect_rgb8(m, "resized to 2002x30 = 60060, over", 267, 4, 1, VIT_ERROR_LIMIT, RESIZE_MSG);
    expect_rgb8(m, "resized to 30x2002 = 60060, over", 4, 267, 3, VIT_ERROR_LIMIT, RESIZE_MSG);
    expect_rgb8(m, "300x1 (within the side limit) resized to 9000x30, over", 300, 1, 1, VIT_ERROR_LIMIT, "resized to 9000x30");
    unsigned char *a = pattern(200, 3, 1), *b = pattern(267, 4, 1);
    expect_memory(m, "PGM 200x3 (resized to 2000x30, at the limit)", make_pnm(200, 3, 1, a), 200, 3, 1, a, VIT_OK, NULL);
    expect_memory(m, "PGM 267x4 (resized to 2002x30, over)", make_pnm(267, 4, 1, b), 267, 4, 1, NULL, VIT_ERROR_LIMIT, RESIZE_MSG);
    expect_memory(m, "PNG 200x3 (resized to 2000x30, at the limit)", make_png(200, 3, 1, a, 8), 200, 3, 1, a, VIT_OK, NULL);
    expect_memory(m, "PNG 267x4 (resized to 2002x30, over)", make_png(267, 4, 1, b, 8), 267, 4, 1, NULL, VIT_ERROR_LIMIT, RESIZE_MSG);
    free(a); free(b);
}

int main(int argc, char **argv) {
    const char *root = argc > 1 ? argv[1] : ".";
    char path[1024];
    check(STBI_MAX_DIMENSIONS == VIT_MAX_IMAGE_SIDE, "stb_image's STBI_MAX_DIMENSIONS follows VIT_MAX_IMAGE_SIDE", "%d", (int)STBI_MAX_DIMENSIONS);

    vit_model *m = NULL;
    fmt(path, sizeof(path), "%s/tests/data/preprocess/squash64/model.safetensors", root);
    vit_status st = vit_load(path, NULL, &m);
    if (check(st == VIT_OK && vit_model_config(m)->resize == VIT_RESIZE_SQUARE, "load squash64", "%s: %s", vit_status_string(st),
              vit_last_error(NULL))) {
        const vit_config *c = vit_model_config(m);
        g_out_n = (size_t)c->in_chans * c->image_size * c->image_size;
        g_out = (float *)malloc(g_out_n * sizeof(float));
        g_ref = (float *)malloc(g_out_n * sizeof(float));
        test_sides(m);
        free(g_out); free(g_ref);
    }
    vit_free(m);

    // gray28 with its config.json's crop_pct 1.0 replaced by 0.93
    size_t wsize = 0, csize = 0;
    fmt(path, sizeof(path), "%s/tests/data/preprocess/gray28/model.safetensors", root);
    unsigned char *w = read_all(path, &wsize);
    fmt(path, sizeof(path), "%s/tests/data/preprocess/gray28/config.json", root);
    char *cfg = (char *)read_all(path, &csize);
    char *at = cfg ? strstr(cfg, "\"crop_pct\": 1.0") : NULL;
    if (check(w && at, "gray28 model and a config.json with \"crop_pct\": 1.0", "%s", path)) {
        memcpy(at, "\"crop_pct\":0.93", 15);
        vit_options o;
        memset(&o, 0, sizeof(o));
        o.config_json = cfg;
        m = NULL;
        st = vit_load_memory(w, wsize, &o, &m);
        if (check(st == VIT_OK, "load gray28 with crop_pct 0.93", "%s: %s", vit_status_string(st), vit_last_error(NULL))) {
            const vit_config *c = vit_model_config(m);
            g_out_n = (size_t)c->in_chans * c->image_size * c->image_size;
            g_out = (float *)malloc(g_out_n * sizeof(float));
            g_ref = (float *)malloc(g_out_n * sizeof(float));
            test_resize(m);
            free(g_out); free(g_ref);
        }
        vit_free(m);
    }
    free(w);
    free(cfg);
    return check_summary();
}
