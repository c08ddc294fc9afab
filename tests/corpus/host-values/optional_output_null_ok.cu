// category: host-values
// expect: race-free
// source: scan kernels with an optional per-block output (default NULL)
// The kernel writes its optional `block_totals` only when the caller passed
// one. The first launch gives a buffer and only the block's last thread
// writes its slot; the second launch scans those totals in place and
// leaves the optional output at its default, NULL: the `last_seen` slot
// every thread would write is never touched, and the totals buffer is not
// also the (absent) optional output.
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
    *last_seen = i; // every thread: only safe because no launch passes it
}

int main() {
  const int block = 256, blocks = 64;
  int *data, *totals;
  cudaMalloc(&data, block * blocks * sizeof(int));
  cudaMalloc(&totals, blocks * sizeof(int));
  cudaMemset(data, 0, block * blocks * sizeof(int));
  addOffsets<<<blocks, block>>>(data, 1, totals);
  addOffsets<<<1, blocks>>>(totals, 2);
  int first = 0;
  cudaMemcpy(&first, totals, sizeof(int), cudaMemcpyDeviceToHost);
  printf("%d\n", first);
  cudaFree(data);
  cudaFree(totals);
  return 0;
}
