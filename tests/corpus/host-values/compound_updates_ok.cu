// category: host-values
// expect: race-free
// needs: host-facts
// source: host code that pads and scales a size step by step
// The row pitch is built with compound assignments (`pitch += pad`,
// `pitch *= 2`, `++rows`): each thread's row starts `pitch` apart, and the
// block is exactly `pitch` wide, so rows never overlap.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void clearRows(float *rows, int pitch) {
  rows[blockIdx.x * pitch + threadIdx.x] = 0.0f;
}

int main() {
  int pitch = 96;
  int pad = 32;
  pitch += pad;
  pitch *= 2;
  int rows = 63;
  ++rows;
  float *d;
  cudaMalloc(&d, rows * pitch * sizeof(float));
  clearRows<<<rows, pitch>>>(d, pitch);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(d);
  return 0;
}
