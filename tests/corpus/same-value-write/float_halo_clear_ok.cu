// category: same-value-write
// expect: race-free
// source: stencil set-up kernels that clear each tile with its halo
// Each block clears its tile of a padded row plus one cell on either side.
// Neighbouring blocks both clear the two cells where one's halo meets the
// other's tile, and every one of those stores writes 0.0f: the same bytes
// whichever lands last.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void clearWithHalo(float *padded, int tile) {
  int base = 1 + blockIdx.x * tile; // padded[0] is the left halo of block 0
  for (int i = (int)threadIdx.x - 1; i <= tile; i += blockDim.x)
    padded[base + i] = 0.0f;
}

int main() {
  const int tile = 256, blocks = 64;
  float *padded;
  cudaMalloc(&padded, (tile * blocks + 2) * sizeof(float));
  clearWithHalo<<<blocks, 128>>>(padded, tile);
  float host = 1.0f;
  cudaMemcpy(&host, padded + tile, sizeof(float), cudaMemcpyDeviceToHost);
  printf("edge: %f\n", host);
  cudaFree(padded);
  return 0;
}
