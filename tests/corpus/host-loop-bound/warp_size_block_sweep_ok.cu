// category: host-loop-bound
// expect: race-free
// needs: host-facts
// source: benchmarks that time a row-per-warp kernel at every block size
// from the device's warp size up to 1024
// Each warp normalizes one row; a block of b threads covers b / 32 rows.
// The host sweeps b from the warp size the device reports, doubling: every
// block holds whole warps, so rows never overlap. Narrower blocks would
// hold no whole warp and all take row 0 of their grid: only the device's
// warp size (32 on every GPU the toolkit supports) shows they never run.
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
    out[row * cols + i] = in[row * cols + i] / sum;
}

int main() {
  const int rows = 2048, cols = 777;
  float *in, *out;
  cudaMalloc(&in, rows * cols * sizeof(float));
  cudaMalloc(&out, rows * cols * sizeof(float));
  cudaMemset(in, 0, rows * cols * sizeof(float));
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  int warp = prop.warpSize;
  for (int threads = warp; threads <= 1024; threads *= 2) {
    int blocks = (rows * warp + threads - 1) / threads;
    normalizeRows<<<blocks, threads>>>(out, in, rows, cols);
  }
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(in);
  cudaFree(out);
  return 0;
}
