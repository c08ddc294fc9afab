// category: host-launch-dims
// source: benchmark drivers that pick each kernel variant through a function pointer
// The second variant was written for 128 threads a block, but the launch
// through the pointer gives every variant 256: thread 128 of block 0 and
// thread 0 of block 1 offset the same element.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void scaleElements(float *data, int n) {
  int i = blockIdx.x * 256 + threadIdx.x;
  if (i < n)
    data[i] *= 2.0f;
}

__global__ void offsetElements(float *data, int n) {
  int i = blockIdx.x * 128 + threadIdx.x;
  if (i < n)
    data[i] += 1.0f; // expect-race(a): inter-block
}

int main() {
  const int n = 1 << 20;
  float *data;
  cudaMalloc(&data, n * sizeof(float));
  cudaMemset(data, 0, n * sizeof(float));
  void (*kernel)(float *, int) = nullptr;
  for (int variant = 0; variant < 2; ++variant) {
    switch (variant) {
    case 0:
      kernel = &scaleElements;
      break;
    default:
      kernel = &offsetElements;
      break;
    }
    kernel<<<n / 256, 256>>>(data, n);
    cudaDeviceSynchronize();
  }
  printf("done\n");
  cudaFree(data);
  return 0;
}
