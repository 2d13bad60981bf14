// bench_cpu: vit.h CPU forward-pass throughput (a benchmark, never a test).
//
//   bench_cpu MODEL.safetensors BATCH [REPEATS] [f32|int8]
//   bench_cpu --features MODEL.safetensors BATCH REPEATS BLOCKS NORM NOPREFIX
//                         vit_features (fp32; BLOCKS e.g. "-2" or "5,11", NORM 1: the
//                         final norm, NOPREFIX 1: patch tokens only) instead of the
//                         forward pass (tools/bench_features.py --cpu)
//   bench_cpu --text DIR IDS.bin IMAGES.bin K REPS OUT.bin
//                         a full CLIPModel / SiglipModel folder in fp32: vit_encode_ids of
//                         IDS.bin's texts (int32 k, L, then k x L ids), vit_image_embeds of
//                         IMAGES.bin's images (int32 n, c, h, w, then floats) and
//                         vit_zero_shot (logits and probs) of those images against K labels
//                         (the text embeddings repeated to K rows); writes OUT.bin (int32 k,
//                         n, E, then the text embeddings, the image embeddings and the n x K
//                         logits) for tools/bench_text.py --cpu
//   bench_cpu --peak      the machine's fp32 FMA peak on all threads (GFLOP/s)
//   bench_cpu --int8-isas the int8 GEMM of every kernel this CPU can run (portable, AVX2,
//                         AVX-VNNI, AVX-512 VNNI, NEON sdot) on ViT-B/16 shapes, one thread
//   bench_cpu --gemm      the forward pass's GEMMs alone (fp32 and int8) on ViT-S/16 and
//                         ViT-B/16 shapes at batch 1 (M = 197), all threads, best of 20
//
// Prints one line: best and median milliseconds per batch, images/s and the
// model's GFLOP/s (its multiply-adds x 2 over the median), after one warm-up
// batch. tools/bench_cpu.py runs it beside PyTorch on the same weights.
#define _POSIX_C_SOURCE 200809L
#define VIT_IMPLEMENTATION
#include "vit.h"
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

// The FMA peak: every thread runs 12 independent chains of vector FMAs (the
// widest the CPU has: AVX-512, AVX2 or the compiler's 128-bit vectors), best of 3.
#if defined(VIT__X86)
VIT__TARGET_AVX512 static float fma_chains_avx512(long n) {
    __m512 a[12], b = _mm512_set1_ps(1.0000001f), c = _mm512_set1_ps(1e-7f);
    for (int i = 0; i < 12; i++) a[i] = _mm512_set1_ps((float)i);
    for (long k = 0; k < n; k++)
        for (int i = 0; i < 12; i++) a[i] = _mm512_fmadd_ps(a[i], b, c);
    float s = 0;
    for (int i = 0; i < 12; i++) s += _mm512_reduce_add_ps(a[i]);
    return s;
}
VIT__TARGET_AVX2 static float fma_chains_avx2(long n) {
    __m256 a[12], b = _mm256_set1_ps(1.0000001f), c = _mm256_set1_ps(1e-7f);
    for (int i = 0; i < 12; i++) a[i] = _mm256_set1_ps((float)i);
    for (long k = 0; k < n; k++)
        for (int i = 0; i < 12; i++) a[i] = _mm256_fmadd_ps(a[i], b, c);
    float t[8], s = 0;
    for (int i = 0; i < 12; i++) { _mm256_storeu_ps(t, a[i]); for (int j = 0; j < 8; j++) s += t[j]; }
    return s;
}
#endif
#if defined(VIT__NEON)
static float fma_chains_neon(long n) {
    float32x4_t a[12], b = vdupq_n_f32(1.0000001f), c = vdupq_n_f32(1e-7f);
    for (int i = 0; i < 12; i++) a[i] = vdupq_n_f32((float)i);
    for (long k = 0; k < n; k++)
        for (int i = 0; i < 12; i++) a[i] = vfmaq_f32(c, a[i], b);
    float s = 0;
    for (int i = 0; i < 12; i++) s += vaddvq_f32(a[i]);
    return s;
}
#endif

