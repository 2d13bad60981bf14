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
// Frames and the chunked host path (frames_case): the staged host path gives
// the bits of the async path in the same chunks (spread host frames: in the
// same passes of the first blocks per chunk and the rest over all), and those
// passes the results of one pass within tolerance; vit_forward_rgb8 and
// vit_embed_rgb8 from host and device frames those of vit_preprocess_rgb8 +
// vit_forward. In fp32, bf16, fp16, and fp8 where it runs.
// The residual stream in bf16 (residual_case): bf16 and fp8 against the
// reference and the CPU's run of the same rounding, deterministic; refused in
// fp32 and fp16 on CUDA.
//
// usage: test_gpu_model [--persistent] DIR... [--timm DIR...]
//   (--persistent: only the persistent kernel's cases, persistent_case)
#define VIT_IMPLEMENTATION
#define VIT_TEST_HOOKS // vit__test_hook: forced splits and staging
#include "../vit.h"
#include "test_util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <pthread.h>
#include <unistd.h>

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

// 1 when device 0 runs the sm_90a kernels (a model there says so)
static int m_wgmma(void) {
    static int known = -1;
    if (known < 0) {
        vit_model *m = (vit_model *)calloc(1, sizeof(vit_model));
        known = vit__cuda_open(m, 0) == VIT_OK && m->cuda->wgmma;
        if (m->cuda) vit__cuda_free(m);
        free(m);
    }
    return known;
}

static const char *dtname(vit_dtype d) { return d == VIT_DTYPE_F32 ? "f32" : d == VIT_DTYPE_BF16 ? "bf16" : d == VIT_DTYPE_FP8 ? "fp8" : "f16"; }

// vit_options.residual_dtype for the loads below (residual_case sets it)
static vit_dtype g_residual = VIT_DTYPE_DEFAULT;

// The case's model on the GPU in dtype dt (NULL after printing why not).
static vit_model *load_gpu_on(const char *dir, vit_dtype dt, int max_batch, int device_index) {
    char path[1200];
    snprintf(path, sizeof(path), "%s/model.safetensors", dir);
    vit_options o;
    memset(&o, 0, sizeof(o));
    o.device = VIT_DEVICE_CUDA;
    o.dtype = dt;
    o.max_batch = max_batch;
    o.device_index = device_index;
    o.residual_dtype = g_residual;
    read_case_options(dir, &o);
    vit_model *m = NULL;
    vit_status st = vit_load(path, &o, &m);
    if (st != VIT_OK) printf("NOT OK %s %s: load: %s: %s\n", dir, dtname(dt), vit_status_string(st), vit_last_error(NULL));
    return m;
}
static vit_model *load_gpu(const char *dir, vit_dtype dt, int max_batch) { return load_gpu_on(dir, dt, max_batch, 0); }

