// category: transitive-handoff
// needs: sync-semantics
// source: pipelines of blocks that pass a stage's result on through flags
// The same three-block hand-off, but the relay block fences with
// __threadfence_block(): its release of `forwarded` is not ordered for a
// thread of another block, so the chain breaks at its second hop and the
// write in block 0 races with the read in block 2.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void relay(int *value, int *ready, int *forwarded, int *out) {
  if (threadIdx.x != 0)
    return;
  if (blockIdx.x == 0) {
    value[0] = 42; // expect-race(a): scoped
    __threadfence();
    atomicExch(ready, 1);
  } else if (blockIdx.x == 1) {
    while (atomicAdd(ready, 0) == 0) {
    }
    __threadfence_block();
    atomicExch(forwarded, 1);
  } else if (blockIdx.x == 2) {
    while (atomicAdd(forwarded, 0) == 0) {
    }
    __threadfence();
    out[0] = value[0]; // expect-race(a): scoped
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
