// test_preprocess: vit_preprocess_* against timm's and Hugging Face's own eval transforms.
//
// usage: test_preprocess DIR   (DIR = tests/data/preprocess, written by
//                               tools/make_preprocess_reference.py)
//
// DIR/manifest.txt lists the tiny models (one per preprocessing config) and,
// for every (model, image) pair, a reference: the uint8 (C, H, W) pixels that
// timm's create_transform (Resize + CenterCrop) or a Hugging Face image
// processor (ViT, CLIP, Bit, Siglip, DeiT; PIL backend, and ViT's torchvision
// backend) produced from DIR/images/<image> before ToTensor/Normalize.
// Hugging Face configs: the model's preprocessor_config.json is read with
// vit__read_preprocessor (a test-only call until the loader makes it: then the
// same call again), and its fields checked against the manifest. Configs run at
// an input size other than the checkpoint's (manifest H x W) set
// vit_config.image_height/width directly (test-only: the preprocessing reads
// only the config, and the loader does not take other sizes yet).
// The model input is exactly (u8 / 255 - mean) / std, recomputed here with the
// manifest's mean/std (not the ones vit.h parsed: those are checked against the
// manifest first). Differences are reported in 8-bit levels, |diff| * std * 255.
// A reference passes when every value is within 2 levels (JPEG: 4 levels and a
// mean of 0.1 level, see TOL_JPEG_LEVELS). PIL decodes the images for the
// references and stb_image decodes them here, so JPEG differs by the decoders'
// IDCT and chroma upsampling; the lossless formats decode identically, so
// against the PIL-made references they must be bit-exact (summary checks).
//
// Also: vit__preprocess_geometry against DIR/geometry.txt (resize sizes and crop
// offsets from timm's, torchvision's and transformers' own functions for 800
// random sizes), vit__read_preprocessor on real-world and hostile
// preprocessor_config.json texts (what it reads, what it refuses and that it
// leaves the config alone then), vit_preprocess_rgb8 with padded strides and
// 1-4 channels, truncated and garbage bytes, a missing file, and headers that
// claim huge dimensions (refused with VIT_ERROR_LIMIT before any large
// allocation: VIT_MALLOC is wrapped to record the largest request).
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
    int C, S, H, W, resize_shorter; // S: the checkpoint's size; H x W: the input it runs at
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
            ok = ok && sscanf(p, "%15s %f %15s%n", c->interp, &c->crop_pct, c->crop_mode, &n) == 3;
            int h, w, rs; // optional: older lines run at the checkpoint's size, with no Hugging Face resize
            int more = ok ? sscanf(p + n, "%d %d %d", &h, &w, &rs) : 0;
            c->H = more == 3 ? h : c->S;
            c->W = more == 3 ? w : c->S;
            c->resize_shorter = more == 3 ? rs : 0;
            ok = ok && (more == 3 || more <= 0) && c->H >= 1 && c->W >= 1;
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

// The manifest's crop_mode as vit_config says it: center -> VIT_RESIZE_SHORTER_CROP,
// squash (timm squash, Hugging Face plain resize) and hf-crop (DeiT: a fixed size,
// then the crop) -> VIT_RESIZE_SQUARE, hf-shortest -> VIT_RESIZE_SHORTER_CROP_HF.
static vit_resize manifest_resize(const char *crop_mode) {
    if (!strcmp(crop_mode, "squash") || !strcmp(crop_mode, "hf-crop")) return VIT_RESIZE_SQUARE;
    if (!strcmp(crop_mode, "hf-shortest")) return VIT_RESIZE_SHORTER_CROP_HF;
    return VIT_RESIZE_SHORTER_CROP;
}

// Reads DIR/<config>/preprocessor_config.json, when there is one, into the model's
// config with vit__read_preprocessor. 1 = none there or read, 0 = failed (reported).
static int apply_preprocessor(const char *dir, const config *c, vit_model *m) {
    char path[1024], name[128], err[VIT__ERR_LEN] = "";
    fmt(path, sizeof(path), "%s/%s/preprocessor_config.json", dir, c->name);
    size_t size = 0;
    unsigned char *text = read_all(path, &size);
    if (!text) return 1;
    vit__json j;
    vit_status st = vit__json_parse(&j, (const char *)text, size, NULL, err);
    if (st == VIT_OK) {
        st = vit__read_preprocessor(&j, 0, (vit_config *)vit_model_config(m), err); // test-only: const cast away
        vit__json_release(&j);
    }
    free(text);
    fmt(name, sizeof(name), "preprocessor_config.json %s", c->name);
    return check(st == VIT_OK, name, "%s%s%s", vit_status_string(st), err[0] ? ": " : "", err);
}

