// test_images: odd images of the real world decoded as PIL does.
//
// usage: test_images IMAGES PREPROCESS   (IMAGES = tests/data/images, written by
//                                         tools/make_image_corpus.py; PREPROCESS =
//                                         tests/data/preprocess, for its models)
//
// For every `ok` file of IMAGES/manifest.txt (transparent and disposal GIFs,
// 16-bit PNG/PGM, TGA with each origin and RLE, RLE4/RLE8 and OS/2 BMPs, plain
// PNM, palette variants, out-of-range indices): vit.h's decoded pixels must equal
// PIL's Image.open(f).convert('RGB') (<file>.rgb) exactly, and vit_preprocess_file
// must give timm's eval transform bit-exactly, for a 3-channel model (pad40:
// bicubic, zero padding; <file>.pad40.u8) and a 1-channel one (gray28, from
// convert('L'); <file>.gray28.u8); JPEG within 4 levels (README). Every `refuse` file must fail with the status
// named there and a message, allocating less than 1 MB on the way. Also the decoder hook (vit_image_decoder): pass,
// decode, fail with a message, a bad image, and free called once per image.
#include "test_util.h"
static size_t g_largest_alloc; // largest single VIT_MALLOC request since the last reset
static void *test_malloc(size_t size) {
    if (size > g_largest_alloc) g_largest_alloc = size;
    return malloc(size);
}
#define VIT_MALLOC(sz) test_malloc(sz)
#define VIT_FREE(p) free(p)
#define VIT_IMPLEMENTATION
#include "../vit.h"

static const char *g_dir;

static void path(char *buf, size_t n, const char *name, const char *suffix) { fmt(buf, n, "%s/%s%s", g_dir, name, suffix); }

// vit_preprocess_file against a u8 (C, H, W) reference: exact when every value is within 0.01 level.
static double preprocess_diff(vit_model *m, const char *file, const char *ref_suffix, vit_status *st) {
    const vit_config *c = vit_model_config(m);
    size_t n = (size_t)c->in_chans * c->image_height * c->image_width, rn = 0;
    float *out = (float *)malloc(n * sizeof(float));
    char p[512];
    path(p, sizeof(p), file, ref_suffix);
    unsigned char *ref = read_all(p, &rn);
    double worst = 1e9;
    path(p, sizeof(p), file, "");
    *st = vit_preprocess_file(m, p, out);
    if (ref && rn == n && *st == VIT_OK) {
        worst = 0;
        for (size_t i = 0; i < n; i++) {
            int k = (int)(i / ((size_t)c->image_height * c->image_width));
            double want = (ref[i] / 255.0f - c->mean[k]) / c->std[k];
            double d = fabs(out[i] - want) * c->std[k] * 255.0;
            if (d > worst) worst = d;
        }
    }
    free(out);
    free(ref);
    return worst;
}

typedef struct hook_state {
    int mode;  // 0: not mine, 1: a 3x2 RGBA image, 2: fail with a message, 3: a bad image
    int frees; // free calls
    unsigned char px[2 * 16];
} hook_state;

static int test_decode(const void *data, size_t size, vit_image *img, char *message, void *user) {
    hook_state *s = (hook_state *)user;
    (void)data; (void)size;
    if (s->mode == 0) return 0;
    if (s->mode == 2) {
        snprintf(message, VIT_IMAGE_MESSAGE_LEN, "not a real WebP");
        return -1;
    }
    img->pixels = s->px;
    img->width = 3;
    img->height = 2;
    img->channels = s->mode == 3 ? 5 : 4;
    img->stride = 16; // padded rows
    img->owner = s;
    return 1;
}

static void test_free(vit_image *img, void *user) {
    hook_state *s = (hook_state *)user;
    if (img->owner == s) s->frees++;
}

