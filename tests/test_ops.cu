// test_ops: every CUDA kernel against its CPU reference in vit.h, through the
// launchers (vit__<op>_cuda) the forward pass uses, on fresh random data from a
// fixed-seed PRNG. Awkward sizes (N = 197, 50, 1; C = 33, 132 and head sizes
// from them; batch 1 and 3) and real ViT sizes up to N = 1500 (DINOv2 at 518:
// 1370); fp32, bf16 and fp16; every GEMM kernel (FMA, mma.sync vector/scalar
// loads, wgmma cooperative 64/128/256 and ping-pong 128 where the GPU has it)
// with every activation (GELU, tanh GELU, QuickGELU, SwiGLU) and output mode
// (the residual adds also into a bf16 residual stream, as the LayerNorms' reads);
// 0 to 5 prefix tokens with and without position rows; cross-attention of a
// few shared queries against N keys; one and two heads. Where a test forces a
// kernel, a split or an attention shape (vit__test_hook), it asserts that the
// launcher ran exactly that (the hook's plan run, vit__plan). The activations are also checked on
// the GPU against PyTorch's float64 values (tests/data/act). The GPU eval
// transform of 8-bit frames must give vit_preprocess_rgb8's floats bit for bit.
// Outputs are poisoned with NaN before each run and a guard region after each
// output must stay unchanged.
//
// Pass: |gpu - ref| <= atol + rtol * |ref| for every element, no NaN/Inf.
// fp32: atol = rtol = 1e-5. bf16/fp16: atol = rtol = 1e-2 (inputs are rounded to
// the dtype before the CPU sees them, so the difference is the GPU's own rounding).
//
// Shared memory: every plan fits the GPU's opt-in limit per block; --smem KB
// forces a smaller limit (99: sm_86/89/12x, 163: sm_80/87), so that a Hopper
// runs every plan as those GPUs would have it planned: each launch must fit the
// limit (the plan's smem) and give the right answer; the forced shapes'
// expectations give way to the policy's fallbacks, and the e4m3 GEMMs (wgmma
// only, sm_90a: 227 KB) are skipped. The host checks plan a grid of shapes for
// each GPU's limit without a GPU (test_smem_policy).
//
// usage: test_ops [--small] [--host] [--e4m3] [--shard K/N] [--smem KB]   (--small: only the small shapes, for compute-sanitizer;
//        --host: only the checks of host code, which need no GPU: make test runs them;
//        --e4m3: only the fp8 kernels' cases;
//        --shard K/N: only cases K, K + N, K + 2N, ... (from 0) of the GPU's, so that a slow
//        sanitizer run can be split over N runs; the host checks run in every shard)
#define VIT_IMPLEMENTATION
#define VIT_TEST_HOOKS // vit__test_hook: force a plan, read the plan run
#include "../vit.h"
#include "test_util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#ifndef VIT__CUDA
int main(void) {
    printf("SKIP test_ops: vit.h was compiled without CUDA\n");
    printf("0 passed, 0 failed\n");
    return 0;
}
#else

#define GUARD 256 // bytes after each device output that must stay untouched

static int passed, failed, small_only;
static int smem_limit; // --smem KB, in bytes (0: the GPU's own limit)
// --shard K/N: a GPU case runs when its number (in run order) is K modulo N
static int shard_k = 0, shard_n = 1, case_no = 0;
static int take_case(void) { return case_no++ % shard_n == shard_k; }

// The model's test hook (vit__test_hook, set in main): force() clears what
// the last case forced and returns it; .ran holds the plan the last GEMM or
// attention launcher ran.
static vit__test_hook hook;
static vit__test_hook *force(void) {
    memset(&hook, 0, sizeof(hook));
    hook.ran.kernel = hook.ran.split = hook.ran.warps = -1;
    hook.smem_limit = smem_limit;
    return &hook;
}
static int cpu_threads;
static unsigned long long rng_state = 0x9E3779B97F4A7C15ull;

static float frand(void) { // uniform in [-1, 1)
    rng_state ^= rng_state >> 12; rng_state ^= rng_state << 25; rng_state ^= rng_state >> 27;
    unsigned long long r = rng_state * 0x2545F4914F6CDD1Dull;
    return (float)((r >> 40) * (1.0 / 8388608.0)) - 1.0f;
}

static float *hrand(size_t n, float scale) {
    float *p = (float *)malloc(n * sizeof(float) + 4);
    for (size_t i = 0; i < n; i++) p[i] = frand() * scale;
    return p;
}

// ---- dtype helpers on the host
static float h_f32(float x) { return x; }
static float h_f32(__nv_bfloat16 x) { return __bfloat162float(x); }
static float h_f32(__half x) { return __half2float(x); }
template <typename T> static T h_cvt(float x);
template <> float h_cvt<float>(float x) { return x; }
template <> __nv_bfloat16 h_cvt<__nv_bfloat16>(float x) { return __float2bfloat16_rn(x); }
template <> __half h_cvt<__half>(float x) { return __float2half_rn(x); }
template <typename T> static const char *dname();
template <> const char *dname<float>() { return "f32"; }
template <> const char *dname<__nv_bfloat16>() { return "bf16"; }
template <> const char *dname<__half>() { return "f16"; }
template <typename T> static double tol() { return sizeof(T) == 4 ? 1e-5 : 1e-2; }

// rounds every value to T (what the GPU will see)
template <typename T> static void round_to(float *p, size_t n) {
    for (size_t i = 0; i < n; i++) p[i] = h_f32(h_cvt<T>(p[i]));
}

// ---- device buffers with a guard region
typedef struct dbuf {
    unsigned char *p;
    size_t bytes;
} dbuf;

static int cuda_ok(cudaError_t e, const char *what) {
    if (e == cudaSuccess) return 1;
    printf("NOT OK %s: %s\n", what, cudaGetErrorString(e));
    failed++;
    return 0;
}

static dbuf dalloc(size_t bytes) { // output poisoned with NaN (0xFF bytes), guard 0x5A
    dbuf b = {NULL, bytes};
    if (!cuda_ok(cudaMalloc((void **)&b.p, bytes + GUARD), "cudaMalloc")) exit(1);
    cudaMemset(b.p, 0xFF, bytes);
    cudaMemset(b.p + bytes, 0x5A, GUARD);
    return b;
}

static int guard_ok(dbuf b) {
    unsigned char g[GUARD];
    cudaMemcpy(g, b.p + b.bytes, GUARD, cudaMemcpyDeviceToHost);
    for (int i = 0; i < GUARD; i++)
        if (g[i] != 0x5A) return 0;
    return 1;
}

template <typename T> static dbuf dupload(const float *h, size_t n) {
    T *tmp = (T *)malloc(n * sizeof(T) + 1);
    for (size_t i = 0; i < n; i++) tmp[i] = h_cvt<T>(h[i]);
    dbuf b = dalloc(n * sizeof(T));
    cudaMemcpy(b.p, tmp, n * sizeof(T), cudaMemcpyHostToDevice);
    free(tmp);
    return b;
}

// a linear weight: host (in, out) fp32 -> device (out, in) in T
// (in, out) host weights -> (out, in_dev) device ones, inputs past in zero (in_dev 0: in)
template <typename T> static dbuf dupload_linear(const float *h, int in, int out, int in_dev = 0) {
    if (in_dev < in) in_dev = in;
    float *t = (float *)calloc((size_t)in_dev * out + 1, sizeof(float));
    for (int i = 0; i < in; i++)
        for (int o = 0; o < out; o++) t[(size_t)o * in_dev + i] = h[(size_t)i * out + o];
    dbuf b = dupload<T>(t, (size_t)in_dev * out);
    free(t);
    return b;
}

template <typename T> static float *ddownload(dbuf b, size_t n) {
    T *tmp = (T *)malloc(n * sizeof(T) + 1);
    float *h = (float *)malloc(n * sizeof(float) + 4);
    cudaMemcpy(tmp, b.p, n * sizeof(T), cudaMemcpyDeviceToHost);
    for (size_t i = 0; i < n; i++) h[i] = h_f32(tmp[i]);
    free(tmp);
    return h;
}

static void dfree(dbuf b) { cudaFree(b.p); }

// Compares and prints one line. ref_stride/gpu_stride let a strided subset be compared.
static void check(const char *name, vit_status st, vit_model *m, const float *gpu, const float *ref, size_t n, double atol, double rtol, int guard) {
    if (smem_limit && hook.ran.smem > smem_limit) {
        printf("NOT OK %s: the plan run takes %d bytes of shared memory per block, above the forced %d\n", name, hook.ran.smem, smem_limit);
        failed++;
        return;
    }
    if (st != VIT_OK) {
        printf("NOT OK %s: launcher returned %s: %s\n", name, vit_status_string(st), vit_last_error(m));
        failed++;
        return;
    }
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        printf("NOT OK %s: %s\n", name, cudaGetErrorString(e));
        failed++;
        return;
    }
    double maxdiff = 0, maxref = 0;
    size_t bad = 0, first = (size_t)-1;
    for (size_t i = 0; i < n; i++) {
        double d = fabs((double)gpu[i] - ref[i]);
        if (!(d <= atol + rtol * fabs(ref[i]))) { // NaN fails here too
            if (!bad) first = i;
            bad++;
        }
        if (d > maxdiff || d != d) maxdiff = d != d ? INFINITY : (d > maxdiff ? d : maxdiff);
        if (fabs(ref[i]) > maxref) maxref = fabs(ref[i]);
    }
    int ok = bad == 0 && guard;
    if (ok) passed++; else failed++;
    printf("%s %s: maxdiff %.3e (max|ref| %.3g, tol %.0e+%.0e*|ref|)", ok ? "OK" : "NOT OK", name, maxdiff, maxref, atol, rtol);
    if (bad) printf(", %zu bad, first [%zu] gpu %g ref %g", bad, first, gpu[first], ref[first]);
    if (!guard) printf(", GUARD REGION OVERWRITTEN");
    printf("\n");
}

// Each op runs twice, its kernels walking their rows first to last and then
// last to first (vit__walk; tests that launch two kernels get both orders in
// each): the second run must give the first's bits.
static void same_bits(const char *name, const float *a, const float *b, size_t n, const char *what = "both row orders") {
    int same = !memcmp(a, b, n * sizeof(float));
    printf("%s %s: %s bit-identical\n", same ? "OK" : "NOT OK", name, what);
    if (same) passed++; else failed++;
}

static const char *gemm_name(int ran) {
    switch (ran) {
    case VIT__K_FMA: return "fma";
    case VIT__K_MMA_VEC: return "mma128";
    case VIT__K_MMA_SCALAR: return "mma128-scalar";
    case VIT__K_MMA64_VEC: return "mma64";
    case VIT__K_MMA64_SCALAR: return "mma64-scalar";
    case VIT__K_WG128: return "wgmma128";
    case VIT__K_PP128: return "wgmma-pingpong128";
    case VIT__K_PP192: return "wgmma-pingpong192";
    case VIT__K_WG64: return "wgmma64";
    case VIT__K_ATT_FMA: return "fma";
    case VIT__K_ATT_STREAM: return "mma streaming K/V";
    case VIT__K_ATT_STREAM32: return "mma streaming K/V, 32 rows per warp";
    case VIT__K_ATT_FULL32: return "mma whole K/V, 32 rows per warp";
    case VIT__K_ATT_WGMMA: return "wgmma + TMA";
    case VIT__K_ATT_FULL: return "mma whole K/V";
    case VIT__K_ATT_SPLIT_KEYS: return "mma whole K/V, keys split";
    default: return "?";
    }
}

static const char *act_name(vit__act a) {
    switch (a) {
    case VIT__ACT_GELU: return "+gelu";
    case VIT__ACT_GELU_TANH: return "+gelu_tanh";
    case VIT__ACT_QUICK_GELU: return "+quick_gelu";
    case VIT__ACT_SWIGLU: return "+swiglu";
    default: return "";
    }
}

// Counts one assertion about what a launcher ran.
static void expect(int ok, const char *name, const char *what, int got, int want) {
    if (ok || smem_limit) return; // (a forced shared memory limit: the policy's fallbacks, checked in check())
    printf("NOT OK %s: ran %s %d, forced %d\n", name, what, got, want);
    failed++;
}

static int is_wgmma(int kernel) {
    return kernel == VIT__K_WG128 || kernel == VIT__K_WG64 || kernel == VIT__K_PP128 || kernel == VIT__K_PP192;
}

// The GEMM kernel a forced path must run (half: bf16/fp16; 0: not forced, any).
// A wgmma path on a shape the TMA cannot take runs mma.sync, 128 x 256 tiles
// where their waves are shorter (vit__mma_big) and the operands take 16-byte
// loads, else 64 x 64.
static int want_gemm(vit_model *m, int half, int path, int M, int N, int K) {
    if (!half) return VIT__K_FMA;
    // (sm_90a code runs mma.sync on 64 x 64 tiles only: vit__mma_sm90a)
    int vec = K % 8 == 0, tma = m->cuda->wgmma && vec && N % 8 == 0;
    int big = !m->cuda->wgmma && vec && vit__mma_big(m->cuda->sm_count, vit__mma_per_sm(m->cuda->smem_optin), M, N) &&
              VIT__MMA_SMEM(128, 256) <= vit__plan_smem_max(m->cuda);
    switch (path) {
    case VIT__GEMM_WGMMA128: if (tma) return VIT__K_WG128; break;
    case VIT__GEMM_WGMMA64: if (tma) return VIT__K_WG64; break;
    case VIT__GEMM_PP128: if (tma) return VIT__K_PP128; break;
    case VIT__GEMM_PP192: if (tma) return VIT__K_PP192; break;
    case VIT__GEMM_MMA: if (m->cuda->wgmma) return vec ? VIT__K_MMA64_VEC : VIT__K_MMA64_SCALAR; return vec ? VIT__K_MMA_VEC : VIT__K_MMA_SCALAR;
    case VIT__GEMM_MMA64: return vec ? VIT__K_MMA64_VEC : VIT__K_MMA64_SCALAR;
    default: return 0;
    }
    return big ? (vec ? VIT__K_MMA_VEC : VIT__K_MMA_SCALAR) : (vec ? VIT__K_MMA64_VEC : VIT__K_MMA64_SCALAR);
}

// The K slices a forced split of s must give on kernel (0: not forced): at
// most s, VIT__SPLITK_MAX and the K steps, as many as fit the partial sums;
// wgmma: dividing its K steps; the others: none empty.
static int want_split(vit_model *m, int kernel, int K, size_t plane, int s) {
    if (s < 2) return 0;
    int wg = is_wgmma(kernel), mma64 = kernel == VIT__K_MMA64_VEC || kernel == VIT__K_MMA64_SCALAR;
    int bk = kernel == VIT__K_FMA ? VIT__FMA_BK : wg ? 64 : VIT__MMA_BKT(mma64 ? 64 : 128), KB = (K + bk - 1) / bk;
    int split = wg ? s : s < KB ? s : KB;
    if (split > VIT__SPLITK_MAX) split = VIT__SPLITK_MAX;
    while (split > 1 && ((wg && KB % split) || (size_t)split * plane > m->cuda->part_floats)) split--;
    if (!wg && split > 1) {
        int kb = (KB + split - 1) / split;
        split = (KB + kb - 1) / kb;
    }
    return split;
}

// ---- linear
// out = epilogue(x W + b): mode VIT__OUT_STORE (activation act) or
// VIT__OUT_RESIDUAL (into a random residual, * layer scale); the GEMM kernel
// forced by path, split-K by splitk; asserts the kernel and split that ran.
// res16 (bf16): the residual in T (a bf16 residual stream), the CPU's sums
// rounded to it.
template <typename T>
static void test_linear(vit_model *m, int rows, int in, int out, vit__out mode, vit__act act, int layer_scale, int path, int splitk = 0, int res16 = 0) {
    if (!take_case()) return;
    int glu = act == VIT__ACT_SWIGLU, outw = glu ? out / 2 : out;
    float *x = hrand((size_t)rows * in, 1.0f), *w = hrand((size_t)in * out, 1.0f / sqrtf((float)in));
    float *b = hrand((size_t)out, 0.5f), *ls = layer_scale ? hrand((size_t)outw, 1.0f) : NULL;
    round_to<T>(x, (size_t)rows * in);
    round_to<T>(w, (size_t)in * out);
    size_t no = (size_t)rows * outw;
    float *ref = hrand(no, 1.0f); // the residual for VIT__OUT_RESIDUAL
    if (res16) round_to<T>(ref, no);
    dbuf dx = dupload<T>(x, (size_t)rows * in), dw = dupload_linear<T>(w, in, out), db = dupload<float>(b, (size_t)out);
    dbuf dls = ls ? dupload<float>(ls, (size_t)outw) : dbuf{NULL, 0};
    int res = mode == VIT__OUT_RESIDUAL, r32 = res && !res16; // r32: an fp32 output
    dbuf dout = r32 ? dupload<float>(ref, no) : res16 ? dupload<T>(ref, no) : dalloc(no * sizeof(T));
    vit__test_hook *f = force();
    f->gemm = path;
    f->splitk = splitk;
    dbuf dout2 = r32 ? dupload<float>(ref, no) : res16 ? dupload<T>(ref, no) : dalloc(no * sizeof(T));
    m->cuda->walk = 1;
    vit_status st = vit__linear_cuda<T>(dout.p, (const T *)dx.p, (const T *)dw.p, (const float *)db.p, rows, in, out, mode, act, (const float *)dls.p, m, 0, NULL,
                                        res16);
    vit__plan ran = f->ran;
    m->cuda->walk = 0;
    if (st == VIT_OK)
        st = vit__linear_cuda<T>(dout2.p, (const T *)dx.p, (const T *)dw.p, (const float *)db.p, rows, in, out, mode, act, (const float *)dls.p, m, 0, NULL, res16);
    cudaDeviceSynchronize();
    vit__linear_cpu(ref, x, w, b, rows, in, out, mode, act, ls, cpu_threads);
    if (res16) round_to<T>(ref, no);
    float *got = r32 ? ddownload<float>(dout, no) : ddownload<T>(dout, no), *got2 = r32 ? ddownload<float>(dout2, no) : ddownload<T>(dout2, no);
    char name[200];
    snprintf(name, sizeof(name), "linear %s %s %dx%d->%d %s%s split %d", dname<T>(), gemm_name(ran.kernel), rows, in, out,
             res ? (res16 ? (layer_scale ? "bias+bf16 residual*ls" : "bias+bf16 residual") : layer_scale ? "bias+residual*ls" : "bias+residual") : "bias",
             act_name(act), ran.split);
    // the residual output is fp32: the GEMM's own rounding is that of its bf16 inputs only
    check(name, st, m, got, ref, no, tol<T>(), tol<T>(), guard_ok(dout) && guard_ok(dout2));
    same_bits(name, got, got2, no);
    int wk = want_gemm(m, sizeof(T) == 2, path, rows, out, in), ws = want_split(m, ran.kernel, in, (size_t)rows * out, splitk);
    expect(wk ? ran.kernel == wk : ran.kernel > 0, name, "kernel", ran.kernel, wk);
    expect(ws ? ran.split == ws : ran.split >= 1, name, "split", ran.split, ws);
    free(x); free(w); free(b); free(ls); free(ref); free(got); free(got2);
    dfree(dx); dfree(dw); dfree(db); dfree(dout); dfree(dout2);
    if (dls.p) dfree(dls);
}

