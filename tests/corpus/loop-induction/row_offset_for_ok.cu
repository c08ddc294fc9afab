// category: loop-induction
// expect: race-free
// source: dense linear algebra (a column of a row-major matrix per thread)
// The row offset is a second induction variable of the loop: it starts at
// 0 and grows by the row length each iteration, while the loop counter
// counts rows. Thread c only ever touches column c.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void columnScale(float *m, const float *factor, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols)
    return;
  int offset = 0;
  for (int r = 0; r < rows; ++r) {
    m[offset + c] *= factor[r];
    offset += cols;
  }
}

int main() {
  const int rows = 512, cols = 1000;
  float *m, *factor;
  cudaMalloc(&m, rows * cols * sizeof(float));
  cudaMalloc(&factor, rows * sizeof(float));
  cudaMemset(m, 0, rows * cols * sizeof(float));
  cudaMemset(factor, 0, rows * sizeof(float));
  columnScale<<<(cols + 127) / 128, 128>>>(m, factor, rows, cols);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(m);
  cudaFree(factor);
  return 0;
}
