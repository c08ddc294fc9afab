// Vector types of the CUDA headers that kernels commonly use.
#ifndef GPURACE_VECTOR_TYPES_H
#define GPURACE_VECTOR_TYPES_H

#define GPURACE_VECTOR2(T, N)                                                  \
  struct N##2 { T x, y; };                                                     \
  __host__ __device__ inline N##2 make_##N##2(T x, T y) { return {x, y}; }
#define GPURACE_VECTOR3(T, N)                                                  \
  struct N##3 { T x, y, z; };                                                  \
  __host__ __device__ inline N##3 make_##N##3(T x, T y, T z) {                 \
    return {x, y, z};                                                          \
  }
#define GPURACE_VECTOR4(T, N)                                                  \
  struct N##4 { T x, y, z, w; };                                               \
  __host__ __device__ inline N##4 make_##N##4(T x, T y, T z, T w) {            \
    return {x, y, z, w};                                                       \
  }
#define GPURACE_VECTORS(T, N)                                                  \
  GPURACE_VECTOR2(T, N) GPURACE_VECTOR3(T, N) GPURACE_VECTOR4(T, N)

GPURACE_VECTORS(float, float)
GPURACE_VECTORS(double, double)
GPURACE_VECTORS(int, int)
GPURACE_VECTORS(unsigned char, uchar)
GPURACE_VECTORS(char, char)
GPURACE_VECTORS(short, short)
GPURACE_VECTORS(unsigned short, ushort)
GPURACE_VECTORS(long long, longlong)
GPURACE_VECTORS(unsigned long long, ulonglong)
GPURACE_VECTOR2(unsigned int, uint)
GPURACE_VECTOR4(unsigned int, uint)
__host__ __device__ inline uint3 make_uint3(unsigned x, unsigned y, unsigned z) {
  return {x, y, z};
}

#undef GPURACE_VECTOR2
#undef GPURACE_VECTOR3
#undef GPURACE_VECTOR4
#undef GPURACE_VECTORS

#endif