// What the GEMM launcher refuses: an activation on a residual GEMM, SwiGLU
// over an odd column count, an unknown activation, a layer scale on a stored
// output; and the GEMM dispatch: another operand type than the kernels' or
// dequantisation scales (no kernel takes them yet).
template <typename T>
static void test_linear_refusals(vit_model *m) {
    if (!take_case()) return;
    dbuf d = dalloc(64 * 64 * 4);
    struct { vit__out mode; vit__act act; int out, scale; vit_status want; const char *what; } cases[] = {
        {VIT__OUT_RESIDUAL, VIT__ACT_GELU, 16, 0, VIT_ERROR_UNSUPPORTED, "residual + gelu"},
        {VIT__OUT_STORE, VIT__ACT_SWIGLU, 15, 0, VIT_ERROR_INVALID_ARGUMENT, "swiglu over 15 columns"},
        {VIT__OUT_STORE, VIT__ACT_COUNT, 16, 0, VIT_ERROR_INVALID_ARGUMENT, "activation out of range"},
        {VIT__OUT_PATCH, VIT__ACT_NONE, 16, 0, VIT_ERROR_INVALID_ARGUMENT, "patch mode through linear"},
        {VIT__OUT_STORE, VIT__ACT_SWIGLU, 16, 1, VIT_ERROR_INVALID_ARGUMENT, "a layer scale on a stored output"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        vit_status st = vit__linear_cuda<T>(d.p, (const T *)d.p, (const T *)d.p, NULL, 4, 16, cases[i].out, cases[i].mode, cases[i].act,
                                            cases[i].scale ? (const float *)d.p : NULL, m, 0);
        int ok = st == cases[i].want && cudaDeviceSynchronize() == cudaSuccess;
        printf("%s linear %s refuses %s: %s\n", ok ? "OK" : "NOT OK", dname<T>(), cases[i].what, vit_status_string(st));
        if (ok) passed++; else failed++;
    }
    { // a bf16 residual stream: only a residual GEMM's output, only from bf16 GEMMs
        vit_status st = vit__linear_cuda<T>(d.p, (const T *)d.p, (const T *)d.p, NULL, 4, 16, 16, vit__is_bf16<T>::value ? VIT__OUT_STORE : VIT__OUT_RESIDUAL,
                                            VIT__ACT_NONE, NULL, m, 0, NULL, 1);
        int ok = st == VIT_ERROR_UNSUPPORTED && cudaDeviceSynchronize() == cudaSuccess;
        printf("%s linear %s refuses a bf16 residual %s: %s\n", ok ? "OK" : "NOT OK", dname<T>(), vit__is_bf16<T>::value ? "on a stored output" : "from this dtype",
               vit_status_string(st));
        if (ok) passed++; else failed++;
    }
    for (int c = 0; c < 3; c++) {
        vit__gemm_args g;
        memset(&g, 0, sizeof(g));
        g.a = d.p; g.w = d.p; g.out = d.p; g.M = 4; g.N = 16; g.K = c == 0 ? 24 : 16; // e4m3: K 24 is no multiple of 16 (bf16 has the kernel)
        g.optype = c == 0 ? (int)VIT__OP_E4M3 : (int)vit__optype<T>::value;
        g.a_scale = c == 1 ? (const float *)d.p : NULL;
        g.w_scale = c == 2 ? (const float *)d.p : NULL;
        vit_status st = vit__linear_go<VIT__OUT_STORE, VIT__ACT_NONE>(g, vit__gemm_plan(g, VIT__OUT_STORE, m->cuda), m, 0, (T *)0);
        int ok = st == VIT_ERROR_UNSUPPORTED && cudaDeviceSynchronize() == cudaSuccess;
        printf("%s GEMM %s refuses %s: %s\n", ok ? "OK" : "NOT OK", dname<T>(), c == 0 ? "e4m3 operands (K 24)" : c == 1 ? "row dequantisation scales" : "column dequantisation scales",
               vit_status_string(st));
        if (ok) passed++; else failed++;
    }
    dfree(d);
}

// ---- linear (residual) + layernorm, as the forward pass runs proj + ln2 and
// fc2 + the next ln1: x += ls * (xin W + b), then LayerNorm(x) into out (TO);
// the split-K reduction inside the LayerNorm kernel when the GEMM splits.
// every > 1 (the last fc2 + the final norm of the class tokens): only rows 0,
// every, ... are finished, normalised into out's consecutive rows. Checks those
// rows of x and out, and that a second run gives the same bits. TX: x's type
// (bf16: the residual stream in bf16, the CPU's x rounded to it after the add).
template <typename T, typename TO, typename TX = float>
static void test_linear_ln(vit_model *m, int rows, int in, int C, int layer_scale, int splitk, int every = 1) {
    if (!take_case()) return;
    float *xin = hrand((size_t)rows * in, 1.0f), *w = hrand((size_t)in * C, 1.0f / sqrtf((float)in));
    float *b = hrand((size_t)C, 0.5f), *ls = layer_scale ? hrand((size_t)C, 1.0f) : NULL;
    float *lw = hrand((size_t)C, 1.0f), *lb = hrand((size_t)C, 0.5f);
    round_to<T>(xin, (size_t)rows * in);
    round_to<T>(w, (size_t)in * C);
    int lnrows = (rows + every - 1) / every;
    size_t no = (size_t)rows * C, nn = (size_t)lnrows * C;
    float *x = hrand(no, 1.0f), *refn = (float *)malloc(nn * sizeof(float)), *refx = (float *)malloc(nn * sizeof(float));
    round_to<TX>(x, no);
    dbuf dxin = dupload<T>(xin, (size_t)rows * in), dw = dupload_linear<T>(w, in, C), db = dupload<float>(b, (size_t)C);
    dbuf dls = ls ? dupload<float>(ls, (size_t)C) : dbuf{NULL, 0};
    dbuf dlw = dupload<float>(lw, (size_t)C), dlb = dupload<float>(lb, (size_t)C);
    dbuf dx = dupload<TX>(x, no), dx2 = dupload<TX>(x, no), dn = dalloc(nn * sizeof(TO)), dn2 = dalloc(nn * sizeof(TO));
    vit__test_hook *f = force();
    f->splitk = splitk;
    m->cuda->walk = 1;
    vit_status st = vit__linear_ln_cuda<T, TO, TX>((TO *)dn.p, (TX *)dx.p, (const T *)dxin.p, (const T *)dw.p, (const float *)db.p, (const float *)dls.p, rows, in,
                                               C, (const float *)dlw.p, (const float *)dlb.p, 1e-6f, every, m, 0);
    vit__plan ran = f->ran;
    int split = ran.split;
    m->cuda->walk = 0; // (the GEMM and the LayerNorm each walk the other way this time)
    if (st == VIT_OK)
        st = vit__linear_ln_cuda<T, TO, TX>((TO *)dn2.p, (TX *)dx2.p, (const T *)dxin.p, (const T *)dw.p, (const float *)db.p, (const float *)dls.p, rows, in, C,
                                        (const float *)dlw.p, (const float *)dlb.p, 1e-6f, every, m, 0);
    cudaDeviceSynchronize();
    vit__linear_cpu(x, xin, w, b, rows, in, C, VIT__OUT_RESIDUAL, VIT__ACT_NONE, ls, cpu_threads);
    round_to<TX>(x, no);
    for (int i = 0; i < lnrows; i++) memcpy(refx + (size_t)i * C, x + (size_t)i * every * C, (size_t)C * sizeof(float));
    vit__layernorm_cpu(refn, refx, lw, lb, lnrows, C, (size_t)C, 1e-6f, cpu_threads);
    float *gxall = ddownload<TX>(dx, no), *gn = ddownload<TO>(dn, nn), *gx2 = ddownload<TX>(dx2, no), *gn2 = ddownload<TO>(dn2, nn);
    float *gx = (float *)malloc(nn * sizeof(float));
    for (int i = 0; i < lnrows; i++) memcpy(gx + (size_t)i * C, gxall + (size_t)i * every * C, (size_t)C * sizeof(float));
    char name[200], what[120];
    snprintf(what, sizeof(what), "%s->%s %dx%d->%d%s split %d%s", dname<T>(), dname<TO>(), rows, in, C, layer_scale ? " *ls" : "", split,
             sizeof(TX) == 2 ? ", x in bf16" : "");
    if (every > 1) snprintf(what + strlen(what), sizeof(what) - strlen(what), ", rows every %d", every);
    snprintf(name, sizeof(name), "linear+layernorm %s: x", what);
    check(name, st, m, gx, refx, nn, tol<T>(), tol<T>(), guard_ok(dx) && guard_ok(dx2));
    same_bits(name, gxall, gx2, no);
    snprintf(name, sizeof(name), "linear+layernorm %s: normalised", what);
    // out is normalised x: the GPU's x error (relative to |x|) is scaled up by rstd
    check(name, st, m, gn, refn, nn, 2 * tol<T>(), 2 * tol<T>(), guard_ok(dn) && guard_ok(dn2));
    same_bits(name, gn, gn2, nn);
    int ws = want_split(m, ran.kernel, in, no, splitk);
    expect(ws ? split == ws : split >= 1, name, "split", split, ws);
    free(xin); free(w); free(b); free(ls); free(lw); free(lb); free(x); free(refn); free(refx); free(gx); free(gxall); free(gn); free(gx2); free(gn2);
    dfree(dxin); dfree(dw); dfree(db); dfree(dlw); dfree(dlb); dfree(dx); dfree(dx2); dfree(dn); dfree(dn2);
    if (dls.p) dfree(dls);
}

// ---- patch embedding + the first LayerNorm (vit__patch_ln_cuda, the forward
// pass's start): the split-K patch GEMM finished inside the LayerNorm kernel
// where it splits, else (and with a forced GEMM kernel: fallback) the two ops. want: the fused tokens x on the CPU
// (vit__place_tokens). TX: x's type (bf16: the residual stream in bf16, want
// rounded to it; the fallback path stages fp32 rows in x32).
template <typename T, typename TX>
static void test_patch_ln(vit_model *m, const float *want_f, dbuf dimg, dbuf dw, dbuf db, const vit__embed_fuse *fz, dbuf dscr, size_t ns, int B, int Cin, int S,
                          int Ws, int P, int C, int npre, int fallback = 0) {
    if (!fallback) test_patch_ln<T, TX>(m, want_f, dimg, dw, db, fz, dscr, ns, B, Cin, S, Ws, P, C, npre, 1);
    vit__test_hook *f = force();
    if (fallback) f->gemm = VIT__GEMM_MMA;
    int N = (S / P) * (Ws / P) + npre;
    size_t nx = (size_t)B * N * C;
    float *want = (float *)malloc(nx * sizeof(float));
    memcpy(want, want_f, nx * sizeof(float));
    round_to<TX>(want, nx);
    float *lw = hrand((size_t)C, 1.0f), *lb = hrand((size_t)C, 0.5f), *wantn = (float *)malloc(nx * sizeof(float));
    vit__layernorm_cpu(wantn, want, lw, lb, B * N, C, (size_t)C, 1e-6f, cpu_threads);
    dbuf dlw = dupload<float>(lw, (size_t)C), dlb = dupload<float>(lb, (size_t)C), dxn = dalloc(nx * sizeof(T)), dx = dalloc(nx * sizeof(TX));
    dbuf dx32 = dalloc(nx * sizeof(float));
    m->cuda->walk = 1;
    vit_status st = vit__patch_ln_cuda<T, TX>((T *)dxn.p, (TX *)dx.p, (float *)dx32.p, (const float *)dimg.p, (const T *)dw.p, (const float *)db.p, B, Cin, S, Ws, P,
                                              C, fz, dscr.p, ns, (const float *)dlw.p, (const float *)dlb.p, 1e-6f, m, 0);
    vit__plan ran = f->ran;
    float *gotx = ddownload<TX>(dx, nx), *gotn = ddownload<T>(dxn, nx);
    cudaMemset(dx.p, 0xFF, dx.bytes); // again, each kernel walking the other way
    cudaMemset(dxn.p, 0xFF, dxn.bytes);
    m->cuda->walk = 0;
    vit_status st2 = vit__patch_ln_cuda<T, TX>((T *)dxn.p, (TX *)dx.p, (float *)dx32.p, (const float *)dimg.p, (const T *)dw.p, (const float *)db.p, B, Cin, S, Ws,
                                               P, C, fz, dscr.p, ns, (const float *)dlw.p, (const float *)dlb.p, 1e-6f, m, 0);
    float *gotx2 = ddownload<TX>(dx, nx), *gotn2 = ddownload<T>(dxn, nx);
    if (st == VIT_OK) st = st2;
    char name[220];
    const char *how = sizeof(TX) == 2 ? (fallback ? ", x in bf16, unfused" : ", x in bf16") : fallback ? ", unfused" : "";
    snprintf(name, sizeof(name), "patch_embed+prefix+pos+layernorm %s %s B=%d S=%d P=%d C=%d prefix=%d split %d%s: x", dname<T>(), gemm_name(ran.kernel), B, S, P, C,
             npre, ran.split, how);
    check(name, st, m, gotx, want, nx, tol<T>(), tol<T>(), guard_ok(dx) && guard_ok(dscr) && guard_ok(dx32));
    snprintf(name, sizeof(name), "patch_embed+prefix+pos+layernorm %s %s B=%d S=%d P=%d C=%d prefix=%d split %d%s: normalised", dname<T>(), gemm_name(ran.kernel), B,
             S, P, C, npre, ran.split, how);
    check(name, st, m, gotn, wantn, nx, 2 * tol<T>(), 2 * tol<T>(), guard_ok(dxn));
    same_bits(name, gotx, gotx2, nx);
    same_bits(name, gotn, gotn2, nx);
    expect(ran.split >= 1, name, "split", ran.split, 1);
    free(want); free(lw); free(lb); free(wantn); free(gotx); free(gotn); free(gotx2); free(gotn2);
    dfree(dlw); dfree(dlb); dfree(dxn); dfree(dx); dfree(dx32);
    force();
}

// ---- patch embedding: plain (= vit__patch_embed_cpu) and fused (= + vit__place_tokens:
// npre prefix tokens, position rows covering them when pec)
template <typename T>
static void test_patch(vit_model *m, int B, int Cin, int S, int P, int C, int npre, int pec, int Ws = 0) {
    if (!take_case()) return;
    // S x Ws images (Ws 0: square); GGn below is the patch count GH * GW
    if (!Ws) Ws = S;
    int GGn = (S / P) * (Ws / P), CPP = Cin * P * P, KP = vit__patch_k(Cin, P), N = GGn + npre; // KP: the device weights' padded K
    size_t ni = (size_t)B * Cin * S * Ws, nt = (size_t)B * GGn * C;
    float *img = hrand(ni, 1.0f), *w = hrand((size_t)CPP * C, 1.0f / sqrtf((float)CPP)), *b = hrand((size_t)C, 0.5f);
    round_to<T>(img, ni);
    round_to<T>(w, (size_t)CPP * C);
    float *ref = (float *)malloc(nt * sizeof(float)), *scratch = (float *)malloc((size_t)B * GGn * CPP * sizeof(float));
    vit__patch_embed_cpu(ref, img, w, b, B, Cin, S, Ws, P, C, scratch, VIT__ISA_REFERENCE, cpu_threads);
    dbuf dimg = dupload<float>(img, ni), dw = dupload_linear<T>(w, CPP, C, KP), db = dupload<float>(b, (size_t)C);
    dbuf dout = dalloc(nt * sizeof(float));
    vit__test_hook *f = force();
    vit_status st = vit__patch_embed_cuda<T>((float *)dout.p, (const float *)dimg.p, (const T *)dw.p, (const float *)db.p, B, Cin, S, Ws, P, C, NULL, NULL, 0, m, 0);
    vit__plan ran = f->ran;
    float *got = ddownload<float>(dout, nt);
    char name[200];
    snprintf(name, sizeof(name), "patch_embed %s %s B=%d Cin=%d %dx%d P=%d C=%d", dname<T>(), gemm_name(ran.kernel), B, Cin, S, Ws, P, C);
    check(name, st, m, got, ref, nt, tol<T>(), tol<T>(), guard_ok(dout));
    // fused: x = [prefix tokens | patch tokens] + pos, checked against vit__place_tokens on the plain CPU tokens
    int npos = N - (pec ? 0 : npre);
    float *pre = hrand((size_t)(npre ? npre : 1) * C, 1.0f), *pos = hrand((size_t)npos * C, 1.0f);
    size_t nx = (size_t)B * N * C;
    float *want = (float *)malloc(nx * sizeof(float));
    vit__place_tokens(want, ref, npre ? pre : NULL, npre, pos, pec, B, GGn, C);
    dbuf dpre = dupload<float>(pre, (size_t)(npre ? npre : 1) * C), dpos = dupload<float>(pos, (size_t)npos * C), dx = dalloc(nx * sizeof(float));
    vit__embed_fuse fz;
    fz.prefix = npre ? (const float *)dpre.p : NULL; fz.pos = (const float *)dpos.p; fz.tokens = N; fz.num_prefix = npre; fz.pos_prefix = pec;
    st = vit__patch_embed_cuda<T>((float *)dx.p, (const float *)dimg.p, (const T *)dw.p, (const float *)db.p, B, Cin, S, Ws, P, C, &fz, NULL, 0, m, 0);
    float *gotx = ddownload<float>(dx, nx);
    snprintf(name, sizeof(name), "patch_embed+prefix+pos %s B=%d %dx%d P=%d C=%d prefix=%d pos covers prefix=%d", dname<T>(), B, S, Ws, P, C, npre, pec);
    check(name, st, m, gotx, want, nx, tol<T>(), tol<T>(), guard_ok(dx));
    if (sizeof(T) == 2) {
        // im2col into a scratch buffer, then the linear layers' GEMM (what large
        // batches run), the GEMM kernel forced: wgmma where there is one
        // (room after the unfolded patches for the GEMM's fp32 sums: where it
        // does not split, vit__patch_ln_cuda leaves them there)
        size_t ns = (size_t)B * GGn * KP + (size_t)2 * B * GGn * C + 128;
        dbuf dscr = dalloc(ns * sizeof(T));
        int paths[3] = {VIT__GEMM_WGMMA128, VIT__GEMM_PP128, VIT__GEMM_MMA};
        for (int pi = m->cuda->wgmma ? 0 : 2; pi < 3; pi++) {
            f = force();
            f->gemm = paths[pi];
            cudaMemset(dx.p, 0xFF, dx.bytes); // poisoned again
            st = vit__patch_embed_cuda<T>((float *)dx.p, (const float *)dimg.p, (const T *)dw.p, (const float *)db.p, B, Cin, S, Ws, P, C, &fz, dscr.p, ns, m, 0);
            ran = f->ran;
            free(gotx);
            gotx = ddownload<float>(dx, nx);
            snprintf(name, sizeof(name), "patch_embed+prefix+pos im2col+%s %s B=%d S=%d P=%d C=%d prefix=%d", gemm_name(ran.kernel), dname<T>(), B, S, P, C, npre);
            check(name, st, m, gotx, want, nx, tol<T>(), tol<T>(), guard_ok(dx) && guard_ok(dscr));
            int wk = want_gemm(m, 1, paths[pi], B * GGn, C, KP);
            expect(ran.kernel == wk, name, "kernel", ran.kernel, wk);
        }
        // + the first LayerNorm (the forward pass's start), x in fp32 and (bf16) in bf16
        test_patch_ln<T, float>(m, want, dimg, dw, db, &fz, dscr, ns, B, Cin, S, Ws, P, C, npre);
        if (vit__is_bf16<T>::value) test_patch_ln<T, T>(m, want, dimg, dw, db, &fz, dscr, ns, B, Cin, S, Ws, P, C, npre);
        dfree(dscr);
    }
    free(img); free(w); free(b); free(ref); free(scratch); free(got); free(pre); free(pos); free(want); free(gotx);
    dfree(dimg); dfree(dw); dfree(db); dfree(dout); dfree(dpre); dfree(dpos); dfree(dx);
}

// ---- layernorm: fp32 in, TO out. mode 0: dense rows; 1: strided rows in
// place (the final norm of the class tokens before a pool); 2: strided rows
// into dense ones (the final norm straight into the pooled rows). TX: the
// input's type (bf16: a bf16 residual stream; not in place).
template <typename TO, typename TX = float>
static void test_layernorm(vit_model *m, int rows, int C, size_t stride, int mode) {
    if (!take_case()) return;
    if (mode == 0) stride = (size_t)C;
    size_t ostride = mode == 2 ? (size_t)C : stride;
    size_t n = (size_t)(rows - 1) * stride + C, no = (size_t)(rows - 1) * ostride + C;
    float *x = hrand(n, 2.0f), *w = hrand((size_t)C, 1.0f), *b = hrand((size_t)C, 0.5f);
    for (size_t i = 0; i < n; i++) x[i] += 0.7f; // a mean away from zero
    round_to<TX>(x, n);
    float *ref = (float *)malloc(n * sizeof(float));
    memcpy(ref, x, n * sizeof(float)); // in place: elements between rows keep their value
    vit__layernorm_cpu(ref, x, w, b, rows, C, stride, 1e-6f, cpu_threads);
    if (mode == 2)
        for (int r = 1; r < rows; r++) memmove(ref + (size_t)r * C, ref + (size_t)r * stride, (size_t)C * sizeof(float));
    dbuf dx = dupload<TX>(x, n), dw = dupload<float>(w, (size_t)C), db = dupload<float>(b, (size_t)C);
    dbuf dx2 = dupload<TX>(x, n), dout = mode == 1 ? dx : dalloc(no * sizeof(TO)), dout2 = mode == 1 ? dx2 : dalloc(no * sizeof(TO));
    m->cuda->walk = 1;
    vit_status st = vit__layernorm_cuda<TO, TX>((TO *)dout.p, (const TX *)dx.p, (const float *)dw.p, (const float *)db.p, rows, C, stride, ostride, 1e-6f, m, 0);
    m->cuda->walk = 0;
    if (st == VIT_OK)
        st = vit__layernorm_cuda<TO, TX>((TO *)dout2.p, (const TX *)dx2.p, (const float *)dw.p, (const float *)db.p, rows, C, stride, ostride, 1e-6f, m, 0);
    float *got = ddownload<TO>(dout, no), *got2 = ddownload<TO>(dout2, no);
    char name[160];
    snprintf(name, sizeof(name), "layernorm %s->%s rows=%d C=%d stride=%zu%s", dname<TX>(), dname<TO>(), rows, C, stride,
             mode == 1 ? " in place" : mode == 2 ? " into dense rows" : "");
    check(name, st, m, got, ref, no, tol<TO>(), tol<TO>(), guard_ok(dout) && guard_ok(dout2));
    same_bits(name, got, got2, no);
    free(x); free(w); free(b); free(ref); free(got); free(got2);
    dfree(dx); dfree(dx2); dfree(dw); dfree(db);
    if (mode != 1) { dfree(dout); dfree(dout2); }
}

// ---- qk-norm: in place on qkv (rows, 3C) in T, each head's q and k columns
template <typename T>
static void test_qk_norm(vit_model *m, int rows, int C, int H) {
    if (!take_case()) return;
    int D = C / H;
    size_t n = (size_t)rows * 3 * C;
    float *x = hrand(n, 2.0f), *qw = hrand((size_t)D, 1.0f), *qb = hrand((size_t)D, 0.5f), *kw = hrand((size_t)D, 1.0f), *kb = hrand((size_t)D, 0.5f);
    for (size_t i = 0; i < n; i++) x[i] += 0.3f; // a mean away from zero
    round_to<T>(x, n);
    float *ref = (float *)malloc(n * sizeof(float));
    memcpy(ref, x, n * sizeof(float));
    vit__qk_norm_cpu(ref, qw, qb, kw, kb, rows, C, H, 1e-6f, cpu_threads);
    dbuf dx = dupload<T>(x, n), dqw = dupload<float>(qw, (size_t)D), dqb = dupload<float>(qb, (size_t)D), dkw = dupload<float>(kw, (size_t)D),
         dkb = dupload<float>(kb, (size_t)D);
    vit_status st = vit__qk_norm_cuda<T>((T *)dx.p, (const float *)dqw.p, (const float *)dqb.p, (const float *)dkw.p, (const float *)dkb.p, rows, C, H, 1e-6f, m, 0);
    float *got = ddownload<T>(dx, n);
    char name[160];
    snprintf(name, sizeof(name), "qk_norm %s rows=%d C=%d H=%d (v untouched)", dname<T>(), rows, C, H);
    check(name, st, m, got, ref, n, tol<T>(), tol<T>(), guard_ok(dx));
    free(x); free(qw); free(qb); free(kw); free(kb); free(ref); free(got);
    dfree(dx); dfree(dqw); dfree(dqb); dfree(dkw); dfree(dkb);
}

// ---- attention: self-attention over packed qkv (B, N, 3C), or (nq > 0) nq
// queries shared by every image (q's image stride 0: an attention-pooling
// head's latents) against the N keys and values of kv (B, N, 2C) = [k | v];
// the kernel shape forced by warps, full and rows (vit__test_hook.attn_warps,
// attn_full, attn_rows) and asserted.
// keep: the output is handed back there (the caller frees it); same_as: an output
// this one must equal bit for bit.
template <typename T>
static void test_attention_w(vit_model *m, int B, int N, int C, int H, int warps, int full = 0, int nq = 0, int wgmma = 1, int causal = 0, int rows = 0,
                             float **keep = NULL, const float *same_as = NULL) {
    if (!take_case()) return;
    int D = C / H, cross = nq > 0, Nq = cross ? nq : N, half = sizeof(T) == 2;
    size_t nkv = (size_t)B * N * (cross ? 2 : 3) * C, nqe = cross ? (size_t)nq * C : 1, no = (size_t)B * Nq * C;
    float *kv = hrand(nkv, 2.0f), *q = hrand(nqe, 2.0f);
    round_to<T>(kv, nkv);
    round_to<T>(q, nqe);
    float *ref = (float *)malloc(no * sizeof(float));
    float *scratch = (float *)malloc((size_t)cpu_threads * ((size_t)VIT__MB * N + (size_t)D * N) * sizeof(float));
    dbuf dkv = dupload<T>(kv, nkv), dq = dupload<T>(q, nqe), dout = dalloc(no * sizeof(T));
    // the same attention on host and device pointers
    auto args = [&](void *out, const void *qp, const void *kvp, size_t es) {
        if (!cross) {
            vit__attn_args s = vit__attn_self(out, kvp, B, N, C, H, es);
            s.causal = causal;
            return s;
        }
        vit__attn_args a;
        a.out = out; a.q = qp; a.k = kvp; a.v = (const char *)kvp + (size_t)C * es;
        a.ldo = (size_t)C; a.ldq = (size_t)C; a.ldk = 2 * (size_t)C;
        a.bso = (size_t)Nq * C; a.bsq = 0; a.bsk = (size_t)N * 2 * C;
        a.B = B; a.Nq = Nq; a.Nk = N; a.H = H; a.D = D;
        a.causal = 0;
        return a;
    };
    vit__attn_args ah = args(ref, q, kv, sizeof(float)), ad = args(dout.p, dq.p, dkv.p, sizeof(T));
    vit__attention_cpu(&ah, scratch, cpu_threads);
    vit__test_hook *f = force();
    f->attn_warps = warps;
    f->attn_full = full;
    f->attn_rows = rows;
    f->attn_wgmma = wgmma;
    m->cuda->walk = 1;
    vit_status st = vit__attention_cuda<T>(ad, m, 0, NULL, 0);
    vit__plan ran = f->ran;
    float *got = ddownload<T>(dout, no);
    dbuf dout2 = dalloc(no * sizeof(T));
    vit__attn_args ad2 = args(dout2.p, dq.p, dkv.p, sizeof(T));
    m->cuda->walk = 0;
    if (st == VIT_OK) st = vit__attention_cuda<T>(ad2, m, 0, NULL, 0);
    float *got2 = ddownload<T>(dout2, no);
    char name[200];
    snprintf(name, sizeof(name), "attention %s %s B=%d Nq=%d Nk=%d C=%d H=%d (head size %d)%s%s warps %d", dname<T>(), gemm_name(ran.kernel), B, Nq, N, C, H, D,
             cross ? " cross, shared queries" : "", causal ? " causal" : "", ran.warps);
    check(name, st, m, got, ref, no, tol<T>(), tol<T>(), guard_ok(dout) && guard_ok(dout2));
    same_bits(name, got, got2, no);
    if (same_as) same_bits(name, got, same_as, no, "16 and 32 query rows per warp");
    // what the forced shape must run (see vit__plan_attention)
    int fits = N <= VIT__ATTN_FULL_MAX, wk = 0, ww = 0;
    if (!half) wk = VIT__K_ATT_FMA;
    else if (wgmma >= 2 && !causal) { wk = VIT__K_ATT_WGMMA; ww = wgmma == 4 || (wgmma == 2 && D == 64 && Nq >= VIT__ATTW3_MIN) ? 16 : 12; } // 2 or 3 consumer warpgroups
    else if (full == 3 && fits) { wk = VIT__K_ATT_SPLIT_KEYS; ww = 8; }
    else if (full == 1 || ((full || warps) && !fits)) {
        int wide = (size_t)((Nq + 127) / 128) * H * B >= (size_t)2 * m->cuda->sm_count;
        wk = D <= 64 && (rows == 32 || (!rows && wide)) ? VIT__K_ATT_STREAM32 : VIT__K_ATT_STREAM;
        ww = 4;
    }
    else if (full || warps) {
        wk = D <= 64 && rows == 32 ? VIT__K_ATT_FULL32 : VIT__K_ATT_FULL;
        ww = warps == 8 && wk == VIT__K_ATT_FULL ? 8 : 4;
    }
    expect(wk ? ran.kernel == wk : ran.kernel >= VIT__K_ATT_FMA, name, "kernel", ran.kernel, wk);
    if (causal) expect(ran.kernel != VIT__K_ATT_WGMMA, name, "kernel (not wgmma: no causal mask there)", ran.kernel, 0);
    if (half) expect(ww ? ran.warps == ww : ran.warps >= 1, name, "warps", ran.warps, ww);
    else expect(warps ? ran.warps >= 1 && ran.warps <= warps : ran.warps >= 1, name, "warps (at most)", ran.warps, warps);
    if (keep) *keep = got;
    else free(got);
    free(kv); free(q); free(ref); free(scratch); free(got2);
    dfree(dkv); dfree(dq); dfree(dout); dfree(dout2);
}

// every launch configuration: default, then fp32: CTAs of at most 1 to 8 warps;
// bf16/fp16: 1 and 4 warps per CTA streaming K/V tiles (16 and 32 query rows
// per warp), and the whole-K/V
// kernel with 4 and 8 warps and with 4 warps splitting the keys
// causal (a text tower's mask, self-attention): the mma.sync and fp32 kernels
// only (the wgmma kernel is never planned for it), each shape
template <typename T>
static void test_attention(vit_model *m, int B, int N, int C, int H, int nq = 0, int causal = 0) {
    test_attention_w<T>(m, B, N, C, H, 0, 0, nq, causal ? 2 : 0, causal); // causal: asking for wgmma still runs mma.sync
    int D = C / H;
    if (sizeof(T) == 2 && m->cuda->wgmma && !nq && !causal && (D == 64 || D == 128)) test_attention_w<T>(m, B, N, C, H, 0, 0, nq, 2); // sm_90a: wgmma + TMA
    if (sizeof(T) == 2 && m->cuda->wgmma && !nq && !causal && D == 64) { // and each of its shapes: 2 and 3 consumer warpgroups
        test_attention_w<T>(m, B, N, C, H, 0, 0, nq, 3);
        test_attention_w<T>(m, B, N, C, H, 0, 0, nq, 4);
    }
    if (sizeof(T) == 4) { // at most 1, 2, 4, 8 warps per CTA
        test_attention_w<T>(m, B, N, C, H, 1, 0, nq, 1, causal);
        test_attention_w<T>(m, B, N, C, H, 2, 0, nq, 1, causal);
        test_attention_w<T>(m, B, N, C, H, 4, 0, nq, 1, causal);
        test_attention_w<T>(m, B, N, C, H, 8, 0, nq, 1, causal);
    }
    if (sizeof(T) == 2) {
        test_attention_w<T>(m, B, N, C, H, 1, 1, nq, 1, causal);
        float *rows16 = NULL;
        unsigned long long data = rng_state; // the 32-row run on the same data: the same bits
        test_attention_w<T>(m, B, N, C, H, 4, 1, nq, 1, causal, 16, &rows16);
        rng_state = data;
        if (D <= 64) test_attention_w<T>(m, B, N, C, H, 4, 1, nq, 1, causal, 32, NULL, rows16);
        free(rows16);
        float *full16 = NULL;
        data = rng_state; // whole K/V, 4 warps of 32 rows: the bits of 16 rows
        test_attention_w<T>(m, B, N, C, H, 4, 2, nq, 1, causal, 16, &full16);
        rng_state = data;
        if (D <= 64) test_attention_w<T>(m, B, N, C, H, 4, 2, nq, 1, causal, 32, NULL, full16);
        free(full16);
        test_attention_w<T>(m, B, N, C, H, 8, 2, nq, 1, causal);
        test_attention_w<T>(m, B, N, C, H, 4, 3, nq, 1, causal);
    }
}

// ---- pool (+ fc_norm): heads planes of pooled prefix tokens, and with heads > 1 their mean
static void test_pool(vit_model *m, int B, int N, int C, vit_pool pool, int prefix, int fcn, int heads = 1) {
    if (!take_case()) return;
    size_t nx = (size_t)B * N * C, np = (size_t)(heads + (heads > 1)) * B * C;
    float *x = hrand(nx, 1.0f), *w = hrand((size_t)C, 1.0f), *b = hrand((size_t)C, 0.5f);
    float *ref = (float *)malloc(np * sizeof(float));
    vit__pool_cpu(ref, x, B, N, C, pool, prefix, heads, fcn ? w : NULL, fcn ? b : NULL, 1e-6f, cpu_threads);
    dbuf dx = dupload<float>(x, nx), dw = dupload<float>(w, (size_t)C), db = dupload<float>(b, (size_t)C), dout = dalloc(np * sizeof(float));
    vit_status st = vit__pool_cuda((float *)dout.p, (const float *)dx.p, B, N, C, pool, prefix, heads, fcn ? (const float *)dw.p : NULL,
                                   fcn ? (const float *)db.p : NULL, 1e-6f, m, 0);
    float *got = ddownload<float>(dout, np);
    char name[160];
    snprintf(name, sizeof(name), "pool %s B=%d N=%d C=%d prefix=%d heads=%d%s", pool == VIT_POOL_AVG ? "avg" : "token", B, N, C, prefix, heads, fcn ? " +fc_norm" : "");
    check(name, st, m, got, ref, np, 1e-5, 1e-5, guard_ok(dout));
    free(x); free(w); free(b); free(ref); free(got);
    dfree(dx); dfree(dw); dfree(db); dfree(dout);
}

// ---- head: the mean of heads heads' logits (DeiT distilled: 2)
template <typename T>
static void test_head(vit_model *m, int B, int C, int K, int heads = 1) {
    if (!take_case()) return;
    size_t CK = (size_t)C * K;
    float *p = hrand((size_t)heads * B * C, 1.0f), *w = hrand(heads * CK, 1.0f / sqrtf((float)C)), *b = hrand((size_t)heads * K, 0.5f);
    round_to<T>(w, heads * CK);
    size_t no = (size_t)B * K;
    float *ref = (float *)malloc(no * sizeof(float)), *wt = (float *)malloc(heads * CK * sizeof(float));
    vit__head_cpu(ref, p, w, b, B, C, K, heads, VIT__ISA_REFERENCE, cpu_threads);
    for (int h = 0; h < heads; h++) // (C, K) -> (K, C) per head, as vit__upload_all
        for (int c = 0; c < C; c++)
            for (int k = 0; k < K; k++) wt[h * CK + (size_t)k * C + c] = w[h * CK + (size_t)c * K + k];
    dbuf dp = dupload<float>(p, (size_t)heads * B * C), dw = dupload<T>(wt, heads * CK), db = dupload<float>(b, (size_t)heads * K), dout = dalloc(no * sizeof(float));
    vit_status st = vit__head_cuda<T>((float *)dout.p, (const float *)dp.p, (const T *)dw.p, (const float *)db.p, B, C, K, heads, m, 0);
    float *got = ddownload<float>(dout, no);
    char name[160];
    snprintf(name, sizeof(name), "head %s B=%d C=%d K=%d heads=%d", dname<T>(), B, C, K, heads);
    check(name, st, m, got, ref, no, 1e-5, 1e-5, guard_ok(dout)); // fp32 pooled, weights rounded on both sides
    free(p); free(w); free(wt); free(b); free(ref); free(got);
    dfree(dp); dfree(dw); dfree(db); dfree(dout);
}

template <typename T>
static void run_dtype(vit_model *m) {
    int half = sizeof(T) == 2;
    int paths[7] = {VIT__GEMM_AUTO, VIT__GEMM_MMA, VIT__GEMM_MMA64, VIT__GEMM_WGMMA128, VIT__GEMM_PP128, VIT__GEMM_WGMMA64, VIT__GEMM_PP192};
    int npaths = half ? (m->cuda->wgmma ? 7 : 3) : 1;
    const vit__out ST = VIT__OUT_STORE, RES = VIT__OUT_RESIDUAL;
    const vit__act NONE = VIT__ACT_NONE, GELU = VIT__ACT_GELU, TANH = VIT__ACT_GELU_TANH, QUICK = VIT__ACT_QUICK_GELU, GLU = VIT__ACT_SWIGLU;
    if (half && !m->cuda->wgmma) printf("SKIP linear %s wgmma: no sm_90a GPU/code here\n", dname<T>());
    // patch embedding: 0, 1, 2 and 5 prefix tokens, position rows over them or not
    test_patch<T>(m, 1, 3, 40, 8, 72, 1, 1);
    test_patch<T>(m, 3, 1, 28, 4, 36, 0, 0);
    test_patch<T>(m, 2, 3, 32, 8, 33, 1, 0);
    test_patch<T>(m, 2, 3, 32, 8, 64, 0, 0); // no class token
    test_patch<T>(m, 2, 3, 32, 8, 64, 2, 1); // class + distillation token
    test_patch<T>(m, 3, 3, 28, 14, 40, 5, 0); // class + 4 registers, pos over the patches only
    test_patch<T>(m, 2, 3, 21, 7, 40, 1, 0);  // an odd patch size: im2col one pixel at a time, K 147 padded to 152
    test_qk_norm<T>(m, 7, 72, 3);   // head size 24
    test_qk_norm<T>(m, 197, 768, 12); // ViT-B
    test_qk_norm<T>(m, 5, 256, 2);  // head size 128
    test_qk_norm<T>(m, 3, 40, 5);   // head size 8
    test_patch<T>(m, 2, 3, 24, 8, 40, 1, 0, 40); // non-square 24 x 40
    test_patch<T>(m, 1, 3, 32, 8, 64, 0, 0, 16); // non-square, taller than wide, no prefix
    test_patch<T>(m, 2, 1, 28, 4, 36, 5, 0, 20); // one channel, 7 x 5 patches, 5 prefix tokens
    if (!small_only) {
        test_patch<T>(m, 3, 3, 224, 16, 768, 1, 1);
        test_patch<T>(m, 1, 3, 224, 16, 768, 1, 1); // ViT-B/16 at batch 1
        test_patch<T>(m, 1, 3, 224, 14, 384, 5, 0); // DINOv2-S/14 with 4 registers at 224, batch 1
        test_patch<T>(m, 2, 3, 448, 14, 384, 5, 0, 224); // and at 448 x 224
        test_patch<T>(m, 2, 3, 192, 32, 768, 1, 0, 320); // CLIP B/32 at 192 x 320 (no patch bias in CLIP: a bias here anyway)
        test_patch<T>(m, 32, 3, 224, 16, 768, 1, 1);     // batches whose patch GEMM is not split: its sums in scratch
        test_patch<T>(m, 24, 3, 224, 14, 384, 5, 0);
    }
    // layernorm (compute-dtype output, as before qkv and fc1)
    test_layernorm<T>(m, 50, 33, 33, 0);
    test_layernorm<T>(m, 197, 132, 132, 0);
    test_layernorm<T>(m, 3, 1280, 1280, 0);
    if (!small_only) test_layernorm<T>(m, 591, 768, 768, 0);
    // linear: every kernel on every shape, every activation
    for (int pi = 0; pi < npaths; pi++) {
        int p = paths[pi];
        test_linear<T>(m, 50, 33, 99, ST, NONE, 0, p);        // K, N not multiples of 8: scalar loads
        test_linear<T>(m, 197, 132, 528, ST, GELU, 0, p);     // K % 8 = 4
        test_linear<T>(m, 1, 33, 33, RES, NONE, 1, p);
        test_linear<T>(m, 3, 64, 40, ST, NONE, 0, p);         // N tail inside one tile
        test_linear<T>(m, 150, 96, 200, ST, GELU, 0, p);      // K < 64, M and N tails
        test_linear<T>(m, 197, 136, 132, RES, NONE, 0, p);    // N % 8 = 4: no TMA
        test_linear<T>(m, 100, 264, 392, RES, NONE, 1, p);    // K tail of a 64-wide step
        test_linear<T>(m, 64, 512, 64, RES, NONE, 0, p);      // split-K on the small tiles
        test_linear<T>(m, 150, 96, 200, ST, TANH, 0, p);
        test_linear<T>(m, 197, 136, 264, ST, QUICK, 0, p);
        test_linear<T>(m, 100, 264, 392, ST, GLU, 0, p);      // 196 outputs: N / 2 % 8 = 4
        test_linear<T>(m, 3, 64, 40, ST, GLU, 0, p);          // one tile, 20 outputs
        test_linear<T>(m, 50, 33, 98, ST, GLU, 0, p);         // scalar loads, 49 outputs
        if (!small_only) {
            test_linear<T>(m, 591, 768, 2304, ST, NONE, 0, p);
            test_linear<T>(m, 591, 768, 3072, ST, GELU, 0, p);
            test_linear<T>(m, 591, 3072, 768, RES, NONE, 1, p);
            test_linear<T>(m, 591, 768, 768, RES, NONE, 0, p);
            test_linear<T>(m, 394, 192, 576, ST, NONE, 0, p); // ViT-Ti qkv, batch 2
            test_linear<T>(m, 197, 3072, 768, RES, NONE, 1, p); // ViT-B fc2 at batch 1: split-K
            test_linear<T>(m, 591, 768, 3072, ST, TANH, 0, p);
            test_linear<T>(m, 591, 768, 3072, ST, QUICK, 0, p);
            test_linear<T>(m, 1370, 384, 2048, ST, GLU, 0, p); // DINOv2-S/14 at 518 with SwiGLU (hidden 1024)
            // more tiles than CTAs: the persistent kernels' later tiles, ring phases
            // wrapping, both ping-pong consumers busy (K = 128: fewer k-steps than stages)
            test_linear<T>(m, 6000, 320, 1024, ST, GELU, 0, p);
            test_linear<T>(m, 6000, 128, 512, ST, NONE, 0, p);
            test_linear<T>(m, 5000, 512, 776, RES, NONE, 1, p);
            test_linear<T>(m, 6000, 320, 1024, ST, GLU, 0, p);
            // enough tiles for the 128 x 192 ping-pong tiles by choice (test_wg_policy)
            test_linear<T>(m, 8000, 768, 2304, ST, NONE, 0, p);
            test_linear<T>(m, 20000, 3072, 768, RES, NONE, 1, p);
        }
    }
    test_linear_refusals<T>(m);
    // split-K forced on every output mode and activation (its reduction kernel), odd
    // slice counts and K tails (fp32: the FMA kernel's slices whatever the path)
    {
        int splits[3] = {2, 3, 8};
        for (int si = 0; si < 3; si++) {
            test_linear<T>(m, 50, 33, 99, ST, NONE, 0, VIT__GEMM_MMA64, splits[si]);
            test_linear<T>(m, 197, 136, 132, ST, GELU, 0, VIT__GEMM_MMA64, splits[si]);
            test_linear<T>(m, 100, 264, 392, RES, NONE, 1, VIT__GEMM_MMA, splits[si]);
            test_linear<T>(m, 3, 300, 40, RES, NONE, 0, VIT__GEMM_MMA64, splits[si]);
            test_linear<T>(m, 197, 136, 132, ST, GLU, 0, VIT__GEMM_MMA64, splits[si]);
            test_linear<T>(m, 50, 264, 98, ST, QUICK, 0, VIT__GEMM_MMA, splits[si]);
            if (half && m->cuda->wgmma) { // the wgmma kernel's (tile, slice) items, slices cut to divide K's steps
                test_linear<T>(m, 197, 512, 264, ST, GELU, 0, VIT__GEMM_WGMMA128, splits[si]);
                test_linear<T>(m, 100, 768, 392, RES, NONE, 1, VIT__GEMM_WGMMA128, splits[si]);
                test_linear<T>(m, 3, 1024, 40, ST, NONE, 0, VIT__GEMM_PP128, splits[si]);
                test_linear<T>(m, 3, 1024, 40, ST, GELU, 0, VIT__GEMM_PP128, splits[si]); // the deep ring's one box, fp32 slices
                test_linear<T>(m, 3, 1024, 40, ST, NONE, 0, VIT__GEMM_PP192, splits[si]);
                test_linear<T>(m, 100, 1536, 392, RES, NONE, 1, VIT__GEMM_PP192, splits[si]); // 128 x 192: six fp32 boxes a block
                test_linear<T>(m, 197, 3072, 136, RES, NONE, 1, VIT__GEMM_WGMMA64, splits[si]);
                test_linear<T>(m, 197, 512, 264, ST, GLU, 0, VIT__GEMM_WGMMA64, splits[si]);
                test_linear<T>(m, 100, 768, 392, ST, TANH, 0, VIT__GEMM_WGMMA128, splits[si]);
            }
        }
        if (!small_only) {
            test_linear<T>(m, 197, 768, 2304, ST, NONE, 0, VIT__GEMM_AUTO, half ? 2 : 0); // ViT-B qkv / fc1 at batch 1, split
            test_linear<T>(m, 197, 768, 3072, ST, GELU, 0, VIT__GEMM_AUTO, half ? 2 : 0);
        }
    }
    // the residual GEMM + LayerNorm pair (split: the reduction inside the LayerNorm)
    test_linear_ln<T, T>(m, 1, 33, 33, 1, 0);
    test_linear_ln<T, T>(m, 64, 512, 64, 0, 0);
    test_linear_ln<T, T>(m, 3, 300, 40, 1, 3);
    test_linear_ln<T, T>(m, 7, 1024, 1100, 1, 4); // C > 1024: the three-pass rows
    if (!small_only) {
        test_linear_ln<T, T>(m, 197, 3072, 768, 1, 0); // ViT-B fc2 + ln1 at batch 1
        test_linear_ln<T, T>(m, 197, 768, 768, 0, 0);  // ViT-B proj + ln2 at batch 1
        test_linear_ln<T, T>(m, 591, 3072, 768, 0, 0); // batch 3
        test_linear_ln<T, T>(m, 1576, 768, 768, 1, 0); // batch 8: no split
    }
    // a bf16 residual stream (vit_options.residual_dtype): the GEMMs' residual
    // epilogues into bf16 x (TMA reduction, mma.sync, split-K reduction), the
    // LayerNorm kernel's reads, and its split-K residual step writing bf16 x
    if (vit__is_bf16<T>::value) {
        int rpaths[6] = {VIT__GEMM_MMA, VIT__GEMM_MMA64, VIT__GEMM_WGMMA128, VIT__GEMM_PP128, VIT__GEMM_WGMMA64, VIT__GEMM_PP192};
        for (int pi = 0; pi < 6; pi++) {
            if (pi >= 2 && !m->cuda->wgmma) break;
            test_linear<T>(m, 1, 33, 33, RES, NONE, 1, rpaths[pi], 0, 1);
            if (!small_only) test_linear<T>(m, 591, 3072, 768, RES, NONE, 1, rpaths[pi], 0, 1); // ViT-B fc2 (K 3072: the deep ring's one box)
            test_linear<T>(m, 197, 136, 132, RES, NONE, 0, rpaths[pi], 0, 1); // N % 8 = 4: no TMA
            test_linear<T>(m, 100, 264, 392, RES, NONE, 1, rpaths[pi], 0, 1);
            test_linear<T>(m, 100, 768, 392, RES, NONE, 1, rpaths[pi], 3, 1); // split-K: the reduction kernel
            if (!small_only) test_linear<T>(m, 5000, 512, 776, RES, NONE, 1, rpaths[pi], 0, 1);
        }
        test_linear_ln<T, T, T>(m, 1, 33, 33, 1, 0);
        test_linear_ln<T, T, T>(m, 64, 512, 64, 0, 0);
        test_linear_ln<T, T, T>(m, 3, 300, 40, 1, 3);
        test_linear_ln<T, T, T>(m, 7, 1024, 1100, 1, 4); // C > 1024: the three-pass rows
        test_linear_ln<T, T, T>(m, 40, 256, 1100, 0, 1); // and without a split
        test_linear_ln<T, T, T>(m, 50, 64, 33, 0, 2);    // C % 4 != 0: the one-element-per-lane rows finishing the split
        test_linear_ln<T, float, T>(m, 150, 96, 40, 1, 3, 50);
        test_linear_ln<T, float, T>(m, 50, 64, 33, 0, 2, 50);
        if (!small_only) {
            test_linear_ln<T, T, T>(m, 197, 3072, 768, 1, 0); // ViT-B fc2 + ln1 at batch 1: split
            test_linear_ln<T, T, T>(m, 1576, 768, 768, 1, 0); // batch 8: no split
            test_linear_ln<T, float, T>(m, 591, 3072, 768, 0, 0, 197);
        }
        test_layernorm<T, T>(m, 50, 33, 33, 0);
        test_layernorm<T, T>(m, 197, 132, 132, 0);
        test_layernorm<float, T>(m, 3, 768, (size_t)197 * 768, 2);
        test_layernorm<T, T>(m, 3, 1280, 1280, 0);
    }
    // the last block's fc2 + the final norm of the class tokens into fp32 pooled rows
    test_linear_ln<T, float>(m, 150, 96, 40, 1, 3, 50);
    test_linear_ln<T, float>(m, 50, 64, 33, 0, 2, 50);
    if (!small_only) {
        test_linear_ln<T, float>(m, 197, 3072, 768, 1, 0, 197); // ViT-B at batch 1: split
        test_linear_ln<T, float>(m, 591, 3072, 768, 0, 0, 197);
    }
    // attention
    test_attention<T>(m, 1, 50, 33, 3);   // head size 11
    test_attention<T>(m, 1, 1, 33, 1);    // N = 1, head size 33
    test_attention<T>(m, 3, 50, 132, 4);  // head size 33
    test_attention<T>(m, 1, 197, 132, 2); // head size 66
    test_attention<T>(m, 2, 50, 64, 4);   // head size 16
    test_attention<T>(m, 3, 65, 96, 1);   // head size 96
    test_attention<T>(m, 3, 50, 132, 4, 3); // cross: 3 shared queries, head size 33
    test_attention<T>(m, 2, 300, 64, 1, 1); // cross: 1 query, keys past the whole-K/V limit
    test_attention<T>(m, 2, 50, 128, 2);    // head size 64 (sm_90a: the wgmma kernel too): one query warpgroup of two, one key tile
    test_attention<T>(m, 2, 257, 64, 1);    // a key tile of one key (--small: under compute-sanitizer)
    test_attention<T>(m, 3, 77, 128, 2, 0, 1);  // causal: CLIP's text tower (77 tokens, head size 64)
    test_attention<T>(m, 2, 150, 96, 3, 0, 1);  // causal over three key tiles, head size 32
    test_attention<T>(m, 1, 300, 64, 1, 0, 1);  // causal past the whole-K/V limit: the streaming kernel
    test_attention<T>(m, 1, 226, 768, 12);  // ViT-B/16 at 240 px, batch 1: keys split takes 105 KB (--smem 99: whole K/V)
    test_attention<T>(m, 1, 256, 1152, 16); // SigLIP so400m at 224 px: head size 72 padded to 128 (--smem 99/163: whole K/V, streamed)
    if (!small_only) {
        test_attention<T>(m, 3, 197, 768, 12); // ViT-B
        test_attention<T>(m, 1, 197, 256, 2);  // head size 128
        test_attention<T>(m, 3, 197, 384, 6);  // ViT-S
        test_attention<T>(m, 1, 300, 128, 2);  // N past the whole-K/V kernel's limit
        test_attention<T>(m, 1, 577, 768, 12); // ViT-B/16 at 384
        test_attention<T>(m, 1, 1370, 384, 6); // DINOv2-S/14 at 518 (1369 patches + class token)
        test_attention<T>(m, 1, 1500, 256, 2); // head size 128, N = 1500
        test_attention<T>(m, 2, 1, 256, 2);    // head size 128, one token
        test_attention<T>(m, 1, 65, 256, 2);   // head size 128: the second warpgroup's one row
        test_attention<T>(m, 1, 4096, 128, 2); // long: 32 key tiles, the ring of stages many times over
        // the wgmma kernel's last key tile after a full one: 80 wide (64 keys; head size 128, 80 keys), 128 wide (81 keys)
        test_attention<T>(m, 1, 192, 128, 2);
        test_attention<T>(m, 1, 208, 256, 2);
        test_attention<T>(m, 1, 209, 128, 2);
        test_attention<T>(m, 8, 197, 768, 12); // more work items than SMs: CTAs take several, both ways round
        test_attention<T>(m, 4, 729, 1152, 16, 1); // SigLIP-so400m's attention-pooling head: 1 latent, 729 keys, head size 72
        test_attention<T>(m, 2, 197, 768, 12, 4);  // 4 latents against ViT-B tokens
    }
    // head
    test_head<T>(m, 1, 33, 10);
    test_head<T>(m, 3, 132, 7);
    test_head<T>(m, 2, 1280, 50); // fp32: more weights than a lane keeps in registers
    test_head<T>(m, 3, 64, 10, 2); // two heads (DeiT distilled)
    test_head<T>(m, 9, 33, 5, 2);
    if (!small_only) {
        test_head<T>(m, 17, 768, 1000);
        test_head<T>(m, 17, 768, 1000, 2);
    }
}

// ---- e4m3 (VIT_DTYPE_FP8)
// A linear's input rows to e4m3 on the GPU: the bytes and scales of
// vit__e4m3_rows on the same (T-rounded) input, exactly; a zero row (scale 1),
// a row of tiny values (subnormal codes after scaling) with a NaN (ignored by
// the largest magnitude, its own code 0x7F) included. blocks: scaled per row
// and 128 columns (fc2's input after SwiGLU). Per row, also the rows' norms
// (fc1's bound, vit__e4m3_row_norm of the same values) within 1e-5.
template <typename T>
static void test_e4m3_rows(vit_model *m, int rows, int K, int blocks = 0) {
    if (!take_case()) return;
    size_t n = (size_t)rows * K, ns = (size_t)rows * (blocks ? (K + 127) / 128 : 1);
    float *x = hrand(n, 3.0f), *q = (float *)malloc(n * 4 + 4), *sx = (float *)malloc(ns * 4 + 4);
    for (int k = 0; k < K; k++) x[k] = 0.0f;                          // row 0: zeros (scale 1)
    if (rows > 2) { for (int k = 0; k < K; k++) x[(size_t)2 * K + k] *= 1e-6f; x[(size_t)2 * K + 5] = NAN; } // tiny values, one NaN
    round_to<T>(x, n);
    vit__e4m3_rows(q, sx, x, rows, K, blocks, cpu_threads);
    dbuf dx = dupload<T>(x, n), dq = dalloc(n), ds = dalloc(ns * 4), dn = dalloc((size_t)rows * 4);
    float *nref = (float *)malloc((size_t)rows * 4 + 4);
    for (int r = 0; r < rows; r++) nref[r] = vit__e4m3_row_norm(q + (size_t)r * K, K, sx[r]);
    for (int walk = 1; walk >= 0; walk--) { // rows first to last, then last to first (vit__walk)
        cudaMemset(dq.p, 0xFF, n); cudaMemset(ds.p, 0xFF, ns * 4); cudaMemset(dn.p, 0xFF, (size_t)rows * 4);
        m->cuda->walk = walk;
        vit_status st = vit__e4m3_rows_cuda<T>((unsigned char *)dq.p, (float *)ds.p, (const T *)dx.p, rows, K, m, 0, blocks, blocks ? NULL : (float *)dn.p);
        cudaError_t e = cudaDeviceSynchronize();
        unsigned char *gq = (unsigned char *)malloc(n + 1);
        float *gs = (float *)malloc(ns * 4 + 4);
        cudaMemcpy(gq, dq.p, n, cudaMemcpyDeviceToHost);
        cudaMemcpy(gs, ds.p, ns * 4, cudaMemcpyDeviceToHost);
        size_t bad = 0, first = 0;
        for (size_t i = 0; i < n; i++) {
            float g = vit__e4m3_value(gq[i]);
            if (memcmp(&g, &q[i], 4) && !(g != g && q[i] != q[i])) { if (!bad) first = i; bad++; }
        }
        int sbad = memcmp(gs, sx, ns * 4) != 0, nbad = 0;
        float *gn = (float *)malloc((size_t)rows * 4 + 4);
        cudaMemcpy(gn, dn.p, (size_t)rows * 4, cudaMemcpyDeviceToHost);
        for (int r = 0; r < rows && !blocks; r++) // (the NaN row: NaN both)
            if (!(fabsf(gn[r] - nref[r]) <= 1e-5f * nref[r]) && !(gn[r] != gn[r] && nref[r] != nref[r])) nbad++;
        free(gn);
        int ok = st == VIT_OK && e == cudaSuccess && !bad && !sbad && !nbad && guard_ok(dq) && guard_ok(ds) && guard_ok(dn);
        printf("%s e4m3 rows %s %dx%d%s, rows %s: bytes and scales those of vit__e4m3_rows%s", ok ? "OK" : "NOT OK", dname<T>(), rows, K,
               blocks ? " per 128 columns" : "", walk ? "first to last" : "last to first", blocks ? "" : ", norms within 1e-5");
        if (nbad) printf(", %d norms off", nbad);
        if (st != VIT_OK || e != cudaSuccess) printf(" (%s %s)", vit_status_string(st), e != cudaSuccess ? cudaGetErrorString(e) : vit_last_error(m));
        if (bad) printf(", %zu differ, first [%zu] gpu %g cpu %g", bad, first, vit__e4m3_value(gq[first]), q[first]);
        if (sbad) printf(", scales differ");
        printf("\n");
        if (ok) passed++; else failed++;
        free(gq); free(gs);
    }
    free(x); free(q); free(sx); free(nref);
    dfree(dx); dfree(dq); dfree(ds); dfree(dn);
}

// The e4m3 GEMM (bf16 out): x rounded per row on the GPU (vit__e4m3_rows_cuda),
// w per column as vit__e4m3_cols rounds it, against the CPU e4m3 reference
// (exact products, fp32 sums, vit__e4m3_epilogue): bf16 outputs within bf16's
// tolerance (1e-2), fp32 residual outputs within 5e-3: Hopper's e4m3 wgmma
// adds its products with about 14 bits of precision rather than fp32's 24
// (the DeepSeek-V3 report, 3.3.2, measured the same), which at K = 3072
// moves a sum by up to ~1.5e-3 of the largest output (H100, this test).
// path and splitk forced as test_linear's; a mma.sync path must be refused.
// qmode E4M3_BLOCKS (fc2 of fp8 after SwiGLU): x scaled per row and 128 columns (the rows
// kernel's blocks; the CPU's e4m3 values times their scales), taken into the
// sums per K step: residual GEMMs on cooperative 128- (or forced 64-) column
// tiles, any other forced path too; stored outputs refused. qmode E4M3_OUT
// (fc1 of fp8): the outputs in e4m3 with a scale per row from the bound
// (vit__e4m3_bound_scale of x's row norms, w's column norms and the bias):
// the scales exactly the CPU's (from the CPU's row norms: the GPU's are
// tested with the LayerNorm and rows kernels), each value times its scale
// within e4m3's rounding (1/16) of the CPU's fp32 one, none saturated (at
// 448; row 0 is w's largest column times 5, where the bound is tight); never
// split; SwiGLU refused.
enum { E4M3_ROWS, E4M3_BLOCKS, E4M3_OUT };
static void test_linear_e4m3(vit_model *m, int rows, int in, int out, vit__out mode, vit__act act, int layer_scale, int path, int splitk = 0,
                             int res16 = 0, int qmode = E4M3_ROWS) {
    if (!take_case()) return;
    typedef __nv_bfloat16 T;
    int glu = act == VIT__ACT_SWIGLU, outw = glu ? out / 2 : out, res = mode == VIT__OUT_RESIDUAL && !res16; // res: an fp32 output
    int blocks = qmode == E4M3_BLOCKS, ngx = blocks ? (in + 127) / 128 : 1, e8 = qmode == E4M3_OUT;
    size_t nx = (size_t)rows * in, nw = (size_t)in * out, no = (size_t)rows * outw;
    float *x = hrand(nx, 1.0f), *w = hrand(nw, 1.0f / sqrtf((float)in)), *b = hrand((size_t)out, 0.5f), *ls = layer_scale ? hrand((size_t)outw, 1.0f) : NULL;
    float *ref = hrand(no, 1.0f), *xq = (float *)malloc(nx * 4 + 4), *sx = (float *)malloc((size_t)rows * ngx * 4 + 4), *sw = (float *)malloc((size_t)out * 4 + 4);
    if (res16) round_to<T>(ref, no); // (res16: the residual in bf16, a bf16 residual stream)
    float *acc = (float *)malloc((size_t)rows * out * 4 + 4), *wq = (float *)malloc(nw * 4 + 4);
    unsigned char *wb = (unsigned char *)malloc(nw + 1);
    memcpy(wq, w, nw * 4);
    vit__e4m3_cols(wq, sw, in, out);
    for (int o = 0; o < out; o++) { // device (out, in) bytes of the same values
        float mx = 0.0f;
        for (int k = 0; k < in; k++) mx = fabsf(w[(size_t)k * out + o]) > mx ? fabsf(w[(size_t)k * out + o]) : mx;
        float inv = mx > 0.0f ? 448.0f / mx : 1.0f;
        for (int k = 0; k < in; k++) wb[(size_t)o * in + k] = vit__e4m3(w[(size_t)k * out + o] * inv);
    }
    if (e8) tight_row(x, w, wq, sw, in, out); // where the bound is tight: no value may saturate still
    dbuf dx = dupload<float>(x, nx), dq = dalloc(nx), dsx = dalloc((size_t)rows * ngx * 4), dw = dalloc(nw), dsw = dupload<float>(sw, (size_t)out);
    dbuf db = dupload<float>(b, (size_t)out), dls = ls ? dupload<float>(ls, (size_t)outw) : dbuf{NULL, 0};
    dbuf dout = res ? dupload<float>(ref, no) : res16 ? dupload<T>(ref, no) : e8 ? dalloc(no) : dalloc(no * sizeof(T));
    dbuf dso = e8 ? dalloc((size_t)rows * 4) : dbuf{NULL, 0}, dxn = dbuf{NULL, 0};
    cudaMemcpy(dw.p, wb, nw, cudaMemcpyHostToDevice);
    vit__e4m3_rows(xq, sx, x, rows, in, blocks, cpu_threads);
    if (blocks)
        for (int r = 0; r < rows; r++)
            for (int k = 0; k < in; k++) xq[(size_t)r * in + k] *= sx[(size_t)r * ngx + k / 128];
    vit__linear_cpu(acc, xq, wq, NULL, rows, in, out, VIT__OUT_STORE, VIT__ACT_NONE, NULL, cpu_threads);
    vit__e4m3_epilogue(ref, acc, blocks ? NULL : sx, sw, b, rows, out, mode, act, ls, cpu_threads);
    if (res16) round_to<T>(ref, no);
    float *xn = (float *)malloc((size_t)rows * 4 + 4), bw = vit__e4m3_bound_w(wq, sw, in, out), bb = vit__abs_max(b, (size_t)out);
    for (int r = 0; r < rows; r++) xn[r] = vit__e4m3_row_norm(xq + (size_t)r * in, in, sx[r]);
    if (e8) dxn = dupload<float>(xn, (size_t)rows);
    vit__test_hook *f = force();
    f->gemm = path;
    f->splitk = splitk;
    vit__e4m3_ops ops = {(const unsigned char *)dq.p, (const float *)dsx.p, (const unsigned char *)dw.p, (const float *)dsw.p, blocks,
                         e8 ? (unsigned char *)dout.p : NULL, (float *)dso.p, (const float *)dxn.p, bw, bb};
    if (e8) cudaMemset(dso.p, 0xFF, (size_t)rows * 4);
    static int flip;
    m->cuda->walk = flip ^= 1; // the cases take turns starting each way (vit__walk)
    vit_status st = vit__e4m3_rows_cuda<float>((unsigned char *)dq.p, (float *)dsx.p, (const float *)dx.p, rows, in, m, 0, blocks);
    if (st == VIT_OK)
        st = vit__linear_cuda<T>(dout.p, NULL, NULL, (const float *)db.p, rows, in, out, mode, act, (const float *)dls.p, m, 0, &ops, res16);
    vit__plan ran = f->ran;
    cudaDeviceSynchronize();
    char name[200];
    snprintf(name, sizeof(name), "linear e4m3%s->%s %s %dx%d->%d %s%s split %d", blocks ? " (x per 128 columns)" : "", e8 ? "e4m3" : "bf16", gemm_name(ran.kernel),
             rows, in, out, res16 ? (layer_scale ? "bias+bf16 residual*ls" : "bias+bf16 residual") : res ? (layer_scale ? "bias+residual*ls" : "bias+residual") : "bias",
             act_name(act), ran.split);
    if (path == VIT__GEMM_MMA || path == VIT__GEMM_MMA64 || (blocks && mode != VIT__OUT_RESIDUAL) || (e8 && glu)) {
        int ok = st == VIT_ERROR_UNSUPPORTED && cudaGetLastError() == cudaSuccess;
        printf("%s %s: refused (%s)\n", ok ? "OK" : "NOT OK", name, vit_status_string(st));
        if (ok) passed++; else failed++;
    } else if (e8) {
        unsigned char *gq = (unsigned char *)malloc(no + 1);
        float *gs = ddownload<float>(dso, (size_t)rows), *got = (float *)malloc(no * 4 + 4), *sref = (float *)malloc((size_t)rows * 4 + 4);
        cudaMemcpy(gq, dout.p, no, cudaMemcpyDeviceToHost);
        size_t sat = 0;
        for (size_t i = 0; i < no; i++) { got[i] = vit__e4m3_value(gq[i]) * gs[i / out]; sat += (gq[i] & 0x7F) == 0x7E; }
        check(name, st, m, got, ref, no, 2e-2, 6.5e-2, guard_ok(dout) && guard_ok(dso));
        for (int r = 0; r < rows; r++) sref[r] = vit__e4m3_bound_scale(xn[r], bw, bb);
        char sname[240];
        snprintf(sname, sizeof(sname), "%s, scales (the CPU's exactly)", name);
        check(sname, st, m, gs, sref, (size_t)rows, 0.0, 0.0, 1);
        if (sat) { printf("NOT OK %s: %zu values saturated at 448\n", name, sat); failed++; }
        int want = path == VIT__GEMM_PP128 ? VIT__K_PP128 : path == VIT__GEMM_PP192 ? VIT__K_PP192 : VIT__K_WG128; // (PP192: three 64-byte boxes a block)
        if (path == VIT__GEMM_AUTO) { // the policy's tile (test_wg_policy checks the policy), never 128 x 64
            vit__plan p = vit__plan_wgmma(m->cuda, rows, out, in, VIT__WG_BK(__nv_fp8_e4m3), VIT__OUT_E4M3, 0);
            want = p.kernel == VIT__K_WG64 ? VIT__K_WG128 : p.kernel;
        }
        expect(ran.kernel == want, name, "kernel", ran.kernel, want);
        expect(ran.split == 1, name, "split", ran.split, 1);
        free(gq); free(gs); free(got); free(sref);
    } else {
        float *got = res ? ddownload<float>(dout, no) : ddownload<T>(dout, no);
        check(name, st, m, got, ref, no, res ? 5e-3 : 1e-2, res ? 5e-3 : 1e-2, guard_ok(dout));
        int wk = path ? want_gemm(m, 1, path, rows, out, in) : 0;
        if (blocks) wk = path == VIT__GEMM_WGMMA64 ? VIT__K_WG64 : path ? VIT__K_WG128 : 0;
        expect(wk ? ran.kernel == wk : is_wgmma(ran.kernel), name, "kernel", ran.kernel, wk);
        if (splitk >= 2) {
            int KB = (in + 127) / 128, want = splitk > VIT__SPLITK_MAX ? VIT__SPLITK_MAX : splitk;
            while (want > 1 && (KB % want || (size_t)want * rows * out > m->cuda->part_floats || (blocks && KB / want < 2))) want--;
            expect(ran.split == want, name, "split", ran.split, want);
        }
        free(got);
    }
    free(x); free(w); free(b); free(ls); free(ref); free(xq); free(sx); free(sw); free(acc); free(wq); free(wb); free(xn);
    dfree(dx); dfree(dq); dfree(dsx); dfree(dw); dfree(dsw); dfree(db); dfree(dout);
    if (dls.p) dfree(dls);
    if (dso.p) dfree(dso);
    if (dxn.p) dfree(dxn);
}

// The LayerNorm with its rows out in e4m3 (VIT_DTYPE_FP8's ln1/ln2: the
// normalised fp32 row rounded in the kernel; C > 1024: written in bf16 and
// rounded by vit__e4m3_rows_cuda), plain and after a split-K residual GEMM
// (vit__linear_ln_cuda's reduction inside the LayerNorm), against
// vit__layernorm_cpu + vit__e4m3_rows: the GPU's row sums run in another order,
// so a code may be its neighbour (never further; at most 1% of them, 5% via
// bf16), scales within 1e-5 (4e-3 via bf16); the rows' norms within 1e-5 of
// vit__e4m3_row_norm on the GPU's own codes and scales.
static void test_layernorm_e4m3(vit_model *m, int rows, int C, int splitk) {
    if (!take_case()) return;
    typedef __nv_bfloat16 T;
    size_t n = (size_t)rows * C;
    float *x = hrand(n, 2.0f), *w = hrand((size_t)C, 1.0f), *b = hrand((size_t)C, 0.5f), *ref = (float *)malloc(n * 4 + 4);
    float *q = (float *)malloc(n * 4 + 4), *sx = (float *)malloc((size_t)rows * 4 + 4);
    for (size_t i = 0; i < n; i++) x[i] += 0.7f;
    int in = splitk > 1 ? 256 : 64; // forced slices need K steps to cut (bf16 wgmma: 64 wide)
    float *a = hrand((size_t)rows * in, 1.0f), *wg = hrand((size_t)in * C, 0.1f);
    round_to<T>(a, (size_t)rows * in);
    round_to<T>(wg, (size_t)in * C);
    dbuf dx = dupload<float>(x, n), dw = dupload<float>(w, (size_t)C), db = dupload<float>(b, (size_t)C), dout = dalloc(n * sizeof(T));
    dbuf dq = dalloc(n), ds = dalloc((size_t)rows * 4), da = dupload<T>(a, (size_t)rows * in), dwg = dupload_linear<T>(wg, in, C);
    dbuf dn = dalloc((size_t)rows * 4);
    cudaMemset(dn.p, 0xFF, (size_t)rows * 4);
    vit__ln_e4m3 lq = {(unsigned char *)dq.p, (float *)ds.p, (float *)dn.p};
    vit_status st;
    vit__test_hook *f = force();
    static int flip;
    m->cuda->walk = flip ^= 1; // the cases take turns starting each way (vit__walk)
    if (splitk) { // x += a wg (no bias, no scale), then the LayerNorm, as the forward's proj + ln2
        f->splitk = splitk;
        vit__linear_cpu(x, a, wg, NULL, rows, in, C, VIT__OUT_RESIDUAL, VIT__ACT_NONE, NULL, cpu_threads);
        st = vit__linear_ln_cuda<T, T>((T *)dout.p, (float *)dx.p, (const T *)da.p, (const T *)dwg.p, NULL, NULL, rows, in, C, (const float *)dw.p,
                                       (const float *)db.p, 1e-6f, 1, m, 0, NULL, &lq);
    } else {
        st = vit__layernorm_cuda<T>((T *)dout.p, (const float *)dx.p, (const float *)dw.p, (const float *)db.p, rows, C, (size_t)C, (size_t)C, 1e-6f, m, 0, &lq);
    }
    vit__plan ran = f->ran;
    cudaError_t e = cudaDeviceSynchronize();
    vit__layernorm_cpu(ref, x, w, b, rows, C, (size_t)C, 1e-6f, cpu_threads);
    vit__e4m3_rows(q, sx, ref, rows, C, 0, cpu_threads);
    unsigned char *gq = (unsigned char *)malloc(n + 1);
    float *gs = (float *)malloc((size_t)rows * 4 + 4);
    cudaMemcpy(gq, dq.p, n, cudaMemcpyDeviceToHost);
    cudaMemcpy(gs, ds.p, (size_t)rows * 4, cudaMemcpyDeviceToHost);
    size_t far = 0, near = 0, sbad = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = vit__e4m3(q[i] * 1.0f); // q holds e4m3 values: their code
        int dc = (int)(gq[i] & 0x7F) - (int)(c & 0x7F);
        if (gq[i] == c) continue;
        if ((gq[i] & 0x80) == (c & 0x80) && (dc == 1 || dc == -1)) near++;
        else if (!((gq[i] & 0x7F) == 0 && (c & 0x7F) <= 1) && !((c & 0x7F) == 0 && (gq[i] & 0x7F) <= 1)) far++; // +-0 and the smallest subnormal: neighbours
    }
    // C > 1024 rounds the bf16 rows: its largest magnitude is bf16's (scales within 2^-8) and more codes move
    int via_bf16 = C > 1024;
    for (int r = 0; r < rows; r++) if (!(fabs(gs[r] - sx[r]) <= (via_bf16 ? 4e-3 : 1e-5) * fabs(sx[r]))) sbad++;
    float *gn = ddownload<float>(dn, (size_t)rows), *gv = (float *)malloc((size_t)C * 4 + 4);
    size_t nbad = 0;
    for (int r = 0; r < rows; r++) {
        for (int c = 0; c < C; c++) gv[c] = vit__e4m3_value(gq[(size_t)r * C + c]);
        float want = vit__e4m3_row_norm(gv, C, gs[r]);
        if (!(fabsf(gn[r] - want) <= 1e-5f * want)) nbad++;
    }
    free(gn); free(gv);
    sbad += nbad;
    int ok = st == VIT_OK && e == cudaSuccess && !far && !sbad && near * (via_bf16 ? 20 : 100) <= n && guard_ok(dq) && guard_ok(ds) && guard_ok(dn) &&
             (splitk <= 1 || ran.split > 1); // a forced split must split (the reduction inside the LayerNorm is what is tested)
    printf("%s layernorm -> e4m3 rows=%d C=%d%s: %zu of %zu codes the neighbour of the CPU's, %zu further, %zu scales or norms off%s%s\n", ok ? "OK" : "NOT OK", rows,
           C, splitk ? (ran.split > 1 ? " after a split-K residual GEMM" : " after a residual GEMM") : "", near, n, far, sbad, st != VIT_OK ? ": " : "",
           st != VIT_OK ? vit_last_error(m) : "");
    if (ok) passed++; else failed++;
    free(x); free(w); free(b); free(ref); free(q); free(sx); free(a); free(wg); free(gq); free(gs);
    dfree(dx); dfree(dw); dfree(db); dfree(dout); dfree(dq); dfree(ds); dfree(da); dfree(dwg); dfree(dn);
}

