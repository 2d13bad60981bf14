// test_fashion_mnist: the shipped model on the real Fashion-MNIST test set.
// vit.h (CPU, fp32) classifies the 10,000 test images from Debian's
// dataset-fashion-mnist and must (1) reach the accuracy PyTorch recorded at
// training time within 0.1 percentage points, (2) agree with PyTorch's
// prediction on >= 99.9% of images, (3) match PyTorch's logits within 1e-4
// relative (max |diff| / max |ref|); then in int8 (VIT_DTYPE_INT8), (4) agree
// with the fp32 run on >= 99% of images and (5) reach its accuracy within 0.3 points;
// likewise fp8 (VIT_DTYPE_FP8) on the CPU (the e4m3 reference) and, built by nvcc
// with a GPU present (make test-gpu), on the GPU (the e4m3 wgmma kernels).
//
// usage: test_fashion_mnist MODEL_DIR DATA_DIR [LIMIT]
//   DATA_DIR holds the decompressed t10k-images-idx3-ubyte / t10k-labels-idx1-ubyte;
//   LIMIT runs only the first LIMIT images (agreement and logits checks only).
// The library is not built here: make links build/vit.o (vit.h built once as a user's
// own vit.c would be, -O3), other builds (sanitizers, ARM, nvcc) add -DVIT_IMPLEMENTATION.
#include "../vit.h"
#include "test_util.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef VIT__CUDA
#define VIT_HAS_CUDA 1
// a GPU that runs VIT_DTYPE_FP8 (sm_90; other GPUs refuse it, as test_gpu_model checks)
static int gpu_present(void) {
    int c = 0, major = 0, minor = 0;
    if (cudaGetDeviceCount(&c) != cudaSuccess || c == 0) { cudaGetLastError(); return 0; }
    cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0);
    cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0);
    return major == 9 && minor == 0;
}
#else
#define VIT_HAS_CUDA 0
static int gpu_present(void) { return 0; }
#endif

static unsigned be32(const unsigned char *p) { return (unsigned)p[0] << 24 | (unsigned)p[1] << 16 | (unsigned)p[2] << 8 | p[3]; }

// The integer after "key": in a JSON text (the report is ours; no full parser needed).
static long json_int(const char *text, const char *key) {
    char pat[64];
    snprintf(pat, sizeof(pat), "\"%s\":", key);
    const char *p = strstr(text, pat);
    return p ? strtol(p + strlen(pat), NULL, 10) : -1;
}

