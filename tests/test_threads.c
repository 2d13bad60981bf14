// test_threads: the thread-safety contract. Several models used from several
// threads at once give the same results as one thread alone; read-only calls
// (vit_model_config, vit_label, vit_status_string) on one shared model run
// concurrently; failed loads on different threads keep their own
// vit_last_error(NULL). Built without OpenMP and run under ThreadSanitizer.
//
// usage: test_threads MODEL_A.safetensors MODEL_B.safetensors
#define _POSIX_C_SOURCE 200809L
#define VIT_IMPLEMENTATION
#include "../vit.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 4
#define ROUNDS 5

typedef struct job {
    const char *path;
    const vit_model *shared;
    float *expect;      // logits from the main thread
    int classes;        // of the model at path
    int ok;
    char why[256];
} job;

static float *make_images(const vit_config *c, int n) {
    size_t px = (size_t)n * c->in_chans * c->image_size * c->image_size;
    float *img = (float *)malloc(px * sizeof(float));
    for (size_t i = 0; i < px; i++) img[i] = (float)((i * 2654435761u) % 1000) / 500.0f - 1.0f;
    return img;
}

static float *run_model(const char *path, char *why, int *classes) {
    vit_model *m = NULL;
    vit_options o;
    memset(&o, 0, sizeof(o));
    o.max_batch = 2;
    o.device = VIT_DEVICE_CPU;
    if (vit_load(path, &o, &m) != VIT_OK) { snprintf(why, 256, "load %s: %s", path, vit_last_error(NULL)); return NULL; }
    const vit_config *c = vit_model_config(m);
    *classes = c->num_classes;
    float *img = make_images(c, 3), *logits = (float *)malloc(3 * (size_t)c->num_classes * sizeof(float));
    if (vit_forward(m, img, 3, logits) != VIT_OK) { snprintf(why, 256, "forward: %s", vit_last_error(m)); free(logits); logits = NULL; }
    free(img);
    vit_free(m);
    return logits;
}

static void *worker(void *arg) {
    job *j = (job *)arg;
    j->ok = 1;
    for (int r = 0; r < ROUNDS && j->ok; r++) {
        int classes = 0;
        float *got = run_model(j->path, j->why, &classes);
        const vit_config *c = vit_model_config(j->shared); // the shared model: read-only calls only
        if (!got) { j->ok = 0; break; }
        if (classes != j->classes || c->num_classes <= 0 || memcmp(got, j->expect, 3 * (size_t)classes * sizeof(float)) != 0) { snprintf(j->why, sizeof(j->why), "logits differ from the single-thread run"); j->ok = 0; }
        if (strlen(vit_label(j->shared, 0)) == 0) { snprintf(j->why, sizeof(j->why), "empty label"); j->ok = 0; }
        free(got);
        // a failed load sets this thread's error only
        vit_model *bad = NULL;
        char path[64];
        snprintf(path, sizeof(path), "/nonexistent/%p", (void *)j);
        if (vit_load(path, NULL, &bad) != VIT_ERROR_IO || !strstr(vit_last_error(NULL), path)) {
            snprintf(j->why, sizeof(j->why), "thread-local load error lost: '%s'", vit_last_error(NULL));
            j->ok = 0;
        }
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: test_threads MODEL_A MODEL_B\n"); return 2; }
    char why[256] = "";
    int classes[2] = {0, 0};
    float *expect[2] = {run_model(argv[1], why, &classes[0]), run_model(argv[2], why, &classes[1])};
    vit_model *shared = NULL;
    if (!expect[0] || !expect[1] || vit_load(argv[1], NULL, &shared) != VIT_OK) {
        printf("NOT OK setup: %s\n0 passed, 1 failed\n", why);
        return 1;
    }
    job jobs[THREADS];
    pthread_t th[THREADS];
    for (int t = 0; t < THREADS; t++) {
        memset(&jobs[t], 0, sizeof(jobs[t]));
        jobs[t].path = argv[1 + t % 2];
        jobs[t].shared = shared;
        jobs[t].expect = expect[t % 2];
        jobs[t].classes = classes[t % 2];
        pthread_create(&th[t], NULL, worker, &jobs[t]);
    }
    int passed = 0, failed = 0;
    for (int t = 0; t < THREADS; t++) {
        pthread_join(th[t], NULL);
        printf("%s thread %d (%s): %s\n", jobs[t].ok ? "OK" : "NOT OK", t, jobs[t].path, jobs[t].ok ? "same logits, own errors" : jobs[t].why);
        jobs[t].ok ? passed++ : failed++;
    }
    vit_free(shared);
    free(expect[0]);
    free(expect[1]);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
