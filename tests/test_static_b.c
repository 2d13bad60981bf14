// test_static_b: the second translation unit of test_static (see there).
#define VIT_STATIC
#define VIT_NO_STDIO
#define VIT_NO_STB_IMAGE
#define VIT_NO_TOKENIZER // and the tokenizers left out (test_static's own unit keeps them)
#define VIT_IMPLEMENTATION
#include "../vit.h"
#include <string.h>

int other_unit_loads(const void *data, size_t size);
int other_unit_loads(const void *data, size_t size) {
    vit_model *m = NULL;
    vit_options o;
    memset(&o, 0, sizeof(o));
    o.num_heads = 3; // no config.json here, and timm_token_odd_heads has width 72
    for (int c = 0; c < 3; c++) { o.mean[c] = 0.5f; o.std[c] = 0.5f; } // nor its preprocessing: stated
    o.interpolation = "bicubic";
    o.crop_pct = 0.9f;
    if (vit_load_memory(data, size, &o, &m) != VIT_OK) return 0;
    unsigned char px[3 * 40 * 40] = {0};
    float img[3 * 40 * 40];
    int ok = vit_preprocess_rgb8(m, px, 40, 40, 0, 3, img) == VIT_OK;
    vit_free(m);
    return ok;
}
