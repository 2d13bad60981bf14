// test_ops_cpu: the CPU references of the ops that the model families build on
// (vit.h's >>op sections), against straightforward double-precision loops
// written here: cross-attention of Nq queries (shared by the batch: image
// stride 0) against Nk keys, the prefix-token rows with and without their
// position rows, pooling and the averaged logits of several heads, and the
// GEMM epilogue's SwiGLU pairs (out half as wide, layer scale per output).
// The GPU kernels are checked against these references by test_ops.
//
// Pass: |got - ref| <= 1e-5 + 1e-5 |ref| (float sums against double ones); the
// prefix rows exactly; 1 and 2 threads give the same bits. The packed GEMM of
// the forward pass against the reference GEMM, for every ISA the CPU has; the
// int8 GEMM (VIT_DTYPE_INT8) against the fp32 one and across its ISAs. The
// e4m3 rounding (VIT_DTYPE_FP8) against torch's float8_e4m3fn codes
// (tests/data/fp8, tools/make_fp8_reference.py), bit for bit, and its linear
// (per-token rows, per-column weights, scales in the epilogue) against a
// double-precision loop over the same e4m3 values.
//
// usage: test_ops_cpu [FP8_DIR]   (default tests/data/fp8)
#define VIT_TEST_HOOKS // vit__attention_cpu, the reference
#define VIT_IMPLEMENTATION
#include "../vit.h"
#include "test_util.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

static unsigned long long rng = 0x2545F4914F6CDD1Dull;

static float frand(void) { // uniform in [-1, 1)
    rng ^= rng >> 12; rng ^= rng << 25; rng ^= rng >> 27;
    return (float)(((rng * 0x2545F4914F6CDD1Dull) >> 40) * (1.0 / 8388608.0)) - 1.0f;
}

static float *rnd(size_t n, float scale) {
    float *p = (float *)malloc(n * sizeof(float) + 4);
    for (size_t i = 0; i < n; i++) p[i] = frand() * scale;
    return p;
}

// Compares n floats with double references; reports one line.
static void close_to(const char *name, const float *got, const double *ref, size_t n) {
    double worst = 0;
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        double d = fabs((double)got[i] - ref[i]), tol = 1e-5 + 1e-5 * fabs(ref[i]);
        if (!(d <= tol)) bad++;
        if (d / tol > worst || d != d) worst = d != d ? INFINITY : d / tol;
    }
    check(bad == 0, name, "%zu values, %zu outside 1e-5 + 1e-5 |ref|, worst err/tol %.3f", n, bad, worst);
}

// ---- attention: q (B or 1, Nq, C) against k, v inside kv (B, Nk, 2C) = [k | v]
static void test_attention(int B, int Nq, int Nk, int C, int H, int shared, int causal) {
    int D = C / H;
    size_t nq = (size_t)(shared ? 1 : B) * Nq * C, nkv = (size_t)B * Nk * 2 * C, no = (size_t)B * Nq * C;
    float *q = rnd(nq, 2.0f), *kv = rnd(nkv, 2.0f), *out = (float *)malloc(no * sizeof(float)), *out1 = (float *)malloc(no * sizeof(float));
    double *ref = (double *)malloc(no * sizeof(double)), *s = (double *)malloc((size_t)Nk * sizeof(double));
    float *scratch = (float *)malloc((size_t)2 * ((size_t)VIT__MB * Nk + 2 * (size_t)D * Nk) * sizeof(float));
    vit__attn_args a;
    a.out = out; a.q = q; a.k = kv; a.v = kv + C;
    a.ldo = (size_t)C; a.ldq = (size_t)C; a.ldk = 2 * (size_t)C;
    a.bso = (size_t)Nq * C; a.bsq = shared ? 0 : (size_t)Nq * C; a.bsk = (size_t)Nk * 2 * C;
    a.B = B; a.Nq = Nq; a.Nk = Nk; a.H = H; a.D = D;
    a.causal = causal; // (Nq == Nk)
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int i = 0; i < Nq; i++) {
                const float *qi = q + b * a.bsq + (size_t)i * C + (size_t)h * D;
                double mx = -INFINITY, sum = 0;
                int keys = causal ? i + 1 : Nk;
                for (int j = 0; j < Nk; j++) s[j] = 0;
                for (int j = 0; j < keys; j++) {
                    const float *kj = kv + b * a.bsk + (size_t)j * 2 * C + (size_t)h * D;
                    double d = 0;
                    for (int e = 0; e < D; e++) d += (double)qi[e] * kj[e];
                    s[j] = d / sqrt((double)D);
                    mx = s[j] > mx ? s[j] : mx;
                }
                for (int j = 0; j < keys; j++) { s[j] = exp(s[j] - mx); sum += s[j]; }
                for (int e = 0; e < D; e++) {
                    double o = 0;
                    for (int j = 0; j < Nk; j++) o += s[j] / sum * kv[b * a.bsk + (size_t)j * 2 * C + C + (size_t)h * D + e];
                    ref[(size_t)b * Nq * C + (size_t)i * C + (size_t)h * D + e] = o;
                }
            }
    vit__attention_cpu(&a, scratch, 2);
    memcpy(out1, out, no * sizeof(float));
    memset(out, 0xFF, no * sizeof(float));
    vit__attention_cpu(&a, scratch, 1);
    char name[160];
    snprintf(name, sizeof(name), "attention B=%d Nq=%d Nk=%d C=%d H=%d%s%s", B, Nq, Nk, C, H, shared ? ", queries shared by the batch" : "", causal ? ", causal" : "");
    close_to(name, out, ref, no);
    check(!memcmp(out, out1, no * sizeof(float)), name, "1 and 2 threads bit-identical");
    // the forward pass's attention (packed K^T and V, vector exponentials) for each ISA here, threads 1 and 2
    int isas[] = {VIT__ISA_GENERIC, VIT__ISA_AVX2, VIT__ISA_AVX512, VIT__ISA_NEON}, have = vit__cpu_isa();
    for (int i = 0; i < 4; i++) {
        if (isas[i] != VIT__ISA_GENERIC && !(isas[i] == have || (isas[i] == VIT__ISA_AVX2 && have == VIT__ISA_AVX512))) continue;
        for (int threads = 1; threads <= 2; threads++) {
            memset(out, 0xFF, no * sizeof(float));
            vit__attention_fast(&a, scratch, isas[i], threads);
            snprintf(name, sizeof(name), "fast attention isa %d, %d threads: B=%d Nq=%d Nk=%d C=%d H=%d%s%s", isas[i], threads, B, Nq, Nk, C, H,
                     shared ? ", shared queries" : "", causal ? ", causal" : "");
            close_to(name, out, ref, no);
        }
    }
    free(q); free(kv); free(out); free(out1); free(ref); free(s); free(scratch);
}

