// category: loop-induction
// source: blocked matrix kernels that advance tile pointers (a += aStep)
// The pointer advances by one block's width, so a thread of block 1 at its
// first step writes where a thread of block 0 writes at its second.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void accumulateRows(int *acc, int n, int steps) {
  int *p = acc + blockIdx.x * blockDim.x + threadIdx.x;
  for (int s = 0; s < steps; ++s) {
    *p += s; // expect-race(a): inter-block
    p += blockDim.x;
  }
}

int main() {
  const int n = 1 << 16;
  int *acc;
  cudaMalloc(&acc, 2 * n * sizeof(int));
  cudaMemset(acc, 0, 2 * n * sizeof(int));
  accumulateRows<<<n / 256, 256>>>(acc, n, 4);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(acc);
  return 0;
}
