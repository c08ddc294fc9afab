// category: barrier-divergence
// Whether a thread reaches the barrier depends on the value it loaded.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void clampNegative(float *x) {
  __shared__ float tile[128];
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  float v = x[g];
  if (v < 0.0f) {
    tile[threadIdx.x] = 0.0f;
    __syncthreads(); // expect-divergence: barrier-divergence
    x[g] = tile[threadIdx.x];
  }
}

int main() {
  const int n = 128 * 64;
  float *x;
  cudaMalloc(&x, n * sizeof(float));
  cudaMemset(x, 0, n * sizeof(float));
  clampNegative<<<64, 128>>>(x);
  cudaDeviceSynchronize();
  cudaFree(x);
  printf("done\n");
  return 0;
}
