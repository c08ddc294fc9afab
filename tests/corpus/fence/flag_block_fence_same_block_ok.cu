// category: fence
// expect: race-free
// needs: sync-semantics
// source: ScoR microbenchmarks (fences)
// Producer and consumer are lanes of two warps of the same block, so
// block-scope fences around the flag are enough.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void handoff(int *data, int *flag, int *out) {
  if (threadIdx.x == 0) {
    data[blockIdx.x] = 42;
    __threadfence_block();
    atomicExch_block(&flag[blockIdx.x], 1);
  } else if (threadIdx.x == 32) {
    while (atomicAdd_block(&flag[blockIdx.x], 0) == 0) {
    }
    __threadfence_block();
    out[blockIdx.x] = data[blockIdx.x];
  }
}

int main() {
  const int blocks = 4;
  int *data, *flag, *out;
  cudaMalloc(&data, blocks * sizeof(int));
  cudaMalloc(&flag, blocks * sizeof(int));
  cudaMalloc(&out, blocks * sizeof(int));
  cudaMemset(flag, 0, blocks * sizeof(int));
  handoff<<<blocks, 64>>>(data, flag, out);
  int result[blocks];
  cudaMemcpy(result, out, sizeof(result), cudaMemcpyDeviceToHost);
  printf("received %d\n", result[0]);
  cudaFree(data);
  cudaFree(flag);
  cudaFree(out);
  return 0;
}
