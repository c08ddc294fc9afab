// category: same-value-write
// source: image filters that pick a device function from a dispatch table
// As dispatch_table_pointer_ok.cu, but only thread 0 of each block stores
// the chosen filter, and nothing orders that store before the other
// threads call through the pointer: they may read it before any store (on
// the first launch, a null pointer). The stores of the blocks' thread 0
// are all the same pointer, and race benignly.
#include <cstdio>
#include <cuda_runtime.h>

typedef float (*filter_t)(float);

__device__ float halve(float v) { return 0.5f * v; }
__device__ float square(float v) { return v * v; }

__device__ filter_t filters[2];
__device__ filter_t chosen;
__device__ filter_t halvePointer = halve;
__device__ filter_t squarePointer = square;

__global__ void applyFilter(float *pixels, int n, int mode) {
  if (threadIdx.x == 0)
    chosen = filters[mode]; // expect-race(pick): intra-block
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    pixels[i] = (*chosen)(pixels[i]); // expect-race(pick): intra-block
}

int main() {
  filter_t host_table[2];
  cudaMemcpyFromSymbol(&host_table[0], halvePointer, sizeof(filter_t));
  cudaMemcpyFromSymbol(&host_table[1], squarePointer, sizeof(filter_t));
  cudaMemcpyToSymbol(filters, host_table, sizeof(host_table));
  const int n = 1 << 16;
  float *pixels;
  cudaMalloc(&pixels, n * sizeof(float));
  applyFilter<<<64, 256>>>(pixels, n, 1);
  cudaDeviceSynchronize();
  cudaFree(pixels);
  return 0;
}