static int check_config(const char *dir, const config *c, vit_model **out_model) {
    char name[128], path[1024];
    fmt(name, sizeof(name), "load %s", c->name);
    fmt(path, sizeof(path), "%s/%s/model.safetensors", dir, c->name);
    vit_model *m = NULL;
    vit_options o;
    memset(&o, 0, sizeof(o));
    if (c->H != c->S || c->W != c->S) { o.image_height = c->H; o.image_width = c->W; } // run at H x W
    vit_status st = vit_load(path, &o, &m);
    if (!check(st == VIT_OK, name, "%s", st == VIT_OK ? "" : vit_last_error(NULL))) return 0;
    *out_model = m;
    if (!apply_preprocessor(dir, c, m)) return 0;
    vit_config *mc = (vit_config *)vit_model_config(m);
    int native = c->H == c->S && c->W == c->S;
    int ok = mc->native_height == c->S && mc->native_width == c->S && mc->image_height == c->H && mc->image_width == c->W && mc->in_chans == c->C && mc->crop_pct == c->crop_pct && mc->resize_shorter == c->resize_shorter;
    for (int k = 0; k < c->C; k++) ok = ok && mc->mean[k] == c->mean[k] && mc->std[k] == c->std[k];
    vit_interp want_interp = !strcmp(c->interp, "bicubic") ? VIT_INTERP_BICUBIC : !strcmp(c->interp, "bilinear") ? VIT_INTERP_BILINEAR : VIT_INTERP_NEAREST;
    vit_resize want_resize = manifest_resize(c->crop_mode);
    ok = ok && mc->interpolation == want_interp && mc->resize == want_resize;
    fmt(name, sizeof(name), "config %s", c->name);
    check(ok, name, "S %d/%d, C %d/%d, crop_pct %g/%g, resize_shorter %d/%d, interpolation %d/%d, resize %d/%d, mean[0] %.8g/%.8g, std[0] %.8g/%.8g "
          "(vit.h/manifest); runs at %dx%d (H x W)%s",
          mc->native_height, c->S, mc->in_chans, c->C, mc->crop_pct, c->crop_pct, mc->resize_shorter, c->resize_shorter,
          (int)mc->interpolation, (int)want_interp, (int)mc->resize, (int)want_resize, mc->mean[0], c->mean[0], mc->std[0], c->std[0],
          mc->image_height, mc->image_width, native ? "" : " (vit_options)");
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
    size_t n = (size_t)c->C * c->H * c->W, size = 0;
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
        size_t differ = 0, off1 = 0, worst = 0, bad = 0, plane = (size_t)c->H * c->W;
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
              worst / plane, worst % plane / c->W, worst % c->W,
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
// The same transforms stated in vit_options: each config's model loaded
// from memory with its config.json and no preprocessor_config.json, its manifest
// line as vit_options (mean/std, interpolation, resize and resize_size or
// crop_pct, the input size), and every reference checked again, as check_ref
// checks the files' transform: the Hugging Face ones against transformers'
// processors' own output, the timm ones against timm's.

// The manifest line as vit_options; 0 when it cannot be stated (said why in *why).
static int stated_options(const config *c, vit_options *o, const char **why) {
    memset(o, 0, sizeof(*o));
    for (int k = 0; k < 3; k++) { o->mean[k] = c->mean[k < c->C ? k : 0]; o->std[k] = c->std[k < c->C ? k : 0]; }
    o->interpolation = c->interp;
    o->image_height = c->H;
    o->image_width = c->W;
    int big = c->H > c->W ? c->H : c->W;
    if (!strcmp(c->crop_mode, "center") || !strcmp(c->crop_mode, "squash")) {
        o->resize = !strcmp(c->crop_mode, "center") ? "timm" : "square";
        o->crop_pct = c->crop_pct;
        return 1;
    }
    // Hugging Face: the processor's size at this input size (as vit__preprocess_geometry scales it)
    long c0 = lround(c->resize_shorter * (double)c->crop_pct), size = (long)c->resize_shorter * big / c0;
    o->resize = !strcmp(c->crop_mode, "hf-shortest") ? "shortest_edge" : "square";
    o->resize_size = (int)size;
    if (!strcmp(o->resize, "square") && ((long)c->resize_shorter * c->H / c0 != size * c->H / big || (long)c->resize_shorter * c->W / c0 != size * c->W / big)) {
        *why = "its processor resizes to a rectangle there (DeiT at another size), not a square";
        return 0;
    }
    return 1;
}

static void check_stated(const char *dir) {
    for (int i = 0; i < g_ncfg; i++) {
        const config *c = &g_cfg[i];
        char name[128], path[1024];
        fmt(name, sizeof(name), "stated %s", c->name);
        vit_options o;
        const char *why = NULL;
        if (!stated_options(c, &o, &why)) { printf("SKIP %s: %s\n", name, why); continue; }
        size_t nw = 0, nc = 0;
        fmt(path, sizeof(path), "%s/%s/model.safetensors", dir, c->name);
        unsigned char *w = read_all(path, &nw);
        fmt(path, sizeof(path), "%s/%s/config.json", dir, c->name);
        unsigned char *js = read_all(path, &nc);
        o.config_json = (const char *)js;
        o.config_json_size = nc;
        vit_model *m = NULL;
        vit_status st = w && js ? vit_load_memory(w, nw, &o, &m) : VIT_ERROR_IO;
        const vit_config *mc = st == VIT_OK ? vit_model_config(m) : NULL;
        int same = mc && mc->preprocess_source == VIT_PREPROCESS_FROM_OPTIONS && mc->resize == manifest_resize(c->crop_mode) &&
                   mc->image_height == c->H && mc->image_width == c->W;
        check(same, name, "%s: loaded from memory with the manifest's transform stated (resize \"%s\", resize_size %d, crop_pct %g): FROM_OPTIONS, mode %d",
              st == VIT_OK ? "ok" : vit_last_error(NULL), o.resize, o.resize_size, (double)o.crop_pct, mc ? (int)mc->resize : -1);
        for (int j = 0; same && j < g_nref; j++)
            if (!strcmp(g_ref[j].config, c->name)) {
                ref r = g_ref[j];
                fmt(r.producer, sizeof(r.producer), "stated %s", g_ref[j].producer);
                check_ref(dir, c, m, &r);
            }
        vit_free(m);
        free(w); free(js);
    }
    // a half or wrong statement: named at load
    static const struct { const char *resize; int size; float crop_pct; const char *want; } bad[] = {
        {"shortest_edge", 0, 0.0f, "needs resize_size"},
        {"timm", 256, 0.0f, "resize_size goes with resize"},
        {"shortest_edge", 256, 0.875f, "crop_pct goes with resize"},
        {"crop", 0, 0.0f, "resize must be"},
        {"square", -3, 0.0f, "resize_size -3 is not in"},
    };
    for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
        vit_options o;
        memset(&o, 0, sizeof(o));
        o.std[0] = o.std[1] = o.std[2] = 0.5f;
        o.resize = bad[k].resize; o.resize_size = bad[k].size; o.crop_pct = bad[k].crop_pct;
        char path[1024];
        fmt(path, sizeof(path), "%s/%s/model.safetensors", dir, g_cfg[0].name);
        vit_model *m = NULL;
        vit_status st = vit_load(path, &o, &m);
        check(st == VIT_ERROR_INVALID_ARGUMENT && !m && strstr(vit_last_error(NULL), bad[k].want), "stated: refused", "resize \"%s\", resize_size %d, crop_pct %g: %s",
              bad[k].resize, bad[k].size, (double)bad[k].crop_pct, vit_last_error(NULL));
        vit_free(m);
    }
    vit_options half;
    memset(&half, 0, sizeof(half));
    half.resize = "shortest_edge"; half.resize_size = 36;
    char path[1024];
    fmt(path, sizeof(path), "%s/%s/model.safetensors", dir, g_cfg[0].name);
    vit_model *m = NULL;
    check(vit_load(path, &half, &m) == VIT_ERROR_INVALID_ARGUMENT && !m && strstr(vit_last_error(NULL), "only with std"), "stated: refused",
          "resize without std: %s", vit_last_error(NULL));
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
    size_t n = (size_t)c->in_chans * c->image_height * c->image_width;
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
    size_t n = (size_t)c->in_chans * c->image_height * c->image_width;
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
    size_t n = (size_t)c->in_chans * c->image_height * c->image_width;
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
        float *out = (float *)malloc((size_t)c->in_chans * c->image_height * c->image_width * sizeof(float));
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
// vit__preprocess_geometry against the libraries' own resize sizes and crop offsets

static void check_geometry(const char *dir) {
    static const char *const modes[4] = {"center", "squash", "hf-shortest", "hf-crop"};
    int cases[4] = {0, 0, 0, 0}, wrong[4] = {0, 0, 0, 0};
    char path[1024], line[256], first[4][200] = {"", "", "", ""};
    fmt(path, sizeof(path), "%s/geometry.txt", dir);
    FILE *f = fopen(path, "r");
    if (!f) { check(0, "geometry", "cannot open %s", path); return; }
    int bad_lines = 0;
    while (fgets(line, sizeof(line), f)) {
        if (strncmp(line, "geom ", 5)) continue;
        char mode[16];
        float pct;
        int shorter, H, W, w, h, want[4], got[4] = {0, 0, 0, 0}, k;
        if (sscanf(line + 5, "%15s %f %d %d %d %d %d %d %d %d %d", mode, &pct, &shorter, &H, &W, &w, &h, &want[0], &want[1], &want[2], &want[3]) != 11) { bad_lines++; continue; }
        for (k = 0; k < 4 && strcmp(mode, modes[k]); k++) {}
        if (k == 4) { bad_lines++; continue; }
        vit_config c;
        memset(&c, 0, sizeof(c));
        c.resize = manifest_resize(mode);
        c.crop_pct = pct;
        c.resize_shorter = shorter;
        char err[VIT__ERR_LEN] = "";
        vit_status st = vit__preprocess_geometry(&c, w, h, H, W, &got[0], &got[1], &got[2], &got[3], err);
        cases[k]++;
        if (st != VIT_OK || memcmp(got, want, sizeof(got))) {
            if (!wrong[k]++)
                fmt(first[k], sizeof(first[k]), "first: crop_pct %g, resize_shorter %d, %dx%d image at H %d W %d: got %dx%d from (%d, %d), want %dx%d from (%d, %d)%s%s",
                    (double)pct, shorter, w, h, H, W, got[0], got[1], got[2], got[3], want[0], want[1], want[2], want[3], st ? " " : "", err);
        }
    }
    fclose(f);
    check(bad_lines == 0, "geometry.txt parses", "%d bad lines", bad_lines);
    for (int k = 0; k < 4; k++) {
        char name[64];
        fmt(name, sizeof(name), "geometry %s", modes[k]);
        check(cases[k] > 0 && wrong[k] == 0, name, "%d of %d cases match timm/torchvision/transformers%s%s", cases[k] - wrong[k], cases[k],
              wrong[k] ? "; " : "", first[k]);
    }
}

// Configs no loader writes (the fields are public and writable through a cast):
// refused with a status, never a crash, an overflow or a huge allocation.
static void check_geometry_edges(vit_model *m) {
    static const struct { vit_resize resize; float crop_pct; int shorter, H, W; vit_status want; const char *what; } cases[] = {
        {VIT_RESIZE_SHORTER_CROP_HF, 1.0f, 0, 32, 32, VIT_ERROR_INVALID_ARGUMENT, "HF shortest edge with resize_shorter 0"},
        {VIT_RESIZE_SHORTER_CROP_HF, 1e30f, 224, 32, 32, VIT_ERROR_INVALID_ARGUMENT, "HF crop_pct 1e30"},
        {VIT_RESIZE_SHORTER_CROP_HF, 1e-30f, 224, 32, 32, VIT_ERROR_INVALID_ARGUMENT, "HF crop_pct 1e-30 (no crop)"},
        {VIT_RESIZE_SHORTER_CROP_HF, 1e-4f, 65536, 65536, 65536, VIT_ERROR_LIMIT, "HF: shortest edge 65536 * 65536 / 7"},
        {VIT_RESIZE_SHORTER_CROP, 1e-30f, 0, 32, 32, VIT_ERROR_LIMIT, "timm crop_pct 1e-30 (infinite scale)"},
        {VIT_RESIZE_SQUARE, 1e-30f, 0, 32, 48, VIT_ERROR_LIMIT, "squash crop_pct 1e-30"},
        {VIT_RESIZE_SHORTER_CROP, 0.0f, 0, 32, 32, VIT_ERROR_INVALID_ARGUMENT, "timm crop_pct 0"},
        {VIT_RESIZE_SHORTER_CROP, 0.9f, 0, 0, 32, VIT_ERROR_INVALID_ARGUMENT, "image_height 0"},
        {VIT_RESIZE_SHORTER_CROP, 0.9f, 0, 32, VIT_MAX_DIM + 1, VIT_ERROR_INVALID_ARGUMENT, "image_width past VIT_MAX_DIM"},
        {VIT_RESIZE_SHORTER_CROP, 1e6f, 0, 3, 5, VIT_OK, "timm crop_pct 1e6 (scale 0: resized to 1 px, then zero padding)"},
    };
    vit_config *c = (vit_config *)vit_model_config(m), saved = *c; // test-only: const cast away, restored below
    float out[16];
    unsigned char px[4 * 3 * 3];
    memset(px, 0x80, sizeof(px));
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char name[160];
        c->resize = cases[i].resize;
        c->crop_pct = cases[i].crop_pct;
        c->resize_shorter = cases[i].shorter;
        c->image_height = cases[i].H;
        c->image_width = cases[i].W;
        g_largest_alloc = 0;
        float *buf = cases[i].want == VIT_OK ? (float *)malloc((size_t)c->in_chans * cases[i].H * cases[i].W * sizeof(float)) : out;
        vit_status st = vit_preprocess_rgb8(m, px, 4, 3, 0, 3, buf);
        if (buf != out) free(buf);
        fmt(name, sizeof(name), "config edge: %s -> %s", cases[i].what, vit_status_string(cases[i].want));
        check(st == cases[i].want && g_largest_alloc < (1u << 20), name, "%s%s%s (largest allocation %zu bytes)", vit_status_string(st),
              st ? ": " : "", st ? vit_last_error(m) : "", g_largest_alloc);
    }
    *c = saved;
}

