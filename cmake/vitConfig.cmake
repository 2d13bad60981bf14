# find_package(vit): the INTERFACE target vit::vit, as add_subdirectory(vit) gives it.
# Installed by `make install PREFIX=DIR` to DIR/lib/cmake/vit/.
#   vit::vit  DIR/include (vit.h, vit_kernels.cuh), -lm, OpenMP where it is found
#             (set VIT_OPENMP to OFF before find_package: the CPU path on one thread;
#             under nvcc as -Xcompiler=-fopenmp), -O3 when the consumer sets no build
#             type (vit.h unoptimised is many times slower), and -march=native when
#             VIT_NATIVE is ON before find_package (binaries then need this CPU's ISA);
#             VIT_NO_TEXT / VIT_NO_IMAGE_DECODE ON before find_package define those
#             macros (vit.h leaves the text towers / the file decoders out);
#             for CUDA, the defaults of vitCuda.cmake (architectures, --split-compile=0,
#             VIT_CUDA_F16); MSVC and clang-cl: /O2 (no build type), /utf-8,
#             /openmp:llvm (CMake 3.30+; else /openmp), nvcc with cl: -Xcompiler=/openmp
# vit.h is header-only: define VIT_IMPLEMENTATION in one of your C or C++ files.
# add_subdirectory(vit) defines the same target with this file (CMakeLists.txt sets
# _vit_include_dir, the checkout): a global one there.
if(DEFINED _vit_include_dir)
    set(_vit_global GLOBAL)
else()
    get_filename_component(_vit_include_dir "${CMAKE_CURRENT_LIST_DIR}/../../../include" ABSOLUTE)
    set(_vit_global "")
endif()
set(_vit_openmp ON)
if(DEFINED VIT_OPENMP)
    set(_vit_openmp "${VIT_OPENMP}")
endif()
if(NOT TARGET vit::vit)
    add_library(vit::vit INTERFACE IMPORTED ${_vit_global})
    set_target_properties(vit::vit PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${_vit_include_dir}")
    set(_vit_libs "")
    if(NOT WIN32)
        list(APPEND _vit_libs m)
    endif()
    if(_vit_openmp)
        if(MSVC AND NOT DEFINED OpenMP_RUNTIME_MSVC)
            set(OpenMP_RUNTIME_MSVC llvm) # /openmp:llvm (CMake 3.30+), else /openmp
        endif()
        # for the languages the project enabled (none in a top-level configure of this folder)
        get_property(_vit_langs GLOBAL PROPERTY ENABLED_LANGUAGES)
        if("C" IN_LIST _vit_langs OR "CXX" IN_LIST _vit_langs)
            find_package(OpenMP QUIET)
        endif()
        unset(_vit_langs)
        foreach(_vit_lang C CXX)
            if(TARGET OpenMP::OpenMP_${_vit_lang})
                if(_vit_global)
                    # the including directory resolves the name when it links vit::vit
                    set_target_properties(OpenMP::OpenMP_${_vit_lang} PROPERTIES IMPORTED_GLOBAL TRUE)
                endif()
                list(APPEND _vit_libs OpenMP::OpenMP_${_vit_lang})
            endif()
        endforeach()
    endif()
    set_target_properties(vit::vit PROPERTIES INTERFACE_LINK_LIBRARIES "${_vit_libs}")
    set(_vit_defs "")
    foreach(_vit_switch VIT_NO_TEXT VIT_NO_IMAGE_DECODE)
        if(${_vit_switch})
            list(APPEND _vit_defs ${_vit_switch})
        endif()
    endforeach()
    if(_vit_defs)
        set_target_properties(vit::vit PROPERTIES INTERFACE_COMPILE_DEFINITIONS "${_vit_defs}")
    endif()
    unset(_vit_defs)
    if(NOT MSVC)
        # CMake's empty configuration compiles without -O
        set(_vit_opts "$<$<CONFIG:>:-O3>")
        if(VIT_NATIVE)
            list(APPEND _vit_opts "$<IF:$<COMPILE_LANGUAGE:CUDA>,-Xcompiler=-march=native,-march=native>")
        endif()
        if(_vit_openmp AND (TARGET OpenMP::OpenMP_C OR TARGET OpenMP::OpenMP_CXX))
            # FindOpenMP has no CUDA: nvcc passes the host compiler's flag on
            list(APPEND _vit_opts "$<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-fopenmp>")
        endif()
        set_target_properties(vit::vit PROPERTIES INTERFACE_COMPILE_OPTIONS "${_vit_opts}")
        unset(_vit_opts)
    else()
        # MSVC and clang-cl: /O2 (no build type), /utf-8; nvcc with cl as host: -Xcompiler
        set(_vit_opts "$<$<AND:$<CONFIG:>,$<NOT:$<COMPILE_LANGUAGE:CUDA>>>:/O2>" "$<IF:$<COMPILE_LANGUAGE:CUDA>,-Xcompiler=/utf-8,/utf-8>")
        if(_vit_openmp AND (TARGET OpenMP::OpenMP_C OR TARGET OpenMP::OpenMP_CXX))
            list(APPEND _vit_opts "$<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=/openmp>")
        endif()
        set_target_properties(vit::vit PROPERTIES INTERFACE_COMPILE_OPTIONS "${_vit_opts}")
        unset(_vit_opts)
    endif()
    # CUDA: the architectures, --split-compile=0, VIT_CUDA_F16 (VIT_CUDA_ARCHITECTURES or VIT_CUDA_F16 before find_package)
    set(_vit_target vit::vit)
    include("${CMAKE_CURRENT_LIST_DIR}/vitCuda.cmake")
    unset(_vit_target)
    unset(_vit_libs)
endif()
set(vit_INCLUDE_DIR "${_vit_include_dir}")
unset(_vit_include_dir)
unset(_vit_global)
unset(_vit_openmp)
