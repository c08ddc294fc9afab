// category: host-loop-bound
// expect: race-free
// needs: host-facts
// Stages each chunk of a long array through shared memory, indexed by the
// element's position modulo the block. The host loop steps by the block
// size from 0, so every chunk is aligned and each thread reads back the
// element it staged itself; the kernel alone allows any offset.
#include <cstdio>
#include <cuda_runtime.h>

#define BLOCK 256

__global__ void stageChunk(float *data, int base) {
  __shared__ float staged[BLOCK];
  staged[(base + threadIdx.x) % BLOCK] = data[base + threadIdx.x];
  data[base + threadIdx.x] = 2.0f * staged[threadIdx.x];
}

int main() {
  const int n = 1 << 14;
  float *data;
  cudaMalloc(&data, n * sizeof(float));
  for (int base = 0; base < n; base += BLOCK)
    stageChunk<<<1, BLOCK>>>(data, base);
  cudaDeviceSynchronize();
  cudaFree(data);
  printf("done\n");
  return 0;
}
