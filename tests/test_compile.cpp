// test_compile: vit.h compiles as C++ (and, under nvcc, with vit_kernels.cuh),
// and the defaults and status strings behave. Runs without a model file.
// usage: test_compile [MODEL.safetensors]: under nvcc, built as a user's
// program is (without VIT_CUDA_F16), fp16 on VIT_DEVICE_CUDA is refused naming
// VIT_CUDA_F16 and VIT_DEVICE_DEFAULT loads it on the CPU saying why, with a
// GPU or without.
#define VIT_IMPLEMENTATION
#include "../vit.h"
#include <stdio.h>
#include <string.h>

#if defined(__CUDACC__) && !defined(VIT_CUDA_F16)
// fp16 on CUDA, a program without VIT_CUDA_F16: 0 when refused / on the CPU as it should be
static int fp16_opt_in(const char *path) {
    int failed = 0;
    vit_options o;
    memset(&o, 0, sizeof(o));
    o.dtype = VIT_DTYPE_F16;
    o.device = VIT_DEVICE_CUDA;
    vit_model *m = NULL;
    vit_status st = vit_load(path, &o, &m);
    if (st != VIT_ERROR_UNSUPPORTED || m || !strstr(vit_last_error(NULL), "VIT_CUDA_F16")) {
        printf("NOT OK fp16 on VIT_DEVICE_CUDA without VIT_CUDA_F16: %s: %s\n", vit_status_string(st), vit_last_error(NULL));
        failed++;
    } else printf("OK fp16 on VIT_DEVICE_CUDA refused: %s\n", vit_last_error(NULL));
    vit_free(m);
    m = NULL;
    o.device = VIT_DEVICE_DEFAULT;
    st = vit_load(path, &o, &m);
    if (st != VIT_OK || vit_model_config(m)->device != VIT_DEVICE_CPU || !strstr(vit_last_error(m), "VIT_CUDA_F16")) {
        printf("NOT OK fp16 on VIT_DEVICE_DEFAULT without VIT_CUDA_F16: %s, %s: '%s'\n", vit_status_string(st),
               st == VIT_OK && vit_model_config(m)->device == VIT_DEVICE_CPU ? "on the CPU" : "not on the CPU", m ? vit_last_error(m) : vit_last_error(NULL));
        failed++;
    } else printf("OK fp16 on VIT_DEVICE_DEFAULT runs on the CPU: %s\n", vit_last_error(m));
    vit_free(m);
    return failed;
}
#endif

int main(int argc, char **argv) {
    int failed = 0;
    vit_options zero;
    memset(&zero, 0, sizeof(zero));
    vit_options d = vit_query_defaults(&zero);
    vit_options dn = vit_query_defaults(NULL);
    if (d.max_batch != 8 || d.num_threads < 1 || dn.max_batch != 8 || d.device != VIT_DEVICE_DEFAULT) {
        printf("NOT OK defaults: max_batch %d threads %d\n", d.max_batch, d.num_threads);
        failed++;
    }
    for (int s = 0; s > -VIT_STATUS_COUNT; s--) {
        const char *str = vit_status_string((vit_status)s);
        if (!str || !strcmp(str, "unknown status")) { printf("NOT OK status %d has no string\n", s); failed++; }
    }
    if (strcmp(vit_status_string((vit_status)-99), "unknown status")) { printf("NOT OK unknown status\n"); failed++; }
    vit_model *m = (vit_model *)1;
    if (vit_load_memory(NULL, 0, NULL, &m) != VIT_ERROR_INVALID_ARGUMENT || m != NULL) { printf("NOT OK NULL data\n"); failed++; }
    if (vit_model_config(NULL) != NULL || vit_last_error(NULL)[0] == 0) { printf("NOT OK NULL model\n"); failed++; }
#if defined(__CUDACC__) && !defined(VIT_CUDA_F16)
    if (argc > 1) failed += fp16_opt_in(argv[1]);
#else
    (void)argv;
#endif
    (void)argc;
    printf("%s compile/defaults (%s)\n", failed ? "NOT OK" : "OK",
#ifdef __CUDACC__
           "nvcc"
#else
           "c++"
#endif
    );
    printf("%d passed, %d failed\n", failed ? 0 : 1, failed ? 1 : 0);
    return failed ? 1 : 0;
}