// ---- prefix-token rows: x = [prefix | tokens] + pos, pos over the prefix or not
static void test_place_tokens(int B, int P, int GG, int C, int pos_prefix) {
    int N = P + GG, npos = pos_prefix ? N : GG;
    float *tok = rnd((size_t)B * GG * C, 1.0f), *pre = rnd((size_t)(P ? P : 1) * C, 1.0f), *pos = rnd((size_t)npos * C, 1.0f);
    float *x = (float *)malloc((size_t)B * N * C * sizeof(float));
    vit__place_tokens(x, tok, P ? pre : NULL, P, pos, pos_prefix, B, GG, C);
    size_t bad = 0;
    for (int b = 0; b < B; b++)
        for (int t = 0; t < N; t++)
            for (int c = 0; c < C; c++) {
                float want = t < P ? pre[(size_t)t * C + c] + (pos_prefix ? pos[(size_t)t * C + c] : 0.0f)
                                   : tok[((size_t)b * GG + t - P) * C + c] + pos[(size_t)(pos_prefix ? t : t - P) * C + c];
                bad += x[((size_t)b * N + t) * C + c] != want;
            }
    check(bad == 0, "place_tokens", "B=%d P=%d patches=%d C=%d pos over the prefix %d: %zu wrong", B, P, GG, C, pos_prefix, bad);
    free(tok); free(pre); free(pos); free(x);
}

// ---- pool (heads planes + their mean) and the averaged logits of the heads
static void test_pool_head(int B, int N, int C, int K, int heads, vit_pool pool, int prefix) {
    size_t BC = (size_t)B * C, planes = (size_t)heads + (heads > 1);
    float *x = rnd((size_t)B * N * C, 1.0f), *pooled = (float *)malloc(planes * BC * sizeof(float));
    float *w = rnd((size_t)heads * C * K, 0.2f), *bias = rnd((size_t)heads * K, 0.5f), *logits = (float *)malloc((size_t)B * K * sizeof(float));
    double *ref = (double *)calloc(planes * BC, sizeof(double)), *lref = (double *)calloc((size_t)B * K, sizeof(double));
    vit__pool_cpu(pooled, x, B, N, C, pool, prefix, heads, NULL, NULL, 1e-6f, 2);
    for (int b = 0; b < B; b++)
        for (int c = 0; c < C; c++) {
            double mean = 0;
            for (int h = 0; h < heads; h++) {
                double v = 0;
                if (pool == VIT_POOL_TOKEN) v = x[((size_t)b * N + h) * C + c];
                else {
                    for (int t = prefix; t < N; t++) v += x[((size_t)b * N + t) * C + c];
                    v /= N - prefix;
                }
                ref[h * BC + (size_t)b * C + c] = v;
                mean += v / heads;
            }
            if (heads > 1) ref[heads * BC + (size_t)b * C + c] = mean;
        }
    char name[160];
    snprintf(name, sizeof(name), "pool %s B=%d N=%d C=%d prefix=%d heads=%d", pool == VIT_POOL_TOKEN ? "token" : "avg", B, N, C, prefix, heads);
    close_to(name, pooled, ref, planes * BC);
    vit__head_cpu(logits, pooled, w, bias, B, C, K, heads, VIT__ISA_REFERENCE, 2);
    for (int b = 0; b < B; b++)
        for (int k = 0; k < K; k++) {
            double l = 0;
            for (int h = 0; h < heads; h++) {
                double d = bias[(size_t)h * K + k];
                for (int c = 0; c < C; c++) d += (double)pooled[h * BC + (size_t)b * C + c] * w[((size_t)h * C + c) * K + k];
                l += d / heads;
            }
            lref[(size_t)b * K + k] = l;
        }
    snprintf(name, sizeof(name), "head B=%d C=%d K=%d heads=%d: the mean of the heads' logits", B, C, K, heads);
    close_to(name, logits, lref, (size_t)B * K);
    free(x); free(pooled); free(w); free(bias); free(logits); free(ref); free(lref);
}

