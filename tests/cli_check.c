// cli_check: checks vit-classify's --json and --embed output for tests/test_cli.sh,
// without Python: strict JSON by vit.h's own parser (RFC 8259), UTF-8 checked
// here, values recomputed one image at a time by vit.h on the CPU.
//
//   cli_check json OUT.jsonl [MODEL]
//       Every line must be one JSON object, valid UTF-8, with a string "file" and
//       exactly one of: "top" (objects {index, label, prob}, probs in [0, 1] and
//       not increasing), "embedding" (numbers), "error" (a string). Prints one line
//       per object: FILE<TAB>top<TAB>i j ... | FILE<TAB>embedding<TAB>COUNT |
//       FILE<TAB>error<TAB>MESSAGE. With MODEL, each result is recomputed
//       (vit_classify_file / vit_preprocess_file + vit_forward or vit_embed, batch
//       of one): the same classes with probs within 1e-6, embeddings bit-exact.
//   cli_check json OUT.jsonl MODEL TEMPLATE LABEL...
//       --labels' output: each "top" recomputed as zero-shot against the LABELs
//       (TEMPLATE, "-" for none; the tokenizer in MODEL's folder: vit_encode_texts,
//       then vit_zero_shot on the embedding vit-classify uses): the same labels
//       (index and text) with probs within 1e-6.
//   cli_check embed OUT.safetensors MODEL FILE...
//       The file must hold exactly one F32 tensor "embeddings" of shape [n, dim],
//       n = the number of FILEs, and "__metadata__": {"files": JSON array of the
//       FILEs, in order}; each row bit-exact against vit_embed of that file.
//   cli_check features OUT.safetensors MODEL LAYERS NORM NO_PREFIX FILE...
//       --features' file: "__metadata__" {files, layers}, and for each block k of
//       LAYERS ("5,-1"; resolved as vit_features_shape does) one F32 tensor
//       "block.<k>" [n, T, C], each image's rows bit-exact against vit_features
//       (NORM, NO_PREFIX: 0 or 1) of that file alone.
//   cli_check same A B
//       Two runs' outputs of vit-classify agree (the Windows build's against the
//       Linux build's, tests/test_windows_cli.sh): safetensors files (--embed,
//       --features) with the same header and max |A - B| / max(1, max |B|) <= 1e-6;
//       JSON lines (--json) with the same structure, the same strings and numbers
//       within 1e-6 (relative above 1) beyond their printed precision (half a unit
//       of the last digit printed, each); text line for line the same.
//       A's \r\n line ends are read as \n.
// Exit status 0 when all is well, 1 with the reason on stderr otherwise.
#include "../examples/platform.h" // plat_exit: how a Windows build with OpenMP ends
#define VIT_IMPLEMENTATION
#include "../vit.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

static int fail(const char *fmt, const char *a, long line) {
    fprintf(stderr, "cli_check: ");
    if (line > 0) fprintf(stderr, "line %ld: ", line);
    fprintf(stderr, fmt, a);
    fprintf(stderr, "\n");
    return 1;
}

static char *read_all(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0, got;
    char *p = (char *)malloc(cap + 1);
    while (p && (got = fread(p + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) { cap *= 2; char *q = (char *)realloc(p, cap + 1); if (!q) { free(p); p = NULL; } else p = q; }
    }
    fclose(f);
    if (p) p[n] = 0;
    *size = n;
    return p;
}

static int utf8_ok(const unsigned char *s, size_t n) {
    for (size_t i = 0; i < n;) {
        unsigned c = s[i], cp;
        size_t k, len = c < 0x80 ? 1 : (c >= 0xC2 && c <= 0xDF) ? 2 : (c >= 0xE0 && c <= 0xEF) ? 3 : (c >= 0xF0 && c <= 0xF4) ? 4 : 0;
        if (!len || i + len > n) return 0;
        cp = len == 1 ? c : c & (0x3Fu >> (len - 1));
        for (k = 1; k < len; k++) {
            if ((s[i + k] & 0xC0) != 0x80) return 0;
            cp = cp << 6 | (s[i + k] & 0x3Fu);
        }
        if ((len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF))) return 0;
        i += len;
    }
    return 1;
}

