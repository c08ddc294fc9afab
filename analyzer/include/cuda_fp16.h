// Half precision (the toolkit's cuda_fp16.h): __half and __half2, their
// conversions, arithmetic and comparisons.
//
// __half is a 2-byte struct and __half2 a 4-byte pair, as on the device, so
// byte offsets in half arrays are exact. The functions are declared only;
// conversions and arithmetic are __host__ __device__ as in recent toolkits.
#ifndef GPURACE_CUDA_FP16_H
#define GPURACE_CUDA_FP16_H

#define __CUDA_FP16_H__
#define __CUDA_FP16_TYPES_EXIST__

#include "cuda_runtime.h"

struct __half_raw { unsigned short x; };
struct __half2_raw { unsigned short x, y; };

struct __align__(2) __half {
  __half() = default;
  __host__ __device__ __half(const __half_raw &raw);
  __host__ __device__ __half(float f);
  __host__ __device__ __half(double f);
  __host__ __device__ __half(int i);
  __host__ __device__ __half(unsigned int i);
  __host__ __device__ __half(short i);
  __host__ __device__ __half(unsigned short i);
  __host__ __device__ __half(long long i);
  __host__ __device__ __half(unsigned long long i);
  __host__ __device__ __half &operator=(float f);
  __host__ __device__ __half &operator=(const __half_raw &raw);
  __host__ __device__ operator float() const;
  __host__ __device__ operator __half_raw() const;
  __host__ __device__ explicit operator bool() const;

protected:
  unsigned short __x;
};

struct __align__(4) __half2 {
  __half x, y;
  __half2() = default;
  __host__ __device__ __half2(const __half &a, const __half &b) : x(a), y(b) {}
  __host__ __device__ __half2(const __half2_raw &raw);
  __host__ __device__ __half2 &operator=(const __half2_raw &raw);
  __host__ __device__ operator __half2_raw() const;
};

typedef __half half;
typedef __half2 half2;
typedef __half __nv_half;
typedef __half2 __nv_half2;

// Conversions.
__host__ __device__ __half __float2half(float a);
__host__ __device__ __half __float2half_rn(float a);
__host__ __device__ __half __float2half_rz(float a);
__host__ __device__ __half __float2half_rd(float a);
__host__ __device__ __half __float2half_ru(float a);
__host__ __device__ __half __double2half(double a);
__host__ __device__ float __half2float(__half a);
__host__ __device__ __half2 __float2half2_rn(float a);
__host__ __device__ __half2 __floats2half2_rn(float a, float b);
__host__ __device__ __half2 __float22half2_rn(float2 a);
__host__ __device__ float2 __half22float2(__half2 a);
__host__ __device__ float __low2float(__half2 a);
__host__ __device__ float __high2float(__half2 a);
__host__ __device__ __half __low2half(__half2 a);
__host__ __device__ __half __high2half(__half2 a);
__host__ __device__ __half2 __low2half2(__half2 a);
__host__ __device__ __half2 __high2half2(__half2 a);
__host__ __device__ __half2 __halves2half2(__half a, __half b);
__host__ __device__ __half2 __half2half2(__half a);
__host__ __device__ __half2 __lows2half2(__half2 a, __half2 b);
__host__ __device__ __half2 __highs2half2(__half2 a, __half2 b);
__host__ __device__ __half2 __lowhigh2highlow(__half2 a);
__host__ __device__ int __half2int_rn(__half h);
__host__ __device__ int __half2int_rz(__half h);
__host__ __device__ unsigned int __half2uint_rn(__half h);
__host__ __device__ short __half2short_rn(__half h);
__host__ __device__ __half __int2half_rn(int i);
__host__ __device__ __half __uint2half_rn(unsigned int i);
__host__ __device__ __half __short2half_rn(short i);
__host__ __device__ short __half_as_short(__half h);
__host__ __device__ unsigned short __half_as_ushort(__half h);
__host__ __device__ __half __short_as_half(short i);
__host__ __device__ __half __ushort_as_half(unsigned short i);

// Arithmetic and comparisons, scalar and paired.
#define GPURACE_HALF_OPS(H, S)                                                 \
  __host__ __device__ H __hadd##S(H a, H b);                                   \
  __host__ __device__ H __hsub##S(H a, H b);                                   \
  __host__ __device__ H __hmul##S(H a, H b);                                   \
  __host__ __device__ H __hdiv##S(H a, H b);                                   \
  __host__ __device__ H __hadd##S##_sat(H a, H b);                             \
  __host__ __device__ H __hsub##S##_sat(H a, H b);                             \
  __host__ __device__ H __hmul##S##_sat(H a, H b);                             \
  __host__ __device__ H __hfma##S(H a, H b, H c);                              \
  __host__ __device__ H __hfma##S##_sat(H a, H b, H c);                        \
  __host__ __device__ H __hfma##S##_relu(H a, H b, H c);                       \
  __host__ __device__ H __hneg##S(H a);                                        \
  __host__ __device__ H __habs##S(H a);                                        \
  __host__ __device__ H __hmax##S(H a, H b);                                   \
  __host__ __device__ H __hmin##S(H a, H b);                                   \
  __host__ __device__ H __hmax##S##_nan(H a, H b);                             \
  __host__ __device__ H __hmin##S##_nan(H a, H b);
