// Included first in every CUDA file parsed with a CUDA toolkit's headers.
//
// Clang's CUDA mode includes the toolkit's cuda_runtime.h as nvcc does, but
// nvcc's implicit include brings more than Clang's wrapper: the C library
// headers that CUDA programs use without including them, and host versions
// of the integer and floating-point min/max that the toolkit's
// math_functions.hpp declares __host__ __device__ (Clang keeps only the
// device side), and the C library's classification functions (isfinite,
// isnan, isinf, signbit) for the host in the global namespace, which
// <math.h> declares and <cmath> does not, nvcc's atomic builtins and the
// cache-hinted loads and stores Clang does not define.
// This header supplies what is missing, so that code nvcc accepts parses
// here too, and the runtime API that CUDA 12 removed, so that code an
// older nvcc accepted does.
#ifndef GPURACE_NVCC_PRELUDE_H
#define GPURACE_NVCC_PRELUDE_H

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

// nvcc's atomic builtins (CUDA 12.8 on) are known to nvcc alone, and the
// toolkit declares their order and scope constants only where __CUDACC__
// is defined (crt/device_functions.h, which Clang's wrapper leaves out).
// The analyzer models each call by name (SyncFunctions.h).
#if defined(__cplusplus) && defined(__CUDA__)
enum {
  __NV_ATOMIC_RELAXED,
  __NV_ATOMIC_CONSUME,
  __NV_ATOMIC_ACQUIRE,
  __NV_ATOMIC_RELEASE,
  __NV_ATOMIC_ACQ_REL,
  __NV_ATOMIC_SEQ_CST
};
enum {
  __NV_THREAD_SCOPE_THREAD,
  __NV_THREAD_SCOPE_BLOCK,
  __NV_THREAD_SCOPE_CLUSTER,
  __NV_THREAD_SCOPE_DEVICE,
  __NV_THREAD_SCOPE_SYSTEM
};
template <typename T>
__device__ T __nv_atomic_load_n(T *ptr, int order, int scope = __NV_THREAD_SCOPE_SYSTEM);
template <typename T>
__device__ void __nv_atomic_load(T *ptr, T *ret, int order,
                                 int scope = __NV_THREAD_SCOPE_SYSTEM);
template <typename T, typename U>
__device__ void __nv_atomic_store_n(T *ptr, U val, int order,
                                    int scope = __NV_THREAD_SCOPE_SYSTEM);
template <typename T>
__device__ void __nv_atomic_store(T *ptr, T *val, int order,
                                  int scope = __NV_THREAD_SCOPE_SYSTEM);
template <typename T, typename U>
__device__ T __nv_atomic_exchange_n(T *ptr, U val, int order,
                                    int scope = __NV_THREAD_SCOPE_SYSTEM);
template <typename T>
__device__ void __nv_atomic_exchange(T *ptr, T *val, T *ret, int order,
                                     int scope = __NV_THREAD_SCOPE_SYSTEM);
template <typename T, typename U>
__device__ bool __nv_atomic_compare_exchange_n(T *ptr, T *expected, U desired, bool weak,
                                               int success, int failure,
                                               int scope = __NV_THREAD_SCOPE_SYSTEM);
template <typename T>
__device__ bool __nv_atomic_compare_exchange(T *ptr, T *expected, T *desired, bool weak,
                                             int success, int failure,
                                             int scope = __NV_THREAD_SCOPE_SYSTEM);
#define GPURACE_NV_FETCH(OP)                                                   \
  template <typename T, typename U>                                            \
  __device__ T __nv_atomic_fetch_##OP(T *ptr, U val, int order,                \
                                      int scope = __NV_THREAD_SCOPE_SYSTEM);
GPURACE_NV_FETCH(add)
GPURACE_NV_FETCH(sub)
GPURACE_NV_FETCH(and)
GPURACE_NV_FETCH(or)
GPURACE_NV_FETCH(xor)
GPURACE_NV_FETCH(min)
GPURACE_NV_FETCH(max)
#undef GPURACE_NV_FETCH
__device__ void __nv_atomic_thread_fence(int order, int scope = __NV_THREAD_SCOPE_SYSTEM);

// The loads and stores with cache hints that the toolkit declares in
// sm_32_intrinsics.h, which Clang's wrapper leaves out for the few its
// own intrinsics header defines (__ldg, __ldcg, __ldcs, __ldcv, __stwt).
// The analyzer models each call by name as the access it is.
template <typename T> __device__ T __ldca(const T *ptr);
template <typename T> __device__ T __ldlu(const T *ptr);
template <typename T, typename U> __device__ void __stwb(T *ptr, U value);
template <typename T, typename U> __device__ void __stcg(T *ptr, U value);
template <typename T, typename U> __device__ void __stcs(T *ptr, U value);
#endif

// What CUDA 12 removed and older programs still call (the fallback
// headers' folder is on the include path after the toolkit's).
#include "cuda_legacy_api.h"

// nvcc defines __NVCC__, and programs test it to mark their functions
// (`#if defined(__NVCC__) ... #define HD __host__ __device__`, or `#if
// !defined(__NVCC__) #define __device__` for other compilers), so without
// it their device functions would be host functions here. The toolkit's
// target and CCCL's compiler detection read it as "the compiler is nvcc"
// and take paths that fail under Clang, so they are read first, without
// it: their include guards keep what they chose when the program includes
// them. (Cooperative groups' configuration tests it too, and parses either
// way; it is not read early, since it brings in libcu++ and cuda_fp16.h,
// whose `half` a program that does not include them may define.)
#if defined(__cplusplus) && defined(__CUDA__) && !defined(__NVCC__)
#include <nv/target>
#if __has_include(<cuda/std/__cccl/compiler.h>)
#include <cuda/std/__cccl/compiler.h>
#endif
#define __NVCC__ 1
#endif

#endif
