// fuzz_load: vit_load_memory on arbitrary safetensors bytes, with or without an
// arbitrary config.json, then a forward pass when a (small) model loads.
// Input layout: byte 0 bit 0 set -> bytes 1..2 (little-endian) are the config
// length L, the next L bytes the config.json text, the rest the safetensors file;
// otherwise bytes 1.. are the safetensors file. Byte 0 bit 1 set: run at
// 4 (1 + (byte 0 >> 4)) x 4 (1 + ((byte 0 >> 2) & 3)) (the position embedding resampled).
#define VIT_IMPLEMENTATION
#include "../../vit.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    vit_options o;
    memset(&o, 0, sizeof(o));
    o.max_batch = 1;
    o.num_threads = 1;
    o.device = VIT_DEVICE_CPU;
    if (data[0] & 2) {
        o.image_height = 4 * (1 + (data[0] >> 4));
        o.image_width = 4 * (1 + ((data[0] >> 2) & 3));
    }
    const uint8_t *st = data + 1;
    size_t st_size = size - 1;
    char *cfg = NULL;
    if ((data[0] & 1) && size >= 3) {
        size_t len = (size_t)data[1] | (size_t)data[2] << 8;
        if (len > size - 3) len = size - 3;
        cfg = (char *)malloc(len + 1);
        memcpy(cfg, data + 3, len);
        cfg[len] = 0;
        o.config_json = cfg;
        o.config_json_size = len ? len : 1; // 1 byte "\0": an empty, invalid config
        st = data + 3 + len;
        st_size = size - 3 - len;
    }
    vit_model *m = NULL;
    vit_status s = vit_load_memory(st, st_size, &o, &m);
    if (s == VIT_OK) {
        const vit_config *c = vit_model_config(m);
        double work = (double)c->num_tokens * c->num_tokens * c->dim * c->depth + (double)c->num_tokens * c->dim * c->mlp_dim * c->depth;
        if (work < 5e7) { // keep each execution fast
            size_t px = (size_t)c->in_chans * c->image_height * c->image_width;
            float *img = (float *)malloc(px * sizeof(float));
            float *out = (float *)malloc(((size_t)c->num_classes + (size_t)c->dim) * sizeof(float));
            for (size_t i = 0; i < px; i++) img[i] = (float)(i % 7) - 3.0f;
            if (c->num_classes) vit_forward(m, img, 1, out);
            vit_embed(m, img, 1, out);
            free(img);
            free(out);
        }
        vit_free(m);
    } else if (m != NULL || s >= 0 || s <= -VIT_STATUS_COUNT || !vit_last_error(NULL)[0]) {
        abort(); // a failed load must name its error and leave no model
    }
    free(cfg);
    return 0;
}
