// category: same-value-write
// expect: race-free
// source: image filters that pick a device function from a dispatch table
// Every thread copies the filter chosen by the launch's `mode` from a
// table the kernels only read (the host fills it with cudaMemcpyToSymbol)
// into one __device__ function pointer, then calls through it. All threads
// store the same pointer, and each reads it only after storing it itself:
// whichever store a read sees, it calls the same filter.
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
  chosen = filters[mode];
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    pixels[i] = (*chosen)(pixels[i]);
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
