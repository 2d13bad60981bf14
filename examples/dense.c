// vit-dense: the picture of a ViT's patch features, as the DINOv2 paper shows
// them: each patch token of the last block (final norm applied) reduced to its
// three principal components, as red, green and blue, written as a PNG beside
// the input (IMAGE_pca.png, or OUT).
//
//   vit-dense MODEL IMAGE [OUT.png]
//
// MODEL: a .safetensors file or a model folder (a DINOv2 Dinov2Model folder
// gives the well-known picture; any model vit.h loads works). The output has
// one square of patch_size pixels per patch: the model's input (its resize and
// center crop of IMAGE), in feature colours.
#define VIT_IMPLEMENTATION
#include "vit.h"
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h> // Debian libstb-dev, as stb_image.h
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COMPONENTS 3

// The top COMPONENTS eigenvectors of the C x C covariance cov, into vec (rows),
// by subspace iteration from a fixed start: the same on every run. Each vector's
// sign is chosen so that its largest entry is positive.
static void principal_axes(const double *cov, int C, double *vec) {
    double *next = (double *)malloc((size_t)COMPONENTS * C * sizeof(double));
    for (int k = 0; k < COMPONENTS; k++)
        for (int c = 0; c < C; c++) vec[(size_t)k * C + c] = ((c * 7 + k * 13) % 17) - 8.0 + (c == k);
    for (int it = 0; it < 300; it++) {
        for (int k = 0; k < COMPONENTS; k++) // next = cov vec
            for (int r = 0; r < C; r++) {
                double s = 0;
                for (int c = 0; c < C; c++) s += cov[(size_t)r * C + c] * vec[(size_t)k * C + c];
                next[(size_t)k * C + r] = s;
            }
        for (int k = 0; k < COMPONENTS; k++) { // Gram-Schmidt, in order: vector k is the k-th component
            double *v = next + (size_t)k * C;
            for (int j = 0; j < k; j++) {
                const double *u = next + (size_t)j * C;
                double d = 0;
                for (int c = 0; c < C; c++) d += v[c] * u[c];
                for (int c = 0; c < C; c++) v[c] -= d * u[c];
            }
            double n = 0;
            for (int c = 0; c < C; c++) n += v[c] * v[c];
            n = n > 0 ? 1.0 / sqrt(n) : 0.0;
            for (int c = 0; c < C; c++) v[c] *= n;
        }
        memcpy(vec, next, (size_t)COMPONENTS * C * sizeof(double));
    }
    for (int k = 0; k < COMPONENTS; k++) {
        double *v = vec + (size_t)k * C, big = 0;
        for (int c = 0; c < C; c++) if (fabs(v[c]) > fabs(big)) big = v[c];
        if (big < 0) for (int c = 0; c < C; c++) v[c] = -v[c];
    }
    free(next);
}

