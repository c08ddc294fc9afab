// category: host-launch-dims
// source: CUDA samples reduction, final pass launched with the wrong grid
// The final pass is launched with as many blocks as the first pass, so
// thread 0 of every block stores to the single result.
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
    out[0] = sdata[0]; // expect-race(a): inter-block
}

int main() {
  const int n = 1 << 20;
  const int blocks = (n + THREADS - 1) / THREADS;
  float *in, *result;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&result, sizeof(float));
  cudaMemset(in, 0, n * sizeof(float));
  reduceBlocks<<<blocks, THREADS>>>(in, result, n);
  float sum;
  cudaMemcpy(&sum, result, sizeof(float), cudaMemcpyDeviceToHost);
  printf("sum = %f\n", sum);
  cudaFree(in);
  cudaFree(result);
  return 0;
}