// ---------------------------------------------------------------------------
// vit__read_preprocessor: what it reads, what it refuses

typedef struct {
    const char *what, *json;
    vit_status want;
    const char *says;                // in the error message (failures)
    vit_resize resize;               // expected fields (successes)
    int shorter;
    float crop_pct;
    vit_interp interp;
    float mean0, std0;
} pre_case;

#define NO_FIELDS VIT_RESIZE_SHORTER_CROP, 0, 0.0f, VIT_INTERP_BICUBIC, 0.0f, 0.0f // (a refusal writes none)

static void check_read_preprocessor(void) {
    const float oa_m = 0.48145466f, oa_s = 0.26862954f;
    const pre_case cases[] = {
        // real files (transformers' own, as the hub has them)
        {"google/vit-base-patch16-224 (ViTFeatureExtractor, int size)",
         "{\"do_normalize\": true, \"do_resize\": true, \"feature_extractor_type\": \"ViTFeatureExtractor\", \"image_mean\": [0.5, 0.5, 0.5], "
         "\"image_std\": [0.5, 0.5, 0.5], \"resample\": 2, \"size\": 224}",
         VIT_OK, "", VIT_RESIZE_SQUARE, 0, 1.0f, VIT_INTERP_BILINEAR, 0.5f, 0.5f},
        {"openai/clip-vit-base-patch32 (CLIPFeatureExtractor, int size = shortest edge)",
         "{\"crop_size\": 224, \"do_center_crop\": true, \"do_normalize\": true, \"do_resize\": true, \"feature_extractor_type\": \"CLIPFeatureExtractor\", "
         "\"image_mean\": [0.48145466, 0.4578275, 0.40821073], \"image_std\": [0.26862954, 0.26130258, 0.27577711], \"resample\": 3, \"size\": 224}",
         VIT_OK, "", VIT_RESIZE_SHORTER_CROP_HF, 224, 1.0f, VIT_INTERP_BICUBIC, oa_m, oa_s},
        {"facebook/dinov2-base (BitImageProcessor)",
         "{\"crop_size\": {\"height\": 224, \"width\": 224}, \"do_center_crop\": true, \"do_convert_rgb\": true, \"do_normalize\": true, \"do_rescale\": true, "
         "\"do_resize\": true, \"image_mean\": [0.485, 0.456, 0.406], \"image_processor_type\": \"BitImageProcessor\", \"image_std\": [0.229, 0.224, 0.225], "
         "\"resample\": 3, \"rescale_factor\": 0.00392156862745098, \"size\": {\"shortest_edge\": 256}}",
         VIT_OK, "", VIT_RESIZE_SHORTER_CROP_HF, 256, 0.875f, VIT_INTERP_BICUBIC, 0.485f, 0.229f},
        {"google/siglip-base-patch16-224 (SiglipImageProcessor)",
         "{\"do_normalize\": true, \"do_rescale\": true, \"do_resize\": true, \"image_mean\": [0.5, 0.5, 0.5], \"image_processor_type\": \"SiglipImageProcessor\", "
         "\"image_std\": [0.5, 0.5, 0.5], \"processor_class\": \"SiglipProcessor\", \"resample\": 3, \"rescale_factor\": 0.00392156862745098, "
         "\"size\": {\"height\": 224, \"width\": 224}}",
         VIT_OK, "", VIT_RESIZE_SQUARE, 0, 1.0f, VIT_INTERP_BICUBIC, 0.5f, 0.5f},
        {"facebook/deit-base-distilled-patch16-224 (DeiTFeatureExtractor: 256 square, then 224)",
         "{\"crop_size\": 224, \"do_center_crop\": true, \"do_normalize\": true, \"do_resize\": true, \"feature_extractor_type\": \"DeiTFeatureExtractor\", "
         "\"image_mean\": [0.485, 0.456, 0.406], \"image_std\": [0.229, 0.224, 0.225], \"resample\": 3, \"size\": 256}",
         VIT_OK, "", VIT_RESIZE_SQUARE, 256, 0.875f, VIT_INTERP_BICUBIC, 0.485f, 0.229f},
        // class defaults, suffixes, nulls
        {"CLIPImageProcessor defaults", "{\"image_processor_type\": \"CLIPImageProcessor\"}",
         VIT_OK, "", VIT_RESIZE_SHORTER_CROP_HF, 224, 1.0f, VIT_INTERP_BICUBIC, oa_m, oa_s},
        {"ViTImageProcessorFast defaults", "{\"image_processor_type\": \"ViTImageProcessorFast\"}",
         VIT_OK, "", VIT_RESIZE_SQUARE, 0, 1.0f, VIT_INTERP_BILINEAR, 0.5f, 0.5f},
        {"DeiTImageProcessorPil defaults", "{\"image_processor_type\": \"DeiTImageProcessorPil\"}",
         VIT_OK, "", VIT_RESIZE_SQUARE, 256, 0.875f, VIT_INTERP_BICUBIC, 0.5f, 0.5f},
        {"Siglip: resample 0 (NEAREST)", "{\"image_processor_type\": \"SiglipImageProcessor\", \"resample\": 0}",
         VIT_OK, "", VIT_RESIZE_SQUARE, 0, 1.0f, VIT_INTERP_NEAREST, 0.5f, 0.5f},
        {"do_normalize false: mean 0, std 1", "{\"image_processor_type\": \"ViTImageProcessor\", \"do_normalize\": false, \"image_mean\": 0.3}",
         VIT_OK, "", VIT_RESIZE_SQUARE, 0, 1.0f, VIT_INTERP_BILINEAR, 0.0f, 1.0f},
        {"scalar image_mean/std, [h, w] size", "{\"image_processor_type\": \"ViTImageProcessor\", \"image_mean\": 0.25, \"image_std\": [0.75], \"size\": [32, 48]}",
         VIT_OK, "", VIT_RESIZE_SQUARE, 0, 1.0f, VIT_INTERP_BILINEAR, 0.25f, 0.75f},
        {"DeiT: crop as big as the resize is a plain resize",
         "{\"image_processor_type\": \"DeiTImageProcessor\", \"size\": {\"height\": 32, \"width\": 48}, \"crop_size\": [32, 48]}",
         VIT_OK, "", VIT_RESIZE_SQUARE, 0, 1.0f, VIT_INTERP_BICUBIC, 0.5f, 0.5f},
        {"Bit: do_center_crop null with size int + default_to_square true", // null = off; an int with default_to_square is square
         "{\"image_processor_type\": \"BitImageProcessor\", \"do_center_crop\": null, \"default_to_square\": true, \"size\": 40}",
         VIT_OK, "", VIT_RESIZE_SQUARE, 0, 1.0f, VIT_INTERP_BICUBIC, oa_m, oa_s},
        {"CLIP: crop_size bigger than the shortest edge (zero padding)",
         "{\"image_processor_type\": \"CLIPImageProcessor\", \"size\": {\"shortest_edge\": 200}, \"crop_size\": {\"width\": 250, \"height\": 250}}",
         VIT_OK, "", VIT_RESIZE_SHORTER_CROP_HF, 200, 1.25f, VIT_INTERP_BICUBIC, oa_m, oa_s},
        // refused: not reproduced
        {"no processor type", "{\"size\": 224}", VIT_ERROR_UNSUPPORTED, "no image_processor_type", NO_FIELDS},
        {"unknown processor type", "{\"image_processor_type\": \"ConvNextImageProcessor\"}", VIT_ERROR_UNSUPPORTED, "'ConvNextImageProcessor'", NO_FIELDS},
        {"a type that only ends like one", "{\"image_processor_type\": \"ImageProcessor\"}", VIT_ERROR_UNSUPPORTED, "'ImageProcessor'", NO_FIELDS},
        {"Siglip2 (NaFlex)", "{\"image_processor_type\": \"Siglip2ImageProcessor\"}", VIT_ERROR_UNSUPPORTED, "Siglip2ImageProcessor", NO_FIELDS},
        {"do_resize false", "{\"image_processor_type\": \"ViTImageProcessor\", \"do_resize\": false}", VIT_ERROR_UNSUPPORTED, "do_resize", NO_FIELDS},
        {"do_resize null", "{\"image_processor_type\": \"ViTImageProcessor\", \"do_resize\": null}", VIT_ERROR_UNSUPPORTED, "do_resize", NO_FIELDS},
        {"resample 1 (LANCZOS)", "{\"image_processor_type\": \"ViTImageProcessor\", \"resample\": 1}", VIT_ERROR_UNSUPPORTED, "resample 1 (LANCZOS)", NO_FIELDS},
        {"resample 4 (BOX)", "{\"image_processor_type\": \"ViTImageProcessor\", \"resample\": 4}", VIT_ERROR_UNSUPPORTED, "resample 4 (BOX)", NO_FIELDS},
        {"resample 5 (HAMMING)", "{\"image_processor_type\": \"ViTImageProcessor\", \"resample\": 5}", VIT_ERROR_UNSUPPORTED, "resample 5 (HAMMING)", NO_FIELDS},
        {"rescale_factor 1/127.5", "{\"image_processor_type\": \"ViTImageProcessor\", \"rescale_factor\": 0.00784313725490196}", VIT_ERROR_UNSUPPORTED, "rescale_factor", NO_FIELDS},
        {"rescale_factor 0.0039215 (rounded by hand)", "{\"image_processor_type\": \"ViTImageProcessor\", \"rescale_factor\": 0.0039215}", VIT_ERROR_UNSUPPORTED, "rescale_factor", NO_FIELDS},
        {"do_rescale false", "{\"image_processor_type\": \"ViTImageProcessor\", \"do_rescale\": false}", VIT_ERROR_UNSUPPORTED, "do_rescale", NO_FIELDS},
        {"do_pad true", "{\"image_processor_type\": \"ViTImageProcessor\", \"do_pad\": true}", VIT_ERROR_UNSUPPORTED, "do_pad", NO_FIELDS},
        {"size.longest_edge", "{\"image_processor_type\": \"CLIPImageProcessor\", \"size\": {\"shortest_edge\": 224, \"longest_edge\": 400}}",
         VIT_ERROR_UNSUPPORTED, "size.longest_edge", NO_FIELDS},
        {"size max_height/max_width", "{\"image_processor_type\": \"ViTImageProcessor\", \"size\": {\"max_height\": 224, \"max_width\": 224}}",
         VIT_ERROR_UNSUPPORTED, "size.max_height", NO_FIELDS},
        {"shortest edge without a crop", "{\"image_processor_type\": \"CLIPImageProcessor\", \"do_center_crop\": false}", VIT_ERROR_UNSUPPORTED, "do_center_crop", NO_FIELDS},
        {"Siglip int size = shortest edge, no crop", "{\"image_processor_type\": \"SiglipImageProcessor\", \"size\": 224}", VIT_ERROR_UNSUPPORTED, "shortest_edge", NO_FIELDS},
        {"non-square crop after the shortest edge",
         "{\"image_processor_type\": \"CLIPImageProcessor\", \"crop_size\": {\"height\": 224, \"width\": 256}}", VIT_ERROR_UNSUPPORTED, "not square", NO_FIELDS},
        {"non-square DeiT resize", "{\"image_processor_type\": \"DeiTImageProcessor\", \"size\": [256, 300]}", VIT_ERROR_UNSUPPORTED, "square", NO_FIELDS},
        // malformed
        {"not an object", "[1, 2]", VIT_ERROR_BAD_FORMAT, "not a JSON object", NO_FIELDS},
        {"type not a string", "{\"image_processor_type\": 7}", VIT_ERROR_BAD_FORMAT, "not a string", NO_FIELDS},
        {"flag not a bool", "{\"image_processor_type\": \"ViTImageProcessor\", \"do_resize\": 1}", VIT_ERROR_BAD_FORMAT, "do_resize", NO_FIELDS},
        {"size 0", "{\"image_processor_type\": \"ViTImageProcessor\", \"size\": 0}", VIT_ERROR_BAD_FORMAT, "'size'", NO_FIELDS},
        {"size 224.5", "{\"image_processor_type\": \"ViTImageProcessor\", \"size\": 224.5}", VIT_ERROR_BAD_FORMAT, "'size'", NO_FIELDS},
        {"size with only height", "{\"image_processor_type\": \"ViTImageProcessor\", \"size\": {\"height\": 224}}", VIT_ERROR_BAD_FORMAT, "'size'", NO_FIELDS},
        {"size with an unknown key", "{\"image_processor_type\": \"ViTImageProcessor\", \"size\": {\"height\": 224, \"width\": 224, \"depth\": 3}}",
         VIT_ERROR_BAD_FORMAT, "'size'", NO_FIELDS},
        {"size null", "{\"image_processor_type\": \"ViTImageProcessor\", \"size\": null}", VIT_ERROR_BAD_FORMAT, "'size'", NO_FIELDS},
        {"size beyond VIT_MAX_DIM", "{\"image_processor_type\": \"ViTImageProcessor\", \"size\": 99999999999}", VIT_ERROR_BAD_FORMAT, "'size'", NO_FIELDS},
        {"crop_size as shortest edge", "{\"image_processor_type\": \"CLIPImageProcessor\", \"crop_size\": {\"shortest_edge\": 224}}",
         VIT_ERROR_BAD_FORMAT, "crop_size", NO_FIELDS},
        {"crop_size null with a crop", "{\"image_processor_type\": \"CLIPImageProcessor\", \"crop_size\": null}", VIT_ERROR_BAD_FORMAT, "crop_size", NO_FIELDS},
        {"resample 7", "{\"image_processor_type\": \"ViTImageProcessor\", \"resample\": 7}", VIT_ERROR_BAD_FORMAT, "resample", NO_FIELDS},
        {"resample null", "{\"image_processor_type\": \"ViTImageProcessor\", \"resample\": null}", VIT_ERROR_BAD_FORMAT, "resample", NO_FIELDS},
        {"resample \"bicubic\"", "{\"image_processor_type\": \"ViTImageProcessor\", \"resample\": \"bicubic\"}", VIT_ERROR_BAD_FORMAT, "resample", NO_FIELDS},
        {"rescale_factor 1e300", "{\"image_processor_type\": \"ViTImageProcessor\", \"rescale_factor\": 1e300}", VIT_ERROR_UNSUPPORTED, "rescale_factor", NO_FIELDS},
        {"rescale_factor null", "{\"image_processor_type\": \"ViTImageProcessor\", \"rescale_factor\": null}", VIT_ERROR_BAD_FORMAT, "rescale_factor", NO_FIELDS},
        {"rescale_factor -1", "{\"image_processor_type\": \"ViTImageProcessor\", \"rescale_factor\": -1}", VIT_ERROR_BAD_FORMAT, "rescale_factor", NO_FIELDS},
        {"image_std with a 0", "{\"image_processor_type\": \"ViTImageProcessor\", \"image_std\": [0.5, 0, 0.5]}", VIT_ERROR_BAD_FORMAT, "image_std", NO_FIELDS},
        {"image_mean of 2 numbers", "{\"image_processor_type\": \"ViTImageProcessor\", \"image_mean\": [0.5, 0.5]}", VIT_ERROR_BAD_FORMAT, "image_mean", NO_FIELDS},
        {"image_mean 1e999", "{\"image_processor_type\": \"ViTImageProcessor\", \"image_mean\": 1e999}", VIT_ERROR_BAD_FORMAT, "image_mean", NO_FIELDS},
        {"image_std 1e300 (not a float)", "{\"image_processor_type\": \"ViTImageProcessor\", \"image_std\": [0.5, 1e300, 0.5]}", VIT_ERROR_BAD_FORMAT, "image_std", NO_FIELDS},
        {"image_mean null with do_normalize", "{\"image_processor_type\": \"ViTImageProcessor\", \"image_mean\": null}", VIT_ERROR_BAD_FORMAT, "image_mean", NO_FIELDS},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const pre_case *t = &cases[i];
        char name[160], err[VIT__ERR_LEN] = "";
        fmt(name, sizeof(name), "read_preprocessor: %s -> %s", t->what, vit_status_string(t->want));
        vit__json j;
        g_largest_alloc = 0;
        vit_status st = vit__json_parse(&j, t->json, strlen(t->json), NULL, err);
        if (st != VIT_OK) { check(0, name, "the test's JSON does not parse: %s", err); continue; }
        vit_config c, before;
        memset(&c, 0xA5, sizeof(c)); // a failure must leave every byte as it was
        memcpy(&before, &c, sizeof(c));
        st = vit__read_preprocessor(&j, 0, &c, err);
        vit__json_release(&j);
        int ok = st == t->want;
        if (st != VIT_OK) ok = ok && strstr(err, t->says) != NULL && !memcmp(&c, &before, sizeof(c));
        else ok = ok && c.resize == t->resize && c.resize_shorter == t->shorter && c.crop_pct == t->crop_pct && c.interpolation == t->interp &&
                  c.mean[0] == t->mean0 && c.std[0] == t->std0;
        check(ok, name, "%s%s%s; resize %d, resize_shorter %d, crop_pct %g, interpolation %d, mean[0] %g, std[0] %g",
              vit_status_string(st), err[0] ? ": " : "", err, st == VIT_OK ? (int)c.resize : -1, st == VIT_OK ? c.resize_shorter : -1,
              st == VIT_OK ? (double)c.crop_pct : -1.0, st == VIT_OK ? (int)c.interpolation : -1, st == VIT_OK ? (double)c.mean[0] : -1.0,
              st == VIT_OK ? (double)c.std[0] : -1.0);
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

    check_geometry(dir);
    check_read_preprocessor();
    check_stated(dir);

    // rgb8: a model per kind (RGB shorter-side crop, gray, HF square, non-square timm, HF shortest edge at a non-square size) if present
    static const char *rgb8_models[] = {"bilinear96", "gray28", "hf32", "timm24x40", "dinov2_24x40"};
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
        check_geometry_edges(any);
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
