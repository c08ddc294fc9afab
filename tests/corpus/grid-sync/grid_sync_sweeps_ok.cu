// category: grid-sync
// expect: race-free
// needs: sync-semantics
// Jacobi sweeps over a global array in one cooperative launch, with a grid
// barrier after each half-step so that blocks see their neighbours'
// boundary values.
#include <cooperative_groups.h>
#include <cstdio>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void sweeps(float *u, float *v, int n, int count) {
  cg::grid_group grid = cg::this_grid();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int s = 0; s < count; ++s) {
    if (i > 0 && i < n - 1)
      v[i] = 0.5f * (u[i - 1] + u[i + 1]);
    grid.sync();
    if (i > 0 && i < n - 1)
      u[i] = v[i];
    grid.sync();
  }
}

int main() {
  int n = 1 << 14, count = 10;
  float *u, *v;
  cudaMalloc(&u, n * sizeof(float));
  cudaMalloc(&v, n * sizeof(float));
  cudaMemset(u, 0, n * sizeof(float));
  void *args[] = {&u, &v, &n, &count};
  cudaLaunchCooperativeKernel((void *)sweeps, n / 256, 256, args);
  cudaDeviceSynchronize();
  cudaFree(u);
  cudaFree(v);
  printf("done\n");
  return 0;
}
