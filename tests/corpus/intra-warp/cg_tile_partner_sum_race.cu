// category: intra-warp
// needs: sync-semantics
// source: cooperative-groups tiled reductions (tiled_partition, meta_group_rank)
// Lane 0 of each 16-lane tile sums the partner tile's slots (group ^ 1),
// which the partner's lanes write: the tile's own sync does not wait for
// the other tile, though both are halves of one warp.
#include <cooperative_groups.h>
#include <cstdio>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void partnerTileSum(const int *in, int *out) {
  __shared__ int slots[128];
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
  unsigned lane = tile.thread_rank(), group = tile.meta_group_rank();
  slots[group * 16 + lane] = in[blockIdx.x * 128 + group * 16 + lane]; // expect-race(a): intra-warp
  tile.sync();
  if (lane == 0) {
    int sum = 0;
    for (unsigned k = 0; k < tile.size(); ++k)
      sum += slots[(group ^ 1) * 16 + k]; // expect-race(a): intra-warp
    out[blockIdx.x * 8 + group] = sum;
  }
}

int main() {
  int *in, *out;
  cudaMalloc(&in, 4 * 128 * sizeof(int));
  cudaMalloc(&out, 4 * 8 * sizeof(int));
  cudaMemset(in, 0, 4 * 128 * sizeof(int));
  partnerTileSum<<<4, 128>>>(in, out);
  int first;
  cudaMemcpy(&first, out, sizeof(int), cudaMemcpyDeviceToHost);
  printf("out[0] = %d\n", first);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
