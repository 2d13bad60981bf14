// test_switches_full: the second translation unit of test_switches (see there):
// a private VIT_STATIC copy of vit.h with no switch, the build each switch is
// compared with.
#define VIT_STATIC
#define VIT_IMPLEMENTATION
#include "../vit.h"
#include <string.h>

int full_outputs(const char *path, const float *images, int n, float *logits, int k, float *features, int d);

// Loads path on the CPU and runs n images: logits (n x k, when k > 0) and
// features (n x d). 1 when both ran and the model has k classes and width d.
int full_outputs(const char *path, const float *images, int n, float *logits, int k, float *features, int d) {
    vit_model *m = NULL;
    vit_options o;
    memset(&o, 0, sizeof(o));
    o.device = VIT_DEVICE_CPU;
    if (vit_load(path, &o, &m) != VIT_OK) return 0;
    const vit_config *c = vit_model_config(m);
    int ok = c->num_classes == k && c->dim == d && vit_embed(m, images, n, features) == VIT_OK;
    if (ok && k > 0) ok = vit_forward(m, images, n, logits) == VIT_OK;
    vit_free(m);
    return ok;
}
