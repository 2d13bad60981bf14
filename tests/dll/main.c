// A user of vit.dll / libvit.so (make test-dll): vit.h without the
// implementation, VIT_SHARED on the command line (dllimport on Windows).
// examples/minimal.c's program: load a model, classify one blank image.
#include "../../vit.h"
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: %s model.safetensors\n", argv[0]); return 2; }
    vit_model *model = NULL;
    vit_status st = vit_load(argv[1], NULL, &model);
    if (st != VIT_OK) {
        fprintf(stderr, "load: %s: %s\n", vit_status_string(st), vit_last_error(NULL));
        return 1;
    }
    const vit_config *cfg = vit_model_config(model);
    size_t pixels = (size_t)cfg->in_chans * cfg->image_height * cfg->image_width;
    float *image = (float *)calloc(pixels, sizeof(float));
    float *logits = (float *)malloc((size_t)cfg->num_classes * sizeof(float) + 1);
    st = vit_forward(model, image, 1, logits);
    if (st != VIT_OK) {
        fprintf(stderr, "forward: %s: %s\n", vit_status_string(st), vit_last_error(model));
    } else {
        int best = 0;
        for (int k = 1; k < cfg->num_classes; k++) if (logits[k] > logits[best]) best = k;
        printf("class %d (%s), %s\n", best, vit_label(model, best), vit_model_config(model)->openmp ? "OpenMP" : "one thread");
    }
    free(image); free(logits);
    vit_free(model);
    return st == VIT_OK ? 0 : 1;
}
