// category: fence
// expect: race-free
// needs: sync-semantics
// source: CUDA samples threadFenceReduction, ScoR reduction
// Single-pass sum: each block stores its partial sum, fences, and takes a
// ticket; the block that takes the last ticket adds up all partial sums.
#include <cstdio>
#include <cuda_runtime.h>

#define THREADS 256

__device__ unsigned int retirementCount;

__global__ void sumSinglePass(const float *in, float *partial, float *result,
                              int n) {
  __shared__ float sdata[THREADS];
  __shared__ bool amLast;
  int t = threadIdx.x;
  int i = blockIdx.x * THREADS + t;
  sdata[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int s = THREADS / 2; s > 0; s /= 2) {
    if (t < s)
      sdata[t] += sdata[t + s];
    __syncthreads();
  }
  if (t == 0) {
    partial[blockIdx.x] = sdata[0];
    __threadfence();
    unsigned int ticket = atomicInc(&retirementCount, gridDim.x);
    amLast = ticket == gridDim.x - 1;
  }
  __syncthreads();
  if (amLast && t == 0) {
    __threadfence();
    float sum = 0.0f;
    for (int b = 0; b < gridDim.x; ++b)
      sum += partial[b];
    *result = sum;
  }
}

int main() {
  const int n = 1 << 20, blocks = n / THREADS;
  float *in, *partial, *result;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&partial, blocks * sizeof(float));
  cudaMalloc(&result, sizeof(float));
  cudaMemset(in, 0, n * sizeof(float));
  unsigned int zero = 0;
  cudaMemcpyToSymbol(retirementCount, &zero, sizeof(zero));
  sumSinglePass<<<blocks, THREADS>>>(in, partial, result, n);
  float sum;
  cudaMemcpy(&sum, result, sizeof(float), cudaMemcpyDeviceToHost);
  printf("sum = %f\n", sum);
  cudaFree(in);
  cudaFree(partial);
  cudaFree(result);
  return 0;
}
