// category: scoped-atomic
// needs: sync-semantics
// A libcu++ atomic_ref with block scope used for a device-wide maximum.
#include <cstdio>
#include <cuda/atomic>
#include <cuda_runtime.h>

__global__ void globalMax(const int *x, int n, int *result) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  cuda::atomic_ref<int, cuda::thread_scope_block> best(*result);
  best.fetch_max(x[i]); // expect-race(a): scoped
}

int main() {
  const int n = 1 << 12;
  int *x, *result;
  cudaMalloc(&x, n * sizeof(int));
  cudaMalloc(&result, sizeof(int));
  cudaMemset(x, 0, n * sizeof(int));
  cudaMemset(result, 0, sizeof(int));
  globalMax<<<n / 256, 256>>>(x, n, result);
  int host;
  cudaMemcpy(&host, result, sizeof(int), cudaMemcpyDeviceToHost);
  printf("max %d\n", host);
  cudaFree(x);
  cudaFree(result);
  return 0;
}
