// category: host-values
// expect: race-free
// source: launch sizes from small host helpers (rounded-up division, a clamp)
// The block size is what `threadsFor` returns (an early return, then the
// host `min` against the tile) and the grid is `divUp(n, threads)`: every
// block covers at most one tile, so no two threads scale the same element.
#include <cstdio>
#include <cuda_runtime.h>

#define TILE 16

__global__ void scaleRow(float *row, int n) {
  int i = blockIdx.x * TILE + threadIdx.x;
  if (i < n)
    row[i] *= 2.0f;
}

static int divUp(int total, int part) {
  return (total % part != 0) ? (total / part + 1) : (total / part);
}

static int threadsFor(int requested) {
  if (requested <= 0)
    return TILE;
  return min(requested, TILE);
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