// The number node n exactly as strtod reads it (vit__json_double is not
// correctly rounded; %.9g round trips a float only through a correct parse).
static double num(const vit__json *j, int n) {
    char t[64];
    size_t len = j->nodes[n].len < sizeof(t) - 1 ? j->nodes[n].len : sizeof(t) - 1;
    memcpy(t, j->src + j->nodes[n].start, len);
    t[len] = 0;
    return strtod(t, NULL);
}

static vit_model *load(const char *path) {
    vit_options o;
    memset(&o, 0, sizeof(o));
    o.device = VIT_DEVICE_CPU;
    vit_model *m = NULL;
    if (vit_load(path, &o, &m) != VIT_OK) { fprintf(stderr, "cli_check: cannot load '%s': %s\n", path, vit_last_error(NULL)); return NULL; }
    return m;
}

// vit-classify's embedding for file: vit_forward for a projection head, else vit_embed.
static int embedding(vit_model *m, const char *file, float *out, int features) {
    const vit_config *c = vit_model_config(m);
    size_t pixels = (size_t)c->in_chans * c->image_height * c->image_width;
    float *image = (float *)malloc(pixels * sizeof(float));
    vit_status st = image ? vit_preprocess_file(m, file, image) : VIT_ERROR_OUT_OF_MEMORY;
    if (st == VIT_OK) st = c->num_classes && !features ? vit_forward(m, image, 1, out) : vit_embed(m, image, 1, out);
    free(image);
    if (st != VIT_OK) fprintf(stderr, "cli_check: '%s': %s\n", file, vit_last_error(m));
    return st == VIT_OK;
}

// The zero-shot labels' text embeddings (k x embed_dim) into *out: the tokenizer of model_path
// (vit_tokenizer_load of the path given to vit_load, as vit-classify does).
static int label_embeds(vit_model *m, const char *model_path, const char *tmpl, char **labels, int k, float **out) {
    vit_tokenizer *t = NULL;
    *out = (float *)malloc((size_t)k * vit_model_config(m)->embed_dim * sizeof(float) + 1);
    vit_status st = vit_tokenizer_load(model_path, NULL, &t);
    if (st == VIT_OK) st = vit_encode_texts(m, t, (const char *const *)labels, k, strcmp(tmpl, "-") ? tmpl : NULL, *out);
    if (st != VIT_OK) fprintf(stderr, "cli_check: the labels: %s %s\n", vit_last_error(m), vit_tokenizer_last_error(NULL));
    vit_tokenizer_free(t);
    return st == VIT_OK;
}

