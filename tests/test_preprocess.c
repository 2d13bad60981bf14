// test_preprocess: vit_preprocess_* against timm's and Hugging Face's own eval transforms.
//
// usage: test_preprocess DIR   (DIR = tests/data/preprocess, written by
//                               tools/make_preprocess_reference.py)
//
// DIR/manifest.txt lists the tiny models (one per preprocessing config) and,
// for every (model, image) pair, a reference: the uint8 (C, S, S) pixels that
// timm's create_transform (Resize + CenterCrop) or Hugging Face's
// ViTImageProcessor produced from DIR/images/<image> before ToTensor/Normalize.
// The model input is exactly (u8 / 255 - mean) / std, recomputed here with the
// manifest's mean/std (not the ones vit.h parsed: those are checked against the
// manifest first). Differences are reported in 8-bit levels, |diff| * std * 255.
// A reference passes when every value is within 2 levels (JPEG: 4 levels and a
// mean of 0.1 level, see TOL_JPEG_LEVELS). PIL decodes the images for the
// references and stb_image decodes them here, so JPEG differs by the decoders'
// IDCT and chroma upsampling; the lossless formats decode identically, so
// against the PIL-made references they must be bit-exact (summary checks).
//
// Also: vit_preprocess_rgb8 with padded strides and 1-4 channels, truncated
// and garbage bytes, a missing file, and headers that claim huge dimensions
// (refused with VIT_ERROR_LIMIT before any large allocation: VIT_MALLOC is
// wrapped to record the largest request).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

static size_t g_largest_alloc; // largest single VIT_MALLOC request since the last reset
static void *test_malloc(size_t size) {
    if (size > g_largest_alloc) g_largest_alloc = size;
    return malloc(size);
}
#define VIT_MALLOC(sz) test_malloc(sz)
#define VIT_FREE(p) free(p)
#define VIT_IMPLEMENTATION
#include "../vit.h"
#include "test_util.h"

// ---------------------------------------------------------------------------
// manifest

#define MAX_CONFIGS 16
#define MAX_REFS 256

typedef struct {
    char name[32], interp[16], crop_mode[16];
    int C, S;
    float mean[3], std[3], crop_pct;
} config;

typedef struct {
    char config[32], image[64], file[96], producer[32];
} ref;

static config g_cfg[MAX_CONFIGS];
static ref g_ref[MAX_REFS];
static int g_ncfg, g_nref;

static int parse_manifest(const char *dir) {
    char path[1024];
    fmt(path, sizeof(path), "%s/manifest.txt", dir);
    FILE *f = fopen(path, "r");
    if (!f) { check(0, "manifest", "cannot open %s", path); return 0; }
    char line[1024];
    int ok = 1;
    while (ok && fgets(line, sizeof(line), f)) {
        if (!strncmp(line, "config ", 7)) {
            config *c = &g_cfg[g_ncfg];
            char *p = line + 7, *end;
            int n = 0;
            ok = g_ncfg < MAX_CONFIGS && sscanf(p, "%31s %d %d%n", c->name, &c->C, &c->S, &n) == 3 && c->C >= 1 && c->C <= 3;
            p += n;
            for (int k = 0; ok && k < 2 * c->C; k++) {
                double v = strtod(p, &end);
                ok = end != p;
                p = end;
                if (k < c->C) c->mean[k] = (float)v; else c->std[k - c->C] = (float)v;
            }
            ok = ok && sscanf(p, "%15s %f %15s", c->interp, &c->crop_pct, c->crop_mode) == 3;
            g_ncfg += ok;
        } else if (!strncmp(line, "ref ", 4)) {
            ref *r = &g_ref[g_nref];
            ok = g_nref < MAX_REFS && sscanf(line + 4, "%31s %63s %95s %31s", r->config, r->image, r->file, r->producer) == 4;
            g_nref += ok;
        }
    }
    fclose(f);
    return check(ok && g_ncfg > 0 && g_nref > 0, "manifest", "%d configs, %d references%s", g_ncfg, g_nref, ok ? "" : " (parse error)");
}

