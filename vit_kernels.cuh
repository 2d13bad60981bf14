/* vit_kernels.cuh - v0.1.0 - CUDA kernels for vit.h - MIT or public domain (see end of file)

   Included by vit.h (never on its own) when compiled by nvcc and VIT_NO_CUDA is
   not defined. Everything here is static.
*/
#ifndef VIT_KERNELS_CUH_INCLUDED
#define VIT_KERNELS_CUH_INCLUDED

#if VIT_VERSION_MAJOR != 0 || VIT_VERSION_MINOR != 1 || VIT_VERSION_PATCH != 0
#error "vit_kernels.cuh does not match the version of vit.h"
#endif

#include <cuda_runtime.h>

struct vit__cuda_state {
    int device;
};

// Picks the device. With VIT_DEVICE_DEFAULT and no usable GPU the model stays on the CPU.
static vit_status vit__cuda_init(vit_model *m, const vit_options *o, char *err) {
    if (o->device == VIT_DEVICE_CPU) return VIT_OK;
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        if (e != cudaSuccess) cudaGetLastError();
        if (o->device == VIT_DEVICE_DEFAULT) return VIT_OK;
        return vit__fail(err, VIT_ERROR_CUDA, "no CUDA device: %s", e != cudaSuccess ? cudaGetErrorString(e) : "device count is 0");
    }
    if (o->device_index >= count)
        return vit__fail(err, VIT_ERROR_INVALID_ARGUMENT, "device_index %d, but only %d CUDA devices", o->device_index, count);
    (void)m;
    return VIT_OK; // kernels arrive with the GPU issue: run on the CPU meanwhile
}

static void vit__cuda_free(vit_model *m) { (void)m; }

static vit_status vit__forward_cuda_host(vit_model *m, const float *images, int n, float *out, int want_logits) {
    (void)images; (void)n; (void)out; (void)want_logits;
    return vit__fail(m->error, VIT_ERROR_CUDA, "CUDA forward not available");
}

static vit_status vit__forward_cuda_async(vit_model *m, const float *images, int n, float *out, int want_logits, cudaStream_t stream) {
    (void)images; (void)n; (void)out; (void)want_logits; (void)stream;
    return vit__fail(m->error, VIT_ERROR_CUDA, "CUDA forward not available");
}

#endif // VIT_KERNELS_CUH_INCLUDED
