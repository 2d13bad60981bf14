# vit.h's CUDA defaults, for a consumer that compiles vit.h with nvcc (CMake's CUDA
# language). Included by CMakeLists.txt (add_subdirectory) and vitConfig.cmake
# (find_package) with the target name in _vit_target.
#   VIT_CUDA_ARCHITECTURES  (cache) the GPU architectures vit.h builds for by default:
#       the GPU(s) here (the CUDA runtime's list where CMake 3.24+ has enabled CUDA,
#       else nvidia-smi's compute_cap; 9.0 as 90a, for the wgmma kernels), else
#       docs/build.md's fat build: 80-real;86-real;90a-real;100;120-real (machine
#       code for sm_80/86/90a/100/120, which sm_87/89, sm_103 and sm_121 also run,
#       and compute_100 PTX for later GPUs and sm_110, compiled by their driver).
#   CMAKE_CUDA_ARCHITECTURES  set to VIT_CUDA_ARCHITECTURES (cache, for the targets
#       made after this) when CUDA is enabled and it holds only architectures below
#       8.0, as CMake's default (nvcc's own, 52 or 75) does: vit.h's CUDA path needs
#       8.0. A project that enables CUDA later sets it before enable_language(CUDA):
#       set(CMAKE_CUDA_ARCHITECTURES "${VIT_CUDA_ARCHITECTURES}").
#   VIT_CUDA_F16 (option, OFF)  vit::vit's users compile the fp16 kernels (VIT_DTYPE_F16
#       on the GPU; about twice the nvcc time of the implementation file).
#   vit::vit gives CUDA sources --split-compile=0 (nvcc's device passes on every core).
option(VIT_CUDA_F16 "compile vit.h's CUDA fp16 kernels (VIT_DTYPE_F16 on the GPU; twice the nvcc time)" OFF)
get_property(_vit_langs GLOBAL PROPERTY ENABLED_LANGUAGES)
if(NOT DEFINED VIT_CUDA_ARCHITECTURES)
    set(_vit_archs "")
    if("CUDA" IN_LIST _vit_langs AND CMAKE_CUDA_ARCHITECTURES_NATIVE)
        set(_vit_archs "${CMAKE_CUDA_ARCHITECTURES_NATIVE}")
    else()
        find_program(_vit_smi nvidia-smi)
        if(_vit_smi)
            execute_process(COMMAND "${_vit_smi}" --query-gpu=compute_cap --format=csv,noheader
                            OUTPUT_VARIABLE _vit_cc RESULT_VARIABLE _vit_rc ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
            if(_vit_rc EQUAL 0)
                string(REGEX MATCHALL "[0-9]+\\.[0-9]+" _vit_cc "${_vit_cc}")
                foreach(_vit_c IN LISTS _vit_cc)
                    string(REPLACE "." "" _vit_c "${_vit_c}")
                    list(APPEND _vit_archs "${_vit_c}-real")
                endforeach()
            endif()
        endif()
        unset(_vit_smi CACHE)
    endif()
    list(REMOVE_DUPLICATES _vit_archs)
    list(TRANSFORM _vit_archs REPLACE "^90-real$" "90a-real")
    if(NOT _vit_archs)
        set(_vit_archs "80-real;86-real;90a-real;100;120-real")
    endif()
    set(VIT_CUDA_ARCHITECTURES "${_vit_archs}" CACHE STRING "GPU architectures for vit.h's CUDA builds (default: the GPU here, else a fat build)")
endif()
if("CUDA" IN_LIST _vit_langs)
    set(_vit_old TRUE) # CMAKE_CUDA_ARCHITECTURES below 8.0 only: CMake's (nvcc's) default
    foreach(_vit_a IN LISTS CMAKE_CUDA_ARCHITECTURES)
        string(REGEX MATCH "^[0-9]+" _vit_n "${_vit_a}")
        if(NOT _vit_n OR _vit_n GREATER_EQUAL 80)
            set(_vit_old FALSE)
        endif()
    endforeach()
    if(_vit_old)
        message(STATUS "vit: CMAKE_CUDA_ARCHITECTURES ${CMAKE_CUDA_ARCHITECTURES} cannot run vit.h's CUDA path (8.0+): using ${VIT_CUDA_ARCHITECTURES}")
        set(CMAKE_CUDA_ARCHITECTURES "${VIT_CUDA_ARCHITECTURES}" CACHE STRING "CUDA architectures" FORCE)
    endif()
endif()
set_property(TARGET ${_vit_target} APPEND PROPERTY INTERFACE_COMPILE_OPTIONS "$<$<COMPILE_LANGUAGE:CUDA>:--split-compile=0>")
if(VIT_CUDA_F16)
    set_property(TARGET ${_vit_target} APPEND PROPERTY INTERFACE_COMPILE_DEFINITIONS VIT_CUDA_F16)
endif()
unset(_vit_langs)
unset(_vit_archs)
unset(_vit_cc)
unset(_vit_rc)
unset(_vit_old)
unset(_vit_n)
