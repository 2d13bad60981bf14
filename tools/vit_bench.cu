// vit_bench: times vit.h on the GPU for tools/bench.py. One JSON line per run.
//
//   vit_bench model DIR DTYPE BATCH ITERS
//       vit_forward_async on device-resident random images (batch BATCH =
//       max_batch, so one graph replay per call), CUDA events around each call,
//       after 3 warm-up calls; prints median/min ms, img/s and the device memory
//       the model holds (weights + arena + graph, by cudaMemGetInfo), for
//       reference the median of vit_forward with host images, and the cold
//       costs: vit_load's wall time and the first call's (to its end).
//   vit_bench features DIR DTYPE BATCH ITERS BLOCKS NORM NOPREFIX OUTDTYPE
//       vit_features_async (blocks BLOCKS, e.g. "-2" or "5,11"; NORM 1: the final
//       norm; NOPREFIX 1: patch tokens only; OUTDTYPE f32|bf16) on device-resident
//       random images into a device buffer, and vit_embed_async of the same model
//       and batch, the two calls interleaved (CUDA events, 3 warm-up rounds);
//       prints both medians, their ratio, the output buffer's bytes and the
//       device memory the model holds after the first features call and after
//       the first embed call (cudaMemGetInfo against before the load, the bench's
//       own buffers left out).
//   vit_bench transfer DIR DTYPE BATCH ITERS FW FH
//       the host API against the async one (bench_transfer): vit_forward from
//       host floats, vit_forward_rgb8 from pageable and page-locked host
//       FW x FH RGB frames, vit_forward_rgb8_async, and the frames' passes
//       (plan: first chunk, blocks per chunk) on device floats, all against
//       vit_forward_async; wall-clock medians.
//   vit_bench multi DIR DTYPE BATCH BATCHES FW FH
//       several GPUs in one process (one model per device_index, one host
//       thread each, a shared stream of BATCHES batches of host RGB frames
//       through vit_forward_rgb8): img/s on 1, 2, ... GPUs.
//   vit_bench layer DIR DTYPE BATCH ITERS
//       each op of the forward pass (block 0) timed alone, as the forward pass
//       launches it: the median over ITERS of (a graph of 10 back-to-back
//       launches) / 10, so launch latency hides as it does in the forward pass; per op
//       [ms, GEMM kernel, split-K slices], and sum_ms, the whole forward pass
//       (depth blocks) the ops stand for.
//   vit_bench text DIR DTYPE BATCH ITERS IDS.bin IMAGES.bin OUT.bin [TOKDIR PROMPTS.txt]
//       a full CLIPModel / SiglipModel folder (both towers, max_batch BATCH) on
//       the GPU: vit_encode_ids of the k texts of IDS.bin (int32 k, L, then
//       k x L ids), vit_image_embeds of the n images of IMAGES.bin (int32 n, c,
//       h, w, then floats; n <= BATCH) from host memory, the same from device
//       memory (vit_forward_async / vit_embed_async, the n x E embeddings
//       copied back and normalised), and vit_zero_shot of the n images against
//       the k texts (logits and probs; and logits alone); wall-clock medians of
//       ITERS rounds after a warm-up one (every call is synchronous, or
//       synchronised). With TOKDIR and PROMPTS.txt (one prompt a line, k of
//       them): vit_tokenize of every prompt too, its ids checked against
//       IDS.bin, and vit_encode_texts of the prompts (text to embeddings),
//       checked against vit_encode_ids'. Writes OUT.bin: int32 k, n, E, then the text embeddings
//       (k x E), the image embeddings (n x E, host call) and the logits (n x k).
//       Device memory: what the model holds after the warm-up round
//       (cudaMemGetInfo against before the load, the bench's buffers left out).
//   The environment's knobs go to the model's vit__test_hook, whose overrides the
//   policy obeys (vit__cuda_state.hook): VIT_SPLITK=n the split-K policy (0 default, 1 never,
//   n >= 2 forced) for model and layer; VIT_ATTN_WARPS=1|4 the warps per attention
//   CTA; VIT_ATTN_FULL=1|2 never/always the whole-K/V attention kernel, 3 always
//   its split-key form; VIT_ATTN_ROWS=16|32 the query rows per warp of the
//   mma.sync attention (streamed; with VIT_ATTN_FULL=2, whole K/V in 4 warps of 32); VIT_GEMM=n the bf16/fp16 GEMM kernel (VIT__GEMM_*);
//   VIT_PREFETCH=0 no L2 weight prefetch in small forward passes; VIT_ATTN_WGMMA=1|2
//   never/always the sm_90a attention kernel (3|4: with 2|3 consumer warpgroups), VIT_ATTN_PING=1 its
//   warpgroups not taking turns. VIT_WALK=0 every kernel's rows first to last (vit__walk). VIT_PERSISTENT=1|2 never/always the
//   persistent kernel for the blocks of small passes, VIT_PK_CTAS=n its CTAs, VIT_PK_ROWS=128|256 its GEMM tiles' rows, VIT_PK_TRACE=FILE (model)
//   its work items' times in the last pass: (n, 4) uint64 started, inputs ready, done (ns), SM | stage << 8 | block << 16. VIT_PDL=0 turns
//   programmatic dependent launches off (vit__cuda_state.pdl). VIT_RESIDUAL=bf16|f32|fp32 loads the models with
//   vit_options.residual_dtype = VIT_DTYPE_BF16|F32 (model, layer and the multi-GPU modes; fp8's default is bf16). VIT_ATTN_DATA=S
//   (attn): q, k, v uniform in [-S, S] (default 2).
//   vit_bench attn B N H D ITERS
//       one bf16 self-attention (B images, N tokens, H heads of size D) through
//       vit__attention_cuda; median ms, TFLOP/s (4 B H N^2 D) and the kernel.
//   vit_bench gemm M N K ITERS
//       one bf16 (VIT_DTYPE=f32: fp32) GEMM (out = A W^T + bias) through vit__linear_cuda, the kernel
//       the forward pass picks (or VIT_GEMM's); prints median ms and TFLOP/s.
//       VIT_EP=1: bias + GELU epilogue; 2: fp32 out += result (the residual);
//       VIT_ACT=n another activation (vit__act) on the stored output.
#define VIT_IMPLEMENTATION
#define VIT_TEST_HOOKS // vit__test_hook: the knobs below, the plans run
#include "../vit.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>
#include <pthread.h>

