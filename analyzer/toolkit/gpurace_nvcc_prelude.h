// Included first in every CUDA file parsed with a CUDA toolkit's headers.
//
// Clang's CUDA mode includes the toolkit's cuda_runtime.h as nvcc does, but
// nvcc's implicit include brings more than Clang's wrapper: the C library
// headers that CUDA programs use without including them, and host versions
// of the integer and floating-point min/max that the toolkit's
// math_functions.hpp declares __host__ __device__ (Clang keeps only the
// device side), and the C library's classification functions (isfinite,
// isnan, isinf, signbit) for the host in the global namespace, which
// <math.h> declares and <cmath> does not. This header supplies what is
// missing, so that code nvcc accepts parses here too, and the runtime API
// that CUDA 12 removed, so that code an older nvcc accepted does.
#ifndef GPURACE_NVCC_PRELUDE_H
#define GPURACE_NVCC_PRELUDE_H

// __NVCC__ stays undefined: CCCL and the runtime headers read it as "the
// compiler is nvcc" and then take paths that fail under Clang.

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __cplusplus
#include <new>
#endif

#ifdef __cplusplus
#define GPURACE_HOST_MINMAX(T, U, R)                                           \
  static inline __host__ R min(T a, U b) { return (R)a < (R)b ? (R)a : (R)b; } \
  static inline __host__ R max(T a, U b) { return (R)a > (R)b ? (R)a : (R)b; }
GPURACE_HOST_MINMAX(int, int, int)
GPURACE_HOST_MINMAX(unsigned int, unsigned int, unsigned int)
GPURACE_HOST_MINMAX(int, unsigned int, unsigned int)
GPURACE_HOST_MINMAX(unsigned int, int, unsigned int)
GPURACE_HOST_MINMAX(long, long, long)
GPURACE_HOST_MINMAX(unsigned long, unsigned long, unsigned long)
GPURACE_HOST_MINMAX(long, unsigned long, unsigned long)
GPURACE_HOST_MINMAX(unsigned long, long, unsigned long)
GPURACE_HOST_MINMAX(long long, long long, long long)
GPURACE_HOST_MINMAX(unsigned long long, unsigned long long, unsigned long long)
GPURACE_HOST_MINMAX(long long, unsigned long long, unsigned long long)
GPURACE_HOST_MINMAX(unsigned long long, long long, unsigned long long)
GPURACE_HOST_MINMAX(float, float, float)
GPURACE_HOST_MINMAX(double, double, double)
GPURACE_HOST_MINMAX(float, double, double)
GPURACE_HOST_MINMAX(double, float, double)
#undef GPURACE_HOST_MINMAX
#endif

// nvcc predefines its version and programs choose an API by it (CUDA 13
// renamed parts of CUB and Thrust); Clang defines none of the three. The
// toolkit's CUDA_VERSION (cuda.h, already in through cuda_runtime.h) is
// the version of the headers parsed here.
#if defined(CUDA_VERSION) && !defined(__CUDACC_VER_MAJOR__)
#define __CUDACC_VER_MAJOR__ (CUDA_VERSION / 1000)
#define __CUDACC_VER_MINOR__ (CUDA_VERSION % 1000 / 10)
#define __CUDACC_VER_BUILD__ 0
#endif

// What CUDA 12 removed and older programs still call (the fallback
// headers' folder is on the include path after the toolkit's).
#include "cuda_legacy_api.h"

#endif
