// category: thread-local
// expect: race-free
// A thread's pixel coordinates travel in a local struct to the store.
#include <cstdio>
#include <cuda_runtime.h>

struct Coord {
  int x, y;
};


__global__ void fill(float *image, int width, int height) {
  Coord c;
  c.x = blockIdx.x * blockDim.x + threadIdx.x;
  c.y = blockIdx.y * blockDim.y + threadIdx.y;
  Coord at = c;
  if (at.x < width && at.y < height)
    image[at.y * width + at.x] = 1.0f;
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
