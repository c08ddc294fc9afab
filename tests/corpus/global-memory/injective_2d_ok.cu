// category: global-memory
// expect: race-free
// Scales an image in place with a 2D grid; the bounds guard keeps every
// thread inside its own pixel.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void scaleImage(float *img, int width, int height, float gain) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height)
    img[y * width + x] = img[y * width + x] * gain;
}

int main(int argc, char **argv) {
  int width = argc > 2 ? atoi(argv[1]) : 1920;
  int height = argc > 2 ? atoi(argv[2]) : 1080;
  float *img;
  cudaMalloc(&img, (size_t)width * height * sizeof(float));
  cudaMemset(img, 0, (size_t)width * height * sizeof(float));
  dim3 block(16, 16);
  dim3 grid((width + 15) / 16, (height + 15) / 16);
  scaleImage<<<grid, block>>>(img, width, height, 1.5f);
  cudaDeviceSynchronize();
  cudaFree(img);
  printf("scaled %dx%d\n", width, height);
  return 0;
}
