// category: global-memory
// Column sums with a 2D grid: every thread of a column adds its element
// into the column's sum with a plain read-modify-write.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void columnSums(const float *m, int rows, int cols, float *sums) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < cols && y < rows)
    sums[x] += m[y * cols + x]; // expect-race(a): intra-block
}

int main() {
  const int rows = 512, cols = 256;
  float *m, *sums;
  cudaMalloc(&m, rows * cols * sizeof(float));
  cudaMalloc(&sums, cols * sizeof(float));
  cudaMemset(m, 0, rows * cols * sizeof(float));
  cudaMemset(sums, 0, cols * sizeof(float));
  dim3 block(32, 8);
  dim3 grid(cols / 32, rows / 8);
  columnSums<<<grid, block>>>(m, rows, cols, sums);
  cudaDeviceSynchronize();
  cudaFree(m);
  cudaFree(sums);
  printf("done\n");
  return 0;
}
