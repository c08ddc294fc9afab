// category: loop-induction
// source: grid-stride loops written as while loops (initialisation kernels)
// The step is one block's width instead of the whole grid's: block 0's
// second iteration lands on block 1's first, and both scale the element.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void scaleAll(float *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  while (i < n) {
    data[i] = data[i] * 0.5f; // expect-race(a): inter-block
    i += blockDim.x;
  }
}

int main() {
  const int n = 1 << 16;
  float *data;
  cudaMalloc(&data, n * sizeof(float));
  cudaMemset(data, 0, n * sizeof(float));
  scaleAll<<<32, 128>>>(data, n);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(data);
  return 0;
}
