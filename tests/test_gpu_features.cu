// test_gpu_features: vit_features on a CUDA model against the references of
// tools/make_features_reference.py (features.bin beside each case's io.bin;
// layout in tests/data/ref/README.md), as test_features does on the CPU.
// For every case with a features.bin, in fp32, bf16 and fp16:
//   - each record alone through vit_features (host images and output);
//   - each kind's records (norm, prefix, layout) in one call, the blocks
//     shuffled and every other one negative, through vit_features_async
//     with device images and output on a stream of ours, fp32 and bf16 output;
//   - vit_features_rgb8 from host frames = vit_preprocess_rgb8 + vit_features,
//     and vit_features_rgb8_async from device frames = vit_preprocess_rgb8 +
//     vit_features_async, bit for bit;
//   - max_batch 2 with n = 3 within tolerance of one batch of 3;
//   - bf16 output from vit_features (host): INVALID_ARGUMENT or UNSUPPORTED;
//     out_capacity one too small on the async call: INVALID_ARGUMENT, nothing written.
// Pass: max|ours - ref| / max|ref| <= 1e-4 (fp32), 3e-2 (bf16, fp16, and bf16
// output); outputs poisoned (NaN) before each call, a guard after them untouched.
//
// usage: test_gpu_features DIR...
#define VIT_IMPLEMENTATION
#include "../vit.h"
#include "test_util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#ifndef VIT__CUDA
int main(void) {
    printf("SKIP test_gpu_features: vit.h was compiled without CUDA\n");
    printf("0 passed, 0 failed\n");
    return 0;
}
#else

#define GUARD 64

static const uint16_t POISON16 = 0x7fc1u; // a bf16 quiet NaN (bf16 outputs; fp32 ones: test_util.h's poison)

static const char *dtname(vit_dtype d) { return d == VIT_DTYPE_F32 ? "f32" : d == VIT_DTYPE_BF16 ? "bf16" : "f16"; }

static double tol_of(vit_dtype d) { return d == VIT_DTYPE_F32 ? 1e-4 : 3e-2; }

// The case's model on the GPU (NULL after printing why not).
static vit_model *load_gpu(const char *dir, vit_dtype dt, int max_batch) {
    char what[32];
    fmt(what, sizeof(what), "%s: load", dtname(dt));
    return load_case_model(dir, what, VIT_DEVICE_CUDA, dt, max_batch);
}

