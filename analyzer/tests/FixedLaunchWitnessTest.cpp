// A pair whose offsets multiply thread coordinates by sizes the command
// line chooses (`r * width + c` against `c * width + r`) is nonlinear, and
// the solver may give up on it. Its races are then looked for in launches
// the host allows with those sizes fixed, where the query is linear: the
// witnesses found there must be real collisions of two threads the launch
// has, in the class the finding names.
#include "analyzer/tests/AnalyzerTestSupport.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace gpurace::analyzer::testing {
namespace {

// The lower triangle of a height x width matrix mirrored onto the upper
// one in place: for width < height, what one thread writes another reads.
const std::string kMirrorKernel = R"(
#include <cstdlib>
__global__ void mirrorLower(float *m, int height, int width) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (c < width && r < height && r > c)
    m[r * width + c] = m[c * width + r];
}
)";

const std::string kMirror = kMirrorKernel + R"(int main(int argc, char **argv) {
  if (argc < 3) return 1;
  int height = atoi(argv[1]);
  int width = atoi(argv[2]);
  float *m;
  cudaMalloc(&m, (size_t)height * width * sizeof(float));
  dim3 block(16, 16);
  dim3 grid((width + 15) / 16, (height + 15) / 16);
  mirrorLower<<<grid, block>>>(m, height, width);
}
)";

// The same with sizes that default when the command line gives none. At an
// effort too small for the nonlinear query, each race is found in a launch
// the host allows with `width` fixed small: within a warp only a width
// small next to the block's side wraps a row onto the one beside it.
const std::string kMirrorWithDefaults = kMirrorKernel + R"(int main(int argc, char **argv) {
  int height = argc > 2 ? atoi(argv[1]) : 8;
  int width = argc > 2 ? atoi(argv[2]) : 4;
  float *m;
  cudaMalloc(&m, (size_t)height * width * sizeof(float));
  dim3 block(16, 16);
  dim3 grid((width + 15) / 16, (height + 15) / 16);
  mirrorLower<<<grid, block>>>(m, height, width);
}
)";

struct Cell {
  int64_t row, column;
};

Cell cellOf(const v1::ThreadCoord &thread, const v1::Witness &witness) {
  return {int64_t(thread.block_idx().y()) * witness.block_dim().y() + thread.thread_idx().y(),
          int64_t(thread.block_idx().x()) * witness.block_dim().x() + thread.thread_idx().x()};
}

int64_t rank(const v1::ThreadCoord &thread, const v1::Witness &witness) {
  return thread.thread_idx().x() + int64_t(witness.block_dim().x()) * thread.thread_idx().y();
}

bool sameBlock(const v1::ThreadCoord &a, const v1::ThreadCoord &b) {
  return a.block_idx().x() == b.block_idx().x() && a.block_idx().y() == b.block_idx().y();
}

// Whether the witness shows two distinct threads of its launch, both past
// the guard, one writing the element the other reads or writes.
void expectRealCollision(const v1::RaceCandidate &race) {
  ASSERT_TRUE(race.has_witness()) << race.DebugString();
  const v1::Witness &w = race.witness();
  std::map<std::string, int64_t> values;
  for (const v1::NamedValue &param : w.parameters())
    values[param.name()] = std::stoll(param.value());
  ASSERT_TRUE(values.count("height") && values.count("width")) << w.DebugString();
  int64_t height = values["height"], width = values["width"];
  EXPECT_EQ(w.block_dim().x(), 16u);
  EXPECT_EQ(w.block_dim().y(), 16u);
  EXPECT_EQ(w.grid_dim().x(), uint32_t((width + 15) / 16)) << w.DebugString();
  EXPECT_EQ(w.grid_dim().y(), uint32_t((height + 15) / 16)) << w.DebugString();
  Cell a = cellOf(w.first(), w), b = cellOf(w.second(), w);
  for (const Cell &cell : {a, b})
    EXPECT_TRUE(cell.column < width && cell.row < height && cell.row > cell.column)
        << w.DebugString();
  bool distinct = a.row != b.row || a.column != b.column;
  EXPECT_TRUE(distinct) << w.DebugString();
  bool collide = a.row * width + a.column == b.column * width + b.row ||
                 a.column * width + a.row == b.row * width + b.column;
  EXPECT_TRUE(collide) << w.DebugString();
  if (race.race_class() == v1::RACE_CLASS_INTRA_BLOCK ||
      race.race_class() == v1::RACE_CLASS_INTRA_WARP)
    EXPECT_TRUE(sameBlock(w.first(), w.second())) << w.DebugString();
  if (race.race_class() == v1::RACE_CLASS_INTRA_WARP)
    EXPECT_EQ(rank(w.first(), w) / 32, rank(w.second(), w) / 32) << w.DebugString();
  if (race.race_class() == v1::RACE_CLASS_INTER_BLOCK)
    EXPECT_FALSE(sameBlock(w.first(), w.second())) << w.DebugString();
}

TEST(FixedLaunchWitness, AMirroredRectangleRacesWithinABlockAndAWarpWithRealWitnesses) {
  AnalyzeOptions options;
  // Effort alone decides, as on a quiet machine: no wall-clock cap.
  options.query_timeout_ms = 600000;
  v1::AnalysisResult result = analyzeCode(kMirror, options);
  for (v1::RaceClass kind : {v1::RACE_CLASS_INTRA_BLOCK, v1::RACE_CLASS_INTRA_WARP}) {
    std::vector<v1::RaceCandidate> races = findings(result, kind);
    ASSERT_EQ(races.size(), 1u) << v1::RaceClass_Name(kind) << "\n" << result.DebugString();
    expectRealCollision(races.front());
  }
}

// Each class needs its own shape: across blocks a row that spills into
// rows of another block, within a warp a width small next to the block.
TEST(FixedLaunchWitness, RacesANonlinearQueryLeavesOpenAreFoundWithSmallStrides) {
  AnalyzeOptions options;
  options.query_rlimit = 20000;
  // Effort alone decides: no wall-clock cap on a loaded machine.
  options.query_timeout_ms = 600000;
  v1::AnalysisResult result = analyzeCode(kMirrorWithDefaults, options);
  for (v1::RaceClass kind : {v1::RACE_CLASS_INTER_BLOCK, v1::RACE_CLASS_INTRA_BLOCK,
                             v1::RACE_CLASS_INTRA_WARP}) {
    std::vector<v1::RaceCandidate> races = findings(result, kind);
    ASSERT_EQ(races.size(), 1u) << v1::RaceClass_Name(kind) << "\n" << result.DebugString();
    expectRealCollision(races.front());
  }
}

} // namespace
} // namespace gpurace::analyzer::testing