static int check_json(const char *path, const char *model_path, const char *tmpl, char **labels, int nlabels) {
    size_t size;
    char *text = read_all(path, &size);
    if (!text) return fail("cannot read '%s'", path, 0);
    vit_model *m = model_path ? load(model_path) : NULL;
    if (model_path && !m) { free(text); return 1; }
    const vit_config *c = m ? vit_model_config(m) : NULL;
    int width = c ? (c->num_classes ? c->num_classes : c->dim) : 0;
    float *vec = (float *)malloc((size_t)(width + 1) * sizeof(float)), *lab = NULL;
    if (labels && !label_embeds(m, model_path, tmpl, labels, nlabels, &lab)) { free(text); free(vec); free(lab); vit_free(m); return 1; }
    vit_allocator alloc;
    memset(&alloc, 0, sizeof(alloc));
    char err[VIT__ERR_LEN], file[4096], str[4096];
    long line = 0;
    int bad = 0;
    for (char *p = text, *nl; !bad && p < text + size; p = nl + 1) {
        line++;
        nl = (char *)memchr(p, '\n', (size_t)(text + size - p));
        if (!nl) { bad = fail("%s: no newline at the end", path, line); break; }
        size_t len = (size_t)(nl - p);
        vit__json j;
        if (!utf8_ok((const unsigned char *)p, len)) { bad = fail("%s", "not valid UTF-8", line); break; }
        if (vit__json_parse(&j, p, len, &alloc, err) != VIT_OK) { bad = fail("not JSON: %s", err, line); break; }
        int f = vit__json_get(&j, 0, "file"), top = vit__json_get(&j, 0, "top"), emb = vit__json_get(&j, 0, "embedding"), er = vit__json_get(&j, 0, "error");
        if (j.nodes[0].type != VIT__J_OBJ || f < 0 || j.nodes[f].type != VIT__J_STR) bad = fail("%s", "not an object with a string \"file\"", line);
        else if ((top >= 0) + (emb >= 0) + (er >= 0) != 1 || j.nodes[0].count != 2) bad = fail("%s", "want \"file\" and one of \"top\", \"embedding\", \"error\"", line);
        if (!bad) {
            vit__json_str(&j, f, file, sizeof(file));
            printf("%s\t%s\t", file, top >= 0 ? "top" : emb >= 0 ? "embedding" : "error");
        }
        if (!bad && er >= 0) {
            if (j.nodes[er].type != VIT__J_STR) bad = fail("%s", "\"error\" is not a string", line);
            else { vit__json_str(&j, er, str, sizeof(str)); printf("%s", str); }
        } else if (!bad && top >= 0) {
            int classes[64], k = 0;
            float probs[64];
            double prev = 2.0;
            if (j.nodes[top].type != VIT__J_ARR || j.nodes[top].count < 1 || j.nodes[top].count > 64) bad = fail("%s", "\"top\" is not an array of 1 to 64", line);
            for (int e = bad ? -1 : j.nodes[top].first_child; e >= 0 && !bad; e = j.nodes[e].next, k++) {
                int idx = vit__json_get(&j, e, "index"), lab = vit__json_get(&j, e, "label"), pr = vit__json_get(&j, e, "prob");
                if (idx < 0 || lab < 0 || pr < 0 || j.nodes[e].count != 3 || j.nodes[lab].type != VIT__J_STR || j.nodes[pr].type != VIT__J_NUM ||
                    !vit__json_int(&j, idx, 0, VIT_MAX_DIM, &classes[k])) { bad = fail("%s", "a \"top\" entry is not {index, label, prob}", line); break; }
                double prob = num(&j, pr);
                if (!(prob >= 0.0 && prob <= 1.0 && prob <= prev)) { bad = fail("%s", "probs not in [0, 1] or not in decreasing order", line); break; }
                prev = prob;
                probs[k] = (float)prob;
                vit__json_str(&j, lab, str, sizeof(str));
                if (labels && (classes[k] >= nlabels || strcmp(str, labels[classes[k]]))) { bad = fail("label '%s' is not the one at its index", str, line); break; }
                if (m && !labels && strcmp(str, vit_label(m, classes[k]))) { bad = fail("label '%s' is not the model's", str, line); break; }
                printf("%s%d", k ? " " : "", classes[k]);
            }
            if (!bad && labels) { // zero-shot: vit-classify's embedding against the labels'
                int want[64];
                float wp[64];
                if (nlabels > 64) bad = fail("%s", "more than 64 labels", line);
                else if (!embedding(m, file, vec, 0) || vit_zero_shot(m, vec, 1, lab, nlabels, NULL, wp) != VIT_OK) bad = fail("%s", "cannot score the image", line);
                else if (vit_topk(wp, nlabels, k, want) != k) bad = fail("%s", "more \"top\" entries than labels", line);
                for (int i = 0; i < k && !bad; i++)
                    if (want[i] != classes[i] || fabsf(wp[want[i]] - probs[i]) > 1e-6f) bad = fail("%s", "not what vit_zero_shot gives", line);
            } else if (!bad && m) {
                int want[64];
                float wp[64];
                if (c->num_classes == 0 || c->projection) bad = fail("%s", "\"top\" from a model without classes", line);
                else if (vit_classify_file(m, file, k, want, wp) != VIT_OK) bad = fail("cannot classify: %s", vit_last_error(m), line);
                for (int i = 0; i < k && !bad; i++)
                    if (want[i] != classes[i] || fabsf(wp[i] - probs[i]) > 1e-6f) bad = fail("%s", "not what vit_classify_file gives", line);
            }
        } else if (!bad) {
            int k = 0;
            if (j.nodes[emb].type != VIT__J_ARR || j.nodes[emb].count < 1) bad = fail("%s", "\"embedding\" is not a non-empty array", line);
            if (!bad && m) {
                if (j.nodes[emb].count != width || (c->num_classes && !c->projection)) bad = fail("%s", "\"embedding\" of the wrong size or from a classifier", line);
                else if (!embedding(m, file, vec, 0)) bad = 1;
            }
            for (int e = bad ? -1 : j.nodes[emb].first_child; e >= 0 && !bad; e = j.nodes[e].next, k++) {
                if (j.nodes[e].type != VIT__J_NUM) { bad = fail("%s", "an embedding value is not a number", line); break; }
                if (m && (float)num(&j, e) != vec[k]) { bad = fail("%s", "an embedding value differs from vit.h's (batch of one)", line); break; }
            }
            if (!bad) printf("%d", k);
        }
        if (!bad) printf("\n");
        vit__json_release(&j);
    }
    free(vec);
    free(lab);
    free(text);
    vit_free(m);
    return bad;
}

