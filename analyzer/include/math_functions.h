// The CUDA math library as kernels and host code call it (what the
// toolkit's math_functions.h declares).
//
// Host code gets the C library's functions from <math.h>; kernels get the
// __device__ overloads below, which Clang tells apart from the host ones by
// their execution space. Functions that only CUDA provides (rsqrtf, sinpif,
// normcdff, ...) are __host__ __device__, as in the toolkit, so inline
// __host__ __device__ helpers may call them. Integer min/max are inline with
// bodies: the analyzer reads them like any device function.
#ifndef GPURACE_MATH_FUNCTIONS_H
#define GPURACE_MATH_FUNCTIONS_H

#define __MATH_FUNCTIONS_H__

#include <math.h>
#include <stdlib.h>

// One-argument functions: float and double names, plus the C++ float
// overload of the double name.
#define GPURACE_MATH1(RF, RD, NAME)                                            \
  __device__ RF NAME##f(float);                                                \
  __device__ RD NAME(double);                                                  \
  __device__ RF NAME(float);
GPURACE_MATH1(float, double, acos) GPURACE_MATH1(float, double, acosh) GPURACE_MATH1(float, double, asin)
GPURACE_MATH1(float, double, asinh) GPURACE_MATH1(float, double, atan) GPURACE_MATH1(float, double, atanh)
GPURACE_MATH1(float, double, cbrt) GPURACE_MATH1(float, double, ceil) GPURACE_MATH1(float, double, cos)
GPURACE_MATH1(float, double, cosh) GPURACE_MATH1(float, double, erf) GPURACE_MATH1(float, double, erfc)
GPURACE_MATH1(float, double, exp) GPURACE_MATH1(float, double, exp2) GPURACE_MATH1(float, double, exp10)
GPURACE_MATH1(float, double, expm1) GPURACE_MATH1(float, double, fabs) GPURACE_MATH1(float, double, floor)
GPURACE_MATH1(float, double, lgamma) GPURACE_MATH1(float, double, log) GPURACE_MATH1(float, double, log10)
GPURACE_MATH1(float, double, log1p) GPURACE_MATH1(float, double, log2) GPURACE_MATH1(float, double, logb)
GPURACE_MATH1(float, double, nearbyint) GPURACE_MATH1(float, double, rint)
GPURACE_MATH1(float, double, round) GPURACE_MATH1(float, double, sin) GPURACE_MATH1(float, double, sinh)
GPURACE_MATH1(float, double, sqrt) GPURACE_MATH1(float, double, tan) GPURACE_MATH1(float, double, tanh)
GPURACE_MATH1(float, double, tgamma) GPURACE_MATH1(float, double, trunc) GPURACE_MATH1(float, double, j0)
GPURACE_MATH1(float, double, j1) GPURACE_MATH1(float, double, y0) GPURACE_MATH1(float, double, y1)
GPURACE_MATH1(int, int, ilogb) GPURACE_MATH1(long, long, lrint) GPURACE_MATH1(long, long, lround)
GPURACE_MATH1(long long, long long, llrint) GPURACE_MATH1(long long, long long, llround)
#undef GPURACE_MATH1

#define GPURACE_MATH2(NAME)                                                    \
  __device__ float NAME##f(float, float);                                      \
  __device__ double NAME(double, double);                                      \
  __device__ float NAME(float, float);
GPURACE_MATH2(atan2) GPURACE_MATH2(copysign) GPURACE_MATH2(fdim)
GPURACE_MATH2(fmax) GPURACE_MATH2(fmin) GPURACE_MATH2(fmod)
GPURACE_MATH2(hypot) GPURACE_MATH2(nextafter) GPURACE_MATH2(pow)
GPURACE_MATH2(remainder)
#undef GPURACE_MATH2

