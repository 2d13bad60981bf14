// test_switches: vit.h built with a switch that leaves a part out (make builds
// this file once per switch: -DVIT_NO_TEXT, -DVIT_NO_IMAGE_DECODE, both,
// -DVIT_NO_TOKENIZER, -DVIT_NO_STB_IMAGE) against a private full copy of vit.h
// (test_switches_full.c, linked in). It checks that
//  - the CLIP and SigLIP models with a text tower (transformers' and
//    open_clip's) load, with has_text 0 under VIT_NO_TEXT, and give the full
//    build's image logits and features bit for bit (and the PyTorch
//    reference's, as test_model allows);
//  - a file's text tensors are skipped only as its text tower: one that is
//    not the text tower's is refused in every build;
//  - each call of a part left out answers VIT_ERROR_UNSUPPORTED (the calls
//    without a status NULL or nothing) and vit_last_error (or
//    vit_tokenizer_last_error) names the macro; the parts kept work: text
//    embeddings where the text towers stay, file decoding where the decoders
//    stay (VIT_NO_STB_IMAGE: BMP and PNM, a PNG refused by name);
//  - a decoder hook still decodes, and 8-bit frames still run, in every build;
//  - the program links: every call the header declares is defined.
//
// usage: test_switches DATA   (DATA = tests/data)
#define VIT_IMPLEMENTATION
#include "../vit.h"
#include "test_util.h" // (after vit.h: gray_decode)

#ifdef VIT_NO_TEXT
#define NO_TEXT 1
#else
#define NO_TEXT 0
#endif
#ifdef VIT_NO_IMAGE_DECODE
#define NO_DECODE 1
#else
#define NO_DECODE 0
#endif
#if defined(VIT_NO_STB_IMAGE) || defined(VIT_NO_IMAGE_DECODE)
#define NO_STB 1
#else
#define NO_STB 0
#endif

int full_outputs(const char *path, const float *images, int n, float *logits, int k, float *features, int d); // test_switches_full.c

static const char *g_data;

// st is VIT_ERROR_UNSUPPORTED and msg names macro.
static void check_left_out(const char *what, vit_status st, const char *msg, const char *macro) {
    check(st == VIT_ERROR_UNSUPPORTED && msg && strstr(msg, macro), what, "%s: %s", vit_status_string(st), msg ? msg : "(NULL)");
}

// ---- the image towers of text models: has_text, and the full build's bits

