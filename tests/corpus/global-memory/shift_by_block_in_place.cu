// category: global-memory
// Moves every element down by one block's worth in place: the element a
// thread reads belongs to the same position of the next block, which writes
// it concurrently.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void shiftDown(float *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + blockDim.x < n)
    data[i] = data[i + blockDim.x]; // expect-race(a): inter-block
}

int main() {
  const int threads = 128, blocks = 64, n = threads * blocks;
  float *data;
  cudaMalloc(&data, n * sizeof(float));
  cudaMemset(data, 0, n * sizeof(float));
  shiftDown<<<blocks, threads>>>(data, n);
  cudaDeviceSynchronize();
  cudaFree(data);
  printf("shifted\n");
  return 0;
}
