// test_text: text towers (full CLIPModel / SiglipModel files) against the
// references tools/make_text_reference.py dumped (transformers in float64,
// tests/data/text/README.md): vit_encode_ids' text embeddings,
// vit_image_embeds' image embeddings, and vit_zero_shot's logits and
// probabilities. Pass when max|ours - ref| / max|ref| <= 1e-4 (fp32) for the
// embeddings and logits, and |ours - ref| <= 1e-4 for the probabilities; the
// embeddings within test_model's tolerances in int8 (5e-2) and with the bf16
// residual stream (2e-2), in fp8 within 2e-1 (the largest, 1.71e-1: the
// text embeddings of siglip_tokenizer, a 16-wide tower whose linears sum 16
// or 32 e4m3 products; test_model's fp32-stream 1.5e-1 holds for the others).
// vit_zero_shot on the reference's own embeddings within 1e-5. Then the
// refusals: ids out of the vocabulary, a CLIP text without its end-of-text
// token, bad counts and pointers, models without a text tower, config.json
// values that disagree with the tensors or that vit.h does not compute.
//
// The openclip_* cases (tools/make_openclip_reference.py: open_clip's own
// save_for_hf folders, open_clip_model.safetensors + open_clip_config.json)
// go through the same checks (the scoring each expects read from text.bin:
// sigmoid when its probabilities are the logits' sigmoids), and through
// open_clip's image preprocessing (preprocess.bin, run_preprocess: a lossless
// image within 1e-3 of an 8-bit level, a JPEG within 4 levels and a mean of 0.1).
//
// usage: test_text DIR...   (each DIR holds model.safetensors and config.json, or
//                            open_clip_model.safetensors and open_clip_config.json; text.bin)
// The library is not built here: make links build/vit.o (as test_model), other
// builds (sanitizers, ARM) add -DVIT_IMPLEMENTATION.
#include "../vit.h"
#include "test_util.h"

#define TOL 1e-4
#define TOL_PROB 1e-4
#define TOL_SCORE 1e-5
#define TOL_INT8 5e-2
#define TOL_FP8 2e-1
#define TOL_RES16 2e-2
#define TOL_HALF 2e-2   // bf16 / fp16 on the GPU
#define GUARD 16 // floats after every output that must stay untouched

static char g_parent[1024]; // the folder holding the cases (for the refusals' models)

// out (n floats + GUARD): NaN, then the guard's pattern
static float *poisoned(size_t n) {
    float *p = (float *)malloc((n + GUARD) * sizeof(float));
    for (size_t i = 0; i < n; i++) p[i] = NAN;
    for (size_t i = n; i < n + GUARD; i++) p[i] = 12345.0f;
    return p;
}

static int guard_ok(const float *p, size_t n) {
    for (size_t i = n; i < n + GUARD; i++)
        if (p[i] != 12345.0f) return 0;
    return 1;
}

static double max_abs(const float *a, const float *b, size_t n) {
    double e = 0.0;
    for (size_t i = 0; i < n; i++) {
        double d = fabs((double)a[i] - b[i]);
        if (!(d <= e)) e = d; // NaN: stays NaN
    }
    return e;
}

// The scoring the reference used: sigmoid when every probability is its logit's
// sigmoid (SigLIP, and open_clip models with a logit_bias), else softmax over the texts.
static vit_match ref_match(const text_ref *r) {
    for (size_t i = 0; i < (size_t)r->n * r->k; i++)
        if (!(fabs(1.0 / (1.0 + exp(-(double)r->logits[i])) - r->probs[i]) <= 1e-6)) return VIT_MATCH_SOFTMAX;
    return VIT_MATCH_SIGMOID;
}

static vit_device g_device = VIT_DEVICE_CPU; // --cuda: the cases on the GPU (the text tower there in the model's dtype)

