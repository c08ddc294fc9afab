// category: scoped-atomic
// expect: race-free
// needs: sync-semantics
// source: ScoR microbenchmarks (atomics)
// The same counter with device-scope atomics, plus a block-scope atomic on
// a shared counter that only the block's own threads touch.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void countNonZero(const int *x, int n, int *count) {
  __shared__ int local;
  if (threadIdx.x == 0)
    local = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && x[i] != 0)
    atomicAdd_block(&local, 1);
  __syncthreads();
  if (threadIdx.x == 0)
    atomicAdd(count, local);
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
