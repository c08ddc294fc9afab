// Device intrinsics: barriers, warp primitives, fences, atomics, clocks and
// cache-hinted loads (what the toolkit's device_functions.h and
// sm_*_intrinsics.h / *_atomic_functions.h declare).
//
// The analyzer models the synchronization and atomic functions by name
// (analyzer/model/SyncFunctions.cpp), so they stay plain functions, never
// macros, and have no bodies.
#ifndef GPURACE_DEVICE_FUNCTIONS_H
#define GPURACE_DEVICE_FUNCTIONS_H

#define __DEVICE_FUNCTIONS_H__

#include <stddef.h>

// warpSize is not a macro here: host code reads the `warpSize` member of
// cudaDeviceProp. Clang's __clang_cuda_builtin_vars.h (included by
// vector_types.h) declares it as a `__device__ const int` of 32, a constant
// the analyzer can read.

__device__ void __syncthreads(void);
__device__ int __syncthreads_count(int predicate);
__device__ int __syncthreads_and(int predicate);
__device__ int __syncthreads_or(int predicate);
__device__ void __syncwarp(unsigned mask = 0xffffffffu);
__device__ void __threadfence_block(void);
__device__ void __threadfence(void);
__device__ void __threadfence_system(void);
__device__ unsigned __activemask(void);
__device__ unsigned __ballot_sync(unsigned mask, int predicate);
__device__ int __any_sync(unsigned mask, int predicate);
__device__ int __all_sync(unsigned mask, int predicate);
__device__ unsigned __match_all_sync(unsigned mask, unsigned value, int *pred);
__device__ unsigned __match_all_sync(unsigned mask, int value, int *pred);
__device__ unsigned __match_all_sync(unsigned mask, unsigned long long value,
                                     int *pred);
__device__ unsigned __match_any_sync(unsigned mask, unsigned value);
__device__ unsigned __match_any_sync(unsigned mask, int value);
__device__ unsigned __match_any_sync(unsigned mask, unsigned long long value);
__device__ unsigned __reduce_add_sync(unsigned mask, unsigned value);
__device__ int __reduce_add_sync(unsigned mask, int value);
__device__ unsigned __reduce_min_sync(unsigned mask, unsigned value);
__device__ int __reduce_min_sync(unsigned mask, int value);
__device__ unsigned __reduce_max_sync(unsigned mask, unsigned value);
__device__ int __reduce_max_sync(unsigned mask, int value);
__device__ unsigned __reduce_and_sync(unsigned mask, unsigned value);
__device__ unsigned __reduce_or_sync(unsigned mask, unsigned value);
__device__ unsigned __reduce_xor_sync(unsigned mask, unsigned value);
__device__ unsigned __lanemask_lt(void);
__device__ void __nanosleep(unsigned ns);
__device__ long long clock64(void);
__device__ int clock(void);
__device__ unsigned long long __globaltimer(void);
__device__ void __trap(void);
__device__ void __brkpt(void);
__device__ void __prof_trigger(int counter);

#define GPURACE_SHFL(T)                                                        \
  __device__ T __shfl_sync(unsigned mask, T var, int src, int width = 32);     \
  __device__ T __shfl_up_sync(unsigned mask, T var, unsigned d,                \
                              int width = 32);                                 \
  __device__ T __shfl_down_sync(unsigned mask, T var, unsigned d,              \
                                int width = 32);                               \
  __device__ T __shfl_xor_sync(unsigned mask, T var, int lane, int width = 32);
GPURACE_SHFL(int)
GPURACE_SHFL(unsigned)
GPURACE_SHFL(long)
GPURACE_SHFL(unsigned long)
GPURACE_SHFL(long long)
GPURACE_SHFL(unsigned long long)
GPURACE_SHFL(float)
GPURACE_SHFL(double)
#undef GPURACE_SHFL

// Loads through the read-only and other caches, and stores with cache hints.
template <class T> __device__ T __ldg(const T *ptr);
template <class T> __device__ T __ldcg(const T *ptr);
template <class T> __device__ T __ldca(const T *ptr);
template <class T> __device__ T __ldcs(const T *ptr);
template <class T> __device__ T __ldlu(const T *ptr);
template <class T> __device__ T __ldcv(const T *ptr);
template <class T> __device__ void __stwb(T *ptr, T value);
template <class T> __device__ void __stcg(T *ptr, T value);
template <class T> __device__ void __stcs(T *ptr, T value);
template <class T> __device__ void __stwt(T *ptr, T value);

