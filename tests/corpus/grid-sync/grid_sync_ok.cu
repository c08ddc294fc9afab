// category: grid-sync
// expect: race-free
// needs: sync-semantics
// source: BARRACUDA grid-wide barriers, CUDA cooperative groups
// Two-phase sum in one cooperative launch: every block stores a partial
// sum, the grid synchronizes, and block 0 adds the partial sums.
#include <cooperative_groups.h>
#include <cstdio>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void twoPhaseSum(const float *in, float *partial, float *result,
                            int n) {
  cg::grid_group grid = cg::this_grid();
  float sum = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    sum += in[i];
  atomicAdd(&partial[blockIdx.x], sum);
  grid.sync();
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    float total = 0.0f;
    for (int b = 0; b < gridDim.x; ++b)
      total += partial[b];
    *result = total;
  }
}

int main() {
  int n = 1 << 20, blocks = 64, threads = 256;
  float *in, *partial, *result;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&partial, blocks * sizeof(float));
  cudaMalloc(&result, sizeof(float));
  cudaMemset(in, 0, n * sizeof(float));
  cudaMemset(partial, 0, blocks * sizeof(float));
  void *args[] = {&in, &partial, &result, &n};
  cudaLaunchCooperativeKernel((void *)twoPhaseSum, blocks, threads, args);
  float sum;
  cudaMemcpy(&sum, result, sizeof(float), cudaMemcpyDeviceToHost);
  printf("sum = %f\n", sum);
  cudaFree(in);
  cudaFree(partial);
  cudaFree(result);
  return 0;
}