static int run_case(const char *dir, int max_batch, int threads, vit_dtype dtype, vit_dtype residual) {
    char path[1200], name[1400];
    text_ref r;
    snprintf(path, sizeof(path), "%s/text.bin", dir);
    if (!read_text_ref(path, &r)) return check(0, dir, "cannot read %s", path);
    int r16 = residual == VIT_DTYPE_BF16 || (residual == VIT_DTYPE_DEFAULT && dtype == VIT_DTYPE_FP8);
    snprintf(name, sizeof(name), "%s (batch %d, threads %d%s%s)", dir, max_batch, threads,
             dtype == VIT_DTYPE_INT8 ? ", int8" : dtype == VIT_DTYPE_FP8 ? ", fp8" : "", r16 ? ", bf16 residual stream" : "");
    vit_options o;
    memset(&o, 0, sizeof(o));
    o.max_batch = max_batch;
    o.num_threads = threads;
    o.device = g_device;
    o.dtype = dtype;
    o.residual_dtype = residual;
    vit_model *m = NULL;
    vit_status st = vit_load(dir, &o, &m);
    if (st == VIT_OK) { // the dtype it runs in (the GPU's default is bf16)
        dtype = vit_model_config(m)->dtype;
        r16 = vit_model_config(m)->residual_dtype == VIT_DTYPE_BF16;
        snprintf(name, sizeof(name), "%s (%s, batch %d, threads %d, %s%s)", dir, g_device == VIT_DEVICE_CUDA ? "cuda" : "cpu", max_batch, threads,
                 dtype == VIT_DTYPE_INT8 ? "int8" : dtype == VIT_DTYPE_FP8 ? "fp8" : dtype == VIT_DTYPE_BF16 ? "bf16" : dtype == VIT_DTYPE_F16 ? "fp16" : "fp32",
                 r16 ? ", bf16 residual stream" : "");
    }
    if (st != VIT_OK && g_device == VIT_DEVICE_CUDA && dtype == VIT_DTYPE_FP8 && st == VIT_ERROR_UNSUPPORTED) { // (a width the e4m3 GEMMs cannot take: refused, as it must be)
        printf("SKIP %s: %s\n", name, vit_last_error(NULL));
        free_text_ref(&r);
        return 1;
    }
    if (st != VIT_OK) {
        free_text_ref(&r);
        return check(0, name, "load: %s: %s", vit_status_string(st), vit_last_error(NULL));
    }
    const vit_config *c = vit_model_config(m);
    int ok = check(c->has_text && c->text_context == r.L && c->embed_dim == r.E && c->text_vocab > 0 &&
                       c->match == ref_match(&r) && c->logit_scale > 0.0f,
                   name, "config: has_text %d, context %d (want %d), embed_dim %d (want %d), vocab %d, match %d, logit_scale %g", c->has_text, c->text_context, r.L,
                   c->embed_dim, r.E, c->text_vocab, (int)c->match, (double)c->logit_scale);
    size_t nt = (size_t)r.k * r.E, ni = (size_t)r.n * r.E, nl = (size_t)r.n * r.k;
    float *txt = poisoned(nt), *img = poisoned(ni), *lg = poisoned(nl), *pr = poisoned(nl);
    int half = dtype == VIT_DTYPE_BF16 || dtype == VIT_DTYPE_F16, low = dtype == VIT_DTYPE_INT8 || dtype == VIT_DTYPE_FP8 || r16 || half;
    double tol = dtype == VIT_DTYPE_FP8 ? TOL_FP8 : dtype == VIT_DTYPE_INT8 ? TOL_INT8 : half ? TOL_HALF : r16 ? TOL_RES16 : TOL;
    if (ok && (st = vit_encode_ids(m, r.ids, r.k, txt)) != VIT_OK) ok = check(0, name, "vit_encode_ids: %s", vit_last_error(m));
    if (ok && (st = vit_image_embeds(m, r.images, r.n, img)) != VIT_OK) ok = check(0, name, "vit_image_embeds: %s", vit_last_error(m));
    if (ok && (st = vit_zero_shot(m, img, r.n, txt, r.k, lg, pr)) != VIT_OK) ok = check(0, name, "vit_zero_shot: %s", vit_last_error(m));
    if (ok) {
        double et = rel_err(txt, r.text_embeds, nt), ei = rel_err(img, r.image_embeds, ni);
        double el = low ? 0.0 : rel_err(lg, r.logits, nl), ep = low ? 0.0 : max_abs(pr, r.probs, nl);
        int guards = guard_ok(txt, nt) && guard_ok(img, ni) && guard_ok(lg, nl) && guard_ok(pr, nl);
        char detail[256];
        if (low) snprintf(detail, sizeof(detail), "(logits and probs not compared at this precision)");
        else snprintf(detail, sizeof(detail), "logits %.2e, probs abs err %.2e (<= %g)", el, ep, TOL_PROB);
        ok = check(et <= tol && ei <= tol && el <= tol && ep <= TOL_PROB && guards, name, "text embeds rel err %.2e, image embeds %.2e (<= %g), %s%s", et, ei, tol,
                   detail, guards ? "" : "; GUARD OVERWRITTEN");
    }
    if (ok && !low) { // the scoring alone, on the reference's embeddings
        st = vit_zero_shot(m, r.image_embeds, r.n, r.text_embeds, r.k, lg, NULL);
        double el = st == VIT_OK ? rel_err(lg, r.logits, nl) : INFINITY;
        st = vit_zero_shot(m, r.image_embeds, r.n, r.text_embeds, r.k, NULL, pr);
        double ep = st == VIT_OK ? max_abs(pr, r.probs, nl) : INFINITY;
        ok = check(el <= TOL_SCORE && ep <= TOL_SCORE, name, "vit_zero_shot on the reference's embeddings: logits rel err %.2e, probs abs err %.2e (<= %g)", el, ep,
                   TOL_SCORE);
    }
    free(txt); free(img); free(lg); free(pr);
    vit_free(m);
    free_text_ref(&r);
    return ok;
}

// ---- texts through the model's tokenizer (the *_tokenizer cases: texts.txt)

typedef struct texts_file {
    char *data;          // the file, its lines cut in place
    char *tmpl;          // the template, or NULL
    const char **texts;  // k texts
    int k;
} texts_file;

static int read_texts(const char *dir, texts_file *tf) {
    char path[1200];
    size_t size;
    memset(tf, 0, sizeof(*tf));
    snprintf(path, sizeof(path), "%s/texts.txt", dir);
    tf->data = (char *)read_all(path, &size);
    if (!tf->data || strncmp(tf->data, "template ", 9) != 0) return 0;
    tf->texts = (const char **)malloc((size + 1) * sizeof(char *)); // (at most a text a byte)
    char *p = tf->data + 9, *nl = strchr(p, '\n');
    if (!nl) return 0;
    *nl = 0;
    tf->tmpl = *p ? p : NULL;
    for (p = nl + 1; p < tf->data + size; p = nl + 1) {
        nl = strchr(p, '\n');
        if (!nl) return 0;
        *nl = 0;
        tf->texts[tf->k++] = p;
    }
    return 1;
}

static int run_texts(const char *dir) {
    char path[1200];
    text_ref r;
    texts_file tf;
    memset(&tf, 0, sizeof(tf));
    snprintf(path, sizeof(path), "%s/text.bin", dir);
    if (!read_text_ref(path, &r) || !read_texts(dir, &tf) || tf.k != r.k) {
        free_text_ref(&r); free(tf.data); free(tf.texts);
        return check(0, dir, "%s", "cannot read text.bin and texts.txt (as many texts)");
    }
    vit_options o;
    memset(&o, 0, sizeof(o));
    o.device = g_device;
    o.dtype = VIT_DTYPE_F32; // (--cuda: fp32 there, for the 1e-4)
    vit_model *m = NULL;
    vit_tokenizer *t = NULL;
    vit_status st = vit_load(dir, &o, &m);
    int ok = check(st == VIT_OK, dir, "load: %s", vit_last_error(NULL));
    if (ok) ok = check((st = vit_tokenizer_load(dir, NULL, &t)) == VIT_OK, dir, "vit_tokenizer_load: %s", vit_tokenizer_last_error(NULL));
    if (ok) { // the tokenizer's ids are transformers' (test_tokenizer's business; here: the ones text.bin was made from)
        int *ids = (int *)malloc((size_t)r.L * sizeof(int)), same = 1;
        char buf[512];
        for (int i = 0; i < r.k && same; i++) {
            const char *s = tf.texts[i];
            if (tf.tmpl) { const char *at = strstr(tf.tmpl, "{}"); snprintf(buf, sizeof(buf), "%.*s%s%s", (int)(at - tf.tmpl), tf.tmpl, s, at + 2); s = buf; }
            same = vit_tokenize(t, s, strlen(s), ids, r.L, NULL) == VIT_OK && !memcmp(ids, r.ids + (size_t)i * r.L, (size_t)r.L * sizeof(int));
        }
        free(ids);
        check(same, dir, "%s", "vit_tokenize gives text.bin's ids");
    }
    if (ok) {
        size_t nt = (size_t)r.k * r.E;
        float *a = poisoned(nt), *b = poisoned(nt);
        st = vit_encode_texts(m, t, tf.texts, tf.k, tf.tmpl, a);
        vit_status st2 = vit_encode_ids(m, r.ids, r.k, b);
        double e = st == VIT_OK ? rel_err(a, r.text_embeds, nt) : INFINITY;
        ok = check(st == VIT_OK && st2 == VIT_OK && e <= TOL && !memcmp(a, b, nt * sizeof(float)) && guard_ok(a, nt), dir,
                   "vit_encode_texts (template %s%s%s): text embeds rel err %.2e (<= %g), the bits of vit_encode_ids: %s%s", tf.tmpl ? "'" : "",
                   tf.tmpl ? tf.tmpl : "none", tf.tmpl ? "'" : "", e, TOL, st == VIT_OK && st2 == VIT_OK && !memcmp(a, b, nt * sizeof(float)) ? "yes" : "NO",
                   st == VIT_OK ? "" : vit_last_error(m));
        free(a); free(b);
    }
    vit_tokenizer_free(t);
    vit_free(m);
    free_text_ref(&r); free(tf.data); free(tf.texts);
    return ok;
}

