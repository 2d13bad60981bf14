// test_model: end-to-end logits and features against references dumped by
// tools/make_reference.py (PyTorch in float64). Pass when
// max|ours - ref| / max|ref| <= 1e-4 for logits and features, and top-1 agrees.
//
// usage: test_model DIR...   (each DIR holds model.safetensors, io.bin, [config.json])
#define VIT_IMPLEMENTATION
#include "../vit.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#define TOL 1e-4

typedef struct reference {
    int n, c, h, w, k, d;
    float *input, *logits, *features;
} reference;

static int read_reference(const char *path, reference *r) {
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    int hdr[8];
    int ok = fread(hdr, sizeof(int), 8, f) == 8 && hdr[0] == 0x46455256;
    if (ok) {
        r->n = hdr[1]; r->c = hdr[2]; r->h = hdr[3]; r->w = hdr[4]; r->k = hdr[5]; r->d = hdr[6];
        size_t ni = (size_t)r->n * r->c * r->h * r->w, nl = (size_t)r->n * r->k, nf = (size_t)r->n * r->d;
        r->input = (float *)malloc(ni * 4 + 4);
        r->logits = (float *)malloc(nl * 4 + 4);
        r->features = (float *)malloc(nf * 4 + 4);
        ok = fread(r->input, 4, ni, f) == ni && fread(r->logits, 4, nl, f) == nl && fread(r->features, 4, nf, f) == nf;
    }
    fclose(f);
    return ok;
}

// max |a - b| / max |b|; NaN or Inf in a fails (returns +inf)
static double rel_err(const float *a, const float *b, size_t n) {
    double md = 0, mr = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(a[i])) return INFINITY;
        double d = fabs((double)a[i] - b[i]);
        if (d > md) md = d;
        if (fabs(b[i]) > mr) mr = fabs(b[i]);
    }
    return mr > 0 ? md / mr : md;
}

static int argmax(const float *v, int n) {
    int best = 0;
    for (int i = 1; i < n; i++) if (v[i] > v[best]) best = i;
    return best;
}

static int run_case(const char *dir, int max_batch, int threads) {
    char path[1024];
    reference r;
    memset(&r, 0, sizeof(r));
    snprintf(path, sizeof(path), "%s/io.bin", dir);
    if (!read_reference(path, &r)) { printf("NOT OK %s: cannot read %s\n", dir, path); return 0; }
    snprintf(path, sizeof(path), "%s/model.safetensors", dir);
    vit_options o;
    memset(&o, 0, sizeof(o));
    o.max_batch = max_batch;
    o.num_threads = threads;
    o.device = VIT_DEVICE_CPU;
    vit_model *m = NULL;
    vit_status st = vit_load(path, &o, &m);
    int ok = st == VIT_OK;
    if (!ok) printf("NOT OK %s: load: %s: %s\n", dir, vit_status_string(st), vit_last_error(NULL));
    const vit_config *c = ok ? vit_model_config(m) : NULL;
    if (ok && (c->in_chans != r.c || c->image_size != r.h || c->num_classes != r.k || c->dim != r.d)) {
        printf("NOT OK %s: config (chans %d, size %d, classes %d, dim %d) vs reference (%d, %d, %d, %d)\n", dir,
               c->in_chans, c->image_size, c->num_classes, c->dim, r.c, r.h, r.k, r.d);
        ok = 0;
    }
    double el = 0, ef = 0;
    int top1 = 1;
    if (ok) {
        float *feat = (float *)malloc((size_t)r.n * r.d * 4);
        for (size_t i = 0; i < (size_t)r.n * r.d; i++) feat[i] = NAN; // poison
        st = vit_embed(m, r.input, r.n, feat);
        if (st != VIT_OK) { printf("NOT OK %s: embed: %s\n", dir, vit_last_error(m)); ok = 0; }
        else ef = rel_err(feat, r.features, (size_t)r.n * r.d);
        free(feat);
    }
    if (ok && r.k > 0) {
        float *logits = (float *)malloc((size_t)r.n * r.k * 4);
        for (size_t i = 0; i < (size_t)r.n * r.k; i++) logits[i] = NAN;
        st = vit_forward(m, r.input, r.n, logits);
        if (st != VIT_OK) { printf("NOT OK %s: forward: %s\n", dir, vit_last_error(m)); ok = 0; }
        else {
            el = rel_err(logits, r.logits, (size_t)r.n * r.k);
            for (int i = 0; i < r.n; i++) top1 &= argmax(logits + (size_t)i * r.k, r.k) == argmax(r.logits + (size_t)i * r.k, r.k);
        }
        free(logits);
    }
    if (ok) {
        ok = el <= TOL && ef <= TOL && top1;
        printf("%s %s (batch %d, threads %d): logits rel err %.2e, features rel err %.2e, top-1 %s\n", ok ? "OK" : "NOT OK", dir,
               max_batch, threads, el, ef, top1 ? "same" : "DIFFERENT");
    }
    vit_free(m);
    free(r.input); free(r.logits); free(r.features);
    return ok;
}

int main(int argc, char **argv) {
    int passed = 0, failed = 0;
    for (int i = 1; i < argc; i++) {
        // default options, then batch 1 (chunked) with 1 thread, then batch 2 with 2 threads
        int r = run_case(argv[i], 0, 0) & run_case(argv[i], 1, 1) & run_case(argv[i], 2, 2);
        if (r) passed++; else failed++;
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
