// vit-classify: print the top-K classes of each image, or, for a model whose
// head is an image projection (CLIP) or that has no head (DINOv2, SigLIP's
// vision tower), its embedding: the size, the L2 norm and the first values.
//
//   vit-classify [--top K] [--size H[xW]] [--device auto|cpu|cuda] [--dtype fp32|bf16|fp16]
//                [--threads N] MODEL.safetensors IMAGE...
//
// --size runs the model at another input size (multiples of its patch size;
// the position embedding is resampled at load).
// Options may also follow the model or the images; after "--" every argument
// is a file name, even one that starts with "--".
// Results go to stdout, timing and device to stderr. Exit status: 0 when every
// image was classified, 1 when the model or any image failed, 2 on bad usage.
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L // clock_gettime
#endif
#define VIT_IMPLEMENTATION
#include "vit.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <math.h>

static double seconds(void) {
#ifdef _WIN32
    return (double)clock() / CLOCKS_PER_SEC;
#else
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
#endif
}

static int usage(const char *why) {
    fprintf(stderr, "vit-classify: %s\n"
                    "usage: vit-classify [--top K] [--size H[xW]] [--device auto|cpu|cuda] [--dtype fp32|bf16|fp16] [--threads N]\n"
                    "                    MODEL.safetensors IMAGE...\n", why);
    return 2;
}

// Parses a positive int option value; 0 on error.
static int positive(const char *s) {
    char *end;
    long v = strtol(s, &end, 10);
    return (*s && !*end && v > 0 && v <= 1000000) ? (int)v : 0;
}

// Reads the options (anywhere before a "--") into opts and top, and the other
// arguments' indices into pos. Returns 0, 2 after printing the usage error, or
// -1 for --help.
static int parse_args(int argc, char **argv, vit_options *opts, int *top, int *pos, int *npos) {
    char why[256];
    int only_pos = 0;
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (only_pos || opt[0] != '-' || opt[1] != '-') { pos[(*npos)++] = i; continue; }
        if (!strcmp(opt, "--")) { only_pos = 1; continue; }
        if (!strcmp(opt, "--help")) { usage("classify images with a ViT"); return -1; }
        if (strcmp(opt, "--top") && strcmp(opt, "--threads") && strcmp(opt, "--device") && strcmp(opt, "--dtype") && strcmp(opt, "--size")) {
            snprintf(why, sizeof(why), "unknown option '%s'", opt);
            return usage(why);
        }
        if (!val) { snprintf(why, sizeof(why), "option %s needs a value", opt); return usage(why); }
        i++;
        if (!strcmp(opt, "--top")) {
            if (!(*top = positive(val))) { snprintf(why, sizeof(why), "--top wants a positive number, not '%s'", val); return usage(why); }
        } else if (!strcmp(opt, "--size")) {
            int h = 0, w = 0, n = 0;
            if (sscanf(val, "%dx%d%n", &h, &w, &n) == 2 && !val[n]) {
            } else if (sscanf(val, "%d%n", &h, &n) == 1 && !val[n]) w = h;
            if (h < 1 || w < 1 || h > 32768 || w > 32768) { snprintf(why, sizeof(why), "--size wants H or HxW, not '%s'", val); return usage(why); }
            opts->image_height = h;
            opts->image_width = w;
        } else if (!strcmp(opt, "--threads")) {
            if (!(opts->num_threads = positive(val))) { snprintf(why, sizeof(why), "--threads wants a positive number, not '%s'", val); return usage(why); }
        } else if (!strcmp(opt, "--device")) {
            if (!strcmp(val, "auto")) opts->device = VIT_DEVICE_DEFAULT;
            else if (!strcmp(val, "cpu")) opts->device = VIT_DEVICE_CPU;
            else if (!strcmp(val, "cuda")) opts->device = VIT_DEVICE_CUDA;
            else { snprintf(why, sizeof(why), "--device wants auto, cpu or cuda, not '%s'", val); return usage(why); }
        } else { // --dtype
            if (!strcmp(val, "fp32")) opts->dtype = VIT_DTYPE_F32;
            else if (!strcmp(val, "bf16")) opts->dtype = VIT_DTYPE_BF16;
            else if (!strcmp(val, "fp16")) opts->dtype = VIT_DTYPE_F16;
            else { snprintf(why, sizeof(why), "--dtype wants fp32, bf16 or fp16, not '%s'", val); return usage(why); }
        }
    }
    if (*npos < 2) return usage(*npos < 1 ? "no model given" : "no image given");
    return 0;
}

