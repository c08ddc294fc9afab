// category: cooperative-groups
// expect: race-free
// needs: host-facts
// source: block sums written with cooperative groups (tile reductions)
// Each warp-sized tile sums its values with cg::reduce, lane 0 of each
// tile stores the tile's sum in shared memory, and after block.sync()
// thread 0 adds the tiles' sums. The collective needs no barrier of its
// own; the block sync orders the tiles' stores before thread 0's reads.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdio>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

constexpr int kBlock = 256;

__global__ void blockSums(const float *in, float *out, int n) {
  __shared__ float tile_sums[kBlock / 32];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  int i = block.group_index().x * block.size() + block.thread_rank();
  float v = i < n ? in[i] : 0.0f;
  float sum = cg::reduce(tile, v, cg::plus<float>());
  if (tile.thread_rank() == 0)
    tile_sums[tile.meta_group_rank()] = sum;
  block.sync();
  if (block.thread_rank() == 0) {
    float total = 0.0f;
    for (int t = 0; t < kBlock / 32; ++t)
      total += tile_sums[t];
    out[block.group_index().x] = total;
  }
}

int main() {
  const int n = 1 << 16;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, (n / kBlock) * sizeof(float));
  cudaMemset(in, 0, n * sizeof(float));
  blockSums<<<n / kBlock, kBlock>>>(in, out, n);
  float first = 0;
  cudaMemcpy(&first, out, sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f\n", first);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