// ---- SwiGLU in the GEMM epilogue: weight columns in (gate, up) pairs, out (rows, out/2)
static void test_swiglu(int rows, int in, int out, vit__out mode, int layer_scale) {
    int half = out / 2;
    float *x = rnd((size_t)rows * in, 1.0f), *w = rnd((size_t)in * out, 1.0f / sqrtf((float)in)), *b = rnd((size_t)out, 0.5f);
    float *ls = layer_scale ? rnd((size_t)half, 1.0f) : NULL, *o = rnd((size_t)rows * half, 1.0f);
    double *ref = (double *)malloc((size_t)rows * half * sizeof(double));
    for (int r = 0; r < rows; r++)
        for (int j = 0; j < half; j++) {
            double g = b[2 * j], u = b[2 * j + 1];
            for (int k = 0; k < in; k++) {
                g += (double)x[(size_t)r * in + k] * w[(size_t)k * out + 2 * j];
                u += (double)x[(size_t)r * in + k] * w[(size_t)k * out + 2 * j + 1];
            }
            double v = g / (1 + exp(-g)) * u;
            ref[(size_t)r * half + j] = mode == VIT__OUT_RESIDUAL ? o[(size_t)r * half + j] + (ls ? ls[j] : 1.0) * v : v;
        }
    vit__linear_cpu(o, x, w, b, rows, in, out, mode, VIT__ACT_SWIGLU, ls, 2);
    char name[160];
    snprintf(name, sizeof(name), "linear %dx%d->%d swiglu%s%s (%d outputs)", rows, in, out, mode == VIT__OUT_RESIDUAL ? " +residual" : "", ls ? " *ls" : "", half);
    close_to(name, o, ref, (size_t)rows * half);
    free(x); free(w); free(b); free(ls); free(o); free(ref);
}


// ---- the packed GEMM (vit__linear_packed) against the reference GEMM
// (vit__linear_cpu) for every ISA this CPU has, every activation and output
// mode, at sizes that leave partial row tiles and partial panels. Both sum in
// k order with one rounding per step: with FMA contraction (the Makefile's
// flags, __FMA__ or aarch64) the bits must agree (with an activation: the
// vector ones, within 1e-6 + 1e-6 |ref|), else within 1e-5.
static int vector_act(vit__act act) { return act != VIT__ACT_NONE; }

static void test_packed(int rows, int K, int N, vit__out mode, vit__act act, int layer_scale) {
    int outs = act == VIT__ACT_SWIGLU ? N / 2 : N;
    float *x = rnd((size_t)rows * K, 1.0f), *w = rnd((size_t)K * N, 1.0f / sqrtf((float)K)), *b = rnd((size_t)N, 0.5f);
    float *ls = layer_scale ? rnd((size_t)outs, 1.0f) : NULL, *init = rnd((size_t)rows * outs, 1.0f);
    float *ref = (float *)malloc((size_t)rows * outs * sizeof(float)), *got = (float *)malloc((size_t)rows * outs * sizeof(float));
    float *packed = (float *)malloc((size_t)K * N * sizeof(float)), *tmp = (float *)malloc((size_t)K * N * sizeof(float));
    memcpy(packed, w, (size_t)K * N * sizeof(float));
    vit__pack_panels(packed, tmp, (size_t)K, (size_t)N);
    memcpy(ref, init, (size_t)rows * outs * sizeof(float));
    vit__linear_cpu(ref, x, w, b, rows, K, N, mode, act, ls, 2);
    int isas[] = {VIT__ISA_GENERIC, VIT__ISA_AVX2, VIT__ISA_AVX512, VIT__ISA_NEON}, have = vit__cpu_isa();
    for (int i = 0; i < 4; i++) {
        int isa = isas[i];
        if (isa != VIT__ISA_GENERIC && !(isa == have || (isa == VIT__ISA_AVX2 && have == VIT__ISA_AVX512))) continue;
        for (int threads = 1; threads <= 2; threads++) {
            memcpy(got, init, (size_t)rows * outs * sizeof(float));
            vit__linear_packed(got, x, packed, b, rows, K, N, mode, act, ls, isa, threads);
            char name[160];
            snprintf(name, sizeof(name), "packed GEMM isa %d, %d threads: %dx%d->%d act %d%s%s", isa, threads, rows, K, N, (int)act,
                     mode == VIT__OUT_RESIDUAL ? " +residual" : "", ls ? " *ls" : "");
#if defined(__FMA__) || defined(__aarch64__)
            if (vector_act(act)) { // vit__gemm_epilogue's vector activations: a few ulp from erff, tanhf, expf
                size_t bad = 0;
                for (size_t e = 0; e < (size_t)rows * outs; e++) bad += !(fabsf(got[e] - ref[e]) <= 1e-6f + 1e-6f * fabsf(ref[e]));
                check(bad == 0, name, "%zu of %zu outputs beyond 1e-6 + 1e-6 |ref| of vit__linear_cpu's", bad, (size_t)rows * outs);
                continue;
            }
            size_t diff = 0;
            for (size_t e = 0; e < (size_t)rows * outs; e++) diff += memcmp(&got[e], &ref[e], sizeof(float)) != 0;
            check(diff == 0, name, "%zu of %zu outputs differ from vit__linear_cpu's bits", diff, (size_t)rows * outs);
#else
            double *r = (double *)malloc((size_t)rows * outs * sizeof(double));
            for (size_t e = 0; e < (size_t)rows * outs; e++) r[e] = ref[e];
            close_to(name, got, r, (size_t)rows * outs);
            free(r);
#endif
        }
    }
    free(x); free(w); free(b); free(ls); free(init); free(ref); free(got); free(packed); free(tmp);
}