static int peak(void) {
    int isa = vit__cpu_isa(), lanes = isa == VIT__ISA_AVX512 ? 16 : isa == VIT__ISA_AVX2 ? 8 : 4, threads = 1;
    if (isa == VIT__ISA_GENERIC) { fprintf(stderr, "bench_cpu: no vector FMA kernel for this CPU\n"); return 1; }
    long n = 20000000;
    double best = 0;
    volatile float sink = 0;
    for (int r = 0; r < 3; r++) {
        double t0 = seconds();
#pragma omp parallel
        {
            float s = 0;
#if defined(VIT__X86)
            s = isa == VIT__ISA_AVX512 ? fma_chains_avx512(n) : fma_chains_avx2(n);
#elif defined(VIT__NEON)
            s = fma_chains_neon(n);
#endif
#pragma omp critical
            sink += s;
#ifdef _OPENMP
#pragma omp master
            threads = omp_get_num_threads();
#endif
        }
        double gf = 2.0 * lanes * 12 * (double)n * threads / (seconds() - t0) / 1e9;
        if (gf > best) best = gf;
    }
    printf("fp32 FMA peak: %.1f GFLOP/s on %d threads (%s)\n", best, threads, isa == VIT__ISA_AVX512 ? "AVX-512" : isa == VIT__ISA_AVX2 ? "AVX2" : "NEON");
    return 0;
}

// The packed fp32 GEMM and the int8 GEMM of the forward pass on ViT shapes.
static int gemm_shapes(void) {
    static const int shapes[][3] = {{197, 384, 1152}, {197, 384, 1536}, {197, 1536, 384}, {197, 768, 2304}, {197, 768, 768}, {197, 768, 3072}, {197, 3072, 768}};
    int isa = vit__cpu_isa(), q8isa = vit__q8_isa(), threads = vit_query_defaults(NULL).num_threads;
    printf("| M | K | N | fp32 ms | fp32 GFLOP/s | int8 ms | int8 GOP/s |\n| --- | --- | --- | --- | --- | --- | --- |\n");
    for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
        int M = shapes[s][0], K = shapes[s][1], N = shapes[s][2];
        float *a = (float *)malloc(sizeof(float) * M * K), *w = (float *)malloc(sizeof(float) * K * N), *tmp = (float *)malloc(sizeof(float) * K * N);
        float *o = (float *)malloc(sizeof(float) * M * N), *b = (float *)calloc((size_t)N, sizeof(float)), *sa = (float *)malloc(sizeof(float) * M);
        unsigned char *qa = (unsigned char *)malloc((size_t)M * vit__pad4(K));
        void *store = malloc(vit__q8_bytes(K, N) + 64);
        for (size_t i = 0; i < (size_t)M * K; i++) a[i] = (float)(i % 7) * 0.1f - 0.3f;
        for (size_t i = 0; i < (size_t)K * N; i++) w[i] = (float)(i % 5) * 0.1f - 0.2f;
        vit__q8 q = vit__q8_make((char *)store + (64 - (uintptr_t)store % 64) % 64, w, K, N);
        vit__pack_panels(w, tmp, (size_t)K, (size_t)N);
        double best[2] = {1e9, 1e9};
        for (int r = 0; r < 20; r++) {
            double t0 = seconds();
            vit__linear_packed(o, a, w, b, M, K, N, VIT__OUT_STORE, VIT__ACT_NONE, NULL, isa, threads);
            double t1 = seconds();
            vit__linear_q8(o, a, &q, b, M, VIT__OUT_STORE, VIT__ACT_NONE, NULL, qa, sa, q8isa, threads);
            double t2 = seconds();
            if (t1 - t0 < best[0]) best[0] = t1 - t0;
            if (t2 - t1 < best[1]) best[1] = t2 - t1;
        }
        double ops = 2.0 * M * K * N;
        printf("| %d | %d | %d | %.2f | %.1f | %.2f | %.1f |\n", M, K, N, best[0] * 1e3, ops / best[0] / 1e9, best[1] * 1e3, ops / best[1] / 1e9);
        free(a); free(w); free(tmp); free(o); free(b); free(sa); free(qa); free(store);
    }
    return 0;
}

