// category: device-function
// expect: race-free
// A device function scales one element of a row; the kernel hands it the
// row of its block through a pointer offset.
#include <cstdio>
#include <cuda_runtime.h>

__device__ void scaleElement(float *row, int i, float factor) {
  row[i] = row[i] * factor;
}

__device__ float *rowOf(float *image, int width, int y) {
  return image + y * width;
}

__global__ void normalizeRows(float *image, const float *norms, int width) {
  int x = threadIdx.x;
  int y = blockIdx.x;
  if (x < width)
    scaleElement(rowOf(image, width, y), x, 1.0f / norms[y]);
}

int main() {
  const int width = 200, height = 64;
  float *image, *norms;
  cudaMalloc(&image, width * height * sizeof(float));
  cudaMalloc(&norms, height * sizeof(float));
  cudaMemset(image, 0, width * height * sizeof(float));
  cudaMemset(norms, 0, height * sizeof(float));
  normalizeRows<<<height, 256>>>(image, norms, width);
  cudaDeviceSynchronize();
  cudaFree(image);
  cudaFree(norms);
  printf("done\n");
  return 0;
}
