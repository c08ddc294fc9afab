// category: application
// source: ScoR rule 110 cellular automaton, updated in place
// One generation of rule 110 computed in place: a cell's neighbours may
// already hold the next generation when it reads them.
#include <cstdio>
#include <cuda_runtime.h>

__device__ int rule110(int l, int c, int r) {
  int pattern = (l << 2) | (c << 1) | r;
  return (110 >> pattern) & 1;
}

__global__ void step(int *cells, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1)
    cells[i] = rule110(cells[i - 1], cells[i], cells[i + 1]); // expect-race(a): inter-block
}

int main() {
  const int n = 1 << 16;
  int *cells;
  cudaMalloc(&cells, n * sizeof(int));
  cudaMemset(cells, 0, n * sizeof(int));
  for (int gen = 0; gen < 100; ++gen)
    step<<<n / 256, 256>>>(cells, n);
  cudaDeviceSynchronize();
  cudaFree(cells);
  printf("done\n");
  return 0;
}
