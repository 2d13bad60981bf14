# vit.h -- build, test, demo, bench.
#   make demo      classify sample images with the shipped Fashion-MNIST model
#   make test      CPU test suite (what CI runs), also under ASan+UBSan via test-asan
#   make test-gpu  GPU tests (needs nvcc and a CUDA GPU)
#   make bench     GPU benchmark against PyTorch (needs a CUDA GPU, torch, timm)

CC      ?= cc
NVCC    ?= nvcc
BUILD   ?= build
WARN     = -Wall -Wextra -Werror
CFLAGS  ?= -O3 -march=native -ffp-contract=fast
CFLAGS  += -std=c99 -fopenmp -I. $(WARN)
LDLIBS   = -lm
SANFLAGS = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
CUDA_ARCH ?= -gencode=arch=compute_90a,code=sm_90a -gencode=arch=compute_80,code=sm_80 \
             -gencode=arch=compute_86,code=sm_86 -gencode=arch=compute_89,code=sm_89 \
             -gencode=arch=compute_80,code=compute_80
NVCCFLAGS ?= -O3 -std=c++17 $(CUDA_ARCH) -Xcompiler -fopenmp,-Wall,-Wextra -Werror all-warnings
HAVE_NVCC := $(shell command -v $(NVCC) >/dev/null 2>&1 && echo yes)
REF_CASES := $(sort $(wildcard tests/data/ref/*/))

.PHONY: all cpu cuda test test-cpu test-asan test-compile test-gpu bench demo clean deps

all: cpu cuda

cpu: $(BUILD)/test_model $(BUILD)/test_errors $(BUILD)/minimal
	@echo "built CPU targets with $(CC)"

ifeq ($(HAVE_NVCC),yes)
cuda: $(BUILD)/test_compile_cuda
	@echo "nvcc found: built CUDA targets"
else
cuda:
	@echo "nvcc not found: CUDA targets skipped"
endif

$(BUILD):
	mkdir -p $(BUILD)

$(BUILD)/%: tests/%.c vit.h | $(BUILD)
	$(CC) $(CFLAGS) $< -o $@ $(LDLIBS)

$(BUILD)/minimal: examples/minimal.c vit.h | $(BUILD)
	$(CC) $(CFLAGS) $< -o $@ $(LDLIBS)

$(BUILD)/asan_%: tests/%.c vit.h | $(BUILD)
	$(CC) -std=c99 $(WARN) $(SANFLAGS) $< -o $@ $(LDLIBS)

# vit.h must compile as C++ and, under nvcc, with the CUDA kernels
$(BUILD)/test_compile_cpp: tests/test_compile.cpp vit.h | $(BUILD)
	$(CXX) -std=c++11 -O1 $(WARN) $< -o $@ $(LDLIBS)

$(BUILD)/test_compile_cuda: tests/test_compile.cpp vit.h vit_kernels.cuh | $(BUILD)
	$(NVCC) $(NVCCFLAGS) -x cu $< -o $@

test: test-cpu test-compile
	@echo "make test: all passed"

test-cpu: $(BUILD)/test_model $(BUILD)/test_errors
	$(BUILD)/test_model $(REF_CASES)
	$(BUILD)/test_errors tests/data/ref/timm_token_odd_heads

test-asan: $(BUILD)/asan_test_model $(BUILD)/asan_test_errors
	$(BUILD)/asan_test_model $(REF_CASES)
	$(BUILD)/asan_test_errors tests/data/ref/timm_token_odd_heads

test-compile: $(BUILD)/test_compile_cpp cuda
	$(BUILD)/test_compile_cpp
ifeq ($(HAVE_NVCC),yes)
	@echo "nvcc build of vit.h + vit_kernels.cuh for sm_90a/sm_80/sm_86/sm_89: ok"
endif

clean:
	rm -rf $(BUILD)
