// gpurace's CUDA declarations for analysis with Clang.
//
// Without a CUDA toolkit the analyzer parses .cu files with these headers
// instead of the toolkit's. This one stands for the toolkit's cuda_runtime.h
// and is included in every translation unit, as nvcc does: execution-space
// attributes, the built-in thread coordinates, vector types, the runtime
// API, texture and surface objects, the math library and device intrinsics.
// Like nvcc's, it also brings in the C headers that CUDA code uses without
// including them (printf, exit, memcpy, assert, malloc, time).
//
// Bodies are omitted except where a template or inline function must type
// check: the analyzer models these functions by name. Each header names the
// toolkit header it stands for and defines that header's include guard, as
// programs test them (helper_cuda.h defines checkCudaErrors only under
// `#ifdef __DRIVER_TYPES_H__`).
#ifndef GPURACE_CUDA_RUNTIME_H
#define GPURACE_CUDA_RUNTIME_H

#define __CUDA_RUNTIME_H__

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __grid_constant__ __attribute__((grid_constant))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __align__(n) __attribute__((aligned(n)))
#define __thread__ __thread
#define __builtin_align__(n) __align__(n)
#define __device_builtin__
#define __restrict__ __restrict
#define __CUDACC__ 1
#define __NVCC__ 1
#define __CUDACC_VER_MAJOR__ 13
#define __CUDACC_VER_MINOR__ 0
#define __CUDACC_VER_BUILD__ 0
#define __CUDA_API_VERSION 13000

#include <assert.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __cplusplus
#include <new>
#endif

#include "vector_types.h"
#include "driver_types.h"
#include "cuda_runtime_api.h"
#include "device_functions.h"
#include "math_functions.h"
#include "texture_indirect_functions.h"
#include "cuda_legacy_api.h"

#endif
