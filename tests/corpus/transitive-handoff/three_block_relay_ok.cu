// category: transitive-handoff
// expect: race-free
// needs: sync-semantics
// source: pipelines of blocks that pass a stage's result on through flags
// Block 0 writes a value and raises `ready`; block 1 waits for `ready` and
// raises `forwarded`; block 2 waits for `forwarded` and reads the value.
// Block 2 never synchronizes with block 0 directly, but happens-before is
// transitive: the write is ordered before the read through block 1, and
// every hop has a device-scope fence.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void relay(int *value, int *ready, int *forwarded, int *out) {
  if (threadIdx.x != 0)
    return;
  if (blockIdx.x == 0) {
    value[0] = 42;
    __threadfence();
    atomicExch(ready, 1);
  } else if (blockIdx.x == 1) {
    while (atomicAdd(ready, 0) == 0) {
    }
    __threadfence();
    atomicExch(forwarded, 1);
  } else if (blockIdx.x == 2) {
    while (atomicAdd(forwarded, 0) == 0) {
    }
    __threadfence();
    out[0] = value[0];
  }
}

int main() {
  int *value, *ready, *forwarded, *out;
  cudaMalloc(&value, sizeof(int));
  cudaMalloc(&ready, sizeof(int));
  cudaMalloc(&forwarded, sizeof(int));
  cudaMalloc(&out, sizeof(int));
  cudaMemset(ready, 0, sizeof(int));
  cudaMemset(forwarded, 0, sizeof(int));
  relay<<<3, 32>>>(value, ready, forwarded, out);
  int host = 0;
  cudaMemcpy(&host, out, sizeof(int), cudaMemcpyDeviceToHost);
  printf("%d\n", host);
  cudaFree(value);
  cudaFree(ready);
  cudaFree(forwarded);
  cudaFree(out);
  return 0;
}
