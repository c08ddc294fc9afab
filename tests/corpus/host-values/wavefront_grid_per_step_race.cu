// category: host-values
// source: wavefront dynamic programming that grows the grid step by step
// As wavefront_grid_per_step_ok.cu, but each step launches one block too
// many (`grid.x = step + 1;`): the last block writes segment s, which
// every block of the launch reads.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void advanceFront(float *cells, int step) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  cells[c] += cells[step * blockDim.x + threadIdx.x]; // expect-race(front): inter-block
}

int main() {
  const int segments = 32;
  const int width = 64;
  float *cells;
  cudaMalloc(&cells, (segments + 2) * width * sizeof(float));
  cudaMemset(cells, 0, (segments + 2) * width * sizeof(float));
  dim3 grid;
  dim3 block(width);
  for (int step = 1; step <= segments; step++) {
    grid.x = step + 1;
    grid.y = 1;
    advanceFront<<<grid, block>>>(cells, step);
  }
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(cells);
  return 0;
}