__device__ float fmaf(float, float, float);
__device__ double fma(double, double, double);
__device__ float fma(float, float, float);
__device__ float frexpf(float, int *);
__device__ double frexp(double, int *);
__device__ float frexp(float, int *);
__device__ float ldexpf(float, int);
__device__ double ldexp(double, int);
__device__ float ldexp(float, int);
__device__ float scalbnf(float, int);
__device__ double scalbn(double, int);
__device__ float scalbn(float, int);
__device__ float scalblnf(float, long);
__device__ double scalbln(double, long);
__device__ float modff(float, float *);
__device__ double modf(double, double *);
__device__ float modf(float, float *);
__device__ float remquof(float, float, int *);
__device__ double remquo(double, double, int *);
__device__ float remquo(float, float, int *);
__device__ float powif(float, int);
__device__ double powi(double, int);
__device__ double pow(double, int);
__device__ float pow(float, int);
__device__ float nanf(const char *);
__device__ double nan(const char *);
__device__ float jnf(int, float);
__device__ double jn(int, double);
__device__ float ynf(int, float);
__device__ double yn(int, double);
__device__ void sincosf(float, float *, float *);
__device__ void sincos(double, double *, double *);
__device__ void sincos(float, float *, float *);

__device__ bool isnan(float);
__device__ bool isnan(double);
__device__ bool isinf(float);
__device__ bool isinf(double);
__device__ bool isfinite(float);
__device__ bool isfinite(double);
__device__ bool signbit(float);
__device__ bool signbit(double);
__device__ int __isnanf(float);
__device__ int __isnan(double);
__device__ int __isinff(float);
__device__ int __isinf(double);
__device__ int __finitef(float);
__device__ int __finite(double);
__device__ int __signbitf(float);
__device__ int __signbit(double);

__device__ int abs(int);
__device__ long labs(long);
__device__ long long llabs(long long);
__device__ long abs(long);
__device__ long long abs(long long);
__device__ float abs(float);
__device__ double abs(double);

// Math only CUDA provides; the toolkit implements it on both sides.
#define GPURACE_CUDA_MATH1(NAME)                                               \
  __host__ __device__ float NAME##f(float);                                    \
  __host__ __device__ double NAME(double);
GPURACE_CUDA_MATH1(rsqrt) GPURACE_CUDA_MATH1(rcbrt) GPURACE_CUDA_MATH1(sinpi)
GPURACE_CUDA_MATH1(cospi) GPURACE_CUDA_MATH1(normcdf)
GPURACE_CUDA_MATH1(normcdfinv) GPURACE_CUDA_MATH1(erfinv)
GPURACE_CUDA_MATH1(erfcinv) GPURACE_CUDA_MATH1(erfcx)
#undef GPURACE_CUDA_MATH1
__host__ __device__ void sincospif(float, float *, float *);
__host__ __device__ void sincospi(double, double *, double *);
__host__ __device__ float fdividef(float, float);
__host__ __device__ float norm3df(float, float, float);
__host__ __device__ double norm3d(double, double, double);
__host__ __device__ float rnorm3df(float, float, float);
__host__ __device__ double rnorm3d(double, double, double);
__host__ __device__ float norm4df(float, float, float, float);
__host__ __device__ double norm4d(double, double, double, double);
__host__ __device__ float rnorm4df(float, float, float, float);
__host__ __device__ double rnorm4d(double, double, double, double);
__host__ __device__ float rhypotf(float, float);
__host__ __device__ double rhypot(double, double);
__host__ __device__ float normf(int, const float *);
__host__ __device__ double norm(int, const double *);
__host__ __device__ float rnormf(int, const float *);
__host__ __device__ double rnorm(int, const double *);
__host__ __device__ float cyl_bessel_i0f(float);
__host__ __device__ float cyl_bessel_i1f(float);

// Device overloads of the C++ <cmath> names, visible as std:: too, so
// kernels may call std::sqrt, std::abs, ...
namespace std {
using ::abs;
using ::acos; using ::acosh; using ::asin; using ::asinh; using ::atan;
using ::atan2; using ::atanh; using ::cbrt; using ::ceil; using ::copysign;
using ::cos; using ::cosh; using ::erf; using ::erfc; using ::exp;
using ::exp2; using ::expm1; using ::fabs; using ::fdim; using ::floor;
using ::fma; using ::fmax; using ::fmin; using ::fmod; using ::frexp;
using ::hypot; using ::ilogb; using ::isfinite; using ::isinf; using ::isnan;
using ::ldexp; using ::lgamma; using ::llrint; using ::llround; using ::log;
using ::log10; using ::log1p; using ::log2; using ::logb; using ::lrint;
using ::lround; using ::modf; using ::nearbyint; using ::nextafter;
using ::pow; using ::remainder; using ::remquo; using ::rint; using ::round;
using ::scalbn; using ::signbit; using ::sin; using ::sinh; using ::sqrt;
using ::tan; using ::tanh; using ::tgamma; using ::trunc;
} // namespace std

