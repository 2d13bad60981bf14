// test_features: vit_features (dense features: the tokens of chosen blocks)
// against references dumped by tools/make_features_reference.py (timm's
// forward_intermediates and transformers' hidden_states[k + 1], PyTorch in
// float64; features.bin, layout in tests/data/ref/README.md). For every case
// with a features.bin, on the CPU in fp32:
//   - each record alone (blocks = {k}): vit_features_shape's shape, per_block
//     and resolved block against the record, then vit_features on io.bin's
//     input within max|ours - ref| / max|ref| <= 1e-4; the output poisoned
//     (NaN) before the call, a guard region after it untouched;
//   - the records of one kind (norm, prefix, layout) in one call, the blocks
//     in a shuffled order, every other one as a negative index;
//   - the default spec (NULL, and zero-initialised): the last block, raw, with
//     the prefix tokens, as tokens;
//   - vit_features_rgb8 on small frames: the bits of vit_preprocess_rgb8 + vit_features;
//   - max_batch 2 with n = 3: the bits of one batch of 3.
// Once (the first case): bad specs fail with VIT_ERROR_INVALID_ARGUMENT (bf16
// output on the host: INVALID_ARGUMENT or UNSUPPORTED), a message, and nothing
// written.
//
// usage: test_features DIR...   (each DIR holds model.safetensors, io.bin, features.bin)
// The library is not built here: make links build/vit.o (as test_model), other
// builds (sanitizers) add -DVIT_IMPLEMENTATION.
#include "../vit.h"
#include "test_util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#define TOL 1e-4
#define GUARD 64 // floats after each output that must stay untouched

// The case's model on the CPU (NULL after printing why not).
static vit_model *load_case(const char *dir, int max_batch) {
    return load_case_model(dir, "load", VIT_DEVICE_CPU, VIT_DTYPE_DEFAULT, max_batch);
}

// One features call: shape and blocks from vit_features_shape against the
// expectation, then vit_features into a poisoned buffer of exactly the size
// asked plus a guard, compared with want (num x n x per_block values).
static int run_spec(vit_model *m, const char *name, const vit_features_spec *spec, const float *images, int n, const int shape_want[4],
                    size_t per_want, const int *blocks_want, int num, const float *want) {
    int shape[4] = {-1, -1, -1, -1}, blocks[64];
    size_t per = 0;
    vit_status st = vit_features_shape(m, spec, shape, &per, blocks);
    if (!check(st == VIT_OK, name, "vit_features_shape: %s: %s", vit_status_string(st), vit_last_error(m))) return 0;
    int ok = per == per_want && !memcmp(shape, shape_want, sizeof(shape));
    for (int i = 0; i < num; i++) ok &= blocks[i] == blocks_want[i];
    if (!check(ok, name, "vit_features_shape: shape {%d, %d, %d, %d} per_block %zu blocks[0] %d, want {%d, %d, %d, %d} %zu %d", shape[0], shape[1],
               shape[2], shape[3], per, blocks[0], shape_want[0], shape_want[1], shape_want[2], shape_want[3], per_want, blocks_want[0]))
        return 0;
    size_t need = (size_t)num * n * per;
    float *out = (float *)malloc((need + GUARD) * sizeof(float));
    poison(out, need + GUARD);
    st = vit_features(m, images, n, spec, out, need);
    double e = st == VIT_OK ? rel_err(out, want, need) : INFINITY;
    int guard = is_poisoned(out + need, GUARD);
    ok = check(st == VIT_OK && e <= TOL && guard, name, "rel err %.2e (<= %g)%s%s%s", e, TOL, guard ? "" : ", GUARD OVERWRITTEN",
               st != VIT_OK ? ": " : "", st != VIT_OK ? vit_last_error(m) : "");
    free(out);
    return ok;
}

// The records of one kind in one call: blocks shuffled, every other one negative (feat_group).
static int run_group(vit_model *m, const char *dir, const feat_ref *f, const reference *r, int norm, int keep, int layout) {
    int blocks[64], resolved[64], shape[4];
    float *want = NULL;
    const feat_record *e0 = NULL;
    int k = feat_group(f, norm, keep, layout, blocks, resolved, &want, &e0);
    if (k == 0) return 1;
    char list[256] = "", name[1400];
    for (int i = 0; i < k; i++) {
        size_t len = strlen(list);
        fmt(list + len, sizeof(list) - len, "%s%d", i ? ", " : "", blocks[i]);
    }
    vit_features_spec spec = feat_spec(blocks, k, norm, keep, layout, VIT_DTYPE_DEFAULT);
    feat_record_shape(f, e0, shape);
    fmt(name, sizeof(name), "%s blocks {%s} (%s)", dir, list, feat_kind_name(norm, keep, layout));
    int ok = run_spec(m, name, &spec, r->input, r->n, shape, e0->per_image, resolved, k, want);
    free(want);
    return ok;
}

