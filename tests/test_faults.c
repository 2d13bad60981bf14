// test_faults: allocation failure injection for the preprocessing path.
//
// usage: test_faults [ROOT]   (ROOT = the repository root, default ".")
//
// Every allocation -- through vit_options.allocator and through VIT_MALLOC,
// which stb_image's decoder uses -- goes through one counter that can fail the
// k-th request. For each (model, image, call) the call is first run clean to
// count its allocations, then once per k = 1, 2, ... with the k-th allocation
// failing, and must:
//   - fail with VIT_ERROR_OUT_OF_MEMORY ("out of memory" in vit_last_error),
//     whether vit.h's own allocation failed or stb_image's -- or, for stb's,
//     succeed with output bit-identical to the clean run: stb probes formats
//     by allocating a JPEG decoder and takes a failed probe for "not this
//     format", so that failure is swallowed and the image still decodes.
//     (stb itself would name some of its failures "no SOI" or "unknown image
//     type" -- a stale reason from an earlier probe -- and vit.h must not
//     pass those on as VIT_ERROR_IMAGE_DECODE);
//   - leave exactly the allocations it found live (none leaked, none freed twice
//     or through the wrong allocator);
//   - leave the model usable: vit_preprocess_file + vit_forward then give
//     logits bit-identical to a fault-free run.
// Also: vit_forward / vit_embed make no allocation at all (any n, chunked).
// Two setups: a runtime allocator (then VIT_MALLOC is stb's alone, so each
// failure is attributed exactly), and none (vit.h's own buffers then come from
// VIT_MALLOC too; the macro passes __func__ to tell vit__malloc from stb's).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SRC_NONE, SRC_RUNTIME, SRC_VIT, SRC_STB };
static const char *src_name[] = {"none", "vit_options.allocator", "VIT_MALLOC (vit__malloc)", "VIT_MALLOC (stb_image)"};

typedef struct faults {
    long calls;      // allocation requests so far, both kinds
    long fail_at;    // fail request number fail_at (0: never)
    int failed_src;  // SRC_* of the request that was failed
    long live_rt;    // live allocations from the runtime allocator
    long live_macro; // live allocations from VIT_MALLOC
} faults;
static faults g;

static int fail_now(int src) {
    if (++g.calls != g.fail_at) return 0;
    g.failed_src = src;
    return 1;
}

static void *test_malloc(size_t size, const char *where) {
    if (fail_now(strncmp(where, "vit__stbi", 9) == 0 ? SRC_STB : SRC_VIT)) return NULL;
    void *p = malloc(size);
    if (p) g.live_macro++;
    return p;
}
static void test_free(void *p) {
    if (!p) return;
    g.live_macro--;
    free(p);
}
#define VIT_MALLOC(sz) test_malloc(sz, __func__)
#define VIT_FREE(p) test_free(p)
#define VIT_IMPLEMENTATION
#include "../vit.h"
#include "test_util.h"

static void *rt_alloc(size_t size, void *user) {
    (void)user;
    if (fail_now(SRC_RUNTIME)) return NULL;
    void *p = malloc(size);
    if (p) g.live_rt++;
    return p;
}
static void rt_free(void *p, void *user) {
    (void)user;
    if (!p) return;
    g.live_rt--;
    free(p);
}

// ---------------------------------------------------------------------------
// the calls under test

enum { OP_FILE, OP_MEMORY, OP_RGB8, OP_CLASSIFY };
static const char *op_name[] = {"vit_preprocess_file", "vit_preprocess_memory", "vit_preprocess_rgb8", "vit_classify_file"};

typedef struct subject {
    vit_model *m;
    const char *path;          // the image file
    unsigned char *bytes;      // its bytes
    size_t size;
    unsigned char *px;         // its pixels, decoded once by stb (clean)
    int w, h, ch;
    size_t pixels, K;          // floats per image, classes
    float *ref_image;          // clean preprocess of the image
    float *ref_logits;         // clean forward of ref_image
    int ref_classes[4];        // clean vit_classify_file, k = 3
    float ref_probs[4];
} subject;

// Runs op once; out gets the preprocessed image (OP_CLASSIFY: classes/probs).
static vit_status run_op(subject *s, int op, float *out, int *classes, float *probs) {
    switch (op) {
    case OP_FILE: return vit_preprocess_file(s->m, s->path, out);
    case OP_MEMORY: return vit_preprocess_memory(s->m, s->bytes, s->size, out);
    case OP_RGB8: return vit_preprocess_rgb8(s->m, s->px, s->w, s->h, 0, s->ch, out);
    default: return vit_classify_file(s->m, s->path, 3, classes, probs);
    }
}

