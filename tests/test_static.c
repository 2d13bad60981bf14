// test_static: the configuration macros build. Two translation units (this file
// and test_static_b.c) each compile a private VIT_STATIC copy of the
// implementation and link into one program without clashing; this one also
// uses VIT_MALLOC/VIT_FREE, the other VIT_NO_STDIO + VIT_NO_STB_IMAGE.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t live_allocations;
static void *counted_malloc(size_t n) { live_allocations++; return malloc(n); }
static void counted_free(void *p) { if (p) live_allocations--; free(p); }

#define VIT_STATIC
#define VIT_MALLOC(sz) counted_malloc(sz)
#define VIT_FREE(p) counted_free(p)
#define VIT_IMPLEMENTATION
#include "../vit.h"

int other_unit_loads(const void *data, size_t size); // test_static_b.c

static unsigned char *read_all(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = (unsigned char *)malloc((size_t)n);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) { free(buf); buf = NULL; }
    fclose(f);
    *size = (size_t)n;
    return buf;
}

int main(int argc, char **argv) {
    int passed = 0, failed = 0;
    if (argc < 2) { fprintf(stderr, "usage: test_static MODEL.safetensors\n"); return 2; }
    vit_model *m = NULL;
    vit_status st = vit_load(argv[1], NULL, &m);
    int ok = st == VIT_OK && live_allocations > 0;
    vit_free(m);
    ok = ok && live_allocations == 0;
    printf("%s VIT_STATIC + VIT_MALLOC/VIT_FREE: load and free through the macros (%zu live after free)\n", ok ? "OK" : "NOT OK", live_allocations);
    ok ? passed++ : failed++;
    size_t size = 0;
    unsigned char *data = read_all(argv[1], &size);
    ok = data && other_unit_loads(data, size);
    printf("%s second unit with VIT_NO_STDIO + VIT_NO_STB_IMAGE loads from memory\n", ok ? "OK" : "NOT OK");
    ok ? passed++ : failed++;
    free(data);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