// ---------------------------------------------------------------------------
// reference comparisons

// Per-format tally for the summary: worst difference and how many images were bit-exact.
typedef struct {
    char key[48];
    double max_levels;
    int images, exact;
} tally;

static tally g_tally[64];
static int g_ntally;

static void add_tally(const char *key, double max_levels, int exact) {
    int i = 0;
    while (i < g_ntally && strcmp(g_tally[i].key, key)) i++;
    if (i == g_ntally) {
        if (g_ntally == 64) return;
        fmt(g_tally[g_ntally++].key, sizeof(g_tally[0].key), "%s", key);
    }
    if (max_levels > g_tally[i].max_levels) g_tally[i].max_levels = max_levels;
    g_tally[i].images++;
    g_tally[i].exact += exact;
}

static const char *extension(const char *file) {
    const char *dot = strrchr(file, '.');
    return dot ? dot + 1 : file;
}

#define GUARD 16
#define GUARD_VALUE 12345.0f

static int check_config(const char *dir, const config *c, vit_model **out_model) {
    char name[128], path[1024];
    fmt(name, sizeof(name), "load %s", c->name);
    fmt(path, sizeof(path), "%s/%s/model.safetensors", dir, c->name);
    vit_model *m = NULL;
    vit_status st = vit_load(path, NULL, &m);
    if (!check(st == VIT_OK, name, "%s", st == VIT_OK ? "" : vit_last_error(NULL))) return 0;
    const vit_config *mc = vit_model_config(m);
    int ok = mc->image_size == c->S && mc->in_chans == c->C && mc->crop_pct == c->crop_pct;
    for (int k = 0; k < c->C; k++) ok = ok && mc->mean[k] == c->mean[k] && mc->std[k] == c->std[k];
    vit_interp want_interp = !strcmp(c->interp, "bicubic") ? VIT_INTERP_BICUBIC : !strcmp(c->interp, "bilinear") ? VIT_INTERP_BILINEAR : VIT_INTERP_NEAREST;
    vit_resize want_resize = !strcmp(c->crop_mode, "squash") ? VIT_RESIZE_SQUARE : VIT_RESIZE_SHORTER_CROP;
    ok = ok && mc->interpolation == want_interp && mc->resize == want_resize;
    fmt(name, sizeof(name), "config %s", c->name);
    check(ok, name, "S %d/%d, C %d/%d, crop_pct %g/%g, interpolation %d/%d, resize %d/%d, mean[0] %.8g/%.8g, std[0] %.8g/%.8g (vit.h/manifest)",
          mc->image_size, c->S, mc->in_chans, c->C, mc->crop_pct, c->crop_pct, (int)mc->interpolation, (int)want_interp,
          (int)mc->resize, (int)want_resize, mc->mean[0], c->mean[0], mc->std[0], c->std[0]);
    *out_model = m;
    return 1;
}

// Tolerances, in 8-bit levels. The references decode with PIL (libjpeg-turbo),
// vit.h with stb_image: for JPEG the two decoders differ by up to 3 levels on a
// few percent of the pixels (IDCT rounding, YCbCr->RGB precision, chroma
// upsampling rounding; figures in tests/data/preprocess/README.md), and bicubic
// resampling can amplify a difference slightly. Other formats decode
// identically, so any difference there is the resampler's.
#define TOL_LEVELS 2.0
#define TOL_JPEG_LEVELS 4.0
#define TOL_JPEG_MEAN_LEVELS 0.1

static int is_jpeg(const char *file) {
    const char *e = extension(file);
    return !strcmp(e, "jpg") || !strcmp(e, "jpeg");
}

