// Brain floating point (the toolkit's cuda_bf16.h): __nv_bfloat16 and
// __nv_bfloat162, their conversions, arithmetic and comparisons.
//
// __nv_bfloat16 is a 2-byte struct and __nv_bfloat162 a 4-byte pair, as on
// the device, so byte offsets in bfloat16 arrays are exact. The functions
// are declared only; conversions and arithmetic are __host__ __device__ as
// in recent toolkits.
#ifndef GPURACE_CUDA_BF16_H
#define GPURACE_CUDA_BF16_H

#define __CUDA_BF16_H__
#define __CUDA_BF16_TYPES_EXIST__

#include "cuda_runtime.h"
#include "cuda_fp16.h"

struct __nv_bfloat16_raw { unsigned short x; };
struct __nv_bfloat162_raw { unsigned short x, y; };

struct __align__(2) __nv_bfloat16 {
  __nv_bfloat16() = default;
  __host__ __device__ __nv_bfloat16(const __nv_bfloat16_raw &raw);
  __host__ __device__ __nv_bfloat16(float f);
  __host__ __device__ __nv_bfloat16(double f);
  __host__ __device__ __nv_bfloat16(int i);
  __host__ __device__ __nv_bfloat16(unsigned int i);
  __host__ __device__ __nv_bfloat16(short i);
  __host__ __device__ __nv_bfloat16(unsigned short i);
  __host__ __device__ __nv_bfloat16(long long i);
  __host__ __device__ __nv_bfloat16(unsigned long long i);
  __host__ __device__ __nv_bfloat16 &operator=(float f);
  __host__ __device__ __nv_bfloat16 &operator=(const __nv_bfloat16_raw &raw);
  __host__ __device__ operator float() const;
  __host__ __device__ operator __nv_bfloat16_raw() const;
  __host__ __device__ explicit operator bool() const;

protected:
  unsigned short __x;
};

struct __align__(4) __nv_bfloat162 {
  __nv_bfloat16 x, y;
  __nv_bfloat162() = default;
  __host__ __device__ __nv_bfloat162(const __nv_bfloat16 &a, const __nv_bfloat16 &b) : x(a), y(b) {}
  __host__ __device__ __nv_bfloat162(const __nv_bfloat162_raw &raw);
  __host__ __device__ __nv_bfloat162 &operator=(const __nv_bfloat162_raw &raw);
  __host__ __device__ operator __nv_bfloat162_raw() const;
};

typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

