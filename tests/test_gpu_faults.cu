// test_gpu_faults: GPU failures come back as named errors with the CUDA message
// in vit_last_error, leak nothing on the device, and leave working models
// working: a max_batch too large for device memory, an invalid device index, a
// host pointers given to the async API, NULL device pointers (a destroyed
// stream is undefined behaviour in CUDA itself: not tested). Device memory is compared
// with cudaMemGetInfo before and after (after one warm-up load, which loads the
// kernels' module). Prints SKIP without a CUDA device.
//
// usage: test_gpu_faults MODEL_DIR      (a reference case, e.g. tests/data/ref/timm_token_odd_heads)
#define VIT_MAX_BATCH (1 << 24) // room to ask for more activation memory than any GPU has
#define VIT_IMPLEMENTATION
#include "../vit.h"
#include <stdio.h>
#include <string.h>

static int passed, failed;

static void check(int ok, const char *name, const char *detail) {
    printf("%s %s: %s\n", ok ? "OK" : "NOT OK", name, detail);
    if (ok) passed++; else failed++;
}

static size_t free_bytes(void) {
    size_t f = 0, t = 0;
    cudaDeviceSynchronize();
    cudaMemGetInfo(&f, &t);
    return f;
}

static vit_status load(const char *path, int max_batch, int device_index, vit_model **m) {
    vit_options o;
    memset(&o, 0, sizeof(o));
    o.device = VIT_DEVICE_CUDA;
    o.device_index = device_index;
    o.max_batch = max_batch;
    return vit_load(path, &o, m);
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: test_gpu_faults MODEL_DIR\n"); return 2; }
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        printf("SKIP test_gpu_faults: no CUDA device\n0 passed, 0 failed\n");
        return 0;
    }
    char path[1024], detail[1024];
    snprintf(path, sizeof(path), "%s/model.safetensors", argv[1]);
    vit_model *m = NULL;
    if (load(path, 4, 0, &m) != VIT_OK) { printf("NOT OK setup: %s\n0 passed, 1 failed\n", vit_last_error(NULL)); return 1; }
    const vit_config c = *vit_model_config(m);
    size_t px = (size_t)c.in_chans * c.image_size * c.image_size;
    static float image[3 * 512 * 512], ref_logits[4096], logits[4096];
    for (size_t i = 0; i < px && i < sizeof(image) / sizeof(image[0]); i++) image[i] = (float)((i * 7919) % 255) / 128.0f - 1.0f;
    vit_forward(m, image, 1, ref_logits);
    vit_free(m);
    size_t before = free_bytes();

    // 1. activations for max_batch 2^24 do not fit: out of memory, nothing left behind
    vit_status st = load(path, 1 << 24, 0, &m);
    snprintf(detail, sizeof(detail), "%s: %s", vit_status_string(st), vit_last_error(NULL));
    check(st == VIT_ERROR_OUT_OF_MEMORY && m == NULL && strstr(vit_last_error(NULL), "cudaMalloc") != NULL, "max_batch 2^24 -> out of memory with the CUDA message", detail);

    // 2. a device index past the last device
    st = load(path, 4, count + 3, &m);
    snprintf(detail, sizeof(detail), "%s: %s", vit_status_string(st), vit_last_error(NULL));
    check(st == VIT_ERROR_INVALID_ARGUMENT && m == NULL && vit_last_error(NULL)[0], "device_index past the last device", detail);

    // 3. bad pointers to the async API fail cleanly; the model then still works
    st = load(path, 4, 0, &m);
    check(st == VIT_OK, "load for the stream test", vit_last_error(NULL));
    if (st == VIT_OK) {
        float *d_img = NULL, *d_out = NULL;
        cudaMalloc((void **)&d_img, px * sizeof(float));
        cudaMalloc((void **)&d_out, 4096 * sizeof(float));
        cudaMemcpy(d_img, image, px * sizeof(float), cudaMemcpyHostToDevice);
        // host memory where device memory is due: refused before any kernel reads it
        st = vit_forward_async(m, image, 1, d_out, NULL);
        snprintf(detail, sizeof(detail), "%s: %s", vit_status_string(st), vit_last_error(m));
        check(st == VIT_ERROR_INVALID_ARGUMENT, "async forward with a host image pointer", detail);
        st = vit_forward_async(m, d_img, 1, logits, NULL);
        snprintf(detail, sizeof(detail), "%s: %s", vit_status_string(st), vit_last_error(m));
        check(st == VIT_ERROR_INVALID_ARGUMENT, "async forward into a host output pointer", detail);
        // a live user stream works and matches the host API
        cudaStream_t s;
        cudaStreamCreate(&s);
        st = vit_forward_async(m, d_img, 1, d_out, (void *)s);
        cudaStreamSynchronize(s);
        cudaStreamDestroy(s);
        cudaMemcpy(logits, d_out, (size_t)c.num_classes * sizeof(float), cudaMemcpyDeviceToHost);
        check(st == VIT_OK && memcmp(logits, ref_logits, (size_t)c.num_classes * sizeof(float)) == 0, "async forward on the caller's stream", vit_last_error(m));
        st = vit_forward_async(m, NULL, 1, d_out, NULL);
        check(st == VIT_ERROR_INVALID_ARGUMENT, "async forward with NULL images", vit_last_error(m));
        for (int i = 0; i < c.num_classes; i++) logits[i] = -12345.0f;
        st = vit_forward(m, image, 1, logits);
        int same = st == VIT_OK && memcmp(logits, ref_logits, (size_t)c.num_classes * sizeof(float)) == 0;
        snprintf(detail, sizeof(detail), "%s", st == VIT_OK ? (same ? "same logits as before the faults" : "logits differ") : vit_last_error(m));
        check(same, "model still works after the faults", detail);
        cudaFree(d_img);
        cudaFree(d_out);
        vit_free(m);
        m = NULL;
    }
    size_t after = free_bytes();
    snprintf(detail, sizeof(detail), "free device memory %zu bytes before, %zu after", before, after);
    check(after + (2u << 20) >= before, "no device memory leaked (within 2 MiB of driver slack)", detail);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
