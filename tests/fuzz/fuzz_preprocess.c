// fuzz_preprocess: arbitrary encoded image bytes through vit.h's decoders (its
// own PNM and BMP, stb_image's PNG/JPEG/GIF/TGA with vit.h's fixes around it)
// and the preprocessing path (channel conversion, PIL resample, crop,
// normalise) of a fixed model; the first byte picks the decoder hook's answer
// (none, "not mine", an image from the bytes, a failure). PNGs also run with
// their header CRCs made right (vit.h refuses bad ones), through vit_decode_memory. Run from the
// repository root (it loads a reference model). The limits are small so that an
// input costs little: a hostile header is found just as well at 512 x 512.
#define VIT_MAX_IMAGE_PIXELS (1 << 18) // (a 1 x 64 sliver of the raw-pixel check resizes to 44 x 2816)
#define VIT_MAX_IMAGE_SIDE 1024
#define VIT_IMPLEMENTATION
#include "../../vit.h"
#include <stdint.h>
#include <stdlib.h>

static vit_model *model_rgb, *model_gray;

typedef struct hook_input { const uint8_t *data; size_t size; int frees, decodes; } hook_input;

// The decoder hook's answer depends on the input's first byte: 0-63 not mine, 64-95 failure,
// 96-127 an image made of the bytes (its size and channels from the next bytes), else no hook.
static int fuzz_decode(const void *data, size_t size, vit_image *img, char *message, void *user) {
    hook_input *h = (hook_input *)user;
    const uint8_t *p = (const uint8_t *)data;
    (void)size;
    if (p[0] < 64) return 0;
    if (p[0] < 96 || h->size < 8) {
        memcpy(message, "fuzz", 5);
        return -1;
    }
    int ch = 1 + p[1] % 5, w = p[2] % 40, hh = p[3] % 40, stride = w * (ch > 4 ? 4 : ch) + p[4] % 3; // ch 5, w 0: bad images
    if ((size_t)stride * hh > h->size - 5) return -1;
    img->pixels = h->data + 5;
    img->width = w;
    img->height = hh;
    img->channels = ch;
    img->stride = stride;
    img->owner = h;
    h->decodes++;
    return 1;
}

static void fuzz_free(vit_image *img, void *user) {
    hook_input *h = (hook_input *)user;
    if (img->owner != h) abort();
    h->frees++;
}

// A PNG's chunks before the first IDAT with their CRCs made right, into a copy:
// vit.h refuses a bad one (as PIL does), and a mutated header would otherwise
// never reach stb_image's PNG parser. NULL when the input is no PNG.
static uint8_t *png_crcs_fixed(const uint8_t *p, size_t size) {
    if (size < 8 || memcmp(p, "\x89PNG\r\n\x1a\n", 8)) return NULL;
    uint8_t *q = (uint8_t *)malloc(size);
    if (!q) abort();
    memcpy(q, p, size);
    for (size_t i = 8; i + 12 <= size;) {
        size_t len = (size_t)q[i] << 24 | (size_t)q[i + 1] << 16 | (size_t)q[i + 2] << 8 | q[i + 3];
        if (!memcmp(q + i + 4, "IDAT", 4) || len > size - i - 12) break;
        uint32_t crc = 0xFFFFFFFFu;
        for (size_t k = i + 4; k < i + 8 + len; k++) {
            crc ^= q[k];
            for (int b = 0; b < 8; b++) crc = crc & 1 ? 0xEDB88320u ^ (crc >> 1) : crc >> 1;
        }
        crc ^= 0xFFFFFFFFu;
        for (int b = 0; b < 4; b++) q[i + 8 + len + b] = (uint8_t)(crc >> (24 - 8 * b));
        i += 12 + len;
    }
    return q;
}

static int status_ok(vit_status s) {
    return s == VIT_OK || s == VIT_ERROR_IMAGE_DECODE || s == VIT_ERROR_LIMIT || s == VIT_ERROR_INVALID_ARGUMENT || s == VIT_ERROR_OUT_OF_MEMORY;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!model_rgb) {
        if (vit_load("tests/data/ref/timm_token_odd_heads/model.safetensors", NULL, &model_rgb) != VIT_OK ||
            vit_load("tests/data/ref/timm_1ch/model.safetensors", NULL, &model_gray) != VIT_OK)
            abort();
    }
    static float out[3 * 64 * 64];
    hook_input h = {data, size, 0, 0};
    vit_image_decoder d;
    memset(&d, 0, sizeof(d));
    d.decode = fuzz_decode;
    d.free = fuzz_free;
    d.user_data = &h;
    const vit_image_decoder *dec = size >= 1 && data[0] >= 64 && data[0] < 128 ? &d : NULL;
    if (!status_ok(vit_preprocess_memory_with(model_rgb, data, size, dec, out))) abort();
    if (!status_ok(vit_preprocess_memory(model_gray, data, size, out))) abort();
    uint8_t *fixed = png_crcs_fixed(data, size);
    if (fixed) {
        vit_image img;
        if (!status_ok(vit_decode_memory(model_rgb, fixed, size, NULL, &img))) abort();
        if (img.pixels && vit_preprocess_rgb8(model_rgb, img.pixels, img.width, img.height, img.stride, img.channels, out) != VIT_OK) abort();
        vit_image_free(model_rgb, &img);
        free(fixed);
    }
    if (h.frees != h.decodes) abort(); // every image the hook made is handed back once
    // raw pixels: the bytes as a small image of 1-4 channels and fuzzed size
    if (size >= 4) {
        int ch = 1 + data[0] % 4, w = 1 + data[1] % 64, hh = 1 + data[2] % 64;
        if ((size_t)w * hh * ch <= size - 3 && vit_preprocess_rgb8(model_rgb, data + 3, w, hh, 0, ch, out) != VIT_OK) abort();
    }
    return 0;
}