#ifndef VIT__CUDA
int main(void) { printf("{\"error\": \"built without CUDA\"}\n"); return 1; }
#else

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("{\"error\": \"%s: %s\"}\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)

static int cmpf(const void *a, const void *b) { float x = *(const float *)a, y = *(const float *)b; return x < y ? -1 : x > y; }

static float median(float *v, int n) { qsort(v, (size_t)n, sizeof(float), cmpf); return n % 2 ? v[n / 2] : 0.5f * (v[n / 2 - 1] + v[n / 2]); }

// The median ms of iters calls of launch() on the default stream (CUDA events,
// after 3 warm-up calls), or -1 when a call fails (m->error says why).
template <typename F>
static float median_ms(int iters, F launch) {
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    float *t = (float *)malloc(sizeof(float) * iters), med = -1.0f;
    int i = -3;
    for (; i < iters; i++) {
        CK(cudaEventRecord(e0, 0));
        if (launch() != VIT_OK) break;
        CK(cudaEventRecord(e1, 0));
        CK(cudaEventSynchronize(e1));
        if (i >= 0) CK(cudaEventElapsedTime(&t[i], e0, e1));
    }
    if (i == iters) med = median(t, iters);
    cudaEventDestroy(e0); cudaEventDestroy(e1);
    free(t);
    return med;
}

static void fill(float *h, size_t n, unsigned seed) {
    unsigned s = seed * 2654435761u + 1;
    for (size_t i = 0; i < n; i++) { s = s * 1664525u + 1013904223u; h[i] = (float)((s >> 8) * (1.0 / 16777216.0)) * 2.0f - 1.0f; }
}

static vit__test_hook knobs;
#define VIT_BENCH_TRACE_ITEMS (1 << 20) // work items VIT_PK_TRACE holds

// DIR/model.safetensors on the GPU in DTYPE (f32, f16, else bf16) for max_batch
// images, or NULL after printing the JSON error line.
// "f32", "f16", "fp8" (e4m3 block linears) or anything else: bf16
static vit_dtype vit_bench_dtype(const char *d) {
    return !strcmp(d, "f32") ? VIT_DTYPE_F32 : !strcmp(d, "f16") ? VIT_DTYPE_F16 : !strcmp(d, "fp8") ? VIT_DTYPE_FP8 : VIT_DTYPE_BF16;
}

static vit_dtype bench_residual(void) {
    const char *r = getenv("VIT_RESIDUAL");
    return r && !strcmp(r, "bf16") ? VIT_DTYPE_BF16 : r && (!strcmp(r, "f32") || !strcmp(r, "fp32")) ? VIT_DTYPE_F32 : VIT_DTYPE_DEFAULT;
}

// the options of every benchmark model: CUDA, dtype, VIT_RESIDUAL, max_batch; DIR/model.safetensors into path
static vit_options bench_options(const char *dir, const char *dtype, int max_batch, char *path, size_t path_size) {
    snprintf(path, path_size, "%s/model.safetensors", dir);
    vit_options o;
    memset(&o, 0, sizeof(o));
    o.device = VIT_DEVICE_CUDA;
    o.dtype = vit_bench_dtype(dtype);
    o.residual_dtype = bench_residual();
    o.max_batch = max_batch;
    return o;
}

static vit_model *load_model(const char *dir, const char *dtype, int max_batch, int device_index) {
    char path[1200];
    vit_options o = bench_options(dir, dtype, max_batch, path, sizeof(path));
    o.device_index = device_index;
    vit_model *m = NULL;
    if (vit_load(path, &o, &m) != VIT_OK) printf("{\"error\": \"load on device %d: %s\"}\n", device_index, vit_last_error(NULL));
    return m;
}

// the VIT_* environment knobs described at the top
static void env_knobs(vit_model *m) {
    if (getenv("VIT_SPLITK")) knobs.splitk = atoi(getenv("VIT_SPLITK"));
    if (getenv("VIT_ATTN_WARPS")) knobs.attn_warps = atoi(getenv("VIT_ATTN_WARPS"));
    if (getenv("VIT_PDL")) m->cuda->pdl = atoi(getenv("VIT_PDL"));
    if (getenv("VIT_ATTN_FULL")) knobs.attn_full = atoi(getenv("VIT_ATTN_FULL"));
    if (getenv("VIT_ATTN_ROWS")) knobs.attn_rows = atoi(getenv("VIT_ATTN_ROWS"));
    if (getenv("VIT_GEMM")) knobs.gemm = atoi(getenv("VIT_GEMM"));
    if (getenv("VIT_PREFETCH")) knobs.no_prefetch = !atoi(getenv("VIT_PREFETCH"));
    if (getenv("VIT_ATTN_WGMMA")) knobs.attn_wgmma = atoi(getenv("VIT_ATTN_WGMMA"));
    if (getenv("VIT_ATTN_PING")) knobs.attn_ping = atoi(getenv("VIT_ATTN_PING"));
    if (getenv("VIT_WALK")) knobs.walk_forward = !atoi(getenv("VIT_WALK"));
    if (getenv("VIT_PERSISTENT")) knobs.persistent = atoi(getenv("VIT_PERSISTENT"));
    if (getenv("VIT_PK_CTAS")) knobs.pk_ctas = atoi(getenv("VIT_PK_CTAS"));
    if (getenv("VIT_PK_ROWS")) knobs.pk_rows = atoi(getenv("VIT_PK_ROWS"));
    if (getenv("VIT_PK_TRACE") && !knobs.pk_trace) { // model mode: the last pass's work items to that file
        cudaMalloc((void **)&knobs.pk_trace, (size_t)VIT_BENCH_TRACE_ITEMS * 32);
        cudaMemset(knobs.pk_trace, 0, (size_t)VIT_BENCH_TRACE_ITEMS * 32);
    }
    m->cuda->hook = &knobs;
}

static double now_ms(void);

static int bench_model(const char *dir, const char *dtype, int batch, int iters) {
    char path[1200];
    vit_options o = bench_options(dir, dtype, batch, path, sizeof(path));
    CK(cudaFree(0));
    size_t free0, free1, total;
    CK(cudaMemGetInfo(&free0, &total));
    vit_model *m = NULL;
    double l0 = now_ms();
    vit_status st = vit_load(path, &o, &m);
    double load_ms = now_ms() - l0, first_ms = 0.0;
    if (st != VIT_OK) { printf("{\"error\": \"load: %s\"}\n", vit_last_error(NULL)); return 1; }
    env_knobs(m);
    const vit_config *c = vit_model_config(m);
    size_t per = (size_t)c->in_chans * c->image_height * c->image_width, K = (size_t)(c->num_classes ? c->num_classes : 1);
    float *h = (float *)malloc(per * batch * sizeof(float));
    fill(h, per * batch, 7);
    float *di, *dout;
    CK(cudaMalloc((void **)&di, per * batch * sizeof(float)));
    CK(cudaMalloc((void **)&dout, K * batch * sizeof(float)));
    CK(cudaMemcpy(di, h, per * batch * sizeof(float), cudaMemcpyHostToDevice));
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    for (int i = 0; i < 3; i++) {
        double f0 = now_ms();
        st = vit_forward_async(m, di, batch, dout, (void *)s);
        if (st != VIT_OK) { printf("{\"error\": \"forward: %s\"}\n", vit_last_error(m)); return 1; }
        if (i == 0) { // the first call after the load (its plans, graph capture, the code's first launch), to its end
            CK(cudaStreamSynchronize(s));
            first_ms = now_ms() - f0;
        }
    }
    CK(cudaStreamSynchronize(s));
    CK(cudaMemGetInfo(&free1, &total));
    float *t = (float *)malloc(sizeof(float) * iters);
    for (int i = 0; i < iters; i++) {
        CK(cudaEventRecord(e0, s));
        vit_forward_async(m, di, batch, dout, (void *)s);
        CK(cudaEventRecord(e1, s));
        CK(cudaEventSynchronize(e1));
        CK(cudaEventElapsedTime(&t[i], e0, e1));
    }
    float med = median(t, iters), mn = t[0];
    // the host API: pageable copies in and out included
    int hi = iters < 10 ? iters : 10;
    float *logits = (float *)malloc(K * batch * sizeof(float));
    for (int i = 0; i < hi; i++) {
        CK(cudaEventRecord(e0, 0));
        vit_forward(m, h, batch, logits);
        CK(cudaEventRecord(e1, 0));
        CK(cudaEventSynchronize(e1));
        CK(cudaEventElapsedTime(&t[i], e0, e1));
    }
    float hmed = median(t, hi);
    printf("{\"ms\": %.4f, \"min_ms\": %.4f, \"img_s\": %.1f, \"host_api_ms\": %.4f, \"load_ms\": %.1f, \"first_ms\": %.3f, \"mem_bytes\": %zu, \"weights_bytes\": %zu, \"arena_bytes\": %zu, \"splitk\": %d, \"dtype\": \"%s\", \"batch\": %d, \"persistent\": %d}\n",
           med, mn, batch / (med * 1e-3), hmed, load_ms, first_ms, free0 - free1, m->cuda->weights_bytes, m->cuda->arena_bytes, knobs.splitk, dtype, batch, knobs.pk_ran);
    if (knobs.pk_trace) { // VIT_PK_TRACE: the last pass's work items, (n, 4) uint64 (vit__test_hook.pk_trace)
        CK(cudaStreamSynchronize(s));
        CK(cudaDeviceSynchronize());
        size_t n = VIT_BENCH_TRACE_ITEMS * 4;
        unsigned long long *tr = (unsigned long long *)malloc(n * 8);
        CK(cudaMemcpy(tr, knobs.pk_trace, n * 8, cudaMemcpyDeviceToHost));
        size_t used = 0;
        while (used < VIT_BENCH_TRACE_ITEMS && tr[4 * used + 2]) used++;
        FILE *f = fopen(getenv("VIT_PK_TRACE"), "wb");
        if (f) { fwrite(tr, 32, used, f); fclose(f); }
        free(tr);
    }
    vit_free(m);
    return 0;
}

// The features call against vit_embed_async (see the top): blocks parsed from
// "b0,b1,..." (Python-style indices), one CUDA-event median each.
static int bench_features(const char *dir, const char *dtype, int batch, int iters, const char *blocks_arg, int norm, int noprefix, const char *outdtype) {
    int blocks[VIT_MAX_DEPTH], nb = 0;
    for (const char *p = blocks_arg; *p && nb < VIT_MAX_DEPTH;) {
        char *end;
        blocks[nb++] = (int)strtol(p, &end, 10);
        if (end == p || (*end && *end != ',')) { printf("{\"error\": \"BLOCKS '%s' is not a comma-separated list of integers\"}\n", blocks_arg); return 1; }
        p = *end ? end + 1 : end;
    }
    vit_features_spec spec;
    memset(&spec, 0, sizeof(spec));
    spec.blocks = blocks;
    spec.num_blocks = nb;
    spec.norm = norm;
    spec.drop_prefix = noprefix;
    spec.layout = VIT_LAYOUT_TOKENS;
    spec.out_dtype = !strcmp(outdtype, "bf16") ? VIT_DTYPE_BF16 : VIT_DTYPE_F32;
    CK(cudaFree(0));
    size_t free0, free1, free2, freea, freeb, total;
    CK(cudaMemGetInfo(&free0, &total));
    vit_model *m = load_model(dir, dtype, batch, 0);
    if (!m) return 1;
    env_knobs(m);
    const vit_config *c = vit_model_config(m);
    int shape[4];
    size_t per_block = 0;
    if (vit_features_shape(m, &spec, shape, &per_block, NULL) != VIT_OK) { printf("{\"error\": \"features: %s\"}\n", vit_last_error(m)); return 1; }
    size_t per = (size_t)c->in_chans * c->image_height * c->image_width, count = (size_t)(nb ? nb : 1) * batch * per_block;
    size_t out_bytes = count * (spec.out_dtype == VIT_DTYPE_BF16 ? 2 : 4);
    float *h = (float *)malloc(per * batch * sizeof(float));
    fill(h, per * batch, 7);
    // the bench's own buffers (images, the features and the embeddings out),
    // taken out of the model's memory by the free memory before and after them
    float *di, *demb;
    void *dout;
    CK(cudaMemGetInfo(&freea, &total));
    CK(cudaMalloc((void **)&di, per * batch * sizeof(float)));
    CK(cudaMalloc(&dout, out_bytes));
    CK(cudaMalloc((void **)&demb, (size_t)c->dim * batch * sizeof(float)));
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    CK(cudaMemGetInfo(&freeb, &total));
    CK(cudaMemcpy(di, h, per * batch * sizeof(float), cudaMemcpyHostToDevice));
    // the two calls interleaved, in turn first: clock drift falls on both alike
    float *t = (float *)malloc(sizeof(float) * 2 * iters), med[2], mn[2];
    for (int i = -3; i < iters; i++) {
        for (int r = 0; r < 2; r++) {
            int k = (r + (i < 0 ? 0 : i)) % 2; // 0: vit_features_async, 1: vit_embed_async
            CK(cudaEventRecord(e0, s));
            vit_status st = k == 0 ? vit_features_async(m, di, batch, &spec, dout, count, (void *)s) : vit_embed_async(m, di, batch, demb, (void *)s);
            if (st != VIT_OK) { printf("{\"error\": \"%s: %s\"}\n", k == 0 ? "vit_features_async" : "vit_embed_async", vit_last_error(m)); return 1; }
            CK(cudaEventRecord(e1, s));
            CK(cudaEventSynchronize(e1));
            if (i >= 0) CK(cudaEventElapsedTime(&t[k * iters + i], e0, e1));
            if (i == -3) CK(cudaMemGetInfo(k == 0 ? &free1 : &free2, &total)); // after the first call of each: its graph, its code loaded
        }
    }
    for (int k = 0; k < 2; k++) {
        med[k] = median(t + k * iters, iters);
        mn[k] = t[k * iters]; // (sorted by median)
    }
    printf("{\"ms\": %.4f, \"min_ms\": %.4f, \"img_s\": %.1f, \"embed_ms\": %.4f, \"embed_min_ms\": %.4f, \"ratio\": %.4f, \"mem_bytes\": %zu, "
           "\"mem_after_embed_bytes\": %zu, \"weights_bytes\": %zu, \"arena_bytes\": %zu, \"out_bytes\": %zu, \"out_shape\": [%d, %d, %d], "
           "\"blocks\": \"%s\", \"norm\": %d, \"noprefix\": %d, \"out_dtype\": \"%s\", \"dtype\": \"%s\", \"batch\": %d}\n",
           med[0], mn[0], batch / (med[0] * 1e-3), med[1], mn[1], med[0] / med[1], free0 - free1 - (freea - freeb), free0 - free2 - (freea - freeb), m->cuda->weights_bytes,
           m->cuda->arena_bytes, out_bytes, batch, shape[0], shape[1], blocks_arg, norm, noprefix, spec.out_dtype == VIT_DTYPE_BF16 ? "bf16" : "f32", dtype, batch);
    vit_free(m);
    cudaFree(di); cudaFree(dout); cudaFree(demb);
    free(h); free(t);
    return 0;
}

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

// The host API against the async one: wall-clock medians of vit_forward_async
// (device images, synchronised), vit_forward (pageable host images),
// vit_forward_rgb8 (pageable host FW x FH RGB frames) and vit_forward_rgb8_async
// (device frames, synchronised); VIT_STAGE_FIRST / VIT_STAGE_GROW set the
// host path's chunks (vit__test_hook.stage_first / stage_grow), VIT_STAGE_BLOCKS the
// blocks each spread chunk's pass runs (vit__test_hook.stage_blocks).
static int bench_transfer(const char *dir, const char *dtype, int batch, int iters, int fw, int fh) {
    vit_model *m = load_model(dir, dtype, batch, 0);
    if (!m) return 1;
    env_knobs(m);
    if (getenv("VIT_STAGE_FIRST")) knobs.stage_first = atoi(getenv("VIT_STAGE_FIRST"));
    if (getenv("VIT_STAGE_GROW")) knobs.stage_grow = atoi(getenv("VIT_STAGE_GROW"));
    if (getenv("VIT_STAGE_BLOCKS")) knobs.stage_blocks = atoi(getenv("VIT_STAGE_BLOCKS"));
    const vit_config *c = vit_model_config(m);
    size_t per = (size_t)c->in_chans * c->image_height * c->image_width, K = (size_t)(c->num_classes ? c->num_classes : 1);
    size_t fb = (size_t)fw * fh * 3;
    float *h = (float *)malloc(per * batch * sizeof(float)), *logits = (float *)malloc(K * batch * sizeof(float));
    unsigned char *frames = (unsigned char *)malloc(fb * batch);
    fill(h, per * batch, 7);
    for (size_t i = 0; i < fb * batch; i++) frames[i] = (unsigned char)(i * 2654435761u >> 24);
    float *di, *dout;
    unsigned char *dframes;
    CK(cudaMalloc((void **)&di, per * batch * sizeof(float)));
    CK(cudaMalloc((void **)&dout, K * batch * sizeof(float)));
    CK(cudaMalloc((void **)&dframes, fb * batch));
    CK(cudaMemcpy(di, h, per * batch * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dframes, frames, fb * batch, cudaMemcpyHostToDevice));
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    float *t = (float *)malloc(sizeof(float) * iters);
    unsigned char *pframes = NULL; // the same frames in page-locked memory: read in place
    CK(cudaHostAlloc((void **)&pframes, fb * batch, cudaHostAllocDefault));
    memcpy(pframes, frames, fb * batch);
    // the passes host frames run (vit__stage_chunk's chunks, vit__plan_stage_blocks'
    // split), on device floats without the staging (vit__test_hook.stage_device)
    vit__input fin;
    memset(&fin, 0, sizeof(fin));
    fin.bytes = fin.last_bytes = fb;
    fin.image_bytes = per * sizeof(float);
    fin.frames = fin.host = 1;
    int plan_first = vit__stage_chunk(m->cuda, &fin, batch, vit__stage_cap(m, &fin), 0, 0), plan_blocks = vit__plan_stage_blocks(m, batch, plan_first, fb);
    vit__test_hook split = knobs;
    split.stage_device = 1;
    split.stage_first = plan_first;
    split.stage_grow = batch; // then the rest (two chunks, as frames that stage fast)
    split.stage_blocks = plan_blocks;
    enum { KINDS = 6 };
    double med[KINDS];
    const char *names[KINDS] = {"async_ms", "host_ms", "rgb8_host_ms", "rgb8_async_ms", "rgb8_pinned_ms", "split_async_ms"};
    // the six interleaved, each round in a rotated order: clock drift over the
    // run and the order's cache effects fall on all alike
    float *tk = (float *)malloc(sizeof(float) * KINDS * iters);
    for (int i = -3; i < iters; i++) {
        for (int r = 0; r < KINDS; r++) {
            int k = (r + (i < 0 ? 0 : i)) % KINDS;
            if (k == 5) m->cuda->hook = &split;
            double t0 = now_ms();
            vit_status st = k == 0 ? vit_forward_async(m, di, batch, dout, (void *)s)
                          : k == 1 ? vit_forward(m, h, batch, logits)
                          : k == 2 ? vit_forward_rgb8(m, frames, batch, fw, fh, 0, 3, logits)
                          : k == 3 ? vit_forward_rgb8_async(m, dframes, batch, fw, fh, 0, 3, dout, (void *)s)
                          : k == 4 ? vit_forward_rgb8(m, pframes, batch, fw, fh, 0, 3, logits)
                                   : vit_forward_async(m, di, batch, dout, (void *)s);
            CK(cudaStreamSynchronize(s));
            m->cuda->hook = &knobs;
            if (st != VIT_OK) { printf("{\"error\": \"%s: %s\"}\n", names[k], vit_last_error(m)); return 1; }
            if (i >= 0) tk[k * iters + i] = (float)(now_ms() - t0);
        }
    }
    for (int k = 0; k < KINDS; k++) med[k] = median(tk + k * iters, iters);
    free(tk);
    // the GPU eval transform alone (vit__prep_cuda on the device frames)
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    for (int i = -3; i < iters; i++) {
        CK(cudaEventRecord(e0, m->cuda->stream));
        if (vit__prep_cuda(m, dframes, batch, m->cuda->images, m->cuda->stream) != VIT_OK) { printf("{\"error\": \"prep: %s\"}\n", vit_last_error(m)); return 1; }
        CK(cudaEventRecord(e1, m->cuda->stream));
        CK(cudaEventSynchronize(e1));
        if (i >= 0) CK(cudaEventElapsedTime(&t[i], e0, e1));
    }
    double prep = median(t, iters);
    // the staging's two rates: the host copy into a pinned slot (vit__copy_host,
    // the model's threads) and the DMA from it, on one slot's worth of frames
    vit__cuda_state *cs = m->cuda;
    size_t cb = fb * batch < cs->stage_bytes / 2 ? fb * batch : cs->stage_bytes / 2;
    float tc[9], td[9];
    for (int i = 0; i < 9; i++) {
        double t0 = now_ms();
        vit__copy_host(cs->pin_in, frames, cb, m->num_threads, 1);
        tc[i] = (float)(now_ms() - t0);
        CK(cudaEventRecord(e0, cs->copy));
        CK(cudaMemcpyAsync(cs->dev_in, cs->pin_in, cb, cudaMemcpyHostToDevice, cs->copy));
        CK(cudaEventRecord(e1, cs->copy));
        CK(cudaEventSynchronize(e1));
        CK(cudaEventElapsedTime(&td[i], e0, e1));
    }
    double copy_gbs = cb / (median(tc, 9) * 1e6), dma_gbs = cb / (median(td, 9) * 1e6);
    printf("{\"batch\": %d, \"dtype\": \"%s\", \"frame\": \"%dx%d\", \"async_ms\": %.4f, \"host_ms\": %.4f, \"rgb8_host_ms\": %.4f, \"rgb8_async_ms\": %.4f, "
           "\"prep_ms\": %.4f, \"host_ratio\": %.3f, \"rgb8_ratio\": %.3f, \"stage_first\": %d, \"stage_grow\": %d, \"stage_blocks\": %d, \"copy_gbs\": %.1f, \"dma_gbs\": %.1f, \"rgb8_pinned_ms\": %.4f, \"pinned_ratio\": %.3f, "
           "\"plan_first\": %d, \"plan_blocks\": %d, \"split_async_ms\": %.4f}\n",
           batch, dtype, fw, fh, med[0], med[1], med[2], med[3], prep, med[1] / med[0], med[2] / med[0], knobs.stage_first, knobs.stage_grow, knobs.stage_blocks, copy_gbs, dma_gbs, med[4], med[4] / med[0], plan_first, plan_blocks, med[5]);
    cudaFreeHost(pframes);
    vit_free(m);
    return 0;
}

// Several GPUs in one process, the documented pattern: one model per
// device_index, one host thread per model, each taking the next batch of a
// shared stream of batches. Host RGB frames (FW x FH) through vit_forward_rgb8,
// so each GPU's copies and preprocessing are counted; img/s on 1..NDEV GPUs.
typedef struct multi_worker {
    vit_model *m;
    const unsigned char *frames;
    int batch, fw, fh, batches;
    int *next;                 // shared batch counter
    pthread_mutex_t *lock;
    float *logits;
    vit_status st;
} multi_worker;

static void *multi_run(void *arg) {
    multi_worker *w = (multi_worker *)arg;
    for (;;) {
        pthread_mutex_lock(w->lock);
        int b = (*w->next)++;
        pthread_mutex_unlock(w->lock);
        if (b >= w->batches) break;
        w->st = vit_forward_rgb8(w->m, w->frames, w->batch, w->fw, w->fh, 0, 3, w->logits);
        if (w->st != VIT_OK) break;
    }
    return NULL;
}

static int bench_multi(const char *dir, const char *dtype, int batch, int batches, int fw, int fh) {
    int ndev = 0;
    CK(cudaGetDeviceCount(&ndev));
    size_t fb = (size_t)fw * fh * 3;
    unsigned char *frames = (unsigned char *)malloc(fb * batch);
    for (size_t i = 0; i < fb * batch; i++) frames[i] = (unsigned char)(i * 2654435761u >> 24);
    vit_model *ms[16] = {0};
    if (ndev > 16) ndev = 16;
    for (int d = 0; d < ndev; d++)
        if (!(ms[d] = load_model(dir, dtype, batch, d))) return 1;
    printf("{\"devices\": %d, \"batch\": %d, \"frame\": \"%dx%d\", \"img_s\": [", ndev, batch, fw, fh);
    for (int g = 1; g <= ndev; g++) {
        double best = 0;
        for (int rep = 0; rep < 2; rep++) { // the first round also warms every model up (graphs, taps)
            int next = 0;
            pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
            multi_worker w[16];
            pthread_t th[16];
            double t0 = now_ms();
            for (int d = 0; d < g; d++) {
                w[d].m = ms[d]; w[d].frames = frames; w[d].batch = batch; w[d].fw = fw; w[d].fh = fh; w[d].batches = batches;
                w[d].next = &next; w[d].lock = &lock; w[d].st = VIT_OK;
                w[d].logits = (float *)malloc((size_t)batch * 1000 * sizeof(float) + (size_t)batch * vit_model_config(ms[d])->dim * sizeof(float));
                pthread_create(&th[d], NULL, multi_run, &w[d]);
            }
            for (int d = 0; d < g; d++) pthread_join(th[d], NULL);
            double ms_all = now_ms() - t0;
            for (int d = 0; d < g; d++) {
                free(w[d].logits);
                if (w[d].st != VIT_OK) { printf("]}\n{\"error\": \"device %d: %s\"}\n", d, vit_last_error(ms[d])); return 1; }
            }
            double ips = (double)batches * batch / (ms_all * 1e-3);
            if (rep && ips > best) best = ips;
        }
        printf("%s%.1f", g > 1 ? ", " : "", best);
    }
    printf("]}\n");
    for (int d = 0; d < ndev; d++) vit_free(ms[d]);
    free(frames);
    return 0;
}

// ---- text: a full CLIP / SigLIP model's two towers and zero-shot (see the top)

// The whole of a file (malloc'd) and its size, or NULL.
static void *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *p = n > 0 ? malloc((size_t)n + 1) : NULL;
    if (p && fread(p, 1, (size_t)n, f) != (size_t)n) { free(p); p = NULL; }
    fclose(f);
    if (p) { ((char *)p)[n] = 0; *size = (size_t)n; }
    return p;
}

