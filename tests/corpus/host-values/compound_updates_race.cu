// category: host-values
// needs: host-facts
// source: host code that pads and scales a size step by step
// As compound_updates_ok, but the block is widened after the pitch is
// passed on: 256 + 32 threads per row of 256, so the last 32 threads of
// each block write the start of the next row (each block its own number).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void clearRows(float *rows, int pitch) {
  rows[blockIdx.x * pitch + threadIdx.x] = blockIdx.x; // expect-race(a): inter-block
}

int main() {
  int pitch = 96;
  pitch += 32;
  pitch *= 2;
  int threads = pitch;
  threads += 32;
  float *d;
  cudaMalloc(&d, 64 * pitch * sizeof(float));
  clearRows<<<64, threads>>>(d, pitch);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(d);
  return 0;
}
