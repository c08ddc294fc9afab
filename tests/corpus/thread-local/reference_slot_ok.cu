// category: thread-local
// expect: race-free
// Each thread updates its own element through a reference, and its index
// through a reference to a local.
#include <cstdio>
#include <cuda_runtime.h>

__device__ void advance(int &index, int stride) { index += stride; }

__device__ int scaled(const int &value) { return 3 * value; }

__global__ void scaleTwoHalves(int *data, int half) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < half) {
    int &slot = data[i];
    slot = scaled(slot);
    advance(i, half);
    data[i] = scaled(data[i]);
  }
}

int main() {
  const int n = 8192;
  int *data;
  cudaMalloc(&data, n * sizeof(int));
  cudaMemset(data, 0, n * sizeof(int));
  scaleTwoHalves<<<n / 2 / 256, 256>>>(data, n / 2);
  cudaDeviceSynchronize();
  cudaFree(data);
  printf("done\n");
  return 0;
}
