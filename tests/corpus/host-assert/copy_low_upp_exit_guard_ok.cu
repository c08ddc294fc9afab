// category: host-assert
// expect: race-free
// needs: host-facts
// source: Kaldi copyLowUpp
// Mirrors the lower triangle into the upper one; the host exits on
// non-square input before launching.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void copyLowUppKernel(float *A, int rows, int cols) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < cols && j < rows && i > j)
    A[j * cols + i] = A[i * cols + j];
}

int main(int argc, char **argv) {
  int rows = argc > 2 ? atoi(argv[1]) : 100;
  int cols = argc > 2 ? atoi(argv[2]) : 100;
  if (rows != cols) {
    fprintf(stderr, "copyLowUpp: matrix must be square (%d x %d)\n", rows,
            cols);
    exit(1);
  }
  float *A;
  cudaMalloc(&A, (size_t)rows * cols * sizeof(float));
  cudaMemset(A, 0, (size_t)rows * cols * sizeof(float));
  dim3 block(16, 16);
  dim3 grid((cols + 15) / 16, (rows + 15) / 16);
  copyLowUppKernel<<<grid, block>>>(A, rows, cols);
  cudaDeviceSynchronize();
  cudaFree(A);
  printf("done\n");
  return 0;
}
