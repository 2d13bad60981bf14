// vit-classify: classify images and folders of images with a ViT: the top-K
// classes of each image, or, for a model whose head is an image projection
// (CLIP) or that has no head (DINOv2, SigLIP's vision tower), its embedding.
//
//   vit-classify [options] MODEL.safetensors PATH...
//
//   --top K            classes per image (default 5; with --labels all of them); a usage error
//                      for an embedding model without --labels
//   --labels "a door,a person,a ball", --labels-file FILE (one label a line)
//                      zero-shot classification with a full CLIPModel / SiglipModel folder
//                      (its text tower and its tokenizer's files): each image's probability
//                      per label, as the model was trained (CLIP: a softmax over the labels;
//                      SigLIP: each label's sigmoid), most probable first. The labels' text
//                      embeddings are computed once. --template "a photo of a {}." puts
//                      each label into a prompt first (Python's str.format).
//   --json             one JSON object per input file per line (below)
//   --embed OUT        also write every image's vit_embed features to OUT (safetensors);
//                      for an embedding model, instead of printing them (unless --json)
//   --features OUT     write the tokens of blocks to OUT (safetensors, below); with
//     --layers L,...   the blocks, Python-style (0 the first, -1 the last; default -1),
//     --features-norm  the model's final norm applied to them, --no-prefix only the
//                      patch tokens. For an embedding model, instead of printing (unless --json)
//   --batch N          images per forward call (default 32 on a GPU, 8 on the CPU)
//   --threads N        CPU threads: decoding + preprocessing, and the CPU forward pass
//                      (default: the online cores)
//   --device auto|cpu|cuda, --dtype fp32|bf16|fp16|int8|fp8 (int8: the CPU's; fp8: e4m3 GEMMs on Hopper GPUs, else the CPU's e4m3 reference; fp16 on a GPU: built with -DVIT_CUDA_F16), --size H[xW] (multiples of the patch)
//   --mean M[,M,M] --std S[,S,S] --interpolation bicubic|bilinear|nearest --crop-pct F
//   --resize timm|shortest_edge=N|square[=N]
//                      state the preprocessing (vit_options) for a model whose files do not
//                      (a Hugging Face folder without preprocessor_config.json, no config.json):
//                      without --std such a model is refused
//   --residual fp32|bf16  the residual stream between the blocks (default fp32, with --dtype fp8 bf16;
//                      bf16 as PyTorch's bf16 models keep it: faster at large GPU batches)
//   --devices all|cpu|I,J,...  one model per GPU, batches shared among them
//   --quiet            no model line, progress or summary on stderr (errors still)
//   --decode-only      decode and preprocess only (no forward pass, nothing on
//                      stdout): the CPU bound of the pipeline, in img/s on stderr
//   --frames, --no-frames  where the eval transform runs: --frames decodes on the
//                      CPU threads and hands each batch's same-size images to
//                      vit_forward_rgb8 (on a GPU model: the resize on the GPU;
//                      the default there); --no-frames preprocesses on the CPU
//                      threads (the default on the CPU). The results are the same.
//
// PATHs: a file is always tried, whatever its name. A directory is walked
// recursively for files named as an image vit.h decodes (.png .jpg .jpeg .jpe
// .jfif .gif .bmp .dib .tga .pnm .pbm .pgm .ppm, any case); hidden entries
// (names starting with '.', e.g. macOS's ._x.jpg) are skipped and symbolic
// links to directories are not followed (links to files are). Each directory's
// files are sorted by path (strcmp: bytewise, the same on every machine); the
// PATHs themselves keep their command-line order. Output follows that order
// for any --threads, --batch and --devices.
//
// Pipeline: --threads threads decode and preprocess files into batch buffers
// while the model runs the batch before (one host thread per model; with
// --devices, one model per GPU takes the next ready batch). vit.h allows one
// thread per model, so each decode thread preprocesses with a handle of its
// own from vit_clone_preprocessor (the config, no weights).
//
// --json lines: {"file": F, "top": [{"index": i, "label": L, "prob": p}, ...]}
// for a classifier (and with --labels: i the label's place in the list), {"file": F, "embedding": [v, ...]} for a projection head
// or a model without a head (vit_forward's output, else vit_embed's), and
// {"file": F, "error": E} for a file that failed (E is also on stderr).
// Strings are escaped as JSON requires; bytes that are not UTF-8 (file names
// can hold any byte) become \u00XX, their Latin-1 reading, so each line is
// valid UTF-8 JSON. Numbers: prob %.6g, embedding %.9g (exact float round
// trip), null for NaN or infinity.
//
// --embed OUT.safetensors: one tensor "embeddings", F32, shape [n, dim]: the
// vit_embed features (pre-logits, as vit_embed documents) of the n files that
// succeeded, in output order; the header's "__metadata__" holds "files": a
// JSON array of their names, as one string (safetensors metadata values are
// strings; escaped as --json escapes). For a classifier or a projection head
// this is a second pass over the network (vit.h has no call that returns
// both). Written to OUT.part as the run goes, then to OUT at the end, and
// "wrote N embeddings (D floats each) to OUT" on stderr.
//
// --features OUT.safetensors: one tensor per block asked for, "block.<k>" (k the
// block's non-negative index), F32, shape [n, T, C]: vit_features' tokens of the
// n files that succeeded, in output order, class / distillation / register tokens
// first (unless --no-prefix), then the patches row-major; "__metadata__" holds
// "files" as --embed does and "layers" (the k, in the order asked). Per block
// OUT.part.<i> as the run goes, then OUT at the end, and "wrote N images'
// features ..." on stderr. A run over the network of its own: up to the deepest
// block asked for.
//
// An embedding model (no classifier head, or an image projection): the summary
// says "embedded", --top is refused (exit 2), and with --embed nothing is printed
// per image unless --json. The model line names the model as its config.json
// does (vit_config.architecture: HF architectures[0], timm architecture).
//
// Options may also follow the model or the paths; after "--" every argument
// is a path, even one that starts with "--". Results go to stdout; the model
// line, progress (only when stderr is a terminal: count, img/s, ETA), the
// summary and the errors go to stderr. A file that cannot be read or decoded
// is reported (with vit.h's reason) and skipped. The model may be a
// .safetensors file or a folder (its model.safetensors, or a sharded
// model.safetensors.index.json, with the JSON files beside it). Exit status:
// 0 when every image was classified, 1 when the model, a directory (one with
// no images too) or any image failed, 2 on bad usage. The summary's img/s
// counts only the images that succeeded, and is left out when none did.
#include "platform.h" // threads, directories, time, terminals: POSIX and Windows (first: its macros)
#define VIT_IMPLEMENTATION
#include "vit.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__CUDACC__) && !defined(VIT_NO_CUDA)
#define CLI_CUDA 1
#else
#define CLI_CUDA 0
#endif
#define CLI_MAX_DEVICES 64

static double seconds(void) { return plat_seconds(); }

static void *xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) { fprintf(stderr, "vit-classify: out of memory (%zu bytes)\n", n); exit(1); }
    return p;
}

// ---- growable byte buffer and list of strings

typedef struct buf { char *p; size_t n, cap; } buf;

static void buf_add(buf *b, const void *s, size_t n) {
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + n + 1) cap *= 2;
        char *p = (char *)realloc(b->p, cap);
        if (!p) { fprintf(stderr, "vit-classify: out of memory\n"); exit(1); }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}
static void buf_str(buf *b, const char *s) { buf_add(b, s, strlen(s)); }
static void buf_fmt(buf *b, const char *fmt, double v) {
    char t[64];
    snprintf(t, sizeof(t), fmt, v);
    buf_str(b, t);
}

typedef struct strlist { char **v; size_t n, cap; } strlist;

static void list_add(strlist *l, const char *s) {
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        char **v = (char **)realloc(l->v, l->cap * sizeof(char *));
        if (!v) { fprintf(stderr, "vit-classify: out of memory\n"); exit(1); }
        l->v = v;
    }
    size_t n = strlen(s) + 1;
    l->v[l->n] = (char *)xmalloc(n);
    memcpy(l->v[l->n++], s, n);
}

// ---- JSON strings

// Length of the well-formed UTF-8 sequence at s (1-4), 0 if the byte at s does
// not start one (overlong forms, surrogates and code points past U+10FFFF are
// not well formed).
static int utf8_len(const unsigned char *s) {
    unsigned c = s[0], cp;
    int n;
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF) n = 2;
    else if (c >= 0xE0 && c <= 0xEF) n = 3;
    else if (c >= 0xF0 && c <= 0xF4) n = 4;
    else return 0;
    cp = c & (0x3Fu >> (n - 1));
    for (int k = 1; k < n; k++) { // stops at the terminating NUL: not a continuation byte
        if ((s[k] & 0xC0) != 0x80) return 0;
        cp = cp << 6 | (s[k] & 0x3Fu);
    }
    if (n == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) return 0;
    if (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) return 0;
    return n;
}