static void l2_rows(float *v, int n, int d) {
    for (int i = 0; i < n; i++) {
        double ss = 0.0;
        for (int k = 0; k < d; k++) ss += (double)v[(size_t)i * d + k] * v[(size_t)i * d + k];
        for (int k = 0; k < d; k++) v[(size_t)i * d + k] = (float)(v[(size_t)i * d + k] / sqrt(ss));
    }
}

static int bench_text(const char *dir, const char *dtype, int batch, int iters, const char *ids_path, const char *img_path, const char *out_path,
                      const char *tok_dir, const char *prompts_path) {
    size_t ids_size = 0, img_size = 0;
    int *ids_file = (int *)read_file(ids_path, &ids_size);
    float *img_file = (float *)read_file(img_path, &img_size);
    if (!ids_file || ids_size < 8) { printf("{\"error\": \"cannot read %s\"}\n", ids_path); return 1; }
    if (!img_file || img_size < 16) { printf("{\"error\": \"cannot read %s\"}\n", img_path); return 1; }
    int k = ids_file[0], L = ids_file[1], *ids = ids_file + 2;
    int hdr[4];
    memcpy(hdr, img_file, sizeof(hdr));
    int n = hdr[0];
    const float *images = img_file + 4;
    if (k < 1 || L < 1 || ids_size != 8 + (size_t)k * L * 4) { printf("{\"error\": \"%s: %zu bytes for k %d, L %d\"}\n", ids_path, ids_size, k, L); return 1; }
    if (n < 1 || n > batch || img_size != 16 + (size_t)n * hdr[1] * hdr[2] * hdr[3] * 4) {
        printf("{\"error\": \"%s: %zu bytes for %d x %d x %d x %d images (at most BATCH = %d)\"}\n", img_path, img_size, n, hdr[1], hdr[2], hdr[3], batch);
        return 1;
    }
    // the bench's own device buffers first: the free memory before the load leaves them out
    size_t per = (size_t)hdr[1] * hdr[2] * hdr[3];
    float *di, *demb;
    CK(cudaMalloc((void **)&di, per * n * sizeof(float)));
    CK(cudaMalloc((void **)&demb, (size_t)n * 4096 * sizeof(float)));
    CK(cudaMemcpy(di, images, per * n * sizeof(float), cudaMemcpyHostToDevice));
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    size_t free0 = 0, free1 = 0, total = 0;
    CK(cudaMemGetInfo(&free0, &total));
    double t_load = now_ms();
    vit_model *m = load_model(dir, dtype, batch, 0);
    if (!m) return 1;
    t_load = now_ms() - t_load;
    env_knobs(m);
    const vit_config *c = vit_model_config(m);
    int E = c->embed_dim;
    if (!c->has_text) { printf("{\"error\": \"%s has no text tower (a full CLIPModel / SiglipModel folder has one)\"}\n", dir); return 1; }
    if (L != c->text_context) { printf("{\"error\": \"%s: %d ids per text, the model's context is %d\"}\n", ids_path, L, c->text_context); return 1; }
    if (hdr[1] != c->in_chans || hdr[2] != c->image_height || hdr[3] != c->image_width || E > 4096) {
        printf("{\"error\": \"%s: images %d x %d x %d, the model takes %d x %d x %d (embeddings %d wide)\"}\n", img_path, hdr[1], hdr[2], hdr[3], c->in_chans,
               c->image_height, c->image_width, E);
        return 1;
    }
    float *temb = (float *)malloc((size_t)k * E * sizeof(float)), *iemb = (float *)malloc((size_t)n * E * sizeof(float));
    float *iemb2 = (float *)malloc((size_t)n * E * sizeof(float)), *logits = (float *)malloc((size_t)n * k * sizeof(float));
    float *probs = (float *)malloc((size_t)n * k * sizeof(float));
    // one round: every call, timed (ms) into t[KINDS]; the first round is the warm-up
    enum { ENCODE, IMAGE, IMAGE_DEV, ZERO_SHOT, ZERO_SHOT_LOGITS, TOTAL, TOTAL_DEV, KINDS };
    const char *names[KINDS] = {"encode_ms", "image_ms", "image_dev_ms", "zero_shot_ms", "zero_shot_logits_ms", "total_ms", "total_dev_ms"};
    float *tk = (float *)malloc(sizeof(float) * KINDS * iters);
    for (int i = -1; i < iters; i++) {
        double t[KINDS + 1] = {0};
        vit_status st = VIT_OK;
        const char *what = "";
        t[0] = now_ms();
        if ((st = vit_encode_ids(m, ids, k, temb)) != VIT_OK) what = "vit_encode_ids";
        t[1] = now_ms();
        if (st == VIT_OK && (st = vit_image_embeds(m, images, n, iemb)) != VIT_OK) what = "vit_image_embeds";
        t[2] = now_ms();
        if (st == VIT_OK) { // the device-resident images: the embeddings copied back and normalised, as vit_image_embeds does
            st = c->projection ? vit_forward_async(m, di, n, demb, (void *)s) : vit_embed_async(m, di, n, demb, (void *)s);
            if (st != VIT_OK) what = c->projection ? "vit_forward_async" : "vit_embed_async";
            CK(cudaMemcpyAsync(iemb2, demb, (size_t)n * E * sizeof(float), cudaMemcpyDeviceToHost, s));
            CK(cudaStreamSynchronize(s));
            l2_rows(iemb2, n, E);
        }
        t[3] = now_ms();
        if (st == VIT_OK && (st = vit_zero_shot(m, iemb, n, temb, k, logits, probs)) != VIT_OK) what = "vit_zero_shot";
        t[4] = now_ms();
        if (st == VIT_OK && (st = vit_zero_shot(m, iemb, n, temb, k, logits, NULL)) != VIT_OK) what = "vit_zero_shot (logits)";
        t[5] = now_ms();
        if (st != VIT_OK) { printf("{\"error\": \"%s: %s\"}\n", what, vit_last_error(m)); return 1; }
        if (i < 0) CK(cudaMemGetInfo(&free1, &total)); // after the warm-up round: both towers' code, graphs, buffers
        else {
            for (int j = 0; j < 5; j++) tk[j * iters + i] = (float)(t[j + 1] - t[j]);
            tk[TOTAL * iters + i] = tk[IMAGE * iters + i] + tk[ZERO_SHOT * iters + i];
            tk[TOTAL_DEV * iters + i] = tk[IMAGE_DEV * iters + i] + tk[ZERO_SHOT * iters + i];
        }
    }
    // the two image paths agree (the same graph, the same normalisation)
    float dev_diff = 0.0f;
    for (size_t j = 0; j < (size_t)n * E; j++) dev_diff = fmaxf(dev_diff, fabsf(iemb[j] - iemb2[j]));
    double med[KINDS], mn[KINDS];
    for (int j = 0; j < KINDS; j++) {
        med[j] = median(tk + j * iters, iters);
        mn[j] = tk[j * iters]; // (sorted by median)
    }
    // the tokenizer: vit_tokenize of every prompt, its ids against IDS.bin's
    double tok_ms = -1.0, texts_ms = -1.0;
    float texts_diff = -1.0f;
    int tok_mismatch = -1;
    if (tok_dir && prompts_path) {
        size_t psize = 0;
        char *prompts = (char *)read_file(prompts_path, &psize);
        vit_tokenizer *tok = NULL;
        if (!prompts) { printf("{\"error\": \"cannot read %s\"}\n", prompts_path); return 1; }
        if (vit_tokenizer_load(tok_dir, NULL, &tok) != VIT_OK) { printf("{\"error\": \"vit_tokenizer_load: %s\"}\n", vit_tokenizer_last_error(NULL)); return 1; }
        const char **line = (const char **)malloc(sizeof(char *) * (size_t)k); // NUL-terminated
        size_t *len = (size_t *)malloc(sizeof(size_t) * (size_t)k);
        int np = 0;
        for (char *p = prompts; *p && np < k; np++) { // each line NUL-terminated in place
            char *e = strchr(p, '\n');
            if (e) *e = 0;
            line[np] = p;
            len[np] = strlen(p);
            p += len[np] + (e != NULL);
        }
        if (np != k) { printf("{\"error\": \"%s: %d prompts, %s has %d texts\"}\n", prompts_path, np, ids_path, k); return 1; }
        int *tids = (int *)malloc(sizeof(int) * (size_t)k * L);
        float *tt = (float *)malloc(sizeof(float) * iters);
        for (int i = -1; i < iters; i++) {
            double t0 = now_ms();
            for (int j = 0; j < k; j++)
                if (vit_tokenize(tok, line[j], len[j], tids + (size_t)j * L, L, NULL) != VIT_OK) {
                    printf("{\"error\": \"vit_tokenize: %s\"}\n", vit_tokenizer_last_error(tok));
                    return 1;
                }
            if (i >= 0) tt[i] = (float)(now_ms() - t0);
        }
        tok_ms = median(tt, iters);
        tok_mismatch = 0;
        for (int j = 0; j < k; j++) tok_mismatch += memcmp(tids + (size_t)j * L, ids + (size_t)j * L, sizeof(int) * L) != 0;
        // vit_encode_texts: the prompts' text to their embeddings (vit_tokenize, then vit_encode_ids)
        float *temb2 = (float *)malloc((size_t)k * E * sizeof(float));
        for (int i = -1; i < iters; i++) {
            double t0 = now_ms();
            if (vit_encode_texts(m, tok, line, k, NULL, temb2) != VIT_OK) { printf("{\"error\": \"vit_encode_texts: %s\"}\n", vit_last_error(m)); return 1; }
            if (i >= 0) tt[i] = (float)(now_ms() - t0);
        }
        texts_ms = median(tt, iters);
        texts_diff = 0.0f;
        for (size_t j = 0; j < (size_t)k * E; j++) texts_diff = fmaxf(texts_diff, fabsf(temb2[j] - temb[j]));
        free(temb2);
        vit_tokenizer_free(tok);
        free(prompts); free(line); free(len); free(tids); free(tt);
    }
    FILE *f = fopen(out_path, "wb");
    int ohdr[3] = {k, n, E};
    if (!f || fwrite(ohdr, sizeof(ohdr), 1, f) != 1 || fwrite(temb, sizeof(float) * E, (size_t)k, f) != (size_t)k ||
        fwrite(iemb, sizeof(float) * E, (size_t)n, f) != (size_t)n || fwrite(logits, sizeof(float) * k, (size_t)n, f) != (size_t)n || fclose(f)) {
        printf("{\"error\": \"cannot write %s\"}\n", out_path);
        return 1;
    }
    printf("{");
    for (int j = 0; j < KINDS; j++) printf("\"%s\": %.4f, \"min_%s\": %.4f, ", names[j], med[j], names[j], mn[j]);
    const vit__cuda_state *ts = m->text->cuda;
    printf("\"texts_s\": %.1f, \"tokenize_ms\": %.4f, \"tokenize_mismatch\": %d, \"encode_texts_ms\": %.4f, \"encode_texts_max_diff\": %.3g, \"image_dev_max_diff\": %.3g, \"load_ms\": %.1f, \"mem_bytes\": %zu, "
           "\"weights_bytes\": %zu, \"arena_bytes\": %zu, \"text_weights_bytes\": %zu, \"text_arena_bytes\": %zu, \"k\": %d, \"n\": %d, \"L\": %d, \"E\": %d, "
           "\"dtype\": \"%s\", \"batch\": %d, \"iters\": %d}\n",
           k / (med[ENCODE] * 1e-3), tok_ms, tok_mismatch, texts_ms, texts_diff, dev_diff, t_load, free0 - free1, m->cuda->weights_bytes, m->cuda->arena_bytes, ts ? ts->weights_bytes : 0,
           ts ? ts->arena_bytes : 0, k, n, L, E, dtype, batch, iters);
    vit_free(m);
    cudaFree(di); cudaFree(demb);
    cudaStreamDestroy(s);
    free(ids_file); free(img_file); free(temb); free(iemb); free(iemb2); free(logits); free(probs); free(tk);
    return 0;
}

