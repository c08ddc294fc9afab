// category: perf
// expect: race-free
// source: gathers with a stride, as in column reads of row-major matrices
// copyStrided reads every second float: a warp's 32 floats span 256
// bytes, 8 sectors where 4 would hold them. readColumn reads one float per
// 128-byte row: every lane its own sector, 32 where 4 would do. The
// unit-stride stores are coalesced.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void copyStrided(const float *in, float *out, int stride, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float x = in[i * stride]; // expect-perf: sectors 8/4
    out[i] = x; // expect-perf: sectors 4/4
  }
}

__global__ void readColumn(const float *matrix, float *column, int rows) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) {
    float x = matrix[row * 32]; // expect-perf: sectors 32/4
    column[row] = x;
  }
}

int main() {
  const int n = 1 << 20;
  float *in, *out;
  cudaMalloc(&in, 2 * n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemset(in, 0, 2 * n * sizeof(float));
  copyStrided<<<n / 256, 256>>>(in, out, 2, n);
  const int rows = 2 * n / 32;
  readColumn<<<rows / 128, 128>>>(in, out, rows);
  cudaDeviceSynchronize();
  printf("copied %d floats\n", n);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