// Appends s as a JSON string: quotes, backslashes and control characters
// escaped, bytes that are not well-formed UTF-8 as \u00XX.
static void json_str(buf *b, const char *s) {
    const unsigned char *p = (const unsigned char *)s;
    buf_add(b, "\"", 1);
    while (*p) {
        int n = utf8_len(p);
        char esc[8];
        if (n == 1 && *p >= 0x20 && *p != '"' && *p != '\\') { buf_add(b, p, 1); p++; continue; }
        if (n > 1) { buf_add(b, p, (size_t)n); p += n; continue; }
        switch (*p) {
        case '"': buf_str(b, "\\\""); break;
        case '\\': buf_str(b, "\\\\"); break;
        case '\n': buf_str(b, "\\n"); break;
        case '\r': buf_str(b, "\\r"); break;
        case '\t': buf_str(b, "\\t"); break;
        case '\b': buf_str(b, "\\b"); break;
        case '\f': buf_str(b, "\\f"); break;
        default: snprintf(esc, sizeof(esc), "\\u%04x", *p); buf_str(b, esc); break;
        }
        p++;
    }
    buf_add(b, "\"", 1);
}

static void json_num(buf *b, const char *fmt, float v) {
    if (isfinite(v)) buf_fmt(b, fmt, (double)v);
    else buf_str(b, "null");
}

// ---- the file list

static int is_image_name(const char *name) {
    static const char *const ext[] = {"png", "jpg", "jpeg", "jpe", "jfif", "gif", "bmp", "dib", "tga", "pnm", "pbm", "pgm", "ppm"};
    const char *dot = strrchr(name, '.');
    if (!dot || strlen(dot + 1) > 5) return 0;
    char low[8];
    size_t i = 0;
    for (const char *p = dot + 1; *p; p++) low[i++] = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
    low[i] = 0;
    for (size_t k = 0; k < sizeof(ext) / sizeof(ext[0]); k++)
        if (!strcmp(low, ext[k])) return 1;
    return 0;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

typedef struct walk_stats { size_t skipped, links; int errors; } walk_stats;

// Adds the image files under dir to l (unsorted), recursively.
static void walk(const char *dir, strlist *l, walk_stats *ws) {
    plat_dir d;
    if (plat_dir_open(&d, dir) != 0) {
        fprintf(stderr, "vit-classify: i/o error: cannot open directory '%s': %s\n", dir, strerror(errno));
        ws->errors++;
        return;
    }
    size_t dl = strlen(dir);
    int slash = dl > 0 && (dir[dl - 1] == '/' || (PLAT_WINDOWS && dir[dl - 1] == '\\'));
    buf path = {NULL, 0, 0};
    const char *name;
    while ((name = plat_dir_next(&d)) != NULL) {
        if (name[0] == '.') continue; // hidden
        path.n = 0;
        buf_str(&path, dir);
        if (!slash) buf_str(&path, "/");
        buf_str(&path, name);
        int kind = plat_path_kind(path.p);
        if (kind == PLAT_MISSING) {
            fprintf(stderr, "vit-classify: i/o error: cannot stat '%s': %s\n", path.p, strerror(errno));
            ws->errors++;
            continue;
        }
        if (kind == PLAT_DIR) { walk(path.p, l, ws); continue; }
        if (kind == PLAT_DIR_LINK) { ws->links++; continue; }
        if (is_image_name(name)) list_add(l, path.p); // a broken link is tried, and reported
        else ws->skipped++;
    }
    if (errno) {
        fprintf(stderr, "vit-classify: i/o error: reading directory '%s': %s\n", dir, strerror(errno));
        ws->errors++;
    }
    plat_dir_close(&d);
    free(path.p);
}

// ---- options

#define CLI_MAX_LAYERS 1024

typedef struct cli {
    vit_options opts;
    int top, top_given, batch, threads, json, quiet, decode_only;
    int frames; // 0 by the device, 1 --frames, -1 --no-frames
    const char *embed_path, *devices;
    const char *features_path;     // --features
    const char *labels, *labels_file, *prompt; // --labels, --labels-file, --template
    int layers[CLI_MAX_LAYERS], nlayers, features_norm, no_prefix;
    int *pos, npos;
} cli;

static int usage(const char *why) {
    fprintf(stderr, "vit-classify: %s\n"
                    "usage: vit-classify [--top K] [--json] [--embed OUT.safetensors] [--batch N] [--threads N]\n"
                    "                    [--features OUT.safetensors [--layers L,...] [--features-norm] [--no-prefix]]\n"
                    "                    [--device auto|cpu|cuda] [--devices all|cpu|I,J,...] [--dtype fp32|bf16|fp16|int8|fp8]\n"
                    "                    [--residual fp32|bf16] [--size H[xW]] [--quiet] [--decode-only] [--frames|--no-frames]\n"
                    "                    [--mean M[,M,M]] [--std S[,S,S]] [--interpolation bicubic|bilinear|nearest] [--crop-pct F]\n"
                    "                    [--resize timm|shortest_edge=N|square[=N]]\n"
                    "                    [--labels L1,L2,... | --labels-file FILE] [--template 'a photo of a {}.']\n"
                    "                    MODEL.safetensors PATH...\n"
                    "A PATH may be a directory: its image files, recursively, sorted. A model without a\n"
                    "classifier head (or with an image projection) gives embeddings: --top is refused, and with\n"
                    "--embed nothing is printed per image unless --json. --labels: zero-shot classification\n"
                    "with a full CLIP / SigLIP folder (text tower and tokenizer). Exit status: 0 all classified (or\n"
                    "embedded), 1 the model or any image failed, 2 bad usage.\n", why);
    return 2;
}

// Parses a positive int option value; 0 on error.
static int positive(const char *s) {
    char *end;
    long v = strtol(s, &end, 10);
    return (*s && !*end && v > 0 && v <= 1000000) ? (int)v : 0;
}

// Reads the options (anywhere before a "--") into c, and the other arguments'
// indices into c->pos. Returns 0, 2 after printing the usage error, or -1 for --help.
static int parse_args(int argc, char **argv, cli *c) {
    static const char *const with_value[] = {"--top", "--threads", "--device", "--dtype", "--size", "--batch", "--embed", "--devices", "--residual",
                                             "--mean", "--std", "--interpolation", "--crop-pct", "--features", "--layers", "--resize",
                                             "--labels", "--labels-file", "--template"};
    char why[512];
    int only_pos = 0;
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (only_pos || opt[0] != '-' || opt[1] != '-') { c->pos[c->npos++] = i; continue; }
        if (!strcmp(opt, "--")) { only_pos = 1; continue; }
        if (!strcmp(opt, "--help")) { usage("classify images with a ViT"); return -1; }
        if (!strcmp(opt, "--json")) { c->json = 1; continue; }
        if (!strcmp(opt, "--quiet")) { c->quiet = 1; continue; }
        if (!strcmp(opt, "--decode-only")) { c->decode_only = 1; continue; }
        if (!strcmp(opt, "--frames")) { c->frames = 1; continue; }
        if (!strcmp(opt, "--no-frames")) { c->frames = -1; continue; }
        if (!strcmp(opt, "--features-norm")) { c->features_norm = 1; continue; }
        if (!strcmp(opt, "--no-prefix")) { c->no_prefix = 1; continue; }
        int known = 0;
        for (size_t k = 0; k < sizeof(with_value) / sizeof(with_value[0]); k++) known |= !strcmp(opt, with_value[k]);
        if (!known) { snprintf(why, sizeof(why), "unknown option '%s'", opt); return usage(why); }
        if (!val) { snprintf(why, sizeof(why), "option %s needs a value", opt); return usage(why); }
        i++;
        if (!strcmp(opt, "--top") || !strcmp(opt, "--batch") || !strcmp(opt, "--threads")) {
            int v = positive(val);
            if (!v) { snprintf(why, sizeof(why), "%s wants a positive number, not '%s'", opt, val); return usage(why); }
            if (!strcmp(opt, "--top")) { c->top = v; c->top_given = 1; }
            else if (!strcmp(opt, "--batch")) c->batch = v;
            else c->threads = c->opts.num_threads = v;
        } else if (!strcmp(opt, "--size")) {
            int h = 0, w = 0, n = 0;
            if (sscanf(val, "%dx%d%n", &h, &w, &n) == 2 && !val[n]) {
            } else if (sscanf(val, "%d%n", &h, &n) == 1 && !val[n]) w = h;
            if (h < 1 || w < 1 || h > 32768 || w > 32768) { snprintf(why, sizeof(why), "--size wants H or HxW, not '%s'", val); return usage(why); }
            c->opts.image_height = h;
            c->opts.image_width = w;
        } else if (!strcmp(opt, "--mean") || !strcmp(opt, "--std")) { // vit_options.mean / std: 1 or 3 numbers
            float v[3];
            int n = 0, k = sscanf(val, "%f,%f,%f%n", &v[0], &v[1], &v[2], &n);
            if (k == 3 && !val[n]) {
            } else if (sscanf(val, "%f%n", &v[0], &n) == 1 && !val[n]) v[1] = v[2] = v[0];
            else { snprintf(why, sizeof(why), "%s wants one number or three (R,G,B), not '%s'", opt, val); return usage(why); }
            float *dst = !strcmp(opt, "--mean") ? c->opts.mean : c->opts.std;
            for (int ch = 0; ch < 3; ch++) dst[ch] = v[ch];
        } else if (!strcmp(opt, "--interpolation")) { // vit_load checks the name
            c->opts.interpolation = val;
        } else if (!strcmp(opt, "--resize")) { // vit_options.resize and resize_size: MODE or MODE=N; vit_load checks the mode
            static char mode[32];
            const char *eq = strchr(val, '=');
            size_t len = eq ? (size_t)(eq - val) : strlen(val);
            int size = eq ? positive(eq + 1) : 0;
            if (len == 0 || len >= sizeof(mode) || (eq && !size)) {
                snprintf(why, sizeof(why), "--resize wants timm, shortest_edge=N or square[=N], not '%s'", val);
                return usage(why);
            }
            memcpy(mode, val, len);
            mode[len] = 0;
            c->opts.resize = mode;
            c->opts.resize_size = size;
        } else if (!strcmp(opt, "--crop-pct")) {
            char *end;
            c->opts.crop_pct = strtof(val, &end);
            if (!*val || *end) { snprintf(why, sizeof(why), "--crop-pct wants a number in (0, 4], not '%s'", val); return usage(why); }
        } else if (!strcmp(opt, "--device")) {
            if (!strcmp(val, "auto")) c->opts.device = VIT_DEVICE_DEFAULT;
            else if (!strcmp(val, "cpu")) c->opts.device = VIT_DEVICE_CPU;
            else if (!strcmp(val, "cuda")) c->opts.device = VIT_DEVICE_CUDA;
            else { snprintf(why, sizeof(why), "--device wants auto, cpu or cuda, not '%s'", val); return usage(why); }
        } else if (!strcmp(opt, "--dtype")) {
            if (!strcmp(val, "fp32")) c->opts.dtype = VIT_DTYPE_F32;
            else if (!strcmp(val, "bf16")) c->opts.dtype = VIT_DTYPE_BF16;
            else if (!strcmp(val, "fp16")) c->opts.dtype = VIT_DTYPE_F16;
            else if (!strcmp(val, "int8")) c->opts.dtype = VIT_DTYPE_INT8; // runs on the CPU
            else if (!strcmp(val, "fp8")) c->opts.dtype = VIT_DTYPE_FP8; // e4m3 GEMMs on sm_90a, else the CPU's e4m3 reference
            else { snprintf(why, sizeof(why), "--dtype wants fp32, bf16, fp16, int8 or fp8, not '%s'", val); return usage(why); }
        } else if (!strcmp(opt, "--residual")) { // the residual stream between the blocks (vit_options.residual_dtype)
            if (!strcmp(val, "fp32")) c->opts.residual_dtype = VIT_DTYPE_F32;
            else if (!strcmp(val, "bf16")) c->opts.residual_dtype = VIT_DTYPE_BF16;
            else { snprintf(why, sizeof(why), "--residual wants fp32 or bf16, not '%s'", val); return usage(why); }
        } else if (!strcmp(opt, "--features")) {
            if (!*val) return usage("--features wants a file name");
            c->features_path = val;
        } else if (!strcmp(opt, "--layers")) { // integers, comma-separated; the model checks the range
            const char *q = val;
            c->nlayers = 0;
            for (;;) {
                char *end;
                long v = strtol(q, &end, 10);
                if (end == q || v < -1000000 || v > 1000000 || c->nlayers == CLI_MAX_LAYERS || (*end && *end != ',')) {
                    snprintf(why, sizeof(why), "--layers wants block numbers like 5,11 or -2, not '%s'", val);
                    return usage(why);
                }
                c->layers[c->nlayers++] = (int)v;
                if (!*end) break;
                q = end + 1;
            }
        } else if (!strcmp(opt, "--labels")) {
            c->labels = val;
        } else if (!strcmp(opt, "--labels-file")) {
            c->labels_file = val;
        } else if (!strcmp(opt, "--template")) {
            c->prompt = val;
        } else if (!strcmp(opt, "--embed")) {
            if (!*val) return usage("--embed wants a file name");
            c->embed_path = val;
        } else { // --devices: syntax here, availability when the models load
            int okay = !strcmp(val, "all") || !strcmp(val, "cpu");
            if (!okay) {
                const char *p = val;
                okay = 1;
                while (okay) {
                    if (*p < '0' || *p > '9') { okay = 0; break; }
                    while (*p >= '0' && *p <= '9') p++;
                    if (!*p) break;
                    if (*p++ != ',') okay = 0;
                }
            }
            if (!okay) { snprintf(why, sizeof(why), "--devices wants all, cpu or a list of GPU numbers like 0,1, not '%s'", val); return usage(why); }
            c->devices = val;
        }
    }
    if (c->npos < 2) return usage(c->npos < 1 ? "no model given" : "no image given");
    if (c->decode_only && c->embed_path) return usage("--decode-only computes no features for --embed");
    if (c->decode_only && c->features_path) return usage("--decode-only computes no features for --features");
    if (!c->features_path && (c->nlayers || c->features_norm || c->no_prefix)) return usage("--layers, --features-norm and --no-prefix go with --features");
    if (c->devices && strcmp(c->devices, "cpu") && c->opts.device == VIT_DEVICE_CPU) return usage("--devices names GPUs, --device cpu the CPU");
    if (c->labels && c->labels_file) return usage("--labels or --labels-file, not both");
    if (c->prompt && !c->labels && !c->labels_file) return usage("--template goes with --labels or --labels-file");
    if (c->decode_only && (c->labels || c->labels_file)) return usage("--decode-only computes no embeddings for --labels");
    return 0;
}

