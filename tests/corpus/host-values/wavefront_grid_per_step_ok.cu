// category: host-values
// expect: race-free
// needs: host-facts
// source: wavefront dynamic programming that grows the grid step by step
// Each step of the host loop assigns the grid's width before the launch
// (`grid.x = step;`): the blocks of step s update the first s segments
// and read segment s, which no block of that launch writes. The grid is
// only known as the loop's counter, reassigned in each iteration.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void advanceFront(float *cells, int step) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  cells[c] += cells[step * blockDim.x + threadIdx.x];
}

int main() {
  const int segments = 32;
  const int width = 64;
  float *cells;
  cudaMalloc(&cells, (segments + 1) * width * sizeof(float));
  cudaMemset(cells, 0, (segments + 1) * width * sizeof(float));
  dim3 grid;
  dim3 block(width);
  for (int step = 1; step <= segments; step++) {
    grid.x = step;
    grid.y = 1;
    advanceFront<<<grid, block>>>(cells, step);
  }
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(cells);
  return 0;
}
