// A kernel with no launch in view that indexes `y * width + x` without a
// bounds check, or stages `tile[ty][tx]` in shared memory: its races
// through a thread past the end of its row, or outside the tile, are
// ranked below the threshold and say why; races that a launch that fits
// the data has are findings as before; and with a launch in view, or with
// the host left out on purpose, the launch decides, never these notes.
#include "analyzer/check/Delinearization.h"
#include "analyzer/tests/AnalyzerTestSupport.h"

#include <gtest/gtest.h>

namespace gpurace::analyzer::testing {
namespace {

bool overrunsRow(const v1::RaceCandidate &candidate) {
  for (const v1::Imprecision &why : candidate.imprecisions())
    if (why.kind() == v1::IMPRECISION_KIND_ROW_OVERRUN)
      return true;
  return false;
}

bool overrunsTile(const v1::RaceCandidate &candidate) {
  for (const v1::Imprecision &why : candidate.imprecisions())
    if (why.kind() == v1::IMPRECISION_KIND_TILE_OVERRUN)
      return true;
  return false;
}

const char *const kTransform = R"(
extern "C" __global__ void transform(float *out, int width, float gain) {
  unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * width + x] = gain * x;
}
)";

TEST(RowExtents, RacesOnlyAThreadPastItsRowHasAreRankedBelowTheThreshold) {
  v1::AnalysisResult result = analyzeCode(kTransform);
  EXPECT_TRUE(findings(result).empty()) << result.DebugString();
  ASSERT_FALSE(result.candidates().empty()) << "the launch the solver picks still races";
  for (const v1::RaceCandidate &candidate : result.candidates()) {
    EXPECT_TRUE(overrunsRow(candidate)) << candidate.DebugString();
    EXPECT_LT(candidate.score(), 0.5) << candidate.DebugString();
  }
}

TEST(RowExtents, ARaceWithinTheRowsStaysAFinding) {
  v1::AnalysisResult result = analyzeCode(R"(
extern "C" __global__ void smooth(float *image, int width) {
  unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned int y = blockIdx.y;
  if (x + 1 < width)
    image[y * width + x] = image[y * width + x] + image[y * width + x + 1];
}
)");
  std::vector<v1::RaceCandidate> races = findings(result);
  ASSERT_FALSE(races.empty()) << result.DebugString();
  for (const v1::RaceCandidate &race : races)
    EXPECT_FALSE(overrunsRow(race)) << race.DebugString();
}

TEST(RowExtents, ALaunchInViewDecidesWithoutTheNote) {
  // The host launches a grid wider than the image: the overrun is real.
  v1::AnalysisResult result = analyzeCode(std::string(kTransform) + R"(
#include <cstdlib>
int main(int argc, char **argv) {
  int width = atoi(argv[1]);
  float *out;
  cudaMalloc(&out, 1 << 20);
  transform<<<dim3(width / 16 + 2, 4), dim3(16, 16)>>>(out, width, 2.0f);
}
)");
  std::vector<v1::RaceCandidate> races = findings(result);
  ASSERT_FALSE(races.empty()) << result.DebugString();
  for (const v1::RaceCandidate &candidate : result.candidates())
    EXPECT_FALSE(overrunsRow(candidate)) << candidate.DebugString();
}

TEST(RowExtents, KernelsAnalyzedAloneOnPurposeAreAskedAboutEveryLaunch) {
  AnalyzeOptions options;
  options.host_facts = false;
  v1::AnalysisResult result = analyzeCode(kTransform, options);
  ASSERT_FALSE(findings(result).empty()) << result.DebugString();
  for (const v1::RaceCandidate &candidate : result.candidates())
    EXPECT_FALSE(overrunsRow(candidate)) << candidate.DebugString();
}

