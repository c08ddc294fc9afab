// category: host-relation
// expect: race-free
// needs: host-facts
// A struct passed by value carries the image's row length and height; the
// host fills it with the real width, so rows do not overlap. The kernel
// alone cannot tell img.width from any smaller number.
#include <cstdio>
#include <cuda_runtime.h>

struct Image {
  float *pixels;
  int width;
  int height;
};

__global__ void brighten(Image img, int columns, float gain) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y;
  if (x < columns && y < img.height)
    img.pixels[y * img.width + x] *= gain;
}

int main() {
  const int width = 512, height = 64;
  Image img = {nullptr, width, height};
  cudaMalloc(&img.pixels, width * height * sizeof(float));
  cudaMemset(img.pixels, 0, width * height * sizeof(float));
  brighten<<<dim3(width / 128, height), 128>>>(img, width, 1.5f);
  cudaDeviceSynchronize();
  cudaFree(img.pixels);
  printf("done\n");
  return 0;
}
