// category: host-launch-dims
// expect: race-free
// needs: host-facts
// source: benchmark drivers that pick each kernel variant through a function pointer
// The loop sets `kernel` to one variant per round in a switch and launches
// it through the pointer. Both variants index with 256 threads a block,
// which is what the launch gives: each thread scales its own element.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void scaleElements(float *data, int n) {
  int i = blockIdx.x * 256 + threadIdx.x;
  if (i < n)
    data[i] *= 2.0f;
}

__global__ void offsetElements(float *data, int n) {
  int i = blockIdx.x * 256 + threadIdx.x;
  if (i < n)
    data[i] += 1.0f;
}

int main() {
  const int n = 1 << 20;
  float *data;
  cudaMalloc(&data, n * sizeof(float));
  cudaMemset(data, 0, n * sizeof(float));
  void (*kernel)(float *, int) = nullptr;
  const char *name = "";
  for (int variant = 0; variant < 2; ++variant) {
    switch (variant) {
    case 0:
      kernel = &scaleElements;
      name = "scale";
      break;
    default:
      kernel = &offsetElements;
      name = "offset";
      break;
    }
    kernel<<<n / 256, 256>>>(data, n);
    cudaDeviceSynchronize();
    printf("%s done\n", name);
  }
  cudaFree(data);
  return 0;
}
