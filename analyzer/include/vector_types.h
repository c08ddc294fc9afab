// CUDA's built-in vector types (what the toolkit's vector_types.h declares)
// and their make_* functions (vector_functions.h).
//
// They are plain aggregates, so `float4 v = {a, b, c, d}` works, with the
// toolkit's alignment: the analyzer computes byte offsets from sizeof and
// alignof, and an array of int2 or float4 must have the device's layout.
#ifndef GPURACE_VECTOR_TYPES_H
#define GPURACE_VECTOR_TYPES_H

#define __VECTOR_TYPES_H__
#define __VECTOR_FUNCTIONS_H__

#ifndef __host__
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#endif

#include "__clang_cuda_builtin_vars.h"

#define GPURACE_VECTOR1(T, N, A)                                               \
  struct __attribute__((aligned(A))) N##1 { T x; };                            \
  typedef struct N##1 N##1;                                                    \
  __host__ __device__ inline N##1 make_##N##1(T x) { return {x}; }
#define GPURACE_VECTOR2(T, N, A)                                               \
  struct __attribute__((aligned(A))) N##2 { T x, y; };                         \
  typedef struct N##2 N##2;                                                    \
  __host__ __device__ inline N##2 make_##N##2(T x, T y) { return {x, y}; }
#define GPURACE_VECTOR3(T, N)                                                  \
  struct N##3 { T x, y, z; };                                                  \
  typedef struct N##3 N##3;                                                    \
  __host__ __device__ inline N##3 make_##N##3(T x, T y, T z) {                 \
    return {x, y, z};                                                          \
  }
#define GPURACE_VECTOR4(T, N, A)                                               \
  struct __attribute__((aligned(A))) N##4 { T x, y, z, w; };                   \
  typedef struct N##4 N##4;                                                    \
  __host__ __device__ inline N##4 make_##N##4(T x, T y, T z, T w) {            \
    return {x, y, z, w};                                                       \
  }
// One-component types are aligned as their element, two-component ones to
// twice that, four-component ones to four times that but at most 16 bytes.
#define GPURACE_VECTORS(T, N)                                                  \
  GPURACE_VECTOR1(T, N, sizeof(T))                                             \
  GPURACE_VECTOR2(T, N, 2 * sizeof(T))                                         \
  GPURACE_VECTOR3(T, N)                                                        \
  GPURACE_VECTOR4(T, N, (4 * sizeof(T) > 16 ? 16 : 4 * sizeof(T)))

GPURACE_VECTORS(signed char, char)
GPURACE_VECTORS(unsigned char, uchar)
GPURACE_VECTORS(short, short)
GPURACE_VECTORS(unsigned short, ushort)
GPURACE_VECTORS(int, int)
GPURACE_VECTORS(unsigned int, uint)
GPURACE_VECTORS(long, long)
GPURACE_VECTORS(unsigned long, ulong)
GPURACE_VECTORS(long long, longlong)
GPURACE_VECTORS(unsigned long long, ulonglong)
GPURACE_VECTORS(float, float)
GPURACE_VECTORS(double, double)

#undef GPURACE_VECTOR1
#undef GPURACE_VECTOR2
#undef GPURACE_VECTOR3
#undef GPURACE_VECTOR4
#undef GPURACE_VECTORS

// Launch dimensions: unset components are 1.
struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1,
                                     unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  __host__ __device__ constexpr operator uint3() const { return {x, y, z}; }
};
typedef struct dim3 dim3;

#endif