// vit_features_rgb8 on two small frames (rows padded) against vit_preprocess_rgb8 + vit_features, bit for bit.
static int rgb8_case(vit_model *m, const char *dir, const feat_ref *f) {
    const vit_config *c = vit_model_config(m);
    int W = 23, H = 17, ch = 3, stride = W * ch + 5, n = 2;
    unsigned char *frames = (unsigned char *)malloc((size_t)n * H * stride);
    for (size_t i = 0; i < (size_t)n * H * stride; i++) frames[i] = (unsigned char)((i * 37u + (i >> 7) * 11u) & 0xFF);
    size_t per_image = (size_t)c->in_chans * c->image_height * c->image_width;
    float *images = (float *)malloc((size_t)n * per_image * sizeof(float));
    vit_status st = VIT_OK;
    for (int i = 0; st == VIT_OK && i < n; i++) st = vit_preprocess_rgb8(m, frames + (size_t)i * H * stride, W, H, stride, ch, images + (size_t)i * per_image);
    int blocks[2] = {0, -1};
    vit_features_spec spec;
    memset(&spec, 0, sizeof(spec));
    spec.blocks = blocks;
    spec.num_blocks = f->depth > 1 ? 2 : 1;
    spec.norm = 1;
    spec.layout = VIT_LAYOUT_GRID;
    size_t per = 0;
    if (st == VIT_OK) st = vit_features_shape(m, &spec, NULL, &per, NULL);
    size_t need = (size_t)spec.num_blocks * n * per;
    float *a = (float *)malloc((need + GUARD) * sizeof(float)), *b = (float *)malloc((need + GUARD) * sizeof(float));
    poison(a, need + GUARD);
    poison(b, need + GUARD);
    if (st == VIT_OK) st = vit_features(m, images, n, &spec, a, need);
    vit_status st2 = st == VIT_OK ? vit_features_rgb8(m, frames, n, W, H, stride, ch, &spec, b, need) : st;
    char name[1200];
    fmt(name, sizeof(name), "%s vit_features_rgb8 (2 frames %dx%d, stride %d)", dir, W, H, stride);
    int ok = check(st2 == VIT_OK && !memcmp(a, b, need * sizeof(float)) && is_poisoned(b + need, GUARD) && !is_poisoned(b, 1), name,
                   "%s bits of vit_preprocess_rgb8 + vit_features%s%s", st2 == VIT_OK && !memcmp(a, b, need * sizeof(float)) ? "the" : "NOT the",
                   st2 != VIT_OK ? ": " : "", st2 != VIT_OK ? vit_last_error(m) : "");
    free(frames); free(images); free(a); free(b);
    return ok;
}

// max_batch 2 with n = 3 (images cycled from io.bin's) against one batch of 3, bit for bit, for each kind of record.
static int chunk_case(vit_model *whole, const char *dir, const feat_ref *f, const reference *r) {
    vit_model *m2 = load_case(dir, 2);
    if (!m2) return 0;
    float *images = three_images(r);
    int ok = 1;
    for (int kind = 0; kind < 8; kind++) {
        int norm = (kind >> 1) & 1, keep = kind & 1, layout = kind >> 2;
        int blocks[2] = {-1, 0};
        vit_features_spec spec = feat_spec(blocks, f->depth > 1 ? 2 : 1, norm, keep, layout, VIT_DTYPE_DEFAULT);
        float *a, *b;
        size_t need;
        vit_status st2 = features_two_ways(whole, m2, images, &spec, GUARD, &a, &b, &need);
        int same = st2 == VIT_OK && !memcmp(a, b, need * sizeof(float));
        double e = 0;
        for (size_t i = 0; st2 == VIT_OK && i < need; i++) {
            double d = fabs((double)a[i] - b[i]);
            if (!(d <= e)) e = d;
        }
        char name[1200];
        fmt(name, sizeof(name), "%s max_batch 2, n 3 (%s)", dir, feat_kind_name(norm, keep, layout));
        ok &= check(same && is_poisoned(b + need, GUARD), name, "%s bits of one batch (max diff %.3g)%s%s", same ? "the" : "NOT the", e,
                    st2 != VIT_OK ? ": " : "", st2 != VIT_OK ? vit_last_error(m2) : "");
        free(a); free(b);
    }
    free(images);
    vit_free(m2);
    return ok;
}

