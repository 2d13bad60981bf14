// tokenize_texts: vit_tokenize over many texts, for tools/sweep_tokenizer_unicode.py.
//
//     tokenize_texts TOKENIZER_PATH < TEXTS > IDS
//
// TEXTS as tests/data/tokenizers/corpus.txt (per text its byte count, ':', its
// bytes, '\n'); per text one line of IDS: the ids before the padding, or
// "refused" (VIT_ERROR_UNSUPPORTED) or "error N" (another status).
#define VIT_IMPLEMENTATION
#include "../vit.h"
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    vit_tokenizer *t;
    if (argc != 2) { fprintf(stderr, "usage: %s TOKENIZER_PATH < TEXTS\n", argv[0]); return 2; }
    if (vit_tokenizer_load(argv[1], NULL, &t) != VIT_OK) { fprintf(stderr, "%s\n", vit_tokenizer_last_error(NULL)); return 1; }
    int ids[1024], n;
    size_t cap = 1 << 16;
    char *buf = (char *)malloc(cap);
    unsigned long long len;
    while (scanf("%llu:", &len) == 1) {
        if (len + 1 > cap) { cap = (size_t)len + 1; buf = (char *)realloc(buf, cap); }
        if (fread(buf, 1, (size_t)len + 1, stdin) != len + 1) return 1;
        vit_status r = vit_tokenize(t, buf, (size_t)len, ids, 1024, &n);
        if (r == VIT_ERROR_UNSUPPORTED) { printf("refused\n"); continue; }
        if (r != VIT_OK) { printf("error %d\n", (int)r); continue; }
        for (int i = 0; i < n; i++) printf(i ? " %d" : "%d", ids[i]);
        printf("\n");
    }
    free(buf);
    vit_tokenizer_free(t);
    return 0;
}