// n images of model dir (its io.bin, or text.bin for the open_clip folders) through this build and the full one.
static void image_tower(const char *name, int text_bin) {
    char dir[512], p[600];
    fmt(dir, sizeof(dir), "%s/%s", g_data, name);
    float *images = NULL;
    int n = 0;
    reference r;
    text_ref t;
    memset(&r, 0, sizeof(r));
    memset(&t, 0, sizeof(t));
    if (text_bin) {
        fmt(p, sizeof(p), "%s/text.bin", dir);
        if (read_text_ref(p, &t)) { images = t.images; n = t.n; }
    } else {
        fmt(p, sizeof(p), "%s/io.bin", dir);
        if (read_reference(p, &r)) { images = r.input; n = r.n; }
    }
    vit_model *m = NULL;
    vit_options o;
    memset(&o, 0, sizeof(o));
    o.device = VIT_DEVICE_CPU;
    vit_status st = images ? vit_load(dir, &o, &m) : VIT_ERROR_IO;
    if (!check(st == VIT_OK, name, "load: %s%s%s", vit_status_string(st), st ? ": " : "", st == VIT_OK ? "" : images ? vit_last_error(NULL) : "no reference")) {
        free(r.input); free(r.logits); free(r.features); free_text_ref(&t);
        return;
    }
    const vit_config *c = vit_model_config(m);
    check(c->has_text == !NO_TEXT && (NO_TEXT ? c->match == VIT_MATCH_NONE && c->embed_dim == 0 : c->match != VIT_MATCH_NONE), name,
          "has_text %d (want %d), match %d, embed_dim %d", c->has_text, !NO_TEXT, (int)c->match, c->embed_dim);
    int k = c->num_classes, d = c->dim;
    size_t nk = (size_t)n * (k > 0 ? k : 1), nd = (size_t)n * d;
    float *lo = (float *)malloc(nk * 4), *fe = (float *)malloc(nd * 4), *flo = (float *)malloc(nk * 4), *ffe = (float *)malloc(nd * 4);
    st = vit_embed(m, images, n, fe);
    if (st == VIT_OK && k > 0) st = vit_forward(m, images, n, lo);
    int full = full_outputs(dir, images, n, flo, k, ffe, d);
    check(st == VIT_OK && full && !memcmp(fe, ffe, nd * 4) && (k == 0 || !memcmp(lo, flo, nk * 4)), name,
          "logits (%d x %d) and features (%d x %d) are the full build's, bit for bit (%s)", n, k, n, d, st == VIT_OK ? "ran" : vit_last_error(m));
    if (!text_bin && st == VIT_OK) {
        double ef = rel_err(fe, r.features, nd), el = k > 0 ? rel_err(lo, r.logits, nk) : 0;
        check(ef <= 1e-4 && el <= 1e-4, name, "against PyTorch: features %.2e, logits %.2e (test_model: 1e-4)", ef, el);
    }
    // the text calls: stubs naming VIT_NO_TEXT, or the text tower at work
    float emb[64 * 64];
    if (NO_TEXT) {
        int ids[512] = {0};
        check_left_out("vit_encode_ids is left out", vit_encode_ids(m, ids, 1, emb), vit_last_error(m), "VIT_NO_TEXT");
        check_left_out("vit_image_embeds is left out", vit_image_embeds(m, images, 1, emb), vit_last_error(m), "VIT_NO_TEXT");
        check_left_out("vit_zero_shot is left out", vit_zero_shot(m, emb, 1, emb, 1, emb, NULL), vit_last_error(m), "VIT_NO_TEXT");
#ifndef VIT_NO_TOKENIZER
        const char *texts[1] = {"a photo"};
        check_left_out("vit_encode_texts is left out", vit_encode_texts(m, NULL, texts, 1, NULL, emb), vit_last_error(m), "VIT_NO_TEXT");
#endif
    } else if (text_bin && t.k * t.E <= 64 * 64 && t.E == c->embed_dim) {
        st = vit_encode_ids(m, t.ids, t.k, emb);
        double e = st == VIT_OK ? rel_err(emb, t.text_embeds, (size_t)t.k * t.E) : 1;
        check(st == VIT_OK && e <= 1e-4, name, "the text tower kept: vit_encode_ids within %.2e of PyTorch", e);
    }
    free(lo); free(fe); free(flo); free(ffe);
    free(r.input); free(r.logits); free(r.features); free_text_ref(&t);
    vit_free(m);
}

// A text model's file with one tensor name changed (same length): what a load answers.
static vit_status renamed(const char *name, const char *from, const char *to, char *err, size_t cap) {
    char p[600];
    size_t size = 0, csize = 0;
    fmt(p, sizeof(p), "%s/%s/model.safetensors", g_data, name);
    unsigned char *data = read_all(p, &size);
    fmt(p, sizeof(p), "%s/%s/config.json", g_data, name);
    unsigned char *cfg = read_all(p, &csize);
    vit_status st = VIT_ERROR_IO;
    char quoted[200];
    fmt(quoted, sizeof(quoted), "\"%s\"", from);
    unsigned char *at = NULL;
    for (size_t i = 8; data && cfg && i + strlen(quoted) < size && i < 8 + 100000 && !at; i++)
        if (!memcmp(data + i, quoted, strlen(quoted))) at = data + i;
    if (at && strlen(to) == strlen(from)) {
        memcpy(at + 1, to, strlen(to));
        vit_options o;
        memset(&o, 0, sizeof(o));
        o.config_json = (const char *)cfg;
        vit_model *m = NULL;
        st = vit_load_memory(data, size, &o, &m);
        vit_free(m);
    }
    fmt(err, cap, "%s", vit_last_error(NULL));
    free(data);
    free(cfg);
    return st;
}

