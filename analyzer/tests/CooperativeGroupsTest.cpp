// Ranks and sizes of cooperative groups are the thread's coordinates, not
// opaque results: kernels indexed by them are as precise as with threadIdx.
#include "analyzer/tests/AnalyzerTestSupport.h"

#include <gtest/gtest.h>

#include <cstdio>

namespace gpurace::analyzer::testing {
namespace {

TEST(CooperativeGroups, GridRankIndexesEachThreadsOwnElement) {
  auto result = analyzeCode(R"(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void fill(int *out) {
  cg::grid_group grid = cg::this_grid();
  out[grid.thread_rank()] = 1;
}
int main() { int *o; cudaMalloc(&o, 4096 * 4); fill<<<16, 256>>>(o); }
)");
  EXPECT_TRUE(result.errors().empty()) << result.DebugString();
  EXPECT_EQ(result.candidates_size(), 0) << result.DebugString();
}

TEST(CooperativeGroups, TileRankAndMetaGroupRankRebuildTheBlockRank) {
  auto result = analyzeCode(R"(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void stage(const int *in, int *out) {
  __shared__ int s[128];
  cg::thread_block_tile<8> tile = cg::tiled_partition<8>(cg::this_thread_block());
  unsigned at = tile.meta_group_rank() * tile.size() + tile.thread_rank();
  s[at] = in[at];
  __syncthreads();
  out[blockIdx.x * 128 + at] = s[127 - at];
}
int main() { int *i, *o; cudaMalloc(&i, 512); cudaMalloc(&o, 4096); stage<<<8, 128>>>(i, o); }
)");
  EXPECT_EQ(result.candidates_size(), 0) << result.DebugString();
}

TEST(CooperativeGroups, TileRankRepeatsAcrossTilesSoATileIndexedSlotRaces) {
  auto result = analyzeCode(R"(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void lanes(int *out) {
  __shared__ int s[32];
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  s[tile.thread_rank()] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x % 32];
}
int main() { int *o; cudaMalloc(&o, 1024); lanes<<<1, 64>>>(o); }
)");
  auto races = findings(result, v1::RACE_CLASS_INTRA_BLOCK);
  ASSERT_FALSE(races.empty()) << result.DebugString();
  EXPECT_EQ(races.front().first().location().line(), 7u);
}

TEST(CooperativeGroups, GroupIndexAndThreadIndexAreTheBuiltinCoordinates) {
  auto result = analyzeCode(R"(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void scale(float *data, int n) {
  cg::thread_block block = cg::this_thread_block();
  int i = block.group_index().x * block.group_dim().x + block.thread_index().x;
  dim3 grid_threads = cg::this_grid().dim_threads();
  for (; i < n; i += grid_threads.x)
    data[i] *= 2.0f;
}
int main() { float *d; cudaMalloc(&d, 1 << 20); scale<<<64, 256>>>(d, 1 << 18); }
)");
  EXPECT_EQ(result.candidates_size(), 0) << result.DebugString();
}

// A tile reduces values staged by other tiles of its block: the block sync
// orders the staging, and the collective itself needs no barrier.
const char *kTileReduce = R"(
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void tileSums(const float *in, float *sums) {
  __shared__ float staged[128];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  staged[block.thread_rank()] = in[blockIdx.x * 128 + block.thread_rank()];
  %s
  float v = staged[(block.thread_rank() + 32) %% 128];
  float total = cg::reduce(tile, v, cg::plus<float>());
  staged[block.thread_rank()] = total;
  if (tile.thread_rank() == 0)
    sums[blockIdx.x * 4 + tile.meta_group_rank()] = total;
}
int main() { float *i, *s; cudaMalloc(&i, 1 << 16); cudaMalloc(&s, 1 << 12); tileSums<<<64, 128>>>(i, s); }
)";

TEST(CooperativeGroups, ReduceIsACollectiveOfItsTile) {
  char synced[2048], unsynced[2048];
  std::snprintf(synced, sizeof synced, kTileReduce, "block.sync();");
  std::snprintf(unsynced, sizeof unsynced, kTileReduce, "");
  auto ordered = analyzeCode(synced);
  // The reads at line 11 and the writes at line 13 of other tiles are not
  // ordered by the tile's collective: that pair races across tiles.
  EXPECT_FALSE(hasRaceBetween(ordered, 9, 11)) << ordered.DebugString();
  EXPECT_TRUE(hasRaceBetween(ordered, 11, 13)) << ordered.DebugString();
  EXPECT_TRUE(hasRaceBetween(analyzeCode(unsynced), 9, 11));
}

TEST(CooperativeGroups, ScanOrdersTheLanesOfItsTile) {
  auto result = analyzeCode(R"(
#include <cooperative_groups.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;
__global__ void offsets(const int *counts, int *out) {
  __shared__ int lane_counts[32];
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  lane_counts[tile.thread_rank()] = counts[threadIdx.x];
  int start = cg::exclusive_scan(tile, lane_counts[(tile.thread_rank() + 1) % 32], cg::plus<int>());
  lane_counts[tile.thread_rank()] = start;
  out[threadIdx.x] = start;
}
int main() { int *c, *o; cudaMalloc(&c, 128); cudaMalloc(&o, 128); offsets<<<1, 32>>>(c, o); }
)");
  // The read feeds the scan, which every lane enters before any lane
  // leaves it: the read at line 9 comes before the write at line 10 of
  // every other lane. The write at line 8 is unordered with that read.
  EXPECT_FALSE(hasRaceBetween(result, 9, 10)) << result.DebugString();
  EXPECT_TRUE(hasRaceBetween(result, 8, 9)) << result.DebugString();
}

TEST(CooperativeGroups, ThreadGroupParameterIsTheGroupPassedIn) {
  // One helper over a type-erased thread_group: its rank and sync() are the
  // block's in the first call, an 8-lane tile's in the second (a
  // tiled_partition with a constant size), whose slice starts at the
  // block rank minus the tile rank.
  const std::string code = R"(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ void shiftLeft(cg::thread_group g, int *x) {
  int v = x[g.thread_rank()];
  g.sync();
  if (g.thread_rank() > 0) x[g.thread_rank() - 1] = v;
}
__global__ void k(int *out) {
  extern __shared__ int s[];
  cg::thread_block block = cg::this_thread_block();
  s[threadIdx.x] = threadIdx.x; block.sync();
  shiftLeft(block, s); block.sync();
  cg::thread_group tile = cg::tiled_partition(block, 8);
  shiftLeft(tile, s + (block.thread_rank() - tile.thread_rank()));
  SYNC
  out[threadIdx.x] = s[threadIdx.x];
}
int main() { int *o; cudaMalloc(&o, 4096); k<<<1, 64, 256>>>(o); }
)";
  auto with = [&](const char *sync) {
    std::string text = code;
    text.replace(text.find("SYNC"), 4, sync);
    return analyzeCode(text);
  };
  auto ordered = with("block.sync();");
  EXPECT_GT(ordered.pairs_checked(), 0);
  EXPECT_TRUE(findings(ordered).empty()) << ordered.DebugString();
  // Without the last barrier, the tile's write of x[rank - 1] at line 7
  // races with the read of the thread before it at line 17.
  EXPECT_TRUE(hasRaceBetween(with(""), 7, 17));
}

} // namespace
} // namespace gpurace::analyzer::testing
