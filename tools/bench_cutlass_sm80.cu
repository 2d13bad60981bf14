// bench_cutlass_sm80: vit.h's mma.sync GEMMs against CUTLASS's sm80 bf16
// tensor-op GEMM (cutlass::gemm::device::Gemm, OpClassTensorOp, Sm80: mma.sync,
// ldmatrix, cp.async multistage), the same instruction class, in one process
// on the same buffers. tools/bench_sm80.sh runs it.
//
//   bench_cutlass_sm80 [MAXMS] [M N K [M N K ...]]
//       no shapes: the four linears of ViT-S/B/L (C = 384, 768, 1024: qkv
//       3C x C, proj C x C, fc1 4C x C, fc2 C x 4C) at M = 197 b for b = 1, 8,
//       64, 256. One JSON line per shape. MAXMS (default 150): about the
//       milliseconds of timed replays per variant.
//
// Build it for compute_80 code, as vit.h's sm_80 build is: either PTX alone
// (-gencode=arch=compute_80,code=compute_80, the Makefile's test_ops_sm80; the
// driver JIT-compiles it at the first launch) or that code assembled for the
// H100 ahead of time (-gencode=arch=compute_80,code=sm_90). Either way
// __CUDA_ARCH__ is 800 on both sides: vit.h runs its mma.sync kernels (no
// wgmma, no PDL; the program refuses to run otherwise), CUTLASS its Sm80
// kernels. -DVIT_CUDA_NO_F32/F16/FP8 (set here) keep the build short: bf16
// alone is timed. CUTLASS's headers: -I <cutlass>/include, --expt-relaxed-constexpr.
//
// Both sides compute out (M, N) bf16 row-major = A (M, K) bf16 row-major x
// W (N, K) bf16 row-major (CUTLASS: B column-major K x N, ldb = K) ^T + bias,
// fp32 accumulation. vit.h: vit__linear_cuda (fp32 bias), the kernel and split-K
// its policy picks for the forward pass (the split-K scratch sized as
// vit__cuda_alloc_arena sizes it), and its two mma.sync tiles forced (VIT_GEMM
// 1: 128 x 256 x 32 4 stages, 2: 64 x 64 x 64 4 stages; split as the policy).
// CUTLASS: LinearCombination with beta = 1 on C = a bf16 bias row broadcast by
// ldc = 0 (the bias add in the epilogue, as vit.h's), at several tile shapes
// and stage counts, and serial split-K (2, 3, 4 slices) at b = 1 and 8. No
// activation in either epilogue.
//
// Timing, as `vit_bench layer` times an op: a CUDA graph of 10 back-to-back
// launches on one stream, replayed; median over the replays of (graph time /
// 10), after 2 warm-up replays. Inputs are not rotated and L2 is not flushed
// (as vit_bench gemm): at small M the weights are L2-resident for both. Also
// the median of single launches between CUDA events (vit_bench gemm's method),
// for vit.h's default and CUTLASS's best.
//
// Check, before timing each variant: the output poisoned (0xFFFF, a bf16 NaN),
// one run, every element written and finite, and 256 sampled outputs against
// an fp64 host reference (||out - ref|| / ||ref||, bf16 out: < 1e-2 passes).
// Inputs are uniform in [-1, 1] (A) and [-0.05, 0.05] (W), bias in [-1, 1],
// drawn afresh for every shape.
#define VIT_IMPLEMENTATION
#define VIT_TEST_HOOKS
#ifndef VIT_CUDA_NO_F32
#define VIT_CUDA_NO_F32
#endif
#ifndef VIT_CUDA_NO_F16
#define VIT_CUDA_NO_F16
#endif
#ifndef VIT_CUDA_NO_FP8
#define VIT_CUDA_NO_FP8
#endif
#include "../vit.h"

#include <cutlass/cutlass.h>
#include <cutlass/version.h>
#include <cutlass/numeric_types.h>
#include <cutlass/gemm/device/gemm.h>
#include <cutlass/epilogue/thread/linear_combination.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <vector>
#include <string>
#include <algorithm>
#include <functional>
#include <memory>