// Reads a safetensors file written by vit-classify: its bytes, header length
// and parsed header (valid UTF-8 JSON). 0, or 1 after saying why.
static int read_header(const char *path, char **data, size_t *size, uint64_t *hlen, vit__json *j) {
    static vit_allocator alloc; // (zero: malloc/free; the parsed header keeps a pointer to it)
    char err[VIT__ERR_LEN];
    *data = read_all(path, size);
    if (!*data) return fail("cannot read '%s'", path, 0);
    *hlen = 0;
    for (int k = 0; k < 8 && *size >= 8; k++) *hlen |= (uint64_t)(unsigned char)(*data)[k] << (8 * k);
    if (*size < 8 || *hlen > *size - 8 || *hlen % 8) { free(*data); return fail("%s: bad header length", path, 0); }
    if (!utf8_ok((const unsigned char *)*data + 8, (size_t)*hlen) || vit__json_parse(j, *data + 8, (size_t)*hlen, &alloc, err) != VIT_OK) {
        free(*data);
        return fail("header: not UTF-8 JSON: %s", err, 0);
    }
    return 0;
}

// The file names in __metadata__.files (a JSON array as a string) must be files[0..nfiles).
static int check_files_meta(const vit__json *j, int fl, char **files, int nfiles) {
    vit_allocator alloc;
    memset(&alloc, 0, sizeof(alloc));
    char err[VIT__ERR_LEN];
    size_t cap = j->nodes[fl].len + 1;
    char *list = (char *)malloc(cap), *name = (char *)malloc(cap);
    vit__json l;
    int bad = 0, i = 0;
    vit__json_str(j, fl, list, cap);
    if (vit__json_parse(&l, list, strlen(list), &alloc, err) != VIT_OK || l.nodes[0].type != VIT__J_ARR || l.nodes[0].count != nfiles) {
        bad = fail("%s", "__metadata__.files: not a JSON array of the files", 0);
    } else {
        for (int e = l.nodes[0].first_child; e >= 0 && !bad; e = l.nodes[e].next, i++) {
            if (l.nodes[e].type != VIT__J_STR) { bad = fail("%s", "__metadata__.files: not strings", 0); break; }
            vit__json_str(&l, e, name, cap);
            if (strcmp(name, files[i])) bad = fail("__metadata__.files: '%s' out of place", name, 0);
        }
        vit__json_release(&l);
    }
    free(list); free(name);
    return bad;
}

static int check_embed(const char *path, const char *model_path, char **files, int nfiles) {
    size_t size;
    char *data;
    uint64_t hlen;
    vit__json j;
    if (read_header(path, &data, &size, &hlen, &j)) return 1;
    int bad = 0, meta = vit__json_get(&j, 0, "__metadata__"), t = vit__json_get(&j, 0, "embeddings");
    int fl = vit__json_get(&j, meta, "files"), dt = vit__json_get(&j, t, "dtype"), sh = vit__json_get(&j, t, "shape"), off = vit__json_get(&j, t, "data_offsets");
    vit_model *m = load(model_path);
    const vit_config *c = m ? vit_model_config(m) : NULL;
    int dim = c ? c->dim : 0, n = 0, d = 0;
    uint64_t o0 = 1, o1 = 0;
    if (!m) bad = 1;
    else if (j.nodes[0].count != 2 || meta < 0 || t < 0 || j.nodes[meta].count != 1 || fl < 0 || j.nodes[fl].type != VIT__J_STR)
        bad = fail("%s", "header: want exactly __metadata__ {files} and embeddings", 0);
    else if (dt < 0 || !vit__json_eq(&j, dt, "F32") || sh < 0 || j.nodes[sh].count != 2 || off < 0 || j.nodes[off].count != 2 ||
             !vit__json_int(&j, j.nodes[sh].first_child, 0, 1 << 30, &n) || !vit__json_int(&j, j.nodes[j.nodes[sh].first_child].next, 0, 1 << 30, &d) ||
             !vit__json_u64(&j, j.nodes[off].first_child, &o0) || !vit__json_u64(&j, j.nodes[j.nodes[off].first_child].next, &o1))
        bad = fail("%s", "embeddings: want dtype F32, shape [n, dim], data_offsets [a, b]", 0);
    else if (n != nfiles || d != dim || o0 != 0 || o1 != (uint64_t)n * (uint64_t)d * 4 || size - 8 - hlen != o1)
        bad = fail("%s", "embeddings: shape, offsets or file size wrong", 0);
    if (!bad) bad = check_files_meta(&j, fl, files, nfiles);
    float *vec = (float *)malloc(((size_t)dim + 1) * sizeof(float));
    for (int i = 0; i < nfiles && !bad; i++) {
        if (!embedding(m, files[i], vec, 1)) { bad = 1; break; }
        if (memcmp(vec, data + 8 + hlen + (size_t)i * dim * 4, (size_t)dim * 4)) bad = fail("row of '%s' differs from vit_embed's", files[i], 0);
    }
    if (!bad) printf("embeddings: %d x %d, %d files, each row bit-exact\n", n, d, nfiles);
    free(vec); free(data);
    vit__json_release(&j);
    vit_free(m);
    return bad;
}