static void check_ref(const char *dir, const config *c, vit_model *m, const ref *r) {
    char name[256], path[1024];
    fmt(name, sizeof(name), "%s %s (%s)", c->name, r->image, r->producer);
    size_t n = (size_t)c->C * c->S * c->S, size = 0;
    fmt(path, sizeof(path), "%s/%s", dir, r->file);
    unsigned char *want = read_all(path, &size);
    if (!want || size != n) {
        check(0, name, "reference %s: %s (%zu bytes, want %zu)", path, want ? "wrong size" : "unreadable", size, n);
        free(want);
        return;
    }
    float *out = (float *)malloc((n + GUARD) * sizeof(float));
    for (size_t i = 0; i < n + GUARD; i++) out[i] = GUARD_VALUE;
    fmt(path, sizeof(path), "%s/images/%s", dir, r->image);
    vit_status st = vit_preprocess_file(m, path, out);
    if (st != VIT_OK) {
        check(0, name, "vit_preprocess_file: %s: %s", vit_status_string(st), vit_last_error(m));
    } else {
        double max_levels = 0, sum_levels = 0;
        size_t differ = 0, off1 = 0, worst = 0, bad = 0, plane = (size_t)c->S * c->S;
        for (size_t i = 0; i < n; i++) {
            int k = (int)(i / plane);
            float e = ((float)want[i] / 255.0f - c->mean[k]) / c->std[k];
            double levels = fabs((double)out[i] - e) * c->std[k] * 255.0;
            if (out[i] != out[i]) { levels = 1e9; bad++; }
            if (out[i] != e) differ++;
            if (levels > 0.5) off1++;
            sum_levels += levels;
            if (levels > max_levels) { max_levels = levels; worst = i; }
        }
        int guard_ok = 1;
        for (size_t i = n; i < n + GUARD; i++) guard_ok = guard_ok && out[i] == GUARD_VALUE;
        int exact = differ == 0, jpeg = is_jpeg(r->image);
        double mean_levels = sum_levels / n;
        int within = jpeg ? max_levels <= TOL_JPEG_LEVELS + 1e-3 && mean_levels <= TOL_JPEG_MEAN_LEVELS
                          : max_levels <= TOL_LEVELS + 1e-3;
        check(within && !bad && guard_ok, name,
              "max %.3g levels (tolerance %g), mean %.4f, %zu of %zu values off by >= 1 level%s (worst: c%zu y%zu x%zu got %.6g want %.6g)%s%s",
              max_levels, jpeg ? TOL_JPEG_LEVELS : TOL_LEVELS, mean_levels, off1, n, exact ? ", bit-exact" : "",
              worst / plane, worst % plane / c->S, worst % c->S,
              out[worst], ((float)want[worst] / 255.0f - c->mean[worst / plane]) / c->std[worst / plane],
              bad ? ", NaN" : "", guard_ok ? "" : ", wrote past the output");
        char key[48];
        fmt(key, sizeof(key), "%s %s", extension(r->image), r->producer);
        add_tally(key, max_levels, exact);
    }
    free(out);
    free(want);
}

// ---------------------------------------------------------------------------
// vit_preprocess_rgb8: strides and channel counts give the same floats as the file path

// Copies w x h x ch pixels into rows of `stride` bytes, padding filled with 0xA5.
static unsigned char *with_stride(const unsigned char *px, int w, int h, int ch, int stride) {
    unsigned char *p = (unsigned char *)malloc((size_t)stride * h);
    memset(p, 0xA5, (size_t)stride * h);
    for (int y = 0; y < h; y++) memcpy(p + (size_t)y * stride, px + (size_t)y * w * ch, (size_t)w * ch);
    return p;
}

static void check_rgb8(const char *dir, vit_model *m, const char *model_name, const char *image, int channels, int pad) {
    char name[256], path[1024];
    fmt(name, sizeof(name), "rgb8 %s %s channels %d stride w*%d+%d", model_name, image, channels, channels, pad);
    fmt(path, sizeof(path), "%s/images/%s", dir, image);
    const vit_config *c = vit_model_config(m);
    size_t n = (size_t)c->in_chans * c->image_size * c->image_size;
    float *a = (float *)malloc(n * sizeof(float)), *b = (float *)malloc((n + GUARD) * sizeof(float));
    for (size_t i = 0; i < n + GUARD; i++) b[i] = GUARD_VALUE;
    int w = 0, h = 0, file_n = 0;
    unsigned char *px = stbi_load(path, &w, &h, &file_n, channels);
    vit_status sa = vit_preprocess_file(m, path, a), sb = VIT_ERROR_IMAGE_DECODE;
    if (px) {
        int stride = w * channels + pad;
        unsigned char *padded = with_stride(px, w, h, channels, stride);
        sb = vit_preprocess_rgb8(m, padded, w, h, stride, channels, b);
        free(padded);
        stbi_image_free(px);
    }
    int same = sa == VIT_OK && sb == VIT_OK && !memcmp(a, b, n * sizeof(float));
    for (size_t i = n; i < n + GUARD; i++) same = same && b[i] == GUARD_VALUE;
    check(same, name, "%dx%d, %d channels in the file; %s / %s; %s", w, h, file_n, vit_status_string(sa), vit_status_string(sb),
          same ? "identical to vit_preprocess_file" : "differs from vit_preprocess_file");
    free(a);
    free(b);
}