GPURACE_HALF_OPS(__half, )
GPURACE_HALF_OPS(__half2, 2)
#undef GPURACE_HALF_OPS
__device__ __half2 __hcmadd(__half2 a, __half2 b, __half2 c);
#define GPURACE_HALF_CMP(NAME)                                                 \
  __host__ __device__ bool NAME(__half a, __half b);                           \
  __host__ __device__ __half2 NAME##2(__half2 a, __half2 b);                   \
  __host__ __device__ bool NAME##2##_and(__half2 a, __half2 b);                \
  __host__ __device__ unsigned NAME##2##_mask(__half2 a, __half2 b);
GPURACE_HALF_CMP(__heq) GPURACE_HALF_CMP(__hne) GPURACE_HALF_CMP(__hlt)
GPURACE_HALF_CMP(__hle) GPURACE_HALF_CMP(__hgt) GPURACE_HALF_CMP(__hge)
GPURACE_HALF_CMP(__hequ) GPURACE_HALF_CMP(__hneu) GPURACE_HALF_CMP(__hltu)
GPURACE_HALF_CMP(__hleu) GPURACE_HALF_CMP(__hgtu) GPURACE_HALF_CMP(__hgeu)
#undef GPURACE_HALF_CMP
__host__ __device__ bool __hisnan(__half a);
__host__ __device__ __half2 __hisnan2(__half2 a);
__host__ __device__ int __hisinf(__half a);

// Math.
#define GPURACE_HALF_MATH(NAME)                                                \
  __device__ __half h##NAME(__half a);                                         \
  __device__ __half2 h2##NAME(__half2 a);
GPURACE_HALF_MATH(sqrt) GPURACE_HALF_MATH(rsqrt) GPURACE_HALF_MATH(rcp)
GPURACE_HALF_MATH(exp) GPURACE_HALF_MATH(exp2) GPURACE_HALF_MATH(exp10)
GPURACE_HALF_MATH(log) GPURACE_HALF_MATH(log2) GPURACE_HALF_MATH(log10)
GPURACE_HALF_MATH(sin) GPURACE_HALF_MATH(cos) GPURACE_HALF_MATH(floor)
GPURACE_HALF_MATH(ceil) GPURACE_HALF_MATH(trunc) GPURACE_HALF_MATH(rint)
#undef GPURACE_HALF_MATH

// Warp shuffles, cache-hinted loads and atomics of halves.
#define GPURACE_HALF_SHFL(T)                                                   \
  __device__ T __shfl_sync(unsigned mask, T var, int src, int width = 32);     \
  __device__ T __shfl_up_sync(unsigned mask, T var, unsigned d,                \
                              int width = 32);                                 \
  __device__ T __shfl_down_sync(unsigned mask, T var, unsigned d,              \
                                int width = 32);                               \
  __device__ T __shfl_xor_sync(unsigned mask, T var, int lane, int width = 32);
GPURACE_HALF_SHFL(__half)
GPURACE_HALF_SHFL(__half2)
#undef GPURACE_HALF_SHFL
__device__ __half atomicAdd(__half *address, __half val);
__device__ __half2 atomicAdd(__half2 *address, __half2 val);

// Operators.
#define GPURACE_HALF_OPERATORS(H)                                              \
  __host__ __device__ H operator+(const H &a, const H &b);                     \
  __host__ __device__ H operator-(const H &a, const H &b);                     \
  __host__ __device__ H operator*(const H &a, const H &b);                     \
  __host__ __device__ H operator/(const H &a, const H &b);                     \
  __host__ __device__ H &operator+=(H &a, const H &b);                         \
  __host__ __device__ H &operator-=(H &a, const H &b);                         \
  __host__ __device__ H &operator*=(H &a, const H &b);                         \
  __host__ __device__ H &operator/=(H &a, const H &b);                         \
  __host__ __device__ H operator-(const H &a);                                 \
  __host__ __device__ H operator+(const H &a);                                 \
  __host__ __device__ bool operator==(const H &a, const H &b);                 \
  __host__ __device__ bool operator!=(const H &a, const H &b);                 \
  __host__ __device__ bool operator<(const H &a, const H &b);                  \
  __host__ __device__ bool operator<=(const H &a, const H &b);                 \
  __host__ __device__ bool operator>(const H &a, const H &b);                  \
  __host__ __device__ bool operator>=(const H &a, const H &b);
GPURACE_HALF_OPERATORS(__half)
GPURACE_HALF_OPERATORS(__half2)
#undef GPURACE_HALF_OPERATORS

#endif
