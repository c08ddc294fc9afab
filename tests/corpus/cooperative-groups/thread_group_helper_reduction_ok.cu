// category: cooperative-groups
// source: a reduction helper over a type-erased thread_group, called for
// the whole block and for each 16-thread tile (simpleCooperativeGroups shape)
// expect: race-free
// The helper's rank, size and sync() are those of the group passed in: the
// block's barrier and the block's rank for the first call, the tile's lanes
// and sync for the second, each tile working in its own slice of the
// scratch array (the block rank minus the tile rank).
#include <cooperative_groups.h>
#include <cstdio>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

__device__ int groupSum(cg::thread_group g, int *scratch, int value) {
  int rank = g.thread_rank();
  for (int half = g.size() / 2; half > 0; half /= 2) {
    scratch[rank] = value;
    g.sync();
    if (rank < half)
      value += scratch[rank + half];
    g.sync();
  }
  return rank == 0 ? value : -1;
}

__global__ void sums(int *out) {
  extern __shared__ int scratch[];
  cg::thread_block block = cg::this_thread_block();
  int whole = groupSum(block, scratch, block.thread_rank());
  if (block.thread_rank() == 0)
    out[blockIdx.x] = whole;
  block.sync();
  cg::thread_group tile = cg::tiled_partition(block, 16);
  int base = block.thread_rank() - tile.thread_rank();
  int part = groupSum(tile, scratch + base, tile.thread_rank());
  if (tile.thread_rank() == 0)
    out[gridDim.x + blockIdx.x * (blockDim.x / 16) + base / 16] = part;
}

int main() {
  const int blocks = 4, threads = 64;
  int *out;
  cudaMalloc(&out, (blocks + blocks * threads / 16) * sizeof(int));
  sums<<<blocks, threads, threads * sizeof(int)>>>(out);
  int first = 0;
  cudaMemcpy(&first, out, sizeof(int), cudaMemcpyDeviceToHost);
  printf("%d\n", first);
  cudaFree(out);
  return 0;
}
