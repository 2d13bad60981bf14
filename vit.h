/* vit.h - v0.1.0 - Vision Transformer inference in one header - MIT or public domain (see end of file)

   Do this:
      #define VIT_IMPLEMENTATION
   before you include this file in *one* C or C++ file to create the implementation.

      // i.e. it should look like this:
      #include ...
      #include ...
      #define VIT_IMPLEMENTATION
      #include "vit.h"

   QUICK NOTES
      - Runs the ViT families of timm and Hugging Face transformers straight
        from their .safetensors files (F32, F16, BF16): plain ViT and DeiT
        classifiers (distillation token and head), DINOv2 (registers,
        LayerScale, SwiGLU), CLIP and SigLIP image towers (QuickGELU / tanh
        GELU, pre-norm, attention pooling, the image projection as the head),
        qk-norm. The config.json beside the file decides (timm's
        architecture name, model_args; HF's model_type, hidden_act,
        layer_norm_eps ...) and the tensor shapes confirm; without one the
        architecture is inferred from shapes.
      - Zero-shot classification with a full CLIPModel / SiglipModel file
        (vit_config.has_text): its text tower is loaded too (transformers'
        CLIPTextModel / SiglipTextModel: causal or not, its pooled token, its
        projection), vit_encode_ids turns token ids into normalised text
        embeddings, vit_image_embeds gives the images', and vit_zero_shot
        scores n images against k labels as the model was trained (CLIP: a
        softmax of logit_scale * cosine; SigLIP: the sigmoid of logit_scale *
        cosine + logit_bias), the label embeddings computed once and reused.
        The text tower runs on the CPU (also for a CUDA model, there in fp32).
      - Any resolution: vit_options.image_height/image_width (multiples of the
        patch size); the position embedding is resampled once at load exactly
        as the source library does it (timm: bicubic with antialiasing; HF
        interpolate_pos_encoding: bicubic, antialiased for DINOv2 with
        registers only).
      - Never a silent wrong answer: a config value the math does not
        implement, or a tensor the model would not read, is refused with
        VIT_ERROR_UNSUPPORTED naming it (see FILE FORMAT for the tensors
        known to be irrelevant, which are skipped).
      - Complete fp32 CPU forward pass in C99, multi-threaded with OpenMP
        when compiled with -fopenmp (nvcc: -Xcompiler -fopenmp); otherwise
        single-threaded, and vit_config.openmp says so. Its GEMMs
        read weights repacked at load into 16-column panels, through
        AVX-512, AVX2+FMA or NEON register tiles chosen at run time (gcc and
        clang: a binary built for plain x86-64 still uses AVX-512 where the
        CPU has it); other compilers get portable C loops. The kernels sum in
        the reference order, so the ISA does not change the bits.
      - int8 on the CPU (VIT_DTYPE_INT8): the blocks' linears with
        per-output-channel int8 weights quantised at load and per-token int8
        activations quantised at run time, exact int32 sums (AVX-512 VNNI
        vpdpbusd, 256-bit AVX-VNNI, ARM sdot, AVX2 or portable C: the same
        integer sums on each); patch embedding, attention, norms and heads
        stay fp32. The blocks' fp32 linear weights are dropped once quantised
        (ViT-B/16 resident: 95 MB against 337 MB in fp32). Logits within a
        few percent of fp32 (test_model: 5e-2). For CPUs with AVX-VNNI but no
        AVX-512 (Alder Lake and later desktops): 256-bit vpdpbusd; the AVX2
        path widens the bytes to 16 bits (vpmaddwd) where neither VNNI
        exists; ARMv8.0 and other compilers get portable loops. Speeds per
        path against fp32: [BENCHMARKS: CPU: int8] in BENCHMARKS.md.
      - VIT_DTYPE_FP8: the blocks' four linears with e4m3 operands: weights
        per output channel (at load) and activations per token (at run time)
        rounded to e4m3 (as torch's float8_e4m3fn: nearest even, saturated at
        448), scales amax / 448, fp32 sums, scales in the epilogue. fc2's
        input, which fc1's epilogue rounds tile by tile and so never sees a
        whole row of, is scaled per token by the power of two above a bound
        on the row (the row's norm times fc1's largest weight-column norm,
        plus its bias: Cauchy-Schwarz), so nothing saturates; e4m3's
        precision is relative, so only values below 2^-6 of the bound lose
        bits (after SwiGLU: per token and 128 columns, amax / 448). On
        CUDA: wgmma e4m3 kernels on sm_90a (Hopper), the rest of the model
        in bf16 (where it cannot run there: other GPUs, or a width or MLP
        width that is not a multiple of 16, VIT_DEVICE_CUDA fails with
        VIT_ERROR_UNSUPPORTED and VIT_DEVICE_DEFAULT loads the model on the
        CPU, as for any model the GPU path does not run); Hopper's tensor cores add e4m3
        products with about 14 bits of precision, not fp32's 24 (sums of
        768 products move by ~1e-3 relative; after SwiGLU fc2's go to fp32
        every 128). On the CPU: the numerics the
        GPU kernels are tested against, at fp32 speed (it answers what fp8
        does to a model, not how fast). The residual stream stays bf16 unless
        residual_dtype says VIT_DTYPE_F32. Accuracy on the shipped
        Fashion-MNIST model: [BENCHMARKS: GEMM: fp8 (e4m3)].
      - Compiled by nvcc, the CUDA kernels in vit_kernels.cuh are pulled in and a
        CUDA GPU is used when one is present; without one the same binary runs
        on the CPU with the same API.
      - No printing, no abort/exit: every fallible call returns a vit_status
        and vit_last_error() says what went wrong. No global state but two
        thread-local failure records (the last failed load's message, and
        whether stb_image's last allocation failed).
      - CUDA: bf16 by default (fp32, fp16 on request), weights in one device
        allocation, activations in one arena sized for max_batch; the forward
        pass is captured as a CUDA graph the first time each batch size is
        seen (that first call allocates the graph), then replayed.
      - The residual stream x between the blocks is fp32 by default (bf16
        with dtype fp8; residual_dtype = VIT_DTYPE_F32 keeps it fp32 there).
        vit_options.residual_dtype = VIT_DTYPE_BF16 keeps it in bf16, as
        PyTorch keeps it in a model cast to bfloat16: x is rounded after the
        embedding (and pre-norm) and after each residual add, on the CPU (an
        emulation, for checking) as on the GPU, where the adds and LayerNorms
        then move half the bytes, faster at large batches
        [BENCHMARKS: LayerNorm]. The wgmma GEMMs round the added term to bf16
        before the add (a bf16 reduction in L2), so the GPU rounds twice where
        the CPU rounds once. Outputs move by about 0.1-1% relative (test_model:
        within 2e-2 of the fp32 reference on every case). CUDA needs dtype
        bf16 or fp8 for it (fp32 or fp16 with it: VIT_ERROR_UNSUPPORTED, also
        under VIT_DEVICE_DEFAULT); a residual dtype other than fp32 or bf16 is
        refused (VIT_ERROR_UNSUPPORTED).
      - Residual adds (x += scale * f(x)) are fused multiply-adds (fmaf) on the
        CPU and the GPU alike, whatever the compiler's contraction setting
        (without FMA hardware fmaf is a libm call, once per output element).
      - Deterministic: the same input gives bit-identical output for any thread
        count (every output element is summed by one thread in a fixed order).
      - Does NOT: train, run hybrid (CNN stem) ViTs, relative position bias
        (BEiT), rotary embeddings (EVA), RmsNorm or parallel blocks, or change
        the input size per call (one size per loaded model).

   USAGE (identical to examples/minimal.c)

      #define VIT_IMPLEMENTATION
      #include "vit.h"
      #include <stdio.h>
      #include <stdlib.h>

      int main(int argc, char **argv) {
          if (argc < 2) { fprintf(stderr, "usage: %s model.safetensors\n", argv[0]); return 2; }
          vit_model *model = NULL;
          vit_status st = vit_load(argv[1], NULL, &model);      // NULL options = defaults
          if (st != VIT_OK) {
              fprintf(stderr, "load: %s: %s\n", vit_status_string(st), vit_last_error(NULL));
              return 1;
          }
          const vit_config *cfg = vit_model_config(model);
          size_t pixels = (size_t)cfg->in_chans * cfg->image_height * cfg->image_width;
          float *image = (float *)calloc(pixels, sizeof(float));  // one normalised image (C, H, W)
          float *logits = (float *)malloc((size_t)cfg->num_classes * sizeof(float) + 1);
          st = vit_forward(model, image, 1, logits);
          if (st != VIT_OK) {
              fprintf(stderr, "forward: %s: %s\n", vit_status_string(st), vit_last_error(model));
          } else {
              int best = 0;
              for (int k = 1; k < cfg->num_classes; k++) if (logits[k] > logits[best]) best = k;
              printf("class %d (%s)\n", best, vit_label(model, best));
          }
          free(image); free(logits);
          vit_free(model);
          return st == VIT_OK ? 0 : 1;
      }

   CONFIGURATION (#define before including, in the implementation file)
      VIT_IMPLEMENTATION     compile the implementation here                  (off)
      VIT_STATIC             make every function static                        (off)
      VIT_NO_STDIO           remove vit_load (file access); use vit_load_memory (off)
      VIT_NO_CUDA            never use CUDA, even under nvcc                   (off)
      VIT_CUDA_NO_F32        leave out the CUDA kernels of a dtype the program (off)
      VIT_CUDA_NO_F16        does not use (fp32, fp16, fp8): a faster nvcc     (off)
      VIT_CUDA_NO_FP8        build; asking for it then runs on the CPU with    (off)
                             VIT_DEVICE_DEFAULT, else VIT_ERROR_UNSUPPORTED
      VIT_MALLOC/VIT_FREE    your allocator: define both or neither           (malloc/free)
      VIT_ASSERT(x)          internal invariants only, never input checks     (assert)
      VIT_MAX_HEADER_BYTES   largest safetensors JSON header accepted          (100 MB)
                             (and largest model.safetensors.index.json)
      VIT_MAX_SHARDS         most shard files of a sharded model               (1024)
      VIT_MAX_VOCAB          most token ids of a text tower's vocabulary       (1 << 20)
      VIT_MAX_DIM            largest width, mlp width or class count           (65536)
      VIT_MAX_DEPTH          most transformer blocks                           (256)
      VIT_MAX_TOKENS         most tokens per image (patches + class token)     (16385)
      VIT_MAX_BATCH          largest max_batch option                          (65536)
      VIT_MAX_IMAGE_SIDE     widest/tallest image decoded (STBI_MAX_DIMENSIONS) (32768)
      VIT_MAX_IMAGE_PIXELS   most pixels of an image, checked before decoding  (1 << 26)
      VIT_NO_STB_IMAGE       no image decoding; vit_preprocess_rgb8 still works (off)
      VIT_STB_IMAGE_H        where stb_image.h is                          (<stb/stb_image.h>)
      If stb_image.h is included before vit.h, vit.h uses that one (you then
      compile its implementation); otherwise it compiles a private static copy.
      At run time, vit_options.allocator overrides VIT_MALLOC/VIT_FREE for
      everything but stb_image's own buffers, which always use VIT_MALLOC.

   DIMENSION LETTERS (used in every shape comment)
      B batch, N tokens per image, C channels (model width), H heads,
      D head size (C / H), P patch size, S image size, K classes, M mlp width.

   ERRORS
      Every fallible function returns vit_status (VIT_OK == 0, errors < 0).
      vit_status_string() names a status; vit_last_error(model) gives the detail
      of the model's last failure (which tensor, what was expected, the CUDA
      message); vit_last_error(NULL) gives the detail of the calling thread's
      last failed vit_load/vit_load_memory. On failure nothing is leaked and no
      output model is created.

   THREAD SAFETY
      Different models may be used from different threads at once. One model
      must not be used by two threads at once (vit_forward writes its scratch
      buffers); vit_model_config/vit_label are read-only and may be called
      concurrently with each other.

   FILE FORMAT
      safetensors: 8-byte little-endian header length, a JSON header mapping
      tensor names to {dtype, shape, data_offsets}, then the raw little-endian
      data, with no holes or overlaps. Every byte is treated as hostile.
      Tensor names as written by timm (patch_embed.proj, cls_token,
      dist_token, reg_token, pos_embed, norm_pre, blocks.N.*, norm, fc_norm,
      attn_pool.*, head, head_dist) or by transformers: ViTModel /
      ViTForImageClassification, DeiTModel / DeiTForImageClassification
      [WithTeacher], Dinov2Model, Dinov2WithRegistersModel, CLIPVisionModel
      [WithProjection], SiglipVisionModel, and a full CLIPModel / SiglipModel
      file: both towers (text_model.*, text_projection, logit_scale,
      logit_bias: see vit_encode_ids) (vit.h's name tables: vit__names).
      Skipped as irrelevant to inference (every other unused tensor is
      refused): HF's embeddings.mask_token (masked image
      modelling) and embeddings.position_ids (a constant buffer); HF
      ViTModel's pooler.dense (its tanh pooler: vit_embed returns the
      final-normed class token, what ViTForImageClassification classifies).
      OUTPUTS: vit_embed gives the pooled pre-head features (after the final
      norm / fc_norm / attention pooling; with a distillation token the mean
      of the two tokens, as timm's pre_logits); vit_forward applies the head:
      class logits (DeiT: the mean of both heads' logits), or for CLIP towers
      (vit_config.projection) the projected image embedding, not normalised
      (HF image_embeds, open_clip encode_image).
      A MODEL FOLDER: vit_load(DIR) loads DIR/model.safetensors, or else
      DIR/model.safetensors.index.json (the index path may also be given
      itself): a sharded model as Hugging Face writes it, {"metadata": {...},
      "weight_map": {tensor: shard file}}. Shards are plain .safetensors file
      names beside the index (no '/', no '..'; at most VIT_MAX_SHARDS), each a
      valid safetensors file; every tensor in exactly one shard, the one the
      index names. config.json and preprocessor_config.json are read from the
      folder. A file that is not safetensors (an image, a torch.save zip, a
      JSON file) is refused as "not a safetensors file", naming what it looks
      like.

   LICENSE
      See end of file.

   RECENT REVISION HISTORY
      0.1.0 (2026-11-22) first release: safetensors loader, preprocessing, CPU and CUDA forward passes
      (unreleased)       the ViT families (DeiT, DINOv2, CLIP, SigLIP), any resolution; model folders, sharded models;
                         no guessed preprocessing (vit_config.preprocess_source; vit_options mean/std/interpolation/crop_pct);
                         CLIP and SigLIP text towers, zero-shot classification (vit_encode_ids, vit_image_embeds, vit_zero_shot)
*/

#ifndef VIT_H_INCLUDED
#define VIT_H_INCLUDED

#include <stddef.h>

#define VIT_VERSION_MAJOR 0
#define VIT_VERSION_MINOR 1
#define VIT_VERSION_PATCH 0
#define VIT_VERSION_STRING "0.1.0"

#ifndef VITDEF
#ifdef VIT_STATIC
#if defined(__GNUC__) || defined(__clang__)
#define VITDEF static __attribute__((unused)) // a private copy need not use every function
#else
#define VITDEF static
#endif
#else
#define VITDEF extern
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

// >>api
// The public interface: status codes, options, the model's config and every
// VITDEF call (loading, forward and embed, preprocessing and decoding).

typedef enum vit_status {
    VIT_OK = 0,
    VIT_ERROR_INVALID_ARGUMENT = -1, // NULL pointer, negative count, bad option
    VIT_ERROR_IO = -2,               // file cannot be opened or read
    VIT_ERROR_BAD_FORMAT = -3,       // not a valid safetensors file / config.json
    VIT_ERROR_UNSUPPORTED = -4,      // valid file, but a dtype or architecture we do not run
    VIT_ERROR_SHAPE_MISMATCH = -5,   // a tensor's shape disagrees with the architecture
    VIT_ERROR_MISSING_TENSOR = -6,   // a tensor the architecture needs is absent
    VIT_ERROR_OUT_OF_MEMORY = -7,    // host or device allocation failed
    VIT_ERROR_LIMIT = -8,            // a size exceeds a VIT_MAX_* limit
    VIT_ERROR_CUDA = -9,             // a CUDA call failed (message in vit_last_error)
    VIT_ERROR_IMAGE_DECODE = -10,    // an image could not be decoded
    VIT_STATUS_COUNT = 11            // number of statuses, VIT_OK included
} vit_status;

typedef enum vit_device {
    VIT_DEVICE_DEFAULT = 0, // CUDA when compiled by nvcc and a GPU is present, else CPU
    VIT_DEVICE_CPU,
    VIT_DEVICE_CUDA         // fails with VIT_ERROR_CUDA / VIT_ERROR_UNSUPPORTED when unavailable
} vit_device;

typedef enum vit_dtype {
    VIT_DTYPE_DEFAULT = 0, // fp32 on the CPU, bf16 on CUDA
    VIT_DTYPE_F32,
    VIT_DTYPE_BF16,        // CUDA: bf16/fp16 operands, fp32 accumulation and residual stream (see residual_dtype);
    VIT_DTYPE_F16,         // GELU to 1.2e-5 of erf GELU (under half an output ulp)
    VIT_DTYPE_INT8,        // CPU only: the blocks' linears in int8 (per-channel weights quantised at load,
                           // per-token activations at run time, int32 sums); VIT_ERROR_UNSUPPORTED on CUDA
    VIT_DTYPE_FP8          // the blocks' linears with e4m3 operands (per-channel weights, per-token activations;
                           // fc2's per token from a bound; fp32 sums; the residual stream bf16 unless residual_dtype says
                           // VIT_DTYPE_F32). CUDA: sm_90a only (wgmma e4m3; the rest bf16), else VIT_ERROR_UNSUPPORTED
                           // (VIT_DEVICE_DEFAULT: the CPU);
                           // CPU: the kernels' reference, emulated at fp32 speed, to check a model's fp8 accuracy
} vit_dtype;

typedef enum vit_pool {
    VIT_POOL_TOKEN = 0, // the class token (with a distillation token: the mean of the two)
    VIT_POOL_AVG,       // mean of the patch tokens
    VIT_POOL_MAP        // attention pooling: learned latent queries over all tokens (SigLIP MAP head)
} vit_pool;

typedef enum vit_act {
    VIT_ACT_GELU = 0,   // exact (erf) GELU: timm, HF 'gelu'
    VIT_ACT_GELU_TANH,  // tanh GELU: HF 'gelu_pytorch_tanh' / 'gelu_new', timm GELUTanh
    VIT_ACT_QUICK_GELU, // x sigmoid(1.702 x): OpenAI CLIP
    VIT_ACT_SWIGLU      // silu(gate) * up (DINOv2 giant): mlp_dim counts both halves
} vit_act;

// How vit_zero_shot turns a model's logits into probabilities: as the model was trained.
typedef enum vit_match {
    VIT_MATCH_NONE = 0, // no text tower
    VIT_MATCH_SOFTMAX,  // CLIP: logits logit_scale * cosine, probabilities their softmax over the labels
    VIT_MATCH_SIGMOID   // SigLIP: logits logit_scale * cosine + logit_bias, each label's probability its sigmoid
} vit_match;

typedef enum vit_interp {
    VIT_INTERP_BICUBIC = 0,
    VIT_INTERP_BILINEAR,
    VIT_INTERP_NEAREST
} vit_interp;

typedef enum vit_resize {
    VIT_RESIZE_SHORTER_CROP = 0, // timm: shorter side to floor(S / crop_pct), center crop S x S
    VIT_RESIZE_SQUARE,           // HF ViTImageProcessor, SiglipImageProcessor: straight to H x W (resize_shorter > 0: DeiT's square, then the crop; timm: squash)
    VIT_RESIZE_SHORTER_CROP_HF   // Hugging Face CLIPImageProcessor, BitImageProcessor: shortest edge, center crop (floored offsets)
} vit_resize;

// Where vit_config's preprocessing (mean, std, crop_pct, resize_shorter,
// interpolation, resize) came from; preprocess_from names the file(s).
typedef enum vit_preprocess_source {
    VIT_PREPROCESS_UNKNOWN = 0,       // not in the model's files: the calls that preprocess refuse (VIT_ERROR_UNSUPPORTED)
    VIT_PREPROCESS_FROM_TIMM_CONFIG,  // config.json's pretrained_cfg (timm)
    VIT_PREPROCESS_FROM_HF_PROCESSOR, // preprocessor_config.json (Hugging Face)
    VIT_PREPROCESS_FROM_OPTIONS       // the caller's vit_options (mean, std, interpolation, crop_pct, resize, resize_size)
} vit_preprocess_source;

typedef enum vit_source {
    VIT_SOURCE_TIMM = 0,
    VIT_SOURCE_HF
} vit_source;

typedef struct vit_allocator {
    void *(*alloc)(size_t size, void *user_data); // NULL: VIT_MALLOC
    void (*free)(void *ptr, void *user_data);     // NULL: VIT_FREE
    void *user_data;
} vit_allocator;

// Zero-initialised (or NULL) means all defaults.
typedef struct vit_options {
    int max_batch;          // images per internal batch; larger n is run in chunks (default: 8)
    int num_threads;        // CPU threads (default: all online cores; 1 without OpenMP)
    int num_heads;          // override the head count when no config says it (default: config, else C/64)
    vit_device device;      // (default: VIT_DEVICE_DEFAULT)
    int device_index;       // CUDA device ordinal (default: 0)
    vit_dtype dtype;        // compute dtype (default: fp32 on CPU, bf16 on CUDA)
    const char *config_path;// vit_load: config.json to read (default: "config.json" beside the model; "" = none)
    const char *config_json;// vit_load_memory: config.json text (default: none)
    size_t config_json_size;// bytes of config_json (default: strlen(config_json))
    vit_allocator allocator;// host allocator (default: VIT_MALLOC/VIT_FREE)
    int image_height;       // run at this input height, a multiple of the patch size (default: the checkpoint's; HF: the processor's crop)
    int image_width;        // likewise the width; the position embedding is resampled once, at load
    // The preprocessing, stated by the caller (for a model whose files do not say it: a Hugging Face folder
    // without preprocessor_config.json, a timm config.json without pretrained_cfg, no config.json). Stating
    // std (all three > 0) states the whole transform, replacing what the files say: the resize and center
    // crop to the input H x W (image_height/width: a Hugging Face processor's crop_size), then /255 and
    // (x - mean) / std. The other fields without std: VIT_ERROR_INVALID_ARGUMENT at load.
    float mean[3];          // per-channel mean of [0,1] pixels (default: the model's files; with std stated: 0)
    float std[3];           // per-channel std (default: the model's files)
    const char *interpolation;// "bicubic", "bilinear" or "nearest" (default: the model's files; with std stated: "bicubic")
    float crop_pct;         // "timm" and "square" without resize_size: center crop fraction in (0, 4] (default: 1)
    const char *resize;     // with std stated: "timm" (the default: timm's eval transform, the shorter side to
                            // floor(S / crop_pct), then the crop); "shortest_edge" (Hugging Face CLIPImageProcessor,
                            // BitImageProcessor (DINOv2): the shorter side to resize_size, then the crop, offsets
                            // floored); "square" (timm's 'squash': both sides to floor(S / crop_pct), then the crop;
                            // ViTImageProcessor, SiglipImageProcessor: crop_pct 1, straight to H x W; with resize_size,
                            // DeiTImageProcessor: to resize_size x resize_size, then the crop; a non-square input scales
                            // it by H / max(H, W) and W / max(H, W), as vit.h runs a DeiT processor at other sizes)
    int resize_size;        // the Hugging Face processor's size: "shortest_edge", or "height" (= "width") for "square"
    vit_dtype residual_dtype;// the residual stream x between the blocks (default: fp32; with dtype VIT_DTYPE_FP8 bf16,
                            // VIT_DTYPE_F32 keeping it fp32 there). VIT_DTYPE_BF16: x rounded
                            // to bf16 after the embedding and after each residual add, as a PyTorch model cast to
                            // bfloat16 keeps it: half the memory traffic of the adds and LayerNorms, faster at
                            // large batches on CUDA (with dtype bf16 or fp8 only: fp32/fp16 there fail with
                            // VIT_ERROR_UNSUPPORTED); the CPU runs the same rounding. Other dtypes: UNSUPPORTED
} vit_options;

typedef struct vit_config {
    int image_size;     // S when the input is square, else 0 (use image_height/image_width)
    int image_height;   // the input the model runs at (vit_options.image_height, else the checkpoint's)
    int image_width;
    int native_height;  // the checkpoint's own input size (its position embedding's grid times P)
    int native_width;
    int patch_size;     // P
    int in_chans;       // image channels
    int dim;            // C
    int depth;          // transformer blocks
    int num_heads;      // H
    int mlp_dim;        // M
    int num_classes;    // K (0: no head, only vit_embed works)
    int num_tokens;     // N = (H/P)(W/P) + num_prefix
    int num_prefix;     // tokens before the patches: class, distillation and register tokens, in that order
    int class_token;    // 1 when a class token is prepended
    int distilled;      // 1 when a distillation token follows it (DeiT: logits = mean of two heads)
    int num_registers;  // register tokens (DINOv2 with registers)
    int pos_embed_class;// 1 when the position embedding also covers the class token (timm no_embed_class=False, HF)
    vit_pool pool;      // pre-logits pooling
    int fc_norm;        // 1: LayerNorm after pooling (timm 'avg'), 0: LayerNorm before pooling
    int pre_norm;       // 1: LayerNorm before the blocks (timm norm_pre, CLIP style)
    int layer_scale;    // 1: blocks scale their branches (timm ls1/ls2, HF DINOv2 layer_scale)
    int qk_norm;        // 1: LayerNorm on each head's queries and keys (timm qk_norm)
    vit_act act;        // the MLP's activation
    int projection;     // 1: the head is an image projection (CLIP): vit_forward gives embeddings, not logits
    float eps;          // LayerNorm epsilon (timm 1e-6, timm CLIP 1e-5, HF from config.json)
    float mean[3];      // preprocessing: per-channel mean of [0,1] pixels
    float std[3];       // preprocessing: per-channel std
    float crop_pct;     // preprocessing: center crop fraction (timm), crop / shortest edge for HF
    int resize_shorter; // preprocessing, HF processors with a crop: their shortest edge (CLIP, Bit) or square size (DeiT) before it
    vit_interp interpolation; // preprocessing: resize filter
    vit_resize resize;  // preprocessing: resize mode
    vit_source source;  // naming the weights came with
    vit_preprocess_source preprocess_source; // where the preprocessing fields above came from
    char preprocess_from[64]; // the file(s) they came from ("config.json pretrained_cfg", "preprocessor_config.json",
                        // "vit_options"); VIT_PREPROCESS_UNKNOWN: the file that would have said it, which is missing
                        // ("preprocessor_config.json", "config.json pretrained_cfg", "config.json")
    int has_labels;     // 1 when config.json carried class names
    vit_device device;  // where the forward pass runs
    vit_dtype dtype;    // compute dtype in use
    vit_dtype residual_dtype; // the residual stream's: VIT_DTYPE_F32 or VIT_DTYPE_BF16 (vit_options.residual_dtype)
    int openmp;         // 1 when vit.h was compiled with OpenMP (-fopenmp; nvcc: -Xcompiler -fopenmp), 0 without:
                        // then the CPU path and the host-side copies of vit_forward run on one thread
    int num_threads;    // CPU threads the forward pass uses (vit_options.num_threads; 1 without OpenMP)
    char architecture[64]; // the model's name as its config.json gives it: Hugging Face "architectures"[0]
                        // (e.g. "Dinov2Model", "CLIPVisionModelWithProjection"; without that key, "model_type"),
                        // timm "architecture" (e.g. "vit_small_patch14_dinov2"; source says which); "" when no
                        // config.json names it (none given). NUL-terminated; a longer name is cut at 63 bytes
    // The text tower of a full CLIPModel / SiglipModel file (zero for any other model): vit_encode_ids, vit_zero_shot
    int has_text;       // 1: the file's text tower is loaded
    int text_context;   // L: ids per text (text_config's max_position_embeddings: CLIP 77, SigLIP 64)
    int text_vocab;     // the ids' range: [0, text_vocab)
    int embed_dim;      // E: the shared embedding width (vit_encode_ids' and vit_image_embeds' outputs)
    vit_match match;    // how vit_zero_shot scores (VIT_MATCH_NONE without a text tower)
    float logit_scale;  // exp of the file's logit_scale: the cosines' multiplier
    float logit_bias;   // SigLIP's logit_bias (CLIP: 0)
} vit_config;

typedef struct vit_model vit_model;

// Loads a model from a .safetensors file (and the config.json beside it, if any),
// or from a folder: its model.safetensors, else its model.safetensors.index.json
// and the shards it names (see FILE FORMAT). opts may be NULL. On success *out is a new model; on failure *out is NULL and a
// negative status is returned (detail: vit_last_error(NULL)).
#ifndef VIT_NO_STDIO
VITDEF vit_status vit_load(const char *safetensors_path, const vit_options *opts, vit_model **out);
#endif

// Like vit_load, from safetensors bytes in memory (copied; data may be freed
// afterwards). config.json text may be given in opts->config_json.
VITDEF vit_status vit_load_memory(const void *data, size_t size, const vit_options *opts, vit_model **out);

// Frees a model and everything it owns. NULL is allowed.
VITDEF void vit_free(vit_model *m);

// The model's configuration; NULL if m is NULL.
VITDEF const vit_config *vit_model_config(const vit_model *m);

// Runs n images (n x in_chans x S x S floats, already normalised) and writes
// n x num_classes logits. Any n >= 1 works (run in chunks of max_batch).
// Returns VIT_ERROR_INVALID_ARGUMENT for NULL pointers, n < 1 or a model with no head.
VITDEF vit_status vit_forward(vit_model *m, const float *images, int n, float *logits);

// Like vit_forward, but writes the n x dim pre-logits features (after the final
// norm and pooling).
VITDEF vit_status vit_embed(vit_model *m, const float *images, int n, float *features);

// Runs on the GPU, asynchronously on the caller's CUDA stream (a cudaStream_t
// passed as void*; NULL = the default stream): device_images and device_out are
// device pointers. Returns when the work is queued; synchronise the stream
// before reading device_out. VIT_ERROR_UNSUPPORTED when the model is not on a
// CUDA device (or vit.h was compiled without CUDA).
VITDEF vit_status vit_forward_async(vit_model *m, const float *device_images, int n, float *device_logits, void *cuda_stream);
VITDEF vit_status vit_embed_async(vit_model *m, const float *device_images, int n, float *device_features, void *cuda_stream);

// Dense features: the tokens of chosen blocks, what segmentation, depth and
// tracking heads and vision-language models consume. The semantics are timm's
// forward_intermediates(indices, norm, output_fmt, return_prefix_tokens) and
// transformers' hidden_states[k + 1].
typedef enum vit_layout {
    VIT_LAYOUT_TOKENS = 0, // [n, T, C] per block: prefix tokens (class, distillation, registers), then the patches row-major (timm 'NLC')
    VIT_LAYOUT_GRID        // [n, C, h, w] per block, the patch tokens (timm 'NCHW'); kept prefix tokens follow as [n, num_prefix, C]
} vit_layout;

// Zero-initialised (or NULL) means: the last block, raw, with prefix tokens, tokens layout, fp32.
typedef struct vit_features_spec {
    const int *blocks;   // block indices, Python-style: 0 = the first block's output, -1 = the last, -2 = the one before
    int num_blocks;      // entries in blocks; 0 = {-1}. Distinct, each in [-depth, depth); any order (output in this order)
    int norm;            // 1: the model's final norm applied to each block's tokens (timm norm=True; transformers: DINOv2's
                         // layernorm, CLIP's and SigLIP's post_layernorm); identity for a model whose norm comes after
                         // pooling (timm fc_norm, 'avg' pooling), as timm's is
    int drop_prefix;     // 1: only the patch tokens
    vit_layout layout;
    vit_dtype out_dtype; // VIT_DTYPE_DEFAULT / VIT_DTYPE_F32: float; VIT_DTYPE_BF16: bf16 (the *_async calls on CUDA only)
} vit_features_spec;

// The output of the features calls for spec: one image's values per block into
// *per_block (shape, if not NULL: TOKENS {T, C, 0, 0}, GRID {C, h, w, kept
// prefix tokens}), and the blocks resolved to non-negative indices into
// blocks_out (if not NULL; num_blocks entries). The whole output of n images is
// num_blocks x n x per_block values, block after block: a block's [n, T, C]
// tokens, or its [n, C, h, w] grid and then, kept, its [n, P, C] prefix tokens
// (timm's pair). Fails with VIT_ERROR_INVALID_ARGUMENT naming what is wrong: a
// block out of range, a negative count or a repeated block, a grid of a patch
// count that is no rectangle, bf16 output of a model not on CUDA.
VITDEF vit_status vit_features_shape(vit_model *m, const vit_features_spec *spec, int shape[4], size_t *per_block, int *blocks_out);

// The tokens of spec's blocks for n images (as vit_embed takes them) into out
// (num_blocks x n x per_block floats; host memory). The forward pass stops
// after the deepest block asked for. out_capacity: floats out can hold; a
// smaller one fails with VIT_ERROR_INVALID_ARGUMENT before anything runs.
VITDEF vit_status vit_features(vit_model *m, const float *images, int n, const vit_features_spec *spec, float *out, size_t out_capacity);
// The same from 8-bit frames (as vit_embed_rgb8 takes them).
VITDEF vit_status vit_features_rgb8(vit_model *m, const unsigned char *frames, int n, int width, int height, int stride, int channels,
                                    const vit_features_spec *spec, float *out, size_t out_capacity);
// On the GPU, queued on the caller's stream (as vit_embed_async): device
// images or frames in, device_out (fp32, or bf16 when spec->out_dtype says)
// out; out_capacity counts its elements.
VITDEF vit_status vit_features_async(vit_model *m, const float *device_images, int n, const vit_features_spec *spec, void *device_out,
                                     size_t out_capacity, void *cuda_stream);
VITDEF vit_status vit_features_rgb8_async(vit_model *m, const unsigned char *device_frames, int n, int width, int height, int stride, int channels,
                                          const vit_features_spec *spec, void *device_out, size_t out_capacity, void *cuda_stream);

// ---- Text towers (full CLIPModel / SiglipModel files): zero-shot classification
// The text tower is transformers' CLIPTextModel or SiglipTextModel: token and
// position embeddings, the pre-norm blocks (CLIP's with a causal mask), the
// final LayerNorm, one token pooled (CLIP: the first eos_token_id, or with
// text_config's legacy eos_token_id 2 the largest id, the first if tied;
// SigLIP: the last token, padding or not), then text_projection (CLIP) or the
// head (SigLIP). Run as transformers runs it from input_ids alone: CLIP's
// padding mask does not change the pooled token (padding follows it), and
// SigLIP was trained without one (SiglipModel given an attention_mask gives
// other embeddings). On a CUDA model the text tower runs on the CPU in fp32.

// Encodes n texts given as token ids (n x text_context ints: each text as the
// model's tokenizer makes it, padded to the context: tokenizer(texts,
// padding="max_length")["input_ids"]) into out (n x embed_dim floats): the
// L2-normalised text embeddings (transformers' text_embeds). Fails with
// VIT_ERROR_INVALID_ARGUMENT (NULL pointers, n < 1, a model without a text
// tower, an id outside [0, text_vocab), a CLIP text without its
// eos_token_id: text and position in vit_last_error), before anything runs.
VITDEF vit_status vit_encode_ids(vit_model *m, const int *ids, int n, float *out);

// The image embeddings the text embeddings are compared with, L2-normalised,
// for n images (as vit_forward takes them) into out (n x embed_dim): CLIP's
// visual projection of vit_embed's features (vit_forward's output), SigLIP's
// pooled features (vit_embed's). The errors of vit_forward, and
// VIT_ERROR_INVALID_ARGUMENT for a model without a text tower.
VITDEF vit_status vit_image_embeds(vit_model *m, const float *images, int n, float *out);

// Zero-shot classification of n images against k labels, as CLIPModel /
// SiglipModel compute logits_per_image: image_embeds (n x embed_dim) and
// label_embeds (k x embed_dim; normalised or not: both are normalised here,
// in double) give logits[i][j] = logit_scale * cosine (+ logit_bias: SigLIP)
// and probs[i][j]: vit_config.match's softmax over the k labels (CLIP) or each
// logit's sigmoid (SigLIP). Compute the label embeddings once (vit_encode_ids)
// and reuse them for every frame. logits or probs may be NULL (not both).
// Needs no weights (a vit_clone_preprocessor handle works). Fails with
// VIT_ERROR_INVALID_ARGUMENT (NULL pointers, n or k < 1, no text tower).
VITDEF vit_status vit_zero_shot(vit_model *m, const float *image_embeds, int n, const float *label_embeds, int k, float *logits, float *probs);

// A static description of s; never NULL.
VITDEF const char *vit_status_string(vit_status s);

// Detail of m's last failure ("" if none). With m == NULL: the calling thread's
// last failed load. Never NULL. Valid until the next call on m / the next load.
VITDEF const char *vit_last_error(const vit_model *m);

// Class name of class i from config.json (label_names / id2label), or "class_<i>"
// when the config had none. "" if m is NULL or i is out of range.
VITDEF const char *vit_label(const vit_model *m, int i);

// The options that a load would use for opts (zero fields replaced by defaults).
VITDEF vit_options vit_query_defaults(const vit_options *opts);

// Preprocesses 8-bit pixels (width x height, `channels` interleaved: 1 gray,
// 2 gray+alpha, 3 RGB, 4 RGBA; stride = bytes per row, 0 = packed) into out
// (in_chans x H x W floats, H x W = image_height x image_width) exactly as the
// model's eval transform: timm's Resize(floor(S / crop_pct)) (ResizeKeepRatio
// for non-square sizes) + CenterCrop, or the HF processor's resize (and
// center crop, floored offsets: CLIP, DINOv2's Bit, DeiT), with PIL's
// resampling, then /255 and mean/std. Alpha is dropped; 1-channel models
// get PIL's luminance. Returns VIT_ERROR_INVALID_ARGUMENT / VIT_ERROR_LIMIT /
// VIT_ERROR_OUT_OF_MEMORY, and VIT_ERROR_UNSUPPORTED (naming the missing file)
// when the model's files do not state its preprocessing and vit_options did not
// either (vit_config.preprocess_source VIT_PREPROCESS_UNKNOWN); so do every call
// below that preprocesses (memory, file, classify, embed_file, *_rgb8*).
VITDEF vit_status vit_preprocess_rgb8(vit_model *m, const unsigned char *pixels, int width, int height, int stride, int channels, float *out);

// A handle that only preprocesses: m's eval transform (its config, a copy),
// no weights, nothing shared with m. vit.h lets one thread use a model at a
// time; with one of these per thread, threads run vit_preprocess_* in parallel
// with each other and with m's forward passes (see examples/classify.c). The
// forward calls refuse it (VIT_ERROR_INVALID_ARGUMENT). Free it with vit_free.
VITDEF vit_status vit_clone_preprocessor(const vit_model *m, vit_model **out);

// 8-bit frames straight to outputs: n frames of width x height, 1-4 channels as
// vit_preprocess_rgb8 takes them, rows stride bytes apart (0 = packed), the
// frames one after another (frame i at frames + i * height * stride). Each
// goes through the model's eval transform (vit_preprocess_rgb8) and the
// forward pass: logits (vit_forward_rgb8) or features (vit_embed_rgb8), the
// same bits as vit_preprocess_rgb8 + vit_forward. On a CUDA model the
// transform runs on the GPU, and host frames are copied in through pinned
// buffers in chunks that overlap the previous chunk's compute; frames in
// page-locked memory (cudaHostAlloc, cudaHostRegister) skip that copy, the
// DMA reads them in place, as does vit_forward for such images (frames may
// also be device memory; outputs are host memory). On the CPU: the CPU path.
VITDEF vit_status vit_forward_rgb8(vit_model *m, const unsigned char *frames, int n, int width, int height, int stride, int channels, float *logits);
VITDEF vit_status vit_embed_rgb8(vit_model *m, const unsigned char *frames, int n, int width, int height, int stride, int channels, float *features);
// The same on the GPU from device frames to device outputs, queued on the
// caller's stream (as vit_forward_async). A new frame size costs one
// synchronous upload of its resampling taps (and may grow a device buffer).
VITDEF vit_status vit_forward_rgb8_async(vit_model *m, const unsigned char *device_frames, int n, int width, int height, int stride, int channels,
                                         float *device_logits, void *cuda_stream);
VITDEF vit_status vit_embed_rgb8_async(vit_model *m, const unsigned char *device_frames, int n, int width, int height, int stride, int channels,
                                       float *device_features, void *cuda_stream);

// An image a vit_image_decoder made: 8-bit samples, interleaved, rows stride
// bytes apart (0 = width * channels); channels 1 gray, 2 gray+alpha, 3 RGB,
// 4 RGBA (alpha is dropped, as Image.convert('RGB') does). `owner` is for the
// decoder: vit.h hands the struct back to vit_image_decoder.free unchanged.
typedef struct vit_image {
    const unsigned char *pixels; // first row
    int width, height, channels, stride;
    void *owner;                 // what free needs (often the pixels' own allocation)
} vit_image;

// A user decoder for formats vit.h does not decode itself (WebP, TIFF, HEIF...),
// tried before vit.h's own decoders (see examples/webp_hook.c):
//   decode: 1 = decoded into *img, 0 = not my format (vit.h decodes it), -1 = my
//     format but broken (VIT_ERROR_IMAGE_DECODE, with the `message` the decoder
//     wrote, at most VIT_IMAGE_MESSAGE_LEN bytes, or "decoder hook failed").
//   free: called once for every image decode returned 1 for (may be NULL).
// Zero-initialised = no hook. vit.h checks the image it is handed (size limits,
// channels, stride) and never writes to its pixels.
#define VIT_IMAGE_MESSAGE_LEN 128
typedef struct vit_image_decoder {
    int (*decode)(const void *data, size_t size, vit_image *img, char *message, void *user_data);
    void (*free)(vit_image *img, void *user_data);
    void *user_data;
} vit_image_decoder;

// Like vit_preprocess_memory (below), trying decoder first (NULL or zeroed =
// none); the same failures. With VIT_NO_STB_IMAGE these two still work: the
// hook, then vit.h's own BMP and PNM decoders (other formats: refused).
VITDEF vit_status vit_preprocess_memory_with(vit_model *m, const void *data, size_t size, const vit_image_decoder *decoder, float *out);
#ifndef VIT_NO_STDIO
// Like vit_preprocess_memory_with, from a file (VIT_ERROR_IO if unreadable).
VITDEF vit_status vit_preprocess_file_with(vit_model *m, const char *path, const vit_image_decoder *decoder, float *out);
#endif

// Decodes without preprocessing: the 8-bit pixels vit_preprocess_memory_with
// would preprocess (PIL's, as it documents), into *img (packed rows, 1-4
// channels; decoder first, NULL = none), for vit_preprocess_rgb8 or, batched
// by size, vit_forward_rgb8 (the resize then runs on the GPU). The same
// failures as vit_preprocess_memory_with; on failure *img is zeroed. Free the
// pixels with vit_image_free(m, img).
VITDEF vit_status vit_decode_memory(vit_model *m, const void *data, size_t size, const vit_image_decoder *decoder, vit_image *img);
#ifndef VIT_NO_STDIO
VITDEF vit_status vit_decode_file(vit_model *m, const char *path, const vit_image_decoder *decoder, vit_image *img);
#endif
VITDEF void vit_image_free(vit_model *m, vit_image *img);

#ifndef VIT_NO_STB_IMAGE
// Decodes an encoded image and preprocesses it into out (in_chans x H x W),
// giving the pixels PIL's Image.open(f).convert('RGB') (or 'L') gives: PNG,
// JPEG (within 4/255, see README), GIF (first frame), BMP (all of PIL's BMP
// variants: RLE4/RLE8, OS/2, bitfields), TGA, PNM (P1-P6, any maxval); other
// formats (PSD, HDR, PIC, WebP, TIFF) need vit_preprocess_memory_with's hook.
// Fails with VIT_ERROR_IMAGE_DECODE (undecodable or unsupported, with the
// reason), VIT_ERROR_LIMIT (too many pixels, checked before decoding) or
// VIT_ERROR_OUT_OF_MEMORY (the decoder's too).
VITDEF vit_status vit_preprocess_memory(vit_model *m, const void *data, size_t size, float *out);
#ifndef VIT_NO_STDIO
// Like vit_preprocess_memory, from a file (VIT_ERROR_IO if unreadable).
VITDEF vit_status vit_preprocess_file(vit_model *m, const char *path, float *out);
// Classifies one image file: the k most probable classes (softmax of the
// logits) into classes[0..k) and probs[0..k), most probable first. k is clamped
// to the class count; probs may be NULL.
VITDEF vit_status vit_classify_file(vit_model *m, const char *path, int k, int *classes, float *probs);
// Embeds one image file: vit_preprocess_file then vit_embed, the dim features
// into out[0..dim). Works with or without a classifier head. Fails with
// VIT_ERROR_INVALID_ARGUMENT (NULL m, path or out), vit_preprocess_file's
// errors (VIT_ERROR_IO, VIT_ERROR_IMAGE_DECODE, ...), VIT_ERROR_OUT_OF_MEMORY,
// or vit_embed's; out is then unspecified.
VITDEF vit_status vit_embed_file(vit_model *m, const char *path, float *out);
#endif
#endif

// Indices of the k largest of values[0..n) in descending order (ties: lower index
// first). k is clamped to n. Returns the number written, 0 on bad arguments.
VITDEF int vit_topk(const float *values, int n, int k, int *indices);

// Softmax of n values in place (max-subtracted). No-op on bad arguments.
VITDEF void vit_softmax(float *values, int n);

#ifdef __cplusplus
}
#endif

#endif // VIT_H_INCLUDED
// end header file /////////////////////////////////////////////////////////////

#ifdef VIT_IMPLEMENTATION
#ifndef VIT_IMPLEMENTATION_INCLUDED
#define VIT_IMPLEMENTATION_INCLUDED

#include <stdint.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <limits.h>
#include <float.h>
#include <stdio.h> // snprintf: VIT_NO_STDIO removes only the file access
#ifdef _OPENMP
#include <omp.h>
#endif
#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#endif

#if defined(VIT_MALLOC) && defined(VIT_FREE)
#elif !defined(VIT_MALLOC) && !defined(VIT_FREE)
#define VIT_MALLOC(sz) malloc(sz)
#define VIT_FREE(p) free(p)
#else
#error "Must define both or none of VIT_MALLOC and VIT_FREE"
#endif

#ifndef VIT_ASSERT
#include <assert.h>
#define VIT_ASSERT(x) assert(x)
#endif

#ifndef VIT_MAX_HEADER_BYTES
#define VIT_MAX_HEADER_BYTES (100u * 1000u * 1000u)
#endif
#ifndef VIT_MAX_DIM
#define VIT_MAX_DIM 65536
#endif
#ifndef VIT_MAX_DEPTH
#define VIT_MAX_DEPTH 256
#endif
#ifndef VIT_MAX_TOKENS
#define VIT_MAX_TOKENS 16385
#endif
#ifndef VIT_MAX_BATCH
#define VIT_MAX_BATCH 65536
#endif
#ifndef VIT_MAX_IMAGE_SIDE
#define VIT_MAX_IMAGE_SIDE 32768
#endif
#ifndef VIT_MAX_IMAGE_PIXELS
#define VIT_MAX_IMAGE_PIXELS (1 << 26)
#endif
#ifndef VIT_MAX_SHARDS
#define VIT_MAX_SHARDS 1024
#endif
#ifndef VIT_MAX_VOCAB
#define VIT_MAX_VOCAB (1 << 20)
#endif
#define VIT__MAX_JSON_DEPTH 64
#define VIT__ERR_LEN 512

#if defined(__CUDACC__) && !defined(VIT_NO_CUDA)
#define VIT__CUDA 1
#endif

#if defined(__cplusplus) && __cplusplus >= 201103L
#define VIT__STATIC_ASSERT(c, msg) static_assert(c, msg)
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define VIT__STATIC_ASSERT(c, msg) _Static_assert(c, msg)
#else
#define VIT__STATIC_ASSERT(c, msg) (void)sizeof(char[(c) ? 1 : -1])
#endif

#if defined(_MSC_VER)
#define VIT__THREAD_LOCAL __declspec(thread)
#elif defined(__cplusplus) && __cplusplus >= 201103L
#define VIT__THREAD_LOCAL thread_local
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define VIT__THREAD_LOCAL _Thread_local
#else
#define VIT__THREAD_LOCAL __thread
#endif

// >>util ----------------------------------------------------------------------
// What the other sections share: the model struct and its blocks' weights,
// allocation, error records, option defaults, top-k and softmax.

#if defined(__CUDACC__)
#define VIT__HD __host__ __device__ // math shared by the CPU and the kernels: epilogues, the resampler's taps
#else
#define VIT__HD
#endif

#ifdef VIT__CUDA
typedef struct vit__cuda_state vit__cuda_state;
#endif

// GEMM epilogues (see >>forward): an output mode times an activation
typedef enum vit__out {
    VIT__OUT_STORE = 0, // out = act(x W + b) (on the GPU in the compute dtype)
    VIT__OUT_RESIDUAL,  // out (fp32) += scale * act(x W + b)   (scale NULL = 1)
    VIT__OUT_PATCH,     // GPU: fp32 patch tokens into x's rows after the prefix tokens, + pos
    VIT__OUT_PARTIAL    // GPU split-K: one K slice's raw fp32 sums; the epilogue runs when the slices are added
} vit__out;

typedef enum vit__act {
    VIT__ACT_NONE = 0,
    VIT__ACT_GELU,       // exact erf GELU (timm, HF 'gelu')
    VIT__ACT_GELU_TANH,  // tanh GELU (HF 'gelu_pytorch_tanh', timm 'gelu_tanh')
    VIT__ACT_QUICK_GELU, // x sigmoid(1.702 x) (OpenAI CLIP)
    VIT__ACT_SWIGLU,     // silu(gate) * up over column pairs (gate, up): half as many outputs
    VIT__ACT_COUNT
} vit__act;

// A quantised linear weight (VIT_DTYPE_INT8): see vit__q8_make.
typedef struct vit__q8 {
    const signed char *w; // (Npad / 16) panels of Kpad / 4 groups x 16 columns x 4 bytes
    const float *scale;   // (Npad) s_w, 0 past N
    const int *colsum;    // (Npad) sum_k q[k, n]: VNNI multiplies unsigned bytes, reads qx + 128 and subtracts 128 colsum
    int K, N;
} vit__q8;

typedef struct vit__block {
    float *ln1_w, *ln1_b;   // (C)
    float *qkv_w;           // (C, 3C) -- transposed: in x out (the four linears: NULL in an int8 model, e4m3 values in fp8)
    float *qkv_b;           // (3C)
    float *qn_w, *qn_b;     // (D) LayerNorm of each head's queries (qk-norm), or NULL
    float *kn_w, *kn_b;     // (D) and keys
    float *proj_w;          // (C, C)
    float *proj_b;          // (C)
    float *ls1, *ls2;       // (C) layer scale, NULL when absent
    float *ln2_w, *ln2_b;   // (C)
    float *fc1_w;           // (C, M)
    float *fc1_b;           // (M)
    float *fc2_w;           // (M, C)
    float *fc2_b;           // (C)
    vit__q8 qkv_q8, proj_q8, fc1_q8, fc2_q8; // VIT_DTYPE_INT8: the four linears quantised
    float *qkv_sw, *proj_sw, *fc1_sw, *fc2_sw; // VIT_DTYPE_FP8: the four linears' column scales (their weights hold e4m3 values)
    float fc1_bw, fc1_bb;   // VIT_DTYPE_FP8: fc1's largest column norm and |bias| (vit__e4m3_bound_scale)
} vit__block;

// Attention pooling (SigLIP's MAP head): the first latent query attends over
// all tokens, then proj, and a residual MLP on a LayerNorm of the result.
typedef struct vit__map {
    float *q;               // (C) the latent's query projection (input-independent: computed at load)
    float *kv_w, *kv_b;     // (C, 2C), (2C) keys then values
    float *proj_w, *proj_b; // (C, C), (C)
    float *norm_w, *norm_b; // (C)
    float *fc1_w, *fc1_b;   // (C, Mm), (Mm)
    float *fc2_w, *fc2_b;   // (Mm, C), (C)
    int mlp_dim;            // Mm
} vit__map;

struct vit_model {
    vit_config cfg;
    vit_allocator alloc;
    int max_batch;          // B of every scratch buffer
    int num_threads;
    int cpu_isa;            // the CPU GEMM's microkernels (VIT__ISA_*), weights packed for them; VIT__ISA_REFERENCE on a GPU
    int q8_isa;             // VIT_DTYPE_INT8: the int8 GEMM's kernels
    void *q8_store;         // VIT_DTYPE_INT8: quantised weights, then the quantised activations q8_rows / q8_scale
    unsigned char *q8_rows; // (B * N, Kpad) an int8 GEMM's input rows
    float *q8_scale;        // (B * N) their scales
    float *e4m3_store;      // VIT_DTYPE_FP8 (CPU): the blocks' column scales, then e4m3_acc and e4m3_sx
    float *e4m3_acc;        // (B * N, max(3C, M)) a linear's sums before scales and epilogue
    float *e4m3_sx;         // (B * N) its input rows' scales (fc2 after SwiGLU: (B * N, ceil(hidden / 128)), per 128 columns)
    int preprocess_only;    // vit_clone_preprocessor's handle: no weights
    char error[VIT__ERR_LEN];

    float *weights;         // one allocation holding every tensor below (an int8 model's without the blocks' linears)
    size_t weights_count;   // floats in weights
    float *patch_w;         // (Cin*P*P, C)
    float *patch_b;         // (C)
    float *prefix;          // (P, C) prefix tokens (class, distillation, registers) with their position rows added, or NULL
    int num_prefix;         // P: tokens before the patches
    float *pos_embed;       // (N - P, C) the patches' rows at the grid the model runs at (the prefix tokens' are folded into prefix)
    float *pre_norm_w, *pre_norm_b; // (C) or NULL
    vit__block *blocks;     // (depth)
    float *norm_w, *norm_b; // (C) or NULL (identity when fc_norm is used)
    float *fc_norm_w, *fc_norm_b; // (C) or NULL
    float *head_w;          // (heads, C, K) or NULL
    float *head_b;          // (heads, K)
    vit__map map;           // VIT_POOL_MAP only
    int num_head;           // heads whose logits are averaged: 1 (2: DeiT's class and distillation heads)
    vit__act act;           // the MLP's activation (SwiGLU: fc1 columns in (gate, up) pairs, M = 2 x hidden)

    // A text tower (m->text of a full CLIP / SigLIP model) is a model of its own whose input step embeds
    // token ids (tok_embed, pos_embed: N = the context) where an image model's embeds patches, and whose
    // pooling step takes one token per text (text_pool); the blocks and the head (the projection) are shared code.
    struct vit_model *text; // the text tower, or NULL
    float *tok_embed;       // (V, C) token embedding, or NULL: an image model
    int vocab;              // V
    int causal;             // 1: causal attention (CLIP's text tower)
    int text_pool;          // VIT__TEXT_POOL_*: which token a text is pooled at
    int eos_id;             // VIT__TEXT_POOL_EOS: the token id pooled at
    float logit_scale, logit_bias; // the file's (logit_scale as stored: its exp is the multiplier)

    char **labels;          // (K) or NULL
    char *label_text;       // storage for labels

    float *scratch;         // one allocation for the activations below
    float *x;               // (B, N, C) residual stream
    float *xn;              // (B, N, C) normed / patch tokens
    float *attn;            // (B, N, C) attention output
    float *big;             // (B, N, max(3C, M)) qkv or mlp hidden; also im2col patches
    float *att_scratch;     // (threads, (VIT__MB + 2 D) N) attention scores, K^T and V
    float *pooled;          // (heads, B, C), then with heads > 1 their mean (B, C)
#ifdef VIT__CUDA
    vit__cuda_state *cuda;
#endif
};

// A text tower's pooled token (vit__text_pool_at): transformers' CLIPTextTransformer
// and SiglipTextTransformer.
enum {
    VIT__TEXT_POOL_EOS = 0, // CLIP: the first eos_id
    VIT__TEXT_POOL_ARGMAX,  // CLIP with the legacy eos_token_id 2: the largest id (the first if tied)
    VIT__TEXT_POOL_LAST     // SigLIP: the last token
};

static VIT__THREAD_LOCAL char vit__load_error[VIT__ERR_LEN];

static void *vit__malloc(const vit_allocator *a, size_t size) {
    if (size == 0) size = 1;
    if (a && a->alloc) return a->alloc(size, a->user_data);
    return VIT_MALLOC(size);
}

static void vit__free(const vit_allocator *a, void *p) {
    if (!p) return;
    if (a && a->free) { a->free(p, a->user_data); return; }
    VIT_FREE(p);
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 3, 4)))
#endif
static vit_status vit__fail(char *err, vit_status st, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, VIT__ERR_LEN, fmt, ap);
    va_end(ap);
    return st;
}

// a*b into *out; 0 on overflow
static int vit__mul(size_t a, size_t b, size_t *out) {
    if (a != 0 && b > SIZE_MAX / a) return 0;
    *out = a * b;
    return 1;
}

static int vit__mul3(size_t a, size_t b, size_t c, size_t *out) {
    size_t t;
    return vit__mul(a, b, &t) && vit__mul(t, c, out);
}

VITDEF const char *vit_status_string(vit_status s) {
    VIT__STATIC_ASSERT(VIT_STATUS_COUNT == 11, "update vit_status_string");
    switch (s) {
    case VIT_OK: return "ok";
    case VIT_ERROR_INVALID_ARGUMENT: return "invalid argument";
    case VIT_ERROR_IO: return "i/o error";
    case VIT_ERROR_BAD_FORMAT: return "bad format";
    case VIT_ERROR_UNSUPPORTED: return "unsupported";
    case VIT_ERROR_SHAPE_MISMATCH: return "shape mismatch";
    case VIT_ERROR_MISSING_TENSOR: return "missing tensor";
    case VIT_ERROR_OUT_OF_MEMORY: return "out of memory";
    case VIT_ERROR_LIMIT: return "limit exceeded";
    case VIT_ERROR_CUDA: return "cuda error";
    case VIT_ERROR_IMAGE_DECODE: return "image decode error";
    default: return "unknown status";
    }
}

VITDEF const char *vit_last_error(const vit_model *m) {
    return m ? m->error : vit__load_error;
}

static int vit__online_cores(void) {
#if defined(_OPENMP)
    return omp_get_num_procs();
#elif defined(_SC_NPROCESSORS_ONLN)
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
#else
    return 1;
#endif
}

#define vit__def(val, def) (((val) == 0) ? (def) : (val))

VITDEF vit_options vit_query_defaults(const vit_options *opts) {
    vit_options o;
    memset(&o, 0, sizeof(o));
    if (opts) o = *opts;
    o.max_batch = vit__def(o.max_batch, 8);
    o.num_threads = vit__def(o.num_threads, vit__online_cores());
#ifndef _OPENMP
    o.num_threads = 1;
#endif
    if (o.config_json && o.config_json_size == 0) o.config_json_size = strlen(o.config_json);
    return o;
}

VITDEF int vit_topk(const float *values, int n, int k, int *indices) {
    if (!values || !indices || n <= 0 || k <= 0) return 0;
    if (k > n) k = n;
    // insertion into a sorted prefix: k is small (top-5), n is the class count
    int have = 0;
    for (int i = 0; i < n; i++) {
        float v = values[i];
        if (v != v) continue; // NaN never ranks
        if (have == k && !(v > values[indices[k - 1]])) continue;
        int j = have < k ? have++ : k - 1;
        while (j > 0 && v > values[indices[j - 1]]) { indices[j] = indices[j - 1]; j--; }
        indices[j] = i;
    }
    for (int i = 0; have < k && i < n; i++) // only NaNs left: fill in index order
        if (values[i] != values[i]) indices[have++] = i;
    return have;
}

VITDEF void vit_softmax(float *values, int n) {
    if (!values || n <= 0) return;
    float mx = values[0];
    for (int i = 1; i < n; i++) if (values[i] > mx) mx = values[i];
    double sum = 0.0;
    for (int i = 0; i < n; i++) { values[i] = expf(values[i] - mx); sum += values[i]; }
    for (int i = 0; i < n; i++) values[i] = (float)(values[i] / sum);
}

// >>json ----------------------------------------------------------------------
// A strict RFC 8259 parser into a flat node array (children linked by index).
// Strings stay escaped in the source; vit__json_str decodes on demand.

typedef enum vit__jtype { VIT__J_NULL, VIT__J_FALSE, VIT__J_TRUE, VIT__J_NUM, VIT__J_STR, VIT__J_ARR, VIT__J_OBJ } vit__jtype;

typedef struct vit__jnode {
    vit__jtype type;
    int first_child; // -1 if none; for objects children alternate key, value
    int next;        // next sibling, -1 if none
    int count;       // children (objects: number of key/value pairs)
    size_t start, len; // source span (strings: without the quotes)
} vit__jnode;

typedef struct vit__json {
    const char *src;
    size_t size, pos;
    vit__jnode *nodes;
    int count, cap;
    const vit_allocator *alloc;
    char *err;
} vit__json;

static int vit__json_new(vit__json *j, vit__jtype t) {
    if (j->count == j->cap) {
        int ncap = j->cap ? j->cap * 2 : 256;
        size_t bytes;
        if (ncap < j->cap || !vit__mul((size_t)ncap, sizeof(vit__jnode), &bytes)) return -1;
        vit__jnode *n = (vit__jnode *)vit__malloc(j->alloc, bytes);
        if (!n) return -1;
        if (j->count) memcpy(n, j->nodes, (size_t)j->count * sizeof(vit__jnode));
        vit__free(j->alloc, j->nodes);
        j->nodes = n;
        j->cap = ncap;
    }
    vit__jnode *n = &j->nodes[j->count];
    n->type = t; n->first_child = -1; n->next = -1; n->count = 0; n->start = j->pos; n->len = 0;
    return j->count++;
}

static void vit__json_ws(vit__json *j) {
    while (j->pos < j->size) {
        char c = j->src[j->pos];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') break;
        j->pos++;
    }
}

static vit_status vit__json_bad(vit__json *j, const char *what) {
    return vit__fail(j->err, VIT_ERROR_BAD_FORMAT, "JSON: %s at byte %zu", what, j->pos);
}

static int vit__hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static vit_status vit__json_string(vit__json *j, int *out) {
    j->pos++; // opening quote
    int id = vit__json_new(j, VIT__J_STR);
    if (id < 0) return vit__fail(j->err, VIT_ERROR_OUT_OF_MEMORY, "JSON: out of memory");
    size_t start = j->pos;
    while (j->pos < j->size) {
        unsigned char c = (unsigned char)j->src[j->pos];
        if (c == '"') {
            j->nodes[id].start = start;
            j->nodes[id].len = j->pos - start;
            j->pos++;
            *out = id;
            return VIT_OK;
        }
        if (c < 0x20) return vit__json_bad(j, "control character in string");
        if (c == '\\') {
            if (j->pos + 1 >= j->size) break;
            char e = j->src[j->pos + 1];
            if (e == 'u') {
                if (j->pos + 6 > j->size) break;
                for (int i = 2; i < 6; i++)
                    if (vit__hexval(j->src[j->pos + i]) < 0) return vit__json_bad(j, "bad \\u escape");
                j->pos += 6;
                continue;
            }
            if (!strchr("\"\\/bfnrt", e) || e == 0) return vit__json_bad(j, "bad escape");
            j->pos += 2;
            continue;
        }
        j->pos++;
    }
    return vit__json_bad(j, "unterminated string");
}

static vit_status vit__json_number(vit__json *j, int *out) {
    size_t p = j->pos;
    const char *s = j->src;
    if (p < j->size && s[p] == '-') p++;
    if (p >= j->size) return vit__json_bad(j, "bad number");
    if (s[p] == '0') p++;
    else if (s[p] >= '1' && s[p] <= '9') { while (p < j->size && s[p] >= '0' && s[p] <= '9') p++; }
    else return vit__json_bad(j, "bad number");
    if (p < j->size && s[p] == '.') {
        p++;
        if (p >= j->size || s[p] < '0' || s[p] > '9') return vit__json_bad(j, "bad fraction");
        while (p < j->size && s[p] >= '0' && s[p] <= '9') p++;
    }
    if (p < j->size && (s[p] == 'e' || s[p] == 'E')) {
        p++;
        if (p < j->size && (s[p] == '+' || s[p] == '-')) p++;
        if (p >= j->size || s[p] < '0' || s[p] > '9') return vit__json_bad(j, "bad exponent");
        while (p < j->size && s[p] >= '0' && s[p] <= '9') p++;
    }
    int id = vit__json_new(j, VIT__J_NUM);
    if (id < 0) return vit__fail(j->err, VIT_ERROR_OUT_OF_MEMORY, "JSON: out of memory");
    j->nodes[id].len = p - j->pos;
    j->pos = p;
    *out = id;
    return VIT_OK;
}

static vit_status vit__json_value(vit__json *j, int depth, int *out);

static vit_status vit__json_container(vit__json *j, int depth, int is_obj, int *out) {
    int id = vit__json_new(j, is_obj ? VIT__J_OBJ : VIT__J_ARR);
    if (id < 0) return vit__fail(j->err, VIT_ERROR_OUT_OF_MEMORY, "JSON: out of memory");
    char close = is_obj ? '}' : ']';
    int last = -1;
    j->pos++;
    vit__json_ws(j);
    if (j->pos < j->size && j->src[j->pos] == close) { j->pos++; *out = id; return VIT_OK; }
    for (;;) {
        int child, key = -1;
        vit_status st;
        vit__json_ws(j);
        if (is_obj) {
            if (j->pos >= j->size || j->src[j->pos] != '"') return vit__json_bad(j, "expected a key");
            if ((st = vit__json_string(j, &key)) != VIT_OK) return st;
            vit__json_ws(j);
            if (j->pos >= j->size || j->src[j->pos] != ':') return vit__json_bad(j, "expected ':'");
            j->pos++;
        }
        if ((st = vit__json_value(j, depth + 1, &child)) != VIT_OK) return st;
        if (key >= 0) {
            j->nodes[key].next = child;
            if (last < 0) j->nodes[id].first_child = key; else j->nodes[last].next = key;
        } else {
            if (last < 0) j->nodes[id].first_child = child; else j->nodes[last].next = child;
        }
        last = child;
        j->nodes[id].count++;
        vit__json_ws(j);
        if (j->pos >= j->size) return vit__json_bad(j, "unexpected end");
        if (j->src[j->pos] == ',') { j->pos++; continue; }
        if (j->src[j->pos] == close) { j->pos++; break; }
        return vit__json_bad(j, is_obj ? "expected ',' or '}'" : "expected ',' or ']'");
    }
    *out = id;
    return VIT_OK;
}

static vit_status vit__json_value(vit__json *j, int depth, int *out) {
    if (depth > VIT__MAX_JSON_DEPTH) return vit__json_bad(j, "nested too deeply");
    vit__json_ws(j);
    if (j->pos >= j->size) return vit__json_bad(j, "unexpected end");
    char c = j->src[j->pos];
    if (c == '{' || c == '[') return vit__json_container(j, depth, c == '{', out);
    if (c == '"') return vit__json_string(j, out);
    if (c == '-' || (c >= '0' && c <= '9')) return vit__json_number(j, out);
    static const char *const words[3] = {"null", "false", "true"};
    for (int w = 0; w < 3; w++) {
        size_t len = strlen(words[w]);
        if (j->size - j->pos >= len && memcmp(j->src + j->pos, words[w], len) == 0) {
            int id = vit__json_new(j, (vit__jtype)(VIT__J_NULL + w));
            if (id < 0) return vit__fail(j->err, VIT_ERROR_OUT_OF_MEMORY, "JSON: out of memory");
            j->pos += len;
            *out = id;
            return VIT_OK;
        }
    }
    return vit__json_bad(j, "unexpected character");
}

static vit_status vit__json_parse(vit__json *j, const char *src, size_t size, const vit_allocator *a, char *err) {
    memset(j, 0, sizeof(*j));
    j->src = src; j->size = size; j->alloc = a; j->err = err;
    int root;
    vit_status st = vit__json_value(j, 0, &root);
    if (st == VIT_OK) {
        vit__json_ws(j);
        if (j->pos != j->size) st = vit__json_bad(j, "trailing characters");
    }
    if (st != VIT_OK) { vit__free(a, j->nodes); j->nodes = NULL; }
    return st;
}

static void vit__json_release(vit__json *j) {
    vit__free(j->alloc, j->nodes);
    j->nodes = NULL;
}

// Decodes string node n into buf (NUL-terminated, truncated to cap). Returns
// the decoded length (which may exceed cap-1 when truncated).
static size_t vit__json_str(const vit__json *j, int n, char *buf, size_t cap) {
    const vit__jnode *s = &j->nodes[n];
    const char *p = j->src + s->start, *e = p + s->len;
    size_t w = 0;
    while (p < e) {
        unsigned cp = (unsigned char)*p++;
        if (cp != '\\') { // raw bytes (UTF-8 included) pass through
            if (w + 1 < cap) buf[w] = (char)cp;
            w++;
            continue;
        }
        char c = *p++;
        switch (c) {
        case 'b': cp = '\b'; break;
        case 'f': cp = '\f'; break;
        case 'n': cp = '\n'; break;
        case 'r': cp = '\r'; break;
        case 't': cp = '\t'; break;
        case 'u':
            cp = 0;
            for (int i = 0; i < 4; i++) cp = cp * 16 + (unsigned)vit__hexval(*p++);
            if (cp >= 0xD800 && cp <= 0xDBFF && e - p >= 6 && p[0] == '\\' && p[1] == 'u') {
                unsigned lo = 0;
                for (int i = 2; i < 6; i++) lo = lo * 16 + (unsigned)vit__hexval(p[i]);
                if (lo >= 0xDC00 && lo <= 0xDFFF) { cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00); p += 6; }
            }
            if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0xFFFD; // lone surrogate
            break;
        default: cp = (unsigned char)c; break; // " \ /
        }
        unsigned char out[4];
        int n_out;
        if (cp < 0x80) { out[0] = (unsigned char)cp; n_out = 1; }
        else if (cp < 0x800) { out[0] = (unsigned char)(0xC0 | (cp >> 6)); out[1] = (unsigned char)(0x80 | (cp & 63)); n_out = 2; }
        else if (cp < 0x10000) { out[0] = (unsigned char)(0xE0 | (cp >> 12)); out[1] = (unsigned char)(0x80 | ((cp >> 6) & 63)); out[2] = (unsigned char)(0x80 | (cp & 63)); n_out = 3; }
        else { out[0] = (unsigned char)(0xF0 | (cp >> 18)); out[1] = (unsigned char)(0x80 | ((cp >> 12) & 63)); out[2] = (unsigned char)(0x80 | ((cp >> 6) & 63)); out[3] = (unsigned char)(0x80 | (cp & 63)); n_out = 4; }
        for (int i = 0; i < n_out; i++) { if (w + 1 < cap) buf[w] = (char)out[i]; w++; }
    }
    if (cap) buf[w < cap ? w : cap - 1] = 0;
    return w;
}

static int vit__json_eq(const vit__json *j, int n, const char *lit) {
    const vit__jnode *s = &j->nodes[n];
    size_t len = strlen(lit);
    return s->type == VIT__J_STR && s->len == len && memcmp(j->src + s->start, lit, len) == 0;
}

// Value of key in object node obj, or -1.
static int vit__json_get(const vit__json *j, int obj, const char *key) {
    if (obj < 0 || j->nodes[obj].type != VIT__J_OBJ) return -1;
    for (int k = j->nodes[obj].first_child; k >= 0; k = j->nodes[j->nodes[k].next].next)
        if (vit__json_eq(j, k, key)) return j->nodes[k].next;
    return -1;
}

// Parses a number node as double (locale-independent). 0 if not a number.
static int vit__json_double(const vit__json *j, int n, double *out) {
    if (n < 0 || j->nodes[n].type != VIT__J_NUM) return 0;
    const char *p = j->src + j->nodes[n].start, *e = p + j->nodes[n].len;
    int neg = 0, exp10 = 0, eneg = 0, eval = 0;
    double mant = 0.0;
    if (*p == '-') { neg = 1; p++; }
    while (p < e && *p >= '0' && *p <= '9') { mant = mant * 10.0 + (*p - '0'); p++; }
    if (p < e && *p == '.') {
        p++;
        while (p < e && *p >= '0' && *p <= '9') { mant = mant * 10.0 + (*p - '0'); exp10--; p++; }
    }
    if (p < e && (*p == 'e' || *p == 'E')) {
        p++;
        if (*p == '+' || *p == '-') eneg = *p++ == '-';
        while (p < e && *p >= '0' && *p <= '9') { if (eval < 100000) eval = eval * 10 + (*p - '0'); p++; }
    }
    exp10 += eneg ? -eval : eval;
    double v = mant == 0.0 ? 0.0 : exp10 < 0 ? mant / pow(10.0, -exp10) : mant * pow(10.0, exp10); // 0e999: not 0 * inf
    *out = neg ? -v : v;
    return 1;
}

// Parses a non-negative integer node exactly. 0 if not one or it overflows.
static int vit__json_u64(const vit__json *j, int n, uint64_t *out) {
    if (n < 0 || j->nodes[n].type != VIT__J_NUM) return 0;
    const char *p = j->src + j->nodes[n].start, *e = p + j->nodes[n].len;
    uint64_t v = 0;
    if (p == e) return 0;
    for (; p < e; p++) {
        if (*p < '0' || *p > '9') return 0; // sign, fraction or exponent
        if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10) return 0;
        v = v * 10 + (uint64_t)(*p - '0');
    }
    *out = v;
    return 1;
}

// Integer-valued number (e.g. 224 or 224.0) in [lo, hi] into *out; 0 otherwise.
static int vit__json_int(const vit__json *j, int n, int lo, int hi, int *out) {
    double d;
    if (!vit__json_double(j, n, &d) || d != floor(d) || d < lo || d > hi) return 0;
    *out = (int)d;
    return 1;
}

// >>load ----------------------------------------------------------------------
// safetensors header -> tensor table -> config (config.json, then shapes) ->
// one weight allocation, converted to fp32 and linear weights transposed.

typedef enum vit__dtype { VIT__DT_F32, VIT__DT_F16, VIT__DT_BF16, VIT__DT_OTHER } vit__dtype;

#define VIT__MAX_NDIM 8

typedef struct vit__tensor {
    char name[128];         // names longer than this are never ours: kept truncated, flagged
    int name_truncated;
    int used;               // read by the model (vit__load_weights' check pass)
    vit__dtype dtype;
    char dtype_name[16];
    int ndim;
    uint64_t shape[VIT__MAX_NDIM];
    const unsigned char *data;
    size_t begin, end;      // byte offsets in the data section
    int shard;              // which file of a sharded model holds it (0: the only one)
} vit__tensor;

// Which library wrote the file (and so how its tensors are named).
// The text families name a full CLIP / SigLIP file's text tower (prefix text_model.).
typedef enum vit__family {
    VIT__FAM_TIMM = 0, VIT__FAM_HF_VIT, VIT__FAM_HF_DEIT, VIT__FAM_HF_DINOV2, VIT__FAM_HF_CLIP, VIT__FAM_HF_SIGLIP,
    VIT__FAM_HF_CLIP_TEXT, VIT__FAM_HF_SIGLIP_TEXT, VIT__FAM_COUNT
} vit__family;

typedef struct vit__loader {
    const vit_allocator *alloc;
    char *err;
    vit__tensor *tensors;
    int count;
    vit__json cfg;          // parsed config.json (nodes NULL when absent)
    int cfg_root;
    vit__json pre;          // parsed preprocessor_config.json (HF), or none
    int pre_root;
    const char *prefix;     // before every name but the heads': "", "vit.", "deit.", "dinov2.", "vision_model." ("text_model.": a text tower's)
    const char *text_prefix;// a full CLIP / SigLIP file's text tower ("text_model."), or NULL
    int heads_override;
    vit__family fam;
    int dinov2_registers;   // HF Dinov2WithRegisters (its position embedding is resampled with antialiasing)
    int pos_cover;          // prefix tokens the position embedding has rows for (the first ones)
    int grid_h, grid_w;     // the position embedding's native patch grid
    int num_head;           // 2: a distillation head too
    int map_mlp;            // attention pooling's MLP width
    int default_side;       // HF: the processor's crop, the size to run at when the options give none (0: the checkpoint's)
} vit__loader;

static size_t vit__dtype_size(vit__dtype d) {
    return d == VIT__DT_F32 ? 4 : 2;
}

static int vit__tensor_cmp_begin(const void *a, const void *b) {
    const vit__tensor *x = *(const vit__tensor *const *)a, *y = *(const vit__tensor *const *)b;
    return x->begin < y->begin ? -1 : x->begin > y->begin ? 1 : (x->end < y->end ? -1 : x->end > y->end);
}

// Bytes per element of a safetensors dtype name (0 = unknown name).
static size_t vit__st_dtype(const char *s, vit__dtype *d) {
    static const struct { const char *name; size_t size; } known[] = {
        {"F64", 8}, {"I64", 8}, {"U64", 8}, {"I32", 4}, {"U32", 4}, {"I16", 2}, {"U16", 2},
        {"I8", 1}, {"U8", 1}, {"BOOL", 1}, {"F8_E4M3", 1}, {"F8_E5M2", 1}};
    *d = VIT__DT_OTHER;
    if (!strcmp(s, "F32")) { *d = VIT__DT_F32; return 4; }
    if (!strcmp(s, "F16")) { *d = VIT__DT_F16; return 2; }
    if (!strcmp(s, "BF16")) { *d = VIT__DT_BF16; return 2; }
    for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
        if (!strcmp(s, known[i].name)) return known[i].size;
    return 0;
}

// What a file that is not safetensors looks like, from its first bytes ("" if not known).
static const char *vit__sniff(const unsigned char *d, size_t n) {
    static const struct { const char *magic; size_t len; const char *what; } known[] = {
        {"\xFF\xD8\xFF", 3, " (it looks like a JPEG image)"}, {"\x89PNG\r\n\x1A\n", 8, " (it looks like a PNG image)"},
        {"GIF8", 4, " (it looks like a GIF image)"}, {"BM", 2, " (it looks like a BMP image)"},
        {"RIFF", 4, " (it looks like a RIFF file: a WebP image?)"}, {"%PDF", 4, " (it looks like a PDF document)"},
        {"PK\x03\x04", 4, " (it looks like a zip archive: a PyTorch .pt/.pth/.bin checkpoint? Save it with safetensors)"},
        {"\x80", 1, " (it looks like a Python pickle: a PyTorch checkpoint? Save it with safetensors)"},
        {"GGUF", 4, " (it looks like a GGUF file)"}, {"\x93NUMPY", 6, " (it looks like a NumPy .npy file)"},
        {"\x89HDF", 4, " (it looks like an HDF5 file)"}, {"{", 1, " (it looks like JSON text: config.json? Pass the .safetensors file or the model's folder)"}};
    for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
        if (n >= known[i].len && !memcmp(d, known[i].magic, known[i].len)) return known[i].what;
    return "";
}

// Parses and validates the safetensors container, appending its tensors to
// L->tensors (a sharded model calls it once per shard). data stays owned by the caller.
static vit_status vit__st_parse(vit__loader *L, const unsigned char *data, size_t size, int shard) {
    char *err = L->err;
    if (size < 8) return vit__fail(err, VIT_ERROR_BAD_FORMAT, "file is %zu bytes, too short for a safetensors header", size);
    uint64_t hlen = 0;
    for (int i = 7; i >= 0; i--) hlen = (hlen << 8) | data[i];
    // the header is a JSON object: a file whose 9th byte is not '{' is some other kind of file
    if (size == 8 || data[8] != '{')
        return vit__fail(err, VIT_ERROR_BAD_FORMAT, "not a safetensors file%s", vit__sniff(data, size));
    if (hlen > VIT_MAX_HEADER_BYTES)
        return vit__fail(err, hlen > size - 8 ? VIT_ERROR_BAD_FORMAT : VIT_ERROR_LIMIT,
                         "header length %llu exceeds VIT_MAX_HEADER_BYTES (%llu)", (unsigned long long)hlen,
                         (unsigned long long)VIT_MAX_HEADER_BYTES);
    if (hlen > size - 8)
        return vit__fail(err, VIT_ERROR_BAD_FORMAT, "header length %llu runs past the end of the %zu-byte file",
                         (unsigned long long)hlen, size);
    if (hlen < 2)
        return vit__fail(err, VIT_ERROR_BAD_FORMAT, "header does not start with a JSON object");
    const char *hdr = (const char *)data + 8;
    size_t hsize = (size_t)hlen;
    while (hsize > 0 && hdr[hsize - 1] == ' ') hsize--; // writers pad the header with spaces
    vit__json j;
    vit_status st = vit__json_parse(&j, hdr, hsize, L->alloc, err);
    if (st != VIT_OK) return st;
    const unsigned char *body = data + 8 + hlen;
    size_t body_size = size - 8 - (size_t)hlen;
    int root = 0;
    if (j.nodes[root].type != VIT__J_OBJ) { vit__json_release(&j); return vit__fail(err, VIT_ERROR_BAD_FORMAT, "header is not a JSON object"); }
    size_t bytes;
    int n = j.nodes[root].count, base = L->count;
    vit__tensor **order = NULL, *grown = NULL;
    if (n > INT_MAX - base || !vit__mul((size_t)base + (size_t)n, sizeof(vit__tensor), &bytes) ||
        !(grown = (vit__tensor *)vit__malloc(L->alloc, bytes + 1)) ||
        !(order = (vit__tensor **)vit__malloc(L->alloc, (size_t)n * sizeof(vit__tensor *) + 1))) {
        vit__free(L->alloc, grown);
        vit__json_release(&j);
        return vit__fail(err, VIT_ERROR_OUT_OF_MEMORY, "out of memory for %d tensor entries", base + n);
    }
    if (base) memcpy(grown, L->tensors, (size_t)base * sizeof(vit__tensor)); // the earlier shards' entries
    vit__free(L->alloc, L->tensors);
    L->tensors = grown;
    for (int k = j.nodes[root].first_child; k >= 0 && st == VIT_OK; k = j.nodes[j.nodes[k].next].next) {
        int v = j.nodes[k].next;
        if (vit__json_eq(&j, k, "__metadata__")) {
            if (j.nodes[v].type != VIT__J_OBJ) st = vit__fail(err, VIT_ERROR_BAD_FORMAT, "__metadata__ is not an object");
            continue;
        }
        vit__tensor *t = &L->tensors[L->count];
        memset(t, 0, sizeof(*t));
        size_t nlen = vit__json_str(&j, k, t->name, sizeof(t->name));
        t->name_truncated = nlen >= sizeof(t->name);
        t->shard = shard;
        for (int q = 0; q < L->count; q++)
            if (!t->name_truncated && !L->tensors[q].name_truncated && !strcmp(L->tensors[q].name, t->name)) {
                if (q < base) st = vit__fail(err, VIT_ERROR_BAD_FORMAT, "tensor '%s' is in two shards", t->name);
                else st = vit__fail(err, VIT_ERROR_BAD_FORMAT, "tensor '%s' appears twice in the header", t->name);
                break;
            }
        if (st != VIT_OK) break;
        if (j.nodes[v].type != VIT__J_OBJ) { st = vit__fail(err, VIT_ERROR_BAD_FORMAT, "tensor '%s': entry is not an object", t->name); break; }
        int jd = vit__json_get(&j, v, "dtype"), js = vit__json_get(&j, v, "shape"), jo = vit__json_get(&j, v, "data_offsets");
        if (jd < 0 || js < 0 || jo < 0 || j.nodes[jd].type != VIT__J_STR || j.nodes[js].type != VIT__J_ARR ||
            j.nodes[jo].type != VIT__J_ARR || j.nodes[jo].count != 2 || j.nodes[v].count != 3) {
            st = vit__fail(err, VIT_ERROR_BAD_FORMAT, "tensor '%s': entry needs exactly dtype, shape and data_offsets[2]", t->name);
            break;
        }
        vit__json_str(&j, jd, t->dtype_name, sizeof(t->dtype_name));
        size_t esize = vit__st_dtype(t->dtype_name, &t->dtype);
        if (esize == 0) { st = vit__fail(err, VIT_ERROR_UNSUPPORTED, "tensor '%s': unknown dtype '%s'", t->name, t->dtype_name); break; }
        if (j.nodes[js].count > VIT__MAX_NDIM) { st = vit__fail(err, VIT_ERROR_UNSUPPORTED, "tensor '%s': %d dimensions", t->name, j.nodes[js].count); break; }
        size_t numel = 1;
        for (int d = j.nodes[js].first_child; d >= 0; d = j.nodes[d].next) {
            uint64_t dim;
            if (!vit__json_u64(&j, d, &dim)) { st = vit__fail(err, VIT_ERROR_BAD_FORMAT, "tensor '%s': shape entry is not a non-negative integer", t->name); break; }
            if (dim > SIZE_MAX || !vit__mul(numel, (size_t)dim, &numel)) { st = vit__fail(err, VIT_ERROR_BAD_FORMAT, "tensor '%s': shape overflows", t->name); break; }
            t->shape[t->ndim++] = dim;
        }
        if (st != VIT_OK) break;
        uint64_t b, e;
        int jb = j.nodes[jo].first_child, je = j.nodes[jb].next;
        if (!vit__json_u64(&j, jb, &b) || !vit__json_u64(&j, je, &e)) { st = vit__fail(err, VIT_ERROR_BAD_FORMAT, "tensor '%s': data_offsets are not non-negative integers", t->name); break; }
        if (b > e || e > body_size) {
            st = vit__fail(err, VIT_ERROR_BAD_FORMAT, "tensor '%s': data_offsets [%llu, %llu] outside the %zu-byte data section",
                           t->name, (unsigned long long)b, (unsigned long long)e, body_size);
            break;
        }
        size_t nbytes;
        if (!vit__mul(numel, esize, &nbytes) || nbytes != (size_t)(e - b)) {
            st = vit__fail(err, VIT_ERROR_BAD_FORMAT, "tensor '%s': %llu bytes of data for %zu elements of %s",
                           t->name, (unsigned long long)(e - b), numel, t->dtype_name);
            break;
        }
        t->begin = (size_t)b; t->end = (size_t)e;
        t->data = body + b;
        order[L->count - base] = t;
        L->count++;
    }
    vit__json_release(&j);
    if (st == VIT_OK) {
        // the data section must be tiled exactly: no overlaps, no holes
        qsort(order, (size_t)(L->count - base), sizeof(vit__tensor *), vit__tensor_cmp_begin);
        size_t at = 0;
        for (int i = 0; i < L->count - base && st == VIT_OK; i++) {
            if (order[i]->begin < at)
                st = vit__fail(err, VIT_ERROR_BAD_FORMAT, "tensor '%s' overlaps the tensor before it (offset %zu < %zu)", order[i]->name, order[i]->begin, at);
            else if (order[i]->begin > at)
                st = vit__fail(err, VIT_ERROR_BAD_FORMAT, "hole in the data section before tensor '%s' (offset %zu, expected %zu)", order[i]->name, order[i]->begin, at);
            at = order[i]->end;
        }
        if (st == VIT_OK && at != body_size)
            st = vit__fail(err, VIT_ERROR_BAD_FORMAT, "data section is %zu bytes but tensors cover %zu", body_size, at);
    }
    vit__free(L->alloc, order);
    return st;
}

// --- model.safetensors.index.json: a sharded model, as Hugging Face writes it ---
// {"metadata": {...}, "weight_map": {"tensor name": "model-00001-of-00002.safetensors", ...}}

typedef struct vit__index_entry {
    char name[128];         // tensor name, truncated as vit__tensor.name is
    int name_truncated;
    int shard;              // index into files
} vit__index_entry;

typedef struct vit__index {
    const vit_allocator *alloc;
    vit__index_entry *entries; // weight_map, in file order
    int count;
    char (*files)[256];     // the shard files, in order of first mention: plain names in the index's folder
    int nshards;
} vit__index;

#ifndef VIT_NO_STDIO // only vit_load reads an index (from files)
static void vit__index_release(vit__index *ix) {
    if (ix->alloc) { vit__free(ix->alloc, ix->entries); vit__free(ix->alloc, ix->files); }
    memset(ix, 0, sizeof(*ix));
}

// Parses an index's text. Shard names must be plain file names ending in
// .safetensors (no folder, no '..'), at most VIT_MAX_SHARDS of them.
static vit_status vit__index_parse(vit__index *ix, const char *src, size_t size, const vit_allocator *a, char *err) {
    static const char *what = "model.safetensors.index.json";
    memset(ix, 0, sizeof(*ix));
    ix->alloc = a;
    vit__json j;
    vit_status st = vit__json_parse(&j, src, size, a, err);
    if (st != VIT_OK) {
        char detail[VIT__ERR_LEN];
        memcpy(detail, err, sizeof(detail));
        return vit__fail(err, st, "%s: %s", what, detail);
    }
    int map = -1;
    if (j.nodes[0].type != VIT__J_OBJ) st = vit__fail(err, VIT_ERROR_BAD_FORMAT, "%s is not a JSON object", what);
    for (int k = j.nodes[0].first_child; st == VIT_OK && k >= 0; k = j.nodes[j.nodes[k].next].next) {
        int v = j.nodes[k].next;
        if (vit__json_eq(&j, k, "weight_map") && map < 0) map = v;
        else if (!vit__json_eq(&j, k, "metadata")) {
            char key[64];
            vit__json_str(&j, k, key, sizeof(key));
            st = vit__fail(err, VIT_ERROR_BAD_FORMAT, "%s: unexpected key '%s' (only metadata and weight_map, once each)", what, key);
        } else if (j.nodes[v].type != VIT__J_OBJ) st = vit__fail(err, VIT_ERROR_BAD_FORMAT, "%s: metadata is not an object", what);
    }
    if (st == VIT_OK && (map < 0 || j.nodes[map].type != VIT__J_OBJ || j.nodes[map].count == 0))
        st = vit__fail(err, VIT_ERROR_BAD_FORMAT, "%s: no weight_map object naming the tensors' files", what);
    int n = st == VIT_OK ? j.nodes[map].count : 0, cap = n < VIT_MAX_SHARDS ? n : VIT_MAX_SHARDS;
    if (st == VIT_OK && (!(ix->entries = (vit__index_entry *)vit__malloc(a, (size_t)n * sizeof(vit__index_entry))) ||
                         !(ix->files = (char (*)[256])vit__malloc(a, (size_t)cap * 256))))
        st = vit__fail(err, VIT_ERROR_OUT_OF_MEMORY, "out of memory for %d index entries", n);
    for (int k = st == VIT_OK ? j.nodes[map].first_child : -1; st == VIT_OK && k >= 0; k = j.nodes[j.nodes[k].next].next) {
        int v = j.nodes[k].next;
        vit__index_entry *e = &ix->entries[ix->count];
        e->name_truncated = vit__json_str(&j, k, e->name, sizeof(e->name)) >= sizeof(e->name);
        char file[256];
        size_t len = j.nodes[v].type == VIT__J_STR ? vit__json_str(&j, v, file, sizeof(file)) : 0;
        int plain = len >= 13 && len < sizeof(file) && strlen(file) == len && !strcmp(file + len - 12, ".safetensors");
        for (size_t i = 0; plain && i < len; i++) plain = file[i] != '/' && file[i] != '\\' && file[i] != ':' && (unsigned char)file[i] >= 0x20;
        if (plain && file[0] == '.' && file[1] == '.') plain = 0;
        if (!plain) {
            st = vit__fail(err, VIT_ERROR_BAD_FORMAT, "%s: tensor '%s': the shard must be a plain file name ending in .safetensors, "
                           "in the index's folder (no '/', no '..')", what, e->name);
            break;
        }
        int s = 0;
        while (s < ix->nshards && strcmp(ix->files[s], file) != 0) s++;
        if (s == ix->nshards) {
            if (ix->nshards == VIT_MAX_SHARDS) { st = vit__fail(err, VIT_ERROR_LIMIT, "%s names more than VIT_MAX_SHARDS (%d) shards", what, VIT_MAX_SHARDS); break; }
            memcpy(ix->files[ix->nshards++], file, len + 1);
        }
        e->shard = s;
        ix->count++;
    }
    vit__json_release(&j);
    if (st != VIT_OK) vit__index_release(ix);
    return st;
}
#endif

// After every shard is parsed: the tensors are exactly those the index lists, each in the shard it names.
static vit_status vit__index_check(const vit__loader *L, const vit__index *ix) {
    static const char *what = "model.safetensors.index.json";
    for (int i = 0; i < L->count; i++) {
        const vit__tensor *t = &L->tensors[i];
        int e = 0;
        while (e < ix->count && (ix->entries[e].name_truncated != t->name_truncated || strcmp(ix->entries[e].name, t->name) != 0)) e++;
        if (e == ix->count)
            return vit__fail(L->err, VIT_ERROR_BAD_FORMAT, "tensor '%s%s' is in %s but %s does not list it", t->name,
                             t->name_truncated ? "..." : "", ix->files[t->shard], what);
        if (ix->entries[e].shard != t->shard)
            return vit__fail(L->err, VIT_ERROR_BAD_FORMAT, "tensor '%s' is in %s but %s puts it in %s", t->name, ix->files[t->shard], what,
                             ix->files[ix->entries[e].shard]);
    }
    for (int e = 0; e < ix->count; e++) {
        int i = 0;
        while (i < L->count && (ix->entries[e].name_truncated != L->tensors[i].name_truncated || strcmp(ix->entries[e].name, L->tensors[i].name) != 0)) i++;
        if (i == L->count)
            return vit__fail(L->err, VIT_ERROR_MISSING_TENSOR, "%s lists tensor '%s' in %s, which does not hold it", what, ix->entries[e].name,
                             ix->files[ix->entries[e].shard]);
    }
    // every tensor listed, every name unique: only a repeated key in weight_map is left
    if (ix->count != L->count) return vit__fail(L->err, VIT_ERROR_BAD_FORMAT, "%s lists a tensor twice", what);
    return VIT_OK;
}

static const vit__tensor *vit__find(const vit__loader *L, const char *name) {
    for (int i = 0; i < L->count; i++)
        if (!L->tensors[i].name_truncated && !strcmp(L->tensors[i].name, name)) return &L->tensors[i];
    return NULL;
}

static void vit__shape_str(const vit__tensor *t, char *buf, size_t cap) {
    size_t w = (size_t)snprintf(buf, cap, "[");
    for (int i = 0; i < t->ndim && w < cap; i++)
        w += (size_t)snprintf(buf + w, cap - w, i ? ", %llu" : "%llu", (unsigned long long)t->shape[i]);
    if (w < cap) snprintf(buf + w, cap - w, "]");
}

// Checks tensor `name` exists (unless optional), has a float dtype and the shape
// dims[0..ndim). A dims entry < 0 accepts any size. *out = tensor or NULL.
static vit_status vit__expect(vit__loader *L, const char *name, int optional, int ndim, const long long *dims, const vit__tensor **out) {
    const vit__tensor *t = vit__find(L, name);
    *out = t;
    if (!t) return optional ? VIT_OK : vit__fail(L->err, VIT_ERROR_MISSING_TENSOR, "tensor '%s' not found", name);
    if (t->dtype == VIT__DT_OTHER)
        return vit__fail(L->err, VIT_ERROR_UNSUPPORTED, "tensor '%s' has dtype %s; only F32, F16 and BF16 are supported", name, t->dtype_name);
    int ok = t->ndim == ndim;
    for (int i = 0; ok && i < ndim; i++) ok = dims[i] < 0 || t->shape[i] == (uint64_t)dims[i];
    if (!ok) {
        char got[160], want[160];
        size_t w = (size_t)snprintf(want, sizeof(want), "[");
        for (int i = 0; i < ndim && w < sizeof(want); i++) w += (size_t)snprintf(want + w, sizeof(want) - w, i ? ", %lld" : "%lld", dims[i]);
        if (w < sizeof(want)) snprintf(want + w, sizeof(want) - w, "]");
        vit__shape_str(t, got, sizeof(got));
        return vit__fail(L->err, VIT_ERROR_SHAPE_MISMATCH, "tensor '%s' has shape %s, expected %s", name, got, want);
    }
    return VIT_OK;
}

static float vit__half_to_float(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000) << 16, exp = (h >> 10) & 0x1f, mant = h & 0x3ff, bits;
    if (exp == 0) {
        if (mant == 0) bits = sign;
        else { // subnormal: normalise
            int e = -1;
            do { e++; mant <<= 1; } while (!(mant & 0x400));
            bits = sign | ((uint32_t)(127 - 15 - e) << 23) | ((mant & 0x3ff) << 13);
        }
    } else if (exp == 31) bits = sign | 0x7f800000u | (mant << 13);
    else bits = sign | ((exp + 127 - 15) << 23) | (mant << 13);
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

// Element i of t as float (little-endian; read through memcpy: no alignment assumed).
static float vit__tensor_at(const vit__tensor *t, size_t i) {
    const unsigned char *p = t->data + i * vit__dtype_size(t->dtype);
    if (t->dtype == VIT__DT_F32) {
        uint32_t b = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
        float f;
        memcpy(&f, &b, 4);
        return f;
    }
    uint16_t h = (uint16_t)(p[0] | p[1] << 8);
    if (t->dtype == VIT__DT_F16) return vit__half_to_float(h);
    uint32_t b = (uint32_t)h << 16;
    float f;
    memcpy(&f, &b, 4);
    return f;
}

// --- config.json ---

static int vit__cfg_num(const vit__json *j, int obj, const char *key, double *out) {
    return vit__json_double(j, vit__json_get(j, obj, key), out);
}

static int vit__cfg_bool(const vit__json *j, int obj, const char *key, int *out) {
    int n = vit__json_get(j, obj, key);
    if (n < 0) return 0;
    if (j->nodes[n].type == VIT__J_TRUE) { *out = 1; return 1; }
    if (j->nodes[n].type == VIT__J_FALSE) { *out = 0; return 1; }
    return 0;
}

// An integer option that must, if present, be an integer in [lo, hi].
static vit_status vit__cfg_int(vit__loader *L, const vit__json *j, int obj, const char *key, int lo, int hi, int *out) {
    int n = vit__json_get(j, obj, key);
    if (n < 0 || j->nodes[n].type == VIT__J_NULL) return VIT_OK;
    if (!vit__json_int(j, n, lo, hi, out))
        return vit__fail(L->err, VIT_ERROR_BAD_FORMAT, "config.json: '%s' must be an integer in [%d, %d]", key, lo, hi);
    return VIT_OK;
}

// img_size / image_size / patch_size: an int or [h, w] (w NULL: must be square).
static vit_status vit__cfg_size(vit__loader *L, const vit__json *j, int obj, const char *key, int *h, int *w) {
    int n = vit__json_get(j, obj, key), a, b;
    if (n >= 0 && j->nodes[n].type == VIT__J_ARR) {
        int c0 = j->nodes[n].first_child;
        if (j->nodes[n].count != 2 || !vit__json_int(j, c0, 1, VIT_MAX_DIM, &a) || !vit__json_int(j, j->nodes[c0].next, 1, VIT_MAX_DIM, &b))
            return vit__fail(L->err, VIT_ERROR_BAD_FORMAT, "config.json: '%s' must be an integer or [h, w]", key);
        if (!w && a != b) return vit__fail(L->err, VIT_ERROR_UNSUPPORTED, "config.json: non-square %s [%d, %d]", key, a, b);
        *h = a;
        if (w) *w = b;
        return VIT_OK;
    }
    a = -1;
    vit_status st = vit__cfg_int(L, j, obj, key, 1, VIT_MAX_DIM, &a);
    if (st == VIT_OK && a > 0) { *h = a; if (w) *w = a; }
    return st;
}

static vit_status vit__cfg_floats(vit__loader *L, const vit__json *j, int obj, const char *key, float *out, int n_out) {
    int n = vit__json_get(j, obj, key);
    if (n < 0 || j->nodes[n].type == VIT__J_NULL) return VIT_OK;
    double d;
    if (j->nodes[n].type == VIT__J_NUM && vit__json_double(j, n, &d)) { // a scalar applies to every channel
        for (int i = 0; i < n_out; i++) out[i] = (float)d;
        return VIT_OK;
    }
    if (j->nodes[n].type != VIT__J_ARR || j->nodes[n].count < 1 || j->nodes[n].count > 3)
        return vit__fail(L->err, VIT_ERROR_BAD_FORMAT, "config.json: '%s' must be a list of 1 to 3 numbers", key);
    float v[3] = {0.0f, 0.0f, 0.0f};
    int i = 0;
    for (int c = j->nodes[n].first_child; c >= 0; c = j->nodes[c].next, i++) {
        if (!vit__json_double(j, c, &d)) return vit__fail(L->err, VIT_ERROR_BAD_FORMAT, "config.json: '%s' must hold numbers", key);
        v[i] = (float)d;
    }
    for (int c = 0; c < n_out; c++) out[c] = v[i == 1 ? 0 : (c < i ? c : i - 1)];
    return VIT_OK;
}

// timm's pretrained_cfg interpolation; 0 for a filter vit_preprocess_* does not reproduce.
static int vit__cfg_interp(const vit__json *j, int obj, const char *key, vit_interp *out) {
    int n = vit__json_get(j, obj, key);
    if (n < 0) return 1;
    if (vit__json_eq(j, n, "bicubic")) *out = VIT_INTERP_BICUBIC;
    else if (vit__json_eq(j, n, "bilinear")) *out = VIT_INTERP_BILINEAR;
    else if (vit__json_eq(j, n, "nearest")) *out = VIT_INTERP_NEAREST;
    else return 0;
    return 1;
}

// Values the config files state; -1 = not stated.
typedef struct vit__stated {
    int image_h, image_w, patch_size, in_chans, dim, depth, num_heads, mlp_dim, num_classes;
    int class_token, no_embed_class, fc_norm, reg_tokens, qk_norm; // -1 unknown, else 0/1 (reg_tokens: a count)
    int pool;                                  // -1 unknown, else vit_pool
    int act;                                   // -1 unknown, else vit_act
    int projection;                            // -1 unknown, else 0/1
    int distilled;                             // -1 unknown, else 0/1
    double mlp_ratio;                          // 0 unknown
    double eps;                                // 0 unknown
} vit__stated;

// The timm architectures (timm 1.0.31's vision_transformer and deit modules),
// made by tools/make_timm_archs.py: config.json names the architecture, but
// the activation and LayerNorm eps are fixed in timm's source. kind: g exact
// GELU / eps 1e-6, G exact GELU / 1e-5, q QuickGELU / 1e-5, t tanh GELU /
// 1e-6, s SwiGLU / 1e-6, x not computed by vit.h (why says what).
static const struct vit__timm_arch { const char *name; char kind; const char *why; } vit__timm_archs[] = {
    {"aimv2_1b_patch14_224", 'x', "RmsNorm"},
    {"aimv2_1b_patch14_336", 'x', "RmsNorm"},
    {"aimv2_1b_patch14_448", 'x', "RmsNorm"},
    {"aimv2_3b_patch14_224", 'x', "RmsNorm"},
    {"aimv2_3b_patch14_336", 'x', "RmsNorm"},
    {"aimv2_3b_patch14_448", 'x', "RmsNorm"},
    {"aimv2_huge_patch14_224", 'x', "RmsNorm"},
    {"aimv2_huge_patch14_336", 'x', "RmsNorm"},
    {"aimv2_huge_patch14_448", 'x', "RmsNorm"},
    {"aimv2_large_patch14_224", 'x', "RmsNorm"},
    {"aimv2_large_patch14_336", 'x', "RmsNorm"},
    {"aimv2_large_patch14_448", 'x', "RmsNorm"},
    {"beit3_base_patch16_224", 'x', "MLP norm, attention output norm"},
    {"beit3_giant_patch14_224", 'x', "MLP norm, attention output norm"},
    {"beit3_giant_patch14_336", 'x', "MLP norm, attention output norm"},
    {"beit3_large_patch16_224", 'x', "MLP norm, attention output norm"},
    {"deit3_base_patch16_224", 'g', ""},
    {"deit3_base_patch16_384", 'g', ""},
    {"deit3_huge_patch14_224", 'g', ""},
    {"deit3_large_patch16_224", 'g', ""},
    {"deit3_large_patch16_384", 'g', ""},
    {"deit3_medium_patch16_224", 'g', ""},
    {"deit3_small_patch16_224", 'g', ""},
    {"deit3_small_patch16_384", 'g', ""},
    {"deit_base_distilled_patch16_224", 'g', ""},
    {"deit_base_distilled_patch16_384", 'g', ""},
    {"deit_base_patch16_224", 'g', ""},
    {"deit_base_patch16_384", 'g', ""},
    {"deit_small_distilled_patch16_224", 'g', ""},
    {"deit_small_patch16_224", 'g', ""},
    {"deit_tiny_distilled_patch16_224", 'g', ""},
    {"deit_tiny_patch16_224", 'g', ""},
    {"eva_large_patch14_196", 'g', ""},
    {"eva_large_patch14_336", 'g', ""},
    {"flexivit_base", 'g', ""},
    {"flexivit_large", 'g', ""},
    {"flexivit_small", 'g', ""},
    {"test_vit", 'g', ""},
    {"test_vit2", 'g', ""},
    {"test_vit3", 'g', ""},
    {"test_vit4", 'x', "RmsNorm"},
    {"vit_base_patch14_dinov2", 'g', ""},
    {"vit_base_patch14_reg1_tipsv2", 'g', ""},
    {"vit_base_patch14_reg4_dinov2", 'g', ""},
    {"vit_base_patch16_18x2_224", 'x', "ParallelThingsBlock"},
    {"vit_base_patch16_224", 'g', ""},
    {"vit_base_patch16_224_miil", 'g', ""},
    {"vit_base_patch16_384", 'g', ""},
    {"vit_base_patch16_clip_224", 'G', ""},
    {"vit_base_patch16_clip_384", 'G', ""},
    {"vit_base_patch16_clip_quickgelu_224", 'q', ""},
    {"vit_base_patch16_gap_224", 'g', ""},
    {"vit_base_patch16_plus_240", 'g', ""},
    {"vit_base_patch16_plus_clip_240", 'G', ""},
    {"vit_base_patch16_radio_v3", 'g', ""},
    {"vit_base_patch16_reg4_gap_256", 'g', ""},
    {"vit_base_patch16_rpn_224", 'x', "ResPostBlock"},
    {"vit_base_patch16_siglip_224", 'g', ""},
    {"vit_base_patch16_siglip_256", 'g', ""},
    {"vit_base_patch16_siglip_384", 'g', ""},
    {"vit_base_patch16_siglip_512", 'g', ""},
    {"vit_base_patch16_siglip_gap_224", 'g', ""},
    {"vit_base_patch16_siglip_gap_256", 'g', ""},
    {"vit_base_patch16_siglip_gap_384", 'g', ""},
    {"vit_base_patch16_siglip_gap_512", 'g', ""},
    {"vit_base_patch16_xp_224", 'x', "ParallelScalingBlock, RmsNorm"},
    {"vit_base_patch32_224", 'g', ""},
    {"vit_base_patch32_384", 'g', ""},
    {"vit_base_patch32_clip_224", 'G', ""},
    {"vit_base_patch32_clip_256", 'G', ""},
    {"vit_base_patch32_clip_384", 'G', ""},
    {"vit_base_patch32_clip_448", 'G', ""},
    {"vit_base_patch32_clip_quickgelu_224", 'q', ""},
    {"vit_base_patch32_plus_256", 'g', ""},
    {"vit_base_patch32_siglip_256", 't', ""},
    {"vit_base_patch32_siglip_gap_256", 't', ""},
    {"vit_base_patch8_224", 'g', ""},
    {"vit_betwixt_patch16_gap_256", 'g', ""},
    {"vit_betwixt_patch16_reg1_gap_256", 'g', ""},
    {"vit_betwixt_patch16_reg4_gap_256", 'g', ""},
    {"vit_betwixt_patch16_reg4_gap_384", 'g', ""},
    {"vit_betwixt_patch32_clip_224", 'G', ""},
    {"vit_dlittle_patch16_reg1_gap_256", 'x', "DiffAttention"},
    {"vit_dpwee_patch16_reg1_gap_256", 'x', "DiffParallelScalingBlock"},
    {"vit_dwee_patch16_reg1_gap_256", 'x', "DiffAttention"},
    {"vit_giant_patch14_224", 'g', ""},
    {"vit_giant_patch14_clip_224", 'G', ""},
    {"vit_giant_patch14_dinov2", 's', ""},
    {"vit_giant_patch14_reg1_tipsv2", 's', ""},
    {"vit_giant_patch14_reg4_dinov2", 's', ""},
    {"vit_giant_patch16_gap_224", 'g', ""},
    {"vit_giant_patch16_radio_v3", 'g', ""},
    {"vit_giantopt_patch16_siglip_256", 't', ""},
    {"vit_giantopt_patch16_siglip_384", 't', ""},
    {"vit_giantopt_patch16_siglip_gap_256", 't', ""},
    {"vit_giantopt_patch16_siglip_gap_384", 't', ""},
    {"vit_gigantic_patch14_224", 'g', ""},
    {"vit_gigantic_patch14_clip_224", 'G', ""},
    {"vit_gigantic_patch14_clip_378", 'G', ""},
    {"vit_gigantic_patch14_clip_quickgelu_224", 'q', ""},
    {"vit_huge_patch14_224", 'g', ""},
    {"vit_huge_patch14_clip_224", 'G', ""},
    {"vit_huge_patch14_clip_336", 'G', ""},
    {"vit_huge_patch14_clip_378", 'G', ""},
    {"vit_huge_patch14_clip_quickgelu_224", 'q', ""},
    {"vit_huge_patch14_clip_quickgelu_378", 'q', ""},
    {"vit_huge_patch14_gap_224", 'g', ""},
    {"vit_huge_patch14_xp_224", 'x', "ParallelScalingBlock, RmsNorm"},
    {"vit_huge_patch16_gap_448", 'g', ""},
    {"vit_huge_patch16_radio_v3", 'g', ""},
    {"vit_huge_patch16_radio_v4", 'g', ""},
    {"vit_intern300m_patch14_448", 'g', ""},
    {"vit_large_patch14_224", 'g', ""},
    {"vit_large_patch14_clip_224", 'G', ""},
    {"vit_large_patch14_clip_336", 'G', ""},
    {"vit_large_patch14_clip_quickgelu_224", 'q', ""},
    {"vit_large_patch14_clip_quickgelu_336", 'q', ""},
    {"vit_large_patch14_dinov2", 'g', ""},
    {"vit_large_patch14_reg1_tipsv2", 'g', ""},
    {"vit_large_patch14_reg4_dinov2", 'g', ""},
    {"vit_large_patch14_xp_224", 'x', "ParallelScalingBlock, RmsNorm"},
    {"vit_large_patch16_224", 'g', ""},
    {"vit_large_patch16_384", 'g', ""},
    {"vit_large_patch16_radio_v3", 'g', ""},
    {"vit_large_patch16_siglip_256", 'g', ""},
    {"vit_large_patch16_siglip_384", 'g', ""},
    {"vit_large_patch16_siglip_512", 't', ""},
    {"vit_large_patch16_siglip_gap_256", 'g', ""},
    {"vit_large_patch16_siglip_gap_384", 'g', ""},
    {"vit_large_patch16_siglip_gap_512", 't', ""},
    {"vit_large_patch32_224", 'g', ""},
    {"vit_large_patch32_384", 'g', ""},
    {"vit_little_patch16_reg1_gap_256", 'g', ""},
    {"vit_little_patch16_reg4_gap_256", 'g', ""},
    {"vit_medium_patch16_clip_224", 'G', ""},
    {"vit_medium_patch16_gap_240", 'g', ""},
    {"vit_medium_patch16_gap_256", 'g', ""},
    {"vit_medium_patch16_gap_384", 'g', ""},
    {"vit_medium_patch16_reg1_gap_256", 'g', ""},
    {"vit_medium_patch16_reg4_gap_256", 'g', ""},
    {"vit_medium_patch32_clip_224", 'G', ""},
    {"vit_mediumd_patch16_reg4_gap_256", 'g', ""},
    {"vit_mediumd_patch16_reg4_gap_384", 'g', ""},
    {"vit_pwee_patch16_reg1_gap_256", 'x', "ParallelScalingBlock"},
    {"vit_small_patch14_dinov2", 'g', ""},
    {"vit_small_patch14_reg4_dinov2", 'g', ""},
    {"vit_small_patch16_18x2_224", 'x', "ParallelThingsBlock"},
    {"vit_small_patch16_224", 'g', ""},
    {"vit_small_patch16_36x1_224", 'g', ""},
    {"vit_small_patch16_384", 'g', ""},
    {"vit_small_patch32_224", 'g', ""},
    {"vit_small_patch32_384", 'g', ""},
    {"vit_small_patch8_224", 'g', ""},
    {"vit_so150m2_patch16_reg1_gap_256", 'g', ""},
    {"vit_so150m2_patch16_reg1_gap_384", 'g', ""},
    {"vit_so150m2_patch16_reg1_gap_448", 'g', ""},
    {"vit_so150m_patch16_reg4_gap_256", 'g', ""},
    {"vit_so150m_patch16_reg4_gap_384", 'g', ""},
    {"vit_so150m_patch16_reg4_map_256", 'g', ""},
    {"vit_so400m_patch14_reg1_tipsv2", 'g', ""},
    {"vit_so400m_patch14_siglip_224", 'g', ""},
    {"vit_so400m_patch14_siglip_378", 'g', ""},
    {"vit_so400m_patch14_siglip_384", 'g', ""},
    {"vit_so400m_patch14_siglip_gap_224", 'g', ""},
    {"vit_so400m_patch14_siglip_gap_378", 'g', ""},
    {"vit_so400m_patch14_siglip_gap_384", 'g', ""},
    {"vit_so400m_patch14_siglip_gap_448", 'g', ""},
    {"vit_so400m_patch14_siglip_gap_896", 'g', ""},
    {"vit_so400m_patch16_radio_v4", 'g', ""},
    {"vit_so400m_patch16_siglip_256", 't', ""},
    {"vit_so400m_patch16_siglip_384", 't', ""},
    {"vit_so400m_patch16_siglip_512", 't', ""},
    {"vit_so400m_patch16_siglip_gap_256", 't', ""},
    {"vit_so400m_patch16_siglip_gap_384", 't', ""},
    {"vit_so400m_patch16_siglip_gap_512", 't', ""},
    {"vit_tiny_patch16_224", 'g', ""},
    {"vit_tiny_patch16_384", 'g', ""},
    {"vit_wee_patch16_reg1_gap_256", 'g', ""},
    {"vit_xsmall_patch16_clip_224", 'G', ""},
};

static const struct vit__timm_arch *vit__timm_arch_find(const char *name) {
    for (size_t i = 0; i < sizeof(vit__timm_archs) / sizeof(vit__timm_archs[0]); i++)
        if (!strcmp(vit__timm_archs[i].name, name)) return &vit__timm_archs[i];
    return NULL;
}

// Heads of the timm architectures whose head size is not 64.
static int vit__arch_heads(const char *arch) {
    static const struct { const char *key; int heads; } table[] = {
        {"vit_huge", 16}, {"vit_giant", 16}, {"vit_gigantic", 16}, {"vit_so400m", 16}, {"vit_little", 6},
        {"vit_mediumd", 8}, {"vit_betwixt", 10}, {"vit_pwee", 16}, {"vit_pe_core_gigantic", 16}};
    for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
        if (!strncmp(arch, table[i].key, strlen(table[i].key))) return table[i].heads;
    return 0;
}

// Hugging Face hidden_act values -> vit_act (-1: not computed by vit.h)
static int vit__hf_act(const vit__json *j, int n) {
    if (vit__json_eq(j, n, "gelu")) return VIT_ACT_GELU;
    if (vit__json_eq(j, n, "quick_gelu")) return VIT_ACT_QUICK_GELU;
    if (vit__json_eq(j, n, "gelu_pytorch_tanh") || vit__json_eq(j, n, "gelu_new")) return VIT_ACT_GELU_TANH;
    return -1;
}

// timm model_args keys that vit.h reads, or that do not change inference
// (dropout rates, init schemes); any other key is refused.
static int vit__timm_arg_known(const vit__json *j, int key) {
    static const char *const known[] = {
        "img_size", "patch_size", "in_chans", "embed_dim", "depth", "num_heads", "mlp_ratio", "num_classes", "global_pool",
        "class_token", "no_embed_class", "reg_tokens", "fc_norm", "qkv_bias", "qk_norm", "init_values", "pre_norm", "act_layer",
        "drop_rate", "pos_drop_rate", "patch_drop_rate", "proj_drop_rate", "attn_drop_rate", "drop_path_rate", "weight_init",
        "dynamic_img_size", "dynamic_img_pad", "proj_bias", "final_norm", "pos_embed", "fix_init", "distilled"};
    for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
        if (vit__json_eq(j, key, known[i])) return 1;
    return 0;
}

static void vit__set_preprocess_source(vit_config *cfg, vit_preprocess_source src, const char *from) {
    cfg->preprocess_source = src;
    snprintf(cfg->preprocess_from, sizeof(cfg->preprocess_from), "%s", from);
}

static vit_status vit__read_config_timm(vit__loader *L, const vit__json *j, int root, vit_config *cfg, vit__stated *s) {
    vit_status st;
    int args = vit__json_get(j, root, "model_args");
    int arch = vit__json_get(j, root, "architecture");
    char name[128];
    if (arch >= 0 && j->nodes[arch].type == VIT__J_STR) {
        vit__json_str(j, arch, name, sizeof(name));
        const struct vit__timm_arch *a = vit__timm_arch_find(name);
        if (!a) return vit__fail(L->err, VIT_ERROR_UNSUPPORTED, "config.json: architecture '%s' is not one of timm's ViT architectures that vit.h knows", name);
        if (a->kind == 'x') return vit__fail(L->err, VIT_ERROR_UNSUPPORTED, "config.json: architecture '%s' uses %s, which vit.h does not compute", name, a->why);
        s->act = a->kind == 'q' ? VIT_ACT_QUICK_GELU : a->kind == 't' ? VIT_ACT_GELU_TANH : a->kind == 's' ? VIT_ACT_SWIGLU : VIT_ACT_GELU;
        s->eps = a->kind == 'G' || a->kind == 'q' ? 1e-5 : 1e-6;
        s->projection = strstr(name, "_clip") != NULL; // open_clip's image projection, as timm's head
        s->distilled = strstr(name, "_distilled") != NULL; // the names say the prefix tokens the architecture makes
        const char *rg = strstr(name, "_reg");
        if (rg && rg[4] >= '0' && rg[4] <= '9') s->reg_tokens = atoi(rg + 4);
        int h = vit__arch_heads(name);
        if (h) s->num_heads = h;
    }
    if ((st = vit__cfg_int(L, j, root, "num_classes", 0, VIT_MAX_DIM, &s->num_classes)) != VIT_OK) return st;
    int gp = vit__json_get(j, root, "global_pool");
    if (args >= 0) {
        if (j->nodes[args].type != VIT__J_OBJ) return vit__fail(L->err, VIT_ERROR_BAD_FORMAT, "config.json: model_args is not an object");
        for (int k = j->nodes[args].first_child; k >= 0; k = j->nodes[j->nodes[k].next].next)
            if (!vit__timm_arg_known(j, k)) {
                vit__json_str(j, k, name, sizeof(name));
                return vit__fail(L->err, VIT_ERROR_UNSUPPORTED, "config.json: model_args '%s' is not computed by vit.h", name);
            }
        if ((st = vit__cfg_size(L, j, args, "img_size", &s->image_h, &s->image_w)) ||
            (st = vit__cfg_size(L, j, args, "patch_size", &s->patch_size, NULL)) ||
            (st = vit__cfg_int(L, j, args, "in_chans", 1, VIT_MAX_DIM, &s->in_chans)) ||
            (st = vit__cfg_int(L, j, args, "embed_dim", 1, VIT_MAX_DIM, &s->dim)) ||
            (st = vit__cfg_int(L, j, args, "depth", 1, VIT_MAX_DEPTH, &s->depth)) ||
            (st = vit__cfg_int(L, j, args, "num_heads", 1, VIT_MAX_DIM, &s->num_heads)) ||
            (st = vit__cfg_int(L, j, args, "num_classes", 0, VIT_MAX_DIM, &s->num_classes)) ||
            (st = vit__cfg_int(L, j, args, "reg_tokens", 0, VIT_MAX_TOKENS, &s->reg_tokens)))
            return st;
        vit__cfg_num(j, args, "mlp_ratio", &s->mlp_ratio);
        vit__cfg_bool(j, args, "class_token", &s->class_token);
        vit__cfg_bool(j, args, "no_embed_class", &s->no_embed_class);
        vit__cfg_bool(j, args, "fc_norm", &s->fc_norm);
        vit__cfg_bool(j, args, "qk_norm", &s->qk_norm);
        int r = 0, n;
        if (vit__cfg_bool(j, args, "dynamic_img_pad", &r) && r) return vit__fail(L->err, VIT_ERROR_UNSUPPORTED, "config.json: dynamic_img_pad is not supported");
        if (vit__cfg_bool(j, args, "final_norm", &r) && !r) return vit__fail(L->err, VIT_ERROR_UNSUPPORTED, "config.json: final_norm false is not supported");
        if ((n = vit__json_get(j, args, "pos_embed")) >= 0 && !vit__json_eq(j, n, "learn"))
            return vit__fail(L->err, VIT_ERROR_UNSUPPORTED, "config.json: pos_embed other than 'learn' is not supported");
        if ((n = vit__json_get(j, args, "act_layer")) >= 0) {
            if (vit__json_eq(j, n, "gelu")) s->act = VIT_ACT_GELU;
            else if (vit__json_eq(j, n, "gelu_tanh")) s->act = VIT_ACT_GELU_TANH;
            else if (vit__json_eq(j, n, "quick_gelu")) s->act = VIT_ACT_QUICK_GELU;
            else {
                vit__json_str(j, n, name, sizeof(name));
                return vit__fail(L->err, VIT_ERROR_UNSUPPORTED, "config.json: act_layer '%s' is not computed by vit.h", name);
            }
            if (s->act == VIT_ACT_SWIGLU) return vit__fail(L->err, VIT_ERROR_UNSUPPORTED, "config.json: act_layer with a SwiGLU architecture");
        }
        if (vit__json_get(j, args, "global_pool") >= 0) gp = vit__json_get(j, args, "global_pool");
    }
    if (gp >= 0) {
        if (vit__json_eq(j, gp, "token")) s->pool = VIT_POOL_TOKEN;
        else if (vit__json_eq(j, gp, "avg")) s->pool = VIT_POOL_AVG;
        else if (vit__json_eq(j, gp, "map")) s->pool = VIT_POOL_MAP;
        else return vit__fail(L->err, VIT_ERROR_UNSUPPORTED, "config.json: global_pool must be 'token', 'avg' or 'map'");
    }
    int pc = vit__json_get(j, root, "pretrained_cfg");
    vit__set_preprocess_source(cfg, VIT_PREPROCESS_UNKNOWN, "config.json pretrained_cfg");
    if (pc >= 0 && vit__json_get(j, pc, "mean") >= 0 && vit__json_get(j, pc, "std") >= 0)
        vit__set_preprocess_source(cfg, VIT_PREPROCESS_FROM_TIMM_CONFIG, "config.json pretrained_cfg");
    if (pc >= 0) {
        double d;
        if ((st = vit__cfg_floats(L, j, pc, "mean", cfg->mean, 3)) || (st = vit__cfg_floats(L, j, pc, "std", cfg->std, 3))) return st;
        if (vit__cfg_num(j, pc, "crop_pct", &d)) {
            if (!(d > 0.0 && d <= 4.0)) return vit__fail(L->err, VIT_ERROR_BAD_FORMAT, "config.json: crop_pct must be in (0, 4]");
            cfg->crop_pct = (float)d;
        }
        if (!vit__cfg_interp(j, pc, "interpolation", &cfg->interpolation))
            return vit__fail(L->err, VIT_ERROR_UNSUPPORTED, "config.json: pretrained_cfg interpolation must be 'bicubic', 'bilinear' or 'nearest'");
        int cm = vit__json_get(j, pc, "crop_mode");
        if (cm >= 0 && vit__json_eq(j, cm, "squash")) cfg->resize = VIT_RESIZE_SQUARE;
        else if (cm >= 0 && !vit__json_eq(j, cm, "center"))
            return vit__fail(L->err, VIT_ERROR_UNSUPPORTED, "config.json: pretrained_cfg crop_mode must be 'center' or 'squash'");
    }
    return VIT_OK;
}

// Hugging Face: config.json's model_type must be the family the tensors name
// (full CLIP/SigLIP files keep the vision tower's settings in vision_config).
static vit_status vit__read_config_hf(vit__loader *L, const vit__json *j, int root, vit_config *cfg, vit__stated *s) {
    static const char *const types[VIT__FAM_COUNT][2] = {
        {"", ""}, {"vit", "vit"}, {"deit", "deit"}, {"dinov2", "dinov2_with_registers"}, {"clip", "clip_vision_model"}, {"siglip", "siglip_vision_model"},
        {"", ""}, {"", ""}}; // (the text families are read from text_config: vit__read_text_config)
    vit_status st;
    char name[64];
    int mt = vit__json_get(j, root, "model_type"), obj = root;
    if (mt >= 0) {
        if (!vit__json_eq(j, mt, types[L->fam][0]) && !vit__json_eq(j, mt, types[L->fam][1])) {
            vit__json_str(j, mt, name, sizeof(name));
            return vit__fail(L->err, VIT_ERROR_UNSUPPORTED, "config.json: model_type '%s' does not match the tensors (a %s file) or is not supported", name,
                             types[L->fam][0]);
        }
        if (vit__json_eq(j, mt, "clip") || vit__json_eq(j, mt, "siglip")) {
            obj = vit__json_get(j, root, "vision_config");
            if (obj < 0 || j->nodes[obj].type != VIT__J_OBJ) return vit__fail(L->err, VIT_ERROR_BAD_FORMAT, "config.json: no vision_config object");
        }
        L->dinov2_registers = vit__json_eq(j, mt, "dinov2_with_registers");
        if (L->dinov2_registers &&
            (st = vit__cfg_int(L, j, obj, "num_register_tokens", 0, VIT_MAX_TOKENS, &s->reg_tokens)) != VIT_OK)
            return st;
    }
    int act = vit__json_get(j, obj, "hidden_act");
    if (act >= 0 && (s->act = vit__hf_act(j, act)) < 0) {
        vit__json_str(j, act, name, sizeof(name));
        return vit__fail(L->err, VIT_ERROR_UNSUPPORTED, "config.json: hidden_act '%s' is not computed by vit.h", name);
    }
    int swiglu = 0, use_head = 1;
    if (vit__cfg_bool(j, obj, "use_swiglu_ffn", &swiglu) && swiglu) s->act = VIT_ACT_SWIGLU;
    if (vit__cfg_bool(j, obj, "vision_use_head", &use_head) && !use_head)
        return vit__fail(L->err, VIT_ERROR_UNSUPPORTED, "config.json: vision_use_head false (no pooled output) is not supported");
    if ((st = vit__cfg_int(L, j, obj, "hidden_size", 1, VIT_MAX_DIM, &s->dim)) ||
        (st = vit__cfg_int(L, j, obj, "num_attention_heads", 1, VIT_MAX_DIM, &s->num_heads)) ||
        (st = vit__cfg_int(L, j, obj, "num_hidden_layers", 1, VIT_MAX_DEPTH, &s->depth)) ||
        (L->fam != VIT__FAM_HF_DINOV2 && (st = vit__cfg_int(L, j, obj, "intermediate_size", 1, VIT_MAX_DIM, &s->mlp_dim))) ||
        (st = vit__cfg_size(L, j, obj, "image_size", &s->image_h, &s->image_w)) ||
        (st = vit__cfg_size(L, j, obj, "patch_size", &s->patch_size, NULL)) ||
        (st = vit__cfg_int(L, j, obj, "num_channels", 1, VIT_MAX_DIM, &s->in_chans)))
        return st;
    int en = vit__json_get(j, obj, "layer_norm_eps");
    if (en >= 0 && (!vit__json_double(j, en, &s->eps) || !(s->eps > 0.0 && s->eps < 1.0)))
        return vit__fail(L->err, VIT_ERROR_BAD_FORMAT, "config.json: layer_norm_eps must be a number in (0, 1)");
    cfg->mean[0] = cfg->mean[1] = cfg->mean[2] = 0.5f; // ViTImageProcessor's defaults, until preprocessor_config.json says otherwise
    cfg->std[0] = cfg->std[1] = cfg->std[2] = 0.5f;
    cfg->crop_pct = 1.0f; cfg->interpolation = VIT_INTERP_BILINEAR; cfg->resize = VIT_RESIZE_SQUARE;
    vit__set_preprocess_source(cfg, VIT_PREPROCESS_UNKNOWN, "preprocessor_config.json");
    return VIT_OK;
}

static vit_status vit__read_preprocessor(const vit__json *p, int root, vit_config *cfg, char *err);

// The caller's preprocessing (vit_options mean/std/interpolation/crop_pct/
// resize/resize_size) replaces the files'. The Hugging Face modes' crop_pct
// (crop / size) waits for the input size: vit__stated_crop, after it is known.
static vit_status vit__stated_preprocess(const vit_options *o, vit_config *cfg, char *err) {
    int stated = o->std[0] > 0.0f && o->std[1] > 0.0f && o->std[2] > 0.0f;
    if (!stated) {
        if (o->std[0] != 0.0f || o->std[1] != 0.0f || o->std[2] != 0.0f || o->mean[0] != 0.0f || o->mean[1] != 0.0f || o->mean[2] != 0.0f ||
            o->interpolation || o->crop_pct != 0.0f || o->resize || o->resize_size != 0)
            return vit__fail(err, VIT_ERROR_INVALID_ARGUMENT, "vit_options: mean, interpolation, crop_pct, resize and resize_size state the preprocessing only with std (all three > 0)");
        return VIT_OK;
    }
    vit_interp interp = VIT_INTERP_BICUBIC;
    if (o->interpolation) {
        if (!strcmp(o->interpolation, "bicubic")) interp = VIT_INTERP_BICUBIC;
        else if (!strcmp(o->interpolation, "bilinear")) interp = VIT_INTERP_BILINEAR;
        else if (!strcmp(o->interpolation, "nearest")) interp = VIT_INTERP_NEAREST;
        else return vit__fail(err, VIT_ERROR_INVALID_ARGUMENT, "vit_options: interpolation must be \"bicubic\", \"bilinear\" or \"nearest\"");
    }
    vit_resize mode = VIT_RESIZE_SHORTER_CROP;
    if (!o->resize || !strcmp(o->resize, "timm")) mode = VIT_RESIZE_SHORTER_CROP;
    else if (!strcmp(o->resize, "shortest_edge")) mode = VIT_RESIZE_SHORTER_CROP_HF;
    else if (!strcmp(o->resize, "square")) mode = VIT_RESIZE_SQUARE;
    else return vit__fail(err, VIT_ERROR_INVALID_ARGUMENT, "vit_options: resize must be \"timm\", \"shortest_edge\" or \"square\"");
    int hf = mode == VIT_RESIZE_SHORTER_CROP_HF || (mode == VIT_RESIZE_SQUARE && o->resize_size != 0);
    if (o->resize_size < 0 || o->resize_size > VIT_MAX_IMAGE_SIDE)
        return vit__fail(err, VIT_ERROR_INVALID_ARGUMENT, "vit_options: resize_size %d is not in 1..%d", o->resize_size, VIT_MAX_IMAGE_SIDE);
    if (mode == VIT_RESIZE_SHORTER_CROP_HF && o->resize_size == 0)
        return vit__fail(err, VIT_ERROR_INVALID_ARGUMENT, "vit_options: resize \"shortest_edge\" needs resize_size (the processor's size.shortest_edge)");
    if (mode == VIT_RESIZE_SHORTER_CROP && o->resize_size != 0)
        return vit__fail(err, VIT_ERROR_INVALID_ARGUMENT, "vit_options: resize_size goes with resize \"shortest_edge\" or \"square\" (timm's resize is crop_pct's)");
    if (hf && o->crop_pct != 0.0f)
        return vit__fail(err, VIT_ERROR_INVALID_ARGUMENT, "vit_options: crop_pct goes with resize \"timm\" or \"square\" without resize_size (with resize_size the crop is the input size)");
    if (o->crop_pct != 0.0f && !(o->crop_pct > 0.0f && o->crop_pct <= 4.0f))
        return vit__fail(err, VIT_ERROR_INVALID_ARGUMENT, "vit_options: crop_pct must be in (0, 4]");
    for (int c = 0; c < 3; c++) { cfg->mean[c] = o->mean[c]; cfg->std[c] = o->std[c]; }
    cfg->interpolation = interp;
    cfg->crop_pct = hf ? 0.0f : o->crop_pct != 0.0f ? o->crop_pct : 1.0f;
    cfg->resize = mode;
    cfg->resize_shorter = hf ? o->resize_size : 0;
    vit__set_preprocess_source(cfg, VIT_PREPROCESS_FROM_OPTIONS, "vit_options");
    return VIT_OK;
}

// A stated Hugging Face resize (resize_size): its crop is the input, max(H, W) of resize_size.
static void vit__stated_crop(vit_config *cfg) {
    if (cfg->preprocess_source != VIT_PREPROCESS_FROM_OPTIONS || cfg->resize_shorter <= 0) return;
    int big = cfg->image_height > cfg->image_width ? cfg->image_height : cfg->image_width;
    cfg->crop_pct = (float)((double)big / cfg->resize_shorter);
}

// VIT_ERROR_UNSUPPORTED, naming the missing file, when the model's preprocessing is not known.
static vit_status vit__preprocess_known(vit_model *m, const char *fn) {
    const vit_config *c = &m->cfg;
    if (c->preprocess_source != VIT_PREPROCESS_UNKNOWN) return VIT_OK;
    const char *what = strcmp(c->preprocess_from, "config.json pretrained_cfg") ? c->preprocess_from[0] ? c->preprocess_from : "config.json" : NULL;
    return vit__fail(m->error, VIT_ERROR_UNSUPPORTED,
                     "%s: %s%s: the preprocessing (size, mean/std, resize/crop) is not known; "
                     "add it, or state it in vit_options (std, mean, interpolation, resize, resize_size or crop_pct, image_height/width)",
                     fn, what ? what : "config.json has no pretrained_cfg with mean and std", what ? " not found beside the model" : "");
}

static vit_status vit__read_config(vit__loader *L, vit_config *cfg, vit__stated *s) {
    const vit__json *j = &L->cfg;
    vit_status st = VIT_OK;
    int root = L->cfg_root;
    if (root >= 0 && j->nodes[root].type != VIT__J_OBJ) return vit__fail(L->err, VIT_ERROR_BAD_FORMAT, "config.json is not a JSON object");
    if (root >= 0) {
        int hf_cfg = vit__json_get(j, root, "hidden_size") >= 0 || vit__json_get(j, root, "vision_config") >= 0 || vit__json_get(j, root, "model_type") >= 0;
        if (hf_cfg != (L->fam != VIT__FAM_TIMM)) {
            char mt[64] = "";
            int n = vit__json_get(j, root, "model_type");
            if (n >= 0) vit__json_str(j, n, mt, sizeof(mt));
            return vit__fail(L->err, VIT_ERROR_UNSUPPORTED, "config.json is a %s config (model_type '%s') but the tensors are named as %s writes them",
                             hf_cfg ? "Hugging Face" : "timm", mt, L->fam == VIT__FAM_TIMM ? "timm" : "Hugging Face");
        }
        st = hf_cfg ? vit__read_config_hf(L, j, root, cfg, s) : vit__read_config_timm(L, j, root, cfg, s);
        if (st != VIT_OK) return st;
        int name = vit__json_get(j, root, hf_cfg ? "architectures" : "architecture");
        if (name >= 0 && j->nodes[name].type == VIT__J_ARR) name = j->nodes[name].first_child; // HF: the first
        if (hf_cfg && (name < 0 || j->nodes[name].type != VIT__J_STR)) name = vit__json_get(j, root, "model_type");
        if (name >= 0 && j->nodes[name].type == VIT__J_STR) vit__json_str(j, name, cfg->architecture, sizeof(cfg->architecture));
    }
    // Hugging Face preprocessor_config.json, when present
    if (L->pre_root >= 0) return vit__read_preprocessor(&L->pre, L->pre_root, cfg, L->err);
    return VIT_OK;
}

// Reads a parsed Hugging Face preprocessor_config.json (root: its top object)
// into cfg's preprocessing fields (resize, resize_shorter, crop_pct,
// interpolation, mean, std) as transformers 5.24's PIL-backend processors apply
// it: PilBackend._preprocess (transformers/image_processing_backends.py) resizes
// (size.shortest_edge: get_resize_output_image_size; height/width: exactly),
// center_crops, rescales and normalizes; absent keys take the class's defaults
// (models/{vit,deit,clip,bit,siglip}/image_processing_pil_*.py), a JSON null is
// Python's None: off for the do_* flags, and a missing value where one is needed
// (transformers raises then, so do we: VIT_ERROR_BAD_FORMAT, as for ill-typed
// values). A value that changes the pixels in a way vit_preprocess_* does not
// reproduce is refused with VIT_ERROR_UNSUPPORTED naming the key. do_normalize
// false is reproduced as mean 0, std 1. do_convert_rgb is accepted as it is:
// it composites an image's alpha onto white, where vit.h drops alpha (the same
// pixels for images without alpha). cfg is written only on success.
static vit_status vit__read_preprocessor(const vit__json *p, int root, vit_config *cfg, char *err) {
    static const struct {
        const char *name;  // image_processor_type less "ImageProcessor"/"FeatureExtractor" and "Fast"/"Pil"
        int resample;      // PIL code
        int size, shortest;// default size: {"shortest_edge": size} when shortest, else size x size
        int to_square;     // default_to_square: an int size means size x size (else the shortest edge)
        int crop;          // default crop_size (0: None), and do_center_crop when > 0
        int openai;        // default image_mean/std: OpenAI CLIP's, else 0.5 / 0.5
    } classes[] = {
        {"ViT", 2, 224, 0, 1, 0, 0}, {"DeiT", 3, 256, 0, 1, 224, 0}, {"CLIP", 3, 224, 1, 0, 224, 1},
        {"Bit", 3, 224, 1, 0, 224, 1}, {"Siglip", 3, 224, 0, 0, 0, 0}};
    static const float openai_mean[3] = {0.48145466f, 0.4578275f, 0.40821073f}, openai_std[3] = {0.26862954f, 0.26130258f, 0.27577711f};
    static const char *const pil_filter[6] = {"NEAREST", "LANCZOS", "BILINEAR", "BICUBIC", "BOX", "HAMMING"};
    if (root < 0 || p->nodes[root].type != VIT__J_OBJ) return vit__fail(err, VIT_ERROR_BAD_FORMAT, "preprocessor_config.json is not a JSON object");
    // 1. the processor class
    int n = vit__json_get(p, root, "image_processor_type"), cls = -1;
    if (n < 0 || p->nodes[n].type == VIT__J_NULL) n = vit__json_get(p, root, "feature_extractor_type"); // transformers < 4.26 files
    if (n < 0 || p->nodes[n].type == VIT__J_NULL)
        return vit__fail(err, VIT_ERROR_UNSUPPORTED, "preprocessor_config.json: no image_processor_type: which processor (and defaults) applies is not known");
    if (p->nodes[n].type != VIT__J_STR) return vit__fail(err, VIT_ERROR_BAD_FORMAT, "preprocessor_config.json: image_processor_type is not a string");
    char type[64], base[64];
    size_t tl = vit__json_str(p, n, type, sizeof(type));
    if (tl < sizeof(type)) {
        memcpy(base, type, tl + 1);
        if (tl > 4 && !strcmp(base + tl - 4, "Fast")) base[tl -= 4] = 0; // the torchvision backend: same configuration
        else if (tl > 3 && !strcmp(base + tl - 3, "Pil")) base[tl -= 3] = 0;
        if (tl > 14 && !strcmp(base + tl - 14, "ImageProcessor")) base[tl - 14] = 0;
        else if (tl > 16 && !strcmp(base + tl - 16, "FeatureExtractor")) base[tl - 16] = 0;
        else base[0] = 0;
        for (int i = 0; i < (int)(sizeof(classes) / sizeof(classes[0])); i++)
            if (!strcmp(base, classes[i].name)) cls = i;
    }
    if (cls < 0)
        return vit__fail(err, VIT_ERROR_UNSUPPORTED, "preprocessor_config.json: image_processor_type '%s' is not one vit.h reproduces "
                         "(ViT, DeiT, CLIP, Bit and Siglip ImageProcessor)", type);
    // 2. the do_* flags and default_to_square: absent = the class's default, null = off
    enum { DO_RESIZE, DO_CENTER_CROP, DO_RESCALE, DO_NORMALIZE, DO_CONVERT_RGB, DO_PAD, TO_SQUARE, NFLAGS };
    static const char *const flag_key[NFLAGS] = {"do_resize", "do_center_crop", "do_rescale", "do_normalize", "do_convert_rgb", "do_pad", "default_to_square"};
    int flag[NFLAGS] = {1, classes[cls].crop > 0, 1, 1, 0, 0, classes[cls].to_square};
    for (int i = 0; i < NFLAGS; i++) {
        if ((n = vit__json_get(p, root, flag_key[i])) < 0) continue;
        vit__jtype ty = p->nodes[n].type;
        if (ty != VIT__J_NULL && ty != VIT__J_FALSE && ty != VIT__J_TRUE)
            return vit__fail(err, VIT_ERROR_BAD_FORMAT, "preprocessor_config.json: '%s' must be true, false or null", flag_key[i]);
        flag[i] = ty == VIT__J_TRUE;
    }
    // 3. size and crop_size: kind 0 = None, 1 = height x width, 2 = shortest edge (in hw[k][0])
    static const char *const size_key[2] = {"size", "crop_size"};
    int kind[2] = {classes[cls].shortest ? 2 : 1, classes[cls].crop > 0};
    int hw[2][2] = {{classes[cls].size, classes[cls].size}, {classes[cls].crop, classes[cls].crop}};
    for (int k = 0; k < 2; k++) {
        if ((n = vit__json_get(p, root, size_key[k])) < 0) continue;
        const vit__jnode *s = &p->nodes[n];
        int ok = 1;
        if (s->type == VIT__J_NULL) kind[k] = 0;
        else if (s->type == VIT__J_NUM) { // get_size_dict: an int is square, or for size without default_to_square the shortest edge
            ok = vit__json_int(p, n, 1, VIT_MAX_DIM, &hw[k][0]);
            hw[k][1] = hw[k][0];
            kind[k] = k == 1 || flag[TO_SQUARE] ? 1 : 2;
        } else if (s->type == VIT__J_ARR) { // [height, width]
            ok = s->count == 2 && vit__json_int(p, s->first_child, 1, VIT_MAX_DIM, &hw[k][0]) &&
                 vit__json_int(p, p->nodes[s->first_child].next, 1, VIT_MAX_DIM, &hw[k][1]);
            kind[k] = 1;
        } else if (s->type == VIT__J_OBJ) { // exactly {height, width} or {shortest_edge}; the other key sets are refused
            static const char *const other[5] = {"longest_edge", "max_height", "max_width", "min_pixels", "max_pixels"};
            int h = -1, w = -1, se = -1;
            for (int q = s->first_child; q >= 0 && ok; q = p->nodes[p->nodes[q].next].next) {
                int v = p->nodes[q].next;
                if (vit__json_eq(p, q, "height")) h = v;
                else if (vit__json_eq(p, q, "width")) w = v;
                else if (vit__json_eq(p, q, "shortest_edge")) se = v;
                else {
                    for (int o = 0; o < 5; o++)
                        if (vit__json_eq(p, q, other[o]))
                            return vit__fail(err, VIT_ERROR_UNSUPPORTED, "preprocessor_config.json: %s.%s is not reproduced (only height/width and shortest_edge)", size_key[k], other[o]);
                    ok = 0;
                }
            }
            if (ok && h >= 0 && w >= 0 && se < 0 && s->count == 2) {
                ok = vit__json_int(p, h, 1, VIT_MAX_DIM, &hw[k][0]) && vit__json_int(p, w, 1, VIT_MAX_DIM, &hw[k][1]);
                kind[k] = 1;
            } else if (ok && se >= 0 && s->count == 1) {
                ok = vit__json_int(p, se, 1, VIT_MAX_DIM, &hw[k][0]);
                hw[k][1] = hw[k][0];
                kind[k] = 2;
            } else ok = 0;
        } else ok = 0;
        if (!ok)
            return vit__fail(err, VIT_ERROR_BAD_FORMAT, "preprocessor_config.json: '%s' must be an integer in [1, %d], [height, width], "
                             "{\"height\", \"width\"} or {\"shortest_edge\"}", size_key[k], VIT_MAX_DIM);
    }
    // 4. resample, rescale_factor, image_mean, image_std (absent = the class's default, null = None)
    int resample = classes[cls].resample;
    if ((n = vit__json_get(p, root, "resample")) >= 0) {
        if (p->nodes[n].type == VIT__J_NULL) resample = -1;
        else if (!vit__json_int(p, n, 0, 5, &resample))
            return vit__fail(err, VIT_ERROR_BAD_FORMAT, "preprocessor_config.json: 'resample' must be a PIL filter code 0 to 5");
    }
    double rescale = 1.0 / 255.0;
    if ((n = vit__json_get(p, root, "rescale_factor")) >= 0) {
        if (p->nodes[n].type == VIT__J_NULL) rescale = -1.0;
        else if (!vit__json_double(p, n, &rescale) || !(rescale > 0.0))
            return vit__fail(err, VIT_ERROR_BAD_FORMAT, "preprocessor_config.json: 'rescale_factor' must be a positive number");
    }
    float ms[2][3];
    for (int c = 0; c < 3; c++) {
        ms[0][c] = classes[cls].openai ? openai_mean[c] : 0.5f;
        ms[1][c] = classes[cls].openai ? openai_std[c] : 0.5f;
    }
    int ms_none[2] = {0, 0};
    static const char *const ms_key[2] = {"image_mean", "image_std"};
    for (int k = 0; k < 2; k++) {
        if ((n = vit__json_get(p, root, ms_key[k])) < 0) continue;
        const vit__jnode *s = &p->nodes[n];
        double d = 0.0;
        int ok = 1;
        if (s->type == VIT__J_NULL) ms_none[k] = 1;
        else if (s->type == VIT__J_NUM) {
            ok = vit__json_double(p, n, &d) && fabs(d) <= FLT_MAX;
            ms[k][0] = ms[k][1] = ms[k][2] = ok ? (float)d : 0.0f;
        } else if (s->type == VIT__J_ARR && (s->count == 1 || s->count == 3)) {
            int c = 0;
            for (int q = s->first_child; q >= 0 && ok; q = p->nodes[q].next, c++) {
                ok = vit__json_double(p, q, &d) && fabs(d) <= FLT_MAX; // finite, and a float
                ms[k][c] = ok ? (float)d : 0.0f;
            }
            if (s->count == 1) ms[k][1] = ms[k][2] = ms[k][0];
        } else ok = 0;
        for (int c = 0; c < 3 && ok && !ms_none[k] && k == 1; c++) ok = ms[k][c] != 0.0f; // a std of 0 divides by zero
        if (!ok) return vit__fail(err, VIT_ERROR_BAD_FORMAT, "preprocessor_config.json: '%s' must be a number or a list of 1 or 3 numbers%s", ms_key[k], k ? ", none 0" : "");
    }
    // 5. what the values do to the pixels: refuse what vit_preprocess_* does not reproduce
    if (!flag[DO_RESIZE]) return vit__fail(err, VIT_ERROR_UNSUPPORTED, "preprocessor_config.json: do_resize false is not reproduced (the input would keep each image's size)");
    if (kind[0] == 0 || resample < 0) return vit__fail(err, VIT_ERROR_BAD_FORMAT, "preprocessor_config.json: do_resize needs 'size' and 'resample'");
    if (resample != 0 && resample != 2 && resample != 3)
        return vit__fail(err, VIT_ERROR_UNSUPPORTED, "preprocessor_config.json: resample %d (%s) is not reproduced (0 NEAREST, 2 BILINEAR, 3 BICUBIC are)", resample, pil_filter[resample]);
    if (flag[DO_CENTER_CROP] && kind[1] != 1) return vit__fail(err, VIT_ERROR_BAD_FORMAT, "preprocessor_config.json: do_center_crop needs crop_size {height, width}");
    if (!flag[DO_RESCALE]) return vit__fail(err, VIT_ERROR_UNSUPPORTED, "preprocessor_config.json: do_rescale false is not reproduced (pixels would be normalised as 0-255)");
    if (rescale < 0.0) return vit__fail(err, VIT_ERROR_BAD_FORMAT, "preprocessor_config.json: do_rescale needs 'rescale_factor'");
    for (int v = 1; v < 256; v++) { // transformers rescales in double, then float32: the same floats as v / 255.0f, or refused
        double x = v * rescale;
        if (!(x <= FLT_MAX) || (float)x != (float)v / 255.0f)
            return vit__fail(err, VIT_ERROR_UNSUPPORTED, "preprocessor_config.json: rescale_factor %.17g is not reproduced (only 1/255)", rescale);
    }
    if (flag[DO_PAD]) return vit__fail(err, VIT_ERROR_UNSUPPORTED, "preprocessor_config.json: do_pad true is not reproduced");
    if (flag[DO_NORMALIZE] && (ms_none[0] || ms_none[1])) return vit__fail(err, VIT_ERROR_BAD_FORMAT, "preprocessor_config.json: do_normalize needs 'image_mean' and 'image_std'");
    if (!flag[DO_NORMALIZE]) // (x - 0) / 1 is x: the rescaled pixels themselves
        for (int c = 0; c < 3; c++) { ms[0][c] = 0.0f; ms[1][c] = 1.0f; }
    vit_resize mode = VIT_RESIZE_SQUARE;
    int shorter = 0;
    float crop_pct = 1.0f;
    if (kind[0] == 2) { // shortest edge, then the crop (CLIP, DINOv2)
        if (!flag[DO_CENTER_CROP])
            return vit__fail(err, VIT_ERROR_UNSUPPORTED, "preprocessor_config.json: size.shortest_edge without do_center_crop is not reproduced (the input would keep each image's aspect ratio)");
        if (hw[1][0] != hw[1][1])
            return vit__fail(err, VIT_ERROR_UNSUPPORTED, "preprocessor_config.json: crop_size %dx%d (width x height) is not square", hw[1][1], hw[1][0]);
        mode = VIT_RESIZE_SHORTER_CROP_HF;
        shorter = hw[0][0];
        crop_pct = (float)((double)hw[1][0] / shorter);
    } else if (flag[DO_CENTER_CROP] && (hw[1][0] != hw[0][0] || hw[1][1] != hw[0][1])) { // a fixed size, then the crop (DeiT)
        if (hw[0][0] != hw[0][1] || hw[1][0] != hw[1][1])
            return vit__fail(err, VIT_ERROR_UNSUPPORTED, "preprocessor_config.json: size %dx%d then crop_size %dx%d (width x height): only square ones are reproduced",
                             hw[0][1], hw[0][0], hw[1][1], hw[1][0]);
        shorter = hw[0][0];
        crop_pct = (float)((double)hw[1][0] / shorter);
    } // else straight to the input size (ViT, SigLIP; a crop of the whole image is none)
    cfg->resize = mode;
    cfg->resize_shorter = shorter;
    cfg->crop_pct = crop_pct;
    cfg->interpolation = resample == 3 ? VIT_INTERP_BICUBIC : resample == 2 ? VIT_INTERP_BILINEAR : VIT_INTERP_NEAREST;
    for (int c = 0; c < 3; c++) { cfg->mean[c] = ms[0][c]; cfg->std[c] = ms[1][c]; }
    vit__set_preprocess_source(cfg, VIT_PREPROCESS_FROM_HF_PROCESSOR, "preprocessor_config.json");
    return VIT_OK;
}

// Collects class names from label_names (timm) or id2label (HF).
static vit_status vit__read_labels(vit__loader *L, vit_model *m) {
    const vit__json *j = &L->cfg;
    int K = m->cfg.num_classes, root = L->cfg_root;
    if (root < 0 || K <= 0) return VIT_OK;
    int ln = vit__json_get(j, root, "label_names"), id2 = vit__json_get(j, root, "id2label");
    int *src = (int *)vit__malloc(&m->alloc, (size_t)K * sizeof(int));
    if (!src) return vit__fail(L->err, VIT_ERROR_OUT_OF_MEMORY, "out of memory for labels");
    for (int i = 0; i < K; i++) src[i] = -1;
    int any = 0;
    if (ln >= 0 && j->nodes[ln].type == VIT__J_ARR) {
        int i = 0;
        for (int c = j->nodes[ln].first_child; c >= 0 && i < K; c = j->nodes[c].next, i++)
            if (j->nodes[c].type == VIT__J_STR) { src[i] = c; any = 1; }
    } else if (id2 >= 0 && j->nodes[id2].type == VIT__J_OBJ) {
        for (int k = j->nodes[id2].first_child; k >= 0; k = j->nodes[j->nodes[k].next].next) {
            char key[24];
            int v = j->nodes[k].next, idx = 0, ok = 1;
            size_t kl = vit__json_str(j, k, key, sizeof(key));
            if (kl == 0 || kl >= sizeof(key) - 1) continue;
            for (size_t c = 0; c < kl && ok; c++) { ok = key[c] >= '0' && key[c] <= '9' && idx < K; idx = idx * 10 + (key[c] - '0'); }
            if (ok && idx < K && j->nodes[v].type == VIT__J_STR) { src[idx] = v; any = 1; }
        }
    }
    vit_status st = VIT_OK;
    if (any) {
        size_t total = 0;
        char tmp[1];
        for (int i = 0; i < K; i++) total += (src[i] >= 0 ? vit__json_str(j, src[i], tmp, sizeof(tmp)) : 0) + 24;
        m->label_text = (char *)vit__malloc(&m->alloc, total);
        m->labels = (char **)vit__malloc(&m->alloc, (size_t)K * sizeof(char *));
        if (!m->label_text || !m->labels) {
            st = vit__fail(L->err, VIT_ERROR_OUT_OF_MEMORY, "out of memory for labels");
        } else {
            char *w = m->label_text;
            for (int i = 0; i < K; i++) {
                m->labels[i] = w;
                if (src[i] >= 0) w += vit__json_str(j, src[i], w, (size_t)(m->label_text + total - w)) + 1;
                else w += snprintf(w, 24, "class_%d", i) + 1;
            }
            m->cfg.has_labels = 1;
        }
    }
    vit__free(&m->alloc, src);
    return st;
}

// ---- tensor names: one table per source, roles -> names

enum { // roles; those from VIT__R_LN1_W on are per block
    VIT__R_PATCH_W, VIT__R_PATCH_B, VIT__R_CLS, VIT__R_DIST, VIT__R_REG, VIT__R_POS, VIT__R_PRE_W, VIT__R_PRE_B,
    VIT__R_NORM_W, VIT__R_NORM_B, VIT__R_FCN_W, VIT__R_FCN_B, VIT__R_HEAD_W, VIT__R_HEAD_B, VIT__R_HEAD2_W, VIT__R_HEAD2_B,
    VIT__R_MAP_LATENT, VIT__R_MAP_Q_W, VIT__R_MAP_Q_B, VIT__R_MAP_KV_W, VIT__R_MAP_KV_B, VIT__R_MAP_QKV_W, VIT__R_MAP_QKV_B,
    VIT__R_MAP_PROJ_W, VIT__R_MAP_PROJ_B, VIT__R_MAP_NORM_W, VIT__R_MAP_NORM_B, VIT__R_MAP_FC1_W, VIT__R_MAP_FC1_B,
    VIT__R_MAP_FC2_W, VIT__R_MAP_FC2_B, VIT__R_TOK, VIT__R_SCALE, VIT__R_BIAS,
    VIT__R_LN1_W, VIT__R_LN1_B, VIT__R_QKV_W, VIT__R_QKV_B, VIT__R_QBIAS, VIT__R_VBIAS, VIT__R_Q_W, VIT__R_Q_B, VIT__R_K_W,
    VIT__R_K_B, VIT__R_V_W, VIT__R_V_B, VIT__R_QN_W, VIT__R_QN_B, VIT__R_KN_W, VIT__R_KN_B, VIT__R_PROJ_W, VIT__R_PROJ_B,
    VIT__R_LS1, VIT__R_LS2, VIT__R_LN2_W, VIT__R_LN2_B, VIT__R_FC1_W, VIT__R_FC1_B, VIT__R_FC2_W, VIT__R_FC2_B
};

// Names within a source's prefix (L->prefix: "vit.", "vision_model.", ...);
// a leading '/' means outside it (heads, projections); block roles follow
// vit__block_names[fam] and the block number. '|' separates alternatives.
static const struct vit__name { unsigned char fam, role; const char *name; } vit__names[] = {
    // timm (VisionTransformer, VisionTransformerDistilled)
    {VIT__FAM_TIMM, VIT__R_PATCH_W, "patch_embed.proj.weight"}, {VIT__FAM_TIMM, VIT__R_PATCH_B, "patch_embed.proj.bias"},
    {VIT__FAM_TIMM, VIT__R_CLS, "cls_token"}, {VIT__FAM_TIMM, VIT__R_DIST, "dist_token"}, {VIT__FAM_TIMM, VIT__R_REG, "reg_token"},
    {VIT__FAM_TIMM, VIT__R_POS, "pos_embed"}, {VIT__FAM_TIMM, VIT__R_PRE_W, "norm_pre.weight"}, {VIT__FAM_TIMM, VIT__R_PRE_B, "norm_pre.bias"},
    {VIT__FAM_TIMM, VIT__R_NORM_W, "norm.weight"}, {VIT__FAM_TIMM, VIT__R_NORM_B, "norm.bias"},
    {VIT__FAM_TIMM, VIT__R_FCN_W, "fc_norm.weight"}, {VIT__FAM_TIMM, VIT__R_FCN_B, "fc_norm.bias"},
    {VIT__FAM_TIMM, VIT__R_HEAD_W, "head.weight"}, {VIT__FAM_TIMM, VIT__R_HEAD_B, "head.bias"},
    {VIT__FAM_TIMM, VIT__R_HEAD2_W, "head_dist.weight"}, {VIT__FAM_TIMM, VIT__R_HEAD2_B, "head_dist.bias"},
    {VIT__FAM_TIMM, VIT__R_MAP_LATENT, "attn_pool.latent"}, {VIT__FAM_TIMM, VIT__R_MAP_Q_W, "attn_pool.q.weight"},
    {VIT__FAM_TIMM, VIT__R_MAP_Q_B, "attn_pool.q.bias"}, {VIT__FAM_TIMM, VIT__R_MAP_KV_W, "attn_pool.kv.weight"},
    {VIT__FAM_TIMM, VIT__R_MAP_KV_B, "attn_pool.kv.bias"}, {VIT__FAM_TIMM, VIT__R_MAP_PROJ_W, "attn_pool.proj.weight"},
    {VIT__FAM_TIMM, VIT__R_MAP_PROJ_B, "attn_pool.proj.bias"}, {VIT__FAM_TIMM, VIT__R_MAP_NORM_W, "attn_pool.norm.weight"},
    {VIT__FAM_TIMM, VIT__R_MAP_NORM_B, "attn_pool.norm.bias"}, {VIT__FAM_TIMM, VIT__R_MAP_FC1_W, "attn_pool.mlp.fc1.weight"},
    {VIT__FAM_TIMM, VIT__R_MAP_FC1_B, "attn_pool.mlp.fc1.bias"}, {VIT__FAM_TIMM, VIT__R_MAP_FC2_W, "attn_pool.mlp.fc2.weight"},
    {VIT__FAM_TIMM, VIT__R_MAP_FC2_B, "attn_pool.mlp.fc2.bias"},
    {VIT__FAM_TIMM, VIT__R_LN1_W, "norm1.weight"}, {VIT__FAM_TIMM, VIT__R_LN1_B, "norm1.bias"},
    {VIT__FAM_TIMM, VIT__R_QKV_W, "attn.qkv.weight"}, {VIT__FAM_TIMM, VIT__R_QKV_B, "attn.qkv.bias"},
    {VIT__FAM_TIMM, VIT__R_QBIAS, "attn.q_bias"}, {VIT__FAM_TIMM, VIT__R_VBIAS, "attn.v_bias"},
    {VIT__FAM_TIMM, VIT__R_QN_W, "attn.q_norm.weight"}, {VIT__FAM_TIMM, VIT__R_QN_B, "attn.q_norm.bias"},
    {VIT__FAM_TIMM, VIT__R_KN_W, "attn.k_norm.weight"}, {VIT__FAM_TIMM, VIT__R_KN_B, "attn.k_norm.bias"},
    {VIT__FAM_TIMM, VIT__R_PROJ_W, "attn.proj.weight"}, {VIT__FAM_TIMM, VIT__R_PROJ_B, "attn.proj.bias"},
    {VIT__FAM_TIMM, VIT__R_LS1, "ls1.gamma"}, {VIT__FAM_TIMM, VIT__R_LS2, "ls2.gamma"},
    {VIT__FAM_TIMM, VIT__R_LN2_W, "norm2.weight"}, {VIT__FAM_TIMM, VIT__R_LN2_B, "norm2.bias"},
    {VIT__FAM_TIMM, VIT__R_FC1_W, "mlp.fc1.weight"}, {VIT__FAM_TIMM, VIT__R_FC1_B, "mlp.fc1.bias"},
    {VIT__FAM_TIMM, VIT__R_FC2_W, "mlp.fc2.weight"}, {VIT__FAM_TIMM, VIT__R_FC2_B, "mlp.fc2.bias"},
    // HF ViT (ViTModel, ViTForImageClassification) and DeiT (DeiTModel, ...ForImageClassification[WithTeacher])
#define VIT__HF_VIT_NAMES(F)                                                                                                          \
    {F, VIT__R_PATCH_W, "embeddings.patch_embeddings.projection.weight"}, {F, VIT__R_PATCH_B, "embeddings.patch_embeddings.projection.bias"}, \
    {F, VIT__R_CLS, "embeddings.cls_token"}, {F, VIT__R_POS, "embeddings.position_embeddings"},                                        \
    {F, VIT__R_NORM_W, "layernorm.weight"}, {F, VIT__R_NORM_B, "layernorm.bias"},                                                       \
    {F, VIT__R_Q_W, "attention.attention.query.weight"}, {F, VIT__R_Q_B, "attention.attention.query.bias"},                           \
    {F, VIT__R_K_W, "attention.attention.key.weight"}, {F, VIT__R_K_B, "attention.attention.key.bias"},                               \
    {F, VIT__R_V_W, "attention.attention.value.weight"}, {F, VIT__R_V_B, "attention.attention.value.bias"},                           \
    {F, VIT__R_PROJ_W, "attention.output.dense.weight"}, {F, VIT__R_PROJ_B, "attention.output.dense.bias"}
#define VIT__HF_VIT_BLOCK_NAMES(F)                                                                                                    \
    {F, VIT__R_LN1_W, "layernorm_before.weight"}, {F, VIT__R_LN1_B, "layernorm_before.bias"},                                         \
    {F, VIT__R_LN2_W, "layernorm_after.weight"}, {F, VIT__R_LN2_B, "layernorm_after.bias"},                                           \
    {F, VIT__R_FC1_W, "intermediate.dense.weight"}, {F, VIT__R_FC1_B, "intermediate.dense.bias"},                                     \
    {F, VIT__R_FC2_W, "output.dense.weight"}, {F, VIT__R_FC2_B, "output.dense.bias"}
    VIT__HF_VIT_NAMES(VIT__FAM_HF_VIT), VIT__HF_VIT_BLOCK_NAMES(VIT__FAM_HF_VIT),
    {VIT__FAM_HF_VIT, VIT__R_HEAD_W, "/classifier.weight"}, {VIT__FAM_HF_VIT, VIT__R_HEAD_B, "/classifier.bias"},
    VIT__HF_VIT_NAMES(VIT__FAM_HF_DEIT), VIT__HF_VIT_BLOCK_NAMES(VIT__FAM_HF_DEIT),
    {VIT__FAM_HF_DEIT, VIT__R_DIST, "embeddings.distillation_token"},
    {VIT__FAM_HF_DEIT, VIT__R_HEAD_W, "/classifier.weight|/cls_classifier.weight"}, {VIT__FAM_HF_DEIT, VIT__R_HEAD_B, "/classifier.bias|/cls_classifier.bias"},
    {VIT__FAM_HF_DEIT, VIT__R_HEAD2_W, "/distillation_classifier.weight"}, {VIT__FAM_HF_DEIT, VIT__R_HEAD2_B, "/distillation_classifier.bias"},
    // HF DINOv2 (Dinov2Model, Dinov2WithRegistersModel; SwiGLU: mlp.weights_in / weights_out)
    VIT__HF_VIT_NAMES(VIT__FAM_HF_DINOV2),
    {VIT__FAM_HF_DINOV2, VIT__R_REG, "embeddings.register_tokens"},
    {VIT__FAM_HF_DINOV2, VIT__R_LN1_W, "norm1.weight"}, {VIT__FAM_HF_DINOV2, VIT__R_LN1_B, "norm1.bias"},
    {VIT__FAM_HF_DINOV2, VIT__R_LS1, "layer_scale1.lambda1"}, {VIT__FAM_HF_DINOV2, VIT__R_LS2, "layer_scale2.lambda1"},
    {VIT__FAM_HF_DINOV2, VIT__R_LN2_W, "norm2.weight"}, {VIT__FAM_HF_DINOV2, VIT__R_LN2_B, "norm2.bias"},
    {VIT__FAM_HF_DINOV2, VIT__R_FC1_W, "mlp.fc1.weight|mlp.weights_in.weight"}, {VIT__FAM_HF_DINOV2, VIT__R_FC1_B, "mlp.fc1.bias|mlp.weights_in.bias"},
    {VIT__FAM_HF_DINOV2, VIT__R_FC2_W, "mlp.fc2.weight|mlp.weights_out.weight"}, {VIT__FAM_HF_DINOV2, VIT__R_FC2_B, "mlp.fc2.bias|mlp.weights_out.bias"},
#undef VIT__HF_VIT_NAMES
#undef VIT__HF_VIT_BLOCK_NAMES
    // HF CLIP and SigLIP vision towers (prefix vision_model.), then their text towers (prefix text_model.)
#define VIT__HF_CLIP_NAMES(F)                                                                                                         \
    {F, VIT__R_PATCH_W, "embeddings.patch_embedding.weight"}, {F, VIT__R_PATCH_B, "embeddings.patch_embedding.bias"},                 \
    {F, VIT__R_POS, "embeddings.position_embedding.weight"}, {F, VIT__R_NORM_W, "post_layernorm.weight"},                             \
    {F, VIT__R_NORM_B, "post_layernorm.bias"}, VIT__HF_CLIP_BLOCK_NAMES(F)
#define VIT__HF_CLIP_BLOCK_NAMES(F)                                                                                                   \
    {F, VIT__R_LN1_W, "layer_norm1.weight"}, {F, VIT__R_LN1_B, "layer_norm1.bias"},                                                     \
    {F, VIT__R_Q_W, "self_attn.q_proj.weight"}, {F, VIT__R_Q_B, "self_attn.q_proj.bias"},                                             \
    {F, VIT__R_K_W, "self_attn.k_proj.weight"}, {F, VIT__R_K_B, "self_attn.k_proj.bias"},                                             \
    {F, VIT__R_V_W, "self_attn.v_proj.weight"}, {F, VIT__R_V_B, "self_attn.v_proj.bias"},                                             \
    {F, VIT__R_PROJ_W, "self_attn.out_proj.weight"}, {F, VIT__R_PROJ_B, "self_attn.out_proj.bias"},                                   \
    {F, VIT__R_LN2_W, "layer_norm2.weight"}, {F, VIT__R_LN2_B, "layer_norm2.bias"},                                                     \
    {F, VIT__R_FC1_W, "mlp.fc1.weight"}, {F, VIT__R_FC1_B, "mlp.fc1.bias"}, {F, VIT__R_FC2_W, "mlp.fc2.weight"},                     \
    {F, VIT__R_FC2_B, "mlp.fc2.bias"}
    VIT__HF_CLIP_NAMES(VIT__FAM_HF_CLIP),
    {VIT__FAM_HF_CLIP, VIT__R_CLS, "embeddings.class_embedding"}, {VIT__FAM_HF_CLIP, VIT__R_PRE_W, "pre_layrnorm.weight"},
    {VIT__FAM_HF_CLIP, VIT__R_PRE_B, "pre_layrnorm.bias"}, {VIT__FAM_HF_CLIP, VIT__R_HEAD_W, "/visual_projection.weight"},
    VIT__HF_CLIP_NAMES(VIT__FAM_HF_SIGLIP),
    {VIT__FAM_HF_SIGLIP, VIT__R_MAP_LATENT, "head.probe"}, {VIT__FAM_HF_SIGLIP, VIT__R_MAP_QKV_W, "head.attention.in_proj_weight"},
    {VIT__FAM_HF_SIGLIP, VIT__R_MAP_QKV_B, "head.attention.in_proj_bias"}, {VIT__FAM_HF_SIGLIP, VIT__R_MAP_PROJ_W, "head.attention.out_proj.weight"},
    {VIT__FAM_HF_SIGLIP, VIT__R_MAP_PROJ_B, "head.attention.out_proj.bias"}, {VIT__FAM_HF_SIGLIP, VIT__R_MAP_NORM_W, "head.layernorm.weight"},
    {VIT__FAM_HF_SIGLIP, VIT__R_MAP_NORM_B, "head.layernorm.bias"}, {VIT__FAM_HF_SIGLIP, VIT__R_MAP_FC1_W, "head.mlp.fc1.weight"},
    {VIT__FAM_HF_SIGLIP, VIT__R_MAP_FC1_B, "head.mlp.fc1.bias"}, {VIT__FAM_HF_SIGLIP, VIT__R_MAP_FC2_W, "head.mlp.fc2.weight"},
    {VIT__FAM_HF_SIGLIP, VIT__R_MAP_FC2_B, "head.mlp.fc2.bias"},
#define VIT__HF_TEXT_NAMES(F)                                                                                                         \
    {F, VIT__R_TOK, "embeddings.token_embedding.weight"}, {F, VIT__R_POS, "embeddings.position_embedding.weight"},                    \
    {F, VIT__R_NORM_W, "final_layer_norm.weight"}, {F, VIT__R_NORM_B, "final_layer_norm.bias"}, {F, VIT__R_SCALE, "/logit_scale"},     \
    VIT__HF_CLIP_BLOCK_NAMES(F)
    VIT__HF_TEXT_NAMES(VIT__FAM_HF_CLIP_TEXT), {VIT__FAM_HF_CLIP_TEXT, VIT__R_HEAD_W, "/text_projection.weight"},
    VIT__HF_TEXT_NAMES(VIT__FAM_HF_SIGLIP_TEXT), {VIT__FAM_HF_SIGLIP_TEXT, VIT__R_HEAD_W, "head.weight"},
    {VIT__FAM_HF_SIGLIP_TEXT, VIT__R_HEAD_B, "head.bias"}, {VIT__FAM_HF_SIGLIP_TEXT, VIT__R_BIAS, "/logit_bias"},
#undef VIT__HF_TEXT_NAMES
#undef VIT__HF_CLIP_BLOCK_NAMES
#undef VIT__HF_CLIP_NAMES
};

static const char *const vit__block_names[VIT__FAM_COUNT] = {"blocks.", "encoder.layer.", "encoder.layer.", "encoder.layer.", "encoder.layers.", "encoder.layers.",
                                                             "encoder.layers.", "encoder.layers."};

// Tensors that a file of a known layout may hold but inference never reads:
// skipped (any other tensor vit.h does not use is refused). Matched as name
// suffixes after the prefix (a full CLIP / SigLIP file's text_model. too).
static const char *const vit__ignored[] = {
    "embeddings.mask_token",       // HF ViT / DeiT / DINOv2: masked-image-modelling token, unused without a mask
    "embeddings.position_ids",     // older HF CLIP / SigLIP files: the constant arange buffer
    "pooler.dense.weight", "pooler.dense.bias", // HF ViTModel's tanh pooler: vit_embed returns the normed class token instead
};

static int vit__is_ignored(const vit__loader *L, const char *name) {
    const char *prefixes[2] = {L->prefix, L->text_prefix ? L->text_prefix : L->prefix};
    for (size_t i = 0; i < sizeof(vit__ignored) / sizeof(vit__ignored[0]); i++)
        for (int p = 0; p < 2; p++) {
            size_t pl = strlen(prefixes[p]);
            if (!strncmp(name, prefixes[p], pl) && !strcmp(name + pl, vit__ignored[i])) return 1;
        }
    return 0;
}

static vit__tensor *vit__find_mut(vit__loader *L, const char *name) {
    for (int i = 0; i < L->count; i++)
        if (!L->tensors[i].name_truncated && !strcmp(L->tensors[i].name, name)) return &L->tensors[i];
    return NULL;
}

// The tensor of role r (block l) in L's source: its name into buf (the first
// alternative when none is present) and the tensor, or NULL (also when the
// source has no such role; then buf is "").
static vit__tensor *vit__role(vit__loader *L, int r, int l, char *buf, size_t cap) {
    const char *names = NULL;
    buf[0] = 0;
    for (size_t i = 0; i < sizeof(vit__names) / sizeof(vit__names[0]); i++)
        if (vit__names[i].fam == L->fam && vit__names[i].role == r) { names = vit__names[i].name; break; }
    if (!names) return NULL;
    char first[160];
    first[0] = 0;
    while (*names) {
        size_t n = strcspn(names, "|");
        char alt[96];
        snprintf(alt, sizeof(alt), "%.*s", (int)n, names);
        const char *nm = alt[0] == '/' ? alt + 1 : alt, *pre = alt[0] == '/' ? "" : L->prefix;
        if (r >= VIT__R_LN1_W) snprintf(buf, cap, "%s%s%d.%s", pre, vit__block_names[L->fam], l, nm);
        else snprintf(buf, cap, "%s%s", pre, nm);
        if (!first[0]) snprintf(first, sizeof(first), "%s", buf);
        vit__tensor *t = vit__find_mut(L, buf);
        if (t) return t;
        names += n + (names[n] == '|');
    }
    snprintf(buf, cap, "%s", first);
    return NULL;
}

static int vit__has(vit__loader *L, int r, int l) {
    char buf[192];
    return vit__role(L, r, l, buf, sizeof(buf)) != NULL;
}

// Which source wrote the file, from its tensor names: sets L->fam and L->prefix.
static vit_status vit__detect_family(vit__loader *L) {
    static const char *const vit_prefixes[] = {"", "vit.", "deit.", "dinov2."};
    char name[192];
    L->prefix = "";
    if (vit__find(L, "patch_embed.proj.weight")) { L->fam = VIT__FAM_TIMM; return VIT_OK; }
    for (size_t i = 0; i < sizeof(vit_prefixes) / sizeof(vit_prefixes[0]); i++) {
        snprintf(name, sizeof(name), "%sembeddings.patch_embeddings.projection.weight", vit_prefixes[i]);
        if (!vit__find(L, name)) continue;
        L->prefix = vit_prefixes[i];
        snprintf(name, sizeof(name), "%sencoder.layer.0.norm1.weight", L->prefix);
        if (vit__find(L, name)) { L->fam = VIT__FAM_HF_DINOV2; return VIT_OK; }
        snprintf(name, sizeof(name), "%sembeddings.distillation_token", L->prefix);
        L->fam = vit__find(L, name) ? VIT__FAM_HF_DEIT : VIT__FAM_HF_VIT;
        return VIT_OK;
    }
    static const char *const tower_prefixes[] = {"vision_model.", ""}; // CLIPModel / ...WithProjection, CLIPVisionModel (transformers 5)
    for (size_t i = 0; i < sizeof(tower_prefixes) / sizeof(tower_prefixes[0]); i++) {
        snprintf(name, sizeof(name), "%sembeddings.patch_embedding.weight", tower_prefixes[i]);
        if (!vit__find(L, name)) continue;
        L->prefix = tower_prefixes[i];
        snprintf(name, sizeof(name), "%sembeddings.class_embedding", L->prefix);
        L->fam = vit__find(L, name) ? VIT__FAM_HF_CLIP : VIT__FAM_HF_SIGLIP;
        return VIT_OK;
    }
    return vit__fail(L->err, VIT_ERROR_MISSING_TENSOR, "no patch embedding: none of timm's 'patch_embed.proj.weight', Hugging Face's "
                     "'[vit.|deit.|dinov2.]embeddings.patch_embeddings.projection.weight' or '[vision_model.]embeddings.patch_embedding.weight' found");
}

// Rows of a token tensor of shape (1, n, C), (n, C) or (C): n, or -1 for any other shape.
static long long vit__token_rows(const vit__tensor *t, int C) {
    if (t->ndim == 1) return t->shape[0] == (uint64_t)C ? 1 : -1;
    if (t->ndim == 2) return t->shape[1] == (uint64_t)C && t->shape[0] > 0 ? (long long)(t->shape[0] > VIT_MAX_TOKENS ? VIT_MAX_TOKENS + 1 : t->shape[0]) : -1;
    if (t->ndim == 3) return t->shape[0] == 1 && t->shape[2] == (uint64_t)C && t->shape[1] > 0 ? (long long)(t->shape[1] > VIT_MAX_TOKENS ? VIT_MAX_TOKENS + 1 : t->shape[1]) : -1;
    return -1;
}

static vit_status vit__token_check(vit__loader *L, const vit__tensor *t, int C, long long want, long long *rows) {
    char got[160];
    *rows = vit__token_rows(t, C);
    if (*rows > VIT_MAX_TOKENS) return vit__fail(L->err, VIT_ERROR_LIMIT, "tensor '%s' has more than VIT_MAX_TOKENS (%d) rows", t->name, VIT_MAX_TOKENS);
    if (t->dtype == VIT__DT_OTHER) return vit__fail(L->err, VIT_ERROR_UNSUPPORTED, "tensor '%s' has dtype %s; only F32, F16 and BF16 are supported", t->name, t->dtype_name);
    if (*rows < 0 || (want > 0 && *rows != want)) {
        vit__shape_str(t, got, sizeof(got));
        if (want > 0) return vit__fail(L->err, VIT_ERROR_SHAPE_MISMATCH, "tensor '%s' has shape %s, expected %lld token(s) of width %d", t->name, got, want, C);
        return vit__fail(L->err, VIT_ERROR_SHAPE_MISMATCH, "tensor '%s' has shape %s, expected [1, tokens, %d]", t->name, got, C);
    }
    return VIT_OK;
}

// Finds the architecture from the tensors' shapes (names per L->fam),
// reconciling with what config.json stated; want_h/want_w: the size to run
// at (0 = the checkpoint's).
static vit_status vit__infer_config(vit__loader *L, vit_config *c, const vit__stated *s, int want_h, int want_w) {
    char *err = L->err;
    char name[192], got[160];
    int fam = L->fam, timm = fam == VIT__FAM_TIMM;
    c->source = timm ? VIT_SOURCE_TIMM : VIT_SOURCE_HF;
    if (timm && (vit__find(L, "patch_embed.backbone.stem.conv.weight") || vit__find(L, "patch_embed.backbone.conv1.weight")))
        return vit__fail(err, VIT_ERROR_UNSUPPORTED, "hybrid (CNN stem) ViTs are not supported");
    const vit__tensor *pw = vit__role(L, VIT__R_PATCH_W, 0, name, sizeof(name));
    if (!pw) return vit__fail(err, VIT_ERROR_MISSING_TENSOR, "tensor '%s' not found", name);
    if (pw->dtype == VIT__DT_OTHER) return vit__fail(err, VIT_ERROR_UNSUPPORTED, "tensor '%s' has dtype %s; only F32, F16 and BF16 are supported", pw->name, pw->dtype_name);
    if (pw->ndim != 4 || pw->shape[2] == 0 || pw->shape[3] == 0 || pw->shape[0] == 0 || pw->shape[1] == 0) {
        vit__shape_str(pw, got, sizeof(got));
        return vit__fail(err, VIT_ERROR_SHAPE_MISMATCH, "tensor '%s' has shape %s, expected [C, in_chans, P, P]", pw->name, got);
    }
    if (pw->shape[0] > VIT_MAX_DIM || pw->shape[1] > 4 || pw->shape[2] > 1024 || pw->shape[3] > 1024)
        return vit__fail(err, VIT_ERROR_LIMIT, "patch embedding [%llu, %llu, %llu, %llu] exceeds the limits (C <= VIT_MAX_DIM, in_chans <= 4, P <= 1024)",
                         (unsigned long long)pw->shape[0], (unsigned long long)pw->shape[1], (unsigned long long)pw->shape[2], (unsigned long long)pw->shape[3]);
    if (pw->shape[2] != pw->shape[3]) return vit__fail(err, VIT_ERROR_UNSUPPORTED, "non-square %llu x %llu patches", (unsigned long long)pw->shape[2], (unsigned long long)pw->shape[3]);
    c->dim = (int)pw->shape[0];
    c->in_chans = (int)pw->shape[1];
    c->patch_size = (int)pw->shape[2];
    int C = c->dim, Pp = c->patch_size;
    if (s->dim > 0 && s->dim != c->dim) return vit__fail(err, VIT_ERROR_SHAPE_MISMATCH, "config.json says width %d but '%s' has %d", s->dim, pw->name, c->dim);
    if (s->in_chans > 0 && s->in_chans != c->in_chans) return vit__fail(err, VIT_ERROR_SHAPE_MISMATCH, "config.json says %d channels but '%s' has %d", s->in_chans, pw->name, c->in_chans);
    if (s->patch_size > 0 && s->patch_size != c->patch_size) return vit__fail(err, VIT_ERROR_SHAPE_MISMATCH, "config.json says patch %d but '%s' has %d", s->patch_size, pw->name, c->patch_size);
    if (c->in_chans > 3) return vit__fail(err, VIT_ERROR_UNSUPPORTED, "%d input channels; 1 to 3 are supported", c->in_chans);

    // prefix tokens: class, distillation, registers (in this order, as timm and HF place them)
    const vit__tensor *cls = vit__role(L, VIT__R_CLS, 0, name, sizeof(name)), *dist = vit__role(L, VIT__R_DIST, 0, name, sizeof(name));
    const vit__tensor *reg = vit__role(L, VIT__R_REG, 0, name, sizeof(name));
    long long rows;
    vit_status st;
    if (cls && (st = vit__token_check(L, cls, C, 1, &rows)) != VIT_OK) return st;
    if (dist && (st = vit__token_check(L, dist, C, 1, &rows)) != VIT_OK) return st;
    c->num_registers = 0;
    if (reg && reg->ndim == 3 && reg->shape[0] == 1 && reg->shape[1] == 0 && reg->shape[2] == (uint64_t)C) {
        vit__role(L, VIT__R_REG, 0, name, sizeof(name))->used = 1; // (1, 0, C): no register tokens
    } else if (reg) {
        if ((st = vit__token_check(L, reg, C, -1, &rows)) != VIT_OK) return st;
        c->num_registers = (int)rows;
    }
    L->dinov2_registers = L->dinov2_registers || (fam == VIT__FAM_HF_DINOV2 && reg);
    c->class_token = cls != NULL;
    c->distilled = dist != NULL;
    if (s->class_token == 0 && cls) return vit__fail(err, VIT_ERROR_SHAPE_MISMATCH, "config.json says class_token false but '%s' is present", cls->name);
    if (s->class_token == 1 && !cls) return vit__fail(err, VIT_ERROR_MISSING_TENSOR, "config.json says class_token true but no class token tensor is present");
    if (s->reg_tokens >= 0 && s->reg_tokens != c->num_registers)
        return vit__fail(err, s->reg_tokens > c->num_registers ? VIT_ERROR_MISSING_TENSOR : VIT_ERROR_SHAPE_MISMATCH, "config.json says %d register tokens but the file has %d",
                         s->reg_tokens, c->num_registers);
    if (dist && !cls) return vit__fail(err, VIT_ERROR_UNSUPPORTED, "a distillation token without a class token");
    if (s->distilled >= 0 && s->distilled != c->distilled)
        return vit__fail(err, s->distilled ? VIT_ERROR_MISSING_TENSOR : VIT_ERROR_SHAPE_MISMATCH, "config.json's architecture %s a distillation token but the file has %s",
                         s->distilled ? "has" : "has no", c->distilled ? "one" : "none");
    c->num_prefix = c->class_token + c->distilled + c->num_registers;
    int P = c->num_prefix;

    // position embedding: which prefix tokens it covers (timm: all or none,
    // HF DINOv2: the class token only, other HF: all), then the native grid
    const vit__tensor *pos = vit__role(L, VIT__R_POS, 0, name, sizeof(name));
    if (!pos) return vit__fail(err, VIT_ERROR_MISSING_TENSOR, "tensor '%s' not found", name);
    if ((st = vit__token_check(L, pos, C, -1, &rows)) != VIT_OK) return st;
    int npos = (int)rows, covers[2], ncov = 0;
    if (timm) {
        if (s->no_embed_class != 1) covers[ncov++] = P;
        if (s->no_embed_class != 0 && P > 0) covers[ncov++] = 0;
    } else covers[ncov++] = fam == VIT__FAM_HF_DINOV2 ? c->class_token : P;
    int gh = 0, gw = 0, cover = -1;
    for (int k = 0; k < ncov && cover < 0; k++) {
        int n = npos - covers[k];
        if (n <= 0) continue;
        if (s->image_h > 0 && s->image_w > 0) {
            if (s->image_h % Pp || s->image_w % Pp || (long long)(s->image_h / Pp) * (s->image_w / Pp) != n) continue;
            gh = s->image_h / Pp; gw = s->image_w / Pp;
        } else {
            int g = (int)floor(sqrt((double)n) + 0.5);
            if (g * g != n) continue;
            gh = gw = g;
        }
        cover = covers[k];
    }
    if (cover < 0) {
        if (s->image_h > 0)
            return vit__fail(err, VIT_ERROR_SHAPE_MISMATCH, "config.json says image size %d x %d (patch %d) but '%s' has %d positions for %d prefix tokens",
                             s->image_h, s->image_w, Pp, pos->name, npos, P);
        return vit__fail(err, VIT_ERROR_SHAPE_MISMATCH, "tensor '%s' has %d positions, which is not a square grid (+ %d prefix tokens)", pos->name, npos, P);
    }
    c->pos_embed_class = cover > 0;
    L->pos_cover = cover;
    L->grid_h = gh; L->grid_w = gw;
    if ((long long)gh * Pp > VIT_MAX_DIM || (long long)gw * Pp > VIT_MAX_DIM) return vit__fail(err, VIT_ERROR_LIMIT, "image size exceeds VIT_MAX_DIM");
    c->native_height = gh * Pp;
    c->native_width = gw * Pp;
    if (!want_h && !want_w && L->default_side > 0 && L->default_side % Pp == 0) want_h = want_w = L->default_side; // HF: as the processor crops
    int th = want_h ? want_h : c->native_height, tw = want_w ? want_w : c->native_width;
    if (th % Pp || tw % Pp)
        return vit__fail(err, VIT_ERROR_UNSUPPORTED, "image size %d x %d is not a multiple of the patch size %d", th, tw, Pp);
    if (th > VIT_MAX_IMAGE_SIDE || tw > VIT_MAX_IMAGE_SIDE || (long long)(th / Pp) * (tw / Pp) + P > VIT_MAX_TOKENS)
        return vit__fail(err, VIT_ERROR_LIMIT, "image size %d x %d gives more than VIT_MAX_TOKENS (%d) tokens", th, tw, VIT_MAX_TOKENS);
    c->image_height = th;
    c->image_width = tw;
    c->image_size = th == tw ? th : 0;
    c->num_tokens = (th / Pp) * (tw / Pp) + P;

    // depth: count consecutive blocks; blocks past a gap would be silently dropped
    int depth = 0;
    while (depth <= VIT_MAX_DEPTH && vit__role(L, VIT__R_LN1_W, depth, name, sizeof(name))) depth++;
    if (depth > VIT_MAX_DEPTH) return vit__fail(err, VIT_ERROR_LIMIT, "more than VIT_MAX_DEPTH (%d) blocks", VIT_MAX_DEPTH);
    if (s->depth > 0 && s->depth != depth)
        return vit__fail(err, depth < s->depth ? VIT_ERROR_MISSING_TENSOR : VIT_ERROR_SHAPE_MISMATCH, "config.json says depth %d but the file has %d blocks", s->depth, depth);
    if (depth == 0) return vit__fail(err, VIT_ERROR_MISSING_TENSOR, "no transformer blocks found");
    snprintf(name, sizeof(name), "%s%s", L->prefix, vit__block_names[fam]);
    for (int i = 0; i < L->count; i++) {
        const char *nm = L->tensors[i].name;
        if (strncmp(nm, name, strlen(name)) != 0) continue;
        long b = strtol(nm + strlen(name), NULL, 10);
        if (b >= depth)
            return vit__fail(err, VIT_ERROR_MISSING_TENSOR, "tensor '%s' belongs to block %ld, but block %d's norm is missing (blocks must be numbered 0..depth-1)", nm, b, depth);
    }
    c->depth = depth;

    // MLP width and activation (SwiGLU: fc1 holds gate and up, fc2 reads half)
    const vit__tensor *fc1 = vit__role(L, VIT__R_FC1_W, 0, name, sizeof(name));
    if (!fc1) return vit__fail(err, VIT_ERROR_MISSING_TENSOR, "tensor '%s' not found", name);
    if (fc1->ndim != 2 || fc1->shape[1] != (uint64_t)C || fc1->shape[0] == 0 || fc1->shape[0] > VIT_MAX_DIM) {
        vit__shape_str(fc1, got, sizeof(got));
        return vit__fail(err, fc1->ndim == 2 && fc1->shape[0] > VIT_MAX_DIM ? VIT_ERROR_LIMIT : VIT_ERROR_SHAPE_MISMATCH, "tensor '%s' has shape %s, expected [mlp_dim, %d]",
                         fc1->name, got, C);
    }
    c->mlp_dim = (int)fc1->shape[0];
    int act = s->act >= 0 ? s->act : fam == VIT__FAM_HF_CLIP ? VIT_ACT_QUICK_GELU : fam == VIT__FAM_HF_SIGLIP ? VIT_ACT_GELU_TANH : VIT_ACT_GELU;
    if (fam == VIT__FAM_HF_DINOV2) { // the FFN kind is in the names as well
        snprintf(name, sizeof(name), "%sencoder.layer.0.mlp.weights_in.weight", L->prefix);
        int named = vit__find(L, name) != NULL;
        if (s->act >= 0 && named != (act == VIT_ACT_SWIGLU))
            return vit__fail(err, VIT_ERROR_SHAPE_MISMATCH, "config.json's use_swiglu_ffn disagrees with the MLP tensors' names");
        if (named) act = VIT_ACT_SWIGLU;
    }
    c->act = (vit_act)act;
    if (act == VIT_ACT_SWIGLU && c->mlp_dim % 2) return vit__fail(err, VIT_ERROR_SHAPE_MISMATCH, "SwiGLU fc1 '%s' has an odd width %d", fc1->name, c->mlp_dim);
    if (s->mlp_dim > 0 && s->mlp_dim != c->mlp_dim) return vit__fail(err, VIT_ERROR_SHAPE_MISMATCH, "config.json says mlp width %d but '%s' has %d", s->mlp_dim, fc1->name, c->mlp_dim);
    if (s->mlp_ratio > 0 && timm && fabs(s->mlp_ratio * C - c->mlp_dim) >= 1.0)
        return vit__fail(err, VIT_ERROR_SHAPE_MISMATCH, "config.json says mlp_ratio %g but '%s' has width %d for dim %d", s->mlp_ratio, fc1->name, c->mlp_dim, C);

    // heads: option, config, else head size 64
    int heads = L->heads_override > 0 ? L->heads_override : s->num_heads > 0 ? s->num_heads : (C % 64 == 0 ? C / 64 : 0);
    if (heads <= 0) return vit__fail(err, VIT_ERROR_UNSUPPORTED, "width %d is not a multiple of 64 and no config.json gives num_heads: set vit_options.num_heads", C);
    if (C % heads) return vit__fail(err, VIT_ERROR_SHAPE_MISMATCH, "width %d is not divisible by %d heads", C, heads);
    c->num_heads = heads;

    // heads (classifier, distillation classifier) or the image projection
    const vit__tensor *hw = vit__role(L, VIT__R_HEAD_W, 0, name, sizeof(name)), *hw2 = vit__role(L, VIT__R_HEAD2_W, 0, name, sizeof(name));
    c->num_classes = 0;
    L->num_head = 1;
    if (hw) {
        if (hw->ndim != 2 || hw->shape[1] != (uint64_t)C || hw->shape[0] == 0 || hw->shape[0] > VIT_MAX_DIM) {
            vit__shape_str(hw, got, sizeof(got));
            return vit__fail(err, hw->ndim == 2 && hw->shape[0] > VIT_MAX_DIM ? VIT_ERROR_LIMIT : VIT_ERROR_SHAPE_MISMATCH, "tensor '%s' has shape %s, expected [classes, %d]",
                             hw->name, got, C);
        }
        c->num_classes = (int)hw->shape[0];
    }
    if (hw2) {
        if (!hw || !c->distilled) return vit__fail(err, VIT_ERROR_UNSUPPORTED, "'%s' without %s", hw2->name, hw ? "a distillation token" : "a class head");
        L->num_head = 2;
    }
    if (s->num_classes >= 0 && s->num_classes != c->num_classes && !(fam == VIT__FAM_HF_CLIP))
        return vit__fail(err, c->num_classes == 0 ? VIT_ERROR_MISSING_TENSOR : VIT_ERROR_SHAPE_MISMATCH, "config.json says %d classes but the head has %d", s->num_classes,
                         c->num_classes);
    c->projection = fam == VIT__FAM_HF_CLIP ? hw != NULL : timm ? (s->projection == 1 && hw != NULL) : 0;

    // norms and pooling
    c->pre_norm = vit__has(L, VIT__R_PRE_W, 0);
    c->fc_norm = vit__has(L, VIT__R_FCN_W, 0);
    c->layer_scale = vit__has(L, VIT__R_LS1, 0);
    c->qk_norm = vit__has(L, VIT__R_QN_W, 0);
    if (s->qk_norm >= 0 && s->qk_norm != c->qk_norm)
        return vit__fail(err, s->qk_norm ? VIT_ERROR_MISSING_TENSOR : VIT_ERROR_UNSUPPORTED, "config.json says qk_norm %s but the q_norm tensors are %s", s->qk_norm ? "true" : "false", c->qk_norm ? "present" : "absent");
    int has_map = vit__has(L, VIT__R_MAP_LATENT, 0);
    if (timm) {
        c->pool = s->pool >= 0 ? (vit_pool)s->pool : has_map ? VIT_POOL_MAP : (c->fc_norm || !c->class_token) ? VIT_POOL_AVG : VIT_POOL_TOKEN;
        if (s->fc_norm == 1 && !c->fc_norm) return vit__fail(err, VIT_ERROR_MISSING_TENSOR, "config.json says fc_norm true but 'fc_norm.weight' is absent");
    } else c->pool = fam == VIT__FAM_HF_SIGLIP ? VIT_POOL_MAP : VIT_POOL_TOKEN;
    if ((c->pool == VIT_POOL_MAP) != has_map)
        return vit__fail(err, has_map ? VIT_ERROR_UNSUPPORTED : VIT_ERROR_MISSING_TENSOR, "%s", has_map ? "attention-pooling tensors in a model that pools otherwise" : "attention pooling without its tensors");
    if (c->pool == VIT_POOL_MAP && act == VIT_ACT_SWIGLU) return vit__fail(err, VIT_ERROR_UNSUPPORTED, "attention pooling in a SwiGLU model");
    if (c->pool == VIT_POOL_TOKEN && !c->class_token) return vit__fail(err, VIT_ERROR_UNSUPPORTED, "token pooling needs a class token");
    if (L->num_head > 1 && c->pool != VIT_POOL_TOKEN) return vit__fail(err, VIT_ERROR_UNSUPPORTED, "a distillation head with %s pooling", c->pool == VIT_POOL_AVG ? "average" : "attention");
    if (c->pool == VIT_POOL_AVG && c->num_tokens == P) return vit__fail(err, VIT_ERROR_UNSUPPORTED, "average pooling over no patch tokens");
    if (c->pool == VIT_POOL_MAP) {
        const vit__tensor *lat = vit__role(L, VIT__R_MAP_LATENT, 0, name, sizeof(name)), *f = vit__role(L, VIT__R_MAP_FC1_W, 0, name, sizeof(name));
        if ((st = vit__token_check(L, lat, C, -1, &rows)) != VIT_OK) return st;
        if (!f) return vit__fail(err, VIT_ERROR_MISSING_TENSOR, "tensor '%s' not found", name);
        if (f->ndim != 2 || f->shape[1] != (uint64_t)C || f->shape[0] == 0 || f->shape[0] > VIT_MAX_DIM) {
            vit__shape_str(f, got, sizeof(got));
            return vit__fail(err, VIT_ERROR_SHAPE_MISMATCH, "tensor '%s' has shape %s, expected [mlp_dim, %d]", f->name, got, C);
        }
        L->map_mlp = (int)f->shape[0];
    }
    double eps = timm ? 1e-6 : fam == VIT__FAM_HF_CLIP ? 1e-5 : fam == VIT__FAM_HF_DINOV2 || fam == VIT__FAM_HF_SIGLIP ? 1e-6 : 1e-12;
    c->eps = (float)(s->eps > 0 ? s->eps : eps);
    return VIT_OK;
}

// --- a full CLIP / SigLIP file's text tower (m->text): config.json's text_config, then the shapes ---

// What text_config states (-1: not stated), with transformers' defaults for
// the values the shapes do not give (CLIPTextConfig, SiglipTextConfig).
typedef struct vit__text_stated {
    int dim, depth, heads, mlp, context, vocab, proj; // -1: not stated
    int eos;    // CLIP: eos_token_id (default 49407)
    int act;    // vit_act (default: CLIP quick_gelu, SigLIP gelu_pytorch_tanh)
    double eps; // default: CLIP 1e-5, SigLIP 1e-6
} vit__text_stated;

static vit_status vit__read_text_config(vit__loader *L, int clip, vit__text_stated *s) {
    const vit__json *j = &L->cfg;
    char name[64];
    vit_status st;
    s->dim = s->depth = s->heads = s->mlp = s->context = s->vocab = s->proj = -1;
    s->eos = clip ? 49407 : -1;
    s->act = clip ? VIT_ACT_QUICK_GELU : VIT_ACT_GELU_TANH;
    s->eps = clip ? 1e-5 : 1e-6;
    int root = L->cfg_root, tc = root >= 0 ? vit__json_get(j, root, "text_config") : -1, n;
    if (root >= 0 && clip && (st = vit__cfg_int(L, j, root, "projection_dim", 1, VIT_MAX_DIM, &s->proj)) != VIT_OK) return st;
    if (tc < 0 || j->nodes[tc].type == VIT__J_NULL) return VIT_OK;
    if (j->nodes[tc].type != VIT__J_OBJ) return vit__fail(L->err, VIT_ERROR_BAD_FORMAT, "config.json: text_config is not an object");
    if ((n = vit__json_get(j, tc, "hidden_act")) >= 0 && (s->act = vit__hf_act(j, n)) < 0) {
        vit__json_str(j, n, name, sizeof(name));
        return vit__fail(L->err, VIT_ERROR_UNSUPPORTED, "config.json: text_config hidden_act '%s' is not computed by vit.h", name);
    }
    if ((n = vit__json_get(j, tc, "layer_norm_eps")) >= 0 && (!vit__json_double(j, n, &s->eps) || !(s->eps > 0.0 && s->eps < 1.0)))
        return vit__fail(L->err, VIT_ERROR_BAD_FORMAT, "config.json: text_config layer_norm_eps must be a number in (0, 1)");
    if ((st = vit__cfg_int(L, j, tc, "hidden_size", 1, VIT_MAX_DIM, &s->dim)) || (st = vit__cfg_int(L, j, tc, "num_hidden_layers", 1, VIT_MAX_DEPTH, &s->depth)) ||
        (st = vit__cfg_int(L, j, tc, "num_attention_heads", 1, VIT_MAX_DIM, &s->heads)) ||
        (st = vit__cfg_int(L, j, tc, "intermediate_size", 1, VIT_MAX_DIM, &s->mlp)) ||
        (st = vit__cfg_int(L, j, tc, "max_position_embeddings", 1, VIT_MAX_TOKENS, &s->context)) ||
        (st = vit__cfg_int(L, j, tc, "vocab_size", 1, VIT_MAX_VOCAB, &s->vocab)) ||
        (!clip && (st = vit__cfg_int(L, j, tc, "projection_size", 1, VIT_MAX_DIM, &s->proj))))
        return st;
    // CLIP pools at eos_token_id: an integer (SigLIP pools the last token whatever it is)
    if (clip && (n = vit__json_get(j, tc, "eos_token_id")) >= 0 && !vit__json_int(j, n, INT_MIN, INT_MAX, &s->eos))
        return vit__fail(L->err, VIT_ERROR_UNSUPPORTED, "config.json: text_config eos_token_id must be an integer (the token CLIP's text tower pools at)");
    return VIT_OK;
}

// The text tower's config from its tensors' shapes (names per L->fam, a text
// family), reconciled with s, into t->cfg and t's input and pooling fields.
static vit_status vit__infer_text(vit__loader *L, vit_model *t, const vit__text_stated *s) {
    char *err = L->err, name[192], got[160];
    vit_config *c = &t->cfg;
    int clip = L->fam == VIT__FAM_HF_CLIP_TEXT;
    const vit__tensor *tok = vit__role(L, VIT__R_TOK, 0, name, sizeof(name));
    if (!tok) return vit__fail(err, VIT_ERROR_MISSING_TENSOR, "tensor '%s' not found", name);
    if (tok->dtype == VIT__DT_OTHER) return vit__fail(err, VIT_ERROR_UNSUPPORTED, "tensor '%s' has dtype %s; only F32, F16 and BF16 are supported", tok->name, tok->dtype_name);
    if (tok->ndim != 2 || tok->shape[0] == 0 || tok->shape[1] == 0) {
        vit__shape_str(tok, got, sizeof(got));
        return vit__fail(err, VIT_ERROR_SHAPE_MISMATCH, "tensor '%s' has shape %s, expected [vocab, width]", tok->name, got);
    }
    if (tok->shape[0] > VIT_MAX_VOCAB || tok->shape[1] > VIT_MAX_DIM)
        return vit__fail(err, VIT_ERROR_LIMIT, "tensor '%s' [%llu, %llu] exceeds VIT_MAX_VOCAB (%d) or VIT_MAX_DIM (%d)", tok->name,
                         (unsigned long long)tok->shape[0], (unsigned long long)tok->shape[1], VIT_MAX_VOCAB, VIT_MAX_DIM);
    t->vocab = (int)tok->shape[0];
    c->dim = (int)tok->shape[1];
    int C = c->dim;
    if (s->dim > 0 && s->dim != C) return vit__fail(err, VIT_ERROR_SHAPE_MISMATCH, "config.json says text width %d but '%s' has %d", s->dim, tok->name, C);
    if (s->vocab > 0 && s->vocab != t->vocab)
        return vit__fail(err, VIT_ERROR_SHAPE_MISMATCH, "config.json says vocab_size %d but '%s' has %d rows", s->vocab, tok->name, t->vocab);
    // the context: the position embedding's rows (transformers runs texts of up to that many ids; vit.h exactly that many)
    const vit__tensor *pos = vit__role(L, VIT__R_POS, 0, name, sizeof(name));
    if (!pos) return vit__fail(err, VIT_ERROR_MISSING_TENSOR, "tensor '%s' not found", name);
    long long rows;
    vit_status st = vit__token_check(L, pos, C, -1, &rows);
    if (st != VIT_OK) return st;
    if (pos->ndim != 2) {
        vit__shape_str(pos, got, sizeof(got));
        return vit__fail(err, VIT_ERROR_SHAPE_MISMATCH, "tensor '%s' has shape %s, expected [context, %d]", pos->name, got, C);
    }
    if (s->context > 0 && s->context != rows)
        return vit__fail(err, VIT_ERROR_SHAPE_MISMATCH, "config.json says max_position_embeddings %d but '%s' has %lld rows", s->context, pos->name, rows);
    c->num_tokens = (int)rows;
    // blocks: consecutive, none past a gap
    int depth = 0;
    while (depth <= VIT_MAX_DEPTH && vit__role(L, VIT__R_LN1_W, depth, name, sizeof(name))) depth++;
    if (depth > VIT_MAX_DEPTH) return vit__fail(err, VIT_ERROR_LIMIT, "more than VIT_MAX_DEPTH (%d) text blocks", VIT_MAX_DEPTH);
    if (depth == 0) return vit__fail(err, VIT_ERROR_MISSING_TENSOR, "tensor '%s' not found (no text blocks)", name);
    if (s->depth > 0 && s->depth != depth)
        return vit__fail(err, depth < s->depth ? VIT_ERROR_MISSING_TENSOR : VIT_ERROR_SHAPE_MISMATCH, "config.json says %d text blocks but the file has %d", s->depth, depth);
    snprintf(name, sizeof(name), "%s%s", L->prefix, vit__block_names[L->fam]);
    for (int i = 0; i < L->count; i++) {
        const char *nm = L->tensors[i].name;
        if (strncmp(nm, name, strlen(name)) != 0) continue;
        long b = strtol(nm + strlen(name), NULL, 10);
        if (b >= depth)
            return vit__fail(err, VIT_ERROR_MISSING_TENSOR, "tensor '%s' belongs to text block %ld, but block %d's norm is missing (blocks must be numbered 0..depth-1)", nm, b, depth);
    }
    c->depth = depth;
    const vit__tensor *fc1 = vit__role(L, VIT__R_FC1_W, 0, name, sizeof(name));
    if (!fc1) return vit__fail(err, VIT_ERROR_MISSING_TENSOR, "tensor '%s' not found", name);
    if (fc1->ndim != 2 || fc1->shape[1] != (uint64_t)C || fc1->shape[0] == 0 || fc1->shape[0] > VIT_MAX_DIM) {
        vit__shape_str(fc1, got, sizeof(got));
        return vit__fail(err, VIT_ERROR_SHAPE_MISMATCH, "tensor '%s' has shape %s, expected [mlp_dim, %d]", fc1->name, got, C);
    }
    c->mlp_dim = (int)fc1->shape[0];
    if (s->mlp > 0 && s->mlp != c->mlp_dim) return vit__fail(err, VIT_ERROR_SHAPE_MISMATCH, "config.json says text intermediate_size %d but '%s' has %d", s->mlp, fc1->name, c->mlp_dim);
    int heads = s->heads > 0 ? s->heads : (C % 64 == 0 ? C / 64 : 0);
    if (heads <= 0) return vit__fail(err, VIT_ERROR_UNSUPPORTED, "text width %d is not a multiple of 64 and no config.json gives text_config num_attention_heads", C);
    if (C % heads) return vit__fail(err, VIT_ERROR_SHAPE_MISMATCH, "text width %d is not divisible by %d heads", C, heads);
    c->num_heads = heads;
    // the head: CLIP's text_projection (no bias), SigLIP's head (with one): the text embedding
    const vit__tensor *hw = vit__role(L, VIT__R_HEAD_W, 0, name, sizeof(name));
    if (!hw) return vit__fail(err, VIT_ERROR_MISSING_TENSOR, "tensor '%s' not found", name);
    if (hw->ndim != 2 || hw->shape[1] != (uint64_t)C || hw->shape[0] == 0 || hw->shape[0] > VIT_MAX_DIM) {
        vit__shape_str(hw, got, sizeof(got));
        return vit__fail(err, VIT_ERROR_SHAPE_MISMATCH, "tensor '%s' has shape %s, expected [embed_dim, %d]", hw->name, got, C);
    }
    c->num_classes = (int)hw->shape[0];
    if (s->proj > 0 && s->proj != c->num_classes)
        return vit__fail(err, VIT_ERROR_SHAPE_MISMATCH, "config.json says %s %d but '%s' has %d rows", clip ? "projection_dim" : "text_config projection_size",
                         s->proj, hw->name, c->num_classes);
    c->projection = 1;
    c->act = (vit_act)s->act;
    c->eps = (float)s->eps;
    c->source = VIT_SOURCE_HF;
    c->pool = VIT_POOL_TOKEN; // (unread: a text tower pools by text_pool)
    t->num_head = 1;
    t->act = c->act == VIT_ACT_GELU_TANH ? VIT__ACT_GELU_TANH : c->act == VIT_ACT_QUICK_GELU ? VIT__ACT_QUICK_GELU : VIT__ACT_GELU;
    t->causal = clip;
    t->text_pool = !clip ? VIT__TEXT_POOL_LAST : s->eos == 2 ? VIT__TEXT_POOL_ARGMAX : VIT__TEXT_POOL_EOS;
    t->eos_id = s->eos;
    return VIT_OK;
}

// --- weight layout: walked twice, once to count floats and once to place them ---

// fc2's input width: M, or with SwiGLU (fc1's columns in (gate, up) pairs) M / 2.
static size_t vit__mlp_hidden(const vit_model *m) {
    return (size_t)m->cfg.mlp_dim / (m->act == VIT__ACT_SWIGLU ? 2 : 1);
}

typedef struct vit__bump {
    float *base;  // NULL while counting
    size_t used;
} vit__bump;

static float *vit__take(vit__bump *b, size_t n) {
    float *p = b->base ? b->base + b->used : NULL;
    b->used += (n + 15) & ~(size_t)15; // keep every tensor 64-byte aligned
    return p;
}

// The weight store's layout (every float tensor in order; with b->base NULL
// only counted). linears = 0 leaves out the blocks' linear weights (int8
// models, once quantised: see vit__drop_block_linears).
static void vit__layout(vit_model *m, vit__bump *b, int has_norm, int linears) {
    const vit_config *c = &m->cfg;
    size_t C = (size_t)c->dim, M = (size_t)c->mlp_dim, K = (size_t)c->num_classes, D = C / (size_t)c->num_heads;
    size_t CPP = (size_t)c->in_chans * c->patch_size * c->patch_size;
    size_t P = (size_t)m->num_prefix, patches = (size_t)c->num_tokens - P;
    if (m->vocab) { // the input step of a text tower: token and position embeddings
        m->tok_embed = vit__take(b, (size_t)m->vocab * C);
        m->pos_embed = vit__take(b, (size_t)c->num_tokens * C);
    } else {
        m->patch_w = vit__take(b, CPP * C);
        m->patch_b = vit__take(b, C);
        m->prefix = P ? vit__take(b, P * C) : NULL;
        m->pos_embed = vit__take(b, patches * C);
    }
    m->pre_norm_w = c->pre_norm ? vit__take(b, C) : NULL;
    m->pre_norm_b = c->pre_norm ? vit__take(b, C) : NULL;
    for (int l = 0; l < c->depth; l++) {
        vit__block *k = &m->blocks[l];
        k->ln1_w = vit__take(b, C); k->ln1_b = vit__take(b, C);
        k->qkv_w = linears ? vit__take(b, C * 3 * C) : NULL; k->qkv_b = vit__take(b, 3 * C);
        k->qn_w = c->qk_norm ? vit__take(b, D) : NULL; k->qn_b = c->qk_norm ? vit__take(b, D) : NULL;
        k->kn_w = c->qk_norm ? vit__take(b, D) : NULL; k->kn_b = c->qk_norm ? vit__take(b, D) : NULL;
        k->proj_w = linears ? vit__take(b, C * C) : NULL; k->proj_b = vit__take(b, C);
        k->ls1 = c->layer_scale ? vit__take(b, C) : NULL;
        k->ls2 = c->layer_scale ? vit__take(b, C) : NULL;
        k->ln2_w = vit__take(b, C); k->ln2_b = vit__take(b, C);
        k->fc1_w = linears ? vit__take(b, C * M) : NULL; k->fc1_b = vit__take(b, M);
        k->fc2_w = linears ? vit__take(b, vit__mlp_hidden(m) * C) : NULL; k->fc2_b = vit__take(b, C);
    }
    m->norm_w = has_norm ? vit__take(b, C) : NULL;
    m->norm_b = has_norm ? vit__take(b, C) : NULL;
    m->fc_norm_w = c->fc_norm ? vit__take(b, C) : NULL;
    m->fc_norm_b = c->fc_norm ? vit__take(b, C) : NULL;
    if (c->pool == VIT_POOL_MAP) {
        size_t Mm = (size_t)m->map.mlp_dim;
        vit__map *p = &m->map;
        p->q = vit__take(b, C);
        p->kv_w = vit__take(b, C * 2 * C); p->kv_b = vit__take(b, 2 * C);
        p->proj_w = vit__take(b, C * C); p->proj_b = vit__take(b, C);
        p->norm_w = vit__take(b, C); p->norm_b = vit__take(b, C);
        p->fc1_w = vit__take(b, C * Mm); p->fc1_b = vit__take(b, Mm);
        p->fc2_w = vit__take(b, Mm * C); p->fc2_b = vit__take(b, C);
    }
    m->head_w = K ? vit__take(b, (size_t)m->num_head * C * K) : NULL;
    m->head_b = K ? vit__take(b, (size_t)m->num_head * K) : NULL;
}

// A linear layer's weight t (out, in) rows [row0, row0 + rows) into dst as
// (in, rows) with row stride ld (transposed: the layout vit__linear_cpu
// reads). glu: the rows are SwiGLU's [gate | up] halves; output column 2j
// gets gate row j and 2j + 1 up row j (vit__epi_apply's column pairs).
static void vit__copy_linear(float *dst, const vit__tensor *t, size_t row0, size_t rows, size_t cols, size_t ld, int glu) {
    for (size_t r = 0; r < rows; r++) {
        size_t oc = glu ? (r < rows / 2 ? 2 * r : 2 * (r - rows / 2) + 1) : r;
        for (size_t c = 0; c < cols; c++) dst[c * ld + oc] = vit__tensor_at(t, (row0 + r) * cols + c);
    }
}

// Elements [at, at + n) of t into dst (glu: permuted as vit__copy_linear's columns); zeros when t is NULL.
static void vit__copy_vec(float *dst, const vit__tensor *t, size_t at, size_t n, int glu) {
    for (size_t i = 0; i < n; i++) {
        size_t o = glu ? (i < n / 2 ? 2 * i : 2 * (i - n / 2) + 1) : i;
        dst[o] = t ? vit__tensor_at(t, at + i) : 0.0f;
    }
}

// Keys' cubic convolution kernel with parameter a (-0.5: PIL and torch's
// antialiased bicubic; -0.75: torch's plain bicubic).
static double vit__keys_cubic(double x, double a) {
    if (x < 0.0) x = -x;
    if (x < 1.0) return ((a + 2.0) * x - (a + 3.0)) * x * x + 1.0;
    if (x < 2.0) return ((a * x - 5.0 * a) * x + 8.0 * a) * x - 4.0 * a;
    return 0.0;
}

// Taps of 1-D bicubic resampling in_size -> out_size, as torch's interpolate
// (mode='bicubic', align_corners=False) computes them. antialias: Keys a =
// -0.5 over a support widened by the scale when shrinking, weights normalised
// (torch's _upsample_bicubic2d_aa, PIL's filter); else Keys a = -0.75 on the
// 4 nearest inputs, indices clamped at the borders (upsample_bicubic2d).
// idx/w: (out_size, taps); returns taps, 0 on out of memory.
static int vit__bicubic_taps(const vit_allocator *a, int in_size, int out_size, int antialias, int **idx, double **w) {
    double scale = (double)in_size / out_size;
    double support = antialias ? 2.0 * (scale >= 1.0 ? scale : 1.0) : 2.0;
    int taps = antialias ? (int)ceil(support) * 2 + 1 : 4;
    *idx = (int *)vit__malloc(a, (size_t)out_size * taps * sizeof(int));
    *w = (double *)vit__malloc(a, (size_t)out_size * taps * sizeof(double));
    if (!*idx || !*w) { vit__free(a, *idx); vit__free(a, *w); *idx = NULL; *w = NULL; return 0; }
    for (int o = 0; o < out_size; o++) {
        int *ix = *idx + (size_t)o * taps;
        double *wx = *w + (size_t)o * taps;
        if (antialias) {
            double center = scale * (o + 0.5), inv = scale >= 1.0 ? 1.0 / scale : 1.0, total = 0.0;
            int lo = (int)(center - support + 0.5), hi = (int)(center + support + 0.5);
            if (lo < 0) lo = 0;
            if (hi > in_size) hi = in_size;
            for (int t = 0; t < taps; t++) {
                ix[t] = lo;
                wx[t] = lo + t < hi ? vit__keys_cubic((t + lo - center + 0.5) * inv, -0.5) : 0.0;
                if (lo + t < hi) ix[t] = lo + t;
                total += wx[t];
            }
            if (total != 0.0)
                for (int t = 0; t < taps; t++) wx[t] /= total;
        } else {
            double x = scale * (o + 0.5) - 0.5;
            int x0 = (int)floor(x);
            double t = x - x0, d[4] = {t + 1.0, t, 1.0 - t, 2.0 - t};
            for (int k = 0; k < 4; k++) {
                wx[k] = vit__keys_cubic(d[k], -0.75);
                int i = x0 - 1 + k;
                ix[k] = i < 0 ? 0 : i >= in_size ? in_size - 1 : i;
            }
        }
    }
    return taps;
}

// dst (oh, ow, C) = src (ih, iw, C) resampled per vit__bicubic_taps, in double.
static vit_status vit__resample_grid(const vit_allocator *a, float *dst, const float *src, int ih, int iw, int oh, int ow, int C, int antialias) {
    int *yi = NULL, *xi = NULL;
    double *yw = NULL, *xw = NULL, *row = NULL;
    int ty = vit__bicubic_taps(a, ih, oh, antialias, &yi, &yw);
    int tx = ty ? vit__bicubic_taps(a, iw, ow, antialias, &xi, &xw) : 0;
    row = tx ? (double *)vit__malloc(a, (size_t)iw * C * sizeof(double)) : NULL;
    vit_status st = row ? VIT_OK : VIT_ERROR_OUT_OF_MEMORY;
    for (int y = 0; st == VIT_OK && y < oh; y++) {
        // the vertical pass for output row y, then the horizontal one
        for (size_t i = 0; i < (size_t)iw * C; i++) row[i] = 0.0;
        for (int k = 0; k < ty; k++) {
            double wk = yw[(size_t)y * ty + k];
            const float *s = src + (size_t)yi[(size_t)y * ty + k] * iw * C;
            if (wk != 0.0)
                for (size_t i = 0; i < (size_t)iw * C; i++) row[i] += wk * s[i];
        }
        for (int x = 0; x < ow; x++)
            for (int ch = 0; ch < C; ch++) {
                double v = 0.0;
                for (int k = 0; k < tx; k++) v += xw[(size_t)x * tx + k] * row[(size_t)xi[(size_t)x * tx + k] * C + ch];
                dst[((size_t)y * ow + x) * C + ch] = (float)v;
            }
    }
    vit__free(a, yi); vit__free(a, xi); vit__free(a, yw); vit__free(a, xw); vit__free(a, row);
    return st;
}

// Checks the tensor of role r (block l): present unless optional, a float
// dtype, shape dims[0..ndim) (< 0: any size); marks it used. *out = it or NULL.
static vit_status vit__want(vit__loader *L, int r, int l, int optional, int ndim, const long long *dims, const vit__tensor **out) {
    char name[192];
    vit__tensor *t = vit__role(L, r, l, name, sizeof(name));
    *out = t;
    if (!t) {
        if (optional) return VIT_OK;
        return vit__fail(L->err, VIT_ERROR_MISSING_TENSOR, "tensor '%s' not found", name[0] ? name : "(no name for this role)");
    }
    t->used = 1;
    if (ndim == 0) return VIT_OK; // token tensors: checked by vit__token_check
    return vit__expect(L, t->name, optional, ndim, dims, out);
}

// The scalar tensor of role r (shape [] or [1], a float dtype) into *out; marks it used.
static vit_status vit__want_scalar(vit__loader *L, int r, float *out) {
    char name[192], got[160];
    vit__tensor *t = vit__role(L, r, 0, name, sizeof(name));
    if (!t) return vit__fail(L->err, VIT_ERROR_MISSING_TENSOR, "tensor '%s' not found", name);
    t->used = 1;
    if (t->dtype == VIT__DT_OTHER) return vit__fail(L->err, VIT_ERROR_UNSUPPORTED, "tensor '%s' has dtype %s; only F32, F16 and BF16 are supported", t->name, t->dtype_name);
    if (!(t->ndim == 0 || (t->ndim == 1 && t->shape[0] == 1))) {
        vit__shape_str(t, got, sizeof(got));
        return vit__fail(L->err, VIT_ERROR_SHAPE_MISMATCH, "tensor '%s' has shape %s, expected a scalar ([] or [1])", t->name, got);
    }
    *out = vit__tensor_at(t, 0);
    if (!(fabsf(*out) <= FLT_MAX)) return vit__fail(L->err, VIT_ERROR_BAD_FORMAT, "tensor '%s' is not finite", t->name);
    return VIT_OK;
}

// Validates every tensor the architecture needs and copies it into m->weights.
// pass 0: validate only (nothing written) and mark the tensors read; pass 1: copy.
static vit_status vit__load_weights(vit__loader *L, vit_model *m, int pass) {
    const vit_config *c = &m->cfg;
    long long C = c->dim, M = c->mlp_dim, K = c->num_classes, Pp = c->patch_size, Ci = c->in_chans, D = c->dim / c->num_heads;
    long long hidden = (long long)vit__mlp_hidden(m);
    size_t uC = (size_t)C;
    int glu = m->act == VIT__ACT_SWIGLU;
    const vit__tensor *t, *t2;
    vit_status st;
#define VIT__WANT(role, l, opt, nd, ...)                                              \
    do {                                                                            \
        const long long dims_[] = {__VA_ARGS__};                                    \
        if ((st = vit__want(L, role, l, opt, nd, dims_, &t)) != VIT_OK) return st;  \
    } while (0)

    if (m->vocab) { // a text tower's input step: token embedding (V, C) and position embedding (context, C)
        VIT__WANT(VIT__R_TOK, 0, 0, 2, (long long)m->vocab, C);
        if (pass) vit__copy_vec(m->tok_embed, t, 0, (size_t)m->vocab * uC, 0);
        VIT__WANT(VIT__R_POS, 0, 0, 2, (long long)c->num_tokens, C);
        if (pass) vit__copy_vec(m->pos_embed, t, 0, (size_t)c->num_tokens * uC, 0);
    } else {
        // patch embedding (C, Ci, P, P) -> (Ci*P*P, C); CLIP has no bias
        VIT__WANT(VIT__R_PATCH_W, 0, 0, 4, C, Ci, Pp, Pp);
        if (pass) vit__copy_linear(m->patch_w, t, 0, uC, (size_t)(Ci * Pp * Pp), uC, 0);
        VIT__WANT(VIT__R_PATCH_B, 0, 1, 1, C);
        if (pass) vit__copy_vec(m->patch_b, t, 0, uC, 0);

        // prefix tokens, then the position embedding: its rows for the prefix
        // tokens are folded into them here (input-independent), the patch rows
        // resampled to the grid the model runs at
        int at = 0;
        const int roles[3] = {VIT__R_CLS, VIT__R_DIST, VIT__R_REG}, counts[3] = {c->class_token, c->distilled, c->num_registers};
        for (int i = 0; i < 3; i++) {
            if (!counts[i]) continue;
            VIT__WANT(roles[i], 0, 0, 0, 0);
            if (pass) vit__copy_vec(m->prefix + (size_t)at * uC, t, 0, (size_t)counts[i] * uC, 0);
            at += counts[i];
        }
        VIT__WANT(VIT__R_POS, 0, 0, 0, 0);
        if (pass) {
            int gh = c->image_height / c->patch_size, gw = c->image_width / c->patch_size;
            size_t cover = (size_t)L->pos_cover, native = (size_t)L->grid_h * L->grid_w;
            for (size_t i = 0; i < cover * uC; i++) m->prefix[i] += vit__tensor_at(t, i);
            if (gh == L->grid_h && gw == L->grid_w) {
                vit__copy_vec(m->pos_embed, t, cover * uC, native * uC, 0);
            } else {
                float *grid = (float *)vit__malloc(L->alloc, native * uC * sizeof(float));
                if (!grid) return vit__fail(L->err, VIT_ERROR_OUT_OF_MEMORY, "out of memory resampling the position embedding");
                vit__copy_vec(grid, t, cover * uC, native * uC, 0);
                // timm (resample_abs_pos_embed) and HF DINOv2 with registers antialias; HF's other interpolate_pos_encoding do not
                int aa = L->fam == VIT__FAM_TIMM || L->dinov2_registers;
                st = vit__resample_grid(L->alloc, m->pos_embed, grid, L->grid_h, L->grid_w, gh, gw, (int)C, aa);
                vit__free(L->alloc, grid);
                if (st != VIT_OK) return vit__fail(L->err, st, "out of memory resampling the position embedding");
            }
        }
    }
    if (c->pre_norm) {
        VIT__WANT(VIT__R_PRE_W, 0, 0, 1, C); if (pass) vit__copy_vec(m->pre_norm_w, t, 0, uC, 0);
        VIT__WANT(VIT__R_PRE_B, 0, 0, 1, C); if (pass) vit__copy_vec(m->pre_norm_b, t, 0, uC, 0);
    }
    for (int l = 0; l < c->depth; l++) {
        vit__block *k = &m->blocks[l];
        // LayerNorms, attention projection, MLP (role, destination, rows, cols: cols 0 = a vector; optional = zeros when absent)
        struct { int role; float *dst; long long r, cc; int optional, glu; } items[] = {
            {VIT__R_LN1_W, k->ln1_w, C, 0, 0, 0}, {VIT__R_LN1_B, k->ln1_b, C, 0, 0, 0},
            {VIT__R_PROJ_W, k->proj_w, C, C, 0, 0}, {VIT__R_PROJ_B, k->proj_b, C, 0, 1, 0},
            {VIT__R_LN2_W, k->ln2_w, C, 0, 0, 0}, {VIT__R_LN2_B, k->ln2_b, C, 0, 0, 0},
            {VIT__R_FC1_W, k->fc1_w, M, C, 0, glu}, {VIT__R_FC1_B, k->fc1_b, M, 0, 1, glu},
            {VIT__R_FC2_W, k->fc2_w, C, hidden, 0, 0}, {VIT__R_FC2_B, k->fc2_b, C, 0, 1, 0},
        };
        for (size_t i = 0; i < sizeof(items) / sizeof(items[0]); i++) {
            if (items[i].cc) VIT__WANT(items[i].role, l, 0, 2, items[i].r, items[i].cc);
            else VIT__WANT(items[i].role, l, items[i].optional, 1, items[i].r);
            if (!pass) continue;
            if (items[i].cc) vit__copy_linear(items[i].dst, t, 0, (size_t)items[i].r, (size_t)items[i].cc, (size_t)items[i].r, items[i].glu);
            else vit__copy_vec(items[i].dst, t, 0, (size_t)items[i].r, items[i].glu);
        }
        if (L->fam != VIT__FAM_TIMM) { // separate q, k, v -> one (C, 3C) matrix
            const int rw[3] = {VIT__R_Q_W, VIT__R_K_W, VIT__R_V_W}, rb[3] = {VIT__R_Q_B, VIT__R_K_B, VIT__R_V_B};
            for (int q = 0; q < 3; q++) {
                VIT__WANT(rw[q], l, 0, 2, C, C);
                if (pass) vit__copy_linear(k->qkv_w + (size_t)q * uC, t, 0, uC, uC, 3 * uC, 0);
                VIT__WANT(rb[q], l, 1, 1, C);
                if (pass) vit__copy_vec(k->qkv_b + (size_t)q * uC, t, 0, uC, 0);
            }
        } else {
            VIT__WANT(VIT__R_QKV_W, l, 0, 2, 3 * C, C);
            if (pass) vit__copy_linear(k->qkv_w, t, 0, 3 * uC, uC, 3 * uC, 0);
            VIT__WANT(VIT__R_QKV_B, l, 1, 1, 3 * C);
            if (t) {
                if (pass) vit__copy_vec(k->qkv_b, t, 0, 3 * uC, 0);
            } else { // qkv_bias=False, or q/v bias only (BEiT-style) -> zeros plus the given parts
                VIT__WANT(VIT__R_QBIAS, l, 1, 1, C);
                t2 = t;
                VIT__WANT(VIT__R_VBIAS, l, 1, 1, C);
                if (pass) {
                    vit__copy_vec(k->qkv_b, t2, 0, uC, 0);
                    vit__copy_vec(k->qkv_b + uC, NULL, 0, uC, 0);
                    vit__copy_vec(k->qkv_b + 2 * uC, t, 0, uC, 0);
                }
            }
        }
        if (c->qk_norm) {
            const int qr[4] = {VIT__R_QN_W, VIT__R_QN_B, VIT__R_KN_W, VIT__R_KN_B};
            float *qd[4] = {k->qn_w, k->qn_b, k->kn_w, k->kn_b};
            for (int q = 0; q < 4; q++) {
                VIT__WANT(qr[q], l, 0, 1, D);
                if (pass) vit__copy_vec(qd[q], t, 0, (size_t)D, 0);
            }
        }
        if (c->layer_scale) {
            VIT__WANT(VIT__R_LS1, l, 0, 1, C); if (pass) vit__copy_vec(k->ls1, t, 0, uC, 0);
            VIT__WANT(VIT__R_LS2, l, 0, 1, C); if (pass) vit__copy_vec(k->ls2, t, 0, uC, 0);
        }
    }
    // final norm: timm drops it (Identity) when fc_norm is used
    VIT__WANT(VIT__R_NORM_W, 0, c->fc_norm, 1, C);
    if (t) {
        if (pass) vit__copy_vec(m->norm_w, t, 0, uC, 0);
        VIT__WANT(VIT__R_NORM_B, 0, 0, 1, C);
        if (pass) vit__copy_vec(m->norm_b, t, 0, uC, 0);
    }
    if (c->fc_norm) {
        VIT__WANT(VIT__R_FCN_W, 0, 0, 1, C); if (pass) vit__copy_vec(m->fc_norm_w, t, 0, uC, 0);
        VIT__WANT(VIT__R_FCN_B, 0, 0, 1, C); if (pass) vit__copy_vec(m->fc_norm_b, t, 0, uC, 0);
    }
    if (c->pool == VIT_POOL_MAP) { // attention pooling: q of the first latent (input-independent) computed here
        vit__map *p = &m->map;
        long long Mm = p->mlp_dim, qoff = 0;
        const vit__tensor *lat, *qw, *qb, *kvw, *kvb;
        VIT__WANT(VIT__R_MAP_LATENT, 0, 0, 0, 0);
        lat = t;
        if (L->fam == VIT__FAM_TIMM) {
            VIT__WANT(VIT__R_MAP_Q_W, 0, 0, 2, C, C); qw = t;
            VIT__WANT(VIT__R_MAP_Q_B, 0, 1, 1, C); qb = t;
            VIT__WANT(VIT__R_MAP_KV_W, 0, 0, 2, 2 * C, C); kvw = t;
            VIT__WANT(VIT__R_MAP_KV_B, 0, 1, 1, 2 * C); kvb = t;
        } else { // nn.MultiheadAttention's packed in_proj: rows [q | k | v]
            VIT__WANT(VIT__R_MAP_QKV_W, 0, 0, 2, 3 * C, C); qw = kvw = t;
            VIT__WANT(VIT__R_MAP_QKV_B, 0, 1, 1, 3 * C); qb = kvb = t;
            qoff = C;
        }
        if (pass) {
            for (long long j = 0; j < C; j++) {
                double s = qb ? vit__tensor_at(qb, (size_t)j) : 0.0;
                for (long long i = 0; i < C; i++) s += (double)vit__tensor_at(lat, (size_t)i) * vit__tensor_at(qw, (size_t)(j * C + i));
                p->q[j] = (float)s;
            }
            vit__copy_linear(p->kv_w, kvw, (size_t)qoff, 2 * uC, uC, 2 * uC, 0);
            vit__copy_vec(p->kv_b, kvb, kvb ? (size_t)qoff : 0, 2 * uC, 0);
        }
        VIT__WANT(VIT__R_MAP_PROJ_W, 0, 0, 2, C, C); if (pass) vit__copy_linear(p->proj_w, t, 0, uC, uC, uC, 0);
        VIT__WANT(VIT__R_MAP_PROJ_B, 0, 1, 1, C); if (pass) vit__copy_vec(p->proj_b, t, 0, uC, 0);
        VIT__WANT(VIT__R_MAP_NORM_W, 0, 0, 1, C); if (pass) vit__copy_vec(p->norm_w, t, 0, uC, 0);
        VIT__WANT(VIT__R_MAP_NORM_B, 0, 0, 1, C); if (pass) vit__copy_vec(p->norm_b, t, 0, uC, 0);
        VIT__WANT(VIT__R_MAP_FC1_W, 0, 0, 2, Mm, C); if (pass) vit__copy_linear(p->fc1_w, t, 0, (size_t)Mm, uC, (size_t)Mm, 0);
        VIT__WANT(VIT__R_MAP_FC1_B, 0, 1, 1, Mm); if (pass) vit__copy_vec(p->fc1_b, t, 0, (size_t)Mm, 0);
        VIT__WANT(VIT__R_MAP_FC2_W, 0, 0, 2, C, Mm); if (pass) vit__copy_linear(p->fc2_w, t, 0, uC, (size_t)Mm, uC, 0);
        VIT__WANT(VIT__R_MAP_FC2_B, 0, 1, 1, C); if (pass) vit__copy_vec(p->fc2_b, t, 0, uC, 0);
    }
    if (K) {
        const int hr[2][2] = {{VIT__R_HEAD_W, VIT__R_HEAD_B}, {VIT__R_HEAD2_W, VIT__R_HEAD2_B}};
        for (int h = 0; h < m->num_head; h++) {
            VIT__WANT(hr[h][0], 0, 0, 2, K, C);
            if (pass) vit__copy_linear(m->head_w + (size_t)h * uC * (size_t)K, t, 0, (size_t)K, uC, (size_t)K, 0);
            VIT__WANT(hr[h][1], 0, 1, 1, K);
            if (pass) vit__copy_vec(m->head_b + (size_t)h * (size_t)K, t, 0, (size_t)K, 0);
        }
    }
#undef VIT__WANT
    if (m->vocab) { // a text tower: the similarity's temperature (stored as its log), and SigLIP's bias
        if ((st = vit__want_scalar(L, VIT__R_SCALE, &m->logit_scale)) != VIT_OK) return st;
        if (L->fam == VIT__FAM_HF_SIGLIP_TEXT && (st = vit__want_scalar(L, VIT__R_BIAS, &m->logit_bias)) != VIT_OK) return st;
    }
    return VIT_OK;
}

// After every tower's pass 0 (vit__load_weights): a tensor no tower read would change the answer: refused.
static vit_status vit__check_unused(vit__loader *L) {
    for (int i = 0; i < L->count; i++)
        if (!L->tensors[i].used && !vit__is_ignored(L, L->tensors[i].name))
            return vit__fail(L->err, VIT_ERROR_UNSUPPORTED, "tensor '%s%s' is not used by vit.h's model of this file (refused rather than ignored)",
                             L->tensors[i].name, L->tensors[i].name_truncated ? "..." : "");
    return VIT_OK;
}

#ifndef VIT_NO_STDIO
// Reads a whole file. Missing file with optional -> VIT_OK and *data NULL.
static vit_status vit__read_file(const char *path, const vit_allocator *a, int optional, char **data, size_t *size, char *err) {
    *data = NULL;
    *size = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return optional ? VIT_OK : vit__fail(err, VIT_ERROR_IO, "cannot open '%s'", path);
    vit_status st = VIT_OK;
    long long len = -1;
    if (fseek(f, 0, SEEK_END) == 0) {
#if defined(_WIN32)
        len = _ftelli64(f);
#else
        len = (long long)ftell(f);
#endif
    }
    // a directory opens, and ftell gives LLONG_MAX; reading one byte fails (EISDIR)
    if (len < 0 || fseek(f, 0, SEEK_SET) != 0 || (getc(f) == EOF && ferror(f)) || fseek(f, 0, SEEK_SET) != 0)
        st = vit__fail(err, VIT_ERROR_IO, "cannot read '%s' (not a regular file?)", path);
    else if ((unsigned long long)len >= (unsigned long long)SIZE_MAX) st = vit__fail(err, VIT_ERROR_LIMIT, "'%s' is too large", path);
    else if (!(*data = (char *)vit__malloc(a, (size_t)len + 1))) st = vit__fail(err, VIT_ERROR_OUT_OF_MEMORY, "out of memory reading %lld bytes of '%s'", len, path);
    else if (len > 0 && fread(*data, 1, (size_t)len, f) != (size_t)len) st = vit__fail(err, VIT_ERROR_IO, "short read from '%s'", path);
    fclose(f);
    if (st != VIT_OK) { vit__free(a, *data); *data = NULL; return st; }
    (*data)[len] = 0;
    *size = (size_t)len;
    return VIT_OK;
}

#endif

// >>preprocess ----------------------------------------------------------------
// Image -> normalised (Cin, H, W) floats at the model's input size (H, W) =
// (image_height, image_width), reproducing the eval transform the model came
// with (vit__preprocess_geometry has the rules and the code each follows):
// timm's transforms_imagenet_eval (Resize / ResizeKeepRatio to floor(x /
// crop_pct), torchvision CenterCrop) and the PIL backend of Hugging Face's
// ViT, DeiT, CLIP, Bit (DINOv2) and SigLIP image processors (resize, then
// center_crop with floored offsets), then ToTensor/rescale and Normalize. The
// resize is PIL's convolution resampler in its 8-bit fixed-point form
// (antialiased when shrinking, the passes in Pillow 13's order, rounded to 8
// bits after each pass) or PIL's nearest neighbour, so the pixels match PIL's
// exactly.

#ifndef VIT_NO_STB_IMAGE
// Set when an allocation of the private stb_image fails: stb takes a failed format
// probe for "not this format", and some failures leave a stale reason ("no SOI",
// "unknown image type"), so vit_preprocess_memory asks this instead of stb.
static VIT__THREAD_LOCAL int vit__stbi_oom;
#ifndef STBI_INCLUDE_STB_IMAGE_H // the user has not brought their own stb_image
#ifndef VIT_STB_IMAGE_H
#define VIT_STB_IMAGE_H <stb/stb_image.h>
#endif
#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#ifdef VIT_NO_STDIO
#define STBI_NO_STDIO
#endif
#define STBI_NO_HDR // formats the issue does not ask for: less hostile-input surface
#define STBI_NO_PSD
#define STBI_NO_PIC
// (BMP and PNM stay compiled for programs that call stbi_load themselves; vit.h decodes
// both itself, as PIL does, and never hands stb_image a file starting with "BM" or "P1"-"P6")
#define STBI_MAX_DIMENSIONS VIT_MAX_IMAGE_SIDE
#define STBI_MALLOC(sz) vit__stbi_malloc(sz)
#define STBI_FREE(p) VIT_FREE(p)
#define STBI_REALLOC_SIZED(p, oldsz, newsz) vit__stbi_realloc(p, oldsz, newsz)
static void *vit__stbi_malloc(size_t size) { // zeroed: stb_image 2.27 returns a truncated PNM with its missing pixels unwritten
    void *p = VIT_MALLOC(size);
    if (p) memset(p, 0, size);
    else vit__stbi_oom = 1;
    return p;
}
static void *vit__stbi_realloc(void *p, size_t old_size, size_t new_size) { // via VIT_MALLOC/VIT_FREE, which have no realloc
    void *q = VIT_MALLOC(new_size ? new_size : 1);
    if (q && p) memcpy(q, p, old_size < new_size ? old_size : new_size);
    if (q) VIT_FREE(p);
    else vit__stbi_oom = 1;
    return q;
}
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wshadow"
#ifndef __clang__
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#endif
#include VIT_STB_IMAGE_H
#if defined(STBI_VERSION) && STBI_VERSION == 1 && defined(STBI_THREAD_LOCAL) && !defined(STBI_NO_PNG)
// stb_image 2.27 declares this but defines it misspelt: give the static declaration its body
static void stbi_set_unpremultiply_on_load_thread(int flag) { stbi__unpremultiply_on_load_thread(flag); }
#endif
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic pop
#endif
#endif
#endif

#define VIT__PRECISION_BITS 22 // PIL's fixed-point coefficient precision for 8-bit images

static double vit__filter_bilinear(double x) {
    if (x < 0.0) x = -x;
    return x < 1.0 ? 1.0 - x : 0.0;
}

static double vit__filter_bicubic(double x) { // Keys cubic with a = -0.5, as PIL
    const double a = -0.5;
    if (x < 0.0) x = -x;
    if (x < 1.0) return ((a + 2.0) * x - (a + 3.0)) * x * x + 1.0;
    if (x < 2.0) return (((x - 5.0) * x + 8.0) * x - 4.0) * a;
    return 0.0;
}

// PIL's precompute_coeffs + normalize_coeffs_8bpc for in_size -> out_size.
// bounds: (out_size, 2) first source index and tap count; coeffs: (out_size, ksize).
// Returns ksize, or 0 on out of memory (*bounds, *coeffs then NULL).
static int vit__resample_coeffs(const vit_allocator *a, int in_size, int out_size, vit_interp interp, int **bounds, int32_t **coeffs) {
    double support = interp == VIT_INTERP_BICUBIC ? 2.0 : 1.0;
    double scale = (double)in_size / out_size, filterscale = scale < 1.0 ? 1.0 : scale;
    support *= filterscale;
    int ksize = (int)ceil(support) * 2 + 1;
    *bounds = (int *)vit__malloc(a, (size_t)out_size * 2 * sizeof(int));
    *coeffs = (int32_t *)vit__malloc(a, (size_t)out_size * ksize * sizeof(int32_t));
    double *k = (double *)vit__malloc(a, (size_t)ksize * sizeof(double));
    if (!*bounds || !*coeffs || !k) {
        vit__free(a, *bounds); vit__free(a, *coeffs); vit__free(a, k);
        *bounds = NULL; *coeffs = NULL;
        return 0;
    }
    for (int xx = 0; xx < out_size; xx++) {
        double center = (xx + 0.5) * scale, ww = 0.0, ss = 1.0 / filterscale;
        int xmin = (int)(center - support + 0.5), xmax = (int)(center + support + 0.5);
        if (xmin < 0) xmin = 0;
        if (xmax > in_size) xmax = in_size;
        xmax -= xmin;
        for (int x = 0; x < xmax; x++) {
            double arg = (x + xmin - center + 0.5) * ss;
            double w = interp == VIT_INTERP_BICUBIC ? vit__filter_bicubic(arg) : vit__filter_bilinear(arg);
            k[x] = w;
            ww += w;
        }
        for (int x = 0; x < ksize; x++) {
            double v = x < xmax ? (ww != 0.0 ? k[x] / ww : k[x]) : 0.0;
            (*coeffs)[(size_t)xx * ksize + x] = (int32_t)(v < 0 ? -0.5 + v * (1 << VIT__PRECISION_BITS) : 0.5 + v * (1 << VIT__PRECISION_BITS));
        }
        (*bounds)[xx * 2] = xmin;
        (*bounds)[xx * 2 + 1] = xmax;
    }
    vit__free(a, k);
    return ksize;
}

static VIT__HD unsigned char vit__clip8(int64_t v) {
    if (v >= ((int64_t)256 << VIT__PRECISION_BITS)) return 255;
    if (v <= 0) return 0;
    return (unsigned char)(v >> VIT__PRECISION_BITS);
}

// How PIL resizes sw x sh to dw x dh: nearest neighbour's source indices, or
// the convolution passes' taps and their order. The CPU resize and the GPU
// preprocessing (vit_kernels.cuh) both run from one plan, so they agree to the bit.
typedef struct vit__resize_plan {
    int sw, sh, dw, dh;
    int nearest;          // 1: out(x, y) = in(nx[x], ny[y])
    int *nx, *ny;         // nearest: (dw), (dh) source column / row
    int *hb, *vb;         // (dw, 2), (dh, 2): first source index and tap count
    int32_t *hk, *vk;     // (dw, hks), (dh, vks) fixed-point taps
    int hks, vks;
    int vfirst;           // 1: the vertical pass runs first
    int y_first, y_last;  // horizontal first: the source rows the vertical pass reads
} vit__resize_plan;

static void vit__resize_plan_free(const vit_allocator *a, vit__resize_plan *p) {
    vit__free(a, p->nx); vit__free(a, p->ny); vit__free(a, p->hb); vit__free(a, p->hk); vit__free(a, p->vb); vit__free(a, p->vk);
    p->nx = p->ny = p->hb = p->vb = NULL;
    p->hk = p->vk = NULL;
}

// VIT_ERROR_OUT_OF_MEMORY (p then holds nothing) or VIT_OK.
static vit_status vit__resize_plan_make(const vit_allocator *a, int sw, int sh, int dw, int dh, vit_interp interp, vit__resize_plan *p) {
    memset(p, 0, sizeof(*p));
    p->sw = sw; p->sh = sh; p->dw = dw; p->dh = dh;
    if (interp == VIT_INTERP_NEAREST) {
        // PIL's ImagingScaleAffine (Geometry.c): the source position starts half a
        // step in and is accumulated in double, step by step; (int)((x + 0.5) * step)
        // picks a different pixel for about one size pair in five.
        p->nearest = 1;
        p->nx = (int *)vit__malloc(a, (size_t)dw * sizeof(int));
        p->ny = (int *)vit__malloc(a, (size_t)dh * sizeof(int));
        if (!p->nx || !p->ny) { vit__resize_plan_free(a, p); return VIT_ERROR_OUT_OF_MEMORY; }
        for (int k = 0; k < 2; k++) {
            int s = k ? sh : sw, d = k ? dh : dw, *idx = k ? p->ny : p->nx;
            double step = (double)s / d, o = step * 0.5;
            for (int i = 0; i < d; i++, o += step) idx[i] = (int)o < s - 1 ? (int)o : s - 1; // (the clamp is never reached)
        }
        return VIT_OK;
    }
    p->hks = vit__resample_coeffs(a, sw, dw, interp, &p->hb, &p->hk);
    p->vks = p->hks ? vit__resample_coeffs(a, sh, dh, interp, &p->vb, &p->vk) : 0;
    if (!p->vks) { vit__resize_plan_free(a, p); return VIT_ERROR_OUT_OF_MEMORY; }
    // Pillow >= 13 runs the vertical pass first when the height shrinks by more
    // than twice as many pixels as the width (ImagingResampleInner); the order
    // changes the rounding to 8 bits between the passes. (Pillow <= 12.1 always
    // went horizontal first; 12.2-12.3 went vertical first only for h > 100 w.)
    p->vfirst = sh - dh > 0 && sh - dh > (sw - dw) * 2;
    p->y_first = p->vfirst ? 0 : p->vb[0];
    p->y_last = p->vb[(dh - 1) * 2] + p->vb[(dh - 1) * 2 + 1];
    return VIT_OK;
}

// One output sample of a convolution pass: taps k over n inputs `step` bytes apart.
static VIT__HD unsigned char vit__resample_tap(const unsigned char *in, size_t step, const int32_t *k, int n) {
    int64_t acc = (int64_t)1 << (VIT__PRECISION_BITS - 1);
    for (int i = 0; i < n; i++) acc += (int64_t)in[(size_t)i * step] * k[i];
    return vit__clip8(acc);
}

// Resizes src (sw x sh x ch bytes, packed rows) to dst (dw x dh x ch) as PIL's
// Image.resize does for 8-bit images.
static vit_status vit__resize_u8(const vit_allocator *a, const unsigned char *src, int sw, int sh, int ch,
                                 unsigned char *dst, int dw, int dh, vit_interp interp) {
    vit__resize_plan p;
    if (vit__resize_plan_make(a, sw, sh, dw, dh, interp, &p) != VIT_OK) return VIT_ERROR_OUT_OF_MEMORY;
    if (p.nearest) {
        for (int y = 0; y < dh; y++)
            for (int x = 0; x < dw; x++) memcpy(dst + ((size_t)y * dw + x) * ch, src + ((size_t)p.ny[y] * sw + p.nx[x]) * ch, (size_t)ch);
        vit__resize_plan_free(a, &p);
        return VIT_OK;
    }
    // horizontal first: that pass covers only the source rows the vertical pass reads
    int y_first = p.y_first, rows = p.vfirst ? dh : p.y_last - y_first, tw = p.vfirst ? sw : dw; // tmp: (rows, tw, ch)
    unsigned char *tmp = (unsigned char *)vit__malloc(a, (size_t)rows * tw * ch);
    for (int pass = 0; tmp && pass < 2; pass++) {
        if ((pass == 0) != p.vfirst) { // horizontal: src rows [y_first, y_first + rows) -> tmp, or tmp -> dst
            const unsigned char *in = p.vfirst ? tmp : src;
            unsigned char *out = p.vfirst ? dst : tmp;
            for (int y = 0; y < rows; y++)
                for (int x = 0; x < dw; x++)
                    for (int c = 0; c < ch; c++)
                        out[((size_t)y * dw + x) * ch + c] = vit__resample_tap(in + ((size_t)(y + y_first) * sw + p.hb[x * 2]) * ch + c, (size_t)ch,
                                                                              p.hk + (size_t)x * p.hks, p.hb[x * 2 + 1]);
        } else { // vertical: tmp -> dst, or src -> tmp (tw columns)
            const unsigned char *in = p.vfirst ? src : tmp;
            unsigned char *out = p.vfirst ? tmp : dst;
            for (int y = 0; y < dh; y++)
                for (int x = 0; x < tw; x++)
                    for (int c = 0; c < ch; c++)
                        out[((size_t)y * tw + x) * ch + c] = vit__resample_tap(in + ((size_t)(p.vb[y * 2] - y_first) * tw + x) * ch + c, (size_t)tw * ch,
                                                                              p.vk + (size_t)y * p.vks, p.vb[y * 2 + 1]);
        }
    }
    vit__free(a, tmp);
    vit__resize_plan_free(a, &p);
    return tmp ? VIT_OK : VIT_ERROR_OUT_OF_MEMORY;
}

// Python's round() of v >= 0 (half to even), as timm's ResizeKeepRatio and
// torchvision's CenterCrop use it.
static double vit__round_half_even(double v) {
    double f = floor(v), d = v - f;
    return d > 0.5 || (d == 0.5 && fmod(f, 2.0) != 0.0) ? f + 1.0 : f;
}

// Python's d // 2 (floored, also for d < 0), as Hugging Face's center_crop uses it.
static int vit__floor_half(int d) {
    return d >= 0 ? d / 2 : -((1 - d) / 2);
}

// torchvision CenterCrop's first source row (column) when cropping `crop` out of
// `size`: round((size - crop) / 2), half to even; when the image is smaller it is
// first zero-padded by (crop - size) // 2 before (the rest after).
static int vit__crop_offset_tv(int size, int crop) {
    if (size < crop) return -((crop - size) / 2);
    return (int)vit__round_half_even((size - crop) / 2.0);
}

// The crop_pct timm divides by. config.json holds a decimal that Python reads as a
// double; vit_config keeps a float, and floor(x / crop_pct) with the float is not
// always Python's (crop_pct 0.85, x = 17k: 20k in Python, 20k - 1 with the float).
// The decimal of at most 6 places that rounds to this float is the one the file held.
static double vit__crop_pct(float f) {
    double d = f, r = floor(d * 1e6 + 0.5) / 1e6;
    return (float)r == f ? r : d;
}

// Where the eval transform puts a w x h image for the model's H x W input: the
// resized size rw x rh and the crop's first source row and column in it (top,
// left; negative = zero padding before the image). The rules, per vit_config:
//
//   timm (transforms_imagenet_eval in timm/data/transforms_factory.py, img_size
//   (H, W)): scale = floor(x / crop_pct) per side (th, tw); then
//     VIT_RESIZE_SHORTER_CROP (crop_mode 'center'): th == tw: torchvision
//       Resize(th), the shorter side to th and the longer to int(th * long / short);
//       th != tw: ResizeKeepRatio((th, tw)) (timm/data/transforms.py, longest 0):
//       ratio = min(h / th, w / tw), each side round(side / ratio), half to even;
//     VIT_RESIZE_SQUARE (crop_mode 'squash', and Hugging Face's plain resize with
//       crop_pct 1): Resize((th, tw));
//     then torchvision CenterCrop((H, W)) (vit__crop_offset_tv).
//   Hugging Face, PIL backend (transformers/image_processing_backends.py PilBackend
//   and image_transforms.py), resize_shorter = s > 0 with c0 = round(s * crop_pct)
//   the processor's own crop side; at another input size the resize is scaled by
//   max(H, W) / c0 (floored), which keeps the crop fraction and, with s >= c0,
//   covers the crop whatever the image's aspect ratio:
//     VIT_RESIZE_SHORTER_CROP_HF (CLIPImageProcessor, BitImageProcessor): size
//       {"shortest_edge": se = floor(s * max(H, W) / c0)}: get_resize_output_image_size,
//       the shorter side to se and the longer to int(se * long / short);
//     VIT_RESIZE_SQUARE with resize_shorter > 0 (DeiTImageProcessor): size
//       {"height": floor(s * H / c0), "width": floor(s * W / c0)};
//     then center_crop (H, W): offsets (resized - crop) // 2, zeros outside.
static vit_status vit__preprocess_geometry(const vit_config *c, int w, int h, int H, int W,
                                           int *rw, int *rh, int *top, int *left, char *err) {
    double rwd, rhd;
    int hf = c->resize == VIT_RESIZE_SHORTER_CROP_HF || (c->resize == VIT_RESIZE_SQUARE && c->resize_shorter > 0);
    if (hf) {
        double crop = floor(c->resize_shorter * (double)c->crop_pct + 0.5); // the processor's crop side
        if (c->resize_shorter < 1 || !(crop >= 1.0 && crop <= (double)INT_MAX))
            return vit__fail(err, VIT_ERROR_INVALID_ARGUMENT, "config: resize_shorter %d with crop_pct %g gives no crop", c->resize_shorter, (double)c->crop_pct);
        int64_t s = c->resize_shorter, c0 = (int64_t)crop, big = H > W ? H : W;
        if (c->resize == VIT_RESIZE_SQUARE) {
            int64_t sh = s * H / c0, sw = s * W / c0; // floored, as Python's //
            rhd = (double)sh;
            rwd = (double)sw;
        } else {
            int64_t se = s * big / c0;
            if (se < 1) se = 1;
            if (w <= h) { rwd = (double)se; rhd = floor((double)(se * h) / w); }
            else { rhd = (double)se; rwd = floor((double)(se * w) / h); }
        }
    } else {
        double pct = vit__crop_pct(c->crop_pct);
        if (!(pct > 0.0)) return vit__fail(err, VIT_ERROR_INVALID_ARGUMENT, "config: crop_pct %g is not positive", (double)c->crop_pct);
        double th = floor(H / pct), tw = floor(W / pct);
        if (th < 1) th = 1; // (timm would fail on an empty resize)
        if (tw < 1) tw = 1;
        if (c->resize == VIT_RESIZE_SQUARE) { rhd = th; rwd = tw; }
        else if (th == tw) {
            if (w <= h) { rwd = th; rhd = floor(th * h / w); }
            else { rhd = th; rwd = floor(th * w / h); }
        } else {
            double ratio = fmin((double)h / th, (double)w / tw);
            rhd = vit__round_half_even(h / ratio);
            rwd = vit__round_half_even(w / ratio);
        }
    }
    if (rwd < 1) rwd = 1;
    if (rhd < 1) rhd = 1;
    if (!(rwd * rhd <= (double)VIT_MAX_IMAGE_PIXELS)) // the whole resized image is made: a 32768 x 1 sliver would take gigabytes
        return vit__fail(err, VIT_ERROR_LIMIT, "image %dx%d would be resized to %.0fx%.0f, more than VIT_MAX_IMAGE_PIXELS (%lld)",
                         w, h, rwd, rhd, (long long)VIT_MAX_IMAGE_PIXELS);
    *rw = (int)rwd;
    *rh = (int)rhd;
    if (hf) { *top = vit__floor_half(*rh - H); *left = vit__floor_half(*rw - W); }
    else { *top = vit__crop_offset_tv(*rh, H); *left = vit__crop_offset_tv(*rw, W); }
    return VIT_OK;
}

// Sample c of the model's channels (ch: 1 = L, 3 = RGB) from a pixel of 1-4
// channels: alpha dropped, gray -> RGB, RGB -> L by PIL's ITU-R 601-2 luma.
static VIT__HD unsigned char vit__model_sample(const unsigned char *p, int channels, int ch, int c) {
    if (channels <= 2) return p[0];
    if (ch == 1) return (unsigned char)((p[0] * 19595 + p[1] * 38470 + p[2] * 7471 + 0x8000) >> 16);
    return p[c];
}

// The checks vit_preprocess_rgb8 and the frame calls make of an 8-bit image.
static vit_status vit__check_rgb8(vit_model *m, const char *fn, const void *pixels, int width, int height, int stride, int channels) {
    if (!pixels || width < 1 || height < 1 || channels < 1 || channels > 4 || (stride != 0 && stride < width * channels))
        return vit__fail(m->error, VIT_ERROR_INVALID_ARGUMENT, "%s: bad arguments (%dx%d, %d channels, stride %d)", fn, width, height, channels, stride);
    if (width > VIT_MAX_IMAGE_SIDE || height > VIT_MAX_IMAGE_SIDE || (double)width * height > (double)VIT_MAX_IMAGE_PIXELS)
        return vit__fail(m->error, VIT_ERROR_LIMIT, "image %dx%d exceeds VIT_MAX_IMAGE_SIDE (%d) or VIT_MAX_IMAGE_PIXELS (%lld)",
                         width, height, VIT_MAX_IMAGE_SIDE, (long long)VIT_MAX_IMAGE_PIXELS);
    const vit_config *c = &m->cfg;
    if (c->image_height < 1 || c->image_width < 1 || c->image_height > VIT_MAX_DIM || c->image_width > VIT_MAX_DIM)
        return vit__fail(m->error, VIT_ERROR_INVALID_ARGUMENT, "config: input size %dx%d (image_width x image_height)", c->image_width, c->image_height);
    return VIT_OK;
}

VITDEF vit_status vit_preprocess_rgb8(vit_model *m, const unsigned char *pixels, int width, int height, int stride, int channels, float *out) {
    if (!m) return VIT_ERROR_INVALID_ARGUMENT;
    vit_status st = vit__check_rgb8(m, "vit_preprocess_rgb8", out ? pixels : NULL, width, height, stride, channels);
    if (st == VIT_OK) st = vit__preprocess_known(m, "vit_preprocess_rgb8");
    if (st != VIT_OK) return st;
    const vit_config *c = &m->cfg;
    const vit_allocator *a = &m->alloc;
    int H = c->image_height, W = c->image_width, ch = c->in_chans == 1 ? 1 : 3;
    int rw = 1, rh = 1, top = 0, left = 0;
    st = vit__preprocess_geometry(c, width, height, H, W, &rw, &rh, &top, &left, m->error);
    if (st != VIT_OK) return st;
    if (stride == 0) stride = width * channels;
    // 1. to the model's channels
    unsigned char *src = (unsigned char *)vit__malloc(a, (size_t)width * height * ch);
    if (!src) return vit__fail(m->error, VIT_ERROR_OUT_OF_MEMORY, "out of memory for a %dx%d image", width, height);
    for (int y = 0; y < height; y++) {
        const unsigned char *p = pixels + (size_t)y * stride;
        unsigned char *d = src + (size_t)y * width * ch;
        for (int x = 0; x < width; x++, p += channels, d += ch)
            for (int k = 0; k < ch; k++) d[k] = vit__model_sample(p, channels, ch, k);
    }
    // 2. resize to rw x rh (vit__preprocess_geometry)
    unsigned char *resized = src;
    if (rw != width || rh != height) {
        resized = (unsigned char *)vit__malloc(a, (size_t)rw * rh * ch);
        st = resized ? vit__resize_u8(a, src, width, height, ch, resized, rw, rh, c->interpolation) : VIT_ERROR_OUT_OF_MEMORY;
        if (st != VIT_OK) vit__fail(m->error, st, "out of memory resizing a %dx%d image to %dx%d", width, height, rw, rh);
    }
    // 3. crop H x W from (top, left), zeros outside the resized image; /255, normalise
    if (st == VIT_OK) {
        for (int k = 0; k < c->in_chans; k++) {
            float mean = c->mean[k < 3 ? k : 2], std = c->std[k < 3 ? k : 2];
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++) {
                    int sy = y + top, sx = x + left;
                    float v = (sy >= 0 && sy < rh && sx >= 0 && sx < rw) ? resized[((size_t)sy * rw + sx) * ch + (ch == 1 ? 0 : k)] / 255.0f : 0.0f;
                    out[((size_t)k * H + y) * W + x] = (v - mean) / std;
                }
        }
    }
    if (resized != src) vit__free(a, resized);
    vit__free(a, src);
    return st;
}

#ifndef VIT_NO_STB_IMAGE
// stb_image up to 2.27 overruns its Huffman tables on a DHT segment whose code
// counts add up to more than 256. Walk the JPEG's segments (and the markers
// between scans) and refuse such a table before stb sees it. 0 = refuse.
static int vit__jpeg_tables_ok(const unsigned char *p, size_t size) {
    size_t i = 1;
    if (size < 4 || p[0] != 0xFF) return 1; // not a JPEG
    while (i < size && p[i] == 0xFF) i++;   // stb skips fill bytes before SOI too
    if (i >= size || p[i] != 0xD8) return 1;
    i++;
    while (i + 4 <= size) {
        if (p[i] != 0xFF) { i++; continue; } // entropy-coded data: look for the next marker
        unsigned char mk = p[i + 1];
        if (mk == 0xFF) { i++; continue; } // fill byte
        if (mk == 0x00 || (mk >= 0xD0 && mk <= 0xD7) || mk == 0x01) { i += 2; continue; } // stuffing, RSTn, TEM
        if (mk == 0xD9) return 1; // EOI
        size_t len = (size_t)p[i + 2] << 8 | p[i + 3];
        if (mk == 0xC4) { // as stb reads it: tables until the length runs out, zeros past the end of the data
            long left = (long)len - 2;
            size_t q = i + 4;
            while (left > 0 && q < size) {
                size_t n = 0;
                for (size_t k = q + 1; k <= q + 16 && k < size; k++) n += p[k];
                if (n > 256) return 0;
                q += 17 + n;
                left -= 17 + (long)n;
            }
        }
        if (len < 2) return 1; // stb reports the bad length itself
        i += 2 + len;
    }
    return 1;
}

// The size that a PNG, GIF or JPEG header claims (stb_image refuses those over
// its limits without saying so). 0 = no such header found.
static int vit__claimed_size(const unsigned char *p, size_t size, double *w, double *h) {
    if (size >= 24 && !memcmp(p, "\x89PNG\r\n\x1a\n", 8) && !memcmp(p + 12, "IHDR", 4)) {
        *w = (double)((uint32_t)p[16] << 24 | (uint32_t)p[17] << 16 | (uint32_t)p[18] << 8 | p[19]);
        *h = (double)((uint32_t)p[20] << 24 | (uint32_t)p[21] << 16 | (uint32_t)p[22] << 8 | p[23]);
        return 1;
    }
    if (size >= 10 && !memcmp(p, "GIF8", 4)) { *w = p[6] | p[7] << 8; *h = p[8] | p[9] << 8; return 1; }
    if (size < 4 || p[0] != 0xFF || p[1] != 0xD8) return 0;
    for (size_t i = 2; i + 9 <= size && p[i] == 0xFF; i += 2 + ((size_t)p[i + 2] << 8 | p[i + 3])) { // segments up to SOFn
        unsigned char mk = p[i + 1];
        if (mk >= 0xC0 && mk <= 0xCF && mk != 0xC4 && mk != 0xC8 && mk != 0xCC) {
            *h = p[i + 5] << 8 | p[i + 6];
            *w = p[i + 7] << 8 | p[i + 8];
            return 1;
        }
    }
    return 0;
}

// stb_image's reason for the last failure on this thread, never empty.
static const char *vit__stbi_reason(void) {
    const char *r = stbi_failure_reason();
    return r && r[0] ? r : "corrupt or truncated data";
}

// stb_image 2.27 adds an offset to a NULL pointer (undefined behaviour) on a
// zero-length IDAT chunk before any data. Such chunks carry nothing: copy the
// PNG without them into dst (when not NULL). Returns the size of that copy, or
// 0 when the data is not a PNG or has no such chunk.
static size_t vit__png_without_empty_idat(const unsigned char *p, size_t size, unsigned char *dst) {
    static const unsigned char sig[8] = {137, 80, 78, 71, 13, 10, 26, 10};
    if (size < 8 || memcmp(p, sig, 8) != 0) return 0;
    size_t i = 8, w = 8, dropped = 0;
    if (dst) memcpy(dst, p, 8);
    while (i + 12 <= size) {
        size_t len = (size_t)p[i] << 24 | (size_t)p[i + 1] << 16 | (size_t)p[i + 2] << 8 | p[i + 3];
        size_t chunk = len > size - i - 12 ? size - i : len + 12; // a chunk running off the end is kept whole
        if (len == 0 && memcmp(p + i + 4, "IDAT", 4) == 0) dropped++;
        else {
            if (dst) memcpy(dst + w, p + i, chunk);
            w += chunk;
        }
        i += chunk;
    }
    if (dst && i < size) memcpy(dst + w, p + i, size - i);
    return dropped ? w + (size - i) : 0;
}

#endif // VIT_NO_STB_IMAGE

// ---- vit.h's own decoders (PNM, BMP) and the fixes around stb_image (GIF, TGA,
// 16-bit gray PNG). Each gives the pixels of PIL's Image.open(f).convert('RGB')
// (gray images: 'L', which convert('RGB') replicates), read from Pillow 13's
// PpmImagePlugin, BmpImagePlugin, GifImagePlugin and TgaImagePlugin; what PIL
// refuses is refused. Decoded images are 1 (gray) or 3 (RGB) channels, packed.

static uint32_t vit__img_le16(const unsigned char *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t vit__img_le32(const unsigned char *p) { return vit__img_le16(p) | vit__img_le16(p + 2) << 16; }

#define VIT__DECODE_FAIL(m, ...) vit__fail((m)->error, VIT_ERROR_IMAGE_DECODE, __VA_ARGS__)

// w x h x ch bytes for a decoded image, sizes checked first (they come from a hostile header).
static vit_status vit__img_alloc(vit_model *m, long long w, long long h, int ch, unsigned char **px) {
    *px = NULL;
    if (w < 1 || h < 1) return VIT__DECODE_FAIL(m, "cannot decode image: size %lldx%lld", w, h);
    if (w > VIT_MAX_IMAGE_SIDE || h > VIT_MAX_IMAGE_SIDE || (double)w * (double)h > (double)VIT_MAX_IMAGE_PIXELS)
        return vit__fail(m->error, VIT_ERROR_LIMIT, "image %lldx%lld exceeds VIT_MAX_IMAGE_SIDE (%d) or VIT_MAX_IMAGE_PIXELS (%lld)",
                         w, h, VIT_MAX_IMAGE_SIDE, (long long)VIT_MAX_IMAGE_PIXELS);
    *px = (unsigned char *)vit__malloc(&m->alloc, (size_t)w * (size_t)h * (size_t)ch);
    return *px ? VIT_OK : vit__fail(m->error, VIT_ERROR_OUT_OF_MEMORY, "out of memory for a %lldx%lld image", w, h);
}

// ---- PNM (P1-P6), as PpmImagePlugin: all of it here, so that stb_image never
// parses a PNM header (its size arithmetic overflows a signed int on huge ones).
static int vit__pnm_space(unsigned char c) { return c == ' ' || (c >= 9 && c <= 13); }

// PIL's _read_token (and the plain decoder's tokens): whitespace separates, a
// '#' comment runs to CR or LF (also inside a token, which then continues), at
// most 10 characters. 0 unless a decimal number (Python's int(); its '_'
// separators and a '-' are refused here, PIL refuses negative values too).
static int vit__pnm_token(const unsigned char *p, size_t size, size_t *i, long long *v) {
    unsigned char tok[10];
    int n = 0;
    while (*i < size) {
        unsigned char c = p[(*i)++];
        if (vit__pnm_space(c)) {
            if (n) break;
            continue;
        }
        if (c == '#') {
            while (*i < size) {
                c = p[(*i)++];
                if (c == '\r' || c == '\n') break;
            }
            continue;
        }
        if (n == 10) return 0; // PIL: token too long
        tok[n++] = c;
    }
    int k = n > 1 && tok[0] == '+';
    if (n == 0) return 0;
    long long x = 0;
    for (; k < n; k++) {
        if (tok[k] < '0' || tok[k] > '9') return 0;
        x = x * 10 + (tok[k] - '0');
    }
    *v = x;
    return 1;
}

static vit_status vit__decode_pnm(vit_model *m, const unsigned char *p, size_t size, unsigned char **px, int *w, int *h, int *ch) {
    int kind = p[1] - '0';
    size_t i = 2;
    long long W = 0, H = 0, maxval = 1;
    if (size > 2) {
        if (!vit__pnm_space(p[2])) return VIT__DECODE_FAIL(m, "cannot decode image: not a PNM file (no whitespace after '%c%c')", p[0], p[1]);
        i = 3;
    }
    if (!vit__pnm_token(p, size, &i, &W) || !vit__pnm_token(p, size, &i, &H))
        return VIT__DECODE_FAIL(m, "cannot decode image: PNM header: missing or bad width/height");
    if (kind != 1 && kind != 4 && (!vit__pnm_token(p, size, &i, &maxval) || maxval < 1 || maxval > 65535))
        return VIT__DECODE_FAIL(m, "cannot decode image: PNM header: maxval must be 1..65535");
    int bands = kind == 3 || kind == 6 ? 3 : 1;
    vit_status st = vit__img_alloc(m, W, H, bands, px);
    if (st != VIT_OK) return st;
    unsigned char *o = *px;
    size_t n = (size_t)W * (size_t)H * (size_t)bands, k = 0;
    // PIL reads maxval > 255 gray as mode I scaled to 65535, which convert() clips at 255
    double out_max = (kind == 2 || kind == 5) && maxval > 255 ? 65535.0 : 255.0;
    if (kind == 4) { // raw bits, 1 = black, rows padded to bytes
        size_t rb = ((size_t)W + 7) / 8;
        if ((size - i) / rb < (size_t)H) st = VIT__DECODE_FAIL(m, "cannot decode image: PBM data truncated");
        else
            for (long long y = 0; y < H; y++)
                for (long long x = 0; x < W; x++)
                    o[k++] = (p[i + (size_t)y * rb + (size_t)x / 8] >> (7 - x % 8)) & 1 ? 0 : 255;
    } else if (kind == 1) { // one character per pixel, whitespace optional; PIL checks every character it reads
        while (i < size && st == VIT_OK) {
            unsigned char c = p[i++];
            if (vit__pnm_space(c)) continue;
            if (c == '#') {
                while (i < size && p[i] != '\r' && p[i] != '\n') i++;
                i++;
                continue;
            }
            if (c != '0' && c != '1') st = VIT__DECODE_FAIL(m, "cannot decode image: plain PBM: byte %u is not '0' or '1'", (unsigned)c);
            else if (k < n) o[k++] = c == '0' ? 255 : 0;
        }
        if (st == VIT_OK && k < n) st = VIT__DECODE_FAIL(m, "cannot decode image: plain PBM: %zu of %zu pixels", k, n);
    } else if (kind == 2 || kind == 3) { // decimal samples, round(v / maxval * out_max)
        for (; k < n && st == VIT_OK; k++) {
            long long v;
            if (!vit__pnm_token(p, size, &i, &v) || v > maxval)
                st = VIT__DECODE_FAIL(m, "cannot decode image: plain PNM: sample %zu is missing, not a number or above maxval %lld", k, maxval);
            else {
                double s = vit__round_half_even((double)v / (double)maxval * out_max);
                o[k] = (unsigned char)(s > 255.0 ? 255.0 : s);
            }
        }
    } else { // P5, P6: raw bytes (maxval 255, and 16-bit gray at 65535), else rescaled as PIL's PpmDecoder
        size_t bytes = maxval < 256 ? 1 : 2;
        if ((size - i) / bytes < n) st = VIT__DECODE_FAIL(m, "cannot decode image: PNM data truncated");
        else
            for (; k < n; k++) {
                double v = bytes == 1 ? p[i + k] : (double)(p[i + 2 * k] << 8 | p[i + 2 * k + 1]);
                if (maxval != 255 && !(maxval == 65535 && out_max > 255.0)) {
                    v = vit__round_half_even(v / (double)maxval * out_max);
                    if (v > out_max) v = out_max;
                }
                o[k] = (unsigned char)(v > 255.0 ? 255.0 : v);
            }
    }
    if (st != VIT_OK) {
        vit__free(&m->alloc, *px);
        *px = NULL;
        return st;
    }
    *w = (int)W; *h = (int)H; *ch = bands;
    return VIT_OK;
}

// ---- BMP, as BmpImagePlugin (header sizes 12, 40, 52, 56, 64, 108, 124; 1/4/8-bit
// palettes, RLE4/RLE8, 16/24/32-bit with PIL's bitfield layouts).

// PIL's BmpRleDecoder: fills idx (W*H indices, rows in file order). 0 when the
// data ends before the image is full (PIL: "not enough image data").
static int vit__bmp_rle(const unsigned char *p, size_t size, size_t pos, int rle4, unsigned char *idx, size_t W, size_t total) {
    size_t len = 0, x = 0;
    while (len < total) {
        if (pos + 2 > size) break;
        unsigned int num = p[pos], byte = p[pos + 1];
        pos += 2;
        if (num) {
            if (x + num > W) num = x < W ? (unsigned int)(W - x) : 0;
            for (unsigned int k = 0; k < num && len < total; k++) // (PIL writes past the end and then stops)
                idx[len++] = (unsigned char)(rle4 ? (k % 2 ? byte & 15 : byte >> 4) : byte);
            x += num;
        } else if (byte == 0) { // end of line
            while (len % W) idx[len++] = 0;
            x = 0;
        } else if (byte == 1) { // end of bitmap
            break;
        } else if (byte == 2) { // delta: zeros
            if (pos + 2 > size) break;
            size_t skip = p[pos] + (size_t)p[pos + 1] * W;
            pos += 2;
            if (skip > total - len) skip = total - len;
            memset(idx + len, 0, skip);
            len += skip;
            x = len % W;
        } else { // absolute run of `byte` indices, padded to an even file offset
            size_t count = total - len < byte ? total - len : byte;
            size_t nbytes = rle4 ? (count + 1) / 2 : count, got = size - pos < nbytes ? size - pos : nbytes;
            for (size_t k = 0; k < got; k++) {
                if (rle4) {
                    idx[len++] = p[pos + k] >> 4;
                    if (k * 2 + 1 < count) idx[len++] = p[pos + k] & 15;
                } else idx[len++] = p[pos + k];
            }
            pos += got;
            if (got < nbytes || len == total) break;
            x += byte;
            if (pos % 2) pos++;
        }
    }
    return len == total;
}

static vit_status vit__decode_bmp(vit_model *m, const unsigned char *p, size_t size, unsigned char **px, int *w, int *h, int *ch) {
    *px = NULL;
    if (size < 18) return VIT__DECODE_FAIL(m, "cannot decode image: BMP header truncated");
    uint64_t off = vit__img_le32(p + 10), hs = vit__img_le32(p + 14);
    if (hs != 12 && hs != 40 && hs != 52 && hs != 56 && hs != 64 && hs != 108 && hs != 124)
        return VIT__DECODE_FAIL(m, "cannot decode image: unsupported BMP header type (%u)", (unsigned)hs);
    if (size < 14 + hs) return VIT__DECODE_FAIL(m, "cannot decode image: BMP header truncated");
    const unsigned char *hd = p + 18;
    long long W, H;
    unsigned int bits, comp = 0, pad = 3, topdown = 0;
    uint64_t colors = 0, pos = 14 + hs;
    uint32_t mask[4] = {0, 0, 0, 0};
    if (hs == 12) { // OS/2 1.x: 16-bit sizes, 3-byte palette entries
        W = vit__img_le16(hd); H = vit__img_le16(hd + 2); bits = vit__img_le16(hd + 6);
    } else {
        topdown = hd[7] == 0xFF; // PIL's test for a negative height
        W = vit__img_le32(hd);
        H = topdown ? 4294967296LL - vit__img_le32(hd + 4) : (long long)vit__img_le32(hd + 4);
        bits = vit__img_le16(hd + 10); comp = vit__img_le32(hd + 12); colors = vit__img_le32(hd + 28); pad = 4;
        if (comp == 3) {
            if (hs - 4 >= 48)
                for (int k = 0; k < (hs - 4 >= 52 ? 4 : 3); k++) mask[k] = vit__img_le32(hd + 36 + 4 * k);
            else {
                if (size - pos < 12) return VIT__DECODE_FAIL(m, "cannot decode image: BMP bitfields truncated");
                for (int k = 0; k < 3; k++) mask[k] = vit__img_le32(p + pos + 4 * k);
                pos += 12;
            }
        }
    }
    if (bits != 1 && bits != 4 && bits != 8 && bits != 16 && bits != 24 && bits != 32)
        return VIT__DECODE_FAIL(m, "cannot decode image: unsupported BMP pixel depth (%u)", bits);
    if (!colors) colors = (uint64_t)1 << bits;
    if (off == 14 + hs && bits <= 8) off += pad * colors;
    int rle = comp == 1 || comp == 2;
    if (comp == 3) { // PIL's supported layouts only
        static const uint32_t l32[8][4] = {{0xFF0000, 0xFF00, 0xFF, 0}, {0xFF000000u, 0xFF0000, 0xFF00, 0}, {0xFF000000u, 0xFF00, 0xFF, 0},
                                           {0xFF000000u, 0xFF0000, 0xFF00, 0xFF}, {0xFF, 0xFF00, 0xFF0000, 0xFF000000u}, {0xFF0000, 0xFF00, 0xFF, 0xFF000000u},
                                           {0xFF000000u, 0xFF00, 0xFF, 0xFF0000}, {0, 0, 0, 0}};
        int ok = 0;
        if (bits == 32)
            for (int k = 0; k < 8; k++) ok |= !memcmp(mask, l32[k], sizeof(mask));
        if (bits == 24) ok = mask[0] == 0xFF0000 && mask[1] == 0xFF00 && mask[2] == 0xFF;
        if (bits == 16) ok = (mask[0] == 0xF800 && mask[1] == 0x7E0 && mask[2] == 0x1F) || (mask[0] == 0x7C00 && mask[1] == 0x3E0 && mask[2] == 0x1F);
        if (!ok) return VIT__DECODE_FAIL(m, "cannot decode image: unsupported BMP bitfields layout");
        if (bits == 32 && !mask[0] && !mask[1] && !mask[2]) { mask[0] = 0xFF0000; mask[1] = 0xFF00; mask[2] = 0xFF; } // PIL: BGRA
    } else if (comp != 0 && !rle) return VIT__DECODE_FAIL(m, "cannot decode image: unsupported BMP compression (%u)", comp);
    if (comp == 0 || (bits == 16 && comp != 3)) { // BGRX; 16-bit: BGR;15
        mask[0] = bits == 16 ? 0x7C00 : 0xFF0000; mask[1] = bits == 16 ? 0x3E0 : 0xFF00; mask[2] = bits == 16 ? 0x1F : 0xFF;
    }
    if (rle && bits > 8) return VIT__DECODE_FAIL(m, "cannot decode image: BMP RLE with %u-bit pixels", bits);
    // palette: "1" (2 entries black, white) and "L" (entry i = (i, i, i)) are PIL's gray shortcuts
    unsigned char pal[256][3];
    int mode = 0; // 0 palette, 1 PIL's "1", 8 PIL's "L"
    memset(pal, 0, sizeof(pal));
    if (bits <= 8) {
        if (colors > 65536) return VIT__DECODE_FAIL(m, "cannot decode image: unsupported BMP palette size (%llu)", (unsigned long long)colors);
        int gray = 1;
        for (uint64_t k = 0; k < colors; k++) {
            if (pos + k * pad + 3 > size) { gray = 0; break; } // PIL reads what is there: missing entries are black
            const unsigned char *e = p + pos + k * pad;
            unsigned int val = colors == 2 ? (k ? 255u : 0u) : (unsigned int)(k & 255);
            if (k < 256) { pal[k][0] = e[2]; pal[k][1] = e[1]; pal[k][2] = e[0]; }
            if (e[0] != val || e[1] != val || e[2] != val) gray = 0;
        }
        if (gray) mode = colors <= 2 ? 1 : 8;
        uint64_t got = size > pos ? size - pos : 0; // PIL's putpalette refuses more than 256 entries read
        if (!mode && (got < pad * colors ? got : pad * colors) / pad > 256)
            return VIT__DECODE_FAIL(m, "cannot decode image: BMP palette of %llu entries (PIL: invalid palette size)", (unsigned long long)colors);
    }
    int C = bits <= 8 && mode ? 1 : 3;
    vit_status st = vit__img_alloc(m, W, H, C, px);
    if (st != VIT_OK) return st;
    unsigned char *o = *px;
    size_t Wz = (size_t)W, Hz = (size_t)H;
    if (rle) {
        unsigned char *idx = (unsigned char *)vit__malloc(&m->alloc, Wz * Hz);
        if (!idx) st = vit__fail(m->error, VIT_ERROR_OUT_OF_MEMORY, "out of memory for a %lldx%lld image", W, H);
        else if (off >= size || !vit__bmp_rle(p, size, (size_t)off, comp == 2, idx, Wz, Wz * Hz))
            st = VIT__DECODE_FAIL(m, "cannot decode image: BMP RLE data ends before the image is full");
        else
            for (size_t y = 0; y < Hz; y++) {
                const unsigned char *s = idx + (topdown ? y : Hz - 1 - y) * Wz;
                for (size_t x = 0; x < Wz; x++) {
                    unsigned int v = s[x];
                    if (mode == 1) o[y * Wz + x] = v ? 255 : 0;
                    else if (mode == 8) o[y * Wz + x] = (unsigned char)v;
                    else memcpy(o + (y * Wz + x) * 3, pal[v], 3);
                }
            }
        vit__free(&m->alloc, idx);
    } else {
        unsigned int ub = mode == 1 ? 1 : mode == 8 ? 8 : bits; // PIL's gray shortcuts unpack 1 or 8 bits whatever the depth
        uint64_t stride = (((uint64_t)Wz * bits + 31) >> 3) & ~(uint64_t)3, rowbytes = ((uint64_t)Wz * ub + 7) / 8;
        if (rowbytes > stride) st = VIT__DECODE_FAIL(m, "cannot decode image: BMP gray palette on %u-bit pixels (PIL misreads it)", bits);
        else if (off > size || size - off < rowbytes || (size - off - rowbytes) / stride < Hz - 1)
            st = VIT__DECODE_FAIL(m, "cannot decode image: BMP pixel data truncated");
        else
            for (size_t y = 0; y < Hz; y++) {
                const unsigned char *s = p + off + (topdown ? y : Hz - 1 - y) * stride;
                unsigned char *d = o + y * Wz * C;
                for (size_t x = 0; x < Wz; x++) {
                    if (ub < 8) { // 1 or 4 bits, most significant first
                        unsigned int v = (s[x * ub / 8] >> (8 - ub - (x * ub) % 8)) & ((1u << ub) - 1);
                        if (mode == 1) d[x] = v ? 255 : 0;
                        else memcpy(d + x * 3, pal[v], 3);
                    } else if (ub == 8) {
                        if (mode) d[x] = s[x];
                        else memcpy(d + x * 3, pal[s[x]], 3);
                    } else {
                        uint32_t v = ub == 16 ? vit__img_le16(s + x * 2) : ub == 24 ? vit__img_le16(s + x * 3) | (uint32_t)s[x * 3 + 2] << 16 : vit__img_le32(s + x * 4);
                        for (int c = 0; c < 3; c++) {
                            uint32_t mk = mask[c], q = v & mk, full = mk;
                            while (!(full & 1)) { full >>= 1; q >>= 1; } // (masks are never 0 here)
                            d[x * 3 + c] = (unsigned char)(full == 255 ? q : q * 255 / full); // PIL's BGR;15/16: v * 255 / 31 (63)
                        }
                    }
                }
            }
    }
    if (st != VIT_OK) {
        vit__free(&m->alloc, *px);
        *px = NULL;
        return st;
    }
    *w = (int)W; *h = (int)H; *ch = C;
    return VIT_OK;
}

#ifndef VIT_NO_STB_IMAGE
// ---- GIF: stb_image draws the first frame's transparent index as black and
// leaves the canvas around the frame black (or the background colour). Pillow
// draws every index opaque, the transparent one in its palette colour, over a
// canvas filled with the transparent index (index 0 without one); disposal
// and the background colour play no part in the first frame. So: stb decodes
// a copy without the extensions before the frame, and vit.h fills around it.
typedef struct vit__gif_frame {
    int x, y, w, h;       // the first frame's rectangle
    unsigned char fill[3]; // PIL's colour around it
    size_t pal_at, pal_n; // the frame's palette (offset in the file, entries; 0: none)
    int identity;         // 1: that palette is PIL's gray identity (entry k = (k, k, k))
} vit__gif_frame;

// 1 when the LZW codes at q[at] (the code size byte, then sub-blocks) give
// `pixels` pixels as PIL's decoder counts them, 0 when their end code, their
// last sub-block or the data comes first (PIL: truncated; stb_image would
// fill the rest). Codes both decoders reject count as filling: stb_image says why.
static int vit__gif_lzw_fills(const unsigned char *q, size_t size, size_t at, size_t pixels) {
    uint16_t len[4096]; // each code's string length
    int bits = q[at], prev = -1;
    if (bits > 12 || pixels == 0) return 1;
    int clear = 1 << bits, next = clear + 2, codesize = bits + 1, have = 0;
    uint32_t buf = 0;
    size_t j = at + 1, block = 0, count = 0;
    for (int c = 0; c < clear; c++) len[c] = 1;
    for (;;) {
        while (have < codesize) {
            if (block == 0) {
                if (j >= size || q[j] == 0) return 0;
                block = q[j++];
                if (block > size - j) return 0;
            }
            buf |= (uint32_t)q[j++] << have;
            have += 8;
            block--;
        }
        int c = (int)(buf & ((1u << codesize) - 1u));
        buf >>= codesize;
        have -= codesize;
        if (c == clear) {
            next = clear + 2;
            codesize = bits + 1;
            prev = -1;
            continue;
        }
        if (c == clear + 1) return 0;
        size_t n = 1;
        if (prev >= 0) {
            if (c > next) return 1;
            n = c == next ? (size_t)len[prev] + 1 : len[c];
            if (next < 4096) {
                len[next] = (uint16_t)(len[prev] + 1 > 4096 ? 4096 : len[prev] + 1);
                if (next == (1 << codesize) - 1 && codesize < 12) codesize++;
                next++;
            }
        } else if (c > clear) {
            return 1;
        }
        prev = c;
        count += n;
        if (count >= pixels) return 1;
    }
}

// q: a copy of the GIF (*qsize bytes), made for stb_image to read as PIL does:
// the extensions before the first frame (PIL's reading of them) and the bytes
// PIL skips between blocks removed (*qsize shrinks), the screen enlarged to a first frame
// that runs past it (PIL enlarges the image, stb_image refuses it). Returns 1
// with *f filled, 0 when the structure is not the expected one (stb_image then
// reports the error), -3 for a local gray-identity palette over a global
// palette, -4 when the data ends before a whole first frame (header, palette,
// code size), -5 for a graphic control block too short for the fields PIL
// reads, -6 when its LZW codes end before
// its last pixel, -7 when the frame reaches past 65535 pixels, -8 when it has
// none, -9 for an LZW code size under 2 (the format's least: PIL and stb_image
// widen such codes at different points).
static int vit__gif_first_frame(unsigned char *q, size_t *qsize, vit__gif_frame *f) {
    size_t size = *qsize;
    size_t i = 13, o, gn = 0, n = 0; // i reads the blocks, o writes those kept (each byte moves once)
    const unsigned char *gpal = NULL, *pal;
    int trans = -1;
    if (size < 13 || memcmp(q, "GIF8", 4) != 0) return 0;
    if (q[10] & 0x80) {
        gn = (size_t)2 << (q[10] & 7);
        gpal = q + 13;
        i += 3 * gn;
    }
    o = i;
    for (;;) {
        if (i >= size || q[i] == 0x3B) return -4;
        if (q[i] == 0x21) { // an extension: read as PIL reads it, left out of stb_image's copy
            size_t j = i + 2, first;
            if (j >= size) return -4;
            unsigned char label = q[i + 1];
            first = q[j];
            if (j + first >= size) return -4;
            if (label == 0xF9 && first) { // graphic control: flags, delay, transparent index
                if (first < 3 || ((q[j + 1] & 1) && first < 4)) return -5;
                if (q[j + 1] & 1) trans = q[j + 4];
            }
            if (label != 0xFE) { // PIL takes the first sub-block, even an empty one, then reads to an empty one
                if (label == 0xFF && first >= 11 && !memcmp(q + j + 1, "NETSCAPE2.0", 11)) j += first + 1; // and the loop count's
                if (j >= size) return -4;
                j += (size_t)q[j] + 1;
            }
            while (j < size && q[j]) j += (size_t)q[j] + 1;
            if (j >= size) return -4;
            i = j + 1;
            continue;
        }
        if (q[i] != 0x2C) { // PIL reads past any other byte here
            i++;
            continue;
        }
        memmove(q + o, q + i, size - i); // the frame and all after it, over the bytes skipped
        size -= i - o;
        *qsize = size;
        i = o;
        if (i + 10 > size) return -4;
        f->x = (int)vit__img_le16(q + i + 1); f->y = (int)vit__img_le16(q + i + 3);
        f->w = (int)vit__img_le16(q + i + 5); f->h = (int)vit__img_le16(q + i + 7);
        if (f->w == 0 || f->h == 0) return -8;
        for (int k = 0; k < 2; k++) { // the screen's width, then height
            int end = k ? f->y + f->h : f->x + f->w;
            if (end > 65535) return -7;
            if (end > (int)vit__img_le16(q + 6 + 2 * k)) {
                q[6 + 2 * k] = (unsigned char)(end & 255);
                q[7 + 2 * k] = (unsigned char)(end >> 8);
            }
        }
        pal = gpal;
        n = gn;
        if (q[i + 9] & 0x80) {
            n = (size_t)2 << (q[i + 9] & 7);
            pal = q + i + 10;
        }
        size_t at = i + 10 + (q[i + 9] & 0x80 ? 3 * n : 0); // the LZW code size
        if (at >= size) return -4;
        if (q[at] < 2) return -9;
        // the image data: LZW code size, then sub-blocks; ending before the last
        // pixel means a truncated file, which PIL refuses and stb_image would fill out
        if (!vit__gif_lzw_fills(q, size, at, (size_t)f->w * (size_t)f->h)) return -6;
        break;
    }
    // PIL keeps a palette whose entry k is (k, k, k) as mode L: the index is the gray value
    int identity = 1;
    for (size_t k = 0; pal && k < n; k++) identity &= pal[3 * k] == k && pal[3 * k + 1] == k && pal[3 * k + 2] == k;
    // PIL reads a frame with a local identity palette over a global one as mode
    // L with the global palette attached: convert('RGB') colours it with the
    // global palette, convert('L') keeps the indices and resizes them as a
    // palette image would (nearest). No one pixel set reproduces that: refused.
    int gidentity = 1; // (PIL keeps no global identity palette either)
    for (size_t k = 0; gpal && k < gn; k++) gidentity &= gpal[3 * k] == k && gpal[3 * k + 1] == k && gpal[3 * k + 2] == k;
    if (pal && pal != gpal && identity && gpal && !gidentity) return -3;
    f->pal_at = pal ? (size_t)(pal - q) : 0;
    f->pal_n = pal ? n : 0;
    f->identity = identity;
    size_t t = trans >= 0 ? (size_t)trans : 0;
    for (int c = 0; c < 3; c++) f->fill[c] = (unsigned char)(!pal || identity ? t : t < n ? pal[3 * t + c] : 0);
    return 1;
}

// JPEGs stb_image decodes far from libjpeg-turbo (PIL), found by walking the
// segments up to the first SOS. 1: 4 components (CMYK) without Adobe's APP14
// marker: PIL reads plain CMYK, stb_image YCbCr with the fourth channel ignored
// (up to 255 levels off). 2: chroma subsampled 2:1 across to 1 or 2 samples a
// row (images up to 4 pixels wide): libjpeg-turbo then replicates the samples
// instead of interpolating them as stb_image does (up to 45 levels off).
static int vit__jpeg_unlike_pil(const unsigned char *p, size_t size) {
    size_t i = 2;
    int adobe = 0, comps = 0, narrow = 0;
    if (size < 4 || p[0] != 0xFF || p[1] != 0xD8) return 0;
    while (i + 4 <= size && p[i] == 0xFF) {
        unsigned char mk = p[i + 1];
        size_t len = (size_t)p[i + 2] << 8 | p[i + 3];
        if (mk == 0xFF) { i++; continue; } // fill byte
        if (mk == 0xDA || mk == 0xD9 || len < 2) break;
        if (mk == 0xEE && len >= 7 && i + 9 <= size && !memcmp(p + i + 4, "Adobe", 5)) adobe = 1;
        if (mk >= 0xC0 && mk <= 0xCF && mk != 0xC4 && mk != 0xC8 && mk != 0xCC && i + 10 <= size) {
            unsigned int w = (unsigned int)p[i + 7] << 8 | p[i + 8], hmax = 1;
            comps = p[i + 9];
            for (int k = 0; k < comps && i + 12 + 3 * (size_t)k <= size; k++) { // (id, HhVv, table) per component
                unsigned int hk = p[i + 11 + 3 * k] >> 4;
                if (hk > hmax) hmax = hk;
            }
            for (int k = 0; k < comps && i + 12 + 3 * (size_t)k <= size; k++) {
                unsigned int hk = p[i + 11 + 3 * k] >> 4;
                if (hk && hk * 2 == hmax && (w * hk + hmax - 1) / hmax <= 2) narrow = 1;
            }
        }
        i += 2 + len;
    }
    return comps == 4 && !adobe ? 1 : narrow ? 2 : 0;
}

// ---- TGA: stb_image decodes it; vit.h first checks it as PIL's TgaImagePlugin
// does (refusing what PIL refuses: truncated pixel data, a run across a row's
// end, odd depths) and hands
// stb_image a copy where PIL reads differently: an 8-bit colormap is given
// `first entry` zero entries before it and zeros up to 256 (PIL's palette:
// an index past the map is black, stb_image takes entry 0 for it and skips
// `first entry` bytes), and a colormap of a true-colour image is dropped (PIL
// skips it, stb_image refuses the file). *copy stays NULL when none is needed.
static vit_status vit__tga_prepare(vit_model *m, const unsigned char *p, size_t size, unsigned char **copy, size_t *copy_size) {
    *copy = NULL;
    if (size < 18) return VIT__DECODE_FAIL(m, "cannot decode image: unknown format (or a TGA cut inside its 18-byte header)");
    unsigned int idlen = p[0], cmtype = p[1], type = p[2], start = vit__img_le16(p + 3), len = vit__img_le16(p + 5), ebits = p[7];
    unsigned int w = vit__img_le16(p + 12), h = vit__img_le16(p + 14), depth = p[16];
    int indexed = (type & 7) == 1;
    if (cmtype > 1 || (type != 1 && type != 2 && type != 3 && type != 9 && type != 10 && type != 11)) return VIT_OK;
    if (w < 1 || h < 1 || (depth != 1 && depth != 8 && depth != 16 && depth != 24 && depth != 32) || (cmtype && ebits != 16 && ebits != 24 && ebits != 32))
        return VIT__DECODE_FAIL(m, "cannot decode image: TGA with %ux%u pixels of %u bits (colormap entries of %u bits): PIL refuses it", w, h, depth, ebits);
    if (indexed && depth != 8) return VIT__DECODE_FAIL(m, "cannot decode image: colormapped TGA with %u-bit indices", depth);
    if ((type & 7) == 3 ? depth > 16 : (type & 7) == 2 && depth < 16) // PIL has no mode for these
        return VIT__DECODE_FAIL(m, "cannot decode image: %s TGA of %u bits a pixel (PIL cannot load it)", (type & 7) == 3 ? "gray" : "true-colour", depth);
    if (indexed && cmtype && start + len > 256)
        return VIT__DECODE_FAIL(m, "cannot decode image: TGA colormap reaching entry %u (PIL: invalid palette size)", start + len - 1);
    size_t eb = ebits / 8, pal = cmtype ? (size_t)len * eb : 0, pos = 18 + idlen + pal, bpp = (depth + 7) / 8, n = (size_t)w * h, count = 0;
    if (pos > size) return VIT__DECODE_FAIL(m, "cannot decode image: TGA colormap truncated");
    if (!(type & 8)) count = (size - pos) / bpp >= n ? n : 0;
    else // run-length packets: a header byte, then one pixel (a run) or 1-128 pixels (literals)
        for (size_t q = pos; count < n && q < size;) {
            size_t k = (size_t)(p[q] & 127) + 1, need = p[q] & 128 ? bpp : k * bpp;
            if (need > size - q - 1) break;
            // PIL refuses a run across a row's end; literals go on into the next rows, past the last one ignored
            if ((p[q] & 128) && count % w + k > w) return VIT__DECODE_FAIL(m, "cannot decode image: TGA run across a row's end (PIL: buffer overrun)");
            q += 1 + need;
            count += k > n - count ? n - count : k;
        }
    if (count < n) return VIT__DECODE_FAIL(m, "cannot decode image: TGA pixel data truncated");
    int fix_map = indexed && cmtype && (start != 0 || start + len < 256), drop_map = !indexed && cmtype;
    if (!fix_map && !drop_map) return VIT_OK;
    size_t entries = drop_map ? 0 : (start + len < 256 ? 256 : (size_t)start + len);
    *copy_size = 18 + idlen + entries * eb + (size - pos);
    *copy = (unsigned char *)vit__malloc(&m->alloc, *copy_size);
    if (!*copy) return vit__fail(m->error, VIT_ERROR_OUT_OF_MEMORY, "out of memory copying a %zu-byte TGA", size);
    unsigned char *c = *copy;
    memcpy(c, p, 18 + idlen);
    c[1] = drop_map ? 0 : 1;
    c[3] = c[4] = 0;
    c[5] = (unsigned char)(entries & 255);
    c[6] = (unsigned char)(entries >> 8);
    if (drop_map) c[7] = 0;
    memset(c + 18 + idlen, 0, entries * eb);
    if (!drop_map) memcpy(c + 18 + idlen + (size_t)start * eb, p + 18 + idlen, pal);
    memcpy(c + 18 + idlen + entries * eb, p + pos, size - pos);
    return VIT_OK;
}

// A PNG IDAT chunk whose length runs past the end of the data: stb_image 2.27 grows
// its buffer to that length (up to 4 GB, from a 1 KB file) before it finds the
// bytes missing, then fails. 1 = such a chunk before IEND.
static int vit__png_idat_past_end(const unsigned char *p, size_t size) {
    size_t i = 8;
    while (i + 8 <= size) {
        size_t len = (size_t)p[i] << 24 | (size_t)p[i + 1] << 16 | (size_t)p[i + 2] << 8 | p[i + 3];
        if (!memcmp(p + i + 4, "IEND", 4)) return 0;
        if (len > size - i - 8) return !memcmp(p + i + 4, "IDAT", 4);
        i += 12 + len > size - i ? size - i : 12 + len;
    }
    return 0;
}

// ---- PNG image data as zlib checks it: stb_image inflates it without the
// Adler-32 at its end and takes some Huffman code sets zlib calls invalid
// (over-subscribed or incomplete); PIL (zlib) refuses both ("broken data
// stream"). This pass inflates the data as zlib does, into a 32 KB window,
// and names the first fault. A stream cut short is left to stb_image.
typedef struct vit__bits {
    const unsigned char *p;
    size_t n, at;
    uint32_t buf; // bits not yet taken, least significant first (deflate's order)
    int have;
} vit__bits;

static int vit__bits_fill(vit__bits *b, int k) { // 1 when k bits are there (k <= 24, or 32 with b->have byte aligned)
    while (b->have < k) {
        if (b->at >= b->n) return 0;
        b->buf |= (uint32_t)b->p[b->at++] << b->have;
        b->have += 8;
    }
    return 1;
}

static uint32_t vit__bits_take(vit__bits *b, int k) {
    uint32_t v = b->buf & ((1u << k) - 1u);
    b->buf >>= k;
    b->have -= k;
    return v;
}

// A canonical Huffman code: codes up to 9 bits from a table, longer ones by
// walking the code lengths (first code and symbol offset per length).
#define VIT__HUFF_FAST 9
typedef struct vit__huff {
    uint16_t count[16], symbol[288];
    uint16_t fast[1 << VIT__HUFF_FAST]; // symbol << 4 | length, 0 = longer code (or none)
} vit__huff;

// Returns 0 for a complete set, > 0 for an incomplete one (codes left), -1 over-subscribed.
static int vit__huff_build(vit__huff *h, const unsigned char *len, int n) {
    uint16_t next[16];
    int left = 1;
    memset(h->count, 0, sizeof(h->count));
    memset(h->fast, 0, sizeof(h->fast));
    for (int i = 0; i < n; i++) h->count[len[i]]++;
    h->count[0] = 0;
    for (int k = 1; k < 16; k++) {
        left = 2 * left - h->count[k];
        if (left < 0) return -1;
    }
    next[1] = 0;
    for (int k = 1; k < 15; k++) next[k + 1] = (uint16_t)(next[k] + h->count[k]);
    uint32_t code = 0;
    for (int k = 1; k < 16; k++) { // canonical codes, shortest first, in symbol order
        for (int i = 0; i < n; i++) {
            if (len[i] != k) continue;
            h->symbol[next[k]++] = (uint16_t)i;
            if (k <= VIT__HUFF_FAST) {
                uint32_t rev = 0; // the stream holds codes most significant bit first
                for (int j = 0; j < k; j++) rev |= ((code >> j) & 1u) << (k - 1 - j);
                for (uint32_t j = rev; j < (1u << VIT__HUFF_FAST); j += 1u << k) h->fast[j] = (uint16_t)(i << 4 | k);
            }
            code++;
        }
        code <<= 1;
    }
    return left;
}

// The next symbol; -1 for a code not in the set, -2 when the data ends first.
static int vit__huff_decode(vit__bits *b, const vit__huff *h) {
    if (vit__bits_fill(b, VIT__HUFF_FAST)) {
        uint16_t e = h->fast[b->buf & ((1u << VIT__HUFF_FAST) - 1u)];
        if (e) {
            vit__bits_take(b, e & 15);
            return e >> 4;
        }
    }
    int code = 0, first = 0, index = 0;
    for (int k = 1; k < 16; k++) {
        if (!vit__bits_fill(b, 1)) return -2;
        code |= (int)vit__bits_take(b, 1);
        int c = h->count[k];
        if (code - first < c) return h->symbol[index + code - first];
        index += c;
        first = (first + c) << 1;
        code <<= 1;
    }
    return -1;
}

// Inflates the zlib stream z[0..n) (no output kept beyond a 32 KB window) and
// returns NULL when zlib would take it, else zlib's complaint. PIL stops
// giving zlib room once the image's `expected` bytes are out (0: no limit):
// from there on only what zlib does without output space is checked (block
// ends, block headers, distances, the Adler-32), as PIL's decoder meets it.
static const char *vit__zlib_fault(const unsigned char *z, size_t n, unsigned char *win, size_t expected) {
    static const uint16_t len_base[29] = {3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
    static const uint16_t dist_base[30] = {1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
    static const unsigned char order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
    vit__huff lit, dist;
    unsigned char lens[320];
    vit__bits b = {z, n, 2, 0, 0};
    uint32_t s1 = 1, s2 = 0; // Adler-32 of the output so far
    size_t out = 0;
    if (n < 2) return NULL;
    if ((z[0] & 15) != 8) return "unknown compression method";
    if ((z[0] >> 4) > 7) return "invalid window size";
    if (((unsigned)z[0] << 8 | z[1]) % 31) return "incorrect header check";
    if (z[1] & 32) return "preset dictionary";
#define VIT__NEED(k) do { if (!vit__bits_fill(&b, (k))) return NULL; } while (0)
#define VIT__EMIT(c) do { unsigned char c_ = (c); win[out & 32767] = c_; out++; s1 += c_; s2 += s1; \
                          if ((out & 4095) == 0) { s1 %= 65521u; s2 %= 65521u; } } while (0)
    for (int last = 0; !last;) {
        VIT__NEED(3);
        last = (int)vit__bits_take(&b, 1);
        int type = (int)vit__bits_take(&b, 2);
        if (type == 3) return "invalid block type";
        if (type == 0) { // stored: byte aligned LEN, NLEN, then LEN bytes
            vit__bits_take(&b, b.have & 7);
            VIT__NEED(32);
            uint32_t len = vit__bits_take(&b, 16), nlen = vit__bits_take(&b, 16);
            if (len != (~nlen & 0xFFFFu)) return "invalid stored block lengths";
            for (uint32_t k = 0; k < len; k++) {
                if (out == expected) return NULL; // (zlib leaves for output space)
                VIT__NEED(8);
                VIT__EMIT((unsigned char)vit__bits_take(&b, 8));
            }
            continue;
        }
        int nlit = 288, ndist = 32;
        if (type == 1) { // the fixed codes (distance codes 30 and 31 exist but are invalid)
            memset(lens, 8, 144);
            memset(lens + 144, 9, 112);
            memset(lens + 256, 7, 24);
            memset(lens + 280, 8, 8);
            memset(lens + 288, 5, 32);
        } else { // dynamic: code lengths coded with a code of their own
            VIT__NEED(14);
            nlit = (int)vit__bits_take(&b, 5) + 257;
            ndist = (int)vit__bits_take(&b, 5) + 1;
            int nclen = (int)vit__bits_take(&b, 4) + 4;
            if (nlit > 286 || ndist > 30) return "too many length or distance symbols";
            unsigned char cl[19] = {0};
            for (int k = 0; k < nclen; k++) {
                VIT__NEED(3);
                cl[order[k]] = (unsigned char)vit__bits_take(&b, 3);
            }
            if (vit__huff_build(&lit, cl, 19) != 0) return "invalid code lengths set";
            for (int k = 0; k < nlit + ndist;) {
                int sym = vit__huff_decode(&b, &lit);
                if (sym == -2) return NULL;
                if (sym < 0) return "invalid code lengths set";
                if (sym < 16) { lens[k++] = (unsigned char)sym; continue; }
                int rep, v = 0;
                if (sym == 16) {
                    if (k == 0) return "invalid bit length repeat";
                    v = lens[k - 1];
                    VIT__NEED(2);
                    rep = 3 + (int)vit__bits_take(&b, 2);
                } else if (sym == 17) {
                    VIT__NEED(3);
                    rep = 3 + (int)vit__bits_take(&b, 3);
                } else {
                    VIT__NEED(7);
                    rep = 11 + (int)vit__bits_take(&b, 7);
                }
                if (k + rep > nlit + ndist) return "invalid bit length repeat";
                while (rep--) lens[k++] = (unsigned char)v;
            }
            if (lens[256] == 0) return "invalid code -- missing end-of-block";
            memmove(lens + 288, lens + nlit, (size_t)ndist);
        }
        // zlib takes an incomplete set only when it is a single one-bit code (or, for distances, no code at all)
        int left = vit__huff_build(&lit, lens, nlit), maxlen = 15;
        while (maxlen > 0 && !lit.count[maxlen]) maxlen--;
        if (left < 0 || (left > 0 && maxlen != 1)) return "invalid literal/lengths set";
        left = vit__huff_build(&dist, lens + 288, ndist);
        maxlen = 15;
        while (maxlen > 0 && !dist.count[maxlen]) maxlen--;
        if (left < 0 || (left > 0 && maxlen > 1)) return "invalid distances set";
        for (;;) {
            int sym = vit__huff_decode(&b, &lit);
            if (sym == -2) return NULL;
            if (sym < 0) return "invalid literal/length code";
            if (sym < 256) {
                if (out == expected) return NULL;
                VIT__EMIT((unsigned char)sym);
                continue;
            }
            if (sym == 256) break;
            if (sym > 285) return "invalid literal/length code";
            int e = sym < 265 || sym == 285 ? 0 : (sym - 261) / 4;
            VIT__NEED(e);
            size_t len = len_base[sym - 257] + vit__bits_take(&b, e);
            int ds = vit__huff_decode(&b, &dist);
            if (ds == -2) return NULL;
            if (ds < 0 || ds > 29) return "invalid distance code";
            e = ds < 4 ? 0 : ds / 2 - 1;
            VIT__NEED(e);
            size_t d = dist_base[ds] + vit__bits_take(&b, e);
            if (d > out) return "invalid distance too far back";
            if (expected && len > expected - out) return NULL;
            while (len--) VIT__EMIT(win[(out - d) & 32767]);
        }
    }
    vit__bits_take(&b, b.have & 7);
    VIT__NEED(32);
    uint32_t want = 0;
    for (int k = 0; k < 4; k++) want = want << 8 | vit__bits_take(&b, 8);
#undef VIT__NEED
#undef VIT__EMIT
    return want == ((s2 % 65521u) << 16 | (s1 % 65521u)) ? NULL : "incorrect data check";
}

static uint32_t vit__img_be32(const unsigned char *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }

// Inflates a PNG's IDAT data (every IDAT chunk before IEND, as stb_image
// gathers it) with vit__zlib_fault: VIT_OK, or the refusal naming zlib's fault.
static vit_status vit__png_zlib_check(vit_model *m, const unsigned char *p, size_t size) {
    size_t i = 8, total = 0, expected = 0;
    if (size >= 33 && !memcmp(p + 12, "IHDR", 4)) { // the filtered rows' bytes (Adam7: each pass's)
        // (x0, y0, dx, dy) of the Adam7 passes, then of a plain image
        static const int pass[8][4] = {{0, 0, 8, 8}, {4, 0, 8, 8}, {0, 4, 4, 8}, {2, 0, 4, 4}, {0, 2, 2, 4}, {1, 0, 2, 2}, {0, 1, 1, 2}, {0, 0, 1, 1}};
        uint64_t w = vit__img_be32(p + 16), h = vit__img_be32(p + 20), depth = p[24], ctype = p[25];
        uint64_t ch = ctype == 2 ? 3 : ctype == 4 ? 2 : ctype == 6 ? 4 : 1, sum = 0;
        for (int k = p[28] ? 0 : 7; k < (p[28] ? 7 : 8); k++) {
            const int *a = pass[k];
            uint64_t pw = w > (uint64_t)a[0] ? (w - (uint64_t)a[0] + (uint64_t)a[2] - 1) / (uint64_t)a[2] : 0;
            uint64_t ph = h > (uint64_t)a[1] ? (h - (uint64_t)a[1] + (uint64_t)a[3] - 1) / (uint64_t)a[3] : 0;
            if (pw && ph) sum += ph * ((pw * ch * depth + 7) / 8 + 1);
        }
        expected = sum <= SIZE_MAX ? (size_t)sum : 0; // (the header's sizes are within the image limits here)
    }
    for (int pass = 0; pass < 2; pass++) {
        unsigned char *z = NULL;
        if (pass) {
            z = (unsigned char *)vit__malloc(&m->alloc, total + 32768);
            if (!z) return vit__fail(m->error, VIT_ERROR_OUT_OF_MEMORY, "out of memory checking a %zu-byte PNG", size);
            total = 0;
        }
        for (i = 8; i + 12 <= size;) {
            size_t len = (size_t)p[i] << 24 | (size_t)p[i + 1] << 16 | (size_t)p[i + 2] << 8 | p[i + 3];
            if (!memcmp(p + i + 4, "IEND", 4) || len > size - i - 12) break;
            if (!memcmp(p + i + 4, "IDAT", 4)) {
                if (z) memcpy(z + 32768 + total, p + i + 8, len);
                total += len;
            }
            i += 12 + len;
        }
        if (z) {
            const char *why = vit__zlib_fault(z + 32768, total, z, expected);
            vit__free(&m->alloc, z);
            if (why) return VIT__DECODE_FAIL(m, "cannot decode image: corrupt PNG (its zlib data: %s; PIL refuses it too)", why);
        }
    }
    return VIT_OK;
}

// A chunk before the first IDAT whose CRC-32 does not match: PIL refuses such a
// PNG ("cannot identify image file"; it checks no CRC from the image data on),
// stb_image checks none. Returns the chunk's offset, 0 when all are sound.
static size_t vit__png_bad_crc(const unsigned char *p, size_t size) {
    uint32_t table[256];
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = n;
        for (int k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        table[n] = c;
    }
    size_t i = 8;
    while (i + 12 <= size) {
        size_t len = (size_t)p[i] << 24 | (size_t)p[i + 1] << 16 | (size_t)p[i + 2] << 8 | p[i + 3];
        if (!memcmp(p + i + 4, "IDAT", 4) || len > size - i - 12) return 0; // (a chunk cut short: stb_image's error)
        uint32_t crc = 0xFFFFFFFFu;
        for (size_t k = i + 4; k < i + 8 + len; k++) crc = table[(crc ^ p[k]) & 0xFF] ^ (crc >> 8);
        const unsigned char *q = p + i + 8 + len;
        if ((crc ^ 0xFFFFFFFFu) != ((uint32_t)q[0] << 24 | (uint32_t)q[1] << 16 | (uint32_t)q[2] << 8 | q[3])) return i;
        i += 12 + len;
    }
    return 0;
}

// The magic numbers stb_image knows, for telling which decoder it used.
static int vit__is_png(const unsigned char *p, size_t size) { return size >= 8 && !memcmp(p, "\x89PNG\r\n\x1a\n", 8); }
static int vit__is_gif(const unsigned char *p, size_t size) { return size >= 6 && !memcmp(p, "GIF8", 4); }
static int vit__is_jpeg(const unsigned char *p, size_t size) { return size >= 2 && p[0] == 0xFF && (p[1] == 0xD8 || p[1] == 0xFF); }

// Decodes with stb_image (PNG, JPEG, GIF, TGA) into *px (stbi_image_free), with
// PIL's GIF first frame, TGA right-to-left origin and 16-bit gray (PIL's I;16:
// values clipped at 255, not stb's v >> 8).
static vit_status vit__decode_stb(vit_model *m, const unsigned char *data, size_t size, unsigned char **px, int *w, int *h, int *ch) {
    int n;
    *px = NULL;
    if (!vit__jpeg_tables_ok(data, size))
        return VIT__DECODE_FAIL(m, "cannot decode image: corrupt JPEG (Huffman table with more than 256 codes)");
    if (vit__is_png(data, size) && vit__png_idat_past_end(data, size))
        return VIT__DECODE_FAIL(m, "cannot decode image: corrupt PNG (an IDAT chunk runs past the end of the data)");
    int unlike = vit__jpeg_unlike_pil(data, size);
    if (unlike == 1)
        return VIT__DECODE_FAIL(m, "cannot decode image: CMYK JPEG without an Adobe marker (stb_image reads it as YCbCr; use a decoder hook)");
    if (unlike == 2)
        return VIT__DECODE_FAIL(m, "cannot decode image: JPEG under 5 pixels wide with subsampled chroma (libjpeg-turbo replicates it, stb_image interpolates; use a decoder hook)");
    // check the dimensions before decoding: decompression bombs are refused unallocated
    vit__stbi_oom = 0;
    int info = stbi_info_from_memory(data, (int)size, w, h, &n);
    if (!info || *w < 1 || *h < 1) {
        double cw, chh; // stb refuses an oversized PNG/GIF/JPEG header as "unknown image type": say why
        if (vit__claimed_size(data, size, &cw, &chh) &&
            (cw > VIT_MAX_IMAGE_SIDE || chh > VIT_MAX_IMAGE_SIDE || cw * chh > (double)VIT_MAX_IMAGE_PIXELS))
            return vit__fail(m->error, VIT_ERROR_LIMIT, "image %.0fx%.0f exceeds VIT_MAX_IMAGE_SIDE (%d) or VIT_MAX_IMAGE_PIXELS (%lld)",
                             cw, chh, VIT_MAX_IMAGE_SIDE, (long long)VIT_MAX_IMAGE_PIXELS);
        if (vit__stbi_oom) return vit__fail(m->error, VIT_ERROR_OUT_OF_MEMORY, "out of memory reading the image header");
        return VIT__DECODE_FAIL(m, "cannot decode image: %s", info ? "no pixels" : vit__stbi_reason());
    }
    if (*w > VIT_MAX_IMAGE_SIDE || *h > VIT_MAX_IMAGE_SIDE || (double)*w * *h > (double)VIT_MAX_IMAGE_PIXELS)
        return vit__fail(m->error, VIT_ERROR_LIMIT, "image %dx%d exceeds VIT_MAX_IMAGE_SIDE (%d) or VIT_MAX_IMAGE_PIXELS (%lld)",
                         *w, *h, VIT_MAX_IMAGE_SIDE, (long long)VIT_MAX_IMAGE_PIXELS);
    size_t bad = vit__is_png(data, size) ? vit__png_bad_crc(data, size) : 0;
    if (bad) {
        char t[5];
        for (int k = 0; k < 4; k++) { unsigned char b = data[bad + 4 + k]; t[k] = (b >= 65 && b <= 90) || (b >= 97 && b <= 122) ? (char)b : (char)63; }
        t[4] = 0;
        return VIT__DECODE_FAIL(m, "cannot decode image: corrupt PNG (bad checksum of the %s chunk before the image data; PIL refuses it too)", t);
    }
    if (vit__is_png(data, size)) {
        vit_status st = vit__png_zlib_check(m, data, size);
        if (st != VIT_OK) return st;
    }
    int want = n <= 2 ? 1 : 3; // gray stays gray (exact for 1-channel models), alpha dropped
    vit__stbi_oom = 0;
    if (vit__is_png(data, size) && size >= 26 && !memcmp(data + 12, "IHDR", 4) && data[24] == 16 && data[25] == 0) {
        stbi_us *px16 = stbi_load_16_from_memory(data, (int)size, w, h, &n, 1);
        if (px16) {
            size_t np = (size_t)*w * (size_t)*h;
            unsigned char *px8 = (unsigned char *)px16; // in place: byte k is written after sample k is read
            for (size_t k = 0; k < np; k++) px8[k] = (unsigned char)(px16[k] > 255 ? 255 : px16[k]);
            *px = px8;
        }
        want = 1;
    } else if (vit__is_gif(data, size)) {
        vit__gif_frame f;
        memset(&f, 0, sizeof(f));
        unsigned char *copy = (unsigned char *)vit__malloc(&m->alloc, size);
        if (!copy) return vit__fail(m->error, VIT_ERROR_OUT_OF_MEMORY, "out of memory copying a %zu-byte GIF", size);
        memcpy(copy, data, size);
        size_t gsize = size;
        int r = vit__gif_first_frame(copy, &gsize, &f);
        if (r < 0) {
            vit__free(&m->alloc, copy);
            if (r == -4) return VIT__DECODE_FAIL(m, "cannot decode image: truncated GIF (the data ends before a whole first frame; PIL refuses it too)");
            if (r == -5) return VIT__DECODE_FAIL(m, "cannot decode image: corrupt GIF (a graphic control block too short for its fields; PIL refuses it too)");
            if (r == -9) return VIT__DECODE_FAIL(m, "cannot decode image: corrupt GIF (LZW code size under 2: PIL and stb_image read its codes differently)");
            if (r == -8) return VIT__DECODE_FAIL(m, "cannot decode image: corrupt GIF (its first frame has no pixels; PIL refuses it too)");
            if (r == -6) return VIT__DECODE_FAIL(m, "cannot decode image: truncated GIF (its first frame's LZW codes end before its last pixel; PIL refuses it too)");
            if (r == -3)
                return VIT__DECODE_FAIL(m, "cannot decode image: GIF with a gray-identity local palette over a global one (PIL colours it with the global palette for RGB but not for L; use a decoder hook)");
            if (r == -7) return vit__fail(m->error, VIT_ERROR_LIMIT, "GIF's first frame reaches past 65535 pixels");
            return VIT__DECODE_FAIL(m, "cannot decode image: corrupt GIF");
        }
        uint32_t sw = r == 1 ? vit__img_le16(copy + 6) : 0, sh = r == 1 ? vit__img_le16(copy + 8) : 0; // (a first frame past the screen enlarged it)
        if (r == 1 && (sw > VIT_MAX_IMAGE_SIDE || sh > VIT_MAX_IMAGE_SIDE || (double)sw * sh > (double)VIT_MAX_IMAGE_PIXELS)) {
            vit__free(&m->alloc, copy);
            return vit__fail(m->error, VIT_ERROR_LIMIT, "GIF %ux%u (its first frame's extent) exceeds VIT_MAX_IMAGE_SIDE (%d) or VIT_MAX_IMAGE_PIXELS (%lld)",
                             (unsigned)sw, (unsigned)sh, VIT_MAX_IMAGE_SIDE, (long long)VIT_MAX_IMAGE_PIXELS);
        }
        want = 3;
        if (r == 1 && f.identity && f.pal_at && f.pal_n < 256) {
            // PIL reads an identity palette as mode L: an index past the palette is
            // still gray k, where stb_image gives black. Widen it to 256 entries.
            unsigned char *wide = (unsigned char *)vit__malloc(&m->alloc, gsize + 3 * (256 - f.pal_n));
            if (!wide) { vit__free(&m->alloc, copy); return vit__fail(m->error, VIT_ERROR_OUT_OF_MEMORY, "out of memory copying a %zu-byte GIF", size); }
            memcpy(wide, copy, f.pal_at);
            for (int k = 0; k < 256; k++) wide[f.pal_at + 3 * k] = wide[f.pal_at + 3 * k + 1] = wide[f.pal_at + 3 * k + 2] = (unsigned char)k;
            memcpy(wide + f.pal_at + 768, copy + f.pal_at + 3 * f.pal_n, gsize - f.pal_at - 3 * f.pal_n);
            wide[f.pal_at == 13 ? 10 : f.pal_at - 1] |= 7; // the palette's size field: global in the screen descriptor, else the image's
            vit__free(&m->alloc, copy);
            copy = wide;
            gsize += 3 * (256 - f.pal_n);
        }
        *px = gsize <= INT_MAX ? stbi_load_from_memory(copy, (int)gsize, w, h, &n, want) : NULL;
        vit__free(&m->alloc, copy);
        if (*px && r == 1)
            for (int y = 0; y < *h; y++)
                for (int x = 0; x < *w; x++)
                    if (y < f.y || y >= f.y + f.h || x < f.x || x >= f.x + f.w) memcpy(*px + ((size_t)y * *w + x) * 3, f.fill, 3);
    } else {
        unsigned char *copy = NULL;
        size_t copy_size = 0;
        int tga = !vit__is_png(data, size) && !vit__is_jpeg(data, size); // stb_image reads TGA last: the rest has a magic number
        if (tga) {
            vit_status st = vit__tga_prepare(m, data, size, &copy, &copy_size);
            if (st != VIT_OK) return st;
        }
        *px = stbi_load_from_memory(copy ? copy : data, (int)(copy ? copy_size : size), w, h, &n, want);
        vit__free(&m->alloc, copy);
        // PIL honours the TGA's right-to-left bit (0x10 of the descriptor), stb_image ignores it
        if (*px && tga && size >= 18 && (data[17] & 0x10))
            for (int y = 0; y < *h; y++) {
                unsigned char *r = *px + (size_t)y * *w * want;
                for (int a = 0, b = *w - 1; a < b; a++, b--)
                    for (int c = 0; c < want; c++) {
                        unsigned char t = r[a * want + c];
                        r[a * want + c] = r[b * want + c];
                        r[b * want + c] = t;
                    }
            }
    }
    if (!*px && vit__stbi_oom) return vit__fail(m->error, VIT_ERROR_OUT_OF_MEMORY, "out of memory decoding a %dx%d image", *w, *h);
    if (!*px) return VIT__DECODE_FAIL(m, "cannot decode image: %s", vit__stbi_reason());
    *ch = want;
    return VIT_OK;
}

#endif // VIT_NO_STB_IMAGE

// Decodes any image vit.h reads into 8-bit gray or RGB (*ch 1 or 3), packed;
// *from_stb says whether to free with stbi_image_free or vit__free.
static vit_status vit__decode_image(vit_model *m, const unsigned char *p, size_t size, unsigned char **px, int *w, int *h, int *ch, int *from_stb) {
    *from_stb = 0;
    if (size >= 2 && p[0] == 'P' && p[1] >= '1' && p[1] <= '6') return vit__decode_pnm(m, p, size, px, w, h, ch);
    if (size >= 2 && p[0] == 'B' && p[1] == 'M') return vit__decode_bmp(m, p, size, px, w, h, ch);
#ifdef VIT_NO_STB_IMAGE
    return VIT__DECODE_FAIL(m, "cannot decode image: built with VIT_NO_STB_IMAGE (BMP and PNM only; other formats need a decoder hook)");
#else
    // formats a user's own stb_image may have on: refused before stb parses their headers
    if ((size >= 4 && !memcmp(p, "8BPS", 4)) || (size >= 2 && !memcmp(p, "#?", 2)) || (size >= 4 && !memcmp(p, "\x53\x80\xF6\x34", 4)))
        return VIT__DECODE_FAIL(m, "cannot decode image: PSD, HDR and PIC need a decoder hook (vit_preprocess_memory_with)");
    *from_stb = 1;
    return vit__decode_stb(m, p, size, px, w, h, ch);
#endif
}

// The user's decoder first (vit_image_decoder): 1 = it decoded (its pixels
// copied into *img, packed, or its failure in *st), 0 = not its format.
static int vit__decode_hook(vit_model *m, const void *data, size_t size, const vit_image_decoder *d, vit_image *out, vit_status *st) {
    char msg[VIT_IMAGE_MESSAGE_LEN + 1];
    vit_image img;
    memset(&img, 0, sizeof(img));
    memset(msg, 0, sizeof(msg));
    int r = d->decode(data, size, &img, msg, d->user_data);
    if (r == 0) return 0;
    msg[VIT_IMAGE_MESSAGE_LEN] = 0;
    if (r != 1) {
        *st = VIT__DECODE_FAIL(m, "cannot decode image: decoder hook: %s", msg[0] ? msg : "decoder hook failed");
        return 1;
    }
    *st = VIT_OK;
    if (!img.pixels || img.width < 1 || img.height < 1 || img.channels < 1 || img.channels > 4 ||
        (img.stride != 0 && img.stride < img.width * img.channels))
        *st = VIT__DECODE_FAIL(m, "cannot decode image: decoder hook returned a bad image (%dx%d, %d channels, stride %d)",
                               img.width, img.height, img.channels, img.stride);
    else if (img.width > VIT_MAX_IMAGE_SIDE || img.height > VIT_MAX_IMAGE_SIDE || (double)img.width * img.height > (double)VIT_MAX_IMAGE_PIXELS)
        *st = vit__fail(m->error, VIT_ERROR_LIMIT, "image %dx%d exceeds VIT_MAX_IMAGE_SIDE (%d) or VIT_MAX_IMAGE_PIXELS (%lld)",
                        img.width, img.height, VIT_MAX_IMAGE_SIDE, (long long)VIT_MAX_IMAGE_PIXELS);
    if (*st == VIT_OK) {
        size_t row = (size_t)img.width * img.channels, stride = img.stride ? (size_t)img.stride : row;
        unsigned char *px = (unsigned char *)vit__malloc(&m->alloc, row * img.height);
        if (!px) *st = vit__fail(m->error, VIT_ERROR_OUT_OF_MEMORY, "out of memory for a %dx%d image", img.width, img.height);
        else {
            for (int y = 0; y < img.height; y++) memcpy(px + row * y, img.pixels + stride * y, row);
            out->pixels = px;
            out->owner = px;
            out->width = img.width;
            out->height = img.height;
            out->channels = img.channels;
            out->stride = (int)row;
        }
    }
    if (d->free) d->free(&img, d->user_data);
    return 1;
}

// Any image vit.h reads (the hook first) into *img, packed, in memory of m's allocator.
static vit_status vit__decode_encoded(vit_model *m, const void *data, size_t size, const vit_image_decoder *d, vit_image *img) {
    unsigned char *px = NULL;
    int w = 0, h = 0, ch = 0, from_stb = 0;
    vit_status st;
    if (d && d->decode && vit__decode_hook(m, data, size, d, img, &st)) return st;
    st = vit__decode_image(m, (const unsigned char *)data, size, &px, &w, &h, &ch, &from_stb);
    if (st != VIT_OK) return st;
#ifndef VIT_NO_STB_IMAGE
    if (from_stb) { // stb's buffer is VIT_MALLOC's: into the model's allocator
        unsigned char *mine = (unsigned char *)vit__malloc(&m->alloc, (size_t)w * h * ch);
        if (mine) memcpy(mine, px, (size_t)w * h * ch);
        stbi_image_free(px);
        if (!mine) return vit__fail(m->error, VIT_ERROR_OUT_OF_MEMORY, "out of memory for a %dx%d image", w, h);
        px = mine;
    }
#else
    (void)from_stb;
#endif
    img->pixels = px;
    img->owner = px;
    img->width = w;
    img->height = h;
    img->channels = ch;
    img->stride = w * ch;
    return VIT_OK;
}

// vit_decode_memory without its argument checks (fn names the caller in messages).
static vit_status vit__decode_checked(vit_model *m, const void *data, size_t size, const vit_image_decoder *decoder, vit_image *img) {
    memset(img, 0, sizeof(*img));
#ifdef VIT_NO_STB_IMAGE
    return vit__decode_encoded(m, data, size, decoder, img);
#else
    size_t clean = vit__png_without_empty_idat((const unsigned char *)data, size, NULL);
    if (!clean) return vit__decode_encoded(m, data, size, decoder, img);
    unsigned char *copy = (unsigned char *)vit__malloc(&m->alloc, clean);
    if (!copy) return vit__fail(m->error, VIT_ERROR_OUT_OF_MEMORY, "out of memory copying a %zu-byte PNG", size);
    vit__png_without_empty_idat((const unsigned char *)data, size, copy);
    vit_status st = vit__decode_encoded(m, copy, clean, decoder, img);
    vit__free(&m->alloc, copy);
    return st;
#endif
}

VITDEF void vit_image_free(vit_model *m, vit_image *img) {
    if (!m || !img) return;
    vit__free(&m->alloc, img->owner);
    memset(img, 0, sizeof(*img));
}

VITDEF vit_status vit_decode_memory(vit_model *m, const void *data, size_t size, const vit_image_decoder *decoder, vit_image *img) {
    if (!m) return VIT_ERROR_INVALID_ARGUMENT;
    if (!data || !img || size == 0 || size > INT_MAX) {
        if (img) memset(img, 0, sizeof(*img));
        return vit__fail(m->error, VIT_ERROR_INVALID_ARGUMENT, "vit_decode_memory: data and img must be non-NULL and 0 < size <= INT_MAX");
    }
    return vit__decode_checked(m, data, size, decoder, img);
}

VITDEF vit_status vit_preprocess_memory_with(vit_model *m, const void *data, size_t size, const vit_image_decoder *decoder, float *out) {
    if (!m) return VIT_ERROR_INVALID_ARGUMENT;
    if (!data || !out || size == 0 || size > INT_MAX)
        return vit__fail(m->error, VIT_ERROR_INVALID_ARGUMENT, "vit_preprocess_memory: data and out must be non-NULL and 0 < size <= INT_MAX");
    vit_image img;
    vit_status st = vit__preprocess_known(m, "vit_preprocess_memory");
    if (st != VIT_OK) return st;
    st = vit__decode_checked(m, data, size, decoder, &img);
    if (st != VIT_OK) return st;
    st = vit_preprocess_rgb8(m, img.pixels, img.width, img.height, img.stride, img.channels, out);
    vit_image_free(m, &img);
    return st;
}

#ifndef VIT_NO_STB_IMAGE
VITDEF vit_status vit_preprocess_memory(vit_model *m, const void *data, size_t size, float *out) {
    return vit_preprocess_memory_with(m, data, size, NULL, out);
}
#endif

#ifndef VIT_NO_STDIO
// Reads path and runs decode (vit_decode_memory or vit_preprocess_memory_with)
// on its bytes; failures name the file.
static vit_status vit__with_file(vit_model *m, const char *path, const vit_image_decoder *decoder, float *out, vit_image *img) {
    char *data = NULL;
    size_t size = 0;
    vit_status st = vit__read_file(path, &m->alloc, 0, &data, &size, m->error);
    if (st != VIT_OK) return st;
    if (size == 0) st = vit__fail(m->error, VIT_ERROR_IMAGE_DECODE, "'%s' is empty", path);
    else {
        st = img ? vit_decode_memory(m, data, size, decoder, img) : vit_preprocess_memory_with(m, data, size, decoder, out);
        if (st != VIT_OK) {
            char detail[VIT__ERR_LEN];
            memcpy(detail, m->error, sizeof(detail));
            vit__fail(m->error, st, "'%s': %s", path, detail);
        }
    }
    vit__free(&m->alloc, data);
    return st;
}

VITDEF vit_status vit_preprocess_file_with(vit_model *m, const char *path, const vit_image_decoder *decoder, float *out) {
    if (!m) return VIT_ERROR_INVALID_ARGUMENT;
    if (!path || !out) return vit__fail(m->error, VIT_ERROR_INVALID_ARGUMENT, "vit_preprocess_file: path and out must be non-NULL");
    return vit__with_file(m, path, decoder, out, NULL);
}

VITDEF vit_status vit_decode_file(vit_model *m, const char *path, const vit_image_decoder *decoder, vit_image *img) {
    if (!m) return VIT_ERROR_INVALID_ARGUMENT;
    if (img) memset(img, 0, sizeof(*img));
    if (!path || !img) return vit__fail(m->error, VIT_ERROR_INVALID_ARGUMENT, "vit_decode_file: path and img must be non-NULL");
    return vit__with_file(m, path, decoder, NULL, img);
}

#ifndef VIT_NO_STB_IMAGE
VITDEF vit_status vit_preprocess_file(vit_model *m, const char *path, float *out) {
    return vit_preprocess_file_with(m, path, NULL, out);
}
#endif
#endif

// >>forward -------------------------------------------------------------------
// The fp32 CPU forward pass. Every op here is also the reference its CUDA
// kernel is tested against. Threads split outputs, never a sum, so results do
// not depend on the thread count.

#if defined(__cplusplus)
#define VIT__RESTRICT __restrict__
#else
#define VIT__RESTRICT restrict
#endif
// a helper kept out of the SIMD microkernels that call it (see vit__gemm_epilogue)
#if defined(__GNUC__) || defined(__clang__)
#define VIT__NOINLINE __attribute__((noinline))
#elif defined(_MSC_VER)
#define VIT__NOINLINE __declspec(noinline)
#else
#define VIT__NOINLINE
#endif

#ifdef _OPENMP
#define VIT__PRAGMA(x) _Pragma(#x)
#define VIT__PARALLEL_FOR(nthreads) VIT__PRAGMA(omp parallel for schedule(static) num_threads(nthreads))
#define VIT__PARALLEL_FOR_DYNAMIC(nthreads) VIT__PRAGMA(omp parallel for schedule(dynamic, 1) num_threads(nthreads))
#define VIT__THREAD_ID() omp_get_thread_num()
#else
#define VIT__PARALLEL_FOR(nthreads)
#define VIT__PARALLEL_FOR_DYNAMIC(nthreads)
#define VIT__THREAD_ID() 0
#endif

// ---- GEMM epilogues: an output mode times an activation
// The output mode is a template parameter of the CUDA GEMM kernels; the
// activation is a runtime switch inside every epilogue, CPU and GPU alike, all
// through vit__epi_apply.


static VIT__HD inline float vit__gelu(float x) {
    return 0.5f * x * (1.0f + erff(x * 0.70710678118654752f)); // exact (erf) GELU, as timm and HF use
}
static VIT__HD inline float vit__gelu_tanh(float x) {
    return 0.5f * x * (1.0f + tanhf(0.79788456080286536f * (x + 0.044715f * x * x * x))); // torch approximate='tanh'
}
static VIT__HD inline float vit__sigmoid_times(float x, float a) {
    return x / (1.0f + expf(-a * x)); // x sigmoid(a x); -0 where exp overflows
}

#if defined(__CUDACC__)
// 2^x on the SFU (ex2.approx, denormal results flushed to 0)
static __device__ __forceinline__ float vit__exp2_ftz(float x) { float e; asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(e) : "f"(x)); return e; }

// x / (1 + e) by the approximate reciprocal (the tail of the two below)
static __device__ __forceinline__ float vit__times_rcp_1p(float x, float e) {
    float r;
    asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(1.0f + e));
    return x * r;
}

// GELU for bf16/fp16 outputs on the GPU, in 8 ALU + 2 SFU instructions (erff
// takes about 25; at large batch fc1's epilogue then outlasted its main loop):
// x * sigmoid(x P(x^2)), P a degree-3 polynomial fitted (minimax, Lawson) to
// the logit of the normal CDF on |x| <= 7 (x^2 clamped at 49, where
// sigmoid = 1 - 1e-6). Max |error| 1.2e-5 over all x (relative 2.3e-4 where
// |GELU| > 0.05): under half an ulp of bf16 and about a quarter of fp16's.
static __device__ __forceinline__ float vit__gelu_fast(float x) {
    float u = fminf(x * x, 49.0f);
    float p = fmaf(fmaf(fmaf(2.50057456e-05f, u, 0.000734330039f), u, -0.105978146f), u, -2.30165005f); // -log2(e) P(u)
    return vit__times_rcp_1p(x, vit__exp2_ftz(x * p));
}

// torch's GELU approximate='tanh' for bf16/fp16 outputs on the GPU (SigLIP):
// 0.5 x (1 + tanh y) is x sigmoid(2 y), y = sqrt(2/pi) (x + 0.044715 x^3), so
// x / (1 + 2^(x (k1 + k2 x^2))) by 2^x on the SFU and an approximate reciprocal
// (tanhf is a libdevice routine of about 20 instructions with a branch).
// Relative error about 2^-20 (the rounding of the exponent, up to ~30 in
// magnitude, dominates); -0 where the exponent overflows, as tanhf's 1 - 1.
static __device__ __forceinline__ float vit__gelu_tanh_fast(float x) {
    float p = fmaf(-0.102943240f, x * x, -2.30220820f); // -2 log2(e) sqrt(2/pi) (1 + 0.044715 x^2)
    return vit__times_rcp_1p(x, vit__exp2_ftz(x * p));
}

// x sigmoid(a x) for bf16/fp16 outputs on the GPU (QuickGELU: a = 1.702; SiLU:
// a = 1) by 2^x on the SFU and an approximate reciprocal: about 2^-21 relative
// error, and no IEEE division, whose slow path is a call. -0 where e^(-a x)
// overflows, as vit__sigmoid_times. [BENCHMARKS: GEMM: activations]
static __device__ __forceinline__ float vit__sigmoid_times_fast(float x, float a) { return vit__times_rcp_1p(x, vit__exp2_ftz(x * (-1.44269504f * a))); }
#endif

// The CPU forward pass's GELU, 16 at a time rather than erff's libm call per
// element: x Phi(x), Phi from erfc by Numerical
// Recipes' Chebyshev fit (relative error < 1.2e-7 for every argument, so the
// negative tail keeps its relative accuracy), e^x by 2^n times a degree-7
// Taylor polynomial. Within a few ulp of vit__gelu (test_act checks it
// against torch like the scalar one). Plain vector arithmetic: each ISA's
// GEMM compiles it with its own registers. [BENCHMARKS: CPU: GEMM]
#if defined(__GNUC__) || defined(__clang__)
typedef float vit__vec16 __attribute__((vector_size(64)));
typedef int vit__ivec16 __attribute__((vector_size(64)));
#define VIT__VEC_GELU 1

// m ? a : b per lane (m all ones or zeros). Vectors go through macros and
// pointers, never by value: a 64-byte vector argument warns (-Wpsabi) where
// AVX-512 is off.
#define VIT__VSEL(m, a, b) ((vit__vec16)(((vit__ivec16)(a) & (m)) | ((vit__ivec16)(b) & ~(m))))

// e^x for x <= 0 (clamped at -87, where e^x < 2^-125), in place; NaN stays NaN
static inline __attribute__((always_inline)) void vit__vexp_neg(vit__vec16 *px) {
    vit__vec16 zero = {0}, x = *px;
    x = VIT__VSEL(x < -87.0f, zero - 87.0f, x);
    vit__vec16 n = (x * 1.44269504f + 12582912.0f) - 12582912.0f; // round(x / ln 2)
    n = VIT__VSEL(n == n, n, zero);                                // NaN: any scale, p is NaN
    vit__vec16 r = (x - n * 0.693145751953125f) - n * 1.42860677e-06f;
    vit__vec16 p = r * (1.0f / 5040) + 1.0f / 720;
    p = p * r + 1.0f / 120; p = p * r + 1.0f / 24; p = p * r + 1.0f / 6; p = p * r + 0.5f; p = p * r + 1.0f; p = p * r + 1.0f;
    vit__ivec16 e = (__builtin_convertvector(n, vit__ivec16) + 127) << 23;
    *px = p * (vit__vec16)e;
}

static inline __attribute__((always_inline)) void vit__gelu_vec(vit__vec16 *px) {
    vit__vec16 x = *px;
    vit__ivec16 sign = (vit__ivec16)x & (int)0x80000000;
    vit__vec16 z = (vit__vec16)((vit__ivec16)x ^ sign) * 0.70710678118654752f; // |x| / sqrt 2
    vit__vec16 t = 1.0f / (z * 0.5f + 1.0f);
    vit__vec16 p = t * 0.17087277f - 0.82215223f;
    p = p * t + 1.48851587f; p = p * t - 1.13520398f; p = p * t + 0.27886807f; p = p * t - 0.18628806f;
    p = p * t + 0.09678418f; p = p * t + 0.37409196f; p = p * t + 1.00002368f; p = p * t - 1.26551223f;
    vit__vec16 e = p - z * z;
    vit__vexp_neg(&e);
    vit__vec16 half_erfc = t * e * 0.5f; // erfc(|x| / sqrt 2) / 2
    *px = x * VIT__VSEL(sign == 0, 1.0f - half_erfc, half_erfc);
}

// x sigmoid(z), 16 at a time: e = e^-|z| <= 1, so sigmoid(z) = 1 / (1 + e)
// for z >= 0 and e / (1 + e) below, each without cancellation. Where e^-|z|
// is below vit__vexp_neg's clamp, x or x * 0 (-0, or NaN for x = -inf), as
// vit__sigmoid_times' division gives where its exp overflows.
static inline __attribute__((always_inline)) void vit__x_sigmoid_vec(vit__vec16 *px, const vit__vec16 *pz) {
    vit__vec16 x = *px, z = *pz;
    vit__ivec16 neg = (vit__ivec16)z & (int)0x80000000;
    vit__vec16 e = (vit__vec16)((vit__ivec16)z | (int)0x80000000), zero = {0}, one = zero + 1.0f; // e = -|z|
    vit__ivec16 clamped = e < -87.0f;
    vit__vexp_neg(&e);
    vit__vec16 r = x * (VIT__VSEL(neg == 0, one, e) / (one + e));
    *px = VIT__VSEL(clamped, VIT__VSEL(neg == 0, x, x * 0.0f), r);
}

// x sigmoid(1.702 x) (QuickGELU), 16 at a time: the CPU forward pass's
static inline __attribute__((always_inline)) void vit__quick_gelu_vec(vit__vec16 *px) {
    vit__vec16 z = *px * 1.702f;
    vit__x_sigmoid_vec(px, &z);
}

// torch's tanh GELU, 16 at a time: 0.5 x (1 + tanh y) as x sigmoid(2 y), y =
// sqrt(2/pi) (x + 0.044715 x^3) (no 1 + tanh cancellation in the negative tail)
static inline __attribute__((always_inline)) void vit__gelu_tanh_vec(vit__vec16 *px) {
    vit__vec16 x = *px, z = (x * x * 0.044715f + 1.0f) * x * 1.59576912f;
    vit__x_sigmoid_vec(px, &z);
}
#endif

// The activation of one output column pair v[0], v[1] (columns c, c + 1 with
// c even; bias already added): results back into v, and how many there are: 2,
// or 1 for SwiGLU (v[0] = silu(v[0]) v[1]). fast (the GPU's 16-bit outputs):
// GELU by vit__gelu_fast, the tanh GELU by vit__gelu_tanh_fast, QuickGELU and
// SiLU by vit__sigmoid_times_fast.
static VIT__HD inline int vit__epi_apply(vit__act act, int fast, float *v) {
    (void)fast;
    switch (act) {
    case VIT__ACT_GELU:
#if defined(__CUDA_ARCH__)
        if (fast) { v[0] = vit__gelu_fast(v[0]); v[1] = vit__gelu_fast(v[1]); return 2; }
#endif
        v[0] = vit__gelu(v[0]); v[1] = vit__gelu(v[1]);
        return 2;
    case VIT__ACT_GELU_TANH:
#if defined(__CUDA_ARCH__)
        if (fast) { v[0] = vit__gelu_tanh_fast(v[0]); v[1] = vit__gelu_tanh_fast(v[1]); return 2; }
#endif
        v[0] = vit__gelu_tanh(v[0]); v[1] = vit__gelu_tanh(v[1]);
        return 2;
    case VIT__ACT_QUICK_GELU:
#if defined(__CUDA_ARCH__)
        if (fast) { v[0] = vit__sigmoid_times_fast(v[0], 1.702f); v[1] = vit__sigmoid_times_fast(v[1], 1.702f); return 2; }
#endif
        v[0] = vit__sigmoid_times(v[0], 1.702f); v[1] = vit__sigmoid_times(v[1], 1.702f);
        return 2;
    case VIT__ACT_SWIGLU:
#if defined(__CUDA_ARCH__)
        if (fast) { v[0] = vit__sigmoid_times_fast(v[0], 1.0f) * v[1]; return 1; }
#endif
        v[0] = vit__sigmoid_times(v[0], 1.0f) * v[1];
        return 1;
    default: return 2;
    }
}

// VIT__OUT_RESIDUAL: the residual stream element old plus scale times the result v.
// One rounding (fmaf): what the compilers' contraction gave before, now on every build.
static VIT__HD inline float vit__epi_residual(float old, float scale, float v) { return fmaf(scale, v, old); }

// >>policy --------------------------------------------------------------------
// Every run-time choice of the CPU path: which microkernels this CPU runs
// (fp32 and int8) and how a packed GEMM is cut into tasks; first, which ISAs
// this compiler builds kernels for. The kernels live in >>op linear.
// [BENCHMARKS: CPU: GEMM] [BENCHMARKS: CPU: int8]

// Compiled per ISA with target attributes and chosen at run time, so a binary
// built for plain x86-64 still uses AVX-512 (AVX-VNNI: compilers that know it).
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
#include <cpuid.h>
#define VIT__X86 1
#define VIT__TARGET_AVX512 __attribute__((target("avx512f,avx2,fma")))
#define VIT__TARGET_AVX2 __attribute__((target("avx2,fma")))
#if (defined(__clang__) && __clang_major__ >= 12) || (!defined(__clang__) && defined(__GNUC__) && __GNUC__ >= 11)
#define VIT__AVX_VNNI 1
#define VIT__TARGET_AVX_VNNI __attribute__((target("avxvnni,avx2,fma")))
#endif
#endif
#if defined(__aarch64__) && (defined(__GNUC__) || defined(__clang__))
#include <arm_neon.h>
#define VIT__NEON 1
#if defined(__linux__)
#include <sys/auxv.h>
#endif
#if defined(__ARM_FEATURE_DOTPROD) || defined(__linux__)
#define VIT__SDOT 1
#define VIT__TARGET_SDOT __attribute__((target("arch=armv8.2-a+dotprod")))
#endif
#endif

#define VIT__PANEL 16 // columns of a packed weight panel (see >>op linear)

// The reference GEMM's tasks (vit__linear_cpu)
#if defined(__AVX512F__)
#define VIT__MR 12 // rows per micro-tile: 12 accumulators of the 32 vector registers
#else
#define VIT__MR 6  // rows per micro-tile: 12 of the 16 AVX2 registers
#endif
#define VIT__NR 16 // columns per micro-tile: one 512-bit or two 256-bit vectors
#define VIT__MB 48 // rows per task (a multiple of VIT__MR)
#define VIT__NB 128 // columns per task

// The microkernels this CPU runs: VIT_CPU_* of vit__cpu_isa().
enum { VIT__ISA_GENERIC, VIT__ISA_AVX2, VIT__ISA_AVX512, VIT__ISA_NEON, VIT__ISA_AVX_VNNI /* int8 only */ };

static int vit__cpu_isa(void) {
#if defined(VIT__X86)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) return VIT__ISA_AVX512;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return VIT__ISA_AVX2;
#elif defined(VIT__NEON)
    return VIT__ISA_NEON;
#endif
    return VIT__ISA_GENERIC;
}

#if defined(VIT__X86)
// AVX-VNNI as CPUID reports it (leaf 7, sub-leaf 1, EAX bit 4; some compilers'
// __builtin_cpu_supports does not know it), on a CPU whose OS runs AVX2.
static int vit__has_avx_vnni(void) {
    unsigned int a = 0, b = 0, c = 0, d = 0;
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __get_cpuid_count(7, 1, &a, &b, &c, &d) && ((a >> 4) & 1);
}
#endif

// The int8 kernels this CPU runs: VIT__ISA_AVX512 (with VNNI), VIT__ISA_AVX_VNNI,
// VIT__ISA_AVX2, VIT__ISA_NEON (with sdot), else VIT__ISA_GENERIC.
static int vit__q8_isa(void) {
#if defined(VIT__X86)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vnni")) return VIT__ISA_AVX512;
#if defined(VIT__AVX_VNNI)
    if (vit__has_avx_vnni()) return VIT__ISA_AVX_VNNI;
#endif
    if (__builtin_cpu_supports("avx2")) return VIT__ISA_AVX2;
#elif defined(VIT__SDOT) && defined(__ARM_FEATURE_DOTPROD)
    return VIT__ISA_NEON;
#elif defined(VIT__SDOT)
    if (getauxval(AT_HWCAP) & (1ul << 20)) return VIT__ISA_NEON; // HWCAP_ASIMDDP
#endif
    return VIT__ISA_GENERIC;
}

// The task grid of a packed GEMM: column blocks of whole panels (an even
// count, so the two-panel tiles run), each block's weights within ~384 KB (L2,
// reused by every row block) and as many blocks as a multiple of the thread
// count, so that the static schedule hands every thread the same columns of all
// rows; row blocks of 12 k rows whose inputs fit the same budget (at most 48).
static void vit__gemm_grid(int rows, int N, size_t panel_bytes, size_t row_bytes, int nthreads, int *mb, int *nb) {
    size_t budget = 384 * 1024;
    int panels = (N + VIT__PANEL - 1) / VIT__PANEL, per = (int)(budget / panel_bytes), blocks;
    if (per < 2) per = 2;
    blocks = (panels + per - 1) / per;
    if (nthreads > 1 && panels >= 2 * nthreads) blocks = (blocks + nthreads - 1) / nthreads * nthreads;
    per = (panels + blocks - 1) / blocks;
    per += per & 1;
    *nb = per * VIT__PANEL;
    int r = (int)(budget / row_bytes) / 12 * 12;
    *mb = r < 12 ? 12 : r > VIT__MB ? VIT__MB : r;
    (void)rows;
}

// >>op linear -- CPU reference: vit__linear_cpu
// The linear layers on the CPU: the reference, packed SIMD, int8 and e4m3 GEMMs.
// (Before patch_embed, out of forward order: the patch embedding is this GEMM
// on unfolded patches; vit_kernels.cuh keeps the same order.)

// The epilogue of one row's nr sums acc (GEMM columns n.., n even) into o:
// + bias, the activation, then stored or (VIT__OUT_RESIDUAL) added times
// scale. o and scale point at the row's first output column (n, or n / 2 for
// SwiGLU, which writes nr / 2 outputs).
static inline void vit__epi_row(float *o, const float *acc, int nr, const float *bias, const float *scale, vit__out mode, vit__act act) {
    for (int j = 0; j < nr; j += 2) {
        float v[2];
        v[0] = acc[j] + (bias ? bias[j] : 0.0f);
        v[1] = j + 1 < nr ? acc[j + 1] + (bias ? bias[j + 1] : 0.0f) : 0.0f;
        int n = vit__epi_apply(act, 0, v), oc = n == 2 ? j : j / 2;
        for (int e = 0; e < n && j + e < nr; e++)
            o[oc + e] = mode == VIT__OUT_RESIDUAL ? vit__epi_residual(o[oc + e], scale ? scale[oc + e] : 1.0f, v[e]) : v[e];
    }
}

// One tile of up to MR x NR outputs over the whole K. GCC and clang get explicit
// vectors with the row count a compile-time constant (their auto-vectoriser
// turns the plain loop nest into shuffles); other compilers get plain loops.
#if defined(__GNUC__) || defined(__clang__)
static inline __attribute__((always_inline)) void vit__linear_tile_vec(float *VIT__RESTRICT out, size_t ldo, const float *VIT__RESTRICT inp, size_t ldi,
                                                                       const float *VIT__RESTRICT w, size_t ldw, int K, const int mr, int nr,
                                                                       const float *bias, vit__out mode, vit__act act, const float *scale) {
    VIT__STATIC_ASSERT(VIT__NR == 16, "vector tile is 16 wide");
    vit__vec16 acc[VIT__MR];
    for (int i = 0; i < mr; i++) acc[i] = (vit__vec16){0};
    if (nr == VIT__NR) {
        for (int k = 0; k < K; k++) {
            vit__vec16 wk;
            memcpy(&wk, w + (size_t)k * ldw, sizeof(wk));
            for (int i = 0; i < mr; i++) acc[i] += inp[(size_t)i * ldi + k] * wk;
        }
    } else { // right edge: load nr columns, the rest stay zero
        for (int k = 0; k < K; k++) {
            vit__vec16 wk = (vit__vec16){0};
            memcpy(&wk, w + (size_t)k * ldw, (size_t)nr * sizeof(float));
            for (int i = 0; i < mr; i++) acc[i] += inp[(size_t)i * ldi + k] * wk;
        }
    }
    for (int i = 0; i < mr; i++) {
        float a[VIT__NR];
        memcpy(a, &acc[i], sizeof(a));
        vit__epi_row(out + (size_t)i * ldo, a, nr, bias, scale, mode, act);
    }
}

static void vit__linear_tile(float *out, size_t ldo, const float *inp, size_t ldi, const float *w, size_t ldw, int K,
                             int mr, int nr, const float *bias, vit__out mode, vit__act act, const float *scale) {
    // the row count must be a constant for acc to live in registers: peel powers of two
    while (mr > 0) {
        int step = mr >= VIT__MR ? VIT__MR : mr >= 8 ? 8 : mr >= 4 ? 4 : mr >= 2 ? 2 : 1;
        switch (step) {
        case VIT__MR: vit__linear_tile_vec(out, ldo, inp, ldi, w, ldw, K, VIT__MR, nr, bias, mode, act, scale); break;
#if VIT__MR > 8
        case 8: vit__linear_tile_vec(out, ldo, inp, ldi, w, ldw, K, 8, nr, bias, mode, act, scale); break;
#endif
        case 4: vit__linear_tile_vec(out, ldo, inp, ldi, w, ldw, K, 4, nr, bias, mode, act, scale); break;
        case 2: vit__linear_tile_vec(out, ldo, inp, ldi, w, ldw, K, 2, nr, bias, mode, act, scale); break;
        default: vit__linear_tile_vec(out, ldo, inp, ldi, w, ldw, K, 1, nr, bias, mode, act, scale); break;
        }
        out += (size_t)step * ldo;
        inp += (size_t)step * ldi;
        mr -= step;
    }
}
#else
static void vit__linear_tile(float *out, size_t ldo, const float *inp, size_t ldi, const float *w, size_t ldw, int K,
                             int mr, int nr, const float *bias, vit__out mode, vit__act act, const float *scale) {
    float acc[VIT__MR][VIT__NR];
    memset(acc, 0, sizeof(acc));
    for (int k = 0; k < K; k++) {
        const float *wk = w + (size_t)k * ldw;
        for (int i = 0; i < mr; i++) {
            float a = inp[(size_t)i * ldi + k];
            for (int j = 0; j < nr; j++) acc[i][j] += a * wk[j];
        }
    }
    for (int i = 0; i < mr; i++) vit__epi_row(out + (size_t)i * ldo, acc[i], nr, bias, scale, mode, act);
}
#endif

// out (rows, out_dim) = epilogue(inp (rows, in_dim) @ weight (in_dim, out_dim) + bias (out_dim)):
// mode VIT__OUT_STORE or VIT__OUT_RESIDUAL (out also holds the residual it is
// added to; scale (out_dim) may be NULL), any activation. With VIT__ACT_SWIGLU
// (out_dim even) the weight columns come in (gate, up) pairs and out is
// (rows, out_dim / 2). Parallel over (row block, column block) tasks; each
// output is summed over k in order by one thread.
static void vit__linear_cpu(float *out, const float *inp, const float *weight, const float *bias, int rows, int in_dim, int out_dim,
                            vit__out mode, vit__act act, const float *scale, int nthreads) {
    int mblocks = (rows + VIT__MB - 1) / VIT__MB, nblocks = (out_dim + VIT__NB - 1) / VIT__NB, glu = act == VIT__ACT_SWIGLU;
    size_t ldo = glu ? (size_t)out_dim / 2 : (size_t)out_dim;
    VIT_ASSERT(!glu || out_dim % 2 == 0);
    (void)nthreads;
    VIT__PARALLEL_FOR(nthreads)
    for (int task = 0; task < mblocks * nblocks; task++) {
        int m0 = (task % mblocks) * VIT__MB, n0 = (task / mblocks) * VIT__NB;
        int m1 = m0 + VIT__MB < rows ? m0 + VIT__MB : rows, n1 = n0 + VIT__NB < out_dim ? n0 + VIT__NB : out_dim;
        for (int n = n0; n < n1; n += VIT__NR) {
            int nr = n1 - n < VIT__NR ? n1 - n : VIT__NR, oc = glu ? n / 2 : n;
            const float *b = bias ? bias + n : NULL, *s = scale ? scale + oc : NULL;
            for (int m = m0; m < m1; m += VIT__MR) {
                int mr = m1 - m < VIT__MR ? m1 - m : VIT__MR;
                float *o = out + (size_t)m * ldo + oc;
                const float *x = inp + (size_t)m * in_dim;
                vit__linear_tile(o, ldo, x, (size_t)in_dim, weight + n, (size_t)out_dim, in_dim, mr, nr, b, mode, act, s);
            }
        }
    }
}


// ---- The fast CPU GEMM: packed weights, a register tile per ISA
// At load (CPU models only) every linear weight (K, N) is repacked into panels
// of 16 columns: panel p holds columns [16p, 16p + w), w = min(16, N - 16p),
// as K rows of w floats, one after another. The microkernels then read each
// weight once per row tile, sequentially (no strided loads, no TLB misses).
// Every output is still one thread's in-order fmaf chain over k from 0, so the
// packed GEMM gives vit__linear_cpu's bits with any ISA and thread count.

// (K, N) weight w into panels, in place; tmp holds K * N floats.
static void vit__pack_panels(float *w, float *tmp, size_t K, size_t N) {
    memcpy(tmp, w, K * N * sizeof(float));
    for (size_t n0 = 0; n0 < N; n0 += VIT__PANEL) {
        size_t pw = N - n0 < VIT__PANEL ? N - n0 : VIT__PANEL;
        float *dst = w + n0 * K;
        for (size_t k = 0; k < K; k++)
            for (size_t j = 0; j < pw; j++) dst[k * pw + j] = tmp[k * N + n0 + j];
    }
}

typedef struct vit__gemm {
    float *out;
    const float *inp, *w, *bias, *scale; // w packed
    size_t ldo;                          // out's row stride: N, or N / 2 under SwiGLU
    size_t lda;                          // inp's row stride (K in the linears)
    int rows, K, N;
    vit__out mode;
    vit__act act;
} vit__gemm;

// Rows [m, m + mr) x columns [n, n + nr) from the sums acc (row stride 32).
// GELU, tanh GELU and QuickGELU by vit__gelu_vec, vit__gelu_tanh_vec and
// vit__quick_gelu_vec, 16 columns at a time, SwiGLU by vit__x_sigmoid_vec on
// 16 (gate, up) pairs, when the compiler has vectors (a libm call per element
// otherwise: erff, tanhf, expf).
// One call per tile, not inlined into each of the microkernels' tile shapes,
// which would multiply vit.h's compile time [BENCHMARKS: CPU: GEMM]; fmaf is
// exact whether or not it is the FMA instruction, so the results are the same
// bits.
static VIT__NOINLINE void vit__gemm_epilogue(const vit__gemm *g, int m, int n, int mr, int nr, float *acc) {
    int glu = g->act == VIT__ACT_SWIGLU, oc = glu ? n / 2 : n;
    if (g->act == VIT__ACT_NONE) { // vit__epi_row's arithmetic, without its per-pair switch
        for (int i = 0; i < mr; i++) {
            float *o = g->out + (size_t)(m + i) * g->ldo + n;
            const float *a = acc + 32 * i, *b = g->bias ? g->bias + n : NULL, *s = g->scale ? g->scale + n : NULL;
            if (g->mode == VIT__OUT_RESIDUAL)
                for (int j = 0; j < nr; j++) o[j] = vit__epi_residual(o[j], s ? s[j] : 1.0f, a[j] + (b ? b[j] : 0.0f));
            else
                for (int j = 0; j < nr; j++) o[j] = a[j] + (b ? b[j] : 0.0f);
        }
        return;
    }
#if defined(VIT__VEC_GELU)
    int act = g->act;
    if ((act == VIT__ACT_GELU || act == VIT__ACT_GELU_TANH || act == VIT__ACT_QUICK_GELU) && g->mode == VIT__OUT_STORE && nr % 16 == 0) {
        for (int i = 0; i < mr; i++)
            for (int j = 0; j < nr; j += 16) {
                vit__vec16 v, b = {0};
                memcpy(&v, acc + 32 * i + j, sizeof(v));
                if (g->bias) memcpy(&b, g->bias + n + j, sizeof(b));
                v += b;
                if (act == VIT__ACT_GELU) vit__gelu_vec(&v);
                else if (act == VIT__ACT_GELU_TANH) vit__gelu_tanh_vec(&v);
                else vit__quick_gelu_vec(&v);
                memcpy(g->out + (size_t)(m + i) * g->ldo + n + j, &v, sizeof(v));
            }
        return;
    }
    if (glu && g->mode == VIT__OUT_STORE && nr % 2 == 0) { // (gate, up) column pairs -> silu(gate) up, 16 at a time
        for (int i = 0; i < mr; i++)
            for (int j = 0; j < nr; j += 32) {
                int h = (nr - j < 32 ? nr - j : 32) / 2;
                const float *a = acc + 32 * i + j, *b = g->bias ? g->bias + n + j : NULL;
                vit__vec16 gate = {0}, up = {0};
                for (int e = 0; e < h; e++) {
                    gate[e] = a[2 * e] + (b ? b[2 * e] : 0.0f);
                    up[e] = a[2 * e + 1] + (b ? b[2 * e + 1] : 0.0f);
                }
                vit__vec16 v = gate;
                vit__x_sigmoid_vec(&v, &gate);
                v *= up;
                memcpy(g->out + (size_t)(m + i) * g->ldo + oc + j / 2, &v, (size_t)h * sizeof(float));
            }
        return;
    }
#endif
    for (int i = 0; i < mr; i++)
        vit__epi_row(g->out + (size_t)(m + i) * g->ldo + oc, acc + 32 * i, nr, g->bias ? g->bias + n : NULL, g->scale ? g->scale + oc : NULL,
                     g->mode, g->act);
}

// Portable tile: rows [m, m + mr) x one panel at column n (width pw), fmaf in k order.
static void vit__gemm_tile_generic(const vit__gemm *g, int m, int mr, int n) {
    int pw = g->N - n < VIT__PANEL ? g->N - n : VIT__PANEL;
    const float *wp = g->w + (size_t)n * g->K;
    float acc[8 * 32];
    for (int i0 = 0; i0 < mr; i0 += 8) {
        int r = mr - i0 < 8 ? mr - i0 : 8;
        for (int i = 0; i < r; i++) {
            const float *a = g->inp + (size_t)(m + i0 + i) * g->lda;
            float s[VIT__PANEL] = {0};
            for (int k = 0; k < g->K; k++)
                for (int j = 0; j < pw; j++) s[j] = fmaf(a[k], wp[(size_t)k * pw + j], s[j]);
            memcpy(acc + 32 * i, s, sizeof(s));
        }
        vit__gemm_epilogue(g, m + i0, n, r, pw, acc);
    }
}

// Rows [m0, m1) of a block in tiles of MAX rows (2, 6 or 12), the remainder
// as one tile of its own row count (1-11 rows in one tile: as 4 + 1 rows the
// last row's accumulators would wait on FMA latency). TILE(m, r) runs rows
// [m, m + r), r a constant for the microkernel's unrolled rows. Every ISA's
// fp32 and int8 blocks; each row's sums are its own, so the split changes no bits.
#define VIT__ROWS_2(TILE, m) case 2: TILE(m, 2); break; default: TILE(m, 1); break;
#define VIT__ROWS_6(TILE, m) \
    case 6: TILE(m, 6); break; case 5: TILE(m, 5); break; case 4: TILE(m, 4); break; case 3: TILE(m, 3); break; VIT__ROWS_2(TILE, m)
#define VIT__ROWS_12(TILE, m)                                                                                                  \
    case 12: TILE(m, 12); break; case 11: TILE(m, 11); break; case 10: TILE(m, 10); break; case 9: TILE(m, 9); break;          \
    case 8: TILE(m, 8); break; case 7: TILE(m, 7); break; VIT__ROWS_6(TILE, m)
#define VIT__ROWS_LOOP(m0, m1, MAX, TILE)                                      \
    for (int vit__m = (m0), vit__r; vit__m < (m1); vit__m += vit__r) {         \
        vit__r = (m1) - vit__m < MAX ? (m1) - vit__m : MAX;                    \
        switch (vit__r) { VIT__ROWS_##MAX(TILE, vit__m) }                      \
    }

// The AVX2 and NEON fp32 blocks: columns [n0, n1) one 16-column panel at a
// time, rows in tiles of 6; PART(m, r) runs a last panel of pw < 16 columns
// (the microkernel's PARTIAL variant), FULL(m, r) the others (both see n, pw).
#define VIT__PANELS_LOOP(PART, FULL)                          \
    for (int n = n0; n < n1; n += VIT__PANEL) {               \
        int pw = g->N - n;                                    \
        if (pw < VIT__PANEL) VIT__ROWS_LOOP(m0, m1, 6, PART)  \
        else VIT__ROWS_LOOP(m0, m1, 6, FULL)                  \
    }

// Microkernels: MR rows x NP full panels (16 NP columns) over all K, sums
// handed to the epilogue. Compiled per ISA with target attributes and chosen
// at run time, so a binary built for plain x86-64 still uses AVX-512.
#if defined(VIT__X86)

// NP 1 may be a partial panel: pw < 16 columns, loaded under a mask.
VIT__TARGET_AVX512 static inline __attribute__((always_inline)) void vit__tile_avx512(const vit__gemm *g, int m, int n, const int MR, const int NP, int pw) {
    __m512 acc[12][2];
    __mmask16 mask = (__mmask16)((1u << pw) - 1);
    const float *a = g->inp + (size_t)m * g->lda, *w0 = g->w + (size_t)n * g->K, *w1 = w0 + (size_t)VIT__PANEL * g->K;
    size_t K = (size_t)g->K, lda = g->lda;
    for (int i = 0; i < MR; i++) acc[i][0] = acc[i][1] = _mm512_setzero_ps();
    for (size_t k = 0; k < K; k++) {
        __m512 b0 = NP > 1 ? _mm512_loadu_ps(w0 + k * VIT__PANEL) : _mm512_maskz_loadu_ps(mask, w0 + k * pw);
        __m512 b1 = NP > 1 ? _mm512_loadu_ps(w1 + k * VIT__PANEL) : b0;
        for (int i = 0; i < MR; i++) {
            __m512 x = _mm512_set1_ps(a[(size_t)i * lda + k]);
            acc[i][0] = _mm512_fmadd_ps(x, b0, acc[i][0]);
            if (NP > 1) acc[i][1] = _mm512_fmadd_ps(x, b1, acc[i][1]);
        }
    }
    float out[12 * 32];
    for (int i = 0; i < MR; i++) { _mm512_storeu_ps(out + 32 * i, acc[i][0]); _mm512_storeu_ps(out + 32 * i + 16, acc[i][1]); }
    vit__gemm_epilogue(g, m, n, MR, NP > 1 ? 2 * VIT__PANEL : pw, out);
}

// A block of rows [m0, m1) x columns [n0, n1) (n0 a panel boundary).
VIT__TARGET_AVX512 static void vit__gemm_block_avx512(const vit__gemm *g, int m0, int m1, int n0, int n1) {
    for (int n = n0; n < n1;) {
        int pw = g->N - n < VIT__PANEL ? g->N - n : VIT__PANEL, np = pw == VIT__PANEL && n1 - n >= 2 * VIT__PANEL ? 2 : 1;
#define VIT__TILE2(m, r) vit__tile_avx512(g, m, n, r, 2, VIT__PANEL)
#define VIT__TILE1(m, r) vit__tile_avx512(g, m, n, r, 1, pw)
        if (np == 2) VIT__ROWS_LOOP(m0, m1, 12, VIT__TILE2)
        else VIT__ROWS_LOOP(m0, m1, 12, VIT__TILE1)
#undef VIT__TILE2
#undef VIT__TILE1
        n += np * VIT__PANEL;
    }
}

// PARTIAL: a partial panel of pw < 16 columns (row stride pw), loaded under masks.
VIT__TARGET_AVX2 static inline __attribute__((always_inline)) void vit__tile_avx2(const vit__gemm *g, int m, int n, const int MR, const int PARTIAL, int pw) {
    __m256 acc[6][2];
    const float *a = g->inp + (size_t)m * g->lda, *w = g->w + (size_t)n * g->K;
    size_t K = (size_t)g->K, lda = g->lda, ws = PARTIAL ? (size_t)pw : VIT__PANEL;
    __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    __m256i m0 = _mm256_cmpgt_epi32(_mm256_set1_epi32(pw), lanes), m1 = _mm256_cmpgt_epi32(_mm256_set1_epi32(pw - 8), lanes);
    for (int i = 0; i < MR; i++) acc[i][0] = acc[i][1] = _mm256_setzero_ps();
    for (size_t k = 0; k < K; k++) {
        __m256 b0 = PARTIAL ? _mm256_maskload_ps(w + k * ws, m0) : _mm256_loadu_ps(w + k * ws);
        __m256 b1 = PARTIAL ? _mm256_maskload_ps(w + k * ws + 8, m1) : _mm256_loadu_ps(w + k * ws + 8);
        for (int i = 0; i < MR; i++) {
            __m256 x = _mm256_broadcast_ss(a + (size_t)i * lda + k);
            acc[i][0] = _mm256_fmadd_ps(x, b0, acc[i][0]);
            acc[i][1] = _mm256_fmadd_ps(x, b1, acc[i][1]);
        }
    }
    float out[6 * 32];
    for (int i = 0; i < MR; i++) { _mm256_storeu_ps(out + 32 * i, acc[i][0]); _mm256_storeu_ps(out + 32 * i + 8, acc[i][1]); }
    vit__gemm_epilogue(g, m, n, MR, PARTIAL ? pw : VIT__PANEL, out);
}

#define VIT__TILE_PART(m, r) vit__tile_avx2(g, m, n, r, 1, pw)
#define VIT__TILE_FULL(m, r) vit__tile_avx2(g, m, n, r, 0, VIT__PANEL)
VIT__TARGET_AVX2 static void vit__gemm_block_avx2(const vit__gemm *g, int m0, int m1, int n0, int n1) { VIT__PANELS_LOOP(VIT__TILE_PART, VIT__TILE_FULL) }
#undef VIT__TILE_PART
#undef VIT__TILE_FULL
#endif

#if defined(VIT__NEON)
// PARTIAL: a partial panel of pw < 16 columns (row stride pw), each row copied into a zeroed 16.
static inline __attribute__((always_inline)) void vit__tile_neon(const vit__gemm *g, int m, int n, const int MR, const int PARTIAL, int pw) {
    float32x4_t acc[6][4];
    const float *a = g->inp + (size_t)m * g->lda, *w = g->w + (size_t)n * g->K;
    size_t K = (size_t)g->K, lda = g->lda;
    float row[VIT__PANEL] = {0};
    for (int i = 0; i < MR; i++)
        for (int j = 0; j < 4; j++) acc[i][j] = vdupq_n_f32(0.0f);
    for (size_t k = 0; k < K; k++) {
        float32x4_t b[4];
        if (PARTIAL) {
            for (int j = 0; j < pw; j++) row[j] = w[k * (size_t)pw + j];
            for (int j = 0; j < 4; j++) b[j] = vld1q_f32(row + 4 * j);
        } else {
            for (int j = 0; j < 4; j++) b[j] = vld1q_f32(w + k * VIT__PANEL + 4 * j);
        }
        for (int i = 0; i < MR; i++) {
            float32x4_t x = vdupq_n_f32(a[(size_t)i * lda + k]);
            for (int j = 0; j < 4; j++) acc[i][j] = vfmaq_f32(acc[i][j], x, b[j]);
        }
    }
    float out[6 * 32];
    for (int i = 0; i < MR; i++)
        for (int j = 0; j < 4; j++) vst1q_f32(out + 32 * i + 4 * j, acc[i][j]);
    vit__gemm_epilogue(g, m, n, MR, PARTIAL ? pw : VIT__PANEL, out);
}

#define VIT__TILE_PART(m, r) vit__tile_neon(g, m, n, r, 1, pw)
#define VIT__TILE_FULL(m, r) vit__tile_neon(g, m, n, r, 0, VIT__PANEL)
static void vit__gemm_block_neon(const vit__gemm *g, int m0, int m1, int n0, int n1) { VIT__PANELS_LOOP(VIT__TILE_PART, VIT__TILE_FULL) }
#undef VIT__TILE_PART
#undef VIT__TILE_FULL
#endif

static void vit__gemm_block_generic(const vit__gemm *g, int m0, int m1, int n0, int n1) {
    for (int n = n0; n < n1; n += VIT__PANEL) vit__gemm_tile_generic(g, m0, m1 - m0, n);
}

typedef void (*vit__gemm_block_fn)(const vit__gemm *g, int m0, int m1, int n0, int n1);

static vit__gemm_block_fn vit__gemm_block_for(int isa) {
    switch (isa) {
#if defined(VIT__X86)
    case VIT__ISA_AVX512: return vit__gemm_block_avx512;
    case VIT__ISA_AVX2: return vit__gemm_block_avx2;
#elif defined(VIT__NEON)
    case VIT__ISA_NEON: return vit__gemm_block_neon;
#endif
    default: return vit__gemm_block_generic;
    }
}

// vit__linear_cpu's contract with packed weights (vit__pack_panels) and the
// microkernels of isa: tasks of vit__gemm_grid's blocks, each output summed in
// k order by one thread.
static void vit__linear_packed(float *out, const float *inp, const float *packed, const float *bias, int rows, int in_dim, int out_dim,
                               vit__out mode, vit__act act, const float *scale, int isa, int nthreads) {
    vit__gemm g;
    vit__gemm_block_fn block = vit__gemm_block_for(isa);
    int mb, nb;
    vit__gemm_grid(rows, out_dim, (size_t)in_dim * VIT__PANEL * sizeof(float), (size_t)in_dim * sizeof(float), nthreads, &mb, &nb);
    int mblocks = (rows + mb - 1) / mb, nblocks = (out_dim + nb - 1) / nb;
    VIT_ASSERT(act != VIT__ACT_SWIGLU || out_dim % 2 == 0);
    g.out = out; g.inp = inp; g.w = packed; g.bias = bias; g.scale = scale; g.lda = (size_t)in_dim;
    g.ldo = act == VIT__ACT_SWIGLU ? (size_t)out_dim / 2 : (size_t)out_dim;
    g.rows = rows; g.K = in_dim; g.N = out_dim; g.mode = mode; g.act = act;
    (void)nthreads;
    VIT__PARALLEL_FOR(nthreads)
    for (int task = 0; task < mblocks * nblocks; task++) {
        int m0 = (task % mblocks) * mb, n0 = (task / mblocks) * nb;
        block(&g, m0, m0 + mb < rows ? m0 + mb : rows, n0, n0 + nb < out_dim ? n0 + nb : out_dim);
    }
}

// ---- int8 GEMMs (VIT_DTYPE_INT8: the CPU path's; the blocks' four linears)
// Weights, quantised at load per output column n: s_w[n] = max_k |w[k, n]| / 127,
// q = round(w / s_w), packed in panels of 16 columns (zero-padded) x groups of
// 4 k (zero-padded): bytes (group g, column j, t) = q[4g + t, 16p + j], the
// operand order of vpdpbusd and sdot, which sum 4 byte products into each 32-bit
// lane. Activations, quantised per row (token) as the GEMM starts:
// s_x[r] = max_k |x[r, k]| / 127, q = round(x / s_x). The output is
// (float)(sum_k qx qw) * (s_x s_w) + bias, then the usual epilogue. The integer
// sums are exact, so every ISA and thread count gives the same bits.

static int vit__pad4(int k) { return (k + 3) & ~3; }
static int vit__pad16(int n) { return (n + 15) & ~15; }

// Bytes of a quantised (K, N) weight: packed bytes, then scales and column sums, each 64-byte aligned.
static size_t vit__q8_bytes(int K, int N) {
    return (((size_t)vit__pad4(K) * vit__pad16(N) + 63) & ~(size_t)63) + 2 * (((size_t)vit__pad16(N) * 4 + 63) & ~(size_t)63);
}

// Quantises w (K, N) (row-major) into mem (vit__q8_bytes(K, N), 64-byte aligned).
static vit__q8 vit__q8_make(void *mem, const float *w, int K, int N) {
    int Kp = vit__pad4(K), Np = vit__pad16(N);
    signed char *q = (signed char *)mem;
    float *scale = (float *)(void *)(q + (((size_t)Kp * Np + 63) & ~(size_t)63));
    int *colsum = (int *)(void *)((char *)scale + (((size_t)Np * 4 + 63) & ~(size_t)63));
    memset(q, 0, (size_t)Kp * Np);
    for (int n = 0; n < Np; n++) {
        float mx = 0.0f;
        for (int k = 0; n < N && k < K; k++) mx = fabsf(w[(size_t)k * N + n]) > mx ? fabsf(w[(size_t)k * N + n]) : mx;
        float s = mx / 127.0f, inv = mx > 0.0f ? 127.0f / mx : 0.0f;
        int sum = 0;
        for (int k = 0; n < N && k < K; k++) {
            float v = rintf(w[(size_t)k * N + n] * inv);
            int qi = v > 127.0f ? 127 : v < -127.0f ? -127 : (int)v;
            q[(size_t)(n / 16) * Kp * 16 + (size_t)(k / 4) * 64 + (n % 16) * 4 + k % 4] = (signed char)qi;
            sum += qi;
        }
        scale[n] = n < N ? s : 0.0f;
        colsum[n] = sum;
    }
    vit__q8 r;
    r.w = q; r.scale = scale; r.colsum = colsum; r.K = K; r.N = N;
    return r;
}

// Rows of x (rows, K) into bytes q (rows, Kpad): round(x / s_x) + offset (128
// for VNNI's unsigned bytes, else 0; the padding holds offset, i.e. 0), and
// s_x into scale. One vector routine for every element: the same rounding
// whatever the ISA.
static void vit__q8_rows(unsigned char *q, float *scale, const float *x, int rows, int K, int offset, int nthreads) {
    int Kp = vit__pad4(K);
    (void)nthreads;
    VIT__PARALLEL_FOR(nthreads)
    for (int r = 0; r < rows; r++) {
        const float *xr = x + (size_t)r * K;
        unsigned char *qr = q + (size_t)r * Kp;
        float mx = 0.0f;
#if defined(VIT__VEC_GELU)
        vit__vec16 m16 = {0};
        int k = 0;
        for (; k + 16 <= K; k += 16) {
            vit__vec16 v;
            memcpy(&v, xr + k, sizeof(v));
            v = (vit__vec16)((vit__ivec16)v & 0x7fffffff);
            m16 = VIT__VSEL(v > m16, v, m16);
        }
        for (int e = 0; e < 16; e++) mx = m16[e] > mx ? m16[e] : mx;
        for (; k < K; k++) mx = fabsf(xr[k]) > mx ? fabsf(xr[k]) : mx;
        float inv = mx > 0.0f ? 127.0f / mx : 0.0f;
        for (k = 0; k < K; k += 16) {
            vit__vec16 v = {0};
            memcpy(&v, xr + k, (size_t)(K - k < 16 ? K - k : 16) * sizeof(float));
            v = (v * inv + 12582912.0f) - 12582912.0f; // round to nearest even (|v| <= 127)
            typedef unsigned char vit__bvec16 __attribute__((vector_size(16)));
            vit__bvec16 b = __builtin_convertvector(__builtin_convertvector(v, vit__ivec16) + offset, vit__bvec16);
            memcpy(qr + k, &b, (size_t)(K - k < 16 ? K - k : 16));
        }
#else
        for (int k = 0; k < K; k++) mx = fabsf(xr[k]) > mx ? fabsf(xr[k]) : mx;
        float inv = mx > 0.0f ? 127.0f / mx : 0.0f;
        for (int k = 0; k < K; k++) qr[k] = (unsigned char)((int)((xr[k] * inv + 12582912.0f) - 12582912.0f) + offset);
#endif
        for (int k = K; k < Kp; k++) qr[k] = (unsigned char)offset;
        scale[r] = mx / 127.0f;
    }
}

typedef struct vit__q8gemm {
    vit__gemm g;             // out, bias, scale (layer scale), mode, act; w and inp unused
    const vit__q8 *w;
    const unsigned char *qa; // (rows, Kpad) quantised rows
    const float *sa;         // (rows) their scales
    int offset;              // added to the rows' bytes (128 for VNNI)
} vit__q8gemm;

// The float sums of a tile from its integer sums acc (row stride 32), then the epilogue.
static inline void vit__q8_epilogue(const vit__q8gemm *q, int m, int n, int mr, int nr, const int *acc) {
    float out[12 * 32];
    for (int i = 0; i < mr; i++)
        for (int j = 0; j < nr; j++) {
            int s = acc[32 * i + j] - q->offset * q->w->colsum[n + j];
            out[32 * i + j] = (float)s * (q->sa[m + i] * q->w->scale[n + j]);
        }
    vit__gemm_epilogue(&q->g, m, n, mr, nr, out);
}

// A row byte as the signed value it holds (offset 0: two's complement)
static inline int vit__s8(unsigned char b) { return b < 128 ? (int)b : (int)b - 256; }

static void vit__q8_tile_generic(const vit__q8gemm *q, int m, int mr, int n) {
    int Kp = vit__pad4(q->w->K), nr = q->w->N - n < 16 ? q->w->N - n : 16;
    const signed char *wp = q->w->w + (size_t)n * Kp;
    int acc[12 * 32];
    for (int i0 = 0; i0 < mr; i0 += 12) {
        int r = mr - i0 < 12 ? mr - i0 : 12;
        for (int i = 0; i < r; i++) {
            const unsigned char *a = q->qa + (size_t)(m + i0 + i) * Kp;
            int s[16] = {0};
            for (int k = 0; k < Kp; k += 4) { // the panel in storage order: columns j, each k .. k + 3
                const signed char *wk = wp + (size_t)k * 16;
                int a0 = vit__s8(a[k]), a1 = vit__s8(a[k + 1]), a2 = vit__s8(a[k + 2]), a3 = vit__s8(a[k + 3]);
                for (int j = 0; j < 16; j++) s[j] += a0 * wk[4 * j] + a1 * wk[4 * j + 1] + a2 * wk[4 * j + 2] + a3 * wk[4 * j + 3];
            }
            memcpy(acc + 32 * i, s, sizeof(s));
        }
        vit__q8_epilogue(q, m + i0, n, r, nr, acc);
    }
}

#if defined(VIT__X86)
#define VIT__TARGET_VNNI __attribute__((target("avx512f,avx512bw,avx512vnni,avx2,fma")))
// vit__q8_epilogue's arithmetic, 16 lanes at a time: (float)(sum - 128 colsum)
// * (s_x s_w), then the float epilogue. Out of line: inlined into the tile it
// made the compiler spill the accumulators.
VIT__TARGET_VNNI __attribute__((noinline)) static void vit__q8_finish_vnni(const vit__q8gemm *q, int m, int n, int MR, int NP, int nr, const int *sums) {
    float out[12 * 32];
    __m512i off0 = _mm512_mullo_epi32(_mm512_set1_epi32(q->offset), _mm512_loadu_si512((const void *)(q->w->colsum + n)));
    __m512i off1 = NP > 1 ? _mm512_mullo_epi32(_mm512_set1_epi32(q->offset), _mm512_loadu_si512((const void *)(q->w->colsum + n + 16))) : off0;
    __m512 sw0 = _mm512_loadu_ps(q->w->scale + n), sw1 = NP > 1 ? _mm512_loadu_ps(q->w->scale + n + 16) : sw0;
    for (int i = 0; i < MR; i++) {
        __m512 sx = _mm512_set1_ps(q->sa[m + i]);
        __m512i s0 = _mm512_loadu_si512((const void *)(sums + 32 * i)), s1 = _mm512_loadu_si512((const void *)(sums + 32 * i + 16));
        _mm512_storeu_ps(out + 32 * i, _mm512_mul_ps(_mm512_maskz_cvtepi32_ps((__mmask16)-1, _mm512_sub_epi32(s0, off0)), _mm512_mul_ps(sx, sw0)));
        if (NP > 1) _mm512_storeu_ps(out + 32 * i + 16, _mm512_mul_ps(_mm512_maskz_cvtepi32_ps((__mmask16)-1, _mm512_sub_epi32(s1, off1)), _mm512_mul_ps(sx, sw1)));
    }
    vit__gemm_epilogue(&q->g, m, n, MR, nr, out);
}

VIT__TARGET_VNNI static inline __attribute__((always_inline)) void vit__q8_tile_vnni(const vit__q8gemm *q, int m, int n, const int MR, const int NP) {
    int Kp = vit__pad4(q->w->K), nr = q->w->N - n < 16 * NP ? q->w->N - n : 16 * NP;
    const unsigned char *a = q->qa + (size_t)m * Kp;
    const signed char *w0 = q->w->w + (size_t)n * Kp, *w1 = w0 + (size_t)16 * Kp;
    __m512i acc[12][2];
    for (int i = 0; i < MR; i++) acc[i][0] = acc[i][1] = _mm512_setzero_si512();
    for (int k = 0; k < Kp; k += 4) {
        __m512i b0 = _mm512_loadu_si512((const void *)(w0 + (size_t)k * 16)), b1 = NP > 1 ? _mm512_loadu_si512((const void *)(w1 + (size_t)k * 16)) : b0;
        for (int i = 0; i < MR; i++) {
            int four;
            memcpy(&four, a + (size_t)i * Kp + k, 4);
            __m512i x = _mm512_set1_epi32(four);
            acc[i][0] = _mm512_dpbusd_epi32(acc[i][0], x, b0);
            if (NP > 1) acc[i][1] = _mm512_dpbusd_epi32(acc[i][1], x, b1);
        }
    }
    int sums[12 * 32];
    for (int i = 0; i < MR; i++) {
        _mm512_storeu_si512((void *)(sums + 32 * i), acc[i][0]);
        _mm512_storeu_si512((void *)(sums + 32 * i + 16), acc[i][1]);
    }
    vit__q8_finish_vnni(q, m, n, MR, NP, nr, sums);
}

VIT__TARGET_VNNI static void vit__q8_block_vnni(const vit__q8gemm *q, int m0, int m1, int n0, int n1) {
    for (int n = n0; n < n1;) {
        int np = n1 - n > 16 ? 2 : 1;
#define VIT__TILE2(m, r) vit__q8_tile_vnni(q, m, n, r, 2)
#define VIT__TILE1(m, r) vit__q8_tile_vnni(q, m, n, r, 1)
        if (np == 2) VIT__ROWS_LOOP(m0, m1, 12, VIT__TILE2)
        else VIT__ROWS_LOOP(m0, m1, 12, VIT__TILE1)
#undef VIT__TILE2
#undef VIT__TILE1
        n += 16 * np;
    }
}
// AVX2 without VNNI: bytes widened to 16 bits (vpmovsxbw) and multiplied in
// pairs into 32-bit lanes (vpmaddwd, exact: no saturation, unlike vpmaddubsw);
// each column's two lanes are added at the end. Rows in signed bytes (offset 0).
VIT__TARGET_AVX2 static inline __attribute__((always_inline)) void vit__q8_tile_avx2(const vit__q8gemm *q, int m, int n, const int MR) {
    int Kp = vit__pad4(q->w->K), nr = q->w->N - n < 16 ? q->w->N - n : 16;
    const unsigned char *a = q->qa + (size_t)m * Kp;
    const signed char *w = q->w->w + (size_t)n * Kp;
    __m256i acc[2][4];
    for (int i = 0; i < MR; i++)
        for (int c = 0; c < 4; c++) acc[i][c] = _mm256_setzero_si256();
    for (int k = 0; k < Kp; k += 4) {
        __m256i wc[4]; // columns 4c .. 4c + 3, each k .. k + 3
        for (int c = 0; c < 4; c++) wc[c] = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(const void *)(w + (size_t)k * 16 + 16 * c)));
        for (int i = 0; i < MR; i++) {
            int four;
            memcpy(&four, a + (size_t)i * Kp + k, 4);
            __m256i x = _mm256_cvtepi8_epi16(_mm_set1_epi32(four));
            for (int c = 0; c < 4; c++) acc[i][c] = _mm256_add_epi32(acc[i][c], _mm256_madd_epi16(x, wc[c]));
        }
    }
    int sums[12 * 32];
    for (int i = 0; i < MR; i++)
        for (int c = 0; c < 4; c++) {
            int lanes[8];
            _mm256_storeu_si256((__m256i *)(void *)lanes, acc[i][c]);
            for (int j = 0; j < 4; j++) sums[32 * i + 4 * c + j] = lanes[2 * j] + lanes[2 * j + 1];
        }
    vit__q8_epilogue(q, m, n, MR, nr, sums);
}

VIT__TARGET_AVX2 static void vit__q8_block_avx2(const vit__q8gemm *q, int m0, int m1, int n0, int n1) {
#define VIT__TILE(m, r) vit__q8_tile_avx2(q, m, n, r)
    for (int n = n0; n < n1; n += 16) VIT__ROWS_LOOP(m0, m1, 2, VIT__TILE)
#undef VIT__TILE
}

// AVX-VNNI (Intel Alder Lake and later, AMD Zen 4 and later without AVX-512's
// use): vpdpbusd on 256 bits, the VNNI tile's arithmetic (rows + 128 as
// unsigned bytes, the 128 x column-sum correction in the epilogue), 6 rows x
// one 16-column panel (12 accumulators of the 16 registers).
#if defined(VIT__AVX_VNNI)
VIT__TARGET_AVX_VNNI static inline __attribute__((always_inline)) void vit__q8_tile_avx_vnni(const vit__q8gemm *q, int m, int n, const int MR) {
    int Kp = vit__pad4(q->w->K), nr = q->w->N - n < 16 ? q->w->N - n : 16;
    const unsigned char *a = q->qa + (size_t)m * Kp;
    const signed char *w = q->w->w + (size_t)n * Kp;
    __m256i acc[6][2];
    for (int i = 0; i < MR; i++) acc[i][0] = acc[i][1] = _mm256_setzero_si256();
    for (int k = 0; k < Kp; k += 4) {
        __m256i b0 = _mm256_loadu_si256((const __m256i *)(const void *)(w + (size_t)k * 16)); // columns 0-7, k .. k + 3 each
        __m256i b1 = _mm256_loadu_si256((const __m256i *)(const void *)(w + (size_t)k * 16 + 32));
        for (int i = 0; i < MR; i++) {
            int four;
            memcpy(&four, a + (size_t)i * Kp + k, 4);
            __m256i x = _mm256_set1_epi32(four);
            acc[i][0] = _mm256_dpbusd_avx_epi32(acc[i][0], x, b0);
            acc[i][1] = _mm256_dpbusd_avx_epi32(acc[i][1], x, b1);
        }
    }
    int sums[12 * 32];
    for (int i = 0; i < MR; i++) {
        _mm256_storeu_si256((__m256i *)(void *)(sums + 32 * i), acc[i][0]);
        _mm256_storeu_si256((__m256i *)(void *)(sums + 32 * i + 8), acc[i][1]);
    }
    vit__q8_epilogue(q, m, n, MR, nr, sums);
}

VIT__TARGET_AVX_VNNI static void vit__q8_block_avx_vnni(const vit__q8gemm *q, int m0, int m1, int n0, int n1) {
#define VIT__TILE(m, r) vit__q8_tile_avx_vnni(q, m, n, r)
    for (int n = n0; n < n1; n += 16) VIT__ROWS_LOOP(m0, m1, 6, VIT__TILE)
#undef VIT__TILE
}
#endif
#endif

#if defined(VIT__SDOT)
VIT__TARGET_SDOT static inline __attribute__((always_inline)) void vit__q8_tile_sdot(const vit__q8gemm *q, int m, int n, const int MR) {
    int Kp = vit__pad4(q->w->K), nr = q->w->N - n < 16 ? q->w->N - n : 16;
    const unsigned char *a = q->qa + (size_t)m * Kp;
    const signed char *w = q->w->w + (size_t)n * Kp;
    int32x4_t acc[6][4];
    for (int i = 0; i < MR; i++)
        for (int j = 0; j < 4; j++) acc[i][j] = vdupq_n_s32(0);
    for (int k = 0; k < Kp; k += 4) {
        int8x16_t b[4];
        for (int j = 0; j < 4; j++) b[j] = vld1q_s8(w + (size_t)k * 16 + 16 * j);
        for (int i = 0; i < MR; i++) {
            int four;
            memcpy(&four, a + (size_t)i * Kp + k, 4);
            int8x16_t x = vreinterpretq_s8_s32(vdupq_n_s32(four));
            for (int j = 0; j < 4; j++) acc[i][j] = vdotq_s32(acc[i][j], x, b[j]);
        }
    }
    int out[12 * 32];
    for (int i = 0; i < MR; i++)
        for (int j = 0; j < 4; j++) vst1q_s32(out + 32 * i + 4 * j, acc[i][j]);
    vit__q8_epilogue(q, m, n, MR, nr, out);
}

VIT__TARGET_SDOT static void vit__q8_block_sdot(const vit__q8gemm *q, int m0, int m1, int n0, int n1) {
#define VIT__TILE(m, r) vit__q8_tile_sdot(q, m, n, r)
    for (int n = n0; n < n1; n += 16) VIT__ROWS_LOOP(m0, m1, 6, VIT__TILE)
#undef VIT__TILE
}
#endif

static void vit__q8_block_generic(const vit__q8gemm *q, int m0, int m1, int n0, int n1) {
    for (int n = n0; n < n1; n += 16) vit__q8_tile_generic(q, m0, m1 - m0, n);
}


// The int8 counterpart of vit__linear_packed: inp (rows, K) is quantised into
// qa/sa (rows * Kpad bytes, rows floats), then each task of vit__gemm_grid's
// blocks runs isa's tiles.
static void vit__linear_q8(float *out, const float *inp, const vit__q8 *w, const float *bias, int rows, vit__out mode, vit__act act,
                           const float *scale, unsigned char *qa, float *sa, int isa, int nthreads) {
    vit__q8gemm q;
    int N = w->N, Kp = vit__pad4(w->K), mb, nb;
    vit__gemm_grid(rows, N, (size_t)Kp * VIT__PANEL, (size_t)Kp, nthreads, &mb, &nb);
    int mblocks = (rows + mb - 1) / mb, nblocks = (N + nb - 1) / nb;
    q.offset = isa == VIT__ISA_AVX512 || isa == VIT__ISA_AVX_VNNI ? 128 : 0; // vpdpbusd: unsigned bytes times signed
    vit__q8_rows(qa, sa, inp, rows, w->K, q.offset, nthreads);
    q.g.out = out; q.g.inp = NULL; q.g.w = NULL; q.g.bias = bias; q.g.scale = scale; q.g.lda = 0;
    q.g.ldo = act == VIT__ACT_SWIGLU ? (size_t)N / 2 : (size_t)N;
    q.g.rows = rows; q.g.K = w->K; q.g.N = N; q.g.mode = mode; q.g.act = act;
    q.w = w; q.qa = qa; q.sa = sa;
    (void)nthreads;
    VIT__PARALLEL_FOR(nthreads)
    for (int task = 0; task < mblocks * nblocks; task++) {
        int m0 = (task % mblocks) * mb, n0 = (task / mblocks) * nb;
        int m1 = m0 + mb < rows ? m0 + mb : rows, n1 = n0 + nb < N ? n0 + nb : N;
#if defined(VIT__X86)
        if (isa == VIT__ISA_AVX512) { vit__q8_block_vnni(&q, m0, m1, n0, n1); continue; }
        if (isa == VIT__ISA_AVX2) { vit__q8_block_avx2(&q, m0, m1, n0, n1); continue; }
#if defined(VIT__AVX_VNNI)
        if (isa == VIT__ISA_AVX_VNNI) { vit__q8_block_avx_vnni(&q, m0, m1, n0, n1); continue; }
#endif
#elif defined(VIT__SDOT)
        if (isa == VIT__ISA_NEON) { vit__q8_block_sdot(&q, m0, m1, n0, n1); continue; }
#endif
        vit__q8_block_generic(&q, m0, m1, n0, n1);
    }
}

// ---- e4m3 (VIT_DTYPE_FP8): torch.float8_e4m3fn's values (no infinities,
// 0x7F/0xFF NaN, largest 448, subnormals in steps of 2^-9), rounded to nearest
// even and saturated at +-448, as torch's .to(float8_e4m3fn) and the GPU's
// cvt.rn.satfinite do. A row (a token, or a weight's output column) is scaled
// by 448 / its largest magnitude before rounding; the scale amax / 448 is
// applied to the fp32 sums (fc2's input: see vit__e4m3_bound_scale). Products of two e4m3 values are exact in fp32, so
// the packed fp32 GEMM over e4m3 values is the e4m3 GEMM with fp32 sums.
static VIT__HD inline float vit__e4m3_value(unsigned char b) {
    int e = (b >> 3) & 15, mant = b & 7;
    float v = e ? ldexpf(1.0f + (float)mant * 0.125f, e - 7) : ldexpf((float)mant, -9);
    if ((b & 0x7F) == 0x7F) v = NAN;
    return b & 0x80 ? -v : v;
}

static VIT__HD inline unsigned char vit__e4m3(float x) {
    if (x != x) return 0x7F;
    unsigned char s = signbit(x) ? 0x80 : 0;
    float a = fabsf(x);
    if (a >= 448.0f) return (unsigned char)(s | 0x7E);
    if (a < 0.015625f) return (unsigned char)(s | (unsigned char)rintf(a * 512.0f)); // subnormal (8: the smallest normal)
    int e;
    frexpf(a, &e); // a = f 2^e, f in [0.5, 1): 2^(e-1) <= a < 2^e
    int m8 = (int)rintf(ldexpf(a, 4 - e)); // a / 2^(e-1) in [1, 2) in eighths: 8-16 (16 carries into the exponent)
    return (unsigned char)(s | (((e + 6) << 3) + (m8 - 8)));
}

// x rounded to e4m3 at scale s: vit__e4m3_value(vit__e4m3(x * inv_s)) (the same bits
// for every float; test_ops_cpu checks), without the exponent arithmetic: a normal
// value keeps 3 mantissa bits, rounded to nearest even on the bits themselves.
static VIT__HD inline float vit__e4m3_round(float x, float inv_s) {
    float v = x * inv_s, a = fabsf(v), r;
    if (!(a < 448.0f)) r = a == a ? 448.0f : a; // saturated; NaN stays NaN
    else if (a < 0.015625f) r = rintf(a * 512.0f) * (1.0f / 512.0f); // subnormal: steps of 2^-9
    else {
        uint32_t u;
        memcpy(&u, &a, 4);
        u = (u + 0x7FFFFu + ((u >> 20) & 1u)) & ~0xFFFFFu;
        memcpy(&r, &u, 4);
    }
    return copysignf(r, v);
}

// Rows of x (rows, K) to e4m3 values in q (may be x), each row's scale
// (max |x| / 448; 1 for a zero row) into scale. blocks: each row's runs of
// 128 columns scaled on their own (the last may be shorter), scale (rows,
// ceil(K / 128)): fc2's input after SwiGLU (DeepSeek-V3's 1 x 128 activation
// tiles).
static void vit__e4m3_rows(float *q, float *scale, const float *x, int rows, int K, int blocks, int nthreads) {
    int G = blocks ? 128 : K, ng = (K + G - 1) / G;
    (void)nthreads;
    VIT__PARALLEL_FOR(nthreads)
    for (int r = 0; r < rows; r++)
        for (int gi = 0; gi < ng; gi++) {
            const float *xr = x + (size_t)r * K + (size_t)gi * G;
            int n = K - gi * G < G ? K - gi * G : G;
            float mx = 0.0f;
            for (int k = 0; k < n; k++) mx = fabsf(xr[k]) > mx ? fabsf(xr[k]) : mx;
            float inv = mx > 0.0f ? 448.0f / mx : 1.0f;
            for (int k = 0; k < n; k++) q[(size_t)r * K + (size_t)gi * G + k] = vit__e4m3_round(xr[k], inv);
            scale[(size_t)r * ng + gi] = mx > 0.0f ? mx / 448.0f : 1.0f;
        }
}

// A weight w (K, N) to e4m3 values in place, each output column's scale into scale (N).
static void vit__e4m3_cols(float *w, float *scale, int K, int N) {
    for (int n = 0; n < N; n++) {
        float mx = 0.0f;
        for (int k = 0; k < K; k++) mx = fabsf(w[(size_t)k * N + n]) > mx ? fabsf(w[(size_t)k * N + n]) : mx;
        float inv = mx > 0.0f ? 448.0f / mx : 1.0f;
        for (int k = 0; k < K; k++) w[(size_t)k * N + n] = vit__e4m3_round(w[(size_t)k * N + n], inv);
        scale[n] = mx > 0.0f ? mx / 448.0f : 1.0f;
    }
}

// fc2's input where fc1's epilogue rounds it (any activation but SwiGLU): one
// scale per row, from a bound on the row instead of its largest value, which
// no tile of fc1 sees whole. Output j of row r is the dot product of the
// e4m3 input row (its values times its scale: norm n) with weight column j
// (norm at most wn), plus a bias of at most bb in magnitude: |y| <= n wn + bb
// (Cauchy-Schwarz). 1/32 more covers the sums' rounding (Hopper adds e4m3
// products with ~14 bits), +0.25 the activations (GELU, tanh GELU and
// QuickGELU go at most 0.17 below zero). The scale is the power of two at or
// above bound / 448: no value saturates, and dividing by it is exact. e4m3's
// precision is relative, so values in its normal range keep their 3 bits
// however loose the bound; only values below 2^-6 of it go subnormal.
static VIT__HD inline float vit__e4m3_bound_scale(float n, float wn, float bb) {
    float t = fmaf(n * wn, 1.03125f, bb + 0.25f) / 448.0f;
    if (!(t <= 0x1p126f)) return t == t ? 0x1p126f : 1.0f; // (NaN: scale 1, the NaNs go through)
    uint32_t u;
    memcpy(&u, &t, 4);
    if (u & 0x7FFFFFu) u = (u & 0x7F800000u) + 0x800000u; // up to the next power of two (t >= 0.25 / 448: normal)
    memcpy(&t, &u, 4);
    return t;
}

// The row norm vit__e4m3_bound_scale takes: scale s times the 2-norm of the
// row's e4m3 values q (K of them), as the GEMM sees it.
static float vit__e4m3_row_norm(const float *q, int K, float s) {
    float ss = 0.0f;
    for (int k = 0; k < K; k++) ss = fmaf(q[k], q[k], ss);
    return s * sqrtf(ss);
}

// v rounded up to a float
static float vit__f32_up(double v) {
    float f = (float)v;
    return (double)f < v ? nextafterf(f, INFINITY) : f;
}

// The largest norm of a weight's columns as the GEMM sees them: sw[n] times
// the 2-norm of column n of wq (K, N), the e4m3 values of vit__e4m3_cols
// (summed in double in k order, as the GPU's loader sums its bytes).
static float vit__e4m3_bound_w(const float *wq, const float *sw, int K, int N) {
    double best = 0.0;
    for (int n = 0; n < N; n++) {
        double ss = 0.0;
        for (int k = 0; k < K; k++) ss += (double)wq[(size_t)k * N + n] * wq[(size_t)k * N + n];
        double v = (double)sw[n] * sqrt(ss);
        if (v > best) best = v;
    }
    return vit__f32_up(best);
}

// The largest |b[j]| of n (0 for no bias)
static float vit__abs_max(const float *b, size_t n) {
    float mx = 0.0f;
    for (size_t i = 0; b && i < n; i++) mx = fabsf(b[i]) > mx ? fabsf(b[i]) : mx;
    return mx;
}

// The e4m3 linear's epilogue: acc (rows, N) sums of e4m3 products, then
// fmaf(acc, sx sw, bias) (sx NULL: 1), the activation and the store or residual add.
static void vit__e4m3_epilogue(float *out, const float *acc, const float *sx, const float *sw, const float *bias, int rows, int N,
                               vit__out mode, vit__act act, const float *scale, int nthreads) {
    size_t ldo = act == VIT__ACT_SWIGLU ? (size_t)N / 2 : (size_t)N;
    (void)nthreads;
    VIT__PARALLEL_FOR(nthreads)
    for (int r = 0; r < rows; r++)
        for (int n = 0; n < N; n += 2) {
            int w = N - n < 2 ? 1 : 2, oc = act == VIT__ACT_SWIGLU ? n / 2 : n;
            float v[2] = {0.0f, 0.0f};
            for (int j = 0; j < w; j++) v[j] = fmaf(acc[(size_t)r * N + n + j], (sx ? sx[r] : 1.0f) * sw[n + j], bias ? bias[n + j] : 0.0f);
            int cnt = vit__epi_apply(act, 0, v);
            for (int j = 0; j < cnt && j < w; j++) {
                float *o = out + (size_t)r * ldo + oc + j;
                *o = mode == VIT__OUT_RESIDUAL ? vit__epi_residual(*o, scale ? scale[oc + j] : 1.0f, v[j]) : v[j];
            }
        }
}

// The linear layers of the forward pass: isa VIT__ISA_REFERENCE reads weights
// as (K, N) through vit__linear_cpu (the op references the tests call),
// any other value packed weights through that ISA's microkernels.
#define VIT__ISA_REFERENCE (-1)
static void vit__linear_run(float *out, const float *inp, const float *weight, const float *bias, int rows, int in_dim, int out_dim,
                            vit__out mode, vit__act act, const float *scale, int isa, int nthreads) {
    if (isa == VIT__ISA_REFERENCE) vit__linear_cpu(out, inp, weight, bias, rows, in_dim, out_dim, mode, act, scale, nthreads);
    else vit__linear_packed(out, inp, weight, bias, rows, in_dim, out_dim, mode, act, scale, isa, nthreads);
}

// >>op patch_embed -- CPU reference: vit__patch_embed_cpu
// Patch embedding on the CPU: the unfolded patches' GEMM, then the prefix
// tokens and position rows that make the token rows x.

// Unfolds images (B, Cin, Hs, Ws) into patches (B * (Hs/P)(Ws/P), Cin*P*P), rows
// in raster order, columns in the conv weight's (c, ky, kx) order.
static void vit__im2col(float *VIT__RESTRICT patches, const float *VIT__RESTRICT images, int B, int Cin, int Hs, int Ws, int P, int nthreads) {
    int GH = Hs / P, GW = Ws / P;
    size_t CPP = (size_t)Cin * P * P;
    (void)nthreads; // unused without OpenMP
    VIT__PARALLEL_FOR(nthreads)
    for (int row = 0; row < B * GH * GW; row++) {
        int b = row / (GH * GW), gy = (row / GW) % GH, gx = row % GW;
        float *dst = patches + (size_t)row * CPP;
        for (int c = 0; c < Cin; c++)
            for (int ky = 0; ky < P; ky++) {
                const float *src = images + (((size_t)b * Cin + c) * Hs + (size_t)gy * P + ky) * Ws + (size_t)gx * P;
                memcpy(dst + ((size_t)c * P + ky) * P, src, (size_t)P * sizeof(float));
            }
    }
}

// Patch embedding: patch tokens (B*GH*GW, C) = im2col(images) @ patch_w + patch_b.
// scratch holds (B*GH*GW, Cin*P*P) floats.
static void vit__patch_embed_cpu(float *tokens, const float *images, const float *patch_w, const float *patch_b,
                                 int B, int Cin, int Hs, int Ws, int P, int C, float *scratch, int isa, int nthreads) {
    vit__im2col(scratch, images, B, Cin, Hs, Ws, P, nthreads);
    vit__linear_run(tokens, scratch, patch_w, patch_b, B * (Hs / P) * (Ws / P), Cin * P * P, C, VIT__OUT_STORE, VIT__ACT_NONE, NULL, isa, nthreads);
}

// The token rows after the patch embedding (the fused part of the GPU's
// patch_embed): x (B, P + GG, C) = [prefix (P, C) | tokens of image b (GG, C)]
// + pos. pos has GG + P rows when pos_prefix (it covers the prefix tokens,
// timm's no_embed_class=False), else GG (the prefix tokens get none). P may
// be 0 (no prefix tokens, prefix NULL).
static void vit__place_tokens(float *x, const float *tokens, const float *prefix, int P, const float *pos, int pos_prefix, int B, int GG, int C) {
    size_t NC = (size_t)(P + GG) * C, PC = (size_t)P * C, TC = (size_t)GG * C;
    const float *pp = pos_prefix ? pos : NULL, *pt = pos + (pos_prefix ? PC : 0);
    for (int b = 0; b < B; b++) {
        float *xb = x + (size_t)b * NC;
        for (size_t i = 0; i < PC; i++) xb[i] = prefix[i] + (pp ? pp[i] : 0.0f);
        const float *tok = tokens + (size_t)b * TC;
        for (size_t i = 0; i < TC; i++) xb[PC + i] = tok[i] + pt[i];
    }
}

// >>op layernorm -- CPU reference: vit__layernorm_cpu
// LayerNorm over token rows on the CPU.

// out (rows, C) = LayerNorm(inp) * w + b, rows inp + r*stride. In place allowed.
// Parallel over rows; two passes (mean, then centred variance) per row.
static void vit__layernorm_cpu(float *out, const float *inp, const float *w, const float *b, int rows, int C, size_t stride, float eps, int nthreads) {
    (void)nthreads;
    VIT__PARALLEL_FOR(nthreads)
    for (int r = 0; r < rows; r++) {
        const float *x = inp + (size_t)r * stride;
        float *y = out + (size_t)r * stride;
        float sum = 0.0f, var = 0.0f;
        int c0 = 0;
#if defined(VIT__VEC_GELU)
        // 16 running sums (lane j: columns j, j + 16, ...), then added in lane order: one dependency chain per lane, not per row
        vit__vec16 s16 = {0}, v16 = {0}, x16;
        for (; c0 + 16 <= C; c0 += 16) { memcpy(&x16, x + c0, sizeof(x16)); s16 += x16; }
        for (int j = 0; j < 16; j++) sum += s16[j];
#endif
        for (int c = c0; c < C; c++) sum += x[c];
        float mean = sum / (float)C;
#if defined(VIT__VEC_GELU)
        for (int c = 0; c < c0; c += 16) { memcpy(&x16, x + c, sizeof(x16)); x16 -= mean; v16 += x16 * x16; }
        for (int j = 0; j < 16; j++) var += v16[j];
#endif
        for (int c = c0; c < C; c++) { float d = x[c] - mean; var += d * d; }
        float rstd = 1.0f / sqrtf(var / (float)C + eps);
        for (int c = 0; c < C; c++) y[c] = (x[c] - mean) * rstd * w[c] + b[c];
    }
}

// >>op qk_norm -- CPU reference: vit__qk_norm_cpu
// The per-head LayerNorm of q and k (qk-norm) on the CPU.

// qk-norm: LayerNorm over each head's D columns of q (weights qw, qb) and of
// k (kw, kb), in place in qkv (rows, 3C) laid out [q | k | v]. The weights
// (D) are shared by the heads.
static void vit__qk_norm_cpu(float *qkv, const float *qw, const float *qb, const float *kw, const float *kb, int rows, int C, int H, float eps, int nthreads) {
    int D = C / H;
    for (int h = 0; h < H; h++) {
        vit__layernorm_cpu(qkv + (size_t)h * D, qkv + (size_t)h * D, qw, qb, rows, D, 3 * (size_t)C, eps, nthreads);
        vit__layernorm_cpu(qkv + C + (size_t)h * D, qkv + C + (size_t)h * D, kw, kb, rows, D, 3 * (size_t)C, eps, nthreads);
    }
}

// >>op attention -- CPU reference: vit__attention_cpu
// Multi-head attention on the CPU: the reference, and the forward pass's
// version on the packed GEMM tiles.

// What one attention reads and writes: for each image b and head h,
// out = softmax(q k^T / sqrt(D)) v over Nq queries and Nk keys/values. Row i of
// image b's q starts at q + b * bsq + i * ldq (likewise k and v with bsk and
// ldk, out with bso and ldo); head h's D columns start at h * D in every row.
// bsq 0: the same queries for every image (an attention-pooling head's
// latents). The pointers are float on the CPU, the compute dtype on the GPU.
typedef struct vit__attn_args {
    void *out;
    const void *q, *k, *v;
    size_t ldo, ldq, ldk;  // row strides (elements); v has k's
    size_t bso, bsq, bsk;  // image strides (elements)
    int B, Nq, Nk, H, D;
    int causal;            // 1: query i attends to keys 0..i only (a text tower's mask; Nq == Nk)
} vit__attn_args;

// Self-attention over packed qkv (B, N, 3C) laid out [q | k | v], each (H, D),
// into out (B, N, C).
static vit__attn_args vit__attn_self(void *out, const void *qkv, int B, int N, int C, int H, size_t esize) {
    vit__attn_args a;
    a.out = out;
    a.q = qkv;
    a.k = (const char *)qkv + (size_t)C * esize;
    a.v = (const char *)qkv + 2 * (size_t)C * esize;
    a.ldo = (size_t)C; a.ldq = a.ldk = 3 * (size_t)C;
    a.bso = (size_t)N * C; a.bsq = a.bsk = (size_t)N * 3 * C;
    VIT_ASSERT(H > 0 && C % H == 0);
    a.B = B; a.Nq = a.Nk = N; a.H = H; a.D = C / H;
    a.causal = 0;
    return a;
}

// Parallel over (b, h); each task transposes K once (kt: D x Nk), then for
// blocks of MB query rows computes the scores S = q kt and out = softmax(S) v
// with the linear tiles. scratch: threads * (MB*Nk + D*Nk) floats.
#if defined(__GNUC__) || defined(__clang__)
__attribute__((unused)) // the reference of the kernels' tests; the forward pass runs vit__attention_fast
#endif
static void vit__attention_cpu(const vit__attn_args *a, float *scratch, int nthreads) {
    int D = a->D, H = a->H, Nq = a->Nq, N = a->Nk;
    float scale = 1.0f / sqrtf((float)D);
    size_t per_thread = (size_t)VIT__MB * N + (size_t)D * N;
    (void)nthreads;
    VIT__PARALLEL_FOR_DYNAMIC(nthreads)
    for (int task = 0; task < a->B * H; task++) {
        int b = task / H, h = task % H;
        float *S = scratch + (size_t)VIT__THREAD_ID() * per_thread, *kt = S + (size_t)VIT__MB * N;
        const float *q = (const float *)a->q + (size_t)b * a->bsq + (size_t)h * D;
        const float *k = (const float *)a->k + (size_t)b * a->bsk + (size_t)h * D;
        const float *v = (const float *)a->v + (size_t)b * a->bsk + (size_t)h * D;
        for (int j = 0; j < N; j++)
            for (int d = 0; d < D; d++) kt[(size_t)d * N + j] = k[(size_t)j * a->ldk + d];
        for (int i0 = 0; i0 < Nq; i0 += VIT__MB) {
            int rows = Nq - i0 < VIT__MB ? Nq - i0 : VIT__MB;
            for (int n = 0; n < N; n += VIT__NR)
                vit__linear_tile(S + n, (size_t)N, q + (size_t)i0 * a->ldq, a->ldq, kt + n, (size_t)N, D, rows, N - n < VIT__NR ? N - n : VIT__NR, NULL,
                                 VIT__OUT_STORE, VIT__ACT_NONE, NULL);
            for (int i = 0; i < rows; i++) {
                float *row = S + (size_t)i * N, mx = row[0], sum = 0.0f;
                int keys = a->causal ? i0 + i + 1 : N; // the causal mask: keys after the query weigh 0
                for (int j = 1; j < keys; j++) mx = row[j] > mx ? row[j] : mx;
                for (int j = 0; j < keys; j++) { row[j] = expf((row[j] - mx) * scale); sum += row[j]; }
                float inv = 1.0f / sum;
                for (int j = 0; j < N; j++) row[j] = j < keys ? row[j] * inv : 0.0f;
            }
            float *o = (float *)a->out + (size_t)b * a->bso + (size_t)i0 * a->ldo + (size_t)h * D;
            for (int n = 0; n < D; n += VIT__NR)
                vit__linear_tile(o + n, a->ldo, S, (size_t)N, v + n, a->ldk, N, rows, D - n < VIT__NR ? D - n : VIT__NR, NULL, VIT__OUT_STORE,
                                 VIT__ACT_NONE, NULL);
        }
    }
}

// The attention's softmax over rows of S (rows, N), in place and unnormalised:
// e^(scale (s - max)), with 1 / the row's sum into inv. One body, compiled
// per ISA (the forward attention calls the one of its GEMM), so that a
// portable build's softmax still runs 16 lanes in one register.
static inline
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
void vit__softmax_rows(float *S, int rows, int N, float scale, float *inv) {
    for (int i = 0; i < rows; i++) {
        float *row = S + (size_t)i * N, mx = row[0], sum = 0.0f;
#if defined(VIT__VEC_GELU)
        // lane-wise max and sum over the whole 16-column chunks (16 chains, combined in lane order), then the tail
        vit__vec16 m16 = {0}, s16 = {0}, e;
        int full = N & ~15;
        for (int j = 0; j < 16; j++) m16[j] = row[0];
        for (int j = 0; j < full; j += 16) { memcpy(&e, row + j, sizeof(e)); m16 = VIT__VSEL(e > m16, e, m16); }
        for (int j = 0; j < 16; j++) mx = m16[j] > mx ? m16[j] : mx;
        for (int j = full; j < N; j++) mx = row[j] > mx ? row[j] : mx;
        for (int j = 0; j < full; j += 16) { // fixed-size copies: a variable one is a library call
            memcpy(&e, row + j, sizeof(e));
            e = (e - mx) * scale;
            vit__vexp_neg(&e);
            memcpy(row + j, &e, sizeof(e));
            s16 += e;
        }
        if (full < N) {
            e = (vit__vec16){0};
            memcpy(&e, row + full, (size_t)(N - full) * sizeof(float));
            e = (e - mx) * scale;
            vit__vexp_neg(&e);
            memcpy(row + full, &e, (size_t)(N - full) * sizeof(float));
        }
        for (int j = 0; j < 16; j++) sum += s16[j];
        for (int j = full; j < N; j++) sum += row[j];
#else
        for (int j = 1; j < N; j++) mx = row[j] > mx ? row[j] : mx;
        for (int j = 0; j < N; j++) { row[j] = expf((row[j] - mx) * scale); sum += row[j]; }
#endif
        inv[i] = 1.0f / sum;
    }
}

typedef void (*vit__softmax_fn)(float *S, int rows, int N, float scale, float *inv);
static void vit__softmax_generic(float *S, int rows, int N, float scale, float *inv) { vit__softmax_rows(S, rows, N, scale, inv); }
#if defined(VIT__X86)
VIT__TARGET_AVX512 static void vit__softmax_avx512(float *S, int rows, int N, float scale, float *inv) { vit__softmax_rows(S, rows, N, scale, inv); }
VIT__TARGET_AVX2 static void vit__softmax_avx2(float *S, int rows, int N, float scale, float *inv) { vit__softmax_rows(S, rows, N, scale, inv); }
#endif
static vit__softmax_fn vit__softmax_for(int isa) {
#if defined(VIT__X86)
    if (isa == VIT__ISA_AVX512) return vit__softmax_avx512;
    if (isa == VIT__ISA_AVX2) return vit__softmax_avx2;
#endif
    (void)isa;
    return vit__softmax_generic;
}

// The forward pass's attention: vit__attention_cpu's tasks and sums, with K^T
// and V packed per task into panels for the GEMM tiles of isa (the bits of
// vit__attention_cpu's products), the softmax's exponentials by vit__vexp_neg
// (a few ulp from expf). scratch: threads * (MB Nk + 2 D Nk) floats.
static void vit__attention_fast(const vit__attn_args *a, float *scratch, int isa, int nthreads) {
    int D = a->D, H = a->H, Nq = a->Nq, N = a->Nk;
    float scale = 1.0f / sqrtf((float)D);
    size_t per_thread = (size_t)VIT__MB * N + 2 * (size_t)D * N;
    vit__gemm_block_fn block = vit__gemm_block_for(isa);
    vit__softmax_fn softmax = vit__softmax_for(isa);
    (void)nthreads;
    VIT__PARALLEL_FOR_DYNAMIC(nthreads)
    for (int task = 0; task < a->B * H; task++) {
        int b = task / H, h = task % H;
        float *S = scratch + (size_t)VIT__THREAD_ID() * per_thread, *kt = S + (size_t)VIT__MB * N, *vp = kt + (size_t)D * N;
        const float *q = (const float *)a->q + (size_t)b * a->bsq + (size_t)h * D;
        const float *k = (const float *)a->k + (size_t)b * a->bsk + (size_t)h * D;
        const float *v = (const float *)a->v + (size_t)b * a->bsk + (size_t)h * D;
        for (int n0 = 0; n0 < N; n0 += VIT__PANEL) { // K^T (D, N) in panels of 16 keys
            int pw = N - n0 < VIT__PANEL ? N - n0 : VIT__PANEL;
            for (int j = 0; j < pw; j++) // each key's row read once, in order
                for (int d = 0; d < D; d++) kt[(size_t)n0 * D + (size_t)d * pw + j] = k[(size_t)(n0 + j) * a->ldk + d];
        }
        for (int d0 = 0; d0 < D; d0 += VIT__PANEL) { // V (N, D) in panels of 16 of the head's columns
            int pw = D - d0 < VIT__PANEL ? D - d0 : VIT__PANEL;
            if (pw == VIT__PANEL)
                for (int n = 0; n < N; n++) memcpy(vp + (size_t)d0 * N + (size_t)n * VIT__PANEL, v + (size_t)n * a->ldk + d0, VIT__PANEL * sizeof(float));
            else
                for (int n = 0; n < N; n++) memcpy(vp + (size_t)d0 * N + (size_t)n * pw, v + (size_t)n * a->ldk + d0, (size_t)pw * sizeof(float));
        }
        vit__gemm g;
        memset(&g, 0, sizeof(g));
        g.mode = VIT__OUT_STORE; g.act = VIT__ACT_NONE;
        for (int i0 = 0; i0 < Nq; i0 += VIT__MB) {
            int rows = Nq - i0 < VIT__MB ? Nq - i0 : VIT__MB;
            g.out = S; g.ldo = (size_t)N; g.inp = q + (size_t)i0 * a->ldq; g.lda = a->ldq; g.w = kt; g.rows = rows; g.K = D; g.N = N;
            block(&g, 0, rows, 0, N);
            float inv[VIT__MB] = {0}; // the rows' 1 / sum, applied to the outputs (D wide) rather than to the weights (N wide)
            if (a->causal) // the mask: keys after the query at -inf, so e^(s - max) is 0 there (exactly, below)
                for (int i = 0; i < rows; i++)
                    for (int j = i0 + i + 1; j < N; j++) S[(size_t)i * N + j] = -INFINITY;
            softmax(S, rows, N, scale, inv);
            if (a->causal) // (vit__vexp_neg clamps at e^-87: the masked weights to 0 exactly; the sums are unchanged in float)
                for (int i = 0; i < rows; i++)
                    for (int j = i0 + i + 1; j < N; j++) S[(size_t)i * N + j] = 0.0f;
            float *o = (float *)a->out + (size_t)b * a->bso + (size_t)i0 * a->ldo + (size_t)h * D;
            g.out = o; g.ldo = a->ldo;
            g.inp = S; g.lda = (size_t)N; g.w = vp; g.K = N; g.N = D;
            block(&g, 0, rows, 0, D);
            for (int i = 0; i < rows; i++)
                for (int d = 0; d < D; d++) o[(size_t)i * a->ldo + d] *= inv[i];
        }
    }
}

// >>op pool -- CPU reference: vit__pool_cpu
// Pooling of the final tokens into one vector per image (and head) on the CPU.

// pooled (heads, B, C) = [fc_norm](pool(x)), x (B, N, C) after the final norm.
// VIT_POOL_TOKEN: plane h holds prefix token h of every image (one plane per
// head: the class token, then the distillation token); VIT_POOL_AVG (heads 1):
// the mean of the tokens after the prefix tokens. With heads > 1 a further
// plane holds the planes' mean (what vit_embed returns, as timm's pre_logits).
static void vit__pool_cpu(float *pooled, const float *x, int B, int N, int C, vit_pool pool, int prefix, int heads,
                          const float *fc_norm_w, const float *fc_norm_b, float eps, int nthreads) {
    size_t BC = (size_t)B * C;
    VIT_ASSERT(heads >= 1 && (heads == 1 || (pool == VIT_POOL_TOKEN && heads <= prefix)));
    (void)nthreads;
    VIT__PARALLEL_FOR(nthreads)
    for (int b = 0; b < B; b++) {
        float *p = pooled + (size_t)b * C;
        const float *xb = x + (size_t)b * N * C;
        if (pool == VIT_POOL_TOKEN) {
            for (int h = 0; h < heads; h++) memcpy(p + h * BC, xb + (size_t)h * C, (size_t)C * sizeof(float));
        } else {
            for (int c = 0; c < C; c++) p[c] = 0.0f;
            for (int t = prefix; t < N; t++)
                for (int c = 0; c < C; c++) p[c] += xb[(size_t)t * C + c];
            float inv = 1.0f / (float)(N - prefix);
            for (int c = 0; c < C; c++) p[c] *= inv;
        }
    }
    if (fc_norm_w) vit__layernorm_cpu(pooled, pooled, fc_norm_w, fc_norm_b, heads * B, C, (size_t)C, eps, nthreads);
    if (heads > 1) {
        float *mean = pooled + (size_t)heads * BC, inv = 1.0f / (float)heads;
        for (size_t i = 0; i < BC; i++) {
            float s = pooled[i];
            for (int h = 1; h < heads; h++) s += pooled[(size_t)h * BC + i];
            mean[i] = s * inv;
        }
    }
}

// >>op head -- CPU reference: vit__head_cpu
// The classifier head on the CPU; after it, attention pooling and
// vit__forward_host, the CPU forward pass that runs these ops in order.

// logits (B, K) = the mean over heads h of pooled plane h (B, C) @ head_w[h]
// (C, K) + head_b[h] (K): one head, or (DeiT distilled) the class token's and
// the distillation token's. head_w is (heads, C, K), head_b (heads, K).
static void vit__head_cpu(float *logits, const float *pooled, const float *head_w, const float *head_b, int B, int C, int K, int heads, int isa,
                         int nthreads) {
    size_t BC = (size_t)B * C, CK = (size_t)C * K;
    vit__linear_run(logits, pooled, head_w, head_b, B, C, K, VIT__OUT_STORE, VIT__ACT_NONE, NULL, isa, nthreads);
    for (int h = 1; h < heads; h++) // in head order, each added once: (l0 + l1) / 2 as timm
        vit__linear_run(logits, pooled + h * BC, head_w + h * CK, head_b + (size_t)h * K, B, C, K, VIT__OUT_RESIDUAL, VIT__ACT_NONE, NULL, isa,
                        nthreads);
    if (heads > 1)
        for (size_t i = 0; i < (size_t)B * K; i++) logits[i] *= 1.0f / (float)heads;
}

// Attention pooling (composed of the ops above; vit__map_pool_cuda on the GPU)
// of x (B, N, C), final-normed, into pooled (B, C): the
// first latent's query (m->map.q) attends over every token; then
// pooled = proj(attn) + mlp(norm(proj(attn))). big holds the keys/values and
// the MLP hidden, xn and attn one row per image.
static void vit__map_pool(vit_model *m, int B) {
    const vit_config *c = &m->cfg;
    const vit__map *p = &m->map;
    int C = c->dim, N = c->num_tokens, nt = m->num_threads, isa = m->cpu_isa;
    vit__linear_run(m->big, m->x, p->kv_w, p->kv_b, B * N, C, 2 * C, VIT__OUT_STORE, VIT__ACT_NONE, NULL, isa, nt);
    vit__attn_args a;
    a.out = m->attn; a.q = p->q; a.k = m->big; a.v = m->big + C;
    a.ldo = a.ldq = (size_t)C; a.ldk = 2 * (size_t)C;
    a.bso = (size_t)C; a.bsq = 0; a.bsk = (size_t)N * 2 * C;
    a.B = B; a.Nq = 1; a.Nk = N; a.H = c->num_heads; a.D = C / c->num_heads;
    a.causal = 0;
    vit__attention_fast(&a, m->att_scratch, isa, nt);
    vit__linear_run(m->pooled, m->attn, p->proj_w, p->proj_b, B, C, C, VIT__OUT_STORE, VIT__ACT_NONE, NULL, isa, nt);
    vit__layernorm_cpu(m->xn, m->pooled, p->norm_w, p->norm_b, B, C, (size_t)C, c->eps, nt);
    vit__linear_run(m->big, m->xn, p->fc1_w, p->fc1_b, B, C, p->mlp_dim, VIT__OUT_STORE, m->act, NULL, isa, nt);
    vit__linear_run(m->pooled, m->big, p->fc2_w, p->fc2_b, B, p->mlp_dim, C, VIT__OUT_RESIDUAL, VIT__ACT_NONE, NULL, isa, nt);
}

// How an fp8 linear's input rows are scaled (vit__block_linear): by their
// largest value; per 128 columns (fc2's after SwiGLU, see vit__e4m3_rows); by
// the scales already in m->e4m3_sx (fc2's otherwise, vit__e4m3_bound_rows).
enum { VIT__E4M3_ROWS, VIT__E4M3_BLOCKS, VIT__E4M3_GIVEN };

// VIT_DTYPE_FP8, after fc1 (its input xq (rows, K) in e4m3 values, their
// scales in m->e4m3_sx): fc2's input scales into m->e4m3_sx, from each row's
// norm and fc1's bounds (vit__e4m3_bound_scale).
static void vit__e4m3_bound_rows(vit_model *m, const float *xq, int rows, int K, const vit__block *k) {
    VIT__PARALLEL_FOR(m->num_threads)
    for (int r = 0; r < rows; r++)
        m->e4m3_sx[r] = vit__e4m3_bound_scale(vit__e4m3_row_norm(xq + (size_t)r * K, K, m->e4m3_sx[r]), k->fc1_bw, k->fc1_bb);
}

// One of a block's four linears (q its quantised weight): int8 when the
// model is, else the packed fp32 GEMM. e4m3_in (fp8): VIT__E4M3_*.
static void vit__block_linear(vit_model *m, float *out, float *inp, const float *w, const vit__q8 *q, const float *sw, const float *bias, int rows,
                              int K, int N, vit__out mode, vit__act act, const float *scale, int e4m3_in) {
    if (m->cfg.dtype == VIT_DTYPE_INT8) {
        vit__linear_q8(out, inp, q, bias, rows, mode, act, scale, m->q8_rows, m->q8_scale, m->q8_isa, m->num_threads);
    } else if (m->cfg.dtype == VIT_DTYPE_FP8) {
        // the e4m3 reference: the input rounded in place (no linear's input is read again), exact products, fp32 sums
        // (blocks: the values times their blocks' scales first, the products then rounded once to fp32)
        int e4m3_blocks = e4m3_in == VIT__E4M3_BLOCKS;
        if (e4m3_in == VIT__E4M3_GIVEN) {
            VIT__PARALLEL_FOR(m->num_threads)
            for (int r = 0; r < rows; r++) {
                float inv = 1.0f / m->e4m3_sx[r]; // (a power of two: exact)
                for (int k = 0; k < K; k++) inp[(size_t)r * K + k] = vit__e4m3_round(inp[(size_t)r * K + k], inv);
            }
        } else {
            vit__e4m3_rows(inp, m->e4m3_sx, inp, rows, K, e4m3_blocks, m->num_threads);
        }
        if (e4m3_blocks) {
            int ng = (K + 127) / 128;
            VIT__PARALLEL_FOR(m->num_threads)
            for (int r = 0; r < rows; r++)
                for (int k = 0; k < K; k++) inp[(size_t)r * K + k] *= m->e4m3_sx[(size_t)r * ng + k / 128];
        }
        vit__linear_run(m->e4m3_acc, inp, w, NULL, rows, K, N, VIT__OUT_STORE, VIT__ACT_NONE, NULL, m->cpu_isa, m->num_threads);
        vit__e4m3_epilogue(out, m->e4m3_acc, e4m3_blocks ? NULL : m->e4m3_sx, sw, bias, rows, N, mode, act, scale, m->num_threads);
    } else {
        vit__linear_run(out, inp, w, bias, rows, K, N, mode, act, scale, m->cpu_isa, m->num_threads);
    }
}

// vit_options.residual_dtype bf16: x's n values rounded to bf16 (nearest
// even; NaN stays NaN), as the GPU's kernels store them.
static float vit__bf16_round(float v) {
    uint32_t u;
    memcpy(&u, &v, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u) return v;
    u = (u + 0x7fffu + ((u >> 16) & 1u)) & 0xffff0000u;
    memcpy(&v, &u, 4);
    return v;
}
static void vit__residual_round(const vit_model *m, float *x, size_t n) {
    if (m->cfg.residual_dtype != VIT_DTYPE_BF16) return;
    VIT__PARALLEL_FOR(m->num_threads)
    for (long long i = 0; i < (long long)n; i++) x[i] = vit__bf16_round(x[i]);
}

// A features call's output shape (vit__feat_plan): what the CPU store and
// the GPU's vit__feat_kernel write.
typedef struct vit__feat_shape {
    int C, N, P;                // width, tokens, prefix tokens of the model
    int drop_prefix, grid;
    int gh, gw;                 // the patch grid
    int n;                      // images in the call
    size_t per_block;           // values per image and block
} vit__feat_shape;

// A features call: the blocks asked for, checked (vit__feat_plan).
typedef struct vit__feat {
    int num, last;              // blocks asked for; the deepest of them
    int block[VIT_MAX_DEPTH];   // resolved to 0..depth-1, in the caller's order
    int norm, bf16;             // the final norm applied; bf16 output (async calls on CUDA)
    vit__feat_shape shape;
} vit__feat;

// Where token t of image g (of the call's n) goes in a block's n per_block
// values, and the stride of its channels there: tokens layout [n, T, C]
// (stride 1); grid [n, C, gh*gw] for the patches (stride gh*gw), then kept
// prefix tokens as [n, P, C]. 0: the token is dropped.
static VIT__HD inline int vit__feat_place(const vit__feat_shape *f, int g, int t, size_t *at, size_t *cstride) {
    size_t cells = (size_t)f->gh * f->gw;
    *cstride = 1;
    if (t < f->P && f->drop_prefix) return 0;
    if (!f->grid) *at = (size_t)g * f->per_block + (size_t)(f->drop_prefix ? t - f->P : t) * f->C;
    else if (t >= f->P) { *cstride = cells; *at = (size_t)g * f->C * cells + (size_t)(t - f->P); }
    else *at = (size_t)f->n * f->C * cells + ((size_t)g * f->P + (size_t)t) * f->C;
    return 1;
}

// The tokens of block l for the B images of a chunk (from image i0 of the
// call's): x (B, N, C) after the block, through the final norm if asked (into
// xn, free until the next block's ln1), to each slot asking for l: out + slot
// * slot_stride.
static void vit__feat_store_cpu(vit_model *m, const vit__feat *f, int l, const float *x, int B, int i0, float *out, size_t slot_stride) {
    const vit_config *c = &m->cfg;
    int C = c->dim, N = c->num_tokens;
    int asked = 0;
    for (int s = 0; s < f->num; s++) asked |= f->block[s] == l;
    if (!asked) return;
    if (f->norm && m->norm_w) {
        vit__layernorm_cpu(m->xn, x, m->norm_w, m->norm_b, B * N, C, (size_t)C, c->eps, m->num_threads);
        x = m->xn;
    }
    for (int s = 0; s < f->num; s++) {
        if (f->block[s] != l) continue;
        float *dst = out + (size_t)s * slot_stride;
        VIT__PARALLEL_FOR(m->num_threads)
        for (int r = 0; r < B * N; r++) {
            int b = r / N, t = r % N;
            size_t at, cs;
            if (!vit__feat_place(&f->shape, i0 + b, t, &at, &cs)) continue;
            float *o = dst + at;
            const float *src = x + (size_t)r * C;
            for (int k = 0; k < C; k++) o[(size_t)k * cs] = src[k];
        }
    }
}

// A text tower's input step: x (B, N, C) = the token embedding's rows of
// ids (B, N) + the position embedding (N, C). The ids are checked (vit_encode_ids).
static void vit__embed_ids(float *x, const int *ids, const float *tok_embed, const float *pos, int B, int N, int C) {
    for (int r = 0; r < B * N; r++) {
        const float *e = tok_embed + (size_t)ids[r] * C, *p = pos + (size_t)(r % N) * C;
        float *xr = x + (size_t)r * C;
        for (int k = 0; k < C; k++) xr[k] = e[k] + p[k];
    }
}

// The token a text of N ids is pooled at (transformers' CLIPTextTransformer
// and SiglipTextTransformer): the first eos_id (-1 when there is none:
// vit_encode_ids refuses that text), the first largest id (CLIP's legacy
// eos_token_id 2), or the last.
static int vit__text_pool_at(const vit_model *t, const int *ids, int N) {
    int at = 0;
    if (t->text_pool == VIT__TEXT_POOL_LAST) return N - 1;
    if (t->text_pool == VIT__TEXT_POOL_ARGMAX) {
        for (int i = 1; i < N; i++) at = ids[i] > ids[at] ? i : at;
        return at;
    }
    for (int i = 0; i < N; i++)
        if (ids[i] == t->eos_id) return i;
    return -1;
}

// Runs B <= max_batch images (or, on a text tower, B texts of N token ids)
// to m->pooled (heads, B, C); with f (a features call, these images from its
// image i0), blocks 0..f->last only, each asked-for block's tokens to fout
// (see vit__feat_store_cpu). The input step (patches or token ids) and the
// pooling step are the model's choices; the blocks are the same code.
static void vit__forward_host(vit_model *m, const float *images, const int *ids, int B, const vit__feat *f, float *fout, size_t slot_stride, int i0) {
    const vit_config *c = &m->cfg;
    int C = c->dim, N = c->num_tokens, nt = m->num_threads, H = c->num_heads, isa = m->cpu_isa;
    int P = m->num_prefix, M = c->mlp_dim, GG = N - P;
    size_t NC = (size_t)N * C;
    if (ids) { // token rows + position rows
        vit__embed_ids(m->x, ids, m->tok_embed, m->pos_embed, B, N, C);
    } else { // patch tokens into xn, then x = [prefix tokens | patches + pos] (the prefix tokens' position rows are folded in at load)
        vit__patch_embed_cpu(m->xn, images, m->patch_w, m->patch_b, B, c->in_chans, c->image_height, c->image_width, c->patch_size, C, m->big, isa, nt);
        vit__place_tokens(m->x, m->xn, m->prefix, P, m->pos_embed, 0, B, GG, C);
    }
    int rows = B * N;
    if (m->pre_norm_w) vit__layernorm_cpu(m->x, m->x, m->pre_norm_w, m->pre_norm_b, rows, C, (size_t)C, c->eps, nt);
    vit__residual_round(m, m->x, (size_t)rows * C);
    vit__attn_args att = vit__attn_self(m->attn, m->big, B, N, C, H, sizeof(float));
    att.causal = m->causal;
    for (int l = 0; l < c->depth; l++) {
        const vit__block *k = &m->blocks[l];
        vit__layernorm_cpu(m->xn, m->x, k->ln1_w, k->ln1_b, rows, C, (size_t)C, c->eps, nt);
        vit__block_linear(m, m->big, m->xn, k->qkv_w, &k->qkv_q8, k->qkv_sw, k->qkv_b, rows, C, 3 * C, VIT__OUT_STORE, VIT__ACT_NONE, NULL, 0);
        if (k->qn_w) vit__qk_norm_cpu(m->big, k->qn_w, k->qn_b, k->kn_w, k->kn_b, rows, C, H, c->eps, nt);
        vit__attention_fast(&att, m->att_scratch, isa, nt);
        vit__block_linear(m, m->x, m->attn, k->proj_w, &k->proj_q8, k->proj_sw, k->proj_b, rows, C, C, VIT__OUT_RESIDUAL, VIT__ACT_NONE, k->ls1, 0);
        vit__residual_round(m, m->x, (size_t)rows * C);
        vit__layernorm_cpu(m->xn, m->x, k->ln2_w, k->ln2_b, rows, C, (size_t)C, c->eps, nt);
        vit__block_linear(m, m->big, m->xn, k->fc1_w, &k->fc1_q8, k->fc1_sw, k->fc1_b, rows, C, M, VIT__OUT_STORE, m->act, NULL, VIT__E4M3_ROWS);
        int bound = c->dtype == VIT_DTYPE_FP8 && m->act != VIT__ACT_SWIGLU; // fc2's input scales from fc1's bounds, as the GPU's fc1 epilogue
        if (bound) vit__e4m3_bound_rows(m, m->xn, rows, C, k);
        vit__block_linear(m, m->x, m->big, k->fc2_w, &k->fc2_q8, k->fc2_sw, k->fc2_b, rows, (int)vit__mlp_hidden(m), C, VIT__OUT_RESIDUAL, VIT__ACT_NONE,
                          k->ls2, bound ? VIT__E4M3_GIVEN : VIT__E4M3_BLOCKS);
        vit__residual_round(m, m->x, (size_t)rows * C);
        if (f) {
            vit__feat_store_cpu(m, f, l, m->x, B, i0, fout, slot_stride);
            if (l == f->last) return;
        }
    }
    if (ids) { // a text tower pools one token per text (vit__text_pool_at), then its final norm
        for (int b = 0; b < B; b++)
            memcpy(m->pooled + (size_t)b * C, m->x + (size_t)b * NC + (size_t)vit__text_pool_at(m, ids + (size_t)b * N, N) * C, (size_t)C * sizeof(float));
        vit__layernorm_cpu(m->pooled, m->pooled, m->norm_w, m->norm_b, B, C, (size_t)C, c->eps, nt);
        return;
    }
    if (m->norm_w) {
        if (c->pool == VIT_POOL_TOKEN) // only the pooled prefix tokens are read after the norm
            for (int h = 0; h < m->num_head; h++)
                vit__layernorm_cpu(m->x + (size_t)h * C, m->x + (size_t)h * C, m->norm_w, m->norm_b, B, C, NC, c->eps, nt);
        else
            vit__layernorm_cpu(m->x, m->x, m->norm_w, m->norm_b, rows, C, (size_t)C, c->eps, nt);
    }
    if (c->pool == VIT_POOL_MAP) vit__map_pool(m, B);
    else vit__pool_cpu(m->pooled, m->x, B, N, C, c->pool, P, m->num_head, m->fc_norm_w, m->fc_norm_b, c->eps, nt);
}

// >>cuda ----------------------------------------------------------------------
// The GPU path: vit_kernels.cuh, compiled in when nvcc builds vit.h without
// VIT_NO_CUDA.
#ifdef VIT__CUDA
#include "vit_kernels.cuh"
#endif

// >>api implementation --------------------------------------------------------
// The public calls' definitions: loading (and the CPU's packing and
// quantisation), forward and embed, and the dispatch to the CPU or the GPU.

VITDEF void vit_free(vit_model *m) {
    if (!m) return;
    vit_allocator a = m->alloc;
#ifdef VIT__CUDA
    vit__cuda_free(m);
#endif
    vit__free(&a, m->weights);
    vit__free(&a, m->q8_store);
    vit__free(&a, m->e4m3_store);
    vit__free(&a, m->scratch);
    vit__free(&a, m->blocks);
    vit__free(&a, m->labels);
    vit__free(&a, m->label_text);
    vit_free(m->text);
    vit__free(&a, m);
}

VITDEF const vit_config *vit_model_config(const vit_model *m) {
    return m ? &m->cfg : NULL;
}

VITDEF const char *vit_label(const vit_model *m, int i) {
    if (!m || i < 0 || i >= m->cfg.num_classes) return "";
    if (m->labels) return m->labels[i];
    return "";
}

VITDEF vit_status vit_clone_preprocessor(const vit_model *m, vit_model **out) {
    if (!out) return VIT_ERROR_INVALID_ARGUMENT;
    *out = NULL;
    if (!m) return VIT_ERROR_INVALID_ARGUMENT;
    vit_model *p = (vit_model *)vit__malloc(&m->alloc, sizeof(vit_model));
    if (!p) return vit__fail(vit__load_error, VIT_ERROR_OUT_OF_MEMORY, "out of memory for a preprocessor");
    memset(p, 0, sizeof(*p));
    p->alloc = m->alloc;
    p->cfg = m->cfg;
    p->cfg.device = VIT_DEVICE_CPU;
    p->cfg.dtype = VIT_DTYPE_F32;
    p->max_batch = 1;
    p->num_threads = 1;
    p->preprocess_only = 1;
    *out = p;
    return VIT_OK;
}

// Sizes the activation arena for B = max_batch images.
static vit_status vit__alloc_scratch(vit_model *m, char *err) {
    const vit_config *c = &m->cfg;
    size_t B = (size_t)m->max_batch, N = (size_t)c->num_tokens, C = (size_t)c->dim, D = C / (size_t)c->num_heads;
    size_t wide = 3 * C, CPP = (size_t)c->in_chans * c->patch_size * c->patch_size;
    if ((size_t)c->mlp_dim > wide) wide = (size_t)c->mlp_dim;
    if (CPP > wide) wide = CPP;
    if ((size_t)m->map.mlp_dim > wide) wide = (size_t)m->map.mlp_dim; // (B rows only, < B N)
    size_t BNC, BNW, att, total;
    if (!vit__mul3(B, N, C, &BNC) || !vit__mul3(B, N, wide, &BNW) || !vit__mul((size_t)m->num_threads, (VIT__MB + 2 * D) * N, &att) ||
        BNC > SIZE_MAX / 4 || (total = 3 * BNC + BNW) < BNW || (total += att) < att || (total += (size_t)(m->num_head + (m->num_head > 1)) * B * C + 64) < 64 ||
        total > SIZE_MAX / sizeof(float))
        return vit__fail(err, VIT_ERROR_LIMIT, "activation buffers for max_batch %d overflow", m->max_batch);
    m->scratch = (float *)vit__malloc(&m->alloc, total * sizeof(float));
    if (!m->scratch) return vit__fail(err, VIT_ERROR_OUT_OF_MEMORY, "out of memory for %zu bytes of activations (max_batch %d)", total * sizeof(float), m->max_batch);
    m->x = m->scratch;
    m->xn = m->x + BNC;
    m->attn = m->xn + BNC;
    m->big = m->attn + BNC;
    m->att_scratch = m->big + BNW;
    m->pooled = m->att_scratch + att;
    return VIT_OK;
}

typedef struct vit__bytes {
    const char *data;
    size_t size;
} vit__bytes;

// VIT_DTYPE_INT8: the blocks' four linears quantised (vit__q8_make, from the
// (K, N) weights, before vit__pack_cpu) and the buffers of the quantised rows,
// in one allocation.
static vit_status vit__quantize_cpu(vit_model *m, char *err) {
    const vit_config *c = &m->cfg;
    int C = c->dim, M = c->mlp_dim, H = (int)vit__mlp_hidden(m), widest = C > H ? C : H;
    size_t per_block = vit__q8_bytes(C, 3 * C) + vit__q8_bytes(C, C) + vit__q8_bytes(C, M) + vit__q8_bytes(H, C), rows, total;
    if (!vit__mul((size_t)m->max_batch, (size_t)c->num_tokens, &rows) || !vit__mul(per_block, (size_t)c->depth, &total) ||
        rows > SIZE_MAX / 8 / (size_t)vit__pad4(widest) || (total += rows * (size_t)vit__pad4(widest) + 64 + rows * sizeof(float) + 64) < rows)
        return vit__fail(err, VIT_ERROR_LIMIT, "int8 buffers overflow");
    char *p = (char *)vit__malloc(&m->alloc, total + 64);
    if (!p) return vit__fail(err, VIT_ERROR_OUT_OF_MEMORY, "out of memory for %zu bytes of int8 weights and rows", total + 64);
    m->q8_store = p;
    p += (64 - (uintptr_t)p % 64) % 64;
    for (int l = 0; l < c->depth; l++) {
        vit__block *k = &m->blocks[l];
        k->qkv_q8 = vit__q8_make(p, k->qkv_w, C, 3 * C); p += vit__q8_bytes(C, 3 * C);
        k->proj_q8 = vit__q8_make(p, k->proj_w, C, C); p += vit__q8_bytes(C, C);
        k->fc1_q8 = vit__q8_make(p, k->fc1_w, C, M); p += vit__q8_bytes(C, M);
        k->fc2_q8 = vit__q8_make(p, k->fc2_w, H, C); p += vit__q8_bytes(H, C);
    }
    m->q8_rows = (unsigned char *)p;
    p += (rows * (size_t)vit__pad4(widest) + 63) & ~(size_t)63;
    m->q8_scale = (float *)(void *)p;
    m->q8_isa = vit__q8_isa();
    m->cfg.dtype = VIT_DTYPE_INT8;
    return VIT_OK;
}

// VIT_DTYPE_FP8 on the CPU: the blocks' four linear weights rounded to e4m3
// in place (then packed as any fp32 weight), their column scales, and the
// buffers of the e4m3 linear (vit__block_linear).
static vit_status vit__e4m3_cpu(vit_model *m, char *err) {
    const vit_config *c = &m->cfg;
    size_t C = (size_t)c->dim, M = (size_t)c->mlp_dim, H = vit__mlp_hidden(m), widest = 3 * C > M ? 3 * C : M, rows, total;
    size_t per_block = ((3 * C + 15) & ~(size_t)15) + ((C + 15) & ~(size_t)15) * 2 + ((M + 15) & ~(size_t)15);
    size_t groups = (H + 127) / 128 > 1 ? (H + 127) / 128 : 1; // e4m3_sx: fc2's input scales per row and 128 columns (after SwiGLU)
    if (!vit__mul((size_t)m->max_batch, (size_t)c->num_tokens, &rows) || !vit__mul(per_block, (size_t)c->depth, &total) ||
        rows > SIZE_MAX / 8 / widest || (total += rows * widest + rows * groups + 32) < rows)
        return vit__fail(err, VIT_ERROR_LIMIT, "fp8 buffers overflow");
    if (total > SIZE_MAX / sizeof(float)) return vit__fail(err, VIT_ERROR_LIMIT, "fp8 buffers overflow");
    float *p = (float *)vit__malloc(&m->alloc, total * sizeof(float));
    if (!p) return vit__fail(err, VIT_ERROR_OUT_OF_MEMORY, "out of memory for %zu bytes of fp8 scales and sums", total * sizeof(float));
    m->e4m3_store = p;
    for (int l = 0; l < c->depth; l++) {
        vit__block *k = &m->blocks[l];
        k->qkv_sw = p; p += (3 * C + 15) & ~(size_t)15;
        k->proj_sw = p; p += (C + 15) & ~(size_t)15;
        k->fc1_sw = p; p += (M + 15) & ~(size_t)15;
        k->fc2_sw = p; p += (C + 15) & ~(size_t)15;
        vit__e4m3_cols(k->qkv_w, k->qkv_sw, (int)C, (int)(3 * C));
        vit__e4m3_cols(k->proj_w, k->proj_sw, (int)C, (int)C);
        vit__e4m3_cols(k->fc1_w, k->fc1_sw, (int)C, (int)M);
        vit__e4m3_cols(k->fc2_w, k->fc2_sw, (int)H, (int)C);
        k->fc1_bw = vit__e4m3_bound_w(k->fc1_w, k->fc1_sw, (int)C, (int)M);
        k->fc1_bb = vit__abs_max(k->fc1_b, M);
    }
    m->e4m3_acc = p;
    m->e4m3_sx = p + rows * widest;
    m->cfg.dtype = VIT_DTYPE_FP8;
    return VIT_OK;
}

// int8 models, once quantised: the blocks' fp32 linear weights leave the
// weight store (ViT-B/16: 340 of 346 MB); the rest moves down over their gaps
// into a store of its own, laid out again without them.
static vit_status vit__drop_block_linears(vit_model *m, char *err) {
    const vit_config *c = &m->cfg;
    size_t C = (size_t)c->dim, M = (size_t)c->mlp_dim, H = vit__mlp_hidden(m);
    int has_norm = m->norm_w != NULL;
    vit__bump count = {NULL, 0};
    float *old = m->weights, *store;
    size_t old_count = m->weights_count, at = 0, used = 0;
    vit__block *before = (vit__block *)vit__malloc(&m->alloc, (size_t)c->depth * sizeof(vit__block));
    if (!before) return vit__fail(err, VIT_ERROR_OUT_OF_MEMORY, "out of memory for %d blocks", c->depth);
    memcpy(before, m->blocks, (size_t)c->depth * sizeof(vit__block));
    vit__layout(m, &count, has_norm, 0);
    store = (float *)vit__malloc(&m->alloc, (count.used ? count.used : 1) * sizeof(float));
    if (!store) {
        vit__bump place = {old, 0}; // the old layout back: the model stays as it was until vit_free
        vit__layout(m, &place, has_norm, 1);
        vit__free(&m->alloc, before);
        return vit__fail(err, VIT_ERROR_OUT_OF_MEMORY, "out of memory for %zu bytes of int8 model weights", count.used * sizeof(float));
    }
    for (int l = 0; l < c->depth; l++) { // the gaps, in store order: qkv, proj, fc1, fc2
        const float *gap[4] = {before[l].qkv_w, before[l].proj_w, before[l].fc1_w, before[l].fc2_w};
        size_t len[4] = {C * 3 * C, C * C, C * M, H * C};
        for (int g = 0; g < 4; g++) {
            size_t start = (size_t)(gap[g] - old);
            memcpy(store + used, old + at, (start - at) * sizeof(float));
            used += start - at;
            at = start + ((len[g] + 15) & ~(size_t)15);
        }
    }
    memcpy(store + used, old + at, (old_count - at) * sizeof(float));
    used += old_count - at;
    vit__bump place = {store, 0};
    vit__layout(m, &place, has_norm, 0);
    VIT_ASSERT(place.used == used && used == count.used);
    vit__free(&m->alloc, before);
    vit__free(&m->alloc, old);
    m->weights = store;
    m->weights_count = used;
    return VIT_OK;
}

// CPU models: every linear weight repacked into vit__linear_packed's panels
// for isa (the GPU reads the (K, N) layout; a GPU model is never packed).
static vit_status vit__pack_cpu(vit_model *m, int isa, char *err) {
    const vit_config *c = &m->cfg;
    size_t C = (size_t)c->dim, M = (size_t)c->mlp_dim, H = vit__mlp_hidden(m), K = (size_t)c->num_classes;
    size_t biggest = C * (3 * C > M ? 3 * C : M), patch = (size_t)c->in_chans * c->patch_size * c->patch_size * C;
    if (patch > biggest) biggest = patch;
    if (m->head_w && C * K > biggest) biggest = C * K;
    if (m->map.kv_w && C * (size_t)m->map.mlp_dim > biggest) biggest = C * (size_t)m->map.mlp_dim;
    float *tmp = (float *)vit__malloc(&m->alloc, biggest * sizeof(float));
    if (!tmp) return vit__fail(err, VIT_ERROR_OUT_OF_MEMORY, "out of memory for %zu bytes repacking the weights", biggest * sizeof(float));
    if (m->patch_w) vit__pack_panels(m->patch_w, tmp, patch / C, C);
    for (int l = 0; l < c->depth && c->dtype != VIT_DTYPE_INT8; l++) { // (int8: the blocks' linears run from vit__q8 copies)
        vit__block *k = &m->blocks[l];
        vit__pack_panels(k->qkv_w, tmp, C, 3 * C);
        vit__pack_panels(k->proj_w, tmp, C, C);
        vit__pack_panels(k->fc1_w, tmp, C, M);
        vit__pack_panels(k->fc2_w, tmp, H, C);
    }
    for (int h = 0; m->head_w && h < m->num_head; h++) vit__pack_panels(m->head_w + (size_t)h * C * K, tmp, C, K);
    if (m->map.kv_w) {
        size_t Mm = (size_t)m->map.mlp_dim;
        vit__pack_panels(m->map.kv_w, tmp, C, 2 * C);
        vit__pack_panels(m->map.proj_w, tmp, C, C);
        vit__pack_panels(m->map.fc1_w, tmp, C, Mm);
        vit__pack_panels(m->map.fc2_w, tmp, Mm, C);
    }
    vit__free(&m->alloc, tmp);
    m->cpu_isa = isa;
    return VIT_OK;
}

// A full CLIP / SigLIP file's text tower, step 1 (after the image model's
// pass 0): its config (text_config, then the shapes) into a new m->text,
// its tensors checked and marked read (vit__load_weights' pass 0). Nothing
// for any other file. The image embeddings it is compared with must be as
// wide as its own: CLIP's visual projection, SigLIP's pooled features.
static vit_status vit__text_plan(vit__loader *L, vit_model *m) {
    int clip = L->fam == VIT__FAM_HF_CLIP;
    if ((!clip && L->fam != VIT__FAM_HF_SIGLIP) || strcmp(L->prefix, "vision_model.") != 0 || !vit__find(L, "text_model.embeddings.token_embedding.weight"))
        return VIT_OK;
    const char *prefix = L->prefix;
    vit__family fam = L->fam;
    vit__text_stated s;
    vit_status st = vit__read_text_config(L, clip, &s);
    vit_model *t = st == VIT_OK ? (vit_model *)vit__malloc(&m->alloc, sizeof(vit_model)) : NULL;
    if (st == VIT_OK && !t) st = vit__fail(L->err, VIT_ERROR_OUT_OF_MEMORY, "out of memory for the text tower");
    if (st != VIT_OK) return st;
    memset(t, 0, sizeof(*t));
    t->alloc = m->alloc;
    t->max_batch = m->max_batch;
    t->num_threads = m->num_threads;
    t->cpu_isa = VIT__ISA_REFERENCE;
    t->cfg.openmp = m->cfg.openmp;
    t->cfg.num_threads = m->cfg.num_threads;
    m->text = t;
    L->fam = clip ? VIT__FAM_HF_CLIP_TEXT : VIT__FAM_HF_SIGLIP_TEXT;
    L->prefix = L->text_prefix = "text_model.";
    st = vit__infer_text(L, t, &s);
    const vit_config *c = &m->cfg, *tc = &t->cfg;
    if (st == VIT_OK && clip && (!c->projection || c->num_classes != tc->num_classes))
        st = vit__fail(L->err, c->projection ? VIT_ERROR_SHAPE_MISMATCH : VIT_ERROR_MISSING_TENSOR, "the text embeddings are %d wide but %s", tc->num_classes,
                       c->projection ? "visual_projection.weight makes image embeddings of another width" : "there is no visual_projection.weight");
    if (st == VIT_OK && !clip && c->dim != tc->num_classes)
        st = vit__fail(L->err, VIT_ERROR_SHAPE_MISMATCH, "the text embeddings are %d wide (text_model.head) but the image embeddings %d", tc->num_classes, c->dim);
    if (st == VIT_OK && !(t->blocks = (vit__block *)vit__malloc(&m->alloc, (size_t)tc->depth * sizeof(vit__block))))
        st = vit__fail(L->err, VIT_ERROR_OUT_OF_MEMORY, "out of memory for %d text blocks", tc->depth);
    if (st == VIT_OK) {
        vit__bump count = {NULL, 0};
        vit__layout(t, &count, 1, 1);
        t->weights_count = count.used;
        st = vit__load_weights(L, t, 0);
    }
    L->fam = fam;
    L->prefix = prefix;
    return st;
}

// Step 2, once the image model is placed (its device, dtype and residual
// stream known): the text tower's weights loaded and readied for the CPU (a
// CUDA model's text tower runs on the CPU in fp32), and m's config told.
static vit_status vit__text_build(vit__loader *L, vit_model *m) {
    vit_model *t = m->text;
    if (!t) return VIT_OK;
    char *err = L->err;
    const char *prefix = L->prefix;
    vit__family fam = L->fam;
    int cpu = m->cfg.device == VIT_DEVICE_CPU;
    vit_status st = VIT_OK;
    if (t->weights_count > SIZE_MAX / sizeof(float)) st = vit__fail(err, VIT_ERROR_LIMIT, "text tower size overflows");
    else if (!(t->weights = (float *)vit__malloc(&t->alloc, t->weights_count * sizeof(float))))
        st = vit__fail(err, VIT_ERROR_OUT_OF_MEMORY, "out of memory for %zu bytes of text tower weights", t->weights_count * sizeof(float));
    if (st == VIT_OK) {
        vit__bump place = {t->weights, 0};
        vit__layout(t, &place, 1, 1);
        L->fam = fam == VIT__FAM_HF_CLIP ? VIT__FAM_HF_CLIP_TEXT : VIT__FAM_HF_SIGLIP_TEXT;
        L->prefix = "text_model.";
        st = vit__load_weights(L, t, 1);
        L->fam = fam;
        L->prefix = prefix;
    }
    t->cfg.device = VIT_DEVICE_CPU;
    t->cfg.dtype = VIT_DTYPE_F32;
    t->cfg.residual_dtype = cpu ? m->cfg.residual_dtype : VIT_DTYPE_F32;
    if (st == VIT_OK) st = vit__alloc_scratch(t, err);
    if (st == VIT_OK && cpu && m->cfg.dtype == VIT_DTYPE_INT8) st = vit__quantize_cpu(t, err);
    if (st == VIT_OK && t->cfg.dtype == VIT_DTYPE_INT8) st = vit__drop_block_linears(t, err);
    if (st == VIT_OK && cpu && m->cfg.dtype == VIT_DTYPE_FP8) st = vit__e4m3_cpu(t, err);
    if (st == VIT_OK) st = vit__pack_cpu(t, vit__cpu_isa(), err);
    if (st != VIT_OK) return st;
    vit_config *c = &m->cfg;
    c->has_text = 1;
    c->text_context = t->cfg.num_tokens;
    c->text_vocab = t->vocab;
    c->embed_dim = t->cfg.num_classes;
    c->match = fam == VIT__FAM_HF_CLIP ? VIT_MATCH_SOFTMAX : VIT_MATCH_SIGMOID;
    c->logit_scale = (float)exp((double)t->logit_scale);
    c->logit_bias = t->logit_bias;
    return VIT_OK;
}

// shards: the safetensors files (one, or those of ix, in its files' order).
static vit_status vit__create(const vit__bytes *shards, int nshards, const vit__index *ix, const vit_options *opts, vit__bytes config,
                              vit__bytes preproc, vit_model **out) {
    char *err = vit__load_error;
    vit_options o = vit_query_defaults(opts);
    vit_allocator alloc = o.allocator;
    vit__loader L;
    memset(&L, 0, sizeof(L));
    L.alloc = &alloc;
    L.err = err;
    L.cfg_root = L.pre_root = -1;
    L.heads_override = o.num_heads;
    vit_model *m = NULL;
    vit_status st = VIT_OK;
    for (int i = 0; i < nshards && st == VIT_OK; i++)
        if ((st = vit__st_parse(&L, (const unsigned char *)shards[i].data, shards[i].size, i)) != VIT_OK && ix) {
            char detail[VIT__ERR_LEN];
            memcpy(detail, err, sizeof(detail));
            st = vit__fail(err, st, "%s: %s", ix->files[i], detail);
        }
    if (st == VIT_OK && ix) st = vit__index_check(&L, ix);
    if (st == VIT_OK && config.data) {
        if ((st = vit__json_parse(&L.cfg, config.data, config.size, &alloc, err)) != VIT_OK) {
            char detail[VIT__ERR_LEN];
            memcpy(detail, err, sizeof(detail));
            st = vit__fail(err, st, "config.json: %s", detail);
        } else L.cfg_root = 0;
    }
    if (st == VIT_OK && preproc.data) { // a malformed preprocessor_config.json is ignored; running out of memory is not
        vit_status pst = vit__json_parse(&L.pre, preproc.data, preproc.size, &alloc, err);
        if (pst == VIT_OK) L.pre_root = 0;
        else if (pst == VIT_ERROR_OUT_OF_MEMORY) st = pst;
    }
    if (st == VIT_OK) {
        m = (vit_model *)vit__malloc(&alloc, sizeof(vit_model));
        if (!m) st = vit__fail(err, VIT_ERROR_OUT_OF_MEMORY, "out of memory for the model");
    }
    if (st == VIT_OK) {
        memset(m, 0, sizeof(*m));
        m->cpu_isa = VIT__ISA_REFERENCE;
        m->alloc = alloc;
        m->max_batch = o.max_batch;
        m->num_threads = o.num_threads;
        vit_config *c = &m->cfg;
#ifdef _OPENMP
        c->openmp = 1;
#endif
        c->num_threads = o.num_threads;
        st = vit__detect_family(&L);
        int hf = L.fam != VIT__FAM_TIMM;
        c->mean[0] = c->mean[1] = c->mean[2] = 0.5f; // timm's defaults for ViTs, and ViTImageProcessor's
        c->std[0] = c->std[1] = c->std[2] = 0.5f;
        c->crop_pct = hf ? 1.0f : 0.9f;
        c->interpolation = hf ? VIT_INTERP_BILINEAR : VIT_INTERP_BICUBIC;
        c->resize = hf ? VIT_RESIZE_SQUARE : VIT_RESIZE_SHORTER_CROP;
        vit__set_preprocess_source(c, VIT_PREPROCESS_UNKNOWN, "config.json");
        vit__stated s;
        s.image_h = s.image_w = s.patch_size = s.in_chans = s.dim = s.depth = s.num_heads = s.mlp_dim = s.num_classes = -1;
        s.class_token = s.no_embed_class = s.fc_norm = s.reg_tokens = s.qk_norm = s.pool = s.act = s.projection = s.distilled = -1;
        s.mlp_ratio = 0; s.eps = 0;
        if (st == VIT_OK) st = vit__read_config(&L, c, &s);
        if (st == VIT_OK) st = vit__stated_preprocess(&o, c, err);
        // transformers runs a model on what its processor makes: DINOv2 (made at 518) on 224 crops
        if (st == VIT_OK && hf && c->resize_shorter > 0 && c->preprocess_source == VIT_PREPROCESS_FROM_HF_PROCESSOR)
            L.default_side = (int)floor(c->resize_shorter * (double)c->crop_pct + 0.5);
        if (st == VIT_OK) st = vit__infer_config(&L, c, &s, o.image_height, o.image_width);
        if (st == VIT_OK) vit__stated_crop(c);
        m->num_prefix = c->num_prefix;
        m->num_head = L.num_head;
        m->act = c->act == VIT_ACT_GELU_TANH ? VIT__ACT_GELU_TANH : c->act == VIT_ACT_QUICK_GELU ? VIT__ACT_QUICK_GELU : c->act == VIT_ACT_SWIGLU ? VIT__ACT_SWIGLU : VIT__ACT_GELU;
        m->map.mlp_dim = L.map_mlp;
    }
    if (st == VIT_OK) {
        vit_config *c = &m->cfg;
        m->blocks = (vit__block *)vit__malloc(&alloc, (size_t)c->depth * sizeof(vit__block));
        if (!m->blocks) st = vit__fail(err, VIT_ERROR_OUT_OF_MEMORY, "out of memory for %d blocks", c->depth);
    }
    int has_norm = 0;
    if (st == VIT_OK) {
        vit_config *c = &m->cfg;
        char name[192];
        has_norm = vit__role(&L, VIT__R_NORM_W, 0, name, sizeof(name)) != NULL;
        vit__bump count = {NULL, 0};
        // sizes are bounded by the VIT_MAX_* checks, but the product is checked anyway
        size_t C = (size_t)c->dim, need;
        if (!vit__mul3(C, C, 16 + 3 * (size_t)c->mlp_dim / C + 1, &need) || !vit__mul(need, (size_t)c->depth, &need))
            st = vit__fail(err, VIT_ERROR_LIMIT, "model size overflows");
        else {
            vit__layout(m, &count, has_norm, 1);
            st = vit__load_weights(&L, m, 0);
            if (st == VIT_OK) st = vit__text_plan(&L, m);
            if (st == VIT_OK) st = vit__check_unused(&L);
        }
        if (st == VIT_OK) {
            if (count.used > SIZE_MAX / sizeof(float)) st = vit__fail(err, VIT_ERROR_LIMIT, "model size overflows");
            else if (!(m->weights = (float *)vit__malloc(&alloc, count.used * sizeof(float))))
                st = vit__fail(err, VIT_ERROR_OUT_OF_MEMORY, "out of memory for %zu bytes of weights", count.used * sizeof(float));
            m->weights_count = count.used;
        }
    }
    if (st == VIT_OK) {
        vit__bump place = {m->weights, 0};
        vit__layout(m, &place, has_norm, 1);
        st = vit__load_weights(&L, m, 1);
    }
    if (st == VIT_OK) st = vit__read_labels(&L, m);
    if (st == VIT_OK && m->cfg.has_labels && m->cfg.source == VIT_SOURCE_TIMM) m->cfg.projection = 0; // a fine-tuned CLIP tower: a classifier
    if (st == VIT_OK && !m->labels && m->cfg.num_classes > 0) { // generated names
        size_t K = (size_t)m->cfg.num_classes;
        m->labels = (char **)vit__malloc(&alloc, K * sizeof(char *));
        m->label_text = (char *)vit__malloc(&alloc, K * 24);
        if (!m->labels || !m->label_text) st = vit__fail(err, VIT_ERROR_OUT_OF_MEMORY, "out of memory for labels");
        else
            for (size_t i = 0; i < K; i++) { m->labels[i] = m->label_text + i * 24; snprintf(m->labels[i], 24, "class_%d", (int)i); }
    }
    if (st == VIT_OK) {
        m->cfg.device = VIT_DEVICE_CPU;
        m->cfg.dtype = VIT_DTYPE_F32;
        // (fp8: bf16 by default, within fp8's accuracy gate: its e4m3 GEMM inputs round far
        // more than the stream's bf16 does, and the stream's traffic is what fp8 leaves)
        int res16 = o.residual_dtype == VIT_DTYPE_BF16 || (o.residual_dtype == VIT_DTYPE_DEFAULT && o.dtype == VIT_DTYPE_FP8);
        m->cfg.residual_dtype = res16 ? VIT_DTYPE_BF16 : VIT_DTYPE_F32;
#ifdef VIT__CUDA
        st = vit__cuda_init(m, &o, err);
#else
        if (o.device == VIT_DEVICE_CUDA)
            st = vit__fail(err, VIT_ERROR_UNSUPPORTED, "device CUDA asked for, but vit.h was compiled without CUDA (use nvcc)");
#endif
    }
    if (st == VIT_OK && m->cfg.device == VIT_DEVICE_CPU) st = vit__alloc_scratch(m, err);
    if (st == VIT_OK && m->cfg.device == VIT_DEVICE_CPU && o.dtype == VIT_DTYPE_INT8) st = vit__quantize_cpu(m, err);
    if (st == VIT_OK && m->cfg.dtype == VIT_DTYPE_INT8) st = vit__drop_block_linears(m, err);
    if (st == VIT_OK && m->cfg.device == VIT_DEVICE_CPU && o.dtype == VIT_DTYPE_FP8) st = vit__e4m3_cpu(m, err);
    if (st == VIT_OK && m->cfg.device == VIT_DEVICE_CPU) st = vit__pack_cpu(m, vit__cpu_isa(), err);
    if (st == VIT_OK) st = vit__text_build(&L, m);
    vit__free(&alloc, L.tensors);
    vit__json_release(&L.cfg);
    vit__json_release(&L.pre);
    if (st != VIT_OK) {
        vit_free(m);
        return st;
    }
    m->error[0] = 0;
    *out = m;
    return VIT_OK;
}

static vit_status vit__check_options(const vit_options *o) {
    if (!o) return VIT_OK;
    if (o->max_batch < 0 || o->num_threads < 0 || o->num_heads < 0 || o->device_index < 0 || o->image_height < 0 || o->image_width < 0)
        return vit__fail(vit__load_error, VIT_ERROR_INVALID_ARGUMENT, "options: max_batch, num_threads, num_heads, device_index, image_height and image_width must be >= 0");
    if ((int)o->device < VIT_DEVICE_DEFAULT || (int)o->device > VIT_DEVICE_CUDA)
        return vit__fail(vit__load_error, VIT_ERROR_INVALID_ARGUMENT, "options: unknown device %d", (int)o->device);
    if ((int)o->dtype < VIT_DTYPE_DEFAULT || (int)o->dtype > VIT_DTYPE_FP8)
        return vit__fail(vit__load_error, VIT_ERROR_INVALID_ARGUMENT, "options: unknown dtype %d", (int)o->dtype);
    if ((int)o->residual_dtype < VIT_DTYPE_DEFAULT || (int)o->residual_dtype > VIT_DTYPE_FP8)
        return vit__fail(vit__load_error, VIT_ERROR_INVALID_ARGUMENT, "options: unknown residual_dtype %d", (int)o->residual_dtype);
    if (o->residual_dtype != VIT_DTYPE_DEFAULT && o->residual_dtype != VIT_DTYPE_F32 && o->residual_dtype != VIT_DTYPE_BF16)
        return vit__fail(vit__load_error, VIT_ERROR_UNSUPPORTED, "options: residual_dtype %d: the residual stream is fp32 or bf16 (fp16 would overflow "
                         "where bf16 does not; int8/fp8 have no per-token scale there)", (int)o->residual_dtype);
    if (o->max_batch > VIT_MAX_BATCH)
        return vit__fail(vit__load_error, VIT_ERROR_LIMIT, "options: max_batch %d exceeds VIT_MAX_BATCH (%d)", o->max_batch, VIT_MAX_BATCH);
    if (o->num_threads > 1024)
        return vit__fail(vit__load_error, VIT_ERROR_INVALID_ARGUMENT, "options: num_threads %d is more than 1024", o->num_threads);
    if ((o->allocator.alloc == NULL) != (o->allocator.free == NULL))
        return vit__fail(vit__load_error, VIT_ERROR_INVALID_ARGUMENT, "options: allocator needs both alloc and free, or neither");
    return VIT_OK;
}

VITDEF vit_status vit_load_memory(const void *data, size_t size, const vit_options *opts, vit_model **out) {
    if (!out) return vit__fail(vit__load_error, VIT_ERROR_INVALID_ARGUMENT, "vit_load_memory: out is NULL");
    *out = NULL;
    if (!data) return vit__fail(vit__load_error, VIT_ERROR_INVALID_ARGUMENT, "vit_load_memory: data is NULL");
    vit_status st = vit__check_options(opts);
    if (st != VIT_OK) return st;
    vit__bytes config = {NULL, 0}, none = {NULL, 0}, file = {(const char *)data, size};
    if (opts && opts->config_json) {
        config.data = opts->config_json;
        config.size = opts->config_json_size ? opts->config_json_size : strlen(opts->config_json);
    }
    return vit__create(&file, 1, NULL, opts, config, none, out);
}

#ifndef VIT_NO_STDIO

// Path of `name` in the directory of `path`, into buf. 0 if it does not fit.
static int vit__sibling(const char *path, const char *name, char *buf, size_t cap) {
    const char *slash = strrchr(path, '/');
#ifdef _WIN32
    const char *bs = strrchr(path, '\\');
    if (bs && (!slash || bs > slash)) slash = bs;
#endif
    size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
    if (dir + strlen(name) + 1 > cap) return 0;
    memcpy(buf, path, dir);
    memcpy(buf + dir, name, strlen(name) + 1);
    return 1;
}

// 1 when path opens but reads as a directory (POSIX: EISDIR on read).
static int vit__is_dir(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    int dir = getc(f) == EOF && ferror(f);
    fclose(f);
    return dir;
}

static int vit__exists(const char *path) {
    FILE *f = fopen(path, "rb");
    if (f) fclose(f);
    return f != NULL;
}

// A sharded model: reads the index at path and every shard beside it, then loads.
static vit_status vit__load_sharded(const char *path, const vit_options *opts, const vit_allocator *a, vit__bytes config, vit__bytes preproc,
                                    vit_model **out) {
    char *err = vit__load_error, *text = NULL, shard_path[4096];
    size_t size = 0;
    vit__index ix;
    memset(&ix, 0, sizeof(ix));
    vit__bytes *shards = NULL;
    vit_status st = vit__read_file(path, a, 0, &text, &size, err);
    if (st == VIT_OK && size > VIT_MAX_HEADER_BYTES)
        st = vit__fail(err, VIT_ERROR_LIMIT, "'%s' is %zu bytes, more than VIT_MAX_HEADER_BYTES (%llu)", path, size, (unsigned long long)VIT_MAX_HEADER_BYTES);
    if (st == VIT_OK) st = vit__index_parse(&ix, text, size, a, err);
    if (st == VIT_OK && !(shards = (vit__bytes *)vit__malloc(a, (size_t)ix.nshards * sizeof(vit__bytes))))
        st = vit__fail(err, VIT_ERROR_OUT_OF_MEMORY, "out of memory for %d shards", ix.nshards);
    int read = 0;
    for (; st == VIT_OK && read < ix.nshards; read++) {
        char *d = NULL;
        size_t n = 0;
        if (!vit__sibling(path, ix.files[read], shard_path, sizeof(shard_path))) st = vit__fail(err, VIT_ERROR_IO, "path of shard '%s' is too long", ix.files[read]);
        else st = vit__read_file(shard_path, a, 0, &d, &n, err);
        if (st != VIT_OK) break;
        shards[read].data = d;
        shards[read].size = n;
    }
    if (st == VIT_OK) st = vit__create(shards, ix.nshards, &ix, opts, config, preproc, out);
    for (int i = 0; i < read; i++) vit__free(a, (void *)shards[i].data);
    vit__free(a, shards);
    vit__index_release(&ix);
    vit__free(a, text);
    return st;
}

VITDEF vit_status vit_load(const char *safetensors_path, const vit_options *opts, vit_model **out) {
    if (!out) return vit__fail(vit__load_error, VIT_ERROR_INVALID_ARGUMENT, "vit_load: out is NULL");
    *out = NULL;
    if (!safetensors_path) return vit__fail(vit__load_error, VIT_ERROR_INVALID_ARGUMENT, "vit_load: path is NULL");
    vit_status st = vit__check_options(opts);
    if (st != VIT_OK) return st;
    vit_options o = vit_query_defaults(opts);
    char *data = NULL, *cfg = NULL, *pre = NULL;
    size_t size = 0, cfg_size = 0, pre_size = 0;
    char path[4096], model[4096];
    // a folder: its model.safetensors, else its model.safetensors.index.json (a sharded model)
    const char *file = safetensors_path;
    size_t plen = strlen(file);
    int sharded = plen >= 11 && !strcmp(file + plen - 11, ".index.json");
    if (vit__is_dir(file)) {
        const char *sep = plen && (file[plen - 1] == '/' || file[plen - 1] == '\\') ? "" : "/";
        if (plen + 40 > sizeof(model)) return vit__fail(vit__load_error, VIT_ERROR_IO, "folder path '%.200s...' is too long", file);
        snprintf(model, sizeof(model), "%s%smodel.safetensors", file, sep);
        sharded = 0;
        if (!vit__exists(model)) {
            snprintf(model, sizeof(model), "%s%smodel.safetensors.index.json", file, sep);
            if (!vit__exists(model))
                return vit__fail(vit__load_error, VIT_ERROR_IO, "'%s' is a folder with neither model.safetensors nor model.safetensors.index.json", file);
            sharded = 1;
        }
        file = model;
    }
    if (!sharded) st = vit__read_file(file, &o.allocator, 0, &data, &size, vit__load_error);
    if (st == VIT_OK) {
        if (o.config_path) {
            if (o.config_path[0]) st = vit__read_file(o.config_path, &o.allocator, 0, &cfg, &cfg_size, vit__load_error);
        } else if (vit__sibling(file, "config.json", path, sizeof(path))) {
            st = vit__read_file(path, &o.allocator, 1, &cfg, &cfg_size, vit__load_error);
        }
    }
    if (st == VIT_OK && !(o.config_path && !o.config_path[0]) && vit__sibling(file, "preprocessor_config.json", path, sizeof(path)))
        st = vit__read_file(path, &o.allocator, 1, &pre, &pre_size, vit__load_error);
    if (st == VIT_OK) {
        vit__bytes c = {cfg, cfg_size}, p = {pre, pre_size}, d = {data, size};
        st = sharded ? vit__load_sharded(file, opts, &o.allocator, c, p, out) : vit__create(&d, 1, NULL, opts, c, p, out);
    }
    vit__free(&o.allocator, data);
    vit__free(&o.allocator, cfg);
    vit__free(&o.allocator, pre);
    return st;
}

#endif // VIT_NO_STDIO

// The forward calls' refusal of vit_clone_preprocessor's handles.
static vit_status vit__weightless(vit_model *m, const char *fn) {
    return vit__fail(m->error, VIT_ERROR_INVALID_ARGUMENT, "%s: this handle only preprocesses (vit_clone_preprocessor): it has no weights", fn);
}

static vit_status vit__run(vit_model *m, const float *images, int n, float *out, int want_logits) {
    if (!m) return VIT_ERROR_INVALID_ARGUMENT;
    if (m->preprocess_only) return vit__weightless(m, want_logits ? "vit_forward" : "vit_embed");
    if (!images || !out || n < 1)
        return vit__fail(m->error, VIT_ERROR_INVALID_ARGUMENT, "%s: images and output must be non-NULL and n >= 1 (n = %d)",
                         want_logits ? "vit_forward" : "vit_embed", n);
    const vit_config *c = &m->cfg;
    if (want_logits && c->num_classes == 0)
        return vit__fail(m->error, VIT_ERROR_INVALID_ARGUMENT, "vit_forward: the model has no classifier head (use vit_embed)");
    size_t per_image = (size_t)c->in_chans * c->image_height * c->image_width;
    size_t per_out = want_logits ? (size_t)c->num_classes : (size_t)c->dim;
#ifdef VIT__CUDA
    if (m->cfg.device == VIT_DEVICE_CUDA) return vit__forward_cuda_host(m, images, n, out, want_logits);
#endif
    for (int i0 = 0; i0 < n; i0 += m->max_batch) {
        int B = n - i0 < m->max_batch ? n - i0 : m->max_batch;
        vit__forward_host(m, images + (size_t)i0 * per_image, NULL, B, NULL, NULL, 0, 0);
        if (want_logits) vit__head_cpu(out + (size_t)i0 * per_out, m->pooled, m->head_w, m->head_b, B, c->dim, c->num_classes, m->num_head, m->cpu_isa, m->num_threads);
        else memcpy(out + (size_t)i0 * per_out, m->pooled + (m->num_head > 1 ? (size_t)m->num_head * B * c->dim : 0), (size_t)B * per_out * sizeof(float));
    }
    return VIT_OK;
}

VITDEF vit_status vit_forward(vit_model *m, const float *images, int n, float *logits) {
    return vit__run(m, images, n, logits, 1);
}

VITDEF vit_status vit_embed(vit_model *m, const float *images, int n, float *features) {
    return vit__run(m, images, n, features, 0);
}

// ---- text towers

// rows (n, d) of v divided by their L2 norms (summed in double), as transformers' x / x.norm(dim=-1)
static void vit__l2_rows(float *v, size_t n, int d) {
    for (size_t i = 0; i < n; i++) {
        float *r = v + i * (size_t)d;
        double ss = 0.0;
        for (int k = 0; k < d; k++) ss += (double)r[k] * r[k];
        double norm = sqrt(ss);
        for (int k = 0; k < d; k++) r[k] = (float)(r[k] / norm);
    }
}

static vit_status vit__need_text(vit_model *m, const char *fn) {
    if (!m->cfg.has_text)
        return vit__fail(m->error, VIT_ERROR_INVALID_ARGUMENT, "%s: the model has no text tower (a full CLIPModel / SiglipModel file has one)", fn);
    return VIT_OK;
}

VITDEF vit_status vit_encode_ids(vit_model *m, const int *ids, int n, float *out) {
    static const char *fn = "vit_encode_ids";
    if (!m) return VIT_ERROR_INVALID_ARGUMENT;
    if (m->preprocess_only) return vit__weightless(m, fn);
    vit_status st = vit__need_text(m, fn);
    if (st != VIT_OK) return st;
    if (!ids || !out || n < 1) return vit__fail(m->error, VIT_ERROR_INVALID_ARGUMENT, "%s: ids and out must be non-NULL and n >= 1 (n = %d)", fn, n);
    vit_model *t = m->text;
    int L = t->cfg.num_tokens, E = t->cfg.num_classes;
    for (int i = 0; i < n; i++) { // every id in range, every CLIP text with its end-of-text token, before anything runs
        const int *r = ids + (size_t)i * L;
        for (int p = 0; p < L; p++)
            if (r[p] < 0 || r[p] >= t->vocab)
                return vit__fail(m->error, VIT_ERROR_INVALID_ARGUMENT, "%s: text %d: id %d at position %d is outside the vocabulary [0, %d)", fn, i, r[p], p, t->vocab);
        if (vit__text_pool_at(t, r, L) < 0)
            return vit__fail(m->error, VIT_ERROR_INVALID_ARGUMENT, "%s: text %d has no end-of-text token (eos_token_id %d) in its %d ids, which CLIP pools at", fn, i,
                             t->eos_id, L);
    }
    for (int i0 = 0; i0 < n; i0 += t->max_batch) {
        int B = n - i0 < t->max_batch ? n - i0 : t->max_batch;
        vit__forward_host(t, NULL, ids + (size_t)i0 * L, B, NULL, NULL, 0, 0);
        vit__head_cpu(out + (size_t)i0 * E, t->pooled, t->head_w, t->head_b, B, t->cfg.dim, E, 1, t->cpu_isa, t->num_threads);
    }
    vit__l2_rows(out, (size_t)n, E);
    return VIT_OK;
}

VITDEF vit_status vit_image_embeds(vit_model *m, const float *images, int n, float *out) {
    if (!m) return VIT_ERROR_INVALID_ARGUMENT;
    vit_status st = m->preprocess_only ? VIT_OK : vit__need_text(m, "vit_image_embeds");
    // CLIP's image embedding is its visual projection (the model's head), SigLIP's the pooled features
    if (st == VIT_OK) st = vit__run(m, images, n, out, m->cfg.projection);
    if (st == VIT_OK) vit__l2_rows(out, (size_t)n, m->cfg.embed_dim);
    return st;
}

// Image a's logit for label b (E wide): logit_scale * cosine (+ logit_bias), in double.
static double vit__match_logit(const vit_config *c, const float *a, const float *b) {
    double na = 0.0, nb = 0.0, dot = 0.0;
    for (int e = 0; e < c->embed_dim; e++) { na += (double)a[e] * a[e]; nb += (double)b[e] * b[e]; dot += (double)a[e] * b[e]; }
    return c->logit_scale * (dot / (sqrt(na) * sqrt(nb))) + (c->match == VIT_MATCH_SIGMOID ? c->logit_bias : 0.0);
}

VITDEF vit_status vit_zero_shot(vit_model *m, const float *image_embeds, int n, const float *label_embeds, int k, float *logits, float *probs) {
    static const char *fn = "vit_zero_shot";
    if (!m) return VIT_ERROR_INVALID_ARGUMENT;
    vit_status st = vit__need_text(m, fn);
    if (st != VIT_OK) return st;
    if (!image_embeds || !label_embeds || (!logits && !probs) || n < 1 || k < 1)
        return vit__fail(m->error, VIT_ERROR_INVALID_ARGUMENT, "%s: embeddings must be non-NULL, logits or probs too, and n, k >= 1 (n = %d, k = %d)", fn, n, k);
    const vit_config *c = &m->cfg;
    size_t E = (size_t)c->embed_dim;
    for (int i = 0; i < n; i++) {
        const float *a = image_embeds + (size_t)i * E;
        double mx = -HUGE_VAL, sum = 0.0;
        for (int j = 0; j < k; j++) { // the logits, and their largest (the softmax's shift)
            double l = vit__match_logit(c, a, label_embeds + (size_t)j * E);
            if (logits) logits[(size_t)i * k + j] = (float)l;
            mx = l > mx ? l : mx;
        }
        if (!probs) continue;
        if (c->match == VIT_MATCH_SIGMOID) {
            for (int j = 0; j < k; j++) probs[(size_t)i * k + j] = (float)(1.0 / (1.0 + exp(-vit__match_logit(c, a, label_embeds + (size_t)j * E))));
            continue;
        }
        for (int j = 0; j < k; j++) sum += exp(vit__match_logit(c, a, label_embeds + (size_t)j * E) - mx);
        for (int j = 0; j < k; j++) probs[(size_t)i * k + j] = (float)(exp(vit__match_logit(c, a, label_embeds + (size_t)j * E) - mx) / sum);
    }
    return VIT_OK;
}

// Checks a features call's spec (NULL: the defaults) into f: the blocks
// resolved, the output's shape. async: bf16 output allowed.
static vit_status vit__feat_plan(vit_model *m, const char *fn, const vit_features_spec *spec, int async, vit__feat *f) {
    const vit_config *c = &m->cfg;
    vit_features_spec none;
    memset(&none, 0, sizeof(none));
    if (!spec) spec = &none;
    memset(f, 0, sizeof(*f));
    int D = c->depth, k = spec->num_blocks;
    if (k < 0 || (k > 0 && !spec->blocks))
        return vit__fail(m->error, VIT_ERROR_INVALID_ARGUMENT, "%s: num_blocks %d with blocks %s (0 = the last block; else a list of that many)", fn, k,
                         spec->blocks ? "given" : "NULL");
    if (k > D) return vit__fail(m->error, VIT_ERROR_INVALID_ARGUMENT, "%s: %d blocks asked of a model of %d: some are repeated", fn, k, D);
    f->num = k ? k : 1;
    f->last = -1;
    for (int i = 0; i < f->num; i++) {
        int b = k ? spec->blocks[i] : -1;
        if (b < -D || b >= D)
            return vit__fail(m->error, VIT_ERROR_INVALID_ARGUMENT, "%s: block %d is out of range: the model has %d blocks (0..%d, or -%d..-1)", fn, b, D, D - 1, D);
        f->block[i] = b < 0 ? b + D : b;
        for (int j = 0; j < i; j++)
            if (f->block[j] == f->block[i])
                return vit__fail(m->error, VIT_ERROR_INVALID_ARGUMENT, "%s: block %d is asked twice (blocks[%d] and blocks[%d])", fn, f->block[i], j, i);
        if (f->block[i] > f->last) f->last = f->block[i];
    }
    if (spec->layout != VIT_LAYOUT_TOKENS && spec->layout != VIT_LAYOUT_GRID)
        return vit__fail(m->error, VIT_ERROR_INVALID_ARGUMENT, "%s: layout %d is neither VIT_LAYOUT_TOKENS nor VIT_LAYOUT_GRID", fn, (int)spec->layout);
    if (spec->out_dtype == VIT_DTYPE_BF16 && (!async || c->device != VIT_DEVICE_CUDA))
        return vit__fail(m->error, VIT_ERROR_INVALID_ARGUMENT, "%s: bf16 output is for vit_features_async and vit_features_rgb8_async on CUDA (host output is fp32)", fn);
    if (spec->out_dtype != VIT_DTYPE_DEFAULT && spec->out_dtype != VIT_DTYPE_F32 && spec->out_dtype != VIT_DTYPE_BF16)
        return vit__fail(m->error, VIT_ERROR_INVALID_ARGUMENT, "%s: out_dtype must be VIT_DTYPE_F32 or VIT_DTYPE_BF16", fn);
    vit__feat_shape *sh = &f->shape;
    f->norm = spec->norm != 0;
    f->bf16 = spec->out_dtype == VIT_DTYPE_BF16;
    sh->C = c->dim; sh->N = c->num_tokens; sh->P = m->num_prefix;
    sh->drop_prefix = spec->drop_prefix != 0;
    sh->grid = spec->layout == VIT_LAYOUT_GRID;
    sh->gh = c->image_height / c->patch_size;
    sh->gw = c->image_width / c->patch_size;
    if (sh->grid && (size_t)sh->gh * sh->gw != (size_t)(sh->N - sh->P))
        return vit__fail(m->error, VIT_ERROR_INVALID_ARGUMENT, "%s: a grid layout of %d patch tokens, which are no %dx%d rectangle", fn, sh->N - sh->P, sh->gh, sh->gw);
    sh->per_block = (size_t)(sh->drop_prefix ? sh->N - sh->P : sh->N) * sh->C; // (a grid holds as many: C gh gw, then P C)
    return VIT_OK;
}

VITDEF vit_status vit_features_shape(vit_model *m, const vit_features_spec *spec, int shape[4], size_t *per_block, int *blocks_out) {
    if (!m) return VIT_ERROR_INVALID_ARGUMENT;
    vit__feat f;
    vit_status st = vit__feat_plan(m, "vit_features_shape", spec, 1, &f);
    if (st != VIT_OK) return st;
    const vit__feat_shape *sh = &f.shape;
    if (shape) {
        int T = sh->drop_prefix ? sh->N - sh->P : sh->N;
        shape[0] = sh->grid ? sh->C : T;
        shape[1] = sh->grid ? sh->gh : sh->C;
        shape[2] = sh->grid ? sh->gw : 0;
        shape[3] = sh->grid && !sh->drop_prefix ? sh->P : 0;
    }
    if (per_block) *per_block = sh->per_block;
    if (blocks_out) memcpy(blocks_out, f.block, (size_t)f.num * sizeof(int));
    return VIT_OK;
}

// The features calls: checked here, then the GPU (vit_kernels.cuh) or the CPU
// forward pass in chunks of max_batch, stopping after the deepest block asked for.
static vit_status vit__features_run(vit_model *m, const char *fn, const void *data, int n, int width, int height, int stride, int channels, int frames,
                                    const vit_features_spec *spec, void *out, size_t capacity, void *stream, int async) {
    if (!m) return VIT_ERROR_INVALID_ARGUMENT;
    if (m->preprocess_only) return vit__weightless(m, fn);
    if (!data || !out || n < 1) return vit__fail(m->error, VIT_ERROR_INVALID_ARGUMENT, "%s: %s and output must be non-NULL and n >= 1 (n = %d)", fn, frames ? "frames" : "images", n);
    vit__feat f;
    vit_status st = vit__feat_plan(m, fn, spec, async, &f);
    if (st != VIT_OK) return st;
    size_t per_block = f.shape.per_block;
    if ((size_t)n > SIZE_MAX / per_block / (size_t)f.num) return vit__fail(m->error, VIT_ERROR_LIMIT, "%s: %d images of %zu values overflow", fn, n, per_block);
    size_t need = (size_t)f.num * n * per_block;
    f.shape.n = n;
    if (capacity < need)
        return vit__fail(m->error, VIT_ERROR_INVALID_ARGUMENT, "%s: out_capacity %zu, but %d block(s) x %d image(s) x %zu values need %zu", fn, capacity, f.num, n,
                         per_block, need);
    if (frames) {
        st = vit__check_rgb8(m, fn, (const unsigned char *)data, width, height, stride, channels);
        if (st == VIT_OK) st = vit__preprocess_known(m, fn);
        if (st != VIT_OK) return st;
        if (stride == 0) stride = width * channels;
        if ((size_t)n * height > SIZE_MAX / (size_t)stride) return vit__fail(m->error, VIT_ERROR_LIMIT, "%s: %d frames of %d bytes overflow", fn, n, height * stride);
    }
#ifdef VIT__CUDA
    if (m->cfg.device == VIT_DEVICE_CUDA)
        return vit__features_cuda(m, fn, data, n, width, height, stride, channels, frames, &f, out, (cudaStream_t)stream, async);
#endif
    (void)stream;
    if (async) return vit__fail(m->error, VIT_ERROR_UNSUPPORTED, "%s: the model is not on a CUDA device", fn);
    const vit_config *c = &m->cfg;
    size_t per_image = (size_t)c->in_chans * c->image_height * c->image_width;
    float *images = NULL, *fout = (float *)out;
    if (frames && !(images = (float *)vit__malloc(&m->alloc, (size_t)(n < m->max_batch ? n : m->max_batch) * per_image * sizeof(float))))
        return vit__fail(m->error, VIT_ERROR_OUT_OF_MEMORY, "%s: out of memory for the preprocessed images", fn);
    for (int i0 = 0; st == VIT_OK && i0 < n; i0 += m->max_batch) {
        int B = n - i0 < m->max_batch ? n - i0 : m->max_batch;
        const float *in = (const float *)data + (size_t)i0 * per_image;
        if (frames) {
            const unsigned char *fr = (const unsigned char *)data;
            for (int i = 0; st == VIT_OK && i < B; i++)
                st = vit_preprocess_rgb8(m, fr + (size_t)(i0 + i) * height * stride, width, height, stride, channels, images + (size_t)i * per_image);
            in = images;
        }
        if (st == VIT_OK) vit__forward_host(m, in, NULL, B, &f, fout, (size_t)n * per_block, i0);
    }
    vit__free(&m->alloc, images);
    return st;
}

VITDEF vit_status vit_features(vit_model *m, const float *images, int n, const vit_features_spec *spec, float *out, size_t out_capacity) {
    return vit__features_run(m, "vit_features", images, n, 0, 0, 0, 0, 0, spec, out, out_capacity, NULL, 0);
}

VITDEF vit_status vit_features_rgb8(vit_model *m, const unsigned char *frames, int n, int width, int height, int stride, int channels,
                                    const vit_features_spec *spec, float *out, size_t out_capacity) {
    return vit__features_run(m, "vit_features_rgb8", frames, n, width, height, stride, channels, 1, spec, out, out_capacity, NULL, 0);
}

VITDEF vit_status vit_features_async(vit_model *m, const float *device_images, int n, const vit_features_spec *spec, void *device_out,
                                     size_t out_capacity, void *cuda_stream) {
    return vit__features_run(m, "vit_features_async", device_images, n, 0, 0, 0, 0, 0, spec, device_out, out_capacity, cuda_stream, 1);
}

VITDEF vit_status vit_features_rgb8_async(vit_model *m, const unsigned char *device_frames, int n, int width, int height, int stride, int channels,
                                          const vit_features_spec *spec, void *device_out, size_t out_capacity, void *cuda_stream) {
    return vit__features_run(m, "vit_features_rgb8_async", device_frames, n, width, height, stride, channels, 1, spec, device_out, out_capacity, cuda_stream, 1);
}

// The frame calls: checked here; on a CUDA model the GPU does it all
// (vit_kernels.cuh), else vit_preprocess_rgb8 into max_batch images at a time.
static vit_status vit__run_rgb8(vit_model *m, const unsigned char *frames, int n, int width, int height, int stride, int channels, float *out,
                                int want_logits, void *stream, int async) {
    if (!m) return VIT_ERROR_INVALID_ARGUMENT;
    const char *fn = async ? (want_logits ? "vit_forward_rgb8_async" : "vit_embed_rgb8_async") : (want_logits ? "vit_forward_rgb8" : "vit_embed_rgb8");
    if (m->preprocess_only) return vit__weightless(m, fn);
    if (!out || n < 1) return vit__fail(m->error, VIT_ERROR_INVALID_ARGUMENT, "%s: output must be non-NULL and n >= 1 (n = %d)", fn, n);
    vit_status st = vit__check_rgb8(m, fn, frames, width, height, stride, channels);
    if (st == VIT_OK) st = vit__preprocess_known(m, fn);
    if (st != VIT_OK) return st;
    const vit_config *c = &m->cfg;
    if (want_logits && c->num_classes == 0) return vit__fail(m->error, VIT_ERROR_INVALID_ARGUMENT, "%s: the model has no classifier head (use vit_embed_rgb8)", fn);
    if (stride == 0) stride = width * channels;
    if ((size_t)n * height > SIZE_MAX / (size_t)stride) return vit__fail(m->error, VIT_ERROR_LIMIT, "%s: %d frames of %d bytes overflow", fn, n, height * stride);
#ifdef VIT__CUDA
    if (c->device == VIT_DEVICE_CUDA) return vit__forward_cuda_rgb8(m, frames, n, width, height, stride, channels, out, want_logits, (cudaStream_t)stream, async);
#endif
    (void)stream;
    if (async) return vit__fail(m->error, VIT_ERROR_UNSUPPORTED, "%s: the model is not on a CUDA device", fn);
    size_t per_image = (size_t)c->in_chans * c->image_height * c->image_width, per_out = want_logits ? (size_t)c->num_classes : (size_t)c->dim;
    int B = n < m->max_batch ? n : m->max_batch;
    float *images = (float *)vit__malloc(&m->alloc, (size_t)B * per_image * sizeof(float));
    if (!images) return vit__fail(m->error, VIT_ERROR_OUT_OF_MEMORY, "%s: out of memory for %d preprocessed images", fn, B);
    for (int i0 = 0; st == VIT_OK && i0 < n; i0 += B) {
        int b = n - i0 < B ? n - i0 : B;
        for (int i = 0; st == VIT_OK && i < b; i++)
            st = vit_preprocess_rgb8(m, frames + (size_t)(i0 + i) * height * stride, width, height, stride, channels, images + (size_t)i * per_image);
        if (st == VIT_OK) st = vit__run(m, images, b, out + (size_t)i0 * per_out, want_logits);
    }
    vit__free(&m->alloc, images);
    return st;
}

VITDEF vit_status vit_forward_rgb8(vit_model *m, const unsigned char *frames, int n, int width, int height, int stride, int channels, float *logits) {
    return vit__run_rgb8(m, frames, n, width, height, stride, channels, logits, 1, NULL, 0);
}

VITDEF vit_status vit_embed_rgb8(vit_model *m, const unsigned char *frames, int n, int width, int height, int stride, int channels, float *features) {
    return vit__run_rgb8(m, frames, n, width, height, stride, channels, features, 0, NULL, 0);
}

VITDEF vit_status vit_forward_rgb8_async(vit_model *m, const unsigned char *device_frames, int n, int width, int height, int stride, int channels,
                                         float *device_logits, void *cuda_stream) {
    return vit__run_rgb8(m, device_frames, n, width, height, stride, channels, device_logits, 1, cuda_stream, 1);
}

VITDEF vit_status vit_embed_rgb8_async(vit_model *m, const unsigned char *device_frames, int n, int width, int height, int stride, int channels,
                                       float *device_features, void *cuda_stream) {
    return vit__run_rgb8(m, device_frames, n, width, height, stride, channels, device_features, 0, cuda_stream, 1);
}

#if !defined(VIT_NO_STB_IMAGE) && !defined(VIT_NO_STDIO)
VITDEF vit_status vit_classify_file(vit_model *m, const char *path, int k, int *classes, float *probs) {
    if (!m) return VIT_ERROR_INVALID_ARGUMENT;
    const vit_config *c = &m->cfg;
    if (!path || !classes || k < 1)
        return vit__fail(m->error, VIT_ERROR_INVALID_ARGUMENT, "vit_classify_file: path and classes must be non-NULL and k >= 1");
    if (c->num_classes == 0) return vit__fail(m->error, VIT_ERROR_INVALID_ARGUMENT, "vit_classify_file: the model has no classifier head");
    size_t pixels = (size_t)c->in_chans * c->image_height * c->image_width;
    float *image = (float *)vit__malloc(&m->alloc, (pixels + (size_t)c->num_classes) * sizeof(float));
    if (!image) return vit__fail(m->error, VIT_ERROR_OUT_OF_MEMORY, "out of memory for one image");
    float *logits = image + pixels;
    vit_status st = vit_preprocess_file(m, path, image);
    if (st == VIT_OK) st = vit_forward(m, image, 1, logits);
    if (st == VIT_OK) {
        vit_softmax(logits, c->num_classes);
        int got = vit_topk(logits, c->num_classes, k, classes);
        for (int i = 0; probs && i < got; i++) probs[i] = logits[classes[i]];
    }
    vit__free(&m->alloc, image);
    return st;
}

VITDEF vit_status vit_embed_file(vit_model *m, const char *path, float *out) {
    if (!m) return VIT_ERROR_INVALID_ARGUMENT;
    const vit_config *c = &m->cfg;
    if (!path || !out) return vit__fail(m->error, VIT_ERROR_INVALID_ARGUMENT, "vit_embed_file: path and out must be non-NULL");
    size_t pixels = (size_t)c->in_chans * c->image_height * c->image_width;
    float *image = (float *)vit__malloc(&m->alloc, pixels * sizeof(float));
    if (!image) return vit__fail(m->error, VIT_ERROR_OUT_OF_MEMORY, "out of memory for one image");
    vit_status st = vit_preprocess_file(m, path, image);
    if (st == VIT_OK) st = vit_embed(m, image, 1, out);
    vit__free(&m->alloc, image);
    return st;
}
#endif

static vit_status vit__run_async(vit_model *m, const float *device_images, int n, float *device_out, void *stream, int want_logits) {
    if (!m) return VIT_ERROR_INVALID_ARGUMENT;
    const char *fn = want_logits ? "vit_forward_async" : "vit_embed_async";
    if (m->preprocess_only) return vit__weightless(m, fn);
    if (!device_images || !device_out || n < 1)
        return vit__fail(m->error, VIT_ERROR_INVALID_ARGUMENT, "%s: pointers must be non-NULL and n >= 1 (n = %d)", fn, n);
    if (want_logits && m->cfg.num_classes == 0)
        return vit__fail(m->error, VIT_ERROR_INVALID_ARGUMENT, "%s: the model has no classifier head", fn);
#ifdef VIT__CUDA
    if (m->cfg.device == VIT_DEVICE_CUDA) return vit__forward_cuda_async(m, device_images, n, device_out, want_logits, (cudaStream_t)stream);
#endif
    (void)stream;
    return vit__fail(m->error, VIT_ERROR_UNSUPPORTED, "%s: the model is not on a CUDA device", fn);
}

VITDEF vit_status vit_forward_async(vit_model *m, const float *device_images, int n, float *device_logits, void *cuda_stream) {
    return vit__run_async(m, device_images, n, device_logits, cuda_stream, 1);
}

VITDEF vit_status vit_embed_async(vit_model *m, const float *device_images, int n, float *device_features, void *cuda_stream) {
    return vit__run_async(m, device_images, n, device_features, cuda_stream, 0);
}

#endif // VIT_IMPLEMENTATION_INCLUDED
#endif // VIT_IMPLEMENTATION

/*
   REVISION HISTORY
      0.1.0 (2026-11-22) first release: safetensors loader, preprocessing, CPU and CUDA forward passes

------------------------------------------------------------------------------
This software is available under 2 licenses -- choose whichever you prefer.
------------------------------------------------------------------------------
ALTERNATIVE A - MIT License
Copyright (c) 2026 the vit.h developers
Permission is hereby granted, free of charge, to any person obtaining a copy of
this software and associated documentation files (the "Software"), to deal in
the Software without restriction, including without limitation the rights to
use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies
of the Software, and to permit persons to whom the Software is furnished to do
so, subject to the following conditions:
The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.
THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
------------------------------------------------------------------------------
ALTERNATIVE B - Public Domain (www.unlicense.org)
This is free and unencumbered software released into the public domain.
Anyone is free to copy, modify, publish, use, compile, sell, or distribute this
software, either in source code form or as a compiled binary, for any purpose,
commercial or non-commercial, and by any means.
In jurisdictions that recognize copyright laws, the author or authors of this
software dedicate any and all copyright interest in the software to the public
domain. We make this dedication for the benefit of the public at large and to
the detriment of our heirs and successors. We intend this dedication to be an
overt act of relinquishment in perpetuity of all present and future rights to
this software under copyright law.
THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN
ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION
WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
------------------------------------------------------------------------------
*/