// ---- the int8 GEMM (vit__linear_q8): (1) exact where the quantisation is
// (x and w integer multiples of their row/column scales, the maxima present):
// within 1e-5 of the fp32 GEMM; (2) on random data within 2e-2 of the fp32
// GEMM's largest output; (3) every int8 ISA this CPU has and 1 or 2 threads
// give the same bits (exact int32 sums; the vector activations within 1e-6
// where only the ISA builds have FMA).
static void test_q8(int rows, int K, int N, vit__out mode, vit__act act, int exact) {
    int outs = act == VIT__ACT_SWIGLU ? N / 2 : N;
    float *x = rnd((size_t)rows * K, 1.0f), *w = rnd((size_t)K * N, 1.0f / sqrtf((float)K)), *b = rnd((size_t)N, 0.5f);
    if (exact) { // x[r, k] = i * sx_r, w[k, n] = j * sw_n with integers |i|, |j| <= 127 and 127 reached
        for (int r = 0; r < rows; r++)
            for (int k = 0; k < K; k++) x[(size_t)r * K + k] = (k == r % K ? 127.0f : rintf(frand() * 127.0f)) * (0.01f + 0.001f * (float)(r % 7));
        for (int k = 0; k < K; k++)
            for (int n = 0; n < N; n++) w[(size_t)k * N + n] = (k == n % K ? -127.0f : rintf(frand() * 127.0f)) * (0.002f + 0.0001f * (float)(n % 5));
    }
    float *init = rnd((size_t)rows * outs, 1.0f), *ref = (float *)malloc((size_t)rows * outs * sizeof(float)), *got = (float *)malloc((size_t)rows * outs * sizeof(float));
    float *first = (float *)malloc((size_t)rows * outs * sizeof(float)), *sa = (float *)malloc((size_t)rows * sizeof(float));
    unsigned char *qa = (unsigned char *)malloc((size_t)rows * vit__pad4(K));
    void *store = malloc(vit__q8_bytes(K, N) + 64);
    vit__q8 q = vit__q8_make((char *)store + (64 - (uintptr_t)store % 64) % 64, w, K, N);
    memcpy(ref, init, (size_t)rows * outs * sizeof(float));
    vit__linear_cpu(ref, x, w, b, rows, K, N, mode, act, NULL, 2);
    int isas[] = {VIT__ISA_GENERIC, VIT__ISA_AVX2, VIT__ISA_AVX512, VIT__ISA_NEON, VIT__ISA_AVX_VNNI}, have = vit__q8_isa(), runs = 0;
    char name[160];
    for (int i = 0; i < 5; i++) {
        int avx_vnni = 0; // AVX-VNNI runs wherever the CPU has it, beside AVX-512 VNNI too
#if defined(VIT__AVX_VNNI)
        avx_vnni = vit__has_avx_vnni();
#endif
        if (isas[i] == VIT__ISA_AVX_VNNI ? !avx_vnni
                                         : isas[i] != VIT__ISA_GENERIC && !(isas[i] == have || (isas[i] == VIT__ISA_AVX2 && have >= VIT__ISA_AVX512 && have != VIT__ISA_NEON)))
            continue;
        for (int threads = 1; threads <= 2; threads++) {
            memcpy(got, init, (size_t)rows * outs * sizeof(float));
            vit__linear_q8(got, x, &q, b, rows, mode, act, NULL, qa, sa, isas[i], threads);
            snprintf(name, sizeof(name), "int8 GEMM isa %d, %d threads: %dx%d->%d act %d%s%s", isas[i], threads, rows, K, N, (int)act,
                     mode == VIT__OUT_RESIDUAL ? " +residual" : "", exact ? " (exact operands)" : "");
            if (runs++ == 0) {
                double worst = 0, big = 0;
                for (size_t e = 0; e < (size_t)rows * outs; e++) {
                    double d = fabs((double)got[e] - ref[e]);
                    if (fabs((double)ref[e]) > big) big = fabs((double)ref[e]);
                    if (exact) d /= 1e-5 + 1e-5 * fabs((double)ref[e]);
                    if (d > worst || d != d) worst = d != d ? INFINITY : d;
                }
                if (exact) check(worst <= 1, name, "worst err / (1e-5 + 1e-5 |ref|) %.3f against the fp32 GEMM", worst);
                else check(worst <= 2e-2 * big, name, "max |int8 - fp32| %.3g = %.4f of max |fp32| %.3g (<= 0.02)", worst, worst / big, big);
                memcpy(first, got, (size_t)rows * outs * sizeof(float));
            } else {
                size_t diff = 0;
#if !defined(__FMA__) && !defined(__aarch64__)
                if (vector_act(act)) { // the vector activations contract to FMAs in the ISA builds only: within 1e-6
                    for (size_t e = 0; e < (size_t)rows * outs; e++) diff += !(fabsf(got[e] - first[e]) <= 1e-6f + 1e-6f * fabsf(first[e]));
                    check(diff == 0, name, "%zu of %zu outputs beyond 1e-6 of the generic 1-thread run's", diff, (size_t)rows * outs);
                    continue;
                }
#endif
                for (size_t e = 0; e < (size_t)rows * outs; e++) diff += memcmp(&got[e], &first[e], sizeof(float)) != 0;
                check(diff == 0, name, "%zu of %zu outputs differ from the generic 1-thread run's bits", diff, (size_t)rows * outs);
            }
        }
    }
    free(x); free(w); free(b); free(init); free(ref); free(got); free(first); free(sa); free(qa); free(store);
}

