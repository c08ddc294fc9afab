// category: thread-local
// The row index is taken from the block only: threads of one row of a
// block store their own row numbers to the same pixel.
#include <cstdio>
#include <cuda_runtime.h>

struct Coord {
  int x, y;
};

__global__ void fill(float *image, int width, int height) {
  Coord c = {(int)(blockIdx.x * blockDim.x + threadIdx.x), (int)blockIdx.y};
  Coord at;
  at = c;
  if (at.x < width && at.y < height)
    image[at.y * width + at.x] = threadIdx.y; // expect-race(a): intra-block
}

int main() {
  const int width = 512, height = 256;
  float *image;
  cudaMalloc(&image, width * height * sizeof(float));
  dim3 block(16, 16);
  dim3 grid(width / 16, height / 16);
  fill<<<grid, block>>>(image, width, height);
  cudaDeviceSynchronize();
  cudaFree(image);
  printf("done\n");
  return 0;
}
