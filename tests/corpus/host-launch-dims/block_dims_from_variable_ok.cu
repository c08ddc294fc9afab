// category: host-launch-dims
// expect: race-free
// needs: host-facts
// A 2D launch whose block shape comes from host variables: each block
// writes a tile of blockDim.x columns, and the tile width passed to the
// kernel is the same constant, so tiles do not overlap.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void fillTiles(int *out, int tileWidth, int rowLength) {
  int col = blockIdx.x * tileWidth + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  out[row * rowLength + col] = row + col;
}

int main() {
  const int tileW = 32, tileH = 8;
  const int tilesX = 16, tilesY = 16;
  int *out;
  cudaMalloc(&out, tilesX * tileW * tilesY * tileH * sizeof(int));
  dim3 block(tileW, tileH);
  dim3 grid(tilesX, tilesY);
  fillTiles<<<grid, block>>>(out, tileW, tilesX * tileW);
  cudaDeviceSynchronize();
  cudaFree(out);
  printf("done\n");
  return 0;
}