static void run_e4m3(vit_model *m) {
    test_layernorm_e4m3(m, 197, 768, 0);
    test_layernorm_e4m3(m, 50, 384, 0);
    test_layernorm_e4m3(m, 7, 1280, 0); // C > 1024: bf16 rows, then vit__e4m3_rows_kernel
    test_layernorm_e4m3(m, 197, 768, 4); // the split-K reduction inside the LayerNorm
    test_layernorm_e4m3(m, 3, 1024, 1);  // one slice: the GEMM, then the LayerNorm
    test_e4m3_rows<float>(m, 7, 48);
    test_e4m3_rows<__nv_bfloat16>(m, 50, 768);
    test_e4m3_rows<__nv_bfloat16>(m, 3, 3072);
    test_e4m3_rows<float>(m, 197, 264);
    test_e4m3_rows<__nv_bfloat16>(m, 50, 3072, 1); // per 128 columns: a SwiGLU fc2's input
    test_e4m3_rows<__nv_bfloat16>(m, 9, 392, 1);   // a last group of 8 columns
    test_e4m3_rows<float>(m, 3, 48, 1);            // one short group
    if (!m->cuda->wgmma) { printf("SKIP linear e4m3: no sm_90a GPU/code here\n"); return; }
    int paths[6] = {VIT__GEMM_AUTO, VIT__GEMM_WGMMA128, VIT__GEMM_PP128, VIT__GEMM_WGMMA64, VIT__GEMM_MMA, VIT__GEMM_PP192};
    const vit__out ST = VIT__OUT_STORE, RES = VIT__OUT_RESIDUAL;
    for (int pi = 0; pi < 6; pi++) {
        int p = paths[pi];
        test_linear_e4m3(m, 50, 48, 96, ST, VIT__ACT_NONE, 0, p);      // K < one 128-wide step
        test_linear_e4m3(m, 197, 144, 528, ST, VIT__ACT_GELU, 0, p);  // K tail of a step, N tail of a tile
        test_linear_e4m3(m, 1, 32, 40, RES, VIT__ACT_NONE, 1, p);
        test_linear_e4m3(m, 150, 256, 200, RES, VIT__ACT_NONE, 0, p);
        test_linear_e4m3(m, 150, 256, 200, RES, VIT__ACT_NONE, 1, p, 0, 1); // into a bf16 residual stream
        test_linear_e4m3(m, 100, 512, 392, RES, VIT__ACT_NONE, 1, p, 2, 1);  // and split
        test_linear_e4m3(m, 100, 272, 392, ST, VIT__ACT_SWIGLU, 0, p);
        test_linear_e4m3(m, 3, 64, 40, ST, VIT__ACT_QUICK_GELU, 0, p);
        if (!small_only && p != VIT__GEMM_MMA) {
            test_linear_e4m3(m, 591, 768, 2304, ST, VIT__ACT_NONE, 0, p);   // ViT-B qkv, batch 3
            test_linear_e4m3(m, 591, 768, 3072, ST, VIT__ACT_GELU, 0, p);
            test_linear_e4m3(m, 591, 3072, 768, RES, VIT__ACT_NONE, 1, p);
            test_linear_e4m3(m, 6000, 320, 1024, ST, VIT__ACT_GELU, 0, p);  // more tiles than CTAs
            test_linear_e4m3(m, 5000, 512, 776, RES, VIT__ACT_NONE, 1, p);
            test_linear_e4m3(m, 8000, 768, 2304, ST, VIT__ACT_NONE, 0, p); // 128 x 192 tiles by choice
            test_linear_e4m3(m, 20000, 3072, 768, RES, VIT__ACT_NONE, 1, p, 0, 1);
        }
    }
    // fp8's fc1 -> fc2: e4m3 out of the epilogue (scaled per row from the bound; fc2 then the per-row
    // cases above), and fc2 after SwiGLU: x scaled per 128 columns of K
    for (int pi = 0; pi < 6; pi++) {
        int p = paths[pi];
        test_linear_e4m3(m, 197, 144, 528, ST, VIT__ACT_GELU, 0, p, 0, 0, E4M3_OUT);  // a last group of 16 columns
        test_linear_e4m3(m, 3, 64, 256, ST, VIT__ACT_QUICK_GELU, 0, p, 3, 0, E4M3_OUT); // split forced: not taken
        test_linear_e4m3(m, 100, 272, 392, ST, VIT__ACT_SWIGLU, 0, p, 0, 0, E4M3_OUT);  // refused
        test_linear_e4m3(m, 150, 400, 200, RES, VIT__ACT_NONE, 1, p, 0, 0, E4M3_BLOCKS); // a K tail of 16
        test_linear_e4m3(m, 150, 256, 200, RES, VIT__ACT_NONE, 0, p, 0, 1, E4M3_BLOCKS); // into bf16 x
        test_linear_e4m3(m, 100, 512, 392, RES, VIT__ACT_NONE, 1, p, 2, 1, E4M3_BLOCKS); // and split
        test_linear_e4m3(m, 1, 32, 40, RES, VIT__ACT_NONE, 1, p, 0, 0, E4M3_BLOCKS);
        test_linear_e4m3(m, 50, 256, 96, ST, VIT__ACT_NONE, 0, p, 0, 0, E4M3_BLOCKS);   // stored: refused
        if (!small_only && p != VIT__GEMM_MMA) {
            test_linear_e4m3(m, 591, 768, 3072, ST, VIT__ACT_GELU, 0, p, 0, 0, E4M3_OUT);   // ViT-B fc1, batch 3
            test_linear_e4m3(m, 591, 3072, 768, RES, VIT__ACT_NONE, 1, p, 0, 0, E4M3_BLOCKS); // a SwiGLU model's fc2
            test_linear_e4m3(m, 6000, 320, 1024, ST, VIT__ACT_GELU_TANH, 0, p, 0, 0, E4M3_OUT); // more tiles than CTAs
            test_linear_e4m3(m, 8000, 768, 3072, ST, VIT__ACT_GELU, 0, p, 0, 0, E4M3_OUT);      // fc1: 128 x 192 by choice
            test_linear_e4m3(m, 8000, 1024, 4096, ST, VIT__ACT_GELU, 0, p, 0, 0, E4M3_OUT);     // not at K 1024
            test_linear_e4m3(m, 300, 96, 592, ST, VIT__ACT_QUICK_GELU, 0, p, 0, 0, E4M3_OUT);   // a last box of 16 columns
            test_linear_e4m3(m, 5000, 1536, 384, RES, VIT__ACT_NONE, 1, p, 0, 1, E4M3_BLOCKS);
            // more tiles than CTAs: each tile's epilogue runs during the next one's first K steps
            test_linear_e4m3(m, 6000, 512, 392, RES, VIT__ACT_NONE, 1, p, 0, 0, E4M3_BLOCKS);
            test_linear_e4m3(m, 6000, 400, 392, RES, VIT__ACT_NONE, 0, p, 0, 1, E4M3_BLOCKS);
        }
    }
    int splits[3] = {2, 3, 8};
    for (int si = 0; si < 3; si++) {
        test_linear_e4m3(m, 100, 1536, 392, RES, VIT__ACT_NONE, 1, VIT__GEMM_WGMMA128, splits[si], 0, E4M3_BLOCKS);
        test_linear_e4m3(m, 197, 768, 264, ST, VIT__ACT_GELU, 0, VIT__GEMM_WGMMA128, splits[si]);
        test_linear_e4m3(m, 100, 1536, 392, RES, VIT__ACT_NONE, 1, VIT__GEMM_WGMMA64, splits[si]);
        test_linear_e4m3(m, 3, 1024, 40, ST, VIT__ACT_NONE, 0, VIT__GEMM_PP128, splits[si]);
        test_linear_e4m3(m, 3, 1536, 40, RES, VIT__ACT_NONE, 1, VIT__GEMM_PP192, splits[si]);
        test_linear_e4m3(m, 197, 3072, 136, RES, VIT__ACT_NONE, 1, VIT__GEMM_WGMMA128, splits[si]);
    }
}

