// category: loop-induction
// expect: race-free
// source: persistent-block image kernels that walk a 2D grid of tiles
// A fixed number of blocks walks every tile of a 2D image: block b takes
// tiles b, b + gridDim.x, b + 2 * gridDim.x, ... and reads each tile index
// as a column (index % tilesX) and a row (index / tilesX). Distinct
// (block, iteration) pairs give distinct tile indices, distinct tiles
// distinct (row, column) pairs, and inside a tile each thread owns one
// pixel, so each pixel of the image is written by one thread. The second
// pass reads the whole pixel and writes back one field of it, the thread's
// own.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void shadeTiles(uchar4 *image, int width, int height, int tilesX,
                           int tileCount, int pass) {
  for (unsigned int tile = blockIdx.x; tile < tileCount; tile += gridDim.x) {
    unsigned int column = tile % tilesX;
    unsigned int row = tile / tilesX;
    const int x = blockDim.x * column + threadIdx.x;
    const int y = blockDim.y * row + threadIdx.y;
    if (x < width && y < height) {
      int pixel = width * y + x;
      unsigned char level = (unsigned char)((x ^ y) & 0xff);
      if (pass == 0) {
        image[pixel] = make_uchar4(level, level, level, 0);
      } else {
        uchar4 old = image[pixel];
        image[pixel].x = (unsigned char)((old.x * pass + level) / (pass + 1));
      }
    }
  }
}

static int tilesAlong(int extent, int tile) { return (extent + tile - 1) / tile; }

int main() {
  const int width = 640, height = 480;
  dim3 threads(16, 16);
  int tilesX = tilesAlong(width, threads.x);
  int tileCount = tilesX * tilesAlong(height, threads.y);
  uchar4 *image;
  cudaMalloc(&image, width * height * sizeof(uchar4));
  for (int pass = 0; pass < 2; ++pass)
    shadeTiles<<<30, threads>>>(image, width, height, tilesX, tileCount, pass);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(image);
  return 0;
}