#ifndef VIT__CUDA
int main(void) { printf("{\"error\": \"built without CUDA\"}\n"); return 1; }
#else

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("{\"error\": \"%s: %s (line %d)\"}\n", #x, cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)

typedef cutlass::bfloat16_t cbf16;

// ---- data on the device: a counter hash, uniform in [-scale, scale]
__device__ __forceinline__ float hash_unit(unsigned long long i, unsigned seed) {
    unsigned long long x = i * 0x9E3779B97F4A7C15ull + (unsigned long long)seed * 0xD1B54A32D192ED03ull;
    x ^= x >> 31; x *= 0xBF58476D1CE4E5B9ull; x ^= x >> 27; x *= 0x94D049BB133111EBull; x ^= x >> 33;
    return (float)(x >> 40) * (1.0f / 16777216.0f) * 2.0f - 1.0f;
}
__global__ void fill_bf16(__nv_bfloat16 *p, size_t n, unsigned seed, float scale) {
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) p[i] = __float2bfloat16(hash_unit(i, seed) * scale);
}
__global__ void bias_copy(__nv_bfloat16 *b16, float *b32, int n, unsigned seed) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { __nv_bfloat16 v = __float2bfloat16(hash_unit(i, seed)); b16[i] = v; b32[i] = __bfloat162float(v); }
}
// elements that are not finite (the 0xFFFF poison is a NaN)
__global__ void count_bad(const unsigned short *p, size_t n, unsigned long long *bad) {
    unsigned long long c = 0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) c += (p[i] & 0x7f80) == 0x7f80;
    if (c) atomicAdd(bad, c);
}

static int cmpf(const void *a, const void *b) { float x = *(const float *)a, y = *(const float *)b; return x < y ? -1 : x > y; }
static float median(std::vector<float> v) { qsort(v.data(), v.size(), sizeof(float), cmpf); size_t n = v.size(); return n % 2 ? v[n / 2] : 0.5f * (v[n / 2 - 1] + v[n / 2]); }

struct Bufs {
    __nv_bfloat16 *a, *w, *out, *bias16;
    float *bias32;
    void *ws;
    size_t ws_bytes;
    unsigned long long *bad;
    cudaStream_t s;
    int M, N, K;
};

typedef std::function<int(void)> Launch; // one launch on Bufs::s; 0 = ok

// median ms of one launch: a graph of 10 launches, replayed (see the top)
static float time_graph(const Bufs &b, const Launch &f, float maxms) {
    cudaGraph_t g;
    cudaGraphExec_t ge;
    CK(cudaStreamBeginCapture(b.s, cudaStreamCaptureModeRelaxed));
    for (int r = 0; r < 10; r++)
        if (f()) { cudaStreamEndCapture(b.s, &g); cudaGraphDestroy(g); cudaGetLastError(); return -1; }
    CK(cudaStreamEndCapture(b.s, &g));
    CK(cudaGraphInstantiate(&ge, g, 0));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    std::vector<float> t;
    float spent = 0, ms;
    for (int i = -2; i < 200; i++) {
        CK(cudaEventRecord(e0, b.s));
        CK(cudaGraphLaunch(ge, b.s));
        CK(cudaEventRecord(e1, b.s));
        CK(cudaEventSynchronize(e1));
        CK(cudaEventElapsedTime(&ms, e0, e1));
        if (i < 0) continue;
        t.push_back(ms / 10);
        spent += ms;
        if (i >= 4 && spent > maxms) break;
    }
    CK(cudaGraphExecDestroy(ge)); CK(cudaGraphDestroy(g));
    cudaEventDestroy(e0); cudaEventDestroy(e1);
    return median(t);
}

