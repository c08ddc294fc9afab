// category: host-values
// expect: race-free
// needs: host-facts
// source: samples that compute launch sizes in a helper with out-parameters
// The block and grid sizes come from a helper that writes them through
// pointers (`block->x = ...`), and the tile width through a reference.
// The kernel's stride is the tile width the helper chose, which is the
// block's width: every thread writes its own element.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void zeroTiles(float *data, int tile) {
  data[blockIdx.x * tile + threadIdx.x] = 0.0f;
}

void chooseSizes(int n, dim3 *grid, dim3 *block, int &tile) {
  tile = 128;
  block->x = tile;
  block->y = 1;
  block->z = 1;
  *grid = dim3(n / tile, 1, 1);
}

int main() {
  const int n = 1 << 16;
  dim3 grid, block;
  int tile = 0;
  chooseSizes(n, &grid, &block, tile);
  float *data;
  cudaMalloc(&data, n * sizeof(float));
  zeroTiles<<<grid, block>>>(data, tile);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(data);
  return 0;
}
