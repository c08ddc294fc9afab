// category: global-memory
// expect: race-free
// needs: sync-semantics
// source: graph kernels that count qualifying vertices, done right
// The guarded count with atomicAdd: the guard's loads still decide which
// threads count, but the increments no longer race.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void countWideAtomic(const int *row_offsets, const int *colour,
                                int *count, int vertices) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < vertices) {
    int begin = row_offsets[v], end = row_offsets[v + 1];
    if (end - begin > 4 && colour[v] == 0)
      atomicAdd(count, 1);
  }
}

int main() {
  const int vertices = 1 << 12;
  int *row_offsets, *colour, *count;
  cudaMalloc(&row_offsets, (vertices + 1) * sizeof(int));
  cudaMalloc(&colour, vertices * sizeof(int));
  cudaMalloc(&count, sizeof(int));
  cudaMemset(row_offsets, 0, (vertices + 1) * sizeof(int));
  cudaMemset(colour, 0, vertices * sizeof(int));
  cudaMemset(count, 0, sizeof(int));
  countWideAtomic<<<vertices / 256, 256>>>(row_offsets, colour, count, vertices);
  int host = 0;
  cudaMemcpy(&host, count, sizeof(int), cudaMemcpyDeviceToHost);
  printf("%d\n", host);
  cudaFree(row_offsets);
  cudaFree(colour);
  cudaFree(count);
  return 0;
}
