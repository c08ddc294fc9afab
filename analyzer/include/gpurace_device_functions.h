// Device intrinsics: barriers, warp primitives, fences, atomics and the math
// that kernels call. The analyzer recognizes these by name.
#ifndef GPURACE_DEVICE_FUNCTIONS_H
#define GPURACE_DEVICE_FUNCTIONS_H

#define warpSize 32

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
__device__ void __nanosleep(unsigned ns);
__device__ long long clock64(void);
__device__ int clock(void);

#define GPURACE_SHFL(T)                                                        \
  __device__ T __shfl_sync(unsigned mask, T var, int src, int width = 32);     \
  __device__ T __shfl_up_sync(unsigned mask, T var, unsigned d,                \
                              int width = 32);                                 \
  __device__ T __shfl_down_sync(unsigned mask, T var, unsigned d,              \
                                int width = 32);                               \
  __device__ T __shfl_xor_sync(unsigned mask, T var, int lane, int width = 32);
GPURACE_SHFL(int)
GPURACE_SHFL(unsigned)
GPURACE_SHFL(long long)
GPURACE_SHFL(unsigned long long)
GPURACE_SHFL(float)
GPURACE_SHFL(double)
#undef GPURACE_SHFL

template <class T> __device__ T __ldg(const T *ptr);

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
GPURACE_ATOMIC_SCOPES(unsigned short, atomicCAS, unsigned short *address,
                      unsigned short compare, unsigned short val)
GPURACE_ATOMIC_RMW(float)
GPURACE_ATOMIC_SCOPES(double, atomicAdd, double *address, double val)
GPURACE_ATOMIC_SCOPES(unsigned int, atomicInc, unsigned int *address,
                      unsigned int val)
GPURACE_ATOMIC_SCOPES(unsigned int, atomicDec, unsigned int *address,
                      unsigned int val)
#undef GPURACE_ATOMIC_INT
#undef GPURACE_ATOMIC_RMW
#undef GPURACE_ATOMIC_SCOPES

// Math used in kernels (device overloads; host code uses <cmath>).
#define GPURACE_MATH1(NAME) __device__ float NAME##f(float); __device__ double NAME(double);
GPURACE_MATH1(sqrt) GPURACE_MATH1(rsqrt) GPURACE_MATH1(exp) GPURACE_MATH1(log)
GPURACE_MATH1(sin) GPURACE_MATH1(cos) GPURACE_MATH1(tanh) GPURACE_MATH1(floor)
GPURACE_MATH1(ceil) GPURACE_MATH1(fabs) GPURACE_MATH1(exp2) GPURACE_MATH1(log2)
#undef GPURACE_MATH1
__device__ float powf(float, float);
__device__ float fminf(float, float);
__device__ float fmaxf(float, float);
__device__ float __expf(float);
__device__ float __fdividef(float, float);
__device__ float __saturatef(float);
__device__ int __float2int_rn(float);
__device__ float __int2float_rn(int);
__device__ int __popc(unsigned);
__device__ int __clz(int);
__device__ int __ffs(int);
__device__ inline int min(int a, int b) { return a < b ? a : b; }
__device__ inline int max(int a, int b) { return a > b ? a : b; }
__device__ inline unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }
__device__ inline unsigned umax(unsigned a, unsigned b) { return a > b ? a : b; }
__device__ void *malloc(size_t);
__device__ void free(void *);
extern "C" __device__ int printf(const char *, ...);

#endif