typedef struct op_timer {
    cudaEvent_t e0, e1;
    cudaStream_t s;
    int iters;
    float *t;
} op_timer;

// the op's 10 back-to-back launches captured in one graph (as the forward pass
// runs them, programmatic dependent launches included), replayed and timed
#define TIME_OP(name, scale, call)                                                                   \
    do {                                                                                             \
        cudaGraph_t g_;                                                                              \
        cudaGraphExec_t ge_;                                                                         \
        CK(cudaStreamBeginCapture(ot.s, cudaStreamCaptureModeRelaxed));                              \
        for (int r_ = 0; r_ < 10; r_++) {                                                            \
            vit_status st_ = (call);                                                                 \
            if (st_ != VIT_OK) { printf("{\"error\": \"%s: %s\"}\n", name, vit_last_error(m)); return 1; } \
        }                                                                                            \
        CK(cudaStreamEndCapture(ot.s, &g_));                                                         \
        CK(cudaGraphInstantiate(&ge_, g_, 0));                                                       \
        for (int i_ = -2; i_ < ot.iters; i_++) {                                                     \
            CK(cudaEventRecord(ot.e0, ot.s));                                                        \
            CK(cudaGraphLaunch(ge_, ot.s));                                                          \
            CK(cudaEventRecord(ot.e1, ot.s));                                                        \
            CK(cudaEventSynchronize(ot.e1));                                                         \
            if (i_ >= 0) { CK(cudaEventElapsedTime(&ot.t[i_], ot.e0, ot.e1)); ot.t[i_] /= 10; }      \
        }                                                                                            \
        CK(cudaGraphExecDestroy(ge_));                                                               \
        CK(cudaGraphDestroy(g_));                                                                    \
        float med_ = median(ot.t, ot.iters);                                                         \
        total += med_ * (scale);                                                                     \
        printf("%s\"%s\": [%.4f, %d, %d]", first ? "" : ", ", name, med_, ran.kernel, ran.split);                     \
        first = 0;                                                                                   \
    } while (0)

