// test_static: the configuration macros build. Two translation units (this file
// and test_static_b.c) each compile a private VIT_STATIC copy of the
// implementation and link into one program without clashing; this one also
// uses VIT_MALLOC/VIT_FREE, the other VIT_NO_STDIO + VIT_NO_STB_IMAGE. Built with
// -fopenmp (test_static) and without it (test_static_noomp): vit_config.openmp says which.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "test_util.h" // first: VIT_MALLOC/VIT_FREE below use its counting allocator

static counting g_count; // every VIT_MALLOC/VIT_FREE of this unit

#define VIT_STATIC
#define VIT_MALLOC(sz) count_alloc(sz, &g_count)
#define VIT_FREE(p) count_free(p, &g_count)
#define VIT_IMPLEMENTATION
#include "../vit.h"

int other_unit_loads(const void *data, size_t size); // test_static_b.c

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: test_static MODEL.safetensors\n"); return 2; }
    vit_model *m = NULL;
    vit_status st = vit_load(argv[1], NULL, &m);
    int ok = st == VIT_OK && g_count.live > 0;
    // a build without OpenMP says so (make test-cpu runs this test built with and without -fopenmp)
    const vit_config *c = vit_model_config(m);
#ifdef _OPENMP
    int want_openmp = 1;
#else
    int want_openmp = 0;
#endif
    check(c && c->openmp == want_openmp && c->num_threads >= 1 && (want_openmp || c->num_threads == 1),
          "vit_config.openmp and num_threads tell a build without OpenMP", "openmp %d (want %d), num_threads %d",
          c ? c->openmp : -1, want_openmp, c ? c->num_threads : -1);
    vit_free(m);
    ok = ok && g_count.live == 0;
    check(ok, "VIT_STATIC + VIT_MALLOC/VIT_FREE", "load and free through the macros (%ld live after free)", g_count.live);
    size_t size = 0;
    unsigned char *data = read_all(argv[1], &size);
    ok = data && other_unit_loads(data, size);
    check(ok, "second unit with VIT_NO_STDIO + VIT_NO_STB_IMAGE loads from memory", "%s", "");
    free(data);
    return check_summary();
}
