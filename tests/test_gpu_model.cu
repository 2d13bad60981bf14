// test_gpu_model: the CUDA forward pass end to end, against references dumped
// by PyTorch (io.bin, layout in tests/data/ref/README.md).
//   - every tests/data/ref case (float64 PyTorch references), and
//   - with --timm DIR...: timm ViT-Ti/S/B/L with random weights, written on the
//     GPU machine by tools/make_gpu_reference.py (float32 PyTorch, TF32 off).
// Each case runs in fp32, bf16 and fp16 through vit_forward/vit_embed (default
// max_batch, then max_batch 1 so chunks and a second graph run), through
// vit_forward_async on a stream of ours, and once with graphs off.
// Pass: max|ours - ref| / max|ref| <= 1e-4 (fp32) or 2e-2 (bf16/fp16) for
// logits and features, and the same top-1 class for every image whose reference
// top-1 leads the runner-up by more than twice that tolerance (closer calls are
// counted as ties, not failures).
// Determinism, for every case: batch 1 and 3, each dtype, the default split-K
// policy and split-K forced to 4 slices: three runs with graphs and one without
// must give bit-identical logits (or features) (memcmp).
//
// usage: test_gpu_model DIR... [--timm DIR...]
#define VIT_IMPLEMENTATION
#include "../vit.h"
#include "test_util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#ifndef VIT__CUDA
int main(void) {
    printf("SKIP test_gpu_model: vit.h was compiled without CUDA\n");
    printf("0 passed, 0 failed\n");
    return 0;
}
#else

// images whose top-1 differs although the reference's lead exceeds 2 * tol * max|ref|
static int top1_diff(const float *got, const float *ref, int n, int k, double tol, int *ties) {
    double mr = 0;
    for (size_t i = 0; i < (size_t)n * k; i++) if (fabs(ref[i]) > mr) mr = fabs(ref[i]);
    int bad = 0;
    for (int i = 0; i < n; i++) {
        const float *g = got + (size_t)i * k, *r = ref + (size_t)i * k;
        int bg = 0, br = 0, second = -1;
        for (int j = 1; j < k; j++) { if (g[j] > g[bg]) bg = j; if (r[j] > r[br]) br = j; }
        for (int j = 0; j < k; j++) if (j != br && (second < 0 || r[j] > r[second])) second = j;
        if (second >= 0 && r[br] - r[second] <= 2 * tol * mr) { (*ties)++; continue; }
        if (bg != br) bad++;
    }
    return bad;
}

static const char *dtname(vit_dtype d) { return d == VIT_DTYPE_F32 ? "f32" : d == VIT_DTYPE_BF16 ? "bf16" : "f16"; }

// mode 0: vit_forward/vit_embed; 1: the async API; 2: graphs off
static int run(const char *dir, const reference *r, vit_dtype dt, int max_batch, int mode) {
    char path[1200];
    snprintf(path, sizeof(path), "%s/model.safetensors", dir);
    vit_options o;
    memset(&o, 0, sizeof(o));
    o.device = VIT_DEVICE_CUDA;
    o.dtype = dt;
    o.max_batch = max_batch;
    read_case_options(dir, &o);
    vit_model *m = NULL;
    vit_status st = vit_load(path, &o, &m);
    if (st != VIT_OK) { printf("NOT OK %s %s: load: %s: %s\n", dir, dtname(dt), vit_status_string(st), vit_last_error(NULL)); return 0; }
    const vit_config *c = vit_model_config(m);
    if (c->device != VIT_DEVICE_CUDA || c->dtype != dt) { printf("NOT OK %s: model not on CUDA in %s\n", dir, dtname(dt)); vit_free(m); return 0; }
    if (mode == 2) m->cuda->use_graphs = 0;
    double tol = dt == VIT_DTYPE_F32 ? 1e-4 : 2e-2;
    size_t ni = (size_t)r->n * r->c * r->h * r->w, nl = (size_t)r->n * r->k, nf = (size_t)r->n * r->d;
    float *feat = (float *)malloc(nf * 4 + 4), *logits = (float *)malloc(nl * 4 + 4);
    for (size_t i = 0; i < nf; i++) feat[i] = NAN;
    for (size_t i = 0; i < nl; i++) logits[i] = NAN;
    int ok = 1;
    if (mode == 1) {
        float *di = NULL, *dl = NULL, *df = NULL;
        cudaStream_t s;
        cudaStreamCreate(&s);
        cudaMalloc((void **)&di, ni * 4);
        cudaMalloc((void **)&dl, nl * 4 + 4);
        cudaMalloc((void **)&df, nf * 4);
        cudaMemcpy(di, r->input, ni * 4, cudaMemcpyHostToDevice);
        st = vit_embed_async(m, di, r->n, df, (void *)s);
        if (st == VIT_OK && r->k) st = vit_forward_async(m, di, r->n, dl, (void *)s);
        cudaStreamSynchronize(s);
        cudaMemcpy(feat, df, nf * 4, cudaMemcpyDeviceToHost);
        if (r->k) cudaMemcpy(logits, dl, nl * 4, cudaMemcpyDeviceToHost);
        cudaFree(di); cudaFree(dl); cudaFree(df);
        cudaStreamDestroy(s);
        if (st != VIT_OK) { printf("NOT OK %s %s: async: %s\n", dir, dtname(dt), vit_last_error(m)); ok = 0; }
    } else {
        st = vit_embed(m, r->input, r->n, feat);
        if (st == VIT_OK && r->k) st = vit_forward(m, r->input, r->n, logits);
        if (st != VIT_OK) { printf("NOT OK %s %s: forward: %s\n", dir, dtname(dt), vit_last_error(m)); ok = 0; }
    }
    if (ok) {
        double ef = rel_err(feat, r->features, nf), el = r->k ? rel_err(logits, r->logits, nl) : 0;
        int ties = 0, bad = r->k ? top1_diff(logits, r->logits, r->n, r->k, tol, &ties) : 0;
        ok = ef <= tol && el <= tol && bad == 0;
        printf("%s %s %s (%s, max_batch %d): logits rel err %.2e, features rel err %.2e, top-1 %s (%d close calls) [tol %.0e]\n",
               ok ? "OK" : "NOT OK", dir, dtname(dt), mode == 0 ? "vit_forward" : mode == 1 ? "async" : "no graphs", max_batch, el, ef,
               bad ? "DIFFERENT" : "same", ties, tol);
    }
    free(feat); free(logits);
    vit_free(m);
    return ok;
}

