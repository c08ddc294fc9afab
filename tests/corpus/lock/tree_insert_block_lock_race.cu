// category: lock
// needs: sync-semantics
// source: ScoR tree search (block-scope locks used across blocks)
// The per-node locks are taken with block-scope atomics and released after
// a block-scope fence. Threads of different blocks that reach one node do
// not exclude each other: the counts race.
#include <cstdio>
#include <cuda_runtime.h>

#define NODES 1023

__device__ void lockNode(int *locks, int node) {
  while (atomicCAS_block(&locks[node], 0, 1) != 0) {
  }
  __threadfence_block();
}

__device__ void unlockNode(int *locks, int node) {
  __threadfence_block();
  atomicExch_block(&locks[node], 0);
}

__global__ void insertKeys(const int *keys, int n, int *counts, int *locks) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int node = 0;
  int key = keys[i];
  for (int depth = 0; depth < 9; ++depth)
    node = 2 * node + 1 + (key >> (8 - depth) & 1);
  lockNode(locks, node);
  counts[node] = counts[node] + 1; // expect-race(a): scoped
  unlockNode(locks, node);
}

int main() {
  const int n = 1 << 14;
  int *keys, *counts, *locks;
  cudaMalloc(&keys, n * sizeof(int));
  cudaMalloc(&counts, NODES * sizeof(int));
  cudaMalloc(&locks, NODES * sizeof(int));
  cudaMemset(keys, 0, n * sizeof(int));
  cudaMemset(counts, 0, NODES * sizeof(int));
  cudaMemset(locks, 0, NODES * sizeof(int));
  insertKeys<<<n / 256, 256>>>(keys, n, counts, locks);
  int root;
  cudaMemcpy(&root, counts, sizeof(int), cudaMemcpyDeviceToHost);
  printf("root count %d\n", root);
  cudaFree(keys);
  cudaFree(counts);
  cudaFree(locks);
  return 0;
}