// vit__e4m3 / vit__e4m3_value against torch's conversion of every input in
// e4m3.bin and its decoding of all 256 codes (NaN: any NaN code).
static void test_e4m3_codes(const char *dir) {
    char path[1024];
    snprintf(path, sizeof(path), "%s/e4m3.bin", dir);
    FILE *f = fopen(path, "rb");
    uint32_t n = 0;
    if (!f || fread(&n, 4, 1, f) != 1 || n > (1u << 24)) { check(0, "e4m3: reference file", "cannot read %s", path); if (f) fclose(f); return; }
    float *x = (float *)malloc((size_t)n * 4), values[256];
    unsigned char *want = (unsigned char *)malloc(n);
    int ok = fread(x, 4, n, f) == n && fread(want, 1, n, f) == n && fread(values, 4, 256, f) == 256;
    fclose(f);
    if (check(ok, "e4m3: reference file", "%s: %u inputs%s", path, n, ok ? "" : ", truncated")) {
        uint32_t bad = 0, first = 0;
        for (uint32_t i = 0; i < n; i++) {
            unsigned char got = vit__e4m3(x[i]);
            int same = x[i] != x[i] ? (got & 0x7F) == 0x7F && (want[i] & 0x7F) == 0x7F : got == want[i];
            if (!same && !bad++) first = i;
        }
        check(bad == 0, "e4m3: float -> e4m3 as torch's .to(float8_e4m3fn) (round to nearest even, saturated at 448)",
              "%u of %u differ, first %.9g: got 0x%02x want 0x%02x", bad, n, bad ? (double)x[first] : 0.0, bad ? vit__e4m3(x[first]) : 0, bad ? want[first] : 0);
        int dbad = 0;
        for (int k = 0; k < 256; k++) {
            float v = vit__e4m3_value((unsigned char)k);
            dbad += values[k] != values[k] ? v == v : memcmp(&v, &values[k], 4) != 0;
        }
        check(dbad == 0, "e4m3: the 256 codes decode as torch's", "%d differ", dbad);
        // vit__e4m3_round (the forward pass's rounding) against encode-then-decode:
        // the reference inputs and every 4093rd float bit pattern (both signs, NaNs, subnormals)
        uint32_t rbad = 0, rfirst = 0, count = n + (uint32_t)((1ull << 32) / 4093);
        for (uint32_t i = 0; i < count; i++) {
            float v = i < n ? x[i] : 0.0f;
            if (i >= n) { uint32_t u = (uint32_t)((i - n) * 4093u); memcpy(&v, &u, 4); }
            float got = vit__e4m3_round(v, 1.0f), ref = vit__e4m3_value(vit__e4m3(v));
            if ((got == got || ref == ref) && memcmp(&got, &ref, 4) != 0 && !rbad++) memcpy(&rfirst, &v, 4);
        }
        check(rbad == 0, "e4m3: vit__e4m3_round is encode-then-decode, bit for bit", "%u of %u differ, first bits 0x%08x", rbad, count, rfirst);
    }
    free(x);
    free(want);
}