// A bad call: the named status, a message, and nothing written to out.
static void expect_fail(vit_model *m, const char *what, vit_status st, vit_status want, vit_status alt, const float *out, size_t n) {
    const char *msg = vit_last_error(m);
    int ok = (st == want || st == alt) && msg[0] && (!out || is_poisoned(out, n));
    check(ok, what, "%s (want %s%s%s)%s%s%s", vit_status_string(st), vit_status_string(want), alt != want ? " or " : "", alt != want ? vit_status_string(alt) : "",
          msg[0] ? ": " : ", no message", msg, out && !is_poisoned(out, n) ? "; OUTPUT WRITTEN" : "");
}

static void errors_case(vit_model *m, const char *dir, const reference *r, const feat_ref *f) {
    const vit_status INV = VIT_ERROR_INVALID_ARGUMENT;
    int D = f->depth;
    vit_features_spec spec;
    size_t per = 0, cap = 0;
    int shape[4];
    memset(&spec, 0, sizeof(spec));
    vit_features_shape(m, NULL, shape, &per, NULL);
    cap = (size_t)r->n * per * 2 + GUARD; // room for two blocks
    float *out = (float *)malloc(cap * sizeof(float));
    char name[1200];
#define BAD(label, call, want, alt)                                                              \
    do {                                                                                         \
        poison(out, cap);                                                                        \
        fmt(name, sizeof(name), "%s errors: %s", dir, label);                                    \
        expect_fail(m, name, (call), (want), (alt), out, cap);                                   \
    } while (0)
    int b[2];
    spec.blocks = b;
    spec.num_blocks = 1;
    b[0] = D;
    BAD("block = depth", vit_features(m, r->input, r->n, &spec, out, cap), INV, INV);
    BAD("block = depth (vit_features_shape)", vit_features_shape(m, &spec, shape, &per, NULL), INV, INV);
    b[0] = -D - 1;
    BAD("block = -depth-1", vit_features(m, r->input, r->n, &spec, out, cap), INV, INV);
    BAD("block = -depth-1 (vit_features_shape)", vit_features_shape(m, &spec, shape, &per, NULL), INV, INV);
    spec.blocks = NULL;
    spec.num_blocks = -1;
    BAD("num_blocks -1, blocks NULL", vit_features(m, r->input, r->n, &spec, out, cap), INV, INV);
    spec.blocks = b;
    BAD("num_blocks -1, blocks given", vit_features(m, r->input, r->n, &spec, out, cap), INV, INV);
    spec.num_blocks = 2;
    b[0] = 0; b[1] = 0;
    BAD("repeated block {0, 0}", vit_features(m, r->input, r->n, &spec, out, cap), INV, INV);
    b[0] = D - 1; b[1] = -1;
    BAD("repeated block {depth-1, -1}", vit_features(m, r->input, r->n, &spec, out, cap), INV, INV);
    spec.blocks = NULL;
    spec.num_blocks = 1;
    BAD("blocks NULL with num_blocks 1", vit_features(m, r->input, r->n, &spec, out, cap), INV, INV);
    BAD("blocks NULL with num_blocks 1 (vit_features_shape)", vit_features_shape(m, &spec, shape, &per, NULL), INV, INV);
    memset(&spec, 0, sizeof(spec));
    spec.layout = (vit_layout)2;
    BAD("layout 2", vit_features(m, r->input, r->n, &spec, out, cap), INV, INV);
    memset(&spec, 0, sizeof(spec));
    spec.out_dtype = VIT_DTYPE_BF16;
    BAD("out_dtype BF16 on the host", vit_features(m, r->input, r->n, &spec, out, cap), INV, VIT_ERROR_UNSUPPORTED);
    spec.out_dtype = VIT_DTYPE_F16;
    BAD("out_dtype F16", vit_features(m, r->input, r->n, &spec, out, cap), INV, VIT_ERROR_UNSUPPORTED);
    memset(&spec, 0, sizeof(spec));
    size_t need = (size_t)r->n * per;
    BAD("out_capacity one too small", vit_features(m, r->input, r->n, &spec, out, need - 1), INV, INV);
    BAD("out_capacity 0", vit_features(m, r->input, r->n, &spec, out, 0), INV, INV);
    BAD("n = 0", vit_features(m, r->input, 0, &spec, out, cap), INV, INV);
    BAD("images NULL", vit_features(m, NULL, r->n, &spec, out, cap), INV, INV);
    poison(out, cap);
    fmt(name, sizeof(name), "%s errors: out NULL", dir);
    expect_fail(m, name, vit_features(m, r->input, r->n, &spec, NULL, cap), INV, INV, NULL, 0);
    check(vit_features(NULL, r->input, r->n, &spec, out, cap) == INV, "errors: model NULL", "VIT_ERROR_INVALID_ARGUMENT");
    check(vit_features_shape(NULL, &spec, shape, &per, NULL) == INV, "errors: model NULL (vit_features_shape)", "VIT_ERROR_INVALID_ARGUMENT");
    unsigned char px[4 * 4 * 4 * 3] = {0}; // up to 4 frames of 4x4 RGB (r->n <= 4)
    BAD("vit_features_rgb8 out_capacity one too small", vit_features_rgb8(m, px, r->n, 4, 4, 0, 3, &spec, out, need - 1), INV, INV);
    BAD("vit_features_async on a CPU model", vit_features_async(m, r->input, r->n, &spec, out, cap, NULL), VIT_ERROR_UNSUPPORTED, INV);
#undef BAD
    // the grid needs the patch tokens to be a rectangle: every loadable model's are (h/P x w/P), so no case here can ask otherwise
    printf("SKIP %s errors: grid of a patch count that is no rectangle (every model vit.h loads has an h/P x w/P grid)\n", dir);
    // after all the failures the model still works
    memset(&spec, 0, sizeof(spec));
    poison(out, cap);
    vit_status st = vit_features(m, r->input, r->n, &spec, out, need);
    fmt(name, sizeof(name), "%s errors: a good call after them", dir);
    check(st == VIT_OK && !is_poisoned(out, 1) && is_poisoned(out + need, GUARD), name, "%s", vit_status_string(st));
    free(out);
}

