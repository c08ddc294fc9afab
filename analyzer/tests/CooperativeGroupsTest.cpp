// Ranks and sizes of cooperative groups are the thread's coordinates, not
// opaque results: kernels indexed by them are as precise as with threadIdx.
#include "analyzer/tests/AnalyzerTestSupport.h"

#include <gtest/gtest.h>

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

} // namespace
} // namespace gpurace::analyzer::testing
