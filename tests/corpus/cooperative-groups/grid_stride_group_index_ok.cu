// category: cooperative-groups
// expect: race-free
// needs: host-facts
// source: grid-stride loops written with cooperative-groups coordinates
// The global index and the stride come from the block's group_index(),
// group_dim() and thread_index() and the grid's dim_threads(): the same
// coordinates as blockIdx, blockDim and threadIdx, so each thread owns
// its own elements.
#include <cooperative_groups.h>
#include <cstdio>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

__global__ void saxpy(float a, const float *x, float *y, int n) {
  cg::thread_block block = cg::this_thread_block();
  dim3 all_threads = cg::this_grid().dim_threads();
  int stride = all_threads.x;
  for (int i = block.group_index().x * block.group_dim().x + block.thread_index().x; i < n;
       i += stride)
    y[i] = a * x[i] + y[i];
}

int main() {
  const int n = 1 << 20;
  float *x, *y;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaMemset(x, 0, n * sizeof(float));
  cudaMemset(y, 0, n * sizeof(float));
  saxpy<<<128, 256>>>(2.0f, x, y, n);
  float first = 0;
  cudaMemcpy(&first, y, sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f\n", first);
  cudaFree(x);
  cudaFree(y);
  return 0;
}
