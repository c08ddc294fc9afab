// category: host-values
// source: samples that scale their problem down on small devices
// As float_scaled_size_ok.cu, but the factor is `min(..., 1.0f)`, at most
// one: on a device with many multiprocessors the size grows past 65535
// blocks, gridDim.y becomes 2 or more, and blocks (x, 0) and (x, 1), which
// the index does not tell apart, both add into the same elements.
#include <algorithm>
#include <cstdio>
#include <cuda_runtime.h>

__global__ void increment(int *out, const int *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] += in[i]; // expect-race(row): inter-block
}

int n = 1 << 22;
dim3 block(512);
dim3 grid;

int main() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  float scale = std::min(32.0f / (float)prop.multiProcessorCount, 1.0f);
  n = (int)((float)n / scale);
  int blocks = n / block.x;
  grid.x = blocks % 65535;
  grid.y = blocks / 65535 + 1;
  int *in, *out;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, n * sizeof(int));
  increment<<<grid, block>>>(out, in, n);
  cudaDeviceSynchronize();
  printf("%d elements\n", n);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