// Each block writes one TILE x TILE square of the output; the square's
// columns `TILE * bx + tx` run into the next block's only where tx passes
// the tile, a thread that also indexes the shared tile past its side.
const char *const kTiledProduct = R"(
template <int TILE>
__device__ void product(float *out, const float *x, const float *y, int wx, int wy) {
  int tx = threadIdx.x, ty = threadIdx.y;
  float sum = 0;
  for (int i = wx * TILE * blockIdx.y, j = TILE * blockIdx.x;
       i < wx * TILE * blockIdx.y + wx; i += TILE, j += TILE * wy) {
    __shared__ float xs[TILE][TILE];
    __shared__ float ys[TILE][TILE];
    xs[ty][tx] = x[i + wx * ty + tx];
    ys[ty][tx] = y[j + wy * ty + tx];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      sum += xs[ty][k] * ys[k][tx];
    __syncthreads();
  }
  out[wy * TILE * blockIdx.y + TILE * blockIdx.x + wy * ty + tx] = sum;
}
extern "C" __global__ void product8(float *out, const float *x, const float *y, int wx, int wy) {
  product<8>(out, x, y, wx, wy);
}
)";

TEST(TileExtents, RacesOnlyABlockWiderThanTheTileHasAreRankedBelowTheThreshold) {
  v1::AnalysisResult result = analyzeCode(kTiledProduct);
  EXPECT_TRUE(findings(result).empty()) << result.DebugString();
  bool tile_noted = false;
  for (const v1::RaceCandidate &candidate : result.candidates()) {
    EXPECT_TRUE(overrunsRow(candidate) || overrunsTile(candidate)) << candidate.DebugString();
    EXPECT_LT(candidate.score(), 0.5) << candidate.DebugString();
    if (overrunsTile(candidate)) {
      tile_noted = true;
      // Both tiles are indexed by the thread's coordinates.
      for (const v1::Imprecision &why : candidate.imprecisions())
        if (why.kind() == v1::IMPRECISION_KIND_TILE_OVERRUN)
          EXPECT_NE(why.detail().find("'xs', 'ys'"), std::string::npos) << why.detail();
    }
  }
  EXPECT_TRUE(tile_noted) << "across blocks, only a block wider than the tile races:\n"
                          << result.DebugString();
}

TEST(TileExtents, ALaunchWithBlocksWiderThanTheTileIsAFinding) {
  // The host's block is twice the tile's side: the columns of one block
  // run into the next block's square, a real race.
  v1::AnalysisResult result = analyzeCode(std::string(kTiledProduct) + R"(
int main() {
  float *out, *x, *y;
  cudaMalloc(&out, 64 * 64 * sizeof(float));
  cudaMalloc(&x, 64 * 64 * sizeof(float));
  cudaMalloc(&y, 64 * 64 * sizeof(float));
  product8<<<dim3(8, 8), dim3(16, 8)>>>(out, x, y, 64, 64);
}
)");
  std::vector<v1::RaceCandidate> races = findings(result, v1::RACE_CLASS_INTER_BLOCK);
  ASSERT_FALSE(races.empty()) << result.DebugString();
  for (const v1::RaceCandidate &candidate : result.candidates())
    EXPECT_FALSE(overrunsTile(candidate)) << candidate.DebugString();
}

TEST(RowExtents, AnOffsetSplitsIntoItsRowStrideAndColumn) {
  z3::context c;
  z3::expr width = c.int_const("width"), x = c.int_const("x"), y = c.int_const("y");
  auto launch_wide = [&](const z3::expr &e) { return z3::eq(e, width); };
  std::vector<RowSplit> splits = rowSplits((y * width + x + 1) * 4, launch_wide);
  ASSERT_EQ(splits.size(), 1u);
  EXPECT_TRUE(z3::eq(splits[0].stride, width));
  z3::solver solver(c);
  solver.add(splits[0].rest != x * 4);
  EXPECT_EQ(solver.check(), z3::unsat) << splits[0].rest;
  EXPECT_TRUE(rowSplits(y * 4 + x, launch_wide).empty());
}

} // namespace
} // namespace gpurace::analyzer::testing
