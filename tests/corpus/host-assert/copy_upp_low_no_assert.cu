// category: host-assert
// source: Kaldi copyUppLow without the square-matrix assert
// Without the assert the host accepts rectangular matrices, for which a
// thread's read position can be another thread's write position (rows = 8,
// cols = 4: thread (0,4) reads A[4], thread (0,1) writes it).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void copyUppLowKernel(float *A, int rows, int cols) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < cols && j < rows && j > i)
    A[j * cols + i] = A[i * cols + j]; // expect-race(a): intra-block
}

void copyUppLow(float *A, int rows, int cols) {
  dim3 block(16, 16);
  dim3 grid((cols + 15) / 16, (rows + 15) / 16);
  copyUppLowKernel<<<grid, block>>>(A, rows, cols);
}

int main(int argc, char **argv) {
  int rows = argc > 2 ? atoi(argv[1]) : 8;
  int cols = argc > 2 ? atoi(argv[2]) : 4;
  float *A;
  cudaMalloc(&A, (size_t)rows * cols * sizeof(float));
  cudaMemset(A, 0, (size_t)rows * cols * sizeof(float));
  copyUppLow(A, rows, cols);
  cudaDeviceSynchronize();
  cudaFree(A);
  printf("done\n");
  return 0;
}