static void test_hook(vit_model *m, const char *png) {
    const vit_config *c = vit_model_config(m);
    size_t n = (size_t)c->in_chans * c->image_height * c->image_width;
    float *a = (float *)malloc(n * sizeof(float)), *b = (float *)malloc(n * sizeof(float));
    hook_state s;
    memset(&s, 0, sizeof(s));
    for (int i = 0; i < 32; i++) s.px[i] = (unsigned char)(i * 37 + 11);
    vit_image_decoder d;
    memset(&d, 0, sizeof(d));
    d.decode = test_decode;
    d.free = test_free;
    d.user_data = &s;
    vit_status st1 = vit_preprocess_file(m, png, a), st2 = vit_preprocess_file_with(m, png, &d, b);
    check(st1 == VIT_OK && st2 == VIT_OK && !memcmp(a, b, n * sizeof(float)) && s.frees == 0, "hook: 0 = not mine, vit.h decodes", "%d %d", st1, st2);
    s.mode = 1;
    st1 = vit_preprocess_rgb8(m, s.px, 3, 2, 16, 4, a);
    st2 = vit_preprocess_memory_with(m, "RIFF", 4, &d, b);
    check(st1 == VIT_OK && st2 == VIT_OK && !memcmp(a, b, n * sizeof(float)) && s.frees == 1, "hook: decoded image = vit_preprocess_rgb8, freed once", "frees %d", s.frees);
    s.mode = 2;
    st2 = vit_preprocess_memory_with(m, "RIFF", 4, &d, b);
    check(st2 == VIT_ERROR_IMAGE_DECODE && strstr(vit_last_error(m), "not a real WebP") && s.frees == 1, "hook: -1 = VIT_ERROR_IMAGE_DECODE with its message", "%s", vit_last_error(m));
    s.mode = 3;
    st2 = vit_preprocess_memory_with(m, "RIFF", 4, &d, b);
    check(st2 == VIT_ERROR_IMAGE_DECODE && s.frees == 2, "hook: a bad image is refused and still freed", "%s", vit_last_error(m));
    st2 = vit_preprocess_memory_with(m, "RIFF", 4, NULL, b);
    check(st2 == VIT_ERROR_IMAGE_DECODE, "no hook: WebP refused", "%s", vit_last_error(m));
    // vit_decode_memory through the hook: its pixels copied (packed), the hook's image freed at once
    s.mode = 1;
    vit_image img;
    st2 = vit_decode_memory(m, "RIFF", 4, &d, &img);
    int same = st2 == VIT_OK && img.width == 3 && img.height == 2 && img.channels == 4 && img.stride == 12 && s.frees == 3;
    for (int y = 0; same && y < 2; y++) same = !memcmp(img.pixels + y * 12, s.px + y * 16, 12);
    vit_image_free(m, &img);
    check(same && img.pixels == NULL, "hook: vit_decode_memory copies the hook's pixels, packed, and frees its image", "frees %d", s.frees);
    st2 = vit_decode_memory(m, NULL, 4, &d, &img);
    check(st2 == VIT_ERROR_INVALID_ARGUMENT && img.pixels == NULL && strstr(vit_last_error(m), "vit_decode_memory"), "vit_decode_memory: NULL data", "%s", vit_last_error(m));
    check(vit_decode_file(m, NULL, NULL, &img) == VIT_ERROR_INVALID_ARGUMENT && vit_decode_file(m, "x", NULL, NULL) == VIT_ERROR_INVALID_ARGUMENT &&
          vit_decode_file(NULL, "x", NULL, &img) == VIT_ERROR_INVALID_ARGUMENT, "vit_decode_file: NULL arguments", "%s", vit_last_error(m));
    vit_image_free(NULL, &img);
    vit_image_free(m, NULL);
    free(a);
    free(b);
}

// vit_embed_file is vit_preprocess_file + vit_embed, to the bit; its refusals name the problem.
static void test_embed_file(vit_model *m, const char *png, const char *what) {
    const vit_config *c = vit_model_config(m);
    size_t pixels = (size_t)c->in_chans * c->image_height * c->image_width, dim = (size_t)c->dim;
    float *image = (float *)malloc(pixels * sizeof(float)), *a = (float *)malloc((dim + 1) * sizeof(float)), *b = (float *)malloc(dim * sizeof(float));
    for (size_t i = 0; i < dim; i++) a[i] = b[i] = NAN;
    a[dim] = 12345.0f; // guard: exactly dim floats are written
    vit_status sa = vit_embed_file(m, png, a), sb = vit_preprocess_file(m, png, image);
    if (sb == VIT_OK) sb = vit_embed(m, image, 1, b);
    check(sa == VIT_OK && sb == VIT_OK && !memcmp(a, b, dim * sizeof(float)) && a[dim] == 12345.0f, "embed_file",
          "%s: vit_embed_file = vit_preprocess_file + vit_embed (%zu floats, bits): %s, %s", what, dim,
          vit_status_string(sa), vit_status_string(sb));
    char missing[600];
    fmt(missing, sizeof(missing), "%s.missing", png);
    sa = vit_embed_file(m, missing, a);
    check(sa == VIT_ERROR_IO && strstr(vit_last_error(m), ".missing"), "embed_file", "%s: a missing file: %s: %s", what, vit_status_string(sa), vit_last_error(m));
    check(vit_embed_file(m, NULL, a) == VIT_ERROR_INVALID_ARGUMENT && vit_embed_file(m, png, NULL) == VIT_ERROR_INVALID_ARGUMENT &&
              vit_embed_file(NULL, png, a) == VIT_ERROR_INVALID_ARGUMENT,
          "embed_file", "%s: NULL model, path or out: VIT_ERROR_INVALID_ARGUMENT", what);
    free(image); free(a); free(b);
}

