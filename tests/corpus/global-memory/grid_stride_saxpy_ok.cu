// category: global-memory
// expect: race-free
// SAXPY with a grid-stride loop: thread g touches g, g + stride, ...
#include <cstdio>
#include <cuda_runtime.h>

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int stride = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    y[i] = a * x[i] + y[i];
}

int main() {
  const int n = 1 << 22;
  float *x, *y;
  cudaMallocManaged(&x, n * sizeof(float));
  cudaMallocManaged(&y, n * sizeof(float));
  for (int i = 0; i < n; ++i) {
    x[i] = 1.0f;
    y[i] = 2.0f;
  }
  saxpy<<<80, 256>>>(n, 2.0f, x, y);
  cudaDeviceSynchronize();
  printf("y[0] = %f\n", y[0]);
  cudaFree(x);
  cudaFree(y);
  return 0;
}