// vit_preprocess_file + vit_forward, allocations never failing: bit-identical to the clean run?
static int model_still_works(subject *s, float *img, float *logits, char *why, size_t cap) {
    long fail_at = g.fail_at;
    g.fail_at = 0;
    vit_status st = vit_preprocess_file(s->m, s->path, img);
    if (st == VIT_OK) st = vit_forward(s->m, img, 1, logits);
    g.fail_at = fail_at;
    if (st != VIT_OK) { fmt(why, cap, "afterwards: %s: %s", vit_status_string(st), vit_last_error(s->m)); return 0; }
    if (memcmp(img, s->ref_image, s->pixels * sizeof(float)) || memcmp(logits, s->ref_logits, s->K * sizeof(float))) {
        fmt(why, cap, "afterwards: preprocess + forward differ from the fault-free run");
        return 0;
    }
    return 1;
}

// Fails each allocation of one (model, image, op) in turn.
static void sweep(const char *setup, subject *s, int op) {
    char name[512];
    fmt(name, sizeof(name), "%s: %s(%s)", setup, op_name[op], s->path);
    float *out = (float *)malloc(s->pixels * sizeof(float)), *img = (float *)malloc(s->pixels * sizeof(float));
    float *logits = (float *)malloc(s->K * sizeof(float));
    int classes[4];
    float probs[4];
    // clean run: count the allocations
    g.fail_at = 0;
    g.failed_src = SRC_NONE;
    long live_rt = g.live_rt, live_macro = g.live_macro, c0 = g.calls;
    vit_status st = run_op(s, op, out, classes, probs);
    long total = g.calls - c0;
    int same = op == OP_CLASSIFY ? !memcmp(classes, s->ref_classes, 3 * sizeof(int)) && !memcmp(probs, s->ref_probs, 3 * sizeof(float))
                                 : !memcmp(out, s->ref_image, s->pixels * sizeof(float));
    if (!check(st == VIT_OK && same && total > 0 && g.live_rt == live_rt && g.live_macro == live_macro, name,
               "clean run: %s, %ld allocations, output %s, live %+ld/%+ld", vit_status_string(st), total,
               same ? "as the reference" : "DIFFERS", g.live_rt - live_rt, g.live_macro - live_macro))
        goto done;
    long n_oom = 0, n_swallowed = 0, bad = 0, by_src[4] = {0, 0, 0, 0};
    char first[1024] = "";
    for (long k = 1; k <= total + 1; k++) {
        g.calls = 0;
        g.fail_at = k;
        g.failed_src = SRC_NONE;
        s->m->error[0] = 0;
        st = run_op(s, op, out, classes, probs);
        g.fail_at = 0;
        int src = g.failed_src;
        const char *e = vit_last_error(s->m);
        char why[600] = "";
        if (k == total + 1) { // past the last allocation: nothing fails
            if (src != SRC_NONE || st != VIT_OK) fmt(why, sizeof(why), "no failure injected, but %s: %s", vit_status_string(st), e);
        } else if (src == SRC_NONE) {
            fmt(why, sizeof(why), "allocation %ld was never made (%ld made): the allocation sequence is not deterministic", k, g.calls);
        } else {
            by_src[src]++;
            if (st == VIT_ERROR_OUT_OF_MEMORY && strstr(e, "out of memory")) n_oom++;
            else if (src == SRC_STB && st == VIT_OK && (op == OP_CLASSIFY ? !memcmp(classes, s->ref_classes, 3 * sizeof(int))
                                                                       : !memcmp(out, s->ref_image, s->pixels * sizeof(float))))
                n_swallowed++;
            else
                fmt(why, sizeof(why), "%s failed: got %s: '%s'", src_name[src], vit_status_string(st), st == VIT_OK ? "(output differs)" : e);
        }
        if (!why[0] && (g.live_rt != live_rt || g.live_macro != live_macro))
            fmt(why, sizeof(why), "%s failed -> %s, then %+ld runtime / %+ld VIT_MALLOC allocations live", src_name[src],
                     vit_status_string(st), g.live_rt - live_rt, g.live_macro - live_macro);
        if (!why[0]) model_still_works(s, img, logits, why, sizeof(why));
        if (why[0] && !bad++) fmt(first, sizeof(first), "allocation %ld of %ld: %s", k, total, why);
        g.live_rt = live_rt; // one leak reported, not every one after it
        g.live_macro = live_macro;
    }
    check(bad == 0, name, "each of %ld allocations (%ld runtime, %ld vit VIT_MALLOC, %ld stb) failed in turn: %ld out of memory, "
          "%ld swallowed by stb's format probes; model bit-identical after each%s%s",
          total, by_src[SRC_RUNTIME], by_src[SRC_VIT], by_src[SRC_STB], n_oom, n_swallowed, bad ? "; FIRST BAD: " : "", first);
done:
    free(out);
    free(img);
    free(logits);
}

