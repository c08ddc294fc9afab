// category: host-launch-dims
// expect: race-free
// needs: host-facts
// source: CUDA samples reduction (final pass, HGRD Table 3 "reduction")
// Two-pass sum. The second pass writes the single result from thread 0 of
// every block, which is safe only because the host launches it with one
// block.
#include <cstdio>
#include <cuda_runtime.h>

#define THREADS 256

__global__ void reduceBlocks(const float *in, float *out, int n) {
  __shared__ float sdata[THREADS];
  int t = threadIdx.x;
  float sum = 0.0f;
  for (int i = blockIdx.x * THREADS + t; i < n; i += THREADS * gridDim.x)
    sum += in[i];
  sdata[t] = sum;
  __syncthreads();
  for (int s = THREADS / 2; s > 0; s /= 2) {
    if (t < s)
      sdata[t] += sdata[t + s];
    __syncthreads();
  }
  if (t == 0)
    out[0] = sdata[0];
}

__global__ void partialSums(const float *in, float *partial, int n) {
  __shared__ float sdata[THREADS];
  int t = threadIdx.x;
  int i = blockIdx.x * THREADS + t;
  sdata[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int s = THREADS / 2; s > 0; s /= 2) {
    if (t < s)
      sdata[t] += sdata[t + s];
    __syncthreads();
  }
  if (t == 0)
    partial[blockIdx.x] = sdata[0];
}

int main() {
  const int n = 1 << 20;
  const int blocks = (n + THREADS - 1) / THREADS;
  float *in, *partial, *result;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&partial, blocks * sizeof(float));
  cudaMalloc(&result, sizeof(float));
  cudaMemset(in, 0, n * sizeof(float));
  partialSums<<<blocks, THREADS>>>(in, partial, n);
  reduceBlocks<<<1, THREADS>>>(partial, result, blocks);
  float sum;
  cudaMemcpy(&sum, result, sizeof(float), cudaMemcpyDeviceToHost);
  printf("sum = %f\n", sum);
  cudaFree(in);
  cudaFree(partial);
  cudaFree(result);
  return 0;
}