// --labels (comma-separated) or --labels-file (one a line; UTF-8, a final
// newline optional) into out, each trimmed of spaces, tabs and a file's \r.
// Returns 0, 2 after the usage message (an empty label), or 1 after an I/O error.
static int read_labels(const cli *c, strlist *out) {
    buf text = {NULL, 0, 0};
    if (c->labels) buf_str(&text, c->labels);
    else {
        FILE *f = plat_fopen(c->labels_file, "rb");
        if (!f) { fprintf(stderr, "vit-classify: cannot read '%s': %s\n", c->labels_file, strerror(errno)); return 1; }
        char chunk[4096];
        size_t got;
        while ((got = fread(chunk, 1, sizeof(chunk), f)) > 0) buf_add(&text, chunk, got);
        fclose(f);
        if (!text.p) buf_str(&text, "");
    }
    char sep = c->labels ? ',' : '\n', *p = text.p, *end = text.p + text.n;
    int rc = 0;
    while (p <= end && !rc) {
        char *q = (char *)memchr(p, sep, (size_t)(end - p));
        if (!q) q = end;
        if (c->labels_file && q == end && p == end) break; // after the last newline
        char *a = p, *b = q;
        while (a < b && (*a == ' ' || *a == '\t')) a++;
        while (b > a && (b[-1] == ' ' || b[-1] == '\t' || b[-1] == '\r')) b--;
        if (a == b) {
            char why[160];
            snprintf(why, sizeof(why), "%s: label %zu is empty", c->labels ? "--labels" : "--labels-file", out->n + 1);
            rc = usage(why);
        } else {
            *b = 0;
            list_add(out, a);
        }
        p = q + 1;
    }
    if (!rc && !out->n) rc = usage(c->labels ? "--labels: no labels" : "--labels-file: no labels");
    free(text.p);
    return rc;
}

// The devices to load a model on: *n models, CUDA ordinals in dev (or -1 for
// "as --device says"). Returns 0, or 1 after printing why not.
static int pick_devices(const cli *c, int *dev, int *n) {
    *n = 1;
    dev[0] = -1;
    if (!c->devices || !strcmp(c->devices, "cpu")) return 0;
#if CLI_CUDA
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count < 1) {
        fprintf(stderr, "vit-classify: --devices %s: no CUDA device (%s)\n", c->devices, e != cudaSuccess ? cudaGetErrorString(e) : "none found");
        return 1;
    }
    if (!strcmp(c->devices, "all")) {
        *n = count < CLI_MAX_DEVICES ? count : CLI_MAX_DEVICES;
        for (int i = 0; i < *n; i++) dev[i] = i;
        return 0;
    }
    *n = 0;
    for (const char *p = c->devices; *p;) {
        long d = strtol(p, (char **)&p, 10);
        if (*p == ',') p++;
        if (d >= count) { fprintf(stderr, "vit-classify: --devices %s: there is no GPU %ld (%d found)\n", c->devices, d, count); return 1; }
        for (int i = 0; i < *n; i++)
            if (dev[i] == d) { fprintf(stderr, "vit-classify: --devices %s: GPU %ld named twice\n", c->devices, d); return 1; }
        if (*n == CLI_MAX_DEVICES) { fprintf(stderr, "vit-classify: --devices %s: more than %d GPUs\n", c->devices, CLI_MAX_DEVICES); return 1; }
        dev[(*n)++] = (int)d;
    }
    return 0;
#else
    fprintf(stderr, "vit-classify: --devices %s: this vit-classify was compiled without CUDA (use nvcc; here only --devices cpu)\n", c->devices);
    return 1;
#endif
}

// 1 when a CUDA GPU is there for the model (--devices and --device permitting).
static int gpu_present(const cli *c) {
#if CLI_CUDA
    int count = 0;
    if (c->opts.device == VIT_DEVICE_CPU || (c->devices && !strcmp(c->devices, "cpu"))) return 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) { cudaGetLastError(); return 0; }
    return count > 0;
#else
    (void)c;
    return 0;
#endif
}

// ---- the pipeline: decode threads -> batch slots -> model threads -> writer (main thread)

enum { SLOT_FILLING, SLOT_READY, SLOT_RUNNING, SLOT_DONE };
#define CLI_ERR_LEN 600

