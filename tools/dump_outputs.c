// dump_outputs: writes the raw float bits of vit_embed and vit_forward for each
// reference case, to check that a change leaves the results bit-identical:
// build it against the old and the new vit.h, run both, compare with cmp.
//
//   cc -O3 -march=native -ffp-contract=fast -fopenmp -I DIR tools/dump_outputs.c -o dump -lm
//   nvcc -O3 -x cu -I DIR tools/dump_outputs.c -o dump       (GPU: every dtype, batch 1 and 3)
//   dump OUT.bin tests/data/ref/*/
// Images: the reference inputs (io.bin). Exit 1 when a case fails to load or run.
#define VIT_IMPLEMENTATION
#include "vit.h"
#include "../tests/test_util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int dump(FILE *f, const char *dir, vit_device dev, vit_dtype dt, int max_batch) {
    char path[1024];
    reference r;
    memset(&r, 0, sizeof(r));
    snprintf(path, sizeof(path), "%s/io.bin", dir);
    if (!read_reference(path, &r)) { fprintf(stderr, "%s: cannot read io.bin\n", dir); return 0; }
    snprintf(path, sizeof(path), "%s/model.safetensors", dir);
    vit_options o;
    memset(&o, 0, sizeof(o));
    o.device = dev;
    o.dtype = dt;
    o.max_batch = max_batch;
    vit_model *m = NULL;
    int ok = vit_load(path, &o, &m) == VIT_OK;
    if (!ok) fprintf(stderr, "%s: load: %s\n", dir, vit_last_error(NULL));
    size_t nf = (size_t)r.n * r.d, nl = (size_t)r.n * r.k;
    float *out = (float *)calloc(nf + nl + 1, sizeof(float));
    if (ok && vit_embed(m, r.input, r.n, out) != VIT_OK) ok = 0;
    if (ok && r.k > 0 && vit_forward(m, r.input, r.n, out + nf) != VIT_OK) ok = 0;
    if (!ok && m) fprintf(stderr, "%s: run: %s\n", dir, vit_last_error(m));
    if (ok) {
        fprintf(f, "%s dev %d dtype %d batch %d\n", dir, (int)dev, (int)dt, max_batch);
        fwrite(out, sizeof(float), nf + nl, f);
    }
    free(out);
    vit_free(m);
    free(r.input); free(r.logits); free(r.features);
    return ok;
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: dump_outputs OUT.bin DIR...\n"); return 2; }
    FILE *f = fopen(argv[1], "wb");
    if (!f) return 2;
    int ok = 1;
    for (int i = 2; i < argc; i++) {
        ok &= dump(f, argv[i], VIT_DEVICE_CPU, VIT_DTYPE_F32, 0);
#ifdef VIT__CUDA
        vit_dtype dts[3] = {VIT_DTYPE_F32, VIT_DTYPE_BF16, VIT_DTYPE_F16};
        for (int d = 0; d < 3; d++) {
            ok &= dump(f, argv[i], VIT_DEVICE_CUDA, dts[d], 1);
            ok &= dump(f, argv[i], VIT_DEVICE_CUDA, dts[d], 3);
            ok &= dump(f, argv[i], VIT_DEVICE_CUDA, dts[d], 64);
        }
#endif
    }
    fclose(f);
    return ok ? 0 : 1;
}
