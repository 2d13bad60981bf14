// fuzz_preprocess: arbitrary encoded image bytes through stb_image and the
// preprocessing path (decode, channel conversion, PIL resample, crop, normalise)
// of a fixed model. Run from the repository root (it loads a reference model).
#define VIT_MAX_IMAGE_PIXELS (1 << 20) // big-but-legal images only cost time: keep executions fast
#define VIT_MAX_IMAGE_SIDE 4096
#define VIT_IMPLEMENTATION
#include "../../vit.h"
#include <stdint.h>
#include <stdlib.h>

static vit_model *model_rgb, *model_gray;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!model_rgb) {
        if (vit_load("tests/data/ref/timm_token_odd_heads/model.safetensors", NULL, &model_rgb) != VIT_OK ||
            vit_load("tests/data/ref/timm_1ch/model.safetensors", NULL, &model_gray) != VIT_OK)
            abort();
    }
    static float out[3 * 64 * 64];
    vit_status s = vit_preprocess_memory(model_rgb, data, size, out);
    if (s != VIT_OK && s != VIT_ERROR_IMAGE_DECODE && s != VIT_ERROR_LIMIT && s != VIT_ERROR_INVALID_ARGUMENT && s != VIT_ERROR_OUT_OF_MEMORY) abort();
    s = vit_preprocess_memory(model_gray, data, size, out);
    if (s != VIT_OK && s != VIT_ERROR_IMAGE_DECODE && s != VIT_ERROR_LIMIT && s != VIT_ERROR_INVALID_ARGUMENT && s != VIT_ERROR_OUT_OF_MEMORY) abort();
    // raw pixels: the bytes as a small image of 1-4 channels and fuzzed size
    if (size >= 4) {
        int ch = 1 + data[0] % 4, w = 1 + data[1] % 64, h = 1 + data[2] % 64;
        if ((size_t)w * h * ch <= size - 3 && vit_preprocess_rgb8(model_rgb, data + 3, w, h, 0, ch, out) != VIT_OK) abort();
    }
    return 0;
}
