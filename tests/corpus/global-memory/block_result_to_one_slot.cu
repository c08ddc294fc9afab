// category: global-memory
// Each block computes a partial maximum and its thread 0 stores it into the
// single result slot: blocks overwrite each other's results.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void blockMax(const float *x, int n, float *result) {
  __shared__ float best[256];
  int t = threadIdx.x;
  int g = blockIdx.x * blockDim.x + t;
  best[t] = g < n ? x[g] : -1e30f;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s)
      best[t] = fmaxf(best[t], best[t + s]);
    __syncthreads();
  }
  if (t == 0)
    *result = best[0]; // expect-race(a): inter-block
}

int main() {
  const int n = 4096;
  float *x, *result;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&result, sizeof(float));
  cudaMemset(x, 0, n * sizeof(float));
  blockMax<<<n / 256, 256>>>(x, n, result);
  float max;
  cudaMemcpy(&max, result, sizeof(float), cudaMemcpyDeviceToHost);
  printf("max = %f\n", max);
  cudaFree(x);
  cudaFree(result);
  return 0;
}