static int g_errors_done;

static void run_case(const char *dir) {
    feat_ref f;
    reference r;
    if (!read_features_case(dir, &f, &r)) return;
    vit_model *m = load_case(dir, 0);
    const vit_config *c = m ? vit_model_config(m) : NULL;
    if (c && !check(c->depth == f.depth && c->num_prefix == f.num_prefix && c->image_height == r.h && c->image_width == r.w, dir,
                    "model: depth %d, %d prefix tokens, %dx%d; features.bin: depth %d, %d prefix tokens; io.bin %dx%d", c->depth, c->num_prefix,
                    c->image_height, c->image_width, f.depth, f.num_prefix, r.h, r.w)) {
        vit_free(m);
        m = NULL;
    }
    if (m) {
        char name[1400];
        // each record alone
        for (int i = 0; i < f.count; i++) {
            const feat_record *e = &f.rec[i];
            if (!check(e->n == r.n, dir, "record %d: n %d, io.bin n %d", i, e->n, r.n)) continue;
            vit_features_spec spec = feat_spec(&e->k, 1, e->norm, e->keep_prefix, e->layout, VIT_DTYPE_DEFAULT);
            int shape[4];
            feat_record_shape(&f, e, shape);
            fmt(name, sizeof(name), "%s block %d (%s)", dir, e->k, feat_kind_name(e->norm, e->keep_prefix, e->layout));
            run_spec(m, name, &spec, r.input, r.n, shape, e->per_image, &e->k, 1, e->data);
        }
        // each kind's records in one call
        for (int kind = 0; kind < 8; kind++) run_group(m, dir, &f, &r, (kind >> 1) & 1, kind & 1, kind >> 2);
        // the default spec: the last block, raw, with the prefix tokens, tokens layout
        for (int i = 0; i < f.count; i++) {
            const feat_record *e = &f.rec[i];
            if (e->k != f.depth - 1 || e->norm || !e->keep_prefix || e->layout) continue;
            int shape[4], last = f.depth - 1;
            feat_record_shape(&f, e, shape);
            vit_features_spec zero;
            memset(&zero, 0, sizeof(zero));
            fmt(name, sizeof(name), "%s spec NULL (last block, raw, prefix, tokens)", dir);
            run_spec(m, name, NULL, r.input, r.n, shape, e->per_image, &last, 1, e->data);
            fmt(name, sizeof(name), "%s spec zero-initialised", dir);
            run_spec(m, name, &zero, r.input, r.n, shape, e->per_image, &last, 1, e->data);
            break;
        }
        rgb8_case(m, dir, &f);
        chunk_case(m, dir, &f, &r);
        if (!g_errors_done) {
            g_errors_done = 1;
            errors_case(m, dir, &r, &f);
        }
    }
    vit_free(m);
    free(r.input); free(r.logits); free(r.features);
    free_features(&f);
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) run_case(argv[i]);
    return check_summary();
}
