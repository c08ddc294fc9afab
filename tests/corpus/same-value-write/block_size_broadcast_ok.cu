// category: same-value-write
// expect: race-free
// source: kernels that record a launch-wide value from every thread
// Every thread of a block writes the block's row length, a value computed
// only from the launch and a parameter, into the block's slot: all the
// threads of the block store the same number.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void recordRowLength(int *row_length, float *data, int cols) {
  int row = blockIdx.x;
  int t = threadIdx.x;
  row_length[row] = cols / blockDim.x * blockDim.x;
  for (int c = t; c < cols; c += blockDim.x)
    data[row * cols + c] *= 0.5f;
}

int main() {
  const int rows = 64, cols = 1024;
  int *row_length;
  float *data;
  cudaMalloc(&row_length, rows * sizeof(int));
  cudaMalloc(&data, rows * cols * sizeof(float));
  cudaMemset(data, 0, rows * cols * sizeof(float));
  recordRowLength<<<rows, 128>>>(row_length, data, cols);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(row_length);
  cudaFree(data);
  return 0;
}
