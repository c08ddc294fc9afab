// category: scoped-atomic
// needs: sync-semantics
// source: scatter/reduce kernels that write their atomics with nvcc's
// __nv_atomic_* builtins (CUDA 12.8 on), a compare-and-swap loop for
// floating-point maxima and a fetch-add for counts
// The counts are added with block scope while every block of the grid adds
// into the same bins: the adds of two blocks are not atomic to each other.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void countKeys(const int *keys, int n, int *bins, int nbins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int bin = keys[i] % nbins;
  if (bin < 0)
    bin += nbins;
  __nv_atomic_fetch_add(&bins[bin], 1, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_BLOCK); // expect-race(a): scoped
}

int main() {
  const int n = 1 << 14, nbins = 64;
  int *keys, *bins;
  cudaMalloc(&keys, n * sizeof(int));
  cudaMalloc(&bins, nbins * sizeof(int));
  cudaMemset(keys, 0, n * sizeof(int));
  cudaMemset(bins, 0, nbins * sizeof(int));
  countKeys<<<n / 256, 256>>>(keys, n, bins, nbins);
  int host[nbins];
  cudaMemcpy(host, bins, sizeof(host), cudaMemcpyDeviceToHost);
  printf("bin 0: %d\n", host[0]);
  cudaFree(keys);
  cudaFree(bins);
  return 0;
}