// ---- open_clip's image preprocessing (the openclip_* cases: preprocess.bin)
//
// preprocess.bin holds open_clip's eval transform (create_model_and_transforms'
// preprocess_val with the folder's preprocess_cfg: resize_mode, interpolation,
// mean/std) of a few images, float32 (C, H, W); vit_load of the folder then
// vit_preprocess_file must give the same. Differences are in 8-bit levels,
// |ours - ref| * std * 255, as in test_preprocess: a lossless image within
// PREP_TOL_LEVELS (the same 8-bit pixels as PIL's resize, up to the rounding of
// the normalisation), a JPEG within test_preprocess's 4 levels and a mean of
// 0.1 level (stb_image against PIL's libjpeg-turbo).

#define PREP_MAGIC 0x50455250 // "PREP"
#define PREP_TOL_LEVELS 1e-3
#define PREP_TOL_JPEG_LEVELS 4.0
#define PREP_TOL_JPEG_MEAN 0.1

static int same3(const float *a, const float *b) {
    for (int i = 0; i < 3; i++)
        if (!(fabs((double)a[i] - b[i]) <= 1e-7)) return 0;
    return 1;
}

// resized.bin (tools/make_openclip_reference.py): images at other sizes and
// open_clip's image embeddings there (force_image_size: the position
// embedding resampled at load, antialiased bicubic); rel. err <= TOL.
static int run_resized(const char *dir) {
    char path[1200], name[1400];
    snprintf(path, sizeof(path), "%s/resized.bin", dir);
    FILE *f = fopen(path, "rb");
    int hdr[3], ok = 1, count = 0;
    if (!f || fread(hdr, 4, 2, f) != 2 || hdr[0] != 0x445A5352) { if (f) fclose(f); return check(0, dir, "cannot read %s", path); }
    count = hdr[1];
    for (int k = 0; k < count && ok; k++) {
        if (fread(hdr, 4, 3, f) != 3 || hdr[0] < 1 || hdr[0] > 1024 || hdr[1] < 1 || hdr[1] > 64 || hdr[2] < 1 || hdr[2] > 4096) { ok = check(0, dir, "bad %s", path); break; }
        int S = hdr[0], n = hdr[1], E = hdr[2];
        size_t ni = (size_t)n * 3 * S * S, ne = (size_t)n * E;
        float *x = (float *)malloc(ni * sizeof(float)), *ref = (float *)malloc(ne * sizeof(float)), *out = poisoned(ne);
        if (fread(x, 4, ni, f) != ni || fread(ref, 4, ne, f) != ne) ok = check(0, dir, "short %s", path);
        vit_options o;
        memset(&o, 0, sizeof(o));
        o.num_threads = 2;
        o.device = g_device;
        o.dtype = g_device == VIT_DEVICE_CUDA ? VIT_DTYPE_F32 : VIT_DTYPE_DEFAULT;
        o.image_height = o.image_width = S;
        vit_model *m = NULL;
        vit_status st = ok ? vit_load(dir, &o, &m) : VIT_ERROR_IO;
        snprintf(name, sizeof(name), "%s: image embeddings at %d x %d (open_clip force_image_size)", dir, S, S);
        if (ok && st != VIT_OK) ok = check(0, name, "load: %s", vit_last_error(NULL));
        else if (ok && (st = vit_image_embeds(m, x, n, out)) != VIT_OK) ok = check(0, name, "%s", vit_last_error(m));
        else if (ok) {
            double e = max_abs(out, ref, ne), big = 0.0;
            for (size_t i = 0; i < ne; i++) big = fabs(ref[i]) > big ? fabs(ref[i]) : big;
            ok = check(e / big <= TOL && guard_ok(out, ne) && vit_model_config(m)->image_height == S, name, "rel err %.2e (<= %g)", e / big, TOL);
        }
        vit_free(m);
        free(x); free(ref); free(out);
    }
    fclose(f);
    return ok;
}