int main(int argc, char **argv) {
    vit_options opts;
    memset(&opts, 0, sizeof(opts));
    int top = 5, npos = 0;
    int *pos = (int *)malloc((size_t)argc * sizeof(int));
    if (!pos) { fprintf(stderr, "vit-classify: out of memory\n"); return 1; }
    int rc = parse_args(argc, argv, &opts, &top, pos, &npos);
    if (rc) { free(pos); return rc < 0 ? 0 : rc; }
    const char *model_path = argv[pos[0]];

    double t0 = seconds();
    vit_model *model = NULL;
    vit_status st = vit_load(model_path, &opts, &model);
    if (st != VIT_OK) {
        fprintf(stderr, "vit-classify: cannot load '%s': %s: %s\n", model_path, vit_status_string(st), vit_last_error(NULL));
        free(pos);
        return 1;
    }
    const vit_config *cfg = vit_model_config(model);
    int embed = cfg->num_classes == 0 || cfg->projection; // embeddings, not classes
    fprintf(stderr, "model: %s ViT, %dx%d input, %d channels, width %d, depth %d, %d heads, %s %d; %s %s; loaded in %.0f ms\n",
            cfg->source == VIT_SOURCE_HF ? "Hugging Face" : "timm", cfg->image_height, cfg->image_width, cfg->in_chans, cfg->dim, cfg->depth,
            cfg->num_heads, cfg->projection ? "projection to" : cfg->num_classes ? "classes" : "features", cfg->projection || cfg->num_classes ? cfg->num_classes : cfg->dim,
            cfg->device == VIT_DEVICE_CUDA ? "cuda" : "cpu", cfg->dtype == VIT_DTYPE_BF16 ? "bf16" : cfg->dtype == VIT_DTYPE_F16 ? "fp16" : "fp32",
            (seconds() - t0) * 1e3);
    int width = cfg->num_classes ? cfg->num_classes : cfg->dim;
    if (top > width) top = width;
    size_t pixels = (size_t)cfg->in_chans * cfg->image_height * cfg->image_width;
    int *classes = (int *)malloc((size_t)top * sizeof(int));
    float *probs = (float *)malloc((size_t)top * sizeof(float)), *image = (float *)malloc(pixels * sizeof(float)), *vec = (float *)malloc((size_t)width * sizeof(float));
    if (!classes || !probs || !image || !vec) {
        fprintf(stderr, "vit-classify: out of memory\n");
        free(classes); free(probs); free(image); free(vec); free(pos); vit_free(model);
        return 1;
    }
    int failed = 0;
    for (int p = 1; p < npos; p++) {
        const char *file = argv[pos[p]];
        double t = seconds();
        if (embed) {
            st = vit_preprocess_file(model, file, image);
            if (st == VIT_OK) st = cfg->num_classes ? vit_forward(model, image, 1, vec) : vit_embed(model, image, 1, vec);
        } else {
            st = vit_classify_file(model, file, top, classes, probs);
        }
        if (st != VIT_OK) {
            fprintf(stderr, "vit-classify: %s: %s\n", vit_status_string(st), vit_last_error(model));
            failed++;
            continue;
        }
        printf("%s\n", file);
        if (embed) {
            double norm = 0;
            for (int k = 0; k < width; k++) norm += (double)vec[k] * vec[k];
            printf("  embedding: %d values, L2 norm %.4f:", width, norm > 0 ? sqrt(norm) : 0.0);
            for (int k = 0; k < width && k < 8; k++) printf(" %.4f", vec[k]);
            printf("%s\n", width > 8 ? " ..." : "");
        } else {
            for (int k = 0; k < top; k++) printf("  %6.2f%%  %s (%d)\n", probs[k] * 100.0f, vit_label(model, classes[k]), classes[k]);
        }
        fflush(stdout);
        fprintf(stderr, "%s: %.1f ms\n", file, (seconds() - t) * 1e3);
    }
    free(image);
    free(vec);
    free(classes);
    free(probs);
    free(pos);
    vit_free(model);
    return failed ? 1 : 0;
}