static int check_features(const char *path, const char *model_path, const char *layers, int norm, int no_prefix, char **files, int nfiles) {
    size_t size;
    char *data, key[32];
    uint64_t hlen, at[1024]; // at: each block's data offset
    vit__json j;
    if (read_header(path, &data, &size, &hlen, &j)) return 1;
    int asked[1024], resolved[1024], nb = 0, shape[4], bad = 0;
    for (const char *q = layers; nb < 1024;) { char *end; asked[nb++] = (int)strtol(q, &end, 10); if (*end != ',') break; q = end + 1; }
    vit_features_spec spec;
    memset(&spec, 0, sizeof(spec));
    spec.blocks = asked; spec.num_blocks = nb; spec.norm = norm; spec.drop_prefix = no_prefix;
    size_t per = 0;
    vit_model *m = load(model_path);
    if (!m || vit_features_shape(m, &spec, shape, &per, resolved) != VIT_OK) bad = fail("%s", "the model or LAYERS", 0);
    int meta = vit__json_get(&j, 0, "__metadata__"), fl = meta >= 0 ? vit__json_get(&j, meta, "files") : -1, ly = meta >= 0 ? vit__json_get(&j, meta, "layers") : -1;
    if (!bad && (j.nodes[0].count != nb + 1 || fl < 0 || ly < 0 || j.nodes[meta].count != 2 || j.nodes[fl].type != VIT__J_STR))
        bad = fail("%s", "header: want __metadata__ {files, layers} and one tensor per block", 0);
    if (!bad) bad = check_files_meta(&j, fl, files, nfiles);
    float *want = (float *)malloc((per + 1) * (size_t)nb * sizeof(float));
    uint64_t total = 0;
    for (int b = 0; b < nb && !bad; b++) {
        snprintf(key, sizeof(key), "block.%d", resolved[b]);
        int t = vit__json_get(&j, 0, key), dt = t >= 0 ? vit__json_get(&j, t, "dtype") : -1, sh = t >= 0 ? vit__json_get(&j, t, "shape") : -1, off = t >= 0 ? vit__json_get(&j, t, "data_offsets") : -1;
        int n = 0, T = 0, C = 0, e;
        uint64_t o0 = 0, o1 = 0;
        if (dt < 0 || !vit__json_eq(&j, dt, "F32") || sh < 0 || j.nodes[sh].count != 3 || off < 0 || j.nodes[off].count != 2 ||
            !vit__json_int(&j, e = j.nodes[sh].first_child, 0, 1 << 30, &n) || !vit__json_int(&j, e = j.nodes[e].next, 0, 1 << 30, &T) ||
            !vit__json_int(&j, j.nodes[e].next, 0, 1 << 30, &C) || !vit__json_u64(&j, j.nodes[off].first_child, &o0) ||
            !vit__json_u64(&j, j.nodes[j.nodes[off].first_child].next, &o1))
            bad = fail("%s: want dtype F32, shape [n, T, C], data_offsets [a, b]", key, 0);
        else if (n != nfiles || (size_t)T * C != per || T != shape[0] || o1 - o0 != (uint64_t)n * per * 4 || o1 > size - 8 - hlen)
            bad = fail("%s: shape or offsets wrong", key, 0);
        total += o1 - o0;
        at[b] = o0;
    }
    if (!bad && total != size - 8 - hlen) bad = fail("%s", "the file holds more than the tensors", 0);
    const vit_config *c = m ? vit_model_config(m) : NULL;
    size_t px = c ? (size_t)c->in_chans * c->image_height * c->image_width : 0;
    float *image = (float *)malloc((px + 1) * sizeof(float));
    for (int i = 0; i < nfiles && !bad; i++) { // each image alone, all blocks in one call (block-major)
        vit_status st = image ? vit_preprocess_file(m, files[i], image) : VIT_ERROR_OUT_OF_MEMORY;
        if (st == VIT_OK) st = vit_features(m, image, 1, &spec, want, per * (size_t)nb);
        if (st != VIT_OK) { bad = fail("vit_features: %s", vit_last_error(m), 0); break; }
        for (int b = 0; b < nb && !bad; b++)
            if (memcmp(want + (size_t)b * per, data + 8 + hlen + at[b] + (size_t)i * per * 4, per * 4)) {
                snprintf(key, sizeof(key), "block.%d", resolved[b]);
                bad = fail("%s: an image's rows differ from vit_features'", key, 0);
            }
    }
    free(image);
    if (!bad) printf("features: %d blocks x %d images x %zu values, each image bit-exact\n", nb, nfiles, per);
    free(want); free(data);
    vit__json_release(&j);
    vit_free(m);
    return bad;
}