static int run_preprocess(const char *dir) {
    char path[1200], name[1400];
    size_t size = 0;
    snprintf(path, sizeof(path), "%s/preprocess.bin", dir);
    snprintf(name, sizeof(name), "%s: open_clip preprocessing", dir);
    unsigned char *b = read_all(path, &size);
    int hdr[5] = {0};
    float mean[3], std[3];
    char resize[17] = {0}, interp[17] = {0};
    const size_t head = 5 * 4 + 6 * 4 + 32;
    if (b && size >= head) {
        memcpy(hdr, b, sizeof(hdr));
        memcpy(mean, b + 20, sizeof(mean));
        memcpy(std, b + 32, sizeof(std));
        memcpy(resize, b + 44, 16);
        memcpy(interp, b + 60, 16);
    }
    int ok = hdr[0] == PREP_MAGIC;
    for (int i = 1; ok && i < 5; i++) ok = hdr[i] > 0 && hdr[i] < 4096;
    size_t plane = ok ? (size_t)hdr[3] * hdr[4] : 0, per = (size_t)hdr[2] * plane, rec = 64 + 4 * per;
    if (!ok || size != head + (size_t)hdr[1] * rec) {
        free(b);
        return check(0, name, "cannot read %s", path);
    }
    int n = hdr[1], C = hdr[2], H = hdr[3], W = hdr[4];
    vit_options o;
    memset(&o, 0, sizeof(o));
    o.num_threads = 1;
    vit_model *m = NULL;
    vit_status st = vit_load(dir, &o, &m);
    if (st != VIT_OK) {
        free(b);
        return check(0, name, "load: %s: %s", vit_status_string(st), vit_last_error(NULL));
    }
    const vit_config *c = vit_model_config(m);
    ok = check(c->in_chans == C && c->image_height == H && c->image_width == W && same3(c->mean, mean) && same3(c->std, std),
               name, "config: %d x %d x %d (want %d x %d x %d), mean %g %g %g (want %g %g %g), std %g %g %g (want %g %g %g); resize_mode %s, %s", c->in_chans,
               c->image_height, c->image_width, C, H, W, (double)c->mean[0], (double)c->mean[1], (double)c->mean[2], (double)mean[0], (double)mean[1],
               (double)mean[2], (double)c->std[0], (double)c->std[1], (double)c->std[2], (double)std[0], (double)std[1], (double)std[2], resize, interp);
    float *out = poisoned(per);
    for (int i = 0; i < n; i++) {
        const unsigned char *r = b + head + (size_t)i * rec;
        char image[65] = {0}, nm[1500];
        memcpy(image, r, 64);
        float *want = (float *)malloc(per * sizeof(float));
        memcpy(want, r + 64, per * sizeof(float));
        fmt(path, sizeof(path), "%s/%s", dir, image);
        fmt(nm, sizeof(nm), "%s %s (%s, %s)", name, image, resize, interp);
        for (size_t j = 0; j < per; j++) out[j] = NAN;
        st = vit_preprocess_file(m, path, out);
        if (st != VIT_OK) {
            ok &= check(0, nm, "vit_preprocess_file: %s: %s", vit_status_string(st), vit_last_error(m));
        } else {
            double max_levels = 0.0, sum = 0.0;
            size_t worst = 0;
            for (size_t j = 0; j < per; j++) {
                double lv = fabs((double)out[j] - want[j]) * std[j / plane] * 255.0;
                if (lv != lv) lv = 1e9; // NaN
                if (lv > max_levels) { max_levels = lv; worst = j; }
                sum += lv;
            }
            const char *ext = strrchr(image, '.');
            int jpeg = ext && (!strcmp(ext, ".jpg") || !strcmp(ext, ".jpeg"));
            double tol = jpeg ? PREP_TOL_JPEG_LEVELS : PREP_TOL_LEVELS;
            ok &= check(max_levels <= tol && (!jpeg || sum / per <= PREP_TOL_JPEG_MEAN) && guard_ok(out, per), nm,
                        "max %.3g levels (<= %g), mean %.4f%s (worst: c%zu y%zu x%zu got %.6g want %.6g)%s", max_levels, tol, sum / per,
                        jpeg ? " (<= 0.1)" : "", worst / plane, worst % plane / W, worst % W, (double)out[worst], (double)want[worst],
                        guard_ok(out, per) ? "" : "; GUARD OVERWRITTEN");
        }
        free(want);
    }
    free(out);
    vit_free(m);
    free(b);
    return ok;
}

// ---- refusals

static void expect(vit_status got, vit_status want, const vit_model *m, const char *needle, const char *name) {
    const char *msg = vit_last_error(m);
    check(got == want && (!needle || strstr(msg, needle)), name, "%s (want %s): %s", vit_status_string(got), vit_status_string(want), msg);
}

// A case's folder loaded from memory with config.json's text old replaced by new (all occurrences).
static vit_status load_with_config(const char *dir, const char *old, const char *new_text, vit_model **out) {
    char path[1200];
    size_t size, csize;
    snprintf(path, sizeof(path), "%s/open_clip_config.json", dir);
    FILE *oc = fopen(path, "rb");
    if (oc) fclose(oc);
    snprintf(path, sizeof(path), "%s/%smodel.safetensors", dir, oc ? "open_clip_" : "");
    unsigned char *bytes = read_all(path, &size);
    snprintf(path, sizeof(path), "%s/%sconfig.json", dir, oc ? "open_clip_" : "");
    char *cfg = (char *)read_all(path, &csize);
    vit_status st = VIT_ERROR_IO;
    char *at = cfg ? strstr(cfg, old) : NULL;
    if (bytes && at) {
        char *edited = (char *)malloc(csize + strlen(new_text) + 1);
        size_t pre = (size_t)(at - cfg);
        memcpy(edited, cfg, pre);
        strcpy(edited + pre, new_text);
        strcat(edited, at + strlen(old));
        vit_options o;
        memset(&o, 0, sizeof(o));
        o.num_threads = 1;
        o.config_json = edited;
        st = vit_load_memory(bytes, size, &o, out);
        free(edited);
    } else printf("test bug: '%s' not in %s's config\n", old, dir);
    free(bytes);
    free(cfg);
    return st;
}

