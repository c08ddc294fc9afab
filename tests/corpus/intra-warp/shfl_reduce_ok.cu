// category: intra-warp
// expect: race-free
// Warp reduction through register shuffles; one lane per warp stores the
// warp's sum at the warp's own index.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void warpSums(const float *in, float *sums, int n) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  float v = g < n ? in[g] : 0.0f;
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  if (threadIdx.x % 32 == 0)
    sums[g / 32] = v;
}

int main() {
  const int n = 1 << 16, threads = 256;
  float *in, *sums;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&sums, (n / 32) * sizeof(float));
  cudaMemset(in, 0, n * sizeof(float));
  warpSums<<<n / threads, threads>>>(in, sums, n);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(sums);
  printf("done\n");
  return 0;
}