// The preprocessing is never guessed. A model whose files do not state it (no config.json; a
// Hugging Face config.json without preprocessor_config.json) is refused by every call that preprocesses,
// naming the missing file, while vit_embed on floats works; vit_options mean/std/interpolation/crop_pct
// state it, and then the pixels are timm's for that transform (the bilinear96 reference, made by
// tools/make_preprocess_reference.py from timm's create_transform). preprocess_source says where it came from.
static void test_preprocess_source(const char *pre, const char *ref) {
    char mp[512], img[512], cp[512];
    fmt(mp, sizeof(mp), "%s/bilinear96/model.safetensors", pre);
    fmt(img, sizeof(img), "%s/images/chelsea.png", pre);
    vit_options none = {0};
    none.config_path = ""; // the same weights without their config.json (its one head stated)
    none.num_heads = 1;
    vit_model *m = NULL, *cfgd = NULL;
    vit_status st = vit_load(mp, &none, &m);
    const vit_config *c = st == VIT_OK ? vit_model_config(m) : NULL;
    check(c && c->preprocess_source == VIT_PREPROCESS_UNKNOWN && !strcmp(c->preprocess_from, "config.json"), "preprocess source",
          "no config.json: UNKNOWN, missing 'config.json': %s", c ? c->preprocess_from : vit_last_error(NULL));
    if (c) {
        size_t px = (size_t)c->in_chans * c->image_height * c->image_width;
        float *out = (float *)calloc(px, sizeof(float)), *feat = (float *)malloc((size_t)c->dim * sizeof(float));
        int *cls = (int *)malloc(sizeof(int));
        unsigned char rgb[12] = {0};
        vit_status s1 = vit_preprocess_file(m, img, out), s2 = vit_preprocess_rgb8(m, rgb, 2, 2, 0, 3, out);
        vit_status s3 = vit_forward_rgb8(m, rgb, 1, 2, 2, 0, 3, feat), s4 = vit_classify_file(m, img, 1, cls, NULL);
        vit_status s5 = vit_embed_file(m, img, feat);
        check(s1 == VIT_ERROR_UNSUPPORTED && s2 == VIT_ERROR_UNSUPPORTED && s3 == VIT_ERROR_UNSUPPORTED && s4 == VIT_ERROR_UNSUPPORTED &&
                  s5 == VIT_ERROR_UNSUPPORTED && strstr(vit_last_error(m), "config.json not found") && strstr(vit_last_error(m), "vit_options"),
              "preprocess refused", "no config.json: file, rgb8, forward_rgb8, classify, embed_file: %s %s %s %s %s: %s", vit_status_string(s1),
              vit_status_string(s2), vit_status_string(s3), vit_status_string(s4), vit_status_string(s5), vit_last_error(m));
        memset(out, 0, px * sizeof(float));
        st = vit_embed(m, out, 1, feat);
        check(st == VIT_OK, "preprocess refused", "no config.json: vit_embed on floats still runs: %s", vit_status_string(st));
        free(out); free(feat); free(cls);
    }
    vit_free(m);
    m = NULL;
    // stated: bilinear96's own transform (mean/std 0.5, bilinear, crop_pct 0.875) through vit_options
    vit_options o = none;
    for (int i = 0; i < 3; i++) { o.mean[i] = 0.5f; o.std[i] = 0.5f; }
    o.interpolation = "bilinear";
    o.crop_pct = 0.875f;
    st = vit_load(mp, &o, &m);
    c = st == VIT_OK ? vit_model_config(m) : NULL;
    check(c && c->preprocess_source == VIT_PREPROCESS_FROM_OPTIONS && !strcmp(c->preprocess_from, "vit_options") && c->interpolation == VIT_INTERP_BILINEAR &&
              c->crop_pct == 0.875f && c->resize == VIT_RESIZE_SHORTER_CROP,
          "preprocess source", "stated in vit_options: FROM_OPTIONS: %s", c ? c->preprocess_from : vit_last_error(NULL));
    st = vit_load(mp, NULL, &cfgd);
    const vit_config *cc = st == VIT_OK ? vit_model_config(cfgd) : NULL;
    check(cc && cc->preprocess_source == VIT_PREPROCESS_FROM_TIMM_CONFIG && !strcmp(cc->preprocess_from, "config.json pretrained_cfg"), "preprocess source",
          "timm config.json with pretrained_cfg: FROM_TIMM_CONFIG: %s", cc ? cc->preprocess_from : vit_last_error(NULL));
    if (c && cc) {
        size_t px = (size_t)c->in_chans * c->image_height * c->image_width, n = 0;
        float *a = (float *)malloc(px * sizeof(float)), *b = (float *)malloc(px * sizeof(float));
        vit_status sa = vit_preprocess_file(m, img, a), sb = vit_preprocess_file(cfgd, img, b);
        fmt(cp, sizeof(cp), "%s/bilinear96/chelsea.u8", pre);
        unsigned char *u8 = read_all(cp, &n);
        double worst = 1e9;
        if (sa == VIT_OK && u8 && n == px) {
            worst = 0;
            for (size_t i = 0; i < px; i++) { // in 8-bit levels, as test_preprocess counts them
                double d = fabs(((double)u8[i] / 255.0 - 0.5) / 0.5 - a[i]) * 0.5 * 255.0;
                if (d > worst) worst = d;
            }
        }
        check(sa == VIT_OK && worst <= 2.0, "preprocess stated", "vit_options' transform against timm's (bilinear96/chelsea.u8): max %.3f levels (%s)", worst,
              vit_status_string(sa));
        check(sa == VIT_OK && sb == VIT_OK && !memcmp(a, b, px * sizeof(float)), "preprocess stated",
              "vit_options' transform = the same transform from config.json's pretrained_cfg, to the bit");
        free(a); free(b); free(u8);
    }
    vit_free(m); vit_free(cfgd);
    m = NULL;
    // timm: config.json without pretrained_cfg (the key renamed in memory)
    {
        size_t nb = 0, njs = 0;
        fmt(cp, sizeof(cp), "%s/bilinear96/config.json", pre);
        unsigned char *js = read_all(cp, &njs), *w = read_all(mp, &nb);
        char *k = js ? strstr((char *)js, "\"pretrained_cfg\"") : NULL;
        if (k) memcpy(k, "\"pretrained_xfg\"", 16);
        vit_options t = {0};
        t.config_json = (const char *)js;
        st = k && w ? vit_load_memory(w, nb, &t, &m) : VIT_ERROR_IO;
        c = st == VIT_OK ? vit_model_config(m) : NULL;
        check(c && c->preprocess_source == VIT_PREPROCESS_UNKNOWN && !strcmp(c->preprocess_from, "config.json pretrained_cfg"), "preprocess source",
              "timm config.json without pretrained_cfg: UNKNOWN: %s", c ? c->preprocess_from : vit_last_error(NULL));
        if (c) {
            float *out = (float *)calloc((size_t)c->in_chans * c->image_height * c->image_width, sizeof(float));
            st = vit_preprocess_file(m, img, out);
            check(st == VIT_ERROR_UNSUPPORTED && strstr(vit_last_error(m), "config.json has no pretrained_cfg"), "preprocess refused",
                  "timm config.json without pretrained_cfg: %s: %s", vit_status_string(st), vit_last_error(m));
            free(out);
        }
        vit_free(m);
        m = NULL;
        free(js); free(w);
    }
    // Hugging Face: config.json without preprocessor_config.json (from memory: none is ever given)
    size_t ns = 0, nc = 0;
    fmt(mp, sizeof(mp), "%s/hf_vit/model.safetensors", ref);
    fmt(cp, sizeof(cp), "%s/hf_vit/config.json", ref);
    unsigned char *st_bytes = read_all(mp, &ns), *cj = read_all(cp, &nc);
    vit_options h = {0};
    h.config_json = (const char *)cj;
    st = st_bytes && cj ? vit_load_memory(st_bytes, ns, &h, &m) : VIT_ERROR_IO;
    c = st == VIT_OK ? vit_model_config(m) : NULL;
    check(c && c->preprocess_source == VIT_PREPROCESS_UNKNOWN && !strcmp(c->preprocess_from, "preprocessor_config.json"), "preprocess source",
          "HF config.json alone: UNKNOWN, missing 'preprocessor_config.json': %s", c ? c->preprocess_from : vit_last_error(NULL));
    if (c) {
        size_t px = (size_t)c->in_chans * c->image_height * c->image_width;
        float *out = (float *)calloc(px, sizeof(float)), *feat = (float *)malloc((size_t)c->dim * sizeof(float));
        st = vit_preprocess_file(m, img, out);
        check(st == VIT_ERROR_UNSUPPORTED && strstr(vit_last_error(m), "preprocessor_config.json not found"), "preprocess refused",
              "HF without preprocessor_config.json: %s: %s", vit_status_string(st), vit_last_error(m));
        st = vit_embed(m, out, 1, feat);
        check(st == VIT_OK, "preprocess refused", "HF without preprocessor_config.json: vit_embed on floats runs: %s", vit_status_string(st));
        free(out); free(feat);
    }
    vit_free(m);
    m = NULL;
    fmt(mp, sizeof(mp), "%s/hf_vit/model.safetensors", ref);
    st = vit_load(mp, NULL, &m);
    c = st == VIT_OK ? vit_model_config(m) : NULL;
    check(c && c->preprocess_source == VIT_PREPROCESS_FROM_HF_PROCESSOR && !strcmp(c->preprocess_from, "preprocessor_config.json"), "preprocess source",
          "HF with preprocessor_config.json: FROM_HF_PROCESSOR: %s", c ? c->preprocess_from : vit_last_error(NULL));
    vit_free(m);
    // half-stated options are refused at load
    vit_options bad = {0};
    bad.interpolation = "bilinear";
    m = NULL;
    check(vit_load(mp, &bad, &m) == VIT_ERROR_INVALID_ARGUMENT && !m, "preprocess stated", "interpolation without std: VIT_ERROR_INVALID_ARGUMENT: %s", vit_last_error(NULL));
    free(st_bytes); free(cj);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s tests/data/images tests/data/preprocess\n", argv[0]);
        return 2;
    }
    g_dir = argv[1];
    char p[512], line[512];
    vit_model *rgb = NULL, *gray = NULL;
    fmt(p, sizeof(p), "%s/pad40/model.safetensors", argv[2]);
    if (vit_load(p, NULL, &rgb) != VIT_OK) { fprintf(stderr, "%s: %s\n", p, vit_last_error(NULL)); return 1; }
    fmt(p, sizeof(p), "%s/gray28/model.safetensors", argv[2]);
    if (vit_load(p, NULL, &gray) != VIT_OK) { fprintf(stderr, "%s: %s\n", p, vit_last_error(NULL)); return 1; }
    path(p, sizeof(p), "manifest.txt", "");
    FILE *f = fopen(p, "r");
    if (!f) { fprintf(stderr, "cannot open %s\n", p); return 1; }
    int n_ok = 0, n_refused = 0;
    while (fgets(line, sizeof(line), f)) {
        char kind[16], name[256], what[64];
        int w = 0, h = 0;
        if (line[0] == '#' || sscanf(line, "%15s %255s", kind, name) != 2) continue;
        if (!strcmp(kind, "ok") && sscanf(line, "%*s %*s %d %d %63s", &w, &h, what) == 3) {
            size_t size = 0, rn = 0;
            path(p, sizeof(p), name, "");
            unsigned char *file = read_all(p, &size), *data = file ? exact_copy(file, size) : NULL, *px = NULL;
            path(p, sizeof(p), name, ".rgb");
            unsigned char *ref = read_all(p, &rn);
            int dw = 0, dh = 0, ch = 0, from_stb = 0, worst = -1;
            vit_status st = data && ref ? vit__decode_image(rgb, data, size, &px, &dw, &dh, &ch, &from_stb) : VIT_ERROR_IO;
            // JPEG: stb_image and libjpeg-turbo differ by a few levels (README: 4 levels after the resize)
            int tol = strstr(name, ".jpg") ? 4 : 0;
            if (st == VIT_OK && dw == w && dh == h && rn == (size_t)w * h * 3) {
                worst = 0;
                for (size_t i = 0; i < (size_t)w * h * 3; i++) {
                    int d = abs(px[ch == 1 ? i / 3 : i] - ref[i]);
                    if (d > worst) worst = d;
                }
            }
            if (px && from_stb) stbi_image_free(px);
            else if (px) free(px);
            check(worst >= 0 && worst <= tol, "decode", "%-30s %-5s %dx%d: max %d levels from PIL convert('RGB') %s", name, what, w, h, worst,
                  st != VIT_OK ? vit_last_error(rgb) : worst > tol ? "differs" : tol ? "(JPEG: 4 allowed)" : "");
            // vit_decode_file + vit_preprocess_rgb8: the bits of vit_preprocess_file
            {
                const vit_config *c = vit_model_config(rgb);
                size_t n = (size_t)c->in_chans * c->image_height * c->image_width;
                float *a = (float *)malloc(n * sizeof(float)), *b = (float *)malloc(n * sizeof(float));
                vit_image img;
                path(p, sizeof(p), name, "");
                vit_status sa = vit_preprocess_file(rgb, p, a), sb = vit_decode_file(rgb, p, NULL, &img);
                int dims = sb == VIT_OK && img.width == w && img.height == h && img.stride == img.width * img.channels;
                if (sb == VIT_OK) sb = vit_preprocess_rgb8(rgb, img.pixels, img.width, img.height, img.stride, img.channels, b);
                vit_image_free(rgb, &img);
                check(sa == VIT_OK && sb == VIT_OK && dims && !memcmp(a, b, n * sizeof(float)) && img.pixels == NULL, "decode api",
                      "%-30s vit_decode_file %dx%d + vit_preprocess_rgb8 = vit_preprocess_file (bits)", name, w, h);
                free(a); free(b);
            }
            vit_status s3, s1;
            double d3 = preprocess_diff(rgb, name, ".pad40.u8", &s3), d1 = preprocess_diff(gray, name, ".gray28.u8", &s1);
            check(d3 <= tol + 0.01 && d1 <= tol + 0.01, "preprocess", "%-30s timm pad40 (3 ch) max %.3g levels, gray28 (L) max %.3g levels%s%s", name, d3, d1,
                  s3 != VIT_OK ? vit_last_error(rgb) : "", s1 != VIT_OK ? vit_last_error(gray) : "");
            free(file); free(data); free(ref);
            n_ok++;
        } else if (!strcmp(kind, "refuse") && sscanf(line, "%*s %*s %63s", what) == 1) {
            float out[3 * 40 * 40];
            path(p, sizeof(p), name, "");
            vit_status want = !strcmp(what, "LIMIT") ? VIT_ERROR_LIMIT : VIT_ERROR_IMAGE_DECODE;
            g_largest_alloc = 0;
            vit_status st = vit_preprocess_file(rgb, p, out);
            check(st == want && strlen(vit_last_error(rgb)) > 0 && g_largest_alloc < (1 << 20), "refused", "%-30s %s (largest allocation %zu bytes): %s",
                  name, vit_status_string(st), g_largest_alloc, vit_last_error(rgb));
            vit_image img;
            st = vit_decode_file(rgb, p, NULL, &img);
            check(st == want && img.pixels == NULL && img.width == 0, "refused", "%-30s vit_decode_file: %s", name, vit_status_string(st));
            n_refused++;
        }
    }
    fclose(f);
    check(n_ok >= 60 && n_refused >= 10, "manifest", "%d decoded, %d refused", n_ok, n_refused);
    path(p, sizeof(p), "pal_trns.png", "");
    test_hook(rgb, p);
    test_embed_file(rgb, p, "pad40 (a head)");
    // a model without a head (beside tests/data/preprocess: tests/data/ref), and vit_config.architecture
    static const struct { const char *dir, *architecture; } named[] = {
        {"hf_vitmodel_headless", "ViTModel"}, {"hf_clip_vision_proj", "CLIPVisionModelWithProjection"},
        {"timm_noembedclass_nohead", "vit_tiny_patch16_224"}, {"timm_reg4_dinov2", "vit_small_patch14_reg4_dinov2"}, {"timm_noconfig", ""}};
    for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
        char mp[512];
        vit_model *m = NULL;
        fmt(mp, sizeof(mp), "%s/../ref/%s/model.safetensors", argv[2], named[i].dir);
        vit_status st = vit_load(mp, NULL, &m);
        const vit_config *c = st == VIT_OK ? vit_model_config(m) : NULL;
        check(c && !strcmp(c->architecture, named[i].architecture), "architecture", "%s: '%s' (want '%s')", named[i].dir,
              c ? c->architecture : vit_last_error(NULL), named[i].architecture);
        if (c && c->num_classes == 0) test_embed_file(m, p, named[i].dir);
        vit_free(m);
    }
    fmt(p, sizeof(p), "%s/../ref", argv[2]);
    test_preprocess_source(argv[2], p);
    vit_free(rgb);
    vit_free(gray);
    return check_summary();
}