static void test_refusals(const char *clip_dir, const char *legacy_dir, const char *siglip_dir) {
    vit_options o;
    memset(&o, 0, sizeof(o));
    o.num_threads = 1;
    vit_model *m = NULL, *lm = NULL, *sm = NULL, *v = NULL;
    text_ref r;
    char path[1200];
    snprintf(path, sizeof(path), "%s/text.bin", clip_dir);
    if (vit_load(clip_dir, &o, &m) != VIT_OK || vit_load(legacy_dir, &o, &lm) != VIT_OK || vit_load(siglip_dir, &o, &sm) != VIT_OK || !read_text_ref(path, &r)) {
        check(0, "refusals", "cannot load the cases: %s", vit_last_error(NULL));
        vit_free(m); vit_free(lm); vit_free(sm);
        return;
    }
    const vit_config *c = vit_model_config(m);
    int L = c->text_context, E = c->embed_dim;
    int *ids = (int *)malloc((size_t)L * sizeof(int));
    float *out = (float *)malloc((size_t)(E > 8 ? E : 8) * 4 * sizeof(float));
    // ids out of the vocabulary, at either end
    memcpy(ids, r.ids, (size_t)L * sizeof(int));
    ids[1] = -1;
    expect(vit_encode_ids(m, ids, 1, out), VIT_ERROR_INVALID_ARGUMENT, m, "id -1 at position 1", "vit_encode_ids: id -1");
    ids[1] = c->text_vocab;
    expect(vit_encode_ids(m, ids, 1, out), VIT_ERROR_INVALID_ARGUMENT, m, "outside the vocabulary", "vit_encode_ids: id = vocab");
    // CLIP pools at the first eos_token_id (63 here): a text without one is refused; the legacy rule (eos 2) pools at the largest id
    for (int i = 0; i < L; i++) ids[i] = 5;
    expect(vit_encode_ids(m, ids, 1, out), VIT_ERROR_INVALID_ARGUMENT, m, "no end-of-text token", "vit_encode_ids: CLIP text without eos_token_id");
    expect(vit_encode_ids(lm, ids, 1, out), VIT_OK, lm, NULL, "vit_encode_ids: the legacy rule (eos_token_id 2) needs no eos");
    expect(vit_encode_ids(sm, ids, 1, out), VIT_OK, sm, NULL, "vit_encode_ids: SigLIP pools the last token, eos or not");
    // a later text's bad id refuses the call before anything runs (out untouched)
    int *two = (int *)malloc(2 * (size_t)L * sizeof(int));
    memcpy(two, r.ids, (size_t)L * sizeof(int));
    memcpy(two + L, r.ids, (size_t)L * sizeof(int));
    two[L + L - 1] = 1 << 30;
    for (int i = 0; i < 2 * E; i++) out[i] = 7.0f;
    int untouched = 1;
    expect(vit_encode_ids(m, two, 2, out), VIT_ERROR_INVALID_ARGUMENT, m, "text 1", "vit_encode_ids: text 1's bad id");
    for (int i = 0; i < 2 * E; i++) untouched &= out[i] == 7.0f;
    check(untouched, "vit_encode_ids: nothing written on failure", "%s", "");
    // counts and pointers
    expect(vit_encode_ids(m, r.ids, 0, out), VIT_ERROR_INVALID_ARGUMENT, m, "n >= 1", "vit_encode_ids: n = 0");
    expect(vit_encode_ids(m, NULL, 1, out), VIT_ERROR_INVALID_ARGUMENT, m, NULL, "vit_encode_ids: ids NULL");
    expect(vit_encode_ids(m, r.ids, 1, NULL), VIT_ERROR_INVALID_ARGUMENT, m, NULL, "vit_encode_ids: out NULL");
    check(vit_encode_ids(NULL, r.ids, 1, out) == VIT_ERROR_INVALID_ARGUMENT, "vit_encode_ids: m NULL", "%s", "");
    expect(vit_zero_shot(m, r.image_embeds, 1, r.text_embeds, 0, out, NULL), VIT_ERROR_INVALID_ARGUMENT, m, "k = 0", "vit_zero_shot: k = 0");
    expect(vit_zero_shot(m, r.image_embeds, 1, r.text_embeds, 1, NULL, NULL), VIT_ERROR_INVALID_ARGUMENT, m, "logits or probs", "vit_zero_shot: no output");
    expect(vit_image_embeds(m, NULL, 1, out), VIT_ERROR_INVALID_ARGUMENT, m, NULL, "vit_image_embeds: images NULL");
    // a preprocessing handle scores (config only) but does not encode
    vit_model *p = NULL;
    if (vit_clone_preprocessor(m, &p) == VIT_OK) {
        float a[4], b[4];
        vit_status s1 = vit_zero_shot(m, r.image_embeds, 2, r.text_embeds, 2, a, NULL), s2 = vit_zero_shot(p, r.image_embeds, 2, r.text_embeds, 2, b, NULL);
        check(s1 == VIT_OK && s2 == VIT_OK && !memcmp(a, b, sizeof(a)), "vit_zero_shot: a vit_clone_preprocessor handle scores as the model", "%s", "");
        expect(vit_encode_ids(p, r.ids, 1, out), VIT_ERROR_INVALID_ARGUMENT, p, "only preprocesses", "vit_encode_ids: a preprocessing handle");
        vit_free(p);
    }
    // models without a text tower
    snprintf(path, sizeof(path), "%s/../ref/hf_clip_vision_proj", g_parent);
    if (vit_load(path, &o, &v) == VIT_OK) {
        const vit_config *vc = vit_model_config(v);
        check(!vc->has_text && vc->match == VIT_MATCH_NONE && vc->text_context == 0 && vc->embed_dim == 0, "no text tower: config", "has_text %d", vc->has_text);
        expect(vit_encode_ids(v, r.ids, 1, out), VIT_ERROR_INVALID_ARGUMENT, v, "no text tower", "vit_encode_ids: no text tower");
        expect(vit_zero_shot(v, r.image_embeds, 1, r.text_embeds, 1, out, NULL), VIT_ERROR_INVALID_ARGUMENT, v, "no text tower", "vit_zero_shot: no text tower");
        expect(vit_image_embeds(v, r.images, 1, out), VIT_ERROR_INVALID_ARGUMENT, v, "no text tower", "vit_image_embeds: no text tower");
        vit_free(v);
    } else check(0, "no text tower", "cannot load %s: %s", path, vit_last_error(NULL));
    // config.json's text_config against the tensors, and what vit.h does not compute
    static const struct { const char *name, *old, *new_text; vit_status want; const char *needle; } cfgs[] = {
        {"text_config hidden_act relu", "\"hidden_act\": \"quick_gelu\",\n    \"hidden_size\": 24", "\"hidden_act\": \"relu\",\n    \"hidden_size\": 24",
         VIT_ERROR_UNSUPPORTED, "text_config hidden_act 'relu'"},
        {"text_config eos_token_id a list", "\"eos_token_id\": 63", "\"eos_token_id\": [63]", VIT_ERROR_UNSUPPORTED, "eos_token_id"},
        {"text_config max_position_embeddings 13", "\"max_position_embeddings\": 12", "\"max_position_embeddings\": 13", VIT_ERROR_SHAPE_MISMATCH,
         "max_position_embeddings 13"},
        {"text_config vocab_size 65", "\"vocab_size\": 64", "\"vocab_size\": 65", VIT_ERROR_SHAPE_MISMATCH, "vocab_size 65"},
        {"projection_dim 21", "\"projection_dim\": 20", "\"projection_dim\": 21", VIT_ERROR_SHAPE_MISMATCH, "projection_dim 21"},
        {"text_config num_hidden_layers 3", "\"num_hidden_layers\": 2,\n    \"pad_token_id\"", "\"num_hidden_layers\": 3,\n    \"pad_token_id\"",
         VIT_ERROR_MISSING_TENSOR, "says depth 3 but the file has 2 text blocks"},
        {"text_config num_attention_heads 5", "\"num_attention_heads\": 3", "\"num_attention_heads\": 5", VIT_ERROR_SHAPE_MISMATCH, "5 heads"},
        {"text_config layer_norm_eps a string", "\"layer_norm_eps\": 1e-05,\n    \"max_position", "\"layer_norm_eps\": \"x\",\n    \"max_position",
         VIT_ERROR_BAD_FORMAT, "text_config layer_norm_eps"},
    };
    for (size_t i = 0; i < sizeof(cfgs) / sizeof(cfgs[0]); i++) {
        vit_model *x = NULL;
        char nm[160];
        snprintf(nm, sizeof(nm), "load: %s", cfgs[i].name);
        vit_status st = load_with_config(clip_dir, cfgs[i].old, cfgs[i].new_text, &x);
        check(st == cfgs[i].want && !x && strstr(vit_last_error(NULL), cfgs[i].needle), nm, "%s (want %s): %s", vit_status_string(st),
              vit_status_string(cfgs[i].want), vit_last_error(NULL));
        vit_free(x);
    }
    vit_model *x = NULL;
    vit_status st = load_with_config(siglip_dir, "\"projection_size\": 16", "\"projection_size\": 17", &x);
    check(st == VIT_ERROR_SHAPE_MISMATCH && strstr(vit_last_error(NULL), "projection_size 17"), "load: SigLIP text_config projection_size 17", "%s: %s",
          vit_status_string(st), vit_last_error(NULL));
    vit_free(x);
    free(ids); free(two); free(out);
    free_text_ref(&r);
    vit_free(m); vit_free(lm); vit_free(sm);
}

