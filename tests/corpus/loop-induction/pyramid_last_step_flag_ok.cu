// category: loop-induction
// expect: race-free
// needs: host-facts
// source: dynamic-programming and thermal stencils computed in "pyramids"
// (Rodinia pathfinder and hotspot style): each block loads a halo, runs
// several steps in shared memory with a shrinking range of active threads,
// leaves the step loop by a break in its last step, and writes only the
// threads still active then.
// The loop always leaves by its break in the last step, so 'active' after
// it is that step's range, and the blocks' output ranges tile the row.
#include <cstdio>
#include <cuda_runtime.h>
#define TILE 32

__global__ void pyramid(const int *cost, const int *src, int *dst, int cols, int steps) {
  __shared__ int prev[TILE], next[TILE];
  int tx = threadIdx.x;
  int first = (TILE - 2 * steps) * blockIdx.x - steps;
  int x = first + tx;
  if (x >= 0 && x < cols)
    prev[tx] = src[x];
  __syncthreads();
  bool active = false;
  for (int s = 0; s < steps; ++s) {
    active = false;
    if (tx > s && tx < TILE - 1 - s && x >= 0 && x < cols) {
      active = true;
      int best = min(prev[tx - 1], min(prev[tx], prev[tx + 1]));
      next[tx] = best + cost[x];
    }
    __syncthreads();
    if (s == steps - 1)
      break;
    if (active)
      prev[tx] = next[tx];
    __syncthreads();
  }
  if (active)
    dst[x] = next[tx];
}

int main() {
  const int cols = 1 << 14, steps = 4;
  int *cost, *src, *dst;
  cudaMalloc(&cost, cols * sizeof(int));
  cudaMalloc(&src, cols * sizeof(int));
  cudaMalloc(&dst, cols * sizeof(int));
  cudaMemset(cost, 0, cols * sizeof(int));
  cudaMemset(src, 0, cols * sizeof(int));
  int blocks = (cols + TILE - 2 * steps - 1) / (TILE - 2 * steps) + 1;
  pyramid<<<blocks, TILE>>>(cost, src, dst, cols, steps);
  int first = 0;
  cudaMemcpy(&first, dst, sizeof(int), cudaMemcpyDeviceToHost);
  printf("%d\n", first);
  cudaFree(cost);
  cudaFree(src);
  cudaFree(dst);
  return 0;
}
