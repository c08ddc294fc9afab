// Synchronization beyond block barriers: grid syncs of cooperative groups,
// warp barriers with masks, fences, locks and flags.
#include "analyzer/tests/AnalyzerTestSupport.h"

#include <gtest/gtest.h>

namespace gpurace::analyzer::testing {
namespace {

bool hasDivergenceAt(const v1::AnalysisResult &result, unsigned line) {
  for (const auto &c : findings(result, v1::RACE_CLASS_BARRIER_DIVERGENCE))
    if (c.first().location().line() == line)
      return true;
  return false;
}

TEST(SyncSemantics, GridSyncOrdersBlocksAcrossIt) {
  const char *code = R"(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void twoPhase(float *partial, float *out) {
  cg::grid_group grid = cg::this_grid();
  if (threadIdx.x == 0) partial[blockIdx.x] = 1.0f;
  %s
  if (blockIdx.x == 0 && threadIdx.x == 0) *out = partial[gridDim.x - 1];
}
int main() {
  float *p, *o; cudaMalloc(&p, 4096); cudaMalloc(&o, 4);
  void *args[] = {&p, &o};
  cudaLaunchCooperativeKernel((void *)twoPhase, 8, 32, args);
}
)";
  char synced[1024], unsynced[1024];
  std::snprintf(synced, sizeof synced, code, "grid.sync();");
  std::snprintf(unsynced, sizeof unsynced, code, "__syncthreads();");
  EXPECT_TRUE(findings(analyzeCode(synced)).empty());
  auto racy = analyzeCode(unsynced);
  EXPECT_FALSE(findings(racy, v1::RACE_CLASS_INTER_BLOCK).empty()) << racy.DebugString();
}

TEST(SyncSemantics, ThreadBlockSyncIsABlockBarrier) {
  auto result = analyzeCode(R"(
#include <cooperative_groups.h>
__global__ void rotate(int *out) {
  __shared__ int s[64];
  cooperative_groups::thread_block block = cooperative_groups::this_thread_block();
  s[threadIdx.x] = threadIdx.x;
  block.sync();
  out[threadIdx.x] = s[(threadIdx.x + 1) % 64];
}
int main() { int *o; cudaMalloc(&o, 256); rotate<<<1, 64>>>(o); }
)");
  EXPECT_TRUE(findings(result).empty()) << result.DebugString();
}

TEST(SyncSemantics, GridSyncReachedByOnlySomeBlocksDiverges) {
  auto result = analyzeCode(R"(
#include <cooperative_groups.h>
__global__ void phases(int *a) {
  auto grid = cooperative_groups::this_grid();
  if (blockIdx.x > 0)
    grid.sync();
  a[blockIdx.x] = 1;
}
int main() { int *a; cudaMalloc(&a, 64); phases<<<4, 32>>>(a); }
)");
  EXPECT_TRUE(hasDivergenceAt(result, 6)) << result.DebugString();
}

TEST(SyncSemantics, SyncwarpDivergesOnlyForLanesInItsMask) {
  const char *code = R"(
__global__ void half(int *a) {
  int lane = threadIdx.x %% 32;
  if (lane < 16)
    __syncwarp(%s);
  a[threadIdx.x] = lane;
}
int main() { int *a; cudaMalloc(&a, 4096); half<<<1, 64>>>(a); }
)";
  char lower[512], full[512];
  std::snprintf(lower, sizeof lower, code, "0x0000ffff");
  std::snprintf(full, sizeof full, code, "");
  EXPECT_FALSE(hasDivergenceAt(analyzeCode(lower), 5));
  auto diverging = analyzeCode(full);
  EXPECT_TRUE(hasDivergenceAt(diverging, 5)) << diverging.DebugString();
}

} // namespace
} // namespace gpurace::analyzer::testing
