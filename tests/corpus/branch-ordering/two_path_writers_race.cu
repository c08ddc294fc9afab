// category: branch-ordering
// source: BARRACUDA branch-ordering races
// Lane 0 and lane 16 of each warp store different values to the warp's
// result on the two sides of a branch; which store survives depends on the
// order in which the warp runs the paths.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void warpFlags(const float *x, int *flags) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  int warp = g / 32;
  if (lane == 0)
    flags[warp] = x[g] > 0.0f; // expect-race(a): intra-warp
  else if (lane == 16)
    flags[warp] = x[g] < 0.0f; // expect-race(a): intra-warp
}

int main() {
  const int threads = 128, blocks = 8, n = threads * blocks;
  float *x;
  int *flags;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&flags, (n / 32) * sizeof(int));
  cudaMemset(x, 0, n * sizeof(float));
  warpFlags<<<blocks, threads>>>(x, flags);
  cudaDeviceSynchronize();
  cudaFree(x);
  cudaFree(flags);
  printf("done\n");
  return 0;
}