typedef struct slot {
    long batch;        // the batch in this slot (-1: none)
    int state, filled; // SLOT_*, images preprocessed so far (ok or not)
    float *images;     // (B, C, H, W) inputs (CPU preprocessing)
    vit_image *img;    // (B) decoded 8-bit images (GPU preprocessing: pipe_.frames)
    // The batch's frames of its first decoded image's size, copied by the decode
    // threads to packed + k * pack_bytes (the copy runs on all decode threads,
    // not on the model's thread); in_pack[k]: image k is there (its img freed).
    int pack_w, pack_h, pack_ch;
    int pack_sizing;   // a decode thread is growing packed (without the lock: page-locking takes milliseconds)
    size_t pack_bytes;
    unsigned char *packed, *in_pack;
    size_t packed_cap;
    int packed_pinned; // packed is page-locked (cudaHostAlloc): vit_forward_rgb8 DMAs it in place
    unsigned char *group; // another size's frames, back to back (mixed-size batches)
    size_t group_cap;
    float *gout;       // (B, max(width, dim)) a group's outputs
    float *out;        // (B, width) logits or embeddings
    float *feat;       // (B, dim) vit_embed features for --embed (== out for a headless model)
    float *ftok;       // --features: (fnum, B, fper) the blocks' tokens of the batch's images
    float *gtok;       // --features with frames: (fnum, B, fper) a group's
    vit_status *st;    // (B) each image's preprocessing status
    char *err;         // (B, CLI_ERR_LEN) each failed image's message
    vit_status run_st; // the batch's forward status
    char run_err[CLI_ERR_LEN];
} slot;

typedef struct pipe_ {
    plat_mutex mu;
    plat_cond slot_free, ready, done, phase, sized; // sized: a slot's packed buffer was grown
    slot *slots;
    int nslots, batch;
    long nbatches, next_fw;
    size_t nfiles, next_img, pixels;
    char **files;
    int width, dim, forward, embed_features; // forward: 0 = --decode-only
    int main_out;      // the logits or embeddings are used (not with --features alone on an embedding model)
    const vit_features_spec *fspec; // --features, else NULL
    int fnum;          // its blocks
    size_t fper;       // floats per image and block
    int frames;        // 1: decode threads only decode; the GPU resizes (vit_forward_rgb8 per same-size group)
    int pinned;        // 1: GPUs run the batches: the packed frames go in page-locked memory
    int pin_device;    // the GPU whose context page-locks them (a decode thread's current device would be 0)
    // A forward pass on the CPU takes every core (OpenMP): decoding pauses for it,
    // as oversubscribed OpenMP barriers wait for descheduled threads.
    int cpu_forward, decoding, forward_waiting;
} pipe_;

static size_t batch_count(const pipe_ *p, long b) {
    size_t first = (size_t)b * (size_t)p->batch;
    return p->nfiles - first < (size_t)p->batch ? p->nfiles - first : (size_t)p->batch;
}

typedef struct decoder_arg {
    pipe_ *p;
    vit_model *model; // this thread's own preprocessor (vit_clone_preprocessor)
} decoder_arg;

// A slot's packed frames: page-locked (portable: every GPU's model reads it)
// when GPUs run the batches, so that vit_forward_rgb8 DMAs them where they are
// instead of first copying them into its own page-locked staging; else malloc.
static void packed_free(slot *s) {
#if CLI_CUDA
    if (s->packed_pinned) cudaFreeHost(s->packed);
    else
#endif
        free(s->packed);
    s->packed = NULL;
    s->packed_cap = 0;
    s->packed_pinned = 0;
}

static void packed_grow(slot *s, size_t need, int pinned, int device) {
    if (s->packed_cap >= need) return;
    packed_free(s);
#if CLI_CUDA
    void *p = NULL;
    if (pinned && cudaSetDevice(device) == cudaSuccess && cudaHostAlloc(&p, need, cudaHostAllocPortable) == cudaSuccess) {
        s->packed = (unsigned char *)p;
        s->packed_pinned = 1;
    }
    cudaGetLastError(); // no page-locked memory: pageable, staged by the library
#endif
    (void)pinned; (void)device;
    if (!s->packed) s->packed = (unsigned char *)xmalloc(need);
    s->packed_cap = need;
}

static void copy_rows(unsigned char *dst, const vit_image *g) {
    size_t row = (size_t)g->width * g->channels;
    for (int y = 0; y < g->height; y++) memcpy(dst + (size_t)y * row, g->pixels + (size_t)y * g->stride, row);
}

// Image k of batch b (decoded into s->img[k]) to its place in the slot's packed
// frames when it has their size (the first image decoded sets it).
static void pack_frame(pipe_ *p, slot *s, long b, size_t k, vit_model *m) {
    vit_image *g = &s->img[k];
    size_t bytes = (size_t)g->width * g->height * g->channels;
    plat_mutex_lock(&p->mu);
    while (s->pack_sizing) plat_cond_wait(&p->sized, &p->mu);
    if (!s->pack_bytes) {
        size_t need = batch_count(p, b) * bytes;
        if (s->packed_cap < need) { // the other decode threads go on meanwhile (this slot's wait above)
            s->pack_sizing = 1;
            plat_mutex_unlock(&p->mu);
            packed_grow(s, need, p->pinned, p->pin_device);
            plat_mutex_lock(&p->mu);
            s->pack_sizing = 0;
            plat_cond_broadcast(&p->sized);
        }
        s->pack_w = g->width; s->pack_h = g->height; s->pack_ch = g->channels; s->pack_bytes = bytes;
    }
    int mine = g->width == s->pack_w && g->height == s->pack_h && g->channels == s->pack_ch;
    plat_mutex_unlock(&p->mu);
    if (!mine) return;
    copy_rows(s->packed + k * bytes, g);
    vit_image_free(m, g);
    s->in_pack[k] = 1;
}

static void *decode_thread(void *arg) {
    decoder_arg *a = (decoder_arg *)arg;
    pipe_ *p = a->p;
    plat_mutex_lock(&p->mu);
    while (p->next_img < p->nfiles) {
        size_t i = p->next_img++;
        long b = (long)(i / (size_t)p->batch);
        slot *s = &p->slots[b % p->nslots];
        while (s->batch != b) plat_cond_wait(&p->slot_free, &p->mu);
        while (p->forward_waiting) plat_cond_wait(&p->phase, &p->mu);
        p->decoding++;
        plat_mutex_unlock(&p->mu);
        size_t k = i - (size_t)b * (size_t)p->batch;
        vit_status st;
        if (p->frames) {
            st = vit_decode_file(a->model, p->files[i], NULL, &s->img[k]);
            if (st == VIT_OK) pack_frame(p, s, b, k, a->model);
        } else {
            float *image = s->images + k * p->pixels;
            st = vit_preprocess_file(a->model, p->files[i], image);
            if (st != VIT_OK) memset(image, 0, p->pixels * sizeof(float)); // the batch still runs; a defined input, its output unused
        }
        if (st != VIT_OK) snprintf(s->err + k * CLI_ERR_LEN, CLI_ERR_LEN, "%s: %s", vit_status_string(st), vit_last_error(a->model));
        plat_mutex_lock(&p->mu);
        if (--p->decoding == 0 && p->forward_waiting) plat_cond_broadcast(&p->phase);
        s->st[k] = st;
        if ((size_t)++s->filled == batch_count(p, b)) {
            s->state = SLOT_READY;
            plat_cond_broadcast(&p->ready);
        }
    }
    plat_mutex_unlock(&p->mu);
    return NULL;
}

typedef struct runner_arg { pipe_ *p; vit_model *model; } runner_arg;

// Frames through the GPU eval transform (vit_forward_rgb8 / vit_embed_rgb8):
// cnt frames of w x h x ch back to back; output j to row idx[j] of the batch's.
static vit_status run_group(pipe_ *p, slot *s, int n, vit_model *m, const unsigned char *frames, int cnt, int w, int h, int ch, const int *idx) {
    const vit_config *cfg = vit_model_config(m);
    vit_status st = VIT_OK;
    if (p->fspec) { // --features: the group's tokens to the images' places in the batch's
        size_t per = p->fper;
        st = vit_features_rgb8(m, frames, cnt, w, h, 0, ch, p->fspec, s->gtok, (size_t)p->fnum * cnt * per);
        for (int k = 0; st == VIT_OK && k < p->fnum; k++)
            for (int j = 0; j < cnt; j++)
                if (idx[j] >= 0) memcpy(s->ftok + ((size_t)k * n + (size_t)idx[j]) * per, s->gtok + ((size_t)k * cnt + (size_t)j) * per, per * sizeof(float));
    }
    for (int pass = 0; pass < 2 && st == VIT_OK && p->main_out; pass++) { // logits (a head), then features (no head, or --embed)
        int logits = pass == 0;
        if (logits ? !cfg->num_classes : !(!cfg->num_classes || p->embed_features)) continue;
        st = logits ? vit_forward_rgb8(m, frames, cnt, w, h, 0, ch, s->gout) : vit_embed_rgb8(m, frames, cnt, w, h, 0, ch, s->gout);
        float *dst = logits || !cfg->num_classes ? s->out : s->feat;
        size_t width = logits ? (size_t)cfg->num_classes : (size_t)cfg->dim;
        for (int j = 0; st == VIT_OK && j < cnt; j++)
            if (idx[j] >= 0) memcpy(dst + (size_t)idx[j] * width, s->gout + (size_t)j * width, width * sizeof(float));
    }
    return st;
}

