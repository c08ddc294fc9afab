// Launches written `k << < grid, block >> > (args)`, as nvcc accepts them:
// the chevrons are joined with every other character left in place, and
// nothing else that looks alike is touched.
#include "analyzer/frontend/LaunchChevrons.h"
#include "analyzer/tests/AnalyzerTestSupport.h"

#include <gtest/gtest.h>

namespace gpurace::analyzer::testing {
namespace {

std::string joined(const std::string &text) {
  return joinSpacedLaunchChevrons(text).value_or("(unchanged)");
}

TEST(LaunchChevrons, SpacedChevronsOfALaunchAreJoinedInPlace) {
  EXPECT_EQ(joined("k << < g, b >> > (a, n);"), "k <<<  g, b >>>  (a, n);");
  EXPECT_EQ(joined("k<<\n  <g, b>>\t>(a);"), "k<<<\n  g, b>>>\t(a);");
  // Shifts and a nested call inside the configuration stay as they are.
  EXPECT_EQ(joined("k << < (n + 255) >> 8, f(b >> 1) >> > (a);"),
            "k <<<  (n + 255) >> 8, f(b >> 1) >>>  (a);");
}

TEST(LaunchChevrons, TextWithoutSpacedLaunchesIsLeftAlone) {
  EXPECT_EQ(joined("k<<<g, b>>>(a); x = y << 2; v <<= 1;"), "(unchanged)");
  EXPECT_EQ(joined("std::vector<std::vector<int>> > x; a >> > b;"), "(unchanged)");
  EXPECT_EQ(joined("// k << < g, b >> > (a);\nconst char *s = \"<< <\";"), "(unchanged)");
}

TEST(LaunchChevrons, AProgramLaunchingWithSpacedChevronsIsAnalyzedWithItsLaunch) {
  auto result = analyzeCode(R"(
__global__ void shift(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n) a[i] = a[i + 1];
}
int main() {
  int *a;
  cudaMalloc(&a, 1024 * sizeof(int));
  shift << < 4, 256 >> > (a, 1024);
}
)");
  EXPECT_EQ(result.errors_size(), 0) << result.DebugString();
  auto races = findings(result, v1::RACE_CLASS_INTER_BLOCK);
  ASSERT_FALSE(races.empty()) << result.DebugString();
  EXPECT_EQ(races.front().witness().block_dim().x(), 256u);
  EXPECT_EQ(races.front().witness().grid_dim().x(), 4u);
}

} // namespace
} // namespace gpurace::analyzer::testing
