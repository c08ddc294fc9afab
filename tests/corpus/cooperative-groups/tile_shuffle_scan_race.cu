// category: cooperative-groups
// source: row prefix sums with a tile's shfl_up (integral-image shape)
// The scan of the warp totals without the barrier after it: warp 0 still
// writes the scanned totals while the later warps read them. The tile
// shuffles in warp 0's loop order only warp 0's lanes.
#include <cooperative_groups.h>
#include <cstdio>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

__device__ unsigned scanRow(unsigned v, const cg::thread_block &block) {
  const auto tile = cg::tiled_partition<32>(block);
  __shared__ unsigned warp_totals[32];
  const unsigned lane = tile.thread_rank();
  const unsigned warp = tile.meta_group_rank();
  for (unsigned d = 1; d < 32; d *= 2) {
    unsigned below = tile.shfl_up(v, d);
    if (lane >= d)
      v += below;
  }
  if (lane == tile.size() - 1)
    warp_totals[warp] = v;
  block.sync();
  if (warp == 0) {
    unsigned total = warp_totals[lane];
    for (unsigned d = 1; d <= 16; d *= 2) {
      unsigned below = tile.shfl_up(total, d);
      if (lane >= d)
        total += below;
    }
    warp_totals[lane] = total; // expect-race(a): intra-block
  }
  if (warp > 0)
    v += warp_totals[warp - 1]; // expect-race(a): intra-block
  return v;
}

__global__ void rowPrefix(unsigned *rows) {
  cg::thread_block block = cg::this_thread_block();
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  rows[i] = scanRow(rows[i], block);
}

int main() {
  const int width = 1800, height = 64;
  const int threads = (width + 15) / 16; // 113: the last warp is partial
  unsigned *rows;
  cudaMalloc(&rows, threads * height * sizeof(unsigned));
  cudaMemset(rows, 0, threads * height * sizeof(unsigned));
  rowPrefix<<<height, threads>>>(rows);
  unsigned first = 0;
  cudaMemcpy(&first, rows, sizeof(unsigned), cudaMemcpyDeviceToHost);
  printf("%u\n", first);
  cudaFree(rows);
  return 0;
}