// The batch's frames: the packed ones (the batch's first size) in one call,
// positions up to the last of them (a failed or other-size image's place is
// zeros, run and its output dropped), then each other size's group packed here.
static vit_status run_frames(pipe_ *p, slot *s, int n, vit_model *m) {
    vit_status st = VIT_OK;
    int *idx = (int *)xmalloc((size_t)n * sizeof(int));
    int last = -1;
    for (int k = 0; k < n; k++) if (s->in_pack[k]) last = k;
    if (last >= 0 && p->forward) {
        for (int k = 0; k <= last; k++) {
            idx[k] = s->in_pack[k] ? k : -1;
            if (!s->in_pack[k]) memset(s->packed + (size_t)k * s->pack_bytes, 0, s->pack_bytes);
        }
        st = run_group(p, s, n, m, s->packed, last + 1, s->pack_w, s->pack_h, s->pack_ch, idx);
    }
    for (int k0 = 0; k0 < n && st == VIT_OK && p->forward; k0++) {
        vit_image *g = &s->img[k0];
        if (s->st[k0] != VIT_OK || !g->pixels) continue;
        int cnt = 0;
        size_t bytes = (size_t)g->width * g->height * g->channels;
        for (int k = k0; k < n; k++) {
            vit_image *e = &s->img[k];
            if (s->st[k] == VIT_OK && e->pixels && e->width == g->width && e->height == g->height && e->channels == g->channels) idx[cnt++] = k;
        }
        if (s->group_cap < (size_t)cnt * bytes) {
            free(s->group);
            s->group_cap = (size_t)cnt * bytes;
            s->group = (unsigned char *)xmalloc(s->group_cap);
        }
        for (int j = 0; j < cnt; j++) copy_rows(s->group + (size_t)j * bytes, &s->img[idx[j]]);
        int w = g->width, h = g->height, ch = g->channels;
        st = run_group(p, s, n, m, s->group, cnt, w, h, ch, idx);
        for (int j = 0; j < cnt; j++) vit_image_free(m, &s->img[idx[j]]);
    }
    for (int k = 0; k < n; k++) vit_image_free(m, &s->img[k]); // failed, --decode-only, or after an error
    free(idx);
    return st;
}

static void *run_thread(void *arg) {
    runner_arg *a = (runner_arg *)arg;
    pipe_ *p = a->p;
    const vit_config *cfg = vit_model_config(a->model);
    plat_mutex_lock(&p->mu);
    for (;;) {
        slot *s = NULL;
        while (p->next_fw < p->nbatches) {
            s = &p->slots[p->next_fw % p->nslots];
            if (s->batch == p->next_fw && s->state == SLOT_READY) break;
            s = NULL;
            plat_cond_wait(&p->ready, &p->mu);
        }
        if (!s) break;
        long b = p->next_fw++;
        s->state = SLOT_RUNNING;
        int exclusive = p->cpu_forward && cfg->device == VIT_DEVICE_CPU;
        if (exclusive) {
            p->forward_waiting++;
            while (p->decoding) plat_cond_wait(&p->phase, &p->mu);
        }
        plat_mutex_unlock(&p->mu);
        int n = (int)batch_count(p, b), good = 0;
        for (int k = 0; k < n; k++) good += s->st[k] == VIT_OK;
        vit_status st = VIT_OK;
        if (p->frames) {
            st = run_frames(p, s, n, a->model);
        } else if (good && p->forward) {
            if (p->fspec) st = vit_features(a->model, s->images, n, p->fspec, s->ftok, (size_t)p->fnum * n * p->fper);
            if (st == VIT_OK && p->main_out && cfg->num_classes) st = vit_forward(a->model, s->images, n, s->out);
            if (st == VIT_OK && p->main_out && (!cfg->num_classes || p->embed_features)) st = vit_embed(a->model, s->images, n, cfg->num_classes ? s->feat : s->out);
        }
        s->run_st = st;
        if (st != VIT_OK) snprintf(s->run_err, sizeof(s->run_err), "%s: %s", vit_status_string(st), vit_last_error(a->model));
        plat_mutex_lock(&p->mu);
        if (exclusive && --p->forward_waiting == 0) plat_cond_broadcast(&p->phase);
        s->state = SLOT_DONE;
        plat_cond_broadcast(&p->done);
    }
    plat_mutex_unlock(&p->mu);
    return NULL;
}

// ---- output

typedef struct writer {
    const cli *c;
    const vit_config *cfg;
    vit_model *model; // labels
    int embed_mode;   // embeddings, not classes
    vit_model *scorer;         // --labels: a weightless handle of the model (vit_zero_shot reads its config)
    const strlist *labels;     // --labels: the labels, or NULL
    const float *label_embeds; // their text embeddings
    int progress, progress_shown, stdout_tty;
    size_t done, failed, nfiles;
    double t0, last;
    FILE *embed_part;
    strlist embedded;
    FILE **feat_part;    // --features: one per block
    strlist featured;
    const int *fblocks;  // the blocks, resolved
    int fnum, ftokens;   // blocks; tokens per image
    size_t fper;
    int *classes;
    float *probs;
    buf line;
} writer;

static void clear_progress(writer *w) {
    if (w->progress_shown) { fputs("\r\033[K", stderr); w->progress_shown = 0; }
}

static void report_failure(writer *w, const char *file, const char *msg) {
    clear_progress(w);
    fprintf(stderr, "vit-classify: %s\n", msg);
    w->failed++;
    if (w->c->json && !w->c->decode_only) {
        w->line.n = 0;
        buf_str(&w->line, "{\"file\": ");
        json_str(&w->line, file);
        buf_str(&w->line, ", \"error\": ");
        json_str(&w->line, msg);
        buf_str(&w->line, "}\n");
        if (w->stdout_tty) clear_progress(w);
        fwrite(w->line.p, 1, w->line.n, stdout);
    }
}

static void write_result(writer *w, const char *file, const float *out, const float *feat) {
    const vit_config *cfg = w->cfg;
    int width = cfg->num_classes ? cfg->num_classes : cfg->dim, top = w->c->top < width ? w->c->top : width;
    if (w->embed_part) {
        if (fwrite(feat, sizeof(float), (size_t)cfg->dim, w->embed_part) != (size_t)cfg->dim) {
            fprintf(stderr, "vit-classify: cannot write '%s.part': %s\n", w->c->embed_path, strerror(errno));
            exit(1);
        }
        list_add(&w->embedded, file);
    }
    if (w->c->decode_only || (w->embed_mode && !w->labels && (w->c->embed_path || w->c->features_path) && !w->c->json)) return; // the files hold them
    buf *l = &w->line;
    l->n = 0;
    if (w->labels) { // zero-shot: the image's embedding against the labels'
        int k = (int)w->labels->n;
        top = w->c->top_given && w->c->top < k ? w->c->top : k;
        if (vit_zero_shot(w->scorer, out, 1, w->label_embeds, k, NULL, w->probs) != VIT_OK) {
            fprintf(stderr, "vit-classify: %s\n", vit_last_error(w->scorer));
            exit(1);
        }
        vit_topk(w->probs, k, top, w->classes);
    } else if (w->embed_mode) {
        if (w->c->json) {
            buf_str(l, "{\"file\": ");
            json_str(l, file);
            buf_str(l, ", \"embedding\": [");
            for (int k = 0; k < width; k++) { if (k) buf_str(l, ", "); json_num(l, "%.9g", out[k]); }
            buf_str(l, "]}\n");
        } else {
            double norm = 0;
            for (int k = 0; k < width; k++) norm += (double)out[k] * out[k];
            buf_str(l, file);
            buf_fmt(l, "\n  embedding: %.0f values", (double)width);
            buf_fmt(l, ", L2 norm %.4f:", norm > 0 ? sqrt(norm) : 0.0);
            for (int k = 0; k < width && k < 8; k++) buf_fmt(l, " %.4f", (double)out[k]);
            buf_str(l, width > 8 ? " ...\n" : "\n");
        }
    } else {
        memcpy(w->probs, out, (size_t)width * sizeof(float));
        vit_softmax(w->probs, width);
        vit_topk(w->probs, width, top, w->classes);
    }
    if (!w->embed_mode || w->labels) { // the top classes (or labels)
        if (w->c->json) {
            buf_str(l, "{\"file\": ");
            json_str(l, file);
            buf_str(l, ", \"top\": [");
            for (int k = 0; k < top; k++) {
                buf_fmt(l, k ? ", {\"index\": %.0f, \"label\": " : "{\"index\": %.0f, \"label\": ", (double)w->classes[k]);
                json_str(l, w->labels ? w->labels->v[w->classes[k]] : vit_label(w->model, w->classes[k]));
                buf_str(l, ", \"prob\": ");
                json_num(l, "%.6g", w->probs[w->classes[k]]);
                buf_str(l, "}");
            }
            buf_str(l, "]}\n");
        } else {
            buf_str(l, file);
            buf_str(l, "\n");
            for (int k = 0; k < top; k++) {
                char t[64];
                snprintf(t, sizeof(t), "  %6.2f%%  ", w->probs[w->classes[k]] * 100.0);
                buf_str(l, t);
                buf_str(l, w->labels ? w->labels->v[w->classes[k]] : vit_label(w->model, w->classes[k]));
                snprintf(t, sizeof(t), " (%d)\n", w->classes[k]);
                buf_str(l, t);
            }
        }
    }
    if (w->stdout_tty) clear_progress(w);
    fwrite(l->p, 1, l->n, stdout);
}