// Conversions.
__host__ __device__ __nv_bfloat16 __float2bfloat16(float a);
__host__ __device__ __nv_bfloat16 __float2bfloat16_rn(float a);
__host__ __device__ __nv_bfloat16 __float2bfloat16_rz(float a);
__host__ __device__ __nv_bfloat16 __float2bfloat16_rd(float a);
__host__ __device__ __nv_bfloat16 __float2bfloat16_ru(float a);
__host__ __device__ __nv_bfloat16 __double2bfloat16(double a);
__host__ __device__ float __bfloat162float(__nv_bfloat16 a);
__host__ __device__ __nv_bfloat162 __float2bfloat162_rn(float a);
__host__ __device__ __nv_bfloat162 __floats2bfloat162_rn(float a, float b);
__host__ __device__ __nv_bfloat162 __float22bfloat162_rn(float2 a);
__host__ __device__ float2 __bfloat1622float2(__nv_bfloat162 a);
__host__ __device__ float __low2float(__nv_bfloat162 a);
__host__ __device__ float __high2float(__nv_bfloat162 a);
__host__ __device__ __nv_bfloat16 __low2bfloat16(__nv_bfloat162 a);
__host__ __device__ __nv_bfloat16 __high2bfloat16(__nv_bfloat162 a);
__host__ __device__ __nv_bfloat162 __low2bfloat162(__nv_bfloat162 a);
__host__ __device__ __nv_bfloat162 __high2bfloat162(__nv_bfloat162 a);
__host__ __device__ __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 a, __nv_bfloat16 b);
__host__ __device__ __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16 a);
__host__ __device__ __nv_bfloat162 __lows2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b);
__host__ __device__ __nv_bfloat162 __highs2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b);
__host__ __device__ __nv_bfloat162 __lowhigh2highlow(__nv_bfloat162 a);
__host__ __device__ int __bfloat162int_rn(__nv_bfloat16 h);
__host__ __device__ int __bfloat162int_rz(__nv_bfloat16 h);
__host__ __device__ unsigned int __bfloat162uint_rn(__nv_bfloat16 h);
__host__ __device__ short __bfloat162short_rn(__nv_bfloat16 h);
__host__ __device__ __nv_bfloat16 __int2bfloat16_rn(int i);
__host__ __device__ __nv_bfloat16 __uint2bfloat16_rn(unsigned int i);
__host__ __device__ __nv_bfloat16 __short2bfloat16_rn(short i);
__host__ __device__ short __bfloat16_as_short(__nv_bfloat16 h);
__host__ __device__ unsigned short __bfloat16_as_ushort(__nv_bfloat16 h);
__host__ __device__ __nv_bfloat16 __short_as_bfloat16(short i);
__host__ __device__ __nv_bfloat16 __ushort_as_bfloat16(unsigned short i);

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
GPURACE_HALF_OPS(__nv_bfloat16, )
GPURACE_HALF_OPS(__nv_bfloat162, 2)
#undef GPURACE_HALF_OPS
#define GPURACE_HALF_CMP(NAME)                                                 \
  __host__ __device__ bool NAME(__nv_bfloat16 a, __nv_bfloat16 b);                           \
  __host__ __device__ __nv_bfloat162 NAME##2(__nv_bfloat162 a, __nv_bfloat162 b);                   \
  __host__ __device__ bool NAME##2##_and(__nv_bfloat162 a, __nv_bfloat162 b);                \
  __host__ __device__ unsigned NAME##2##_mask(__nv_bfloat162 a, __nv_bfloat162 b);
GPURACE_HALF_CMP(__heq) GPURACE_HALF_CMP(__hne) GPURACE_HALF_CMP(__hlt)
GPURACE_HALF_CMP(__hle) GPURACE_HALF_CMP(__hgt) GPURACE_HALF_CMP(__hge)
GPURACE_HALF_CMP(__hequ) GPURACE_HALF_CMP(__hneu) GPURACE_HALF_CMP(__hltu)
GPURACE_HALF_CMP(__hleu) GPURACE_HALF_CMP(__hgtu) GPURACE_HALF_CMP(__hgeu)
#undef GPURACE_HALF_CMP
__host__ __device__ bool __hisnan(__nv_bfloat16 a);
__host__ __device__ __nv_bfloat162 __hisnan2(__nv_bfloat162 a);
__host__ __device__ int __hisinf(__nv_bfloat16 a);

// Math.

// Warp shuffles, cache-hinted loads and atomics of halves.
#define GPURACE_HALF_SHFL(T)                                                   \
  __device__ T __shfl_sync(unsigned mask, T var, int src, int width = 32);     \
  __device__ T __shfl_up_sync(unsigned mask, T var, unsigned d,                \
                              int width = 32);                                 \
  __device__ T __shfl_down_sync(unsigned mask, T var, unsigned d,              \
                                int width = 32);                               \
  __device__ T __shfl_xor_sync(unsigned mask, T var, int lane, int width = 32);
GPURACE_HALF_SHFL(__nv_bfloat16)
GPURACE_HALF_SHFL(__nv_bfloat162)
#undef GPURACE_HALF_SHFL
__device__ __nv_bfloat16 atomicAdd(__nv_bfloat16 *address, __nv_bfloat16 val);
__device__ __nv_bfloat162 atomicAdd(__nv_bfloat162 *address, __nv_bfloat162 val);

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
GPURACE_HALF_OPERATORS(__nv_bfloat16)
GPURACE_HALF_OPERATORS(__nv_bfloat162)
#undef GPURACE_HALF_OPERATORS

#endif