// The int8 GEMM of each kernel this CPU can run (portable, AVX2, AVX-VNNI,
// AVX-512 VNNI, NEON sdot) on ViT-B/16's shapes at M = 197, one thread, best
// of 15 interleaved runs: what a CPU without the faster ones would get.
static int int8_isas(void) {
    static const int shapes[][2] = {{768, 2304}, {768, 3072}, {3072, 768}};
    int isas[] = {VIT__ISA_GENERIC, VIT__ISA_AVX2, VIT__ISA_AVX_VNNI, VIT__ISA_AVX512, VIT__ISA_NEON}, have = vit__q8_isa(), avx_vnni = 0;
    const char *names[] = {"portable", "AVX2 (vpmaddwd)", "AVX-VNNI", "AVX-512 VNNI", "NEON sdot"};
#if defined(VIT__AVX_VNNI)
    avx_vnni = vit__has_avx_vnni();
#endif
    int usable[5];
    for (int i = 0; i < 5; i++)
        usable[i] = isas[i] == VIT__ISA_GENERIC || isas[i] == have || (isas[i] == VIT__ISA_AVX_VNNI && avx_vnni) ||
                    (isas[i] == VIT__ISA_AVX2 && (have == VIT__ISA_AVX512 || have == VIT__ISA_AVX_VNNI));
    printf("| M | K | N | kernel | ms | GOP/s (1 thread) |\n| --- | --- | --- | --- | --- | --- |\n");
    for (int s = 0; s < 3; s++) {
        int M = 197, K = shapes[s][0], N = shapes[s][1];
        float *x = (float *)malloc((size_t)M * K * sizeof(float)), *w = (float *)malloc((size_t)K * N * sizeof(float));
        float *o = (float *)malloc((size_t)M * N * sizeof(float)), *sa = (float *)malloc((size_t)M * sizeof(float));
        void *store = malloc(vit__q8_bytes(K, N) + 64);
        unsigned char *qa = (unsigned char *)malloc((size_t)M * (size_t)vit__pad4(K));
        for (size_t i = 0; i < (size_t)M * K; i++) x[i] = (float)((i * 37) % 101) / 50.0f - 1.0f;
        for (size_t i = 0; i < (size_t)K * N; i++) w[i] = (float)((i * 53) % 97) / 48.0f - 1.0f;
        vit__q8 q = vit__q8_make((char *)store + (64 - (uintptr_t)store % 64) % 64, w, K, N);
        double best[5] = {1e30, 1e30, 1e30, 1e30, 1e30};
        for (int r = 0; r < 15; r++)
            for (int i = 0; i < 5; i++) {
                if (!usable[i] || (isas[i] == VIT__ISA_GENERIC && r >= 3)) continue; // the portable loop: 3 runs
                double t0 = seconds();
                vit__linear_q8(o, x, &q, NULL, M, VIT__OUT_STORE, VIT__ACT_NONE, NULL, qa, sa, isas[i], 1);
                double dt = seconds() - t0;
                if (dt < best[i]) best[i] = dt;
            }
        for (int i = 0; i < 5; i++)
            if (usable[i]) printf("| %d | %d | %d | %s | %.2f | %.0f |\n", M, K, N, names[i], best[i] * 1e3, 2.0 * M * K * N / best[i] / 1e9);
        free(x); free(w); free(o); free(sa); free(store); free(qa);
    }
    return 0;
}