// Classifies the first limit images with the model at path in dtype dt on device:
// predictions into pred, logits (limit, 10) into logits unless NULL. 0 on failure (err says why).
static int classify(const char *path, vit_device device, vit_dtype dt, const unsigned char *images, int rows, int cols, int limit, int *pred, float *logits,
                    char *err, size_t errlen) {
    vit_options opts;
    memset(&opts, 0, sizeof(opts));
    opts.max_batch = 100;
    opts.device = device;
    opts.dtype = dt;
    vit_model *m = NULL;
    vit_status st = vit_load(path, &opts, &m);
    if (st != VIT_OK) { fmt(err, errlen, "load %s: %s: %s", path, vit_status_string(st), vit_last_error(NULL)); return 0; }
    const vit_config *c = vit_model_config(m);
    int K = c->num_classes;
    size_t per_image = (size_t)c->in_chans * c->image_size * c->image_size;
    float *batch = (float *)malloc(100 * per_image * sizeof(float)), *out = (float *)malloc(100 * (size_t)K * sizeof(float));
    for (int i0 = 0; i0 < limit && st == VIT_OK && K == 10; i0 += 100) {
        int B = limit - i0 < 100 ? limit - i0 : 100;
        for (int b = 0; b < B && st == VIT_OK; b++) // through the public preprocessing path
            st = vit_preprocess_rgb8(m, images + 16 + (size_t)(i0 + b) * rows * cols, cols, rows, cols, 1, batch + (size_t)b * per_image);
        if (st == VIT_OK) st = vit_forward(m, batch, B, out);
        for (int b = 0; b < B && st == VIT_OK; b++) {
            pred[i0 + b] = argmax(out + (size_t)b * K, K);
            if (logits) memcpy(logits + (size_t)(i0 + b) * 10, out + (size_t)b * K, 10 * sizeof(float));
        }
    }
    if (st != VIT_OK || K != 10) fmt(err, errlen, "%s", K != 10 ? "the model does not have 10 classes" : vit_last_error(m));
    vit_free(m);
    free(batch); free(out);
    return st == VIT_OK && K == 10;
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: test_fashion_mnist MODEL_DIR DATA_DIR [LIMIT]\n"); return 2; }
    char path[1024], name[1200];
    size_t isize = 0, lsize = 0, rsize = 0, psize = 0, gsize = 0;
    snprintf(path, sizeof(path), "%s/t10k-images-idx3-ubyte", argv[2]);
    unsigned char *images = read_all(path, &isize);
    snprintf(path, sizeof(path), "%s/t10k-labels-idx1-ubyte", argv[2]);
    unsigned char *labels = read_all(path, &lsize);
    snprintf(path, sizeof(path), "%s/train_report.json", argv[1]);
    char *report = (char *)read_all(path, &rsize);
    snprintf(path, sizeof(path), "%s/test_predictions.bin", argv[1]);
    unsigned char *torch_pred = read_all(path, &psize);
    snprintf(path, sizeof(path), "%s/test_logits.bin", argv[1]);
    float *torch_logits = (float *)read_all(path, &gsize);
    // (an empty file counts as unreadable)
    if (!images || !labels || !report || !torch_pred || !torch_logits || !rsize || !psize || !gsize || isize < 16 || lsize < 8 ||
        be32(images) != 2051 || be32(labels) != 2049) {
        fmt(name, sizeof(name), "cannot read the dataset in %s or the training report in %s", argv[2], argv[1]);
        check(0, name, "%s", "");
        return check_summary();
    }
    int n = (int)be32(images + 4), rows = (int)be32(images + 8), cols = (int)be32(images + 12);
    int limit = argc > 3 ? atoi(argv[3]) : n;
    if (limit <= 0 || limit > n) limit = n;
    long torch_correct = json_int(report, "test_correct");
    if ((size_t)n * rows * cols + 16 > isize || (size_t)n + 8 > lsize || psize < (size_t)n || gsize < (size_t)n * 10 * 4 || torch_correct < 0) {
        check(0, "inconsistent dataset or report files", "%s", "");
        return check_summary();
    }

    snprintf(path, sizeof(path), "%s/model.safetensors", argv[1]);
    int *pred = (int *)malloc((size_t)limit * sizeof(int)), *pred8 = (int *)malloc((size_t)limit * sizeof(int));
    float *logits = (float *)malloc((size_t)limit * 10 * sizeof(float));
    char err[600];
    if (!classify(path, VIT_DEVICE_CPU, VIT_DTYPE_F32, images, rows, cols, limit, pred, logits, err, sizeof(err))) {
        check(0, "fp32 forward", "%s", err);
    } else {
        int correct = 0, agree = 0;
        double max_diff = 0, max_ref = 0;
        for (int i = 0; i < limit; i++) {
            const float *l = logits + (size_t)i * 10, *ref = torch_logits + (size_t)i * 10;
            correct += pred[i] == labels[8 + i];
            agree += pred[i] == torch_pred[i];
            for (int k = 0; k < 10; k++) {
                double d = fabs((double)l[k] - ref[k]);
                if (!(d <= max_diff)) max_diff = d; // NaN sticks
                if (fabs(ref[k]) > max_ref) max_ref = fabs(ref[k]);
            }
        }
        double rel = max_diff / max_ref;
        fmt(name, sizeof(name), "logits vs PyTorch over %d images", limit);
        check(rel <= 1e-4, name, "max |diff| / max |ref| = %.2e (<= 1e-4)", rel);
        check(agree * 1000 >= limit * 999, "per-image agreement with PyTorch", "%d / %d (%.3f%%, >= 99.9%%)", agree, limit,
              100.0 * agree / limit);
        if (limit == n) {
            double ours = 100.0 * correct / n, theirs = 100.0 * torch_correct / n;
            check(fabs(ours - theirs) <= 0.1 + 1e-9, "test accuracy", "vit.h %.2f%% (%d / %d), PyTorch at training %.2f%% (%ld / %d), within 0.1 pp",
                  ours, correct, n, theirs, torch_correct, n);
        } else {
            printf("SKIP accuracy (only %d of %d images run)\n", limit, n);
        }
        // int8 (VIT_DTYPE_INT8) and fp8 (VIT_DTYPE_FP8: the CPU's e4m3 reference, then the
        // GPU's e4m3 kernels where there is a Hopper GPU) against this fp32 run: >= 99% the
        // same predictions, accuracy within 0.3 points
        const vit_dtype low[3] = {VIT_DTYPE_INT8, VIT_DTYPE_FP8, VIT_DTYPE_FP8};
        const char *low_name[3] = {"int8", "fp8", "fp8 on the GPU"};
        for (int d = 0; d < 3; d++) {
            if (d == 2 && !gpu_present()) {
                printf("SKIP fp8 on the GPU: %s\n", VIT_HAS_CUDA ? "no sm_90 (Hopper) GPU as device 0: the e4m3 kernels are wgmma" : "built without CUDA");
                continue;
            }
            if (!classify(path, d == 2 ? VIT_DEVICE_CUDA : VIT_DEVICE_CPU, low[d], images, rows, cols, limit, pred8, NULL, err, sizeof(err))) {
                fmt(name, sizeof(name), "%s forward", low_name[d]);
                check(0, name, "%s", err);
                continue;
            }
            int same = 0, correct8 = 0;
            for (int i = 0; i < limit; i++) { same += pred8[i] == pred[i]; correct8 += pred8[i] == labels[8 + i]; }
            fmt(name, sizeof(name), "%s: predictions as fp32's", low_name[d]);
            check(same * 100 >= limit * 99, name, "%d / %d (%.2f%%, >= 99%%)", same, limit, 100.0 * same / limit);
            double a8 = 100.0 * correct8 / limit, a32 = 100.0 * correct / limit;
            fmt(name, sizeof(name), "%s: accuracy over %d images", low_name[d], limit);
            check(fabs(a8 - a32) <= 0.3 + 1e-9, name, "%s %.2f%%, fp32 %.2f%% (within 0.3 points)", low_name[d], a8, a32);
        }
    }
    free(pred); free(pred8); free(logits); free(images); free(labels); free(report); free(torch_pred); free(torch_logits);
    return check_summary();
}
