// category: global-memory
// source: graph kernels that count qualifying vertices (CSR offsets, colours, weights)
// The same guarded counter with its loads written one per statement and
// from three arrays: the score depends on what the guard reads, not on how
// many statements read it.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void countHeavy(const int *row_offsets, const int *colour,
                           const float *weight, int *count, int vertices) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= vertices)
    return;
  int begin = row_offsets[v];
  int end = row_offsets[v + 1];
  int c = colour[v];
  float w = weight[v];
  if (end - begin > 4 && c == 0 && w > 1.0f)
    count[0] = count[0] + 1; // expect-race(a): inter-block
}

int main() {
  const int vertices = 1 << 12;
  int *row_offsets, *colour, *count;
  float *weight;
  cudaMalloc(&row_offsets, (vertices + 1) * sizeof(int));
  cudaMalloc(&colour, vertices * sizeof(int));
  cudaMalloc(&weight, vertices * sizeof(float));
  cudaMalloc(&count, sizeof(int));
  cudaMemset(row_offsets, 0, (vertices + 1) * sizeof(int));
  cudaMemset(colour, 0, vertices * sizeof(int));
  cudaMemset(weight, 0, vertices * sizeof(float));
  cudaMemset(count, 0, sizeof(int));
  countHeavy<<<vertices / 128, 128>>>(row_offsets, colour, weight, count, vertices);
  int host = 0;
  cudaMemcpy(&host, count, sizeof(int), cudaMemcpyDeviceToHost);
  printf("%d\n", host);
  cudaFree(row_offsets);
  cudaFree(colour);
  cudaFree(weight);
  cudaFree(count);
  return 0;
}
