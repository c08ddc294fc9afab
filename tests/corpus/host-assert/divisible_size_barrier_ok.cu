// category: host-assert
// expect: race-free
// needs: host-facts
// Out-of-range threads return before a barrier; the host asserts that n is
// a multiple of the block size, so no block has out-of-range threads and
// every thread reaches the barrier.
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define BLOCK 256

__global__ void blockNormalize(float *x, int n) {
  __shared__ float peak;
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= n)
    return;
  if (threadIdx.x == 0)
    peak = x[blockIdx.x * blockDim.x];
  __syncthreads();
  x[g] /= peak;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 4096;
  assert(n > 0 && n % BLOCK == 0);
  float *x;
  cudaMalloc(&x, n * sizeof(float));
  cudaMemset(x, 0, n * sizeof(float));
  blockNormalize<<<n / BLOCK, BLOCK>>>(x, n);
  cudaDeviceSynchronize();
  cudaFree(x);
  printf("done\n");
  return 0;
}