// median ms of single launches between CUDA events, after 3 warm-ups (vit_bench gemm's method)
static float time_single(const Bufs &b, const Launch &f, int iters) {
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    std::vector<float> t;
    float ms;
    for (int i = -3; i < iters; i++) {
        CK(cudaEventRecord(e0, b.s));
        if (f()) return -1;
        CK(cudaEventRecord(e1, b.s));
        CK(cudaEventSynchronize(e1));
        CK(cudaEventElapsedTime(&ms, e0, e1));
        if (i >= 0) t.push_back(ms);
    }
    cudaEventDestroy(e0); cudaEventDestroy(e1);
    return median(t);
}

// The sampled rows and columns of the reference, fixed per shape
struct Ref {
    std::vector<int> rows, cols;
    std::vector<double> val;
};

static float bf2f(unsigned short h) { unsigned u = (unsigned)h << 16; float f; memcpy(&f, &u, 4); return f; }

static Ref make_ref(const Bufs &b, unsigned seed) {
    Ref r;
    unsigned s = seed * 2654435761u + 12345;
    for (int i = 0; i < 16; i++) { s = s * 1664525u + 1013904223u; r.rows.push_back(i == 0 ? 0 : i == 1 ? b.M - 1 : (int)(s % (unsigned)b.M)); }
    for (int j = 0; j < 16; j++) { s = s * 1664525u + 1013904223u; r.cols.push_back(j == 0 ? 0 : j == 1 ? b.N - 1 : (int)(s % (unsigned)b.N)); }
    std::vector<unsigned short> ar((size_t)b.K), wr((size_t)16 * b.K);
    std::vector<float> bias(b.N);
    CK(cudaMemcpy(bias.data(), b.bias32, (size_t)b.N * 4, cudaMemcpyDeviceToHost));
    for (int j = 0; j < 16; j++) CK(cudaMemcpy(&wr[(size_t)j * b.K], b.w + (size_t)r.cols[j] * b.K, (size_t)b.K * 2, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 16; i++) {
        CK(cudaMemcpy(ar.data(), b.a + (size_t)r.rows[i] * b.K, (size_t)b.K * 2, cudaMemcpyDeviceToHost));
        for (int j = 0; j < 16; j++) {
            double acc = bias[r.cols[j]];
            for (int k = 0; k < b.K; k++) acc += (double)bf2f(ar[k]) * bf2f(wr[(size_t)j * b.K + k]);
            r.val.push_back(acc);
        }
    }
    return r;
}

// one run into the poisoned output: relative error over the samples, or a
// negative number: -1 launch failed, -2 elements not written or not finite
static double check(const Bufs &b, const Launch &f, const Ref &r) {
    CK(cudaMemsetAsync(b.out, 0xFF, (size_t)b.M * b.N * 2, b.s));
    if (f()) { cudaGetLastError(); return -1; }
    CK(cudaMemsetAsync(b.bad, 0, 8, b.s));
    count_bad<<<1024, 256, 0, b.s>>>((const unsigned short *)b.out, (size_t)b.M * b.N, b.bad);
    CK(cudaGetLastError());
    unsigned long long bad = 0;
    CK(cudaMemcpyAsync(&bad, b.bad, 8, cudaMemcpyDeviceToHost, b.s));
    CK(cudaStreamSynchronize(b.s));
    if (bad) return -2;
    double num = 0, den = 0;
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) {
            unsigned short h;
            CK(cudaMemcpy(&h, b.out + (size_t)r.rows[i] * b.N + r.cols[j], 2, cudaMemcpyDeviceToHost));
            double ref = r.val[i * 16 + j], d = bf2f(h) - ref;
            num += d * d; den += ref * ref;
        }
    return sqrt(num / (den > 0 ? den : 1));
}

