// category: volatile
// expect: race-free
// needs: sync-semantics
// source: pre-CUDA 9 producer/consumer code that publishes through a
// volatile flag (volatile store, spin on a volatile load)
// Block 0 writes the payload, fences at device scope and raises a volatile
// flag; block 1 spins on the flag, fences, and reads the payload. The
// volatile flag is only the signal: the device-scope fences on both sides
// are what order the payload across blocks.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void publish(int *payload, volatile int *ready, int *out) {
  if (threadIdx.x != 0)
    return;
  if (blockIdx.x == 0) {
    payload[0] = 7;
    __threadfence();
    *ready = 1;
  } else if (blockIdx.x == 1) {
    while (*ready == 0) {
    }
    __threadfence();
    out[0] = payload[0];
  }
}

int main() {
  int *payload, *ready, *out;
  cudaMalloc(&payload, sizeof(int));
  cudaMalloc(&ready, sizeof(int));
  cudaMalloc(&out, sizeof(int));
  cudaMemset(ready, 0, sizeof(int));
  publish<<<2, 32>>>(payload, ready, out);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(payload);
  cudaFree(ready);
  cudaFree(out);
  return 0;
}