// vit__e4m3_rows with blocks (fc2's input): every 128 columns of a row (the
// last run shorter) scaled on their own: e4m3 values whose largest is 448 (a
// zero run: scale 1), each times its run's scale within e4m3's half step
// (1/16) of x, and the runs the same as rows of their own width.
static void test_e4m3_blocks(int rows, int K) {
    char name[160];
    int ng = (K + 127) / 128;
    float *x = rnd((size_t)rows * K, 3.0f), *q = (float *)malloc((size_t)rows * K * sizeof(float)), *s = (float *)malloc((size_t)rows * ng * sizeof(float));
    float *q1 = (float *)malloc(128 * sizeof(float)), s1;
    for (int k = 0; k < K && k < 128; k++) x[k] = 0.0f; // row 0's first run all zero
    vit__e4m3_rows(q, s, x, rows, K, 1, 2);
    int ok = 1;
    for (int r = 0; r < rows; r++)
        for (int gi = 0; gi < ng; gi++) {
            int k0 = gi * 128, n = K - k0 < 128 ? K - k0 : 128;
            float mx = 0.0f, sc = s[(size_t)r * ng + gi];
            for (int k = k0; k < k0 + n; k++) {
                float v = q[(size_t)r * K + k], xv = x[(size_t)r * K + k];
                ok &= vit__e4m3_value(vit__e4m3(v)) == v && fabsf(v * sc - xv) <= fabsf(xv) / 16.0f + sc / 1024.0f;
                mx = fabsf(v) > mx ? fabsf(v) : mx;
            }
            ok &= mx == 448.0f || (mx == 0.0f && sc == 1.0f);
            vit__e4m3_rows(q1, &s1, x + (size_t)r * K + k0, 1, n, 0, 1);
            ok &= s1 == sc && memcmp(q1, q + (size_t)r * K + k0, (size_t)n * sizeof(float)) == 0;
        }
    snprintf(name, sizeof(name), "e4m3 rows %dx%d per 128 columns: each run scaled on its own", rows, K);
    check(ok, name, "%s", ok ? "values, scales and runs checked" : "a value, scale or run wrong");
    free(x); free(q); free(s); free(q1);
}

// fc2's input scales from fc1's bound (vit__e4m3_bound_scale): fc1 run as the
// CPU reference runs it (act(x W + b) over e4m3 values), then each row's
// scale from its norm, W's largest column norm and the bias: a power of two,
// no output of the row above 448 times it (the first row is W's largest
// column itself, times 5, where Cauchy-Schwarz is tight: its largest output
// at least 0.7 of the bound; the second row zero),
// and no more than twice bound / 448. The column norm bound against double
// sums; NaN gives scale 1, infinity 2^126.
static void test_e4m3_bound(int rows, int K, int N, vit__act act) {
    char name[160];
    float *x = rnd((size_t)rows * K, 3.0f), *w = rnd((size_t)K * N, 0.2f), *b = rnd((size_t)N, 0.5f);
    float *out = (float *)malloc((size_t)rows * N * sizeof(float)), *acc = (float *)malloc((size_t)rows * N * sizeof(float));
    float *sx = (float *)malloc((size_t)rows * sizeof(float)), *sw = (float *)malloc((size_t)N * sizeof(float));
    float *xq = (float *)malloc((size_t)rows * K * sizeof(float)), *wq = (float *)malloc((size_t)K * N * sizeof(float));
    memcpy(wq, w, (size_t)K * N * sizeof(float));
    vit__e4m3_cols(wq, sw, K, N);
    double best = tight_row(x, w, wq, sw, K, N);
    for (int k = 0; rows > 1 && k < K; k++) x[(size_t)K + k] = 0.0f;
    vit__e4m3_rows(xq, sx, x, rows, K, 0, 2);
    vit__linear_cpu(acc, xq, wq, NULL, rows, K, N, VIT__OUT_STORE, VIT__ACT_NONE, NULL, 2);
    vit__e4m3_epilogue(out, acc, sx, sw, b, rows, N, VIT__OUT_STORE, act, NULL, 2);
    float bw = vit__e4m3_bound_w(wq, sw, K, N), bb = vit__abs_max(b, (size_t)N);
    int ok = bw >= best && bw <= best * (1 + 1e-6), bad = 0;
    double tight = 0;
    for (int r = 0; r < rows; r++) {
        float n = vit__e4m3_row_norm(xq + (size_t)r * K, K, sx[r]), sc = vit__e4m3_bound_scale(n, bw, bb), mx = 0;
        uint32_t u;
        memcpy(&u, &sc, 4);
        for (int j = 0; j < N; j++) mx = fabsf(out[(size_t)r * N + j]) > mx ? fabsf(out[(size_t)r * N + j]) : mx;
        double bound = (double)n * bw * 1.03125 + bb + 0.25;
        if ((u & 0x7FFFFFu) || mx / sc > 448.0f || sc * 448.0 > 2 * bound * (1 + 1e-6) || sc * 448.0 < bound * (1 - 1e-6)) bad++;
        if (r == 0) tight = mx / bound;
    }
    float nanscale = vit__e4m3_bound_scale(NAN, bw, bb), infscale = vit__e4m3_bound_scale(INFINITY, bw, bb);
    ok &= !bad && tight > 0.7 && nanscale == 1.0f && infscale == 0x1p126f;
    snprintf(name, sizeof(name), "e4m3 bound scales %dx%dx%d %s", rows, K, N, act == VIT__ACT_GELU ? "GELU" : act == VIT__ACT_QUICK_GELU ? "QuickGELU" : "none");
    check(ok, name, "%d rows off; first row at %.3f of its bound; NaN -> %g, inf -> %g", bad, tight, nanscale, infscale);
    free(x); free(w); free(b); free(out); free(acc); free(sx); free(sw); free(xq); free(wq);
}