// Address spaces.
__device__ unsigned int __isGlobal(const void *ptr);
__device__ unsigned int __isShared(const void *ptr);
__device__ unsigned int __isConstant(const void *ptr);
__device__ unsigned int __isLocal(const void *ptr);
__device__ size_t __cvta_generic_to_global(const void *ptr);
__device__ size_t __cvta_generic_to_shared(const void *ptr);
__device__ void *__cvta_global_to_generic(size_t rawbits);
__device__ void *__cvta_shared_to_generic(size_t rawbits);

// Atomics: the plain name is device scope; _block and _system narrow or widen
// the scope.
#define GPURACE_ATOMIC_SCOPES(R, NAME, ...)                                    \
  __device__ R NAME(__VA_ARGS__);                                              \
  __device__ R NAME##_block(__VA_ARGS__);                                      \
  __device__ R NAME##_system(__VA_ARGS__);
#define GPURACE_ATOMIC_RMW(T)                                                  \
  GPURACE_ATOMIC_SCOPES(T, atomicAdd, T *address, T val)                       \
  GPURACE_ATOMIC_SCOPES(T, atomicExch, T *address, T val)
#define GPURACE_ATOMIC_INT(T)                                                  \
  GPURACE_ATOMIC_RMW(T)                                                        \
  GPURACE_ATOMIC_SCOPES(T, atomicSub, T *address, T val)                       \
  GPURACE_ATOMIC_SCOPES(T, atomicMin, T *address, T val)                       \
  GPURACE_ATOMIC_SCOPES(T, atomicMax, T *address, T val)                       \
  GPURACE_ATOMIC_SCOPES(T, atomicAnd, T *address, T val)                       \
  GPURACE_ATOMIC_SCOPES(T, atomicOr, T *address, T val)                        \
  GPURACE_ATOMIC_SCOPES(T, atomicXor, T *address, T val)                       \
  GPURACE_ATOMIC_SCOPES(T, atomicCAS, T *address, T compare, T val)
GPURACE_ATOMIC_INT(int)
GPURACE_ATOMIC_INT(unsigned int)
GPURACE_ATOMIC_INT(unsigned long long)
GPURACE_ATOMIC_SCOPES(long long, atomicMin, long long *address, long long val)
GPURACE_ATOMIC_SCOPES(long long, atomicMax, long long *address, long long val)
GPURACE_ATOMIC_SCOPES(long long, atomicAnd, long long *address, long long val)
GPURACE_ATOMIC_SCOPES(long long, atomicOr, long long *address, long long val)
GPURACE_ATOMIC_SCOPES(long long, atomicXor, long long *address, long long val)
GPURACE_ATOMIC_SCOPES(unsigned short, atomicCAS, unsigned short *address,
                      unsigned short compare, unsigned short val)
GPURACE_ATOMIC_RMW(float)
GPURACE_ATOMIC_SCOPES(double, atomicAdd, double *address, double val)
GPURACE_ATOMIC_SCOPES(float2, atomicAdd, float2 *address, float2 val)
GPURACE_ATOMIC_SCOPES(float4, atomicAdd, float4 *address, float4 val)
GPURACE_ATOMIC_SCOPES(unsigned int, atomicInc, unsigned int *address,
                      unsigned int val)
GPURACE_ATOMIC_SCOPES(unsigned int, atomicDec, unsigned int *address,
                      unsigned int val)
#undef GPURACE_ATOMIC_INT
#undef GPURACE_ATOMIC_RMW
#undef GPURACE_ATOMIC_SCOPES

// The C library functions kernels may call; host code gets them from the C
// headers. assert() expands to a call of __assert_fail.
extern "C" {
__device__ int printf(const char *, ...);
__device__ void *malloc(size_t);
__device__ void free(void *);
__device__ void *memcpy(void *, const void *, size_t);
__device__ void *memset(void *, int, size_t);
__device__ void __assert_fail(const char *assertion, const char *file,
                              unsigned int line, const char *function);
__device__ void __assertfail(const char *message, const char *file,
                             unsigned int line, const char *function,
                             size_t charSize);
}

#endif
