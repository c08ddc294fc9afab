// category: shared-memory
// expect: race-free
// needs: sync-semantics
// A per-block counter in shared memory: thread 0 clears it, the barrier
// orders the clear before the atomic increments, and a second barrier orders
// them before thread 0 reads the total.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void countPositive(const float *values, int n, int *perBlock) {
  __shared__ int total;
  int t = threadIdx.x;
  int g = blockIdx.x * blockDim.x + t;
  if (t == 0)
    total = 0;
  __syncthreads();
  if (g < n && values[g] > 0.0f)
    atomicAdd(&total, 1);
  __syncthreads();
  if (t == 0)
    perBlock[blockIdx.x] = total;
}

int main() {
  const int n = 10000, threads = 256;
  const int blocks = (n + threads - 1) / threads;
  float *values;
  int *perBlock;
  cudaMalloc(&values, n * sizeof(float));
  cudaMalloc(&perBlock, blocks * sizeof(int));
  cudaMemset(values, 0, n * sizeof(float));
  countPositive<<<blocks, threads>>>(values, n, perBlock);
  int *host = new int[blocks];
  cudaMemcpy(host, perBlock, blocks * sizeof(int), cudaMemcpyDeviceToHost);
  printf("block 0: %d positive\n", host[0]);
  delete[] host;
  cudaFree(values);
  cudaFree(perBlock);
  return 0;
}
