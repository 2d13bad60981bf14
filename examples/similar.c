// vit-similar: cosine similarity of two images' ViT embeddings (vit_embed).
//
//   vit-similar MODEL.safetensors IMAGE_A IMAGE_B
#define VIT_IMPLEMENTATION
#include "vit.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: vit-similar MODEL.safetensors IMAGE_A IMAGE_B\n"); return 2; }
    vit_model *model = NULL;
    vit_status st = vit_load(argv[1], NULL, &model);
    if (st != VIT_OK) {
        fprintf(stderr, "vit-similar: cannot load '%s': %s: %s\n", argv[1], vit_status_string(st), vit_last_error(NULL));
        return 1;
    }
    const vit_config *cfg = vit_model_config(model);
    size_t pixels = (size_t)cfg->in_chans * cfg->image_height * cfg->image_width;
    float *images = (float *)malloc(2 * pixels * sizeof(float));
    float *features = (float *)malloc(2 * (size_t)cfg->dim * sizeof(float));
    int ok = images && features;
    for (int i = 0; ok && i < 2; i++) {
        st = vit_preprocess_file(model, argv[2 + i], images + i * pixels);
        if (st != VIT_OK) { fprintf(stderr, "vit-similar: %s: %s\n", vit_status_string(st), vit_last_error(model)); ok = 0; }
    }
    if (ok && (st = vit_embed(model, images, 2, features)) != VIT_OK) {
        fprintf(stderr, "vit-similar: %s: %s\n", vit_status_string(st), vit_last_error(model));
        ok = 0;
    }
    if (ok) {
        double dot = 0, na = 0, nb = 0;
        const float *a = features, *b = features + cfg->dim;
        for (int c = 0; c < cfg->dim; c++) { dot += (double)a[c] * b[c]; na += (double)a[c] * a[c]; nb += (double)b[c] * b[c]; }
        printf("cosine similarity: %.4f\n", na > 0 && nb > 0 ? dot / sqrt(na * nb) : 0.0);
    }
    free(images);
    free(features);
    vit_free(model);
    return ok ? 0 : 1;
}