template <typename T, typename TX>
static int layer_ops(vit_model *m, int B, op_timer ot) {
    vit__cuda_state *s = m->cuda;
    const vit_config *c = &m->cfg;
    int C = c->dim, N = c->num_tokens, M = c->mlp_dim, H = c->num_heads, rows = B * N, D = c->depth, first = 1;
    int hidden = m->act == VIT__ACT_SWIGLU ? M / 2 : M;
    float total = 0.0f;
    T *xn = (T *)s->xn, *big = (T *)s->big;
    TX *x = sizeof(TX) == 2 ? (TX *)s->xh : (TX *)s->x; // the residual stream
    const vit__cuda_block *k = &s->blocks[0];
    vit__embed_fuse fz;
    fz.prefix = s->prefix; fz.pos = s->pos; fz.tokens = N; fz.num_prefix = m->num_prefix; fz.pos_prefix = 0;
    vit__attn_args att = vit__attn_self(xn, big, B, N, C, H, sizeof(T));
    vit__plan &ran = knobs.ran, none = vit__plan_none(); // (the hook records each op's plan)
    printf("{");
    TIME_OP("patch+ln1", 1, (vit__patch_ln_cuda<T, TX>(xn, x, s->x, s->images, (const T *)s->patch_w, s->patch_b, B, c->in_chans, c->image_height, c->image_width, c->patch_size, C, &fz, s->big,
                                                    (size_t)rows * (3 * C > M ? 3 * C : M), k->ln1_w, k->ln1_b, c->eps, m, ot.s))); // block 0's ln1; the others ride on fc2
    TIME_OP("qkv", D, (vit__linear_cuda<T>(big, xn, (const T *)k->qkv_w, k->qkv_b, rows, C, 3 * C, VIT__OUT_STORE, VIT__ACT_NONE, NULL, m, ot.s)));
    TIME_OP("attention", D, (vit__attention_cuda<T>(att, m, ot.s, NULL, 0)));
    TIME_OP("proj+ln2", D, (vit__linear_ln_cuda<T, T, TX>(xn, x, xn, (const T *)k->proj_w, k->proj_b, k->ls1, rows, C, C, k->ln2_w, k->ln2_b, c->eps, 1, m, ot.s)));
    TIME_OP("fc1", D, (vit__linear_cuda<T>(big, xn, (const T *)k->fc1_w, k->fc1_b, rows, C, M, VIT__OUT_STORE, m->act, NULL, m, ot.s)));
    int token_tail = s->norm_w && c->pool == VIT_POOL_TOKEN && !s->fcn_w && m->num_head == 1; // as vit__forward_cuda_body's tail
    TIME_OP("fc2+ln1", D - token_tail, (vit__linear_ln_cuda<T, T, TX>(xn, x, big, (const T *)k->fc2_w, k->fc2_b, k->ls2, rows, hidden, C, k->ln1_w, k->ln1_b, c->eps, 1, m,
                                                                   ot.s)));
    if (token_tail) { // the last block's fc2 with the final norm of the class tokens, then the head
        TIME_OP("fc2+norm", 1, (vit__linear_ln_cuda<T, float, TX>(s->pooled, x, big, (const T *)k->fc2_w, k->fc2_b, k->ls2, rows, hidden, C, s->norm_w, s->norm_b, c->eps,
                                                               N, m, ot.s)));
        ran = none;
        TIME_OP("head", 1, (vit__head_cuda<T>(s->out, s->pooled, (const T *)s->head_w, s->head_b, B, C, c->num_classes, m->num_head, m, ot.s)));
    } else {
        ran = none;
        TIME_OP("pool_head", 1, (vit__pool_cuda(s->pooled, s->x, B, N, C, c->pool, m->num_prefix, m->num_head, s->fcn_w, s->fcn_b, c->eps, m, ot.s) ||
                                  vit__head_cuda<T>(s->out, s->pooled, (const T *)s->head_w, s->head_b, B, C, c->num_classes, m->num_head, m, ot.s) ? VIT_ERROR_CUDA : VIT_OK));
    }
    printf(", \"sum_ms\": %.4f}\n", total);
    return 0;
}