static void check_rgb8_args(vit_model *m) {
    const vit_config *c = vit_model_config(m);
    size_t n = (size_t)c->in_chans * c->image_size * c->image_size;
    float *out = (float *)malloc(n * sizeof(float));
    unsigned char *px = (unsigned char *)calloc((size_t)VIT_MAX_IMAGE_SIDE * 4, 1);
    struct { int w, h, stride, ch; vit_status want; const char *what; } cases[] = {
        {4, 4, 0, 5, VIT_ERROR_INVALID_ARGUMENT, "channels 5"},
        {4, 4, 0, 0, VIT_ERROR_INVALID_ARGUMENT, "channels 0"},
        {4, 4, 11, 3, VIT_ERROR_INVALID_ARGUMENT, "stride < width * channels"},
        {0, 4, 0, 3, VIT_ERROR_INVALID_ARGUMENT, "width 0"},
        {4, -1, 0, 3, VIT_ERROR_INVALID_ARGUMENT, "height -1"},
        {VIT_MAX_IMAGE_SIDE + 1, 1, 0, 1, VIT_ERROR_LIMIT, "width > VIT_MAX_IMAGE_SIDE"},
        {VIT_MAX_IMAGE_SIDE, 1, 0, 3, VIT_ERROR_LIMIT, "32768x1 sliver: the resized image would exceed VIT_MAX_IMAGE_PIXELS"},
        {1, VIT_MAX_IMAGE_SIDE, 0, 1, VIT_ERROR_LIMIT, "1x32768 sliver"},
        {1, 4, 0, 4, VIT_OK, "1x4 RGBA"},
        {4, 1, 16, 4, VIT_OK, "4x1 RGBA, exact stride"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char name[128];
        fmt(name, sizeof(name), "rgb8 arguments: %s", cases[i].what);
        g_largest_alloc = 0;
        vit_status st = vit_preprocess_rgb8(m, px, cases[i].w, cases[i].h, cases[i].stride, cases[i].ch, out);
        check(st == cases[i].want && g_largest_alloc < (1u << 20), name, "%s (want %s)", vit_status_string(st), vit_status_string(cases[i].want));
    }
    check(vit_preprocess_rgb8(m, NULL, 4, 4, 0, 3, out) == VIT_ERROR_INVALID_ARGUMENT, "rgb8 arguments: NULL pixels", "%s", "");
    check(vit_preprocess_rgb8(m, px, 4, 4, 0, 3, NULL) == VIT_ERROR_INVALID_ARGUMENT, "rgb8 arguments: NULL out", "%s", "");
    check(vit_preprocess_rgb8(NULL, px, 4, 4, 0, 3, out) == VIT_ERROR_INVALID_ARGUMENT, "rgb8 arguments: NULL model", "%s", "");
    free(px);
    free(out);
}

// ---------------------------------------------------------------------------
// hostile bytes

static void expect_memory(vit_model *m, const char *name, const unsigned char *data, size_t size, vit_status want, int or_ok) {
    const vit_config *c = vit_model_config(m);
    size_t n = (size_t)c->in_chans * c->image_size * c->image_size;
    float *out = (float *)malloc(n * sizeof(float));
    unsigned char *copy = exact_copy(data, size);
    g_largest_alloc = 0;
    vit_status st = vit_preprocess_memory(m, copy, size, out);
    int ok = st == want || (or_ok && st == VIT_OK);
    if (want == VIT_ERROR_LIMIT) ok = ok && g_largest_alloc < (1u << 20); // refused before allocating the image
    check(ok, name, "%s%s%s (largest allocation %zu bytes)", vit_status_string(st), st == VIT_OK ? "" : ": ",
          st == VIT_OK ? "" : vit_last_error(m), g_largest_alloc);
    free(copy);
    free(out);
}

static void put_be32(unsigned char *p, unsigned v) {
    p[0] = (unsigned char)(v >> 24); p[1] = (unsigned char)(v >> 16); p[2] = (unsigned char)(v >> 8); p[3] = (unsigned char)v;
}

// A PNG signature + IHDR chunk (8-bit RGB) claiming w x h, then an IDAT holding
// only a zlib header (no deflate data) and IEND. (Not a zero-length IDAT: stb_image
// 2.27 then calls memcpy(NULL, p, 0), which UBSan reports.)
static size_t png_header(unsigned char *p, unsigned w, unsigned h) {
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    memcpy(p, sig, 8);
    put_be32(p + 8, 13); memcpy(p + 12, "IHDR", 4);
    put_be32(p + 16, w); put_be32(p + 20, h);
    p[24] = 8; p[25] = 2; p[26] = 0; p[27] = 0; p[28] = 0; // depth 8, RGB, deflate, no filter, no interlace
    put_be32(p + 29, 0);                                  // CRC (stb_image does not check it)
    put_be32(p + 33, 2); memcpy(p + 37, "IDAT", 4); p[41] = 0x78; p[42] = 0x9c; put_be32(p + 43, 0);
    put_be32(p + 47, 0); memcpy(p + 51, "IEND", 4); put_be32(p + 55, 0);
    return 59;
}

static void check_hostile(const char *dir, vit_model *m) {
    char path[1024], name[256];
    // garbage: a fixed pseudo-random byte stream
    unsigned char garbage[4096];
    unsigned s = 12345;
    for (size_t i = 0; i < sizeof(garbage); i++) { s = s * 1103515245u + 12345u; garbage[i] = (unsigned char)(s >> 16); }
    expect_memory(m, "memory: 4096 garbage bytes", garbage, sizeof(garbage), VIT_ERROR_IMAGE_DECODE, 0);
    expect_memory(m, "memory: 1 byte", garbage, 1, VIT_ERROR_IMAGE_DECODE, 0);
    {
        float out[4];
        check(vit_preprocess_memory(m, garbage, 0, out) == VIT_ERROR_INVALID_ARGUMENT, "memory: size 0 -> invalid argument", "%s", "");
        check(vit_preprocess_memory(m, NULL, 10, out) == VIT_ERROR_INVALID_ARGUMENT, "memory: NULL data -> invalid argument", "%s", "");
    }

    // truncated real files. stb_image reads missing bytes as zeros, so a cut only
    // has to fail where nothing decodable is left: before `header` bytes (for
    // TGA and PNM, before the width and height), or inside a PNG's image data;
    // other cuts may give a partial image (zeros for the missing pixels). The
    // last byte (PNG IEND CRC, GIF trailer, JPEG EOI) is not needed at all.
    static const struct { const char *file; size_t header; int data_needed; } files[] = {
        {"chelsea.png", 33, 1}, {"camera.png", 33, 1}, {"rocket.jpg", 64, 0}, {"rocket_portrait.jpg", 64, 0},
        {"chelsea_palette.gif", 13, 0}, {"coffee_333x177.bmp", 54, 0}, {"coffee_97x301.tga", 12, 0},
        {"coffee_211x157.ppm", 8, 0},
    };
    for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
        fmt(path, sizeof(path), "%s/images/%s", dir, files[f].file);
        size_t size = 0;
        unsigned char *data = read_all(path, &size);
        if (!check(data != NULL, files[f].file, "%s", data ? "" : "cannot read")) continue;
        size_t cuts[] = {2, files[f].header - 1, files[f].header + 1, size / 2, size - 1};
        for (size_t k = 0; k < sizeof(cuts) / sizeof(cuts[0]); k++) {
            int must_fail = cuts[k] < files[f].header || (files[f].data_needed && k == 3);
            fmt(name, sizeof(name), "memory: %s truncated to %zu of %zu bytes -> %s", files[f].file, cuts[k], size,
                must_fail ? "decode error" : "decode error or partial image");
            expect_memory(m, name, data, cuts[k], VIT_ERROR_IMAGE_DECODE, !must_fail);
        }
        // the same bytes with a corrupted middle: never a crash
        unsigned char *bad = exact_copy(data, size);
        for (size_t i = size / 3; i < size / 3 + 64 && i < size; i++) bad[i] ^= 0x5A;
        fmt(name, sizeof(name), "memory: %s with 64 corrupted bytes -> decode error or an image", files[f].file);
        expect_memory(m, name, bad, size, VIT_ERROR_IMAGE_DECODE, 1);
        free(bad);
        free(data);
    }

    // missing file
    fmt(path, sizeof(path), "%s/images/no_such_image.png", dir);
    {
        const vit_config *c = vit_model_config(m);
        float *out = (float *)malloc((size_t)c->in_chans * c->image_size * c->image_size * sizeof(float));
        vit_status st = vit_preprocess_file(m, path, out);
        check(st == VIT_ERROR_IO && strstr(vit_last_error(m), "no_such_image.png") != NULL, "file: missing -> VIT_ERROR_IO",
              "%s: %s", vit_status_string(st), vit_last_error(m));
        check(vit_preprocess_file(m, NULL, out) == VIT_ERROR_INVALID_ARGUMENT, "file: NULL path -> invalid argument", "%s", "");
        check(vit_classify_file(m, path, 1, NULL, NULL) != VIT_OK, "classify: missing file fails", "%s", "");
        free(out);
    }

    // headers that claim huge images: refused before the pixels are allocated
    unsigned char buf[128];
    struct { unsigned w, h; const char *what; } pngs[] = {
        {100000, 100000, "100000x100000 (beyond VIT_MAX_IMAGE_SIDE and stb's limit)"},
        {30000, 30000, "30000x30000 (side allowed, pixels not)"},
        {16384, 16384, "16384x16384 (more than VIT_MAX_IMAGE_PIXELS)"},
        {VIT_MAX_IMAGE_SIDE + 1, 1, "32769x1 (one past VIT_MAX_IMAGE_SIDE)"},
    };
    for (size_t i = 0; i < sizeof(pngs) / sizeof(pngs[0]); i++) {
        size_t n = png_header(buf, pngs[i].w, pngs[i].h);
        fmt(name, sizeof(name), "memory: PNG header %s -> VIT_ERROR_LIMIT", pngs[i].what);
        expect_memory(m, name, buf, n, VIT_ERROR_LIMIT, 0);
    }
    {
        size_t n = png_header(buf, 64, 64);
        expect_memory(m, "memory: PNG header 64x64 with no image data -> decode error", buf, n, VIT_ERROR_IMAGE_DECODE, 0);
    }
    {
        // baseline JPEG: SOI, SOF0 claiming 65500 x 65500 x 3
        static const unsigned char jpg[] = {0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0xFF, 0xDC, 0xFF, 0xDC, 0x03,
                                            0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01, 0xFF, 0xD9};
        expect_memory(m, "memory: JPEG header 65500x65500 -> VIT_ERROR_LIMIT", jpg, sizeof(jpg), VIT_ERROR_LIMIT, 0);
        // GIF logical screen 65535 x 65535
        static const unsigned char gif[] = {'G', 'I', 'F', '8', '9', 'a', 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x3B};
        expect_memory(m, "memory: GIF header 65535x65535 -> VIT_ERROR_LIMIT", gif, sizeof(gif), VIT_ERROR_LIMIT, 0);
        // binary PPM
        static const char ppm[] = "P6\n100000 100000\n255\n\x01\x02\x03";
        expect_memory(m, "memory: PPM header 100000x100000 -> VIT_ERROR_LIMIT", (const unsigned char *)ppm, sizeof(ppm) - 1, VIT_ERROR_LIMIT, 0);
        // BMP: BITMAPINFOHEADER, 24 bpp, 100000 x 100000
        unsigned char bmp[64] = {'B', 'M'};
        bmp[10] = 54; bmp[14] = 40;
        bmp[18] = 0xA0; bmp[19] = 0x86; bmp[20] = 0x01; // width 100000 (LE)
        bmp[22] = 0xA0; bmp[23] = 0x86; bmp[24] = 0x01; // height 100000
        bmp[26] = 1; bmp[28] = 24;
        expect_memory(m, "memory: BMP header 100000x100000 -> VIT_ERROR_LIMIT", bmp, sizeof(bmp), VIT_ERROR_LIMIT, 0);
    }
}

