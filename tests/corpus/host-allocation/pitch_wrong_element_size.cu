// category: host-allocation
// The host converts the pitch to elements with sizeof(double) although the
// matrix holds floats: the row stride is half a row (width 2048: x = 1024
// in row y and x = 0 in row y + 1 are the same element).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void fill(float *matrix, int stride, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height)
    matrix[y * stride + x] = static_cast<float>(x + y); // expect-race(a): inter-block
}

int main() {
  const int width = 2048, height = 512;
  float *matrix;
  size_t pitch;
  cudaMallocPitch((void **)&matrix, &pitch, width * sizeof(float), height);
  int stride = static_cast<int>(pitch / sizeof(double));
  dim3 block(32, 8);
  dim3 grid(width / 32, height / 8);
  fill<<<grid, block>>>(matrix, stride, width, height);
  cudaDeviceSynchronize();
  cudaFree(matrix);
  printf("done\n");
  return 0;
}