// open_clip_config.json: what vit.h does not compute is refused, naming it; a config that disagrees with the tensors too
static void test_open_clip_refusals(const char *clip_dir, const char *siglip_dir, const char *variant_dir) {
    static const struct { int siglip; const char *old, *new_text; vit_status want; const char *says; } cases[] = { // siglip: 1 siglip_dir, 2 variant_dir
        {0, "\"quick_gelu\": true,", "\"quick_gelu\": true, \"multimodal_cfg\": {},", VIT_ERROR_UNSUPPORTED, "model_cfg 'multimodal_cfg'"},
        {0, "\"layers\": 2,\n      \"mlp_ratio\"", "\"layers\": [2, 2, 2, 2],\n      \"mlp_ratio\"", VIT_ERROR_UNSUPPORTED, "ResNet"},
        {0, "\"head_width\": 8,", "\"head_width\": 8, \"attentional_pool\": true,", VIT_ERROR_UNSUPPORTED, "attentional_pool"},
        {0, "\"head_width\": 8,", "\"head_width\": 8, \"pos_embed_type\": \"sin_cos_2d\",", VIT_ERROR_UNSUPPORTED, "pos_embed_type"},
        {0, "\"head_width\": 8,", "\"head_width\": 8, \"pool_type\": \"none\",", VIT_ERROR_UNSUPPORTED, "pool_type"},
        {0, "\"head_width\": 8,", "\"head_width\": 8, \"pool_type\": \"avg\", \"final_ln_after_pool\": true,", VIT_ERROR_UNSUPPORTED, "final_ln_after_pool"},
        {0, "\"head_width\": 8,", "\"head_width\": 8, \"qk_norm\": true,", VIT_ERROR_UNSUPPORTED, "qk_norm"},
        {0, "\"head_width\": 8,", "\"head_width\": 8, \"act_kwargs\": {\"approximate\": \"tanh\"},", VIT_ERROR_UNSUPPORTED, "act_kwargs"}, // with quick_gelu
        {0, "\"head_width\": 8,", "\"head_width\": 8, \"new_setting\": 1,", VIT_ERROR_UNSUPPORTED, "vision_cfg 'new_setting'"},
        {0, "\"layers\": 2,\n      \"mlp_ratio\"", "\"layers\": 3,\n      \"mlp_ratio\"", VIT_ERROR_MISSING_TENSOR, "open_clip_config.json says depth 3"},
        {0, "\"width\": 16,", "\"width\": 32,", VIT_ERROR_SHAPE_MISMATCH, "width 32"},
        {0, "\"vocab_size\": 814,", "\"vocab_size\": 815,", VIT_ERROR_SHAPE_MISMATCH, "vocab_size 815"},
        {0, "\"vocab_size\": 814,", "\"vocab_size\": 814, \"hf_model_name\": \"xlm-roberta-base\",", VIT_ERROR_UNSUPPORTED, "hf_model_name"},
        {0, "\"vocab_size\": 814,", "\"vocab_size\": 814, \"pool_type\": \"none\",", VIT_ERROR_UNSUPPORTED, "pool_type"},
        {0, "\"vocab_size\": 814,", "\"vocab_size\": 814, \"proj_type\": \"mlp\",", VIT_ERROR_UNSUPPORTED, "proj_type"},
        {0, "\"vocab_size\": 814,", "\"vocab_size\": 814, \"proj_bias\": true,", VIT_ERROR_SHAPE_MISMATCH, "proj_bias true"},
        {0, "\"vocab_size\": 814,", "\"vocab_size\": 814, \"embed_cls\": true,", VIT_ERROR_UNSUPPORTED, "embed_cls"},
        {0, "\"embed_dim\": 20,", "\"embed_dim\": 21,", VIT_ERROR_SHAPE_MISMATCH, "embed_dim 21"},
        {0, "\"resize_mode\": \"shortest\"", "\"resize_mode\": \"longest\"", VIT_ERROR_UNSUPPORTED, "longest"},
        {0, "\"interpolation\": \"bicubic\"", "\"interpolation\": \"lanczos\"", VIT_ERROR_UNSUPPORTED, "interpolation"},
        {0, "\"model_cfg\"", "\"not_model_cfg\"", VIT_ERROR_UNSUPPORTED, "open_clip_config.json must come"},
        {1, "\"timm_model_name\": \"vit_base_patch16_siglip_224\"", "\"timm_model_name\": \"vit_base_patch16_rope_224\"", VIT_ERROR_UNSUPPORTED, "vit_base_patch16_rope_224"},
        {1, "\"timm_proj\": \"none\"", "\"timm_proj\": \"mlp\"", VIT_ERROR_UNSUPPORTED, "timm_proj"},
        {1, "\"timm_proj\": \"none\"", "\"timm_proj\": \"linear\"", VIT_ERROR_MISSING_TENSOR, "image projection"},
        {1, "\"timm_pool\": \"map\"", "\"timm_pool\": \"avg\"", VIT_ERROR_UNSUPPORTED, "attention-pooling"},
        {1, "\"timm_pool\": \"map\"", "\"timm_pool\": \"abs_attn\"", VIT_ERROR_UNSUPPORTED, "timm_pool"},
        {1, "\"no_causal_mask\": true,", "\"no_causal_mask\": true, \"scaled_cosine_attn\": true,", VIT_ERROR_UNSUPPORTED, "scaled_cosine_attn"},
        {1, "\"timm_model_name\": \"vit_base_patch16_siglip_224\",", "", VIT_ERROR_UNSUPPORTED, "timm_model_name"},
        {1, "\"timm_model_name\": \"vit_base_patch16_siglip_224\",", "\"timm_model_name\": \"\",", VIT_ERROR_UNSUPPORTED, "has no timm_model_name"}, // "": not set
        {0, "\"head_width\": 8,", "\"head_width\": 6,", VIT_ERROR_UNSUPPORTED, "head_width 6 does not divide width 16"},
        {0, "\"head_width\": 8,", "\"head_width\": 8, \"no_ln_pre\": 1,", VIT_ERROR_SHAPE_MISMATCH, "no_ln_pre"},
        {0, "\"head_width\": 8,", "\"head_width\": 8, \"ls_init_value\": 0.1,", VIT_ERROR_SHAPE_MISMATCH, "ls_init_value"},
        {0, "\"vocab_size\": 814,", "\"vocab_size\": 814, \"ls_init_value\": 0,", VIT_ERROR_SHAPE_MISMATCH, "ls_init_value"}, // 0 is not None
        {0, "\"quick_gelu\": true,", "\"quick_gelu\": true, \"init_logit_bias\": null,", VIT_OK, ""},
        {1, "\"init_logit_bias\": -10,", "", VIT_ERROR_UNSUPPORTED, "no init_logit_bias"},
        {1, "\"custom_text\": true,", "\"custom_text\": 0,", VIT_ERROR_SHAPE_MISMATCH, "no custom_text"},
        {1, "\"proj_bias\": true,", "\"proj_bias\": \"\",", VIT_ERROR_SHAPE_MISMATCH, "proj_bias false"},
        {2, "\"interpolation\": \"bicubic\"", "\"interpolation\": \"bilinear\"", VIT_ERROR_UNSUPPORTED, "resizes bicubic whatever the interpolation"}, // 28 x 20
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        vit_model *x = NULL;
        vit_status st = load_with_config(cases[i].siglip == 2 ? variant_dir : cases[i].siglip ? siglip_dir : clip_dir, cases[i].old, cases[i].new_text, &x);
        char nm[256];
        snprintf(nm, sizeof(nm), "load: open_clip_config.json %.160s", cases[i].new_text[0] ? cases[i].new_text : "without timm_model_name");
        for (char *q = nm; *q; q++) if (*q == '\n') *q = ' ';
        check(st == cases[i].want && strstr(vit_last_error(NULL), cases[i].says), nm, "%s: %s", vit_status_string(st), vit_last_error(NULL));
        vit_free(x);
    }
    // settings as Python reads them: "quick_gelu": 1 is QuickGELU; init_logit_bias without a logit_bias tensor: a zero bias, sigmoids
    static const struct { int siglip; const char *old, *new_text; } truthy[] = {
        {0, "\"quick_gelu\": true,", "\"quick_gelu\": 1,"}, {0, "\"quick_gelu\": true,", "\"quick_gelu\": \"no\","},
        {0, "\"quick_gelu\": true,", "\"quick_gelu\": true, \"init_logit_bias\": 0,"}};
    for (size_t i = 0; i < sizeof(truthy) / sizeof(truthy[0]); i++) {
        vit_model *x = NULL;
        vit_status st = load_with_config(truthy[i].siglip ? siglip_dir : clip_dir, truthy[i].old, truthy[i].new_text, &x);
        const vit_config *c = st == VIT_OK ? vit_model_config(x) : NULL;
        int bias = strstr(truthy[i].new_text, "init_logit_bias") != NULL;
        check(c && c->act == VIT_ACT_QUICK_GELU && c->match == (bias ? VIT_MATCH_SIGMOID : VIT_MATCH_SOFTMAX) && c->logit_bias == 0.0f,
              truthy[i].new_text, "load: %s %s; act %d, match %d", vit_status_string(st), st ? vit_last_error(NULL) : "", c ? (int)c->act : -1, c ? (int)c->match : -1);
        vit_free(x);
    }
    // the tensors without their config: refused, naming the file they need
    vit_options o;
    memset(&o, 0, sizeof(o));
    o.num_threads = 1;
    o.config_path = "";
    char path[1200];
    vit_model *x = NULL;
    snprintf(path, sizeof(path), "%s/open_clip_model.safetensors", clip_dir);
    vit_status st = vit_load(path, &o, &x);
    check(st == VIT_ERROR_UNSUPPORTED && strstr(vit_last_error(NULL), "open_clip_config.json"), "load: open_clip tensors without open_clip_config.json", "%s: %s",
          vit_status_string(st), vit_last_error(NULL));
    vit_free(x);
    // the file named, not its folder: the same model as the folder
    o.config_path = NULL;
    st = vit_load(path, &o, &x);
    check(st == VIT_OK && vit_model_config(x)->source == VIT_SOURCE_OPEN_CLIP && vit_model_config(x)->preprocess_source == VIT_PREPROCESS_FROM_OPEN_CLIP,
          "load: open_clip_model.safetensors by name", "%s: %s", vit_status_string(st), vit_last_error(NULL));
    vit_free(x);
}

