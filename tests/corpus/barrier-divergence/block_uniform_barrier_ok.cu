// category: barrier-divergence
// expect: race-free
// Barriers under conditions that are the same for every thread of a block:
// a block-index test and a loop bound that is a kernel parameter.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void smoothActive(float *data, int activeBlocks, int passes) {
  __shared__ float s[258];
  int t = threadIdx.x + 1;
  int g = blockIdx.x * 256 + threadIdx.x;
  if (blockIdx.x < activeBlocks) {
    s[t] = data[g];
    if (threadIdx.x == 0) {
      s[0] = 0.0f;
      s[257] = 0.0f;
    }
    __syncthreads();
    for (int p = 0; p < passes; ++p) {
      float v = (s[t - 1] + s[t] + s[t + 1]) / 3.0f;
      __syncthreads();
      s[t] = v;
      __syncthreads();
    }
    data[g] = s[t];
  }
}

int main() {
  const int blocks = 32;
  float *data;
  cudaMalloc(&data, blocks * 256 * sizeof(float));
  cudaMemset(data, 0, blocks * 256 * sizeof(float));
  smoothActive<<<blocks, 256>>>(data, 20, 4);
  cudaDeviceSynchronize();
  cudaFree(data);
  printf("done\n");
  return 0;
}
