// category: host-loop-bound
// The chunked staging kernel with a host loop that skips a 32-element
// header: every chunk starts 32 elements past a block boundary, so thread t
// stages into the slot that thread t + 32 reads back.
#include <cstdio>
#include <cuda_runtime.h>

#define BLOCK 256
#define HEADER 32

__global__ void stageChunk(float *data, int base) {
  __shared__ float staged[BLOCK];
  staged[(base + threadIdx.x) % BLOCK] = data[base + threadIdx.x]; // expect-race(a): intra-block
  data[base + threadIdx.x] = 2.0f * staged[threadIdx.x]; // expect-race(a): intra-block
}

int main() {
  const int n = 1 << 14;
  float *data;
  cudaMalloc(&data, (n + HEADER) * sizeof(float));
  for (int base = HEADER; base < n; base += BLOCK)
    stageChunk<<<1, BLOCK>>>(data, base);
  cudaDeviceSynchronize();
  cudaFree(data);
  printf("done\n");
  return 0;
}