static float bf16_to_float(uint16_t h) {
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

// Each record alone through vit_features (host in and out).
static void host_records(vit_model *m, const char *dir, vit_dtype dt, const feat_ref *f, const reference *r) {
    double tol = tol_of(dt);
    for (int i = 0; i < f->count; i++) {
        const feat_record *e = &f->rec[i];
        vit_features_spec spec = feat_spec(&e->k, 1, e->norm, e->keep_prefix, e->layout, VIT_DTYPE_DEFAULT);
        int shape[4], want_shape[4], blk = -1;
        size_t per = 0;
        feat_record_shape(f, e, want_shape);
        vit_status st = vit_features_shape(m, &spec, shape, &per, &blk);
        char name[1400];
        fmt(name, sizeof(name), "%s %s block %d (%s)", dir, dtname(dt), e->k, feat_kind_name(e->norm, e->keep_prefix, e->layout));
        if (!check(st == VIT_OK && per == e->per_image && !memcmp(shape, want_shape, sizeof(shape)) && blk == e->k, name,
                   "vit_features_shape: %s, shape {%d, %d, %d, %d} per_block %zu block %d", vit_status_string(st), shape[0], shape[1], shape[2], shape[3],
                   per, blk))
            continue;
        size_t need = (size_t)r->n * per;
        float *out = (float *)malloc((need + GUARD) * sizeof(float));
        poison(out, need + GUARD);
        st = vit_features(m, r->input, r->n, &spec, out, need);
        double err = st == VIT_OK ? rel_err(out, e->data, need) : INFINITY;
        int guard = is_poisoned(out + need, GUARD);
        check(st == VIT_OK && err <= tol && guard, name, "vit_features: rel err %.2e (<= %g)%s%s%s", err, tol, guard ? "" : ", GUARD OVERWRITTEN",
              st != VIT_OK ? ": " : "", st != VIT_OK ? vit_last_error(m) : "");
        free(out);
    }
}

// Each kind's records in one vit_features_async call (device images and
// output, our stream), fp32 output and bf16 output.
static void async_groups(vit_model *m, const char *dir, vit_dtype dt, const feat_ref *f, const reference *r, const float *dimages) {
    cudaStream_t s;
    cudaStreamCreate(&s);
    for (int kind = 0; kind < 8; kind++) {
        int norm = (kind >> 1) & 1, keep = kind & 1, layout = kind >> 2;
        int blocks[64], resolved[64], rblocks[64];
        float *want = NULL;
        const feat_record *e0 = NULL;
        int k = feat_group(f, norm, keep, layout, blocks, resolved, &want, &e0);
        if (k == 0) continue;
        char list[256] = "", name[1400];
        for (int i = 0; i < k; i++) {
            size_t len = strlen(list);
            fmt(list + len, sizeof(list) - len, "%s%d", i ? ", " : "", blocks[i]);
        }
        for (int b16 = 0; b16 < 2; b16++) {
            vit_features_spec spec = feat_spec(blocks, k, norm, keep, layout, b16 ? VIT_DTYPE_BF16 : VIT_DTYPE_F32);
            size_t per = 0;
            vit_status st = vit_features_shape(m, &spec, NULL, &per, rblocks);
            fmt(name, sizeof(name), "%s %s vit_features_async%s blocks {%s} (%s)", dir, dtname(dt), b16 ? " bf16 output" : "", list,
                feat_kind_name(norm, keep, layout));
            int same_blocks = st == VIT_OK;
            for (int i = 0; same_blocks && i < k; i++) same_blocks = rblocks[i] == resolved[i];
            if (!check(same_blocks && per == e0->per_image, name, "vit_features_shape: %s, per_block %zu (want %zu), blocks resolved %s",
                       vit_status_string(st), per, e0->per_image, same_blocks ? "right" : "WRONG"))
                continue;
            size_t need = (size_t)k * r->n * per, esize = b16 ? 2 : 4;
            unsigned char *host = (unsigned char *)malloc((need + GUARD) * esize);
            for (size_t i = 0; i < need + GUARD; i++) memcpy(host + i * esize, b16 ? (const void *)&POISON16 : (const void *)&TEST_POISON, esize);
            void *dout = NULL;
            cudaMalloc(&dout, (need + GUARD) * esize);
            cudaMemcpy(dout, host, (need + GUARD) * esize, cudaMemcpyHostToDevice);
            st = vit_features_async(m, dimages, r->n, &spec, dout, need, (void *)s);
            cudaStreamSynchronize(s);
            unsigned char *back = (unsigned char *)malloc((need + GUARD) * esize);
            cudaMemcpy(back, dout, (need + GUARD) * esize, cudaMemcpyDeviceToHost);
            int guard = !memcmp(back + need * esize, host + need * esize, GUARD * esize);
            float *got = (float *)malloc(need * sizeof(float));
            for (size_t i = 0; i < need; i++) {
                if (b16) { uint16_t h; memcpy(&h, back + i * 2, 2); got[i] = bf16_to_float(h); }
                else memcpy(&got[i], back + i * 4, 4);
            }
            double tol = b16 ? 3e-2 : tol_of(dt), err = st == VIT_OK ? rel_err(got, want, need) : INFINITY;
            check(st == VIT_OK && err <= tol && guard, name, "rel err %.2e (<= %g)%s%s%s", err, tol, guard ? "" : ", GUARD OVERWRITTEN",
                  st != VIT_OK ? ": " : "", st != VIT_OK ? vit_last_error(m) : "");
            cudaFree(dout);
            free(host); free(back); free(got);
        }
        free(want);
    }
    cudaStreamDestroy(s);
}

// 8-bit frames: host frames through vit_features_rgb8 and device frames through
// vit_features_rgb8_async give the bits of vit_preprocess_rgb8 + vit_features
// (vit_features_async).
static void frames_case(vit_model *m, const char *dir, vit_dtype dt, const feat_ref *f) {
    enum { NF = 2, FW = 37, FH = 29, FC = 3, FS = FW * FC + 5 };
    const vit_config *c = vit_model_config(m);
    static unsigned char frames[NF * FH * FS];
    unsigned st32 = 777;
    for (size_t i = 0; i < sizeof(frames); i++) { st32 = st32 * 1664525u + 1013904223u; frames[i] = (unsigned char)(st32 >> 24); }
    size_t per_image = (size_t)c->in_chans * c->image_height * c->image_width;
    float *pre = (float *)malloc(NF * per_image * sizeof(float));
    vit_status st = VIT_OK;
    for (int i = 0; st == VIT_OK && i < NF; i++) st = vit_preprocess_rgb8(m, frames + (size_t)i * FH * FS, FW, FH, FS, FC, pre + i * per_image);
    int blocks[2] = {0, -1};
    vit_features_spec spec = feat_spec(blocks, f->depth > 1 ? 2 : 1, 1, 1, 1, VIT_DTYPE_DEFAULT);
    size_t per = 0;
    if (st == VIT_OK) st = vit_features_shape(m, &spec, NULL, &per, NULL);
    size_t need = (size_t)spec.num_blocks * NF * per;
    float *a = (float *)malloc((need + GUARD) * sizeof(float)), *b = (float *)malloc((need + GUARD) * sizeof(float));
    char name[1400];
    // host
    poison(a, need + GUARD);
    poison(b, need + GUARD);
    vit_status sa = st == VIT_OK ? vit_features(m, pre, NF, &spec, a, need) : st;
    vit_status sb = sa == VIT_OK ? vit_features_rgb8(m, frames, NF, FW, FH, FS, FC, &spec, b, need) : sa;
    fmt(name, sizeof(name), "%s %s vit_features_rgb8 (host frames %dx%d, stride %d)", dir, dtname(dt), FW, FH, FS);
    int same = sb == VIT_OK && !memcmp(a, b, need * sizeof(float));
    check(same && is_poisoned(b + need, GUARD) && !is_poisoned(b, 1), name, "%s bits of vit_preprocess_rgb8 + vit_features%s%s", same ? "the" : "NOT the",
          sb != VIT_OK ? ": " : "", sb != VIT_OK ? vit_last_error(m) : "");
    // device
    unsigned char *dframes = NULL;
    float *dpre = NULL, *da = NULL, *db = NULL;
    cudaMalloc((void **)&dframes, sizeof(frames));
    cudaMalloc((void **)&dpre, NF * per_image * sizeof(float));
    cudaMalloc((void **)&da, (need + GUARD) * sizeof(float));
    cudaMalloc((void **)&db, (need + GUARD) * sizeof(float));
    cudaMemcpy(dframes, frames, sizeof(frames), cudaMemcpyHostToDevice);
    cudaMemcpy(dpre, pre, NF * per_image * sizeof(float), cudaMemcpyHostToDevice);
    poison(a, need + GUARD);
    cudaMemcpy(da, a, (need + GUARD) * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(db, a, (need + GUARD) * sizeof(float), cudaMemcpyHostToDevice);
    sa = st == VIT_OK ? vit_features_async(m, dpre, NF, &spec, da, need, NULL) : st;
    sb = sa == VIT_OK ? vit_features_rgb8_async(m, dframes, NF, FW, FH, FS, FC, &spec, db, need, NULL) : sa;
    cudaDeviceSynchronize();
    cudaMemcpy(a, da, (need + GUARD) * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(b, db, (need + GUARD) * sizeof(float), cudaMemcpyDeviceToHost);
    fmt(name, sizeof(name), "%s %s vit_features_rgb8_async (device frames %dx%d, stride %d)", dir, dtname(dt), FW, FH, FS);
    same = sb == VIT_OK && !memcmp(a, b, need * sizeof(float));
    check(same && is_poisoned(b + need, GUARD) && !is_poisoned(b, 1), name, "%s bits of vit_preprocess_rgb8 + vit_features_async%s%s", same ? "the" : "NOT the",
          sb != VIT_OK ? ": " : "", sb != VIT_OK ? vit_last_error(m) : "");
    cudaFree(dframes); cudaFree(dpre); cudaFree(da); cudaFree(db);
    free(pre); free(a); free(b);
}

// max_batch 2, n = 3 (images cycled from io.bin's) within tolerance of one batch of 3.
static void chunk_case(vit_model *whole, const char *dir, vit_dtype dt, const feat_ref *f, const reference *r) {
    vit_model *m2 = load_gpu(dir, dt, 2);
    if (!m2) return;
    float *images = three_images(r);
    int blocks[2] = {-1, 0};
    vit_features_spec spec = feat_spec(blocks, f->depth > 1 ? 2 : 1, 1, 1, 1, VIT_DTYPE_DEFAULT); // grid with the prefix tokens: every offset used
    float *a, *b;
    size_t need;
    vit_status st2 = features_two_ways(whole, m2, images, &spec, GUARD, &a, &b, &need);
    double err = st2 == VIT_OK ? rel_err(b, a, need) : INFINITY, tol = tol_of(dt);
    char name[1400];
    fmt(name, sizeof(name), "%s %s max_batch 2, n 3 (normed, prefix, grid)", dir, dtname(dt));
    check(st2 == VIT_OK && err <= tol && is_poisoned(b + need, GUARD), name, "rel err %.2e from one batch (<= %g)%s%s", err, tol, st2 != VIT_OK ? ": " : "",
          st2 != VIT_OK ? vit_last_error(m2) : "");
    free(images); free(a); free(b);
    vit_free(m2);
}

// bf16 output refused on the host call; the async call checks out_capacity before anything runs.
static void errors_case(vit_model *m, const char *dir, vit_dtype dt, const reference *r, const float *dimages) {
    vit_features_spec spec = feat_spec(NULL, 0, 0, 1, 0, VIT_DTYPE_BF16);
    size_t per = 0;
    vit_features_shape(m, NULL, NULL, &per, NULL);
    size_t need = (size_t)r->n * per;
    float *out = (float *)malloc((need + GUARD) * sizeof(float));
    poison(out, need + GUARD);
    vit_status st = vit_features(m, r->input, r->n, &spec, out, need);
    char name[1400];
    fmt(name, sizeof(name), "%s %s errors: out_dtype BF16 on vit_features", dir, dtname(dt));
    check((st == VIT_ERROR_INVALID_ARGUMENT || st == VIT_ERROR_UNSUPPORTED) && is_poisoned(out, need + GUARD) && vit_last_error(m)[0], name, "%s: %s",
          vit_status_string(st), vit_last_error(m));
    spec.out_dtype = VIT_DTYPE_F32;
    float *dout = NULL;
    cudaMalloc((void **)&dout, (need + GUARD) * sizeof(float));
    cudaMemcpy(dout, out, (need + GUARD) * sizeof(float), cudaMemcpyHostToDevice);
    st = vit_features_async(m, dimages, r->n, &spec, dout, need - 1, NULL);
    cudaDeviceSynchronize();
    cudaMemcpy(out, dout, (need + GUARD) * sizeof(float), cudaMemcpyDeviceToHost);
    fmt(name, sizeof(name), "%s %s errors: vit_features_async out_capacity one too small", dir, dtname(dt));
    check(st == VIT_ERROR_INVALID_ARGUMENT && is_poisoned(out, need + GUARD) && vit_last_error(m)[0], name, "%s: %s%s", vit_status_string(st),
          vit_last_error(m), is_poisoned(out, need + GUARD) ? "" : "; OUTPUT WRITTEN");
    cudaFree(dout);
    free(out);
}

static void run_case(const char *dir) {
    feat_ref f;
    reference r;
    if (!read_features_case(dir, &f, &r)) return;
    {
        size_t ni = (size_t)r.n * r.c * r.h * r.w;
        float *dimages = NULL;
        cudaMalloc((void **)&dimages, ni * sizeof(float));
        cudaMemcpy(dimages, r.input, ni * sizeof(float), cudaMemcpyHostToDevice);
        const vit_dtype dts[3] = {VIT_DTYPE_F32, VIT_DTYPE_BF16, VIT_DTYPE_F16};
        for (int d = 0; d < 3; d++) {
            vit_model *m = load_gpu(dir, dts[d], 0);
            if (!m) continue;
            const vit_config *c = vit_model_config(m);
            char name[1400];
            fmt(name, sizeof(name), "%s %s", dir, dtname(dts[d]));
            if (check(c->device == VIT_DEVICE_CUDA && c->dtype == dts[d] && c->depth == f.depth && c->num_prefix == f.num_prefix, name,
                      "model on %s in %d, depth %d, %d prefix tokens (features.bin: depth %d, %d prefix tokens)",
                      c->device == VIT_DEVICE_CUDA ? "CUDA" : "the CPU", (int)c->dtype, c->depth, c->num_prefix, f.depth, f.num_prefix)) {
                host_records(m, dir, dts[d], &f, &r);
                async_groups(m, dir, dts[d], &f, &r, dimages);
                frames_case(m, dir, dts[d], &f);
                chunk_case(m, dir, dts[d], &f, &r);
                errors_case(m, dir, dts[d], &r, dimages);
            }
            vit_free(m);
        }
        cudaFree(dimages);
    }
    free(r.input); free(r.logits); free(r.features);
    free_features(&f);
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) run_case(argv[i]);
    return check_summary();
}
#endif
