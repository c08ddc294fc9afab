// category: fence
// needs: sync-semantics
// source: ScoR microbenchmarks (fences within a warp, missing fence)
// The same lane-to-lane handoff without fences: nothing makes the data
// visible before the flag.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void laneHandoff(int *data, int *flag, int *out) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x % 32;
  if (lane == 0) {
    data[warp] = warp; // expect-race(a): intra-warp
    atomicExch(&flag[warp], 1);
  } else if (lane == 1) {
    while (atomicAdd(&flag[warp], 0) == 0) {
    }
    out[warp] = data[warp]; // expect-race(a): intra-warp
  }
}

int main() {
  const int blocks = 2, threads = 128, warps = blocks * threads / 32;
  int *data, *flag, *out;
  cudaMalloc(&data, warps * sizeof(int));
  cudaMalloc(&flag, warps * sizeof(int));
  cudaMalloc(&out, warps * sizeof(int));
  cudaMemset(flag, 0, warps * sizeof(int));
  laneHandoff<<<blocks, threads>>>(data, flag, out);
  int result[warps];
  cudaMemcpy(result, out, sizeof(result), cudaMemcpyDeviceToHost);
  printf("warp 3 received %d\n", result[3]);
  cudaFree(data);
  cudaFree(flag);
  cudaFree(out);
  return 0;
}