static int bench_layer(const char *dir, const char *dtype, int batch, int iters) {
    char path[1200];
    vit_options o = bench_options(dir, dtype, batch, path, sizeof(path));
    if (o.dtype == VIT_DTYPE_FP8) { printf("{\"error\": \"layer: fp8 is not broken down by op here\"}\n"); return 1; }
    vit_model *m = NULL;
    if (vit_load(path, &o, &m) != VIT_OK) { printf("{\"error\": \"load: %s\"}\n", vit_last_error(NULL)); return 1; }
    env_knobs(m);
    const vit_config *c = vit_model_config(m);
    size_t per = (size_t)c->in_chans * c->image_height * c->image_width;
    float *h = (float *)malloc(per * batch * sizeof(float));
    fill(h, per * batch, 7);
    CK(cudaMemcpy(m->cuda->images, h, per * batch * sizeof(float), cudaMemcpyHostToDevice));
    op_timer ot;
    ot.s = m->cuda->stream;
    ot.iters = iters;
    ot.t = (float *)malloc(sizeof(float) * iters);
    CK(cudaEventCreate(&ot.e0));
    CK(cudaEventCreate(&ot.e1));

    int r = o.dtype == VIT_DTYPE_F32 ? layer_ops<float, float>(m, batch, ot) : o.dtype == VIT_DTYPE_F16 ? layer_ops<__half, float>(m, batch, ot)
            : m->cfg.residual_dtype == VIT_DTYPE_BF16 ? layer_ops<__nv_bfloat16, __nv_bfloat16>(m, batch, ot) : layer_ops<__nv_bfloat16, float>(m, batch, ot);
    vit_free(m);
    return r;
}

