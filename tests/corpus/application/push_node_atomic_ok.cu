// category: application
// expect: race-free
// needs: sync-semantics
// source: Indigo pushNode, fixed
// The worklist append reserves its slot with atomicAdd, so each thread
// writes a slot of its own.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void pushActive(const int *active, int n, int *worklist,
                           int *tail) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n && active[v]) {
    int slot = atomicAdd(tail, 1);
    worklist[slot] = v;
  }
}

int main() {
  const int n = 1 << 14;
  int *active, *worklist, *tail;
  cudaMalloc(&active, n * sizeof(int));
  cudaMalloc(&worklist, n * sizeof(int));
  cudaMalloc(&tail, sizeof(int));
  cudaMemset(active, 1, n * sizeof(int));
  cudaMemset(tail, 0, sizeof(int));
  pushActive<<<n / 256, 256>>>(active, n, worklist, tail);
  int count;
  cudaMemcpy(&count, tail, sizeof(int), cudaMemcpyDeviceToHost);
  printf("%d pushed\n", count);
  cudaFree(active);
  cudaFree(worklist);
  cudaFree(tail);
  return 0;
}
