// category: host-values
// source: launch sizes from small host helpers (rounded-up division, a clamp)
// As helper_returns_ok.cu, but the helper takes the `max` of the request
// and the tile: 64 threads per block, each block 16 elements past the
// last, so four blocks scale every element.
#include <cstdio>
#include <cuda_runtime.h>

#define TILE 16

__global__ void scaleRow(float *row, int n) {
  int i = blockIdx.x * TILE + threadIdx.x;
  if (i < n)
    row[i] *= 2.0f; // expect-race(overlap): inter-block
}

static int divUp(int total, int part) {
  return (total % part != 0) ? (total / part + 1) : (total / part);
}

static int threadsFor(int requested) {
  if (requested <= 0)
    return TILE;
  return max(requested, TILE);
}

int main() {
  const int n = 1 << 20;
  int requested = 64;
  int threads = threadsFor(requested);
  float *row;
  cudaMalloc(&row, n * sizeof(float));
  cudaMemset(row, 0, n * sizeof(float));
  scaleRow<<<divUp(n, threads), threads>>>(row, n);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(row);
  return 0;
}
