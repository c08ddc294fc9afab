// category: host-values
// source: scan kernels with an optional per-block output (default NULL)
// The same kernel, but the second launch asks for the optional `last_seen`
// slot: every thread of it writes the one word.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void addOffsets(int *data, int offset, int *block_totals = NULL,
                           int *last_seen = nullptr) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int value = data[i] + offset;
  data[i] = value;
  if (block_totals != NULL && threadIdx.x == blockDim.x - 1)
    block_totals[blockIdx.x] = value;
  if (last_seen)
    *last_seen = i; // expect-race(a): intra-block
}

int main() {
  const int block = 256, blocks = 64;
  int *data, *totals, *last;
  cudaMalloc(&data, block * blocks * sizeof(int));
  cudaMalloc(&totals, blocks * sizeof(int));
  cudaMalloc(&last, sizeof(int));
  cudaMemset(data, 0, block * blocks * sizeof(int));
  addOffsets<<<blocks, block>>>(data, 1, totals);
  addOffsets<<<1, blocks>>>(totals, 2, NULL, last);
  int first = 0;
  cudaMemcpy(&first, totals, sizeof(int), cudaMemcpyDeviceToHost);
  printf("%d\n", first);
  cudaFree(data);
  cudaFree(totals);
  cudaFree(last);
  return 0;
}
