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
      - Zero-shot classification with a full CLIPModel / SiglipModel file, or
        an open_clip model as its push_to_hf_hub writes it
        (open_clip_model.safetensors + open_clip_config.json: OpenAI CLIP's
        towers, SigLIP's timm trunk) (vit_config.has_text): its text tower is
        loaded too (transformers' CLIPTextModel / SiglipTextModel, open_clip's
        TextTransformer: causal or not, its pooled token, its projection), vit_encode_ids turns token ids into normalised text
        embeddings (vit_encode_texts: from UTF-8 texts through the model's
        tokenizer, a prompt template optional), vit_image_embeds gives the
        images', and vit_zero_shot
        scores n images against k labels as the model was trained (CLIP: a
        softmax of logit_scale * cosine; SigLIP: the sigmoid of logit_scale *
        cosine + logit_bias), the label embeddings computed once and reused.
        On a CUDA model the text tower runs on its GPU, in its dtype.
      - Any resolution: vit_options.image_height/image_width (multiples of the
        patch size); the position embedding is resampled once at load exactly
        as the source library does it (timm: bicubic with antialiasing; HF
        interpolate_pos_encoding: bicubic, antialiased for DINOv2 with
        registers only; open_clip: resize_pos_embed's antialiased bicubic).
      - Never a silent wrong answer: a config value the math does not
        implement, or a tensor the model would not read, is refused with
        VIT_ERROR_UNSUPPORTED naming it (see FILE FORMAT for the tensors
        known to be irrelevant, which are skipped).
      - Complete fp32 CPU forward pass in C99, multi-threaded with OpenMP
        when compiled with -fopenmp (nvcc: -Xcompiler -fopenmp); otherwise
        single-threaded, and vit_config.openmp says so. Its GEMMs
        read weights repacked at load into 16-column panels, through
        AVX-512, AVX2+FMA or NEON register tiles chosen at run time by CPUID
        (a binary built for plain x86-64 still uses AVX-512 where the CPU and
        OS have it): GCC, Clang, clang-cl, MinGW and MSVC alike, x64 and
        ARM64; other compilers get portable C loops. The kernels sum in the
        reference order, so the ISA does not change the bits (nor does MSVC's
        branch, whose vector math runs lane by lane, where a compiler
        contracts a * b + c as GCC's -ffp-contract=fast does).
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
      - CUDA: bf16 by default (fp32 on request, fp16 with VIT_CUDA_F16),
        compute capability 8.0 or newer (vit_kernels.cuh: LIMITS), weights in
        one device allocation, activations in one arena sized for max_batch;
        the forward pass is captured as a CUDA graph the first time each batch
        size is seen (that first call allocates the graph), then replayed.
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
      - Tokenizers of the CLIP and SigLIP text towers (see TOKENIZERS):
        vit_tokenize gives the input ids transformers gives, from the
        model's own tokenizer files.
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
      VIT_SHARED             the API in a shared library (DLL, .so, .dylib):  (off)
                             define it wherever vit.h is included, in the
                             library's implementation file (dllexport) and in
                             its users (dllimport); off Windows, visibility
                             "default" (build with -fvisibility=hidden)
      VITDEF                 what every API declaration starts with; defined (extern)
                             by you, it overrides the three above
      VIT_TEST_MSVC_BRANCH   GCC/Clang build MSVC's branch of the compiler-     (off)
                             specific code (tests only; see >>policy)
      VIT_NO_STDIO           remove vit_load (file access); use vit_load_memory (off)
      VIT_NO_CUDA            never use CUDA, even under nvcc                   (off)
      VIT_CUDA_F16           compile the CUDA fp16 kernels (VIT_DTYPE_F16 on   (off)
                             the GPU; fp16 weights load without it, as bf16)
      VIT_CUDA_NO_F32        leave out the CUDA kernels of a dtype the program (off)
      VIT_CUDA_NO_FP8        does not use (fp32, fp8): a faster nvcc build     (off)
                             A dtype whose kernels are not compiled runs on the
                             CPU with VIT_DEVICE_DEFAULT (vit_last_error says
                             why), else VIT_ERROR_UNSUPPORTED naming the macro
      VIT_MALLOC/VIT_FREE    your allocator: define both or neither           (malloc/free)
      VIT_ASSERT(x)          internal invariants only, never input checks     (assert)
      VIT_MAX_HEADER_BYTES   largest safetensors JSON header accepted          (100 MB)
                             (and largest model.safetensors.index.json)
      VIT_MAX_SHARDS         most shard files of a sharded model               (1024)
      VIT_MAX_DIM            largest width, mlp width or class count           (65536)
      VIT_MAX_DEPTH          most transformer blocks                           (256)
      VIT_MAX_TOKENS         most tokens per image (patches + class token)     (16385)
      VIT_MAX_BATCH          largest max_batch option                          (65536)
      VIT_MAX_IMAGE_SIDE     widest/tallest image decoded (STBI_MAX_DIMENSIONS) (32768)
      VIT_MAX_IMAGE_PIXELS   most pixels of an image, checked before decoding  (1 << 26)
      VIT_NO_TEXT            leave out the text towers and the tokenizers: a   (off)
                             CLIP / SigLIP / open_clip file loads its image
                             tower (has_text 0); the text calls stay, answering
                             VIT_ERROR_UNSUPPORTED (vit_tokenizer_get_config: NULL)
      VIT_NO_TOKENIZER       leave out the tokenizers and their Unicode tables (off)
                             (and their declarations)
      VIT_MAX_TEXT_BYTES     longest text vit_tokenize takes                   (1 MiB)
      VIT_MAX_VOCAB          most tokens, merges or pieces of a tokenizer, and  (1 << 20)
                             token ids of a text tower's vocabulary
      VIT_NO_IMAGE_DECODE    leave out every file decoder (stb_image and vit.h's (off)
                             own): the calls that decode answer
                             VIT_ERROR_UNSUPPORTED unless a decoder hook decodes;
                             floats, 8-bit frames and the hook stay
      VIT_NO_STB_IMAGE       no stb_image: BMP and PNM only (vit.h's own), the (off)
                             calls without a hook not declared; vit_preprocess_rgb8
                             still works
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
      logit_bias: see vit_encode_ids), or by open_clip (CLIP / CustomTextCLIP
      state dicts: visual.conv1, visual.class_embedding,
      visual.positional_embedding, visual.ln_pre, visual.transformer.
      resblocks.N.{ln_1, attn.in_proj_*, attn.out_proj, ls_1, ln_2, mlp.c_fc,
      mlp.c_proj, ls_2}, visual.ln_post, visual.proj; or a timm trunk under
      visual.trunk. with visual.head.proj; the text tower at the top level or
      under text.: token_embedding, positional_embedding, transformer.*,
      ln_final, text_projection; logit_scale, logit_bias) (vit.h's name
      tables: vit__names).
      open_clip_config.json: model_cfg (embed_dim, quick_gelu, vision_cfg,
      text_cfg) and preprocess_cfg (mean, std, interpolation, resize_mode
      'shortest' or 'squash') are read as open_clip 3.3 builds its model and
      eval transform; settings vit.h does not compute (a ResNet or HF text
      tower, attentional pooling, custom attention blocks, letterboxing, any
      key it does not know) are refused naming the key. A model with a
      logit_bias scores with sigmoids (SigLIP), else a softmax (CLIP).
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
      folder; or else DIR/open_clip_model.safetensors with its
      open_clip_config.json (a file whose name starts with open_clip is read
      with open_clip_config.json beside it). A file that is not safetensors (an image, a torch.save zip, a
      JSON file) is refused as "not a safetensors file", naming what it looks
      like.

   TOKENIZERS
      vit_tokenizer_load(folder) reads a text tower's tokenizer as transformers
      saves it beside the weights, and vit_tokenize gives exactly the ids of
      tokenizer(text, padding="max_length", truncation=True,
      max_length=context)["input_ids"]: the special tokens, the text cut to the
      context, the pad id after it (tests/test_tokenizer.c: every string of a
      corpus of 3000 against transformers 5.24).
        CLIP: tokenizer.json (+ tokenizer_config.json for model_max_length and
        pad_token; defaults 77 and <|endoftext|>), CLIPTokenizer's pipeline:
        NFC, whitespace runs to one space, lower case, CLIP's split pattern,
        byte-level BPE with </w>, <|startoftext|> ... <|endoftext|>. Other
        tokenizer.json pipelines are refused (VIT_ERROR_UNSUPPORTED, naming the
        part). (ftfy and HTML unescaping are open_clip's, below.)
        SigLIP: spiece.model (the SentencePiece ModelProto: pieces, the
        precompiled NFKC charsmap, the normaliser's flags) + tokenizer_config.json
        (do_lower_case, legacy, added tokens; defaults: SiglipTokenizer's), as
        SiglipTokenizer: lower case, ASCII punctuation removed, whitespace
        collapsed, SentencePiece's Unigram, </s> after the text and as padding, 64.
        A SiglipTokenizer folder needs its spiece.model (transformers 5 saves one
        and cannot load the folder without it either).
        T5Tokenizer(Fast) (SigLIP's class on many folders; transformers 5 saves
        only tokenizer.json + tokenizer_config.json): tokenizer.json if there is
        one, as transformers 5's T5Tokenizer runs it: the Unigram vocabulary and
        the Precompiled charsmap (NFKC) from the file, the special tokens
        (eos/unk/pad and extra_special_tokens of tokenizer_config.json, pieces of
        the vocabulary) split out, the charsmap applied per grapheme cluster,
        whitespace split, "▁" before each word, the tokenizers library's Unigram,
        </s> after the text (tests/test_tokenizer.c t5_json: 3000 of 3000). Only
        the structures T5's converters write are read (Unigram with unk_id 2 and
        no byte fallback; Precompiled and Replace(' {2,}', ' '); Metaspace;
        TemplateProcessing "$A </s>"; extra_ids 0); others are refused
        (VIT_ERROR_UNSUPPORTED, naming the part).
        open_clip's layout (open_clip_config.json beside the tokenizer files, as
        open_clip's save_for_hf writes it): the ids of open_clip 3.3's
        get_tokenizer('local-dir:FOLDER')(texts). Its text cleaning first
        (basic_clean: ftfy.fix_text, html.unescape twice; then 'whitespace',
        'lower' or 'canonicalize' per text_cfg.tokenizer_kwargs.clean), of
        which vit.h does ftfy's ligature, width, quote, line-break, terminal
        escape and control-character fixes, NFC, and HTML entities (numeric
        ones, and the names in a short table); a text where ftfy's mojibake
        heuristic fires, an entity name it may not know, or NFC of a character
        newer than Unicode 9.0 is refused (VIT_ERROR_UNSUPPORTED, saying why).
        Then, without text_cfg.hf_tokenizer_name, SimpleTokenizer: OpenAI's BPE
        (the folder's tokenizer.json must be that one), <start_of_text> ...
        <end_of_text> cut to context_length (default 77), padded with 0 (pad_id);
        with it, HFTokenizer over the folder's tokenizer: T5Tokenizer(Fast)
        (SigLIP: tokenizer.json as above, else spiece.model; the text then
        </s>, padded with the config's pad token) or CLIP's as above.
        tokenizer_mode 'clips', strip_sep_token and other tokenizer_kwargs are
        refused. A folder holding both layouts (LAION's) is read as vit_load
        reads it: transformers' when it has model.safetensors (or its index);
        a path to a file named open_clip* reads open_clip's.
        vit_tokenizer_config.open_clip says which, and vit_encode_texts refuses
        a tokenizer of the other layout than its model's.
      All tokenize a text of up to VIT_MAX_TEXT_BYTES whole and keep the start
      (transformers' truncation). Text must be UTF-8 (else
      VIT_ERROR_INVALID_ARGUMENT with the byte offset). Unicode data: see
      >>tokenize (categories and case of Unicode 14.0, NFC of 9.0 as tokenizers
      has it). A code point unassigned in Unicode 14.0 (noncharacters aside) is
      refused (VIT_ERROR_UNSUPPORTED, naming it) by CLIP's tokenizer, by
      SigLIP's with do_lower_case and by open_clip's layout: the libraries
      vit.h reproduces know newer Unicode, in which it may be a letter, a
      number or cased (U+1C89, U+A7CB, CJK Extensions H and I), and the ids
      change. T5Tokenizer over tokenizer.json and SigLIP's without lower case
      take every code point. A tokenizer, like a model, is used by one thread
      at a time.

   SECTIONS
      Where each part of this file is: `grep -n '// >>' vit.h` gives their
      lines; make lint checks this list against the markers (names, order).
      >>api                     the public interface (this half of the file)
      >>setup                   includes, config macro defaults, compiler shims
      >>model                   struct vit_model, its blocks' weights, epilogues
      >>util                    allocation, errors, option defaults and checks,
                                top-k, softmax; files and folders
      >>json                    the strict JSON parser every loader reads with
      >>safetensors             safetensors header and tensor table, shards'
                                index.json, tensor reads (F32/F16/BF16)
      >>config                  config.json (timm, transformers), open_clip and
                                preprocessor configs, timm's architecture table
      >>config from tensors     tensor names per family, family detection,
                                the architecture inferred from shapes
      >>config text             a text tower's config, checked against tensors
      >>weights                 tensors -> the one fp32 weight allocation,
                                position embedding resampling
      >>tokenize                text -> ids: notes on every tokenizer; arrays,
                                hash maps, tries
      >>tokenize unicode        UTF-8, Unicode properties, lower case, NFC
      >>tokenize common         struct vit_tokenizer, tokenizer.json and
                                tokenizer_config.json reading, scratch
      >>tokenize clip bpe       CLIP's byte-level BPE (tokenizer.json)
      >>tokenize sentencepiece  SigLIP's spiece.model: SentencePiece Unigram,
                                the ModelProto reader, SiglipTokenizer
      >>tokenize t5 json        SigLIP's tokenizer.json (T5Tokenizer): Unigram,
                                grapheme clusters, Precompiled charsmap
      >>tokenize open_clip      open_clip's cleaning (ftfy, html), its
                                SimpleTokenizer and HFTokenizer
      >>tokenize load           vit_tokenize, vit_tokenizer_load(_memory)
      >>decode                  image bytes -> pixels: stb_image set-up
      >>decode pnm bmp          PNM and BMP decoders (PIL's)
      >>decode gif tga          GIF first frame and TGA fixes around stb_image
      >>decode png zlib         PNG fixes and checks, a checking zlib inflater
      >>decode jpeg guard       JPEG DHT overrun guard, JPEGs PIL reads otherwise
      >>decode dispatch         decoder choice, hooks, vit_decode_memory
      >>preprocess              PIL's resize, crop, normalise; vit_preprocess_*
      >>activations             GELU, QuickGELU, SiLU, the epilogue's activation
                                (CPU and GPU), 16-wide vector forms
      >>policy                  CPU ISA detection, GEMM task grid
      >>op linear               CPU GEMMs: reference, packed SIMD, int8, e4m3
      >>op patch_embed          im2col + GEMM, prefix tokens and positions
      >>op layernorm            LayerNorm over token rows
      >>op qk_norm              per-head LayerNorm of q and k
      >>op attention            multi-head attention: reference and fast
      >>op pool                 class token / average pooling, fc_norm
      >>op head                 the classifier head
      >>forward                 the CPU forward pass: blocks, attention pooling,
                                features, text towers
      >>cuda                    vit_kernels.cuh (nvcc without VIT_NO_CUDA)
      >>load                    vit_load, vit_load_memory, vit_free: packing,
                                quantisation, GPU upload
      >>run                     forward, embed, texts, zero-shot, features,
                                frames, files, async: checks and dispatch
      >>tables                  generated data (skip it): each block's tool
      >>tables unicode          Unicode categories, case, decompositions
      >>tables grapheme         grapheme cluster break classes
      >>tables open_clip        ftfy's and html's tables

   LICENSE
      See end of file.

   RECENT REVISION HISTORY
      0.1.0 (2026-11-22) first release: safetensors loader, preprocessing, CPU and CUDA forward passes
      (unreleased)       the ViT families (DeiT, DINOv2, CLIP, SigLIP), any resolution; model folders, sharded models;
                         no guessed preprocessing (vit_config.preprocess_source; vit_options mean/std/interpolation/crop_pct);
                         CLIP and SigLIP tokenizers (vit_tokenizer_load, vit_tokenize), text towers and zero-shot
                         classification (vit_encode_ids, vit_image_embeds, vit_zero_shot); dense features (vit_features);
                         open_clip's push_to_hf_hub folders (open_clip_model.safetensors + open_clip_config.json);
                         CUDA fp16 kernels opt-in (VIT_CUDA_F16); GPUs below sm_80 or without code in the program refused
                         by name (the CPU under VIT_DEVICE_DEFAULT); every kernel choice fits the GPU's shared memory
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
#elif defined(VIT_SHARED) && (defined(_WIN32) || defined(__CYGWIN__))
#if defined(VIT_IMPLEMENTATION) // the DLL's own file exports, its users import
#define VITDEF extern __declspec(dllexport)
#else
#define VITDEF extern __declspec(dllimport)
#endif
#elif defined(VIT_SHARED) && (defined(__GNUC__) || defined(__clang__))
#define VITDEF extern __attribute__((visibility("default")))
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
    VIT_PREPROCESS_FROM_OPTIONS,      // the caller's vit_options (mean, std, interpolation, crop_pct, resize, resize_size)
    VIT_PREPROCESS_FROM_OPEN_CLIP     // open_clip_config.json's preprocess_cfg (and vision_cfg image_size)
} vit_preprocess_source;

typedef enum vit_source {
    VIT_SOURCE_TIMM = 0,
    VIT_SOURCE_HF,
    VIT_SOURCE_OPEN_CLIP    // open_clip_model.safetensors + open_clip_config.json (open_clip's push_to_hf_hub)
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
    // The text tower of a full CLIPModel / SiglipModel or open_clip file (zero for any other model): vit_encode_ids, vit_zero_shot
    int has_text;       // 1: the file's text tower is loaded
    int text_context;   // L: ids per text (text_config's max_position_embeddings: CLIP 77, SigLIP 64)
    int text_vocab;     // the ids' range: [0, text_vocab)
    int embed_dim;      // E: the shared embedding width (vit_encode_ids' and vit_image_embeds' outputs)
    vit_match match;    // how vit_zero_shot scores (VIT_MATCH_NONE without a text tower)
    float logit_scale;  // exp of the file's logit_scale: the cosines' multiplier
    float logit_bias;   // SigLIP's logit_bias (CLIP: 0; open_clip: the file's, 0 without one)
} vit_config;

typedef struct vit_model vit_model;

// Loads a model from a .safetensors file (and the config.json beside it, if any;
// for a file named open_clip*: open_clip_config.json), or from a folder: its
// model.safetensors, else its model.safetensors.index.json and the shards it
// names, else its open_clip_model.safetensors (see FILE FORMAT). opts may be NULL. On success *out is a new model; on failure *out is NULL and a
// negative status is returned (detail: vit_last_error(NULL)).
#ifndef VIT_NO_STDIO
VITDEF vit_status vit_load(const char *safetensors_path, const vit_options *opts, vit_model **out);
#endif

// Like vit_load, from safetensors bytes in memory (copied; data may be freed
// afterwards). config.json text (or an open_clip_config.json's) may be given in
// opts->config_json.
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
// other embeddings). On a CUDA model the text tower runs on its GPU, in its dtype.

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

// Detail of m's last failure ("" if none); after a vit_load with
// VIT_DEVICE_DEFAULT that a CUDA build runs on the CPU, why it does (no GPU,
// compute capability below 8.0, no code in the program for this GPU, a dtype
// compiled out, ...) until a call on m fails. With m == NULL: the calling
// thread's last failed load. Never NULL. Valid until the next call on m / the
// next load.
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

#ifndef VIT_NO_TOKENIZER
// Text towers' tokenizers: text to the input ids of a CLIP or SigLIP text
// model, the ids transformers gives (tokenizer(text, padding="max_length",
// truncation=True, max_length=context)["input_ids"]), read from the model's
// own files (see TOKENIZERS above).
typedef struct vit_tokenizer vit_tokenizer;

typedef enum vit_tokenizer_type {
    VIT_TOKENIZER_CLIP_BPE = 1,      // tokenizer.json: CLIP's byte-level BPE, as transformers' CLIPTokenizer
    VIT_TOKENIZER_SIGLIP_UNIGRAM     // spiece.model (+ tokenizer_config.json): SentencePiece Unigram, as SiglipTokenizer;
                                     // or T5Tokenizer's tokenizer.json (Unigram), as transformers 5's T5Tokenizer
} vit_tokenizer_type;

typedef struct vit_tokenizer_config {
    vit_tokenizer_type type;
    int context;         // ids per text: vit_tokenize always writes this many (tokenizer_config.json's
                         // model_max_length; without it CLIP 77, SigLIP 64)
    int vocab_size;      // every id is below this
    int bos_id;          // the id put before the text (CLIP <|startoftext|>), -1 if none (SigLIP)
    int eos_id;          // the id put after it (CLIP <|endoftext|>, SigLIP </s>)
    int pad_id;          // the id that fills the rest (CLIP and SigLIP: the eos id; open_clip's SimpleTokenizer: 0)
    int unk_id;          // the id of text the vocabulary lacks
    int lower_case;      // 1 when the text is lower-cased first
    int open_clip;       // 1 for open_clip's tokenizer (open_clip_config.json): its ids go with the open_clip
                         // model (vit_config.source VIT_SOURCE_OPEN_CLIP), 0 with transformers' (vit_encode_texts checks)
    char source[96];     // the files read, e.g. "tokenizer.json, tokenizer_config.json" (open_clip's layout:
                         // "open_clip_config.json, ..."; from memory "memory", or "memory (open_clip_config.json)")
} vit_tokenizer_config;

// Loads a tokenizer from a model folder: its tokenizer_config.json (optional)
// names the class; CLIP's is tokenizer.json, SigLIP's spiece.model, T5Tokenizer's
// tokenizer.json if there is one, else spiece.model (a folder
// with no tokenizer_config.json: tokenizer.json, else spiece.model). A file may
// be given instead: a .json file as tokenizer.json, any other as spiece.model,
// with the tokenizer_config.json beside it if there is one. A folder with an
// open_clip_config.json is open_clip's layout: its ids are open_clip's (see
// TOKENIZERS; vit_tokenize may then refuse a text, VIT_ERROR_UNSUPPORTED), unless
// it has a model.safetensors or model.safetensors.index.json, which vit_load reads
// first: then it is transformers' (open_clip_config.json ignored), as it is for a
// path to any other .safetensors or .index.json file. A path to a file whose name
// starts with open_clip (open_clip_model.safetensors, open_clip_config.json) means
// open_clip's layout of its folder: so the path given to vit_load gives the
// tokenizer of that model (vit_tokenizer_config.open_clip). opts may be NULL
// (only its allocator is used). On failure *out is NULL and the status says
// why: VIT_ERROR_IO (no such files), VIT_ERROR_BAD_FORMAT (a file that is not
// what it claims, truncated, or inconsistent), VIT_ERROR_UNSUPPORTED (a valid
// tokenizer that is not CLIP's or SigLIP's, naming what), VIT_ERROR_LIMIT,
// VIT_ERROR_OUT_OF_MEMORY; the detail is in vit_tokenizer_last_error(NULL).
#ifndef VIT_NO_STDIO
VITDEF vit_status vit_tokenizer_load(const char *path, const vit_options *opts, vit_tokenizer **out);
#endif

// Like vit_tokenizer_load, from memory (copied): data is a tokenizer.json's
// text or a spiece.model's bytes (told apart by content), config_json the
// tokenizer_config.json text (NULL: none; config_size 0: strlen). config_json
// may instead be an open_clip_config.json's text (a top-level "model_cfg"): open_clip's
// SimpleTokenizer over a tokenizer.json (its HFTokenizer needs the folder:
// VIT_ERROR_UNSUPPORTED).
VITDEF vit_status vit_tokenizer_load_memory(const void *data, size_t size, const char *config_json, size_t config_size,
                                            const vit_options *opts, vit_tokenizer **out);

// Tokenizes len bytes of UTF-8 text into ids[0..context): the model's input
// ids, special tokens included, cut to the context and padded with pad_id.
// *n_tokens (if not NULL) gets the count before the padding (CLIP: the
// <|endoftext|> is ids[*n_tokens - 1]). Fails with VIT_ERROR_INVALID_ARGUMENT
// (NULL t or ids, text NULL with len > 0, max_ids < context, text that is not
// valid UTF-8: the byte offset in vit_tokenizer_last_error(t)), VIT_ERROR_UNSUPPORTED
// (open_clip's layout: a text whose cleaning vit.h cannot be sure of), VIT_ERROR_LIMIT
// (len > VIT_MAX_TEXT_BYTES), VIT_ERROR_OUT_OF_MEMORY; ids are then unspecified.
VITDEF vit_status vit_tokenize(vit_tokenizer *t, const char *text, size_t len, int *ids, int max_ids, int *n_tokens);

// The tokenizer's configuration; NULL if t is NULL.
VITDEF const vit_tokenizer_config *vit_tokenizer_get_config(const vit_tokenizer *t);

// Detail of t's last failure ("" if none); with t == NULL the calling
// thread's last failed vit_tokenizer_load*. Never NULL.
VITDEF const char *vit_tokenizer_last_error(const vit_tokenizer *t);

// Frees a tokenizer. NULL is allowed.
VITDEF void vit_tokenizer_free(vit_tokenizer *t);

// Encodes n texts (NUL-terminated UTF-8) as vit_encode_ids does, through the
// model's tokenizer t (vit_tokenizer_load of the model's folder): each text
// put into prompt_template first, as Python's prompt_template.format(text)
// puts it ("a photo of a {}."; "{{" and "}}" are literal braces; NULL: the
// text alone), then tokenised and padded to the context as transformers'
// tokenizer(texts, padding="max_length", truncation=True) does. out: n x
// embed_dim normalised embeddings. Fails with VIT_ERROR_INVALID_ARGUMENT (NULL
// pointers, n < 1, a model without a text tower, a template that is not one
// "{}" among literal text, a tokenizer that does not fit the model: another
// context, a larger vocabulary, or open_clip's tokenizer with a transformers
// model or the other way round: vit_tokenizer_config.open_clip), vit_tokenize's errors for a text (its
// number and the reason in vit_last_error(m)) and vit_encode_ids'.
VITDEF vit_status vit_encode_texts(vit_model *m, vit_tokenizer *t, const char *const *texts, int n, const char *prompt_template, float *out);
#endif

#ifdef __cplusplus
}
#endif

#endif // VIT_H_INCLUDED
// end header file /////////////////////////////////////////////////////////////

#ifdef VIT_IMPLEMENTATION
#ifndef VIT_IMPLEMENTATION_INCLUDED
#define VIT_IMPLEMENTATION_INCLUDED

// >>setup ---------------------------------------------------------------------
// The implementation's includes, the defaults of the configuration macros
// (VIT_MALLOC/VIT_FREE, VIT_ASSERT, the VIT_MAX_* limits) and the shims over
// compilers: static assert, thread-local, restrict, noinline, OpenMP pragmas,
// host-and-device functions, the generated tables' declarations.

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
#ifndef VIT_MAX_TEXT_BYTES
#define VIT_MAX_TEXT_BYTES (1u << 20)
#endif
#ifndef VIT_MAX_VOCAB
#define VIT_MAX_VOCAB (1 << 20)
#endif
#define VIT__MAX_JSON_DEPTH 64
#define VIT__ERR_LEN 512

#if defined(__CUDACC__) && !defined(VIT_NO_CUDA)
#define VIT__CUDA 1
#endif

// What the switches leave out of the implementation. VIT_NO_TEXT takes the
// tokenizers with the text towers, VIT_NO_IMAGE_DECODE stb_image with vit.h's
// own decoders; the calls the header declares stay, answering
// VIT_ERROR_UNSUPPORTED (only VIT_NO_TOKENIZER and VIT_NO_STB_IMAGE themselves
// take declarations away).
#if defined(VIT_NO_TOKENIZER) || defined(VIT_NO_TEXT)
#define VIT__NO_TOKENIZER 1
#endif
#if defined(VIT_NO_STB_IMAGE) || defined(VIT_NO_IMAGE_DECODE)
#define VIT__NO_STB 1
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

#if defined(__CUDACC__)
#define VIT__HD __host__ __device__ // math shared by the CPU and the kernels: epilogues, the resampler's taps
#else
#define VIT__HD
#endif

// restrict: C99's keyword; C++ has none, and MSVC, GCC and Clang all spell theirs
// __restrict (MSVC's C before /std:c11 too)
#if defined(__cplusplus) || defined(_MSC_VER)
#define VIT__RESTRICT __restrict
#else
#define VIT__RESTRICT restrict
#endif
// MSVC's branch of the compiler-specific code: MSVC itself, or GCC/Clang told to
// build what MSVC compiles (VIT_TEST_MSVC_BRANCH; see >>policy). GNU vector
// extensions (vector_size) are GCC's and Clang's (clang-cl's too), not MSVC's.
#if (defined(_MSC_VER) && !defined(__clang__)) || defined(VIT_TEST_MSVC_BRANCH)
#define VIT__MSVC_BRANCH 1
#endif
#if (defined(__GNUC__) || defined(__clang__)) && !defined(VIT__MSVC_BRANCH)
#define VIT__GNU_VECTORS 1
#endif

// a helper kept out of the SIMD microkernels that call it (see vit__gemm_epilogue),
// and a microkernel inlined into each of its tile shapes (its row count a constant)
#if defined(__GNUC__) || defined(__clang__)
#define VIT__NOINLINE __attribute__((noinline))
#define VIT__FORCEINLINE inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define VIT__NOINLINE __declspec(noinline)
#define VIT__FORCEINLINE __forceinline
#else
#define VIT__NOINLINE
#define VIT__FORCEINLINE inline
#endif

#ifdef _OPENMP
#if defined(_MSC_VER) && !defined(__clang__)
#define VIT__PRAGMA(x) __pragma(x) // (_Pragma: only /std:c11 and later, /Zc:preprocessor)
#else
#define VIT__PRAGMA(x) _Pragma(#x)
#endif
#define VIT__PARALLEL_FOR(nthreads) VIT__PRAGMA(omp parallel for schedule(static) num_threads(nthreads))
#define VIT__PARALLEL_FOR_DYNAMIC(nthreads) VIT__PRAGMA(omp parallel for schedule(dynamic, 1) num_threads(nthreads))
#define VIT__THREAD_ID() omp_get_thread_num()
#else
#define VIT__PARALLEL_FOR(nthreads)
#define VIT__PARALLEL_FOR_DYNAMIC(nthreads)
#define VIT__THREAD_ID() 0
#endif

// The generated tables (>>tables) sit at the end of the implementation and are
// declared where the code uses them: a static const array declared before its
// definition is a tentative definition in C, which C++ does not have; there it
// is an extern const declaration inside an unnamed namespace (internal linkage
// all the same).
#if defined(__cplusplus)
#define VIT__TABLES_BEGIN namespace {
#define VIT__TABLES_END }
#define VIT__TABLE extern const
#else
#define VIT__TABLES_BEGIN
#define VIT__TABLES_END
#define VIT__TABLE static const
#endif

// >>model ---------------------------------------------------------------------
// The model: struct vit_model (config, weights, activations, the GPU state),
// its blocks' weights (vit__block, int8 vit__q8), the GEMM epilogue's output
// modes and activations.

#ifdef VIT__CUDA
typedef struct vit__cuda_state vit__cuda_state;
#endif

// GEMM epilogues (see >>activations): an output mode times an activation
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
    VIT__TEXT_POOL_LAST,    // SigLIP: the last token
    VIT__TEXT_POOL_FIRST    // open_clip pool_type 'first': the first token
};

// >>util ----------------------------------------------------------------------
// What the other sections share: allocation, error records (vit__fail),
// size arithmetic, status strings, option defaults and checks, top-k and
// softmax; files and folders (vit__read_file, vit__folder_model, ...).

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

// MinGW: GCC's printf attribute there is msvcrt's, which knows no %zu; __mingw_vsnprintf
// (in every MinGW-w64 CRT, msvcrt or UCRT) formats C99, whatever __USE_MINGW_ANSI_STDIO says
#if defined(__MINGW32__) && !defined(__clang__)
__attribute__((format(gnu_printf, 3, 4)))
#elif defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 3, 4)))
#endif
static vit_status vit__fail(char *err, vit_status st, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
#if defined(__MINGW32__)
    __mingw_vsnprintf(err, VIT__ERR_LEN, fmt, ap);
#else
    vsnprintf(err, VIT__ERR_LEN, fmt, ap);
#endif
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

// Python's round() of v >= 0 (half to even), as timm's ResizeKeepRatio and
// torchvision's CenterCrop use it.
static double vit__round_half_even(double v) {
    double f = floor(v), d = v - f;
    return d > 0.5 || (d == 0.5 && fmod(f, 2.0) != 0.0) ? f + 1.0 : f;
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

#ifndef VIT_NO_STDIO
// Every file vit.h opens, opened for reading. A path is UTF-8; on Windows fopen would
// read it in the ANSI code page, so it goes through the wide API (_wfopen), as UTF-16.
// A path that is not valid UTF-8 is read in the ANSI code page, as fopen reads it.
#ifdef _WIN32
#ifdef __cplusplus
extern "C" {
#endif
// kernel32's, declared as <windows.h> does (which vit.h does not include: its macros)
__declspec(dllimport) int __stdcall MultiByteToWideChar(unsigned int cp, unsigned long flags, const char *str, int cbmb, wchar_t *widestr, int cchwide);
__declspec(dllimport) unsigned long __stdcall GetFileAttributesW(const wchar_t *name);
#ifdef __cplusplus
}
#endif
#define VIT__WPATH 4096 // UTF-16 units: vit.h's paths are shorter than 4,096 bytes

// path as UTF-16 into w; 0 when it does not fit
static int vit__wpath(const char *path, wchar_t *w) {
    if (MultiByteToWideChar(65001 /* CP_UTF8 */, 8 /* MB_ERR_INVALID_CHARS */, path, -1, w, VIT__WPATH) > 0) return 1;
    return MultiByteToWideChar(0 /* CP_ACP */, 0, path, -1, w, VIT__WPATH) > 0;
}
#endif

static FILE *vit__fopen(const char *path) {
#ifdef _WIN32
    wchar_t w[VIT__WPATH];
    return vit__wpath(path, w) ? _wfopen(w, L"rb") : NULL;
#else
    return fopen(path, "rb");
#endif
}

// Reads a whole file. Missing file with optional -> VIT_OK and *data NULL.
static vit_status vit__read_file(const char *path, const vit_allocator *a, int optional, char **data, size_t *size, char *err) {
    *data = NULL;
    *size = 0;
    FILE *f = vit__fopen(path);
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

// 1 when path is a directory. POSIX: it opens but reads as one (EISDIR on read).
// Windows opens no directory: its attributes say (a trailing / or \ is allowed).
static int vit__is_dir(const char *path) {
#ifdef _WIN32
    wchar_t w[VIT__WPATH];
    unsigned long attr = vit__wpath(path, w) ? GetFileAttributesW(w) : 0xFFFFFFFFul;
    return attr != 0xFFFFFFFFul /* INVALID_FILE_ATTRIBUTES */ && (attr & 0x10 /* FILE_ATTRIBUTE_DIRECTORY */);
#else
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    int dir = getc(f) == EOF && ferror(f);
    fclose(f);
    return dir;
#endif
}

static int vit__exists(const char *path) {
    FILE *f = vit__fopen(path);
    if (f) fclose(f);
    return f != NULL;
}

// The file vit_load reads in the folder dir (ending in a separator), its path
// into out: 1 model.safetensors, else 2 model.safetensors.index.json (a sharded
// model), else 3 open_clip_model.safetensors (open_clip's push_to_hf_hub); 0: none.
// vit_tokenizer_load reads the tokenizer of the same layout.
static int vit__folder_model(const char *dir, char *out, size_t cap) {
    static const char *const names[3] = {"model.safetensors", "model.safetensors.index.json", "open_clip_model.safetensors"};
    for (int k = 0; k < 3; k++) {
        snprintf(out, cap, "%s%s", dir, names[k]);
        if (vit__exists(out)) return k + 1;
    }
    return 0;
}

// 1 when path's file name starts with open_clip: open_clip's files, read with the
// open_clip_config.json beside them.
static int vit__open_clip_file(const char *path) {
    const char *base = strrchr(path, '/');
#ifdef _WIN32
    const char *bs = strrchr(path, '\\');
    if (bs && (!base || bs > base)) base = bs;
#endif
    return !strncmp(base ? base + 1 : path, "open_clip", 9);
}
#endif // VIT_NO_STDIO

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

// >>safetensors ---------------------------------------------------------------
// safetensors bytes -> a tensor table (names, dtypes, shapes, offsets),
// every header byte treated as hostile; sharded models' index.json; tensor
// lookups and element reads (F32, F16, BF16). The loader's state.

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
    VIT__FAM_HF_CLIP_TEXT, VIT__FAM_HF_SIGLIP_TEXT,
    VIT__FAM_OPEN_CLIP, VIT__FAM_OPEN_CLIP_TEXT, // open_clip's own towers (OpenAI CLIP's names); its timm trunks are VIT__FAM_TIMM
    VIT__FAM_COUNT
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
    const char *text_prefix;// a full CLIP / SigLIP file's text tower ("text_model."; open_clip "" or "text."), or NULL
    vit__family text_fam;   // its family
    int open_clip;          // the config is open_clip_config.json (model_cfg, preprocess_cfg)
    int open_clip_ln_pre, open_clip_ls, open_clip_bias, open_clip_custom; // what it says of ln_pre, LayerScale, logit_bias, text.
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

// >>config --------------------------------------------------------------------
// The config files -> vit_config: timm's config.json (and its table of
// architectures), transformers' config.json, open_clip_config.json,
// preprocessor_config.json, the stated preprocessing; labels.

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
// ---- timm architectures: begin (tools/make_timm_archs.py; do not edit)
// timm 1.0.31's vision_transformer and deit modules
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
// ---- timm architectures: end

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

// What timm's architecture `name` fixes in its source (activation, eps, heads,
// prefix tokens) into s; file: the config that names it, for the messages.
static vit_status vit__timm_arch_stated(vit__loader *L, const char *name, const char *file, vit__stated *s) {
    const struct vit__timm_arch *a = vit__timm_arch_find(name);
    if (!a) return vit__fail(L->err, VIT_ERROR_UNSUPPORTED, "%s: architecture '%s' is not one of timm's ViT architectures that vit.h knows", file, name);
    if (a->kind == 'x') return vit__fail(L->err, VIT_ERROR_UNSUPPORTED, "%s: architecture '%s' uses %s, which vit.h does not compute", file, name, a->why);
    s->act = a->kind == 'q' ? VIT_ACT_QUICK_GELU : a->kind == 't' ? VIT_ACT_GELU_TANH : a->kind == 's' ? VIT_ACT_SWIGLU : VIT_ACT_GELU;
    s->eps = a->kind == 'G' || a->kind == 'q' ? 1e-5 : 1e-6;
    s->projection = strstr(name, "_clip") != NULL; // open_clip's image projection, as timm's head
    s->distilled = strstr(name, "_distilled") != NULL; // the names say the prefix tokens the architecture makes
    const char *rg = strstr(name, "_reg");
    if (rg && rg[4] >= '0' && rg[4] <= '9') s->reg_tokens = atoi(rg + 4);
    int h = vit__arch_heads(name);
    if (h) s->num_heads = h;
    return VIT_OK;
}

static vit_status vit__read_config_timm(vit__loader *L, const vit__json *j, int root, vit_config *cfg, vit__stated *s) {
    vit_status st;
    int args = vit__json_get(j, root, "model_args");
    int arch = vit__json_get(j, root, "architecture");
    char name[128];
    if (arch >= 0 && j->nodes[arch].type == VIT__J_STR) {
        vit__json_str(j, arch, name, sizeof(name));
        if ((st = vit__timm_arch_stated(L, name, "config.json", s)) != VIT_OK) return st;
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
        {"", ""}, {"", ""}, {"", ""}, {"", ""}}; // (text: vit__read_text_config; open_clip: vit__read_config_open_clip)
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

// ---- open_clip_config.json (open_clip's push_to_hf_hub: model_cfg + preprocess_cfg)

// The keys of an open_clip config object that vit.h reads, or that do not
// change inference (training-only settings); any other key is refused.
static vit_status vit__open_clip_keys(vit__loader *L, const vit__json *j, int obj, const char *what, const char *const *known, size_t n) {
    char name[64];
    for (int k = j->nodes[obj].first_child; k >= 0; k = j->nodes[j->nodes[k].next].next) {
        size_t i = 0;
        while (i < n && !vit__json_eq(j, k, known[i])) i++;
        if (i == n) {
            vit__json_str(j, k, name, sizeof(name));
            return vit__fail(L->err, VIT_ERROR_UNSUPPORTED, "open_clip_config.json: %s '%s' is not computed by vit.h", what, name);
        }
    }
    return VIT_OK;
}

// Python's truth value of a config value, as open_clip tests its settings
// (`if cfg.quick_gelu:`): absent, null, false, 0, "", [] and {} are false.
static int vit__py_true(const vit__json *j, int obj, const char *key) {
    int n = vit__json_get(j, obj, key);
    double d;
    if (n < 0) return 0;
    switch (j->nodes[n].type) {
    case VIT__J_TRUE: return 1;
    case VIT__J_NUM: return !(vit__json_double(j, n, &d) && d == 0.0);
    case VIT__J_STR: return j->nodes[n].len > 0;
    case VIT__J_ARR: case VIT__J_OBJ: return j->nodes[n].count > 0;
    default: return 0;
    }
}

// A setting that must be false as Python reads it, or one of the allowed strings (NULL: none).
static vit_status vit__open_clip_off(vit__loader *L, const vit__json *j, int obj, const char *what, const char *key, const char *allowed) {
    int n = vit__json_get(j, obj, key);
    if (!vit__py_true(j, obj, key)) return VIT_OK;
    if (allowed && j->nodes[n].type == VIT__J_STR)
        for (const char *a = allowed; *a; a += strlen(a) + 1)
            if (vit__json_eq(j, n, a)) return VIT_OK;
    return vit__fail(L->err, VIT_ERROR_UNSUPPORTED, "open_clip_config.json: %s %s is set, which vit.h does not compute", what, key);
}

// act_kwargs (nn.GELU's approximate) and norm_kwargs (LayerNorm's eps) of a tower.
static vit_status vit__open_clip_act_norm(vit__loader *L, const vit__json *j, int obj, const char *what, int quick_gelu, int *act, double *eps) {
    int n = vit__json_get(j, obj, "act_kwargs"), k;
    *act = quick_gelu ? VIT_ACT_QUICK_GELU : VIT_ACT_GELU;
    *eps = 1e-5; // nn.LayerNorm's
    if (n >= 0 && j->nodes[n].type == VIT__J_OBJ && j->nodes[n].count > 0) {
        k = vit__json_get(j, n, "approximate");
        if (quick_gelu || j->nodes[n].count != 1 || k < 0 || !(vit__json_eq(j, k, "tanh") || vit__json_eq(j, k, "none")))
            return vit__fail(L->err, VIT_ERROR_UNSUPPORTED, "open_clip_config.json: %s act_kwargs other than nn.GELU's approximate", what);
        if (vit__json_eq(j, k, "tanh")) *act = VIT_ACT_GELU_TANH;
    } else if (n >= 0 && j->nodes[n].type != VIT__J_NULL && j->nodes[n].type != VIT__J_OBJ)
        return vit__fail(L->err, VIT_ERROR_BAD_FORMAT, "open_clip_config.json: %s act_kwargs is not an object", what);
    n = vit__json_get(j, obj, "norm_kwargs");
    if (n >= 0 && j->nodes[n].type == VIT__J_OBJ && j->nodes[n].count > 0) {
        k = vit__json_get(j, n, "eps");
        if (j->nodes[n].count != 1 || k < 0 || !vit__json_double(j, k, eps) || !(*eps > 0.0 && *eps < 1.0))
            return vit__fail(L->err, VIT_ERROR_UNSUPPORTED, "open_clip_config.json: %s norm_kwargs other than an eps in (0, 1)", what);
    } else if (n >= 0 && j->nodes[n].type != VIT__J_NULL && j->nodes[n].type != VIT__J_OBJ)
        return vit__fail(L->err, VIT_ERROR_BAD_FORMAT, "open_clip_config.json: %s norm_kwargs is not an object", what);
    return VIT_OK;
}

// The custom attention-block settings both towers may have (open_clip 3's CustomResidualAttentionBlock).
static vit_status vit__open_clip_plain_blocks(vit__loader *L, const vit__json *j, int obj, const char *what) {
    static const char *const custom[] = {"qk_norm", "scaled_cosine_attn", "scale_heads", "scale_attn_inner", "scale_attn", "scale_fc"};
    vit_status st = vit__open_clip_off(L, j, obj, what, "block_type", "default\0");
    for (size_t i = 0; st == VIT_OK && i < sizeof(custom) / sizeof(custom[0]); i++) st = vit__open_clip_off(L, j, obj, what, custom[i], NULL);
    return st;
}

// model_cfg (the image tower's settings into s; the text tower's are read by
// vit__read_text_config) and preprocess_cfg (open_clip's eval transform:
// transform.py image_transform) from open_clip_config.json, as open_clip 3.3's
// factory builds the model (model.py _build_vision_tower, timm_model.py).
static vit_status vit__read_config_open_clip(vit__loader *L, const vit__json *j, int root, vit_config *cfg, vit__stated *s) {
    static const char *const model_keys[] = {"embed_dim", "vision_cfg", "text_cfg", "quick_gelu", "custom_text", "cast_dtype", "init_logit_scale",
                                             "init_logit_bias", "nonscalar_logit_scale"};
    static const char *const vision_keys[] = {
        "layers", "width", "head_width", "mlp_ratio", "patch_size", "image_size", "ls_init_value", "patch_dropout", "attentional_pool",
        "attn_pooler_queries", "attn_pooler_heads", "no_ln_pre", "pos_embed_type", "final_ln_after_pool", "pool_type", "output_tokens", "act_kwargs",
        "norm_kwargs", "block_type", "qk_norm", "scaled_cosine_attn", "scale_heads", "scale_attn_inner", "scale_attn", "scale_fc", "timm_model_name",
        "timm_model_pretrained", "timm_pool", "timm_proj", "timm_proj_bias", "timm_drop", "timm_drop_path"};
    static const char *const pre_keys[] = {"mean", "std", "interpolation", "resize_mode", "fill_color", "size", "mode"};
    vit_status st;
    char name[128];
    int mc = vit__json_get(j, root, "model_cfg"), n;
    if (mc < 0 || j->nodes[mc].type != VIT__J_OBJ) return vit__fail(L->err, VIT_ERROR_BAD_FORMAT, "open_clip_config.json: model_cfg is not an object");
    if ((st = vit__open_clip_keys(L, j, mc, "model_cfg", model_keys, sizeof(model_keys) / sizeof(model_keys[0]))) != VIT_OK) return st;
    int vc = vit__json_get(j, mc, "vision_cfg"), quick = vit__py_true(j, mc, "quick_gelu");
    if (vc < 0 || j->nodes[vc].type != VIT__J_OBJ) return vit__fail(L->err, VIT_ERROR_BAD_FORMAT, "open_clip_config.json: model_cfg has no vision_cfg object");
    if ((st = vit__open_clip_keys(L, j, vc, "vision_cfg", vision_keys, sizeof(vision_keys) / sizeof(vision_keys[0]))) != VIT_OK) return st;
    if ((st = vit__cfg_size(L, j, vc, "image_size", &s->image_h, &s->image_w)) != VIT_OK) return st;
    if (s->image_h < 0) s->image_h = s->image_w = 224; // CLIPVisionCfg's default
    int tn = vit__json_get(j, vc, "timm_model_name"), timm = vit__py_true(j, vc, "timm_model_name");
    if (timm && j->nodes[tn].type != VIT__J_STR) return vit__fail(L->err, VIT_ERROR_BAD_FORMAT, "open_clip_config.json: vision_cfg timm_model_name is not a string");
    if (timm != (L->fam == VIT__FAM_TIMM))
        return vit__fail(L->err, VIT_ERROR_UNSUPPORTED, "open_clip_config.json: vision_cfg %s timm_model_name but the tensors are %s", timm ? "has a" : "has no",
                         L->fam == VIT__FAM_TIMM ? "a timm trunk's (visual.trunk.*)" : "OpenAI CLIP's (visual.conv1.weight, ...)");
    if (timm) { // a timm trunk (TimmModel): the architecture's own act/eps; pooling and head per timm_pool / timm_proj
        vit__json_str(j, tn, name, sizeof(name));
        if ((st = vit__timm_arch_stated(L, name, "open_clip_config.json vision_cfg timm_model_name", s)) != VIT_OK) return st;
        snprintf(cfg->architecture, sizeof(cfg->architecture), "%.63s", name);
        int pool = vit__json_get(j, vc, "timm_pool"), proj = vit__json_get(j, vc, "timm_proj");
        if (pool < 0 || vit__json_eq(j, pool, "avg")) s->pool = VIT_POOL_AVG; // (CLIPVisionCfg's default)
        else if (vit__json_eq(j, pool, "map")) s->pool = VIT_POOL_MAP;
        else if (vit__json_eq(j, pool, "token")) s->pool = VIT_POOL_TOKEN;
        else return vit__fail(L->err, VIT_ERROR_UNSUPPORTED, "open_clip_config.json: vision_cfg timm_pool must be 'avg', 'map' or 'token'");
        // 'none': the trunk's pooled features; 'linear': visual.head.proj; '' / null: the trunk's own head (num_classes = embed_dim)
        if (proj >= 0 && !(vit__json_eq(j, proj, "none") || vit__json_eq(j, proj, "linear") || vit__json_eq(j, proj, "") || j->nodes[proj].type == VIT__J_NULL))
            return vit__fail(L->err, VIT_ERROR_UNSUPPORTED, "open_clip_config.json: vision_cfg timm_proj must be 'linear', 'none' or '' (an MLP head is not computed)");
        s->projection = !(proj >= 0 && vit__json_eq(j, proj, "none"));
        if (vit__py_true(j, vc, "timm_proj_bias") && !(proj < 0 || vit__json_eq(j, proj, "linear")))
            return vit__fail(L->err, VIT_ERROR_UNSUPPORTED, "open_clip_config.json: vision_cfg timm_proj_bias without timm_proj 'linear'");
        s->num_classes = -1;
    } else { // OpenAI CLIP's VisionTransformer
        int layers = vit__json_get(j, vc, "layers"), width = 768, head_width = 64;
        double ratio = 4.0;
        if (layers >= 0 && j->nodes[layers].type == VIT__J_ARR)
            return vit__fail(L->err, VIT_ERROR_UNSUPPORTED, "open_clip_config.json: vision_cfg layers is a list (a ResNet image tower)");
        if ((st = vit__cfg_int(L, j, vc, "layers", 1, VIT_MAX_DEPTH, &s->depth)) || (st = vit__cfg_int(L, j, vc, "width", 1, VIT_MAX_DIM, &width)) ||
            (st = vit__cfg_int(L, j, vc, "head_width", 1, VIT_MAX_DIM, &head_width)) || (st = vit__cfg_size(L, j, vc, "patch_size", &s->patch_size, NULL)))
            return st;
        if (s->depth < 0) s->depth = 12;
        if (s->patch_size < 0) s->patch_size = 16;
        if ((n = vit__json_get(j, vc, "mlp_ratio")) >= 0 && (!vit__json_double(j, n, &ratio) || !(ratio > 0.0 && ratio < 64.0)))
            return vit__fail(L->err, VIT_ERROR_BAD_FORMAT, "open_clip_config.json: vision_cfg mlp_ratio must be a number in (0, 64)");
        if (width % head_width)
            return vit__fail(L->err, VIT_ERROR_UNSUPPORTED, "open_clip_config.json: vision_cfg head_width %d does not divide width %d", head_width, width);
        s->dim = width;
        s->num_heads = width / head_width; // (vision_heads = width // head_width)
        s->mlp_dim = (int)(width * ratio);  // (mlp_width = int(width * mlp_ratio))
        s->class_token = 1;
        s->projection = 1;
        snprintf(cfg->architecture, sizeof(cfg->architecture), "VisionTransformer");
        if ((st = vit__open_clip_off(L, j, vc, "vision_cfg", "attentional_pool", NULL)) ||
            (st = vit__open_clip_off(L, j, vc, "vision_cfg", "timm_model_name", NULL)) || (st = vit__open_clip_plain_blocks(L, j, vc, "vision_cfg")))
            return st;
        if ((n = vit__json_get(j, vc, "pos_embed_type")) >= 0 && !vit__json_eq(j, n, "learnable"))
            return vit__fail(L->err, VIT_ERROR_UNSUPPORTED, "open_clip_config.json: vision_cfg pos_embed_type other than 'learnable'");
        // ln_post then the pool ('tok': the class token, 'avg': the patch tokens' mean); after the pool it is the same for one token
        n = vit__json_get(j, vc, "pool_type");
        s->pool = n < 0 || vit__json_eq(j, n, "tok") ? VIT_POOL_TOKEN : vit__json_eq(j, n, "avg") ? VIT_POOL_AVG : -1;
        if (s->pool < 0) return vit__fail(L->err, VIT_ERROR_UNSUPPORTED, "open_clip_config.json: vision_cfg pool_type must be 'tok' or 'avg'");
        if (s->pool == VIT_POOL_AVG && vit__py_true(j, vc, "final_ln_after_pool"))
            return vit__fail(L->err, VIT_ERROR_UNSUPPORTED, "open_clip_config.json: vision_cfg final_ln_after_pool with pool_type 'avg'");
        if ((st = vit__open_clip_act_norm(L, j, vc, "vision_cfg", quick, &s->act, &s->eps)) != VIT_OK) return st;
        s->fc_norm = 0;
        L->open_clip_ln_pre = !vit__py_true(j, vc, "no_ln_pre");
        L->open_clip_ls = (n = vit__json_get(j, vc, "ls_init_value")) >= 0 && j->nodes[n].type != VIT__J_NULL; // (`is not None`)
    }
    // preprocess_cfg: absent keys are open_clip's PreprocessCfg defaults (OpenAI's mean/std, bicubic, shortest)
    static const float openai_mean[3] = {0.48145466f, 0.4578275f, 0.40821073f}, openai_std[3] = {0.26862954f, 0.26130258f, 0.27577711f};
    for (int c = 0; c < 3; c++) { cfg->mean[c] = openai_mean[c]; cfg->std[c] = openai_std[c]; }
    cfg->interpolation = VIT_INTERP_BICUBIC;
    cfg->resize = VIT_RESIZE_SHORTER_CROP;
    cfg->crop_pct = 1.0f;
    int pc = vit__json_get(j, root, "preprocess_cfg");
    if (pc >= 0 && j->nodes[pc].type != VIT__J_OBJ) return vit__fail(L->err, VIT_ERROR_BAD_FORMAT, "open_clip_config.json: preprocess_cfg is not an object");
    if (pc >= 0) {
        if ((st = vit__open_clip_keys(L, j, pc, "preprocess_cfg", pre_keys, sizeof(pre_keys) / sizeof(pre_keys[0]))) ||
            (st = vit__cfg_floats(L, j, pc, "mean", cfg->mean, 3)) || (st = vit__cfg_floats(L, j, pc, "std", cfg->std, 3)))
            return st;
        if ((n = vit__json_get(j, pc, "interpolation")) >= 0 && !vit__json_eq(j, n, "random") && // ('random': bicubic at inference)
            (!vit__cfg_interp(j, pc, "interpolation", &cfg->interpolation) || cfg->interpolation == VIT_INTERP_NEAREST))
            return vit__fail(L->err, VIT_ERROR_UNSUPPORTED, "open_clip_config.json: preprocess_cfg interpolation must be 'bicubic' or 'bilinear'");
        if ((n = vit__json_get(j, pc, "resize_mode")) >= 0) {
            if (vit__json_eq(j, n, "squash")) cfg->resize = VIT_RESIZE_SQUARE;
            else if (!vit__json_eq(j, n, "shortest"))
                return vit__fail(L->err, VIT_ERROR_UNSUPPORTED, "open_clip_config.json: preprocess_cfg resize_mode must be 'shortest' or 'squash' (not letterboxing 'longest')");
        }
        if ((n = vit__json_get(j, pc, "mode")) >= 0 && !vit__json_eq(j, n, "RGB"))
            return vit__fail(L->err, VIT_ERROR_UNSUPPORTED, "open_clip_config.json: preprocess_cfg mode other than 'RGB'");
    }
    // a non-square 'shortest' crop is ResizeKeepRatio's, which open_clip builds without the interpolation: bicubic
    if (cfg->resize == VIT_RESIZE_SHORTER_CROP && s->image_h != s->image_w && cfg->interpolation != VIT_INTERP_BICUBIC)
        return vit__fail(L->err, VIT_ERROR_UNSUPPORTED, "open_clip_config.json: a non-square image_size with resize_mode 'shortest' resizes bicubic whatever the interpolation");
    vit__set_preprocess_source(cfg, VIT_PREPROCESS_FROM_OPEN_CLIP, "open_clip_config.json preprocess_cfg");
    L->default_side = 0;
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
    int open_clip_names = L->fam == VIT__FAM_OPEN_CLIP || !strcmp(L->prefix, "visual.trunk.");
    L->open_clip = root >= 0 && vit__json_get(j, root, "model_cfg") >= 0;
    if (L->open_clip != open_clip_names)
        return vit__fail(L->err, VIT_ERROR_UNSUPPORTED, L->open_clip ? "open_clip_config.json (model_cfg) but the tensors are not named as open_clip writes them (visual.*)"
                                                                     : "the tensors are named as open_clip writes them (visual.*): open_clip_config.json must come with them "
                                                                       "(its quick_gelu, pooling and preprocessing are not in the tensors)");
    if (L->open_clip) return vit__read_config_open_clip(L, j, root, cfg, s);
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

// >>config from tensors -------------------------------------------------------
// The tensor names of each source (timm, transformers, open_clip) by role;
// which family a file is, and the architecture its shapes say (checked
// against what the config files stated).

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
    {VIT__FAM_TIMM, VIT__R_HEAD_W, "head.weight|/visual.head.proj.weight"}, // (open_clip's timm trunks: timm_proj 'linear')
    {VIT__FAM_TIMM, VIT__R_HEAD_B, "head.bias|/visual.head.proj.bias"},
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
    // open_clip (OpenAI CLIP's names): the image tower (prefix visual.), the text tower (prefix "" or, CustomTextCLIP, text.);
    // proj and text_projection without ".weight" are (in, out) matrices (x @ proj); in_proj is the packed [q | k | v]
#define VIT__OPEN_CLIP_BLOCK_NAMES(F)                                                                                                 \
    {F, VIT__R_LN1_W, "ln_1.weight"}, {F, VIT__R_LN1_B, "ln_1.bias"}, {F, VIT__R_QKV_W, "attn.in_proj_weight"},                       \
    {F, VIT__R_QKV_B, "attn.in_proj_bias"}, {F, VIT__R_PROJ_W, "attn.out_proj.weight"}, {F, VIT__R_PROJ_B, "attn.out_proj.bias"},      \
    {F, VIT__R_LS1, "ls_1.gamma"}, {F, VIT__R_LS2, "ls_2.gamma"}, {F, VIT__R_LN2_W, "ln_2.weight"}, {F, VIT__R_LN2_B, "ln_2.bias"},   \
    {F, VIT__R_FC1_W, "mlp.c_fc.weight"}, {F, VIT__R_FC1_B, "mlp.c_fc.bias"}, {F, VIT__R_FC2_W, "mlp.c_proj.weight"},                 \
    {F, VIT__R_FC2_B, "mlp.c_proj.bias"}
    VIT__OPEN_CLIP_BLOCK_NAMES(VIT__FAM_OPEN_CLIP),
    {VIT__FAM_OPEN_CLIP, VIT__R_PATCH_W, "conv1.weight"}, {VIT__FAM_OPEN_CLIP, VIT__R_CLS, "class_embedding"},
    {VIT__FAM_OPEN_CLIP, VIT__R_POS, "positional_embedding"}, {VIT__FAM_OPEN_CLIP, VIT__R_PRE_W, "ln_pre.weight"},
    {VIT__FAM_OPEN_CLIP, VIT__R_PRE_B, "ln_pre.bias"}, {VIT__FAM_OPEN_CLIP, VIT__R_NORM_W, "ln_post.weight"},
    {VIT__FAM_OPEN_CLIP, VIT__R_NORM_B, "ln_post.bias"}, {VIT__FAM_OPEN_CLIP, VIT__R_HEAD_W, "proj"},
    VIT__OPEN_CLIP_BLOCK_NAMES(VIT__FAM_OPEN_CLIP_TEXT),
    {VIT__FAM_OPEN_CLIP_TEXT, VIT__R_TOK, "token_embedding.weight"}, {VIT__FAM_OPEN_CLIP_TEXT, VIT__R_POS, "positional_embedding"},
    {VIT__FAM_OPEN_CLIP_TEXT, VIT__R_NORM_W, "ln_final.weight"}, {VIT__FAM_OPEN_CLIP_TEXT, VIT__R_NORM_B, "ln_final.bias"},
    {VIT__FAM_OPEN_CLIP_TEXT, VIT__R_HEAD_W, "text_projection|text_projection.weight"}, {VIT__FAM_OPEN_CLIP_TEXT, VIT__R_HEAD_B, "text_projection.bias"},
    {VIT__FAM_OPEN_CLIP_TEXT, VIT__R_SCALE, "/logit_scale"}, {VIT__FAM_OPEN_CLIP_TEXT, VIT__R_BIAS, "/logit_bias"},
#undef VIT__OPEN_CLIP_BLOCK_NAMES
};

static const char *const vit__block_names[VIT__FAM_COUNT] = {"blocks.", "encoder.layer.", "encoder.layer.", "encoder.layer.", "encoder.layers.", "encoder.layers.",
                                                             "encoder.layers.", "encoder.layers.", "transformer.resblocks.", "transformer.resblocks."};

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

// The tensor of role r (block 0) that a tower's sizes are read from, into *out: it
// exists, has a float dtype and ndim dimensions, none of them 0 (else the failure,
// naming the shape `expected`, e.g. "[vocab, width]").
static vit_status vit__sizing_tensor(vit__loader *L, int r, int ndim, const char *expected, const vit__tensor **out) {
    char name[192], got[160];
    const vit__tensor *t = *out = vit__role(L, r, 0, name, sizeof(name));
    if (!t) return vit__fail(L->err, VIT_ERROR_MISSING_TENSOR, "tensor '%s' not found", name);
    if (t->dtype == VIT__DT_OTHER) return vit__fail(L->err, VIT_ERROR_UNSUPPORTED, "tensor '%s' has dtype %s; only F32, F16 and BF16 are supported", t->name, t->dtype_name);
    int ok = t->ndim == ndim;
    for (int i = 0; ok && i < ndim; i++) ok = t->shape[i] != 0;
    if (!ok) {
        vit__shape_str(t, got, sizeof(got));
        return vit__fail(L->err, VIT_ERROR_SHAPE_MISMATCH, "tensor '%s' has shape %s, expected %s", t->name, got, expected);
    }
    return VIT_OK;
}

// 1 when t is an (in, out) matrix used as x @ t: open_clip's proj and text_projection parameters.
static int vit__in_out(const vit__loader *L, const vit__tensor *t) {
    size_t n = strlen(t->name);
    return (L->fam == VIT__FAM_OPEN_CLIP || L->fam == VIT__FAM_OPEN_CLIP_TEXT) && !(n >= 7 && !strcmp(t->name + n - 7, ".weight"));
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
    // open_clip: OpenAI CLIP's image tower, or a timm trunk (SigLIP's); its config says the rest (vit__read_config_open_clip)
    if (vit__find(L, "visual.conv1.weight")) { L->fam = VIT__FAM_OPEN_CLIP; L->prefix = "visual."; return VIT_OK; }
    if (vit__find(L, "visual.trunk.patch_embed.proj.weight")) { L->fam = VIT__FAM_TIMM; L->prefix = "visual.trunk."; return VIT_OK; }
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
                     "'[vit.|deit.|dinov2.]embeddings.patch_embeddings.projection.weight' or '[vision_model.]embeddings.patch_embedding.weight', "
                     "open_clip's 'visual.conv1.weight' or 'visual.trunk.patch_embed.proj.weight' found");
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

// The depth of L's tower: its consecutive blocks (by their first norm), checked
// against the stated depth (> 0); a block numbered past a gap would be silently
// dropped, so it is refused. what: "" or "text ", for the messages.
static vit_status vit__count_blocks(vit__loader *L, int stated, const char *what, int *out) {
    char name[192];
    int depth = 0;
    while (depth <= VIT_MAX_DEPTH && vit__role(L, VIT__R_LN1_W, depth, name, sizeof(name))) depth++;
    if (depth > VIT_MAX_DEPTH) return vit__fail(L->err, VIT_ERROR_LIMIT, "more than VIT_MAX_DEPTH (%d) %sblocks", VIT_MAX_DEPTH, what);
    if (depth == 0) return vit__fail(L->err, VIT_ERROR_MISSING_TENSOR, "tensor '%s' not found (no %sblocks)", name, what);
    if (stated > 0 && stated != depth)
        return vit__fail(L->err, depth < stated ? VIT_ERROR_MISSING_TENSOR : VIT_ERROR_SHAPE_MISMATCH, "config.json says depth %d but the file has %d %sblocks", stated, depth, what);
    snprintf(name, sizeof(name), "%s%s", L->prefix, vit__block_names[L->fam]);
    for (int i = 0; i < L->count; i++) {
        const char *nm = L->tensors[i].name;
        if (strncmp(nm, name, strlen(name)) != 0) continue;
        long b = strtol(nm + strlen(name), NULL, 10);
        if (b >= depth)
            return vit__fail(L->err, VIT_ERROR_MISSING_TENSOR, "tensor '%s' belongs to %sblock %ld, but block %d's norm is missing (blocks must be numbered 0..depth-1)", nm,
                             what, b, depth);
    }
    *out = depth;
    return VIT_OK;
}

// Finds the architecture from the tensors' shapes (names per L->fam),
// reconciling with what config.json stated; want_h/want_w: the size to run
// at (0 = the checkpoint's).
static vit_status vit__infer_config(vit__loader *L, vit_config *c, const vit__stated *s, int want_h, int want_w) {
    char *err = L->err;
    char name[192], got[160];
    int fam = L->fam, timm = fam == VIT__FAM_TIMM;
    c->source = L->open_clip ? VIT_SOURCE_OPEN_CLIP : timm ? VIT_SOURCE_TIMM : VIT_SOURCE_HF;
    if (timm && (vit__find(L, "patch_embed.backbone.stem.conv.weight") || vit__find(L, "patch_embed.backbone.conv1.weight")))
        return vit__fail(err, VIT_ERROR_UNSUPPORTED, "hybrid (CNN stem) ViTs are not supported");
    const vit__tensor *pw;
    vit_status st = vit__sizing_tensor(L, VIT__R_PATCH_W, 4, "[C, in_chans, P, P]", &pw);
    if (st != VIT_OK) return st;
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
    if (fam == VIT__FAM_OPEN_CLIP && gh != gw && (th / Pp) * (tw / Pp) != gh * gw) // (resize_pos_embed assumes a square grid)
        return vit__fail(err, VIT_ERROR_UNSUPPORTED, "open_clip resizes only square position grids; this one is %d x %d", gh, gw);
    if (th > VIT_MAX_IMAGE_SIDE || tw > VIT_MAX_IMAGE_SIDE || (long long)(th / Pp) * (tw / Pp) + P > VIT_MAX_TOKENS)
        return vit__fail(err, VIT_ERROR_LIMIT, "image size %d x %d gives more than VIT_MAX_TOKENS (%d) tokens", th, tw, VIT_MAX_TOKENS);
    c->image_height = th;
    c->image_width = tw;
    c->image_size = th == tw ? th : 0;
    c->num_tokens = (th / Pp) * (tw / Pp) + P;

    if ((st = vit__count_blocks(L, s->depth, "", &c->depth)) != VIT_OK) return st;

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
        int io = vit__in_out(L, hw), k = io ? 1 : 0; // open_clip's proj: (C, classes)
        if (hw->ndim != 2 || hw->shape[1 - k] != (uint64_t)C || hw->shape[k] == 0 || hw->shape[k] > VIT_MAX_DIM) {
            vit__shape_str(hw, got, sizeof(got));
            return vit__fail(err, hw->ndim == 2 && hw->shape[k] > VIT_MAX_DIM ? VIT_ERROR_LIMIT : VIT_ERROR_SHAPE_MISMATCH, "tensor '%s' has shape %s, expected [%s]",
                             hw->name, got, io ? "width, embed_dim" : "classes, width");
        }
        c->num_classes = (int)hw->shape[k];
    }
    if (L->open_clip && s->projection != (hw != NULL))
        return vit__fail(err, hw ? VIT_ERROR_UNSUPPORTED : VIT_ERROR_MISSING_TENSOR, "open_clip_config.json %s an image projection but %s", s->projection ? "has" : "has no",
                         hw ? "the file has one" : "the file has none");
    if (hw2) {
        if (!hw || !c->distilled) return vit__fail(err, VIT_ERROR_UNSUPPORTED, "'%s' without %s", hw2->name, hw ? "a distillation token" : "a class head");
        L->num_head = 2;
    }
    if (s->num_classes >= 0 && s->num_classes != c->num_classes && !(fam == VIT__FAM_HF_CLIP))
        return vit__fail(err, c->num_classes == 0 ? VIT_ERROR_MISSING_TENSOR : VIT_ERROR_SHAPE_MISMATCH, "config.json says %d classes but the head has %d", s->num_classes,
                         c->num_classes);
    c->projection = fam == VIT__FAM_HF_CLIP || fam == VIT__FAM_OPEN_CLIP ? hw != NULL : timm ? (s->projection == 1 && hw != NULL) : 0;

    // norms and pooling
    c->pre_norm = vit__has(L, VIT__R_PRE_W, 0);
    c->fc_norm = vit__has(L, VIT__R_FCN_W, 0);
    c->layer_scale = vit__has(L, VIT__R_LS1, 0);
    if (fam == VIT__FAM_OPEN_CLIP && (c->pre_norm != L->open_clip_ln_pre || c->layer_scale != L->open_clip_ls))
        return vit__fail(err, VIT_ERROR_SHAPE_MISMATCH, "open_clip_config.json's vision_cfg %s but the file %s", c->pre_norm != L->open_clip_ln_pre ? "no_ln_pre" : "ls_init_value",
                         c->pre_norm != L->open_clip_ln_pre ? (c->pre_norm ? "has visual.ln_pre" : "has no visual.ln_pre") : (c->layer_scale ? "has ls_1.gamma" : "has no ls_1.gamma"));
    c->qk_norm = vit__has(L, VIT__R_QN_W, 0);
    if (s->qk_norm >= 0 && s->qk_norm != c->qk_norm)
        return vit__fail(err, s->qk_norm ? VIT_ERROR_MISSING_TENSOR : VIT_ERROR_UNSUPPORTED, "config.json says qk_norm %s but the q_norm tensors are %s", s->qk_norm ? "true" : "false", c->qk_norm ? "present" : "absent");
    int has_map = vit__has(L, VIT__R_MAP_LATENT, 0);
    if (timm) {
        c->pool = s->pool >= 0 ? (vit_pool)s->pool : has_map ? VIT_POOL_MAP : (c->fc_norm || !c->class_token) ? VIT_POOL_AVG : VIT_POOL_TOKEN;
        if (s->fc_norm == 1 && !c->fc_norm) return vit__fail(err, VIT_ERROR_MISSING_TENSOR, "config.json says fc_norm true but 'fc_norm.weight' is absent");
    } else c->pool = fam == VIT__FAM_OPEN_CLIP ? (vit_pool)s->pool : fam == VIT__FAM_HF_SIGLIP ? VIT_POOL_MAP : VIT_POOL_TOKEN;
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
    double eps = timm ? 1e-6 : fam == VIT__FAM_HF_CLIP || fam == VIT__FAM_OPEN_CLIP ? 1e-5 : fam == VIT__FAM_HF_DINOV2 || fam == VIT__FAM_HF_SIGLIP ? 1e-6 : 1e-12;
    c->eps = (float)(s->eps > 0 ? s->eps : eps);
    return VIT_OK;
}

// >>config text ---------------------------------------------------------------
// A text tower's config (transformers' text_config, open_clip's text_cfg),
// checked against its tensors. (VIT_NO_TEXT: none; >>load skips the tower.)

#ifndef VIT_NO_TEXT
// --- a full CLIP / SigLIP file's text tower (m->text): config.json's text_config, then the shapes ---

// What text_config states (-1: not stated), with transformers' defaults for
// the values the shapes do not give (CLIPTextConfig, SiglipTextConfig).
typedef struct vit__text_stated {
    int dim, depth, heads, mlp, context, vocab, proj; // -1: not stated
    int eos;    // CLIP: eos_token_id (default 49407)
    int act;    // vit_act (default: CLIP quick_gelu, SigLIP gelu_pytorch_tanh)
    double eps; // default: CLIP 1e-5, SigLIP 1e-6
    int causal, pool, proj_bias; // -1: the family's (CLIP causal, pooled at eos; SigLIP neither, the last token), else 0/1, VIT__TEXT_POOL_*
} vit__text_stated;

// open_clip_config.json's text_cfg (open_clip 3.3's TextTransformer, as
// model.py _build_text_tower makes it); the defaults are CLIPTextCfg's.
static vit_status vit__read_text_config_open_clip(vit__loader *L, vit__text_stated *s) {
    static const char *const text_keys[] = {
        "context_length", "vocab_size", "hf_tokenizer_name", "tokenizer_mode", "tokenizer_kwargs", "width", "heads", "layers", "mlp_ratio",
        "ls_init_value", "embed_cls", "pad_id", "eos_id", "no_causal_mask", "final_ln_after_pool", "pool_type", "proj_bias", "proj_type",
        "output_tokens", "act_kwargs", "norm_kwargs", "block_type", "qk_norm", "scaled_cosine_attn", "scale_heads", "scale_attn_inner", "scale_attn",
        "scale_fc", "hf_model_name", "hf_model_pretrained", "hf_proj_type", "hf_pooler_type"};
    const vit__json *j = &L->cfg;
    vit_status st;
    int mc = vit__json_get(j, L->cfg_root, "model_cfg"), tc = vit__json_get(j, mc, "text_cfg"), n, quick = vit__py_true(j, mc, "quick_gelu");
    double ratio = 4.0;
    if (tc < 0 || j->nodes[tc].type != VIT__J_OBJ) return vit__fail(L->err, VIT_ERROR_BAD_FORMAT, "open_clip_config.json: model_cfg has no text_cfg object");
    if ((st = vit__open_clip_keys(L, j, tc, "text_cfg", text_keys, sizeof(text_keys) / sizeof(text_keys[0]))) ||
        (st = vit__open_clip_off(L, j, tc, "text_cfg", "hf_model_name", NULL)) || (st = vit__open_clip_off(L, j, tc, "text_cfg", "embed_cls", NULL)) ||
        (st = vit__open_clip_plain_blocks(L, j, tc, "text_cfg")))
        return st;
    if ((st = vit__open_clip_act_norm(L, j, tc, "text_cfg", quick, &s->act, &s->eps)) != VIT_OK) return st;
    // the model has a logit_bias (SigLIP's sigmoid scores) when init_logit_bias is not None; its
    // load adds a zero one when the file lacks it
    L->open_clip_bias = (n = vit__json_get(j, mc, "init_logit_bias")) >= 0 && j->nodes[n].type != VIT__J_NULL;
    L->open_clip_ls = (n = vit__json_get(j, tc, "ls_init_value")) >= 0 && j->nodes[n].type != VIT__J_NULL;
    L->open_clip_custom = vit__py_true(j, mc, "custom_text");
    s->dim = 512; s->heads = 8; s->depth = 12; s->context = 77; s->vocab = 49408; s->eos = 2;
    if ((st = vit__cfg_int(L, j, tc, "width", 1, VIT_MAX_DIM, &s->dim)) || (st = vit__cfg_int(L, j, tc, "heads", 1, VIT_MAX_DIM, &s->heads)) ||
        (st = vit__cfg_int(L, j, tc, "layers", 1, VIT_MAX_DEPTH, &s->depth)) || (st = vit__cfg_int(L, j, tc, "context_length", 1, VIT_MAX_TOKENS, &s->context)) ||
        (st = vit__cfg_int(L, j, tc, "vocab_size", 1, VIT_MAX_VOCAB, &s->vocab)) || (st = vit__cfg_int(L, j, tc, "eos_id", INT_MIN, INT_MAX, &s->eos)) ||
        (st = vit__cfg_int(L, j, mc, "embed_dim", 1, VIT_MAX_DIM, &s->proj)))
        return st;
    if ((n = vit__json_get(j, tc, "mlp_ratio")) >= 0 && (!vit__json_double(j, n, &ratio) || !(ratio > 0.0 && ratio < 64.0)))
        return vit__fail(L->err, VIT_ERROR_BAD_FORMAT, "open_clip_config.json: text_cfg mlp_ratio must be a number in (0, 64)");
    s->mlp = (int)(s->dim * ratio);
    s->causal = !vit__py_true(j, tc, "no_causal_mask");
    n = vit__json_get(j, tc, "pool_type"); // (final_ln_after_pool: the LayerNorm is per token, the same before or after)
    s->pool = n < 0 || vit__json_eq(j, n, "argmax") ? VIT__TEXT_POOL_ARGMAX : vit__json_eq(j, n, "last") ? VIT__TEXT_POOL_LAST
            : vit__json_eq(j, n, "first") ? VIT__TEXT_POOL_FIRST : vit__json_eq(j, n, "eos") ? VIT__TEXT_POOL_EOS : -1;
    if (s->pool < 0) return vit__fail(L->err, VIT_ERROR_UNSUPPORTED, "open_clip_config.json: text_cfg pool_type must be 'argmax', 'last', 'first' or 'eos'");
    if ((n = vit__json_get(j, tc, "proj_type")) >= 0 && !vit__json_eq(j, n, "linear"))
        return vit__fail(L->err, VIT_ERROR_UNSUPPORTED, "open_clip_config.json: text_cfg proj_type other than 'linear' (the text embedding is its projection)");
    s->proj_bias = vit__py_true(j, tc, "proj_bias");
    return VIT_OK;
}

static vit_status vit__read_text_config(vit__loader *L, int clip, vit__text_stated *s) {
    const vit__json *j = &L->cfg;
    char name[64];
    vit_status st;
    s->dim = s->depth = s->heads = s->mlp = s->context = s->vocab = s->proj = -1;
    s->causal = s->pool = s->proj_bias = -1;
    if (L->open_clip) return vit__read_text_config_open_clip(L, s);
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
    const vit__tensor *tok;
    vit_status st = vit__sizing_tensor(L, VIT__R_TOK, 2, "[vocab, width]", &tok);
    if (st != VIT_OK) return st;
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
    st = vit__token_check(L, pos, C, -1, &rows);
    if (st != VIT_OK) return st;
    if (pos->ndim != 2) {
        vit__shape_str(pos, got, sizeof(got));
        return vit__fail(err, VIT_ERROR_SHAPE_MISMATCH, "tensor '%s' has shape %s, expected [context, %d]", pos->name, got, C);
    }
    if (s->context > 0 && s->context != rows)
        return vit__fail(err, VIT_ERROR_SHAPE_MISMATCH, "config.json says %s %d but '%s' has %lld rows", L->open_clip ? "text_cfg context_length" : "max_position_embeddings",
                         s->context, pos->name, rows);
    c->num_tokens = (int)rows;
    if ((st = vit__count_blocks(L, s->depth, "text ", &c->depth)) != VIT_OK) return st;
    const vit__tensor *fc1 = vit__role(L, VIT__R_FC1_W, 0, name, sizeof(name));
    if (!fc1) return vit__fail(err, VIT_ERROR_MISSING_TENSOR, "tensor '%s' not found", name);
    if (fc1->ndim != 2 || fc1->shape[1] != (uint64_t)C || fc1->shape[0] == 0 || fc1->shape[0] > VIT_MAX_DIM) {
        vit__shape_str(fc1, got, sizeof(got));
        return vit__fail(err, VIT_ERROR_SHAPE_MISMATCH, "tensor '%s' has shape %s, expected [mlp_dim, %d]", fc1->name, got, C);
    }
    c->mlp_dim = (int)fc1->shape[0];
    if (s->mlp > 0 && s->mlp != c->mlp_dim)
        return vit__fail(err, VIT_ERROR_SHAPE_MISMATCH, "config.json says text %s %d but '%s' has %d", L->open_clip ? "MLP width (width * mlp_ratio)" : "intermediate_size", s->mlp,
                         fc1->name, c->mlp_dim);
    int heads = s->heads > 0 ? s->heads : (C % 64 == 0 ? C / 64 : 0);
    if (heads <= 0) return vit__fail(err, VIT_ERROR_UNSUPPORTED, "text width %d is not a multiple of 64 and no config.json gives text_config num_attention_heads", C);
    if (C % heads) return vit__fail(err, VIT_ERROR_SHAPE_MISMATCH, "text width %d is not divisible by %d heads", C, heads);
    c->num_heads = heads;
    // the head: CLIP's text_projection (no bias), SigLIP's head (with one): the text embedding
    const vit__tensor *hw = vit__role(L, VIT__R_HEAD_W, 0, name, sizeof(name));
    if (!hw) return vit__fail(err, VIT_ERROR_MISSING_TENSOR, "tensor '%s' not found", name);
    int io = vit__in_out(L, hw), k = io ? 1 : 0; // open_clip's text_projection parameter: (width, embed_dim)
    if (hw->ndim != 2 || hw->shape[1 - k] != (uint64_t)C || hw->shape[k] == 0 || hw->shape[k] > VIT_MAX_DIM) {
        vit__shape_str(hw, got, sizeof(got));
        return vit__fail(err, VIT_ERROR_SHAPE_MISMATCH, "tensor '%s' has shape %s, expected [%s]", hw->name, got, io ? "width, embed_dim" : "embed_dim, width");
    }
    c->num_classes = (int)hw->shape[k];
    if (s->proj > 0 && s->proj != c->num_classes)
        return vit__fail(err, VIT_ERROR_SHAPE_MISMATCH, "%s says %s %d but '%s' makes %d", L->open_clip ? "open_clip_config.json" : "config.json",
                         L->open_clip ? "model_cfg embed_dim" : clip ? "projection_dim" : "text_config projection_size", s->proj, hw->name, c->num_classes);
    if (L->open_clip && io == s->proj_bias) // (open_clip: an nn.Linear with proj_bias, else a parameter)
        return vit__fail(err, VIT_ERROR_SHAPE_MISMATCH, "open_clip_config.json says text_cfg proj_bias %s but the file's text projection is '%s'", s->proj_bias ? "true" : "false", hw->name);
    if (s->proj_bias >= 0 && s->proj_bias != (vit__has(L, VIT__R_HEAD_B, 0) && !io))
        return vit__fail(err, VIT_ERROR_SHAPE_MISMATCH, "open_clip_config.json says text_cfg proj_bias %s but the file has %s", s->proj_bias ? "true" : "false",
                         s->proj_bias ? "no text_projection.bias" : "one");
    c->projection = 1;
    c->act = (vit_act)s->act;
    c->eps = (float)s->eps;
    c->source = L->open_clip ? VIT_SOURCE_OPEN_CLIP : VIT_SOURCE_HF;
    c->pool = VIT_POOL_TOKEN; // (unread: a text tower pools by text_pool)
    c->layer_scale = vit__has(L, VIT__R_LS1, 0);
    if (L->open_clip && c->layer_scale != L->open_clip_ls)
        return vit__fail(err, VIT_ERROR_SHAPE_MISMATCH, "open_clip_config.json's text_cfg ls_init_value says %s but the file has %s", L->open_clip_ls ? "LayerScale" : "none",
                         c->layer_scale ? "ls_1.gamma" : "none");
    t->num_head = 1;
    t->act = c->act == VIT_ACT_GELU_TANH ? VIT__ACT_GELU_TANH : c->act == VIT_ACT_QUICK_GELU ? VIT__ACT_QUICK_GELU : VIT__ACT_GELU;
    t->causal = s->causal >= 0 ? s->causal : clip;
    t->text_pool = s->pool >= 0 ? s->pool : !clip ? VIT__TEXT_POOL_LAST : s->eos == 2 ? VIT__TEXT_POOL_ARGMAX : VIT__TEXT_POOL_EOS;
    t->eos_id = s->eos;
    return VIT_OK;
}
#endif // VIT_NO_TEXT

// >>weights -------------------------------------------------------------------
// Tensors -> the model's one weight allocation: fp32, linear weights
// transposed, the position embedding resampled to the input size.

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
            // (open_clip's resize_pos_embed keeps the rows as they are when their number does not change)
            if ((gh == L->grid_h && gw == L->grid_w) || (L->fam == VIT__FAM_OPEN_CLIP && (size_t)gh * gw == native)) {
                vit__copy_vec(m->pos_embed, t, cover * uC, native * uC, 0);
            } else {
                float *grid = (float *)vit__malloc(L->alloc, native * uC * sizeof(float));
                if (!grid) return vit__fail(L->err, VIT_ERROR_OUT_OF_MEMORY, "out of memory resampling the position embedding");
                vit__copy_vec(grid, t, cover * uC, native * uC, 0);
                // timm (resample_abs_pos_embed), HF DINOv2 with registers and open_clip antialias; HF's other interpolate_pos_encoding do not
                int aa = L->fam == VIT__FAM_TIMM || L->dinov2_registers || L->fam == VIT__FAM_OPEN_CLIP; // (open_clip: resize_pos_embed)
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
        if (L->fam != VIT__FAM_TIMM && L->fam != VIT__FAM_OPEN_CLIP && L->fam != VIT__FAM_OPEN_CLIP_TEXT) { // separate q, k, v -> one (C, 3C) matrix
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
            char hn[192];
            const vit__tensor *head = vit__role(L, hr[h][0], 0, hn, sizeof(hn));
            if (head && vit__in_out(L, head)) { // (C, K) as stored is already vit.h's layout
                VIT__WANT(hr[h][0], 0, 0, 2, C, K);
                if (pass) vit__copy_vec(m->head_w + (size_t)h * uC * (size_t)K, t, 0, uC * (size_t)K, 0);
            } else {
                VIT__WANT(hr[h][0], 0, 0, 2, K, C);
                if (pass) vit__copy_linear(m->head_w + (size_t)h * uC * (size_t)K, t, 0, (size_t)K, uC, (size_t)K, 0);
            }
            VIT__WANT(hr[h][1], 0, 1, 1, K);
            if (pass) vit__copy_vec(m->head_b + (size_t)h * (size_t)K, t, 0, (size_t)K, 0);
        }
    }
#undef VIT__WANT
    if (m->vocab) { // a text tower: the similarity's temperature (stored as its log), and SigLIP's bias
        if ((st = vit__want_scalar(L, VIT__R_SCALE, &m->logit_scale)) != VIT_OK) return st;
        int open_clip = L->fam == VIT__FAM_OPEN_CLIP_TEXT, bias = vit__has(L, VIT__R_BIAS, 0);
        if (open_clip && bias && !L->open_clip_bias) // (open_clip's strict load refuses it too)
            return vit__fail(L->err, VIT_ERROR_UNSUPPORTED, "a logit_bias tensor, but open_clip_config.json's model_cfg has no init_logit_bias");
        m->logit_bias = 0.0f; // (open_clip: a model with init_logit_bias whose file has none scores with a zero bias)
        if ((L->fam == VIT__FAM_HF_SIGLIP_TEXT || (open_clip && bias)) && (st = vit__want_scalar(L, VIT__R_BIAS, &m->logit_bias)) != VIT_OK)
            return st;
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

#ifndef VIT__NO_TOKENIZER
// >>tokenize ------------------------------------------------------------------
// Text -> a text tower's input ids, the ids transformers gives (tokenizer(text,
// padding="max_length", truncation=True, max_length=context)):
//  - CLIP (tokenizer.json: byte-level BPE), as transformers' CLIPTokenizer runs it
//    through the tokenizers library: the added tokens (<|startoftext|>,
//    <|endoftext|>) split out of the raw text; the normaliser's steps (NFC,
//    whitespace runs to one space, lower case: Rust's char::to_lowercase); CLIP's
//    split pattern ('s|'t|'re|'ve|'m|'ll|'d|\p{L}+|\p{N}|[^\s\p{L}\p{N}]+, whitespace
//    dropped), each piece split again as GPT-2's pattern does (ByteLevel use_regex),
//    its bytes as GPT-2's characters, the end-of-word suffix on the last, merged
//    pair by pair by rank (lowest rank first, leftmost first: tokenizers' order);
//    then the post-processor's <|startoftext|> ... <|endoftext|>, cut to the
//    context and padded with the pad token.
//  - SigLIP (spiece.model + tokenizer_config.json), as transformers'
//    SiglipTokenizer: "▁" + the text (its own ▁ as spaces), the added tokens
//    (</s>, <unk>) split out; each other piece lower-cased as Python's str.lower()
//    (final sigma included), its ASCII punctuation (string.punctuation) removed,
//    whitespace runs to one space, stripped; then SentencePiece on "<unk>" + that:
//    its normaliser (the user-defined pieces, then the precompiled charsmap's
//    longest rule, NFKC in SigLIP's; spaces: a dummy prefix, runs collapsed,
//    escaped as ▁) and its Unigram Viterbi (sentencepiece's optimised encoder,
//    summing in float: sentencepiece 0.2.3 gives these ids; sums in double, as its
//    source of early 2025 reads, break a few ties otherwise), unknown runs merged (or bytes with byte
//    fallback); the pieces of "<unk>" itself dropped; a first lone "▁" dropped
//    before a special token; each piece's id by its text; </s> appended unless
//    the ids end with it, cut to the context first, padded with </s>.
//  - open_clip (open_clip_config.json: open_clip.get_tokenizer('local-dir:...')):
//    open_clip's clean_fn(text) first: basic_clean is ftfy.fix_text (line by line:
//    its HTML unescaping of '&name;' and '&#...;' unless a '<' was seen; its
//    mojibake heuristic, BADNESS_RE, which vit.h only evaluates and refuses the
//    text where it fires; Latin ligatures, character width, curly quotes, line
//    breaks, terminal escapes, control characters, NFC; rounds until nothing
//    changes), then html.unescape twice and strip(); then 'whitespace' (split and
//    join), 'lower' (that, then str.lower()) or 'canonicalize' ('_' to ' ',
//    string.punctuation removed, lower(), split and join). Entity names come from
//    a short table (every name html.unescape takes without ';', and some common
//    ones); a '&name;' not in it is refused, as is NFC meeting a character newer
//    than the NFC tables. Then SimpleTokenizer (no hf_tokenizer_name): its pattern
//    under re.IGNORECASE (<start_of_text>|<end_of_text>|'s|'t|'re|'ve|'m|'ll|'d|
//    \p{L}+|\p{N}|[^\s\p{L}\p{N}]+: U+017F matches s, U+0345 matches nothing),
//    each piece through the BPE (OpenAI's, checked by bpe_hash), [sot] + ids +
//    [eot] cut to the context with eot last, padded with 0. Or HFTokenizer: the
//    cleaned text through the folder's CLIP tokenizer as above, or its
//    T5Tokenizer(Fast): its tokenizer.json as below, else its spiece.model as
//    SentencePiece with the dummy prefix (Metaspace's prepend) and </s>, padded
//    with its pad token.
//  - T5Tokenizer over tokenizer.json (transformers 5's TokenizersBackend, which
//    keeps only the file's vocabulary and charsmap and builds T5's pipeline):
//    see "T5Tokenizer over tokenizer.json" below. It is not sentencepiece: the
//    charsmap goes per grapheme cluster (a cluster under 6 bytes whose start is a
//    key becomes that shortest key's replacement whole: "①\u0301" -> "1";
//    "ｶﾞ" is two characters, not one key), words split at Rust's White_Space,
//    every piece (control ones too) in the lattice, scores summed in double (ties
//    break otherwise than sentencepiece's float sums: "-- --- ----"), so the two
//    differ on 43 of the 3000 corpus strings; the grapheme classes are
//    tools/make_grapheme_table.py's (Python regex's Unicode), GB9c not applied.
// Character data (tools/make_unicode_tables.py, from Python's unicodedata):
// categories and cases of Unicode 14.0 (VIT__UNICODE_VERSION). The libraries
// reproduced agree with it on every character assigned in 14.0, but know newer
// versions: tokenizers' Oniguruma and Rust's std (CLIP's split pattern and lower
// case), the regex module (SimpleTokenizer's pattern and IGNORECASE), the running
// Python's str.lower() (SiglipTokenizer, open_clip's 'lower' and 'canonicalize';
// Python 3.12 has Unicode 15.0, 3.14 16.0) and unicodedata (ftfy's NFC). A code
// point unassigned in 14.0 (VIT__UNI_UNASSIGNED: category Cn, the noncharacters
// aside, which no version assigns) may be a letter, a number, cased or a combining
// mark there, and the ids differ (tools/sweep_tokenizer_unicode.py, every code
// point U+0080..U+31FFF in four contexts: 8356 such code points for CLIP, 9846
// for SimpleTokenizer, all unassigned here). So a text holding one is refused
// (VIT_ERROR_UNSUPPORTED, naming it and VIT__UNICODE_VERSION): CLIP's tokenizer
// checks the text, SigLIP's when it lower-cases, open_clip's the text through
// ftfy's rounds and the cleaned text (an entity may make one). T5Tokenizer over
// tokenizer.json asks no category or case (its grapheme clusters come from a
// newer table; the sweep finds no difference) and SigLIP's without lower case
// none: they take every code point. NFC has the characters of Unicode 9.0 only, as tokenizers' NFC
// (the unicode-normalization-alignments crate) has: a combining mark or a
// decomposition of 10.0 or later is an ordinary character there, and here.

// ---- growable arrays, hash maps and byte tries

// n elements of elem bytes in p, room for cap
typedef struct vit__vec {
    void *p;
    size_t n, cap;
} vit__vec;

static int vit__vec_reserve(const vit_allocator *a, vit__vec *v, size_t need, size_t elem) {
    if (need <= v->cap) return 1;
    size_t cap = v->cap ? v->cap : 64, bytes;
    while (cap < need) {
        if (cap > SIZE_MAX / 2) return 0;
        cap *= 2;
    }
    if (!vit__mul(cap, elem, &bytes)) return 0;
    void *p = vit__malloc(a, bytes);
    if (!p) return 0;
    if (v->n) memcpy(p, v->p, v->n * elem);
    vit__free(a, v->p);
    v->p = p;
    v->cap = cap;
    return 1;
}

static int vit__vec_u32(const vit_allocator *a, vit__vec *v, uint32_t x) {
    if (v->n == v->cap && !vit__vec_reserve(a, v, v->n + 1, sizeof(uint32_t))) return 0;
    ((uint32_t *)v->p)[v->n++] = x;
    return 1;
}

static int vit__vec_bytes(const vit_allocator *a, vit__vec *v, const void *s, size_t n) {
    if (n > SIZE_MAX - v->n || !vit__vec_reserve(a, v, v->n + n, 1)) return 0;
    if (n) memcpy((char *)v->p + v->n, s, n);
    v->n += n;
    return 1;
}

// Open addressing with linear probing, sized once for at most `count` keys:
// 64-bit keys (UINT64_MAX marks an empty slot) to two ints.
typedef struct vit__map64 {
    uint64_t *keys;
    int32_t *vals; // (cap, 2)
    size_t cap;
} vit__map64;

static uint64_t vit__mix64(uint64_t x) { // splitmix64's finaliser
    x ^= x >> 30; x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 27; x *= 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

static int vit__map64_init(const vit_allocator *a, vit__map64 *m, size_t count) {
    size_t cap = 16, b1, b2;
    while (cap < count + count / 2 + 1) {
        if (cap > SIZE_MAX / 4) return 0;
        cap *= 2;
    }
    if (!vit__mul(cap, sizeof(uint64_t), &b1) || !vit__mul(cap, 2 * sizeof(int32_t), &b2)) return 0;
    m->keys = (uint64_t *)vit__malloc(a, b1);
    m->vals = (int32_t *)vit__malloc(a, b2);
    if (!m->keys || !m->vals) return 0;
    memset(m->keys, 0xFF, b1);
    m->cap = cap;
    return 1;
}

static void vit__map64_release(const vit_allocator *a, vit__map64 *m) {
    vit__free(a, m->keys);
    vit__free(a, m->vals);
    m->keys = NULL;
    m->vals = NULL;
    m->cap = 0;
}

// The two values of key, or NULL.
static const int32_t *vit__map64_find(const vit__map64 *m, uint64_t key) {
    if (!m->cap) return NULL;
    for (size_t i = vit__mix64(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        if (m->keys[i] == key) return m->vals + 2 * i;
        if (m->keys[i] == UINT64_MAX) return NULL;
    }
}

// The slot of key (new: *fresh = 1); the map is never full (sized by vit__map64_init).
static int32_t *vit__map64_slot(vit__map64 *m, uint64_t key, int *fresh) {
    size_t i = vit__mix64(key) & (m->cap - 1);
    while (m->keys[i] != key && m->keys[i] != UINT64_MAX) i = (i + 1) & (m->cap - 1);
    *fresh = m->keys[i] == UINT64_MAX;
    m->keys[i] = key;
    return m->vals + 2 * i;
}

// A byte trie: node 0 the root, edges (node << 8 | byte) -> child, value[node] (-1: none).
typedef struct vit__trie {
    vit__map64 edges;
    int32_t *value;
    size_t nodes, cap;
} vit__trie;

// Room for strings of `bytes` bytes in all.
static int vit__trie_init(const vit_allocator *a, vit__trie *tr, size_t bytes) {
    size_t b;
    tr->cap = bytes + 1;
    tr->nodes = 1;
    if (!vit__mul(tr->cap, sizeof(int32_t), &b) || !vit__map64_init(a, &tr->edges, bytes)) return 0;
    tr->value = (int32_t *)vit__malloc(a, b);
    if (!tr->value) return 0;
    tr->value[0] = -1;
    return 1;
}

static void vit__trie_release(const vit_allocator *a, vit__trie *tr) {
    vit__map64_release(a, &tr->edges);
    vit__free(a, tr->value);
    tr->value = NULL;
    tr->nodes = tr->cap = 0;
}

static int32_t vit__trie_child(const vit__trie *tr, size_t node, unsigned char b) {
    const int32_t *v = vit__map64_find(&tr->edges, (uint64_t)node << 8 | b);
    return v ? v[0] : -1;
}

// Adds s[0..n) (n > 0) with value v; returns the value it had before (-1: none).
static int32_t vit__trie_add(vit__trie *tr, const unsigned char *s, size_t n, int32_t v) {
    size_t node = 0;
    for (size_t i = 0; i < n; i++) {
        int fresh;
        int32_t *slot = vit__map64_slot(&tr->edges, (uint64_t)node << 8 | s[i], &fresh);
        if (fresh) {
            VIT_ASSERT(tr->nodes < tr->cap);
            slot[0] = (int32_t)tr->nodes;
            tr->value[tr->nodes++] = -1;
        }
        node = (size_t)slot[0];
    }
    int32_t old = tr->value[node];
    tr->value[node] = v;
    return old;
}

// The longest string of tr that starts s[0..n): its length (0: none), its value in *v.
static size_t vit__trie_longest(const vit__trie *tr, const unsigned char *s, size_t n, int32_t *v) {
    size_t best = 0, node = 0;
    if (!tr->nodes) return 0;
    for (size_t i = 0; i < n; i++) {
        int32_t c = vit__trie_child(tr, node, s[i]);
        if (c < 0) break;
        node = (size_t)c;
        if (tr->value[node] >= 0) { best = i + 1; *v = tr->value[node]; }
    }
    return best;
}

// The value of exactly s[0..n) in tr, or -1.
static int32_t vit__trie_exact(const vit__trie *tr, const unsigned char *s, size_t n) {
    size_t node = 0;
    if (!tr->nodes || n == 0) return -1;
    for (size_t i = 0; i < n; i++) {
        int32_t c = vit__trie_child(tr, node, s[i]);
        if (c < 0) return -1;
        node = (size_t)c;
    }
    return tr->value[node];
}

// >>tokenize unicode ----------------------------------------------------------
// UTF-8, the Unicode properties the tokenizers ask (letter, number, cased,
// unassigned), lower case, NFC.

// ---- Unicode tables: declarations (tools/make_unicode_tables.py; do not edit; the arrays: >>tables)
#define VIT__UNICODE_VERSION "14.0.0"
#define VIT__NFC_UNICODE_VERSION "9.0" // vit__uni_ccc_ranges, _decomp, _compose: the characters of this version
#define VIT__UNI_L 1u          // vit__uni_props: general category L*
#define VIT__UNI_N 2u          // N*
#define VIT__UNI_CASED 4u      // Cased (and not Case_Ignorable)
#define VIT__UNI_IGNORABLE 8u  // Case_Ignorable
#define VIT__UNI_UNASSIGNED 16u // Cn, noncharacters aside: a later version may make it a letter, number, ...
#define VIT__UNI_MAX_DECOMP 4 // longest full canonical decomposition of one character
VIT__TABLES_BEGIN
VIT__TABLE uint32_t vit__uni_props[2461];
VIT__TABLE uint32_t vit__uni_ccc_ranges[496];
VIT__TABLE int32_t vit__uni_lower_runs[181][4];
VIT__TABLE uint32_t vit__uni_decomp[2060][3];
VIT__TABLE uint16_t vit__uni_compose[940];
VIT__TABLES_END
// ---- Unicode tables: declarations end

// The code point at s[*i] (advancing *i), or -1 where the bytes are not UTF-8
// (overlong forms, surrogates and values past U+10FFFF included).
static int32_t vit__utf8_next(const unsigned char *s, size_t n, size_t *i) {
    size_t p = *i;
    unsigned c = s[p];
    if (c < 0x80) { *i = p + 1; return (int32_t)c; }
    size_t len;
    uint32_t cp, min;
    if (c >= 0xC2 && c <= 0xDF) { len = 2; cp = c & 0x1F; min = 0x80; }
    else if (c >= 0xE0 && c <= 0xEF) { len = 3; cp = c & 0x0F; min = 0x800; }
    else if (c >= 0xF0 && c <= 0xF4) { len = 4; cp = c & 0x07; min = 0x10000; }
    else return -1;
    if (n - p < len) return -1;
    for (size_t k = 1; k < len; k++) {
        unsigned d = s[p + k];
        if ((d & 0xC0) != 0x80) return -1;
        cp = cp << 6 | (d & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return -1;
    *i = p + len;
    return (int32_t)cp;
}

// cp as UTF-8 into out (room for 4); returns the byte count.
static size_t vit__utf8_put(uint32_t cp, unsigned char *out) {
    if (cp < 0x80) { out[0] = (unsigned char)cp; return 1; }
    if (cp < 0x800) { out[0] = (unsigned char)(0xC0 | cp >> 6); out[1] = (unsigned char)(0x80 | (cp & 63)); return 2; }
    if (cp < 0x10000) {
        out[0] = (unsigned char)(0xE0 | cp >> 12); out[1] = (unsigned char)(0x80 | (cp >> 6 & 63)); out[2] = (unsigned char)(0x80 | (cp & 63));
        return 3;
    }
    out[0] = (unsigned char)(0xF0 | cp >> 18); out[1] = (unsigned char)(0x80 | (cp >> 12 & 63));
    out[2] = (unsigned char)(0x80 | (cp >> 6 & 63)); out[3] = (unsigned char)(0x80 | (cp & 63));
    return 4;
}

// Offset of the first byte of s[0..n) that does not start valid UTF-8, or n.
static size_t vit__utf8_check(const unsigned char *s, size_t n) {
    size_t i = 0;
    while (i < n) {
        if (s[i] < 0x80) { i++; continue; }
        size_t at = i;
        if (vit__utf8_next(s, n, &i) < 0) return at;
    }
    return n;
}

// The value of the range holding cp in a table of range starts (start << shift | value).
static unsigned vit__uni_range(const uint32_t *t, size_t n, unsigned shift, uint32_t cp) {
    size_t lo = 0, hi = n; // t[0] starts at 0
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (t[mid] >> shift <= cp) lo = mid; else hi = mid;
    }
    return t[lo] & ((1u << shift) - 1);
}

static unsigned vit__uni_prop(uint32_t cp) {
    return vit__uni_range(vit__uni_props, sizeof(vit__uni_props) / sizeof(vit__uni_props[0]), 5, cp);
}

// VIT_ERROR_UNSUPPORTED for the first code point of b[0..n) that vit.h's Unicode
// version leaves unassigned (VIT__UNI_UNASSIGNED): the tokenizers it reproduces
// know later versions, in which it may be a letter, a number or cased (see >>tokenize).
static vit_status vit__uni_check_assigned(char *err, const uint32_t *b, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (b[i] >= 0x378 && (vit__uni_prop(b[i]) & VIT__UNI_UNASSIGNED)) // every code point below U+0378 is assigned
            return vit__fail(err, VIT_ERROR_UNSUPPORTED,
                             "vit_tokenize: U+%04X is unassigned in Unicode %s, the version of vit.h's character data; the tokenizer's "
                             "newer Unicode may make it a letter, a number or cased, which changes the ids", (unsigned)b[i], VIT__UNICODE_VERSION);
    return VIT_OK;
}

// The same over UTF-8 s[0..n) (valid: checked by vit_tokenize).
static vit_status vit__uni_check_assigned_utf8(char *err, const unsigned char *s, size_t n) {
    for (size_t i = 0; i < n;) {
        if (s[i] < 0xCD) { i++; continue; } // ASCII, a continuation byte, or a lead byte below U+0340
        uint32_t c = (uint32_t)vit__utf8_next(s, n, &i);
        vit_status st = vit__uni_check_assigned(err, &c, 1);
        if (st != VIT_OK) return st;
    }
    return VIT_OK;
}

static unsigned vit__uni_ccc(uint32_t cp) {
    if (cp < 0x300) return 0;
    return vit__uni_range(vit__uni_ccc_ranges, sizeof(vit__uni_ccc_ranges) / sizeof(vit__uni_ccc_ranges[0]), 8, cp);
}

// White_Space, as Oniguruma's \s (tokenizers' regexes): not U+001C-U+001F
static int vit__space_onig(uint32_t c) {
    return (c >= 9 && c <= 13) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) ||
           c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

// Python's str.isspace() (its re's \s, str.strip()): White_Space and U+001C-U+001F
static int vit__space_py(uint32_t c) {
    return vit__space_onig(c) || (c >= 0x1C && c <= 0x1F);
}

// The lower case of one character (Rust's char::to_lowercase; Python's str.lower()
// but for the final sigma) into out; returns the count (1, or 2 for U+0130).
static int vit__uni_lower(uint32_t cp, uint32_t out[2]) {
    out[0] = cp;
    if (cp < 0x80) { if (cp >= 'A' && cp <= 'Z') out[0] = cp + 32; return 1; }
    if (cp == 0x130) { out[0] = 0x69; out[1] = 0x307; return 2; }
    size_t lo = 0, hi = sizeof(vit__uni_lower_runs) / sizeof(vit__uni_lower_runs[0]);
    while (lo < hi) { // the last run starting at or before cp
        size_t mid = lo + (hi - lo) / 2;
        if ((uint32_t)vit__uni_lower_runs[mid][0] <= cp) lo = mid + 1; else hi = mid;
    }
    if (lo == 0) return 1;
    const int32_t *r = vit__uni_lower_runs[lo - 1];
    uint32_t k = cp - (uint32_t)r[0];
    if (k % (uint32_t)r[2] == 0 && k / (uint32_t)r[2] < (uint32_t)r[1]) out[0] = (uint32_t)((int32_t)cp + r[3]);
    return 1;
}

#define VIT__HANGUL_S 0xAC00u
#define VIT__HANGUL_L 0x1100u
#define VIT__HANGUL_V 0x1161u
#define VIT__HANGUL_T 0x11A7u
#define VIT__HANGUL_COUNT 11172u

static int vit__uni_decomp_index(uint32_t cp) {
    size_t lo = 0, hi = sizeof(vit__uni_decomp) / sizeof(vit__uni_decomp[0]);
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uint32_t c = vit__uni_decomp[mid][0] & 0x1FFFFF;
        if (c == cp) return (int)mid;
        if (c < cp) lo = mid + 1; else hi = mid;
    }
    return -1;
}

// The full canonical decomposition of cp into out (room for VIT__UNI_MAX_DECOMP); returns its length.
static size_t vit__uni_decompose(uint32_t cp, uint32_t *out) {
    if (cp >= VIT__HANGUL_S && cp < VIT__HANGUL_S + VIT__HANGUL_COUNT) {
        uint32_t s = cp - VIT__HANGUL_S;
        out[0] = VIT__HANGUL_L + s / 588;
        out[1] = VIT__HANGUL_V + s % 588 / 28;
        if (s % 28 == 0) return 2;
        out[2] = VIT__HANGUL_T + s % 28;
        return 3;
    }
    int k = cp < 0xC0 ? -1 : vit__uni_decomp_index(cp);
    if (k < 0) { out[0] = cp; return 1; }
    size_t n = vit__uni_decompose(vit__uni_decomp[k][1], out);
    if (vit__uni_decomp[k][2]) n += vit__uni_decompose(vit__uni_decomp[k][2], out + n);
    return n;
}

// The primary composite of a and b, or 0.
static uint32_t vit__uni_compose_pair(uint32_t a, uint32_t b) {
    if (a >= VIT__HANGUL_L && a < VIT__HANGUL_L + 19 && b >= VIT__HANGUL_V && b < VIT__HANGUL_V + 21)
        return VIT__HANGUL_S + ((a - VIT__HANGUL_L) * 21 + (b - VIT__HANGUL_V)) * 28;
    if (a >= VIT__HANGUL_S && a < VIT__HANGUL_S + VIT__HANGUL_COUNT && (a - VIT__HANGUL_S) % 28 == 0 && b > VIT__HANGUL_T &&
        b < VIT__HANGUL_T + 28)
        return a + (b - VIT__HANGUL_T);
    size_t lo = 0, hi = sizeof(vit__uni_compose) / sizeof(vit__uni_compose[0]);
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const uint32_t *d = vit__uni_decomp[vit__uni_compose[mid]];
        if (d[1] == a && d[2] == b) return d[0] & 0x1FFFFF;
        if (d[1] < a || (d[1] == a && d[2] < b)) lo = mid + 1; else hi = mid;
    }
    return 0;
}

// Stable sort of b[0..n) by canonical combining class (a run of non-starters).
static int vit__ccc_sort(const vit_allocator *a, uint32_t *b, size_t n, vit__vec *tmp) {
    if (n <= 32) {
        for (size_t i = 1; i < n; i++) {
            uint32_t c = b[i];
            unsigned k = vit__uni_ccc(c);
            size_t j = i;
            for (; j > 0 && vit__uni_ccc(b[j - 1]) > k; j--) b[j] = b[j - 1];
            b[j] = c;
        }
        return 1;
    }
    // a long run (hostile text): a counting sort, linear
    size_t count[257];
    memset(count, 0, sizeof(count));
    tmp->n = 0;
    if (!vit__vec_reserve(a, tmp, n, sizeof(uint32_t))) return 0;
    uint32_t *o = (uint32_t *)tmp->p;
    for (size_t i = 0; i < n; i++) count[vit__uni_ccc(b[i]) + 1]++;
    for (int k = 1; k < 257; k++) count[k] += count[k - 1];
    for (size_t i = 0; i < n; i++) o[count[vit__uni_ccc(b[i])]++] = b[i];
    memcpy(b, o, n * sizeof(uint32_t));
    return 1;
}

// NFC of in[0..n) into out: full canonical decomposition, canonical order, then
// canonical composition (Unicode's algorithm, as Rust's unicode-normalization).
static int vit__nfc(const vit_allocator *a, const uint32_t *in, size_t n, vit__vec *out, vit__vec *tmp) {
    out->n = 0;
    size_t low = 0;
    while (low < n && in[low] < 0x300) low++;
    if (low == n) { // below U+0300 every character is NFC and none combines with another
        if (!vit__vec_reserve(a, out, n, sizeof(uint32_t))) return 0;
        if (n) memcpy(out->p, in, n * sizeof(uint32_t));
        out->n = n;
        return 1;
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t d[VIT__UNI_MAX_DECOMP];
        size_t k = in[i] < 0xC0 ? (d[0] = in[i], 1) : vit__uni_decompose(in[i], d);
        for (size_t q = 0; q < k; q++)
            if (!vit__vec_u32(a, out, d[q])) return 0;
    }
    uint32_t *b = (uint32_t *)out->p;
    size_t m = out->n;
    for (size_t i = 0; i < m;) {
        if (vit__uni_ccc(b[i]) == 0) { i++; continue; }
        size_t j = i;
        while (j < m && vit__uni_ccc(b[j]) != 0) j++;
        if (j - i > 1 && !vit__ccc_sort(a, b + i, j - i, tmp)) return 0;
        i = j;
    }
    size_t w = 0, starter = SIZE_MAX;
    unsigned last = 0; // the class of b[w - 1]
    for (size_t r = 0; r < m; r++) {
        uint32_t c = b[r];
        unsigned cc = vit__uni_ccc(c);
        // c combines with the last starter unless something between blocks it
        if (starter != SIZE_MAX && (w - 1 == starter || (last != 0 && last < cc))) {
            uint32_t p = vit__uni_compose_pair(b[starter], c);
            if (p) { b[starter] = p; continue; }
        }
        if (cc == 0) starter = w;
        b[w++] = c;
        last = cc;
    }
    out->n = w;
    return 1;
}

// >>tokenize common -----------------------------------------------------------
// struct vit_tokenizer and what every tokenizer uses: its vocabulary and text
// store, tokenizer.json and tokenizer_config.json reading, a call's scratch.

// ---- the tokenizer

// An added token (tokenizer.json's added_tokens, tokenizer_config.json's
// added_tokens_decoder and special tokens): matched in the text before the model
// sees it, and given its id whole.
typedef struct vit__added {
    size_t off, len;      // its text in chars
    int id;
    unsigned char lstrip, rstrip, normalized, special;
} vit__added;

// normaliser steps (tokenizer.json), in the order given
enum { VIT__NORM_NFC = 1, VIT__NORM_LOWER, VIT__NORM_SPACES, VIT__NORM_MAX = 8 };

// SentencePiece piece types (sentencepiece_model.proto)
enum { VIT__SP_NORMAL = 1, VIT__SP_UNKNOWN, VIT__SP_CONTROL, VIT__SP_USER, VIT__SP_UNUSED, VIT__SP_BYTE };

enum { VIT__OC_SIMPLE = 1, VIT__OC_HF };                           // vit_tokenizer.oc
enum { VIT__OC_WHITESPACE = 0, VIT__OC_LOWER, VIT__OC_CANONICALIZE }; // vit_tokenizer.oc_clean

struct vit_tokenizer {
    vit_tokenizer_config cfg;
    vit_allocator alloc;
    char error[VIT__ERR_LEN];
    vit__vec chars;          // the text of every string below
    // the vocabulary: CLIP tokenizer.json's model.vocab, SigLIP the pieces (id = index)
    size_t n_entries;
    size_t *off;             // (n_entries) text in chars
    uint32_t *len;
    int32_t *id;
    float *score;            // SigLIP
    unsigned char *type;     // SigLIP: VIT__SP_*
    int32_t *slots;          // (nslots) text -> entry, open addressing (-1 empty); SigLIP: PieceToId's order
    size_t nslots;
    vit__added *added;       // (n_added)
    size_t n_added;
    vit__trie added_raw;     // added tokens matched in the raw text -> index in added
    vit__trie added_norm;    // CLIP: those matched in the normalised text (normalized: true), by their normalised text
    // CLIP
    vit__map64 merges;       // (left id << 32 | right id) -> (rank, merged id)
    int32_t byte_id[256];    // the id of each byte's character, -1 if none
    int32_t byte_end_id[256];// the same with the end-of-word suffix
    int fuse_unk;
    unsigned char norm[VIT__NORM_MAX];
    int n_norm;
    int split_specials;      // CLIP's split pattern starts with <|startoftext|>|<|endoftext|>
    int byte_regex;          // ByteLevel use_regex: each piece split again by GPT-2's pattern
    int prefix[8], n_prefix; // the post-processor's ids before and after the text
    int suffix[8], n_suffix;
    // SigLIP
    vit__trie pieces;        // NORMAL, USER_DEFINED and UNUSED pieces -> entry
    uint32_t *units;         // the charsmap's double array (n_units)
    size_t n_units;
    char *repl;              // its replacement strings, NUL-terminated (repl_size bytes and one more NUL)
    size_t repl_size;
    int add_dummy_prefix, remove_extra_ws, escape_ws, byte_fallback, has_user;
    float min_score, max_score;
    int32_t byte_piece[256]; // the <0xXX> pieces
    size_t unk_off, unk_len; // the unk token's text, put before each piece of text
    size_t unk_pieces;       // the pieces of that text alone
    int32_t sp_unk;          // the unknown piece (sentencepiece's unk_id)
    // T5Tokenizer over tokenizer.json: the tokenizers library's Unigram (every piece in `pieces`, scores in double)
    int hf;
    double *dscore;          // (n_entries)
    double hf_min;           // the lowest score
    // open_clip (open_clip_config.json)
    int oc;                  // 0: transformers' pipeline; VIT__OC_SIMPLE: open_clip's SimpleTokenizer; VIT__OC_HF: its HFTokenizer
    int oc_clean;            // its clean function: VIT__OC_WHITESPACE, _LOWER, _CANONICALIZE
    uint64_t bpe_hash;       // CLIP: of the vocabulary and merges (SimpleTokenizer needs OpenAI's, the one open_clip bundles)
};

static void vit__tok_release(vit_tokenizer *t) {
    const vit_allocator *a = &t->alloc;
    vit__free(a, t->chars.p);
    vit__free(a, t->off);
    vit__free(a, t->len);
    vit__free(a, t->id);
    vit__free(a, t->score);
    vit__free(a, t->type);
    vit__free(a, t->slots);
    vit__free(a, t->added);
    vit__trie_release(a, &t->added_raw);
    vit__trie_release(a, &t->added_norm);
    vit__map64_release(a, &t->merges);
    vit__trie_release(a, &t->pieces);
    vit__free(a, t->units);
    vit__free(a, t->repl);
    vit__free(a, t->dscore);
}

VITDEF void vit_tokenizer_free(vit_tokenizer *t) {
    if (!t) return;
    vit_allocator a = t->alloc;
    vit__tok_release(t);
    vit__free(&a, t);
}

VITDEF const vit_tokenizer_config *vit_tokenizer_get_config(const vit_tokenizer *t) {
    return t ? &t->cfg : NULL;
}

VITDEF const char *vit_tokenizer_last_error(const vit_tokenizer *t) {
    return t ? t->error : vit__load_error;
}

static const char *vit__tok_text(const vit_tokenizer *t, size_t off) {
    return (const char *)t->chars.p + off;
}

// Appends s[0..n) to chars (and a NUL, not counted); its offset in *off.
static int vit__tok_keep(vit_tokenizer *t, const void *s, size_t n, size_t *off) {
    *off = t->chars.n;
    if (!vit__vec_bytes(&t->alloc, &t->chars, s, n) || !vit__vec_bytes(&t->alloc, &t->chars, "", 1)) return 0;
    t->chars.n--;
    return 1;
}

static uint64_t vit__fnv(const void *s, size_t n) {
    const unsigned char *p = (const unsigned char *)s;
    uint64_t h = 0xCBF29CE484222325ull;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001B3ull;
    return h;
}

// The entry whose text is s[0..n), or -1.
static int32_t vit__tok_find(const vit_tokenizer *t, const void *s, size_t n) {
    if (!t->nslots) return -1;
    for (size_t i = vit__mix64(vit__fnv(s, n)) & (t->nslots - 1);; i = (i + 1) & (t->nslots - 1)) {
        int32_t e = t->slots[i];
        if (e < 0) return -1;
        if (t->len[e] == n && memcmp(vit__tok_text(t, t->off[e]), s, n) == 0) return e;
    }
}

// Sizes the entry arrays and the text -> entry table for n entries.
static int vit__tok_entries(vit_tokenizer *t, size_t n, int with_scores) {
    const vit_allocator *a = &t->alloc;
    size_t cap = 16;
    while (cap < 2 * n + 1) cap *= 2; // n <= VIT_MAX_VOCAB
    t->off = (size_t *)vit__malloc(a, (n + 1) * sizeof(size_t));
    t->len = (uint32_t *)vit__malloc(a, (n + 1) * sizeof(uint32_t));
    t->id = (int32_t *)vit__malloc(a, (n + 1) * sizeof(int32_t));
    t->slots = (int32_t *)vit__malloc(a, cap * sizeof(int32_t));
    if (with_scores) {
        t->score = (float *)vit__malloc(a, (n + 1) * sizeof(float));
        t->type = (unsigned char *)vit__malloc(a, n + 1);
    }
    if (!t->off || !t->len || !t->id || !t->slots || (with_scores && (!t->score || !t->type))) return 0;
    memset(t->slots, 0xFF, cap * sizeof(int32_t));
    t->nslots = cap;
    t->n_entries = 0;
    return 1;
}

// Puts entry e in the text -> entry table; 0 if an entry with its text is there.
static int vit__tok_slot(vit_tokenizer *t, int32_t e) {
    const char *s = vit__tok_text(t, t->off[e]);
    size_t n = t->len[e], i = vit__mix64(vit__fnv(s, n)) & (t->nslots - 1);
    for (;; i = (i + 1) & (t->nslots - 1)) {
        int32_t q = t->slots[i];
        if (q < 0) break;
        if (t->len[q] == n && memcmp(vit__tok_text(t, t->off[q]), s, n) == 0) return 0;
    }
    t->slots[i] = e;
    return 1;
}

// ---- reading tokenizer.json and tokenizer_config.json

// A string node's decoded text kept in chars (*off, *n); 0 when out of memory.
static int vit__tok_json_keep(vit_tokenizer *t, const vit__json *j, int node, size_t *off, size_t *n) {
    size_t raw = j->nodes[node].len; // the decoded text is never longer
    if (!vit__vec_reserve(&t->alloc, &t->chars, t->chars.n + raw + 1, 1)) return 0;
    *off = t->chars.n;
    *n = vit__json_str(j, node, (char *)t->chars.p + t->chars.n, raw + 1);
    t->chars.n += *n + 1;
    return 1;
}

// A token as tokenizer_config.json writes one: "text" or {"content": "text", ...}
// (AddedToken); the node of its text, or -1.
static int vit__tok_json_token(const vit__json *j, int node) {
    if (node < 0) return -1;
    if (j->nodes[node].type == VIT__J_STR) return node;
    int c = vit__json_get(j, node, "content");
    return c >= 0 && j->nodes[c].type == VIT__J_STR ? c : -1;
}

static int vit__json_is(const vit__json *j, int node, vit__jtype type) {
    return node >= 0 && j->nodes[node].type == type;
}

// The decoded text of a string node into buf (NUL-terminated) and its length
// into *len (may be NULL); 0 if it is not a string or does not fit in cap bytes.
static int vit__json_text(const vit__json *j, int node, char *buf, size_t cap, size_t *len) {
    if (!vit__json_is(j, node, VIT__J_STR)) return 0;
    size_t n = vit__json_str(j, node, buf, cap);
    if (len) *len = n;
    return n < cap;
}

// A boolean member of obj (absent or null: def); -1 if it is something else.
static int vit__json_flag(const vit__json *j, int obj, const char *key, int def) {
    int n = vit__json_get(j, obj, key);
    if (n < 0 || j->nodes[n].type == VIT__J_NULL) return def;
    if (j->nodes[n].type == VIT__J_TRUE) return 1;
    if (j->nodes[n].type == VIT__J_FALSE) return 0;
    return -1;
}

// A member of obj that must be a string whose decoded text is lit.
static int vit__json_is_str(const vit__json *j, int obj, const char *key, const char *lit) {
    char buf[128];
    int n = vit__json_get(j, obj, key);
    if (!vit__json_is(j, n, VIT__J_STR)) return 0;
    size_t len = vit__json_str(j, n, buf, sizeof(buf));
    return len == strlen(lit) && len < sizeof(buf) && !memcmp(buf, lit, len);
}

// What tokenizer_config.json says (the parts vit.h reads).
typedef struct vit__tok_cfg {
    vit__json j;
    int root;               // -1: no tokenizer_config.json
    int context;            // model_max_length in [2, VIT_MAX_TOKENS], else 0
    int lower;              // do_lower_case (SigLIP; default 1)
    int legacy;             // legacy (SigLIP; default 1)
    int eos, unk, pad;      // nodes of the tokens' texts, -1 if not given
    char cls[64];           // tokenizer_class ("" if none)
} vit__tok_cfg;

static vit_status vit__tok_cfg_parse(vit__tok_cfg *c, const char *text, size_t size, const vit_allocator *a, char *err) {
    memset(c, 0, sizeof(*c));
    c->root = -1;
    c->eos = c->unk = c->pad = -1;
    c->lower = c->legacy = 1;
    if (!text) return VIT_OK;
    if (size > VIT_MAX_HEADER_BYTES)
        return vit__fail(err, VIT_ERROR_LIMIT, "tokenizer_config.json is %zu bytes, more than VIT_MAX_HEADER_BYTES", size);
    size_t bad = vit__utf8_check((const unsigned char *)text, size);
    if (bad < size) return vit__fail(err, VIT_ERROR_BAD_FORMAT, "tokenizer_config.json: not UTF-8 at byte %zu", bad);
    vit_status st = vit__json_parse(&c->j, text, size, a, err);
    if (st != VIT_OK) {
        char detail[VIT__ERR_LEN];
        memcpy(detail, err, VIT__ERR_LEN);
        return vit__fail(err, st, "tokenizer_config.json: %.400s", detail);
    }
    c->root = 0;
    if (c->j.nodes[0].type != VIT__J_OBJ) return vit__fail(err, VIT_ERROR_BAD_FORMAT, "tokenizer_config.json: not a JSON object");
    int n = vit__json_get(&c->j, 0, "tokenizer_class");
    if (vit__json_is(&c->j, n, VIT__J_STR)) vit__json_str(&c->j, n, c->cls, sizeof(c->cls));
    n = vit__json_get(&c->j, 0, "model_max_length");
    int ctx;
    if (n >= 0 && vit__json_int(&c->j, n, 2, VIT_MAX_TOKENS, &ctx)) c->context = ctx; // 1e30 (transformers' "no limit"): the default
    if ((c->lower = vit__json_flag(&c->j, 0, "do_lower_case", 1)) < 0 || (c->legacy = vit__json_flag(&c->j, 0, "legacy", 1)) < 0)
        return vit__fail(err, VIT_ERROR_BAD_FORMAT, "tokenizer_config.json: do_lower_case and legacy must be true or false");
    const char *names[3] = {"eos_token", "unk_token", "pad_token"};
    int *nodes[3] = {&c->eos, &c->unk, &c->pad};
    for (int k = 0; k < 3; k++) {
        n = vit__json_get(&c->j, 0, names[k]);
        if (n < 0 || c->j.nodes[n].type == VIT__J_NULL) continue;
        if ((*nodes[k] = vit__tok_json_token(&c->j, n)) < 0)
            return vit__fail(err, VIT_ERROR_BAD_FORMAT, "tokenizer_config.json: %s is neither a string nor a token", names[k]);
    }
    return VIT_OK;
}

// The id of a token's text: an added token's, else the vocabulary's; -1 if neither.
static int32_t vit__tok_id_of(const vit_tokenizer *t, const void *s, size_t n) {
    int32_t k = vit__trie_exact(&t->added_raw, (const unsigned char *)s, n);
    if (k < 0) k = vit__trie_exact(&t->added_norm, (const unsigned char *)s, n);
    if (k >= 0) return t->added[k].id;
    int32_t e = vit__tok_find(t, s, n);
    return e < 0 ? -1 : t->id[e];
}

// Scratch of one vit_tokenize call; freed at its end.
typedef struct vit__tok_run {
    vit__vec cps, norm, t1, t2, bytes; // code points, normalised, scratch, UTF-8
    vit__vec sym;                       // BPE: (id, prev, next, alive) per symbol
    vit__vec heap;                      // BPE: pending merges (rank, position, merged id)
    vit__vec best;                      // Viterbi: (score, start, id) per byte
    vit__vec pieces;                    // SentencePiece pieces: (start, end, id, kind)
    int *ids;                           // the ids so far (cap), count may run past cap
    size_t count, cap;
    unsigned char flags[2];             // SigLIP: of the first two tokens, 1: the text is "▁", 2: a special token
} vit__tok_run;

#define VIT__TOK_STACK_IDS 256

static void vit__tok_run_release(const vit_allocator *a, vit__tok_run *r) {
    vit__vec *v[9] = {&r->cps, &r->norm, &r->t1, &r->t2, &r->bytes, &r->sym, &r->heap, &r->best, &r->pieces};
    for (int k = 0; k < 9; k++) vit__free(a, v[k]->p);
}

static void vit__tok_emit(vit__tok_run *r, int id) {
    if (r->count < r->cap) r->ids[r->count] = id;
    r->count++;
}

// >>tokenize clip bpe ---------------------------------------------------------
// CLIP's tokenizer.json: byte-level BPE as transformers' CLIPTokenizer runs it.

// ---- CLIP's normaliser (tokenizers' NFC, Replace(\s+, " "), Lowercase)

// in[0..n) through tokenizer.json's normaliser steps into out (tmp, tmp2: scratch).
static int vit__clip_normalize(const vit_tokenizer *t, const uint32_t *in, size_t n, vit__vec *out, vit__vec *tmp, vit__vec *tmp2) {
    const vit_allocator *a = &t->alloc;
    out->n = 0;
    if (!vit__vec_reserve(a, out, n, sizeof(uint32_t))) return 0;
    if (n) memcpy(out->p, in, n * sizeof(uint32_t));
    out->n = n;
    for (int s = 0; s < t->n_norm; s++) {
        const uint32_t *b = (const uint32_t *)out->p;
        size_t m = out->n;
        tmp->n = 0;
        if (t->norm[s] == VIT__NORM_NFC) {
            if (!vit__nfc(a, b, m, tmp, tmp2)) return 0;
        } else if (t->norm[s] == VIT__NORM_LOWER) {
            for (size_t i = 0; i < m; i++) {
                uint32_t lo[2];
                int k = vit__uni_lower(b[i], lo);
                for (int q = 0; q < k; q++)
                    if (!vit__vec_u32(a, tmp, lo[q])) return 0;
            }
        } else { // VIT__NORM_SPACES: each run of \s (Oniguruma's) to one space
            for (size_t i = 0; i < m; i++) {
                if (!vit__space_onig(b[i])) { if (!vit__vec_u32(a, tmp, b[i])) return 0; continue; }
                while (i + 1 < m && vit__space_onig(b[i + 1])) i++;
                if (!vit__vec_u32(a, tmp, ' ')) return 0;
            }
        }
        vit__vec x = *out; // swap
        *out = *tmp;
        *tmp = x;
    }
    return 1;
}

// ---- loading tokenizer.json (CLIP)

static const char vit__clip_split[] = "'s|'t|'re|'ve|'m|'ll|'d|[\\p{L}]+|[\\p{N}]|[^\\s\\p{L}\\p{N}]+";
static const char vit__clip_split_specials[] = "<\\|startoftext\\|>|<\\|endoftext\\|>|";

static vit_status vit__clip_normalizer(vit_tokenizer *t, const vit__json *j, int n, char *err) {
    if (n < 0 || j->nodes[n].type == VIT__J_NULL) return VIT_OK;
    int list = -1, count = 1;
    if (vit__json_is_str(j, n, "type", "Sequence")) {
        list = vit__json_get(j, n, "normalizers");
        if (!vit__json_is(j, list, VIT__J_ARR)) return vit__fail(err, VIT_ERROR_BAD_FORMAT, "tokenizer.json: normalizer Sequence without a normalizers list");
        count = j->nodes[list].count;
        n = j->nodes[list].first_child;
    }
    for (int k = 0; k < count; k++, n = j->nodes[n].next) {
        char type[64] = "";
        vit__json_text(j, vit__json_get(j, n, "type"), type, sizeof(type), NULL);
        if (t->n_norm == VIT__NORM_MAX) return vit__fail(err, VIT_ERROR_UNSUPPORTED, "tokenizer.json: more than %d normalizers", VIT__NORM_MAX);
        if (!strcmp(type, "NFC")) t->norm[t->n_norm++] = VIT__NORM_NFC;
        else if (!strcmp(type, "Lowercase")) t->norm[t->n_norm++] = VIT__NORM_LOWER;
        else if (!strcmp(type, "Replace") && vit__json_is_str(j, vit__json_get(j, n, "pattern"), "Regex", "\\s+") &&
                 vit__json_is_str(j, n, "content", " "))
            t->norm[t->n_norm++] = VIT__NORM_SPACES;
        else
            return vit__fail(err, VIT_ERROR_UNSUPPORTED, "tokenizer.json: normalizer '%s' (vit.h runs CLIP's: NFC, Replace(\\s+, \" \"), Lowercase)",
                             type[0] ? type : "?");
    }
    return VIT_OK;
}

static vit_status vit__clip_pretokenizer(vit_tokenizer *t, const vit__json *j, int n, char *err) {
    static const char *const what = "tokenizer.json: the pre-tokenizer is not CLIP's (Split with its pattern, Removed, inverted; then ByteLevel "
                                    "without a prefix space)";
    int list = vit__json_get(j, n, "pretokenizers");
    if (!vit__json_is_str(j, n, "type", "Sequence") || !vit__json_is(j, list, VIT__J_ARR) || j->nodes[list].count != 2)
        return vit__fail(err, VIT_ERROR_UNSUPPORTED, "%s", what);
    int split = j->nodes[list].first_child, bl = j->nodes[split].next;
    char pattern[sizeof(vit__clip_split) + sizeof(vit__clip_split_specials)];
    if (!vit__json_is_str(j, split, "type", "Split") || !vit__json_is_str(j, split, "behavior", "Removed") ||
        vit__json_flag(j, split, "invert", 0) != 1 || !vit__json_text(j, vit__json_get(j, vit__json_get(j, split, "pattern"), "Regex"), pattern, sizeof(pattern), NULL))
        return vit__fail(err, VIT_ERROR_UNSUPPORTED, "%s", what);
    size_t sl = strlen(vit__clip_split_specials);
    t->split_specials = !strncmp(pattern, vit__clip_split_specials, sl);
    if (strcmp(pattern + (t->split_specials ? sl : 0), vit__clip_split) != 0)
        return vit__fail(err, VIT_ERROR_UNSUPPORTED, "tokenizer.json: split pattern '%.200s' is not CLIP's", pattern);
    if (!vit__json_is_str(j, bl, "type", "ByteLevel") || vit__json_flag(j, bl, "add_prefix_space", 0) != 0 ||
        (t->byte_regex = vit__json_flag(j, bl, "use_regex", 1)) < 0)
        return vit__fail(err, VIT_ERROR_UNSUPPORTED, "%s", what);
    return VIT_OK;
}

// [text, id] (RobertaProcessing's cls and sep) -> its id
static int vit__clip_pair_id(const vit__json *j, int n, int *id) {
    if (!vit__json_is(j, n, VIT__J_ARR) || j->nodes[n].count != 2) return 0;
    return vit__json_int(j, j->nodes[j->nodes[n].first_child].next, 0, VIT_MAX_VOCAB - 1, id);
}

static vit_status vit__clip_postprocessor(vit_tokenizer *t, const vit__json *j, int n, char *err) {
    if (n < 0 || j->nodes[n].type == VIT__J_NULL) return VIT_OK;
    char type[64] = "";
    vit__json_text(j, vit__json_get(j, n, "type"), type, sizeof(type), NULL);
    if (!strcmp(type, "RobertaProcessing") || !strcmp(type, "BertProcessing")) { // cls text sep
        t->n_prefix = t->n_suffix = 1;
        if (!vit__clip_pair_id(j, vit__json_get(j, n, "cls"), &t->prefix[0]) || !vit__clip_pair_id(j, vit__json_get(j, n, "sep"), &t->suffix[0]))
            return vit__fail(err, VIT_ERROR_BAD_FORMAT, "tokenizer.json: %s needs cls and sep as [text, id]", type);
        return VIT_OK;
    }
    if (strcmp(type, "TemplateProcessing") != 0)
        return vit__fail(err, VIT_ERROR_UNSUPPORTED, "tokenizer.json: post-processor '%s'", type[0] ? type : "?");
    int single = vit__json_get(j, n, "single"), specials = vit__json_get(j, n, "special_tokens"), seen = 0;
    if (!vit__json_is(j, single, VIT__J_ARR)) return vit__fail(err, VIT_ERROR_BAD_FORMAT, "tokenizer.json: TemplateProcessing without a single template");
    for (int it = j->nodes[single].first_child; it >= 0; it = j->nodes[it].next) {
        int seq = vit__json_get(j, it, "Sequence"), sp = vit__json_get(j, it, "SpecialToken");
        if (seq >= 0) {
            if (seen++) return vit__fail(err, VIT_ERROR_BAD_FORMAT, "tokenizer.json: TemplateProcessing's single template has two sequences");
            continue;
        }
        int name = vit__json_get(j, sp, "id"), tok = -1, ids;
        if (vit__json_is(j, name, VIT__J_STR))
            for (int k = vit__json_is(j, specials, VIT__J_OBJ) ? j->nodes[specials].first_child : -1; k >= 0; k = j->nodes[j->nodes[k].next].next)
                if (j->nodes[k].len == j->nodes[name].len && !memcmp(j->src + j->nodes[k].start, j->src + j->nodes[name].start, j->nodes[k].len))
                    tok = j->nodes[k].next;
        if (!vit__json_is(j, ids = vit__json_get(j, tok, "ids"), VIT__J_ARR))
            return vit__fail(err, VIT_ERROR_BAD_FORMAT, "tokenizer.json: TemplateProcessing names a special token it does not define");
        for (int k = j->nodes[ids].first_child; k >= 0; k = j->nodes[k].next) {
            int *list = seen ? t->suffix : t->prefix, *count = seen ? &t->n_suffix : &t->n_prefix;
            if (*count == 8) return vit__fail(err, VIT_ERROR_UNSUPPORTED, "tokenizer.json: more than 8 special ids around the text");
            if (!vit__json_int(j, k, 0, VIT_MAX_VOCAB - 1, &list[*count]))
                return vit__fail(err, VIT_ERROR_BAD_FORMAT, "tokenizer.json: TemplateProcessing: a special token's id is not a valid id");
            (*count)++;
        }
    }
    if (!seen) return vit__fail(err, VIT_ERROR_BAD_FORMAT, "tokenizer.json: TemplateProcessing's single template has no sequence");
    return VIT_OK;
}

// bytes_to_unicode(): GPT-2's printable character for each byte
static uint32_t vit__byte_char(unsigned b) {
    if ((b >= 0x21 && b <= 0x7E) || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF)) return b;
    unsigned n = 0; // the bytes that are not, in order, from U+0100
    for (unsigned k = 0; k < b; k++)
        if (!((k >= 0x21 && k <= 0x7E) || (k >= 0xA1 && k <= 0xAC) || (k >= 0xAE && k <= 0xFF))) n++;
    return 0x100 + n;
}

static vit_status vit__clip_load(vit_tokenizer *t, const vit__json *j, const vit__tok_cfg *c, char *err) {
    const vit_allocator *a = &t->alloc;
    int root = 0, model = vit__json_get(j, 0, "model");
    if (j->nodes[0].type != VIT__J_OBJ || !vit__json_is(j, model, VIT__J_OBJ))
        return vit__fail(err, VIT_ERROR_BAD_FORMAT, "tokenizer.json: no model object");
    char type[64] = "", s[128];
    if (!vit__json_text(j, vit__json_get(j, model, "type"), type, sizeof(type), NULL) || strcmp(type, "BPE") != 0)
        return vit__fail(err, VIT_ERROR_UNSUPPORTED, "tokenizer.json: model type '%s' (vit.h reads CLIP's BPE; SigLIP's tokenizer is spiece.model)",
                         type[0] ? type : "?");
    int dropout = vit__json_get(j, model, "dropout"), prefix = vit__json_get(j, model, "continuing_subword_prefix");
    if (dropout >= 0 && j->nodes[dropout].type != VIT__J_NULL) return vit__fail(err, VIT_ERROR_UNSUPPORTED, "tokenizer.json: BPE dropout (random merges)");
    if (prefix >= 0 && j->nodes[prefix].type != VIT__J_NULL && !vit__json_eq(j, prefix, ""))
        return vit__fail(err, VIT_ERROR_UNSUPPORTED, "tokenizer.json: a continuing_subword_prefix (CLIP has none)");
    if (vit__json_flag(j, model, "byte_fallback", 0) != 0 || vit__json_flag(j, model, "ignore_merges", 0) != 0)
        return vit__fail(err, VIT_ERROR_UNSUPPORTED, "tokenizer.json: BPE byte_fallback or ignore_merges (CLIP has neither)");
    if ((t->fuse_unk = vit__json_flag(j, model, "fuse_unk", 0)) < 0) return vit__fail(err, VIT_ERROR_BAD_FORMAT, "tokenizer.json: fuse_unk is not a boolean");
    char suffix[64] = "";
    int sfx = vit__json_get(j, model, "end_of_word_suffix");
    if (sfx >= 0 && j->nodes[sfx].type != VIT__J_NULL && !vit__json_text(j, sfx, suffix, sizeof(suffix), NULL))
        return vit__fail(err, VIT_ERROR_BAD_FORMAT, "tokenizer.json: end_of_word_suffix is not a short string");
    // the vocabulary
    int vocab = vit__json_get(j, model, "vocab"), merges = vit__json_get(j, model, "merges");
    if (!vit__json_is(j, vocab, VIT__J_OBJ) || !vit__json_is(j, merges, VIT__J_ARR))
        return vit__fail(err, VIT_ERROR_BAD_FORMAT, "tokenizer.json: BPE needs a vocab object and a merges list");
    size_t nv = (size_t)j->nodes[vocab].count, nm = (size_t)j->nodes[merges].count;
    if (nv > VIT_MAX_VOCAB || nm > VIT_MAX_VOCAB)
        return vit__fail(err, VIT_ERROR_LIMIT, "tokenizer.json: %zu tokens and %zu merges (VIT_MAX_VOCAB: %d)", nv, nm, VIT_MAX_VOCAB);
    if (!vit__tok_entries(t, nv, 0)) return vit__fail(err, VIT_ERROR_OUT_OF_MEMORY, "out of memory for %zu tokens", nv);
    int max_id = -1;
    uint64_t vh = 0, mh = 0xCBF29CE484222325ull; // bpe_hash: a sum over the tokens, FNV-1a over the merges' ids in order
    for (int k = j->nodes[vocab].first_child; k >= 0; k = j->nodes[j->nodes[k].next].next) {
        size_t off, len;
        int id;
        if (!vit__tok_json_keep(t, j, k, &off, &len)) return vit__fail(err, VIT_ERROR_OUT_OF_MEMORY, "out of memory for the vocabulary");
        if (!vit__json_int(j, j->nodes[k].next, 0, VIT_MAX_VOCAB - 1, &id))
            return vit__fail(err, VIT_ERROR_BAD_FORMAT, "tokenizer.json: token '%.100s' has no valid id", vit__tok_text(t, off));
        int32_t e = (int32_t)t->n_entries;
        t->off[e] = off;
        t->len[e] = (uint32_t)len;
        t->id[e] = id;
        if (!vit__tok_slot(t, e)) return vit__fail(err, VIT_ERROR_BAD_FORMAT, "tokenizer.json: token '%.100s' is in the vocabulary twice", vit__tok_text(t, off));
        t->n_entries++;
        if (id > max_id) max_id = id;
        vh += vit__fnv(vit__tok_text(t, off), len) ^ (uint64_t)id * 0x9E3779B97F4A7C15ull;
    }
    // the merges, by rank: (left, right) -> merged; a pair given twice keeps its later rank (as tokenizers)
    if (!vit__map64_init(a, &t->merges, nm)) return vit__fail(err, VIT_ERROR_OUT_OF_MEMORY, "out of memory for %zu merges", nm);
    int rank = 0;
    for (int k = j->nodes[merges].first_child; k >= 0; k = j->nodes[k].next) {
        char both[1024]; // left then right: the merged token's text
        size_t plen[2];
        if (j->nodes[k].type == VIT__J_STR) { // "left right" (older files)
            size_t len;
            if (!vit__json_text(j, k, both, sizeof(both), &len)) return vit__fail(err, VIT_ERROR_LIMIT, "tokenizer.json: merge %d is longer than 1023 bytes", rank);
            if (!strncmp(both, "#version", 8)) continue;
            const char *sp = (const char *)memchr(both, ' ', len);
            if (!sp || memchr(sp + 1, ' ', len - (size_t)(sp - both) - 1))
                return vit__fail(err, VIT_ERROR_BAD_FORMAT, "tokenizer.json: merge %d ('%.100s') is not two tokens", rank, both);
            plen[0] = (size_t)(sp - both);
            plen[1] = len - plen[0] - 1;
            memmove(both + plen[0], sp + 1, plen[1]);
        } else if (j->nodes[k].type == VIT__J_ARR && j->nodes[k].count == 2) {
            int l = j->nodes[k].first_child;
            if (!vit__json_text(j, l, both, 512, &plen[0]) || !vit__json_text(j, j->nodes[l].next, both + plen[0], 512, &plen[1]))
                return vit__fail(err, VIT_ERROR_BAD_FORMAT, "tokenizer.json: merge %d is not two tokens of at most 511 bytes", rank);
        } else {
            return vit__fail(err, VIT_ERROR_BAD_FORMAT, "tokenizer.json: merge %d is neither \"a b\" nor [a, b]", rank);
        }
        int32_t l = vit__tok_find(t, both, plen[0]), r = vit__tok_find(t, both + plen[0], plen[1]), m = -1;
        if (l >= 0 && r >= 0) m = vit__tok_find(t, both, plen[0] + plen[1]);
        if (m < 0)
            return vit__fail(err, VIT_ERROR_BAD_FORMAT, "tokenizer.json: merge %d names a token the vocabulary lacks", rank);
        int fresh;
        int32_t *v = vit__map64_slot(&t->merges, (uint64_t)(uint32_t)t->id[l] << 32 | (uint32_t)t->id[r], &fresh);
        v[0] = rank++;
        v[1] = t->id[m];
        mh = (mh ^ ((uint64_t)(uint32_t)t->id[l] << 32 | (uint32_t)t->id[r])) * 0x100000001B3ull;
    }
    t->bpe_hash = mh + 31 * vh;
    vit_status st = vit__clip_normalizer(t, j, vit__json_get(j, root, "normalizer"), err);
    if (st == VIT_OK) st = vit__clip_pretokenizer(t, j, vit__json_get(j, root, "pre_tokenizer"), err);
    if (st == VIT_OK) st = vit__clip_postprocessor(t, j, vit__json_get(j, root, "post_processor"), err);
    if (st != VIT_OK) return st;
    // the added tokens: <|startoftext|>, <|endoftext|>
    int added = vit__json_get(j, root, "added_tokens");
    if (added >= 0 && !vit__json_is(j, added, VIT__J_ARR)) return vit__fail(err, VIT_ERROR_BAD_FORMAT, "tokenizer.json: added_tokens is not a list");
    size_t na = added >= 0 ? (size_t)j->nodes[added].count : 0, bytes = 0;
    if (na > VIT_MAX_VOCAB) return vit__fail(err, VIT_ERROR_LIMIT, "tokenizer.json: %zu added tokens (VIT_MAX_VOCAB: %d)", na, VIT_MAX_VOCAB);
    t->added = (vit__added *)vit__malloc(a, (na + 1) * sizeof(vit__added));
    if (!t->added) return vit__fail(err, VIT_ERROR_OUT_OF_MEMORY, "out of memory for %zu added tokens", na);
    for (int k = na ? j->nodes[added].first_child : -1; k >= 0; k = j->nodes[k].next) {
        vit__added *ad = &t->added[t->n_added];
        int content = vit__json_get(j, k, "content"), id;
        int lstrip = vit__json_flag(j, k, "lstrip", 0), rstrip = vit__json_flag(j, k, "rstrip", 0), word = vit__json_flag(j, k, "single_word", 0);
        int normalized = vit__json_flag(j, k, "normalized", 1), special = vit__json_flag(j, k, "special", 0);
        if (!vit__json_is(j, content, VIT__J_STR) || j->nodes[content].len == 0 || !vit__json_int(j, vit__json_get(j, k, "id"), 0, VIT_MAX_VOCAB - 1, &id) ||
            lstrip < 0 || rstrip < 0 || word < 0 || normalized < 0 || special < 0)
            return vit__fail(err, VIT_ERROR_BAD_FORMAT, "tokenizer.json: added token %zu needs content, id and boolean flags", t->n_added);
        if (!vit__tok_json_keep(t, j, content, &ad->off, &ad->len)) return vit__fail(err, VIT_ERROR_OUT_OF_MEMORY, "out of memory for added tokens");
        if (lstrip || rstrip || word)
            return vit__fail(err, VIT_ERROR_UNSUPPORTED, "tokenizer.json: added token '%.100s' strips spaces or matches single words (CLIP's do neither)",
                             vit__tok_text(t, ad->off));
        int32_t e = vit__tok_find(t, vit__tok_text(t, ad->off), ad->len);
        if (e >= 0 && t->id[e] != id)
            return vit__fail(err, VIT_ERROR_BAD_FORMAT, "tokenizer.json: added token '%.100s' has id %d, the vocabulary %d", vit__tok_text(t, ad->off), id, t->id[e]);
        if (ad->len > VIT_MAX_TEXT_BYTES) return vit__fail(err, VIT_ERROR_LIMIT, "tokenizer.json: an added token longer than VIT_MAX_TEXT_BYTES");
        ad->id = id;
        ad->lstrip = ad->rstrip = 0;
        ad->normalized = (unsigned char)normalized;
        ad->special = (unsigned char)special;
        if (id > max_id) max_id = id;
        bytes += ad->len * 8 * VIT__UNI_MAX_DECOMP; // normalised: each character decomposed and lower-cased, as UTF-8
        t->n_added++;
    }
    // the added tokens' tries: as given (normalized false), or as the normaliser gives them
    if (!vit__trie_init(a, &t->added_raw, bytes) || !vit__trie_init(a, &t->added_norm, bytes))
        return vit__fail(err, VIT_ERROR_OUT_OF_MEMORY, "out of memory for added tokens");
    vit__vec cps = {NULL, 0, 0}, norm = {NULL, 0, 0}, t1 = {NULL, 0, 0}, t2 = {NULL, 0, 0}, utf = {NULL, 0, 0};
    st = VIT_OK;
    for (size_t k = 0; k < t->n_added && st == VIT_OK; k++) {
        const unsigned char *text = (const unsigned char *)vit__tok_text(t, t->added[k].off);
        size_t n = t->added[k].len;
        if (!t->added[k].normalized) { vit__trie_add(&t->added_raw, text, n, (int32_t)k); continue; }
        cps.n = utf.n = 0;
        for (size_t i = 0; i < n && st == VIT_OK;) {
            int32_t cp = vit__utf8_next(text, n, &i);
            if (cp < 0 || !vit__vec_u32(a, &cps, (uint32_t)cp)) st = vit__fail(err, VIT_ERROR_OUT_OF_MEMORY, "out of memory for added tokens");
        }
        if (st == VIT_OK && !vit__clip_normalize(t, (const uint32_t *)cps.p, cps.n, &norm, &t1, &t2)) st = vit__fail(err, VIT_ERROR_OUT_OF_MEMORY, "out of memory for added tokens");
        for (size_t i = 0; st == VIT_OK && i < norm.n; i++) {
            unsigned char u[4];
            if (!vit__vec_bytes(a, &utf, u, vit__utf8_put(((const uint32_t *)norm.p)[i], u))) st = vit__fail(err, VIT_ERROR_OUT_OF_MEMORY, "out of memory for added tokens");
        }
        if (st == VIT_OK && utf.n) vit__trie_add(&t->added_norm, (const unsigned char *)utf.p, utf.n, (int32_t)k);
    }
    vit__free(a, cps.p); vit__free(a, norm.p); vit__free(a, t1.p); vit__free(a, t2.p); vit__free(a, utf.p);
    if (st != VIT_OK) return st;
    // each byte's character, alone and as the last of a word
    size_t sl = strlen(suffix);
    for (unsigned b = 0; b < 256; b++) {
        size_t n = vit__utf8_put(vit__byte_char(b), (unsigned char *)s);
        int32_t e = vit__tok_find(t, s, n);
        t->byte_id[b] = e < 0 ? -1 : t->id[e];
        memcpy(s + n, suffix, sl + 1); // and its NUL
        e = vit__tok_find(t, s, n + sl);
        t->byte_end_id[b] = e < 0 ? -1 : t->id[e];
    }
    // unk, pad, context
    t->cfg.unk_id = -1;
    int unk = vit__json_get(j, model, "unk_token");
    if (vit__json_is(j, unk, VIT__J_STR)) {
        char u[256];
        size_t ul;
        if (!vit__json_text(j, unk, u, sizeof(u), &ul) || (t->cfg.unk_id = vit__tok_id_of(t, u, ul)) < 0)
            return vit__fail(err, VIT_ERROR_BAD_FORMAT, "tokenizer.json: the unk token is not in the vocabulary");
    }
    char pad[256] = "<|endoftext|>"; // CLIPTokenizer's default
    size_t pl = strlen(pad);
    int padding = vit__json_get(j, root, "padding"), ok = 1;
    if (c->pad >= 0) ok = vit__json_text(&c->j, c->pad, pad, sizeof(pad), &pl);
    else if (vit__json_is(j, vit__json_get(j, padding, "pad_token"), VIT__J_STR)) ok = vit__json_text(j, vit__json_get(j, padding, "pad_token"), pad, sizeof(pad), &pl);
    if (!ok || (t->cfg.pad_id = vit__tok_id_of(t, pad, pl)) < 0)
        return vit__fail(err, VIT_ERROR_BAD_FORMAT, "tokenizer.json: the pad token '%.100s' is not in the vocabulary", pad);
    t->cfg.context = c->context ? c->context : 77;
    if (t->cfg.context <= t->n_prefix + t->n_suffix)
        return vit__fail(err, VIT_ERROR_BAD_FORMAT, "tokenizer_config.json: model_max_length %d leaves no room for text", t->cfg.context);
    for (int k = 0; k < t->n_prefix; k++) if (t->prefix[k] > max_id) max_id = t->prefix[k];
    for (int k = 0; k < t->n_suffix; k++) if (t->suffix[k] > max_id) max_id = t->suffix[k];
    t->cfg.type = VIT_TOKENIZER_CLIP_BPE;
    t->cfg.vocab_size = max_id + 1;
    t->cfg.bos_id = t->n_prefix ? t->prefix[t->n_prefix - 1] : -1;
    t->cfg.eos_id = t->n_suffix ? t->suffix[0] : -1;
    for (int k = 0; k < t->n_norm; k++) if (t->norm[k] == VIT__NORM_LOWER) t->cfg.lower_case = 1;
    return VIT_OK;
}

// ---- encoding: CLIP

typedef struct vit__bpe_sym { int32_t id, prev, next, alive; } vit__bpe_sym;
typedef struct vit__bpe_merge { uint32_t rank, pos; int32_t id; } vit__bpe_merge;

static int vit__bpe_before(const vit__bpe_merge *x, const vit__bpe_merge *y) {
    return x->rank < y->rank || (x->rank == y->rank && x->pos < y->pos);
}

static void vit__bpe_push(vit__bpe_merge *h, size_t *n, vit__bpe_merge m) {
    size_t i = (*n)++;
    while (i > 0 && vit__bpe_before(&m, &h[(i - 1) / 2])) { h[i] = h[(i - 1) / 2]; i = (i - 1) / 2; }
    h[i] = m;
}

static vit__bpe_merge vit__bpe_pop(vit__bpe_merge *h, size_t *n) {
    vit__bpe_merge top = h[0], last = h[--(*n)];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= *n) break;
        if (c + 1 < *n && vit__bpe_before(&h[c + 1], &h[c])) c++;
        if (!vit__bpe_before(&h[c], &last)) break;
        h[i] = h[c];
        i = c;
    }
    if (*n) h[i] = last;
    return top;
}

// Pushes the merge of symbols pos and its next, if the pair has one.
static void vit__bpe_pair(const vit_tokenizer *t, const vit__bpe_sym *s, uint32_t pos, vit__bpe_merge *h, size_t *nh) {
    if (s[pos].next < 0) return;
    const int32_t *m = vit__map64_find(&t->merges, (uint64_t)(uint32_t)s[pos].id << 32 | (uint32_t)s[s[pos].next].id);
    if (!m) return;
    vit__bpe_merge x;
    x.rank = (uint32_t)m[0];
    x.pos = pos;
    x.id = m[1];
    vit__bpe_push(h, nh, x);
}

// One word (a pre-token's bytes) through BPE: its ids emitted. tokenizers'
// Word::merge_all: the lowest-ranked pair first, the leftmost of equal ranks;
// a queued merge whose pair has changed since is dropped.
static int vit__bpe_word(const vit_tokenizer *t, vit__tok_run *r, const unsigned char *w, size_t n) {
    const vit_allocator *a = &t->alloc;
    r->sym.n = 0;
    if (!vit__vec_reserve(a, &r->sym, n, sizeof(vit__bpe_sym)) || !vit__vec_reserve(a, &r->heap, 3 * n + 1, sizeof(vit__bpe_merge))) return 0;
    vit__bpe_sym *s = (vit__bpe_sym *)r->sym.p;
    size_t ns = 0;
    int pending_unk = 0; // an unknown run not yet added (fuse_unk)
    for (size_t i = 0; i < n; i++) {
        int32_t id = i + 1 == n ? t->byte_end_id[w[i]] : t->byte_id[w[i]];
        if (id < 0) { // not in the vocabulary: unk (fused into one with fuse_unk), or dropped without one
            if (t->cfg.unk_id < 0) continue;
            if (t->fuse_unk && pending_unk) continue;
            id = t->cfg.unk_id;
            pending_unk = 1;
        } else {
            pending_unk = 0;
        }
        s[ns].id = id;
        s[ns].prev = (int32_t)ns - 1;
        s[ns].next = (int32_t)ns + 1;
        s[ns].alive = 1;
        ns++;
    }
    if (!ns) return 1;
    s[ns - 1].next = -1;
    vit__bpe_merge *h = (vit__bpe_merge *)r->heap.p;
    size_t nh = 0;
    for (uint32_t p = 0; p + 1 < ns; p++) vit__bpe_pair(t, s, p, h, &nh);
    while (nh) {
        vit__bpe_merge m = vit__bpe_pop(h, &nh);
        vit__bpe_sym *x = &s[m.pos];
        if (!x->alive || x->next < 0) continue;
        const int32_t *now = vit__map64_find(&t->merges, (uint64_t)(uint32_t)x->id << 32 | (uint32_t)s[x->next].id);
        if (!now || now[1] != m.id) continue; // stale
        vit__bpe_sym *y = &s[x->next];
        x->id = m.id;
        y->alive = 0;
        x->next = y->next;
        if (y->next >= 0) s[y->next].prev = (int32_t)m.pos;
        if (x->prev >= 0) vit__bpe_pair(t, s, (uint32_t)x->prev, h, &nh);
        vit__bpe_pair(t, s, m.pos, h, &nh);
    }
    for (size_t p = 0; p < ns; p++)
        if (s[p].alive) vit__tok_emit(r, s[p].id);
    return 1;
}

// The end of the piece that starts at b[i] (not whitespace) under CLIP's split
// pattern (gpt2 = 0) or GPT-2's (gpt2 = 1; \p{N}+ where CLIP has \p{N}), for
// text without whitespace between: specials | 's|'t|'re|'ve|'m|'ll|'d |
// \p{L}+ | \p{N} | [^\s\p{L}\p{N}]+, the first alternative that matches.
static size_t vit__split_end(const uint32_t *b, size_t n, size_t i, int specials, int gpt2) {
    static const char *const sp[2] = {"<|startoftext|>", "<|endoftext|>"};
    for (int k = 0; specials && k < 2; k++) {
        size_t len = strlen(sp[k]), q = 0;
        while (q < len && i + q < n && b[i + q] == (unsigned char)sp[k][q]) q++;
        if (q == len) return i + len;
    }
    if (b[i] == '\'' && i + 1 < n) {
        uint32_t c = b[i + 1], d = i + 2 < n ? b[i + 2] : 0;
        if (c == 's' || c == 't') return i + 2;
        if ((c == 'r' || c == 'v') && d == 'e') return i + 3;
        if (c == 'm') return i + 2;
        if (c == 'l' && d == 'l') return i + 3;
        if (c == 'd') return i + 2;
    }
    unsigned p = vit__uni_prop(b[i]) & 3;
    size_t e = i + 1;
    if (p == VIT__UNI_L) { while (e < n && (vit__uni_prop(b[e]) & 3) == VIT__UNI_L) e++; }
    else if (p == VIT__UNI_N) { while (gpt2 && e < n && (vit__uni_prop(b[e]) & 3) == VIT__UNI_N) e++; }
    else { while (e < n && !vit__space_onig(b[e]) && (vit__uni_prop(b[e]) & 3) == 0) e++; }
    return e;
}

// b[i..e) (a pre-token) as UTF-8 through BPE
static int vit__clip_piece(const vit_tokenizer *t, vit__tok_run *r, const uint32_t *b, size_t i, size_t e) {
    r->bytes.n = 0;
    for (size_t k = i; k < e; k++) {
        unsigned char u[4];
        if (!vit__vec_bytes(&t->alloc, &r->bytes, u, vit__utf8_put(b[k], u))) return 0;
    }
    return vit__bpe_word(t, r, (const unsigned char *)r->bytes.p, r->bytes.n);
}

// Normalised text b[0..n) through the pre-tokenizer and BPE, until `limit` ids.
static int vit__clip_words(const vit_tokenizer *t, vit__tok_run *r, const uint32_t *b, size_t n, size_t limit) {
    for (size_t i = 0; i < n && r->count < limit;) {
        if (vit__space_onig(b[i])) { i++; continue; } // Split's Removed, inverted: what the pattern leaves out
        size_t e = vit__split_end(b, n, i, t->split_specials, 0);
        if (!t->byte_regex) {
            if (!vit__clip_piece(t, r, b, i, e)) return 0;
        } else {
            for (size_t q = i; q < e;) { // ByteLevel's GPT-2 split of the piece
                size_t f = vit__split_end(b, e, q, 0, 1);
                if (!vit__clip_piece(t, r, b, q, f)) return 0;
                q = f;
            }
        }
        i = e;
    }
    return 1;
}

// A raw span of text (no added token in it): normalised, then split at the
// added tokens matched after normalisation, the rest to words.
static int vit__clip_span(const vit_tokenizer *t, vit__tok_run *r, const unsigned char *s, size_t n, size_t limit) {
    const vit_allocator *a = &t->alloc;
    r->cps.n = 0;
    for (size_t i = 0; i < n;) {
        int32_t cp = vit__utf8_next(s, n, &i); // checked by vit_tokenize
        if (!vit__vec_u32(a, &r->cps, (uint32_t)cp)) return 0;
    }
    if (!vit__clip_normalize(t, (const uint32_t *)r->cps.p, r->cps.n, &r->norm, &r->t1, &r->t2)) return 0;
    const uint32_t *b = (const uint32_t *)r->norm.p;
    size_t m = r->norm.n, from = 0;
    if (t->added_norm.nodes > 1) {
        for (size_t i = 0; i < m && r->count < limit; i++) { // leftmost-longest, on the normalised text's UTF-8
            size_t node = 0, best = 0;
            int32_t v = -1;
            for (size_t q = i; q < m; q++) {
                unsigned char u[4];
                size_t k = vit__utf8_put(b[q], u), z = 0;
                for (; z < k; z++) {
                    int32_t c = vit__trie_child(&t->added_norm, node, u[z]);
                    if (c < 0) break;
                    node = (size_t)c;
                }
                if (z < k) break;
                if (t->added_norm.value[node] >= 0) { best = q + 1; v = t->added_norm.value[node]; }
            }
            if (!best) continue;
            if (!vit__clip_words(t, r, b + from, i - from, limit)) return 0;
            if (r->count < limit) vit__tok_emit(r, t->added[v].id);
            from = best;
            i = best - 1;
        }
    }
    return vit__clip_words(t, r, b + from, m - from, limit);
}

static vit_status vit__clip_encode(vit_tokenizer *t, vit__tok_run *r, const unsigned char *s, size_t n) {
    size_t limit = (size_t)(t->cfg.context - t->n_prefix - t->n_suffix), from = 0;
    for (size_t i = 0; i < n && r->count < limit; i++) { // the added tokens matched as given, leftmost-longest
        int32_t v = -1;
        size_t len = vit__trie_longest(&t->added_raw, s + i, n - i, &v);
        if (!len) continue;
        if (!vit__clip_span(t, r, s + from, i - from, limit)) return VIT_ERROR_OUT_OF_MEMORY;
        if (r->count < limit) vit__tok_emit(r, t->added[v].id);
        from = i + len;
        i = from - 1;
    }
    if (r->count < limit && !vit__clip_span(t, r, s + from, n - from, limit)) return VIT_ERROR_OUT_OF_MEMORY;
    if (r->count > limit) r->count = limit; // truncation: the text's first ids
    return VIT_OK;
}

// >>tokenize sentencepiece ----------------------------------------------------
// SigLIP's spiece.model (SiglipTokenizer): SentencePiece's normaliser, Unigram
// Viterbi, the ModelProto reader, SiglipTokenizer's text canonicalisation.

// ---- SentencePiece: normaliser and Unigram Viterbi

// The rule at s[0..n) (n > 0): a user-defined piece (kept verbatim), else the
// charsmap's longest match, else one character (a malformed byte: U+FFFD).
// Returns the bytes consumed; the replacement in *rep (*rep_len bytes). -1: the
// charsmap points outside its strings.
static long long vit__spm_rule(const vit_tokenizer *t, const unsigned char *s, size_t n, const unsigned char **rep, size_t *rep_len) {
    if (t->has_user) { // PrefixMatcher over the user-defined pieces: the longest
        size_t node = 0, best = 0;
        for (size_t i = 0; i < n; i++) {
            int32_t c = vit__trie_child(&t->pieces, node, s[i]);
            if (c < 0) break;
            node = (size_t)c;
            int32_t e = t->pieces.value[node];
            if (e >= 0 && t->type[e] == VIT__SP_USER) best = i + 1;
        }
        if (best) { *rep = s; *rep_len = best; return (long long)best; }
    }
    if (t->n_units) { // Darts-clone's commonPrefixSearch: the longest key that starts s
        size_t pos = 0, best = 0;
        uint32_t value = 0, unit = t->units[0];
        pos ^= (size_t)(unit >> 10) << ((unit & (1u << 9)) >> 6);
        for (size_t i = 0; i < n; i++) {
            pos ^= s[i];
            if (pos >= t->n_units) break;
            unit = t->units[pos];
            if ((unit & ((1u << 31) | 0xFF)) != s[i]) break; // label
            pos ^= (size_t)(unit >> 10) << ((unit & (1u << 9)) >> 6);
            if ((unit >> 8) & 1) { // has a leaf: its value is the replacement's offset
                if (pos >= t->n_units) break;
                best = i + 1;
                value = t->units[pos] & ((1u << 31) - 1);
            }
        }
        if (best) {
            if (value >= t->repl_size) return -1;
            *rep = (const unsigned char *)t->repl + value;
            *rep_len = strlen(t->repl + value);
            return (long long)best;
        }
    }
    size_t i = 0;
    if (vit__utf8_next(s, n, &i) < 0) { *rep = (const unsigned char *)"\xEF\xBF\xBD"; *rep_len = 3; return 1; }
    *rep = s;
    *rep_len = i;
    return (long long)i;
}

// Normalizer::Normalize: s[0..n) into r->bytes (UTF-8, spaces as U+2581).
static vit_status vit__spm_normalize(vit_tokenizer *t, vit__tok_run *r, const unsigned char *s, size_t n) {
    static const unsigned char ws[3] = {0xE2, 0x96, 0x81};
    const vit_allocator *a = &t->alloc;
    const unsigned char *rep;
    size_t rep_len, limit = 64 * n + 1024;
    long long used;
    r->bytes.n = 0;
    if (t->remove_extra_ws) // leading spaces
        while (n && (used = vit__spm_rule(t, s, n, &rep, &rep_len)) > 0 && rep_len == 1 && rep[0] == ' ') { s += used; n -= (size_t)used; }
    if (!n) return VIT_OK;
    if (t->add_dummy_prefix && !vit__vec_bytes(a, &r->bytes, t->escape_ws ? ws : (const unsigned char *)" ", t->escape_ws ? 3 : 1))
        return VIT_ERROR_OUT_OF_MEMORY;
    int prev_space = t->remove_extra_ws;
    while (n) {
        if ((used = vit__spm_rule(t, s, n, &rep, &rep_len)) < 0)
            return vit__fail(t->error, VIT_ERROR_BAD_FORMAT, "spiece.model: the charsmap points outside its strings");
        while (prev_space && rep_len && rep[0] == ' ') { rep++; rep_len--; }
        if (rep_len) {
            for (size_t k = 0; k < rep_len; k++) {
                int ok = rep[k] == ' ' && t->escape_ws ? vit__vec_bytes(a, &r->bytes, ws, 3) : vit__vec_bytes(a, &r->bytes, rep + k, 1);
                if (!ok) return VIT_ERROR_OUT_OF_MEMORY;
            }
            prev_space = rep[rep_len - 1] == ' ';
        }
        s += used;
        n -= (size_t)used;
        if (!t->remove_extra_ws) prev_space = 0;
        if (r->bytes.n > limit) return vit__fail(t->error, VIT_ERROR_LIMIT, "spiece.model: the charsmap makes the text more than 64 times longer");
    }
    if (t->remove_extra_ws) { // trailing spaces
        const unsigned char *b = (const unsigned char *)r->bytes.p;
        size_t k = t->escape_ws ? 3 : 1;
        while (r->bytes.n >= k && !memcmp(b + r->bytes.n - k, t->escape_ws ? ws : (const unsigned char *)" ", k)) r->bytes.n -= k;
    }
    return VIT_OK;
}

typedef struct vit__vnode { float score; int32_t start, id; } vit__vnode;
typedef struct vit__spiece { size_t start, end; int32_t id; int byte; } vit__spiece; // byte >= 0: the <0xXX> piece of that byte

// sentencepiece's Unigram EncodeOptimized over r->bytes, then its
// PopulateSentencePieceText: unknown runs merged, or bytes with byte fallback.
// The pieces into r->pieces.
static vit_status vit__spm_viterbi(vit_tokenizer *t, vit__tok_run *r) {
    const vit_allocator *a = &t->alloc;
    const unsigned char *s = (const unsigned char *)r->bytes.p;
    size_t n = r->bytes.n;
    r->pieces.n = 0;
    if (!n) return VIT_OK;
    if (!vit__vec_reserve(a, &r->best, n + 1, sizeof(vit__vnode))) return VIT_ERROR_OUT_OF_MEMORY;
    vit__vnode *best = (vit__vnode *)r->best.p;
    for (size_t i = 0; i <= n; i++) { best[i].score = 0.0f; best[i].start = -1; best[i].id = -1; }
    const float unk_score = t->min_score - 10.0f; // kUnkPenalty
    const int32_t unk = t->sp_unk;
    for (size_t start = 0; start < n;) {
        static const unsigned char one_char_len[16] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 3, 4};
        size_t mblen = one_char_len[s[start] >> 4], node = 0;
        if (mblen > n - start) mblen = n - start;
        const float here = best[start].score;
        int single = 0;
        for (size_t pos = start; pos < n;) {
            int32_t c = vit__trie_child(&t->pieces, node, s[pos]);
            if (c < 0) break;
            node = (size_t)c;
            pos++;
            int32_t e = t->pieces.value[node];
            if (e < 0 || t->type[e] == VIT__SP_UNUSED) continue;
            size_t length = pos - start;
            float score = t->score[e]; // a user-defined piece: length * max_score - 0.1 (bytes; float, then double)
            if (t->type[e] == VIT__SP_USER) { float lf = (float)length * t->max_score; score = (float)((double)lf - 0.1); }
            float cand = score + here;
            if (best[pos].start < 0 || cand > best[pos].score) {
                best[pos].score = cand;
                best[pos].start = (int32_t)start;
                best[pos].id = e;
            }
            if (length == mblen) single = 1;
        }
        if (!single) {
            float cand = unk_score + here;
            vit__vnode *b = &best[start + mblen];
            if (b->start < 0 || cand > b->score) { b->score = cand; b->start = (int32_t)start; b->id = unk; }
        }
        start += mblen;
    }
    size_t count = 0;
    for (size_t end = n; end > 0; end = (size_t)best[end].start) {
        if (best[end].start < 0 || (size_t)best[end].start >= end) return vit__fail(t->error, VIT_ERROR_BAD_FORMAT, "spiece.model: no path through the text");
        count++;
    }
    if (!vit__vec_reserve(a, &r->pieces, count + (t->byte_fallback ? n : 0), sizeof(vit__spiece))) return VIT_ERROR_OUT_OF_MEMORY;
    vit__spiece *p = (vit__spiece *)r->pieces.p;
    size_t k = count;
    for (size_t end = n; end > 0; end = (size_t)best[end].start) { // backwards, then in order below
        k--;
        p[k].start = (size_t)best[end].start;
        p[k].end = end;
        p[k].id = best[end].id;
        p[k].byte = -1;
    }
    // unknown pieces: merged while they run on, or, with byte fallback, their bytes
    size_t w = 0;
    int prev_unk = 0;
    if (t->byte_fallback) { // expand in place from the back: each unknown piece to its bytes
        size_t total = 0;
        for (size_t q = 0; q < count; q++) total += p[q].id == unk ? p[q].end - p[q].start : 1;
        size_t o = total;
        for (size_t q = count; q-- > 0;) {
            vit__spiece x = p[q];
            if (x.id != unk) { p[--o] = x; continue; }
            for (size_t b = x.end; b-- > x.start;) {
                o--;
                p[o].start = p[o].end = x.start;
                p[o].id = t->byte_piece[s[b]];
                p[o].byte = s[b];
            }
        }
        r->pieces.n = total;
        return VIT_OK;
    }
    for (size_t q = 0; q < count; q++) {
        int is_unk = p[q].id == unk;
        if (is_unk && prev_unk) p[w - 1].end = p[q].end;
        else p[w++] = p[q];
        prev_unk = is_unk;
    }
    r->pieces.n = w;
    return VIT_OK;
}

// A piece's text (a span of r->bytes, or <0xXX>) into *text, *len (buf: room for 7).
static void vit__spm_piece_text(const vit__tok_run *r, const vit__spiece *p, char *buf, const char **text, size_t *len) {
    if (p->byte >= 0) {
        static const char hex[] = "0123456789ABCDEF";
        buf[0] = '<'; buf[1] = '0'; buf[2] = 'x'; buf[3] = hex[p->byte >> 4]; buf[4] = hex[p->byte & 15]; buf[5] = '>';
        *text = buf;
        *len = 6;
        return;
    }
    *text = (const char *)r->bytes.p + p->start;
    *len = p->end - p->start;
}

// transformers' id of a token's text: an added token's, else sentencepiece's
// PieceToId (control, unknown and byte pieces first, then the others), else unk.
static int32_t vit__spm_id(const vit_tokenizer *t, const char *s, size_t n) {
    int32_t k = vit__trie_exact(&t->added_raw, (const unsigned char *)s, n);
    if (k >= 0) return t->added[k].id;
    int32_t e = vit__tok_find(t, s, n);
    return e >= 0 ? t->id[e] : t->sp_unk;
}

// ---- loading spiece.model (SigLIP): the SentencePiece ModelProto

// A protocol buffer being read: p..end.
typedef struct vit__pb { const unsigned char *p, *end; } vit__pb;

static int vit__pb_varint(vit__pb *b, uint64_t *v) {
    uint64_t x = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (b->p >= b->end) return 0;
        unsigned c = *b->p++;
        x |= (uint64_t)(c & 0x7F) << shift;
        if (!(c & 0x80)) { *v = x; return 1; }
    }
    return 0;
}

// The next field of b: its number and wire type, its value (varint, fixed32 as
// bits, fixed64) or its bytes (length-delimited, into *sub). 0 at a malformed field.
static int vit__pb_field(vit__pb *b, uint32_t *field, int *wire, uint64_t *v, vit__pb *sub) {
    uint64_t key;
    if (!vit__pb_varint(b, &key) || (key >> 3) == 0 || (key >> 3) > 0x1FFFFFFF) return 0;
    *field = (uint32_t)(key >> 3);
    *wire = (int)(key & 7);
    if (*wire == 0) return vit__pb_varint(b, v);
    if (*wire == 1 || *wire == 5) {
        size_t k = *wire == 1 ? 8 : 4;
        if ((size_t)(b->end - b->p) < k) return 0;
        *v = 0;
        for (size_t i = 0; i < k; i++) *v |= (uint64_t)b->p[i] << (8 * i);
        b->p += k;
        return 1;
    }
    if (*wire == 2) {
        uint64_t len;
        if (!vit__pb_varint(b, &len) || len > (uint64_t)(b->end - b->p)) return 0;
        sub->p = b->p;
        sub->end = b->p + len;
        b->p += len;
        return 1;
    }
    return 0; // groups (3, 4) and the rest: not in sentencepiece_model.proto
}

// ModelProto's fields that vit.h reads
typedef struct vit__spm_proto {
    size_t n_pieces;
    int has_trainer, has_normalizer;               // fields 2 and 3 were there
    int model_type, suffix_ws, byte_fallback;      // TrainerSpec 3, 24, 35
    int add_dummy_prefix, remove_extra_ws, escape_ws; // NormalizerSpec 3, 4, 5
    vit__pb charsmap;                              // NormalizerSpec 2
} vit__spm_proto;

#define VIT__PB_BAD(what) vit__fail(err, VIT_ERROR_BAD_FORMAT, "spiece.model: %s (not a SentencePiece model, or a damaged one)", what)

// One pass over the ModelProto: with t NULL counts the pieces, else keeps them.
static vit_status vit__spm_proto_read(vit_tokenizer *t, const unsigned char *data, size_t size, vit__spm_proto *m, char *err) {
    vit__pb b = {data, data + size}, sub;
    uint32_t f;
    int wire;
    uint64_t v;
    size_t k = 0;
    while (b.p < b.end) {
        if (!vit__pb_field(&b, &f, &wire, &v, &sub)) return VIT__PB_BAD("a malformed field");
        if (f == 1 || f == 2 || f == 3) {
            if (wire != 2) return VIT__PB_BAD("a field of the wrong type");
        } else {
            continue; // self_test_data, denormalizer_spec: not used
        }
        if (f == 1) { // SentencePiece {piece = 1, score = 2, type = 3}
            if (!t) { if (++m->n_pieces > VIT_MAX_VOCAB) return vit__fail(err, VIT_ERROR_LIMIT, "spiece.model: more than VIT_MAX_VOCAB (%d) pieces", VIT_MAX_VOCAB); continue; }
            vit__pb text = {NULL, NULL};
            int type = VIT__SP_NORMAL;
            float score = 0.0f;
            uint32_t sf;
            int sw;
            uint64_t sv;
            vit__pb ss;
            while (sub.p < sub.end) {
                if (!vit__pb_field(&sub, &sf, &sw, &sv, &ss)) return VIT__PB_BAD("a malformed piece");
                if (sf == 1 && sw == 2) text = ss;
                else if (sf == 2 && sw == 5) { uint32_t u = (uint32_t)sv; memcpy(&score, &u, 4); }
                else if (sf == 3 && sw == 0) type = sv >= 1 && sv <= 6 ? (int)sv : 0;
                else if (sf <= 3) return VIT__PB_BAD("a piece field of the wrong type");
            }
            if (!text.p || text.p == text.end) return vit__fail(err, VIT_ERROR_BAD_FORMAT, "spiece.model: piece %zu is empty", k);
            if (!type) return vit__fail(err, VIT_ERROR_BAD_FORMAT, "spiece.model: piece %zu has an unknown type", k);
            size_t off;
            if (!vit__tok_keep(t, text.p, (size_t)(text.end - text.p), &off)) return vit__fail(err, VIT_ERROR_OUT_OF_MEMORY, "out of memory for the pieces");
            t->off[k] = off;
            t->len[k] = (uint32_t)(text.end - text.p);
            t->id[k] = (int32_t)k;
            t->score[k] = score;
            t->type[k] = (unsigned char)type;
            k++;
            continue;
        }
        if (t) continue; // the specs: read on the counting pass
        if (f == 2) m->has_trainer = 1;
        else m->has_normalizer = 1;
        while (sub.p < sub.end) {
            uint32_t sf;
            int sw;
            uint64_t sv;
            vit__pb ss;
            if (!vit__pb_field(&sub, &sf, &sw, &sv, &ss)) return VIT__PB_BAD(f == 2 ? "a malformed trainer_spec" : "a malformed normalizer_spec");
            if (f == 2) {
                if (sf == 3 && sw == 0) m->model_type = (int)(sv > 100 ? 100 : sv);
                else if (sf == 24 && sw == 0) m->suffix_ws = sv != 0;
                else if (sf == 35 && sw == 0) m->byte_fallback = sv != 0;
                else if ((sf == 3 || sf == 24 || sf == 35) && sw != 0) return VIT__PB_BAD("a trainer_spec field of the wrong type");
            } else {
                if (sf == 2 && sw == 2) m->charsmap = ss;
                else if (sf == 3 && sw == 0) m->add_dummy_prefix = sv != 0;
                else if (sf == 4 && sw == 0) m->remove_extra_ws = sv != 0;
                else if (sf == 5 && sw == 0) m->escape_ws = sv != 0;
                else if (sf >= 2 && sf <= 5) return VIT__PB_BAD("a normalizer_spec field of the wrong type");
            }
        }
    }
    return VIT_OK;
}

// "<0xXX>" (two upper-case hex digits, as sentencepiece writes them): the byte, or -1.
static int vit__spm_byte(const char *s, size_t n) {
    if (n != 6 || memcmp(s, "<0x", 3) != 0 || s[5] != '>') return -1;
    int h = vit__hexval(s[3]), l = vit__hexval(s[4]);
    return h < 0 || l < 0 || (s[3] >= 'a' && s[3] <= 'f') || (s[4] >= 'a' && s[4] <= 'f') ? -1 : h * 16 + l;
}

// An added token for tokenizer_config.json's text at node (of c->j) or lit.
static vit_status vit__spm_added(vit_tokenizer *t, const vit__tok_cfg *c, int node, const char *lit, int id, int strip, int special, char *err) {
    vit__added *ad = &t->added[t->n_added];
    size_t n;
    if (node >= 0) { if (!vit__tok_json_keep(t, &c->j, node, &ad->off, &n)) return vit__fail(err, VIT_ERROR_OUT_OF_MEMORY, "out of memory for added tokens"); }
    else if (!vit__tok_keep(t, lit, n = strlen(lit), &ad->off)) return vit__fail(err, VIT_ERROR_OUT_OF_MEMORY, "out of memory for added tokens");
    ad->len = n;
    const char *text = vit__tok_text(t, ad->off);
    if (!n) return vit__fail(err, VIT_ERROR_BAD_FORMAT, "tokenizer_config.json: an empty added token");
    for (size_t k = 0; k < t->n_added; k++) // given already: the first one stands (transformers keeps added_tokens_decoder's)
        if (t->added[k].len == n && !memcmp(vit__tok_text(t, t->added[k].off), text, n)) return VIT_OK;
    if (id < 0) { // a special token that added_tokens_decoder leaves out: its piece's id, as transformers finds it
        int32_t e = vit__tok_find(t, text, n);
        if (e < 0) return vit__fail(err, VIT_ERROR_UNSUPPORTED, "tokenizer_config.json: token '%.100s' is not in spiece.model (a new id past the vocabulary)", text);
        id = t->id[e];
    }
    ad->id = id;
    ad->lstrip = ad->rstrip = (unsigned char)strip;
    ad->normalized = 0;
    ad->special = (unsigned char)special;
    t->n_added++;
    return VIT_OK;
}

// A precompiled charsmap (sentencepiece's NormalizerSpec, tokenizers' Precompiled):
// <trie bytes, u32 LE><the double array, u32 LE units><NUL-terminated replacements>.
static vit_status vit__charsmap_set(vit_tokenizer *t, const unsigned char *p, size_t n, const char *file, char *err) {
    const vit_allocator *a = &t->alloc;
    size_t tb;
    if (n < 4) return vit__fail(err, VIT_ERROR_BAD_FORMAT, "%s: the precompiled charsmap is broken", file);
    tb = (size_t)p[0] | (size_t)p[1] << 8 | (size_t)p[2] << 16 | (size_t)p[3] << 24;
    if (tb > n - 4 || tb % 4 || tb == 0) return vit__fail(err, VIT_ERROR_BAD_FORMAT, "%s: the precompiled charsmap's trie size is wrong", file);
    t->n_units = tb / 4;
    t->repl_size = n - 4 - tb;
    t->units = (uint32_t *)vit__malloc(a, tb);
    t->repl = (char *)vit__malloc(a, t->repl_size + 1);
    if (!t->units || !t->repl) return vit__fail(err, VIT_ERROR_OUT_OF_MEMORY, "out of memory for the charsmap");
    for (size_t u = 0; u < t->n_units; u++) {
        const unsigned char *q = p + 4 + 4 * u;
        t->units[u] = (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24;
    }
    if (t->repl_size) memcpy(t->repl, p + 4 + tb, t->repl_size);
    t->repl[t->repl_size] = 0;
    return VIT_OK;
}

static vit_status vit__spm_load(vit_tokenizer *t, const unsigned char *data, size_t size, const vit__tok_cfg *c, char *err) {
    const vit_allocator *a = &t->alloc;
    vit__spm_proto m;
    memset(&m, 0, sizeof(m));
    m.model_type = 1; // proto2 defaults: UNIGRAM, and the three normaliser flags true
    m.add_dummy_prefix = m.remove_extra_ws = m.escape_ws = 1;
    vit_status st = vit__spm_proto_read(NULL, data, size, &m, err);
    if (st != VIT_OK) return st;
    if (!m.n_pieces) return vit__fail(err, VIT_ERROR_BAD_FORMAT, "spiece.model: no pieces (not a SentencePiece model)");
    if (!m.has_trainer || !m.has_normalizer) // the trainer always writes both, after the pieces
        return vit__fail(err, VIT_ERROR_BAD_FORMAT, "spiece.model: no %s (a truncated file?)", m.has_trainer ? "normalizer_spec" : "trainer_spec");
    if (m.model_type != 1)
        return vit__fail(err, VIT_ERROR_UNSUPPORTED, "spiece.model: model type %d (%s; vit.h runs Unigram, SigLIP's)", m.model_type,
                         m.model_type == 2 ? "BPE" : m.model_type == 3 ? "WORD" : m.model_type == 4 ? "CHAR" : "unknown");
    if (m.suffix_ws) return vit__fail(err, VIT_ERROR_UNSUPPORTED, "spiece.model: treat_whitespace_as_suffix");
    if (!vit__tok_entries(t, m.n_pieces, 1)) return vit__fail(err, VIT_ERROR_OUT_OF_MEMORY, "out of memory for %zu pieces", m.n_pieces);
    if ((st = vit__spm_proto_read(t, data, size, &m, err)) != VIT_OK) return st;
    t->n_entries = m.n_pieces;
    t->add_dummy_prefix = m.add_dummy_prefix && (c->legacy || t->oc); // legacy false: SiglipTokenizer turns the dummy prefix off (T5TokenizerFast's Metaspace keeps it)
    t->remove_extra_ws = m.remove_extra_ws;
    t->escape_ws = m.escape_ws;
    t->byte_fallback = m.byte_fallback;
    // the pieces: PieceToId's table (control, unknown and byte pieces first) and the trie of the others
    size_t bytes = 0;
    int unknowns = 0, bytes_found = 0;
    for (int b = 0; b < 256; b++) t->byte_piece[b] = -1;
    t->min_score = FLT_MAX;
    t->max_score = FLT_MIN; // as sentencepiece: the largest is at least FLT_MIN
    for (size_t k = 0; k < m.n_pieces; k++) {
        bytes += t->len[k];
        int ty = t->type[k];
        if (ty == VIT__SP_NORMAL) {
            if (t->score[k] < t->min_score) t->min_score = t->score[k];
            if (t->score[k] > t->max_score) t->max_score = t->score[k];
        }
        if (ty == VIT__SP_UNKNOWN) { unknowns++; t->sp_unk = (int32_t)k; }
        if (ty == VIT__SP_USER) t->has_user = 1;
        if (ty == VIT__SP_BYTE) {
            int b = vit__spm_byte(vit__tok_text(t, t->off[k]), t->len[k]);
            if (!m.byte_fallback || b < 0)
                return vit__fail(err, VIT_ERROR_BAD_FORMAT, "spiece.model: byte piece '%.40s' %s", vit__tok_text(t, t->off[k]),
                                 b < 0 ? "is not <0xXX>" : "without byte_fallback");
            if (t->byte_piece[b] < 0) bytes_found++;
            t->byte_piece[b] = (int32_t)k;
        }
    }
    if (unknowns != 1) return vit__fail(err, VIT_ERROR_BAD_FORMAT, "spiece.model: %d unknown pieces (one needed)", unknowns);
    if (m.byte_fallback && bytes_found != 256) return vit__fail(err, VIT_ERROR_BAD_FORMAT, "spiece.model: byte_fallback with %d of the 256 byte pieces", bytes_found);
    if (!vit__trie_init(a, &t->pieces, bytes)) return vit__fail(err, VIT_ERROR_OUT_OF_MEMORY, "out of memory for the pieces");
    for (int pass = 0; pass < 2; pass++) // sentencepiece's two maps: a text may be in both, once in each
        for (size_t k = 0; k < m.n_pieces; k++) {
            int ty = t->type[k], reserved = ty == VIT__SP_UNKNOWN || ty == VIT__SP_CONTROL || ty == VIT__SP_BYTE, twice;
            if (reserved != (pass == 0)) continue;
            if (reserved) twice = !vit__tok_slot(t, (int32_t)k);
            else {
                twice = vit__trie_add(&t->pieces, (const unsigned char *)vit__tok_text(t, t->off[k]), t->len[k], (int32_t)k) >= 0;
                vit__tok_slot(t, (int32_t)k); // where a reserved piece has the text, PieceToId gives that one
            }
            if (twice) return vit__fail(err, VIT_ERROR_BAD_FORMAT, "spiece.model: piece '%.100s' is defined twice", vit__tok_text(t, t->off[k]));
        }
    if (m.charsmap.p && m.charsmap.end > m.charsmap.p && (st = vit__charsmap_set(t, m.charsmap.p, (size_t)(m.charsmap.end - m.charsmap.p), "spiece.model", err)) != VIT_OK)
        return st;
    // tokenizer_config.json: the class, the added and special tokens
    int t5 = t->oc == VIT__OC_HF && (!strcmp(c->cls, "T5Tokenizer") || !strcmp(c->cls, "T5TokenizerFast"));
    if (c->cls[0] && strcmp(c->cls, "SiglipTokenizer") != 0 && !t5)
        return vit__fail(err, VIT_ERROR_UNSUPPORTED, "tokenizer_config.json: tokenizer_class %s (vit.h reads spiece.model as SiglipTokenizer)", c->cls);
    int kw = c->root >= 0 ? vit__json_get(&c->j, 0, "sp_model_kwargs") : -1;
    if (kw >= 0 && !(vit__json_is(&c->j, kw, VIT__J_OBJ) && c->j.nodes[kw].count == 0) && c->j.nodes[kw].type != VIT__J_NULL)
        return vit__fail(err, VIT_ERROR_UNSUPPORTED, "tokenizer_config.json: sp_model_kwargs (sampling) are not run");
    int dec = c->root >= 0 ? vit__json_get(&c->j, 0, "added_tokens_decoder") : -1, extra = -1;
    if (c->root >= 0) {
        extra = vit__json_get(&c->j, 0, "extra_special_tokens");
        if (extra < 0) extra = vit__json_get(&c->j, 0, "additional_special_tokens");
    }
    if (dec >= 0 && !vit__json_is(&c->j, dec, VIT__J_OBJ)) return vit__fail(err, VIT_ERROR_BAD_FORMAT, "tokenizer_config.json: added_tokens_decoder is not an object");
    // a list of tokens (transformers 5), or an object of named ones (4.x: {} mostly)
    int extra_list = vit__json_is(&c->j, extra, VIT__J_ARR), extra_named = vit__json_is(&c->j, extra, VIT__J_OBJ);
    if (extra >= 0 && !extra_list && !extra_named && c->j.nodes[extra].type != VIT__J_NULL)
        return vit__fail(err, VIT_ERROR_BAD_FORMAT, "tokenizer_config.json: extra_special_tokens is neither a list nor an object");
    size_t na = (dec >= 0 ? (size_t)c->j.nodes[dec].count : 0) + (extra_list || extra_named ? (size_t)c->j.nodes[extra].count : 0) + 3;
    if (na > VIT_MAX_VOCAB) return vit__fail(err, VIT_ERROR_LIMIT, "tokenizer_config.json: %zu added tokens (VIT_MAX_VOCAB: %d)", na, VIT_MAX_VOCAB);
    if (!(t->added = (vit__added *)vit__malloc(a, na * sizeof(vit__added)))) return vit__fail(err, VIT_ERROR_OUT_OF_MEMORY, "out of memory for added tokens");
    int max_id = (int)m.n_pieces - 1;
    for (int k = dec >= 0 ? c->j.nodes[dec].first_child : -1; k >= 0; k = c->j.nodes[c->j.nodes[k].next].next) {
        char key[16];
        int v = c->j.nodes[k].next, content = vit__json_get(&c->j, v, "content"), id = 0;
        int lstrip = vit__json_flag(&c->j, v, "lstrip", 0), rstrip = vit__json_flag(&c->j, v, "rstrip", 0);
        int word = vit__json_flag(&c->j, v, "single_word", 0), special = vit__json_flag(&c->j, v, "special", 0);
        char *endp = NULL;
        long idl = vit__json_text(&c->j, k, key, sizeof(key), NULL) && key[0] >= '0' && key[0] <= '9' ? strtol(key, &endp, 10) : -1;
        if (idl < 0 || idl >= VIT_MAX_VOCAB || !endp || *endp || !vit__json_is(&c->j, content, VIT__J_STR) || lstrip < 0 || rstrip < 0 || word < 0 || special < 0)
            return vit__fail(err, VIT_ERROR_BAD_FORMAT, "tokenizer_config.json: added_tokens_decoder entries need an id, content and boolean flags");
        if (word) return vit__fail(err, VIT_ERROR_UNSUPPORTED, "tokenizer_config.json: a single_word added token");
        id = (int)idl;
        if ((st = vit__spm_added(t, c, content, NULL, id, 0, special, err)) != VIT_OK) return st;
        vit__added *ad = &t->added[t->n_added - 1];
        ad->lstrip = (unsigned char)lstrip;
        ad->rstrip = (unsigned char)rstrip;
        if (id > max_id) max_id = id;
    }
    // SiglipTokenizer's special tokens (AddedToken(lstrip=True, rstrip=True)), where added_tokens_decoder leaves them out
    static const char *const defaults[3] = {"</s>", "<unk>", "</s>"};
    const int nodes[3] = {c->eos, c->unk, c->pad};
    for (int k = 0; k < 3; k++)
        if ((st = vit__spm_added(t, c, nodes[k], defaults[k], -1, 1, 1, err)) != VIT_OK) return st;
    for (int k = extra_list || extra_named ? c->j.nodes[extra].first_child : -1; k >= 0; k = c->j.nodes[k].next) {
        if (extra_named) k = c->j.nodes[k].next; // the value of each name
        int node = vit__tok_json_token(&c->j, k);
        if (node < 0) return vit__fail(err, VIT_ERROR_BAD_FORMAT, "tokenizer_config.json: an extra special token is not a string");
        if ((st = vit__spm_added(t, c, node, NULL, -1, 1, 1, err)) != VIT_OK) return st;
    }
    size_t bytes_added = 0;
    for (size_t k = 0; k < t->n_added; k++) bytes_added += t->added[k].len;
    if (!vit__trie_init(a, &t->added_raw, bytes_added)) return vit__fail(err, VIT_ERROR_OUT_OF_MEMORY, "out of memory for added tokens");
    for (size_t k = 0; k < t->n_added; k++) vit__trie_add(&t->added_raw, (const unsigned char *)vit__tok_text(t, t->added[k].off), t->added[k].len, (int32_t)k);
    // the ids of the special tokens, the unk token's text (encoded before every piece of text)
    char text[3][256];
    for (int k = 0; k < 3; k++) {
        snprintf(text[k], sizeof(text[k]), "%s", defaults[k]);
        if (nodes[k] >= 0 && !vit__json_text(&c->j, nodes[k], text[k], sizeof(text[k]), NULL))
            return vit__fail(err, VIT_ERROR_LIMIT, "tokenizer_config.json: a special token longer than 255 bytes");
    }
    t->cfg.eos_id = vit__spm_id(t, text[0], strlen(text[0]));
    t->cfg.unk_id = vit__spm_id(t, text[1], strlen(text[1]));
    t->cfg.pad_id = vit__spm_id(t, text[2], strlen(text[2]));
    if (!vit__tok_keep(t, text[1], strlen(text[1]), &t->unk_off)) return vit__fail(err, VIT_ERROR_OUT_OF_MEMORY, "out of memory");
    t->unk_len = strlen(text[1]);
    t->cfg.type = VIT_TOKENIZER_SIGLIP_UNIGRAM;
    t->cfg.context = c->context ? c->context : 64;
    t->cfg.vocab_size = max_id + 1;
    t->cfg.bos_id = -1;
    t->cfg.lower_case = c->lower;
    return VIT_OK;
}

// ---- encoding: SigLIP

// sp_model.encode(s) as piece texts, their ids as transformers looks them up,
// emitted from the skip-th piece on (the pieces of the unk token's text before).
// With skip == SIZE_MAX only counts them into *count.
static vit_status vit__spm_encode(vit_tokenizer *t, vit__tok_run *r, const unsigned char *s, size_t n, size_t skip, size_t *count) {
    vit_status st = vit__spm_normalize(t, r, s, n);
    if (st == VIT_OK) st = vit__spm_viterbi(t, r);
    if (st != VIT_OK) return st;
    const vit__spiece *p = (const vit__spiece *)r->pieces.p;
    if (count) *count = r->pieces.n;
    if (skip == SIZE_MAX) return VIT_OK;
    if (r->pieces.n < skip) skip = 0; // as transformers: tokens[unk_len:] only when there are that many
    for (size_t k = skip; k < r->pieces.n; k++) {
        char buf[8];
        const char *text;
        size_t len;
        vit__spm_piece_text(r, &p[k], buf, &text, &len);
        int32_t a = vit__trie_exact(&t->added_raw, (const unsigned char *)text, len);
        int underline = len == 3 && !memcmp(text, "\xE2\x96\x81", 3);
        if (r->count < 2) r->flags[r->count] = (unsigned char)(underline | (a >= 0 && t->added[a].special ? 2 : 0));
        vit__tok_emit(r, vit__spm_id(t, text, len));
    }
    return VIT_OK;
}

// Python's str.lower() of b[0..n) into out (the final sigma by its context).
static int vit__py_lower(const vit_allocator *a, const uint32_t *b, size_t n, vit__vec *out) {
    out->n = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t c = b[i], l[2];
        if (c == 0x3A3) { // capital sigma: final (U+03C2) after a cased letter and not before one, case-ignorables skipped
            size_t j = i;
            while (j > 0 && (vit__uni_prop(b[j - 1]) & VIT__UNI_IGNORABLE)) j--;
            int final = j > 0 && (vit__uni_prop(b[j - 1]) & VIT__UNI_CASED);
            if (final) {
                j = i + 1;
                while (j < n && (vit__uni_prop(b[j]) & VIT__UNI_IGNORABLE)) j++;
                final = j == n || !(vit__uni_prop(b[j]) & VIT__UNI_CASED);
            }
            if (!vit__vec_u32(a, out, final ? 0x3C2 : 0x3C3)) return 0;
            continue;
        }
        int k = vit__uni_lower(c, l);
        for (int q = 0; q < k; q++) if (!vit__vec_u32(a, out, l[q])) return 0;
    }
    return 1;
}

// SiglipTokenizer.canonicalize_text: Python's lower() (if do_lower_case),
// string.punctuation removed, \s+ to " ", strip(); the UTF-8 after the unk
// token's text into r->t2 (as bytes).
static int vit__siglip_canon(const vit_tokenizer *t, vit__tok_run *r, const uint32_t *b, size_t n) {
    const vit_allocator *a = &t->alloc;
    vit__vec *lo = &r->t1, *out = &r->t2;
    if (t->cfg.lower_case) {
        if (!vit__py_lower(a, b, n, lo)) return 0;
    } else {
        lo->n = 0;
        for (size_t i = 0; i < n; i++) if (!vit__vec_u32(a, lo, b[i])) return 0;
    }
    out->n = 0;
    if (!vit__vec_bytes(a, out, vit__tok_text(t, t->unk_off), t->unk_len)) return 0;
    const uint32_t *x = (const uint32_t *)lo->p;
    size_t m = lo->n, i = 0, start = out->n;
    int space = 0; // a whitespace run is pending
    for (; i < m; i++) {
        uint32_t c = x[i];
        if (c < 0x80 && strchr("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", (int)c) && c) continue;
        if (vit__space_py(c)) { space = 1; continue; }
        if (space && out->n > start && !vit__vec_bytes(a, out, " ", 1)) return 0; // strip(): none first, none last
        space = 0;
        unsigned char u[4];
        if (!vit__vec_bytes(a, out, u, vit__utf8_put(c, u))) return 0;
    }
    return 1;
}

// Strips Python's whitespace from the left (or right) end of s[*b..*e).
static void vit__py_strip(const unsigned char *s, size_t *b, size_t *e, int right) {
    while (*b < *e) {
        size_t i = *b;
        if (!right) {
            int32_t c = vit__utf8_next(s, *e, &i);
            if (c < 0 || !vit__space_py((uint32_t)c)) return;
            *b = i;
        } else {
            size_t k = *e - 1;
            while (k > *b && (s[k] & 0xC0) == 0x80) k--;
            i = k;
            int32_t c = vit__utf8_next(s, *e, &i);
            if (c < 0 || !vit__space_py((uint32_t)c)) return;
            *e = k;
        }
    }
}

typedef struct vit__chunk { size_t b, e; } vit__chunk;

static vit_status vit__siglip_encode(vit_tokenizer *t, vit__tok_run *r, const unsigned char *s, size_t n) {
    const vit_allocator *a = &t->alloc;
    // "▁" + text with its own ▁ as spaces
    vit__vec *txt = &r->norm; // (bytes)
    txt->n = 0;
    if (!vit__vec_bytes(a, txt, "\xE2\x96\x81", 3)) return VIT_ERROR_OUT_OF_MEMORY;
    for (size_t i = 0; i < n; i++) {
        int ws = i + 2 < n && s[i] == 0xE2 && s[i + 1] == 0x96 && s[i + 2] == 0x81;
        if (!(ws ? vit__vec_bytes(a, txt, " ", 1) : vit__vec_bytes(a, txt, s + i, 1))) return VIT_ERROR_OUT_OF_MEMORY;
        if (ws) i += 2;
    }
    const unsigned char *x = (const unsigned char *)txt->p;
    size_t m = txt->n;
    // split at the added tokens (transformers' Trie.split: the longest match, leftmost first)
    vit__vec *ch = &r->heap;
    ch->n = 0;
    size_t from = 0;
    for (size_t i = 0; i <= m; i++) {
        int32_t v = -1;
        size_t len = i < m ? vit__trie_longest(&t->added_raw, x + i, m - i, &v) : 0;
        if (!len && i < m) continue;
        if (!vit__vec_reserve(a, ch, ch->n + 2, sizeof(vit__chunk))) return VIT_ERROR_OUT_OF_MEMORY;
        vit__chunk *c = (vit__chunk *)ch->p;
        if (i > from) { c[ch->n].b = from; c[ch->n].e = i; ch->n++; }
        if (i == m) break;
        c[ch->n].b = i; c[ch->n].e = i + len; ch->n++;
        from = i + len;
        i += len - 1;
    }
    vit__chunk *c = (vit__chunk *)ch->p;
    size_t nc = ch->n;
    // the added tokens' lstrip/rstrip, on their neighbours, in order
    for (size_t k = 0; k < nc; k++) {
        int32_t v = c[k].e > c[k].b ? vit__trie_exact(&t->added_raw, x + c[k].b, c[k].e - c[k].b) : -1;
        if (v < 0) continue;
        if (t->added[v].rstrip && k + 1 < nc && c[k + 1].e > c[k + 1].b) vit__py_strip(x, &c[k + 1].b, &c[k + 1].e, 0);
        if (t->added[v].lstrip && k > 0 && c[k - 1].e > c[k - 1].b) vit__py_strip(x, &c[k - 1].b, &c[k - 1].e, 1);
    }
    // each piece: an added token whole, the rest through _tokenize, until the ids fill the context
    size_t enough = (size_t)t->cfg.context + 1;
    for (size_t k = 0; k < nc && r->count < enough; k++) {
        size_t len = c[k].e - c[k].b;
        if (!len) continue;
        int32_t v = vit__trie_exact(&t->added_raw, x + c[k].b, len);
        if (v >= 0) {
            if (r->count < 2) r->flags[r->count] = (unsigned char)(t->added[v].special ? 2 : 0);
            vit__tok_emit(r, t->added[v].id);
            continue;
        }
        r->cps.n = 0;
        for (size_t i = c[k].b; i < c[k].e;) {
            int32_t cp = vit__utf8_next(x, c[k].e, &i);
            if (!vit__vec_u32(a, &r->cps, (uint32_t)cp)) return VIT_ERROR_OUT_OF_MEMORY;
        }
        if (!vit__siglip_canon(t, r, (const uint32_t *)r->cps.p, r->cps.n)) return VIT_ERROR_OUT_OF_MEMORY;
        vit__vec in = r->t2; // sentencepiece writes r->bytes; the input stays in t2
        vit_status st = vit__spm_encode(t, r, (const unsigned char *)in.p, in.n, t->unk_pieces, NULL);
        if (st != VIT_OK) return st;
    }
    // SiglipTokenizer.tokenize: a first "▁" before a special token is dropped
    size_t first = r->count > 1 && (r->flags[0] & 1) && (r->flags[1] & 2) ? 1 : 0;
    size_t count = r->count - first, keep = (size_t)t->cfg.context - 1;
    if (first) memmove(r->ids, r->ids + 1, (r->count < r->cap ? r->count - 1 : r->cap - 1) * sizeof(int));
    if (count + 1 > (size_t)t->cfg.context) count = keep; // truncation leaves room for </s>
    if (count == 0 || r->ids[count - 1] != t->cfg.eos_id) r->ids[count++] = t->cfg.eos_id; // unless the ids end with it
    r->count = count;
    return VIT_OK;
}

// >>tokenize t5 json ----------------------------------------------------------
// SigLIP's tokenizer.json (T5Tokenizer): Unigram as the tokenizers library
// runs it, grapheme clusters and the Precompiled charsmap.

// ---- grapheme table: declarations (tools/make_grapheme_table.py; do not edit; the arrays: >>tables)
enum { VIT__GCB_OTHER, VIT__GCB_CR, VIT__GCB_LF, VIT__GCB_CONTROL, VIT__GCB_EXTEND, VIT__GCB_ZWJ, VIT__GCB_RI,
       VIT__GCB_PREPEND, VIT__GCB_SPACINGMARK, VIT__GCB_L, VIT__GCB_V, VIT__GCB_T, VIT__GCB_LV, VIT__GCB_LVT, VIT__GCB_PICT = 16 };
VIT__TABLES_BEGIN
VIT__TABLE uint32_t vit__gcb_runs[2053];
VIT__TABLES_END
// ---- grapheme table: declarations end

// ---- T5Tokenizer over tokenizer.json: the tokenizers library's Unigram pipeline
// transformers 5's T5Tokenizer (a TokenizersBackend) takes from tokenizer.json only
// the vocabulary and the Precompiled charsmap and builds its own pipeline: the
// special tokens split out of the raw text; Precompiled (the charsmap per extended
// grapheme cluster: a cluster under 6 bytes whose bytes start with a key becomes
// the shortest such key's replacement, whole; else each character its own
// replacement, spm_precompiled's rule); WhitespaceSplit (Rust's White_Space);
// Metaspace (a "▁" before each word unless it has one, split before each "▁");
// Unigram(vocab, unk_id=2, byte_fallback=False): every piece in the lattice,
// scores summed in double, unknown runs fused; then "$A </s>".

static unsigned vit__gcb(uint32_t cp) {
    return vit__uni_range(vit__gcb_runs, sizeof(vit__gcb_runs) / sizeof(vit__gcb_runs[0]), 5, cp);
}

// The end of the extended grapheme cluster (UAX #29, GB3-GB13 but GB9c) that starts at b[i].
static size_t vit__grapheme_end(const uint32_t *b, size_t n, size_t i) {
    unsigned prev = vit__gcb(b[i]), p = prev & 15;
    int pict = (prev & VIT__GCB_PICT) != 0, zwj_pict = 0, ri = p == VIT__GCB_RI;
    size_t k = i + 1;
    for (; k < n; k++) {
        unsigned cur = vit__gcb(b[k]), c = cur & 15;
        int ctl = p == VIT__GCB_CR || p == VIT__GCB_LF || p == VIT__GCB_CONTROL || c == VIT__GCB_CR || c == VIT__GCB_LF || c == VIT__GCB_CONTROL;
        int hangul = (p == VIT__GCB_L && (c == VIT__GCB_L || c == VIT__GCB_V || c == VIT__GCB_LV || c == VIT__GCB_LVT)) ||
                     ((p == VIT__GCB_LV || p == VIT__GCB_V) && (c == VIT__GCB_V || c == VIT__GCB_T)) || ((p == VIT__GCB_LVT || p == VIT__GCB_T) && c == VIT__GCB_T);
        int join = (p == VIT__GCB_CR && c == VIT__GCB_LF) ||                                     // GB3
                   (!ctl && (hangul ||                                                           // GB4, GB5; GB6-8
                             c == VIT__GCB_EXTEND || c == VIT__GCB_ZWJ || c == VIT__GCB_SPACINGMARK || p == VIT__GCB_PREPEND || // GB9-9b
                             (p == VIT__GCB_ZWJ && zwj_pict && (cur & VIT__GCB_PICT)) ||        // GB11
                             (p == VIT__GCB_RI && c == VIT__GCB_RI && (ri & 1))));              // GB12, GB13
        if (!join) break;
        zwj_pict = p != VIT__GCB_ZWJ && c == VIT__GCB_ZWJ && pict;
        if (cur & VIT__GCB_PICT) pict = 1;
        else if (c != VIT__GCB_EXTEND) pict = 0;
        ri = c == VIT__GCB_RI ? ri + 1 : 0;
        p = c;
    }
    return k;
}

// spm_precompiled's transform: the replacement of the shortest key that starts
// s[0..n) (a NUL byte ends the search); 0 if none, -1 if it points outside the strings.
static int vit__charsmap_first(const vit_tokenizer *t, const unsigned char *s, size_t n, const char **rep) {
    if (!t->n_units) return 0;
    size_t pos = 0;
    uint32_t unit = t->units[0];
    pos ^= (size_t)(unit >> 10) << ((unit & (1u << 9)) >> 6);
    for (size_t i = 0; i < n && s[i]; i++) {
        pos ^= s[i];
        if (pos >= t->n_units) return 0;
        unit = t->units[pos];
        if ((unit & ((1u << 31) | 0xFF)) != s[i]) return 0;
        pos ^= (size_t)(unit >> 10) << ((unit & (1u << 9)) >> 6);
        if ((unit >> 8) & 1) {
            if (pos >= t->n_units) return 0;
            uint32_t value = t->units[pos] & ((1u << 31) - 1);
            if (value >= t->repl_size) return -1;
            *rep = t->repl + value;
            return 1;
        }
    }
    return 0;
}

typedef struct vit__hnode { double score; int32_t start, id; } vit__hnode;

// Unigram::encode_optimized over w[0..n) (one Metaspace piece), each token's id emitted.
static vit_status vit__hf_viterbi(vit_tokenizer *t, vit__tok_run *r, const unsigned char *w, size_t n) {
    if (!n) return VIT_OK;
    if (!vit__vec_reserve(&t->alloc, &r->best, n + 1, sizeof(vit__hnode))) return VIT_ERROR_OUT_OF_MEMORY;
    vit__hnode *best = (vit__hnode *)r->best.p;
    for (size_t i = 0; i <= n; i++) { best[i].score = 0.0; best[i].start = -1; best[i].id = -1; }
    const double unk_score = t->hf_min - 10.0;
    for (size_t start = 0; start < n;) {
        static const unsigned char one_char_len[16] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 3, 4};
        size_t mblen = one_char_len[w[start] >> 4], node = 0;
        if (mblen > n - start) mblen = n - start;
        const double here = best[start].score;
        int single = 0;
        for (size_t pos = start; pos < n;) {
            int32_t c = vit__trie_child(&t->pieces, node, w[pos]);
            if (c < 0) break;
            node = (size_t)c;
            pos++;
            int32_t e = t->pieces.value[node];
            if (e < 0) continue;
            double cand = t->dscore[e] + here;
            if (best[pos].start < 0 || cand > best[pos].score) { best[pos].score = cand; best[pos].start = (int32_t)start; best[pos].id = e; }
            if (pos - start == mblen) single = 1;
        }
        if (!single) {
            double cand = unk_score + here;
            vit__hnode *b = &best[start + mblen];
            if (b->start < 0 || cand > b->score) { b->score = cand; b->start = (int32_t)start; b->id = t->sp_unk; }
        }
        start += mblen;
    }
    size_t count = 0;
    for (size_t end = n; end > 0; end = (size_t)best[end].start) {
        if (best[end].start < 0 || (size_t)best[end].start >= end) return vit__fail(t->error, VIT_ERROR_BAD_FORMAT, "tokenizer.json: no path through the text");
        count++;
    }
    if (!vit__vec_reserve(&t->alloc, &r->pieces, count, sizeof(vit__spiece))) return VIT_ERROR_OUT_OF_MEMORY;
    vit__spiece *p = (vit__spiece *)r->pieces.p;
    size_t k = count, m = 0;
    for (size_t end = n; end > 0; end = (size_t)best[end].start) {
        k--;
        p[k].start = (size_t)best[end].start;
        p[k].end = end;
        p[k].id = best[end].id;
    }
    for (size_t q = 0; q < count; q++) { // unknown runs fused (fuse_unk), each token's id by its text
        if (p[q].id == t->sp_unk && m > 0 && p[m - 1].id == t->sp_unk) { p[m - 1].end = p[q].end; continue; }
        p[m++] = p[q];
    }
    for (size_t q = 0; q < m; q++) {
        int32_t e = p[q].id == t->sp_unk ? vit__tok_find(t, w + p[q].start, p[q].end - p[q].start) : p[q].id;
        vit__tok_emit(r, e >= 0 ? t->id[e] : t->id[t->sp_unk]);
    }
    return VIT_OK;
}

// One stretch of text between added tokens: Precompiled, WhitespaceSplit, Metaspace, Unigram.
static vit_status vit__hf_segment(vit_tokenizer *t, vit__tok_run *r, const unsigned char *s, size_t n) {
    const vit_allocator *a = &t->alloc;
    r->cps.n = 0;
    for (size_t i = 0; i < n;) {
        int32_t cp = vit__utf8_next(s, n, &i);
        if (cp < 0 || !vit__vec_u32(a, &r->cps, (uint32_t)cp)) return VIT_ERROR_OUT_OF_MEMORY;
    }
    const uint32_t *b = (const uint32_t *)r->cps.p;
    size_t nc = r->cps.n;
    vit__vec *out = &r->bytes;
    out->n = 0;
    for (size_t i = 0; i < nc;) { // Precompiled, per grapheme cluster
        size_t e = vit__grapheme_end(b, nc, i);
        unsigned char g[24];
        size_t gl = 0;
        for (size_t k = i; k < e && gl + 4 <= sizeof(g); k++) gl += vit__utf8_put(b[k], g + gl);
        const char *rep;
        int hit = 0;
        if (gl < 6 && e - i <= 5 && (hit = vit__charsmap_first(t, g, gl, &rep)) != 0) {
            if (hit < 0) return vit__fail(t->error, VIT_ERROR_BAD_FORMAT, "tokenizer.json: the charsmap points outside its strings");
            if (!vit__vec_bytes(a, out, rep, strlen(rep))) return VIT_ERROR_OUT_OF_MEMORY;
            i = e;
            continue;
        }
        for (; i < e; i++) {
            unsigned char u[4];
            size_t ul = vit__utf8_put(b[i], u);
            if ((hit = vit__charsmap_first(t, u, ul, &rep)) < 0) return vit__fail(t->error, VIT_ERROR_BAD_FORMAT, "tokenizer.json: the charsmap points outside its strings");
            if (!(hit ? vit__vec_bytes(a, out, rep, strlen(rep)) : vit__vec_bytes(a, out, u, ul))) return VIT_ERROR_OUT_OF_MEMORY;
        }
        if (out->n > 64 * n + 1024) return vit__fail(t->error, VIT_ERROR_LIMIT, "tokenizer.json: the charsmap makes the text more than 64 times longer");
    }
    // WhitespaceSplit, then Metaspace: each word "▁"-prefixed, split before each "▁"
    const unsigned char *x = (const unsigned char *)out->p;
    size_t m = out->n, limit = (size_t)t->cfg.context + 1;
    vit__vec *w = &r->t2;
    for (size_t i = 0; i < m; ) { // (the charsmap's replacements are the file's bytes: they must be UTF-8 too)
        size_t j = i;
        if (vit__utf8_next(x, m, &j) < 0) return vit__fail(t->error, VIT_ERROR_BAD_FORMAT, "tokenizer.json: the charsmap replaces text with bytes that are not UTF-8");
        i = j;
    }
    for (size_t i = 0; i < m && r->count < limit;) {
        size_t j = i;
        int32_t c = vit__utf8_next(x, m, &j);
        if (vit__space_onig((uint32_t)c)) { i = j; continue; }
        size_t e = i;
        while (e < m) {
            size_t q = e;
            int32_t d = vit__utf8_next(x, m, &q);
            if (vit__space_onig((uint32_t)d)) break;
            e = q;
        }
        w->n = 0;
        if ((e - i < 3 || memcmp(x + i, "\xE2\x96\x81", 3) != 0) && !vit__vec_bytes(a, w, "\xE2\x96\x81", 3)) return VIT_ERROR_OUT_OF_MEMORY;
        if (!vit__vec_bytes(a, w, x + i, e - i)) return VIT_ERROR_OUT_OF_MEMORY;
        const unsigned char *y = (const unsigned char *)w->p;
        for (size_t from = 0, k = 3; from < w->n && r->count < limit; k++) { // pieces start at each "▁"
            if (k < w->n && !(k + 3 <= w->n && !memcmp(y + k, "\xE2\x96\x81", 3))) continue;
            if (k > w->n) k = w->n;
            vit_status st = vit__hf_viterbi(t, r, y + from, k - from);
            if (st != VIT_OK) return st;
            from = k;
        }
        i = e;
    }
    return VIT_OK;
}

// The text: added tokens (leftmost, longest) whole, the stretches between them
// through vit__hf_segment; then cut to context - 1 and </s> appended.
static vit_status vit__hf_encode(vit_tokenizer *t, vit__tok_run *r, const unsigned char *s, size_t n) {
    size_t from = 0, limit = (size_t)t->cfg.context + 1;
    for (size_t i = 0; i <= n && r->count < limit; i++) {
        int32_t v = -1;
        size_t len = i < n ? vit__trie_longest(&t->added_raw, s + i, n - i, &v) : 0;
        if (!len && i < n) continue;
        if (i > from) {
            vit_status st = vit__hf_segment(t, r, s + from, i - from);
            if (st != VIT_OK) return st;
        }
        if (i == n) break;
        vit__tok_emit(r, t->added[v].id);
        from = i + len;
        i += len - 1;
    }
    size_t keep = (size_t)t->cfg.context - 1;
    if (r->count > keep) r->count = keep;
    r->ids[r->count++] = t->cfg.eos_id;
    return VIT_OK;
}

// ---- loading tokenizer.json (T5Tokenizer: SentencePiece Unigram as the tokenizers library runs it)

// A string node equal to lit (n may be -1).
static int vit__hf_eq(const vit__json *j, int n, const char *lit) {
    return n >= 0 && vit__json_eq(j, n, lit);
}

static int vit__b64(unsigned char c) {
    return c >= 'A' && c <= 'Z' ? c - 'A' : c >= 'a' && c <= 'z' ? c - 'a' + 26 : c >= '0' && c <= '9' ? c - '0' + 52 : c == '+' ? 62 : c == '/' ? 63 : -1;
}

// The Precompiled normaliser's charsmap (standard base64, '=' padded).
static vit_status vit__hf_charsmap(vit_tokenizer *t, const vit__json *j, int node, char *err) {
    if (!vit__json_is(j, node, VIT__J_STR)) return vit__fail(err, VIT_ERROR_BAD_FORMAT, "tokenizer.json: Precompiled without a precompiled_charsmap string");
    size_t raw = j->nodes[node].len;
    char *txt = (char *)vit__malloc(&t->alloc, raw + 1);
    unsigned char *bin = (unsigned char *)vit__malloc(&t->alloc, raw / 4 * 3 + 3);
    vit_status st = txt && bin ? VIT_OK : vit__fail(err, VIT_ERROR_OUT_OF_MEMORY, "out of memory for the charsmap");
    size_t n = st == VIT_OK ? vit__json_str(j, node, txt, raw + 1) : 0, m = 0;
    if (st == VIT_OK && n % 4) st = vit__fail(err, VIT_ERROR_BAD_FORMAT, "tokenizer.json: precompiled_charsmap is not base64");
    for (size_t i = 0; st == VIT_OK && i < n; i += 4) {
        int v[4], pad = 0;
        for (int k = 0; k < 4; k++) {
            unsigned char ch = (unsigned char)txt[i + k];
            v[k] = ch == '=' && i + 4 == n && k >= 2 ? (pad++, 0) : vit__b64(ch);
            if (v[k] < 0 || (pad && ch != '=')) { st = vit__fail(err, VIT_ERROR_BAD_FORMAT, "tokenizer.json: precompiled_charsmap is not base64"); break; }
        }
        if (st != VIT_OK) break;
        uint32_t w = (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 | (uint32_t)v[2] << 6 | (uint32_t)v[3];
        bin[m++] = (unsigned char)(w >> 16);
        if (pad < 2) bin[m++] = (unsigned char)(w >> 8);
        if (pad < 1) bin[m++] = (unsigned char)w;
    }
    if (st == VIT_OK && m) st = vit__charsmap_set(t, bin, m, "tokenizer.json", err);
    vit__free(&t->alloc, txt);
    vit__free(&t->alloc, bin);
    return st;
}

// The normaliser T5's converters write: Precompiled, alone or in a Sequence with
// Replace(" {2,}", " ") (transformers 4); null (no charsmap).
static vit_status vit__hf_normalizer(vit_tokenizer *t, const vit__json *j, int n, char *err) {
    if (n < 0 || j->nodes[n].type == VIT__J_NULL) return VIT_OK;
    int seq = vit__json_is_str(j, n, "type", "Sequence"), items = seq ? vit__json_get(j, n, "normalizers") : -1, found = 0;
    if (seq && !vit__json_is(j, items, VIT__J_ARR)) return vit__fail(err, VIT_ERROR_BAD_FORMAT, "tokenizer.json: a normalizer Sequence without normalizers");
    for (int k = seq ? j->nodes[items].first_child : n; k >= 0; k = seq ? j->nodes[k].next : -1) {
        char type[64] = "";
        vit__json_text(j, vit__json_get(j, k, "type"), type, sizeof(type), NULL);
        if (!strcmp(type, "Precompiled") && !found++) {
            vit_status st = vit__hf_charsmap(t, j, vit__json_get(j, k, "precompiled_charsmap"), err);
            if (st != VIT_OK) return st;
        } else if (!strcmp(type, "Replace") && vit__hf_eq(j, vit__json_get(j, vit__json_get(j, k, "pattern"), "Regex"), " {2,}") &&
                   vit__hf_eq(j, vit__json_get(j, k, "content"), " ")) {
            // space runs to one: WhitespaceSplit drops them anyway (transformers 5 does not run it)
        } else {
            return vit__fail(err, VIT_ERROR_UNSUPPORTED, "tokenizer.json: normalizer '%s' (T5Tokenizer's: Precompiled, Replace(' {2,}', ' '))", type[0] ? type : "?");
        }
    }
    return VIT_OK;
}

// Metaspace("▁", prepend always, split), alone or after WhitespaceSplit.
static vit_status vit__hf_pretokenizer(const vit__json *j, int n, char *err) {
    int seq = vit__json_is_str(j, n, "type", "Sequence"), items = seq ? vit__json_get(j, n, "pretokenizers") : -1, ok = n >= 0;
    int k = seq ? (vit__json_is(j, items, VIT__J_ARR) ? j->nodes[items].first_child : -1) : n;
    if (seq && k >= 0 && vit__json_is_str(j, k, "type", "WhitespaceSplit")) k = j->nodes[k].next;
    ok = ok && k >= 0 && (!seq || j->nodes[k].next < 0) && vit__json_is_str(j, k, "type", "Metaspace") &&
         vit__hf_eq(j, vit__json_get(j, k, "replacement"), "\xE2\x96\x81") && vit__json_flag(j, k, "split", 1) == 1 &&
         (vit__hf_eq(j, vit__json_get(j, k, "prepend_scheme"), "always") ||
          (vit__json_get(j, k, "prepend_scheme") < 0 && vit__json_flag(j, k, "add_prefix_space", 0) == 1));
    return ok ? VIT_OK : vit__fail(err, VIT_ERROR_UNSUPPORTED, "tokenizer.json: pre-tokenizer other than T5Tokenizer's (WhitespaceSplit, Metaspace('\xE2\x96\x81', always, split))");
}

static vit_status vit__hf_load(vit_tokenizer *t, const vit__json *j, const vit__tok_cfg *c, char *err) {
    const vit_allocator *a = &t->alloc;
    int model = vit__json_get(j, 0, "model");
    if (j->nodes[0].type != VIT__J_OBJ || !vit__json_is(j, model, VIT__J_OBJ)) return vit__fail(err, VIT_ERROR_BAD_FORMAT, "tokenizer.json: no model object");
    char type[64] = "";
    if (!vit__json_text(j, vit__json_get(j, model, "type"), type, sizeof(type), NULL) || strcmp(type, "Unigram") != 0)
        return vit__fail(err, VIT_ERROR_UNSUPPORTED, "tokenizer.json: model type '%s' (T5Tokenizer's is Unigram)", type[0] ? type : "?");
    int unk = -1, vocab = vit__json_get(j, model, "vocab");
    if (!vit__json_int(j, vit__json_get(j, model, "unk_id"), 0, VIT_MAX_VOCAB, &unk) || unk != 2)
        return vit__fail(err, VIT_ERROR_UNSUPPORTED, "tokenizer.json: Unigram unk_id is not 2 (T5Tokenizer builds its Unigram with unk_id 2)");
    if (vit__json_flag(j, model, "byte_fallback", 0) != 0)
        return vit__fail(err, VIT_ERROR_UNSUPPORTED, "tokenizer.json: Unigram byte_fallback (T5Tokenizer builds its Unigram without it)");
    int tr = vit__json_get(j, 0, "truncation"), pd = vit__json_get(j, 0, "padding");
    if ((tr >= 0 && j->nodes[tr].type != VIT__J_NULL) || (pd >= 0 && j->nodes[pd].type != VIT__J_NULL))
        return vit__fail(err, VIT_ERROR_UNSUPPORTED, "tokenizer.json: truncation or padding set in the file");
    if (!vit__json_is(j, vocab, VIT__J_ARR) || j->nodes[vocab].count < 3) return vit__fail(err, VIT_ERROR_BAD_FORMAT, "tokenizer.json: Unigram vocab is not a list of 3 or more [piece, score]");
    size_t n = (size_t)j->nodes[vocab].count, bytes = 0, k = 0;
    if (n > VIT_MAX_VOCAB) return vit__fail(err, VIT_ERROR_LIMIT, "tokenizer.json: more than VIT_MAX_VOCAB (%d) pieces", VIT_MAX_VOCAB);
    if (!vit__tok_entries(t, n, 1) || !(t->dscore = (double *)vit__malloc(a, n * sizeof(double))))
        return vit__fail(err, VIT_ERROR_OUT_OF_MEMORY, "out of memory for %zu pieces", n);
    t->hf_min = DBL_MAX;
    for (int it = j->nodes[vocab].first_child; it >= 0; it = j->nodes[it].next, k++) {
        int piece = vit__json_is(j, it, VIT__J_ARR) && j->nodes[it].count == 2 ? j->nodes[it].first_child : -1, sc = piece >= 0 ? j->nodes[piece].next : -1;
        double v;
        size_t off, len;
        if (!vit__json_is(j, piece, VIT__J_STR) || !vit__json_double(j, sc, &v) || !(v > -1e30 && v < 1e30))
            return vit__fail(err, VIT_ERROR_BAD_FORMAT, "tokenizer.json: vocab entry %zu is not [piece, score]", k);
        if (!vit__tok_json_keep(t, j, piece, &off, &len)) return vit__fail(err, VIT_ERROR_OUT_OF_MEMORY, "out of memory for the pieces");
        if (!len) return vit__fail(err, VIT_ERROR_BAD_FORMAT, "tokenizer.json: vocab entry %zu is empty", k);
        t->off[k] = off;
        t->len[k] = (uint32_t)len;
        t->id[k] = (int32_t)k;
        t->dscore[k] = v;
        t->score[k] = (float)v;
        t->type[k] = VIT__SP_NORMAL;
        if (v < t->hf_min) t->hf_min = v;
        bytes += len;
        t->n_entries = k + 1;
        if (!vit__tok_slot(t, (int32_t)k)) return vit__fail(err, VIT_ERROR_BAD_FORMAT, "tokenizer.json: piece '%.100s' is in the vocab twice", vit__tok_text(t, off));
    }
    if (!vit__trie_init(a, &t->pieces, bytes)) return vit__fail(err, VIT_ERROR_OUT_OF_MEMORY, "out of memory for the pieces");
    for (k = 0; k < n; k++) vit__trie_add(&t->pieces, (const unsigned char *)vit__tok_text(t, t->off[k]), t->len[k], (int32_t)k);
    t->sp_unk = 2;
    vit_status st = vit__hf_normalizer(t, j, vit__json_get(j, 0, "normalizer"), err);
    if (st == VIT_OK) st = vit__hf_pretokenizer(j, vit__json_get(j, 0, "pre_tokenizer"), err);
    if (st == VIT_OK) st = vit__clip_postprocessor(t, j, vit__json_get(j, 0, "post_processor"), err);
    if (st != VIT_OK) return st;
    // the special tokens: tokenizer_config.json's (T5Tokenizer's defaults: </s>, <unk>, <pad>), each a piece of the vocab;
    // tokenizer.json's added_tokens must be those (transformers 5 rebuilds the added vocabulary from the config)
    int extra = c->root >= 0 ? vit__json_get(&c->j, 0, "extra_special_tokens") : -1, eids = c->root >= 0 ? vit__json_get(&c->j, 0, "extra_ids") : -1, x = -1;
    if (c->root >= 0 && vit__json_get(&c->j, 0, "added_tokens_decoder") >= 0)
        return vit__fail(err, VIT_ERROR_UNSUPPORTED, "tokenizer_config.json: added_tokens_decoder beside a T5Tokenizer's tokenizer.json");
    if (!vit__json_int(&c->j, eids, 0, 0, &x))
        return vit__fail(err, VIT_ERROR_UNSUPPORTED, "tokenizer_config.json: T5Tokenizer without extra_ids 0 (sentinel tokens <extra_id_N> are not read)");
    if (extra >= 0 && !vit__json_is(&c->j, extra, VIT__J_ARR) && c->j.nodes[extra].type != VIT__J_NULL)
        return vit__fail(err, VIT_ERROR_UNSUPPORTED, "tokenizer_config.json: extra_special_tokens is not a list");
    size_t na = 3 + (vit__json_is(&c->j, extra, VIT__J_ARR) ? (size_t)c->j.nodes[extra].count : 0);
    if (na > VIT_MAX_VOCAB) return vit__fail(err, VIT_ERROR_LIMIT, "tokenizer_config.json: %zu special tokens", na);
    if (!(t->added = (vit__added *)vit__malloc(a, na * sizeof(vit__added)))) return vit__fail(err, VIT_ERROR_OUT_OF_MEMORY, "out of memory for added tokens");
    static const char *const defaults[3] = {"</s>", "<unk>", "<pad>"};
    const int nodes[3] = {c->eos, c->unk, c->pad};
    for (int q = 0; q < 3; q++)
        if ((st = vit__spm_added(t, c, nodes[q], defaults[q], -1, 0, 1, err)) != VIT_OK) return st;
    for (int q = vit__json_is(&c->j, extra, VIT__J_ARR) ? c->j.nodes[extra].first_child : -1; q >= 0; q = c->j.nodes[q].next) {
        int node = vit__tok_json_token(&c->j, q);
        if (node < 0) return vit__fail(err, VIT_ERROR_BAD_FORMAT, "tokenizer_config.json: an extra special token is not a string");
        if ((st = vit__spm_added(t, c, node, NULL, -1, 0, 1, err)) != VIT_OK) return st;
    }
    int at = vit__json_get(j, 0, "added_tokens");
    for (int it = vit__json_is(j, at, VIT__J_ARR) ? j->nodes[at].first_child : -1; it >= 0; it = j->nodes[it].next) {
        int id = -1, cn = vit__json_get(j, it, "content");
        size_t off, len, q;
        if (!vit__json_int(j, vit__json_get(j, it, "id"), 0, (int)n - 1, &id) || !vit__json_is(j, cn, VIT__J_STR) || !vit__tok_json_keep(t, j, cn, &off, &len))
            return vit__fail(err, VIT_ERROR_BAD_FORMAT, "tokenizer.json: an added token without a vocabulary id and content");
        for (q = 0; q < t->n_added && !(t->added[q].len == len && !memcmp(vit__tok_text(t, t->added[q].off), vit__tok_text(t, off), len)); q++) {}
        if (q == t->n_added || t->added[q].id != id || vit__json_flag(j, it, "special", 0) != 1 || vit__json_flag(j, it, "lstrip", 0) != 0 ||
            vit__json_flag(j, it, "rstrip", 0) != 0 || vit__json_flag(j, it, "single_word", 0) != 0 || vit__json_flag(j, it, "normalized", 0) != 0)
            return vit__fail(err, VIT_ERROR_UNSUPPORTED, "tokenizer.json: added token '%.60s' is not one of tokenizer_config.json's special tokens as T5Tokenizer adds them", vit__tok_text(t, off));
    }
    size_t bytes_added = 0;
    for (k = 0; k < t->n_added; k++) bytes_added += t->added[k].len;
    if (!vit__trie_init(a, &t->added_raw, bytes_added)) return vit__fail(err, VIT_ERROR_OUT_OF_MEMORY, "out of memory for added tokens");
    for (k = 0; k < t->n_added; k++) vit__trie_add(&t->added_raw, (const unsigned char *)vit__tok_text(t, t->added[k].off), t->added[k].len, (int32_t)k);
    char text[3][256];
    for (int q = 0; q < 3; q++) {
        snprintf(text[q], sizeof(text[q]), "%s", defaults[q]);
        if (nodes[q] >= 0 && !vit__json_text(&c->j, nodes[q], text[q], sizeof(text[q]), NULL))
            return vit__fail(err, VIT_ERROR_LIMIT, "tokenizer_config.json: a special token longer than 255 bytes");
    }
    t->cfg.eos_id = vit__tok_id_of(t, text[0], strlen(text[0]));
    t->cfg.unk_id = 2;
    t->cfg.pad_id = vit__tok_id_of(t, text[2], strlen(text[2]));
    if (t->n_prefix != 0 || t->n_suffix != 1 || t->suffix[0] != t->cfg.eos_id)
        return vit__fail(err, VIT_ERROR_UNSUPPORTED, "tokenizer.json: a post-processor other than T5Tokenizer's (the text, then </s>)");
    t->hf = 1;
    t->cfg.type = VIT_TOKENIZER_SIGLIP_UNIGRAM;
    t->cfg.context = c->context ? c->context : 512; // T5Tokenizer's model_max_length default
    t->cfg.vocab_size = (int)n;
    t->cfg.bos_id = -1;
    t->cfg.lower_case = 0;
    return VIT_OK;
}

// >>tokenize open_clip --------------------------------------------------------
// open_clip's layout (open_clip_config.json): its text cleaning (ftfy's
// fix_text, html.unescape), SimpleTokenizer, HFTokenizer.

// ---- open_clip tables: declarations (tools/make_openclip_tables.py; do not edit; the arrays: >>tables)
#define VIT__OC_BIT_SPACE 123 // vit__oc_bad_chars bits found at run time: \s
#define VIT__OC_BIT_WORD 124  // \w
#define VIT__OC_BIT_NOTAZ 125 // [^A-Za-z]
#define VIT__OC_BIT_ANY 126   // . (not \n)
#define VIT__OC_BIT_C1 127    // U+0080..U+009F
#define VIT__OC_OPENAI_BPE_HASH 0xfc656306695eb38cull // bpe_hash of OpenAI's CLIP BPE (open_clip's bpe_simple_vocab_16e6.txt.gz)
#define VIT__OC_ENTITY_MAX 7 // longest name
typedef struct vit__oc_ent { const char *name; uint32_t v[2]; int bare; } vit__oc_ent;
VIT__TABLES_BEGIN
VIT__TABLE uint64_t vit__oc_bad_chars[506][3];
VIT__TABLE unsigned char vit__oc_bad_alts[136];
VIT__TABLE uint32_t vit__oc_width[226][3];
VIT__TABLE uint32_t vit__oc_ligature[22][4];
VIT__TABLE vit__oc_ent vit__oc_entities[201];
VIT__TABLE uint32_t vit__oc_charrefs[34][2];
VIT__TABLE uint32_t vit__oc_noref[22][2];
VIT__TABLE uint32_t vit__oc_nfc_new[33][2];
VIT__TABLES_END
// ---- open_clip tables: declarations end

// ---- open_clip (open_clip_config.json): its text cleaning, SimpleTokenizer, HFTokenizer

static int vit__oc_range(const uint32_t (*r)[2], size_t n, uint32_t c) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t m = lo + (hi - lo) / 2;
        if (c < r[m][0]) hi = m;
        else if (c > r[m][1]) lo = m + 1;
        else return 1;
    }
    return 0;
}

// The classes of ftfy's mojibake regex that c is in (bit k of m[k / 64]).
static void vit__oc_classes(uint32_t c, uint64_t m[2]) {
    size_t lo = 0, hi = sizeof(vit__oc_bad_chars) / sizeof(vit__oc_bad_chars[0]), n = hi;
    while (lo < hi) {
        size_t k = lo + (hi - lo) / 2;
        if (vit__oc_bad_chars[k][0] < c) lo = k + 1;
        else hi = k;
    }
    m[0] = m[1] = 0;
    if (lo < n && vit__oc_bad_chars[lo][0] == c) { m[0] = vit__oc_bad_chars[lo][1]; m[1] = vit__oc_bad_chars[lo][2]; }
    if (vit__space_py(c)) m[1] |= 1ull << (VIT__OC_BIT_SPACE - 64);
    if (c == '_' || (vit__uni_prop(c) & (VIT__UNI_L | VIT__UNI_N))) m[1] |= 1ull << (VIT__OC_BIT_WORD - 64);
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))) m[1] |= 1ull << (VIT__OC_BIT_NOTAZ - 64);
    if (c != '\n') m[1] |= 1ull << (VIT__OC_BIT_ANY - 64);
    if (c >= 0x80 && c <= 0x9F) m[1] |= 1ull << (VIT__OC_BIT_C1 - 64);
}

// The index of x's lowest set bit (x != 0).
static unsigned vit__ctz64(uint64_t x) {
    static const unsigned char debruijn[64] = {0,  1,  56, 2,  57, 49, 28, 3,  61, 58, 42, 50, 38, 29, 17, 4,  62, 47, 59, 36, 45, 43,
                                               51, 22, 53, 39, 33, 30, 24, 18, 12, 5,  63, 55, 48, 27, 60, 41, 37, 16, 46, 35, 44, 21,
                                               52, 32, 23, 11, 54, 26, 40, 15, 34, 20, 31, 10, 25, 14, 19, 9,  13, 8,  7,  6};
    return debruijn[((x & (~x + 1)) * 0x03f79d71b4ca8b09ull) >> 58];
}

// ftfy.badness.is_bad: does any alternative of its regex match in b[0..n), starting at 0
// or in [from, to)? (The rest is known not to start a match.) Linear: each character's
// classes, and the alternatives whose first class holds it, are found once (a window of
// the last VIT__OC_WIN; code points below 0x100 kept once found); only those are tried.
#define VIT__OC_WIN 8 // more than the longest alternative
static int vit__oc_is_bad(const uint32_t *b, size_t n, size_t from, size_t to) {
    const size_t na = sizeof(vit__oc_bad_alts);
    size_t i = 0;
    while (i < n && b[i] < 0x80) i++;
    if (i == n) return 0; // ftfy returns ASCII text as it is; no alternative matches it either
    if (to > n) to = n;
    unsigned char start[64]; // where each alternative starts in vit__oc_bad_alts
    size_t ns = 0, anchored = 64; // anchored: the one that matches only at 0 (^)
    for (size_t q = 0; q < na && ns < 64; ns++) {
        size_t e = q;
        while (e < na && vit__oc_bad_alts[e] != 0xFF) e++;
        VIT_ASSERT(e - q < VIT__OC_WIN);
        if (vit__oc_bad_alts[q] == 0xFE) anchored = ns;
        start[ns] = (unsigned char)(q + (vit__oc_bad_alts[q] == 0xFE));
        q = e + 1;
    }
    uint64_t low[256][3], win[VIT__OC_WIN][3]; // [0], [1]: the classes; [2]: the alternatives that may start there
    unsigned char known[256];                  // low[c] is filled on first use: a short line looks up few
    memset(known, 0, sizeof(known));
    size_t have = 0; // win[k % VIT__OC_WIN] holds b[k] for k in [have - VIT__OC_WIN, have)
    for (i = 0; i < n; i++) {
        if (i > 0 && i < from) i = from;
        if (i >= to && i > 0) break;
        if (have < i) have = i;
        for (; have < n && have < i + VIT__OC_WIN; have++) {
            uint64_t *m = win[have % VIT__OC_WIN];
            uint32_t c = b[have];
            if (c < 256 && known[c]) { memcpy(m, low[c], sizeof(low[c])); continue; }
            vit__oc_classes(c, m);
            m[2] = 0;
            for (size_t s = 0; s < ns; s++) {
                unsigned bit = vit__oc_bad_alts[start[s]];
                if (s != anchored && (m[bit / 64] >> (bit % 64) & 1)) m[2] |= 1ull << s;
            }
            if (c < 256) { memcpy(low[c], m, sizeof(low[c])); known[c] = 1; }
        }
        uint64_t cand = win[i % VIT__OC_WIN][2];
        if (i == 0 && anchored < 64) cand |= 1ull << anchored;
        for (; cand; cand &= cand - 1) {
            unsigned s = vit__ctz64(cand);
            size_t q = start[s], k = i;
            int ok = 1;
            for (; ok && vit__oc_bad_alts[q] != 0xFF; q++, k++) {
                if (k >= n) { ok = 0; break; }
                unsigned bit = vit__oc_bad_alts[q];
                ok = (int)(win[k % VIT__OC_WIN][bit / 64] >> (bit % 64) & 1);
            }
            if (ok) return 1;
        }
    }
    return 0;
}

// An entity name vit.h knows (name[0..n) code points): its index, or -1; bare: only names html.unescape takes without ';'.
static int vit__oc_entity(const uint32_t *name, size_t n, int bare) {
    if (n > VIT__OC_ENTITY_MAX) return -1;
    for (size_t k = 0; k < sizeof(vit__oc_entities) / sizeof(vit__oc_entities[0]); k++) {
        const char *s = vit__oc_entities[k].name;
        size_t q = 0;
        while (q < n && s[q] && (uint32_t)(unsigned char)s[q] == name[q]) q++;
        if (q == n && !s[q] && (!bare || vit__oc_entities[k].bare)) return (int)k;
    }
    return -1;
}

static int vit__oc_push_entity(const vit_allocator *a, vit__vec *out, int k) {
    return vit__vec_u32(a, out, vit__oc_entities[k].v[0]) && (!vit__oc_entities[k].v[1] || vit__vec_u32(a, out, vit__oc_entities[k].v[1]));
}

static int vit__oc_alpha(uint32_t c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
static int vit__oc_alnum(uint32_t c) { return vit__oc_alpha(c) || (c >= '0' && c <= '9'); }
static int vit__oc_hex(uint32_t c) { return (c >= '0' && c <= '9') ? (int)c - '0' : (c | 0x20) >= 'a' && (c | 0x20) <= 'f' ? (int)(c | 0x20) - 'a' + 10 : -1; }

// html.unescape's numeric reference at b[i] ('#'), digits only to `lim`: its value into *v
// (-1: nothing), the end in *end; 0 if none starts there.
static int vit__oc_charref(const uint32_t *b, size_t lim, size_t i, size_t *end, int32_t *v) {
    int hex = i + 1 < lim && (b[i + 1] == 'x' || b[i + 1] == 'X');
    size_t k = i + 1 + (size_t)hex, d = k;
    uint32_t num = 0;
    for (; k < lim && (hex ? vit__oc_hex(b[k]) >= 0 : b[k] >= '0' && b[k] <= '9'); k++) {
        num = num * (hex ? 16u : 10u) + (uint32_t)(hex ? vit__oc_hex(b[k]) : (int)b[k] - '0');
        if (num > 0x110000) num = 0x110000; // past the last code point: U+FFFD whatever it is
    }
    if (k == d) return 0;
    *end = k;
    for (size_t q = 0; q < sizeof(vit__oc_charrefs) / sizeof(vit__oc_charrefs[0]); q++)
        if (vit__oc_charrefs[q][0] == num) { *v = (int32_t)vit__oc_charrefs[q][1]; return 1; }
    if ((num >= 0xD800 && num <= 0xDFFF) || num > 0x10FFFF) *v = 0xFFFD;
    else *v = vit__oc_range(vit__oc_noref, sizeof(vit__oc_noref) / sizeof(vit__oc_noref[0]), num) ? -1 : (int32_t)num;
    return 1;
}

static vit_status vit__oc_unknown_entity(vit_tokenizer *t, const uint32_t *name, size_t n) {
    char s[40];
    size_t w = 0;
    for (size_t q = 0; q < n && w + 5 < sizeof(s); q++) w += vit__utf8_put(name[q], (unsigned char *)s + w);
    s[w] = 0;
    return vit__fail(t->error, VIT_ERROR_UNSUPPORTED,
                     "vit_tokenize: open_clip would decode the HTML entity '&%s;' if HTML5 names it; vit.h knows only some names", s);
}

// ftfy's unescape_html (ftfy = 1) or html.unescape (ftfy = 0) of in[0..n) into out.
static vit_status vit__oc_unescape(vit_tokenizer *t, const uint32_t *b, size_t n, vit__vec *out, int ftfy) {
    const vit_allocator *a = &t->alloc;
    out->n = 0;
    for (size_t i = 0; i < n; i++) {
        size_t j = i + 1, k, end;
        int32_t v;
        if (b[i] != '&') { if (!vit__vec_u32(a, out, b[i])) return VIT_ERROR_OUT_OF_MEMORY; continue; }
        if (ftfy) { // &#?[0-9A-Za-z]{1,24};
            int hash = j < n && b[j] == '#';
            k = j + (size_t)hash;
            while (k < n && k - j <= 25 && vit__oc_alnum(b[k])) k++;
            size_t len = k - j - (size_t)hash;
            if (len >= 1 && len <= 24 && k < n && b[k] == ';') {
                if (!hash) {
                    int e = vit__oc_entity(b + j, len, 0);
                    if (e < 0) return vit__oc_unknown_entity(t, b + j, len);
                    if (!vit__oc_push_entity(a, out, e)) return VIT_ERROR_OUT_OF_MEMORY;
                    i = k;
                    continue;
                }
                // html.unescape of the match; kept as it is unless that takes it whole and gives no ';'
                if (vit__oc_charref(b, k, j, &end, &v) && end == k && v != ';') {
                    if (v >= 0 && !vit__vec_u32(a, out, (uint32_t)v)) return VIT_ERROR_OUT_OF_MEMORY;
                    i = k;
                    continue;
                }
            }
            if (!vit__vec_u32(a, out, '&')) return VIT_ERROR_OUT_OF_MEMORY;
            continue;
        }
        if (j < n && b[j] == '#') { // &#[0-9]+;? | &#[xX][0-9a-fA-F]+;?
            if (vit__oc_charref(b, n, j, &end, &v)) {
                if (v >= 0 && !vit__vec_u32(a, out, (uint32_t)v)) return VIT_ERROR_OUT_OF_MEMORY;
                i = end < n && b[end] == ';' ? end : end - 1;
                continue;
            }
            if (!vit__vec_u32(a, out, '&')) return VIT_ERROR_OUT_OF_MEMORY;
            continue;
        }
        for (k = j; k < n && k - j < 32 && (!b[k] || !strchr("\t\n\f <&#;", (int)(b[k] < 0x80 ? b[k] : 'x'))); k++) {} // U+0000 is a name's character
        if (k == j) { if (!vit__vec_u32(a, out, '&')) return VIT_ERROR_OUT_OF_MEMORY; continue; }
        if (k < n && b[k] == ';') { // a name with ';': vit.h must know it
            int e = vit__oc_entity(b + j, k - j, 0);
            if (e < 0) return vit__oc_unknown_entity(t, b + j, k - j);
            if (!vit__oc_push_entity(a, out, e)) return VIT_ERROR_OUT_OF_MEMORY;
            i = k;
            continue;
        }
        // without ';': the whole run, else its longest prefix (2 or more characters), if html5 has it bare
        size_t x = k - j;
        int e = vit__oc_entity(b + j, x, 1);
        for (; e < 0 && x > 2;) e = vit__oc_entity(b + j, --x, 1);
        if (e < 0) { if (!vit__vec_u32(a, out, '&')) return VIT_ERROR_OUT_OF_MEMORY; continue; }
        if (!vit__oc_push_entity(a, out, e)) return VIT_ERROR_OUT_OF_MEMORY;
        i = j + x - 1;
    }
    return VIT_OK;
}

// ftfy's character fixes of one character, in its order: fix_latin_ligatures,
// fix_character_width, uncurl_quotes. Counted, not 0-terminated: U+0000 passes
// through (remove_control_chars drops it later, after the terminal escapes).
static int vit__oc_fix_char(const vit_allocator *a, vit__vec *out, uint32_t c) {
    uint32_t lig[3] = {c, 0, 0};
    int nl = 1;
    if (c >= vit__oc_ligature[0][0]) // the tables' smallest keys: most text skips both searches
        for (size_t k = 0; k < sizeof(vit__oc_ligature) / sizeof(vit__oc_ligature[0]); k++)
            if (vit__oc_ligature[k][0] == c) {
                for (nl = 0; nl < 3 && vit__oc_ligature[k][1 + nl]; nl++) lig[nl] = vit__oc_ligature[k][1 + nl];
                break;
            }
    for (int q = 0; q < nl; q++) {
        uint32_t w[2] = {lig[q], 0};
        int nw = 1;
        if (lig[q] >= vit__oc_width[0][0]) {
            size_t lo = 0, hi = sizeof(vit__oc_width) / sizeof(vit__oc_width[0]), n = hi;
            while (lo < hi) {
                size_t m = lo + (hi - lo) / 2;
                if (vit__oc_width[m][0] < lig[q]) lo = m + 1;
                else hi = m;
            }
            if (lo < n && vit__oc_width[lo][0] == lig[q]) { w[0] = vit__oc_width[lo][1]; w[1] = vit__oc_width[lo][2]; nw = w[1] ? 2 : 1; }
        }
        for (int z = 0; z < nw; z++) {
            uint32_t d = w[z];
            if (d == 0x2BC || (d >= 0x2018 && d <= 0x201B)) d = '\'';
            else if (d >= 0x201C && d <= 0x201F) d = '"';
            if (!vit__vec_u32(a, out, d)) return 0;
        }
    }
    return 1;
}

// ftfy.fix_text's rounds on one segment (a line) in seg, until nothing changes.
// w: scratch, the last text is_bad passed (a round changes little of it: only the
// starts near a change are checked again).
static vit_status vit__oc_ftfy_segment(vit_tokenizer *t, vit__vec *seg, vit__vec *x, vit__vec *y, vit__vec *z, vit__vec *w, int unescape) {
    const vit_allocator *a = &t->alloc;
    w->n = 0;
    for (int round = 0;; round++) {
        vit_status st = VIT_OK;
        if (round > 64) return vit__fail(t->error, VIT_ERROR_UNSUPPORTED, "vit_tokenize: ftfy's fixes of this text do not settle within 64 rounds");
        // x: the round's result, seg: what it started from
        if (unescape) st = vit__oc_unescape(t, (const uint32_t *)seg->p, seg->n, y, 1);
        else { y->n = 0; if (!vit__vec_reserve(a, y, seg->n, 4)) st = VIT_ERROR_OUT_OF_MEMORY; else { if (seg->n) memcpy(y->p, seg->p, seg->n * 4); y->n = seg->n; } }
        if (st != VIT_OK) return st;
        const uint32_t *b = (const uint32_t *)y->p, *p = (const uint32_t *)w->p;
        size_t from = 0, to = y->n, pre = 0, suf = 0;
        if (round > 0) { // a match wholly inside what w shares with y, at its start or end, is not there
            while (pre < y->n && pre < w->n && b[pre] == p[pre]) pre++;
            while (suf < y->n - pre && suf < w->n - pre && b[y->n - 1 - suf] == p[w->n - 1 - suf]) suf++;
            from = pre >= VIT__OC_WIN ? pre - VIT__OC_WIN : 0;
            to = y->n - suf;
        }
        if (vit__oc_is_bad(b, y->n, from, to))
            return vit__fail(t->error, VIT_ERROR_UNSUPPORTED, "vit_tokenize: ftfy's heuristic takes this text for mojibake and would try to re-decode it; vit.h does not");
        if (!vit__vec_reserve(a, w, y->n, 4) || !vit__vec_reserve(a, x, y->n, 4)) return VIT_ERROR_OUT_OF_MEMORY;
        if (y->n) memcpy(w->p, y->p, y->n * 4);
        w->n = y->n;
        x->n = 0;
        for (size_t i = 0; i < y->n; i++) {
            if (b[i] < vit__oc_ligature[0][0] && x->n < x->cap) ((uint32_t *)x->p)[x->n++] = b[i]; // below every table key
            else if (!vit__oc_fix_char(a, x, b[i])) return VIT_ERROR_OUT_OF_MEMORY;
        }
        // fix_line_breaks, remove_terminal_escapes, remove_control_chars
        uint32_t *c = (uint32_t *)x->p;
        size_t m = 0, n = x->n;
        for (size_t i = 0; i < n; i++) {
            uint32_t d = c[i];
            if (d == '\r' && i + 1 < n && c[i + 1] == '\n') continue;
            if (d == '\r' || d == 0x2028 || d == 0x2029 || d == 0x85) d = '\n';
            c[m++] = d;
        }
        n = m;
        m = 0;
        for (size_t i = 0; i < n; i++) {
            if (c[i] == 0x1B && i + 1 < n && c[i + 1] == '[') { // \033\[(\d|;)*[a-zA-Z]
                size_t k = i + 2;
                while (k < n && ((c[k] >= '0' && c[k] <= '9') || c[k] == ';')) k++;
                if (k < n && c[k] >= 0x80 && (vit__uni_prop(c[k]) & VIT__UNI_N))
                    return vit__fail(t->error, VIT_ERROR_UNSUPPORTED, "vit_tokenize: a terminal escape with a non-ASCII digit (ftfy's \\d)");
                if (k < n && vit__oc_alpha(c[k])) { i = k; continue; }
            }
            c[m++] = c[i];
        }
        n = m;
        m = 0;
        for (size_t i = 0; i < n; i++) {
            uint32_t d = c[i];
            if (d <= 8 || d == 0xB || (d >= 0xE && d <= 0x1F) || d == 0x7F || (d >= 0x206A && d <= 0x206F) || d == 0xFEFF || (d >= 0xFFF9 && d <= 0xFFFC)) continue;
            if (d >= 0x378 && (vit__uni_prop(d) & VIT__UNI_UNASSIGNED)) return vit__uni_check_assigned(t->error, &d, 1); // ftfy's NFC and lower() are the running Python's
            if (d >= vit__oc_nfc_new[0][0] && vit__oc_range(vit__oc_nfc_new, sizeof(vit__oc_nfc_new) / sizeof(vit__oc_nfc_new[0]), d))
                return vit__fail(t->error, VIT_ERROR_UNSUPPORTED,
                                 "vit_tokenize: U+%04X, newer than vit.h's NFC tables (Unicode %s), has a combining class or a decomposition", (unsigned)d,
                                 VIT__NFC_UNICODE_VERSION);
            c[m++] = d;
        }
        x->n = m;
        if (!vit__nfc(a, (const uint32_t *)x->p, x->n, y, z)) return VIT_ERROR_OUT_OF_MEMORY;
        int same = y->n == seg->n && (!y->n || !memcmp(y->p, seg->p, y->n * 4));
        vit__vec keep = *seg;
        *seg = *y;
        *y = keep;
        if (same) return VIT_OK;
    }
}

// " ".join(s.split()) of b[0..n) into out, dropping ASCII punctuation first if `punct`.
static int vit__py_split_join(const vit_allocator *a, const uint32_t *b, size_t n, vit__vec *out, int punct) {
    out->n = 0;
    int space = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t c = b[i];
        if (punct && c < 0x80 && c && strchr("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", (int)c)) continue;
        if (vit__space_py(c)) { space = 1; continue; }
        if (space && out->n && !vit__vec_u32(a, out, ' ')) return 0;
        space = 0;
        if (!vit__vec_u32(a, out, c)) return 0;
    }
    return 1;
}

// open_clip's clean_fn(text) of r->cps into out (code points): basic_clean (ftfy.fix_text
// line by line, html.unescape twice, strip), then 'whitespace', 'lower' or
// 'canonicalize'. VIT_ERROR_UNSUPPORTED (t->error says why) where vit.h cannot be
// sure of ftfy's result.
static vit_status vit__oc_clean(vit_tokenizer *t, vit__tok_run *r, vit__vec *out) {
    const vit_allocator *a = &t->alloc;
    vit__vec seg = {NULL, 0, 0}, x = {NULL, 0, 0}, y = {NULL, 0, 0}, z = {NULL, 0, 0}, w = {NULL, 0, 0};
    const uint32_t *b = (const uint32_t *)r->cps.p;
    size_t n = r->cps.n;
    vit_status st = VIT_OK;
    int unescape = 1; // ftfy's "auto": off from the first line that holds a '<' on
    out->n = 0;
    for (size_t pos = 0; pos < n && st == VIT_OK;) {
        size_t end = pos;
        while (end < n && end - pos < 1000000 && b[end] != '\n') end++; // a segment: a line with its '\n', at most max_decode_length
        if (end < n && b[end] == '\n' && end - pos < 1000000) end++;
        seg.n = 0;
        for (size_t i = pos; i < end; i++) {
            if (b[i] == '<') unescape = 0;
            if (!vit__vec_u32(a, &seg, b[i])) st = VIT_ERROR_OUT_OF_MEMORY;
        }
        if (st == VIT_OK) st = vit__oc_ftfy_segment(t, &seg, &x, &y, &z, &w, unescape);
        for (size_t i = 0; st == VIT_OK && i < seg.n; i++)
            if (!vit__vec_u32(a, out, ((const uint32_t *)seg.p)[i])) st = VIT_ERROR_OUT_OF_MEMORY;
        pos = end;
    }
    if (st == VIT_OK) st = vit__oc_unescape(t, (const uint32_t *)out->p, out->n, &x, 0);
    if (st == VIT_OK) st = vit__oc_unescape(t, (const uint32_t *)x.p, x.n, &y, 0);
    if (st == VIT_OK) { // strip(), then the clean function
        const uint32_t *c = (const uint32_t *)y.p;
        size_t lo = 0, hi = y.n;
        while (lo < hi && vit__space_py(c[lo])) lo++;
        while (hi > lo && vit__space_py(c[hi - 1])) hi--;
        if (t->oc_clean == VIT__OC_CANONICALIZE) { // '_' to ' ', punctuation out, lower(), split and join
            uint32_t *w = (uint32_t *)y.p;
            for (size_t i = lo; i < hi; i++) if (w[i] == '_') w[i] = ' ';
            if (!vit__py_split_join(a, c + lo, hi - lo, &x, 1) || !vit__py_lower(a, (const uint32_t *)x.p, x.n, &z) ||
                !vit__py_split_join(a, (const uint32_t *)z.p, z.n, out, 0))
                st = VIT_ERROR_OUT_OF_MEMORY;
        } else if (!vit__py_split_join(a, c + lo, hi - lo, t->oc_clean == VIT__OC_LOWER ? &x : out, 0) ||
                   (t->oc_clean == VIT__OC_LOWER && !vit__py_lower(a, (const uint32_t *)x.p, x.n, out))) {
            st = VIT_ERROR_OUT_OF_MEMORY;
        }
    }
    vit__free(a, seg.p); vit__free(a, x.p); vit__free(a, y.p); vit__free(a, z.p); vit__free(a, w.p);
    return st;
}

// open_clip's SimpleTokenizer on cleaned text b[0..n): its pattern (re.IGNORECASE)
// <start_of_text>|<end_of_text>|'s|'t|'re|'ve|'m|'ll|'d|[\p{L}]+|[\p{N}]|[^\s\p{L}\p{N}]+
// found left to right, what it skips dropped (spaces, and U+0345, which under
// IGNORECASE is in none of the classes); each piece through BPE, a piece that is
// exactly <start_of_text> or <end_of_text> its id. Until `limit` ids.
static int vit__oc_simple_words(const vit_tokenizer *t, vit__tok_run *r, const uint32_t *b, size_t n, size_t limit) {
    static const char *const sp[2] = {"<start_of_text>", "<end_of_text>"};
    for (size_t i = 0; i < n && r->count < limit;) {
        uint32_t c = b[i];
        if (vit__space_py(c) || c == 0x345) { i++; continue; }
        size_t e = 0;
        int special = -1;
        for (int k = 0; k < 2 && !e; k++) { // case-insensitive: ASCII letters, and U+017F for s
            size_t len = strlen(sp[k]), q = 0, exact = 1;
            for (; q < len && i + q < n; q++) {
                uint32_t d = b[i + q], want = (unsigned char)sp[k][q];
                if (d == want) continue;
                if (want >= 'a' && want <= 'z' && (d == want - 32 || (want == 's' && d == 0x17F))) { exact = 0; continue; }
                break;
            }
            if (q == len) { e = i + len; special = exact ? k : -1; }
        }
        if (!e && c == '\'' && i + 1 < n) {
            uint32_t d = b[i + 1] < 0x80 ? b[i + 1] | 0x20 : b[i + 1], f = i + 2 < n && b[i + 2] < 0x80 ? b[i + 2] | 0x20 : 0;
            if (d == 's' || d == 0x17F || d == 't' || d == 'm' || d == 'd') e = i + 2;
            else if (((d == 'r' || d == 'v') && f == 'e') || (d == 'l' && f == 'l')) e = i + 3;
        }
        if (!e) {
            unsigned p = vit__uni_prop(c) & 3;
            e = i + 1;
            if (p == VIT__UNI_L) { while (e < n && (vit__uni_prop(b[e]) & 3) == VIT__UNI_L) e++; }
            else if (p != VIT__UNI_N) { while (e < n && !vit__space_py(b[e]) && b[e] != 0x345 && (vit__uni_prop(b[e]) & 3) == 0) e++; }
        }
        if (special >= 0) vit__tok_emit(r, special ? t->cfg.eos_id : t->cfg.bos_id);
        else if (!vit__clip_piece(t, r, b, i, e)) return 0;
        i = e;
    }
    return 1;
}

static vit_status vit__oc_encode(vit_tokenizer *t, vit__tok_run *r, const unsigned char *s, size_t n) {
    const vit_allocator *a = &t->alloc;
    vit__vec clean = {NULL, 0, 0};
    r->cps.n = 0;
    for (size_t i = 0; i < n;) {
        int32_t cp = vit__utf8_next(s, n, &i); // checked by vit_tokenize
        if (!vit__vec_u32(a, &r->cps, (uint32_t)cp)) return VIT_ERROR_OUT_OF_MEMORY;
    }
    vit_status st = vit__oc_clean(t, r, &clean);
    const uint32_t *b = (const uint32_t *)clean.p;
    if (st == VIT_OK) st = vit__uni_check_assigned(t->error, b, clean.n); // html.unescape's too
    if (st == VIT_OK && t->cfg.type == VIT_TOKENIZER_CLIP_BPE && t->oc == VIT__OC_SIMPLE) {
        size_t limit = (size_t)t->cfg.context - 2;
        if (!vit__oc_simple_words(t, r, b, clean.n, limit)) st = VIT_ERROR_OUT_OF_MEMORY;
        if (r->count > limit) r->count = limit; // [sot] + ids + [eot], cut to the context with eot last
    } else if (st == VIT_OK) { // HFTokenizer: the cleaned text through the folder's tokenizer, as UTF-8
        vit__vec u = {NULL, 0, 0};
        for (size_t i = 0; st == VIT_OK && i < clean.n; i++) {
            unsigned char q[4];
            if (!vit__vec_bytes(a, &u, q, vit__utf8_put(b[i], q))) st = VIT_ERROR_OUT_OF_MEMORY;
        }
        for (size_t i = 0; st == VIT_OK && t->cfg.type != VIT_TOKENIZER_CLIP_BPE && !t->hf && i < u.n; i++) { // T5 (spiece.model): no added token's text in it
            int32_t v = -1;
            if (vit__trie_longest(&t->added_raw, (const unsigned char *)u.p + i, u.n - i, &v))
                st = vit__fail(t->error, VIT_ERROR_UNSUPPORTED, "vit_tokenize: the cleaned text holds the special token '%.40s' (vit.h does not split T5TokenizerFast's)",
                               vit__tok_text(t, t->added[v].off));
        }
        if (st == VIT_OK && t->cfg.type == VIT_TOKENIZER_CLIP_BPE) {
            st = vit__clip_encode(t, r, (const unsigned char *)u.p, u.n);
        } else if (st == VIT_OK && t->hf) {
            st = vit__hf_encode(t, r, (const unsigned char *)u.p, u.n);
        } else if (st == VIT_OK) {
            st = vit__spm_encode(t, r, (const unsigned char *)u.p, u.n, 0, NULL);
            size_t keep = (size_t)t->cfg.context - 1;
            if (st == VIT_OK) {
                if (r->count > keep) r->count = keep; // truncation leaves room for </s>
                r->ids[r->count++] = t->cfg.eos_id;
            }
        }
        vit__free(a, u.p);
    }
    if (st == VIT_ERROR_OUT_OF_MEMORY) vit__fail(t->error, st, "vit_tokenize: out of memory");
    vit__free(a, clean.p);
    return st;
}

// What open_clip_config.json says about the tokenizer (open_clip.get_tokenizer's reading of model_cfg.text_cfg).
typedef struct vit__oc_cfg { int mode, clean, context; } vit__oc_cfg;

static vit_status vit__oc_config(const char *text, size_t size, const vit_allocator *a, vit__oc_cfg *o, char *err) {
    vit__json j;
    memset(&j, 0, sizeof(j));
    memset(o, 0, sizeof(*o));
    if (size > VIT_MAX_HEADER_BYTES) return vit__fail(err, VIT_ERROR_LIMIT, "open_clip_config.json is %zu bytes, more than VIT_MAX_HEADER_BYTES", size);
    size_t bad = vit__utf8_check((const unsigned char *)text, size);
    if (bad < size) return vit__fail(err, VIT_ERROR_BAD_FORMAT, "open_clip_config.json: not UTF-8 at byte %zu", bad);
    vit_status st = vit__json_parse(&j, text, size, a, err);
    if (st != VIT_OK) {
        char detail[VIT__ERR_LEN];
        memcpy(detail, err, VIT__ERR_LEN);
        return vit__fail(err, st, "open_clip_config.json: %.400s", detail);
    }
    int mc = j.nodes[0].type == VIT__J_OBJ ? vit__json_get(&j, 0, "model_cfg") : -1, tc = -1;
    char v[64] = "";
    if (!vit__json_is(&j, mc, VIT__J_OBJ)) st = vit__fail(err, VIT_ERROR_BAD_FORMAT, "open_clip_config.json: no model_cfg object");
    if (st == VIT_OK && (tc = vit__json_get(&j, mc, "text_cfg")) >= 0 && !vit__json_is(&j, tc, VIT__J_OBJ))
        st = vit__fail(err, VIT_ERROR_BAD_FORMAT, "open_clip_config.json: text_cfg is not an object");
    o->mode = VIT__OC_SIMPLE;
    o->context = 77;
    if (st == VIT_OK && tc >= 0) {
        int n = vit__json_get(&j, tc, "context_length");
        if (n >= 0 && !vit__json_int(&j, n, 3, VIT_MAX_TOKENS, &o->context))
            st = vit__fail(err, VIT_ERROR_UNSUPPORTED, "open_clip_config.json: context_length is not a whole number in [3, VIT_MAX_TOKENS]");
        n = vit__json_get(&j, tc, "hf_tokenizer_name"); // as open_clip: a non-empty name means HFTokenizer, over the folder's own files
        if (st == VIT_OK && n >= 0 && j.nodes[n].type != VIT__J_NULL) {
            if (!vit__json_is(&j, n, VIT__J_STR)) st = vit__fail(err, VIT_ERROR_UNSUPPORTED, "open_clip_config.json: hf_tokenizer_name is not a string");
            else if (j.nodes[n].len) o->mode = VIT__OC_HF;
        }
        n = vit__json_get(&j, tc, "tokenizer_mode");
        if (st == VIT_OK && o->mode == VIT__OC_HF && n >= 0 && j.nodes[n].type != VIT__J_NULL && !vit__json_eq(&j, n, "")) {
            vit__json_text(&j, n, v, sizeof(v), NULL);
            st = vit__fail(err, VIT_ERROR_UNSUPPORTED, "open_clip_config.json: tokenizer_mode '%s' (vit.h runs HFTokenizer's standard mode)", v[0] ? v : "?");
        }
        int kw = vit__json_get(&j, tc, "tokenizer_kwargs");
        if (st == VIT_OK && kw >= 0 && !vit__json_is(&j, kw, VIT__J_OBJ)) st = vit__fail(err, VIT_ERROR_BAD_FORMAT, "open_clip_config.json: tokenizer_kwargs is not an object");
        o->clean = o->mode == VIT__OC_HF ? VIT__OC_WHITESPACE : VIT__OC_LOWER;
        for (int k = st == VIT_OK && kw >= 0 ? j.nodes[kw].first_child : -1; k >= 0 && st == VIT_OK; k = j.nodes[j.nodes[k].next].next) {
            char key[64] = "";
            int val = j.nodes[k].next;
            vit__json_text(&j, k, key, sizeof(key), NULL);
            if (!strcmp(key, "clean")) {
                if (vit__json_eq(&j, val, "whitespace")) o->clean = VIT__OC_WHITESPACE;
                else if (vit__json_eq(&j, val, "lower")) o->clean = VIT__OC_LOWER;
                else if (vit__json_eq(&j, val, "canonicalize")) o->clean = VIT__OC_CANONICALIZE;
                else st = vit__fail(err, VIT_ERROR_UNSUPPORTED, "open_clip_config.json: tokenizer_kwargs.clean is not 'whitespace', 'lower' or 'canonicalize'");
            } else if (!strcmp(key, "strip_sep_token") && o->mode == VIT__OC_HF && j.nodes[val].type == VIT__J_FALSE) {
            } else {
                st = vit__fail(err, VIT_ERROR_UNSUPPORTED, "open_clip_config.json: tokenizer_kwargs.%s (vit.h reads only 'clean')", key);
            }
        }
    }
    vit__json_release(&j);
    return st;
}

// Is text an open_clip_config.json (a JSON object with a top-level "model_cfg")? Into *yes;
// text that does not parse is not (its reader says why); VIT_ERROR_OUT_OF_MEMORY.
static vit_status vit__oc_is_config(const char *text, size_t size, const vit_allocator *a, int *yes) {
    vit__json j;
    char err[VIT__ERR_LEN];
    memset(&j, 0, sizeof(j));
    *yes = 0;
    if (size > VIT_MAX_HEADER_BYTES || vit__utf8_check((const unsigned char *)text, size) < size) return VIT_OK;
    vit_status st = vit__json_parse(&j, text, size, a, err);
    if (st == VIT_OK) *yes = j.nodes[0].type == VIT__J_OBJ && vit__json_get(&j, 0, "model_cfg") >= 0;
    vit__json_release(&j);
    return st == VIT_ERROR_OUT_OF_MEMORY ? st : VIT_OK;
}

// The loaded tokenizer as open_clip's: SimpleTokenizer needs OpenAI's BPE (the one
// open_clip bundles, whatever the folder holds) and pads with 0; HFTokenizer a
// class vit.h runs. The context is open_clip_config.json's.
static vit_status vit__oc_check(vit_tokenizer *t, const vit__oc_cfg *oc, const char *cls, char *err) {
    if (oc->mode == VIT__OC_HF && strcmp(cls, "T5Tokenizer") != 0 && strcmp(cls, "T5TokenizerFast") != 0 && strcmp(cls, "CLIPTokenizer") != 0 &&
        strcmp(cls, "CLIPTokenizerFast") != 0) // SiglipTokenizer would add its own lower-casing, punctuation and prefix rules
        return vit__fail(err, VIT_ERROR_UNSUPPORTED, "open_clip HFTokenizer over tokenizer_class %s (vit.h runs open_clip's with T5Tokenizer(Fast) or CLIPTokenizer(Fast))",
                         cls[0] ? cls : "(none: no tokenizer_config.json)");
    if (oc->mode == VIT__OC_SIMPLE) {
        if (t->cfg.type != VIT_TOKENIZER_CLIP_BPE || t->bpe_hash != VIT__OC_OPENAI_BPE_HASH || t->cfg.vocab_size != 49408 || t->n_prefix != 1 ||
            t->n_suffix != 1 || t->prefix[0] != 49406 || t->suffix[0] != 49407)
            return vit__fail(err, VIT_ERROR_UNSUPPORTED, "open_clip_config.json names no hf_tokenizer_name: open_clip runs its SimpleTokenizer with OpenAI's "
                                                         "CLIP BPE, and the folder's tokenizer.json is not that vocabulary");
        t->cfg.pad_id = 0;
    } else if (t->cfg.type == VIT_TOKENIZER_SIGLIP_UNIGRAM && t->n_added > 3) {
        return vit__fail(err, VIT_ERROR_UNSUPPORTED, "open_clip HFTokenizer: a T5 tokenizer with %zu added tokens (vit.h runs those with <pad>, </s>, <unk>)", t->n_added);
    }
    t->cfg.context = oc->context;
    t->cfg.lower_case = oc->clean != VIT__OC_WHITESPACE;
    t->cfg.open_clip = 1;
    return VIT_OK;
}

// >>tokenize load -------------------------------------------------------------
// vit_tokenize, vit_tokenizer_load(_memory): which tokenizer a folder or
// buffer holds, loaded and checked; the encoders' dispatch.

// ---- the calls

VITDEF vit_status vit_tokenize(vit_tokenizer *t, const char *text, size_t len, int *ids, int max_ids, int *n_tokens) {
    if (!t) return VIT_ERROR_INVALID_ARGUMENT;
    if (!ids || (!text && len))
        return vit__fail(t->error, VIT_ERROR_INVALID_ARGUMENT, "vit_tokenize: ids is NULL, or text is NULL with len %zu", len);
    if (max_ids < t->cfg.context)
        return vit__fail(t->error, VIT_ERROR_INVALID_ARGUMENT, "vit_tokenize: max_ids %d is less than the context, %d ids", max_ids, t->cfg.context);
    if (len > VIT_MAX_TEXT_BYTES)
        return vit__fail(t->error, VIT_ERROR_LIMIT, "vit_tokenize: text of %zu bytes, more than VIT_MAX_TEXT_BYTES (%zu)", len, (size_t)VIT_MAX_TEXT_BYTES);
    const unsigned char *s = (const unsigned char *)(text ? text : "");
    size_t bad = vit__utf8_check(s, len);
    if (bad < len) return vit__fail(t->error, VIT_ERROR_INVALID_ARGUMENT, "vit_tokenize: the text is not valid UTF-8 at byte %zu", bad);
    vit__tok_run r;
    memset(&r, 0, sizeof(r));
    int buf[VIT__TOK_STACK_IDS];
    r.cap = (size_t)t->cfg.context + 2;
    r.ids = r.cap <= VIT__TOK_STACK_IDS ? buf : (int *)vit__malloc(&t->alloc, r.cap * sizeof(int));
    vit_status st = r.ids ? VIT_OK : VIT_ERROR_OUT_OF_MEMORY;
    // a code point unassigned in vit.h's Unicode: refused where the tokenizer's newer Unicode can change
    // the ids (>>tokenize); open_clip's cleaned text is checked by vit__oc_encode
    if (st == VIT_OK && !t->oc && (t->cfg.type == VIT_TOKENIZER_CLIP_BPE || (!t->hf && t->cfg.lower_case)))
        st = vit__uni_check_assigned_utf8(t->error, s, len);
    if (st == VIT_OK)
        st = t->oc ? vit__oc_encode(t, &r, s, len) : t->cfg.type == VIT_TOKENIZER_CLIP_BPE ? vit__clip_encode(t, &r, s, len)
           : t->hf ? vit__hf_encode(t, &r, s, len) : vit__siglip_encode(t, &r, s, len);
    if (st == VIT_OK) {
        size_t w = 0;
        if (t->cfg.type == VIT_TOKENIZER_CLIP_BPE) {
            for (int k = 0; k < t->n_prefix; k++) ids[w++] = t->prefix[k];
            for (size_t k = 0; k < r.count; k++) ids[w++] = r.ids[k];
            for (int k = 0; k < t->n_suffix; k++) ids[w++] = t->suffix[k];
        } else {
            for (size_t k = 0; k < r.count; k++) ids[w++] = r.ids[k];
        }
        if (n_tokens) *n_tokens = (int)w;
        while (w < (size_t)t->cfg.context) ids[w++] = t->cfg.pad_id;
    } else if (st == VIT_ERROR_OUT_OF_MEMORY) {
        vit__fail(t->error, st, "vit_tokenize: out of memory for a text of %zu bytes", len);
    }
    if (r.ids != buf) vit__free(&t->alloc, r.ids);
    vit__tok_run_release(&t->alloc, &r);
    return st;
}

// The loaders' options: checked, defaults patched in (into *o).
static vit_status vit__tok_options(const vit_options *opts, vit_options *o) {
    vit_status st = vit__check_options(opts);
    *o = vit_query_defaults(opts);
    return st;
}

// Loads from a tokenizer file's bytes and the tokenizer_config.json text (NULL: none);
// o from vit__tok_options.
static vit_status vit__tok_create(const unsigned char *data, size_t size, const char *config, size_t config_size, const vit__oc_cfg *oc,
                                  const vit_options *o, const char *source, vit_tokenizer **out) {
    char *err = vit__load_error;
    *out = NULL;
    vit_status st = VIT_OK;
    vit_tokenizer *t = (vit_tokenizer *)vit__malloc(&o->allocator, sizeof(vit_tokenizer));
    if (!t) return vit__fail(err, VIT_ERROR_OUT_OF_MEMORY, "out of memory for a tokenizer");
    memset(t, 0, sizeof(*t));
    t->alloc = o->allocator;
    t->sp_unk = -1;
    if (oc) { t->oc = oc->mode; t->oc_clean = oc->clean; }
    vit__tok_cfg c;
    st = vit__tok_cfg_parse(&c, config, config_size, &t->alloc, err);
    size_t at = 0;
    while (at < size && (data[at] == ' ' || data[at] == '\t' || data[at] == '\n' || data[at] == '\r')) at++;
    int json = at < size && data[at] == '{';
    if (st == VIT_OK && size > VIT_MAX_HEADER_BYTES)
        st = vit__fail(err, VIT_ERROR_LIMIT, "%s is %zu bytes, more than VIT_MAX_HEADER_BYTES (%llu)", json ? "tokenizer.json" : "spiece.model", size,
                       (unsigned long long)VIT_MAX_HEADER_BYTES);
    int t5 = !strcmp(c.cls, "T5Tokenizer") || !strcmp(c.cls, "T5TokenizerFast");
    if (st == VIT_OK && json) {
        if (c.cls[0] && strcmp(c.cls, "CLIPTokenizer") != 0 && strcmp(c.cls, "CLIPTokenizerFast") != 0 && !t5)
            st = vit__fail(err, VIT_ERROR_UNSUPPORTED, "tokenizer_config.json: tokenizer_class %s (vit.h reads tokenizer.json as CLIPTokenizer)", c.cls);
        size_t bad = vit__utf8_check(data, size);
        if (st == VIT_OK && bad < size) st = vit__fail(err, VIT_ERROR_BAD_FORMAT, "tokenizer.json: not UTF-8 at byte %zu", bad);
        vit__json j;
        memset(&j, 0, sizeof(j));
        if (st == VIT_OK) {
            st = vit__json_parse(&j, (const char *)data, size, &t->alloc, err);
            if (st != VIT_OK) {
                char detail[VIT__ERR_LEN];
                memcpy(detail, err, VIT__ERR_LEN);
                vit__fail(err, st, "tokenizer.json: %.400s", detail);
            }
        }
        if (st == VIT_OK) st = t5 ? vit__hf_load(t, &j, &c, err) : vit__clip_load(t, &j, &c, err);
        vit__json_release(&j);
    } else if (st == VIT_OK) {
        st = vit__spm_load(t, data, size, &c, err);
        if (st == VIT_OK) { // the pieces of the unk token's text alone (transformers' unk_token_length)
            vit__tok_run r;
            memset(&r, 0, sizeof(r));
            st = vit__spm_encode(t, &r, (const unsigned char *)vit__tok_text(t, t->unk_off), t->unk_len, SIZE_MAX, &t->unk_pieces);
            vit__tok_run_release(&t->alloc, &r);
            if (st == VIT_ERROR_OUT_OF_MEMORY) vit__fail(err, st, "out of memory");
            else if (st != VIT_OK) vit__fail(err, st, "%s", t->error);
        }
    }
    if (st == VIT_OK && oc) st = vit__oc_check(t, oc, c.cls, err);
    vit__json_release(&c.j);
    if (st != VIT_OK) {
        vit_tokenizer_free(t);
        return st;
    }
    snprintf(t->cfg.source, sizeof(t->cfg.source), "%s", source);
    *out = t;
    return VIT_OK;
}

VITDEF vit_status vit_tokenizer_load_memory(const void *data, size_t size, const char *config_json, size_t config_size, const vit_options *opts,
                                            vit_tokenizer **out) {
    if (!out) return vit__fail(vit__load_error, VIT_ERROR_INVALID_ARGUMENT, "vit_tokenizer_load_memory: out is NULL");
    *out = NULL;
    if (!data) return vit__fail(vit__load_error, VIT_ERROR_INVALID_ARGUMENT, "vit_tokenizer_load_memory: data is NULL");
    if (config_json && !config_size) config_size = strlen(config_json);
    vit_options o;
    vit_status st = vit__tok_options(opts, &o);
    if (st != VIT_OK) return st;
    // an open_clip_config.json (a top-level model_cfg) instead of a tokenizer_config.json: open_clip's tokenizer
    int occ = 0;
    if (config_json && (st = vit__oc_is_config(config_json, config_size, &o.allocator, &occ)) != VIT_OK)
        return vit__fail(vit__load_error, st, "out of memory reading the config");
    if (occ) {
        vit__oc_cfg oc;
        st = vit__oc_config(config_json, config_size, &o.allocator, &oc, vit__load_error);
        if (st == VIT_OK && oc.mode == VIT__OC_HF)
            st = vit__fail(vit__load_error, VIT_ERROR_UNSUPPORTED, "open_clip HFTokenizer from memory: vit.h needs the folder (its tokenizer_config.json)");
        if (st != VIT_OK) return st;
        return vit__tok_create((const unsigned char *)data, size, NULL, 0, &oc, &o, "memory (open_clip_config.json)", out);
    }
    return vit__tok_create((const unsigned char *)data, size, config_json, config_size, NULL, &o, "memory", out);
}

#ifndef VIT_NO_STDIO

VITDEF vit_status vit_tokenizer_load(const char *path, const vit_options *opts, vit_tokenizer **out) {
    char *err = vit__load_error;
    if (!out) return vit__fail(err, VIT_ERROR_INVALID_ARGUMENT, "vit_tokenizer_load: out is NULL");
    *out = NULL;
    if (!path) return vit__fail(err, VIT_ERROR_INVALID_ARGUMENT, "vit_tokenizer_load: path is NULL");
    vit_options o;
    vit_status st = vit__tok_options(opts, &o);
    if (st != VIT_OK) return st;
    size_t plen = strlen(path);
    char dir[4000], file[4096], cfg_path[4096];
    if (plen + 2 > sizeof(dir)) return vit__fail(err, VIT_ERROR_IO, "path '%.200s...' is too long", path);
    int folder = vit__is_dir(path), force_oc = 0;
    if (folder) {
        snprintf(dir, sizeof(dir), "%s%s", path, plen && (path[plen - 1] == '/' || path[plen - 1] == '\\') ? "" : "/");
    } else {
        const char *slash = strrchr(path, '/');
#ifdef _WIN32
        const char *bs = strrchr(path, '\\');
        if (bs && (!slash || bs > slash)) slash = bs;
#endif
        size_t d = slash ? (size_t)(slash - path) + 1 : 0;
        memcpy(dir, path, d);
        dir[d] = 0;
        // a model file, as given to vit_load: its folder, in the layout vit_load reads it in
        const char *base = path + d;
        size_t bl = strlen(base);
        if (vit__open_clip_file(path)) folder = force_oc = 1;
        else if ((bl >= 12 && !strcmp(base + bl - 12, ".safetensors")) || (bl >= 11 && !strcmp(base + bl - 11, ".index.json"))) folder = 1, force_oc = -1;
    }
    // open_clip's layout: open_clip_config.json beside the tokenizer files, unless vit_load
    // would read the folder's model.safetensors (or its index) there: transformers' layout
    if (!force_oc) {
        int kind = vit__folder_model(dir, file, sizeof(file));
        if (kind == 1 || kind == 2) force_oc = -1;
    }
    char *occ = NULL;
    size_t occ_size = 0;
    vit__oc_cfg oc;
    memset(&oc, 0, sizeof(oc));
    snprintf(cfg_path, sizeof(cfg_path), "%sopen_clip_config.json", dir);
    if (force_oc >= 0) st = vit__read_file(cfg_path, &o.allocator, force_oc == 0, &occ, &occ_size, err);
    if (st == VIT_OK && occ) st = vit__oc_config(occ, occ_size, &o.allocator, &oc, err);
    vit__free(&o.allocator, occ);
    if (st != VIT_OK) return st;
    snprintf(cfg_path, sizeof(cfg_path), "%stokenizer_config.json", dir);
    char *cfg = NULL, *data = NULL;
    size_t cfg_size = 0, size = 0;
    st = vit__read_file(cfg_path, &o.allocator, 1, &cfg, &cfg_size, err);
    const char *name = "tokenizer.json";
    if (st == VIT_OK && folder) { // the class decides; without it, tokenizer.json first
        vit__tok_cfg c;
        st = vit__tok_cfg_parse(&c, cfg, cfg_size, &o.allocator, err);
        snprintf(file, sizeof(file), "%stokenizer.json", dir);
        int clip = !strncmp(c.cls, "CLIPTokenizer", 13), siglip = !strcmp(c.cls, "SiglipTokenizer") || !strncmp(c.cls, "T5Tokenizer", 11); // another class: refused by name below
        if (occ_size && oc.mode == VIT__OC_SIMPLE) clip = 1, siglip = 0; // SimpleTokenizer: CLIP's BPE, whatever the class
        int t5 = !strncmp(c.cls, "T5Tokenizer", 11); // transformers 5's T5Tokenizer: tokenizer.json if there is one, else spiece.model
        if (st == VIT_OK && ((siglip && !(t5 && vit__exists(file))) || (!clip && !vit__exists(file)))) name = "spiece.model";
        vit__json_release(&c.j);
        snprintf(file, sizeof(file), "%s%s", dir, name);
        if (st == VIT_OK && !vit__exists(file))
            st = vit__fail(err, VIT_ERROR_IO, "'%s' has no %s%s", path, name,
                           !cfg ? " (and no tokenizer_config.json)" : siglip && !t5 ? " (SiglipTokenizer reads only that, in transformers 5 too)" : "");
    } else {
        snprintf(file, sizeof(file), "%s", path);
    }
    if (st == VIT_OK) st = vit__read_file(file, &o.allocator, 0, &data, &size, err);
    if (st == VIT_OK) {
        char source[96];
        const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
        snprintf(source, sizeof(source), "%s%.36s%s", occ_size ? "open_clip_config.json, " : "", base, cfg ? ", tokenizer_config.json" : "");
        st = vit__tok_create((const unsigned char *)data, size, cfg, cfg_size, occ_size ? &oc : NULL, &o, source, out);
    }
    vit__free(&o.allocator, data);
    vit__free(&o.allocator, cfg);
    return st;
}
#endif
#endif // VIT__NO_TOKENIZER

#if defined(VIT_NO_TEXT) && !defined(VIT_NO_TOKENIZER)
// VIT_NO_TEXT: the tokenizer calls the header declares, each answering
// VIT_ERROR_UNSUPPORTED (vit_tokenizer_last_error and vit_last_error(NULL) say why).
static const char vit__no_text_tokenizer[] = "vit.h was built with VIT_NO_TEXT: no tokenizers";
#ifndef VIT_NO_STDIO
VITDEF vit_status vit_tokenizer_load(const char *path, const vit_options *opts, vit_tokenizer **out) {
    (void)path; (void)opts;
    if (out) *out = NULL;
    return vit__fail(vit__load_error, VIT_ERROR_UNSUPPORTED, "vit_tokenizer_load: %s", vit__no_text_tokenizer);
}
#endif
VITDEF vit_status vit_tokenizer_load_memory(const void *data, size_t size, const char *config_json, size_t config_size, const vit_options *opts,
                                            vit_tokenizer **out) {
    (void)data; (void)size; (void)config_json; (void)config_size; (void)opts;
    if (out) *out = NULL;
    return vit__fail(vit__load_error, VIT_ERROR_UNSUPPORTED, "vit_tokenizer_load_memory: %s", vit__no_text_tokenizer);
}
VITDEF vit_status vit_tokenize(vit_tokenizer *t, const char *text, size_t len, int *ids, int max_ids, int *n_tokens) {
    (void)t; (void)text; (void)len; (void)ids; (void)max_ids; (void)n_tokens;
    return VIT_ERROR_UNSUPPORTED;
}
VITDEF const vit_tokenizer_config *vit_tokenizer_get_config(const vit_tokenizer *t) {
    (void)t;
    return NULL;
}
VITDEF const char *vit_tokenizer_last_error(const vit_tokenizer *t) {
    (void)t;
    return vit__no_text_tokenizer;
}
VITDEF void vit_tokenizer_free(vit_tokenizer *t) {
    (void)t;
}
#endif

// >>decode --------------------------------------------------------------------
// Encoded bytes -> 8-bit pixels, those of PIL's Image.open(f).convert('RGB'):
// stb_image (a private static copy unless the program brings its own),
// allocation of decoded images.

#ifndef VIT__NO_STB
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
#define STBI_NO_HDR // formats vit.h leaves to a decoder hook: less hostile-input surface
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

// ---- vit.h's own decoders (PNM, BMP) and the fixes around stb_image (GIF, TGA,
// 16-bit gray PNG). Each gives the pixels of PIL's Image.open(f).convert('RGB')
// (gray images: 'L', which convert('RGB') replicates), read from Pillow 13's
// PpmImagePlugin, BmpImagePlugin, GifImagePlugin and TgaImagePlugin; what PIL
// refuses is refused. Decoded images are 1 (gray) or 3 (RGB) channels, packed.

#define VIT__DECODE_FAIL(m, ...) vit__fail((m)->error, VIT_ERROR_IMAGE_DECODE, __VA_ARGS__)

#ifndef VIT_NO_IMAGE_DECODE // (to the end of >>decode jpeg guard: every file decoder)
static uint32_t vit__img_le16(const unsigned char *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t vit__img_le32(const unsigned char *p) { return vit__img_le16(p) | vit__img_le16(p + 2) << 16; }

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

// >>decode pnm bmp ------------------------------------------------------------
// PNM and BMP, decoded here: stb_image never parses them.

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

#ifndef VIT__NO_STB
// >>decode gif tga ------------------------------------------------------------
// The fixes around stb_image for GIF's first frame and TGA.

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

// >>decode png zlib -----------------------------------------------------------
// PNG: empty IDAT chunks, data past IEND, bad CRCs, and a zlib inflater that
// checks the image data as zlib does (stb_image inflates without checks).

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

// >>decode jpeg guard ---------------------------------------------------------
// JPEG: DHT tables that overrun stb_image's Huffman tables, and what PIL
// decodes otherwise than stb_image (refused).

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

// >>decode dispatch -----------------------------------------------------------
// Which decoder reads the bytes (the program's hook, PNM/BMP here, the rest
// stb_image behind the guards above); vit_decode_memory, vit_image_free.

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

#endif // VIT__NO_STB
#endif // VIT_NO_IMAGE_DECODE

// Decodes any image vit.h reads into 8-bit gray or RGB (*ch 1 or 3), packed;
// *from_stb says whether to free with stbi_image_free or vit__free.
static vit_status vit__decode_image(vit_model *m, const unsigned char *p, size_t size, unsigned char **px, int *w, int *h, int *ch, int *from_stb) {
    *from_stb = 0;
#if defined(VIT_NO_IMAGE_DECODE)
    (void)p; (void)size; (void)px; (void)w; (void)h; (void)ch;
    return vit__fail(m->error, VIT_ERROR_UNSUPPORTED, "cannot decode image: built with VIT_NO_IMAGE_DECODE (no file decoders: give a decoder hook, or pixels to vit_preprocess_rgb8)");
#else
    if (size >= 2 && p[0] == 'P' && p[1] >= '1' && p[1] <= '6') return vit__decode_pnm(m, p, size, px, w, h, ch);
    if (size >= 2 && p[0] == 'B' && p[1] == 'M') return vit__decode_bmp(m, p, size, px, w, h, ch);
#if defined(VIT_NO_STB_IMAGE)
    return VIT__DECODE_FAIL(m, "cannot decode image: built with VIT_NO_STB_IMAGE (BMP and PNM only; other formats need a decoder hook)");
#else
    // formats a user's own stb_image may have on: refused before stb parses their headers
    if ((size >= 4 && !memcmp(p, "8BPS", 4)) || (size >= 2 && !memcmp(p, "#?", 2)) || (size >= 4 && !memcmp(p, "\x53\x80\xF6\x34", 4)))
        return VIT__DECODE_FAIL(m, "cannot decode image: PSD, HDR and PIC need a decoder hook (vit_preprocess_memory_with)");
    *from_stb = 1;
    return vit__decode_stb(m, p, size, px, w, h, ch);
#endif
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
#ifndef VIT__NO_STB
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
#ifdef VIT__NO_STB
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

// >>activations ---------------------------------------------------------------
// GELU (erf and tanh), QuickGELU, SiLU and the GEMM epilogue's activation
// step (vit__epi_apply): scalar, 16-wide vector, and the kernels' fast forms,
// one definition for the CPU and the GPU.

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
#if defined(VIT__GNU_VECTORS)
typedef float vit__vec16 __attribute__((vector_size(64)));
typedef int vit__ivec16 __attribute__((vector_size(64)));
#define VIT__VEC_GELU 1

// m ? a : b per lane (m all ones or zeros). Vectors go through macros and
// pointers, never by value: a 64-byte vector argument warns (-Wpsabi) where
// AVX-512 is off.
#define VIT__VSEL(m, a, b) ((vit__vec16)(((vit__ivec16)(a) & (m)) | ((vit__ivec16)(b) & ~(m))))

// e^x for x <= 0 (clamped at -87, where e^x < 2^-125), in place; NaN stays NaN
static VIT__FORCEINLINE void vit__vexp_neg(vit__vec16 *px) {
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

static VIT__FORCEINLINE void vit__gelu_vec(vit__vec16 *px) {
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
static VIT__FORCEINLINE void vit__x_sigmoid_vec(vit__vec16 *px, const vit__vec16 *pz) {
    vit__vec16 x = *px, z = *pz;
    vit__ivec16 neg = (vit__ivec16)z & (int)0x80000000;
    vit__vec16 e = (vit__vec16)((vit__ivec16)z | (int)0x80000000), zero = {0}, one = zero + 1.0f; // e = -|z|
    vit__ivec16 clamped = e < -87.0f;
    vit__vexp_neg(&e);
    vit__vec16 r = x * (VIT__VSEL(neg == 0, one, e) / (one + e));
    *px = VIT__VSEL(clamped, VIT__VSEL(neg == 0, x, x * 0.0f), r);
}

// x sigmoid(1.702 x) (QuickGELU), 16 at a time: the CPU forward pass's
static VIT__FORCEINLINE void vit__quick_gelu_vec(vit__vec16 *px) {
    vit__vec16 z = *px * 1.702f;
    vit__x_sigmoid_vec(px, &z);
}

// torch's tanh GELU, 16 at a time: 0.5 x (1 + tanh y) as x sigmoid(2 y), y =
// sqrt(2/pi) (x + 0.044715 x^3) (no 1 + tanh cancellation in the negative tail)
static VIT__FORCEINLINE void vit__gelu_tanh_vec(vit__vec16 *px) {
    vit__vec16 x = *px, z = (x * x * 0.044715f + 1.0f) * x * 1.59576912f;
    vit__x_sigmoid_vec(px, &z);
}
#endif

// Compilers without GNU vectors (MSVC) run the vectors' arithmetic lane by lane
// (test_act checks the bits against the vectors where both exist, so they are
// compiled there too; VIT__LANE: not an unused-function warning there); MSVC's x64
// branch, under its AVX2 and AVX-512 kernels, in intrinsics (vit__gelu_m512 and
// kin, >>op linear).
#if defined(VIT__VEC_GELU) && (defined(__GNUC__) || defined(__clang__))
#define VIT__LANE static inline __attribute__((unused))
#else
#define VIT__LANE static inline
#endif
VIT__LANE float vit__bits_float(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
VIT__LANE uint32_t vit__float_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

// vit__vexp_neg of one lane
VIT__LANE float vit__exp_neg_lane(float x) {
    x = x < -87.0f ? -87.0f : x;
    float n = (x * 1.44269504f + 12582912.0f) - 12582912.0f; // round(x / ln 2)
    n = n == n ? n : 0.0f;                                   // NaN: any scale, p is NaN
    float r = (x - n * 0.693145751953125f) - n * 1.42860677e-06f;
    float p = r * (1.0f / 5040) + 1.0f / 720;
    p = p * r + 1.0f / 120; p = p * r + 1.0f / 24; p = p * r + 1.0f / 6; p = p * r + 0.5f; p = p * r + 1.0f; p = p * r + 1.0f;
    return p * vit__bits_float((uint32_t)((int)n + 127) << 23);
}

// vit__gelu_vec of one lane
VIT__LANE float vit__gelu_lane(float x) {
    uint32_t sign = vit__float_bits(x) & 0x80000000u;
    float z = vit__bits_float(vit__float_bits(x) ^ sign) * 0.70710678118654752f; // |x| / sqrt 2
    float t = 1.0f / (z * 0.5f + 1.0f);
    float p = t * 0.17087277f - 0.82215223f;
    p = p * t + 1.48851587f; p = p * t - 1.13520398f; p = p * t + 0.27886807f; p = p * t - 0.18628806f;
    p = p * t + 0.09678418f; p = p * t + 0.37409196f; p = p * t + 1.00002368f; p = p * t - 1.26551223f;
    float e = vit__exp_neg_lane(p - z * z);
    float half_erfc = t * e * 0.5f; // erfc(|x| / sqrt 2) / 2
    return x * (sign == 0 ? 1.0f - half_erfc : half_erfc);
}

// vit__x_sigmoid_vec of one lane: x sigmoid(z)
VIT__LANE float vit__x_sigmoid_lane(float x, float z) {
    uint32_t neg = vit__float_bits(z) & 0x80000000u;
    float e = vit__bits_float(vit__float_bits(z) | 0x80000000u); // -|z|
    int clamped = e < -87.0f;
    e = vit__exp_neg_lane(e);
    float r = x * ((neg == 0 ? 1.0f : e) / (1.0f + e));
    return clamped ? (neg == 0 ? x : x * 0.0f) : r;
}

// GELU, tanh GELU or QuickGELU of v[0..16), lane by lane as the vectors do (one
// loop per activation, each a plain loop for the compiler's vectoriser)
VIT__LANE void vit__act_lanes(float *v, int act) {
    if (act == VIT__ACT_GELU)
        for (int e = 0; e < 16; e++) v[e] = vit__gelu_lane(v[e]);
    else if (act == VIT__ACT_GELU_TANH)
        for (int e = 0; e < 16; e++) v[e] = vit__x_sigmoid_lane(v[e], (v[e] * v[e] * 0.044715f + 1.0f) * v[e] * 1.59576912f);
    else
        for (int e = 0; e < 16; e++) v[e] = vit__x_sigmoid_lane(v[e], v[e] * 1.702f);
}

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
// One rounding (fmaf) on every build, whatever the compiler's contraction setting.
static VIT__HD inline float vit__epi_residual(float old, float scale, float v) { return fmaf(scale, v, old); }

// >>policy --------------------------------------------------------------------
// Every run-time choice of the CPU path: which microkernels this CPU runs
// (fp32 and int8) and how a packed GEMM is cut into tasks; first, which ISAs
// this compiler builds kernels for. The kernels live in >>op linear.
// [BENCHMARKS: CPU: GEMM] [BENCHMARKS: CPU: int8]

// ---- The kernels this compiler builds, chosen at run time, so that a binary
// built for plain x86-64 (or ARMv8.0) still uses AVX-512 and VNNI (sdot) where
// the CPU has them. Three questions, each answered once here:
// (a) the CPU family: x86 (AVX2, AVX-512, AVX-512 VNNI, AVX-VNNI kernels) or
//     64-bit ARM (NEON, sdot), for compilers with the vendors' intrinsics
//     (GCC, Clang, clang-cl, MSVC); other compilers get portable C loops;
// (b) how a function gets an ISA beyond the compiler's baseline: GCC and Clang
//     (clang-cl too) by target attributes (VIT__TARGET_*); MSVC needs none (it
//     compiles every intrinsic whatever /arch says);
// (c) whether this CPU and OS run it (vit__cpu_features): x86 by CPUID and the
//     OS's saved vector state (XCR0 by xgetbv: YMM for AVX2, opmask and ZMM for
//     AVX-512); ARM64 sdot by IsProcessorFeaturePresent (Windows), sysctlbyname
//     (macOS), getauxval (Linux).
// VIT_TEST_MSVC_BRANCH builds, with GCC or Clang, what MSVC compiles: no target
// attributes and no GNU vector extensions, the ISA from the command line
// (-mavx2 -mfma -mavx512f -mavx512bw -mavx512vnni [-mavxvnni], as MSVC takes
// every intrinsic; ARM64: -march=armv8.2-a+dotprod), CPUID through the same
// code as MSVC's, GNU inline asm standing in for __cpuidex and _xgetbv (make
// test-msvc-branch runs the CPU suite and the GEMM benchmark on such a build).
#if defined(__GNUC__) || defined(__clang__) || defined(_MSC_VER)
#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__) || defined(_M_IX86)
#define VIT__X86 1
#elif defined(__aarch64__) || defined(_M_ARM64)
#define VIT__NEON 1
#endif
#endif

#if defined(VIT__X86)
#include <immintrin.h>
#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h> // __cpuidex, _xgetbv
#endif
#if defined(VIT__MSVC_BRANCH)
#define VIT__TARGET_AVX512
#define VIT__TARGET_AVX2
#define VIT__TARGET_VNNI
#if defined(VIT_TEST_MSVC_BRANCH) && !(defined(__AVX2__) && defined(__FMA__) && defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VNNI__))
#error "VIT_TEST_MSVC_BRANCH: compile with -mavx2 -mfma -mavx512f -mavx512bw -mavx512vnni (what MSVC compiles without /arch)"
#endif
#if (defined(_MSC_VER) && !defined(__clang__) && _MSC_VER >= 1930) || defined(__AVXVNNI__) // _mm256_dpbusd_avx_epi32: Visual Studio 2022
#define VIT__AVX_VNNI 1
#define VIT__TARGET_AVX_VNNI
#endif
#else
#define VIT__TARGET_AVX512 __attribute__((target("avx512f,avx2,fma")))
#define VIT__TARGET_AVX2 __attribute__((target("avx2,fma")))
#define VIT__TARGET_VNNI __attribute__((target("avx512f,avx512bw,avx512vnni,avx2,fma")))
#if (defined(__clang__) && __clang_major__ >= 12) || (!defined(__clang__) && defined(__GNUC__) && __GNUC__ >= 11)
#define VIT__AVX_VNNI 1
#define VIT__TARGET_AVX_VNNI __attribute__((target("avxvnni,avx2,fma")))
#endif
#endif
#endif

#if defined(VIT__NEON)
#include <arm_neon.h>
#if defined(_WIN32)
#if defined(__cplusplus)
extern "C"
#endif
__declspec(dllimport) int __stdcall IsProcessorFeaturePresent(unsigned long feature); // kernel32 (windows.h's BOOL, DWORD)
#elif defined(__APPLE__)
#include <sys/types.h>
#include <sys/sysctl.h>
#elif defined(__linux__)
#include <sys/auxv.h>
#endif
// sdot: detected at run time on Windows, macOS and Linux, elsewhere when the
// compiler's target has it. Clang before 16 declares vdotq_s32 only for a
// target with it (a target attribute does not make it appear).
#if defined(__clang__) && __clang_major__ < 16 && !defined(__ARM_FEATURE_DOTPROD)
#elif defined(_WIN32) || defined(__APPLE__) || defined(__linux__) || defined(__ARM_FEATURE_DOTPROD)
#define VIT__SDOT 1
#if defined(VIT__MSVC_BRANCH)
#define VIT__TARGET_SDOT
#if defined(VIT_TEST_MSVC_BRANCH) && !defined(__ARM_FEATURE_DOTPROD)
#error "VIT_TEST_MSVC_BRANCH: compile with -march=armv8.2-a+dotprod (what MSVC compiles for ARM64)"
#endif
#elif defined(__clang__)
#define VIT__TARGET_SDOT __attribute__((target("dotprod")))
#else
#define VIT__TARGET_SDOT __attribute__((target("arch=armv8.2-a+dotprod")))
#endif
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

// What this CPU and its OS run, of the kernels above.
typedef struct vit__cpu_features {
    int avx2;     // AVX2 and FMA, YMM state saved by the OS
    int avx512;   // AVX-512 F, ZMM and opmask state saved
    int vnni;     // and AVX-512 BW and VNNI
    int avx_vnni; // AVX-VNNI (256-bit vpdpbusd), with avx2
    int sdot;     // ARMv8.2 dot product
} vit__cpu_features;

#if defined(VIT__X86)
// CPUID leaf, sub-leaf into r (eax, ebx, ecx, edx), and XCR0: MSVC's
// intrinsics, or GNU inline asm (GCC, Clang, clang-cl, MinGW), which needs no
// <cpuid.h> and no target attribute (_xgetbv wants xsave).
static void vit__cpuid(unsigned leaf, unsigned sub, unsigned r[4]) {
#if defined(_MSC_VER) && !defined(__clang__)
    int x[4];
    __cpuidex(x, (int)leaf, (int)sub);
    for (int i = 0; i < 4; i++) r[i] = (unsigned)x[i];
#else
    unsigned a, b, c, d;
    __asm__ __volatile__("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(leaf), "c"(sub));
    r[0] = a; r[1] = b; r[2] = c; r[3] = d;
#endif
}
static unsigned long long vit__xgetbv0(void) {
#if defined(_MSC_VER) && !defined(__clang__)
    return (unsigned long long)_xgetbv(0);
#else
    unsigned lo, hi;
    __asm__ __volatile__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0u));
    return ((unsigned long long)hi << 32) | lo;
#endif
}
#endif

static vit__cpu_features vit__cpu(void) {
    vit__cpu_features f;
    memset(&f, 0, sizeof(f));
#if defined(VIT__X86)
    unsigned r[4], max_leaf, l1[4], l7[4] = {0, 0, 0, 0}, l71[4] = {0, 0, 0, 0};
    vit__cpuid(0, 0, r);
    max_leaf = r[0];
    if (max_leaf < 1) return f;
    vit__cpuid(1, 0, l1);
    if (!((l1[2] >> 27) & 1) || !((l1[2] >> 28) & 1)) return f; // OSXSAVE, AVX
    unsigned long long xcr0 = vit__xgetbv0();
    int ymm = (xcr0 & 0x6) == 0x6, zmm = (xcr0 & 0xE6) == 0xE6;
#if defined(__APPLE__)
    zmm = ymm; // macOS saves the AVX-512 state from a thread's first use on: XCR0 shows it only then
#endif
    if (max_leaf >= 7) {
        vit__cpuid(7, 0, l7);
        if (l7[0] >= 1) vit__cpuid(7, 1, l71);
    }
    f.avx2 = ymm && ((l1[2] >> 12) & 1) && ((l7[1] >> 5) & 1);          // FMA, AVX2
    f.avx512 = f.avx2 && zmm && ((l7[1] >> 16) & 1);                    // AVX512F
    f.vnni = f.avx512 && ((l7[1] >> 30) & 1) && ((l7[2] >> 11) & 1);    // AVX512BW, AVX512_VNNI
    f.avx_vnni = f.avx2 && ((l71[0] >> 4) & 1);                         // AVX-VNNI
#elif defined(VIT__SDOT) && defined(__ARM_FEATURE_DOTPROD)
    f.sdot = 1;
#elif defined(VIT__SDOT) && defined(_WIN32)
    f.sdot = IsProcessorFeaturePresent(43) != 0; // PF_ARM_V82_DP_INSTRUCTIONS_AVAILABLE
#elif defined(VIT__SDOT) && defined(__APPLE__)
    int v = 0;
    size_t len = sizeof(v);
    f.sdot = sysctlbyname("hw.optional.arm.FEAT_DotProd", &v, &len, NULL, 0) == 0 && v;
#elif defined(VIT__SDOT)
    f.sdot = (getauxval(AT_HWCAP) & (1ul << 20)) != 0; // HWCAP_ASIMDDP
#endif
    return f;
}

static int vit__cpu_isa(void) {
#if defined(VIT__X86)
    vit__cpu_features f = vit__cpu();
    if (f.avx512) return VIT__ISA_AVX512;
    if (f.avx2) return VIT__ISA_AVX2;
#elif defined(VIT__NEON)
    return VIT__ISA_NEON;
#endif
    return VIT__ISA_GENERIC;
}

#if defined(VIT__X86)
// AVX-VNNI (CPUID leaf 7, sub-leaf 1, EAX bit 4) on a CPU whose OS runs AVX2.
static inline int vit__has_avx_vnni(void) { return vit__cpu().avx_vnni; }
#endif

// The int8 kernels this CPU runs: VIT__ISA_AVX512 (with VNNI), VIT__ISA_AVX_VNNI,
// VIT__ISA_AVX2, VIT__ISA_NEON (with sdot), else VIT__ISA_GENERIC.
static int vit__q8_isa(void) {
    vit__cpu_features f = vit__cpu();
#if defined(VIT__X86)
    if (f.vnni) return VIT__ISA_AVX512;
#if defined(VIT__AVX_VNNI)
    if (vit__has_avx_vnni()) return VIT__ISA_AVX_VNNI;
#endif
    if (f.avx2) return VIT__ISA_AVX2;
#elif defined(VIT__SDOT)
    if (f.sdot) return VIT__ISA_NEON;
#endif
    (void)f;
    return VIT__ISA_GENERIC;
}

// The task grid of a packed GEMM: column blocks of whole panels (an even
// count, so the two-panel tiles run), each block's weights within ~384 KB (L2,
// reused by every row block) and as many blocks as a multiple of the thread
// count, so that the static schedule hands every thread the same columns of all
// rows; row blocks of 12 k rows whose inputs fit the same budget (at most 48).
static void vit__gemm_grid(int N, size_t panel_bytes, size_t row_bytes, int nthreads, int *mb, int *nb) {
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
#if defined(VIT__GNU_VECTORS)
static VIT__FORCEINLINE void vit__linear_tile_vec(float *VIT__RESTRICT out, size_t ldo, const float *VIT__RESTRICT inp, size_t ldi,
                                                                       const float *VIT__RESTRICT w, size_t ldw, int K, const int mr, int nr,
                                                                       const float *bias, vit__out mode, vit__act act, const float *scale) {
    VIT__STATIC_ASSERT(VIT__NR == 16, "vector tile is 16 wide");
    vit__vec16 acc[VIT__MR], zero = {0};
    for (int i = 0; i < mr; i++) acc[i] = zero;
    if (nr == VIT__NR) {
        for (int k = 0; k < K; k++) {
            vit__vec16 wk;
            memcpy(&wk, w + (size_t)k * ldw, sizeof(wk));
            for (int i = 0; i < mr; i++) acc[i] += inp[(size_t)i * ldi + k] * wk;
        }
    } else { // right edge: load nr columns, the rest stay zero
        for (int k = 0; k < K; k++) {
            vit__vec16 wk = zero;
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
    for (int i0 = 0; i0 < mr; i0 += VIT__MR) { // (the attention's tiles have up to VIT__MB rows)
        int r = mr - i0 < VIT__MR ? mr - i0 : VIT__MR;
        memset(acc, 0, sizeof(acc));
        for (int k = 0; k < K; k++) {
            const float *wk = w + (size_t)k * ldw;
            for (int i = 0; i < r; i++) {
                float a = inp[(size_t)(i0 + i) * ldi + k];
                for (int j = 0; j < nr; j++) acc[i][j] = fmaf(a, wk[j], acc[i][j]); // the packed GEMM's fmaf, whatever the contraction setting
            }
        }
        for (int i = 0; i < r; i++) vit__epi_row(out + (size_t)(i0 + i) * ldo, acc[i], nr, bias, scale, mode, act);
    }
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
    int isa; // the kernels' VIT__ISA_* (MSVC's branch: whether the epilogue may use AVX2)
} vit__gemm;

#if defined(VIT__MSVC_BRANCH) && defined(VIT__X86)
// MSVC's branch of the GNU vectors of >>activations (vit__vexp_neg,
// vit__gelu_vec, vit__x_sigmoid_vec): the same operations in the same order,
// 8 lanes in an __m256 (AVX2 and FMA: every x86 kernel but the generic one's),
// an explicit FMA wherever GCC's -ffp-contract=fast fuses the vectors' a * b + c,
// so the same bits (make test-msvc-branch; the dumps of tools/dump_outputs.c).
#define VIT__M256_ACT 1
#define VIT__ISA_HAS_AVX2(isa) ((isa) == VIT__ISA_AVX2 || (isa) == VIT__ISA_AVX512 || (isa) == VIT__ISA_AVX_VNNI)
static VIT__FORCEINLINE __m256 vit__exp_neg_m256(__m256 x) {
    x = _mm256_max_ps(_mm256_set1_ps(-87.0f), x); // -87 > x ? -87 : x (NaN stays)
    __m256 n = _mm256_sub_ps(_mm256_fmadd_ps(x, _mm256_set1_ps(1.44269504f), _mm256_set1_ps(12582912.0f)), _mm256_set1_ps(12582912.0f));
    n = _mm256_and_ps(n, _mm256_cmp_ps(n, n, _CMP_ORD_Q));
    __m256 r = _mm256_fnmadd_ps(n, _mm256_set1_ps(1.42860677e-06f), _mm256_fnmadd_ps(n, _mm256_set1_ps(0.693145751953125f), x));
    __m256 p = _mm256_fmadd_ps(r, _mm256_set1_ps(1.0f / 5040), _mm256_set1_ps(1.0f / 720));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f / 120)); p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f / 24));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f / 6)); p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(0.5f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f)); p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f));
    __m256i e = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvttps_epi32(n), _mm256_set1_epi32(127)), 23);
    return _mm256_mul_ps(p, _mm256_castsi256_ps(e));
}
static VIT__FORCEINLINE __m256 vit__gelu_m256(__m256 x) {
    __m256 z = _mm256_mul_ps(_mm256_andnot_ps(_mm256_set1_ps(-0.0f), x), _mm256_set1_ps(0.70710678118654752f)); // |x| / sqrt 2
    __m256 t = _mm256_div_ps(_mm256_set1_ps(1.0f), _mm256_fmadd_ps(z, _mm256_set1_ps(0.5f), _mm256_set1_ps(1.0f)));
    __m256 p = _mm256_fmsub_ps(t, _mm256_set1_ps(0.17087277f), _mm256_set1_ps(0.82215223f));
    p = _mm256_fmadd_ps(p, t, _mm256_set1_ps(1.48851587f)); p = _mm256_fmsub_ps(p, t, _mm256_set1_ps(1.13520398f));
    p = _mm256_fmadd_ps(p, t, _mm256_set1_ps(0.27886807f)); p = _mm256_fmsub_ps(p, t, _mm256_set1_ps(0.18628806f));
    p = _mm256_fmadd_ps(p, t, _mm256_set1_ps(0.09678418f)); p = _mm256_fmadd_ps(p, t, _mm256_set1_ps(0.37409196f));
    p = _mm256_fmadd_ps(p, t, _mm256_set1_ps(1.00002368f)); p = _mm256_fmsub_ps(p, t, _mm256_set1_ps(1.26551223f));
    __m256 e = vit__exp_neg_m256(_mm256_fnmadd_ps(z, z, p));
    __m256 half_erfc = _mm256_mul_ps(_mm256_mul_ps(t, e), _mm256_set1_ps(0.5f)); // erfc(|x| / sqrt 2) / 2
    return _mm256_mul_ps(x, _mm256_blendv_ps(_mm256_sub_ps(_mm256_set1_ps(1.0f), half_erfc), half_erfc, x)); // x's sign picks
}
static VIT__FORCEINLINE __m256 vit__x_sigmoid_m256(__m256 x, __m256 z) {
    __m256 one = _mm256_set1_ps(1.0f), e = _mm256_or_ps(z, _mm256_set1_ps(-0.0f)); // e = -|z|
    __m256 clamped = _mm256_cmp_ps(e, _mm256_set1_ps(-87.0f), _CMP_LT_OQ);
    e = vit__exp_neg_m256(e);
    __m256 r = _mm256_mul_ps(x, _mm256_div_ps(_mm256_blendv_ps(one, e, z), _mm256_add_ps(one, e))); // z's sign picks
    return _mm256_blendv_ps(r, _mm256_blendv_ps(x, _mm256_mul_ps(x, _mm256_setzero_ps()), z), clamped);
}
// vit__act_lanes' activations of 8 lanes
static VIT__FORCEINLINE __m256 vit__act_m256(__m256 x, int act) {
    if (act == VIT__ACT_GELU) return vit__gelu_m256(x);
    if (act == VIT__ACT_GELU_TANH)
        return vit__x_sigmoid_m256(x, _mm256_mul_ps(_mm256_mul_ps(_mm256_fmadd_ps(_mm256_mul_ps(x, x), _mm256_set1_ps(0.044715f), _mm256_set1_ps(1.0f)), x),
                                                    _mm256_set1_ps(1.59576912f)));
    return vit__x_sigmoid_m256(x, _mm256_mul_ps(x, _mm256_set1_ps(1.702f)));
}

// The same in one __m512 (AVX-512 F: integer and/or for the sign bits, masks
// for the selections), for the AVX-512 kernels' epilogues
#define VIT__PS512(op, a, b) _mm512_castsi512_ps(op(_mm512_castps_si512(a), _mm512_castps_si512(b)))
#define VIT__NEG512(x) _mm512_cmplt_epi32_mask(_mm512_castps_si512(x), _mm512_setzero_si512()) // sign bit set
static VIT__FORCEINLINE __m512 vit__exp_neg_m512(__m512 x) {
    x = _mm512_max_ps(_mm512_set1_ps(-87.0f), x);
    __m512 n = _mm512_sub_ps(_mm512_fmadd_ps(x, _mm512_set1_ps(1.44269504f), _mm512_set1_ps(12582912.0f)), _mm512_set1_ps(12582912.0f));
    n = _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(n, n, _CMP_ORD_Q), n);
    __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(1.42860677e-06f), _mm512_fnmadd_ps(n, _mm512_set1_ps(0.693145751953125f), x));
    __m512 p = _mm512_fmadd_ps(r, _mm512_set1_ps(1.0f / 5040), _mm512_set1_ps(1.0f / 720));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 120)); p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 24));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 6)); p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(0.5f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f)); p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f));
    __m512i e = _mm512_slli_epi32(_mm512_add_epi32(_mm512_cvttps_epi32(n), _mm512_set1_epi32(127)), 23);
    return _mm512_mul_ps(p, _mm512_castsi512_ps(e));
}
static VIT__FORCEINLINE __m512 vit__gelu_m512(__m512 x) {
    __m512 z = _mm512_mul_ps(VIT__PS512(_mm512_andnot_si512, _mm512_set1_ps(-0.0f), x), _mm512_set1_ps(0.70710678118654752f));
    __m512 t = _mm512_div_ps(_mm512_set1_ps(1.0f), _mm512_fmadd_ps(z, _mm512_set1_ps(0.5f), _mm512_set1_ps(1.0f)));
    __m512 p = _mm512_fmsub_ps(t, _mm512_set1_ps(0.17087277f), _mm512_set1_ps(0.82215223f));
    p = _mm512_fmadd_ps(p, t, _mm512_set1_ps(1.48851587f)); p = _mm512_fmsub_ps(p, t, _mm512_set1_ps(1.13520398f));
    p = _mm512_fmadd_ps(p, t, _mm512_set1_ps(0.27886807f)); p = _mm512_fmsub_ps(p, t, _mm512_set1_ps(0.18628806f));
    p = _mm512_fmadd_ps(p, t, _mm512_set1_ps(0.09678418f)); p = _mm512_fmadd_ps(p, t, _mm512_set1_ps(0.37409196f));
    p = _mm512_fmadd_ps(p, t, _mm512_set1_ps(1.00002368f)); p = _mm512_fmsub_ps(p, t, _mm512_set1_ps(1.26551223f));
    __m512 e = vit__exp_neg_m512(_mm512_fnmadd_ps(z, z, p));
    __m512 half_erfc = _mm512_mul_ps(_mm512_mul_ps(t, e), _mm512_set1_ps(0.5f));
    return _mm512_mul_ps(x, _mm512_mask_blend_ps(VIT__NEG512(x), _mm512_sub_ps(_mm512_set1_ps(1.0f), half_erfc), half_erfc));
}
static VIT__FORCEINLINE __m512 vit__x_sigmoid_m512(__m512 x, __m512 z) {
    __m512 one = _mm512_set1_ps(1.0f), e = VIT__PS512(_mm512_or_si512, z, _mm512_set1_ps(-0.0f));
    __mmask16 clamped = _mm512_cmp_ps_mask(e, _mm512_set1_ps(-87.0f), _CMP_LT_OQ), neg = VIT__NEG512(z);
    e = vit__exp_neg_m512(e);
    __m512 r = _mm512_mul_ps(x, _mm512_div_ps(_mm512_mask_blend_ps(neg, one, e), _mm512_add_ps(one, e)));
    return _mm512_mask_blend_ps(clamped, r, _mm512_mask_blend_ps(neg, x, _mm512_mul_ps(x, _mm512_setzero_ps())));
}
static VIT__FORCEINLINE __m512 vit__act_m512(__m512 x, int act) {
    if (act == VIT__ACT_GELU) return vit__gelu_m512(x);
    if (act == VIT__ACT_GELU_TANH)
        return vit__x_sigmoid_m512(x, _mm512_mul_ps(_mm512_mul_ps(_mm512_fmadd_ps(_mm512_mul_ps(x, x), _mm512_set1_ps(0.044715f), _mm512_set1_ps(1.0f)), x),
                                                    _mm512_set1_ps(1.59576912f)));
    return vit__x_sigmoid_m512(x, _mm512_mul_ps(x, _mm512_set1_ps(1.702f)));
}
#endif

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
#else // the same, lane by lane
    int act = g->act;
    if ((act == VIT__ACT_GELU || act == VIT__ACT_GELU_TANH || act == VIT__ACT_QUICK_GELU) && g->mode == VIT__OUT_STORE && nr % 16 == 0) {
#if defined(VIT__M256_ACT) // acc (+ bias, or + 0 as the vectors' v += b) straight into registers
        if (g->isa == VIT__ISA_AVX512) {
            for (int i = 0; i < mr; i++)
                for (int j = 0; j < nr; j += 16) {
                    __m512 x = _mm512_add_ps(_mm512_loadu_ps(acc + 32 * i + j), g->bias ? _mm512_loadu_ps(g->bias + n + j) : _mm512_setzero_ps());
                    _mm512_storeu_ps(g->out + (size_t)(m + i) * g->ldo + n + j, vit__act_m512(x, act));
                }
            return;
        }
        if (VIT__ISA_HAS_AVX2(g->isa)) {
            for (int i = 0; i < mr; i++)
                for (int j = 0; j < nr; j += 8) {
                    __m256 x = _mm256_add_ps(_mm256_loadu_ps(acc + 32 * i + j), g->bias ? _mm256_loadu_ps(g->bias + n + j) : _mm256_setzero_ps());
                    _mm256_storeu_ps(g->out + (size_t)(m + i) * g->ldo + n + j, vit__act_m256(x, act));
                }
            return;
        }
#endif
        for (int i = 0; i < mr; i++)
            for (int j = 0; j < nr; j += 16) {
                float v[16];
                const float *a = acc + 32 * i + j, *b = g->bias ? g->bias + n + j : NULL;
                for (int e = 0; e < 16; e++) v[e] = a[e] + (b ? b[e] : 0.0f);
                vit__act_lanes(v, act);
                memcpy(g->out + (size_t)(m + i) * g->ldo + n + j, v, sizeof(v));
            }
        return;
    }
    if (glu && g->mode == VIT__OUT_STORE && nr % 2 == 0) {
        for (int i = 0; i < mr; i++)
            for (int j = 0; j < nr; j += 32) {
                int h = (nr - j < 32 ? nr - j : 32) / 2;
                const float *a = acc + 32 * i + j, *b = g->bias ? g->bias + n + j : NULL;
                float *o = g->out + (size_t)(m + i) * g->ldo + oc + j / 2;
                for (int e = 0; e < h; e++) {
                    float gate = a[2 * e] + (b ? b[2 * e] : 0.0f), up = a[2 * e + 1] + (b ? b[2 * e + 1] : 0.0f);
                    o[e] = vit__x_sigmoid_lane(gate, gate) * up;
                }
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
VIT__TARGET_AVX512 static VIT__FORCEINLINE void vit__tile_avx512(const vit__gemm *g, int m, int n, const int MR, const int NP, int pw) {
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
VIT__TARGET_AVX2 static VIT__FORCEINLINE void vit__tile_avx2(const vit__gemm *g, int m, int n, const int MR, const int PARTIAL, int pw) {
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
static VIT__FORCEINLINE void vit__tile_neon(const vit__gemm *g, int m, int n, const int MR, const int PARTIAL, int pw) {
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
    vit__gemm_grid(out_dim, (size_t)in_dim * VIT__PANEL * sizeof(float), (size_t)in_dim * sizeof(float), nthreads, &mb, &nb);
    int mblocks = (rows + mb - 1) / mb, nblocks = (out_dim + nb - 1) / nb;
    VIT_ASSERT(act != VIT__ACT_SWIGLU || out_dim % 2 == 0);
    g.out = out; g.inp = inp; g.w = packed; g.bias = bias; g.scale = scale; g.lda = (size_t)in_dim;
    g.ldo = act == VIT__ACT_SWIGLU ? (size_t)out_dim / 2 : (size_t)out_dim;
    g.rows = rows; g.K = in_dim; g.N = out_dim; g.mode = mode; g.act = act; g.isa = isa;
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
// whatever the ISA. (isa: the kernels', for MSVC's branch's max.)
static void vit__q8_rows(unsigned char *q, float *scale, const float *x, int rows, int K, int offset, int isa, int nthreads) {
    int Kp = vit__pad4(K);
    (void)nthreads; (void)isa;
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
        int k0 = 0;
#if defined(VIT__M256_ACT) // the max of |x| is the same whatever the order
        if (VIT__ISA_HAS_AVX2(isa)) {
            __m256 m8 = _mm256_setzero_ps();
            for (; k0 + 8 <= K; k0 += 8) m8 = _mm256_max_ps(_mm256_andnot_ps(_mm256_set1_ps(-0.0f), _mm256_loadu_ps(xr + k0)), m8);
            float m[8];
            _mm256_storeu_ps(m, m8);
            for (int e = 0; e < 8; e++) mx = m[e] > mx ? m[e] : mx;
        }
#endif
        for (int k = k0; k < K; k++) mx = fabsf(xr[k]) > mx ? fabsf(xr[k]) : mx;
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
// vit__q8_epilogue's arithmetic, 16 lanes at a time: (float)(sum - 128 colsum)
// * (s_x s_w), then the float epilogue. Out of line: inlined into the tile it
// made the compiler spill the accumulators.
VIT__TARGET_VNNI VIT__NOINLINE static void vit__q8_finish_vnni(const vit__q8gemm *q, int m, int n, int MR, int NP, int nr, const int *sums) {
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

VIT__TARGET_VNNI static VIT__FORCEINLINE void vit__q8_tile_vnni(const vit__q8gemm *q, int m, int n, const int MR, const int NP) {
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
VIT__TARGET_AVX2 static VIT__FORCEINLINE void vit__q8_tile_avx2(const vit__q8gemm *q, int m, int n, const int MR) {
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
VIT__TARGET_AVX_VNNI static VIT__FORCEINLINE void vit__q8_tile_avx_vnni(const vit__q8gemm *q, int m, int n, const int MR) {
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
VIT__TARGET_SDOT static VIT__FORCEINLINE void vit__q8_tile_sdot(const vit__q8gemm *q, int m, int n, const int MR) {
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
    vit__gemm_grid(N, (size_t)Kp * VIT__PANEL, (size_t)Kp, nthreads, &mb, &nb);
    int mblocks = (rows + mb - 1) / mb, nblocks = (N + nb - 1) / nb;
    q.offset = isa == VIT__ISA_AVX512 || isa == VIT__ISA_AVX_VNNI ? 128 : 0; // vpdpbusd: unsigned bytes times signed
    vit__q8_rows(qa, sa, inp, rows, w->K, q.offset, isa, nthreads);
    q.g.out = out; q.g.inp = NULL; q.g.w = NULL; q.g.bias = bias; q.g.scale = scale; q.g.lda = 0;
    q.g.ldo = act == VIT__ACT_SWIGLU ? (size_t)N / 2 : (size_t)N;
    q.g.rows = rows; q.g.K = w->K; q.g.N = N; q.g.mode = mode; q.g.act = act; q.g.isa = isa;
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
    const float two_126 = 85070591730234615865843651857942052864.0f; // 2^126, exactly (C++11 has no hex floats)
    if (!(t <= two_126)) return t == t ? two_126 : 1.0f; // (NaN: scale 1, the NaNs go through)
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
#else
        float s16[16] = {0}, v16[16] = {0};
        for (; c0 + 16 <= C; c0 += 16)
            for (int j = 0; j < 16; j++) s16[j] += x[c0 + j];
        for (int j = 0; j < 16; j++) sum += s16[j];
#endif
        for (int c = c0; c < C; c++) sum += x[c];
        float mean = sum / (float)C;
#if defined(VIT__VEC_GELU)
        for (int c = 0; c < c0; c += 16) { memcpy(&x16, x + c, sizeof(x16)); x16 -= mean; v16 += x16 * x16; }
        for (int j = 0; j < 16; j++) var += v16[j];
#else
        for (int c = 0; c < c0; c += 16)
            for (int j = 0; j < 16; j++) { float d = x[c + j] - mean; v16[j] += d * d; }
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

#ifdef VIT_TEST_HOOKS // (the reference the kernels' tests compare with; the forward pass runs vit__attention_fast)
// Parallel over (b, h); each task transposes K once (kt: D x Nk), then for
// blocks of MB query rows computes the scores S = q kt and out = softmax(S) v
// with the linear tiles. scratch: threads * (MB*Nk + D*Nk) floats.
#if defined(__GNUC__) || defined(__clang__)
__attribute__((unused)) // (a test build that does not call it)
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
#endif

// The attention's softmax over rows of S (rows, N), in place and unnormalised:
// e^(scale (s - max)), with 1 / the row's sum into inv. One body, compiled
// per ISA (the forward attention calls the one of its GEMM), so that a
// portable build's softmax still runs 16 lanes in one register. avx2: a
// constant, whether MSVC's branch may use its __m256 form.
static VIT__FORCEINLINE void vit__softmax_rows(float *S, int rows, int N, float scale, float *inv, int avx2) {
    (void)avx2;
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
            memset(&e, 0, sizeof(e));
            memcpy(&e, row + full, (size_t)(N - full) * sizeof(float));
            e = (e - mx) * scale;
            vit__vexp_neg(&e);
            memcpy(row + full, &e, (size_t)(N - full) * sizeof(float));
        }
        for (int j = 0; j < 16; j++) sum += s16[j];
        for (int j = full; j < N; j++) sum += row[j];
#else // the same, lane by lane
        float m16[16], s16[16] = {0};
        int full = N & ~15;
#if defined(VIT__M256_ACT)
        if (avx2) { // the same, two __m256 of the 16 lanes at a time
            __m256 m0 = _mm256_set1_ps(row[0]), m1 = m0, s0 = _mm256_setzero_ps(), s1 = s0, vs = _mm256_set1_ps(scale), vm;
            for (int j = 0; j < full; j += 16) { m0 = _mm256_max_ps(_mm256_loadu_ps(row + j), m0); m1 = _mm256_max_ps(_mm256_loadu_ps(row + j + 8), m1); }
            _mm256_storeu_ps(m16, m0); _mm256_storeu_ps(m16 + 8, m1);
            for (int j = 0; j < 16; j++) mx = m16[j] > mx ? m16[j] : mx;
            for (int j = full; j < N; j++) mx = row[j] > mx ? row[j] : mx;
            vm = _mm256_set1_ps(mx);
            for (int j = 0; j < full; j += 16) {
                __m256 e0 = vit__exp_neg_m256(_mm256_mul_ps(_mm256_sub_ps(_mm256_loadu_ps(row + j), vm), vs));
                __m256 e1 = vit__exp_neg_m256(_mm256_mul_ps(_mm256_sub_ps(_mm256_loadu_ps(row + j + 8), vm), vs));
                _mm256_storeu_ps(row + j, e0); _mm256_storeu_ps(row + j + 8, e1);
                s0 = _mm256_add_ps(s0, e0); s1 = _mm256_add_ps(s1, e1);
            }
            for (int j = full; j < N; j++) row[j] = vit__exp_neg_lane((row[j] - mx) * scale);
            _mm256_storeu_ps(s16, s0); _mm256_storeu_ps(s16 + 8, s1);
            for (int j = 0; j < 16; j++) sum += s16[j];
            for (int j = full; j < N; j++) sum += row[j];
            inv[i] = 1.0f / sum;
            continue;
        }
#endif
        for (int j = 0; j < 16; j++) m16[j] = row[0];
        for (int j = 0; j < full; j += 16)
            for (int l = 0; l < 16; l++) m16[l] = row[j + l] > m16[l] ? row[j + l] : m16[l];
        for (int j = 0; j < 16; j++) mx = m16[j] > mx ? m16[j] : mx;
        for (int j = full; j < N; j++) mx = row[j] > mx ? row[j] : mx;
        for (int j = 0; j < full; j += 16)
            for (int l = 0; l < 16; l++) { row[j + l] = vit__exp_neg_lane((row[j + l] - mx) * scale); s16[l] += row[j + l]; }
        for (int j = full; j < N; j++) row[j] = vit__exp_neg_lane((row[j] - mx) * scale);
        for (int j = 0; j < 16; j++) sum += s16[j];
        for (int j = full; j < N; j++) sum += row[j];
#endif
        inv[i] = 1.0f / sum;
    }
}

typedef void (*vit__softmax_fn)(float *S, int rows, int N, float scale, float *inv);
static void vit__softmax_generic(float *S, int rows, int N, float scale, float *inv) { vit__softmax_rows(S, rows, N, scale, inv, 0); }
#if defined(VIT__X86)
VIT__TARGET_AVX512 static void vit__softmax_avx512(float *S, int rows, int N, float scale, float *inv) { vit__softmax_rows(S, rows, N, scale, inv, 1); }
VIT__TARGET_AVX2 static void vit__softmax_avx2(float *S, int rows, int N, float scale, float *inv) { vit__softmax_rows(S, rows, N, scale, inv, 1); }
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
// The classifier head on the CPU.

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

// >>forward -------------------------------------------------------------------
// The fp32 CPU forward pass (vit__forward_host): embedding, the blocks' linears
// (fp32, int8, e4m3), attention pooling, features, text towers: the ops of
// the >>op sections, in order. Every op is also the reference its CUDA kernel
// is tested against. Threads split outputs, never a sum, so results do not
// depend on the thread count.

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

#ifndef VIT_NO_TEXT
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
    if (t->text_pool == VIT__TEXT_POOL_FIRST) return 0;
    if (t->text_pool == VIT__TEXT_POOL_ARGMAX) {
        for (int i = 1; i < N; i++) at = ids[i] > ids[at] ? i : at;
        return at;
    }
    for (int i = 0; i < N; i++)
        if (ids[i] == t->eos_id) return i;
    return -1;
}
#endif

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
#ifndef VIT_NO_TEXT
    if (ids) { // token rows + position rows
        vit__embed_ids(m->x, ids, m->tok_embed, m->pos_embed, B, N, C);
    } else
#else
    (void)ids;
#endif
    { // patch tokens into xn, then x = [prefix tokens | patches + pos] (the prefix tokens' position rows are folded in at load)
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
#ifndef VIT_NO_TEXT
    if (ids) { // a text tower pools one token per text (vit__text_pool_at), then its final norm
        for (int b = 0; b < B; b++)
            memcpy(m->pooled + (size_t)b * C, m->x + (size_t)b * NC + (size_t)vit__text_pool_at(m, ids + (size_t)b * N, N) * C, (size_t)C * sizeof(float));
        vit__layernorm_cpu(m->pooled, m->pooled, m->norm_w, m->norm_b, B, C, (size_t)C, c->eps, nt);
        return;
    }
#endif
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

// >>load ----------------------------------------------------------------------
// vit_load, vit_load_memory, vit_free: safetensors -> config -> weights -> the
// CPU's packing and quantisation, or the GPU's upload (>>cuda).

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
    if (L->open_clip) { // CLIP: the text tower at the top level; CustomTextCLIP (SigLIP's): under text.
        L->text_prefix = vit__find(L, "text.token_embedding.weight") ? "text." : vit__find(L, "token_embedding.weight") ? "" : NULL;
        L->text_fam = VIT__FAM_OPEN_CLIP_TEXT;
        if (!L->text_prefix) return vit__fail(L->err, VIT_ERROR_MISSING_TENSOR, "an open_clip file without its text tower (no token_embedding.weight)");
    } else if ((clip || L->fam == VIT__FAM_HF_SIGLIP) && !strcmp(L->prefix, "vision_model.") && vit__find(L, "text_model.embeddings.token_embedding.weight")) {
        L->text_prefix = "text_model.";
        L->text_fam = clip ? VIT__FAM_HF_CLIP_TEXT : VIT__FAM_HF_SIGLIP_TEXT;
    } else return VIT_OK;
    const char *prefix = L->prefix;
    vit__family fam = L->fam;
#ifdef VIT_NO_TEXT
    // the text tower's tensors (its names, blocks 0.. while they last) marked read, unloaded: the image tower alone
    (void)m;
    L->fam = L->text_fam;
    L->prefix = L->text_prefix;
    char name[192];
    for (int r = 0; r < VIT__R_LN1_W; r++) {
        vit__tensor *t = vit__role(L, r, 0, name, sizeof(name));
        if (t) t->used = 1;
    }
    for (int l = 0; l < VIT_MAX_DEPTH && vit__has(L, VIT__R_LN1_W, l); l++)
        for (int r = VIT__R_LN1_W; r <= VIT__R_FC2_B; r++) {
            vit__tensor *t = vit__role(L, r, l, name, sizeof(name));
            if (t) t->used = 1;
        }
    L->fam = fam;
    L->prefix = prefix;
    return VIT_OK;
#else
    vit__text_stated s;
    vit_status st = vit__read_text_config(L, clip, &s);
    // (open_clip loads a CLIP file's top-level text tower into a CustomTextCLIP, converting the names; not the reverse)
    if (st == VIT_OK && L->open_clip && L->text_prefix[0] && !L->open_clip_custom)
        st = vit__fail(L->err, VIT_ERROR_SHAPE_MISMATCH, "the text tower is under text. (a CustomTextCLIP's) but open_clip_config.json's model_cfg has no custom_text");
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
    L->fam = L->text_fam;
    L->prefix = L->text_prefix;
    st = vit__infer_text(L, t, &s);
    const vit_config *c = &m->cfg, *tc = &t->cfg;
    int image_width = c->projection ? c->num_classes : c->dim; // what vit_image_embeds gives
    if (st == VIT_OK && L->open_clip && image_width != tc->num_classes)
        st = vit__fail(L->err, VIT_ERROR_SHAPE_MISMATCH, "the text embeddings are %d wide but the image embeddings %d (%s)", tc->num_classes, image_width,
                       c->projection ? "the image projection's" : "the pooled features");
    else if (st == VIT_OK && clip && (!c->projection || c->num_classes != tc->num_classes))
        st = vit__fail(L->err, c->projection ? VIT_ERROR_SHAPE_MISMATCH : VIT_ERROR_MISSING_TENSOR, "the text embeddings are %d wide but %s", tc->num_classes,
                       c->projection ? "visual_projection.weight makes image embeddings of another width" : "there is no visual_projection.weight");
    if (st == VIT_OK && !L->open_clip && !clip && c->dim != tc->num_classes)
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
#endif
}

// Step 2, once the image model is placed (its device, dtype and residual
// stream known): the text tower's weights loaded and readied for the image
// model's device (a CUDA model's on its GPU, in its dtype), and m's config told.
static vit_status vit__text_build(vit__loader *L, vit_model *m) {
#ifdef VIT_NO_TEXT
    (void)L; (void)m;
    return VIT_OK;
#else
    vit_model *t = m->text;
    if (!t) return VIT_OK;
    char *err = L->err;
    const char *prefix = L->prefix;
    vit__family fam = L->fam;
    int cpu = m->cfg.device == VIT_DEVICE_CPU;
    vit_status st = VIT_OK;
    int sigmoid = L->open_clip ? L->open_clip_bias : fam == VIT__FAM_HF_SIGLIP; // (open_clip: SigLIP's have a logit_bias)
    if (t->weights_count > SIZE_MAX / sizeof(float)) st = vit__fail(err, VIT_ERROR_LIMIT, "text tower size overflows");
    else if (!(t->weights = (float *)vit__malloc(&t->alloc, t->weights_count * sizeof(float))))
        st = vit__fail(err, VIT_ERROR_OUT_OF_MEMORY, "out of memory for %zu bytes of text tower weights", t->weights_count * sizeof(float));
    if (st == VIT_OK) {
        vit__bump place = {t->weights, 0};
        vit__layout(t, &place, 1, 1);
        L->fam = L->text_fam;
        L->prefix = L->text_prefix;
        st = vit__load_weights(L, t, 1);
        L->fam = fam;
        L->prefix = prefix;
    }
    int gpu = 0;
#ifdef VIT__CUDA
    if (st == VIT_OK && !cpu) { // on the image model's GPU, in its dtype (vit_kernels.cuh)
        st = vit__text_cuda_init(m, t, err);
        gpu = st == VIT_OK;
    }
#endif
    if (!gpu) {
        t->cfg.device = VIT_DEVICE_CPU;
        t->cfg.dtype = VIT_DTYPE_F32;
        t->cfg.residual_dtype = cpu ? m->cfg.residual_dtype : VIT_DTYPE_F32;
    }
    if (st == VIT_OK && !gpu) st = vit__alloc_scratch(t, err);
    if (st == VIT_OK && cpu && m->cfg.dtype == VIT_DTYPE_INT8) st = vit__quantize_cpu(t, err);
    if (st == VIT_OK && t->cfg.dtype == VIT_DTYPE_INT8) st = vit__drop_block_linears(t, err);
    if (st == VIT_OK && cpu && m->cfg.dtype == VIT_DTYPE_FP8) st = vit__e4m3_cpu(t, err);
    if (st == VIT_OK && !gpu) st = vit__pack_cpu(t, vit__cpu_isa(), err);
    if (st != VIT_OK) return st;
    vit_config *c = &m->cfg;
    c->has_text = 1;
    c->text_context = t->cfg.num_tokens;
    c->text_vocab = t->vocab;
    c->embed_dim = t->cfg.num_classes;
    c->match = sigmoid ? VIT_MATCH_SIGMOID : VIT_MATCH_SOFTMAX;
    c->logit_scale = (float)exp((double)t->logit_scale);
    c->logit_bias = t->logit_bias;
    return VIT_OK;
#endif
}

// The config's messages name config.json; an open_clip model's is open_clip_config.json.
static void vit__open_clip_error(char *err) {
    char *at = strstr(err, "config.json");
    if (!at || (at != err && at[-1] != ' ')) return; // (not open_clip_config.json, tokenizer_config.json, ...)
    char copy[VIT__ERR_LEN];
    snprintf(copy, sizeof(copy), "%.*sopen_clip_%s", (int)(at - err), err, at);
    memcpy(err, copy, strlen(copy) + 1);
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
    char note[VIT__ERR_LEN]; // VIT_DEVICE_DEFAULT on the CPU in a CUDA build: why (vit_last_error after the load)
    note[0] = 0;
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
        m->error[0] = 0; // (vit__cuda_init leaves in it why a VIT_DEVICE_DEFAULT model stays on the CPU)
        st = vit__cuda_init(m, &o, err);
        if (st == VIT_OK && m->cfg.device == VIT_DEVICE_CPU) memcpy(note, m->error, VIT__ERR_LEN);
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
    if (st != VIT_OK && L.open_clip) vit__open_clip_error(err);
    if (st != VIT_OK) {
        vit_free(m);
        return st;
    }
    memcpy(m->error, note, VIT__ERR_LEN);
    *out = m;
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
    // a folder: the file vit__folder_model picks there
    const char *file = safetensors_path;
    size_t plen = strlen(file);
    int sharded = plen >= 11 && !strcmp(file + plen - 11, ".index.json");
    if (vit__is_dir(file)) {
        if (plen + 40 > sizeof(path)) return vit__fail(vit__load_error, VIT_ERROR_IO, "folder path '%.200s...' is too long", file);
        snprintf(path, sizeof(path), "%s%s", file, plen && (file[plen - 1] == '/' || file[plen - 1] == '\\') ? "" : "/");
        int kind = vit__folder_model(path, model, sizeof(model));
        if (!kind)
            return vit__fail(vit__load_error, VIT_ERROR_IO, "'%s' is a folder with none of model.safetensors, model.safetensors.index.json, open_clip_model.safetensors", file);
        sharded = kind == 2;
        file = model;
    }
    // open_clip_model.safetensors (or open_clip_pytorch_model.safetensors): its config is open_clip_config.json, with the preprocessing
    int open_clip = vit__open_clip_file(file);
    if (!sharded) st = vit__read_file(file, &o.allocator, 0, &data, &size, vit__load_error);
    if (st == VIT_OK) {
        if (o.config_path) {
            if (o.config_path[0]) st = vit__read_file(o.config_path, &o.allocator, 0, &cfg, &cfg_size, vit__load_error);
        } else if (vit__sibling(file, open_clip ? "open_clip_config.json" : "config.json", path, sizeof(path))) {
            st = vit__read_file(path, &o.allocator, 1, &cfg, &cfg_size, vit__load_error);
        }
    }
    if (st == VIT_OK && !open_clip && !(o.config_path && !o.config_path[0]) && vit__sibling(file, "preprocessor_config.json", path, sizeof(path)))
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

// >>run -----------------------------------------------------------------------
// The calls on a loaded model: forward and embed (float images, 8-bit frames,
// files, device pointers), text towers, zero-shot, features; checks, then the
// CPU or the GPU.

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

#ifdef VIT_NO_TEXT
// VIT_NO_TEXT: the text calls the header declares, each answering VIT_ERROR_UNSUPPORTED.
static vit_status vit__no_text(vit_model *m, const char *fn) {
    if (!m) return VIT_ERROR_INVALID_ARGUMENT;
    return vit__fail(m->error, VIT_ERROR_UNSUPPORTED, "%s: vit.h was built with VIT_NO_TEXT (no text towers)", fn);
}

VITDEF vit_status vit_encode_ids(vit_model *m, const int *ids, int n, float *out) {
    (void)ids; (void)n; (void)out;
    return vit__no_text(m, "vit_encode_ids");
}

VITDEF vit_status vit_image_embeds(vit_model *m, const float *images, int n, float *out) {
    (void)images; (void)n; (void)out;
    return vit__no_text(m, "vit_image_embeds");
}

#ifndef VIT_NO_TOKENIZER
VITDEF vit_status vit_encode_texts(vit_model *m, vit_tokenizer *t, const char *const *texts, int n, const char *prompt_template, float *out) {
    (void)t; (void)texts; (void)n; (void)prompt_template; (void)out;
    return vit__no_text(m, "vit_encode_texts");
}
#endif

VITDEF vit_status vit_zero_shot(vit_model *m, const float *image_embeds, int n, const float *label_embeds, int k, float *logits, float *probs) {
    (void)image_embeds; (void)n; (void)label_embeds; (void)k; (void)logits; (void)probs;
    return vit__no_text(m, "vit_zero_shot");
}
#else

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
#ifdef VIT__CUDA
        if (t->cfg.device == VIT_DEVICE_CUDA) { // the tower on the GPU
            st = vit__text_cuda(t, ids + (size_t)i0 * L, B, out + (size_t)i0 * E);
            if (st != VIT_OK) { memcpy(m->error, t->error, VIT__ERR_LEN); return st; }
            continue;
        }
#endif
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

#ifndef VIT_NO_TOKENIZER
// prompt_template.format(text) (Python's, for templates of one "{}") into out
// (NULL: the length only); -1 for a template of another form.
static long long vit__prompt(const char *tmpl, const char *text, char *out) {
    size_t at = 0, tl = strlen(text);
    int fields = 0;
    for (const char *p = tmpl; *p; p++) {
        if ((p[0] == '{' && p[1] == '{') || (p[0] == '}' && p[1] == '}')) { if (out) out[at] = *p; at++; p++; continue; }
        if (p[0] == '{' && p[1] == '}') { if (out) memcpy(out + at, text, tl); at += tl; p++; fields++; continue; }
        if (*p == '{' || *p == '}') return -1;
        if (out) out[at] = *p;
        at++;
    }
    if (out) out[at] = 0;
    return fields == 1 ? (long long)at : -1;
}

VITDEF vit_status vit_encode_texts(vit_model *m, vit_tokenizer *t, const char *const *texts, int n, const char *prompt_template, float *out) {
    static const char *fn = "vit_encode_texts";
    if (!m) return VIT_ERROR_INVALID_ARGUMENT;
    if (m->preprocess_only) return vit__weightless(m, fn);
    vit_status st = vit__need_text(m, fn);
    if (st != VIT_OK) return st;
    if (!t || !texts || !out || n < 1) return vit__fail(m->error, VIT_ERROR_INVALID_ARGUMENT, "%s: t, texts and out must be non-NULL and n >= 1 (n = %d)", fn, n);
    const vit_tokenizer_config *tc = vit_tokenizer_get_config(t);
    int L = m->cfg.text_context, oc_model = m->cfg.source == VIT_SOURCE_OPEN_CLIP;
    if (tc->open_clip != oc_model)
        return vit__fail(m->error, VIT_ERROR_INVALID_ARGUMENT, "%s: the tokenizer is %s's (%s) but the model is %s's: load the tokenizer the same way as the model "
                         "(vit_tokenizer_load of the path given to vit_load)", fn, tc->open_clip ? "open_clip" : "transformers", tc->source, oc_model ? "open_clip" : "transformers");
    if (tc->context != L)
        return vit__fail(m->error, VIT_ERROR_INVALID_ARGUMENT, "%s: the tokenizer makes %d ids per text (%s) but the text tower takes %d", fn, tc->context,
                         tc->source, L);
    if (tc->vocab_size > m->cfg.text_vocab)
        return vit__fail(m->error, VIT_ERROR_INVALID_ARGUMENT, "%s: the tokenizer's vocabulary (%d ids, %s) is larger than the text tower's (%d)", fn, tc->vocab_size,
                         tc->source, m->cfg.text_vocab);
    size_t longest = 0;
    for (int i = 0; i < n; i++) {
        if (!texts[i]) return vit__fail(m->error, VIT_ERROR_INVALID_ARGUMENT, "%s: text %d is NULL", fn, i);
        long long len = prompt_template ? vit__prompt(prompt_template, texts[i], NULL) : (long long)strlen(texts[i]);
        if (len < 0)
            return vit__fail(m->error, VIT_ERROR_INVALID_ARGUMENT, "%s: prompt_template '%.200s' must hold one \"{}\" (the text), other braces doubled", fn, prompt_template);
        longest = (size_t)len > longest ? (size_t)len : longest;
    }
    size_t ids_bytes;
    if (!vit__mul((size_t)n, (size_t)L * sizeof(int), &ids_bytes) || longest > SIZE_MAX - ids_bytes - 1)
        return vit__fail(m->error, VIT_ERROR_LIMIT, "%s: %d texts overflow", fn, n);
    int *ids = (int *)vit__malloc(&m->alloc, ids_bytes + longest + 1);
    if (!ids) return vit__fail(m->error, VIT_ERROR_OUT_OF_MEMORY, "%s: out of memory for %d texts' ids", fn, n);
    char *text = (char *)(ids + (size_t)n * L);
    for (int i = 0; i < n && st == VIT_OK; i++) {
        const char *s = texts[i];
        if (prompt_template) { vit__prompt(prompt_template, texts[i], text); s = text; }
        if ((st = vit_tokenize(t, s, strlen(s), ids + (size_t)i * L, L, NULL)) != VIT_OK)
            vit__fail(m->error, st, "%s: text %d: %s", fn, i, vit_tokenizer_last_error(t));
    }
    if (st == VIT_OK) st = vit_encode_ids(m, ids, n, out);
    vit__free(&m->alloc, ids);
    return st;
}
#endif

// 1 / the L2 norm of each of n rows of E floats, in double, into inv.
static void vit__inv_norms(const float *rows, size_t n, size_t E, double *inv) {
    for (size_t i = 0; i < n; i++) {
        double ss = 0.0;
        for (size_t e = 0; e < E; e++) ss += (double)rows[i * E + e] * rows[i * E + e];
        inv[i] = 1.0 / sqrt(ss);
    }
}

VITDEF vit_status vit_zero_shot(vit_model *m, const float *image_embeds, int n, const float *label_embeds, int k, float *logits, float *probs) {
    static const char *fn = "vit_zero_shot";
    if (!m) return VIT_ERROR_INVALID_ARGUMENT;
    vit_status st = vit__need_text(m, fn);
    if (st != VIT_OK) return st;
    if (!image_embeds || !label_embeds || (!logits && !probs) || n < 1 || k < 1)
        return vit__fail(m->error, VIT_ERROR_INVALID_ARGUMENT, "%s: embeddings must be non-NULL, logits or probs too, and n, k >= 1 (n = %d, k = %d)", fn, n, k);
    const vit_config *c = &m->cfg;
    size_t E = (size_t)c->embed_dim, K = (size_t)k;
    int nt = m->num_threads > 0 ? m->num_threads : 1;
    // the labels' norms once; each image's logits (logit_scale * cosine (+ logit_bias)) in double, a row per thread
    double *inv = (double *)vit__malloc(&m->alloc, (K + (size_t)nt * K) * sizeof(double));
    if (!inv) return vit__fail(m->error, VIT_ERROR_OUT_OF_MEMORY, "%s: out of memory for %d labels", fn, k);
    vit__inv_norms(label_embeds, K, E, inv);
    double bias = c->match == VIT_MATCH_SIGMOID ? c->logit_bias : 0.0;
    VIT__PARALLEL_FOR(nt)
    for (int i = 0; i < n; i++) {
        const float *a = image_embeds + (size_t)i * E;
        double *row = inv + K + (size_t)VIT__THREAD_ID() * K, ina, mx = -HUGE_VAL, sum = 0.0;
        vit__inv_norms(a, 1, E, &ina);
        for (size_t j = 0; j < K; j++) {
            const float *b = label_embeds + j * E;
            double dot = 0.0;
            for (size_t e = 0; e < E; e++) dot += (double)a[e] * b[e];
            row[j] = c->logit_scale * (dot * ina * inv[j]) + bias;
            if (logits) logits[(size_t)i * K + j] = (float)row[j];
            mx = row[j] > mx ? row[j] : mx;
        }
        if (!probs) continue;
        if (c->match == VIT_MATCH_SIGMOID) {
            for (size_t j = 0; j < K; j++) probs[(size_t)i * K + j] = (float)(1.0 / (1.0 + exp(-row[j])));
            continue;
        }
        for (size_t j = 0; j < K; j++) sum += (row[j] = exp(row[j] - mx)); // the softmax, shifted by the largest
        for (size_t j = 0; j < K; j++) probs[(size_t)i * K + j] = (float)(row[j] / sum);
    }
    vit__free(&m->alloc, inv);
    return VIT_OK;
}
#endif // VIT_NO_TEXT

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

#ifndef VIT__NO_TOKENIZER
// >>tables ----------------------------------------------------------------------
// Generated data, written by the tools named below and checked by their --check
// (make lint runs none of them: each needs its Python packages). The arrays are
// declared where the code uses them (the declarations blocks in >>tokenize ...).

// >>tables unicode ------------------------------------------------------------
// python3 tools/make_unicode_tables.py [--check]: Unicode 14.0 categories and
// case, NFC of 9.0 (>>tokenize unicode).

// ---- Unicode tables: begin (tools/make_unicode_tables.py; do not edit)
// Python 3.11.7's unicodedata: Unicode 14.0.0
VIT__TABLES_BEGIN
VIT__TABLE uint32_t vit__uni_props[2461] = {
    0x0, 0x4e8, 0x500, 0x5c8, 0x5e0, 0x602, 0x748, 0x760, 0x825, 0xb60,
    0xbc8, 0xbe0, 0xc08, 0xc25, 0xf60, 0x1508, 0x1520, 0x1545, 0x1560, 0x15a8,
    0x15c0, 0x15e8, 0x1600, 0x1642, 0x1688, 0x16a5, 0x16c0, 0x16e8, 0x1722, 0x1745,
    0x1760, 0x1782, 0x17e0, 0x1805, 0x1ae0, 0x1b05, 0x1ee0, 0x1f05, 0x3761, 0x3785,
    0x3801, 0x3885, 0x5281, 0x52a5, 0x5609, 0x5848, 0x58c9, 0x5a48, 0x5c09, 0x5ca8,
    0x5d89, 0x5da8, 0x5dc9, 0x5de8, 0x6e05, 0x6e89, 0x6ea8, 0x6ec5, 0x6f10, 0x6f49,
    0x6f65, 0x6fc0, 0x6fe5, 0x7010, 0x7088, 0x70c5, 0x70e8, 0x7105, 0x7170, 0x7185,
    0x71b0, 0x71c5, 0x7450, 0x7465, 0x7ec0, 0x7ee5, 0x9040, 0x9068, 0x9145, 0xa610,
    0xa625, 0xaaf0, 0xab29, 0xab40, 0xabe8, 0xac05, 0xb120, 0xb170, 0xb1a0, 0xb210,
    0xb228, 0xb7c0, 0xb7e8, 0xb800, 0xb828, 0xb860, 0xb888, 0xb8c0, 0xb8e8, 0xb910,
    0xba01, 0xbd70, 0xbde1, 0xbe60, 0xbe88, 0xbeb0, 0xc008, 0xc0c0, 0xc208, 0xc360,
    0xc388, 0xc3a0, 0xc401, 0xc809, 0xc821, 0xc968, 0xcc02, 0xcd40, 0xcdc1, 0xce08,
    0xce21, 0xda80, 0xdaa1, 0xdac8, 0xdbc0, 0xdbe8, 0xdca9, 0xdce8, 0xdd20, 0xdd48,
    0xddc1, 0xde02, 0xdf41, 0xdfa0, 0xdfe1, 0xe000, 0xe1d0, 0xe1e8, 0xe201, 0xe228,
    0xe241, 0xe608, 0xe970, 0xe9a1, 0xf4c8, 0xf621, 0xf650, 0xf802, 0xf941, 0xfd68,
    0xfe89, 0xfec0, 0xff49, 0xff70, 0xffa8, 0xffc0, 0x10001, 0x102c8, 0x10349, 0x10368,
    0x10489, 0x104a8, 0x10509, 0x10528, 0x105d0, 0x10600, 0x107f0, 0x10801, 0x10b28, 0x10b90,
    0x10bc0, 0x10bf0, 0x10c01, 0x10d70, 0x10e01, 0x11108, 0x11121, 0x111f0, 0x11208, 0x11250,
    0x11308, 0x11401, 0x11929, 0x11948, 0x12060, 0x12081, 0x12748, 0x12760, 0x12788, 0x127a1,
    0x127c0, 0x12828, 0x12920, 0x129a8, 0x129c0, 0x12a01, 0x12a28, 0x12b01, 0x12c48, 0x12c80,
    0x12cc2, 0x12e00, 0x12e29, 0x12e41, 0x13028, 0x13040, 0x13090, 0x130a1, 0x131b0, 0x131e1,
    0x13230, 0x13261, 0x13530, 0x13541, 0x13630, 0x13641, 0x13670, 0x136c1, 0x13750, 0x13788,
    0x137a1, 0x137c0, 0x13828, 0x138b0, 0x138e0, 0x13930, 0x13960, 0x139a8, 0x139c1, 0x139f0,
    0x13ae0, 0x13b10, 0x13b81, 0x13bd0, 0x13be1, 0x13c48, 0x13c90, 0x13cc2, 0x13e01, 0x13e40,
    0x13e82, 0x13f40, 0x13f81, 0x13fa0, 0x13fc8, 0x13ff0, 0x14028, 0x14060, 0x14090, 0x140a1,
    0x14170, 0x141e1, 0x14230, 0x14261, 0x14530, 0x14541, 0x14630, 0x14641, 0x14690, 0x146a1,
    0x146f0, 0x14701, 0x14750, 0x14788, 0x147b0, 0x147c0, 0x14828, 0x14870, 0x148e8, 0x14930,
    0x14968, 0x149d0, 0x14a28, 0x14a50, 0x14b21, 0x14bb0, 0x14bc1, 0x14bf0, 0x14cc2, 0x14e08,
    0x14e41, 0x14ea8, 0x14ec0, 0x14ef0, 0x15028, 0x15060, 0x15090, 0x150a1, 0x151d0, 0x151e1,
    0x15250, 0x15261, 0x15530, 0x15541, 0x15630, 0x15641, 0x15690, 0x156a1, 0x15750, 0x15788,
    0x157a1, 0x157c0, 0x15828, 0x158d0, 0x158e8, 0x15920, 0x15950, 0x15960, 0x159a8, 0x159d0,
    0x15a01, 0x15a30, 0x15c01, 0x15c48, 0x15c90, 0x15cc2, 0x15e00, 0x15e50, 0x15f21, 0x15f48,
    0x16010, 0x16028, 0x16040, 0x16090, 0x160a1, 0x161b0, 0x161e1, 0x16230, 0x16261, 0x16530,
    0x16541, 0x16630, 0x16641, 0x16690, 0x166a1, 0x16750, 0x16788, 0x167a1, 0x167c0, 0x167e8,
    0x16800, 0x16828, 0x168b0, 0x168e0, 0x16930, 0x16960, 0x169a8, 0x169d0, 0x16aa8, 0x16ae0,
    0x16b10, 0x16b81, 0x16bd0, 0x16be1, 0x16c48, 0x16c90, 0x16cc2, 0x16e00, 0x16e21, 0x16e42,
    0x16f10, 0x17048, 0x17061, 0x17090, 0x170a1, 0x17170, 0x171c1, 0x17230, 0x17241, 0x172d0,
    0x17321, 0x17370, 0x17381, 0x173b0, 0x173c1, 0x17410, 0x17461, 0x174b0, 0x17501, 0x17570,
    0x175c1, 0x17750, 0x177c0, 0x17808, 0x17820, 0x17870, 0x178c0, 0x17930, 0x17940, 0x179a8,
    0x179d0, 0x17a01, 0x17a30, 0x17ae0, 0x17b10, 0x17cc2, 0x17e60, 0x17f70, 0x18008, 0x18020,
    0x18088, 0x180a1, 0x181b0, 0x181c1, 0x18230, 0x18241, 0x18530, 0x18541, 0x18750, 0x18788,
    0x187a1, 0x187c8, 0x18820, 0x188b0, 0x188c8, 0x18930, 0x18948, 0x189d0, 0x18aa8, 0x18af0,
    0x18b01, 0x18b70, 0x18ba1, 0x18bd0, 0x18c01, 0x18c48, 0x18c90, 0x18cc2, 0x18e10, 0x18ee0,
    0x18f02, 0x18fe0, 0x19001, 0x19028, 0x19040, 0x190a1, 0x191b0, 0x191c1, 0x19230, 0x19241,
    0x19530, 0x19541, 0x19690, 0x196a1, 0x19750, 0x19788, 0x197a1, 0x197c0, 0x197e8, 0x19800,
    0x198b0, 0x198c8, 0x198e0, 0x19930, 0x19940, 0x19988, 0x199d0, 0x19aa0, 0x19af0, 0x19ba1,
    0x19bf0, 0x19c01, 0x19c48, 0x19c90, 0x19cc2, 0x19e10, 0x19e21, 0x19e70, 0x1a008, 0x1a040,
    0x1a081, 0x1a1b0, 0x1a1c1, 0x1a230, 0x1a241, 0x1a768, 0x1a7a1, 0x1a7c0, 0x1a828, 0x1a8b0,
    0x1a8c0, 0x1a930, 0x1a940, 0x1a9a8, 0x1a9c1, 0x1a9e0, 0x1aa10, 0x1aa81, 0x1aae0, 0x1ab02,
    0x1abe1, 0x1ac48, 0x1ac90, 0x1acc2, 0x1af20, 0x1af41, 0x1b010, 0x1b028, 0x1b040, 0x1b090,
    0x1b0a1, 0x1b2f0, 0x1b341, 0x1b650, 0x1b661, 0x1b790, 0x1b7a1, 0x1b7d0, 0x1b801, 0x1b8f0,
    0x1b948, 0x1b970, 0x1b9e0, 0x1ba48, 0x1bab0, 0x1bac8, 0x1baf0, 0x1bb00, 0x1bc10, 0x1bcc2,
    0x1be10, 0x1be40, 0x1beb0, 0x1c021, 0x1c628, 0x1c641, 0x1c688, 0x1c770, 0x1c7e0, 0x1c801,
    0x1c8c9, 0x1c8e8, 0x1c9e0, 0x1ca02, 0x1cb40, 0x1cb90, 0x1d021, 0x1d070, 0x1d081, 0x1d0b0,
    0x1d0c1, 0x1d170, 0x1d181, 0x1d490, 0x1d4a1, 0x1d4d0, 0x1d4e1, 0x1d628, 0x1d641, 0x1d688,
    0x1d7a1, 0x1d7d0, 0x1d801, 0x1d8b0, 0x1d8c9, 0x1d8f0, 0x1d908, 0x1d9d0, 0x1da02, 0x1db50,
    0x1db81, 0x1dc10, 0x1e001, 0x1e020, 0x1e308, 0x1e340, 0x1e402, 0x1e680, 0x1e6a8, 0x1e6c0,
    0x1e6e8, 0x1e700, 0x1e728, 0x1e740, 0x1e801, 0x1e910, 0x1e921, 0x1edb0, 0x1ee28, 0x1efe0,
    0x1f008, 0x1f0a0, 0x1f0c8, 0x1f101, 0x1f1a8, 0x1f310, 0x1f328, 0x1f7b0, 0x1f7c0, 0x1f8c8,
    0x1f8e0, 0x1f9b0, 0x1f9c0, 0x1fb70, 0x20001, 0x20560, 0x205a8, 0x20620, 0x20648, 0x20700,
    0x20728, 0x20760, 0x207a8, 0x207e1, 0x20802, 0x20940, 0x20a01, 0x20ac0, 0x20b08, 0x20b41,
    0x20bc8, 0x20c21, 0x20c40, 0x20ca1, 0x20ce0, 0x20dc1, 0x20e28, 0x20ea1, 0x21048, 0x21060,
    0x210a8, 0x210e0, 0x211a8, 0x211c1, 0x211e0, 0x21202, 0x21340, 0x213a8, 0x213c0, 0x21405,
    0x218d0, 0x218e5, 0x21910, 0x219a5, 0x219d0, 0x21a05, 0x21f60, 0x21f89, 0x21fa5, 0x22001,
    0x24930, 0x24941, 0x249d0, 0x24a01, 0x24af0, 0x24b01, 0x24b30, 0x24b41, 0x24bd0, 0x24c01,
    0x25130, 0x25141, 0x251d0, 0x25201, 0x25630, 0x25641, 0x256d0, 0x25701, 0x257f0, 0x25801,
    0x25830, 0x25841, 0x258d0, 0x25901, 0x25af0, 0x25b01, 0x26230, 0x26241, 0x262d0, 0x26301,
    0x26b70, 0x26ba8, 0x26c00, 0x26d22, 0x26fb0, 0x27001, 0x27200, 0x27350, 0x27405, 0x27ed0,
    0x27f05, 0x27fd0, 0x28000, 0x28021, 0x2cda0, 0x2cde1, 0x2d000, 0x2d021, 0x2d360, 0x2d3b0,
    0x2d401, 0x2dd60, 0x2ddc2, 0x2de21, 0x2df30, 0x2e001, 0x2e248, 0x2e2a0, 0x2e2d0, 0x2e3e1,
    0x2e648, 0x2e680, 0x2e6f0, 0x2e801, 0x2ea48, 0x2ea90, 0x2ec01, 0x2edb0, 0x2edc1, 0x2ee30,
    0x2ee48, 0x2ee90, 0x2f001, 0x2f688, 0x2f6c0, 0x2f6e8, 0x2f7c0, 0x2f8c8, 0x2f8e0, 0x2f928,
    0x2fa80, 0x2fae9, 0x2fb00, 0x2fb81, 0x2fba8, 0x2fbd0, 0x2fc02, 0x2fd50, 0x2fe02, 0x2ff50,
    0x30000, 0x30168, 0x30202, 0x30350, 0x30401, 0x30869, 0x30881, 0x30f30, 0x31001, 0x310a8,
    0x310e1, 0x31528, 0x31541, 0x31570, 0x31601, 0x31ed0, 0x32001, 0x323f0, 0x32408, 0x32460,
    0x324e8, 0x32520, 0x32590, 0x32600, 0x32648, 0x32660, 0x32728, 0x32790, 0x32800, 0x32830,
    0x32880, 0x328c2, 0x32a01, 0x32dd0, 0x32e01, 0x32eb0, 0x33001, 0x33590, 0x33601, 0x33950,
    0x33a02, 0x33b70, 0x33bc0, 0x34001, 0x342e8, 0x34320, 0x34368, 0x34390, 0x343c0, 0x34401,
    0x34aa0, 0x34ac8, 0x34ae0, 0x34b08, 0x34bf0, 0x34c08, 0x34c20, 0x34c48, 0x34c60, 0x34ca8,
    0x34da0, 0x34e68, 0x34fb0, 0x34fe8, 0x35002, 0x35150, 0x35202, 0x35350, 0x35400, 0x354e9,
    0x35500, 0x355d0, 0x35608, 0x359f0, 0x36008, 0x36080, 0x360a1, 0x36688, 0x366a0, 0x366c8,
    0x36760, 0x36788, 0x367a0, 0x36848, 0x36860, 0x368a1, 0x369b0, 0x36a02, 0x36b40, 0x36d68,
    0x36e80, 0x36ff0, 0x37008, 0x37040, 0x37061, 0x37420, 0x37448, 0x374c0, 0x37508, 0x37540,
    0x37568, 0x375c1, 0x37602, 0x37741, 0x37cc8, 0x37ce0, 0x37d08, 0x37d40, 0x37da8, 0x37dc0,
    0x37de8, 0x37e40, 0x37e90, 0x37f80, 0x38001, 0x38480, 0x38588, 0x38680, 0x386c8, 0x38710,
    0x38760, 0x38802, 0x38950, 0x389a1, 0x38a02, 0x38b41, 0x38f09, 0x38fc0, 0x39005, 0x39130,
    0x39205, 0x39770, 0x397a5, 0x39800, 0x39910, 0x39a08, 0x39a60, 0x39a88, 0x39c20, 0x39c48,
    0x39d21, 0x39da8, 0x39dc1, 0x39e88, 0x39ea1, 0x39ee0, 0x39f08, 0x39f41, 0x39f70, 0x3a005,
    0x3a589, 0x3ad65, 0x3af09, 0x3af25, 0x3b369, 0x3b808, 0x3c005, 0x3e2d0, 0x3e305, 0x3e3d0,
    0x3e405, 0x3e8d0, 0x3e905, 0x3e9d0, 0x3ea05, 0x3eb10, 0x3eb25, 0x3eb50, 0x3eb65, 0x3eb90,
    0x3eba5, 0x3ebd0, 0x3ebe5, 0x3efd0, 0x3f005, 0x3f6b0, 0x3f6c5, 0x3f7a8, 0x3f7c5, 0x3f7e8,
    0x3f845, 0x3f8b0, 0x3f8c5, 0x3f9a8, 0x3fa05, 0x3fa90, 0x3fac5, 0x3fb90, 0x3fba8, 0x3fc05,
    0x3fda8, 0x3fe10, 0x3fe45, 0x3feb0, 0x3fec5, 0x3ffa8, 0x3fff0, 0x40000, 0x40168, 0x40200,
    0x40308, 0x40340, 0x40488, 0x404a0, 0x404e8, 0x40500, 0x40548, 0x405e0, 0x40c08, 0x40cb0,
    0x40cc8, 0x40e02, 0x40e29, 0x40e50, 0x40e82, 0x40f40, 0x40fe9, 0x41002, 0x41140, 0x411f0,
    0x41209, 0x413b0, 0x41400, 0x41830, 0x41a08, 0x41e30, 0x42000, 0x42045, 0x42060, 0x420e5,
    0x42100, 0x42145, 0x42280, 0x422a5, 0x422c0, 0x42325, 0x423c0, 0x42485, 0x424a0, 0x424c5,
    0x424e0, 0x42505, 0x42520, 0x42545, 0x425c0, 0x425e5, 0x426a1, 0x42725, 0x42740, 0x42785,
    0x42800, 0x428a5, 0x42940, 0x429c5, 0x429e0, 0x42a02, 0x42c06, 0x43002, 0x43065, 0x430a2,
    0x43140, 0x43190, 0x43200, 0x484f0, 0x48800, 0x48970, 0x48c02, 0x49380, 0x496c4, 0x49d42,
    0x4a000, 0x4eec2, 0x4f280, 0x56e90, 0x56ec0, 0x572d0, 0x572e0, 0x58005, 0x58f89, 0x58fc5,
    0x59ca0, 0x59d65, 0x59de8, 0x59e45, 0x59e90, 0x59f20, 0x59fa2, 0x59fc0, 0x5a005, 0x5a4d0,
    0x5a4e5, 0x5a510, 0x5a5a5, 0x5a5d0, 0x5a601, 0x5ad10, 0x5ade9, 0x5ae00, 0x5ae30, 0x5afe8,
    0x5b001, 0x5b2f0, 0x5b401, 0x5b4f0, 0x5b501, 0x5b5f0, 0x5b601, 0x5b6f0, 0x5b701, 0x5b7f0,
    0x5b801, 0x5b8f0, 0x5b901, 0x5b9f0, 0x5ba01, 0x5baf0, 0x5bb01, 0x5bbf0, 0x5bc08, 0x5c000,
    0x5c5e9, 0x5c600, 0x5cbd0, 0x5d000, 0x5d350, 0x5d360, 0x5de90, 0x5e000, 0x5fad0, 0x5fe00,
    0x5ff90, 0x60000, 0x600a9, 0x600c1, 0x600e2, 0x60100, 0x60422, 0x60548, 0x605c0, 0x60629,
    0x606c0, 0x60702, 0x60769, 0x60781, 0x607a0, 0x60810, 0x60821, 0x612f0, 0x61328, 0x613a9,
    0x613e1, 0x61400, 0x61421, 0x61f60, 0x61f89, 0x61fe1, 0x62010, 0x620a1, 0x62610, 0x62621,
    0x631f0, 0x63200, 0x63242, 0x632c0, 0x63401, 0x63800, 0x63c90, 0x63e01, 0x64000, 0x643f0,
    0x64402, 0x64540, 0x64902, 0x64a00, 0x64a22, 0x64c00, 0x65002, 0x65140, 0x65622, 0x65800,
    0x68001, 0x9b800, 0x9c001, 0x1402a9, 0x1402c1, 0x1491b0, 0x149200, 0x1498f0, 0x149a01, 0x149f09,
    0x149fc0, 0x14a001, 0x14c189, 0x14c1a0, 0x14c201, 0x14c402, 0x14c541, 0x14c590, 0x14c805, 0x14cdc1,
    0x14cde8, 0x14ce60, 0x14ce88, 0x14cfc0, 0x14cfe9, 0x14d005, 0x14d389, 0x14d3c8, 0x14d401, 0x14dcc2,
    0x14de08, 0x14de40, 0x14df10, 0x14e008, 0x14e2e9, 0x14e408, 0x14e445, 0x14ee09, 0x14ee25, 0x14f109,
    0x14f128, 0x14f165, 0x14f1e1, 0x14f205, 0x14f970, 0x14fa05, 0x14fa50, 0x14fa65, 0x14fa90, 0x14faa5,
    0x14fb50, 0x14fe49, 0x14fea5, 0x14fee1, 0x14ff09, 0x14ff45, 0x14ff61, 0x150048, 0x150061, 0x1500c8,
    0x1500e1, 0x150168, 0x150181, 0x150460, 0x1504a8, 0x1504e0, 0x150588, 0x1505b0, 0x150602, 0x1506c0,
    0x150750, 0x150801, 0x150e80, 0x150f10, 0x151000, 0x151041, 0x151680, 0x151888, 0x1518d0, 0x1519c0,
    0x151a02, 0x151b50, 0x151c08, 0x151e41, 0x151f00, 0x151f61, 0x151f80, 0x151fa1, 0x151fe8, 0x152002,
    0x152141, 0x1524c8, 0x1525c0, 0x152601, 0x1528e8, 0x152a40, 0x152a90, 0x152be0, 0x152c01, 0x152fb0,
    0x153008, 0x153060, 0x153081, 0x153668, 0x153680, 0x1536c8, 0x153740, 0x153788, 0x1537c0, 0x1539d0,
    0x1539e9, 0x153a02, 0x153b50, 0x153bc0, 0x153c01, 0x153ca8, 0x153cc9, 0x153ce1, 0x153e02, 0x153f41,
    0x153ff0, 0x154001, 0x154528, 0x1545e0, 0x154628, 0x154660, 0x1546a8, 0x1546f0, 0x154801, 0x154868,
    0x154881, 0x154988, 0x1549a0, 0x1549d0, 0x154a02, 0x154b50, 0x154b80, 0x154c01, 0x154e09, 0x154e21,
    0x154ee0, 0x154f41, 0x154f60, 0x154f88, 0x154fa0, 0x154fc1, 0x155608, 0x155621, 0x155648, 0x1556a1,
    0x1556e8, 0x155721, 0x1557c8, 0x155801, 0x155828, 0x155841, 0x155870, 0x155b61, 0x155ba9, 0x155bc0,
    0x155c01, 0x155d60, 0x155d88, 0x155dc0, 0x155e41, 0x155e69, 0x155ea0, 0x155ec8, 0x155ef0, 0x156021,
    0x1560f0, 0x156121, 0x1561f0, 0x156221, 0x1562f0, 0x156401, 0x1564f0, 0x156501, 0x1565f0, 0x156605,
    0x156b68, 0x156b89, 0x156c05, 0x156d29, 0x156d48, 0x156d90, 0x156e05, 0x157801, 0x157c60, 0x157ca8,
    0x157cc0, 0x157d08, 0x157d20, 0x157da8, 0x157dd0, 0x157e02, 0x157f50, 0x158001, 0x1af490, 0x1af601,
    0x1af8f0, 0x1af961, 0x1aff90, 0x1b0000, 0x1f2001, 0x1f4dd0, 0x1f4e01, 0x1f5b50, 0x1f6005, 0x1f60f0,
    0x1f6265, 0x1f6310, 0x1f63a1, 0x1f63c8, 0x1f63e1, 0x1f6520, 0x1f6541, 0x1f66f0, 0x1f6701, 0x1f67b0,
    0x1f67c1, 0x1f67f0, 0x1f6801, 0x1f6850, 0x1f6861, 0x1f68b0, 0x1f68c1, 0x1f7648, 0x1f7870, 0x1f7a61,
    0x1fa7c0, 0x1faa01, 0x1fb210, 0x1fb241, 0x1fb910, 0x1fb9e0, 0x1fbe01, 0x1fbf80, 0x1fc008, 0x1fc200,
    0x1fc268, 0x1fc280, 0x1fc350, 0x1fc408, 0x1fc600, 0x1fca48, 0x1fca70, 0x1fca80, 0x1fcaa8, 0x1fcac0,
    0x1fccf0, 0x1fcd00, 0x1fcd90, 0x1fce01, 0x1fceb0, 0x1fcec1, 0x1fdfb0, 0x1fdfe8, 0x1fe010, 0x1fe020,
    0x1fe0e8, 0x1fe100, 0x1fe1c8, 0x1fe1e0, 0x1fe202, 0x1fe348, 0x1fe360, 0x1fe425, 0x1fe760, 0x1fe7c8,
    0x1fe7e0, 0x1fe808, 0x1fe825, 0x1feb60, 0x1fecc1, 0x1fee09, 0x1fee21, 0x1ff3c9, 0x1ff401, 0x1ff7f0,
    0x1ff841, 0x1ff910, 0x1ff941, 0x1ffa10, 0x1ffa41, 0x1ffb10, 0x1ffb41, 0x1ffbb0, 0x1ffc00, 0x1ffc68,
    0x1ffc80, 0x1ffcf0, 0x1ffd00, 0x1ffdf0, 0x1fff28, 0x1fff80, 0x200001, 0x200190, 0x2001a1, 0x2004f0,
    0x200501, 0x200770, 0x200781, 0x2007d0, 0x2007e1, 0x2009d0, 0x200a01, 0x200bd0, 0x201001, 0x201f70,
    0x202000, 0x202070, 0x2020e2, 0x202690, 0x2026e0, 0x202802, 0x202f20, 0x203142, 0x203180, 0x2031f0,
    0x203200, 0x2033b0, 0x203400, 0x203430, 0x203a00, 0x203fa8, 0x203fd0, 0x205001, 0x2053b0, 0x205401,
    0x205a30, 0x205c08, 0x205c22, 0x205f90, 0x206001, 0x206402, 0x206490, 0x2065a1, 0x206822, 0x206841,
    0x206942, 0x206970, 0x206a01, 0x206ec8, 0x206f70, 0x207001, 0x2073d0, 0x2073e0, 0x207401, 0x207890,
    0x207901, 0x207a00, 0x207a22, 0x207ad0, 0x208005, 0x208a01, 0x2093d0, 0x209402, 0x209550, 0x209605,
    0x209a90, 0x209b05, 0x209f90, 0x20a001, 0x20a510, 0x20a601, 0x20ac90, 0x20ade0, 0x20ae05, 0x20af70,
    0x20af85, 0x20b170, 0x20b185, 0x20b270, 0x20b285, 0x20b2d0, 0x20b2e5, 0x20b450, 0x20b465, 0x20b650,
    0x20b665, 0x20b750, 0x20b765, 0x20b7b0, 0x20c001, 0x20e6f0, 0x20e801, 0x20ead0, 0x20ec01, 0x20ed10,
    0x20f009, 0x20f0d0, 0x20f0e9, 0x20f630, 0x20f649, 0x20f770, 0x210001, 0x2100d0, 0x210101, 0x210130,
    0x210141, 0x2106d0, 0x2106e1, 0x210730, 0x210781, 0x2107b0, 0x2107e1, 0x210ad0, 0x210ae0, 0x210b02,
    0x210c01, 0x210ee0, 0x210f22, 0x211001, 0x2113f0, 0x2114e2, 0x211610, 0x211c01, 0x211e70, 0x211e81,
    0x211ed0, 0x211f62, 0x212001, 0x2122c2, 0x212390, 0x2123e0, 0x212401, 0x212750, 0x2127e0, 0x212810,
    0x213001, 0x213710, 0x213782, 0x2137c1, 0x213802, 0x213a10, 0x213a42, 0x214001, 0x214028, 0x214090,
    0x2140a8, 0x2140f0, 0x214188, 0x214201, 0x214290, 0x2142a1, 0x214310, 0x214321, 0x2146d0, 0x214708,
    0x214770, 0x2147e8, 0x214802, 0x214930, 0x214a00, 0x214b30, 0x214c01, 0x214fa2, 0x214fe0, 0x215001,
    0x2153a2, 0x215410, 0x215801, 0x215900, 0x215921, 0x215ca8, 0x215cf0, 0x215d62, 0x215e00, 0x215ef0,
    0x216001, 0x2166d0, 0x216720, 0x216801, 0x216ad0, 0x216b02, 0x216c01, 0x216e70, 0x216f02, 0x217001,
    0x217250, 0x217320, 0x2173b0, 0x217522, 0x217610, 0x218001, 0x218930, 0x219005, 0x219670, 0x219805,
    0x219e70, 0x219f42, 0x21a001, 0x21a488, 0x21a510, 0x21a602, 0x21a750, 0x21cc02, 0x21cff0, 0x21d001,
    0x21d550, 0x21d568, 0x21d5a0, 0x21d5d0, 0x21d601, 0x21d650, 0x21e001, 0x21e3a2, 0x21e4e1, 0x21e510,
    0x21e601, 0x21e8c8, 0x21ea22, 0x21eaa0, 0x21eb50, 0x21ee01, 0x21f048, 0x21f0c0, 0x21f150, 0x21f601,
    0x21f8a2, 0x21f990, 0x21fc01, 0x21fef0, 0x220000, 0x220028, 0x220040, 0x220061, 0x220708, 0x2208e0,
    0x2209d0, 0x220a42, 0x220e08, 0x220e21, 0x220e68, 0x220ea1, 0x220ed0, 0x220fe8, 0x221040, 0x221061,
    0x221600, 0x221668, 0x2216e0, 0x221728, 0x221760, 0x2217a8, 0x2217c0, 0x221848, 0x221870, 0x2219a8,
    0x2219d0, 0x221a01, 0x221d30, 0x221e02, 0x221f50, 0x222008, 0x222061, 0x2224e8, 0x222580, 0x2225a8,
    0x2226b0, 0x2226c2, 0x222800, 0x222881, 0x2228a0, 0x2228e1, 0x222910, 0x222a01, 0x222e68, 0x222e80,
    0x222ec1, 0x222ef0, 0x223008, 0x223040, 0x223061, 0x223660, 0x2236c8, 0x2237e0, 0x223821, 0x2238a0,
    0x223928, 0x2239a0, 0x2239e8, 0x223a02, 0x223b41, 0x223b60, 0x223b81, 0x223ba0, 0x223c10, 0x223c22,
    0x223eb0, 0x224001, 0x224250, 0x224261, 0x224580, 0x2245e8, 0x224640, 0x224688, 0x2246a0, 0x2246c8,
    0x224700, 0x2247c8, 0x2247f0, 0x225001, 0x2250f0, 0x225101, 0x225130, 0x225141, 0x2251d0, 0x2251e1,
    0x2253d0, 0x2253e1, 0x225520, 0x225550, 0x225601, 0x225be8, 0x225c00, 0x225c68, 0x225d70, 0x225e02,
    0x225f50, 0x226008, 0x226040, 0x226090, 0x2260a1, 0x2261b0, 0x2261e1, 0x226230, 0x226261, 0x226530,
    0x226541, 0x226630, 0x226641, 0x226690, 0x2266a1, 0x226750, 0x226768, 0x2267a1, 0x2267c0, 0x226808,
    0x226820, 0x2268b0, 0x2268e0, 0x226930, 0x226960, 0x2269d0, 0x226a01, 0x226a30, 0x226ae0, 0x226b10,
    0x226ba1, 0x226c40, 0x226c90, 0x226cc8, 0x226db0, 0x226e08, 0x226eb0, 0x228001, 0x2286a0, 0x228708,
    0x228800, 0x228848, 0x2288a0, 0x2288c8, 0x2288e1, 0x228960, 0x228a02, 0x228b40, 0x228b90, 0x228ba0,
    0x228bc8, 0x228be1, 0x228c50, 0x229001, 0x229600, 0x229668, 0x229720, 0x229748, 0x229760, 0x2297e8,
    0x229820, 0x229848, 0x229881, 0x2298c0, 0x2298e1, 0x229910, 0x229a02, 0x229b50, 0x22b001, 0x22b5e0,
    0x22b648, 0x22b6d0, 0x22b700, 0x22b788, 0x22b7c0, 0x22b7e8, 0x22b820, 0x22bb01, 0x22bb88, 0x22bbd0,
    0x22c001, 0x22c600, 0x22c668, 0x22c760, 0x22c7a8, 0x22c7c0, 0x22c7e8, 0x22c820, 0x22c881, 0x22c8b0,
    0x22ca02, 0x22cb50, 0x22cc00, 0x22cdb0, 0x22d001, 0x22d568, 0x22d580, 0x22d5a8, 0x22d5c0, 0x22d608,
    0x22d6c0, 0x22d6e8, 0x22d701, 0x22d720, 0x22d750, 0x22d802, 0x22d950, 0x22e001, 0x22e370, 0x22e3a8,
    0x22e400, 0x22e448, 0x22e4c0, 0x22e4e8, 0x22e590, 0x22e602, 0x22e780, 0x22e801, 0x22e8f0, 0x230001,
    0x230580, 0x2305e8, 0x230700, 0x230728, 0x230760, 0x230790, 0x231405, 0x231c02, 0x231e70, 0x231fe1,
    0x2320f0, 0x232121, 0x232150, 0x232181, 0x232290, 0x2322a1, 0x2322f0, 0x232301, 0x232600, 0x2326d0,
    0x2326e0, 0x232730, 0x232768, 0x2327a0, 0x2327c8, 0x2327e1, 0x232800, 0x232821, 0x232840, 0x232868,
    0x232880, 0x2328f0, 0x232a02, 0x232b50, 0x233401, 0x233510, 0x233541, 0x233a20, 0x233a88, 0x233b10,
    0x233b48, 0x233b80, 0x233c08, 0x233c21, 0x233c40, 0x233c61, 0x233c80, 0x233cb0, 0x234001, 0x234028,
    0x234161, 0x234668, 0x234720, 0x234741, 0x234768, 0x2347e0, 0x2348e8, 0x234910, 0x234a01, 0x234a28,
    0x234ae0, 0x234b28, 0x234b81, 0x235148, 0x2352e0, 0x235308, 0x235340, 0x2353a1, 0x2353c0, 0x235470,
    0x235601, 0x235f30, 0x238001, 0x238130, 0x238141, 0x2385e0, 0x238608, 0x2386f0, 0x238708, 0x2387c0,
    0x2387e8, 0x238801, 0x238820, 0x2388d0, 0x238a02, 0x238db0, 0x238e00, 0x238e41, 0x239210, 0x239248,
    0x239510, 0x239520, 0x239548, 0x239620, 0x239648, 0x239680, 0x2396a8, 0x2396f0, 0x23a001, 0x23a0f0,
    0x23a101, 0x23a150, 0x23a161, 0x23a628, 0x23a6f0, 0x23a748, 0x23a770, 0x23a788, 0x23a7d0, 0x23a7e8,
    0x23a8c1, 0x23a8e8, 0x23a910, 0x23aa02, 0x23ab50, 0x23ac01, 0x23acd0, 0x23ace1, 0x23ad30, 0x23ad41,
    0x23b140, 0x23b1f0, 0x23b208, 0x23b250, 0x23b260, 0x23b2a8, 0x23b2c0, 0x23b2e8, 0x23b301, 0x23b330,
    0x23b402, 0x23b550, 0x23dc01, 0x23de68, 0x23dea0, 0x23df30, 0x23f601, 0x23f630, 0x23f802, 0x23faa0,
    0x23fe50, 0x23ffe0, 0x240001, 0x247350, 0x248002, 0x248df0, 0x248e00, 0x248eb0, 0x249001, 0x24a890,
    0x25f201, 0x25fe20, 0x25fe70, 0x260001, 0x2685f0, 0x268608, 0x268730, 0x288001, 0x28c8f0, 0x2d0001,
    0x2d4730, 0x2d4801, 0x2d4bf0, 0x2d4c02, 0x2d4d50, 0x2d4dc0, 0x2d4e01, 0x2d57f0, 0x2d5802, 0x2d5950,
    0x2d5a01, 0x2d5dd0, 0x2d5e08, 0x2d5ea0, 0x2d5ed0, 0x2d6001, 0x2d6608, 0x2d66e0, 0x2d6809, 0x2d6880,
    0x2d68d0, 0x2d6a02, 0x2d6b50, 0x2d6b62, 0x2d6c50, 0x2d6c61, 0x2d6f10, 0x2d6fa1, 0x2d7210, 0x2dc805,
    0x2dd002, 0x2dd2e0, 0x2dd370, 0x2de001, 0x2de970, 0x2de9e8, 0x2dea01, 0x2dea20, 0x2df110, 0x2df1e8,
    0x2df269, 0x2df410, 0x2dfc09, 0x2dfc40, 0x2dfc69, 0x2dfc88, 0x2dfcb0, 0x2dfe00, 0x2dfe50, 0x2e0001,
    0x30ff10, 0x310001, 0x319ad0, 0x31a001, 0x31a130, 0x35fe09, 0x35fe90, 0x35fea9, 0x35ff90, 0x35ffa9,
    0x35fff0, 0x360001, 0x362470, 0x362a01, 0x362a70, 0x362c81, 0x362d10, 0x362e01, 0x365f90, 0x378001,
    0x378d70, 0x378e01, 0x378fb0, 0x379001, 0x379130, 0x379201, 0x379350, 0x379380, 0x3793a8, 0x3793e0,
    0x379408, 0x379490, 0x39e008, 0x39e5d0, 0x39e608, 0x39e8f0, 0x39ea00, 0x39f890, 0x3a0000, 0x3a1ed0,
    0x3a2000, 0x3a24f0, 0x3a2520, 0x3a2ce8, 0x3a2d40, 0x3a2e68, 0x3a3060, 0x3a30a8, 0x3a3180, 0x3a3548,
    0x3a35c0, 0x3a3d70, 0x3a4000, 0x3a4848, 0x3a48a0, 0x3a48d0, 0x3a5c02, 0x3a5e90, 0x3a6000, 0x3a6af0,
    0x3a6c02, 0x3a6f30, 0x3a8005, 0x3a8ab0, 0x3a8ac5, 0x3a93b0, 0x3a93c5, 0x3a9410, 0x3a9445, 0x3a9470,
    0x3a94a5, 0x3a94f0, 0x3a9525, 0x3a95b0, 0x3a95c5, 0x3a9750, 0x3a9765, 0x3a9790, 0x3a97a5, 0x3a9890,
    0x3a98a5, 0x3aa0d0, 0x3aa0e5, 0x3aa170, 0x3aa1a5, 0x3aa2b0, 0x3aa2c5, 0x3aa3b0, 0x3aa3c5, 0x3aa750,
    0x3aa765, 0x3aa7f0, 0x3aa805, 0x3aa8b0, 0x3aa8c5, 0x3aa8f0, 0x3aa945, 0x3aaa30, 0x3aaa45, 0x3ad4d0,
    0x3ad505, 0x3ad820, 0x3ad845, 0x3adb60, 0x3adb85, 0x3adf60, 0x3adf85, 0x3ae2a0, 0x3ae2c5, 0x3ae6a0,
    0x3ae6c5, 0x3ae9e0, 0x3aea05, 0x3aede0, 0x3aee05, 0x3af120, 0x3af145, 0x3af520, 0x3af545, 0x3af860,
    0x3af885, 0x3af990, 0x3af9c2, 0x3b0000, 0x3b4008, 0x3b46e0, 0x3b4768, 0x3b4da0, 0x3b4ea8, 0x3b4ec0,
    0x3b5088, 0x3b50a0, 0x3b5190, 0x3b5368, 0x3b5410, 0x3b5428, 0x3b5610, 0x3be005, 0x3be141, 0x3be165,
    0x3be3f0, 0x3c0008, 0x3c00f0, 0x3c0108, 0x3c0330, 0x3c0368, 0x3c0450, 0x3c0468, 0x3c04b0, 0x3c04c8,
    0x3c0570, 0x3c2001, 0x3c25b0, 0x3c2608, 0x3c26e9, 0x3c27d0, 0x3c2802, 0x3c2950, 0x3c29c1, 0x3c29e0,
    0x3c2a10, 0x3c5201, 0x3c55c8, 0x3c55f0, 0x3c5801, 0x3c5d88, 0x3c5e02, 0x3c5f50, 0x3c5fe0, 0x3c6010,
    0x3cfc01, 0x3cfcf0, 0x3cfd01, 0x3cfd90, 0x3cfda1, 0x3cfdf0, 0x3cfe01, 0x3cfff0, 0x3d0001, 0x3d18b0,
    0x3d18e2, 0x3d1a08, 0x3d1af0, 0x3d2005, 0x3d2888, 0x3d2969, 0x3d2990, 0x3d2a02, 0x3d2b50, 0x3d2bc0,
    0x3d2c10, 0x3d8e22, 0x3d9580, 0x3d95a2, 0x3d9600, 0x3d9622, 0x3d96b0, 0x3da022, 0x3da5c0, 0x3da5e2,
    0x3da7d0, 0x3dc001, 0x3dc090, 0x3dc0a1, 0x3dc410, 0x3dc421, 0x3dc470, 0x3dc481, 0x3dc4b0, 0x3dc4e1,
    0x3dc510, 0x3dc521, 0x3dc670, 0x3dc681, 0x3dc710, 0x3dc721, 0x3dc750, 0x3dc761, 0x3dc790, 0x3dc841,
    0x3dc870, 0x3dc8e1, 0x3dc910, 0x3dc921, 0x3dc950, 0x3dc961, 0x3dc990, 0x3dc9a1, 0x3dca10, 0x3dca21,
    0x3dca70, 0x3dca81, 0x3dcab0, 0x3dcae1, 0x3dcb10, 0x3dcb21, 0x3dcb50, 0x3dcb61, 0x3dcb90, 0x3dcba1,
    0x3dcbd0, 0x3dcbe1, 0x3dcc10, 0x3dcc21, 0x3dcc70, 0x3dcc81, 0x3dccb0, 0x3dcce1, 0x3dcd70, 0x3dcd81,
    0x3dce70, 0x3dce81, 0x3dcf10, 0x3dcf21, 0x3dcfb0, 0x3dcfc1, 0x3dcff0, 0x3dd001, 0x3dd150, 0x3dd161,
    0x3dd390, 0x3dd421, 0x3dd490, 0x3dd4a1, 0x3dd550, 0x3dd561, 0x3dd790, 0x3dde00, 0x3dde50, 0x3e0000,
    0x3e0590, 0x3e0600, 0x3e1290, 0x3e1400, 0x3e15f0, 0x3e1620, 0x3e1810, 0x3e1820, 0x3e1a10, 0x3e1a20,
    0x3e1ed0, 0x3e2002, 0x3e21a0, 0x3e2604, 0x3e2940, 0x3e2a04, 0x3e2d40, 0x3e2e04, 0x3e3140, 0x3e35d0,
    0x3e3cc0, 0x3e4070, 0x3e4200, 0x3e4790, 0x3e4800, 0x3e4930, 0x3e4a00, 0x3e4a50, 0x3e4c00, 0x3e4cd0,
    0x3e6000, 0x3e7f68, 0x3e8000, 0x3edb10, 0x3edba0, 0x3eddb0, 0x3ede00, 0x3edfb0, 0x3ee000, 0x3eee90,
    0x3ef000, 0x3efb30, 0x3efc00, 0x3efd90, 0x3efe00, 0x3efe30, 0x3f0000, 0x3f0190, 0x3f0200, 0x3f0910,
    0x3f0a00, 0x3f0b50, 0x3f0c00, 0x3f1110, 0x3f1200, 0x3f15d0, 0x3f1600, 0x3f1650, 0x3f2000, 0x3f4a90,
    0x3f4c00, 0x3f4dd0, 0x3f4e00, 0x3f4eb0, 0x3f4f00, 0x3f4fb0, 0x3f5000, 0x3f50f0, 0x3f5200, 0x3f55b0,
    0x3f5600, 0x3f5770, 0x3f5800, 0x3f58d0, 0x3f5a00, 0x3f5b50, 0x3f5c00, 0x3f5d10, 0x3f5e00, 0x3f5ef0,
    0x3f6000, 0x3f7270, 0x3f7280, 0x3f7970, 0x3f7e02, 0x3f7f50, 0x3fffc0, 0x400001, 0x54dc10, 0x54e001,
    0x56e730, 0x56e801, 0x5703d0, 0x570401, 0x59d450, 0x59d601, 0x5d7c30, 0x5f0001, 0x5f43d0, 0x5fffc0,
    0x600001, 0x626970, 0x7fffc0, 0x800010, 0x9fffc0, 0xa00010, 0xbfffc0, 0xc00010, 0xdfffc0, 0xe00010,
    0xffffc0, 0x1000010, 0x11fffc0, 0x1200010, 0x13fffc0, 0x1400010, 0x15fffc0, 0x1600010, 0x17fffc0, 0x1800010,
    0x19fffc0, 0x1a00010, 0x1bfffc0, 0x1c00010, 0x1c00028, 0x1c00050, 0x1c00408, 0x1c01010, 0x1c02008, 0x1c03e10,
    0x1dfffc0,
};
VIT__TABLE uint32_t vit__uni_ccc_ranges[496] = {
    0x0, 0x300e6, 0x315e8, 0x316dc, 0x31ae8, 0x31bd8, 0x31cdc, 0x321ca, 0x323dc, 0x327ca,
    0x329dc, 0x33401, 0x339dc, 0x33de6, 0x345f0, 0x346e6, 0x347dc, 0x34ae6, 0x34ddc, 0x34f00,
    0x350e6, 0x353dc, 0x357e6, 0x358e8, 0x359dc, 0x35be6, 0x35ce9, 0x35dea, 0x35fe9, 0x360ea,
    0x362e9, 0x363e6, 0x37000, 0x483e6, 0x48800, 0x591dc, 0x592e6, 0x596dc, 0x597e6, 0x59ade,
    0x59bdc, 0x59ce6, 0x5a2dc, 0x5a8e6, 0x5aadc, 0x5abe6, 0x5adde, 0x5aee4, 0x5afe6, 0x5b00a,
    0x5b10b, 0x5b20c, 0x5b30d, 0x5b40e, 0x5b50f, 0x5b610, 0x5b711, 0x5b812, 0x5b913, 0x5bb14,
    0x5bc15, 0x5bd16, 0x5be00, 0x5bf17, 0x5c000, 0x5c118, 0x5c219, 0x5c300, 0x5c4e6, 0x5c5dc,
    0x5c600, 0x5c712, 0x5c800, 0x610e6, 0x6181e, 0x6191f, 0x61a20, 0x61b00, 0x64b1b, 0x64c1c,
    0x64d1d, 0x64e1e, 0x64f1f, 0x65020, 0x65121, 0x65222, 0x653e6, 0x655dc, 0x657e6, 0x65cdc,
    0x65de6, 0x65fdc, 0x66000, 0x67023, 0x67100, 0x6d6e6, 0x6dd00, 0x6dfe6, 0x6e3dc, 0x6e4e6,
    0x6e500, 0x6e7e6, 0x6e900, 0x6eadc, 0x6ebe6, 0x6eddc, 0x6ee00, 0x71124, 0x71200, 0x730e6,
    0x731dc, 0x732e6, 0x734dc, 0x735e6, 0x737dc, 0x73ae6, 0x73bdc, 0x73de6, 0x73edc, 0x73fe6,
    0x742dc, 0x743e6, 0x744dc, 0x745e6, 0x746dc, 0x747e6, 0x748dc, 0x749e6, 0x74b00, 0x7ebe6,
    0x7f2dc, 0x7f3e6, 0x7f400, 0x816e6, 0x81a00, 0x81be6, 0x82400, 0x825e6, 0x82800, 0x829e6,
    0x82e00, 0x859dc, 0x85c00, 0x8d4e6, 0x8e200, 0x8e3dc, 0x8e4e6, 0x8e6dc, 0x8e7e6, 0x8e9dc,
    0x8eae6, 0x8eddc, 0x8f01b, 0x8f11c, 0x8f21d, 0x8f3e6, 0x8f6dc, 0x8f7e6, 0x8f9dc, 0x8fbe6,
    0x90000, 0x93c07, 0x93d00, 0x94d09, 0x94e00, 0x951e6, 0x952dc, 0x953e6, 0x95500, 0x9bc07,
    0x9bd00, 0x9cd09, 0x9ce00, 0xa3c07, 0xa3d00, 0xa4d09, 0xa4e00, 0xabc07, 0xabd00, 0xacd09,
    0xace00, 0xb3c07, 0xb3d00, 0xb4d09, 0xb4e00, 0xbcd09, 0xbce00, 0xc4d09, 0xc4e00, 0xc5554,
    0xc565b, 0xc5700, 0xcbc07, 0xcbd00, 0xccd09, 0xcce00, 0xd4d09, 0xd4e00, 0xdca09, 0xdcb00,
    0xe3867, 0xe3a09, 0xe3b00, 0xe486b, 0xe4c00, 0xeb876, 0xeba00, 0xec87a, 0xecc00, 0xf18dc,
    0xf1a00, 0xf35dc, 0xf3600, 0xf37dc, 0xf3800, 0xf39d8, 0xf3a00, 0xf7181, 0xf7282, 0xf7300,
    0xf7484, 0xf7500, 0xf7a82, 0xf7e00, 0xf8082, 0xf8100, 0xf82e6, 0xf8409, 0xf8500, 0xf86e6,
    0xf8800, 0xfc6dc, 0xfc700, 0x103707, 0x103800, 0x103909, 0x103b00, 0x108ddc, 0x108e00, 0x135de6,
    0x136000, 0x171409, 0x171500, 0x173409, 0x173500, 0x17d209, 0x17d300, 0x17dde6, 0x17de00, 0x18a9e4,
    0x18aa00, 0x1939de, 0x193ae6, 0x193bdc, 0x193c00, 0x1a17e6, 0x1a18dc, 0x1a1900, 0x1a6009, 0x1a6100,
    0x1a75e6, 0x1a7d00, 0x1a7fdc, 0x1a8000, 0x1ab0e6, 0x1ab5dc, 0x1abbe6, 0x1abddc, 0x1abe00, 0x1b3407,
    0x1b3500, 0x1b4409, 0x1b4500, 0x1b6be6, 0x1b6cdc, 0x1b6de6, 0x1b7400, 0x1baa09, 0x1bac00, 0x1be607,
    0x1be700, 0x1bf209, 0x1bf400, 0x1c3707, 0x1c3800, 0x1cd0e6, 0x1cd300, 0x1cd401, 0x1cd5dc, 0x1cdae6,
    0x1cdcdc, 0x1ce0e6, 0x1ce100, 0x1ce201, 0x1ce900, 0x1ceddc, 0x1cee00, 0x1cf4e6, 0x1cf500, 0x1cf8e6,
    0x1cfa00, 0x1dc0e6, 0x1dc2dc, 0x1dc3e6, 0x1dcadc, 0x1dcbe6, 0x1dcdea, 0x1dced6, 0x1dcfdc, 0x1dd0ca,
    0x1dd1e6, 0x1df600, 0x1dfbe6, 0x1dfce9, 0x1dfddc, 0x1dfee6, 0x1dffdc, 0x1e0000, 0x20d0e6, 0x20d201,
    0x20d4e6, 0x20d801, 0x20dbe6, 0x20dd00, 0x20e1e6, 0x20e200, 0x20e501, 0x20e7e6, 0x20e8dc, 0x20e9e6,
    0x20ea01, 0x20ecdc, 0x20f0e6, 0x20f100, 0x2cefe6, 0x2cf200, 0x2d7f09, 0x2d8000, 0x2de0e6, 0x2e0000,
    0x302ada, 0x302be4, 0x302ce8, 0x302dde, 0x302ee0, 0x303000, 0x309908, 0x309b00, 0xa66fe6, 0xa67000,
    0xa674e6, 0xa67e00, 0xa69ee6, 0xa6a000, 0xa6f0e6, 0xa6f200, 0xa80609, 0xa80700, 0xa8c409, 0xa8c500,
    0xa8e0e6, 0xa8f200, 0xa92bdc, 0xa92e00, 0xa95309, 0xa95400, 0xa9b307, 0xa9b400, 0xa9c009, 0xa9c100,
    0xaab0e6, 0xaab100, 0xaab2e6, 0xaab4dc, 0xaab500, 0xaab7e6, 0xaab900, 0xaabee6, 0xaac000, 0xaac1e6,
    0xaac200, 0xaaf609, 0xaaf700, 0xabed09, 0xabee00, 0xfb1e1a, 0xfb1f00, 0xfe20e6, 0xfe27dc, 0xfe2ee6,
    0xfe3000, 0x101fddc, 0x101fe00, 0x102e0dc, 0x102e100, 0x10376e6, 0x1037b00, 0x10a0ddc, 0x10a0e00, 0x10a0fe6,
    0x10a1000, 0x10a38e6, 0x10a3901, 0x10a3adc, 0x10a3b00, 0x10a3f09, 0x10a4000, 0x10ae5e6, 0x10ae6dc, 0x10ae700,
    0x1104609, 0x1104700, 0x1107f09, 0x1108000, 0x110b909, 0x110ba07, 0x110bb00, 0x11100e6, 0x1110300, 0x1113309,
    0x1113500, 0x1117307, 0x1117400, 0x111c009, 0x111c100, 0x111ca07, 0x111cb00, 0x1123509, 0x1123607, 0x1123700,
    0x112e907, 0x112ea09, 0x112eb00, 0x1133c07, 0x1133d00, 0x1134d09, 0x1134e00, 0x11366e6, 0x1136d00, 0x11370e6,
    0x1137500, 0x1144209, 0x1144300, 0x1144607, 0x1144700, 0x114c209, 0x114c307, 0x114c400, 0x115bf09, 0x115c007,
    0x115c100, 0x1163f09, 0x1164000, 0x116b609, 0x116b707, 0x116b800, 0x1172b09, 0x1172c00, 0x11c3f09, 0x11c4000,
    0x16af001, 0x16af500, 0x16b30e6, 0x16b3700, 0x1bc9e01, 0x1bc9f00, 0x1d165d8, 0x1d16701, 0x1d16a00, 0x1d16de2,
    0x1d16ed8, 0x1d17300, 0x1d17bdc, 0x1d18300, 0x1d185e6, 0x1d18adc, 0x1d18c00, 0x1d1aae6, 0x1d1ae00, 0x1d242e6,
    0x1d24500, 0x1e000e6, 0x1e00700, 0x1e008e6, 0x1e01900, 0x1e01be6, 0x1e02200, 0x1e023e6, 0x1e02500, 0x1e026e6,
    0x1e02b00, 0x1e8d0dc, 0x1e8d700, 0x1e944e6, 0x1e94a07, 0x1e94b00,
};
VIT__TABLE int32_t vit__uni_lower_runs[181][4] = {
    {0x41, 26, 1, 32}, {0xc0, 23, 1, 32}, {0xd8, 7, 1, 32}, {0x100, 24, 2, 1}, {0x132, 3, 2, 1}, {0x139, 8, 2, 1},
    {0x14a, 23, 2, 1}, {0x178, 1, 1, -121}, {0x179, 3, 2, 1}, {0x181, 1, 1, 210}, {0x182, 2, 2, 1}, {0x186, 1, 1, 206},
    {0x187, 1, 1, 1}, {0x189, 2, 1, 205}, {0x18b, 1, 1, 1}, {0x18e, 1, 1, 79}, {0x18f, 1, 1, 202}, {0x190, 1, 1, 203},
    {0x191, 1, 1, 1}, {0x193, 1, 1, 205}, {0x194, 1, 1, 207}, {0x196, 1, 1, 211}, {0x197, 1, 1, 209}, {0x198, 1, 1, 1},
    {0x19c, 1, 1, 211}, {0x19d, 1, 1, 213}, {0x19f, 1, 1, 214}, {0x1a0, 3, 2, 1}, {0x1a6, 1, 1, 218}, {0x1a7, 1, 1, 1},
    {0x1a9, 1, 1, 218}, {0x1ac, 1, 1, 1}, {0x1ae, 1, 1, 218}, {0x1af, 1, 1, 1}, {0x1b1, 2, 1, 217}, {0x1b3, 2, 2, 1},
    {0x1b7, 1, 1, 219}, {0x1b8, 1, 1, 1}, {0x1bc, 1, 1, 1}, {0x1c4, 1, 1, 2}, {0x1c5, 1, 1, 1}, {0x1c7, 1, 1, 2},
    {0x1c8, 1, 1, 1}, {0x1ca, 1, 1, 2}, {0x1cb, 9, 2, 1}, {0x1de, 9, 2, 1}, {0x1f1, 1, 1, 2}, {0x1f2, 2, 2, 1},
    {0x1f6, 1, 1, -97}, {0x1f7, 1, 1, -56}, {0x1f8, 20, 2, 1}, {0x220, 1, 1, -130}, {0x222, 9, 2, 1}, {0x23a, 1, 1, 10795},
    {0x23b, 1, 1, 1}, {0x23d, 1, 1, -163}, {0x23e, 1, 1, 10792}, {0x241, 1, 1, 1}, {0x243, 1, 1, -195}, {0x244, 1, 1, 69},
    {0x245, 1, 1, 71}, {0x246, 5, 2, 1}, {0x370, 2, 2, 1}, {0x376, 1, 1, 1}, {0x37f, 1, 1, 116}, {0x386, 1, 1, 38},
    {0x388, 3, 1, 37}, {0x38c, 1, 1, 64}, {0x38e, 2, 1, 63}, {0x391, 17, 1, 32}, {0x3a3, 9, 1, 32}, {0x3cf, 1, 1, 8},
    {0x3d8, 12, 2, 1}, {0x3f4, 1, 1, -60}, {0x3f7, 1, 1, 1}, {0x3f9, 1, 1, -7}, {0x3fa, 1, 1, 1}, {0x3fd, 3, 1, -130},
    {0x400, 16, 1, 80}, {0x410, 32, 1, 32}, {0x460, 17, 2, 1}, {0x48a, 27, 2, 1}, {0x4c0, 1, 1, 15}, {0x4c1, 7, 2, 1},
    {0x4d0, 48, 2, 1}, {0x531, 38, 1, 48}, {0x10a0, 38, 1, 7264}, {0x10c7, 1, 1, 7264}, {0x10cd, 1, 1, 7264}, {0x13a0, 80, 1, 38864},
    {0x13f0, 6, 1, 8}, {0x1c90, 43, 1, -3008}, {0x1cbd, 3, 1, -3008}, {0x1e00, 75, 2, 1}, {0x1e9e, 1, 1, -7615}, {0x1ea0, 48, 2, 1},
    {0x1f08, 8, 1, -8}, {0x1f18, 6, 1, -8}, {0x1f28, 8, 1, -8}, {0x1f38, 8, 1, -8}, {0x1f48, 6, 1, -8}, {0x1f59, 4, 2, -8},
    {0x1f68, 8, 1, -8}, {0x1f88, 8, 1, -8}, {0x1f98, 8, 1, -8}, {0x1fa8, 8, 1, -8}, {0x1fb8, 2, 1, -8}, {0x1fba, 2, 1, -74},
    {0x1fbc, 1, 1, -9}, {0x1fc8, 4, 1, -86}, {0x1fcc, 1, 1, -9}, {0x1fd8, 2, 1, -8}, {0x1fda, 2, 1, -100}, {0x1fe8, 2, 1, -8},
    {0x1fea, 2, 1, -112}, {0x1fec, 1, 1, -7}, {0x1ff8, 2, 1, -128}, {0x1ffa, 2, 1, -126}, {0x1ffc, 1, 1, -9}, {0x2126, 1, 1, -7517},
    {0x212a, 1, 1, -8383}, {0x212b, 1, 1, -8262}, {0x2132, 1, 1, 28}, {0x2160, 16, 1, 16}, {0x2183, 1, 1, 1}, {0x24b6, 26, 1, 26},
    {0x2c00, 48, 1, 48}, {0x2c60, 1, 1, 1}, {0x2c62, 1, 1, -10743}, {0x2c63, 1, 1, -3814}, {0x2c64, 1, 1, -10727}, {0x2c67, 3, 2, 1},
    {0x2c6d, 1, 1, -10780}, {0x2c6e, 1, 1, -10749}, {0x2c6f, 1, 1, -10783}, {0x2c70, 1, 1, -10782}, {0x2c72, 1, 1, 1}, {0x2c75, 1, 1, 1},
    {0x2c7e, 2, 1, -10815}, {0x2c80, 50, 2, 1}, {0x2ceb, 2, 2, 1}, {0x2cf2, 1, 1, 1}, {0xa640, 23, 2, 1}, {0xa680, 14, 2, 1},
    {0xa722, 7, 2, 1}, {0xa732, 31, 2, 1}, {0xa779, 2, 2, 1}, {0xa77d, 1, 1, -35332}, {0xa77e, 5, 2, 1}, {0xa78b, 1, 1, 1},
    {0xa78d, 1, 1, -42280}, {0xa790, 2, 2, 1}, {0xa796, 10, 2, 1}, {0xa7aa, 1, 1, -42308}, {0xa7ab, 1, 1, -42319}, {0xa7ac, 1, 1, -42315},
    {0xa7ad, 1, 1, -42305}, {0xa7ae, 1, 1, -42308}, {0xa7b0, 1, 1, -42258}, {0xa7b1, 1, 1, -42282}, {0xa7b2, 1, 1, -42261}, {0xa7b3, 1, 1, 928},
    {0xa7b4, 8, 2, 1}, {0xa7c4, 1, 1, -48}, {0xa7c5, 1, 1, -42307}, {0xa7c6, 1, 1, -35384}, {0xa7c7, 2, 2, 1}, {0xa7d0, 1, 1, 1},
    {0xa7d6, 2, 2, 1}, {0xa7f5, 1, 1, 1}, {0xff21, 26, 1, 32}, {0x10400, 40, 1, 40}, {0x104b0, 36, 1, 40}, {0x10570, 11, 1, 39},
    {0x1057c, 15, 1, 39}, {0x1058c, 7, 1, 39}, {0x10594, 2, 1, 39}, {0x10c80, 51, 1, 64}, {0x118a0, 32, 1, 32}, {0x16e40, 32, 1, 32},
    {0x1e900, 34, 1, 34},
};
VIT__TABLE uint32_t vit__uni_decomp[2060][3] = {
    {0x800000c0, 0x41, 0x300}, {0x800000c1, 0x41, 0x301}, {0x800000c2, 0x41, 0x302}, {0x800000c3, 0x41, 0x303}, {0x800000c4, 0x41, 0x308},
    {0x800000c5, 0x41, 0x30a}, {0x800000c7, 0x43, 0x327}, {0x800000c8, 0x45, 0x300}, {0x800000c9, 0x45, 0x301}, {0x800000ca, 0x45, 0x302},
    {0x800000cb, 0x45, 0x308}, {0x800000cc, 0x49, 0x300}, {0x800000cd, 0x49, 0x301}, {0x800000ce, 0x49, 0x302}, {0x800000cf, 0x49, 0x308},
    {0x800000d1, 0x4e, 0x303}, {0x800000d2, 0x4f, 0x300}, {0x800000d3, 0x4f, 0x301}, {0x800000d4, 0x4f, 0x302}, {0x800000d5, 0x4f, 0x303},
    {0x800000d6, 0x4f, 0x308}, {0x800000d9, 0x55, 0x300}, {0x800000da, 0x55, 0x301}, {0x800000db, 0x55, 0x302}, {0x800000dc, 0x55, 0x308},
    {0x800000dd, 0x59, 0x301}, {0x800000e0, 0x61, 0x300}, {0x800000e1, 0x61, 0x301}, {0x800000e2, 0x61, 0x302}, {0x800000e3, 0x61, 0x303},
    {0x800000e4, 0x61, 0x308}, {0x800000e5, 0x61, 0x30a}, {0x800000e7, 0x63, 0x327}, {0x800000e8, 0x65, 0x300}, {0x800000e9, 0x65, 0x301},
    {0x800000ea, 0x65, 0x302}, {0x800000eb, 0x65, 0x308}, {0x800000ec, 0x69, 0x300}, {0x800000ed, 0x69, 0x301}, {0x800000ee, 0x69, 0x302},
    {0x800000ef, 0x69, 0x308}, {0x800000f1, 0x6e, 0x303}, {0x800000f2, 0x6f, 0x300}, {0x800000f3, 0x6f, 0x301}, {0x800000f4, 0x6f, 0x302},
    {0x800000f5, 0x6f, 0x303}, {0x800000f6, 0x6f, 0x308}, {0x800000f9, 0x75, 0x300}, {0x800000fa, 0x75, 0x301}, {0x800000fb, 0x75, 0x302},
    {0x800000fc, 0x75, 0x308}, {0x800000fd, 0x79, 0x301}, {0x800000ff, 0x79, 0x308}, {0x80000100, 0x41, 0x304}, {0x80000101, 0x61, 0x304},
    {0x80000102, 0x41, 0x306}, {0x80000103, 0x61, 0x306}, {0x80000104, 0x41, 0x328}, {0x80000105, 0x61, 0x328}, {0x80000106, 0x43, 0x301},
    {0x80000107, 0x63, 0x301}, {0x80000108, 0x43, 0x302}, {0x80000109, 0x63, 0x302}, {0x8000010a, 0x43, 0x307}, {0x8000010b, 0x63, 0x307},
    {0x8000010c, 0x43, 0x30c}, {0x8000010d, 0x63, 0x30c}, {0x8000010e, 0x44, 0x30c}, {0x8000010f, 0x64, 0x30c}, {0x80000112, 0x45, 0x304},
    {0x80000113, 0x65, 0x304}, {0x80000114, 0x45, 0x306}, {0x80000115, 0x65, 0x306}, {0x80000116, 0x45, 0x307}, {0x80000117, 0x65, 0x307},
    {0x80000118, 0x45, 0x328}, {0x80000119, 0x65, 0x328}, {0x8000011a, 0x45, 0x30c}, {0x8000011b, 0x65, 0x30c}, {0x8000011c, 0x47, 0x302},
    {0x8000011d, 0x67, 0x302}, {0x8000011e, 0x47, 0x306}, {0x8000011f, 0x67, 0x306}, {0x80000120, 0x47, 0x307}, {0x80000121, 0x67, 0x307},
    {0x80000122, 0x47, 0x327}, {0x80000123, 0x67, 0x327}, {0x80000124, 0x48, 0x302}, {0x80000125, 0x68, 0x302}, {0x80000128, 0x49, 0x303},
    {0x80000129, 0x69, 0x303}, {0x8000012a, 0x49, 0x304}, {0x8000012b, 0x69, 0x304}, {0x8000012c, 0x49, 0x306}, {0x8000012d, 0x69, 0x306},
    {0x8000012e, 0x49, 0x328}, {0x8000012f, 0x69, 0x328}, {0x80000130, 0x49, 0x307}, {0x80000134, 0x4a, 0x302}, {0x80000135, 0x6a, 0x302},
    {0x80000136, 0x4b, 0x327}, {0x80000137, 0x6b, 0x327}, {0x80000139, 0x4c, 0x301}, {0x8000013a, 0x6c, 0x301}, {0x8000013b, 0x4c, 0x327},
    {0x8000013c, 0x6c, 0x327}, {0x8000013d, 0x4c, 0x30c}, {0x8000013e, 0x6c, 0x30c}, {0x80000143, 0x4e, 0x301}, {0x80000144, 0x6e, 0x301},
    {0x80000145, 0x4e, 0x327}, {0x80000146, 0x6e, 0x327}, {0x80000147, 0x4e, 0x30c}, {0x80000148, 0x6e, 0x30c}, {0x8000014c, 0x4f, 0x304},
    {0x8000014d, 0x6f, 0x304}, {0x8000014e, 0x4f, 0x306}, {0x8000014f, 0x6f, 0x306}, {0x80000150, 0x4f, 0x30b}, {0x80000151, 0x6f, 0x30b},
    {0x80000154, 0x52, 0x301}, {0x80000155, 0x72, 0x301}, {0x80000156, 0x52, 0x327}, {0x80000157, 0x72, 0x327}, {0x80000158, 0x52, 0x30c},
    {0x80000159, 0x72, 0x30c}, {0x8000015a, 0x53, 0x301}, {0x8000015b, 0x73, 0x301}, {0x8000015c, 0x53, 0x302}, {0x8000015d, 0x73, 0x302},
    {0x8000015e, 0x53, 0x327}, {0x8000015f, 0x73, 0x327}, {0x80000160, 0x53, 0x30c}, {0x80000161, 0x73, 0x30c}, {0x80000162, 0x54, 0x327},
    {0x80000163, 0x74, 0x327}, {0x80000164, 0x54, 0x30c}, {0x80000165, 0x74, 0x30c}, {0x80000168, 0x55, 0x303}, {0x80000169, 0x75, 0x303},
    {0x8000016a, 0x55, 0x304}, {0x8000016b, 0x75, 0x304}, {0x8000016c, 0x55, 0x306}, {0x8000016d, 0x75, 0x306}, {0x8000016e, 0x55, 0x30a},
    {0x8000016f, 0x75, 0x30a}, {0x80000170, 0x55, 0x30b}, {0x80000171, 0x75, 0x30b}, {0x80000172, 0x55, 0x328}, {0x80000173, 0x75, 0x328},
    {0x80000174, 0x57, 0x302}, {0x80000175, 0x77, 0x302}, {0x80000176, 0x59, 0x302}, {0x80000177, 0x79, 0x302}, {0x80000178, 0x59, 0x308},
    {0x80000179, 0x5a, 0x301}, {0x8000017a, 0x7a, 0x301}, {0x8000017b, 0x5a, 0x307}, {0x8000017c, 0x7a, 0x307}, {0x8000017d, 0x5a, 0x30c},
    {0x8000017e, 0x7a, 0x30c}, {0x800001a0, 0x4f, 0x31b}, {0x800001a1, 0x6f, 0x31b}, {0x800001af, 0x55, 0x31b}, {0x800001b0, 0x75, 0x31b},
    {0x800001cd, 0x41, 0x30c}, {0x800001ce, 0x61, 0x30c}, {0x800001cf, 0x49, 0x30c}, {0x800001d0, 0x69, 0x30c}, {0x800001d1, 0x4f, 0x30c},
    {0x800001d2, 0x6f, 0x30c}, {0x800001d3, 0x55, 0x30c}, {0x800001d4, 0x75, 0x30c}, {0x800001d5, 0xdc, 0x304}, {0x800001d6, 0xfc, 0x304},
    {0x800001d7, 0xdc, 0x301}, {0x800001d8, 0xfc, 0x301}, {0x800001d9, 0xdc, 0x30c}, {0x800001da, 0xfc, 0x30c}, {0x800001db, 0xdc, 0x300},
    {0x800001dc, 0xfc, 0x300}, {0x800001de, 0xc4, 0x304}, {0x800001df, 0xe4, 0x304}, {0x800001e0, 0x226, 0x304}, {0x800001e1, 0x227, 0x304},
    {0x800001e2, 0xc6, 0x304}, {0x800001e3, 0xe6, 0x304}, {0x800001e6, 0x47, 0x30c}, {0x800001e7, 0x67, 0x30c}, {0x800001e8, 0x4b, 0x30c},
    {0x800001e9, 0x6b, 0x30c}, {0x800001ea, 0x4f, 0x328}, {0x800001eb, 0x6f, 0x328}, {0x800001ec, 0x1ea, 0x304}, {0x800001ed, 0x1eb, 0x304},
    {0x800001ee, 0x1b7, 0x30c}, {0x800001ef, 0x292, 0x30c}, {0x800001f0, 0x6a, 0x30c}, {0x800001f4, 0x47, 0x301}, {0x800001f5, 0x67, 0x301},
    {0x800001f8, 0x4e, 0x300}, {0x800001f9, 0x6e, 0x300}, {0x800001fa, 0xc5, 0x301}, {0x800001fb, 0xe5, 0x301}, {0x800001fc, 0xc6, 0x301},
    {0x800001fd, 0xe6, 0x301}, {0x800001fe, 0xd8, 0x301}, {0x800001ff, 0xf8, 0x301}, {0x80000200, 0x41, 0x30f}, {0x80000201, 0x61, 0x30f},
    {0x80000202, 0x41, 0x311}, {0x80000203, 0x61, 0x311}, {0x80000204, 0x45, 0x30f}, {0x80000205, 0x65, 0x30f}, {0x80000206, 0x45, 0x311},
    {0x80000207, 0x65, 0x311}, {0x80000208, 0x49, 0x30f}, {0x80000209, 0x69, 0x30f}, {0x8000020a, 0x49, 0x311}, {0x8000020b, 0x69, 0x311},
    {0x8000020c, 0x4f, 0x30f}, {0x8000020d, 0x6f, 0x30f}, {0x8000020e, 0x4f, 0x311}, {0x8000020f, 0x6f, 0x311}, {0x80000210, 0x52, 0x30f},
    {0x80000211, 0x72, 0x30f}, {0x80000212, 0x52, 0x311}, {0x80000213, 0x72, 0x311}, {0x80000214, 0x55, 0x30f}, {0x80000215, 0x75, 0x30f},
    {0x80000216, 0x55, 0x311}, {0x80000217, 0x75, 0x311}, {0x80000218, 0x53, 0x326}, {0x80000219, 0x73, 0x326}, {0x8000021a, 0x54, 0x326},
    {0x8000021b, 0x74, 0x326}, {0x8000021e, 0x48, 0x30c}, {0x8000021f, 0x68, 0x30c}, {0x80000226, 0x41, 0x307}, {0x80000227, 0x61, 0x307},
    {0x80000228, 0x45, 0x327}, {0x80000229, 0x65, 0x327}, {0x8000022a, 0xd6, 0x304}, {0x8000022b, 0xf6, 0x304}, {0x8000022c, 0xd5, 0x304},
    {0x8000022d, 0xf5, 0x304}, {0x8000022e, 0x4f, 0x307}, {0x8000022f, 0x6f, 0x307}, {0x80000230, 0x22e, 0x304}, {0x80000231, 0x22f, 0x304},
    {0x80000232, 0x59, 0x304}, {0x80000233, 0x79, 0x304}, {0x340, 0x300, 0x0}, {0x341, 0x301, 0x0}, {0x343, 0x313, 0x0},
    {0x344, 0x308, 0x301}, {0x374, 0x2b9, 0x0}, {0x37e, 0x3b, 0x0}, {0x80000385, 0xa8, 0x301}, {0x80000386, 0x391, 0x301},
    {0x387, 0xb7, 0x0}, {0x80000388, 0x395, 0x301}, {0x80000389, 0x397, 0x301}, {0x8000038a, 0x399, 0x301}, {0x8000038c, 0x39f, 0x301},
    {0x8000038e, 0x3a5, 0x301}, {0x8000038f, 0x3a9, 0x301}, {0x80000390, 0x3ca, 0x301}, {0x800003aa, 0x399, 0x308}, {0x800003ab, 0x3a5, 0x308},
    {0x800003ac, 0x3b1, 0x301}, {0x800003ad, 0x3b5, 0x301}, {0x800003ae, 0x3b7, 0x301}, {0x800003af, 0x3b9, 0x301}, {0x800003b0, 0x3cb, 0x301},
    {0x800003ca, 0x3b9, 0x308}, {0x800003cb, 0x3c5, 0x308}, {0x800003cc, 0x3bf, 0x301}, {0x800003cd, 0x3c5, 0x301}, {0x800003ce, 0x3c9, 0x301},
    {0x800003d3, 0x3d2, 0x301}, {0x800003d4, 0x3d2, 0x308}, {0x80000400, 0x415, 0x300}, {0x80000401, 0x415, 0x308}, {0x80000403, 0x413, 0x301},
    {0x80000407, 0x406, 0x308}, {0x8000040c, 0x41a, 0x301}, {0x8000040d, 0x418, 0x300}, {0x8000040e, 0x423, 0x306}, {0x80000419, 0x418, 0x306},
    {0x80000439, 0x438, 0x306}, {0x80000450, 0x435, 0x300}, {0x80000451, 0x435, 0x308}, {0x80000453, 0x433, 0x301}, {0x80000457, 0x456, 0x308},
    {0x8000045c, 0x43a, 0x301}, {0x8000045d, 0x438, 0x300}, {0x8000045e, 0x443, 0x306}, {0x80000476, 0x474, 0x30f}, {0x80000477, 0x475, 0x30f},
    {0x800004c1, 0x416, 0x306}, {0x800004c2, 0x436, 0x306}, {0x800004d0, 0x410, 0x306}, {0x800004d1, 0x430, 0x306}, {0x800004d2, 0x410, 0x308},
    {0x800004d3, 0x430, 0x308}, {0x800004d6, 0x415, 0x306}, {0x800004d7, 0x435, 0x306}, {0x800004da, 0x4d8, 0x308}, {0x800004db, 0x4d9, 0x308},
    {0x800004dc, 0x416, 0x308}, {0x800004dd, 0x436, 0x308}, {0x800004de, 0x417, 0x308}, {0x800004df, 0x437, 0x308}, {0x800004e2, 0x418, 0x304},
    {0x800004e3, 0x438, 0x304}, {0x800004e4, 0x418, 0x308}, {0x800004e5, 0x438, 0x308}, {0x800004e6, 0x41e, 0x308}, {0x800004e7, 0x43e, 0x308},
    {0x800004ea, 0x4e8, 0x308}, {0x800004eb, 0x4e9, 0x308}, {0x800004ec, 0x42d, 0x308}, {0x800004ed, 0x44d, 0x308}, {0x800004ee, 0x423, 0x304},
    {0x800004ef, 0x443, 0x304}, {0x800004f0, 0x423, 0x308}, {0x800004f1, 0x443, 0x308}, {0x800004f2, 0x423, 0x30b}, {0x800004f3, 0x443, 0x30b},
    {0x800004f4, 0x427, 0x308}, {0x800004f5, 0x447, 0x308}, {0x800004f8, 0x42b, 0x308}, {0x800004f9, 0x44b, 0x308}, {0x80000622, 0x627, 0x653},
    {0x80000623, 0x627, 0x654}, {0x80000624, 0x648, 0x654}, {0x80000625, 0x627, 0x655}, {0x80000626, 0x64a, 0x654}, {0x800006c0, 0x6d5, 0x654},
    {0x800006c2, 0x6c1, 0x654}, {0x800006d3, 0x6d2, 0x654}, {0x80000929, 0x928, 0x93c}, {0x80000931, 0x930, 0x93c}, {0x80000934, 0x933, 0x93c},
    {0x958, 0x915, 0x93c}, {0x959, 0x916, 0x93c}, {0x95a, 0x917, 0x93c}, {0x95b, 0x91c, 0x93c}, {0x95c, 0x921, 0x93c},
    {0x95d, 0x922, 0x93c}, {0x95e, 0x92b, 0x93c}, {0x95f, 0x92f, 0x93c}, {0x800009cb, 0x9c7, 0x9be}, {0x800009cc, 0x9c7, 0x9d7},
    {0x9dc, 0x9a1, 0x9bc}, {0x9dd, 0x9a2, 0x9bc}, {0x9df, 0x9af, 0x9bc}, {0xa33, 0xa32, 0xa3c}, {0xa36, 0xa38, 0xa3c},
    {0xa59, 0xa16, 0xa3c}, {0xa5a, 0xa17, 0xa3c}, {0xa5b, 0xa1c, 0xa3c}, {0xa5e, 0xa2b, 0xa3c}, {0x80000b48, 0xb47, 0xb56},
    {0x80000b4b, 0xb47, 0xb3e}, {0x80000b4c, 0xb47, 0xb57}, {0xb5c, 0xb21, 0xb3c}, {0xb5d, 0xb22, 0xb3c}, {0x80000b94, 0xb92, 0xbd7},
    {0x80000bca, 0xbc6, 0xbbe}, {0x80000bcb, 0xbc7, 0xbbe}, {0x80000bcc, 0xbc6, 0xbd7}, {0x80000c48, 0xc46, 0xc56}, {0x80000cc0, 0xcbf, 0xcd5},
    {0x80000cc7, 0xcc6, 0xcd5}, {0x80000cc8, 0xcc6, 0xcd6}, {0x80000cca, 0xcc6, 0xcc2}, {0x80000ccb, 0xcca, 0xcd5}, {0x80000d4a, 0xd46, 0xd3e},
    {0x80000d4b, 0xd47, 0xd3e}, {0x80000d4c, 0xd46, 0xd57}, {0x80000dda, 0xdd9, 0xdca}, {0x80000ddc, 0xdd9, 0xdcf}, {0x80000ddd, 0xddc, 0xdca},
    {0x80000dde, 0xdd9, 0xddf}, {0xf43, 0xf42, 0xfb7}, {0xf4d, 0xf4c, 0xfb7}, {0xf52, 0xf51, 0xfb7}, {0xf57, 0xf56, 0xfb7},
    {0xf5c, 0xf5b, 0xfb7}, {0xf69, 0xf40, 0xfb5}, {0xf73, 0xf71, 0xf72}, {0xf75, 0xf71, 0xf74}, {0xf76, 0xfb2, 0xf80},
    {0xf78, 0xfb3, 0xf80}, {0xf81, 0xf71, 0xf80}, {0xf93, 0xf92, 0xfb7}, {0xf9d, 0xf9c, 0xfb7}, {0xfa2, 0xfa1, 0xfb7},
    {0xfa7, 0xfa6, 0xfb7}, {0xfac, 0xfab, 0xfb7}, {0xfb9, 0xf90, 0xfb5}, {0x80001026, 0x1025, 0x102e}, {0x80001b06, 0x1b05, 0x1b35},
    {0x80001b08, 0x1b07, 0x1b35}, {0x80001b0a, 0x1b09, 0x1b35}, {0x80001b0c, 0x1b0b, 0x1b35}, {0x80001b0e, 0x1b0d, 0x1b35}, {0x80001b12, 0x1b11, 0x1b35},
    {0x80001b3b, 0x1b3a, 0x1b35}, {0x80001b3d, 0x1b3c, 0x1b35}, {0x80001b40, 0x1b3e, 0x1b35}, {0x80001b41, 0x1b3f, 0x1b35}, {0x80001b43, 0x1b42, 0x1b35},
    {0x80001e00, 0x41, 0x325}, {0x80001e01, 0x61, 0x325}, {0x80001e02, 0x42, 0x307}, {0x80001e03, 0x62, 0x307}, {0x80001e04, 0x42, 0x323},
    {0x80001e05, 0x62, 0x323}, {0x80001e06, 0x42, 0x331}, {0x80001e07, 0x62, 0x331}, {0x80001e08, 0xc7, 0x301}, {0x80001e09, 0xe7, 0x301},
    {0x80001e0a, 0x44, 0x307}, {0x80001e0b, 0x64, 0x307}, {0x80001e0c, 0x44, 0x323}, {0x80001e0d, 0x64, 0x323}, {0x80001e0e, 0x44, 0x331},
    {0x80001e0f, 0x64, 0x331}, {0x80001e10, 0x44, 0x327}, {0x80001e11, 0x64, 0x327}, {0x80001e12, 0x44, 0x32d}, {0x80001e13, 0x64, 0x32d},
    {0x80001e14, 0x112, 0x300}, {0x80001e15, 0x113, 0x300}, {0x80001e16, 0x112, 0x301}, {0x80001e17, 0x113, 0x301}, {0x80001e18, 0x45, 0x32d},
    {0x80001e19, 0x65, 0x32d}, {0x80001e1a, 0x45, 0x330}, {0x80001e1b, 0x65, 0x330}, {0x80001e1c, 0x228, 0x306}, {0x80001e1d, 0x229, 0x306},
    {0x80001e1e, 0x46, 0x307}, {0x80001e1f, 0x66, 0x307}, {0x80001e20, 0x47, 0x304}, {0x80001e21, 0x67, 0x304}, {0x80001e22, 0x48, 0x307},
    {0x80001e23, 0x68, 0x307}, {0x80001e24, 0x48, 0x323}, {0x80001e25, 0x68, 0x323}, {0x80001e26, 0x48, 0x308}, {0x80001e27, 0x68, 0x308},
    {0x80001e28, 0x48, 0x327}, {0x80001e29, 0x68, 0x327}, {0x80001e2a, 0x48, 0x32e}, {0x80001e2b, 0x68, 0x32e}, {0x80001e2c, 0x49, 0x330},
    {0x80001e2d, 0x69, 0x330}, {0x80001e2e, 0xcf, 0x301}, {0x80001e2f, 0xef, 0x301}, {0x80001e30, 0x4b, 0x301}, {0x80001e31, 0x6b, 0x301},
    {0x80001e32, 0x4b, 0x323}, {0x80001e33, 0x6b, 0x323}, {0x80001e34, 0x4b, 0x331}, {0x80001e35, 0x6b, 0x331}, {0x80001e36, 0x4c, 0x323},
    {0x80001e37, 0x6c, 0x323}, {0x80001e38, 0x1e36, 0x304}, {0x80001e39, 0x1e37, 0x304}, {0x80001e3a, 0x4c, 0x331}, {0x80001e3b, 0x6c, 0x331},
    {0x80001e3c, 0x4c, 0x32d}, {0x80001e3d, 0x6c, 0x32d}, {0x80001e3e, 0x4d, 0x301}, {0x80001e3f, 0x6d, 0x301}, {0x80001e40, 0x4d, 0x307},
    {0x80001e41, 0x6d, 0x307}, {0x80001e42, 0x4d, 0x323}, {0x80001e43, 0x6d, 0x323}, {0x80001e44, 0x4e, 0x307}, {0x80001e45, 0x6e, 0x307},
    {0x80001e46, 0x4e, 0x323}, {0x80001e47, 0x6e, 0x323}, {0x80001e48, 0x4e, 0x331}, {0x80001e49, 0x6e, 0x331}, {0x80001e4a, 0x4e, 0x32d},
    {0x80001e4b, 0x6e, 0x32d}, {0x80001e4c, 0xd5, 0x301}, {0x80001e4d, 0xf5, 0x301}, {0x80001e4e, 0xd5, 0x308}, {0x80001e4f, 0xf5, 0x308},
    {0x80001e50, 0x14c, 0x300}, {0x80001e51, 0x14d, 0x300}, {0x80001e52, 0x14c, 0x301}, {0x80001e53, 0x14d, 0x301}, {0x80001e54, 0x50, 0x301},
    {0x80001e55, 0x70, 0x301}, {0x80001e56, 0x50, 0x307}, {0x80001e57, 0x70, 0x307}, {0x80001e58, 0x52, 0x307}, {0x80001e59, 0x72, 0x307},
    {0x80001e5a, 0x52, 0x323}, {0x80001e5b, 0x72, 0x323}, {0x80001e5c, 0x1e5a, 0x304}, {0x80001e5d, 0x1e5b, 0x304}, {0x80001e5e, 0x52, 0x331},
    {0x80001e5f, 0x72, 0x331}, {0x80001e60, 0x53, 0x307}, {0x80001e61, 0x73, 0x307}, {0x80001e62, 0x53, 0x323}, {0x80001e63, 0x73, 0x323},
    {0x80001e64, 0x15a, 0x307}, {0x80001e65, 0x15b, 0x307}, {0x80001e66, 0x160, 0x307}, {0x80001e67, 0x161, 0x307}, {0x80001e68, 0x1e62, 0x307},
    {0x80001e69, 0x1e63, 0x307}, {0x80001e6a, 0x54, 0x307}, {0x80001e6b, 0x74, 0x307}, {0x80001e6c, 0x54, 0x323}, {0x80001e6d, 0x74, 0x323},
    {0x80001e6e, 0x54, 0x331}, {0x80001e6f, 0x74, 0x331}, {0x80001e70, 0x54, 0x32d}, {0x80001e71, 0x74, 0x32d}, {0x80001e72, 0x55, 0x324},
    {0x80001e73, 0x75, 0x324}, {0x80001e74, 0x55, 0x330}, {0x80001e75, 0x75, 0x330}, {0x80001e76, 0x55, 0x32d}, {0x80001e77, 0x75, 0x32d},
    {0x80001e78, 0x168, 0x301}, {0x80001e79, 0x169, 0x301}, {0x80001e7a, 0x16a, 0x308}, {0x80001e7b, 0x16b, 0x308}, {0x80001e7c, 0x56, 0x303},
    {0x80001e7d, 0x76, 0x303}, {0x80001e7e, 0x56, 0x323}, {0x80001e7f, 0x76, 0x323}, {0x80001e80, 0x57, 0x300}, {0x80001e81, 0x77, 0x300},
    {0x80001e82, 0x57, 0x301}, {0x80001e83, 0x77, 0x301}, {0x80001e84, 0x57, 0x308}, {0x80001e85, 0x77, 0x308}, {0x80001e86, 0x57, 0x307},
    {0x80001e87, 0x77, 0x307}, {0x80001e88, 0x57, 0x323}, {0x80001e89, 0x77, 0x323}, {0x80001e8a, 0x58, 0x307}, {0x80001e8b, 0x78, 0x307},
    {0x80001e8c, 0x58, 0x308}, {0x80001e8d, 0x78, 0x308}, {0x80001e8e, 0x59, 0x307}, {0x80001e8f, 0x79, 0x307}, {0x80001e90, 0x5a, 0x302},
    {0x80001e91, 0x7a, 0x302}, {0x80001e92, 0x5a, 0x323}, {0x80001e93, 0x7a, 0x323}, {0x80001e94, 0x5a, 0x331}, {0x80001e95, 0x7a, 0x331},
    {0x80001e96, 0x68, 0x331}, {0x80001e97, 0x74, 0x308}, {0x80001e98, 0x77, 0x30a}, {0x80001e99, 0x79, 0x30a}, {0x80001e9b, 0x17f, 0x307},
    {0x80001ea0, 0x41, 0x323}, {0x80001ea1, 0x61, 0x323}, {0x80001ea2, 0x41, 0x309}, {0x80001ea3, 0x61, 0x309}, {0x80001ea4, 0xc2, 0x301},
    {0x80001ea5, 0xe2, 0x301}, {0x80001ea6, 0xc2, 0x300}, {0x80001ea7, 0xe2, 0x300}, {0x80001ea8, 0xc2, 0x309}, {0x80001ea9, 0xe2, 0x309},
    {0x80001eaa, 0xc2, 0x303}, {0x80001eab, 0xe2, 0x303}, {0x80001eac, 0x1ea0, 0x302}, {0x80001ead, 0x1ea1, 0x302}, {0x80001eae, 0x102, 0x301},
    {0x80001eaf, 0x103, 0x301}, {0x80001eb0, 0x102, 0x300}, {0x80001eb1, 0x103, 0x300}, {0x80001eb2, 0x102, 0x309}, {0x80001eb3, 0x103, 0x309},
    {0x80001eb4, 0x102, 0x303}, {0x80001eb5, 0x103, 0x303}, {0x80001eb6, 0x1ea0, 0x306}, {0x80001eb7, 0x1ea1, 0x306}, {0x80001eb8, 0x45, 0x323},
    {0x80001eb9, 0x65, 0x323}, {0x80001eba, 0x45, 0x309}, {0x80001ebb, 0x65, 0x309}, {0x80001ebc, 0x45, 0x303}, {0x80001ebd, 0x65, 0x303},
    {0x80001ebe, 0xca, 0x301}, {0x80001ebf, 0xea, 0x301}, {0x80001ec0, 0xca, 0x300}, {0x80001ec1, 0xea, 0x300}, {0x80001ec2, 0xca, 0x309},
    {0x80001ec3, 0xea, 0x309}, {0x80001ec4, 0xca, 0x303}, {0x80001ec5, 0xea, 0x303}, {0x80001ec6, 0x1eb8, 0x302}, {0x80001ec7, 0x1eb9, 0x302},
    {0x80001ec8, 0x49, 0x309}, {0x80001ec9, 0x69, 0x309}, {0x80001eca, 0x49, 0x323}, {0x80001ecb, 0x69, 0x323}, {0x80001ecc, 0x4f, 0x323},
    {0x80001ecd, 0x6f, 0x323}, {0x80001ece, 0x4f, 0x309}, {0x80001ecf, 0x6f, 0x309}, {0x80001ed0, 0xd4, 0x301}, {0x80001ed1, 0xf4, 0x301},
    {0x80001ed2, 0xd4, 0x300}, {0x80001ed3, 0xf4, 0x300}, {0x80001ed4, 0xd4, 0x309}, {0x80001ed5, 0xf4, 0x309}, {0x80001ed6, 0xd4, 0x303},
    {0x80001ed7, 0xf4, 0x303}, {0x80001ed8, 0x1ecc, 0x302}, {0x80001ed9, 0x1ecd, 0x302}, {0x80001eda, 0x1a0, 0x301}, {0x80001edb, 0x1a1, 0x301},
    {0x80001edc, 0x1a0, 0x300}, {0x80001edd, 0x1a1, 0x300}, {0x80001ede, 0x1a0, 0x309}, {0x80001edf, 0x1a1, 0x309}, {0x80001ee0, 0x1a0, 0x303},
    {0x80001ee1, 0x1a1, 0x303}, {0x80001ee2, 0x1a0, 0x323}, {0x80001ee3, 0x1a1, 0x323}, {0x80001ee4, 0x55, 0x323}, {0x80001ee5, 0x75, 0x323},
    {0x80001ee6, 0x55, 0x309}, {0x80001ee7, 0x75, 0x309}, {0x80001ee8, 0x1af, 0x301}, {0x80001ee9, 0x1b0, 0x301}, {0x80001eea, 0x1af, 0x300},
    {0x80001eeb, 0x1b0, 0x300}, {0x80001eec, 0x1af, 0x309}, {0x80001eed, 0x1b0, 0x309}, {0x80001eee, 0x1af, 0x303}, {0x80001eef, 0x1b0, 0x303},
    {0x80001ef0, 0x1af, 0x323}, {0x80001ef1, 0x1b0, 0x323}, {0x80001ef2, 0x59, 0x300}, {0x80001ef3, 0x79, 0x300}, {0x80001ef4, 0x59, 0x323},
    {0x80001ef5, 0x79, 0x323}, {0x80001ef6, 0x59, 0x309}, {0x80001ef7, 0x79, 0x309}, {0x80001ef8, 0x59, 0x303}, {0x80001ef9, 0x79, 0x303},
    {0x80001f00, 0x3b1, 0x313}, {0x80001f01, 0x3b1, 0x314}, {0x80001f02, 0x1f00, 0x300}, {0x80001f03, 0x1f01, 0x300}, {0x80001f04, 0x1f00, 0x301},
    {0x80001f05, 0x1f01, 0x301}, {0x80001f06, 0x1f00, 0x342}, {0x80001f07, 0x1f01, 0x342}, {0x80001f08, 0x391, 0x313}, {0x80001f09, 0x391, 0x314},
    {0x80001f0a, 0x1f08, 0x300}, {0x80001f0b, 0x1f09, 0x300}, {0x80001f0c, 0x1f08, 0x301}, {0x80001f0d, 0x1f09, 0x301}, {0x80001f0e, 0x1f08, 0x342},
    {0x80001f0f, 0x1f09, 0x342}, {0x80001f10, 0x3b5, 0x313}, {0x80001f11, 0x3b5, 0x314}, {0x80001f12, 0x1f10, 0x300}, {0x80001f13, 0x1f11, 0x300},
    {0x80001f14, 0x1f10, 0x301}, {0x80001f15, 0x1f11, 0x301}, {0x80001f18, 0x395, 0x313}, {0x80001f19, 0x395, 0x314}, {0x80001f1a, 0x1f18, 0x300},
    {0x80001f1b, 0x1f19, 0x300}, {0x80001f1c, 0x1f18, 0x301}, {0x80001f1d, 0x1f19, 0x301}, {0x80001f20, 0x3b7, 0x313}, {0x80001f21, 0x3b7, 0x314},
    {0x80001f22, 0x1f20, 0x300}, {0x80001f23, 0x1f21, 0x300}, {0x80001f24, 0x1f20, 0x301}, {0x80001f25, 0x1f21, 0x301}, {0x80001f26, 0x1f20, 0x342},
    {0x80001f27, 0x1f21, 0x342}, {0x80001f28, 0x397, 0x313}, {0x80001f29, 0x397, 0x314}, {0x80001f2a, 0x1f28, 0x300}, {0x80001f2b, 0x1f29, 0x300},
    {0x80001f2c, 0x1f28, 0x301}, {0x80001f2d, 0x1f29, 0x301}, {0x80001f2e, 0x1f28, 0x342}, {0x80001f2f, 0x1f29, 0x342}, {0x80001f30, 0x3b9, 0x313},
    {0x80001f31, 0x3b9, 0x314}, {0x80001f32, 0x1f30, 0x300}, {0x80001f33, 0x1f31, 0x300}, {0x80001f34, 0x1f30, 0x301}, {0x80001f35, 0x1f31, 0x301},
    {0x80001f36, 0x1f30, 0x342}, {0x80001f37, 0x1f31, 0x342}, {0x80001f38, 0x399, 0x313}, {0x80001f39, 0x399, 0x314}, {0x80001f3a, 0x1f38, 0x300},
    {0x80001f3b, 0x1f39, 0x300}, {0x80001f3c, 0x1f38, 0x301}, {0x80001f3d, 0x1f39, 0x301}, {0x80001f3e, 0x1f38, 0x342}, {0x80001f3f, 0x1f39, 0x342},
    {0x80001f40, 0x3bf, 0x313}, {0x80001f41, 0x3bf, 0x314}, {0x80001f42, 0x1f40, 0x300}, {0x80001f43, 0x1f41, 0x300}, {0x80001f44, 0x1f40, 0x301},
    {0x80001f45, 0x1f41, 0x301}, {0x80001f48, 0x39f, 0x313}, {0x80001f49, 0x39f, 0x314}, {0x80001f4a, 0x1f48, 0x300}, {0x80001f4b, 0x1f49, 0x300},
    {0x80001f4c, 0x1f48, 0x301}, {0x80001f4d, 0x1f49, 0x301}, {0x80001f50, 0x3c5, 0x313}, {0x80001f51, 0x3c5, 0x314}, {0x80001f52, 0x1f50, 0x300},
    {0x80001f53, 0x1f51, 0x300}, {0x80001f54, 0x1f50, 0x301}, {0x80001f55, 0x1f51, 0x301}, {0x80001f56, 0x1f50, 0x342}, {0x80001f57, 0x1f51, 0x342},
    {0x80001f59, 0x3a5, 0x314}, {0x80001f5b, 0x1f59, 0x300}, {0x80001f5d, 0x1f59, 0x301}, {0x80001f5f, 0x1f59, 0x342}, {0x80001f60, 0x3c9, 0x313},
    {0x80001f61, 0x3c9, 0x314}, {0x80001f62, 0x1f60, 0x300}, {0x80001f63, 0x1f61, 0x300}, {0x80001f64, 0x1f60, 0x301}, {0x80001f65, 0x1f61, 0x301},
    {0x80001f66, 0x1f60, 0x342}, {0x80001f67, 0x1f61, 0x342}, {0x80001f68, 0x3a9, 0x313}, {0x80001f69, 0x3a9, 0x314}, {0x80001f6a, 0x1f68, 0x300},
    {0x80001f6b, 0x1f69, 0x300}, {0x80001f6c, 0x1f68, 0x301}, {0x80001f6d, 0x1f69, 0x301}, {0x80001f6e, 0x1f68, 0x342}, {0x80001f6f, 0x1f69, 0x342},
    {0x80001f70, 0x3b1, 0x300}, {0x1f71, 0x3ac, 0x0}, {0x80001f72, 0x3b5, 0x300}, {0x1f73, 0x3ad, 0x0}, {0x80001f74, 0x3b7, 0x300},
    {0x1f75, 0x3ae, 0x0}, {0x80001f76, 0x3b9, 0x300}, {0x1f77, 0x3af, 0x0}, {0x80001f78, 0x3bf, 0x300}, {0x1f79, 0x3cc, 0x0},
    {0x80001f7a, 0x3c5, 0x300}, {0x1f7b, 0x3cd, 0x0}, {0x80001f7c, 0x3c9, 0x300}, {0x1f7d, 0x3ce, 0x0}, {0x80001f80, 0x1f00, 0x345},
    {0x80001f81, 0x1f01, 0x345}, {0x80001f82, 0x1f02, 0x345}, {0x80001f83, 0x1f03, 0x345}, {0x80001f84, 0x1f04, 0x345}, {0x80001f85, 0x1f05, 0x345},
    {0x80001f86, 0x1f06, 0x345}, {0x80001f87, 0x1f07, 0x345}, {0x80001f88, 0x1f08, 0x345}, {0x80001f89, 0x1f09, 0x345}, {0x80001f8a, 0x1f0a, 0x345},
    {0x80001f8b, 0x1f0b, 0x345}, {0x80001f8c, 0x1f0c, 0x345}, {0x80001f8d, 0x1f0d, 0x345}, {0x80001f8e, 0x1f0e, 0x345}, {0x80001f8f, 0x1f0f, 0x345},
    {0x80001f90, 0x1f20, 0x345}, {0x80001f91, 0x1f21, 0x345}, {0x80001f92, 0x1f22, 0x345}, {0x80001f93, 0x1f23, 0x345}, {0x80001f94, 0x1f24, 0x345},
    {0x80001f95, 0x1f25, 0x345}, {0x80001f96, 0x1f26, 0x345}, {0x80001f97, 0x1f27, 0x345}, {0x80001f98, 0x1f28, 0x345}, {0x80001f99, 0x1f29, 0x345},
    {0x80001f9a, 0x1f2a, 0x345}, {0x80001f9b, 0x1f2b, 0x345}, {0x80001f9c, 0x1f2c, 0x345}, {0x80001f9d, 0x1f2d, 0x345}, {0x80001f9e, 0x1f2e, 0x345},
    {0x80001f9f, 0x1f2f, 0x345}, {0x80001fa0, 0x1f60, 0x345}, {0x80001fa1, 0x1f61, 0x345}, {0x80001fa2, 0x1f62, 0x345}, {0x80001fa3, 0x1f63, 0x345},
    {0x80001fa4, 0x1f64, 0x345}, {0x80001fa5, 0x1f65, 0x345}, {0x80001fa6, 0x1f66, 0x345}, {0x80001fa7, 0x1f67, 0x345}, {0x80001fa8, 0x1f68, 0x345},
    {0x80001fa9, 0x1f69, 0x345}, {0x80001faa, 0x1f6a, 0x345}, {0x80001fab, 0x1f6b, 0x345}, {0x80001fac, 0x1f6c, 0x345}, {0x80001fad, 0x1f6d, 0x345},
    {0x80001fae, 0x1f6e, 0x345}, {0x80001faf, 0x1f6f, 0x345}, {0x80001fb0, 0x3b1, 0x306}, {0x80001fb1, 0x3b1, 0x304}, {0x80001fb2, 0x1f70, 0x345},
    {0x80001fb3, 0x3b1, 0x345}, {0x80001fb4, 0x3ac, 0x345}, {0x80001fb6, 0x3b1, 0x342}, {0x80001fb7, 0x1fb6, 0x345}, {0x80001fb8, 0x391, 0x306},
    {0x80001fb9, 0x391, 0x304}, {0x80001fba, 0x391, 0x300}, {0x1fbb, 0x386, 0x0}, {0x80001fbc, 0x391, 0x345}, {0x1fbe, 0x3b9, 0x0},
    {0x80001fc1, 0xa8, 0x342}, {0x80001fc2, 0x1f74, 0x345}, {0x80001fc3, 0x3b7, 0x345}, {0x80001fc4, 0x3ae, 0x345}, {0x80001fc6, 0x3b7, 0x342},
    {0x80001fc7, 0x1fc6, 0x345}, {0x80001fc8, 0x395, 0x300}, {0x1fc9, 0x388, 0x0}, {0x80001fca, 0x397, 0x300}, {0x1fcb, 0x389, 0x0},
    {0x80001fcc, 0x397, 0x345}, {0x80001fcd, 0x1fbf, 0x300}, {0x80001fce, 0x1fbf, 0x301}, {0x80001fcf, 0x1fbf, 0x342}, {0x80001fd0, 0x3b9, 0x306},
    {0x80001fd1, 0x3b9, 0x304}, {0x80001fd2, 0x3ca, 0x300}, {0x1fd3, 0x390, 0x0}, {0x80001fd6, 0x3b9, 0x342}, {0x80001fd7, 0x3ca, 0x342},
    {0x80001fd8, 0x399, 0x306}, {0x80001fd9, 0x399, 0x304}, {0x80001fda, 0x399, 0x300}, {0x1fdb, 0x38a, 0x0}, {0x80001fdd, 0x1ffe, 0x300},
    {0x80001fde, 0x1ffe, 0x301}, {0x80001fdf, 0x1ffe, 0x342}, {0x80001fe0, 0x3c5, 0x306}, {0x80001fe1, 0x3c5, 0x304}, {0x80001fe2, 0x3cb, 0x300},
    {0x1fe3, 0x3b0, 0x0}, {0x80001fe4, 0x3c1, 0x313}, {0x80001fe5, 0x3c1, 0x314}, {0x80001fe6, 0x3c5, 0x342}, {0x80001fe7, 0x3cb, 0x342},
    {0x80001fe8, 0x3a5, 0x306}, {0x80001fe9, 0x3a5, 0x304}, {0x80001fea, 0x3a5, 0x300}, {0x1feb, 0x38e, 0x0}, {0x80001fec, 0x3a1, 0x314},
    {0x80001fed, 0xa8, 0x300}, {0x1fee, 0x385, 0x0}, {0x1fef, 0x60, 0x0}, {0x80001ff2, 0x1f7c, 0x345}, {0x80001ff3, 0x3c9, 0x345},
    {0x80001ff4, 0x3ce, 0x345}, {0x80001ff6, 0x3c9, 0x342}, {0x80001ff7, 0x1ff6, 0x345}, {0x80001ff8, 0x39f, 0x300}, {0x1ff9, 0x38c, 0x0},
    {0x80001ffa, 0x3a9, 0x300}, {0x1ffb, 0x38f, 0x0}, {0x80001ffc, 0x3a9, 0x345}, {0x1ffd, 0xb4, 0x0}, {0x2000, 0x2002, 0x0},
    {0x2001, 0x2003, 0x0}, {0x2126, 0x3a9, 0x0}, {0x212a, 0x4b, 0x0}, {0x212b, 0xc5, 0x0}, {0x8000219a, 0x2190, 0x338},
    {0x8000219b, 0x2192, 0x338}, {0x800021ae, 0x2194, 0x338}, {0x800021cd, 0x21d0, 0x338}, {0x800021ce, 0x21d4, 0x338}, {0x800021cf, 0x21d2, 0x338},
    {0x80002204, 0x2203, 0x338}, {0x80002209, 0x2208, 0x338}, {0x8000220c, 0x220b, 0x338}, {0x80002224, 0x2223, 0x338}, {0x80002226, 0x2225, 0x338},
    {0x80002241, 0x223c, 0x338}, {0x80002244, 0x2243, 0x338}, {0x80002247, 0x2245, 0x338}, {0x80002249, 0x2248, 0x338}, {0x80002260, 0x3d, 0x338},
    {0x80002262, 0x2261, 0x338}, {0x8000226d, 0x224d, 0x338}, {0x8000226e, 0x3c, 0x338}, {0x8000226f, 0x3e, 0x338}, {0x80002270, 0x2264, 0x338},
    {0x80002271, 0x2265, 0x338}, {0x80002274, 0x2272, 0x338}, {0x80002275, 0x2273, 0x338}, {0x80002278, 0x2276, 0x338}, {0x80002279, 0x2277, 0x338},
    {0x80002280, 0x227a, 0x338}, {0x80002281, 0x227b, 0x338}, {0x80002284, 0x2282, 0x338}, {0x80002285, 0x2283, 0x338}, {0x80002288, 0x2286, 0x338},
    {0x80002289, 0x2287, 0x338}, {0x800022ac, 0x22a2, 0x338}, {0x800022ad, 0x22a8, 0x338}, {0x800022ae, 0x22a9, 0x338}, {0x800022af, 0x22ab, 0x338},
    {0x800022e0, 0x227c, 0x338}, {0x800022e1, 0x227d, 0x338}, {0x800022e2, 0x2291, 0x338}, {0x800022e3, 0x2292, 0x338}, {0x800022ea, 0x22b2, 0x338},
    {0x800022eb, 0x22b3, 0x338}, {0x800022ec, 0x22b4, 0x338}, {0x800022ed, 0x22b5, 0x338}, {0x2329, 0x3008, 0x0}, {0x232a, 0x3009, 0x0},
    {0x2adc, 0x2add, 0x338}, {0x8000304c, 0x304b, 0x3099}, {0x8000304e, 0x304d, 0x3099}, {0x80003050, 0x304f, 0x3099}, {0x80003052, 0x3051, 0x3099},
    {0x80003054, 0x3053, 0x3099}, {0x80003056, 0x3055, 0x3099}, {0x80003058, 0x3057, 0x3099}, {0x8000305a, 0x3059, 0x3099}, {0x8000305c, 0x305b, 0x3099},
    {0x8000305e, 0x305d, 0x3099}, {0x80003060, 0x305f, 0x3099}, {0x80003062, 0x3061, 0x3099}, {0x80003065, 0x3064, 0x3099}, {0x80003067, 0x3066, 0x3099},
    {0x80003069, 0x3068, 0x3099}, {0x80003070, 0x306f, 0x3099}, {0x80003071, 0x306f, 0x309a}, {0x80003073, 0x3072, 0x3099}, {0x80003074, 0x3072, 0x309a},
    {0x80003076, 0x3075, 0x3099}, {0x80003077, 0x3075, 0x309a}, {0x80003079, 0x3078, 0x3099}, {0x8000307a, 0x3078, 0x309a}, {0x8000307c, 0x307b, 0x3099},
    {0x8000307d, 0x307b, 0x309a}, {0x80003094, 0x3046, 0x3099}, {0x8000309e, 0x309d, 0x3099}, {0x800030ac, 0x30ab, 0x3099}, {0x800030ae, 0x30ad, 0x3099},
    {0x800030b0, 0x30af, 0x3099}, {0x800030b2, 0x30b1, 0x3099}, {0x800030b4, 0x30b3, 0x3099}, {0x800030b6, 0x30b5, 0x3099}, {0x800030b8, 0x30b7, 0x3099},
    {0x800030ba, 0x30b9, 0x3099}, {0x800030bc, 0x30bb, 0x3099}, {0x800030be, 0x30bd, 0x3099}, {0x800030c0, 0x30bf, 0x3099}, {0x800030c2, 0x30c1, 0x3099},
    {0x800030c5, 0x30c4, 0x3099}, {0x800030c7, 0x30c6, 0x3099}, {0x800030c9, 0x30c8, 0x3099}, {0x800030d0, 0x30cf, 0x3099}, {0x800030d1, 0x30cf, 0x309a},
    {0x800030d3, 0x30d2, 0x3099}, {0x800030d4, 0x30d2, 0x309a}, {0x800030d6, 0x30d5, 0x3099}, {0x800030d7, 0x30d5, 0x309a}, {0x800030d9, 0x30d8, 0x3099},
    {0x800030da, 0x30d8, 0x309a}, {0x800030dc, 0x30db, 0x3099}, {0x800030dd, 0x30db, 0x309a}, {0x800030f4, 0x30a6, 0x3099}, {0x800030f7, 0x30ef, 0x3099},
    {0x800030f8, 0x30f0, 0x3099}, {0x800030f9, 0x30f1, 0x3099}, {0x800030fa, 0x30f2, 0x3099}, {0x800030fe, 0x30fd, 0x3099}, {0xf900, 0x8c48, 0x0},
    {0xf901, 0x66f4, 0x0}, {0xf902, 0x8eca, 0x0}, {0xf903, 0x8cc8, 0x0}, {0xf904, 0x6ed1, 0x0}, {0xf905, 0x4e32, 0x0},
    {0xf906, 0x53e5, 0x0}, {0xf907, 0x9f9c, 0x0}, {0xf908, 0x9f9c, 0x0}, {0xf909, 0x5951, 0x0}, {0xf90a, 0x91d1, 0x0},
    {0xf90b, 0x5587, 0x0}, {0xf90c, 0x5948, 0x0}, {0xf90d, 0x61f6, 0x0}, {0xf90e, 0x7669, 0x0}, {0xf90f, 0x7f85, 0x0},
    {0xf910, 0x863f, 0x0}, {0xf911, 0x87ba, 0x0}, {0xf912, 0x88f8, 0x0}, {0xf913, 0x908f, 0x0}, {0xf914, 0x6a02, 0x0},
    {0xf915, 0x6d1b, 0x0}, {0xf916, 0x70d9, 0x0}, {0xf917, 0x73de, 0x0}, {0xf918, 0x843d, 0x0}, {0xf919, 0x916a, 0x0},
    {0xf91a, 0x99f1, 0x0}, {0xf91b, 0x4e82, 0x0}, {0xf91c, 0x5375, 0x0}, {0xf91d, 0x6b04, 0x0}, {0xf91e, 0x721b, 0x0},
    {0xf91f, 0x862d, 0x0}, {0xf920, 0x9e1e, 0x0}, {0xf921, 0x5d50, 0x0}, {0xf922, 0x6feb, 0x0}, {0xf923, 0x85cd, 0x0},
    {0xf924, 0x8964, 0x0}, {0xf925, 0x62c9, 0x0}, {0xf926, 0x81d8, 0x0}, {0xf927, 0x881f, 0x0}, {0xf928, 0x5eca, 0x0},
    {0xf929, 0x6717, 0x0}, {0xf92a, 0x6d6a, 0x0}, {0xf92b, 0x72fc, 0x0}, {0xf92c, 0x90ce, 0x0}, {0xf92d, 0x4f86, 0x0},
    {0xf92e, 0x51b7, 0x0}, {0xf92f, 0x52de, 0x0}, {0xf930, 0x64c4, 0x0}, {0xf931, 0x6ad3, 0x0}, {0xf932, 0x7210, 0x0},
    {0xf933, 0x76e7, 0x0}, {0xf934, 0x8001, 0x0}, {0xf935, 0x8606, 0x0}, {0xf936, 0x865c, 0x0}, {0xf937, 0x8def, 0x0},
    {0xf938, 0x9732, 0x0}, {0xf939, 0x9b6f, 0x0}, {0xf93a, 0x9dfa, 0x0}, {0xf93b, 0x788c, 0x0}, {0xf93c, 0x797f, 0x0},
    {0xf93d, 0x7da0, 0x0}, {0xf93e, 0x83c9, 0x0}, {0xf93f, 0x9304, 0x0}, {0xf940, 0x9e7f, 0x0}, {0xf941, 0x8ad6, 0x0},
    {0xf942, 0x58df, 0x0}, {0xf943, 0x5f04, 0x0}, {0xf944, 0x7c60, 0x0}, {0xf945, 0x807e, 0x0}, {0xf946, 0x7262, 0x0},
    {0xf947, 0x78ca, 0x0}, {0xf948, 0x8cc2, 0x0}, {0xf949, 0x96f7, 0x0}, {0xf94a, 0x58d8, 0x0}, {0xf94b, 0x5c62, 0x0},
    {0xf94c, 0x6a13, 0x0}, {0xf94d, 0x6dda, 0x0}, {0xf94e, 0x6f0f, 0x0}, {0xf94f, 0x7d2f, 0x0}, {0xf950, 0x7e37, 0x0},
    {0xf951, 0x964b, 0x0}, {0xf952, 0x52d2, 0x0}, {0xf953, 0x808b, 0x0}, {0xf954, 0x51dc, 0x0}, {0xf955, 0x51cc, 0x0},
    {0xf956, 0x7a1c, 0x0}, {0xf957, 0x7dbe, 0x0}, {0xf958, 0x83f1, 0x0}, {0xf959, 0x9675, 0x0}, {0xf95a, 0x8b80, 0x0},
    {0xf95b, 0x62cf, 0x0}, {0xf95c, 0x6a02, 0x0}, {0xf95d, 0x8afe, 0x0}, {0xf95e, 0x4e39, 0x0}, {0xf95f, 0x5be7, 0x0},
    {0xf960, 0x6012, 0x0}, {0xf961, 0x7387, 0x0}, {0xf962, 0x7570, 0x0}, {0xf963, 0x5317, 0x0}, {0xf964, 0x78fb, 0x0},
    {0xf965, 0x4fbf, 0x0}, {0xf966, 0x5fa9, 0x0}, {0xf967, 0x4e0d, 0x0}, {0xf968, 0x6ccc, 0x0}, {0xf969, 0x6578, 0x0},
    {0xf96a, 0x7d22, 0x0}, {0xf96b, 0x53c3, 0x0}, {0xf96c, 0x585e, 0x0}, {0xf96d, 0x7701, 0x0}, {0xf96e, 0x8449, 0x0},
    {0xf96f, 0x8aaa, 0x0}, {0xf970, 0x6bba, 0x0}, {0xf971, 0x8fb0, 0x0}, {0xf972, 0x6c88, 0x0}, {0xf973, 0x62fe, 0x0},
    {0xf974, 0x82e5, 0x0}, {0xf975, 0x63a0, 0x0}, {0xf976, 0x7565, 0x0}, {0xf977, 0x4eae, 0x0}, {0xf978, 0x5169, 0x0},
    {0xf979, 0x51c9, 0x0}, {0xf97a, 0x6881, 0x0}, {0xf97b, 0x7ce7, 0x0}, {0xf97c, 0x826f, 0x0}, {0xf97d, 0x8ad2, 0x0},
    {0xf97e, 0x91cf, 0x0}, {0xf97f, 0x52f5, 0x0}, {0xf980, 0x5442, 0x0}, {0xf981, 0x5973, 0x0}, {0xf982, 0x5eec, 0x0},
    {0xf983, 0x65c5, 0x0}, {0xf984, 0x6ffe, 0x0}, {0xf985, 0x792a, 0x0}, {0xf986, 0x95ad, 0x0}, {0xf987, 0x9a6a, 0x0},
    {0xf988, 0x9e97, 0x0}, {0xf989, 0x9ece, 0x0}, {0xf98a, 0x529b, 0x0}, {0xf98b, 0x66c6, 0x0}, {0xf98c, 0x6b77, 0x0},
    {0xf98d, 0x8f62, 0x0}, {0xf98e, 0x5e74, 0x0}, {0xf98f, 0x6190, 0x0}, {0xf990, 0x6200, 0x0}, {0xf991, 0x649a, 0x0},
    {0xf992, 0x6f23, 0x0}, {0xf993, 0x7149, 0x0}, {0xf994, 0x7489, 0x0}, {0xf995, 0x79ca, 0x0}, {0xf996, 0x7df4, 0x0},
    {0xf997, 0x806f, 0x0}, {0xf998, 0x8f26, 0x0}, {0xf999, 0x84ee, 0x0}, {0xf99a, 0x9023, 0x0}, {0xf99b, 0x934a, 0x0},
    {0xf99c, 0x5217, 0x0}, {0xf99d, 0x52a3, 0x0}, {0xf99e, 0x54bd, 0x0}, {0xf99f, 0x70c8, 0x0}, {0xf9a0, 0x88c2, 0x0},
    {0xf9a1, 0x8aaa, 0x0}, {0xf9a2, 0x5ec9, 0x0}, {0xf9a3, 0x5ff5, 0x0}, {0xf9a4, 0x637b, 0x0}, {0xf9a5, 0x6bae, 0x0},
    {0xf9a6, 0x7c3e, 0x0}, {0xf9a7, 0x7375, 0x0}, {0xf9a8, 0x4ee4, 0x0}, {0xf9a9, 0x56f9, 0x0}, {0xf9aa, 0x5be7, 0x0},
    {0xf9ab, 0x5dba, 0x0}, {0xf9ac, 0x601c, 0x0}, {0xf9ad, 0x73b2, 0x0}, {0xf9ae, 0x7469, 0x0}, {0xf9af, 0x7f9a, 0x0},
    {0xf9b0, 0x8046, 0x0}, {0xf9b1, 0x9234, 0x0}, {0xf9b2, 0x96f6, 0x0}, {0xf9b3, 0x9748, 0x0}, {0xf9b4, 0x9818, 0x0},
    {0xf9b5, 0x4f8b, 0x0}, {0xf9b6, 0x79ae, 0x0}, {0xf9b7, 0x91b4, 0x0}, {0xf9b8, 0x96b8, 0x0}, {0xf9b9, 0x60e1, 0x0},
    {0xf9ba, 0x4e86, 0x0}, {0xf9bb, 0x50da, 0x0}, {0xf9bc, 0x5bee, 0x0}, {0xf9bd, 0x5c3f, 0x0}, {0xf9be, 0x6599, 0x0},
    {0xf9bf, 0x6a02, 0x0}, {0xf9c0, 0x71ce, 0x0}, {0xf9c1, 0x7642, 0x0}, {0xf9c2, 0x84fc, 0x0}, {0xf9c3, 0x907c, 0x0},
    {0xf9c4, 0x9f8d, 0x0}, {0xf9c5, 0x6688, 0x0}, {0xf9c6, 0x962e, 0x0}, {0xf9c7, 0x5289, 0x0}, {0xf9c8, 0x677b, 0x0},
    {0xf9c9, 0x67f3, 0x0}, {0xf9ca, 0x6d41, 0x0}, {0xf9cb, 0x6e9c, 0x0}, {0xf9cc, 0x7409, 0x0}, {0xf9cd, 0x7559, 0x0},
    {0xf9ce, 0x786b, 0x0}, {0xf9cf, 0x7d10, 0x0}, {0xf9d0, 0x985e, 0x0}, {0xf9d1, 0x516d, 0x0}, {0xf9d2, 0x622e, 0x0},
    {0xf9d3, 0x9678, 0x0}, {0xf9d4, 0x502b, 0x0}, {0xf9d5, 0x5d19, 0x0}, {0xf9d6, 0x6dea, 0x0}, {0xf9d7, 0x8f2a, 0x0},
    {0xf9d8, 0x5f8b, 0x0}, {0xf9d9, 0x6144, 0x0}, {0xf9da, 0x6817, 0x0}, {0xf9db, 0x7387, 0x0}, {0xf9dc, 0x9686, 0x0},
    {0xf9dd, 0x5229, 0x0}, {0xf9de, 0x540f, 0x0}, {0xf9df, 0x5c65, 0x0}, {0xf9e0, 0x6613, 0x0}, {0xf9e1, 0x674e, 0x0},
    {0xf9e2, 0x68a8, 0x0}, {0xf9e3, 0x6ce5, 0x0}, {0xf9e4, 0x7406, 0x0}, {0xf9e5, 0x75e2, 0x0}, {0xf9e6, 0x7f79, 0x0},
    {0xf9e7, 0x88cf, 0x0}, {0xf9e8, 0x88e1, 0x0}, {0xf9e9, 0x91cc, 0x0}, {0xf9ea, 0x96e2, 0x0}, {0xf9eb, 0x533f, 0x0},
    {0xf9ec, 0x6eba, 0x0}, {0xf9ed, 0x541d, 0x0}, {0xf9ee, 0x71d0, 0x0}, {0xf9ef, 0x7498, 0x0}, {0xf9f0, 0x85fa, 0x0},
    {0xf9f1, 0x96a3, 0x0}, {0xf9f2, 0x9c57, 0x0}, {0xf9f3, 0x9e9f, 0x0}, {0xf9f4, 0x6797, 0x0}, {0xf9f5, 0x6dcb, 0x0},
    {0xf9f6, 0x81e8, 0x0}, {0xf9f7, 0x7acb, 0x0}, {0xf9f8, 0x7b20, 0x0}, {0xf9f9, 0x7c92, 0x0}, {0xf9fa, 0x72c0, 0x0},
    {0xf9fb, 0x7099, 0x0}, {0xf9fc, 0x8b58, 0x0}, {0xf9fd, 0x4ec0, 0x0}, {0xf9fe, 0x8336, 0x0}, {0xf9ff, 0x523a, 0x0},
    {0xfa00, 0x5207, 0x0}, {0xfa01, 0x5ea6, 0x0}, {0xfa02, 0x62d3, 0x0}, {0xfa03, 0x7cd6, 0x0}, {0xfa04, 0x5b85, 0x0},
    {0xfa05, 0x6d1e, 0x0}, {0xfa06, 0x66b4, 0x0}, {0xfa07, 0x8f3b, 0x0}, {0xfa08, 0x884c, 0x0}, {0xfa09, 0x964d, 0x0},
    {0xfa0a, 0x898b, 0x0}, {0xfa0b, 0x5ed3, 0x0}, {0xfa0c, 0x5140, 0x0}, {0xfa0d, 0x55c0, 0x0}, {0xfa10, 0x585a, 0x0},
    {0xfa12, 0x6674, 0x0}, {0xfa15, 0x51de, 0x0}, {0xfa16, 0x732a, 0x0}, {0xfa17, 0x76ca, 0x0}, {0xfa18, 0x793c, 0x0},
    {0xfa19, 0x795e, 0x0}, {0xfa1a, 0x7965, 0x0}, {0xfa1b, 0x798f, 0x0}, {0xfa1c, 0x9756, 0x0}, {0xfa1d, 0x7cbe, 0x0},
    {0xfa1e, 0x7fbd, 0x0}, {0xfa20, 0x8612, 0x0}, {0xfa22, 0x8af8, 0x0}, {0xfa25, 0x9038, 0x0}, {0xfa26, 0x90fd, 0x0},
    {0xfa2a, 0x98ef, 0x0}, {0xfa2b, 0x98fc, 0x0}, {0xfa2c, 0x9928, 0x0}, {0xfa2d, 0x9db4, 0x0}, {0xfa2e, 0x90de, 0x0},
    {0xfa2f, 0x96b7, 0x0}, {0xfa30, 0x4fae, 0x0}, {0xfa31, 0x50e7, 0x0}, {0xfa32, 0x514d, 0x0}, {0xfa33, 0x52c9, 0x0},
    {0xfa34, 0x52e4, 0x0}, {0xfa35, 0x5351, 0x0}, {0xfa36, 0x559d, 0x0}, {0xfa37, 0x5606, 0x0}, {0xfa38, 0x5668, 0x0},
    {0xfa39, 0x5840, 0x0}, {0xfa3a, 0x58a8, 0x0}, {0xfa3b, 0x5c64, 0x0}, {0xfa3c, 0x5c6e, 0x0}, {0xfa3d, 0x6094, 0x0},
    {0xfa3e, 0x6168, 0x0}, {0xfa3f, 0x618e, 0x0}, {0xfa40, 0x61f2, 0x0}, {0xfa41, 0x654f, 0x0}, {0xfa42, 0x65e2, 0x0},
    {0xfa43, 0x6691, 0x0}, {0xfa44, 0x6885, 0x0}, {0xfa45, 0x6d77, 0x0}, {0xfa46, 0x6e1a, 0x0}, {0xfa47, 0x6f22, 0x0},
    {0xfa48, 0x716e, 0x0}, {0xfa49, 0x722b, 0x0}, {0xfa4a, 0x7422, 0x0}, {0xfa4b, 0x7891, 0x0}, {0xfa4c, 0x793e, 0x0},
    {0xfa4d, 0x7949, 0x0}, {0xfa4e, 0x7948, 0x0}, {0xfa4f, 0x7950, 0x0}, {0xfa50, 0x7956, 0x0}, {0xfa51, 0x795d, 0x0},
    {0xfa52, 0x798d, 0x0}, {0xfa53, 0x798e, 0x0}, {0xfa54, 0x7a40, 0x0}, {0xfa55, 0x7a81, 0x0}, {0xfa56, 0x7bc0, 0x0},
    {0xfa57, 0x7df4, 0x0}, {0xfa58, 0x7e09, 0x0}, {0xfa59, 0x7e41, 0x0}, {0xfa5a, 0x7f72, 0x0}, {0xfa5b, 0x8005, 0x0},
    {0xfa5c, 0x81ed, 0x0}, {0xfa5d, 0x8279, 0x0}, {0xfa5e, 0x8279, 0x0}, {0xfa5f, 0x8457, 0x0}, {0xfa60, 0x8910, 0x0},
    {0xfa61, 0x8996, 0x0}, {0xfa62, 0x8b01, 0x0}, {0xfa63, 0x8b39, 0x0}, {0xfa64, 0x8cd3, 0x0}, {0xfa65, 0x8d08, 0x0},
    {0xfa66, 0x8fb6, 0x0}, {0xfa67, 0x9038, 0x0}, {0xfa68, 0x96e3, 0x0}, {0xfa69, 0x97ff, 0x0}, {0xfa6a, 0x983b, 0x0},
    {0xfa6b, 0x6075, 0x0}, {0xfa6c, 0x242ee, 0x0}, {0xfa6d, 0x8218, 0x0}, {0xfa70, 0x4e26, 0x0}, {0xfa71, 0x51b5, 0x0},
    {0xfa72, 0x5168, 0x0}, {0xfa73, 0x4f80, 0x0}, {0xfa74, 0x5145, 0x0}, {0xfa75, 0x5180, 0x0}, {0xfa76, 0x52c7, 0x0},
    {0xfa77, 0x52fa, 0x0}, {0xfa78, 0x559d, 0x0}, {0xfa79, 0x5555, 0x0}, {0xfa7a, 0x5599, 0x0}, {0xfa7b, 0x55e2, 0x0},
    {0xfa7c, 0x585a, 0x0}, {0xfa7d, 0x58b3, 0x0}, {0xfa7e, 0x5944, 0x0}, {0xfa7f, 0x5954, 0x0}, {0xfa80, 0x5a62, 0x0},
    {0xfa81, 0x5b28, 0x0}, {0xfa82, 0x5ed2, 0x0}, {0xfa83, 0x5ed9, 0x0}, {0xfa84, 0x5f69, 0x0}, {0xfa85, 0x5fad, 0x0},
    {0xfa86, 0x60d8, 0x0}, {0xfa87, 0x614e, 0x0}, {0xfa88, 0x6108, 0x0}, {0xfa89, 0x618e, 0x0}, {0xfa8a, 0x6160, 0x0},
    {0xfa8b, 0x61f2, 0x0}, {0xfa8c, 0x6234, 0x0}, {0xfa8d, 0x63c4, 0x0}, {0xfa8e, 0x641c, 0x0}, {0xfa8f, 0x6452, 0x0},
    {0xfa90, 0x6556, 0x0}, {0xfa91, 0x6674, 0x0}, {0xfa92, 0x6717, 0x0}, {0xfa93, 0x671b, 0x0}, {0xfa94, 0x6756, 0x0},
    {0xfa95, 0x6b79, 0x0}, {0xfa96, 0x6bba, 0x0}, {0xfa97, 0x6d41, 0x0}, {0xfa98, 0x6edb, 0x0}, {0xfa99, 0x6ecb, 0x0},
    {0xfa9a, 0x6f22, 0x0}, {0xfa9b, 0x701e, 0x0}, {0xfa9c, 0x716e, 0x0}, {0xfa9d, 0x77a7, 0x0}, {0xfa9e, 0x7235, 0x0},
    {0xfa9f, 0x72af, 0x0}, {0xfaa0, 0x732a, 0x0}, {0xfaa1, 0x7471, 0x0}, {0xfaa2, 0x7506, 0x0}, {0xfaa3, 0x753b, 0x0},
    {0xfaa4, 0x761d, 0x0}, {0xfaa5, 0x761f, 0x0}, {0xfaa6, 0x76ca, 0x0}, {0xfaa7, 0x76db, 0x0}, {0xfaa8, 0x76f4, 0x0},
    {0xfaa9, 0x774a, 0x0}, {0xfaaa, 0x7740, 0x0}, {0xfaab, 0x78cc, 0x0}, {0xfaac, 0x7ab1, 0x0}, {0xfaad, 0x7bc0, 0x0},
    {0xfaae, 0x7c7b, 0x0}, {0xfaaf, 0x7d5b, 0x0}, {0xfab0, 0x7df4, 0x0}, {0xfab1, 0x7f3e, 0x0}, {0xfab2, 0x8005, 0x0},
    {0xfab3, 0x8352, 0x0}, {0xfab4, 0x83ef, 0x0}, {0xfab5, 0x8779, 0x0}, {0xfab6, 0x8941, 0x0}, {0xfab7, 0x8986, 0x0},
    {0xfab8, 0x8996, 0x0}, {0xfab9, 0x8abf, 0x0}, {0xfaba, 0x8af8, 0x0}, {0xfabb, 0x8acb, 0x0}, {0xfabc, 0x8b01, 0x0},
    {0xfabd, 0x8afe, 0x0}, {0xfabe, 0x8aed, 0x0}, {0xfabf, 0x8b39, 0x0}, {0xfac0, 0x8b8a, 0x0}, {0xfac1, 0x8d08, 0x0},
    {0xfac2, 0x8f38, 0x0}, {0xfac3, 0x9072, 0x0}, {0xfac4, 0x9199, 0x0}, {0xfac5, 0x9276, 0x0}, {0xfac6, 0x967c, 0x0},
    {0xfac7, 0x96e3, 0x0}, {0xfac8, 0x9756, 0x0}, {0xfac9, 0x97db, 0x0}, {0xfaca, 0x97ff, 0x0}, {0xfacb, 0x980b, 0x0},
    {0xfacc, 0x983b, 0x0}, {0xfacd, 0x9b12, 0x0}, {0xface, 0x9f9c, 0x0}, {0xfacf, 0x2284a, 0x0}, {0xfad0, 0x22844, 0x0},
    {0xfad1, 0x233d5, 0x0}, {0xfad2, 0x3b9d, 0x0}, {0xfad3, 0x4018, 0x0}, {0xfad4, 0x4039, 0x0}, {0xfad5, 0x25249, 0x0},
    {0xfad6, 0x25cd0, 0x0}, {0xfad7, 0x27ed3, 0x0}, {0xfad8, 0x9f43, 0x0}, {0xfad9, 0x9f8e, 0x0}, {0xfb1d, 0x5d9, 0x5b4},
    {0xfb1f, 0x5f2, 0x5b7}, {0xfb2a, 0x5e9, 0x5c1}, {0xfb2b, 0x5e9, 0x5c2}, {0xfb2c, 0xfb49, 0x5c1}, {0xfb2d, 0xfb49, 0x5c2},
    {0xfb2e, 0x5d0, 0x5b7}, {0xfb2f, 0x5d0, 0x5b8}, {0xfb30, 0x5d0, 0x5bc}, {0xfb31, 0x5d1, 0x5bc}, {0xfb32, 0x5d2, 0x5bc},
    {0xfb33, 0x5d3, 0x5bc}, {0xfb34, 0x5d4, 0x5bc}, {0xfb35, 0x5d5, 0x5bc}, {0xfb36, 0x5d6, 0x5bc}, {0xfb38, 0x5d8, 0x5bc},
    {0xfb39, 0x5d9, 0x5bc}, {0xfb3a, 0x5da, 0x5bc}, {0xfb3b, 0x5db, 0x5bc}, {0xfb3c, 0x5dc, 0x5bc}, {0xfb3e, 0x5de, 0x5bc},
    {0xfb40, 0x5e0, 0x5bc}, {0xfb41, 0x5e1, 0x5bc}, {0xfb43, 0x5e3, 0x5bc}, {0xfb44, 0x5e4, 0x5bc}, {0xfb46, 0x5e6, 0x5bc},
    {0xfb47, 0x5e7, 0x5bc}, {0xfb48, 0x5e8, 0x5bc}, {0xfb49, 0x5e9, 0x5bc}, {0xfb4a, 0x5ea, 0x5bc}, {0xfb4b, 0x5d5, 0x5b9},
    {0xfb4c, 0x5d1, 0x5bf}, {0xfb4d, 0x5db, 0x5bf}, {0xfb4e, 0x5e4, 0x5bf}, {0x8001109a, 0x11099, 0x110ba}, {0x8001109c, 0x1109b, 0x110ba},
    {0x800110ab, 0x110a5, 0x110ba}, {0x8001112e, 0x11131, 0x11127}, {0x8001112f, 0x11132, 0x11127}, {0x8001134b, 0x11347, 0x1133e}, {0x8001134c, 0x11347, 0x11357},
    {0x800114bb, 0x114b9, 0x114ba}, {0x800114bc, 0x114b9, 0x114b0}, {0x800114be, 0x114b9, 0x114bd}, {0x800115ba, 0x115b8, 0x115af}, {0x800115bb, 0x115b9, 0x115af},
    {0x1d15e, 0x1d157, 0x1d165}, {0x1d15f, 0x1d158, 0x1d165}, {0x1d160, 0x1d15f, 0x1d16e}, {0x1d161, 0x1d15f, 0x1d16f}, {0x1d162, 0x1d15f, 0x1d170},
    {0x1d163, 0x1d15f, 0x1d171}, {0x1d164, 0x1d15f, 0x1d172}, {0x1d1bb, 0x1d1b9, 0x1d165}, {0x1d1bc, 0x1d1ba, 0x1d165}, {0x1d1bd, 0x1d1bb, 0x1d16e},
    {0x1d1be, 0x1d1bc, 0x1d16e}, {0x1d1bf, 0x1d1bb, 0x1d16f}, {0x1d1c0, 0x1d1bc, 0x1d16f}, {0x2f800, 0x4e3d, 0x0}, {0x2f801, 0x4e38, 0x0},
    {0x2f802, 0x4e41, 0x0}, {0x2f803, 0x20122, 0x0}, {0x2f804, 0x4f60, 0x0}, {0x2f805, 0x4fae, 0x0}, {0x2f806, 0x4fbb, 0x0},
    {0x2f807, 0x5002, 0x0}, {0x2f808, 0x507a, 0x0}, {0x2f809, 0x5099, 0x0}, {0x2f80a, 0x50e7, 0x0}, {0x2f80b, 0x50cf, 0x0},
    {0x2f80c, 0x349e, 0x0}, {0x2f80d, 0x2063a, 0x0}, {0x2f80e, 0x514d, 0x0}, {0x2f80f, 0x5154, 0x0}, {0x2f810, 0x5164, 0x0},
    {0x2f811, 0x5177, 0x0}, {0x2f812, 0x2051c, 0x0}, {0x2f813, 0x34b9, 0x0}, {0x2f814, 0x5167, 0x0}, {0x2f815, 0x518d, 0x0},
    {0x2f816, 0x2054b, 0x0}, {0x2f817, 0x5197, 0x0}, {0x2f818, 0x51a4, 0x0}, {0x2f819, 0x4ecc, 0x0}, {0x2f81a, 0x51ac, 0x0},
    {0x2f81b, 0x51b5, 0x0}, {0x2f81c, 0x291df, 0x0}, {0x2f81d, 0x51f5, 0x0}, {0x2f81e, 0x5203, 0x0}, {0x2f81f, 0x34df, 0x0},
    {0x2f820, 0x523b, 0x0}, {0x2f821, 0x5246, 0x0}, {0x2f822, 0x5272, 0x0}, {0x2f823, 0x5277, 0x0}, {0x2f824, 0x3515, 0x0},
    {0x2f825, 0x52c7, 0x0}, {0x2f826, 0x52c9, 0x0}, {0x2f827, 0x52e4, 0x0}, {0x2f828, 0x52fa, 0x0}, {0x2f829, 0x5305, 0x0},
    {0x2f82a, 0x5306, 0x0}, {0x2f82b, 0x5317, 0x0}, {0x2f82c, 0x5349, 0x0}, {0x2f82d, 0x5351, 0x0}, {0x2f82e, 0x535a, 0x0},
    {0x2f82f, 0x5373, 0x0}, {0x2f830, 0x537d, 0x0}, {0x2f831, 0x537f, 0x0}, {0x2f832, 0x537f, 0x0}, {0x2f833, 0x537f, 0x0},
    {0x2f834, 0x20a2c, 0x0}, {0x2f835, 0x7070, 0x0}, {0x2f836, 0x53ca, 0x0}, {0x2f837, 0x53df, 0x0}, {0x2f838, 0x20b63, 0x0},
    {0x2f839, 0x53eb, 0x0}, {0x2f83a, 0x53f1, 0x0}, {0x2f83b, 0x5406, 0x0}, {0x2f83c, 0x549e, 0x0}, {0x2f83d, 0x5438, 0x0},
    {0x2f83e, 0x5448, 0x0}, {0x2f83f, 0x5468, 0x0}, {0x2f840, 0x54a2, 0x0}, {0x2f841, 0x54f6, 0x0}, {0x2f842, 0x5510, 0x0},
    {0x2f843, 0x5553, 0x0}, {0x2f844, 0x5563, 0x0}, {0x2f845, 0x5584, 0x0}, {0x2f846, 0x5584, 0x0}, {0x2f847, 0x5599, 0x0},
    {0x2f848, 0x55ab, 0x0}, {0x2f849, 0x55b3, 0x0}, {0x2f84a, 0x55c2, 0x0}, {0x2f84b, 0x5716, 0x0}, {0x2f84c, 0x5606, 0x0},
    {0x2f84d, 0x5717, 0x0}, {0x2f84e, 0x5651, 0x0}, {0x2f84f, 0x5674, 0x0}, {0x2f850, 0x5207, 0x0}, {0x2f851, 0x58ee, 0x0},
    {0x2f852, 0x57ce, 0x0}, {0x2f853, 0x57f4, 0x0}, {0x2f854, 0x580d, 0x0}, {0x2f855, 0x578b, 0x0}, {0x2f856, 0x5832, 0x0},
    {0x2f857, 0x5831, 0x0}, {0x2f858, 0x58ac, 0x0}, {0x2f859, 0x214e4, 0x0}, {0x2f85a, 0x58f2, 0x0}, {0x2f85b, 0x58f7, 0x0},
    {0x2f85c, 0x5906, 0x0}, {0x2f85d, 0x591a, 0x0}, {0x2f85e, 0x5922, 0x0}, {0x2f85f, 0x5962, 0x0}, {0x2f860, 0x216a8, 0x0},
    {0x2f861, 0x216ea, 0x0}, {0x2f862, 0x59ec, 0x0}, {0x2f863, 0x5a1b, 0x0}, {0x2f864, 0x5a27, 0x0}, {0x2f865, 0x59d8, 0x0},
    {0x2f866, 0x5a66, 0x0}, {0x2f867, 0x36ee, 0x0}, {0x2f868, 0x36fc, 0x0}, {0x2f869, 0x5b08, 0x0}, {0x2f86a, 0x5b3e, 0x0},
    {0x2f86b, 0x5b3e, 0x0}, {0x2f86c, 0x219c8, 0x0}, {0x2f86d, 0x5bc3, 0x0}, {0x2f86e, 0x5bd8, 0x0}, {0x2f86f, 0x5be7, 0x0},
    {0x2f870, 0x5bf3, 0x0}, {0x2f871, 0x21b18, 0x0}, {0x2f872, 0x5bff, 0x0}, {0x2f873, 0x5c06, 0x0}, {0x2f874, 0x5f53, 0x0},
    {0x2f875, 0x5c22, 0x0}, {0x2f876, 0x3781, 0x0}, {0x2f877, 0x5c60, 0x0}, {0x2f878, 0x5c6e, 0x0}, {0x2f879, 0x5cc0, 0x0},
    {0x2f87a, 0x5c8d, 0x0}, {0x2f87b, 0x21de4, 0x0}, {0x2f87c, 0x5d43, 0x0}, {0x2f87d, 0x21de6, 0x0}, {0x2f87e, 0x5d6e, 0x0},
    {0x2f87f, 0x5d6b, 0x0}, {0x2f880, 0x5d7c, 0x0}, {0x2f881, 0x5de1, 0x0}, {0x2f882, 0x5de2, 0x0}, {0x2f883, 0x382f, 0x0},
    {0x2f884, 0x5dfd, 0x0}, {0x2f885, 0x5e28, 0x0}, {0x2f886, 0x5e3d, 0x0}, {0x2f887, 0x5e69, 0x0}, {0x2f888, 0x3862, 0x0},
    {0x2f889, 0x22183, 0x0}, {0x2f88a, 0x387c, 0x0}, {0x2f88b, 0x5eb0, 0x0}, {0x2f88c, 0x5eb3, 0x0}, {0x2f88d, 0x5eb6, 0x0},
    {0x2f88e, 0x5eca, 0x0}, {0x2f88f, 0x2a392, 0x0}, {0x2f890, 0x5efe, 0x0}, {0x2f891, 0x22331, 0x0}, {0x2f892, 0x22331, 0x0},
    {0x2f893, 0x8201, 0x0}, {0x2f894, 0x5f22, 0x0}, {0x2f895, 0x5f22, 0x0}, {0x2f896, 0x38c7, 0x0}, {0x2f897, 0x232b8, 0x0},
    {0x2f898, 0x261da, 0x0}, {0x2f899, 0x5f62, 0x0}, {0x2f89a, 0x5f6b, 0x0}, {0x2f89b, 0x38e3, 0x0}, {0x2f89c, 0x5f9a, 0x0},
    {0x2f89d, 0x5fcd, 0x0}, {0x2f89e, 0x5fd7, 0x0}, {0x2f89f, 0x5ff9, 0x0}, {0x2f8a0, 0x6081, 0x0}, {0x2f8a1, 0x393a, 0x0},
    {0x2f8a2, 0x391c, 0x0}, {0x2f8a3, 0x6094, 0x0}, {0x2f8a4, 0x226d4, 0x0}, {0x2f8a5, 0x60c7, 0x0}, {0x2f8a6, 0x6148, 0x0},
    {0x2f8a7, 0x614c, 0x0}, {0x2f8a8, 0x614e, 0x0}, {0x2f8a9, 0x614c, 0x0}, {0x2f8aa, 0x617a, 0x0}, {0x2f8ab, 0x618e, 0x0},
    {0x2f8ac, 0x61b2, 0x0}, {0x2f8ad, 0x61a4, 0x0}, {0x2f8ae, 0x61af, 0x0}, {0x2f8af, 0x61de, 0x0}, {0x2f8b0, 0x61f2, 0x0},
    {0x2f8b1, 0x61f6, 0x0}, {0x2f8b2, 0x6210, 0x0}, {0x2f8b3, 0x621b, 0x0}, {0x2f8b4, 0x625d, 0x0}, {0x2f8b5, 0x62b1, 0x0},
    {0x2f8b6, 0x62d4, 0x0}, {0x2f8b7, 0x6350, 0x0}, {0x2f8b8, 0x22b0c, 0x0}, {0x2f8b9, 0x633d, 0x0}, {0x2f8ba, 0x62fc, 0x0},
    {0x2f8bb, 0x6368, 0x0}, {0x2f8bc, 0x6383, 0x0}, {0x2f8bd, 0x63e4, 0x0}, {0x2f8be, 0x22bf1, 0x0}, {0x2f8bf, 0x6422, 0x0},
    {0x2f8c0, 0x63c5, 0x0}, {0x2f8c1, 0x63a9, 0x0}, {0x2f8c2, 0x3a2e, 0x0}, {0x2f8c3, 0x6469, 0x0}, {0x2f8c4, 0x647e, 0x0},
    {0x2f8c5, 0x649d, 0x0}, {0x2f8c6, 0x6477, 0x0}, {0x2f8c7, 0x3a6c, 0x0}, {0x2f8c8, 0x654f, 0x0}, {0x2f8c9, 0x656c, 0x0},
    {0x2f8ca, 0x2300a, 0x0}, {0x2f8cb, 0x65e3, 0x0}, {0x2f8cc, 0x66f8, 0x0}, {0x2f8cd, 0x6649, 0x0}, {0x2f8ce, 0x3b19, 0x0},
    {0x2f8cf, 0x6691, 0x0}, {0x2f8d0, 0x3b08, 0x0}, {0x2f8d1, 0x3ae4, 0x0}, {0x2f8d2, 0x5192, 0x0}, {0x2f8d3, 0x5195, 0x0},
    {0x2f8d4, 0x6700, 0x0}, {0x2f8d5, 0x669c, 0x0}, {0x2f8d6, 0x80ad, 0x0}, {0x2f8d7, 0x43d9, 0x0}, {0x2f8d8, 0x6717, 0x0},
    {0x2f8d9, 0x671b, 0x0}, {0x2f8da, 0x6721, 0x0}, {0x2f8db, 0x675e, 0x0}, {0x2f8dc, 0x6753, 0x0}, {0x2f8dd, 0x233c3, 0x0},
    {0x2f8de, 0x3b49, 0x0}, {0x2f8df, 0x67fa, 0x0}, {0x2f8e0, 0x6785, 0x0}, {0x2f8e1, 0x6852, 0x0}, {0x2f8e2, 0x6885, 0x0},
    {0x2f8e3, 0x2346d, 0x0}, {0x2f8e4, 0x688e, 0x0}, {0x2f8e5, 0x681f, 0x0}, {0x2f8e6, 0x6914, 0x0}, {0x2f8e7, 0x3b9d, 0x0},
    {0x2f8e8, 0x6942, 0x0}, {0x2f8e9, 0x69a3, 0x0}, {0x2f8ea, 0x69ea, 0x0}, {0x2f8eb, 0x6aa8, 0x0}, {0x2f8ec, 0x236a3, 0x0},
    {0x2f8ed, 0x6adb, 0x0}, {0x2f8ee, 0x3c18, 0x0}, {0x2f8ef, 0x6b21, 0x0}, {0x2f8f0, 0x238a7, 0x0}, {0x2f8f1, 0x6b54, 0x0},
    {0x2f8f2, 0x3c4e, 0x0}, {0x2f8f3, 0x6b72, 0x0}, {0x2f8f4, 0x6b9f, 0x0}, {0x2f8f5, 0x6bba, 0x0}, {0x2f8f6, 0x6bbb, 0x0},
    {0x2f8f7, 0x23a8d, 0x0}, {0x2f8f8, 0x21d0b, 0x0}, {0x2f8f9, 0x23afa, 0x0}, {0x2f8fa, 0x6c4e, 0x0}, {0x2f8fb, 0x23cbc, 0x0},
    {0x2f8fc, 0x6cbf, 0x0}, {0x2f8fd, 0x6ccd, 0x0}, {0x2f8fe, 0x6c67, 0x0}, {0x2f8ff, 0x6d16, 0x0}, {0x2f900, 0x6d3e, 0x0},
    {0x2f901, 0x6d77, 0x0}, {0x2f902, 0x6d41, 0x0}, {0x2f903, 0x6d69, 0x0}, {0x2f904, 0x6d78, 0x0}, {0x2f905, 0x6d85, 0x0},
    {0x2f906, 0x23d1e, 0x0}, {0x2f907, 0x6d34, 0x0}, {0x2f908, 0x6e2f, 0x0}, {0x2f909, 0x6e6e, 0x0}, {0x2f90a, 0x3d33, 0x0},
    {0x2f90b, 0x6ecb, 0x0}, {0x2f90c, 0x6ec7, 0x0}, {0x2f90d, 0x23ed1, 0x0}, {0x2f90e, 0x6df9, 0x0}, {0x2f90f, 0x6f6e, 0x0},
    {0x2f910, 0x23f5e, 0x0}, {0x2f911, 0x23f8e, 0x0}, {0x2f912, 0x6fc6, 0x0}, {0x2f913, 0x7039, 0x0}, {0x2f914, 0x701e, 0x0},
    {0x2f915, 0x701b, 0x0}, {0x2f916, 0x3d96, 0x0}, {0x2f917, 0x704a, 0x0}, {0x2f918, 0x707d, 0x0}, {0x2f919, 0x7077, 0x0},
    {0x2f91a, 0x70ad, 0x0}, {0x2f91b, 0x20525, 0x0}, {0x2f91c, 0x7145, 0x0}, {0x2f91d, 0x24263, 0x0}, {0x2f91e, 0x719c, 0x0},
    {0x2f91f, 0x243ab, 0x0}, {0x2f920, 0x7228, 0x0}, {0x2f921, 0x7235, 0x0}, {0x2f922, 0x7250, 0x0}, {0x2f923, 0x24608, 0x0},
    {0x2f924, 0x7280, 0x0}, {0x2f925, 0x7295, 0x0}, {0x2f926, 0x24735, 0x0}, {0x2f927, 0x24814, 0x0}, {0x2f928, 0x737a, 0x0},
    {0x2f929, 0x738b, 0x0}, {0x2f92a, 0x3eac, 0x0}, {0x2f92b, 0x73a5, 0x0}, {0x2f92c, 0x3eb8, 0x0}, {0x2f92d, 0x3eb8, 0x0},
    {0x2f92e, 0x7447, 0x0}, {0x2f92f, 0x745c, 0x0}, {0x2f930, 0x7471, 0x0}, {0x2f931, 0x7485, 0x0}, {0x2f932, 0x74ca, 0x0},
    {0x2f933, 0x3f1b, 0x0}, {0x2f934, 0x7524, 0x0}, {0x2f935, 0x24c36, 0x0}, {0x2f936, 0x753e, 0x0}, {0x2f937, 0x24c92, 0x0},
    {0x2f938, 0x7570, 0x0}, {0x2f939, 0x2219f, 0x0}, {0x2f93a, 0x7610, 0x0}, {0x2f93b, 0x24fa1, 0x0}, {0x2f93c, 0x24fb8, 0x0},
    {0x2f93d, 0x25044, 0x0}, {0x2f93e, 0x3ffc, 0x0}, {0x2f93f, 0x4008, 0x0}, {0x2f940, 0x76f4, 0x0}, {0x2f941, 0x250f3, 0x0},
    {0x2f942, 0x250f2, 0x0}, {0x2f943, 0x25119, 0x0}, {0x2f944, 0x25133, 0x0}, {0x2f945, 0x771e, 0x0}, {0x2f946, 0x771f, 0x0},
    {0x2f947, 0x771f, 0x0}, {0x2f948, 0x774a, 0x0}, {0x2f949, 0x4039, 0x0}, {0x2f94a, 0x778b, 0x0}, {0x2f94b, 0x4046, 0x0},
    {0x2f94c, 0x4096, 0x0}, {0x2f94d, 0x2541d, 0x0}, {0x2f94e, 0x784e, 0x0}, {0x2f94f, 0x788c, 0x0}, {0x2f950, 0x78cc, 0x0},
    {0x2f951, 0x40e3, 0x0}, {0x2f952, 0x25626, 0x0}, {0x2f953, 0x7956, 0x0}, {0x2f954, 0x2569a, 0x0}, {0x2f955, 0x256c5, 0x0},
    {0x2f956, 0x798f, 0x0}, {0x2f957, 0x79eb, 0x0}, {0x2f958, 0x412f, 0x0}, {0x2f959, 0x7a40, 0x0}, {0x2f95a, 0x7a4a, 0x0},
    {0x2f95b, 0x7a4f, 0x0}, {0x2f95c, 0x2597c, 0x0}, {0x2f95d, 0x25aa7, 0x0}, {0x2f95e, 0x25aa7, 0x0}, {0x2f95f, 0x7aee, 0x0},
    {0x2f960, 0x4202, 0x0}, {0x2f961, 0x25bab, 0x0}, {0x2f962, 0x7bc6, 0x0}, {0x2f963, 0x7bc9, 0x0}, {0x2f964, 0x4227, 0x0},
    {0x2f965, 0x25c80, 0x0}, {0x2f966, 0x7cd2, 0x0}, {0x2f967, 0x42a0, 0x0}, {0x2f968, 0x7ce8, 0x0}, {0x2f969, 0x7ce3, 0x0},
    {0x2f96a, 0x7d00, 0x0}, {0x2f96b, 0x25f86, 0x0}, {0x2f96c, 0x7d63, 0x0}, {0x2f96d, 0x4301, 0x0}, {0x2f96e, 0x7dc7, 0x0},
    {0x2f96f, 0x7e02, 0x0}, {0x2f970, 0x7e45, 0x0}, {0x2f971, 0x4334, 0x0}, {0x2f972, 0x26228, 0x0}, {0x2f973, 0x26247, 0x0},
    {0x2f974, 0x4359, 0x0}, {0x2f975, 0x262d9, 0x0}, {0x2f976, 0x7f7a, 0x0}, {0x2f977, 0x2633e, 0x0}, {0x2f978, 0x7f95, 0x0},
    {0x2f979, 0x7ffa, 0x0}, {0x2f97a, 0x8005, 0x0}, {0x2f97b, 0x264da, 0x0}, {0x2f97c, 0x26523, 0x0}, {0x2f97d, 0x8060, 0x0},
    {0x2f97e, 0x265a8, 0x0}, {0x2f97f, 0x8070, 0x0}, {0x2f980, 0x2335f, 0x0}, {0x2f981, 0x43d5, 0x0}, {0x2f982, 0x80b2, 0x0},
    {0x2f983, 0x8103, 0x0}, {0x2f984, 0x440b, 0x0}, {0x2f985, 0x813e, 0x0}, {0x2f986, 0x5ab5, 0x0}, {0x2f987, 0x267a7, 0x0},
    {0x2f988, 0x267b5, 0x0}, {0x2f989, 0x23393, 0x0}, {0x2f98a, 0x2339c, 0x0}, {0x2f98b, 0x8201, 0x0}, {0x2f98c, 0x8204, 0x0},
    {0x2f98d, 0x8f9e, 0x0}, {0x2f98e, 0x446b, 0x0}, {0x2f98f, 0x8291, 0x0}, {0x2f990, 0x828b, 0x0}, {0x2f991, 0x829d, 0x0},
    {0x2f992, 0x52b3, 0x0}, {0x2f993, 0x82b1, 0x0}, {0x2f994, 0x82b3, 0x0}, {0x2f995, 0x82bd, 0x0}, {0x2f996, 0x82e6, 0x0},
    {0x2f997, 0x26b3c, 0x0}, {0x2f998, 0x82e5, 0x0}, {0x2f999, 0x831d, 0x0}, {0x2f99a, 0x8363, 0x0}, {0x2f99b, 0x83ad, 0x0},
    {0x2f99c, 0x8323, 0x0}, {0x2f99d, 0x83bd, 0x0}, {0x2f99e, 0x83e7, 0x0}, {0x2f99f, 0x8457, 0x0}, {0x2f9a0, 0x8353, 0x0},
    {0x2f9a1, 0x83ca, 0x0}, {0x2f9a2, 0x83cc, 0x0}, {0x2f9a3, 0x83dc, 0x0}, {0x2f9a4, 0x26c36, 0x0}, {0x2f9a5, 0x26d6b, 0x0},
    {0x2f9a6, 0x26cd5, 0x0}, {0x2f9a7, 0x452b, 0x0}, {0x2f9a8, 0x84f1, 0x0}, {0x2f9a9, 0x84f3, 0x0}, {0x2f9aa, 0x8516, 0x0},
    {0x2f9ab, 0x273ca, 0x0}, {0x2f9ac, 0x8564, 0x0}, {0x2f9ad, 0x26f2c, 0x0}, {0x2f9ae, 0x455d, 0x0}, {0x2f9af, 0x4561, 0x0},
    {0x2f9b0, 0x26fb1, 0x0}, {0x2f9b1, 0x270d2, 0x0}, {0x2f9b2, 0x456b, 0x0}, {0x2f9b3, 0x8650, 0x0}, {0x2f9b4, 0x865c, 0x0},
    {0x2f9b5, 0x8667, 0x0}, {0x2f9b6, 0x8669, 0x0}, {0x2f9b7, 0x86a9, 0x0}, {0x2f9b8, 0x8688, 0x0}, {0x2f9b9, 0x870e, 0x0},
    {0x2f9ba, 0x86e2, 0x0}, {0x2f9bb, 0x8779, 0x0}, {0x2f9bc, 0x8728, 0x0}, {0x2f9bd, 0x876b, 0x0}, {0x2f9be, 0x8786, 0x0},
    {0x2f9bf, 0x45d7, 0x0}, {0x2f9c0, 0x87e1, 0x0}, {0x2f9c1, 0x8801, 0x0}, {0x2f9c2, 0x45f9, 0x0}, {0x2f9c3, 0x8860, 0x0},
    {0x2f9c4, 0x8863, 0x0}, {0x2f9c5, 0x27667, 0x0}, {0x2f9c6, 0x88d7, 0x0}, {0x2f9c7, 0x88de, 0x0}, {0x2f9c8, 0x4635, 0x0},
    {0x2f9c9, 0x88fa, 0x0}, {0x2f9ca, 0x34bb, 0x0}, {0x2f9cb, 0x278ae, 0x0}, {0x2f9cc, 0x27966, 0x0}, {0x2f9cd, 0x46be, 0x0},
    {0x2f9ce, 0x46c7, 0x0}, {0x2f9cf, 0x8aa0, 0x0}, {0x2f9d0, 0x8aed, 0x0}, {0x2f9d1, 0x8b8a, 0x0}, {0x2f9d2, 0x8c55, 0x0},
    {0x2f9d3, 0x27ca8, 0x0}, {0x2f9d4, 0x8cab, 0x0}, {0x2f9d5, 0x8cc1, 0x0}, {0x2f9d6, 0x8d1b, 0x0}, {0x2f9d7, 0x8d77, 0x0},
    {0x2f9d8, 0x27f2f, 0x0}, {0x2f9d9, 0x20804, 0x0}, {0x2f9da, 0x8dcb, 0x0}, {0x2f9db, 0x8dbc, 0x0}, {0x2f9dc, 0x8df0, 0x0},
    {0x2f9dd, 0x208de, 0x0}, {0x2f9de, 0x8ed4, 0x0}, {0x2f9df, 0x8f38, 0x0}, {0x2f9e0, 0x285d2, 0x0}, {0x2f9e1, 0x285ed, 0x0},
    {0x2f9e2, 0x9094, 0x0}, {0x2f9e3, 0x90f1, 0x0}, {0x2f9e4, 0x9111, 0x0}, {0x2f9e5, 0x2872e, 0x0}, {0x2f9e6, 0x911b, 0x0},
    {0x2f9e7, 0x9238, 0x0}, {0x2f9e8, 0x92d7, 0x0}, {0x2f9e9, 0x92d8, 0x0}, {0x2f9ea, 0x927c, 0x0}, {0x2f9eb, 0x93f9, 0x0},
    {0x2f9ec, 0x9415, 0x0}, {0x2f9ed, 0x28bfa, 0x0}, {0x2f9ee, 0x958b, 0x0}, {0x2f9ef, 0x4995, 0x0}, {0x2f9f0, 0x95b7, 0x0},
    {0x2f9f1, 0x28d77, 0x0}, {0x2f9f2, 0x49e6, 0x0}, {0x2f9f3, 0x96c3, 0x0}, {0x2f9f4, 0x5db2, 0x0}, {0x2f9f5, 0x9723, 0x0},
    {0x2f9f6, 0x29145, 0x0}, {0x2f9f7, 0x2921a, 0x0}, {0x2f9f8, 0x4a6e, 0x0}, {0x2f9f9, 0x4a76, 0x0}, {0x2f9fa, 0x97e0, 0x0},
    {0x2f9fb, 0x2940a, 0x0}, {0x2f9fc, 0x4ab2, 0x0}, {0x2f9fd, 0x29496, 0x0}, {0x2f9fe, 0x980b, 0x0}, {0x2f9ff, 0x980b, 0x0},
    {0x2fa00, 0x9829, 0x0}, {0x2fa01, 0x295b6, 0x0}, {0x2fa02, 0x98e2, 0x0}, {0x2fa03, 0x4b33, 0x0}, {0x2fa04, 0x9929, 0x0},
    {0x2fa05, 0x99a7, 0x0}, {0x2fa06, 0x99c2, 0x0}, {0x2fa07, 0x99fe, 0x0}, {0x2fa08, 0x4bce, 0x0}, {0x2fa09, 0x29b30, 0x0},
    {0x2fa0a, 0x9b12, 0x0}, {0x2fa0b, 0x9c40, 0x0}, {0x2fa0c, 0x9cfd, 0x0}, {0x2fa0d, 0x4cce, 0x0}, {0x2fa0e, 0x4ced, 0x0},
    {0x2fa0f, 0x9d67, 0x0}, {0x2fa10, 0x2a0ce, 0x0}, {0x2fa11, 0x4cf8, 0x0}, {0x2fa12, 0x2a105, 0x0}, {0x2fa13, 0x2a20e, 0x0},
    {0x2fa14, 0x2a291, 0x0}, {0x2fa15, 0x9ebb, 0x0}, {0x2fa16, 0x4d56, 0x0}, {0x2fa17, 0x9ef9, 0x0}, {0x2fa18, 0x9efe, 0x0},
    {0x2fa19, 0x9f05, 0x0}, {0x2fa1a, 0x9f0f, 0x0}, {0x2fa1b, 0x9f16, 0x0}, {0x2fa1c, 0x9f3b, 0x0}, {0x2fa1d, 0x2a600, 0x0},
};
VIT__TABLE uint16_t vit__uni_compose[940] = {
    912, 909, 913, 0, 1, 2, 3, 53, 55, 238, 4, 572, 5, 165,
    208, 210, 570, 415, 57, 417, 419, 421, 59, 61, 63, 65, 6, 425,
    67, 427, 431, 433, 429, 7, 8, 9, 598, 69, 71, 73, 10, 596,
    77, 212, 214, 594, 240, 75, 439, 441, 445, 198, 79, 447, 81, 83,
    187, 85, 87, 449, 453, 236, 451, 455, 457, 11, 12, 13, 89, 91,
    93, 97, 14, 610, 167, 216, 218, 612, 95, 459, 98, 463, 189, 465,
    100, 467, 102, 106, 469, 104, 475, 473, 477, 479, 481, 200, 108, 15,
    483, 112, 485, 110, 489, 487, 16, 17, 18, 19, 114, 116, 246, 20,
    616, 118, 169, 220, 222, 161, 614, 191, 499, 501, 120, 503, 124, 224,
    226, 505, 122, 509, 126, 128, 511, 132, 513, 232, 130, 521, 136, 523,
    234, 134, 527, 525, 21, 22, 23, 138, 140, 142, 24, 640, 144, 146,
    171, 228, 230, 163, 638, 529, 148, 533, 531, 539, 541, 543, 545, 150,
    549, 547, 551, 553, 555, 652, 25, 152, 658, 250, 557, 154, 656, 654,
    155, 559, 157, 159, 561, 563, 26, 27, 28, 29, 54, 56, 239, 30,
    573, 31, 166, 209, 211, 571, 416, 58, 418, 420, 422, 60, 62, 64,
    66, 32, 426, 68, 428, 432, 434, 430, 33, 34, 35, 599, 70, 72,
    74, 36, 597, 78, 213, 215, 595, 241, 76, 440, 442, 446, 199, 80,
    448, 82, 84, 188, 86, 88, 450, 454, 237, 452, 456, 458, 565, 37,
    38, 39, 90, 92, 94, 40, 611, 168, 217, 219, 613, 96, 460, 99,
    197, 464, 190, 466, 101, 468, 103, 107, 470, 105, 476, 474, 478, 480,
    482, 201, 109, 41, 484, 113, 486, 111, 490, 488, 42, 43, 44, 45,
    115, 117, 247, 46, 617, 119, 170, 221, 223, 162, 615, 192, 500, 502,
    121, 504, 125, 225, 227, 506, 123, 510, 127, 129, 512, 133, 514, 233,
    131, 522, 566, 137, 524, 235, 135, 528, 526, 47, 48, 49, 139, 141,
    143, 50, 641, 145, 147, 172, 229, 231, 164, 639, 530, 149, 534, 532,
    540, 542, 544, 546, 151, 550, 548, 567, 552, 554, 556, 653, 51, 153,
    659, 251, 558, 52, 657, 568, 655, 156, 560, 158, 160, 562, 564, 875,
    258, 835, 576, 574, 580, 578, 181, 202, 204, 185, 423, 602, 600, 606,
    604, 461, 620, 618, 624, 622, 491, 244, 493, 242, 206, 179, 175, 173,
    177, 577, 575, 581, 579, 182, 203, 205, 186, 424, 603, 601, 607, 605,
    462, 621, 619, 625, 623, 492, 245, 494, 243, 207, 180, 176, 174, 178,
    586, 584, 590, 588, 587, 585, 591, 589, 435, 437, 436, 438, 495, 497,
    496, 498, 515, 516, 517, 518, 535, 536, 537, 538, 569, 630, 628, 634,
    632, 636, 631, 629, 635, 633, 637, 644, 642, 648, 646, 650, 645, 643,
    649, 647, 651, 195, 193, 194, 183, 184, 443, 444, 248, 249, 196, 831,
    259, 830, 829, 668, 669, 833, 841, 261, 682, 683, 843, 262, 696, 697,
    845, 857, 263, 856, 855, 268, 712, 713, 883, 264, 726, 727, 874, 872,
    265, 871, 870, 269, 740, 885, 266, 752, 753, 887, 826, 838, 760, 270,
    823, 822, 660, 661, 827, 825, 762, 271, 676, 677, 764, 272, 688, 689,
    839, 837, 766, 273, 850, 849, 275, 704, 705, 853, 768, 277, 720, 721,
    866, 867, 770, 278, 863, 862, 276, 732, 733, 868, 772, 279, 744, 745,
    881, 879, 851, 267, 854, 864, 274, 869, 880, 280, 281, 285, 302, 304,
    284, 282, 306, 283, 300, 310, 312, 287, 314, 289, 316, 286, 318, 324,
    288, 326, 328, 330, 332, 322, 303, 305, 293, 291, 307, 292, 301, 311,
    313, 296, 315, 290, 317, 295, 319, 325, 297, 327, 329, 331, 333, 323,
    294, 298, 299, 308, 309, 320, 321, 334, 335, 337, 336, 338, 340, 341,
    339, 342, 343, 344, 353, 354, 365, 364, 366, 369, 370, 372, 371, 373,
    374, 377, 375, 376, 378, 379, 381, 380, 382, 383, 385, 384, 403, 404,
    405, 406, 407, 408, 409, 410, 411, 412, 413, 414, 471, 472, 507, 508,
    519, 520, 582, 592, 583, 593, 608, 609, 626, 627, 662, 664, 666, 774,
    663, 665, 667, 775, 776, 777, 778, 779, 780, 781, 670, 672, 674, 782,
    671, 673, 675, 783, 784, 785, 786, 787, 788, 789, 678, 680, 679, 681,
    684, 686, 685, 687, 690, 692, 694, 790, 691, 693, 695, 791, 792, 793,
    794, 795, 796, 797, 698, 700, 702, 798, 699, 701, 703, 799, 800, 801,
    802, 803, 804, 805, 706, 708, 710, 707, 709, 711, 714, 716, 718, 715,
    717, 719, 722, 724, 723, 725, 728, 730, 729, 731, 734, 736, 738, 735,
    737, 739, 741, 742, 743, 746, 748, 750, 806, 747, 749, 751, 807, 808,
    809, 810, 811, 812, 813, 754, 756, 758, 814, 755, 757, 759, 815, 816,
    817, 818, 819, 820, 821, 824, 836, 878, 828, 846, 847, 848, 840, 882,
    859, 860, 861, 894, 895, 896, 897, 899, 898, 900, 901, 902, 903, 904,
    905, 906, 907, 908, 911, 910, 914, 915, 916, 917, 918, 919, 920, 921,
    930, 931, 922, 923, 924, 925, 932, 933, 926, 927, 928, 929, 934, 935,
    936, 937, 966, 941, 942, 943, 944, 945, 946, 947, 948, 949, 950, 951,
    952, 953, 954, 955, 956, 957, 958, 959, 960, 961, 962, 963, 964, 965,
    967, 993, 968, 969, 970, 971, 972, 973, 974, 975, 976, 977, 978, 979,
    980, 981, 982, 983, 984, 985, 986, 987, 988, 989, 990, 991, 992, 994,
    995, 996, 997, 998, 1493, 1494, 1495, 1496, 1497, 1498, 1499, 1501, 1500, 1502,
    1503, 1504,
};
VIT__TABLES_END
// ---- Unicode tables: end

// >>tables grapheme -----------------------------------------------------------
// python3 tools/make_grapheme_table.py [--check]: grapheme cluster classes
// (>>tokenize t5 json).

// ---- grapheme table: begin (tools/make_grapheme_table.py; do not edit)
// Python regex 2026.11.19's Grapheme_Cluster_Break and Extended_Pictographic
VIT__TABLES_BEGIN
VIT__TABLE uint32_t vit__gcb_runs[2053] = { // start << 5 | class
    0x3, 0x142, 0x163, 0x1a1, 0x1c3, 0x400, 0xfe3, 0x1400, 0x1530, 0x1540,
    0x15a3, 0x15d0, 0x15e0, 0x6004, 0x6e00, 0x9064, 0x9140, 0xb224, 0xb7c0, 0xb7e4,
    0xb800, 0xb824, 0xb860, 0xb884, 0xb8c0, 0xb8e4, 0xb940, 0xc007, 0xc0c0, 0xc204,
    0xc360, 0xc383, 0xc3a0, 0xc964, 0xcc00, 0xce04, 0xce20, 0xdac4, 0xdba7, 0xdbc0,
    0xdbe4, 0xdca0, 0xdce4, 0xdd20, 0xdd44, 0xddc0, 0xe1e7, 0xe200, 0xe224, 0xe240,
    0xe604, 0xe960, 0xf4c4, 0xf620, 0xfd64, 0xfe80, 0xffa4, 0xffc0, 0x102c4, 0x10340,
    0x10364, 0x10480, 0x104a4, 0x10500, 0x10524, 0x105c0, 0x10b24, 0x10b80, 0x11207, 0x11240,
    0x112e4, 0x11400, 0x11944, 0x11c47, 0x11c64, 0x12068, 0x12080, 0x12744, 0x12768, 0x12784,
    0x127a0, 0x127c8, 0x12824, 0x12928, 0x129a4, 0x129c8, 0x12a00, 0x12a24, 0x12b00, 0x12c44,
    0x12c80, 0x13024, 0x13048, 0x13080, 0x13784, 0x137a0, 0x137c4, 0x137e8, 0x13824, 0x138a0,
    0x138e8, 0x13920, 0x13968, 0x139a4, 0x139c0, 0x13ae4, 0x13b00, 0x13c44, 0x13c80, 0x13fc4,
    0x13fe0, 0x14024, 0x14068, 0x14080, 0x14784, 0x147a0, 0x147c8, 0x14824, 0x14860, 0x148e4,
    0x14920, 0x14964, 0x149c0, 0x14a24, 0x14a40, 0x14e04, 0x14e40, 0x14ea4, 0x14ec0, 0x15024,
    0x15068, 0x15080, 0x15784, 0x157a0, 0x157c8, 0x15824, 0x158c0, 0x158e4, 0x15928, 0x15940,
    0x15968, 0x159a4, 0x159c0, 0x15c44, 0x15c80, 0x15f44, 0x16000, 0x16024, 0x16048, 0x16080,
    0x16784, 0x167a0, 0x167c4, 0x16808, 0x16824, 0x168a0, 0x168e8, 0x16920, 0x16968, 0x169a4,
    0x169c0, 0x16a64, 0x16b00, 0x16c44, 0x16c80, 0x17044, 0x17060, 0x177c4, 0x177e8, 0x17804,
    0x17828, 0x17860, 0x178c8, 0x17920, 0x17948, 0x179a4, 0x179c0, 0x17ae4, 0x17b00, 0x18004,
    0x18028, 0x18084, 0x180a0, 0x18784, 0x187a0, 0x187c4, 0x18828, 0x188a0, 0x188c4, 0x18920,
    0x18944, 0x189c0, 0x18aa4, 0x18ae0, 0x18c44, 0x18c80, 0x19024, 0x19048, 0x19080, 0x19784,
    0x197a0, 0x197c8, 0x197e4, 0x19828, 0x19844, 0x19868, 0x198a0, 0x198c4, 0x19920, 0x19944,
    0x199c0, 0x19aa4, 0x19ae0, 0x19c44, 0x19c80, 0x19e68, 0x19e80, 0x1a004, 0x1a048, 0x1a080,
    0x1a764, 0x1a7a0, 0x1a7c4, 0x1a7e8, 0x1a824, 0x1a8a0, 0x1a8c8, 0x1a920, 0x1a948, 0x1a9a4,
    0x1a9c7, 0x1a9e0, 0x1aae4, 0x1ab00, 0x1ac44, 0x1ac80, 0x1b024, 0x1b048, 0x1b080, 0x1b944,
    0x1b960, 0x1b9e4, 0x1ba08, 0x1ba44, 0x1baa0, 0x1bac4, 0x1bae0, 0x1bb08, 0x1bbe4, 0x1bc00,
    0x1be48, 0x1be80, 0x1c624, 0x1c640, 0x1c668, 0x1c684, 0x1c760, 0x1c8e4, 0x1c9e0, 0x1d624,
    0x1d640, 0x1d668, 0x1d684, 0x1d7a0, 0x1d904, 0x1d9e0, 0x1e304, 0x1e340, 0x1e6a4, 0x1e6c0,
    0x1e6e4, 0x1e700, 0x1e724, 0x1e740, 0x1e7c8, 0x1e800, 0x1ee24, 0x1efe8, 0x1f004, 0x1f0a0,
    0x1f0c4, 0x1f100, 0x1f1a4, 0x1f300, 0x1f324, 0x1f7a0, 0x1f8c4, 0x1f8e0, 0x205a4, 0x20628,
    0x20644, 0x20700, 0x20724, 0x20768, 0x207a4, 0x207e0, 0x20ac8, 0x20b04, 0x20b40, 0x20bc4,
    0x20c20, 0x20e24, 0x20ea0, 0x21044, 0x21060, 0x21088, 0x210a4, 0x210e0, 0x211a4, 0x211c0,
    0x213a4, 0x213c0, 0x22009, 0x22c0a, 0x2350b, 0x24000, 0x26ba4, 0x26c00, 0x2e244, 0x2e2c0,
    0x2e644, 0x2e6a0, 0x2ea44, 0x2ea80, 0x2ee44, 0x2ee80, 0x2f684, 0x2f6c8, 0x2f6e4, 0x2f7c8,
    0x2f8c4, 0x2f8e8, 0x2f924, 0x2fa80, 0x2fba4, 0x2fbc0, 0x30164, 0x301c3, 0x301e4, 0x30200,
    0x310a4, 0x310e0, 0x31524, 0x31540, 0x32404, 0x32468, 0x324e4, 0x32528, 0x32580, 0x32608,
    0x32644, 0x32668, 0x32724, 0x32780, 0x342e4, 0x34328, 0x34364, 0x34380, 0x34aa8, 0x34ac4,
    0x34ae8, 0x34b04, 0x34be0, 0x34c04, 0x34c20, 0x34c44, 0x34c60, 0x34ca4, 0x34da8, 0x34e64,
    0x34fa0, 0x34fe4, 0x35000, 0x35604, 0x35e20, 0x36004, 0x36088, 0x360a0, 0x36684, 0x367c8,
    0x36844, 0x368a0, 0x36d64, 0x36e80, 0x37004, 0x37048, 0x37060, 0x37428, 0x37444, 0x374c8,
    0x37504, 0x375c0, 0x37cc4, 0x37ce8, 0x37d04, 0x37d48, 0x37da4, 0x37dc8, 0x37de4, 0x37e80,
    0x38488, 0x38584, 0x38688, 0x386c4, 0x38700, 0x39a04, 0x39a60, 0x39a84, 0x39c28, 0x39c44,
    0x39d20, 0x39da4, 0x39dc0, 0x39e84, 0x39ea0, 0x39ee8, 0x39f04, 0x39f40, 0x3b804, 0x3c000,
    0x40163, 0x40184, 0x401a5, 0x401c3, 0x40200, 0x40503, 0x405e0, 0x40790, 0x407a0, 0x40930,
    0x40940, 0x40c03, 0x40e00, 0x41a04, 0x41e20, 0x42450, 0x42460, 0x42730, 0x42740, 0x43290,
    0x43340, 0x43530, 0x43560, 0x46350, 0x46380, 0x46510, 0x46520, 0x479f0, 0x47a00, 0x47d30,
    0x47e80, 0x47f10, 0x47f60, 0x49850, 0x49860, 0x4b550, 0x4b580, 0x4b6d0, 0x4b6e0, 0x4b810,
    0x4b820, 0x4bf70, 0x4bfe0, 0x4c010, 0x4c0a0, 0x4c1d0, 0x4c1e0, 0x4c230, 0x4c240, 0x4c290,
    0x4c2c0, 0x4c310, 0x4c320, 0x4c3b0, 0x4c3c0, 0x4c410, 0x4c420, 0x4c450, 0x4c480, 0x4c4d0,
    0x4c4e0, 0x4c550, 0x4c560, 0x4c5d0, 0x4c600, 0x4c710, 0x4c760, 0x4c810, 0x4c820, 0x4c850,
    0x4c860, 0x4c910, 0x4ca80, 0x4cbf0, 0x4cc20, 0x4cc70, 0x4cc80, 0x4ccb0, 0x4cce0, 0x4cd10,
    0x4cd20, 0x4cf70, 0x4cf80, 0x4cfd0, 0x4d000, 0x4d250, 0x4d300, 0x4d330, 0x4d340, 0x4d370,
    0x4d3a0, 0x4d410, 0x4d440, 0x4d4f0, 0x4d500, 0x4d550, 0x4d580, 0x4d610, 0x4d640, 0x4d7b0,
    0x4d7e0, 0x4d890, 0x4d8c0, 0x4d910, 0x4d920, 0x4d9d0, 0x4da00, 0x4da30, 0x4da40, 0x4da70,
    0x4daa0, 0x4dd30, 0x4dd60, 0x4de10, 0x4dec0, 0x4def0, 0x4df60, 0x4dfb0, 0x4dfc0, 0x4e050,
    0x4e060, 0x4e0b0, 0x4e0c0, 0x4e110, 0x4e1c0, 0x4e1f0, 0x4e200, 0x4e250, 0x4e260, 0x4e290,
    0x4e2a0, 0x4e2d0, 0x4e2e0, 0x4e3b0, 0x4e3c0, 0x4e430, 0x4e440, 0x4e510, 0x4e520, 0x4e670,
    0x4e6a0, 0x4e890, 0x4e8a0, 0x4e8f0, 0x4e900, 0x4e990, 0x4e9a0, 0x4e9d0, 0x4e9e0, 0x4ea70,
    0x4eac0, 0x4eaf0, 0x4eb00, 0x4ec70, 0x4eca0, 0x4f2b0, 0x4f300, 0x4f430, 0x4f440, 0x4f610,
    0x4f620, 0x4f7f0, 0x4f800, 0x52690, 0x526c0, 0x560b0, 0x56100, 0x56370, 0x563a0, 0x56a10,
    0x56a20, 0x56ab0, 0x56ac0, 0x59de4, 0x59e40, 0x5afe4, 0x5b000, 0x5bc04, 0x5c000, 0x60544,
    0x60610, 0x60620, 0x607b0, 0x607c0, 0x61324, 0x61360, 0x652f0, 0x65300, 0x65330, 0x65340,
    0x14cde4, 0x14ce60, 0x14ce84, 0x14cfc0, 0x14d3c4, 0x14d400, 0x14de04, 0x14de40, 0x150044, 0x150060,
    0x1500c4, 0x1500e0, 0x150164, 0x150180, 0x150468, 0x1504a4, 0x1504e8, 0x150500, 0x150584, 0x1505a0,
    0x151008, 0x151040, 0x151688, 0x151884, 0x1518c0, 0x151c04, 0x151e40, 0x151fe4, 0x152000, 0x1524c4,
    0x1525c0, 0x1528e4, 0x152a48, 0x152a64, 0x152a80, 0x152c09, 0x152fa0, 0x153004, 0x153068, 0x153080,
    0x153664, 0x153688, 0x1536c4, 0x153748, 0x153784, 0x1537c8, 0x153804, 0x153820, 0x153ca4, 0x153cc0,
    0x154524, 0x1545e8, 0x154624, 0x154668, 0x1546a4, 0x1546e0, 0x154864, 0x154880, 0x154984, 0x1549a8,
    0x1549c0, 0x154f84, 0x154fa0, 0x155604, 0x155620, 0x155644, 0x1556a0, 0x1556e4, 0x155720, 0x1557c4,
    0x155800, 0x155824, 0x155840, 0x155d68, 0x155d84, 0x155dc8, 0x155e00, 0x155ea8, 0x155ec4, 0x155ee0,
    0x157c68, 0x157ca4, 0x157cc8, 0x157d04, 0x157d28, 0x157d60, 0x157d88, 0x157da4, 0x157dc0, 0x15800c,
    0x15802d, 0x15838c, 0x1583ad, 0x15870c, 0x15872d, 0x158a8c, 0x158aad, 0x158e0c, 0x158e2d, 0x15918c,
    0x1591ad, 0x15950c, 0x15952d, 0x15988c, 0x1598ad, 0x159c0c, 0x159c2d, 0x159f8c, 0x159fad, 0x15a30c,
    0x15a32d, 0x15a68c, 0x15a6ad, 0x15aa0c, 0x15aa2d, 0x15ad8c, 0x15adad, 0x15b10c, 0x15b12d, 0x15b48c,
    0x15b4ad, 0x15b80c, 0x15b82d, 0x15bb8c, 0x15bbad, 0x15bf0c, 0x15bf2d, 0x15c28c, 0x15c2ad, 0x15c60c,
    0x15c62d, 0x15c98c, 0x15c9ad, 0x15cd0c, 0x15cd2d, 0x15d08c, 0x15d0ad, 0x15d40c, 0x15d42d, 0x15d78c,
    0x15d7ad, 0x15db0c, 0x15db2d, 0x15de8c, 0x15dead, 0x15e20c, 0x15e22d, 0x15e58c, 0x15e5ad, 0x15e90c,
    0x15e92d, 0x15ec8c, 0x15ecad, 0x15f00c, 0x15f02d, 0x15f38c, 0x15f3ad, 0x15f70c, 0x15f72d, 0x15fa8c,
    0x15faad, 0x15fe0c, 0x15fe2d, 0x16018c, 0x1601ad, 0x16050c, 0x16052d, 0x16088c, 0x1608ad, 0x160c0c,
    0x160c2d, 0x160f8c, 0x160fad, 0x16130c, 0x16132d, 0x16168c, 0x1616ad, 0x161a0c, 0x161a2d, 0x161d8c,
    0x161dad, 0x16210c, 0x16212d, 0x16248c, 0x1624ad, 0x16280c, 0x16282d, 0x162b8c, 0x162bad, 0x162f0c,
    0x162f2d, 0x16328c, 0x1632ad, 0x16360c, 0x16362d, 0x16398c, 0x1639ad, 0x163d0c, 0x163d2d, 0x16408c,
    0x1640ad, 0x16440c, 0x16442d, 0x16478c, 0x1647ad, 0x164b0c, 0x164b2d, 0x164e8c, 0x164ead, 0x16520c,
    0x16522d, 0x16558c, 0x1655ad, 0x16590c, 0x16592d, 0x165c8c, 0x165cad, 0x16600c, 0x16602d, 0x16638c,
    0x1663ad, 0x16670c, 0x16672d, 0x166a8c, 0x166aad, 0x166e0c, 0x166e2d, 0x16718c, 0x1671ad, 0x16750c,
    0x16752d, 0x16788c, 0x1678ad, 0x167c0c, 0x167c2d, 0x167f8c, 0x167fad, 0x16830c, 0x16832d, 0x16868c,
    0x1686ad, 0x168a0c, 0x168a2d, 0x168d8c, 0x168dad, 0x16910c, 0x16912d, 0x16948c, 0x1694ad, 0x16980c,
    0x16982d, 0x169b8c, 0x169bad, 0x169f0c, 0x169f2d, 0x16a28c, 0x16a2ad, 0x16a60c, 0x16a62d, 0x16a98c,
    0x16a9ad, 0x16ad0c, 0x16ad2d, 0x16b08c, 0x16b0ad, 0x16b40c, 0x16b42d, 0x16b78c, 0x16b7ad, 0x16bb0c,
    0x16bb2d, 0x16be8c, 0x16bead, 0x16c20c, 0x16c22d, 0x16c58c, 0x16c5ad, 0x16c90c, 0x16c92d, 0x16cc8c,
    0x16ccad, 0x16d00c, 0x16d02d, 0x16d38c, 0x16d3ad, 0x16d70c, 0x16d72d, 0x16da8c, 0x16daad, 0x16de0c,
    0x16de2d, 0x16e18c, 0x16e1ad, 0x16e50c, 0x16e52d, 0x16e88c, 0x16e8ad, 0x16ec0c, 0x16ec2d, 0x16ef8c,
    0x16efad, 0x16f30c, 0x16f32d, 0x16f68c, 0x16f6ad, 0x16fa0c, 0x16fa2d, 0x16fd8c, 0x16fdad, 0x17010c,
    0x17012d, 0x17048c, 0x1704ad, 0x17080c, 0x17082d, 0x170b8c, 0x170bad, 0x170f0c, 0x170f2d, 0x17128c,
    0x1712ad, 0x17160c, 0x17162d, 0x17198c, 0x1719ad, 0x171d0c, 0x171d2d, 0x17208c, 0x1720ad, 0x17240c,
    0x17242d, 0x17278c, 0x1727ad, 0x172b0c, 0x172b2d, 0x172e8c, 0x172ead, 0x17320c, 0x17322d, 0x17358c,
    0x1735ad, 0x17390c, 0x17392d, 0x173c8c, 0x173cad, 0x17400c, 0x17402d, 0x17438c, 0x1743ad, 0x17470c,
    0x17472d, 0x174a8c, 0x174aad, 0x174e0c, 0x174e2d, 0x17518c, 0x1751ad, 0x17550c, 0x17552d, 0x17588c,
    0x1758ad, 0x175c0c, 0x175c2d, 0x175f8c, 0x175fad, 0x17630c, 0x17632d, 0x17668c, 0x1766ad, 0x176a0c,
    0x176a2d, 0x176d8c, 0x176dad, 0x17710c, 0x17712d, 0x17748c, 0x1774ad, 0x17780c, 0x17782d, 0x177b8c,
    0x177bad, 0x177f0c, 0x177f2d, 0x17828c, 0x1782ad, 0x17860c, 0x17862d, 0x17898c, 0x1789ad, 0x178d0c,
    0x178d2d, 0x17908c, 0x1790ad, 0x17940c, 0x17942d, 0x17978c, 0x1797ad, 0x179b0c, 0x179b2d, 0x179e8c,
    0x179ead, 0x17a20c, 0x17a22d, 0x17a58c, 0x17a5ad, 0x17a90c, 0x17a92d, 0x17ac8c, 0x17acad, 0x17b00c,
    0x17b02d, 0x17b38c, 0x17b3ad, 0x17b70c, 0x17b72d, 0x17ba8c, 0x17baad, 0x17be0c, 0x17be2d, 0x17c18c,
    0x17c1ad, 0x17c50c, 0x17c52d, 0x17c88c, 0x17c8ad, 0x17cc0c, 0x17cc2d, 0x17cf8c, 0x17cfad, 0x17d30c,
    0x17d32d, 0x17d68c, 0x17d6ad, 0x17da0c, 0x17da2d, 0x17dd8c, 0x17ddad, 0x17e10c, 0x17e12d, 0x17e48c,
    0x17e4ad, 0x17e80c, 0x17e82d, 0x17eb8c, 0x17ebad, 0x17ef0c, 0x17ef2d, 0x17f28c, 0x17f2ad, 0x17f60c,
    0x17f62d, 0x17f98c, 0x17f9ad, 0x17fd0c, 0x17fd2d, 0x18008c, 0x1800ad, 0x18040c, 0x18042d, 0x18078c,
    0x1807ad, 0x180b0c, 0x180b2d, 0x180e8c, 0x180ead, 0x18120c, 0x18122d, 0x18158c, 0x1815ad, 0x18190c,
    0x18192d, 0x181c8c, 0x181cad, 0x18200c, 0x18202d, 0x18238c, 0x1823ad, 0x18270c, 0x18272d, 0x182a8c,
    0x182aad, 0x182e0c, 0x182e2d, 0x18318c, 0x1831ad, 0x18350c, 0x18352d, 0x18388c, 0x1838ad, 0x183c0c,
    0x183c2d, 0x183f8c, 0x183fad, 0x18430c, 0x18432d, 0x18468c, 0x1846ad, 0x184a0c, 0x184a2d, 0x184d8c,
    0x184dad, 0x18510c, 0x18512d, 0x18548c, 0x1854ad, 0x18580c, 0x18582d, 0x185b8c, 0x185bad, 0x185f0c,
    0x185f2d, 0x18628c, 0x1862ad, 0x18660c, 0x18662d, 0x18698c, 0x1869ad, 0x186d0c, 0x186d2d, 0x18708c,
    0x1870ad, 0x18740c, 0x18742d, 0x18778c, 0x1877ad, 0x187b0c, 0x187b2d, 0x187e8c, 0x187ead, 0x18820c,
    0x18822d, 0x18858c, 0x1885ad, 0x18890c, 0x18892d, 0x188c8c, 0x188cad, 0x18900c, 0x18902d, 0x18938c,
    0x1893ad, 0x18970c, 0x18972d, 0x189a8c, 0x189aad, 0x189e0c, 0x189e2d, 0x18a18c, 0x18a1ad, 0x18a50c,
    0x18a52d, 0x18a88c, 0x18a8ad, 0x18ac0c, 0x18ac2d, 0x18af8c, 0x18afad, 0x18b30c, 0x18b32d, 0x18b68c,
    0x18b6ad, 0x18ba0c, 0x18ba2d, 0x18bd8c, 0x18bdad, 0x18c10c, 0x18c12d, 0x18c48c, 0x18c4ad, 0x18c80c,
    0x18c82d, 0x18cb8c, 0x18cbad, 0x18cf0c, 0x18cf2d, 0x18d28c, 0x18d2ad, 0x18d60c, 0x18d62d, 0x18d98c,
    0x18d9ad, 0x18dd0c, 0x18dd2d, 0x18e08c, 0x18e0ad, 0x18e40c, 0x18e42d, 0x18e78c, 0x18e7ad, 0x18eb0c,
    0x18eb2d, 0x18ee8c, 0x18eead, 0x18f20c, 0x18f22d, 0x18f58c, 0x18f5ad, 0x18f90c, 0x18f92d, 0x18fc8c,
    0x18fcad, 0x19000c, 0x19002d, 0x19038c, 0x1903ad, 0x19070c, 0x19072d, 0x190a8c, 0x190aad, 0x190e0c,
    0x190e2d, 0x19118c, 0x1911ad, 0x19150c, 0x19152d, 0x19188c, 0x1918ad, 0x191c0c, 0x191c2d, 0x191f8c,
    0x191fad, 0x19230c, 0x19232d, 0x19268c, 0x1926ad, 0x192a0c, 0x192a2d, 0x192d8c, 0x192dad, 0x19310c,
    0x19312d, 0x19348c, 0x1934ad, 0x19380c, 0x19382d, 0x193b8c, 0x193bad, 0x193f0c, 0x193f2d, 0x19428c,
    0x1942ad, 0x19460c, 0x19462d, 0x19498c, 0x1949ad, 0x194d0c, 0x194d2d, 0x19508c, 0x1950ad, 0x19540c,
    0x19542d, 0x19578c, 0x1957ad, 0x195b0c, 0x195b2d, 0x195e8c, 0x195ead, 0x19620c, 0x19622d, 0x19658c,
    0x1965ad, 0x19690c, 0x19692d, 0x196c8c, 0x196cad, 0x19700c, 0x19702d, 0x19738c, 0x1973ad, 0x19770c,
    0x19772d, 0x197a8c, 0x197aad, 0x197e0c, 0x197e2d, 0x19818c, 0x1981ad, 0x19850c, 0x19852d, 0x19888c,
    0x1988ad, 0x198c0c, 0x198c2d, 0x198f8c, 0x198fad, 0x19930c, 0x19932d, 0x19968c, 0x1996ad, 0x199a0c,
    0x199a2d, 0x199d8c, 0x199dad, 0x19a10c, 0x19a12d, 0x19a48c, 0x19a4ad, 0x19a80c, 0x19a82d, 0x19ab8c,
    0x19abad, 0x19af0c, 0x19af2d, 0x19b28c, 0x19b2ad, 0x19b60c, 0x19b62d, 0x19b98c, 0x19b9ad, 0x19bd0c,
    0x19bd2d, 0x19c08c, 0x19c0ad, 0x19c40c, 0x19c42d, 0x19c78c, 0x19c7ad, 0x19cb0c, 0x19cb2d, 0x19ce8c,
    0x19cead, 0x19d20c, 0x19d22d, 0x19d58c, 0x19d5ad, 0x19d90c, 0x19d92d, 0x19dc8c, 0x19dcad, 0x19e00c,
    0x19e02d, 0x19e38c, 0x19e3ad, 0x19e70c, 0x19e72d, 0x19ea8c, 0x19eaad, 0x19ee0c, 0x19ee2d, 0x19f18c,
    0x19f1ad, 0x19f50c, 0x19f52d, 0x19f88c, 0x19f8ad, 0x19fc0c, 0x19fc2d, 0x19ff8c, 0x19ffad, 0x1a030c,
    0x1a032d, 0x1a068c, 0x1a06ad, 0x1a0a0c, 0x1a0a2d, 0x1a0d8c, 0x1a0dad, 0x1a110c, 0x1a112d, 0x1a148c,
    0x1a14ad, 0x1a180c, 0x1a182d, 0x1a1b8c, 0x1a1bad, 0x1a1f0c, 0x1a1f2d, 0x1a228c, 0x1a22ad, 0x1a260c,
    0x1a262d, 0x1a298c, 0x1a29ad, 0x1a2d0c, 0x1a2d2d, 0x1a308c, 0x1a30ad, 0x1a340c, 0x1a342d, 0x1a378c,
    0x1a37ad, 0x1a3b0c, 0x1a3b2d, 0x1a3e8c, 0x1a3ead, 0x1a420c, 0x1a422d, 0x1a458c, 0x1a45ad, 0x1a490c,
    0x1a492d, 0x1a4c8c, 0x1a4cad, 0x1a500c, 0x1a502d, 0x1a538c, 0x1a53ad, 0x1a570c, 0x1a572d, 0x1a5a8c,
    0x1a5aad, 0x1a5e0c, 0x1a5e2d, 0x1a618c, 0x1a61ad, 0x1a650c, 0x1a652d, 0x1a688c, 0x1a68ad, 0x1a6c0c,
    0x1a6c2d, 0x1a6f8c, 0x1a6fad, 0x1a730c, 0x1a732d, 0x1a768c, 0x1a76ad, 0x1a7a0c, 0x1a7a2d, 0x1a7d8c,
    0x1a7dad, 0x1a810c, 0x1a812d, 0x1a848c, 0x1a84ad, 0x1a880c, 0x1a882d, 0x1a8b8c, 0x1a8bad, 0x1a8f0c,
    0x1a8f2d, 0x1a928c, 0x1a92ad, 0x1a960c, 0x1a962d, 0x1a998c, 0x1a99ad, 0x1a9d0c, 0x1a9d2d, 0x1aa08c,
    0x1aa0ad, 0x1aa40c, 0x1aa42d, 0x1aa78c, 0x1aa7ad, 0x1aab0c, 0x1aab2d, 0x1aae8c, 0x1aaead, 0x1ab20c,
    0x1ab22d, 0x1ab58c, 0x1ab5ad, 0x1ab90c, 0x1ab92d, 0x1abc8c, 0x1abcad, 0x1ac00c, 0x1ac02d, 0x1ac38c,
    0x1ac3ad, 0x1ac70c, 0x1ac72d, 0x1aca8c, 0x1acaad, 0x1ace0c, 0x1ace2d, 0x1ad18c, 0x1ad1ad, 0x1ad50c,
    0x1ad52d, 0x1ad88c, 0x1ad8ad, 0x1adc0c, 0x1adc2d, 0x1adf8c, 0x1adfad, 0x1ae30c, 0x1ae32d, 0x1ae68c,
    0x1ae6ad, 0x1aea0c, 0x1aea2d, 0x1aed8c, 0x1aedad, 0x1af10c, 0x1af12d, 0x1af480, 0x1af60a, 0x1af8e0,
    0x1af96b, 0x1aff80, 0x1f63c4, 0x1f63e0, 0x1fc004, 0x1fc200, 0x1fc404, 0x1fc600, 0x1fdfe3, 0x1fe000,
    0x1ff3c4, 0x1ff400, 0x1ffe03, 0x1fff80, 0x203fa4, 0x203fc0, 0x205c04, 0x205c20, 0x206ec4, 0x206f60,
    0x214024, 0x214080, 0x2140a4, 0x2140e0, 0x214184, 0x214200, 0x214704, 0x214760, 0x2147e4, 0x214800,
    0x215ca4, 0x215ce0, 0x21a484, 0x21a500, 0x21ad24, 0x21adc0, 0x21d564, 0x21d5a0, 0x21d964, 0x21da00,
    0x21de04, 0x21e000, 0x21e8c4, 0x21ea20, 0x21f044, 0x21f0c0, 0x220008, 0x220024, 0x220048, 0x220060,
    0x220704, 0x2208e0, 0x220e04, 0x220e20, 0x220e64, 0x220ea0, 0x220fe4, 0x221048, 0x221060, 0x221608,
    0x221664, 0x2216e8, 0x221724, 0x221760, 0x2217a7, 0x2217c0, 0x221844, 0x221860, 0x2219a7, 0x2219c0,
    0x222004, 0x222060, 0x2224e4, 0x222588, 0x2225a4, 0x2226a0, 0x2228a8, 0x2228e0, 0x222e64, 0x222e80,
    0x223004, 0x223048, 0x223060, 0x223668, 0x2236c4, 0x2237e8, 0x223804, 0x223820, 0x223847, 0x223880,
    0x223924, 0x2239a0, 0x2239c8, 0x2239e4, 0x223a00, 0x224588, 0x2245e4, 0x224648, 0x224684, 0x224700,
    0x2247c4, 0x2247e0, 0x224824, 0x224840, 0x225be4, 0x225c08, 0x225c64, 0x225d60, 0x226004, 0x226048,
    0x226080, 0x226764, 0x2267a0, 0x2267c4, 0x2267e8, 0x226804, 0x226828, 0x2268a0, 0x2268e8, 0x226920,
    0x226968, 0x2269a4, 0x2269c0, 0x226ae4, 0x226b00, 0x226c48, 0x226c80, 0x226cc4, 0x226da0, 0x226e04,
    0x226ea0, 0x227704, 0x227728, 0x227764, 0x227820, 0x227844, 0x227860, 0x2278a4, 0x2278c0, 0x2278e4,
    0x227948, 0x227960, 0x227988, 0x2279c4, 0x227a27, 0x227a44, 0x227a60, 0x227c24, 0x227c60, 0x2286a8,
    0x228704, 0x228808, 0x228844, 0x2288a8, 0x2288c4, 0x2288e0, 0x228bc4, 0x228be0, 0x229604, 0x229628,
    0x229664, 0x229728, 0x229744, 0x229768, 0x2297a4, 0x2297c8, 0x2297e4, 0x229828, 0x229844, 0x229880,
    0x22b5e4, 0x22b608, 0x22b644, 0x22b6c0, 0x22b708, 0x22b784, 0x22b7c8, 0x22b7e4, 0x22b820, 0x22bb84,
    0x22bbc0, 0x22c608, 0x22c664, 0x22c768, 0x22c7a4, 0x22c7c8, 0x22c7e4, 0x22c820, 0x22d564, 0x22d588,
    0x22d5a4, 0x22d5c8, 0x22d604, 0x22d700, 0x22e3a4, 0x22e3c8, 0x22e3e4, 0x22e400, 0x22e444, 0x22e4c8,
    0x22e4e4, 0x22e580, 0x230588, 0x2305e4, 0x230708, 0x230724, 0x230760, 0x232604, 0x232628, 0x2326c0,
    0x2326e8, 0x232720, 0x232764, 0x2327e7, 0x232808, 0x232827, 0x232848, 0x232864, 0x232880, 0x233a28,
    0x233a84, 0x233b00, 0x233b44, 0x233b88, 0x233c04, 0x233c20, 0x233c88, 0x233ca0, 0x234024, 0x234160,
    0x234664, 0x234728, 0x234740, 0x234764, 0x2347e0, 0x2348e4, 0x234900, 0x234a24, 0x234ae8, 0x234b24,
    0x234b80, 0x235087, 0x235144, 0x2352e8, 0x235304, 0x235340, 0x236c04, 0x236c28, 0x236c44, 0x236ca8,
    0x236cc4, 0x236ce8, 0x236d00, 0x2385e8, 0x238604, 0x2386e0, 0x238704, 0x2387c8, 0x2387e4, 0x238800,
    0x239244, 0x239500, 0x239528, 0x239544, 0x239628, 0x239644, 0x239688, 0x2396a4, 0x2396e0, 0x23a624,
    0x23a6e0, 0x23a744, 0x23a760, 0x23a784, 0x23a7c0, 0x23a7e4, 0x23a8c7, 0x23a8e4, 0x23a900, 0x23b148,
    0x23b1e0, 0x23b204, 0x23b240, 0x23b268, 0x23b2a4, 0x23b2c8, 0x23b2e4, 0x23b300, 0x23be04, 0x23be20,
    0x23de64, 0x23dea8, 0x23dee0, 0x23e004, 0x23e047, 0x23e068, 0x23e080, 0x23e688, 0x23e6c4, 0x23e760,
    0x23e7c8, 0x23e804, 0x23e860, 0x23eb44, 0x23eb60, 0x268603, 0x268804, 0x268820, 0x2688e4, 0x268ac0,
    0x2c23c4, 0x2c2548, 0x2c25a4, 0x2c2600, 0x2d5e04, 0x2d5ea0, 0x2d6604, 0x2d66e0, 0x2dac6a, 0x2dac80,
    0x2dacea, 0x2dad60, 0x2de9e4, 0x2dea00, 0x2dea28, 0x2df100, 0x2df1e4, 0x2df260, 0x2dfc84, 0x2dfca0,
    0x2dfe04, 0x2dfe40, 0x3793a4, 0x3793e0, 0x379403, 0x379480, 0x39e004, 0x39e5c0, 0x39e604, 0x39e8e0,
    0x3a24e4, 0x3a2520, 0x3a2ca4, 0x3a2d40, 0x3a2da4, 0x3a2e63, 0x3a2f64, 0x3a3060, 0x3a30a4, 0x3a3180,
    0x3a3544, 0x3a35c0, 0x3a4844, 0x3a48a0, 0x3a4a04, 0x3a4a60, 0x3a4b64, 0x3a4ba0, 0x3a4be4, 0x3a4c00,
    0x3a5004, 0x3a5040, 0x3b4004, 0x3b46e0, 0x3b4764, 0x3b4da0, 0x3b4ea4, 0x3b4ec0, 0x3b5084, 0x3b50a0,
    0x3b5364, 0x3b5400, 0x3b5424, 0x3b5600, 0x3c0004, 0x3c00e0, 0x3c0104, 0x3c0320, 0x3c0364, 0x3c0440,
    0x3c0464, 0x3c04a0, 0x3c04c4, 0x3c0560, 0x3c11e4, 0x3c1200, 0x3c2604, 0x3c26e0, 0x3c55c4, 0x3c55e0,
    0x3c5d84, 0x3c5e00, 0x3c9d84, 0x3c9e00, 0x3cbdc4, 0x3cbe00, 0x3cdc64, 0x3cdc80, 0x3cdcc4, 0x3cdce0,
    0x3cddc4, 0x3cde00, 0x3cdea4, 0x3cdec0, 0x3d1a04, 0x3d1ae0, 0x3d2884, 0x3d2960, 0x3e0090, 0x3e00a0,
    0x3e0590, 0x3e0600, 0x3e1290, 0x3e1400, 0x3e15f0, 0x3e1620, 0x3e1810, 0x3e1820, 0x3e19f0, 0x3e1a20,
    0x3e1ed0, 0x3e2000, 0x3e2e10, 0x3e2e40, 0x3e2fd0, 0x3e3000, 0x3e31d0, 0x3e31e0, 0x3e3230, 0x3e3360,
    0x3e35f0, 0x3e3cc6, 0x3e4000, 0x3e4030, 0x3e4200, 0x3e4350, 0x3e4360, 0x3e45f0, 0x3e4600, 0x3e4650,
    0x3e4760, 0x3e4790, 0x3e4800, 0x3e4930, 0x3e4c00, 0x3e4cd0, 0x3e6440, 0x3e6490, 0x3e7280, 0x3e72d0,
    0x3e7300, 0x3e7330, 0x3e7380, 0x3e73d0, 0x3e7e20, 0x3e7e70, 0x3e7ec0, 0x3e7ef0, 0x3e7f64, 0x3e8010,
    0x3e9fc0, 0x3e9ff0, 0x3ea7c0, 0x3ea930, 0x3ea9e0, 0x3eaa10, 0x3ead00, 0x3eadf0, 0x3eae20, 0x3eae70,
    0x3eaf60, 0x3eb0f0, 0x3eb100, 0x3eb150, 0x3eb1c0, 0x3eb210, 0x3eb220, 0x3eb2b0, 0x3eb2e0, 0x3eb490,
    0x3eb4c0, 0x3eb510, 0x3eb520, 0x3eb630, 0x3eb660, 0x3eb790, 0x3eb7a0, 0x3eb850, 0x3eb8a0, 0x3eba30,
    0x3eba80, 0x3ebb90, 0x3ebbe0, 0x3ebc30, 0x3ebc40, 0x3ebc70, 0x3ebc80, 0x3ebd10, 0x3ebd20, 0x3ebdf0,
    0x3ebe00, 0x3ebe70, 0x3ebe80, 0x3ebf50, 0x3eca00, 0x3ed010, 0x3ed8c0, 0x3ed970, 0x3eda60, 0x3edab0,
    0x3edcc0, 0x3edd30, 0x3edd40, 0x3edd70, 0x3ede20, 0x3ede70, 0x3ee000, 0x3efb90, 0x3efe20, 0x3f0190,
    0x3f0200, 0x3f0910, 0x3f0a00, 0x3f0b50, 0x3f0c00, 0x3f1110, 0x3f1200, 0x3f15d0, 0x3f1600, 0x3f1790,
    0x3f1800, 0x3f1850, 0x3f1a00, 0x3f1b30, 0x3f2000, 0x3f2190, 0x3f2760, 0x3f2790, 0x3f28c0, 0x3f28f0,
    0x3f4000, 0x3f4b10, 0x3f4c00, 0x3f4dd0, 0x3f6000, 0x3f8010, 0x3fffc0, 0x1c00003, 0x1c00404, 0x1c01003,
    0x1c02004, 0x1c03e03, 0x1c20000,
};
VIT__TABLES_END
// ---- grapheme table: end

// >>tables open_clip ----------------------------------------------------------
// python3 tools/make_openclip_tables.py [--check]: ftfy's and html's tables
// (>>tokenize open_clip).

// ---- open_clip tables: begin (tools/make_openclip_tables.py; do not edit)
// ftfy 6.3.1, Python 3.11.7 (html, unicodedata 14.0.0)
VIT__TABLES_BEGIN
VIT__TABLE uint64_t vit__oc_bad_chars[506][3] = {
    {0x20, 0x910000000000000ull, 0x0ull}, {0x21, 0x200000000000000ull, 0x0ull}, {0x2c, 0x200000000000000ull, 0x0ull},
    {0x2e, 0x200000000000000ull, 0x0ull}, {0x3f, 0x200000000000000ull, 0x0ull}, {0x41, 0x10000000000004ull, 0x0ull},
    {0x42, 0x10000000000004ull, 0x0ull}, {0x43, 0x10000000000004ull, 0x0ull}, {0x44, 0x10000000000004ull, 0x0ull},
    {0x45, 0x10000000000004ull, 0x0ull}, {0x46, 0x10000000000004ull, 0x0ull}, {0x47, 0x10000000000004ull, 0x0ull},
    {0x48, 0x10000000000004ull, 0x0ull}, {0x49, 0x10000000000004ull, 0x0ull}, {0x4a, 0x10000000000004ull, 0x0ull},
    {0x4b, 0x10000000000004ull, 0x0ull}, {0x4c, 0x10000000000004ull, 0x0ull}, {0x4d, 0x10000000000004ull, 0x0ull},
    {0x4e, 0x10000000000004ull, 0x0ull}, {0x4f, 0x10000000000004ull, 0x0ull}, {0x50, 0x10000000000004ull, 0x0ull},
    {0x51, 0x10000000000004ull, 0x0ull}, {0x52, 0x10000000000004ull, 0x0ull}, {0x53, 0x10000000000004ull, 0x0ull},
    {0x54, 0x10000000000004ull, 0x0ull}, {0x55, 0x10000000000004ull, 0x0ull}, {0x56, 0x10000000000004ull, 0x0ull},
    {0x57, 0x10000000000004ull, 0x0ull}, {0x58, 0x10000000000004ull, 0x0ull}, {0x59, 0x10000000000004ull, 0x0ull},
    {0x5a, 0x10000000000004ull, 0x0ull}, {0x61, 0x210000000080004ull, 0x0ull}, {0x62, 0x210000000080004ull, 0x0ull},
    {0x63, 0x210000000080004ull, 0x0ull}, {0x64, 0x210000000080004ull, 0x0ull}, {0x65, 0x210000000080004ull, 0x0ull},
    {0x66, 0x210000000080004ull, 0x0ull}, {0x67, 0x210000000080004ull, 0x0ull}, {0x68, 0x210000000080004ull, 0x0ull},
    {0x69, 0x210000000080004ull, 0x0ull}, {0x6a, 0x210000000080004ull, 0x0ull}, {0x6b, 0x210000000080004ull, 0x0ull},
    {0x6c, 0x210000000080004ull, 0x0ull}, {0x6d, 0x210000000080004ull, 0x0ull}, {0x6e, 0x210000000080004ull, 0x0ull},
    {0x6f, 0x210000000080004ull, 0x0ull}, {0x70, 0x210000000080004ull, 0x0ull}, {0x71, 0x210000000080004ull, 0x0ull},
    {0x72, 0x210000000080004ull, 0x0ull}, {0x73, 0x210000000080004ull, 0x0ull}, {0x74, 0x210000000080004ull, 0x0ull},
    {0x75, 0x210000000080004ull, 0x0ull}, {0x76, 0x210000000080004ull, 0x0ull}, {0x77, 0x210000000080004ull, 0x0ull},
    {0x78, 0x210000000080004ull, 0x0ull}, {0x79, 0x210000000080004ull, 0x0ull}, {0x7a, 0x210000000080004ull, 0x0ull},
    {0x80, 0x1000000000000ull, 0x1ull}, {0x81, 0x1000000000000ull, 0x1ull}, {0x82, 0x1000000000000ull, 0x1ull},
    {0x83, 0x1000000000000ull, 0x1ull}, {0x84, 0x1000000000000ull, 0x1ull}, {0x85, 0x1000000000000ull, 0x1ull},
    {0x86, 0x1000000000000ull, 0x1ull}, {0x87, 0x1000000000000ull, 0x1ull}, {0x88, 0x1000000000000ull, 0x1ull},
    {0x89, 0x1000000000000ull, 0x1ull}, {0x8a, 0x1000000000000ull, 0x1ull}, {0x8b, 0x1000000000000ull, 0x1ull},
    {0x8c, 0x1000000000000ull, 0x1ull}, {0x8d, 0x1000000000000ull, 0x1ull}, {0x8e, 0x1000000000000ull, 0x1ull},
    {0x8f, 0x1000000000000ull, 0x1ull}, {0x90, 0x1000000000000ull, 0x1ull}, {0x91, 0x1000000000000ull, 0x1ull},
    {0x92, 0x1000000000000ull, 0x1ull}, {0x93, 0x1000000000000ull, 0x1ull}, {0x94, 0x1000000000000ull, 0x1ull},
    {0x95, 0x1000000000000ull, 0x1ull}, {0x96, 0x1000000000000ull, 0x1ull}, {0x97, 0x1000000000000ull, 0x1ull},
    {0x98, 0x1000000000000ull, 0x1ull}, {0x99, 0x1000000000000ull, 0x1ull}, {0x9a, 0x1000000000000ull, 0x1ull},
    {0x9b, 0x1000000000000ull, 0x1ull}, {0x9c, 0x1000000000000ull, 0x1ull}, {0x9d, 0x1000000000000ull, 0x1ull},
    {0x9e, 0x1000000000000ull, 0x1ull}, {0x9f, 0x1000000000000ull, 0x1ull}, {0xa0, 0x4040000220000000ull, 0x0ull},
    {0xa1, 0x841000222904011ull, 0x1ull}, {0xa2, 0x10482209524b1ull, 0x1ull}, {0xa3, 0x10002209524b1ull, 0x1ull},
    {0xa4, 0x1000200000003ull, 0x1ull}, {0xa5, 0x10022009524b1ull, 0x1ull}, {0xa6, 0x1000200000003ull, 0x1ull},
    {0xa7, 0x811011ull, 0x0ull}, {0xa8, 0x1000200000003ull, 0x1ull}, {0xa9, 0x801000222904011ull, 0x1ull},
    {0xaa, 0x1000200000003ull, 0x1ull}, {0xab, 0x801000222904011ull, 0x1ull}, {0xac, 0x1000200000003ull, 0x1ull},
    {0xad, 0x4000000220000000ull, 0x0ull}, {0xae, 0x4a010022228222b1ull, 0x1ull}, {0xaf, 0x1000200000003ull, 0x1ull},
    {0xb0, 0x4001148228400000ull, 0x1ull}, {0xb1, 0x22008590b1ull, 0x0ull}, {0xb2, 0xa808590b1ull, 0x0ull},
    {0xb3, 0x2808590b1ull, 0x0ull}, {0xb4, 0x2220000000ull, 0x0ull}, {0xb5, 0x1002a008590b1ull, 0x0ull},
    {0xb6, 0x811011ull, 0x0ull}, {0xb7, 0x220000000ull, 0x0ull}, {0xb8, 0x1000200000003ull, 0x1ull},
    {0xb9, 0xa008590b1ull, 0x0ull}, {0xba, 0x1000200000003ull, 0x1ull}, {0xbb, 0xa010002228222b1ull, 0x1ull},
    {0xbc, 0xa008590b1ull, 0x0ull}, {0xbd, 0xa008590b1ull, 0x0ull}, {0xbe, 0xa008590b1ull, 0x0ull},
    {0xbf, 0x801000222904011ull, 0x1ull}, {0xc0, 0x1812851ull, 0x0ull}, {0xc1, 0x1812851ull, 0x0ull},
    {0xc2, 0x480000011812851ull, 0x0ull}, {0xc3, 0xa0000011812851ull, 0x0ull}, {0xc4, 0x20001812851ull, 0x0ull},
    {0xc5, 0x1812851ull, 0x0ull}, {0xc6, 0x1812851ull, 0x0ull}, {0xc7, 0x1812851ull, 0x0ull},
    {0xc8, 0x1812851ull, 0x0ull}, {0xc9, 0x1812851ull, 0x0ull}, {0xca, 0x1812851ull, 0x0ull},
    {0xcb, 0x1812851ull, 0x0ull}, {0xcc, 0x1812851ull, 0x0ull}, {0xcd, 0x1812851ull, 0x0ull},
    {0xce, 0x11812851ull, 0x0ull}, {0xcf, 0x1812851ull, 0x0ull}, {0xd0, 0x11812851ull, 0x0ull},
    {0xd1, 0x1812851ull, 0x0ull}, {0xd2, 0x400000ull, 0x0ull}, {0xd3, 0x400000ull, 0x0ull},
    {0xd4, 0x400000ull, 0x0ull}, {0xd5, 0x400000ull, 0x0ull}, {0xd6, 0x400000ull, 0x0ull},
    {0xd7, 0x2408590b1ull, 0x0ull}, {0xd8, 0x101812851ull, 0x0ull}, {0xd9, 0x100400000ull, 0x0ull},
    {0xda, 0x400000ull, 0x0ull}, {0xdb, 0x400000ull, 0x0ull}, {0xdc, 0x1c12851ull, 0x0ull},
    {0xdd, 0x1812851ull, 0x0ull}, {0xde, 0x8ull, 0x0ull}, {0xdf, 0x1812331ull, 0x0ull},
    {0xe0, 0x100401812331ull, 0x0ull}, {0xe1, 0x1812331ull, 0x0ull}, {0xe2, 0x80001812331ull, 0x0ull},
    {0xe3, 0x1812331ull, 0x0ull}, {0xe4, 0x100001812331ull, 0x0ull}, {0xe5, 0x1812331ull, 0x0ull},
    {0xe6, 0x1812331ull, 0x0ull}, {0xe7, 0x1812331ull, 0x0ull}, {0xe8, 0x1812331ull, 0x0ull},
    {0xe9, 0x1812331ull, 0x0ull}, {0xea, 0x100001812331ull, 0x0ull}, {0xeb, 0x1812331ull, 0x0ull},
    {0xec, 0x40001812331ull, 0x0ull}, {0xed, 0x1812331ull, 0x0ull}, {0xee, 0x40001812331ull, 0x0ull},
    {0xef, 0x40001812331ull, 0x0ull}, {0xf0, 0x1812331ull, 0x0ull}, {0xf1, 0x1812331ull, 0x0ull},
    {0xf2, 0x40000400000ull, 0x0ull}, {0xf3, 0x80000400000ull, 0x0ull}, {0xf4, 0x40000400000ull, 0x0ull},
    {0xf5, 0x400000ull, 0x0ull}, {0xf6, 0x400000ull, 0x0ull}, {0xf7, 0x2008590b1ull, 0x0ull},
    {0xf8, 0x2000400000ull, 0x0ull}, {0xf9, 0x40000400000ull, 0x0ull}, {0xfa, 0x40000400000ull, 0x0ull},
    {0xfb, 0x40000400000ull, 0x0ull}, {0xfc, 0x1c12331ull, 0x0ull}, {0x100, 0x1812851ull, 0x0ull},
    {0x101, 0x1812331ull, 0x2ull}, {0x102, 0x1812851ull, 0x0ull}, {0x103, 0x1812331ull, 0x0ull},
    {0x104, 0x1812851ull, 0x0ull}, {0x105, 0x1812331ull, 0x0ull}, {0x106, 0x1812851ull, 0x0ull},
    {0x107, 0x1812331ull, 0x0ull}, {0x10c, 0x1812851ull, 0x0ull}, {0x10d, 0x1812331ull, 0x0ull},
    {0x10e, 0x1812851ull, 0x0ull}, {0x10f, 0x1812331ull, 0x0ull}, {0x110, 0x1812851ull, 0x0ull},
    {0x111, 0x1812331ull, 0x0ull}, {0x112, 0x1812851ull, 0x0ull}, {0x113, 0x1812331ull, 0x0ull},
    {0x116, 0x1812851ull, 0x0ull}, {0x117, 0x1812331ull, 0x0ull}, {0x118, 0x1812851ull, 0x0ull},
    {0x119, 0x1812331ull, 0x0ull}, {0x11a, 0x1812851ull, 0x0ull}, {0x11b, 0x1812331ull, 0x0ull},
    {0x11e, 0x1812851ull, 0x0ull}, {0x11f, 0x1812331ull, 0x0ull}, {0x122, 0x1812851ull, 0x0ull},
    {0x123, 0x1812331ull, 0x0ull}, {0x12a, 0x1812851ull, 0x0ull}, {0x12b, 0x1812331ull, 0x0ull},
    {0x12f, 0x1812331ull, 0x0ull}, {0x130, 0x1812851ull, 0x0ull}, {0x136, 0x1812851ull, 0x0ull},
    {0x137, 0x1812331ull, 0x0ull}, {0x139, 0x1812851ull, 0x0ull}, {0x13a, 0x1812331ull, 0x0ull},
    {0x13b, 0x1812851ull, 0x0ull}, {0x13c, 0x1812331ull, 0x0ull}, {0x13d, 0x1812851ull, 0x0ull},
    {0x13e, 0x1812331ull, 0x0ull}, {0x141, 0x1812851ull, 0x0ull}, {0x142, 0x1812331ull, 0x0ull},
    {0x143, 0x1812851ull, 0x0ull}, {0x145, 0x1812851ull, 0x0ull}, {0x147, 0x1812851ull, 0x0ull},
    {0x14c, 0x400000ull, 0x0ull}, {0x150, 0x400000ull, 0x0ull}, {0x152, 0x5812851ull, 0x0ull},
    {0x153, 0x25812331ull, 0x0ull}, {0x155, 0x1812331ull, 0x0ull}, {0x158, 0x1812851ull, 0x0ull},
    {0x15a, 0x1812851ull, 0x0ull}, {0x15b, 0x1812331ull, 0x0ull}, {0x15e, 0x1812851ull, 0x0ull},
    {0x15f, 0x1812331ull, 0x0ull}, {0x160, 0x221812851ull, 0x0ull}, {0x161, 0x21812331ull, 0x0ull},
    {0x162, 0x1812851ull, 0x0ull}, {0x164, 0x1812851ull, 0x0ull}, {0x165, 0x1812331ull, 0x0ull},
    {0x16a, 0x400000ull, 0x0ull}, {0x16e, 0x1812851ull, 0x0ull}, {0x170, 0x1812851ull, 0x0ull},
    {0x172, 0x400000ull, 0x0ull}, {0x178, 0x221812851ull, 0x0ull}, {0x179, 0x1812851ull, 0x0ull},
    {0x17a, 0x1812331ull, 0x0ull}, {0x17b, 0x1812851ull, 0x0ull}, {0x17c, 0x1812331ull, 0x0ull},
    {0x17d, 0x1812851ull, 0x0ull}, {0x17e, 0x21812331ull, 0x0ull}, {0x192, 0x1000200000003ull, 0x1ull},
    {0x2c6, 0x1000200000003ull, 0x1ull}, {0x2c7, 0x1000200000003ull, 0x1ull}, {0x2d8, 0x1000200000003ull, 0x1ull},
    {0x2db, 0x1000200000003ull, 0x1ull}, {0x2dc, 0x1000200000003ull, 0x1ull}, {0x2dd, 0xa010000228222b1ull, 0x1ull},
    {0x384, 0x801000222904011ull, 0x1ull}, {0x385, 0x801000222904011ull, 0x1ull}, {0x386, 0x4000000000000008ull, 0x0ull},
    {0x388, 0x8ull, 0x0ull}, {0x389, 0x8ull, 0x0ull}, {0x38a, 0x8ull, 0x0ull},
    {0x38c, 0x8ull, 0x0ull}, {0x38e, 0x8ull, 0x0ull}, {0x38f, 0x8ull, 0x0ull},
    {0x391, 0x8ull, 0x0ull}, {0x392, 0x8000000000000008ull, 0x0ull}, {0x393, 0x8000000000000008ull, 0x0ull},
    {0x394, 0x8ull, 0x0ull}, {0x395, 0x8ull, 0x0ull}, {0x396, 0x8ull, 0x0ull},
    {0x397, 0x8ull, 0x0ull}, {0x398, 0x8ull, 0x0ull}, {0x399, 0x8ull, 0x0ull},
    {0x39a, 0x8ull, 0x0ull}, {0x39b, 0x8ull, 0x0ull}, {0x39c, 0x8ull, 0x0ull},
    {0x39d, 0x8ull, 0x0ull}, {0x39e, 0x8000000000000008ull, 0x0ull}, {0x39f, 0x8000000000000008ull, 0x0ull},
    {0x3a0, 0x8ull, 0x0ull}, {0x3a1, 0x8ull, 0x0ull}, {0x3a2, 0x8ull, 0x0ull},
    {0x3a3, 0x8ull, 0x0ull}, {0x3a4, 0x8ull, 0x0ull}, {0x3a5, 0x8ull, 0x0ull},
    {0x3a6, 0x8ull, 0x0ull}, {0x3a7, 0x8ull, 0x0ull}, {0x3a8, 0x8ull, 0x0ull},
    {0x3a9, 0x8ull, 0x0ull}, {0x3aa, 0x8ull, 0x0ull}, {0x3ab, 0x8ull, 0x0ull},
    {0x3ac, 0x28ull, 0x0ull}, {0x3ad, 0x28ull, 0x0ull}, {0x3ae, 0x28ull, 0x0ull},
    {0x3af, 0x28ull, 0x0ull}, {0x3b0, 0x28ull, 0x0ull}, {0x3b1, 0x28ull, 0x0ull},
    {0x3b2, 0x1000000000000028ull, 0x0ull}, {0x3b3, 0x28ull, 0x0ull}, {0x3b4, 0x28ull, 0x0ull},
    {0x3b5, 0x28ull, 0x0ull}, {0x3b6, 0x28ull, 0x0ull}, {0x3b7, 0x28ull, 0x0ull},
    {0x3b8, 0x28ull, 0x0ull}, {0x3b9, 0x28ull, 0x0ull}, {0x3ba, 0x28ull, 0x0ull},
    {0x3bb, 0x28ull, 0x0ull}, {0x3bc, 0x28ull, 0x0ull}, {0x3bd, 0x28ull, 0x0ull},
    {0x3be, 0x28ull, 0x0ull}, {0x3bf, 0x28ull, 0x0ull}, {0x3c0, 0x40000000028ull, 0x0ull},
    {0x3c1, 0x28ull, 0x0ull}, {0x3c2, 0x28ull, 0x0ull}, {0x3c3, 0x28ull, 0x0ull},
    {0x3c4, 0x28ull, 0x0ull}, {0x3c5, 0x28ull, 0x0ull}, {0x3c6, 0x28ull, 0x0ull},
    {0x3c7, 0x28ull, 0x0ull}, {0x3c8, 0x28ull, 0x0ull}, {0x3c9, 0x28ull, 0x0ull},
    {0x401, 0x8ull, 0x0ull}, {0x402, 0x400000000008ull, 0x0ull}, {0x403, 0x8ull, 0x0ull},
    {0x404, 0x8ull, 0x0ull}, {0x405, 0x8ull, 0x0ull}, {0x406, 0x8ull, 0x0ull},
    {0x407, 0x8ull, 0x0ull}, {0x408, 0x8ull, 0x0ull}, {0x409, 0x8ull, 0x0ull},
    {0x40a, 0x8ull, 0x0ull}, {0x40b, 0x8ull, 0x0ull}, {0x40c, 0x8ull, 0x0ull},
    {0x40d, 0x8ull, 0x0ull}, {0x40e, 0x8ull, 0x0ull}, {0x40f, 0x8ull, 0x0ull},
    {0x410, 0x8ull, 0x0ull}, {0x411, 0x8ull, 0x0ull}, {0x412, 0x8800000000008ull, 0x0ull},
    {0x413, 0x2800000000008ull, 0x0ull}, {0x414, 0x8ull, 0x0ull}, {0x415, 0x8ull, 0x0ull},
    {0x416, 0x8ull, 0x0ull}, {0x417, 0x8ull, 0x0ull}, {0x418, 0x8ull, 0x0ull},
    {0x419, 0x8ull, 0x0ull}, {0x41a, 0x8ull, 0x0ull}, {0x41b, 0x8ull, 0x0ull},
    {0x41c, 0x8ull, 0x0ull}, {0x41d, 0x8ull, 0x0ull}, {0x41e, 0x8ull, 0x0ull},
    {0x41f, 0x8ull, 0x0ull}, {0x420, 0x800000000008ull, 0x0ull}, {0x421, 0x800000000008ull, 0x0ull},
    {0x422, 0x8ull, 0x0ull}, {0x423, 0x8ull, 0x0ull}, {0x424, 0x8ull, 0x0ull},
    {0x425, 0x8ull, 0x0ull}, {0x426, 0x8ull, 0x0ull}, {0x427, 0x8ull, 0x0ull},
    {0x428, 0x8ull, 0x0ull}, {0x429, 0x8ull, 0x0ull}, {0x42a, 0x8ull, 0x0ull},
    {0x42b, 0x8ull, 0x0ull}, {0x42c, 0x8ull, 0x0ull}, {0x42d, 0x8ull, 0x0ull},
    {0x42e, 0x8ull, 0x0ull}, {0x42f, 0x8ull, 0x0ull}, {0x430, 0x28ull, 0x0ull},
    {0x431, 0x28ull, 0x0ull}, {0x432, 0x200000000028ull, 0x0ull}, {0x433, 0x28ull, 0x0ull},
    {0x434, 0x28ull, 0x0ull}, {0x435, 0x28ull, 0x0ull}, {0x436, 0x28ull, 0x0ull},
    {0x437, 0x28ull, 0x0ull}, {0x438, 0x28ull, 0x0ull}, {0x439, 0x28ull, 0x0ull},
    {0x43a, 0x28ull, 0x0ull}, {0x43b, 0x28ull, 0x0ull}, {0x43c, 0x28ull, 0x0ull},
    {0x43d, 0x28ull, 0x0ull}, {0x43e, 0x28ull, 0x0ull}, {0x43f, 0x28ull, 0x0ull},
    {0x440, 0x28ull, 0x0ull}, {0x441, 0x28ull, 0x0ull}, {0x442, 0x28ull, 0x0ull},
    {0x443, 0x28ull, 0x0ull}, {0x444, 0x28ull, 0x0ull}, {0x445, 0x28ull, 0x0ull},
    {0x446, 0x28ull, 0x0ull}, {0x447, 0x28ull, 0x0ull}, {0x448, 0x28ull, 0x0ull},
    {0x449, 0x28ull, 0x0ull}, {0x44a, 0x28ull, 0x0ull}, {0x44b, 0x28ull, 0x0ull},
    {0x44c, 0x28ull, 0x0ull}, {0x44d, 0x28ull, 0x0ull}, {0x44e, 0x28ull, 0x0ull},
    {0x44f, 0x28ull, 0x0ull}, {0x450, 0x28ull, 0x0ull}, {0x451, 0x28ull, 0x0ull},
    {0x452, 0x28ull, 0x0ull}, {0x453, 0x28ull, 0x0ull}, {0x454, 0x28ull, 0x0ull},
    {0x455, 0x28ull, 0x0ull}, {0x456, 0x28ull, 0x0ull}, {0x457, 0x28ull, 0x0ull},
    {0x458, 0x28ull, 0x0ull}, {0x459, 0x28ull, 0x0ull}, {0x45a, 0x28ull, 0x0ull},
    {0x45b, 0x28ull, 0x0ull}, {0x45c, 0x28ull, 0x0ull}, {0x45d, 0x28ull, 0x0ull},
    {0x45e, 0x4000000000028ull, 0x0ull}, {0x45f, 0x28ull, 0x0ull}, {0x490, 0x1812851ull, 0x0ull},
    {0x491, 0x1812331ull, 0x0ull}, {0x2013, 0x220000000ull, 0x0ull}, {0x2014, 0x220000000ull, 0x0ull},
    {0x2015, 0x200000000ull, 0x0ull}, {0x2018, 0x801000222904011ull, 0x1ull}, {0x2019, 0x200000000ull, 0x0ull},
    {0x201a, 0x801010222904011ull, 0x1ull}, {0x201c, 0x801000222904011ull, 0x1ull}, {0x201d, 0xa010000228222b1ull, 0x1ull},
    {0x201e, 0x801000222904011ull, 0x1ull}, {0x2020, 0x1042200000003ull, 0x1ull}, {0x2021, 0x1000200000003ull, 0x1ull},
    {0x2022, 0x801000222904011ull, 0x1ull}, {0x2026, 0x200000000ull, 0x0ull}, {0x2030, 0x1000200000003ull, 0x1ull},
    {0x2039, 0x801000222904011ull, 0x1ull}, {0x203a, 0xa010000228222b1ull, 0x1ull}, {0x2044, 0x2008590b1ull, 0x0ull},
    {0x20a7, 0x10002009524b1ull, 0x1ull}, {0x20ac, 0x20010002209524b1ull, 0x1ull}, {0x2116, 0x2008590b1ull, 0x0ull},
    {0x2122, 0x4a010020228222b1ull, 0x1ull}, {0x2202, 0x22008590b1ull, 0x0ull}, {0x2206, 0x2008590b1ull, 0x0ull},
    {0x220f, 0x2008590b1ull, 0x0ull}, {0x2211, 0x2008590b1ull, 0x0ull}, {0x221a, 0x12008590b1ull, 0x0ull},
    {0x221e, 0x2008590b1ull, 0x0ull}, {0x2229, 0x2008590b1ull, 0x0ull}, {0x222b, 0x2008590b1ull, 0x0ull},
    {0x2248, 0x42008590b1ull, 0x0ull}, {0x2260, 0x22008590b1ull, 0x0ull}, {0x2261, 0x2008590b1ull, 0x0ull},
    {0x2264, 0x22008590b1ull, 0x0ull}, {0x2265, 0x22008590b1ull, 0x0ull}, {0x2310, 0x1000200000003ull, 0x1ull},
    {0x2502, 0x252ab1ull, 0x0ull}, {0x250c, 0x252ab1ull, 0x0ull}, {0x2510, 0x252ab1ull, 0x0ull},
    {0x2518, 0x252ab1ull, 0x0ull}, {0x251c, 0x252ab1ull, 0x0ull}, {0x2524, 0x252ab1ull, 0x0ull},
    {0x252c, 0x252ab1ull, 0x0ull}, {0x253c, 0x252ab1ull, 0x0ull}, {0x2550, 0x252ab1ull, 0x0ull},
    {0x2551, 0x252ab1ull, 0x0ull}, {0x2552, 0x252ab1ull, 0x0ull}, {0x2553, 0x252ab1ull, 0x0ull},
    {0x2554, 0x252ab1ull, 0x0ull}, {0x2555, 0x252ab1ull, 0x0ull}, {0x2556, 0x252ab1ull, 0x0ull},
    {0x2557, 0x252ab1ull, 0x0ull}, {0x2558, 0x252ab1ull, 0x0ull}, {0x2559, 0x252ab1ull, 0x0ull},
    {0x255a, 0x252ab1ull, 0x0ull}, {0x255b, 0x252ab1ull, 0x0ull}, {0x255c, 0x252ab1ull, 0x0ull},
    {0x255d, 0x252ab1ull, 0x0ull}, {0x255e, 0x252ab1ull, 0x0ull}, {0x255f, 0x252ab1ull, 0x0ull},
    {0x2560, 0x252ab1ull, 0x0ull}, {0x2561, 0x252ab1ull, 0x0ull}, {0x2562, 0x252ab1ull, 0x0ull},
    {0x2563, 0x252ab1ull, 0x0ull}, {0x2564, 0x252ab1ull, 0x0ull}, {0x2565, 0x252ab1ull, 0x0ull},
    {0x2566, 0x252ab1ull, 0x0ull}, {0x2567, 0x252ab1ull, 0x0ull}, {0x2568, 0x252ab1ull, 0x0ull},
    {0x2569, 0x252ab1ull, 0x0ull}, {0x256a, 0x252ab1ull, 0x0ull}, {0x256b, 0x252ab1ull, 0x0ull},
    {0x256c, 0x252ab1ull, 0x0ull}, {0x2580, 0x252ab1ull, 0x0ull}, {0x2584, 0x252ab1ull, 0x0ull},
    {0x2588, 0x252ab1ull, 0x0ull}, {0x258c, 0x252ab1ull, 0x0ull}, {0x2590, 0x252ab1ull, 0x0ull},
    {0x2591, 0x252ab1ull, 0x0ull}, {0x2592, 0x252ab1ull, 0x0ull}, {0x2593, 0x252ab1ull, 0x0ull},
    {0x25ca, 0x1000200000003ull, 0x1ull}, {0xf8ff, 0x801000222904011ull, 0x1ull}, {0xfb01, 0x1812331ull, 0x0ull},
    {0xfb02, 0x1812331ull, 0x0ull}, {0xfffd, 0x1000200000003ull, 0x1ull},
};
VIT__TABLE unsigned char vit__oc_bad_alts[136] = {
    127, 255, 0, 1, 255, 2, 3, 1, 255, 1, 4, 255, 5, 6, 255, 7, 8, 255, 9, 10,
    255, 123, 6, 10, 255, 11, 12, 255, 13, 14, 15, 255, 16, 17, 14, 255, 18, 14, 255, 19,
    6, 20, 255, 21, 22, 255, 23, 21, 255, 21, 17, 255, 24, 25, 124, 255, 26, 125, 255, 6,
    27, 255, 28, 29, 255, 30, 31, 255, 32, 33, 32, 33, 255, 34, 35, 255, 36, 37, 255, 38,
    39, 255, 40, 41, 42, 255, 40, 43, 44, 255, 45, 46, 255, 47, 48, 47, 255, 49, 50, 51,
    46, 51, 126, 52, 255, 53, 54, 255, 19, 55, 56, 255, 19, 123, 55, 56, 255, 254, 55, 56,
    255, 57, 58, 59, 255, 60, 61, 62, 255, 63, 64, 63, 255, 65, 61, 255,
};
VIT__TABLE uint32_t vit__oc_width[226][3] = {
    {0x3000, 0x20, 0x0}, {0xff01, 0x21, 0x0}, {0xff02, 0x22, 0x0}, {0xff03, 0x23, 0x0}, {0xff04, 0x24, 0x0}, {0xff05, 0x25, 0x0},
    {0xff06, 0x26, 0x0}, {0xff07, 0x27, 0x0}, {0xff08, 0x28, 0x0}, {0xff09, 0x29, 0x0}, {0xff0a, 0x2a, 0x0}, {0xff0b, 0x2b, 0x0},
    {0xff0c, 0x2c, 0x0}, {0xff0d, 0x2d, 0x0}, {0xff0e, 0x2e, 0x0}, {0xff0f, 0x2f, 0x0}, {0xff10, 0x30, 0x0}, {0xff11, 0x31, 0x0},
    {0xff12, 0x32, 0x0}, {0xff13, 0x33, 0x0}, {0xff14, 0x34, 0x0}, {0xff15, 0x35, 0x0}, {0xff16, 0x36, 0x0}, {0xff17, 0x37, 0x0},
    {0xff18, 0x38, 0x0}, {0xff19, 0x39, 0x0}, {0xff1a, 0x3a, 0x0}, {0xff1b, 0x3b, 0x0}, {0xff1c, 0x3c, 0x0}, {0xff1d, 0x3d, 0x0},
    {0xff1e, 0x3e, 0x0}, {0xff1f, 0x3f, 0x0}, {0xff20, 0x40, 0x0}, {0xff21, 0x41, 0x0}, {0xff22, 0x42, 0x0}, {0xff23, 0x43, 0x0},
    {0xff24, 0x44, 0x0}, {0xff25, 0x45, 0x0}, {0xff26, 0x46, 0x0}, {0xff27, 0x47, 0x0}, {0xff28, 0x48, 0x0}, {0xff29, 0x49, 0x0},
    {0xff2a, 0x4a, 0x0}, {0xff2b, 0x4b, 0x0}, {0xff2c, 0x4c, 0x0}, {0xff2d, 0x4d, 0x0}, {0xff2e, 0x4e, 0x0}, {0xff2f, 0x4f, 0x0},
    {0xff30, 0x50, 0x0}, {0xff31, 0x51, 0x0}, {0xff32, 0x52, 0x0}, {0xff33, 0x53, 0x0}, {0xff34, 0x54, 0x0}, {0xff35, 0x55, 0x0},
    {0xff36, 0x56, 0x0}, {0xff37, 0x57, 0x0}, {0xff38, 0x58, 0x0}, {0xff39, 0x59, 0x0}, {0xff3a, 0x5a, 0x0}, {0xff3b, 0x5b, 0x0},
    {0xff3c, 0x5c, 0x0}, {0xff3d, 0x5d, 0x0}, {0xff3e, 0x5e, 0x0}, {0xff3f, 0x5f, 0x0}, {0xff40, 0x60, 0x0}, {0xff41, 0x61, 0x0},
    {0xff42, 0x62, 0x0}, {0xff43, 0x63, 0x0}, {0xff44, 0x64, 0x0}, {0xff45, 0x65, 0x0}, {0xff46, 0x66, 0x0}, {0xff47, 0x67, 0x0},
    {0xff48, 0x68, 0x0}, {0xff49, 0x69, 0x0}, {0xff4a, 0x6a, 0x0}, {0xff4b, 0x6b, 0x0}, {0xff4c, 0x6c, 0x0}, {0xff4d, 0x6d, 0x0},
    {0xff4e, 0x6e, 0x0}, {0xff4f, 0x6f, 0x0}, {0xff50, 0x70, 0x0}, {0xff51, 0x71, 0x0}, {0xff52, 0x72, 0x0}, {0xff53, 0x73, 0x0},
    {0xff54, 0x74, 0x0}, {0xff55, 0x75, 0x0}, {0xff56, 0x76, 0x0}, {0xff57, 0x77, 0x0}, {0xff58, 0x78, 0x0}, {0xff59, 0x79, 0x0},
    {0xff5a, 0x7a, 0x0}, {0xff5b, 0x7b, 0x0}, {0xff5c, 0x7c, 0x0}, {0xff5d, 0x7d, 0x0}, {0xff5e, 0x7e, 0x0}, {0xff5f, 0x2985, 0x0},
    {0xff60, 0x2986, 0x0}, {0xff61, 0x3002, 0x0}, {0xff62, 0x300c, 0x0}, {0xff63, 0x300d, 0x0}, {0xff64, 0x3001, 0x0}, {0xff65, 0x30fb, 0x0},
    {0xff66, 0x30f2, 0x0}, {0xff67, 0x30a1, 0x0}, {0xff68, 0x30a3, 0x0}, {0xff69, 0x30a5, 0x0}, {0xff6a, 0x30a7, 0x0}, {0xff6b, 0x30a9, 0x0},
    {0xff6c, 0x30e3, 0x0}, {0xff6d, 0x30e5, 0x0}, {0xff6e, 0x30e7, 0x0}, {0xff6f, 0x30c3, 0x0}, {0xff70, 0x30fc, 0x0}, {0xff71, 0x30a2, 0x0},
    {0xff72, 0x30a4, 0x0}, {0xff73, 0x30a6, 0x0}, {0xff74, 0x30a8, 0x0}, {0xff75, 0x30aa, 0x0}, {0xff76, 0x30ab, 0x0}, {0xff77, 0x30ad, 0x0},
    {0xff78, 0x30af, 0x0}, {0xff79, 0x30b1, 0x0}, {0xff7a, 0x30b3, 0x0}, {0xff7b, 0x30b5, 0x0}, {0xff7c, 0x30b7, 0x0}, {0xff7d, 0x30b9, 0x0},
    {0xff7e, 0x30bb, 0x0}, {0xff7f, 0x30bd, 0x0}, {0xff80, 0x30bf, 0x0}, {0xff81, 0x30c1, 0x0}, {0xff82, 0x30c4, 0x0}, {0xff83, 0x30c6, 0x0},
    {0xff84, 0x30c8, 0x0}, {0xff85, 0x30ca, 0x0}, {0xff86, 0x30cb, 0x0}, {0xff87, 0x30cc, 0x0}, {0xff88, 0x30cd, 0x0}, {0xff89, 0x30ce, 0x0},
    {0xff8a, 0x30cf, 0x0}, {0xff8b, 0x30d2, 0x0}, {0xff8c, 0x30d5, 0x0}, {0xff8d, 0x30d8, 0x0}, {0xff8e, 0x30db, 0x0}, {0xff8f, 0x30de, 0x0},
    {0xff90, 0x30df, 0x0}, {0xff91, 0x30e0, 0x0}, {0xff92, 0x30e1, 0x0}, {0xff93, 0x30e2, 0x0}, {0xff94, 0x30e4, 0x0}, {0xff95, 0x30e6, 0x0},
    {0xff96, 0x30e8, 0x0}, {0xff97, 0x30e9, 0x0}, {0xff98, 0x30ea, 0x0}, {0xff99, 0x30eb, 0x0}, {0xff9a, 0x30ec, 0x0}, {0xff9b, 0x30ed, 0x0},
    {0xff9c, 0x30ef, 0x0}, {0xff9d, 0x30f3, 0x0}, {0xff9e, 0x3099, 0x0}, {0xff9f, 0x309a, 0x0}, {0xffa0, 0x1160, 0x0}, {0xffa1, 0x1100, 0x0},
    {0xffa2, 0x1101, 0x0}, {0xffa3, 0x11aa, 0x0}, {0xffa4, 0x1102, 0x0}, {0xffa5, 0x11ac, 0x0}, {0xffa6, 0x11ad, 0x0}, {0xffa7, 0x1103, 0x0},
    {0xffa8, 0x1104, 0x0}, {0xffa9, 0x1105, 0x0}, {0xffaa, 0x11b0, 0x0}, {0xffab, 0x11b1, 0x0}, {0xffac, 0x11b2, 0x0}, {0xffad, 0x11b3, 0x0},
    {0xffae, 0x11b4, 0x0}, {0xffaf, 0x11b5, 0x0}, {0xffb0, 0x111a, 0x0}, {0xffb1, 0x1106, 0x0}, {0xffb2, 0x1107, 0x0}, {0xffb3, 0x1108, 0x0},
    {0xffb4, 0x1121, 0x0}, {0xffb5, 0x1109, 0x0}, {0xffb6, 0x110a, 0x0}, {0xffb7, 0x110b, 0x0}, {0xffb8, 0x110c, 0x0}, {0xffb9, 0x110d, 0x0},
    {0xffba, 0x110e, 0x0}, {0xffbb, 0x110f, 0x0}, {0xffbc, 0x1110, 0x0}, {0xffbd, 0x1111, 0x0}, {0xffbe, 0x1112, 0x0}, {0xffc2, 0x1161, 0x0},
    {0xffc3, 0x1162, 0x0}, {0xffc4, 0x1163, 0x0}, {0xffc5, 0x1164, 0x0}, {0xffc6, 0x1165, 0x0}, {0xffc7, 0x1166, 0x0}, {0xffca, 0x1167, 0x0},
    {0xffcb, 0x1168, 0x0}, {0xffcc, 0x1169, 0x0}, {0xffcd, 0x116a, 0x0}, {0xffce, 0x116b, 0x0}, {0xffcf, 0x116c, 0x0}, {0xffd2, 0x116d, 0x0},
    {0xffd3, 0x116e, 0x0}, {0xffd4, 0x116f, 0x0}, {0xffd5, 0x1170, 0x0}, {0xffd6, 0x1171, 0x0}, {0xffd7, 0x1172, 0x0}, {0xffda, 0x1173, 0x0},
    {0xffdb, 0x1174, 0x0}, {0xffdc, 0x1175, 0x0}, {0xffe0, 0xa2, 0x0}, {0xffe1, 0xa3, 0x0}, {0xffe2, 0xac, 0x0}, {0xffe3, 0x20, 0x304},
    {0xffe4, 0xa6, 0x0}, {0xffe5, 0xa5, 0x0}, {0xffe6, 0x20a9, 0x0}, {0xffe8, 0x2502, 0x0}, {0xffe9, 0x2190, 0x0}, {0xffea, 0x2191, 0x0},
    {0xffeb, 0x2192, 0x0}, {0xffec, 0x2193, 0x0}, {0xffed, 0x25a0, 0x0}, {0xffee, 0x25cb, 0x0},
};
VIT__TABLE uint32_t vit__oc_ligature[22][4] = {
    {0x132, 0x49, 0x4a, 0x0}, {0x133, 0x69, 0x6a, 0x0}, {0x149, 0x2bc, 0x6e, 0x0}, {0x1c4, 0x44, 0x17d, 0x0}, {0x1c5, 0x44, 0x17e, 0x0}, {0x1c6, 0x64, 0x17e, 0x0},
    {0x1c7, 0x4c, 0x4a, 0x0}, {0x1c8, 0x4c, 0x6a, 0x0}, {0x1c9, 0x6c, 0x6a, 0x0}, {0x1ca, 0x4e, 0x4a, 0x0}, {0x1cb, 0x4e, 0x6a, 0x0}, {0x1cc, 0x6e, 0x6a, 0x0},
    {0x1f1, 0x44, 0x5a, 0x0}, {0x1f2, 0x44, 0x7a, 0x0}, {0x1f3, 0x64, 0x7a, 0x0}, {0xfb00, 0x66, 0x66, 0x0}, {0xfb01, 0x66, 0x69, 0x0}, {0xfb02, 0x66, 0x6c, 0x0},
    {0xfb03, 0x66, 0x66, 0x69}, {0xfb04, 0x66, 0x66, 0x6c}, {0xfb05, 0x17f, 0x74, 0x0}, {0xfb06, 0x73, 0x74, 0x0},
};
VIT__TABLE vit__oc_ent vit__oc_entities[201] = {
    {"AElig", {0xc6, 0x0}, 1}, {"AMP", {0x26, 0x0}, 1}, {"Aacute", {0xc1, 0x0}, 1},
    {"Acirc", {0xc2, 0x0}, 1}, {"Agrave", {0xc0, 0x0}, 1}, {"Aring", {0xc5, 0x0}, 1},
    {"Atilde", {0xc3, 0x0}, 1}, {"Auml", {0xc4, 0x0}, 1}, {"COPY", {0xa9, 0x0}, 1},
    {"Ccedil", {0xc7, 0x0}, 1}, {"Dagger", {0x2021, 0x0}, 0}, {"ETH", {0xd0, 0x0}, 1},
    {"Eacute", {0xc9, 0x0}, 1}, {"Ecirc", {0xca, 0x0}, 1}, {"Egrave", {0xc8, 0x0}, 1},
    {"Euml", {0xcb, 0x0}, 1}, {"GT", {0x3e, 0x0}, 1}, {"Hat", {0x5e, 0x0}, 0},
    {"Iacute", {0xcd, 0x0}, 1}, {"Icirc", {0xce, 0x0}, 1}, {"Igrave", {0xcc, 0x0}, 1},
    {"Iuml", {0xcf, 0x0}, 1}, {"LT", {0x3c, 0x0}, 1}, {"NewLine", {0xa, 0x0}, 0},
    {"Ntilde", {0xd1, 0x0}, 1}, {"OElig", {0x152, 0x0}, 0}, {"Oacute", {0xd3, 0x0}, 1},
    {"Ocirc", {0xd4, 0x0}, 1}, {"Ograve", {0xd2, 0x0}, 1}, {"Omega", {0x3a9, 0x0}, 0},
    {"Oslash", {0xd8, 0x0}, 1}, {"Otilde", {0xd5, 0x0}, 1}, {"Ouml", {0xd6, 0x0}, 1},
    {"Prime", {0x2033, 0x0}, 0}, {"QUOT", {0x22, 0x0}, 1}, {"REG", {0xae, 0x0}, 1},
    {"Scaron", {0x160, 0x0}, 0}, {"THORN", {0xde, 0x0}, 1}, {"Tab", {0x9, 0x0}, 0},
    {"Uacute", {0xda, 0x0}, 1}, {"Ucirc", {0xdb, 0x0}, 1}, {"Ugrave", {0xd9, 0x0}, 1},
    {"Uuml", {0xdc, 0x0}, 1}, {"Yacute", {0xdd, 0x0}, 1}, {"Yuml", {0x178, 0x0}, 0},
    {"aacute", {0xe1, 0x0}, 1}, {"acirc", {0xe2, 0x0}, 1}, {"acute", {0xb4, 0x0}, 1},
    {"aelig", {0xe6, 0x0}, 1}, {"agrave", {0xe0, 0x0}, 1}, {"alpha", {0x3b1, 0x0}, 0},
    {"amp", {0x26, 0x0}, 1}, {"apos", {0x27, 0x0}, 0}, {"aring", {0xe5, 0x0}, 1},
    {"ast", {0x2a, 0x0}, 0}, {"asymp", {0x2248, 0x0}, 0}, {"atilde", {0xe3, 0x0}, 1},
    {"auml", {0xe4, 0x0}, 1}, {"bdquo", {0x201e, 0x0}, 0}, {"beta", {0x3b2, 0x0}, 0},
    {"brvbar", {0xa6, 0x0}, 1}, {"bsol", {0x5c, 0x0}, 0}, {"bull", {0x2022, 0x0}, 0},
    {"ccedil", {0xe7, 0x0}, 1}, {"cedil", {0xb8, 0x0}, 1}, {"cent", {0xa2, 0x0}, 1},
    {"check", {0x2713, 0x0}, 0}, {"circ", {0x2c6, 0x0}, 0}, {"clubs", {0x2663, 0x0}, 0},
    {"colon", {0x3a, 0x0}, 0}, {"comma", {0x2c, 0x0}, 0}, {"commat", {0x40, 0x0}, 0},
    {"copy", {0xa9, 0x0}, 1}, {"curren", {0xa4, 0x0}, 1}, {"dagger", {0x2020, 0x0}, 0},
    {"darr", {0x2193, 0x0}, 0}, {"deg", {0xb0, 0x0}, 1}, {"delta", {0x3b4, 0x0}, 0},
    {"diams", {0x2666, 0x0}, 0}, {"divide", {0xf7, 0x0}, 1}, {"dollar", {0x24, 0x0}, 0},
    {"eacute", {0xe9, 0x0}, 1}, {"ecirc", {0xea, 0x0}, 1}, {"egrave", {0xe8, 0x0}, 1},
    {"emsp", {0x2003, 0x0}, 0}, {"ensp", {0x2002, 0x0}, 0}, {"equals", {0x3d, 0x0}, 0},
    {"eth", {0xf0, 0x0}, 1}, {"euml", {0xeb, 0x0}, 1}, {"euro", {0x20ac, 0x0}, 0},
    {"excl", {0x21, 0x0}, 0}, {"fnof", {0x192, 0x0}, 0}, {"frac12", {0xbd, 0x0}, 1},
    {"frac14", {0xbc, 0x0}, 1}, {"frac34", {0xbe, 0x0}, 1}, {"gamma", {0x3b3, 0x0}, 0},
    {"ge", {0x2265, 0x0}, 0}, {"grave", {0x60, 0x0}, 0}, {"gt", {0x3e, 0x0}, 1},
    {"harr", {0x2194, 0x0}, 0}, {"hearts", {0x2665, 0x0}, 0}, {"hellip", {0x2026, 0x0}, 0},
    {"iacute", {0xed, 0x0}, 1}, {"icirc", {0xee, 0x0}, 1}, {"iexcl", {0xa1, 0x0}, 1},
    {"igrave", {0xec, 0x0}, 1}, {"infin", {0x221e, 0x0}, 0}, {"iquest", {0xbf, 0x0}, 1},
    {"iuml", {0xef, 0x0}, 1}, {"lambda", {0x3bb, 0x0}, 0}, {"laquo", {0xab, 0x0}, 1},
    {"larr", {0x2190, 0x0}, 0}, {"lbrace", {0x7b, 0x0}, 0}, {"lbrack", {0x5b, 0x0}, 0},
    {"lcub", {0x7b, 0x0}, 0}, {"ldquo", {0x201c, 0x0}, 0}, {"le", {0x2264, 0x0}, 0},
    {"lowbar", {0x5f, 0x0}, 0}, {"lpar", {0x28, 0x0}, 0}, {"lrm", {0x200e, 0x0}, 0},
    {"lsaquo", {0x2039, 0x0}, 0}, {"lsqb", {0x5b, 0x0}, 0}, {"lsquo", {0x2018, 0x0}, 0},
    {"lt", {0x3c, 0x0}, 1}, {"macr", {0xaf, 0x0}, 1}, {"mdash", {0x2014, 0x0}, 0},
    {"micro", {0xb5, 0x0}, 1}, {"middot", {0xb7, 0x0}, 1}, {"minus", {0x2212, 0x0}, 0},
    {"mu", {0x3bc, 0x0}, 0}, {"nbsp", {0xa0, 0x0}, 1}, {"ndash", {0x2013, 0x0}, 0},
    {"ne", {0x2260, 0x0}, 0}, {"not", {0xac, 0x0}, 1}, {"ntilde", {0xf1, 0x0}, 1},
    {"num", {0x23, 0x0}, 0}, {"oacute", {0xf3, 0x0}, 1}, {"ocirc", {0xf4, 0x0}, 1},
    {"oelig", {0x153, 0x0}, 0}, {"ograve", {0xf2, 0x0}, 1}, {"omega", {0x3c9, 0x0}, 0},
    {"ordf", {0xaa, 0x0}, 1}, {"ordm", {0xba, 0x0}, 1}, {"oslash", {0xf8, 0x0}, 1},
    {"otilde", {0xf5, 0x0}, 1}, {"ouml", {0xf6, 0x0}, 1}, {"para", {0xb6, 0x0}, 1},
    {"percnt", {0x25, 0x0}, 0}, {"period", {0x2e, 0x0}, 0}, {"permil", {0x2030, 0x0}, 0},
    {"pi", {0x3c0, 0x0}, 0}, {"plus", {0x2b, 0x0}, 0}, {"plusmn", {0xb1, 0x0}, 1},
    {"pound", {0xa3, 0x0}, 1}, {"prime", {0x2032, 0x0}, 0}, {"quest", {0x3f, 0x0}, 0},
    {"quot", {0x22, 0x0}, 1}, {"raquo", {0xbb, 0x0}, 1}, {"rarr", {0x2192, 0x0}, 0},
    {"rbrace", {0x7d, 0x0}, 0}, {"rbrack", {0x5d, 0x0}, 0}, {"rcub", {0x7d, 0x0}, 0},
    {"rdquo", {0x201d, 0x0}, 0}, {"reg", {0xae, 0x0}, 1}, {"rlm", {0x200f, 0x0}, 0},
    {"rpar", {0x29, 0x0}, 0}, {"rsaquo", {0x203a, 0x0}, 0}, {"rsqb", {0x5d, 0x0}, 0},
    {"rsquo", {0x2019, 0x0}, 0}, {"sbquo", {0x201a, 0x0}, 0}, {"scaron", {0x161, 0x0}, 0},
    {"sect", {0xa7, 0x0}, 1}, {"semi", {0x3b, 0x0}, 0}, {"shy", {0xad, 0x0}, 1},
    {"sigma", {0x3c3, 0x0}, 0}, {"sol", {0x2f, 0x0}, 0}, {"spades", {0x2660, 0x0}, 0},
    {"star", {0x2606, 0x0}, 0}, {"sup1", {0xb9, 0x0}, 1}, {"sup2", {0xb2, 0x0}, 1},
    {"sup3", {0xb3, 0x0}, 1}, {"szlig", {0xdf, 0x0}, 1}, {"theta", {0x3b8, 0x0}, 0},
    {"thinsp", {0x2009, 0x0}, 0}, {"thorn", {0xfe, 0x0}, 1}, {"tilde", {0x2dc, 0x0}, 0},
    {"times", {0xd7, 0x0}, 1}, {"trade", {0x2122, 0x0}, 0}, {"uacute", {0xfa, 0x0}, 1},
    {"uarr", {0x2191, 0x0}, 0}, {"ucirc", {0xfb, 0x0}, 1}, {"ugrave", {0xf9, 0x0}, 1},
    {"uml", {0xa8, 0x0}, 1}, {"uuml", {0xfc, 0x0}, 1}, {"verbar", {0x7c, 0x0}, 0},
    {"vert", {0x7c, 0x0}, 0}, {"yacute", {0xfd, 0x0}, 1}, {"yen", {0xa5, 0x0}, 1},
    {"yuml", {0xff, 0x0}, 1}, {"zwj", {0x200d, 0x0}, 0}, {"zwnj", {0x200c, 0x0}, 0},
};
VIT__TABLE uint32_t vit__oc_charrefs[34][2] = {
    {0x0, 0xfffd}, {0xd, 0xd}, {0x80, 0x20ac}, {0x81, 0x81}, {0x82, 0x201a}, {0x83, 0x192}, {0x84, 0x201e}, {0x85, 0x2026},
    {0x86, 0x2020}, {0x87, 0x2021}, {0x88, 0x2c6}, {0x89, 0x2030}, {0x8a, 0x160}, {0x8b, 0x2039}, {0x8c, 0x152}, {0x8d, 0x8d},
    {0x8e, 0x17d}, {0x8f, 0x8f}, {0x90, 0x90}, {0x91, 0x2018}, {0x92, 0x2019}, {0x93, 0x201c}, {0x94, 0x201d}, {0x95, 0x2022},
    {0x96, 0x2013}, {0x97, 0x2014}, {0x98, 0x2dc}, {0x99, 0x2122}, {0x9a, 0x161}, {0x9b, 0x203a}, {0x9c, 0x153}, {0x9d, 0x9d},
    {0x9e, 0x17e}, {0x9f, 0x178},
};
VIT__TABLE uint32_t vit__oc_noref[22][2] = {
    {0x1, 0x8}, {0xb, 0xb}, {0xe, 0x1f}, {0x7f, 0x9f}, {0xfdd0, 0xfdef}, {0xfffe, 0xffff}, {0x1fffe, 0x1ffff}, {0x2fffe, 0x2ffff},
    {0x3fffe, 0x3ffff}, {0x4fffe, 0x4ffff}, {0x5fffe, 0x5ffff}, {0x6fffe, 0x6ffff}, {0x7fffe, 0x7ffff}, {0x8fffe, 0x8ffff}, {0x9fffe, 0x9ffff}, {0xafffe, 0xaffff},
    {0xbfffe, 0xbffff}, {0xcfffe, 0xcffff}, {0xdfffe, 0xdffff}, {0xefffe, 0xeffff}, {0xffffe, 0xfffff}, {0x10fffe, 0x10ffff},
};
VIT__TABLE uint32_t vit__oc_nfc_new[33][2] = {
    {0x7fd, 0x7fd}, {0x898, 0x89f}, {0x8ca, 0x8d3}, {0x9fe, 0x9fe}, {0xc3c, 0xc3c}, {0xd3b, 0xd3c}, {0xeba, 0xeba}, {0x1715, 0x1715},
    {0x1abf, 0x1ace}, {0x1df6, 0x1dfa}, {0xa82c, 0xa82c}, {0x10d24, 0x10d27}, {0x10eab, 0x10eac}, {0x10f46, 0x10f50}, {0x10f82, 0x10f85}, {0x11070, 0x11070},
    {0x1133b, 0x1133b}, {0x1145e, 0x1145e}, {0x11839, 0x1183a}, {0x11938, 0x11938}, {0x1193d, 0x1193e}, {0x11943, 0x11943}, {0x119e0, 0x119e0}, {0x11a34, 0x11a34},
    {0x11a47, 0x11a47}, {0x11a99, 0x11a99}, {0x11d42, 0x11d42}, {0x11d44, 0x11d45}, {0x11d97, 0x11d97}, {0x16ff0, 0x16ff1}, {0x1e130, 0x1e136}, {0x1e2ae, 0x1e2ae},
    {0x1e2ec, 0x1e2ef},
};
VIT__TABLES_END
// ---- open_clip tables: end
#endif // VIT__NO_TOKENIZER

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
