// category: global-memory
// source: graph kernels that count qualifying vertices (CSR offsets and colours)
// A plain increment of one counter under a guard that three loads decide
// (two row offsets, one colour). Whether the guard holds depends on the
// data, but any two threads for which it holds race on the counter: the
// loaded values decide only whether the accesses run, so the score counts
// them as one guard imprecision, whatever the declarations' layout.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void countWideUncoloured(const int *row_offsets, const int *colour,
                                    int *count, int vertices) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < vertices) {
    int begin = row_offsets[v], end = row_offsets[v + 1];
    if (end - begin > 4 && colour[v] == 0)
      count[0]++; // expect-race(a): inter-block
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
  countWideUncoloured<<<vertices / 256, 256>>>(row_offsets, colour, count, vertices);
  int host = 0;
  cudaMemcpy(&host, count, sizeof(int), cudaMemcpyDeviceToHost);
  printf("%d\n", host);
  cudaFree(row_offsets);
  cudaFree(colour);
  cudaFree(count);
  return 0;
}