// ---- the activations on the GPU (vit__epi_apply as every fp32 epilogue
// calls it) against PyTorch's float64 values in tests/data/act, with
// test_act's tolerance (1e-6 + 1e-5 |ref|; inf and NaN where torch has them)
__global__ void act_kernel(float *out, const float *in, int n, int arity, int act) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v[2] = {in[(size_t)i * arity], arity == 2 ? in[(size_t)i * arity + 1] : in[((size_t)i + 1) % n]};
    vit__epi_apply((vit__act)act, 0, v);
    out[i] = v[0];
}

static void test_act_gpu(void) {
    if (!take_case()) return;
    const char *names[4] = {"gelu", "gelu_tanh", "quick_gelu", "swiglu"};
    vit__act acts[4] = {VIT__ACT_GELU, VIT__ACT_GELU_TANH, VIT__ACT_QUICK_GELU, VIT__ACT_SWIGLU};
    for (int a = 0; a < 4; a++) {
        act_ref r = {0, 0, NULL, NULL};
        char err[1200];
        int arity = acts[a] == VIT__ACT_SWIGLU ? 2 : 1, ok = read_act("tests/data/act", names[a], arity, &r, err, sizeof(err));
        if (!ok) printf("NOT OK activation %s on the GPU: %s\n", names[a], err);
        if (ok) {
            int n = (int)r.n;
            dbuf din = dupload<float>(r.in, r.n * arity), dout = dalloc(r.n * sizeof(float));
            act_kernel<<<(n + 255) / 256, 256>>>((float *)dout.p, (const float *)din.p, n, arity, acts[a]);
            ok = cuda_ok(cudaDeviceSynchronize(), "act_kernel");
            float *got = ddownload<float>(dout, r.n);
            double worst = 0;
            long bad = 0;
            for (size_t i = 0; ok && i < r.n; i++) {
                double ref = r.ref[i], g = got[i];
                int good = isnan(ref) ? isnan(g) : isinf(ref) ? g == ref : isfinite(g) && fabs(g - ref) <= 1e-6 + 1e-5 * fabs(ref);
                if (!isnan(ref) && !isinf(ref) && fabs(g - ref) / (1e-6 + 1e-5 * fabs(ref)) > worst) worst = fabs(g - ref) / (1e-6 + 1e-5 * fabs(ref));
                bad += !good;
            }
            ok = ok && bad == 0 && guard_ok(dout);
            printf("%s activation %s on the GPU vs torch: %zu inputs, %ld outside 1e-6 + 1e-5 |ref|, worst err/tol %.3f\n", ok ? "OK" : "NOT OK", names[a], r.n, bad,
                   worst);
            free(got);
            dfree(din); dfree(dout);
        }
        if (ok) passed++; else failed++;
        free(r.in); free(r.ref);
    }
}

