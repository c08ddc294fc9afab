// category: fence
// needs: sync-semantics
// source: ScoR microbenchmarks (fences across warps of a block, missing fence)
// Warp 0 produces for warp 1 of the same block through a flag, without the
// fences that would order the data around it.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void warpHandoff(int *data, int *flag, int *out) {
  if (threadIdx.x == 0) {
    data[blockIdx.x] = blockIdx.x; // expect-race(a): intra-block
    atomicExch_block(&flag[blockIdx.x], 1);
  } else if (threadIdx.x == 32) {
    while (atomicAdd_block(&flag[blockIdx.x], 0) == 0) {
    }
    out[blockIdx.x] = data[blockIdx.x]; // expect-race(a): intra-block
  }
}

int main() {
  const int blocks = 4;
  int *data, *flag, *out;
  cudaMalloc(&data, blocks * sizeof(int));
  cudaMalloc(&flag, blocks * sizeof(int));
  cudaMalloc(&out, blocks * sizeof(int));
  cudaMemset(flag, 0, blocks * sizeof(int));
  warpHandoff<<<blocks, 64>>>(data, flag, out);
  int result[blocks];
  cudaMemcpy(result, out, sizeof(result), cudaMemcpyDeviceToHost);
  printf("block 1 received %d\n", result[1]);
  cudaFree(data);
  cudaFree(flag);
  cudaFree(out);
  return 0;
}