static void show_progress(writer *w, int final) {
    double now = seconds();
    if (!w->progress || (!final && now - w->last < 0.2)) return;
    w->last = now;
    double rate = now > w->t0 ? (double)w->done / (now - w->t0) : 0.0;
    fprintf(stderr, "\r%zu/%zu  %.0f img/s  ETA %.0f s\033[K", w->done, w->nfiles, rate, rate > 0 ? (double)(w->nfiles - w->done) / rate : 0.0);
    w->progress_shown = 1;
}

// --features: image k of a batch of n: each block's tokens to its part file.
static void write_tokens(writer *w, const char *file, const float *ftok, size_t n, size_t k) {
    for (int b = 0; b < w->fnum; b++)
        if (fwrite(ftok + ((size_t)b * n + k) * w->fper, sizeof(float), w->fper, w->feat_part[b]) != w->fper) {
            fprintf(stderr, "vit-classify: cannot write '%s.part.%d': %s\n", w->c->features_path, b, strerror(errno));
            exit(1);
        }
    list_add(&w->featured, file);
}

// Appends the part file f (rewound) to out; 1 when all `bytes` of it went.
static int append_part(FILE *out, FILE *f, size_t bytes) {
    char chunk[1 << 16];
    size_t got, total = 0;
    int okay = fflush(f) == 0 && fseek(f, 0, SEEK_SET) == 0;
    while (okay && (got = fread(chunk, 1, sizeof(chunk), f)) > 0) { okay = fwrite(chunk, 1, got, out) == got; total += got; }
    return okay && total == bytes;
}

// The safetensors header: "__metadata__" with files (and more, already JSON
// members in extra), then each tensor; padded to 8 bytes.
static void safetensors_head(buf *head, const strlist *names, const char *extra) {
    buf files = {NULL, 0, 0};
    buf_str(&files, "[");
    for (size_t i = 0; i < names->n; i++) { if (i) buf_str(&files, ", "); json_str(&files, names->v[i]); }
    buf_str(&files, "]");
    buf_str(head, "{\"__metadata__\": {\"files\": ");
    json_str(head, files.p);
    buf_str(head, extra);
    buf_str(head, "}");
    free(files.p);
}

static int write_head(FILE *f, buf *head) {
    while (head->n % 8) buf_str(head, " "); // the data starts 8-byte aligned, as safetensors writes it
    unsigned char len[8];
    for (int k = 0; k < 8; k++) len[k] = (unsigned char)((uint64_t)head->n >> (8 * k));
    return fwrite(len, 1, 8, f) == 8 && fwrite(head->p, 1, head->n, f) == head->n;
}

// Writes the --features file from the part files. Returns 0 or 1.
static int write_features(writer *w) {
    const char *out = w->c->features_path;
    size_t n = w->featured.n, bytes = n * w->fper * sizeof(float), C = w->fper / (size_t)w->ftokens;
    buf head = {NULL, 0, 0}, extra = {NULL, 0, 0}, layers = {NULL, 0, 0};
    for (int b = 0; b < w->fnum; b++) buf_fmt(&layers, b ? ",%.0f" : "%.0f", (double)w->fblocks[b]);
    buf_str(&extra, ", \"layers\": ");
    json_str(&extra, layers.p ? layers.p : "");
    safetensors_head(&head, &w->featured, extra.p);
    for (int b = 0; b < w->fnum; b++) {
        char t[200];
        snprintf(t, sizeof(t), ", \"block.%d\": {\"dtype\": \"F32\", \"shape\": [%zu, %d, %zu], \"data_offsets\": [%zu, %zu]}", w->fblocks[b], n, w->ftokens, C,
                 (size_t)b * bytes, (size_t)(b + 1) * bytes);
        buf_str(&head, t);
    }
    buf_str(&head, "}");
    FILE *f = plat_fopen(out, "wb");
    int okay = f && write_head(f, &head);
    for (int b = 0; okay && b < w->fnum; b++) okay = append_part(f, w->feat_part[b], bytes);
    if (f && fclose(f) != 0) okay = 0;
    if (!okay) fprintf(stderr, "vit-classify: cannot write '%s': %s\n", out, strerror(errno));
    else if (!w->c->quiet)
        fprintf(stderr, "wrote %zu %s features of block%s %s (%d tokens x %zu each) to %s\n", n, n == 1 ? "image's" : "images'", w->fnum == 1 ? "" : "s", layers.p, w->ftokens, C, out);
    free(head.p); free(extra.p); free(layers.p);
    return okay ? 0 : 1;
}

// Closes and removes the --features part files.
static void drop_feature_parts(writer *w) {
    char *part = (char *)xmalloc(strlen(w->c->features_path) + 32);
    for (int b = 0; b < w->fnum; b++) {
        if (!w->feat_part[b]) continue;
        fclose(w->feat_part[b]);
        sprintf(part, "%s.part.%d", w->c->features_path, b);
        plat_remove(part);
    }
    free(part);
    free(w->feat_part);
    w->feat_part = NULL;
}

// Writes the safetensors file from the features in OUT.part. Returns 0 or 1.
static int write_embeddings(writer *w) {
    const char *out = w->c->embed_path;
    size_t n = w->embedded.n, dim = (size_t)w->cfg->dim, bytes = n * dim * sizeof(float);
    buf head = {NULL, 0, 0};
    safetensors_head(&head, &w->embedded, "");
    char t[160];
    snprintf(t, sizeof(t), ", \"embeddings\": {\"dtype\": \"F32\", \"shape\": [%zu, %zu], \"data_offsets\": [0, %zu]}}", n, dim, bytes);
    buf_str(&head, t);
    char *part = (char *)xmalloc(strlen(out) + 6);
    sprintf(part, "%s.part", out);
    FILE *f = plat_fopen(out, "wb");
    int okay = f && write_head(f, &head) && append_part(f, w->embed_part, bytes);
    if (f && fclose(f) != 0) okay = 0;
    if (!okay) fprintf(stderr, "vit-classify: cannot write '%s': %s\n", out, strerror(errno));
    else if (!w->c->quiet) fprintf(stderr, "wrote %zu embedding%s (%zu floats each) to %s\n", n, n == 1 ? "" : "s", dim, out);
    fclose(w->embed_part);
    w->embed_part = NULL;
    plat_remove(part);
    free(part);
    free(head.p);
    return okay ? 0 : 1;
}

// ---- main

int main(int argc, char **argv) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "--embed writes the host's floats as safetensors' little-endian F32"
#endif
    if (plat_args(&argc, &argv) != 0) { fprintf(stderr, "vit-classify: out of memory\n"); return 1; } // Windows: UTF-8 arguments
    cli c;
    memset(&c, 0, sizeof(c));
    c.top = 5;
    c.pos = (int *)xmalloc((size_t)argc * sizeof(int));
    int rc = parse_args(argc, argv, &c);
    if (rc) { free(c.pos); return rc < 0 ? 0 : rc; }
    const char *model_path = argv[c.pos[0]];

    // 1. the files, in order
    strlist files = {NULL, 0, 0};
    walk_stats ws = {0, 0, 0};
    for (int p = 1; p < c.npos; p++) {
        const char *path = argv[c.pos[p]];
        int kind = plat_path_kind(path);
        if (kind == PLAT_DIR || kind == PLAT_DIR_LINK) {
            size_t first = files.n;
            walk(path, &files, &ws);
            if (files.n > first) qsort(files.v + first, files.n - first, sizeof(char *), cmp_str);
            if (files.n == first) { // nothing to do there is a failure, not a success
                fprintf(stderr, "vit-classify: no image files in '%s'\n", path);
                ws.errors++;
            }
        } else {
            list_add(&files, path); // tried whatever it is; vit.h says why it fails
        }
    }
    if (!c.quiet && ws.skipped) fprintf(stderr, "skipped %zu file%s in the directories: not named as images\n", ws.skipped, ws.skipped == 1 ? "" : "s");
    if (!c.quiet && ws.links) fprintf(stderr, "skipped %zu %s (not followed)\n", ws.links, ws.links == 1 ? "link to a directory" : "links to directories");

    // 2. the models: one per device, and a preprocessor per decode thread
    int dev[CLI_MAX_DEVICES], ndev = 1;
    if (pick_devices(&c, dev, &ndev)) return 1;
    if (c.devices && !strcmp(c.devices, "cpu")) c.opts.device = VIT_DEVICE_CPU;
    int threads = c.threads ? c.threads : plat_cpu_count();
    if (threads < 1) threads = 1;
    if (files.n && (size_t)threads > files.n) threads = (int)files.n;
    vit_model *models[CLI_MAX_DEVICES];
    if (c.decode_only) { ndev = 1; dev[0] = -1; }
    double t0 = seconds();
    decoder_arg *da = (decoder_arg *)xmalloc((size_t)threads * sizeof(decoder_arg));
    plat_thread *tid = (plat_thread *)xmalloc((size_t)(threads + ndev) * sizeof(plat_thread));
    memset(da, 0, (size_t)threads * sizeof(decoder_arg));
    int load_failed = 0, loading = files.n ? threads : 0;
    // the batch: 32 where a GPU is likely, 8 on the CPU, never more than the files
    int batch = c.batch ? c.batch : (!CLI_CUDA || c.decode_only || c.opts.device == VIT_DEVICE_CPU) ? 8 : 32;
    if (!c.batch && files.n && (size_t)batch > files.n) batch = (int)files.n;