// ---- the GELUs of the bf16/fp16 epilogues (vit__gelu_fast, vit__gelu_tanh_fast)
// against erf / tanh in double, on every 1/1024 step of [-32, 32] and at the
// infinities: the error absolute below 1 in size, relative above
__global__ void gelu_fast_kernel(float *out, const float *x, int n, int tanh_form) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tanh_form ? vit__gelu_tanh_fast(x[i]) : vit__gelu_fast(x[i]);
}

static void test_gelu_fast(int tanh_form) {
    if (!take_case()) return;
    int n = 64 * 1024 + 1 + 3;
    float *x = (float *)malloc(sizeof(float) * n), *got;
    for (int i = 0; i < n - 3; i++) x[i] = -32.0f + (float)i / 1024.0f;
    x[n - 3] = INFINITY;
    x[n - 2] = 1e-30f;
    x[n - 1] = -1e30f;
    dbuf dx = dupload<float>(x, (size_t)n), dout = dalloc(sizeof(float) * n);
    gelu_fast_kernel<<<(n + 255) / 256, 256>>>((float *)dout.p, (const float *)dx.p, n, tanh_form);
    vit_status st = cuda_ok(cudaDeviceSynchronize(), "gelu_fast_kernel") ? VIT_OK : VIT_ERROR_CUDA;
    got = ddownload<float>(dout, (size_t)n);
    double worst = 0.0, tol = tanh_form ? 4e-6 : 2e-5;
    int ok = st == VIT_OK && guard_ok(dout) && got[n - 3] == INFINITY && got[n - 1] == 0.0f;
    for (int i = 0; i < n; i++) {
        if (i == n - 3) continue;
        double xd = x[i], ref = tanh_form ? 0.5 * xd * (1.0 + tanh(sqrt(2.0 / M_PI) * (xd + 0.044715 * xd * xd * xd)))
                                          : 0.5 * xd * erfc(-xd / sqrt(2.0));
        double e = fabs(got[i] - ref) / fmax(1.0, fabs(ref));
        if (!(e <= tol)) ok = 0; // NaN fails too
        if (e > worst) worst = e;
    }
    if (ok) passed++; else failed++;
    printf("%s %s on [-32, 32] step 1/1024, +-inf, 1e-30: max error against the %s GELU %.3e (tol %.0e)\n", ok ? "OK" : "NOT OK",
           tanh_form ? "gelu_tanh_fast" : "gelu_fast", tanh_form ? "tanh" : "erf", worst, tol);
    free(x); free(got);
    dfree(dx); dfree(dout);
}

