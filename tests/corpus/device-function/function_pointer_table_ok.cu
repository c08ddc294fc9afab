// category: device-function
// expect: race-free
// source: filter tables of device function pointers (image-processing samples)
// The kernel applies one of two point operations through a __device__ table
// of function pointers; each operation touches only the calling thread's
// own element, whichever the table entry holds.
#include <cstdio>
#include <cuda_runtime.h>

typedef void (*pointOp)(float *, int);

__device__ void scaleInPlace(float *data, int i) { data[i] = data[i] * 0.5f; }
__device__ void clampInPlace(float *data, int i) { data[i] = data[i] > 1.0f ? 1.0f : data[i]; }

__device__ pointOp pointOps[2] = {scaleInPlace, clampInPlace};

__global__ void applyPointOp(float *data, int n, int which) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    pointOps[which](data, i);
}

int main() {
  const int n = 1 << 16;
  float *data;
  cudaMalloc(&data, n * sizeof(float));
  cudaMemset(data, 0, n * sizeof(float));
  applyPointOp<<<n / 256, 256>>>(data, n, 1);
  float first;
  cudaMemcpy(&first, data, sizeof(float), cudaMemcpyDeviceToHost);
  printf("data[0] = %f\n", first);
  cudaFree(data);
  return 0;
}
