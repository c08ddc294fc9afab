// category: host-loop-bound
// needs: host-facts
// source: benchmarks that time a row-per-warp kernel at every block size
// The row-per-warp kernel of warp_size_block_sweep_ok.cu, swept from half
// the warp size the device reports: 16-thread blocks hold no whole warp,
// so every block takes row 0 and writes the same elements.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void normalizeRows(float *out, const float *in, int rows, int cols) {
  int row = blockIdx.x * (blockDim.x / warpSize) + threadIdx.x / warpSize;
  if (row >= rows)
    return;
  int lane = threadIdx.x % warpSize;
  float sum = 0.0f;
  for (int i = lane; i < cols; i += warpSize)
    sum += in[row * cols + i];
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    sum += __shfl_xor_sync(0xffffffffu, sum, offset);
  for (int i = lane; i < cols; i += warpSize)
    out[row * cols + i] = in[row * cols + i] / sum; // expect-race(a): inter-block
}

int main() {
  const int rows = 2048, cols = 777;
  float *in, *out;
  cudaMalloc(&in, rows * cols * sizeof(float));
  cudaMalloc(&out, rows * cols * sizeof(float));
  cudaMemset(in, 0, rows * cols * sizeof(float));
  int warp;
  cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, 0);
  for (int threads = warp / 2; threads <= 1024; threads *= 2) {
    int blocks = (rows * warp + threads - 1) / threads;
    normalizeRows<<<blocks, threads>>>(out, in, rows, cols);
  }
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(in);
  cudaFree(out);
  return 0;
}