// ---- CUTLASS sm80 configurations
template <int TM, int TN, int TK, int WM, int WN, int WK, int ST, bool SPLIT>
struct Cut {
    typedef cutlass::epilogue::thread::LinearCombination<cbf16, 8, float, float> Ep;
    typedef cutlass::gemm::device::Gemm<cbf16, cutlass::layout::RowMajor, cbf16, cutlass::layout::ColumnMajor, cbf16, cutlass::layout::RowMajor, float,
                                        cutlass::arch::OpClassTensorOp, cutlass::arch::Sm80, cutlass::gemm::GemmShape<TM, TN, TK>,
                                        cutlass::gemm::GemmShape<WM, WN, WK>, cutlass::gemm::GemmShape<16, 8, 16>, Ep,
                                        cutlass::gemm::threadblock::GemmIdentityThreadblockSwizzle<>, ST, 8, 8, SPLIT>
        Gemm;
    static std::string name(int split) {
        char s[96];
        snprintf(s, sizeof(s), "%dx%dx%d_w%dx%dx%d_s%d%s", TM, TN, TK, WM, WN, WK, ST, split > 1 ? "_sk" : "");
        std::string r(s);
        if (split > 1) r += std::to_string(split);
        return r;
    }
    // a launcher over b (initialized once), or an empty one where CUTLASS cannot run the shape
    static Launch make(const Bufs &b, int split, std::string *why) {
        typename Gemm::Arguments args({b.M, b.N, b.K}, {(const cbf16 *)b.a, b.K}, {(const cbf16 *)b.w, b.K}, {(const cbf16 *)b.bias16, 0},
                                      {(cbf16 *)b.out, b.N}, {1.0f, 1.0f}, split);
        auto *op = new Gemm();
        cutlass::Status st = op->can_implement(args);
        if (st != cutlass::Status::kSuccess) { *why = cutlassGetStatusString(st); delete op; return Launch(); }
        size_t ws = Gemm::get_workspace_size(args);
        if (ws > b.ws_bytes) { *why = "workspace"; delete op; return Launch(); }
        st = op->initialize(args, b.ws, b.s);
        if (st != cutlass::Status::kSuccess) { *why = cutlassGetStatusString(st); delete op; return Launch(); }
        std::shared_ptr<Gemm> keep(op);
        cudaStream_t s = b.s;
        return [keep, s]() { return keep->run(s) == cutlass::Status::kSuccess && cudaGetLastError() == cudaSuccess ? 0 : 1; };
    }
};

struct Variant {
    std::string name;
    std::function<Launch(const Bufs &, std::string *)> make;
};

template <class C> static void add(std::vector<Variant> &v, int split) {
    v.push_back({C::name(split), [split](const Bufs &b, std::string *why) { return C::make(b, split, why); }});
}

static std::vector<Variant> cutlass_variants(bool small) {
    std::vector<Variant> v;
    // CUTLASS's own default for bf16 on Sm80 (DefaultGemmConfiguration): 128 x 256 x 64, 64 x 64 x 64 warps, 3 stages
    add<Cut<128, 256, 64, 64, 64, 64, 3, false>>(v, 1);
    add<Cut<256, 128, 64, 64, 64, 64, 3, false>>(v, 1);
    add<Cut<128, 128, 64, 64, 64, 64, 4, false>>(v, 1);
    add<Cut<128, 128, 32, 64, 64, 32, 4, false>>(v, 1);
    add<Cut<128, 64, 64, 64, 32, 64, 4, false>>(v, 1);
    add<Cut<64, 128, 64, 32, 64, 64, 4, false>>(v, 1);
    add<Cut<64, 64, 64, 32, 32, 64, 5, false>>(v, 1);
    add<Cut<64, 64, 32, 32, 32, 32, 6, false>>(v, 1);
    if (small)
        for (int sk = 2; sk <= 4; sk++) {
            add<Cut<128, 128, 64, 64, 64, 64, 4, true>>(v, sk);
            add<Cut<64, 64, 64, 32, 32, 64, 5, true>>(v, sk);
        }
    return v;
}

static const char *kname(int k) {
    switch (k) {
    case VIT__K_MMA_VEC: return "mma128";
    case VIT__K_MMA_SCALAR: return "mma128_scalar";
    case VIT__K_MMA64_VEC: return "mma64";
    case VIT__K_MMA64_SCALAR: return "mma64_scalar";
    default: return "other";
    }
}

