// category: host-launch-dims
// expect: race-free
// needs: host-facts
// source: image kernels that size the grid from the block's members
// The grid is built from the block's own fields (`w / block.x`), and a
// second grid is copied from the first: one thread per pixel of a row,
// with the extra slot at index w written only by thread 0. The kernel
// does not guard x < w; the launch makes it true.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void brightenRow(float *row, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  row[x] = row[x] * 1.25f;
  if (x == 0)
    row[w] = 0.0f; // a terminator slot past the pixels
}

int main() {
  const int w = 4096;
  float *row;
  cudaMalloc(&row, (w + 1) * sizeof(float));
  cudaMemset(row, 0, (w + 1) * sizeof(float));
  dim3 block(8, 1, 1);
  dim3 grid(w / block.x, 1, 1);
  brightenRow<<<grid, block>>>(row, w);
  dim3 again(grid);
  brightenRow<<<again, block>>>(row, w);
  dim3 wide;
  wide = dim3(w / 32);
  brightenRow<<<wide, 32>>>(row, w);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(row);
  return 0;
}