// ---- cli_check same

static int close_enough(double a, double b, double slack) {
    double m = fabs(b) > 1.0 ? fabs(b) : 1.0;
    return fabs(a - b) <= 1e-6 * m + slack || (a != a && b != b);
}

// The value of one unit in the last digit of number node n as printed ("0.537377": 1e-6)
static double print_unit(const vit__json *j, int n) {
    const char *s = j->src + j->nodes[n].start, *e = s + j->nodes[n].len, *dot = NULL, *ex = NULL;
    for (const char *c = s; c < e; c++) {
        if (*c == '.') dot = c;
        if (*c == 'e' || *c == 'E') { ex = c; break; }
    }
    long decimals = dot ? (long)((ex ? ex : e) - dot - 1) : 0, exp10 = ex ? strtol(ex + 1, NULL, 10) : 0;
    return pow(10.0, (double)(exp10 - decimals));
}

// JSON node x of a and y of b: the same structure and strings, numbers close (beyond
// their printed precision: vit-classify prints probabilities with %.6g)
static int json_same(const vit__json *a, int x, const vit__json *b, int y) {
    const vit__jnode *p = &a->nodes[x], *q = &b->nodes[y];
    if (p->type != q->type) return 0;
    if (p->type == VIT__J_NUM) return close_enough(num(a, x), num(b, y), 0.5 * (print_unit(a, x) + print_unit(b, y)) * (1 + 1e-9));
    if (p->type == VIT__J_STR) return p->len == q->len && !memcmp(a->src + p->start, b->src + q->start, p->len);
    if (p->type != VIT__J_ARR && p->type != VIT__J_OBJ) return 1;
    if (p->count != q->count) return 0;
    for (x = p->first_child, y = q->first_child; x >= 0 && y >= 0; x = a->nodes[x].next, y = b->nodes[y].next)
        if (!json_same(a, x, b, y)) return 0;
    return x < 0 && y < 0;
}

// text's "\r\n" made "\n", in place; the new size
static size_t drop_cr(char *t, size_t n) {
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!(t[i] == '\r' && i + 1 < n && t[i + 1] == '\n')) t[k++] = t[i];
    t[k] = 0;
    return k;
}

