// category: device-function
// expect: race-free
// A swap helper called by each thread on its own pair of elements:
// thread i swaps elements 2i and 2i + 1.
#include <cstdio>
#include <cuda_runtime.h>

__device__ void swapPair(int *a, int *b) {
  int tmp = *a;
  *a = *b;
  *b = tmp;
}

__global__ void swapAdjacent(int *data, int pairs) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < pairs)
    swapPair(&data[2 * i], &data[2 * i + 1]);
}

int main() {
  const int pairs = 5000;
  int *data;
  cudaMalloc(&data, 2 * pairs * sizeof(int));
  cudaMemset(data, 0, 2 * pairs * sizeof(int));
  swapAdjacent<<<(pairs + 255) / 256, 256>>>(data, pairs);
  cudaDeviceSynchronize();
  cudaFree(data);
  printf("done\n");
  return 0;
}
