// fuzz_forward: a tiny fixed-shape ViT whose every weight and input pixel comes
// from the fuzzer (NaN, Inf and denormals included). The forward pass must not
// crash or read out of bounds, whatever the numbers; the output may be NaN.
// Architecture: 8x8 image, patch 4, 2 channels... widths below.
#define VIT_IMPLEMENTATION
#include "../../vit.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { C = 8, M = 16, K = 3, P = 4, CIN = 3, S = 8, NPOS = (S / P) * (S / P) + 1 };

typedef struct { const char *name; int ndim; int shape[4]; } spec;
static const spec tensors[] = {
    {"patch_embed.proj.weight", 4, {C, CIN, P, P}}, {"patch_embed.proj.bias", 1, {C}},
    {"cls_token", 3, {1, 1, C}}, {"pos_embed", 3, {1, NPOS, C}},
    {"blocks.0.norm1.weight", 1, {C}}, {"blocks.0.norm1.bias", 1, {C}},
    {"blocks.0.attn.qkv.weight", 2, {3 * C, C}}, {"blocks.0.attn.qkv.bias", 1, {3 * C}},
    {"blocks.0.attn.proj.weight", 2, {C, C}}, {"blocks.0.attn.proj.bias", 1, {C}},
    {"blocks.0.norm2.weight", 1, {C}}, {"blocks.0.norm2.bias", 1, {C}},
    {"blocks.0.mlp.fc1.weight", 2, {M, C}}, {"blocks.0.mlp.fc1.bias", 1, {M}},
    {"blocks.0.mlp.fc2.weight", 2, {C, M}}, {"blocks.0.mlp.fc2.bias", 1, {C}},
    {"norm.weight", 1, {C}}, {"norm.bias", 1, {C}},
    {"head.weight", 2, {K, C}}, {"head.bias", 1, {K}},
};
#define NT (sizeof(tensors) / sizeof(tensors[0]))

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static unsigned char file[1 << 16];
    char header[4096];
    size_t hl = 0, off = 0;
    hl += (size_t)snprintf(header + hl, sizeof(header) - hl, "{");
    for (size_t t = 0; t < NT; t++) {
        size_t n = 1;
        for (int d = 0; d < tensors[t].ndim; d++) n *= (size_t)tensors[t].shape[d];
        hl += (size_t)snprintf(header + hl, sizeof(header) - hl, "%s\"%s\":{\"dtype\":\"F32\",\"shape\":[", t ? "," : "", tensors[t].name);
        for (int d = 0; d < tensors[t].ndim; d++) hl += (size_t)snprintf(header + hl, sizeof(header) - hl, d ? ",%d" : "%d", tensors[t].shape[d]);
        hl += (size_t)snprintf(header + hl, sizeof(header) - hl, "],\"data_offsets\":[%zu,%zu]}", off, off + n * 4);
        off += n * 4;
    }
    hl += (size_t)snprintf(header + hl, sizeof(header) - hl, "}");
    size_t pixels = (size_t)CIN * S * S, need = off + pixels * 4;
    for (int i = 0; i < 8; i++) file[i] = (unsigned char)(hl >> (8 * i));
    memcpy(file + 8, header, hl);
    // weights then the image: the fuzz bytes, repeated to fill
    unsigned char *payload = file + 8 + hl;
    static float image[CIN * S * S];
    for (size_t i = 0; i < need; i++) {
        unsigned char b = size ? data[i % size] : 0;
        if (i < off) payload[i] = b;
        else ((unsigned char *)image)[i - off] = b;
    }
    vit_options o;
    memset(&o, 0, sizeof(o));
    o.max_batch = 2;
    o.num_threads = 1;
    o.device = VIT_DEVICE_CPU;
    o.config_json = "{\"architecture\":\"vit_tiny_patch16_224\",\"model_args\":{\"num_heads\":2}}";
    vit_model *m = NULL;
    if (vit_load_memory(file, 8 + hl + off, &o, &m) != VIT_OK) abort(); // the container is always valid
    float logits[K], features[C];
    if (vit_forward(m, image, 1, logits) != VIT_OK || vit_embed(m, image, 1, features) != VIT_OK) abort();
    vit_free(m);
    return 0;
}
