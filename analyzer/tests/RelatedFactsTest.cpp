// Host facts that never reach the kernel (a timing loop's counter, a flag
// tested on the way to the launch) are left out of its launch context,
// unless they contradict each other and so show the launch unreachable.
#include "analyzer/host/RelatedFacts.h"
#include "analyzer/tests/AnalyzerTestSupport.h"

#include <gtest/gtest.h>

#include <string>

namespace gpurace::analyzer::testing {
namespace {

bool lists(const google::protobuf::RepeatedPtrField<v1::Assumption> &assumptions,
           const std::string &text) {
  for (const v1::Assumption &assumption : assumptions)
    if (assumption.description().find(text) != std::string::npos)
      return true;
  return false;
}

// Each thread moves its neighbour's element: a race across threads.
const char *const kShift = R"(
__global__ void shift(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n) d[i + 1] = d[i] * 0.5f;
}
)";

TEST(RelatedFacts, AFindingListsTheLaunchsFactsButNotItsTimingLoopOrFlags) {
  auto result = analyzeCode(std::string(kShift) + R"(
int main(int argc, char **argv) {
  int n = 1 << 20;
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  if (argc > 1)
    for (int rep = 0; rep < 10; ++rep)
      shift<<<n / 256, 256>>>(d, n);
}
)");
  auto found = findings(result);
  ASSERT_FALSE(found.empty()) << result.DebugString();
  const auto &used = found[0].assumptions();
  EXPECT_TRUE(lists(used, "blockDim.x == 256")) << found[0].DebugString();
  EXPECT_TRUE(lists(used, "argument n = 1048576")) << found[0].DebugString();
  EXPECT_TRUE(lists(used, "'d' holds")) << found[0].DebugString();
  EXPECT_FALSE(lists(used, "rep")) << found[0].DebugString();
  EXPECT_FALSE(lists(used, "argc")) << found[0].DebugString();
}

TEST(RelatedFacts, AFlagThatSetsTheBlockSizeStaysWithTheLaunch) {
  // The flag chooses the block's size, which the race depends on: the
  // finding's launch keeps the condition it was reached under.
  auto result = analyzeCode(std::string(kShift) + R"(
int main(int argc, char **argv) {
  int threads = 128;
  if (argc > 1)
    threads = 256;
  int n = 1 << 20;
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  if (argc > 2)
    shift<<<n / threads, threads>>>(d, n);
}
)");
  auto found = findings(result);
  ASSERT_FALSE(found.empty()) << result.DebugString();
  EXPECT_TRUE(lists(found[0].assumptions(), "argc > 2")) << found[0].DebugString();
}

TEST(RelatedFacts, UnrelatedFactsThatContradictEachOtherStillMakeTheLaunchUnreachable) {
  auto result = analyzeCode(std::string(kShift) + R"(
int main(int argc, char **argv) {
  int mode = argc;
  float *d;
  cudaMalloc(&d, 1 << 22);
  if (mode > 5 && mode < 3)
    shift<<<4096, 256>>>(d, 1 << 20);
}
)");
  EXPECT_TRUE(findings(result).empty()) << result.DebugString();
  ASSERT_GT(result.race_freedom_proofs_size(), 0) << result.DebugString();
  EXPECT_TRUE(lists(result.race_freedom_proofs(0).assumptions(), "mode > 5 && mode < 3"))
      << result.DebugString();
}

// The instances of a template share one answer per set of facts, in
// whatever Z3 context each is built: known by the facts' text, not by how
// many there are or which context asked first.
TEST(RelatedFacts, FactSetVerdictsAnswerEachSetOfFactsByWhatItSays) {
  FactSetVerdicts verdicts;
  z3::context first, second;
  z3::expr x = first.int_const("host:x");
  EXPECT_TRUE(verdicts.satisfiable({x > 1, x < 5}, first));
  EXPECT_FALSE(verdicts.satisfiable({x > 1, x < 0}, first));
  z3::expr y = second.int_const("host:x");
  EXPECT_FALSE(verdicts.satisfiable({y > 1, y < 0}, second));
  EXPECT_TRUE(verdicts.satisfiable({y > 1, y < 5}, second));
  z3::expr z = second.int_const("host:z");
  EXPECT_FALSE(verdicts.satisfiable({z > 1, z < 0}, second));
}

} // namespace
} // namespace gpurace::analyzer::testing
