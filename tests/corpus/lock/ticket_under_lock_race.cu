// category: lock
// needs: sync-semantics
// source: block-local work queues that hand out slots under a shared-memory spin lock
// Each thread takes the next ticket from a shared counter under a spin
// lock (independent thread scheduling lets lanes of one warp take turns). The lock orders the counter's accesses, so the tickets differ:
// the holder of ticket 0 publishes a flag that the holder of ticket 1
// reads with no barrier in between. Two reads of the counter by different
// threads between the same barriers need not agree when a lock (fences
// and atomics) orders a write between them.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void takeTickets(int *seen) {
  __shared__ int lock;
  __shared__ int next;
  __shared__ int ready;
  if (threadIdx.x == 0) {
    lock = 0;
    next = 0;
    ready = 0;
  }
  __syncthreads();
  while (atomicCAS(&lock, 0, 1) != 0) {
  }
  __threadfence_block();
  int mine = next;
  next = mine + 1;
  __threadfence_block();
  atomicExch(&lock, 0);
  if (mine == 0)
    ready = 1; // expect-race(a): intra-block
  if (mine == 1)
    seen[blockIdx.x * blockDim.x + threadIdx.x] = ready; // expect-race(a): intra-block
}

int main() {
  int *seen;
  cudaMalloc(&seen, 4 * 64 * sizeof(int));
  takeTickets<<<4, 64>>>(seen);
  int host[4 * 64];
  cudaMemcpy(host, seen, sizeof(host), cudaMemcpyDeviceToHost);
  printf("%d\n", host[1]);
  cudaFree(seen);
  return 0;
}
