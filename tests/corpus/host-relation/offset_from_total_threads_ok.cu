// category: host-relation
// expect: race-free
// needs: host-facts
// Each thread fills two halves of a buffer: its own slot and the slot one
// grid further on. The offset is computed by the host from the same values
// as the launch dims, so the second half never reaches another thread's
// first-half slot.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void fillHalves(float *buf, int offset) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  buf[g] = 1.0f;
  buf[g + offset] = -1.0f;
}

int main() {
  int blocks = 64, threads = 128;
  int total = blocks * threads;
  float *buf;
  cudaMalloc(&buf, 2 * total * sizeof(float));
  fillHalves<<<blocks, threads>>>(buf, total);
  cudaDeviceSynchronize();
  cudaFree(buf);
  printf("done\n");
  return 0;
}
