// category: same-value-write
// source: stencil set-up kernels that clear each tile with its halo
// As in float_halo_clear_ok, but the halo cells are marked with 1.0f while
// the tile is cleared to 0.0f. Where block b's right halo is block b + 1's
// first cell, and where block b + 1's left halo is block b's last cell, two
// blocks store different constants: the cell keeps whichever lands last.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void markHalo(float *padded, int tile) {
  int base = 1 + blockIdx.x * tile; // padded[0] is the left halo of block 0
  for (int i = (int)threadIdx.x - 1; i <= tile; i += blockDim.x) {
    if (i < 0 || i == tile)
      padded[base + i] = 1.0f; // expect-race(a): inter-block
    else
      padded[base + i] = 0.0f; // expect-race(a): inter-block
  }
}

int main() {
  const int tile = 256, blocks = 64;
  float *padded;
  cudaMalloc(&padded, (tile * blocks + 2) * sizeof(float));
  markHalo<<<blocks, 128>>>(padded, tile);
  float host = 0.0f;
  cudaMemcpy(&host, padded + tile, sizeof(float), cudaMemcpyDeviceToHost);
  printf("edge: %f\n", host);
  cudaFree(padded);
  return 0;
}