// The e4m3 linear of VIT_DTYPE_FP8's CPU reference (vit__block_linear's three
// steps) against double sums over the same e4m3 values and scales.
static void test_e4m3_linear(int rows, int K, int N, vit__out mode, vit__act act) {
    char name[160];
    float *x = rnd((size_t)rows * K, 3.0f), *w = rnd((size_t)K * N, 0.2f), *b = rnd((size_t)N, 0.5f), *ls = rnd((size_t)N, 1.0f);
    int glu = act == VIT__ACT_SWIGLU, NO = glu ? N / 2 : N;
    float *out = rnd((size_t)rows * NO, 1.0f), *acc = (float *)malloc((size_t)rows * N * sizeof(float));
    float *sx = (float *)malloc((size_t)rows * sizeof(float)), *sw = (float *)malloc((size_t)N * sizeof(float));
    double *ref = (double *)malloc((size_t)rows * NO * sizeof(double));
    x[0] = 0.0f; // a zero next to nonzero values; row 1 all zero: scale 1, sums 0
    for (int k = 0; rows > 1 && k < K; k++) x[(size_t)K + k] = 0.0f;
    for (size_t i = 0; i < (size_t)rows * NO; i++) ref[i] = out[i];
    float *xq = (float *)malloc((size_t)rows * K * sizeof(float)), *wq = (float *)malloc((size_t)K * N * sizeof(float));
    memcpy(wq, w, (size_t)K * N * sizeof(float));
    vit__e4m3_rows(xq, sx, x, rows, K, 0, 2);
    vit__e4m3_cols(wq, sw, K, N);
    int exact = 1; // every rounded value is an e4m3 value times its scale; each row's / column's largest is 448
    for (int r = 0; r < rows; r++) {
        float mx = 0.0f;
        for (int k = 0; k < K; k++) {
            float v = xq[(size_t)r * K + k];
            exact &= vit__e4m3_value(vit__e4m3(v)) == v && fabsf(v) <= 448.0f;
            mx = fabsf(v) > mx ? fabsf(v) : mx;
        }
        exact &= mx == 448.0f || (mx == 0.0f && sx[r] == 1.0f);
    }
    for (int n = 0; n < N; n++) {
        float mx = 0.0f;
        for (int k = 0; k < K; k++) mx = fabsf(wq[(size_t)k * N + n]) > mx ? fabsf(wq[(size_t)k * N + n]) : mx;
        exact &= mx == 448.0f || mx == 0.0f;
    }
    snprintf(name, sizeof(name), "e4m3 rows/columns %dx%d, %dx%d: e4m3 values, largest 448", rows, K, K, N);
    check(exact, name, "%s", exact ? "each value and scale checked" : "a value off the e4m3 grid, or a row / column whose largest is not 448");
    float *packed = (float *)malloc((size_t)K * N * sizeof(float)), *tmp = (float *)malloc((size_t)K * N * sizeof(float));
    memcpy(packed, wq, (size_t)K * N * sizeof(float));
    vit__pack_panels(packed, tmp, (size_t)K, (size_t)N);
    vit__linear_run(acc, xq, packed, NULL, rows, K, N, VIT__OUT_STORE, VIT__ACT_NONE, NULL, vit__cpu_isa(), 2);
    vit__e4m3_epilogue(out, acc, sx, sw, b, rows, N, mode, act, mode == VIT__OUT_RESIDUAL ? ls : NULL, 2);
    for (int r = 0; r < rows; r++)
        for (int n = 0; n < N; n += 2) {
            double v[2];
            for (int j = 0; j < 2; j++) {
                double s = 0;
                for (int k = 0; k < K; k++) s += (double)xq[(size_t)r * K + k] * wq[(size_t)k * N + n + j];
                v[j] = s * sx[r] * sw[n + j] + b[n + j];
            }
            if (act == VIT__ACT_GELU) for (int j = 0; j < 2; j++) v[j] = 0.5 * v[j] * (1.0 + erf(v[j] / sqrt(2.0)));
            int oc = glu ? n / 2 : n, cnt = glu ? 1 : 2;
            if (glu) v[0] = v[0] / (1.0 + exp(-v[0])) * v[1];
            for (int j = 0; j < cnt; j++) {
                double *o = &ref[(size_t)r * NO + oc + j];
                *o = mode == VIT__OUT_RESIDUAL ? *o + (double)ls[oc + j] * v[j] : v[j];
            }
        }
    snprintf(name, sizeof(name), "e4m3 linear %dx%dx%d%s%s", rows, K, N, mode == VIT__OUT_RESIDUAL ? " residual" : "",
             act == VIT__ACT_GELU ? " gelu" : glu ? " swiglu" : "");
    close_to(name, out, ref, (size_t)rows * NO);
    free(x); free(w); free(b); free(ls); free(out); free(acc); free(sx); free(sw); free(ref); free(xq); free(wq); free(packed); free(tmp);
}

