// category: scoped-atomic
// needs: sync-semantics
// source: ScoR microbenchmarks (atomics)
// A global counter bumped with block-scope atomics by threads of every
// block: block scope does not make the increments atomic across blocks.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void countNonZero(const int *x, int n, int *count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && x[i] != 0)
    atomicAdd_block(count, 1); // expect-race(a): scoped
}

int main() {
  const int n = 1 << 16;
  int *x, *count;
  cudaMalloc(&x, n * sizeof(int));
  cudaMalloc(&count, sizeof(int));
  cudaMemset(x, 1, n * sizeof(int));
  cudaMemset(count, 0, sizeof(int));
  countNonZero<<<n / 256, 256>>>(x, n, count);
  int host;
  cudaMemcpy(&host, count, sizeof(int), cudaMemcpyDeviceToHost);
  printf("%d non-zero\n", host);
  cudaFree(x);
  cudaFree(count);
  return 0;
}
