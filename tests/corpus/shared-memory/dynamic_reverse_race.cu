// category: shared-memory
// source: CUDA blog "Using Shared Memory" (dynamicReverse), barrier removed
// Reverses each block's segment through dynamically sized shared memory.
// Without the barrier a thread reads the mirrored slot before its owner (in
// another warp) has written it.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void dynamicReverse(int *d, int n) {
  extern __shared__ int s[];
  int t = threadIdx.x;
  int tr = blockDim.x - t - 1;
  s[t] = d[blockIdx.x * blockDim.x + t]; // expect-race(a): intra-block
  d[blockIdx.x * blockDim.x + t] = s[tr]; // expect-race(a): intra-block
}

int main() {
  const int threads = 256, blocks = 4, n = threads * blocks;
  int host[n];
  for (int i = 0; i < n; ++i)
    host[i] = i;
  int *d;
  cudaMalloc(&d, n * sizeof(int));
  cudaMemcpy(d, host, n * sizeof(int), cudaMemcpyHostToDevice);
  dynamicReverse<<<blocks, threads, threads * sizeof(int)>>>(d, n);
  cudaMemcpy(host, d, n * sizeof(int), cudaMemcpyDeviceToHost);
  printf("d[0] = %d\n", host[0]);
  cudaFree(d);
  return 0;
}
