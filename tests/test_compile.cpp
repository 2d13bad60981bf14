// test_compile: vit.h compiles as C++ (and, under nvcc, with vit_kernels.cuh),
// and the defaults and status strings behave. Runs without a model file.
#define VIT_IMPLEMENTATION
#include "../vit.h"
#include <stdio.h>
#include <string.h>

int main(void) {
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
