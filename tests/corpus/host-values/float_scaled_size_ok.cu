// category: host-values
// expect: race-free
// needs: host-facts
// source: samples that scale their problem down on small devices
// The problem size starts at 2^22 and is divided by a factor of at least
// one (`max(..., 1.0f)` of a quantity read from the device), so it never
// grows: at most 8192 blocks of 512, all in gridDim.x, and gridDim.y, which
// the kernel's index ignores, stays 1.
#include <algorithm>
#include <cstdio>
#include <cuda_runtime.h>

__global__ void increment(int *out, const int *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] + 1;
}

int n = 1 << 22;
dim3 block(512);
dim3 grid;

int main() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  float scale = std::max(32.0f / (float)prop.multiProcessorCount, 1.0f);
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
