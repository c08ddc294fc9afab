// category: scoped-atomic
// needs: sync-semantics
// source: ScoR graph coloring / connectivity (work stealing)
// Each block pops work from its own queue with a block-scope atomic, which
// is fine for its own threads, but a block that runs dry steals from the
// next block's queue with the same block-scope atomic: the owner's and the
// thief's pops are not atomic with respect to each other.
#include <cstdio>
#include <cuda_runtime.h>

#define QUEUE 1024

__global__ void processQueues(const int *items, int *head, int *sums) {
  int own = blockIdx.x;
  int victim = (blockIdx.x + 1) % gridDim.x;
  int pos = atomicAdd_block(&head[own], 1); // expect-race(a): scoped
  if (pos < QUEUE) {
    atomicAdd(&sums[own], items[own * QUEUE + pos]);
    return;
  }
  pos = atomicAdd_block(&head[victim], 1); // expect-race(a): scoped
  if (pos < QUEUE)
    atomicAdd(&sums[own], items[victim * QUEUE + pos]);
}

int main() {
  const int blocks = 8;
  int *items, *head, *sums;
  cudaMalloc(&items, blocks * QUEUE * sizeof(int));
  cudaMalloc(&head, blocks * sizeof(int));
  cudaMalloc(&sums, blocks * sizeof(int));
  cudaMemset(items, 0, blocks * QUEUE * sizeof(int));
  cudaMemset(head, 0, blocks * sizeof(int));
  cudaMemset(sums, 0, blocks * sizeof(int));
  processQueues<<<blocks, 512>>>(items, head, sums);
  cudaDeviceSynchronize();
  cudaFree(items);
  cudaFree(head);
  cudaFree(sums);
  printf("done\n");
  return 0;
}
