// bench_cpu: vit.h CPU forward-pass throughput (a benchmark, never a test).
//
//   bench_cpu MODEL.safetensors BATCH [REPEATS] [f32|int8]
//
// Prints one line: best and median milliseconds per batch and images/s, after one
// warm-up batch. tools/bench_cpu.py runs it beside PyTorch on the same weights.
#define _POSIX_C_SOURCE 200809L
#define VIT_IMPLEMENTATION
#include "vit.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: bench_cpu MODEL.safetensors BATCH [REPEATS] [f32|int8]\n"); return 2; }
    int batch = atoi(argv[2]), reps = argc > 3 ? atoi(argv[3]) : 5;
    if (batch < 1 || reps < 1 || reps > 1000) { fprintf(stderr, "bench_cpu: bad batch or repeats\n"); return 2; }
    vit_options o = {0};
    o.max_batch = batch;
    o.device = VIT_DEVICE_CPU;
    if (argc > 4 && strcmp(argv[4], "int8") == 0) o.dtype = VIT_DTYPE_INT8;
    else if (argc > 4 && strcmp(argv[4], "f32") != 0) { fprintf(stderr, "bench_cpu: dtype is f32 or int8\n"); return 2; }
    vit_model *m = NULL;
    vit_status st = vit_load(argv[1], &o, &m);
    if (st != VIT_OK) { fprintf(stderr, "bench_cpu: %s: %s\n", vit_status_string(st), vit_last_error(NULL)); return 1; }
    const vit_config *c = vit_model_config(m);
    size_t px = (size_t)c->in_chans * c->image_size * c->image_size * batch;
    float *img = (float *)malloc(px * sizeof(float)), *out = (float *)malloc((size_t)batch * (c->num_classes + c->dim) * sizeof(float));
    for (size_t i = 0; i < px; i++) img[i] = (float)((i * 2654435761u) % 1000) / 500.0f - 1.0f;
    double *t = (double *)malloc((size_t)reps * sizeof(double));
    st = vit_embed(m, img, batch, out); // warm-up: first touch of the activation arena, thread start
    for (int r = 0; r < reps && st == VIT_OK; r++) {
        double t0 = seconds();
        st = c->num_classes ? vit_forward(m, img, batch, out) : vit_embed(m, img, batch, out);
        t[r] = seconds() - t0;
    }
    if (st != VIT_OK) { fprintf(stderr, "bench_cpu: %s\n", vit_last_error(m)); return 1; }
    qsort(t, (size_t)reps, sizeof(double), cmp_double);
    printf("batch %d threads %d: best %.1f ms, median %.1f ms, %.2f img/s (median)\n", batch, vit_query_defaults(&o).num_threads,
           t[0] * 1e3, t[reps / 2] * 1e3, batch / t[reps / 2]);
    free(img); free(out); free(t);
    vit_free(m);
    return 0;
}
