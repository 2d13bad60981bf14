// dump_outputs: writes the raw float bits of vit_embed and vit_forward for each
// reference case, to check that a change leaves the results bit-identical:
// build it against the old and the new vit.h, run both, compare with cmp.
//
//   cc -O3 -march=native -ffp-contract=fast -fopenmp -I DIR tools/dump_outputs.c -o dump -lm
//   nvcc -O3 -x cu -I DIR tools/dump_outputs.c -o dump  (GPU too: every dtype at max_batch 1, 3, 64; fp8 where the model loads in it)
//   dump OUTDIR tests/data/ref/*/
// CPU: fp32, int8 and fp8 (the packed and int8 GEMMs' blocks of every ISA).
// One file per case and run: OUTDIR/<case>_<device>_<dtype>_<max_batch>.bin.
// Images: the reference inputs (io.bin), at options.json's size where the case
// has one. Exit 1 when a case fails to load or run.
#define VIT_IMPLEMENTATION
#include "vit.h"
#include "../tests/test_util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int dump(const char *outdir, const char *dir, vit_device dev, vit_dtype dt, int max_batch) {
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
    if (!read_case_options(dir, &o)) { fprintf(stderr, "%s: unreadable options.json\n", dir); free(r.input); free(r.logits); free(r.features); return 0; }
    vit_model *m = NULL;
    vit_status ls = vit_load(path, &o, &m);
    int ok = ls == VIT_OK;
    if (ls == VIT_ERROR_UNSUPPORTED && dt == VIT_DTYPE_FP8) { // (fp8 takes widths of multiples of 16 only: nothing to dump)
        free(r.input); free(r.logits); free(r.features);
        return 1;
    }
    if (!ok) fprintf(stderr, "%s: load: %s\n", dir, vit_last_error(NULL));
    const vit_config *c = ok ? vit_model_config(m) : NULL;
    if (ok && (c->in_chans != r.c || c->image_height != r.h || c->image_width != r.w || c->num_classes != r.k || c->dim != r.d)) {
        fprintf(stderr, "%s: the model's input or output sizes are not the reference's\n", dir); // (the model would read past io.bin's images)
        ok = 0;
    }
    size_t nf = (size_t)r.n * r.d, nl = (size_t)r.n * r.k;
    float *out = (float *)calloc(nf + nl + 1, sizeof(float));
    if (ok && vit_embed(m, r.input, r.n, out) != VIT_OK) ok = 0;
    if (ok && r.k > 0 && vit_forward(m, r.input, r.n, out + nf) != VIT_OK) ok = 0;
    if (!ok && m) fprintf(stderr, "%s: run: %s\n", dir, vit_last_error(m));
    if (ok) {
        const char *end = dir + strlen(dir), *base;
        while (end > dir && end[-1] == '/') end--;
        for (base = end; base > dir && base[-1] != '/'; base--) {}
        snprintf(path, sizeof(path), "%s/%.*s_%d_%d_%d.bin", outdir, (int)(end - base), base, (int)dev, (int)dt, max_batch);
        FILE *f = fopen(path, "wb");
        ok = f && fwrite(out, sizeof(float), nf + nl, f) == nf + nl;
        if (f) fclose(f);
    }
    free(out);
    vit_free(m);
    free(r.input); free(r.logits); free(r.features);
    return ok;
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: dump_outputs OUTDIR DIR...\n"); return 2; }
    const char *f = argv[1];
    int ok = 1;
    for (int i = 2; i < argc; i++) {
        ok &= dump(f, argv[i], VIT_DEVICE_CPU, VIT_DTYPE_F32, 0);
        ok &= dump(f, argv[i], VIT_DEVICE_CPU, VIT_DTYPE_INT8, 0);
        ok &= dump(f, argv[i], VIT_DEVICE_CPU, VIT_DTYPE_FP8, 0);
#ifdef VIT__CUDA
        vit_dtype dts[4] = {VIT_DTYPE_F32, VIT_DTYPE_BF16, VIT_DTYPE_F16, VIT_DTYPE_FP8};
        for (int d = 0; d < 4; d++) {
            ok &= dump(f, argv[i], VIT_DEVICE_CUDA, dts[d], 1);
            ok &= dump(f, argv[i], VIT_DEVICE_CUDA, dts[d], 3);
            ok &= dump(f, argv[i], VIT_DEVICE_CUDA, dts[d], 64);
        }
#endif
    }
    return ok ? 0 : 1;
}
