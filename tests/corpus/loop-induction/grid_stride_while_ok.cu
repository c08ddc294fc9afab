// category: loop-induction
// expect: race-free
// source: grid-stride loops written as while loops (initialisation kernels)
// Each thread starts at its global index and steps by the whole grid:
// thread g touches g, g + G, g + 2G, ... with G = blockDim.x * gridDim.x,
// so no element is touched by two threads. The index is stepped in the
// body of a while loop rather than in a for header.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void clearAndCount(float *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  while (i < n) {
    data[i] = data[i] * 0.5f;
    i += blockDim.x * gridDim.x;
  }
}

int main() {
  const int n = 1 << 20;
  float *data;
  cudaMalloc(&data, n * sizeof(float));
  cudaMemset(data, 0, n * sizeof(float));
  clearAndCount<<<64, 256>>>(data, n);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(data);
  return 0;
}