static int check_same(const char *path_a, const char *path_b) {
    size_t na, nb;
    char *ta = read_all(path_a, &na), *tb = read_all(path_b, &nb);
    int bad = 0;
    if (!ta || !tb) { free(ta); free(tb); return fail("cannot read '%s'", !ta ? path_a : path_b, 0); }
    uint64_t ha = 0, hb = 0;
    for (int k = 0; k < 8 && na >= 8 && nb >= 8; k++) { ha |= (uint64_t)(unsigned char)ta[k] << (8 * k); hb |= (uint64_t)(unsigned char)tb[k] << (8 * k); }
    if (na >= 8 && nb >= 8 && ha && ha <= na - 8 && hb <= nb - 8 && ha % 8 == 0 && ta[8] == '{') { // safetensors
        // max |a - b| / max(1, max |b|) over the data (rel_err's measure, in test_util.h)
        size_t floats = (na - 8 - (size_t)ha) / 4, worst = 0;
        double dmax = 0, bmax = 1.0;
        if (ha != hb || memcmp(ta, tb, 8 + (size_t)ha)) bad = fail("%s", "the safetensors headers differ", 0);
        else if (na != nb || (na - 8 - ha) % 4) bad = fail("%s", "the files' sizes differ", 0);
        for (size_t i = 0; i < floats && !bad; i++) {
            float x, y;
            memcpy(&x, ta + 8 + ha + 4 * i, 4);
            memcpy(&y, tb + 8 + ha + 4 * i, 4);
            if (!(fabs((double)x - y) <= dmax)) { dmax = fabs((double)x - y); worst = i; }
            if (fabs((double)y) > bmax) bmax = fabs((double)y);
        }
        char t[160];
        snprintf(t, sizeof(t), "%zu floats, max |diff| %.3g (float %zu), / max(1, max |B|) = %.3g", floats, dmax, worst, dmax / bmax);
        if (!bad && !(dmax / bmax <= 1e-6)) bad = fail("the data differ beyond 1e-6: %s", t, 0);
        if (!bad) printf("same: safetensors, identical headers, %s\n", t);
    } else {
        na = drop_cr(ta, na);
        nb = drop_cr(tb, nb);
        vit_allocator alloc;
        memset(&alloc, 0, sizeof(alloc));
        char err[VIT__ERR_LEN];
        long line = 0, json = 0;
        char *p = ta, *q = tb;
        while (!bad && (p < ta + na || q < tb + nb)) {
            line++;
            char *pe = (char *)memchr(p, '\n', (size_t)(ta + na - p)), *qe = (char *)memchr(q, '\n', (size_t)(tb + nb - q));
            if (!pe) pe = ta + na;
            if (!qe) qe = tb + nb;
            vit__json ja, jb;
            int pj = *p == '{' && vit__json_parse(&ja, p, (size_t)(pe - p), &alloc, err) == VIT_OK;
            int qj = pj && vit__json_parse(&jb, q, (size_t)(qe - q), &alloc, err) == VIT_OK;
            if (pj && qj) {
                json++;
                if (!json_same(&ja, 0, &jb, 0)) bad = fail("%s", "the JSON objects differ (structure, a string, or a number beyond 1e-6)", line);
            } else if (pe - p != qe - q || memcmp(p, q, (size_t)(pe - p))) {
                bad = fail("%s", "the lines differ", line);
            }
            if (pj) vit__json_release(&ja);
            if (qj) vit__json_release(&jb);
            p = pe < ta + na ? pe + 1 : pe;
            q = qe < tb + nb ? qe + 1 : qe;
        }
        if (!bad) printf("same: %ld lines (%ld JSON), numbers within 1e-6\n", line, json);
    }
    free(ta);
    free(tb);
    return bad;
}

static int run(int argc, char **argv) {
    if (argc >= 3 && argc <= 4 && !strcmp(argv[1], "json")) return check_json(argv[2], argc == 4 ? argv[3] : NULL, NULL, NULL, 0);
    if (argc >= 6 && !strcmp(argv[1], "json")) return check_json(argv[2], argv[3], argv[4], argv + 5, argc - 5);
    if (argc >= 4 && !strcmp(argv[1], "embed")) return check_embed(argv[2], argv[3], argv + 4, argc - 4);
    if (argc >= 7 && !strcmp(argv[1], "features")) return check_features(argv[2], argv[3], argv[4], atoi(argv[5]), atoi(argv[6]), argv + 7, argc - 7);
    if (argc == 4 && !strcmp(argv[1], "same")) return check_same(argv[2], argv[3]);
    fprintf(stderr, "usage: cli_check json OUT.jsonl [MODEL] | cli_check embed OUT.safetensors MODEL FILE... |\n"
                    "       cli_check features OUT.safetensors MODEL LAYERS NORM NO_PREFIX FILE... | cli_check same A B\n");
    return 2;
}

int main(int argc, char **argv) { return plat_exit(run(argc, argv)); }
