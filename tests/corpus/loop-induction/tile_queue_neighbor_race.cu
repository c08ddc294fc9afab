// category: loop-induction
// source: persistent-block image kernels that refine pixels unlike their neighbours
// The tiles are walked as in tile_queue_walk_ok.cu (tile index split into
// a column, index % tilesX, and a row, index / tilesX), but each thread
// compares its pixel with the pixel to its left and, where they differ,
// writes its own pixel back. The pixel to the left belongs to the next
// thread down in x, which may be writing it at that moment: with 16 x 16
// threads, threads 4 and 5 of a row sit in one warp.
#include <cstdio>
#include <cuda_runtime.h>

__device__ int unlike(uchar4 a, uchar4 b) {
  int d = (int)a.x - (int)b.x;
  return d > 8 || d < -8;
}

__global__ void refineEdges(uchar4 *image, int width, int height, int tilesX,
                            int tileCount, int pass) {
  for (unsigned int tile = blockIdx.x; tile < tileCount; tile += gridDim.x) {
    unsigned int column = tile % tilesX;
    unsigned int row = tile / tilesX;
    const int x = blockDim.x * column + threadIdx.x;
    const int y = blockDim.y * row + threadIdx.y;
    if (x < width && y < height) {
      int pixel = width * y + x;
      uchar4 own = image[pixel];
      int edges = 0;
      if (x > 0)
        edges += unlike(own, image[pixel - 1]); // expect-race(left): intra-warp
      if (edges)
        image[pixel].x = (unsigned char)((own.x * pass + 128) / (pass + 1)); // expect-race(left): intra-warp
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
  cudaMemset(image, 0, width * height * sizeof(uchar4));
  refineEdges<<<30, threads>>>(image, width, height, tilesX, tileCount, 1);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(image);
  return 0;
}