// min and max for every arithmetic type, on both sides (host code calls
// them unqualified too). Mixed signed/unsigned pairs compare as unsigned.
#define GPURACE_MINMAX(T)                                                      \
  __host__ __device__ inline T min(T a, T b) { return a < b ? a : b; }         \
  __host__ __device__ inline T max(T a, T b) { return a > b ? a : b; }
#define GPURACE_MINMAX_MIXED(R, A, B)                                          \
  __host__ __device__ inline R min(A a, B b) {                                 \
    return (R)a < (R)b ? (R)a : (R)b;                                          \
  }                                                                            \
  __host__ __device__ inline R max(A a, B b) {                                 \
    return (R)a > (R)b ? (R)a : (R)b;                                          \
  }                                                                            \
  __host__ __device__ inline R min(B a, A b) {                                 \
    return (R)a < (R)b ? (R)a : (R)b;                                          \
  }                                                                            \
  __host__ __device__ inline R max(B a, A b) {                                 \
    return (R)a > (R)b ? (R)a : (R)b;                                          \
  }
GPURACE_MINMAX(int)
GPURACE_MINMAX(unsigned int)
GPURACE_MINMAX(long)
GPURACE_MINMAX(unsigned long)
GPURACE_MINMAX(long long)
GPURACE_MINMAX(unsigned long long)
GPURACE_MINMAX(float)
GPURACE_MINMAX(double)
GPURACE_MINMAX_MIXED(unsigned int, int, unsigned int)
GPURACE_MINMAX_MIXED(unsigned long, long, unsigned long)
GPURACE_MINMAX_MIXED(unsigned long long, long long, unsigned long long)
GPURACE_MINMAX_MIXED(double, float, double)
#undef GPURACE_MINMAX
#undef GPURACE_MINMAX_MIXED
__host__ __device__ inline unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }
__host__ __device__ inline unsigned umax(unsigned a, unsigned b) { return a > b ? a : b; }
__host__ __device__ inline long long llmin(long long a, long long b) { return a < b ? a : b; }
__host__ __device__ inline long long llmax(long long a, long long b) { return a > b ? a : b; }
__host__ __device__ inline unsigned long long ullmin(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
__host__ __device__ inline unsigned long long ullmax(unsigned long long a, unsigned long long b) { return a > b ? a : b; }

// Intrinsics: fast approximate, explicitly rounded, and bit-level
// operations, device only.
__device__ float __fdividef(float, float);
__device__ double __fdiv_rn(double, double);
__device__ float __sinf(float);
__device__ float __cosf(float);
__device__ float __tanf(float);
__device__ void __sincosf(float, float *, float *);
__device__ float __expf(float);
__device__ float __exp10f(float);
__device__ float __logf(float);
__device__ float __log2f(float);
__device__ float __log10f(float);
__device__ float __powf(float, float);
__device__ float __saturatef(float);
#define GPURACE_ROUNDED(R, NAME, ...)                                          \
  __device__ R NAME##_rn(__VA_ARGS__);                                         \
  __device__ R NAME##_rz(__VA_ARGS__);                                         \
  __device__ R NAME##_ru(__VA_ARGS__);                                         \
  __device__ R NAME##_rd(__VA_ARGS__);
GPURACE_ROUNDED(float, __fadd, float, float)
GPURACE_ROUNDED(float, __fsub, float, float)
GPURACE_ROUNDED(float, __fmul, float, float)
GPURACE_ROUNDED(float, __fmaf, float, float, float)
GPURACE_ROUNDED(float, __fdiv, float, float)
GPURACE_ROUNDED(float, __frcp, float)
GPURACE_ROUNDED(float, __fsqrt, float)
GPURACE_ROUNDED(double, __dadd, double, double)
GPURACE_ROUNDED(double, __dsub, double, double)
GPURACE_ROUNDED(double, __dmul, double, double)
GPURACE_ROUNDED(double, __fma, double, double, double)
GPURACE_ROUNDED(double, __ddiv, double, double)
GPURACE_ROUNDED(double, __drcp, double)
GPURACE_ROUNDED(double, __dsqrt, double)
GPURACE_ROUNDED(int, __float2int, float)
GPURACE_ROUNDED(unsigned int, __float2uint, float)
GPURACE_ROUNDED(long long, __float2ll, float)
GPURACE_ROUNDED(unsigned long long, __float2ull, float)
GPURACE_ROUNDED(float, __int2float, int)
GPURACE_ROUNDED(float, __uint2float, unsigned int)
GPURACE_ROUNDED(float, __ll2float, long long)
GPURACE_ROUNDED(float, __ull2float, unsigned long long)
GPURACE_ROUNDED(float, __double2float, double)
GPURACE_ROUNDED(int, __double2int, double)
GPURACE_ROUNDED(unsigned int, __double2uint, double)
GPURACE_ROUNDED(long long, __double2ll, double)
GPURACE_ROUNDED(unsigned long long, __double2ull, double)
GPURACE_ROUNDED(double, __ll2double, long long)
GPURACE_ROUNDED(double, __ull2double, unsigned long long)
#undef GPURACE_ROUNDED
__device__ float __frsqrt_rn(float);
__device__ double __int2double_rn(int);
__device__ double __uint2double_rn(unsigned int);
__device__ int __float_as_int(float);
__device__ float __int_as_float(int);
__device__ unsigned int __float_as_uint(float);
__device__ float __uint_as_float(unsigned int);
__device__ long long __double_as_longlong(double);
__device__ double __longlong_as_double(long long);
__device__ int __double2hiint(double);
__device__ int __double2loint(double);
__device__ double __hiloint2double(int, int);

__device__ int __mul24(int, int);
__device__ unsigned int __umul24(unsigned int, unsigned int);
__device__ int __mulhi(int, int);
__device__ unsigned int __umulhi(unsigned int, unsigned int);
__device__ long long __mul64hi(long long, long long);
__device__ unsigned long long __umul64hi(unsigned long long, unsigned long long);
__device__ int __hadd(int, int);
__device__ unsigned int __uhadd(unsigned int, unsigned int);
__device__ int __rhadd(int, int);
__device__ unsigned int __urhadd(unsigned int, unsigned int);
__device__ unsigned int __sad(int, int, unsigned int);
__device__ unsigned int __usad(unsigned int, unsigned int, unsigned int);
__device__ int __popc(unsigned int);
__device__ int __popcll(unsigned long long);
__device__ int __clz(int);
__device__ int __clzll(long long);
__device__ int __ffs(int);
__device__ int __ffsll(long long);
__device__ unsigned int __brev(unsigned int);
__device__ unsigned long long __brevll(unsigned long long);
__device__ unsigned int __byte_perm(unsigned int, unsigned int, unsigned int);
__device__ unsigned int __funnelshift_l(unsigned int, unsigned int, unsigned int);
__device__ unsigned int __funnelshift_lc(unsigned int, unsigned int, unsigned int);
__device__ unsigned int __funnelshift_r(unsigned int, unsigned int, unsigned int);
__device__ unsigned int __funnelshift_rc(unsigned int, unsigned int, unsigned int);
__device__ unsigned int __fns(unsigned int, unsigned int, int);
__device__ int __dp4a(int, int, int);
__device__ unsigned int __dp4a(unsigned int, unsigned int, unsigned int);
__device__ int __dp2a_lo(int, int, int);
__device__ int __dp2a_hi(int, int, int);
__device__ unsigned int __vabsdiffu4(unsigned int, unsigned int);
__device__ unsigned int __vadd4(unsigned int, unsigned int);
__device__ unsigned int __vsub4(unsigned int, unsigned int);
__device__ unsigned int __vmaxu4(unsigned int, unsigned int);
__device__ unsigned int __vminu4(unsigned int, unsigned int);

#endif