static void text_tensors(void) {
    char err[600];
    // a block tensor of the text tower that vit.h does not know: refused, as in the full build
    vit_status st = renamed("ref/hf_clip_full", "text_model.encoder.layers.0.mlp.fc1.weight", "text_model.encoder.layers.0.mlp.fcX.weight", err, sizeof(err));
    // (VIT_NO_TEXT: the renamed tensor is refused as unused; with the text tower: fc1.weight is missing)
    check(st != VIT_OK && st != VIT_ERROR_IO && strstr(err, NO_TEXT ? "fcX" : "mlp.fc1.weight"), "an unknown tensor among the text tower's is refused", "%s: %s", vit_status_string(st), err);
    // no token embedding: no text tower, so its tensors are no tower's: refused
    st = renamed("ref/hf_siglip_full", "text_model.embeddings.token_embedding.weight", "text_model.embeddings.token_embeddinX.weight", err, sizeof(err));
    check(st == VIT_ERROR_UNSUPPORTED && strstr(err, "is not used"), "text tensors without a text tower are refused", "%s: %s", vit_status_string(st), err);
}

// ---- tokenizers

static void tokenizers(void) {
    char p[600];
    fmt(p, sizeof(p), "%s/text/clip_tokenizer", g_data);
#if defined(VIT_NO_TEXT) && !defined(VIT_NO_TOKENIZER)
    vit_tokenizer *t = (vit_tokenizer *)1;
    vit_status st = vit_tokenizer_load(p, NULL, &t);
    check(t == NULL, "vit_tokenizer_load is left out: *out NULL", "%p", (void *)t);
    check_left_out("vit_tokenizer_load is left out", st, vit_tokenizer_last_error(NULL), "VIT_NO_TEXT");
    check_left_out("vit_tokenizer_load is left out (vit_last_error(NULL))", st, vit_last_error(NULL), "VIT_NO_TEXT");
    t = (vit_tokenizer *)1;
    st = vit_tokenizer_load_memory("{}", 2, NULL, 0, NULL, &t);
    check_left_out("vit_tokenizer_load_memory is left out", t ? VIT_ERROR_INVALID_ARGUMENT : st, vit_tokenizer_last_error(NULL), "VIT_NO_TEXT");
    int ids[8];
    check_left_out("vit_tokenize is left out", vit_tokenize(NULL, "a", 1, ids, 8, NULL), vit_tokenizer_last_error(NULL), "VIT_NO_TEXT");
    check(vit_tokenizer_get_config(NULL) == NULL, "vit_tokenizer_get_config is left out: NULL", "%s", "");
    vit_tokenizer_free(NULL);
#elif !defined(VIT_NO_TOKENIZER)
    vit_tokenizer *t = NULL;
    vit_status st = vit_tokenizer_load(p, NULL, &t);
    int ids[77], n = 0;
    if (st == VIT_OK) st = vit_tokenize(t, "a photo of a cat", 16, ids, 77, &n);
    check(st == VIT_OK && n > 2 && vit_tokenizer_get_config(t)->type == VIT_TOKENIZER_CLIP_BPE, "the tokenizers kept: CLIP's tokenizes", "%s",
          st == VIT_OK ? "" : vit_tokenizer_last_error(t));
    vit_tokenizer_free(t);
#else
    (void)p;
    check(1, "VIT_NO_TOKENIZER: no tokenizer calls declared", "%s", "");
#endif
}

// ---- image files

