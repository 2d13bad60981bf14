// test_images_nostb: vit.h built with VIT_NO_STB_IMAGE still decodes BMP and PNM
// (its own decoders) and takes a decoder hook, through vit_preprocess_*_with.
//
// usage: test_images_nostb IMAGES PREPROCESS   (as test_images)
#define VIT_NO_STB_IMAGE
#define VIT_IMPLEMENTATION
#include "../vit.h"
#include "test_util.h" // (after vit.h: gray_decode)

// vit_preprocess_file_with against a pad40 reference: max difference in 8-bit levels (1e9 when it fails)
static double diff(vit_model *m, const char *dir, const char *name, const vit_image_decoder *d, vit_status *st) {
    const vit_config *c = vit_model_config(m);
    size_t n = (size_t)c->in_chans * c->image_height * c->image_width, rn = 0;
    float *out = (float *)malloc(n * sizeof(float));
    char p[512];
    fmt(p, sizeof(p), "%s/%s.pad40.u8", dir, name);
    unsigned char *ref = read_all(p, &rn);
    fmt(p, sizeof(p), "%s/%s", dir, name);
    *st = vit_preprocess_file_with(m, p, d, out);
    double worst = 1e9;
    if (*st == VIT_OK && ref && rn == n) {
        worst = 0;
        for (size_t i = 0; i < n; i++) {
            int k = (int)(i / ((size_t)c->image_height * c->image_width));
            double v = fabs(out[i] - (ref[i] / 255.0f - c->mean[k]) / c->std[k]) * c->std[k] * 255.0;
            if (v > worst) worst = v;
        }
    }
    free(out);
    free(ref);
    return worst;
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: %s tests/data/images tests/data/preprocess\n", argv[0]); return 2; }
    char p[512];
    vit_model *m = NULL;
    fmt(p, sizeof(p), "%s/pad40/model.safetensors", argv[2]);
    if (vit_load(p, NULL, &m) != VIT_OK) { fprintf(stderr, "%s: %s\n", p, vit_last_error(NULL)); return 1; }
    static const char *own[] = {"pal8.bmp", "rle4.bmp", "os2_pal8.bmp", "plain.ppm", "max65535.pgm", "raw.pbm"};
    for (int i = 0; i < 6; i++) {
        vit_status st;
        double d = diff(m, argv[1], own[i], NULL, &st);
        check(d < 0.01, "no stb_image: own decoder", "%s: max %.3g levels from PIL + timm %s", own[i], d, st ? vit_last_error(m) : "");
    }
    vit_status st;
    diff(m, argv[1], "gray16.png", NULL, &st);
    check(st == VIT_ERROR_IMAGE_DECODE && strstr(vit_last_error(m), "VIT_NO_STB_IMAGE"), "no stb_image: PNG refused by name", "%s", vit_last_error(m));
    vit_image_decoder d;
    memset(&d, 0, sizeof(d));
    d.decode = gray_decode;
    float out[3 * 40 * 40], want[3 * 40 * 40];
    static const unsigned char px[4] = {0, 85, 170, 255};
    vit_status a = vit_preprocess_memory_with(m, "GRAY", 4, &d, out), b = vit_preprocess_rgb8(m, px, 2, 2, 0, 1, want);
    check(a == VIT_OK && b == VIT_OK && !memcmp(out, want, sizeof(out)), "no stb_image: the hook decodes", "%d %d", a, b);
    vit_free(m);
    return check_summary();
}
