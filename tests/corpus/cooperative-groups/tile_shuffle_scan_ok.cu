// category: cooperative-groups
// source: row prefix sums with a tile's shfl_up (integral-image shape)
// Each warp scans its values with tile.shfl_up, its last lane posts the
// warp total, warp 0 scans the totals with tile.shfl_up in a loop, and
// after the next barrier every later warp adds its predecessor's total.
// The tile shuffles order only the lanes of a tile; the two barriers
// order the block, whatever the shuffles in warp 0's branch do. The block
// is not a multiple of 32 threads (the last tile is partial).
// expect: race-free
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
    warp_totals[lane] = total;
  }
  block.sync();
  if (warp > 0)
    v += warp_totals[warp - 1];
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