// vit_features on the CPU: one line, best and median ms per batch after one
// warm-up batch, and the values written per image.
static int features(const char *path, int batch, int reps, const char *blocks_arg, int norm, int noprefix) {
    if (batch < 1 || reps < 1 || reps > 1000) { fprintf(stderr, "bench_cpu: bad batch or repeats\n"); return 2; }
    int blocks[VIT_MAX_DEPTH], nb = 0;
    for (const char *p = blocks_arg; *p && nb < VIT_MAX_DEPTH;) {
        char *end;
        blocks[nb++] = (int)strtol(p, &end, 10);
        if (end == p || (*end && *end != ',')) { fprintf(stderr, "bench_cpu: BLOCKS '%s' is not a comma-separated list of integers\n", blocks_arg); return 2; }
        p = *end ? end + 1 : end;
    }
    vit_features_spec spec = {0};
    spec.blocks = blocks;
    spec.num_blocks = nb;
    spec.norm = norm;
    spec.drop_prefix = noprefix;
    vit_options o = {0};
    o.max_batch = batch;
    o.device = VIT_DEVICE_CPU;
    vit_model *m = NULL;
    vit_status st = vit_load(path, &o, &m);
    if (st != VIT_OK) { fprintf(stderr, "bench_cpu: %s: %s\n", vit_status_string(st), vit_last_error(NULL)); return 1; }
    const vit_config *c = vit_model_config(m);
    size_t per_block = 0;
    if (vit_features_shape(m, &spec, NULL, &per_block, NULL) != VIT_OK) { fprintf(stderr, "bench_cpu: %s\n", vit_last_error(m)); return 1; }
    size_t px = (size_t)c->in_chans * c->image_height * c->image_width * batch, count = (size_t)(nb ? nb : 1) * batch * per_block;
    float *img = (float *)malloc(px * sizeof(float)), *out = (float *)malloc(count * sizeof(float));
    for (size_t i = 0; i < px; i++) img[i] = (float)((i * 2654435761u) % 1000) / 500.0f - 1.0f;
    double *t = (double *)malloc((size_t)reps * sizeof(double));
    st = vit_features(m, img, batch, &spec, out, count); // warm-up
    for (int r = 0; r < reps && st == VIT_OK; r++) {
        double t0 = seconds();
        st = vit_features(m, img, batch, &spec, out, count);
        t[r] = seconds() - t0;
    }
    if (st != VIT_OK) { fprintf(stderr, "bench_cpu: %s\n", vit_last_error(m)); return 1; }
    qsort(t, (size_t)reps, sizeof(double), cmp_double);
    printf("features batch %d threads %d: best %.1f ms, median %.1f ms, %zu values per image\n", batch, vit_query_defaults(&o).num_threads, t[0] * 1e3,
           (reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2])) * 1e3, count / (size_t)batch);
    free(img); free(out); free(t);
    vit_free(m);
    return 0;
}

// The whole of a file (malloc'd) and its size, or NULL.
static void *read_all(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *p = n > 0 ? malloc((size_t)n) : NULL;
    if (p && fread(p, 1, (size_t)n, f) != (size_t)n) { free(p); p = NULL; }
    fclose(f);
    if (p) *size = (size_t)n;
    return p;
}