// ---- the GPU eval transform of 8-bit frames (vit__prep_cuda) against
// vit_preprocess_rgb8: the same floats, bit for bit (random bytes: every
// clipping case of the taps). m->cfg holds the preprocessing under test. Each
// resize runs through the plan's kernel (tiled where its window fits), the
// two-pass kernels (vit__test_hook.prep_tiles = 1), and where the plan's tile is
// larger, tiles of at most 16 and 8 (the tiled kernel's lanes then cover
// 2 and 4 rows each).
static int prep_tiled, prep_two_pass; // resizes the plan tiled, and those whose windows did not fit

static void test_prep(vit_model *m, const char *cfg_name, int w, int h, int channels, int pad, int n, int tiny_tmp = 0) {
    vit_config *c = &m->cfg;
    size_t stride = (size_t)w * channels + pad, fb = stride * h, per = (size_t)c->in_chans * c->image_height * c->image_width;
    unsigned char *hf = (unsigned char *)malloc(fb * n);
    for (size_t i = 0; i < fb * n; i++) hf[i] = (unsigned char)(frand() * 128.0f + 128.0f);
    float *ref = (float *)malloc(per * n * sizeof(float)), *got = (float *)malloc(per * n * sizeof(float));
    vit_status rst = VIT_OK;
    for (int i = 0; rst == VIT_OK && i < n; i++) rst = vit_preprocess_rgb8(m, hf + i * fb, w, h, (int)stride, channels, ref + i * per);
    unsigned char *df = NULL;
    cuda_ok(cudaMalloc((void **)&df, fb * n), "cudaMalloc frames");
    cudaMemcpy(df, hf, fb * n, cudaMemcpyHostToDevice);
    const int knobs[4] = {0, 1, 16, 8};
    int plan_tile = 0;
    for (int v = 0; v < 4; v++) {
        int untiled = knobs[v] == 1, cap = knobs[v] > 1 ? knobs[v] : 0;
        if (cap && (tiny_tmp || plan_tile <= cap)) continue; // the plan's own kernel, or no smaller tile to try
        vit__test_hook *f = force();
        f->prep_tiles = knobs[v];
        dbuf out = dalloc(per * n * sizeof(float));
        m->cuda->prep_width = 0; // the config changed: plan anew
        vit_status st = vit__prep_plan(m, w, h, (int)stride, channels);
        const vit__prep_args *a = &m->cuda->prep;
        if (st == VIT_OK && untiled && (a->mode == VIT__PREP_INDEX || tiny_tmp)) { dfree(out); continue; } // no tiles to leave out (tiny_tmp: the two-pass case)
        if (st == VIT_OK && tiny_tmp && a->mode != VIT__PREP_INDEX) { // one frame at a time through the two-pass kernels
            f->prep_tiles = 1;
            m->cuda->prep_width = 0;
            st = vit__prep_plan(m, w, h, (int)stride, channels);
            if (st == VIT_OK) m->cuda->prep_tmp_bytes = (size_t)a->rows * a->cols * a->ch;
        }
        int tile = a->tile;
        if (v == 0) plan_tile = a->mode == VIT__PREP_INDEX ? 0 : tile;
        if (st == VIT_OK) st = vit__prep_cuda(m, df, n, (float *)out.p, m->cuda->stream);
        cudaError_t e = cudaStreamSynchronize(m->cuda->stream);
        cudaMemcpy(got, out.p, per * n * sizeof(float), cudaMemcpyDeviceToHost);
        size_t bad = 0;
        double maxdiff = 0;
        for (size_t i = 0; i < per * n; i++)
            if (memcmp(&got[i], &ref[i], sizeof(float))) { bad++; maxdiff = fmax(maxdiff, fabs((double)got[i] - ref[i])); }
        int ok = st == VIT_OK && rst == VIT_OK && e == cudaSuccess && bad == 0 && guard_ok(out) && (!untiled || !tile) && (!cap || tile <= cap);
        const char *mode = a->mode == VIT__PREP_INDEX ? "index" : a->mode == VIT__PREP_HFIRST ? "h-first" : "v-first";
        char how[64] = "";
        if (a->mode != VIT__PREP_INDEX && tile) snprintf(how, sizeof(how), ", tiles %d", tile);
        else if (a->mode != VIT__PREP_INDEX) snprintf(how, sizeof(how), ", two passes%s", tiny_tmp ? ", one frame at a time" : "");
        if (v == 0 && !tiny_tmp && a->mode != VIT__PREP_INDEX) (tile ? prep_tiled : prep_two_pass)++;
        printf("%s prep %s %dx%dx%d stride +%d n %d -> %dx%d (%s%s): %zu of %zu floats differ (max %.3g)%s%s\n", ok ? "OK" : "NOT OK", cfg_name, w, h,
               channels, pad, n, c->image_width, c->image_height, mode, how, bad, per * n, maxdiff, st != VIT_OK || rst != VIT_OK ? ": " : "",
               st != VIT_OK || rst != VIT_OK ? vit_last_error(m) : "");
        if (ok) passed++; else failed++;
        dfree(out);
    }
    force();
    m->cuda->prep_width = 0; // the next plan is made without the knob
    cudaFree(df);
    free(hf); free(ref); free(got);
}

