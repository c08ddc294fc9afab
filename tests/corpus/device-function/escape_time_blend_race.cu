// category: device-function
// source: escape-time fractal renderers whose iteration helper is unrolled by hand
// The helper runs an unrolled escape-time loop that leaves by one of many
// early returns; the kernel then blends each pixel with the one to its
// left. That read races with the left neighbour's write of its own pixel
// (threads 4 and 5 of a block sit in one warp). The branch on the
// helper's result ends no path, so the accesses after it are reached by
// every thread whatever the result: their path condition does not hold the
// helper's many exits.
#include <cstdio>
#include <cuda_runtime.h>

// One unrolled step: leave with the iterations left, or iterate z.
#define ESCAPE_STEP(done)                                                      \
  if (zx2 + zy2 > 4.0f)                                                        \
    return budget - (done);                                                    \
  zy = 2.0f * zx * zy + cy;                                                    \
  zx = zx2 - zy2 + cx;                                                         \
  zx2 = zx * zx;                                                               \
  zy2 = zy * zy;

__device__ int escapeTime(float cx, float cy, int budget) {
  float zx = 0.0f, zy = 0.0f, zx2 = 0.0f, zy2 = 0.0f;
  do {
    ESCAPE_STEP(1) ESCAPE_STEP(2) ESCAPE_STEP(3) ESCAPE_STEP(4)
    ESCAPE_STEP(5) ESCAPE_STEP(6) ESCAPE_STEP(7)
    budget -= 8;
    if (budget <= 0 || zx2 + zy2 > 4.0f)
      return budget;
    ESCAPE_STEP(0)
  } while (true);
}

__global__ void blendRow(int *counts, int width, int budget) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width)
    return;
  int n = escapeTime(x * 0.003f - 2.0f, 0.5f, budget);
  if (n > 0)
    n = budget - n;
  int left = x > 0 ? counts[x - 1] : n; // expect-race(left): intra-warp
  counts[x] = (left + n) / 2;           // expect-race(left): intra-warp
}

int main() {
  const int width = 1024;
  int *counts;
  cudaMalloc(&counts, width * sizeof(int));
  cudaMemset(counts, 0, width * sizeof(int));
  blendRow<<<width / 128, 128>>>(counts, width, 256);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(counts);
  return 0;
}
