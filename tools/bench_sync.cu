// bench_sync: what one step between two phases of work costs on this GPU, as
// a kernel boundary or as a barrier inside one persistent kernel (the choice
// behind a batch-1 forward pass of ~90 kernels):
//   1. empty kernels of SMs x 384 threads chained in a CUDA graph, with and
//      without programmatic dependent launch (PDL: each waits, then lets the
//      next one start). No shared memory, so a next kernel's CTAs may share
//      an SM with the last ones: a lower bound on what a boundary costs the
//      forward's 230 KB, one-CTA-an-SM kernels, without their start-up and tail;
//   2. a grid-wide barrier (an atomic counter, one spinning thread a CTA; a
//      cooperative launch, so every CTA is resident);
//   3. each CTA writes 16 KB, barrier, reads another CTA's 16 KB, barrier.
// Build and run: make build/bench_sync && build/bench_sync (needs sm_90 for PDL).
// Prints the best of the timed repetitions per step, in microseconds.
#include <cstdio>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void empty_k(int *p, int pdl) {
#if __CUDA_ARCH__ >= 900
    if (pdl) asm volatile("griddepcontrol.wait;\n" ::: "memory");
    if (pdl) asm volatile("griddepcontrol.launch_dependents;\n");
#endif
    if (threadIdx.x == 0 && p[blockIdx.x] == 12345) p[blockIdx.x] = 1;
}

__device__ __forceinline__ void grid_bar(unsigned *count, unsigned target) {
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("red.release.gpu.global.add.u32 [%0], 1;\n" ::"l"(count) : "memory");
        unsigned v;
        do { asm volatile("ld.acquire.gpu.global.u32 %0, [%1];\n" : "=r"(v) : "l"(count) : "memory"); } while (v < target);
    }
    __syncthreads();
}

__global__ void persist_k(unsigned *count, int rounds, float4 *buf, int exchange) {
    float acc = 0.f;
    for (int r = 0; r < rounds; r++) {
        if (exchange) { // write my 16 KB, barrier, read the next CTA's
            float4 *mine = buf + (size_t)blockIdx.x * 1024;
            for (int i = threadIdx.x; i < 1024; i += blockDim.x) mine[i] = make_float4(r, r, r, r);
        }
        grid_bar(count, (unsigned)gridDim.x * (r + 1));
        if (exchange) {
            const float4 *other = buf + (size_t)((blockIdx.x + 1) % gridDim.x) * 1024;
            for (int i = threadIdx.x; i < 1024; i += blockDim.x) { float4 v = __ldcg(other + i); acc += v.x; }
            grid_bar(count + 1, (unsigned)gridDim.x * (r + 1)); // before anyone overwrites
        }
    }
    if (acc == -1.f) buf[0].x = acc;
}

int main() {
    int sm; CK(cudaDeviceGetAttribute(&sm, cudaDevAttrMultiProcessorCount, 0));
    cudaStream_t s; CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    int *p; CK(cudaMalloc(&p, 4096 * 4)); CK(cudaMemset(p, 0, 4096 * 4));
    cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
    for (int pdl = 0; pdl < 2; pdl++) {
        cudaGraph_t g; cudaGraphExec_t ge;
        CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
        for (int i = 0; i < 200; i++) {
            cudaLaunchConfig_t c = {}; cudaLaunchAttribute at[1];
            c.gridDim = sm; c.blockDim = 384; c.stream = s;
            at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization; at[0].val.programmaticStreamSerializationAllowed = 1;
            c.attrs = at; c.numAttrs = pdl;
            CK(cudaLaunchKernelEx(&c, empty_k, p, pdl));
        }
        CK(cudaStreamEndCapture(s, &g)); CK(cudaGraphInstantiate(&ge, g, 0));
        float best = 1e9;
        for (int it = 0; it < 20; it++) {
            CK(cudaEventRecord(e0, s)); CK(cudaGraphLaunch(ge, s)); CK(cudaEventRecord(e1, s)); CK(cudaEventSynchronize(e1));
            float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); if (it > 2 && ms < best) best = ms;
        }
        printf("empty %d x 384 kernels in a graph, pdl %d: %.2f us per kernel\n", sm, pdl, best * 1e3 / 200);
    }
    unsigned *count; float4 *buf;
    CK(cudaMalloc(&count, 8)); CK(cudaMalloc(&buf, (size_t)sm * 1024 * 16));
    for (int ex = 0; ex < 2; ex++) {
        float best = 1e9; int rounds = 2000;
        for (int it = 0; it < 10; it++) {
            CK(cudaMemsetAsync(count, 0, 8, s));
            void *args[4] = {&count, &rounds, &buf, &ex};
            CK(cudaEventRecord(e0, s)); CK(cudaLaunchCooperativeKernel((void *)persist_k, sm, 384, args, 0, s)); CK(cudaEventRecord(e1, s));
            CK(cudaEventSynchronize(e1)); float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); if (it > 1 && ms < best) best = ms;
        }
        printf("persistent %d x 384: %s: %.2f us per round\n", sm, ex ? "barrier + 16 KB written / barrier / read + barrier" : "grid barrier", best * 1e3 / rounds);
    }
    return 0;
}