static void prep_config(vit_model *m, int in_chans, int H, int W, float crop_pct, vit_interp interp, vit_resize resize, int resize_shorter) {
    vit_config *c = &m->cfg;
    c->in_chans = in_chans;
    c->image_height = H;
    c->image_width = W;
    c->crop_pct = crop_pct;
    c->interpolation = interp;
    c->resize = resize;
    c->resize_shorter = resize_shorter;
    const float mean[3] = {0.485f, 0.456f, 0.406f}, std[3] = {0.229f, 0.224f, 0.225f};
    for (int k = 0; k < 3; k++) { c->mean[k] = mean[k]; c->std[k] = std[k]; }
    vit__set_preprocess_source(c, VIT_PREPROCESS_FROM_OPTIONS, "vit_options"); // stated here, as a caller would
}

static void test_prep_all(vit_model *m) {
    if (!take_case()) return;
    m->max_batch = 4;
    prep_config(m, 3, 224, 224, 0.9f, VIT_INTERP_BICUBIC, VIT_RESIZE_SHORTER_CROP, 0); // timm
    test_prep(m, "timm bicubic 0.9", 640, 480, 3, 0, 2);
    test_prep(m, "timm bicubic 0.9", 480, 640, 4, 3, 3);
    test_prep(m, "timm bicubic 0.9", 300, 1500, 1, 1, 2);   // tall: the vertical pass first
    test_prep(m, "timm bicubic 0.9", 31, 17, 2, 0, 3);      // upscaled
    test_prep(m, "timm bicubic 0.9", 248, 248, 3, 0, 1);    // no resize, crop only
    test_prep(m, "timm bicubic 0.9", 640, 480, 3, 5, 3, 1);
    test_prep(m, "timm bicubic 0.9", 300, 1500, 3, 0, 3, 1);
    if (!small_only) test_prep(m, "timm bicubic 0.9", 1920, 1080, 3, 0, 2);
    if (!small_only) test_prep(m, "timm bicubic 0.9", 4000, 3000, 3, 0, 1); // 12x down: no tile's window fits
    prep_config(m, 3, 192, 320, 1.0f, VIT_INTERP_BILINEAR, VIT_RESIZE_SQUARE, 0); // squash, non-square
    test_prep(m, "squash bilinear", 1000, 333, 3, 0, 2);
    test_prep(m, "squash bilinear", 320, 192, 3, 0, 2);     // no resize
    prep_config(m, 3, 192, 320, 0.95f, VIT_INTERP_BICUBIC, VIT_RESIZE_SHORTER_CROP, 0); // timm ResizeKeepRatio
    test_prep(m, "timm keep-ratio", 500, 500, 3, 0, 2);
    prep_config(m, 3, 224, 224, 1.2f, VIT_INTERP_BICUBIC, VIT_RESIZE_SHORTER_CROP, 0); // resized below the crop: zeros around
    test_prep(m, "timm crop_pct 1.2", 200, 150, 3, 0, 2);
    prep_config(m, 3, 224, 224, 1.0f, VIT_INTERP_BICUBIC, VIT_RESIZE_SHORTER_CROP_HF, 224); // CLIPImageProcessor
    test_prep(m, "HF CLIP", 500, 375, 3, 0, 2);
    test_prep(m, "HF CLIP", 7, 300, 4, 2, 2);
    prep_config(m, 3, 224, 224, 0.875f, VIT_INTERP_BICUBIC, VIT_RESIZE_SQUARE, 256); // DeiTImageProcessor
    test_prep(m, "HF DeiT", 500, 400, 3, 0, 2);
    prep_config(m, 3, 224, 224, 1.0f, VIT_INTERP_BILINEAR, VIT_RESIZE_SQUARE, 0); // ViTImageProcessor
    test_prep(m, "HF ViT", 224, 224, 3, 0, 2);
    test_prep(m, "HF ViT", 640, 480, 1, 0, 2);
    prep_config(m, 3, 224, 224, 0.9f, VIT_INTERP_NEAREST, VIT_RESIZE_SHORTER_CROP, 0);
    test_prep(m, "nearest", 333, 500, 3, 0, 2);
    test_prep(m, "nearest", 50, 40, 2, 1, 2);
    prep_config(m, 1, 28, 28, 1.0f, VIT_INTERP_BILINEAR, VIT_RESIZE_SQUARE, 0); // a 1-channel model: PIL's luma
    test_prep(m, "L bilinear", 28, 28, 1, 0, 3);
    test_prep(m, "L bilinear", 64, 50, 3, 0, 3);
    test_prep(m, "L bilinear", 100, 100, 4, 0, 3);
    for (int i = 0; i < (small_only ? 3 : 12); i++) { // random sizes, channels and padding
        int w = 1 + (int)((frand() + 1.0f) * 350.0f), h = 1 + (int)((frand() + 1.0f) * 350.0f), ch = 1 + (int)((frand() + 1.0f) * 2.0f), pad = (int)((frand() + 1.0f) * 4.0f);
        prep_config(m, 3, 224, 224, 0.9f, i % 2 ? VIT_INTERP_BILINEAR : VIT_INTERP_BICUBIC, VIT_RESIZE_SHORTER_CROP, 0);
        test_prep(m, "random timm", w, h, ch, pad, 2);
    }
    // both of the plan's choices were made and tested
    int ok = prep_tiled >= 10 && (small_only || prep_two_pass >= 1);
    printf("%s prep: %d resizes planned tiled, %d two-pass\n", ok ? "OK" : "NOT OK", prep_tiled, prep_two_pass);
    if (ok) passed++; else failed++;
    memset(&m->cfg, 0, sizeof(m->cfg));
}

// ---- host code of the CUDA path (no GPU needed): vit__copy_host, the staging's
// threaded memcpy (into pinned slots with non-temporal stores, staging 1), on
// sizes around its threshold (4 blocks of 128 KB) and the streaming loop's
// 16-byte head and 64-byte steps, destinations off 16-byte alignment, 1-9
// threads: every byte copied, none past the end written
static void test_copy_host(void) {
    const size_t K = (size_t)128 << 10;
    const size_t sizes[] = {0, 1, 15, 63, 64, 65, 4096, 4 * K - 1, 4 * K, 4 * K + 4, 4 * K + 63, ((size_t)8 << 20) + 5, ((size_t)8 << 20) + 4093, (size_t)3 * 1000 * 1000 + 7};
    const int threads[] = {1, 2, 3, 8, 9}, offsets[] = {0, 1, 7};
    size_t most = ((size_t)8 << 20) + 4093;
    unsigned char *src = (unsigned char *)malloc(most + 8), *dst = (unsigned char *)malloc(most + 64 + 8);
    for (size_t i = 0; i < most + 8; i++) src[i] = (unsigned char)(i * 2654435761u >> 13);
    int bad = 0, cases = 0;
    for (int staging = 0; staging < 2; staging++)
        for (int ti = 0; ti < 5; ti++)
            for (int oi = 0; oi < 3; oi++)
                for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
                    int t = threads[ti], off = offsets[oi];
                    memset(dst, 0xA5, most + 64 + 8);
                    vit__copy_host(dst + off, src + oi, sizes[k], t, staging);
                    int ok = !memcmp(dst + off, src + oi, sizes[k]);
                    for (int i = 0; i < off; i++) ok &= dst[i] == 0xA5;
                    for (size_t i = sizes[k]; i < sizes[k] + 64; i++) ok &= dst[off + i] == 0xA5;
                    if (!ok) { bad++; printf("NOT OK vit__copy_host %zu bytes on %d threads, destination +%d, staging %d\n", sizes[k], t, off, staging); }
                    cases++;
                }
    printf("%s vit__copy_host: %d sizes x thread counts x alignments x modes, %d wrong\n", bad ? "NOT OK" : "OK", cases, bad);
    if (bad) failed++; else passed++;
    free(src); free(dst);
}

// Host only: every attention and GEMM plan, for GPUs of each opt-in shared
// memory limit (sm_86/89/12x 99 KB, sm_80/87 163 KB, Hopper 227 KB; wgmma on
// for the last), fits that limit, and a kernel runs (e4m3 GEMMs: on Hopper).
// The shapes the limit used to break: ViT-B/16 at 240 px (226 keys, head size
// 64, batch 1: keys split, 107,520 bytes) and head sizes 65-128 padded to 128
// (SigLIP so400m's 72: up to 215 KB).
static void test_smem_policy(void) {
    static const int limits[3] = {99 * 1024, 163 * 1024, 227 * 1024}, ccs[3] = {86, 80, 90}, sms[3] = {84, 108, 132};
    static const int Ds[] = {8, 11, 16, 24, 32, 33, 48, 64, 66, 72, 80, 96, 128}, Nks[] = {1, 50, 77, 197, 226, 256, 257, 577, 1370, 4096},
                     Bs[] = {1, 3, 8, 64, 256}, Hs[] = {1, 12, 16};
    int plans = 0, bad = 0;
    for (int g = 0; g < 3; g++) {
        vit__cuda_state s;
        memset(&s, 0, sizeof(s));
        s.cc = ccs[g]; s.sm_count = sms[g]; s.smem_optin = limits[g]; s.wgmma = g == 2;
        s.part = (float *)&s; s.part_floats = (size_t)16 << 20; // (split-K plans only count it)
        for (size_t di = 0; di < sizeof(Ds) / sizeof(Ds[0]); di++)
            for (size_t ni = 0; ni < sizeof(Nks) / sizeof(Nks[0]); ni++)
                for (size_t bi = 0; bi < sizeof(Bs) / sizeof(Bs[0]); bi++)
                    for (size_t hi = 0; hi < sizeof(Hs) / sizeof(Hs[0]); hi++)
                        for (int half = 0; half < 2; half++) {
                            int D = Ds[di], N = Nks[ni], wf = half && s.wgmma && (D == 64 || D == 128);
                            vit__plan p = vit__plan_attention(&s, half, wf, 1, Bs[bi], Hs[hi], N, N, D);
                            plans++;
                            if (!p.kernel || p.smem > limits[g] || p.smem != vit__attn_smem(p.kernel, p.warps, D, N, half ? 2 : 4)) {
                                if (bad++ < 10) printf("NOT OK attention plan sm_%d (%d KB) %s B=%d H=%d N=%d D=%d: kernel %d, %d warps, %d bytes\n", s.cc, limits[g] / 1024,
                                                       half ? "bf16" : "fp32", Bs[bi], Hs[hi], N, D, p.kernel, p.warps, p.smem);
                            }
                        }
        static const int Ms[] = {1, 50, 197, 1576, 50432}, Ns[] = {8, 768, 2304, 3072}, Ks[] = {16, 768, 3072};
        static const int outs[] = {VIT__OUT_STORE, VIT__OUT_RESIDUAL, VIT__OUT_PATCH};
        for (size_t mi = 0; mi < sizeof(Ms) / sizeof(Ms[0]); mi++)
            for (size_t ni = 0; ni < sizeof(Ns) / sizeof(Ns[0]); ni++)
                for (size_t ki = 0; ki < sizeof(Ks) / sizeof(Ks[0]); ki++)
                    for (size_t oi = 0; oi < 3; oi++)
                        for (int op = VIT__OP_BF16; op <= VIT__OP_E4M3; op++)
                            for (int act = VIT__ACT_NONE; act <= VIT__ACT_GELU; act++) {
                                if (op == VIT__OP_E4M3 && (!s.wgmma || outs[oi] == VIT__OUT_PATCH)) continue;
                                vit__plan p = vit__plan_gemm(&s, op, Ms[mi], Ns[ni], Ks[ki], outs[oi], act, 0, 1, 1, 0, 0);
                                plans++;
                                if (!p.kernel || p.smem > limits[g]) {
                                    if (bad++ < 10) printf("NOT OK GEMM plan sm_%d (%d KB) optype %d %dx%d->%d out %d: kernel %d, %d bytes\n", s.cc, limits[g] / 1024, op, Ms[mi],
                                                           Ks[ki], Ns[ni], outs[oi], p.kernel, p.smem);
                                }
                            }
        // the case of the issue, named: keys split no more at 99 KB
        vit__plan p = vit__plan_attention(&s, 1, 0, 1, 1, 12, 226, 226, 64);
        printf("# sm_%d (%d KB): ViT-B/16 @240 batch 1 attention: kernel %d, %d warps, %d bytes\n", s.cc, limits[g] / 1024, p.kernel, p.warps, p.smem);
        p = vit__plan_attention(&s, 1, 0, 1, 1, 16, 256, 256, 72);
        printf("# sm_%d (%d KB): SigLIP so400m @224 batch 1 attention (head size 72): kernel %d, %d warps, %d bytes\n", s.cc, limits[g] / 1024, p.kernel, p.warps, p.smem);
    }
    printf("%s shared memory: %d attention and GEMM plans for 99, 163 and 227 KB GPUs, %d over their limit or without a kernel\n", bad ? "NOT OK" : "OK", plans, bad);
    if (bad) failed++; else passed++;
}

// vit__plan_wgmma's tiles for the ViT shapes it was measured on (see there), on
// GPUs of 132 SMs (H100 SXM, H200): where it picks 128 x 192 ping-pong tiles
static void test_wg_policy(vit_model *m) {
    if (!take_case()) return;
    if (!m->cuda->wgmma || m->cuda->sm_count != 132) { printf("SKIP wgmma tile policy: %d SMs or no sm_90a (measured on 132)\n", m->cuda->sm_count); return; }
    const int ST = VIT__OUT_STORE, RES = VIT__OUT_RESIDUAL, E8 = VIT__OUT_E4M3;
    struct { int M, N, K, out, defer, bn; const char *what; } c[] = {
        {50432, 2304, 768, ST, 0, 192, "ViT-B/16 qkv, batch 256"},
        {50432, 3072, 768, ST, 0, 192, "ViT-B/16 fc1, batch 256"},
        {50432, 768, 3072, RES, 1, 192, "ViT-B/16 fc2, batch 256"},
        {50432, 768, 768, RES, 1, 128, "ViT-B/16 proj, batch 256 (fp32 out, short K)"},
        {36928, 2304, 768, ST, 0, 192, "ViT-B/16 @384 qkv, batch 64"},
        {50432, 4096, 1024, ST, 0, 192, "ViT-L/16 fc1, batch 256 (3% padding)"},
        {50432, 1024, 4096, RES, 1, 128, "ViT-L/16 fc2, batch 256 (12.5% padding)"},
        {1576, 2304, 768, ST, 0, 128, "ViT-B/16 qkv, batch 8 (one or two waves)"},
        {12608, 768, 3072, RES, 1, 128, "ViT-B/16 fc2, batch 64 (three waves)"},
        {50176, 768, 768, ST, 1, 128, "ViT-B/16 patch GEMM, batch 256 (deferred fp32 sums)"},
        {50432, 3072, 768, E8, 0, 192, "ViT-B/16 fp8 fc1 (e4m3 out), batch 256"},
        {50432, 4096, 1024, E8, 0, 128, "ViT-L/16 fp8 fc1 (e4m3 out, K 1024), batch 256"},
    };
    for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
        vit__plan p = vit__plan_wgmma(m->cuda, c[i].M, c[i].N, c[i].K, c[i].out == E8 ? 128 : 64, c[i].out, c[i].defer);
        int pp = p.kernel == VIT__K_PP128 || p.kernel == VIT__K_PP192, bn = p.kernel == VIT__K_PP192 ? 192 : p.kernel == VIT__K_WG64 ? 64 : 128;
        int ok = pp && bn == c[i].bn && p.split == 1;
        printf("%s wgmma tiles for %s: %s %d x %d\n", ok ? "OK" : "NOT OK", c[i].what, pp ? "ping-pong" : "cooperative", 128, bn);
        if (ok) passed++; else failed++;
    }
}