int main(int argc, char **argv) {
    test_attention(2, 50, 50, 64, 4, 0, 0);
    test_attention(2, 77, 77, 64, 4, 0, 1);  // CLIP's text tower: the causal mask, 77 tokens (rows across VIT__MB blocks)
    test_attention(3, 5, 5, 40, 2, 0, 1);    // fewer tokens than a row block   // self-attention sizes
    test_attention(3, 4, 77, 96, 3, 1, 0);    // 4 latent queries shared by 3 images
    test_attention(2, 60, 5, 40, 2, 0, 0);    // more queries than keys, head size 20
    test_attention(1, 1, 197, 132, 4, 1, 0);  // one latent, head size 33
    test_place_tokens(2, 0, 16, 8, 0);
    test_place_tokens(2, 1, 16, 8, 1);
    test_place_tokens(3, 2, 9, 5, 1);      // class + distillation token
    test_place_tokens(2, 5, 16, 12, 0);    // class + 4 registers, pos over the patches only
    test_pool_head(3, 20, 16, 7, 1, VIT_POOL_TOKEN, 1);
    test_pool_head(3, 20, 16, 7, 2, VIT_POOL_TOKEN, 2); // DeiT distilled: class and distillation heads
    test_pool_head(2, 21, 33, 5, 1, VIT_POOL_AVG, 5);   // mean after 5 prefix tokens
    test_swiglu(37, 40, 96, VIT__OUT_STORE, 0);
    test_swiglu(13, 70, 34, VIT__OUT_STORE, 0);         // 17 outputs, a partial 16-wide tile
    test_swiglu(9, 24, 64, VIT__OUT_RESIDUAL, 1);
    // packed GEMM: row tiles of 12 and each remainder 1-11 (AVX-512; 6 and 1-5 on AVX2/NEON), full and partial panels, K of 1 and odd
    int shapes[][3] = {{1, 1, 1}, {5, 3, 7}, {13, 37, 40}, {50, 64, 130}, {29, 96, 48}, {197, 192, 224}, {7, 300, 33}, {63, 16, 18},
                       {4, 20, 36}, {6, 9, 64}, {8, 33, 17}, {9, 16, 50}, {10, 7, 32}, {11, 64, 48}};
    vit__act acts[] = {VIT__ACT_NONE, VIT__ACT_GELU, VIT__ACT_GELU_TANH, VIT__ACT_QUICK_GELU, VIT__ACT_SWIGLU};
    for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
        for (size_t a = 0; a < sizeof(acts) / sizeof(acts[0]); a++) {
            if (acts[a] == VIT__ACT_SWIGLU && shapes[i][2] % 2) continue;
            test_packed(shapes[i][0], shapes[i][1], shapes[i][2], VIT__OUT_STORE, acts[a], 0);
        }
    test_packed(50, 64, 130, VIT__OUT_RESIDUAL, VIT__ACT_NONE, 0);
    test_packed(197, 192, 224, VIT__OUT_RESIDUAL, VIT__ACT_NONE, 1);
    test_packed(13, 37, 40, VIT__OUT_RESIDUAL, VIT__ACT_SWIGLU, 1);
    test_q8(1, 4, 16, VIT__OUT_STORE, VIT__ACT_NONE, 1);
    test_q8(13, 37, 40, VIT__OUT_STORE, VIT__ACT_NONE, 1);      // K padded to 40, N to 48
    test_q8(50, 64, 130, VIT__OUT_RESIDUAL, VIT__ACT_NONE, 1);
    test_q8(197, 192, 224, VIT__OUT_STORE, VIT__ACT_GELU, 1);
    test_q8(29, 96, 48, VIT__OUT_STORE, VIT__ACT_SWIGLU, 1);
    test_q8(197, 384, 96, VIT__OUT_STORE, VIT__ACT_NONE, 0);
    test_q8(61, 768, 200, VIT__OUT_RESIDUAL, VIT__ACT_NONE, 0);
    test_q8(7, 300, 33, VIT__OUT_STORE, VIT__ACT_GELU, 0);
    for (int r = 2; r <= 11; r++) test_q8(12 + r, 36, 40, VIT__OUT_STORE, VIT__ACT_NONE, 0); // each remainder of a 12-row tile
    test_e4m3_codes(argc > 1 ? argv[1] : "tests/data/fp8");
    test_e4m3_blocks(5, 392);
    test_e4m3_blocks(3, 3072);
    test_e4m3_blocks(2, 48);
    test_e4m3_bound(9, 96, 160, VIT__ACT_GELU);
    test_e4m3_bound(5, 384, 64, VIT__ACT_QUICK_GELU);
    test_e4m3_bound(3, 200, 40, VIT__ACT_NONE);
    test_e4m3_linear(13, 37, 40, VIT__OUT_STORE, VIT__ACT_NONE);
    test_e4m3_linear(29, 96, 48, VIT__OUT_STORE, VIT__ACT_GELU);
    test_e4m3_linear(7, 64, 34, VIT__OUT_STORE, VIT__ACT_SWIGLU);
    test_e4m3_linear(50, 130, 64, VIT__OUT_RESIDUAL, VIT__ACT_NONE);
    return check_summary();
}
