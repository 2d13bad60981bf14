// test_gpu_switches: a program compiled with VIT_CUDA_NO_F32, VIT_CUDA_NO_F16
// and VIT_CUDA_NO_FP8 has no kernels for those dtypes: asking for one on
// VIT_DEVICE_CUDA is refused with VIT_ERROR_UNSUPPORTED naming the switch,
// VIT_DEVICE_DEFAULT runs it on the CPU (the same logits as VIT_DEVICE_CPU),
// and bf16, the dtype it kept, still runs on the GPU. Prints SKIP without a
// CUDA device.
//
// usage: test_gpu_switches MODEL_DIR   (a reference case of width 16 or more, e.g. tests/data/ref/timm_bf16)
#define VIT_CUDA_NO_F32
#define VIT_CUDA_NO_F16
#define VIT_CUDA_NO_FP8
#define VIT_IMPLEMENTATION
#include "../vit.h"
#include "test_util.h"
#include <stdio.h>
#include <string.h>

static vit_status load(const char *dir, vit_device dev, vit_dtype dt, vit_model **m) {
    char path[1024];
    snprintf(path, sizeof(path), "%s/model.safetensors", dir);
    vit_options o;
    memset(&o, 0, sizeof(o));
    o.device = dev;
    o.dtype = dt;
    o.max_batch = 2;
    return vit_load(path, &o, m);
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: test_gpu_switches MODEL_DIR\n"); return 2; }
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        printf("SKIP test_gpu_switches: no CUDA device\n");
        return 0;
    }
    const char *dir = argv[1];
    char path[1024];
    reference r;
    memset(&r, 0, sizeof(r));
    snprintf(path, sizeof(path), "%s/io.bin", dir);
    if (!read_reference(path, &r) || r.k <= 0) { printf("NOT OK %s: cannot read a classifier's io.bin\n", dir); return 1; }
    struct { vit_dtype dt; const char *name, *macro; } off[3] = {
        {VIT_DTYPE_F32, "fp32", "VIT_CUDA_NO_F32"}, {VIT_DTYPE_F16, "fp16", "VIT_CUDA_NO_F16"}, {VIT_DTYPE_FP8, "fp8", "VIT_CUDA_NO_FP8"}};
    size_t nl = (size_t)r.n * r.k;
    float *cpu = (float *)malloc(nl * sizeof(float)), *got = (float *)malloc(nl * sizeof(float));
    for (int i = 0; i < 3; i++) {
        char what[200], detail[600];
        vit_model *m = NULL;
        vit_status st = load(dir, VIT_DEVICE_CUDA, off[i].dt, &m);
        snprintf(what, sizeof(what), "%s on VIT_DEVICE_CUDA refused", off[i].name);
        snprintf(detail, sizeof(detail), "%s: %s", vit_status_string(st), vit_last_error(NULL));
        check(st == VIT_ERROR_UNSUPPORTED && !m && strstr(vit_last_error(NULL), off[i].macro), what, "%s", detail);
        vit_free(m);
        m = NULL;
        // VIT_DEVICE_DEFAULT: on the CPU, the CPU's logits to the bit
        vit_model *mc = NULL;
        st = load(dir, VIT_DEVICE_DEFAULT, off[i].dt, &m);
        vit_status sc = load(dir, VIT_DEVICE_CPU, off[i].dt, &mc);
        int ran = st == VIT_OK && sc == VIT_OK && vit_model_config(m)->device == VIT_DEVICE_CPU;
        memset(got, 0xFF, nl * sizeof(float));
        ran = ran && vit_forward(m, r.input, r.n, got) == VIT_OK && vit_forward(mc, r.input, r.n, cpu) == VIT_OK;
        snprintf(what, sizeof(what), "%s on VIT_DEVICE_DEFAULT runs on the CPU", off[i].name);
        snprintf(detail, sizeof(detail), "%s%s", vit_status_string(st), ran && !memcmp(got, cpu, nl * sizeof(float)) ? ", the CPU's logits" : ", not the CPU's logits");
        check(ran && !memcmp(got, cpu, nl * sizeof(float)), what, "%s", detail);
        vit_free(m);
        vit_free(mc);
    }
    vit_model *m = NULL;
    vit_status st = load(dir, VIT_DEVICE_CUDA, VIT_DTYPE_BF16, &m);
    int ok = st == VIT_OK && vit_model_config(m)->device == VIT_DEVICE_CUDA && vit_forward(m, r.input, r.n, got) == VIT_OK;
    double err = ok ? rel_err(got, r.logits, nl) : 1;
    char detail[200];
    snprintf(detail, sizeof(detail), "%s, logits within %.3g of PyTorch's (relative to the largest; bf16 tolerance 2e-2)", vit_status_string(st), err);
    check(ok && err <= 2e-2, "bf16 still runs on the GPU", "%s", detail);
    vit_free(m);
    free(cpu); free(got); free(r.input); free(r.logits); free(r.features);
    printf("%d passed, %d failed\n", g_passed, g_failed);
    return g_failed ? 1 : 0;
}
