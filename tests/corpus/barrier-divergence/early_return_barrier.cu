// category: barrier-divergence
// Out-of-range threads return early, so in the last block only some
// threads reach the barrier when n is not a multiple of the block size.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void blockNormalize(float *x, int n) {
  __shared__ float peak;
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= n)
    return;
  if (threadIdx.x == 0)
    peak = x[blockIdx.x * blockDim.x];
  __syncthreads(); // expect-divergence: barrier-divergence
  x[g] /= peak;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  float *x;
  cudaMalloc(&x, n * sizeof(float));
  cudaMemset(x, 0, n * sizeof(float));
  blockNormalize<<<(n + 255) / 256, 256>>>(x, n);
  cudaDeviceSynchronize();
  cudaFree(x);
  printf("done\n");
  return 0;
}
