// fuzz_tokenizer: a tokenizer from arbitrary bytes (tokenizer.json through the
// JSON parser, or a spiece.model through the protocol buffer reader), then text
// through it. Input layout: u16 (little-endian) text length, the text; u16
// tokenizer_config.json length, its text (length 0: none; an
// open_clip_config.json's text takes open_clip's reading); then the tokenizer
// file. A failed load must be named and keep nothing; a tokenizer that loads
// must give, for the text and a few fixed ones, ids in [0, vocab_size) and a
// count within the context, or a named failure. Built with VIT_NO_STDIO (only
// the memory calls are used).
#define VIT_NO_STDIO
#define VIT_IMPLEMENTATION
#include "../../vit.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const uint8_t *take(const uint8_t **p, size_t *left, size_t *n) {
    size_t len = 0;
    if (*left >= 2) { len = (size_t)(*p)[0] | (size_t)(*p)[1] << 8; *p += 2; *left -= 2; }
    else { *p += *left; *left = 0; }
    if (len > *left) len = *left;
    const uint8_t *r = *p;
    *p += len; *left -= len; *n = len;
    return r;
}

static void tokenize(vit_tokenizer *t, const void *text, size_t len) {
    const vit_tokenizer_config *c = vit_tokenizer_get_config(t);
    int *ids = (int *)malloc(((size_t)c->context + 1) * sizeof(int)), n = -1;
    char *copy = (char *)malloc(len ? len : 1); // an exact-size copy: ASan sees any read past the text
    if (len) memcpy(copy, text, len);
    ids[c->context] = 0x5EED;
    vit_status st = vit_tokenize(t, copy, len, ids, c->context, &n);
    if (st == VIT_OK) {
        if (n < 1 || n > c->context || ids[c->context] != 0x5EED) abort();
        for (int i = 0; i < c->context; i++)
            if (ids[i] < 0 || ids[i] >= c->vocab_size) abort();
    } else if (st >= 0 || st <= -VIT_STATUS_COUNT || !vit_tokenizer_last_error(t)[0]) {
        abort();
    }
    free(copy);
    free(ids);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const uint8_t *p = data;
    size_t left = size, tlen, clen;
    const uint8_t *text = take(&p, &left, &tlen), *cfg = take(&p, &left, &clen);
    unsigned char *file = (unsigned char *)malloc(left ? left : 1);
    char *config = clen ? (char *)malloc(clen) : NULL;
    if (left) memcpy(file, p, left);
    if (clen) memcpy(config, cfg, clen);
    vit_tokenizer *t = (vit_tokenizer *)(void *)&left; // a load must write *out
    vit_status st = vit_tokenizer_load_memory(file, left, config, clen, NULL, &t);
    if (st != VIT_OK) {
        if (t != NULL || st >= 0 || st <= -VIT_STATUS_COUNT || !vit_tokenizer_last_error(NULL)[0]) abort(); // named, and nothing kept
    } else {
        const vit_tokenizer_config *c = vit_tokenizer_get_config(t);
        if (c->context < 2 || c->vocab_size < 1 || c->pad_id < 0 || c->pad_id >= c->vocab_size || c->eos_id >= c->vocab_size) abort();
        static const char *const fixed[] = {"a photo of a cat", "ΣΟΦΙΑΣ naïve 東京 😀 it's </s> <|endoftext|>"};
        tokenize(t, text, tlen);
        for (int k = 0; k < 2; k++) tokenize(t, fixed[k], strlen(fixed[k]));
        vit_tokenizer_free(t);
    }
    free(file);
    free(config);
    return 0;
}
