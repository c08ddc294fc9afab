// category: lock
// expect: race-free
// needs: sync-semantics
// source: ScoR tree search (device-scope per-node locks)
// Threads of every block insert keys into a binary tree stored as an array.
// Each update of a node's count happens under that node's own lock, taken
// with device-scope atomics and device fences: the lock address is a
// function of the node, so two threads touching one node hold one lock.
#include <cstdio>
#include <cuda_runtime.h>

#define NODES 1023

__device__ void lockNode(int *locks, int node) {
  while (atomicCAS(&locks[node], 0, 1) != 0) {
  }
  __threadfence();
}

__device__ void unlockNode(int *locks, int node) {
  __threadfence();
  atomicExch(&locks[node], 0);
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
  counts[node] = counts[node] + 1;
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