// Loads a model (with or without the runtime allocator) and checks that the
// forward pass allocates nothing.
static vit_model *load(const char *setup, const char *path, int runtime_allocator) {
    vit_options o;
    memset(&o, 0, sizeof(o));
    o.max_batch = 2;
    if (runtime_allocator) { o.allocator.alloc = rt_alloc; o.allocator.free = rt_free; }
    vit_model *m = NULL;
    g.fail_at = 0;
    vit_status st = vit_load(path, &o, &m);
    char name[512];
    fmt(name, sizeof(name), "%s: load %s", setup, path);
    if (!check(st == VIT_OK, name, "%s: %s", vit_status_string(st), vit_last_error(NULL))) return NULL;
    const vit_config *c = vit_model_config(m);
    size_t pixels = (size_t)c->in_chans * c->image_size * c->image_size, n = 5; // 5 images: chunks of 2, 2, 1
    float *imgs = (float *)calloc(n * pixels, sizeof(float)), *out = (float *)malloc(n * ((size_t)c->num_classes + c->dim) * sizeof(float));
    for (size_t i = 0; i < n * pixels; i++) imgs[i] = (float)((i * 7919) % 255) / 127.0f - 1.0f;
    long c0 = g.calls, rt0 = g.live_rt, mac0 = g.live_macro;
    vit_status f1 = vit_forward(m, imgs, 1, out), f5 = vit_forward(m, imgs, (int)n, out), e5 = vit_embed(m, imgs, (int)n, out);
    fmt(name, sizeof(name), "%s: vit_forward (n = 1, 5) and vit_embed (n = 5) allocate nothing (%s)", setup, path);
    check(f1 == VIT_OK && f5 == VIT_OK && e5 == VIT_OK && g.calls == c0 && g.live_rt == rt0 && g.live_macro == mac0, name,
          "%ld allocation requests, %s/%s/%s", g.calls - c0, vit_status_string(f1), vit_status_string(f5), vit_status_string(e5));
    free(imgs);
    free(out);
    return m;
}

static int make_subject(subject *s, vit_model *m, const char *path) {
    memset(s, 0, sizeof(*s));
    s->m = m;
    s->path = path;
    const vit_config *c = vit_model_config(m);
    s->pixels = (size_t)c->in_chans * c->image_size * c->image_size;
    s->K = (size_t)c->num_classes;
    g.fail_at = 0;
    if (!(s->bytes = read_all(path, &s->size))) return check(0, path, "cannot read");
    int n;
    s->px = stbi_load_from_memory(s->bytes, (int)s->size, &s->w, &s->h, &n, 0); // the private stb_image copy, clean
    s->ch = n;
    s->ref_image = (float *)malloc(s->pixels * sizeof(float));
    s->ref_logits = (float *)malloc(s->K * sizeof(float));
    vit_status st = s->px ? vit_preprocess_file(m, path, s->ref_image) : VIT_ERROR_IMAGE_DECODE;
    if (st == VIT_OK) st = vit_forward(m, s->ref_image, 1, s->ref_logits);
    if (st == VIT_OK) st = vit_classify_file(m, path, 3, s->ref_classes, s->ref_probs);
    char name[512];
    fmt(name, sizeof(name), "reference run of %s", path);
    return st == VIT_OK || check(0, name, "%s: %s", vit_status_string(st), vit_last_error(m));
}

static void free_subject(subject *s) {
    free(s->bytes);
    if (s->px) stbi_image_free(s->px);
    free(s->ref_image);
    free(s->ref_logits);
}

