// category: global-memory
// source: normalization kernels that stream rows with cache-hinted loads
// and stores (__ldcs, __stcs)
// The row-mean kernel of cache_hinted_row_stats_ok.cu with the row taken
// per block instead of per warp: the four warps of a block reduce the
// same row, and each warp's lane 0 stores its mean to the same element.
// A streaming store is a store like any other.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void rowMeans(float *mean, const float *x, int rows, int cols) {
  int row = blockIdx.x;
  int lane = threadIdx.x % 32;
  if (row >= rows)
    return;
  float sum = 0.0f;
  for (int i = lane; i < cols; i += 32)
    sum += __ldcs(x + row * cols + i);
  for (int offset = 16; offset > 0; offset /= 2)
    sum += __shfl_xor_sync(0xffffffffu, sum, offset);
  if (lane == 0)
    __stcs(mean + row, sum / cols); // expect-race(a): intra-block
}

int main() {
  const int rows = 1024, cols = 300, threads = 128;
  float *x, *mean;
  cudaMalloc(&x, rows * cols * sizeof(float));
  cudaMalloc(&mean, rows * sizeof(float));
  cudaMemset(x, 0, rows * cols * sizeof(float));
  rowMeans<<<rows, threads>>>(mean, x, rows, cols);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(x);
  cudaFree(mean);
  return 0;
}
