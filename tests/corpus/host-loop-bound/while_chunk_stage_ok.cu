// category: host-loop-bound
// expect: race-free
// needs: host-facts
// The chunked staging kernel driven by a while loop: the offset starts at 0
// and only ever grows by whole blocks, after each launch.
#include <cstdio>
#include <cuda_runtime.h>

#define BLOCK 128

__global__ void stageChunk(int *data, int base) {
  __shared__ int staged[BLOCK];
  staged[(base + threadIdx.x) % BLOCK] = data[base + threadIdx.x];
  data[base + threadIdx.x] = staged[threadIdx.x] + 1;
}

int main() {
  const int n = 1 << 13;
  int *data;
  cudaMalloc(&data, n * sizeof(int));
  int base = 0;
  while (base < n) {
    stageChunk<<<1, BLOCK>>>(data, base);
    base += 2 * BLOCK;
  }
  cudaDeviceSynchronize();
  cudaFree(data);
  printf("done\n");
  return 0;
}
