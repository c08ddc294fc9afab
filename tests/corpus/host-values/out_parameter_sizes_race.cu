// category: host-values
// needs: host-facts
// source: samples that compute launch sizes in a helper with out-parameters
// As out_parameter_sizes_ok, but the helper rounds the block up to 160
// threads while the tile stays 128: the last 32 threads of each block
// write the first 32 elements of the next tile (each block its own
// number).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void zeroTiles(float *data, int tile) {
  data[blockIdx.x * tile + threadIdx.x] = blockIdx.x; // expect-race(a): inter-block
}

void chooseSizes(int n, dim3 *grid, dim3 *block, int &tile) {
  tile = 128;
  block->x = tile + 32;
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
  cudaMalloc(&data, (n + 32) * sizeof(float));
  zeroTiles<<<grid, block>>>(data, tile);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(data);
  return 0;
}
