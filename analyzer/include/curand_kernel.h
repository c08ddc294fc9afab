// cuRAND's device API (the toolkit's curand_kernel.h): per-thread generator
// states, their initialization, and the draws kernels make from them.
//
// The states are opaque structs of the toolkit's sizes, so arrays of states
// have the device's layout; each thread owns its state, and the draws only
// read and write that state. Declared only.
#ifndef GPURACE_CURAND_KERNEL_H
#define GPURACE_CURAND_KERNEL_H

#define CURAND_KERNEL_H_

#include "curand.h"

struct curandStateXORWOW {
  unsigned int d, v[5];
  int boxmuller_flag, boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStateXORWOW curandStateXORWOW_t;
typedef struct curandStateXORWOW curandState_t;
typedef struct curandStateXORWOW curandState;

struct curandStatePhilox4_32_10 {
  uint4 ctr, output;
  uint2 key;
  unsigned int STATE;
  int boxmuller_flag, boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;

struct curandStateMRG32k3a {
  unsigned int s1[3], s2[3];
  int boxmuller_flag, boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStateMRG32k3a curandStateMRG32k3a_t;

struct curandStateSobol32 {
  unsigned int i, x, c;
  unsigned int direction_vectors[32];
};
typedef struct curandStateSobol32 curandStateSobol32_t;
struct curandStateScrambledSobol32 {
  unsigned int i, x, c;
  unsigned int direction_vectors[32];
};
typedef struct curandStateScrambledSobol32 curandStateScrambledSobol32_t;
struct curandStateSobol64 {
  unsigned long long i, x, c;
  unsigned long long direction_vectors[64];
};
typedef struct curandStateSobol64 curandStateSobol64_t;
struct curandStateScrambledSobol64 {
  unsigned long long i, x, c;
  unsigned long long direction_vectors[64];
};
typedef struct curandStateScrambledSobol64 curandStateScrambledSobol64_t;

struct mtgp32_kernel_params;
struct curandStateMtgp32 {
  unsigned int s[1024];
  int offset, pIdx;
  struct mtgp32_kernel_params *k;
};
typedef struct curandStateMtgp32 curandStateMtgp32_t;

// Initialization: pseudo-random states from a seed, subsequence and offset;
// quasi-random ones from direction vectors and an offset.
#define GPURACE_CURAND_PSEUDO(S)                                               \
  __device__ void curand_init(unsigned long long seed,                         \
                              unsigned long long subsequence,                  \
                              unsigned long long offset, S *state);            \
  __device__ unsigned int curand(S *state);                                    \
  __device__ float curand_uniform(S *state);                                   \
  __device__ double curand_uniform_double(S *state);                           \
  __device__ float curand_normal(S *state);                                    \
  __device__ double curand_normal_double(S *state);                            \
  __device__ float2 curand_normal2(S *state);                                  \
  __device__ double2 curand_normal2_double(S *state);                          \
  __device__ float curand_log_normal(S *state, float mean, float stddev);      \
  __device__ double curand_log_normal_double(S *state, double mean,            \
                                             double stddev);                   \
  __device__ unsigned int curand_poisson(S *state, double lambda);             \
  __device__ void skipahead(unsigned long long n, S *state);                   \
  __device__ void skipahead_sequence(unsigned long long n, S *state);
GPURACE_CURAND_PSEUDO(curandStateXORWOW)
GPURACE_CURAND_PSEUDO(curandStatePhilox4_32_10)
GPURACE_CURAND_PSEUDO(curandStateMRG32k3a)
#undef GPURACE_CURAND_PSEUDO
__device__ uint4 curand4(curandStatePhilox4_32_10 *state);
__device__ float4 curand_uniform4(curandStatePhilox4_32_10 *state);
__device__ float4 curand_normal4(curandStatePhilox4_32_10 *state);
__device__ double2 curand_uniform2_double(curandStatePhilox4_32_10 *state);
__device__ void skipahead_subsequence(unsigned long long n,
                                      curandStateMRG32k3a *state);

#define GPURACE_CURAND_QUASI(S, T)                                          \
  __device__ T curand(S *state);                                               \
  __device__ float curand_uniform(S *state);                                   \
  __device__ double curand_uniform_double(S *state);                           \
  __device__ float curand_normal(S *state);                                    \
  __device__ double curand_normal_double(S *state);                            \
  __device__ float curand_log_normal(S *state, float mean, float stddev);      \
  __device__ double curand_log_normal_double(S *state, double mean,            \
                                             double stddev);                   \
  __device__ unsigned int curand_poisson(S *state, double lambda);             \
  __device__ void skipahead(T n, S *state);
GPURACE_CURAND_QUASI(curandStateSobol32, unsigned int)
GPURACE_CURAND_QUASI(curandStateScrambledSobol32, unsigned int)
GPURACE_CURAND_QUASI(curandStateSobol64, unsigned long long)
GPURACE_CURAND_QUASI(curandStateScrambledSobol64, unsigned long long)
#undef GPURACE_CURAND_QUASI
__device__ void curand_init(curandDirectionVectors32_t direction_vectors,
                            unsigned int offset, curandStateSobol32 *state);
__device__ void curand_init(curandDirectionVectors32_t direction_vectors,
                            unsigned int scramble_c, unsigned int offset,
                            curandStateScrambledSobol32 *state);
__device__ void curand_init(curandDirectionVectors64_t direction_vectors,
                            unsigned long long offset,
                            curandStateSobol64 *state);
__device__ void curand_init(curandDirectionVectors64_t direction_vectors,
                            unsigned long long scramble_c,
                            unsigned long long offset,
                            curandStateScrambledSobol64 *state);

__device__ unsigned int curand(curandStateMtgp32 *state);
__device__ float curand_uniform(curandStateMtgp32 *state);
__device__ float curand_normal(curandStateMtgp32 *state);

#endif
