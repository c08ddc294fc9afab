// category: device-function
// Compaction through a helper that moves one element: thread i moves
// data[i + 1] into data[i] while thread i + 1 overwrites data[i + 1].
#include <cstdio>
#include <cuda_runtime.h>

__device__ void moveElement(int *dst, const int *src) {
  *dst = *src; // expect-race(a): intra-warp
}

__global__ void dropFirst(int *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n - 1)
    moveElement(&data[i], &data[i + 1]);
}

int main() {
  const int n = 4096;
  int *data;
  cudaMalloc(&data, n * sizeof(int));
  cudaMemset(data, 0, n * sizeof(int));
  dropFirst<<<n / 256, 256>>>(data, n);
  cudaDeviceSynchronize();
  cudaFree(data);
  printf("done\n");
  return 0;
}