#if CLI_CUDA
    // The model threads wait for their GPUs asleep, not spinning (CUDA's default
    // with fewer GPUs than cores): the decode threads need every core. 2 x H100,
    // 32 cores: --devices all ran at 0.91x one GPU, both bound by the decoding.
    if (!c.decode_only && c.opts.device != VIT_DEVICE_CPU)
        for (int d = 0; d < ndev; d++) {
            if (cudaSetDevice(dev[d] >= 0 ? dev[d] : 0) == cudaSuccess) cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync);
            cudaGetLastError(); // no GPU: the CPU path
        }
#endif
    for (int d = 0; d < ndev; d++) {
        vit_options o = c.opts;
        if (dev[d] >= 0) { o.device = VIT_DEVICE_CUDA; o.device_index = dev[d]; }
        if (c.decode_only) { o.device = VIT_DEVICE_CPU; o.dtype = VIT_DTYPE_DEFAULT; o.max_batch = 1; } // only its config is used
        else o.max_batch = batch;
        vit_status st = vit_load(model_path, &o, &models[d]);
        if (st != VIT_OK) {
            fprintf(stderr, "vit-classify: cannot load '%s'%s: %s: %s\n", model_path, dev[d] >= 0 ? " on a GPU" : "", vit_status_string(st), vit_last_error(NULL));
            for (int k = 0; k < d; k++) vit_free(models[k]);
            return 1;
        }
    }
    const vit_config *cfg = vit_model_config(models[0]);
    int embed_mode = cfg->num_classes == 0 || cfg->projection;
    int width = cfg->num_classes ? cfg->num_classes : cfg->dim;
    // --labels: the labels' text embeddings, once (the model's text tower and the tokenizer in its folder)
    int zero_shot = c.labels || c.labels_file;
    strlist labels = {NULL, 0, 0};
    float *label_embeds = NULL;
    vit_model *scorer = NULL;
    if (zero_shot) {
        int bad = 0;
        if (!cfg->has_text) {
            char why[200];
            snprintf(why, sizeof(why), "--labels: the model has no text tower (a full CLIPModel / SiglipModel folder has one, with its tokenizer)");
            bad = usage(why);
        } else bad = read_labels(&c, &labels);
        if (!bad) {
            vit_tokenizer *tok = NULL;
            vit_status st = vit_tokenizer_load(model_path, NULL, &tok); // the model's path: the tokenizer of the layout vit_load read
            if (st != VIT_OK) fprintf(stderr, "vit-classify: cannot load the tokenizer of '%s': %s: %s\n", model_path, vit_status_string(st), vit_tokenizer_last_error(NULL));
            label_embeds = (float *)xmalloc(labels.n * (size_t)cfg->embed_dim * sizeof(float));
            if (st == VIT_OK && (st = vit_encode_texts(models[0], tok, (const char *const *)labels.v, (int)labels.n, c.prompt, label_embeds)) != VIT_OK)
                fprintf(stderr, "vit-classify: the labels: %s: %s\n", vit_status_string(st), vit_last_error(models[0]));
            if (st == VIT_OK && (st = vit_clone_preprocessor(models[0], &scorer)) != VIT_OK) fprintf(stderr, "vit-classify: out of memory\n");
            vit_tokenizer_free(tok);
            bad = st != VIT_OK;
        }
        if (bad) {
            for (int d = 0; d < ndev; d++) vit_free(models[d]);
            for (size_t i = 0; i < files.n; i++) free(files.v[i]);
            for (size_t i = 0; i < labels.n; i++) free(labels.v[i]);
            free(files.v); free(labels.v); free(label_embeds); free(da); free(tid); free(c.pos);
            return bad;
        }
    }
    if (embed_mode && c.top_given && !c.decode_only && !zero_shot) { // a usage error: there are no classes to rank
        char why[160];
        snprintf(why, sizeof(why), "--top: the model has no classifier head (%s); it gives embeddings", cfg->projection ? "an image projection" : "features only");
        for (int d = 0; d < ndev; d++) vit_free(models[d]);
        for (size_t i = 0; i < files.n; i++) free(files.v[i]);
        free(files.v); free(da); free(tid); free(c.pos);
        return usage(why);
    }
    // --features: the blocks checked against the model (a usage error: nothing is written)
    vit_features_spec fspec;
    memset(&fspec, 0, sizeof(fspec));
    int fblocks[CLI_MAX_LAYERS], fshape[4] = {0, 0, 0, 0};
    size_t fper = 0;
    if (c.features_path) {
        static const int last[1] = {-1};
        fspec.blocks = c.nlayers ? c.layers : last;
        fspec.num_blocks = c.nlayers ? c.nlayers : 1;
        fspec.norm = c.features_norm;
        fspec.drop_prefix = c.no_prefix;
        vit_status st = vit_features_shape(models[0], &fspec, fshape, &fper, fblocks);
        if (st != VIT_OK) {
            char why[700];
            snprintf(why, sizeof(why), "--layers: %s", vit_last_error(models[0]));
            for (int d = 0; d < ndev; d++) vit_free(models[d]);
            for (size_t i = 0; i < files.n; i++) free(files.v[i]);
            for (size_t i = 0; i < labels.n; i++) free(labels.v[i]);
            vit_free(scorer);
            free(files.v); free(labels.v); free(label_embeds); free(da); free(tid); free(c.pos);
            return usage(why);
        }
    }
    if (cfg->preprocess_source == VIT_PREPROCESS_UNKNOWN && !load_failed) { // every image would be refused: say why once
        float *probe = (float *)malloc((size_t)cfg->in_chans * cfg->image_height * cfg->image_width * sizeof(float));
        unsigned char px[3] = {0, 0, 0};
        vit_status st = probe ? vit_preprocess_rgb8(models[0], px, 1, 1, 0, 3, probe) : VIT_ERROR_OUT_OF_MEMORY;
        fprintf(stderr, "vit-classify: %s: %s\n", vit_status_string(st), probe ? vit_last_error(models[0]) : "out of memory");
        fprintf(stderr, "vit-classify: state it with --std A[,B,C] (and --mean, --interpolation, --resize, --crop-pct, --size)\n");
        free(probe);
        load_failed = 1;
    }
    // the decode threads' preprocessors
    for (int t = 0; t < loading && !load_failed; t++) {
        vit_status st = vit_clone_preprocessor(models[0], &da[t].model);
        if (st != VIT_OK) {
            fprintf(stderr, "vit-classify: cannot make a preprocessor: %s: %s\n", vit_status_string(st), vit_last_error(NULL));
            load_failed = 1;
        }
    }

    if (!c.quiet) {
        // the family as the model's files name it: config.json's architectures[0] (HF) or architecture (timm)
        const char *from = cfg->source == VIT_SOURCE_HF ? "Hugging Face" : cfg->source == VIT_SOURCE_OPEN_CLIP ? "open_clip" : "timm";
        if (cfg->architecture[0]) fprintf(stderr, "model: %s %s", from, cfg->architecture);
        else fprintf(stderr, "model: %s ViT (no config.json names it)", from);
        fprintf(stderr, ", %dx%d input, %d channels, width %d, depth %d, %d heads, %s %d; %s %s", cfg->image_height, cfg->image_width, cfg->in_chans, cfg->dim, cfg->depth,
                cfg->num_heads, cfg->projection ? "projection to" : cfg->num_classes ? "classes" : "features", cfg->projection || cfg->num_classes ? cfg->num_classes : cfg->dim,
                cfg->device == VIT_DEVICE_CUDA ? "cuda" : "cpu", cfg->dtype == VIT_DTYPE_BF16 ? "bf16" : cfg->dtype == VIT_DTYPE_F16 ? "fp16" : cfg->dtype == VIT_DTYPE_INT8 ? "int8" : cfg->dtype == VIT_DTYPE_FP8 ? "fp8" : "fp32");
        if (ndev > 1) fprintf(stderr, " x %d GPUs", ndev);
        // a CUDA build on the CPU says why (no GPU, a GPU it has no code for, fp16 without VIT_CUDA_F16, ...)
        if (cfg->device == VIT_DEVICE_CPU && vit_last_error(models[0])[0]) fprintf(stderr, " (%s)", vit_last_error(models[0]));
        fprintf(stderr, "; loaded in %.0f ms\n", (seconds() - t0) * 1e3);
        if (zero_shot)
            fprintf(stderr, "zero-shot: %zu label%s%s%s%s, %s\n", labels.n, labels.n == 1 ? "" : "s", c.prompt ? " in the template '" : "", c.prompt ? c.prompt : "",
                    c.prompt ? "'" : "", cfg->match == VIT_MATCH_SIGMOID ? "each label's sigmoid (SigLIP)" : "a softmax over the labels (CLIP)");
    }


    // 3. the pipeline
    pipe_ p;
    memset(&p, 0, sizeof(p));
    plat_mutex_init(&p.mu);
    plat_cond_init(&p.slot_free);
    plat_cond_init(&p.ready);
    plat_cond_init(&p.done);
    plat_cond_init(&p.phase);
    plat_cond_init(&p.sized);
    p.batch = batch;
    p.nfiles = load_failed ? 0 : files.n;
    p.files = files.v;
    p.nbatches = (long)((p.nfiles + (size_t)batch - 1) / (size_t)batch);
    p.nslots = 2 * ndev + 2;
    if (p.nslots > p.nbatches) p.nslots = p.nbatches > 0 ? (int)p.nbatches : 1;
    p.pixels = (size_t)cfg->in_chans * cfg->image_height * cfg->image_width;
    p.width = width;
    p.dim = cfg->dim;
    p.forward = !c.decode_only;
    // a model on a GPU resizes there: the decode threads only decode (--decode-only: the same, when a GPU is there to use)
    p.frames = c.frames ? c.frames > 0 : c.decode_only ? gpu_present(&c) : cfg->device == VIT_DEVICE_CUDA;
    p.pinned = CLI_CUDA && p.frames && p.forward && cfg->device == VIT_DEVICE_CUDA;
    p.pin_device = dev[0] >= 0 ? dev[0] : 0;
    p.cpu_forward = p.forward;
    p.embed_features = c.embed_path != NULL && cfg->num_classes > 0;
    p.main_out = zero_shot || !(c.features_path && embed_mode && !c.json && !c.embed_path);
    p.fspec = c.features_path ? &fspec : NULL;
    p.fnum = fspec.num_blocks;
    p.fper = fper;
    p.slots = (slot *)xmalloc((size_t)p.nslots * sizeof(slot));
    for (int s = 0; s < p.nslots; s++) {
        slot *sl = &p.slots[s];
        memset(sl, 0, sizeof(*sl));
        sl->batch = s < p.nbatches ? s : -1;
        if (p.frames) {
            sl->img = (vit_image *)xmalloc((size_t)batch * sizeof(vit_image));
            memset(sl->img, 0, (size_t)batch * sizeof(vit_image));
            sl->in_pack = (unsigned char *)xmalloc((size_t)batch);
            memset(sl->in_pack, 0, (size_t)batch);
            sl->gout = (float *)xmalloc((size_t)batch * (size_t)(width > cfg->dim ? width : cfg->dim) * sizeof(float));
        } else {
            sl->images = (float *)xmalloc((size_t)batch * p.pixels * sizeof(float));
        }
        sl->out = (float *)xmalloc((size_t)batch * (size_t)width * sizeof(float));
        sl->feat = cfg->num_classes ? (float *)xmalloc((size_t)batch * (size_t)cfg->dim * sizeof(float)) : sl->out;
        if (p.fspec) sl->ftok = (float *)xmalloc((size_t)p.fnum * batch * fper * sizeof(float));
        if (p.fspec && p.frames) sl->gtok = (float *)xmalloc((size_t)p.fnum * batch * fper * sizeof(float));
        sl->st = (vit_status *)xmalloc((size_t)batch * sizeof(vit_status));
        sl->err = (char *)xmalloc((size_t)batch * CLI_ERR_LEN);
    }

    writer w;
    memset(&w, 0, sizeof(w));
    w.c = &c;
    w.cfg = cfg;
    w.model = models[0];
    w.embed_mode = embed_mode;
    w.nfiles = p.nfiles;
    w.progress = !c.quiet && plat_isatty(2);
    w.stdout_tty = plat_isatty(1);
    w.scorer = scorer;
    w.labels = zero_shot ? &labels : NULL;
    w.label_embeds = label_embeds;
    size_t ranked = zero_shot && labels.n > (size_t)width ? labels.n : (size_t)width;
    w.classes = (int *)xmalloc(ranked * sizeof(int));
    w.probs = (float *)xmalloc(ranked * sizeof(float));
    int status = load_failed || ws.errors ? 1 : 0;
    if (c.embed_path && !load_failed) {
        char *part = (char *)xmalloc(strlen(c.embed_path) + 6);
        sprintf(part, "%s.part", c.embed_path);
        w.embed_part = plat_fopen(part, "w+b");
        if (!w.embed_part) { fprintf(stderr, "vit-classify: cannot write '%s': %s\n", part, strerror(errno)); status = 1; p.nfiles = 0; p.nbatches = 0; }
        free(part);
    }
    if (c.features_path && !load_failed && p.nfiles) {
        char *part = (char *)xmalloc(strlen(c.features_path) + 32);
        w.fblocks = fblocks;
        w.fnum = p.fnum;
        w.fper = fper;
        w.ftokens = fshape[0];
        w.feat_part = (FILE **)xmalloc((size_t)p.fnum * sizeof(FILE *));
        memset(w.feat_part, 0, (size_t)p.fnum * sizeof(FILE *));
        for (int b = 0; b < p.fnum; b++) {
            sprintf(part, "%s.part.%d", c.features_path, b);
            if (!(w.feat_part[b] = plat_fopen(part, "w+b"))) {
                fprintf(stderr, "vit-classify: cannot write '%s': %s\n", part, strerror(errno));
                status = 1; p.nfiles = 0; p.nbatches = 0;
                break;
            }
        }
        free(part);
    }

    runner_arg ra[CLI_MAX_DEVICES];
    int ndec = p.nfiles ? threads : 0, nrun = p.nbatches ? ndev : 0;
    w.t0 = seconds(); // w.last = 0: the first batch shows the progress line
    for (int t = 0; t < ndec; t++) {
        da[t].p = &p;
        if (plat_thread_start(&tid[t], decode_thread, &da[t]) != 0) { fprintf(stderr, "vit-classify: cannot start a thread\n"); exit(1); }
    }
    for (int d = 0; d < nrun; d++) {
        ra[d].p = &p;
        ra[d].model = models[d];
        if (plat_thread_start(&tid[threads + d], run_thread, &ra[d]) != 0) { fprintf(stderr, "vit-classify: cannot start a thread\n"); exit(1); }
    }
    for (long b = 0; b < p.nbatches; b++) {
        slot *s = &p.slots[b % p.nslots];
        plat_mutex_lock(&p.mu);
        while (!(s->batch == b && s->state == SLOT_DONE)) plat_cond_wait(&p.done, &p.mu);
        plat_mutex_unlock(&p.mu);
        size_t n = batch_count(&p, b);
        for (size_t k = 0; k < n; k++) {
            const char *file = p.files[(size_t)b * (size_t)batch + k];
            if (s->st[k] != VIT_OK) report_failure(&w, file, s->err + k * CLI_ERR_LEN);
            else if (s->run_st != VIT_OK) report_failure(&w, file, s->run_err);
            else {
                if (w.feat_part) write_tokens(&w, file, s->ftok, n, k);
                write_result(&w, file, s->out + k * (size_t)width, s->feat + k * (size_t)cfg->dim);
            }
            w.done++;
        }
        fflush(stdout);
        show_progress(&w, 0);
        plat_mutex_lock(&p.mu);
        s->batch = b + p.nslots < p.nbatches ? b + p.nslots : -1;
        s->state = SLOT_FILLING;
        s->filled = 0;
        s->pack_bytes = 0;
        if (s->in_pack) memset(s->in_pack, 0, (size_t)p.batch);
        plat_cond_broadcast(&p.slot_free);
        plat_mutex_unlock(&p.mu);
    }
    for (int t = 0; t < ndec; t++) plat_thread_join(&tid[t]);
    for (int d = 0; d < nrun; d++) plat_thread_join(&tid[threads + d]);
    double elapsed = seconds() - w.t0;
    clear_progress(&w);
    if (w.failed) status = 1;
    if (w.embed_part && write_embeddings(&w)) status = 1;
    if (w.feat_part) {
        if (w.featured.n && write_features(&w)) status = 1;
        drop_feature_parts(&w);
    }
    if (!c.quiet && p.nfiles) {
        size_t ok = w.done - w.failed; // the rate counts only the images that succeeded
        const char *did = c.decode_only ? "decoded" : embed_mode && !zero_shot ? "embedded" : "classified";
        if (ok == 0) fprintf(stderr, "%s none of %zu images: all failed\n", did, w.done);
        else {
            fprintf(stderr, "%s %zu of %zu images in %.2f s: %.1f img/s (%d threads, batch %d", did,
                    ok, w.done, elapsed, elapsed > 0 ? (double)ok / elapsed : 0.0, threads, batch);
            if (ndev > 1) fprintf(stderr, ", %d GPUs", ndev);
            fprintf(stderr, w.failed ? "; %zu failed)\n" : ")\n", w.failed);
        }
    }

    for (int s = 0; s < p.nslots; s++) {
        slot *sl = &p.slots[s];
        if (sl->feat != sl->out) free(sl->feat);
        free(sl->ftok); free(sl->gtok);
        packed_free(sl);
        free(sl->images); free(sl->img); free(sl->in_pack); free(sl->group); free(sl->gout); free(sl->out); free(sl->st); free(sl->err);
    }
    free(p.slots);
    plat_mutex_destroy(&p.mu);
    plat_cond_destroy(&p.slot_free);
    plat_cond_destroy(&p.ready);
    plat_cond_destroy(&p.done);
    plat_cond_destroy(&p.phase);
    plat_cond_destroy(&p.sized);
    for (int t = 0; t < threads; t++) vit_free(da[t].model);
    for (int d = 0; d < ndev; d++) vit_free(models[d]);
    vit_free(scorer);
    for (size_t i = 0; i < labels.n; i++) free(labels.v[i]);
    free(labels.v); free(label_embeds);
    for (size_t i = 0; i < files.n; i++) free(files.v[i]);
    for (size_t i = 0; i < w.embedded.n; i++) free(w.embedded.v[i]);
    for (size_t i = 0; i < w.featured.n; i++) free(w.featured.v[i]);
    free(files.v); free(w.embedded.v); free(w.featured.v); free(w.line.p); free(w.classes); free(w.probs);
    free(da); free(tid); free(c.pos);
    return plat_exit(status);
}