template <typename T>
static int bench_gemm(int M, int N, int K, int iters) {
    vit_model *m = (vit_model *)calloc(1, sizeof(vit_model));
    if (vit__cuda_open(m, 0) != VIT_OK) { printf("{\"error\": \"%s\"}\n", m->error); return 1; }
    if (getenv("VIT_GEMM")) knobs.gemm = atoi(getenv("VIT_GEMM"));
    m->cuda->hook = &knobs;
    int ep = getenv("VIT_EP") ? atoi(getenv("VIT_EP")) : 0;
    vit__act act = getenv("VIT_ACT") ? (vit__act)atoi(getenv("VIT_ACT")) : ep == 1 ? VIT__ACT_GELU : VIT__ACT_NONE;
    const vit__plan &ran = knobs.ran;
    size_t na = (size_t)M * K, nw = (size_t)N * K;
    // VIT_DTYPE=fp8: e4m3 operands (unit scales), bf16 out, as VIT_DTYPE_FP8's block linears;
    // VIT_E4M3=blocks: a's scales per 128 columns of K (fc2 after SwiGLU), VIT_E4M3=out: e4m3 outputs (fc1)
    int f8 = sizeof(T) == 2 && getenv("VIT_DTYPE") && !strcmp(getenv("VIT_DTYPE"), "fp8");
    const char *e4m3_mode = getenv("VIT_E4M3") ? getenv("VIT_E4M3") : "";
    size_t nones = (size_t)(M > N ? M : N) * ((K > N ? K : N) / 128 + 1);
    size_t es = f8 ? 1 : sizeof(T);
    T *ha = (T *)malloc(na * sizeof(T)), *hw = (T *)malloc(nw * sizeof(T));
    unsigned char *qa = (unsigned char *)ha, *qw = (unsigned char *)hw;
    float *tmp = (float *)malloc((na > nw ? na : nw) * 4);
    fill(tmp, na, 1);
    for (size_t i = 0; i < na; i++) { if (f8) qa[i] = vit__e4m3(tmp[i] * 4.0f); else ha[i] = (T)tmp[i]; }
    fill(tmp, nw, 2);
    for (size_t i = 0; i < nw; i++) { if (f8) qw[i] = vit__e4m3(tmp[i] * 4.0f); else hw[i] = (T)(tmp[i] * 0.05f); }
    void *da, *dw, *dout;
    float *db, *dones;
    CK(cudaMalloc(&da, na * es));
    CK(cudaMalloc(&dw, nw * es));
    CK(cudaMalloc((void **)&dones, nones * 4));
    float *hones = (float *)malloc(nones * 4);
    for (size_t i = 0; i < nones; i++) hones[i] = 1.0f;
    CK(cudaMemcpy(dones, hones, nones * 4, cudaMemcpyHostToDevice));
    free(hones);
    CK(cudaMalloc(&dout, (size_t)M * N * 4));
    float *dqs = NULL;
    if (!strcmp(e4m3_mode, "out")) CK(cudaMalloc((void **)&dqs, (size_t)M * (N / 128 + 1) * 4));
    // (e4m3 out: row norms 1 and a column-norm bound of 448, so output scales of 2; values may saturate, timing only)
    vit__e4m3_ops ops = {(const unsigned char *)da, dones, (const unsigned char *)dw, dones, !strcmp(e4m3_mode, "blocks"),
                         dqs ? (unsigned char *)dout : NULL, dqs, dones, 448.0f, 0.0f};
    CK(cudaMemset(dout, 0, (size_t)M * N * 4));
    CK(cudaMalloc((void **)&db, (size_t)N * 4));
    CK(cudaMemset(db, 0, (size_t)N * 4));
    CK(cudaMemcpy(da, ha, na * es, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dw, hw, nw * es, cudaMemcpyHostToDevice));
    float med = median_ms(iters, [&]() {
        return vit__linear_cuda<T>(dout, (const T *)da, (const T *)dw, db, M, K, N, ep == 2 ? VIT__OUT_RESIDUAL : VIT__OUT_STORE, act, NULL, m, 0,
                                   f8 ? &ops : NULL);
    });
    if (med < 0) { printf("{\"error\": \"%s\"}\n", m->error); return 1; }
    printf("{\"ms\": %.4f, \"tflops\": %.1f, \"kernel\": %d, \"M\": %d, \"N\": %d, \"K\": %d, \"dtype\": \"%s\"}\n", med, 2.0 * M * N * K / (med * 1e-3) / 1e12,
           ran.kernel, M, N, K, f8 ? "fp8" : sizeof(T) == 4 ? "f32" : "bf16");
    cudaFree(da); cudaFree(dw); cudaFree(dout); cudaFree(db); cudaFree(dones); cudaFree(dqs);
    free(ha); free(hw); free(tmp);
    vit__cuda_free(m);
    free(m);
    return 0;
}