// ---------------------------------------------------------------------------

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s tests/data/preprocess\n", argv[0]);
        return 2;
    }
    const char *dir = argv[1];
    if (!parse_manifest(dir)) {
        printf("%d passed, %d failed\n", g_passed, g_failed);
        return 1;
    }
    vit_model *models[MAX_CONFIGS] = {0};
    for (int i = 0; i < g_ncfg; i++) {
        if (!check_config(dir, &g_cfg[i], &models[i])) continue;
        for (int j = 0; j < g_nref; j++)
            if (!strcmp(g_ref[j].config, g_cfg[i].name)) check_ref(dir, &g_cfg[i], models[i], &g_ref[j]);
    }

    // rgb8: a model per kind (RGB shorter-side crop, gray, HF square) if present
    static const char *rgb8_models[] = {"bilinear96", "gray28", "hf32"};
    for (size_t k = 0; k < sizeof(rgb8_models) / sizeof(rgb8_models[0]); k++) {
        vit_model *m = NULL;
        for (int i = 0; i < g_ncfg; i++) if (!strcmp(g_cfg[i].name, rgb8_models[k])) m = models[i];
        if (!m) continue;
        check_rgb8(dir, m, rgb8_models[k], "chelsea_rgba.png", 4, 7);  // alpha dropped
        check_rgb8(dir, m, rgb8_models[k], "chelsea_rgba.png", 3, 5);
        check_rgb8(dir, m, rgb8_models[k], "chelsea.png", 3, 1);
        check_rgb8(dir, m, rgb8_models[k], "chelsea.png", 4, 0);        // RGBA with alpha 255, packed rows
        check_rgb8(dir, m, rgb8_models[k], "camera.png", 2, 3);         // gray + alpha
        check_rgb8(dir, m, rgb8_models[k], "camera.png", 1, 9);
        check_rgb8(dir, m, rgb8_models[k], "no_time_for_that_tiny.gif", 4, 2);
    }
    vit_model *any = NULL;
    for (int i = 0; i < g_ncfg && !any; i++) any = models[i];
    if (any) {
        check_rgb8_args(any);
        check_hostile(dir, any);
    }

    // Lossless formats decode identically in PIL and stb_image, and the resampler is
    // PIL's: against the PIL-made references (timm, hf-pil) they must be bit-exact.
    // (hf-torchvision resizes with torchvision's uint8 kernel: within 1 level of PIL.)
    printf("\nsummary by format and reference producer (max difference in 8-bit levels):\n");
    for (int i = 0; i < g_ntally; i++) {
        const tally *t = &g_tally[i];
        char name[96];
        int lossless = strncmp(t->key, "jpg ", 4) != 0, pil = strstr(t->key, "torchvision") == NULL;
        fmt(name, sizeof(name), "summary %s", t->key);
        if (lossless && pil)
            check(t->exact == t->images, name, "%d images, %d bit-exact, max %.3g levels (must be bit-exact)", t->images, t->exact, t->max_levels);
        else
            printf("  %-30s %2d images, %2d bit-exact, max %.3g levels\n", name, t->images, t->exact, t->max_levels);
    }
    for (int i = 0; i < g_ncfg; i++) vit_free(models[i]);
    return check_summary();
}