static void image_files(void) {
    char p[600];
    fmt(p, sizeof(p), "%s/preprocess/pad40/model.safetensors", g_data);
    vit_model *m = NULL;
    vit_status st = vit_load(p, NULL, &m);
    if (!check(st == VIT_OK, "pad40 loads", "%s", st ? vit_last_error(NULL) : "")) return;
    static float out[3 * 40 * 40], want[3 * 40 * 40];
    char png[600], bmp[600];
    fmt(png, sizeof(png), "%s/images/gray16.png", g_data);
    fmt(bmp, sizeof(bmp), "%s/images/pal8.bmp", g_data);
    vit_image img;
    if (NO_DECODE) {
        check_left_out("PNG: vit_preprocess_file_with is left out", vit_preprocess_file_with(m, png, NULL, out), vit_last_error(m), "VIT_NO_IMAGE_DECODE");
        check_left_out("BMP: vit_preprocess_file_with is left out", vit_preprocess_file_with(m, bmp, NULL, out), vit_last_error(m), "VIT_NO_IMAGE_DECODE");
        check_left_out("vit_decode_file is left out", vit_decode_file(m, png, NULL, &img), vit_last_error(m), "VIT_NO_IMAGE_DECODE");
        check(img.pixels == NULL, "vit_decode_file is left out: the image zeroed", "%s", "");
        check_left_out("vit_preprocess_memory_with is left out", vit_preprocess_memory_with(m, "P5 1 1 255 x", 12, NULL, out), vit_last_error(m), "VIT_NO_IMAGE_DECODE");
#ifndef VIT_NO_STB_IMAGE
        int cls[1];
        check_left_out("vit_preprocess_file is left out", vit_preprocess_file(m, png, out), vit_last_error(m), "VIT_NO_IMAGE_DECODE");
        check_left_out("vit_preprocess_memory is left out", vit_preprocess_memory(m, "GRAY", 4, out), vit_last_error(m), "VIT_NO_IMAGE_DECODE");
        check_left_out("vit_classify_file is left out", vit_classify_file(m, png, 1, cls, NULL), vit_last_error(m), "VIT_NO_IMAGE_DECODE");
        check_left_out("vit_embed_file is left out", vit_embed_file(m, png, out), vit_last_error(m), "VIT_NO_IMAGE_DECODE");
#endif
    } else if (NO_STB) {
        st = vit_preprocess_file_with(m, png, NULL, out);
        check(st == VIT_ERROR_IMAGE_DECODE && strstr(vit_last_error(m), "VIT_NO_STB_IMAGE"), "VIT_NO_STB_IMAGE: a PNG refused by name", "%s", vit_last_error(m));
        st = vit_preprocess_file_with(m, bmp, NULL, out);
        check(st == VIT_OK, "VIT_NO_STB_IMAGE: vit.h's own BMP decoder kept", "%s", st ? vit_last_error(m) : "");
    } else {
        st = vit_preprocess_file_with(m, png, NULL, out);
        check(st == VIT_OK, "the decoders kept: a PNG decodes", "%s", st ? vit_last_error(m) : "");
#ifndef VIT_NO_STB_IMAGE
        int cls[1];
        st = vit_classify_file(m, png, 1, cls, NULL);
        check(st == VIT_OK || st == VIT_ERROR_INVALID_ARGUMENT, "the decoders kept: vit_classify_file runs", "%s", st ? vit_last_error(m) : "");
#endif
    }
    // the hook and 8-bit pixels, in every build
    vit_image_decoder d;
    memset(&d, 0, sizeof(d));
    d.decode = gray_decode;
    static const unsigned char px[4] = {0, 85, 170, 255};
    vit_status a = vit_preprocess_memory_with(m, "GRAY", 4, &d, out), b = vit_preprocess_rgb8(m, px, 2, 2, 0, 1, want);
    check(a == VIT_OK && b == VIT_OK && !memcmp(out, want, sizeof(out)), "a decoder hook decodes", "%d %d %s", a, b, a ? vit_last_error(m) : "");
    a = vit_decode_memory(m, "GRAY", 4, &d, &img);
    check(a == VIT_OK && img.width == 2 && img.height == 2 && img.channels == 1 && !memcmp(img.pixels, px, 4), "vit_decode_memory through the hook", "%s",
          a ? vit_last_error(m) : "");
    vit_image_free(m, &img);
    float feat[64];
    const vit_config *c = vit_model_config(m);
    st = c->dim <= 64 ? vit_embed_rgb8(m, px, 1, 2, 2, 0, 1, feat) : VIT_ERROR_LIMIT;
    check(st == VIT_OK, "8-bit frames run (vit_embed_rgb8)", "%s", st ? vit_last_error(m) : "");
    vit_free(m);
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: %s tests/data\n", argv[0]); return 2; }
    g_data = argv[1];
    printf("switches:%s%s%s%s\n", NO_TEXT ? " VIT_NO_TEXT" : "", NO_DECODE ? " VIT_NO_IMAGE_DECODE" : "",
#ifdef VIT_NO_TOKENIZER
           " VIT_NO_TOKENIZER",
#else
           "",
#endif
#ifdef VIT_NO_STB_IMAGE
           " VIT_NO_STB_IMAGE"
#else
           ""
#endif
    );
    image_tower("ref/hf_clip_full", 0);
    image_tower("ref/hf_siglip_full", 0);
    image_tower("text/openclip_clip", 1);
    image_tower("text/openclip_siglip", 1);
    text_tensors();
    tokenizers();
    image_files();
    return check_summary();
}