int main(int argc, char **argv) {
    if (argc < 3 || argc > 4) { fprintf(stderr, "usage: vit-dense MODEL IMAGE [OUT.png]\n"); return 2; }
    const char *image_path = argv[2];
    vit_model *model = NULL;
    vit_status st = vit_load(argv[1], NULL, &model);
    if (st != VIT_OK) {
        fprintf(stderr, "vit-dense: cannot load '%s': %s: %s\n", argv[1], vit_status_string(st), vit_last_error(NULL));
        return 1;
    }
    const vit_config *cfg = vit_model_config(model);
    vit_features_spec spec; // the last block, final norm, patch tokens only: [gh * gw, C]
    memset(&spec, 0, sizeof(spec));
    spec.norm = 1;
    spec.drop_prefix = 1;
    int shape[4];
    size_t per_image = 0;
    st = vit_features_shape(model, &spec, shape, &per_image, NULL);
    int P = cfg->patch_size, gh = cfg->image_height / P, gw = cfg->image_width / P, C = cfg->dim, T = shape[0];
    size_t pixels = (size_t)cfg->in_chans * cfg->image_height * cfg->image_width;
    float *image = (float *)malloc(pixels * sizeof(float)), *tokens = (float *)malloc(per_image * sizeof(float));
    double *mean = (double *)calloc((size_t)C, sizeof(double)), *cov = (double *)calloc((size_t)C * C, sizeof(double));
    double *axes = (double *)malloc((size_t)COMPONENTS * C * sizeof(double)), *proj = (double *)malloc((size_t)T * COMPONENTS * sizeof(double));
    unsigned char *png = (unsigned char *)malloc((size_t)cfg->image_height * cfg->image_width * 3);
    int ok = st == VIT_OK && image && tokens && mean && cov && axes && proj && png;
    if (st == VIT_OK && !ok) fprintf(stderr, "vit-dense: out of memory\n");
    if (ok && (st = vit_preprocess_file(model, image_path, image)) == VIT_OK) st = vit_features(model, image, 1, &spec, tokens, per_image);
    if (ok && st != VIT_OK) { fprintf(stderr, "vit-dense: %s: %s\n", vit_status_string(st), vit_last_error(model)); ok = 0; }
    if (ok) {
        // PCA over the T patch tokens: centre, covariance, top axes, projections
        for (int t = 0; t < T; t++) for (int c = 0; c < C; c++) mean[c] += tokens[(size_t)t * C + c] / (double)T;
        for (int t = 0; t < T; t++) {
            const float *x = tokens + (size_t)t * C;
            for (int r = 0; r < C; r++) {
                double dr = x[r] - mean[r];
                for (int c = r; c < C; c++) cov[(size_t)r * C + c] += dr * (x[c] - mean[c]);
            }
        }
        for (int r = 0; r < C; r++) for (int c = 0; c < r; c++) cov[(size_t)r * C + c] = cov[(size_t)c * C + r];
        principal_axes(cov, C, axes);
        double lo[COMPONENTS], hi[COMPONENTS];
        for (int k = 0; k < COMPONENTS; k++) { lo[k] = INFINITY; hi[k] = -INFINITY; }
        for (int t = 0; t < T; t++)
            for (int k = 0; k < COMPONENTS; k++) {
                double s = 0;
                for (int c = 0; c < C; c++) s += (tokens[(size_t)t * C + c] - mean[c]) * axes[(size_t)k * C + c];
                proj[(size_t)t * COMPONENTS + k] = s;
                if (s < lo[k]) lo[k] = s;
                if (s > hi[k]) hi[k] = s;
            }
        // each component stretched to 0..255; each patch a P x P square
        for (int y = 0; y < gh * P; y++)
            for (int x = 0; x < gw * P; x++)
                for (int k = 0; k < COMPONENTS; k++) {
                    double v = proj[((size_t)(y / P) * gw + (size_t)(x / P)) * COMPONENTS + k];
                    double u = hi[k] > lo[k] ? (v - lo[k]) / (hi[k] - lo[k]) : 0.5;
                    png[((size_t)y * gw * P + x) * 3 + k] = (unsigned char)lrint(u * 255.0);
                }
        char *out = NULL;
        if (argc == 4) out = argv[3];
        else { // IMAGE without its extension, then _pca.png
            size_t n = strlen(image_path);
            const char *dot = strrchr(image_path, '.'), *slash = strrchr(image_path, '/');
            if (dot && (!slash || dot > slash)) n = (size_t)(dot - image_path);
            out = (char *)malloc(n + 9);
            if (out) { memcpy(out, image_path, n); strcpy(out + n, "_pca.png"); }
        }
        if (!out || !stbi_write_png(out, gw * P, gh * P, 3, png, gw * P * 3)) {
            fprintf(stderr, "vit-dense: cannot write '%s'\n", out ? out : "(out of memory)");
            ok = 0;
        } else {
            printf("%s: %dx%d patches of %d features, 3 principal components -> %s\n", image_path, gw, gh, C, out);
        }
        if (argc != 4) free(out);
    }
    free(image); free(tokens); free(mean); free(cov); free(axes); free(proj); free(png);
    vit_free(model);
    return ok ? 0 : 1;
}
