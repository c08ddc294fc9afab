// category: grid-sync
// needs: sync-semantics
// The grid barrier sits under a per-thread condition: threads past n never
// reach it while the rest of the grid waits there.
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void scaleThenNormalize(float *x, int n, float *peak) {
  cg::grid_group grid = cg::this_grid();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    x[i] *= 2.0f;
    grid.sync(); // expect-divergence: barrier-divergence
    x[i] /= *peak;
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 10000;
  float *x, *peak;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&peak, sizeof(float));
  cudaMemset(x, 0, n * sizeof(float));
  void *args[] = {&x, &n, &peak};
  cudaLaunchCooperativeKernel((void *)scaleThenNormalize, (n + 255) / 256, 256,
                              args);
  cudaDeviceSynchronize();
  cudaFree(x);
  cudaFree(peak);
  printf("done\n");
  return 0;
}
