// test_ops_cpu: the CPU references of the ops that the model families build on
// (vit.h's >>op sections), against straightforward double-precision loops
// written here: cross-attention of Nq queries (shared by the batch: image
// stride 0) against Nk keys, the prefix-token rows with and without their
// position rows, pooling and the averaged logits of several heads, and the
// GEMM epilogue's SwiGLU pairs (out half as wide, layer scale per output).
// The GPU kernels are checked against these references by test_ops.
//
// Pass: |got - ref| <= 1e-5 + 1e-5 |ref| (float sums against double ones); the
// prefix rows exactly; 1 and 2 threads give the same bits.
//
// usage: test_ops_cpu
#define VIT_IMPLEMENTATION
#include "../vit.h"
#include "test_util.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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
static void test_attention(int B, int Nq, int Nk, int C, int H, int shared) {
    int D = C / H;
    size_t nq = (size_t)(shared ? 1 : B) * Nq * C, nkv = (size_t)B * Nk * 2 * C, no = (size_t)B * Nq * C;
    float *q = rnd(nq, 2.0f), *kv = rnd(nkv, 2.0f), *out = (float *)malloc(no * sizeof(float)), *out1 = (float *)malloc(no * sizeof(float));
    double *ref = (double *)malloc(no * sizeof(double)), *s = (double *)malloc((size_t)Nk * sizeof(double));
    float *scratch = (float *)malloc((size_t)2 * ((size_t)VIT__MB * Nk + (size_t)D * Nk) * sizeof(float));
    vit__attn_args a;
    a.out = out; a.q = q; a.k = kv; a.v = kv + C;
    a.ldo = (size_t)C; a.ldq = (size_t)C; a.ldk = 2 * (size_t)C;
    a.bso = (size_t)Nq * C; a.bsq = shared ? 0 : (size_t)Nq * C; a.bsk = (size_t)Nk * 2 * C;
    a.B = B; a.Nq = Nq; a.Nk = Nk; a.H = H; a.D = D;
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int i = 0; i < Nq; i++) {
                const float *qi = q + b * a.bsq + (size_t)i * C + (size_t)h * D;
                double mx = -INFINITY, sum = 0;
                for (int j = 0; j < Nk; j++) {
                    const float *kj = kv + b * a.bsk + (size_t)j * 2 * C + (size_t)h * D;
                    double d = 0;
                    for (int e = 0; e < D; e++) d += (double)qi[e] * kj[e];
                    s[j] = d / sqrt((double)D);
                    mx = s[j] > mx ? s[j] : mx;
                }
                for (int j = 0; j < Nk; j++) { s[j] = exp(s[j] - mx); sum += s[j]; }
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
    snprintf(name, sizeof(name), "attention B=%d Nq=%d Nk=%d C=%d H=%d%s", B, Nq, Nk, C, H, shared ? ", queries shared by the batch" : "");
    close_to(name, out, ref, no);
    check(!memcmp(out, out1, no * sizeof(float)), name, "1 and 2 threads bit-identical");
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
    vit__head_cpu(logits, pooled, w, bias, B, C, K, heads, 2);
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

int main(void) {
    test_attention(2, 50, 50, 64, 4, 0);   // self-attention sizes
    test_attention(3, 4, 77, 96, 3, 1);    // 4 latent queries shared by 3 images
    test_attention(2, 60, 5, 40, 2, 0);    // more queries than keys, head size 20
    test_attention(1, 1, 197, 132, 4, 1);  // one latent, head size 33
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
    return check_summary();
}
