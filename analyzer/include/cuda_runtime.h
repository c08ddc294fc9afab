// gpurace's CUDA declarations for analysis with Clang.
//
// The analyzer parses .cu files as CUDA host-side code without the installed
// CUDA headers (they are newer than the Clang it links). This header
// declares what CUDA programs use: execution-space attributes, the built-in
// thread coordinates, the runtime API, and device intrinsics (barriers,
// warp primitives, fences, atomics). Bodies are omitted: the analyzer models
// these functions by name. It is included in every translation unit, as nvcc
// does.
#ifndef GPURACE_CUDA_RUNTIME_H
#define GPURACE_CUDA_RUNTIME_H

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __restrict__ __restrict
#define __CUDACC__ 1
#define __NVCC__ 1
#define CUDART_VERSION 13000
#define __CUDACC_VER_MAJOR__ 13
#define __CUDACC_VER_MINOR__ 0

#include <stddef.h>
#include <stdint.h>

#include "__clang_cuda_builtin_vars.h"

// Declared, not defined, by the builtin-vars header.
struct uint3 {
  unsigned int x, y, z;
};

struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1,
                                     unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  __host__ __device__ constexpr operator uint3() const { return {x, y, z}; }
};

#include "gpurace_vector_types.h"
#include "gpurace_runtime_api.h"
#include "gpurace_device_functions.h"

#endif