// vit_encode_texts' refusals: templates, tokenizers that do not fit the model, texts the tokenizer refuses
static void test_text_refusals(const char *clip_dir, const char *clip_tok_dir, const char *siglip_tok_dir) {
    vit_options o;
    memset(&o, 0, sizeof(o));
    o.num_threads = 1;
    vit_model *m = NULL, *small = NULL, *sig = NULL;
    vit_tokenizer *t = NULL;
    if (vit_load(clip_tok_dir, &o, &m) != VIT_OK || vit_load(clip_dir, &o, &small) != VIT_OK || vit_load(siglip_tok_dir, &o, &sig) != VIT_OK ||
        vit_tokenizer_load(clip_tok_dir, NULL, &t) != VIT_OK) {
        check(0, "vit_encode_texts refusals", "cannot load: %s %s", vit_last_error(NULL), vit_tokenizer_last_error(NULL));
        vit_free(m); vit_free(small); vit_free(sig); vit_tokenizer_free(t);
        return;
    }
    float out[3 * 64];
    const char *texts[2] = {"a dog", "a cat"};
    static const struct { const char *tmpl; vit_status want; } tm[] = {
        {"a photo of a {}.", VIT_OK}, {"{{a}} {}", VIT_OK}, {"{}", VIT_OK}, {"no field", VIT_ERROR_INVALID_ARGUMENT}, {"{} and {}", VIT_ERROR_INVALID_ARGUMENT},
        {"a {0}", VIT_ERROR_INVALID_ARGUMENT}, {"a {x}", VIT_ERROR_INVALID_ARGUMENT}, {"a } {}", VIT_ERROR_INVALID_ARGUMENT}, {"{", VIT_ERROR_INVALID_ARGUMENT}};
    for (size_t i = 0; i < sizeof(tm) / sizeof(tm[0]); i++) {
        char nm[128];
        snprintf(nm, sizeof(nm), "vit_encode_texts: template '%s'", tm[i].tmpl);
        expect(vit_encode_texts(m, t, texts, 2, tm[i].tmpl, out), tm[i].want, m, tm[i].want ? "prompt_template" : NULL, nm);
    }
    // "{{a}} {}" is "{a} dog": the same embedding as that text without a template
    float a[64], b[64];
    const char *lit = "{a} a dog";
    vit_status s1 = vit_encode_texts(m, t, texts, 1, "{{a}} {}", a), s2 = vit_encode_texts(m, t, &lit, 1, NULL, b);
    check(s1 == VIT_OK && s2 == VIT_OK && !memcmp(a, b, (size_t)vit_model_config(m)->embed_dim * sizeof(float)), "vit_encode_texts: \"{{a}} {}\" is Python's format",
          "%s", "");
    expect(vit_encode_texts(small, t, texts, 2, NULL, out), VIT_ERROR_INVALID_ARGUMENT, small, "ids per text", "vit_encode_texts: another context");
    expect(vit_encode_texts(sig, t, texts, 2, NULL, out), VIT_ERROR_INVALID_ARGUMENT, sig, "vocabulary", "vit_encode_texts: a larger vocabulary");
    const char *bad[2] = {"fine", "not \xff UTF-8"};
    expect(vit_encode_texts(m, t, bad, 2, NULL, out), VIT_ERROR_INVALID_ARGUMENT, m, "text 1", "vit_encode_texts: a text that is not UTF-8");
    const char *null_text[2] = {"fine", NULL};
    expect(vit_encode_texts(m, t, null_text, 2, NULL, out), VIT_ERROR_INVALID_ARGUMENT, m, "text 1 is NULL", "vit_encode_texts: a NULL text");
    expect(vit_encode_texts(m, NULL, texts, 2, NULL, out), VIT_ERROR_INVALID_ARGUMENT, m, NULL, "vit_encode_texts: no tokenizer");
    expect(vit_encode_texts(m, t, texts, 0, NULL, out), VIT_ERROR_INVALID_ARGUMENT, m, "n >= 1", "vit_encode_texts: n = 0");
    vit_tokenizer_free(t);
    vit_free(m); vit_free(small); vit_free(sig);
}