typedef struct plan {
    const char *model;    // under ROOT
    const char *image;    // under ROOT
    unsigned ops;         // 1 << OP_*
} plan;

#define ALL_OPS ((1u << OP_FILE) | (1u << OP_MEMORY) | (1u << OP_RGB8) | (1u << OP_CLASSIFY))
#define MEM_OPS (1u << OP_MEMORY)

static void run_plan(const char *root, int runtime_allocator, const plan *p, int np) {
    const char *setup = runtime_allocator ? "runtime allocator" : "VIT_MALLOC only";
    for (int i = 0; i < np; i++) {
        char mpath[1024], ipath[1024];
        fmt(mpath, sizeof(mpath), "%s/%s", root, p[i].model);
        fmt(ipath, sizeof(ipath), "%s/%s", root, p[i].image);
        long rt0 = g.live_rt, mac0 = g.live_macro;
        vit_model *m = load(setup, mpath, runtime_allocator);
        if (!m) continue;
        subject s;
        if (make_subject(&s, m, ipath))
            for (int op = OP_FILE; op <= OP_CLASSIFY; op++)
                if (p[i].ops & (1u << op)) sweep(setup, &s, op);
        free_subject(&s);
        vit_free(m);
        char name[1200];
        fmt(name, sizeof(name), "%s: nothing live after vit_free (%s, %s)", setup, p[i].model, p[i].image);
        check(g.live_rt == rt0 && g.live_macro == mac0, name, "%+ld runtime, %+ld VIT_MALLOC", g.live_rt - rt0, g.live_macro - mac0);
    }
}

int main(int argc, char **argv) {
    const char *root = argc > 1 ? argv[1] : ".";
    static const plan with_allocator[] = {
        {"tests/data/preprocess/bicubic224/model.safetensors", "tests/data/preprocess/images/chelsea.png", ALL_OPS},
        {"tests/data/preprocess/bicubic224/model.safetensors", "tests/data/preprocess/images/no_time_for_that_tiny.gif", ALL_OPS}, // upscaled
        {"tests/data/preprocess/bicubic224/model.safetensors", "tests/data/preprocess/images/rocket.jpg", MEM_OPS},
        {"tests/data/preprocess/bicubic224/model.safetensors", "tests/data/preprocess/images/chelsea_palette.gif", MEM_OPS},
        {"tests/data/preprocess/bicubic224/model.safetensors", "tests/data/preprocess/images/chelsea_rgba.png", MEM_OPS},
        {"tests/data/preprocess/bilinear96/model.safetensors", "tests/data/preprocess/images/coffee_333x177.bmp", MEM_OPS},
        {"tests/data/preprocess/bilinear96/model.safetensors", "tests/data/preprocess/images/coffee_97x301.tga", MEM_OPS},
        {"tests/data/preprocess/bilinear96/model.safetensors", "tests/data/preprocess/images/coffee_211x157.ppm", MEM_OPS},
        {"tests/data/preprocess/gray28/model.safetensors", "tests/data/preprocess/images/camera.png", ALL_OPS},     // gray
        {"tests/data/preprocess/gray28/model.safetensors", "tests/data/preprocess/images/chelsea.png", ALL_OPS},    // RGB -> L
        {"tests/data/preprocess/gray28/model.safetensors", "examples/images/0000_ankle_boot.png", ALL_OPS},         // 28x28: no resize
        {"tests/data/preprocess/squash64/model.safetensors", "tests/data/preprocess/images/rocket_portrait.jpg", MEM_OPS},
    };
    static const plan macro_only[] = {
        {"tests/data/preprocess/bicubic224/model.safetensors", "tests/data/preprocess/images/chelsea.png", ALL_OPS},
        {"tests/data/preprocess/bicubic224/model.safetensors", "tests/data/preprocess/images/rocket.jpg", ALL_OPS},
        {"tests/data/preprocess/gray28/model.safetensors", "tests/data/preprocess/images/camera.png", ALL_OPS},
    };
    run_plan(root, 1, with_allocator, (int)(sizeof(with_allocator) / sizeof(with_allocator[0])));
    run_plan(root, 0, macro_only, (int)(sizeof(macro_only) / sizeof(macro_only[0])));
    check(g.live_rt == 0 && g.live_macro == 0, "nothing live at exit", "%ld runtime, %ld VIT_MALLOC", g.live_rt, g.live_macro);
    return check_summary();
}
