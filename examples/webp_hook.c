// webp_hook: WebP images through vit.h's decoder hook, with Debian's libwebp.
//
//   cc -O2 -I. examples/webp_hook.c -o webp_hook -lwebp -lm   (apt-get install libwebp-dev)
//   webp_hook model.safetensors image.webp             top-5 classes
//   webp_hook model.safetensors image.webp ref.u8      check against a (C, H, W) uint8
//                                                      reference (timm's transform, PIL decode)
//
// vit.h decodes PNG, JPEG, GIF, BMP, TGA and PNM itself; a vit_image_decoder
// adds any other format: decode() says "not mine" (0), "decoded" (1: pixels,
// size, channels, stride, and an owner handed back to free()) or "broken" (-1,
// with a message). vit.h checks the image, preprocesses it, then calls free().
#define VIT_IMPLEMENTATION
#include "vit.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <webp/decode.h>

static int webp_decode(const void *data, size_t size, vit_image *img, char *message, void *user_data) {
    (void)user_data;
    int w = 0, h = 0;
    if (size < 12 || memcmp(data, "RIFF", 4) != 0 || memcmp((const char *)data + 8, "WEBP", 4) != 0) return 0; // not WebP
    WebPBitstreamFeatures f;
    if (WebPGetFeatures((const uint8_t *)data, size, &f) != VP8_STATUS_OK) {
        snprintf(message, VIT_IMAGE_MESSAGE_LEN, "libwebp: bad WebP header");
        return -1;
    }
    // RGB, or RGBA when the file has alpha (vit.h drops it, as PIL's convert('RGB') does)
    uint8_t *px = f.has_alpha ? WebPDecodeRGBA((const uint8_t *)data, size, &w, &h) : WebPDecodeRGB((const uint8_t *)data, size, &w, &h);
    if (!px) {
        snprintf(message, VIT_IMAGE_MESSAGE_LEN, "libwebp: cannot decode (%s)", f.has_animation ? "animated" : "corrupt");
        return -1;
    }
    img->pixels = px;
    img->width = w;
    img->height = h;
    img->channels = f.has_alpha ? 4 : 3;
    img->stride = 0; // packed rows
    img->owner = px;
    return 1;
}

static void webp_free(vit_image *img, void *user_data) {
    (void)user_data;
    WebPFree(img->owner);
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: %s model.safetensors image.webp [ref.u8]\n", argv[0]); return 2; }
    vit_model *model = NULL;
    vit_status st = vit_load(argv[1], NULL, &model);
    if (st != VIT_OK) { fprintf(stderr, "load: %s: %s\n", vit_status_string(st), vit_last_error(NULL)); return 1; }
    const vit_config *cfg = vit_model_config(model);
    size_t n = (size_t)cfg->in_chans * cfg->image_height * cfg->image_width;
    float *image = (float *)malloc(n * sizeof(float));
    vit_image_decoder webp;
    memset(&webp, 0, sizeof(webp)); // zeroed = no hook; fill in what you use
    webp.decode = webp_decode;
    webp.free = webp_free;
    st = vit_preprocess_file_with(model, argv[2], &webp, image);
    int rc = st == VIT_OK ? 0 : 1;
    if (st != VIT_OK) fprintf(stderr, "preprocess: %s: %s\n", vit_status_string(st), vit_last_error(model));
    else if (argc > 3) { // compare with the reference, in 8-bit levels
        FILE *f = fopen(argv[3], "rb");
        unsigned char *ref = (unsigned char *)malloc(n);
        double worst = 1e9;
        if (f && fread(ref, 1, n, f) == n) {
            worst = 0;
            for (size_t i = 0; i < n; i++) {
                int k = (int)(i / ((size_t)cfg->image_height * cfg->image_width));
                double d = fabs(image[i] - (ref[i] / 255.0f - cfg->mean[k]) / cfg->std[k]) * cfg->std[k] * 255.0;
                if (d > worst) worst = d;
            }
        }
        if (f) fclose(f);
        free(ref);
        rc = worst < 0.01 ? 0 : 1;
        printf("%s %s: max %.3g levels from PIL + timm\n", rc ? "NOT OK" : "OK", argv[2], worst);
    } else if (cfg->num_classes > 0) {
        float *logits = (float *)malloc((size_t)cfg->num_classes * sizeof(float));
        st = vit_forward(model, image, 1, logits);
        if (st != VIT_OK) { fprintf(stderr, "forward: %s: %s\n", vit_status_string(st), vit_last_error(model)); rc = 1; }
        for (int t = 0; st == VIT_OK && t < 5 && t < cfg->num_classes; t++) { // top 5 by selection
            int best = -1;
            for (int k = 0; k < cfg->num_classes; k++)
                if (logits[k] > -INFINITY && (best < 0 || logits[k] > logits[best])) best = k;
            printf("%d %s %.4f\n", best, vit_label(model, best), logits[best]);
            logits[best] = -INFINITY;
        }
        free(logits);
    }
    free(image);
    vit_free(model);
    return rc;
}
