// fuzz_index: a sharded model (model.safetensors.index.json and its shards)
// from arbitrary bytes: the index parser, then the load of the shards it names.
// Input layout: u16 (little-endian) index length, the index text; u16 config
// length, the config.json text (length 0: none); then shards, each a u16
// length and its bytes, the last one taking the rest (at most 4). Shard k is
// the index's k-th file name (in order of first mention).
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const uint8_t *p = data;
    size_t left = size, ilen, clen;
    const uint8_t *itext = take(&p, &left, &ilen), *ctext = take(&p, &left, &clen);
    vit_allocator a = vit_query_defaults(NULL).allocator;
    char err[VIT__ERR_LEN];
    err[0] = 0;
    char *idx = (char *)malloc(ilen + 1); // an exact-size copy: ASan sees any read past the text
    memcpy(idx, itext, ilen);
    vit__index ix;
    vit_status st = vit__index_parse(&ix, idx, ilen, &a, err);
    if (st != VIT_OK) {
        if (st >= 0 || st <= -VIT_STATUS_COUNT || !err[0] || ix.entries || ix.files) abort(); // named, and nothing kept
        free(idx);
        return 0;
    }
    if (ix.count < 1 || ix.nshards < 1 || ix.nshards > VIT_MAX_SHARDS) abort();
    for (int e = 0; e < ix.count; e++)
        if (ix.entries[e].shard < 0 || ix.entries[e].shard >= ix.nshards) abort();
    for (int s = 0; s < ix.nshards; s++)
        if (strchr(ix.files[s], '/') || strchr(ix.files[s], '\\') || !strncmp(ix.files[s], "..", 2)) abort();
    vit__bytes shards[4];
    unsigned char *copies[4] = {NULL, NULL, NULL, NULL};
    int n = 0;
    while (n < 4 && n < ix.nshards && left > 0) {
        size_t len;
        const uint8_t *b;
        if (n + 1 == ix.nshards || n == 3) { b = p; len = left; left = 0; } // the last shard: the rest
        else b = take(&p, &left, &len);
        copies[n] = (unsigned char *)malloc(len + 1);
        memcpy(copies[n], b, len);
        shards[n].data = (const char *)copies[n];
        shards[n].size = len;
        n++;
    }
    char *cfg = NULL;
    vit_options o;
    memset(&o, 0, sizeof(o));
    o.max_batch = 1;
    o.num_threads = 1;
    o.device = VIT_DEVICE_CPU;
    vit__bytes config = {NULL, 0}, none = {NULL, 0};
    if (clen) {
        cfg = (char *)malloc(clen);
        memcpy(cfg, ctext, clen);
        config.data = cfg;
        config.size = clen;
    }
    if (n > 0) {
        vit_model *m = NULL;
        st = vit__create(shards, n, &ix, &o, config, none, &m);
        if (st == VIT_OK) {
            // every tensor that loaded was listed: a model from shards the index does not fully name is a bug
            if (n != ix.nshards) abort();
            vit_free(m);
        } else if (m != NULL || st >= 0 || st <= -VIT_STATUS_COUNT || !vit_last_error(NULL)[0]) {
            abort();
        }
    }
    for (int i = 0; i < n; i++) free(copies[i]);
    free(cfg);
    vit__index_release(&ix);
    free(idx);
    return 0;
}