// ---- the persistent kernel's schedule (>>persistent), on the host
// Its queue replayed for model shapes, batches and GPUs (99, 163, 227 KB):
//   progress: with 1, 3 and one CTA per SM, each CTA holding one claimed item
//     and running it once its counters are reached, the queue drains (no CTA
//     waits on work that no CTA will run, whatever the number of CTAs);
//   every counter an item waits on ends at exactly the value it waits for (so
//     reaching it means every contributor is done);
//   no race (small shapes): every two items (and K-split tiles' reductions)
//     that touch the same bytes, one writing, are ordered through the waits.
typedef struct pk_access { int buf, r0, r1, c0, c1, write; } pk_access;
enum { PK_X, PK_XN, PK_QKV, PK_AO, PK_HB, PK_PART };

static int pk_overlap(const pk_access *p, const pk_access *q) {
    return p->buf == q->buf && (p->write || q->write) && p->r0 < q->r1 && q->r0 < p->r1 && p->c0 < q->c1 && q->c0 < p->c1;
}

// the bytes work item w reads and writes (a K-split slice: its partial sums only)
static int pk_accesses(const vit__pk_args *a, const vit__pk_work *w, pk_access *acc) {
    int n = 0, R0 = w->mt * a->bm, R1 = R0 + a->bm < a->rows ? R0 + a->bm : a->rows, qkv = PK_QKV;
#define PK_ACC(b, ra, rb, ca, cb, wr) (acc[n].buf = (b), acc[n].r0 = (ra), acc[n].r1 = (rb), acc[n].c0 = (ca), acc[n].c1 = (cb), acc[n].write = (wr), n++)
    int col1 = w->nt * 64 + 64;
    switch (w->stage) {
    case VIT__PK_QKV: PK_ACC(PK_XN, R0, R1, 0, a->C, 0); PK_ACC(qkv, R0, R1, w->nt * 64, col1 < 3 * a->C ? col1 : 3 * a->C, 1); break;
    case VIT__PK_ATT: {
        int bq = a->full ? VIT__PK_BQ_FULL : VIT__PK_BQ_STREAM, q0 = w->b * a->N + w->qtile * bq, q1 = q0 + bq, end = (w->b + 1) * a->N, hd = w->h * a->D;
        if (q1 > end) q1 = end;
        PK_ACC(qkv, q0, q1, hd, hd + a->D, 0);
        PK_ACC(qkv, w->b * a->N, end, a->C + hd, a->C + hd + a->D, 0);
        PK_ACC(qkv, w->b * a->N, end, 2 * a->C + hd, 2 * a->C + hd + a->D, 0);
        PK_ACC(PK_AO, q0, q1, hd, hd + a->D, 1);
        break;
    }
    case VIT__PK_PROJ:
    case VIT__PK_FC2: {
        int fc2 = w->stage == VIT__PK_FC2, K = fc2 ? a->M : a->C, k1 = w->kb1 * VIT__MMA_BK;
        PK_ACC(fc2 ? PK_HB : PK_AO, R0, R1, w->kb0 * VIT__MMA_BK, k1 < K ? k1 : K, 0);
        PK_ACC(PK_PART + w->ks, R0, R1, w->nt * 64, col1 < a->C ? col1 : a->C, 1);
        break;
    }
    case VIT__PK_LN2:
    case VIT__PK_LN1: {
        int r1 = w->r0 + VIT__PK_LN < a->rows ? w->r0 + VIT__PK_LN : a->rows;
        PK_ACC(PK_X, w->r0, r1, 0, a->C, 0); PK_ACC(PK_XN, w->r0, r1, 0, a->C, 1);
        break;
    }
    case VIT__PK_FC1: PK_ACC(PK_XN, R0, R1, 0, a->C, 0); PK_ACC(PK_HB, R0, R1, w->nt * 64, col1 < a->M ? col1 : a->M, 1); break;
    }
    return n;
#undef PK_ACC
}

static int pk_replay(const vit__pk_args *a, int ctas, const char *what) {
    unsigned *ctr = (unsigned *)calloc((size_t)a->nsync, sizeof(unsigned));
    int *held = (int *)malloc(ctas * sizeof(int)), next = 0, done = 0, stuck = 0;
    for (int c = 0; c < ctas; c++) held[c] = -1;
    for (int turn = 0; done < a->total && !stuck; turn++) {
        int moved = 0;
        for (int k = 0; k < ctas; k++) {
            int c = (k + turn * 7) % ctas; // CTAs served in a rotating order
            if (held[c] < 0 && next < a->total) held[c] = next++;
            if (held[c] < 0) continue;
            vit__pk_work w;
            vit__pk_decode(*a, held[c], &w);
            int ready = 1;
            for (int i = 0; i < w.nw; i++)
                for (int j = 0; j < w.wn[i]; j++) ready &= ctr[w.wc[i] + j] >= w.wt[i];
            if (!ready) continue;
            if (++ctr[w.signal] == (unsigned)w.split && w.split) ctr[w.res]++;
            held[c] = -1; done++; moved = 1;
        }
        stuck = !moved;
    }
    int exact = 1;
    for (int i = 0; i < a->total && exact; i++) {
        vit__pk_work w;
        vit__pk_decode(*a, i, &w);
        for (int k = 0; k < w.nw; k++)
            for (int j = 0; j < w.wn[k]; j++) exact &= ctr[w.wc[k] + j] == w.wt[k];
    }
    int ok = !stuck && exact;
    if (!ok) printf("NOT OK persistent schedule %s, %d CTAs: %s\n", what, ctas, stuck ? "STUCK" : "a counter ends past or short of its waiters' value");
    free(ctr); free(held);
    return ok;
}

// Every conflicting pair ordered: nodes are the items and, after each K-split
// tile's last slice in queue order, that tile's reduction
static int pk_races(const vit__pk_args *a, const char *what) {
    int n = a->total, cap = 2 * n, nodes = 0, races = 0;
    size_t words = ((size_t)cap + 63) / 64;
    unsigned long long *reach = (unsigned long long *)calloc((size_t)cap * words, 8);
    pk_access *acc = (pk_access *)malloc((size_t)cap * 5 * sizeof(pk_access));
    int *nacc = (int *)calloc(cap, sizeof(int)), *left = (int *)calloc((size_t)a->nsync, sizeof(int));
    // the nodes whose completion each counter counts, as a bitset per counter (reductions for res counters)
    unsigned long long *contrib = (unsigned long long *)calloc((size_t)a->nsync * words, 8);
    int *first_slice = (int *)malloc((size_t)a->nsync * sizeof(int));
    for (int i = 0; i < a->nsync; i++) first_slice[i] = -1;
    for (int i = 0; i < n; i++) {
        vit__pk_work w;
        vit__pk_decode(*a, i, &w);
        int v = nodes++;
        for (int k = 0; k < w.nw; k++)
            for (int j = 0; j < w.wn[k]; j++)
                for (size_t q = 0; q < words; q++) reach[v * words + q] |= contrib[(size_t)(w.wc[k] + j) * words + q];
        // (contrib bits already include their own predecessors: see below)
        nacc[v] = pk_accesses(a, &w, acc + (size_t)v * 5);
        unsigned long long *cs = contrib + (size_t)w.signal * words;
        for (size_t q = 0; q < words; q++) cs[q] |= reach[v * words + q];
        cs[v / 64] |= 1ull << (v % 64);
        if (w.split && ++left[w.signal] == w.split) { // the tile's reduction, after all its slices
            int r = nodes++;
            for (size_t q = 0; q < words; q++) reach[r * words + q] = cs[q];
            int R0 = w.mt * a->bm, R1 = R0 + a->bm < a->rows ? R0 + a->bm : a->rows, c1 = w.nt * 64 + 64 < a->C ? w.nt * 64 + 64 : a->C;
            pk_access *p = acc + (size_t)r * 5;
            nacc[r] = 0;
            for (int z = 0; z < w.split; z++) p[nacc[r]++] = {PK_PART + z, R0, R1, w.nt * 64, c1, 0};
            p[nacc[r]++] = {PK_X, R0, R1, w.nt * 64, c1, 1};
            if (nacc[r] > 5) { printf("NOT OK persistent schedule %s: more K slices than the race check holds\n", what); races++; }
            unsigned long long *rs = contrib + (size_t)w.res * words;
            for (size_t q = 0; q < words; q++) rs[q] |= reach[r * words + q];
            rs[r / 64] |= 1ull << (r % 64);
        }
    }
    for (int u = 0; u < nodes && races < 5; u++)
        for (int v = u + 1; v < nodes && races < 5; v++) {
            if (reach[v * words + u / 64] >> (u % 64) & 1) continue; // u before v
            for (int i = 0; i < nacc[u]; i++)
                for (int j = 0; j < nacc[v]; j++)
                    if (pk_overlap(&acc[(size_t)u * 5 + i], &acc[(size_t)v * 5 + j])) {
                        if (races++ < 3) printf("NOT OK persistent schedule %s: nodes %d and %d race on buffer %d\n", what, u, v, acc[(size_t)u * 5 + i].buf);
                        i = nacc[u]; break;
                    }
        }
    free(reach); free(acc); free(nacc); free(left); free(contrib); free(first_slice);
    return races == 0;
}

static void test_pk_schedule(void) {
    // C, heads, mlp, tokens, depth; batches
    static const int shapes[][5] = {{16, 2, 64, 50, 3},     {24, 3, 96, 17, 3},      {40, 5, 160, 65, 2},     {384, 6, 1536, 197, 2},  {768, 12, 3072, 197, 2},
                                    {384, 6, 1536, 1374, 2}, {1024, 16, 4096, 577, 2}, {128, 2, 256, 197, 2},   {384, 8, 1536, 197, 2},  {120, 3, 240, 197, 2}};
    static const int Bs[] = {1, 2, 3, 5, 6, 7, 8};
    static const int limits[3] = {99 * 1024, 163 * 1024, 227 * 1024}, sms[3] = {84, 108, 132};
    int runs = 0, bad = 0, checked = 0;
    for (int gb = 0; gb < 9; gb++) // GPUs by GEMM tile rows (64, 128, 256)
        for (size_t si = 0, g = gb / 3, bm = 64 << gb % 3; si < sizeof(shapes) / sizeof(shapes[0]); si++)
            for (size_t bi = 0; bi < sizeof(Bs) / sizeof(Bs[0]); bi++) {
                vit_model m;
                vit__cuda_state s;
                memset(&m, 0, sizeof(m));
                memset(&s, 0, sizeof(s));
                s.cc = 80; s.sm_count = sms[g]; s.smem_optin = limits[g]; s.esize = 2; s.dtype = VIT_DTYPE_BF16;
                m.cuda = &s; m.act = VIT__ACT_GELU;
                m.cfg.dim = shapes[si][0]; m.cfg.num_heads = shapes[si][1]; m.cfg.mlp_dim = shapes[si][2]; m.cfg.num_tokens = shapes[si][3]; m.cfg.depth = shapes[si][4];
                vit__pk_args a;
                vit__pk_shape(&m, Bs[bi], (int)bm, &a);
                char what[160];
                snprintf(what, sizeof(what), "C=%d H=%d M=%d N=%d depth %d batch %d on %d SMs (%d KB), %d-row tiles", shapes[si][0], shapes[si][1], shapes[si][2],
                         shapes[si][3], shapes[si][4], Bs[bi], sms[g], limits[g] / 1024, (int)bm);
                int ok = 1;
                // the workspace made for max_batch >= B holds this pass's counters (fewer row tiles can mean more K slices)
                for (int mb = Bs[bi]; mb <= VIT__PK_IMAGES; mb++)
                    if (a.nsync > vit__pk_nsync_max(&m, mb)) {
                        printf("NOT OK persistent schedule %s: %d counters, a workspace for max_batch %d holds %d\n", what, a.nsync, mb, vit__pk_nsync_max(&m, mb));
                        ok = 0;
                        break;
                    }
                int ctas[3] = {1, 3, s.sm_count};
                for (int c = 0; c < 3; c++) { ok &= pk_replay(&a, ctas[c], what); runs++; }
                if (a.total <= 2500) { ok &= pk_races(&a, what); checked++; }
                bad += !ok;
            }
    printf("%s persistent schedule: %d replays (1, 3 and one CTA per SM) of %d shapes (64-, 128- and 256-row tiles) drained with every wait exact, %d checked for races: %d failed\n",
           bad ? "NOT OK" : "OK", runs, runs / 3, checked, bad);
    if (bad) failed++; else passed++;
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0); // progress survives a crash
    int host_only = 0, e4m3_only = 0; // --e4m3: the fp8 kernels' cases alone (a sanitizer run of them)
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--small")) small_only = 1;
        if (!strcmp(argv[i], "--host")) host_only = 1;
        if (!strcmp(argv[i], "--e4m3")) e4m3_only = 1;
        if (!strcmp(argv[i], "--smem")) { // a forced shared memory limit per block, in KB
            if (i + 1 >= argc || (smem_limit = atoi(argv[++i]) * 1024) < 48 * 1024) {
                printf("usage: test_ops ... --smem KB (48 or more)\n");
                return 2;
            }
        }
        if (!strcmp(argv[i], "--shard")) { // (without its K/N, or with more after it: refused, not all cases)
            char junk;
            if (i + 1 >= argc || sscanf(argv[++i], "%d/%d%c", &shard_k, &shard_n, &junk) != 2 || shard_n < 1 || shard_k < 0 || shard_k >= shard_n) {
                printf("usage: test_ops [--small] [--host] [--e4m3] [--shard K/N] [--smem KB] (0 <= K < N)\n");
                return 2;
            }
        }
    }
    test_copy_host();
    test_smem_policy();
    test_pk_schedule();
    int count = 0;
    if (host_only || cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        cudaGetLastError();
        if (!host_only) printf("SKIP test_ops: no CUDA device (the host-code checks above ran)\n");
        printf("%d passed, %d failed\n", passed, failed);
        return failed ? 1 : 0;
    }
    cpu_threads = vit_query_defaults(NULL).num_threads;
    vit_model *m = (vit_model *)calloc(1, sizeof(vit_model));
    if (vit__cuda_open(m, 0) != VIT_OK) {
        printf("NOT OK open: %s\n", m->error);
        printf("0 passed, 1 failed\n");
        return 1;
    }
    m->cuda->hook = &hook; // (zeroed: the policy's own choices until a case forces one)
    hook.smem_limit = smem_limit;
    // the split-K partial-sum buffer (vit_load puts it in the arena)
    m->cuda->part_floats = (size_t)16 << 20;
    if (!cuda_ok(cudaMalloc((void **)&m->cuda->part, m->cuda->part_floats * sizeof(float)), "cudaMalloc part")) return 1;
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    printf("# %s, sm_%d, %d SMs, wgmma kernels %s, shared memory per block %d bytes%s\n", prop.name, m->cuda->cc, m->cuda->sm_count, m->cuda->wgmma ? "on" : "off",
           smem_limit ? smem_limit : m->cuda->smem_optin, smem_limit ? " (forced by --smem)" : " (the GPU's opt-in limit)");
    if (e4m3_only) {
        if (smem_limit) printf("SKIP e4m3 under --smem: the e4m3 GEMMs are wgmma kernels only, for sm_90a (227 KB)\n");
        else run_e4m3(m);
        cudaFree(m->cuda->part);
        vit__cuda_free(m);
        free(m);
        printf("%d passed, %d failed\n", passed, failed);
        return failed ? 1 : 0;
    }
    test_gelu_fast(0);
    test_gelu_fast(1);
    test_act_gpu();
    test_prep_all(m);
    test_wg_policy(m);
    run_dtype<float>(m);
    run_dtype<__nv_bfloat16>(m);
    if (smem_limit) printf("SKIP e4m3 under --smem: the e4m3 GEMMs are wgmma kernels only, for sm_90a (227 KB)\n");
    else run_e4m3(m);
    run_dtype<__half>(m);
    // fp32-only ops (the residual stream)
    test_layernorm<float>(m, 3, 768, (size_t)197 * 768, 1); // final norm on class tokens
    test_layernorm<float>(m, 1, 33, 33, 1);
    test_layernorm<float>(m, 3, 768, (size_t)197 * 768, 2); // final norm of the class tokens into pooled rows
    test_layernorm<float>(m, 2, 33, (size_t)50 * 33, 2);
    test_layernorm<float>(m, 7, 2048, 2048, 0);
    test_pool(m, 3, 197, 768, VIT_POOL_TOKEN, 1, 0);
    test_pool(m, 3, 197, 768, VIT_POOL_AVG, 1, 1);
    test_pool(m, 1, 50, 33, VIT_POOL_AVG, 0, 1);
    test_pool(m, 3, 1, 132, VIT_POOL_TOKEN, 1, 1);
    test_pool(m, 3, 50, 64, VIT_POOL_TOKEN, 2, 0, 2); // class + distillation token, their mean
    test_pool(m, 2, 50, 33, VIT_POOL_TOKEN, 2, 1, 2);
    test_pool(m, 3, 201, 384, VIT_POOL_AVG, 5, 1);    // average after 1 + 4 register tokens
    cudaFree(m->cuda->part);
    vit__cuda_free(m);
    free(m);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
#endif
