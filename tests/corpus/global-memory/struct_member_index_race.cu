// category: global-memory
// A struct passed by value carries the row length; the kernel indexes with
// a member that the host sets to half the real width, so rows overlap
// (each block stores its row number).
#include <cstdio>
#include <cuda_runtime.h>

struct Image {
  float *pixels;
  int width;
  int height;
};

__global__ void clear(Image img, int columns) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y;
  if (x < columns && y < img.height)
    img.pixels[y * img.width + x] = y; // expect-race(a): inter-block
}

int main() {
  const int width = 512, height = 64;
  Image img;
  cudaMalloc(&img.pixels, width * height * sizeof(float));
  img.width = width / 2;
  img.height = height;
  clear<<<dim3(width / 128, height), 128>>>(img, width);
  cudaDeviceSynchronize();
  cudaFree(img.pixels);
  printf("cleared\n");
  return 0;
}