int main(int argc, char **argv) {
    int passed = 0, failed = 0;
    static char dirs[8][1024]; // clip, clip_legacy_eos, siglip, clip_tokenizer, siglip_tokenizer, openclip_clip, openclip_siglip, openclip_clip_variant (no trailing '/')
    char path[1200];
    int first = 1;
    if (argc > 1 && !strcmp(argv[1], "--cuda")) { g_device = VIT_DEVICE_CUDA; first = 2; }
    for (int i = first; i < argc; i++) {
        const vit_dtype D = VIT_DTYPE_DEFAULT;
        char dir[1024];
        snprintf(dir, sizeof(dir), "%s", argv[i]);
        size_t len = strlen(dir);
        while (len > 1 && dir[len - 1] == '/') dir[--len] = 0;
        int r = run_case(dir, 0, 0, D, D) & run_case(dir, 1, 1, D, D) & run_case(dir, 2, 2, D, D);
        if (g_device == VIT_DEVICE_CPU) r &= run_case(dir, 2, 2, VIT_DTYPE_INT8, D);
        else r &= run_case(dir, 2, 2, VIT_DTYPE_F32, D) & run_case(dir, 2, 2, VIT_DTYPE_F16, D); // (the default there: bf16)
        r &= run_case(dir, 2, 2, VIT_DTYPE_FP8, D);
        r &= run_case(dir, 2, 2, VIT_DTYPE_FP8, VIT_DTYPE_F32);
        r &= run_case(dir, 2, 2, D, VIT_DTYPE_BF16);
        snprintf(path, sizeof(path), "%s/texts.txt", dir);
        FILE *f = fopen(path, "rb");
        if (f) { fclose(f); r &= run_texts(dir); }
        snprintf(path, sizeof(path), "%s/preprocess.bin", dir);
        if ((f = fopen(path, "rb")) != NULL) { fclose(f); r &= run_preprocess(dir); }
        snprintf(path, sizeof(path), "%s/resized.bin", dir);
        if ((f = fopen(path, "rb")) != NULL) { fclose(f); r &= run_resized(dir); }
        if (r) passed++; else failed++;
        const char *slash = strrchr(dir, '/'), *base = slash ? slash + 1 : dir;
        static const char *const names[8] = {"clip", "clip_legacy_eos", "siglip", "clip_tokenizer", "siglip_tokenizer", "openclip_clip", "openclip_siglip",
                                             "openclip_clip_variant"};
        for (int k = 0; k < 8; k++)
            if (!strcmp(base, names[k])) {
                snprintf(dirs[k], sizeof(dirs[k]), "%s", dir);
                snprintf(g_parent, sizeof(g_parent), "%.*s", slash ? (int)(slash - dir) : 1, slash ? dir : ".");
            }
    }
    if (dirs[0][0] && dirs[1][0] && dirs[2][0]) test_refusals(dirs[0], dirs[1], dirs[2]);
    else check(0, "refusals", "%s", "need the cases clip, clip_legacy_eos and siglip among the arguments");
    if (dirs[0][0] && dirs[3][0] && dirs[4][0]) test_text_refusals(dirs[0], dirs[3], dirs[4]);
    else check(0, "vit_encode_texts refusals", "%s", "need the cases clip, clip_tokenizer and siglip_tokenizer among the arguments");
    if (dirs[5][0] && dirs[6][0] && dirs[7][0]) test_open_clip_refusals(dirs[5], dirs[6], dirs[7]);
    else check(0, "open_clip refusals", "%s", "need the cases openclip_clip, openclip_siglip and openclip_clip_variant among the arguments");
    printf("cases: %d passed, %d failed\n", passed, failed);
    int rc = check_summary();
    return rc || failed ? 1 : 0;
}