static vit__test_hook knobs;

int main(int argc, char **argv) {
    float maxms = argc > 1 ? (float)atof(argv[1]) : 150.0f;
    struct Shape { int M, N, K; std::string what; };
    std::vector<Shape> shapes;
    if (argc > 4) {
        for (int i = 2; i + 2 < argc; i += 3) shapes.push_back({atoi(argv[i]), atoi(argv[i + 1]), atoi(argv[i + 2]), "custom"});
    } else {
        const char *model[3] = {"ViT-S", "ViT-B", "ViT-L"};
        int C[3] = {384, 768, 1024}, bs[4] = {1, 8, 64, 256};
        for (int bi = 0; bi < 4; bi++)
            for (int mi = 0; mi < 3; mi++) {
                int c = C[mi], M = 197 * bs[bi];
                char w[64];
                const char *lin[4] = {"qkv", "proj", "fc1", "fc2"};
                int NK[4][2] = {{3 * c, c}, {c, c}, {4 * c, c}, {c, 4 * c}};
                for (int li = 0; li < 4; li++) {
                    snprintf(w, sizeof(w), "%s %s b%d", model[mi], lin[li], bs[bi]);
                    shapes.push_back({M, NK[li][0], NK[li][1], w});
                }
            }
    }
    vit_model *m = (vit_model *)calloc(1, sizeof(vit_model));
    if (vit__cuda_open(m, 0) != VIT_OK) { printf("{\"error\": \"%s\"}\n", m->error); return 1; }
    vit__cuda_state *st = m->cuda;
    st->hook = &knobs;
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    int rtv = 0, drv = 0;
    cudaRuntimeGetVersion(&rtv);
    cudaDriverGetVersion(&drv);
    printf("{\"device\": \"%s\", \"sms\": %d, \"cc\": %d, \"wgmma\": %d, \"pdl\": %d, \"runtime\": %d, \"driver\": %d, \"cutlass\": \"%d.%d.%d\"}\n", prop.name,
           prop.multiProcessorCount, st->cc, st->wgmma, st->pdl, rtv, drv, CUTLASS_MAJOR, CUTLASS_MINOR, CUTLASS_PATCH);
    if (st->wgmma) { printf("{\"error\": \"this build runs vit.h's wgmma kernels: build it for compute_80 code\"}\n"); return 1; }
    // the forward pass's split-K scratch: vit__cuda_alloc_arena's size (before its cap by the outputs)
    size_t part = (size_t)4 * st->sm_count * 64 * 64;
    size_t maxa = 0, maxw = 0, maxo = 0;
    int maxn = 0;
    for (auto &s : shapes) {
        maxa = std::max(maxa, (size_t)s.M * s.K); maxw = std::max(maxw, (size_t)s.N * s.K); maxo = std::max(maxo, (size_t)s.M * s.N); maxn = std::max(maxn, s.N);
    }
    Bufs b;
    CK(cudaMalloc((void **)&b.a, maxa * 2));
    CK(cudaMalloc((void **)&b.w, maxw * 2));
    CK(cudaMalloc((void **)&b.out, maxo * 2));
    CK(cudaMalloc((void **)&b.bias16, (size_t)maxn * 2));
    CK(cudaMalloc((void **)&b.bias32, (size_t)maxn * 4));
    b.ws_bytes = (size_t)64 << 20;
    CK(cudaMalloc(&b.ws, b.ws_bytes));
    CK(cudaMalloc((void **)&b.bad, 8));
    CK(cudaStreamCreateWithFlags(&b.s, cudaStreamNonBlocking));
    float *dpart;
    CK(cudaMalloc((void **)&dpart, part * 4));
    int failures = 0;
    for (size_t si = 0; si < shapes.size(); si++) {
        const Shape &sh = shapes[si];
        b.M = sh.M; b.N = sh.N; b.K = sh.K;
        unsigned seed = 1000 + 3 * (unsigned)si;
        fill_bf16<<<2048, 256, 0, b.s>>>(b.a, (size_t)b.M * b.K, seed, 1.0f);
        fill_bf16<<<2048, 256, 0, b.s>>>(b.w, (size_t)b.N * b.K, seed + 1, 0.05f);
        bias_copy<<<(b.N + 255) / 256, 256, 0, b.s>>>(b.bias16, b.bias32, b.N, seed + 2);
        CK(cudaGetLastError());
        CK(cudaStreamSynchronize(b.s));
        Ref ref = make_ref(b, seed);
        st->part = dpart;
        st->part_floats = std::min(part, (size_t)VIT__SPLITK_MAX * b.M * b.N);
        double flop = 2.0 * b.M * b.N * b.K;
        printf("{\"shape\": \"%s\", \"M\": %d, \"N\": %d, \"K\": %d", sh.what.c_str(), b.M, b.N, b.K);
        // vit.h: the policy's choice, then each mma.sync tile forced
        const char *vn[3] = {"vit", "vit_mma128", "vit_mma64"};
        int req[3] = {0, VIT__GEMM_MMA, VIT__GEMM_MMA64};
        float vit_ms = -1;
        Launch vit_default;
        for (int v = 0; v < 3; v++) {
            int r = req[v];
            Launch f = [&b, m, r]() {
                knobs.gemm = r;
                return vit__linear_cuda<__nv_bfloat16>(b.out, b.a, b.w, b.bias32, b.M, b.K, b.N, VIT__OUT_STORE, VIT__ACT_NONE, NULL, m, b.s) == VIT_OK ? 0 : 1;
            };
            double err = check(b, f, ref);
            vit__plan p = knobs.ran;
            float ms = err >= 0 && err < 1e-2 ? time_graph(b, f, maxms) : -1;
            if (!(err >= 0 && err < 1e-2)) failures++;
            printf(", \"%s\": {\"ms\": %.5f, \"tflops\": %.1f, \"kernel\": \"%s\", \"split\": %d, \"err\": %.2e}", vn[v], ms, ms > 0 ? flop / (ms * 1e-3) / 1e12 : 0.0,
                   kname(p.kernel), p.split, err);
            if (v == 0) { vit_ms = ms; vit_default = f; }
        }
        knobs.gemm = 0;
        // CUTLASS
        std::vector<Variant> vars = cutlass_variants(b.M <= 197 * 8);
        float best = -1;
        std::string best_name;
        Launch best_f;
        printf(", \"cutlass\": {");
        int first = 1;
        for (auto &v : vars) {
            std::string why;
            Launch f = v.make(b, &why);
            if (!f) { printf("%s\"%s\": {\"skip\": \"%s\"}", first ? "" : ", ", v.name.c_str(), why.c_str()); first = 0; continue; }
            double err = check(b, f, ref);
            float ms = err >= 0 && err < 1e-2 ? time_graph(b, f, maxms) : -1;
            if (!(err >= 0 && err < 1e-2)) failures++;
            printf("%s\"%s\": {\"ms\": %.5f, \"err\": %.2e}", first ? "" : ", ", v.name.c_str(), ms, err);
            first = 0;
            if (ms > 0 && (best < 0 || ms < best)) { best = ms; best_name = v.name; best_f = f; }
        }
        printf("}");
        float vs = vit_ms > 0 ? time_single(b, vit_default, 20) : -1, cs = best > 0 ? time_single(b, best_f, 20) : -1;
        printf(", \"best\": \"%s\", \"cutlass_ms\": %.5f, \"cutlass_tflops\": %.1f, \"ratio\": %.3f, \"vit_single_ms\": %.5f, \"cutlass_single_ms\": %.5f}\n",
               best_name.c_str(), best, best > 0 ? flop / (best * 1e-3) / 1e12 : 0.0, vit_ms > 0 && best > 0 ? best / vit_ms : 0.0, vs, cs);
        fflush(stdout);
    }
    printf("{\"failures\": %d}\n", failures);
    return failures ? 1 : 0;
}
#endif
