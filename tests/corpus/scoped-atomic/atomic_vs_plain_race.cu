// category: scoped-atomic
// needs: sync-semantics
// source: BARRACUDA (atomics do not synchronize)
// Block 0 resets a bin with a plain store while threads of the other blocks
// increment it atomically: an atomic and a plain access to one location
// race.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void binAndReset(const int *keys, int n, int *bins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.x == 0) {
    if (threadIdx.x < 16)
      bins[threadIdx.x] = 0; // expect-race(a): inter-block
  } else if (i < n) {
    atomicAdd(&bins[keys[i] % 16], 1); // expect-race(a): inter-block
  }
}

int main() {
  const int n = 1 << 14;
  int *keys, *bins;
  cudaMalloc(&keys, n * sizeof(int));
  cudaMalloc(&bins, 16 * sizeof(int));
  cudaMemset(keys, 0, n * sizeof(int));
  binAndReset<<<n / 128, 128>>>(keys, n, bins);
  cudaDeviceSynchronize();
  cudaFree(keys);
  cudaFree(bins);
  printf("done\n");
  return 0;
}