static double median_of(double *t, int n) {
    qsort(t, (size_t)n, sizeof(double), cmp_double);
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

// The text tower and zero-shot on the CPU (see the top): one line of medians
// (ms) after one warm-up round.
static int text(const char *dir, const char *ids_path, const char *img_path, int K, int reps, const char *out_path) {
    size_t ids_size = 0, img_size = 0;
    int *ids_file = (int *)read_all(ids_path, &ids_size);
    float *img_file = (float *)read_all(img_path, &img_size);
    if (!ids_file || ids_size < 8 || !img_file || img_size < 16) { fprintf(stderr, "bench_cpu: cannot read %s or %s\n", ids_path, img_path); return 1; }
    int k = ids_file[0], L = ids_file[1], hdr[4];
    memcpy(hdr, img_file, sizeof(hdr));
    int n = hdr[0];
    const int *ids = ids_file + 2;
    const float *images = img_file + 4;
    if (k < 1 || L < 1 || ids_size != 8 + (size_t)k * L * 4 || n < 1 || img_size != 16 + (size_t)n * hdr[1] * hdr[2] * hdr[3] * 4 || K < 1 || reps < 1 || reps > 1000) {
        fprintf(stderr, "bench_cpu: bad sizes (%d texts of %d ids, %d images, K %d, reps %d)\n", k, L, n, K, reps);
        return 2;
    }
    vit_options o = {0};
    o.max_batch = k > n ? k : n;
    o.device = VIT_DEVICE_CPU;
    vit_model *m = NULL;
    vit_status st = vit_load(dir, &o, &m);
    if (st != VIT_OK) { fprintf(stderr, "bench_cpu: %s: %s\n", vit_status_string(st), vit_last_error(NULL)); return 1; }
    const vit_config *c = vit_model_config(m);
    int E = c->embed_dim;
    if (!c->has_text || L != c->text_context || hdr[1] != c->in_chans || hdr[2] != c->image_height || hdr[3] != c->image_width) {
        fprintf(stderr, "bench_cpu: %s: no text tower, or texts of %d ids (context %d), or images not %d x %d x %d\n", dir, L, c->text_context, c->in_chans,
                c->image_height, c->image_width);
        return 2;
    }
    float *temb = (float *)malloc((size_t)k * E * sizeof(float)), *labels = (float *)malloc((size_t)K * E * sizeof(float));
    float *iemb = (float *)malloc((size_t)n * E * sizeof(float)), *logits = (float *)malloc((size_t)n * K * sizeof(float));
    float *probs = (float *)malloc((size_t)n * K * sizeof(float));
    double *t = (double *)malloc(sizeof(double) * 3 * (size_t)reps);
    for (int r = -1; r < reps && st == VIT_OK; r++) { // r = -1: the warm-up
        double t0 = seconds();
        st = vit_encode_ids(m, ids, k, temb);
        double t1 = seconds();
        if (st == VIT_OK) st = vit_image_embeds(m, images, n, iemb);
        double t2 = seconds();
        if (st == VIT_OK && r < 0)
            for (int j = 0; j < K; j++) memcpy(labels + (size_t)j * E, temb + (size_t)(j % k) * E, sizeof(float) * E);
        if (st == VIT_OK) st = vit_zero_shot(m, iemb, n, labels, K, logits, probs);
        double t3 = seconds();
        if (r >= 0) { t[r] = t1 - t0; t[reps + r] = t2 - t1; t[2 * reps + r] = t3 - t2; }
    }
    if (st != VIT_OK) { fprintf(stderr, "bench_cpu: %s\n", vit_last_error(m)); return 1; }
    FILE *f = fopen(out_path, "wb");
    int ohdr[3] = {k, n, E};
    if (!f || fwrite(ohdr, sizeof(ohdr), 1, f) != 1 || fwrite(temb, sizeof(float) * E, (size_t)k, f) != (size_t)k ||
        fwrite(iemb, sizeof(float) * E, (size_t)n, f) != (size_t)n || fwrite(logits, sizeof(float) * K, (size_t)n, f) != (size_t)n || fclose(f)) {
        fprintf(stderr, "bench_cpu: cannot write %s\n", out_path);
        return 1;
    }
    double enc = median_of(t, reps), img = median_of(t + reps, reps), zs = median_of(t + 2 * reps, reps);
    printf("text %d texts %d images %d labels threads %d: encode median %.2f ms, image median %.2f ms, zero_shot median %.3f ms\n", k, n, K,
           vit_query_defaults(&o).num_threads, enc * 1e3, img * 1e3, zs * 1e3);
    free(ids_file); free(img_file); free(temb); free(labels); free(iemb); free(logits); free(probs); free(t);
    vit_free(m);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 8 && strcmp(argv[1], "--features") == 0) return features(argv[2], atoi(argv[3]), atoi(argv[4]), argv[5], atoi(argv[6]), atoi(argv[7]));
    if (argc == 8 && strcmp(argv[1], "--text") == 0) return text(argv[2], argv[3], argv[4], atoi(argv[5]), atoi(argv[6]), argv[7]);
    if (argc == 2 && strcmp(argv[1], "--gemm") == 0) return gemm_shapes();
    if (argc == 2 && strcmp(argv[1], "--int8-isas") == 0) return int8_isas();
    if (argc == 2 && strcmp(argv[1], "--peak") == 0) return peak();
    if (argc < 3) { fprintf(stderr, "usage: bench_cpu MODEL.safetensors BATCH [REPEATS] [f32|int8]\n"); return 2; }
    int batch = atoi(argv[2]), reps = argc > 3 ? atoi(argv[3]) : 5;
    if (batch < 1 || reps < 1 || reps > 1000) { fprintf(stderr, "bench_cpu: bad batch or repeats\n"); return 2; }
    vit_options o = {0};
    o.max_batch = batch;
    o.device = VIT_DEVICE_CPU;
    if (argc > 4 && strcmp(argv[4], "int8") == 0) o.dtype = VIT_DTYPE_INT8;
    else if (argc > 4 && strcmp(argv[4], "f32") != 0) { fprintf(stderr, "bench_cpu: dtype is f32 or int8\n"); return 2; }
    vit_model *m = NULL;
    vit_status st = vit_load(argv[1], &o, &m);
    if (st != VIT_OK) { fprintf(stderr, "bench_cpu: %s: %s\n", vit_status_string(st), vit_last_error(NULL)); return 1; }
    const vit_config *c = vit_model_config(m);
    size_t px = (size_t)c->in_chans * c->image_size * c->image_size * batch;
    float *img = (float *)malloc(px * sizeof(float)), *out = (float *)malloc((size_t)batch * (c->num_classes + c->dim) * sizeof(float));
    for (size_t i = 0; i < px; i++) img[i] = (float)((i * 2654435761u) % 1000) / 500.0f - 1.0f;
    double *t = (double *)malloc((size_t)reps * sizeof(double));
    st = vit_embed(m, img, batch, out); // warm-up: first touch of the activation arena, thread start
    for (int r = 0; r < reps && st == VIT_OK; r++) {
        double t0 = seconds();
        st = c->num_classes ? vit_forward(m, img, batch, out) : vit_embed(m, img, batch, out);
        t[r] = seconds() - t0;
    }
    if (st != VIT_OK) { fprintf(stderr, "bench_cpu: %s\n", vit_last_error(m)); return 1; }
    qsort(t, (size_t)reps, sizeof(double), cmp_double);
    // multiply-adds per image: patch embedding, the blocks' linears, attention's two products, the head
    double N = c->num_tokens, C = c->dim, M = c->mlp_dim, hidden = c->act == VIT_ACT_SWIGLU ? M / 2 : M;
    double macs = (N - c->num_prefix) * c->in_chans * c->patch_size * c->patch_size * C +
                  c->depth * (N * (3 * C * C + C * C + C * M + hidden * C) + 2 * N * N * C) + C * c->num_classes;
    printf("batch %d threads %d: best %.1f ms, median %.1f ms, %.2f img/s (median), %.1f GFLOP/s\n", batch, vit_query_defaults(&o).num_threads,
           t[0] * 1e3, t[reps / 2] * 1e3, batch / t[reps / 2], 2 * macs * batch / t[reps / 2] / 1e9);
    free(img); free(out); free(t);
    vit_free(m);
    return 0;
}