// mode 0: vit_forward/vit_embed; 1: the async API; 2: graphs off
static int run(const char *dir, const reference *r, vit_dtype dt, int max_batch, int mode) {
    vit_model *m = load_gpu(dir, dt, max_batch);
    if (!m) return 0;
    vit_status st;
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
    vit_model *m = load_gpu(dir, dt, 3);
    if (!m) return 0;
    vit_status st;
    vit__test_hook force;
    memset(&force, 0, sizeof(force));
    force.splitk = splitk;
    m->cuda->hook = &force;
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


// Holds every SM but `free_sms` (one CTA each, all of the shared memory a
// block may take) until *release, counting itself into *started.
__global__ void hog_kernel(volatile int *release, int *started) {
    extern __shared__ char hog_smem[];
    if (threadIdx.x == 0) {
        hog_smem[0] = 1;
        atomicAdd(started, 1);
        while (!*release) __nanosleep(1000);
    }
}

// The persistent kernel (>>persistent): forced on (hook 2) at batch n and
// 1, and with its plans fitted to 99 KB of shared memory, against the
// reference and against the per-kernel path (hook 1), within the dtype's
// tolerance; deterministic (3 graph runs + 1 without
// graphs); the same bits with one CTA and with 3 CTAs as with one per SM (more
// work items than CTAs, in any number); and finishing while another kernel
// holds all SMs but two (no CTA waits on work no CTA runs). A model it does
// not run (qk-norm, SwiGLU, head size > 64 or not a multiple of 8, ...) must
// plan the per-kernel path even when forced. quick (the real-size --timm
// models, whose loads take long): the CTA counts and the run without graphs
// left to the small cases.
static int persistent_case(const char *dir, const reference *r, vit_dtype dt, int quick) {
    int n = r->n < 8 ? r->n : 8, ok = 1;
    size_t per = (size_t)r->c * r->h * r->w, outw = r->k ? (size_t)r->k : (size_t)r->d;
    const float *want = r->k ? r->logits : r->features;
    float *got[11];
    for (int i = 0; i < 11; i++) { got[i] = (float *)malloc((size_t)n * outw * 4); memset(got[i], 0xFF, (size_t)n * outw * 4); }
    // runs 0..3: on, default CTAs (3: no graphs); 4: one CTA; 5: three CTAs; 6: off; 7: on, batch 1;
    // 8: on, plans fitted to 99 KB of shared memory (an RTX's: K and V streamed in its attention items);
    // 9, 10: on, GEMM tiles of 128 and 256 rows (the hook's pk_rows; 256 with 3 CTAs)
    int cfg[11][5] = {{2, 0, 1, 0, 0}, {2, 0, 1, 0, 0}, {2, 0, 1, 0, 0},         {2, 0, 0, 0, 0},   {2, 1, 1, 0, 0},  {2, 3, 1, 0, 0},
                      {1, 0, 1, 0, 0}, {2, 0, 1, 0, 0}, {2, 0, 1, 99 * 1024, 0}, {2, 0, 1, 0, 128}, {2, 3, 1, 0, 256}};
    int ran[11] = {0};
    for (int i = 0; i < 11 && ok; i++) {
        if (quick && i >= 3 && i <= 5) { memcpy(got[i], got[0], (size_t)n * outw * 4); ran[i] = ran[0]; continue; }
        vit_model *m = load_gpu(dir, dt, n);
        if (!m) { ok = 0; break; }
        vit__test_hook h;
        memset(&h, 0, sizeof(h));
        h.persistent = cfg[i][0];
        h.pk_ctas = cfg[i][1];
        h.smem_limit = cfg[i][3];
        h.pk_rows = cfg[i][4];
        m->cuda->hook = &h;
        m->cuda->use_graphs = cfg[i][2];
        int B = i == 7 ? 1 : n;
        vit_status st = r->k ? vit_forward(m, r->input, B, got[i]) : vit_embed(m, r->input, B, got[i]);
        if (st != VIT_OK) { printf("NOT OK %s %s persistent run %d: %s\n", dir, dtname(dt), i, vit_last_error(m)); ok = 0; }
        ran[i] = h.pk_ran;
        if (i == 0 && !m->cuda->pk_images) { // not a model it runs: the forced run planned the usual kernels
            printf("%s %s %s: not run by the persistent kernel (workspace %s), forced: %s\n", ran[0] ? "NOT OK" : "OK", dir, dtname(dt),
                   m->cuda->pk_ws ? "made" : "not made", ran[0] ? "ran it" : "the per-kernel path");
            vit_free(m);
            for (int j = 0; j < 11; j++) free(got[j]);
            return !ran[0];
        }
        vit_free(m);
    }
    if (ok) {
        double tol = 2e-2, e0 = rel_err(got[0], want, (size_t)n * outw), e6 = rel_err(got[6], want, (size_t)n * outw), e7 = rel_err(got[7], want, outw);
        double e06 = rel_err(got[0], got[6], (size_t)n * outw), e8 = rel_err(got[8], want, (size_t)n * outw);
        double e9 = rel_err(got[9], want, (size_t)n * outw), e10 = rel_err(got[10], want, (size_t)n * outw);
        int same = 1, ctas = 1;
        for (int i = 1; i < 4; i++) same &= !memcmp(got[0], got[i], (size_t)n * outw * 4);
        for (int i = 4; i < 6; i++) ctas &= !memcmp(got[0], got[i], (size_t)n * outw * 4);
        int all_ran = ran[0] && ran[3] && ran[4] && ran[5] && ran[7] && ran[8] && ran[9] && ran[10] && !ran[6];
        ok = e0 <= tol && e6 <= tol && e7 <= tol && e06 <= tol && e8 <= tol && e9 <= tol && e10 <= tol && same && ctas && all_ran;
        printf("%s %s %s persistent: batch %d rel err %.2e (per-kernel %.2e, apart %.2e), batch 1 %.2e, fitted to 99 KB %.2e, 128- and 256-row tiles %.2e %.2e; %s; 1 and "
               "3 CTAs %s; ran %s [tol %.0e]\n",
               ok ? "OK" : "NOT OK", dir, dtname(dt), n, e0, e6, e06, e7, e8, e9, e10,
               same ? (quick ? "3 graph runs bit-identical" : "3 graph runs + 1 without bit-identical") : "RUNS DIFFER",
               quick ? "(left to the small cases)" : ctas ? "the same bits" : "DIFFERENT BITS", all_ran ? "where forced" : "NOT AS FORCED", tol);
    }
    // progress with all SMs but two held by another kernel
    if (ok) {
        vit_model *m = load_gpu(dir, dt, n);
        vit__test_hook h;
        memset(&h, 0, sizeof(h));
        h.persistent = 2;
        if (m) m->cuda->hook = &h;
        int sms = m ? m->cuda->sm_count : 0, optin = m ? m->cuda->smem_optin : 0, hogs = sms - 2;
        int *flags = NULL, *dflags = NULL;
        float *di = NULL, *dout = NULL;
        cudaStream_t hs = NULL, fs = NULL;
        int done = 0;
        if (m && cudaHostAlloc((void **)&flags, 2 * sizeof(int), cudaHostAllocMapped) == cudaSuccess) {
            flags[0] = flags[1] = 0;
            cudaHostGetDevicePointer((void **)&dflags, flags, 0);
            cudaStreamCreateWithFlags(&hs, cudaStreamNonBlocking);
            cudaStreamCreateWithFlags(&fs, cudaStreamNonBlocking);
            cudaMalloc((void **)&di, (size_t)n * per * 4);
            cudaMalloc((void **)&dout, (size_t)n * outw * 4);
            cudaMemcpy(di, r->input, (size_t)n * per * 4, cudaMemcpyHostToDevice);
            // capture the pass's graph first, then hold the SMs and replay it
            vit_status st = r->k ? vit_forward_async(m, di, n, dout, fs) : vit_embed_async(m, di, n, dout, fs);
            cudaStreamSynchronize(fs);
            cudaFuncSetAttribute(hog_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, optin);
            hog_kernel<<<hogs, 32, optin, hs>>>(dflags, dflags + 1);
            for (int t = 0; t < 5000 && *(volatile int *)&flags[1] < hogs; t++) usleep(1000);
            int held = *(volatile int *)&flags[1] == hogs;
            if (st == VIT_OK) st = r->k ? vit_forward_async(m, di, n, dout, fs) : vit_embed_async(m, di, n, dout, fs);
            for (int t = 0; st == VIT_OK && t < 20000 && !done; t++) {
                done = cudaStreamQuery(fs) == cudaSuccess;
                if (!done) usleep(1000);
            }
            int still = *(volatile int *)&flags[1] == hogs; // (the hogs never leave before release)
            flags[0] = 1;
            cudaStreamSynchronize(hs);
            if (!done) cudaStreamSynchronize(fs);
            float *back = (float *)malloc((size_t)n * outw * 4);
            cudaMemcpy(back, dout, (size_t)n * outw * 4, cudaMemcpyDeviceToHost);
            int same = !memcmp(back, got[0], (size_t)n * outw * 4);
            int pass = st == VIT_OK && held && still && done && same && h.pk_ran;
            printf("%s %s %s persistent: %d of %d SMs held by another kernel: the pass %s, %s\n", pass ? "OK" : "NOT OK", dir, dtname(dt), held ? hogs : -1,
                   sms, done ? "finished while they were held" : "DID NOT FINISH while they were held", same ? "the same bits" : "DIFFERENT BITS");
            ok &= pass;
            free(back);
            cudaFree(di); cudaFree(dout);
            cudaStreamDestroy(hs); cudaStreamDestroy(fs);
            cudaFreeHost(flags);
        } else {
            printf("NOT OK %s %s persistent: no model or no mapped memory\n", dir, dtname(dt));
            ok = 0;
        }
        vit_free(m);
    }
    for (int i = 0; i < 11; i++) free(got[i]);
    return ok;
}

static int same_bits(const char *dir, vit_dtype dt, const char *what, vit_status st, vit_model *m, const float *a, const float *b, size_t n) {
    int ok = st == VIT_OK && !memcmp(a, b, n * sizeof(float));
    double e = 0;
    for (size_t i = 0; i < n; i++) e = fmax(e, fabs((double)a[i] - b[i]));
    printf("%s %s %s: %s (max diff %.3g)%s%s\n", ok ? "OK" : "NOT OK", dir, dtname(dt), what, e, st != VIT_OK ? ": " : "", st != VIT_OK ? vit_last_error(m) : "");
    return ok;
}

// a within the dtype's tolerance of b: max |a - b| <= tol * max |b| (1e-4 fp32, 2e-2 bf16/fp16/fp8)
static int near(const char *dir, vit_dtype dt, const char *what, vit_status st, vit_model *m, const float *a, const float *b, size_t n) {
    double e = 0, mx = 0, tol = dt == VIT_DTYPE_F32 ? 1e-4 : 2e-2;
    for (size_t i = 0; i < n; i++) {
        double d = fabs((double)a[i] - b[i]);
        if (!(d <= e)) e = d; // a NaN sticks (and fails)
        mx = fmax(mx, fabs((double)b[i]));
    }
    int ok = st == VIT_OK && e <= tol * mx;
    printf("%s %s %s: %s (max diff %.3g of %.3g)%s%s\n", ok ? "OK" : "NOT OK", dir, dtname(dt), what, e, mx, st != VIT_OK ? ": " : "", st != VIT_OK ? vit_last_error(m) : "");
    return ok;
}

// The chunk sizes the host path stages n inputs of `bytes` in (vit__stage_chunk).
static int host_chunks(vit_model *m, int n, size_t bytes, int *sizes) {
    vit__input in;
    memset(&in, 0, sizeof(in));
    in.bytes = bytes;
    in.image_bytes = (size_t)m->cfg.in_chans * m->cfg.image_height * m->cfg.image_width * sizeof(float);
    in.host = 1;
    int cap = vit__stage_cap(m, &in), k = 0;
    for (int i0 = 0, B = 0; i0 < n; i0 += B) sizes[k++] = B = vit__stage_chunk(m->cuda, &in, n, cap, i0, B);
    return k;
}

// vit_forward_async (or embed) on device images in the given chunks: what the
// host path computes, without its staging
static vit_status async_in_chunks(vit_model *m, const float *dimages, int nchunks, const int *sizes, float *dout, float *host_out, size_t per, size_t K, int logits) {
    vit_status st = VIT_OK;
    for (int i = 0, i0 = 0; st == VIT_OK && i < nchunks; i0 += sizes[i++])
        st = logits ? vit_forward_async(m, dimages + (size_t)i0 * per, sizes[i], dout + (size_t)i0 * K, NULL)
                    : vit_embed_async(m, dimages + (size_t)i0 * per, sizes[i], dout + (size_t)i0 * K, NULL);
    cudaDeviceSynchronize();
    int n = 0;
    for (int i = 0; i < nchunks; i++) n += sizes[i];
    cudaMemcpy(host_out, dout, (size_t)n * K * 4, cudaMemcpyDeviceToHost);
    return st;
}

// 8-bit frames and the chunked host path, on 7 random frames (97x61 RGB, rows
// padded) with max_batch 4, so that the host path stages several chunks:
//   - vit_forward from host floats (staged, overlapped) = vit_forward_async on
//     device floats in the same chunks (the staging changes no bit);
//   - vit_forward_rgb8 from host frames = vit_preprocess_rgb8 (CPU) +
//     vit_forward_async in its chunks (the GPU transform changes no bit);
//   - device frames through vit_forward_rgb8 and vit_forward_rgb8_async =
//     device floats through vit_forward (chunks of max_batch);
//   - another frame size re-plans (packed rows); the async call refuses host frames.
static int frames_case(const char *dir, vit_dtype dt) {
    enum { NF = 7, FW = 97, FH = 61, FC = 3, FS = FW * FC + 5 };
    int ok = 1;
    if (dt == VIT_DTYPE_FP8) { // where fp8 runs on this GPU and model (fp8_case checks the refusal otherwise)
        char path[1200];
        snprintf(path, sizeof(path), "%s/model.safetensors", dir);
        vit_options o;
        memset(&o, 0, sizeof(o));
        o.device = VIT_DEVICE_CUDA; o.dtype = VIT_DTYPE_FP8;
        read_case_options(dir, &o);
        vit_model *probe = NULL;
        if (vit_load(path, &o, &probe) != VIT_OK) {
            printf("OK %s fp8: frames: fp8 does not run here (%s)\n", dir, vit_last_error(NULL));
            return 1;
        }
        vit_free(probe);
    }
    vit_model *m = load_gpu(dir, dt, 4);
    if (!m) return 0;
    const vit_config *c = vit_model_config(m);
    size_t per = (size_t)c->in_chans * c->image_height * c->image_width, K = (size_t)(c->num_classes ? c->num_classes : c->dim);
    int logits = c->num_classes > 0;
    const char *fwd = logits ? "forward" : "embed";
    static unsigned char frames[NF * FH * FS];
    unsigned st32 = 12345;
    for (size_t i = 0; i < sizeof(frames); i++) { st32 = st32 * 1664525u + 1013904223u; frames[i] = (unsigned char)(st32 >> 24); }
    float *pre = (float *)malloc(NF * per * 4), *want = (float *)malloc(NF * K * 4), *got = (float *)malloc(NF * K * 4);
    vit_status st = VIT_OK;
    for (int i = 0; st == VIT_OK && i < NF; i++) st = vit_preprocess_rgb8(m, frames + (size_t)i * FH * FS, FW, FH, FS, FC, pre + i * per);
    unsigned char *dframes = NULL;
    float *dpre = NULL, *dout = NULL;
    cudaMalloc((void **)&dframes, sizeof(frames));
    cudaMalloc((void **)&dpre, NF * per * 4);
    cudaMalloc((void **)&dout, NF * K * 4);
    cudaMemcpy(dframes, frames, sizeof(frames), cudaMemcpyHostToDevice);
    cudaMemcpy(dpre, pre, NF * per * 4, cudaMemcpyHostToDevice);
    char what[256], sizes_text[64];
    int sizes[32], nchunks;

    nchunks = host_chunks(m, NF, per * 4, sizes);
    sizes_text[0] = 0;
    for (int i = 0; i < nchunks; i++) snprintf(sizes_text + strlen(sizes_text), sizeof(sizes_text) - strlen(sizes_text), "%s%d", i ? ", " : "", sizes[i]);
    memset(want, 0xFF, NF * K * 4);
    memset(got, 0xFF, NF * K * 4);
    vit_status r = st == VIT_OK ? async_in_chunks(m, dpre, nchunks, sizes, dout, want, per, K, logits) : st;
    vit_status r2 = logits ? vit_forward(m, pre, NF, got) : vit_embed(m, pre, NF, got);
    snprintf(what, sizeof(what), "vit_%s from host floats, staged in chunks (%s) = vit_%s_async in those chunks", fwd, sizes_text, fwd);
    ok &= same_bits(dir, dt, what, r == VIT_OK ? r2 : r, m, got, want, NF * K);
    // page-locked host floats (cudaHostAlloc): the DMA reads them in place, in the same chunks
    float *ppre = NULL;
    int pinned_ok = cudaHostAlloc((void **)&ppre, NF * per * 4, cudaHostAllocDefault) == cudaSuccess;
    if (pinned_ok) memcpy(ppre, pre, NF * per * 4);
    pinned_ok = pinned_ok && vit__is_pinned(ppre, NF * per * 4) && !vit__is_pinned(pre, NF * per * 4);
    memset(got, 0xFF, NF * K * 4);
    r2 = !pinned_ok ? VIT_ERROR_CUDA : logits ? vit_forward(m, ppre, NF, got) : vit_embed(m, ppre, NF, got);
    snprintf(what, sizeof(what), "vit_%s from page-locked host floats (read in place) = the same", fwd);
    ok &= same_bits(dir, dt, what, r == VIT_OK ? r2 : r, m, got, want, NF * K);
    cudaFreeHost(ppre);

    nchunks = host_chunks(m, NF, (size_t)FH * FS, sizes);
    sizes_text[0] = 0;
    for (int i = 0; i < nchunks; i++) snprintf(sizes_text + strlen(sizes_text), sizeof(sizes_text) - strlen(sizes_text), "%s%d", i ? ", " : "", sizes[i]);
    memset(want, 0xFF, NF * K * 4);
    memset(got, 0xFF, NF * K * 4);
    r = async_in_chunks(m, dpre, nchunks, sizes, dout, want, per, K, logits);
    r2 = logits ? vit_forward_rgb8(m, frames, NF, FW, FH, FS, FC, got) : vit_embed_rgb8(m, frames, NF, FW, FH, FS, FC, got);
    snprintf(what, sizeof(what), "vit_%s_rgb8 from host frames, chunks (%s) = vit_preprocess_rgb8 (CPU) + vit_%s_async", fwd, sizes_text, fwd);
    ok &= same_bits(dir, dt, what, r == VIT_OK ? r2 : r, m, got, want, NF * K);
    // page-locked host frames (cudaHostRegister on the caller's buffer): read in place, the same bits
    static unsigned char pframes[NF * FH * FS + 4096];
    unsigned char *pf = pframes + (4096 - ((uintptr_t)pframes & 4095)) % 4096; // page-aligned start
    memcpy(pf, frames, sizeof(frames));
    pinned_ok = cudaHostRegister(pf, sizeof(frames), cudaHostRegisterDefault) == cudaSuccess;
    pinned_ok = pinned_ok && vit__is_pinned(pf, sizeof(frames)) && !vit__is_pinned(frames, sizeof(frames));
    memset(got, 0xFF, NF * K * 4);
    r2 = !pinned_ok ? VIT_ERROR_CUDA : logits ? vit_forward_rgb8(m, pf, NF, FW, FH, FS, FC, got) : vit_embed_rgb8(m, pf, NF, FW, FH, FS, FC, got);
    snprintf(what, sizeof(what), "vit_%s_rgb8 from page-locked host frames (cudaHostRegister, read in place) = the same", fwd);
    ok &= same_bits(dir, dt, what, r == VIT_OK ? r2 : r, m, got, want, NF * K);
    cudaHostUnregister(pf);
    cudaGetLastError();

    memset(want, 0xFF, NF * K * 4);
    memset(got, 0xFF, NF * K * 4);
    r = logits ? vit_forward(m, dpre, NF, want) : vit_embed(m, dpre, NF, want); // device images, host outputs: chunks of max_batch
    r2 = logits ? vit_forward_rgb8(m, dframes, NF, FW, FH, FS, FC, got) : vit_embed_rgb8(m, dframes, NF, FW, FH, FS, FC, got);
    snprintf(what, sizeof(what), "vit_%s_rgb8 from device frames = vit_%s from device floats", fwd, fwd);
    ok &= same_bits(dir, dt, what, r == VIT_OK ? r2 : r, m, got, want, NF * K);
    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaMemset(dout, 0xFF, NF * K * 4);
    r = logits ? vit_forward_rgb8_async(m, dframes, NF, FW, FH, FS, FC, dout, (void *)s) : vit_embed_rgb8_async(m, dframes, NF, FW, FH, FS, FC, dout, (void *)s);
    cudaStreamSynchronize(s);
    cudaMemcpy(got, dout, NF * K * 4, cudaMemcpyDeviceToHost);
    snprintf(what, sizeof(what), "vit_%s_rgb8_async = the same, device to device", fwd);
    ok &= same_bits(dir, dt, what, r, m, got, want, NF * K);

    // host frames that fit in max_batch at once: the chunks spread over the
    // model's image buffer, each transformed on the copy stream under the
    // previous chunk's pass; each chunk's pass runs the first blocks and one
    // pass over all frames the rest (vit__plan_stage_blocks). In chunks of 8 + 16
    // (staged and transformed in pieces of 3 frames), for the policy's split,
    // 1 block and whole passes: the bits of device floats in the same passes
    // (vit__test_hook.stage_device), from pageable and page-locked frames; and,
    // like the library's own plan, within the dtype's tolerance of one
    // vit_forward_async over all 24
    {
        enum { NS = 24 };
        vit_model *m2 = load_gpu(dir, dt, 32);
        unsigned char *many = (unsigned char *)malloc((size_t)NS * FH * FS), *pmany = NULL;
        float *pre2 = (float *)malloc(NS * per * 4), *want2 = (float *)malloc(NS * K * 4), *got2 = (float *)malloc(NS * K * 4), *whole = (float *)malloc(NS * K * 4);
        float *dpre2 = NULL, *dout2 = NULL;
        for (int i = 0; i < NS; i++) memcpy(many + (size_t)i * FH * FS, frames + (size_t)(i % NF) * FH * FS, (size_t)FH * FS);
        for (int i = 0; i < NS; i++) memcpy(pre2 + (size_t)i * per, pre + (size_t)(i % NF) * per, per * 4);
        cudaMalloc((void **)&dpre2, NS * per * 4);
        cudaMalloc((void **)&dout2, NS * K * 4);
        cudaMemcpy(dpre2, pre2, NS * per * 4, cudaMemcpyHostToDevice);
        int pinned_many = cudaHostAlloc((void **)&pmany, (size_t)NS * FH * FS, cudaHostAllocDefault) == cudaSuccess;
        if (pinned_many) memcpy(pmany, many, (size_t)NS * FH * FS);
        cudaGetLastError();
        int sizes1[1] = {NS}, depth = c->depth, splits[3] = {0, 1, depth};
        r = m2 ? async_in_chunks(m2, dpre2, 1, sizes1, dout2, whole, per, K, logits) : VIT_ERROR_IO;
        vit__test_hook knobs;
        memset(&knobs, 0, sizeof(knobs));
        knobs.stage_first = 8;
        knobs.stage_grow = 2;
        knobs.stage_piece = 3; // the DMA and transform of a chunk in pieces of 3 frames (a chunk's last shorter)
        for (int t = 0; t < 3 && r == VIT_OK; t++) {
            knobs.stage_blocks = splits[t];
            m2->cuda->hook = &knobs;
            int blocks = vit__plan_stage_blocks(m2, NS, 8, (size_t)FH * FS);
            memset(want2, 0xFF, NS * K * 4);
            knobs.stage_device = 1;
            vit_status rw = async_in_chunks(m2, dpre2, 1, sizes1, dout2, want2, per, K, logits);
            knobs.stage_device = 0;
            memset(got2, 0xEE, NS * K * 4);
            r2 = rw != VIT_OK ? rw : logits ? vit_forward_rgb8(m2, many, NS, FW, FH, FS, FC, got2) : vit_embed_rgb8(m2, many, NS, FW, FH, FS, FC, got2);
            snprintf(what, sizeof(what), "vit_%s_rgb8 from host frames, chunks 8 + 16 spread over the image buffer, blocks 0..%d per chunk of %d = device floats so", fwd,
                     blocks - 1, depth);
            ok &= same_bits(dir, dt, what, r2, m2, got2, want2, NS * K);
            memset(got2, 0xEE, NS * K * 4);
            r2 = !pinned_many ? VIT_ERROR_OUT_OF_MEMORY : logits ? vit_forward_rgb8(m2, pmany, NS, FW, FH, FS, FC, got2) : vit_embed_rgb8(m2, pmany, NS, FW, FH, FS, FC, got2);
            snprintf(what, sizeof(what), "the same from page-locked host frames (DMA'd in place), blocks 0..%d per chunk", blocks - 1);
            ok &= same_bits(dir, dt, what, r2, m2, got2, want2, NS * K);
            m2->cuda->hook = NULL;
            snprintf(what, sizeof(what), "device floats in those passes (blocks 0..%d per chunk) ~ one pass over all %d", blocks - 1, NS);
            ok &= near(dir, dt, what, rw, m2, want2, whole, NS * K);
        }
        memset(got2, 0xEE, NS * K * 4);
        r2 = r != VIT_OK ? r : logits ? vit_forward_rgb8(m2, many, NS, FW, FH, FS, FC, got2) : vit_embed_rgb8(m2, many, NS, FW, FH, FS, FC, got2);
        nchunks = m2 ? host_chunks(m2, NS, (size_t)FH * FS, sizes) : 0;
        snprintf(what, sizeof(what), "vit_%s_rgb8 from host frames, the library's plan (%d chunks, blocks 0..%d per chunk) ~ one pass over all %d", fwd, nchunks,
                 m2 ? vit__plan_stage_blocks(m2, NS, sizes[0], (size_t)FH * FS) - 1 : -1, NS);
        ok &= near(dir, dt, what, nchunks >= 2 ? r2 : VIT_ERROR_INVALID_ARGUMENT, m2 ? m2 : m, got2, whole, NS * K);
        if (pmany) cudaFreeHost(pmany);
        cudaFree(dpre2); cudaFree(dout2);
        free(many); free(pre2); free(want2); free(got2); free(whole);
        vit_free(m2);
    }
    // a frame size change re-plans; a stride of 0 means packed rows
    memset(got, 0xFF, NF * K * 4);
    r = vit_preprocess_rgb8(m, frames, 50, 40, 0, 3, pre);
    if (r == VIT_OK) r = logits ? vit_forward(m, pre, 1, want) : vit_embed(m, pre, 1, want);
    r2 = logits ? vit_forward_rgb8(m, frames, 1, 50, 40, 0, 3, got) : vit_embed_rgb8(m, frames, 1, 50, 40, 0, 3, got);
    ok &= same_bits(dir, dt, "a second frame size (50x40, packed)", r == VIT_OK ? r2 : r, m, got, want, K);
    // the async call refuses host memory
    r = logits ? vit_forward_rgb8_async(m, frames, 1, FW, FH, FS, FC, dout, (void *)s) : vit_embed_rgb8_async(m, frames, 1, FW, FH, FS, FC, dout, (void *)s);
    int refused = r == VIT_ERROR_INVALID_ARGUMENT && strstr(vit_last_error(m), "frames and output must be device");
    printf("%s %s %s: the async frame call refuses host frames: %s\n", refused ? "OK" : "NOT OK", dir, dtname(dt), vit_last_error(m));
    ok &= refused;
    cudaStreamDestroy(s);
    cudaFree(dframes); cudaFree(dpre); cudaFree(dout);
    free(pre); free(want); free(got);
    vit_free(m);
    return ok;
}

// VIT_DTYPE_FP8 (the blocks' linears in e4m3 on sm_90a): logits (features for
// a model without a head) within 1.5e-1 of the reference (test_model's gate for
// the CPU e4m3 reference: e4m3 keeps 3 mantissa bits) and of the CPU's e4m3
// reference, whose weights are the same bytes: its activations are fp32 where
// these are bf16, so some round to the neighbouring e4m3 value, and the tensor
// cores add e4m3 products with about 14 bits of precision; these small random
// models amplify such flips (H100: 1.9e-3 to 1.01e-1 from the CPU's over 27 cases, the
// largest on timm_noconfig, whose CPU e4m3 run is 6.6e-2 from the reference
// and the GPU's 1.38e-1). Gross errors (a wrong scale, a lost tile) are O(1). A width or MLP width that is
// not a multiple of 16, or a GPU or binary without sm_90a, must be refused
// with VIT_ERROR_UNSUPPORTED.
static int fp8_case(const char *dir, const reference *r) {
    char path[1200];
    snprintf(path, sizeof(path), "%s/model.safetensors", dir);
    vit_options o;
    memset(&o, 0, sizeof(o));
    o.device = VIT_DEVICE_CPU; o.dtype = VIT_DTYPE_FP8; o.max_batch = r->n;
    o.residual_dtype = VIT_DTYPE_F32; // (fp8's default, the bf16 stream, is residual_case's)
    read_case_options(dir, &o);
    vit_model *cpu = NULL, *gpu = NULL;
    if (vit_load(path, &o, &cpu) != VIT_OK) { printf("NOT OK %s fp8: CPU load: %s\n", dir, vit_last_error(NULL)); return 0; }
    const vit_config *c = vit_model_config(cpu);
    o.device = VIT_DEVICE_CUDA;
    vit_status st = vit_load(path, &o, &gpu);
    int ok = 1;
    if (st != VIT_OK) {
        ok = st == VIT_ERROR_UNSUPPORTED && (c->dim % 16 || vit__mlp_hidden(cpu) % 16 || !m_wgmma());
        printf("%s %s fp8: refused (%s: %s; width %d, MLP hidden width %d)\n", ok ? "OK" : "NOT OK", dir, vit_status_string(st), vit_last_error(NULL), c->dim,
               (int)vit__mlp_hidden(cpu));
    } else {
        int heads = r->k > 0;
        size_t n = (size_t)r->n * (heads ? r->k : r->d);
        float *og = (float *)malloc(n * 4 + 4), *oc = (float *)malloc(n * 4 + 4);
        for (size_t i = 0; i < n; i++) og[i] = NAN;
        st = heads ? vit_forward(gpu, r->input, r->n, og) : vit_embed(gpu, r->input, r->n, og);
        if (st == VIT_OK) st = heads ? vit_forward(cpu, r->input, r->n, oc) : vit_embed(cpu, r->input, r->n, oc);
        double er = rel_err(og, heads ? r->logits : r->features, n), ec = rel_err(og, oc, n);
        ok = st == VIT_OK && vit_model_config(gpu)->dtype == VIT_DTYPE_FP8 && er <= 1.5e-1 && ec <= 1.5e-1;
        printf("%s %s fp8 on the GPU, fp32 residual stream: %s rel err %.2e vs the reference [1.5e-1], %.2e vs the CPU e4m3 reference [1.5e-1]%s%s\n", ok ? "OK" : "NOT OK", dir,
               heads ? "logits" : "features", er, ec, st != VIT_OK ? ": " : "", st != VIT_OK ? vit_last_error(gpu) : "");
        free(og); free(oc);
    }
    vit_free(cpu);
    vit_free(gpu);
    return ok;
}

// vit_options.residual_dtype = VIT_DTYPE_BF16 (x rounded to bf16 after the
// embedding and each residual add): bf16 and fp8 on the GPU within their
// tolerances of the reference (run; fp8, loaded with the default residual_dtype,
// which is this stream, against 1.5e-1: H200, fdde044, at most 1.21e-1 from the
// references and 1.33e-1 from the CPU, on hf_dinov2_res, whose CPU run is 1.58e-1
// from the reference, test_model's 2e-1 gate) and of the CPU's run of the same rounding, deterministic as the others (batches 1 and
// 3, split-K default and forced), the frames and split host passes as
// frames_case; fp32 and fp16 refused (VIT_ERROR_UNSUPPORTED).
static int residual_case(const char *dir, const reference *r) {
    g_residual = VIT_DTYPE_BF16;
    int ok = run(dir, r, VIT_DTYPE_BF16, 2, 0) & run(dir, r, VIT_DTYPE_BF16, 1, 1) & run(dir, r, VIT_DTYPE_BF16, 2, 2);
    ok &= determinism(dir, r, VIT_DTYPE_BF16, 0) & determinism(dir, r, VIT_DTYPE_BF16, 4);
    ok &= frames_case(dir, VIT_DTYPE_BF16); // the split passes: the bf16 rows of x kept at their images' place
    char path[1200];
    snprintf(path, sizeof(path), "%s/model.safetensors", dir);
    int heads = r->k > 0;
    size_t n = (size_t)r->n * (heads ? r->k : r->d);
    vit_dtype dts[2] = {VIT_DTYPE_BF16, VIT_DTYPE_FP8};
    for (int d = 0; d < 2; d++) {
        vit_options o;
        memset(&o, 0, sizeof(o));
        o.device = VIT_DEVICE_CPU; o.dtype = dts[d] == VIT_DTYPE_FP8 ? VIT_DTYPE_FP8 : VIT_DTYPE_F32; o.max_batch = r->n;
        o.residual_dtype = dts[d] == VIT_DTYPE_FP8 ? VIT_DTYPE_DEFAULT : VIT_DTYPE_BF16; // (fp8's default stream is bf16: the config check below)
        read_case_options(dir, &o);
        vit_model *cpu = NULL, *gpu = NULL;
        vit_status st = vit_load(path, &o, &cpu);
        o.device = VIT_DEVICE_CUDA; o.dtype = dts[d];
        vit_status sg = st == VIT_OK ? vit_load(path, &o, &gpu) : st;
        if (sg == VIT_ERROR_UNSUPPORTED && dts[d] == VIT_DTYPE_FP8) { // (fp8_case checks which models and GPUs refuse it)
            printf("OK %s fp8 with a bf16 residual stream: fp8 refused here (%s)\n", dir, vit_last_error(NULL));
            vit_free(cpu);
            continue;
        }
        float *og = (float *)malloc(n * 4 + 4), *oc = (float *)malloc(n * 4 + 4);
        for (size_t i = 0; i < n; i++) og[i] = oc[i] = NAN;
        if (st == VIT_OK) st = sg;
        if (st == VIT_OK) st = heads ? vit_forward(gpu, r->input, r->n, og) : vit_embed(gpu, r->input, r->n, og);
        if (st == VIT_OK) st = heads ? vit_forward(cpu, r->input, r->n, oc) : vit_embed(cpu, r->input, r->n, oc);
        double tol = dts[d] == VIT_DTYPE_FP8 ? 1.5e-1 : 2e-2, er = rel_err(og, heads ? r->logits : r->features, n), ec = rel_err(og, oc, n);
        int good = st == VIT_OK && vit_model_config(gpu)->residual_dtype == VIT_DTYPE_BF16 && vit_model_config(cpu)->residual_dtype == VIT_DTYPE_BF16 &&
                   er <= tol && ec <= tol;
        printf("%s %s %s with a bf16 residual stream: %s rel err %.2e vs the reference, %.2e vs the CPU's [tol %.2g]%s%s\n", good ? "OK" : "NOT OK", dir,
               dtname(dts[d]), heads ? "logits" : "features", er, ec, tol, st != VIT_OK ? ": " : "", st != VIT_OK ? vit_last_error(NULL) : "");
        ok &= good;
        free(og); free(oc);
        vit_free(cpu);
        vit_free(gpu);
    }
    vit_dtype refuse[2] = {VIT_DTYPE_F32, VIT_DTYPE_F16};
    for (int d = 0; d < 2; d++) {
        vit_options o;
        memset(&o, 0, sizeof(o));
        o.device = VIT_DEVICE_CUDA; o.dtype = refuse[d]; o.residual_dtype = VIT_DTYPE_BF16;
        read_case_options(dir, &o);
        vit_model *m = NULL;
        vit_status st = vit_load(path, &o, &m);
        int good = st == VIT_ERROR_UNSUPPORTED && !m;
        printf("%s %s %s with a bf16 residual stream on CUDA refused: %s\n", good ? "OK" : "NOT OK", dir, dtname(refuse[d]), vit_status_string(st));
        ok &= good;
        vit_free(m);
    }
    g_residual = VIT_DTYPE_DEFAULT;
    return ok;
}

// Several GPUs, the documented pattern: one model per device_index, one host
// thread per model, all running at once. Each GPU's logits must be the bits of
// device 0's when run alone (GPUs of one kind) and within tol of the reference.
typedef struct gpu_worker {
    vit_model *m;
    const float *images;
    int n, rounds;
    float *out;
    vit_status st;
} gpu_worker;

static void *gpu_worker_run(void *arg) {
    gpu_worker *w = (gpu_worker *)arg;
    for (int i = 0; i < w->rounds && w->st == VIT_OK; i++) w->st = vit_forward(w->m, w->images, w->n, w->out);
    return NULL;
}

static int multi_device_case(const char *dir, const reference *r, vit_dtype dt, int count) {
    enum { MAXG = 8 };
    if (count > MAXG) count = MAXG;
    vit_model *m[MAXG] = {0};
    gpu_worker w[MAXG];
    pthread_t th[MAXG];
    size_t nl = (size_t)r->n * r->k;
    float *alone = (float *)malloc(nl * 4 + 4);
    int ok = 1, same_kind = 1;
    cudaDeviceProp p0, p;
    cudaGetDeviceProperties(&p0, 0);
    memset(w, 0, sizeof(w));
    for (int d = 0; d < count; d++) {
        cudaGetDeviceProperties(&p, d);
        same_kind &= !strcmp(p.name, p0.name) && p.major == p0.major && p.minor == p0.minor;
        if (!(m[d] = load_gpu_on(dir, dt, r->n, d))) ok = 0;
    }
    if (ok && vit_forward(m[0], r->input, r->n, alone) != VIT_OK) { printf("NOT OK %s: device 0 alone: %s\n", dir, vit_last_error(m[0])); ok = 0; }
    int started = 0;
    for (int d = 0; ok && d < count; d++, started++) {
        w[d].m = m[d]; w[d].images = r->input; w[d].n = r->n; w[d].rounds = 5; w[d].st = VIT_OK;
        w[d].out = (float *)malloc(nl * 4 + 4);
        for (size_t i = 0; i < nl; i++) w[d].out[i] = NAN;
        if (pthread_create(&th[d], NULL, gpu_worker_run, &w[d]) != 0) { printf("NOT OK %s: cannot start a thread\n", dir); free(w[d].out); w[d].out = NULL; ok = 0; break; }
    }
    double tol = dt == VIT_DTYPE_F32 ? 1e-4 : 2e-2;
    for (int d = 0; d < started; d++) pthread_join(th[d], NULL);
    for (int d = 0; ok && d < count; d++) {
        double e = rel_err(w[d].out, r->logits, nl);
        int bits = !memcmp(w[d].out, alone, nl * 4);
        int good = w[d].st == VIT_OK && e <= tol && (bits || !same_kind);
        printf("%s %s %s: GPU %d of %d, concurrent with the others: logits rel err %.2e [tol %.0e], %s device 0 alone\n", good ? "OK" : "NOT OK", dir,
               dtname(dt), d, count, e, tol, bits ? "the bits of" : same_kind ? "DIFFERENT from" : "(another kind of GPU) not compared bitwise with");
        if (w[d].st != VIT_OK) printf("  %s\n", vit_last_error(m[d]));
        ok &= good;
    }
    for (int d = 0; d < count; d++) { vit_free(m[d]); free(w[d].out); }
    free(alone);
    return ok;
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0); // progress survives a crash
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        cudaGetLastError();
        printf("SKIP test_gpu_model: no CUDA device\n");
        printf("0 passed, 0 failed\n");
        return 0;
    }
    int passed = 0, failed = 0, timm = 0, only_pk = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--timm")) { timm = 1; continue; }
        if (!strcmp(argv[i], "--persistent")) { only_pk = 1; continue; }
        char path[1200];
        reference r;
        memset(&r, 0, sizeof(r));
        snprintf(path, sizeof(path), "%s/io.bin", argv[i]);
        if (!read_reference(path, &r)) { printf("NOT OK %s: cannot read %s\n", argv[i], path); failed++; continue; }
        int ok = 1;
        if (only_pk) { // --persistent: the persistent kernel's cases alone
            ok = persistent_case(argv[i], &r, VIT_DTYPE_BF16, timm) & persistent_case(argv[i], &r, VIT_DTYPE_F16, timm);
            if (ok) passed++; else failed++;
            free(r.input); free(r.logits); free(r.features);
            continue;
        }
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
        ok &= fp8_case(argv[i], &r);
        if (!timm) ok &= residual_case(argv[i], &r);
        if (!timm) ok &= frames_case(argv[i], VIT_DTYPE_FP8); // the e4m3 rows of the split passes at their images' place
        if (count >= 2 && r.k && (timm || i == 1))
            for (int d = 0; d < 3; d++) ok &= multi_device_case(argv[i], &r, dts[d], count);
        ok &= persistent_case(argv[i], &r, VIT_DTYPE_BF16, timm);
        ok &= persistent_case(argv[i], &r, VIT_DTYPE_F16, timm);
        for (int d = 0; d < 3; d++) {
            ok &= determinism(argv[i], &r, dts[d], 0);
            ok &= determinism(argv[i], &r, dts[d], 4);
            if (!timm) ok &= frames_case(argv[i], dts[d]);
        }
        if (ok) passed++; else failed++;
        free(r.input); free(r.logits); free(r.features);
    }
    // the default device and dtype under nvcc with a GPU: CUDA, bf16
    if (argc > 1 && strcmp(argv[1], "--timm") && !only_pk) {
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
