// category: host-launch-dims
// expect: race-free
// needs: host-facts
// source: image transforms (8x8 DCT, tiled filters) whose host wrapper
// keeps the block and grid shape in two-element size arrays, filled one
// element at a time, and builds the dim3s from them.
// Each block covers a 32 x 16 tile; a thread handles a column of eight
// rows, so the block is 32 x 2 threads. block[0] and block[1] are two
// elements, not one of two values: were the block 2 x 32 or 32 x 32
// threads, the tiles of neighbouring blocks would overlap.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define TILE_X 32
#define TILE_Y 16
#define ROWS_PER_THREAD 8

__global__ void scaleTiles(float *dst, const float *src, unsigned stride, unsigned height,
                           unsigned width) {
  unsigned x = blockIdx.x * TILE_X + threadIdx.x;
  unsigned y = blockIdx.y * TILE_Y + ROWS_PER_THREAD * threadIdx.y;
  if (x >= width || y + ROWS_PER_THREAD > height)
    return;
  for (unsigned i = 0; i < ROWS_PER_THREAD; i++)
    dst[(y + i) * stride + x] = 0.5f * src[(y + i) * stride + x];
}

static unsigned divUp(unsigned a, unsigned b) { return a / b + (a % b != 0); }

void scaleImage(float *dst, const float *src, unsigned stride, unsigned height,
                unsigned width) {
  size_t block[2];
  size_t grid[2];
  block[0] = TILE_X;
  block[1] = TILE_Y / ROWS_PER_THREAD;
  grid[0] = divUp(width, TILE_X);
  grid[1] = divUp(height, TILE_Y);
  dim3 threads(block[0], block[1]);
  dim3 blocks(grid[0], grid[1]);
  scaleTiles<<<blocks, threads>>>(dst, src, stride, height, width);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s WIDTH HEIGHT\n", argv[0]);
    return 1;
  }
  unsigned width = atoi(argv[1]), height = atoi(argv[2]);
  float *src, *dst;
  cudaMalloc(&src, (size_t)width * height * sizeof(float));
  cudaMalloc(&dst, (size_t)width * height * sizeof(float));
  scaleImage(dst, src, width, height, width);
  cudaDeviceSynchronize();
  cudaFree(src);
  cudaFree(dst);
  return 0;
}
