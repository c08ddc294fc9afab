// category: device-function
// The kernel passes a pointer to its block's row into a device function
// that smooths the row in place: lane i writes row[i] while lane i + 1
// reads it as its left neighbour.
#include <cstdio>
#include <cuda_runtime.h>

__device__ void smoothInPlace(float *row, int i) {
  row[i] = 0.5f * (row[i - 1] + row[i + 1]); // expect-race(a): intra-warp
}

__global__ void smoothRows(float *image, int width) {
  int i = threadIdx.x;
  if (i > 0 && i < width - 1)
    smoothInPlace(image + blockIdx.x * width, i);
}

int main() {
  const int width = 256, height = 128;
  float *image;
  cudaMalloc(&image, width * height * sizeof(float));
  cudaMemset(image, 0, width * height * sizeof(float));
  smoothRows<<<height, width>>>(image, width);
  cudaDeviceSynchronize();
  cudaFree(image);
  printf("done\n");
  return 0;
}
