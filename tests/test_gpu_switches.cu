// test_gpu_switches: a program compiled with VIT_CUDA_NO_F32 and VIT_CUDA_NO_FP8,
// and without VIT_CUDA_F16 (the default), has no kernels for those dtypes:
// asking for one on VIT_DEVICE_CUDA is refused with VIT_ERROR_UNSUPPORTED naming
// the switch, VIT_DEVICE_DEFAULT runs it on the CPU (the same logits as
// VIT_DEVICE_CPU) and says why in vit_last_error, and bf16, the dtype it kept,
// still runs on the GPU. These hold without a GPU too. With one, a GPU the
// CUDA path cannot run (vit__test_gpu: pretending compute capability 7.5, or
// a program with no code for the GPU) is refused on VIT_DEVICE_CUDA and runs
// on the CPU, saying why, on VIT_DEVICE_DEFAULT.
//
// usage: test_gpu_switches MODEL_DIR   (a reference case of width 16 or more, e.g. tests/data/ref/timm_bf16)
#define VIT_CUDA_NO_F32
#define VIT_CUDA_NO_FP8
#undef VIT_CUDA_F16
#define VIT_TEST_HOOKS // vit__test_gpu: pretend a GPU the CUDA path cannot run
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

// dt on VIT_DEVICE_CUDA refused naming `needle`; on VIT_DEVICE_DEFAULT on the
// CPU with the CPU's logits to the bit and `needle` in vit_last_error
static void refused_and_cpu(const char *dir, const reference *r, vit_dtype dt, const char *name, const char *needle) {
    char what[300], detail[1200];
    size_t nl = (size_t)r->n * r->k;
    float *cpu = (float *)malloc(nl * sizeof(float)), *got = (float *)malloc(nl * sizeof(float));
    vit_model *m = NULL;
    vit_status st = load(dir, VIT_DEVICE_CUDA, dt, &m);
    snprintf(what, sizeof(what), "%s on VIT_DEVICE_CUDA refused, naming '%s'", name, needle);
    snprintf(detail, sizeof(detail), "%s: %s", vit_status_string(st), vit_last_error(NULL));
    check(st == VIT_ERROR_UNSUPPORTED && !m && strstr(vit_last_error(NULL), needle), what, "%s", detail);
    vit_free(m);
    m = NULL;
    vit_model *mc = NULL;
    st = load(dir, VIT_DEVICE_DEFAULT, dt, &m);
    vit_status sc = load(dir, VIT_DEVICE_CPU, dt, &mc);
    int ran = st == VIT_OK && sc == VIT_OK && vit_model_config(m)->device == VIT_DEVICE_CPU;
    int said = ran && strstr(vit_last_error(m), needle) != NULL;
    snprintf(detail, sizeof(detail), "%s, vit_last_error '%s'", vit_status_string(st), ran ? vit_last_error(m) : vit_last_error(NULL));
    memset(got, 0xFF, nl * sizeof(float));
    ran = ran && vit_forward(m, r->input, r->n, got) == VIT_OK && vit_forward(mc, r->input, r->n, cpu) == VIT_OK;
    snprintf(what, sizeof(what), "%s on VIT_DEVICE_DEFAULT runs on the CPU (the CPU's logits) and says why", name);
    check(ran && said && !memcmp(got, cpu, nl * sizeof(float)), what, "%s%s", detail, ran && !memcmp(got, cpu, nl * sizeof(float)) ? "" : ", not the CPU's logits");
    vit_free(m);
    vit_free(mc);
    free(cpu); free(got);
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: test_gpu_switches MODEL_DIR\n"); return 2; }
    const char *dir = argv[1];
    char path[1024];
    reference r;
    memset(&r, 0, sizeof(r));
    snprintf(path, sizeof(path), "%s/io.bin", dir);
    if (!read_reference(path, &r) || r.k <= 0) { printf("NOT OK %s: cannot read a classifier's io.bin\n", dir); return 1; }
    // the dtypes compiled out: refused / on the CPU, with a GPU or without
    refused_and_cpu(dir, &r, VIT_DTYPE_F32, "fp32", "VIT_CUDA_NO_F32");
    refused_and_cpu(dir, &r, VIT_DTYPE_F16, "fp16", "VIT_CUDA_F16");
    refused_and_cpu(dir, &r, VIT_DTYPE_FP8, "fp8", "VIT_CUDA_NO_FP8");
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        cudaGetLastError();
        printf("SKIP the GPU checks of test_gpu_switches: no CUDA device\n");
        printf("%d passed, %d failed\n", g_passed, g_failed);
        return g_failed ? 1 : 0;
    }
    size_t nl = (size_t)r.n * r.k;
    float *got = (float *)malloc(nl * sizeof(float));
    vit_model *m = NULL;
    vit_status st = load(dir, VIT_DEVICE_CUDA, VIT_DTYPE_BF16, &m);
    int ok = st == VIT_OK && vit_model_config(m)->device == VIT_DEVICE_CUDA && vit_forward(m, r.input, r.n, got) == VIT_OK;
    double err = ok ? rel_err(got, r.logits, nl) : 1;
    char detail[200];
    snprintf(detail, sizeof(detail), "%s, logits within %.3g of PyTorch's (relative to the largest; bf16 tolerance 2e-2)", vit_status_string(st), err);
    check(ok && err <= 2e-2, "bf16 still runs on the GPU", "%s", detail);
    vit_free(m);
    // a GPU the CUDA path does not run: sm_75 (no bf16 tensor cores), and one this program has no code for
    vit__test_gpu.cc = 75;
    refused_and_cpu(dir, &r, VIT_DTYPE_BF16, "bf16 on a GPU of compute capability 7.5", "sm_75");
    vit__test_gpu.cc = 0;
    vit__test_gpu.no_code = 1;
    refused_and_cpu(dir, &r, VIT_DTYPE_BF16, "bf16 on a GPU this program has no code for", "has no code this GPU");
    vit__test_gpu.no_code = 0;
    free(got); free(r.input); free(r.logits); free(r.features);
    printf("%d passed, %d failed\n", g_passed, g_failed);
    return g_failed ? 1 : 0;
}
