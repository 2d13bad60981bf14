/* vit_kernels.cuh - v0.1.0 - CUDA kernels for vit.h - MIT or public domain (see end of file)

   Included by vit.h (never on its own) when compiled by nvcc and VIT_NO_CUDA is
   not defined. Everything here is static.

   WHAT RUNS WHERE
      compute dtype  GEMMs                                       attention
      bf16 / fp16    sm_90a: wgmma + TMA, warp-specialised,      sm_90a, head size 64 or 128,
                     persistent, ping-pong consumers on 128x128  N > 256 or large batches:
                     tiles, epilogue stored (or, for the         wgmma + TMA flash attention
                     residual, added in L2) by the TMA; fewer    (persistent, K/V ring, P from
                     tiles than SMs (small batches): 128x64 or   registers, warpgroups taking
                     128x128 cooperative tiles, split-K;         turns); else mma.sync flash
                     sm_80/86/89: mma.sync + ldmatrix +          attention (online softmax,
                     cp.async (128x256x32 tiles; 64x64x64 and    head size zero-padded to
                     split-K at small batches; sm_90a: 64x64     16/32/64/128; N <= 256: whole
                     for the shapes the TMA cannot take)         K/V per CTA, small batches:
                                                                 8 warps splitting the keys)
      fp32           FMA SGEMM (128x128x16, no TF32; split-K     FMA flash attention (4x8
                     at small batches)                           register tiles, 16 queries
                                                                 per warp)
      Matrices are stored in the compute dtype as (out, in) row-major (K-major),
      every vector (biases, LayerNorm, layer scale, prefix tokens, position embeddings) in fp32,
      all in ONE device allocation. The residual stream x is fp32 (bf16 with
      residual_dtype bf16, fp8's default: vit__cuda_state.xh); LayerNorm outputs, qkv, attention output and the MLP hidden
      activations are in the compute dtype. Accumulation is always fp32.

   EPILOGUES
      Every GEMM ends in one epilogue: + bias, an activation, then an output
      mode. The output mode (store in the compute dtype, add into the
      residual stream, scatter patch tokens, or fp32 split-K partial sums) is
      a template parameter; the activation (none, GELU, tanh GELU, QuickGELU,
      SwiGLU over (gate, up) column pairs) is vit__epi_apply in vit.h, the
      same function the CPU reference calls. Kernels are instantiated for no
      activation, GELU, and a third instance that switches on the others at
      run time (see VIT__ACT_RUNTIME for why not one instance for all).

   POLICY
      Every choice of kernel, tiles, K split, warps and staging is made in
      >>policy, once per shape, into a vit__plan that the launchers obey.
      Tests and benchmarks (#define VIT_TEST_HOOKS before vit.h) override
      choices and read the plan run through vit__cuda_state.hook; other
      builds have no hook. VIT_CUDA_NO_F32 and VIT_CUDA_NO_FP8 (see vit.h)
      leave a dtype's kernels out of a program; the fp16 kernels are in only
      with VIT_CUDA_F16.

   MEMORY
      vit_load makes the weights' and an activation arena's device allocations
      (input images, x, xn, qkv/hidden, pooled, outputs, and the fp32 partial
      sums of split-K GEMMs, for max_batch images) and the host API's staging:
      two pinned host slots and two device slots of max_batch images each (of
      max_batch / 2 where a slot would pass 64 MB), and pinned output slots.
      vit_forward makes none: host images are copied into a pinned slot (on up
      to 8 OpenMP threads, with non-temporal stores on x86; page-locked inputs, from cudaHostAlloc or
      cudaHostRegister, skip this copy: the DMA reads them in place), then to
      the device on a copy stream, in chunks (a
      small first one, then growing) so that chunk i + 1 travels while chunk i
      computes; each chunk replays a CUDA graph of the whole forward pass and
      its outputs come back through a pinned slot (one wait at the end, and one
      per chunk two behind). The frame calls (vit_forward_rgb8) run the eval
      transform on the GPU (>>op preprocess); host frames that fit in max_batch
      are transformed on the copy stream as they land, and each chunk's pass
      runs only the first blocks, a last pass over all frames the rest
      (vit__plan_stage_blocks); a new frame size uploads its
      resampling taps and, where a tile's source window does not fit in shared
      memory (downscales beyond about 10x), may grow a first-pass buffer (at
      most 256 MB). Graphs are captured lazily, the first time a pass (batch
      size, first image, blocks) is seen (cudaGraphInstantiate may allocate
      inside the driver then), and cached (VIT__CUDA_GRAPHS passes, least
      recently used evicted).

   DETERMINISM
      The same input gives the same bits on every run, with or without graphs:
      no kernel uses atomics or depends on scheduling order. GEMMs with too few
      output tiles to fill the GPU (small batches) split K; each slice writes
      fp32 partial sums into the arena and a fixed-order reduction (fused into
      the next LayerNorm for the residual GEMMs) applies the epilogue. Results
      can differ between batch sizes and GPUs (other tile/split choices).

   ASYNC
      vit_forward_async/vit_embed_async copy the caller's device images into the
      arena, replay the graph and copy the outputs out, all on the caller's
      stream. Successive calls on one model are ordered by an event, so streams
      may differ, but a model is still used by one host thread at a time.

   LIMITS
      Head size C/H <= 128; compute capability 8.0 or newer (sm_75 and older
      have no bf16 tensor cores); code in the program that the GPU runs:
      machine code for it, or PTX its driver compiles (docs/build.md gives the
      -gencode of each GPU). Where one fails, VIT_DEVICE_CUDA fails with
      VIT_ERROR_UNSUPPORTED saying which, and VIT_DEVICE_DEFAULT loads the
      model on the CPU, vit_last_error(m) saying why (vit__cuda_can_run).
      Shared memory: every plan fits the GPU's opt-in limit per block, read at
      load (99 KB on sm_86/89/120/121, 163 KB on sm_80/87, 227 KB on Hopper and
      sm_100): long attention rows fall back to fewer warps or streamed K/V
      (>>policy, vit__plan_smem_max); a launch that would not fit is refused
      (VIT_ERROR_UNSUPPORTED), never attempted.

   SECTIONS
      `grep -n '// >>' vit_kernels.cuh` gives their lines; make lint checks
      this list against the markers (names, order). Each >>op pairs with the
      CPU reference of the same name in vit.h.
      >>cuda util          the GPU state, launch and allocation helpers, device
                           helpers (conversions, warp sums, mma, TMA, wgmma),
                           dtype conversion of a buffer
      >>policy             every kernel, tile, split and staging choice
                           (vit__plan), the test hooks
      >>op preprocess      the eval transform of 8-bit frames on the GPU
      >>op linear          the GEMMs: FMA, mma.sync, wgmma + TMA, split-K
      >>op patch_embed     im2col into the GEMM, prefix tokens
      >>op e4m3 rows       fp8: activations rounded to e4m3 per token
      >>op layernorm       LayerNorm (fused split-K reduction, e4m3 output)
      >>op qk_norm         per-head LayerNorm of q and k
      >>op attention       flash attention: FMA, mma.sync, wgmma
      >>op pool            token / average pooling
      >>op head            the classifier head
      >>persistent         small batches: every block of a pass in one
                           persistent kernel (work items, counters; off by
                           default, tests and benchmarks force it)
      >>forward            the forward pass as launches and graphs: attention
                           pooling, text embedding and pooling, features,
                           input staging and output copies
      >>load on the GPU    weights to the device, the arena, staging buffers
      >>cuda hooks         what vit.h calls: open, free, run
*/
#ifndef VIT_KERNELS_CUH_INCLUDED
#define VIT_KERNELS_CUH_INCLUDED

#if VIT_VERSION_MAJOR != 0 || VIT_VERSION_MINOR != 1 || VIT_VERSION_PATCH != 0
#error "vit_kernels.cuh does not match the version of vit.h"
#endif
#if defined(VIT_CUDA_F16) && defined(VIT_CUDA_NO_F16)
#error "VIT_CUDA_F16 puts the fp16 kernels in, VIT_CUDA_NO_F16 leaves them out (their default): define one"
#endif

#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda.h> // CUtensorMap and its enums only: the driver entry point is fetched through the runtime (no -lcuda)

// >>cuda util ------------------------------------------------------------------
// What the kernels and launchers share: error checks, the GPU state
// (vit__cuda_state), the launch helper, and PTX wrappers (cp.async, mma.sync,
// mbarriers, TMA, wgmma).

// Records the CUDA error in m->error and returns VIT_ERROR_CUDA. A launch is
// checked as VIT__CUDA_TRY(m, (kernel<<<...>>>(...), cudaGetLastError())).
#define VIT__CUDA_TRY(m, call)                                                                         \
    do {                                                                                               \
        cudaError_t vit__e_ = (call);                                                                  \
        if (vit__e_ != cudaSuccess) {                                                                  \
            cudaGetLastError(); /* clear a non-sticky error */                                         \
            return vit__fail((m)->error, VIT_ERROR_CUDA, "CUDA error %s (%s) at vit_kernels.cuh:%d",   \
                             cudaGetErrorName(vit__e_), cudaGetErrorString(vit__e_), __LINE__);        \
        }                                                                                              \
    } while (0)

#define VIT__TRY(call)                          \
    do {                                        \
        vit_status vit__s_ = (call);            \
        if (vit__s_ != VIT_OK) return vit__s_;  \
    } while (0)

#ifndef VIT__CUDA_GRAPHS
#define VIT__CUDA_GRAPHS 8 // passes whose graphs are kept (a spread frame call uses 3)
#endif

// One block's weights on the device. Matrices in the compute dtype, (out, in).
typedef struct vit__cuda_block {
    void *qkv_w;                  // (3C, C)
    void *proj_w;                 // (C, C)
    void *fc1_w;                  // (M, C)
    void *fc2_w;                  // (C, M)
    float *ln1_w, *ln1_b;         // (C)
    float *qkv_b;                 // (3C)
    float *qn_w, *qn_b, *kn_w, *kn_b; // (D) qk-norm, or NULL
    float *proj_b;                // (C)
    float *ls1, *ls2;             // (C) or NULL
    float *ln2_w, *ln2_b;         // (C)
    float *fc1_b;                 // (M)
    float *fc2_b;                 // (C)
    float *qkv_sw, *proj_sw, *fc1_sw, *fc2_sw; // VIT_DTYPE_FP8: the four weights' column scales (weights in e4m3), else NULL
    float fc1_bw, fc1_bb;         // VIT_DTYPE_FP8: fc1's largest column norm and |bias| (vit__e4m3_bound_scale)
} vit__cuda_block;

typedef struct vit__cuda_graph {
    int batch;                    // 0: free slot
    int first;                    // the graph reads images first.. first + batch - 1 of s->images
    int from, to;                 // and runs blocks from.. to - 1 (vit__forward_cuda_body)
    int tail;                     // and, with to == depth, the norm, pooling and head after them
    unsigned long long used;      // LRU tick
    cudaGraphExec_t exec;
} vit__cuda_graph;

// The GPU eval transform of 8-bit frames (>>op preprocess): the plan for one frame size.
typedef struct vit__prep_args {
    const unsigned char *frames;    // (B, height, stride) 8-bit frames, channels interleaved
    size_t frame_bytes;             // height * stride
    int width, height, stride, channels;
    int ch, in_chans, H, W;         // model samples per pixel (1 L, 3 RGB), input channels and size
    int rh, rw, top, left;          // the resized size, the crop's first row and column in it
    int mode;                       // VIT__PREP_*
    int acc32;                      // 1: every tap sum fits an int (255 * sum |k| + rounding < 2^31)
    const int *nx, *ny;             // INDEX: (W) source column of resized column, (H) row (only crop cells read)
    const int *hb, *vb;             // RESIZE: (rw, 2), (rh, 2) first source index, taps
    const int32_t *hk, *vk;         // (rw, hks), (rh, vks)
    int hks, vks;
    int row0, rows, col0, cols;     // the first pass's output window: tmp is (B, rows, cols, ch)
    int tile, tile_smem;            // > 0: vit__prep_tile_kernel's tiles of tile x tile outputs and its shared bytes (no tmp)
    unsigned char *tmp;
    const float *lut;               // (in_chans, 256): each byte value /255, normalised (vit__prep_plan, as the CPU computes it)
    float *out;                     // (B, in_chans, H, W)
} vit__prep_args;

enum { VIT__PREP_INDEX = 0, VIT__PREP_HFIRST, VIT__PREP_VFIRST };

struct vit__cuda_state {
    int device;                   // CUDA ordinal
    int sm_count;
    int cc;                       // compute capability, 10 * major + minor
    int wgmma;                    // 1 when the sm_90a kernels are in the binary and the GPU runs them
    int smem_optin;               // the most shared memory bytes a CTA may opt in to (every plan fits it, >>policy)
#ifdef VIT_TEST_HOOKS
    int use_graphs;               // tests only: 1 (default) replay captured graphs, 0 launch directly
#endif
    int pdl;                      // 1: launches may overlap the previous kernel's tail (see vit__launch)
    int pdl_now;                  // and this forward pass is small enough to gain from it
    int walk;                     // 1: the last row-walking kernel launched (see vit__walk) walked its rows last to first
#ifdef VIT_TEST_HOOKS
    struct vit__test_hook *hook;  // tests and benchmarks only (NULL): overrides of the policy, the last plan run (>>policy)
#endif
    void *encode;                 // cuTensorMapEncodeTiled
    cudaStream_t stream;          // capture and host-API stream
    cudaEvent_t done;             // last use of the arena
    vit_dtype dtype;              // the activations' (VIT_DTYPE_FP8: bf16, the blocks' linears in e4m3)
    size_t esize;                 // bytes per compute-dtype element
    int f8;                       // VIT_DTYPE_FP8: the blocks' linears read e4m3 weights and activations

    unsigned char *weights;       // the one weight allocation
    size_t weights_bytes;
    void *patch_w;                // (C, vit__patch_k(Cin, P)): Cin*P*P inputs, zeros after them
    float *patch_b;               // (C)
    float *prefix;                // (P, C) prefix tokens, or NULL
    float *pos;                   // (N - P, C) the patches' position rows (the prefix tokens' are in prefix)
    float *tok;                   // a text tower: (V, C) the token embedding (its input step), else NULL
    int *ids, *pool_at;           // a text tower: (max_batch, N) the texts' ids, (max_batch) the token each pools at
    int *pool_host;               // a text tower: (max_batch) pool_at's values, found on the host (vit__text_pool_at)
    float *pre_w, *pre_b;         // (C) or NULL
    float *norm_w, *norm_b;       // (C) or NULL
    float *fcn_w, *fcn_b;         // (C) or NULL
    void *head_w;                 // (heads, K, C), as the linear layers' weights
    float *head_b;                // (heads, K)
    vit__cuda_block *blocks;      // (depth), host array of device pointers
    void *map_q;                  // VIT_POOL_MAP: (C) the latent's query in T
    void *map_kv_w, *map_proj_w, *map_fc1_w, *map_fc2_w; // (2C, C), (C, C), (Mm, C), (C, Mm) in T
    float *map_kv_b, *map_proj_b, *map_norm_w, *map_norm_b, *map_fc1_b, *map_fc2_b;

    unsigned char *arena;         // the one activation allocation, for B = max_batch
    size_t arena_bytes;
    float *images;                // (B, Cin, H, W)
    float *x;                     // (B, N, C) residual stream, fp32 (res16: the final rows in fp32 for the pooling, the embedding before rounding)
    void *xh;                     // residual_dtype bf16: (B, N, C) the residual stream in bf16
    void *xn;                     // (B, N, C) LayerNorm output, then attention output
    void *big;                    // (B, N, max(3C, M)) qkv, then MLP hidden
    float *pooled;                // (heads, B, C), then with heads > 1 their mean (B, C)
    float *out;                   // (B, K) logits
    float *part;                  // (split, rows, cols) fp32 partial sums of split-K GEMMs, or NULL
    size_t part_floats;           // its size; a GEMM splits only into as many slices as fit
    unsigned char *q8;            // f8: (B, N, max(C, hidden)) a linear's input rows in e4m3
    float *q8s;                   // f8: (B * N) their scales
    float *q8bs;                  // f8: (B * N, ceil(hidden / 128)) fc2's input's scales (per row, or per row and 128 columns after SwiGLU)
    float *q8n;                   // f8: (B * N) the norms of the e4m3 rows in q8 (vit__e4m3_row_norm), for fc1's bound

    // the persistent kernel's workspace (>>persistent), made at load for
    // pk_images = min(max_batch, VIT__PK_IMAGES) images where it runs the model, else NULL
    unsigned char *pk_ws;
    void *pk_qkv, *pk_ao;
    float *pk_part;
    unsigned *pk_sync;
    vit__cuda_block *pk_blocks;   // (depth) on the device: s->blocks
    int pk_images;
    int pk_nsync;                 // the counters its workspace holds (vit__pk_nsync_max)

    vit__cuda_graph graphs[VIT__CUDA_GRAPHS];
    unsigned long long tick;

    // host-API staging (vit__cuda_chunks): two slots of stage_bytes / 2 each,
    // pinned on the host and on the device, so that chunk i + 1's copy runs
    // while chunk i computes; outputs come back through pinned out slots
    unsigned char *pin_in, *dev_in;
    size_t stage_bytes;
    float *pin_out;               // (2, max_batch, out_floats)
    float *feat_buf;              // a features call with host output: one chunk's blocks (vit__feat_chunk), grown on use
    size_t feat_bytes;
    size_t out_floats;            // floats per image of the widest output
    cudaStream_t copy;            // the host -> device copies
    cudaEvent_t staged[2];        // slot j's copy to the device is done (the host may refill it)
    cudaEvent_t consumed[2];      // slot j's device bytes are read (the next copy may land)
    cudaEvent_t outed[2];         // out slot j holds its chunk's outputs

    // frames (vit_*_rgb8): the plan for the last frame size, its taps, first-pass bytes
    vit__prep_args prep;
    int prep_width, prep_height;  // 0: no plan
    unsigned char *prep_tab, *prep_tmp;
    size_t prep_tab_bytes, prep_tmp_bytes;
};

// Launches kernel k(args) on st; with m->cuda->pdl (the GPU and every kernel in
// the binary are sm_90+) as a programmatic dependent launch, so that the launch
// and prologue overlap the previous kernel (graph capture keeps the edge).
template <typename... P, typename... A>
static cudaError_t vit__launch(vit_model *m, void (*k)(P...), dim3 grid, dim3 block, size_t smem, cudaStream_t st, A... args) {
    cudaLaunchAttribute at[1] = {};
    at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    at[0].val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = grid;
    cfg.blockDim = block;
    cfg.dynamicSmemBytes = smem;
    cfg.stream = st;
    cfg.attrs = at;
    cfg.numAttrs = m->cuda->pdl && m->cuda->pdl_now ? 1 : 0;
    cudaError_t e = cudaLaunchKernelEx(&cfg, k, ((P)args)...);
    return e != cudaSuccess ? e : cudaGetLastError();
}

static vit_status vit__cuda_malloc(vit_model *m, unsigned char **p, size_t bytes, const char *what) {
    cudaError_t e = cudaMalloc((void **)p, bytes);
    if (e == cudaSuccess) return VIT_OK;
    cudaGetLastError();
    *p = NULL;
    return vit__fail(m->error, e == cudaErrorMemoryAllocation ? VIT_ERROR_OUT_OF_MEMORY : VIT_ERROR_CUDA,
                     "cudaMalloc of %zu bytes for %s: %s", bytes, what, cudaGetErrorString(e));
}

// Programmatic dependent launch (sm_90+). Every kernel calls vit__pdl_wait()
// before it touches memory that an earlier kernel writes, or writes memory an
// earlier kernel reads: it returns once the previous grid on the stream has
// completed and its writes are visible (at once without PDL). Before it, a
// kernel may only read what no kernel writes (weights). vit__pdl_launch() lets
// the next kernel start its own prologue on SMs this grid leaves free.
static __device__ __forceinline__ void vit__pdl_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;\n" ::: "memory");
#endif
}
// This CTA's share of [p, p + bytes) fetched into L2 (a bulk prefetch: nothing
// waits for it; sm_90+). Small forward passes use it to stream a block's
// weights from HBM while its attention runs, ahead of the GEMMs that read them.
static __device__ __forceinline__ void vit__l2_prefetch_share(const char *p, size_t bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    size_t n = (size_t)gridDim.x * gridDim.y * gridDim.z, id = blockIdx.x + (size_t)gridDim.x * (blockIdx.y + (size_t)gridDim.y * blockIdx.z);
    size_t chunk = ((bytes + n - 1) / n + 15) & ~(size_t)15, off = id * chunk;
    if (off >= bytes) return;
    size_t len = (bytes - off < chunk ? bytes - off : chunk) & ~(size_t)15;
    if (len) asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;\n" ::"l"(p + off), "r"((unsigned)len) : "memory");
#else
    (void)p; (void)bytes;
#endif
}
static __device__ __forceinline__ void vit__pdl_launch() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;\n" ::: "memory");
#endif
}

static __device__ __forceinline__ float vit__f32(float x) { return x; }
static __device__ __forceinline__ float vit__f32(__nv_bfloat16 x) { return __bfloat162float(x); }
static __device__ __forceinline__ float vit__f32(__half x) { return __half2float(x); }

template <typename T> static __device__ __forceinline__ T vit__cvt(float x);
template <> __device__ __forceinline__ float vit__cvt<float>(float x) { return x; }
template <> __device__ __forceinline__ __nv_bfloat16 vit__cvt<__nv_bfloat16>(float x) { return __float2bfloat16_rn(x); }
template <> __device__ __forceinline__ __half vit__cvt<__half>(float x) { return __float2half_rn(x); }

// two floats as one 32-bit pair of T (low half = a)
template <typename T> static __device__ __forceinline__ uint32_t vit__pack2(float a, float b);
template <> __device__ __forceinline__ uint32_t vit__pack2<__nv_bfloat16>(float a, float b) {
    __nv_bfloat162 v = __floats2bfloat162_rn(a, b);
    return *(uint32_t *)&v;
}
template <> __device__ __forceinline__ uint32_t vit__pack2<__half>(float a, float b) {
    __half2 v = __floats2half2_rn(a, b);
    return *(uint32_t *)&v;
}

template <typename T> struct vit__is_bf16 { enum { value = 0 }; };
template <> struct vit__is_bf16<__nv_bfloat16> { enum { value = 1 }; };
// the 16-bit type a kernel is instantiated with (fp32 never reaches mma code: its
// branch is dead, but still compiled)
template <typename T> struct vit__half_t { typedef T type; };
template <> struct vit__half_t<float> { typedef __nv_bfloat16 type; };

// out[0], out[1] = a, b with one 4- or 8-byte store
static __device__ __forceinline__ void vit__store2(float *o, float a, float b) { *(float2 *)o = make_float2(a, b); }
static __device__ __forceinline__ void vit__store2(__nv_bfloat16 *o, float a, float b) { *(__nv_bfloat162 *)o = __floats2bfloat162_rn(a, b); }
static __device__ __forceinline__ void vit__store2(__half *o, float a, float b) { *(__half2 *)o = __floats2half2_rn(a, b); }

template <int V> struct vit__int { static constexpr int value = V; }; // a compile-time int for generic lambdas

// The GEMM kernels' ACT template parameter: the epilogue's activation. Today's
// models' (none, GELU) are compile-time constants, so their epilogues compile
// to what they were before activations were a choice; any other activation
// runs in the VIT__ACT_RUNTIME instance, which reads g.act at each column pair
// (one more instance per kernel, not one per activation). One instance for all
// activations would be slower: a compile-time switch over all of them makes the
// fp32 SGEMM spill registers. [BENCHMARKS: GEMM: activations]
#define VIT__ACT_RUNTIME (-1)

static __device__ __forceinline__ float vit__warp_sum(float v) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

// over the 4 lanes of a quad (lane & ~3 ..): the lanes that hold one row of an mma accumulator
static __device__ __forceinline__ float vit__quad_sum(float v) {
    v += __shfl_xor_sync(0xffffffffu, v, 1);
    return v + __shfl_xor_sync(0xffffffffu, v, 2);
}
static __device__ __forceinline__ float vit__quad_max(float v) {
    v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, 1));
    return fmaxf(v, __shfl_xor_sync(0xffffffffu, v, 2));
}

static __device__ __forceinline__ uint32_t vit__smem_u32(const void *p) {
    return (uint32_t)__cvta_generic_to_shared(p);
}

// ---- sm_80 primitives: cp.async, ldmatrix, mma.sync

// 16-byte async copy; src_bytes 0 writes zeros (src is then not read)
static __device__ __forceinline__ void vit__cp16(void *smem, const void *gmem, int src_bytes) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(vit__smem_u32(smem)), "l"(gmem), "r"(src_bytes) : "memory");
}
static __device__ __forceinline__ void vit__cp_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int N> static __device__ __forceinline__ void vit__cp_wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory"); }

static __device__ __forceinline__ void vit__ldsm4(uint32_t *r, const void *p) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(vit__smem_u32(p)));
}
static __device__ __forceinline__ void vit__ldsm4t(uint32_t *r, const void *p) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(vit__smem_u32(p)));
}

// d (16x8, fp32) += a (16x16) b (16x8)
static __device__ __forceinline__ void vit__mma(float *d, const uint32_t *a, const uint32_t *b, __nv_bfloat16 *) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
static __device__ __forceinline__ void vit__mma(float *d, const uint32_t *a, const uint32_t *b, __half *) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// ---- sm_90a primitives: mbarrier, TMA, wgmma (only ever executed where vit__cuda_state.wgmma is 1)
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define VIT__SM90A 1
#endif

#ifdef VIT__SM90A
static __device__ __forceinline__ void vit__mbar_init(uint64_t *bar, int count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(vit__smem_u32(bar)), "r"(count) : "memory");
}
static __device__ __forceinline__ void vit__mbar_expect(uint64_t *bar, uint32_t bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(vit__smem_u32(bar)), "r"(bytes) : "memory");
}
static __device__ __forceinline__ void vit__mbar_arrive(uint64_t *bar) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(vit__smem_u32(bar)) : "memory");
}
static __device__ __forceinline__ void vit__mbar_wait(uint64_t *bar, uint32_t parity) {
    uint32_t done;
    do {
        asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}\n"
                     : "=r"(done) : "r"(vit__smem_u32(bar)), "r"(parity) : "memory");
    } while (!done);
}
// one 2-D box (c0 = column, c1 = row) of a tensor map into shared memory, completing on bar
static __device__ __forceinline__ void vit__tma_load(void *dst, const CUtensorMap *map, int c0, int c1, uint64_t *bar) {
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n"
                 ::"r"(vit__smem_u32(dst)), "l"((uint64_t)map), "r"(c0), "r"(c1), "r"(vit__smem_u32(bar)) : "memory");
}
// one 3-D box (c0 = column, c1 = row, c2 = plane) into shared memory, completing on bar
static __device__ __forceinline__ void vit__tma_load3(void *dst, const CUtensorMap *map, int c0, int c1, int c2, uint64_t *bar) {
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];\n"
                 ::"r"(vit__smem_u32(dst)), "l"((uint64_t)map), "r"(c0), "r"(c1), "r"(c2), "r"(vit__smem_u32(bar)) : "memory");
}
// shared -> global as an add in L2: x[box at (c0 = column, c1 = row)] += smem box (fp32)
static __device__ __forceinline__ void vit__tma_reduce_add(const CUtensorMap *map, const void *src, int c0, int c1) {
    asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%0, {%1, %2}], [%3];\n"
                 ::"l"((uint64_t)map), "r"(c0), "r"(c1), "r"(vit__smem_u32(src)) : "memory");
    asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
}
// shared -> global: the smem box to (c0 = column, c1 = row) of the tensor map's matrix
static __device__ __forceinline__ void vit__tma_store(const CUtensorMap *map, const void *src, int c0, int c1) {
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];\n"
                 ::"l"((uint64_t)map), "r"(c0), "r"(c1), "r"(vit__smem_u32(src)) : "memory");
    asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
}
// shared -> global: the smem box to (c0 = column, c1 = row, c2 = plane) of a 3-D tensor map
static __device__ __forceinline__ void vit__tma_store3(const CUtensorMap *map, const void *src, int c0, int c1, int c2) {
    asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%0, {%1, %2, %3}], [%4];\n"
                 ::"l"((uint64_t)map), "r"(c0), "r"(c1), "r"(c2), "r"(vit__smem_u32(src)) : "memory");
    asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
}
static __device__ __forceinline__ void vit__wg_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
static __device__ __forceinline__ void vit__wg_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
template <int N> static __device__ __forceinline__ void vit__wg_wait() { asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory"); }
// Ties the accumulators to this point: the compiler may not move their reads or
// writes across it (after wgmma.wait, before the first wgmma of a tile).
template <int N> static __device__ __forceinline__ void vit__wg_fence_regs(float *d) {
#pragma unroll
    for (int i = 0; i < N; i++) asm volatile("" : "+f"(d[i])::"memory");
}

// Shared-memory matrix descriptor of a K-major tile written by TMA with 128-byte
// swizzle: rows of 64 elements (128 B), 8-row atoms 1024 B apart.
static __device__ __forceinline__ uint64_t vit__wg_desc(const void *p) {
    uint64_t a = vit__smem_u32(p);
    return ((a & 0x3FFFF) >> 4) | (1ull << 16) | ((uint64_t)(1024 >> 4) << 32) | (1ull << 62);
}

// The wgmma asm: the accumulators d[0..n) are its "+f" outputs (VIT__WG_D8 and
// VIT__WG_D32 list them) and %0 .. %n-1 in its braces (VIT__WG_R*, strings:
// PTX needs the numbers written out); then A's and B's descriptors and the
// scale-d flag (d = A B + d, or A B where it is 0). KT: the instruction's K and types
// ("k16.f32.bf16.bf16"); TAIL: the transpose immediates bf16/fp16 take (e4m3
// has none: K-major only, as these tiles are).
#define VIT__WG_D8(i) "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), "+f"(d[i + 5]), "+f"(d[i + 6]), "+f"(d[i + 7])
#define VIT__WG_D32(i) VIT__WG_D8(i), VIT__WG_D8(i + 8), VIT__WG_D8(i + 16), VIT__WG_D8(i + 24)
#define VIT__WG_R0_32 "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
#define VIT__WG_R32_40 ", %32, %33, %34, %35, %36, %37, %38, %39"
#define VIT__WG_R32_64 ", %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
#define VIT__WG_R64_96 ", %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95"
// SHAPE "m64nN"; REGS the accumulators' numbers; AB the descriptors' ("%a, %b"),
// P the flag's; SD the flag's value; the outputs last
#define VIT__WGMMA_ASM(SHAPE, KT, TAIL, REGS, AB, P, SD, ...)                                                       \
    asm volatile("{\n"                                                                                               \
                 ".reg .pred p;\n"                                                                                   \
                 "setp.ne.b32 p, " P ", 0;\n"                                                                        \
                 "wgmma.mma_async.sync.aligned." SHAPE KT " {" REGS "}, " AB ", p, 1, 1" TAIL ";\n"                  \
                 "}\n"                                                                                               \
                 : __VA_ARGS__                                                                                       \
                 : "l"(da), "l"(db), "r"(SD))
#define VIT__WGMMA64_ASM(KT, TAIL) VIT__WGMMA_ASM("m64n64", KT, TAIL, VIT__WG_R0_32, "%32, %33", "%34", sd, VIT__WG_D32(0))
// n = 80: the wgmma attention's last key tile of at most 80 keys (vit__attention_wgmma_kernel)
#define VIT__WGMMA80_ASM(KT, TAIL) \
    VIT__WGMMA_ASM("m64n80", KT, TAIL, VIT__WG_R0_32 VIT__WG_R32_40, "%40, %41", "%42", 1, VIT__WG_D32(0), VIT__WG_D8(32))
#define VIT__WGMMA128_ASM(KT, TAIL) \
    VIT__WGMMA_ASM("m64n128", KT, TAIL, VIT__WG_R0_32 VIT__WG_R32_64, "%64, %65", "%66", sd, VIT__WG_D32(0), VIT__WG_D32(32))
// n = 192: the ping-pong kernel's 128 x 192 tiles (vit__linear_wgmma_kernel)
#define VIT__WGMMA192_ASM(KT, TAIL)                                                                                 \
    VIT__WGMMA_ASM("m64n192", KT, TAIL, VIT__WG_R0_32 VIT__WG_R32_64 VIT__WG_R64_96, "%96, %97", "%98", sd, VIT__WG_D32(0), \
                   VIT__WG_D32(32), VIT__WG_D32(64))

// a compile-time int as a value (the width of a wgmma attention key tile)
template <int V> struct vit__ic { static constexpr int value = V; };

// d (64 x N per warpgroup, fp32) += A (64 x KW, smem) B (N x KW, smem); KW = 16 (bf16, fp16) or 32 (e4m3)
// (n = 64, 128: sd 0, d = A B: d's old values not read)
static __device__ __forceinline__ void vit__wgmma128(float *d, uint64_t da, uint64_t db, __nv_bfloat16 *, int sd = 1) { VIT__WGMMA128_ASM("k16.f32.bf16.bf16", ", 0, 0"); }
static __device__ __forceinline__ void vit__wgmma128(float *d, uint64_t da, uint64_t db, __half *, int sd = 1) { VIT__WGMMA128_ASM("k16.f32.f16.f16", ", 0, 0"); }
static __device__ __forceinline__ void vit__wgmma128(float *d, uint64_t da, uint64_t db, __nv_fp8_e4m3 *, int sd = 1) { VIT__WGMMA128_ASM("k32.f32.e4m3.e4m3", ""); }
static __device__ __forceinline__ void vit__wgmma64(float *d, uint64_t da, uint64_t db, __nv_bfloat16 *, int sd = 1) { VIT__WGMMA64_ASM("k16.f32.bf16.bf16", ", 0, 0"); }
static __device__ __forceinline__ void vit__wgmma64(float *d, uint64_t da, uint64_t db, __half *, int sd = 1) { VIT__WGMMA64_ASM("k16.f32.f16.f16", ", 0, 0"); }
static __device__ __forceinline__ void vit__wgmma64(float *d, uint64_t da, uint64_t db, __nv_fp8_e4m3 *, int sd = 1) { VIT__WGMMA64_ASM("k32.f32.e4m3.e4m3", ""); }
static __device__ __forceinline__ void vit__wgmma80(float *d, uint64_t da, uint64_t db, __nv_bfloat16 *) { VIT__WGMMA80_ASM("k16.f32.bf16.bf16", ", 0, 0"); }
static __device__ __forceinline__ void vit__wgmma80(float *d, uint64_t da, uint64_t db, __half *) { VIT__WGMMA80_ASM("k16.f32.f16.f16", ", 0, 0"); }
static __device__ __forceinline__ void vit__wgmma192(float *d, uint64_t da, uint64_t db, __nv_bfloat16 *, int sd = 1) { VIT__WGMMA192_ASM("k16.f32.bf16.bf16", ", 0, 0"); }
static __device__ __forceinline__ void vit__wgmma192(float *d, uint64_t da, uint64_t db, __half *, int sd = 1) { VIT__WGMMA192_ASM("k16.f32.f16.f16", ", 0, 0"); }
static __device__ __forceinline__ void vit__wgmma192(float *d, uint64_t da, uint64_t db, __nv_fp8_e4m3 *, int sd = 1) { VIT__WGMMA192_ASM("k32.f32.e4m3.e4m3", ""); }
// d (64 x 64, fp32) += A (64 x 16, registers: the m16n8k16 A fragment per warp,
// as the accumulator of two n8 columns converts to) B (16 x 64, smem, MN-major:
// rows of 64 elements along N, 128-byte swizzled, 8-row atoms 1024 B apart,
// which vit__wg_desc describes as well): the attention's P V, V as TMA wrote it.
#define VIT__WGMMA64_RS_ASM(KT)                                                                                     \
    asm volatile("{\n"                                                                                               \
                 ".reg .pred p;\n"                                                                                   \
                 "setp.ne.b32 p, %37, 0;\n"                                                                          \
                 "wgmma.mma_async.sync.aligned.m64n64" KT " {" VIT__WG_R0_32 "}, {%32, %33, %34, %35}, %36, p, 1, 1, 1;\n" \
                 "}\n"                                                                                               \
                 : VIT__WG_D32(0)                                                                                    \
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(1))
static __device__ __forceinline__ void vit__wgmma64_rs(float *d, const uint32_t *a, uint64_t db, __nv_bfloat16 *) { VIT__WGMMA64_RS_ASM("k16.f32.bf16.bf16"); }
static __device__ __forceinline__ void vit__wgmma64_rs(float *d, const uint32_t *a, uint64_t db, __half *) { VIT__WGMMA64_RS_ASM("k16.f32.f16.f16"); }
#endif // VIT__SM90A

// dst[i] = src[i] in dst's type, i < n (the residual stream between fp32 and
// bf16 where no kernel writes it in the other one: vit__cuda_state.xh).
// Parallel over elements, a grid-stride loop.
template <typename TD, typename TS>
__global__ void vit__convert_kernel(TD *dst, const TS *src, size_t n) {
    vit__pdl_wait();
    vit__pdl_launch();
    for (size_t i = (size_t)blockIdx.x * 256 + threadIdx.x; i < n; i += (size_t)gridDim.x * 256) dst[i] = vit__cvt<TD>(vit__f32(src[i]));
}
template <typename TD, typename TS>
static vit_status vit__convert_cuda(TD *dst, const TS *src, size_t n, vit_model *m, cudaStream_t st) {
    if (n == 0) return VIT_OK;
    size_t blocks = (n + 255) / 256, cap = (size_t)m->cuda->sm_count * 8;
    VIT__CUDA_TRY(m, vit__launch(m, vit__convert_kernel<TD, TS>, dim3((unsigned)(blocks < cap ? blocks : cap)), 256, 0, st, dst, src, n));
    return VIT_OK;
}

// >>policy --------------------------------------------------------------------
// Every choice of kernel, tile, K split and warps, made once per shape into a
// vit__plan that the launchers take and obey. Each decision is one short
// function; BENCHMARKS.md's per-kernel notes (named as [BENCHMARKS: heading])
// hold the measurements behind it. A test or benchmark build (VIT_TEST_HOOKS
// defined before vit.h) may override the choices and read the last plan run
// through vit__cuda_state.hook; other builds have neither.

#define VIT__SPLITK_MAX 8      // K slices of a split-K GEMM at most
#define VIT__FMA_BK 16         // K tile of vit__linear_fma_kernel
#define VIT__MMA_BK 32         // K step of the persistent kernel's mma.sync tiles
// vit__linear_mma_kernel's tiles of BM rows (128 or 64): columns, K step, ring stages, shared memory
#define VIT__MMA_BN(BM) ((BM) == 64 ? 64 : 256)
#define VIT__MMA_BKT(BM) ((BM) == 64 ? 64 : 32)
#define VIT__MMA_ST(BM) 4
#define VIT__MMA_SMEM(BM, BN) (VIT__MMA_ST(BM) * ((BM) + (BN)) * VIT__MMA_BKT(BM) * 2)
#define VIT__WG_BM 128         // rows of a wgmma GEMM tile
#define VIT__ATTN_FULL_MAX 256 // mma.sync attention: whole K/V per CTA up to this many keys
#define VIT__ATTN_WGMMA_MIN 256 // wgmma attention: for more keys than this (or large grids)
#define VIT__ATTW3_MIN 3072    // wgmma attention, head size 64: three consumer warpgroups from this many queries
#define VIT__ATTF_WQ 16        // fp32 attention: queries per warp

// Operand types of a GEMM (vit__gemm_args.optype)
enum { VIT__OP_BF16 = 0, VIT__OP_F16, VIT__OP_F32, VIT__OP_E4M3 };
// The wgmma GEMM's output mode for e4m3 outputs (fc1 of VIT_DTYPE_FP8; see vit__wg_epilogue_tma)
enum { VIT__OUT_E4M3 = 17 };

// The kernel a plan names
enum {
    VIT__K_FMA = 1,      // fp32 FMA SGEMM
    VIT__K_MMA_VEC,      // mma.sync, 128 x 256 tiles, 16-byte operand loads
    VIT__K_MMA_SCALAR,   // the same, element loads (K % 8 or unaligned operands)
    VIT__K_MMA64_VEC,    // mma.sync, 64 x 64 tiles
    VIT__K_MMA64_SCALAR,
    VIT__K_WG64,         // sm_90a wgmma + TMA, cooperative 128 x 64 tiles
    VIT__K_WG128,        // cooperative 128 x 128 tiles
    VIT__K_PP128,        // ping-pong 128 x 128 tiles
    VIT__K_PP192,        // ping-pong 128 x 192 tiles
    VIT__K_ATT_FMA,      // fp32 FMA flash attention
    VIT__K_ATT_STREAM,   // mma.sync, K/V tiles streamed
    VIT__K_ATT_FULL,     // mma.sync, whole K/V per CTA
    VIT__K_ATT_SPLIT_KEYS, // mma.sync, whole K/V, keys split across warps
    VIT__K_ATT_WGMMA,    // sm_90a: wgmma + TMA, K/V tiles streamed
    VIT__K_ATT_STREAM32, // mma.sync, K/V tiles streamed, 32 query rows per warp
    VIT__K_ATT_FULL32    // mma.sync, whole K/V per CTA, 4 warps of 32 query rows (forced only: attn_rows)
};

typedef struct vit__plan {
    int kernel; // VIT__K_*; 0: no kernel runs (nothing to do, or refused)
    int split;  // GEMM: K slices (1: not split)
    int deep;   // ping-pong GEMM: the 6-stage ring, one staging box per consumer
    int vec;    // 16-byte operand loads (alignment and K allow them)
    int warps;  // warps per CTA (wgmma attention: 4 * (consumer warpgroups + 1))
    int ping;   // wgmma attention: the consumer warpgroups take turns issuing GEMMs
    int smem;   // dynamic shared memory bytes per CTA of the kernel (at most vit__plan_smem_max)
} vit__plan;

// Requests of vit__test_hook.gemm: a bf16/fp16 GEMM kernel family
enum { VIT__GEMM_AUTO = 0, VIT__GEMM_MMA, VIT__GEMM_MMA64, VIT__GEMM_WGMMA128, VIT__GEMM_PP128, VIT__GEMM_WGMMA64, VIT__GEMM_PP192 };

#ifdef VIT_TEST_HOOKS
// Tests and benchmarks only: choices that override the policy's (0: the
// policy's own), and the plan of the last GEMM or attention launched.
typedef struct vit__test_hook {
    int gemm;         // VIT__GEMM_*: the bf16/fp16 GEMM family (one the shape cannot take: the policy's fallback)
    int splitk;       // 1: never split K; n >= 2: n slices for every GEMM that can
    int attn_warps;   // bf16/fp16 mma.sync 4 or 8; fp32 at most 1 to 8
    int attn_full;    // 1: never whole-K/V CTAs; 2: whenever Nk fits; 3: with keys split across warps
    int attn_rows;    // mma.sync: 16 or 32 query rows per warp (32: head sizes up to 64; whole K/V: 4 warps of 32 rows)
    int attn_wgmma;   // 1: never the wgmma attention; 2: wherever it can run; 3, 4: as 2 with two, three consumer warpgroups
    int attn_ping;    // 1: the wgmma attention's warpgroups each issue on their own
    int no_prefetch;  // 1: small forward passes do not fetch each block's weights into L2 during its attention
    int stage_first;  // host inputs: images in the first chunk
    int stage_grow;   // and how many times larger each next chunk may be
    int stage_blocks; // spread host frames: blocks each chunk's pass runs (>= depth: all)
    int stage_device; // 1: device inputs are chunked (and spread) as host inputs are, in the same passes
    int stage_piece;  // spread host frames: frames per piece of a chunk's DMA and transform
    int prep_tiles;   // frames: 1 never the tiled transform (the two-pass kernels); 8, 16: tiles of at most that
    int walk_forward; // 1: every row-walking kernel walks its rows first to last
    int smem_limit;   // > 0: the plans fit this many shared memory bytes per CTA, not the GPU's opt-in limit
    int persistent;   // 1: never the persistent kernel; 2: wherever it can run (>>persistent)
    int pk_ctas;      // > 0: the persistent kernel runs this many CTAs (not one per SM)
    int pk_rows;      // 128 or 256: the persistent kernel's GEMM tiles have that many rows (not 64)
    int pk_ran;       // out: 1 when the last forward pass planned its blocks in the persistent kernel
    unsigned long long *pk_trace; // device memory: the persistent kernel's work item i writes [4 i ..]: started, inputs
                                  // ready, done (globaltimer ns), SM | stage << 8 | block << 16
    vit__plan ran;    // out: what the last GEMM or attention launcher ran
} vit__test_hook;
// What vit_load sees of a GPU, set by a test on its own thread (0: the truth):
// a compute capability to pretend, or that this program has no code the GPU
// can run (vit__cuda_can_run).
typedef struct vit__test_gpu_fake {
    int cc;
    int no_code;
} vit__test_gpu_fake;
static VIT__THREAD_LOCAL vit__test_gpu_fake vit__test_gpu;
#define VIT__HOOK(s, field) ((s)->hook ? (s)->hook->field : 0)
#define VIT__HOOK_RAN(s, plan) do { if ((s)->hook) (s)->hook->ran = (plan); } while (0)
#else
#define VIT__HOOK(s, field) ((void)(s), 0)
#define VIT__HOOK_RAN(s, plan) ((void)(s))
#endif

// The most dynamic shared memory a CTA of a plan's kernel may use: the GPU's
// opt-in limit per block (cudaDevAttrMaxSharedMemoryPerBlockOptin: 99 KB on
// sm_86/89/120/121, 163 KB on sm_80/87, 227 KB on sm_90/100), or a test's
// smaller one. Every plan fits it, falling back to kernels of less staging,
// or names the shortfall (kernel 0); the launchers check it again.
static int vit__plan_smem_max(const vit__cuda_state *s) {
    int forced = VIT__HOOK(s, smem_limit);
    return forced > 0 && forced < s->smem_optin ? forced : s->smem_optin;
}

// The kernels' own dynamic shared memory formulas, next to each kernel
static int vit__gemm_smem(int kernel, int deep, int optype, int out, int act);
static int vit__attn_smem(int kernel, int warps, int D, int Nk, int esize);

// Refuses a launch of smem dynamic bytes above vit__plan_smem_max (a plan
// that does not fit: never a failed launch)
static vit_status vit__smem_check(vit_model *m, int smem, const char *what) {
    int most = vit__plan_smem_max(m->cuda);
    if (smem <= most) return VIT_OK;
    return vit__fail(m->error, VIT_ERROR_UNSUPPORTED, "%s needs %d bytes of shared memory per block; this GPU (sm_%d) allows %d", what, smem, m->cuda->cc, most);
}

static vit__plan vit__plan_none(void) {
    vit__plan p = {0, 1, 0, 0, 0, 0, 0};
    return p;
}

// The direction the next row-walking kernel (wgmma GEMM, wgmma attention,
// LayerNorm, e4m3 rounding pass) takes, 1 = its last rows first: the opposite
// of the last one's, so that it starts on the rows its predecessor wrote last,
// still in L2. Only the order of independent work items changes, never a
// result's bits. [BENCHMARKS: Row walk order]
static int vit__walk(vit__cuda_state *s) {
    s->walk = VIT__HOOK(s, walk_forward) ? 0 : !s->walk;
    return s->walk;
}

// Programmatic dependent launch for forward passes small enough to gain from
// it (kernels short beside their launch gaps). [BENCHMARKS: PDL]
static int vit__plan_pdl(const vit__cuda_state *s, int rows) { return rows <= 32 * s->sm_count; }

// Whether each block's attention fetches the next weights into L2: only where
// PDL runs (small passes, latency-bound GEMMs). [BENCHMARKS: Batch 1]
static int vit__plan_prefetch(const vit__cuda_state *s) { return s->pdl_now && !VIT__HOOK(s, no_prefetch); }

// K slices of an mma.sync or FMA GEMM of `tiles` output tiles and KB K steps:
// with fewer tiles than two per SM, about two CTAs per SM; at most
// VIT__SPLITK_MAX, KB / 4, and what fits in the partial sums; every slice
// non-empty. [BENCHMARKS: GEMM: split-K]
static int vit__plan_split_grid(const vit__cuda_state *s, int patch, int tiles, int KB, size_t plane) {
    int split = 1, sm = s->sm_count, forced = VIT__HOOK(s, splitk);
    if (patch || !s->part || forced == 1) return 1;
    if (forced >= 2) split = forced < KB ? forced : KB;
    else if (tiles < 2 * sm) {
        split = (2 * sm + tiles - 1) / tiles;
        if (split > KB / 4) split = KB / 4;
    }
    if (split > VIT__SPLITK_MAX) split = VIT__SPLITK_MAX;
    while (split > 1 && (size_t)split * plane > s->part_floats) split--;
    if (split <= 1) return 1;
    int kb = (KB + split - 1) / split;
    return (KB + kb - 1) / kb;
}

// mma.sync tiles: 128 x 256 where their waves take less time than those of
// 64 x 64 tiles, per_sm of which run on an SM at once (2 where a CTA may opt in
// to twice their 64 KB, sm_80/87/90/100; 1 on the 99 KB GPUs, sm_86/89/12x). A
// big tile is 8 small ones' work, done at 1.25 times their rate (H100, the
// ViT-S/B/L linears at batch 8 to 256, both forced: a wave of big tiles takes
// 6.4 small-tile times, one of two small tiles 2). [BENCHMARKS: GEMM: mma.sync]
static VIT__HD inline int vit__mma_big(int sm, int per_sm, int M, int N) {
    long long big = (long long)((M + 127) / 128) * ((N + 255) / 256), small = (long long)((M + 63) / 64) * ((N + 63) / 64);
    long long wb = (big + sm - 1) / sm, ws = (small + (long long)per_sm * sm - 1) / ((long long)per_sm * sm);
    return wb * 16 <= ws * 5; // (a wave of one 4-warp tile an SM taken as long as one of two: not measured)
}
static VIT__HD inline int vit__mma_per_sm(int smem_optin) { return smem_optin >= 2 * VIT__MMA_SMEM(64, 64) ? 2 : 1; }

// K slices of a wgmma GEMM (one CTA per SM): as many as keep one work item per
// SM when at most half as many tiles as SMs and the next LayerNorm reduces
// them (defer), below a quarter when a reduction kernel must; slices divide
// KB evenly. [BENCHMARKS: GEMM: split-K]
static int vit__plan_split_wg(const vit__cuda_state *s, int tiles, int KB, size_t plane, int defer) {
    int split = 1, forced = VIT__HOOK(s, splitk);
    if (!s->part || forced == 1) return 1;
    if (forced >= 2) split = forced;
    else if ((defer ? 2 : 4) * tiles <= s->sm_count) split = s->sm_count / tiles;
    if (split > VIT__SPLITK_MAX) split = VIT__SPLITK_MAX;
    while (split > 1 && (KB % split || (size_t)split * plane > s->part_floats)) split--;
    return split;
}

// The wgmma tiles of an (M, N, K) GEMM of bk-wide K steps with output mode
// out: ping-pong 128 x 128 once the tiles fill the SMs, 128 x 192 where those
// make at least 4 waves that finish sooner (not for short-K fp32 outputs,
// e4m3 outputs of K >= 1024, or the patch GEMM); fewer tiles than SMs:
// cooperative 128 x 64 while those fit on the SMs at once, else 128 x 128,
// K split across idle SMs. [BENCHMARKS: GEMM: wgmma ping-pong]
static vit__plan vit__plan_wgmma(const vit__cuda_state *s, int M, int N, int K, int bk, int out, int defer) {
    int req = VIT__HOOK(s, gemm), sm = s->sm_count, mt = (M + VIT__WG_BM - 1) / VIT__WG_BM, t128 = mt * ((N + 127) / 128), bn = 128;
    vit__plan p = vit__plan_none();
    p.kernel = VIT__K_WG128;
    p.vec = 1;
    if (req == VIT__GEMM_WGMMA64) p.kernel = VIT__K_WG64, bn = 64;
    else if (req == VIT__GEMM_PP192 && out != VIT__OUT_PATCH) p.kernel = VIT__K_PP192, bn = 192;
    else if (req == VIT__GEMM_PP128 || (req != VIT__GEMM_WGMMA128 && t128 >= sm)) {
        int t192 = mt * ((N + 191) / 192), w128 = (t128 + sm - 1) / sm, w192 = (t192 + sm - 1) / sm;
        int wide_ok = out != VIT__OUT_PATCH && !((out == VIT__OUT_RESIDUAL || defer) && K < 1536) && !(out == VIT__OUT_E4M3 && K >= 1024);
        p.kernel = VIT__K_PP128;
        if (!req && wide_ok && t192 >= 4 * sm && 7 * w192 < 5 * w128) p.kernel = VIT__K_PP192, bn = 192;
    } else if (req != VIT__GEMM_WGMMA128 && 2 * t128 <= sm) p.kernel = VIT__K_WG64, bn = 64;
    if (out != VIT__OUT_PATCH) p.split = vit__plan_split_wg(s, mt * ((N + bn - 1) / bn), (K + bk - 1) / bk, (size_t)M * N, defer);
    return p;
}

// The plan of one GEMM. optype: the operands' (VIT__OP_*); tma: the shapes and
// pointers suit the TMA (K and N multiples of 8, 16-byte aligned operands and
// output); vec: the operands suit 16-byte loads; act: the epilogue's
// activation; e4m3_out, a_blocks: the e4m3 epilogue and per-128-column input
// scales (VIT_DTYPE_FP8). fp32: the FMA SGEMM. bf16/fp16: wgmma on sm_90a where
// the TMA takes the shapes, the deep ring for long K or an activation
// epilogue, else mma.sync at 128 x 256 tiles where their waves are shorter
// (vit__mma_big), 64 x 64 otherwise. e4m3: wgmma only (kernel 0 otherwise).
// Shared memory: a wgmma plan above vit__plan_smem_max (never on a Hopper: 227
// KB; a test's limit) falls back to mma.sync (96 or 64 KB), e4m3 to kernel 0
// with the bytes it needed in smem. [BENCHMARKS: GEMM: wgmma ping-pong]
// [BENCHMARKS: GEMM: mma.sync] [BENCHMARKS: GEMM: fp32 FMA] [BENCHMARKS: GEMM: fp8 (e4m3)]
static vit__plan vit__plan_gemm(const vit__cuda_state *s, int optype, int M, int N, int K, int out, int act, int defer, int tma, int vec,
                                int e4m3_out, int a_blocks) {
    int req = VIT__HOOK(s, gemm), mma_req = req == VIT__GEMM_MMA || req == VIT__GEMM_MMA64, most = vit__plan_smem_max(s);
    vit__plan p = vit__plan_none();
    if (optype == VIT__OP_F32) { // (static shared memory only, under 48 KB)
        p.kernel = VIT__K_FMA;
        p.vec = vec;
        p.split = vit__plan_split_grid(s, out == VIT__OUT_PATCH, ((N + 127) / 128) * ((M + 127) / 128), (K + VIT__FMA_BK - 1) / VIT__FMA_BK, (size_t)M * N);
        return p;
    }
    if (optype == VIT__OP_E4M3) {
        if (!s->wgmma || mma_req) return p;
        p = vit__plan_wgmma(s, M, N, K, 128, e4m3_out ? (int)VIT__OUT_E4M3 : out, defer);
        if (e4m3_out) { // each row's scale from a bound, so any tile width; no split; the deep ring
            if (p.kernel == VIT__K_WG64) p.kernel = VIT__K_WG128;
            p.split = 1;
            p.deep = p.kernel == VIT__K_PP128 || p.kernel == VIT__K_PP192;
        } else if (a_blocks) { // cooperative tiles; at least two K steps per slice
            int KB = (K + 127) / 128;
            if (p.kernel != VIT__K_WG64) p.kernel = VIT__K_WG128;
            while (p.split > 1 && (KB % p.split || KB / p.split < 2)) p.split--;
            if (KB < 2) p.split = 1;
        }
        p.smem = vit__gemm_smem(p.kernel, p.deep, optype, e4m3_out ? (int)VIT__OUT_E4M3 : out, act);
        if (p.smem > most) p.kernel = 0; // (no other e4m3 kernel)
        return p;
    }
    if (s->wgmma && tma && !mma_req) {
        p = vit__plan_wgmma(s, M, N, K, 64, out, defer);
        p.deep = (p.kernel == VIT__K_PP128 || p.kernel == VIT__K_PP192) && (K >= 1536 || act != VIT__ACT_NONE);
        p.smem = vit__gemm_smem(p.kernel, p.deep, optype, out, act);
        if (p.smem <= most) return p;
        p = vit__plan_none(); // mma.sync below
    }
    // (sm_90a code: 64 x 64 only, the TMA's misfits; see vit__mma_sm90a)
    // 128 x 256 tiles: 16-byte operands only (the scalar loads' registers spill there) and
    // where the plan's limit takes their 96 KB (a test's may not); forced, any operands
    int big = !s->wgmma && (req == VIT__GEMM_MMA || (req != VIT__GEMM_MMA64 && vec && vit__mma_big(s->sm_count, vit__mma_per_sm(s->smem_optin), M, N)));
    if (big && VIT__MMA_SMEM(128, 256) > most) big = 0;
    int bm = big ? 128 : 64, bn = VIT__MMA_BN(bm), bk = VIT__MMA_BKT(bm);
    p.kernel = big ? (vec ? VIT__K_MMA_VEC : VIT__K_MMA_SCALAR) : (vec ? VIT__K_MMA64_VEC : VIT__K_MMA64_SCALAR);
    p.vec = vec;
    p.split = vit__plan_split_grid(s, out == VIT__OUT_PATCH, ((N + bn - 1) / bn) * ((M + bm - 1) / bm), (K + bk - 1) / bk, (size_t)M * N);
    p.smem = vit__gemm_smem(p.kernel, 0, optype, out, act); // (96 KB at most: every GPU of compute capability 8.0+ allows 99 KB)
    return p;
}

// The wgmma attention's work items: 64 nc query rows of one (image, head)
static size_t vit__attw_items(int B, int H, int Nq, int nc) { return (size_t)((Nq + 64 * nc - 1) / (64 * nc)) * H * B; }

// The plan of one attention: B images, H heads of size D, Nq queries against
// Nk keys. half: bf16/fp16 (else fp32); wgmma_fits: the wgmma kernel can run
// it; vec: 16-byte rows. fp32: the FMA kernel, a head's query tiles spread
// over CTAs of at most 8 warps (4 where 8 would not fill the GPU twice).
// bf16/fp16: wgmma for long sequences or large grids (three consumer
// warpgroups for head size 64 and long sequences), else mma.sync: whole K/V
// per CTA for Nk <= 256 (8 warps splitting the keys where 4-warp CTAs would
// not fill the GPU, 8 warps where the grid fills it twice, else 4), longer
// sequences streaming K/V with 4 warps (of 32 query rows each for head sizes up
// to 64 where 128-query tiles fill the GPU twice, else 16). Each fits vit__plan_smem_max: fp32
// with fewer warps, wgmma with two consumer warpgroups or else mma.sync,
// whole K/V with 4 warps or else streamed; kernel 0 where nothing fits.
// [BENCHMARKS: Attention: wgmma] [BENCHMARKS: Attention: mma.sync]
// [BENCHMARKS: Attention: fp32]
static vit__plan vit__plan_attention(const vit__cuda_state *s, int half, int wgmma_fits, int vec, int B, int H, int Nq, int Nk, int D) {
    int sm = s->sm_count, nw = VIT__HOOK(s, attn_warps), most = vit__plan_smem_max(s);
    vit__plan p = vit__plan_none();
    p.vec = vec;
    if (!half) {
        int tiles = (Nq + VIT__ATTF_WQ - 1) / VIT__ATTF_WQ, most_w = nw >= 1 && nw <= 8 ? nw : (size_t)((tiles + 7) / 8) * H * B >= (size_t)2 * sm ? 8 : 4;
        while (most_w > 1 && vit__attn_smem(VIT__K_ATT_FMA, most_w, D, Nk, 4) > most) most_w--; // fewer warps: smaller CTAs
        int ctas = (tiles + most_w - 1) / most_w;
        p.kernel = VIT__K_ATT_FMA;
        p.warps = (tiles + ctas - 1) / ctas;
        p.smem = vit__attn_smem(p.kernel, p.warps, D, Nk, 4);
        if (p.smem > most) p.kernel = 0;
        return p;
    }
    int wf = VIT__HOOK(s, attn_wgmma);
    if (wf != 1 && wgmma_fits && (wf >= 2 || Nk > VIT__ATTN_WGMMA_MIN || vit__attw_items(B, H, Nq, 2) >= (size_t)2 * sm)) {
        int nc = D == 128 ? 2 : wf == 4 || (wf != 3 && Nq >= VIT__ATTW3_MIN) ? 3 : 2;
        if (nc == 3 && vit__attn_smem(VIT__K_ATT_WGMMA, 16, D, Nk, 2) > most) nc = 2;
        p.kernel = VIT__K_ATT_WGMMA;
        p.warps = 4 * (nc + 1);
        p.ping = VIT__HOOK(s, attn_ping) != 1;
        p.smem = vit__attn_smem(p.kernel, p.warps, D, Nk, 2);
        if (p.smem <= most) return p;
        p = vit__plan_none(); // mma.sync below
        p.vec = vec;
    }
    int fits = Nk <= VIT__ATTN_FULL_MAX, af = VIT__HOOK(s, attn_full), full = af == 1 ? 0 : fits;
    int wide = (size_t)((Nq + 127) / 128) * H * B >= (size_t)2 * sm;
    if (fits && (af == 3 || (!af && !nw && (size_t)((Nq + 63) / 64) * H * B < (size_t)sm))) {
        p.kernel = VIT__K_ATT_SPLIT_KEYS;
        p.warps = 8;
    } else {
        p.kernel = full ? VIT__K_ATT_FULL : VIT__K_ATT_STREAM;
        p.warps = full && (nw == 8 || (!nw && wide)) ? 8 : 4;
    }
    // whole K/V per CTA needs (queries + 2 Nk) rows of the head (plus, keys
    // split, the warps' fp32 partial outputs): where that passes the limit
    // (head size 64: 226 keys split, 99 KB; 128: 99 or 163 KB), whole K/V with
    // 4 warps, then K/V streamed in 64-key tiles (87 KB at head size 128)
    if (vit__attn_smem(p.kernel, p.warps, D, Nk, 2) > most && p.kernel == VIT__K_ATT_SPLIT_KEYS) p.kernel = VIT__K_ATT_FULL, p.warps = 4;
    if (vit__attn_smem(p.kernel, p.warps, D, Nk, 2) > most && p.kernel == VIT__K_ATT_FULL) p.warps = 4;
    if (vit__attn_smem(p.kernel, p.warps, D, Nk, 2) > most) p.kernel = VIT__K_ATT_STREAM, p.warps = 4;
    // streamed, head size <= 64, a grid of 128-query tiles that fills the GPU twice: 32 rows per warp
    int rows = VIT__HOOK(s, attn_rows);
    if (p.kernel == VIT__K_ATT_STREAM && D <= 64 && (rows == 32 || (!rows && wide)) && vit__attn_smem(VIT__K_ATT_STREAM32, 4, D, Nk, 2) <= most)
        p.kernel = VIT__K_ATT_STREAM32;
    if (p.kernel == VIT__K_ATT_FULL && D <= 64 && rows == 32 && vit__attn_smem(VIT__K_ATT_FULL32, 4, D, Nk, 2) <= most)
        p.kernel = VIT__K_ATT_FULL32, p.warps = 4; // (a test's or benchmark's choice: not yet timed)
    p.smem = vit__attn_smem(p.kernel, p.warps, D, Nk, 2);
    if (p.smem > most) p.kernel = 0;
    return p;
}

// Images in the next chunk of a host input whose images cost `ratio` times
// less to stage than float images: a small first chunk (n / 8 where ratio >=
// 4, which then stage in two chunks, the second's blocks split, see
// vit__plan_stage_blocks; else n / 2 grow), so that little copying comes
// before the first compute, then each chunk `grow` times the last, at most a
// slot's worth (cap); under 16 inputs one chunk, and no chunk under 8; a
// remainder under half a chunk joins it. [BENCHMARKS: Host staging]
static int vit__plan_stage_chunk(const vit__cuda_state *s, double ratio, int n, int cap, int done, int prev) {
    int first = VIT__HOOK(s, stage_first), grow = VIT__HOOK(s, stage_grow);
    if (!grow) grow = (int)(4 * (ratio < 1 ? 1 : ratio > 16 ? 16 : ratio));
    int left = n - done, k = done == 0 ? (first ? first : n / (ratio >= 4 ? 8 : 2 * grow)) : prev * grow;
    if (cap < 1) cap = 1;
    if (!first && (n < 16 || k < 8)) k = n < 16 ? n : 8;
    if (k > cap) k = cap;
    if (k < 1) k = 1;
    if (k >= left || (done > 0 && left - k < k / 2 && left <= cap)) return left < cap ? left : cap;
    return k;
}

// Spread host frames: the blocks each chunk's pass runs as its frames arrive
// (the rest run once over all n): the fewest whose pass over the first chunk
// outlasts the staging of the rest, a staged byte costing about what 8,000
// FLOPs of a bf16 pass do (fp32 passes 8x slower), with a quarter to spare.
// depth: whole passes (one chunk, or no blocks to split). [BENCHMARKS: Host staging]
static int vit__plan_stage_blocks(const vit_model *m, int n, int first_chunk, size_t frame_bytes) {
    const vit_config *c = &m->cfg;
    int depth = c->depth, forced = VIT__HOOK(m->cuda, stage_blocks);
    if (first_chunk >= n || depth < 2) return depth;
    if (forced) return forced < depth ? forced : depth;
    double C = c->dim, N = c->num_tokens, M = c->mlp_dim, hidden = m->act == VIT__ACT_SWIGLU ? M / 2 : M;
    double block_flops = 2 * N * (4 * C * C + C * M + hidden * C + 2 * N * C); // per image: qkv, proj, fc1, fc2, attention
    double per_byte = m->cuda->dtype == VIT_DTYPE_F32 ? 8000.0 / 8 : 8000.0;
    double need = 1.25 * (double)(n - first_chunk) * (double)frame_bytes * per_byte / ((double)first_chunk * block_flops);
    return need >= depth ? depth : (int)need + 1;
}

// Spread host frames: frames per piece of a chunk's DMA and transform (about
// `piece_bytes` each, so the host copy, the DMA and the transform overlap).
static int vit__plan_stage_piece(const vit__cuda_state *s, size_t piece_bytes, size_t frame_bytes) {
    int forced = VIT__HOOK(s, stage_piece);
    return forced ? forced : (int)(piece_bytes / frame_bytes);
}

// The frame transform's largest tile edge to try (32, 16, 8: the tiled kernel
// at the largest whose source window fits in shared memory; 0: the two-pass
// kernels). [BENCHMARKS: Preprocess]
static int vit__plan_prep_tile_max(const vit__cuda_state *s) {
    int forced = VIT__HOOK(s, prep_tiles);
    return forced == 1 ? 0 : forced > 1 ? forced : 32;
}

// >>op preprocess -- CPU reference: vit_preprocess_rgb8
// 8-bit frames to the model's normalised input on the GPU, from the same
// vit__resize_plan as the CPU (PIL's fixed-point taps, its pass order, rounding
// to 8 bits between the passes), so the floats are the CPU's to the bit. A
// resize runs as one tiled kernel (both passes in shared memory, then the crop,
// /255 and mean/std) where a tile's source window fits, else as two kernels: the
// first pass into a byte buffer (only the rows or columns the crop keeps), then
// the second fused with the rest. Frames need no resize, or nearest neighbour:
// one kernel, by index tables.


// vit__clip8 in 32-bit arithmetic where the sums are ints
static __device__ __forceinline__ unsigned char vit__prep_clip8(int v) { return v <= 0 ? 0 : v >= (256 << VIT__PRECISION_BITS) ? 255 : (unsigned char)(v >> VIT__PRECISION_BITS); }
static __device__ __forceinline__ unsigned char vit__prep_clip8(int64_t v) { return vit__clip8(v); }

// One pixel of a convolution pass, all CH model channels (1 L, 3 RGB): taps k
// over n inputs `step` bytes apart, PIL's fixed-point sums. ACC is int when no
// sum can leave its range (vit__prep_plan checks 255 * sum |k| + rounding <
// 2^31; int64 multiplies cost several instructions each), else int64_t: the
// same sums either way. PX: the inputs are source pixels of `channels`
// samples, converted to the model's channels as read; else model-channel bytes.
template <typename ACC, int CH, bool PX>
static __device__ __forceinline__ void vit__prep_taps(const unsigned char *p, size_t step, int channels, const int32_t *k, int n, unsigned char *out) {
    ACC acc[CH];
    for (int c = 0; c < CH; c++) acc[c] = (ACC)1 << (VIT__PRECISION_BITS - 1);
    for (int i = 0; i < n; i++) {
        const unsigned char *q = p + (size_t)i * step;
        ACC w = (ACC)k[i];
        for (int c = 0; c < CH; c++) acc[c] += (ACC)(PX ? vit__model_sample(q, channels, CH, c) : q[c]) * w;
    }
    for (int c = 0; c < CH; c++) out[c] = vit__prep_clip8(acc[c]);
}

#define VIT__PREP_ROWS 8 // output rows per thread: a CTA does enough work to hide its start

// The first pass, frame blockIdx.z, output rows VIT__PREP_ROWS * blockIdx.y..,
// a pixel (all channels) per thread: horizontal (source rows row0.., resized
// columns col0..) or vertical (resized rows row0.., all source columns).
template <typename ACC, int CH>
static __global__ void vit__prep_pass1_kernel(vit__prep_args a) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, b = blockIdx.z;
    if (x >= a.cols) return;
    const unsigned char *f = a.frames + (size_t)b * a.frame_bytes;
    for (int y = blockIdx.y * VIT__PREP_ROWS; y < a.rows && y < (int)(blockIdx.y + 1) * VIT__PREP_ROWS; y++) {
        unsigned char *o = a.tmp + (((size_t)b * a.rows + y) * a.cols + x) * CH;
        if (a.mode == VIT__PREP_HFIRST) {
            int xx = x + a.col0;
            vit__prep_taps<ACC, CH, true>(f + (size_t)(y + a.row0) * a.stride + (size_t)a.hb[xx * 2] * a.channels, (size_t)a.channels, a.channels,
                                          a.hk + (size_t)xx * a.hks, a.hb[xx * 2 + 1], o);
        } else {
            int yy = y + a.row0;
            vit__prep_taps<ACC, CH, true>(f + (size_t)a.vb[yy * 2] * a.stride + (size_t)x * a.channels, (size_t)a.stride, a.channels,
                                          a.vk + (size_t)yy * a.vks, a.vb[yy * 2 + 1], o);
        }
    }
}

// Output pixel (y, x) of frame b: its model-channel bytes u (inside the resized
// image; else zeros, as PIL's crop pads) /255, minus mean, over std, by the
// table lut (a.lut or a copy of it): not /255 and the divide, the same floats
// (vit__prep_plan makes it as the CPU computes).
template <int CH>
static __device__ __forceinline__ void vit__prep_store(const vit__prep_args &a, const float *lut, int b, int y, int x, int inside, const unsigned char *u) {
#pragma unroll
    for (int k = 0; k < 3; k++)
        if (k < a.in_chans) a.out[(((size_t)b * a.in_chans + k) * a.H + y) * a.W + x] = lut[k * 256 + (inside ? u[CH == 1 ? 0 : k] : 0)];
}

// The second pass (or the index lookup), the crop, /255 and mean/std into
// out (B, in_chans, H, W): frame blockIdx.z, output rows VIT__PREP_ROWS *
// blockIdx.y.., a pixel (all channels) per thread.
template <typename ACC, int CH>
static __global__ void vit__prep_pass2_kernel(vit__prep_args a) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, b = blockIdx.z;
    if (x >= a.W) return;
    for (int y = blockIdx.y * VIT__PREP_ROWS; y < a.H && y < (int)(blockIdx.y + 1) * VIT__PREP_ROWS; y++) {
        int sy = y + a.top, sx = x + a.left;
        unsigned char u[CH];
        for (int c = 0; c < CH; c++) u[c] = 0;
        int inside = sy >= 0 && sy < a.rh && sx >= 0 && sx < a.rw;
        if (inside && a.mode == VIT__PREP_INDEX) {
            const unsigned char *q = a.frames + (size_t)b * a.frame_bytes + (size_t)a.ny[y] * a.stride + (size_t)a.nx[x] * a.channels;
            for (int c = 0; c < CH; c++) u[c] = vit__model_sample(q, a.channels, CH, c);
        } else if (inside) {
            const unsigned char *t = a.tmp + (size_t)b * a.rows * a.cols * CH;
            if (a.mode == VIT__PREP_HFIRST)
                vit__prep_taps<ACC, CH, false>(t + ((size_t)(a.vb[sy * 2] - a.row0) * a.cols + (sx - a.col0)) * CH, (size_t)a.cols * CH, 0,
                                               a.vk + (size_t)sy * a.vks, a.vb[sy * 2 + 1], u);
            else
                vit__prep_taps<ACC, CH, false>(t + ((size_t)(sy - a.row0) * a.cols + a.hb[sx * 2]) * CH, (size_t)CH, 0, a.hk + (size_t)sx * a.hks,
                                               a.hb[sx * 2 + 1], u);
        }
        vit__prep_store<CH>(a, a.lut, b, y, x, inside, u);
    }
}

// One axis of a tile: outputs o..o+T-1 (of n; resized index = output + from)
// keep the resized indices s0..s1-1 inside resized, which read the source from
// b[s0] (first tap) up to the last one's last tap: returns that span (0 if none).
static __host__ __device__ inline int vit__prep_window(const int *b, int o, int T, int n, int from, int resized, int *s0, int *s1) {
    *s0 = o + from < 0 ? 0 : o + from;
    *s1 = (o + T < n ? o + T : n) + from;
    if (*s1 > resized) *s1 = resized;
    return *s0 < *s1 ? b[(*s1 - 1) * 2] + b[(*s1 - 1) * 2 + 1] - b[*s0 * 2] : 0;
}

// The tiled transform, for resizes whose source window per tile fits in shared
// memory (vit__prep_plan sets a.tile, 8 to 32): a CTA makes a tile x tile square
// of one frame's output. It reads the source window once, coalesced, as model
// channels into shared memory, runs the first pass into shared memory and the
// second into out: the same taps in the same order, rounded to 8 bits between
// the passes, so the same bits as the two kernels above without the round trip
// through global memory. The window of resized rows sy0..sy1-1 is source rows
// vb[sy0].. up to the last row's last tap (PIL's first index and last tap both
// grow with the output index); likewise the columns. Lanes own columns (T of
// them, 32 / T rows per warp), warps rows, so no index divisions; the first
// pass (horizontal) sums VIT__PREP_RG rows per tap read, the second's taps are
// the same across a warp's row. Shared: the normalisation table, then the
// window, then the first pass's bytes. [BENCHMARKS: Preprocess]
#define VIT__PREP_RG 2
template <typename ACC, int CH, bool HFIRST>
static __global__ void __launch_bounds__(256) vit__prep_tile_kernel(vit__prep_args a) {
    extern __shared__ __align__(16) unsigned char vit__prep_smem[];
    const int T = a.tile, b = blockIdx.z, y0 = blockIdx.y * T, x0 = blockIdx.x * T;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int lx = lane & (T - 1), rstep = 8 * (32 / T), row1 = warp * (32 / T) + lane / T; // T: a power of 2
    float *lut = (float *)vit__prep_smem;
    for (int i = threadIdx.x; i < a.in_chans * 256; i += blockDim.x) lut[i] = a.lut[i];
    unsigned char *src = vit__prep_smem + a.in_chans * 256 * sizeof(float);
    int sy0, sy1, sx0, sx1;
    int wr = vit__prep_window(a.vb, y0, T, a.H, a.top, a.rh, &sy0, &sy1), wc = vit__prep_window(a.hb, x0, T, a.W, a.left, a.rw, &sx0, &sx1);
    int th = sy1 - sy0, tw = sx1 - sx0, r0 = 0, c0 = 0;
    if (!(th > 0 && tw > 0)) wr = wc = th = tw = 0;
    unsigned char *mid = src + wr * wc * CH;
    if (wr) {
        r0 = a.vb[sy0 * 2];
        c0 = a.hb[sx0 * 2];
        const unsigned char *f = a.frames + (size_t)b * a.frame_bytes + (size_t)r0 * a.stride + (size_t)c0 * a.channels;
        if (a.channels == CH) { // bytes as they are: warps over rows, lanes over a row's bytes, 16 loads in flight per thread
            int rb = wc * CH;
            for (int r = warp; r < wr; r += 32)
                for (int k0 = lane; k0 < rb; k0 += 128) {
                    unsigned char v[4][4];
#pragma unroll
                    for (int g = 0; g < 4; g++)
#pragma unroll
                        for (int k = 0; k < 4; k++) v[g][k] = r + 8 * g < wr && k0 + 32 * k < rb ? f[(size_t)(r + 8 * g) * a.stride + k0 + 32 * k] : 0;
#pragma unroll
                    for (int g = 0; g < 4; g++)
#pragma unroll
                        for (int k = 0; k < 4; k++)
                            if (r + 8 * g < wr && k0 + 32 * k < rb) src[(r + 8 * g) * rb + k0 + 32 * k] = v[g][k];
                }
        } else {
            for (int r = warp; r < wr; r += 8)
                for (int c = lane; c < wc; c += 32)
                    for (int k = 0; k < CH; k++) src[(r * wc + c) * CH + k] = vit__model_sample(f + (size_t)r * a.stride + (size_t)c * a.channels, a.channels, CH, k);
        }
    }
    __syncthreads();
    if (wr && HFIRST) { // mid (wr, tw): column j's taps read once per VIT__PREP_RG rows
        for (int j = lx; j < tw; j += T) {
            int sx = sx0 + j, n = a.hb[sx * 2 + 1], o = a.hb[sx * 2] - c0;
            const int32_t *k = a.hk + (size_t)sx * a.hks;
            for (int r = row1; r < wr; r += rstep * VIT__PREP_RG) {
                ACC acc[VIT__PREP_RG][CH];
                for (int g = 0; g < VIT__PREP_RG; g++)
                    for (int c = 0; c < CH; c++) acc[g][c] = (ACC)1 << (VIT__PRECISION_BITS - 1);
                for (int i = 0; i < n; i++) {
                    ACC w = (ACC)k[i];
#pragma unroll
                    for (int g = 0; g < VIT__PREP_RG; g++) {
                        const unsigned char *q = src + ((r + rstep * g < wr ? r + rstep * g : wr - 1) * wc + o + i) * CH; // past the window: a row read for nothing
                        for (int c = 0; c < CH; c++) acc[g][c] += (ACC)q[c] * w;
                    }
                }
#pragma unroll
                for (int g = 0; g < VIT__PREP_RG; g++)
                    if (r + rstep * g < wr)
                        for (int c = 0; c < CH; c++) mid[((r + rstep * g) * tw + j) * CH + c] = vit__prep_clip8(acc[g][c]);
            }
        }
    } else if (wr) { // mid (th, wc): row t's taps the same across the warp
        for (int t = row1; t < th; t += rstep) {
            int sy = sy0 + t, n = a.vb[sy * 2 + 1], o = a.vb[sy * 2] - r0;
            for (int c = lx; c < wc; c += T)
                vit__prep_taps<ACC, CH, false>(src + (o * wc + c) * CH, (size_t)wc * CH, 0, a.vk + (size_t)sy * a.vks, n, mid + (t * wc + c) * CH);
        }
    }
    __syncthreads();
    int x = x0 + lx, sx = x + a.left;
    if (x >= a.W) return;
    for (int y = y0 + row1; y < y0 + T && y < a.H; y += rstep) {
        int sy = y + a.top;
        unsigned char u[CH];
        for (int c = 0; c < CH; c++) u[c] = 0;
        if (sy >= sy0 && sy < sy1 && sx >= sx0 && sx < sx1) {
            if (HFIRST)
                vit__prep_taps<ACC, CH, false>(mid + ((a.vb[sy * 2] - r0) * tw + sx - sx0) * CH, (size_t)tw * CH, 0, a.vk + (size_t)sy * a.vks, a.vb[sy * 2 + 1], u);
            else
                vit__prep_taps<ACC, CH, false>(mid + ((sy - sy0) * wc + a.hb[sx * 2] - c0) * CH, CH, 0, a.hk + (size_t)sx * a.hks, a.hb[sx * 2 + 1], u);
        }
        vit__prep_store<CH>(a, lut, b, y, x, 1, u); // u: zeros outside the resized image
    }
}

template <typename ACC, int CH>
static vit_status vit__prep_launch(vit_model *m, const vit__prep_args &a, int nb, int pass1, cudaStream_t st) {
    if (a.tile) {
        dim3 gt((unsigned)((a.W + a.tile - 1) / a.tile), (unsigned)((a.H + a.tile - 1) / a.tile), (unsigned)nb);
        if (a.mode == VIT__PREP_HFIRST) VIT__CUDA_TRY(m, (vit__prep_tile_kernel<ACC, CH, true><<<gt, 256, a.tile_smem, st>>>(a), cudaGetLastError()));
        else VIT__CUDA_TRY(m, (vit__prep_tile_kernel<ACC, CH, false><<<gt, 256, a.tile_smem, st>>>(a), cudaGetLastError()));
        return VIT_OK;
    }
    dim3 g1((unsigned)((a.cols + 127) / 128), (unsigned)((a.rows + VIT__PREP_ROWS - 1) / VIT__PREP_ROWS), (unsigned)nb);
    dim3 g2((unsigned)((a.W + 127) / 128), (unsigned)((a.H + VIT__PREP_ROWS - 1) / VIT__PREP_ROWS), (unsigned)nb);
    if (pass1) VIT__CUDA_TRY(m, (vit__prep_pass1_kernel<ACC, CH><<<g1, 128, 0, st>>>(a), cudaGetLastError()));
    VIT__CUDA_TRY(m, (vit__prep_pass2_kernel<ACC, CH><<<g2, 128, 0, st>>>(a), cudaGetLastError()));
    return VIT_OK;
}

// Grows a device buffer to `bytes` (contents dropped) once earlier work on it is done.
static vit_status vit__cuda_reserve(vit_model *m, unsigned char **p, size_t *have, size_t bytes, const char *what) {
    if (*have >= bytes) return VIT_OK;
    VIT__CUDA_TRY(m, cudaEventSynchronize(m->cuda->done));
    if (*p) cudaFree(*p);
    *p = NULL;
    *have = 0;
    VIT__TRY(vit__cuda_malloc(m, p, bytes, what));
    *have = bytes;
    return VIT_OK;
}

#define VIT__PREP_TILE_SMEM (48 << 10) // vit__prep_tile_kernel's shared bytes at most (no opt-in)

// The largest span of source indices that tile-sized runs of the crop's outputs
// read through taps b (first index, count per resized index), the crop's n
// outputs starting at resized index `from` of `resized`.
static int vit__prep_span(const int *b, int from, int n, int resized, int T) {
    int most = 0, s0, s1;
    for (int o = 0; o < n; o += T) {
        int span = vit__prep_window(b, o, T, n, from, resized, &s0, &s1);
        if (span > most) most = span;
    }
    return most;
}

// Makes the frame plan for width x height x channels frames (the taps uploaded
// once per frame size) into s->prep; the kernels then need only frames, out, B.
static vit_status vit__prep_plan(vit_model *m, int width, int height, int stride, int channels) {
    vit__cuda_state *s = m->cuda;
    const vit_config *c = &m->cfg;
    vit__prep_args *a = &s->prep;
    int H = c->image_height, W = c->image_width, rw = 1, rh = 1, top = 0, left = 0;
    VIT__TRY(vit__preprocess_geometry(c, width, height, H, W, &rw, &rh, &top, &left, m->error));
    int same = s->prep_width == width && s->prep_height == height;
    a->width = width; a->height = height; a->channels = channels;
    a->stride = stride ? stride : width * channels;
    a->frame_bytes = (size_t)height * a->stride;
    if (same) return VIT_OK;
    VIT__CUDA_TRY(m, cudaEventSynchronize(s->done)); // earlier calls' kernels read the old plan's tables
    memset(a, 0, sizeof(*a));
    a->width = width; a->height = height; a->channels = channels;
    a->stride = stride ? stride : width * channels;
    a->frame_bytes = (size_t)height * a->stride;
    a->ch = c->in_chans == 1 ? 1 : 3;
    a->in_chans = c->in_chans; a->H = H; a->W = W;
    a->rh = rh; a->rw = rw; a->top = top; a->left = left;
    s->prep_width = s->prep_height = 0;
    vit__resize_plan p;
    memset(&p, 0, sizeof(p));
    int resize = rw != width || rh != height; // as vit_preprocess_rgb8: no resize, no passes
    if (resize && vit__resize_plan_make(&m->alloc, width, height, rw, rh, c->interpolation, &p) != VIT_OK)
        return vit__fail(m->error, VIT_ERROR_OUT_OF_MEMORY, "out of memory for the resampling taps of %dx%d frames", width, height);
    // the tables, one upload: INDEX nx (W), ny (H); RESIZE hb, hk, vb, vk; then the normalisation table
    a->mode = !resize || p.nearest ? VIT__PREP_INDEX : p.vfirst ? VIT__PREP_VFIRST : VIT__PREP_HFIRST;
    size_t nt = a->mode == VIT__PREP_INDEX ? (size_t)W + H : (size_t)rw * (2 + p.hks) + (size_t)rh * (2 + p.vks), lut_bytes = (size_t)c->in_chans * 256 * sizeof(float);
    size_t n = nt + lut_bytes / sizeof(int32_t);
    int32_t *t = (int32_t *)vit__malloc(&m->alloc, n * sizeof(int32_t));
    if (t) // vit_preprocess_rgb8's expression for each byte value (0 also outside the resized image), so the same floats
        for (int k = 0; k < c->in_chans; k++)
            for (int u = 0; u < 256; u++) {
                float v = u / 255.0f, f = (v - c->mean[k < 3 ? k : 2]) / c->std[k < 3 ? k : 2];
                memcpy(t + nt + (size_t)k * 256 + u, &f, sizeof(float));
            }
    vit_status st = t ? VIT_OK : vit__fail(m->error, VIT_ERROR_OUT_OF_MEMORY, "out of memory for the resampling taps of %dx%d frames", width, height);
    if (st == VIT_OK && a->mode == VIT__PREP_INDEX) { // only the crop's cells: outside it nothing is read
        for (int x = 0; x < W; x++) { int sx = x + left < 0 ? 0 : x + left >= rw ? rw - 1 : x + left; t[x] = resize ? p.nx[sx] : sx; }
        for (int y = 0; y < H; y++) { int sy = y + top < 0 ? 0 : y + top >= rh ? rh - 1 : y + top; t[W + y] = resize ? p.ny[sy] : sy; }
    } else if (st == VIT_OK) {
        memcpy(t, p.hb, (size_t)rw * 2 * sizeof(int));
        memcpy(t + (size_t)rw * 2, p.hk, (size_t)rw * p.hks * sizeof(int32_t));
        memcpy(t + (size_t)rw * (2 + p.hks), p.vb, (size_t)rh * 2 * sizeof(int));
        memcpy(t + (size_t)rw * (2 + p.hks) + (size_t)rh * 2, p.vk, (size_t)rh * p.vks * sizeof(int32_t));
        a->hks = p.hks; a->vks = p.vks;
        int64_t most = 0; // the largest 255 * sum |k| of any output sample, either pass
        for (int pass = 0; pass < 2; pass++) {
            int outs = pass ? rh : rw, ks = pass ? p.vks : p.hks;
            const int32_t *kk = pass ? p.vk : p.hk;
            for (int o = 0; o < outs; o++) {
                int64_t sum = 0;
                for (int i = 0; i < ks; i++) sum += kk[(size_t)o * ks + i] < 0 ? -(int64_t)kk[(size_t)o * ks + i] : kk[(size_t)o * ks + i];
                if (255 * sum > most) most = 255 * sum;
            }
        }
        a->acc32 = most + ((int64_t)1 << (VIT__PRECISION_BITS - 1)) < ((int64_t)1 << 31);
        // the tiled kernel at the largest tile whose window fits
        for (int T = vit__plan_prep_tile_max(s); T >= 8; T /= 2) {
            size_t wr = (size_t)vit__prep_span(p.vb, top, H, rh, T), wc = (size_t)vit__prep_span(p.hb, left, W, rw, T);
            size_t bytes = lut_bytes + (wr * wc + (a->mode == VIT__PREP_HFIRST ? wr : wc) * T) * a->ch;
            if (bytes <= VIT__PREP_TILE_SMEM) { a->tile = T; a->tile_smem = (int)bytes; break; }
        }
        if (a->mode == VIT__PREP_HFIRST) { // source rows the vertical pass reads, resized columns the crop keeps
            int c0 = left < 0 ? 0 : left > rw ? rw : left, c1 = left + W < 0 ? 0 : left + W > rw ? rw : left + W;
            a->row0 = p.y_first; a->rows = p.y_last - p.y_first; a->col0 = c0; a->cols = c1 - c0;
        } else { // resized rows the crop keeps, all source columns
            int r0 = top < 0 ? 0 : top > rh ? rh : top, r1 = top + H < 0 ? 0 : top + H > rh ? rh : top + H;
            a->row0 = r0; a->rows = r1 - r0; a->col0 = 0; a->cols = width;
        }
    }
    vit__resize_plan_free(&m->alloc, &p);
    if (st == VIT_OK && (H > 65535 || a->rows > 65535)) // grid.y
        st = vit__fail(m->error, VIT_ERROR_LIMIT, "frames: input height %d or %d resized rows exceed the GPU preprocessing's 65535", H, a->rows);
    if (st == VIT_OK) st = vit__cuda_reserve(m, &s->prep_tab, &s->prep_tab_bytes, n * sizeof(int32_t), "resampling taps");
    if (st == VIT_OK) {
        cudaError_t e = cudaMemcpy(s->prep_tab, t, n * sizeof(int32_t), cudaMemcpyHostToDevice);
        if (e != cudaSuccess) {
            cudaGetLastError();
            st = vit__fail(m->error, VIT_ERROR_CUDA, "uploading resampling taps: %s", cudaGetErrorString(e));
        }
    }
    vit__free(&m->alloc, t);
    if (st != VIT_OK) return st;
    if (a->mode != VIT__PREP_INDEX && !a->tile) { // first-pass bytes for max_batch frames, at most 256 MB (then fewer at a time), at least one frame
        size_t per = (size_t)a->rows * a->cols * a->ch, sub = per ? ((size_t)256 << 20) / per : 1;
        if (sub > (size_t)m->max_batch) sub = (size_t)m->max_batch;
        if (sub < 1) sub = 1;
        VIT__TRY(vit__cuda_reserve(m, &s->prep_tmp, &s->prep_tmp_bytes, per * sub > 0 ? per * sub : 1, "resized frames"));
    }
    const int32_t *d = (const int32_t *)s->prep_tab;
    a->lut = (const float *)(d + nt);
    if (a->mode == VIT__PREP_INDEX) { a->nx = d; a->ny = d + W; }
    else {
        a->hb = d; a->hk = d + (size_t)rw * 2;
        a->vb = d + (size_t)rw * (2 + a->hks); a->vk = a->vb + (size_t)rh * 2;
    }
    s->prep_width = width;
    s->prep_height = height;
    return VIT_OK;
}

// B frames (device memory, the plan's size) into out (B, in_chans, H, W) on st,
// through s->prep_tmp in as many sub-batches as it holds.
static vit_status vit__prep_cuda(vit_model *m, const unsigned char *frames, int B, float *out, cudaStream_t st) {
    vit__cuda_state *s = m->cuda;
    vit__prep_args a = s->prep;
    size_t per_tmp = a.mode == VIT__PREP_INDEX || a.tile ? 0 : (size_t)a.rows * a.cols * a.ch, per_out = (size_t)a.in_chans * a.H * a.W;
    int sub = per_tmp ? (int)(s->prep_tmp_bytes / per_tmp) : B; // >= 1: vit__prep_plan
    if (sub > B) sub = B;
    a.tmp = s->prep_tmp;
    if (sub > 65535) sub = 65535; // grid.z
    for (int b0 = 0; b0 < B; b0 += sub) {
        int nb = B - b0 < sub ? B - b0 : sub;
        a.frames = frames + (size_t)b0 * a.frame_bytes;
        a.out = out + (size_t)b0 * per_out;
        int p1 = per_tmp > 0;
        if (a.ch == 1) VIT__TRY((a.acc32 ? vit__prep_launch<int, 1>(m, a, nb, p1, st) : vit__prep_launch<int64_t, 1>(m, a, nb, p1, st)));
        else VIT__TRY((a.acc32 ? vit__prep_launch<int, 3>(m, a, nb, p1, st) : vit__prep_launch<int64_t, 3>(m, a, nb, p1, st)));
    }
    return VIT_OK;
}

// >>op linear -- CPU reference: vit__linear_cpu
// The GEMMs of the linear layers on the GPU (fp32 FMA, mma.sync, wgmma).
// (Before patch_embed, out of forward order: the patch embedding is this GEMM
// with an im2col operand load and a token-placing epilogue.)

// Operand types of a GEMM (vit__gemm_args.optype); the kernels' K step and TMA
// box width follow from the element size (vit__op_size).
static __host__ __device__ constexpr int vit__op_size(int optype) { return optype == VIT__OP_F32 ? 4 : optype == VIT__OP_E4M3 ? 1 : 2; }
static __host__ __device__ constexpr int vit__op_box_k(int optype) { return 128 / vit__op_size(optype); } // K per 128-byte TMA box row
static __host__ __device__ constexpr int vit__op_wgmma_k(int optype) { return optype == VIT__OP_E4M3 ? 32 : 16; } // K of one wgmma
template <typename T> struct vit__optype { enum { value = sizeof(T) == 4 ? VIT__OP_F32 : sizeof(T) == 1 ? VIT__OP_E4M3 : vit__is_bf16<T>::value ? VIT__OP_BF16 : VIT__OP_F16 }; };

// What one GEMM reads and writes: out (M, N) = epilogue(A (M, K) W (N, K)^T).
// The epilogue: + bias, the activation act, then the output mode (the kernels'
// OUT template parameter, vit__out) through vit__epi_apply, as vit__linear_cpu.
// Kernels take it as g_in and work on a local copy g, split into registers:
// used in place, the parameter's address escapes (to the epilogue helpers) and
// its fields are reloaded from parameter space inside the main loops.
// [BENCHMARKS: GEMM: fp32 FMA]
typedef struct vit__gemm_args {
    const void *a;        // (M, K) activations in T; the patch GEMM: images (B, Cin, Hs, Ws) fp32
    const void *w;        // (N, K) in T
    void *out;            // (M, N) (SwiGLU: (M, N / 2)): T for STORE, fp32 for RESIDUAL/PATCH (res16: T)
    const float *bias;    // (N) or NULL
    const float *scale;   // (N) layer scale for RESIDUAL (SwiGLU: N / 2), or NULL
    const float *pos;     // PATCH: (gg, N) position rows of the patch tokens, or NULL
    int M, N, K;
    int tokens, prefix, gg; // PATCH: patch row r goes to row (r / gg) * tokens + prefix + r % gg (prefix: P tokens before)
    int cin, img_h, img_w, patch, grid_w; // PATCH: image geometry for the im2col load (grid_w = Ws / P patches per row)
    int kblocks;          // split-K: K steps per slice (grid.z, or a wgmma work item); 0 = no split
    float *part;          // split-K: slice z writes its raw sums to part + z * M * N, (M, N) fp32
    int defer;            // split-K: leave the partial sums for the caller (vit__linear_ln_cuda) to reduce
    int img_vec;          // PATCH: P % 8 == 0, Ws % 4 == 0, images 16-byte aligned: runs of 8 pixels as 2 float4
    const float *ptok;    // vit__im2col_kernel: also writes the prefix-token rows of out: ptok (prefix, N) + ptok_pos, or NULL
    const float *ptok_pos; // (prefix, N) the prefix tokens' position rows, or NULL
    int act;              // vit__act
    int optype;           // VIT__OP_*: the type of a and w (vit__optype<T>)
    const float *a_scale; // (M) dequantisation scale per row of a, or NULL (= 1); e4m3 operands only
    const float *w_scale; // (N) dequantisation scale per row of w, or NULL (= 1); likewise
    int a_blocks;         // e4m3: a_scale holds a scale per row and 128 columns of K ((M, ceil(K / 128))), taken
                          // into the sums at every 128-wide K step (vit__linear_wgmma_kernel's QS)
    float *out_scale;     // VIT__OUT_E4M3: out in e4m3, scaled per row by vit__e4m3_bound_scale; the scales (M)
    const float *a_norm;  // VIT__OUT_E4M3: (M) the norms of a's rows (vit__e4m3_row_norm)
    float bound_w, bound_b; // VIT__OUT_E4M3: w's largest column norm and the bias's largest magnitude
    int rev;              // wgmma: work items last to first (vit__walk)
    int res16;            // RESIDUAL: out (and vit__im2col_kernel's prefix-token rows) in T, the residual stream in bf16
} vit__gemm_args;

// The wgmma GEMM's output mode for a linear whose outputs are the next e4m3
// GEMM's input (fc1 of VIT_DTYPE_FP8): act(acc + bias) rounded to e4m3, each
// row scaled by a power of two from a bound on its values (no tile sees a
// whole row; vit__e4m3_bound_scale), the scales into g.out_scale. See
// vit__wg_epilogue_tma.

// The epilogue of out[row][col], out[row][col + 1] (col even, two: col + 1 < N;
// vec: one 8-byte store) from their sums v0, v1, bias included: the
// activation and the output mode, as vit__epi_row. SwiGLU: one output, at
// column col / 2 of (M, N / 2).
template <typename T, int OUT, int ACT>
static __device__ __forceinline__ void vit__ep_out(const vit__gemm_args &g, int row, int col, float v0, float v1, bool two, bool vec) {
    static_assert(OUT != VIT__OUT_PARTIAL, "partial sums have no epilogue");
    float v[2] = {v0, v1};
    if (vit__epi_apply((vit__act)(ACT == VIT__ACT_RUNTIME ? g.act : ACT), sizeof(T) == 2, v) == 1) {
        // SwiGLU: one output per column pair, stored (vit__linear_do refuses activations on residual GEMMs)
        if (OUT == VIT__OUT_STORE) ((T *)g.out)[(size_t)row * (g.N / 2) + col / 2] = vit__cvt<T>(v[0]);
        return;
    }
    v0 = v[0]; v1 = v[1];
    float s0 = 1.0f, s1 = 1.0f; // RESIDUAL: the layer scale's columns
    if (OUT == VIT__OUT_RESIDUAL && g.scale) { s0 = __ldg(g.scale + col); if (two) s1 = __ldg(g.scale + col + 1); }
    if (OUT == VIT__OUT_RESIDUAL && g.res16) { // x = bf16(x + scale v): one rounding, as fp32's fmaf
        T *o = (T *)g.out + (size_t)row * g.N + col;
        float r0 = vit__f32(o[0]), r1 = two ? vit__f32(o[1]) : 0.0f;
        r0 = vit__epi_residual(r0, s0, v0); r1 = vit__epi_residual(r1, s1, v1);
        if (vec) vit__store2(o, r0, r1);
        else { o[0] = vit__cvt<T>(r0); if (two) o[1] = vit__cvt<T>(r1); }
    } else if (OUT == VIT__OUT_RESIDUAL) {
        float *o = (float *)g.out + (size_t)row * g.N + col;
        if (vec) {
            float2 r = *(float2 *)o;
            r.x = vit__epi_residual(r.x, s0, v0); r.y = vit__epi_residual(r.y, s1, v1);
            *(float2 *)o = r;
        } else {
            o[0] = vit__epi_residual(o[0], s0, v0);
            if (two) o[1] = vit__epi_residual(o[1], s1, v1);
        }
    } else if (OUT == VIT__OUT_PATCH) {
        int p = row % g.gg;
        float *o = (float *)g.out + ((size_t)(row / g.gg) * g.tokens + g.prefix + p) * g.N + col;
        if (g.pos) { const float *q = g.pos + (size_t)p * g.N + col; v0 += __ldg(q); if (two) v1 += __ldg(q + 1); }
        if (vec) *(float2 *)o = make_float2(v0, v1);
        else { o[0] = v0; if (two) o[1] = v1; }
    } else {
        T *o = (T *)g.out + (size_t)row * g.N + col;
        if (vec) vit__store2(o, v0, v1);
        else { o[0] = vit__cvt<T>(v0); if (two) o[1] = vit__cvt<T>(v1); }
    }
}

// The epilogue of a kernel's sums v0, v1 at out[row][col], [col + 1] (col
// even). part: a split-K slice's (M, N) plane of raw sums, or NULL. With
// split-K (g.kblocks) every slice stores its plain sums there
// (VIT__OUT_PARTIAL) and the epilogue runs later, in vit__splitk_reduce_kernel
// or vit__layernorm_kernel<TO, true>, which add the slices in slice order: no
// atomics, the same bits on every run.
template <typename T, int OUT, int ACT>
static __device__ __forceinline__ void vit__ep_store(const vit__gemm_args &g, float *part, int row, int col, float v0, float v1) {
    if (row >= g.M || col >= g.N) return;
    bool two = col + 1 < g.N, vec = two && !(g.N & 1);
    if (part) {
        float *o = part + (size_t)row * g.N + col;
        if (vec) *(float2 *)o = make_float2(v0, v1);
        else { o[0] = v0; if (two) o[1] = v1; }
        return;
    }
    if (g.bias) { v0 += __ldg(g.bias + col); if (two) v1 += __ldg(g.bias + col + 1); }
    vit__ep_out<T, OUT, ACT>(g, row, col, v0, v1, two, vec);
}

// Address of element (r, k) of the patch GEMM's A: the image pixel of patch r at
// (channel, ky, kx) = k. Pixels k..k+n-1 are contiguous when kx + n <= P.
static __device__ __forceinline__ const float *vit__im2col_ptr(const vit__gemm_args &g, int r, int k) {
    int b = r / g.gg, p = r % g.gg, gy = p / g.grid_w, gx = p % g.grid_w;
    int pp = g.patch * g.patch, c = k / pp, ky = (k % pp) / g.patch, kx = k % g.patch;
    return (const float *)g.a + (((size_t)b * g.cin + c) * g.img_h + (size_t)gy * g.patch + ky) * g.img_w + (size_t)gx * g.patch + kx;
}
// Zero at the columns past Cin P^2 that pad K to vit__patch_k.
static __device__ __forceinline__ float vit__im2col_at(const vit__gemm_args &g, int r, int k) {
    return k < g.cin * g.patch * g.patch ? *vit__im2col_ptr(g, r, k) : 0.0f;
}

// ---- fp32: warp-tiled FMA SGEMM
// Parallel over 128x128 output tiles (grid.x over N, grid.y strides over M); 8
// warps as 4 (M) x 2 (N), each a 32 x 64 block, each lane an 8x8 sub-tile (two
// 4-row and two 4-column quads, 16 and 32 apart), so a warp's shared-memory
// fragment reads touch 4 (A) and 8 (W) distinct float4s: one wavefront each.
// K is walked 16 at a time through double-buffered shared memory (A and W both
// k-major there, one barrier per tile), fragments double-buffered in registers
// (the next k's loads in flight while this k's 64 FMAs issue). Each output is
// summed over k in order, like the CPU (split-K: within each slice, slices then
// added in order). [BENCHMARKS: GEMM: fp32 FMA]
// AMODE 0: A dense (M, K); 2: A is the im2col of fp32 images. VEC: float4 loads.

// The FMA kernel's epilogue: this lane's 8 x 8 sums, rows r0 + (0..3, 16..19)
// and columns c0 + (0..3, 32..35).
template <int OUT, int ACT>
static __device__ __forceinline__ void vit__fma_epilogue(const vit__gemm_args &g, float *part, const float (&acc)[8][8], int r0, int c0) {
#pragma unroll
    for (int i = 0; i < 8; i++) {
        int row = r0 + (i < 4 ? i : 12 + i);
#pragma unroll
        for (int j = 0; j < 8; j += 2) vit__ep_store<float, OUT, ACT>(g, part, row, c0 + (j < 4 ? j : 28 + j), acc[i][j], acc[i][j + 1]);
    }
}

template <int OUT, int ACT, int AMODE, bool VEC>
__global__ void __launch_bounds__(256, 2) vit__linear_fma_kernel(const vit__gemm_args g_in) {
    const vit__gemm_args g = g_in; // a copy: see vit__gemm_args
    vit__pdl_wait();
    vit__pdl_launch();
    const int BM = 128, BN = 128, BK = VIT__FMA_BK, LDS = BM + 4;
    __shared__ __align__(16) float sA[2][BK][LDS];
    __shared__ __align__(16) float sB[2][BK][LDS];
    int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    int am = (warp >> 1) * 32 + (lane >> 3) * 4, bn = (warp & 1) * 64 + (lane & 7) * 4; // first row / column of the lane's quads
    int lr = tid >> 1, lk = (tid & 1) * 4;
    int n0 = blockIdx.x * BN, mtiles = (g.M + BM - 1) / BM, KB = (g.K + BK - 1) / BK, kb0 = 0;
    if (g.kblocks) { kb0 = blockIdx.z * g.kblocks; KB = kb0 + g.kblocks < KB ? kb0 + g.kblocks : KB; } // split-K: this slice's K tiles
    float *part = g.kblocks ? g.part + (size_t)blockIdx.z * g.M * g.N : NULL;
    const float *A = (const float *)g.a, *W = (const float *)g.w;
    for (int mt = blockIdx.y; mt < mtiles; mt += gridDim.y) {
        int m0 = mt * BM;
        float acc[8][8];
#pragma unroll
        for (int i = 0; i < 8; i++)
#pragma unroll
            for (int j = 0; j < 8; j++) acc[i][j] = 0.0f;
        float ra[4], rb[4];
        // half h of k-tile kb: this thread's 4 k values (of 8) of row lr
        auto fetch = [&](int kb, int h) {
            int k = kb * BK + h * 8 + lk, ar = m0 + lr, br = n0 + lr;
            if (VEC && AMODE == 0) {
                float4 va = make_float4(0.f, 0.f, 0.f, 0.f), vb = va;
                if (ar < g.M && k < g.K) va = *(const float4 *)(A + (size_t)ar * g.K + k);
                if (br < g.N && k < g.K) vb = *(const float4 *)(W + (size_t)br * g.K + k);
                ra[0] = va.x; ra[1] = va.y; ra[2] = va.z; ra[3] = va.w;
                rb[0] = vb.x; rb[1] = vb.y; rb[2] = vb.z; rb[3] = vb.w;
            } else if (AMODE == 2 && g.img_vec) { // 4 pixels of one patch row: one float4
                float4 va = make_float4(0.f, 0.f, 0.f, 0.f);
                if (ar < g.M && k < g.K) va = __ldg((const float4 *)vit__im2col_ptr(g, ar, k));
                ra[0] = va.x; ra[1] = va.y; ra[2] = va.z; ra[3] = va.w;
#pragma unroll
                for (int j = 0; j < 4; j++) rb[j] = (br < g.N && k + j < g.K) ? W[(size_t)br * g.K + k + j] : 0.0f;
            } else {
#pragma unroll
                for (int j = 0; j < 4; j++) {
                    bool ka = k + j < g.K;
                    if (AMODE == 2) ra[j] = (ar < g.M && ka) ? vit__im2col_at(g, ar, k + j) : 0.0f;
                    else ra[j] = (ar < g.M && ka) ? A[(size_t)ar * g.K + k + j] : 0.0f;
                    rb[j] = (br < g.N && ka) ? W[(size_t)br * g.K + k + j] : 0.0f;
                }
            }
        };
        auto stash = [&](int buf, int h) {
#pragma unroll
            for (int j = 0; j < 4; j++) { sA[buf][h * 8 + lk + j][lr] = ra[j]; sB[buf][h * 8 + lk + j][lr] = rb[j]; }
        };
        float fa[2][8], fb[2][8];
        auto frag = [&](int f, int buf, int k) {
            *(float4 *)&fa[f][0] = *(const float4 *)&sA[buf][k][am];
            *(float4 *)&fa[f][4] = *(const float4 *)&sA[buf][k][am + 16];
            *(float4 *)&fb[f][0] = *(const float4 *)&sB[buf][k][bn];
            *(float4 *)&fb[f][4] = *(const float4 *)&sB[buf][k][bn + 32];
        };
        __syncthreads(); // the previous M tile's last fragment reads are done
#pragma unroll
        for (int h = 0; h < BK / 8; h++) { fetch(kb0, h); stash(0, h); }
        __syncthreads();
        frag(0, 0, 0);
        for (int kb = kb0; kb < KB; kb++) {
            int cur = (kb - kb0) & 1;
            bool more = kb + 1 < KB;
#pragma unroll
            for (int k = 0; k < BK; k++) {
                // the next tile streams in 8 k at a time: loads issued at k % 8 == 0,
                // stored after the 8 k's FMAs; one barrier per tile
                if (more && k % 8 == 0) fetch(kb + 1, k / 8);
                if (more && k % 8 == 7) stash(cur ^ 1, k / 8);
                if (k == BK - 1) {
                    if (more) { __syncthreads(); frag((k + 1) & 1, cur ^ 1, 0); }
                } else {
                    frag((k + 1) & 1, cur, k + 1);
                }
                // the order of the 64 FMAs steers ptxas's register allocation and
                // schedule, so each output mode takes its fastest: rows in serpentine
                // order (residual), plain row order (patch), column pairs (the others)
                // [BENCHMARKS: GEMM: fp32 FMA]
                if (OUT == VIT__OUT_RESIDUAL) {
#pragma unroll
                    for (int i = 0; i < 8; i++)
#pragma unroll
                        for (int jj = 0; jj < 8; jj++) {
                            int j = i & 1 ? 7 - jj : jj;
                            acc[i][j] = fmaf(fa[k & 1][i], fb[k & 1][j], acc[i][j]);
                        }
                } else if (OUT == VIT__OUT_PATCH) { // (plain row order: column pairs are slower here)
#pragma unroll
                    for (int i = 0; i < 8; i++)
#pragma unroll
                        for (int j = 0; j < 8; j++) acc[i][j] = fmaf(fa[k & 1][i], fb[k & 1][j], acc[i][j]);
                } else {
#pragma unroll
                    for (int j = 0; j < 8; j += 2)
#pragma unroll
                        for (int i = 0; i < 8; i++) {
                            acc[i][j] = fmaf(fa[k & 1][i], fb[k & 1][j], acc[i][j]);
                            acc[i][j + 1] = fmaf(fa[k & 1][i], fb[k & 1][j + 1], acc[i][j + 1]);
                        }
                }
            }
        }
        vit__fma_epilogue<OUT, ACT>(g, part, acc, m0 + am, n0 + bn);
    }
}

// ---- bf16/fp16: mma.sync m16n8k16 (sm_80+)
// Parallel over BM x BN output tiles (grid.x over N, grid.y strides over M,
// grid.z over K slices when split). WM x WN warps each own a (BM/WM) x (BN/WN)
// block of 16x8 mma tiles with fp32 accumulators. K is walked BK at a time
// through a shared-memory ring of ST stages filled by cp.async; 16-byte chunks
// are XOR-swizzled by row so ldmatrix reads are conflict-free. Each warp loads
// the next 16 k's fragments before it issues the mmas of these (across stage
// boundaries too), so ldmatrix latency hides under the mma chain. Tiles:
// 128 x 256 x 32 with 8 warps of 64 x 64, 4 stages (large M: 96 KB, which
// every sm_80+ GPU allows); 64 x 64 x 64 with 4 warps, 4 stages (small
// batches: more CTAs). [BENCHMARKS: GEMM: mma.sync]
// AMODE 0: A dense via cp.async (K % 8 == 0, 16-byte aligned); 1: A dense via
// guarded scalar loads (any K); 2: A is the im2col of fp32 images (converted to T).
// BVEC: W via cp.async, else scalar loads.

// The mma kernel's epilogue: this lane's 16 x 8 accumulator tiles, rows r0 +
// 16 mi (+ 8), columns c0 + 8 ni (+ 1).
template <typename T, int OUT, int ACT, int MI, int NI>
static __device__ __forceinline__ void vit__mma_epilogue(const vit__gemm_args &g, float *part, const float (&acc)[MI][NI][4], int r0, int c0) {
#pragma unroll
    for (int mi = 0; mi < MI; mi++)
#pragma unroll
        for (int ni = 0; ni < NI; ni++) {
            int row = r0 + mi * 16, col = c0 + ni * 8;
            vit__ep_store<T, OUT, ACT>(g, part, row, col, acc[mi][ni][0], acc[mi][ni][1]);
            vit__ep_store<T, OUT, ACT>(g, part, row + 8, col, acc[mi][ni][2], acc[mi][ni][3]);
        }
}

// The mma.sync instances sm_90a code runs: there the kernel is only the
// fallback for shapes the TMA cannot take, which vit__plan_gemm plans on
// 64 x 64 tiles with the run-time activation instance; the other instances'
// bodies are left out of sm_90a code (never launched there; compile time).
template <int OUT, int ACT, int BM> struct vit__mma_sm90a { enum { value = BM == 64 && (OUT != VIT__OUT_STORE || ACT == VIT__ACT_RUNTIME) }; };

template <typename T, int OUT, int ACT, int AMODE, bool BVEC, int BM, int BN, int WM, int WN>
static __device__ __forceinline__ void vit__linear_mma_body(const vit__gemm_args &g_in);

template <typename T, int OUT, int ACT, int AMODE, bool BVEC, int BM, int BN, int WM, int WN>
__global__ void __launch_bounds__(WM * WN * 32) vit__linear_mma_kernel(const vit__gemm_args g_in) {
#ifdef VIT__SM90A
    if (vit__mma_sm90a<OUT, ACT, BM>::value)
#endif
        vit__linear_mma_body<T, OUT, ACT, AMODE, BVEC, BM, BN, WM, WN>(g_in);
}

// The gate of a kernel's first tile: the previous kernel's outputs visible (PDL)
struct vit__pdl_gate {
    __device__ __forceinline__ void operator()() const { vit__pdl_wait(); vit__pdl_launch(); }
};

// Where 16-byte chunk ch of row r of a BK-wide ring row sits: XOR-swizzled so
// the 8 rows one ldmatrix phase reads (and one cp.async phase writes) fall in
// 8 different 16-byte bank groups (BK 32: two rows share a 128-byte line).
template <int BK> static __device__ __forceinline__ int vit__mma_sw(int r, int ch) {
    return BK == 64 ? ch ^ (r & 7) : ch ^ ((r >> 1) & 3);
}

// One BM x BN output tile of g (rows m0.., columns n0..) over K steps (of BK)
// kb0 .. kb1 - 1, its sums to the epilogue or, with part, raw to part (a
// split-K slice's (M, N) plane). first: the tile's first W stages load, then
// wait() returns once its A rows are ready to read (PDL, or the persistent
// kernel's counters), then its A stages; otherwise both load together. Every
// thread of the CTA (WM x WN warps) takes part.
// ST: the ring's stages (the kernel's VIT__MMA_ST; the persistent kernel's own).
template <typename T, int OUT, int ACT, int AMODE, bool BVEC, int BM, int BN, int WM, int WN, int ST, int BK, typename WAIT>
static __device__ __forceinline__ void vit__mma_tile(const vit__gemm_args &g, int m0, int n0, int kb0, int kb1, float *part, bool first, WAIT wait) {
    // RS: the rows between one thread's chunks of a stage (a multiple of 8, so
    // every one of them has the same swizzle)
    const int NT = WM * WN * 32, MI = BM / WM / 16, NI = BN / WN / 8, CH = BK / 8, KK = BK / 16, RS = NT / CH;
    static_assert(NT % CH == 0 && RS % 8 == 0 && BM % RS == 0 && BN % RS == 0 && KK % 2 == 0, "mma.sync tile shape");
    extern __shared__ __align__(128) unsigned char vit__smem_mma[];
    T *sA = (T *)vit__smem_mma; // [ST][BM][BK]
    T *sB = sA + ST * BM * BK;  // [ST][BN][BK]
    int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5, wm = warp / WN, wn = warp % WN;
    const T *A = (const T *)g.a, *W = (const T *)g.w;
    // this thread's chunks: rows row0 + i RS, 16-byte chunk ch0 of each K step
    const int row0 = tid / CH, ch0 = tid % CH, sw0 = (row0 * BK) + (vit__mma_sw<BK>(row0, ch0) << 3);
    const size_t rsk = (size_t)RS * g.K;
    const T *a0 = A + (size_t)(m0 + row0) * g.K + ch0 * 8, *b0 = W + (size_t)(n0 + row0) * g.K + ch0 * 8;
    {
        // part 1: the A (activation) tile of stage s, 2: the W tile, 3: both
        auto load = [&](int s, int kb, int part) {
            int k = kb * BK + ch0 * 8;
            if (part & 1) {
#pragma unroll
                for (int it = 0; it < BM / RS; it++) {
                    int row = row0 + it * RS, ar = m0 + row;
                    T *da = sA + s * BM * BK + it * RS * BK + sw0;
                    if (AMODE == 0) {
                        bool ok = ar < g.M && k < g.K;
                        vit__cp16(da, ok ? a0 + it * rsk + kb * BK : A, ok ? 16 : 0);
                    } else if (AMODE == 2 && g.img_vec) { // 8 pixels of one patch row: two float4
                        float4 lo = make_float4(0.f, 0.f, 0.f, 0.f), hi = lo;
                        if (ar < g.M && k < g.K) {
                            const float4 *src = (const float4 *)vit__im2col_ptr(g, ar, k);
                            lo = __ldg(src); hi = __ldg(src + 1);
                        }
                        *(uint4 *)da = make_uint4(vit__pack2<T>(lo.x, lo.y), vit__pack2<T>(lo.z, lo.w), vit__pack2<T>(hi.x, hi.y), vit__pack2<T>(hi.z, hi.w));
                    } else {
                        float v[8];
#pragma unroll
                        for (int e = 0; e < 8; e++) {
                            bool ok = ar < g.M && k + e < g.K;
                            if (AMODE == 2) v[e] = ok ? vit__im2col_at(g, ar, k + e) : 0.0f;
                            else v[e] = ok ? vit__f32(A[(size_t)ar * g.K + k + e]) : 0.0f;
                        }
                        *(uint4 *)da = make_uint4(vit__pack2<T>(v[0], v[1]), vit__pack2<T>(v[2], v[3]), vit__pack2<T>(v[4], v[5]), vit__pack2<T>(v[6], v[7]));
                    }
                }
            }
            if (part & 2) {
#pragma unroll
                for (int it = 0; it < BN / RS; it++) {
                    int br = n0 + row0 + it * RS;
                    T *db = sB + s * BN * BK + it * RS * BK + sw0;
                    if (BVEC) {
                        bool ok = br < g.N && k < g.K;
                        vit__cp16(db, ok ? b0 + it * rsk + kb * BK : W, ok ? 16 : 0);
                    } else {
                        float v[8];
#pragma unroll
                        for (int e = 0; e < 8; e++) v[e] = (br < g.N && k + e < g.K) ? vit__f32(W[(size_t)br * g.K + k + e]) : 0.0f;
                        *(uint4 *)db = make_uint4(vit__pack2<T>(v[0], v[1]), vit__pack2<T>(v[2], v[3]), vit__pack2<T>(v[4], v[5]), vit__pack2<T>(v[6], v[7]));
                    }
                }
            }
        };
        // this warp's A and W fragments of 16 k's (kk) of ring stage s: the
        // ldmatrix rows' offsets and swizzles are this lane's constants (the
        // 16 k's as chunks 2 kk and 2 kk + 1: (2 kk + hi) ^ sw = 2 kk ^ (hi ^ sw))
        const int fa_row = wm * (BM / WM) + (lane & 15), fb_row = wn * (BN / WN) + (lane & 7) + ((lane >> 4) << 3);
        const int fa_off = fa_row * BK, fa_sw = vit__mma_sw<BK>(fa_row, lane >> 4);
        const int fb_off = fb_row * BK, fb_sw = vit__mma_sw<BK>(fb_row, (lane >> 3) & 1);
        uint32_t fa[2][MI][4], fb[2][NI][2];
        auto frags = [&](int buf, int s, int kk) {
            const T *As = sA + s * BM * BK + fa_off + (((2 * kk) ^ fa_sw) << 3), *Bs = sB + s * BN * BK + fb_off + (((2 * kk) ^ fb_sw) << 3);
#pragma unroll
            for (int mi = 0; mi < MI; mi++) vit__ldsm4(fa[buf][mi], As + mi * 16 * BK);
#pragma unroll
            for (int nj = 0; nj < NI / 2; nj++) {
                uint32_t r[4];
                vit__ldsm4(r, Bs + nj * 16 * BK);
                fb[buf][2 * nj][0] = r[0]; fb[buf][2 * nj][1] = r[1]; fb[buf][2 * nj + 1][0] = r[2]; fb[buf][2 * nj + 1][1] = r[3];
            }
        };
        float acc[MI][NI][4];
#pragma unroll
        for (int i = 0; i < MI; i++)
#pragma unroll
            for (int j = 0; j < NI; j++)
#pragma unroll
                for (int e = 0; e < 4; e++) acc[i][j][e] = 0.0f;
        __syncthreads(); // the previous tile's last reads of the ring are done
        if (first) {
            // the weights' first stages stream in while the inputs are made
            // (the previous kernel, PDL; other CTAs, the persistent kernel)
#pragma unroll
            for (int s = 0; s < ST - 1; s++)
                if (kb0 + s < kb1) load(s, kb0 + s, 2);
            wait();
#pragma unroll
            for (int s = 0; s < ST - 1; s++) {
                if (kb0 + s < kb1) load(s, kb0 + s, 1);
                vit__cp_commit();
            }
        } else {
#pragma unroll
            for (int s = 0; s < ST - 1; s++) {
                if (kb0 + s < kb1) load(s, kb0 + s, 3);
                vit__cp_commit();
            }
        }
        vit__cp_wait<ST - 2>();
        __syncthreads();
        if (kb0 < kb1) frags(0, 0, 0);
        // K step i uses slot i % ST. After the mmas of its second-to-last 16
        // k's are issued (so the tensor cores have work through the wait), step
        // i + ST - 1 loads into the slot step i - 1 used (every thread's reads
        // of it came before the last barrier) and step i + 1's data is waited
        // for; its first fragments then load before step i's last mmas.
        for (int kb = kb0; kb < kb1; kb++) {
            int i = kb - kb0, slot = i % ST;
#pragma unroll
            for (int kk = 0; kk < KK; kk++) {
                const int cur = kk & 1; // (KK is even: step i + 1 starts in buffer 0)
                if (kk < KK - 1) frags(cur ^ 1, slot, kk + 1);
                else if (kb + 1 < kb1) frags(cur ^ 1, slot + 1 == ST ? 0 : slot + 1, 0);
#pragma unroll
                for (int mi = 0; mi < MI; mi++)
#pragma unroll
                    for (int ni = 0; ni < NI; ni++) vit__mma(acc[mi][ni], fa[cur][mi], fb[cur][ni], (T *)0);
                if (kk == KK - 2) {
                    if (kb + ST - 1 < kb1) load(slot == 0 ? ST - 1 : slot - 1, kb + ST - 1, 3);
                    vit__cp_commit();
                    vit__cp_wait<ST - 2>();
                    __syncthreads();
                }
            }
        }
        vit__cp_wait<0>();
        vit__mma_epilogue<T, OUT, ACT, MI, NI>(g, part, acc, m0 + wm * (BM / WM) + (lane >> 2), n0 + wn * (BN / WN) + (lane & 3) * 2);
    }
}

template <typename T, int OUT, int ACT, int AMODE, bool BVEC, int BM, int BN, int WM, int WN>
static __device__ __forceinline__ void vit__linear_mma_body(const vit__gemm_args &g_in) {
    const vit__gemm_args g = g_in; // a copy: see vit__gemm_args
    int mtiles = (g.M + BM - 1) / BM, KB = (g.K + VIT__MMA_BKT(BM) - 1) / VIT__MMA_BKT(BM);
    int kb0 = 0, kb1 = KB;
    if (g.kblocks) { kb0 = blockIdx.z * g.kblocks; kb1 = kb0 + g.kblocks < KB ? kb0 + g.kblocks : KB; }
    float *part = g.kblocks ? g.part + (size_t)blockIdx.z * g.M * g.N : NULL;
    for (int mt = blockIdx.y; mt < mtiles; mt += gridDim.y)
        vit__mma_tile<T, OUT, ACT, AMODE, BVEC, BM, BN, WM, WN, VIT__MMA_ST(BM), VIT__MMA_BKT(BM)>(g, mt * BM, blockIdx.x * BN, kb0, kb1, part, mt == (int)blockIdx.y, vit__pdl_gate());
}

// ---- bf16/fp16 on sm_90a: wgmma + TMA
// Persistent: each CTA walks output tiles tile += gridDim.x, N fastest so CTAs
// running together share A rows in L2. Split-K (small batches, fewer tiles
// than SMs): the work items are (tile, K slice) pairs, each slice's raw sums
// stored in fp32 for a reduction after the kernel (as the mma.sync path does).
// Warpgroup 0 is the producer (one thread issues TMA loads of ROWS x 64 A and
// BN x 64 W boxes, 128-byte swizzled, into an ST-stage ring guarded by
// full/empty mbarriers); warpgroups 1 and 2 multiply
// with wgmma (A and B from shared memory, fp32 accumulators in registers) and
// apply the epilogue straight from registers. Two ways to share the work:
//   cooperative (PP 0): both consumers work on one 128 x BN tile, 64 rows
//     each, and so run their epilogues at the same time, tensor cores idle;
//   ping-pong (PP 1, or 2 with a deeper ring; BN 128 or 192): each consumer owns every other 128 x BN tile
//     (two 64-row wgmma blocks), so one's epilogue (GELU, say) runs while the
//     other's main loop keeps the tensor cores busy. The ring is filled in tile
//     order; named barriers 3 and 4 keep the main loops in that order too.
// The epilogue goes out through shared memory and the TMA (vit__wg_epilogue_tma)
// except for the patch embedding's scattered token rows (vit__wg_epilogue).
// Out-of-range rows/columns/K are zero-filled by TMA loads and skipped by its stores.
#define VIT__WG_BK(T) vit__op_box_k(vit__optype<T>::value) // K per stage: one 128-byte TMA box row (64 for bf16/fp16)
// Ring stages and the TMA epilogue's staging boxes (S) per consumer warpgroup:
// one stage fewer with S, two boxes each; the deep ping-pong (PP 2) has 6
// stages and one box each (see vit__plan_gemm for where it pays).
// [BENCHMARKS: GEMM: split-K]
// (128 x 192 ping-pong tiles: a stage is 40 KB, so one stage fewer)
#define VIT__WG_ST(BN, S, PP) ((PP) == 2 ? ((BN) == 192 ? 5 : 6) : ((BN) == 192 ? 5 : 6) - (S))
#define VIT__WG_NBOX(PP) ((PP) == 2 ? 1 : 2)
#define VIT__WG_BOX 8192 // bytes of one epilogue staging box: 64 rows x 128 bytes
#define VIT__WG_BOX_BYTES(OUT, BN) ((OUT) == VIT__OUT_E4M3 && (BN) % 128 ? 64 : 128) // of a box row (e4m3 of 128 x 192: 64)
// ring + epilogue staging (2 consumer wg x boxes) + the ring's barriers + per
// consumer warpgroup two (parity) tiles' bias, scale and weight scale + alignment
#define VIT__WG_SMEM(BN, S, PP) (VIT__WG_ST(BN, S, PP) * (VIT__WG_BM + (BN)) * 128 + (S) * 2 * VIT__WG_NBOX(PP) * VIT__WG_BOX + \
                                 2 * VIT__WG_ST(BN, S, PP) * 8 + 2 * 2 * 3 * (BN) * 4 + 1024)

// The patch embedding's epilogue of one 64-row wgmma block d (this thread: rows
// row and row + 8, columns n0 + 8 j + 2 q, +1; bias of the tile's columns in eb):
// token row of patch r = acc + bias + pos, fp32. The loads of 8 chunks of pos go
// out together.
template <int BN>
static __device__ __forceinline__ void vit__wg_epilogue_patch(const vit__gemm_args &g, const float *d, int row, int n0, const float *eb, int q) {
#pragma unroll
    for (int j0 = 0; j0 < BN / 8; j0 += 8) {
        float2 pr[8][2];
#pragma unroll
        for (int jj = 0; jj < 8; jj++)
#pragma unroll
            for (int hr = 0; hr < 2; hr++) {
                int r = row + 8 * hr, col = n0 + (j0 + jj) * 8 + q * 2;
                pr[jj][hr] = g.pos && r < g.M && col < g.N ? *(const float2 *)(g.pos + (size_t)(r % g.gg) * g.N + col) : make_float2(0.0f, 0.0f);
            }
#pragma unroll
        for (int jj = 0; jj < 8; jj++) {
            int col = n0 + (j0 + jj) * 8 + q * 2;
            if (col >= g.N) continue;
            float2 bb = *(const float2 *)(eb + (j0 + jj) * 8 + q * 2);
#pragma unroll
            for (int hr = 0; hr < 2; hr++) {
                int r = row + 8 * hr;
                if (r >= g.M) continue;
                float *o = (float *)g.out + ((size_t)(r / g.gg) * g.tokens + g.prefix + r % g.gg) * g.N + col;
                *(float2 *)o = make_float2(d[4 * (j0 + jj) + 2 * hr] + bb.x + pr[jj][hr].x, d[4 * (j0 + jj) + 2 * hr + 1] + bb.y + pr[jj][hr].y);
            }
        }
    }
}

// The epilogue of one 64-row wgmma block d from registers, column pair by
// column pair through vit__ep_out (this thread: rows row and row + 8, columns
// n0 + 8 j + 2 q, +1; bias in eb): for SwiGLU, whose outputs are half as many
// as the tile's columns (the TMA boxes are cut for one output per column).
template <typename T, int BN, int OUT, int ACT>
static __device__ __forceinline__ void vit__wg_epilogue_regs(const vit__gemm_args &g, const float *d, int row, int n0, const float *eb, int q) {
#pragma unroll
    for (int j = 0; j < BN / 8; j++) {
        int col = n0 + j * 8 + q * 2;
        if (col >= g.N) continue;
        float2 bb = *(const float2 *)(eb + j * 8 + q * 2);
        bool two = col + 1 < g.N, vec = two && !(g.N & 1);
#pragma unroll
        for (int hr = 0; hr < 2; hr++)
            if (row + 8 * hr < g.M) vit__ep_out<T, OUT, ACT>(g, row + 8 * hr, col, d[4 * j + 2 * hr] + bb.x, d[4 * j + 2 * hr + 1] + bb.y, two, vec);
    }
}
#ifdef VIT__SM90A
// Bias, activation A (a compile-time one) and, RES, the layer scale over this
// thread's BN / 2 accumulators of a 64-row block, in place (vit__wg_epilogue_tma).
template <int A, int BN, bool RES>
static __device__ __forceinline__ void vit__wg_epilogue_math(float *d, const float *eb, const float *es, int q) {
#pragma unroll
    for (int j = 0; j < BN / 8; j++) {
        float2 bb = *(const float2 *)(eb + j * 8 + 2 * q), sc = *(const float2 *)(es + j * 8 + 2 * q);
#pragma unroll
        for (int hr = 0; hr < 2; hr++) {
            float v[2] = {d[4 * j + 2 * hr] + bb.x, d[4 * j + 2 * hr + 1] + bb.y};
            vit__epi_apply((vit__act)A, 1, v);
            d[4 * j + 2 * hr] = RES ? sc.x * v[0] : v[0];
            d[4 * j + 2 * hr + 1] = RES ? sc.y * v[1] : v[1];
        }
    }
}

// The epilogue of one 64-row wgmma block d through the TMA: the warpgroup writes
// 64-row x 128-byte boxes of results to shared memory (128-byte swizzle; 64-byte
// boxes and swizzle for e4m3 outputs of 192-column tiles; NB
// boxes it takes in turn) and one thread sends each out, so the epilogue
// never waits on global memory and the copies overlap the next tile's main loop.
//   STORE: act(acc + bias) in T, 64 x 64 boxes, stored;
//   RESIDUAL: scale * act(acc + bias) in fp32, 64 x 32 boxes, added to x in
//     L2 (a TMA reduction; each element gets one add: the same bits every run,
//     but the product rounded before the add, where vit__epi_residual fuses);
//   PARTIAL (split-K, slice z >= 0): the raw sums in fp32, 64 x 32 boxes,
//     stored to plane z of the partial sums (tmo: a 3-D map of them);
//   RES16 (RESIDUAL with g.res16): as RESIDUAL, the products rounded to T,
//     64 x 64 boxes, added to the bf16 x in L2 (rounded again there);
//   E4M3: act(acc + bias) in e4m3, 64 x 128 boxes (64 x 64 on 128 x 192
//     tiles), stored, each row divided
//     by its scale (rs: this thread's two rows'; powers of two, so exactly),
//     which the tiles of column 0 store into qscale (M).
// This thread holds rows rl0 and rl0 + 8 of the block, columns 8 j + 2 q, +1.
// r0: the block's first row; nbox counts this warpgroup's boxes (which is free).
// The results are computed in place in d first, then stored box by box, so
// that the activation's latency does not sit between the boxes' barriers.
// [BENCHMARKS: GEMM: epilogue]
enum { VIT__OUT_RES16 = 16 }; // vit__wg_epilogue_tma's mode for a residual stream in T
template <typename T, int BN, int OUT, int ACT, int NB>
static __device__ __forceinline__ void vit__wg_epilogue_tma(const CUtensorMap *tmo, float *d, int r0, int n0, const float *eb, const float *es,
                                                            unsigned char *stage, int &nbox, int bar, int t, int z, int act = VIT__ACT_NONE,
                                                            float *qscale = NULL, int M = 0, const float *rs = NULL) {
    static_assert(ACT != VIT__ACT_SWIGLU, "SwiGLU: vit__wg_epilogue_regs");
    const bool SPLIT = OUT == VIT__OUT_PARTIAL, E8 = OUT == VIT__OUT_E4M3;
    // element size, a box row's bytes (e4m3 of 128 x 192 tiles: three 64-byte
    // boxes, as 192 columns are one and a half 128-byte boxes), box width
    const int RES = OUT == VIT__OUT_RESIDUAL || OUT == VIT__OUT_RES16, F32 = OUT == VIT__OUT_RESIDUAL || SPLIT, ES = F32 ? 4 : E8 ? 1 : 2;
    const int BB = VIT__WG_BOX_BYTES(OUT, BN), W = BB / ES;
    int rl0 = (t >> 5) * 16 + ((t & 31) >> 2), q = t & 3;
    if (E8 && n0 == 0 && q == 0)
#pragma unroll
        for (int hr = 0; hr < 2; hr++)
            if (r0 + rl0 + 8 * hr < M) qscale[r0 + rl0 + 8 * hr] = rs[hr];
    // The run-time activation is switched on once per block, not per column
    // pair: a switch per pair (a jump table in the SASS) made every pair's
    // math its own basic block, run one after another with nothing to overlap
    // their latencies (as the compile-time GELU's 64 interleaved ex2s do).
    if (!SPLIT && ACT != VIT__ACT_RUNTIME) {
        vit__wg_epilogue_math<ACT, BN, RES>(d, eb, es, q);
    } else if (!SPLIT) {
        switch (act) {
        case VIT__ACT_GELU: vit__wg_epilogue_math<VIT__ACT_GELU, BN, RES>(d, eb, es, q); break;
        case VIT__ACT_GELU_TANH: vit__wg_epilogue_math<VIT__ACT_GELU_TANH, BN, RES>(d, eb, es, q); break;
        case VIT__ACT_QUICK_GELU: vit__wg_epilogue_math<VIT__ACT_QUICK_GELU, BN, RES>(d, eb, es, q); break;
        default: vit__wg_epilogue_math<VIT__ACT_NONE, BN, RES>(d, eb, es, q); break; // (SwiGLU never comes here)
        }
    }
#pragma unroll
    for (int jb = 0; jb < BN / W; jb++, nbox++) {
        unsigned char *box = stage + (nbox % NB) * VIT__WG_BOX;
        float inv[2] = {1.0f, 1.0f}; // E8: 1 / the rows' scales, exact (2^-e from 2^e's bits)
        if (E8)
#pragma unroll
            for (int hr = 0; hr < 2; hr++) inv[hr] = __uint_as_float(0x7F000000u - __float_as_uint(rs[hr]));
        if (t == 0) asm volatile("cp.async.bulk.wait_group.read %0;\n" ::"n"(NB - 1) : "memory"); // the box sent NB boxes ago has been read
        asm volatile("bar.sync %0, 128;\n" ::"r"(bar) : "memory");
#pragma unroll
        for (int jj = 0; jj < W / 8; jj++) {
            int j = jb * (W / 8) + jj, cb = (jj * 8 + 2 * q) * ES; // cb: byte of the column pair in the box row
#pragma unroll
            for (int hr = 0; hr < 2; hr++) {
                int rl = rl0 + 8 * hr;
                float v0 = d[4 * j + 2 * hr], v1 = d[4 * j + 2 * hr + 1];
                // 128-byte swizzle: 16-byte chunk k of row rl sits at chunk k ^ (rl % 8);
                // 64-byte: at chunk k ^ (rl / 2 % 4) (the address's bits 4-5 ^= bits 7-8)
                unsigned char *o = box + rl * BB + ((((cb >> 4) ^ (BB == 128 ? rl : rl >> 1)) & (BB / 16 - 1)) << 4) + (cb & 15);
                if (F32) *(float2 *)o = make_float2(v0, v1);
                else if (E8) *(uint16_t *)o = (uint16_t)__nv_cvt_float2_to_fp8x2(make_float2(__fmul_rn(v0, inv[hr]), __fmul_rn(v1, inv[hr])), __NV_SATFINITE, __NV_E4M3);
                else *(uint32_t *)o = vit__pack2<T>(v0, v1);
            }
        }
        asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); // the writes, seen by the TMA unit
        asm volatile("bar.sync %0, 128;\n" ::"r"(bar) : "memory");
        if (t == 0) {
            if (SPLIT) vit__tma_store3(tmo, box, n0 + jb * W, r0, z);
            else if (RES) vit__tma_reduce_add(tmo, box, n0 + jb * W, r0);
            else vit__tma_store(tmo, box, n0 + jb * W, r0);
        }
    }
}
#endif

// QS (e4m3, g.a_blocks: a's scales per row and 128 columns of K; cooperative
// 64- or 128-column tiles): each K step's sums go to a zeroed second
// accumulator, and are added into d times their rows' scales once the next
// step's wgmmas are issued (two of them in turn, so the tensor cores never wait
// on the adds); the sums are then fp32 every 128 K, not only the e4m3 wgmma's
// ~14-bit adds (DeepSeek-V3's 1 x 128 activation tiles). A tile's epilogue runs
// while the next tile's first two steps do (no registers for a ping-pong).
template <typename T, typename TA, int BN, int OUT, int ACT, int PP, int QS = 0>
__global__ void __launch_bounds__(384, 1) vit__linear_wgmma_kernel(const __grid_constant__ CUtensorMap tma, const __grid_constant__ CUtensorMap tmb,
                                                                   const __grid_constant__ CUtensorMap tmo, const vit__gemm_args g_in) {
    const vit__gemm_args g = g_in; // a copy: see vit__gemm_args
    vit__pdl_launch();
#ifdef VIT__SM90A
    const int S = OUT != VIT__OUT_PATCH; // the epilogue through the TMA (tmo: the output in 64-row boxes, VIT__WG_BOX_BYTES wide)
    static_assert(!PP || BN == 128 || BN == 192, "ping-pong: 128 x 128 or 128 x 192 tiles (two 64 x BN accumulator blocks per thread)");
    static_assert(BN != 192 || PP, "128 x 192 tiles: ping-pong");
    static_assert(!QS || (!PP && BN <= 128 && sizeof(TA) == 1), "A's block scales: e4m3, cooperative tiles of up to 128 columns (three accumulators)");
    const int BM = VIT__WG_BM, BK = VIT__WG_BK(TA), KW = vit__op_wgmma_k(vit__optype<TA>::value), ST = VIT__WG_ST(BN, S, PP), NB = VIT__WG_NBOX(PP);
    const bool F8 = sizeof(TA) == 1; // e4m3 operands: the sums times a_scale[row] * w_scale[col] before the epilogue
    const int MI = PP ? 2 : 1; // 64-row wgmma blocks per consumer and tile
    extern __shared__ __align__(1024) unsigned char vit__smem_wg[];
    // 128B swizzle atoms need 1024-byte alignment: rounded up by an offset from the
    // array, not through an integer (with the address cast to uintptr_t and back the
    // compiler no longer knows it is shared memory, and every staging store and bias
    // load became a generic ST.E/LD.E with 64-bit address arithmetic)
    unsigned char *base = vit__smem_wg + ((1024u - (unsigned)__cvta_generic_to_shared(vit__smem_wg)) & 1023u);
    TA *sA = (TA *)base;        // [ST][BM][BK]
    TA *sB = sA + ST * BM * BK; // [ST][BN][BK]
    unsigned char *sOut = (unsigned char *)(sB + ST * BN * BK); // S: [2 consumer wg][NB][VIT__WG_BOX]
    uint64_t *full = (uint64_t *)(sOut + S * 2 * NB * VIT__WG_BOX), *empty = full + ST;
    float *sEp = (float *)(empty + ST); // [2 consumer wg][2 parity][bias, scale, weight scale][BN]
    int wg = threadIdx.x >> 7, t = threadIdx.x & 127;
    if (threadIdx.x == 0) {
        for (int s = 0; s < ST; s++) { vit__mbar_init(&full[s], 1); vit__mbar_init(&empty[s], PP ? 1 : 2); }
        asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    }
    __syncthreads();
    // work items: output tile x K slice (split-K: g.kblocks k-steps per slice,
    // which the launcher makes divide KB), item = slice * tiles + tile
    int nt = (g.N + BN - 1) / BN, tiles = ((g.M + BM - 1) / BM) * nt, KB = (g.K + BK - 1) / BK;
    int kper = g.kblocks ? g.kblocks : KB, items = tiles * (KB / kper);
    // work item item's output tile at (m0, n0) and its K slice (0 unsplit), in
    // the tile order of g.rev (see vit__walk)
    auto item_tile = [&](int item, int &m0, int &n0, int &slice) {
        int w = g.rev ? items - 1 - item : item, tile = w % tiles;
        m0 = (tile / nt) * BM; n0 = (tile % nt) * BN; slice = w / tiles;
    };
    if (wg == 0) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
        if (t == 0) {
            // the weights of the first stages stream in while the previous
            // kernel finishes (PDL); everything else, the rest of the item's
            // weight boxes included, waits for it. [BENCHMARKS: Batch 1]
            int pre = (int)blockIdx.x < items ? (kper < ST ? kper : ST) : 0, m0, n0, slice;
            item_tile(blockIdx.x, m0, n0, slice);
            for (int s = 0; s < pre; s++) {
                vit__mbar_expect(&full[s], (BM + BN) * BK * (int)sizeof(TA));
                vit__tma_load(sB + s * BN * BK, &tmb, (slice * kper + s) * BK, n0, &full[s]);
            }
            vit__pdl_wait();
            int it = 0;
            for (int item = blockIdx.x; item < items; item += gridDim.x) {
                item_tile(item, m0, n0, slice);
                int kb0 = slice * kper;
                for (int kb = kb0; kb < kb0 + kper; kb++, it++) {
                    int s = it % ST;
                    if (it >= pre) {
                        vit__mbar_wait(&empty[s], ((it / ST) & 1) ^ 1);
                        vit__mbar_expect(&full[s], (BM + BN) * BK * (int)sizeof(TA));
                        vit__tma_load(sB + s * BN * BK, &tmb, kb * BK, n0, &full[s]);
                    }
                    vit__tma_load(sA + s * BM * BK, &tma, kb * BK, m0, &full[s]);
                }
            }
        }
    } else {
        vit__pdl_wait();
        asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
        int c = wg - 1, warp = t >> 5, lane = t & 31, nbox = 0;
        float d[MI][BN / 2];
        // the tile's bias and scale columns: loaded as its main loop starts, stored
        // to shared memory after it (the epilogue then never waits on them)
        const int BR = (BN + 127) / 128;
        float breg[BR], sreg[BR], wreg[BR];
        // e4m3 with a scale per row (not QS): this thread's rows' scales, loaded
        // likewise (read after the main loop, their load latency had been the
        // first thing each epilogue waited for)
        // VIT__OUT_E4M3: the rows' output scales (from a's row norms) likewise
        float sx[MI][2], so[MI][2];
        auto load_cols = [&](int m0, int n0) {
            if (F8 && !QS)
#pragma unroll
                for (int mi = 0; mi < MI; mi++) {
                    int r = m0 + (PP ? mi : c) * 64 + warp * 16 + (lane >> 2);
                    sx[mi][0] = g.a_scale && r < g.M ? __ldg(g.a_scale + r) : 1.0f;
                    sx[mi][1] = g.a_scale && r + 8 < g.M ? __ldg(g.a_scale + r + 8) : 1.0f;
                    if (OUT == VIT__OUT_E4M3)
#pragma unroll
                        for (int hr = 0; hr < 2; hr++)
                            so[mi][hr] = vit__e4m3_bound_scale(r + 8 * hr < g.M ? __ldg(g.a_norm + r + 8 * hr) : 0.0f, g.bound_w, g.bound_b);
                }
#pragma unroll
            for (int i = 0; i < BR; i++) {
                int col = n0 + t + 128 * i;
                bool in = col < g.N && t + 128 * i < BN;
                breg[i] = g.bias && in ? __ldg(g.bias + col) : 0.0f;
                sreg[i] = g.scale && in ? __ldg(g.scale + col) : 1.0f;
                wreg[i] = F8 && g.w_scale && in ? __ldg(g.w_scale + col) : 1.0f;
            }
        };
        auto stash_cols = [&](int par) {
            float *eb = sEp + (c * 2 + par) * 3 * BN;
#pragma unroll
            for (int i = 0; i < BR; i++)
                if (t + 128 * i < BN) { eb[t + 128 * i] = breg[i]; eb[BN + t + 128 * i] = sreg[i]; eb[2 * BN + t + 128 * i] = wreg[i]; }
        };
        // the epilogue of the tile at (m0, n0) (slice z, or -1), its columns stashed at par
        auto finish = [&](int m0, int n0, int z, int par) {
            float *eb = sEp + (c * 2 + par) * 3 * BN, *es = eb + BN, *ew = es + BN;
            asm volatile("bar.sync %0, 128;\n" ::"r"(wg) : "memory"); // this warpgroup's named barrier (1 or 2)
            if (F8) // dequantise: this thread's rows r and r + 8 of each 64-row block, columns 8 j + 2 q, +1
#pragma unroll
                for (int mi = 0; mi < MI; mi++) {
                    float sx0 = QS ? 1.0f : sx[mi][0], sx1 = QS ? 1.0f : sx[mi][1]; // (QS: a's scales are in the sums already)
#pragma unroll
                    for (int jc = 0; jc < BN / 8; jc++) {
                        float2 sw = *(const float2 *)(ew + jc * 8 + 2 * (lane & 3));
                        d[mi][4 * jc] *= sx0 * sw.x; d[mi][4 * jc + 1] *= sx0 * sw.y;
                        d[mi][4 * jc + 2] *= sx1 * sw.x; d[mi][4 * jc + 3] *= sx1 * sw.y;
                    }
                }
#pragma unroll
            for (int mi = 0; mi < MI; mi++) {
                int r0 = m0 + (PP ? mi : c) * 64;
                unsigned char *stage = sOut + c * NB * VIT__WG_BOX;
                if (S && z >= 0) {
                    vit__wg_epilogue_tma<T, BN, VIT__OUT_PARTIAL, VIT__ACT_NONE, NB>(&tmo, d[mi], r0, n0, eb, es, stage, nbox, wg, t, z);
                } else if (S && ACT == VIT__ACT_RUNTIME && g.act == VIT__ACT_SWIGLU) {
                    vit__wg_epilogue_regs<T, BN, OUT, VIT__ACT_SWIGLU>(g, d[mi], r0 + warp * 16 + (lane >> 2), n0, eb, lane & 3);
                } else if (S && OUT == VIT__OUT_RESIDUAL && g.res16) {
                    vit__wg_epilogue_tma<T, BN, OUT == VIT__OUT_RESIDUAL ? (int)VIT__OUT_RES16 : OUT, ACT, NB>(&tmo, d[mi], r0, n0, eb, es, stage, nbox, wg, t, 0);
                } else if (S && OUT == VIT__OUT_E4M3) {
                    vit__wg_epilogue_tma<T, BN, OUT, ACT, NB>(&tmo, d[mi], r0, n0, eb, es, stage, nbox, wg, t, 0, g.act, g.out_scale, g.M, so[mi]);
                } else if (S) {
                    vit__wg_epilogue_tma<T, BN, OUT, ACT, NB>(&tmo, d[mi], r0, n0, eb, es, stage, nbox, wg, t, 0, g.act);
                } else {
                    vit__wg_epilogue_patch<BN>(g, d[mi], r0 + warp * 16 + (lane >> 2), n0, eb, lane & 3);
                }
            }
        };
        if (QS) {
            // The previous tile's epilogue runs while this tile's first two K
            // steps compute (its sums d are free only once the first of them is
            // promoted, which overwrites d): part of the epilogue hidden, without
            // more registers. [BENCHMARKS: GEMM: fp8 (e4m3)]
            float dq[2][BN / 2] = {}; // (zero once: the first wgmma of each step overwrites them)
            float sq[2][2];
            const float *sa0 = g.a_scale, *sa1 = g.a_scale;
            int it = 0;
            // K step kb into acc (the wgmmas issued, not waited on)
            // and its rows' scales loaded into sc (used a step later: their latency hidden)
            auto issue = [&](float(&acc)[BN / 2], float(&sc)[2], int kb) {
                int s = it % ST;
                sc[0] = __ldg(sa0 + kb); sc[1] = __ldg(sa1 + kb);
                vit__mbar_wait(&full[s], (it / ST) & 1);
                vit__wg_fence();
                const TA *a = sA + s * BM * BK + c * 64 * BK, *b = sB + s * BN * BK;
#pragma unroll
                for (int k = 0; k < BK / KW; k++) { // (the first: acc = A B, no zeroing)
                    if (BN == 64) vit__wgmma64(acc, vit__wg_desc(a + k * KW), vit__wg_desc(b + k * KW), (TA *)0, k > 0);
                    else vit__wgmma128(acc, vit__wg_desc(a + k * KW), vit__wg_desc(b + k * KW), (TA *)0, k > 0);
                }
                vit__wg_commit();
                it++;
            };
            // the previous step's sums (prev, done once all but the last group are) times
            // its rows' scales sc into d (first: the tile's first step, which sets d)
            auto promote = [&](float(&prev)[BN / 2], const float(&sc)[2], bool last, auto first) {
                float p0 = sc[0], p1 = sc[1];
                if (last) vit__wg_wait<0>();
                else vit__wg_wait<1>();
                vit__wg_fence_regs<BN / 2>(prev);
                if (t == 0) vit__mbar_arrive(&empty[(it - 1 - !last) % ST]);
#pragma unroll
                for (int i = 0; i < BN / 2; i++) d[0][i] = decltype(first)::value ? prev[i] * (i & 2 ? p1 : p0) : fmaf(prev[i], i & 2 ? p1 : p0, d[0][i]);
            };
            int pm0 = 0, pn0 = 0, pz = -1, par = 0;
            for (int j = 0;; j++, par ^= 1) {
                int item = blockIdx.x + j * gridDim.x, m0, n0, slice;
                if (item >= items) break;
                item_tile(item, m0, n0, slice);
                int z = g.kblocks ? slice : -1;
                load_cols(m0, n0);
                // this thread's rows' scales (rows past M clamped: their sums are zeros, never stored)
                int ra = m0 + c * 64 + warp * 16 + (lane >> 2), kb0 = slice * kper;
                sa0 = g.a_scale + (size_t)(ra < g.M ? ra : g.M - 1) * KB + kb0;
                sa1 = g.a_scale + (size_t)(ra + 8 < g.M ? ra + 8 : g.M - 1) * KB + kb0;
                // the two accumulators in turn, each loop turn starting with dq[0] in
                // flight (every path the same: ptxas then keeps the wgmmas asynchronous;
                // the launcher makes kper >= 2)
                issue(dq[1], sq[1], 0);
                issue(dq[0], sq[0], 1);
                if (j > 0) finish(pm0, pn0, pz, par ^ 1);
                promote(dq[1], sq[1], false, vit__int<1>());
                int kb = 2;
                for (; kb + 1 < kper; kb += 2) {
                    issue(dq[1], sq[1], kb); promote(dq[0], sq[0], false, vit__int<0>());
                    issue(dq[0], sq[0], kb + 1); promote(dq[1], sq[1], false, vit__int<0>());
                }
                if (kb < kper) {
                    issue(dq[1], sq[1], kb); promote(dq[0], sq[0], false, vit__int<0>());
                    promote(dq[1], sq[1], true, vit__int<0>());
                } else {
                    promote(dq[0], sq[0], true, vit__int<0>());
                }
                stash_cols(par);
                pm0 = m0; pn0 = n0; pz = z;
            }
            if (blockIdx.x < items) finish(pm0, pn0, pz, par ^ 1);
        } else {
            int par = 0;
            // j: this CTA's j-th tile, whose k-steps are the ring's j * KB ...
            for (int j = PP ? c : 0;; j += PP ? 2 : 1, par ^= 1) {
                int item = blockIdx.x + j * gridDim.x, m0, n0, slice;
                if (item >= items) break;
                item_tile(item, m0, n0, slice);
                int z = g.kblocks ? slice : -1, it = j * kper;
                load_cols(m0, n0);
#pragma unroll
                for (int mi = 0; mi < MI; mi++) {
#pragma unroll
                    for (int i = 0; i < BN / 2; i++) d[mi][i] = 0.0f;
                    vit__wg_fence_regs<BN / 2>(d[mi]);
                }
                // ping-pong: start after the other consumer's main loop of tile j - 1
                // has seen all its stages full, so no stage is waited on more than
                // one phase ahead (an mbarrier's parity tells only one phase apart)
                if (PP && j > 0) asm volatile("bar.sync %0, 256;\n" ::"r"(4 - c) : "memory");
                for (int kb = 0; kb < kper; kb++, it++) {
                    int s = it % ST;
                    vit__mbar_wait(&full[s], (it / ST) & 1);
                    vit__wg_fence();
                    const TA *a = sA + s * BM * BK + (PP ? 0 : c * 64 * BK), *b = sB + s * BN * BK;
#pragma unroll
                    for (int k = 0; k < BK / KW; k++)
#pragma unroll
                        for (int mi = 0; mi < MI; mi++) {
                            if (BN == 192) vit__wgmma192(d[mi], vit__wg_desc(a + mi * 64 * BK + k * KW), vit__wg_desc(b + k * KW), (TA *)0);
                            else if (BN == 64) vit__wgmma64(d[mi], vit__wg_desc(a + mi * 64 * BK + k * KW), vit__wg_desc(b + k * KW), (TA *)0);
                            else vit__wgmma128(d[mi], vit__wg_desc(a + mi * 64 * BK + k * KW), vit__wg_desc(b + k * KW), (TA *)0);
                        }
                    vit__wg_commit();
                    if (kb > 0) {
                        vit__wg_wait<1>();
                        if (t == 0) vit__mbar_arrive(&empty[(it - 1) % ST]);
                    }
                }
                if (PP && item + (int)gridDim.x < items) asm volatile("bar.arrive %0, 256;\n" ::"r"(3 + c) : "memory"); // tile j + 1 may start
                vit__wg_wait<0>();
#pragma unroll
                for (int mi = 0; mi < MI; mi++) vit__wg_fence_regs<BN / 2>(d[mi]);
                if (t == 0) vit__mbar_arrive(&empty[(it - 1) % ST]);
                stash_cols(par);
                finish(m0, n0, z, par);
            }
        }
        if (S && t == 0) asm volatile("cp.async.bulk.wait_group 0;\n" ::: "memory"); // the last stores done before the CTA ends
    }
#else
    (void)tma; (void)tmb; (void)tmo; (void)g;
#endif
}

// ---- split-K reduction
// Element i of a split GEMM: its slices' sums added in slice order (the same
// order on every run), then the bias. plane = M * N.
static __device__ __forceinline__ float vit__split_sum(const float *part, size_t plane, int split, size_t i, const float *bias, int col) {
    float v = part[i];
    for (int z = 1; z < split; z++) v += part[(size_t)z * plane + i];
    return v + (bias ? __ldg(bias + col) : 0.0f);
}

// The epilogue of a split GEMM over its (split, M, N) partial sums g.part.
// Parallel over column pairs (an activation's unit): a grid-stride loop, one
// pair per thread per step.
template <typename T, int OUT, int ACT>
static __device__ __forceinline__ void vit__splitk_reduce(const vit__gemm_args &g, int split) {
    size_t plane = (size_t)g.M * g.N, np = (size_t)(g.N + 1) / 2, pairs = (size_t)g.M * np;
    for (size_t p = (size_t)blockIdx.x * 256 + threadIdx.x; p < pairs; p += (size_t)gridDim.x * 256) {
        int row = (int)(p / np), col = 2 * (int)(p % np);
        size_t i = (size_t)row * g.N + col;
        bool two = col + 1 < g.N;
        float v0 = vit__split_sum(g.part, plane, split, i, g.bias, col), v1 = two ? vit__split_sum(g.part, plane, split, i + 1, g.bias, col + 1) : 0.0f;
        vit__ep_out<T, OUT, ACT>(g, row, col, v0, v1, two, two && !(g.N & 1));
    }
}

template <typename T, int OUT>
__global__ void __launch_bounds__(256) vit__splitk_reduce_kernel(const vit__gemm_args g_in, int split) {
    const vit__gemm_args g = g_in; // a copy: see vit__gemm_args
    vit__pdl_wait();
    vit__pdl_launch();
    vit__splitk_reduce<T, OUT, OUT == VIT__OUT_STORE ? VIT__ACT_RUNTIME : VIT__ACT_NONE>(g, split);
}

// Reports what the code this binary runs on the GPU was built for: bit 0, sm_90a
// (wgmma, TMA); bit 1, sm_90 or newer (griddepcontrol, so PDL is safe).
__global__ void vit__probe_sm90a_kernel(int *flag) {
    int f = 0;
#ifdef VIT__SM90A
    f |= 1;
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    f |= 2;
#endif
    *flag = f;
}

// The tensor-map element type of the compute dtype T (bf16 or fp16)
template <typename T> static CUtensorMapDataType vit__tmap_dtype() {
    return vit__is_bf16<T>::value ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 : CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
}

// 2-D tensor map of a row-major (rows, cols) matrix of type (fp32, bf16 or fp16),
// boxes of box_rows x 128 bytes with 128-byte swizzle; out-of-range elements
// read as zero and are skipped by stores and reductions. planes > 1: a 3-D map
// of that many such matrices one after another (boxes one plane deep), so a
// box's rows past the end of a plane are cut off there. ld, plane_ld: the row
// and plane strides in elements (0: cols and rows * ld, packed), for a matrix
// that is a column range of a wider one (the attention's heads in qkv).
// box_bytes: a box row's width, 128 (128-byte swizzle) or 64 (64-byte swizzle)
static vit_status vit__tensor_map(vit_model *m, CUtensorMap *map, const void *ptr, int rows, int cols, int box_rows, CUtensorMapDataType type, int planes = 1,
                                  size_t ld = 0, size_t plane_ld = 0, int box_bytes = 128) {
    typedef CUresult (*encode_fn)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *, const cuuint64_t *,
                                  const cuuint32_t *, const cuuint32_t *, CUtensorMapInterleave, CUtensorMapSwizzle,
                                  CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
    encode_fn enc = (encode_fn)m->cuda->encode;
    cuuint64_t dims[3] = {(cuuint64_t)cols, (cuuint64_t)rows, (cuuint64_t)planes};
    cuuint32_t esize = type == CU_TENSOR_MAP_DATA_TYPE_FLOAT32 ? 4 : type == CU_TENSOR_MAP_DATA_TYPE_UINT8 ? 1 : 2;
    int rank = planes > 1 || plane_ld ? 3 : 2;
    if (!ld) ld = (size_t)cols;
    if (!plane_ld) plane_ld = ld * (size_t)rows;
    cuuint64_t strides[2] = {(cuuint64_t)ld * esize, (cuuint64_t)plane_ld * esize};
    cuuint32_t box[3] = {(cuuint32_t)box_bytes / esize, (cuuint32_t)box_rows, 1};
    cuuint32_t estr[3] = {1, 1, 1};
    CUresult r = enc(map, type, rank, (void *)ptr, dims, strides, box, estr,
                     CU_TENSOR_MAP_INTERLEAVE_NONE, box_bytes == 64 ? CU_TENSOR_MAP_SWIZZLE_64B : CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) return vit__fail(m->error, VIT_ERROR_CUDA, "cuTensorMapEncodeTiled failed (CUresult %d) for a %d x %d matrix", (int)r, rows, cols);
    return VIT_OK;
}

static int vit__aligned16(const void *p) { return ((uintptr_t)p & 15) == 0; }

// grid.y for an M-strided GEMM
static unsigned vit__mgrid(int M, int bm) {
    int t = (M + bm - 1) / bm;
    return (unsigned)(t < 65535 ? t : 65535);
}

template <typename T, int OUT>
static vit_status vit__splitk_reduce_launch(const vit__gemm_args &g, int split, vit_model *m, cudaStream_t st) {
    size_t blocks = ((size_t)g.M * ((g.N + 1) / 2) + 255) / 256, cap = (size_t)m->cuda->sm_count * 8;
    VIT__CUDA_TRY(m, vit__launch(m, vit__splitk_reduce_kernel<T, OUT>, (unsigned)(blocks < cap ? blocks : cap), 256, 0, st, g, split));
    return VIT_OK;
}

// The mma.sync and FMA kernels' K slices (grid.z): the plan's split slices of
// g.kblocks k-steps each (vit__plan_split_grid left none empty), partial sums in s->part.
static void vit__split_slices(vit__gemm_args &g, const vit__cuda_state *s, int split, int KB) {
    g.kblocks = split > 1 ? (KB + split - 1) / split : 0;
    g.part = split > 1 ? s->part : NULL;
}

// After a split GEMM: the reduction kernel applies the epilogue, unless the
// caller finishes it (g.defer: vit__linear_ln_cuda's LayerNorm).
#define VIT__SPLIT_DONE(T, OUT, g, split, m, st) \
    ((split) > 1 && !(g).defer && (OUT) != VIT__OUT_PATCH ? vit__splitk_reduce_launch<T, (OUT) == VIT__OUT_PATCH || (OUT) == VIT__OUT_E4M3 ? VIT__OUT_STORE : (OUT)>(g, split, m, st) : VIT_OK)

template <int OUT, int ACT, int AMODE, bool VEC>
static vit_status vit__gemm_fma_launch(vit__gemm_args g, const vit__plan &p, vit_model *m, cudaStream_t st) {
    int ntiles = (g.N + 127) / 128, KB = (g.K + VIT__FMA_BK - 1) / VIT__FMA_BK;
    vit__split_slices(g, m->cuda, p.split, KB);
    dim3 grid((unsigned)ntiles, vit__mgrid(g.M, 128), (unsigned)p.split);
    VIT__CUDA_TRY(m, vit__launch(m, vit__linear_fma_kernel<OUT, ACT, AMODE, VEC>, grid, 256, 0, st, g));
    return VIT__SPLIT_DONE(float, OUT, g, p.split, m, st);
}

template <typename T, int OUT, int ACT, int AMODE, bool BVEC, int BM, int BN, int WM, int WN>
static vit_status vit__gemm_mma_tiles(vit__gemm_args g, const vit__plan &p, vit_model *m, cudaStream_t st) {
    int ntiles = (g.N + BN - 1) / BN, KB = (g.K + VIT__MMA_BKT(BM) - 1) / VIT__MMA_BKT(BM);
    vit__split_slices(g, m->cuda, p.split, KB);
    dim3 grid((unsigned)ntiles, vit__mgrid(g.M, BM), (unsigned)p.split);
    VIT__TRY(vit__smem_check(m, VIT__MMA_SMEM(BM, BN), "GEMM (mma.sync)"));
    VIT__CUDA_TRY(m, cudaFuncSetAttribute(vit__linear_mma_kernel<T, OUT, ACT, AMODE, BVEC, BM, BN, WM, WN>, cudaFuncAttributeMaxDynamicSharedMemorySize, VIT__MMA_SMEM(BM, BN)));
    VIT__CUDA_TRY(m, vit__launch(m, vit__linear_mma_kernel<T, OUT, ACT, AMODE, BVEC, BM, BN, WM, WN>, grid, WM * WN * 32, VIT__MMA_SMEM(BM, BN), st, g));
    return VIT__SPLIT_DONE(T, OUT, g, p.split, m, st);
}

// The plan's mma.sync tiles: 128 x 256, or 64 x 64
template <typename T, int OUT, int ACT, int AMODE, bool BVEC>
static vit_status vit__gemm_mma_launch(const vit__gemm_args &g, const vit__plan &p, vit_model *m, cudaStream_t st) {
    if (p.kernel == VIT__K_MMA_VEC || p.kernel == VIT__K_MMA_SCALAR) return vit__gemm_mma_tiles<T, OUT, ACT, AMODE, BVEC, 128, 256, 2, 4>(g, p, m, st);
    return vit__gemm_mma_tiles<T, OUT, ACT, AMODE, BVEC, 64, 64, 2, 2>(g, p, m, st);
}

// T: the output type (bf16/fp16); TA: the operands' (T, or e4m3 with scales)
template <typename T, int BN, int OUT, int ACT, int PP, typename TA = T, int QS = 0>
static vit_status vit__gemm_wgmma_launch(vit__gemm_args g, int split, vit_model *m, cudaStream_t st) {
    CUtensorMap ma, mb, mo;
    const int S = OUT != VIT__OUT_PATCH, BK = VIT__WG_BK(TA);
    CUtensorMapDataType ty = vit__tmap_dtype<T>();
    CUtensorMapDataType tya = sizeof(TA) == 1 ? CU_TENSOR_MAP_DATA_TYPE_UINT8 : ty;
    int tiles = ((g.M + VIT__WG_BM - 1) / VIT__WG_BM) * ((g.N + BN - 1) / BN), KB = (g.K + BK - 1) / BK;
    // raw sums in fp32: split-K slices into m->cuda->part, or (defer with
    // g.part set) one slice into the caller's buffer
    int sums = split > 1 || (g.defer && g.part);
    g.kblocks = split > 1 ? KB / split : sums ? KB : 0;
    if (split > 1) g.part = m->cuda->part;
    else if (!sums) g.part = NULL;
    VIT__TRY(vit__tensor_map(m, &ma, g.a, g.M, g.K, VIT__WG_BM, tya)); // 128 bytes = BK elements
    VIT__TRY(vit__tensor_map(m, &mb, g.w, g.N, g.K, BN, tya));
    memset(&mo, 0, sizeof(mo));
    if (sums) VIT__TRY(vit__tensor_map(m, &mo, g.part, g.M, g.N, 64, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, split > 1 ? split : 1, 0, (size_t)g.M * g.N)); // 3-D
    else if (S && g.act != VIT__ACT_SWIGLU) // (SwiGLU's outputs go out from registers)
        VIT__TRY(vit__tensor_map(m, &mo, g.out, g.M, g.N, 64, OUT == VIT__OUT_RESIDUAL && !g.res16 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32
                                                              : OUT == VIT__OUT_E4M3 ? CU_TENSOR_MAP_DATA_TYPE_UINT8 : ty, 1, 0, 0, VIT__WG_BOX_BYTES(OUT, BN)));
    int items = tiles * split, grid = items < m->cuda->sm_count ? items : m->cuda->sm_count;
    g.rev = vit__walk(m->cuda);
    VIT__TRY(vit__smem_check(m, VIT__WG_SMEM(BN, S, PP), "GEMM (wgmma)"));
    VIT__CUDA_TRY(m, cudaFuncSetAttribute(vit__linear_wgmma_kernel<T, TA, BN, OUT, ACT, PP, QS>, cudaFuncAttributeMaxDynamicSharedMemorySize, VIT__WG_SMEM(BN, S, PP)));
    VIT__CUDA_TRY(m, vit__launch(m, vit__linear_wgmma_kernel<T, TA, BN, OUT, ACT, PP, QS>, grid, 384, VIT__WG_SMEM(BN, S, PP), st, ma, mb, mo, g));
    return VIT__SPLIT_DONE(T, OUT, g, split, m, st);
}

// The plan's wgmma kernel. Only the instances a plan can name are compiled:
// the ping-pong tiles without the deep ring only where a plan can leave it
// off (no activation; bf16/fp16 outputs of e4m3 operands, which never take
// it), no 128 x 192 tiles for the patch GEMM, no 128 x 64 tiles for e4m3
// outputs. (A constant template argument maps each impossible case onto an
// instance that exists.)
template <typename T, int OUT, int ACT, typename TA = T>
static vit_status vit__gemm_wgmma_go(const vit__gemm_args &g, const vit__plan &p, vit_model *m, cudaStream_t st) {
    const int E8 = sizeof(TA) == 1, SHALLOW = E8 && OUT != VIT__OUT_E4M3 ? 1 : ACT == VIT__ACT_NONE && OUT != VIT__OUT_E4M3 ? 1 : 2;
    const int DEEP = E8 && OUT != VIT__OUT_E4M3 ? 1 : 2, WIDE = OUT == VIT__OUT_PATCH ? 128 : 192, NARROW = OUT == VIT__OUT_E4M3 ? 128 : 64;
    switch (p.kernel) {
    case VIT__K_PP192: return p.deep ? vit__gemm_wgmma_launch<T, WIDE, OUT, ACT, DEEP, TA>(g, p.split, m, st)
                                     : vit__gemm_wgmma_launch<T, WIDE, OUT, ACT, SHALLOW, TA>(g, p.split, m, st);
    case VIT__K_PP128: return p.deep ? vit__gemm_wgmma_launch<T, 128, OUT, ACT, DEEP, TA>(g, p.split, m, st)
                                     : vit__gemm_wgmma_launch<T, 128, OUT, ACT, SHALLOW, TA>(g, p.split, m, st);
    case VIT__K_WG64: return vit__gemm_wgmma_launch<T, NARROW, OUT, ACT, 0, TA>(g, p.split, m, st);
    default: return vit__gemm_wgmma_launch<T, 128, OUT, ACT, 0, TA>(g, p.split, m, st);
    }
}

// The dynamic shared memory of a GEMM plan's kernel (vit__plan_gemm): the
// mma.sync tiles' ring, or the wgmma instance vit__gemm_wgmma_go and
// vit__linear_e4m3_go launch for it; 0 for the FMA SGEMM (static, 33 KB)
static int vit__gemm_smem(int kernel, int deep, int optype, int out, int act) {
    int e8 = optype == VIT__OP_E4M3, e8out = out == VIT__OUT_E4M3, S = out != VIT__OUT_PATCH;
    int shallow = (e8 && !e8out) || (act == VIT__ACT_NONE && !e8out) ? 1 : 2, dp = e8 && !e8out ? 1 : 2, pp = deep ? dp : shallow;
    int wide = out == VIT__OUT_PATCH ? 128 : 192, narrow = e8out ? 128 : 64;
    switch (kernel) {
    case VIT__K_MMA_VEC: case VIT__K_MMA_SCALAR: return VIT__MMA_SMEM(128, 256);
    case VIT__K_MMA64_VEC: case VIT__K_MMA64_SCALAR: return VIT__MMA_SMEM(64, 64);
    case VIT__K_PP192: return pp == 2 ? VIT__WG_SMEM(wide, S, 2) : VIT__WG_SMEM(wide, S, 1);
    case VIT__K_PP128: return pp == 2 ? VIT__WG_SMEM(128, S, 2) : VIT__WG_SMEM(128, S, 1);
    case VIT__K_WG64: return VIT__WG_SMEM(narrow, S, 0);
    case VIT__K_WG128: return VIT__WG_SMEM(128, S, 0);
    default: return 0;
    }
}

// What no kernel computes: operands of another type than the kernels' T
// (e4m3 has the wgmma kernel, bf16 output only, vit__linear_e4m3_go),
// dequantisation scales on other operands. Refused, never ignored.
template <typename T>
static vit_status vit__gemm_refuse(const vit__gemm_args &g, vit_model *m) {
    if (g.optype != vit__optype<T>::value || g.a_scale || g.w_scale)
        return vit__fail(m->error, VIT_ERROR_UNSUPPORTED, "GEMM: operand type %d%s with %s output: no kernel for it", g.optype,
                         g.a_scale || g.w_scale ? " with dequantisation scales" : "", sizeof(T) == 4 ? "fp32" : vit__is_bf16<T>::value ? "bf16" : "fp16");
    return VIT_OK;
}

// The plan for g (an OUT-mode GEMM), as vit__plan_gemm makes it from g's
// shapes and pointers; recorded for a test build's hook.
static vit__plan vit__gemm_plan(const vit__gemm_args &g, int out, const vit__cuda_state *s) {
    int es = vit__op_size(g.optype), vec = es == 4 ? g.K % 4 == 0 && vit__aligned16(g.a) && vit__aligned16(g.w)
                                                   : (g.K * es) % 16 == 0 && vit__aligned16(g.a) && vit__aligned16(g.w);
    int tma = vec && g.N % 8 == 0 && vit__aligned16(g.out);
    vit__plan p = vit__plan_gemm(s, g.optype, g.M, g.N, g.K, out, g.act, g.defer, tma, vec, g.out_scale != NULL, g.a_blocks);
    VIT__HOOK_RAN(s, p);
    return p;
}

// e4m3 operands (g.a, g.w; scales g.a_scale per row, or with g.a_blocks per
// row and 128 columns of K, g.w_scale per column): the wgmma kernel on
// sm_90a, bf16 outputs, where the TMA takes the shapes (K a multiple of 16
// bytes, N of 8). Anything else is refused: there is no mma.sync e4m3 kernel.
template <int OUT, int ACT, typename T>
static vit_status vit__linear_e4m3_go(const vit__gemm_args &g, const vit__plan &p, vit_model *m, cudaStream_t st, T *) {
    (void)g; (void)p; (void)st;
    return vit__fail(m->error, VIT_ERROR_UNSUPPORTED, "GEMM: e4m3 operands with %s output: no kernel for it", sizeof(T) == 4 ? "fp32" : "fp16");
}
template <int OUT, int ACT>
static vit_status vit__linear_e4m3_go(const vit__gemm_args &g, const vit__plan &p, vit_model *m, cudaStream_t st, __nv_bfloat16 *) {
    typedef __nv_bfloat16 T;
    typedef __nv_fp8_e4m3 TA;
    if (!m->cuda->wgmma)
        return vit__fail(m->error, VIT_ERROR_UNSUPPORTED, "GEMM: e4m3 operands need the sm_90a kernels (wgmma), which this GPU or binary does not have");
    if (g.K % 16 || g.N % 8 || !vit__aligned16(g.a) || !vit__aligned16(g.w) || !vit__aligned16(g.out))
        return vit__fail(m->error, VIT_ERROR_UNSUPPORTED, "GEMM: e4m3 operands of %d x %d -> %d: K must be a multiple of 16, N of 8, the operands 16-byte aligned",
                         g.M, g.K, g.N);
    if (g.out_scale && (OUT != VIT__OUT_STORE || g.act == VIT__ACT_SWIGLU || g.a_blocks || g.defer || g.N % 16 || !g.a_norm))
        return vit__fail(m->error, VIT_ERROR_UNSUPPORTED, "GEMM: e4m3 outputs from a stored, non-SwiGLU GEMM of N %% 16 == 0 with per-row input scales and norms only");
    if (g.a_blocks && (OUT != VIT__OUT_RESIDUAL || !g.a_scale))
        return vit__fail(m->error, VIT_ERROR_UNSUPPORTED, "GEMM: e4m3 operands scaled per 128 columns of K: residual GEMMs only");
    if (!p.kernel && p.smem) return vit__smem_check(m, p.smem, "GEMM (wgmma, e4m3 operands; no other kernel takes them)");
    if (!p.kernel) return vit__fail(m->error, VIT_ERROR_UNSUPPORTED, "GEMM: no mma.sync kernel for e4m3 operands");
    if (g.out_scale) return vit__gemm_wgmma_go<T, VIT__OUT_E4M3, VIT__ACT_RUNTIME, TA>(g, p, m, st);
    if (g.a_blocks && (g.K + 127) / 128 >= 2) // the QS loop: two K steps at least per slice
        return p.kernel == VIT__K_WG64 ? vit__gemm_wgmma_launch<T, 64, OUT, VIT__ACT_NONE, 0, TA, 1>(g, p.split, m, st)
                                       : vit__gemm_wgmma_launch<T, 128, OUT, VIT__ACT_NONE, 0, TA, 1>(g, p.split, m, st);
    return vit__gemm_wgmma_go<T, OUT, ACT, TA>(g, p, m, st);
}

// fp32: the FMA SGEMM
template <int OUT, int ACT>
static vit_status vit__linear_go(const vit__gemm_args &g, const vit__plan &p, vit_model *m, cudaStream_t st, float *) {
    VIT__TRY(vit__gemm_refuse<float>(g, m));
    if (p.vec) return vit__gemm_fma_launch<OUT, ACT, 0, true>(g, p, m, st);
    return vit__gemm_fma_launch<OUT, ACT, 0, false>(g, p, m, st);
}

// bf16/fp16: the plan's wgmma or mma.sync kernel
template <int OUT, int ACT, typename T>
static vit_status vit__linear_go(const vit__gemm_args &g, const vit__plan &p, vit_model *m, cudaStream_t st, T *) {
#ifndef VIT_CUDA_NO_FP8
    if (g.optype == VIT__OP_E4M3) return vit__linear_e4m3_go<OUT, ACT>(g, p, m, st, (T *)0);
#endif
    VIT__TRY(vit__gemm_refuse<T>(g, m));
    if (p.kernel >= VIT__K_WG64) return vit__gemm_wgmma_go<T, OUT, ACT>(g, p, m, st);
    const int MA = OUT == VIT__OUT_STORE ? VIT__ACT_RUNTIME : ACT; // sm_90a code: the run-time activation instance only (vit__mma_sm90a)
    if (m->cuda->wgmma) return p.vec ? vit__gemm_mma_launch<T, OUT, MA, 0, true>(g, p, m, st) : vit__gemm_mma_launch<T, OUT, MA, 1, false>(g, p, m, st);
    if (p.vec) return vit__gemm_mma_launch<T, OUT, ACT, 0, true>(g, p, m, st);
    return vit__gemm_mma_launch<T, OUT, ACT, 1, false>(g, p, m, st);
}

// out = epilogue(inp (rows, in_dim) @ weight + bias): the GPU twin of
// vit__linear_cpu, same arguments (nthreads replaced by model and stream).
// Here weight is (out_dim, in_dim) in T (the CPU's is (in_dim, out_dim)
// fp32); out is T for VIT__OUT_STORE, (rows, out_dim / 2) with SwiGLU, and
// fp32 for VIT__OUT_RESIDUAL, which adds scale (NULL = 1) times the result
// into it. bias may be NULL. Activations only with VIT__OUT_STORE. With
// split-K the partial sums go to m->cuda->part and a reduction kernel applies
// the epilogue (defer: the caller, vit__linear_ln_cuda, reduces them instead;
// *split says whether it must).
// q8 (VIT_DTYPE_FP8): the GEMM reads these e4m3 operands instead of inp and weight.
// res16 (VIT__OUT_RESIDUAL, T bf16): out is the residual stream in T.
// The e4m3 outputs (out, out_scale set; VIT__OUT_STORE): act(inp @ weight +
// bias) in e4m3 into out (rows, out_dim), with a scale per row from a bound
// (vit__e4m3_bound_scale).
typedef struct vit__e4m3_ops {
    const unsigned char *a; // (rows, in_dim) e4m3
    const float *sa;        // (rows) their scales; a_blocks: (rows, ceil(in_dim / 128)), per row and 128 columns
    const unsigned char *w; // (out_dim, in_dim) e4m3
    const float *sw;        // (out_dim) their scales
    int a_blocks;
    unsigned char *out;     // NULL, or the outputs in e4m3 (then out_scale (rows), vit__e4m3_bound_scale
    float *out_scale;       // of a_norm (rows), the norms of a's rows, and bound_w, bound_b)
    const float *a_norm;
    float bound_w, bound_b;
} vit__e4m3_ops;

template <typename T>
static vit_status vit__linear_do(void *out, const T *inp, const T *weight, const float *bias, int rows, int in_dim, int out_dim, vit__out mode,
                                 vit__act act, const float *scale, int defer, vit_model *m, cudaStream_t st, const vit__e4m3_ops *q8 = NULL,
                                 int res16 = 0, vit__plan *ran = NULL) {
    vit__plan p = vit__plan_none();
    if (ran) *ran = p;
    VIT__HOOK_RAN(m->cuda, p);
    if ((mode != VIT__OUT_STORE && mode != VIT__OUT_RESIDUAL) || (int)act < 0 || act >= VIT__ACT_COUNT)
        return vit__fail(m->error, VIT_ERROR_INVALID_ARGUMENT, "linear: output mode %d, activation %d", (int)mode, (int)act);
    if (act != VIT__ACT_NONE && (mode != VIT__OUT_STORE || defer))
        return vit__fail(m->error, VIT_ERROR_UNSUPPORTED, "linear: an activation on a residual GEMM");
    if (act == VIT__ACT_SWIGLU && out_dim % 2)
        return vit__fail(m->error, VIT_ERROR_INVALID_ARGUMENT, "linear: SwiGLU over %d columns (gate/up pairs need an even count)", out_dim);
    if (scale && mode != VIT__OUT_RESIDUAL) // (the kernels read a scale only there; the split-K reduction has no activation there)
        return vit__fail(m->error, VIT_ERROR_INVALID_ARGUMENT, "linear: a layer scale on a stored output");
    if (res16 && (mode != VIT__OUT_RESIDUAL || !vit__is_bf16<T>::value))
        return vit__fail(m->error, VIT_ERROR_UNSUPPORTED, "linear: a bf16 residual stream is added to by bf16 GEMMs only");
    if (rows <= 0 || in_dim <= 0 || out_dim <= 0) return VIT_OK;
    vit__gemm_args g;
    memset(&g, 0, sizeof(g));
    g.a = inp; g.w = weight; g.out = out; g.bias = bias; g.scale = scale; g.act = act; g.optype = vit__optype<T>::value;
    g.M = rows; g.N = out_dim; g.K = in_dim; g.defer = defer; g.res16 = res16;
    if (q8) {
        g.a = q8->a; g.a_scale = q8->sa; g.w = q8->w; g.w_scale = q8->sw; g.optype = VIT__OP_E4M3; g.a_blocks = q8->a_blocks;
        if (q8->out) { g.out = q8->out; g.out_scale = q8->out_scale; g.a_norm = q8->a_norm; g.bound_w = q8->bound_w; g.bound_b = q8->bound_b; }
    }
    p = vit__gemm_plan(g, mode, m->cuda);
    if (ran) *ran = p;
    if (mode == VIT__OUT_RESIDUAL) return vit__linear_go<VIT__OUT_RESIDUAL, VIT__ACT_NONE>(g, p, m, st, (T *)0);
    if (act == VIT__ACT_NONE) return vit__linear_go<VIT__OUT_STORE, VIT__ACT_NONE>(g, p, m, st, (T *)0);
    if (act == VIT__ACT_GELU) return vit__linear_go<VIT__OUT_STORE, VIT__ACT_GELU>(g, p, m, st, (T *)0);
    return vit__linear_go<VIT__OUT_STORE, VIT__ACT_RUNTIME>(g, p, m, st, (T *)0);
}

template <typename T>
static vit_status vit__linear_cuda(void *out, const T *inp, const T *weight, const float *bias, int rows, int in_dim, int out_dim, vit__out mode,
                                   vit__act act, const float *scale, vit_model *m, cudaStream_t st, const vit__e4m3_ops *q8 = NULL, int res16 = 0) {
    return vit__linear_do<T>(out, inp, weight, bias, rows, in_dim, out_dim, mode, act, scale, 0, m, st, q8, res16);
}

// >>op patch_embed -- CPU reference: vit__patch_embed_cpu
// Patch embedding on the GPU: im2col and the patch GEMM, with the
// prefix-token and position rows fused in.

// What the patch GEMM fuses in: vit__place_tokens's work, done after vit__patch_embed_cpu on the CPU.
typedef struct vit__embed_fuse {
    const float *prefix; // (P, C) prefix tokens, or NULL when P is 0
    const float *pos;    // (Npos, C) position embedding, or NULL
    int tokens;          // N = P + patches
    int num_prefix;      // P
    int pos_prefix;      // pos also covers the prefix tokens: its first P rows are theirs
} vit__embed_fuse;

// x[b, t, :] = prefix[t] + pos[t] for the P prefix tokens t. Parallel over
// (P * C / 256, B); one thread per element.
__global__ void vit__prefix_kernel(float *x, const float *prefix, const float *pos, int N, int P, int C) {
    vit__pdl_wait();
    vit__pdl_launch();
    int i = blockIdx.x * blockDim.x + threadIdx.x, b = blockIdx.y;
    if (i < P * C) x[(size_t)b * N * C + i] = prefix[i] + (pos ? pos[i] : 0.0f);
}

// scratch (M, K) = im2col(images) in T, K % 8 == 0: row r is patch r, column k
// is (channel, ky, kx) as patch_w's, zeros past Cin P^2. With g.ptok, also the
// prefix-token rows of the tokens g.out, as vit__prefix_kernel (one launch
// fewer). Each CTA takes rpc <= VIT__IM2COL_ROWS patches at a time and writes
// their rows whole (coalesced pairs); where column k reads from, relative to a
// patch's top-left pixel, is tabulated in shared memory once per CTA and
// 2048 columns, so that no element divides by P. [BENCHMARKS: Patch embedding]
#define VIT__IM2COL_ROWS 16
#define VIT__IM2COL_COLS 2048
template <typename T>
__global__ void __launch_bounds__(256) vit__im2col_kernel(T *scratch, const vit__gemm_args g_in, int rpc) {
    const vit__gemm_args g = g_in; // a copy: see vit__gemm_args
    __shared__ int tab[VIT__IM2COL_COLS];
    __shared__ const float *origin[VIT__IM2COL_ROWS]; // each patch's top-left pixel
    vit__pdl_wait();
    vit__pdl_launch();
    if (g.ptok) {
        size_t pn = (size_t)g.prefix * g.N, n = (size_t)(g.M / g.gg) * pn;
        for (size_t i = (size_t)blockIdx.x * 256 + threadIdx.x; i < n; i += (size_t)gridDim.x * 256) {
            size_t b = i / pn, j = i % pn; // j: element of the (prefix, N) block, the same offset in x's rows
            float v = g.ptok[j] + (g.ptok_pos ? g.ptok_pos[j] : 0.0f);
            if (g.res16) ((T *)g.out)[b * g.tokens * g.N + j] = vit__cvt<T>(v);
            else ((float *)g.out)[b * g.tokens * g.N + j] = v;
        }
    }
    const int P = g.patch, PP = P * P, KC = g.cin * PP;
    for (int k0 = 0; k0 < g.K; k0 += VIT__IM2COL_COLS) {
        int kn = g.K - k0 < VIT__IM2COL_COLS ? g.K - k0 : VIT__IM2COL_COLS; // even: K % 8 == 0
        __syncthreads(); // the previous columns' table is no longer read
        for (int i = threadIdx.x; i < kn; i += 256) {
            int k = k0 + i, c = k / PP, ky = (k - c * PP) / P, kx = k - c * PP - ky * P;
            tab[i] = k < KC ? (c * g.img_h + ky) * g.img_w + kx : -1;
        }
        for (int r0 = blockIdx.x * rpc; r0 < g.M; r0 += gridDim.x * rpc) {
            __syncthreads(); // the table written; the previous rows' origins no longer read
            if ((int)threadIdx.x < rpc && r0 + (int)threadIdx.x < g.M) origin[threadIdx.x] = vit__im2col_ptr(g, r0 + threadIdx.x, 0);
            __syncthreads();
            int rows = g.M - r0 < rpc ? g.M - r0 : rpc;
            for (int rr = 0; rr < rows; rr++) {
                const float *src = origin[rr];
                T *dst = scratch + (size_t)(r0 + rr) * g.K + k0;
                for (int i = 2 * threadIdx.x; i < kn; i += 512) {
                    int o0 = tab[i], o1 = tab[i + 1];
                    *(uint32_t *)(dst + i) = vit__pack2<T>(o0 >= 0 ? __ldg(src + o0) : 0.0f, o1 >= 0 ? __ldg(src + o1) : 0.0f);
                }
            }
        }
    }
}

// The patch GEMM's K on the GPU: Cin P^2 rounded up to 8 (zero weights after
// them), so that im2col rows and weight rows are 16-byte multiples for the
// vectorised loads and the TMA at any patch size (P = 14: 588 -> 592), not
// the unvectorised fused path. [BENCHMARKS: Patch embedding]
static int vit__patch_k(int Cin, int P) { return (Cin * P * P + 7) & ~7; }

// The patch GEMM's arguments: images (B, Cin, Hs, Ws) as A, tokens as out, with
// fuse the prefix-token rows and position rows (see vit__patch_embed_cuda).
static vit__gemm_args vit__patch_args(float *tokens, const float *images, const void *patch_w, const float *patch_b, int B, int Cin, int Hs, int Ws, int P, int C,
                                      const vit__embed_fuse *fuse) {
    int GG = (Hs / P) * (Ws / P);
    vit__gemm_args g;
    memset(&g, 0, sizeof(g));
    g.a = images; g.w = patch_w; g.out = tokens; g.bias = patch_b;
    g.M = B * GG; g.N = C; g.K = vit__patch_k(Cin, P);
    g.gg = GG; g.tokens = GG; g.prefix = 0;
    g.cin = Cin; g.img_h = Hs; g.img_w = Ws; g.patch = P; g.grid_w = Ws / P;
    g.img_vec = P % 8 == 0 && Ws % 4 == 0 && vit__aligned16(images);
    if (fuse) {
        size_t pc = (size_t)fuse->num_prefix * C;
        g.tokens = fuse->tokens;
        g.prefix = fuse->num_prefix;
        g.pos = fuse->pos ? fuse->pos + (fuse->pos_prefix ? pc : 0) : NULL;
        g.ptok = fuse->num_prefix ? fuse->prefix : NULL;
        g.ptok_pos = fuse->num_prefix && fuse->pos_prefix ? fuse->pos : NULL;
    }
    return g;
}

// im2col of g's images into scratch in H (and, with g.ptok, the prefix-token rows of g.out).
template <typename H>
static vit_status vit__im2col_launch(H *scratch, const vit__gemm_args &g, vit_model *m, cudaStream_t st) {
    // patches per CTA: up to VIT__IM2COL_ROWS, fewer where that would leave SMs idle (small batches)
    int rpc = g.M / (2 * m->cuda->sm_count);
    rpc = rpc < 1 ? 1 : rpc > VIT__IM2COL_ROWS ? VIT__IM2COL_ROWS : rpc;
    size_t blocks = ((size_t)g.M + rpc - 1) / rpc, cap = (size_t)m->cuda->sm_count * 8;
    VIT__CUDA_TRY(m, vit__launch(m, vit__im2col_kernel<H>, (unsigned)(blocks < cap ? blocks : cap), 256, 0, st, scratch, g, rpc));
    return VIT_OK;
}

// Patch embedding as one GEMM: tokens = im2col(images) @ patch_w + patch_b, the
// im2col done while loading A (the kernels are the linear ones, AMODE 2). Or,
// bf16/fp16 with scratch room for (M, K) in T (the forward pass): im2col into
// scratch first, then the GEMM the linear layers use, faster at every batch:
// the synchronous image loads of the fused A path stall every k-step.
// [BENCHMARKS: Patch embedding]
// fuse NULL: tokens is (B*G*G, C), exactly vit__patch_embed_cpu's output.
// fuse set: tokens is x (B, N, C) as vit__place_tokens makes it: patch rows after
// the P prefix tokens, + pos, and the prefix-token rows written too. patch_w
// is (C, Cin*P*P) in T.
template <typename T>
static vit_status vit__patch_embed_cuda(float *tokens, const float *images, const T *patch_w, const float *patch_b, int B, int Cin, int Hs, int Ws,
                                        int P, int C, const vit__embed_fuse *fuse, void *scratch, size_t scratch_elems, vit_model *m, cudaStream_t st,
                                        vit__plan *ran = NULL) {
    vit__gemm_args g = vit__patch_args(tokens, images, patch_w, patch_b, B, Cin, Hs, Ws, P, C, fuse);
    vit__plan p = vit__plan_none();
    if (ran) *ran = p;
    VIT__HOOK_RAN(m->cuda, p);
    int im2col = sizeof(T) == 2 && scratch && (size_t)g.M * g.K <= scratch_elems && g.K % 8 == 0 && vit__aligned16(scratch) && g.M > 0;
    if (g.ptok && !im2col) { // else the im2col kernel writes the prefix-token rows
        dim3 grid((unsigned)((g.prefix * C + 255) / 256), (unsigned)B);
        VIT__CUDA_TRY(m, vit__launch(m, vit__prefix_kernel, grid, 256, 0, st, tokens, g.ptok, g.ptok_pos, g.tokens, g.prefix, C));
    }
    if (g.M <= 0) return VIT_OK;
    typedef typename vit__half_t<T>::type H;
    if (im2col) {
        VIT__TRY(vit__im2col_launch<H>((H *)scratch, g, m, st));
        g.a = scratch;
        g.optype = vit__optype<H>::value;
    }
    // the fused image loads (no im2col) have no wgmma form: planned as an unaligned shape
    int vec = g.K % 8 == 0 && vit__aligned16(patch_w), tma = im2col && vec && g.N % 8 == 0 && vit__aligned16(g.out);
    p = vit__plan_gemm(m->cuda, sizeof(T) == 4 ? (int)VIT__OP_F32 : (int)vit__optype<H>::value, g.M, g.N, g.K, VIT__OUT_PATCH, VIT__ACT_NONE, 0, tma, vec, 0, 0);
    VIT__HOOK_RAN(m->cuda, p);
    if (ran) *ran = p;
    if (sizeof(T) == 4) return vit__gemm_fma_launch<VIT__OUT_PATCH, VIT__ACT_NONE, 2, false>(g, p, m, st);
    if (im2col) return vit__linear_go<VIT__OUT_PATCH, VIT__ACT_NONE>(g, p, m, st, (H *)0);
    if (p.vec) return vit__gemm_mma_launch<H, VIT__OUT_PATCH, VIT__ACT_NONE, 2, true>(g, p, m, st);
    return vit__gemm_mma_launch<H, VIT__OUT_PATCH, VIT__ACT_NONE, 2, false>(g, p, m, st);
}

// >>op e4m3 rows -- CPU reference: vit__e4m3_rows
// VIT_DTYPE_FP8: a linear's input rows (rows, K) in T to e4m3, each row scaled
// by 448 / its largest magnitude first (its scale amax / 448 stored; 1 for a
// zero row): the division and product rounded as the CPU rounds them, the
// conversion cvt.rn.satfinite as torch's, so the bytes equal vit__e4m3_rows's
// for the same input. One warp per row, 8 elements per lane and step.
// blocks: a scale per row and 128 columns instead (scale (rows, ceil(K / 128)),
// each half-warp's 128 columns of a step one group): fc2's input where fc1's
// epilogue cannot round it itself (SwiGLU). norm (per row only; or NULL):
// each row's vit__e4m3_row_norm, from its e4m3 bytes (fc1's bound).
template <typename T>
static __device__ __forceinline__ void vit__load8f(float *v, const T *p) {
#pragma unroll
    for (int i = 0; i < 8; i++) v[i] = vit__f32(p[i]);
}
template <>
__device__ __forceinline__ void vit__load8f<__nv_bfloat16>(float *v, const __nv_bfloat16 *p) {
    uint4 u = *(const uint4 *)p;
    const __nv_bfloat162 *h = (const __nv_bfloat162 *)&u;
#pragma unroll
    for (int i = 0; i < 4; i++) { float2 f = __bfloat1622float2(h[i]); v[2 * i] = f.x; v[2 * i + 1] = f.y; }
}

// a, b, c, d times inv, rounded to e4m3 (cvt.rn.satfinite), packed in that byte order
static __device__ __forceinline__ uint32_t vit__e4m3x4(float a, float b, float c, float d, float inv) {
    uint32_t lo = __nv_cvt_float2_to_fp8x2(make_float2(__fmul_rn(a, inv), __fmul_rn(b, inv)), __NV_SATFINITE, __NV_E4M3);
    uint32_t hi = __nv_cvt_float2_to_fp8x2(make_float2(__fmul_rn(c, inv), __fmul_rn(d, inv)), __NV_SATFINITE, __NV_E4M3);
    return lo | hi << 16;
}

// ss plus the squares of the four e4m3 values packed in e (vit__e4m3_row_norm's sum)
static __device__ __forceinline__ float vit__e4m3x4_sumsq(uint32_t e, float ss) {
#pragma unroll
    for (int h = 0; h < 2; h++) {
        __half2_raw r = __nv_cvt_fp8x2_to_halfraw2((__nv_fp8x2_storage_t)(e >> (16 * h)), __NV_E4M3);
        float2 f = __half22float2(*(__half2 *)&r); // (every e4m3 value is a half)
        ss = fmaf(f.x, f.x, ss);
        ss = fmaf(f.y, f.y, ss);
    }
    return ss;
}

// v[0..7] times inv, rounded to e4m3, to q (8-byte aligned); the bytes returned
static __device__ __forceinline__ uint2 vit__store_e4m3x8(unsigned char *q, const float *v, float inv) {
    uint2 e = make_uint2(vit__e4m3x4(v[0], v[1], v[2], v[3], inv), vit__e4m3x4(v[4], v[5], v[6], v[7], inv));
    *(uint2 *)q = e;
    return e;
}

template <typename T>
__global__ void __launch_bounds__(256) vit__e4m3_rows_kernel(unsigned char *q, float *scale, const T *x, int rows, int K, int blocks, int rev, float *norm) {
    vit__pdl_wait();
    vit__pdl_launch();
    int r = blockIdx.x * 8 + (threadIdx.x >> 5), lane = threadIdx.x & 31;
    if (r >= rows) return;
    if (rev) r = rows - 1 - r; // (see vit__walk)
    const T *xr = x + (size_t)r * K;
    float mx = 0.0f, v[8];
    if (blocks) {
        int ng = (K + 127) / 128;
        for (int k0 = 0; k0 < K; k0 += 256) { // (the whole warp in every step: the shuffles)
            int k = k0 + lane * 8;
            bool in = k < K;
            mx = 0.0f;
            if (in) {
                vit__load8f(v, xr + k);
#pragma unroll
                for (int i = 0; i < 8; i++) mx = fmaxf(mx, fabsf(v[i]));
            }
#pragma unroll
            for (int o = 8; o; o >>= 1) mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, o));
            float inv = mx > 0.0f ? __fdiv_rn(448.0f, mx) : 1.0f;
            if (!in) continue;
            vit__store_e4m3x8(q + (size_t)r * K + k, v, inv);
            if ((lane & 15) == 0) scale[(size_t)r * ng + k / 128] = mx > 0.0f ? __fdiv_rn(mx, 448.0f) : 1.0f;
        }
        return;
    }
    for (int k = lane * 8; k < K; k += 256) {
        vit__load8f(v, xr + k);
#pragma unroll
        for (int i = 0; i < 8; i++) mx = fmaxf(mx, fabsf(v[i])); // NaN ignored, as vit__e4m3_rows's compare does
    }
#pragma unroll
    for (int o = 16; o; o >>= 1) mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, o));
    float inv = mx > 0.0f ? __fdiv_rn(448.0f, mx) : 1.0f, ss = 0.0f, sc = mx > 0.0f ? __fdiv_rn(mx, 448.0f) : 1.0f;
    unsigned char *qr = q + (size_t)r * K;
    for (int k = lane * 8; k < K; k += 256) {
        vit__load8f(v, xr + k);
        uint2 e = vit__store_e4m3x8(qr + k, v, inv);
        if (norm) ss = vit__e4m3x4_sumsq(e.y, vit__e4m3x4_sumsq(e.x, ss));
    }
    if (norm) ss = vit__warp_sum(ss);
    if (lane == 0) { scale[r] = sc; if (norm) norm[r] = sc * sqrtf(ss); }
}

template <typename T>
static vit_status vit__e4m3_rows_cuda(unsigned char *q, float *scale, const T *x, int rows, int K, vit_model *m, cudaStream_t st, int blocks = 0,
                                      float *norm = NULL) {
    if (K % 8 || !vit__aligned16(x) || !vit__aligned16(q))
        return vit__fail(m->error, VIT_ERROR_UNSUPPORTED, "e4m3 rows of %d elements: a multiple of 8, 16-byte aligned, is what the kernel takes", K);
    if (rows <= 0) return VIT_OK;
    VIT__CUDA_TRY(m, vit__launch(m, vit__e4m3_rows_kernel<T>, dim3((unsigned)((rows + 7) / 8)), 256, 0, st, q, scale, x, rows, K, blocks,
                                 vit__walk(m->cuda), blocks ? NULL : norm));
    return VIT_OK;
}

// >>op layernorm -- CPU reference: vit__layernorm_cpu
// LayerNorm over token rows on the GPU, fused with the residual GEMM's split-K
// reduction, the patch GEMM's token placement and fp8's e4m3 rows.

// The residual step a split-K GEMM left undone: x += scale * (sum of its
// partial sums + bias), in place (RES of vit__layernorm_kernel).
typedef struct vit__residual {
    const float *part;    // (split, rows, C) partial sums of x's GEMM, laid out as x
    size_t plane;         // elements of one slice
    int split;
    const float *bias;    // (C) or NULL
    const float *scale;   // (C) layer scale or NULL
    // tokens > 0: the patch GEMM's sums instead (vit__patch_ln_cuda). Row r =
    // (b, t) of x is patch row b * gg + t - prefix of part, + bias + pos row
    // t - prefix (x itself not read); prefix-token rows (t < prefix, already in
    // x) are only normalised.
    const float *pos;     // (gg, C) or NULL
    int tokens, prefix, gg;
} vit__residual;

// VIT_DTYPE_FP8: the LayerNorm's rows go out in e4m3 instead (q NULL: off),
// scaled per row as vit__e4m3_rows scales them, for the next linear's GEMM.
typedef struct vit__ln_e4m3 {
    unsigned char *q; // (rows, C) e4m3
    float *s;         // (rows) scales
    float *n;         // (rows) the rows' norms (vit__e4m3_row_norm), or NULL
} vit__ln_e4m3;

// Four consecutive elements of a row, or zeros past its end (C % 4 == 0).
static __device__ __forceinline__ float4 vit__ld4(const float *p, bool in) { return in ? *(const float4 *)p : make_float4(0.f, 0.f, 0.f, 0.f); }
template <typename T> static __device__ __forceinline__ float4 vit__ld4(const T *p, bool in) { // 2-byte T: one 8-byte load
    if (!in) return make_float4(0.f, 0.f, 0.f, 0.f);
    uint2 u = *(const uint2 *)p;
    const T *e = (const T *)&u;
    return make_float4(vit__f32(e[0]), vit__f32(e[1]), vit__f32(e[2]), vit__f32(e[3]));
}
// v as a row of T holds it (a bf16 residual stream: what the LayerNorm then reads)
template <typename T> static __device__ __forceinline__ float vit__as(float v) { return vit__f32(vit__cvt<T>(v)); }
template <typename T> static __device__ __forceinline__ float4 vit__as4(float4 v) { return make_float4(vit__as<T>(v.x), vit__as<T>(v.y), vit__as<T>(v.z), vit__as<T>(v.w)); }
static __device__ __forceinline__ void vit__add4(float4 &a, float4 b) { a.x += b.x; a.y += b.y; a.z += b.z; a.w += b.w; }
static __device__ __forceinline__ void vit__store4(float *o, float4 v) { *(float4 *)o = v; }
template <typename T> static __device__ __forceinline__ void vit__store4(T *o, float4 v) { *(uint2 *)o = make_uint2(vit__pack2<T>(v.x, v.y), vit__pack2<T>(v.z, v.w)); }

// out (rows, C) = LayerNorm(inp) * w + b: input row r at inp + r * stride,
// output row r at out + r * ostride (in place allowed).
// Parallel over rows: one warp per row, blockDim.x / 32 rows per block (8; 2
// with RES, whose rows read split times more). VEC (C % 4 == 0, C <= 1024,
// 16-byte aligned rows and vectors): lane l holds elements 4 (l + 32 i) .. +3
// in registers, all loads of a row issued before the first use, and the
// weight vectors (w, b; RES: the GEMM's bias and scale) are copied to shared
// memory before the PDL wait, so at small batches their loads overlap the
// previous kernel instead of adding a round trip after it. Otherwise
// rows up to 1024 wide stay in registers one element per lane-step, wider rows
// are read three times. Both: two passes (mean, then centred variance), as the
// CPU does. RES: first finish the split-K residual GEMM that wrote inp's row
// (its partial sums laid out as inp): inp += scale * (sum of slices + bias), the slices added in
// order as vit__split_sum does, then normalise the new row (each lane rereads
// only what it wrote itself). q8.q (VEC only): the normalised row rounded to
// e4m3 from its fp32 values (amax / 448 per row, as vit__e4m3_rows) into q8
// instead of out. TX: inp's type (bf16: the residual stream in bf16; RES
// stores the new row rounded to it and normalises what it stored).
template <typename TO, typename TX, bool RES, bool VEC>
__global__ void __launch_bounds__(256) vit__layernorm_kernel(TO *out, const TX *inp, const float *w, const float *b, int rows, int C, size_t stride,
                                                             size_t ostride, float eps, vit__residual res, vit__ln_e4m3 q8, int rev) {
    __shared__ __align__(16) float cst[VEC ? (RES ? 4 : 2) : 1][VEC ? 1024 : 1]; // w, b, bias, scale
    if (VEC) {
        for (int i = threadIdx.x; i < C / 4; i += blockDim.x) {
            vit__cp16(&cst[0][4 * i], w + 4 * i, 16);
            vit__cp16(&cst[1][4 * i], b + 4 * i, 16);
            if (RES && res.bias) vit__cp16(&cst[RES ? 2 : 0][4 * i], res.bias + 4 * i, 16);
            if (RES && res.scale) vit__cp16(&cst[RES ? 3 : 0][4 * i], res.scale + 4 * i, 16);
        }
        vit__cp_commit();
    }
    vit__pdl_wait();
    vit__pdl_launch();
    if (VEC) {
        vit__cp_wait<0>();
        __syncthreads();
    }
    int row = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5), lane = threadIdx.x & 31;
    if (row >= rows) return;
    if (rev) row = rows - 1 - row;
    const TX *x = inp + (size_t)row * stride;
    TO *y = out + (size_t)row * ostride;
    size_t plane = res.plane;
    if (VEC) {
        const int R = 8;
        float4 v[R];
        float sum = 0.0f, var = 0.0f;
        const float *p = res.part + (size_t)row * stride, *ps = NULL; // the partial sums; (patch) the position row they add to
        const TX *xs = x; // (else x's row)
        bool fin = RES;
        if (RES && res.tokens) {
            int t = row % res.tokens;
            fin = t >= res.prefix;
            p = res.part + ((size_t)(row / res.tokens) * res.gg + t - res.prefix) * C;
            xs = NULL;
            ps = res.pos ? res.pos + (size_t)(t - res.prefix) * C : NULL;
        }
        if (fin) {
            float4 xr[R];
#pragma unroll
            for (int i = 0; i < R; i++) {
                int c = 4 * (lane + 32 * i);
                v[i] = vit__ld4(p + c, c < C);
                xr[i] = xs ? vit__ld4(xs + c, c < C) : ps ? vit__ld4(ps + c, c < C) : make_float4(0.f, 0.f, 0.f, 0.f);
            }
            int z = 1;
            for (; z + 1 < res.split; z += 2) { // two slices' loads in flight at a time
                float4 u0[R], u1[R];
#pragma unroll
                for (int i = 0; i < R; i++) {
                    int c = 4 * (lane + 32 * i);
                    u0[i] = vit__ld4(p + (size_t)z * plane + c, c < C);
                    u1[i] = vit__ld4(p + (size_t)(z + 1) * plane + c, c < C);
                }
#pragma unroll
                for (int i = 0; i < R; i++) { vit__add4(v[i], u0[i]); vit__add4(v[i], u1[i]); }
            }
            if (z < res.split) {
#pragma unroll
                for (int i = 0; i < R; i++) {
                    int c = 4 * (lane + 32 * i);
                    vit__add4(v[i], vit__ld4(p + (size_t)z * plane + c, c < C));
                }
            }
#pragma unroll
            for (int i = 0; i < R; i++) {
                int c = 4 * (lane + 32 * i);
                if (c < C) {
                    float4 bi = res.bias ? *(const float4 *)&cst[RES ? 2 : 0][c] : make_float4(0.f, 0.f, 0.f, 0.f);
                    float4 sc = res.scale ? *(const float4 *)&cst[RES ? 3 : 0][c] : make_float4(1.f, 1.f, 1.f, 1.f);
                    v[i].x = vit__epi_residual(xr[i].x, sc.x, v[i].x + bi.x);
                    v[i].y = vit__epi_residual(xr[i].y, sc.y, v[i].y + bi.y);
                    v[i].z = vit__epi_residual(xr[i].z, sc.z, v[i].z + bi.z);
                    v[i].w = vit__epi_residual(xr[i].w, sc.w, v[i].w + bi.w);
                    vit__store4((TX *)x + c, v[i]);
                    v[i] = vit__as4<TX>(v[i]);
                }
            }
        } else {
#pragma unroll
            for (int i = 0; i < R; i++) {
                int c = 4 * (lane + 32 * i);
                v[i] = vit__ld4(x + c, c < C);
            }
        }
#pragma unroll
        for (int i = 0; i < R; i++) sum += (v[i].x + v[i].y) + (v[i].z + v[i].w);
        float mean = vit__warp_sum(sum) / (float)C;
#pragma unroll
        for (int i = 0; i < R; i++) {
            if (4 * (lane + 32 * i) < C) {
                float d0 = v[i].x - mean, d1 = v[i].y - mean, d2 = v[i].z - mean, d3 = v[i].w - mean;
                var += (d0 * d0 + d1 * d1) + (d2 * d2 + d3 * d3);
            }
        }
        float rstd = 1.0f / sqrtf(vit__warp_sum(var) / (float)C + eps);
        float amax = 0.0f;
#pragma unroll
        for (int i = 0; i < R; i++) {
            int c = 4 * (lane + 32 * i);
            if (c < C) {
                float4 wi = *(const float4 *)&cst[0][c], bi = *(const float4 *)&cst[1][c], o;
                o.x = (v[i].x - mean) * rstd * wi.x + bi.x;
                o.y = (v[i].y - mean) * rstd * wi.y + bi.y;
                o.z = (v[i].z - mean) * rstd * wi.z + bi.z;
                o.w = (v[i].w - mean) * rstd * wi.w + bi.w;
                if (q8.q) { v[i] = o; amax = fmaxf(fmaxf(amax, fmaxf(fabsf(o.x), fabsf(o.y))), fmaxf(fabsf(o.z), fabsf(o.w))); }
                else vit__store4(y + c, o);
            }
        }
        if (q8.q) {
#pragma unroll
            for (int o = 16; o; o >>= 1) amax = fmaxf(amax, __shfl_xor_sync(0xffffffffu, amax, o));
            float inv = amax > 0.0f ? __fdiv_rn(448.0f, amax) : 1.0f, ss = 0.0f, sc = amax > 0.0f ? __fdiv_rn(amax, 448.0f) : 1.0f;
            unsigned char *qr = q8.q + (size_t)row * C;
#pragma unroll
            for (int i = 0; i < R; i++) {
                int c = 4 * (lane + 32 * i);
                if (c < C) {
                    uint32_t e = vit__e4m3x4(v[i].x, v[i].y, v[i].z, v[i].w, inv);
                    *(uint32_t *)(qr + c) = e;
                    if (q8.n) ss = vit__e4m3x4_sumsq(e, ss);
                }
            }
            if (q8.n) ss = vit__warp_sum(ss);
            if (lane == 0) { q8.s[row] = sc; if (q8.n) q8.n[row] = sc * sqrtf(ss); }
        }
        return;
    }
    const int R = 32;
    if (RES && C > 32 * R)
        for (int c = lane; c < C; c += 32) {
            size_t i = (size_t)row * stride + c;
            ((TX *)x)[c] = vit__cvt<TX>(vit__epi_residual(vit__f32(x[c]), res.scale ? __ldg(res.scale + c) : 1.0f, vit__split_sum(res.part, plane, res.split, i, res.bias, c)));
        }
    if (C <= 32 * R) {
        float v[R], sum = 0.0f, var = 0.0f;
        if (RES) {
            const float *p = res.part + (size_t)row * stride;
#pragma unroll
            for (int i = 0; i < R; i++) v[i] = lane + 32 * i < C ? p[lane + 32 * i] : 0.0f;
            for (int z = 1; z < res.split; z++) {
                float u[R]; // all of a slice's loads first, then the adds
#pragma unroll
                for (int i = 0; i < R; i++) u[i] = lane + 32 * i < C ? p[(size_t)z * plane + lane + 32 * i] : 0.0f;
#pragma unroll
                for (int i = 0; i < R; i++) v[i] += u[i];
            }
#pragma unroll
            for (int i = 0; i < R; i++) {
                int c = lane + 32 * i;
                if (c < C) {
                    v[i] = vit__as<TX>(vit__epi_residual(vit__f32(x[c]), res.scale ? __ldg(res.scale + c) : 1.0f, v[i] + (res.bias ? __ldg(res.bias + c) : 0.0f)));
                    ((TX *)x)[c] = vit__cvt<TX>(v[i]);
                }
                sum += v[i];
            }
        } else {
#pragma unroll
            for (int i = 0; i < R; i++) {
                int c = lane + 32 * i;
                v[i] = c < C ? vit__f32(x[c]) : 0.0f;
                sum += v[i];
            }
        }
        float mean = vit__warp_sum(sum) / (float)C;
#pragma unroll
        for (int i = 0; i < R; i++) {
            float d = v[i] - mean;
            if (lane + 32 * i < C) var += d * d;
        }
        float rstd = 1.0f / sqrtf(vit__warp_sum(var) / (float)C + eps);
#pragma unroll
        for (int i = 0; i < R; i++) {
            int c = lane + 32 * i;
            if (c < C) y[c] = vit__cvt<TO>((v[i] - mean) * rstd * w[c] + b[c]);
        }
    } else {
        float sum = 0.0f, var = 0.0f;
        for (int c = lane; c < C; c += 32) sum += vit__f32(x[c]);
        float mean = vit__warp_sum(sum) / (float)C;
        for (int c = lane; c < C; c += 32) { float d = vit__f32(x[c]) - mean; var += d * d; }
        float rstd = 1.0f / sqrtf(vit__warp_sum(var) / (float)C + eps);
        for (int c = lane; c < C; c += 32) y[c] = vit__cvt<TO>((vit__f32(x[c]) - mean) * rstd * w[c] + b[c]);
    }
}

// Whether vit__layernorm_kernel may take its VEC path for these rows.
static int vit__ln_vec(const void *out, const void *inp, const float *w, const float *b, int C, size_t stride, size_t ostride, const vit__residual *res) {
    int ok = C % 4 == 0 && C <= 1024 && stride % 4 == 0 && ostride % 4 == 0 && vit__aligned16(out) && vit__aligned16(inp) && vit__aligned16(w) &&
             vit__aligned16(b);
    if (res) ok = ok && vit__aligned16(res->part) && (!res->bias || vit__aligned16(res->bias)) && (!res->scale || vit__aligned16(res->scale));
    return ok;
}

// The LayerNorm kernel rounds its rows to e4m3 itself (VEC rows: 4 codes per lane and store)
static bool vit__ln_q8_fused(bool vec, const vit__ln_e4m3 *q8, int C) { return q8 && vec && C % 8 == 0 && vit__aligned16(q8->q); }

// The GPU twin of vit__layernorm_cpu (which has ostride = stride): out may be
// fp32 or the compute dtype.
// q8 (VIT_DTYPE_FP8, out's rows contiguous): the rows in e4m3 into q8 instead:
// fused where the row kernel keeps them in registers (vit__ln_vec), else
// written to out and rounded by vit__e4m3_rows_cuda from there.
template <typename TO, typename TX = float>
static vit_status vit__layernorm_cuda(TO *out, const TX *inp, const float *w, const float *b, int rows, int C, size_t stride, size_t ostride,
                                      float eps, vit_model *m, cudaStream_t st, const vit__ln_e4m3 *q8 = NULL) {
    if (rows <= 0) return VIT_OK;
    vit__residual none = {NULL, 0, 0, NULL, NULL, NULL, 0, 0, 0};
    dim3 grid((unsigned)((rows + 7) / 8));
    bool vec = vit__ln_vec(out, inp, w, b, C, stride, ostride, NULL), fused = vit__ln_q8_fused(vec, q8, C);
    vit__ln_e4m3 lq = {fused ? q8->q : NULL, fused ? q8->s : NULL, fused ? q8->n : NULL};
    int rev = vit__walk(m->cuda);
    if (vec) VIT__CUDA_TRY(m, vit__launch(m, vit__layernorm_kernel<TO, TX, false, true>, grid, 256, 0, st, out, inp, w, b, rows, C, stride, ostride, eps, none, lq, rev));
    else VIT__CUDA_TRY(m, vit__launch(m, vit__layernorm_kernel<TO, TX, false, false>, grid, 256, 0, st, out, inp, w, b, rows, C, stride, ostride, eps, none, lq, rev));
    if (q8 && !fused) return vit__e4m3_rows_cuda<TO>(q8->q, q8->s, out, rows, C, m, st, 0, q8->n);
    return VIT_OK;
}

// x (rows, C) += scale * (inp @ weight + bias), then LayerNorm(x) * ln_w + ln_b
// into out: vit__linear_cuda (VIT__OUT_RESIDUAL) followed by
// vit__layernorm_cuda, except that a split-K GEMM's partial sums are reduced
// inside the LayerNorm kernel (one launch fewer, the same deterministic slice
// order). every = 1: out is (rows, C), every row normalised. every > 1 (the
// last block before a class-token pool): only rows 0, every, 2 every, ... are
// finished and normalised, into out's consecutive rows; with split-K the other
// rows of x are left without this GEMM's sums (nothing reads them again).
// TX: x's type (T: the residual stream in bf16, vit__cuda_state.xh).
template <typename T, typename TO, typename TX = float>
static vit_status vit__linear_ln_cuda(TO *out, TX *x, const T *inp, const T *weight, const float *bias, const float *scale, int rows, int in_dim,
                                      int out_dim, const float *ln_w, const float *ln_b, float eps, int every, vit_model *m, cudaStream_t st,
                                      const vit__e4m3_ops *q8 = NULL, const vit__ln_e4m3 *lnq = NULL) {
    size_t C = (size_t)out_dim, stride = (size_t)every * C;
    int lnrows = (rows + every - 1) / every;
    vit__plan gemm;
    VIT__TRY(vit__linear_do<T>(x, inp, weight, bias, rows, in_dim, out_dim, VIT__OUT_RESIDUAL, VIT__ACT_NONE, scale, 1, m, st, q8, sizeof(TX) == 2, &gemm));
    if (gemm.split <= 1) return vit__layernorm_cuda<TO, TX>(out, x, ln_w, ln_b, lnrows, out_dim, stride, C, eps, m, st, lnq);
    if (rows <= 0) return VIT_OK;
    vit__residual res = {m->cuda->part, (size_t)rows * C, gemm.split, bias, scale, NULL, 0, 0, 0};
    dim3 grid((unsigned)((lnrows + 1) / 2));
    bool vec = vit__ln_vec(out, x, ln_w, ln_b, out_dim, stride, C, &res), fused = vit__ln_q8_fused(vec, lnq, out_dim);
    vit__ln_e4m3 lq = {fused ? lnq->q : NULL, fused ? lnq->s : NULL, fused ? lnq->n : NULL};
    int rev = vit__walk(m->cuda);
    if (vec) VIT__CUDA_TRY(m, vit__launch(m, vit__layernorm_kernel<TO, TX, true, true>, grid, 64, 0, st, out, (const TX *)x, ln_w, ln_b, lnrows, out_dim, stride, C, eps, res, lq, rev));
    else VIT__CUDA_TRY(m, vit__launch(m, vit__layernorm_kernel<TO, TX, true, false>, grid, 64, 0, st, out, (const TX *)x, ln_w, ln_b, lnrows, out_dim, stride, C, eps, res, lq, rev));
    if (lnq && !fused) return vit__e4m3_rows_cuda<TO>(lnq->q, lnq->s, out, lnrows, out_dim, m, st, 0, lnq->n);
    return VIT_OK;
}

// The patch embedding (fused: prefix tokens, position embedding; see
// vit__patch_embed_cuda) followed by the first block's LayerNorm: x = tokens,
// xn = LayerNorm(x) * ln_w + ln_b. bf16/fp16 on sm_90a: im2col into scratch,
// the GEMM's raw sums left in fp32 (split over K into m->cuda->part where
// its plan splits it, at small batches; else one slice in scratch after
// the unfolded patches), and the bias, position rows and scatter into token
// rows done by the LayerNorm kernel as it normalises (one launch fewer, all
// SMs on the GEMM). [BENCHMARKS: Patch embedding]
// Otherwise (also where that GEMM's tiles would not fit the shared memory
// limit) the two ops one after the other. TX: x's type
// (T: the residual stream in bf16; x32, fp32 rows for the tokens before
// they are rounded into x, where the patch GEMM cannot write T itself).
template <typename T, typename TX = float>
static vit_status vit__patch_ln_cuda(T *xn, TX *x, float *x32, const float *images, const T *patch_w, const float *patch_b, int B, int Cin, int Hs, int Ws, int P, int C,
                                     const vit__embed_fuse *fuse, void *scratch, size_t scratch_elems, const float *ln_w, const float *ln_b, float eps,
                                     vit_model *m, cudaStream_t st) {
    typedef typename vit__half_t<T>::type H;
    vit__cuda_state *s = m->cuda;
    vit__gemm_args g = vit__patch_args((float *)x, images, patch_w, patch_b, B, Cin, Hs, Ws, P, C, fuse);
    int M = g.M, K = g.K, rows = B * fuse->tokens;
    g.res16 = sizeof(TX) == 2; // (the im2col kernel writes the prefix-token rows into x)
    // the plan vit__linear_go would make for the GEMM on the unfolded patches,
    // its sums left to the LayerNorm: split-K slices in part (small batches), or
    // one slice in fp32 in scratch after the unfolded patches (large ones; the
    // patch GEMM's own epilogue scattering rows into x is slower)
    // [BENCHMARKS: Patch embedding]
    vit__plan p = vit__plan_wgmma(s, M, C, K, VIT__WG_BK(H), VIT__OUT_STORE, 1);
    if (p.kernel == VIT__K_PP192) p.kernel = VIT__K_PP128; // (the sums' 64-column boxes: 128-wide tiles only)
    size_t off = ((size_t)M * K * sizeof(H) + 255) & ~(size_t)255;
    int one = p.split <= 1 && scratch;
    float *sums = one ? (float *)((unsigned char *)scratch + off) : s->part;
    vit__residual res = {sums, (size_t)M * C, one ? 1 : p.split, patch_b, NULL, g.pos, g.tokens, g.prefix, g.gg};
    p.smem = vit__gemm_smem(p.kernel, p.deep, vit__optype<H>::value, VIT__OUT_STORE, VIT__ACT_NONE);
    int ok = sizeof(T) == 2 && s->wgmma && !VIT__HOOK(s, gemm) && p.smem <= vit__plan_smem_max(s) && M > 0 && K % 8 == 0 && C % 8 == 0 && scratch &&
             (size_t)M * K <= scratch_elems && (!one || off + (size_t)M * C * 4 <= scratch_elems * sizeof(H)) && vit__aligned16(scratch) &&
             vit__aligned16(patch_w) && (!g.pos || vit__aligned16(g.pos)) && (!patch_b || vit__aligned16(patch_b)) &&
             vit__ln_vec(xn, x, ln_w, ln_b, C, (size_t)C, (size_t)C, &res);
    if (!ok) {
        float *tok = sizeof(TX) == 4 ? (float *)x : x32;
        VIT__TRY(vit__patch_embed_cuda<T>(tok, images, patch_w, patch_b, B, Cin, Hs, Ws, P, C, fuse, scratch, scratch_elems, m, st));
        if (sizeof(TX) != 4) VIT__TRY((vit__convert_cuda<TX, float>(x, tok, (size_t)rows * C, m, st)));
        return vit__layernorm_cuda<T, TX>(xn, x, ln_w, ln_b, rows, C, (size_t)C, (size_t)C, eps, m, st);
    }
    VIT__TRY(vit__im2col_launch<H>((H *)scratch, g, m, st));
    vit__gemm_args gs;
    memset(&gs, 0, sizeof(gs));
    gs.a = scratch; gs.w = patch_w; gs.out = scratch; gs.M = M; gs.N = C; gs.K = K; gs.defer = 1; // out: unused, the sums go to part
    gs.part = one ? sums : NULL;
    gs.optype = vit__optype<H>::value;
    p.split = res.split;
    VIT__HOOK_RAN(s, p);
    VIT__TRY((vit__gemm_wgmma_go<H, VIT__OUT_STORE, VIT__ACT_NONE>(gs, p, m, st)));
    VIT__CUDA_TRY(m, vit__launch(m, vit__layernorm_kernel<T, TX, true, true>, dim3((unsigned)((rows + 1) / 2)), 64, 0, st, xn, (const TX *)x, ln_w, ln_b, rows, C, (size_t)C,
                                 (size_t)C, eps, res, vit__ln_e4m3{NULL, NULL, NULL}, vit__walk(m->cuda)));
    return VIT_OK;
}

// >>op qk_norm -- CPU reference: vit__qk_norm_cpu
// The per-head LayerNorm of q and k (qk-norm) on the GPU.

// qk-norm in place in qkv (rows, 3C) in T: LayerNorm over each head's D
// columns of q (weights qw, qb, shared by the heads) and of k (kw, kb).
// Parallel over (row, head, q or k): one warp each, lane l holding columns
// l + 32 i (D <= 128); two passes (mean, then centred variance) as the CPU.
template <typename T>
__global__ void __launch_bounds__(256) vit__qk_norm_kernel(T *qkv, const float *qw, const float *qb, const float *kw, const float *kb, int rows, int C, int H,
                                                           float eps) {
    vit__pdl_wait();
    vit__pdl_launch();
    int warp = blockIdx.x * 8 + (threadIdx.x >> 5), lane = threadIdx.x & 31;
    if (warp >= rows * H * 2) return;
    int D = C / H, r = warp / (2 * H), h = (warp >> 1) % H, isk = warp & 1;
    T *p = qkv + (size_t)r * 3 * C + (size_t)isk * C + (size_t)h * D;
    const float *w = isk ? kw : qw, *b = isk ? kb : qb;
    float v[4], sum = 0.0f, var = 0.0f;
#pragma unroll
    for (int i = 0; i < 4; i++) {
        int c = lane + 32 * i;
        v[i] = c < D ? vit__f32(p[c]) : 0.0f;
        sum += v[i];
    }
    float mean = vit__warp_sum(sum) / (float)D;
#pragma unroll
    for (int i = 0; i < 4; i++)
        if (lane + 32 * i < D) { float d = v[i] - mean; var += d * d; }
    float rstd = 1.0f / sqrtf(vit__warp_sum(var) / (float)D + eps);
#pragma unroll
    for (int i = 0; i < 4; i++) {
        int c = lane + 32 * i;
        if (c < D) p[c] = vit__cvt<T>((v[i] - mean) * rstd * __ldg(w + c) + __ldg(b + c));
    }
}

template <typename T>
static vit_status vit__qk_norm_cuda(T *qkv, const float *qw, const float *qb, const float *kw, const float *kb, int rows, int C, int H, float eps, vit_model *m,
                                    cudaStream_t st) {
    VIT_ASSERT(H > 0 && C % H == 0 && C / H <= 128);
    size_t warps = (size_t)rows * H * 2;
    if (warps == 0) return VIT_OK;
    VIT__CUDA_TRY(m, vit__launch(m, vit__qk_norm_kernel<T>, dim3((unsigned)((warps + 7) / 8)), 256, 0, st, qkv, qw, qb, kw, kb, rows, C, H, eps));
    return VIT_OK;
}

// >>op attention -- CPU reference: vit__attention_cpu
// Multi-head flash attention on the GPU: the mma.sync, wgmma and fp32 FMA
// kernels and their launchers.

// bf16/fp16 flash attention on mma.sync. Parallel over (query tiles of BQ,
// H, B): NW warps, each owns 16 RM query rows (RM = 2, head sizes up to 64,
// streamed or, forced, whole K/V: each K and V fragment read from shared
// memory serves two m16 tiles). K/V
// tiles of 64 keys stream through a double-buffered shared ring; S = Q K^T and
// O += P V run on tensor cores with fp32 accumulators, the softmax is online
// (running max and sum per row, exp2 with the scale folded in), so no N x N
// matrix exists anywhere. The head size D is zero-padded to DP (16, 32, 64 or
// 128) in shared memory; keys >= N are masked; a.causal: so are keys after the
// query (a warp skips the key tiles wholly after its rows: every tile it runs
// holds a key each row sees). Only edge tiles (the last, or every tile when
// causal) pay for the masks and the partial-tile bounds.
// VEC: 16-byte cp.async loads (D and C multiples of 8), each thread's chunks at
// fixed rows and column of every tile, their addresses one step apart; else scalar.
// FULL (short sequences, N <= VIT__ATTN_FULL_MAX): all of K and V are loaded
// at once and stay, one wait and one barrier per CTA instead of two per tile.
// KS > 1 (FULL, small batches): each KS warps of the CTA share 16 query rows and take
// every KS-th key tile each, then their partial softmax states (max, sum, O)
// are merged through shared memory in split order: a quarter of the serial
// mma chain per warp. 8 warps, 32 query rows per CTA: half the CTAs, each
// loading K and V once for twice the queries. Every row's arithmetic is the
// same whatever NW and RM: the bits do not depend on the shape.
// [BENCHMARKS: Attention: mma.sync]
// One CTA's work: query tile qtile of head h of image b (all NW warps take part).
template <typename T, int DP, bool VEC, int NW, bool FULL, int KS, int RM = 1>
static __device__ __forceinline__ void vit__attention_mma_tile(const vit__attn_args &a, float sl2, int b, int h, int qtile);

template <typename T, int DP, bool VEC, int NW, bool FULL, int KS, int RM>
__global__ void __launch_bounds__(NW * 32, NW == 8 && DP <= 64 ? 2 : 1) vit__attention_mma_kernel(vit__attn_args a, float sl2, const char *pf, size_t pf_bytes) {
    if (pf && threadIdx.x == 0) vit__l2_prefetch_share(pf, pf_bytes); // weights: no earlier kernel writes them
    vit__pdl_wait();
    vit__pdl_launch();
    vit__attention_mma_tile<T, DP, VEC, NW, FULL, KS, RM>(a, sl2, blockIdx.z, blockIdx.y, blockIdx.x);
}

template <bool B> struct vit__flag { static constexpr bool value = B; };

template <typename T, int DP, bool VEC, int NW, bool FULL, int KS, int RM>
static __device__ __forceinline__ void vit__attention_mma_tile(const vit__attn_args &a, float sl2, int b, int h, int qtile) {
    static_assert(KS == 1 || FULL, "split keys: the whole-K/V kernel");
    const int WQ = 16 * RM, BQ = WQ * NW / KS, BKV = 64, LD = DP + 8, NT = NW * 32; // +8: rows 16 bytes apart in bank space, ldmatrix conflict-free
    const int CH = DP / 8, RS = NT / CH; // 16-byte chunks per row; rows one sweep of the CTA's threads loads
    static_assert(NT % CH == 0, "whole rows per sweep");
    extern __shared__ __align__(128) unsigned char vit__smem_att[];
    int Nq = a.Nq, N = a.Nk; // N: keys
    T *sQ = (T *)vit__smem_att; // [BQ][LD]
    int NK = FULL ? (N + 15) & ~15 : 2 * BKV;
    T *sK = sQ + BQ * LD;       // [2][BKV][LD], FULL: [NK][LD]
    T *sV = sK + NK * LD;
    int q0 = qtile * BQ, D = a.D;
    int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31, qw = warp / KS, ks = warp % KS; // query rows qw * WQ.., key tiles ks, ks + KS, ..
    int wq0 = q0 + qw * WQ;     // the warp's first query row
    const T *qb = (const T *)a.q + (size_t)b * a.bsq + (size_t)h * D;
    const T *kb = (const T *)a.k + (size_t)b * a.bsk + (size_t)h * D, *vb = (const T *)a.v + (size_t)b * a.bsk + (size_t)h * D;
    // VEC: this thread loads, of any block of rows, rows lrow, lrow + RS, .. at column lcol
    int lrow = tid / CH, lcol = (tid % CH) * 8;
    bool lcol_ok = lcol < D;
    // rows r0 .. r0 + nrows of src (row stride rs, rows below nlim) into dst, zero past nlim and D
    auto load = [&](T *dst, const T *src, size_t rs, int nlim, int r0, int nrows) {
        if (VEC) {
            const T *g = src + (size_t)(r0 + lrow) * rs + lcol;
            T *sp = dst + lrow * LD + lcol;
            for (int r = r0 + lrow; r < r0 + nrows; r += RS, g += RS * rs, sp += RS * LD) {
                bool ok = lcol_ok && r < nlim;
                vit__cp16(sp, ok ? g : src, ok ? 16 : 0);
            }
        } else {
            for (int c = tid; c < nrows * CH; c += NT) {
                int r = c / CH, d = (c % CH) * 8, gr = r0 + r;
                float v[8];
#pragma unroll
                for (int e = 0; e < 8; e++) v[e] = (gr < nlim && d + e < D) ? vit__f32(src[(size_t)gr * rs + d + e]) : 0.0f;
                *(uint4 *)(dst + r * LD + d) = make_uint4(vit__pack2<T>(v[0], v[1]), vit__pack2<T>(v[2], v[3]), vit__pack2<T>(v[4], v[5]), vit__pack2<T>(v[6], v[7]));
            }
        }
    };
    // the streamed K and V tile j into ring slot j & 1: a fixed count of chunks per thread
    const T *kg = kb + (size_t)lrow * a.ldk + lcol, *vg = vb + (size_t)lrow * a.ldk + lcol;
    size_t kstep = (size_t)RS * a.ldk;
    auto load_kv = [&](int j) {
        if (VEC && BKV % RS == 0) {
            size_t off = (size_t)j * BKV * a.ldk;
            T *ks_ = sK + (j & 1) * BKV * LD + lrow * LD + lcol, *vs_ = sV + (j & 1) * BKV * LD + lrow * LD + lcol;
#pragma unroll
            for (int i = 0; i < BKV / RS; i++) {
                bool ok = lcol_ok && j * BKV + lrow + i * RS < N;
                vit__cp16(ks_ + i * RS * LD, ok ? kg + off + i * kstep : kb, ok ? 16 : 0);
                vit__cp16(vs_ + i * RS * LD, ok ? vg + off + i * kstep : vb, ok ? 16 : 0);
            }
        } else {
            load(sK + (j & 1) * BKV * LD, kb, a.ldk, N, j * BKV, BKV);
            load(sV + (j & 1) * BKV * LD, vb, a.ldk, N, j * BKV, BKV);
        }
    };
    int nkv = (N + BKV - 1) / BKV;
    load(sQ, qb, a.ldq, Nq, q0, BQ);
    if (FULL) {
        load(sK, kb, a.ldk, N, 0, NK);
        load(sV, vb, a.ldk, N, 0, NK);
    } else {
        load_kv(0);
    }
    vit__cp_commit();
    float o[RM][DP / 8][4], mrow[RM][2], lsum[RM][2];
#pragma unroll
    for (int m = 0; m < RM; m++) {
#pragma unroll
        for (int i = 0; i < DP / 8; i++)
#pragma unroll
            for (int e = 0; e < 4; e++) o[m][i][e] = 0.0f;
        mrow[m][0] = mrow[m][1] = -INFINITY;
        lsum[m][0] = lsum[m][1] = 0.0f;
    }
    uint32_t qf[RM][DP / 16][4];
    // warps whose rows are all past N only help load; key chunks of 16 past
    // N are skipped (their probabilities are exactly 0): at N = 197 the last
    // query tile runs 1 warp of 4 and the last key tile 1 chunk of 4
    bool act = wq0 < Nq, qload = true;
    if (FULL) {
        vit__cp_wait<0>();
        __syncthreads();
    }
    int last_key = a.causal ? wq0 + WQ - 1 : N; // causal: tiles past the warp's last row are skipped
    // one key tile's S = Q K^T, softmax update and O += P V; EDGE: keys past N or causal masks in it
    auto tile = [&](int j, auto edge) {
        constexpr bool EDGE = decltype(edge)::value;
        (void)edge;
        const T *Ks = sK + (FULL ? j : j & 1) * BKV * LD, *Vs = sV + (FULL ? j : j & 1) * BKV * LD;
        int kvalid = N - j * BKV; // keys of this tile below N (> BKV: all)
        float s[RM][8][4];
#pragma unroll
        for (int m = 0; m < RM; m++)
#pragma unroll
            for (int i = 0; i < 8; i++)
#pragma unroll
                for (int e = 0; e < 4; e++) s[m][i][e] = 0.0f;
#pragma unroll
        for (int kk = 0; kk < DP / 16; kk++)
#pragma unroll
            for (int np = 0; np < 4; np++) {
                if (EDGE && np * 16 >= kvalid) break;
                uint32_t r[4];
                vit__ldsm4(r, Ks + (np * 16 + (lane & 7) + ((lane >> 4) << 3)) * LD + kk * 16 + (((lane >> 3) & 1) << 3));
#pragma unroll
                for (int m = 0; m < RM; m++) {
                    vit__mma(s[m][2 * np], qf[m][kk], r, (T *)0);
                    vit__mma(s[m][2 * np + 1], qf[m][kk], r + 2, (T *)0);
                }
            }
        // scale (log2 domain), mask, online softmax
#pragma unroll
        for (int m = 0; m < RM; m++) {
            float mx[2] = {-INFINITY, -INFINITY};
#pragma unroll
            for (int i = 0; i < 8; i++)
#pragma unroll
                for (int e = 0; e < 4; e++) {
                    if (EDGE) {
                        int key = j * BKV + i * 8 + (lane & 3) * 2 + (e & 1), row = wq0 + m * 16 + (lane >> 2) + (e >> 1) * 8;
                        s[m][i][e] = key < N && (!a.causal || key <= row) ? __fmul_rn(s[m][i][e], sl2) : -INFINITY;
                    } else {
                        s[m][i][e] = __fmul_rn(s[m][i][e], sl2); // never fused with the subtraction below: the bits of every path alike
                    }
                    mx[e >> 1] = fmaxf(mx[e >> 1], s[m][i][e]);
                }
#pragma unroll
            for (int hr = 0; hr < 2; hr++) {
                mx[hr] = vit__quad_max(mx[hr]);
                float mnew = fmaxf(mrow[m][hr], mx[hr]), corr = vit__exp2_ftz(mrow[m][hr] - mnew);
                mrow[m][hr] = mnew;
                lsum[m][hr] *= corr;
#pragma unroll
                for (int i = 0; i < DP / 8; i++) { o[m][i][2 * hr] *= corr; o[m][i][2 * hr + 1] *= corr; }
            }
#pragma unroll
            for (int i = 0; i < 8; i++)
#pragma unroll
                for (int e = 0; e < 4; e++) {
                    float p = vit__exp2_ftz(s[m][i][e] - mrow[m][e >> 1]);
                    lsum[m][e >> 1] += p;
                    s[m][i][e] = p;
                }
        }
        // O += P V: the S accumulator layout of two n8 tiles is the A layout of one k16 step
#pragma unroll
        for (int kc = 0; kc < BKV / 16; kc++) {
            if (EDGE && kc * 16 >= kvalid) break;
            uint32_t pa[RM][4];
#pragma unroll
            for (int m = 0; m < RM; m++) {
                pa[m][0] = vit__pack2<T>(s[m][2 * kc][0], s[m][2 * kc][1]);
                pa[m][1] = vit__pack2<T>(s[m][2 * kc][2], s[m][2 * kc][3]);
                pa[m][2] = vit__pack2<T>(s[m][2 * kc + 1][0], s[m][2 * kc + 1][1]);
                pa[m][3] = vit__pack2<T>(s[m][2 * kc + 1][2], s[m][2 * kc + 1][3]);
            }
#pragma unroll
            for (int dp = 0; dp < DP / 16; dp++) {
                uint32_t r[4];
                vit__ldsm4t(r, Vs + (kc * 16 + (lane & 7) + (((lane >> 3) & 1) << 3)) * LD + dp * 16 + ((lane >> 4) << 3));
#pragma unroll
                for (int m = 0; m < RM; m++) {
                    vit__mma(o[m][2 * dp], pa[m], r, (T *)0);
                    vit__mma(o[m][2 * dp + 1], pa[m], r + 2, (T *)0);
                }
            }
        }
    };
    for (int j = ks; j < nkv; j += KS) {
        bool live = j * BKV <= last_key;
        if (FULL) {
            if (!act || !live) break;
        } else {
            if (j + 1 < nkv) load_kv(j + 1);
            vit__cp_commit();
            vit__cp_wait<1>();
            __syncthreads();
            if (!act || !live) { __syncthreads(); continue; }
        }
        if (qload) {
#pragma unroll
            for (int m = 0; m < RM; m++)
#pragma unroll
                for (int kk = 0; kk < DP / 16; kk++)
                    vit__ldsm4(qf[m][kk], sQ + (qw * WQ + m * 16 + (lane & 15)) * LD + kk * 16 + ((lane >> 4) << 3));
            qload = false;
        }
        if (a.causal || (j + 1) * BKV > N) tile(j, vit__flag<true>());
        else tile(j, vit__flag<false>());
        if (!FULL) __syncthreads(); // this buffer is reloaded next iteration
    }
    if (KS > 1) {
        // each warp's state to shared memory (after K/V: nothing reads them now),
        // then each output element merged over the splits in split order
        float *sO = (float *)(sV + NK * LD), *sM = sO + KS * BQ * DP, *sL = sM + KS * BQ; // [KS][BQ][DP], [KS][BQ] x 2
#pragma unroll
        for (int m = 0; m < RM; m++)
#pragma unroll
            for (int hr = 0; hr < 2; hr++) {
                float l = vit__quad_sum(lsum[m][hr]);
                int r = ks * BQ + qw * WQ + m * 16 + (lane >> 2) + hr * 8;
                if ((lane & 3) == 0) { sM[r] = mrow[m][hr]; sL[r] = l; }
#pragma unroll
                for (int i = 0; i < DP / 8; i++) *(float2 *)(sO + (size_t)r * DP + i * 8 + (lane & 3) * 2) = make_float2(o[m][i][2 * hr], o[m][i][2 * hr + 1]);
            }
        __syncthreads();
        for (int idx = tid; idx < BQ * D; idx += NT) {
            int r = idx / D, d = idx % D, row = q0 + r;
            if (row >= Nq) continue;
            float mx = -INFINITY, l = 0.0f, acc = 0.0f;
#pragma unroll
            for (int k = 0; k < KS; k++) mx = fmaxf(mx, sM[k * BQ + r]);
#pragma unroll
            for (int k = 0; k < KS; k++) {
                float wk = vit__exp2_ftz(sM[k * BQ + r] - mx); // 0 for a split that saw no keys
                l += wk * sL[k * BQ + r];
                acc += wk * sO[(size_t)(k * BQ + r) * DP + d];
            }
            ((T *)a.out)[(size_t)b * a.bso + (size_t)row * a.ldo + (size_t)h * D + d] = vit__cvt<T>(acc / l);
        }
    } else {
#pragma unroll
        for (int m = 0; m < RM; m++)
#pragma unroll
            for (int hr = 0; hr < 2; hr++) {
                float l = vit__quad_sum(lsum[m][hr]);
                float inv = 1.0f / l;
                int row = wq0 + m * 16 + (lane >> 2) + hr * 8;
                if (row >= Nq) continue;
                T *op = (T *)a.out + (size_t)b * a.bso + (size_t)row * a.ldo + (size_t)h * D;
#pragma unroll
                for (int i = 0; i < DP / 8; i++) {
                    int d = i * 8 + (lane & 3) * 2;
                    if (d < D) op[d] = vit__cvt<T>(o[m][i][2 * hr] * inv);
                    if (d + 1 < D) op[d + 1] = vit__cvt<T>(o[m][i][2 * hr + 1] * inv);
                }
            }
    }
}

// bf16/fp16 flash attention on sm_90a, FlashAttention-3's plan. Persistent: a CTA
// per SM walks work items of 64 NC query rows of one (image, head), the query
// tiles of a head next to each other so that CTAs running together share its K
// and V in L2. Warpgroup 0's first thread streams, by TMA, each item's Q and its
// K and V tiles of 128 keys through a ring of ST stages (full/empty mbarriers,
// K's apart from V's, so a tile's S = Q K^T may start before its V has landed;
// the ring runs on across items, so the next item's first tiles load while this
// one finishes). Warpgroups 1 .. NC own 64 query rows each: S by wgmma from
// shared Q and K, the online softmax in registers (exp2, the scale folded in),
// O += P V by wgmma with P straight from registers (the S accumulator's layout
// is the A fragment's) and V as TMA wrote it (MN-major, transposed by wgmma).
// Within a warpgroup the next tile's Q K^T and this tile's P V run on the tensor
// cores while the softmax runs on the rest; with ping, named barriers 1 .. NC
// make the warpgroups take turns issuing their GEMMs, so one's softmax runs
// while another's GEMMs do. NC = 3 (head size 64 only: 160 registers each)
// gives the tensor cores a third softmax to hide behind, for long sequences
// (192-row items waste more on the last query tile of short ones). Head sizes
// 64 and 128 (DP = D: one TMA box 64 columns wide per 64 of D, so a smaller D
// would read its neighbour's columns); rev: items last to first (vit__walk);
// keys past Nk read as zero and are masked, query rows past Nq read as zero
// and are not stored; a warpgroup whose 64 rows are all past Nq only
// keeps the ring's count (waits each stage full, then frees it) and the turns.
// The wgmma kernel runs wherever it can for more keys than VIT__ATTN_WGMMA_MIN,
// and for fewer when its work items fill every SM twice (at batch 1 the two
// are as fast, and the mma.sync kernel splits keys over more SMs). Head size 64
// from VIT__ATTW3_MIN queries: three consumer warpgroups.
// [BENCHMARKS: Attention: wgmma]
#define VIT__ATTW_BKV 128
#define VIT__ATTW_ST(DP) ((DP) == 64 ? 4 : 3)
#define VIT__ATTW_SMEM(DP, NC, T) ((64 * (NC) + 2 * VIT__ATTW_ST(DP) * VIT__ATTW_BKV) * (DP) * (int)sizeof(T) + (4 * VIT__ATTW_ST(DP) + 2) * 8 + 1024)
template <typename T, int DP, int NC>
__global__ void __launch_bounds__(128 * (NC + 1), 1) vit__attention_wgmma_kernel(const __grid_constant__ CUtensorMap tq, const __grid_constant__ CUtensorMap tk,
                                                                      const __grid_constant__ CUtensorMap tv, const vit__attn_args a, float sl2, int ping,
                                                                      int rev, const char *pf, size_t pf_bytes) {
    vit__pdl_launch();
#ifdef VIT__SM90A
    const int BQ = 64 * NC, BKV = VIT__ATTW_BKV, ST = VIT__ATTW_ST(DP), DC = DP / 64; // DC: 64-column boxes per row
    extern __shared__ __align__(1024) unsigned char vit__smem_aw[];
    // 128B swizzle atoms: 1024-byte aligned (an offset from the array, so the compiler keeps it a shared address)
    unsigned char *base = vit__smem_aw + ((1024u - (unsigned)__cvta_generic_to_shared(vit__smem_aw)) & 1023u);
    T *sQ = (T *)base;               // [DC][BQ][64]
    T *sK = sQ + DC * BQ * 64;       // [ST][DC][BKV][64]
    T *sV = sK + ST * DC * BKV * 64; // [ST][DC][BKV][64]
    uint64_t *fullk = (uint64_t *)(sV + ST * DC * BKV * 64), *fullv = fullk + ST, *emptyk = fullv + ST, *emptyv = emptyk + ST, *qfull = emptyv + ST,
             *qempty = qfull + 1;
    int wg = threadIdx.x >> 7, t = threadIdx.x & 127;
    int QT = (a.Nq + BQ - 1) / BQ, items = QT * a.H * a.B, N = a.Nk, nkv = (N + BKV - 1) / BKV;
    if (threadIdx.x == 0) {
        for (int s = 0; s < ST; s++) {
            vit__mbar_init(&fullk[s], 1); vit__mbar_init(&fullv[s], 1);
            vit__mbar_init(&emptyk[s], NC); vit__mbar_init(&emptyv[s], NC);
        }
        vit__mbar_init(qfull, 1);
        vit__mbar_init(qempty, NC);
        asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    }
    __syncthreads();
    if (wg == 0) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 24;\n");
        if (t == 0) {
            if (pf) vit__l2_prefetch_share(pf, pf_bytes); // weights: no earlier kernel writes them
            vit__pdl_wait();
            const int bytes = BKV * DP * (int)sizeof(T);
            int n = 0; // K/V tiles through the ring so far
            for (int item = blockIdx.x, i = 0; item < items; item += gridDim.x, i++) {
                int w = rev ? items - 1 - item : item; // (the order: see vit__walk)
                int q0 = (w % QT) * BQ, h = (w / QT) % a.H, b = w / (QT * a.H);
                for (int j = 0; j < nkv; j++, n++) {
                    int s = n % ST, ph = ((n / ST) & 1) ^ 1; // the first pass finds its stages free
                    vit__mbar_wait(&emptyk[s], ph);
                    vit__mbar_expect(&fullk[s], bytes);
                    for (int c = 0; c < DC; c++) vit__tma_load3(sK + (s * DC + c) * BKV * 64, &tk, h * DP + c * 64, j * BKV, b, &fullk[s]);
                    if (j == 0) { // Q after the first K: that one may load while the last item's Q is still in use
                        vit__mbar_wait(qempty, (i & 1) ^ 1);
                        vit__mbar_expect(qfull, BQ * DP * (int)sizeof(T));
                        for (int c = 0; c < DC; c++) vit__tma_load3(sQ + c * BQ * 64, &tq, h * DP + c * 64, q0, b, qfull);
                    }
                    vit__mbar_wait(&emptyv[s], ph);
                    vit__mbar_expect(&fullv[s], bytes);
                    for (int c = 0; c < DC; c++) vit__tma_load3(sV + (s * DC + c) * BKV * 64, &tv, h * DP + c * 64, j * BKV, b, &fullv[s]);
                }
            }
        }
    } else {
        // (three consumers: 128 x (24 + 3 x 160) registers fill the SM's 64K)
        if (NC == 2) asm volatile("setmaxnreg.inc.sync.aligned.u32 240;\n");
        else asm volatile("setmaxnreg.inc.sync.aligned.u32 160;\n");
        vit__pdl_wait(); // (out may be the previous kernel's input)
        int c = wg - 1, warp = t >> 5, lane = t & 31, n = 0;
        float o[DP / 2], s[BKV / 2], mrow[2], lrow[2], corr[2];
        uint32_t p[BKV / 16][4];
        const T *qs = sQ + c * 64 * 64;
        // this thread's accumulator element i: row warp * 16 + lane / 4 + 8 ((i >> 1) & 1),
        // column 8 (i >> 2) + 2 (lane & 3) + (i & 1)
        // A tile's lambdas take its width W (keys, a vit__ic): BKV, or 80 for
        // the last of several tiles when its keys past 80 are all past N
        // (ViT-B/16 at 224: 197 keys = 128 + 69). (A 64-wide variant as well
        // made ptxas serialise every wgmma: C7511, too few registers.)
        auto qk = [&](int r, auto wc) { // S = Q K^T of ring tile r's first W keys: issued, not waited for
            constexpr int W = decltype(wc)::value;
            const T *ks = sK + (r % ST) * DC * BKV * 64;
            vit__mbar_wait(&fullk[r % ST], (r / ST) & 1);
#pragma unroll
            for (int i = 0; i < W / 2; i++) s[i] = 0.0f;
            vit__wg_fence();
#pragma unroll
            for (int kk = 0; kk < DP / 16; kk++) {
                uint64_t dq = vit__wg_desc(qs + (kk / 4) * BQ * 64 + (kk % 4) * 16), dk = vit__wg_desc(ks + (kk / 4) * BKV * 64 + (kk % 4) * 16);
                if (W == 80) vit__wgmma80(s, dq, dk, (T *)0);
                else vit__wgmma128(s, dq, dk, (T *)0);
            }
            vit__wg_commit();
        };
        auto pv = [&](int r, auto wc) { // O += P V of ring tile r's first W keys: issued, not waited for
            constexpr int W = decltype(wc)::value;
            const T *vs = sV + (r % ST) * DC * BKV * 64;
            vit__mbar_wait(&fullv[r % ST], (r / ST) & 1);
            vit__wg_fence();
#pragma unroll
            for (int kc = 0; kc < W / 16; kc++)
#pragma unroll
                for (int dc = 0; dc < DC; dc++) vit__wgmma64_rs(o + dc * 32, p[kc], vit__wg_desc(vs + dc * BKV * 64 + kc * 16 * 64), (T *)0);
            vit__wg_commit();
        };
        auto softmax = [&](int j, auto wc) { // tile j's S -> probabilities in s; the rows' max, sum and O's correction
            constexpr int W = decltype(wc)::value;
            int kvalid = N - j * BKV;
            if (kvalid < W) // the last tile: keys past N
#pragma unroll
                for (int i = 0; i < W / 2; i++)
                    if ((i >> 2) * 8 + (lane & 3) * 2 + (i & 1) >= kvalid) s[i] = -INFINITY;
            // each row's max as 4 partial maxima, chains 8 deep rather than one
            // 32 deep [BENCHMARKS: Attention: wgmma]
            float m4[2][4], mx[2];
#pragma unroll
            for (int i = 0; i < 8; i++) m4[i & 1][i >> 1] = fmaxf(s[(i >> 1) * 4 + (i & 1) * 2], s[(i >> 1) * 4 + (i & 1) * 2 + 1]);
#pragma unroll
            for (int i = 16; i < W / 2; i++) m4[(i >> 1) & 1][(i >> 2) & 3] = fmaxf(m4[(i >> 1) & 1][(i >> 2) & 3], s[i]);
#pragma unroll
            for (int hr = 0; hr < 2; hr++) {
                mx[hr] = vit__quad_max(fmaxf(fmaxf(m4[hr][0], m4[hr][1]), fmaxf(m4[hr][2], m4[hr][3])));
                float mnew = fmaxf(mrow[hr], mx[hr] * sl2);
                corr[hr] = vit__exp2_ftz(mrow[hr] - mnew);
                mrow[hr] = mnew;
                lrow[hr] *= corr[hr];
            }
            // (ex2.approx.ftz rather than exp2f, whose handling of results
            // under 2^-126 is 3 more instructions per score; such probabilities
            // round to 0 anyway) [BENCHMARKS: Attention: wgmma]
#pragma unroll
            for (int i = 0; i < W / 2; i++) {
                float e = vit__exp2_ftz(fmaf(s[i], sl2, -mrow[(i >> 1) & 1]));
                lrow[(i >> 1) & 1] += e;
                s[i] = e;
            }
        };
        auto pack = [&](auto wc) { // the probabilities as P V's A fragments: k step kc = columns 16 kc ..
            constexpr int W = decltype(wc)::value;
#pragma unroll
            for (int kc = 0; kc < W / 16; kc++)
#pragma unroll
                for (int e = 0; e < 4; e++) p[kc][e] = vit__pack2<T>(s[8 * kc + 2 * e], s[8 * kc + 2 * e + 1]);
        };
        // ping: my turn to issue GEMMs (named barrier 1 + c), then the next's, round the NC warpgroups
        auto turn = [&]() { if (ping) asm volatile("bar.sync %0, 256;\n" ::"r"(1 + c) : "memory"); };
        auto pass = [&]() { if (ping) asm volatile("bar.arrive %0, 256;\n" ::"r"(1 + (c + 1) % NC) : "memory"); };
        auto release = [&](uint64_t *bar) { if (t == 0) vit__mbar_arrive(bar); };
        // one item's tiles, the last one wl keys wide (nkv > 1 for 80); O is left in o, unscaled
        auto tiles = [&](auto wl) {
            const vit__ic<BKV> wf;
            auto step = [&](int j, auto wc) { // Q K^T of tile j (W wide), P V of tile j - 1 (full), tile j's softmax
                turn();
                qk(n + j, wc);
                pv(n + j - 1, wf);
                pass();
                vit__wg_wait<1>(); // S of tile j
                vit__wg_fence_regs<BKV / 2>(s);
                release(&emptyk[(n + j) % ST]);
                if (j == nkv - 1) release(qempty); // the item's last Q K^T done
                softmax(j, wc); // while P V of tile j - 1 runs
                vit__wg_wait<0>();
                vit__wg_fence_regs<DP / 2>(o);
                release(&emptyv[(n + j - 1) % ST]);
#pragma unroll
                for (int e = 0; e < DP / 2; e++) o[e] *= corr[(e >> 1) & 1];
                pack(wc);
            };
            turn();
            if (nkv == 1) qk(n, wl);
            else qk(n, wf);
            pass();
            vit__wg_wait<0>();
            vit__wg_fence_regs<BKV / 2>(s);
            release(&emptyk[n % ST]);
            if (nkv == 1) {
                release(qempty);
                softmax(0, wl);
                pack(wl);
            } else {
                softmax(0, wf);
                pack(wf);
                for (int j = 1; j < nkv - 1; j++) step(j, wf);
                step(nkv - 1, wl);
            }
            turn();
            pv(n + nkv - 1, wl);
            pass();
            vit__wg_wait<0>();
            vit__wg_fence_regs<DP / 2>(o);
            release(&emptyv[(n + nkv - 1) % ST]);
        };
        if (c == NC - 1) pass(); // the last warpgroup lets 0 go first
        for (int item = blockIdx.x, i = 0; item < items; item += gridDim.x, i++, n += nkv) {
            int w = rev ? items - 1 - item : item;
            int q0 = (w % QT) * BQ, h = (w / QT) % a.H, b = w / (QT * a.H);
            if (q0 + c * 64 >= a.Nq) { // idle: the same turns, waits and releases, no math (a path of its own, without wgmma)
                vit__mbar_wait(qfull, i & 1);
                for (int j = 0; j <= nkv; j++) {
                    turn();
                    if (j < nkv) vit__mbar_wait(&fullk[(n + j) % ST], ((n + j) / ST) & 1);
                    if (j > 0) vit__mbar_wait(&fullv[(n + j - 1) % ST], ((n + j - 1) / ST) & 1);
                    pass();
                    if (j < nkv) release(&emptyk[(n + j) % ST]);
                    if (j == nkv - 1) release(qempty);
                    if (j > 0) release(&emptyv[(n + j - 1) % ST]);
                }
                continue;
            }
#pragma unroll
            for (int e = 0; e < DP / 2; e++) o[e] = 0.0f;
            mrow[0] = mrow[1] = -INFINITY;
            lrow[0] = lrow[1] = 0.0f;
            vit__mbar_wait(qfull, i & 1);
            int tail = N - (nkv - 1) * BKV; // keys in the last tile
            if (tail <= 80 && nkv > 1) tiles(vit__ic<80>());
            else tiles(vit__ic<BKV>());
#pragma unroll
            for (int hr = 0; hr < 2; hr++) {
                float l = vit__quad_sum(lrow[hr]);
                float inv = 1.0f / l;
                int row = q0 + c * 64 + warp * 16 + (lane >> 2) + hr * 8;
                if (row >= a.Nq) continue;
                T *op = (T *)a.out + (size_t)b * a.bso + (size_t)row * a.ldo + (size_t)h * DP;
#pragma unroll
                for (int jn = 0; jn < DP / 8; jn++) vit__store2(op + jn * 8 + 2 * (lane & 3), o[4 * jn + 2 * hr] * inv, o[4 * jn + 2 * hr + 1] * inv);
            }
        }
        if (c == 0) turn(); // the last warpgroup's last pass
    }
#else
    (void)tq; (void)tk; (void)tv; (void)a; (void)sl2; (void)ping; (void)pf; (void)pf_bytes;
#endif
}

// fp32 flash attention on FMA, register-tiled like the SGEMM. Parallel over
// (query tiles, H, B); nw = blockDim.x / 32 warps per CTA (a launch choice: the
// query tiles of a head spread evenly over its CTAs), each warp owns 16
// queries, lane (lq, lk) = (lane >> 3, lane & 7) the 4 queries lq + 4i. Per
// tile of 64 keys: S for those queries x keys lk + 8j (j < 8) from float4
// reads of row-major Q and K (12 shared loads per 128 FMAs, one wavefront
// each), online softmax (row max over the 8 lanes of lq, the scale folded into
// the exp2 argument), P into the warp's own transposed slice of shared memory,
// then O += P V for the same queries x head dims 4lk + 32c: 3 shared loads per
// 32 FMAs at head size 64. Q, K and V arrive by cp.async, K and V under the
// previous phase's math. Warps whose queries all lie past N skip the math; the
// last tile's key groups past N too, their count a template constant so that
// no FMA carries a predicate. a.causal: keys after the query masked, and a
// warp skips the key tiles wholly after its queries. [BENCHMARKS: Attention: fp32]
template <int DP, bool VEC>
__global__ void __launch_bounds__(256, DP <= 64 ? 2 : 1) vit__attention_fma_kernel(vit__attn_args a, float sl2) {
    vit__pdl_wait();
    vit__pdl_launch();
    const int QI = 4, WQ = VIT__ATTF_WQ, BKV = 64, LD = DP + 4, LP = WQ + 4, DC = DP / 32, CPR = DP / 4;
    const int nt = blockDim.x, BQ = (nt / 32) * WQ;
    extern __shared__ __align__(128) unsigned char vit__smem_attf[];
    float *sQ = (float *)vit__smem_attf; // [BQ][LD]
    float *sK = sQ + BQ * LD;            // [BKV][LD]
    float *sV = sK + BKV * LD;           // [BKV][DP]
    int Nq = a.Nq, N = a.Nk, b = blockIdx.z, h = blockIdx.y, q0 = blockIdx.x * BQ, D = a.D; // N: keys
    int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5, lq = lane >> 3, lk = lane & 7;
    float *sP = sV + BKV * DP + warp * BKV * LP; // this warp's P^T: [BKV][LP], query lq + 4i at column 4lq + i
    int wq = q0 + warp * WQ;                     // the warp's first query
    bool busy = wq < Nq;
    // rows r0..r0+nr-1 of the (nlim, D) slice src (row stride rs) into dst [r][ld],
    // zero past nlim and D. VEC: 16-byte cp.async chunks, the thread's column fixed
    // (CPR chunks per row, nt a multiple of CPR), one commit group; else plain loads
    int lc = (tid % CPR) * 4, lr = tid / CPR, rstep = nt / CPR;
    auto load_rows = [&](float *dst, int ld, const float *src, size_t rs, int nlim, int r0, int nr) {
        if (VEC) {
            const float *g = src + (size_t)(r0 + lr) * rs + lc;
            for (int r = lr; r < nr; r += rstep, g += rstep * rs) {
                bool ok = r0 + r < nlim && lc < D;
                vit__cp16(&dst[r * ld + lc], ok ? g : src, ok ? 16 : 0);
            }
            vit__cp_commit();
        } else {
            for (int i = tid; i < nr * DP; i += nt) {
                int r = i / DP, d = i % DP;
                dst[r * ld + d] = (r0 + r < nlim && d < D) ? src[(size_t)(r0 + r) * rs + d] : 0.0f;
            }
        }
    };
    // K(t+1) is issued once every warp is past S(t), V(t+1) once every warp is past P V(t)
    const float *gQ = (const float *)a.q + (size_t)b * a.bsq + (size_t)h * D;
    const float *gK = (const float *)a.k + (size_t)b * a.bsk + (size_t)h * D, *gV = (const float *)a.v + (size_t)b * a.bsk + (size_t)h * D;
    load_rows(sQ, LD, gQ, a.ldq, Nq, q0, BQ);
    load_rows(sK, LD, gK, a.ldk, N, 0, BKV);
    load_rows(sV, DP, gV, a.ldk, N, 0, BKV);
    float o[QI][4 * DC], mrow[QI], lrow[QI]; // mrow: running max of the unscaled scores
#pragma unroll
    for (int i = 0; i < QI; i++) {
        mrow[i] = -INFINITY; lrow[i] = 0.0f;
#pragma unroll
        for (int d = 0; d < 4 * DC; d++) o[i][d] = 0.0f;
    }
    const float *qw = sQ + (warp * WQ + lq) * LD;
    for (int k0 = 0; k0 < N; k0 += BKV) {
        bool more = k0 + BKV < N;
        if (VEC) vit__cp_wait<1>(); // Q and K(t) landed; V(t) may still be in flight
        __syncthreads();
        int kn = N - k0 < BKV ? N - k0 : BKV;
        auto scores = [&](auto jn_const) {
            const int JN = decltype(jn_const)::value;
            float s[QI][JN];
#pragma unroll
            for (int i = 0; i < QI; i++)
#pragma unroll
                for (int j = 0; j < JN; j++) s[i][j] = 0.0f;
            const float *kw = sK + lk * LD;
#pragma unroll 2
            for (int d = 0; d < DP; d += 4) {
                float4 kv[JN];
#pragma unroll
                for (int j = 0; j < JN; j++) kv[j] = *(const float4 *)&kw[8 * j * LD + d];
#pragma unroll
                for (int i = 0; i < QI; i++) {
                    float4 q = *(const float4 *)&qw[4 * i * LD + d];
#pragma unroll
                    for (int j = 0; j < JN; j++) {
                        s[i][j] = fmaf(q.x, kv[j].x, s[i][j]);
                        s[i][j] = fmaf(q.y, kv[j].y, s[i][j]);
                        s[i][j] = fmaf(q.z, kv[j].z, s[i][j]);
                        s[i][j] = fmaf(q.w, kv[j].w, s[i][j]);
                    }
                }
            }
            if (kn < BKV) // the last tile: keys past N out of the softmax
#pragma unroll
                for (int i = 0; i < QI; i++)
#pragma unroll
                    for (int j = 0; j < JN; j++)
                        if (lk + 8 * j >= kn) s[i][j] = -INFINITY;
            if (a.causal && k0 + BKV > wq) // a tile the diagonal crosses: keys after the query out
#pragma unroll
                for (int i = 0; i < QI; i++)
#pragma unroll
                    for (int j = 0; j < JN; j++)
                        if (k0 + lk + 8 * j > wq + lq + 4 * i) s[i][j] = -INFINITY;
#pragma unroll
            for (int i = 0; i < QI; i++) {
                float mx = -INFINITY;
#pragma unroll
                for (int j = 0; j < JN; j++) mx = fmaxf(mx, s[i][j]);
#pragma unroll
                for (int off = 4; off > 0; off >>= 1) mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, off));
                float mnew = fmaxf(mrow[i], mx), ms = mnew * sl2, corr = vit__exp2_ftz(fmaf(mrow[i], sl2, -ms));
                mrow[i] = mnew;
                float sum = 0.0f;
#pragma unroll
                for (int j = 0; j < JN; j++) { s[i][j] = vit__exp2_ftz(fmaf(s[i][j], sl2, -ms)); sum += s[i][j]; }
                lrow[i] = lrow[i] * corr + sum;
#pragma unroll
                for (int d = 0; d < 4 * DC; d++) o[i][d] *= corr;
            }
#pragma unroll
            for (int j = 0; j < JN; j++) *(float4 *)(sP + (lk + 8 * j) * LP + QI * lq) = make_float4(s[0][j], s[1][j], s[2][j], s[3][j]);
        };
        // past N: key groups of 8 skip their math (P V reads only keys < kn)
        bool live = busy && (!a.causal || k0 <= wq + WQ - 1); // (k0, wq multiples of 16: then k0 <= every query of the warp)
        if (live) {
            if (kn > 32) scores(vit__int<8>());
            else if (kn > 16) scores(vit__int<4>());
            else if (kn > 8) scores(vit__int<2>());
            else scores(vit__int<1>());
        }
        __syncthreads(); // every warp is past S: sK is free
        if (more) load_rows(sK, LD, gK, a.ldk, N, k0 + BKV, BKV);
        if (VEC) { if (more) vit__cp_wait<1>(); else vit__cp_wait<0>(); } // V(t) landed
        __syncthreads();
        if (live) {
            const float *pw = sP + QI * lq, *vw = sV + 4 * lk;
#pragma unroll 8
            for (int k = 0; k < kn; k++) {
                float4 p = *(const float4 *)&pw[k * LP];
#pragma unroll
                for (int c = 0; c < DC; c++) {
                    float4 v = *(const float4 *)&vw[k * DP + 32 * c];
                    float pi[QI] = {p.x, p.y, p.z, p.w};
#pragma unroll
                    for (int i = 0; i < QI; i++) {
                        o[i][4 * c] = fmaf(pi[i], v.x, o[i][4 * c]);
                        o[i][4 * c + 1] = fmaf(pi[i], v.y, o[i][4 * c + 1]);
                        o[i][4 * c + 2] = fmaf(pi[i], v.z, o[i][4 * c + 2]);
                        o[i][4 * c + 3] = fmaf(pi[i], v.w, o[i][4 * c + 3]);
                    }
                }
            }
        }
        __syncthreads(); // every warp is past P V: sV is free
        if (more) load_rows(sV, DP, gV, a.ldk, N, k0 + BKV, BKV);
    }
#pragma unroll
    for (int i = 0; i < QI; i++) {
        float l = lrow[i];
#pragma unroll
        for (int off = 4; off > 0; off >>= 1) l += __shfl_xor_sync(0xffffffffu, l, off);
        int row = wq + lq + 4 * i;
        if (row >= Nq) continue;
        float inv = 1.0f / l;
        float *op = (float *)a.out + (size_t)b * a.bso + (size_t)row * a.ldo + (size_t)h * D;
#pragma unroll
        for (int c = 0; c < DC; c++) {
            int d = 4 * lk + 32 * c;
            if (VEC) {
                if (d < D) *(float4 *)&op[d] = make_float4(o[i][4 * c] * inv, o[i][4 * c + 1] * inv, o[i][4 * c + 2] * inv, o[i][4 * c + 3] * inv);
            } else {
#pragma unroll
                for (int e = 0; e < 4; e++)
                    if (d + e < D) op[d + e] = o[i][4 * c + e] * inv;
            }
        }
    }
}

// The dynamic shared memory of an attention plan's kernel (vit__plan_attention)
// at head size D (padded as the launchers pad it) and Nk keys; esize: bytes of
// the compute dtype (the wgmma kernel's sizes are its bf16 and fp16 instances')
static int vit__attn_smem(int kernel, int warps, int D, int Nk, int esize) {
    int dp = D <= 16 ? 16 : D <= 32 ? 32 : D <= 64 ? 64 : 128;
    if (kernel == VIT__K_ATT_FMA) {
        dp = D <= 32 ? 32 : D <= 64 ? 64 : 128;
        return ((warps * VIT__ATTF_WQ + 64) * (dp + 4) + 64 * dp + warps * 64 * (VIT__ATTF_WQ + 4)) * 4;
    }
    if (kernel == VIT__K_ATT_WGMMA) {
        int nc = warps / 4 - 1;
        return D == 128 ? VIT__ATTW_SMEM(128, 2, __nv_bfloat16) : nc == 3 ? VIT__ATTW_SMEM(64, 3, __nv_bfloat16) : VIT__ATTW_SMEM(64, 2, __nv_bfloat16);
    }
    int full = kernel == VIT__K_ATT_FULL || kernel == VIT__K_ATT_FULL32 || kernel == VIT__K_ATT_SPLIT_KEYS, ks = kernel == VIT__K_ATT_SPLIT_KEYS ? 4 : 1;
    int bq = (kernel == VIT__K_ATT_STREAM32 || kernel == VIT__K_ATT_FULL32 ? 32 : 16) * warps / ks;
    int nk = full ? (Nk + 15) & ~15 : 2 * 64;
    return (bq + 2 * nk) * (dp + 8) * esize + (ks > 1 ? ks * bq * (dp + 2) * 4 : 0);
}

template <typename T, int DP, bool VEC, int NW, bool FULL, int KS = 1, int RM = 1>
static vit_status vit__attention_mma_nw(const vit__attn_args &a, float sl2, vit_model *m, cudaStream_t st, const char *pf, size_t pf_bytes) {
    const int BQ = 16 * RM * NW / KS;
    int nk = FULL ? (a.Nk + 15) & ~15 : 2 * 64, smem = (BQ + 2 * nk) * (DP + 8) * (int)sizeof(T) + (KS > 1 ? KS * BQ * (DP + 2) * 4 : 0);
    dim3 grid((unsigned)((a.Nq + BQ - 1) / BQ), (unsigned)a.H, (unsigned)a.B);
    VIT__TRY(vit__smem_check(m, smem, "attention (mma.sync)"));
    VIT__CUDA_TRY(m, cudaFuncSetAttribute(vit__attention_mma_kernel<T, DP, VEC, NW, FULL, KS, RM>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    VIT__CUDA_TRY(m, vit__launch(m, vit__attention_mma_kernel<T, DP, VEC, NW, FULL, KS, RM>, grid, NW * 32, smem, st, a, sl2, pf, pf_bytes));
    return VIT_OK;
}

// The plan's mma.sync attention shape
template <typename T, int DP, bool VEC>
static vit_status vit__attention_mma_shape(const vit__attn_args &a, const vit__plan &p, float sl2, vit_model *m, cudaStream_t st, const char *pf, size_t pf_bytes) {
    if (p.kernel == VIT__K_ATT_SPLIT_KEYS) return vit__attention_mma_nw<T, DP, VEC, 8, true, 4>(a, sl2, m, st, pf, pf_bytes);
    if (p.kernel == VIT__K_ATT_FULL) return p.warps == 8 ? vit__attention_mma_nw<T, DP, VEC, 8, true>(a, sl2, m, st, pf, pf_bytes)
                                                         : vit__attention_mma_nw<T, DP, VEC, 4, true>(a, sl2, m, st, pf, pf_bytes);
    if (p.kernel == VIT__K_ATT_FULL32) return vit__attention_mma_nw<T, DP, VEC, 4, true, 1, DP <= 64 ? 2 : 1>(a, sl2, m, st, pf, pf_bytes); // (DP <= 64 only)
    if (p.kernel == VIT__K_ATT_STREAM32) return vit__attention_mma_nw<T, DP, VEC, 4, false, 1, DP <= 64 ? 2 : 1>(a, sl2, m, st, pf, pf_bytes); // (planned for DP <= 64 only)
    return vit__attention_mma_nw<T, DP, VEC, 4, false>(a, sl2, m, st, pf, pf_bytes);
}

// Whether every row of q, k, v (and, fp32, out) starts 16 bytes aligned: the
// kernels' vector loads (elements of esize bytes).
static int vit__attn_vec(const vit__attn_args &a, size_t esize, int with_out) {
    size_t e = 16 / esize;
    int ok = a.D % e == 0 && a.ldq % e == 0 && a.ldk % e == 0 && a.bsq % e == 0 && a.bsk % e == 0 && vit__aligned16(a.q) && vit__aligned16(a.k) &&
             vit__aligned16(a.v);
    if (with_out) ok = ok && a.ldo % e == 0 && a.bso % e == 0 && vit__aligned16(a.out);
    return ok;
}

template <typename T, int DP, int NC>
static vit_status vit__attention_wgmma_launch(const vit__attn_args &a, const vit__plan &p, float sl2, vit_model *m, cudaStream_t st, const char *pf, size_t pf_bytes) {
    CUtensorMap mq, mk, mv;
    CUtensorMapDataType ty = vit__tmap_dtype<T>();
    int C = a.H * a.D;
    VIT__TRY(vit__tensor_map(m, &mq, a.q, a.Nq, C, 64 * NC, ty, a.B, a.ldq, a.bsq));
    VIT__TRY(vit__tensor_map(m, &mk, a.k, a.Nk, C, VIT__ATTW_BKV, ty, a.B, a.ldk, a.bsk));
    VIT__TRY(vit__tensor_map(m, &mv, a.v, a.Nk, C, VIT__ATTW_BKV, ty, a.B, a.ldk, a.bsk));
    size_t items = vit__attw_items(a.B, a.H, a.Nq, NC);
    int grid = items < (size_t)m->cuda->sm_count ? (int)items : m->cuda->sm_count, rev = vit__walk(m->cuda);
    VIT__TRY(vit__smem_check(m, VIT__ATTW_SMEM(DP, NC, T), "attention (wgmma)"));
    VIT__CUDA_TRY(m, cudaFuncSetAttribute(vit__attention_wgmma_kernel<T, DP, NC>, cudaFuncAttributeMaxDynamicSharedMemorySize, VIT__ATTW_SMEM(DP, NC, T)));
    VIT__CUDA_TRY(m, vit__launch(m, vit__attention_wgmma_kernel<T, DP, NC>, grid, 128 * (NC + 1), VIT__ATTW_SMEM(DP, NC, T), st, mq, mk, mv, a, sl2, p.ping, rev,
                                 pf, pf_bytes));
    return VIT_OK;
}

// Whether vit__attention_wgmma_kernel can run a: an sm_90a GPU and binary, head
// size 64 or 128, every row and image of q, k, v 16-byte aligned (TMA), out's
// 4-byte aligned (pairs), queries per image (not shared: TMA strides are not 0),
// and work items the kernel counts in an int.
template <typename T>
static int vit__attn_wgmma_fits(const vit__attn_args &a, const vit_model *m) {
    return m->cuda->wgmma && (a.D == 64 || a.D == 128) && a.bsq && vit__attw_items(a.B, a.H, a.Nq, 2) <= (size_t)INT_MAX && vit__attn_vec(a, sizeof(T), 0) &&
           a.ldo % 2 == 0 && a.bso % 2 == 0 && ((uintptr_t)a.out & 3) == 0;
}

template <typename T, int DP>
static vit_status vit__attention_mma_launch(const vit__attn_args &a, const vit__plan &p, float sl2, vit_model *m, cudaStream_t st, const char *pf, size_t pf_bytes) {
    if (p.vec) return vit__attention_mma_shape<T, DP, true>(a, p, sl2, m, st, pf, pf_bytes);
    return vit__attention_mma_shape<T, DP, false>(a, p, sl2, m, st, pf, pf_bytes);
}

// The plan's CTAs of p.warps warps over the query tiles of 16 of a head
template <int DP, bool VEC>
static vit_status vit__attention_fma_launch(const vit__attn_args &a, const vit__plan &p, float sl2, vit_model *m, cudaStream_t st) {
    int tiles = (a.Nq + VIT__ATTF_WQ - 1) / VIT__ATTF_WQ, nw = p.warps, ctas = (tiles + nw - 1) / nw;
    int smem = ((nw * VIT__ATTF_WQ + 64) * (DP + 4) + 64 * DP + nw * 64 * (VIT__ATTF_WQ + 4)) * 4;
    dim3 grid((unsigned)ctas, (unsigned)a.H, (unsigned)a.B);
    VIT__TRY(vit__smem_check(m, smem, "attention (fp32)"));
    VIT__CUDA_TRY(m, cudaFuncSetAttribute(vit__attention_fma_kernel<DP, VEC>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    VIT__CUDA_TRY(m, vit__launch(m, vit__attention_fma_kernel<DP, VEC>, grid, nw * 32, smem, st, a, sl2));
    return VIT_OK;
}

template <int DP>
static vit_status vit__attention_fma_vec(const vit__attn_args &a, const vit__plan &p, float sl2, vit_model *m, cudaStream_t st) {
    if (p.vec) return vit__attention_fma_launch<DP, true>(a, p, sl2, m, st);
    return vit__attention_fma_launch<DP, false>(a, p, sl2, m, st);
}

// fp32 (the weights' prefetch region unused: fp32 passes are long)
static inline vit_status vit__attention_go(const vit__attn_args &a, float sl2, vit_model *m, cudaStream_t st, const char *, size_t, float *) { // (inline: unused with VIT_CUDA_NO_F32)
    vit__plan p = vit__plan_attention(m->cuda, 0, 0, vit__attn_vec(a, 4, 1), a.B, a.H, a.Nq, a.Nk, a.D);
    VIT__HOOK_RAN(m->cuda, p);
    if (a.D <= 32) return vit__attention_fma_vec<32>(a, p, sl2, m, st);
    if (a.D <= 64) return vit__attention_fma_vec<64>(a, p, sl2, m, st);
    return vit__attention_fma_vec<128>(a, p, sl2, m, st);
}

template <typename T>
static vit_status vit__attention_go(const vit__attn_args &a, float sl2, vit_model *m, cudaStream_t st, const char *pf, size_t pf_bytes, T *) {
    int wgmma_fits = vit__attn_wgmma_fits<T>(a, m) && !a.causal; // (the wgmma kernel has no causal mask)
    vit__plan p = vit__plan_attention(m->cuda, 1, wgmma_fits, vit__attn_vec(a, sizeof(T), 0), a.B, a.H, a.Nq, a.Nk, a.D);
    VIT__HOOK_RAN(m->cuda, p);
    if (p.kernel == VIT__K_ATT_WGMMA) {
        if (a.D == 128) return vit__attention_wgmma_launch<T, 128, 2>(a, p, sl2, m, st, pf, pf_bytes);
        if (p.warps == 16) return vit__attention_wgmma_launch<T, 64, 3>(a, p, sl2, m, st, pf, pf_bytes);
        return vit__attention_wgmma_launch<T, 64, 2>(a, p, sl2, m, st, pf, pf_bytes);
    }
    if (a.D <= 16) return vit__attention_mma_launch<T, 16>(a, p, sl2, m, st, pf, pf_bytes);
    if (a.D <= 32) return vit__attention_mma_launch<T, 32>(a, p, sl2, m, st, pf, pf_bytes);
    if (a.D <= 64) return vit__attention_mma_launch<T, 64>(a, p, sl2, m, st, pf, pf_bytes);
    return vit__attention_mma_launch<T, 128>(a, p, sl2, m, st, pf, pf_bytes);
}

// The GPU twin of vit__attention_cpu (scratch and threads replaced by model and
// stream): a's pointers are T. Head size D at most 128. pf, pf_bytes: a region
// of weights the attention CTAs fetch into L2 for the GEMMs after it (NULL: none).
template <typename T>
static vit_status vit__attention_cuda(const vit__attn_args &a, vit_model *m, cudaStream_t st, const void *pf = NULL, size_t pf_bytes = 0) {
    VIT__HOOK_RAN(m->cuda, vit__plan_none());
    if (a.B <= 0 || a.Nq <= 0) return VIT_OK;
    if (a.H <= 0 || a.D <= 0 || a.D > 128 || a.Nk <= 0)
        return vit__fail(m->error, VIT_ERROR_UNSUPPORTED, "attention: head size %d, %d keys; the GPU kernels take head sizes up to 128 and at least one key", a.D,
                         a.Nk);
    float sl2 = 1.0f / sqrtf((float)a.D) * 1.4426950408889634f; // softmax scale, in log2 units
    return vit__attention_go(a, sl2, m, st, (const char *)pf, pf_bytes, (T *)0);
}

// >>op pool -- CPU reference: vit__pool_cpu
// Pooling of the final tokens into one vector per image (and head) on the GPU.

// pooled (heads, B, C) = prefix tokens 0 .. heads-1 (VIT_POOL_TOKEN), or the
// mean of the tokens after the prefix (avg, heads 1). Parallel over (C / 256,
// B); each thread sums its column over tokens in order, as the CPU does.
__global__ void vit__pool_kernel(float *pooled, const float *x, int N, int C, int avg, int prefix, int heads) {
    vit__pdl_wait();
    vit__pdl_launch();
    int c = blockIdx.x * blockDim.x + threadIdx.x, b = blockIdx.y;
    size_t BC = (size_t)gridDim.y * C;
    if (c >= C) return;
    const float *xb = x + (size_t)b * N * C;
    if (!avg) {
        for (int h = 0; h < heads; h++) pooled[h * BC + (size_t)b * C + c] = xb[(size_t)h * C + c];
        return;
    }
    float s = 0.0f;
    for (int t = prefix; t < N; t++) s += xb[(size_t)t * C + c];
    pooled[(size_t)b * C + c] = s * (1.0f / (float)(N - prefix));
}

// With heads > 1: plane `heads` of pooled (B, C) = the mean of the planes
// before it, summed in plane order as the CPU does. Parallel over elements.
__global__ void vit__pool_mean_kernel(float *pooled, size_t BC, int heads) {
    vit__pdl_wait();
    vit__pdl_launch();
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= BC) return;
    float s = pooled[i];
    for (int h = 1; h < heads; h++) s += pooled[(size_t)h * BC + i];
    pooled[(size_t)heads * BC + i] = s * (1.0f / (float)heads);
}

// The GPU twin of vit__pool_cpu: pooling, fc_norm (when given) in place, and
// with heads > 1 the planes' mean.
static vit_status vit__pool_cuda(float *pooled, const float *x, int B, int N, int C, vit_pool pool, int prefix, int heads, const float *fc_norm_w,
                                 const float *fc_norm_b, float eps, vit_model *m, cudaStream_t st) {
    if (B <= 0) return VIT_OK;
    size_t BC = (size_t)B * C;
    dim3 grid((unsigned)((C + 255) / 256), (unsigned)B);
    VIT__CUDA_TRY(m, vit__launch(m, vit__pool_kernel, grid, 256, 0, st, pooled, x, N, C, pool == VIT_POOL_AVG, prefix, heads));
    if (fc_norm_w) VIT__TRY(vit__layernorm_cuda<float>(pooled, pooled, fc_norm_w, fc_norm_b, heads * B, C, (size_t)C, (size_t)C, eps, m, st));
    if (heads > 1) VIT__CUDA_TRY(m, vit__launch(m, vit__pool_mean_kernel, dim3((unsigned)((BC + 255) / 256)), 256, 0, st, pooled, BC, heads));
    return VIT_OK;
}

// >>op head -- CPU reference: vit__head_cpu
// The classifier head on the GPU; after it, attention pooling (vit__map_pool_cuda).

// logits (B, K) = the mean over heads h of pooled plane h (B, C) @ head_w[h]^T
// + head_b[h], head_w (heads, K, C) in T as the linear layers' weights.
// Parallel over (K / 8, B / 8): one warp per class and group of 8 images. VEC
// (C a multiple of 16 bytes of T, aligned): lane l keeps the first head's
// 16-byte chunks l, l + 32, ... of the class's weights in registers, loaded
// before the PDL wait (weights: at small batches they arrive while the
// previous kernel runs), then dots them with each image's pooled row; the
// lanes' sums meet by shuffles in a fixed order (the same bits every run), the
// heads' logits are added in head order, as vit__head_cpu. [BENCHMARKS: Head]
template <typename TW, bool VEC>
__global__ void __launch_bounds__(256) vit__head_kernel(float *logits, const float *pooled, const TW *w, const float *bias, int B, int C, int K, int heads) {
    const int E = 16 / sizeof(TW), WV = 8; // elements per chunk; chunks a lane keeps (C <= 32 * E * WV in registers)
    int lane = threadIdx.x & 31, k = blockIdx.x * 8 + (threadIdx.x >> 5), b0 = blockIdx.y * 8;
    int nb = B - b0 < 8 ? B - b0 : 8, nch = VEC ? C / E : 0;
    const TW *wk = w + (size_t)(k < K ? k : 0) * C;
    uint4 wr[WV];
#pragma unroll
    for (int i = 0; i < WV; i++) wr[i] = VEC && k < K && lane + 32 * i < nch ? __ldg((const uint4 *)wk + lane + 32 * i) : make_uint4(0, 0, 0, 0);
    vit__pdl_wait();
    vit__pdl_launch();
    if (k >= K) return;
    float acc[8];
    // chunk ch of head h's weights (the first head's first chunks from registers) . the same of p
    auto dot = [&](float &a, const float *p, const TW *wh, int h) {
        auto chunk = [&](uint4 wv, int ch) {
            const TW *we = (const TW *)&wv;
#pragma unroll
            for (int e = 0; e < E; e += 4) {
                float4 pv = *(const float4 *)(p + ch * E + e);
                a = fmaf(pv.x, vit__f32(we[e]), a);
                a = fmaf(pv.y, vit__f32(we[e + 1]), a);
                a = fmaf(pv.z, vit__f32(we[e + 2]), a);
                a = fmaf(pv.w, vit__f32(we[e + 3]), a);
            }
        };
        if (VEC) {
            if (h == 0) {
#pragma unroll
                for (int i = 0; i < WV; i++)
                    if (lane + 32 * i < nch) chunk(wr[i], lane + 32 * i);
            }
            for (int ch = lane + (h == 0 ? 32 * WV : 0); ch < nch; ch += 32) chunk(__ldg((const uint4 *)wh + ch), ch);
        } else {
            for (int c = lane; c < C; c += 32) a = fmaf(p[c], vit__f32(wh[c]), a);
        }
    };
#pragma unroll
    for (int j = 0; j < 8; j++) {
        acc[j] = 0.0f;
        if (j >= nb) continue;
        dot(acc[j], pooled + (size_t)(b0 + j) * C, wk, 0);
        acc[j] = vit__warp_sum(acc[j]) + (bias ? bias[k] : 0.0f);
    }
    for (int h = 1; h < heads; h++) // the other heads' logits, added in head order
#pragma unroll
        for (int j = 0; j < 8; j++) {
            if (j >= nb) continue;
            float a = 0.0f;
            dot(a, pooled + ((size_t)h * B + b0 + j) * C, wk + (size_t)h * K * C, h);
            acc[j] += vit__warp_sum(a) + (bias ? bias[(size_t)h * K + k] : 0.0f);
        }
    if (lane < nb) {
        float v = acc[0];
#pragma unroll
        for (int j = 1; j < 8; j++) v = lane == j ? acc[j] : v;
        logits[(size_t)(b0 + lane) * K + k] = heads > 1 ? v * (1.0f / (float)heads) : v;
    }
}

// The GPU twin of vit__head_cpu; head_w is (heads, K, C) in T.
template <typename T>
static vit_status vit__head_cuda(float *logits, const float *pooled, const T *head_w, const float *head_b, int B, int C, int K, int heads, vit_model *m,
                                 cudaStream_t st) {
    if (B <= 0 || K <= 0) return VIT_OK;
    dim3 grid((unsigned)((K + 7) / 8), (unsigned)((B + 7) / 8));
    if ((C * sizeof(T)) % 16 == 0 && vit__aligned16(head_w) && vit__aligned16(pooled))
        VIT__CUDA_TRY(m, vit__launch(m, vit__head_kernel<T, true>, grid, 256, 0, st, logits, pooled, head_w, head_b, B, C, K, heads));
    else VIT__CUDA_TRY(m, vit__launch(m, vit__head_kernel<T, false>, grid, 256, 0, st, logits, pooled, head_w, head_b, B, C, K, heads));
    return VIT_OK;
}

// >>persistent -- CPU reference: the blocks of vit__forward_cpu
// Small batches (1 .. VIT__PK_IMAGES images): every transformer block of the
// pass in one persistent kernel, not five launches a block. At batch 1 a
// block's kernels each hold about a microsecond of work and cost several in
// launch, tail and dependency gaps; here each CTA claims work items in order
// from a queue in global memory and runs them back to back:
//   per block  qkv tiles -> attention (image, head, 128 queries) -> proj
//              tiles (K split) -> ln2 rows -> fc1 tiles (+ act) -> fc2 tiles
//              (K split) -> the next block's ln1 rows
// The GEMM tiles are the mma.sync kernel's (vit__mma_tile, 8 warps), 64
// columns by 64 rows (tests and benchmarks: 128 or 256), the attention the
// mma.sync kernel's query tiles (vit__attention_mma_tile). An item waits only for the items whose outputs it
// reads, through counters in global memory (an attention head for its q, k, v
// column tiles, a proj tile for the heads in its K slice, an fc2 tile for
// the fc1 tiles in its K slice, a LayerNorm for its rows' residual tiles), and
// loads its weights' first stages before it waits. A K-split tile's slices
// store raw sums; the slice that arrives last adds them in slice order (the
// same bits every run), + bias, x layer scale, into the residual stream x.
// Progress whatever number of CTAs runs (a shared GPU, MPS, one CTA): items
// are claimed in queue order and each waits only on items before it, which
// CTAs that are running have claimed. Every buffer's reuse from block to block
// is ordered by the counters (a proj tile waits for every image's attention
// of its heads, so the next block's qkv tiles come after this block's
// attention reads); test_ops --host replays the queue and checks it.
// Activations written during the pass are read around L1 (cp.async.cg,
// __ldcg): another SM may have written them since this one cached the line.
// The last CTA to finish zeroes the counters for the next pass.
// Runs: bf16/fp16 compute, fp32 residual stream, LayerNorm blocks without
// qk-norm or SwiGLU, head size <= 64 (a multiple of 8), C and mlp_dim
// multiples of 8 (vit__pk_fits); the patch embedding before it and the tail
// after it are the usual kernels. [BENCHMARKS: Batch 1]
#define VIT__PK_IMAGES 8 // the largest batch it runs (its workspace is sized for that)
#ifdef VIT_TEST_HOOKS    // only tests and benchmarks run it so far (vit__plan_persistent): other builds make no workspace
#define VIT__PK_BUILT 1
#else
#define VIT__PK_BUILT 0
#endif
#define VIT__PK_SPLIT 4  // K slices of a proj or fc2 tile at most
#define VIT__PK_LN 8     // rows of a LayerNorm work item (one per warp: its loads in one round trip)
// Attention work items: where the GPU allows a block 116 KB of shared memory
// (sm_80/87/90/100) and for at most VIT__ATTN_FULL_MAX keys, 64 query rows with all of K and V at once, the keys
// split over two warps a row (the kernel's split-key form, one load round
// trip); else 128 rows, K and V streamed (8 warps of 16 rows).
#define VIT__PK_BQ_FULL 64
#define VIT__PK_BQ_STREAM 128
#define VIT__PK_PAD 32   // a counter per 128-byte line: the pollers of one do not queue behind another's
// GEMM tiles: BM x 64 x 32 mma.sync tiles, BM (the args' bm) 64 rows (8
// warps of 32 x 16) through an 8-stage ring (64 KB); 128 (warps of 32 x 32),
// 6 stages; or 256 (warps of 32 x 64), 4 stages, which at batch 1 reads each
// weight once. (A 24-stage ring, most of a tile's weights in flight before its
// inputs are ready, measured slower: the SMs' early loads crowd the critical
// path's out of L2 and HBM bandwidth. [BENCHMARKS: Batch 1])
#define VIT__PK_ST(BM) ((BM) == 64 ? 8 : (BM) == 128 ? 6 : 4)
#define VIT__PK_GEMM_SMEM(BM) (VIT__PK_ST(BM) * ((BM) + 64) * VIT__MMA_BK * 2)

enum { VIT__PK_QKV, VIT__PK_ATT, VIT__PK_PROJ, VIT__PK_LN2, VIT__PK_FC1, VIT__PK_FC2, VIT__PK_LN1, VIT__PK_STAGES };

typedef struct vit__pk_args {
    const vit__cuda_block *blocks; // (depth), on the device
    float *x;                      // (rows, C) the residual stream
    void *xn, *ao, *hb;            // (rows, C) LayerNorm out, (rows, C) attention out, (rows, M) fc1 out, in T
    vit__attn_args att;            // over qkv (rows, 3C) into ao
    float *part;                   // (VIT__PK_SPLIT, rows, C) split-K slices' raw sums
    unsigned *sync;                // nsync counters (VIT__PK_PAD apart), zero between passes
    unsigned long long *trace;     // tests and benchmarks (vit__test_hook.pk_trace): per work item, or NULL
    int depth, rows, N, C, D, H, M, act;
    float eps, sl2;
    int bm;                        // rows of a GEMM tile: 64, 128 or 256
    int mt, ct, qt, ft;            // bm-row tiles; 64-column tiles of C, 3C and M
    int kbc, ksp, kbp, ksf, kbf;   // K steps (of VIT__MMA_BK) of C; proj's and fc2's K slices and steps per slice
    int full;                      // attention: the whole-K/V, split-key form (VIT__PK_BQ_FULL rows an item)
    int aq, ab;                    // attention query tiles per image, work items per head
    int n[VIT__PK_STAGES];         // work items of each stage of a block (VIT__PK_LN1: the next block's ln1)
    int per_block, total;
    int cpb;                       // counters per block, at these offsets:
    int o_qkv, o_att, o_parr, o_res1, o_ln2, o_fc1, o_farr, o_res2, o_ln1;
    int queue, done, nsync;        // the queue's head, the CTAs finished; counters in all
} vit__pk_args;

static __device__ __forceinline__ unsigned vit__ld_relaxed(const unsigned *p) {
    unsigned v;
    asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];\n" : "=r"(v) : "l"(p) : "memory");
    return v;
}

static __device__ __forceinline__ unsigned long long vit__globaltimer() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;\n" : "=l"(t));
    return t;
}

static __shared__ unsigned long long vit__pk_ready; // when this CTA's work item had its inputs (the trace)

// Counter i of a's
static __device__ __forceinline__ unsigned *vit__pk_ctr(const vit__pk_args &a, int i) { return a.sync + (size_t)i * VIT__PK_PAD; }

// Returns when counters c, c + 1, .. c + n - 1 all reached target (thread 0
// polls, relaxed, then fences: the acquire; the barrier orders every thread's
// reads after it).
static __device__ __forceinline__ void vit__pk_until(const vit__pk_args &a, int c, int n, unsigned target) {
    if (threadIdx.x == 0) {
        for (int i = 0; i < n; i++)
            while (vit__ld_relaxed(vit__pk_ctr(a, c + i)) < target) __nanosleep(32);
        __threadfence();
        if (a.trace) vit__pk_ready = vit__globaltimer();
    }
    __syncthreads();
}

// counter c += 1 once every thread's stores of this work item are done
static __device__ __forceinline__ void vit__pk_signal(const vit__pk_args &a, int c) {
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence();
        atomicAdd(vit__pk_ctr(a, c), 1u);
    }
}

// The wait of a GEMM tile, between its first weight stages and its A rows
struct vit__pk_gate {
    const vit__pk_args *a;
    int c, n;
    unsigned target;
    __device__ __forceinline__ void operator()() const { vit__pk_until(*a, c, n, target); }
};

// LayerNorm items of row tile mt: VIT__PK_LN rows each
static VIT__HD inline int vit__pk_lnq(const vit__pk_args &a, int mt) {
    int left = a.rows - mt * a.bm;
    return left >= a.bm ? a.bm / VIT__PK_LN : (left + VIT__PK_LN - 1) / VIT__PK_LN;
}

// fc1 column tiles in fc2's K slice ks (slices are whole 64-column tiles)
static VIT__HD inline int vit__pk_fc1_in(const vit__pk_args &a, int ks) {
    int t0 = ks * a.kbf / 2, t1 = (ks + 1) * a.kbf / 2;
    return (t1 < a.ft ? t1 : a.ft) - t0;
}

// Rows r0 .. r0 + VIT__PK_LN - 1 of x through a LayerNorm into out (T), two
// passes over each row as vit__layernorm_cpu; a warp per row.
template <typename T>
static __device__ __forceinline__ void vit__pk_layernorm(const vit__pk_args &a, int r0, const float *w, const float *b) {
    int lane = threadIdx.x & 31, C = a.C;
    for (int row = r0 + (threadIdx.x >> 5); row < r0 + VIT__PK_LN && row < a.rows; row += 8) {
        const float *xr = a.x + (size_t)row * C;
        T *o = (T *)a.xn + (size_t)row * C;
        if (C % 128 == 0 && C <= 1024) { // the row in registers, its loads all in flight at once
            float4 v[8];
            int nv = C / 128;
            float sum = 0.0f, var = 0.0f;
#pragma unroll
            for (int j = 0; j < 8; j++)
                if (j < nv) v[j] = __ldcg((const float4 *)xr + lane + 32 * j);
#pragma unroll
            for (int j = 0; j < 8; j++)
                if (j < nv) sum += (v[j].x + v[j].y) + (v[j].z + v[j].w);
            float mean = vit__warp_sum(sum) / (float)C;
#pragma unroll
            for (int j = 0; j < 8; j++)
                if (j < nv) {
                    float d0 = v[j].x - mean, d1 = v[j].y - mean, d2 = v[j].z - mean, d3 = v[j].w - mean;
                    var += (d0 * d0 + d1 * d1) + (d2 * d2 + d3 * d3);
                }
            float rstd = 1.0f / sqrtf(vit__warp_sum(var) / (float)C + a.eps);
#pragma unroll
            for (int j = 0; j < 8; j++)
                if (j < nv) {
                    int c = (lane + 32 * j) * 4;
                    float4 ww = __ldg((const float4 *)(w + c)), bb = __ldg((const float4 *)(b + c));
                    uint2 pk = make_uint2(vit__pack2<T>((v[j].x - mean) * rstd * ww.x + bb.x, (v[j].y - mean) * rstd * ww.y + bb.y),
                                          vit__pack2<T>((v[j].z - mean) * rstd * ww.z + bb.z, (v[j].w - mean) * rstd * ww.w + bb.w));
                    *(uint2 *)(o + c) = pk;
                }
            continue;
        }
        float sum = 0.0f, var = 0.0f;
        for (int c = lane; c < C; c += 32) sum += __ldcg(xr + c);
        float mean = vit__warp_sum(sum) / (float)C;
        for (int c = lane; c < C; c += 32) { float d = __ldcg(xr + c) - mean; var += d * d; }
        float rstd = 1.0f / sqrtf(vit__warp_sum(var) / (float)C + a.eps);
        for (int c = lane; c < C; c += 32) o[c] = vit__cvt<T>((__ldcg(xr + c) - mean) * rstd * __ldg(w + c) + __ldg(b + c));
    }
}

// A K-split tile's end: its slice stored, the last of the splits to arrive
// adds them in slice order, + bias, times the layer scale, into x (as
// vit__splitk_reduce and vit__ep_out's RESIDUAL), then counts the tile in res.
// (C % 8 == 0: four columns at a time, 16-byte aligned)
static __device__ __forceinline__ void vit__pk_reduce(const vit__pk_args &a, int arrive, int splits, int mt, int nt, const float *bias, const float *ls,
                                                      int res) {
    __shared__ int last;
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence();
        last = atomicAdd(vit__pk_ctr(a, arrive), 1u) == (unsigned)splits - 1;
        if (last) __threadfence();
    }
    __syncthreads();
    if (!last) return;
    size_t plane = (size_t)a.rows * a.C;
    for (int p = threadIdx.x; p < a.bm * 16; p += blockDim.x) {
        int row = mt * a.bm + p / 16, col = nt * 64 + (p % 16) * 4;
        if (row >= a.rows || col >= a.C) continue;
        size_t i = (size_t)row * a.C + col;
        float4 v = __ldcg((const float4 *)(a.part + i)), x = __ldcg((const float4 *)(a.x + i));
        for (int z = 1; z < splits; z++) {
            float4 u = __ldcg((const float4 *)(a.part + z * plane + i));
            v.x += u.x; v.y += u.y; v.z += u.z; v.w += u.w;
        }
        if (bias) { float4 bb = __ldg((const float4 *)(bias + col)); v.x += bb.x; v.y += bb.y; v.z += bb.z; v.w += bb.w; }
        float4 s = ls ? __ldg((const float4 *)(ls + col)) : make_float4(1.0f, 1.0f, 1.0f, 1.0f);
        x.x = vit__epi_residual(x.x, s.x, v.x); x.y = vit__epi_residual(x.y, s.y, v.y);
        x.z = vit__epi_residual(x.z, s.z, v.z); x.w = vit__epi_residual(x.w, s.w, v.w);
        __stcg((float4 *)(a.x + i), x);
    }
    vit__pk_signal(a, res);
}

// One work item: its place (stage, block, tile), the counters it waits for
// and the one it adds to when done. The kernel runs it; the host test of the
// schedule (test_ops --host) replays the queue with any number of CTAs and
// checks that every pair of items touching the same bytes is ordered.
typedef struct vit__pk_work {
    int stage, l;
    int mt, nt, ks;     // GEMM: row tile, column tile, K slice; LayerNorm: its rows' row tile
    int kb0, kb1;       // GEMM: K steps
    int h, b, qtile;    // attention: head, image, query tile
    int r0;             // LayerNorm: its first row
    int nw;             // counter ranges waited for (at most 3: an attention item's q, k and v)
    int wc[3], wn[3];   // first counter and count of each
    unsigned wt[3];     // and the value each must reach
    int signal;         // += 1 when done (a K-split tile: its arrival counter)
    int split, res;     // a K-split tile: slices; the last to arrive reduces, then res += 1
} vit__pk_work;

static VIT__HD inline void vit__pk_wait_on(vit__pk_work *w, int c, int n, unsigned target) {
    w->wc[w->nw] = c; w->wn[w->nw] = n; w->wt[w->nw] = target; w->nw++;
}

// Work item i of the queue
static VIT__HD inline void vit__pk_decode(const vit__pk_args &a, int i, vit__pk_work *w) {
    memset(w, 0, sizeof(*w));
    int l = i / a.per_block, r = i % a.per_block, stage = 0;
    while (r >= a.n[stage]) r -= a.n[stage++];
    int cb = l * a.cpb; // this block's counters
    w->stage = stage; w->l = l;
    switch (stage) {
    case VIT__PK_QKV: { // column tiles in head order (q, k, v of head tile j), each over every row tile
        int j = r / a.mt;
        w->mt = r % a.mt; w->nt = a.qt == 3 * a.ct ? (j % 3) * a.ct + j / 3 : j; w->kb0 = 0; w->kb1 = a.kbc;
        if (l) vit__pk_wait_on(w, cb - a.cpb + a.o_ln1 + w->mt, 1, (unsigned)vit__pk_lnq(a, w->mt)); // block 0's xn: the kernel before
        w->signal = cb + a.o_qkv + w->nt;
        break;
    }
    case VIT__PK_ATT: { // heads in order, then images and query tiles
        w->h = r / a.ab; w->b = (r % a.ab) / a.aq; w->qtile = r % a.aq;
        for (int part = 0; part < 3; part++) { // the column tiles of the head's q, k and v, over every row tile
            int t0 = (part * a.C + w->h * a.D) / 64, t1 = (part * a.C + w->h * a.D + a.D - 1) / 64;
            vit__pk_wait_on(w, cb + a.o_qkv + t0, t1 - t0 + 1, (unsigned)a.mt);
        }
        w->signal = cb + a.o_att + w->h;
        break;
    }
    case VIT__PK_PROJ:
    case VIT__PK_FC2: {
        int fc2 = stage == VIT__PK_FC2, kbs = fc2 ? a.kbf : a.kbp;
        w->split = fc2 ? a.ksf : a.ksp;
        if (fc2) { w->mt = r / (w->split * a.ct); w->ks = (r / a.ct) % w->split; } // fc2: row tiles first, their fc1 tiles come in row order
        else { w->ks = r / (a.mt * a.ct); w->mt = (r / a.ct) % a.mt; }           // proj: K slices first, their heads come in order
        w->nt = r % a.ct;
        int kb_all = fc2 ? (a.M + VIT__MMA_BK - 1) / VIT__MMA_BK : a.kbc;
        w->kb0 = w->ks * kbs; w->kb1 = w->kb0 + kbs < kb_all ? w->kb0 + kbs : kb_all;
        if (fc2) {
            vit__pk_wait_on(w, cb + a.o_fc1 + w->mt * a.ksf + w->ks, 1, (unsigned)vit__pk_fc1_in(a, w->ks));
        } else { // the heads whose columns the K slice reads
            int h0 = w->kb0 * VIT__MMA_BK / a.D, h1 = (w->kb1 * VIT__MMA_BK - 1) / a.D;
            if (h1 > a.H - 1) h1 = a.H - 1;
            vit__pk_wait_on(w, cb + a.o_att + h0, h1 - h0 + 1, (unsigned)a.ab);
        }
        w->signal = cb + (fc2 ? a.o_farr : a.o_parr) + w->mt * a.ct + w->nt;
        w->res = cb + (fc2 ? a.o_res2 : a.o_res1) + w->mt;
        break;
    }
    case VIT__PK_LN2:
    case VIT__PK_LN1: { // rows r * VIT__PK_LN.., once their row tile's residual tiles are all in
        int ln1 = stage == VIT__PK_LN1;
        w->r0 = r * VIT__PK_LN; w->mt = w->r0 / a.bm;
        vit__pk_wait_on(w, cb + (ln1 ? a.o_res2 : a.o_res1) + w->mt, 1, (unsigned)a.ct);
        w->signal = cb + (ln1 ? a.o_ln1 : a.o_ln2) + w->mt;
        break;
    }
    case VIT__PK_FC1: { // row tiles in order, each over every column tile
        w->mt = r / a.ft; w->nt = r % a.ft; w->kb0 = 0; w->kb1 = a.kbc;
        vit__pk_wait_on(w, cb + a.o_ln2 + w->mt, 1, (unsigned)vit__pk_lnq(a, w->mt));
        w->signal = cb + a.o_fc1 + w->mt * a.ksf + w->nt * 2 / a.kbf;
        break;
    }
    }
}

// Runs work item w. FULL: the attention's whole-K/V split-key form may run
// (shared memory for it); BM: a.bm.
template <typename T, bool FULL, int BM>
static __device__ __forceinline__ void vit__pk_run(const vit__pk_args &a, const vit__pk_work &w) {
    const int WM = BM / 32, WN = 8 / WM; // 8 warps of 32 rows
    const vit__cuda_block *k = a.blocks + w.l;
    vit__gemm_args g;
    memset(&g, 0, sizeof(g));
    g.M = a.rows;
    g.act = a.act;
    vit__pk_gate gate = {&a, w.wc[0], w.nw ? w.wn[0] : 0, w.wt[0]}; // (a GEMM tile waits on one range at most)
    switch (w.stage) {
    case VIT__PK_QKV:
        g.a = a.xn; g.w = k->qkv_w; g.out = (void *)a.att.q; g.bias = k->qkv_b; g.N = 3 * a.C; g.K = a.C;
        vit__mma_tile<T, VIT__OUT_STORE, VIT__ACT_NONE, 0, true, BM, 64, WM, WN, VIT__PK_ST(BM), VIT__MMA_BK>(g, w.mt * BM, w.nt * 64, w.kb0, w.kb1, NULL, true, gate);
        vit__pk_signal(a, w.signal);
        break;
    case VIT__PK_ATT:
        for (int i = 0; i < w.nw; i++) vit__pk_until(a, w.wc[i], w.wn[i], w.wt[i]);
        if (FULL && a.full) vit__attention_mma_tile<T, 64, true, 8, true, 2>(a.att, a.sl2, w.b, w.h, w.qtile);
        else vit__attention_mma_tile<T, 64, true, 8, false, 1>(a.att, a.sl2, w.b, w.h, w.qtile);
        vit__pk_signal(a, w.signal);
        break;
    case VIT__PK_PROJ:
    case VIT__PK_FC2: {
        int fc2 = w.stage == VIT__PK_FC2;
        g.a = fc2 ? a.hb : a.ao; g.w = fc2 ? k->fc2_w : k->proj_w; g.N = a.C; g.K = fc2 ? a.M : a.C;
        vit__mma_tile<T, VIT__OUT_STORE, VIT__ACT_NONE, 0, true, BM, 64, WM, WN, VIT__PK_ST(BM), VIT__MMA_BK>(g, w.mt * BM, w.nt * 64, w.kb0, w.kb1,
                                                                                        a.part + (size_t)w.ks * a.rows * a.C, true, gate);
        vit__pk_reduce(a, w.signal, w.split, w.mt, w.nt, fc2 ? k->fc2_b : k->proj_b, fc2 ? k->ls2 : k->ls1, w.res);
        break;
    }
    case VIT__PK_LN2:
    case VIT__PK_LN1: {
        int ln1 = w.stage == VIT__PK_LN1;
        vit__pk_until(a, w.wc[0], w.wn[0], w.wt[0]);
        vit__pk_layernorm<T>(a, w.r0, ln1 ? k[1].ln1_w : k->ln2_w, ln1 ? k[1].ln1_b : k->ln2_b);
        vit__pk_signal(a, w.signal);
        break;
    }
    case VIT__PK_FC1:
        g.a = a.xn; g.w = k->fc1_w; g.out = a.hb; g.bias = k->fc1_b; g.N = a.M; g.K = a.C;
        vit__mma_tile<T, VIT__OUT_STORE, VIT__ACT_RUNTIME, 0, true, BM, 64, WM, WN, VIT__PK_ST(BM), VIT__MMA_BK>(g, w.mt * BM, w.nt * 64, w.kb0, w.kb1, NULL, true, gate);
        vit__pk_signal(a, w.signal);
        break;
    }
}

template <typename T, bool FULL, int BM>
__global__ void __launch_bounds__(256, 1) vit__persistent_kernel(const vit__pk_args a) {
    __shared__ int item, last;
    vit__pdl_wait(); // x and xn of the first block, from the patch embedding
    vit__pdl_launch();
    unsigned long long t0 = 0;
    // (claiming the next item as one starts, to hide the claim's round trip,
    // measured slower: an item on the critical path, a LayerNorm say, then
    // waits for its claimer's current GEMM tile to end. [BENCHMARKS: Batch 1])
    for (;;) {
        if (threadIdx.x == 0) {
            item = (int)atomicAdd(vit__pk_ctr(a, a.queue), 1u);
            if (a.trace) vit__pk_ready = t0 = vit__globaltimer();
        }
        __syncthreads();
        int i = item;
        __syncthreads();
        if (i >= a.total) break;
        vit__pk_work w;
        vit__pk_decode(a, i, &w);
        vit__pk_run<T, FULL, BM>(a, w);
        if (a.trace && threadIdx.x == 0) { // started, inputs ready, done (ns); SM, stage, block
            unsigned smid;
            asm volatile("mov.u32 %0, %%smid;\n" : "=r"(smid));
            unsigned long long *t = a.trace + 4 * (size_t)i;
            t[0] = t0; t[1] = vit__pk_ready; t[2] = vit__globaltimer(); t[3] = smid | (unsigned)w.stage << 8 | (unsigned long long)w.l << 16;
        }
    }
    // the last CTA out zeroes the counters (every other CTA is done with them)
    if (threadIdx.x == 0) {
        __threadfence();
        last = atomicAdd(vit__pk_ctr(a, a.done), 1u) == gridDim.x - 1;
        if (last) __threadfence();
    }
    __syncthreads();
    if (last)
        for (int i = threadIdx.x; i < a.nsync; i += blockDim.x) *vit__pk_ctr(a, i) = 0;
}

// Shared memory of the persistent kernel: the larger of its GEMM tile's ring
// and its attention's
// The whole-K/V split-key attention's shared memory at VIT__ATTN_FULL_MAX keys
// (its sizes: vit__attention_mma_tile's)
static int vit__pk_full_smem(const vit__cuda_state *s) {
    return (VIT__PK_BQ_FULL + 2 * VIT__ATTN_FULL_MAX) * (64 + 8) * (int)s->esize + 2 * VIT__PK_BQ_FULL * (64 + 2) * 4;
}

// Whether the whole-K/V attention's shared memory fits this GPU (sm_80/87/90/100: yes; sm_86/89/12x: no)
static int vit__pk_full(const vit__cuda_state *s) { return vit__pk_full_smem(s) <= vit__plan_smem_max(s); }

// The persistent kernel's instance for this GPU's attention form
template <typename T, int BM> static void (*vit__pk_kernel(const vit__cuda_state *s))(const vit__pk_args) {
    return vit__pk_full(s) ? vit__persistent_kernel<T, true, BM> : vit__persistent_kernel<T, false, BM>;
}

// The persistent kernel's shared memory with bm-row GEMM tiles: its GEMM
// ring's, its attention's
static int vit__pk_smem(const vit__cuda_state *s, int bm) {
    int g = VIT__PK_GEMM_SMEM(bm), at = vit__pk_full(s) ? vit__pk_full_smem(s) : vit__attn_smem(VIT__K_ATT_STREAM, 8, 64, 0, (int)s->esize);
    return g > at ? g : at;
}

// Whether the persistent kernel runs this model's blocks (its workspace is
// made at load only then): see the room's head.
static int vit__pk_fits(const vit_model *m) {
    const vit__cuda_state *s = m->cuda;
    const vit_config *c = &m->cfg;
    int D = c->num_heads > 0 ? c->dim / c->num_heads : 0;
    if (s->f8 || s->tok || m->causal || c->depth < 1 || c->residual_dtype == VIT_DTYPE_BF16 || m->act == VIT__ACT_SWIGLU) return 0;
    if (s->dtype != VIT_DTYPE_BF16 && s->dtype != VIT_DTYPE_F16) return 0;
    if (D < 8 || D > 64 || D % 8 || c->dim % c->num_heads || c->dim % 8 || c->mlp_dim % 8) return 0;
    for (int l = 0; l < c->depth; l++)
        if (s->blocks[l].qn_w) return 0;
    return vit__pk_smem(s, 64) <= vit__plan_smem_max(s);
}

// K slices of a proj or fc2 tile (tiles of them, kb K steps): enough that the
// slices fill the SMs, at most VIT__PK_SPLIT, each whole 64-column steps (an
// even number of K steps, so an fc2 slice holds whole fc1 tiles).
static void vit__pk_split(const vit__cuda_state *s, int tiles, int kb, int *ks, int *kbs) {
    int n = (s->sm_count + tiles - 1) / tiles;
    if (n > VIT__PK_SPLIT) n = VIT__PK_SPLIT;
    if (n > kb / 2) n = kb / 2;
    if (n < 1) n = 1;
    int per = (kb + n - 1) / n;
    per = (per + 1) & ~1;
    *kbs = per;
    *ks = (kb + per - 1) / per;
}

// Rows of the persistent kernel's GEMM tiles: 64 (tests and benchmarks: the
// hook's 128 or 256)
static int vit__pk_rows(const vit__cuda_state *s) {
    int bm = VIT__HOOK(s, pk_rows);
    return bm == 128 || bm == 256 ? bm : 64;
}

// The persistent pass of B images on bm-row GEMM tiles: its work items, K
// slices and counters (the pointers are the caller's)
static void vit__pk_shape(const vit_model *m, int B, int bm, vit__pk_args *a) {
    const vit_config *c = &m->cfg;
    memset(a, 0, sizeof(*a));
    a->bm = bm;
    a->depth = c->depth; a->N = c->num_tokens; a->rows = B * a->N; a->C = c->dim; a->H = c->num_heads; a->D = a->C / a->H; a->M = c->mlp_dim;
    a->act = m->act; a->eps = c->eps;
    a->sl2 = 1.0f / sqrtf((float)a->D) * 1.4426950408889634f; // as vit__attention_cuda
    a->mt = (a->rows + bm - 1) / bm; a->ct = (a->C + 63) / 64; a->qt = (3 * a->C + 63) / 64; a->ft = (a->M + 63) / 64;
    a->kbc = (a->C + VIT__MMA_BK - 1) / VIT__MMA_BK;
    vit__pk_split(m->cuda, a->mt * a->ct, a->kbc, &a->ksp, &a->kbp);
    vit__pk_split(m->cuda, a->mt * a->ct, (a->M + VIT__MMA_BK - 1) / VIT__MMA_BK, &a->ksf, &a->kbf);
    a->full = vit__pk_full(m->cuda) && a->N <= VIT__ATTN_FULL_MAX;
    int bq = a->full ? VIT__PK_BQ_FULL : VIT__PK_BQ_STREAM;
    a->aq = (a->N + bq - 1) / bq; a->ab = B * a->aq;
    int ln = (a->rows + VIT__PK_LN - 1) / VIT__PK_LN;
    a->n[VIT__PK_QKV] = a->mt * a->qt; a->n[VIT__PK_ATT] = a->H * a->ab; a->n[VIT__PK_PROJ] = a->mt * a->ct * a->ksp; a->n[VIT__PK_LN2] = ln;
    a->n[VIT__PK_FC1] = a->mt * a->ft; a->n[VIT__PK_FC2] = a->mt * a->ct * a->ksf; a->n[VIT__PK_LN1] = ln;
    for (int i = 0; i < VIT__PK_STAGES; i++) a->per_block += a->n[i];
    a->total = a->per_block * a->depth - ln; // no ln1 after the last block
    a->o_qkv = 0; a->o_att = a->qt; a->o_parr = a->o_att + a->H; a->o_res1 = a->o_parr + a->mt * a->ct; a->o_ln2 = a->o_res1 + a->mt;
    a->o_fc1 = a->o_ln2 + a->mt; a->o_farr = a->o_fc1 + a->mt * a->ksf; a->o_res2 = a->o_farr + a->mt * a->ct; a->o_ln1 = a->o_res2 + a->mt;
    a->cpb = a->o_ln1 + a->mt;
    a->queue = a->cpb * a->depth; a->done = a->queue + 1; a->nsync = a->done + 1;
}

// The persistent kernel's buffers for up to s->pk_images images (made at load
// when vit__pk_fits, in test and benchmark builds while the policy never
// plans the kernel): qkv, the attention output, the split-K slices,
// the counters (zeroed once, then by each pass's last CTA) and the blocks'
// weight pointers.
// The most counters a pass of 1 .. images images uses on any tile rows: not
// always the largest batch's (fewer row tiles can mean more K slices, so more
// counters).
static int vit__pk_nsync_max(const vit_model *m, int images) {
    int most = 0;
    for (int bm = 64; bm <= 256; bm *= 2)
        for (int B = 1; B <= images; B++) {
            vit__pk_args a;
            vit__pk_shape(m, B, bm, &a);
            if (a.nsync > most) most = a.nsync;
        }
    return most;
}

static vit_status vit__pk_workspace(vit_model *m) {
    vit__cuda_state *s = m->cuda;
    int B = m->max_batch < VIT__PK_IMAGES ? m->max_batch : VIT__PK_IMAGES;
    vit__pk_args a;
    vit__pk_shape(m, B, 64, &a);
    s->pk_nsync = vit__pk_nsync_max(m, B);
    size_t rows = (size_t)a.rows, C = (size_t)a.C, es = s->esize;
    size_t sizes[5] = {rows * 3 * C * es, rows * C * es, (size_t)VIT__PK_SPLIT * rows * C * 4, (size_t)s->pk_nsync * VIT__PK_PAD * 4,
                       (size_t)a.depth * sizeof(vit__cuda_block)};
    size_t off[5], total = 0;
    for (int i = 0; i < 5; i++) { off[i] = total; total += (sizes[i] + 255) & ~(size_t)255; }
    VIT__TRY(vit__cuda_malloc(m, &s->pk_ws, total, "the persistent kernel's buffers"));
    s->pk_qkv = s->pk_ws + off[0]; s->pk_ao = s->pk_ws + off[1];
    s->pk_part = (float *)(s->pk_ws + off[2]); s->pk_sync = (unsigned *)(s->pk_ws + off[3]); s->pk_blocks = (vit__cuda_block *)(s->pk_ws + off[4]);
    VIT__CUDA_TRY(m, cudaMemset(s->pk_sync, 0, sizes[3]));
    VIT__CUDA_TRY(m, cudaMemcpy(s->pk_blocks, s->blocks, sizes[4], cudaMemcpyHostToDevice));
    s->pk_images = B;
    return VIT_OK;
}

// Whether a pass of B images runs its blocks in the persistent kernel: the
// model fits it (its workspace exists), B within the workspace, the whole pass
// (not the first or the rest of a spread one). Tests force it off (hook 1) or
// on where it can run (2). [BENCHMARKS: Batch 1]
static int vit__plan_persistent(const vit__cuda_state *s, int B, int from, int to, int depth) {
    if (!s->pk_images || B > s->pk_images || from != 0 || to != depth) return 0;
    return VIT__HOOK(s, persistent) == 2; // (off by default until measured)
}

// The blocks of a pass of B images (x and xn = ln1(x) made) in the
// persistent kernel, leaving x as the last block's residual writes it.
template <typename T>
static vit_status vit__persistent_cuda(vit_model *m, int B, cudaStream_t st) {
    vit__cuda_state *s = m->cuda;
    vit__pk_args a;
    vit__pk_shape(m, B, vit__pk_rows(s), &a);
    if (a.nsync > s->pk_nsync) // (vit__pk_nsync_max sized them for every batch: never)
        return vit__fail(m->error, VIT_ERROR_LIMIT, "the persistent kernel needs %d counters, its workspace holds %d", a.nsync, s->pk_nsync);
    a.blocks = s->pk_blocks; a.x = s->x; a.xn = s->xn; a.hb = s->big; a.ao = s->pk_ao; a.part = s->pk_part; a.sync = s->pk_sync;
#ifdef VIT_TEST_HOOKS
    if (s->hook) a.trace = s->hook->pk_trace;
#endif
    a.att = vit__attn_self(s->pk_ao, s->pk_qkv, B, a.N, a.C, a.H, sizeof(T));
    int smem = vit__pk_smem(s, a.bm);
    VIT__TRY(vit__smem_check(m, smem, "the persistent kernel"));
    void (*kernel)(const vit__pk_args) = a.bm == 256 ? vit__pk_kernel<T, 256>(s) : a.bm == 128 ? vit__pk_kernel<T, 128>(s) : vit__pk_kernel<T, 64>(s);
    VIT__CUDA_TRY(m, cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    int ctas = VIT__HOOK(s, pk_ctas) > 0 ? VIT__HOOK(s, pk_ctas) : s->sm_count;
    if (ctas > a.total) ctas = a.total;
    VIT__CUDA_TRY(m, vit__launch(m, kernel, dim3((unsigned)ctas), 256, smem, st, a));
    return VIT_OK;
}

// The persistent kernel runs bf16 and fp16 compute over an fp32 residual
// stream; the forward pass's other instances never plan it. Builds without
// VIT__PK_BUILT never plan it either, and do not compile it (~2.5 s of nvcc).
#if VIT__PK_BUILT
static vit_status vit__persistent_run(vit_model *m, int B, cudaStream_t st, __nv_bfloat16 *, float *) { return vit__persistent_cuda<__nv_bfloat16>(m, B, st); }
#ifdef VIT_CUDA_F16
static vit_status vit__persistent_run(vit_model *m, int B, cudaStream_t st, __half *, float *) { return vit__persistent_cuda<__half>(m, B, st); }
#endif
#endif
template <typename T, typename TX>
static vit_status vit__persistent_run(vit_model *m, int, cudaStream_t, T *, TX *) {
    return vit__fail(m->error, VIT_ERROR_UNSUPPORTED, "the persistent kernel runs bf16 and fp16 over an fp32 residual stream only");
}

// >>forward ---------------------------------------------------------------------
// The forward pass for B <= max_batch images, from s->images (from its image
// `first`, first + B <= max_batch) to s->pooled and s->out, as launches on one
// stream (captured into a graph per B, first and block range). A pass may run
// only blocks [from, to): one of the first blocks (from 0, to < depth) keeps
// its images' rows of x, xn and the e4m3 rows at their place (image first..),
// where a pass of the rest (from > 0, first 0) over every image reads them.

// Attention pooling (VIT_POOL_MAP; vit__map_pool in vit.h) of x (B, N, C)
// into s->pooled (B, C): the final LayerNorm into xn, keys/values of every
// token (one GEMM into big), the latent's query against them (a
// cross-attention, the query shared by the images) into xn, proj added into
// the zeroed pooled (fp32), then pooled += fc2(act(fc1(LayerNorm(pooled)))).
// x: s->x, or with residual_dtype bf16 the bf16 s->xh.
template <typename T, typename TX>
static vit_status vit__map_pool_cuda(vit_model *m, const TX *x, int B, cudaStream_t st) {
    vit__cuda_state *s = m->cuda;
    const vit_config *c = &m->cfg;
    int C = c->dim, N = c->num_tokens, Mm = m->map.mlp_dim;
    T *xn = (T *)s->xn, *big = (T *)s->big;
    VIT__TRY((vit__layernorm_cuda<T, TX>(xn, x, s->norm_w, s->norm_b, B * N, C, (size_t)C, (size_t)C, c->eps, m, st)));
    VIT__TRY(vit__linear_cuda<T>(big, xn, (const T *)s->map_kv_w, s->map_kv_b, B * N, C, 2 * C, VIT__OUT_STORE, VIT__ACT_NONE, NULL, m, st));
    vit__attn_args a;
    a.out = xn; a.q = s->map_q; a.k = big; a.v = big + C;
    a.ldo = a.ldq = (size_t)C; a.ldk = 2 * (size_t)C;
    a.bso = (size_t)C; a.bsq = 0; a.bsk = (size_t)N * 2 * C;
    a.B = B; a.Nq = 1; a.Nk = N; a.H = c->num_heads; a.D = C / c->num_heads;
    a.causal = 0;
    VIT__TRY(vit__attention_cuda<T>(a, m, st, NULL, 0));
    VIT__CUDA_TRY(m, cudaMemsetAsync(s->pooled, 0, (size_t)B * C * sizeof(float), st));
    VIT__TRY(vit__linear_cuda<T>(s->pooled, xn, (const T *)s->map_proj_w, s->map_proj_b, B, C, C, VIT__OUT_RESIDUAL, VIT__ACT_NONE, NULL, m, st));
    VIT__TRY(vit__layernorm_cuda<T>(xn, s->pooled, s->map_norm_w, s->map_norm_b, B, C, (size_t)C, (size_t)C, c->eps, m, st));
    VIT__TRY(vit__linear_cuda<T>(big, xn, (const T *)s->map_fc1_w, s->map_fc1_b, B, C, Mm, VIT__OUT_STORE, m->act, NULL, m, st));
    VIT__TRY(vit__linear_cuda<T>(s->pooled, big, (const T *)s->map_fc2_w, s->map_fc2_b, B, Mm, C, VIT__OUT_RESIDUAL, VIT__ACT_NONE, NULL, m, st));
    return VIT_OK;
}

#ifndef VIT_NO_TEXT
// A text tower's input step: x (rows, C) = tok[ids[r]] + pos[r % N], as
// vit__embed_ids. Parallel over elements, a grid-stride loop.
__global__ void vit__embed_ids_kernel(float *x, const int *ids, const float *tok, const float *pos, size_t rows, int N, int C) {
    vit__pdl_wait();
    vit__pdl_launch();
    for (size_t i = (size_t)blockIdx.x * 256 + threadIdx.x; i < rows * C; i += (size_t)gridDim.x * 256) {
        size_t r = i / (size_t)C, c = i % (size_t)C;
        x[i] = tok[(size_t)ids[r] * C + c] + pos[(r % (size_t)N) * C + c];
    }
}

// A text tower's pooling step: row at[b] of text b of x (B, N, C) into
// pooled (B, C) in fp32. Parallel over (C / 256, B).
template <typename TX>
__global__ void vit__gather_rows_kernel(float *pooled, const TX *x, const int *at, int N, int C) {
    vit__pdl_wait();
    vit__pdl_launch();
    int c = blockIdx.x * 256 + threadIdx.x, b = blockIdx.y;
    if (c < C) pooled[(size_t)b * C + c] = vit__f32(x[((size_t)b * N + at[b]) * C + c]);
}
#endif

// A features call's tokens of one block (vit__feat_chunk): the rows of x
// (B, N, C) of images i0.., through the final norm when w is given (two passes
// over the row, as vit__layernorm_cpu), to where vit__feat_place puts them in
// out (the block's n per_block values). One warp per row, 8 rows per CTA.
template <typename TX, typename TO>
__global__ void vit__feat_kernel(TO *out, const TX *x, const float *w, const float *b, int rows, int i0, vit__feat_shape f, float eps) {
    vit__pdl_wait();
    vit__pdl_launch();
    int row = blockIdx.x * 8 + threadIdx.x / 32, lane = threadIdx.x & 31;
    if (row >= rows) return;
    size_t at, cs;
    if (!vit__feat_place(&f, i0 + row / f.N, row % f.N, &at, &cs)) return;
    const TX *xr = x + (size_t)row * f.C;
    TO *o = out + at;
    float mean = 0.0f, rstd = 1.0f;
    if (w) {
        float sum = 0.0f, var = 0.0f;
        for (int c = lane; c < f.C; c += 32) sum += vit__f32(xr[c]);
        mean = vit__warp_sum(sum) / (float)f.C;
        for (int c = lane; c < f.C; c += 32) { float d = vit__f32(xr[c]) - mean; var += d * d; }
        rstd = 1.0f / sqrtf(vit__warp_sum(var) / (float)f.C + eps);
    }
    for (int c = lane; c < f.C; c += 32) {
        float v = vit__f32(xr[c]);
        if (w) v = (v - mean) * rstd * w[c] + b[c];
        o[(size_t)c * cs] = vit__cvt<TO>(v);
    }
}

// VIT_DTYPE_FP8: the e4m3 operands of a block linear whose input rows are in
// q8 and their scales in q8s (vit__e4m3_rows_cuda), else NULL (the GEMM reads T).
static vit__e4m3_ops *vit__e4m3_of(vit__e4m3_ops *o, const vit__cuda_state *s, unsigned char *q8, float *q8s, const void *w, const float *sw) {
    if (!s->f8) return NULL;
    memset(o, 0, sizeof(*o));
    o->a = q8; o->sa = q8s; o->w = (const unsigned char *)w; o->sw = sw;
    return o;
}

// TX: the residual stream's type, float or (res16) T.
// tail: with to == depth, the final norm, pooling and head after the blocks
// (0: a features call's pass, which leaves x as the last block wrote it).
template <typename T, typename TX>
static vit_status vit__forward_cuda_body(vit_model *m, int B, cudaStream_t st, int first, int from, int to, int tail) {
    vit__cuda_state *s = m->cuda;
    const vit_config *c = &m->cfg;
    const float *images = s->images + (size_t)first * c->in_chans * c->image_height * c->image_width;
    int C = c->dim, N = c->num_tokens, M = c->mlp_dim, H = c->num_heads, rows = B * N, K = c->num_classes, heads = m->num_head;
    int hidden = m->act == VIT__ACT_SWIGLU ? M / 2 : M; // fc1's outputs, fc2's inputs
    float eps = c->eps;
    size_t row0 = to < c->depth ? (size_t)first * N : 0; // the first blocks only: the rows stay at their images' place
    const int X16 = sizeof(TX) == 2;
    float *x32 = s->x + row0 * C, *q8s = s->q8s ? s->q8s + row0 : NULL, *q8bs = s->q8bs ? s->q8bs + row0 * ((hidden + 127) / 128) : NULL;
    float *q8n = s->q8n ? s->q8n + row0 : NULL;
    TX *x = X16 ? (TX *)s->xh + row0 * C : (TX *)x32;
    unsigned char *q8 = s->q8 ? s->q8 + row0 * C : NULL;
    T *xn = (T *)s->xn + row0 * C, *big = (T *)s->big;
    vit__embed_fuse fz;
    fz.prefix = s->prefix; fz.pos = s->pos; fz.tokens = N; fz.num_prefix = m->num_prefix; fz.pos_prefix = 0; // the prefix tokens' rows are folded in
    // PDL at small batches only: it costs at large ones, where kernels are
    // long (vit__plan_pdl) [BENCHMARKS: PDL]
    s->pdl_now = vit__plan_pdl(s, rows);
    size_t big_elems = (size_t)rows * (3 * C > M ? 3 * C : M); // s->big: free until the first qkv
    vit__ln_e4m3 lnq_rows = {q8, q8s, q8n}; // VIT_DTYPE_FP8: the LayerNorms before qkv and fc1 write e4m3 rows there themselves
    const vit__ln_e4m3 *lnq = s->f8 ? &lnq_rows : NULL;
    int q8_ready = 0;                        // block 0's rows already there
    // (from > 0: x, xn and the e4m3 rows are where the pass of the first blocks left them)
    if (from == 0 && (s->tok || s->pre_w || c->depth == 0)) {
#ifndef VIT_NO_TEXT
        if (s->tok) { // a text tower: token and position rows
            size_t n = (size_t)rows * C, blocks = (n + 255) / 256, cap = (size_t)s->sm_count * 8;
            VIT__CUDA_TRY(m, vit__launch(m, vit__embed_ids_kernel, dim3((unsigned)(blocks < cap ? blocks : cap)), 256, 0, st, x32, (const int *)s->ids,
                                         (const float *)s->tok, (const float *)s->pos, (size_t)rows, N, C));
        } else
#endif
        {
            VIT__TRY(vit__patch_embed_cuda<T>(x32, images, (const T *)s->patch_w, s->patch_b, B, c->in_chans, c->image_height, c->image_width, c->patch_size, C,
                                              &fz, big, big_elems, m, st));
        }
        // (res16: the tokens, after the pre-norm if any, rounded into x)
        if (s->pre_w) VIT__TRY((vit__layernorm_cuda<TX, float>(x, x32, s->pre_w, s->pre_b, rows, C, (size_t)C, (size_t)C, eps, m, st)));
        else if (X16) VIT__TRY((vit__convert_cuda<TX, float>(x, x32, (size_t)rows * C, m, st)));
        if (c->depth > 0) VIT__TRY((vit__layernorm_cuda<T, TX>(xn, x, s->blocks[0].ln1_w, s->blocks[0].ln1_b, rows, C, (size_t)C, (size_t)C, eps, m, st, lnq)));
        q8_ready = c->depth > 0 && lnq;
    } else if (from == 0) {
        VIT__TRY((vit__patch_ln_cuda<T, TX>(xn, x, x32, images, (const T *)s->patch_w, s->patch_b, B, c->in_chans, c->image_height, c->image_width, c->patch_size, C, &fz,
                                       big, big_elems,
                                       s->blocks[0].ln1_w, s->blocks[0].ln1_b, eps, m, st)));
    }
    // the usual tail, one head on the class token after a final norm: the last
    // fc2, its residual and the norm of the class tokens straight into s->pooled
    int pk = vit__plan_persistent(s, B, from, to, c->depth); // the blocks in one persistent kernel
    int token_tail = !pk && tail && !s->tok && s->norm_w && c->pool == VIT_POOL_TOKEN && !s->fcn_w && c->depth > 0 && heads == 1;
    vit__attn_args att = vit__attn_self(xn, big, B, N, C, H, sizeof(T)); // the attention output reuses xn
    att.causal = m->causal; // (a CLIP text tower's mask)
    vit__e4m3_ops q8ops; // VIT_DTYPE_FP8: each linear's input rows to e4m3 first (vit__e4m3_rows_cuda into q8)
    size_t wsize = s->f8 ? 1 : sizeof(T);
#ifdef VIT_TEST_HOOKS
    if (s->hook) s->hook->pk_ran = pk;
#endif
    if (pk) VIT__TRY(vit__persistent_run(m, B, st, (T *)0, (TX *)0));
    for (int l = from; l < (pk ? from : to); l++) {
        const vit__cuda_block *k = &s->blocks[l];
        // xn = ln1(x) here: from the line above, or from the previous block's fc2
        // (f8: its rows in e4m3 in q8 from the previous block's fc2 + ln1)
        // (block 0 after the fused patch GEMM + ln1, vit__patch_ln_cuda: rounded from its bf16 rows here)
        if (s->f8 && l == 0 && !q8_ready) VIT__TRY(vit__e4m3_rows_cuda<T>(q8, q8s, xn, rows, C, m, st));
        VIT__TRY(vit__linear_cuda<T>(big, xn, (const T *)k->qkv_w, k->qkv_b, rows, C, 3 * C, VIT__OUT_STORE, VIT__ACT_NONE, NULL, m, st,
                                     vit__e4m3_of(&q8ops, s, q8, q8s, k->qkv_w, k->qkv_sw)));
        if (k->qn_w) VIT__TRY(vit__qk_norm_cuda<T>(big, k->qn_w, k->qn_b, k->kn_w, k->kn_b, rows, C, H, eps, m, st));
        // small batches: the rest of this block's weights and the next block's
        // qkv (contiguous, see vit__upload_all) into L2 during the attention
        const char *pf = NULL, *end = l + 1 < c->depth ? (const char *)s->blocks[l + 1].qkv_b : (const char *)k->fc2_w + (size_t)C * hidden * wsize;
        if (vit__plan_prefetch(s)) pf = (const char *)k->proj_w;
        VIT__TRY(vit__attention_cuda<T>(att, m, st, pf, pf ? (size_t)(end - pf) : 0));
        if (s->f8) VIT__TRY(vit__e4m3_rows_cuda<T>(q8, q8s, xn, rows, C, m, st));
        VIT__TRY((vit__linear_ln_cuda<T, T, TX>(xn, x, xn, (const T *)k->proj_w, k->proj_b, k->ls1, rows, C, C, k->ln2_w, k->ln2_b, eps, 1, m, st,
                                            vit__e4m3_of(&q8ops, s, q8, q8s, k->proj_w, k->proj_sw), lnq)));
        // f8: fc1's outputs in e4m3 into big (its epilogue rounds them, scaled per
        // row from a bound on the row: vit__e4m3_bound_scale of the norms ln2
        // left in q8n; SwiGLU's through the rows kernel into q8, per row and 128
        // columns), fc2 reads them with those scales
        vit__e4m3_ops *fc1q = vit__e4m3_of(&q8ops, s, q8, q8s, k->fc1_w, k->fc1_sw);
        int e4m3_out = s->f8 && m->act != VIT__ACT_SWIGLU && M % 16 == 0;
        if (e4m3_out) {
            fc1q->out = (unsigned char *)big; fc1q->out_scale = q8bs;
            fc1q->a_norm = q8n; fc1q->bound_w = k->fc1_bw; fc1q->bound_b = k->fc1_bb;
        }
        VIT__TRY(vit__linear_cuda<T>(big, xn, (const T *)k->fc1_w, k->fc1_b, rows, C, M, VIT__OUT_STORE, m->act, NULL, m, st, fc1q));
        if (s->f8 && !e4m3_out) VIT__TRY(vit__e4m3_rows_cuda<T>(q8, q8bs, big, rows, hidden, m, st, 1));
        vit__e4m3_ops *fc2q = vit__e4m3_of(&q8ops, s, e4m3_out ? (unsigned char *)big : q8, q8bs, k->fc2_w, k->fc2_sw);
        if (fc2q) fc2q->a_blocks = !e4m3_out;
        if (l + 1 < c->depth) // fc2 with the next block's ln1
            VIT__TRY((vit__linear_ln_cuda<T, T, TX>(xn, x, big, (const T *)k->fc2_w, k->fc2_b, k->ls2, rows, hidden, C, s->blocks[l + 1].ln1_w,
                                                s->blocks[l + 1].ln1_b, eps, 1, m, st, fc2q, lnq)));
        else if (token_tail)
            VIT__TRY((vit__linear_ln_cuda<T, float, TX>(s->pooled, x, big, (const T *)k->fc2_w, k->fc2_b, k->ls2, rows, hidden, C, s->norm_w, s->norm_b, eps, N, m,
                                                    st, fc2q)));
        else
            VIT__TRY(vit__linear_cuda<T>(x, big, (const T *)k->fc2_w, k->fc2_b, rows, hidden, C, VIT__OUT_RESIDUAL, VIT__ACT_NONE, k->ls2, m, st, fc2q, X16));
    }
    if (to < c->depth || !tail) return VIT_OK;
#ifndef VIT_NO_TEXT
    if (s->tok) { // a text tower: the token each text pools at (s->pool_at), its final norm, the head (its projection)
        VIT__CUDA_TRY(m, vit__launch(m, vit__gather_rows_kernel<TX>, dim3((unsigned)((C + 255) / 256), (unsigned)B), 256, 0, st, s->pooled, (const TX *)x,
                                     (const int *)s->pool_at, N, C));
        VIT__TRY(vit__layernorm_cuda<float>(s->pooled, s->pooled, s->norm_w, s->norm_b, B, C, (size_t)C, (size_t)C, eps, m, st));
        return vit__head_cuda<T>(s->out, s->pooled, (const T *)s->head_w, s->head_b, B, C, K, 1, m, st);
    }
#endif
    if (!token_tail && c->pool == VIT_POOL_MAP) {
        VIT__TRY((vit__map_pool_cuda<T, TX>(m, x, B, st)));
    } else if (!token_tail) {
        // res16: the final rows in fp32 (s->x), for the fp32 norm and pooling below
        if (X16) VIT__TRY((vit__convert_cuda<float, TX>(x32, x, (size_t)rows * C, m, st)));
        if (s->norm_w) {
            if (c->pool == VIT_POOL_TOKEN) // only the pooled prefix tokens are read after the norm
                for (int h = 0; h < heads; h++)
                    VIT__TRY(vit__layernorm_cuda<float>(x32 + (size_t)h * C, x32 + (size_t)h * C, s->norm_w, s->norm_b, B, C, (size_t)N * C, (size_t)N * C, eps,
                                                        m, st));
            else
                VIT__TRY(vit__layernorm_cuda<float>(x32, x32, s->norm_w, s->norm_b, rows, C, (size_t)C, (size_t)C, eps, m, st));
        }
        VIT__TRY(vit__pool_cuda(s->pooled, x32, B, N, C, c->pool, m->num_prefix, heads, s->fcn_w, s->fcn_b, eps, m, st));
    }
    if (K > 0) VIT__TRY(vit__head_cuda<T>(s->out, s->pooled, (const T *)s->head_w, s->head_b, B, C, K, heads, m, st));
    return VIT_OK;
}

static vit_status vit__forward_cuda_launch(vit_model *m, int B, cudaStream_t st, int first, int from, int to, int tail) {
#ifndef VIT_CUDA_NO_F32
    if (m->cuda->dtype == VIT_DTYPE_F32) return vit__forward_cuda_body<float, float>(m, B, st, first, from, to, tail);
#endif
#ifdef VIT_CUDA_F16
    if (m->cuda->dtype == VIT_DTYPE_F16) return vit__forward_cuda_body<__half, float>(m, B, st, first, from, to, tail);
#endif
    if (m->cfg.residual_dtype == VIT_DTYPE_BF16) return vit__forward_cuda_body<__nv_bfloat16, __nv_bfloat16>(m, B, st, first, from, to, tail);
    return vit__forward_cuda_body<__nv_bfloat16, float>(m, B, st, first, from, to, tail);
}

// The executable graph for batch size B from image `first` of s->images,
// blocks [from, to): cached, else captured now (the first use of the four;
// instantiation may allocate inside the driver) into a free or the least
// recently used slot.
static vit_status vit__cuda_graph_get(vit_model *m, int B, int first, int from, int to, int tail, cudaGraphExec_t *out) {
    vit__cuda_state *s = m->cuda;
    vit__cuda_graph *slot = &s->graphs[0];
    for (int i = 0; i < VIT__CUDA_GRAPHS; i++) {
        vit__cuda_graph *g = &s->graphs[i];
        if (g->batch == B && g->first == first && g->from == from && g->to == to && g->tail == tail) { g->used = ++s->tick; *out = g->exec; return VIT_OK; }
        if (slot->batch != 0 && (g->batch == 0 || g->used < slot->used)) slot = g;
    }
    if (slot->batch) {
        slot->batch = 0;
        VIT__CUDA_TRY(m, cudaGraphExecDestroy(slot->exec));
    }
    cudaGraph_t graph = NULL;
    VIT__CUDA_TRY(m, cudaStreamBeginCapture(s->stream, cudaStreamCaptureModeRelaxed));
    vit_status r = vit__forward_cuda_launch(m, B, s->stream, first, from, to, tail);
    cudaError_t e = cudaStreamEndCapture(s->stream, &graph);
    if (r != VIT_OK) {
        if (graph) cudaGraphDestroy(graph);
        cudaGetLastError();
        return r;
    }
    VIT__CUDA_TRY(m, e);
    cudaGraphExec_t exec;
    e = cudaGraphInstantiate(&exec, graph, 0);
    cudaGraphDestroy(graph);
    VIT__CUDA_TRY(m, e);
    slot->batch = B;
    slot->first = first;
    slot->from = from;
    slot->to = to;
    slot->tail = tail;
    slot->exec = exec;
    slot->used = ++s->tick;
    *out = exec;
    return VIT_OK;
}

// Runs the forward pass's blocks [from, to) for B images from image `first`
// on st (tail: see vit__forward_cuda_body): a graph replay (test builds may
// launch the kernels themselves instead: vit__cuda_state.use_graphs 0).
static vit_status vit__cuda_pass(vit_model *m, int B, int first, int from, int to, cudaStream_t st, int tail = 1) {
#ifdef VIT_TEST_HOOKS
    if (!m->cuda->use_graphs) return vit__forward_cuda_launch(m, B, st, first, from, to, tail);
#endif
    cudaGraphExec_t g = NULL;
    VIT__TRY(vit__cuda_graph_get(m, B, first, from, to, tail, &g));
    VIT__CUDA_TRY(m, cudaGraphLaunch(g, st));
    return VIT_OK;
}

// What a forward call was given: normalised float images or 8-bit frames (of
// the size planned in s->prep), in host or device memory.
typedef struct vit__input {
    const unsigned char *data;
    size_t bytes;       // per image or frame (height * stride)
    size_t last_bytes;  // of the last one: a frame's last row may end before its stride
    size_t image_bytes; // a float image's (what the staging slots were sized for)
    int frames;         // 1: 8-bit frames, through vit__prep_cuda
    int host;           // 1: host memory, staged through the pinned slots
    int pinned;         // 1: page-locked host memory: the DMA reads it in place (no copy into the slots)
} vit__input;

// Inputs in one chunk at most: max_batch, or of host inputs what one staging
// slot holds (at least 1: the slots grow to one input, vit__cuda_stage_reserve).
static int vit__stage_cap(const vit_model *m, const vit__input *in) {
    size_t fit = m->cuda->stage_bytes / 2 / in->bytes;
    if (!in->host || fit >= (size_t)m->max_batch) return m->max_batch;
    return fit > 0 ? (int)fit : 1;
}

// Images in the next chunk of a host input (vit__plan_stage_chunk)
static int vit__stage_chunk(const vit__cuda_state *s, const vit__input *in, int n, int cap, int done, int prev) {
    return vit__plan_stage_chunk(s, (double)in->image_bytes / (double)in->bytes, n, cap, done, prev); // ratio > 1: cheaper to stage than float images
}

// memcpy into memory the CPU will not read again (a pinned slot the DMA reads):
// on x86 non-temporal stores, which skip reading each destination line into
// the cache first. [BENCHMARKS: Host staging]
static void vit__copy_out_of_cache(unsigned char *dst, const unsigned char *src, size_t bytes) {
#if defined(VIT__X86) && defined(__SSE2__) && !defined(__CUDA_ARCH__)
    size_t head = (16 - ((uintptr_t)dst & 15)) & 15, i = 0;
    if (head > bytes) head = bytes;
    memcpy(dst, src, head);
    dst += head, src += head, bytes -= head;
    for (; i + 64 <= bytes; i += 64) {
        __m128i a = _mm_loadu_si128((const __m128i *)(src + i)), b = _mm_loadu_si128((const __m128i *)(src + i + 16));
        __m128i c = _mm_loadu_si128((const __m128i *)(src + i + 32)), d = _mm_loadu_si128((const __m128i *)(src + i + 48));
        _mm_stream_si128((__m128i *)(dst + i), a);
        _mm_stream_si128((__m128i *)(dst + i + 16), b);
        _mm_stream_si128((__m128i *)(dst + i + 32), c);
        _mm_stream_si128((__m128i *)(dst + i + 48), d);
    }
    memcpy(dst + i, src + i, bytes - i);
    _mm_sfence(); // the stores are weakly ordered: done before the DMA is queued
#else
    memcpy(dst, src, bytes);
#endif
}

#define VIT__COPY_BLOCK ((size_t)128 << 10)

// memcpy, on up to 8 threads when it is large (one thread does not reach the
// host's memory bandwidth, and this copy is what the GPU waits for first), in
// blocks taken as threads come: the calling thread starts at once, the others
// join as they wake (between calls they sleep: fixed shares waited for the
// last one up). staging: dst is a pinned slot (vit__copy_out_of_cache).
static void vit__copy_host(unsigned char *dst, const unsigned char *src, size_t bytes, int threads, int staging) {
#ifdef _OPENMP
    if (bytes >= 4 * VIT__COPY_BLOCK && threads > 1) {
        int blocks = (int)((bytes + VIT__COPY_BLOCK - 1) / VIT__COPY_BLOCK);
#pragma omp parallel for num_threads(threads < 8 ? threads : 8) schedule(dynamic, 1)
        for (int k = 0; k < blocks; k++) {
            size_t o = (size_t)k * VIT__COPY_BLOCK, len = bytes - o < VIT__COPY_BLOCK ? bytes - o : VIT__COPY_BLOCK;
            if (staging) vit__copy_out_of_cache(dst + o, src + o, len);
            else memcpy(dst + o, src + o, len);
        }
        return;
    }
#endif
    (void)threads;
    if (staging) vit__copy_out_of_cache(dst, src, bytes);
    else memcpy(dst, src, bytes);
}

#define VIT__STAGE_PIECE ((size_t)8 << 20) // host copy and DMA overlap in pieces of this size

// Stages bytes of host memory src through the pinned slot pin to dev on the copy
// stream: piece k + 1 is copied into the slot while the DMA moves piece k. The
// call's first bytes (first: what the GPU waits for before anything) go in
// pieces of an eighth of that, each twice the last, so that the DMA starts early.
static vit_status vit__stage_host(vit_model *m, unsigned char *dev, unsigned char *pin, const unsigned char *src, size_t bytes, int first) {
    size_t piece = first ? VIT__STAGE_PIECE / 8 : VIT__STAGE_PIECE;
    for (size_t o = 0, len = 0; o < bytes; o += len, piece = piece < VIT__STAGE_PIECE ? 2 * piece : piece) {
        len = bytes - o < piece ? bytes - o : piece;
        vit__copy_host(pin + o, src + o, len, m->num_threads, 1);
        VIT__CUDA_TRY(m, cudaMemcpyAsync(dev + o, pin + o, len, cudaMemcpyHostToDevice, m->cuda->copy));
    }
    return VIT_OK;
}

// Copies out slot j's waiting outputs (an earlier chunk's) to the caller's memory.
static vit_status vit__take_outputs(vit_model *m, int j, float *out, size_t per_out, int *wait_i0, int *wait_n) {
    vit__cuda_state *s = m->cuda;
    if (!wait_n[j]) return VIT_OK;
    VIT__CUDA_TRY(m, cudaEventSynchronize(s->outed[j]));
    vit__copy_host((unsigned char *)(out + (size_t)wait_i0[j] * per_out), (const unsigned char *)(s->pin_out + (size_t)j * m->max_batch * s->out_floats),
                   (size_t)wait_n[j] * per_out * sizeof(float), m->num_threads, 0);
    wait_n[j] = 0;
    return VIT_OK;
}


// Queues the outputs of the pass just run (B images, from image i0 of the
// call's) for out: host memory through pinned out slot j (copied to out when
// the slot is next needed, or at the end), else a device-to-device copy.
static vit_status vit__queue_outputs(vit_model *m, int j, int i0, int B, float *out, size_t per_out, int want_logits, cudaStream_t st, int host_out, int *wait_i0,
                                     int *wait_n) {
    vit__cuda_state *s = m->cuda;
    const vit_config *c = &m->cfg;
    const float *res = want_logits ? s->out : s->pooled + (m->num_head > 1 ? (size_t)m->num_head * B * c->dim : 0); // heads > 1: their mean
    if (!host_out) {
        VIT__CUDA_TRY(m, cudaMemcpyAsync(out + (size_t)i0 * per_out, res, (size_t)B * per_out * sizeof(float), cudaMemcpyDeviceToDevice, st));
        return VIT_OK;
    }
    VIT__TRY(vit__take_outputs(m, j, out, per_out, wait_i0, wait_n)); // chunk i - 2's
    VIT__CUDA_TRY(m, cudaMemcpyAsync(s->pin_out + (size_t)j * m->max_batch * s->out_floats, res, (size_t)B * per_out * sizeof(float), cudaMemcpyDeviceToHost, st));
    VIT__CUDA_TRY(m, cudaEventRecord(s->outed[j], st));
    wait_i0[j] = i0;
    wait_n[j] = B;
    return VIT_OK;
}

// A features call's pass over one chunk of B images (image i0 of the call's n,
// in s->images): the blocks in order up to the deepest asked for, each asked
// one's tokens stored (vit__feat_kernel) into out (host_out: through
// s->feat_buf, copied to the caller's memory before returning).
static vit_status vit__feat_chunk(vit_model *m, const vit__feat *f, int B, int i0, int n, void *out, int host_out, cudaStream_t st) {
    vit__cuda_state *s = m->cuda;
    const vit_config *c = &m->cfg;
    size_t per = f->shape.per_block, es = f->bf16 ? 2 : 4, slot = (size_t)n * per * es;
    unsigned char *dst = (unsigned char *)out;
    vit__feat_shape sh = f->shape; // the places in dst: the call's n images, these from i0
    int g0 = i0;
    if (host_out) { // the chunk's blocks in s->feat_buf as a call of B images, then copied to out
        size_t need = (size_t)f->num * B * per * es;
        if (s->feat_bytes < need) {
            if (s->feat_buf) { VIT__CUDA_TRY(m, cudaStreamSynchronize(st)); cudaFree(s->feat_buf); }
            s->feat_buf = NULL;
            s->feat_bytes = 0;
            VIT__TRY(vit__cuda_malloc(m, (unsigned char **)&s->feat_buf, need, "features"));
            s->feat_bytes = need;
        }
        dst = (unsigned char *)s->feat_buf;
        slot = (size_t)B * per * es;
        sh.n = B;
        g0 = 0;
    }
    const void *x = c->residual_dtype == VIT_DTYPE_BF16 ? s->xh : (const void *)s->x;
    const float *nw = f->norm ? s->norm_w : NULL, *nb = f->norm ? s->norm_b : NULL;
    int rows = B * c->num_tokens, from = 0;
    for (int l = 0; l <= f->last; l++) {
        int k = 0;
        while (k < f->num && f->block[k] != l) k++;
        if (k == f->num) continue;
        VIT__TRY(vit__cuda_pass(m, B, 0, from, l + 1, st, 0));
        from = l + 1;
        s->pdl_now = 0; // (a launch after a graph's: no programmatic overlap)
        dim3 grid((unsigned)((rows + 7) / 8));
        void *o = dst + (size_t)k * slot;
        if (c->residual_dtype == VIT_DTYPE_BF16 && f->bf16)
            VIT__CUDA_TRY(m, vit__launch(m, vit__feat_kernel<__nv_bfloat16, __nv_bfloat16>, grid, 256, 0, st, (__nv_bfloat16 *)o, (const __nv_bfloat16 *)x, nw, nb, rows, g0, sh, c->eps));
        else if (c->residual_dtype == VIT_DTYPE_BF16)
            VIT__CUDA_TRY(m, vit__launch(m, vit__feat_kernel<__nv_bfloat16, float>, grid, 256, 0, st, (float *)o, (const __nv_bfloat16 *)x, nw, nb, rows, g0, sh, c->eps));
        else if (f->bf16)
            VIT__CUDA_TRY(m, vit__launch(m, vit__feat_kernel<float, __nv_bfloat16>, grid, 256, 0, st, (__nv_bfloat16 *)o, (const float *)x, nw, nb, rows, g0, sh, c->eps));
        else
            VIT__CUDA_TRY(m, vit__launch(m, vit__feat_kernel<float, float>, grid, 256, 0, st, (float *)o, (const float *)x, nw, nb, rows, g0, sh, c->eps));
    }
    if (host_out) { // (pageable memory: each copy returns when done). A grid with prefix tokens: two runs per block
        size_t head = sh.grid && !sh.drop_prefix ? (size_t)sh.C * sh.gh * sh.gw : per, tail = per - head;
        for (int k = 0; k < f->num; k++) {
            unsigned char *o = (unsigned char *)out + (size_t)k * n * per * es, *d = dst + (size_t)k * slot;
            VIT__CUDA_TRY(m, cudaMemcpyAsync(o + (size_t)i0 * head * es, d, (size_t)B * head * es, cudaMemcpyDeviceToHost, st));
            if (tail)
                VIT__CUDA_TRY(m, cudaMemcpyAsync(o + ((size_t)n * head + (size_t)i0 * tail) * es, d + (size_t)B * head * es, (size_t)B * tail * es, cudaMemcpyDeviceToHost, st));
        }
    }
    return VIT_OK;
}

// Runs n inputs in chunks on stream st: in, forward, out. Host inputs go through
// the pinned slots: the host fills slot i & 1 and the copy stream moves it to
// the device while the previous chunk computes. Host frames that fit in
// s->images at once (n <= max_batch) are spread: chunk i's images go to its own
// place there (images i0..), transformed on the copy stream as soon as they
// arrive, so that the transform too runs under the previous chunk's pass (a
// graph per chunk size and place); each chunk's pass runs the first blocks
// only (vit__plan_stage_blocks), and one pass over all n the rest. host_out: out is
// host memory (through the pinned out slots; the call waits for the result).
// Tests may have device inputs chunked and spread as host frames are
// (vit__test_hook.stage_device): the same passes, so the same bits.
static vit_status vit__cuda_chunks(vit_model *m, const vit__input *in, int n, float *out, int want_logits, cudaStream_t st, int host_out,
                                   const vit__feat *f = NULL) {
    vit__cuda_state *s = m->cuda;
    const vit_config *c = &m->cfg;
    size_t per_out = want_logits ? (size_t)c->num_classes : (size_t)c->dim, half = s->stage_bytes / 2;
    size_t per_image = (size_t)c->in_chans * c->image_height * c->image_width;
    int forced = VIT__HOOK(s, stage_device) != 0; // (0 outside test builds)
    int as_host = in->host || forced, spread = !f && n <= m->max_batch && ((in->frames && in->host) || forced);
    int cap = vit__stage_cap(m, in), wait_i0[2] = {0, 0}, wait_n[2] = {0, 0}, blocks = c->depth;
    if (spread) blocks = vit__plan_stage_blocks(m, n, vit__stage_chunk(s, in, n, cap, 0, 0), in->bytes);
    VIT__CUDA_TRY(m, cudaStreamWaitEvent(st, s->done, 0)); // the arena's previous user, on any stream
    if (spread && in->host) VIT__CUDA_TRY(m, cudaStreamWaitEvent(s->copy, s->done, 0)); // the transform writes s->images from the copy stream
    for (int i = 0, i0 = 0, B = 0; i0 < n; i++, i0 += B) {
        int j = i & 1;
        B = as_host ? vit__stage_chunk(s, in, n, cap, i0, B) : (n - i0 < m->max_batch ? n - i0 : m->max_batch);
        const unsigned char *src = in->data + (size_t)i0 * in->bytes;
        size_t bytes = (size_t)(B - 1) * in->bytes + (i0 + B == n ? in->last_bytes : in->bytes);
        float *place = s->images + (size_t)(spread ? i0 : 0) * per_image;
        if (in->host) {
            unsigned char *pin = s->pin_in + j * half, *dev = s->dev_in + j * half;
            if (!in->pinned) VIT__CUDA_TRY(m, cudaEventSynchronize(s->staged[j])); // chunk i - 2 has left the pinned slot
            VIT__CUDA_TRY(m, cudaStreamWaitEvent(s->copy, s->consumed[j], 0)); // and the device has read the device slot
            // spread frames travel in pieces of whole frames, each transformed as
            // soon as it lands (under the next piece's DMA)
            int piece = !spread ? B : vit__plan_stage_piece(s, VIT__STAGE_PIECE, in->bytes);
            if (piece < 1) piece = 1;
            for (int p0 = 0, np = 0; p0 < B; p0 += np) {
                np = B - p0 < piece ? B - p0 : piece;
                size_t o = (size_t)p0 * in->bytes, len = (size_t)(np - 1) * in->bytes + (i0 + p0 + np == n ? in->last_bytes : in->bytes);
                if (in->pinned) VIT__CUDA_TRY(m, cudaMemcpyAsync(dev + o, src + o, len, cudaMemcpyHostToDevice, s->copy));
                else VIT__TRY(vit__stage_host(m, dev + o, pin + o, src + o, len, i == 0 && p0 == 0));
                if (spread) VIT__TRY(vit__prep_cuda(m, dev + o, np, place + (size_t)p0 * per_image, s->copy));
            }
            VIT__CUDA_TRY(m, cudaEventRecord(s->staged[j], s->copy));
            VIT__CUDA_TRY(m, cudaStreamWaitEvent(st, s->staged[j], 0));
            src = dev;
        }
        if (spread && in->host) VIT__CUDA_TRY(m, cudaEventRecord(s->consumed[j], s->copy)); // read where it was written: in stream order
        else {
            if (in->frames) VIT__TRY(vit__prep_cuda(m, src, B, place, st));
            else VIT__CUDA_TRY(m, cudaMemcpyAsync(place, src, bytes, cudaMemcpyDeviceToDevice, st));
            if (in->host) VIT__CUDA_TRY(m, cudaEventRecord(s->consumed[j], st));
        }
        if (f) { // a features call (out: its output, float or bf16)
            VIT__TRY(vit__feat_chunk(m, f, B, i0, n, out, host_out, st));
            continue;
        }
        VIT__TRY(vit__cuda_pass(m, B, spread ? i0 : 0, 0, blocks, st));
        if (blocks == c->depth) VIT__TRY(vit__queue_outputs(m, j, i0, B, out, per_out, want_logits, st, host_out, wait_i0, wait_n));
    }
    if (blocks < c->depth) { // the rest of the blocks over all n at once
        VIT__TRY(vit__cuda_pass(m, n, 0, blocks, c->depth, st));
        VIT__TRY(vit__queue_outputs(m, 0, 0, n, out, per_out, want_logits, st, host_out, wait_i0, wait_n));
    }
    VIT__CUDA_TRY(m, cudaEventRecord(s->done, st));
    for (int j = 0; j < 2; j++) VIT__TRY(vit__take_outputs(m, j, out, per_out, wait_i0, wait_n));
    return VIT_OK;
}

// 1 when p is memory the GPU can read (device or managed); host pointers fail.
static int vit__is_device_ptr(const void *p) {
    cudaPointerAttributes a;
    if (cudaPointerGetAttributes(&a, p) != cudaSuccess) { cudaGetLastError(); return 0; }
    return a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged;
}

// 1 when the bytes at p are page-locked host memory (cudaHostAlloc,
// cudaHostRegister) at both ends: the DMA reads them where they are.
static int vit__is_pinned(const void *p, size_t bytes) {
    cudaPointerAttributes a, z;
    if (!bytes || cudaPointerGetAttributes(&a, p) != cudaSuccess || cudaPointerGetAttributes(&z, (const char *)p + bytes - 1) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return a.type == cudaMemoryTypeHost && z.type == cudaMemoryTypeHost;
}

// Grows the staging slots to hold one input of `bytes` each (a frame larger
// than the slots made at load for max_batch images).
static vit_status vit__cuda_stage_reserve(vit_model *m, size_t bytes) {
    vit__cuda_state *s = m->cuda;
    if (s->stage_bytes / 2 >= bytes) return VIT_OK;
    VIT__CUDA_TRY(m, cudaStreamSynchronize(s->copy));
    cudaFreeHost(s->pin_in);
    cudaFree(s->dev_in);
    s->pin_in = s->dev_in = NULL;
    s->stage_bytes = 0;
    cudaError_t e = cudaHostAlloc((void **)&s->pin_in, 2 * bytes, cudaHostAllocDefault);
    if (e != cudaSuccess) {
        cudaGetLastError();
        s->pin_in = NULL;
        return vit__fail(m->error, VIT_ERROR_OUT_OF_MEMORY, "cudaHostAlloc of %zu bytes of staging: %s", 2 * bytes, cudaGetErrorString(e));
    }
    VIT__TRY(vit__cuda_malloc(m, &s->dev_in, 2 * bytes, "staging"));
    s->stage_bytes = 2 * bytes;
    return VIT_OK;
}

// The forward calls on the GPU, with the model's device current (the caller's
// restored after). frames: 8-bit frames of width x height (else float images).
// async: the caller's stream and device memory, else the model's stream and
// either memory, finished on return.
// f: a features call (fn its name; out its output, float or bf16).
static vit_status vit__cuda_run(vit_model *m, const void *data, int n, int width, int height, int stride, int channels, int frames, float *out,
                                int want_logits, cudaStream_t stream, int async, const vit__feat *f = NULL, const char *fn = NULL) {
    vit__cuda_state *s = m->cuda;
    const vit_config *c = &m->cfg;
    int prev = 0;
    VIT__CUDA_TRY(m, cudaGetDevice(&prev));
    if (prev != s->device) VIT__CUDA_TRY(m, cudaSetDevice(s->device));
    vit__input in;
    in.data = (const unsigned char *)data;
    in.frames = frames;
    in.host = !vit__is_device_ptr(data);
    in.bytes = in.last_bytes = in.image_bytes = (size_t)c->in_chans * c->image_height * c->image_width * sizeof(float);
    int out_host = !vit__is_device_ptr(out);
    vit_status r = VIT_OK;
    if (!fn) fn = frames ? (want_logits ? "vit_forward_rgb8_async" : "vit_embed_rgb8_async") : (want_logits ? "vit_forward_async" : "vit_embed_async");
    if (async && (in.host || out_host))
        r = vit__fail(m->error, VIT_ERROR_INVALID_ARGUMENT, "%s: %s and output must be device (or managed) memory", fn, frames ? "frames" : "images");
    if (r == VIT_OK && frames) {
        r = vit__prep_plan(m, width, height, stride, channels);
        in.bytes = s->prep.frame_bytes;
        in.last_bytes = (size_t)(height - 1) * s->prep.stride + (size_t)width * channels;
    }
    in.pinned = r == VIT_OK && n > 0 && in.host && vit__is_pinned(data, (size_t)(n - 1) * in.bytes + in.last_bytes);
    if (r == VIT_OK && in.host) r = vit__cuda_stage_reserve(m, in.bytes);
    cudaStream_t st = async ? stream : s->stream;
    if (r == VIT_OK) r = vit__cuda_chunks(m, &in, n, out, want_logits, st, out_host, f);
    if (r != VIT_OK && in.host) { // nothing left queued that reads the caller's memory (page-locked inputs) or writes s->images
        cudaStreamSynchronize(s->copy);
        cudaStreamSynchronize(st);
        cudaGetLastError();
    }
    if (r == VIT_OK && !async) {
        cudaError_t e = cudaStreamSynchronize(st);
        if (e != cudaSuccess) {
            cudaGetLastError();
            r = vit__fail(m->error, VIT_ERROR_CUDA, "CUDA error %s (%s) in the forward pass", cudaGetErrorName(e), cudaGetErrorString(e));
        }
    }
    if (prev != s->device) cudaSetDevice(prev);
    return r;
}

// >>load on the GPU ---------------------------------------------------------------
// Model weights to the device at load (converted, transposed, e4m3 for fp8),
// then the activation arena and the host API's staging buffers.

// Bump allocator over the one weight allocation (base NULL while counting).
typedef struct vit__uploader {
    vit_model *m;
    unsigned char *base;
    size_t used;
    size_t max_bytes;      // largest tensor: the staging buffer's size
    unsigned char *stage;  // host staging, NULL while counting
    vit_dtype dtype;
    size_t esize;
    int f8;                // the blocks' four linears in e4m3 (vit__up_linear)
} vit__uploader;

enum { VIT__UP_VEC = 0, VIT__UP_LINEAR };

// Places one tensor. VIT__UP_VEC: n = rows * cols floats as they are.
// VIT__UP_LINEAR: host (rows = in, cols = out) -> device (out, in) in the
// compute dtype; mats such matrices one after another (the heads).
static vit_status vit__up(vit__uploader *u, void **dst, const float *src, size_t rows, size_t cols, int mode, int mats = 1, int pad8 = 0) {
    *dst = NULL;
    if (!src) return VIT_OK;
    // VIT__UP_LINEAR: (rows in, cols out) -> (out, in); pad8: each output's inputs zero-padded to a multiple of 8
    size_t inner = mode == VIT__UP_LINEAR ? rows : cols, outer = mode == VIT__UP_LINEAR ? cols : rows;
    size_t inner_dev = pad8 ? (inner + 7) & ~(size_t)7 : inner, n = outer * inner_dev;
    size_t es = mode == VIT__UP_VEC ? sizeof(float) : u->esize, bytes = (size_t)mats * n * es;
    if (u->base) *dst = u->base + u->used;
    u->used += (bytes + 255) & ~(size_t)255;
    if (bytes > u->max_bytes) u->max_bytes = bytes;
    if (!u->base) return VIT_OK;
    for (int mat = 0; mat < mats; mat++) {
        const float *sm = src + (size_t)mat * rows * cols;
        unsigned char *stage = u->stage + (size_t)mat * n * es;
        for (size_t r = 0; r < outer; r++) {
            for (size_t c = 0; c < inner_dev; c++) {
                size_t i = r * inner_dev + c;
                float v = c >= inner ? 0.0f : mode == VIT__UP_LINEAR ? sm[c * cols + r] : sm[r * cols + c];
                if (mode == VIT__UP_VEC || u->dtype == VIT_DTYPE_F32) memcpy(stage + i * 4, &v, 4);
                else if (u->dtype == VIT_DTYPE_F16) { __half h = __float2half_rn(v); memcpy(stage + i * 2, &h, 2); }
                else { __nv_bfloat16 h = __float2bfloat16_rn(v); memcpy(stage + i * 2, &h, 2); }
            }
        }
    }
    VIT__CUDA_TRY(u->m, cudaMemcpy(*dst, u->stage, bytes, cudaMemcpyHostToDevice));
    return VIT_OK;
}

// VIT_DTYPE_FP8: a block linear's host (in, out) fp32 weight -> device (out, in)
// e4m3 bytes, each output column scaled to 448 / its largest magnitude (the
// bytes of vit__e4m3_cols), followed by its (out) column scales amax / 448.
// bound: NULL, or the largest column norm as vit__e4m3_bound_w computes it.
// Other dtypes: vit__up's VIT__UP_LINEAR, no scales.
static vit_status vit__up_linear(vit__uploader *u, void **dst, float **scale, const float *src, size_t in, size_t out, float *bound = NULL) {
    *scale = NULL;
    if (!u->f8 || !src) return vit__up(u, dst, src, in, out, VIT__UP_LINEAR);
    size_t wb = (in * out + 255) & ~(size_t)255, bytes = wb + out * sizeof(float);
    *dst = u->base ? u->base + u->used : NULL;
    *scale = u->base ? (float *)(u->base + u->used + wb) : NULL;
    u->used += (bytes + 255) & ~(size_t)255;
    if (bytes > u->max_bytes) u->max_bytes = bytes;
    if (!u->base) return VIT_OK;
    float *sc = (float *)(u->stage + wb);
    double best = 0.0;
    for (size_t o = 0; o < out; o++) {
        float mx = 0.0f;
        for (size_t i = 0; i < in; i++) mx = fabsf(src[i * out + o]) > mx ? fabsf(src[i * out + o]) : mx;
        float inv = mx > 0.0f ? 448.0f / mx : 1.0f;
        double ss = 0.0;
        for (size_t i = 0; i < in; i++) {
            unsigned char e = vit__e4m3(src[i * out + o] * inv);
            u->stage[o * in + i] = e;
            double v = vit__e4m3_value(e);
            ss += v * v;
        }
        sc[o] = mx > 0.0f ? mx / 448.0f : 1.0f;
        if ((double)sc[o] * sqrt(ss) > best) best = (double)sc[o] * sqrt(ss);
    }
    if (bound) *bound = vit__f32_up(best);
    VIT__CUDA_TRY(u->m, cudaMemcpy(*dst, u->stage, bytes, cudaMemcpyHostToDevice));
    return VIT_OK;
}

#define VIT__UPV(dst, src, n) VIT__TRY(vit__up(u, (void **)&(dst), src, 1, n, VIT__UP_VEC))

// Walks every tensor in a fixed order (twice: counting, then uploading).
static vit_status vit__upload_all(vit_model *m, vit__uploader *u) {
    vit__cuda_state *s = m->cuda;
    const vit_config *c = &m->cfg;
    size_t C = (size_t)c->dim, M = (size_t)c->mlp_dim, K = (size_t)c->num_classes;
    size_t CPP = (size_t)c->in_chans * c->patch_size * c->patch_size;
    size_t npos = (size_t)c->num_tokens - (size_t)m->num_prefix, D = C / (size_t)c->num_heads;
    VIT__TRY(vit__up(u, &s->patch_w, m->patch_w, CPP, C, VIT__UP_LINEAR, 1, 1));
    VIT__UPV(s->patch_b, m->patch_b, C);
    VIT__UPV(s->prefix, m->prefix, (size_t)m->num_prefix * C);
    VIT__UPV(s->pos, m->pos_embed, npos * C);
    VIT__UPV(s->tok, m->tok_embed, (size_t)m->vocab * C);
    VIT__UPV(s->pre_w, m->pre_norm_w, C);
    VIT__UPV(s->pre_b, m->pre_norm_b, C);
    for (int l = 0; l < c->depth; l++) {
        const vit__block *h = &m->blocks[l];
        vit__cuda_block *d = &s->blocks[l];
        VIT__UPV(d->ln1_w, h->ln1_w, C);
        VIT__UPV(d->ln1_b, h->ln1_b, C);
        VIT__TRY(vit__up_linear(u, &d->qkv_w, &d->qkv_sw, h->qkv_w, C, 3 * C));
        VIT__UPV(d->qkv_b, h->qkv_b, 3 * C);
        VIT__UPV(d->qn_w, h->qn_w, D);
        VIT__UPV(d->qn_b, h->qn_b, D);
        VIT__UPV(d->kn_w, h->kn_w, D);
        VIT__UPV(d->kn_b, h->kn_b, D);
        VIT__TRY(vit__up_linear(u, &d->proj_w, &d->proj_sw, h->proj_w, C, C));
        VIT__UPV(d->proj_b, h->proj_b, C);
        VIT__UPV(d->ls1, h->ls1, C);
        VIT__UPV(d->ls2, h->ls2, C);
        VIT__UPV(d->ln2_w, h->ln2_w, C);
        VIT__UPV(d->ln2_b, h->ln2_b, C);
        VIT__TRY(vit__up_linear(u, &d->fc1_w, &d->fc1_sw, h->fc1_w, C, M, &d->fc1_bw));
        d->fc1_bb = vit__abs_max(h->fc1_b, M);
        VIT__UPV(d->fc1_b, h->fc1_b, M);
        VIT__TRY(vit__up_linear(u, &d->fc2_w, &d->fc2_sw, h->fc2_w, vit__mlp_hidden(m), C));
        VIT__UPV(d->fc2_b, h->fc2_b, C);
    }
    VIT__UPV(s->norm_w, m->norm_w, C);
    VIT__UPV(s->norm_b, m->norm_b, C);
    VIT__UPV(s->fcn_w, m->fc_norm_w, C);
    VIT__UPV(s->fcn_b, m->fc_norm_b, C);
    if (c->pool == VIT_POOL_MAP) {
        const vit__map *p = &m->map;
        size_t Mm = (size_t)p->mlp_dim;
        VIT__TRY(vit__up(u, &s->map_q, p->q, C, 1, VIT__UP_LINEAR)); // a (C, 1) matrix: the vector in T
        VIT__TRY(vit__up(u, &s->map_kv_w, p->kv_w, C, 2 * C, VIT__UP_LINEAR));
        VIT__UPV(s->map_kv_b, p->kv_b, 2 * C);
        VIT__TRY(vit__up(u, &s->map_proj_w, p->proj_w, C, C, VIT__UP_LINEAR));
        VIT__UPV(s->map_proj_b, p->proj_b, C);
        VIT__UPV(s->map_norm_w, p->norm_w, C);
        VIT__UPV(s->map_norm_b, p->norm_b, C);
        VIT__TRY(vit__up(u, &s->map_fc1_w, p->fc1_w, C, Mm, VIT__UP_LINEAR));
        VIT__UPV(s->map_fc1_b, p->fc1_b, Mm);
        VIT__TRY(vit__up(u, &s->map_fc2_w, p->fc2_w, Mm, C, VIT__UP_LINEAR));
        VIT__UPV(s->map_fc2_b, p->fc2_b, C);
    }
    if (K) {
        VIT__TRY(vit__up(u, &s->head_w, m->head_w, C, K, VIT__UP_LINEAR, m->num_head)); // heads x (C, K) -> heads x (K, C)
        VIT__UPV(s->head_b, m->head_b, (size_t)m->num_head * K);
    }
    return VIT_OK;
}
#undef VIT__UPV


static vit_status vit__cuda_upload(vit_model *m) {
    vit__cuda_state *s = m->cuda;
    s->blocks = (vit__cuda_block *)vit__malloc(&m->alloc, (size_t)m->cfg.depth * sizeof(vit__cuda_block));
    if (!s->blocks) return vit__fail(m->error, VIT_ERROR_OUT_OF_MEMORY, "out of memory for the block table");
    memset(s->blocks, 0, (size_t)m->cfg.depth * sizeof(vit__cuda_block));
    vit__uploader u;
    memset(&u, 0, sizeof(u));
    u.m = m; u.dtype = s->dtype; u.esize = s->esize; u.f8 = s->f8;
    VIT__TRY(vit__upload_all(m, &u)); // count
    s->weights_bytes = u.used;
    VIT__TRY(vit__cuda_malloc(m, &s->weights, u.used, "weights"));
    u.stage = (unsigned char *)vit__malloc(&m->alloc, u.max_bytes);
    if (!u.stage) return vit__fail(m->error, VIT_ERROR_OUT_OF_MEMORY, "out of memory for a %zu-byte staging buffer", u.max_bytes);
    u.base = s->weights; u.used = 0;
    vit_status r = vit__upload_all(m, &u);
    vit__free(&m->alloc, u.stage);
    return r;
}

// The activation arena for B = max_batch, one allocation.
static vit_status vit__cuda_arena(vit_model *m) {
    vit__cuda_state *s = m->cuda;
    const vit_config *c = &m->cfg;
    size_t B = (size_t)m->max_batch, N = (size_t)c->num_tokens, C = (size_t)c->dim, es = s->esize;
    size_t W = 3 * C > (size_t)c->mlp_dim ? 3 * C : (size_t)c->mlp_dim, K = c->num_classes > 0 ? (size_t)c->num_classes : 1;
    // split-K partial sums: the default policy (vit__plan_split_grid) splits a GEMM of
    // fewer than 2 * sm_count tiles into split * tiles < 4 * sm_count CTAs, so
    // 4 * sm_count 64x64 tiles' worth holds every split it makes (with 128x256
    // tiles it splits less or not at all; vit__plan_split_wg keeps split * tiles <=
    // sm_count tiles of 128x64 or 128x128, within it too), and more than the
    // outputs times VIT__SPLITK_MAX is never needed
    size_t part = (size_t)4 * s->sm_count * 64 * 64, part_max = (size_t)VIT__SPLITK_MAX * B * N * W;
    if (part > part_max) part = part_max;
    size_t hidden = (size_t)vit__mlp_hidden(m), q8w = hidden > C ? hidden : C;
    size_t sizes[10] = {B * c->in_chans * c->image_height * c->image_width * 4, B * N * C * 4, B * N * C * es, B * N * W * es, (size_t)(m->num_head + (m->num_head > 1)) * B * C * 4, B * K * 4, part * 4,
                       s->f8 ? B * N * q8w : 0, s->f8 ? B * N * 4 * (2 + (hidden + 127) / 128) : 0, c->residual_dtype == VIT_DTYPE_BF16 ? B * N * C * 2 : 0};
    size_t off[10], total = 0;
    for (int i = 0; i < 10; i++) { off[i] = total; total += (sizes[i] + 255) & ~(size_t)255; }
    if (B * N > (size_t)INT_MAX / 2) return vit__fail(m->error, VIT_ERROR_LIMIT, "max_batch %d x %d tokens is too many rows for the GPU kernels", m->max_batch, c->num_tokens);
    VIT__TRY(vit__cuda_malloc(m, &s->arena, total, "activations"));
    s->arena_bytes = total;
    s->images = (float *)(s->arena + off[0]);
    s->x = (float *)(s->arena + off[1]);
    s->xn = s->arena + off[2];
    s->big = s->arena + off[3];
    s->pooled = (float *)(s->arena + off[4]);
    s->out = (float *)(s->arena + off[5]);
    s->part = (float *)(s->arena + off[6]);
    s->part_floats = part;
    s->q8 = s->f8 ? s->arena + off[7] : NULL;
    s->q8s = s->f8 ? (float *)(s->arena + off[8]) : NULL;
    s->q8bs = s->f8 ? s->q8s + B * N : NULL;
    s->q8n = s->f8 ? s->q8bs + B * N * ((hidden + 127) / 128) : NULL;
    s->xh = c->residual_dtype == VIT_DTYPE_BF16 ? s->arena + off[9] : NULL;
    if (VIT__PK_BUILT && vit__pk_fits(m)) VIT__TRY(vit__pk_workspace(m));
    return VIT_OK;
}

// The host API's staging, for max_batch images (vit__cuda_chunks): pinned
// and device input slots, pinned output slots, the copy stream and its events.
static vit_status vit__cuda_staging(vit_model *m) {
    vit__cuda_state *s = m->cuda;
    const vit_config *c = &m->cfg;
    size_t image = (size_t)c->in_chans * c->image_height * c->image_width * sizeof(float);
    s->out_floats = (size_t)(c->num_classes > c->dim ? c->num_classes : c->dim);
    VIT__CUDA_TRY(m, cudaStreamCreateWithFlags(&s->copy, cudaStreamNonBlocking));
    for (int j = 0; j < 2; j++) {
        VIT__CUDA_TRY(m, cudaEventCreateWithFlags(&s->staged[j], cudaEventDisableTiming));
        VIT__CUDA_TRY(m, cudaEventCreateWithFlags(&s->consumed[j], cudaEventDisableTiming));
        VIT__CUDA_TRY(m, cudaEventCreateWithFlags(&s->outed[j], cudaEventDisableTiming));
    }
    size_t outb = 2 * (size_t)m->max_batch * s->out_floats * sizeof(float);
    cudaError_t e = cudaHostAlloc((void **)&s->pin_out, outb, cudaHostAllocDefault);
    if (e != cudaSuccess) {
        cudaGetLastError();
        s->pin_out = NULL;
        return vit__fail(m->error, VIT_ERROR_OUT_OF_MEMORY, "cudaHostAlloc of %zu bytes of output staging: %s", outb, cudaGetErrorString(e));
    }
    // two slots of max_batch images each, or of max_batch / 2 where that would pass 64 MB
    size_t slot = image * (size_t)m->max_batch;
    if (slot > ((size_t)64 << 20) && m->max_batch > 1) slot = image * (size_t)((m->max_batch + 1) / 2);
    return vit__cuda_stage_reserve(m, slot);
}

// >>cuda hooks ----------------------------------------------------------------
// The functions vit.h calls: opening the GPU, freeing it, and running a
// forward pass from host or device images or 8-bit frames.

static void vit__cuda_free(vit_model *m) {
    vit__cuda_state *s = m->cuda;
    if (!s) return;
    int prev = -1;
    if (cudaGetDevice(&prev) == cudaSuccess && prev != s->device) cudaSetDevice(s->device);
    for (int i = 0; i < VIT__CUDA_GRAPHS; i++)
        if (s->graphs[i].batch) cudaGraphExecDestroy(s->graphs[i].exec);
    if (s->stream) cudaStreamSynchronize(s->stream);
    if (s->copy) cudaStreamSynchronize(s->copy);
    if (s->arena) cudaFree(s->arena);
    if (s->pk_ws) cudaFree(s->pk_ws);
    if (s->dev_in) cudaFree(s->dev_in);
    if (s->prep_tab) cudaFree(s->prep_tab);
    if (s->prep_tmp) cudaFree(s->prep_tmp);
    if (s->pin_in) cudaFreeHost(s->pin_in);
    if (s->pin_out) cudaFreeHost(s->pin_out);
    if (s->feat_buf) cudaFree(s->feat_buf);
    if (s->ids) cudaFree(s->ids);
    vit__free(&m->alloc, s->pool_host);
    for (int j = 0; j < 2; j++) {
        if (s->staged[j]) cudaEventDestroy(s->staged[j]);
        if (s->consumed[j]) cudaEventDestroy(s->consumed[j]);
        if (s->outed[j]) cudaEventDestroy(s->outed[j]);
    }
    if (s->copy) cudaStreamDestroy(s->copy);
    if (s->weights) cudaFree(s->weights);
    if (s->done) cudaEventDestroy(s->done);
    if (s->stream) cudaStreamDestroy(s->stream);
    if (prev >= 0 && prev != s->device) cudaSetDevice(prev);
    cudaGetLastError();
    vit__free(&m->alloc, s->blocks);
    vit__free(&m->alloc, s);
    m->cuda = NULL;
}

// Creates m->cuda for device index dev: stream, event, device facts (the
// shared memory a CTA may opt in to, which every plan fits), and whether the
// sm_90a (wgmma/TMA) kernels can run. No weights, no arena.
static vit_status vit__cuda_open(vit_model *m, int dev) {
    vit__cuda_state *s = (vit__cuda_state *)vit__malloc(&m->alloc, sizeof(vit__cuda_state));
    if (!s) return vit__fail(m->error, VIT_ERROR_OUT_OF_MEMORY, "out of memory for the CUDA state");
    memset(s, 0, sizeof(*s));
    m->cuda = s;
    s->device = dev;
#ifdef VIT_TEST_HOOKS
    s->use_graphs = 1;
#endif
    s->pdl_now = 1;
    s->dtype = VIT_DTYPE_BF16;
    s->esize = 2;
    int major = 0, minor = 0;
    VIT__CUDA_TRY(m, cudaSetDevice(dev));
    VIT__CUDA_TRY(m, cudaDeviceGetAttribute(&s->sm_count, cudaDevAttrMultiProcessorCount, dev));
    VIT__CUDA_TRY(m, cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
    VIT__CUDA_TRY(m, cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
    s->cc = major * 10 + minor;
    VIT__CUDA_TRY(m, cudaDeviceGetAttribute(&s->smem_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    VIT__CUDA_TRY(m, cudaStreamCreateWithFlags(&s->stream, cudaStreamNonBlocking));
    VIT__CUDA_TRY(m, cudaEventCreateWithFlags(&s->done, cudaEventDisableTiming));
    if (s->cc >= 90) {
        int *flag = NULL, on = 0;
        VIT__CUDA_TRY(m, cudaMalloc((void **)&flag, sizeof(int)));
        cudaError_t e = cudaSuccess;
        vit__probe_sm90a_kernel<<<1, 1, 0, s->stream>>>(flag);
        if ((e = cudaGetLastError()) == cudaSuccess) e = cudaMemcpyAsync(&on, flag, sizeof(int), cudaMemcpyDeviceToHost, s->stream);
        if (e == cudaSuccess) e = cudaStreamSynchronize(s->stream);
        cudaFree(flag);
        VIT__CUDA_TRY(m, e);
        cudaDriverEntryPointQueryResult q;
        void *fn = NULL;
        s->pdl = (on & 2) ? 1 : 0;
        if (s->cc == 90 && (on & 1) && cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q) == cudaSuccess &&
            q == cudaDriverEntryPointSuccess && fn) {
            s->encode = fn;
            s->wgmma = 1;
        }
        cudaGetLastError();
    }
    return VIT_OK;
}

// Why this program cannot run a dtype's kernels (a VIT_CUDA_* switch left them
// out), or NULL
static const char *vit__cuda_dtype_off(vit_dtype dt) {
#ifdef VIT_CUDA_NO_F32
    if (dt == VIT_DTYPE_F32) return "this program was compiled with VIT_CUDA_NO_F32";
#endif
#ifndef VIT_CUDA_F16
    if (dt == VIT_DTYPE_F16) return "this program was compiled without VIT_CUDA_F16 (the fp16 kernels are opt-in: #define VIT_CUDA_F16)";
#endif
#ifdef VIT_CUDA_NO_FP8
    if (dt == VIT_DTYPE_FP8) return "this program was compiled with VIT_CUDA_NO_FP8";
#endif
    (void)dt;
    return NULL;
}

// VIT_DEVICE_DEFAULT where the CUDA path does not run the model: the load goes
// on, on the CPU (vit_config.device), and vit_last_error(m) says why.
static vit_status vit__cuda_stay_cpu(vit_model *m, const char *why) {
    snprintf(m->error, VIT__ERR_LEN, "runs on the CPU (VIT_DEVICE_DEFAULT): %s", why);
    return VIT_OK;
}

// The architectures nvcc compiled this program for (__CUDA_ARCH_LIST__, e.g.
// 800,900: "compute_80 compute_90") into buf
static void vit__cuda_arch_list(char *buf, size_t n) {
#define VIT__STR2(...) #__VA_ARGS__ // (variadic: the list holds commas)
#define VIT__STR(...) VIT__STR2(__VA_ARGS__)
#ifdef __CUDA_ARCH_LIST__
    const char *p = VIT__STR(__CUDA_ARCH_LIST__);
#else
    const char *p = "";
#endif
#undef VIT__STR
#undef VIT__STR2
    size_t k = 0;
    buf[0] = 0;
    while (*p && k + 16 < n) {
        int a = 0;
        while (*p >= '0' && *p <= '9') a = 10 * a + (*p++ - '0');
        while (*p && (*p < '0' || *p > '9')) p++;
        if (a) k += (size_t)snprintf(buf + k, n - k, "%scompute_%d", k ? " " : "", a / 10);
    }
    if (!k) snprintf(buf, n, "unknown architectures");
}

// Whether the CUDA path runs on device dev: compute capability 8.0 or newer
// (bf16 tensor cores, cp.async), and code in this program that the GPU can run
// (machine code for it, or PTX its driver compiles). NULL, or why not in why;
// a CUDA failure is returned.
static vit_status vit__cuda_can_run(int dev, char *why, size_t n, char *err) {
    int major = 0, minor = 0, prev = 0;
    cudaError_t e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev);
    if (e != cudaSuccess) {
        cudaGetLastError();
        return vit__fail(err, VIT_ERROR_CUDA, "cudaDeviceGetAttribute: %s", cudaGetErrorString(e));
    }
    int cc = 10 * major + minor, no_code = 0;
#ifdef VIT_TEST_HOOKS
    if (vit__test_gpu.cc) cc = vit__test_gpu.cc;
#endif
    why[0] = 0;
    if (cc < 80) {
        snprintf(why, n, "this GPU is sm_%d; the CUDA kernels need compute capability 8.0 or newer (bf16 tensor cores)", cc);
        return VIT_OK;
    }
    // the probe kernel is compiled for every architecture the program holds
    cudaFuncAttributes fa;
    if ((e = cudaGetDevice(&prev)) == cudaSuccess && (e = cudaSetDevice(dev)) == cudaSuccess) {
        e = cudaFuncGetAttributes(&fa, vit__probe_sm90a_kernel);
        cudaSetDevice(prev);
    }
#ifdef VIT_TEST_HOOKS
    if (vit__test_gpu.no_code) e = cudaErrorNoKernelImageForDevice;
#endif
    if (e == cudaErrorNoKernelImageForDevice || e == cudaErrorInvalidDeviceFunction || e == cudaErrorUnsupportedPtxVersion) no_code = 1;
    else if (e != cudaSuccess) {
        cudaGetLastError();
        return vit__fail(err, VIT_ERROR_CUDA, "cudaFuncGetAttributes: %s", cudaGetErrorString(e));
    }
    cudaGetLastError();
    if (no_code) {
        char archs[160];
        vit__cuda_arch_list(archs, sizeof(archs));
        snprintf(why, n, "this program has no code this GPU (sm_%d) can run (%s): it was compiled for %s; add -gencode=arch=compute_%d%s,code=sm_%d%s to nvcc's line",
                 cc, cudaGetErrorName(e), archs, cc, cc == 90 ? "a" : "", cc, cc == 90 ? "a" : "");
    }
    return VIT_OK;
}

// Moves a loaded model (host fp32 weights) to the GPU. See vit.h for the contract.
static vit_status vit__cuda_init(vit_model *m, const vit_options *o, char *err) {
    if (o->device == VIT_DEVICE_CPU) return VIT_OK;
    if (o->dtype == VIT_DTYPE_INT8) { // the CPU path's dtype
        if (o->device == VIT_DEVICE_DEFAULT) return vit__cuda_stay_cpu(m, "dtype int8 runs on the CPU only");
        return vit__fail(err, VIT_ERROR_UNSUPPORTED, "dtype int8 runs on the CPU only (VIT_DEVICE_CPU or VIT_DEVICE_DEFAULT)");
    }
    char why[VIT__ERR_LEN - 64];
    const char *off = vit__cuda_dtype_off(o->dtype);
    if (off) { // this program was compiled without the dtype's kernels
        snprintf(why, sizeof(why), "dtype %s on CUDA: %s", o->dtype == VIT_DTYPE_F32 ? "fp32" : o->dtype == VIT_DTYPE_F16 ? "fp16" : "fp8", off);
        if (o->device == VIT_DEVICE_DEFAULT) return vit__cuda_stay_cpu(m, why);
        return vit__fail(err, VIT_ERROR_UNSUPPORTED, "%s", why);
    }
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        if (e != cudaSuccess) cudaGetLastError();
        snprintf(why, sizeof(why), "no CUDA device: %s", e != cudaSuccess ? cudaGetErrorString(e) : "device count is 0");
        if (o->device == VIT_DEVICE_DEFAULT) return vit__cuda_stay_cpu(m, why);
        return vit__fail(err, VIT_ERROR_CUDA, "%s", why);
    }
    if (o->device_index >= count)
        return vit__fail(err, VIT_ERROR_INVALID_ARGUMENT, "device_index %d, but only %d CUDA devices", o->device_index, count);
    VIT__TRY(vit__cuda_can_run(o->device_index, why, sizeof(why), err));
    if (!why[0] && m->cfg.dim / m->cfg.num_heads > 128) snprintf(why, sizeof(why), "head size %d, above 128", m->cfg.dim / m->cfg.num_heads);
    if (why[0]) {
        if (o->device == VIT_DEVICE_DEFAULT) return vit__cuda_stay_cpu(m, why);
        return vit__fail(err, VIT_ERROR_UNSUPPORTED, "the CUDA path does not run this model: %s", why);
    }
    int prev = 0;
    cudaGetDevice(&prev);
    vit_status st = vit__cuda_open(m, o->device_index);
    if (st == VIT_OK && o->dtype == VIT_DTYPE_FP8) { // the blocks' linears in e4m3, the rest bf16
        int hidden = (int)vit__mlp_hidden(m), C = m->cfg.dim;
        if (!m->cuda->wgmma)
            st = vit__fail(m->error, VIT_ERROR_UNSUPPORTED, "dtype fp8 on CUDA: the e4m3 GEMMs are wgmma kernels, for sm_90a (this GPU is sm_%d%s); VIT_DEVICE_CPU runs "
                           "their reference", m->cuda->cc, m->cuda->cc == 90 ? ", the binary was not built for sm_90a" : "");
        else if (C % 16 || hidden % 16)
            st = vit__fail(m->error, VIT_ERROR_UNSUPPORTED, "dtype fp8 on CUDA: width %d and MLP width %d must be multiples of 16 (e4m3 rows for the TMA)", C, hidden);
        if (st != VIT_OK && o->device == VIT_DEVICE_DEFAULT) { // stays on the CPU, the e4m3 reference
            memcpy(why, m->error, sizeof(why) - 1);
            why[sizeof(why) - 1] = 0;
            vit__cuda_free(m);
            cudaSetDevice(prev);
            return vit__cuda_stay_cpu(m, why);
        }
        m->cuda->f8 = 1;
    }
    if (st == VIT_OK) {
        m->cuda->dtype = o->dtype == VIT_DTYPE_DEFAULT || o->dtype == VIT_DTYPE_FP8 ? VIT_DTYPE_BF16 : o->dtype;
        m->cuda->esize = m->cuda->dtype == VIT_DTYPE_F32 ? 4 : 2;
        if (m->cfg.residual_dtype == VIT_DTYPE_BF16 && m->cuda->dtype != VIT_DTYPE_BF16) // (the kernels store x in their compute type)
            st = vit__fail(m->error, VIT_ERROR_UNSUPPORTED, "residual_dtype bf16 on CUDA needs dtype bf16 or fp8 (this model loads in %s)",
                           m->cuda->dtype == VIT_DTYPE_F32 ? "fp32" : "fp16");
    }
    if (st == VIT_OK) st = vit__cuda_upload(m);
    if (st == VIT_OK) st = vit__cuda_arena(m);
    if (st == VIT_OK) st = vit__cuda_staging(m);
    if (st != VIT_OK) {
        memcpy(err, m->error, VIT__ERR_LEN);
        vit__cuda_free(m);
    } else {
        m->cfg.device = VIT_DEVICE_CUDA;
        m->cfg.dtype = m->cuda->f8 ? VIT_DTYPE_FP8 : m->cuda->dtype;
    }
    cudaSetDevice(prev);
    cudaGetLastError();
    return st;
}

static vit_status vit__forward_cuda_host(vit_model *m, const float *images, int n, float *out, int want_logits) {
    return vit__cuda_run(m, images, n, 0, 0, 0, 0, 0, out, want_logits, NULL, 0);
}

// The stream must be a live stream of the model's device (a destroyed
// cudaStream_t is undefined behaviour in CUDA itself and cannot be detected).
static vit_status vit__forward_cuda_async(vit_model *m, const float *images, int n, float *out, int want_logits, cudaStream_t stream) {
    return vit__cuda_run(m, images, n, 0, 0, 0, 0, 0, out, want_logits, stream, 1);
}

static vit_status vit__forward_cuda_rgb8(vit_model *m, const unsigned char *frames, int n, int width, int height, int stride, int channels, float *out,
                                         int want_logits, cudaStream_t stream, int async) {
    return vit__cuda_run(m, frames, n, width, height, stride, channels, 1, out, want_logits, stream, async);
}

#ifndef VIT_NO_TEXT
// A full CLIP / SigLIP model on a GPU: its text tower t (host weights loaded)
// onto the same device, in the image model's dtype and residual stream, with
// buffers for max_batch texts' ids. The caller leaves t on the CPU on failure.
static vit_status vit__text_cuda_init(vit_model *m, vit_model *t, char *err) {
    vit_options o;
    memset(&o, 0, sizeof(o));
    o.device = VIT_DEVICE_CUDA;
    o.device_index = m->cuda->device;
    o.dtype = m->cfg.dtype;
    t->cfg.device = VIT_DEVICE_CPU;
    t->cfg.dtype = VIT_DTYPE_F32;
    t->cfg.residual_dtype = m->cfg.residual_dtype;
    VIT__TRY(vit__cuda_init(t, &o, err));
    vit__cuda_state *s = t->cuda;
    int prev = 0;
    cudaGetDevice(&prev);
    cudaSetDevice(s->device);
    size_t n = (size_t)t->max_batch * (t->cfg.num_tokens + 1);
    cudaError_t e = cudaMalloc((void **)&s->ids, n * sizeof(int));
    if (e == cudaSuccess) s->pool_at = s->ids + (size_t)t->max_batch * t->cfg.num_tokens;
    else { cudaGetLastError(); s->ids = NULL; }
    cudaSetDevice(prev);
    if (!s->ids) return vit__fail(err, VIT_ERROR_OUT_OF_MEMORY, "cudaMalloc of %zu bytes for the texts' ids failed", n * sizeof(int));
    if (!(s->pool_host = (int *)vit__malloc(&t->alloc, (size_t)t->max_batch * sizeof(int))))
        return vit__fail(err, VIT_ERROR_OUT_OF_MEMORY, "out of memory for %d texts' pooled positions", t->max_batch);
    return VIT_OK;
}

// B <= max_batch texts (ids B x N, checked) through the text tower on its GPU
// into out (B x K host floats: its head's output, not yet normalised).
// Synchronous.
static vit_status vit__text_cuda(vit_model *t, const int *ids, int B, float *out) {
    vit__cuda_state *s = t->cuda;
    int prev = 0, N = t->cfg.num_tokens, K = t->cfg.num_classes, *pool_at = s->pool_host;
    for (int b = 0; b < B; b++) pool_at[b] = vit__text_pool_at(t, ids + (size_t)b * N, N);
    VIT__CUDA_TRY(t, cudaGetDevice(&prev));
    if (prev != s->device) VIT__CUDA_TRY(t, cudaSetDevice(s->device));
    cudaStream_t st = s->stream;
    vit_status r = VIT_OK;
    cudaError_t e = cudaMemcpyAsync(s->ids, ids, (size_t)B * N * sizeof(int), cudaMemcpyHostToDevice, st);
    if (e == cudaSuccess) e = cudaMemcpyAsync(s->pool_at, pool_at, (size_t)B * sizeof(int), cudaMemcpyHostToDevice, st);
    if (e == cudaSuccess) r = vit__cuda_pass(t, B, 0, 0, t->cfg.depth, st);
    if (e == cudaSuccess && r == VIT_OK) e = cudaMemcpyAsync(out, s->out, (size_t)B * K * sizeof(float), cudaMemcpyDeviceToHost, st);
    if (e == cudaSuccess && r == VIT_OK) e = cudaStreamSynchronize(st);
    if (e != cudaSuccess) {
        cudaGetLastError();
        r = vit__fail(t->error, VIT_ERROR_CUDA, "CUDA error %s (%s) in the text tower", cudaGetErrorName(e), cudaGetErrorString(e));
    }
    if (prev != s->device) cudaSetDevice(prev);
    return r;
}
#endif // VIT_NO_TEXT

static vit_status vit__features_cuda(vit_model *m, const char *fn, const void *data, int n, int width, int height, int stride, int channels, int frames,
                                     const vit__feat *f, void *out, cudaStream_t stream, int async) {
    return vit__cuda_run(m, data, n, width, height, stride, channels, frames, (float *)out, 0, stream, async, f, fn);
}

#endif // VIT_KERNELS_CUH_INCLUDED

/*
------------------------------------------------------------------------------
This software is available under 2 licenses -- choose whichever you prefer.
------------------------------------------------------------------------------
ALTERNATIVE A - MIT License
Copyright (c) 2026 the vit.h developers
Permission is hereby granted, free of charge, to any person obtaining a copy of
this software and associated documentation files (the "Software"), to deal in
the Software without restriction, including without limitation the rights to
use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies
of the Software, and to permit persons to whom the Software is furnished to do
so, subject to the following conditions:
The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.
THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
------------------------------------------------------------------------------
ALTERNATIVE B - Public Domain (www.unlicense.org)
This is free and unencumbered software released into the public domain.
Anyone is free to copy, modify, publish, use, compile, sell, or distribute this
software, either in source code form or as a compiled binary, for any purpose,
commercial or non-commercial, and by any means.
In jurisdictions that recognize copyright laws, the author or authors of this
software dedicate any and all copyright interest in the software to the public
domain. We make this dedication for the benefit of the public at large and to
the detriment of our heirs and successors. We intend this dedication to be an
overt act of relinquishment in perpetuity of all present and future rights to
this software under copyright law.
THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN
ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION
WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
------------------------------------------------------------------------------
*/
