// category: global-memory
// expect: race-free
// needs: host-facts
// source: normalization kernels that stream rows with cache-hinted loads
// and stores (__ldcs, __stcs) so that single-use data does not evict the
// cache
// Each warp owns one row: its lanes read the row with streaming loads,
// reduce it with shuffles, and lane 0 stores the row's mean with a
// streaming store. The hints change caching only; the accesses are plain
// loads and stores, and no two warps share a row (with whole warps per
// block, which the launch shows).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void rowMeans(float *mean, const float *x, int rows, int cols) {
  int warps = blockDim.x / 32;
  int row = blockIdx.x * warps + threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  if (row >= rows)
    return;
  float sum = 0.0f;
  for (int i = lane; i < cols; i += 32)
    sum += __ldcs(x + row * cols + i);
  for (int offset = 16; offset > 0; offset /= 2)
    sum += __shfl_xor_sync(0xffffffffu, sum, offset);
  if (lane == 0)
    __stcs(mean + row, sum / cols);
}

int main() {
  const int rows = 1024, cols = 300, threads = 128;
  float *x, *mean;
  cudaMalloc(&x, rows * cols * sizeof(float));
  cudaMalloc(&mean, rows * sizeof(float));
  cudaMemset(x, 0, rows * cols * sizeof(float));
  rowMeans<<<rows / (threads / 32), threads>>>(mean, x, rows, cols);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(x);
  cudaFree(mean);
  return 0;
}
