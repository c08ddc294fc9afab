// category: volatile
// needs: sync-semantics
// source: pre-CUDA 9 producer/consumer code that publishes through a
// volatile flag (volatile store, spin on a volatile load)
// The same hand-off with block-scope fences: a block fence orders the
// payload only for threads of the producer's own block, so block 1 may see
// the flag and still read a stale payload.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void publishBlockFence(int *payload, volatile int *ready, int *out) {
  if (threadIdx.x != 0)
    return;
  if (blockIdx.x == 0) {
    payload[0] = 7; // expect-race(a): scoped
    __threadfence_block();
    *ready = 1;
  } else if (blockIdx.x == 1) {
    while (*ready == 0) {
    }
    __threadfence_block();
    out[0] = payload[0]; // expect-race(a): scoped
  }
}

int main() {
  int *payload, *ready, *out;
  cudaMalloc(&payload, sizeof(int));
  cudaMalloc(&ready, sizeof(int));
  cudaMalloc(&out, sizeof(int));
  cudaMemset(ready, 0, sizeof(int));
  publishBlockFence<<<2, 32>>>(payload, ready, out);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(payload);
  cudaFree(ready);
  cudaFree(out);
  return 0;
}
