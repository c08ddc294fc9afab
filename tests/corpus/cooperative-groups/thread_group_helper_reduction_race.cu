// category: cooperative-groups
// source: a reduction helper over a type-erased thread_group, called for
// each 16-thread tile, without the sync that ends a step
// The tile's next step stores into the scratch array while its partners
// still read the previous step's values: the first sync() orders the
// stores before the reads, nothing orders the reads before the next
// stores. The tiles themselves use disjoint slices.
#include <cooperative_groups.h>
#include <cstdio>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

__device__ int groupSum(cg::thread_group g, int *scratch, int value) {
  int rank = g.thread_rank();
  for (int half = g.size() / 2; half > 0; half /= 2) {
    scratch[rank] = value; // expect-race(a): intra-warp
    g.sync();
    if (rank < half)
      value += scratch[rank + half]; // expect-race(a): intra-warp
  }
  return rank == 0 ? value : -1;
}

__global__ void tileSums(int *out) {
  extern __shared__ int scratch[];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
  int base = block.thread_rank() - tile.thread_rank();
  int part = groupSum(tile, scratch + base, tile.thread_rank());
  if (tile.thread_rank() == 0)
    out[blockIdx.x * (blockDim.x / 16) + base / 16] = part;
}

int main() {
  const int blocks = 4, threads = 64;
  int *out;
  cudaMalloc(&out, blocks * threads / 16 * sizeof(int));
  tileSums<<<blocks, threads, threads * sizeof(int)>>>(out);
  int first = 0;
  cudaMemcpy(&first, out, sizeof(int), cudaMemcpyDeviceToHost);
  printf("%d\n", first);
  cudaFree(out);
  return 0;
}
