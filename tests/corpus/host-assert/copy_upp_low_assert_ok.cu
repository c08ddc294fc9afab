// category: host-assert
// expect: race-free
// needs: host-facts
// source: Kaldi copyUppLow (HGRD Fig. 1)
// Mirrors the upper triangle of a matrix into the lower one. Only square
// matrices keep the written and read triangles apart, and the host asserts
// that before the launch.
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void copyUppLowKernel(float *A, int rows, int cols) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < cols && j < rows && j > i)
    A[j * cols + i] = A[i * cols + j];
}

void copyUppLow(float *A, int rows, int cols) {
  assert(rows == cols);
  dim3 block(16, 16);
  dim3 grid((cols + 15) / 16, (rows + 15) / 16);
  copyUppLowKernel<<<grid, block>>>(A, rows, cols);
}

int main(int argc, char **argv) {
  int rows = argc > 2 ? atoi(argv[1]) : 64;
  int cols = argc > 2 ? atoi(argv[2]) : 64;
  float *A;
  cudaMalloc(&A, (size_t)rows * cols * sizeof(float));
  cudaMemset(A, 0, (size_t)rows * cols * sizeof(float));
  copyUppLow(A, rows, cols);
  cudaDeviceSynchronize();
  cudaFree(A);
  printf("done\n");
  return 0;
}
