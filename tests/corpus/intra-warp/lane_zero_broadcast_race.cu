// category: intra-warp
// Lane 0 of each warp publishes the warp's base offset in shared memory and
// the other lanes read it without __syncwarp.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void warpOffsets(const int *starts, int *out) {
  __shared__ int base[8];
  int lane = threadIdx.x % 32;
  int warp = threadIdx.x / 32;
  if (lane == 0)
    base[warp] = starts[blockIdx.x * 8 + warp]; // expect-race(a): intra-warp
  out[blockIdx.x * blockDim.x + threadIdx.x] = base[warp] + lane; // expect-race(a): intra-warp
}

int main() {
  const int blocks = 16, threads = 256;
  int *starts, *out;
  cudaMalloc(&starts, blocks * 8 * sizeof(int));
  cudaMalloc(&out, blocks * threads * sizeof(int));
  cudaMemset(starts, 0, blocks * 8 * sizeof(int));
  warpOffsets<<<blocks, threads>>>(starts, out);
  cudaDeviceSynchronize();
  cudaFree(starts);
  cudaFree(out);
  printf("done\n");
  return 0;
}
