// category: host-launch-dims
// needs: host-facts
// source: image kernels that size the grid from the block's members
// The grid's x field is assigned after the declaration, rounded up to
// whole blocks of 48 threads: 4096 is not a multiple of 48, so the last
// block reaches past the row, and its thread at x == w writes the slot
// thread 0 writes.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void brightenRowUnguarded(float *row, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  row[x] = row[x] * 1.25f; // expect-race(a): inter-block
  if (x == 0)
    row[w] = 0.0f; // expect-race(a): inter-block
}

int main() {
  const int w = 4096;
  float *row;
  cudaMalloc(&row, 2 * w * sizeof(float));
  cudaMemset(row, 0, 2 * w * sizeof(float));
  dim3 block;
  block.x = 48;
  dim3 grid;
  grid.x = (w + block.x - 1) / block.x;
  brightenRowUnguarded<<<grid, block>>>(row, w);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(row);
  return 0;
}