// Runs batches 1 and 3 (images cycled from the reference's) several times; all
// results must be bit-identical, graphs or not. splitk: 0 (default policy) or forced.
static int determinism(const char *dir, const reference *r, vit_dtype dt, int splitk) {
    char path[1200];
    snprintf(path, sizeof(path), "%s/model.safetensors", dir);
    vit_options o;
    memset(&o, 0, sizeof(o));
    o.device = VIT_DEVICE_CUDA;
    o.dtype = dt;
    o.max_batch = 3;
    read_case_options(dir, &o);
    vit_model *m = NULL;
    vit_status st = vit_load(path, &o, &m);
    if (st != VIT_OK) { printf("NOT OK %s %s: load: %s\n", dir, dtname(dt), vit_last_error(NULL)); return 0; }
    vit__force force;
    memset(&force, 0, sizeof(force));
    force.splitk = splitk;
    m->cuda->force = &force;
    size_t per = (size_t)r->c * r->h * r->w, outw = r->k ? (size_t)r->k : (size_t)r->d;
    float *img = (float *)malloc(3 * per * 4), *got[4];
    for (int i = 0; i < 3; i++) memcpy(img + i * per, r->input + (size_t)(i % r->n) * per, per * 4);
    int ok = 1;
    for (int B = 1; B <= 3; B += 2) {
        for (int run = 0; run < 4; run++) {
            got[run] = (float *)malloc(B * outw * 4);
            memset(got[run], 0xFF, B * outw * 4);
            m->cuda->use_graphs = run < 3;
            st = r->k ? vit_forward(m, img, B, got[run]) : vit_embed(m, img, B, got[run]);
            if (st != VIT_OK) { printf("NOT OK %s %s: forward: %s\n", dir, dtname(dt), vit_last_error(m)); ok = 0; }
        }
        int same = 1;
        for (int run = 1; run < 4; run++) same &= !memcmp(got[0], got[run], B * outw * 4);
        double e = 0;
        for (size_t i = 0; i < B * outw; i++) e = fmax(e, fabs((double)got[3][i] - got[0][i]));
        printf("%s %s %s batch %d split-K %s: 3 graph runs + 1 without graphs bit-identical (max diff %.3g)\n", same ? "OK" : "NOT OK", dir,
               dtname(dt), B, splitk ? "forced 4" : "default", e);
        ok &= same;
        for (int run = 0; run < 4; run++) free(got[run]);
    }
    free(img);
    vit_free(m);
    return ok;
}

int main(int argc, char **argv) {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        cudaGetLastError();
        printf("SKIP test_gpu_model: no CUDA device\n");
        printf("0 passed, 0 failed\n");
        return 0;
    }
    int passed = 0, failed = 0, timm = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--timm")) { timm = 1; continue; }
        char path[1200];
        reference r;
        memset(&r, 0, sizeof(r));
        snprintf(path, sizeof(path), "%s/io.bin", argv[i]);
        if (!read_reference(path, &r)) { printf("NOT OK %s: cannot read %s\n", argv[i], path); failed++; continue; }
        int ok = 1;
        vit_dtype dts[3] = {VIT_DTYPE_F32, VIT_DTYPE_BF16, VIT_DTYPE_F16};
        for (int d = 0; d < 3; d++) {
            ok &= run(argv[i], &r, dts[d], timm ? r.n : 0, 0);
            if (!timm) {
                ok &= run(argv[i], &r, dts[d], 1, 0);
                ok &= run(argv[i], &r, dts[d], 2, 1);
            }
        }
        if (!timm) ok &= run(argv[i], &r, VIT_DTYPE_BF16, 2, 2);
        else ok &= run(argv[i], &r, VIT_DTYPE_BF16, r.n, 1);
        for (int d = 0; d < 3; d++) {
            ok &= determinism(argv[i], &r, dts[d], 0);
            ok &= determinism(argv[i], &r, dts[d], 4);
        }
        if (ok) passed++; else failed++;
        free(r.input); free(r.logits); free(r.features);
    }
    // the default device and dtype under nvcc with a GPU: CUDA, bf16
    if (argc > 1 && strcmp(argv[1], "--timm")) {
        char path[1200];
        snprintf(path, sizeof(path), "%s/model.safetensors", argv[1]);
        vit_model *m = NULL;
        vit_status st = vit_load(path, NULL, &m);
        int ok = st == VIT_OK && vit_model_config(m)->device == VIT_DEVICE_CUDA && vit_model_config(m)->dtype == VIT_DTYPE_BF16;
        printf("%s defaults: device %s, dtype %s\n", ok ? "OK" : "NOT OK", st == VIT_OK && vit_model_config(m)->device == VIT_DEVICE_CUDA ? "cuda" : "cpu",
               st == VIT_OK ? dtname(vit_model_config(m)->dtype) : "-");
        if (ok) passed++; else failed++;
        vit_free(m);
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
#endif