// One bf16 self-attention over packed qkv (B, N, 3 H D), as a forward pass runs
// it, alone: median ms and TFLOP/s (4 B H N^2 D), the kernel the policy (or the
// VIT_ATTN_* knobs) chose.
static int bench_attn(int B, int N, int H, int D, int iters) {
    vit_model *m = (vit_model *)calloc(1, sizeof(vit_model));
    if (vit__cuda_open(m, 0) != VIT_OK) { printf("{\"error\": \"%s\"}\n", m->error); return 1; }
    env_knobs(m);
    int C = H * D;
    size_t nqkv = (size_t)B * N * 3 * C, no = (size_t)B * N * C;
    float *tmp = (float *)malloc(nqkv * 4);
    __nv_bfloat16 *h = (__nv_bfloat16 *)malloc(nqkv * 2);
    fill(tmp, nqkv, 3);
    float data = getenv("VIT_ATTN_DATA") ? (float)atof(getenv("VIT_ATTN_DATA")) : 2.0f; // q, k, v uniform in [-data, data]
    for (size_t i = 0; i < nqkv; i++) h[i] = __float2bfloat16(tmp[i] * data);
    void *dqkv, *dout;
    CK(cudaMalloc(&dqkv, nqkv * 2));
    CK(cudaMalloc(&dout, no * 2));
    CK(cudaMemcpy(dqkv, h, nqkv * 2, cudaMemcpyHostToDevice));
    vit__attn_args a = vit__attn_self(dout, dqkv, B, N, C, H, 2);
    const vit__plan &ran = knobs.ran;
    float med = median_ms(iters, [&]() { return vit__attention_cuda<__nv_bfloat16>(a, m, 0, NULL, 0); });
    if (med < 0) { printf("{\"error\": \"%s\"}\n", m->error); return 1; }
    printf("{\"ms\": %.4f, \"tflops\": %.1f, \"kernel\": %d, \"warps\": %d, \"B\": %d, \"N\": %d, \"H\": %d, \"D\": %d}\n", med,
           4.0 * B * H * (double)N * N * D / (med * 1e-3) / 1e12, ran.kernel, ran.warps, B, N, H, D);
    cudaFree(dqkv); cudaFree(dout);
    free(tmp); free(h);
    vit__cuda_free(m);
    free(m);
    return 0;
}

int main(int argc, char **argv) {
    if (argc >= 6 && !strcmp(argv[1], "model")) return bench_model(argv[2], argv[3], atoi(argv[4]), atoi(argv[5]));
    if (argc >= 10 && !strcmp(argv[1], "features"))
        return bench_features(argv[2], argv[3], atoi(argv[4]), atoi(argv[5]), argv[6], atoi(argv[7]), atoi(argv[8]), argv[9]);
    if (argc >= 9 && !strcmp(argv[1], "text"))
        return bench_text(argv[2], argv[3], atoi(argv[4]), atoi(argv[5]), argv[6], argv[7], argv[8], argc >= 11 ? argv[9] : NULL, argc >= 11 ? argv[10] : NULL);
    if (argc >= 8 && !strcmp(argv[1], "multi")) return bench_multi(argv[2], argv[3], atoi(argv[4]), atoi(argv[5]), atoi(argv[6]), atoi(argv[7]));
    if (argc >= 8 && !strcmp(argv[1], "transfer")) return bench_transfer(argv[2], argv[3], atoi(argv[4]), atoi(argv[5]), atoi(argv[6]), atoi(argv[7]));
    if (argc >= 7 && !strcmp(argv[1], "attn")) return bench_attn(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]), atoi(argv[5]), atoi(argv[6]));
    if (argc >= 6 && !strcmp(argv[1], "layer")) return bench_layer(argv[2], argv[3], atoi(argv[4]), atoi(argv[5]));
    if (argc >= 6 && !strcmp(argv[1], "gemm")) {
        int M = atoi(argv[2]), N = atoi(argv[3]), K = atoi(argv[4]), it = atoi(argv[5]);
        return getenv("VIT_DTYPE") && !strcmp(getenv("VIT_DTYPE"), "f32") ? bench_gemm<float>(M, N, K, it) : bench_gemm<__nv_bfloat16>(M, N, K, it);
    }
    fprintf(stderr, "usage: vit_bench model DIR f32|bf16|f16|fp8 BATCH ITERS | vit_bench features DIR DTYPE BATCH ITERS BLOCKS NORM NOPREFIX f32|bf16 | vit_bench text DIR DTYPE BATCH ITERS IDS.bin IMAGES.bin OUT.bin [TOKDIR PROMPTS.txt] | vit_bench gemm M N K ITERS | vit_bench attn B N H D ITERS\n");
    return 2;
}
#endif
